/* SPDX-License-Identifier: MIT */
/*
 * The port contract on RISC-V under QEMU (the rest is port/common/board.c): the semihosting
 * trap, and minstret for the counter. Under `-icount shift=0,sleep=off` minstret counts guest
 * instructions exactly (docs/boards.md: RISC-V, counting instructions); without -icount QEMU returns host ticks.
 */
#include "port.h"
#include "board.h"

#include <stdint.h>

/* The semihosting sequence: uncompressed, the ebreak between two marker no-ops. */
uintptr_t copse_board_semihost(uintptr_t op, uintptr_t arg)
{
    register uintptr_t a0 __asm__("a0") = op;
    register uintptr_t a1 __asm__("a1") = arg;
    __asm__ volatile(".option push\n"
                     ".option norvc\n"
                     "slli x0, x0, 0x1f\n"
                     "ebreak\n"
                     "srai x0, x0, 7\n"
                     ".option pop\n"
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
    return a0;
}

void copse_board_counter_start(void)
{
}

uint64_t copse_port_counter(void)
{
    uint32_t hi, lo, again;
    do {
        __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
        __asm__ volatile("csrr %0, minstret" : "=r"(lo));
        __asm__ volatile("csrr %0, minstreth" : "=r"(again));
    } while (hi != again);
    return ((uint64_t)hi << 32) | lo;
}

/* SPDX-License-Identifier: MIT */
/*
 * The port contract on Cortex-M under QEMU (the rest is port/common/board.c): the semihosting
 * trap, and SysTick for the counter. Under `-icount shift=N,sleep=off` QEMU's virtual clock
 * advances 2^N ns per instruction, so SysTick ticks convert exactly into instructions
 * (docs/boards.md: counting instructions); the 24-bit SysTick is extended in software.
 */
#include "port.h"
#include "board.h"
#include "cortex_m.h"

#include <stdint.h>

#ifndef COPSE_SYSTICK_HZ
#define COPSE_SYSTICK_HZ 25000000u
#endif
#ifndef COPSE_ICOUNT_SHIFT
#define COPSE_ICOUNT_SHIFT 7
#endif

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

static volatile uint32_t g_systick_wraps;

uintptr_t copse_board_semihost(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void SysTick_Handler(void)
{
    g_systick_wraps++;
}

void copse_board_counter_start(void)
{
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 7u; /* processor clock, interrupt on wrap, enabled */
}

uint64_t copse_port_counter(void)
{
    uint32_t hi, cur;
    uint64_t ticks;
    do {
        hi = g_systick_wraps;
        cur = SYST_CVR;
    } while (hi != g_systick_wraps);
    ticks = ((uint64_t)hi << 24) + (0xFFFFFFu - cur);
    /* instructions = ticks * 1e9 / (hz * 2^shift), rounded */
    return (ticks * 1000000000ull + (((uint64_t)COPSE_SYSTICK_HZ << COPSE_ICOUNT_SHIFT) / 2u)) /
           ((uint64_t)COPSE_SYSTICK_HZ << COPSE_ICOUNT_SHIFT);
}

/* SPDX-License-Identifier: MIT */
/*
 * Start-up for RV32 machines (QEMU virt, and real parts with the same memory map): _start sets
 * gp, sp and the trap vector, turns the FPU on where there is one, sets up .data, .bss and the
 * thread-local block (picolibc keeps errno there); a trap handler that reports mcause, mepc and
 * mtval and exits 99 instead of spinning.
 */
#include <stdint.h>

#include "port.h"
#include "board.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;
extern uint32_t __tls_base;

void copse_riscv_reset(void);
void copse_riscv_trap(void);
void copse_riscv_trap_report(uint32_t mcause, uint32_t mepc, uint32_t mtval);

/* gp first, with relaxation off (la gp would otherwise be relaxed against gp itself); the trap
 * vector before anything can trap; mstatus.FS = Initial before the first FP instruction (the
 * C code's prologues may save FP registers). */
__asm__(".section .text.start, \"ax\"\n"
        ".global _start\n"
        "_start:\n"
        ".option push\n"
        ".option norelax\n"
        "    la gp, __global_pointer$\n"
        ".option pop\n"
        "    la sp, _estack\n"
        "    la t0, copse_riscv_trap\n"
        "    csrw mtvec, t0\n"
#if defined(__riscv_flen)
        "    li t0, 0x2000\n"
        "    csrs mstatus, t0\n"
        "    csrw fcsr, zero\n"
#endif
        "    j copse_riscv_reset\n"
        /* A trap: a fresh stack (the old one may be why it trapped), then the report. */
        ".balign 4\n"
        ".global copse_riscv_trap\n"
        "copse_riscv_trap:\n"
        "    la sp, _estack\n"
        "    csrr a0, mcause\n"
        "    csrr a1, mepc\n"
        "    csrr a2, mtval\n"
        "    j copse_riscv_trap_report\n"
        ".text\n");

void copse_riscv_reset(void)
{
    uint32_t *src, *dst;
    for (src = &_sidata, dst = &_sdata; dst < &_edata;)
        *dst++ = *src++;
    for (dst = &_sbss; dst < &_ebss;)
        *dst++ = 0;
    __asm__ volatile("mv tp, %0" : : "r"(&__tls_base));
    copse_board_start();
}

void copse_riscv_trap_report(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
    static const char *const names[16] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction",
        "breakpoint", "load address misaligned", "load access fault", "store address misaligned",
        "store access fault", "ecall from U-mode", "ecall from S-mode", "reserved", "ecall from M-mode",
        "instruction page fault", "load page fault", "reserved", "store page fault",
    };
    const char *what = (mcause & 0x80000000u) ? "interrupt" : names[mcause & 15u];
    copse_port_printf("\nFAULT: pc=0x%08x mcause=0x%08x (%s) mtval=0x%08x\n", (unsigned)mepc, (unsigned)mcause,
                      what, (unsigned)mtval);
    copse_port_exit(99);
}

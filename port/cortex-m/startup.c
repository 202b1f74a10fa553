/* SPDX-License-Identifier: MIT */
/*
 * Start-up for Cortex-M0 .. M55 under QEMU (and real parts with the same memory map):
 * vector table, .data/.bss set-up, FPU enable, stack painting, and a fault handler
 * that reports where it happened and exits 99 instead of locking up.
 */
#include <stdint.h>

#include "port.h"
#include "board.h"
#include "cortex_m.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;

typedef void (*vector_fn)(void);

__attribute__((section(".vectors"), used)) const vector_fn copse_vectors[16 + 32] = {
    (vector_fn)(uintptr_t)&_estack,
    Reset_Handler,
    Default_Handler, /* NMI */
    Fault_Entry,     /* HardFault */
    Fault_Entry,     /* MemManage */
    Fault_Entry,     /* BusFault */
    Fault_Entry,     /* UsageFault */
    0, 0, 0, 0,
    Default_Handler, /* SVC */
    Default_Handler, /* DebugMon */
    0,
    Default_Handler, /* PendSV */
    SysTick_Handler,
    /* external interrupts: none used */
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler,
};

void Reset_Handler(void)
{
    uint32_t *src, *dst;
#if defined(__ARM_FP)
    /* CP10/CP11 full access before the first FP instruction (main's prologue may have one). */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    for (src = &_sidata, dst = &_sdata; dst < &_edata;)
        *dst++ = *src++;
    for (dst = &_sbss; dst < &_ebss;)
        *dst++ = 0;
    copse_board_start();
}

void Default_Handler(void)
{
    copse_port_write("\nFAULT: unexpected interrupt\n");
    copse_port_exit(99);
}

/* Find the stacked frame (MSP or PSP) without Thumb-2 instructions, so M0 runs it too. */
__attribute__((naked)) void Fault_Entry(void)
{
    __asm__ volatile(
        ".syntax unified\n"
        "movs r0, #4\n"
        "mov r1, lr\n"
        "tst r0, r1\n"
        "bne 1f\n"
        "mrs r0, msp\n"
        "b 2f\n"
        "1: mrs r0, psp\n"
        "2: ldr r2, =cortex_m_fault_report\n"
        "bx r2\n"
        ".ltorg\n");
}

void cortex_m_fault_report(const uint32_t *frame)
{
    uint32_t cfsr = *(volatile uint32_t *)0xE000ED28u;
    uint32_t hfsr = *(volatile uint32_t *)0xE000ED2Cu;
    copse_port_printf("\nFAULT: pc=0x%08x lr=0x%08x cfsr=0x%08x hfsr=0x%08x\n",
                      (unsigned)frame[6], (unsigned)frame[5], (unsigned)cfsr, (unsigned)hfsr);
    copse_port_exit(99);
}

/* SPDX-License-Identifier: MIT */
/*
 * The port contract on Cortex-M under QEMU: semihosting for text and exit,
 * SysTick for the counter. Under `-icount shift=N,sleep=off` QEMU's virtual
 * clock advances 2^N ns per instruction, so SysTick ticks convert exactly
 * into instructions (BOARDS.md §4); the 24-bit SysTick is extended in software.
 */
#include "port.h"
#include "cortex_m.h"

#include <stdint.h>

#ifndef COPSE_BOARD_NAME
#define COPSE_BOARD_NAME "cortex-m"
#endif
#ifndef COPSE_SYSTICK_HZ
#define COPSE_SYSTICK_HZ 25000000u
#endif
#ifndef COPSE_ICOUNT_SHIFT
#define COPSE_ICOUNT_SHIFT 7
#endif

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define STACK_PAINT 0xDEADBEEFu

extern uint32_t _sstack, _estack;
extern uint32_t __scratch_start, __scratch_end;

static volatile uint32_t g_systick_wraps;

static uintptr_t semihost(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void copse_port_init(int argc, char **argv)
{
    (void)argc;
    (void)argv;
}

void copse_port_write(const char *text)
{
    semihost(0x04u, (uintptr_t)text); /* SYS_WRITE0 */
}

void copse_port_exit(int code)
{
    uintptr_t block[2];
    block[0] = 0x20026u; /* ADP_Stopped_ApplicationExit */
    block[1] = (uintptr_t)(unsigned)code;
    semihost(0x20u, (uintptr_t)block); /* SYS_EXIT_EXTENDED: QEMU exits with code & 0xff */
    for (;;) {
    }
}

void SysTick_Handler(void)
{
    g_systick_wraps++;
}

void cortex_m_counter_start(void)
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

const char *copse_port_counter_unit(void)
{
    return "insn";
}

const char *copse_port_name(void)
{
    return COPSE_BOARD_NAME;
}

void *copse_port_scratch(size_t *size)
{
    *size = (size_t)((uintptr_t)&__scratch_end - (uintptr_t)&__scratch_start);
    return &__scratch_start;
}

const char *copse_port_option(const char *name)
{
    (void)name;
    return 0;
}

/* Paint from the stack's low end up to just below the current frame. */
void cortex_m_paint_stack(void)
{
    volatile uint32_t *p = &_sstack;
    uint32_t here;
    volatile uint32_t *limit = (volatile uint32_t *)((uintptr_t)&here - 64u);
    while (p < limit)
        *p++ = STACK_PAINT;
}

size_t cortex_m_stack_used(void)
{
    const volatile uint32_t *p = &_sstack;
    while (p < &_estack && *p == STACK_PAINT)
        p++;
    return (size_t)((uintptr_t)&_estack - (uintptr_t)p);
}

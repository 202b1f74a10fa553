/* SPDX-License-Identifier: MIT */
/*
 * The parts of the port contract that every board shares, whatever its architecture: text and
 * exit by semihosting (the architecture supplies the trap, port/<arch>), the scratch region and
 * the stack between the linker script's symbols, and the stack's high-water mark.
 */
#include "port.h"
#include "board.h"

#ifndef COPSE_BOARD_NAME
#define COPSE_BOARD_NAME "board"
#endif

#define STACK_PAINT 0xDEADBEEFu

int main(int argc, char **argv);

void copse_port_init(int argc, char **argv)
{
    (void)argc;
    (void)argv;
}

void copse_port_write(const char *text)
{
    (void)copse_board_semihost(0x04u, (uintptr_t)text); /* SYS_WRITE0 */
}

void copse_port_exit(int code)
{
    uintptr_t block[2];
    block[0] = 0x20026u; /* ADP_Stopped_ApplicationExit */
    block[1] = (uintptr_t)(unsigned)code;
    (void)copse_board_semihost(0x20u, (uintptr_t)block); /* SYS_EXIT_EXTENDED: QEMU exits with code & 0xff */
    for (;;) {
    }
}

void copse_board_start(void)
{
    copse_port_stack_paint();
    copse_board_counter_start();
    copse_port_exit(main(0, 0));
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
void copse_port_stack_paint(void)
{
    volatile uint32_t *p = &_sstack;
    uint32_t here;
    volatile uint32_t *limit = (volatile uint32_t *)((uintptr_t)&here - 64u);
    while (p < limit)
        *p++ = STACK_PAINT;
}

size_t copse_port_stack_used(void)
{
    const volatile uint32_t *p = &_sstack;
    while (p < &_estack && *p == STACK_PAINT)
        p++;
    return (size_t)((uintptr_t)&_estack - (uintptr_t)p);
}

uintptr_t copse_port_stack_top(void)
{
    return (uintptr_t)&_estack;
}

/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by the board ports (port/<arch>/, not the host): what every architecture
 * supplies to port/common/board.c, and the linker symbols every port/<arch>/<arch>.ld defines
 * (RAM: .data | .bss | scratch | stack, the stack at the top and painted).
 */
#ifndef COPSE_PORT_BOARD_H
#define COPSE_PORT_BOARD_H

#include <stddef.h>
#include <stdint.h>

extern uint32_t _sstack, _estack;                /* the stack: [_sstack, _estack) */
extern uint32_t __scratch_start, __scratch_end; /* what is left of RAM between .bss and the stack */

/* The architecture's semihosting call (ARM's operation numbers: SYS_WRITE0 0x04, SYS_EXIT_EXTENDED 0x20). */
uintptr_t copse_board_semihost(uintptr_t op, uintptr_t arg);

/* Start-up, once .data and .bss are set up: paint the stack, start the counter, run main, exit. */
void copse_board_start(void);

/* The architecture's instruction counter (port/<arch>), started by copse_board_start. */
void copse_board_counter_start(void);

#endif

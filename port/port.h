/* SPDX-License-Identifier: MIT */
/*
 * copse port contract: what tests, demos and benchmarks need from a machine.
 * The library (src/, include/) never includes this file.
 *
 *   copse_port_init      once, first thing in main
 *   copse_port_write     text out (console / semihosting)
 *   copse_port_printf    formatted text, the same digits on every machine
 *   copse_port_counter   a monotonic counter: ns on the host, instructions under QEMU -icount
 *   copse_port_exit      end the program with a status (0 pass, 1..98 failures, 99 fault)
 *   copse_port_scratch   a large free memory region for test and bench arenas
 *   copse_port_stack_*   boards only (port/common/board.c): the stack's high-water mark
 */
#ifndef COPSE_PORT_H
#define COPSE_PORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define COPSE_PORT_NORETURN __attribute__((noreturn))
#define COPSE_PORT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define COPSE_PORT_NORETURN
#define COPSE_PORT_PRINTF(f, a)
#endif

void copse_port_init(int argc, char **argv);
void copse_port_write(const char *text);
uint64_t copse_port_counter(void);
const char *copse_port_counter_unit(void); /* "ns" or "insn" */
const char *copse_port_name(void);         /* "host" or the board name */
void *copse_port_scratch(size_t *size);
COPSE_PORT_NORETURN void copse_port_exit(int code);

/* Boards only (not the host): paint the free stack below the caller's frame with a pattern;
 * later, the bytes from the stack's top down to the lowest word no longer painted. The
 * start-up code paints it once before main. copse_port_stack_top: the stack's top address. */
void copse_port_stack_paint(void);
size_t copse_port_stack_used(void);
uintptr_t copse_port_stack_top(void);

/* printf subset: %d %i %u %x %c %s %p %% with l/ll/z, and %f %e %g with a precision.
 * Float digits come from our own code, so host and targets print identical text. */
void copse_port_printf(const char *fmt, ...) COPSE_PORT_PRINTF(1, 2);

/* The same into a buffer; returns the length it wanted (like snprintf). */
int copse_port_snprintf(char *buf, size_t cap, const char *fmt, ...) COPSE_PORT_PRINTF(3, 4);
int copse_port_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);

/* Command-line options on the host (NULL on boards): the value after `name`, or NULL. */
const char *copse_port_option(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_PORT_H */

/* SPDX-License-Identifier: MIT */
/*
 * printf for an example that prints with <stdio.h>, on top of a board's port: formatted by
 * copse_port_vsnprintf (the digits every copse machine prints, %zu and %.2f included, which
 * newlib's printf in Debian's build lacks) and sent out by semihosting. These definitions are
 * linked before the C library (newlib-nano on Arm, picolibc on RISC-V), so its stdio (and the
 * system calls it needs) stays out.
 * copse itself calls none of this.
 */
#include <stdarg.h>
#include <stdio.h>

#include "port.h"

int printf(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = copse_port_vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    copse_port_write(line);
    return n;
}

/* GCC turns printf("text\n") into puts("text") and printf("x") into putchar('x'). */
int puts(const char *text)
{
    copse_port_write(text);
    copse_port_write("\n");
    return 1;
}

/* The name in parentheses: picolibc's <stdio.h> also defines putchar as a macro. */
int(putchar)(int c)
{
    char s[2];
    s[0] = (char)c;
    s[1] = '\0';
    copse_port_write(s);
    return c;
}

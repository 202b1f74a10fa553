/* SPDX-License-Identifier: MIT */
/* The port contract on a hosted machine (Linux, macOS): stdio, a monotonic clock, malloc'd scratch. */
#define _POSIX_C_SOURCE 200809L
#include "port.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOST_SCRATCH_BYTES ((size_t)512u << 20)

static int g_argc;
static char **g_argv;
static void *g_scratch;

void copse_port_init(int argc, char **argv)
{
    g_argc = argc;
    g_argv = argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
}

void copse_port_write(const char *text)
{
    fputs(text, stdout);
}

uint64_t copse_port_counter(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *copse_port_counter_unit(void)
{
    return "ns";
}

const char *copse_port_name(void)
{
    return "host";
}

void *copse_port_scratch(size_t *size)
{
    /* Lazily committed by the OS; tests use what they need of it. */
    if (g_scratch == NULL)
        g_scratch = malloc(HOST_SCRATCH_BYTES);
    *size = g_scratch ? HOST_SCRATCH_BYTES : 0;
    return g_scratch;
}

void copse_port_exit(int code)
{
    fflush(stdout);
    free(g_scratch);
    exit(code);
}

const char *copse_port_option(const char *name)
{
    int i;
    for (i = 1; i + 1 < g_argc; i++)
        if (strcmp(g_argv[i], name) == 0)
            return g_argv[i + 1];
    return NULL;
}

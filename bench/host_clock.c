/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "host_clock.h"

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double bench_now_s(void)
{
    return bench_now_ns() * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2u ? v[n / 2u] : 0.5 * (v[n / 2u - 1u] + v[n / 2u]);
}

/* SPDX-License-Identifier: MIT */
/*
 * Time and statistics for the host benchmarks (bench_host, bench_bsp, octree_bench, the
 * peers): a monotonic clock and the median the method asks for.
 */
#ifndef COPSE_BENCH_HOST_CLOCK_H
#define COPSE_BENCH_HOST_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC in nanoseconds, and in seconds. */
double bench_now_ns(void);
double bench_now_s(void);

/* The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID): time the thread was
 * not running (other processes on a shared machine) does not count. */
double bench_cpu_ns(void);

/* Median of v[0..n) (sorts v; n > 0). */
double bench_median(double *v, unsigned n);

#ifdef __cplusplus
}
#endif

#endif

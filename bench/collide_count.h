/* SPDX-License-Identifier: MIT */
/*
 * The counters of bench/collide_count.c (the counting build of make bench-collide only).
 * In the timed build collide_counts is an undefined weak symbol: its address is null.
 */
#ifndef COPSE_BENCH_COLLIDE_COUNT_H
#define COPSE_BENCH_COLLIDE_COUNT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    COLLIDE_COUNT_NODE_SAT,     /* copse__collide_sat(_pre): a node pair's separating-axis test (overlap walks) */
    COLLIDE_COUNT_NODE_GAP,     /* copse__collide_box_gap2: a node pair's distance bound (distance walks) */
    COLLIDE_COUNT_TRI_OVERLAP,  /* copse_geo_triangle_triangle_overlap */
    COLLIDE_COUNT_TRI_DISTANCE, /* copse_geo_triangle_triangle and _triangle_apart */
    COLLIDE_COUNT_POINT_TRI,    /* copse_geo_point_triangle */
    COLLIDE_COUNT_KINDS
};

uint64_t *collide_counts(void) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif

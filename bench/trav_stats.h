/* SPDX-License-Identifier: MIT */
/*
 * Traversal statistics: how many node boxes and primitives a query tests.
 *
 * copse's queries do not count their own work (the core stays lean), so these
 * replay the documented walks over the public node layout (bvh.h: depth-first
 * nodes, escape counts): near-first ordered traversal with a shrinking t_max or
 * distance for rays and nearest, the stackless escape walk for box overlap.
 * Host only; for analysis, not for speed. The replayed answer is returned so
 * the caller can check the replay against the library.
 */
#ifndef COPSE_TRAV_STATS_H
#define COPSE_TRAV_STATS_H

#include <stdint.h>

#include "copse/bvh.h"

typedef struct trav_count {
    uint32_t box_tests;  /* node bounds tested */
    uint32_t prim_tests; /* triangles tested */
} trav_count;

/* First hit: returns the triangle id (COPSE_NONE on a miss). */
uint32_t trav_raycast(const copse_bvh *bvh, const copse_ray3 *ray, trav_count *count);
/* Box overlap (primitives): returns the number of triangles that overlap. */
uint32_t trav_box(const copse_bvh *bvh, const copse_box3 *box, trav_count *count);
/* Nearest triangle: returns its id. */
uint32_t trav_nearest(const copse_bvh *bvh, const copse_vec3 *p, trav_count *count);

#endif

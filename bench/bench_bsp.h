/* SPDX-License-Identifier: MIT */
/*
 * What the BSP benchmarks share (host program bench_bsp.c, board firmware bench_bsp_fw.c):
 * a seeded RNG, generated scenes, and the brute force a user writes without a tree. Plain C99,
 * no I/O, no allocation: it builds for the host and for every board.
 */
#ifndef COPSE_BENCH_BSP_H
#define COPSE_BENCH_BSP_H

#include <stdint.h>

#include "copse/bsp.h"

typedef struct bsp_rng {
    uint64_t state;
} bsp_rng;

void bsp_rng_seed(bsp_rng *rng, uint64_t seed);
float bsp_rng_float(bsp_rng *rng, float lo, float hi); /* [lo, hi) */

/* n boxes on an integer grid in [0, extent)^2 x [0, 5): sizes 1..4 x 1..4 x 1..3. */
void bsp_gen_grid_boxes(bsp_rng *rng, copse_box3 *out, uint32_t n, float extent);
/* n extruded octagons in [0, extent)^2, 10 planes each, into planes[10 n] and brushes[n]. */
void bsp_gen_octagons(bsp_rng *rng, copse_plane *planes, copse_brush *brushes, uint32_t n, float extent);
/* n 2D boxes in [0, extent)^2 of sides 0.3..3. */
void bsp_gen_map2(bsp_rng *rng, copse_box2 *out, uint32_t n, float extent);
/* Segments from anywhere in [lo, hi] of up to `reach` times the extent per axis. */
void bsp_gen_segments3(bsp_rng *rng, const float *lo, const float *hi, float reach, copse_segment3 *out, uint32_t n);
void bsp_gen_segments2(bsp_rng *rng, const copse_box2 *scene, float reach, copse_segment2 *out, uint32_t n);

/* Brute force over every brush of a built tree (its own unit planes; with radius > 0 the
 * bevels too, as the tree's swept spheres): the first fraction, or 2 for none. */
float bsp_brute_trace(const copse_bsp3 *t, const copse_segment3 *s, float radius);
int bsp_brute_contents(const copse_bsp3 *t, copse_vec3 x);
/* Over every box clipped to the scene: the first t, or 2. */
float bsp_brute_segment2(const copse_box2 *boxes, uint32_t n, const copse_box2 *scene, const copse_segment2 *s);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The BSP test kit, shared by the bsp2 and bsp3 suites and the host suite on real meshes: a
 * pool over test_memory() (the micro:bit's whole RAM is in it: tests keep no static buffers),
 * an exact-size 3D build with its accounting checked, and the battery that judges every 3D
 * query family against brute force over the brushes in double precision (tests/test_bsp3.c).
 */
#ifndef COPSE_TEST_BSP_H
#define COPSE_TEST_BSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"
#include "test.h"

void bsp_pool_reset(void);
void *bsp_pool_alloc(size_t bytes); /* 8-aligned; NULL and a failed check when it does not fit */

/* Builds into an arena of exactly copse_bsp2_build_bytes() and checks the accounting. */
bool bsp2_build_exact(copse_bsp2 *t, const copse_box2 *scene, const copse_box2 *objects, uint32_t n,
                      uint32_t max_depth);

/* Builds into an arena of exactly copse_bsp3_build_bytes(): high water = that, used = the tree. */
bool bsp3_build_exact(copse_bsp3 *t, const copse_brush *brushes, uint32_t n, const copse_bsp3_params *p);

typedef struct bsp3_battery {
    const char *name;
    float lo[3], hi[3]; /* where queries start and end (grown by 5%) */
    float grid;         /* > 0: snap a third of the coordinates to multiples of it */
    float radius;       /* the largest swept sphere */
} bsp3_battery;

/* Points, rays (with their normals), swept spheres and boxes against brute force. */
void bsp3_run_oracle(const copse_bsp3 *t, const copse_brush *brushes, uint32_t n, const bsp3_battery *bt,
                     test_rng *rng, unsigned queries);

/* The hand-derived pair of tests/test_bsp3.c: unit boxes [0,1]^3 and [1,2]x[0,1]^2 (brushes 0, 1). */
void bsp3_two_boxes(copse_plane planes[2][6], copse_brush brushes[2]);

/* A random brush set of `kind` with n brushes from the pool, and the battery that fits it. */
#define BSP3_SET_KINDS 4u /* grid boxes, extruded polygons, tangent planes, huge */
bool bsp3_make_set(unsigned kind, uint32_t n, test_rng *rng, const copse_brush **brushes, bsp3_battery *bt);

/* Saves a built tree, views the blob and checks the view is the tree: the same arrays and
 * counts, the same answers to a batch of queries within the battery's bounds
 * (tests/test_blob_bsp.c). */
void bsp3_blob_round_trip(const copse_bsp3 *t, const bsp3_battery *bt, const char *what);

/* 2D (tests/test_bsp2.c): a map built and judged whole against brute force over its boxes:
 * leaf contents, visit orders, pairs, points, boxes, circles, segments. */
void bsp2_judge_map(const copse_box2 *scene, const copse_box2 *boxes, uint32_t n, uint32_t depth, uint64_t seed,
                    unsigned queries);

/* The same judge on a tree already built or viewed (its objects are the scene's boxes). */
#define BSP2_MAP_KINDS 4u /* grid, float, touching, huge */
void bsp2_judge_tree(const copse_bsp2 *t, unsigned kind, uint32_t depth, uint64_t seed, unsigned queries);
/* A random map of `kind` with n boxes from the pool; its name. */
bool bsp2_make_map(unsigned kind, uint32_t n, test_rng *rng, copse_box2 *scene, const copse_box2 **boxes);
const char *bsp2_map_name(unsigned kind);

/* The reference example (4 boxes), and everything derived by hand about its tree. */
void bsp2_seed_scene(copse_box2 *scene, copse_box2 *boxes);
void bsp2_check_seed_tree(const copse_bsp2 *t);

#endif

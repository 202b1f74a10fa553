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

/* 2D (tests/test_bsp2.c): a map built and judged whole against brute force over its boxes:
 * leaf contents, visit orders, pairs, points, boxes, circles, segments. */
void bsp2_judge_map(const copse_box2 *scene, const copse_box2 *boxes, uint32_t n, uint32_t depth, uint64_t seed,
                    unsigned queries);

#endif

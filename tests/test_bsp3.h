/*
 * The 3D BSP test kit, shared by the bsp3 suite and the host suite on real meshes: a pool
 * over test_memory(), an exact-size build with its accounting checked, and the battery that
 * judges every query family against brute force over the brushes in double precision.
 */
#ifndef COPSE_TEST_BSP3_H
#define COPSE_TEST_BSP3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"
#include "test.h"

void bsp3_pool_reset(void);
void *bsp3_pool_alloc(size_t bytes); /* 8-aligned; NULL and a failed check when it does not fit */

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

#endif

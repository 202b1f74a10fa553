/* SPDX-License-Identifier: MIT */
/*
 * The octree test kit, shared by the octree_* suites and the host scan suite:
 *
 *   - clouds: uniform, clustered, all coincident, on a plane, far from the origin, on a grid
 *     (many exact distance ties);
 *   - brute-force oracles: the same float formulas octree.h defines, written again here from
 *     the definitions (never calling src/), so result sets are compared exactly; the capsule
 *     is judged in double with a boundary band;
 *   - judges that run each query in every form (array, visitor, early stop, truncated list)
 *     against the oracle over the points currently in the tree (`in[]`).
 *
 * Memory comes from the BVH kit's pool (tk_alloc), so scenes scale with the machine.
 */
#ifndef COPSE_TEST_OCTREE_H
#define COPSE_TEST_OCTREE_H

#include "test_bvh.h"

typedef enum ot_cloud_kind {
    OT_UNIFORM,
    OT_CLUSTERED,
    OT_COINCIDENT,
    OT_PLANAR,
    OT_HUGE,
    OT_GRID,
    OT_CLOUD_KINDS
} ot_cloud_kind;

const char *ot_cloud_name(ot_cloud_kind kind);
void ot_make_cloud(copse_vec3 *points, uint32_t n, ot_cloud_kind kind, test_rng *rng);

/* A point tree over the pool for points[0..capacity), bulk-built from the first `count`, with
 * pools of exactly what that build takes plus extra_nodes and extra_buckets (for inserts).
 * False after a failed check. */
typedef struct ot_point_tree {
    copse_octree tree;
    const copse_vec3 *points;
    const uint32_t *ids;
    uint32_t n;
    uint8_t *in; /* in[i]: point i is in the tree */
} ot_point_tree;

bool ot_point_build(ot_point_tree *pt, const copse_vec3 *points, const uint32_t *ids, uint32_t capacity,
                    uint32_t count, uint32_t leaf, uint32_t bucket, uint32_t depth, uint32_t extra_nodes,
                    uint32_t extra_buckets);

/* A random query point / box / sphere / capsule around the cloud (sometimes on a point). */
void ot_random_point(const ot_point_tree *pt, test_rng *rng, float *p);
void ot_random_box(const ot_point_tree *pt, test_rng *rng, copse_box3 *box);
void ot_random_sphere(const ot_point_tree *pt, test_rng *rng, copse_sphere *s);
void ot_random_capsule(const ot_point_tree *pt, test_rng *rng, copse_capsule *c);

/* Judges: every form of the query against the oracle. */
void ot_judge_box(const ot_point_tree *pt, const copse_box3 *box);
void ot_judge_sphere(const ot_point_tree *pt, const copse_sphere *s);
void ot_judge_capsule(const ot_point_tree *pt, const copse_capsule *c);
void ot_judge_knn(const ot_point_tree *pt, const float *p, uint32_t k, float max_distance);

/* `queries` of each family on random shapes. */
void ot_judge_all(const ot_point_tree *pt, test_rng *rng, unsigned queries);

/* A visitor that records ids (the first `cap`) and stops after `stop_after` of them. */
typedef struct ot_collect {
    uint32_t *ids;
    uint32_t count, cap, stop_after;
} ot_collect;
bool ot_collect_id(void *user, uint32_t id);

void ot_sort_ids(uint32_t *v, uint32_t n);

/* ids[i] = tk_box_id(i) for n points, from the pool. */
uint32_t *ot_make_ids(uint32_t n);

/* A loose octree over the world [-50, 50]^3 in memory from the pool. False after a failed check. */
bool ot_loose_init(copse_loose *tree, uint32_t max_objects, uint32_t max_nodes, uint32_t depth, uint32_t capacity);
/* A random object box: points, huge boxes and small ones, some sticking out of the world. */
copse_box3 ot_random_object_box(test_rng *rng);

/* Guard regions: `guard` bytes of OT_GUARD_BYTE before region+guard and after region+guard+k. */
#define OT_GUARD_BYTE 0xA5u
bool ot_guard_intact(const uint8_t *region, size_t guard, size_t k);

/* FNV-1a over the pools in use and the tree's counters. */
uint32_t ot_point_hash(const copse_octree *t);
uint32_t ot_loose_hash(const copse_loose *t);

#endif

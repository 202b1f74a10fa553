/* SPDX-License-Identifier: MIT */
/*
 * The BVH test kit, shared by the bvh_* suites and the host mesh suite:
 *
 *   - a bump pool over test_memory(), so scenes and trees scale with the machine;
 *   - scenes (random meshes of every layout and projection, random boxes) and the
 *     double-precision view of their primitives that the oracles (oracle/oracle.h) read;
 *   - one adapter per query family, so 2D and 3D checks are written once;
 *   - judges: each runs a copse query in every form (array, visitor, early stop,
 *     truncated) and compares it with the brute-force answer by the rules below;
 *   - tk_verify_tree: the structure of a built tree, checked independently of
 *     copse_bvh_check.
 *
 * Comparison rules: overlap queries report the oracle's id set, except primitives
 * within the boundary band (counted as excused); a first hit agrees on hit/miss and on t within
 * 1e-4 of the scene diagonal, and on the id unless the oracle's t of the reported id ties the
 * best; nearest answers agree on the distance and the reported point lies on the reported
 * primitive; exact ties (bitwise equal primitives, boxes containing the point) go to the lower id.
 */
#ifndef COPSE_TEST_BVH_H
#define COPSE_TEST_BVH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"
#include "oracle/oracle.h"
#include "test.h"

/* ---- memory ---------------------------------------------------------------------------------- */

void tk_pool_reset(void);     /* start of every test: all of test_memory() is free */
void *tk_alloc(size_t bytes); /* 8-aligned; NULL and a failed check when it does not fit */
size_t tk_mark(void);
void tk_rewind(size_t mark);
size_t tk_free_bytes(void);

/* How many primitives a "large" scene gets: what fits in free memory at `bytes_per_prim`
 * (scene, one tree and the judges' buffers), at most `host_cap` on a machine with plenty of
 * memory and a tenth of that on the emulated boards, whose brute force runs in soft double. */
uint32_t tk_large_count(size_t bytes_per_prim, uint32_t host_cap);

/* ---- failure context --------------------------------------------------------------------------- */

/* A short description of what is being tested ("mesh3-u16 n=5"), prefixed to failure reports. */
void tk_context(const char *fmt, ...) COPSE_PORT_PRINTF(1, 2);
const char *tk_ctx(void);

/* Boundary excusals: judges count each disagreement excused by the band; a test fails when
 * more than 1 in 64 of its comparisons (and more than 3) needed one, not counting queries
 * built on a boundary on purpose. */
typedef struct tk_tally {
    unsigned long comparisons, excused, edge_excused;
} tk_tally;
extern tk_tally tk_tally_now;
void tk_tally_begin(void);
void tk_tally_end(void);                 /* checks the excusal rate, adds to the run total */
void tk_tally_report(const char *suite); /* prints the run total: "suite: N comparisons, M excused" */

/* ---- scenes ------------------------------------------------------------------------------------- */

typedef enum tk_layout { TK_U16, TK_U32, TK_FLAT } tk_layout;

typedef struct tk_scene {
    copse_bvh_prim_kind kind;
    unsigned dim;                /* the tree's dimension */
    copse_bvh_projection projection; /* meshes */
    uint8_t axis[3];             /* tree axis -> input axis */
    copse_mesh mesh;             /* triangle scenes (vertex_stride never 0 here) */
    const float *boxes;          /* box scenes: 2*dim floats per box */
    const uint32_t *ids;         /* box scenes: ids from tk_box_id(), or NULL */
    uint32_t n;
    uint32_t degenerate; /* triangles of zero area (exact) */
    double lo[3], hi[3]; /* bounds of the primitives in tree coordinates (z = 0 in 2D) */
    double diag, mag;    /* the bounds' diagonal; the largest |coordinate| */
} tk_scene;

typedef struct tk_mesh_spec {
    uint32_t triangles;
    tk_layout layout;
    uint32_t stride; /* bytes per vertex: 12, or more with interleaved (NaN) attributes */
    copse_bvh_projection projection;
    float origin, extent;  /* vertices in [origin, origin + extent]^3 */
    float size;            /* typical triangle size; 0: from extent and count */
    unsigned dup_pct;      /* % of triangles that repeat an earlier one (same corners) */
    unsigned degen_pct;    /* % of zero-area triangles */
    unsigned coplanar_pct; /* % of coincident triangles (an earlier one, corners rotated) */
    bool one_point;        /* every vertex at one point */
} tk_mesh_spec;

typedef struct tk_box_spec {
    uint32_t count;
    unsigned dim;
    bool ids;
    float origin, extent, size;
    unsigned dup_pct, point_pct; /* % duplicates, % zero-size boxes */
    bool one_point;
} tk_box_spec;

void tk_mesh_spec_init(tk_mesh_spec *spec, uint32_t triangles, tk_layout layout);
void tk_box_spec_init(tk_box_spec *spec, uint32_t count, unsigned dim, bool ids);
bool tk_make_mesh(tk_scene *sc, const tk_mesh_spec *spec, test_rng *rng);
bool tk_make_boxes(tk_scene *sc, const tk_box_spec *spec, test_rng *rng);
/* A scene over a caller's mesh (the host suite's real meshes). */
void tk_scene_from_mesh(tk_scene *sc, const copse_mesh *mesh, copse_bvh_projection projection);

/* Box ids: a bijection of the index, so lower ids are not lower indices. */
uint32_t tk_box_id(uint32_t index);
/* The primitive index of a reported id, or COPSE_NONE when no primitive has it. */
uint32_t tk_prim_of_id(const tk_scene *sc, uint32_t id);
uint32_t tk_prim_id(const tk_scene *sc, uint32_t prim);

/* A primitive in tree coordinates, in double: triangle corners v[0..2], or box v[0] = min,
 * v[1] = max. 2D scenes have z = 0. */
typedef struct tk_prim {
    double v[3][3];
} tk_prim;
void tk_get_prim(const tk_scene *sc, uint32_t prim, tk_prim *p);
void tk_prim_bounds(const tk_scene *sc, uint32_t prim, float *mn, float *mx); /* exact, float */
bool tk_prim_same(const tk_scene *sc, uint32_t a, uint32_t b);                /* bitwise equal */
uint32_t tk_corner(const tk_scene *sc, uint32_t tri, unsigned k);             /* vertex index */
void tk_vertex(const tk_scene *sc, uint32_t vertex, double *out);             /* tree coordinates */

/* ---- queries ------------------------------------------------------------------------------------ */

typedef enum tk_shape { TK_BOX, TK_SPHERE, TK_SEGMENT } tk_shape;

/* `edge`: built to touch a primitive's boundary (aimed at a corner, starting or ending on a
 * primitive, a point query on one): its excusals are expected and not held against the rate. */
typedef struct tk_query {
    tk_shape shape;
    float a[3], b[3]; /* box: min, max; sphere: centre in a; segment: a to b */
    float r;
    bool edge;
} tk_query;

typedef struct tk_ray {
    float o[3], d[3], t_max;
    bool edge;
} tk_ray;

void tk_random_query(const tk_scene *sc, tk_shape shape, test_rng *rng, tk_query *q);
void tk_random_ray(const tk_scene *sc, test_rng *rng, tk_ray *r);
void tk_random_point(const tk_scene *sc, test_rng *rng, float *p);

/* One call per query family whatever the tree's dimension (2D trees read x, y). */
copse_status tk_overlap(const copse_bvh *bvh, unsigned dim, const tk_query *q, copse_bvh_select sel, copse_id_list *out);
copse_status tk_visit(const copse_bvh *bvh, unsigned dim, const tk_query *q, copse_bvh_select sel, copse_id_visitor visit,
                      void *user);
copse_status tk_raycast(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit *hit);
copse_status tk_raycast_all(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit_list *out);
copse_status tk_visit_ray(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit_visitor visit, void *user);
copse_status tk_nearest(const copse_bvh *bvh, unsigned dim, const float *p, float max_distance, copse_nearest3 *out);

/* ---- trees and judges ------------------------------------------------------------------------- */

typedef struct tk_tree {
    copse_bvh bvh;
    copse_bvh_params params;
} tk_tree;

const char *tk_split_name(copse_bvh_split split);

/* Builds into an arena of exactly copse_bvh_build_bytes() from the pool, checks the arena's
 * accounting (used = copse_bvh_bytes, high water = build bytes, both within the macros), gives
 * the scratch back to the pool and verifies the tree. False (after failed checks) on error. */
bool tk_build(tk_tree *tree, const tk_scene *sc, const copse_bvh_params *params);

/* The structure, independently of copse_bvh_check: escape counts, every primitive once, leaf
 * sizes, children of at least ceil(leaf/2) primitives, bounds exactly the union of their
 * contents, node budget, depth, stats. */
void tk_verify_tree(const copse_bvh *bvh, const tk_scene *sc, const copse_bvh_params *params);

/* How many queries of each family a battery runs. */
typedef struct tk_mix {
    unsigned boxes, spheres, segments, rays, nearest, vertices;
} tk_mix;

/* Runs the mix against every tree (one oracle answer per query, judged for each tree). */
void tk_run_queries(const tk_scene *sc, const tk_tree *trees, unsigned ntrees, uint64_t seed, const tk_mix *mix);

/* Single judged queries, for hand-made cases. */
void tk_check_overlap(const tk_scene *sc, const tk_tree *tree, const tk_query *q, test_rng *rng);
void tk_check_ray(const tk_scene *sc, const tk_tree *tree, const tk_ray *r, test_rng *rng);
void tk_check_nearest(const tk_scene *sc, const tk_tree *tree, const float *p, float max_distance);
void tk_check_nearest_vertex(const tk_scene *sc, const tk_tree *tree, const float *p, float max_distance);
void tk_check_walk(const tk_scene *sc, const tk_tree *tree, test_rng *rng);

/* FNV-1a of a tree's nodes and prims: the same input must give the same bytes everywhere. */
uint32_t tk_tree_hash(const copse_bvh *bvh);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * copse — static bounding volume hierarchy (BVH / AABB tree) over triangles or boxes.
 *
 * Build once into the caller's arena, then query without any memory beyond the
 * query's own bounded stack. The tree is two flat arrays linked by indices:
 *
 *   nodes[]  depth-first: an internal node's left child follows it, and its
 *            negative `index` is its escape count (the size of its subtree), so
 *            overlap walks run without a stack (Recast's chunky mesh);
 *   prims[]  leaf slots -> primitive index (triangle of the mesh, or box).
 *
 * 3D trees store 3 axes per node (32 bytes); 2D trees (2D boxes, or a mesh
 * projected onto XZ as Recast does) store 2 (24 bytes). One implementation
 * serves both.
 *
 * The tree refers to the caller's mesh or boxes (never copied, never modified):
 * they must outlive the tree and not change while it is used.
 *
 * Sizing, with n primitives and leaf size L (see COPSE_BVH_NODE_BUDGET):
 *
 *     static COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(N_TRIS, 4));
 *     copse_arena arena;  copse_arena_init(&arena, mem, sizeof mem);
 *     copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
 *     copse_bvh bvh;
 *     copse_status st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params);
 *
 * After a successful build the arena ends exactly at the end of the tree
 * (copse_bvh_bytes); the builder's scratch has been given back.
 */
#ifndef COPSE_BVH_H
#define COPSE_BVH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/arena.h"
#include "copse/geom.h"
#include "copse/query.h"
#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits and compile-time sizes ------------------------------------------------------ */

/* COPSE_BVH_MAX_DEPTH (levels a tree may have, and the queries' stack) and COPSE_BVH_SAH_BINS
 * are settings: config.h. */
#define COPSE_BVH_MAX_LEAF 65535u           /* largest leaf_size parameter */
#define COPSE_BVH_MAX_PRIMS (1u << 30)      /* primitives per tree */
#define COPSE_BVH_NODE3_BYTES 32u
#define COPSE_BVH_NODE2_BYTES 24u

/* Most nodes a tree of n primitives with leaves of at most `leaf` can have.
 * Every builder splits only nodes of more than `leaf` primitives and gives each
 * child at least ceil(leaf/2), so there are at most n/ceil(leaf/2) leaves and
 * 2*leaves - 1 nodes: never more than the Recast demo's nchunks*4 budget. A leaf of 0 (which
 * no build accepts) counts as 1. These macros saturate at SIZE_MAX instead of wrapping. */
#define COPSE_BVH_HALF_LEAF(leaf) \
    ((size_t)(leaf) / 2u + ((size_t)(leaf) & 1u) + ((size_t)(leaf) == 0u)) /* ceil(leaf/2), >= 1 */
#define COPSE_BVH_NODE_BUDGET(n, leaf)                                                    \
    ((size_t)(n) == 0u ? (size_t)0u                                                     \
     : (size_t)(n) <= (size_t)(leaf) ? (size_t)1u                                       \
     : COPSE_SIZE_ADD((size_t)(n) / COPSE_BVH_HALF_LEAF(leaf), (size_t)(n) / COPSE_BVH_HALF_LEAF(leaf) - 1u))

/* Bytes the finished tree keeps at most (3D; a 2D tree needs less). */
#define COPSE_BVH_TREE_BYTES(n, leaf)                                                   \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(n, 4u)),                              \
                   COPSE_SIZE_ROUND(COPSE_SIZE_MUL(COPSE_BVH_NODE_BUDGET(n, leaf), COPSE_BVH_NODE3_BYTES)))

/* Scratch the builder takes while it runs and gives back (any split, 3D). */
#define COPSE_BVH_SCRATCH_BYTES(n)                                                      \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(n, 24u)),                             \
                   COPSE_ARENA_ROUND(16u * (COPSE_BVH_MAX_DEPTH + 2u)) + COPSE_ARENA_ROUND(4u * 8u * COPSE_BVH_SAH_BINS))

/* Arena bytes that always suffice to build n primitives with leaves of `leaf`:
 * size static storage with it. copse_bvh_build_bytes() gives the exact figure. */
#define COPSE_BVH_BUILD_BYTES(n, leaf) COPSE_SIZE_ADD(COPSE_BVH_TREE_BYTES(n, leaf), COPSE_BVH_SCRATCH_BYTES(n))

/* ---- inputs -------------------------------------------------------------------------------- */

typedef enum copse_mesh_index_type {
    COPSE_MESH_INDEX_NONE = 0, /* no index buffer: triangle t is vertices 3t, 3t+1, 3t+2 */
    COPSE_MESH_INDEX_U16 = 2,
    COPSE_MESH_INDEX_U32 = 4
} copse_mesh_index_type;

/* A triangle mesh, as the caller already stores it. */
typedef struct copse_mesh {
    const float *positions;      /* x of vertex 0; y and z follow it */
    uint32_t vertex_count;
    uint32_t vertex_stride;      /* bytes from one vertex to the next; 0 means 12 (packed xyz) */
    const void *indices;         /* 3 per triangle, of index_type; NULL with COPSE_MESH_INDEX_NONE */
    copse_mesh_index_type index_type;
    uint32_t triangle_count;
} copse_mesh;

typedef enum copse_bvh_split {
    COPSE_BVH_SPLIT_SAH = 0,     /* binned surface area heuristic: best queries, default */
    COPSE_BVH_SPLIT_MEDIAN = 1,  /* Recast chunky mesh: longest axis, median primitive */
    COPSE_BVH_SPLIT_MIDPOINT = 2 /* middle of the centroid bounds' longest axis */
} copse_bvh_split;

typedef enum copse_bvh_projection {
    COPSE_BVH_PROJECT_NONE = 0, /* a 3D tree */
    COPSE_BVH_PROJECT_XZ = 1,   /* a 2D tree over (x, z): ground plane with y up, as Recast */
    COPSE_BVH_PROJECT_XY = 2,   /* a 2D tree over (x, y) */
    COPSE_BVH_PROJECT_YZ = 3    /* a 2D tree over (y, z) */
} copse_bvh_projection;

#define COPSE_BVH_REJECT_DEGENERATE 1u /* flag: a zero-area triangle fails the build */

typedef struct copse_bvh_params {
    copse_bvh_split split;
    uint32_t leaf_size;              /* most primitives per leaf, 1..COPSE_BVH_MAX_LEAF */
    copse_bvh_projection projection; /* mesh builds only; box builds take their dimension from the boxes */
    uint32_t flags;                  /* COPSE_BVH_REJECT_DEGENERATE */
} copse_bvh_params;

#define COPSE_BVH_PARAMS_DEFAULT { COPSE_BVH_SPLIT_SAH, 4u, COPSE_BVH_PROJECT_NONE, 0u }

/* ---- the tree ------------------------------------------------------------------------------ */

/* Node layouts. index >= 0: a leaf holding prims[index .. index+count).
 * index < 0: an internal node; -index is its subtree's node count, its left
 * child is the next node and `count` is the left subtree's node count, so its
 * right child is node i + 1 + count. */
typedef struct copse_bvh_node3 { float min[3], max[3]; int32_t index; uint32_t count; } copse_bvh_node3;
typedef struct copse_bvh_node2 { float min[2], max[2]; int32_t index; uint32_t count; } copse_bvh_node2;

typedef enum copse_bvh_prim_kind {
    COPSE_BVH_PRIM_NONE = 0,
    COPSE_BVH_PRIM_TRIANGLES = 1,
    COPSE_BVH_PRIM_BOXES = 2
} copse_bvh_prim_kind;

typedef struct copse_bvh {
    const void *nodes;           /* copse_bvh_node3[] or copse_bvh_node2[] by dim */
    const uint32_t *prims;       /* leaf slot -> primitive index */
    uint32_t node_count;
    uint32_t prim_count;
    uint8_t dim;                 /* 2 or 3 (0 for an empty or failed tree) */
    uint8_t kind;                /* copse_bvh_prim_kind */
    uint8_t axis[3];             /* which input axis each tree axis reads (projection) */
    uint8_t depth;               /* levels, root = 1 */
    uint32_t degenerate_count;   /* zero-area triangles in the tree (they can be nearest, never hit) */
    copse_mesh mesh;             /* triangle trees: the caller's mesh */
    const float *boxes;          /* box trees: the caller's boxes, 2*dim floats each */
    const uint32_t *box_ids;     /* box trees: the caller's ids, or NULL for "id = box index" */
} copse_bvh;

/* ---- building ------------------------------------------------------------------------------ */

/* Exact arena bytes a build of `prim_count` primitives into a tree of `dim` (2 or 3) axes
 * takes at its peak, scratch included: a mesh build with a projection, or a 2D box build,
 * has dim 2. SIZE_MAX when the count or the parameters are out of range. */
size_t copse_bvh_build_bytes(uint32_t prim_count, unsigned dim, const copse_bvh_params *params);

/* Bytes a built tree keeps in its arena. */
size_t copse_bvh_bytes(const copse_bvh *bvh);

/* Build over a mesh. Errors: NULL, PARAM, TOO_LARGE, ALIGN, INDEX, NONFINITE, DEGENERATE,
 * NOMEM (arena->needed then holds the capacity that would have sufficed), CONFIG (every builder
 * in copse: the arena was started by code built with other settings, config.h). On any error the
 * tree is empty (queries find nothing) and the arena is as it was.
 * Work (every builder here): the peak is copse_bvh_build_bytes, a function of n alone, so NOMEM
 * comes before any tree work (after O(1) argument checks; box builds check their n ids first).
 * Then each primitive is read once (bounds and input checks, O(n)), and the tree has at most
 * COPSE_BVH_MAX_DEPTH levels, each passing over every primitive a bounded number of times
 * (range bounds; COPSE_BVH_SAH_BINS bins per axis and a partition, or a median selection whose
 * quickselect falls back to a heap sort when it degenerates): O(n log n) a level, at most
 * O(COPSE_BVH_MAX_DEPTH * n log n) in all.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, DEGENERATE, TOO_LARGE, ALIGN, CONFIG. */
copse_status copse_bvh_build_mesh(copse_bvh *bvh, copse_arena *arena, const copse_mesh *mesh,
                                  const copse_bvh_params *params);

/* Build over boxes (min <= max required on every axis: COPSE_ERR_PARAM otherwise).
 * ids may be NULL: results then report box indices. An id of COPSE_NONE (0xFFFFFFFF, the
 * queries' "no primitive") is COPSE_ERR_PARAM, here and in the views. params->projection is ignored.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, EMPTY_RANGE, TOO_LARGE, ALIGN, CONFIG. */
copse_status copse_bvh_build_boxes3(copse_bvh *bvh, copse_arena *arena, const copse_box3 *boxes,
                                    const uint32_t *ids, uint32_t count, const copse_bvh_params *params);
copse_status copse_bvh_build_boxes2(copse_bvh *bvh, copse_arena *arena, const copse_box2 *boxes,
                                    const uint32_t *ids, uint32_t count, const copse_bvh_params *params);

/* ---- saving and viewing (docs/format.md) ----------------------------------------------------
 * A saved tree is a blob: the nodes and the leaf slots, little endian, with a header and a
 * CRC-32. It does not hold the mesh or the boxes: the view takes them from the caller again
 * (they must be the ones the tree was built over) and checks their kind, dimension and count
 * against the blob. */

/* Exact bytes copse_bvh_save writes for this tree; 0 for NULL or a tree it cannot save. */
size_t copse_bvh_save_bytes(const copse_bvh *bvh);

/* Writes the tree's blob to buf[0, cap). Errors: NULL (bvh, or buf with cap > 0), PARAM (no
 * dimension or kind), TOO_LARGE (over 4 GiB), copse_bvh_check's status for a broken tree, NOMEM
 * (cap too small: nothing is written). `written` (may be NULL) receives the blob's size on
 * success and on NOMEM, 0 otherwise; buf = NULL with cap = 0 asks for the size.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, TOO_DEEP, TOO_LARGE. */
copse_status copse_bvh_save(const copse_bvh *bvh, void *buf, size_t cap, size_t *written);

/* Points `bvh` into a blob (at a 4-byte-aligned address; `len` may exceed the blob) after
 * validating all of it in one pass: container (copse_blob_read's statuses), BLOB_KIND,
 * BLOB_HEADER, BLOB_SECTION, BLOB_NODE, BLOB_PRIM, BLOB_BOUNDS, BLOB_DEPTH, TOO_DEEP; then the
 * source: BLOB_SOURCE when it is not the blob's kind, dimension or count, and the builders'
 * NULL / PARAM / ALIGN / INDEX for an unusable mesh or boxes (every mesh index is range-checked;
 * coordinates are not read). HOST_ORDER when the blob's words are not in this host's order (a
 * saved blob on a big-endian host: convert it with copse_blob_to_host first). Nothing is copied: the blob must
 * outlive the tree. On any error the tree is empty.
 * Statuses: OK, NULL, PARAM, INDEX, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER,
 * BLOB_VERSION, BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER, BLOB_NODE, BLOB_PRIM,
 * BLOB_BOUNDS, BLOB_DEPTH, TOO_DEEP, BLOB_SOURCE. */
copse_status copse_bvh_view_mesh(copse_bvh *bvh, const void *blob, size_t len, const copse_mesh *mesh);
copse_status copse_bvh_view_boxes3(copse_bvh *bvh, const void *blob, size_t len, const copse_box3 *boxes,
                                   const uint32_t *ids, uint32_t count);
copse_status copse_bvh_view_boxes2(copse_bvh *bvh, const void *blob, size_t len, const copse_box2 *boxes,
                                   const uint32_t *ids, uint32_t count);

/* ---- results: copse_id_list, copse_hit, copse_hit_list, copse_nearest3/2 and the visitors
 * are in copse/query.h, shared with the other trees. */

/* What an overlap query reports. */
typedef enum copse_bvh_select {
    COPSE_BVH_SELECT_PRIMS = 0, /* primitive ids whose geometry overlaps the shape (exact test) */
    COPSE_BVH_SELECT_LEAVES = 1 /* leaf node indices whose bounds overlap it (Recast's chunks) */
} copse_bvh_select;

/* ---- queries on 3D trees --------------------------------------------------------------------
 * All return COPSE_OK, or COPSE_ERR_NULL / NONFINITE / DIMENSION / EMPTY_RANGE for bad
 * queries, and PARAM for a ray of zero direction (with an empty result). Boxes, spheres and segments are closed sets: touching
 * counts. Overlap lists are in tree order; ray hit lists are sorted by t, then id. */

/* Statuses: OK, NULL, PARAM, NONFINITE, DIMENSION, KIND, EMPTY_RANGE, TOO_DEEP. */
copse_status copse_bvh_overlap_box(const copse_bvh *bvh, const copse_box3 *box, copse_bvh_select select,
                                   copse_id_list *out);
copse_status copse_bvh_visit_box(const copse_bvh *bvh, const copse_box3 *box, copse_bvh_select select,
                                 copse_id_visitor visit, void *user);

copse_status copse_bvh_overlap_sphere(const copse_bvh *bvh, const copse_sphere *sphere, copse_bvh_select select,
                                      copse_id_list *out);
copse_status copse_bvh_visit_sphere(const copse_bvh *bvh, const copse_sphere *sphere, copse_bvh_select select,
                                    copse_id_visitor visit, void *user);

copse_status copse_bvh_overlap_segment(const copse_bvh *bvh, const copse_segment3 *segment,
                                       copse_bvh_select select, copse_id_list *out);
copse_status copse_bvh_visit_segment(const copse_bvh *bvh, const copse_segment3 *segment,
                                     copse_bvh_select select, copse_id_visitor visit, void *user);

/* First hit along the ray (smallest t in [0, t_max]; ties to the lower id). */
copse_status copse_bvh_raycast(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit *hit);
/* Every hit in [0, t_max], nearest first. */
copse_status copse_bvh_raycast_all(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit_list *out);
/* Every hit in [0, t_max] in traversal order (near subtrees first, not sorted). */
copse_status copse_bvh_visit_ray(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit_visitor visit,
                                 void *user);

/* The primitive nearest to `point` within max_distance (use FLT_MAX for no limit), the
 * closest point on it and the squared distance; ties go to the lower id. Any finite point is
 * answered: when the nearest primitive is farther than sqrt(FLT_MAX) (about 1.8e19), the
 * primitives are ranked again with every coordinate scaled by 2^-100 and distance_sq is +inf
 * (as for copse_bvh_nearest_vertex and copse_bvh_nearest2). */
copse_status copse_bvh_nearest(const copse_bvh *bvh, copse_vec3 point, float max_distance,
                               copse_nearest3 *out);
/* The mesh vertex (used by some triangle) nearest to `point`; ties to the lower vertex index. */
copse_status copse_bvh_nearest_vertex(const copse_bvh *bvh, copse_vec3 point, float max_distance,
                                      copse_nearest3 *out);

/* ---- queries on 2D trees (2D boxes, or a projected mesh in projection coordinates) --------- */

copse_status copse_bvh_overlap_rect(const copse_bvh *bvh, const copse_box2 *rect, copse_bvh_select select,
                                    copse_id_list *out);
copse_status copse_bvh_visit_rect(const copse_bvh *bvh, const copse_box2 *rect, copse_bvh_select select,
                                  copse_id_visitor visit, void *user);
copse_status copse_bvh_overlap_circle(const copse_bvh *bvh, const copse_circle *circle, copse_bvh_select select,
                                      copse_id_list *out);
copse_status copse_bvh_visit_circle(const copse_bvh *bvh, const copse_circle *circle, copse_bvh_select select,
                                    copse_id_visitor visit, void *user);
copse_status copse_bvh_overlap_segment2(const copse_bvh *bvh, const copse_segment2 *segment,
                                        copse_bvh_select select, copse_id_list *out);
copse_status copse_bvh_visit_segment2(const copse_bvh *bvh, const copse_segment2 *segment,
                                      copse_bvh_select select, copse_id_visitor visit, void *user);
/* 2D rays enter a primitive where they first touch it (t = 0 from inside). */
copse_status copse_bvh_raycast2(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit *hit);
copse_status copse_bvh_raycast2_all(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit_list *out);
copse_status copse_bvh_visit_ray2(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit_visitor visit,
                                  void *user);
copse_status copse_bvh_nearest2(const copse_bvh *bvh, copse_vec2 point, float max_distance,
                                copse_nearest2 *out);

/* ---- walking the tree yourself ------------------------------------------------------------- */

/* Depth-first walk: `enter` sees each node's bounds (dim floats min, dim floats max) and
 * returns whether to descend (a prune callback); `visit` sees each primitive id of the
 * leaves entered and may stop the walk. enter may be NULL (visit everything). */
typedef bool (*copse_bounds_visitor)(void *user, const float *min, const float *max);
/* Statuses: OK, NULL, TOO_DEEP. */
copse_status copse_bvh_walk(const copse_bvh *bvh, copse_bounds_visitor enter, copse_id_visitor visit,
                            void *user);

/* The primitive indices of leaf node `leaf` (from a COPSE_BVH_SELECT_LEAVES query).
 * Statuses: OK, NULL, PARAM, INDEX. */
copse_status copse_bvh_leaf_prims(const copse_bvh *bvh, uint32_t leaf, const uint32_t **prims,
                                  uint32_t *count);

/* The id a query reports for primitive index `prim` (a box tree's ids[prim], else prim);
 * COPSE_NONE for a NULL tree or prim >= prim_count (the caller's ids[] is never read there). */
uint32_t copse_bvh_prim_id(const copse_bvh *bvh, uint32_t prim);

/* ---- inspection ---------------------------------------------------------------------------- */

typedef struct copse_bvh_stats {
    uint32_t nodes, leaves, depth, max_leaf_prims;
    float sah_cost;          /* expected cost: 1 per node visited + 1 per primitive tested */
    uint32_t leaf_histogram[9]; /* leaves with 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, 65-128, more */
} copse_bvh_stats;

/* Statuses: OK, NULL, PARAM, TOO_DEEP. */
copse_status copse_bvh_get_stats(const copse_bvh *bvh, copse_bvh_stats *stats);

/* Check the whole structure: escape counts, leaf ranges, every primitive exactly once,
 * children inside parents, finite bounds, the depth cap, and (reading the caller's mesh or
 * boxes) every primitive inside its leaf. COPSE_OK or the first problem's status.
 * Statuses: OK, NULL, PARAM, NONFINITE, INDEX, TOO_DEEP. */
copse_status copse_bvh_check(const copse_bvh *bvh);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_BVH_H */

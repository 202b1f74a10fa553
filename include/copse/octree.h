/* SPDX-License-Identifier: MIT */
/*
 * copse — octrees in fixed pools: a point octree (laser scans, radius and nearest-neighbour
 * search) and a loose object octree (boxes with ids: frustum culling, box/sphere/ray queries).
 *
 * Both live in pools the caller sizes once: copse_octree_bytes() / COPSE_OCTREE_BYTES() and
 * copse_loose_bytes() / COPSE_LOOSE_BYTES() give the exact arena bytes, so firmware can write
 *
 *     static COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(NODES, BUCKETS, BUCKET));
 *
 * Every insertion that would need more nodes or buckets than are free fails with
 * COPSE_ERR_NOMEM, says how many more it needed (nodes_short, buckets_short) and leaves the
 * tree exactly as it was. Nothing recurses: walks use stacks sized by the depth caps below.
 *
 * ---- point octree -------------------------------------------------------------------------
 * The points are the caller's array (like nanoflann's dataset adaptor): the tree stores their
 * indices in chains of buckets of `bucket_size` slots and never copies a coordinate, so a point
 * must not move while it is in the tree. Each node keeps the exact bounds of the points below
 * it. A leaf holds up to `leaf_size` points; one more splits it around its cell's centre, into
 * the non-empty octants only. A removal that leaves a subtree with at most one bucket of points
 * folds it back into one leaf. Rules that keep splitting finite (the original tree's):
 *   - max_depth: no node deeper than max_depth levels below the root;
 *   - the same-count rule: a split that would hand all of a leaf's points to one child is not
 *     made at that level; the points are followed down (one node per level) only while they can
 *     still be separated above max_depth. Points that cannot (all equal, or closer than the
 *     cells at max_depth) stay in one leaf whose buckets form a chain: an overflowing leaf.
 *     It costs one bucket per bucket_size points and a linear scan; nothing is lost.
 *
 * Distances are computed in float exactly as written here, so a brute-force loop written the
 * same way gives the same sets (the tests do that):
 *   d = p - c per axis;  d2 = (d.x*d.x + d.y*d.y) + d.z*d.z;  in the sphere iff d2 <= r*r.
 * Boxes are closed. k-nearest lists are sorted by (d2, id, index): ties go to the lower id,
 * then (ids may repeat) to the lower point index. Squared distances must stay finite:
 * coordinates may be huge, differences below about 1e19.
 *
 * ---- loose octree ---------------------------------------------------------------------------
 * Objects (axis-aligned boxes) are addressed by id = slot 0..max_objects-1. An object's path
 * goes down to the deepest node whose loose cell (the cell grown by half its size on every
 * side) contains it, no deeper than max_depth; it lives on that path, in the first node that
 * has not split. A node splits when it holds more than node_capacity objects (0: at once).
 * Objects outside the world's loose cell live in the root. A box is visible in a frustum
 * unless it lies entirely in front of one of the six planes (their normals point out).
 */
#ifndef COPSE_OCTREE_H
#define COPSE_OCTREE_H

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

/* COPSE_OCTREE_MAX_DEPTH and COPSE_LOOSE_MAX_DEPTH (levels below the root; the queries' stacks)
 * are settings: config.h. */
#define COPSE_OCTREE_MAX_BUCKET 1024u   /* largest bucket_size */
/* Also the largest node and bucket pools. 2^28 - 1: a node's count has 28 bits (meta), and a
 * root holding every point must not wrap to 0. */
#define COPSE_OCTREE_MAX_POINTS ((1u << 28) - 1u)
#define COPSE_OCTREE_NODE_BYTES 36u
#define COPSE_OCTREE_BUCKET_BYTES(bucket) COPSE_SIZE_MUL(COPSE_SIZE_ADD(bucket, 1u), 4u)

/* Exact arena bytes of a point octree with these pools (== copse_octree_bytes). The sizing
 * macros saturate at SIZE_MAX instead of wrapping. */
#define COPSE_OCTREE_BYTES(max_nodes, max_buckets, bucket)                          \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(max_nodes, COPSE_OCTREE_NODE_BYTES)), \
                   COPSE_SIZE_ROUND(COPSE_SIZE_MUL(max_buckets, COPSE_OCTREE_BUCKET_BYTES(bucket))))

/* Scratch a bulk build of n points with max_depth `depth` takes from its arena and gives back
 * (== copse_octree_build_scratch_bytes). */
#define COPSE_OCTREE_BUILD_SCRATCH_BYTES(n, depth)          \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(n, 4u)), \
                   COPSE_SIZE_ROUND(COPSE_SIZE_MUL(COPSE_SIZE_ADD(COPSE_SIZE_MUL(depth, 7u), 8u), 32u)))

/* Also the largest node pool. 2^28 - 1: a node's object count has 28 bits (meta). */
#define COPSE_LOOSE_MAX_OBJECTS ((1u << 28) - 1u)
#define COPSE_LOOSE_NODE_BYTES 16u
#define COPSE_LOOSE_OBJECT_BYTES 32u

/* Exact arena bytes of a loose octree with these pools (== copse_loose_bytes). */
#define COPSE_LOOSE_BYTES(max_nodes, max_objects)                                  \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(max_nodes, COPSE_LOOSE_NODE_BYTES)), \
                   COPSE_SIZE_ROUND(COPSE_SIZE_MUL(max_objects, COPSE_LOOSE_OBJECT_BYTES)))

/* ---- point octree ------------------------------------------------------------------------ */

typedef struct copse_octree_config {
    const copse_vec3 *points;  /* the caller's points; the tree stores indices into it */
    const uint32_t *ids;       /* id reported for point i, or NULL for "id = i" */
    uint32_t point_capacity;   /* valid indices: 0 .. point_capacity-1 (<= COPSE_OCTREE_MAX_POINTS) */
    copse_box3 bounds;         /* the region inserts split (the cube around it); a bulk build
                                  replaces it with the cube around its points. Points outside
                                  are accepted: they only make the split planes less useful. */
    uint32_t max_nodes;        /* node pool, 1..COPSE_OCTREE_MAX_POINTS */
    uint32_t max_buckets;      /* bucket pool, 0..COPSE_OCTREE_MAX_POINTS */
    uint32_t leaf_size;        /* points a leaf holds before it splits, >= 1 */
    uint32_t bucket_size;      /* point slots per bucket, 1..COPSE_OCTREE_MAX_BUCKET */
    uint32_t max_depth;        /* 0..COPSE_OCTREE_MAX_DEPTH */
} copse_octree_config;

/* A node: the exact bounds of the points below it (min > max while empty), its count, and links.
 * `first`: an internal node's first child, a leaf's first bucket (COPSE_NONE if empty).
 * `next`: the next sibling (COPSE_NONE for the last). `meta`: count in bits 0..27, the octant
 * in the parent's cell in bits 28..30, bit 31 set for a leaf. */
typedef struct copse_octree_node {
    float min[3], max[3];
    uint32_t first;
    uint32_t next;
    uint32_t meta;
} copse_octree_node;

typedef struct copse_octree {
    copse_octree_node *nodes;  /* node 0 is the root */
    uint32_t *buckets;         /* bucket b: words b*(bucket_size+1) ..: next bucket, then slots */
    const copse_vec3 *points;
    const uint32_t *ids;
    uint32_t point_capacity;
    uint32_t size;             /* points in the tree */
    float center[3], half;     /* the root cell */
    uint32_t max_nodes, node_top, node_free, nodes_used;
    uint32_t max_buckets, bucket_top, bucket_free, buckets_used;
    uint32_t leaf_size, bucket_size, max_depth;
    uint32_t nodes_short, buckets_short; /* after COPSE_ERR_NOMEM: how many more were needed */
    bool read_only;            /* a view of a blob: changes return COPSE_ERR_READ_ONLY */
} copse_octree;

/* Exact arena bytes of the pools (SIZE_MAX for out-of-range sizes). */
size_t copse_octree_bytes(const copse_octree_config *config);

/* Takes the pools from the arena; the tree is empty. Errors: NULL, PARAM (pool or bucket sizes,
 * depth, capacity), NONFINITE / EMPTY_RANGE (bounds), NOMEM (arena->needed says how much),
 * CONFIG (the arena was started by code built with other settings, config.h).
 * On error the tree is empty and unusable for inserts (queries find nothing), the arena as it was.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, EMPTY_RANGE, CONFIG. */
copse_status copse_octree_init(copse_octree *tree, copse_arena *arena, const copse_octree_config *config);

/* Scratch bytes copse_octree_build takes from its arena for `count` points (exact). */
size_t copse_octree_build_scratch_bytes(const copse_octree *tree, uint32_t count);

/* Replace the contents with points 0..count-1, top-down (the root cell becomes the cube around
 * them). Scratch comes from `scratch` and is given back. Errors: NULL, PARAM (count > capacity,
 * or an id of COPSE_NONE: queries report that as "no point"), NONFINITE, NOMEM (scratch:
 * scratch->needed, exact; pools: nodes_short / buckets_short, lower bounds: copse_octree_measure
 * gives the exact pools). On error the tree is unchanged.
 * Work: the points are read once (checks and bounds, O(count)) and the scratch checked (exact,
 * COPSE_OCTREE_BUILD_SCRATCH_BYTES); then two top-down passes, a count and the build, each
 * visiting every point once per level to bound and partition it: O(count * (max_depth + 1)).
 * The count stops as soon as the pools it needs pass max_nodes or max_buckets (NOMEM).
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, EMPTY_RANGE, TOO_LARGE, READ_ONLY, CONFIG. */
copse_status copse_octree_build(copse_octree *tree, copse_arena *scratch, uint32_t count);

/* The pools a bulk build of points 0..count-1 would fill (for sizing on the host).
 * Statuses: OK, NULL, PARAM, NONFINITE, TOO_LARGE. */
copse_status copse_octree_measure(const copse_octree *tree, copse_arena *scratch, uint32_t count,
                                  uint32_t *nodes, uint32_t *buckets);

/* Add point `index` / take it out. Work: one path from the root (at most max_depth + 1 nodes of
 * at most 8 children each) and the points of the leaf at its end: a split re-sorts them (at most
 * leaf_size + 1 points, through at most max_depth levels), an overflowing leaf's chain is scanned
 * (linear in its points), a fold after a removal gathers at most one bucket of points. The
 * nodes and buckets a change needs are counted before anything is written.
 * Errors: NULL, INDEX (out of range, already in / not in the
 * tree), PARAM (its id is COPSE_NONE, or a tree never initialised: no pools), NONFINITE, NOMEM (nodes_short, buckets_short; the tree unchanged). The point must have
 * the same coordinates on removal as on insertion.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, READ_ONLY. */
copse_status copse_octree_insert(copse_octree *tree, uint32_t index);
/* Statuses: OK, NULL, PARAM, INDEX, READ_ONLY. */
copse_status copse_octree_remove(copse_octree *tree, uint32_t index);

/* Empty the tree (pools kept). */
void copse_octree_clear(copse_octree *tree);

/* ---- point queries: COPSE_OK, or NULL / NONFINITE / EMPTY_RANGE with an empty answer --------- */

/* Points in a closed box / ball. Lists are in tree order; `truncated` when more were found.
 * Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE. */
copse_status copse_octree_overlap_box(const copse_octree *tree, const copse_box3 *box, copse_id_list *out);
copse_status copse_octree_visit_box(const copse_octree *tree, const copse_box3 *box, copse_id_visitor visit,
                                    void *user);
copse_status copse_octree_overlap_sphere(const copse_octree *tree, const copse_sphere *sphere, copse_id_list *out);
copse_status copse_octree_visit_sphere(const copse_octree *tree, const copse_sphere *sphere,
                                       copse_id_visitor visit, void *user);

/* Points within capsule->radius of the segment [a, b] (a robot link against a scan). The point's
 * distance is to the closest point of the segment as geo computes it; see docs/octree.md. */
copse_status copse_octree_overlap_capsule(const copse_octree *tree, const copse_capsule *capsule, copse_id_list *out);
copse_status copse_octree_visit_capsule(const copse_octree *tree, const copse_capsule *capsule,
                                        copse_id_visitor visit, void *user);
/* (Is any point within a sphere or capsule: copse_octree_any_sphere / _any_capsule, collide.h.) */

typedef struct copse_neighbor {
    float distance_sq;
    uint32_t id;    /* the point's id (its index when the tree has no ids) */
    uint32_t index; /* the point's index in the caller's array */
} copse_neighbor;

/* k nearest: up to `capacity` entries (k = capacity), sorted by (distance_sq, id, index). */
typedef struct copse_neighbor_list {
    copse_neighbor *items;
    uint32_t capacity;
    uint32_t count;
} copse_neighbor_list;

static inline copse_neighbor_list copse_neighbor_list_make(copse_neighbor *items, uint32_t capacity)
{
    copse_neighbor_list list;
    list.items = items;
    list.capacity = capacity;
    list.count = 0;
    return list;
}

/* The out->capacity points nearest to `point` within max_distance (FLT_MAX: no limit). */
copse_status copse_octree_knn(const copse_octree *tree, copse_vec3 point, float max_distance,
                              copse_neighbor_list *out);
/* The same walk with its state in `work` instead of on the stack (about 1.6 KB there at the
 * default depth cap, the k-nearest walk's pending nodes and the query's cells): a firmware that
 * must keep a task's stack small passes a static or arena buffer. `work` holds
 * COPSE_OCTREE_KNN_WORK_BYTES bytes, aligned to COPSE_ARENA_ALIGN (NULL: NULL; misaligned:
 * ALIGN; fewer bytes: NOMEM; the list is empty then). The answer is copse_octree_knn's.
 * Statuses: OK, NULL, NOMEM, ALIGN, NONFINITE, EMPTY_RANGE. */
#define COPSE_OCTREE_KNN_WORK_BYTES                                                                     \
    ((7u * COPSE_OCTREE_MAX_DEPTH + 8u) * 9u + (COPSE_OCTREE_MAX_DEPTH + 1u) * 16u + 2u * sizeof(void *) + 16u)
copse_status copse_octree_knn_in(const copse_octree *tree, copse_vec3 point, float max_distance, void *work,
                                 size_t work_bytes, copse_neighbor_list *out);
/* Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE.
 * Visitor form of k nearest: points within max_distance in increasing (distance_sq, id, index)
 * order, one call each (repeated ids too, whatever the scratch), until the visitor returns
 * false. `scratch` (any capacity >= 1) holds a batch: each batch is a k-nearest walk that
 * skips what earlier batches reported, so a larger scratch means fewer walks. */
typedef bool (*copse_neighbor_visitor)(void *user, const copse_neighbor *neighbor);
copse_status copse_octree_visit_nearest(const copse_octree *tree, copse_vec3 point, float max_distance,
                                        copse_neighbor *scratch, uint32_t scratch_capacity,
                                        copse_neighbor_visitor visit, void *user);

/* The nearest point (id COPSE_NONE when none is within max_distance) and its coordinates;
 * ties to the lower id. */
copse_status copse_octree_nearest(const copse_octree *tree, copse_vec3 point, float max_distance,
                                  copse_nearest3 *out);

/* ---- point octree blobs (docs/format.md, "Point octree") ------------------------------------------
 * Bake on the host, query from flash. A save writes the tree in a canonical compacted form:
 * nodes renumbered depth first (pre-order, children in the tree's own sibling order), each
 * leaf's buckets one after another, and the points themselves renumbered in that order, with
 * the ids the original reported (its ids, or its point indices when it had none). So the blob
 * needs nothing else, queries on the view report the same ids in the same order as the
 * original, and the bytes depend only on what the tree holds, not on its pools' history.
 * A neighbour's `index` on a view is the point's place in the blob. */

/* The exact blob bytes (0 for NULL, an uninitialised tree, or one too large for 32-bit sizes). */
size_t copse_octree_save_bytes(const copse_octree *tree);

/* Checks the tree (PARAM as copse_octree_check, NONFINITE for a point that is no longer finite),
 * then writes the blob. NULL; TOO_LARGE; NOMEM when cap is short (nothing written, *written
 * says how many bytes are needed). `written` may be NULL.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, TOO_LARGE. */
copse_status copse_octree_save(const copse_octree *tree, void *buf, size_t cap, size_t *written);

/* Validates a blob (docs/format.md) and makes `tree` a read-only view of it: queries run in
 * place, insert/remove/build return COPSE_ERR_READ_ONLY, clear does nothing. The blob must stay
 * where it is while the tree is used. On error the tree is zeroed (queries find nothing).
 * Statuses: OK, NULL, PARAM, NONFINITE, TOO_LARGE, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC,
 * BLOB_BYTE_ORDER, BLOB_VERSION, BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER,
 * BLOB_NODE, BLOB_PRIM, BLOB_BOUNDS, BLOB_DEPTH, TOO_DEEP. */
copse_status copse_octree_view(copse_octree *tree, const void *blob, size_t len);

/* ---- point octree inspection ---------------------------------------------------------------- */

typedef struct copse_octree_stats {
    uint32_t points, nodes, leaves, buckets, depth;
    uint32_t max_leaf_points;   /* the fullest leaf */
    uint32_t overflow_leaves;   /* leaves holding more than leaf_size points */
    size_t bytes_used;          /* nodes and buckets in use */
} copse_octree_stats;

/* Statuses: OK, NULL, PARAM. */
copse_status copse_octree_get_stats(const copse_octree *tree, copse_octree_stats *stats);

/* Structure check: links in range, counts, exact bounds, each leaf's points inside its bounds
 * and in its octant, bucket chains of the right length, depth. COPSE_OK or COPSE_ERR_PARAM. */
copse_status copse_octree_check(const copse_octree *tree);

/* ---- loose object octree ------------------------------------------------------------------- */

typedef struct copse_loose_config {
    copse_box3 world;          /* the region (its cube) the levels divide */
    uint32_t max_nodes;        /* node pool, 1..COPSE_LOOSE_MAX_OBJECTS */
    uint32_t max_objects;      /* ids 0 .. max_objects-1, at most COPSE_LOOSE_MAX_OBJECTS */
    uint32_t max_depth;        /* 0..COPSE_LOOSE_MAX_DEPTH */
    uint32_t node_capacity;    /* objects a node keeps before those that fit deeper move down;
                                  0: every object goes as deep as it fits at once */
} copse_loose_config;

/* meta: octant in the parent's cell (bits 0..2), split flag (bit 3), objects held (bits 4..31);
 * COPSE_NONE marks a free node. */
typedef struct copse_loose_node {
    uint32_t first_child, next, first_object;
    uint32_t meta;
} copse_loose_node;

typedef struct copse_loose_object {
    copse_box3 box;
    uint32_t node;   /* COPSE_NONE: the id is not in the tree */
    uint32_t next;   /* next object of the same node */
} copse_loose_object;

typedef struct copse_loose {
    copse_loose_node *nodes;
    copse_loose_object *objects;
    float center[3], half;     /* the world cube */
    uint32_t max_nodes, node_top, node_free, nodes_used;
    uint32_t max_objects, size, max_depth, node_capacity;
    uint32_t nodes_short;      /* after COPSE_ERR_NOMEM */
    bool read_only;            /* a view of a blob: changes return COPSE_ERR_READ_ONLY */
} copse_loose;

/* A frustum: six planes (copse_plane, geom.h) in any order; the inside is behind all of them,
 * normals pointing out of the frustum as a brush's do. A plane from a view-projection matrix
 * row sum (a, b, c, d), inside where a*x + b*y + c*z + d >= 0, is normal (-a, -b, -c), dist d. */
typedef struct copse_frustum {
    copse_plane planes[6];
} copse_frustum;

size_t copse_loose_bytes(const copse_loose_config *config);
/* Takes the pools from the arena; the tree is empty. Errors: NULL, PARAM, NONFINITE, EMPTY_RANGE,
 * NOMEM, CONFIG (as copse_octree_init).
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, EMPTY_RANGE, CONFIG. */
copse_status copse_loose_init(copse_loose *tree, copse_arena *arena, const copse_loose_config *config);

/* Insert, remove and move object `id`. Work: one descent (at most max_depth + 1 nodes of at most
 * 8 children); an insert that makes its node split moves that node's objects down, O(objects
 * there * max_depth) at most. The nodes a change needs are counted before anything moves.
 * Errors: NULL, INDEX (out of range; already in / not in),
 * NONFINITE, EMPTY_RANGE (min > max), NOMEM (nodes_short; the tree unchanged), PARAM (a tree that
 * was never initialised: no pools), READ_ONLY (a view).
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, EMPTY_RANGE, READ_ONLY. */
copse_status copse_loose_insert(copse_loose *tree, uint32_t id, const copse_box3 *box);
/* Statuses: OK, NULL, PARAM, INDEX, READ_ONLY. */
copse_status copse_loose_remove(copse_loose *tree, uint32_t id);
/* Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, EMPTY_RANGE, READ_ONLY. */
copse_status copse_loose_move(copse_loose *tree, uint32_t id, const copse_box3 *box);
void copse_loose_clear(copse_loose *tree);

/* Queries: ids in tree order; closed sets.
 * Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE. */
copse_status copse_loose_overlap_box(const copse_loose *tree, const copse_box3 *box, copse_id_list *out);
copse_status copse_loose_visit_box(const copse_loose *tree, const copse_box3 *box, copse_id_visitor visit,
                                   void *user);
copse_status copse_loose_overlap_sphere(const copse_loose *tree, const copse_sphere *sphere, copse_id_list *out);
copse_status copse_loose_visit_sphere(const copse_loose *tree, const copse_sphere *sphere, copse_id_visitor visit,
                                      void *user);
/* Visible set: boxes not entirely in front of any plane. Nodes wholly inside skip all tests below them. */
copse_status copse_loose_cull(const copse_loose *tree, const copse_frustum *frustum, copse_id_list *out);
copse_status copse_loose_visit_frustum(const copse_loose *tree, const copse_frustum *frustum,
                                       copse_id_visitor visit, void *user);
/* Boxes the ray enters for t in [0, t_max] (t = 0 from inside); first hit ties to the lower id.
 * NULL, NONFINITE, EMPTY_RANGE (t_max < 0) or PARAM (a zero direction), with an empty answer. */
copse_status copse_loose_raycast(const copse_loose *tree, const copse_ray3 *ray, copse_hit *hit);
copse_status copse_loose_visit_ray(const copse_loose *tree, const copse_ray3 *ray, copse_hit_visitor visit,
                                   void *user);

typedef struct copse_loose_stats {
    uint32_t objects, nodes, depth, max_node_objects, root_objects;
    size_t bytes_used;
} copse_loose_stats;

/* Statuses: OK, NULL, PARAM. */
copse_status copse_loose_get_stats(const copse_loose *tree, copse_loose_stats *stats);
/* Links in range, each object listed once in the node it names, no empty node kept, depth.
 * COPSE_OK or COPSE_ERR_PARAM. */
copse_status copse_loose_check(const copse_loose *tree);

/* ---- loose octree blobs (docs/format.md, "Loose octree") ------------------------------------------
 * As for the point octree: nodes renumbered depth first, every object slot (ids are slots) with
 * its box; slots not in the tree are zero. Queries on the view report the same ids in the same
 * order; insert/remove/move return COPSE_ERR_READ_ONLY, clear does nothing. */
size_t copse_loose_save_bytes(const copse_loose *tree);
/* Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, TOO_LARGE. */
copse_status copse_loose_save(const copse_loose *tree, void *buf, size_t cap, size_t *written);
/* Statuses: OK, NULL, PARAM, NONFINITE, TOO_LARGE, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC,
 * BLOB_BYTE_ORDER, BLOB_VERSION, BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER,
 * BLOB_NODE, BLOB_PRIM, BLOB_BOUNDS, BLOB_DEPTH, TOO_DEEP. */
copse_status copse_loose_view(copse_loose *tree, const void *blob, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_OCTREE_H */

/* SPDX-License-Identifier: MIT */
/*
 * copse — binary space partitioning trees.
 *
 * One module, two trees that share their walks, their text dumps and their limits:
 *
 *   copse_bsp2  the 2D axis-aligned map tree: a scene rectangle cut by vertical
 *               and horizontal lines taken from the edges of the objects' boxes. Leaves list
 *               the objects (boxes) that overlap them; a leaf without objects is empty space.
 *               Line of sight, occlusion order and broad phase for a ground robot's map.
 *   copse_bsp3  the 3D solid-leaf tree of Quake's map compilers: convex brushes (plane sets)
 *               cut the space by their own planes until every leaf is wholly inside a brush
 *               (solid) or outside all of them (empty). Point contents, ray and swept-sphere
 *               traces, box overlap.
 *
 * Both are flat arrays of plain data in the caller's arena, linked by indices, built without
 * recursion and queried with a fixed stack of COPSE_BSP_MAX_DEPTH entries. Sizes:
 * copse_bsp2_build_bytes() / copse_bsp3_build_bytes() give the exact arena bytes of a build;
 * the COPSE_BSP..._BYTES macros give compile-time upper bounds for static storage.
 * docs/bsp.md explains the algorithms, the dump format and the memory per node.
 */
#ifndef COPSE_BSP_H
#define COPSE_BSP_H

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

/* ---- limits ---------------------------------------------------------------------------------- */

/* COPSE_BSP_MAX_DEPTH, levels below the root (the builders' cap and every walk's stack), is a
 * setting: config.h. */
#define COPSE_BSP_MAX_OBJECTS (1u << 24) /* 2D objects / 3D brushes per tree */

/* Which dump: one node per line in pre-order (indented by depth), or one line per level. */
typedef enum copse_bsp_order {
    COPSE_BSP_PREORDER = 0,
    COPSE_BSP_LEVELORDER = 1
} copse_bsp_order;

/* Visitors: return false to stop the walk. */
typedef bool (*copse_bsp_pair_visitor)(void *user, uint32_t a, uint32_t b);

/* =============================================================================================
 * The 2D axis-aligned tree (the original map tree)
 * ========================================================================================== */

/* Node kinds (the low two bits of copse_bsp2_node.info). */
#define COPSE_BSP2_SPLIT_X 0u /* the vertical line x = split: low child x <= split, high child x >= split */
#define COPSE_BSP2_SPLIT_Y 1u /* the horizontal line y = split */
#define COPSE_BSP2_LEAF 2u

/* 12 bytes. Nodes are in pre-order: an internal node's low child is the next node. */
typedef struct copse_bsp2_node {
    float split;    /* internal: the line's x or y; leaf: 0 */
    uint32_t index; /* internal: the high child's node; leaf: its first slot in items[] */
    uint32_t info;  /* bits 0-1: kind; leaf: bits 2-31: how many objects it lists */
} copse_bsp2_node;

#define COPSE_BSP2_NODE_BYTES 12u

typedef struct copse_bsp2_params {
    uint32_t max_depth; /* 1..COPSE_BSP_MAX_DEPTH: a node this deep is a leaf (the root is depth 0) */
} copse_bsp2_params;

#define COPSE_BSP2_PARAMS_DEFAULT { 8u }

typedef struct copse_bsp2 {
    const copse_bsp2_node *nodes;
    const uint32_t *items;     /* leaf slots -> object index */
    uint32_t node_count, item_count, leaf_count;
    uint32_t object_count;
    uint32_t depth;            /* of the deepest leaf (root = 0) */
    uint32_t split_count;      /* objects cut in two by a chosen line, summed over the build */
    copse_box2 scene;          /* the region the tree covers */
    const copse_box2 *objects; /* the caller's boxes (referenced, never copied) */
} copse_bsp2;

/* Upper bounds for static storage (saturating at SIZE_MAX instead of wrapping). A tree over
 * n boxes has at most min(2^depth, (2n+1)^2) leaves (leaves are unions of the cells that the
 * 2n x-edges and 2n y-edges make) and each leaf lists at most n objects.
 * copse_bsp2_build_bytes() is usually far smaller: measure it on the host and size the buffer
 * with that. */
#define COPSE_BSP2_POW2(depth) ((size_t)1u << ((depth) < 24u ? (depth) : 24u)) /* 2^depth, capped: no overflow */
/* (2n+1)^2, SIZE_MAX when it would not fit: n below 2^(bits/2 - 2) squares safely */
#define COPSE_BSP2_CELLS(n)                                                                       \
    ((size_t)(n) >= ((size_t)1u << (sizeof(size_t) * 4u - 2u))                                   \
         ? SIZE_MAX                                                                               \
         : (2u * (size_t)(n) + 1u) * (2u * (size_t)(n) + 1u))
#define COPSE_BSP2_LEAF_BOUND(n, depth) \
    (COPSE_BSP2_POW2(depth) < COPSE_BSP2_CELLS(n) && (depth) < 24u ? COPSE_BSP2_POW2(depth) : COPSE_BSP2_CELLS(n))
#define COPSE_BSP2_BYTES(n, depth)                                                                  \
    COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(COPSE_SIZE_ADD(COPSE_BSP2_LEAF_BOUND(n, depth),     \
                                                                  COPSE_BSP2_LEAF_BOUND(n, depth) - 1u), \
                                                   COPSE_BSP2_NODE_BYTES)),                         \
                   COPSE_SIZE_ROUND(COPSE_SIZE_MUL(COPSE_SIZE_MUL(n, 4u), COPSE_BSP2_LEAF_BOUND(n, depth))))

/* Exact arena bytes copse_bsp2_build() takes (it needs no scratch): it runs the build's
 * decisions without writing. SIZE_MAX for input that the build would refuse. */
size_t copse_bsp2_build_bytes(const copse_box2 *scene, const copse_box2 *objects, uint32_t count,
                              const copse_bsp2_params *params);

/* Bytes a built tree keeps (equal to the build bytes). */
size_t copse_bsp2_bytes(const copse_bsp2 *bsp);

/* Build over `count` boxes inside `scene`. Boxes are closed; parts outside the scene are not
 * in the tree. Errors: NULL, PARAM (max_depth out of range, an inverted box or scene),
 * NONFINITE, DEGENERATE (a box of zero width or height), TOO_LARGE, NOMEM, CONFIG. On any error the tree
 * is empty and the arena as it was.
 * Work: each node scans the n boxes twice (O(n)), and a tree has at most
 * 2 * COPSE_BSP2_LEAF_BOUND(n, max_depth) - 1 nodes. The build counts its tree before writing it
 * and stops with NOMEM as soon as the nodes and leaf items counted so far outgrow the arena:
 * arena->needed is then more than the arena holds but a lower bound (copse_bsp2_build_bytes
 * gives the exact figure). So a build does O(n) work for each node that fits the arena and one
 * more, twice over when it succeeds.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, DEGENERATE, TOO_LARGE, CONFIG. */
copse_status copse_bsp2_build(copse_bsp2 *bsp, copse_arena *arena, const copse_box2 *scene,
                              const copse_box2 *objects, uint32_t count, const copse_bsp2_params *params);

/* ---- 2D queries -----------------------------------------------------------------------------
 * Objects and query shapes are closed sets: touching counts. Points and shapes outside the
 * scene meet nothing, and an object meets them only through its part inside the scene: one
 * that touches the scene from outside (its part has no area) is not in the tree. Every query returns COPSE_OK, or NULL / NONFINITE / EMPTY_RANGE
 * (a negative radius) with an empty answer. */

typedef struct copse_bsp2_where {
    bool solid;      /* the point lies in an object */
    uint32_t leaf;   /* the leaf (node index) holding the point; on a line, the high side's */
    uint32_t id;     /* the lowest-index object holding the point, or COPSE_NONE */
} copse_bsp2_where;

/* Statuses: OK, NULL, NONFINITE. */
copse_status copse_bsp2_locate(const copse_bsp2 *bsp, copse_vec2 point, copse_bsp2_where *out);

/* Does the box / circle touch any object? *object: one that does (the first the walk finds), or
 * COPSE_NONE.
 * Statuses: OK, NULL, NONFINITE, EMPTY_RANGE. */
copse_status copse_bsp2_any_box(const copse_bsp2 *bsp, const copse_box2 *box, uint32_t *object);
copse_status copse_bsp2_any_circle(const copse_bsp2 *bsp, const copse_circle *circle, uint32_t *object);

/* A trace is a sweep (copse/collide.h's vocabulary: the path first, then the tree): a point
 * moved from a to b, stopped at the first point that lies in an object: line of sight. Any
 * finite ends are answered, even ones more than FLT_MAX apart (b - a overflows: the trace runs
 * from the midpoint in two halves, t stays a fraction of the whole segment). */
typedef struct copse_bsp2_trace {
    bool hit;
    bool start_solid;  /* a already lies in an object: t 0, normal 0 */
    float t;           /* the point is a + t*(b - a), t in [0, 1]; 1 when nothing is hit */
    copse_vec2 point;
    copse_vec2 normal; /* the crossed side of the object's box (-1/+1 on one axis); 0 when a is inside */
    uint32_t id;       /* the object hit (lowest index on a tie), or COPSE_NONE */
    uint32_t leaf;     /* the leaf where it was hit, or COPSE_NONE */
} copse_bsp2_trace;

/* Statuses: OK, NULL, NONFINITE. */
copse_status copse_sweep_point_bsp2(const copse_segment2 *path, const copse_bsp2 *bsp, copse_bsp2_trace *out);

/* Every leaf in front-to-back order from `eye` (the side of each line holding the eye first;
 * on a line, the low side first) or back-to-front (the painter's order). */
copse_status copse_bsp2_visit_front_to_back(const copse_bsp2 *bsp, copse_vec2 eye, copse_id_visitor visit,
                                            void *user);
copse_status copse_bsp2_visit_back_to_front(const copse_bsp2 *bsp, copse_vec2 eye, copse_id_visitor visit,
                                            void *user);

/* Leaves (node indices) whose closed region touches the box, in node order: an array form
 * (copse_id_list: capacity, then `truncated`) and a visitor form.
 * Statuses: OK, NULL, NONFINITE, EMPTY_RANGE. */
copse_status copse_bsp2_overlap_box_leaves(const copse_bsp2 *bsp, const copse_box2 *box, copse_id_list *out);
copse_status copse_bsp2_visit_box_leaves(const copse_bsp2 *bsp, const copse_box2 *box,
                                            copse_id_visitor visit, void *user);

/* The objects a leaf lists (indices into the caller's boxes).
 * Statuses: OK, NULL, INDEX. */
copse_status copse_bsp2_leaf_objects(const copse_bsp2 *bsp, uint32_t leaf, const uint32_t **objects,
                                     uint32_t *count);

/* Broad phase: every pair (a < b) of objects listed in one leaf, leaf by leaf. A pair that
 * shares k leaves is reported k times; overlapping boxes always share a leaf.
 * Statuses: OK, NULL. */
copse_status copse_bsp2_visit_pairs(const copse_bsp2 *bsp, copse_bsp_pair_visitor visit, void *user);

/* ---- 2D inspection ----------------------------------------------------------------------------
 * Text dumps into the caller's buffer, NUL-terminated. Format (docs/bsp.md):
 *   pre-order:   one node per line, two spaces of indent per level;
 *   level-order: "<level>: " then that level's nodes, left to right, separated by spaces;
 *   a node is   "X<c>" (the line x = c), "Y<c>" (y = c), "E" (an empty leaf) or
 *               "S<i>,<j>,..." (a leaf listing objects i, j, ...); c is printed as a decimal
 *               integer when it is one (|c| < 2^24) and as a C99 hex float ("0x1.8p-3") otherwise.
 * *length (optional) receives the text's full length without the NUL. When cap is too small,
 * the text is cut at cap-1 bytes and the call returns COPSE_ERR_NOMEM.
 * Statuses: OK, NULL, NOMEM, PARAM. */
copse_status copse_bsp2_dump(const copse_bsp2 *bsp, copse_bsp_order order, char *buf, size_t cap, size_t *length);

/* Checks the structure: child links in pre-order, item ranges, object indices, depth.
 * COPSE_OK or the first problem's status.
 * Statuses: OK, NULL, PARAM, INDEX, TOO_DEEP. */
copse_status copse_bsp2_check(const copse_bsp2 *bsp);

/* ---- 2D blobs: bake on the host, query from flash (docs/format.md, tree kind 4) --------------
 * The blob is self-contained: it holds the nodes, the leaf items and the objects' boxes, so a
 * view needs nothing else and its `objects` point into the blob.
 *
 * copse_bsp2_save_bytes: the blob's exact size; 0 for NULL, an unbuilt tree or one too large.
 * copse_bsp2_save: the tree is checked first (NULL, PARAM for an unbuilt tree, the statuses of
 * copse_bsp2_check, then those of the view's checks: a saved blob always views; TOO_LARGE);
 * *written (optional) then receives the size, and NOMEM leaves buf untouched when cap is
 * short. Same tree, same bytes, on every host.
 * copse_bsp2_view: validates the blob (4-aligned; the statuses of copse_blob_read, then
 * BLOB_KIND, BLOB_HEADER, TOO_DEEP, BLOB_SECTION, BLOB_BOUNDS, BLOB_NODE, BLOB_PRIM,
 * BLOB_DEPTH; HOST_ORDER on a big-endian host) and points `bsp` into it: the blob must stay
 * where it is while the tree is used. On error *bsp is an empty tree. */
size_t copse_bsp2_save_bytes(const copse_bsp2 *bsp);
/* Statuses: OK, NULL, NOMEM, PARAM, INDEX, TOO_DEEP, TOO_LARGE. */
copse_status copse_bsp2_save(const copse_bsp2 *bsp, void *buf, size_t cap, size_t *written);
/* Statuses: OK, NULL, PARAM, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER, BLOB_VERSION,
 * BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER, BLOB_NODE, BLOB_PRIM, BLOB_BOUNDS,
 * BLOB_DEPTH, TOO_DEEP. */
copse_status copse_bsp2_view(copse_bsp2 *bsp, const void *blob, size_t len);


/* =============================================================================================
 * The 3D solid-leaf tree (convex brushes, Quake's map compilers)
 * ========================================================================================== */

/* A brush is the set of points behind all of its planes (copse_plane, geom.h: dot(normal, x)
 * <= dist): closed and convex, normals pointing out. Normals need not be unit length. */

typedef struct copse_brush {
    const copse_plane *planes;
    uint32_t plane_count; /* 4..COPSE_BSP3_MAX_SIDES */
} copse_brush;

#define COPSE_BSP3_MAX_SIDES 24u  /* planes per input brush (the build adds up to 6 bevels) */
#define COPSE_BSP3_EMPTY 0xFFFFFFFFu /* a child that is empty space */
#define COPSE_BSP3_LEAF 0x80000000u  /* a child with this bit is leaves[child & ~bit] */

/* The six planes of a box (min < max on every axis, else PARAM or DEGENERATE).
 * Statuses: OK, NULL, PARAM, NONFINITE, DEGENERATE. */
copse_status copse_brush_from_box(const copse_box3 *box, copse_plane planes[6]);

/* A convex polygon in the xy plane (either winding, no repeated or collinear corners),
 * extruded from z0 to z1 (z0 < z1): count + 2 planes into planes[0..capacity).
 * Errors: NULL, PARAM (count < 3, z0 > z1), NONFINITE, NONCONVEX, DEGENERATE (z0 == z1, a repeated
 * or collinear corner), NOMEM (capacity).
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, DEGENERATE, NONCONVEX, TOO_LARGE. */
copse_status copse_brush_from_polygon(const copse_vec2 *corners, uint32_t count, float z0, float z1,
                                      copse_plane *planes, uint32_t capacity, uint32_t *plane_count);

/* 12 bytes: the plane and both children (COPSE_BSP3_EMPTY, COPSE_BSP3_LEAF | leaf, or a node). */
typedef struct copse_bsp3_node {
    uint32_t plane;
    uint32_t child[2]; /* [0] front (dot(n, x) > d), [1] back */
} copse_bsp3_node;

/* 8 bytes. A solid leaf lies inside a brush; a mixed leaf is where max_depth stopped the build
 * before its contents were decided, and queries test its brushes. Both list the brushes
 * whose fragments reached them (the swept-sphere and box tests use the list). */
typedef struct copse_bsp3_leaf {
    uint32_t first; /* into leaf_brushes[] */
    uint32_t info;  /* bit 31: mixed; bits 0-30: how many brushes */
} copse_bsp3_leaf;

#define COPSE_BSP3_MIXED 0x80000000u

/* 8 bytes, two 4-byte fields (every field of a blob is 4 bytes wide, docs/format.md): the
 * brush's sides are sides[first .. first + copse_bsp3_brush_sides()), plane indices; the first
 * copse_bsp3_brush_split_sides() are the input planes, the rest the axis-aligned bevels the
 * build added. `counts` packs both: bits 0-15 all sides, bits 16-31 the input ones. */
typedef struct copse_bsp3_brush {
    uint32_t first;
    uint32_t counts;
} copse_bsp3_brush;

static inline uint32_t copse_bsp3_brush_sides(const copse_bsp3_brush *b)
{
    return b->counts & 0xFFFFu;
}

static inline uint32_t copse_bsp3_brush_split_sides(const copse_bsp3_brush *b)
{
    return b->counts >> 16;
}

typedef struct copse_bsp3_params {
    uint32_t max_depth;    /* 1..COPSE_BSP_MAX_DEPTH */
    uint32_t split_weight; /* splitter score = split_weight * fragments cut + |front - back|, 0..1000 */
} copse_bsp3_params;

#define COPSE_BSP3_PARAMS_DEFAULT { COPSE_BSP_MAX_DEPTH, 8u }

/* Work: a build over n brushes cuts regions holding at most 8 * n * max_depth fragments in all
 * (8 times what a tree that cuts no brush visits; each visit scores at most 64 candidate
 * planes), so it makes at most that many nodes, that many + 1 leaves and twice that many leaf
 * brush entries (n for a lone root leaf); a region whose cut would pass the budget becomes a
 * mixed leaf, as at max_depth. */
#define COPSE_BSP3_VISIT_BUDGET(n, max_depth) ((uint64_t)8u * (uint64_t)(n) * (uint64_t)(max_depth))

/* The tree keeps its own copy of the (unit-normal, deduplicated) planes: it needs no input
 * once built and can be placed in flash. */
typedef struct copse_bsp3 {
    const copse_bsp3_node *nodes;
    const copse_plane *planes;
    const uint32_t *sides;
    const copse_bsp3_brush *brushes;
    const copse_bsp3_leaf *leaves;
    const uint32_t *leaf_brushes;
    uint32_t node_count, plane_count, side_count, brush_count, leaf_count, leaf_brush_count;
    uint32_t root;          /* a child code: the root node 0, or a leaf / EMPTY for a tree without nodes */
    uint32_t depth;         /* of the deepest leaf (root = 0) */
    uint32_t split_count;   /* brush fragments cut in two, summed over the build */
    uint32_t solid_leaves, mixed_leaves, empty_leaves;
    float inflate;          /* how far (per unit of radius) an expanded brush reaches beyond the brush */
    float slack;            /* absolute distance margin of the conservative walks */
    copse_box3 bounds;      /* of all brushes */
} copse_bsp3;

/* Scratch bytes a build takes while it runs (plane copies, brush corners, the fragment stack),
 * from the plane counts alone; SIZE_MAX for input out of range. */
size_t copse_bsp3_scratch_bytes(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params);

/* Exact arena bytes of copse_bsp3_build (scratch included): the size of a BSP depends on its
 * splits, so this runs the build's decisions in `work` (at least copse_bsp3_scratch_bytes).
 * SIZE_MAX for input the build would refuse or too little work memory. */
size_t copse_bsp3_build_bytes(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params,
                              void *work, size_t work_bytes);

size_t copse_bsp3_bytes(const copse_bsp3 *bsp);

/* Build from convex brushes. Errors: NULL, PARAM (params out of range, a zero normal),
 * TOO_LARGE (more than COPSE_BSP3_MAX_SIDES planes, too many brushes), NONFINITE, DEGENERATE
 * (a brush without volume: contradictory or flat, which includes thinner than 4e-6 of its
 * scale, the largest |dist| of its unit planes or 1 if more: docs/bsp.md), UNBOUNDED (planes that enclose no finite
 * region), NOMEM, CONFIG (config.h). The build stops with NOMEM as soon as the tree it has counted so far
 * outgrows the arena: arena->needed is then more than the arena holds but a lower bound (the
 * scratch alone when even that did not fit, else scratch + the tree counted until it stopped);
 * copse_bsp3_build_bytes() gives the exact figure. Work: at most COPSE_BSP3_VISIT_BUDGET(n,
 * max_depth) fragment visits, fewer when the arena runs out first. On any error the tree is
 * empty and the arena as it was. After success the arena ends at the end of the tree
 * (copse_bsp3_bytes).
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, DEGENERATE, TOO_LARGE, UNBOUNDED, CONFIG. */
copse_status copse_bsp3_build(copse_bsp3 *bsp, copse_arena *arena, const copse_brush *brushes, uint32_t count,
                              const copse_bsp3_params *params);

/* ---- 3D queries: NULL / NONFINITE / EMPTY_RANGE for bad queries, with an empty answer ---------- */

typedef struct copse_bsp3_where {
    bool solid;
    uint32_t leaf; /* the leaf holding the point (an index of leaves[]), or COPSE_NONE in empty space */
} copse_bsp3_where;

/* Point contents: solid when the point lies in a brush (closed).
 * Statuses: OK, NULL, NONFINITE. */
copse_status copse_bsp3_contents(const copse_bsp3 *bsp, copse_vec3 point, copse_bsp3_where *out);

typedef struct copse_bsp3_trace {
    bool hit;
    bool start_solid;  /* the start already touches solid: t 0, normal 0 */
    float t;           /* first contact at a + t*(b - a), t in [0, 1]; 1 when nothing is hit */
    copse_vec3 point;  /* the segment's point (the sphere's centre) at first contact */
    copse_vec3 normal; /* unit normal of the plane crossed, facing the start */
    uint32_t id;       /* the brush hit (swept spheres and mixed leaves), else COPSE_NONE */
} copse_bsp3_trace;

/* Traces, sweeps of a point or a sphere along the path a -> b (the path first, as in 2D).
 * A point (or radius 0): the segment against solid space (the solid-leaf walk of Quake's hull
 * traces); radius > 0: a sphere swept from a to b, against every brush's planes pushed out by the radius
 * (with the brushes' axis-aligned bevels, as Quake 3 does for its box traces): exact on faces,
 * a little wider than the true rounded sweep near edges and corners. Any finite ends are
 * answered, even ones more than FLT_MAX apart (traced in two halves from the midpoint, as the
 * 2D segment is).
 * Statuses: OK, NULL, NONFINITE, EMPTY_RANGE. */
copse_status copse_sweep_sphere_bsp3(const copse_segment3 *path, float radius, const copse_bsp3 *bsp,
                                     copse_bsp3_trace *out);
/* Statuses: OK, NULL, NONFINITE. */
copse_status copse_sweep_point_bsp3(const copse_segment3 *path, const copse_bsp3 *bsp, copse_bsp3_trace *out);

/* Does the closed box touch solid? *brush: a brush it touches, or COPSE_NONE. Decided against each brush's planes pushed out by the box's
 * extent along their normals (plus the bevels): exact for brushes from boxes and extruded
 * polygons, conservative near the edges of other brushes.
 * Statuses: OK, NULL, NONFINITE, EMPTY_RANGE. */
copse_status copse_bsp3_any_box(const copse_bsp3 *bsp, const copse_box3 *box, uint32_t *brush);

/* Dumps as for the 2D tree; node tokens: "P<plane>" (a node on planes[plane]), "E" (empty),
 * "S<b>,<b>.." (solid, the brushes listed), "M<b>,.." (mixed). Children in the order front, back.
 * A zero-initialised (never built) tree dumps as the empty tree "E", as the queries treat it;
 * a root leaf out of range is COPSE_ERR_INDEX.
 * Statuses: OK, NULL, NOMEM, PARAM, INDEX. */
copse_status copse_bsp3_dump(const copse_bsp3 *bsp, copse_bsp_order order, char *buf, size_t cap, size_t *length);

/* Statuses: OK, NULL, PARAM, INDEX, TOO_DEEP. */
copse_status copse_bsp3_check(const copse_bsp3 *bsp);

/* ---- 3D blobs (docs/format.md, tree kind 5) ---------------------------------------------------
 * The tree owns everything it queries (planes, brushes, leaf lists), and so does its blob.
 * Save, save_bytes and view as for the 2D tree (an empty tree, over no brushes, saves too);
 * the view's statuses add BLOB_PRIM for brush sides and leaf brush lists out of range. */
size_t copse_bsp3_save_bytes(const copse_bsp3 *bsp);
/* Statuses: OK, NULL, NOMEM, PARAM, INDEX, TOO_DEEP, TOO_LARGE. */
copse_status copse_bsp3_save(const copse_bsp3 *bsp, void *buf, size_t cap, size_t *written);
/* Statuses: OK, NULL, PARAM, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER, BLOB_VERSION,
 * BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER, BLOB_NODE, BLOB_PRIM, BLOB_BOUNDS,
 * BLOB_DEPTH, TOO_DEEP. */
copse_status copse_bsp3_view(copse_bsp3 *bsp, const void *blob, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_BSP_H */

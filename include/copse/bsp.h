/*
 * copse — binary space partitioning trees.
 *
 * One module, two trees that share their walks, their text dumps and their limits:
 *
 *   copse_bsp2  the 2D axis-aligned map tree of the seed: a scene rectangle cut by vertical
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
#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits ---------------------------------------------------------------------------------- */

#define COPSE_BSP_MAX_DEPTH 32u          /* levels below the root; builders and query stacks */
#define COPSE_BSP_MAX_OBJECTS (1u << 24) /* 2D objects / 3D brushes per tree */
#define COPSE_BSP_NONE 0xFFFFFFFFu       /* "no leaf", "no object" */

/* Which dump: one node per line in pre-order (indented by depth), or one line per level. */
typedef enum copse_bsp_order {
    COPSE_BSP_PREORDER = 0,
    COPSE_BSP_LEVELORDER = 1
} copse_bsp_order;

/* Visitors: return false to stop the walk. */
typedef bool (*copse_bsp_leaf_visitor)(void *user, uint32_t leaf);
typedef bool (*copse_bsp_pair_visitor)(void *user, uint32_t a, uint32_t b);

/* =============================================================================================
 * The 2D axis-aligned tree (the seed)
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

/* Upper bounds for static storage. A tree over n boxes has at most min(2^depth, (2n+1)^2)
 * leaves (leaves are unions of the cells that the 2n x-edges and 2n y-edges make) and each
 * leaf lists at most n objects. copse_bsp2_build_bytes() is usually far smaller. */
#define COPSE_BSP2_LEAF_BOUND(n, depth)                                                           \
    ((((size_t)1u << (depth)) < (2u * (size_t)(n) + 1u) * (2u * (size_t)(n) + 1u))                 \
         ? ((size_t)1u << (depth))                                                              \
         : (2u * (size_t)(n) + 1u) * (2u * (size_t)(n) + 1u))
#define COPSE_BSP2_BYTES(n, depth)                                                                \
    (COPSE_ARENA_ROUND(COPSE_BSP2_NODE_BYTES * (2u * COPSE_BSP2_LEAF_BOUND(n, depth) - 1u)) +    \
     COPSE_ARENA_ROUND(4u * (size_t)(n) * COPSE_BSP2_LEAF_BOUND(n, depth)))

/* Exact arena bytes copse_bsp2_build() takes (it needs no scratch): it runs the build's
 * decisions without writing. SIZE_MAX for input that the build would refuse. */
size_t copse_bsp2_build_bytes(const copse_box2 *scene, const copse_box2 *objects, uint32_t count,
                              const copse_bsp2_params *params);

/* Bytes a built tree keeps (equal to the build bytes). */
size_t copse_bsp2_bytes(const copse_bsp2 *bsp);

/* Build over `count` boxes inside `scene`. Boxes are closed; parts outside the scene are not
 * in the tree. Errors: NULL, PARAM (max_depth out of range, an inverted box or scene),
 * NONFINITE, DEGENERATE (a box of zero width or height), TOO_LARGE, NOMEM (arena->needed then
 * says what would fit). On any error the tree is empty and the arena as it was. */
copse_status copse_bsp2_build(copse_bsp2 *bsp, copse_arena *arena, const copse_box2 *scene,
                              const copse_box2 *objects, uint32_t count, const copse_bsp2_params *params);

/* ---- 2D queries -----------------------------------------------------------------------------
 * Objects and query shapes are closed sets: touching counts. Points and shapes outside the
 * scene meet nothing. Every query returns COPSE_OK, or NULL / NONFINITE / EMPTY_RANGE
 * (a negative radius) with an empty answer. */

typedef struct copse_bsp2_where {
    bool solid;      /* the point lies in an object */
    uint32_t leaf;   /* the leaf (node index) holding the point; on a line, the high side's */
    uint32_t object; /* the lowest-index object holding the point, or COPSE_BSP_NONE */
} copse_bsp2_where;

copse_status copse_bsp2_locate(const copse_bsp2 *bsp, copse_vec2 point, copse_bsp2_where *out);

/* Does the box / circle touch any object? (*hit is the answer.) */
copse_status copse_bsp2_overlap_box(const copse_bsp2 *bsp, const copse_box2 *box, bool *hit);
copse_status copse_bsp2_overlap_circle(const copse_bsp2 *bsp, const copse_circle *circle, bool *hit);

/* The first point of the segment a -> b that lies in an object: line of sight. */
typedef struct copse_bsp2_trace {
    bool hit;
    float t;           /* the point is a + t*(b - a), t in [0, 1]; 1 when nothing is hit */
    copse_vec2 point;
    copse_vec2 normal; /* the crossed side of the object's box (-1/+1 on one axis); 0 when a is inside */
    uint32_t object;   /* the object hit (lowest index on a tie), or COPSE_BSP_NONE */
    uint32_t leaf;     /* the leaf where it was hit, or COPSE_BSP_NONE */
} copse_bsp2_trace;

copse_status copse_bsp2_segment(const copse_bsp2 *bsp, const copse_segment2 *segment, copse_bsp2_trace *out);

/* Every leaf in front-to-back order from `eye` (the side of each line holding the eye first;
 * on a line, the low side first) or back-to-front (the painter's order of the seed). */
copse_status copse_bsp2_visit_front_to_back(const copse_bsp2 *bsp, copse_vec2 eye, copse_bsp_leaf_visitor visit,
                                            void *user);
copse_status copse_bsp2_visit_back_to_front(const copse_bsp2 *bsp, copse_vec2 eye, copse_bsp_leaf_visitor visit,
                                            void *user);

/* Leaves (node indices) whose closed region touches the box, in node order: an array form
 * (ids up to `capacity`, *count found, *truncated) and a visitor form. */
copse_status copse_bsp2_leaves_in_box(const copse_bsp2 *bsp, const copse_box2 *box, uint32_t *ids,
                                      uint32_t capacity, uint32_t *count, bool *truncated);
copse_status copse_bsp2_visit_leaves_in_box(const copse_bsp2 *bsp, const copse_box2 *box,
                                            copse_bsp_leaf_visitor visit, void *user);

/* The objects a leaf lists (indices into the caller's boxes). */
copse_status copse_bsp2_leaf_objects(const copse_bsp2 *bsp, uint32_t leaf, const uint32_t **objects,
                                     uint32_t *count);

/* Broad phase: every pair (a < b) of objects listed in one leaf, leaf by leaf. A pair that
 * shares k leaves is reported k times; overlapping boxes always share a leaf. */
copse_status copse_bsp2_visit_pairs(const copse_bsp2 *bsp, copse_bsp_pair_visitor visit, void *user);

/* ---- 2D inspection ----------------------------------------------------------------------------
 * Text dumps into the caller's buffer, NUL-terminated. Format (docs/bsp.md):
 *   pre-order:   one node per line, two spaces of indent per level;
 *   level-order: "<level>: " then that level's nodes, left to right, separated by spaces;
 *   a node is   "X<c>" (the line x = c), "Y<c>" (y = c), "E" (an empty leaf) or
 *               "S<i>,<j>,..." (a leaf listing objects i, j, ...); c is printed as a decimal
 *               integer when it is one (|c| < 2^24) and as a C99 hex float ("0x1.8p-3") otherwise.
 * *length (optional) receives the text's full length without the NUL. When cap is too small,
 * the text is cut at cap-1 bytes and the call returns COPSE_ERR_NOMEM. */
copse_status copse_bsp2_dump(const copse_bsp2 *bsp, copse_bsp_order order, char *buf, size_t cap, size_t *length);

/* Checks the structure: child links in pre-order, item ranges, object indices, depth.
 * COPSE_OK or the first problem's status. */
copse_status copse_bsp2_check(const copse_bsp2 *bsp);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_BSP_H */

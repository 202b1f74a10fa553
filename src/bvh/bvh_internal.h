/* SPDX-License-Identifier: MIT */
/*
 * What the BVH's builder, queries and inspection share: node access for both
 * layouts, and primitive geometry in tree coordinates.
 *
 * Generic code takes `dim` as a parameter and is force-inlined into small
 * per-dimension entry points, so each dimension gets its own straight-line
 * code from one source (no copy between 2D and 3D).
 */
#ifndef COPSE_BVH_INTERNAL_H
#define COPSE_BVH_INTERNAL_H

#include "copse/bvh.h"
#include "../geom/geom_internal.h"

COPSE_INLINE const float *bvh_node_min(const void *nodes, uint32_t i, unsigned dim)
{
    return dim == 3 ? ((const copse_bvh_node3 *)nodes)[i].min : ((const copse_bvh_node2 *)nodes)[i].min;
}

COPSE_INLINE const float *bvh_node_max(const void *nodes, uint32_t i, unsigned dim)
{
    return dim == 3 ? ((const copse_bvh_node3 *)nodes)[i].max : ((const copse_bvh_node2 *)nodes)[i].max;
}

COPSE_INLINE int32_t bvh_node_index(const void *nodes, uint32_t i, unsigned dim)
{
    return dim == 3 ? ((const copse_bvh_node3 *)nodes)[i].index : ((const copse_bvh_node2 *)nodes)[i].index;
}

COPSE_INLINE uint32_t bvh_node_count(const void *nodes, uint32_t i, unsigned dim)
{
    return dim == 3 ? ((const copse_bvh_node3 *)nodes)[i].count : ((const copse_bvh_node2 *)nodes)[i].count;
}

/* An internal node's right child: its `count` is the size of its left subtree, so both
 * children are found from the node itself (no read of the left child first). */
COPSE_INLINE uint32_t bvh_node_right(const void *nodes, uint32_t i, unsigned dim)
{
    return i + 1u + bvh_node_count(nodes, i, dim);
}

/* Nodes from i to the end of i's subtree (1 for a leaf). */
COPSE_INLINE uint32_t bvh_node_span(const void *nodes, uint32_t i, unsigned dim)
{
    int32_t index = bvh_node_index(nodes, i, dim);
    return index < 0 ? (uint32_t)(-(int64_t)index) : 1u;
}

COPSE_INLINE size_t bvh_node_bytes(unsigned dim)
{
    return dim == 3 ? COPSE_BVH_NODE3_BYTES : COPSE_BVH_NODE2_BYTES;
}

/* Mesh access ------------------------------------------------------------------------------- */

COPSE_INLINE void bvh_mesh_triangle(const copse_mesh *m, uint32_t t, uint32_t idx[3])
{
    if (m->index_type == COPSE_MESH_INDEX_U16) {
        const uint16_t *ix = (const uint16_t *)m->indices + (size_t)t * 3u;
        idx[0] = ix[0];
        idx[1] = ix[1];
        idx[2] = ix[2];
    } else if (m->index_type == COPSE_MESH_INDEX_U32) {
        const uint32_t *ix = (const uint32_t *)m->indices + (size_t)t * 3u;
        idx[0] = ix[0];
        idx[1] = ix[1];
        idx[2] = ix[2];
    } else {
        idx[0] = t * 3u;
        idx[1] = t * 3u + 1u;
        idx[2] = t * 3u + 2u;
    }
}

/* The stride is normalised at build time (never 0 inside a tree). */
COPSE_INLINE const float *bvh_mesh_vertex(const copse_mesh *m, uint32_t v)
{
    return (const float *)(const void *)((const uint8_t *)m->positions + (size_t)v * m->vertex_stride);
}

/* A vertex in tree coordinates: the tree's axes first, zeros after (2D embeds at z = 0).
 * A 3D tree's axes are always x, y, z (projections make 2D trees). */
COPSE_INLINE void bvh_vertex(const copse_bvh *t, uint32_t v, float out[3], unsigned dim)
{
    const float *p = bvh_mesh_vertex(&t->mesh, v);
    out[0] = p[dim == 3 ? 0u : t->axis[0]];
    out[1] = p[dim == 3 ? 1u : t->axis[1]];
    out[2] = dim == 3 ? p[2] : 0.0f;
}

/* A triangle's corners in tree coordinates: in 3D the mesh's own vertices (no copy), in 2D
 * copies into `buf` embedded at z = 0. */
COPSE_INLINE void bvh_triangle(const copse_bvh *t, uint32_t prim, const float *v[3], float buf[3][3],
                               unsigned dim)
{
    uint32_t idx[3];
    bvh_mesh_triangle(&t->mesh, prim, idx);
    if (dim == 3) {
        v[0] = bvh_mesh_vertex(&t->mesh, idx[0]);
        v[1] = bvh_mesh_vertex(&t->mesh, idx[1]);
        v[2] = bvh_mesh_vertex(&t->mesh, idx[2]);
    } else {
        bvh_vertex(t, idx[0], buf[0], dim);
        bvh_vertex(t, idx[1], buf[1], dim);
        bvh_vertex(t, idx[2], buf[2], dim);
        v[0] = buf[0];
        v[1] = buf[1];
        v[2] = buf[2];
    }
}

COPSE_INLINE const float *bvh_box(const copse_bvh *t, uint32_t prim, unsigned dim)
{
    return t->boxes + (size_t)prim * 2u * dim;
}

COPSE_INLINE uint32_t bvh_prim_id(const copse_bvh *t, uint32_t prim)
{
    return t->box_ids != NULL ? t->box_ids[prim] : prim;
}

/* Caller ids must not be COPSE_NONE: queries report that id as "no primitive". */
COPSE_INLINE bool bvh_ids_ok(const uint32_t *ids, uint32_t count)
{
    uint32_t i;
    for (i = 0; ids != NULL && i < count; i++)
        if (ids[i] == COPSE_NONE)
            return false;
    return true;
}

/* Build-time layout of the arena, shared by copse_bvh_build_bytes and the builders so the
 * exact-size promise cannot drift from what the builder takes. */
typedef struct bvh_plan {
    size_t prims, nodes, bounds, stack, bins;
    size_t total;
    uint32_t node_budget;
} bvh_plan;

copse_status copse_bvh_plan(uint32_t prim_count, unsigned dim, const copse_bvh_params *params, bvh_plan *plan);

/* Two independent 32-bit mixes of a primitive index. Summed over the leaf slots they equal
 * their sums over 0..prim_count-1 when every primitive appears exactly once: a check of
 * "exactly once" with no memory (a damaged tree slips through with odds of about 2^-64).
 * copse_bvh_check and the blob view both use it. */
COPSE_INLINE uint32_t bvh_mix_a(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    return x ^ (x >> 16);
}

COPSE_INLINE uint32_t bvh_mix_b(uint32_t x)
{
    x += 0x9E3779B9u;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    return x ^ (x >> 15);
}

/* Is box (mn, mx) inside (pmn, pmx)? */
COPSE_INLINE bool bvh_box_within(const float *mn, const float *mx, const float *pmn, const float *pmx, unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        if (mn[a] < pmn[a] || mx[a] > pmx[a])
            return false;
    return true;
}

/* Ordered walks (rays, nearest, and the collision queries of src/collide): the nearer subtree
 * first, the farther one waiting on a fixed stack with its key. */
typedef struct trav_entry {
    uint32_t node;
    float key; /* entry t, or squared distance */
} trav_entry;

/* The ordered walks' step at an internal node whose children were tested (hit, key = entry t
 * or squared distance): the nearer child (the left one on a tie) goes next, the other waits
 * on the stack when both are hit. The branch-free form (COPSE_BRANCH_FREE) always writes the
 * stack's top and keeps it only then; the stack has one slot past the depth cap for it, never
 * kept (the cap holds for every checked tree). Returns whether a child goes next. */
COPSE_INLINE bool ordered_descend(trav_entry *stack, uint32_t *sp, uint32_t *node, uint32_t left, uint32_t right,
                                  bool hl, bool hr, float kl, float kr)
{
#if COPSE_BRANCH_FREE
    bool right_first = hr & (!hl | (kr < kl));
    stack[*sp].node = right_first ? left : right;
    stack[*sp].key = right_first ? kl : kr;
    *sp += (uint32_t)(hl & hr & (*sp < COPSE_BVH_MAX_DEPTH));
    *node = right_first ? right : left;
    return hl | hr;
#else
    if (hl && hr) {
        bool right_first = kr < kl;
        stack[*sp].node = right_first ? left : right;
        stack[*sp].key = right_first ? kl : kr;
        *sp += (uint32_t)(*sp < COPSE_BVH_MAX_DEPTH);
        *node = right_first ? right : left;
        return true;
    }
    *node = hl ? left : right;
    return hl | hr;
#endif
}

/* Pops the next waiting subtree whose key is within `bound`; false when none is left. */
COPSE_INLINE bool ordered_pop(const trav_entry *stack, uint32_t *sp, uint32_t *node, float bound)
{
    while (*sp > 0) {
        const trav_entry *e = &stack[--*sp];
        if (e->key <= bound) {
            *node = e->node;
            return true;
        }
    }
    return false;
}

#endif /* COPSE_BVH_INTERNAL_H */

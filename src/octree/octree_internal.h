/* SPDX-License-Identifier: MIT */
/*
 * What the octrees' sources share: node fields, cells, pools (results go through ../core/emit_internal.h).
 */
#ifndef COPSE_OCTREE_INTERNAL_H
#define COPSE_OCTREE_INTERNAL_H

#include "copse/octree.h"
#include "../core/emit_internal.h"
#include "../geom/geom_internal.h"

#define OCT_NONE 0xFFFFFFFFu
#define OCT_LEAF 0x80000000u
#define OCT_COUNT_MASK 0x0FFFFFFFu
#define OCT_OCTANT_SHIFT 28u

/* ---- point octree nodes --------------------------------------------------------------------- */

COPSE_INLINE uint32_t oct_count(const copse_octree_node *n)
{
    return n->meta & OCT_COUNT_MASK;
}

COPSE_INLINE bool oct_is_leaf(const copse_octree_node *n)
{
    return (n->meta & OCT_LEAF) != 0u;
}

COPSE_INLINE unsigned oct_octant(const copse_octree_node *n)
{
    return (unsigned)((n->meta >> OCT_OCTANT_SHIFT) & 7u);
}

COPSE_INLINE void oct_set_meta(copse_octree_node *n, uint32_t count, unsigned octant, bool leaf)
{
    n->meta = (count & OCT_COUNT_MASK) | ((uint32_t)octant << OCT_OCTANT_SHIFT) | (leaf ? OCT_LEAF : 0u);
}

COPSE_INLINE void oct_set_count(copse_octree_node *n, uint32_t count)
{
    n->meta = (n->meta & ~OCT_COUNT_MASK) | (count & OCT_COUNT_MASK);
}

COPSE_INLINE const uint32_t *oct_bucket(const copse_octree *t, uint32_t b)
{
    return t->buckets + (size_t)b * (t->bucket_size + 1u);
}

/* A leaf's points, a bucket at a time:
 *     oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
 *     while (oct_leaf_next(t, &it))
 *         for (k = 0; k < it.count; k++) use(it.slots[k]);                                    */
typedef struct oct_leaf_iter {
    const uint32_t *slots; /* the current bucket's point indices */
    uint32_t count;        /* how many of them are in use */
    uint32_t bucket;       /* the current bucket */
    uint32_t next, left;
} oct_leaf_iter;

COPSE_INLINE oct_leaf_iter oct_leaf_begin(uint32_t first, uint32_t count)
{
    oct_leaf_iter it;
    it.slots = NULL;
    it.count = 0;
    it.bucket = OCT_NONE;
    it.next = first;
    it.left = count;
    return it;
}

COPSE_INLINE bool oct_leaf_next(const copse_octree *t, oct_leaf_iter *it)
{
    const uint32_t *bk;
    if (it->next == OCT_NONE || it->left == 0u)
        return false;
    bk = oct_bucket(t, it->next);
    it->bucket = it->next;
    it->slots = bk + 1;
    it->count = it->left < t->bucket_size ? it->left : t->bucket_size;
    it->left -= it->count;
    it->next = bk[0];
    return true;
}

COPSE_INLINE uint32_t oct_point_id(const copse_octree *t, uint32_t index)
{
    return t->ids != NULL ? t->ids[index] : index;
}

/* ---- cells (both trees) ------------------------------------------------------------------ */

/* Octant of p in a cell with centre c: bit 0 x, bit 1 y, bit 2 z (set: the upper half). */
COPSE_INLINE unsigned oct_octant_of(const float *p, const float *c)
{
    return (p[0] >= c[0] ? 1u : 0u) | (p[1] >= c[1] ? 2u : 0u) | (p[2] >= c[2] ? 4u : 0u);
}

/* The child cell of `octant`: the same arithmetic everywhere, so every walk agrees. */
COPSE_INLINE void oct_child_cell(const float *c, float h, unsigned octant, float *cc, float *ch)
{
    float q = h * 0.5f;
    cc[0] = (octant & 1u) ? c[0] + q : c[0] - q;
    cc[1] = (octant & 2u) ? c[1] + q : c[1] - q;
    cc[2] = (octant & 4u) ? c[2] + q : c[2] - q;
    *ch = q;
}

/* The cube around a box, without overflow for boxes spanning the whole float range. */
COPSE_INLINE void oct_cube_around(const float *mn, const float *mx, float *c, float *h)
{
    unsigned a;
    *h = 0.0f;
    for (a = 0; a < 3; a++) {
        float e = mx[a] * 0.5f - mn[a] * 0.5f;
        c[a] = mn[a] * 0.5f + mx[a] * 0.5f;
        *h = e > *h ? e : *h;
    }
}

COPSE_INLINE void oct_cube_around_box(const copse_box3 *box, float *c, float *h)
{
    float mn[3], mx[3];
    oct_cube_around(geo_v3_array(mn, box->min), geo_v3_array(mx, box->max), c, h);
}

/* Does an array of `count` elements of `unit` bytes stay well inside size_t (32-bit targets)? */
COPSE_INLINE bool oct_array_fits(uint32_t count, size_t unit)
{
    return (uint64_t)count * (uint64_t)unit <= (uint64_t)(((size_t)-1) / 4u);
}

COPSE_INLINE bool oct_finite3(const float *v)
{
    return geo_finite(v[0]) && geo_finite(v[1]) && geo_finite(v[2]);
}

COPSE_INLINE bool oct_finite_v3(copse_vec3 v)
{
    return geo_finite(v.x) && geo_finite(v.y) && geo_finite(v.z);
}

/* copse_octree_check, but NONFINITE when what broke the structure is a point that is no
 * longer finite (the caller owns the array): the save reports that status. */
copse_status copse__oct_check_points(const copse_octree *tree);

/* ---- loose octree ------------------------------------------------------------------------- */

/* Is object `id` (in the tree) in the node an insertion of its box would put it in? Reads
 * the nodes along the box's path: their child lists must be acyclic (a blob's view checks
 * this first). */
bool copse__loose_object_placed(const copse_loose *t, uint32_t id);

#endif /* COPSE_OCTREE_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * The BVH builder: one top-down builder whose split rule is a parameter
 * (median as in Recast's chunky mesh, centroid midpoint, or binned SAH).
 *
 * Ranges of primitives wait on an explicit stack; nodes come out depth-first
 * (pre-order), so a left child always follows its parent. While building, an
 * internal node's `index` holds its right child's node number; a final pass
 * from the last node back turns that into the escape count (subtree size).
 *
 * Every split gives each child at least ceil(leaf/2) primitives, which is what
 * bounds the node count (COPSE_BVH_NODE_BUDGET). A subtree that could outgrow
 * COPSE_BVH_MAX_DEPTH is split at the median, which halves it each level.
 *
 * Determinism: every comparison orders by (key, primitive index), and the
 * arithmetic is plain IEEE single precision without contraction, so the same
 * input gives the same bytes on every target.
 */
#include "../core/arena_internal.h"
#include "bvh_internal.h"

typedef struct build_range {
    uint32_t begin, end;
    uint32_t parent; /* node whose right child this range becomes, or COPSE_NONE */
    uint32_t depth;
} build_range;

typedef struct builder {
    unsigned dim;
    uint32_t leaf_size, min_child;
    copse_bvh_split split;
    uint32_t *prims;
    float *pbounds; /* 2*dim floats per primitive: min then max */
    uint8_t *nodes;
    /* SAH bins for one axis */
    uint32_t *bin_count;
    float *bin_min, *bin_max, *bin_right_cost;
} builder;

/* ---- sizes -------------------------------------------------------------------------------- */

static size_t mul_or_max(size_t a, size_t b)
{
    return (b != 0 && a > (size_t)-1 / b) ? (size_t)-1 : a * b;
}

static size_t add_or_max(size_t a, size_t b)
{
    return a > (size_t)-1 - b ? (size_t)-1 : a + b;
}

static size_t round_or_max(size_t bytes)
{
    return bytes > (size_t)-1 - COPSE_ARENA_ALIGN ? (size_t)-1 : COPSE_ARENA_ROUND(bytes);
}

copse_status copse_bvh_plan(uint32_t n, unsigned dim, const copse_bvh_params *params, bvh_plan *plan)
{
    size_t budget;
    __builtin_memset(plan, 0, sizeof *plan);
    if (params == NULL)
        return COPSE_ERR_NULL;
    if ((dim != 2 && dim != 3) || params->leaf_size < 1 || params->leaf_size > COPSE_BVH_MAX_LEAF ||
        (unsigned)params->split > (unsigned)COPSE_BVH_SPLIT_MIDPOINT ||
        (unsigned)params->projection > (unsigned)COPSE_BVH_PROJECT_YZ ||
        (params->flags & ~COPSE_BVH_REJECT_DEGENERATE) != 0)
        return COPSE_ERR_PARAM;
    if (n > COPSE_BVH_MAX_PRIMS)
        return COPSE_ERR_TOO_LARGE;
    budget = COPSE_BVH_NODE_BUDGET(n, params->leaf_size);
    plan->node_budget = (uint32_t)budget;
    plan->prims = round_or_max(mul_or_max(n, sizeof(uint32_t)));
    plan->nodes = round_or_max(mul_or_max(budget, bvh_node_bytes(dim)));
    plan->bounds = round_or_max(mul_or_max(n, 2u * dim * sizeof(float)));
    plan->stack = n > 0 ? COPSE_ARENA_ROUND((COPSE_BVH_MAX_DEPTH + 2u) * sizeof(build_range)) : 0;
    plan->bins = (n > 0 && params->split == COPSE_BVH_SPLIT_SAH)
                     ? COPSE_ARENA_ROUND(COPSE_BVH_SAH_BINS * (2u + 2u * dim) * sizeof(float))
                     : 0;
    plan->total = add_or_max(add_or_max(add_or_max(plan->prims, plan->nodes), add_or_max(plan->bounds, plan->stack)),
                             plan->bins);
    return plan->total == (size_t)-1 ? COPSE_ERR_TOO_LARGE : COPSE_OK;
}

size_t copse_bvh_build_bytes(uint32_t prim_count, unsigned dim, const copse_bvh_params *params)
{
    bvh_plan plan;
    return copse_bvh_plan(prim_count, dim, params, &plan) == COPSE_OK ? plan.total : (size_t)-1;
}

size_t copse_bvh_bytes(const copse_bvh *bvh)
{
    if (bvh == NULL || bvh->dim == 0)
        return 0;
    return add_or_max(round_or_max(mul_or_max(bvh->prim_count, sizeof(uint32_t))),
                      round_or_max(mul_or_max(bvh->node_count, bvh_node_bytes(bvh->dim))));
}

/* ---- helpers ------------------------------------------------------------------------------ */

COPSE_INLINE float *node_min_w(const builder *b, uint32_t i)
{
    return b->dim == 3 ? ((copse_bvh_node3 *)(void *)b->nodes)[i].min : ((copse_bvh_node2 *)(void *)b->nodes)[i].min;
}

COPSE_INLINE float *node_max_w(const builder *b, uint32_t i)
{
    return b->dim == 3 ? ((copse_bvh_node3 *)(void *)b->nodes)[i].max : ((copse_bvh_node2 *)(void *)b->nodes)[i].max;
}

COPSE_INLINE void node_set(const builder *b, uint32_t i, int32_t index, uint32_t count)
{
    if (b->dim == 3) {
        ((copse_bvh_node3 *)(void *)b->nodes)[i].index = index;
        ((copse_bvh_node3 *)(void *)b->nodes)[i].count = count;
    } else {
        ((copse_bvh_node2 *)(void *)b->nodes)[i].index = index;
        ((copse_bvh_node2 *)(void *)b->nodes)[i].count = count;
    }
}

/* The builder's hot loops take `dim` as a constant (force-inlined into a 2D and a 3D copy). */
COPSE_INLINE const float *prim_bounds_d(const builder *b, uint32_t prim, unsigned dim)
{
    return b->pbounds + (size_t)prim * 2u * dim;
}

/* Twice the centroid would overflow near FLT_MAX; half of each end cannot. */
COPSE_INLINE float centroid_d(const builder *b, uint32_t prim, unsigned axis, unsigned dim)
{
    const float *pb = prim_bounds_d(b, prim, dim);
    return pb[axis] * 0.5f + pb[dim + axis] * 0.5f;
}

COPSE_INLINE float centroid(const builder *b, uint32_t prim, unsigned axis)
{
    return centroid_d(b, prim, axis, b->dim);
}

COPSE_INLINE bool key_less(const builder *b, unsigned axis, uint32_t x, uint32_t y)
{
    float kx = centroid(b, x, axis), ky = centroid(b, y, axis);
    return kx < ky || (kx == ky && x < y);
}

static uint32_t ceil_log2(uint32_t v)
{
    uint32_t r = 0;
    while (r < 32u && ((uint64_t)1u << r) < v)
        r++;
    return r;
}

/* Half surface area (3D) or half perimeter (2D): the SAH's probability measure. */
static float half_area(const float *mn, const float *mx, unsigned dim)
{
    float dx = mx[0] - mn[0], dy = mx[1] - mn[1];
    if (dim == 2)
        return dx + dy;
    {
        float dz = mx[2] - mn[2];
        return dx * dy + dy * dz + dz * dx;
    }
}

static unsigned longest_axis(const float *mn, const float *mx, unsigned dim)
{
    unsigned a, best = 0;
    float best_ext = mx[0] * 0.5f - mn[0] * 0.5f;
    for (a = 1; a < dim; a++) {
        float ext = mx[a] * 0.5f - mn[a] * 0.5f;
        if (ext > best_ext) {
            best_ext = ext;
            best = a;
        }
    }
    return best;
}

/* ---- selection: the median split ------------------------------------------------------------ */

static void sift_down(const builder *b, unsigned axis, uint32_t *p, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2u * root + 1u, tmp;
        if (child >= n)
            return;
        if (child + 1u < n && key_less(b, axis, p[child], p[child + 1u]))
            child++;
        if (!key_less(b, axis, p[root], p[child]))
            return;
        tmp = p[root];
        p[root] = p[child];
        p[child] = tmp;
        root = child;
    }
}

/* Sort p[0..n) by (centroid, index): the fallback that keeps selection O(n log n). */
static void heap_sort(const builder *b, unsigned axis, uint32_t *p, uint32_t n)
{
    uint32_t i, tmp;
    for (i = n / 2u; i-- > 0;)
        sift_down(b, axis, p, i, n);
    for (i = n; i-- > 1u;) {
        tmp = p[0];
        p[0] = p[i];
        p[i] = tmp;
        sift_down(b, axis, p, 0, i);
    }
}

/* Rearrange prims[lo..hi) so the k smallest by (centroid on axis, index) come first:
 * quickselect with a median-of-three pivot, heap sort if it degenerates. */
static void select_kth(const builder *b, unsigned axis, uint32_t lo, uint32_t hi, uint32_t k)
{
    uint32_t *p = b->prims;
    uint32_t budget = 2u * ceil_log2(hi - lo) + 8u;
    while (hi - lo > 16u) {
        uint32_t mid = lo + (hi - lo) / 2u, last = hi - 1u, i, j, tmp, pivot;
        if (budget-- == 0u) {
            heap_sort(b, axis, p + lo, hi - lo);
            return;
        }
        /* median of three into p[last] */
        if (key_less(b, axis, p[mid], p[lo])) {
            tmp = p[mid]; p[mid] = p[lo]; p[lo] = tmp;
        }
        if (key_less(b, axis, p[last], p[lo])) {
            tmp = p[last]; p[last] = p[lo]; p[lo] = tmp;
        }
        if (key_less(b, axis, p[mid], p[last])) {
            tmp = p[mid]; p[mid] = p[last]; p[last] = tmp;
        }
        pivot = p[last];
        for (i = j = lo; j < last; j++) {
            if (key_less(b, axis, p[j], pivot)) {
                tmp = p[i]; p[i] = p[j]; p[j] = tmp;
                i++;
            }
        }
        p[last] = p[i];
        p[i] = pivot;
        if (i == k)
            return;
        if (k < i)
            hi = i;
        else
            lo = i + 1u;
    }
    { /* insertion sort of the small rest */
        uint32_t i, j;
        for (i = lo + 1u; i < hi; i++) {
            uint32_t x = p[i];
            for (j = i; j > lo && key_less(b, axis, x, p[j - 1u]); j--)
                p[j] = p[j - 1u];
            p[j] = x;
        }
    }
}

static uint32_t split_median(const builder *b, uint32_t begin, uint32_t end, unsigned axis)
{
    uint32_t mid = begin + (end - begin) / 2u;
    select_kth(b, axis, begin, end, mid);
    return mid;
}

/* ---- the midpoint split --------------------------------------------------------------------- */

static uint32_t split_midpoint(const builder *b, uint32_t begin, uint32_t end, const float *cmin, const float *cmax,
                               const float *nmin, const float *nmax)
{
    unsigned axis = longest_axis(cmin, cmax, b->dim);
    float split = cmin[axis] * 0.5f + cmax[axis] * 0.5f;
    uint32_t i = begin, j = end, count, left;
    if (!(cmax[axis] > cmin[axis]))
        return split_median(b, begin, end, longest_axis(nmin, nmax, b->dim));
    while (i < j) { /* centroids below the middle go left */
        if (centroid(b, b->prims[i], axis) < split) {
            i++;
        } else {
            uint32_t tmp = b->prims[i];
            b->prims[i] = b->prims[--j];
            b->prims[j] = tmp;
        }
    }
    count = end - begin;
    left = i - begin;
    if (left < b->min_child || count - left < b->min_child) { /* too lopsided: nearest legal rank */
        uint32_t k = left < b->min_child ? b->min_child : count - b->min_child;
        select_kth(b, axis, begin, end, begin + k);
        return begin + k;
    }
    return i;
}

/* ---- the binned SAH split ------------------------------------------------------------------- */

COPSE_INLINE uint32_t bin_of(float c_half, float cmin_half, float scale)
{
    /* compared as float before the conversion: a denormal extent makes scale infinite, and
     * converting inf (or anything >= 2^32) to an integer is undefined (found by fuzz_bvh_build) */
    float f = (c_half - cmin_half) * scale;
    return f > 0.0f ? (f < (float)COPSE_BVH_SAH_BINS ? (uint32_t)f : COPSE_BVH_SAH_BINS - 1u) : 0u;
}

/* Returns the split rank, or 0 when no split with legal child sizes has a finite cost. */
COPSE_INLINE uint32_t split_sah_d(const builder *b, uint32_t begin, uint32_t end, const float *cmin,
                                  const float *cmax, unsigned dim)
{
    const unsigned nb = COPSE_BVH_SAH_BINS;
    float best_cost = FLT_MAX, best_scale = 0.0f, best_cmin_half = 0.0f;
    unsigned best_axis = 0, axis;
    uint32_t best_bin = COPSE_NONE, i;

    for (axis = 0; axis < dim; axis++) {
        float cmin_half = cmin[axis] * 0.5f;
        float ext_half = cmax[axis] * 0.5f - cmin_half;
        float scale, lmin[3], lmax[3], rmin[3], rmax[3];
        uint32_t k, nl, nr;
        unsigned a;
        if (!(ext_half > 0.0f))
            continue;
        scale = (float)nb / ext_half;
        for (k = 0; k < nb; k++) {
            b->bin_count[k] = 0;
            for (a = 0; a < dim; a++) {
                b->bin_min[k * dim + a] = FLT_MAX;
                b->bin_max[k * dim + a] = -FLT_MAX;
            }
        }
        for (i = begin; i < end; i++) {
            const float *pb = prim_bounds_d(b, b->prims[i], dim);
            uint32_t bin = bin_of(centroid_d(b, b->prims[i], axis, dim) * 0.5f, cmin_half, scale);
            b->bin_count[bin]++;
            for (a = 0; a < dim; a++) {
                b->bin_min[bin * dim + a] = geo_min(b->bin_min[bin * dim + a], pb[a]);
                b->bin_max[bin * dim + a] = geo_max(b->bin_max[bin * dim + a], pb[dim + a]);
            }
        }
        /* right to left: the cost of everything right of each plane */
        for (a = 0; a < dim; a++) {
            rmin[a] = FLT_MAX;
            rmax[a] = -FLT_MAX;
        }
        nr = 0;
        for (k = nb - 1u; k > 0u; k--) {
            for (a = 0; a < dim; a++) {
                rmin[a] = geo_min(rmin[a], b->bin_min[k * dim + a]);
                rmax[a] = geo_max(rmax[a], b->bin_max[k * dim + a]);
            }
            nr += b->bin_count[k];
            b->bin_right_cost[k] = nr > 0 ? half_area(rmin, rmax, dim) * (float)nr : 0.0f;
        }
        /* left to right: plane after bin k */
        for (a = 0; a < dim; a++) {
            lmin[a] = FLT_MAX;
            lmax[a] = -FLT_MAX;
        }
        nl = 0;
        for (k = 0; k + 1u < nb; k++) {
            float cost;
            for (a = 0; a < dim; a++) {
                lmin[a] = geo_min(lmin[a], b->bin_min[k * dim + a]);
                lmax[a] = geo_max(lmax[a], b->bin_max[k * dim + a]);
            }
            nl += b->bin_count[k];
            nr = (end - begin) - nl;
            if (nl < b->min_child || nr < b->min_child)
                continue;
            cost = half_area(lmin, lmax, dim) * (float)nl + b->bin_right_cost[k + 1u];
            if (cost < best_cost) { /* NaN and infinity never win */
                best_cost = cost;
                best_axis = axis;
                best_bin = k;
                best_scale = scale;
                best_cmin_half = cmin_half;
            }
        }
    }
    if (best_bin == COPSE_NONE)
        return 0;
    {
        uint32_t lo = begin, hi = end;
        while (lo < hi) {
            uint32_t prim = b->prims[lo];
            if (bin_of(centroid_d(b, prim, best_axis, dim) * 0.5f, best_cmin_half, best_scale) <= best_bin) {
                lo++;
            } else {
                b->prims[lo] = b->prims[--hi];
                b->prims[hi] = prim;
            }
        }
        return lo;
    }
}

static uint32_t split_sah(const builder *b, uint32_t begin, uint32_t end, const float *cmin, const float *cmax)
{
    return b->dim == 3 ? split_sah_d(b, begin, end, cmin, cmax, 3) : split_sah_d(b, begin, end, cmin, cmax, 2);
}

/* ---- the build ---------------------------------------------------------------------------- */

/* Bounds and centroid bounds of the primitives in slots [begin, end). */
COPSE_INLINE void range_bounds_d(const builder *b, uint32_t begin, uint32_t end, float *nmin, float *nmax,
                                 float *cmin, float *cmax, unsigned dim)
{
    float bmin[3], bmax[3], lo[3], hi[3];
    uint32_t i;
    unsigned a;
    for (a = 0; a < dim; a++) {
        bmin[a] = lo[a] = FLT_MAX;
        bmax[a] = hi[a] = -FLT_MAX;
    }
    for (i = begin; i < end; i++) {
        const float *pb = prim_bounds_d(b, b->prims[i], dim);
        for (a = 0; a < dim; a++) {
            float c = pb[a] * 0.5f + pb[dim + a] * 0.5f;
            bmin[a] = geo_min(bmin[a], pb[a]);
            bmax[a] = geo_max(bmax[a], pb[dim + a]);
            lo[a] = geo_min(lo[a], c);
            hi[a] = geo_max(hi[a], c);
        }
    }
    for (a = 0; a < dim; a++) {
        nmin[a] = bmin[a];
        nmax[a] = bmax[a];
        cmin[a] = lo[a];
        cmax[a] = hi[a];
    }
}

static void range_bounds(const builder *b, uint32_t begin, uint32_t end, float *nmin, float *nmax, float *cmin,
                         float *cmax)
{
    if (b->dim == 3)
        range_bounds_d(b, begin, end, nmin, nmax, cmin, cmax, 3);
    else
        range_bounds_d(b, begin, end, nmin, nmax, cmin, cmax, 2);
}

static uint32_t build_tree(builder *b, uint32_t n, build_range *stack, uint32_t *depth_out)
{
    const unsigned dim = b->dim;
    uint32_t sp = 0, next = 0, max_depth = 0, i;

    stack[sp].begin = 0;
    stack[sp].end = n;
    stack[sp].parent = COPSE_NONE;
    stack[sp].depth = 1;
    sp++;
    while (sp > 0) {
        build_range r = stack[--sp];
        uint32_t node = next++, count = r.end - r.begin, mid = 0;
        float *nmin = node_min_w(b, node), *nmax = node_max_w(b, node);
        float cmin[3], cmax[3];

        if (r.parent != COPSE_NONE)
            node_set(b, r.parent, (int32_t)node, 0); /* right-child link, resolved below */
        if (r.depth > max_depth)
            max_depth = r.depth;
        range_bounds(b, r.begin, r.end, nmin, nmax, cmin, cmax);
        if (count <= b->leaf_size) {
            node_set(b, node, (int32_t)r.begin, count);
            continue;
        }
        if (r.depth + ceil_log2(count) >= COPSE_BVH_MAX_DEPTH || b->split == COPSE_BVH_SPLIT_MEDIAN)
            mid = split_median(b, r.begin, r.end, longest_axis(nmin, nmax, dim));
        else if (b->split == COPSE_BVH_SPLIT_MIDPOINT)
            mid = split_midpoint(b, r.begin, r.end, cmin, cmax, nmin, nmax);
        else if ((mid = split_sah(b, r.begin, r.end, cmin, cmax)) == 0u)
            mid = split_median(b, r.begin, r.end, longest_axis(nmin, nmax, dim));
        node_set(b, node, 0, 0);
        stack[sp].begin = mid; /* right waits, left goes next */
        stack[sp].end = r.end;
        stack[sp].parent = node;
        stack[sp].depth = r.depth + 1u;
        sp++;
        stack[sp].begin = r.begin;
        stack[sp].end = mid;
        stack[sp].parent = COPSE_NONE;
        stack[sp].depth = r.depth + 1u;
        sp++;
    }
    /* right-child links -> escape counts and left subtree sizes, last node first: a subtree
     * ends where its right child's does (internal nodes still have count 0 until reached) */
    for (i = next; i-- > 0;) {
        if (bvh_node_count(b->nodes, i, dim) == 0u) {
            uint32_t right = (uint32_t)bvh_node_index(b->nodes, i, dim);
            uint32_t end = right + bvh_node_span(b->nodes, right, dim);
            node_set(b, i, -(int32_t)(end - i), right - i - 1u);
        }
    }
    *depth_out = max_depth;
    return next;
}

/* The input side of a build: validates primitive `i` and writes its bounds. */
typedef copse_status (*prim_bounds_fn)(const copse_bvh *t, uint32_t i, float *out, uint32_t *degenerate);

static copse_status triangle_bounds(const copse_bvh *t, uint32_t prim, float *out, uint32_t *degenerate)
{
    const unsigned dim = t->dim;
    uint32_t idx[3], k;
    const float *p[3];
    unsigned a;
    bvh_mesh_triangle(&t->mesh, prim, idx);
    for (k = 0; k < 3; k++) {
        if (idx[k] >= t->mesh.vertex_count)
            return COPSE_ERR_INDEX;
        p[k] = bvh_mesh_vertex(&t->mesh, idx[k]);
        if (!geo_finite(p[k][0]) || !geo_finite(p[k][1]) || !geo_finite(p[k][2]))
            return COPSE_ERR_NONFINITE;
    }
    for (a = 0; a < dim; a++) {
        unsigned s = t->axis[a];
        out[a] = geo_min(p[0][s], geo_min(p[1][s], p[2][s]));
        out[dim + a] = geo_max(p[0][s], geo_max(p[1][s], p[2][s]));
    }
    {
        float e1[3], e2[3], n[3];
        geo_sub3(e1, p[1], p[0]);
        geo_sub3(e2, p[2], p[0]);
        geo_cross3(n, e1, e2);
        if (n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f)
            (*degenerate)++;
    }
    return COPSE_OK;
}

static copse_status box_bounds(const copse_bvh *t, uint32_t prim, float *out, uint32_t *degenerate)
{
    const unsigned dim = t->dim;
    const float *box = bvh_box(t, prim, dim);
    unsigned a;
    (void)degenerate;
    for (a = 0; a < dim; a++) {
        if (!geo_finite(box[a]) || !geo_finite(box[dim + a]))
            return COPSE_ERR_NONFINITE;
        if (box[a] > box[dim + a])
            return COPSE_ERR_PARAM;
        out[a] = box[a];
        out[dim + a] = box[dim + a];
    }
    return COPSE_OK;
}

/* Everything after the input-specific checks: arena, bounds, tree, escape pass. */
static copse_status build(copse_bvh *bvh, copse_arena *arena, const copse_bvh *shape, uint32_t n,
                          const copse_bvh_params *params, prim_bounds_fn bounds_of)
{
    const unsigned dim = shape->dim;
    bvh_plan plan;
    builder b;
    build_range *stack;
    size_t start;
    uint32_t i, depth = 0, degenerate = 0, node_count;
    copse_status st = copse_bvh_plan(n, dim, params, &plan);

    if (st != COPSE_OK)
        return st;
    if (!copse_arena_reserve_check(arena, plan.total))
        return COPSE_ERR_NOMEM;
    start = copse_arena_mark(arena);
    __builtin_memset(&b, 0, sizeof b);
    b.dim = dim;
    b.leaf_size = params->leaf_size;
    b.min_child = (params->leaf_size + 1u) / 2u;
    b.split = params->split;
    b.prims = (uint32_t *)copse_arena_alloc(arena, plan.prims);
    b.nodes = (uint8_t *)copse_arena_alloc(arena, plan.nodes);
    b.pbounds = (float *)copse_arena_alloc(arena, plan.bounds);
    stack = (build_range *)copse_arena_alloc(arena, plan.stack);
    if (plan.bins != 0) {
        float *bins = (float *)copse_arena_alloc(arena, plan.bins);
        b.bin_min = bins;
        b.bin_max = bins + COPSE_BVH_SAH_BINS * dim;
        b.bin_right_cost = bins + 2u * COPSE_BVH_SAH_BINS * dim;
        b.bin_count = (uint32_t *)(void *)(bins + (2u * dim + 1u) * COPSE_BVH_SAH_BINS);
    }

    for (i = 0; i < n; i++) {
        st = bounds_of(shape, i, b.pbounds + (size_t)i * 2u * dim, &degenerate);
        if (st != COPSE_OK)
            break;
        b.prims[i] = i;
    }
    if (st == COPSE_OK && degenerate != 0 && (params->flags & COPSE_BVH_REJECT_DEGENERATE))
        st = COPSE_ERR_DEGENERATE;
    if (st != COPSE_OK) {
        copse_arena_rewind(arena, start);
        return st;
    }

    node_count = n > 0 ? build_tree(&b, n, stack, &depth) : 0;
    *bvh = *shape;
    bvh->nodes = b.nodes;
    bvh->prims = b.prims;
    bvh->node_count = node_count;
    bvh->prim_count = n;
    bvh->depth = (uint8_t)depth;
    bvh->degenerate_count = degenerate;
    /* give back the scratch and the unused node budget: the tree ends the arena */
    copse_arena_rewind(arena, start + plan.prims + COPSE_ARENA_ROUND((size_t)node_count * bvh_node_bytes(dim)));
    return COPSE_OK;
}

static void clear(copse_bvh *bvh)
{
    __builtin_memset(bvh, 0, sizeof *bvh);
}

copse_status copse_bvh_build_mesh(copse_bvh *bvh, copse_arena *arena, const copse_mesh *mesh,
                                  const copse_bvh_params *params)
{
    static const uint8_t axes[4][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 0, 1, 2 }, { 1, 2, 0 } };
    copse_bvh shape;
    uint32_t stride;

    if (bvh == NULL)
        return COPSE_ERR_NULL;
    clear(bvh);
    if (arena == NULL || mesh == NULL || params == NULL)
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    if ((unsigned)params->projection > (unsigned)COPSE_BVH_PROJECT_YZ)
        return COPSE_ERR_PARAM;
    if (mesh->triangle_count > 0 && mesh->positions == NULL)
        return COPSE_ERR_NULL;
    if (mesh->index_type != COPSE_MESH_INDEX_NONE && mesh->index_type != COPSE_MESH_INDEX_U16 &&
        mesh->index_type != COPSE_MESH_INDEX_U32)
        return COPSE_ERR_PARAM;
    if (mesh->triangle_count > 0 && mesh->index_type != COPSE_MESH_INDEX_NONE && mesh->indices == NULL)
        return COPSE_ERR_NULL;
    stride = mesh->vertex_stride == 0 ? 3u * (uint32_t)sizeof(float) : mesh->vertex_stride;
    if (stride < 3u * sizeof(float) || stride % sizeof(float) != 0 ||
        ((uintptr_t)mesh->positions % sizeof(float)) != 0 ||
        ((uintptr_t)mesh->indices % (mesh->index_type == COPSE_MESH_INDEX_NONE ? 1u : (unsigned)mesh->index_type)) != 0)
        return COPSE_ERR_ALIGN;
    if (mesh->index_type == COPSE_MESH_INDEX_NONE && (uint64_t)mesh->triangle_count * 3u > mesh->vertex_count)
        return COPSE_ERR_INDEX;

    clear(&shape);
    shape.dim = params->projection == COPSE_BVH_PROJECT_NONE ? 3u : 2u;
    shape.kind = COPSE_BVH_PRIM_TRIANGLES;
    __builtin_memcpy(shape.axis, axes[params->projection], sizeof shape.axis);
    shape.mesh = *mesh;
    shape.mesh.vertex_stride = stride;
    return build(bvh, arena, &shape, mesh->triangle_count, params, triangle_bounds);
}

static copse_status build_boxes(copse_bvh *bvh, copse_arena *arena, const float *boxes, const uint32_t *ids,
                                uint32_t count, const copse_bvh_params *params, unsigned dim)
{
    copse_bvh shape;
    copse_bvh_params own;
    if (bvh == NULL)
        return COPSE_ERR_NULL;
    clear(bvh);
    if (arena == NULL || params == NULL || (boxes == NULL && count > 0))
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    own = *params;
    own.projection = COPSE_BVH_PROJECT_NONE; /* documented as ignored: not checked either */
    if (((uintptr_t)boxes % sizeof(float)) != 0 || ((uintptr_t)ids % sizeof(uint32_t)) != 0)
        return COPSE_ERR_ALIGN;
    if (count <= COPSE_BVH_MAX_PRIMS && !bvh_ids_ok(ids, count))
        return COPSE_ERR_PARAM;
    clear(&shape);
    shape.dim = (uint8_t)dim;
    shape.kind = COPSE_BVH_PRIM_BOXES;
    shape.axis[0] = 0;
    shape.axis[1] = 1;
    shape.axis[2] = 2;
    shape.boxes = boxes;
    shape.box_ids = ids;
    return build(bvh, arena, &shape, count, &own, box_bounds);
}

copse_status copse_bvh_build_boxes3(copse_bvh *bvh, copse_arena *arena, const copse_box3 *boxes,
                                    const uint32_t *ids, uint32_t count, const copse_bvh_params *params)
{
    return build_boxes(bvh, arena, (const float *)(const void *)boxes, ids, count, params, 3u);
}

copse_status copse_bvh_build_boxes2(copse_bvh *bvh, copse_arena *arena, const copse_box2 *boxes,
                                    const uint32_t *ids, uint32_t count, const copse_bvh_params *params)
{
    return build_boxes(bvh, arena, (const float *)(const void *)boxes, ids, count, params, 2u);
}

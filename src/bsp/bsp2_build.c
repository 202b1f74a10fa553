/* SPDX-License-Identifier: MIT */
/*
 * The 2D axis-aligned BSP tree.
 *
 * A region (the scene at the root) becomes a leaf when it is max_depth deep, holds no
 * object (an empty leaf) or holds one (a solid leaf). Otherwise it is cut by a line taken
 * from the edges of the objects' pieces in it (an object's piece is its box clipped to the
 * region; pieces that only touch the region are not in it):
 *
 *   1. per axis, the edge strictly inside the region that is nearest the region's centre
 *      (on a tie, the lower coordinate);
 *   2. of the vertical and the horizontal candidate, the one that cuts no piece; when both
 *      or neither cut, the one relatively nearer the centre (distance over the region's
 *      half extent on that axis); on a tie, the vertical line;
 *   3. no edge strictly inside the region on either axis (every piece covers it): a leaf.
 *
 * The defects of the first version are gone: no sentinel coordinates (a candidate is a flag and a value),
 * no "split = 0 means leaf" (leaves have their own kind), a region test that requires both
 * axes to overlap, candidates from every object overlapping the region, a flat array in the
 * caller's arena, and an explicit stack in place of recursion.
 *
 * Pieces are never stored: each node scans the objects (O(objects) per node), so a build
 * needs no scratch at all, and the exact size comes from running the same decisions
 * without writing (copse_bsp2_build_bytes). The build runs that counting pass against its
 * arena and stops with NOMEM as soon as the tree it counts outgrows it (bsp.h: the work bound).
 */
#include "../core/arena_internal.h"
#include "bsp_internal.h"

typedef struct region {
    float min[2], max[2];
    uint32_t patch; /* the node whose high-child index this region's node fills, or NONE */
    uint32_t depth;
} region;

typedef struct bsp2_out {
    copse_bsp2_node *nodes; /* NULL: count only */
    uint32_t *items;
    uint32_t nodes_used, items_used, leaves, depth, splits;
    size_t limit;           /* counting: stop with NOMEM once the tree counted outgrows this */
} bsp2_out;

static size_t bsp2_size(uint32_t nodes, uint32_t items)
{
    return COPSE_SIZE_ADD(COPSE_SIZE_ROUND(COPSE_SIZE_MUL(nodes, sizeof(copse_bsp2_node))),
                          COPSE_SIZE_ROUND(COPSE_SIZE_MUL(items, 4u)));
}

/* Counting for a build: the tree counted so far no longer fits the arena. */
COPSE_INLINE bool bsp2_outgrown(const bsp2_out *out)
{
    return out->nodes == NULL && bsp2_size(out->nodes_used, out->items_used) > out->limit;
}

/* The part of object o inside r, if it has an area there. */
COPSE_INLINE bool piece_of(const copse_box2 *o, const region *r, float *mn, float *mx)
{
    if (!(o->min.x < r->max[0] && o->max.x > r->min[0] && o->min.y < r->max[1] && o->max.y > r->min[1]))
        return false;
    mn[0] = geo_max(o->min.x, r->min[0]);
    mn[1] = geo_max(o->min.y, r->min[1]);
    mx[0] = geo_min(o->max.x, r->max[0]);
    mx[1] = geo_min(o->max.y, r->max[1]);
    return true;
}

/* Chooses the line for region r. Returns the number of pieces in r; *axis is 2 for "no line". */
static uint32_t choose_line(const copse_box2 *objects, uint32_t n, const region *r, unsigned *axis, float *split,
                            uint32_t *cuts)
{
    float ctr[2], half[2], best_d[2] = {0.0f, 0.0f}, best_c[2] = {0.0f, 0.0f};
    bool have[2] = {false, false};
    uint32_t pieces = 0, cut[2] = {0, 0}, i;
    unsigned a;
    for (a = 0; a < 2; a++) {
        ctr[a] = r->min[a] * 0.5f + r->max[a] * 0.5f; /* halves: no overflow near FLT_MAX */
        half[a] = r->max[a] * 0.5f - r->min[a] * 0.5f;
    }
    for (i = 0; i < n; i++) {
        float mn[2], mx[2];
        if (!piece_of(&objects[i], r, mn, mx))
            continue;
        pieces++;
        for (a = 0; a < 2; a++) {
            float edge[2];
            unsigned k;
            edge[0] = mn[a];
            edge[1] = mx[a];
            for (k = 0; k < 2; k++) {
                float c = edge[k], d;
                if (!(c > r->min[a] && c < r->max[a]))
                    continue;
                d = copse_fabsf(c - ctr[a]);
                if (!have[a] || d < best_d[a] || (d == best_d[a] && c < best_c[a])) {
                    have[a] = true;
                    best_d[a] = d;
                    best_c[a] = c;
                }
            }
        }
    }
    *axis = 2;
    if (pieces < 2 || (!have[0] && !have[1]))
        return pieces;
    for (i = 0; i < n; i++) {
        float mn[2], mx[2];
        if (!piece_of(&objects[i], r, mn, mx))
            continue;
        for (a = 0; a < 2; a++)
            cut[a] += have[a] && mn[a] < best_c[a] && best_c[a] < mx[a];
    }
    if (!have[1])
        *axis = 0;
    else if (!have[0])
        *axis = 1;
    else if ((cut[0] == 0) != (cut[1] == 0))
        *axis = cut[0] == 0 ? 0u : 1u;
    else
        *axis = best_d[1] / half[1] < best_d[0] / half[0] ? 1u : 0u;
    *split = best_c[*axis];
    *cuts = cut[*axis];
    return pieces;
}

/* The whole build (or, with out->nodes NULL, its counts), pre-order on a fixed stack. */
static copse_status bsp2_run(const copse_box2 *scene, const copse_box2 *objects, uint32_t n, uint32_t max_depth,
                             bsp2_out *out)
{
    region stack[BSP_STACK];
    uint32_t sp = 0;
    stack[0].min[0] = scene->min.x;
    stack[0].min[1] = scene->min.y;
    stack[0].max[0] = scene->max.x;
    stack[0].max[1] = scene->max.y;
    stack[0].patch = COPSE_NONE;
    stack[0].depth = 0;
    sp = 1;
    while (sp > 0) {
        region r = stack[--sp];
        uint32_t k = out->nodes_used, pieces, cuts = 0;
        unsigned axis = 2;
        float split = 0.0f;
        if (out->nodes_used >= 0x7FFFFFFFu || out->items_used >= 0x7FFFFFFFu - n)
            return COPSE_ERR_TOO_LARGE;
        out->nodes_used++;
        if (bsp2_outgrown(out))
            return COPSE_ERR_NOMEM;
        if (out->nodes != NULL && r.patch != COPSE_NONE)
            out->nodes[r.patch].index = k;
        pieces = choose_line(objects, n, &r, &axis, &split, &cuts);
        if (r.depth >= max_depth)
            axis = 2;
        if (axis == 2) {
            out->leaves++;
            out->depth = r.depth > out->depth ? r.depth : out->depth;
            if (out->nodes != NULL) {
                uint32_t i, slot = out->items_used;
                out->nodes[k].split = 0.0f;
                out->nodes[k].index = out->items_used;
                out->nodes[k].info = COPSE_BSP2_LEAF | (pieces << 2);
                for (i = 0; i < n; i++) {
                    float mn[2], mx[2];
                    if (piece_of(&objects[i], &r, mn, mx))
                        out->items[slot++] = i;
                }
            }
            out->items_used += pieces;
            if (bsp2_outgrown(out))
                return COPSE_ERR_NOMEM;
            continue;
        }
        out->splits += cuts;
        if (out->nodes != NULL) {
            out->nodes[k].split = split;
            out->nodes[k].index = 0; /* patched when the high child is emitted */
            out->nodes[k].info = axis;
        }
        /* high child waits; the low child is emitted next, so it is node k + 1 */
        stack[sp] = r;
        stack[sp].min[axis] = split;
        stack[sp].patch = k;
        stack[sp++].depth = r.depth + 1u;
        stack[sp] = r;
        stack[sp].max[axis] = split;
        stack[sp].patch = COPSE_NONE;
        stack[sp++].depth = r.depth + 1u;
    }
    return COPSE_OK;
}

static bool box_finite(const copse_box2 *b)
{
    return bsp_finite2(&b->min) && bsp_finite2(&b->max);
}

/* The input checks of build and build_bytes, in the order the statuses are documented. */
static copse_status bsp2_validate(const copse_box2 *scene, const copse_box2 *objects, uint32_t n,
                                  const copse_bsp2_params *params)
{
    uint32_t i;
    copse_status st = COPSE_OK;
    if (scene == NULL || params == NULL || (objects == NULL && n > 0))
        return COPSE_ERR_NULL;
    if (params->max_depth < 1u || params->max_depth > COPSE_BSP_MAX_DEPTH)
        return COPSE_ERR_PARAM;
    if (n > COPSE_BSP_MAX_OBJECTS)
        return COPSE_ERR_TOO_LARGE;
    if (!box_finite(scene))
        return COPSE_ERR_NONFINITE;
    if (!(scene->min.x < scene->max.x && scene->min.y < scene->max.y))
        return COPSE_ERR_PARAM;
    for (i = 0; i < n; i++) {
        const copse_box2 *b = &objects[i];
        if (!box_finite(b))
            return COPSE_ERR_NONFINITE;
        if (b->min.x > b->max.x || b->min.y > b->max.y)
            st = st == COPSE_OK ? COPSE_ERR_PARAM : st;
        else if (b->min.x == b->max.x || b->min.y == b->max.y)
            st = st == COPSE_OK ? COPSE_ERR_DEGENERATE : st;
    }
    return st;
}

size_t copse_bsp2_build_bytes(const copse_box2 *scene, const copse_box2 *objects, uint32_t count,
                              const copse_bsp2_params *params)
{
    bsp2_out out;
    if (bsp2_validate(scene, objects, count, params) != COPSE_OK)
        return (size_t)-1;
    __builtin_memset(&out, 0, sizeof out);
    out.limit = SIZE_MAX;
    if (bsp2_run(scene, objects, count, params->max_depth, &out) != COPSE_OK)
        return (size_t)-1;
    return bsp2_size(out.nodes_used, out.items_used);
}

size_t copse_bsp2_bytes(const copse_bsp2 *bsp)
{
    return bsp == NULL || bsp->node_count == 0 ? 0 : bsp2_size(bsp->node_count, bsp->item_count);
}

copse_status copse_bsp2_build(copse_bsp2 *bsp, copse_arena *arena, const copse_box2 *scene,
                              const copse_box2 *objects, uint32_t count, const copse_bsp2_params *params)
{
    bsp2_out out;
    copse_status st;
    size_t mark;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bsp, 0, sizeof *bsp);
    if (arena == NULL)
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    st = bsp2_validate(scene, objects, count, params);
    if (st != COPSE_OK)
        return st;
    /* The counting pass stops as soon as the tree it counts outgrows the arena: then NOMEM, with
     * arena->needed a lower bound (the tree counted until it stopped). */
    __builtin_memset(&out, 0, sizeof out);
    out.limit = copse_arena_remaining(arena);
    st = bsp2_run(scene, objects, count, params->max_depth, &out);
    if (st != COPSE_OK && st != COPSE_ERR_NOMEM)
        return st;
    if (!copse_arena_reserve_check(arena, bsp2_size(out.nodes_used, out.items_used))) /* records needed */
        return COPSE_ERR_NOMEM;
    mark = copse_arena_mark(arena);
    out.nodes = (copse_bsp2_node *)copse_arena_alloc(arena, (size_t)out.nodes_used * sizeof(copse_bsp2_node));
    out.items = (uint32_t *)copse_arena_alloc(arena, (size_t)out.items_used * 4u);
    if (out.nodes == NULL || (out.items == NULL && out.items_used > 0)) { /* cannot happen after the check */
        copse_arena_rewind(arena, mark);
        return COPSE_ERR_NOMEM;
    }
    __builtin_memset(out.nodes, 0, bsp2_size(out.nodes_used, out.items_used)); /* no stale padding */
    out.nodes_used = out.items_used = out.leaves = out.depth = out.splits = 0;
    (void)bsp2_run(scene, objects, count, params->max_depth, &out);
    bsp->nodes = out.nodes;
    bsp->items = out.items;
    bsp->node_count = out.nodes_used;
    bsp->item_count = out.items_used;
    bsp->leaf_count = out.leaves;
    bsp->object_count = count;
    bsp->depth = out.depth;
    bsp->split_count = out.splits;
    bsp->scene = *scene;
    bsp->objects = objects;
    return COPSE_OK;
}

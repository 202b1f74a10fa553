/* SPDX-License-Identifier: MIT */
/*
 * The point octree's pools and its changes: init, bulk build, insert, remove.
 *
 * Nodes and buckets come from two fixed pools with free lists threaded through `next` (nodes)
 * and a bucket's first word (buckets). Every change first works out how many nodes and buckets
 * it will take, refuses with COPSE_ERR_NOMEM when they are not free, and only then writes: a
 * refused change leaves every byte of the tree as it was.
 */

#include "../core/arena_internal.h"
#include "octree_internal.h"

/* ---- pools ------------------------------------------------------------------------------------ */

static uint32_t *bucket_at(copse_octree *t, uint32_t b)
{
    return t->buckets + (size_t)b * (t->bucket_size + 1u);
}

static uint32_t node_alloc(copse_octree *t)
{
    uint32_t n = t->node_free;
    if (n != OCT_NONE)
        t->node_free = t->nodes[n].next;
    else
        n = t->node_top++;
    t->nodes_used++;
    return n;
}

static void node_release(copse_octree *t, uint32_t n)
{
    t->nodes[n].next = t->node_free;
    t->nodes[n].first = OCT_NONE;
    t->nodes[n].meta = 0;
    t->node_free = n;
    t->nodes_used--;
}

static uint32_t bucket_alloc(copse_octree *t)
{
    uint32_t b = t->bucket_free;
    if (b != OCT_NONE)
        t->bucket_free = bucket_at(t, b)[0];
    else
        b = t->bucket_top++;
    t->buckets_used++;
    /* cleared: the same operations give the same bytes, whatever the pool held before */
    __builtin_memset(bucket_at(t, b), 0, 4u * ((size_t)t->bucket_size + 1u));
    bucket_at(t, b)[0] = OCT_NONE;
    return b;
}

static void bucket_release(copse_octree *t, uint32_t b)
{
    bucket_at(t, b)[0] = t->bucket_free;
    t->bucket_free = b;
    t->buckets_used--;
}

/* Releases a whole chain. */
static void chain_release(copse_octree *t, uint32_t b)
{
    while (b != OCT_NONE) {
        uint32_t next = bucket_at(t, b)[0];
        bucket_release(t, b);
        b = next;
    }
}

/* True when `nodes` and `buckets` more are free; otherwise records the shortfall. */
static bool pools_have(copse_octree *t, uint32_t nodes, uint32_t buckets)
{
    uint32_t free_nodes = t->max_nodes - t->nodes_used, free_buckets = t->max_buckets - t->buckets_used;
    t->nodes_short = nodes > free_nodes ? nodes - free_nodes : 0u;
    t->buckets_short = buckets > free_buckets ? buckets - free_buckets : 0u;
    return t->nodes_short == 0u && t->buckets_short == 0u;
}

static uint32_t buckets_for(const copse_octree *t, uint32_t count)
{
    return (count + t->bucket_size - 1u) / t->bucket_size;
}

static void bounds_empty(copse_octree_node *n)
{
    n->min[0] = n->min[1] = n->min[2] = FLT_MAX;
    n->max[0] = n->max[1] = n->max[2] = -FLT_MAX;
}

static void bounds_add(float *mn, float *mx, const float *p)
{
    unsigned a;
    for (a = 0; a < 3; a++) {
        mn[a] = p[a] < mn[a] ? p[a] : mn[a];
        mx[a] = p[a] > mx[a] ? p[a] : mx[a];
    }
}

/* The point's coordinates, copied into xyz (the walks index them by axis). */
static const float *point_at(const copse_octree *t, uint32_t index, float *xyz)
{
    return geo_v3_array(xyz, t->points[index]);
}

/* A fresh leaf with no points. */
static void leaf_init(copse_octree *t, uint32_t n, unsigned octant)
{
    copse_octree_node *node = &t->nodes[n];
    bounds_empty(node);
    node->first = OCT_NONE;
    node->next = OCT_NONE;
    oct_set_meta(node, 0, octant, true);
}

/* Appends to a leaf whose chain ends at *tail (OCT_NONE: no bucket yet), taking a bucket when the
 * last is full; the caller has made sure one is free. */
static void leaf_push(copse_octree *t, uint32_t n, uint32_t *tail, uint32_t index)
{
    float xyz[3];
    copse_octree_node *node = &t->nodes[n];
    uint32_t c = oct_count(node), slot = c % t->bucket_size;
    if (slot == 0u) {
        uint32_t b = bucket_alloc(t);
        if (*tail == OCT_NONE)
            node->first = b;
        else
            bucket_at(t, *tail)[0] = b;
        *tail = b;
    }
    bucket_at(t, *tail)[1u + slot] = index;
    oct_set_count(node, c + 1u);
    bounds_add(node->min, node->max, point_at(t, index, xyz));
}

static uint32_t chain_tail(const copse_octree *t, uint32_t b)
{
    if (b == OCT_NONE)
        return OCT_NONE;
    while (oct_bucket(t, b)[0] != OCT_NONE)
        b = oct_bucket(t, b)[0];
    return b;
}

/* The leaf's bounds from its points. */
static void leaf_refit(copse_octree *t, uint32_t n)
{
    float xyz[3];
    copse_octree_node *node = &t->nodes[n];
    oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
    uint32_t k;
    bounds_empty(node);
    while (oct_leaf_next(t, &it))
        for (k = 0; k < it.count; k++)
            bounds_add(node->min, node->max, point_at(t, it.slots[k], xyz));
}

/* An internal node's bounds from its children. */
static void node_refit(copse_octree *t, uint32_t n)
{
    copse_octree_node *node = &t->nodes[n];
    uint32_t c;
    bounds_empty(node);
    for (c = node->first; c != OCT_NONE; c = t->nodes[c].next) {
        bounds_add(node->min, node->max, t->nodes[c].min);
        bounds_add(node->min, node->max, t->nodes[c].max);
    }
}

/* ---- init ------------------------------------------------------------------------------------ */

static bool config_sizes_ok(const copse_octree_config *c)
{
    return c->max_nodes >= 1u && c->max_nodes <= COPSE_OCTREE_MAX_POINTS && c->max_buckets <= COPSE_OCTREE_MAX_POINTS &&
           c->bucket_size >= 1u &&
           c->bucket_size <= COPSE_OCTREE_MAX_BUCKET && c->leaf_size >= 1u && c->leaf_size <= COPSE_OCTREE_MAX_POINTS &&
           c->max_depth <= COPSE_OCTREE_MAX_DEPTH &&
           c->point_capacity <= COPSE_OCTREE_MAX_POINTS;
}

size_t copse_octree_bytes(const copse_octree_config *config)
{
    if (config == NULL || !config_sizes_ok(config) || !oct_array_fits(config->max_nodes, COPSE_OCTREE_NODE_BYTES) ||
        !oct_array_fits(config->max_buckets, COPSE_OCTREE_BUCKET_BYTES(config->bucket_size)))
        return (size_t)-1;
    return COPSE_OCTREE_BYTES(config->max_nodes, config->max_buckets, config->bucket_size);
}

void copse_octree_clear(copse_octree *t)
{
    if (t == NULL || t->nodes == NULL || t->read_only)
        return;
    t->node_top = 0;
    t->node_free = OCT_NONE;
    t->nodes_used = 0;
    t->bucket_top = 0;
    t->bucket_free = OCT_NONE;
    t->buckets_used = 0;
    t->size = 0;
    leaf_init(t, node_alloc(t), 0);
}

copse_status copse_octree_init(copse_octree *t, copse_arena *arena, const copse_octree_config *config)
{
    size_t bytes, mark;
    if (t == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(t, 0, sizeof *t);
    t->node_free = t->bucket_free = OCT_NONE;
    if (arena == NULL || config == NULL || (config->points == NULL && config->point_capacity > 0u))
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    if (!config_sizes_ok(config))
        return COPSE_ERR_PARAM;
    if (!oct_finite_v3(config->bounds.min) || !oct_finite_v3(config->bounds.max))
        return COPSE_ERR_NONFINITE;
    if (config->bounds.min.x > config->bounds.max.x || config->bounds.min.y > config->bounds.max.y ||
        config->bounds.min.z > config->bounds.max.z)
        return COPSE_ERR_EMPTY_RANGE;
    bytes = copse_octree_bytes(config);
    mark = copse_arena_mark(arena);
    if (bytes == (size_t)-1 || !copse_arena_reserve_check(arena, bytes))
        return COPSE_ERR_NOMEM;
    t->nodes = (copse_octree_node *)copse_arena_alloc(arena, COPSE_OCTREE_NODE_BYTES * (size_t)config->max_nodes);
    t->buckets = (uint32_t *)copse_arena_alloc(arena, COPSE_OCTREE_BUCKET_BYTES(config->bucket_size) *
                                                          (size_t)config->max_buckets);
    if (t->nodes == NULL || (t->buckets == NULL && config->max_buckets > 0u)) { /* cannot happen: reserved */
        copse_arena_rewind(arena, mark);
        __builtin_memset(t, 0, sizeof *t);
        return COPSE_ERR_NOMEM;
    }
    t->points = config->points;
    t->ids = config->ids;
    t->point_capacity = config->point_capacity;
    oct_cube_around_box(&config->bounds, t->center, &t->half);
    t->max_nodes = config->max_nodes;
    t->max_buckets = config->max_buckets;
    t->bucket_size = config->bucket_size;
    t->leaf_size = config->leaf_size;
    t->max_depth = config->max_depth;
    copse_octree_clear(t);
    return COPSE_OK;
}

/* ---- splitting: where a group of points separates --------------------------------------------- */

/* A split plan: the group is followed down `chain` levels (one child each, octants chain_oct[])
 * until its points fall into more than one octant of the cell (c, h); count[] per octant there. */
typedef struct split_plan {
    uint32_t chain;
    uint8_t chain_oct[COPSE_OCTREE_MAX_DEPTH];
    float c[3], h;
    uint32_t count[8];
    uint32_t children;
} split_plan;

/* Point source of a plan: a leaf's bucket chain plus one extra point, or a run of indices. */
typedef struct point_group {
    const uint32_t *run;   /* a run of indices, or NULL */
    uint32_t first, count; /* the leaf's chain and its count, without the extra point */
    uint32_t extra;        /* OCT_NONE: none */
} point_group;

static void group_count(const copse_octree *t, const point_group *g, const float *c, uint32_t *count)
{
    float xyz[3];
    uint32_t k;
    for (k = 0; k < 8u; k++)
        count[k] = 0;
    if (g->run != NULL) {
        for (k = 0; k < g->count; k++)
            count[oct_octant_of(point_at(t, g->run[k], xyz), c)]++;
    } else {
        oct_leaf_iter it = oct_leaf_begin(g->first, g->count);
        while (oct_leaf_next(t, &it))
            for (k = 0; k < it.count; k++)
                count[oct_octant_of(point_at(t, it.slots[k], xyz), c)]++;
    }
    if (g->extra != OCT_NONE)
        count[oct_octant_of(point_at(t, g->extra, xyz), c)]++;
}

/* Finds where a group at `depth` in cell (c, h) with bounds [mn, mx] separates. False when it
 * cannot above max_depth (all points equal, or closer than the deepest cells): the same-count
 * rule then keeps them in one leaf. */
static bool plan_split(const copse_octree *t, const point_group *g, uint32_t depth, const float *c, float h,
                       const float *mn, const float *mx, split_plan *plan)
{
    uint32_t level = depth, k;
    if (depth >= t->max_depth || (mn[0] == mx[0] && mn[1] == mx[1] && mn[2] == mx[2]))
        return false;
    plan->chain = 0;
    plan->c[0] = c[0];
    plan->c[1] = c[1];
    plan->c[2] = c[2];
    plan->h = h;
    for (;;) {
        unsigned only = 0;
        group_count(t, g, plan->c, plan->count);
        plan->children = 0;
        for (k = 0; k < 8u; k++) {
            if (plan->count[k] > 0u) {
                plan->children++;
                only = k;
            }
        }
        if (plan->children >= 2u)
            return true;
        if (++level >= t->max_depth)
            return false;
        plan->chain_oct[plan->chain++] = (uint8_t)only;
        oct_child_cell(plan->c, plan->h, only, plan->c, &plan->h);
    }
}

/* Turns node n (which holds `count` points within [mn, mx]) into the chain of the plan and
 * returns the node that receives the children, with their leaves made (empty), first in
 * octant order. kids[o] is the child of octant o or OCT_NONE. */
static uint32_t apply_plan(copse_octree *t, uint32_t n, uint32_t count, const float *mn, const float *mx,
                           const split_plan *plan, uint32_t *kids)
{
    uint32_t k, prev = OCT_NONE;
    __builtin_memcpy(t->nodes[n].min, mn, sizeof t->nodes[n].min);
    __builtin_memcpy(t->nodes[n].max, mx, sizeof t->nodes[n].max);
    for (k = 0; k < plan->chain; k++) {
        uint32_t m = node_alloc(t);
        copse_octree_node *node;
        t->nodes[n].first = m;
        oct_set_meta(&t->nodes[n], count, oct_octant(&t->nodes[n]), false);
        node = &t->nodes[m];
        __builtin_memcpy(node->min, mn, sizeof node->min);
        __builtin_memcpy(node->max, mx, sizeof node->max);
        node->next = OCT_NONE;
        node->first = OCT_NONE;
        oct_set_meta(node, count, plan->chain_oct[k], false);
        n = m;
    }
    oct_set_meta(&t->nodes[n], count, oct_octant(&t->nodes[n]), false);
    t->nodes[n].first = OCT_NONE;
    for (k = 0; k < 8u; k++) {
        kids[k] = OCT_NONE;
        if (plan->count[k] == 0u)
            continue;
        kids[k] = node_alloc(t);
        leaf_init(t, kids[k], k);
        if (prev == OCT_NONE)
            t->nodes[n].first = kids[k];
        else
            t->nodes[prev].next = kids[k];
        prev = kids[k];
    }
    return n;
}

/* ---- bulk build ------------------------------------------------------------------------------ */

typedef struct build_entry {
    uint32_t node, start, count, depth;
    float c[3], h;
} build_entry;

/* Each split pops one entry and pushes at most 8, once per level: 7 * max_depth + 1 at most. */
static size_t build_stack_entries(const copse_octree *t)
{
    return 7u * (size_t)t->max_depth + 8u;
}

size_t copse_octree_build_scratch_bytes(const copse_octree *tree, uint32_t count)
{
    if (tree == NULL)
        return (size_t)-1;
    return COPSE_OCTREE_BUILD_SCRATCH_BYTES(count, tree->max_depth);
}

/* Reorders run[0..n) by octant of cell centre c (in place, octant 0 first). */
static void partition8(const copse_octree *t, uint32_t *run, uint32_t n, const float *c, const uint32_t *count)
{
    float xyz[3];
    uint32_t next[8], end[8], k, at = 0;
    for (k = 0; k < 8u; k++) {
        next[k] = at;
        at += count[k];
        end[k] = at;
    }
    for (k = 0; k < 8u; k++) {
        while (next[k] < end[k]) {
            uint32_t v = run[next[k]];
            unsigned o = oct_octant_of(point_at(t, v, xyz), c);
            if (o == k) {
                next[k]++;
            } else {
                run[next[k]] = run[next[o]];
                run[next[o]++] = v;
            }
        }
    }
    (void)n;
}

/* One top-down pass over run[0..n): counts the nodes and buckets (write = false), or builds into
 * the (cleared) pools. Both passes make the same decisions from the same points. A count stops as
 * soon as it passes the pools (`fit`: the build's count; measure counts everything). */
static void build_pass(copse_octree *t, uint32_t *run, uint32_t n, build_entry *stack, bool write, bool fit,
                       uint32_t *nodes_out, uint32_t *buckets_out)
{
    float xyz[3];
    uint32_t sp = 0, nodes = 1, buckets = 0;
    stack[sp].node = 0;
    stack[sp].start = 0;
    stack[sp].count = n;
    stack[sp].depth = 0;
    __builtin_memcpy(stack[sp].c, t->center, sizeof stack[sp].c);
    stack[sp].h = t->half;
    sp++;
    while (sp > 0u) {
        build_entry e = stack[--sp];
        uint32_t *seg = run + e.start, k;
        if (fit && (nodes > t->max_nodes || buckets > t->max_buckets))
            break; /* the pools cannot hold it: NOMEM, with the shortfall counted so far */
        float mn[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, mx[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
        split_plan plan;
        point_group g;
        for (k = 0; k < e.count; k++)
            bounds_add(mn, mx, point_at(t, seg[k], xyz));
        g.run = seg;
        g.first = OCT_NONE;
        g.count = e.count;
        g.extra = OCT_NONE;
        if (e.count <= t->leaf_size || !plan_split(t, &g, e.depth, e.c, e.h, mn, mx, &plan)) {
            buckets += buckets_for(t, e.count);
            if (write) {
                uint32_t tail = OCT_NONE;
                for (k = 0; k < e.count; k++)
                    leaf_push(t, e.node, &tail, seg[k]);
            }
            continue;
        }
        nodes += plan.chain + plan.children;
        partition8(t, seg, e.count, plan.c, plan.count);
        {
            uint32_t kids[8], at = e.count, depth = e.depth + plan.chain + 1u;
            if (write)
                (void)apply_plan(t, e.node, e.count, mn, mx, &plan, kids);
            for (k = 8u; k-- > 0u;) { /* pushed last octant first: octant 0 is built next */
                if (plan.count[k] == 0u)
                    continue;
                at -= plan.count[k];
                stack[sp].node = write ? kids[k] : 0u;
                stack[sp].start = e.start + at;
                stack[sp].count = plan.count[k];
                stack[sp].depth = depth;
                oct_child_cell(plan.c, plan.h, (unsigned)k, stack[sp].c, &stack[sp].h);
                sp++;
            }
        }
    }
    *nodes_out = nodes;
    *buckets_out = buckets;
}

/* Scratch, bounds, root cell and the counting pass; the caller decides what to do next. */
static copse_status build_prepare(copse_octree *t, copse_arena *scratch, uint32_t count, bool fit, float *center,
                                  float *half, uint32_t **run, build_entry **stack, uint32_t *nodes, uint32_t *buckets)
{
    float xyz[3];
    float mn[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, mx[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
    float saved_c[3], saved_h;
    uint32_t i;
    if (t == NULL || scratch == NULL)
        return COPSE_ERR_NULL;
    if (t->nodes == NULL)
        return COPSE_ERR_PARAM;
    if (count > t->point_capacity)
        return COPSE_ERR_PARAM;
    for (i = 0; i < count; i++) {
        const float *p = point_at(t, i, xyz);
        if (!oct_finite3(p))
            return COPSE_ERR_NONFINITE;
        if (t->ids != NULL && t->ids[i] == OCT_NONE)
            return COPSE_ERR_PARAM; /* queries would report it as "no point" */
        bounds_add(mn, mx, p);
    }
    if (!copse_arena_reserve_check(scratch, copse_octree_build_scratch_bytes(t, count)))
        return COPSE_ERR_NOMEM;
    *run = (uint32_t *)copse_arena_alloc(scratch, 4u * (size_t)count);
    *stack = (build_entry *)copse_arena_alloc(scratch, sizeof(build_entry) * build_stack_entries(t));
    for (i = 0; i < count; i++)
        (*run)[i] = i;
    if (count > 0u)
        oct_cube_around(mn, mx, center, half);
    else {
        __builtin_memcpy(center, t->center, sizeof t->center);
        *half = t->half;
    }
    /* the pass reads the root cell from the tree: lend it the new one */
    __builtin_memcpy(saved_c, t->center, sizeof saved_c);
    saved_h = t->half;
    __builtin_memcpy(t->center, center, sizeof t->center);
    t->half = *half;
    build_pass(t, *run, count, *stack, false, fit, nodes, buckets);
    __builtin_memcpy(t->center, saved_c, sizeof saved_c);
    t->half = saved_h;
    return COPSE_OK;
}

copse_status copse_octree_measure(const copse_octree *tree, copse_arena *scratch, uint32_t count, uint32_t *nodes,
                                  uint32_t *buckets)
{
    copse_octree copy;
    uint32_t *run;
    build_entry *stack;
    float c[3], h;
    size_t mark;
    copse_status st;
    if (tree == NULL || nodes == NULL || buckets == NULL)
        return COPSE_ERR_NULL;
    *nodes = *buckets = 0;
    copy = *tree; /* the counting pass writes nothing but the cell it borrows */
    mark = scratch != NULL ? copse_arena_mark(scratch) : 0u;
    st = build_prepare(&copy, scratch, count, false, c, &h, &run, &stack, nodes, buckets);
    if (scratch != NULL)
        copse_arena_rewind(scratch, mark);
    return st;
}

copse_status copse_octree_build(copse_octree *t, copse_arena *scratch, uint32_t count)
{
    uint32_t *run, nodes, buckets, i;
    build_entry *stack;
    float c[3], h;
    size_t mark;
    copse_status st;
    if (t == NULL || scratch == NULL)
        return COPSE_ERR_NULL;
    if (t->read_only)
        return COPSE_ERR_READ_ONLY;
    mark = copse_arena_mark(scratch);
    st = build_prepare(t, scratch, count, true, c, &h, &run, &stack, &nodes, &buckets);
    if (st == COPSE_OK && (nodes > t->max_nodes || buckets > t->max_buckets)) {
        t->nodes_short = nodes > t->max_nodes ? nodes - t->max_nodes : 0u;
        t->buckets_short = buckets > t->max_buckets ? buckets - t->max_buckets : 0u;
        st = COPSE_ERR_NOMEM;
    }
    if (st == COPSE_OK) {
        __builtin_memcpy(t->center, c, sizeof t->center);
        t->half = h;
        copse_octree_clear(t);
        for (i = 0; i < count; i++)
            run[i] = i;
        build_pass(t, run, count, stack, true, false, &nodes, &buckets);
        t->size = count;
        t->nodes_short = t->buckets_short = 0;
    }
    copse_arena_rewind(scratch, mark);
    return st;
}

/* ---- insert ---------------------------------------------------------------------------------- */

static uint32_t find_child(const copse_octree *t, uint32_t n, unsigned octant)
{
    uint32_t c;
    for (c = t->nodes[n].first; c != OCT_NONE; c = t->nodes[c].next)
        if (oct_octant(&t->nodes[c]) == octant)
            return c;
    return OCT_NONE;
}

/* Slot of `index` in leaf n: bucket and position, or false. */
static bool leaf_find(const copse_octree *t, uint32_t n, uint32_t index, uint32_t *bucket, uint32_t *pos)
{
    oct_leaf_iter it = oct_leaf_begin(t->nodes[n].first, oct_count(&t->nodes[n]));
    uint32_t k;
    while (oct_leaf_next(t, &it)) {
        for (k = 0; k < it.count; k++) {
            if (it.slots[k] == index) {
                *bucket = it.bucket;
                *pos = k;
                return true;
            }
        }
    }
    return false;
}

static copse_status check_index(const copse_octree *t, uint32_t index)
{
    float xyz[3];
    if (t == NULL)
        return COPSE_ERR_NULL;
    if (t->read_only)
        return COPSE_ERR_READ_ONLY;
    if (t->nodes == NULL)
        return COPSE_ERR_PARAM;
    if (index >= t->point_capacity)
        return COPSE_ERR_INDEX;
    if (t->ids != NULL && t->ids[index] == OCT_NONE)
        return COPSE_ERR_PARAM; /* queries would report it as "no point" */
    return oct_finite3(point_at(t, index, xyz)) ? COPSE_OK : COPSE_ERR_NONFINITE;
}

/* From the root towards point p along existing children: path[0..depth] (the return value), the
 * cell (c, h) of path[depth]. It ends at a leaf, or at an internal node with no child in p's
 * octant (*gap is that octant). */
static uint32_t walk_down(const copse_octree *t, const float *p, uint32_t *path, float *c, float *h, unsigned *gap)
{
    uint32_t depth = 0, n = 0;
    __builtin_memcpy(c, t->center, sizeof t->center);
    *h = t->half;
    path[0] = 0;
    while (!oct_is_leaf(&t->nodes[n])) {
        unsigned o = oct_octant_of(p, c);
        uint32_t child = find_child(t, n, o);
        if (child == OCT_NONE) {
            *gap = o;
            break;
        }
        oct_child_cell(c, *h, o, c, h);
        n = child;
        path[++depth] = n;
    }
    return depth;
}

/* Moves the leaf's points and the new one into the children the plan made, then frees the leaf's
 * old chain. */
static void split_leaf(copse_octree *t, uint32_t leaf, uint32_t index, const split_plan *plan)
{
    float xyz[3];
    copse_octree_node *node = &t->nodes[leaf];
    uint32_t old = node->first, count = oct_count(node), kids[8], tails[8], k;
    oct_leaf_iter it = oct_leaf_begin(old, count);
    float mn[3], mx[3];
    __builtin_memcpy(mn, node->min, sizeof mn);
    __builtin_memcpy(mx, node->max, sizeof mx);
    bounds_add(mn, mx, point_at(t, index, xyz));
    (void)apply_plan(t, leaf, count + 1u, mn, mx, plan, kids);
    for (k = 0; k < 8u; k++)
        tails[k] = OCT_NONE;
    while (oct_leaf_next(t, &it)) { /* the old chain is intact until it is released below */
        for (k = 0; k < it.count; k++) {
            unsigned o = oct_octant_of(point_at(t, it.slots[k], xyz), plan->c);
            leaf_push(t, kids[o], &tails[o], it.slots[k]);
        }
    }
    {
        unsigned o = oct_octant_of(point_at(t, index, xyz), plan->c);
        leaf_push(t, kids[o], &tails[o], index);
    }
    chain_release(t, old);
}

copse_status copse_octree_insert(copse_octree *t, uint32_t index)
{
    float xyz[3];
    uint32_t path[COPSE_OCTREE_MAX_DEPTH + 1u], depth, n, k, bucket, pos;
    unsigned gap = 0;
    float c[3], h;
    const float *p;
    copse_status st = check_index(t, index);
    if (st != COPSE_OK)
        return st;
    p = point_at(t, index, xyz);
    depth = walk_down(t, p, path, c, &h, &gap);
    n = path[depth];
    if (!oct_is_leaf(&t->nodes[n])) { /* a new leaf in the empty octant */
        uint32_t child;
        if (!pools_have(t, 1u, 1u))
            return COPSE_ERR_NOMEM;
        child = node_alloc(t);
        leaf_init(t, child, gap);
        t->nodes[child].next = t->nodes[n].first;
        t->nodes[n].first = child;
        oct_child_cell(c, h, gap, c, &h);
        n = child;
        path[++depth] = n;
    }
    if (leaf_find(t, n, index, &bucket, &pos))
        return COPSE_ERR_INDEX;
    {
        copse_octree_node *leaf = &t->nodes[n];
        uint32_t count = oct_count(leaf);
        split_plan plan;
        bool split = false;
        /* a full leaf splits; an overflowing one tries again whenever it needs another bucket */
        if (count >= t->leaf_size && (count == t->leaf_size || count % t->bucket_size == 0u)) {
            float mn[3], mx[3];
            point_group g;
            __builtin_memcpy(mn, leaf->min, sizeof mn);
            __builtin_memcpy(mx, leaf->max, sizeof mx);
            bounds_add(mn, mx, p);
            g.run = NULL;
            g.first = leaf->first;
            g.count = count;
            g.extra = index;
            split = plan_split(t, &g, depth, c, h, mn, mx, &plan);
        }
        if (split) {
            uint32_t need = 0;
            for (k = 0; k < 8u; k++)
                need += buckets_for(t, plan.count[k]);
            if (!pools_have(t, plan.chain + plan.children, need))
                return COPSE_ERR_NOMEM;
            split_leaf(t, n, index, &plan);
        } else {
            uint32_t tail;
            if (count % t->bucket_size == 0u && !pools_have(t, 0u, 1u))
                return COPSE_ERR_NOMEM;
            tail = chain_tail(t, leaf->first);
            leaf_push(t, n, &tail, index);
        }
    }
    for (k = 0; k < depth; k++) { /* the leaf (or the split) has its own count and bounds */
        copse_octree_node *a = &t->nodes[path[k]];
        oct_set_count(a, oct_count(a) + 1u);
        bounds_add(a->min, a->max, p);
    }
    t->size++;
    t->nodes_short = t->buckets_short = 0;
    return COPSE_OK;
}

/* ---- remove ---------------------------------------------------------------------------------- */

/* Folds the subtree below internal node a (at most bucket_size points) into a as one leaf: the
 * first bucket found keeps the points, the rest is freed. Needs no memory: the nodes still to
 * visit are threaded through their own `next` links. */
static void collapse(copse_octree *t, uint32_t a)
{
    uint32_t work = t->nodes[a].first, target = OCT_NONE, filled = 0;
    while (work != OCT_NONE) {
        uint32_t n = work, b;
        copse_octree_node *node = &t->nodes[n];
        work = node->next;
        if (!oct_is_leaf(node)) {
            uint32_t last = node->first;
            if (last != OCT_NONE) {
                while (t->nodes[last].next != OCT_NONE)
                    last = t->nodes[last].next;
                t->nodes[last].next = work;
                work = node->first;
            }
        } else if ((b = node->first) != OCT_NONE) {
            uint32_t m = oct_count(node), k; /* <= bucket_size: one bucket */
            if (target == OCT_NONE) {
                target = b;
                filled = m;
            } else {
                for (k = 0; k < m; k++)
                    bucket_at(t, target)[1u + filled++] = oct_bucket(t, b)[1u + k];
                bucket_release(t, b);
            }
        }
        node_release(t, n);
    }
    t->nodes[a].first = target;
    oct_set_meta(&t->nodes[a], filled, oct_octant(&t->nodes[a]), true);
}

copse_status copse_octree_remove(copse_octree *t, uint32_t index)
{
    float xyz[3];
    uint32_t path[COPSE_OCTREE_MAX_DEPTH + 1u], depth, n, k, bucket, pos, count, top;
    unsigned gap = 0;
    float c[3], h;
    copse_status st = check_index(t, index);
    if (st != COPSE_OK)
        return st;
    depth = walk_down(t, point_at(t, index, xyz), path, c, &h, &gap);
    n = path[depth];
    if (!oct_is_leaf(&t->nodes[n]) || !leaf_find(t, n, index, &bucket, &pos))
        return COPSE_ERR_INDEX;
    /* the last slot fills the hole; an emptied last bucket goes back to the pool */
    count = oct_count(&t->nodes[n]);
    {
        uint32_t last = chain_tail(t, t->nodes[n].first), lpos = (count - 1u) % t->bucket_size;
        bucket_at(t, bucket)[1u + pos] = oct_bucket(t, last)[1u + lpos];
        if (lpos == 0u) {
            if (last == t->nodes[n].first) {
                t->nodes[n].first = OCT_NONE;
            } else {
                uint32_t prev = t->nodes[n].first;
                while (oct_bucket(t, prev)[0] != last)
                    prev = oct_bucket(t, prev)[0];
                bucket_at(t, prev)[0] = OCT_NONE;
            }
            bucket_release(t, last);
        }
    }
    for (k = 0; k <= depth; k++)
        oct_set_count(&t->nodes[path[k]], oct_count(&t->nodes[path[k]]) - 1u);
    t->size--;
    /* the highest ancestor left with at most a bucket of points becomes a leaf again */
    for (top = 0; top < depth; top++)
        if (oct_count(&t->nodes[path[top]]) <= t->bucket_size)
            break;
    if (top < depth) {
        collapse(t, path[top]);
        depth = top;
        leaf_refit(t, path[depth]);
    } else if (count == 1u && depth > 0u) { /* an empty leaf leaves its parent */
        uint32_t parent = path[depth - 1u];
        if (t->nodes[parent].first == n) {
            t->nodes[parent].first = t->nodes[n].next;
        } else {
            uint32_t s = t->nodes[parent].first;
            while (t->nodes[s].next != n)
                s = t->nodes[s].next;
            t->nodes[s].next = t->nodes[n].next;
        }
        node_release(t, n);
        depth--;
        node_refit(t, path[depth]);
    } else {
        leaf_refit(t, n);
    }
    while (depth-- > 0u)
        node_refit(t, path[depth]);
    t->nodes_short = t->buckets_short = 0;
    return COPSE_OK;
}

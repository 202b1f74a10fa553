/* SPDX-License-Identifier: MIT */
/*
 * The 3D solid-leaf builder (the idea of Quake's map compilers, on convex brushes).
 *
 * Every brush enters the root as a fragment: the brush and a mask of its input planes not yet
 * used on the path. A region becomes
 *   - an empty leaf when no fragment reached it;
 *   - a solid leaf when some fragment's mask is empty: every plane of that brush lies on the
 *     path with the region behind it, so the region is inside the brush;
 *   - a mixed leaf at max_depth, or when cutting it would take the build past its work budget
 *     (queries test its brushes);
 *   - otherwise a node, cut by the best plane among the first BSP3_CANDIDATES distinct planes of
 *     its fragments' masks (in brush order). A plane's score is
 *         split_weight * (fragments it cuts) + |fragments in front - fragments behind|,
 *     the lowest wins, ties to the lower plane index: balance against splits, as in the BSP
 *     literature (Quake's compilers weigh the same two counts).
 * A fragment goes behind its own plane (and drops it from its mask); any other fragment goes to
 * each side where its brush has a corner farther than the build's epsilon from the plane.
 *
 * Work: cutting a region visits each of its fragments (scored against at most BSP3_CANDIDATES
 * planes). A tree that cuts no fragment visits each brush at most once per level, n * max_depth
 * visits in all; the build allows COPSE_BSP3_VISIT_BUDGET (8 times that) and makes mixed leaves
 * of the regions past it, so overlapping brushes (thin slabs at split_weight 0 doubled their
 * fragments at every level) cost at most that many visits, nodes and leaf lists of two nodes'
 * worth, whatever the arena.
 *
 * Memory: the fragment lists wait on a stack in scratch, one list per level at most (each list
 * holds a brush at most once), so scratch has a bound from the plane counts; the tree's size
 * depends on the splits, so the builder first runs its decisions without writing (the count
 * pass), then writes the tree after the scratch and finally moves it to the arena's start. The
 * count pass stops with NOMEM as soon as the tree counted so far outgrows the arena.
 */
#include "../core/arena_internal.h"
#include "bsp3_internal.h"

#define BSP3_CANDIDATES 64u

typedef struct frag {
    uint32_t brush, mask;
} frag;

typedef struct binfo {
    uint32_t first_plane; /* into bplanes / side_plane */
    uint16_t nplanes, nreal;
    uint32_t first_vert, nverts;
} binfo;

typedef struct work_entry {
    uint32_t begin, end; /* its fragments: frags[begin .. end) */
    uint32_t depth;
    uint32_t patch;      /* the node whose child this region fills (COPSE_NONE: the root) */
    uint32_t side;       /* which child */
} work_entry;

typedef struct scratch_plan {
    size_t bplanes, binfo, verts, uplanes, side_plane, stamp, frags, total;
    uint32_t nplanes, nverts, nfrags;
} scratch_plan;

typedef struct builder {
    const copse_brush *in;
    uint32_t n, max_depth, weight;
    copse_plane *bplanes; /* per brush: unit input planes, then bevels */
    binfo *info;
    float *verts;
    copse_plane *uplanes; /* distinct planes: the tree's planes[] */
    uint32_t *side_plane; /* bplanes index -> uplanes index */
    uint32_t *stamp;      /* per distinct plane: the last node that scored it */
    frag *frags;
    uint32_t nfrags_cap, uplane_count, side_count;
    uint64_t visits, budget; /* fragments of the regions cut so far; the most allowed */
    size_t room;             /* arena bytes the tree may take (SIZE_MAX: no limit) */
    float eps, inflate, slack;
    copse_box3 bounds;
    /* output (NULL in the count pass) and counts */
    copse_bsp3_node *nodes;
    copse_bsp3_leaf *leaves;
    uint32_t *leaf_brushes;
    uint32_t node_count, leaf_count, ref_count, depth, splits, solid, mixed, empty, root;
} builder;

/* ---- sizes ------------------------------------------------------------------------------------ */

static size_t mul_or_max(size_t a, size_t b)
{
    return (b != 0 && a > (size_t)-1 / b) ? (size_t)-1 : a * b;
}

static size_t round_or_max(size_t bytes)
{
    return bytes > (size_t)-1 - COPSE_ARENA_ALIGN ? (size_t)-1 : COPSE_ARENA_ROUND(bytes);
}

static size_t add_or_max(size_t a, size_t b)
{
    return a > (size_t)-1 - b ? (size_t)-1 : a + b;
}

static copse_status plan_scratch(const copse_brush *brushes, uint32_t n, const copse_bsp3_params *params,
                                 scratch_plan *sp)
{
    uint32_t i;
    size_t planes = 0, verts = 0, frags;
    copse_status st = copse_bsp3_check_input(brushes, n, params);
    __builtin_memset(sp, 0, sizeof *sp);
    if (st != COPSE_OK)
        return st;
    for (i = 0; i < n; i++) {
        planes += brushes[i].plane_count + copse_bsp3_bevel_count(&brushes[i]);
        verts += BSP3_CORNERS(brushes[i].plane_count);
    }
    frags = mul_or_max((size_t)params->max_depth + 3u, n);
    if (planes > 0xFFFFFFF0u || verts > 0xFFFFFFF0u || frags > 0xFFFFFFF0u)
        return COPSE_ERR_TOO_LARGE;
    sp->nplanes = (uint32_t)planes;
    sp->nverts = (uint32_t)verts;
    sp->nfrags = (uint32_t)frags;
    sp->bplanes = round_or_max(mul_or_max(planes, sizeof(copse_plane)));
    sp->binfo = round_or_max(mul_or_max(n, sizeof(binfo)));
    sp->verts = round_or_max(mul_or_max(verts, 12u));
    sp->uplanes = 0; /* the distinct planes are compacted in place over bplanes */
    sp->side_plane = round_or_max(mul_or_max(planes, 4u));
    sp->stamp = sp->side_plane;
    sp->frags = round_or_max(mul_or_max(frags, sizeof(frag)));
    sp->total = add_or_max(add_or_max(add_or_max(sp->bplanes, sp->binfo), add_or_max(sp->verts, sp->uplanes)),
                           add_or_max(add_or_max(sp->side_plane, sp->stamp), sp->frags));
    return sp->total == (size_t)-1 ? COPSE_ERR_TOO_LARGE : COPSE_OK;
}

size_t copse_bsp3_scratch_bytes(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params)
{
    scratch_plan sp;
    return plan_scratch(brushes, count, params, &sp) == COPSE_OK ? sp.total : (size_t)-1;
}

/* The tree's arrays in the order the build takes them, saturating (SIZE_MAX) on 32-bit hosts. */
static size_t bsp3_layout_bytes(uint32_t nodes, uint32_t planes, uint32_t sides, uint32_t brushes, uint32_t leaves,
                                uint32_t refs)
{
    size_t t = round_or_max(mul_or_max(nodes, sizeof(copse_bsp3_node)));
    t = add_or_max(t, round_or_max(mul_or_max(planes, sizeof(copse_plane))));
    t = add_or_max(t, round_or_max(mul_or_max(sides, 4u)));
    t = add_or_max(t, round_or_max(mul_or_max(brushes, sizeof(copse_bsp3_brush))));
    t = add_or_max(t, round_or_max(mul_or_max(leaves, sizeof(copse_bsp3_leaf))));
    return add_or_max(t, round_or_max(mul_or_max(refs, 4u)));
}

static size_t tree_bytes(const builder *b)
{
    return bsp3_layout_bytes(b->node_count, b->uplane_count, b->side_count, b->n, b->leaf_count, b->ref_count);
}

size_t copse_bsp3_bytes(const copse_bsp3 *bsp)
{
    if (bsp == NULL || (bsp->node_count == 0 && bsp->leaf_count == 0 && bsp->plane_count == 0))
        return 0;
    return bsp3_layout_bytes(bsp->node_count, bsp->plane_count, bsp->side_count, bsp->brush_count, bsp->leaf_count,
                             bsp->leaf_brush_count);
}

/* ---- preparing the brushes -------------------------------------------------------------------- */

static bool same_plane(const copse_plane *a, const copse_plane *b)
{
    return a->normal.x == b->normal.x && a->normal.y == b->normal.y && a->normal.z == b->normal.z &&
           a->dist == b->dist;
}

/* Unit planes, corners, bevels, distinct planes, bounds, inflation and epsilon. */
static copse_status prepare(builder *b, uint32_t verts_cap)
{
    uint32_t i, k, pi = 0, vi = 0;
    float scale = 1.0f, inflate = 1.0f, blo[3] = {0.0f, 0.0f, 0.0f}, bhi[3] = {0.0f, 0.0f, 0.0f};
    bool first = true;
    b->uplane_count = 0;
    for (i = 0; i < b->n; i++) {
        const copse_brush *in = &b->in[i];
        binfo *bi = &b->info[i];
        copse_plane *bp = b->bplanes + pi;
        uint32_t nv = 0, nb = 0;
        float tol, mn[3], mx[3];
        copse_status st;
        for (k = 0; k < in->plane_count; k++)
            copse_bsp3_unit_plane(&in->planes[k], &bp[k]);
        st = copse_bsp3_corners(bp, in->plane_count, b->verts + 3u * vi,
                                verts_cap - vi < BSP3_CORNERS(in->plane_count) ? verts_cap - vi : BSP3_CORNERS(in->plane_count), &nv, &tol);
        if (st != COPSE_OK)
            return st;
        for (k = 0; k < 3; k++) {
            uint32_t v;
            mn[k] = mx[k] = b->verts[3u * vi + k];
            for (v = 1; v < nv; v++) {
                float c = b->verts[3u * (vi + v) + k];
                mn[k] = geo_min(mn[k], c);
                mx[k] = geo_max(mx[k], c);
            }
        }
        /* bevels: the axis-aligned planes of the corners' bounds that the brush lacks */
        for (k = 0; k < 6; k++) {
            const unsigned axis = k / 2u;
            const float sign = (k & 1u) ? -1.0f : 1.0f;
            if (copse_bsp3_needs_bevel(in, k)) {
                copse_plane *bev = &bp[in->plane_count + nb++];
                bev->normal = copse_v3(axis == 0 ? sign : 0.0f, axis == 1 ? sign : 0.0f, axis == 2 ? sign : 0.0f);
                bev->dist = sign > 0.0f ? mx[axis] : -mn[axis];
            }
        }
        bi->first_plane = pi;
        bi->nreal = (uint16_t)in->plane_count;
        bi->nplanes = (uint16_t)(in->plane_count + nb);
        bi->first_vert = vi;
        bi->nverts = nv;
        inflate = geo_max(inflate, copse_bsp3_inflation(bp, bi->nplanes, b->verts + 3u * vi, nv, tol));
        for (k = 0; k < 3; k++) {
            scale = geo_max(scale, geo_max(copse_fabsf(mn[k]), copse_fabsf(mx[k])));
            blo[k] = first ? mn[k] : geo_min(blo[k], mn[k]);
            bhi[k] = first ? mx[k] : geo_max(bhi[k], mx[k]);
        }
        first = false;
        pi += bi->nplanes;
        vi += nv;
    }
    b->side_count = pi;
    b->bounds = copse_box3_make(blo[0], blo[1], blo[2], bhi[0], bhi[1], bhi[2]);
    /* distinct planes, in order of first appearance, compacted in place: plane u is written at
     * u <= i, over planes already read (the brush planes are not needed after this) */
    for (i = 0; i < pi; i++) {
        uint32_t u;
        for (u = 0; u < b->uplane_count; u++)
            if (same_plane(&b->uplanes[u], &b->bplanes[i]))
                break;
        if (u == b->uplane_count)
            b->uplanes[b->uplane_count++] = b->bplanes[i];
        b->side_plane[i] = u;
    }
    for (i = 0; i < b->uplane_count; i++)
        b->stamp[i] = COPSE_NONE;
    /* a corner within eps of a plane is on it; the walks add slack for their own rounding */
    b->eps = scale * 1e-6f;
    b->slack = scale * 1e-5f;
    b->inflate = inflate;
    return COPSE_OK;
}

/* ---- splitting ---------------------------------------------------------------------------------- */

/* Which sides of distinct plane u the fragment's brush reaches: bit 0 front, bit 1 back;
 * 4 when u is one of its unused planes (it goes behind and drops it). */
static unsigned classify(const builder *b, const frag *f, uint32_t u)
{
    const binfo *bi = &b->info[f->brush];
    const copse_plane *p = &b->uplanes[u];
    unsigned k, sides = 0;
    for (k = 0; k < bi->nreal; k++)
        if ((f->mask >> k) & 1u && b->side_plane[bi->first_plane + k] == u)
            return 4u;
    for (k = 0; k < bi->nverts; k++) {
        float d = bsp3_plane_dist(p, b->verts + 3u * (bi->first_vert + k));
        sides |= d > b->eps ? 1u : (d < -b->eps ? 2u : 0u);
    }
    return sides == 0 ? 2u : sides; /* a brush lying in the plane counts as behind it */
}

static uint32_t choose_plane(builder *b, const frag *f, uint32_t nf, uint32_t serial)
{
    uint32_t best = COPSE_NONE, seen = 0, i, k;
    uint64_t best_score = 0;
    for (i = 0; i < nf && seen < BSP3_CANDIDATES; i++) {
        const binfo *bi = &b->info[f[i].brush];
        for (k = 0; k < bi->nreal && seen < BSP3_CANDIDATES; k++) {
            uint32_t u, j, front = 0, back = 0, cut = 0;
            uint64_t score;
            if (!((f[i].mask >> k) & 1u))
                continue;
            u = b->side_plane[bi->first_plane + k];
            if (b->stamp[u] == serial)
                continue;
            b->stamp[u] = serial;
            seen++;
            for (j = 0; j < nf; j++) {
                unsigned c = classify(b, &f[j], u);
                front += c == 1u;
                back += c == 2u || c == 4u;
                cut += c == 3u;
            }
            score = (uint64_t)b->weight * cut + (front > back ? front - back : back - front);
            if (best == COPSE_NONE || score < best_score || (score == best_score && u < best)) {
                best = u;
                best_score = score;
            }
        }
    }
    return best;
}

static void patch(builder *b, const work_entry *e, uint32_t code)
{
    if (e->patch == COPSE_NONE)
        b->root = code;
    else if (b->nodes != NULL)
        b->nodes[e->patch].child[e->side] = code;
}

static copse_status run(builder *b)
{
    work_entry stack[BSP_STACK];
    uint32_t sp = 0, i, serial = 0;
    b->node_count = b->leaf_count = b->ref_count = b->depth = b->splits = 0;
    b->solid = b->mixed = b->empty = 0;
    b->visits = 0;
    b->root = COPSE_BSP3_EMPTY;
    if (tree_bytes(b) > b->room)
        return COPSE_ERR_NOMEM; /* not even the planes, sides and brushes fit */
    for (i = 0; i < b->n; i++) {
        b->frags[i].brush = i;
        b->frags[i].mask = b->info[i].nreal >= 32u ? 0xFFFFFFFFu : (((uint32_t)1u << b->info[i].nreal) - 1u);
    }
    stack[0].begin = 0;
    stack[0].end = b->n;
    stack[0].depth = 0;
    stack[0].patch = COPSE_NONE;
    stack[0].side = 0;
    sp = 1;
    while (sp > 0) {
        work_entry e = stack[--sp];
        frag *f = b->frags + e.begin;
        uint32_t nf = e.end - e.begin, u, nfront = 0, nback = 0, node;
        bool solid = false;
        for (i = 0; i < nf; i++)
            solid = solid || f[i].mask == 0;
        if (nf == 0 || solid || e.depth >= b->max_depth || b->visits + nf > b->budget) {
            b->depth = e.depth > b->depth ? e.depth : b->depth;
            if (nf == 0) {
                b->empty++;
                patch(b, &e, COPSE_BSP3_EMPTY);
                continue;
            }
            if (b->leaf_count >= 0x7FFFFFFEu || b->ref_count > 0xFFFFFFF0u - nf)
                return COPSE_ERR_TOO_LARGE;
            if (b->leaves != NULL) {
                b->leaves[b->leaf_count].first = b->ref_count;
                b->leaves[b->leaf_count].info = nf | (solid ? 0u : COPSE_BSP3_MIXED);
                for (i = 0; i < nf; i++)
                    b->leaf_brushes[b->ref_count + i] = f[i].brush;
            }
            patch(b, &e, COPSE_BSP3_LEAF | b->leaf_count);
            b->leaf_count++;
            b->ref_count += nf;
            b->solid += solid;
            b->mixed += !solid;
            if (tree_bytes(b) > b->room)
                return COPSE_ERR_NOMEM; /* the arena cannot hold the tree: stop counting */
            continue;
        }
        b->visits += nf;
        node = b->node_count++;
        if (node >= 0x7FFFFFF0u)
            return COPSE_ERR_TOO_LARGE;
        if (tree_bytes(b) > b->room)
            return COPSE_ERR_NOMEM;
        u = choose_plane(b, f, nf, serial++);
        patch(b, &e, node);
        if (b->nodes != NULL) {
            b->nodes[node].plane = u;
            b->nodes[node].child[0] = b->nodes[node].child[1] = COPSE_BSP3_EMPTY;
        }
        /* back list, then front list, after the region's own; then moved down over it */
        if (e.end + 2u * nf > b->nfrags_cap)
            return COPSE_ERR_TOO_LARGE; /* cannot happen: the scratch bound holds */
        for (i = 0; i < nf; i++) {
            unsigned c = classify(b, &f[i], u);
            if (c == 4u) {
                const binfo *bi = &b->info[f[i].brush];
                uint32_t k, mask = f[i].mask;
                for (k = 0; k < bi->nreal; k++)
                    if (b->side_plane[bi->first_plane + k] == u)
                        mask &= ~((uint32_t)1u << k);
                b->frags[e.end + nback].brush = f[i].brush;
                b->frags[e.end + nback++].mask = mask;
                continue;
            }
            if (c & 2u)
                b->frags[e.end + nback++] = f[i];
            b->splits += c == 3u;
        }
        for (i = 0; i < nf; i++)
            if (classify(b, &f[i], u) & 1u)
                b->frags[e.end + nback + nfront++] = f[i];
        __builtin_memmove(b->frags + e.begin, b->frags + e.end + nback, nfront * sizeof(frag));
        __builtin_memmove(b->frags + e.begin + nfront, b->frags + e.end, nback * sizeof(frag));
        /* front waits below; back is on top and is built first */
        stack[sp].begin = e.begin;
        stack[sp].end = e.begin + nfront;
        stack[sp].depth = e.depth + 1u;
        stack[sp].patch = node;
        stack[sp++].side = 0;
        stack[sp].begin = e.begin + nfront;
        stack[sp].end = e.begin + nfront + nback;
        stack[sp].depth = e.depth + 1u;
        stack[sp].patch = node;
        stack[sp++].side = 1;
    }
    return COPSE_OK;
}

/* Lays the scratch out in `mem` and runs everything up to the count pass. */
/* `room`: the arena bytes left for the tree; the count pass stops (NOMEM) when it outgrows them. */
static copse_status prepare_and_count(builder *b, const copse_brush *brushes, uint32_t n,
                                      const copse_bsp3_params *params, const scratch_plan *sp, uint8_t *mem,
                                      size_t room)
{
    uint8_t *p = mem;
    copse_status st;
    __builtin_memset(b, 0, sizeof *b);
    b->in = brushes;
    b->n = n;
    b->max_depth = params->max_depth;
    b->weight = params->split_weight;
    b->budget = COPSE_BSP3_VISIT_BUDGET(n, params->max_depth);
    b->room = room;
    b->bplanes = (copse_plane *)(void *)p;
    p += sp->bplanes;
    b->info = (binfo *)(void *)p;
    p += sp->binfo;
    b->verts = (float *)(void *)p;
    p += sp->verts;
    b->uplanes = b->bplanes;
    b->side_plane = (uint32_t *)(void *)p;
    p += sp->side_plane;
    b->stamp = (uint32_t *)(void *)p;
    p += sp->stamp;
    b->frags = (frag *)(void *)p;
    b->nfrags_cap = sp->nfrags;
    st = prepare(b, sp->nverts);
    if (st != COPSE_OK)
        return st;
    return run(b);
}

size_t copse_bsp3_build_bytes(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params,
                              void *work, size_t work_bytes)
{
    scratch_plan sp;
    builder b;
    copse_arena a;
    uint8_t *mem;
    if (plan_scratch(brushes, count, params, &sp) != COPSE_OK || work == NULL)
        return (size_t)-1;
    copse_arena_init(&a, work, work_bytes);
    mem = (uint8_t *)copse_arena_alloc(&a, sp.total);
    if (mem == NULL || prepare_and_count(&b, brushes, count, params, &sp, mem, (size_t)-1) != COPSE_OK)
        return (size_t)-1;
    return add_or_max(sp.total, tree_bytes(&b));
}

copse_status copse_bsp3_build(copse_bsp3 *bsp, copse_arena *arena, const copse_brush *brushes, uint32_t count,
                              const copse_bsp3_params *params)
{
    scratch_plan sp;
    builder b;
    copse_status st;
    size_t mark, tree;
    uint8_t *mem, *out, *p;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bsp, 0, sizeof *bsp);
    bsp->root = COPSE_BSP3_EMPTY;
    if (arena == NULL)
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    st = plan_scratch(brushes, count, params, &sp);
    if (st != COPSE_OK)
        return st;
    mark = copse_arena_mark(arena);
    mem = (uint8_t *)copse_arena_alloc(arena, sp.total);
    if (mem == NULL)
        return COPSE_ERR_NOMEM; /* needed: the scratch alone, a lower bound */
    st = prepare_and_count(&b, brushes, count, params, &sp, mem, copse_arena_remaining(arena));
    if (st != COPSE_OK && st != COPSE_ERR_NOMEM) {
        copse_arena_rewind(arena, mark);
        return st;
    }
    tree = tree_bytes(&b);
    out = (uint8_t *)copse_arena_alloc(arena, tree);
    if (out == NULL || st != COPSE_OK) {
        copse_arena_rewind(arena, mark);
        return COPSE_ERR_NOMEM; /* needed: exact after a whole count, else what was counted */
    }
    /* the write pass, into the tree's place after the scratch (zeroed: no stale padding, the
     * same bytes wherever it is built) */
    __builtin_memset(out, 0, tree);
    p = out;
    b.nodes = (copse_bsp3_node *)(void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.node_count * sizeof(copse_bsp3_node));
    __builtin_memcpy(p, b.uplanes, (size_t)b.uplane_count * sizeof(copse_plane));
    p += COPSE_ARENA_ROUND((size_t)b.uplane_count * sizeof(copse_plane));
    __builtin_memcpy(p, b.side_plane, (size_t)b.side_count * 4u);
    p += COPSE_ARENA_ROUND((size_t)b.side_count * 4u);
    {
        copse_bsp3_brush *br = (copse_bsp3_brush *)(void *)p;
        uint32_t i;
        for (i = 0; i < count; i++) {
            br[i].first = b.info[i].first_plane;
            br[i].counts = (uint32_t)b.info[i].nplanes | ((uint32_t)b.info[i].nreal << 16);
        }
        p += COPSE_ARENA_ROUND((size_t)count * sizeof(copse_bsp3_brush));
    }
    b.leaves = (copse_bsp3_leaf *)(void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.leaf_count * sizeof(copse_bsp3_leaf));
    b.leaf_brushes = (uint32_t *)(void *)p;
    {
        uint32_t i;
        for (i = 0; i < b.uplane_count; i++) /* the same decisions as the count pass */
            b.stamp[i] = COPSE_NONE;
    }
    b.room = (size_t)-1; /* the tree is in place */
    st = run(&b);
    /* the tree moves down over the scratch; the arena keeps the tree only */
    __builtin_memmove(mem, out, tree);
    copse_arena_rewind(arena, mark);
    (void)copse_arena_alloc(arena, tree);
    p = mem;
    bsp->nodes = (const copse_bsp3_node *)(const void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.node_count * sizeof(copse_bsp3_node));
    bsp->planes = (const copse_plane *)(const void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.uplane_count * sizeof(copse_plane));
    bsp->sides = (const uint32_t *)(const void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.side_count * 4u);
    bsp->brushes = (const copse_bsp3_brush *)(const void *)p;
    p += COPSE_ARENA_ROUND((size_t)count * sizeof(copse_bsp3_brush));
    bsp->leaves = (const copse_bsp3_leaf *)(const void *)p;
    p += COPSE_ARENA_ROUND((size_t)b.leaf_count * sizeof(copse_bsp3_leaf));
    bsp->leaf_brushes = (const uint32_t *)(const void *)p;
    bsp->node_count = b.node_count;
    bsp->plane_count = b.uplane_count;
    bsp->side_count = b.side_count;
    bsp->brush_count = count;
    bsp->leaf_count = b.leaf_count;
    bsp->leaf_brush_count = b.ref_count;
    bsp->root = b.root;
    bsp->depth = b.depth;
    bsp->split_count = b.splits;
    bsp->solid_leaves = b.solid;
    bsp->mixed_leaves = b.mixed;
    bsp->empty_leaves = b.empty;
    bsp->inflate = b.inflate;
    bsp->slack = b.slack;
    bsp->bounds = b.bounds;
    return st;
}

/* SPDX-License-Identifier: MIT */
/*
 * Queries on the 3D solid-leaf tree.
 *
 *  - Point contents and ray traces need no brush at all: the leaf says solid or empty, and a
 *    ray's first hit is where its front-to-back walk first enters a solid leaf, through the
 *    plane of the node where it crossed (Quake's hull traces). Mixed leaves (max_depth) test
 *    their brushes.
 *  - Swept spheres and boxes: every brush plane pushed out by the shape's reach. The walk is
 *    conservative: it enters each side a node's plane the shape comes within
 *    inflate * reach + slack of (an expanded brush reaches at most inflate * reach beyond the
 *    brush), and tests the brushes that the solid and mixed leaves list, exactly.
 */
#include "bsp3_internal.h"

#define SEG_SLACK (8.0f * FLT_EPSILON)
#define TRACE_RECENT 8u

typedef enum trace_mode { MODE_RAY, MODE_SPHERE, MODE_BOX } trace_mode;

typedef struct trace_entry {
    uint32_t code;
    float t0, t1;
    uint32_t entry_plane; /* the plane crossed at t0 (COPSE_NONE: the start) */
    float entry_sign;     /* the crossed plane's normal times this faces the start */
} trace_entry;

typedef struct tracer {
    const copse_bsp3 *t;
    trace_mode mode;
    float a[3], d[3]; /* start and b - a */
    float reach;      /* the sphere's radius */
    float half[3];    /* the box's half extents */
    copse_bsp3_trace *out;
    int best_plane;   /* index into the brush's sides of the plane entered; -1: inside at start */
    uint32_t recent[TRACE_RECENT]; /* brushes tested lately: a brush listed by many leaves is tested once */
    uint32_t recent_next;
} tracer;

COPSE_INLINE const copse_plane *brush_plane(const copse_bsp3 *t, const copse_bsp3_brush *b, uint32_t k)
{
    return &t->planes[t->sides[b->first + k]];
}

/* How far a plane moves out for the traced shape. */
COPSE_INLINE float expansion(const tracer *tr, const copse_plane *p)
{
    if (tr->mode == MODE_SPHERE)
        return tr->reach;
    if (tr->mode == MODE_BOX)
        return copse_fabsf(p->normal.x) * tr->half[0] + copse_fabsf(p->normal.y) * tr->half[1] +
               copse_fabsf(p->normal.z) * tr->half[2];
    return 0.0f;
}

/* The segment against brush `bi` with expanded planes (Cyrus-Beck, closed): keeps the first hit. */
static void test_brush(tracer *tr, uint32_t bi)
{
    const copse_bsp3 *t = tr->t;
    const copse_bsp3_brush *b = &t->brushes[bi];
    float tn = 0.0f, tf = 1.0f;
    int enter = -1;
    uint32_t k, sides = copse_bsp3_brush_sides(b);
    for (k = 0; k < TRACE_RECENT; k++)
        if (tr->recent[k] == bi)
            return; /* its answer is already in */
    tr->recent[tr->recent_next++ % TRACE_RECENT] = bi;
    for (k = 0; k < sides; k++) {
        const copse_plane *p = brush_plane(t, b, k);
        float e = expansion(tr, p);
        float da = p->normal.x * tr->a[0] + p->normal.y * tr->a[1] + p->normal.z * tr->a[2] - (p->dist + e);
        float dn = p->normal.x * tr->d[0] + p->normal.y * tr->d[1] + p->normal.z * tr->d[2];
        if (dn == 0.0f) {
            if (da > 0.0f)
                return; /* parallel and outside */
            continue;
        }
        {
            float th = -da / dn;
            if (dn < 0.0f) { /* entering this half-space */
                if (da > 0.0f && th > tn) {
                    tn = th;
                    enter = (int)k;
                } else if (da > 0.0f && enter < 0 && th >= tn) {
                    enter = (int)k;
                }
            } else if (th < tf) {
                tf = th;
            }
        }
        if (tn > tf)
            return;
    }
    if (tn > tf)
        return;
    if (!tr->out->hit || tn < tr->out->t || (tn == tr->out->t && bi < tr->out->id)) {
        tr->out->hit = true;
        tr->out->t = tn;
        tr->out->id = bi;
        tr->best_plane = enter;
        tr->out->start_solid = enter < 0;
        if (enter >= 0) {
            const copse_plane *p = brush_plane(t, b, (uint32_t)enter);
            tr->out->normal = p->normal;
        } else {
            tr->out->normal = copse_v3(0.0f, 0.0f, 0.0f);
        }
    }
}

static void trace_walk(tracer *tr)
{
    const copse_bsp3 *t = tr->t;
    trace_entry stack[BSP_STACK];
    uint32_t sp = 0;
    float r = 0.0f, slack = 0.0f;
    copse_bsp3_trace *out = tr->out;
    if (tr->mode != MODE_RAY) {
        float reach = tr->mode == MODE_SPHERE
                          ? tr->reach
                          : copse_sqrtf(tr->half[0] * tr->half[0] + tr->half[1] * tr->half[1] + tr->half[2] * tr->half[2]);
        r = t->inflate * reach + t->slack;
        if (!geo_finite(r))
            r = FLT_MAX;
        slack = SEG_SLACK;
    }
    stack[sp].code = t->root;
    stack[sp].t0 = 0.0f;
    stack[sp].t1 = 1.0f;
    stack[sp].entry_plane = COPSE_NONE;
    stack[sp++].entry_sign = 0.0f;
    while (sp > 0) {
        trace_entry e = stack[--sp];
        if (out->hit && out->t + slack < e.t0)
            continue;
        if (e.code == COPSE_BSP3_EMPTY)
            continue;
        if (!bsp3_is_node(e.code)) {
            const copse_bsp3_leaf *leaf = &t->leaves[e.code & ~COPSE_BSP3_LEAF];
            uint32_t i, count = leaf->info & ~COPSE_BSP3_MIXED;
            if (tr->mode == MODE_RAY && !(leaf->info & COPSE_BSP3_MIXED)) {
                /* a solid leaf: the walk is front to back, so this is the first solid point */
                if (!out->hit || e.t0 < out->t) {
                    out->hit = true;
                    out->t = e.t0;
                    out->id = COPSE_NONE;
                    out->start_solid = e.entry_plane == COPSE_NONE;
                    if (out->start_solid) {
                        out->normal = copse_v3(0.0f, 0.0f, 0.0f);
                    } else {
                        const copse_plane *p = &t->planes[e.entry_plane];
                        out->normal = copse_v3(p->normal.x * e.entry_sign, p->normal.y * e.entry_sign,
                                               p->normal.z * e.entry_sign);
                    }
                }
                return;
            }
            for (i = 0; i < count; i++)
                test_brush(tr, t->leaf_brushes[leaf->first + i]);
            continue;
        }
        if (sp + 2u > BSP_STACK)
            continue; /* deeper than any tree copse builds */
        {
            const copse_bsp3_node *n = &t->nodes[e.code];
            const copse_plane *p = &t->planes[n->plane];
            float da = p->normal.x * tr->a[0] + p->normal.y * tr->a[1] + p->normal.z * tr->a[2] - p->dist;
            float db = p->normal.x * (tr->a[0] + tr->d[0]) + p->normal.y * (tr->a[1] + tr->d[1]) +
                       p->normal.z * (tr->a[2] + tr->d[2]) - p->dist;
            bsp_range back, front;
            bool has_b, has_f, back_first;
            bsp_side_ranges(da, db, e.t0, e.t1, r, slack, &back, &front);
            if (tr->mode == MODE_RAY && front.lo <= front.hi && !(da > 0.0f || db > 0.0f))
                front.hi = front.lo - 1.0f; /* exactly on the plane is behind it */
            has_b = back.lo <= back.hi;
            has_f = front.lo <= front.hi;
            back_first = !has_f || (has_b && back.lo <= front.lo);
            /* the later side is crossed into through this plane: its normal faces the earlier side */
            if (back_first ? has_f : has_b) {
                stack[sp].code = back_first ? n->child[0] : n->child[1];
                stack[sp].t0 = back_first ? front.lo : back.lo;
                stack[sp].t1 = back_first ? front.hi : back.hi;
                stack[sp].entry_plane = has_b && has_f ? n->plane : e.entry_plane;
                stack[sp++].entry_sign = has_b && has_f ? (back_first ? -1.0f : 1.0f) : e.entry_sign;
            }
            if (back_first ? has_b : has_f) {
                stack[sp].code = back_first ? n->child[1] : n->child[0];
                stack[sp].t0 = back_first ? back.lo : front.lo;
                stack[sp].t1 = back_first ? back.hi : front.hi;
                stack[sp].entry_plane = e.entry_plane;
                stack[sp++].entry_sign = e.entry_sign;
            }
        }
    }
}

static copse_status trace(const copse_bsp3 *bsp, const copse_segment3 *path, trace_mode mode, float reach,
                          const float *half, copse_bsp3_trace *out)
{
    tracer tr;
    float a[3], b[3];
    unsigned part, parts;
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->hit = out->start_solid = false;
    out->t = 1.0f;
    out->normal = copse_v3(0.0f, 0.0f, 0.0f);
    out->id = COPSE_NONE;
    out->point = path != NULL ? path->b : copse_v3(0.0f, 0.0f, 0.0f);
    if (bsp == NULL || path == NULL)
        return COPSE_ERR_NULL;
    if (!bsp_finite3(&path->a) || !bsp_finite3(&path->b) || !geo_finite(reach))
        return COPSE_ERR_NONFINITE;
    if (reach < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    tr.t = bsp;
    tr.mode = mode;
    tr.reach = reach;
    tr.half[0] = half != NULL ? half[0] : 0.0f;
    tr.half[1] = half != NULL ? half[1] : 0.0f;
    tr.half[2] = half != NULL ? half[2] : 0.0f;
    tr.out = out;
    tr.best_plane = -1;
    if (bsp->node_count == 0 && bsp->leaf_count == 0)
        return COPSE_OK;
    geo_v3_array(a, path->a);
    geo_v3_array(b, path->b);
    parts = bsp_parts(a, b, 3); /* 2 when b - a overflows */
    for (part = 0; part < parts && !out->hit; part++) {
        bsp_part(a, b, part, parts, tr.a, tr.d, 3);
        for (tr.recent_next = 0; tr.recent_next < TRACE_RECENT; tr.recent_next++)
            tr.recent[tr.recent_next] = COPSE_NONE; /* a brush's answer holds for one part */
        tr.recent_next = 0;
        trace_walk(&tr);
    }
    if (out->hit) {
        out->point = copse_v3(tr.a[0] + tr.d[0] * out->t, tr.a[1] + tr.d[1] * out->t,
                              tr.a[2] + tr.d[2] * out->t);
        out->t = bsp_whole_t(out->t, part - 1u, parts);
    }
    return COPSE_OK;
}

copse_status copse_sweep_point_bsp3(const copse_segment3 *path, const copse_bsp3 *bsp, copse_bsp3_trace *out)
{
    return trace(bsp, path, MODE_RAY, 0.0f, NULL, out);
}

copse_status copse_sweep_sphere_bsp3(const copse_segment3 *path, float radius, const copse_bsp3 *bsp,
                                     copse_bsp3_trace *out)
{
    return trace(bsp, path, radius > 0.0f ? MODE_SPHERE : MODE_RAY, radius, NULL, out);
}

copse_status copse_bsp3_any_box(const copse_bsp3 *bsp, const copse_box3 *box, uint32_t *brush)
{
    copse_segment3 s;
    copse_bsp3_trace tr;
    float mn[3], mx[3], c[3], half[3];
    unsigned a;
    copse_status st;
    if (brush == NULL)
        return COPSE_ERR_NULL;
    *brush = COPSE_NONE;
    if (bsp == NULL || box == NULL)
        return COPSE_ERR_NULL;
    geo_v3_array(mn, box->min);
    geo_v3_array(mx, box->max);
    st = bsp_check_box(mn, mx, 3);
    if (st != COPSE_OK)
        return st;
    /* halves first: no overflow near FLT_MAX */
    for (a = 0; a < 3; a++) {
        c[a] = mn[a] * 0.5f + mx[a] * 0.5f;
        half[a] = mx[a] * 0.5f - mn[a] * 0.5f;
    }
    s.a = copse_v3(c[0], c[1], c[2]);
    s.b = s.a;
    st = trace(bsp, &s, MODE_BOX, 0.0f, half, &tr);
    *brush = tr.hit ? tr.id : COPSE_NONE;
    return st;
}

copse_status copse_bsp3_contents(const copse_bsp3 *bsp, copse_vec3 point, copse_bsp3_where *out)
{
    const float x[3] = {point.x, point.y, point.z};
    uint32_t code, steps = 0;
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->solid = false;
    out->leaf = COPSE_NONE;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    if (!bsp_finite3(&point))
        return COPSE_ERR_NONFINITE;
    if (bsp->node_count == 0 && bsp->leaf_count == 0)
        return COPSE_OK;
    code = bsp->root;
    while (bsp3_is_node(code) && steps++ <= COPSE_BSP_MAX_DEPTH) {
        const copse_bsp3_node *n = &bsp->nodes[code];
        code = n->child[bsp3_plane_dist(&bsp->planes[n->plane], x) > 0.0f ? 0 : 1];
    }
    if (code == COPSE_BSP3_EMPTY || bsp3_is_node(code))
        return COPSE_OK;
    out->leaf = code & ~COPSE_BSP3_LEAF;
    {
        const copse_bsp3_leaf *leaf = &bsp->leaves[code & ~COPSE_BSP3_LEAF];
        uint32_t i, k, count = leaf->info & ~COPSE_BSP3_MIXED;
        if (!(leaf->info & COPSE_BSP3_MIXED)) {
            out->solid = true;
            return COPSE_OK;
        }
        for (i = 0; i < count && !out->solid; i++) {
            const copse_bsp3_brush *b = &bsp->brushes[bsp->leaf_brushes[leaf->first + i]];
            bool inside = true;
            for (k = 0; k < copse_bsp3_brush_split_sides(b) && inside; k++)
                inside = bsp3_plane_dist(brush_plane(bsp, b, k), x) <= 0.0f;
            out->solid = inside;
        }
    }
    return COPSE_OK;
}

/* ---- inspection ------------------------------------------------------------------------------ */

/* Dump node ids: 0 is the root's code; node k > 0 is k; leaves are numbered after the nodes
 * (node_count + leaf), the empty leaves share one id after them. */
static uint32_t dump_id(const copse_bsp3 *t, uint32_t code)
{
    if (bsp3_is_node(code))
        return code;
    if (code == COPSE_BSP3_EMPTY)
        return t->node_count + t->leaf_count;
    return t->node_count + (code & ~COPSE_BSP3_LEAF);
}

static uint32_t dump_code(const copse_bsp3 *t, uint32_t id)
{
    if (id < t->node_count)
        return id;
    if (id < t->node_count + t->leaf_count)
        return COPSE_BSP3_LEAF | (id - t->node_count);
    return COPSE_BSP3_EMPTY;
}

/* A zeroed (never built) tree has root 0 and no nodes: it dumps as the empty tree, as the
 * queries treat it. */
static uint32_t dump_lookup(const copse_bsp3 *t, uint32_t id)
{
    uint32_t code = id == 0 ? t->root : dump_code(t, id);
    return bsp3_is_node(code) && code >= t->node_count ? COPSE_BSP3_EMPTY : code;
}

bool copse_bsp3_dump_children(const void *tree, uint32_t id, uint32_t child[2])
{
    const copse_bsp3 *t = (const copse_bsp3 *)tree;
    uint32_t code = dump_lookup(t, id);
    if (!bsp3_is_node(code))
        return false;
    child[0] = dump_id(t, t->nodes[code].child[0]);
    child[1] = dump_id(t, t->nodes[code].child[1]);
    return true;
}

void copse_bsp3_dump_token(const void *tree, uint32_t id, bsp_text *text)
{
    const copse_bsp3 *t = (const copse_bsp3 *)tree;
    uint32_t code = dump_lookup(t, id);
    if (bsp3_is_node(code)) {
        copse_bsp_text_char(text, 'P');
        copse_bsp_text_u32(text, t->nodes[code].plane);
    } else if (code == COPSE_BSP3_EMPTY) {
        copse_bsp_text_char(text, 'E');
    } else {
        const copse_bsp3_leaf *leaf = &t->leaves[code & ~COPSE_BSP3_LEAF];
        copse_bsp_text_leaf(text, (leaf->info & COPSE_BSP3_MIXED) ? 'M' : 'S', t->leaf_brushes + leaf->first,
                            leaf->info & ~COPSE_BSP3_MIXED);
    }
}

copse_status copse_bsp3_dump(const copse_bsp3 *bsp, copse_bsp_order order, char *buf, size_t cap, size_t *length)
{
    if (bsp == NULL) {
        if (length != NULL)
            *length = 0;
        return COPSE_ERR_NULL;
    }
    if (!bsp3_is_node(bsp->root) && bsp->root != COPSE_BSP3_EMPTY &&
        (bsp->root & ~COPSE_BSP3_LEAF) >= bsp->leaf_count) {
        if (length != NULL)
            *length = 0;
        return COPSE_ERR_INDEX; /* a root leaf the tree does not have */
    }
    /* a tree always has a root: an empty tree dumps as "E" */
    return copse_bsp_dump_tree(bsp, 3u, 1u, order, buf, cap, length);
}

copse_status copse_bsp3_check(const copse_bsp3 *bsp)
{
    uint32_t stack[BSP_STACK], depth[BSP_STACK], sp = 0, expected = 0, i, k;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    for (i = 0; i < bsp->brush_count; i++) {
        const copse_bsp3_brush *b = &bsp->brushes[i];
        const uint32_t sides = copse_bsp3_brush_sides(b);
        if (b->first > bsp->side_count || sides > bsp->side_count - b->first || copse_bsp3_brush_split_sides(b) > sides)
            return COPSE_ERR_INDEX;
        for (k = 0; k < sides; k++)
            if (bsp->sides[b->first + k] >= bsp->plane_count)
                return COPSE_ERR_INDEX;
    }
    for (i = 0; i < bsp->plane_count; i++)
        if (!bsp_finite3(&bsp->planes[i].normal) || !geo_finite(bsp->planes[i].dist))
            return COPSE_ERR_NONFINITE;
    for (i = 0; i < bsp->leaf_count; i++) {
        const copse_bsp3_leaf *leaf = &bsp->leaves[i];
        uint32_t count = leaf->info & ~COPSE_BSP3_MIXED;
        if (leaf->first > bsp->leaf_brush_count || count > bsp->leaf_brush_count - leaf->first || count == 0)
            return COPSE_ERR_INDEX;
        for (k = 0; k < count; k++)
            if (bsp->leaf_brushes[leaf->first + k] >= bsp->brush_count)
                return COPSE_ERR_INDEX;
    }
    if (!bsp3_is_node(bsp->root))
        return bsp->node_count == 0 &&
                       (bsp->root == COPSE_BSP3_EMPTY || (bsp->root & ~COPSE_BSP3_LEAF) < bsp->leaf_count)
                   ? COPSE_OK
                   : COPSE_ERR_INDEX;
    if (bsp->root != 0)
        return COPSE_ERR_INDEX;
    stack[sp] = 0;
    depth[sp++] = 0;
    /* nodes are numbered in the order of a walk that takes the back child first */
    while (sp > 0) {
        uint32_t code = stack[--sp], d = depth[sp], c;
        const copse_bsp3_node *n;
        if (code != expected++ || code >= bsp->node_count || d >= COPSE_BSP_MAX_DEPTH)
            return COPSE_ERR_INDEX;
        n = &bsp->nodes[code];
        if (n->plane >= bsp->plane_count)
            return COPSE_ERR_INDEX;
        for (c = 0; c < 2; c++) {
            uint32_t ch = n->child[c];
            if (!bsp3_is_node(ch)) {
                if (ch != COPSE_BSP3_EMPTY && (ch & ~COPSE_BSP3_LEAF) >= bsp->leaf_count)
                    return COPSE_ERR_INDEX;
            } else if (sp + 2u > BSP_STACK) {
                return COPSE_ERR_INDEX;
            }
        }
        for (c = 0; c < 2; c++)
            if (bsp3_is_node(n->child[c])) {
                stack[sp] = n->child[c];
                depth[sp++] = d + 1u;
            }
    }
    return expected == bsp->node_count ? COPSE_OK : COPSE_ERR_INDEX;
}

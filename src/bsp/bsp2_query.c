/* SPDX-License-Identifier: MIT */
/*
 * Queries on the 2D tree. Leaves list the objects overlapping them, so every answer is
 * decided by exact tests against the objects' boxes (clipped to the scene); the tree only
 * says which leaves, and so which objects, a shape can touch.
 *
 * One walk serves the box-shaped queries (point, box, circle's bounds, leaves in a box):
 * it enters every child whose closed half-plane the box touches. The segment walk is
 * ordered (near child first) and stops once the best hit lies before every waiting part.
 */
#include "bsp_internal.h"

COPSE_INLINE uint32_t node_kind(const copse_bsp2_node *n)
{
    return n->info & 3u;
}

/* The object's box as the tree sees it: clipped to the scene. */
COPSE_INLINE void object_box(const copse_bsp2 *t, uint32_t o, float *mn, float *mx)
{
    const copse_box2 *b = &t->objects[o];
    mn[0] = geo_max(b->min.x, t->scene.min.x);
    mn[1] = geo_max(b->min.y, t->scene.min.y);
    mx[0] = geo_min(b->max.x, t->scene.max.x);
    mx[1] = geo_min(b->max.y, t->scene.max.y);
}

COPSE_INLINE copse_status check_tree(const copse_bsp2 *t)
{
    return t == NULL ? COPSE_ERR_NULL : COPSE_OK;
}

/* Calls leaf_fn for every leaf whose closed region touches [mn, mx] (in node order) until
 * it returns false. Returns false when stopped. */
typedef bool (*leaf_fn)(void *ctx, const copse_bsp2 *t, uint32_t leaf);

static bool walk_box(const copse_bsp2 *t, const float *mn, const float *mx, leaf_fn fn, void *ctx)
{
    uint32_t stack[BSP_STACK], sp = 0;
    if (t->node_count == 0 || mn[0] > t->scene.max.x || mx[0] < t->scene.min.x || mn[1] > t->scene.max.y ||
        mx[1] < t->scene.min.y)
        return true;
    stack[sp++] = 0;
    while (sp > 0) {
        uint32_t k = stack[--sp];
        const copse_bsp2_node *n = &t->nodes[k];
        uint32_t a = node_kind(n);
        if (a == COPSE_BSP2_LEAF) {
            if (!fn(ctx, t, k))
                return false;
            continue;
        }
        if (sp + 2u > BSP_STACK)
            continue; /* deeper than any tree copse builds: a corrupt tree, not walked */
        if (mx[a] >= n->split)
            stack[sp++] = n->index;
        if (mn[a] <= n->split)
            stack[sp++] = k + 1u;
    }
    return true;
}

/* ---- point, box, circle ----------------------------------------------------------------------- */

typedef struct shape_ctx {
    float mn[2], mx[2]; /* the shape's bounds (a point: mn = mx) */
    float c[2], r;      /* a circle, or r < 0 */
    uint32_t best;      /* lowest object met */
    bool stop_at_first;
} shape_ctx;

/* A closed circle (centre c, radius r) against a closed box, without squaring coordinates:
 * huge scenes would overflow. */
static bool circle_touches(const float *c, float r, const float *mn, const float *mx)
{
    float d[2];
    unsigned a;
    for (a = 0; a < 2; a++) {
        d[a] = c[a] < mn[a] ? mn[a] - c[a] : (c[a] > mx[a] ? c[a] - mx[a] : 0.0f);
        if (d[a] > r)
            return false;
    }
    if (d[0] == 0.0f || d[1] == 0.0f)
        return true;
    d[0] /= r; /* r > 0 here: both distances are positive and at most r */
    d[1] /= r;
    return d[0] * d[0] + d[1] * d[1] <= 1.0f;
}

static bool shape_leaf(void *vctx, const copse_bsp2 *t, uint32_t leaf)
{
    shape_ctx *s = (shape_ctx *)vctx;
    const copse_bsp2_node *n = &t->nodes[leaf];
    uint32_t i, count = n->info >> 2;
    for (i = 0; i < count; i++) {
        uint32_t o = t->items[n->index + i];
        float mn[2], mx[2];
        bool touch;
        if (o >= s->best)
            continue;
        object_box(t, o, mn, mx);
        if (s->r >= 0.0f)
            touch = circle_touches(s->c, s->r, mn, mx);
        else
            touch = geo_box_overlap(s->mn, s->mx, mn, mx, 2);
        if (touch) {
            s->best = o;
            if (s->stop_at_first)
                return false;
        }
    }
    return true;
}

static void shape_init(shape_ctx *s, float x0, float y0, float x1, float y1)
{
    s->mn[0] = x0;
    s->mn[1] = y0;
    s->mx[0] = x1;
    s->mx[1] = y1;
    s->c[0] = s->c[1] = 0.0f;
    s->r = -1.0f;
    s->best = COPSE_NONE;
    s->stop_at_first = false;
}

copse_status copse_bsp2_locate(const copse_bsp2 *bsp, copse_vec2 point, copse_bsp2_where *out)
{
    shape_ctx s;
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->solid = false;
    out->leaf = COPSE_NONE;
    out->id = COPSE_NONE;
    if (check_tree(bsp) != COPSE_OK)
        return COPSE_ERR_NULL;
    if (!bsp_finite2(&point))
        return COPSE_ERR_NONFINITE;
    if (bsp->node_count == 0 || point.x < bsp->scene.min.x || point.x > bsp->scene.max.x ||
        point.y < bsp->scene.min.y || point.y > bsp->scene.max.y)
        return COPSE_OK;
    {
        const float p[2] = {point.x, point.y};
        uint32_t k = 0, steps = 0;
        while (node_kind(&bsp->nodes[k]) != COPSE_BSP2_LEAF && steps++ <= COPSE_BSP_MAX_DEPTH) {
            const copse_bsp2_node *n = &bsp->nodes[k];
            k = p[node_kind(n)] >= n->split ? n->index : k + 1u;
        }
        out->leaf = k;
    }
    /* on a line the point belongs to the closed regions on both sides: ask them all */
    shape_init(&s, point.x, point.y, point.x, point.y);
    (void)walk_box(bsp, s.mn, s.mx, shape_leaf, &s);
    out->id = s.best;
    out->solid = s.best != COPSE_NONE;
    return COPSE_OK;
}

/* A query box as arrays, checked. */
static copse_status box_arrays(const copse_box2 *box, float *mn, float *mx)
{
    mn[0] = box->min.x;
    mn[1] = box->min.y;
    mx[0] = box->max.x;
    mx[1] = box->max.y;
    return bsp_check_box(mn, mx, 2);
}

copse_status copse_bsp2_any_box(const copse_bsp2 *bsp, const copse_box2 *box, uint32_t *object)
{
    shape_ctx s;
    copse_status st;
    if (object == NULL)
        return COPSE_ERR_NULL;
    *object = COPSE_NONE;
    if (bsp == NULL || box == NULL)
        return COPSE_ERR_NULL;
    shape_init(&s, 0.0f, 0.0f, 0.0f, 0.0f);
    st = box_arrays(box, s.mn, s.mx);
    if (st != COPSE_OK)
        return st;
    s.stop_at_first = true;
    (void)walk_box(bsp, s.mn, s.mx, shape_leaf, &s);
    *object = s.best;
    return COPSE_OK;
}

copse_status copse_bsp2_any_circle(const copse_bsp2 *bsp, const copse_circle *circle, uint32_t *object)
{
    shape_ctx s;
    float r;
    if (object == NULL)
        return COPSE_ERR_NULL;
    *object = COPSE_NONE;
    if (bsp == NULL || circle == NULL)
        return COPSE_ERR_NULL;
    r = circle->radius;
    if (!bsp_finite2(&circle->center) || !geo_finite(r))
        return COPSE_ERR_NONFINITE;
    if (r < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    shape_init(&s, circle->center.x - r, circle->center.y - r, circle->center.x + r, circle->center.y + r);
    s.c[0] = circle->center.x;
    s.c[1] = circle->center.y;
    s.r = r;
    s.stop_at_first = true;
    (void)walk_box(bsp, s.mn, s.mx, shape_leaf, &s);
    *object = s.best;
    return COPSE_OK;
}

/* ---- segment: line of sight ------------------------------------------------------------------ */

/* t of the waiting parts is conservative by this much: a rounded crossing never hides a leaf. */
#define SEG_SLACK (8.0f * FLT_EPSILON)

typedef struct seg_entry {
    uint32_t node;
    float t0, t1;
} seg_entry;

/* Where the segment org + t*dir, t in [0, 1], enters the closed box; the axis of the side it
 * crosses (-1 when it starts inside or on no side). */
static bool seg_box(const float *org, const float *dir, const float *mn, const float *mx, float *t_out,
                    int *axis_out)
{
    float tn = 0.0f, tf = 1.0f;
    int axis = -1;
    unsigned a;
    for (a = 0; a < 2; a++) {
        if (dir[a] == 0.0f) {
            if (org[a] < mn[a] || org[a] > mx[a])
                return false;
            continue;
        }
        {
            float inv = 1.0f / dir[a];
            float t0 = ((dir[a] > 0.0f ? mn[a] : mx[a]) - org[a]) * inv;
            float t1 = ((dir[a] > 0.0f ? mx[a] : mn[a]) - org[a]) * inv;
            /* a start on the near side counts as crossing it (t = 0) */
            if (t0 > tn || (axis < 0 && t0 == tn && org[a] == (dir[a] > 0.0f ? mn[a] : mx[a]))) {
                tn = t0;
                axis = (int)a;
            }
            tf = t1 < tf ? t1 : tf;
        }
    }
    if (tn > tf)
        return false;
    *t_out = tn;
    *axis_out = axis;
    return true;
}

/* The first object on org + t*dir, t in [0, 1] (dir finite): out->hit, t, object, leaf and
 * the axis of the side crossed (-1: none). */
static int seg_walk(const copse_bsp2 *bsp, const float *org, const float *dir, copse_bsp2_trace *out)
{
    seg_entry stack[BSP_STACK];
    uint32_t sp = 0;
    int best_axis = -1;
    stack[sp].node = 0;
    stack[sp].t0 = 0.0f;
    stack[sp++].t1 = 1.0f;
    while (sp > 0) {
        seg_entry e = stack[--sp];
        const copse_bsp2_node *n = &bsp->nodes[e.node];
        uint32_t a = node_kind(n);
        if (out->hit && out->t + SEG_SLACK < e.t0)
            continue; /* everything here lies beyond the hit */
        if (a == COPSE_BSP2_LEAF) {
            uint32_t i, count = n->info >> 2;
            for (i = 0; i < count; i++) {
                uint32_t o = bsp->items[n->index + i];
                float mn[2], mx[2], t;
                int axis;
                object_box(bsp, o, mn, mx);
                if (seg_box(org, dir, mn, mx, &t, &axis) &&
                    (!out->hit || t < out->t || (t == out->t && o < out->id))) {
                    out->hit = true;
                    out->t = t;
                    out->id = o;
                    out->leaf = e.node;
                    best_axis = axis;
                }
            }
            continue;
        }
        if (sp + 2u > BSP_STACK)
            continue;
        {
            bsp_range lo, hi; /* the parts on the low and the high side */
            bool has_lo, has_hi, low_first;
            bsp_side_ranges(org[a] - n->split, org[a] + dir[a] - n->split, e.t0, e.t1, 0.0f, SEG_SLACK, &lo, &hi);
            has_lo = lo.lo <= lo.hi;
            has_hi = hi.lo <= hi.hi;
            low_first = !has_hi || (has_lo && lo.lo <= hi.lo);
            /* the second is pushed first, so the near side is walked first */
            if (low_first ? has_hi : has_lo) {
                stack[sp].node = low_first ? n->index : e.node + 1u;
                stack[sp].t0 = low_first ? hi.lo : lo.lo;
                stack[sp++].t1 = low_first ? hi.hi : lo.hi;
            }
            if (low_first ? has_lo : has_hi) {
                stack[sp].node = low_first ? e.node + 1u : n->index;
                stack[sp].t0 = low_first ? lo.lo : hi.lo;
                stack[sp++].t1 = low_first ? lo.hi : hi.hi;
            }
        }
    }
    return best_axis;
}

copse_status copse_sweep_point_bsp2(const copse_segment2 *path, const copse_bsp2 *bsp, copse_bsp2_trace *out)
{
    float a[2], b[2], org[2], dir[2];
    int best_axis = -1;
    unsigned part, parts;
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->hit = out->start_solid = false;
    out->t = 1.0f;
    out->id = out->leaf = COPSE_NONE;
    out->normal = copse_v2(0.0f, 0.0f);
    if (bsp == NULL || path == NULL) {
        out->point = copse_v2(0.0f, 0.0f);
        return COPSE_ERR_NULL;
    }
    out->point = path->b;
    if (!bsp_finite2(&path->a) || !bsp_finite2(&path->b))
        return COPSE_ERR_NONFINITE;
    if (bsp->node_count == 0)
        return COPSE_OK;
    a[0] = path->a.x;
    a[1] = path->a.y;
    b[0] = path->b.x;
    b[1] = path->b.y;
    parts = bsp_parts(a, b, 2); /* 2 when b - a overflows */
    for (part = 0; part < parts && !out->hit; part++) {
        bsp_part(a, b, part, parts, org, dir, 2);
        best_axis = seg_walk(bsp, org, dir, out);
    }
    if (out->hit) {
        out->point = copse_v2(org[0] + dir[0] * out->t, org[1] + dir[1] * out->t);
        out->t = bsp_whole_t(out->t, part - 1u, parts);
        if (best_axis == 0)
            out->normal.x = dir[0] > 0.0f ? -1.0f : 1.0f;
        else if (best_axis == 1)
            out->normal.y = dir[1] > 0.0f ? -1.0f : 1.0f;
        out->start_solid = best_axis < 0; /* entered through no side: a lies in the object */
    }
    return COPSE_OK;
}

/* ---- ordered leaf visits ---------------------------------------------------------------------- */

static copse_status visit_ordered(const copse_bsp2 *bsp, copse_vec2 eye, bool front_to_back,
                                  copse_id_visitor visit, void *user)
{
    uint32_t stack[BSP_STACK], sp = 0;
    const float p[2] = {eye.x, eye.y};
    if (bsp == NULL || visit == NULL)
        return COPSE_ERR_NULL;
    if (!bsp_finite2(&eye))
        return COPSE_ERR_NONFINITE;
    if (bsp->node_count == 0)
        return COPSE_OK;
    stack[sp++] = 0;
    while (sp > 0) {
        uint32_t k = stack[--sp];
        const copse_bsp2_node *n = &bsp->nodes[k];
        uint32_t a = node_kind(n), near_child, far_child;
        if (a == COPSE_BSP2_LEAF) {
            if (!visit(user, k))
                break;
            continue;
        }
        if (sp + 2u > BSP_STACK)
            continue;
        near_child = p[a] <= n->split ? k + 1u : n->index;
        far_child = near_child == k + 1u ? n->index : k + 1u;
        stack[sp++] = front_to_back ? far_child : near_child;
        stack[sp++] = front_to_back ? near_child : far_child;
    }
    return COPSE_OK;
}

copse_status copse_bsp2_visit_front_to_back(const copse_bsp2 *bsp, copse_vec2 eye, copse_id_visitor visit,
                                            void *user)
{
    return visit_ordered(bsp, eye, true, visit, user);
}

copse_status copse_bsp2_visit_back_to_front(const copse_bsp2 *bsp, copse_vec2 eye, copse_id_visitor visit,
                                            void *user)
{
    return visit_ordered(bsp, eye, false, visit, user);
}

/* ---- broad phase ------------------------------------------------------------------------------- */

static bool leaves_leaf(void *vctx, const copse_bsp2 *t, uint32_t leaf)
{
    (void)t;
    return id_emit((id_emitter *)vctx, leaf);
}

static copse_status leaves_in_box(const copse_bsp2 *bsp, const copse_box2 *box, copse_id_list *out,
                                  copse_id_visitor visit, void *user)
{
    float mn[2], mx[2];
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st != COPSE_OK)
        return st;
    if (bsp == NULL || box == NULL)
        return COPSE_ERR_NULL;
    st = box_arrays(box, mn, mx);
    if (st == COPSE_OK)
        (void)walk_box(bsp, mn, mx, leaves_leaf, &e);
    return st;
}

copse_status copse_bsp2_overlap_box_leaves(const copse_bsp2 *bsp, const copse_box2 *box, copse_id_list *out)
{
    return out == NULL ? COPSE_ERR_NULL : leaves_in_box(bsp, box, out, NULL, NULL);
}

copse_status copse_bsp2_visit_box_leaves(const copse_bsp2 *bsp, const copse_box2 *box,
                                            copse_id_visitor visit, void *user)
{
    return leaves_in_box(bsp, box, NULL, visit, user);
}

copse_status copse_bsp2_leaf_objects(const copse_bsp2 *bsp, uint32_t leaf, const uint32_t **objects,
                                     uint32_t *count)
{
    if (objects == NULL || count == NULL)
        return COPSE_ERR_NULL;
    *objects = NULL;
    *count = 0;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    if (leaf >= bsp->node_count || node_kind(&bsp->nodes[leaf]) != COPSE_BSP2_LEAF)
        return COPSE_ERR_INDEX;
    *objects = bsp->items + bsp->nodes[leaf].index;
    *count = bsp->nodes[leaf].info >> 2;
    return COPSE_OK;
}

copse_status copse_bsp2_visit_pairs(const copse_bsp2 *bsp, copse_bsp_pair_visitor visit, void *user)
{
    uint32_t k;
    if (bsp == NULL || visit == NULL)
        return COPSE_ERR_NULL;
    for (k = 0; k < bsp->node_count; k++) {
        const copse_bsp2_node *n = &bsp->nodes[k];
        uint32_t i, j, count = n->info >> 2;
        if (node_kind(n) != COPSE_BSP2_LEAF)
            continue;
        for (i = 0; i < count; i++)
            for (j = i + 1u; j < count; j++)
                if (!visit(user, bsp->items[n->index + i], bsp->items[n->index + j]))
                    return COPSE_OK;
    }
    return COPSE_OK;
}

/* ---- inspection ---------------------------------------------------------------------------------- */

bool copse_bsp2_dump_children(const void *tree, uint32_t node, uint32_t child[2])
{
    const copse_bsp2 *t = (const copse_bsp2 *)tree;
    const copse_bsp2_node *n = &t->nodes[node];
    if (node_kind(n) == COPSE_BSP2_LEAF)
        return false;
    child[0] = node + 1u;
    child[1] = n->index;
    return true;
}

void copse_bsp2_dump_token(const void *tree, uint32_t node, bsp_text *text)
{
    const copse_bsp2 *t = (const copse_bsp2 *)tree;
    const copse_bsp2_node *n = &t->nodes[node];
    uint32_t kind = node_kind(n), count = n->info >> 2;
    if (kind != COPSE_BSP2_LEAF) {
        copse_bsp_text_char(text, kind == COPSE_BSP2_SPLIT_X ? 'X' : 'Y');
        copse_bsp_text_float(text, n->split);
        return;
    }
    copse_bsp_text_leaf(text, count == 0 ? 'E' : 'S', t->items + n->index, count);
}

copse_status copse_bsp2_dump(const copse_bsp2 *bsp, copse_bsp_order order, char *buf, size_t cap, size_t *length)
{
    if (bsp == NULL) {
        if (length != NULL)
            *length = 0;
        return COPSE_ERR_NULL;
    }
    return copse_bsp_dump_tree(bsp, 2u, bsp->node_count, order, buf, cap, length);
}

copse_status copse_bsp2_check(const copse_bsp2 *bsp)
{
    uint32_t stack[BSP_STACK], depth[BSP_STACK], sp = 0, expected = 0;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    if (bsp->node_count == 0)
        return COPSE_OK;
    if (bsp->nodes == NULL || (bsp->items == NULL && bsp->item_count > 0) ||
        (bsp->objects == NULL && bsp->object_count > 0))
        return COPSE_ERR_NULL;
    stack[sp] = 0;
    depth[sp++] = 0;
    while (sp > 0) {
        uint32_t k = stack[--sp], d = depth[sp];
        const copse_bsp2_node *n;
        if (k != expected++ || k >= bsp->node_count || d > COPSE_BSP_MAX_DEPTH)
            return COPSE_ERR_INDEX;
        n = &bsp->nodes[k];
        if (node_kind(n) == COPSE_BSP2_LEAF) {
            uint32_t i, count = n->info >> 2;
            if (n->index > bsp->item_count || count > bsp->item_count - n->index)
                return COPSE_ERR_INDEX;
            for (i = 0; i < count; i++)
                if (bsp->items[n->index + i] >= bsp->object_count)
                    return COPSE_ERR_INDEX;
            continue;
        }
        if (node_kind(n) > COPSE_BSP2_LEAF || !geo_finite(n->split))
            return COPSE_ERR_PARAM;
        if (n->index <= k + 1u || n->index >= bsp->node_count || sp + 2u > BSP_STACK)
            return COPSE_ERR_INDEX;
        stack[sp] = n->index;
        depth[sp++] = d + 1u;
        stack[sp] = k + 1u;
        depth[sp++] = d + 1u;
    }
    return expected == bsp->node_count ? COPSE_OK : COPSE_ERR_INDEX;
}

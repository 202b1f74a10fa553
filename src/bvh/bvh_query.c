/* SPDX-License-Identifier: MIT */
/*
 * BVH queries.
 *
 *  - Overlap (box, sphere/circle, segment): the stackless escape-index walk of
 *    Recast's chunky mesh. A node that misses skips its whole subtree at once.
 *  - Rays and nearest: ordered traversal, near child first, far child on a fixed
 *    stack of COPSE_BVH_MAX_DEPTH entries with its entry distance, so entries
 *    that can no longer win are dropped when popped.
 *
 * Each walk is written once, generic over the dimension and the query shape,
 * and force-inlined into one function per combination.
 */
#include "bvh_internal.h"
#include "../core/emit_internal.h"
#include "../geom/geom_collide.h"

/* ---- validating and converting query inputs ------------------------------------------------- */

static bool finite_n(const float *v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (!geo_finite(v[i]))
            return false;
    return true;
}

/* t_max may be +infinity; NaN and negatives are not ranges. */
static copse_status check_t_max(float t_max)
{
    if (t_max != t_max)
        return COPSE_ERR_NONFINITE;
    return t_max < 0.0f ? COPSE_ERR_EMPTY_RANGE : COPSE_OK;
}

static copse_status check_tree(const copse_bvh *bvh, unsigned dim)
{
    if (bvh == NULL)
        return COPSE_ERR_NULL;
    if (bvh->dim != dim && bvh->dim != 0)
        return COPSE_ERR_DIMENSION;
    if (bvh->depth > COPSE_BVH_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP; /* the walks' fixed stacks are sized by the cap */
    return COPSE_OK;
}

/* ---- overlap: the stackless walk ------------------------------------------------------------- */

typedef enum shape_kind { SHAPE_BOX, SHAPE_SPHERE, SHAPE_SEGMENT } shape_kind;

/* One query shape; the walk's `kind` says which member is live. */
typedef struct overlap_shape {
    union {
        geo_tri_box box; /* SHAPE_BOX: min, max (2D: a slab |z| <= 1); centre, half extents once prepared */
        struct {
            float center[3], r2; /* squared radius */
        } sphere;
        struct {
            geo_ray ray;         /* t in [0, 1] */
            bool point;          /* a segment of zero length: a point test */
        } seg;
    } u;
} overlap_shape;

COPSE_INLINE bool shape_vs_bounds(const overlap_shape *s, shape_kind kind, const float *mn, const float *mx,
                                  unsigned dim)
{
    float t;
    if (kind == SHAPE_BOX)
        return geo_box_overlap(s->u.box.min, s->u.box.max, mn, mx, dim);
    if (kind == SHAPE_SPHERE)
        return geo_box_dist_sq(s->u.sphere.center, mn, mx, dim) <= s->u.sphere.r2;
    (void)mx; /* max follows min in every node and primitive box */
    return geo_ray_node(&s->u.seg.ray, mn, 1.0f, dim, &t);
}

COPSE_INLINE bool shape_vs_triangle(const copse_bvh *t, const overlap_shape *s, shape_kind kind, uint32_t prim,
                                    unsigned dim)
{
    float buf[3][3], q[3], th, u, w;
    const float *v[3];
    bvh_triangle(t, prim, v, buf, dim);
    switch (kind) {
    case SHAPE_BOX:
        return copse_geo_triangle_box(&s->u.box, v[0], v[1], v[2]);
    case SHAPE_SPHERE:
        /* a 2D centre inside: by the edge signs (a rounded distance need not be 0) */
        if (dim == 2 && copse_geo_point_in_triangle2(s->u.sphere.center, v[0], v[1], v[2]))
            return true;
        return copse_geo_point_triangle(s->u.sphere.center, v, q) <= s->u.sphere.r2;
    case SHAPE_SEGMENT:
        if (s->u.seg.point)
            return copse_geo_point_on_triangle(s->u.seg.ray.org, v); /* exact, 2D embedded at z = 0 */
        if (dim == 3)
            return geo_ray_triangle(&s->u.seg.ray, v[0], v[1], v[2], 1.0f, &th, &u, &w);
        return copse_geo_ray_triangle2(&s->u.seg.ray, v[0], v[1], v[2], 1.0f, &th, &u, &w);
    }
    return false;
}

COPSE_INLINE bool shape_vs_prim(const copse_bvh *t, const overlap_shape *s, shape_kind kind, uint32_t prim,
                                unsigned dim)
{
    if (t->kind == COPSE_BVH_PRIM_TRIANGLES)
        return shape_vs_triangle(t, s, kind, prim, dim);
    {
        const float *box = bvh_box(t, prim, dim);
        float th;
        if (kind == SHAPE_SEGMENT)
            return geo_ray_box(&s->u.seg.ray, box, box + dim, 0.0f, 1.0f, dim, false, &th);
        return shape_vs_bounds(s, kind, box, box + dim, dim);
    }
}

/* Is the box [mn, mx] inside [qmin, qmax] (closed)? */
COPSE_INLINE bool box_inside(const float *mn, const float *mx, const float *qmin, const float *qmax, unsigned dim)
{
    unsigned a;
    bool inside = true;
    for (a = 0; a < dim; a++)
        inside = inside && mn[a] >= qmin[a] && mx[a] <= qmax[a];
    return inside;
}

COPSE_INLINE void overlap_walk(const copse_bvh *t, const overlap_shape *s, shape_kind kind, copse_bvh_select select,
                               id_emitter *e, unsigned dim)
{
    const void *nodes = t->nodes;
    const uint32_t n = t->node_count;
    const bool take_inside = kind == SHAPE_BOX && select == COPSE_BVH_SELECT_PRIMS;
    uint32_t i = 0;
    while (i < n) {
        const float *mn = bvh_node_min(nodes, i, dim), *mx = bvh_node_max(nodes, i, dim);
        bool hit = shape_vs_bounds(s, kind, mn, mx, dim);
        int32_t index = bvh_node_index(nodes, i, dim);
        if (take_inside && hit && box_inside(mn, mx, s->u.box.min, s->u.box.max, dim)) {
            /* every primitive below lies in the node, so in the query box: no tests. A subtree's
             * primitives are one run of prims[], from its first leaf (down the left children)
             * to the end of its last node (always a leaf, pre-order) */
            uint32_t end = i + bvh_node_span(nodes, i, dim), first = i, k, last;
            while (bvh_node_index(nodes, first, dim) < 0)
                first++;
            last = (uint32_t)bvh_node_index(nodes, end - 1u, dim) + bvh_node_count(nodes, end - 1u, dim);
            for (k = (uint32_t)bvh_node_index(nodes, first, dim); k < last; k++)
                if (!id_emit(e, bvh_prim_id(t, t->prims[k])))
                    return;
            i = end;
            continue;
        }
        if (index >= 0) {
            if (hit) {
                if (select == COPSE_BVH_SELECT_LEAVES) {
                    if (!id_emit(e, i))
                        return;
                } else {
                    uint32_t k, count = bvh_node_count(nodes, i, dim);
                    for (k = 0; k < count; k++) {
                        uint32_t prim = t->prims[(uint32_t)index + k];
                        if (shape_vs_prim(t, s, kind, prim, dim) && !id_emit(e, bvh_prim_id(t, prim)))
                            return;
                    }
                }
            }
            i++;
        } else {
            i += hit ? 1u : (uint32_t)(-(int64_t)index);
        }
    }
}

/* Box walks come in one copy per selection: only the primitive walk takes nodes inside the
 * box untested and prepares the box for triangle tests (centre, half extents); the leaf walk
 * (Recast's chunk query) pays for neither. */
COPSE_INLINE void overlap_box_walk(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e,
                                   unsigned dim)
{
    if (sel == COPSE_BVH_SELECT_LEAVES) {
        overlap_walk(t, s, SHAPE_BOX, COPSE_BVH_SELECT_LEAVES, e, dim);
        return;
    }
    if (t->kind == COPSE_BVH_PRIM_TRIANGLES)
        geo_tri_box_prepare(&s->u.box);
    overlap_walk(t, s, SHAPE_BOX, COPSE_BVH_SELECT_PRIMS, e, dim);
}

static void overlap_box3(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_box_walk(t, s, sel, e, 3);
}
static void overlap_sphere3(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_walk(t, s, SHAPE_SPHERE, sel, e, 3);
}
static void overlap_segment3(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_walk(t, s, SHAPE_SEGMENT, sel, e, 3);
}
static void overlap_box2(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_box_walk(t, s, sel, e, 2);
}
static void overlap_sphere2(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_walk(t, s, SHAPE_SPHERE, sel, e, 2);
}
static void overlap_segment2(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e)
{
    overlap_walk(t, s, SHAPE_SEGMENT, sel, e, 2);
}

typedef void (*overlap_fn)(const copse_bvh *t, overlap_shape *s, copse_bvh_select sel, id_emitter *e);

/* Shared tail of every overlap entry point: argument checks, then the walk. */
static copse_status run_overlap(const copse_bvh *bvh, unsigned dim, copse_status shape_status,
                                overlap_shape *s, copse_bvh_select select, copse_id_list *out,
                                copse_id_visitor visit, void *user, overlap_fn walk)
{
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st != COPSE_OK)
        return st;
    st = check_tree(bvh, dim);
    if (st == COPSE_OK)
        st = shape_status;
    if (st == COPSE_OK && select != COPSE_BVH_SELECT_PRIMS && select != COPSE_BVH_SELECT_LEAVES)
        st = COPSE_ERR_PARAM;
    if (st != COPSE_OK)
        return st;
    walk(bvh, s, select, &e);
    return COPSE_OK;
}

static copse_status box_shape(overlap_shape *s, const float *mn, const float *mx, unsigned dim)
{
    unsigned a;
    if (!finite_n(mn, dim) || !finite_n(mx, dim))
        return COPSE_ERR_NONFINITE;
    for (a = 0; a < dim; a++) {
        if (mn[a] > mx[a])
            return COPSE_ERR_EMPTY_RANGE;
        s->u.box.min[a] = mn[a];
        s->u.box.max[a] = mx[a];
    }
    if (dim == 2) { /* a 2D rect is a slab through the z = 0 plane the 2D triangles lie in */
        s->u.box.min[2] = -1.0f;
        s->u.box.max[2] = 1.0f;
    }
    return COPSE_OK;
}

static copse_status sphere_shape(overlap_shape *s, const float *c, float r, unsigned dim)
{
    unsigned a;
    if (!finite_n(c, dim) || !geo_finite(r))
        return COPSE_ERR_NONFINITE;
    if (r < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    for (a = 0; a < 3; a++)
        s->u.sphere.center[a] = a < dim ? c[a] : 0.0f;
    s->u.sphere.r2 = r * r;
    return COPSE_OK;
}

static copse_status segment_shape(overlap_shape *s, const float *a, const float *b, unsigned dim)
{
    float d[3];
    unsigned k;
    if (!finite_n(a, dim) || !finite_n(b, dim))
        return COPSE_ERR_NONFINITE;
    s->u.seg.point = true;
    for (k = 0; k < dim; k++) {
        d[k] = b[k] - a[k];
        if (d[k] != 0.0f)
            s->u.seg.point = false;
    }
    geo_ray_init(&s->u.seg.ray, a, d, 1.0f, dim);
    return COPSE_OK;
}

copse_status copse_bvh_overlap_box(const copse_bvh *bvh, const copse_box3 *box, copse_bvh_select select,
                                   copse_id_list *out)
{
    float mn[3], mx[3];
    overlap_shape s;
    if (out == NULL || box == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 3, box_shape(&s, geo_v3_array(mn, box->min), geo_v3_array(mx, box->max), 3), &s,
                       select, out, NULL, NULL, overlap_box3);
}

copse_status copse_bvh_visit_box(const copse_bvh *bvh, const copse_box3 *box, copse_bvh_select select,
                                 copse_id_visitor visit, void *user)
{
    float mn[3], mx[3];
    overlap_shape s;
    if (box == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 3, box_shape(&s, geo_v3_array(mn, box->min), geo_v3_array(mx, box->max), 3), &s,
                       select, NULL, visit, user, overlap_box3);
}

copse_status copse_bvh_overlap_sphere(const copse_bvh *bvh, const copse_sphere *sphere, copse_bvh_select select,
                                      copse_id_list *out)
{
    float c[3];
    overlap_shape s;
    if (out == NULL || sphere == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 3, sphere_shape(&s, geo_v3_array(c, sphere->center), sphere->radius, 3), &s,
                       select, out, NULL, NULL, overlap_sphere3);
}

copse_status copse_bvh_visit_sphere(const copse_bvh *bvh, const copse_sphere *sphere, copse_bvh_select select,
                                    copse_id_visitor visit, void *user)
{
    float c[3];
    overlap_shape s;
    if (sphere == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 3, sphere_shape(&s, geo_v3_array(c, sphere->center), sphere->radius, 3), &s,
                       select, NULL, visit, user, overlap_sphere3);
}

copse_status copse_bvh_overlap_segment(const copse_bvh *bvh, const copse_segment3 *segment,
                                       copse_bvh_select select, copse_id_list *out)
{
    float a[3], b[3];
    overlap_shape s;
    if (out == NULL || segment == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 3, segment_shape(&s, geo_v3_array(a, segment->a), geo_v3_array(b, segment->b),
                       3), &s, select, out, NULL, NULL, overlap_segment3);
}

copse_status copse_bvh_visit_segment(const copse_bvh *bvh, const copse_segment3 *segment,
                                     copse_bvh_select select, copse_id_visitor visit, void *user)
{
    float a[3], b[3];
    overlap_shape s;
    if (segment == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 3, segment_shape(&s, geo_v3_array(a, segment->a), geo_v3_array(b, segment->b),
                       3), &s, select, NULL, visit, user, overlap_segment3);
}

copse_status copse_bvh_overlap_rect(const copse_bvh *bvh, const copse_box2 *rect, copse_bvh_select select,
                                    copse_id_list *out)
{
    float mn[2], mx[2];
    overlap_shape s;
    if (out == NULL || rect == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 2, box_shape(&s, geo_v2_array(mn, rect->min), geo_v2_array(mx, rect->max), 2),
                       &s, select, out, NULL, NULL, overlap_box2);
}

copse_status copse_bvh_visit_rect(const copse_bvh *bvh, const copse_box2 *rect, copse_bvh_select select,
                                  copse_id_visitor visit, void *user)
{
    float mn[2], mx[2];
    overlap_shape s;
    if (rect == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 2, box_shape(&s, geo_v2_array(mn, rect->min), geo_v2_array(mx, rect->max), 2),
                       &s, select, NULL, visit, user, overlap_box2);
}

copse_status copse_bvh_overlap_circle(const copse_bvh *bvh, const copse_circle *circle, copse_bvh_select select,
                                      copse_id_list *out)
{
    float c[2];
    overlap_shape s;
    if (out == NULL || circle == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 2, sphere_shape(&s, geo_v2_array(c, circle->center), circle->radius, 2), &s,
                       select, out, NULL, NULL, overlap_sphere2);
}

copse_status copse_bvh_visit_circle(const copse_bvh *bvh, const copse_circle *circle, copse_bvh_select select,
                                    copse_id_visitor visit, void *user)
{
    float c[2];
    overlap_shape s;
    if (circle == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 2, sphere_shape(&s, geo_v2_array(c, circle->center), circle->radius, 2), &s,
                       select, NULL, visit, user, overlap_sphere2);
}

copse_status copse_bvh_overlap_segment2(const copse_bvh *bvh, const copse_segment2 *segment,
                                        copse_bvh_select select, copse_id_list *out)
{
    float a[2], b[2];
    overlap_shape s;
    if (out == NULL || segment == NULL)
        return id_list_refuse(out);
    return run_overlap(bvh, 2, segment_shape(&s, geo_v2_array(a, segment->a), geo_v2_array(b, segment->b),
                       2), &s, select, out, NULL, NULL, overlap_segment2);
}

copse_status copse_bvh_visit_segment2(const copse_bvh *bvh, const copse_segment2 *segment,
                                      copse_bvh_select select, copse_id_visitor visit, void *user)
{
    float a[2], b[2];
    overlap_shape s;
    if (segment == NULL)
        return COPSE_ERR_NULL;
    return run_overlap(bvh, 2, segment_shape(&s, geo_v2_array(a, segment->a), geo_v2_array(b, segment->b),
                       2), &s, select, NULL, visit, user, overlap_segment2);
}

/* ---- rays: ordered traversal ------------------------------------------------------------------ */

typedef enum ray_mode { RAY_FIRST, RAY_SORTED, RAY_VISIT } ray_mode;

typedef struct ray_state {
    ray_mode mode;
    float t_max;          /* shrinks as hits make farther subtrees pointless */
    copse_hit best;       /* RAY_FIRST */
    copse_hit_list *list; /* RAY_SORTED */
    copse_hit_visitor visit;
    void *user;
    bool stop;
} ray_state;

COPSE_INLINE bool hit_before(const copse_hit *a, const copse_hit *b)
{
    return a->t < b->t || (a->t == b->t && a->id < b->id);
}

static void report_sorted(ray_state *s, const copse_hit *h)
{
    copse_hit_list *l = s->list;
    uint32_t i;
    if (l->count == l->capacity) {
        l->truncated = true;
        if (l->capacity == 0u) {
            s->stop = true; /* nothing can be kept: the flag is the whole answer */
            return;
        }
        if (hit_before(h, &l->hits[l->count - 1u]))
            l->count--; /* the farthest gives way */
    }
    if (l->count < l->capacity) {
        for (i = l->count; i > 0u && hit_before(h, &l->hits[i - 1u]); i--)
            l->hits[i] = l->hits[i - 1u];
        l->hits[i] = *h;
        l->count++;
    }
    /* Farther hits can no longer matter, but only once one has been seen: until then
     * `truncated` is not settled. */
    if (l->truncated)
        s->t_max = l->hits[l->count - 1u].t;
}

COPSE_INLINE void report_hit(ray_state *s, const copse_hit *h)
{
    if (s->mode == RAY_FIRST) {
        if (hit_before(h, &s->best)) {
            s->best = *h;
            s->t_max = h->t;
        }
    } else if (s->mode == RAY_SORTED) {
        report_sorted(s, h);
    } else if (!s->visit(s->user, h)) {
        s->stop = true;
    }
}

COPSE_INLINE bool ray_vs_prim(const copse_bvh *t, const geo_ray *r, uint32_t prim, float t_max, copse_hit *h,
                              unsigned dim)
{
    if (t->kind == COPSE_BVH_PRIM_TRIANGLES) {
        float buf[3][3];
        const float *v[3];
        bvh_triangle(t, prim, v, buf, dim);
        if (dim == 3)
            return geo_ray_triangle(r, v[0], v[1], v[2], t_max, &h->t, &h->u, &h->v);
        return copse_geo_ray_triangle2(r, v[0], v[1], v[2], t_max, &h->t, &h->u, &h->v);
    }
    {
        const float *box = bvh_box(t, prim, dim);
        h->u = h->v = 0.0f;
        return geo_ray_box(r, box, box + dim, 0.0f, t_max, dim, false, &h->t);
    }
}

COPSE_INLINE void ray_walk(const copse_bvh *t, const geo_ray *r, ray_state *s, unsigned dim)
{
    const void *nodes = t->nodes;
    trav_entry stack[COPSE_BVH_MAX_DEPTH + 1u];
    uint32_t sp = 0, node = 0;
    float tn;

    if (t->node_count == 0 ||
        !geo_ray_node(r, bvh_node_min(nodes, 0, dim), s->t_max, dim, &tn))
        return;
    for (;;) {
        int32_t index = bvh_node_index(nodes, node, dim);
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(nodes, node, dim);
            for (k = 0; k < count; k++) {
                uint32_t prim = t->prims[(uint32_t)index + k];
                copse_hit h;
                if (ray_vs_prim(t, r, prim, s->t_max, &h, dim)) {
                    h.id = bvh_prim_id(t, prim);
                    report_hit(s, &h);
                    if (s->stop)
                        return;
                }
            }
        } else {
            uint32_t left = node + 1u;
            uint32_t right = bvh_node_right(nodes, node, dim);
            /* widened like the far planes: a box entered exactly at the best hit's t (a shared
             * corner, an equal triangle) is still visited, so ties go to the lower id */
            float t_cull = s->t_max * GEO_SLAB_WIDEN, tl, tr;
            bool hl = geo_ray_node(r, bvh_node_min(nodes, left, dim), t_cull, dim, &tl);
            bool hr = geo_ray_node(r, bvh_node_min(nodes, right, dim), t_cull, dim, &tr);
            if (ordered_descend(stack, &sp, &node, left, right, hl, hr, tl, tr))
                continue;
        }
        /* the next subtree that can still matter */
        if (!ordered_pop(stack, &sp, &node, s->t_max * GEO_SLAB_WIDEN))
            return;
    }
}

static void ray_walk3(const copse_bvh *t, const geo_ray *r, ray_state *s)
{
    ray_walk(t, r, s, 3);
}

static void ray_walk2(const copse_bvh *t, const geo_ray *r, ray_state *s)
{
    ray_walk(t, r, s, 2);
}

COPSE_INLINE copse_status run_ray_d(const copse_bvh *bvh, unsigned dim, const float *org, const float *dir,
                                    float t_max, ray_state *s)
{
    geo_ray r;
    copse_status st = check_tree(bvh, dim);
    unsigned a;
    bool moving = false;
    if (st != COPSE_OK)
        return st;
    if (!finite_n(org, dim) || !finite_n(dir, dim))
        return COPSE_ERR_NONFINITE;
    if ((st = check_t_max(t_max)) != COPSE_OK)
        return st;
    for (a = 0; a < dim; a++)
        moving = moving || dir[a] != 0.0f;
    if (!moving)
        return COPSE_ERR_PARAM;
    geo_ray_init(&r, org, dir, t_max, dim);
    s->t_max = t_max;
    s->stop = false;
    if (dim == 3)
        ray_walk3(bvh, &r, s);
    else
        ray_walk2(bvh, &r, s);
    return COPSE_OK;
}

/* One copy per dimension, shared by that dimension's entry points: a program using only 3D (or
 * only 2D) rays links only that dimension's walk (--gc-sections). */
static copse_status run_ray3(const copse_bvh *bvh, const float *org, const float *dir, float t_max, ray_state *s)
{
    return run_ray_d(bvh, 3, org, dir, t_max, s);
}

static copse_status run_ray2(const copse_bvh *bvh, const float *org, const float *dir, float t_max, ray_state *s)
{
    return run_ray_d(bvh, 2, org, dir, t_max, s);
}

COPSE_INLINE copse_status run_ray(const copse_bvh *bvh, unsigned dim, const float *org, const float *dir,
                                  float t_max, ray_state *s)
{
    return dim == 3 ? run_ray3(bvh, org, dir, t_max, s) : run_ray2(bvh, org, dir, t_max, s);
}

static void miss(copse_hit *hit)
{
    hit->t = FLT_MAX;
    hit->id = COPSE_NONE;
    hit->u = hit->v = 0.0f;
}

COPSE_INLINE copse_status raycast(const copse_bvh *bvh, unsigned dim, const float *org, const float *dir,
                                  float t_max, copse_hit *hit)
{
    ray_state s;
    copse_status st;
    if (hit == NULL)
        return COPSE_ERR_NULL;
    s.mode = RAY_FIRST;
    miss(&s.best);
    s.best.t = t_max;
    st = run_ray(bvh, dim, org, dir, t_max, &s);
    if (st != COPSE_OK || s.best.id == COPSE_NONE)
        miss(&s.best);
    *hit = s.best;
    return st;
}

COPSE_INLINE copse_status raycast_all(const copse_bvh *bvh, unsigned dim, const float *org, const float *dir,
                                      float t_max, copse_hit_list *out)
{
    ray_state s;
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->count = 0;
    out->truncated = false;
    if (out->hits == NULL && out->capacity > 0)
        return COPSE_ERR_NULL;
    s.mode = RAY_SORTED;
    s.list = out;
    return run_ray(bvh, dim, org, dir, t_max, &s);
}

COPSE_INLINE copse_status visit_ray(const copse_bvh *bvh, unsigned dim, const float *org, const float *dir,
                                    float t_max, copse_hit_visitor visit, void *user)
{
    ray_state s;
    if (visit == NULL)
        return COPSE_ERR_NULL;
    s.mode = RAY_VISIT;
    s.visit = visit;
    s.user = user;
    return run_ray(bvh, dim, org, dir, t_max, &s);
}

copse_status copse_bvh_raycast(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit *hit)
{
    float org[3], dir[3];
    if (ray == NULL) {
        if (hit != NULL)
            miss(hit);
        return COPSE_ERR_NULL;
    }
    return raycast(bvh, 3, geo_v3_array(org, ray->origin), geo_v3_array(dir, ray->dir), ray->t_max, hit);
}

copse_status copse_bvh_raycast_all(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit_list *out)
{
    float org[3], dir[3];
    if (ray == NULL)
        return COPSE_ERR_NULL;
    return raycast_all(bvh, 3, geo_v3_array(org, ray->origin), geo_v3_array(dir, ray->dir), ray->t_max, out);
}

copse_status copse_bvh_visit_ray(const copse_bvh *bvh, const copse_ray3 *ray, copse_hit_visitor visit, void *user)
{
    float org[3], dir[3];
    if (ray == NULL)
        return COPSE_ERR_NULL;
    return visit_ray(bvh, 3, geo_v3_array(org, ray->origin), geo_v3_array(dir, ray->dir), ray->t_max, visit, user);
}

copse_status copse_bvh_raycast2(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit *hit)
{
    float org[2], dir[2];
    if (ray == NULL) {
        if (hit != NULL)
            miss(hit);
        return COPSE_ERR_NULL;
    }
    return raycast(bvh, 2, geo_v2_array(org, ray->origin), geo_v2_array(dir, ray->dir), ray->t_max, hit);
}

copse_status copse_bvh_raycast2_all(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit_list *out)
{
    float org[2], dir[2];
    if (ray == NULL)
        return COPSE_ERR_NULL;
    return raycast_all(bvh, 2, geo_v2_array(org, ray->origin), geo_v2_array(dir, ray->dir), ray->t_max, out);
}

copse_status copse_bvh_visit_ray2(const copse_bvh *bvh, const copse_ray2 *ray, copse_hit_visitor visit, void *user)
{
    float org[2], dir[2];
    if (ray == NULL)
        return COPSE_ERR_NULL;
    return visit_ray(bvh, 2, geo_v2_array(org, ray->origin), geo_v2_array(dir, ray->dir), ray->t_max, visit, user);
}

/* ---- nearest: ordered by box distance --------------------------------------------------------- */

typedef struct near_state {
    float p[3];
    float best_d2;
    uint32_t best_id;
    float best_point[3];
    bool vertices; /* nearest mesh vertex instead of nearest point on a primitive */
    float scale;   /* 1, or NEAR_FAR_SCALE: every coordinate multiplied by it (the far pass) */
} near_state;

/* The far pass's scale: 2^-100 brings any difference of floats (< 2^129) below 2^29, so
 * squared distances, and the triangle routine's products of four lengths, stay finite; a
 * nearest distance past sqrt(FLT_MAX) scales to more than 1e-11, far above the underflow. */
#define NEAR_FAR_SCALE 7.88860905e-31f /* 2^-100 */

/* v[0..n) as this pass sees it: itself, or scaled copies in buf. */
COPSE_INLINE const float *near_coords(const near_state *s, const float *v, float *buf, unsigned n)
{
    unsigned k;
    if (s->scale == 1.0f)
        return v;
    for (k = 0; k < n; k++)
        buf[k] = v[k] * s->scale;
    return buf;
}

COPSE_INLINE float near_box_d2(const near_state *s, const float *mn, const float *mx, unsigned dim)
{
    float bmn[3], bmx[3];
    return geo_box_dist_sq(s->p, near_coords(s, mn, bmn, dim), near_coords(s, mx, bmx, dim), dim);
}

COPSE_INLINE void near_offer(near_state *s, float d2, uint32_t id, const float *point)
{
    if (d2 < s->best_d2 || (d2 == s->best_d2 && id < s->best_id)) {
        s->best_d2 = d2;
        s->best_id = id;
        s->best_point[0] = point[0];
        s->best_point[1] = point[1];
        s->best_point[2] = point[2];
    }
}

COPSE_INLINE void near_leaf_prim(const copse_bvh *t, near_state *s, uint32_t prim, unsigned dim)
{
    float q[3] = { 0.0f, 0.0f, 0.0f };
    if (t->kind == COPSE_BVH_PRIM_TRIANGLES) {
        if (s->vertices) {
            uint32_t idx[3], k;
            bvh_mesh_triangle(&t->mesh, prim, idx);
            for (k = 0; k < 3; k++) {
                float w[3];
                bvh_vertex(t, idx[k], w, dim);
                near_offer(s, geo_dist_sq3(near_coords(s, w, q, 3), s->p), idx[k], w);
            }
        } else {
            float buf[3][3], sbuf[3][3];
            const float *v[3];
            unsigned k;
            bvh_triangle(t, prim, v, buf, dim);
            for (k = 0; k < 3; k++)
                v[k] = near_coords(s, v[k], sbuf[k], 3);
            if (dim == 2 && copse_geo_point_in_triangle2(s->p, v[0], v[1], v[2]))
                near_offer(s, 0.0f, prim, s->p); /* inside: exactly 0, so containing triangles tie */
            else
                near_offer(s, copse_geo_point_triangle(s->p, v, q), prim, q);
        }
    } else {
        float bmn[3], bmx[3];
        const float *box = bvh_box(t, prim, dim);
        const float *mn = near_coords(s, box, bmn, dim), *mx = near_coords(s, box + dim, bmx, dim);
        geo_box_closest(q, s->p, mn, mx, dim);
        near_offer(s, geo_box_dist_sq(s->p, mn, mx, dim), bvh_prim_id(t, prim), q);
    }
}

COPSE_INLINE void near_walk(const copse_bvh *t, near_state *s, unsigned dim)
{
    const void *nodes = t->nodes;
    trav_entry stack[COPSE_BVH_MAX_DEPTH + 1u];
    uint32_t sp = 0, node = 0;

    if (t->node_count == 0 || near_box_d2(s, bvh_node_min(nodes, 0, dim), bvh_node_max(nodes, 0, dim), dim) > s->best_d2)
        return;
    for (;;) {
        int32_t index = bvh_node_index(nodes, node, dim);
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(nodes, node, dim);
            for (k = 0; k < count; k++)
                near_leaf_prim(t, s, t->prims[(uint32_t)index + k], dim);
        } else {
            uint32_t left = node + 1u;
            uint32_t right = bvh_node_right(nodes, node, dim);
            float dl = near_box_d2(s, bvh_node_min(nodes, left, dim), bvh_node_max(nodes, left, dim), dim);
            float dr = near_box_d2(s, bvh_node_min(nodes, right, dim), bvh_node_max(nodes, right, dim), dim);
            if (ordered_descend(stack, &sp, &node, left, right, dl <= s->best_d2, dr <= s->best_d2, dl, dr))
                continue;
        }
        if (!ordered_pop(stack, &sp, &node, s->best_d2))
            return;
    }
}

static void near_walk3(const copse_bvh *t, near_state *s)
{
    near_walk(t, s, 3);
}

static void near_walk2(const copse_bvh *t, near_state *s)
{
    near_walk(t, s, 2);
}

/* Inlined with a constant dim, like run_ray. */
COPSE_INLINE copse_status nearest(const copse_bvh *bvh, unsigned dim, const float *p, float max_distance,
                                  bool vertices, near_state *s)
{
    copse_status st = check_tree(bvh, dim);
    unsigned a;
    s->best_d2 = FLT_MAX;
    s->best_id = COPSE_NONE;
    for (a = 0; a < 3; a++)
        s->p[a] = s->best_point[a] = (a < dim && p != NULL) ? p[a] : 0.0f;
    if (st != COPSE_OK)
        return st;
    if (!finite_n(p, dim) || max_distance != max_distance)
        return COPSE_ERR_NONFINITE;
    if (max_distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (vertices && bvh->kind != COPSE_BVH_PRIM_TRIANGLES && bvh->dim != 0)
        return COPSE_ERR_KIND;
    /* FLT_MAX squared is +infinity: every finite distance is in range */
    s->best_d2 = max_distance * max_distance;
    s->vertices = vertices;
    s->scale = 1.0f;
    if (dim == 3)
        near_walk3(bvh, s);
    else
        near_walk2(bvh, s);
    if (s->best_id != COPSE_NONE && !geo_finite(s->best_d2)) {
        /* the nearest squared distance overflowed (every candidate tied at +inf): again, with
         * every coordinate scaled down, which ranks them; the distance scales back to +inf */
        s->scale = NEAR_FAR_SCALE;
        for (a = 0; a < 3; a++)
            s->p[a] *= NEAR_FAR_SCALE;
        s->best_id = COPSE_NONE;
        s->best_d2 = (max_distance * NEAR_FAR_SCALE) * (max_distance * NEAR_FAR_SCALE);
        if (dim == 3)
            near_walk3(bvh, s);
        else
            near_walk2(bvh, s);
        for (a = 0; a < 3; a++) {
            s->p[a] = a < dim ? p[a] : 0.0f;
            if (!s->vertices && s->best_id != COPSE_NONE)
                s->best_point[a] /= NEAR_FAR_SCALE; /* exact: a power of two, no overflow (it was a float) */
        }
        s->best_d2 = s->best_d2 / NEAR_FAR_SCALE / NEAR_FAR_SCALE; /* +inf past float range */
    }
    if (s->best_id == COPSE_NONE)
        s->best_d2 = FLT_MAX;
    return COPSE_OK;
}

static copse_status nearest3(const copse_bvh *bvh, copse_vec3 point, float max_distance, bool vertices,
                             copse_nearest3 *out)
{
    float p[3];
    near_state s;
    copse_status st;
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = nearest(bvh, 3, geo_v3_array(p, point), max_distance, vertices, &s);
    out->distance_sq = s.best_d2;
    out->id = s.best_id;
    out->point = copse_v3(s.best_point[0], s.best_point[1], s.best_point[2]);
    return st;
}

copse_status copse_bvh_nearest(const copse_bvh *bvh, copse_vec3 point, float max_distance, copse_nearest3 *out)
{
    return nearest3(bvh, point, max_distance, false, out);
}

copse_status copse_bvh_nearest_vertex(const copse_bvh *bvh, copse_vec3 point, float max_distance,
                                      copse_nearest3 *out)
{
    return nearest3(bvh, point, max_distance, true, out);
}

copse_status copse_bvh_nearest2(const copse_bvh *bvh, copse_vec2 point, float max_distance, copse_nearest2 *out)
{
    float p[2];
    near_state s;
    copse_status st;
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = nearest(bvh, 2, geo_v2_array(p, point), max_distance, false, &s);
    out->distance_sq = s.best_d2;
    out->id = s.best_id;
    out->point = copse_v2(s.best_point[0], s.best_point[1]);
    return st;
}

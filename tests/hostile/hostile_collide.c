/* SPDX-License-Identifier: MIT */
/* Hostile cases: collide.h (posed shapes and meshes against a BVH and a point octree). */
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

#define COLLIDE_STATUS HZ_QUERY

/* ---- one signature per query form, whatever the shape ------------------------------------------- */

typedef copse_status (*any_bvh_fn)(const copse_bvh *, const void *, const copse_pose *, uint32_t *);
typedef copse_status (*list_bvh_fn)(const copse_bvh *, const void *, const copse_pose *, copse_id_list *);
typedef copse_status (*visit_bvh_fn)(const copse_bvh *, const void *, const copse_pose *, copse_id_visitor, void *);
typedef copse_status (*dist_bvh_fn)(const void *, const copse_pose *, const copse_bvh *, const copse_distance_query *,
                                    copse_distance *);
typedef copse_status (*sweep_bvh_fn)(const void *, const copse_pose *, copse_vec3, const copse_bvh *,
                                     copse_sweep_hit *);
typedef copse_status (*any_oct_fn)(const copse_octree *, const void *, const copse_pose *, uint32_t *);
typedef copse_status (*list_oct_fn)(const copse_octree *, const void *, const copse_pose *, copse_id_list *);
typedef copse_status (*visit_oct_fn)(const copse_octree *, const void *, const copse_pose *, copse_id_visitor,
                                     void *);
typedef copse_status (*dist_oct_fn)(const void *, const copse_pose *, const copse_octree *,
                                    const copse_distance_query *, copse_distance *);
typedef copse_status (*sweep_oct_fn)(const void *, const copse_pose *, copse_vec3, const copse_octree *,
                                     copse_sweep_hit *);

#define W_ANY(fn, TREE, T)                                                                      \
    static copse_status w_##fn(const TREE *t, const void *s, const copse_pose *p, uint32_t *id) \
    {                                                                                           \
        HZ(fn);                                                                                 \
        return fn(t, (const T *)s, p, id);                                                      \
    }
#define W_LIST(fn, TREE, T)                                                                          \
    static copse_status w_##fn(const TREE *t, const void *s, const copse_pose *p, copse_id_list *out) \
    {                                                                                                \
        HZ(fn);                                                                                      \
        return fn(t, (const T *)s, p, out);                                                          \
    }
#define W_VISIT(fn, TREE, T)                                                                                  \
    static copse_status w_##fn(const TREE *t, const void *s, const copse_pose *p, copse_id_visitor v, void *u) \
    {                                                                                                         \
        HZ(fn);                                                                                               \
        return fn(t, (const T *)s, p, v, u);                                                                  \
    }
#define W_DIST(fn, TREE, T)                                                                         \
    static copse_status w_##fn(const void *s, const copse_pose *p, const TREE *t,                   \
                               const copse_distance_query *q, copse_distance *out)                  \
    {                                                                                               \
        HZ(fn);                                                                                     \
        return fn((const T *)s, p, t, q, out);                                                      \
    }
#define W_SWEEP(fn, TREE, T)                                                                            \
    static copse_status w_##fn(const void *s, const copse_pose *p, copse_vec3 m, const TREE *t,         \
                               copse_sweep_hit *hit)                                                    \
    {                                                                                                   \
        HZ(fn);                                                                                         \
        return fn((const T *)s, p, m, t, hit);                                                          \
    }

W_ANY(copse_bvh_any_sphere, copse_bvh, copse_sphere)
W_ANY(copse_bvh_any_capsule, copse_bvh, copse_capsule)
W_ANY(copse_bvh_any_obb, copse_bvh, copse_obb)
W_ANY(copse_bvh_any_triangle, copse_bvh, copse_triangle)
W_ANY(copse_bvh_any_convex, copse_bvh, copse_convex)
W_LIST(copse_bvh_overlap_capsule, copse_bvh, copse_capsule)
W_LIST(copse_bvh_overlap_obb, copse_bvh, copse_obb)
W_LIST(copse_bvh_overlap_triangle, copse_bvh, copse_triangle)
W_LIST(copse_bvh_overlap_convex, copse_bvh, copse_convex)
W_VISIT(copse_bvh_visit_capsule, copse_bvh, copse_capsule)
W_VISIT(copse_bvh_visit_obb, copse_bvh, copse_obb)
W_VISIT(copse_bvh_visit_triangle, copse_bvh, copse_triangle)
W_VISIT(copse_bvh_visit_convex, copse_bvh, copse_convex)
W_DIST(copse_distance_sphere_bvh, copse_bvh, copse_sphere)
W_DIST(copse_distance_capsule_bvh, copse_bvh, copse_capsule)
W_DIST(copse_distance_obb_bvh, copse_bvh, copse_obb)
W_DIST(copse_distance_triangle_bvh, copse_bvh, copse_triangle)
W_DIST(copse_distance_convex_bvh, copse_bvh, copse_convex)
W_SWEEP(copse_sweep_sphere_bvh, copse_bvh, copse_sphere)
W_SWEEP(copse_sweep_capsule_bvh, copse_bvh, copse_capsule)
W_SWEEP(copse_sweep_obb_bvh, copse_bvh, copse_obb)
W_ANY(copse_octree_any_sphere, copse_octree, copse_sphere)
W_ANY(copse_octree_any_capsule, copse_octree, copse_capsule)
W_ANY(copse_octree_any_obb, copse_octree, copse_obb)
W_ANY(copse_octree_any_triangle, copse_octree, copse_triangle)
W_ANY(copse_octree_any_convex, copse_octree, copse_convex)
W_LIST(copse_octree_overlap_obb, copse_octree, copse_obb)
W_LIST(copse_octree_overlap_triangle, copse_octree, copse_triangle)
W_LIST(copse_octree_overlap_convex, copse_octree, copse_convex)
W_VISIT(copse_octree_visit_obb, copse_octree, copse_obb)
W_VISIT(copse_octree_visit_triangle, copse_octree, copse_triangle)
W_VISIT(copse_octree_visit_convex, copse_octree, copse_convex)
W_DIST(copse_distance_sphere_octree, copse_octree, copse_sphere)
W_DIST(copse_distance_capsule_octree, copse_octree, copse_capsule)
W_DIST(copse_distance_obb_octree, copse_octree, copse_obb)
W_DIST(copse_distance_triangle_octree, copse_octree, copse_triangle)
W_DIST(copse_distance_convex_octree, copse_octree, copse_convex)
W_SWEEP(copse_sweep_sphere_octree, copse_octree, copse_sphere)
W_SWEEP(copse_sweep_capsule_octree, copse_octree, copse_capsule)
W_SWEEP(copse_sweep_obb_octree, copse_octree, copse_obb)

typedef struct shape_ops {
    const void *shape;
    size_t bytes; /* its floats (a convex: none; its points are mutated instead) */
    any_bvh_fn any_bvh;
    list_bvh_fn list_bvh;
    visit_bvh_fn visit_bvh;
    dist_bvh_fn dist_bvh;
    sweep_bvh_fn sweep_bvh;
    any_oct_fn any_oct;
    list_oct_fn list_oct;
    visit_oct_fn visit_oct;
    dist_oct_fn dist_oct;
    sweep_oct_fn sweep_oct;
} shape_ops;

/* ---- the checks of one call of each form ---------------------------------------------------------- */

static void dist_ok(copse_status st, const copse_distance *d)
{
    HZ_EXPECT(st, COLLIDE_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(d->distance == FLT_MAX && d->tree_id == COPSE_NONE && d->shape_id == COPSE_NONE);
    else
        HZ_CHECK((d->distance == FLT_MAX) == (d->tree_id == COPSE_NONE) && !(d->distance < 0.0f));
}

static void sweep_ok(copse_status st, const copse_sweep_hit *h)
{
    HZ_EXPECT(st, COLLIDE_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(h->id == COPSE_NONE && h->t == 1.0f && !h->started_in_contact);
    else
        HZ_CHECK(h->t >= 0.0f && h->t <= 1.0f);
}

typedef struct call_ctx {
    const shape_ops *o;
    const copse_bvh *bvh;
    const copse_octree *oct;
    const copse_pose *pose;
    const copse_distance_query *query;
    copse_vec3 motion;
} call_ctx;

/* Every form of the shape against the BVH or the octree, the lists at capacities 0, 1 and full. */
static void calls(const call_ctx *c, const void *shape)
{
    const shape_ops *o = c->o;
    copse_status st, sl, s0, sv;
    uint32_t id;
    copse_distance d;
    copse_sweep_hit h;
    unsigned n = 0;
    copse_id_list full = hz_ids(64), c0 = hz_ids(0);
    id = 0x5A5A5A5Au;
    memset(&d, 0x5A, sizeof d);
    memset(&h, 0x5A, sizeof h);
    if (c->bvh != NULL) {
        st = o->any_bvh(c->bvh, shape, c->pose, &id);
        HZ_EXPECT(st, COLLIDE_STATUS);
        HZ_CHECK(st == COPSE_OK || id == COPSE_NONE);
        if (o->list_bvh != NULL) {
            sl = o->list_bvh(c->bvh, shape, c->pose, &full);
            s0 = o->list_bvh(c->bvh, shape, c->pose, &c0);
            sv = o->visit_bvh(c->bvh, shape, c->pose, hz_count_id, &n);
            HZ_CHECK(sl == st && s0 == st && sv == st);
            hz_ids_ok(&full, sl);
            hz_ids_ok(&c0, s0);
            if (st == COPSE_OK)
                HZ_CHECK(full.count == n && (id != COPSE_NONE) == (full.count > 0u) && c0.count == 0u);
        }
        dist_ok(o->dist_bvh(shape, c->pose, c->bvh, c->query, &d), &d);
        if (o->sweep_bvh != NULL)
            sweep_ok(o->sweep_bvh(shape, c->pose, c->motion, c->bvh, &h), &h);
    } else {
        st = o->any_oct(c->oct, shape, c->pose, &id);
        HZ_EXPECT(st, COLLIDE_STATUS);
        HZ_CHECK(st == COPSE_OK || id == COPSE_NONE);
        if (o->list_oct != NULL) {
            sl = o->list_oct(c->oct, shape, c->pose, &full);
            s0 = o->list_oct(c->oct, shape, c->pose, &c0);
            sv = o->visit_oct(c->oct, shape, c->pose, hz_count_id, &n);
            HZ_CHECK(sl == st && s0 == st && sv == st);
            hz_ids_ok(&full, sl);
            hz_ids_ok(&c0, s0);
            if (st == COPSE_OK)
                HZ_CHECK(full.count == n && (id != COPSE_NONE) == (full.count > 0u));
        }
        dist_ok(o->dist_oct(shape, c->pose, c->oct, c->query, &d), &d);
        if (o->sweep_oct != NULL)
            sweep_ok(o->sweep_oct(shape, c->pose, c->motion, c->oct, &h), &h);
    }
    hz_guards();
}

static const call_ctx *g_call;

static void shape_mutant(void *ctx, const void *m)
{
    (void)ctx;
    calls(g_call, m);
}

/* A convex over mutated points. */
static void convex_mutant(void *ctx, const void *m)
{
    copse_convex cv;
    (void)ctx;
    cv.points = (const copse_vec3 *)m;
    cv.count = 4;
    calls(g_call, &cv);
}

static const void *g_base_shape;

static void pose_mutant(void *ctx, const void *m)
{
    call_ctx c = *g_call;
    (void)ctx;
    c.pose = (const copse_pose *)m;
    calls(&c, g_base_shape);
}

static void query_mutant(void *ctx, const void *m)
{
    call_ctx c = *g_call;
    copse_distance_query q;
    unsigned k;
    (void)ctx;
    memcpy(&q, m, 3u * sizeof(float));
    for (k = 0; k < 2u; k++) {
        q.first_within = k == 1u;
        c.query = &q;
        calls(&c, g_base_shape);
    }
}

static void motion_mutant(void *ctx, const void *m)
{
    call_ctx c = *g_call;
    (void)ctx;
    memcpy(&c.motion, m, sizeof c.motion);
    calls(&c, g_base_shape);
}

static copse_status again_bvh(hz_re *r)
{
    const shape_ops *o = (const shape_ops *)r->c;
    return o->visit_bvh((const copse_bvh *)r->a, r->b, NULL, hz_re_id, r);
}

static copse_status again_oct(hz_re *r)
{
    const shape_ops *o = (const shape_ops *)r->c;
    return o->visit_oct((const copse_octree *)r->a, r->b, NULL, hz_re_id, r);
}

static void shape_family(const hz_fix *f, const shape_ops *o, const copse_vec3 *hull_points)
{
    copse_bvh zero;
    copse_octree zoct;
    copse_pose pose;
    copse_distance d;
    copse_sweep_hit h;
    copse_id_list l;
    uint32_t id;
    unsigned g, side, n;
    uint8_t garbage[128];
    call_ctx c;
    hz_re re;
    const copse_distance_query defq = COPSE_DISTANCE_QUERY_DEFAULT;
    memset(&zero, 0, sizeof zero);
    memset(&zoct, 0, sizeof zoct);
    (void)copse_pose_from_xyz_rpy(&pose, copse_v3(0.5f, 0.25f, 0.5f), copse_v3(0.1f, -0.2f, 0.3f));
    /* NULLs */
    HZ_IS(o->any_bvh(NULL, o->shape, NULL, &id), COPSE_ERR_NULL);
    HZ_CHECK(id == COPSE_NONE);
    HZ_IS(o->any_bvh(&f->mesh3, NULL, NULL, &id), COPSE_ERR_NULL);
    HZ_IS(o->any_bvh(&f->mesh3, o->shape, NULL, NULL), COPSE_ERR_NULL);
    HZ_IS(o->any_oct(NULL, o->shape, NULL, &id), COPSE_ERR_NULL);
    HZ_IS(o->any_oct(&f->oct, NULL, NULL, &id), COPSE_ERR_NULL);
    HZ_IS(o->any_oct(&f->oct, o->shape, NULL, NULL), COPSE_ERR_NULL);
    memset(&d, 0x5A, sizeof d);
    HZ_IS(o->dist_bvh(NULL, NULL, &f->mesh3, NULL, &d), COPSE_ERR_NULL);
    dist_ok(COPSE_ERR_NULL, &d);
    HZ_IS(o->dist_bvh(o->shape, NULL, NULL, NULL, &d), COPSE_ERR_NULL);
    HZ_IS(o->dist_bvh(o->shape, NULL, &f->mesh3, NULL, NULL), COPSE_ERR_NULL);
    HZ_IS(o->dist_oct(o->shape, NULL, NULL, NULL, &d), COPSE_ERR_NULL);
    HZ_IS(o->dist_oct(NULL, NULL, &f->oct, NULL, &d), COPSE_ERR_NULL);
    HZ_IS(o->dist_oct(o->shape, NULL, &f->oct, NULL, NULL), COPSE_ERR_NULL);
    if (o->list_bvh != NULL) {
        l = hz_ids(4);
        HZ_IS(o->list_bvh(&f->mesh3, NULL, NULL, &l), COPSE_ERR_NULL);
        hz_ids_ok(&l, COPSE_ERR_NULL);
        HZ_IS(o->list_bvh(&f->mesh3, o->shape, NULL, NULL), COPSE_ERR_NULL);
        l = copse_id_list_make(NULL, 2);
        HZ_IS(o->list_bvh(&f->mesh3, o->shape, NULL, &l), COPSE_ERR_NULL);
        HZ_IS(o->visit_bvh(&f->mesh3, o->shape, NULL, NULL, NULL), COPSE_ERR_NULL);
    }
    if (o->list_oct != NULL) {
        l = hz_ids(4);
        HZ_IS(o->list_oct(NULL, o->shape, NULL, &l), COPSE_ERR_NULL);
        hz_ids_ok(&l, COPSE_ERR_NULL);
        HZ_IS(o->visit_oct(&f->oct, o->shape, NULL, NULL, NULL), COPSE_ERR_NULL);
    }
    if (o->sweep_bvh != NULL) {
        memset(&h, 0x5A, sizeof h);
        HZ_IS(o->sweep_bvh(NULL, NULL, copse_v3(1, 0, 0), &f->mesh3, &h), COPSE_ERR_NULL);
        sweep_ok(COPSE_ERR_NULL, &h);
        HZ_IS(o->sweep_bvh(o->shape, NULL, copse_v3(1, 0, 0), NULL, &h), COPSE_ERR_NULL);
        HZ_IS(o->sweep_bvh(o->shape, NULL, copse_v3(1, 0, 0), &f->mesh3, NULL), COPSE_ERR_NULL);
        HZ_IS(o->sweep_oct(o->shape, NULL, copse_v3(1, 0, 0), NULL, &h), COPSE_ERR_NULL);
        HZ_IS(o->sweep_oct(NULL, NULL, copse_v3(1, 0, 0), &f->oct, &h), COPSE_ERR_NULL);
    }
    hz_guards();
    /* trees: zeroed (empty), the other dimension, boxes instead of triangles */
    memset(&c, 0, sizeof c);
    c.o = o;
    c.motion = copse_v3(1.0f, 0.5f, 0.0f);
    c.bvh = &zero;
    calls(&c, o->shape);
    c.bvh = &f->mesh2;
    HZ_IS(o->any_bvh(&f->mesh2, o->shape, NULL, &id), COPSE_ERR_DIMENSION);
    HZ_IS(o->any_bvh(&f->boxes3, o->shape, NULL, &id), COPSE_ERR_KIND);
    HZ_IS(o->dist_bvh(o->shape, NULL, &f->boxes3, NULL, &d), COPSE_ERR_KIND);
    c.bvh = NULL;
    c.oct = &zoct;
    calls(&c, o->shape);
    /* every field of the shape, the pose, the query and the motion, against both trees */
    for (side = 0; side < 2u; side++) {
        c.bvh = side == 0u ? &f->mesh3 : NULL;
        c.oct = side == 1u ? &f->oct : NULL;
        c.pose = NULL;
        c.query = NULL;
        calls(&c, o->shape);
        c.pose = &pose;
        calls(&c, o->shape);
        g_call = &c;
        g_base_shape = o->shape;
        if (o->bytes > 0u)
            hz_mutate(o->shape, o->bytes, shape_mutant, NULL);
        else
            hz_mutate(hull_points, 4u * sizeof(copse_vec3), convex_mutant, NULL);
        for (g = 0; g < HZ_NGARBAGE && o->bytes > 0u; g++) {
            hz_garbage(garbage, o->bytes, g);
            calls(&c, garbage);
        }
        hz_mutate(&pose, sizeof pose, pose_mutant, NULL);
        hz_mutate(&defq, 3u * sizeof(float), query_mutant, NULL);
        if (o->sweep_bvh != NULL) {
            const copse_vec3 mv = c.motion;
            hz_mutate(&mv, sizeof mv, motion_mutant, NULL);
        }
    }
    /* visitors: stop at once, call the query again */
    if (o->visit_bvh != NULL) {
        n = 0;
        HZ_IS(o->visit_bvh(&f->mesh3, o->shape, NULL, hz_stop_id, &n), COPSE_OK);
        HZ_CHECK(n <= 1u);
        memset(&re, 0, sizeof re);
        re.call = again_bvh;
        re.a = &f->mesh3;
        re.b = o->shape;
        re.c = o;
        hz_reenter(&re);
    }
    if (o->visit_oct != NULL) {
        n = 0;
        HZ_IS(o->visit_oct(&f->oct, o->shape, NULL, hz_stop_id, &n), COPSE_OK);
        HZ_CHECK(n <= 1u);
        memset(&re, 0, sizeof re);
        re.call = again_oct;
        re.a = &f->oct;
        re.b = o->shape;
        re.c = o;
        hz_reenter(&re);
    }
}

static void shape_cases(const hz_fix *f)
{
    const copse_sphere sphere = {{1.0f, 0.25f, 0.5f}, 0.75f};
    const copse_capsule capsule = {{{0.5f, 0.25f, 0.5f}, {2.5f, 0.3f, 0.6f}}, 0.5f};
    static const copse_vec3 hull[4] = {{0.5f, 0.0f, 0.5f}, {1.5f, 0.2f, 0.5f}, {1.0f, 0.8f, 0.9f}, {1.0f, 0.1f, 1.4f}};
    const copse_triangle tri = {{0.2f, 0.1f, 0.2f}, {1.5f, 0.2f, 0.4f}, {0.6f, 0.9f, 1.2f}};
    const copse_convex convex = {hull, 4u};
    copse_obb obb;
    const copse_box3 box = copse_box3_make(0.5f, 0.0f, 0.5f, 1.5f, 0.6f, 1.5f);
    shape_ops o;
    (void)copse_obb_from_box(&obb, &box, NULL);
    memset(&o, 0, sizeof o);
    o.shape = &sphere, o.bytes = sizeof sphere;
    o.any_bvh = w_copse_bvh_any_sphere, o.dist_bvh = w_copse_distance_sphere_bvh, o.sweep_bvh = w_copse_sweep_sphere_bvh;
    o.any_oct = w_copse_octree_any_sphere, o.dist_oct = w_copse_distance_sphere_octree,
    o.sweep_oct = w_copse_sweep_sphere_octree;
    shape_family(f, &o, NULL);
    memset(&o, 0, sizeof o);
    o.shape = &capsule, o.bytes = sizeof capsule;
    o.any_bvh = w_copse_bvh_any_capsule, o.list_bvh = w_copse_bvh_overlap_capsule,
    o.visit_bvh = w_copse_bvh_visit_capsule, o.dist_bvh = w_copse_distance_capsule_bvh,
    o.sweep_bvh = w_copse_sweep_capsule_bvh;
    o.any_oct = w_copse_octree_any_capsule, o.dist_oct = w_copse_distance_capsule_octree,
    o.sweep_oct = w_copse_sweep_capsule_octree;
    shape_family(f, &o, NULL);
    memset(&o, 0, sizeof o);
    o.shape = &obb, o.bytes = sizeof obb;
    o.any_bvh = w_copse_bvh_any_obb, o.list_bvh = w_copse_bvh_overlap_obb, o.visit_bvh = w_copse_bvh_visit_obb,
    o.dist_bvh = w_copse_distance_obb_bvh, o.sweep_bvh = w_copse_sweep_obb_bvh;
    o.any_oct = w_copse_octree_any_obb, o.list_oct = w_copse_octree_overlap_obb, o.visit_oct = w_copse_octree_visit_obb,
    o.dist_oct = w_copse_distance_obb_octree, o.sweep_oct = w_copse_sweep_obb_octree;
    shape_family(f, &o, NULL);
    memset(&o, 0, sizeof o);
    o.shape = &tri, o.bytes = sizeof tri;
    o.any_bvh = w_copse_bvh_any_triangle, o.list_bvh = w_copse_bvh_overlap_triangle,
    o.visit_bvh = w_copse_bvh_visit_triangle, o.dist_bvh = w_copse_distance_triangle_bvh;
    o.any_oct = w_copse_octree_any_triangle, o.list_oct = w_copse_octree_overlap_triangle,
    o.visit_oct = w_copse_octree_visit_triangle, o.dist_oct = w_copse_distance_triangle_octree;
    shape_family(f, &o, NULL);
    memset(&o, 0, sizeof o);
    o.shape = &convex, o.bytes = 0;
    o.any_bvh = w_copse_bvh_any_convex, o.list_bvh = w_copse_bvh_overlap_convex,
    o.visit_bvh = w_copse_bvh_visit_convex, o.dist_bvh = w_copse_distance_convex_bvh;
    o.any_oct = w_copse_octree_any_convex, o.list_oct = w_copse_octree_overlap_convex,
    o.visit_oct = w_copse_octree_visit_convex, o.dist_oct = w_copse_distance_convex_octree;
    shape_family(f, &o, hull);
    /* convex sets at their limits: 0 points, NULL points, COPSE_CONVEX_MAX_POINTS and one more */
    {
        /* malloc'd: calls() releases the guarded buffers */
        copse_vec3 *many = (copse_vec3 *)malloc(sizeof(copse_vec3) * (COPSE_CONVEX_MAX_POINTS + 1u));
        copse_convex cv;
        call_ctx c;
        uint32_t i, id;
        if (many == NULL)
            abort();
        for (i = 0; i <= COPSE_CONVEX_MAX_POINTS; i++)
            many[i] = copse_v3(0.5f + 0.001f * (float)i, 0.2f, 0.5f);
        memset(&c, 0, sizeof c);
        c.o = &o;
        cv.points = many;
        cv.count = COPSE_CONVEX_MAX_POINTS;
        c.bvh = &f->mesh3;
        calls(&c, &cv);
        c.bvh = NULL;
        c.oct = &f->oct;
        calls(&c, &cv);
        cv.count = COPSE_CONVEX_MAX_POINTS + 1u;
        HZ(copse_bvh_any_convex);
        HZ_IS(copse_bvh_any_convex(&f->mesh3, &cv, NULL, &id), COPSE_ERR_PARAM);
        HZ(copse_octree_any_convex);
        HZ_IS(copse_octree_any_convex(&f->oct, &cv, NULL, &id), COPSE_ERR_PARAM);
        cv.count = 0;
        HZ(copse_bvh_any_convex);
        HZ_IS(copse_bvh_any_convex(&f->mesh3, &cv, NULL, &id), COPSE_ERR_PARAM);
        cv.points = NULL;
        cv.count = 3;
        HZ(copse_bvh_any_convex);
        HZ_IS(copse_bvh_any_convex(&f->mesh3, &cv, NULL, &id), COPSE_ERR_NULL);
        HZ(copse_distance_convex_octree);
        HZ_IS(copse_distance_convex_octree(&cv, NULL, &f->oct, NULL, NULL), COPSE_ERR_NULL);
        free(many);
    }
}

/* ---- a mesh against a mesh and a scan ------------------------------------------------------------ */

static const hz_fix *g_f;

static bool count_pair(void *user, const copse_pair *p)
{
    (void)p;
    (*(unsigned *)user)++;
    return true;
}

static bool stop_pair(void *user, const copse_pair *p)
{
    (void)p;
    (*(unsigned *)user)++;
    return false;
}

static void mesh_calls(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                       const copse_distance_query *q, float within)
{
    copse_pair w;
    copse_pair_list full = hz_pairs(64), c0 = hz_pairs(0), c1 = hz_pairs(1);
    copse_id_list ids = hz_ids(64);
    copse_distance d;
    float sep = -7.0f;
    unsigned n = 0;
    copse_status st, s2;
    memset(&w, 0x5A, sizeof w);
    HZ(copse_bvh_any_bvh);
    st = copse_bvh_any_bvh(tree, mesh, pose, &w, &sep);
    HZ_EXPECT(st, COLLIDE_STATUS);
    HZ_CHECK(st == COPSE_OK || (w.tree_id == COPSE_NONE && w.shape_id == COPSE_NONE));
    HZ(copse_bvh_overlap_bvh);
    s2 = copse_bvh_overlap_bvh(tree, mesh, pose, &full, NULL);
    HZ_CHECK(s2 == st);
    hz_pairs_ok(&full, s2);
    HZ(copse_bvh_overlap_bvh);
    s2 = copse_bvh_overlap_bvh(tree, mesh, pose, &c0, &sep);
    hz_pairs_ok(&c0, s2);
    HZ(copse_bvh_overlap_bvh);
    s2 = copse_bvh_overlap_bvh(tree, mesh, pose, &c1, NULL);
    hz_pairs_ok(&c1, s2);
    HZ(copse_bvh_visit_bvh);
    s2 = copse_bvh_visit_bvh(tree, mesh, pose, count_pair, &n, NULL);
    HZ_CHECK(s2 == st && (st != COPSE_OK || n == full.count));
    memset(&d, 0x5A, sizeof d);
    HZ(copse_distance_bvh_bvh);
    dist_ok(copse_distance_bvh_bvh(mesh, pose, tree, q, &d), &d);
    memset(&d, 0x5A, sizeof d);
    HZ(copse_distance_bvh_octree);
    dist_ok(copse_distance_bvh_octree(mesh, pose, &g_f->oct, q, &d), &d);
    HZ(copse_octree_overlap_bvh);
    st = copse_octree_overlap_bvh(&g_f->oct, mesh, pose, within, &ids);
    HZ_EXPECT(st, COLLIDE_STATUS);
    hz_ids_ok(&ids, st);
    n = 0;
    HZ(copse_octree_visit_bvh);
    s2 = copse_octree_visit_bvh(&g_f->oct, mesh, pose, within, hz_count_id, &n);
    HZ_CHECK(s2 == st && (st != COPSE_OK || n == ids.count));
    hz_guards();
}

static void mesh_pose_mutant(void *ctx, const void *m)
{
    (void)ctx;
    mesh_calls(&g_f->mesh3, &g_f->mesh3, (const copse_pose *)m, NULL, 0.5f);
}

static void mesh_query_mutant(void *ctx, const void *m)
{
    copse_distance_query q;
    (void)ctx;
    memcpy(&q, m, 3u * sizeof(float));
    q.first_within = false;
    mesh_calls(&g_f->mesh3, &g_f->mesh3, NULL, &q, 0.5f);
}

static void within_mutant(void *ctx, const void *m)
{
    float w;
    (void)ctx;
    memcpy(&w, m, sizeof w);
    mesh_calls(&g_f->mesh3, &g_f->mesh3, NULL, NULL, w);
}

static copse_status again_pairs(hz_re *r)
{
    HZ(copse_bvh_visit_bvh);
    return copse_bvh_visit_bvh((const copse_bvh *)r->a, (const copse_bvh *)r->b, NULL, hz_re_pair, r, NULL);
}

static copse_status again_scan(hz_re *r)
{
    HZ(copse_octree_visit_bvh);
    return copse_octree_visit_bvh(&g_f->oct, (const copse_bvh *)r->b, NULL, 0.5f, hz_re_id, r);
}

static void mesh_cases(const hz_fix *f)
{
    copse_bvh zero;
    copse_pose pose;
    copse_pair w;
    copse_pair_list l;
    copse_distance d;
    const copse_distance_query defq = COPSE_DISTANCE_QUERY_DEFAULT;
    float one = 0.5f;
    unsigned n;
    hz_re re;
    g_f = f;
    memset(&zero, 0, sizeof zero);
    (void)copse_pose_from_xyz_rpy(&pose, copse_v3(0.5f, 0.25f, 0.5f), copse_v3(0.1f, -0.2f, 0.3f));
    /* NULLs */
    HZ(copse_bvh_any_bvh);
    HZ_IS(copse_bvh_any_bvh(NULL, &f->mesh3, NULL, &w, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_any_bvh);
    HZ_IS(copse_bvh_any_bvh(&f->mesh3, NULL, NULL, &w, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_any_bvh);
    HZ_IS(copse_bvh_any_bvh(&f->mesh3, &f->mesh3, NULL, NULL, NULL), COPSE_ERR_NULL);
    l = hz_pairs(3);
    HZ(copse_bvh_overlap_bvh);
    HZ_IS(copse_bvh_overlap_bvh(NULL, &f->mesh3, NULL, &l, NULL), COPSE_ERR_NULL);
    hz_pairs_ok(&l, COPSE_ERR_NULL);
    HZ(copse_bvh_overlap_bvh);
    HZ_IS(copse_bvh_overlap_bvh(&f->mesh3, &f->mesh3, NULL, NULL, NULL), COPSE_ERR_NULL);
    l = copse_pair_list_make(NULL, 3);
    HZ(copse_bvh_overlap_bvh);
    HZ_IS(copse_bvh_overlap_bvh(&f->mesh3, &f->mesh3, NULL, &l, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_visit_bvh);
    HZ_IS(copse_bvh_visit_bvh(&f->mesh3, &f->mesh3, NULL, NULL, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_distance_bvh_bvh);
    HZ_IS(copse_distance_bvh_bvh(NULL, NULL, &f->mesh3, NULL, &d), COPSE_ERR_NULL);
    dist_ok(COPSE_ERR_NULL, &d);
    HZ(copse_distance_bvh_bvh);
    HZ_IS(copse_distance_bvh_bvh(&f->mesh3, NULL, NULL, NULL, &d), COPSE_ERR_NULL);
    HZ(copse_distance_bvh_bvh);
    HZ_IS(copse_distance_bvh_bvh(&f->mesh3, NULL, &f->mesh3, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_distance_bvh_octree);
    HZ_IS(copse_distance_bvh_octree(NULL, NULL, &f->oct, NULL, &d), COPSE_ERR_NULL);
    HZ(copse_distance_bvh_octree);
    HZ_IS(copse_distance_bvh_octree(&f->mesh3, NULL, NULL, NULL, &d), COPSE_ERR_NULL);
    HZ(copse_octree_overlap_bvh);
    HZ_IS(copse_octree_overlap_bvh(&f->oct, &f->mesh3, NULL, 0.5f, NULL), COPSE_ERR_NULL);
    {
        copse_id_list il = hz_ids(3);
        HZ(copse_octree_overlap_bvh);
        HZ_IS(copse_octree_overlap_bvh(NULL, &f->mesh3, NULL, 0.5f, &il), COPSE_ERR_NULL);
        hz_ids_ok(&il, COPSE_ERR_NULL);
    }
    HZ(copse_octree_visit_bvh);
    HZ_IS(copse_octree_visit_bvh(&f->oct, &f->mesh3, NULL, 0.5f, NULL, NULL), COPSE_ERR_NULL);
    hz_guards();
    /* trees of every kind on either side */
    mesh_calls(&f->mesh3, &f->mesh3, NULL, NULL, 0.0f);
    mesh_calls(&f->mesh3, &f->mesh3, &pose, &defq, 0.25f);
    mesh_calls(&zero, &f->mesh3, NULL, NULL, 0.5f);
    mesh_calls(&f->mesh3, &zero, NULL, NULL, 0.5f);
    mesh_calls(&f->mesh2, &f->mesh3, NULL, NULL, 0.5f);
    mesh_calls(&f->mesh3, &f->mesh2, NULL, NULL, 0.5f);
    mesh_calls(&f->boxes3, &f->mesh3, NULL, NULL, 0.5f);
    mesh_calls(&f->mesh3, &f->boxes3, NULL, NULL, 0.5f);
    mesh_calls(&f->mesh3, &f->deep, NULL, NULL, 0.5f);
    /* hostile poses, queries and distances */
    hz_mutate(&pose, sizeof pose, mesh_pose_mutant, NULL);
    hz_mutate(&defq, 3u * sizeof(float), mesh_query_mutant, NULL);
    hz_mutate(&one, sizeof one, within_mutant, NULL);
    /* visitors */
    n = 0;
    HZ(copse_bvh_visit_bvh);
    HZ_IS(copse_bvh_visit_bvh(&f->mesh3, &f->mesh3, NULL, stop_pair, &n, NULL), COPSE_OK);
    HZ_CHECK(n == 1u);
    memset(&re, 0, sizeof re);
    re.call = again_pairs;
    re.a = &f->mesh3;
    re.b = &f->mesh3;
    hz_reenter(&re);
    memset(&re, 0, sizeof re);
    re.call = again_scan;
    re.b = &f->mesh3;
    hz_reenter(&re);
}

HZ_TEST("collide/shapes", shape_cases)
HZ_TEST("collide/meshes", mesh_cases)

void hz_collide(void)
{
    HZ_RUN("collide/shapes", shape_cases);
    HZ_RUN("collide/meshes", mesh_cases);
}

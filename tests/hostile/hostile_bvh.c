/* SPDX-License-Identifier: MIT */
/* Hostile cases: bvh.h (building, saving, viewing, every query, walking, inspection). */
#include <string.h>

#include "hostile/hostile.h"

#define BUILD_STATUS (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_PARAM) | HZ_S(ERR_TOO_LARGE) | HZ_S(ERR_ALIGN) | \
                      HZ_S(ERR_INDEX) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_DEGENERATE) | HZ_S(ERR_NOMEM) |       \
                      HZ_S(ERR_TOO_DEEP))

/* ---- the select queries: overlap / visit of a box, sphere, segment (3D) and rect, circle,
 * segment (2D), behind one signature each ------------------------------------------------------- */

typedef copse_status (*list_fn)(const copse_bvh *t, const void *shape, copse_bvh_select sel, copse_id_list *out);
typedef copse_status (*visit_fn)(const copse_bvh *t, const void *shape, copse_bvh_select sel, copse_id_visitor v,
                                 void *user);

#define SEL_WRAP(list, visit, T)                                                                        \
    static copse_status w_##list(const copse_bvh *t, const void *s, copse_bvh_select sel, copse_id_list *out) \
    {                                                                                                   \
        HZ(list);                                                                                       \
        return list(t, (const T *)s, sel, out);                                                         \
    }                                                                                                   \
    static copse_status w_##visit(const copse_bvh *t, const void *s, copse_bvh_select sel, copse_id_visitor v, \
                                  void *user)                                                           \
    {                                                                                                   \
        HZ(visit);                                                                                      \
        return visit(t, (const T *)s, sel, v, user);                                                    \
    }

SEL_WRAP(copse_bvh_overlap_box, copse_bvh_visit_box, copse_box3)
SEL_WRAP(copse_bvh_overlap_sphere, copse_bvh_visit_sphere, copse_sphere)
SEL_WRAP(copse_bvh_overlap_segment, copse_bvh_visit_segment, copse_segment3)
SEL_WRAP(copse_bvh_overlap_rect, copse_bvh_visit_rect, copse_box2)
SEL_WRAP(copse_bvh_overlap_circle, copse_bvh_visit_circle, copse_circle)
SEL_WRAP(copse_bvh_overlap_segment2, copse_bvh_visit_segment2, copse_segment2)

typedef struct sel_ops {
    list_fn list;
    visit_fn visit;
    const void *shape;
    size_t bytes;
    const copse_bvh *trees[2]; /* the right dimension: a mesh and a box tree */
    const copse_bvh *wrong;    /* the other dimension */
} sel_ops;

static const sel_ops *g_sel;
static copse_bvh_select g_sel_which;

/* Every list form agrees with the visitor form and with the capacities. */
static void sel_one(const sel_ops *o, const copse_bvh *t, const void *shape, copse_bvh_select sel)
{
    copse_id_list full = hz_ids(64), c0 = hz_ids(0), c1 = hz_ids(1);
    copse_status st = o->list(t, shape, sel, &full), s0, s1, sv;
    unsigned n = 0;
    HZ_EXPECT(st, HZ_QUERY);
    hz_ids_ok(&full, st);
    s0 = o->list(t, shape, sel, &c0);
    s1 = o->list(t, shape, sel, &c1);
    sv = o->visit(t, shape, sel, hz_count_id, &n);
    HZ_CHECK(s0 == st && s1 == st && sv == st);
    hz_ids_ok(&c0, s0);
    hz_ids_ok(&c1, s1);
    if (st == COPSE_OK) {
        HZ_CHECK(n == full.count && c0.count == 0u && c0.truncated == (full.count > 0u));
        HZ_CHECK(c1.count == (full.count > 0u) && c1.truncated == (full.count > 1u));
        HZ_CHECK(c1.count == 0u || c1.ids[0] == full.ids[0]);
    }
    hz_guards();
}

static void sel_mutant(void *ctx, const void *m)
{
    (void)ctx;
    sel_one(g_sel, g_sel->trees[0], m, g_sel_which);
}

static copse_status sel_again(hz_re *r)
{
    return g_sel->visit((const copse_bvh *)r->a, r->b, COPSE_BVH_SELECT_PRIMS, hz_re_id, r);
}

static void sel_family(const sel_ops *o)
{
    copse_bvh zero;
    copse_id_list l;
    unsigned g, t, n = 0;
    uint8_t garbage[64];
    hz_re re;
    memset(&zero, 0, sizeof zero);
    /* NULL everywhere it can be */
    l = hz_ids(4);
    HZ_IS(o->list(NULL, o->shape, COPSE_BVH_SELECT_PRIMS, &l), COPSE_ERR_NULL);
    hz_ids_ok(&l, COPSE_ERR_NULL);
    l = hz_ids(4);
    HZ_IS(o->list(o->trees[0], NULL, COPSE_BVH_SELECT_PRIMS, &l), COPSE_ERR_NULL);
    hz_ids_ok(&l, COPSE_ERR_NULL);
    HZ_IS(o->list(o->trees[0], o->shape, COPSE_BVH_SELECT_PRIMS, NULL), COPSE_ERR_NULL);
    l = copse_id_list_make(NULL, 3);
    HZ_IS(o->list(o->trees[0], o->shape, COPSE_BVH_SELECT_PRIMS, &l), COPSE_ERR_NULL);
    l = copse_id_list_make(NULL, 0); /* no storage and no room: fine */
    HZ_EXPECT(o->list(o->trees[0], o->shape, COPSE_BVH_SELECT_PRIMS, &l), HZ_OKS);
    HZ_IS(o->visit(o->trees[0], o->shape, COPSE_BVH_SELECT_PRIMS, NULL, NULL), COPSE_ERR_NULL);
    HZ_IS(o->visit(NULL, o->shape, COPSE_BVH_SELECT_PRIMS, hz_count_id, &n), COPSE_ERR_NULL);
    HZ_IS(o->visit(o->trees[0], NULL, COPSE_BVH_SELECT_PRIMS, hz_count_id, &n), COPSE_ERR_NULL);
    /* a zeroed tree is empty; the other dimension is refused */
    sel_one(o, &zero, o->shape, COPSE_BVH_SELECT_PRIMS);
    l = hz_ids(4);
    HZ_IS(o->list(o->wrong, o->shape, COPSE_BVH_SELECT_PRIMS, &l), COPSE_ERR_DIMENSION);
    hz_ids_ok(&l, COPSE_ERR_DIMENSION);
    /* both trees, both selections and garbage ones */
    for (t = 0; t < 2u; t++) {
        sel_one(o, o->trees[t], o->shape, COPSE_BVH_SELECT_PRIMS);
        sel_one(o, o->trees[t], o->shape, COPSE_BVH_SELECT_LEAVES);
        sel_one(o, o->trees[t], o->shape, (copse_bvh_select)2);
        sel_one(o, o->trees[t], o->shape, (copse_bvh_select)-1);
    }
    /* hostile numbers in every field, and garbage shapes */
    g_sel = o;
    g_sel_which = COPSE_BVH_SELECT_PRIMS;
    hz_mutate(o->shape, o->bytes, sel_mutant, NULL);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(garbage, o->bytes, g);
        sel_one(o, o->trees[0], garbage, COPSE_BVH_SELECT_PRIMS);
    }
    /* a visitor that stops, and one that calls the query again */
    n = 0;
    HZ_IS(o->visit(o->trees[0], o->shape, COPSE_BVH_SELECT_PRIMS, hz_stop_id, &n), COPSE_OK);
    HZ_CHECK(n <= 1u);
    memset(&re, 0, sizeof re);
    re.call = sel_again;
    re.a = o->trees[0];
    re.b = o->shape;
    hz_reenter(&re);
}

static void select_cases(const hz_fix *f)
{
    const copse_box3 box = copse_box3_make(0.5f, -1.0f, -1.0f, 3.0f, 2.0f, 2.0f);
    const copse_sphere sphere = {{2.0f, 0.0f, 1.0f}, 1.5f};
    const copse_segment3 seg = {{-1.0f, 0.25f, 0.5f}, {6.0f, 0.25f, 0.5f}};
    const copse_box2 rect = copse_box2_make(0.5f, -1.0f, 3.0f, 2.0f);
    const copse_circle circle = {{2.0f, 0.5f}, 1.5f};
    const copse_segment2 seg2 = {{-1.0f, 0.25f}, {6.0f, 0.5f}};
    sel_ops o;
    o.trees[0] = &f->mesh3, o.trees[1] = &f->boxes3, o.wrong = &f->mesh2;
    o.list = w_copse_bvh_overlap_box, o.visit = w_copse_bvh_visit_box, o.shape = &box, o.bytes = sizeof box;
    sel_family(&o);
    o.list = w_copse_bvh_overlap_sphere, o.visit = w_copse_bvh_visit_sphere, o.shape = &sphere, o.bytes = sizeof sphere;
    sel_family(&o);
    o.list = w_copse_bvh_overlap_segment, o.visit = w_copse_bvh_visit_segment, o.shape = &seg, o.bytes = sizeof seg;
    sel_family(&o);
    o.trees[0] = &f->mesh2, o.trees[1] = &f->boxes2, o.wrong = &f->mesh3;
    o.list = w_copse_bvh_overlap_rect, o.visit = w_copse_bvh_visit_rect, o.shape = &rect, o.bytes = sizeof rect;
    sel_family(&o);
    o.list = w_copse_bvh_overlap_circle, o.visit = w_copse_bvh_visit_circle, o.shape = &circle, o.bytes = sizeof circle;
    sel_family(&o);
    o.list = w_copse_bvh_overlap_segment2, o.visit = w_copse_bvh_visit_segment2, o.shape = &seg2,
    o.bytes = sizeof seg2;
    sel_family(&o);
}

/* ---- rays: first hit, all hits, visitor (3D and 2D) --------------------------------------------- */

typedef struct ray_ops {
    copse_status (*first)(const copse_bvh *t, const void *ray, copse_hit *hit);
    copse_status (*all)(const copse_bvh *t, const void *ray, copse_hit_list *out);
    copse_status (*visit)(const copse_bvh *t, const void *ray, copse_hit_visitor v, void *user);
    const void *ray;
    size_t bytes;
    const copse_bvh *trees[2], *wrong;
} ray_ops;

#define RAY_WRAP(first, all, visit, T)                                                          \
    static copse_status w_##first(const copse_bvh *t, const void *r, copse_hit *hit)             \
    {                                                                                           \
        HZ(first);                                                                              \
        return first(t, (const T *)r, hit);                                                     \
    }                                                                                           \
    static copse_status w_##all(const copse_bvh *t, const void *r, copse_hit_list *out)           \
    {                                                                                           \
        HZ(all);                                                                                \
        return all(t, (const T *)r, out);                                                       \
    }                                                                                           \
    static copse_status w_##visit(const copse_bvh *t, const void *r, copse_hit_visitor v, void *u) \
    {                                                                                           \
        HZ(visit);                                                                              \
        return visit(t, (const T *)r, v, u);                                                    \
    }

RAY_WRAP(copse_bvh_raycast, copse_bvh_raycast_all, copse_bvh_visit_ray, copse_ray3)
RAY_WRAP(copse_bvh_raycast2, copse_bvh_raycast2_all, copse_bvh_visit_ray2, copse_ray2)

static const ray_ops *g_ray;

static bool count_hit(void *user, const copse_hit *hit)
{
    (void)hit;
    (*(unsigned *)user)++;
    return true;
}

static void ray_one(const ray_ops *o, const copse_bvh *t, const void *ray)
{
    copse_hit hit;
    copse_hit_list all = hz_hits(64), c0 = hz_hits(0), c1 = hz_hits(1);
    copse_status st, sa, s0, s1, sv;
    unsigned n = 0;
    memset(&hit, 0x5A, sizeof hit);
    st = o->first(t, ray, &hit);
    HZ_EXPECT(st, HZ_QUERY);
    if (st != COPSE_OK)
        HZ_CHECK(hit.id == COPSE_NONE);
    sa = o->all(t, ray, &all);
    s0 = o->all(t, ray, &c0);
    s1 = o->all(t, ray, &c1);
    sv = o->visit(t, ray, count_hit, &n);
    HZ_CHECK(sa == st && s0 == st && s1 == st && sv == st);
    hz_hits_ok(&all, sa);
    hz_hits_ok(&c0, s0);
    hz_hits_ok(&c1, s1);
    if (st == COPSE_OK) {
        HZ_CHECK(n == all.count && (hit.id != COPSE_NONE) == (all.count > 0u));
        HZ_CHECK(c1.count == (all.count > 0u) && c1.truncated == (all.count > 1u));
    }
    hz_guards();
}

static void ray_mutant(void *ctx, const void *m)
{
    (void)ctx;
    ray_one(g_ray, g_ray->trees[0], m);
    ray_one(g_ray, g_ray->trees[1], m);
}

static copse_status ray_again(hz_re *r)
{
    return g_ray->visit((const copse_bvh *)r->a, r->b, hz_re_hit, r);
}

static void ray_family(const ray_ops *o)
{
    copse_bvh zero;
    copse_hit hit;
    copse_hit_list l;
    uint8_t garbage[64];
    unsigned g, n = 0;
    hz_re re;
    memset(&zero, 0, sizeof zero);
    HZ_IS(o->first(NULL, o->ray, &hit), COPSE_ERR_NULL);
    HZ_IS(o->first(o->trees[0], NULL, &hit), COPSE_ERR_NULL);
    HZ_IS(o->first(o->trees[0], o->ray, NULL), COPSE_ERR_NULL);
    l = hz_hits(2);
    HZ_IS(o->all(NULL, o->ray, &l), COPSE_ERR_NULL);
    hz_hits_ok(&l, COPSE_ERR_NULL);
    HZ_IS(o->all(o->trees[0], o->ray, NULL), COPSE_ERR_NULL);
    l = copse_hit_list_make(NULL, 2);
    HZ_IS(o->all(o->trees[0], o->ray, &l), COPSE_ERR_NULL);
    HZ_IS(o->visit(o->trees[0], o->ray, NULL, NULL), COPSE_ERR_NULL);
    HZ_IS(o->visit(o->trees[0], NULL, count_hit, &n), COPSE_ERR_NULL);
    ray_one(o, &zero, o->ray);
    memset(&hit, 0x5A, sizeof hit);
    HZ_IS(o->first(o->wrong, o->ray, &hit), COPSE_ERR_DIMENSION);
    HZ_CHECK(hit.id == COPSE_NONE);
    ray_one(o, o->trees[0], o->ray);
    ray_one(o, o->trees[1], o->ray);
    g_ray = o;
    hz_mutate(o->ray, o->bytes, ray_mutant, NULL);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(garbage, o->bytes, g);
        ray_one(o, o->trees[0], garbage);
    }
    memset(&re, 0, sizeof re);
    re.call = ray_again;
    re.a = o->trees[0];
    re.b = o->ray;
    hz_reenter(&re);
}

static void ray_cases(const hz_fix *f)
{
    const copse_ray3 r3 = {{-1.0f, 0.1f, 0.3f}, {1.0f, 0.0f, 0.05f}, 100.0f};
    const copse_ray2 r2 = {{-1.0f, 0.3f}, {1.0f, 0.02f}, 100.0f};
    copse_ray3 zero_dir = r3;
    copse_hit hit;
    ray_ops o;
    o.first = w_copse_bvh_raycast, o.all = w_copse_bvh_raycast_all, o.visit = w_copse_bvh_visit_ray;
    o.ray = &r3, o.bytes = sizeof r3;
    o.trees[0] = &f->mesh3, o.trees[1] = &f->boxes3, o.wrong = &f->mesh2;
    ray_family(&o);
    o.first = w_copse_bvh_raycast2, o.all = w_copse_bvh_raycast2_all, o.visit = w_copse_bvh_visit_ray2;
    o.ray = &r2, o.bytes = sizeof r2;
    o.trees[0] = &f->mesh2, o.trees[1] = &f->boxes2, o.wrong = &f->mesh3;
    ray_family(&o);
    zero_dir.dir = copse_v3(0.0f, 0.0f, 0.0f);
    HZ(copse_bvh_raycast);
    HZ_IS(copse_bvh_raycast(&f->mesh3, &zero_dir, &hit), COPSE_ERR_PARAM);
    zero_dir.dir = copse_v3(1e-45f, 0.0f, 0.0f); /* a denormal direction: every t overflows */
    HZ(copse_bvh_raycast);
    HZ_EXPECT(copse_bvh_raycast(&f->mesh3, &zero_dir, &hit), HZ_QUERY);
    zero_dir.t_max = -1.0f;
    HZ(copse_bvh_raycast);
    HZ_IS(copse_bvh_raycast(&f->mesh3, &zero_dir, &hit), COPSE_ERR_EMPTY_RANGE);
}

/* ---- nearest ------------------------------------------------------------------------------------ */

typedef struct near_arg {
    copse_vec3 p;
    float max;
} near_arg;

static const copse_bvh *g_near_tree;

static void near_mutant(void *ctx, const void *m)
{
    const near_arg *a = (const near_arg *)m;
    copse_nearest3 n;
    copse_nearest2 n2;
    copse_status st;
    (void)ctx;
    memset(&n, 0x5A, sizeof n);
    HZ(copse_bvh_nearest);
    st = copse_bvh_nearest(g_near_tree, a->p, a->max, &n);
    HZ_EXPECT(st, HZ_QUERY);
    HZ_CHECK(st == COPSE_OK || n.id == COPSE_NONE);
    if (g_near_tree->kind == COPSE_BVH_PRIM_TRIANGLES) {
        memset(&n, 0x5A, sizeof n);
        HZ(copse_bvh_nearest_vertex);
        st = copse_bvh_nearest_vertex(g_near_tree, a->p, a->max, &n);
        HZ_EXPECT(st, HZ_QUERY);
        HZ_CHECK(st == COPSE_OK || n.id == COPSE_NONE);
    }
    memset(&n2, 0x5A, sizeof n2);
    HZ(copse_bvh_nearest2);
    st = copse_bvh_nearest2(g_near_tree, copse_v2(a->p.x, a->p.y), a->max, &n2);
    HZ_EXPECT(st, HZ_QUERY);
    HZ_CHECK(st == COPSE_OK || n2.id == COPSE_NONE);
}

static void nearest_cases(const hz_fix *f)
{
    const copse_bvh *trees[4];
    copse_bvh zero;
    copse_nearest3 n;
    copse_nearest2 n2;
    near_arg a;
    unsigned t;
    memset(&zero, 0, sizeof zero);
    trees[0] = &f->mesh3, trees[1] = &f->boxes3, trees[2] = &f->mesh2, trees[3] = &f->boxes2;
    HZ(copse_bvh_nearest);
    HZ_IS(copse_bvh_nearest(NULL, copse_v3(0, 0, 0), 1.0f, &n), COPSE_ERR_NULL);
    HZ(copse_bvh_nearest);
    HZ_IS(copse_bvh_nearest(&f->mesh3, copse_v3(0, 0, 0), 1.0f, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_nearest_vertex);
    HZ_IS(copse_bvh_nearest_vertex(&f->mesh3, copse_v3(0, 0, 0), 1.0f, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_nearest_vertex);
    HZ_IS(copse_bvh_nearest_vertex(&f->boxes3, copse_v3(0, 0, 0), 1.0f, &n), COPSE_ERR_KIND);
    HZ(copse_bvh_nearest2);
    HZ_IS(copse_bvh_nearest2(&f->mesh2, copse_v2(0, 0), 1.0f, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_nearest2);
    HZ_IS(copse_bvh_nearest2(&f->mesh3, copse_v2(0, 0), 1.0f, &n2), COPSE_ERR_DIMENSION);
    HZ(copse_bvh_nearest);
    HZ_IS(copse_bvh_nearest(&f->mesh3, copse_v3(0, 0, 0), -1.0f, &n), COPSE_ERR_EMPTY_RANGE);
    HZ(copse_bvh_nearest);
    HZ_EXPECT(copse_bvh_nearest(&zero, copse_v3(0, 0, 0), 1.0f, &n), HZ_QUERY);
    HZ_CHECK(n.id == COPSE_NONE);
    a.p = copse_v3(1.0f, 2.0f, 0.5f);
    a.max = FLT_MAX;
    for (t = 0; t < 4u; t++) {
        g_near_tree = trees[t];
        hz_mutate(&a, sizeof a, near_mutant, NULL);
    }
}

/* ---- building ------------------------------------------------------------------------------------ */

static void build_checks(copse_status st, const copse_bvh *t, const copse_arena *a, size_t used_before)
{
    HZ_EXPECT(st, BUILD_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(t->node_count == 0u && t->dim == 0u && a->used == used_before);
    else
        HZ_CHECK(copse_bvh_check(t) == COPSE_OK && copse_bvh_bytes(t) == a->used - used_before);
}

/* Builds over `tri` (n triangles): exact arena, one byte short, misaligned. */
static void build_mesh_one(const copse_mesh *m, const copse_bvh_params *p)
{
    copse_arena a;
    copse_bvh t;
    copse_status st;
    size_t need = copse_bvh_build_bytes(m->triangle_count, p->projection == COPSE_BVH_PROJECT_NONE ? 3u : 2u, p);
    size_t cap = need == SIZE_MAX || need > (1u << 20) ? 4096u : need;
    copse_arena_init(&a, hz_buf(cap, 0), cap);
    memset(&t, 0x5A, sizeof t);
    HZ(copse_bvh_build_mesh);
    st = copse_bvh_build_mesh(&t, &a, m, p);
    build_checks(st, &t, &a, 0);
    if (st == COPSE_OK && need == cap && need > 0u) {
        copse_arena_init(&a, hz_buf(need - 1u, 0), need - 1u);
        HZ(copse_bvh_build_mesh);
        st = copse_bvh_build_mesh(&t, &a, m, p);
        HZ_IS(st, COPSE_ERR_NOMEM);
        build_checks(st, &t, &a, 0);
        HZ_CHECK(a.needed == need);
        copse_arena_init(&a, hz_buf(need + 7u, 3), need + 7u); /* misaligned: 5 bytes lost, fits */
        HZ(copse_bvh_build_mesh);
        st = copse_bvh_build_mesh(&t, &a, m, p);
        HZ_IS(st, COPSE_OK);
    }
    hz_guards();
}

static const copse_mesh *g_mesh_base;

static void mesh_mutant(void *ctx, const void *m)
{
    copse_mesh mesh = *g_mesh_base;
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    (void)ctx;
    mesh.positions = (const float *)m;
    build_mesh_one(&mesh, &p);
}

/* Two boxes (3D when ctx is non-NULL, else 2D) with a hostile number: refused or built and checked. */
static void boxes_mutant(void *ctx, const void *m)
{
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena a;
    copse_bvh t;
    copse_status st;
    copse_arena_init(&a, hz_buf(COPSE_BVH_BUILD_BYTES(2, 4), 0), COPSE_BVH_BUILD_BYTES(2, 4));
    if (ctx != NULL) {
        HZ(copse_bvh_build_boxes3);
        st = copse_bvh_build_boxes3(&t, &a, (const copse_box3 *)m, NULL, 2u, &p);
    } else {
        HZ(copse_bvh_build_boxes2);
        st = copse_bvh_build_boxes2(&t, &a, (const copse_box2 *)m, NULL, 2u, &p);
    }
    build_checks(st, &t, &a, 0);
    hz_guards();
}

static void build_cases(const hz_fix *f)
{
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT, gp;
    copse_mesh m = f->mesh, m2;
    copse_arena a;
    copse_bvh t;
    unsigned i, g;
    float tri4[36];
    uint16_t idx16[6] = {0, 1, 2, 0, 2, 3};
    uint32_t idx32[6] = {0, 1, 2, 0, 2, 7};
    static const unsigned dims[5] = {0u, 1u, 2u, 3u, 4u};
    static const uint32_t counts[6] = {0u, 1u, COPSE_BVH_MAX_PRIMS, COPSE_BVH_MAX_PRIMS + 1u, 0xFFFFFFFFu, 12u};
    /* build_bytes: every count limit, dimension and parameter */
    for (i = 0; i < 6u; i++)
        for (g = 0; g < 5u; g++) {
            size_t b;
            HZ(copse_bvh_build_bytes);
            b = copse_bvh_build_bytes(counts[i], dims[g], &p);
            HZ_CHECK((dims[g] == 2u || dims[g] == 3u) || b == SIZE_MAX);
            HZ_CHECK(counts[i] <= COPSE_BVH_MAX_PRIMS || b == SIZE_MAX);
            /* 2^28 primitives take more than 4 GiB of scratch: SIZE_MAX with a 32-bit size_t */
            HZ_CHECK(sizeof(size_t) > 4u || counts[i] < (1u << 28) || b == SIZE_MAX);
        }
    HZ(copse_bvh_build_bytes);
    HZ_CHECK(copse_bvh_build_bytes(10, 3, NULL) == SIZE_MAX);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(&gp, sizeof gp, g);
        HZ(copse_bvh_build_bytes);
        (void)copse_bvh_build_bytes(10, 3, &gp);
    }
    gp = p;
    gp.leaf_size = 0;
    HZ(copse_bvh_build_bytes);
    HZ_CHECK(copse_bvh_build_bytes(10, 3, &gp) == SIZE_MAX);
    gp.leaf_size = COPSE_BVH_MAX_LEAF + 1u;
    HZ(copse_bvh_build_bytes);
    HZ_CHECK(copse_bvh_build_bytes(10, 3, &gp) == SIZE_MAX);
    gp.leaf_size = COPSE_BVH_MAX_LEAF;
    HZ(copse_bvh_build_bytes);
    HZ_CHECK(copse_bvh_build_bytes(10, 3, &gp) != SIZE_MAX);
    /* bytes */
    HZ(copse_bvh_bytes);
    HZ_CHECK(copse_bvh_bytes(NULL) == 0u);
    memset(&t, 0, sizeof t);
    HZ(copse_bvh_bytes);
    HZ_CHECK(copse_bvh_bytes(&t) == 0u);
    HZ(copse_bvh_bytes);
    HZ_CHECK(copse_bvh_bytes(&f->mesh3) > 0u);
    /* mesh builds: NULLs, bad meshes, garbage parameters, limits */
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_bvh_build_mesh);
    HZ_IS(copse_bvh_build_mesh(NULL, &a, &m, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_mesh);
    HZ_IS(copse_bvh_build_mesh(&t, NULL, &m, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_mesh);
    HZ_IS(copse_bvh_build_mesh(&t, &a, NULL, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_mesh);
    HZ_IS(copse_bvh_build_mesh(&t, &a, &m, NULL), COPSE_ERR_NULL);
    HZ_CHECK(a.used == 0u);
    hz_guards();
    build_mesh_one(&m, &p);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(&gp, sizeof gp, g);
        build_mesh_one(&m, &gp);
    }
    p.leaf_size = 0;
    build_mesh_one(&m, &p);
    p.leaf_size = COPSE_BVH_MAX_LEAF + 1u;
    build_mesh_one(&m, &p);
    p.leaf_size = COPSE_BVH_MAX_LEAF;
    build_mesh_one(&m, &p);
    p = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    p.projection = (copse_bvh_projection)4;
    build_mesh_one(&m, &p);
    p = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    m2 = m;
    m2.positions = NULL;
    build_mesh_one(&m2, &p);
    m2 = m;
    m2.triangle_count = 0;
    build_mesh_one(&m2, &p);
    m2 = m;
    m2.triangle_count = COPSE_BVH_MAX_PRIMS + 1u;
    build_mesh_one(&m2, &p);
    m2 = m;
    m2.vertex_count = 0;
    build_mesh_one(&m2, &p);
    m2 = m;
    m2.vertex_count = 3u * HZ_TRIS - 1u; /* the last triangle's corner is past the vertices */
    build_mesh_one(&m2, &p);
    for (i = 1; i < 16u; i++) { /* strides: not a multiple of 4, shorter than a vertex */
        m2 = m;
        m2.vertex_stride = i;
        m2.vertex_count = HZ_TRIS;
        m2.triangle_count = HZ_TRIS / 3u;
        build_mesh_one(&m2, &p);
    }
    m2 = m;
    m2.positions = (const float *)(const void *)((const uint8_t *)f->tri + 2); /* misaligned */
    m2.vertex_count = 3u * HZ_TRIS - 1u;
    m2.triangle_count = HZ_TRIS - 1u;
    build_mesh_one(&m2, &p);
    /* indices: out of range, misaligned, a wrong type, NULL */
    memcpy(tri4, f->tri, sizeof tri4);
    m2 = m;
    m2.positions = tri4;
    m2.vertex_count = 4;
    m2.triangle_count = 2;
    m2.index_type = COPSE_MESH_INDEX_U16;
    m2.indices = idx16;
    build_mesh_one(&m2, &p);
    m2.index_type = COPSE_MESH_INDEX_U32;
    m2.indices = idx32; /* 7 >= 4 vertices */
    build_mesh_one(&m2, &p);
    m2.indices = (const void *)((const uint8_t *)idx32 + 1);
    build_mesh_one(&m2, &p);
    m2.indices = NULL;
    build_mesh_one(&m2, &p);
    m2.index_type = (copse_mesh_index_type)3;
    m2.indices = idx16;
    build_mesh_one(&m2, &p);
    m2.index_type = COPSE_MESH_INDEX_NONE;
    m2.indices = idx16; /* indices given, none used */
    m2.vertex_count = 4;
    m2.triangle_count = 1;
    build_mesh_one(&m2, &p);
    /* degenerate triangles, with and without the flag */
    memset(tri4, 0, sizeof tri4);
    m2 = m;
    m2.positions = tri4;
    m2.vertex_count = 12;
    m2.triangle_count = 4;
    build_mesh_one(&m2, &p);
    p.flags = COPSE_BVH_REJECT_DEGENERATE;
    build_mesh_one(&m2, &p);
    p.flags = 0xFFFFFFFFu;
    build_mesh_one(&m2, &p);
    p = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    /* hostile coordinates in every slot of a two-triangle mesh */
    memcpy(tri4, f->tri, sizeof(float) * 18u);
    m2 = m;
    m2.vertex_count = 6;
    m2.triangle_count = 2;
    g_mesh_base = &m2;
    hz_mutate(tri4, sizeof(float) * 18u, mesh_mutant, NULL);
    /* box builds: NULLs, ids of COPSE_NONE, inverted boxes, hostile coordinates */
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_bvh_build_boxes3);
    HZ_IS(copse_bvh_build_boxes3(NULL, &a, f->b3, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes3);
    HZ_IS(copse_bvh_build_boxes3(&t, NULL, f->b3, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes3);
    HZ_IS(copse_bvh_build_boxes3(&t, &a, NULL, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes3);
    HZ_IS(copse_bvh_build_boxes3(&t, &a, f->b3, NULL, 2, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes3);
    HZ_EXPECT(copse_bvh_build_boxes3(&t, &a, f->b3, NULL, 0, &p), BUILD_STATUS);
    HZ(copse_bvh_build_boxes3);
    HZ_EXPECT(copse_bvh_build_boxes3(&t, &a, f->b3, NULL, COPSE_BVH_MAX_PRIMS + 1u, &p), BUILD_STATUS);
    HZ(copse_bvh_build_boxes2);
    HZ_IS(copse_bvh_build_boxes2(NULL, &a, f->b2, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes2);
    HZ_IS(copse_bvh_build_boxes2(&t, &a, NULL, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bvh_build_boxes2);
    HZ_EXPECT(copse_bvh_build_boxes2(&t, &a, f->b2, NULL, COPSE_BVH_MAX_PRIMS + 1u, &p), BUILD_STATUS);
    HZ_CHECK(a.used == 0u);
    hz_guards();
    hz_mutate(f->b3, sizeof(copse_box3) * 2u, boxes_mutant, (void *)(uintptr_t)1u);
    hz_mutate(f->b2, sizeof(copse_box2) * 2u, boxes_mutant, NULL);
    {
        const uint32_t none_ids[2] = {5u, COPSE_NONE};
        copse_box3 inv[2];
        inv[0] = f->b3[0];
        inv[1] = copse_box3_make(1, 1, 1, 0, 0, 0);
        copse_arena_init(&a, hz_buf(4096, 0), 4096);
        HZ(copse_bvh_build_boxes3);
        HZ_IS(copse_bvh_build_boxes3(&t, &a, f->b3, none_ids, 2, &p), COPSE_ERR_PARAM);
        HZ(copse_bvh_build_boxes3);
        HZ_IS(copse_bvh_build_boxes3(&t, &a, inv, NULL, 2, &p), COPSE_ERR_PARAM);
        HZ(copse_bvh_build_boxes2);
        HZ_IS(copse_bvh_build_boxes2(&t, &a, f->b2, none_ids, 2, &p), COPSE_ERR_PARAM);
        HZ_CHECK(a.used == 0u);
        hz_guards();
    }
}

/* ---- saving and viewing ------------------------------------------------------------------------- */

static void save_cases(const hz_fix *f)
{
    const copse_bvh *trees[4];
    copse_bvh zero, v;
    unsigned i, mis;
    size_t n, written;
    memset(&zero, 0, sizeof zero);
    trees[0] = &f->mesh3, trees[1] = &f->mesh2, trees[2] = &f->boxes3, trees[3] = &f->boxes2;
    HZ(copse_bvh_save_bytes);
    HZ_CHECK(copse_bvh_save_bytes(NULL) == 0u);
    HZ(copse_bvh_save_bytes);
    HZ_CHECK(copse_bvh_save_bytes(&zero) == 0u);
    HZ(copse_bvh_save);
    HZ_IS(copse_bvh_save(NULL, NULL, 0, &written), COPSE_ERR_NULL);
    HZ(copse_bvh_save);
    HZ_EXPECT(copse_bvh_save(&zero, hz_buf(64, 0), 64, &written), HZ_S(ERR_PARAM));
    HZ(copse_bvh_save);
    HZ_IS(copse_bvh_save(&f->mesh3, NULL, 10, &written), COPSE_ERR_NULL);
    for (i = 0; i < 4u; i++) {
        uint8_t *buf;
        HZ(copse_bvh_save_bytes);
        n = copse_bvh_save_bytes(trees[i]);
        HZ_CHECK(n > 0u);
        written = 77;
        HZ(copse_bvh_save);
        HZ_IS(copse_bvh_save(trees[i], NULL, 0, &written), COPSE_ERR_NOMEM); /* asks the size */
        HZ_CHECK(written == n);
        buf = (uint8_t *)hz_buf(n - 1u, 0);
        HZ(copse_bvh_save);
        HZ_IS(copse_bvh_save(trees[i], buf, n - 1u, &written), COPSE_ERR_NOMEM);
        HZ_CHECK(written == n && buf[0] == HZ_FILL && buf[n - 2u] == HZ_FILL);
        for (mis = 0; mis < 4u; mis++) { /* any address: the writer stores bytes */
            buf = (uint8_t *)hz_buf(n, mis);
            HZ(copse_bvh_save);
            HZ_IS(copse_bvh_save(trees[i], buf, n, NULL), COPSE_OK);
        }
        hz_guards();
    }
    /* views: NULLs, short lengths, misaligned, wrong sources, other kinds */
    HZ(copse_bvh_view_mesh);
    HZ_IS(copse_bvh_view_mesh(NULL, f->blob_bvh, f->n_bvh, &f->mesh), COPSE_ERR_NULL);
    HZ(copse_bvh_view_mesh);
    HZ_EXPECT(copse_bvh_view_mesh(&v, NULL, f->n_bvh, &f->mesh), HZ_S(ERR_NULL));
    HZ(copse_bvh_view_mesh);
    HZ_EXPECT(copse_bvh_view_mesh(&v, f->blob_bvh, f->n_bvh, NULL), HZ_S(ERR_NULL));
    HZ(copse_bvh_view_mesh);
    HZ_IS(copse_bvh_view_mesh(&v, f->blob_bvh, f->n_bvh, &f->mesh), COPSE_OK);
    for (n = 0; n < f->n_bvh; n += 13u) {
        copse_status st;
        HZ(copse_bvh_view_mesh);
        st = copse_bvh_view_mesh(&v, f->blob_bvh, n, &f->mesh);
        HZ_CHECK(st != COPSE_OK && v.node_count == 0u && v.dim == 0u);
    }
    {
        uint8_t *mis_blob = (uint8_t *)hz_buf(f->n_bvh, 1);
        copse_mesh fewer = f->mesh;
        memcpy(mis_blob, f->blob_bvh, f->n_bvh);
        HZ(copse_bvh_view_mesh);
        HZ_IS(copse_bvh_view_mesh(&v, mis_blob, f->n_bvh, &f->mesh), COPSE_ERR_ALIGN);
        fewer.triangle_count--;
        HZ(copse_bvh_view_mesh);
        HZ_IS(copse_bvh_view_mesh(&v, f->blob_bvh, f->n_bvh, &fewer), COPSE_ERR_BLOB_SOURCE);
        HZ(copse_bvh_view_boxes3);
        HZ_IS(copse_bvh_view_boxes3(&v, f->blob_bvh, f->n_bvh, f->b3, NULL, HZ_BOXES), COPSE_ERR_BLOB_SOURCE);
        HZ(copse_bvh_view_boxes2);
        HZ_IS(copse_bvh_view_boxes2(&v, f->blob_bvh, f->n_bvh, f->b2, NULL, HZ_BOXES), COPSE_ERR_BLOB_SOURCE);
        HZ(copse_bvh_view_mesh);
        HZ_IS(copse_bvh_view_mesh(&v, f->blob_oct, f->n_oct, &f->mesh), COPSE_ERR_BLOB_KIND);
        hz_guards();
    }
    {
        const copse_bvh *bt[2];
        bt[0] = &f->boxes3, bt[1] = &f->boxes2;
        for (i = 0; i < 2u; i++) {
            uint8_t *blob;
            const uint32_t none_ids[HZ_BOXES] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, COPSE_NONE};
            n = copse_bvh_save_bytes(bt[i]);
            blob = (uint8_t *)hz_buf(n, 0);
            HZ(copse_bvh_save);
            HZ_IS(copse_bvh_save(bt[i], blob, n, NULL), COPSE_OK);
            if (i == 0u) {
                HZ(copse_bvh_view_boxes3);
                HZ_IS(copse_bvh_view_boxes3(NULL, blob, n, f->b3, f->ids, HZ_BOXES), COPSE_ERR_NULL);
                HZ(copse_bvh_view_boxes3);
                HZ_IS(copse_bvh_view_boxes3(&v, blob, n, f->b3, f->ids, HZ_BOXES), COPSE_OK);
                HZ(copse_bvh_view_boxes3);
                HZ_EXPECT(copse_bvh_view_boxes3(&v, blob, n, NULL, f->ids, HZ_BOXES), HZ_S(ERR_NULL));
                HZ(copse_bvh_view_boxes3);
                HZ_IS(copse_bvh_view_boxes3(&v, blob, n, f->b3, none_ids, HZ_BOXES), COPSE_ERR_PARAM);
                HZ(copse_bvh_view_boxes3);
                HZ_IS(copse_bvh_view_boxes3(&v, blob, n, f->b3, f->ids, HZ_BOXES - 1u), COPSE_ERR_BLOB_SOURCE);
                HZ(copse_bvh_view_boxes3);
                HZ_CHECK(copse_bvh_view_boxes3(&v, blob, n - 1u, f->b3, f->ids, HZ_BOXES) != COPSE_OK);
            } else {
                HZ(copse_bvh_view_boxes2);
                HZ_IS(copse_bvh_view_boxes2(NULL, blob, n, f->b2, NULL, HZ_BOXES), COPSE_ERR_NULL);
                HZ(copse_bvh_view_boxes2);
                HZ_IS(copse_bvh_view_boxes2(&v, blob, n, f->b2, NULL, HZ_BOXES), COPSE_OK);
                HZ(copse_bvh_view_boxes2);
                HZ_IS(copse_bvh_view_boxes2(&v, blob, n, f->b2, none_ids, HZ_BOXES), COPSE_ERR_PARAM);
                HZ(copse_bvh_view_boxes2);
                HZ_CHECK(copse_bvh_view_boxes2(&v, blob, n - 1u, f->b2, NULL, HZ_BOXES) != COPSE_OK);
            }
            hz_guards();
        }
    }
}

/* ---- walking and inspection ---------------------------------------------------------------------- */

static copse_status walk_again(hz_re *r)
{
    return copse_bvh_walk((const copse_bvh *)r->a, r->u ? hz_re_bounds : NULL, r->u ? hz_true_id : hz_re_id, r);
}

static bool enter_none(void *user, const float *mn, const float *mx)
{
    (void)user;
    (void)mn;
    (void)mx;
    return false;
}

static void inspect_cases(const hz_fix *f)
{
    const copse_bvh *trees[4];
    copse_bvh zero, copy;
    copse_bvh_stats stats;
    const uint32_t *prims;
    uint32_t count, i, leaf;
    unsigned n;
    hz_re re;
    memset(&zero, 0, sizeof zero);
    trees[0] = &f->mesh3, trees[1] = &f->mesh2, trees[2] = &f->boxes3, trees[3] = &f->boxes2;
    HZ(copse_bvh_walk);
    HZ_IS(copse_bvh_walk(NULL, NULL, hz_count_id, &n), COPSE_ERR_NULL);
    HZ(copse_bvh_walk);
    HZ_EXPECT(copse_bvh_walk(&f->mesh3, NULL, NULL, NULL), HZ_S(OK) | HZ_S(ERR_NULL));
    HZ(copse_bvh_walk);
    HZ_EXPECT(copse_bvh_walk(&zero, NULL, hz_count_id, &n), HZ_QUERY);
    for (i = 0; i < 4u; i++) {
        n = 0;
        HZ(copse_bvh_walk);
        HZ_IS(copse_bvh_walk(trees[i], NULL, hz_count_id, &n), COPSE_OK);
        HZ_CHECK(n == trees[i]->prim_count);
        n = 0;
        HZ(copse_bvh_walk);
        HZ_IS(copse_bvh_walk(trees[i], enter_none, hz_count_id, &n), COPSE_OK);
        HZ_CHECK(n == 0u);
        n = 0;
        HZ(copse_bvh_walk);
        HZ_IS(copse_bvh_walk(trees[i], NULL, hz_stop_id, &n), COPSE_OK);
        HZ_CHECK(n == 1u);
        memset(&re, 0, sizeof re); /* re-entered from the visitor, then from the prune callback */
        re.call = walk_again;
        re.a = trees[i];
        HZ(copse_bvh_walk);
        hz_reenter(&re);
        memset(&re, 0, sizeof re);
        re.call = walk_again;
        re.a = trees[i];
        re.u = 1;
        HZ(copse_bvh_walk);
        hz_reenter(&re);
    }
    /* leaf_prims: NULLs, every node index, past the end */
    HZ(copse_bvh_leaf_prims);
    HZ_IS(copse_bvh_leaf_prims(NULL, 0, &prims, &count), COPSE_ERR_NULL);
    HZ(copse_bvh_leaf_prims);
    HZ_IS(copse_bvh_leaf_prims(&f->mesh3, 0, NULL, &count), COPSE_ERR_NULL);
    HZ(copse_bvh_leaf_prims);
    HZ_IS(copse_bvh_leaf_prims(&f->mesh3, 0, &prims, NULL), COPSE_ERR_NULL);
    for (i = 0; i < 4u; i++)
        for (leaf = 0; leaf <= trees[i]->node_count + 1u; leaf++) {
            copse_status st;
            count = 0xBADu;
            prims = (const uint32_t *)(const void *)&count;
            HZ(copse_bvh_leaf_prims);
            st = copse_bvh_leaf_prims(trees[i], leaf, &prims, &count);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_INDEX) | HZ_S(ERR_PARAM));
            if (st == COPSE_OK)
                HZ_CHECK(prims != NULL && count <= trees[i]->prim_count);
            else
                HZ_CHECK(count == 0u);
        }
    HZ(copse_bvh_leaf_prims);
    HZ_IS(copse_bvh_leaf_prims(&f->mesh3, 0xFFFFFFFFu, &prims, &count), COPSE_ERR_INDEX);
    HZ(copse_bvh_leaf_prims);
    HZ_EXPECT(copse_bvh_leaf_prims(&zero, 0, &prims, &count), HZ_S(ERR_INDEX));
    /* prim_id: in range, the limits, NULL */
    for (i = 0; i <= HZ_BOXES + 1u; i++) {
        HZ(copse_bvh_prim_id);
        HZ_CHECK(copse_bvh_prim_id(&f->boxes3, i) == (i < HZ_BOXES ? f->ids[i] : COPSE_NONE));
    }
    HZ(copse_bvh_prim_id);
    HZ_CHECK(copse_bvh_prim_id(&f->boxes3, 0xFFFFFFFFu) == COPSE_NONE);
    HZ(copse_bvh_prim_id);
    HZ_CHECK(copse_bvh_prim_id(NULL, 0) == COPSE_NONE);
    HZ(copse_bvh_prim_id);
    HZ_CHECK(copse_bvh_prim_id(&zero, 0) == COPSE_NONE);
    /* stats and check: NULLs, zeroed, damaged copies */
    HZ(copse_bvh_get_stats);
    HZ_IS(copse_bvh_get_stats(NULL, &stats), COPSE_ERR_NULL);
    HZ(copse_bvh_get_stats);
    HZ_IS(copse_bvh_get_stats(&f->mesh3, NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_get_stats);
    HZ_EXPECT(copse_bvh_get_stats(&zero, &stats), HZ_QUERY);
    HZ(copse_bvh_check);
    HZ_IS(copse_bvh_check(NULL), COPSE_ERR_NULL);
    HZ(copse_bvh_check);
    HZ_EXPECT(copse_bvh_check(&zero), HZ_QUERY);
    for (i = 0; i < 4u; i++) {
        size_t nb = (size_t)trees[i]->node_count * (trees[i]->dim == 3u ? 32u : 24u);
        uint8_t *nodes = (uint8_t *)hz_buf(nb, 0);
        uint32_t *prim_copy = (uint32_t *)hz_buf(4u * trees[i]->prim_count, 0);
        size_t k;
        HZ(copse_bvh_get_stats);
        HZ_IS(copse_bvh_get_stats(trees[i], &stats), COPSE_OK);
        HZ_CHECK(stats.nodes == trees[i]->node_count);
        HZ(copse_bvh_check);
        HZ_IS(copse_bvh_check(trees[i]), COPSE_OK);
        /* a copy with one byte of its nodes changed at a time: a status, never a crash */
        for (k = 0; k < nb; k += 3u) {
            copse_status st;
            memcpy(nodes, trees[i]->nodes, nb);
            memcpy(prim_copy, trees[i]->prims, 4u * trees[i]->prim_count);
            nodes[k] ^= (uint8_t)(0x81u + k);
            copy = *trees[i];
            copy.nodes = nodes;
            copy.prims = prim_copy;
            HZ(copse_bvh_check);
            st = copse_bvh_check(&copy);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM) | HZ_S(ERR_INDEX) | HZ_S(ERR_BLOB_NODE) | HZ_S(ERR_BLOB_BOUNDS) |
                              HZ_S(ERR_BLOB_PRIM) | HZ_S(ERR_BLOB_DEPTH) | HZ_S(ERR_TOO_DEEP) | HZ_S(ERR_NONFINITE));
            if (st == COPSE_OK) { /* what the check accepts the queries and stats must take */
                HZ(copse_bvh_get_stats);
                HZ_IS(copse_bvh_get_stats(&copy, &stats), COPSE_OK);
            }
        }
        /* counts out of step with the arrays */
        copy = *trees[i];
        copy.prim_count++;
        HZ(copse_bvh_check);
        HZ_CHECK(copse_bvh_check(&copy) != COPSE_OK);
        copy = *trees[i];
        copy.depth = 0;
        HZ(copse_bvh_check);
        HZ_CHECK(copse_bvh_check(&copy) != COPSE_OK);
        copy = *trees[i];
        copy.depth = COPSE_BVH_MAX_DEPTH + 1u;
        HZ(copse_bvh_check);
        HZ_CHECK(copse_bvh_check(&copy) != COPSE_OK);
        hz_guards();
    }
}

HZ_TEST("bvh/select", select_cases)
HZ_TEST("bvh/rays", ray_cases)
HZ_TEST("bvh/nearest", nearest_cases)
HZ_TEST("bvh/build", build_cases)
HZ_TEST("bvh/save_view", save_cases)
HZ_TEST("bvh/inspect", inspect_cases)

void hz_bvh(void)
{
    HZ_RUN("bvh/select", select_cases);
    HZ_RUN("bvh/rays", ray_cases);
    HZ_RUN("bvh/nearest", nearest_cases);
    HZ_RUN("bvh/build", build_cases);
    HZ_RUN("bvh/save_view", save_cases);
    HZ_RUN("bvh/inspect", inspect_cases);
}

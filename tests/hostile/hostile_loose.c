/* SPDX-License-Identifier: MIT */
/* Hostile cases: octree.h, the loose object octree. */
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

#define LOOSE_QUERY (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) | HZ_S(ERR_PARAM))
#define LOOSE_CHANGE (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_INDEX) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) | \
                      HZ_S(ERR_NOMEM) | HZ_S(ERR_READ_ONLY) | HZ_S(ERR_PARAM))

/* init into a malloc'd arena of the config's bytes (4096 when it asks for too much) */
static copse_status loose_make(copse_loose *t, void **mem, const copse_loose_config *c)
{
    copse_arena a;
    size_t b = copse_loose_bytes(c);
    if (b == SIZE_MAX || b > (64u << 20))
        b = 4096u;
    *mem = malloc(b + 8u);
    if (*mem == NULL)
        abort();
    copse_arena_init(&a, *mem, b + 8u);
    return copse_loose_init(t, &a, c);
}

static const copse_loose *g_t;
static copse_loose *g_w;

static void change_mutant(void *ctx, const void *m)
{
    copse_status st;
    (void)ctx;
    HZ(copse_loose_move);
    st = copse_loose_move(g_w, 0, (const copse_box3 *)m);
    HZ_EXPECT(st, LOOSE_CHANGE);
    HZ(copse_loose_insert);
    st = copse_loose_insert(g_w, 15, (const copse_box3 *)m);
    HZ_EXPECT(st, LOOSE_CHANGE);
    if (st == COPSE_OK) {
        HZ(copse_loose_remove);
        HZ_IS(copse_loose_remove(g_w, 15), COPSE_OK);
    }
    HZ(copse_loose_check);
    HZ_IS(copse_loose_check(g_w), COPSE_OK);
}

static void config_cases(const hz_fix *f)
{
    copse_loose_config c = hz_loose_config(), g;
    copse_loose t, zero;
    copse_arena a;
    void *mem;
    unsigned k;
    uint32_t i;
    struct {
        size_t off;
        uint32_t v;
    } limits[] = {
        {offsetof(copse_loose_config, max_nodes), 0u},
        {offsetof(copse_loose_config, max_nodes), COPSE_LOOSE_MAX_OBJECTS + 1u},
        {offsetof(copse_loose_config, max_objects), 0u},
        {offsetof(copse_loose_config, max_objects), COPSE_LOOSE_MAX_OBJECTS + 1u},
        {offsetof(copse_loose_config, max_depth), COPSE_LOOSE_MAX_DEPTH},
        {offsetof(copse_loose_config, max_depth), COPSE_LOOSE_MAX_DEPTH + 1u},
        {offsetof(copse_loose_config, node_capacity), 0u},
        {offsetof(copse_loose_config, node_capacity), 0xFFFFFFFFu},
    };
    memset(&zero, 0, sizeof zero);
    HZ(copse_loose_bytes);
    HZ_CHECK(copse_loose_bytes(NULL) == SIZE_MAX);
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_loose_init);
    HZ_IS(copse_loose_init(NULL, &a, &c), COPSE_ERR_NULL);
    HZ(copse_loose_init);
    HZ_IS(copse_loose_init(&t, NULL, &c), COPSE_ERR_NULL);
    HZ(copse_loose_init);
    HZ_IS(copse_loose_init(&t, &a, NULL), COPSE_ERR_NULL);
    HZ_CHECK(a.used == 0u);
    {
        size_t b = copse_loose_bytes(&c);
        copse_arena_init(&a, hz_buf(b - 1u, 0), b - 1u);
        HZ(copse_loose_init);
        HZ_IS(copse_loose_init(&t, &a, &c), COPSE_ERR_NOMEM);
        HZ_CHECK(a.used == 0u && a.needed == b);
    }
    hz_guards();
    for (k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        copse_status st;
        g = c;
        memcpy((uint8_t *)&g + limits[k].off, &limits[k].v, sizeof(uint32_t));
        HZ(copse_loose_bytes);
        (void)copse_loose_bytes(&g);
        HZ(copse_loose_init);
        st = loose_make(&t, &mem, &g);
        HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM) | HZ_S(ERR_NOMEM));
        if (st == COPSE_OK) {
            for (i = 0; i < HZ_BOXES && i < g.max_objects; i++) {
                HZ(copse_loose_insert);
                HZ_EXPECT(copse_loose_insert(&t, i, &f->b3[i]), LOOSE_CHANGE);
            }
            HZ(copse_loose_check);
            HZ_IS(copse_loose_check(&t), COPSE_OK);
        }
        free(mem);
    }
    for (k = 0; k < HZ_NGARBAGE; k++) {
        hz_garbage(&g, sizeof g, k);
        HZ(copse_loose_bytes);
        (void)copse_loose_bytes(&g);
        HZ(copse_loose_init);
        HZ_EXPECT(loose_make(&t, &mem, &g), ~(uint64_t)0);
        free(mem);
    }
    for (k = 0; k < hz_nfloats; k++) {
        unsigned slot;
        for (slot = 0; slot < 6u; slot++) {
            g = c;
            memcpy((uint8_t *)&g.world + 4u * slot, &hz_floats[k], sizeof(float));
            HZ(copse_loose_init);
            HZ_EXPECT(loose_make(&t, &mem, &g), HZ_S(OK) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) |
                                                    HZ_S(ERR_PARAM));
            free(mem);
        }
    }
    /* insert, remove, move: NULLs, ids out of range, twice, never in; hostile boxes; a tiny pool */
    HZ(copse_loose_init);
    HZ_IS(loose_make(&t, &mem, &c), COPSE_OK);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(NULL, 0, &f->b3[0]), COPSE_ERR_NULL);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&t, 0, NULL), COPSE_ERR_NULL);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&t, 16, &f->b3[0]), COPSE_ERR_INDEX);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&t, 0xFFFFFFFFu, &f->b3[0]), COPSE_ERR_INDEX);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&t, 0, &f->b3[0]), COPSE_OK);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&t, 0, &f->b3[1]), COPSE_ERR_INDEX);
    HZ(copse_loose_move);
    HZ_IS(copse_loose_move(&t, 3, &f->b3[1]), COPSE_ERR_INDEX);
    HZ(copse_loose_move);
    HZ_IS(copse_loose_move(NULL, 0, &f->b3[1]), COPSE_ERR_NULL);
    HZ(copse_loose_move);
    HZ_IS(copse_loose_move(&t, 0, NULL), COPSE_ERR_NULL);
    HZ(copse_loose_remove);
    HZ_IS(copse_loose_remove(NULL, 0), COPSE_ERR_NULL);
    HZ(copse_loose_remove);
    HZ_IS(copse_loose_remove(&t, 3), COPSE_ERR_INDEX);
    HZ(copse_loose_remove);
    HZ_IS(copse_loose_remove(&t, 16), COPSE_ERR_INDEX);
    {
        const copse_box3 inv = copse_box3_make(1, 1, 1, 0, 0, 0);
        HZ(copse_loose_insert);
        HZ_IS(copse_loose_insert(&t, 1, &inv), COPSE_ERR_EMPTY_RANGE);
        HZ(copse_loose_move);
        HZ_IS(copse_loose_move(&t, 0, &inv), COPSE_ERR_EMPTY_RANGE);
    }
    g_w = &t;
    hz_mutate(&f->b3[2], sizeof f->b3[2], change_mutant, NULL);
    HZ(copse_loose_clear);
    copse_loose_clear(&t);
    HZ_CHECK(t.size == 0u && copse_loose_check(&t) == COPSE_OK);
    HZ(copse_loose_clear);
    copse_loose_clear(NULL);
    HZ(copse_loose_clear);
    copse_loose_clear(&zero);
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&zero, 0, &f->b3[0]), COPSE_ERR_PARAM); /* never initialised */
    HZ(copse_loose_remove);
    HZ_IS(copse_loose_remove(&zero, 0), COPSE_ERR_PARAM);
    HZ(copse_loose_move);
    HZ_IS(copse_loose_move(&zero, 0, &f->b3[0]), COPSE_ERR_PARAM);
    free(mem);
    /* one node: splitting runs out, the tree stays as it was */
    g = c;
    g.max_nodes = 1;
    g.node_capacity = 0;
    HZ(copse_loose_init);
    HZ_IS(loose_make(&t, &mem, &g), COPSE_OK);
    for (i = 0; i < HZ_BOXES; i++) {
        copse_status st;
        HZ(copse_loose_insert);
        st = copse_loose_insert(&t, i, &f->b3[i]);
        HZ_EXPECT(st, LOOSE_CHANGE);
        HZ_IS(copse_loose_check(&t), COPSE_OK);
    }
    free(mem);
}

/* ---- queries ---------------------------------------------------------------------------------------- */

HZ_IDQ(copse_loose_overlap_box, copse_loose_visit_box, copse_loose, copse_box3)
HZ_IDQ(copse_loose_overlap_sphere, copse_loose_visit_sphere, copse_loose, copse_sphere)
HZ_IDQ(copse_loose_cull, copse_loose_visit_frustum, copse_loose, copse_frustum)

static bool count_hit(void *user, const copse_hit *h)
{
    (void)h;
    (*(unsigned *)user)++;
    return true;
}

static void ray_mutant(void *ctx, const void *m)
{
    copse_hit hit;
    copse_status st, sv;
    unsigned n = 0;
    (void)ctx;
    memset(&hit, 0x5A, sizeof hit);
    HZ(copse_loose_raycast);
    st = copse_loose_raycast(g_t, (const copse_ray3 *)m, &hit);
    HZ_EXPECT(st, LOOSE_QUERY);
    HZ_CHECK(st == COPSE_OK || hit.id == COPSE_NONE);
    HZ(copse_loose_visit_ray);
    sv = copse_loose_visit_ray(g_t, (const copse_ray3 *)m, count_hit, &n);
    HZ_CHECK(sv == st && (st != COPSE_OK || (hit.id != COPSE_NONE) == (n > 0u)));
}

static copse_status again_ray(hz_re *r)
{
    HZ(copse_loose_visit_ray);
    return copse_loose_visit_ray(g_t, (const copse_ray3 *)r->b, hz_re_hit, r);
}

static void query_cases(const hz_fix *f)
{
    const copse_box3 box = copse_box3_make(0, 0, -1, 4, 1, 1);
    const copse_sphere sphere = {{2.0f, 0.5f, 0.0f}, 1.5f};
    const copse_ray3 ray = {{-2.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}, 100.0f};
    copse_frustum fr;
    copse_loose zero, view;
    const copse_loose *trees[3];
    copse_hit hit;
    copse_ray3 zr = ray;
    unsigned t, k;
    hz_re re;
    static const float pl[6][4] = {{-1, 0, 0, 10}, {1, 0, 0, 10}, {0, -1, 0, 10},
                                   {0, 1, 0, 10},  {0, 0, -1, 10}, {0, 0, 1, 10}};
    for (k = 0; k < 6u; k++) {
        fr.planes[k].normal = copse_v3(pl[k][0], pl[k][1], pl[k][2]);
        fr.planes[k].dist = pl[k][3];
    }
    memset(&zero, 0, sizeof zero);
    HZ(copse_loose_view);
    HZ_IS(copse_loose_view(&view, f->blob_loose, f->n_loose), COPSE_OK);
    trees[0] = &f->loose, trees[1] = &zero, trees[2] = &view;
    /* NULLs */
    hz_idq_nulls(&q_copse_loose_overlap_box, &f->loose, &box);
    hz_idq_nulls(&q_copse_loose_overlap_sphere, &f->loose, &sphere);
    hz_idq_nulls(&q_copse_loose_cull, &f->loose, &fr);
    HZ(copse_loose_raycast);
    HZ_IS(copse_loose_raycast(&f->loose, &ray, NULL), COPSE_ERR_NULL);
    HZ(copse_loose_raycast);
    HZ_IS(copse_loose_raycast(&f->loose, NULL, &hit), COPSE_ERR_NULL);
    HZ_CHECK(hit.id == COPSE_NONE);
    HZ(copse_loose_visit_ray);
    HZ_IS(copse_loose_visit_ray(&f->loose, &ray, NULL, NULL), COPSE_ERR_NULL);
    zr.dir = copse_v3(0, 0, 0);
    HZ(copse_loose_raycast);
    HZ_IS(copse_loose_raycast(&f->loose, &zr, &hit), COPSE_ERR_PARAM);
    zr = ray;
    zr.t_max = -1.0f;
    HZ(copse_loose_raycast);
    HZ_IS(copse_loose_raycast(&f->loose, &zr, &hit), COPSE_ERR_EMPTY_RANGE);
    hz_guards();
    for (t = 0; t < 3u; t++) {
        g_t = trees[t];
        hz_idq_mutate(&q_copse_loose_overlap_box, trees[t], &box, sizeof box, LOOSE_QUERY);
        hz_idq_mutate(&q_copse_loose_overlap_sphere, trees[t], &sphere, sizeof sphere, LOOSE_QUERY);
        hz_idq_mutate(&q_copse_loose_cull, trees[t], &fr, sizeof fr, LOOSE_QUERY);
        hz_mutate(&ray, sizeof ray, ray_mutant, NULL);
    }
    g_t = &f->loose;
    hz_idq_visitors(&q_copse_loose_overlap_box, &f->loose, &box);
    hz_idq_visitors(&q_copse_loose_cull, &f->loose, &fr);
    memset(&re, 0, sizeof re);
    re.call = again_ray;
    re.b = &ray;
    hz_reenter(&re);
    /* a view is read-only */
    HZ(copse_loose_insert);
    HZ_IS(copse_loose_insert(&view, 12, &f->b3[0]), COPSE_ERR_READ_ONLY);
    HZ(copse_loose_remove);
    HZ_IS(copse_loose_remove(&view, 0), COPSE_ERR_READ_ONLY);
    HZ(copse_loose_move);
    HZ_IS(copse_loose_move(&view, 0, &f->b3[1]), COPSE_ERR_READ_ONLY);
    HZ(copse_loose_clear);
    copse_loose_clear(&view);
    HZ_CHECK(view.size == f->loose.size);
}

HZ_BLOB_OPS(copse_loose, loose, x->nodes == NULL && x->size == 0u)

static void blob_cases(const hz_fix *f)
{
    copse_loose zero, copy;
    copse_loose_stats stats;
    unsigned k;
    memset(&zero, 0, sizeof zero);
    hz_blob_family(&ops_loose, &f->loose, f->blob_loose, f->n_loose, f->blob_oct, f->n_oct);
    HZ(copse_loose_get_stats);
    HZ_IS(copse_loose_get_stats(NULL, &stats), COPSE_ERR_NULL);
    HZ(copse_loose_get_stats);
    HZ_IS(copse_loose_get_stats(&f->loose, NULL), COPSE_ERR_NULL);
    HZ(copse_loose_get_stats);
    HZ_EXPECT(copse_loose_get_stats(&zero, &stats), HZ_S(OK) | HZ_S(ERR_PARAM));
    HZ(copse_loose_check);
    HZ_IS(copse_loose_check(NULL), COPSE_ERR_NULL);
    HZ(copse_loose_check);
    HZ_EXPECT(copse_loose_check(&zero), HZ_S(OK) | HZ_S(ERR_PARAM));
    {
        size_t nb = sizeof(copse_loose_node) * f->loose.max_nodes;
        size_t ob = sizeof(copse_loose_object) * f->loose.max_objects;
        uint8_t *nodes = (uint8_t *)malloc(nb), *objs = (uint8_t *)malloc(ob);
        if (nodes == NULL || objs == NULL)
            abort();
        for (k = 0; k < nb + ob; k += 3u) {
            copse_status st;
            memcpy(nodes, f->loose.nodes, nb);
            memcpy(objs, f->loose.objects, ob);
            if (k < nb)
                nodes[k] ^= (uint8_t)(0x41u + k);
            else
                objs[k - nb] ^= (uint8_t)(0x41u + k);
            copy = f->loose;
            copy.nodes = (copse_loose_node *)(void *)nodes;
            copy.objects = (copse_loose_object *)(void *)objs;
            HZ(copse_loose_check);
            st = copse_loose_check(&copy);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM));
            if (st == COPSE_OK) {
                HZ(copse_loose_get_stats);
                HZ_IS(copse_loose_get_stats(&copy, &stats), COPSE_OK);
            }
        }
        free(nodes);
        free(objs);
    }
}

HZ_TEST("loose/config", config_cases)
HZ_TEST("loose/queries", query_cases)
HZ_TEST("loose/blob", blob_cases)

void hz_loose(void)
{
    HZ_RUN("loose/config", config_cases);
    HZ_RUN("loose/queries", query_cases);
    HZ_RUN("loose/blob", blob_cases);
}

/* SPDX-License-Identifier: MIT */
/* Hostile cases: bsp.h (the 2D map tree and the 3D solid-leaf tree). */
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

#define BSP_QUERY (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE))
#define BSP_BUILD (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_PARAM) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_DEGENERATE) | \
                   HZ_S(ERR_TOO_LARGE) | HZ_S(ERR_NOMEM) | HZ_S(ERR_UNBOUNDED) | HZ_S(ERR_NONCONVEX))

/* ---- 2D ---------------------------------------------------------------------------------------------- */

static const copse_bsp2 *g_b2;

HZ_IDQ(copse_bsp2_overlap_box_leaves, copse_bsp2_visit_box_leaves, copse_bsp2, copse_box2)

static void box2_mutant(void *ctx, const void *m)
{
    bool hit = true;
    uint32_t hit_id = 0u;
    copse_status st;
    (void)ctx;
    HZ(copse_bsp2_any_box);
    st = copse_bsp2_any_box(g_b2, (const copse_box2 *)m, &hit_id);
    hit = hit_id != COPSE_NONE;
    HZ_EXPECT(st, BSP_QUERY);
    HZ_CHECK(st == COPSE_OK || !hit);
    hz_idq_one(&q_copse_bsp2_overlap_box_leaves, g_b2, m, BSP_QUERY);
}

static void circle_mutant(void *ctx, const void *m)
{
    bool hit = true;
    uint32_t hit_id = 0u;
    copse_status st;
    (void)ctx;
    HZ(copse_bsp2_any_circle);
    st = copse_bsp2_any_circle(g_b2, (const copse_circle *)m, &hit_id);
    hit = hit_id != COPSE_NONE;
    HZ_EXPECT(st, BSP_QUERY);
    HZ_CHECK(st == COPSE_OK || !hit);
}

static void seg2_mutant(void *ctx, const void *m)
{
    copse_bsp2_trace tr;
    copse_status st;
    (void)ctx;
    memset(&tr, 0x5A, sizeof tr);
    HZ(copse_sweep_point_bsp2);
    st = copse_sweep_point_bsp2((const copse_segment2 *)m, g_b2, &tr);
    HZ_EXPECT(st, BSP_QUERY);
    if (st != COPSE_OK)
        HZ_CHECK(!tr.hit && tr.id == COPSE_NONE);
    else
        HZ_CHECK(tr.t >= 0.0f && tr.t <= 1.0f && (tr.hit || tr.t == 1.0f));
}

static void point2_mutant(void *ctx, const void *m)
{
    copse_vec2 p;
    copse_bsp2_where w;
    copse_status st;
    unsigned n = 0;
    (void)ctx;
    memcpy(&p, m, sizeof p);
    memset(&w, 0x5A, sizeof w);
    HZ(copse_bsp2_locate);
    st = copse_bsp2_locate(g_b2, p, &w);
    HZ_EXPECT(st, BSP_QUERY);
    if (st != COPSE_OK)
        HZ_CHECK(!w.solid && w.id == COPSE_NONE);
    HZ(copse_bsp2_visit_front_to_back);
    HZ_EXPECT(copse_bsp2_visit_front_to_back(g_b2, p, hz_count_id, &n), BSP_QUERY);
    HZ(copse_bsp2_visit_back_to_front);
    HZ_EXPECT(copse_bsp2_visit_back_to_front(g_b2, p, hz_count_id, &n), BSP_QUERY);
}

static copse_status again_f2b(hz_re *r)
{
    HZ(copse_bsp2_visit_front_to_back);
    return copse_bsp2_visit_front_to_back(g_b2, copse_v2(0.5f, 0.0f), hz_re_id, r);
}

static copse_status again_b2f(hz_re *r)
{
    HZ(copse_bsp2_visit_back_to_front);
    return copse_bsp2_visit_back_to_front(g_b2, copse_v2(0.5f, 0.0f), hz_re_id, r);
}

static copse_status again_pairs(hz_re *r)
{
    HZ(copse_bsp2_visit_pairs);
    return copse_bsp2_visit_pairs(g_b2, hz_re_bsp_pair, r);
}

static bool count_pair(void *user, uint32_t a, uint32_t b)
{
    (*(unsigned *)user)++;
    return a < b;
}

/* The dump into every capacity from 0 to the text's length + 1: NUL-terminated within it, cut
 * at cap - 1 with NOMEM when short; never a byte past cap. */
static void dump_capacities(copse_status (*dump)(const void *t, copse_bsp_order o, char *buf, size_t cap,
                                                 size_t *len),
                            const void *t)
{
    unsigned o;
    for (o = 0; o < 3u; o++) {
        size_t len = 0, cap, got;
        copse_status st = dump(t, (copse_bsp_order)o, NULL, 0, &len);
        if (o == 2u) { /* an order that is not one */
            HZ_EXPECT(st, HZ_S(ERR_PARAM) | HZ_S(ERR_NOMEM) | HZ_S(OK));
            continue;
        }
        HZ_EXPECT(st, HZ_S(ERR_NOMEM) | HZ_S(OK) | HZ_S(ERR_NULL));
        for (cap = 0; cap <= len + 1u && cap < 4096u; cap += cap < 40u ? 1u : 97u) {
            char *buf = (char *)hz_buf(cap, 1);
            st = dump(t, (copse_bsp_order)o, buf, cap, &got);
            if (cap > len) {
                HZ_IS(st, COPSE_OK);
                HZ_CHECK(got == len && buf[len] == '\0');
            } else {
                HZ_IS(st, cap == 0u ? COPSE_ERR_NOMEM : COPSE_ERR_NOMEM);
                HZ_CHECK(cap == 0u || buf[cap - 1u] == '\0');
            }
            hz_guards();
        }
    }
}

static copse_status w_dump2(const void *t, copse_bsp_order o, char *buf, size_t cap, size_t *len)
{
    HZ(copse_bsp2_dump);
    return copse_bsp2_dump((const copse_bsp2 *)t, o, buf, cap, len);
}

static copse_status w_dump3(const void *t, copse_bsp_order o, char *buf, size_t cap, size_t *len)
{
    HZ(copse_bsp3_dump);
    return copse_bsp3_dump((const copse_bsp3 *)t, o, buf, cap, len);
}

static const copse_box2 *g_objs;

static void build2_mutant(void *ctx, const void *m)
{
    const copse_bsp2_params p = COPSE_BSP2_PARAMS_DEFAULT;
    const copse_box2 *scene = (const copse_box2 *)m;
    copse_bsp2 t;
    copse_arena a;
    size_t need;
    copse_status st;
    (void)ctx;
    HZ(copse_bsp2_build_bytes);
    need = copse_bsp2_build_bytes(scene, g_objs, 4, &p);
    copse_arena_init(&a, hz_buf(need == SIZE_MAX || need > 65536u ? 4096u : need, 0),
                     need == SIZE_MAX || need > 65536u ? 4096u : need);
    HZ(copse_bsp2_build);
    st = copse_bsp2_build(&t, &a, scene, g_objs, 4, &p);
    HZ_EXPECT(st, BSP_BUILD);
    HZ_CHECK((st == COPSE_OK) == (need != SIZE_MAX) || st == COPSE_ERR_NOMEM);
    if (st == COPSE_OK) {
        HZ(copse_bsp2_check);
        HZ_IS(copse_bsp2_check(&t), COPSE_OK);
    } else {
        HZ_CHECK(a.used == 0u && t.node_count == 0u);
    }
    hz_guards();
}

static void objs_mutant(void *ctx, const void *m)
{
    const copse_bsp2_params p = COPSE_BSP2_PARAMS_DEFAULT;
    const hz_fix *f = (const hz_fix *)ctx;
    copse_bsp2 t;
    copse_arena a;
    size_t need;
    copse_status st;
    HZ(copse_bsp2_build_bytes);
    need = copse_bsp2_build_bytes(&f->scene, (const copse_box2 *)m, 2, &p);
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_bsp2_build);
    st = copse_bsp2_build(&t, &a, &f->scene, (const copse_box2 *)m, 2, &p);
    HZ_EXPECT(st, BSP_BUILD);
    HZ_CHECK(st != COPSE_OK || need != SIZE_MAX);
    hz_guards();
}

static void bsp2_cases(const hz_fix *f)
{
    const copse_box2 box = copse_box2_make(0.0f, -1.0f, 3.0f, 1.0f);
    const copse_circle circle = {{1.0f, 0.0f}, 0.75f};
    const copse_segment2 seg = {{-4.0f, 0.1f}, {10.0f, 0.2f}};
    const copse_vec2 pt = {0.5f, 0.0f};
    copse_bsp2_params p = COPSE_BSP2_PARAMS_DEFAULT;
    copse_bsp2 zero, view, copy, t;
    const copse_bsp2 *trees[3];
    copse_arena a;
    copse_bsp2_where w;
    copse_bsp2_trace tr;
    const uint32_t *objs;
    uint32_t count, leaf;
    uint32_t hit_id = COPSE_NONE;
    size_t n, len;
    unsigned k, g;
    hz_re re;
    memset(&zero, 0, sizeof zero);
    HZ(copse_bsp2_view);
    HZ_IS(copse_bsp2_view(&view, f->blob_bsp2, f->n_bsp2), COPSE_OK);
    trees[0] = &f->bsp2, trees[1] = &zero, trees[2] = &view;
    /* build_bytes, build: NULLs, depth limits, inverted and degenerate boxes, hostile numbers */
    HZ(copse_bsp2_build_bytes);
    HZ_CHECK(copse_bsp2_build_bytes(NULL, f->objs, 2, &p) == SIZE_MAX);
    HZ(copse_bsp2_build_bytes);
    HZ_CHECK(copse_bsp2_build_bytes(&f->scene, NULL, 2, &p) == SIZE_MAX);
    HZ(copse_bsp2_build_bytes);
    HZ_CHECK(copse_bsp2_build_bytes(&f->scene, f->objs, 2, NULL) == SIZE_MAX);
    HZ(copse_bsp2_build_bytes);
    HZ_CHECK(copse_bsp2_build_bytes(&f->scene, f->objs, COPSE_BSP_MAX_OBJECTS + 1u, &p) == SIZE_MAX);
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(NULL, &a, &f->scene, f->objs, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(&t, NULL, &f->scene, f->objs, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(&t, &a, NULL, f->objs, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(&t, &a, &f->scene, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(&t, &a, &f->scene, f->objs, 2, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_build);
    HZ_EXPECT(copse_bsp2_build(&t, &a, &f->scene, f->objs, 0, &p), BSP_BUILD);
    HZ(copse_bsp2_build);
    HZ_IS(copse_bsp2_build(&t, &a, &f->scene, f->objs, COPSE_BSP_MAX_OBJECTS + 1u, &p), COPSE_ERR_TOO_LARGE);
    {
        static const uint32_t depths[5] = {0u, 1u, COPSE_BSP_MAX_DEPTH, COPSE_BSP_MAX_DEPTH + 1u, 0xFFFFFFFFu};
        for (k = 0; k < 5u; k++) {
            copse_status st;
            p.max_depth = depths[k];
            HZ(copse_bsp2_build_bytes);
            n = copse_bsp2_build_bytes(&f->scene, f->objs, HZ_BOXES, &p);
            copse_arena_init(&a, hz_buf(n == SIZE_MAX ? 64u : n, 0), n == SIZE_MAX ? 64u : n);
            HZ(copse_bsp2_build);
            st = copse_bsp2_build(&t, &a, &f->scene, f->objs, HZ_BOXES, &p);
            HZ_IS(st, n == SIZE_MAX ? COPSE_ERR_PARAM : COPSE_OK);
            if (n != SIZE_MAX && n > 0u) {
                copse_arena_init(&a, hz_buf(n - 1u, 0), n - 1u);
                HZ(copse_bsp2_build);
                HZ_IS(copse_bsp2_build(&t, &a, &f->scene, f->objs, HZ_BOXES, &p), COPSE_ERR_NOMEM);
                HZ_CHECK(a.used == 0u && a.needed == n);
            }
            hz_guards();
        }
        p = (copse_bsp2_params)COPSE_BSP2_PARAMS_DEFAULT;
    }
    g_objs = f->objs;
    hz_mutate(&f->scene, sizeof f->scene, build2_mutant, NULL);
    hz_mutate(f->objs, 2u * sizeof(copse_box2), objs_mutant, (void *)(uintptr_t)f);
    {
        copse_box2 bad[2];
        bad[0] = f->objs[0];
        bad[1] = copse_box2_make(1, 1, 1, 2); /* zero width */
        objs_mutant((void *)(uintptr_t)f, bad);
        bad[1] = copse_box2_make(2, 1, 1, 2); /* inverted */
        objs_mutant((void *)(uintptr_t)f, bad);
    }
    for (g = 0; g < HZ_NGARBAGE; g++) {
        copse_bsp2_params gp;
        hz_garbage(&gp, sizeof gp, g);
        HZ(copse_bsp2_build_bytes);
        (void)copse_bsp2_build_bytes(&f->scene, f->objs, 2, &gp);
    }
    HZ(copse_bsp2_bytes);
    HZ_CHECK(copse_bsp2_bytes(NULL) == 0u);
    HZ(copse_bsp2_bytes);
    HZ_CHECK(copse_bsp2_bytes(&zero) == 0u);
    HZ(copse_bsp2_bytes);
    HZ_CHECK(copse_bsp2_bytes(&f->bsp2) == copse_bsp2_build_bytes(&f->scene, f->objs, HZ_BOXES, &p));
    /* queries: NULLs, then every field on the built, zeroed and viewed trees */
    HZ(copse_bsp2_locate);
    HZ_IS(copse_bsp2_locate(NULL, pt, &w), COPSE_ERR_NULL);
    HZ(copse_bsp2_locate);
    HZ_IS(copse_bsp2_locate(&f->bsp2, pt, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_any_box);
    hit_id = 0u;
    HZ_IS(copse_bsp2_any_box(&f->bsp2, NULL, &hit_id), COPSE_ERR_NULL);
    HZ_CHECK(hit_id == COPSE_NONE); /* emptied on the error */
    HZ(copse_bsp2_any_box);
    HZ_IS(copse_bsp2_any_box(&f->bsp2, &box, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_any_circle);
    hit_id = 0u;
    HZ_IS(copse_bsp2_any_circle(NULL, &circle, &hit_id), COPSE_ERR_NULL);
    HZ_CHECK(hit_id == COPSE_NONE); /* emptied on the error */
    HZ(copse_bsp2_any_circle);
    hit_id = 0u;
    HZ_IS(copse_bsp2_any_circle(&f->bsp2, NULL, &hit_id), COPSE_ERR_NULL);
    HZ_CHECK(hit_id == COPSE_NONE); /* emptied on the error */
    HZ(copse_sweep_point_bsp2);
    HZ_IS(copse_sweep_point_bsp2(NULL, &f->bsp2, &tr), COPSE_ERR_NULL);
    HZ(copse_sweep_point_bsp2);
    HZ_IS(copse_sweep_point_bsp2(&seg, &f->bsp2, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_visit_front_to_back);
    HZ_IS(copse_bsp2_visit_front_to_back(&f->bsp2, pt, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_visit_back_to_front);
    HZ_IS(copse_bsp2_visit_back_to_front(NULL, pt, hz_count_id, &k), COPSE_ERR_NULL);
    hz_idq_nulls(&q_copse_bsp2_overlap_box_leaves, &f->bsp2, &box);
    HZ(copse_bsp2_visit_pairs);
    HZ_IS(copse_bsp2_visit_pairs(&f->bsp2, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_visit_pairs);
    HZ_IS(copse_bsp2_visit_pairs(NULL, count_pair, &k), COPSE_ERR_NULL);
    hz_guards();
    for (k = 0; k < 3u; k++) {
        unsigned np = 0;
        g_b2 = trees[k];
        hz_mutate(&box, sizeof box, box2_mutant, NULL);
        hz_mutate(&circle, sizeof circle, circle_mutant, NULL);
        hz_mutate(&seg, sizeof seg, seg2_mutant, NULL);
        hz_mutate(&pt, sizeof pt, point2_mutant, NULL);
        HZ(copse_bsp2_visit_pairs);
        HZ_IS(copse_bsp2_visit_pairs(trees[k], count_pair, &np), COPSE_OK);
        /* leaf_objects: every node index, one past, the largest */
        for (leaf = 0; leaf <= trees[k]->node_count + 1u; leaf++) {
            copse_status st;
            count = 0xBADu;
            HZ(copse_bsp2_leaf_objects);
            st = copse_bsp2_leaf_objects(trees[k], leaf, &objs, &count);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_INDEX) | HZ_S(ERR_PARAM));
            HZ_CHECK(st == COPSE_OK || count == 0u);
        }
        HZ(copse_bsp2_leaf_objects);
        HZ_IS(copse_bsp2_leaf_objects(trees[k], 0xFFFFFFFFu, &objs, &count), COPSE_ERR_INDEX);
        dump_capacities(w_dump2, trees[k]);
    }
    HZ(copse_bsp2_leaf_objects);
    HZ_IS(copse_bsp2_leaf_objects(NULL, 0, &objs, &count), COPSE_ERR_NULL);
    HZ(copse_bsp2_leaf_objects);
    HZ_IS(copse_bsp2_leaf_objects(&f->bsp2, 0, NULL, &count), COPSE_ERR_NULL);
    HZ(copse_bsp2_dump);
    HZ_IS(copse_bsp2_dump(NULL, COPSE_BSP_PREORDER, NULL, 0, &len), COPSE_ERR_NULL);
    HZ(copse_bsp2_dump);
    HZ_IS(copse_bsp2_dump(&f->bsp2, COPSE_BSP_PREORDER, NULL, 10, &len), COPSE_ERR_NULL);
    /* visitors: stop, call again */
    g_b2 = &f->bsp2;
    k = 0;
    HZ(copse_bsp2_visit_front_to_back);
    HZ_IS(copse_bsp2_visit_front_to_back(&f->bsp2, pt, hz_stop_id, &k), COPSE_OK);
    HZ_CHECK(k == 1u);
    memset(&re, 0, sizeof re);
    re.call = again_f2b;
    hz_reenter(&re);
    memset(&re, 0, sizeof re);
    re.call = again_b2f;
    hz_reenter(&re);
    hz_idq_visitors(&q_copse_bsp2_overlap_box_leaves, &f->bsp2, &box);
    memset(&re, 0, sizeof re);
    re.call = again_pairs;
    hz_reenter(&re);
    /* check on damaged copies; save, view */
    HZ(copse_bsp2_check);
    HZ_IS(copse_bsp2_check(NULL), COPSE_ERR_NULL);
    HZ(copse_bsp2_check);
    HZ_EXPECT(copse_bsp2_check(&zero), HZ_S(OK) | HZ_S(ERR_PARAM));
    {
        size_t nb = sizeof(copse_bsp2_node) * f->bsp2.node_count, ib = 4u * f->bsp2.item_count;
        uint8_t *nodes = (uint8_t *)malloc(nb), *items = (uint8_t *)malloc(ib + 4u);
        if (nodes == NULL || items == NULL)
            abort();
        for (k = 0; k < nb + ib; k += 3u) {
            copse_status st;
            memcpy(nodes, f->bsp2.nodes, nb);
            memcpy(items, f->bsp2.items, ib);
            if (k < nb)
                nodes[k] ^= (uint8_t)(0x31u + k);
            else
                items[k - nb] ^= (uint8_t)(0x31u + k);
            copy = f->bsp2;
            copy.nodes = (const copse_bsp2_node *)(const void *)nodes;
            copy.items = (const uint32_t *)(const void *)items;
            HZ(copse_bsp2_check);
            st = copse_bsp2_check(&copy);
            if (st == COPSE_OK) { /* what the check accepts, every query must take */
                g_b2 = &copy;
                box2_mutant(NULL, &box);
                seg2_mutant(NULL, &seg);
                point2_mutant(NULL, &pt);
                dump_capacities(w_dump2, &copy);
            }
        }
        free(nodes);
        free(items);
    }
}

/* ---- brushes ----------------------------------------------------------------------------------------- */

static void brush_box_mutant(void *ctx, const void *m)
{
    copse_plane planes[6 + 1];
    copse_status st;
    (void)ctx;
    memset(planes, 0x5A, sizeof planes);
    HZ(copse_brush_from_box);
    st = copse_brush_from_box((const copse_box3 *)m, planes);
    HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_PARAM) | HZ_S(ERR_DEGENERATE) | HZ_S(ERR_NONFINITE));
    HZ_CHECK(((const uint8_t *)&planes[6])[0] == 0x5Au); /* six planes, never a seventh */
}

typedef struct poly_arg {
    copse_vec2 c[4];
    float z0, z1;
} poly_arg;

static void poly_mutant(void *ctx, const void *m)
{
    const poly_arg *a = (const poly_arg *)m;
    copse_plane *planes = (copse_plane *)hz_buf(sizeof(copse_plane) * 6u, 0);
    uint32_t n = 77;
    copse_status st;
    (void)ctx;
    HZ(copse_brush_from_polygon);
    st = copse_brush_from_polygon(a->c, 4, a->z0, a->z1, planes, 6, &n);
    HZ_EXPECT(st, BSP_BUILD);
    HZ_CHECK(st != COPSE_OK || n == 6u);
    hz_guards();
}

static void brush_cases(const hz_fix *f)
{
    const copse_box3 box = copse_box3_make(0, 0, 0, 1, 2, 3);
    const poly_arg pa = {{{0, 0}, {2, 0}, {2, 1}, {0, 1}}, -1.0f, 1.0f};
    copse_plane planes[8];
    copse_bsp3_brush b;
    uint32_t n, cap, cnt;
    static const uint32_t counts[5] = {0u, 0xFFFFu, 0x10000u, 0xFFFF0000u, 0xFFFFFFFFu};
    (void)f;
    HZ(copse_brush_from_box);
    HZ_IS(copse_brush_from_box(NULL, planes), COPSE_ERR_NULL);
    HZ(copse_brush_from_box);
    HZ_IS(copse_brush_from_box(&box, NULL), COPSE_ERR_NULL);
    hz_mutate(&box, sizeof box, brush_box_mutant, NULL);
    HZ(copse_brush_from_polygon);
    HZ_IS(copse_brush_from_polygon(NULL, 4, 0, 1, planes, 8, &n), COPSE_ERR_NULL);
    HZ(copse_brush_from_polygon);
    HZ_IS(copse_brush_from_polygon(pa.c, 4, 0, 1, NULL, 8, &n), COPSE_ERR_NULL);
    HZ(copse_brush_from_polygon);
    HZ_IS(copse_brush_from_polygon(pa.c, 4, 0, 1, planes, 8, NULL), COPSE_ERR_NULL);
    for (cnt = 0; cnt < 3u; cnt++) {
        HZ(copse_brush_from_polygon);
        HZ_IS(copse_brush_from_polygon(pa.c, cnt, 0, 1, planes, 8, &n), COPSE_ERR_PARAM);
    }
    HZ(copse_brush_from_polygon);
    HZ_IS(copse_brush_from_polygon(pa.c, 4, 1, 1, planes, 8, &n), COPSE_ERR_DEGENERATE);
    HZ(copse_brush_from_polygon);
    HZ_IS(copse_brush_from_polygon(pa.c, 4, 2, 1, planes, 8, &n), COPSE_ERR_PARAM);
    for (cap = 0; cap <= 7u; cap++) { /* the planes' capacity: one short, exact, more */
        copse_plane *pl = (copse_plane *)hz_buf(sizeof(copse_plane) * cap, 0);
        HZ(copse_brush_from_polygon);
        HZ_IS(copse_brush_from_polygon(pa.c, 4, 0, 1, pl, cap, &n), cap < 6u ? COPSE_ERR_NOMEM : COPSE_OK);
        hz_guards();
    }
    {
        const copse_vec2 nonconvex[4] = {{0, 0}, {2, 0}, {0.5f, 0.5f}, {0, 2}};
        const copse_vec2 collinear[4] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}};
        const copse_vec2 repeated[4] = {{0, 0}, {2, 0}, {2, 0}, {0, 1}};
        HZ(copse_brush_from_polygon);
        HZ_EXPECT(copse_brush_from_polygon(nonconvex, 4, 0, 1, planes, 8, &n), HZ_S(ERR_NONCONVEX));
        HZ(copse_brush_from_polygon);
        HZ_EXPECT(copse_brush_from_polygon(collinear, 4, 0, 1, planes, 8, &n), BSP_BUILD);
        HZ(copse_brush_from_polygon);
        HZ_EXPECT(copse_brush_from_polygon(repeated, 4, 0, 1, planes, 8, &n), BSP_BUILD);
    }
    hz_mutate(&pa, sizeof pa, poly_mutant, NULL);
    for (n = 0; n < 5u; n++) { /* the packed counts at their limits */
        b.first = 0;
        b.counts = counts[n];
        HZ(copse_bsp3_brush_sides);
        HZ_CHECK(copse_bsp3_brush_sides(&b) == (counts[n] & 0xFFFFu));
        HZ(copse_bsp3_brush_split_sides);
        HZ_CHECK(copse_bsp3_brush_split_sides(&b) == counts[n] >> 16);
    }
}

/* ---- 3D ----------------------------------------------------------------------------------------------- */

static const copse_bsp3 *g_b3;

static void point3_mutant(void *ctx, const void *m)
{
    copse_vec3 p;
    copse_bsp3_where w;
    copse_status st;
    (void)ctx;
    memcpy(&p, m, sizeof p);
    memset(&w, 0x5A, sizeof w);
    HZ(copse_bsp3_contents);
    st = copse_bsp3_contents(g_b3, p, &w);
    HZ_EXPECT(st, BSP_QUERY | HZ_S(ERR_INDEX));
    if (st != COPSE_OK)
        HZ_CHECK(!w.solid);
}

typedef struct trace_arg {
    copse_segment3 s;
    float r;
} trace_arg;

static void trace_mutant(void *ctx, const void *m)
{
    const trace_arg *a = (const trace_arg *)m;
    copse_bsp3_trace tr;
    copse_status st;
    (void)ctx;
    memset(&tr, 0x5A, sizeof tr);
    HZ(copse_sweep_sphere_bsp3);
    st = copse_sweep_sphere_bsp3(&a->s, a->r, g_b3, &tr);
    HZ_EXPECT(st, BSP_QUERY | HZ_S(ERR_INDEX));
    if (st != COPSE_OK)
        HZ_CHECK(!tr.hit && !tr.start_solid);
    else
        HZ_CHECK(tr.t >= 0.0f && tr.t <= 1.0f);
    memset(&tr, 0x5A, sizeof tr);
    HZ(copse_sweep_point_bsp3);
    st = copse_sweep_point_bsp3(&a->s, g_b3, &tr);
    HZ_EXPECT(st, BSP_QUERY | HZ_S(ERR_INDEX));
    if (st != COPSE_OK)
        HZ_CHECK(!tr.hit && !tr.start_solid);
    else
        HZ_CHECK(tr.t >= 0.0f && tr.t <= 1.0f);
}

static void box3_mutant(void *ctx, const void *m)
{
    bool hit = true;
    uint32_t hit_id = 0u;
    copse_status st;
    (void)ctx;
    HZ(copse_bsp3_any_box);
    st = copse_bsp3_any_box(g_b3, (const copse_box3 *)m, &hit_id);
    hit = hit_id != COPSE_NONE;
    HZ_EXPECT(st, BSP_QUERY | HZ_S(ERR_INDEX));
    HZ_CHECK(st == COPSE_OK || !hit);
}

static const copse_brush *g_brushes;

/* one brush's planes mutated: a build from them, sized exactly, refused or checked */
static void build3_mutant(void *ctx, const void *m)
{
    const copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    copse_brush br[2];
    copse_bsp3 t;
    copse_arena a;
    size_t work = 1u << 16, need;
    void *wmem = malloc(work);
    copse_status st;
    (void)ctx;
    if (wmem == NULL)
        abort();
    br[0] = g_brushes[0];
    br[1].planes = (const copse_plane *)m;
    br[1].plane_count = 6;
    HZ(copse_bsp3_scratch_bytes);
    (void)copse_bsp3_scratch_bytes(br, 2, &p);
    HZ(copse_bsp3_build_bytes);
    need = copse_bsp3_build_bytes(br, 2, &p, wmem, work);
    copse_arena_init(&a, hz_buf(need == SIZE_MAX || need > work ? 4096u : need, 0),
                     need == SIZE_MAX || need > work ? 4096u : need);
    HZ(copse_bsp3_build);
    st = copse_bsp3_build(&t, &a, br, 2, &p);
    HZ_EXPECT(st, BSP_BUILD);
    HZ_CHECK(st != COPSE_OK || need != SIZE_MAX);
    if (st == COPSE_OK) {
        HZ(copse_bsp3_check);
        HZ_IS(copse_bsp3_check(&t), COPSE_OK);
    } else {
        HZ_CHECK(a.used == 0u && t.node_count == 0u);
    }
    free(wmem);
    hz_guards();
}

static void bsp3_cases(const hz_fix *f)
{
    const copse_vec3 pt = {0.5f, 0.5f, 0.5f};
    const trace_arg ta = {{{-2.0f, 0.5f, 0.5f}, {6.0f, 0.6f, 0.5f}}, 0.25f};
    const copse_box3 box = copse_box3_make(0.25f, 0.25f, 0.25f, 2.0f, 1.0f, 1.0f);
    copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT, gp;
    copse_bsp3 zero, view, copy, t;
    const copse_bsp3 *trees[4];
    copse_bsp3_where w;
    copse_bsp3_trace tr;
    copse_arena a;
    size_t n, work = 1u << 18, len;
    void *wmem = malloc(work);
    uint32_t hit_id = COPSE_NONE;
    unsigned k, g;
    if (wmem == NULL)
        abort();
    memset(&zero, 0, sizeof zero);
    HZ(copse_bsp3_view);
    HZ_IS(copse_bsp3_view(&view, f->blob_bsp3, f->n_bsp3), COPSE_OK);
    trees[0] = &f->bsp3, trees[1] = &zero, trees[2] = &view, trees[3] = &f->deep3;
    /* sizes and builds: NULLs, limits, short work memory, garbage parameters */
    HZ(copse_bsp3_scratch_bytes);
    HZ_CHECK(copse_bsp3_scratch_bytes(NULL, 2, &p) == SIZE_MAX);
    HZ(copse_bsp3_scratch_bytes);
    HZ_CHECK(copse_bsp3_scratch_bytes(f->brushes, 2, NULL) == SIZE_MAX);
    HZ(copse_bsp3_scratch_bytes);
    HZ_CHECK(copse_bsp3_scratch_bytes(f->brushes, COPSE_BSP_MAX_OBJECTS + 1u, &p) == SIZE_MAX);
    HZ(copse_bsp3_build_bytes);
    HZ_CHECK(copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p, NULL, work) == SIZE_MAX);
    HZ(copse_bsp3_build_bytes);
    n = copse_bsp3_scratch_bytes(f->brushes, HZ_BRUSHES, &p);
    HZ_CHECK(copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p, wmem, n - 1u) == SIZE_MAX);
    {
        uint8_t *mis = (uint8_t *)hz_buf(work, 3);
        HZ(copse_bsp3_build_bytes);
        HZ_CHECK(copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p, mis, work - 8u) ==
                 copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p, wmem, work));
        hz_guards();
    }
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(&gp, sizeof gp, g);
        HZ(copse_bsp3_scratch_bytes);
        (void)copse_bsp3_scratch_bytes(f->brushes, 2, &gp);
        HZ(copse_bsp3_build_bytes);
        (void)copse_bsp3_build_bytes(f->brushes, 2, &gp, wmem, work);
    }
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_bsp3_build);
    HZ_IS(copse_bsp3_build(NULL, &a, f->brushes, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp3_build);
    HZ_IS(copse_bsp3_build(&t, NULL, f->brushes, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp3_build);
    HZ_IS(copse_bsp3_build(&t, &a, NULL, 2, &p), COPSE_ERR_NULL);
    HZ(copse_bsp3_build);
    HZ_IS(copse_bsp3_build(&t, &a, f->brushes, 2, NULL), COPSE_ERR_NULL);
    HZ(copse_bsp3_build);
    HZ_IS(copse_bsp3_build(&t, &a, f->brushes, COPSE_BSP_MAX_OBJECTS + 1u, &p), COPSE_ERR_TOO_LARGE);
    {
        copse_brush b3[2];
        b3[0] = f->brushes[0];
        b3[1] = f->brushes[1];
        b3[1].plane_count = 3;
        HZ(copse_bsp3_build);
        HZ_EXPECT(copse_bsp3_build(&t, &a, b3, 2, &p), BSP_BUILD);
        b3[1].plane_count = COPSE_BSP3_MAX_SIDES + 1u;
        HZ(copse_bsp3_build);
        HZ_EXPECT(copse_bsp3_build(&t, &a, b3, 2, &p), HZ_S(ERR_TOO_LARGE) | HZ_S(ERR_PARAM));
        b3[1].planes = NULL;
        b3[1].plane_count = 6;
        HZ(copse_bsp3_build);
        HZ_IS(copse_bsp3_build(&t, &a, b3, 2, &p), COPSE_ERR_NULL);
        HZ_CHECK(a.used == 0u);
    }
    hz_guards();
    {
        static const uint32_t depth[4] = {0u, 1u, COPSE_BSP_MAX_DEPTH, COPSE_BSP_MAX_DEPTH + 1u};
        static const uint32_t weight[3] = {0u, 1000u, 1001u};
        unsigned d, wt;
        for (d = 0; d < 4u; d++)
            for (wt = 0; wt < 3u; wt++) {
                copse_status st;
                p.max_depth = depth[d];
                p.split_weight = weight[wt];
                HZ(copse_bsp3_build_bytes);
                n = copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p, wmem, work);
                copse_arena_init(&a, hz_buf(n == SIZE_MAX ? 64u : n, 0), n == SIZE_MAX ? 64u : n);
                HZ(copse_bsp3_build);
                st = copse_bsp3_build(&t, &a, f->brushes, HZ_BRUSHES, &p);
                HZ_IS(st, n == SIZE_MAX ? COPSE_ERR_PARAM : COPSE_OK);
                if (n != SIZE_MAX) {
                    copse_arena_init(&a, hz_buf(n - 1u, 0), n - 1u);
                    HZ(copse_bsp3_build);
                    HZ_IS(copse_bsp3_build(&t, &a, f->brushes, HZ_BRUSHES, &p), COPSE_ERR_NOMEM);
                    HZ_CHECK(a.used == 0u && a.needed > n - 1u);
                }
                hz_guards();
            }
        p = (copse_bsp3_params)COPSE_BSP3_PARAMS_DEFAULT;
    }
    g_brushes = f->brushes;
    hz_mutate(f->planes[1], sizeof f->planes[1], build3_mutant, NULL);
    HZ(copse_bsp3_bytes);
    HZ_CHECK(copse_bsp3_bytes(NULL) == 0u);
    HZ(copse_bsp3_bytes);
    HZ_CHECK(copse_bsp3_bytes(&zero) == 0u);
    /* queries */
    HZ(copse_bsp3_contents);
    HZ_IS(copse_bsp3_contents(NULL, pt, &w), COPSE_ERR_NULL);
    HZ(copse_bsp3_contents);
    HZ_IS(copse_bsp3_contents(&f->bsp3, pt, NULL), COPSE_ERR_NULL);
    HZ(copse_sweep_sphere_bsp3);
    HZ_IS(copse_sweep_sphere_bsp3(NULL, 0.5f, &f->bsp3, &tr), COPSE_ERR_NULL);
    HZ(copse_sweep_sphere_bsp3);
    HZ_IS(copse_sweep_sphere_bsp3(&ta.s, 0.5f, &f->bsp3, NULL), COPSE_ERR_NULL);
    HZ(copse_sweep_sphere_bsp3);
    HZ_IS(copse_sweep_sphere_bsp3(&ta.s, -0.5f, &f->bsp3, &tr), COPSE_ERR_EMPTY_RANGE);
    HZ(copse_sweep_point_bsp3);
    HZ_IS(copse_sweep_point_bsp3(&ta.s, NULL, &tr), COPSE_ERR_NULL);
    HZ(copse_bsp3_any_box);
    hit_id = 0u;
    HZ_IS(copse_bsp3_any_box(&f->bsp3, NULL, &hit_id), COPSE_ERR_NULL);
    HZ_CHECK(hit_id == COPSE_NONE); /* emptied on the error */
    HZ(copse_bsp3_any_box);
    HZ_IS(copse_bsp3_any_box(&f->bsp3, &box, NULL), COPSE_ERR_NULL);
    for (k = 0; k < 4u; k++) {
        g_b3 = trees[k];
        hz_mutate(&pt, sizeof pt, point3_mutant, NULL);
        hz_mutate(&ta, sizeof ta, trace_mutant, NULL);
        hz_mutate(&box, sizeof box, box3_mutant, NULL);
        dump_capacities(w_dump3, trees[k]);
    }
    HZ(copse_bsp3_dump);
    HZ_IS(copse_bsp3_dump(NULL, COPSE_BSP_PREORDER, NULL, 0, &len), COPSE_ERR_NULL);
    /* check on damaged copies: what it accepts, the queries and dumps must take */
    HZ(copse_bsp3_check);
    HZ_IS(copse_bsp3_check(NULL), COPSE_ERR_NULL);
    HZ(copse_bsp3_check);
    HZ_EXPECT(copse_bsp3_check(&zero), HZ_S(OK) | HZ_S(ERR_PARAM) | HZ_S(ERR_INDEX));
    {
        const copse_bsp3 *s = &f->bsp3;
        size_t sz[6] = {sizeof(copse_bsp3_node) * s->node_count, sizeof(copse_plane) * s->plane_count,
                        4u * s->side_count, sizeof(copse_bsp3_brush) * s->brush_count,
                        sizeof(copse_bsp3_leaf) * s->leaf_count, 4u * s->leaf_brush_count};
        const void *src[6] = {s->nodes, s->planes, s->sides, s->brushes, s->leaves, s->leaf_brushes};
        uint8_t *dst[6];
        size_t total = 0, at;
        unsigned i;
        for (i = 0; i < 6u; i++) {
            dst[i] = (uint8_t *)malloc(sz[i] + 4u);
            if (dst[i] == NULL)
                abort();
            total += sz[i];
        }
        for (at = 0; at < total; at += 2u) {
            size_t off = at;
            copse_status st;
            for (i = 0; i < 6u; i++)
                memcpy(dst[i], src[i], sz[i]);
            for (i = 0; i < 6u && off >= sz[i]; i++)
                off -= sz[i];
            dst[i][off] ^= (uint8_t)(0x23u + at);
            copy = *s;
            copy.nodes = (const copse_bsp3_node *)(const void *)dst[0];
            copy.planes = (const copse_plane *)(const void *)dst[1];
            copy.sides = (const uint32_t *)(const void *)dst[2];
            copy.brushes = (const copse_bsp3_brush *)(const void *)dst[3];
            copy.leaves = (const copse_bsp3_leaf *)(const void *)dst[4];
            copy.leaf_brushes = (const uint32_t *)(const void *)dst[5];
            HZ(copse_bsp3_check);
            st = copse_bsp3_check(&copy);
            if (st == COPSE_OK) {
                g_b3 = &copy;
                point3_mutant(NULL, &pt);
                trace_mutant(NULL, &ta);
                box3_mutant(NULL, &box);
            }
        }
        for (i = 0; i < 6u; i++)
            free(dst[i]);
    }
    free(wmem);
}

/* ---- blobs: one family for both trees ------------------------------------------------------------ */

HZ_BLOB_OPS(copse_bsp2, bsp2, x->node_count == 0u)
HZ_BLOB_OPS(copse_bsp3, bsp3, x->node_count == 0u)

static void blob_cases(const hz_fix *f)
{
    hz_blob_family(&ops_bsp2, &f->bsp2, f->blob_bsp2, f->n_bsp2, f->blob_bsp3, f->n_bsp3);
    hz_blob_family(&ops_bsp3, &f->bsp3, f->blob_bsp3, f->n_bsp3, f->blob_bsp2, f->n_bsp2);
}

HZ_TEST("bsp/2d", bsp2_cases)
HZ_TEST("bsp/brushes", brush_cases)
HZ_TEST("bsp/3d", bsp3_cases)
HZ_TEST("bsp/blob", blob_cases)

void hz_bsp(void)
{
    HZ_RUN("bsp/2d", bsp2_cases);
    HZ_RUN("bsp/brushes", brush_cases);
    HZ_RUN("bsp/3d", bsp3_cases);
    HZ_RUN("bsp/blob", blob_cases);
}

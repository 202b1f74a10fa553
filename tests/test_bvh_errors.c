/* SPDX-License-Identifier: MIT */
/*
 * Bad input to the BVH: every refusal has its specific status, leaves an empty tree that
 * queries safely, and leaves the arena as it was; bad queries are refused with an empty
 * answer; copse_bvh_check finds corrupted trees.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "suites.h"
#include "test_bvh.h"

static copse_arena g_arena; /* reset per test: holds one good tree, then failed builds */

/* A failed build: the tree is empty, queries on it find nothing, the arena is untouched. */
static void expect_refused(copse_status got, copse_status expected, const copse_bvh *bvh, size_t used_before,
                           const char *what)
{
    copse_box3 box = copse_box3_make(-1e30f, -1e30f, -1e30f, 1e30f, 1e30f, 1e30f);
    copse_ray3 ray = {{0, 0, 0}, {1, 0, 0}, INFINITY};
    uint32_t ids[2];
    copse_id_list list = copse_id_list_make(ids, 2);
    copse_hit hit;
    copse_nearest3 near;
    CHECKF(got == expected, "%s: %s, expected %s", what, copse_status_str(got), copse_status_str(expected));
    CHECKF(bvh->node_count == 0 && bvh->prim_count == 0 && bvh->dim == 0 && bvh->nodes == NULL && bvh->prims == NULL,
           "%s: the refused tree is not empty", what);
    CHECKF(g_arena.used == used_before, "%s: the arena moved from %lu to %lu", what, (unsigned long)used_before,
           (unsigned long)g_arena.used);
    CHECKF(copse_bvh_overlap_box(bvh, &box, COPSE_BVH_SELECT_PRIMS, &list) == COPSE_OK && list.count == 0 &&
               copse_bvh_raycast(bvh, &ray, &hit) == COPSE_OK && hit.id == COPSE_NONE &&
               copse_bvh_nearest(bvh, copse_v3(0, 0, 0), FLT_MAX, &near) == COPSE_OK && near.id == COPSE_NONE &&
               copse_bvh_check(bvh) == COPSE_OK,
           "%s: queries on the refused tree", what);
}

/* Builds into `bvh` (which holds a stale tree first) and expects a refusal. */
static void mesh_refused(copse_bvh *bvh, const copse_mesh *mesh, const copse_bvh_params *params, copse_status expected,
                         const char *what)
{
    size_t used = g_arena.used;
    memset(bvh, 0x3C, sizeof *bvh);
    expect_refused(copse_bvh_build_mesh(bvh, &g_arena, mesh, params), expected, bvh, used, what);
}

static void boxes_refused(copse_bvh *bvh, const copse_box3 *boxes, const uint32_t *ids, uint32_t count,
                          const copse_bvh_params *params, copse_status expected, const char *what)
{
    size_t used = g_arena.used;
    memset(bvh, 0x3C, sizeof *bvh);
    expect_refused(copse_bvh_build_boxes3(bvh, &g_arena, boxes, ids, count, params), expected, bvh, used, what);
}

static void arena_setup(void)
{
    size_t bytes = 64u * 1024u < tk_free_bytes() / 2u ? 64u * 1024u : tk_free_bytes() / 2u;
    void *mem = tk_alloc(bytes);
    copse_arena_init(&g_arena, mem, mem != NULL ? bytes : 0u);
    (void)copse_arena_alloc(&g_arena, 40); /* someone else's: a refusal must leave it */
}

static void test_bad_meshes(void)
{
    /* two triangles over five vertices (one unused), with room for misaligned copies */
    static const float good[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 5, 5, 0, 0, 0};
    static const uint16_t ix16[6] = {0, 1, 2, 0, 2, 3};
    static const uint32_t ix32[6] = {0, 1, 2, 0, 2, 3};
    float *pos;
    uint8_t *raw;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_mesh m, bad;
    copse_bvh bvh;
    tk_pool_reset();
    pos = (float *)tk_alloc(sizeof good + 16u);
    raw = (uint8_t *)tk_alloc(64);
    arena_setup();
    if (pos == NULL || raw == NULL)
        return;
    memcpy(pos, good, sizeof good);
    memset(&m, 0, sizeof m);
    m.positions = pos;
    m.vertex_count = 5;
    m.indices = ix16;
    m.index_type = COPSE_MESH_INDEX_U16;
    m.triangle_count = 2;

    CHECK_STATUS(copse_bvh_build_mesh(NULL, &g_arena, &m, &p), COPSE_ERR_NULL);
    mesh_refused(&bvh, NULL, &p, COPSE_ERR_NULL, "NULL mesh");
    mesh_refused(&bvh, &m, NULL, COPSE_ERR_NULL, "NULL params");
    {
        size_t used = g_arena.used;
        memset(&bvh, 0x3C, sizeof bvh);
        expect_refused(copse_bvh_build_mesh(&bvh, NULL, &m, &p), COPSE_ERR_NULL, &bvh, used, "NULL arena");
    }
    bad = m;
    bad.positions = NULL;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_NULL, "NULL positions");
    bad = m;
    bad.indices = NULL;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_NULL, "NULL indices");
    bad = m;
    bad.index_type = (copse_mesh_index_type)1;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_PARAM, "index type 1");
    bad.index_type = (copse_mesh_index_type)8;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_PARAM, "index type 8");

    /* parameters out of range */
    p.leaf_size = 0;
    mesh_refused(&bvh, &m, &p, COPSE_ERR_PARAM, "leaf size 0");
    p.leaf_size = COPSE_BVH_MAX_LEAF + 1u;
    mesh_refused(&bvh, &m, &p, COPSE_ERR_PARAM, "leaf size above the maximum");
    p.leaf_size = 4;
    p.split = (copse_bvh_split)3;
    mesh_refused(&bvh, &m, &p, COPSE_ERR_PARAM, "split 3");
    p.split = COPSE_BVH_SPLIT_SAH;
    p.projection = (copse_bvh_projection)4;
    mesh_refused(&bvh, &m, &p, COPSE_ERR_PARAM, "projection 4");
    p.projection = COPSE_BVH_PROJECT_NONE;
    p.flags = 2;
    mesh_refused(&bvh, &m, &p, COPSE_ERR_PARAM, "flags 2");
    p.flags = 0;

    /* alignment */
    bad = m;
    bad.positions = (const float *)(const void *)(raw + 1);
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_ALIGN, "positions at an odd address");
    bad = m;
    bad.vertex_stride = 13;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_ALIGN, "stride 13");
    bad.vertex_stride = 8;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_ALIGN, "stride 8: shorter than a vertex");
    bad = m;
    bad.indices = raw + 1;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_ALIGN, "16-bit indices at an odd address");
    bad.indices = raw + 2;
    bad.index_type = COPSE_MESH_INDEX_U32;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_ALIGN, "32-bit indices at address 2 mod 4");

    /* indices out of range, coordinates not finite */
    bad = m;
    bad.vertex_count = 3; /* the second triangle uses vertex 3 */
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_INDEX, "16-bit index past the vertices");
    {
        static const uint32_t far_index[6] = {0, 1, 2, 0, 2, 0xFFFFFFFFu};
        bad = m;
        bad.indices = far_index;
        bad.index_type = COPSE_MESH_INDEX_U32;
        mesh_refused(&bvh, &bad, &p, COPSE_ERR_INDEX, "32-bit index 0xFFFFFFFF");
    }
    bad = m;
    bad.indices = NULL;
    bad.index_type = COPSE_MESH_INDEX_NONE;
    bad.triangle_count = 2; /* 6 vertices needed, 5 given */
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_INDEX, "unindexed triangles past the vertices");
    {
        const float specials[3] = {NAN, INFINITY, -INFINITY};
        unsigned k;
        for (k = 0; k < 3; k++) {
            pos[7] = specials[k]; /* vertex 2's y */
            mesh_refused(&bvh, &m, &p, COPSE_ERR_NONFINITE, "a NaN or infinite coordinate");
            pos[7] = good[7];
        }
        pos[13] = NAN; /* the unused vertex 4 is never read */
        CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &m, &p), COPSE_OK);
        pos[13] = good[13];
    }
    /* too many triangles: refused before a single index is read */
    bad = m;
    bad.indices = ix32;
    bad.index_type = COPSE_MESH_INDEX_U32;
    bad.triangle_count = COPSE_BVH_MAX_PRIMS + 1u;
    bad.vertex_count = 0xFFFFFFFFu;
    mesh_refused(&bvh, &bad, &p, COPSE_ERR_TOO_LARGE, "more triangles than a tree can index");

    /* degenerate triangles: counted, or refused on request */
    {
        static const uint16_t degen[6] = {0, 1, 2, 1, 1, 3};
        bad = m;
        bad.indices = degen;
        CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &bad, &p), COPSE_OK);
        CHECK_EQ_INT(bvh.degenerate_count, 1);
        p.flags = COPSE_BVH_REJECT_DEGENERATE;
        mesh_refused(&bvh, &bad, &p, COPSE_ERR_DEGENERATE, "a degenerate triangle, rejected");
        CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &m, &p), COPSE_OK); /* none here */
        p.flags = 0;
    }
    /* the edges of the ranges that are fine */
    p.leaf_size = COPSE_BVH_MAX_LEAF;
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &m, &p), COPSE_OK);
    CHECK_EQ_INT(bvh.node_count, 1);
    p.leaf_size = 4;
    bad = m;
    bad.positions = NULL;
    bad.indices = NULL;
    bad.triangle_count = 0;
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &bad, &p), COPSE_OK);
    CHECK(bvh.node_count == 0 && bvh.dim == 3 && copse_bvh_check(&bvh) == COPSE_OK);
    bad = m;
    bad.indices = ix32;
    bad.index_type = COPSE_MESH_INDEX_U32;
    bad.vertex_stride = 16;
    bad.vertex_count = 4; /* 16-byte stride over the 18 floats: vertices 0..3 */
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &g_arena, &bad, &p), COPSE_OK);
}

static void test_bad_boxes(void)
{
    static const copse_box3 good[3] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 0, 0}, {3, 1, 1}}, {{0, 2, 0}, {1, 3, 1}}};
    static const uint32_t ids[3] = {7, 8, 9};
    copse_box3 *boxes;
    uint8_t *raw;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_bvh bvh;
    tk_pool_reset();
    boxes = (copse_box3 *)tk_alloc(sizeof good);
    raw = (uint8_t *)tk_alloc(sizeof good + 8u);
    arena_setup();
    if (boxes == NULL || raw == NULL)
        return;
    memcpy(boxes, good, sizeof good);
    CHECK_STATUS(copse_bvh_build_boxes3(NULL, &g_arena, boxes, ids, 3, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_build_boxes2(NULL, &g_arena, NULL, NULL, 0, &p), COPSE_ERR_NULL);
    boxes_refused(&bvh, NULL, NULL, 3, &p, COPSE_ERR_NULL, "NULL boxes");
    boxes_refused(&bvh, boxes, ids, 3, NULL, COPSE_ERR_NULL, "NULL params");
    boxes_refused(&bvh, (const copse_box3 *)(const void *)(raw + 2), NULL, 3, &p, COPSE_ERR_ALIGN,
                  "boxes at address 2 mod 4");
    boxes_refused(&bvh, boxes, (const uint32_t *)(const void *)(raw + 1), 3, &p, COPSE_ERR_ALIGN,
                  "ids at an odd address");
    boxes_refused(&bvh, boxes, ids, COPSE_BVH_MAX_PRIMS + 1u, &p, COPSE_ERR_TOO_LARGE, "too many boxes");
    boxes[1].min.y = 1.5f; /* above its max */
    boxes_refused(&bvh, boxes, ids, 3, &p, COPSE_ERR_PARAM, "an inverted box");
    boxes[1].min.y = NAN;
    boxes_refused(&bvh, boxes, ids, 3, &p, COPSE_ERR_NONFINITE, "a NaN box");
    boxes[1].min.y = -INFINITY;
    boxes_refused(&bvh, boxes, ids, 3, &p, COPSE_ERR_NONFINITE, "an infinite box");
    boxes[1] = good[1];
    p.leaf_size = 0;
    boxes_refused(&bvh, boxes, ids, 3, &p, COPSE_ERR_PARAM, "leaf size 0");
    p.leaf_size = 2;
    p.projection = COPSE_BVH_PROJECT_XZ; /* ignored by box builds */
    CHECK_STATUS(copse_bvh_build_boxes3(&bvh, &g_arena, boxes, ids, 3, &p), COPSE_OK);
    CHECK(bvh.dim == 3 && bvh.kind == COPSE_BVH_PRIM_BOXES && copse_bvh_prim_id(&bvh, 2) == 9u);
    p.projection = COPSE_BVH_PROJECT_NONE;
    CHECK_STATUS(copse_bvh_build_boxes3(&bvh, &g_arena, NULL, NULL, 0, &p), COPSE_OK);
    CHECK(bvh.node_count == 0 && bvh.dim == 3);
    {
        static const copse_box2 inverted[1] = {{{1, 0}, {0, 1}}};
        size_t used = g_arena.used;
        memset(&bvh, 0x3C, sizeof bvh);
        expect_refused(copse_bvh_build_boxes2(&bvh, &g_arena, inverted, NULL, 1, &p), COPSE_ERR_PARAM, &bvh, used,
                       "an inverted 2D box");
    }
}

/* Bad queries on good trees: each refused with its status and an empty answer. */
typedef struct visit_count {
    uint32_t calls;
} visit_count;

static bool count_id(void *user, uint32_t id)
{
    (void)id;
    ((visit_count *)user)->calls++;
    return true;
}

static bool count_hit(void *user, const copse_hit *hit)
{
    (void)hit;
    ((visit_count *)user)->calls++;
    return true;
}

/* Every 3D query with one shape (box, sphere, segment, ray, point) and the statuses expected. */
typedef struct query3 {
    copse_box3 box;
    copse_sphere sphere;
    copse_segment3 segment;
    copse_ray3 ray;
    copse_vec3 point;
    float max_distance;
} query3;

typedef struct query2 {
    copse_box2 rect;
    copse_circle circle;
    copse_segment2 segment;
    copse_ray2 ray;
    copse_vec2 point;
    float max_distance;
} query2;

static void good_query3(query3 *q)
{
    q->box = copse_box3_make(0, 0, 0, 50, 50, 50);
    q->sphere.center = copse_v3(50, 50, 50);
    q->sphere.radius = 20;
    q->segment.a = copse_v3(0, 0, 0);
    q->segment.b = copse_v3(100, 100, 100);
    q->ray.origin = copse_v3(-10, 50, 50);
    q->ray.dir = copse_v3(1, 0, 0);
    q->ray.t_max = INFINITY;
    q->point = copse_v3(50, 50, 50);
    q->max_distance = FLT_MAX;
}

static void good_query2(query2 *q)
{
    q->rect = copse_box2_make(0, 0, 50, 50);
    q->circle.center = copse_v2(50, 50);
    q->circle.radius = 20;
    q->segment.a = copse_v2(0, 0);
    q->segment.b = copse_v2(100, 100);
    q->ray.origin = copse_v2(-10, 50);
    q->ray.dir = copse_v2(1, 0);
    q->ray.t_max = INFINITY;
    q->point = copse_v2(50, 50);
    q->max_distance = FLT_MAX;
}

/* The status expected; a refusal also leaves the answer empty and calls no visitor. */
static bool answered(copse_status got, copse_status expected, bool empty)
{
    return got == expected && (expected == COPSE_OK || empty);
}

/* Runs every 3D query; `expect` per family: overlap box, sphere, segment; rays; nearest. */
static void run_query3(const copse_bvh *bvh, const query3 *q, const copse_status expect[5], const char *what)
{
    uint32_t ids[4];
    copse_hit hits[4], hit;
    copse_id_list list;
    copse_hit_list hl;
    copse_nearest3 near;
    visit_count v;
    copse_status st;
    unsigned sel;
    for (sel = 0; sel < 2; sel++) {
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_box(bvh, &q->box, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[0], list.count == 0), "%s: overlap_box: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_box(bvh, &q->box, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[0], v.calls == 0), "%s: visit_box: %s", what, copse_status_str(st));
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_sphere(bvh, &q->sphere, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[1], list.count == 0), "%s: overlap_sphere: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_sphere(bvh, &q->sphere, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[1], v.calls == 0), "%s: visit_sphere: %s", what, copse_status_str(st));
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_segment(bvh, &q->segment, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[2], list.count == 0), "%s: overlap_segment: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_segment(bvh, &q->segment, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[2], v.calls == 0), "%s: visit_segment: %s", what, copse_status_str(st));
    }
    st = copse_bvh_raycast(bvh, &q->ray, &hit);
    CHECKF(answered(st, expect[3], hit.id == COPSE_NONE), "%s: raycast: %s", what, copse_status_str(st));
    hl = copse_hit_list_make(hits, 4);
    st = copse_bvh_raycast_all(bvh, &q->ray, &hl);
    CHECKF(answered(st, expect[3], hl.count == 0 && !hl.truncated), "%s: raycast_all: %s", what, copse_status_str(st));
    v.calls = 0;
    st = copse_bvh_visit_ray(bvh, &q->ray, count_hit, &v);
    CHECKF(answered(st, expect[3], v.calls == 0), "%s: visit_ray: %s", what, copse_status_str(st));
    st = copse_bvh_nearest(bvh, q->point, q->max_distance, &near);
    CHECKF(answered(st, expect[4], near.id == COPSE_NONE), "%s: nearest: %s", what, copse_status_str(st));
}

static void run_query2(const copse_bvh *bvh, const query2 *q, const copse_status expect[5], const char *what)
{
    uint32_t ids[4];
    copse_hit hits[4], hit;
    copse_id_list list;
    copse_hit_list hl;
    copse_nearest2 near;
    visit_count v;
    copse_status st;
    unsigned sel;
    for (sel = 0; sel < 2; sel++) {
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_rect(bvh, &q->rect, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[0], list.count == 0), "%s: overlap_rect: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_rect(bvh, &q->rect, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[0], v.calls == 0), "%s: visit_rect: %s", what, copse_status_str(st));
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_circle(bvh, &q->circle, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[1], list.count == 0), "%s: overlap_circle: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_circle(bvh, &q->circle, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[1], v.calls == 0), "%s: visit_circle: %s", what, copse_status_str(st));
        list = copse_id_list_make(ids, 4);
        st = copse_bvh_overlap_segment2(bvh, &q->segment, (copse_bvh_select)sel, &list);
        CHECKF(answered(st, expect[2], list.count == 0), "%s: overlap_segment2: %s", what, copse_status_str(st));
        v.calls = 0;
        st = copse_bvh_visit_segment2(bvh, &q->segment, (copse_bvh_select)sel, count_id, &v);
        CHECKF(answered(st, expect[2], v.calls == 0), "%s: visit_segment2: %s", what, copse_status_str(st));
    }
    st = copse_bvh_raycast2(bvh, &q->ray, &hit);
    CHECKF(answered(st, expect[3], hit.id == COPSE_NONE), "%s: raycast2: %s", what, copse_status_str(st));
    hl = copse_hit_list_make(hits, 4);
    st = copse_bvh_raycast2_all(bvh, &q->ray, &hl);
    CHECKF(answered(st, expect[3], hl.count == 0 && !hl.truncated), "%s: raycast2_all: %s", what, copse_status_str(st));
    v.calls = 0;
    st = copse_bvh_visit_ray2(bvh, &q->ray, count_hit, &v);
    CHECKF(answered(st, expect[3], v.calls == 0), "%s: visit_ray2: %s", what, copse_status_str(st));
    st = copse_bvh_nearest2(bvh, q->point, q->max_distance, &near);
    CHECKF(answered(st, expect[4], near.id == COPSE_NONE), "%s: nearest2: %s", what, copse_status_str(st));
}

static void all_status(copse_status out[5], copse_status st)
{
    unsigned i;
    for (i = 0; i < 5; i++)
        out[i] = st;
}

static void test_bad_queries(void)
{
    const copse_status ok[5] = {COPSE_OK, COPSE_OK, COPSE_OK, COPSE_OK, COPSE_OK};
    copse_status expect[5];
    tk_tree *t3, *t2, *tb;
    tk_scene s3, s2, sb;
    tk_mesh_spec m;
    tk_box_spec b;
    test_rng rng;
    query3 q3;
    query2 q2;
    tk_pool_reset();
    t3 = (tk_tree *)tk_alloc(3u * sizeof(tk_tree));
    test_rng_seed(&rng, 7);
    tk_mesh_spec_init(&m, 20, TK_U16);
    tk_context("bad queries");
    if (t3 == NULL || !tk_make_mesh(&s3, &m, &rng))
        return;
    t2 = t3 + 1;
    tb = t3 + 2;
    m.projection = COPSE_BVH_PROJECT_XZ;
    tk_box_spec_init(&b, 20, 3, false);
    if (!tk_make_mesh(&s2, &m, &rng) || !tk_make_boxes(&sb, &b, &rng))
        return;
    {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        if (!tk_build(t3, &s3, &p) || !tk_build(t2, &s2, &p) || !tk_build(tb, &sb, &p))
            return;
    }
    /* the good queries work (the base for each bad one below) */
    good_query3(&q3);
    good_query2(&q2);
    run_query3(&t3->bvh, &q3, ok, "good 3D queries");
    run_query2(&t2->bvh, &q2, ok, "good 2D queries");
    {
        copse_nearest3 near;
        CHECK_STATUS(copse_bvh_nearest_vertex(&t3->bvh, q3.point, FLT_MAX, &near), COPSE_OK);
        CHECK_STATUS(copse_bvh_nearest_vertex(&t2->bvh, q3.point, FLT_MAX, &near), COPSE_ERR_DIMENSION);
        CHECK(near.id == COPSE_NONE);
        CHECK_STATUS(copse_bvh_nearest_vertex(&tb->bvh, q3.point, FLT_MAX, &near), COPSE_ERR_KIND);
        CHECK(near.id == COPSE_NONE);
        CHECK_STATUS(copse_bvh_nearest_vertex(NULL, q3.point, FLT_MAX, &near), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_nearest_vertex(&t3->bvh, q3.point, FLT_MAX, NULL), COPSE_ERR_NULL);
    }

    /* a tree deeper than this build's cap (built where COPSE_BVH_MAX_DEPTH was larger) */
#if COPSE_BVH_MAX_DEPTH < 255
    {
        copse_bvh deep3 = t3->bvh, deep2 = t2->bvh;
        copse_bvh_stats stats;
        deep3.depth = deep2.depth = (uint8_t)(COPSE_BVH_MAX_DEPTH + 1u);
        all_status(expect, COPSE_ERR_TOO_DEEP);
        run_query3(&deep3, &q3, expect, "3D queries on a tree deeper than the cap");
        run_query2(&deep2, &q2, expect, "2D queries on a tree deeper than the cap");
        CHECK_STATUS(copse_bvh_get_stats(&deep3, &stats), COPSE_ERR_TOO_DEEP);
        CHECK_STATUS(copse_bvh_check(&deep3), COPSE_ERR_PARAM); /* says deeper than it is */
    }
#endif

    /* the wrong dimension */
    all_status(expect, COPSE_ERR_DIMENSION);
    run_query3(&t2->bvh, &q3, expect, "3D queries on a 2D tree");
    run_query2(&t3->bvh, &q2, expect, "2D queries on a 3D tree");
    run_query2(&tb->bvh, &q2, expect, "2D queries on a 3D box tree");

    /* not finite: NaN and infinity in every input */
    all_status(expect, COPSE_ERR_NONFINITE);
    {
        const float bad[3] = {NAN, INFINITY, -INFINITY};
        unsigned k;
        for (k = 0; k < 3; k++) {
            good_query3(&q3);
            q3.box.min.y = bad[k];
            q3.sphere.center.z = bad[k];
            q3.segment.b.x = bad[k];
            q3.ray.dir.y = bad[k];
            q3.point.x = bad[k];
            run_query3(&t3->bvh, &q3, expect, "3D queries with a NaN or infinity");
            good_query2(&q2);
            q2.rect.max.x = bad[k];
            q2.circle.center.y = bad[k];
            q2.segment.a.y = bad[k];
            q2.ray.origin.x = bad[k];
            q2.point.y = bad[k];
            run_query2(&t2->bvh, &q2, expect, "2D queries with a NaN or infinity");
        }
        good_query3(&q3);
        q3.sphere.radius = NAN;
        q3.ray.t_max = NAN;
        q3.max_distance = NAN;
        expect[0] = expect[2] = COPSE_OK;
        run_query3(&t3->bvh, &q3, expect, "3D queries with a NaN radius, t_max, limit");
        q3.sphere.radius = INFINITY;
        q3.ray.t_max = INFINITY; /* infinity is a reach, not an error */
        q3.max_distance = INFINITY;
        expect[3] = expect[4] = COPSE_OK;
        run_query3(&t3->bvh, &q3, expect, "3D queries with an infinite radius");
    }

    /* empty ranges: inverted boxes, negative radius, t_max and limit */
    good_query3(&q3);
    q3.box = copse_box3_make(0, 10, 0, 50, 9, 50);
    q3.sphere.radius = -1.0f;
    q3.ray.t_max = -1.0f;
    q3.max_distance = -0.5f;
    all_status(expect, COPSE_ERR_EMPTY_RANGE);
    expect[2] = COPSE_OK;
    run_query3(&t3->bvh, &q3, expect, "3D queries with empty ranges");
    good_query2(&q2);
    q2.rect = copse_box2_make(10, 0, 9, 50);
    q2.circle.radius = -1.0f;
    q2.ray.t_max = -1.0f;
    q2.max_distance = -0.5f;
    run_query2(&t2->bvh, &q2, expect, "2D queries with empty ranges");

    /* a ray that goes nowhere */
    good_query3(&q3);
    q3.ray.dir = copse_v3(0, 0, 0);
    all_status(expect, COPSE_OK);
    expect[3] = COPSE_ERR_PARAM;
    run_query3(&t3->bvh, &q3, expect, "3D ray with a zero direction");
    good_query2(&q2);
    q2.ray.dir = copse_v2(0, 0);
    run_query2(&t2->bvh, &q2, expect, "2D ray with a zero direction");

    /* NULL trees, shapes, outputs, visitors; an id list with no room; a bad select */
    {
        uint32_t ids[2];
        copse_hit hit;
        copse_id_list list = copse_id_list_make(NULL, 2);
        copse_hit_list hl = copse_hit_list_make(NULL, 2);
        good_query3(&q3);
        good_query2(&q2);
        all_status(expect, COPSE_ERR_NULL);
        run_query3(NULL, &q3, expect, "3D queries on a NULL tree");
        run_query2(NULL, &q2, expect, "2D queries on a NULL tree");
        CHECK_STATUS(copse_bvh_overlap_box(&t3->bvh, &q3.box, COPSE_BVH_SELECT_PRIMS, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast_all(&t3->bvh, &q3.ray, &hl), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_overlap_rect(&t2->bvh, &q2.rect, COPSE_BVH_SELECT_PRIMS, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast2_all(&t2->bvh, &q2.ray, &hl), COPSE_ERR_NULL);
        list = copse_id_list_make(NULL, 0); /* no room at all is fine: the flag answers */
        CHECK_STATUS(copse_bvh_overlap_box(&t3->bvh, &q3.box, COPSE_BVH_SELECT_PRIMS, &list), COPSE_OK);
        CHECK(list.count == 0 && list.truncated);
        hl = copse_hit_list_make(NULL, 0);
        CHECK_STATUS(copse_bvh_raycast_all(&t3->bvh, &q3.ray, &hl), COPSE_OK);
        CHECK(hl.count == 0 && hl.truncated);
        CHECK_STATUS(copse_bvh_overlap_box(&t3->bvh, NULL, COPSE_BVH_SELECT_PRIMS, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_overlap_box(&t3->bvh, &q3.box, COPSE_BVH_SELECT_PRIMS, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_box(&t3->bvh, &q3.box, COPSE_BVH_SELECT_PRIMS, NULL, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_sphere(&t3->bvh, NULL, COPSE_BVH_SELECT_PRIMS, count_id, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_overlap_segment(&t3->bvh, NULL, COPSE_BVH_SELECT_PRIMS, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_circle(&t2->bvh, &q2.circle, COPSE_BVH_SELECT_PRIMS, NULL, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_overlap_segment2(&t2->bvh, NULL, COPSE_BVH_SELECT_PRIMS, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast(&t3->bvh, NULL, &hit), COPSE_ERR_NULL);
        CHECK(hit.id == COPSE_NONE);
        CHECK_STATUS(copse_bvh_raycast(&t3->bvh, &q3.ray, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast_all(&t3->bvh, NULL, &hl), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast_all(&t3->bvh, &q3.ray, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_ray(&t3->bvh, &q3.ray, NULL, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_ray(&t3->bvh, NULL, count_hit, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_raycast2(&t2->bvh, NULL, &hit), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_visit_ray2(&t2->bvh, &q2.ray, NULL, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_nearest(&t3->bvh, q3.point, FLT_MAX, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bvh_nearest2(&t2->bvh, q2.point, FLT_MAX, NULL), COPSE_ERR_NULL);
        list = copse_id_list_make(ids, 2);
        CHECK_STATUS(copse_bvh_overlap_box(&t3->bvh, &q3.box, (copse_bvh_select)2, &list), COPSE_ERR_PARAM);
        CHECK_STATUS(copse_bvh_visit_rect(&t2->bvh, &q2.rect, (copse_bvh_select)7, count_id, NULL), COPSE_ERR_PARAM);
    }
}

/* Walking and inspecting, with bad arguments. */
static void test_bad_inspection(void)
{
    tk_tree *t;
    tk_scene sc;
    tk_box_spec b;
    test_rng rng;
    static const uint32_t stale = 1;
    const uint32_t *prims = &stale;
    uint32_t count = 99, leaf, internal = COPSE_NONE;
    visit_count v = {0};
    copse_bvh_stats stats;
    tk_pool_reset();
    t = (tk_tree *)tk_alloc(sizeof(tk_tree));
    test_rng_seed(&rng, 8);
    tk_box_spec_init(&b, 12, 2, true);
    tk_context("bad inspection");
    if (t == NULL || !tk_make_boxes(&sc, &b, &rng))
        return;
    {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        p.leaf_size = 2;
        if (!tk_build(t, &sc, &p))
            return;
    }
    CHECK_STATUS(copse_bvh_walk(NULL, NULL, count_id, &v), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_walk(&t->bvh, NULL, NULL, &v), COPSE_ERR_NULL);
    CHECK_EQ_INT(v.calls, 0);
    CHECK_STATUS(copse_bvh_leaf_prims(NULL, 0, &prims, &count), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_leaf_prims(&t->bvh, 0, NULL, &count), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_leaf_prims(&t->bvh, 0, &prims, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_leaf_prims(&t->bvh, t->bvh.node_count, &prims, &count), COPSE_ERR_INDEX);
    CHECK(prims == NULL && count == 0);
    for (leaf = 0; leaf < t->bvh.node_count; leaf++)
        if (((const copse_bvh_node2 *)t->bvh.nodes)[leaf].index < 0)
            internal = leaf;
    CHECK(internal != COPSE_NONE);
    CHECK_STATUS(copse_bvh_leaf_prims(&t->bvh, internal, &prims, &count), COPSE_ERR_PARAM);
    CHECK(prims == NULL && count == 0);
    CHECK_STATUS(copse_bvh_get_stats(NULL, &stats), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_get_stats(&t->bvh, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_check(NULL), COPSE_ERR_NULL);
    CHECK(copse_bvh_prim_id(NULL, 5) == COPSE_NONE); /* no tree, no primitive */
    CHECK_EQ_INT(copse_bvh_prim_id(&t->bvh, 3), tk_box_id(3));
}

/* copse_bvh_check on trees damaged one way at a time (copies of a good tree's arrays). */
static void test_check_finds_damage(void)
{
    tk_tree *t;
    tk_scene sc;
    tk_mesh_spec m;
    test_rng rng;
    copse_bvh_node3 *nodes;
    uint32_t *prims, nn, n, i, leaf = COPSE_NONE, inner = COPSE_NONE;
    unsigned damage;
    tk_pool_reset();
    t = (tk_tree *)tk_alloc(sizeof(tk_tree));
    test_rng_seed(&rng, 9);
    tk_mesh_spec_init(&m, 24, TK_U16);
    tk_context("damaged trees");
    if (t == NULL || !tk_make_mesh(&sc, &m, &rng))
        return;
    {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        p.leaf_size = 2;
        if (!tk_build(t, &sc, &p))
            return;
    }
    nn = t->bvh.node_count;
    n = t->bvh.prim_count;
    nodes = (copse_bvh_node3 *)tk_alloc(nn * sizeof(copse_bvh_node3));
    prims = (uint32_t *)tk_alloc(n * sizeof(uint32_t));
    if (nodes == NULL || prims == NULL)
        return;
    for (i = 1; i < nn; i++) {
        const copse_bvh_node3 *nd = (const copse_bvh_node3 *)t->bvh.nodes + i;
        if (nd->index >= 0 && leaf == COPSE_NONE)
            leaf = i;
        if (nd->index < 0 && inner == COPSE_NONE)
            inner = i;
    }
    if (!CHECK(leaf != COPSE_NONE && inner != COPSE_NONE))
        return;
    for (damage = 0; damage < 11; damage++) {
        static const copse_status expected[11] = {COPSE_ERR_INDEX, COPSE_ERR_INDEX, COPSE_ERR_INDEX,
                                                  COPSE_ERR_INDEX, COPSE_ERR_PARAM, COPSE_ERR_NONFINITE,
                                                  COPSE_ERR_PARAM, COPSE_ERR_INDEX, COPSE_ERR_INDEX,
                                                  COPSE_ERR_PARAM, COPSE_ERR_INDEX};
        copse_bvh bad = t->bvh;
        memcpy(nodes, t->bvh.nodes, nn * sizeof(copse_bvh_node3));
        memcpy(prims, t->bvh.prims, n * sizeof(uint32_t));
        bad.nodes = nodes;
        bad.prims = prims;
        switch (damage) {
        case 0: /* a primitive twice, another never */
            prims[1] = prims[0];
            break;
        case 1: /* a primitive index past the end */
            prims[n - 1u] = n;
            break;
        case 2: /* an escape count one too long */
            nodes[inner].index -= 1;
            break;
        case 3: /* a leaf that starts at the wrong slot */
            nodes[leaf].index += 1;
            break;
        case 4: /* a child sticking out of its parent */
            nodes[leaf].max[1] = nodes[0].max[1] + 1.0f;
            break;
        case 5: /* a NaN bound */
            nodes[inner].min[2] = NAN;
            break;
        case 6: /* an inverted node */
            nodes[leaf].min[0] = nodes[leaf].max[0] + 1.0f;
            break;
        case 7: /* a leaf claiming more primitives than there are */
            nodes[leaf].count = n + 1u;
            break;
        case 8: /* a tree that says it has one more primitive than its leaves hold */
            bad.prim_count = n + 1u;
            break;
        case 9: /* a leaf shrunk to a point: its triangles poke out (queries would take a leaf
                 * inside a query box as the answer for all of them) */
            memcpy(nodes[leaf].max, nodes[leaf].min, sizeof nodes[leaf].min);
            break;
        case 10: /* an internal node whose right-child offset is off by one */
            nodes[inner].count += 1u;
            break;
        }
        CHECKF(copse_bvh_check(&bad) == expected[damage], "damage %u: copse_bvh_check says %s, expected %s", damage,
               copse_status_str(copse_bvh_check(&bad)), copse_status_str(expected[damage]));
    }
}

void suite_bvh_errors(void)
{
    test_run("bvh_errors/bad_meshes", test_bad_meshes);
    test_run("bvh_errors/bad_boxes", test_bad_boxes);
    test_run("bvh_errors/bad_queries", test_bad_queries);
    test_run("bvh_errors/bad_inspection", test_bad_inspection);
    test_run("bvh_errors/check_finds_damage", test_check_finds_damage);
}

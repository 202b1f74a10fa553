/* SPDX-License-Identifier: MIT */
/*
 * config.h: a caller built with other settings than the library's. This file alone is compiled
 * with a BVH depth cap of 40, which no build of the library uses (64 by default, 24 in the
 * clang-c99 host configuration): every builder it calls must refuse with COPSE_ERR_CONFIG,
 * leave its output empty and take nothing from the arena. An arena set up by hand (config 0)
 * is not checked, and builds as before.
 */
#ifdef COPSE_BVH_MAX_DEPTH
#undef COPSE_BVH_MAX_DEPTH
#endif
#define COPSE_BVH_MAX_DEPTH 40u

#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test.h"

#define CFG_TRIS 8u
#define CFG_BOXES 6u
#define CFG_POINTS 20u

/* The board's test memory, at most 64 KB of it (every build here takes a few KB). */
static uint8_t *cfg_mem(size_t *bytes)
{
    size_t cap = 0;
    uint8_t *mem = (uint8_t *)test_memory(&cap);
    *bytes = cap < 65536u ? cap : 65536u;
    return mem;
}

/* A caller's arena: started by this file's copse_arena_init (config 1 here), so with this
 * file's settings, or with the settings word given. */
static void cfg_arena(copse_arena *a, uint32_t config)
{
    size_t bytes;
    uint8_t *mem = cfg_mem(&bytes);
    memset(mem, 0xA5, bytes);
    if (config == 1u)
        copse_arena_init(a, mem, bytes);
    else
        copse_arena_init_config(a, mem, bytes, config);
}

static bool cfg_untouched(const copse_arena *a)
{
    size_t bytes;
    const uint8_t *mem = cfg_mem(&bytes);
    return a->used == 0u && a->high_water == 0u && bytes > 0u && mem[0] == 0xA5u;
}

static void test_signature(void)
{
    const unsigned long sig = COPSE_CONFIG_SIGNATURE;
    copse_arena a;
    CHECK((sig & 0xFFu) == 40u);
    CHECK(((sig >> 8) & 0xFFu) == COPSE_BSP_MAX_DEPTH);
    CHECK(((sig >> 16) & 0x1Fu) == COPSE_OCTREE_MAX_DEPTH);
    CHECK(((sig >> 21) & 0x1Fu) == COPSE_LOOSE_MAX_DEPTH);
    CHECK(((sig >> 26) & 0x3Fu) + 1u == COPSE_BVH_SAH_BINS);
    CHECK(sig <= 0xFFFFFFFFul && sig != 0u);
    cfg_arena(&a, 1u);
    CHECK(a.config == (uint32_t)sig);
    CHECK(strstr(copse_status_str(COPSE_ERR_CONFIG), "COPSE_ERR_CONFIG") != NULL);
}

/* Each builder, once with this file's arena (refused) and once with an unchecked one (built). */
static void test_builders_refuse(void)
{
    static float tri[9u * CFG_TRIS];
    static copse_box3 b3[CFG_BOXES];
    static copse_box2 b2[CFG_BOXES];
    static copse_vec3 pts[CFG_POINTS];
    static copse_plane planes[CFG_BOXES][6];
    static copse_brush brushes[CFG_BOXES];
    const copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    const copse_bsp2_params p2 = COPSE_BSP2_PARAMS_DEFAULT;
    copse_bsp3_params p3 = COPSE_BSP3_PARAMS_DEFAULT;
    const copse_box2 scene = copse_box2_make(-8, -8, 12, 8);
    copse_mesh mesh;
    copse_bvh bvh;
    copse_octree oct;
    copse_octree_config oc;
    copse_loose loose;
    copse_loose_config lc;
    copse_bsp2 bsp2;
    copse_bsp3 bsp3;
    copse_arena a;
    uint32_t i, k, pass;

    p3.max_depth = 8u; /* this file's COPSE_BSP_MAX_DEPTH is the library's, but keep it small */
    for (i = 0; i < CFG_TRIS; i++) {
        float x = (float)i;
        const float c[9] = {x, 0, 0, x + 0.9f, 0, 0, x, 0.5f, 0.9f};
        for (k = 0; k < 9u; k++)
            tri[9u * i + k] = c[k];
    }
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = tri;
    mesh.vertex_count = 3u * CFG_TRIS;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.triangle_count = CFG_TRIS;
    for (i = 0; i < CFG_BOXES; i++) {
        float x = (float)i * 1.5f;
        b3[i] = copse_box3_make(x, 0, 0, x + 1.0f, 1.0f, 1.0f);
        b2[i] = copse_box2_make(x, 0, x + 1.0f, 1.0f);
        CHECK(copse_brush_from_box(&b3[i], planes[i]) == COPSE_OK);
        brushes[i].planes = planes[i];
        brushes[i].plane_count = 6;
    }
    for (i = 0; i < CFG_POINTS; i++)
        pts[i] = copse_v3((float)i * 0.1f, 0.0f, 0.0f);
    memset(&oc, 0, sizeof oc);
    oc.bounds = copse_box3_make(-1, -1, -1, 3, 1, 1);
    oc.points = pts;
    oc.point_capacity = CFG_POINTS;
    oc.max_nodes = 64;
    oc.max_buckets = 64;
    oc.bucket_size = 4;
    oc.leaf_size = 4;
    oc.max_depth = 6;
    memset(&lc, 0, sizeof lc);
    lc.world = copse_box3_make(-1, -1, -1, 10, 2, 2);
    lc.max_objects = CFG_BOXES;
    lc.max_nodes = 64;
    lc.max_depth = 4;

    /* pass 0: this file's arena, refused; pass 1: an arena set up by hand, built */
    for (pass = 0; pass < 2u; pass++) {
        const uint32_t config = pass == 0u ? 1u : 0u;
        const copse_status want = pass == 0u ? COPSE_ERR_CONFIG : COPSE_OK;
        copse_status st;

        cfg_arena(&a, config);
        st = copse_bvh_build_mesh(&bvh, &a, &mesh, &bp);
        CHECK_EQ_INT(st, want);
        if (pass == 0u)
            CHECK(bvh.node_count == 0u && bvh.prim_count == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_bvh_build_boxes3(&bvh, &a, b3, NULL, CFG_BOXES, &bp), want);
        if (pass == 0u)
            CHECK(bvh.node_count == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_bvh_build_boxes2(&bvh, &a, b2, NULL, CFG_BOXES, &bp), want);
        if (pass == 0u)
            CHECK(bvh.node_count == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_octree_init(&oct, &a, &oc), want);
        if (pass == 0u)
            CHECK(oct.max_nodes == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_loose_init(&loose, &a, &lc), want);
        if (pass == 0u)
            CHECK(loose.max_objects == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_bsp2_build(&bsp2, &a, &scene, b2, CFG_BOXES, &p2), want);
        if (pass == 0u)
            CHECK(bsp2.node_count == 0u && cfg_untouched(&a));

        cfg_arena(&a, config);
        CHECK_EQ_INT(copse_bsp3_build(&bsp3, &a, brushes, CFG_BOXES, &p3), want);
        if (pass == 0u)
            CHECK(bsp3.node_count == 0u && bsp3.root == COPSE_BSP3_EMPTY && cfg_untouched(&a));
    }
}

/* The robot builder: a link of one sphere, refused from this file's arena. */
static void test_robot_refuses(void)
{
    static copse_sphere sph[1] = {{{0.0f, 0.0f, 0.0f}, 0.1f}};
    static copse_link_desc link;
    copse_robot_desc d;
    copse_robot robot;
    copse_arena a;
    memset(&link, 0, sizeof link);
    link.name = "only";
    link.spheres = sph;
    link.sphere_count = 1;
    memset(&d, 0, sizeof d);
    d.links = &link;
    d.link_count = 1;
    d.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    cfg_arena(&a, 1u);
    CHECK_EQ_INT(copse_robot_build(&robot, &a, &d), COPSE_ERR_CONFIG);
    CHECK(robot.link_count == 0u && cfg_untouched(&a));
    cfg_arena(&a, 0u);
    CHECK_EQ_INT(copse_robot_build(&robot, &a, &d), COPSE_OK);
    CHECK(robot.link_count == 1u);
}

void suite_config(void)
{
    test_run("config/signature", test_signature);
    test_run("config/builders_refuse", test_builders_refuse);
    test_run("config/robot_refuses", test_robot_refuses);
}

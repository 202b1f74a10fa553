/* SPDX-License-Identifier: MIT */
/*
 * Regressions for the findings of the hostile review of the public API: each test
 * is the attack that found the defect, checked against the documented answer. The oracles are
 * written here from the headers' definitions (uint64 arithmetic for sizes), never by calling
 * the code under test twice.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "copse/copse.h"
#include "oracle/oracle.h"
#include "oracle/oracle_collide.h"
#include "oracle/oracle_points.h"
#include "suites.h"
#include "test.h"

/* A point octree's configuration over pts[0..n) in [lo, hi]: nodes and buckets for `nodes`,
 * buckets of 4 points. */
static void small_octree_config(copse_octree_config *cfg, const copse_vec3 *pts, uint32_t n, copse_vec3 lo, copse_vec3 hi,
                                uint32_t nodes, uint32_t leaf_size, uint32_t depth)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->points = pts;
    cfg->point_capacity = n;
    cfg->bounds.min = lo;
    cfg->bounds.max = hi;
    cfg->max_nodes = nodes;
    cfg->max_buckets = nodes;
    cfg->leaf_size = leaf_size;
    cfg->bucket_size = 4;
    cfg->max_depth = depth;
}

/* ---- 1. copse_bvh_prim_id out of range ---------------------------------------------------- */

static void test_bvh_prim_id_range(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(3, 4));
    copse_arena arena;
    copse_bvh t;
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_box3 boxes[3];
    /* ids[3] is a sentinel the tree must never read: only three boxes are given */
    const uint32_t ids[4] = {10u, 11u, 12u, 0xDEADu};
    uint32_t i;
    for (i = 0; i < 3u; i++) {
        boxes[i].min = copse_v3((float)i, 0.0f, 0.0f);
        boxes[i].max = copse_v3((float)i + 0.5f, 1.0f, 1.0f);
    }
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, ids, 3u, &p), COPSE_OK);
    for (i = 0; i < 3u; i++)
        CHECK(copse_bvh_prim_id(&t, i) == ids[i]);
    CHECK(copse_bvh_prim_id(&t, 3u) == COPSE_NONE);
    CHECK(copse_bvh_prim_id(&t, 0xFFFFFFFEu) == COPSE_NONE);
    CHECK(copse_bvh_prim_id(NULL, 0u) == COPSE_NONE);
    /* without ids: the index itself, still only in range */
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, NULL, 3u, &p), COPSE_OK);
    CHECK(copse_bvh_prim_id(&t, 2u) == 2u);
    CHECK(copse_bvh_prim_id(&t, 3u) == COPSE_NONE);
    /* a zeroed tree has no primitives */
    memset(&t, 0, sizeof t);
    CHECK(copse_bvh_prim_id(&t, 0u) == COPSE_NONE);
}

/* ---- 2. dumps of zero-initialised BSP trees ------------------------------------------------ */

static void test_bsp_dump_zeroed(void)
{
    copse_bsp3 z3;
    copse_bsp2 z2;
    copse_bsp3_where where;
    char buf[32];
    size_t len = 99;
    memset(&z3, 0, sizeof z3);
    memset(&z2, 0, sizeof z2);
    /* the queries treat a zeroed tree as empty; the dump does too */
    CHECK_STATUS(copse_bsp3_contents(&z3, copse_v3(0, 0, 0), &where), COPSE_OK);
    CHECK(!where.solid);
    CHECK_STATUS(copse_bsp3_dump(&z3, COPSE_BSP_PREORDER, buf, sizeof buf, &len), COPSE_OK);
    CHECK(strcmp(buf, "E\n") == 0);
    CHECK_EQ_INT(len, 2);
    CHECK_STATUS(copse_bsp3_dump(&z3, COPSE_BSP_LEVELORDER, buf, sizeof buf, &len), COPSE_OK);
    CHECK(strcmp(buf, "0: E\n") == 0);
    /* a root leaf the tree does not have */
    z3.root = COPSE_BSP3_LEAF | 5u;
    CHECK_STATUS(copse_bsp3_dump(&z3, COPSE_BSP_PREORDER, buf, sizeof buf, &len), COPSE_ERR_INDEX);
    CHECK_EQ_INT(len, 0);
    CHECK_STATUS(copse_bsp2_dump(&z2, COPSE_BSP_PREORDER, buf, sizeof buf, &len), COPSE_OK);
    CHECK_EQ_INT(len, 0);
    CHECK(buf[0] == '\0');
}

/* ---- 3. the octrees' count limits ------------------------------------------------------------ */

static void test_octree_count_limit(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(4, 4, 4));
    static const copse_vec3 pts[2] = {{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    copse_arena arena;
    copse_octree t;
    copse_octree_config cfg;
    copse_loose_config lc;
    copse_loose lt;
    /* A node's count is 28 bits: the most points a tree may hold must fit it (a root holding
     * 2^28 points would read as 0 and every query would skip it). Filling a tree with 2^28
     * points takes 3 GiB of coordinates, so the limit is tested where it is enforced, at init,
     * which reads no point. */
    CHECK(COPSE_OCTREE_MAX_POINTS <= 0x0FFFFFFFu);
    CHECK(COPSE_LOOSE_MAX_OBJECTS <= 0x0FFFFFFFu);
    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.bounds.max = copse_v3(1, 1, 1);
    cfg.max_nodes = 4;
    cfg.max_buckets = 4;
    cfg.leaf_size = 4;
    cfg.bucket_size = 4;
    cfg.max_depth = 4;
    cfg.point_capacity = 1u << 28; /* the count that wrapped */
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&t, &arena, &cfg), COPSE_ERR_PARAM);
    CHECK_EQ_INT(arena.used, 0);
    cfg.point_capacity = (1u << 28) - 1u; /* the limit itself: accepted */
    CHECK_STATUS(copse_octree_init(&t, &arena, &cfg), COPSE_OK);
    cfg.point_capacity = 2;
    cfg.max_nodes = 1u << 28;
    CHECK(copse_octree_bytes(&cfg) == SIZE_MAX);
    cfg.max_nodes = 4;
    cfg.max_buckets = 1u << 28;
    CHECK(copse_octree_bytes(&cfg) == SIZE_MAX);

    memset(&lc, 0, sizeof lc);
    lc.world.max = copse_v3(1, 1, 1);
    lc.max_nodes = 4;
    lc.max_depth = 4;
    lc.max_objects = 1u << 28;
    CHECK(copse_loose_bytes(&lc) == SIZE_MAX);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_loose_init(&lt, &arena, &lc), COPSE_ERR_PARAM);
    lc.max_objects = (1u << 28) - 1u; /* accepted: only the arena is short (8 GiB of objects) */
    if (sizeof(size_t) >= 8u) {
        CHECK(copse_loose_bytes(&lc) != SIZE_MAX);
        CHECK_STATUS(copse_loose_init(&lt, &arena, &lc), COPSE_ERR_NOMEM);
    }
    lc.max_objects = 4;
    lc.max_nodes = 1u << 28;
    CHECK(copse_loose_bytes(&lc) == SIZE_MAX);
}

/* ---- 4. the arena's edges ------------------------------------------------------------------ */

static bool aligned_ptr(const void *p)
{
    return ((uintptr_t)p & (COPSE_ARENA_ALIGN - 1u)) == 0u;
}

static void test_arena_edges(void)
{
    COPSE_ARENA_STORAGE(buf, 64);
    copse_arena a;
    void *p;
    /* no buffer: no pointer at all, even for 0 bytes (and no NULL + 0 arithmetic) */
    copse_arena_init(&a, NULL, 100);
    CHECK(a.base == NULL);
    CHECK_EQ_INT(a.capacity, 0);
    CHECK(copse_arena_alloc(&a, 0) == NULL);
    CHECK(copse_arena_alloc(&a, 8) == NULL);
    /* smaller than the alignment gap: 0 bytes must not hand out the misaligned start */
    copse_arena_init(&a, (uint8_t *)buf + 1, 5);
    p = copse_arena_alloc(&a, 0);
    CHECK(p == NULL || aligned_ptr(p));
    CHECK_EQ_INT(a.capacity, 0);
    /* a size past the end of the address space: base + capacity must stay in it */
    copse_arena_init(&a, buf, SIZE_MAX);
    CHECK(a.base == (uint8_t *)buf);
    CHECK(a.capacity <= (size_t)(UINTPTR_MAX - (uintptr_t)a.base));
    copse_arena_init(&a, (uint8_t *)buf + 3, SIZE_MAX - 1u);
    CHECK(aligned_ptr(a.base));
    CHECK(a.capacity <= (size_t)(UINTPTR_MAX - (uintptr_t)a.base));
    /* rewinding to something no mark can be is ignored: what follows stays aligned */
    copse_arena_init(&a, buf, sizeof buf);
    CHECK(copse_arena_alloc(&a, 16) != NULL);
    copse_arena_rewind(&a, 3);
    CHECK_EQ_INT(a.used, 16);
    p = copse_arena_alloc(&a, 8);
    CHECK(p != NULL && aligned_ptr(p));
    p = copse_arena_alloc(&a, 0);
    CHECK(p != NULL && aligned_ptr(p));
    copse_arena_rewind(&a, 8); /* a real mark position still works */
    CHECK_EQ_INT(a.used, 8);
}

/* ---- 5. sizing macros and functions saturate ----------------------------------------------- */

static uint64_t r8(uint64_t v)
{
    return (v + 7u) & ~(uint64_t)7u;
}

/* the uint64 oracle's value as size_t: SIZE_MAX when it does not fit */
static size_t sat(uint64_t v)
{
    return v > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)v;
}

static void test_size_saturation(void)
{
    volatile uint32_t zero = 0, big = 0xFFFFFFFFu; /* runtime values: no constant folding */
    const size_t huge = SIZE_MAX / 8u;            /* 4 * huge fits; 32 * anything of it does not */
    const uint64_t n = big;
    copse_bvh bvh;
    copse_bsp2 b2;
    copse_bsp3 b3;
    /* leaf 0 counts as 1 rather than dividing by zero */
    CHECK(COPSE_BVH_NODE_BUDGET(10u, zero) == 19u);
    CHECK(COPSE_BVH_NODE_BUDGET(1u, zero) == 1u);
    CHECK(COPSE_BVH_NODE_BUDGET(zero, zero) == 0u);
    CHECK(COPSE_BVH_NODE_BUDGET(9u, 4u) == 2u * (9u / 2u) - 1u);
    /* the largest uint32 count: exact on a 64-bit size_t, SIZE_MAX on a 32-bit one */
    CHECK(COPSE_BVH_NODE_BUDGET(big, 1u) == sat(2u * n - 1u));
    CHECK(COPSE_BVH_TREE_BYTES(big, 1u) == sat(r8(4u * n) + r8(32u * (2u * n - 1u))));
    CHECK(COPSE_BVH_SCRATCH_BYTES(big) ==
          sat(r8(24u * n) + r8(16u * (COPSE_BVH_MAX_DEPTH + 2u)) + r8(32u * COPSE_BVH_SAH_BINS)));
    CHECK(COPSE_BVH_BUILD_BYTES(big, 1u) == sat(r8(4u * n) + r8(32u * (2u * n - 1u)) + r8(24u * n) +
                                                r8(16u * (COPSE_BVH_MAX_DEPTH + 2u)) + r8(32u * COPSE_BVH_SAH_BINS)));
    /* a size_t count past what the bytes can hold: SIZE_MAX on every host */
    CHECK(COPSE_BVH_NODE_BUDGET(SIZE_MAX, 1u) == SIZE_MAX);
    CHECK(COPSE_BVH_TREE_BYTES(huge, 1u) == SIZE_MAX);
    CHECK(COPSE_BVH_SCRATCH_BYTES(huge) == SIZE_MAX);
    CHECK(COPSE_BVH_BUILD_BYTES(huge, 4u) == SIZE_MAX);
    CHECK(COPSE_OCTREE_BYTES(huge, 1u, 1u) == SIZE_MAX);
    CHECK(COPSE_OCTREE_BYTES(1u, huge, 1024u) == SIZE_MAX);
    CHECK(COPSE_OCTREE_BYTES(1u, 1u, SIZE_MAX) == SIZE_MAX);
    CHECK(COPSE_OCTREE_BYTES(big, big, 1024u) == sat(r8(36u * n) + r8(4u * 1025u * n)));
    CHECK(COPSE_OCTREE_BUILD_SCRATCH_BYTES(huge * 4u, 20u) == SIZE_MAX);
    CHECK(COPSE_OCTREE_BUILD_SCRATCH_BYTES(big, 20u) == sat(r8(4u * n) + r8(32u * (7u * 20u + 8u))));
    CHECK(COPSE_LOOSE_BYTES(huge, 1u) == SIZE_MAX);
    CHECK(COPSE_LOOSE_BYTES(big, big) == sat(r8(16u * n) + r8(32u * n)));
    CHECK(COPSE_BSP2_BYTES(big, 32u) == SIZE_MAX); /* (2n+1)^2 leaves overflow even 64 bits */
    CHECK(COPSE_BSP2_BYTES(huge, 8u) == SIZE_MAX);
    CHECK(COPSE_BSP2_BYTES(1000u, 8u) == sat(r8(12u * (2u * 256u - 1u)) + r8(4u * 1000u * 256u)));
    CHECK(COPSE_BSP2_BYTES(3u, 30u) == sat(r8(12u * (2u * 49u - 1u)) + r8(4u * 3u * 49u)));
    CHECK(COPSE_BSP2_BYTES(100000u, 30u) == sat(r8(12u * (2u * 40000400001u - 1u)) + r8(400000u * 40000400001u)));
    /* the functions over counts a 32-bit size_t cannot hold in bytes */
    memset(&bvh, 0, sizeof bvh);
    bvh.dim = 3;
    bvh.prim_count = 1u << 30;
    bvh.node_count = 0x7FFFFFFFu;
    CHECK(copse_bvh_bytes(&bvh) == sat(r8(4u * (uint64_t)bvh.prim_count) + r8(32u * (uint64_t)bvh.node_count)));
    memset(&b2, 0, sizeof b2);
    b2.node_count = big;
    b2.item_count = big;
    CHECK(copse_bsp2_bytes(&b2) == sat(r8(12u * n) + r8(4u * n)));
    memset(&b3, 0, sizeof b3);
    b3.node_count = big;
    b3.leaf_brush_count = big;
    CHECK(copse_bsp3_bytes(&b3) == sat(r8(sizeof(copse_bsp3_node) * n) + r8(4u * n)));
}

/* ---- 6. BSP traces whose end points are finite but whose difference overflows -------------- */

/* The oracle: where a + t*(b - a) enters the closed interval [lo, hi] along x, in double
 * (b - a is finite there), from the start when it lies in [lo, ...). */
static double enter_t(double a, double b, double lo)
{
    double t = (lo - a) / (b - a);
    return t < 0.0 ? 0.0 : t;
}

static bool near_t(float t, double want)
{
    return t >= 0.0f && t <= 1.0f && (double)t >= want - 1e-6 && (double)t <= want + 1e-6;
}

static void test_bsp_trace_overflow(void)
{
    size_t cap = 0;
    void *mem = test_memory(&cap);
    static const copse_bsp2_params p2 = COPSE_BSP2_PARAMS_DEFAULT;
    static const copse_bsp3_params p3 = COPSE_BSP3_PARAMS_DEFAULT;
    const float big = 3e38f;
    copse_box2 scene, objs[2];
    copse_box3 cube;
    copse_plane planes[12];
    copse_brush brush[2];
    copse_arena arena;
    copse_bsp2 t2;
    copse_bsp3 t3;
    copse_segment2 s2;
    copse_segment3 s3;
    copse_bsp2_trace o2;
    copse_bsp3_trace o3;
    double want;
    unsigned k;
    scene.min = copse_v2(-FLT_MAX, -FLT_MAX);
    scene.max = copse_v2(FLT_MAX, FLT_MAX);
    objs[0].min = copse_v2(-1.0f, -1.0f); /* in the first half of the segments */
    objs[0].max = copse_v2(1.0f, 1.0f);
    objs[1].min = copse_v2(1e38f, 5.0f); /* only on the line y = 7, in the second half */
    objs[1].max = copse_v2(2e38f, 9.0f);
    copse_arena_init(&arena, mem, cap);
    CHECK_STATUS(copse_bsp2_build(&t2, &arena, &scene, objs, 2u, &p2), COPSE_OK);
    for (k = 0; k < 2u; k++) { /* both directions */
        const float sg = k == 0 ? 1.0f : -1.0f;
        s2.a = copse_v2(-big * sg, 0.0f);
        s2.b = copse_v2(big * sg, 0.0f);
        CHECK_STATUS(copse_sweep_point_bsp2(&s2, &t2, &o2), COPSE_OK);
        want = enter_t(-(double)big, (double)big, -1.0); /* the same both ways: symmetric */
        CHECKF(o2.hit && o2.id == 0u && near_t(o2.t, want), "hit %d object %u t %.9g", (int)o2.hit,
               (unsigned)o2.id, (double)o2.t);
        CHECKF(o2.point.x == o2.point.x && fabs((double)o2.point.x + (double)sg) <= 1e33 && o2.point.y == 0.0f,
               "point %g %g", (double)o2.point.x, (double)o2.point.y);
        CHECK(o2.normal.x == -sg && o2.normal.y == 0.0f);
    }
    /* the hit in the second half */
    s2.a = copse_v2(-big, 7.0f);
    s2.b = copse_v2(big, 7.0f);
    CHECK_STATUS(copse_sweep_point_bsp2(&s2, &t2, &o2), COPSE_OK);
    want = enter_t(-(double)big, (double)big, 1e38);
    CHECKF(o2.hit && o2.id == 1u && near_t(o2.t, want), "t %.9g want %.9g", (double)o2.t, want);
    CHECK(o2.point.x == o2.point.x && fabs((double)o2.point.x - 1e38) <= 1e33 && o2.point.y == 7.0f);
    /* a miss: t 1 and the end point */
    s2.a = copse_v2(-big, 20.0f);
    s2.b = copse_v2(big, 20.0f);
    CHECK_STATUS(copse_sweep_point_bsp2(&s2, &t2, &o2), COPSE_OK);
    CHECK(!o2.hit && o2.t == 1.0f && o2.point.x == big && o2.point.y == 20.0f);

    cube.min = copse_v3(-1.0f, -1.0f, -1.0f);
    cube.max = copse_v3(1.0f, 1.0f, 1.0f);
    CHECK_STATUS(copse_brush_from_box(&cube, planes), COPSE_OK);
    cube.min = copse_v3(-3.2e38f, -1e37f, 1e37f); /* far away, off the x axis */
    cube.max = copse_v3(-2.8e38f, 1e37f, 3e37f);
    CHECK_STATUS(copse_brush_from_box(&cube, planes + 6), COPSE_OK);
    brush[0].planes = planes;
    brush[1].planes = planes + 6;
    brush[0].plane_count = brush[1].plane_count = 6;
    copse_arena_init(&arena, mem, cap);
    CHECK_STATUS(copse_bsp3_build(&t3, &arena, brush, 2u, &p3), COPSE_OK);
    for (k = 0; k < 4u; k++) { /* a ray and a swept sphere, both directions */
        const float sg = (k & 1u) ? -1.0f : 1.0f, r = k < 2u ? 0.0f : 1.0f;
        s3.a = copse_v3(-big * sg, 0.0f, 0.0f);
        s3.b = copse_v3(big * sg, 0.0f, 0.0f);
        CHECK_STATUS(copse_sweep_sphere_bsp3(&s3, r, &t3, &o3), COPSE_OK);
        want = enter_t(-(double)big, (double)big, -1.0 - (double)r);
        CHECKF(o3.hit && !o3.start_solid && near_t(o3.t, want), "k %u hit %d fraction %.9g", k,
               (int)o3.hit, (double)o3.t);
        CHECKF(o3.point.x == o3.point.x && fabs((double)o3.point.x + (double)sg * (1.0 + (double)r)) <= 1e33 &&
                   o3.point.y == 0.0f && o3.point.z == 0.0f,
               "point %g %g %g", (double)o3.point.x, (double)o3.point.y, (double)o3.point.z);
        CHECK(o3.normal.x == -sg && o3.normal.y == 0.0f && o3.normal.z == 0.0f);
    }
    s3.a = copse_v3(-big, 5.0f, 0.0f); /* a miss */
    s3.b = copse_v3(big, 5.0f, 0.0f);
    CHECK_STATUS(copse_sweep_point_bsp3(&s3, &t3, &o3), COPSE_OK);
    CHECK(!o3.hit && o3.t == 1.0f && o3.point.x == big);
    s3.a = copse_v3(-big, 0.0f, 2e37f); /* a start inside the far brush: fraction 0 at a */
    s3.b = copse_v3(big, 0.0f, 2e37f);
    CHECK_STATUS(copse_sweep_point_bsp3(&s3, &t3, &o3), COPSE_OK);
    CHECK(o3.hit && o3.start_solid && o3.t == 0.0f && o3.point.x == -big && o3.point.z == 2e37f);
}

/* ---- 9. visit_nearest over (distance, id) ties longer than the scratch ---------------------- */

#define TIE_N 60u

typedef struct tie_seen {
    uint32_t count, order_bad;
    uint8_t seen[TIE_N];
    copse_neighbor last;
} tie_seen;

static bool tie_visit(void *user, const copse_neighbor *nb)
{
    tie_seen *s = (tie_seen *)user;
    if (nb->index < TIE_N)
        s->seen[nb->index]++;
    /* (distance_sq, id, index) strictly increasing */
    if (s->count > 0u &&
        !(nb->distance_sq > s->last.distance_sq ||
          (nb->distance_sq == s->last.distance_sq &&
           (nb->id > s->last.id || (nb->id == s->last.id && nb->index > s->last.index)))))
        s->order_bad++;
    s->last = *nb;
    s->count++;
    return true;
}

static void test_visit_nearest_ties(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(64, 64, 4) + COPSE_OCTREE_BUILD_SCRATCH_BYTES(TIE_N, 6));
    copse_vec3 pts[TIE_N];
    uint32_t ids[TIE_N], i, cap, mode;
    copse_neighbor scratch[7];
    copse_octree_config cfg;
    copse_octree t;
    copse_arena arena;
    for (i = 0; i < TIE_N; i++) { /* three distances, both sides of the query, ids repeating */
        pts[i] = copse_v3((i & 1u) ? (float)(i % 3u) : -(float)(i % 3u), 0.0f, 0.0f);
        ids[i] = (i / 2u) % 5u;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.ids = ids;
    cfg.point_capacity = TIE_N;
    cfg.bounds.min = copse_v3(-4, -4, -4);
    cfg.bounds.max = copse_v3(4, 4, 4);
    cfg.max_nodes = 64;
    cfg.max_buckets = 64;
    cfg.leaf_size = 4;
    cfg.bucket_size = 4;
    cfg.max_depth = 6;
    for (mode = 0; mode < 2u; mode++) { /* a bulk build and one insert at a time */
        copse_arena scratch_arena;
        copse_arena_init(&arena, mem, sizeof mem);
        CHECK_STATUS(copse_octree_init(&t, &arena, &cfg), COPSE_OK);
        if (mode == 0u) {
            scratch_arena = arena;
            CHECK_STATUS(copse_octree_build(&t, &scratch_arena, TIE_N), COPSE_OK);
        } else {
            for (i = 0; i < TIE_N; i++)
                CHECK_STATUS(copse_octree_insert(&t, i), COPSE_OK);
        }
        for (cap = 1; cap <= 7u; cap++) {
            tie_seen s;
            uint32_t missing = 0, twice = 0;
            memset(&s, 0, sizeof s);
            CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, 0, 0), FLT_MAX, scratch, cap, tie_visit, &s),
                         COPSE_OK);
            for (i = 0; i < TIE_N; i++) {
                missing += s.seen[i] == 0u;
                twice += s.seen[i] > 1u;
            }
            CHECKF(s.count == TIE_N && missing == 0u && twice == 0u && s.order_bad == 0u,
                   "mode %u scratch %u: %u visits, %u missing, %u twice, %u out of order", (unsigned)mode,
                   (unsigned)cap, (unsigned)s.count, (unsigned)missing, (unsigned)twice, (unsigned)s.order_bad);
        }
    }
}

/* ---- 10. statuses the documentation gives ---------------------------------------------------- */

static void test_documented_statuses(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(8, 8, 4) + COPSE_BVH_BUILD_BYTES(3, 4) + 1024u);
    uint32_t blob_words[160];
    copse_vec3 pts[3] = {{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, {0.5f, 0.5f, 0.5f}};
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_octree_config cfg;
    copse_octree ot;
    copse_arena arena;
    copse_bvh t;
    copse_box3 boxes[3], box;
    copse_plane planes[6];
    copse_brush brush;
    copse_bsp3 b3;
    static const copse_bsp3_params p3 = COPSE_BSP3_PARAMS_DEFAULT;
    copse_ray3 ray;
    copse_hit hit;
    size_t written = 0, cap = 0;
    void *big = test_memory(&cap);
    uint32_t i;

    /* a point that turned NaN in the caller's array: the save says NONFINITE, as documented
     * (the structure check alone, copse_octree_check, still says PARAM) */
    small_octree_config(&cfg, pts, 3, copse_v3(0, 0, 0), copse_v3(1, 1, 1), 8, 4, 4);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&ot, &arena, &cfg), COPSE_OK);
    for (i = 0; i < 3u; i++)
        CHECK_STATUS(copse_octree_insert(&ot, i), COPSE_OK);
    CHECK(copse_octree_save_bytes(&ot) <= sizeof blob_words);
    CHECK_STATUS(copse_octree_save(&ot, blob_words, sizeof blob_words, &written), COPSE_OK);
    pts[2].y = NAN;
    CHECK_STATUS(copse_octree_save(&ot, blob_words, sizeof blob_words, &written), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_check(&ot), COPSE_ERR_PARAM);
    pts[2].y = INFINITY;
    CHECK_STATUS(copse_octree_save(&ot, blob_words, sizeof blob_words, &written), COPSE_ERR_NONFINITE);
    pts[2].y = 7.0f; /* finite but outside its leaf: a damaged structure */
    CHECK_STATUS(copse_octree_save(&ot, blob_words, sizeof blob_words, &written), COPSE_ERR_PARAM);
    pts[2].y = 0.5f;
    CHECK_STATUS(copse_octree_save(&ot, blob_words, sizeof blob_words, &written), COPSE_OK);

    /* box builds ignore the projection, whatever its value */
    for (i = 0; i < 3u; i++) {
        boxes[i].min = pts[i];
        boxes[i].max = copse_v3(pts[i].x + 1.0f, pts[i].y + 1.0f, pts[i].z + 1.0f);
    }
    p.projection = (copse_bvh_projection)7;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, NULL, 3u, &p), COPSE_OK);
    CHECK(t.dim == 3u && t.prim_count == 3u);
    p.projection = COPSE_BVH_PROJECT_XZ;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, NULL, 3u, &p), COPSE_OK);
    CHECK(t.dim == 3u && t.axis[1] == 1u && t.axis[2] == 2u);

    /* a zero ray direction: PARAM (bvh.h, octree.h), the tree's or not */
    ray.origin = copse_v3(0, 0, 0);
    ray.dir = copse_v3(0, 0, 0);
    ray.t_max = 1.0f;
    CHECK_STATUS(copse_bvh_raycast(&t, &ray, &hit), COPSE_ERR_PARAM);
    CHECK(hit.id == COPSE_NONE);

    /* a brush thinner than 4e-6 of its scale (the largest |dist| of its unit planes, at least
     * 1) is DEGENERATE; thicker, it builds. At x = 1e6 the scale is 1e6: the limit is 4. */
    box.min = copse_v3(1e6f, 0.0f, 0.0f);
    box.max = copse_v3(1e6f + 3.875f, 10.0f, 10.0f);
    CHECK_STATUS(copse_brush_from_box(&box, planes), COPSE_OK);
    brush.planes = planes;
    brush.plane_count = 6;
    copse_arena_init(&arena, big, cap);
    CHECK_STATUS(copse_bsp3_build(&b3, &arena, &brush, 1u, &p3), COPSE_ERR_DEGENERATE);
    box.max.x = 1e6f + 4.125f;
    CHECK_STATUS(copse_brush_from_box(&box, planes), COPSE_OK);
    CHECK_STATUS(copse_bsp3_build(&b3, &arena, &brush, 1u, &p3), COPSE_OK);
    /* near the origin the scale is 1: a brush 4e-6 thick is refused, 5e-6 is not */
    box.min = copse_v3(0.0f, 0.0f, 0.0f);
    box.max = copse_v3(1.0f, 1.0f, 3.5e-6f);
    CHECK_STATUS(copse_brush_from_box(&box, planes), COPSE_OK);
    copse_arena_init(&arena, big, cap);
    CHECK_STATUS(copse_bsp3_build(&b3, &arena, &brush, 1u, &p3), COPSE_ERR_DEGENERATE);
    box.max.z = 5e-6f;
    CHECK_STATUS(copse_brush_from_box(&box, planes), COPSE_OK);
    CHECK_STATUS(copse_bsp3_build(&b3, &arena, &brush, 1u, &p3), COPSE_OK);
}

/* ---- 7. copse_bvh_nearest past the squared-distance range ------------------------------------ */

static void test_bvh_nearest_far(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(2, 4));
    /* triangle 0 far along +x, triangle 1 at the origin; vertices 0-2 and 3-5 */
    static const float pos[18] = {2e38f, 0, 0, 2e38f, 1e36f, 0, 2e38f, 0, 1e36f, 0, 0, 0, 1, 0, 0, 0, 1, 0};
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_box3 boxes[2];
    copse_box2 rects[2];
    copse_mesh m;
    copse_arena arena;
    copse_bvh t;
    copse_nearest3 n3;
    copse_nearest2 n2;
    boxes[0].min = copse_v3(2e38f, 0, 0); /* id 0 is the far one: the lowest id must not win */
    boxes[0].max = copse_v3(2e38f, 1, 1);
    boxes[1].min = copse_v3(0, 0, 0);
    boxes[1].max = copse_v3(1, 1, 1);
    rects[0].min = copse_v2(2e38f, 0);
    rects[0].max = copse_v2(2e38f, 1);
    rects[1].min = copse_v2(0, 0);
    rects[1].max = copse_v2(1, 1);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, NULL, 2u, &p), COPSE_OK);
    /* 1e19 away: d2 = 1e38 is still a float, the answer is the near box */
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(-1e19f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 1u && n3.distance_sq == 1e19f * 1e19f && n3.point.x == 0.0f);
    /* 1e20 away: every squared distance overflows; still the near box, at distance_sq +inf */
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(-1e20f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 1u && n3.distance_sq > FLT_MAX && n3.point.x == 0.0f && n3.point.y == 0.0f &&
          n3.point.z == 0.0f);
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(1e20f, 1e38f, -3e38f), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 1u && n3.point.x == 1.0f && n3.point.y == 1.0f && n3.point.z == 0.0f);
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(FLT_MAX, 0.5f, 0.5f), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 0u && n3.distance_sq > FLT_MAX && n3.point.x == 2e38f && n3.point.y == 0.5f);
    /* with a range below the limit, the answer is "none within range": decided, OK */
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(-1e20f, 0, 0), 1e19f, &n3), COPSE_OK);
    CHECK(n3.id == COPSE_NONE);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes2(&t, &arena, rects, NULL, 2u, &p), COPSE_OK);
    CHECK_STATUS(copse_bvh_nearest2(&t, copse_v2(-1e19f, 0), FLT_MAX, &n2), COPSE_OK);
    CHECK(n2.id == 1u);
    CHECK_STATUS(copse_bvh_nearest2(&t, copse_v2(-1e20f, 0), FLT_MAX, &n2), COPSE_OK);
    CHECK(n2.id == 1u && n2.point.x == 0.0f && n2.point.y == 0.0f);
    memset(&m, 0, sizeof m);
    m.positions = pos;
    m.vertex_count = 6;
    m.triangle_count = 2;
    m.index_type = COPSE_MESH_INDEX_NONE;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_mesh(&t, &arena, &m, &p), COPSE_OK);
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(-1e19f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 1u);
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(-1e20f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    /* the closest point: on the triangle, within float resolution of the distance (1e20 * 2^-24
     * here: any point of the edge x = 0 is as near once rounded) */
    CHECKF(n3.id == 1u && n3.point.x == 0.0f && n3.point.y >= 0.0f && n3.point.z == 0.0f && n3.point.y <= 1.0f,
           "id %u point %g %g %g", (unsigned)n3.id, (double)n3.point.x, (double)n3.point.y, (double)n3.point.z);
    CHECK_STATUS(copse_bvh_nearest(&t, copse_v3(3e38f, 2.5e35f, 2.5e35f), FLT_MAX, &n3), COPSE_OK);
    CHECKF(n3.id == 0u && n3.point.x == 2e38f && fabs((double)n3.point.y - 2.5e35) <= 1e38 * 1e-6 &&
               fabs((double)n3.point.z - 2.5e35) <= 1e38 * 1e-6,
           "id %u point %g %g %g", (unsigned)n3.id, (double)n3.point.x, (double)n3.point.y, (double)n3.point.z);
    CHECK_STATUS(copse_bvh_nearest_vertex(&t, copse_v3(-1e19f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 3u);
    CHECK_STATUS(copse_bvh_nearest_vertex(&t, copse_v3(-1e20f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 3u && n3.point.x == 0.0f && n3.distance_sq > FLT_MAX);
    CHECK_STATUS(copse_bvh_nearest_vertex(&t, copse_v3(3e38f, 0.9e36f, 0.0f), FLT_MAX, &n3), COPSE_OK);
    CHECK(n3.id == 1u && n3.point.x == 2e38f && n3.point.y == 1e36f && n3.distance_sq > FLT_MAX);
}

/* ---- 8. a caller id of COPSE_NONE --------------------------------------------------------- */

static void test_id_none_refused(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(3, 4) + COPSE_OCTREE_BYTES(4, 4, 4) + 1024u);
    static const copse_vec3 pts[3] = {{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, {0.5f, 0.5f, 0.5f}};
    const uint32_t ids[3] = {7u, COPSE_NONE, 9u};
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_box3 boxes[3];
    copse_box2 boxes2[3];
    copse_arena arena, scratch;
    copse_bvh t;
    copse_octree ot;
    copse_octree_config cfg;
    copse_id_list list;
    uint32_t found[4], i;
    copse_box3 all;
    for (i = 0; i < 3u; i++) {
        boxes[i].min = pts[i];
        boxes[i].max = copse_v3(pts[i].x + 1.0f, pts[i].y + 1.0f, pts[i].z + 1.0f);
        boxes2[i].min = copse_v2(pts[i].x, pts[i].y);
        boxes2[i].max = copse_v2(pts[i].x + 1.0f, pts[i].y + 1.0f);
    }
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, ids, 3u, &p), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_bvh_build_boxes2(&t, &arena, boxes2, ids, 3u, &p), COPSE_ERR_PARAM);
    CHECK_EQ_INT(arena.used, 0);
    CHECK_STATUS(copse_bvh_build_boxes3(&t, &arena, boxes, ids, 1u, &p), COPSE_OK); /* only 7 */

    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.ids = ids;
    cfg.point_capacity = 3;
    cfg.bounds.max = copse_v3(1, 1, 1);
    cfg.max_nodes = 4;
    cfg.max_buckets = 4;
    cfg.leaf_size = 4;
    cfg.bucket_size = 4;
    cfg.max_depth = 4;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&ot, &arena, &cfg), COPSE_OK);
    scratch = arena; /* what is left after the pools */
    CHECK_STATUS(copse_octree_insert(&ot, 0u), COPSE_OK);
    CHECK_STATUS(copse_octree_insert(&ot, 1u), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_octree_insert(&ot, 2u), COPSE_OK);
    CHECK_STATUS(copse_octree_build(&ot, &scratch, 3u), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_octree_build(&ot, &scratch, 1u), COPSE_OK);
    /* what the tree holds is reported by its real ids */
    all.min = copse_v3(-1, -1, -1);
    all.max = copse_v3(2, 2, 2);
    list.ids = found;
    list.capacity = 4;
    CHECK_STATUS(copse_octree_overlap_box(&ot, &all, &list), COPSE_OK);
    CHECK(list.count == 1u && found[0] == 7u);
}

/* ---- 11. a convex's margin from the whole tree's magnitude (fuzz_collide) ------------------------
 * The convex test's rounding margin was a few ulps of the tree's largest coordinate: with one
 * point (or triangle) at 7e12 every point within 1.7e6 of a 64 m segment "touched" it. The
 * margin is now from the coordinates the test combines; the far geometry still counts. */

/* The distance from p to the segment (-64..0, -64, -64), in double. */
static double far_convex_gap(const copse_vec3 *p)
{
    double px = (double)p->x, x = px < -64.0 ? -64.0 - px : (px > 0.0 ? px : 0.0);
    double y = (double)p->y + 64.0, z = (double)p->z + 64.0;
    return sqrt(x * x + y * y + z * z);
}

static void test_convex_margin_far_tree(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(16, 16, 4) + COPSE_BVH_BUILD_BYTES(6, 4) + 2048u);
    static const copse_vec3 pts[6] = {{-39.90625f, -39.90625f, -39.90625f}, {-39.90625f, -37.90625f, -39.38f},
                                      {-36.39f, -39.9f, -36.4f},             {-39.88f, -39.90625f, 7.17e12f},
                                      {-21.8f, -21.8f, -21.8f},              {-20.0f, -64.0f, -64.0f}};
    static const copse_vec3 hull[3] = {{9.16e-41f, -64.0f, -64.0f}, {-64.0f, -64.0f, -64.0f}, {-64.0f, -64.0f, -64.0f}};
    const copse_convex convex = {hull, 3u};
    copse_octree_config cfg;
    copse_octree ot;
    copse_arena arena, scratch;
    copse_bvh bvh;
    copse_mesh mesh;
    float tri[6 * 9];
    uint32_t found[8], id = 0, i, k;
    copse_id_list list;
    const copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;

    small_octree_config(&cfg, pts, 6, copse_v3(-64, -64, -64), copse_v3(0, 0, 7.2e12f), 16, 1, 6);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&ot, &arena, &cfg), COPSE_OK);
    scratch = arena;
    CHECK_STATUS(copse_octree_build(&ot, &scratch, 6u), COPSE_OK);
    if (ot.size != 6u)
        return;
    list.ids = found;
    list.capacity = 8;
    CHECK_STATUS(copse_octree_overlap_convex(&ot, &convex, NULL, &list), COPSE_OK);
    /* only point 5 lies on the segment; the others are 34 m and more from it */
    CHECK_EQ_INT(list.count, 1);
    for (i = 0; i < list.count; i++)
        CHECK(far_convex_gap(&pts[found[i]]) < 1e-3);
    CHECK_STATUS(copse_octree_any_convex(&ot, &convex, NULL, &id), COPSE_OK);
    CHECK_EQ_INT(id, 5);

    /* the same as a mesh: a small triangle at each point, the tree reaching 7e12 */
    for (i = 0; i < 6u; i++)
        for (k = 0; k < 3u; k++) {
            tri[9 * i + 3 * k] = pts[i].x + (k == 1u ? 0.25f : 0.0f);
            tri[9 * i + 3 * k + 1] = pts[i].y + (k == 2u ? 0.25f : 0.0f);
            tri[9 * i + 3 * k + 2] = pts[i].z;
        }
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = tri;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.vertex_count = 18;
    mesh.triangle_count = 6;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &mesh, &bp), COPSE_OK);
    CHECK_STATUS(copse_bvh_overlap_convex(&bvh, &convex, NULL, &list), COPSE_OK);
    CHECK_EQ_INT(list.count, 1);
    CHECK(list.count == 0u || found[0] == 5u);
}

/* ---- 12. bounded BSP builds: thin overlapping slabs at split_weight 0 ----------------------------
 * Every slab crossing every other, and a score that never minds a cut: each level doubled the
 * fragments (48 slabs: 18.5 M nodes, 30 s), and the counting pass ran to the end before it could
 * report NOMEM. Now a build stays within COPSE_BSP3_VISIT_BUDGET and stops as soon as the tree it
 * counts outgrows the arena. */

#define SLABS_MAX 48u

/* Slab i: |p . n_i| <= 0.05 with |p| bounded by a box, n_i turned i / n of a half turn about z. */
static void make_slabs(uint32_t n, copse_plane (*planes)[6], copse_brush *brushes)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        float a = 3.14159265f * (float)i / (float)n, c = cosf(a), sn = sinf(a);
        planes[i][0].normal = copse_v3(c, sn, 0.0f);
        planes[i][0].dist = 0.05f;
        planes[i][1].normal = copse_v3(-c, -sn, 0.0f);
        planes[i][1].dist = 0.05f;
        planes[i][2].normal = copse_v3(-sn, c, 0.0f);
        planes[i][2].dist = 10.0f;
        planes[i][3].normal = copse_v3(sn, -c, 0.0f);
        planes[i][3].dist = 10.0f;
        planes[i][4].normal = copse_v3(0.0f, 0.0f, 1.0f);
        planes[i][4].dist = 10.0f;
        planes[i][5].normal = copse_v3(0.0f, 0.0f, -1.0f);
        planes[i][5].dist = 10.0f;
        brushes[i].planes = planes[i];
        brushes[i].plane_count = 6;
    }
}

static bool in_slabs(copse_plane (*planes)[6], uint32_t n, copse_vec3 p)
{
    uint32_t i, k;
    for (i = 0; i < n; i++) {
        bool in = true;
        for (k = 0; k < 6u; k++)
            in = in && (double)planes[i][k].normal.x * (double)p.x + (double)planes[i][k].normal.y * (double)p.y +
                               (double)planes[i][k].normal.z * (double)p.z <= (double)planes[i][k].dist;
        if (in)
            return true;
    }
    return false;
}

static void test_bsp3_bounded_slabs(void)
{
    copse_bsp3_params params = COPSE_BSP3_PARAMS_DEFAULT;
    size_t avail, exact, scratch;
    uint8_t *mem = (uint8_t *)test_memory(&avail);
    /* the slabs at the front of the test memory (a board has little static RAM), the build after */
    copse_plane(*planes)[6] = (copse_plane(*)[6])(void *)mem;
    copse_brush *brushes = (copse_brush *)(void *)(mem + sizeof(copse_plane[SLABS_MAX][6]));
    const size_t front = sizeof(copse_plane[SLABS_MAX][6]) + sizeof(copse_brush[SLABS_MAX]);
    copse_arena arena;
    copse_bsp3 bsp;
    copse_bsp3_where w;
    uint32_t n = SLABS_MAX, i, wrong = 0;
    uint64_t budget;
    if (!CHECK(avail > front + 1024u))
        return;
    mem += front;
    avail -= front;
    params.split_weight = 0.0f;
    /* a board's test memory takes fewer slabs: the bound is the same function of n */
    for (;;) {
        make_slabs(n, planes, brushes);
        scratch = copse_bsp3_scratch_bytes(brushes, n, &params);
        exact = scratch < avail ? copse_bsp3_build_bytes(brushes, n, &params, mem, avail) : (size_t)-1;
        if (exact <= avail || n <= 4u)
            break;
        n /= 2u;
    }
    if (exact > avail) {
        test_skip("four slabs' tree does not fit the test memory");
        return;
    }
    budget = COPSE_BSP3_VISIT_BUDGET(n, params.max_depth);
    copse_arena_init(&arena, mem, exact);
    CHECK_STATUS(copse_bsp3_build(&bsp, &arena, brushes, n, &params), COPSE_OK);
    if (bsp.node_count == 0u)
        return;
    CHECK(bsp.node_count <= budget && bsp.leaf_count <= budget + 1u);
    for (i = 0; i < 2000u; i++) { /* a lattice through the slabs' crossings */
        copse_vec3 p = copse_v3(-1.0f + 0.01f * (float)(i % 200u), -0.5f + 0.1f * (float)(i / 200u), 0.5f);
        if (copse_bsp3_contents(&bsp, p, &w) != COPSE_OK || w.solid != in_slabs(planes, n, p))
            wrong++;
    }
    CHECK_EQ_INT(wrong, 0);
    /* too small an arena: NOMEM as soon as the count outgrows it, not after counting it all */
    if (exact > scratch + 4096u) {
        size_t cap = scratch + 2048u;
        copse_arena_init(&arena, mem, cap);
        CHECK_STATUS(copse_bsp3_build(&bsp, &arena, brushes, n, &params), COPSE_ERR_NOMEM);
        CHECK(arena.needed > cap && arena.needed < exact && arena.used == 0u);
    }
}

/* ---- 13. robot checks: a status that depended on where the call stopped (fuzz_robot) ------------
 * One link, a sphere at 9.4e36 of radius 9.9e37 (finite, accepted by the build): collides met the
 * world mesh first and stopped with OK; contacts went on to the objects, where the link's ball grown
 * for the broadphase overflowed, and said NONFINITE. Every check now decides, before any pair, what a
 * pair could refuse: links placed beyond COPSE_ROBOT_MAX_COORD, world mesh poses, trees, objects. */

typedef struct rs_world {
    float tri[9];
    copse_bvh tree, flat;
    copse_world_mesh meshes[2];
    copse_world_object objects[2];
    copse_loose loose;
    copse_world world;
} rs_world;

/* A triangle through the origin (mesh 0), a box and a sphere near it behind a loose octree. */
static bool rs_world_make(rs_world *w, copse_arena *arena)
{
    static const float tri[9] = {-1.0f, -1.0f, 0.0f, 1.0f, -1.0f, 0.0f, 0.0f, 1.0f, 0.0f};
    const copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    copse_loose_config lc;
    copse_mesh m;
    copse_box3 b;
    memset(w, 0, sizeof *w);
    memcpy(w->tri, tri, sizeof tri);
    memset(&m, 0, sizeof m);
    m.positions = w->tri;
    m.vertex_count = 3;
    m.index_type = COPSE_MESH_INDEX_NONE;
    m.triangle_count = 1;
    if (!CHECK(copse_bvh_build_mesh(&w->tree, arena, &m, &bp) == COPSE_OK))
        return false;
    w->meshes[0].tree = &w->tree;
    w->meshes[0].pose = copse_pose_identity();
    w->meshes[1] = w->meshes[0];
    w->objects[0].kind = COPSE_OBJECT_BOX;
    w->objects[0].box.center = copse_v3(0.5f, 0.0f, 0.0f);
    w->objects[0].box.half = copse_v3(0.25f, 0.25f, 0.25f);
    memcpy(w->objects[0].box.rotation, w->meshes[0].pose.rotation, sizeof w->objects[0].box.rotation);
    w->objects[1].kind = COPSE_OBJECT_SPHERE;
    w->objects[1].sphere.center = copse_v3(-0.5f, 0.0f, 0.0f);
    w->objects[1].sphere.radius = 0.25f;
    memset(&lc, 0, sizeof lc);
    lc.world = copse_box3_make(-2, -2, -2, 2, 2, 2);
    lc.max_nodes = 8;
    lc.max_objects = 2;
    lc.max_depth = 3;
    lc.node_capacity = 1;
    if (!CHECK(copse_loose_init(&w->loose, arena, &lc) == COPSE_OK))
        return false;
    b = copse_box3_make(0.25f, -0.25f, -0.25f, 0.75f, 0.25f, 0.25f);
    CHECK(copse_loose_insert(&w->loose, 0, &b) == COPSE_OK);
    b = copse_box3_make(-0.75f, -0.25f, -0.25f, -0.25f, 0.25f, 0.25f);
    CHECK(copse_loose_insert(&w->loose, 1, &b) == COPSE_OK);
    w->world.meshes = w->meshes;
    w->world.mesh_count = 1;
    w->world.objects = w->objects;
    w->world.object_count = 2;
    w->world.object_tree = &w->loose;
    return true;
}

/* A one-link robot of one sphere. */
static bool rs_robot(copse_robot *robot, copse_arena *arena, const copse_sphere *sphere)
{
    copse_link_desc link;
    copse_robot_desc desc;
    memset(&link, 0, sizeof link);
    link.spheres = sphere;
    link.sphere_count = 1;
    memset(&desc, 0, sizeof desc);
    desc.links = &link;
    desc.link_count = 1;
    desc.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    return CHECK(copse_robot_build(robot, arena, &desc) == COPSE_OK);
}

static bool is_identity_pose(const copse_pose *p)
{
    const copse_pose id = copse_pose_identity();
    return memcmp(p, &id, sizeof id) == 0;
}

/* Every check at these poses: the same status from each (collides, contacts, distances, and the
 * motion that stays at them); returns it. */
static copse_status rs_statuses(const copse_robot *robot, const copse_world *world, const copse_pose *poses)
{
    copse_robot_contact first, list[4];
    copse_link_distance per[1];
    uint32_t count = 9;
    bool truncated = true;
    float fraction = -1.0f;
    copse_pose scratch[1];
    copse_status a = copse_robot_collides(robot, world, poses, COPSE_ROBOT_CHECK_DEFAULT, &first);
    copse_status b = copse_robot_contacts(robot, world, poses, COPSE_ROBOT_CHECK_DEFAULT, list, 4, &count, &truncated);
    copse_status c = copse_robot_distances(robot, world, poses, COPSE_ROBOT_CHECK_DEFAULT, FLT_MAX, per);
    CHECKF(a == b && b == c, "collides %s, contacts %s, distances %s", copse_status_str(a), copse_status_str(b),
           copse_status_str(c));
    if (a != COPSE_OK)
        CHECK(first.kind == COPSE_CONTACT_NONE && count == 0u && !truncated && per[0].world == FLT_MAX);
    if (is_identity_pose(&poses[0])) { /* the motion that stays there (no joints, base identity) */
        copse_robot_contact mc;
        CHECK(copse_robot_motion(robot, world, NULL, NULL, NULL, scratch, 0.1f, COPSE_ROBOT_CHECK_DEFAULT,
                                 &fraction, &mc) == a);
    }
    return a;
}

static void test_robot_status_early_exit(void)
{
    size_t cap = 0;
    void *mem = test_memory(&cap);
    copse_arena arena;
    rs_world *w;
    copse_robot huge, small;
    copse_sphere sp;
    copse_pose pose[1];
    copse_bvh flat;
    const copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    copse_box2 rect = {{0.0f, 0.0f}, {1.0f, 1.0f}};
    copse_arena_init(&arena, mem, cap);
    w = (rs_world *)copse_arena_alloc(&arena, sizeof *w);
    if (!CHECK(w != NULL) || !rs_world_make(w, &arena))
        return;
    /* the finding: the link itself reaches 1e38 */
    sp.center = copse_v3(9.375e36f, 9.375e36f, -1.98444f);
    sp.radius = 9.92032e37f;
    if (!rs_robot(&huge, &arena, &sp))
        return;
    CHECK(huge.reach > COPSE_ROBOT_MAX_COORD);
    pose[0] = copse_pose_identity();
    CHECK_STATUS(rs_statuses(&huge, &w->world, pose), COPSE_ERR_NONFINITE);
    /* a small link, far out: refused past the limit, answered within it (the same status everywhere) */
    sp.center = copse_v3(0.0f, 0.0f, 0.0f);
    sp.radius = 0.5f;
    if (!rs_robot(&small, &arena, &sp))
        return;
    /* the sphere's box's bounding sphere: at least the sphere, at most sqrt(3) of it */
    CHECK((double)small.reach >= 0.5 && (double)small.reach <= 0.5 * sqrt(3.0) * (1.0 + 1e-6));
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_OK);
    pose[0].translation = copse_v3(0.0f, -2e18f, 0.0f);
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_NONFINITE);
    pose[0].translation = copse_v3(0.0f, -5e17f, 0.0f);
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_OK);
    pose[0] = copse_pose_identity();
    /* what a later pair would refuse, behind a first contact with mesh 0: the same status from all */
    w->world.mesh_count = 2;
    w->meshes[1].pose.translation = copse_v3(3e18f, 0.0f, 0.0f);
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_NONFINITE);
    w->meshes[1].pose.translation = copse_v3(3e17f, 0.0f, 0.0f);
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_OK);
    w->meshes[1].pose.rotation[0][0] = 2.0f;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_PARAM);
    w->meshes[1].pose = copse_pose_identity();
    CHECK_STATUS(copse_bvh_build_boxes2(&flat, &arena, &rect, NULL, 1u, &bp), COPSE_OK);
    w->meshes[1].tree = &flat;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_DIMENSION);
    w->world.mesh_count = 1;
    w->objects[1].kind = 7u;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_PARAM);
    w->objects[1].kind = COPSE_OBJECT_SPHERE;
    w->objects[1].sphere.radius = -1.0f;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_EMPTY_RANGE);
    w->objects[1].sphere.radius = NAN;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_NONFINITE);
    w->objects[1].sphere.radius = 0.25f;
    w->objects[0].box.half.y = -1.0f;
    CHECK_STATUS(rs_statuses(&small, &w->world, pose), COPSE_ERR_EMPTY_RANGE);
}

/* ---- 13b. relative poses past the tolerance (fuzz_robot, a 1-CPU-hour campaign) ---------------
 * Two sibling links at the same pose R = (1 + 4.9e-5) I, a rotation within COPSE_POSE_TOLERANCE
 * (R^T R - I is 9.8e-5 on the diagonal). The self pair's relative pose R^T R is 1.96e-4 off, and
 * the mesh kernel refused it with PARAM. collides stopped at the first contact (link 1 and the
 * world's triangle) before that pair and said OK; contacts and distances reached it and said PARAM.
 * The robot now settles a relative pose that fails the check (robot_check.c, rc_settle) and
 * finds the self contact too. */
static void test_robot_composed_tolerance(void)
{
    static copse_link_desc links[3];
    static copse_joint_desc joints[2];
    size_t cap = 0;
    void *mem = test_memory(&cap);
    copse_arena arena;
    rs_world *w;
    copse_mesh m;
    copse_robot robot;
    copse_robot_desc d;
    copse_robot_contact first, list[16];
    copse_link_distance per[3];
    copse_pose poses[3];
    uint32_t i, count = 0, self = 0;
    bool truncated = true;
    const float s = 1.0f + 4.9e-5f;
    copse_status a, b, c;
    copse_arena_init(&arena, mem, cap);
    w = (rs_world *)copse_arena_alloc(&arena, sizeof *w);
    if (!CHECK(w != NULL) || !rs_world_make(w, &arena))
        return;
    memset(&m, 0, sizeof m);
    m.positions = w->tri;
    m.vertex_count = 3;
    m.index_type = COPSE_MESH_INDEX_NONE;
    m.triangle_count = 1;
    memset(links, 0, sizeof links);
    memset(joints, 0, sizeof joints);
    links[0].name = "base";
    links[1].name = "left";
    links[1].mesh = &m;
    links[2].name = "right";
    links[2].mesh = &m;
    for (i = 0; i < 2u; i++) { /* both fixed to the base: siblings, not adjacent, so checked */
        joints[i].name = i == 0u ? "j_left" : "j_right";
        joints[i].type = COPSE_JOINT_FIXED;
        joints[i].parent = 0;
        joints[i].child = i + 1u;
        joints[i].mimic = -1;
    }
    memset(&d, 0, sizeof d);
    d.links = links;
    d.link_count = 3;
    d.joints = joints;
    d.joint_count = 2;
    d.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    if (!CHECK(copse_robot_build(&robot, &arena, &d) == COPSE_OK))
        return;
    poses[0] = copse_pose_identity();
    poses[1] = poses[0];
    for (i = 0; i < 3u; i++)
        poses[1].rotation[i][i] = s;
    poses[2] = poses[1];
    CHECK_STATUS(copse_pose_check(&poses[1]), COPSE_OK);
    {
        copse_pose rel;
        CHECK_STATUS(copse_pose_invert(&rel, &poses[1]), COPSE_OK);
        CHECK_STATUS(copse_pose_compose(&rel, &rel, &poses[2]), COPSE_OK);
        CHECK_STATUS(copse_pose_check(&rel), COPSE_ERR_PARAM); /* the premise: the product is past it */
    }
    a = copse_robot_collides(&robot, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, &first);
    b = copse_robot_contacts(&robot, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, list, 16, &count, &truncated);
    c = copse_robot_distances(&robot, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, FLT_MAX, per);
    CHECK_STATUS(a, COPSE_OK);
    CHECK_STATUS(b, COPSE_OK);
    CHECK_STATUS(c, COPSE_OK);
    CHECK(first.kind != COPSE_CONTACT_NONE);
    for (i = 0; i < count; i++)
        self += list[i].kind == COPSE_CONTACT_SELF && list[i].link == 1u && list[i].other == 2u;
    CHECKF(self == 1u && !truncated, "%u contacts, %u between the siblings", (unsigned)count, (unsigned)self);
    CHECK(per[1].self == 0.0f && per[2].self == 0.0f);
}

/* ---- 14. a convex 56 m from a triangle with a corner at 1.7e9 (fuzz_collide) ---------------------
 * any_convex said touching, the distance query 56.6: the distance is right (the double oracle
 * below), and the touch is within the documented GJK margin (collide.h: 18 ulps of the largest
 * coordinate the test combines, here the corner's 1.7e9). The fuzz property now allows that
 * margin, taken from the touched triangle (never the whole tree's: 60 m at 7e12 still fails it). */

/* A tree over one triangle (9 floats that outlive it), in mem. */
static bool one_triangle_tree(copse_bvh *bvh, void *mem, size_t bytes, const float *tri, uint32_t leaf)
{
    copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = tri;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.vertex_count = 3;
    mesh.triangle_count = 1;
    bp.leaf_size = leaf;
    copse_arena_init(&arena, mem, bytes);
    return CHECK(copse_bvh_build_mesh(bvh, &arena, &mesh, &bp) == COPSE_OK);
}

static void test_convex_far_corner(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(1, 2));
    static const float tri[9] = {18.0136719f, 32.375f, 32.375f, 32.375f, 32.375f, 39.4023438f,
                                 -1.73482982e9f, -1.73482982e9f, -1.73482957e9f};
    static const copse_vec3 hull[3] = {{32.375f, 32.375f, 32.375f}, {32.375f, 32.375f, 32.375f},
                                       {32.375f, 32.375f, 32.375f}};
    static const float rot[3][3] = {{0.329796016f, -0.0852550194f, 0.940194786f},
                                    {0.470138967f, 0.878465116f, -0.0852551162f},
                                    {-0.818659902f, 0.470138997f, 0.329796016f}};
    const copse_convex convex = {hull, 3u};
    copse_bvh bvh;
    copse_pose pose;
    copse_distance d;
    double p[3], a[3], b[3], c[3], q[3], want, mag = 0.0;
    uint32_t id = 0, i, k;
    if (!one_triangle_tree(&bvh, mem, sizeof mem, tri, 2u))
        return;
    memcpy(pose.rotation, rot, sizeof rot);
    pose.translation = copse_v3(32.375f, 32.375f, 32.375f);
    CHECK_STATUS(copse_pose_check(&pose), COPSE_OK);
    /* the oracle: the posed point in double, its distance to the triangle */
    for (k = 0; k < 3u; k++) {
        p[k] = 32.375 * ((double)rot[k][0] + (double)rot[k][1] + (double)rot[k][2]) + 32.375;
        a[k] = (double)tri[k];
        b[k] = (double)tri[3 + k];
        c[k] = (double)tri[6 + k];
        mag = fmax(mag, fmax(fabs(c[k]), fabs(p[k]) + 32.375));
    }
    want = orc_closest_triangle(p, a, b, c, q);
    CHECK(want > 56.0 && want < 57.0);
    CHECK_STATUS(copse_distance_convex_bvh(&convex, &pose, &bvh, NULL, &d), COPSE_OK);
    CHECKF(fabs((double)d.distance - want) <= 1e-4 * want, "distance %.9g, oracle %.9g", (double)d.distance, want);
    CHECK(d.tree_id == 0u);
    for (i = 0; i < 3u; i++) /* the nearest point is the corner (32.375, 32.375, 39.40) */
        CHECK(fabs((double)(i == 0u ? d.tree_point.x : i == 1u ? d.tree_point.y : d.tree_point.z) - q[i]) <= 1e-3);
    /* touching, if it says so, only within the documented margin */
    CHECK_STATUS(copse_bvh_any_convex(&bvh, &convex, &pose, &id), COPSE_OK);
    CHECKF(id == COPSE_NONE || want <= 18.0 * (double)FLT_EPSILON * mag, "touching at %.9g, margin %.9g", want,
           18.0 * (double)FLT_EPSILON * mag);
    /* the solver's own term: a segment 117.9 from a triangle reaching 1.07e8 (the second finding) */
    {
        static const float tri2[9] = {-64.0f, -61.0f, 20.8300781f, 19.8300781f, 38.3984375f, -107374176.0f,
                                      -107374176.0f, -107374176.0f, -107374176.0f};
        static const copse_vec3 seg[2] = {{20.8300781f, 20.8300781f, 20.8300781f},
                                          {20.8300781f, 20.8300781f, 20.5976562f}};
        const copse_convex two = {seg, 2u};
        double s0[3], s1[3], t2[3][3], ps[3], pt[3];
        for (k = 0; k < 3u; k++)
            for (i = 0; i < 3u; i++)
                t2[i][k] = (double)tri2[3u * i + k];
        s0[0] = (double)seg[0].x, s0[1] = (double)seg[0].y, s0[2] = (double)seg[0].z;
        s1[0] = (double)seg[1].x, s1[1] = (double)seg[1].y, s1[2] = (double)seg[1].z;
        if (!one_triangle_tree(&bvh, mem, sizeof mem, tri2, 2u))
            return;
        want = orcc_segment_triangle(s0, s1, (const double(*)[3])t2, ps, pt);
        CHECK(want > 117.0 && want < 118.0);
        CHECK_STATUS(copse_distance_convex_bvh(&two, NULL, &bvh, NULL, &d), COPSE_OK);
        CHECKF(fabs((double)d.distance - want) <= 1e-4 * want, "distance %.9g, oracle %.9g", (double)d.distance, want);
        CHECK_STATUS(copse_bvh_any_convex(&bvh, &two, NULL, &id), COPSE_OK);
        CHECKF(id == COPSE_NONE || want <= 18.0 * (double)FLT_EPSILON * 107374176.0, "touching at %.9g", want);
    }
    /* the same gap near the origin is far beyond any margin: clear */
    {
        static const float small_tri[9] = {18.0136719f, 32.375f, 32.375f, 32.375f, 32.375f, 39.4023438f,
                                           -17.3482982f, -17.3482982f, -17.3482957f};
        if (!one_triangle_tree(&bvh, mem, sizeof mem, small_tri, 2u))
            return;
        CHECK_STATUS(copse_bvh_any_convex(&bvh, &convex, &pose, &id), COPSE_OK);
        CHECK(id == COPSE_NONE);
    }
}

/* ---- 15. a box swept into a triangle that reaches 1e8 (fuzz_collide) ------------------------------
 * any_obb said touching and the sweep hit at t = 0.266, not at 0. The double oracle: the box starts
 * 7.6 clear of the triangle (the box-triangle test is conservative at the rounding level, and an
 * ulp of 1e8 is 8) and first touches it at t = 0.26596784: the sweep is right (0.26596788, an ulp
 * of t away). The fuzz property was too strict; it now wants t = 0 only when the box,
 * shrunk by 64 ulps of the magnitude, still touches. */

static void test_obb_sweep_far_triangle(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(1, 1));
    static const float tri[9] = {-52.0f, -11.9824219f, -64.0f, -64.0f, -64.0f, 62.4863281f,
                                 -60.5078125f, 38.4980469f, -107374176.0f};
    static const float rot[3][3] = {{-0.285708427f, 0.857152522f, 0.428555876f},
                                    {0.428555876f, -0.285708427f, 0.857152522f},
                                    {0.857152522f, 0.428555876f, -0.285708427f}};
    const copse_vec3 motion = {-64.0f, -64.0f, -64.0f};
    const double v[3] = {-64.0, -64.0, -64.0}, mag = 107374176.0 + 63.5097656;
    copse_bvh bvh;
    copse_obb obb, in;
    copse_sweep_hit hit;
    orp_shape os;
    orp_prim prim;
    orp_contact oc;
    uint32_t id = 0, i, k;
    if (!one_triangle_tree(&bvh, mem, sizeof mem, tri, 1u))
        return;
    obb.center = copse_v3(39.0097656f, -61.4902344f, -61.4902344f);
    obb.half = copse_v3(63.5097656f, 61.4902344f, 61.4902344f);
    memcpy(obb.rotation, rot, sizeof rot);
    CHECK_STATUS(copse_obb_check(&obb), COPSE_OK);
    /* the oracle: apart at the start by less than an ulp of the magnitude, first contact later */
    orp_obb(&os, &obb, NULL);
    prim.n = 3;
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            prim.v[i][k] = (double)tri[3u * i + k];
    orp_sweep(&os, v, &prim, 1e-9, 1e-9, &oc);
    CHECKF(oc.touches && oc.d0 > 7.0 && oc.d0 < 8.0 && oc.t_contact > 0.26 && oc.t_contact < 0.27,
           "oracle: d0 %.9g, contact %d at %.9g", oc.d0, (int)oc.touches, oc.t_contact);
    /* the boolean test: touching, within its rounding level (the shrunk box is clear) */
    CHECK_STATUS(copse_bvh_any_obb(&bvh, &obb, NULL, &id), COPSE_OK);
    CHECK(id == COPSE_NONE || oc.d0 <= 64.0 * (double)FLT_EPSILON * mag);
    in = obb;
    in.half = copse_v3(obb.half.x - (float)(64.0 * (double)FLT_EPSILON * mag), 1.0f, 1.0f);
    CHECK(in.half.x < 0.0f); /* 64 ulps of 1e8 are more than the box: nothing is deep here */
    /* the sweep: a hit, never past the exact contact beyond t's own rounding, and within
     * COPSE_SWEEP_TOLERANCE of the scale of it */
    CHECK_STATUS(copse_sweep_obb_bvh(&obb, NULL, motion, &bvh, &hit), COPSE_OK);
    CHECKF(hit.id == 0u && (double)hit.t <= oc.t_contact + 4.0 * (double)FLT_EPSILON &&
               fabs(oc.t_contact - (double)hit.t) * sqrt(3.0) * 64.0 <= (double)COPSE_SWEEP_TOLERANCE * mag,
           "hit %u at t %.9g, oracle %.9g", (unsigned)hit.id, (double)hit.t, oc.t_contact);
}

/* ---- 16. a mesh touching a mesh at distance 3.8e-6 (fuzz_collide) ---------------------------------
 * copse_bvh_any_bvh found the two triangles touching (the exact test), and copse_distance_bvh_bvh,
 * which runs the same boolean walk first and stops at that pair, measured it with the float
 * closest-point kernel: 3.8e-6 (an ulp at 32; a corner lies at 1.7e9). Touching is distance 0
 * (collide.h); the pair's two points are now one. */

static void test_mesh_distance_touching(void)
{
    COPSE_ARENA_STORAGE(mem_a, COPSE_BVH_BUILD_BYTES(1, 1));
    COPSE_ARENA_STORAGE(mem_b, COPSE_BVH_BUILD_BYTES(1, 1));
    static const float tree_tri[9] = {-64.0f, -46.5f, -63.484375f, 18.0136719f, 32.375f, 32.375f,
                                      32.375f, 32.375f, 39.4023438f};
    static const float mesh_tri[9] = {-1.73482982e9f, -1.73482982e9f, -1.73482982e9f, -1.73482982e9f,
                                      -1.77015806e-38f, 32.375f, 32.0898438f, 32.375f, 32.375f};
    double a[3][3], b[3][3];
    copse_bvh tree, mesh;
    copse_pair w;
    copse_distance d;
    uint32_t i, k;
    if (!one_triangle_tree(&tree, mem_a, sizeof mem_a, tree_tri, 1u) ||
        !one_triangle_tree(&mesh, mem_b, sizeof mem_b, mesh_tri, 1u))
        return;
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++) {
            a[i][k] = (double)tree_tri[3u * i + k];
            b[i][k] = (double)mesh_tri[3u * i + k];
        }
    CHECK(orcc_triangles_meet((const double(*)[3])a, (const double(*)[3])b)); /* the double oracle */
    CHECK_STATUS(copse_bvh_any_bvh(&tree, &mesh, NULL, &w, NULL), COPSE_OK);
    CHECK(w.tree_id == 0u && w.shape_id == 0u);
    CHECK_STATUS(copse_distance_bvh_bvh(&mesh, NULL, &tree, NULL, &d), COPSE_OK);
    CHECKF(d.distance == 0.0f && d.tree_id == 0u && d.shape_id == 0u, "distance %g, ids %u %u", (double)d.distance,
           (unsigned)d.tree_id, (unsigned)d.shape_id);
    CHECK(d.tree_point.x == d.shape_point.x && d.tree_point.y == d.shape_point.y && d.tree_point.z == d.shape_point.z);
}

/* fuzz_collide (2026-12-02): a scan point exactly on a triangle's edge (the line x = y = z holds
 * both corners and the point) was touching for copse_octree_any_triangle, whose test is exact,
 * but copse_distance_triangle_octree measured 1.3e-5 from the float closest point: "0 when
 * they touch" (collide.h) held only for mesh pairs. */
static void test_point_on_edge_distance(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(8, 8, 4));
    copse_vec3 pts[1];
    copse_octree_config cfg;
    copse_octree ot;
    copse_arena arena;
    copse_triangle tri;
    copse_distance d;
    uint32_t id = COPSE_NONE;
    pts[0] = copse_v3(0x1.a9ap+3f, 0x1.a9ap+3f, 0x1.a9ap+3f);
    tri.a = copse_v3(-0x1.dbdcp+5f, -0x1.dbdcp+5f, -0x1.dbdcp+5f);
    tri.b = copse_v3(-0x1.dbdcp+5f, -0x1.dbdcp+5f, 0x1.1048p+4f);
    tri.c = copse_v3(0x1.151p+4f, 0x1.151p+4f, 0x1.151p+4f);
    small_octree_config(&cfg, pts, 1, copse_v3(-64, -64, -64), copse_v3(64, 64, 64), 8, 4, 4);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&ot, &arena, &cfg), COPSE_OK);
    CHECK_STATUS(copse_octree_insert(&ot, 0), COPSE_OK);
    CHECK_STATUS(copse_octree_any_triangle(&ot, &tri, NULL, &id), COPSE_OK);
    CHECK(id == 0u);
    CHECK_STATUS(copse_distance_triangle_octree(&tri, NULL, &ot, NULL, &d), COPSE_OK);
    CHECKF(d.distance == 0.0f && d.tree_id == 0u, "distance %g, id %u", (double)d.distance, (unsigned)d.tree_id);
    CHECK(d.shape_point.x == pts[0].x && d.shape_point.y == pts[0].y && d.shape_point.z == pts[0].z);
}

/* fuzz_octree_view, 2026-12-02: a capsule of radius 4e37 whose segment stays 3e38 from the
 * points held them: the squared distance and the squared radius were both infinite. Sphere and
 * capsule point tests now compare scaled beyond r = 2^64 (geo_within), in the octree's own
 * queries and in collide.h's, and a sphere's node is wholly inside only while the squares are
 * finite. */
static void test_huge_radius_points(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(8, 8, 4));
    copse_vec3 pts[3];
    copse_octree_config cfg;
    copse_octree ot;
    copse_arena arena;
    uint32_t ids[4], id, i;
    copse_id_list list = copse_id_list_make(ids, 4);
    copse_capsule cap;
    copse_sphere far, near;
    pts[0] = copse_v3(0, 0, 0);
    pts[1] = copse_v3(3, 0, 0.5f);
    pts[2] = copse_v3(0, 1, 1.5f);
    cap.segment.a = copse_v3(64.0f, 0x1.c363ccp+127f, 0x1.c363ccp+127f);
    cap.segment.b = copse_v3(-0x1.978p+1f, 64.0f, 0x1.c363ccp+127f);
    cap.radius = 0x1.8a3704p+125f; /* 4.1e37, the segment 3e38 away */
    far.center = copse_v3(0, 0, 3e38f);
    far.radius = 1e20f;
    near.center = copse_v3(0, 0, 1e20f);
    near.radius = 2e20f; /* holds all three */
    small_octree_config(&cfg, pts, 3, copse_v3(-64, -64, -64), copse_v3(64, 64, 64), 8, 4, 4);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_octree_init(&ot, &arena, &cfg), COPSE_OK);
    for (i = 0; i < 3; i++)
        CHECK_STATUS(copse_octree_insert(&ot, i), COPSE_OK);
    CHECK_STATUS(copse_octree_overlap_capsule(&ot, &cap, &list), COPSE_OK);
    CHECK_EQ_INT(list.count, 0);
    CHECK_STATUS(copse_octree_any_capsule(&ot, &cap, NULL, &id), COPSE_OK);
    CHECKF(id == COPSE_NONE, "any_capsule %u", (unsigned)id);
    list = copse_id_list_make(ids, 4);
    CHECK_STATUS(copse_octree_overlap_sphere(&ot, &far, &list), COPSE_OK);
    CHECK_EQ_INT(list.count, 0);
    CHECK_STATUS(copse_octree_any_sphere(&ot, &far, NULL, &id), COPSE_OK);
    CHECKF(id == COPSE_NONE, "any_sphere %u", (unsigned)id);
    list = copse_id_list_make(ids, 4);
    CHECK_STATUS(copse_octree_overlap_sphere(&ot, &near, &list), COPSE_OK);
    CHECK_EQ_INT(list.count, 3);
    CHECK_STATUS(copse_octree_any_sphere(&ot, &near, NULL, &id), COPSE_OK);
    CHECK(id != COPSE_NONE);
}

/* ---- 17. what the hostile-API suite found (tests/hostile/, docs/hostile.md) ----------------------
 * A NULL arena crashed every arena function; a BVH overlap refused for a NULL shape left the
 * caller's list as it was (count and truncated from before); a zero-initialised 3D BSP saved as
 * INDEX where save_bytes and the 2D save call it unbuilt (PARAM). */

static void test_arena_null(void)
{
    COPSE_ARENA_STORAGE(buf, 16);
    copse_arena_init(NULL, buf, sizeof buf);
    CHECK(copse_arena_alloc(NULL, 8) == NULL);
    CHECK(copse_arena_remaining(NULL) == 0u);
    CHECK(copse_arena_reserve_check(NULL, 0) == 0);
    CHECK(copse_arena_mark(NULL) == 0u);
    copse_arena_rewind(NULL, 0);
}

static void test_list_emptied_on_null_shape(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(2, 4));
    const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 0, 0}, {3, 1, 1}}};
    const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bvh t3;
    uint32_t ids[2];
    copse_id_list l;
    unsigned k;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_boxes3(&t3, &arena, boxes, NULL, 2, &p), COPSE_OK);
    for (k = 0; k < 6u; k++) {
        copse_status st;
        l = copse_id_list_make(ids, 2);
        l.count = 2; /* a list from an earlier query */
        l.truncated = true;
        switch (k) {
        case 0: st = copse_bvh_overlap_box(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        case 1: st = copse_bvh_overlap_sphere(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        case 2: st = copse_bvh_overlap_segment(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        case 3: st = copse_bvh_overlap_rect(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        case 4: st = copse_bvh_overlap_circle(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        default: st = copse_bvh_overlap_segment2(&t3, NULL, COPSE_BVH_SELECT_PRIMS, &l); break;
        }
        CHECK_STATUS(st, COPSE_ERR_NULL);
        CHECKF(l.count == 0u && !l.truncated, "query %u left %u ids%s", k, (unsigned)l.count,
               l.truncated ? " (truncated)" : "");
    }
}

static void test_bsp3_save_zeroed(void)
{
    copse_bsp3 z;
    uint32_t buf[64];
    size_t written = 7;
    memset(&z, 0, sizeof z);
    CHECK(copse_bsp3_save_bytes(&z) == 0u);
    CHECK_STATUS(copse_bsp3_save(&z, buf, sizeof buf, &written), COPSE_ERR_PARAM);
    CHECK_EQ_INT(written, 0);
}

/* ---- 18. bounded builds: the 2D BSP and the point octree stop counting once out of room ----------
 * Both count their tree before writing it; both counted it all before saying NOMEM. A 2D BSP over
 * n boxes can have (2n+1)^2 leaves, each costing a scan of the n boxes: now the count stops as
 * soon as the tree it counts outgrows the arena (bsp.h), and the octree's as soon as its pools
 * are short (octree.h). The stop shows as a lower bound where the full count gave the exact. */

static void test_bounded_bsp2_count(void)
{
    copse_bsp2_params p = COPSE_BSP2_PARAMS_DEFAULT;
    COPSE_ARENA_STORAGE(mem, 1024);
    copse_box2 scene, boxes[48];
    copse_arena arena;
    copse_bsp2 t;
    size_t exact;
    uint32_t i;
    scene = copse_box2_make(0, 0, 100, 100);
    for (i = 0; i < 24u; i++) { /* a plaid: 24 bars across 24 bars, (2n+1)^2 cells */
        boxes[i] = copse_box2_make((float)i * 4.0f + 1.0f, 0.0f, (float)i * 4.0f + 2.0f, 100.0f);
        boxes[24u + i] = copse_box2_make(0.0f, (float)i * 4.0f + 1.0f, 100.0f, (float)i * 4.0f + 2.0f);
    }
    p.max_depth = COPSE_BSP_MAX_DEPTH;
    exact = copse_bsp2_build_bytes(&scene, boxes, 48u, &p);
    CHECK(exact != SIZE_MAX && exact > 16u * sizeof mem);
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, boxes, 48u, &p), COPSE_ERR_NOMEM);
    CHECKF(arena.needed > sizeof mem && arena.needed < exact / 8u && arena.used == 0u,
           "needed %lu of exact %lu", (unsigned long)arena.needed, (unsigned long)exact);
}

static void test_bounded_octree_count(void)
{
    enum { N = 200 };
    size_t avail;
    uint8_t *mem = (uint8_t *)test_memory(&avail);
    copse_vec3 *pts = (copse_vec3 *)(void *)mem;
    copse_octree_config cfg;
    copse_arena arena, scratch;
    copse_octree t;
    uint32_t i, nodes = 0, buckets = 0;
    size_t used = sizeof(copse_vec3) * N;
    for (i = 0; i < N; i++)
        pts[i] = copse_v3((float)(i % 10u) * 0.1f, (float)((i / 10u) % 10u) * 0.1f, (float)(i / 100u) * 0.5f);
    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.point_capacity = N;
    cfg.bounds = copse_box3_make(0, 0, 0, 1, 1, 1);
    cfg.max_nodes = 2;
    cfg.max_buckets = 2;
    cfg.leaf_size = 2;
    cfg.bucket_size = 2;
    cfg.max_depth = 8;
    if (!CHECK(avail > used + copse_octree_bytes(&cfg) + 2u * COPSE_OCTREE_BUILD_SCRATCH_BYTES(N, 8)))
        return;
    copse_arena_init(&arena, mem + used, copse_octree_bytes(&cfg));
    CHECK_STATUS(copse_octree_init(&t, &arena, &cfg), COPSE_OK);
    used += COPSE_ARENA_ROUND(copse_octree_bytes(&cfg)) + 8u;
    copse_arena_init(&scratch, mem + used, COPSE_OCTREE_BUILD_SCRATCH_BYTES(N, 8));
    CHECK_STATUS(copse_octree_measure(&t, &scratch, N, &nodes, &buckets), COPSE_OK);
    CHECK(nodes > 20u && buckets > 20u);
    CHECK_STATUS(copse_octree_build(&t, &scratch, N), COPSE_ERR_NOMEM);
    CHECKF((t.nodes_short > 0u || t.buckets_short > 0u) && t.nodes_short < nodes - 2u && t.buckets_short < buckets - 2u,
           "short %u nodes, %u buckets of %u, %u", (unsigned)t.nodes_short, (unsigned)t.buckets_short,
           (unsigned)(nodes - 2u), (unsigned)(buckets - 2u));
    CHECK(t.size == 0u && copse_octree_check(&t) == COPSE_OK);
}

void suite_hostile_findings(void)
{
    test_run("hostile_findings/bvh_prim_id_range", test_bvh_prim_id_range);
    test_run("hostile_findings/bsp_dump_zeroed", test_bsp_dump_zeroed);
    test_run("hostile_findings/octree_count_limit", test_octree_count_limit);
    test_run("hostile_findings/arena_edges", test_arena_edges);
    test_run("hostile_findings/size_saturation", test_size_saturation);
    test_run("hostile_findings/id_none_refused", test_id_none_refused);
    test_run("hostile_findings/bsp_trace_overflow", test_bsp_trace_overflow);
    test_run("hostile_findings/visit_nearest_ties", test_visit_nearest_ties);
    test_run("hostile_findings/documented_statuses", test_documented_statuses);
    test_run("hostile_findings/bvh_nearest_far", test_bvh_nearest_far);
    test_run("hostile_findings/bsp3_bounded_slabs", test_bsp3_bounded_slabs);
    test_run("hostile_findings/arena_null", test_arena_null);
    test_run("hostile_findings/list_emptied_on_null_shape", test_list_emptied_on_null_shape);
    test_run("hostile_findings/bsp3_save_zeroed", test_bsp3_save_zeroed);
    test_run("hostile_findings/bounded_bsp2_count", test_bounded_bsp2_count);
    test_run("hostile_findings/bounded_octree_count", test_bounded_octree_count);
}

/* The findings in the collision kernels and the robot: a part of their own (tests/suites.h) so
 * that the micro:bit links them apart from the trees' findings. */
void suite_hostile_collide(void)
{
    test_run("hostile_collide/convex_margin_far_tree", test_convex_margin_far_tree);
    test_run("hostile_collide/robot_status_early_exit", test_robot_status_early_exit);
    test_run("hostile_collide/robot_composed_tolerance", test_robot_composed_tolerance);
    test_run("hostile_collide/convex_far_corner", test_convex_far_corner);
    test_run("hostile_collide/obb_sweep_far_triangle", test_obb_sweep_far_triangle);
    test_run("hostile_collide/mesh_distance_touching", test_mesh_distance_touching);
    test_run("hostile_collide/point_on_edge_distance", test_point_on_edge_distance);
    test_run("hostile_collide/huge_radius_points", test_huge_radius_points);
}

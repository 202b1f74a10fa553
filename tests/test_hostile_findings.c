/*
 * Regressions for the findings of the hostile review of the public API (issue 15): each test
 * is the attack that found the defect, checked against the documented answer. The oracles are
 * written here from the headers' definitions (uint64 arithmetic for sizes), never by calling
 * the code under test twice.
 */
#include <float.h>
#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test.h"

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
    CHECK_STATUS(copse_octree_in_box(&ot, &all, &list), COPSE_OK);
    CHECK(list.count == 1u && found[0] == 7u);
}

void suite_hostile_findings(void)
{
    test_run("hostile_findings/bvh_prim_id_range", test_bvh_prim_id_range);
    test_run("hostile_findings/bsp_dump_zeroed", test_bsp_dump_zeroed);
    test_run("hostile_findings/octree_count_limit", test_octree_count_limit);
    test_run("hostile_findings/arena_edges", test_arena_edges);
    test_run("hostile_findings/size_saturation", test_size_saturation);
    test_run("hostile_findings/id_none_refused", test_id_none_refused);
}

/* SPDX-License-Identifier: MIT */
/*
 * Every BVH query against the brute-force oracles, on random scenes with fixed seeds:
 * each tree layout (3D meshes with 16-bit, 32-bit and no indices and strided vertices,
 * projected 2D meshes, 3D and 2D boxes with and without ids), all three splits, leaf sizes
 * 1, 2, 4 and 7, and scene sizes 0..8 (0, 1, 2, leaf-1, leaf and leaf+1 of every leaf size)
 * plus one large size from the machine's memory. One oracle answer per query is judged
 * against every tree built over the scene.
 */
#include "suites.h"
#include "test_bvh.h"

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT};
static const uint32_t k_leaves[4] = {1, 2, 4, 7};
#define TREES_PER_SCENE 12u

typedef enum scene_kind {
    MESH3_U16,
    MESH3_U32_STRIDE20,
    MESH3_FLAT_STRIDE16,
    MESH2_XZ_U16,
    MESH2_XY_FLAT,
    MESH2_YZ_U32,
    BOXES3_IDS,
    BOXES3,
    BOXES2_IDS,
    BOXES2
} scene_kind;

static const char *const k_names[] = {"mesh3-u16",           "mesh3-u32-stride20",
                                      "mesh3-flat-stride16", "mesh2-xz-u16",
                                      "mesh2-xy-flat",       "mesh2-yz-u32",
                                      "boxes3-ids",          "boxes3",
                                      "boxes2-ids",          "boxes2"};

static bool make_scene(tk_scene *sc, scene_kind kind, uint32_t n, test_rng *rng)
{
    tk_mesh_spec m;
    tk_box_spec b;
    switch (kind) {
    case MESH3_U16:
    case MESH2_XZ_U16:
        tk_mesh_spec_init(&m, n, TK_U16);
        m.projection = kind == MESH2_XZ_U16 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
        m.dup_pct = 3;
        m.coplanar_pct = 3;
        m.degen_pct = 3;
        return tk_make_mesh(sc, &m, rng);
    case MESH3_U32_STRIDE20:
    case MESH2_YZ_U32:
        tk_mesh_spec_init(&m, n, TK_U32);
        m.stride = 20;
        m.projection = kind == MESH2_YZ_U32 ? COPSE_BVH_PROJECT_YZ : COPSE_BVH_PROJECT_NONE;
        return tk_make_mesh(sc, &m, rng);
    case MESH3_FLAT_STRIDE16:
    case MESH2_XY_FLAT:
        tk_mesh_spec_init(&m, n, TK_FLAT);
        m.stride = kind == MESH2_XY_FLAT ? 12u : 16u;
        m.projection = kind == MESH2_XY_FLAT ? COPSE_BVH_PROJECT_XY : COPSE_BVH_PROJECT_NONE;
        m.dup_pct = 3;
        m.degen_pct = 3;
        return tk_make_mesh(sc, &m, rng);
    case BOXES3_IDS:
    case BOXES3:
    case BOXES2_IDS:
    case BOXES2:
        tk_box_spec_init(&b, n, kind <= BOXES3 ? 3u : 2u, kind == BOXES3_IDS || kind == BOXES2_IDS);
        return tk_make_boxes(sc, &b, rng);
    }
    return false;
}

/* Scene, one leaf-1 tree and the judges' buffers, per primitive (a generous estimate). */
static size_t bytes_per_prim(scene_kind kind)
{
    return 240u + (kind <= MESH2_YZ_U32 ? 48u : 24u);
}

/* Judges' buffers while a battery runs (see tk_run_queries and the judges). */
static size_t judge_bytes(uint32_t n)
{
    return 112u * (size_t)n + 16u * COPSE_BVH_NODE_BUDGET(n, 1) + 512u;
}

/* Builds as many of the scene's trees as fit, runs the battery on them, repeats. */
static void run_scene(const tk_scene *sc, tk_tree *trees, uint64_t seed, const tk_mix *mix)
{
    unsigned combo = 0;
    while (combo < TREES_PER_SCENE) {
        size_t mark = tk_mark();
        unsigned built = 0;
        while (combo < TREES_PER_SCENE) {
            copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
            size_t exact, keep;
            p.split = k_splits[combo % 3u];
            p.leaf_size = k_leaves[combo / 3u];
            exact = copse_bvh_build_bytes(sc->n, sc->dim, &p);
            keep = COPSE_BVH_TREE_BYTES(sc->n, p.leaf_size) + judge_bytes(sc->n);
            if (built > 0 && (exact > tk_free_bytes() || keep > tk_free_bytes()))
                break;
            if (!tk_build(&trees[built], sc, &p)) {
                tk_rewind(mark);
                return;
            }
            built++;
            combo++;
        }
        tk_run_queries(sc, trees, built, seed, mix);
        tk_rewind(mark);
    }
}

static void run_kind(scene_kind kind)
{
    static const tk_mix small_mix = {10, 10, 10, 24, 16, 8};
    static const tk_mix large_mix = {16, 16, 16, 40, 24, 12};
    uint32_t sizes[10], s, nsizes = 0;
    tk_tree *trees;

    tk_pool_reset();
    tk_tally_begin();
    trees = (tk_tree *)tk_alloc(TREES_PER_SCENE * sizeof(tk_tree));
    if (trees == NULL)
        return;
    for (s = 0; s <= 8u; s++)
        sizes[nsizes++] = s;
    sizes[nsizes++] = tk_large_count(bytes_per_prim(kind), 2000);
    for (s = 0; s < nsizes; s++) {
        size_t mark = tk_mark();
        uint64_t seed = 1000u * (uint64_t)kind + sizes[s];
        test_rng rng;
        tk_scene sc;
        test_rng_seed(&rng, seed);
        tk_context("%s n=%u", k_names[kind], (unsigned)sizes[s]);
        if (CHECKF(make_scene(&sc, kind, sizes[s], &rng), "%s: scene does not fit", tk_ctx()))
            run_scene(&sc, trees, seed, sizes[s] <= 8u ? &small_mix : &large_mix);
        tk_rewind(mark);
    }
    tk_tally_end();
}

static void test_mesh3_u16(void)
{
    run_kind(MESH3_U16);
}
static void test_mesh3_u32_stride20(void)
{
    run_kind(MESH3_U32_STRIDE20);
}
static void test_mesh3_flat_stride16(void)
{
    run_kind(MESH3_FLAT_STRIDE16);
}
static void test_mesh2_xz_u16(void)
{
    run_kind(MESH2_XZ_U16);
}
static void test_mesh2_xy_flat(void)
{
    run_kind(MESH2_XY_FLAT);
}
static void test_mesh2_yz_u32(void)
{
    run_kind(MESH2_YZ_U32);
}
static void test_boxes3_ids(void)
{
    run_kind(BOXES3_IDS);
}
static void test_boxes3(void)
{
    run_kind(BOXES3);
}
static void test_boxes2_ids(void)
{
    run_kind(BOXES2_IDS);
}
static void test_boxes2(void)
{
    run_kind(BOXES2);
}

void suite_bvh_query(void)
{
    test_run("bvh_query/mesh3_u16", test_mesh3_u16);
    test_run("bvh_query/mesh3_u32_stride20", test_mesh3_u32_stride20);
    test_run("bvh_query/mesh3_flat_stride16", test_mesh3_flat_stride16);
    test_run("bvh_query/mesh2_xz_u16", test_mesh2_xz_u16);
    test_run("bvh_query/mesh2_xy_flat", test_mesh2_xy_flat);
    test_run("bvh_query/mesh2_yz_u32", test_mesh2_yz_u32);
    test_run("bvh_query/boxes3_ids", test_boxes3_ids);
    test_run("bvh_query/boxes3", test_boxes3);
    test_run("bvh_query/boxes2_ids", test_boxes2_ids);
    test_run("bvh_query/boxes2", test_boxes2);
    tk_tally_report("bvh_query");
}

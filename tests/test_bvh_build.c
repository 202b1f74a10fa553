/* SPDX-License-Identifier: MIT */
/*
 * The BVH builder: structure of every tree it makes, its memory accounting (exact sizes,
 * compile-time bounds, no byte written past the caller's buffer at any size), and
 * determinism (same input, same bytes, whatever the index layout).
 */
#include <string.h>

#include "suites.h"
#include "test_bvh.h"

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT};

static copse_bvh_params params_of(copse_bvh_split split, uint32_t leaf)
{
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    p.split = split;
    p.leaf_size = leaf;
    return p;
}

/* One scene per tree layout the builder has: 3D mesh, projected mesh, 3D and 2D boxes. */
static bool layout_scene(tk_scene *sc, unsigned layout, uint32_t n, test_rng *rng)
{
    tk_mesh_spec m;
    tk_box_spec b;
    if (layout < 2) {
        tk_mesh_spec_init(&m, n, TK_U16);
        m.projection = layout == 0 ? COPSE_BVH_PROJECT_NONE : COPSE_BVH_PROJECT_XZ;
        m.dup_pct = 5;
        m.degen_pct = 5;
        return tk_make_mesh(sc, &m, rng);
    }
    tk_box_spec_init(&b, n, layout == 2 ? 3u : 2u, layout == 2);
    return tk_make_boxes(sc, &b, rng);
}

static const char *const k_layout_names[4] = {"mesh3", "mesh2-xz", "boxes3", "boxes2"};

/* Every n from 0 to 40 and a large one, every split, leaf sizes from 1 to the maximum:
 * tk_build checks the arena accounting, tk_verify_tree the structure. */
static void test_structure(void)
{
    static const uint32_t leaves[] = {1, 2, 3, 4, 7, 16, COPSE_BVH_MAX_LEAF};
    unsigned layout, s, l;
    uint32_t n;
    tk_pool_reset();
    for (layout = 0; layout < 4; layout++) {
        uint32_t large = tk_large_count(160, 3000);
        for (n = 0; n <= 41u; n++) {
            uint32_t count = n <= 40u ? n : large;
            size_t mark = tk_mark();
            test_rng rng;
            tk_scene sc;
            test_rng_seed(&rng, 77u + n);
            tk_context("%s n=%u", k_layout_names[layout], (unsigned)count);
            if (!CHECKF(layout_scene(&sc, layout, count, &rng), "%s: scene does not fit", tk_ctx()))
                return;
            for (s = 0; s < 3; s++) {
                for (l = 0; l < sizeof leaves / sizeof leaves[0]; l++) {
                    copse_bvh_params p = params_of(k_splits[s], leaves[l]);
                    size_t tree_mark = tk_mark();
                    tk_tree tree;
                    if (tk_build(&tree, &sc, &p)) {
                        /* a leaf of one primitive each: a full binary tree */
                        if (leaves[l] == 1u && count > 0)
                            CHECK_EQ_INT(tree.bvh.node_count, 2u * count - 1u);
                        if (count <= leaves[l])
                            CHECK_EQ_INT(tree.bvh.node_count, count > 0 ? 1u : 0u);
                    }
                    tk_rewind(tree_mark);
                }
            }
            tk_rewind(mark);
        }
    }
}

/* copse_bvh_build_bytes against the compile-time bounds, and its refusals. */
static void test_sizes(void)
{
    static const uint32_t counts[] = {0, 1, 2, 3, 5, 8, 100, 1000, 65535, 100000, 1000000};
    static const uint32_t leaves[] = {1, 2, 3, 4, 8, 255, COPSE_BVH_MAX_LEAF};
    unsigned c, l, s, dim;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        for (l = 0; l < sizeof leaves / sizeof leaves[0]; l++) {
            for (s = 0; s < 3; s++) {
                for (dim = 2; dim <= 3; dim++) {
                    size_t exact;
                    p = params_of(k_splits[s], leaves[l]);
                    exact = copse_bvh_build_bytes(counts[c], dim, &p);
                    CHECKF(exact <= COPSE_BVH_BUILD_BYTES(counts[c], leaves[l]) && exact % COPSE_ARENA_ALIGN == 0,
                           "build bytes(n=%u, leaf=%u, %s, dim %u) = %lu, macro %lu", (unsigned)counts[c],
                           (unsigned)leaves[l], tk_split_name(k_splits[s]), dim, (unsigned long)exact,
                           (unsigned long)COPSE_BVH_BUILD_BYTES(counts[c], leaves[l]));
                }
            }
            /* the node budget never exceeds the Recast demo's nchunks * 4 */
            CHECK(COPSE_BVH_NODE_BUDGET(counts[c], leaves[l]) <=
                  4u * (((size_t)counts[c] + leaves[l] - 1u) / leaves[l]));
        }
    }
    p = params_of(COPSE_BVH_SPLIT_SAH, 4);
    CHECK(copse_bvh_build_bytes(COPSE_BVH_MAX_PRIMS + 1u, 3, &p) == (size_t)-1);
    CHECK(copse_bvh_build_bytes(10, 1, &p) == (size_t)-1);
    CHECK(copse_bvh_build_bytes(10, 4, &p) == (size_t)-1);
    CHECK(copse_bvh_build_bytes(10, 3, NULL) == (size_t)-1);
    p.leaf_size = 0;
    CHECK(copse_bvh_build_bytes(10, 3, &p) == (size_t)-1);
    p.leaf_size = COPSE_BVH_MAX_LEAF + 1u;
    CHECK(copse_bvh_build_bytes(10, 3, &p) == (size_t)-1);
    p = params_of((copse_bvh_split)3, 4);
    CHECK(copse_bvh_build_bytes(10, 3, &p) == (size_t)-1);
    /* the largest count is refused on 32-bit machines (too many bytes) and sized on 64-bit */
    p = params_of(COPSE_BVH_SPLIT_SAH, 4);
    CHECK(copse_bvh_build_bytes(COPSE_BVH_MAX_PRIMS, 3, &p) == (size_t)-1 ||
          copse_bvh_build_bytes(COPSE_BVH_MAX_PRIMS, 3, &p) > (size_t)COPSE_BVH_MAX_PRIMS * 28u);
    CHECK_EQ_INT(copse_bvh_bytes(NULL), 0);
}

/* A build into an arena that already holds something, or has room to spare. */
static void test_arena_sharing(void)
{
    copse_bvh_params p = params_of(COPSE_BVH_SPLIT_SAH, 3);
    size_t exact, bytes;
    uint8_t *buf;
    copse_arena arena;
    copse_bvh bvh;
    test_rng rng;
    tk_scene sc;
    tk_pool_reset();
    test_rng_seed(&rng, 5);
    tk_context("arena sharing");
    if (!layout_scene(&sc, 0, 50, &rng))
        return;
    exact = copse_bvh_build_bytes(sc.n, 3, &p);
    buf = (uint8_t *)tk_alloc(exact + 64u);
    if (buf == NULL)
        return;
    copse_arena_init(&arena, buf, exact + 64u);
    CHECK(copse_arena_alloc(&arena, 20) != NULL); /* someone else's 24 bytes */
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &sc.mesh, &p), COPSE_OK);
    bytes = copse_bvh_bytes(&bvh);
    CHECK_EQ_INT(arena.used, 24u + bytes);
    CHECK_EQ_INT(arena.high_water, 24u + exact);
    CHECK((const uint8_t *)bvh.prims == buf + 24);
    CHECK_STATUS(copse_bvh_check(&bvh), COPSE_OK);
    /* a second tree after the first: 40 bytes short of its exact need */
    copse_arena_init(&arena, buf, 24u + bytes + exact - 40u);
    arena.used = 24u + bytes;
    {
        copse_bvh second;
        CHECK_STATUS(copse_bvh_build_mesh(&second, &arena, &sc.mesh, &p), COPSE_ERR_NOMEM);
        CHECK_EQ_INT(arena.needed, 24u + bytes + exact);
        CHECK_EQ_INT(arena.used, 24u + bytes);
        CHECK_EQ_INT(second.node_count, 0);
    }
}

/* Building the same input twice, in other buffers, gives the same bytes; so do the same
 * triangles behind other index layouts and strides, and boxes equal to the triangles' bounds. */
static void test_determinism(void)
{
    tk_pool_reset();
    {
        const uint32_t n = tk_large_count(720, 600); /* seven copies of the scene, seven trees */
        test_rng rng;
        tk_scene u16, u32, flat, boxes, boxes2, xz;
        tk_mesh_spec m;
        uint32_t i, k;
        unsigned s, a;
        float *pos32, *pos_flat, *bx, *bx2;
        uint32_t *ix32;
        tk_tree *t = (tk_tree *)tk_alloc(7u * sizeof(tk_tree)); /* off the small boards' stack */

        tk_context("determinism");
        test_rng_seed(&rng, 99);
        tk_mesh_spec_init(&m, n, TK_U16);
        m.dup_pct = 5;
        m.degen_pct = 5;
        m.coplanar_pct = 5;
        if (t == NULL || !tk_make_mesh(&u16, &m, &rng))
            return;
        /* the same triangles: 32-bit indices over vertices with a 20-byte stride, and no indices */
        pos32 = (float *)tk_alloc((size_t)u16.mesh.vertex_count * 20u);
        ix32 = (uint32_t *)tk_alloc((size_t)n * 12u);
        pos_flat = (float *)tk_alloc((size_t)n * 36u);
        bx = (float *)tk_alloc((size_t)n * 24u);
        bx2 = (float *)tk_alloc((size_t)n * 16u);
        if (pos32 == NULL || ix32 == NULL || pos_flat == NULL || bx == NULL || bx2 == NULL)
            return;
        for (i = 0; i < u16.mesh.vertex_count; i++)
            for (a = 0; a < 5; a++)
                pos32[i * 5u + a] = a < 3 ? u16.mesh.positions[i * 3u + a] : -1.0f;
        for (i = 0; i < n; i++) {
            float mn[3], mx[3];
            for (k = 0; k < 3; k++) {
                uint32_t v = tk_corner(&u16, i, k);
                ix32[i * 3u + k] = v;
                for (a = 0; a < 3; a++)
                    pos_flat[(i * 3u + k) * 3u + a] = u16.mesh.positions[v * 3u + a];
            }
            tk_prim_bounds(&u16, i, mn, mx);
            for (a = 0; a < 3; a++) {
                bx[i * 6u + a] = mn[a];
                bx[i * 6u + 3u + a] = mx[a];
            }
        }
        u32 = u16;
        u32.mesh.positions = pos32;
        u32.mesh.vertex_stride = 20;
        u32.mesh.indices = ix32;
        u32.mesh.index_type = COPSE_MESH_INDEX_U32;
        flat = u16;
        flat.mesh.positions = pos_flat;
        flat.mesh.vertex_count = 3u * n;
        flat.mesh.vertex_stride = 12;
        flat.mesh.indices = NULL;
        flat.mesh.index_type = COPSE_MESH_INDEX_NONE;
        memset(&boxes, 0, sizeof boxes);
        boxes.kind = COPSE_BVH_PRIM_BOXES;
        boxes.dim = 3;
        boxes.boxes = bx;
        boxes.n = n;
        xz = u16;
        xz.projection = COPSE_BVH_PROJECT_XZ;
        xz.dim = 2;
        xz.axis[0] = 0;
        xz.axis[1] = 2;
        xz.axis[2] = 1;
        for (i = 0; i < n; i++) { /* the projected triangles' bounds */
            float mn[2], mx[2];
            tk_prim_bounds(&xz, i, mn, mx);
            bx2[i * 4u] = mn[0];
            bx2[i * 4u + 1u] = mn[1];
            bx2[i * 4u + 2u] = mx[0];
            bx2[i * 4u + 3u] = mx[1];
        }
        boxes2 = boxes;
        boxes2.dim = 2;
        boxes2.boxes = bx2;

        for (s = 0; s < 3; s++) {
            copse_bvh_params p = params_of(k_splits[s], 1u + 2u * s);
            size_t mark = tk_mark();
            copse_arena arena;
            copse_bvh again;
            size_t exact = copse_bvh_build_bytes(n, 3, &p);
            void *buf;
            unsigned j;
            if (!tk_build(&t[0], &u16, &p) || !tk_build(&t[1], &u32, &p) || !tk_build(&t[2], &flat, &p) ||
                !tk_build(&t[3], &boxes, &p) || !tk_build(&t[5], &xz, &p) || !tk_build(&t[6], &boxes2, &p))
                return;
            buf = tk_alloc(exact);
            if (buf == NULL)
                return;
            copse_arena_init(&arena, buf, exact);
            CHECK_STATUS(copse_bvh_build_mesh(&again, &arena, &u16.mesh, &p), COPSE_OK);
            t[4].bvh = again;
            for (j = 1; j < 5; j++) {
                CHECKF(t[j].bvh.node_count == t[0].bvh.node_count && t[j].bvh.depth == t[0].bvh.depth &&
                           memcmp(t[j].bvh.nodes, t[0].bvh.nodes, t[0].bvh.node_count * sizeof(copse_bvh_node3)) == 0 &&
                           memcmp(t[j].bvh.prims, t[0].bvh.prims, n * sizeof(uint32_t)) == 0,
                       "%s: tree %u differs from the u16 mesh's (%s)", tk_ctx(), j, tk_split_name(p.split));
            }
            CHECKF(t[6].bvh.node_count == t[5].bvh.node_count &&
                       memcmp(t[6].bvh.nodes, t[5].bvh.nodes, t[5].bvh.node_count * sizeof(copse_bvh_node2)) == 0 &&
                       memcmp(t[6].bvh.prims, t[5].bvh.prims, n * sizeof(uint32_t)) == 0,
                   "%s: the XZ mesh tree and the tree of its 2D bounds differ (%s)", tk_ctx(), tk_split_name(p.split));
            tk_rewind(mark);
        }
    }
}

/* A fixed scene's tree hashes, printed for comparison across machines (the same bytes on
 * every target), and checked stable within the run. */
static void test_checksums(void)
{
    unsigned s, layout;
    tk_pool_reset();
    for (layout = 0; layout < 4; layout++) {
        for (s = 0; s < 3; s++) {
            copse_bvh_params p = params_of(k_splits[s], 4);
            size_t mark = tk_mark();
            uint32_t h1 = 0, h2 = 0;
            test_rng rng;
            tk_scene sc;
            tk_tree t1, t2;
            test_rng_seed(&rng, 2024);
            tk_context("checksum %s", k_layout_names[layout]);
            if (!layout_scene(&sc, layout, 48, &rng) || !tk_build(&t1, &sc, &p) || !tk_build(&t2, &sc, &p))
                return;
            h1 = tk_tree_hash(&t1.bvh);
            h2 = tk_tree_hash(&t2.bvh);
            CHECK(h1 == h2);
            copse_port_printf("info bvh checksum %s %s: %08x\n", k_layout_names[layout], tk_split_name(p.split),
                              (unsigned)h1);
            tk_rewind(mark);
        }
    }
}

/* A guard after (and before) the caller's buffer proves that no build writes outside it,
 * for every byte count from 0 to the exact size: short counts fail with NOMEM and the exact
 * need, leave the arena as it was and the tree empty; the exact count succeeds. */
static void guard_scene(const tk_scene *sc, const copse_bvh_params *params)
{
    enum { GUARD = 64 };
    const size_t exact = copse_bvh_build_bytes(sc->n, sc->dim, params);
    size_t mark = tk_mark(), k, bad_status = 0, bad_guard = 0, bad_state = 0;
    uint8_t *region = (uint8_t *)tk_alloc(exact + 2u * GUARD);
    copse_bvh_params p = *params;
    if (region == NULL)
        return;
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES)
        p.projection = sc->projection;
    for (k = 0; k <= exact; k++) {
        uint8_t *buf = region + GUARD;
        copse_arena arena;
        copse_bvh bvh;
        copse_status st;
        size_t i;
        memset(region, 0xA5, exact + 2u * GUARD);
        memset(&bvh, 0x5A, sizeof bvh); /* a stale tree: a failure must empty it */
        copse_arena_init(&arena, buf, k);
        if (sc->kind == COPSE_BVH_PRIM_TRIANGLES)
            st = copse_bvh_build_mesh(&bvh, &arena, &sc->mesh, &p);
        else if (sc->dim == 3)
            st = copse_bvh_build_boxes3(&bvh, &arena, (const copse_box3 *)(const void *)sc->boxes, sc->ids, sc->n, &p);
        else
            st = copse_bvh_build_boxes2(&bvh, &arena, (const copse_box2 *)(const void *)sc->boxes, sc->ids, sc->n, &p);
        for (i = 0; i < GUARD; i++)
            if (region[i] != 0xA5 || buf[k + i] != 0xA5)
                break;
        bad_guard += i < GUARD;
        if (k < exact) {
            bad_status += st != COPSE_ERR_NOMEM;
            bad_state += arena.needed != exact || arena.used != 0 || arena.high_water != 0 || bvh.node_count != 0 ||
                         bvh.prim_count != 0 || bvh.dim != 0 || bvh.nodes != NULL;
        } else {
            bad_status += st != COPSE_OK;
            bad_state +=
                arena.used != copse_bvh_bytes(&bvh) || arena.high_water != exact || copse_bvh_check(&bvh) != COPSE_OK;
        }
    }
    CHECKF(bad_status == 0 && bad_guard == 0 && bad_state == 0,
           "%s [%s/%u]: over %lu sizes: %lu wrong statuses, %lu guards hit, %lu wrong arenas or trees", tk_ctx(),
           tk_split_name(params->split), (unsigned)params->leaf_size, (unsigned long)exact + 1u,
           (unsigned long)bad_status, (unsigned long)bad_guard, (unsigned long)bad_state);
    tk_rewind(mark);
}

static void test_guard(void)
{
    static const uint32_t counts[] = {0, 1, 2, 5, 9};
    unsigned layout, c;
    tk_pool_reset();
    for (layout = 0; layout < 4; layout++) {
        for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            size_t mark = tk_mark();
            copse_bvh_params p = params_of(k_splits[c % 3u], 1u + c % 3u);
            test_rng rng;
            tk_scene sc;
            test_rng_seed(&rng, 300u + c);
            tk_context("guard %s n=%u", k_layout_names[layout], (unsigned)counts[c]);
            if (layout_scene(&sc, layout, counts[c], &rng))
                guard_scene(&sc, &p);
            tk_rewind(mark);
        }
    }
}

/* Subtrees that would grow deeper than COPSE_BVH_MAX_DEPTH: boxes at exponentially growing
 * positions make the midpoint and SAH splits peel off one box per level. */
static void test_depth_cap(void)
{
    const uint32_t n = tk_large_count(200, 1500);
    float *boxes;
    uint32_t i;
    unsigned s;
    tk_scene sc;
    tk_pool_reset();
    tk_context("depth cap n=%u", (unsigned)n);
    boxes = (float *)tk_alloc((size_t)n * 24u);
    if (boxes == NULL)
        return;
    for (i = 0; i < n; i++) {
        float x = 1.0f;
        uint32_t k;
        for (k = 0; k < i % 200u; k++) /* 1.5^199 is about 1e35: still finite */
            x *= 1.5f;
        boxes[i * 6u] = boxes[i * 6u + 3u] = x;
        boxes[i * 6u + 1u] = boxes[i * 6u + 2u] = 0.0f;
        boxes[i * 6u + 4u] = boxes[i * 6u + 5u] = 1.0f;
    }
    memset(&sc, 0, sizeof sc);
    sc.kind = COPSE_BVH_PRIM_BOXES;
    sc.dim = 3;
    sc.boxes = boxes;
    sc.n = n;
    for (s = 0; s < 3; s++) {
        copse_bvh_params p = params_of(k_splits[s], 1);
        size_t mark = tk_mark();
        tk_tree t;
        /* midpoint peels one box per level until the cap's median takes over */
        if (tk_build(&t, &sc, &p))
            CHECKF(t.bvh.depth <= COPSE_BVH_MAX_DEPTH &&
                       (p.split != COPSE_BVH_SPLIT_MIDPOINT || n < 128u ||
                        t.bvh.depth >= (COPSE_BVH_MAX_DEPTH < 32u ? COPSE_BVH_MAX_DEPTH : 32u)),
                   "%s [%s]: depth %u", tk_ctx(), tk_split_name(p.split), (unsigned)t.bvh.depth);
        tk_rewind(mark);
    }
}

void suite_bvh_build(void)
{
    test_run("bvh_build/structure", test_structure);
    test_run("bvh_build/sizes", test_sizes);
    test_run("bvh_build/arena_sharing", test_arena_sharing);
    test_run("bvh_build/determinism", test_determinism);
    test_run("bvh_build/checksums", test_checksums);
    test_run("bvh_build/guard", test_guard);
    test_run("bvh_build/depth_cap", test_depth_cap);
}

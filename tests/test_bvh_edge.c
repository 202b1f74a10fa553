/* SPDX-License-Identifier: MIT */
/*
 * The BVH on awkward input: duplicate and coincident primitives, zero-area triangles, every
 * primitive at one point, coordinates far from the origin (as undulating.obj) and huge ones,
 * shared edges a ray must not slip through, and closed sets (touching counts).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "suites.h"
#include "test_bvh.h"

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT};

/* Builds trees for every split and the given leaf sizes, judges them with the mix. */
static void run_trees(const tk_scene *sc, const uint32_t *leaves, unsigned nleaves, uint64_t seed, const tk_mix *mix)
{
    size_t mark = tk_mark();
    tk_tree *trees = (tk_tree *)tk_alloc(3u * nleaves * sizeof(tk_tree));
    unsigned i, built = 0;
    if (trees == NULL)
        return;
    for (i = 0; i < 3u * nleaves; i++) {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        p.split = k_splits[i % 3u];
        p.leaf_size = leaves[i / 3u];
        if (!tk_build(&trees[built], sc, &p))
            break;
        built++;
    }
    tk_run_queries(sc, trees, built, seed, mix);
    tk_rewind(mark);
}

static const uint32_t k_leaves_1_4[2] = {1, 4};
static const tk_mix k_mix = {12, 12, 12, 32, 20, 10};

/* Room for the scene, six trees and the judges. */
static uint32_t edge_count(void)
{
    return tk_large_count(480, 600);
}

static void run_mesh(const char *name, const tk_mesh_spec *spec, uint64_t seed)
{
    size_t mark = tk_mark();
    test_rng rng;
    tk_scene sc;
    test_rng_seed(&rng, seed);
    tk_context("%s n=%u", name, (unsigned)spec->triangles);
    if (CHECKF(tk_make_mesh(&sc, spec, &rng), "%s: scene does not fit", tk_ctx()))
        run_trees(&sc, k_leaves_1_4, 2, seed, &k_mix);
    tk_rewind(mark);
}

static void run_boxes(const char *name, const tk_box_spec *spec, uint64_t seed)
{
    size_t mark = tk_mark();
    test_rng rng;
    tk_scene sc;
    test_rng_seed(&rng, seed);
    tk_context("%s n=%u", name, (unsigned)spec->count);
    if (CHECKF(tk_make_boxes(&sc, spec, &rng), "%s: scene does not fit", tk_ctx()))
        run_trees(&sc, k_leaves_1_4, 2, seed, &k_mix);
    tk_rewind(mark);
}

/* Exact copies (ties go to the lower id) and coincident copies (corners rotated). */
static void test_duplicates(void)
{
    tk_mesh_spec m;
    tk_box_spec b;
    tk_pool_reset();
    tk_tally_begin();
    tk_mesh_spec_init(&m, edge_count(), TK_U16);
    m.dup_pct = 25;
    m.coplanar_pct = 15;
    run_mesh("dup mesh3-u16", &m, 11);
    m.layout = TK_FLAT;
    run_mesh("dup mesh3-flat", &m, 12);
    m.layout = TK_U16;
    m.projection = COPSE_BVH_PROJECT_XZ;
    run_mesh("dup mesh2-xz", &m, 13);
    tk_box_spec_init(&b, edge_count(), 3, true);
    b.dup_pct = 30;
    run_boxes("dup boxes3-ids", &b, 14);
    tk_box_spec_init(&b, edge_count(), 2, true);
    b.dup_pct = 30;
    run_boxes("dup boxes2-ids", &b, 15);
    tk_tally_end();
}

/* Zero-area triangles: segments, points, exactly collinear corners. Never hit by a 3D ray,
 * but they can be nearest, and overlap tests see their edges. */
static void test_degenerate(void)
{
    tk_mesh_spec m;
    tk_pool_reset();
    tk_tally_begin();
    tk_mesh_spec_init(&m, edge_count(), TK_FLAT);
    m.degen_pct = 40;
    run_mesh("degenerate mesh3-flat", &m, 21);
    m.layout = TK_U32;
    run_mesh("degenerate mesh3-u32", &m, 22);
    m.projection = COPSE_BVH_PROJECT_XZ;
    run_mesh("degenerate mesh2-xz", &m, 23);
    tk_tally_end();
}

/* Every primitive at one point, or every triangle the same: nothing to split by. */
static void test_one_point(void)
{
    static const uint32_t leaves[3] = {1, 4, 7};
    const uint32_t n = edge_count();
    unsigned scene;
    tk_pool_reset();
    tk_tally_begin();
    for (scene = 0; scene < 5; scene++) {
        size_t mark = tk_mark();
        test_rng rng;
        tk_scene sc;
        tk_mesh_spec m;
        tk_box_spec b;
        bool made;
        test_rng_seed(&rng, 30u + scene);
        tk_mesh_spec_init(&m, n, TK_U16);
        tk_box_spec_init(&b, n, scene == 3 ? 3u : 2u, true);
        b.one_point = true;
        if (scene == 0) { /* every vertex at one point: all degenerate */
            m.one_point = true;
            made = tk_make_mesh(&sc, &m, &rng);
        } else if (scene <= 2) { /* every triangle equal to the first */
            m.dup_pct = 100;
            m.projection = scene == 2 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
            made = tk_make_mesh(&sc, &m, &rng);
        } else {
            made = tk_make_boxes(&sc, &b, &rng);
        }
        tk_context("one point, scene %u, n=%u", scene, (unsigned)n);
        if (CHECKF(made, "%s: scene does not fit", tk_ctx()))
            run_trees(&sc, leaves, 3, 40u + scene, &k_mix);
        /* the tie rules, spelled out: the lowest id wins, and lists come in id order */
        if (made && sc.n > 0) {
            copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
            size_t tmark = tk_mark();
            copse_nearest3 near;
            tk_tree t;
            float at[3];
            p.split = COPSE_BVH_SPLIT_MIDPOINT;
            p.leaf_size = 1;
            at[0] = (float)sc.lo[0] - 3.0f;
            at[1] = (float)sc.lo[1] - 1.0f;
            at[2] = sc.dim == 3 ? (float)sc.lo[2] + 2.0f : 0.0f;
            if (tk_build(&t, &sc, &p)) {
                CHECK_STATUS(tk_nearest(&t.bvh, sc.dim, at, FLT_MAX, &near), COPSE_OK);
                CHECKF(near.id == (sc.kind == COPSE_BVH_PRIM_BOXES ? tk_box_id(0) : 0u) || sc.ids != NULL,
                       "%s: nearest id %u", tk_ctx(), (unsigned)near.id);
                if (sc.ids != NULL) {
                    uint32_t i, lowest = tk_box_id(0);
                    for (i = 1; i < sc.n; i++)
                        lowest = tk_box_id(i) < lowest ? tk_box_id(i) : lowest;
                    CHECKF(near.id == lowest, "%s: nearest id %u, lowest %u", tk_ctx(), (unsigned)near.id,
                           (unsigned)lowest);
                }
                if (scene == 1) { /* a ray through n equal triangles: all at one t, in id order */
                    copse_hit *hits = (copse_hit *)tk_alloc((size_t)n * sizeof(copse_hit));
                    tk_prim g;
                    tk_ray r;
                    uint32_t i, c = n / 3u;
                    copse_hit_list list;
                    tk_get_prim(&sc, 0, &g);
                    memset(&r, 0, sizeof r);
                    for (i = 0; i < 3; i++) {
                        r.o[i] = (float)((g.v[0][i] + g.v[1][i] + g.v[2][i]) / 3.0) + (i == 1 ? 50.0f : 0.0f);
                        r.d[i] = i == 1 ? -1.0f : 0.0f;
                    }
                    r.t_max = INFINITY;
                    if (hits != NULL) {
                        list = copse_hit_list_make(hits, n);
                        CHECK_STATUS(tk_raycast_all(&t.bvh, 3, &r, &list), COPSE_OK);
                        for (i = 0; i < list.count && hits[i].id == i && hits[i].t == hits[0].t; i++)
                            ;
                        CHECKF(list.count == n && i == n, "%s: %u of %u hits in id order", tk_ctx(), (unsigned)i,
                               (unsigned)list.count);
                        list = copse_hit_list_make(hits, c);
                        CHECK_STATUS(tk_raycast_all(&t.bvh, 3, &r, &list), COPSE_OK);
                        for (i = 0; i < list.count && hits[i].id == i; i++)
                            ;
                        CHECKF(list.count == c && list.truncated && i == c, "%s: truncated to %u: %u in id order",
                               tk_ctx(), (unsigned)c, (unsigned)i);
                    }
                }
            }
            tk_rewind(tmark);
        }
        tk_rewind(mark);
    }
    tk_tally_end();
}

/* Coordinates near 5000 as in undulating.obj: a tenth of a unit is a few hundred ulps. */
static void test_far_from_origin(void)
{
    tk_mesh_spec m;
    tk_box_spec b;
    tk_pool_reset();
    tk_tally_begin();
    tk_mesh_spec_init(&m, edge_count(), TK_U16);
    m.origin = 4950.0f;
    m.extent = 100.0f;
    run_mesh("far mesh3-u16", &m, 51);
    m.layout = TK_FLAT;
    m.size = 2.0f; /* small triangles: the precision trap */
    run_mesh("far mesh3-flat small", &m, 52);
    m.layout = TK_U32;
    m.size = 0.0f;
    m.projection = COPSE_BVH_PROJECT_XZ;
    run_mesh("far mesh2-xz", &m, 53);
    tk_box_spec_init(&b, edge_count(), 3, true);
    b.origin = 4950.0f;
    run_boxes("far boxes3", &b, 54);
    tk_tally_end();
}

/* Queries on a tree whose coordinates overflow float products: no crash, well-formed answers
 * (valid, unrepeated ids; t in range and sorted; a nearest primitive when there is no limit). */
static void sanity_queries(const tk_scene *sc, const tk_tree *tree, uint64_t seed)
{
    size_t mark = tk_mark();
    uint32_t *ids = (uint32_t *)tk_alloc(((size_t)sc->n + 1u) * 4u), q, i;
    uint32_t bad_overlap = 0, bad_ray = 0, bad_near = 0;
    copse_hit *hits = (copse_hit *)tk_alloc(((size_t)sc->n + 1u) * sizeof(copse_hit));
    test_rng rng;
    if (ids == NULL || hits == NULL)
        return;
    test_rng_seed(&rng, seed);
    for (q = 0; q < 24u; q++) {
        tk_query query;
        tk_ray r;
        float p[3];
        copse_id_list list = copse_id_list_make(ids, sc->n + 1u);
        copse_hit_list hl = copse_hit_list_make(hits, sc->n + 1u);
        copse_hit h;
        copse_nearest3 near;
        tk_random_query(sc, (tk_shape)(q % 3u), &rng, &query);
        bad_overlap += tk_overlap(&tree->bvh, sc->dim, &query, COPSE_BVH_SELECT_PRIMS, &list) != COPSE_OK || list.truncated;
        for (i = 0; i < list.count; i++)
            bad_overlap += tk_prim_of_id(sc, ids[i]) == COPSE_NONE;
        tk_random_ray(sc, &rng, &r);
        bad_ray += tk_raycast(&tree->bvh, sc->dim, &r, &h) != COPSE_OK;
        bad_ray += h.id != COPSE_NONE && (tk_prim_of_id(sc, h.id) == COPSE_NONE || !(h.t >= 0.0f && h.t <= r.t_max));
        bad_ray += tk_raycast_all(&tree->bvh, sc->dim, &r, &hl) != COPSE_OK || hl.truncated;
        for (i = 0; i < hl.count; i++)
            bad_ray += tk_prim_of_id(sc, hits[i].id) == COPSE_NONE || !(hits[i].t >= 0.0f && hits[i].t <= r.t_max) ||
                       (i > 0 && hits[i].t < hits[i - 1u].t);
        tk_random_point(sc, &rng, p);
        bad_near +=
            tk_nearest(&tree->bvh, sc->dim, p, INFINITY, &near) != COPSE_OK || tk_prim_of_id(sc, near.id) == COPSE_NONE;
    }
    CHECKF(bad_overlap == 0 && bad_ray == 0 && bad_near == 0,
           "%s [%s/%u]: malformed answers: %u overlap, %u ray, %u nearest", tk_ctx(),
           tk_split_name(tree->params.split), (unsigned)tree->params.leaf_size, (unsigned)bad_overlap,
           (unsigned)bad_ray, (unsigned)bad_near);
    tk_rewind(mark);
}

/* Coordinates of 1e6 (judged in full), and of 1e10 to 1e30: builds stay sound (check, bounds,
 * budget, depth), box trees (pure comparisons) stay exact, everything else well-formed. */
static void test_huge_coordinates(void)
{
    static const float scales[4] = {1e6f, 1e10f, 1e20f, 1e30f};
    const uint32_t n = tk_large_count(480, 300);
    unsigned s, kind, t;
    tk_pool_reset();
    tk_tally_begin();
    for (s = 0; s < 4; s++) {
        for (kind = 0; kind < 4; kind++) {
            size_t mark = tk_mark();
            test_rng rng;
            tk_scene sc;
            tk_mesh_spec m;
            tk_box_spec b;
            bool made;
            test_rng_seed(&rng, 60u + s * 4u + kind);
            tk_mesh_spec_init(&m, n, TK_U16);
            m.origin = -0.5f * scales[s];
            m.extent = scales[s];
            m.projection = kind == 1 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
            tk_box_spec_init(&b, n, kind == 2 ? 3u : 2u, true);
            b.origin = -0.5f * scales[s];
            b.extent = scales[s];
            made = kind < 2 ? tk_make_mesh(&sc, &m, &rng) : tk_make_boxes(&sc, &b, &rng);
            tk_context("scale %g kind %u", (double)scales[s], kind);
            if (!CHECKF(made, "%s: scene does not fit", tk_ctx()))
                return;
            if (s == 0) {
                run_trees(&sc, k_leaves_1_4, 2, 70u + s, &k_mix);
            } else {
                /* box trees compare and subtract only: still exact (squared distances overflow) */
                static const tk_mix box_mix = {12, 0, 12, 32, 0, 0};
                if (kind >= 2)
                    run_trees(&sc, k_leaves_1_4, 2, 70u + s, &box_mix);
                for (t = 0; t < 6; t++) {
                    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
                    size_t tmark = tk_mark();
                    tk_tree tree;
                    p.split = k_splits[t % 3u];
                    p.leaf_size = k_leaves_1_4[t / 3u];
                    if (tk_build(&tree, &sc, &p))
                        sanity_queries(&sc, &tree, 80u + t);
                    tk_rewind(tmark);
                }
            }
            tk_rewind(mark);
        }
    }
    {
        /* boxes out to +-FLT_MAX next to tiny ones */
        static const float big[4][6] = {{-FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX},
                                        {0, 0, 0, 1, 1, 1},
                                        {-FLT_MAX, 0, 0, -FLT_MAX, 0, 0},
                                        {1e-30f, 1e-30f, 1e-30f, 2e-30f, 2e-30f, 2e-30f}};
        tk_scene sc;
        memset(&sc, 0, sizeof sc);
        sc.kind = COPSE_BVH_PRIM_BOXES;
        sc.dim = 3;
        sc.boxes = &big[0][0];
        sc.n = 4;
        tk_context("boxes to FLT_MAX");
        for (t = 0; t < 6; t++) {
            copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
            size_t mark = tk_mark();
            tk_tree tree;
            p.split = k_splits[t % 3u];
            p.leaf_size = k_leaves_1_4[t / 3u];
            if (tk_build(&tree, &sc, &p)) {
                copse_box3 box = copse_box3_make(0.5f, 0.5f, 0.5f, 2, 2, 2);
                uint32_t ids[4];
                copse_id_list list = copse_id_list_make(ids, 4);
                CHECK_STATUS(copse_bvh_overlap_box(&tree.bvh, &box, COPSE_BVH_SELECT_PRIMS, &list), COPSE_OK);
                CHECKF(list.count == 2, "%s: %u boxes overlap [0.5, 2]^3, expected 2", tk_ctx(), (unsigned)list.count);
            }
            tk_rewind(mark);
        }
    }
    tk_tally_end();
}

/* Regression (fuzz_bvh_build): a 2D ray starting outside a triangle's bounds, beside a 7e10-long
 * edge it runs almost parallel to. The point-in-triangle products rounded the origin (90 units
 * off the edge) onto it and reported t = 0; the first-hit walk, pruning by the box's entry t,
 * disagreed with the all-hits walk. Now neither reports a hit before the box is entered. */
static void test_huge_triangle_origin2(void)
{
    static const float tri[3][2] = {{0x1.8p+1f, -0x1.e4p+5f}, {0x1.441cp+5f, -0x1.a3a3a2p+36f},
                                    {-0x1.a3a3a2p+36f, -0x1.a3a3a2p+36f}};
    const copse_ray2 ray = {{-0x1.e1ecp+5f, 0x1.8p+1f}, {-64.0f, -64.0f}, FLT_MAX};
    /* the ray reaches y = -60.5 (the bounds' top) at t = 63.5 / 64: nothing is hit before */
    const float t_enter = (ray.origin.y - tri[0][1]) / -ray.dir.y;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    const size_t bytes = copse_bvh_build_bytes(1, 2, &params);
    float pos[9];
    unsigned k;
    copse_mesh mesh;
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit, hits[2];
    copse_hit_list all = copse_hit_list_make(hits, 2);
    void *mem;
    tk_pool_reset();
    mem = tk_alloc(bytes);
    if (mem == NULL)
        return;
    params.projection = COPSE_BVH_PROJECT_XZ;
    for (k = 0; k < 3u; k++) {
        pos[3u * k] = tri[k][0];
        pos[3u * k + 1u] = 0.0f;
        pos[3u * k + 2u] = tri[k][1];
    }
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = 3;
    mesh.triangle_count = 1;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &mesh, &params), COPSE_OK);
    CHECK_STATUS(copse_bvh_raycast2(&bvh, &ray, &hit), COPSE_OK);
    CHECK_STATUS(copse_bvh_raycast2_all(&bvh, &ray, &all), COPSE_OK);
    CHECKF(hit.id == COPSE_NONE || hit.t >= t_enter, "first hit at t %g, before the bounds at %g", (double)hit.t,
           (double)t_enter);
    CHECKF(all.count == (hit.id == COPSE_NONE ? 0u : 1u) && (all.count == 0 || hits[0].t == hit.t),
           "%u hits, the first at %g; first hit %g", (unsigned)all.count, all.count > 0 ? (double)hits[0].t : -1.0,
           (double)hit.t);
}

/* A flat grid of shared edges and corners at integer coordinates: rays straight down at every
 * corner and every edge's midpoint hit (no ray slips between two triangles), at exactly the
 * height; the same grid as a 2D tree is entered exactly where its edge is. */
/* Regression (fuzz_bvh_build): 2D rays from outside triangles with edges ~3e38 long. The edge
 * crossing's float products overflowed (x / inf = 0), or cancelled when taken from the far
 * end, and reported a hit at t = 0, which the first-hit query pruned and the all-hits query
 * kept. Each ray enters through edge (e0, e1) (e0 = e1: a point the ray passes), whose crossing
 * the oracle computes in double from the end near the origin. Triangles are in (x, z); y is 0. */
typedef struct huge_ray_case {
    float tri[3][2];
    float org[2], dir[2];
    unsigned e0, e1;
} huge_ray_case;

/* fuzz_bvh_build, in a CPU-hour campaign: a 3D triangle with a corner at z = 3e38, a ray whose
 * direction is 3e38 on each axis. The watertight test's weights were finite but their sum, the
 * determinant, overflowed to -inf: t = T / det came out 0 (a hit at the origin, 411,000 from the
 * triangle) where the ray meets it at t = 1.37e-33, and the first-hit and all-hits walks
 * disagreed. The weights are now rescaled when their sum is not finite (geo_ray_triangle). */
static void test_huge_det_ray3(void)
{
    static float pos[9] = {3.0f, 2.0f, -17.5f, -60.5f, -60.25f, -56.2480469f, -63.8125f, 62.7578125f, 3.00000001e+38f};
    const copse_ray3 ray = {{-411206.25f, -411206.25f, -411206.25f}, {3.00000001e+38f, 3.00000001e+38f, 3.00000001e+38f}, 100.0f};
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    const size_t bytes = copse_bvh_build_bytes(1, 3, &params);
    copse_mesh mesh;
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit, hits[2];
    copse_hit_list all = copse_hit_list_make(hits, 2);
    double t_exact, px, py, pz;
    void *mem;
    tk_pool_reset();
    mem = tk_alloc(bytes);
    if (mem == NULL)
        return;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = 3;
    mesh.triangle_count = 1;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &mesh, &params), COPSE_OK);
    CHECK_STATUS(copse_bvh_raycast(&bvh, &ray, &hit), COPSE_OK);
    CHECK_STATUS(copse_bvh_raycast_all(&bvh, &ray, &all), COPSE_OK);
    /* the oracle: where the ray (along (1,1,1)) meets the triangle's plane, in double */
    {
        const double a[3] = {(double)pos[0], (double)pos[1], (double)pos[2]},
                     e1[3] = {(double)pos[3] - a[0], (double)pos[4] - a[1], (double)pos[5] - a[2]},
                     e2[3] = {(double)pos[6] - a[0], (double)pos[7] - a[1], (double)pos[8] - a[2]};
        const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        const double o[3] = {(double)ray.origin.x, (double)ray.origin.y, (double)ray.origin.z},
                     d[3] = {(double)ray.dir.x, (double)ray.dir.y, (double)ray.dir.z};
        t_exact = (n[0] * (a[0] - o[0]) + n[1] * (a[1] - o[1]) + n[2] * (a[2] - o[2])) /
                  (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
        px = o[0] + t_exact * d[0];
        py = o[1] + t_exact * d[1];
        pz = o[2] + t_exact * d[2];
    }
    CHECKF(t_exact > 0.0 && pz >= -57.0 && pz <= 3.0 && px < 3.5 && py < 2.5, "oracle: t %g at (%g, %g, %g)", t_exact, px, py, pz);
    CHECKF(hit.id == 0u && fabs((double)hit.t - t_exact) <= 1e-5 * t_exact, "first hit %u at t %g, the plane at %g",
           (unsigned)hit.id, (double)hit.t, t_exact);
    CHECKF(all.count == 1u && hits[0].t == hit.t, "%u hits, the first at %g; first hit %g", (unsigned)all.count,
           all.count > 0 ? (double)hits[0].t : -1.0, (double)hit.t);
}

static void test_huge_edge_ray2(void)
{
    static const huge_ray_case cases[5] = {
        {{{-0x1.ffe4p+5f, -0x1.ffe4p+5f}, {-0x1.ffe4p+5f, 0x1.c363ccp+127f}, {0x1.c363ccp+127f, 0x1.c363ccp+127f}},
         {-64.0f, -0x1.ffe4p+5f}, {7.5f, 8.0f}, 0, 1},
        {{{-0x1.e1e4p+5f, -0x1.ffe4p+5f}, {-0x1.ffe4p+5f, -0x1.ffe4p+5f}, {-0x1.000f04p+127f, 0x1.c363ccp+127f}},
         {0x1.4p+1f, 0x1.2bc8p+5f}, {-0x1.e1c8p+5f, -0x1.e1c4p+5f}, 0, 2},
        /* a triangle that is one point, on a ray whose direction squared overflows float */
        {{{-64.0f, -64.0f}, {-64.0f, -64.0f}, {-64.0f, -64.0f}}, {0x1.afacp+5f, 0x1.afacp+5f},
         {-0x1.d7d7d6p+88f, -0x1.d7d7d6p+88f}, 0, 0},
        /* finite products, but from the far corner the origin's offset is exactly -edge: t = 0 */
        {{{0x1.ababaap-26f, -0x1.ababaap+44f}, {-0x1.ababaap+44f, -0x1.ababaap+44f}, {-0x1.ffe4p+5f, -64.0f}},
         {0.5f, 1.0f}, {-0x1.fcacp+5f, -64.0f}, 2, 1},
        /* a corner exactly on the ray's line, its edge 5.3e6 long: the crossing's products cancel
         * to t = -0; the ray passes the corner at t = 1.5 / 64 */
        {{{-64.0f, -0x1.959594p+22f}, {-0x1.959594p+22f, -0x1.959594p+22f}, {0x1.0cap-137f, 0.5f}},
         {1.5f, 2.0f}, {-64.0f, -64.0f}, 2, 2},
    };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    const size_t bytes = copse_bvh_build_bytes(1, 2, &params);
    unsigned c, k;
    tk_pool_reset();
    params.projection = COPSE_BVH_PROJECT_XZ;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const huge_ray_case *hc = &cases[c];
        const copse_ray2 ray = {{hc->org[0], hc->org[1]}, {hc->dir[0], hc->dir[1]}, FLT_MAX};
        const double ex = (double)hc->tri[hc->e1][0] - (double)hc->tri[hc->e0][0];
        const double ey = (double)hc->tri[hc->e1][1] - (double)hc->tri[hc->e0][1];
        const double wx = (double)hc->tri[hc->e0][0] - (double)hc->org[0];
        const double wy = (double)hc->tri[hc->e0][1] - (double)hc->org[1];
        double want;
        float pos[9];
        copse_mesh mesh;
        copse_arena arena;
        copse_bvh bvh;
        copse_hit hit, hits[2];
        copse_hit_list all = copse_hit_list_make(hits, 2);
        void *mem = tk_alloc(bytes);
        if (mem == NULL)
            return;
        if (hc->e0 == hc->e1) /* a point: where the ray passes it */
            want = (wx * (double)hc->dir[0] + wy * (double)hc->dir[1]) /
                   ((double)hc->dir[0] * (double)hc->dir[0] + (double)hc->dir[1] * (double)hc->dir[1]);
        else
            want = (wx * ey - wy * ex) / ((double)hc->dir[0] * ey - (double)hc->dir[1] * ex);
        for (k = 0; k < 3u; k++) {
            pos[3u * k] = hc->tri[k][0];
            pos[3u * k + 1u] = 0.0f;
            pos[3u * k + 2u] = hc->tri[k][1];
        }
        memset(&mesh, 0, sizeof mesh);
        mesh.positions = pos;
        mesh.vertex_count = 3;
        mesh.triangle_count = 1;
        copse_arena_init(&arena, mem, bytes);
        CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &mesh, &params), COPSE_OK);
        CHECK_STATUS(copse_bvh_raycast2(&bvh, &ray, &hit), COPSE_OK);
        CHECK_STATUS(copse_bvh_raycast2_all(&bvh, &ray, &all), COPSE_OK);
        CHECKF(hit.id == 0 && fabs((double)hit.t - want) < 1e-5 * want, "case %u: first hit %u at t %g, want %g", c,
               (unsigned)hit.id, (double)hit.t, want);
        CHECKF(all.count == 1 && hits[0].t == hit.t, "case %u: %u hits, the first at %g", c, (unsigned)all.count,
               all.count > 0 ? (double)hits[0].t : -1.0);
    }
}

/* Regression (fuzz_bvh_build): centroids a few denormals apart. The SAH binning's scale
 * (bins / extent) is infinite there and a centroid's bin was inf converted to an integer
 * (undefined; the asan-ubsan configuration checks float-cast-overflow). Every split builds a
 * valid tree over all the boxes. */
static void test_denormal_extent(void)
{
    static const float xs[4] = {0.0f, 0x1p-148f, 0x1p-147f, 0x1p-149f};
    copse_box3 boxes[4];
    unsigned s, i;
    tk_pool_reset();
    for (i = 0; i < 4u; i++)
        boxes[i] = copse_box3_make(xs[i], 1.0f, 2.0f, xs[i], 1.0f, 2.0f);
    for (s = 0; s < 3u; s++) {
        copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
        copse_arena arena;
        copse_bvh bvh;
        size_t bytes;
        void *mem;
        params.split = (copse_bvh_split)s;
        params.leaf_size = 1;
        bytes = copse_bvh_build_bytes(4, 3, &params);
        if ((mem = tk_alloc(bytes)) == NULL)
            return;
        copse_arena_init(&arena, mem, bytes);
        CHECK_STATUS(copse_bvh_build_boxes3(&bvh, &arena, boxes, NULL, 4, &params), COPSE_OK);
        CHECK_STATUS(copse_bvh_check(&bvh), COPSE_OK);
        CHECK_EQ_INT(bvh.prim_count, 4);
    }
}

static void test_watertight(void)
{
    enum { G = 6 };
    float *pos;
    uint16_t *ix;
    uint32_t x, z, k, misses = 0, off = 0;
    copse_mesh mesh;
    tk_scene sc;
    unsigned s, proj;
    tk_pool_reset();
    pos = (float *)tk_alloc((G + 1) * (G + 1) * 12u);
    ix = (uint16_t *)tk_alloc(G * G * 12u);
    if (pos == NULL || ix == NULL)
        return;
    for (z = 0; z <= G; z++)
        for (x = 0; x <= G; x++) {
            pos[(z * (G + 1) + x) * 3u] = (float)x;
            pos[(z * (G + 1) + x) * 3u + 1u] = 0.0f;
            pos[(z * (G + 1) + x) * 3u + 2u] = (float)z;
        }
    for (z = 0, k = 0; z < G; z++)
        for (x = 0; x < G; x++) {
            uint16_t a = (uint16_t)(z * (G + 1) + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + G + 1),
                     d = (uint16_t)(c + 1);
            bool flip = ((x + z) & 1u) != 0; /* alternate diagonals */
            ix[k++] = a;
            ix[k++] = flip ? d : b;
            ix[k++] = c;
            ix[k++] = b;
            ix[k++] = d;
            ix[k++] = flip ? a : c;
        }
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = (G + 1) * (G + 1);
    mesh.indices = ix;
    mesh.index_type = COPSE_MESH_INDEX_U16;
    mesh.triangle_count = 2 * G * G;
    for (proj = 0; proj < 2; proj++) {
        tk_scene_from_mesh(&sc, &mesh, proj == 0 ? COPSE_BVH_PROJECT_NONE : COPSE_BVH_PROJECT_XZ);
        for (s = 0; s < 3; s++) {
            copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
            size_t mark = tk_mark();
            tk_tree t;
            p.split = k_splits[s];
            p.leaf_size = 1u + s;
            tk_context("watertight grid %s", proj == 0 ? "3D" : "XZ");
            if (!tk_build(&t, &sc, &p))
                return;
            for (z = 0; z <= 2 * G; z++) {
                for (x = 0; x <= 2 * G; x++) {
                    copse_hit h;
                    if (proj == 0) { /* down onto the half-integer lattice: corners, edges, centres */
                        copse_ray3 r;
                        r.origin = copse_v3(0.5f * (float)x, 7.0f, 0.5f * (float)z);
                        r.dir = copse_v3(0.0f, -1.0f, 0.0f);
                        r.t_max = INFINITY;
                        CHECK_STATUS(copse_bvh_raycast(&t.bvh, &r, &h), COPSE_OK);
                        misses += h.id == COPSE_NONE;
                        off += h.id != COPSE_NONE && h.t != 7.0f;
                    } else { /* along each lattice line from outside the grid: enters at its edge */
                        copse_ray2 r;
                        r.origin = copse_v2(-2.0f, 0.5f * (float)z);
                        r.dir = copse_v2(1.0f, 0.0f);
                        r.t_max = INFINITY;
                        CHECK_STATUS(copse_bvh_raycast2(&t.bvh, &r, &h), COPSE_OK);
                        misses += h.id == COPSE_NONE;
                        off += h.id != COPSE_NONE && h.t != 2.0f;
                        r.origin = copse_v2(0.5f * (float)x, 0.5f * (float)z); /* from inside (or on the rim) */
                        CHECK_STATUS(copse_bvh_raycast2(&t.bvh, &r, &h), COPSE_OK);
                        misses += h.id == COPSE_NONE;
                        off += h.id != COPSE_NONE && h.t != 0.0f;
                    }
                }
            }
            CHECKF(misses == 0 && off == 0, "%s [%s]: %u rays slipped through, %u hit at the wrong t", tk_ctx(),
                   tk_split_name(p.split), (unsigned)misses, (unsigned)off);
            tk_rewind(mark);
        }
    }
}

static void expect_ids(copse_status st, const copse_id_list *list, uint32_t expected, const char *what)
{
    CHECKF(st == COPSE_OK && list->count == expected, "%s: %s, %u ids, expected %u", what, copse_status_str(st),
           (unsigned)list->count, (unsigned)expected);
}

/* Closed sets: shapes that only touch a primitive (a face, an edge, a corner; exactly
 * representable distances) overlap it. */
static void test_closed_sets(void)
{
    /* two unit boxes side by side, sharing the face x = 1 */
    static const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{1, 0, 0}, {2, 1, 1}}};
    static const copse_box2 rects[2] = {{{0, 0}, {1, 1}}, {{1, 0}, {2, 1}}};
    /* one triangle in z = 0, and the same as a 2D tree */
    static const float tri[9] = {0, 0, 0, 4, 0, 0, 0, 4, 0};
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    const size_t bytes = 4u * COPSE_BVH_BUILD_BYTES(2, 1);
    void *mem;
    copse_arena arena;
    copse_bvh b3, b2, t3, t2;
    copse_mesh mesh;
    uint32_t ids[4];
    copse_id_list list;
    copse_hit h;
    copse_nearest2 n2;

    p.leaf_size = 1;
    tk_pool_reset();
    if ((mem = tk_alloc(bytes)) == NULL)
        return;
    copse_arena_init(&arena, mem, bytes);
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = tri;
    mesh.vertex_count = 3;
    mesh.triangle_count = 1;
    CHECK_STATUS(copse_bvh_build_boxes3(&b3, &arena, boxes, NULL, 2, &p), COPSE_OK);
    CHECK_STATUS(copse_bvh_build_boxes2(&b2, &arena, rects, NULL, 2, &p), COPSE_OK);
    CHECK_STATUS(copse_bvh_build_mesh(&t3, &arena, &mesh, &p), COPSE_OK);
    p.projection = COPSE_BVH_PROJECT_XY;
    CHECK_STATUS(copse_bvh_build_mesh(&t2, &arena, &mesh, &p), COPSE_OK);

    {
        copse_box3 face = copse_box3_make(2, 0.25f, 0.25f, 3, 0.75f, 0.75f); /* touches box 1's face x = 2 */
        copse_box3 corner = copse_box3_make(-1, -1, -1, 0, 0, 0);            /* touches box 0's corner */
        copse_box3 shared = copse_box3_make(1, 0.2f, 0.2f, 1, 0.8f, 0.8f);   /* flat, in the shared face */
        copse_sphere ball = {{3, 0.5f, 0.5f}, 1};                            /* distance 1 to box 1 */
        copse_segment3 seg = {{2, 0.5f, 0.5f}, {3, 0.5f, 0.5f}};             /* starts on box 1's face */
        copse_segment3 dot = {{1, 1, 1}, {1, 1, 1}};                         /* the shared top corner */
        copse_ray3 along = {{-1, 1, 1}, {1, 0, 0}, INFINITY};                /* along the boxes' top edge */
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_box(&b3, &face, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "boxes, face");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_box(&b3, &corner, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "boxes, corner");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_box(&b3, &shared, COPSE_BVH_SELECT_PRIMS, &list), &list, 2, "boxes, shared");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_sphere(&b3, &ball, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "boxes, ball");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_segment(&b3, &seg, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "boxes, seg");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_segment(&b3, &dot, COPSE_BVH_SELECT_PRIMS, &list), &list, 2, "boxes, dot");
        CHECK_STATUS(copse_bvh_raycast(&b3, &along, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 1.0f, "ray along an edge: id %u t %g", (unsigned)h.id, (double)h.t);
        along.origin = copse_v3(1, 0.5f, 0.5f); /* on the shared face: inside both at t = 0; lower id */
        CHECK_STATUS(copse_bvh_raycast(&b3, &along, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 0.0f, "ray from the shared face: id %u t %g", (unsigned)h.id, (double)h.t);
    }
    {
        copse_box2 corner = copse_box2_make(2, 1, 3, 2);
        copse_circle circle = {{1, 2}, 1};
        copse_ray2 up = {{1.5f, -1}, {0, 1}, 1}; /* reaches the rects' bottom at exactly t_max */
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_rect(&b2, &corner, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "rects, corner");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_circle(&b2, &circle, COPSE_BVH_SELECT_PRIMS, &list), &list, 2, "rects, circle");
        CHECK_STATUS(copse_bvh_raycast2(&b2, &up, &h), COPSE_OK);
        CHECKF(h.id == 1 && h.t == 1.0f, "2D ray reaching a rect at t_max: id %u t %g", (unsigned)h.id, (double)h.t);
    }
    {
        copse_box3 at_corner = copse_box3_make(4, -1, -1, 5, 0, 1); /* touches the corner (4, 0, 0) */
        copse_box3 flat = copse_box3_make(1, 1, 0, 2, 2, 0);        /* lies in the triangle's plane */
        copse_sphere above = {{1, 1, 2}, 2};                        /* touches the face from z = 2 */
        copse_segment3 down = {{1, 1, 1}, {1, 1, 0}};               /* ends on the face */
        copse_ray3 at_vertex = {{0, 4, 3}, {0, 0, -1}, INFINITY};   /* straight onto a corner */
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_box(&t3, &at_corner, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "triangle, at_corner");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_box(&t3, &flat, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "triangle, flat");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_sphere(&t3, &above, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "triangle, above");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_segment(&t3, &down, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "triangle, down");
        CHECK_STATUS(copse_bvh_raycast(&t3, &at_vertex, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 3.0f && h.u == 0.0f && h.v == 1.0f, "ray onto a corner: id %u t %g u %g v %g",
               (unsigned)h.id, (double)h.t, (double)h.u, (double)h.v);
    }
    {
        copse_ray2 enter = {{-2, 1}, {1, 0}, INFINITY}; /* enters through the edge x = 0 at t = 2 */
        copse_ray2 inside = {{1, 1}, {-1, 0}, INFINITY};
        copse_ray2 along = {{-1, 0}, {1, 0}, INFINITY}; /* along the bottom edge: touches at t = 1 */
        copse_ray2 away = {{5, 5}, {1, 1}, INFINITY};
        copse_circle touch = {{3, 3}, 0};        /* a point beyond the hypotenuse */
        copse_segment2 point = {{1, 1}, {1, 1}}; /* a point inside */
        CHECK_STATUS(copse_bvh_raycast2(&t2, &enter, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 2.0f && h.u == 0.0f && h.v == 0.25f, "2D entry: id %u t %g u %g v %g",
               (unsigned)h.id, (double)h.t, (double)h.u, (double)h.v);
        CHECK_STATUS(copse_bvh_raycast2(&t2, &inside, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 0.0f, "2D ray from inside: id %u t %g", (unsigned)h.id, (double)h.t);
        CHECK_STATUS(copse_bvh_raycast2(&t2, &along, &h), COPSE_OK);
        CHECKF(h.id == 0 && h.t == 1.0f, "2D ray along an edge: id %u t %g", (unsigned)h.id, (double)h.t);
        CHECK_STATUS(copse_bvh_raycast2(&t2, &away, &h), COPSE_OK);
        CHECK_EQ_INT(h.id, COPSE_NONE);
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_circle(&t2, &touch, COPSE_BVH_SELECT_PRIMS, &list), &list, 0, "2D triangle, touch");
        list = copse_id_list_make(ids, 4);
        expect_ids(copse_bvh_overlap_segment2(&t2, &point, COPSE_BVH_SELECT_PRIMS, &list), &list, 1, "2D triangle, point");
        CHECK_STATUS(copse_bvh_nearest2(&t2, copse_v2(1, 1), FLT_MAX, &n2), COPSE_OK);
        CHECKF(n2.id == 0 && n2.distance_sq == 0.0f, "nearest2 inside: id %u d2 %g", (unsigned)n2.id,
               (double)n2.distance_sq);
    }
}

void suite_bvh_edge(void)
{
    test_run("bvh_edge/duplicates", test_duplicates);
    test_run("bvh_edge/degenerate", test_degenerate);
    test_run("bvh_edge/one_point", test_one_point);
    test_run("bvh_edge/far_from_origin", test_far_from_origin);
    test_run("bvh_edge/huge_coordinates", test_huge_coordinates);
    test_run("bvh_edge/huge_edge_ray2", test_huge_edge_ray2);
    test_run("bvh_edge/huge_triangle_origin2", test_huge_triangle_origin2);
    test_run("bvh_edge/huge_det_ray3", test_huge_det_ray3);
    test_run("bvh_edge/denormal_extent", test_denormal_extent);
    test_run("bvh_edge/watertight", test_watertight);
    test_run("bvh_edge/closed_sets", test_closed_sets);
    tk_tally_report("bvh_edge");
}

/* SPDX-License-Identifier: MIT */
/*
 * The point octree against brute force: every query on every cloud kind (uniform, clustered,
 * all coincident, planar, huge coordinates, integer grid), sizes 0, 1, 2, bucket-1, bucket,
 * bucket+1, 2*bucket+1 and one large size from the machine's memory, buckets of 1, 4 and 8,
 * with and without ids; random insert/remove sequences checked after every step; the depth
 * cap and the same-count rule; guard regions; NOMEM; bad input; checksums.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "suites.h"
#include "test_octree.h"

/* (leaf_size, bucket_size): one bucket a leaf, and leaves spread over chains of buckets */
#define SHAPES 4u
static const uint32_t k_leaf[SHAPES] = {1, 4, 8, 16}, k_bucket[SHAPES] = {1, 4, 3, 5};

static bool big_machine(void)
{
    return test_memory_bytes() >= ((size_t)32u << 20);
}

static void test_queries(void)
{
    unsigned kind, b, s;
    tk_pool_reset();
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        for (b = 0; b < SHAPES; b++) {
            uint32_t leaf = k_leaf[b], bucket = k_bucket[b];
            uint32_t sizes[8];
            sizes[0] = 0;
            sizes[1] = 1;
            sizes[2] = 2;
            sizes[3] = leaf - 1u;
            sizes[4] = leaf;
            sizes[5] = leaf + 1u;
            sizes[6] = 2u * leaf + 1u;
            sizes[7] = tk_large_count(400, 3000);
            for (s = 0; s < 8u; s++) {
                size_t mark = tk_mark();
                uint32_t n = sizes[s];
                copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
                uint32_t *ids = (s + kind) % 2u ? ot_make_ids(n) : NULL;
                ot_point_tree pt;
                test_rng rng;
                test_rng_seed(&rng, 1000u + kind * 100u + b * 10u + s);
                tk_context("%s leaf=%u bucket=%u n=%u%s", ot_cloud_name((ot_cloud_kind)kind), (unsigned)leaf,
                           (unsigned)bucket, (unsigned)n, ids != NULL ? " ids" : "");
                if (pts == NULL)
                    return;
                ot_make_cloud(pts, n, (ot_cloud_kind)kind, &rng);
                if (ot_point_build(&pt, pts, ids, n, n, leaf, bucket, s % 2u ? 12u : COPSE_OCTREE_MAX_DEPTH, 0, 0))
                    ot_judge_all(&pt, &rng, s == 7u ? (big_machine() ? 60u : 8u) : 6u);
                tk_rewind(mark);
            }
        }
    }
}

/* k nearest from queries on and one float step beside the split planes of the cells the query
 * lies in (levels 0 to 3): where a walk leaves a cell's other octants on its stack bounded by
 * the distance to those planes, and where grid points lie on them. */
static void test_knn_split_planes(void)
{
    static const ot_cloud_kind kinds[4] = { OT_UNIFORM, OT_CLUSTERED, OT_HUGE, OT_GRID };
    static const uint32_t ks[3] = { 1, 2, 8 };
    unsigned kind, b, q;
    tk_pool_reset();
    for (kind = 0; kind < 4u; kind++) {
        for (b = 1; b < SHAPES; b++) {
            size_t mark = tk_mark();
            uint32_t n = tk_large_count(200, 1500);
            copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
            ot_point_tree pt;
            test_rng rng;
            test_rng_seed(&rng, 7000u + kind * 10u + b);
            tk_context("split planes %s leaf=%u bucket=%u n=%u", ot_cloud_name(kinds[kind]), (unsigned)k_leaf[b],
                       (unsigned)k_bucket[b], (unsigned)n);
            if (pts == NULL)
                return;
            ot_make_cloud(pts, n, kinds[kind], &rng);
            if (ot_point_build(&pt, pts, NULL, n, n, k_leaf[b], k_bucket[b], COPSE_OCTREE_MAX_DEPTH, 0, 0)) {
                for (q = 0; q < 48u; q++) {
                    float p[3], c[3], h = pt.tree.half;
                    unsigned a, level = test_rng_below(&rng, 4), axes = 1u + test_rng_below(&rng, 7), l;
                    memcpy(c, pt.tree.center, sizeof c);
                    ot_random_point(&pt, &rng, p);
                    for (l = 0; l < level; l++) { /* the cell of p one level down, as the tree derives it */
                        h *= 0.5f;
                        for (a = 0; a < 3u; a++)
                            c[a] = p[a] >= c[a] ? c[a] + h : c[a] - h;
                    }
                    for (a = 0; a < 3u; a++) {
                        if ((axes >> a & 1u) == 0u)
                            continue;
                        p[a] = c[a];
                        if (q % 3u == 1u)
                            p[a] = nextafterf(c[a], FLT_MAX);
                        else if (q % 3u == 2u)
                            p[a] = nextafterf(c[a], -FLT_MAX);
                    }
                    ot_judge_knn(&pt, p, ks[q / 3u % 3u], FLT_MAX);
                }
            }
            tk_rewind(mark);
        }
    }
    { /* A tie across a plane: the root cell is [-4, 4]^3, the query (-1, 1, 1) lies in the bounds
       * of its octant's child, which holds point 1 at distance 1; point 0, across the plane x = 0
       * at exactly that distance, has the lower id and must win. */
        static const copse_vec3 tie[5] = { { 0, 1, 1 }, { -2, 1, 1 }, { -0.25f, 3, 3 }, { 4, 4, 4 }, { -4, -4, -4 } };
        static const float at[3] = { -1, 1, 1 };
        ot_point_tree pt;
        tk_context("split planes: tie across x = 0");
        if (ot_point_build(&pt, tie, NULL, 5, 5, 1, 1, COPSE_OCTREE_MAX_DEPTH, 0, 0)) {
            CHECK(pt.tree.half == 4.0f && pt.tree.center[0] == 0.0f);
            ot_judge_knn(&pt, at, 1, FLT_MAX);
            ot_judge_knn(&pt, at, 2, FLT_MAX);
        }
    }
}

/* Random inserts and removes; the structure checked after every step, queries now and then. */
static void test_dynamic(void)
{
    unsigned kind, b;
    tk_pool_reset();
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        for (b = 0; b < SHAPES; b++) {
            size_t mark = tk_mark();
            uint32_t n = big_machine() ? 300u : 40u, leaf = k_leaf[b], bucket = k_bucket[b], i, step, steps = 6u * n;
            copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
            ot_point_tree pt;
            test_rng rng;
            bool ok = true;
            test_rng_seed(&rng, 77u + kind * 10u + b);
            tk_context("dynamic %s leaf=%u bucket=%u n=%u", ot_cloud_name((ot_cloud_kind)kind), (unsigned)leaf,
                       (unsigned)bucket, (unsigned)n);
            if (pts == NULL)
                return;
            ot_make_cloud(pts, n, (ot_cloud_kind)kind, &rng);
            /* pools for the whole cloud at any shape: one node and bucket per point, and chains */
            if (!ot_point_build(&pt, pts, NULL, n, 0, leaf, bucket, 10u, n * 2u + 16u, n + 8u))
                return;
            for (step = 0; step < steps && ok; step++) {
                uint32_t idx = test_rng_below(&rng, n);
                copse_status st, want = COPSE_OK;
                if (step < n / 2u || test_rng_below(&rng, 2) == 0u) {
                    if (pt.in[idx])
                        want = COPSE_ERR_INDEX; /* already in */
                    st = copse_octree_insert(&pt.tree, idx);
                    if (st == COPSE_OK)
                        pt.in[idx] = 1;
                } else {
                    if (!pt.in[idx])
                        want = COPSE_ERR_INDEX; /* not in */
                    st = copse_octree_remove(&pt.tree, idx);
                    if (st == COPSE_OK)
                        pt.in[idx] = 0;
                }
                ok = CHECKF(st == want, "%s: step %u on %u: %s, expected %s", tk_ctx(), (unsigned)step, (unsigned)idx,
                            copse_status_str(st), copse_status_str(want)) &&
                     CHECKF(copse_octree_check(&pt.tree) == COPSE_OK, "%s: check after step %u", tk_ctx(),
                            (unsigned)step);
                if (ok && step % (n / 4u + 1u) == 0u)
                    ot_judge_all(&pt, &rng, 1);
            }
            /* out again, one by one: back to an empty root with no buckets */
            for (i = 0; i < n && ok; i++)
                if (pt.in[i]) {
                    ok = CHECK(copse_octree_remove(&pt.tree, i) == COPSE_OK);
                    pt.in[i] = 0;
                }
            CHECKF(pt.tree.size == 0u && pt.tree.nodes_used == 1u && pt.tree.buckets_used == 0u &&
                       copse_octree_check(&pt.tree) == COPSE_OK,
                   "%s: emptied tree keeps %u nodes, %u buckets", tk_ctx(), (unsigned)pt.tree.nodes_used,
                   (unsigned)pt.tree.buckets_used);
            ot_judge_all(&pt, &rng, 1);
            tk_rewind(mark);
        }
    }
}

/* Coincident points never split: one overflowing leaf, by build and by inserts; points closer
 * than the deepest cells stop at max_depth; max_depth 0 keeps everything in the root. */
static void test_depth_and_same_count(void)
{
    const uint32_t n = big_machine() ? 500u : 60u, bucket = 4;
    size_t mark;
    copse_vec3 *pts;
    ot_point_tree pt;
    copse_octree_stats st;
    uint32_t i;
    test_rng rng;
    tk_pool_reset();
    mark = tk_mark();
    pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
    if (pts == NULL)
        return;
    test_rng_seed(&rng, 5);
    ot_make_cloud(pts, n, OT_COINCIDENT, &rng);
    tk_context("coincident build n=%u", (unsigned)n);
    if (ot_point_build(&pt, pts, NULL, n, n, bucket, bucket, COPSE_OCTREE_MAX_DEPTH, 0, 0)) {
        (void)copse_octree_get_stats(&pt.tree, &st);
        CHECKF(st.nodes == 1u && st.leaves == 1u && st.overflow_leaves == 1u && st.max_leaf_points == n &&
                   st.buckets == (n + bucket - 1u) / bucket,
               "%s: %u nodes, %u buckets", tk_ctx(), (unsigned)st.nodes, (unsigned)st.buckets);
        ot_judge_all(&pt, &rng, 4);
    }
    tk_rewind(mark);
    pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
    if (pts == NULL)
        return;
    ot_make_cloud(pts, n, OT_COINCIDENT, &rng);
    pts[n - 1u] = copse_v3(9, 9, 9); /* one apart: a single split separates it */
    tk_context("coincident inserts n=%u", (unsigned)n);
    if (ot_point_build(&pt, pts, NULL, n, 0, bucket, bucket, COPSE_OCTREE_MAX_DEPTH, 8, n)) {
        for (i = 0; i < n; i++) {
            CHECK(copse_octree_insert(&pt.tree, i) == COPSE_OK);
            pt.in[i] = 1;
        }
        (void)copse_octree_get_stats(&pt.tree, &st);
        CHECKF(copse_octree_check(&pt.tree) == COPSE_OK && st.overflow_leaves == 1u && st.nodes <= 3u,
               "%s: %u nodes, %u overflowing", tk_ctx(), (unsigned)st.nodes, (unsigned)st.overflow_leaves);
        ot_judge_all(&pt, &rng, 4);
    }
    tk_rewind(mark);
    /* neighbours one float step apart: they separate only below max_depth, so they stay together */
    pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
    if (pts == NULL)
        return;
    for (i = 0; i < n; i++)
        pts[i] = copse_v3(i % 2u ? 1.0f : 1.0f + FLT_EPSILON, 1.0f, i == 0u ? 100.0f : 1.0f);
    for (i = 0; i <= 2u; i++) {
        size_t m2 = tk_mark();
        uint32_t depth = i == 0u ? 0u : i == 1u ? 5u : COPSE_OCTREE_MAX_DEPTH;
        tk_context("depth cap %u n=%u", (unsigned)depth, (unsigned)n);
        if (ot_point_build(&pt, pts, NULL, n, n, bucket, bucket, depth, 0, 0)) {
            (void)copse_octree_get_stats(&pt.tree, &st);
            CHECKF(st.depth <= depth && (depth > 0u || st.nodes == 1u) && st.overflow_leaves >= 1u,
                   "%s: depth %u, %u nodes", tk_ctx(), (unsigned)st.depth, (unsigned)st.nodes);
            ot_judge_all(&pt, &rng, 3);
        }
        tk_rewind(m2);
    }
    tk_rewind(mark);
}

/* Every byte count from 0 to the exact size: short ones fail with NOMEM and the exact need,
 * leave the arena as it was, and nothing is written around the buffer. */
static void test_guard(void)
{
    enum { GUARD = 32 };
    static const uint32_t counts[4] = {0, 1, 5, 9};
    unsigned c;
    tk_pool_reset();
    for (c = 0; c < 4u; c++) {
        size_t mark = tk_mark(), k, exact, bad = 0;
        uint32_t n = counts[c];
        copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
        copse_octree_config cfg;
        uint8_t *region;
        test_rng rng;
        test_rng_seed(&rng, 31u + c);
        if (pts == NULL)
            return;
        ot_make_cloud(pts, n, OT_UNIFORM, &rng);
        memset(&cfg, 0, sizeof cfg);
        cfg.points = pts;
        cfg.point_capacity = n;
        cfg.bounds = copse_box3_make(-10, -10, -10, 10, 10, 10);
        cfg.max_nodes = 3u + n;
        cfg.max_buckets = 2u + n;
        cfg.leaf_size = 3;
        cfg.bucket_size = 2;
        cfg.max_depth = 8;
        exact = copse_octree_bytes(&cfg);
        region = (uint8_t *)tk_alloc(exact + 2u * GUARD + COPSE_OCTREE_BUILD_SCRATCH_BYTES(n, 8));
        if (region == NULL)
            return;
        tk_context("guard init n=%u", (unsigned)n);
        for (k = 0; k <= exact; k++) {
            copse_arena arena;
            copse_octree t;
            copse_status st;
            size_t i;
            memset(region, OT_GUARD_BYTE, exact + 2u * GUARD);
            copse_arena_init(&arena, region + GUARD, k);
            st = copse_octree_init(&t, &arena, &cfg);
            bad += !ot_guard_intact(region, GUARD, k);
            if (k < exact)
                bad += st != COPSE_ERR_NOMEM || arena.needed != exact || arena.used != 0u || t.nodes != NULL;
            else
                bad += st != COPSE_OK || arena.used != exact || copse_octree_check(&t) != COPSE_OK;
            if (k == exact && st == COPSE_OK) {
                /* the build's scratch, byte by byte, in the same region after the tree */
                size_t sx = copse_octree_build_scratch_bytes(&t, n), j;
                CHECK(sx == COPSE_OCTREE_BUILD_SCRATCH_BYTES(n, 8));
                uint8_t *sbuf = region + GUARD + exact + GUARD;
                uint32_t before = ot_point_hash(&t);
                for (j = 0; j <= sx; j += (j < 64u || sx - j < 64u) ? 1u : 29u) {
                    copse_arena scratch;
                    memset(sbuf - GUARD, OT_GUARD_BYTE, GUARD);
                    copse_arena_init(&scratch, sbuf, j);
                    st = copse_octree_build(&t, &scratch, n);
                    for (i = 0; i < GUARD; i++)
                        if (sbuf[-(ptrdiff_t)GUARD + (ptrdiff_t)i] != OT_GUARD_BYTE)
                            break;
                    bad += i < GUARD;
                    if (j < sx)
                        bad += st != COPSE_ERR_NOMEM || scratch.needed != sx || ot_point_hash(&t) != before;
                    else
                        bad += st != COPSE_OK || scratch.used != 0u || scratch.high_water != sx ||
                               t.size != n || copse_octree_check(&t) != COPSE_OK;
                }
            }
        }
        CHECKF(bad == 0u, "%s: %lu failures over %lu sizes", tk_ctx(), (unsigned long)bad, (unsigned long)exact + 1u);
        tk_rewind(mark);
    }
}

/* Pools too small: the build and inserts refuse with NOMEM, say how many more they needed, and
 * leave the tree as it was; with exactly that many more they succeed. */
static void test_nomem(void)
{
    const uint32_t n = big_machine() ? 400u : 20u, bucket = 3;
    unsigned kind;
    tk_pool_reset();
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        size_t mark = tk_mark();
        copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
        ot_point_tree full, small;
        test_rng rng;
        uint32_t i, refusals = 0;
        test_rng_seed(&rng, 900u + kind);
        tk_context("nomem %s n=%u", ot_cloud_name((ot_cloud_kind)kind), (unsigned)n);
        if (pts == NULL)
            return;
        ot_make_cloud(pts, n, (ot_cloud_kind)kind, &rng);
        if (!ot_point_build(&full, pts, NULL, n, n, bucket, bucket, 12, 0, 0))
            return;
        /* a build into pools one short of each */
        if (full.tree.nodes_used > 1u || full.tree.buckets_used > 0u) {
            copse_arena arena, scratch;
            copse_octree_config cfg;
            size_t sx = COPSE_OCTREE_BUILD_SCRATCH_BYTES(n, 12);
            void *sm = tk_alloc(sx);
            memset(&cfg, 0, sizeof cfg);
            cfg.points = pts;
            cfg.point_capacity = n;
            cfg.bounds = copse_box3_make(0, 0, 0, 1, 1, 1);
            cfg.max_nodes = full.tree.nodes_used > 1u ? full.tree.nodes_used - 1u : 1u;
            cfg.max_buckets = full.tree.buckets_used > 0u ? full.tree.buckets_used - 1u : 0u;
            cfg.leaf_size = bucket;
            cfg.bucket_size = bucket;
            cfg.max_depth = 12;
            {
                size_t bytes = copse_octree_bytes(&cfg);
                void *m = tk_alloc(bytes);
                copse_octree t;
                uint32_t before;
                if (m == NULL || sm == NULL)
                    return;
                copse_arena_init(&arena, m, bytes);
                copse_arena_init(&scratch, sm, sx);
                CHECK(copse_octree_init(&t, &arena, &cfg) == COPSE_OK);
                CHECK(copse_octree_insert(&t, 0) == COPSE_OK);
                before = ot_point_hash(&t);
                /* the count stops as soon as the pools are short: the shortfalls are lower bounds
                 * (octree.h), at least one of them positive */
                CHECKF(copse_octree_build(&t, &scratch, n) == COPSE_ERR_NOMEM &&
                           (t.nodes_short > 0u || t.buckets_short > 0u) &&
                           t.nodes_short <= full.tree.nodes_used - cfg.max_nodes &&
                           t.buckets_short <= full.tree.buckets_used - cfg.max_buckets && ot_point_hash(&t) == before &&
                           t.size == 1u && copse_octree_check(&t) == COPSE_OK,
                       "%s: build short by %u nodes, %u buckets", tk_ctx(), (unsigned)t.nodes_short,
                       (unsigned)t.buckets_short);
            }
        }
        /* inserts into small pools, one by one; a refusal changes nothing */
        if (!ot_point_build(&small, pts, NULL, n, 0, bucket, bucket, 12, 2, 2))
            return;
        for (i = 0; i < n; i++) {
            uint32_t before = ot_point_hash(&small.tree);
            copse_status st = copse_octree_insert(&small.tree, i);
            if (st == COPSE_ERR_NOMEM) {
                refusals++;
                CHECKF(ot_point_hash(&small.tree) == before && small.tree.nodes_short + small.tree.buckets_short > 0u &&
                           copse_octree_check(&small.tree) == COPSE_OK,
                       "%s: refused insert %u changed the tree", tk_ctx(), (unsigned)i);
            } else {
                CHECKF(st == COPSE_OK, "%s: insert %u: %s", tk_ctx(), (unsigned)i, copse_status_str(st));
                small.in[i] = 1;
            }
        }
        CHECKF(refusals > 0u || n <= bucket * 2u, "%s: small pools never refused", tk_ctx());
        ot_judge_all(&small, &rng, 2);
        tk_rewind(mark);
    }
}

/* The shortfall an insert reports is exact: a tree given that many more succeeds. */
static void test_nomem_exact(void)
{
    const uint32_t n = big_machine() ? 200u : 14u, bucket = 2;
    size_t mark;
    copse_vec3 *pts;
    uint32_t i, checked = 0;
    test_rng rng;
    tk_pool_reset();
    mark = tk_mark();
    pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * n);
    if (pts == NULL)
        return;
    test_rng_seed(&rng, 4242);
    ot_make_cloud(pts, n, OT_CLUSTERED, &rng);
    for (i = 1; i < n && checked < 6u; i += n / 8u) {
        /* a tree holding points 0..i-1 in pools with nothing spare */
        ot_point_tree a, b;
        size_t m2 = tk_mark();
        uint32_t k, nodes, buckets;
        copse_status st;
        tk_context("nomem exact i=%u", (unsigned)i);
        if (!ot_point_build(&a, pts, NULL, n, 0, 5, bucket, 12, 2u * n + 8u, n + 8u))
            return;
        for (k = 0; k < i; k++)
            (void)copse_octree_insert(&a.tree, k);
        nodes = a.tree.node_top; /* the most ever in use at once: the free lists come first */
        buckets = a.tree.bucket_top;
        if (!ot_point_build(&b, pts, NULL, n, 0, 5, bucket, 12, nodes - 1u, buckets))
            return;
        for (k = 0; k < i; k++)
            CHECK(copse_octree_insert(&b.tree, k) == COPSE_OK);
        st = copse_octree_insert(&b.tree, i);
        if (st == COPSE_ERR_NOMEM) {
            ot_point_tree c;
            uint32_t want_nodes = b.tree.max_nodes + b.tree.nodes_short,
                     want_buckets = b.tree.max_buckets + b.tree.buckets_short;
            if (!ot_point_build(&c, pts, NULL, n, 0, 5, bucket, 12, want_nodes - 1u, want_buckets))
                return;
            for (k = 0; k < i; k++)
                CHECK(copse_octree_insert(&c.tree, k) == COPSE_OK);
            CHECKF(copse_octree_insert(&c.tree, i) == COPSE_OK, "%s: the shortfall was not enough", tk_ctx());
            if (want_nodes > 1u || want_buckets > 0u) {
                ot_point_tree d; /* and one less is not */
                bool nodes_side = b.tree.nodes_short > 0u;
                if (!ot_point_build(&d, pts, NULL, n, 0, 5, bucket, 12, want_nodes - 1u - (nodes_side ? 1u : 0u), want_buckets - (nodes_side ? 0u : 1u)))
                    return;
                for (k = 0; k < i; k++)
                    (void)copse_octree_insert(&d.tree, k);
                CHECKF(copse_octree_insert(&d.tree, i) == COPSE_ERR_NOMEM, "%s: less than the shortfall fit",
                       tk_ctx());
            }
            checked++;
        }
        tk_rewind(m2);
    }
    tk_rewind(mark);
}

static bool stop_now(void *user, const copse_neighbor *n)
{
    (void)user;
    (void)n;
    return false;
}

static bool count_visit(void *user, uint32_t id)
{
    (void)id;
    ++*(uint32_t *)user;
    return true;
}

/* Bad input: a specific status, an empty answer, the tree as it was. */
static void test_errors(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_OCTREE_BYTES(16, 16, 4));
    COPSE_ARENA_STORAGE(smem, COPSE_OCTREE_BUILD_SCRATCH_BYTES(8, 8));
    copse_vec3 pts[8];
    copse_octree_config cfg;
    copse_arena arena, scratch;
    copse_octree t;
    uint32_t ids[4], visited = 0, i, before;
    copse_id_list list = copse_id_list_make(ids, 4);
    copse_neighbor nb[2];
    copse_neighbor_list nl = copse_neighbor_list_make(nb, 2);
    copse_nearest3 near;
    copse_box3 box = copse_box3_make(0, 0, 0, 1, 1, 1), bad_box = copse_box3_make(1, 0, 0, 0, 1, 1);
    copse_sphere sphere = {{0, 0, 0}, 1.0f};
    copse_capsule cap = {{{0, 0, 0}, {1, 1, 1}}, 0.5f};
    for (i = 0; i < 8u; i++)
        pts[i] = copse_v3((float)i, (float)(i % 3u), 0.5f);
    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.point_capacity = 8;
    cfg.bounds = copse_box3_make(0, 0, 0, 8, 8, 8);
    cfg.max_nodes = 16;
    cfg.max_buckets = 16;
    cfg.leaf_size = 4;
    cfg.bucket_size = 4;
    cfg.max_depth = 8;
    copse_arena_init(&arena, mem, sizeof mem);
    copse_arena_init(&scratch, smem, sizeof smem);
    CHECK_STATUS(copse_octree_init(NULL, &arena, &cfg), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_init(&t, NULL, &cfg), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_init(&t, &arena, NULL), COPSE_ERR_NULL);
    {
        copse_octree_config c = cfg;
        c.bucket_size = 0;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_PARAM);
        c.bucket_size = COPSE_OCTREE_MAX_BUCKET + 1u;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_PARAM);
        c = cfg;
        c.max_depth = COPSE_OCTREE_MAX_DEPTH + 1u;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_PARAM);
        c = cfg;
        c.max_nodes = 0;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_PARAM);
        c = cfg;
        c.point_capacity = COPSE_OCTREE_MAX_POINTS + 1u;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_PARAM);
        c = cfg;
        c.points = NULL;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_NULL);
        c = cfg;
        c.bounds.max.y = NAN;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_NONFINITE);
        c = cfg;
        c.bounds.min.x = INFINITY;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_NONFINITE);
        c = cfg;
        c.bounds.min.z = 9.0f;
        CHECK_STATUS(copse_octree_init(&t, &arena, &c), COPSE_ERR_EMPTY_RANGE);
        CHECK(copse_octree_bytes(&c) == copse_octree_bytes(&cfg));
        c.max_buckets = COPSE_OCTREE_MAX_POINTS + 1u;
        CHECK(copse_octree_bytes(&c) == (size_t)-1);
        c.max_buckets = 16;
        c.max_nodes = COPSE_OCTREE_MAX_POINTS + 1u;
        CHECK(copse_octree_bytes(&c) == (size_t)-1);
        CHECK(copse_octree_bytes(NULL) == (size_t)-1);
        CHECK_EQ_INT(arena.used, 0);
        /* a refused init leaves a tree that queries safely and refuses changes */
        CHECK_STATUS(copse_octree_overlap_box(&t, &box, &list), COPSE_OK);
        CHECK_EQ_INT(list.count, 0);
        CHECK_STATUS(copse_octree_knn(&t, copse_v3(0, 0, 0), FLT_MAX, &nl), COPSE_OK);
        CHECK_EQ_INT(nl.count, 0);
        CHECK_STATUS(copse_octree_insert(&t, 0), COPSE_ERR_PARAM);
        CHECK_STATUS(copse_octree_build(&t, &scratch, 8), COPSE_ERR_PARAM);
        CHECK_STATUS(copse_octree_check(&t), COPSE_OK);
    }
    CHECK_STATUS(copse_octree_init(&t, &arena, &cfg), COPSE_OK);
    CHECK_STATUS(copse_octree_build(&t, &scratch, 8), COPSE_OK);
    before = ot_point_hash(&t);
    /* changes */
    CHECK_STATUS(copse_octree_build(&t, &scratch, 9), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_octree_build(&t, NULL, 8), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_build(NULL, &scratch, 8), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_insert(&t, 8), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_octree_insert(&t, 3), COPSE_ERR_INDEX); /* already in */
    CHECK_STATUS(copse_octree_insert(NULL, 3), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_remove(&t, 8), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_octree_remove(NULL, 0), COPSE_ERR_NULL);
    pts[5].y = NAN;
    CHECK_STATUS(copse_octree_build(&t, &scratch, 8), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_remove(&t, 5), COPSE_ERR_NONFINITE);
    pts[5].y = 2.0f;
    CHECK(ot_point_hash(&t) == before);
    CHECK_STATUS(copse_octree_remove(&t, 5), COPSE_OK);
    CHECK_STATUS(copse_octree_remove(&t, 5), COPSE_ERR_INDEX); /* not in any more */
    pts[5].y = -INFINITY;
    CHECK_STATUS(copse_octree_insert(&t, 5), COPSE_ERR_NONFINITE);
    pts[5].y = 2.0f;
    CHECK_STATUS(copse_octree_insert(&t, 5), COPSE_OK);
    CHECK_STATUS(copse_octree_check(&t), COPSE_OK);
    /* queries */
    CHECK_STATUS(copse_octree_overlap_box(&t, &bad_box, &list), COPSE_ERR_EMPTY_RANGE);
    CHECK_EQ_INT(list.count, 0);
    bad_box = box;
    bad_box.min.y = NAN;
    CHECK_STATUS(copse_octree_overlap_box(&t, &bad_box, &list), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_overlap_box(&t, NULL, &list), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_overlap_box(NULL, &box, &list), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_overlap_box(&t, &box, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_visit_box(&t, &box, NULL, NULL), COPSE_ERR_NULL);
    {
        copse_id_list nolist = copse_id_list_make(NULL, 3);
        CHECK_STATUS(copse_octree_overlap_box(&t, &box, &nolist), COPSE_ERR_NULL);
    }
    sphere.radius = -1.0f;
    CHECK_STATUS(copse_octree_overlap_sphere(&t, &sphere, &list), COPSE_ERR_EMPTY_RANGE);
    sphere.radius = NAN;
    CHECK_STATUS(copse_octree_visit_sphere(&t, &sphere, count_visit, &visited), COPSE_ERR_NONFINITE);
    CHECK_EQ_INT(visited, 0);
    cap.radius = -0.5f;
    CHECK_STATUS(copse_octree_overlap_capsule(&t, &cap, &list), COPSE_ERR_EMPTY_RANGE);
    cap.radius = 0.5f;
    cap.segment.b.x = INFINITY;
    CHECK_STATUS(copse_octree_any_capsule(&t, &cap, NULL, &i), COPSE_ERR_NONFINITE);
    CHECK(i == COPSE_NONE);
    CHECK_STATUS(copse_octree_any_capsule(&t, &cap, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_knn(&t, copse_v3(NAN, 0, 0), FLT_MAX, &nl), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_knn(&t, copse_v3(0, 0, 0), -1.0f, &nl), COPSE_ERR_EMPTY_RANGE);
    CHECK_STATUS(copse_octree_knn(&t, copse_v3(0, 0, 0), NAN, &nl), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_knn(&t, copse_v3(0, 0, 0), 1.0f, NULL), COPSE_ERR_NULL);
    { /* the work buffer's own statuses, each with an empty list */
        size_t mark = tk_mark();
        unsigned char *work = (unsigned char *)tk_alloc(COPSE_OCTREE_KNN_WORK_BYTES + 8u);
        if (work != NULL) {
            nl.count = 7;
            CHECK_STATUS(copse_octree_knn_in(&t, copse_v3(0, 0, 0), 1.0f, NULL, 4096, &nl), COPSE_ERR_NULL);
            CHECK_EQ_INT(nl.count, 0);
            nl.count = 7;
            CHECK_STATUS(copse_octree_knn_in(&t, copse_v3(0, 0, 0), 1.0f, work + 4, COPSE_OCTREE_KNN_WORK_BYTES, &nl),
                         COPSE_ERR_ALIGN);
            CHECK_EQ_INT(nl.count, 0);
            nl.count = 7;
            CHECK_STATUS(copse_octree_knn_in(&t, copse_v3(0, 0, 0), 1.0f, work, COPSE_OCTREE_KNN_WORK_BYTES - 1u, &nl),
                         COPSE_ERR_NOMEM);
            CHECK_EQ_INT(nl.count, 0);
            CHECK_STATUS(copse_octree_knn_in(&t, copse_v3(NAN, 0, 0), 1.0f, work, COPSE_OCTREE_KNN_WORK_BYTES, &nl),
                         COPSE_ERR_NONFINITE);
            CHECK_STATUS(copse_octree_knn_in(&t, copse_v3(0, 0, 0), 1.0f, work, COPSE_OCTREE_KNN_WORK_BYTES, NULL),
                         COPSE_ERR_NULL);
        }
        tk_rewind(mark);
    }
    CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, 0, 0), 1.0f, NULL, 2, stop_now, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, 0, 0), 1.0f, nb, 0, stop_now, NULL), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, 0, 0), 1.0f, nb, 2, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, NAN, 0), 1.0f, nb, 2, stop_now, NULL),
                 COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_octree_visit_nearest(&t, copse_v3(0, 0, 0), -2.0f, nb, 2, stop_now, NULL),
                 COPSE_ERR_EMPTY_RANGE);
    CHECK_EQ_INT(nl.count, 0);
    CHECK_STATUS(copse_octree_nearest(&t, copse_v3(0, INFINITY, 0), 1.0f, &near), COPSE_ERR_NONFINITE);
    CHECK(near.id == COPSE_NONE);
    CHECK_STATUS(copse_octree_nearest(&t, copse_v3(0, 0, 0), 1.0f, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_nearest(&t, copse_v3(0, 0, 0), 0.0f, &near), COPSE_OK);
    CHECK(near.id == COPSE_NONE && near.distance_sq == FLT_MAX);
    CHECK_STATUS(copse_octree_nearest(&t, copse_v3(0, 0, 0.5f), 0.0f, &near), COPSE_OK);
    CHECK(near.id == 0u && near.distance_sq == 0.0f);
    CHECK(ot_point_hash(&t) != 0u && copse_octree_check(&t) == COPSE_OK);
    /* a corrupted tree is caught */
    t.nodes[0].min[0] -= 1.0f;
    CHECK_STATUS(copse_octree_check(&t), COPSE_ERR_PARAM);
    t.nodes[0].min[0] += 1.0f;
    CHECK_STATUS(copse_octree_check(&t), COPSE_OK);
    t.size++;
    CHECK_STATUS(copse_octree_check(&t), COPSE_ERR_PARAM);
    t.size--;
    CHECK_STATUS(copse_octree_check(NULL), COPSE_ERR_NULL);
}

/* A fixed cloud's tree bytes, printed for comparison across machines and checked stable. */
static void test_checksums(void)
{
    unsigned kind;
    tk_pool_reset();
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        size_t mark = tk_mark();
        copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * 40u);
        ot_point_tree a, b;
        test_rng rng;
        uint32_t i, ha;
        if (pts == NULL)
            return;
        test_rng_seed(&rng, 2024);
        ot_make_cloud(pts, 40, (ot_cloud_kind)kind, &rng);
        tk_context("checksum %s", ot_cloud_name((ot_cloud_kind)kind));
        if (!ot_point_build(&a, pts, NULL, 40, 40, 4, 4, 10, 0, 0) || !ot_point_build(&b, pts, NULL, 40, 0, 4, 4, 10, 60, 40))
            return;
        ha = ot_point_hash(&a.tree);
        for (i = 0; i < 40u; i++)
            (void)copse_octree_insert(&b.tree, (i * 17u) % 40u);
        CHECK(copse_octree_check(&b.tree) == COPSE_OK);
        copse_port_printf("info octree checksum %s: build %08x inserts %08x\n", ot_cloud_name((ot_cloud_kind)kind),
                          (unsigned)ha, (unsigned)ot_point_hash(&b.tree));
        tk_rewind(mark);
    }
}

void suite_octree_point(void)
{
    test_run("octree_point/queries", test_queries);
    test_run("octree_point/knn_split_planes", test_knn_split_planes);
    test_run("octree_point/dynamic", test_dynamic);
    test_run("octree_point/depth_and_same_count", test_depth_and_same_count);
    test_run("octree_point/guard", test_guard);
    test_run("octree_point/nomem", test_nomem);
    test_run("octree_point/nomem_exact", test_nomem_exact);
    test_run("octree_point/errors", test_errors);
    test_run("octree_point/checksums", test_checksums);
}

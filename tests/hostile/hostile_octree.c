/* SPDX-License-Identifier: MIT */
/* Hostile cases: octree.h (the point octree and the loose object octree). */
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

#define OCT_QUERY (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) | HZ_S(ERR_PARAM))
#define OCT_CHANGE (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_INDEX) | HZ_S(ERR_PARAM) | HZ_S(ERR_NONFINITE) | \
                    HZ_S(ERR_NOMEM) | HZ_S(ERR_READ_ONLY) | HZ_S(ERR_EMPTY_RANGE))
#define OCT_VIEW_FAIL (~(uint64_t)HZ_S(OK))

/* A fresh point octree over the fixture's points (its own pools, malloc'd: the caller frees
 * *mem), built from `count` points. */
static copse_status oct_make(copse_octree *t, void **mem, const copse_octree_config *cfg, uint32_t count)
{
    copse_arena a, s;
    size_t bytes = copse_octree_bytes(cfg);
    size_t sb;
    copse_status st;
    if (bytes == SIZE_MAX || bytes > (64u << 20))
        bytes = 4096u; /* what the config asks is out of reach: init must refuse it */
    *mem = malloc(bytes + COPSE_OCTREE_BUILD_SCRATCH_BYTES(64, 20) + 64u);
    if (*mem == NULL)
        abort();
    copse_arena_init(&a, *mem, bytes + COPSE_OCTREE_BUILD_SCRATCH_BYTES(64, 20) + 64u);
    st = copse_octree_init(t, &a, cfg);
    if (st != COPSE_OK || count == 0u)
        return st;
    sb = copse_octree_build_scratch_bytes(t, count);
    s = a;
    (void)sb;
    return copse_octree_build(t, &s, count);
}


/* ---- configuration, init, build, measure, insert, remove, clear ---------------------------------- */

static void config_cases(const hz_fix *f)
{
    copse_octree_config c = hz_octree_config(f), g;
    copse_octree t, zero;
    copse_arena a, s;
    void *mem;
    uint32_t i, nodes, buckets;
    unsigned k;
    struct {
        size_t off;
        uint32_t v;
    } limits[] = {
        {offsetof(copse_octree_config, max_nodes), 0u},
        {offsetof(copse_octree_config, max_nodes), COPSE_OCTREE_MAX_POINTS + 1u},
        {offsetof(copse_octree_config, max_buckets), COPSE_OCTREE_MAX_POINTS + 1u},
        {offsetof(copse_octree_config, leaf_size), 0u},
        {offsetof(copse_octree_config, bucket_size), 0u},
        {offsetof(copse_octree_config, bucket_size), COPSE_OCTREE_MAX_BUCKET},
        {offsetof(copse_octree_config, bucket_size), COPSE_OCTREE_MAX_BUCKET + 1u},
        {offsetof(copse_octree_config, max_depth), COPSE_OCTREE_MAX_DEPTH},
        {offsetof(copse_octree_config, max_depth), COPSE_OCTREE_MAX_DEPTH + 1u},
        {offsetof(copse_octree_config, point_capacity), 0u},
        {offsetof(copse_octree_config, point_capacity), COPSE_OCTREE_MAX_POINTS + 1u},
        {offsetof(copse_octree_config, max_buckets), 0u},
    };
    memset(&zero, 0, sizeof zero);
    /* bytes and init: NULLs, every limit and one past it, garbage and hostile bounds */
    HZ(copse_octree_bytes);
    HZ_CHECK(copse_octree_bytes(NULL) == SIZE_MAX);
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_octree_init);
    HZ_IS(copse_octree_init(NULL, &a, &c), COPSE_ERR_NULL);
    HZ(copse_octree_init);
    HZ_IS(copse_octree_init(&t, NULL, &c), COPSE_ERR_NULL);
    HZ(copse_octree_init);
    HZ_IS(copse_octree_init(&t, &a, NULL), COPSE_ERR_NULL);
    g = c;
    g.points = NULL;
    HZ(copse_octree_init);
    HZ_IS(copse_octree_init(&t, &a, &g), COPSE_ERR_NULL);
    HZ_CHECK(a.used == 0u);
    hz_guards();
    for (k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        size_t b;
        copse_status st;
        g = c;
        memcpy((uint8_t *)&g + limits[k].off, &limits[k].v, sizeof(uint32_t));
        HZ(copse_octree_bytes);
        b = copse_octree_bytes(&g);
        HZ(copse_octree_init);
        st = oct_make(&t, &mem, &g, 0);
        HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM) | HZ_S(ERR_NOMEM));
        HZ_CHECK(st != COPSE_OK || b != SIZE_MAX);
        HZ_CHECK(b == SIZE_MAX || b < (size_t)1 << (sizeof(size_t) * 8u - 1u)); /* saturates, never wraps */
        if (st == COPSE_OK) { /* the limits themselves work */
            copse_arena sc;
            uint8_t *sm = (uint8_t *)hz_buf(COPSE_OCTREE_BUILD_SCRATCH_BYTES(HZ_POINTS, 20), 0);
            copse_arena_init(&sc, sm, COPSE_OCTREE_BUILD_SCRATCH_BYTES(HZ_POINTS, 20));
            HZ(copse_octree_build);
            HZ_EXPECT(copse_octree_build(&t, &sc, g.point_capacity < HZ_POINTS ? g.point_capacity : HZ_POINTS),
                      OCT_CHANGE);
            HZ(copse_octree_check);
            HZ_IS(copse_octree_check(&t), COPSE_OK);
        }
        free(mem);
        hz_guards();
    }
    for (k = 0; k < HZ_NGARBAGE; k++) {
        copse_status st;
        hz_garbage(&g, sizeof g, k);
        g.points = f->pts;
        g.ids = NULL;
        if (g.point_capacity > HZ_POINTS)
            g.point_capacity = HZ_POINTS; /* the points array is the caller's promise */
        HZ(copse_octree_bytes);
        (void)copse_octree_bytes(&g);
        HZ(copse_octree_init);
        st = oct_make(&t, &mem, &g, 0);
        HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM) | HZ_S(ERR_NOMEM) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE));
        free(mem);
    }
    for (k = 0; k < hz_nfloats; k++) {
        copse_status st;
        unsigned slot;
        for (slot = 0; slot < 6u; slot++) {
            g = c;
            memcpy((uint8_t *)&g.bounds + 4u * slot, &hz_floats[k], sizeof(float));
            HZ(copse_octree_init);
            st = oct_make(&t, &mem, &g, 0);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) | HZ_S(ERR_PARAM));
            free(mem);
        }
    }
    /* init one byte short: NOMEM, nothing taken */
    {
        size_t b = copse_octree_bytes(&c);
        copse_arena_init(&a, hz_buf(b - 1u, 0), b - 1u);
        HZ(copse_octree_init);
        HZ_IS(copse_octree_init(&t, &a, &c), COPSE_ERR_NOMEM);
        HZ_CHECK(a.used == 0u && a.needed == b && t.size == 0u);
        hz_guards();
    }
    /* build, measure, scratch bytes: NULLs, counts past the capacity, short scratch, hostile points */
    HZ(copse_octree_init);
    HZ_IS(oct_make(&t, &mem, &c, 0), COPSE_OK);
    HZ(copse_octree_build_scratch_bytes);
    HZ_CHECK(copse_octree_build_scratch_bytes(NULL, 3) == SIZE_MAX || copse_octree_build_scratch_bytes(NULL, 3) == 0u);
    HZ(copse_octree_build_scratch_bytes);
    HZ_CHECK(copse_octree_build_scratch_bytes(&t, HZ_POINTS) == COPSE_OCTREE_BUILD_SCRATCH_BYTES(HZ_POINTS, 6));
    HZ(copse_octree_build_scratch_bytes);
    (void)copse_octree_build_scratch_bytes(&zero, 5);
    HZ(copse_octree_build);
    HZ_IS(copse_octree_build(NULL, &a, 3), COPSE_ERR_NULL);
    HZ(copse_octree_build);
    HZ_IS(copse_octree_build(&t, NULL, 3), COPSE_ERR_NULL);
    {
        size_t sb = copse_octree_build_scratch_bytes(&t, HZ_POINTS);
        copse_arena_init(&s, hz_buf(sb, 0), sb);
        HZ(copse_octree_build);
        HZ_IS(copse_octree_build(&t, &s, HZ_POINTS + 1u), COPSE_ERR_PARAM);
        HZ(copse_octree_build);
        HZ_IS(copse_octree_build(&t, &s, HZ_POINTS), COPSE_OK);
        HZ_CHECK(s.used == 0u && t.size == HZ_POINTS);
        copse_arena_init(&s, hz_buf(sb - 1u, 0), sb - 1u);
        HZ(copse_octree_build);
        HZ_IS(copse_octree_build(&t, &s, HZ_POINTS), COPSE_ERR_NOMEM);
        HZ_CHECK(s.needed == sb && t.size == HZ_POINTS); /* unchanged */
        copse_arena_init(&s, hz_buf(sb, 0), sb);
        HZ(copse_octree_measure);
        HZ_IS(copse_octree_measure(&t, &s, HZ_POINTS, &nodes, &buckets), COPSE_OK);
        HZ(copse_octree_measure);
        HZ_IS(copse_octree_measure(&t, &s, HZ_POINTS, NULL, &buckets), COPSE_ERR_NULL);
        HZ(copse_octree_measure);
        HZ_IS(copse_octree_measure(NULL, &s, HZ_POINTS, &nodes, &buckets), COPSE_ERR_NULL);
        HZ(copse_octree_measure);
        HZ_IS(copse_octree_measure(&t, &s, HZ_POINTS + 1u, &nodes, &buckets), COPSE_ERR_PARAM);
        HZ(copse_octree_build);
        HZ_IS(copse_octree_build(&t, &s, 0), COPSE_OK);
        HZ_CHECK(t.size == 0u);
        hz_guards();
    }
    free(mem);
    /* hostile points, and ids of COPSE_NONE */
    {
        copse_vec3 pts[8];
        uint32_t ids[8];
        unsigned v, slot;
        for (v = 0; v < hz_nfloats; v++)
            for (slot = 0; slot < 3u; slot++) {
                copse_status st;
                for (i = 0; i < 8u; i++)
                    pts[i] = f->pts[i];
                memcpy((uint8_t *)&pts[5] + 4u * slot, &hz_floats[v], sizeof(float));
                g = c;
                g.points = pts;
                g.point_capacity = 8;
                HZ(copse_octree_build);
                st = oct_make(&t, &mem, &g, 8);
                HZ_EXPECT(st, OCT_CHANGE);
                if (st == COPSE_OK)
                    HZ_IS(copse_octree_check(&t), COPSE_OK);
                HZ(copse_octree_insert);
                st = copse_octree_insert(&t, 5);
                HZ_EXPECT(st, OCT_CHANGE);
                free(mem);
            }
        for (i = 0; i < 8u; i++)
            ids[i] = i == 3u ? COPSE_NONE : i;
        g = c;
        g.ids = ids;
        g.point_capacity = 8;
        HZ(copse_octree_build);
        HZ_IS(oct_make(&t, &mem, &g, 8), COPSE_ERR_PARAM);
        HZ(copse_octree_insert);
        HZ_IS(copse_octree_insert(&t, 3), COPSE_ERR_PARAM);
        HZ(copse_octree_insert);
        HZ_IS(copse_octree_insert(&t, 2), COPSE_OK);
        free(mem);
    }
    /* insert and remove: out of range, twice, never in; NOMEM on a tiny pool leaves the tree */
    g = c;
    g.max_nodes = 1;
    g.max_buckets = 2;
    g.leaf_size = 1;
    g.bucket_size = 1;
    HZ(copse_octree_init);
    HZ_IS(oct_make(&t, &mem, &g, 0), COPSE_OK);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(NULL, 0), COPSE_ERR_NULL);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&t, HZ_POINTS), COPSE_ERR_INDEX);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&t, 0xFFFFFFFFu), COPSE_ERR_INDEX);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&t, 0), COPSE_OK);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&t, 0), COPSE_ERR_INDEX);
    for (i = 1; i < 6u; i++) { /* one node: the first split runs out of it */
        copse_status st;
        HZ(copse_octree_insert);
        st = copse_octree_insert(&t, i);
        HZ_EXPECT(st, OCT_CHANGE);
        if (st == COPSE_ERR_NOMEM)
            HZ_CHECK(t.nodes_short > 0u || t.buckets_short > 0u);
        HZ_IS(copse_octree_check(&t), COPSE_OK);
    }
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(NULL, 0), COPSE_ERR_NULL);
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&t, HZ_POINTS + 7u), COPSE_ERR_INDEX);
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&t, 30), COPSE_ERR_INDEX);
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&t, 0), COPSE_OK);
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&t, 0), COPSE_ERR_INDEX);
    HZ(copse_octree_clear);
    copse_octree_clear(&t);
    HZ_CHECK(t.size == 0u && copse_octree_check(&t) == COPSE_OK);
    HZ(copse_octree_clear);
    copse_octree_clear(NULL);
    HZ(copse_octree_clear);
    copse_octree_clear(&zero);
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&zero, 0), COPSE_ERR_PARAM); /* never initialised */
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&zero, 0), COPSE_ERR_PARAM);
    free(mem);
}

/* ---- queries ---------------------------------------------------------------------------------------- */

static const copse_octree *g_t;

HZ_IDQ(copse_octree_overlap_box, copse_octree_visit_box, copse_octree, copse_box3)
HZ_IDQ(copse_octree_overlap_sphere, copse_octree_visit_sphere, copse_octree, copse_sphere)
HZ_IDQ(copse_octree_overlap_capsule, copse_octree_visit_capsule, copse_octree, copse_capsule)

static void any_capsule_mutant(void *ctx, const void *m)
{
    copse_id_list l = hz_ids(64);
    copse_status st, sa;
    uint32_t id = 0x5A5Au;
    (void)ctx;
    HZ(copse_octree_overlap_capsule);
    st = copse_octree_overlap_capsule(g_t, (const copse_capsule *)m, &l);
    HZ(copse_octree_any_capsule);
    sa = copse_octree_any_capsule(g_t, (const copse_capsule *)m, NULL, &id);
    HZ_CHECK(sa == st && (st != COPSE_OK || (id != COPSE_NONE) == (l.count > 0u)));
    HZ_CHECK(st == COPSE_OK || id == COPSE_NONE);
    hz_guards();
}

typedef struct knn_arg {
    copse_vec3 p;
    float max;
} knn_arg;

static bool count_nb(void *user, const copse_neighbor *n)
{
    (void)n;
    (*(unsigned *)user)++;
    return true;
}

static void knn_mutant(void *ctx, const void *m)
{
    const knn_arg *a = (const knn_arg *)m;
    copse_neighbor_list l = hz_neighbors(8), c0 = hz_neighbors(0);
    copse_neighbor *scratch = (copse_neighbor *)hz_buf(sizeof(copse_neighbor) * 3u, 0);
    copse_nearest3 near;
    copse_status st, s0, sv, sn;
    unsigned n = 0;
    (void)ctx;
    HZ(copse_octree_knn);
    st = copse_octree_knn(g_t, a->p, a->max, &l);
    HZ_EXPECT(st, OCT_QUERY);
    hz_neighbors_ok(&l, st);
    HZ(copse_octree_knn);
    s0 = copse_octree_knn(g_t, a->p, a->max, &c0);
    hz_neighbors_ok(&c0, s0);
    { /* the walk in a caller's exact work buffer (guarded after its end): knn's answer */
        copse_neighbor_list l2 = hz_neighbors(8);
        void *work = hz_buf(COPSE_OCTREE_KNN_WORK_BYTES, 0);
        copse_status s2;
        HZ(copse_octree_knn_in);
        s2 = copse_octree_knn_in(g_t, a->p, a->max, work, COPSE_OCTREE_KNN_WORK_BYTES, &l2);
        hz_neighbors_ok(&l2, s2);
        HZ_CHECK(s2 == st && l2.count == l.count && memcmp(l2.items, l.items, sizeof(copse_neighbor) * l.count) == 0);
    }
    HZ(copse_octree_visit_nearest);
    sv = copse_octree_visit_nearest(g_t, a->p, a->max, scratch, 3, count_nb, &n);
    memset(&near, 0x5A, sizeof near);
    HZ(copse_octree_nearest);
    sn = copse_octree_nearest(g_t, a->p, a->max, &near);
    HZ_CHECK(s0 == st && sv == st && sn == st);
    HZ_CHECK(st == COPSE_OK || near.id == COPSE_NONE);
    if (st == COPSE_OK)
        HZ_CHECK(n >= l.count && (near.id != COPSE_NONE) == (l.count > 0u));
    hz_guards();
}

static copse_status again_nearest(hz_re *r)
{
    HZ(copse_octree_visit_nearest);
    return copse_octree_visit_nearest(g_t, copse_v3(0, 0, 0), FLT_MAX, r->scratch[r->depth], 4, hz_re_neighbor, r);
}

static bool stop_nb(void *user, const copse_neighbor *n)
{
    (void)n;
    (*(unsigned *)user)++;
    return false;
}

static void query_cases(const hz_fix *f)
{
    const copse_box3 box = copse_box3_make(-2, -1, -1, 1, 1, 1);
    const copse_sphere sphere = {{0.0f, 0.0f, 0.0f}, 1.5f};
    const copse_capsule cap = {{{-2.0f, 0.0f, 0.0f}, {2.0f, 0.5f, 0.0f}}, 0.75f};
    const knn_arg ka = {{0.5f, 0.25f, 0.0f}, FLT_MAX};
    copse_octree zero, view;
    const copse_octree *trees[3];
    copse_neighbor_list nl;
    copse_neighbor sc[4];
    copse_nearest3 near;
    uint32_t id;
    unsigned t, n;
    hz_re re;
    memset(&zero, 0, sizeof zero);
    HZ(copse_octree_view);
    HZ_IS(copse_octree_view(&view, f->blob_oct, f->n_oct), COPSE_OK);
    trees[0] = &f->oct, trees[1] = &zero, trees[2] = &view;
    /* NULLs */
    hz_idq_nulls(&q_copse_octree_overlap_box, &f->oct, &box);
    hz_idq_nulls(&q_copse_octree_overlap_sphere, &f->oct, &sphere);
    hz_idq_nulls(&q_copse_octree_overlap_capsule, &f->oct, &cap);
    HZ(copse_octree_any_capsule);
    HZ_IS(copse_octree_any_capsule(&f->oct, &cap, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_octree_any_capsule);
    HZ_IS(copse_octree_any_capsule(NULL, &cap, NULL, &id), COPSE_ERR_NULL);
    HZ_CHECK(id == COPSE_NONE);
    HZ(copse_octree_knn);
    HZ_IS(copse_octree_knn(&f->oct, ka.p, ka.max, NULL), COPSE_ERR_NULL);
    nl = copse_neighbor_list_make(NULL, 3);
    HZ(copse_octree_knn);
    HZ_IS(copse_octree_knn(&f->oct, ka.p, ka.max, &nl), COPSE_ERR_NULL);
    HZ(copse_octree_knn_in);
    HZ_IS(copse_octree_knn_in(&f->oct, ka.p, ka.max, hz_buf(COPSE_OCTREE_KNN_WORK_BYTES, 0),
                              COPSE_OCTREE_KNN_WORK_BYTES, NULL), COPSE_ERR_NULL);
    nl = hz_neighbors(3);
    HZ(copse_octree_knn_in);
    HZ_IS(copse_octree_knn_in(&f->oct, ka.p, ka.max, NULL, 0, &nl), COPSE_ERR_NULL);
    HZ_CHECK(nl.count == 0u);
    HZ(copse_octree_knn_in);
    HZ_IS(copse_octree_knn_in(&f->oct, ka.p, ka.max, hz_buf(COPSE_OCTREE_KNN_WORK_BYTES, 1),
                              COPSE_OCTREE_KNN_WORK_BYTES, &nl), COPSE_ERR_ALIGN);
    HZ_CHECK(nl.count == 0u);
    HZ(copse_octree_knn_in);
    HZ_IS(copse_octree_knn_in(&f->oct, ka.p, ka.max, hz_buf(COPSE_OCTREE_KNN_WORK_BYTES - 1u, 0),
                              COPSE_OCTREE_KNN_WORK_BYTES - 1u, &nl), COPSE_ERR_NOMEM);
    HZ_CHECK(nl.count == 0u);
    HZ(copse_octree_knn_in);
    HZ_IS(copse_octree_knn_in(&f->oct, ka.p, ka.max, hz_buf(COPSE_OCTREE_KNN_WORK_BYTES, 0), 0, &nl),
          COPSE_ERR_NOMEM);
    HZ(copse_octree_visit_nearest);
    HZ_IS(copse_octree_visit_nearest(&f->oct, ka.p, ka.max, NULL, 3, count_nb, &n), COPSE_ERR_NULL);
    HZ(copse_octree_visit_nearest);
    HZ_IS(copse_octree_visit_nearest(&f->oct, ka.p, ka.max, sc, 0, count_nb, &n), COPSE_ERR_PARAM);
    HZ(copse_octree_visit_nearest);
    HZ_IS(copse_octree_visit_nearest(&f->oct, ka.p, ka.max, sc, 4, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_octree_nearest);
    HZ_IS(copse_octree_nearest(&f->oct, ka.p, ka.max, NULL), COPSE_ERR_NULL);
    HZ(copse_octree_nearest);
    HZ_IS(copse_octree_nearest(NULL, ka.p, ka.max, &near), COPSE_ERR_NULL);
    HZ_CHECK(near.id == COPSE_NONE);
    hz_guards();
    /* every field of every query shape, on the built tree, a zeroed one and a view */
    for (t = 0; t < 3u; t++) {
        g_t = trees[t];
        hz_idq_mutate(&q_copse_octree_overlap_box, trees[t], &box, sizeof box, OCT_QUERY);
        hz_idq_mutate(&q_copse_octree_overlap_sphere, trees[t], &sphere, sizeof sphere, OCT_QUERY);
        hz_idq_mutate(&q_copse_octree_overlap_capsule, trees[t], &cap, sizeof cap, OCT_QUERY);
        hz_mutate(&cap, sizeof cap, any_capsule_mutant, NULL);
        hz_mutate(&ka, sizeof ka, knn_mutant, NULL);
    }
    /* visitors: stop, call again (visit_nearest with a scratch of its own per level) */
    g_t = &f->oct;
    n = 0;
    HZ(copse_octree_visit_nearest);
    HZ_IS(copse_octree_visit_nearest(&f->oct, ka.p, FLT_MAX, sc, 4, stop_nb, &n), COPSE_OK);
    HZ_CHECK(n == 1u);
    hz_idq_visitors(&q_copse_octree_overlap_box, &f->oct, &box);
    hz_idq_visitors(&q_copse_octree_overlap_capsule, &f->oct, &cap);
    memset(&re, 0, sizeof re);
    re.call = again_nearest;
    hz_reenter(&re);
    /* a view is read-only */
    HZ(copse_octree_insert);
    HZ_IS(copse_octree_insert(&view, 0), COPSE_ERR_READ_ONLY);
    HZ(copse_octree_remove);
    HZ_IS(copse_octree_remove(&view, 0), COPSE_ERR_READ_ONLY);
    {
        copse_arena s;
        copse_arena_init(&s, hz_buf(4096, 0), 4096);
        HZ(copse_octree_build);
        HZ_IS(copse_octree_build(&view, &s, 1), COPSE_ERR_READ_ONLY);
        HZ(copse_octree_clear);
        copse_octree_clear(&view);
        HZ_CHECK(view.size == f->oct.size);
        hz_guards();
    }
}

/* ---- saving, viewing, stats, check --------------------------------------------------------------- */

HZ_BLOB_OPS(copse_octree, octree, x->nodes == NULL && x->size == 0u)

static void blob_cases(const hz_fix *f)
{
    copse_octree zero, copy;
    copse_octree_stats stats;
    unsigned k;
    memset(&zero, 0, sizeof zero);
    hz_blob_family(&ops_octree, &f->oct, f->blob_oct, f->n_oct, f->blob_loose, f->n_loose);
    /* stats and check: NULLs, zeroed, damaged copies of the pools */
    HZ(copse_octree_get_stats);
    HZ_IS(copse_octree_get_stats(NULL, &stats), COPSE_ERR_NULL);
    HZ(copse_octree_get_stats);
    HZ_IS(copse_octree_get_stats(&f->oct, NULL), COPSE_ERR_NULL);
    HZ(copse_octree_get_stats);
    HZ_EXPECT(copse_octree_get_stats(&zero, &stats), HZ_S(OK) | HZ_S(ERR_PARAM));
    HZ(copse_octree_get_stats);
    HZ_IS(copse_octree_get_stats(&f->oct, &stats), COPSE_OK);
    HZ_CHECK(stats.points == HZ_POINTS);
    HZ(copse_octree_check);
    HZ_IS(copse_octree_check(NULL), COPSE_ERR_NULL);
    HZ(copse_octree_check);
    HZ_EXPECT(copse_octree_check(&zero), HZ_S(OK) | HZ_S(ERR_PARAM));
    {
        size_t nb = sizeof(copse_octree_node) * f->oct.max_nodes;
        size_t bb = sizeof(uint32_t) * (f->oct.bucket_size + 1u) * f->oct.max_buckets;
        uint8_t *nodes = (uint8_t *)malloc(nb), *buckets = (uint8_t *)malloc(bb);
        if (nodes == NULL || buckets == NULL)
            abort();
        for (k = 0; k < sizeof(copse_octree_node) * f->oct.nodes_used; k += 5u) {
            copse_status st;
            memcpy(nodes, f->oct.nodes, nb);
            memcpy(buckets, f->oct.buckets, bb);
            nodes[k] ^= (uint8_t)(0x41u + k);
            copy = f->oct;
            copy.nodes = (copse_octree_node *)(void *)nodes;
            copy.buckets = (uint32_t *)(void *)buckets;
            HZ(copse_octree_check);
            st = copse_octree_check(&copy);
            HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_PARAM));
            HZ(copse_octree_get_stats);
            if (st == COPSE_OK)
                HZ_IS(copse_octree_get_stats(&copy, &stats), COPSE_OK);
        }
        free(nodes);
        free(buckets);
    }
}

HZ_TEST("octree/config", config_cases)
HZ_TEST("octree/queries", query_cases)
HZ_TEST("octree/blob", blob_cases)

void hz_octree(void)
{
    HZ_RUN("octree/config", config_cases);
    HZ_RUN("octree/queries", query_cases);
    HZ_RUN("octree/blob", blob_cases);
}

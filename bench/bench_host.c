/* SPDX-License-Identifier: MIT */
/*
 * bench_host: copse's static BVH on the shared meshes, on the host.
 *
 * Per mesh and builder: build time, size, depth and SAH cost; the throughput of
 * every query family, and of the same queries answered by brute force over all
 * triangles (with the answers compared); a leaf-size sweep; traversal counters.
 * Prints markdown tables on stdout (bench/report.py puts them into
 * docs/benchmarks.md) and, with --kv FILE, one machine-readable line per rate.
 *
 * Method: query sets come from fixed seeds and are generated once per mesh. For each
 * family, brute force and the trees take turns (measure_round_robin): each rate is the
 * median of --runs rounds over the whole set, after one untimed warm-up run of each
 * tree. Brute force answers the first queries of each set only, as many as fit a
 * budget of triangle tests, and its rate is per query as well.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "copse/copse.h"
#include "host_clock.h"
#include "mesh_load.h"
#include "trav_stats.h"

/* ---- options ------------------------------------------------------------------------------- */

#define MAX_FILTER 16

typedef struct options {
    const char *data;
    const char *meshes[MAX_FILTER];
    unsigned mesh_count;
    const char *family;  /* only this query family (profiling) */
    const char *builder; /* only this builder */
    const char *sweep;   /* mesh of the leaf-size sweep, "" for none */
    const char *kv;      /* machine-readable output */
    uint32_t queries, runs, build_runs; /* build_runs 0: same as runs */
    double brute_budget; /* triangle (or vertex) tests per brute-force run */
    int brute, stats;
} options;

static options opt;
static FILE *kv_out;

static void usage(void)
{
    fprintf(stderr,
            "usage: bench_host [--data DIR] [--mesh FILE]... [--builder sah|median|midpoint]\n"
            "                  [--family NAME] [--queries N] [--runs N] [--build-runs N] [--brute-budget TESTS]\n"
            "                  [--no-brute] [--no-stats] [--sweep MESH|none] [--kv FILE] [--quick]\n");
    exit(2);
}

static void parse(int argc, char **argv)
{
    int i;
    opt.data = "../shared/data";
    opt.queries = 4096;
    opt.runs = 5;
    opt.brute_budget = 1.5e6;
    opt.brute = 1;
    opt.stats = 1;
    opt.sweep = "dungeon.obj";
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) { /* a fast smoke run while developing */
            opt.queries = 512;
            opt.runs = 3;
            opt.brute_budget = 2e5;
            continue;
        }
        if (strcmp(a, "--no-brute") == 0) {
            opt.brute = 0;
            continue;
        }
        if (strcmp(a, "--no-stats") == 0) {
            opt.stats = 0;
            continue;
        }
        if (v == NULL)
            usage();
        i++;
        if (strcmp(a, "--data") == 0)
            opt.data = v;
        else if (strcmp(a, "--mesh") == 0 && opt.mesh_count < MAX_FILTER)
            opt.meshes[opt.mesh_count++] = v;
        else if (strcmp(a, "--family") == 0)
            opt.family = v;
        else if (strcmp(a, "--builder") == 0)
            opt.builder = v;
        else if (strcmp(a, "--sweep") == 0)
            opt.sweep = strcmp(v, "none") == 0 ? "" : v;
        else if (strcmp(a, "--kv") == 0)
            opt.kv = v;
        else if (strcmp(a, "--queries") == 0)
            opt.queries = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(a, "--runs") == 0)
            opt.runs = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(a, "--build-runs") == 0)
            opt.build_runs = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(a, "--brute-budget") == 0)
            opt.brute_budget = strtod(v, NULL);
        else
            usage();
    }
    if (opt.queries == 0 || opt.runs == 0)
        usage();
    if (opt.build_runs == 0)
        opt.build_runs = opt.runs;
}

/* ---- time and statistics ------------------------------------------------------------------- */


/* "12.3M", "456k", "789" queries per second. */
static const char *rate_str(double qps, char *buf, size_t cap)
{
    if (qps >= 1e6)
        snprintf(buf, cap, "%.2fM", qps * 1e-6);
    else if (qps >= 1e3)
        snprintf(buf, cap, "%.1fk", qps * 1e-3);
    else
        snprintf(buf, cap, "%.0f", qps);
    return buf;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1u);
    if (p == NULL) {
        fprintf(stderr, "bench_host: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* ---- query families ---------------------------------------------------------------------- */

enum {
    F_RAY,
    F_RAY_ALL,
    F_BOX,
    F_SPHERE,
    F_SEGMENT,
    F_NEAREST,
    F_NEAREST_VERTEX,
    F_RECT_LEAVES,
    F_RECT,
    F_SEGMENT2,
    F_COUNT
};

static const char *const family_name[F_COUNT] = { "raycast",   "raycast_all",     "overlap_box",
                                                  "overlap_sphere", "overlap_segment", "nearest",
                                                  "nearest_vertex", "overlap_rect_leaves", "overlap_rect",
                                                  "overlap_segment2" };

/* What the "results" column says about a family. */
enum { R_HIT, R_IDS, R_NONE };
static const int family_kind[F_COUNT] = { R_HIT, R_IDS, R_IDS, R_IDS, R_IDS, R_NONE, R_NONE, R_IDS, R_IDS, R_IDS };

static int family_wanted(int f)
{
    return opt.family == NULL || strcmp(opt.family, family_name[f]) == 0;
}

typedef struct query_set {
    uint32_t n;
    copse_ray3 *rays;
    copse_box3 *boxes;
    copse_sphere *spheres;
    copse_segment3 *segments;
    copse_vec3 *points;
    copse_box2 *rects;
    copse_segment2 *segments2;
} query_set;

/* One answer: a hit or nearest id with its t or distance, or an overlap count. */
typedef struct qres {
    uint32_t id;
    float value;
} qres;

typedef struct ctx {
    const bench_scene *scene;
    const query_set *q;
    const copse_bvh *tree3, *tree2;
    uint32_t *ids;
    uint32_t id_cap;
    copse_hit *hits;
    uint32_t hit_cap;
} ctx;

static void gen_queries(query_set *q, const bench_scene *s, uint32_t n)
{
    q->n = n;
    q->rays = xmalloc(n * sizeof *q->rays);
    q->boxes = xmalloc(n * sizeof *q->boxes);
    q->spheres = xmalloc(n * sizeof *q->spheres);
    q->segments = xmalloc(n * sizeof *q->segments);
    q->points = xmalloc(n * sizeof *q->points);
    q->rects = xmalloc(n * sizeof *q->rects);
    q->segments2 = xmalloc(n * sizeof *q->segments2);
    /* one seed per family: each set is independent of the others and of n's history */
    bench_gen_rays(s, 1, q->rays, n);
    bench_gen_boxes(s, 2, q->boxes, n);
    bench_gen_spheres(s, 3, q->spheres, n);
    bench_gen_segments(s, 4, q->segments, n);
    bench_gen_points(s, 5, q->points, n);
    bench_gen_rects_xz(s, 6, q->rects, n);
    bench_gen_segments_xz(s, 7, q->segments2, n);
}

static void free_queries(query_set *q)
{
    free(q->rays);
    free(q->boxes);
    free(q->spheres);
    free(q->segments);
    free(q->points);
    free(q->rects);
    free(q->segments2);
}

static int failed_status;

static void check(copse_status st, const char *what)
{
    if (st != COPSE_OK && !failed_status) {
        fprintf(stderr, "bench_host: %s: %s\n", what, copse_status_str(st));
        failed_status = 1;
    }
}

/* Answers queries [0, n) of family f with copse. */
static void run_copse(const ctx *c, int f, uint32_t n, qres *out)
{
    const query_set *q = c->q;
    copse_id_list list = copse_id_list_make(c->ids, c->id_cap);
    copse_hit_list hits = copse_hit_list_make(c->hits, c->hit_cap);
    copse_hit hit;
    copse_nearest3 near;
    copse_status st = COPSE_OK;
    uint32_t i;
    for (i = 0; i < n; i++) {
        switch (f) {
        case F_RAY:
            st = copse_bvh_raycast(c->tree3, &q->rays[i], &hit);
            out[i].id = hit.id;
            out[i].value = hit.t;
            break;
        case F_RAY_ALL:
            st = copse_bvh_raycast_all(c->tree3, &q->rays[i], &hits);
            out[i].id = hits.count;
            out[i].value = hits.count ? hits.hits[0].t : FLT_MAX;
            break;
        case F_BOX:
            st = copse_bvh_overlap_box(c->tree3, &q->boxes[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_SPHERE:
            st = copse_bvh_overlap_sphere(c->tree3, &q->spheres[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_SEGMENT:
            st = copse_bvh_overlap_segment(c->tree3, &q->segments[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_NEAREST:
            st = copse_bvh_nearest(c->tree3, q->points[i], FLT_MAX, &near);
            out[i].id = near.id;
            out[i].value = sqrtf(near.distance_sq);
            break;
        case F_NEAREST_VERTEX:
            st = copse_bvh_nearest_vertex(c->tree3, q->points[i], FLT_MAX, &near);
            out[i].id = near.id;
            out[i].value = sqrtf(near.distance_sq);
            break;
        case F_RECT_LEAVES:
            st = copse_bvh_overlap_rect(c->tree2, &q->rects[i], COPSE_BVH_SELECT_LEAVES, &list);
            out[i].id = list.count;
            break;
        case F_RECT:
            st = copse_bvh_overlap_rect(c->tree2, &q->rects[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_SEGMENT2:
            st = copse_bvh_overlap_segment2(c->tree2, &q->segments2[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        }
        if (st != COPSE_OK)
            check(st, family_name[f]);
    }
}

/* The same queries by brute force. F_RECT_LEAVES has no brute-force twin. */
static void run_brute(const ctx *c, int f, uint32_t n, qres *out)
{
    const query_set *q = c->q;
    const copse_mesh *m = &c->scene->mesh;
    uint32_t i;
    float v;
    for (i = 0; i < n; i++) {
        out[i].value = 0.0f;
        switch (f) {
        case F_RAY:
            out[i].id = bench_brute_raycast(m, &q->rays[i], &out[i].value);
            break;
        case F_RAY_ALL:
            out[i].id = bench_brute_raycast_count(m, &q->rays[i]);
            break;
        case F_BOX:
            out[i].id = bench_brute_box_count(m, &q->boxes[i]);
            break;
        case F_SPHERE:
            out[i].id = bench_brute_sphere_count(m, &q->spheres[i]);
            break;
        case F_SEGMENT:
            out[i].id = bench_brute_segment_count(m, &q->segments[i]);
            break;
        case F_NEAREST:
            out[i].id = bench_brute_nearest(m, &q->points[i].x, &v);
            out[i].value = sqrtf(v);
            break;
        case F_NEAREST_VERTEX:
            out[i].id = bench_brute_nearest_vertex(m, &q->points[i].x, &v);
            out[i].value = sqrtf(v);
            break;
        case F_RECT:
            out[i].id = bench_brute_rect_xz_count(m, &q->rects[i]);
            break;
        case F_SEGMENT2:
            out[i].id = bench_brute_segment_xz_count(m, &q->segments2[i]);
            break;
        default:
            out[i].id = 0;
            break;
        }
    }
}

/* One contender for a family's query set: brute force or a tree. */
typedef struct contender {
    int brute;
    const copse_bvh *tree3, *tree2;
    uint32_t n;  /* queries [0, n) */
    qres *out;   /* the answers */
    double *rate; /* queries/s, written by measure_round_robin */
    unsigned reps;
    double t[64];
} contender;

/* Queries per second of each contender over its queries [0, n). The contenders take turns:
 * after one untimed warm-up run of each tree (caches, branch predictors, page faults), round r
 * times each of them once, and each rate is the median over opt.runs rounds, so load from other
 * processes on this shared machine hits all contenders alike. A timed run repeats the set until
 * it lasts about 10 ms, so one scheduler tick cannot dominate it. Brute force gets no warm-up
 * (it is slow; its answers come from the rounds). */
static void measure_round_robin(ctx *c, int f, contender *v, unsigned nv)
{
    unsigned i, r, k, runs = opt.runs < 64u ? opt.runs : 64u;
    for (i = 0; i < nv; i++) {
        double t0, warm;
        v[i].reps = 1;
        if (v[i].brute)
            continue;
        c->tree3 = v[i].tree3;
        c->tree2 = v[i].tree2;
        t0 = bench_now_s();
        run_copse(c, f, v[i].n, v[i].out);
        warm = bench_now_s() - t0;
        if (warm < 0.01)
            v[i].reps = (unsigned)(0.01 / (warm > 1e-6 ? warm : 1e-6)) + 1u;
    }
    for (r = 0; r < runs; r++)
        for (i = 0; i < nv; i++) {
            double t0 = bench_now_s();
            c->tree3 = v[i].tree3;
            c->tree2 = v[i].tree2;
            for (k = 0; k < v[i].reps; k++) {
                if (v[i].brute)
                    run_brute(c, f, v[i].n, v[i].out);
                else
                    run_copse(c, f, v[i].n, v[i].out);
            }
            v[i].t[r] = (bench_now_s() - t0) / v[i].reps;
        }
    for (i = 0; i < nv; i++)
        *v[i].rate = (double)v[i].n / bench_median(v[i].t, runs);
}

static int agrees(int f, const qres *a, const qres *b, float tol)
{
    switch (f) {
    case F_RAY:
        if ((a->id == COPSE_NONE) != (b->id == COPSE_NONE))
            return 0;
        return a->id == COPSE_NONE || fabsf(a->value - b->value) <= tol;
    case F_NEAREST:
    case F_NEAREST_VERTEX:
        return fabsf(a->value - b->value) <= tol;
    default:
        return a->id == b->id;
    }
}

/* ---- builders ------------------------------------------------------------------------------ */

static const char *const split_name[3] = { "SAH", "MEDIAN", "MIDPOINT" };
static const char *const split_arg[3] = { "sah", "median", "midpoint" };

typedef struct tree {
    copse_bvh bvh;
    void *mem;
    double build_s; /* median build time */
    copse_bvh_stats stats;
    size_t bytes;
} tree;

static int build_tree(tree *t, const copse_mesh *mesh, copse_bvh_split split, uint32_t leaf, copse_bvh_projection proj,
                      unsigned runs)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    double times[64];
    size_t need;
    unsigned r;
    params.split = split;
    params.leaf_size = leaf;
    params.projection = proj;
    need = copse_bvh_build_bytes(mesh->triangle_count, proj == COPSE_BVH_PROJECT_NONE ? 3u : 2u, &params);
    if (need == (size_t)-1)
        return -1;
    t->mem = xmalloc(need);
    if (runs > 64u)
        runs = 64u;
    for (r = 0; r < runs; r++) {
        copse_arena arena;
        copse_status st;
        double t0;
        copse_arena_init(&arena, t->mem, need);
        t0 = bench_now_s();
        st = copse_bvh_build_mesh(&t->bvh, &arena, mesh, &params);
        times[r] = bench_now_s() - t0;
        if (st != COPSE_OK) {
            fprintf(stderr, "bench_host: build (%s, leaf %u): %s\n", split_name[split], (unsigned)leaf,
                    copse_status_str(st));
            free(t->mem);
            t->mem = NULL;
            return -1;
        }
    }
    t->build_s = bench_median(times, runs);
    t->bytes = copse_bvh_bytes(&t->bvh);
    copse_bvh_get_stats(&t->bvh, &t->stats);
    return 0;
}

static void free_tree(tree *t)
{
    free(t->mem);
    t->mem = NULL;
}

/* ---- one mesh ------------------------------------------------------------------------------ */

typedef struct family_result {
    double rate[3];     /* per builder, queries/s (0: not run) */
    double brute_rate;  /* queries/s */
    uint32_t checked;   /* queries answered by brute force too */
    uint32_t disagree;  /* most disagreements of any builder */
    double results;     /* mean results per query (hit fraction for rays) */
} family_result;

static uint32_t brute_count(int f, const bench_scene *s)
{
    double work = f == F_NEAREST_VERTEX ? (double)s->mesh.vertex_count : (double)s->mesh.triangle_count;
    double n = opt.brute_budget / (work > 1.0 ? work : 1.0);
    if (n < 16.0)
        n = 16.0;
    return n > (double)opt.queries ? opt.queries : (uint32_t)n;
}

static int builder_wanted(int b)
{
    return opt.builder == NULL || strcmp(opt.builder, split_arg[b]) == 0;
}

static void kv(const char *mesh, const char *what, const char *variant, double value)
{
    if (kv_out)
        fprintf(kv_out, "%s %s %s %.6g\n", mesh, what, variant, value);
}

typedef struct mesh_report {
    char name[64];
    uint32_t tris, verts;
    float diag;
    tree trees[3], trees2[3];
    family_result fam[F_COUNT];
    trav_count stats_sum[3][3]; /* builder x {ray, box, nearest}, summed over the stats queries */
    uint32_t stats_n, stats_agree[3];
} mesh_report;

static void stats_run(mesh_report *rep, int b, const ctx *c)
{
    uint32_t i, n = c->q->n < 1024u ? c->q->n : 1024u;
    copse_hit hit;
    memset(rep->stats_sum[b], 0, sizeof rep->stats_sum[b]);
    rep->stats_n = n;
    rep->stats_agree[b] = 0;
    for (i = 0; i < n; i++) {
        trav_count tc;
        uint32_t id = trav_raycast(c->tree3, &c->q->rays[i], &tc);
        rep->stats_sum[b][0].box_tests += tc.box_tests;
        rep->stats_sum[b][0].prim_tests += tc.prim_tests;
        copse_bvh_raycast(c->tree3, &c->q->rays[i], &hit);
        rep->stats_agree[b] += id == hit.id;
        trav_box(c->tree3, &c->q->boxes[i], &tc);
        rep->stats_sum[b][1].box_tests += tc.box_tests;
        rep->stats_sum[b][1].prim_tests += tc.prim_tests;
        trav_nearest(c->tree3, &c->q->points[i], &tc);
        rep->stats_sum[b][2].box_tests += tc.box_tests;
        rep->stats_sum[b][2].prim_tests += tc.prim_tests;
    }
}

static int bench_mesh(const char *path, const char *name, mesh_report *rep)
{
    host_mesh hm;
    char err[512];
    copse_mesh mesh;
    bench_scene scene;
    query_set q;
    ctx c;
    qres *out, *ref;
    int f, b;
    double t0 = bench_now_s();

    memset(rep, 0, sizeof *rep);
    snprintf(rep->name, sizeof rep->name, "%s", name);
    if (host_mesh_load(path, &hm, err, sizeof err) != 0) {
        fprintf(stderr, "bench_host: %s\n", err);
        return -1;
    }
    mesh = host_mesh_view(&hm);
    bench_scene_init(&scene, &mesh);
    rep->tris = mesh.triangle_count;
    rep->verts = mesh.vertex_count;
    rep->diag = scene.diag;
    gen_queries(&q, &scene, opt.queries);
    out = xmalloc(3u * q.n * sizeof *out); /* one answer set per builder */
    ref = xmalloc(q.n * sizeof *ref);
    memset(&c, 0, sizeof c);
    c.scene = &scene;
    c.q = &q;
    c.id_cap = mesh.triangle_count;
    c.ids = xmalloc(c.id_cap * sizeof *c.ids);
    c.hit_cap = 4096;
    c.hits = xmalloc(c.hit_cap * sizeof *c.hits);

    for (b = 0; b < 3; b++) {
        if (!builder_wanted(b))
            continue;
        if (build_tree(&rep->trees[b], &mesh, (copse_bvh_split)b, 4, COPSE_BVH_PROJECT_NONE, opt.build_runs) != 0 ||
            build_tree(&rep->trees2[b], &mesh, (copse_bvh_split)b, 4, COPSE_BVH_PROJECT_XZ, opt.build_runs) != 0)
            return -1;
        kv(name, "build_ms", split_arg[b], rep->trees[b].build_s * 1e3);
    }

    for (f = 0; f < F_COUNT; f++) {
        family_result *fr = &rep->fam[f];
        uint32_t nb = brute_count(f, &scene), i;
        contender v[4];
        unsigned nv = 0;
        if (!family_wanted(f))
            continue;
        memset(v, 0, sizeof v);
        if (opt.brute && f != F_RECT_LEAVES) {
            fr->checked = nb;
            v[nv].brute = 1;
            v[nv].n = nb;
            v[nv].out = ref;
            v[nv].rate = &fr->brute_rate;
            nv++;
        }
        for (b = 0; b < 3; b++)
            if (builder_wanted(b)) {
                v[nv].tree3 = &rep->trees[b].bvh;
                v[nv].tree2 = &rep->trees2[b].bvh;
                v[nv].n = q.n;
                v[nv].out = out + (size_t)b * q.n;
                v[nv].rate = &fr->rate[b];
                nv++;
            }
        measure_round_robin(&c, f, v, nv);
        if (fr->checked)
            kv(name, family_name[f], "brute", fr->brute_rate);
        for (b = 0; b < 3; b++) {
            uint32_t bad = 0;
            const qres *ob = out + (size_t)b * q.n;
            if (!builder_wanted(b))
                continue;
            kv(name, family_name[f], split_arg[b], fr->rate[b]);
            for (i = 0; i < fr->checked; i++)
                bad += !agrees(f, &ob[i], &ref[i], 1e-4f * scene.diag);
            if (bad > fr->disagree)
                fr->disagree = bad;
            if (fr->results == 0.0) {
                double sum = 0.0;
                for (i = 0; i < q.n; i++)
                    sum += family_kind[f] == R_HIT ? (double)(ob[i].id != COPSE_NONE) : (double)ob[i].id;
                fr->results = sum / (double)q.n;
            }
        }
    }
    if (opt.stats && opt.family == NULL)
        for (b = 0; b < 3; b++)
            if (builder_wanted(b)) {
                c.tree3 = &rep->trees[b].bvh;
                stats_run(rep, b, &c);
            }

    for (b = 0; b < 3; b++) {
        free_tree(&rep->trees[b]);
        free_tree(&rep->trees2[b]);
    }
    free(c.ids);
    free(c.hits);
    free(out);
    free(ref);
    free_queries(&q);
    host_mesh_free(&hm);
    fprintf(stderr, "bench_host: %s done in %.1f s\n", name, bench_now_s() - t0);
    return 0;
}

/* ---- the leaf-size sweep ------------------------------------------------------------------- */

static void sweep(const char *path, const char *name)
{
    static const uint32_t leaves[] = { 1, 2, 4, 8, 16, 32 };
    enum { NL = sizeof leaves / sizeof leaves[0] };
    static const int fams[] = { F_RAY, F_BOX, F_NEAREST };
    host_mesh hm;
    char err[512], r1[16], r2[16], r3[16];
    copse_mesh mesh;
    bench_scene scene;
    query_set q;
    ctx c;
    qres *out;
    tree t[NL];
    contender v[NL];
    double rate[3][NL];
    unsigned li, k, nv;

    if (host_mesh_load(path, &hm, err, sizeof err) != 0) {
        fprintf(stderr, "bench_host: %s\n", err);
        return;
    }
    mesh = host_mesh_view(&hm);
    bench_scene_init(&scene, &mesh);
    gen_queries(&q, &scene, opt.queries);
    out = xmalloc((size_t)NL * q.n * sizeof *out);
    memset(&c, 0, sizeof c);
    c.scene = &scene;
    c.q = &q;
    c.id_cap = mesh.triangle_count;
    c.ids = xmalloc(c.id_cap * sizeof *c.ids);
    memset(t, 0, sizeof t);
    memset(rate, 0, sizeof rate);

    /* all trees first, then each family with the leaf sizes taking turns (see measure_round_robin) */
    for (li = 0; li < NL; li++)
        build_tree(&t[li], &mesh, COPSE_BVH_SPLIT_SAH, leaves[li], COPSE_BVH_PROJECT_NONE, opt.build_runs);
    for (k = 0; k < 3; k++) {
        memset(v, 0, sizeof v);
        for (li = nv = 0; li < NL; li++)
            if (t[li].mem != NULL) {
                v[nv].tree3 = &t[li].bvh;
                v[nv].n = q.n;
                v[nv].out = out + (size_t)li * q.n;
                v[nv].rate = &rate[k][li];
                nv++;
            }
        measure_round_robin(&c, fams[k], v, nv);
    }

    printf("\n### Leaf-size sweep (SAH, %s, %u triangles)\n\n", name, (unsigned)mesh.triangle_count);
    printf("| leaf | build ms | nodes | bytes | B/tri | depth | SAH cost | raycast q/s | overlap_box q/s | "
           "nearest q/s | boxes/ray | tris/ray |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (li = 0; li < NL; li++) {
        double boxes = 0.0, prims = 0.0;
        uint32_t i, ns = q.n < 1024u ? q.n : 1024u;
        char leaf_name[16];
        if (t[li].mem == NULL)
            continue;
        for (i = 0; i < ns; i++) {
            trav_count tc;
            trav_raycast(&t[li].bvh, &q.rays[i], &tc);
            boxes += tc.box_tests;
            prims += tc.prim_tests;
        }
        printf("| %u | %.2f | %u | %zu | %.1f | %u | %.1f | %s | %s | %s | %.1f | %.1f |\n", (unsigned)leaves[li],
               t[li].build_s * 1e3, (unsigned)t[li].stats.nodes, t[li].bytes,
               (double)t[li].bytes / mesh.triangle_count, (unsigned)t[li].stats.depth, (double)t[li].stats.sah_cost,
               rate_str(rate[0][li], r1, sizeof r1), rate_str(rate[1][li], r2, sizeof r2),
               rate_str(rate[2][li], r3, sizeof r3), boxes / ns, prims / ns);
        snprintf(leaf_name, sizeof leaf_name, "leaf%u", (unsigned)leaves[li]);
        kv(name, "raycast", leaf_name, rate[0][li]);
        free_tree(&t[li]);
    }
    free(c.ids);
    free(out);
    free_queries(&q);
    host_mesh_free(&hm);
}

/* ---- printing ------------------------------------------------------------------------------ */

static void print_builds(const mesh_report *reps, unsigned n)
{
    unsigned i;
    int b, dim;
    printf("\n### Trees (leaf size 4)\n\n");
    printf("Build time is the median of %u builds. Bytes are what the tree keeps (copse_bvh_bytes: nodes + "
           "primitive index; the mesh is the caller's). SAH cost: copse_bvh_get_stats (1 per node + 1 per "
           "triangle, weighted by surface area).\n\n",
           (unsigned)opt.build_runs);
    printf("| mesh | triangles | tree | build ms | nodes | bytes | B/tri | depth | SAH cost |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < n; i++)
        for (dim = 3; dim >= 2; dim--)
            for (b = 0; b < 3; b++) {
                const tree *t = dim == 3 ? &reps[i].trees[b] : &reps[i].trees2[b];
                if (!builder_wanted(b))
                    continue;
                printf("| %s | %u | %s%s | %.2f | %u | %zu | %.1f | %u | %.1f |\n", reps[i].name,
                       (unsigned)reps[i].tris, split_name[b], dim == 3 ? "" : " 2D-XZ", t->build_s * 1e3,
                       (unsigned)t->stats.nodes, t->bytes, (double)t->bytes / reps[i].tris,
                       (unsigned)t->stats.depth, (double)t->stats.sah_cost);
            }
}

static void print_queries(const mesh_report *r)
{
    int f, b;
    char buf[4][16];
    printf("\n### %s (%u triangles, %u vertices, diagonal %.4g)\n\n", r->name, (unsigned)r->tris,
           (unsigned)r->verts, (double)r->diag);
    printf("| query | SAH q/s | MEDIAN q/s | MIDPOINT q/s | brute force q/s | SAH speed-up | results/query | "
           "agrees with brute force |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (f = 0; f < F_COUNT; f++) {
        const family_result *fr = &r->fam[f];
        char res[32], agree[48], speed[24];
        if (!family_wanted(f))
            continue;
        for (b = 0; b < 3; b++) {
            if (fr->rate[b] > 0.0)
                rate_str(fr->rate[b], buf[b], sizeof buf[b]);
            else
                snprintf(buf[b], sizeof buf[b], "-");
        }
        if (fr->brute_rate > 0.0) {
            rate_str(fr->brute_rate, buf[3], sizeof buf[3]);
            if (fr->rate[0] > 0.0)
                snprintf(speed, sizeof speed, "%.0fx", fr->rate[0] / fr->brute_rate);
            else
                snprintf(speed, sizeof speed, "-");
            snprintf(agree, sizeof agree, "%u/%u", (unsigned)(fr->checked - fr->disagree), (unsigned)fr->checked);
        } else {
            snprintf(buf[3], sizeof buf[3], "-");
            snprintf(speed, sizeof speed, "-");
            snprintf(agree, sizeof agree, "-");
        }
        if (family_kind[f] == R_HIT)
            snprintf(res, sizeof res, "%.0f%% hit", 100.0 * fr->results);
        else if (family_kind[f] == R_IDS)
            snprintf(res, sizeof res, "%.1f %s", fr->results,
                     f == F_RECT_LEAVES ? "leaves" : (f == F_RAY_ALL ? "hits" : "tris"));
        else
            snprintf(res, sizeof res, "1");
        printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", family_name[f], buf[0], buf[1], buf[2], buf[3], speed,
               res, agree);
    }
}

static void print_stats(const mesh_report *reps, unsigned n)
{
    unsigned i;
    int b;
    printf("\n### Work per query (leaf size 4)\n\n");
    printf("Node boxes and triangles tested per query, averaged over the first %u queries of each set, "
           "from a replay of copse's walks (bench/trav_stats.c; the replayed first hit matches "
           "copse_bvh_raycast in the last column).\n\n",
           (unsigned)(n ? reps[0].stats_n : 0u));
    printf("| mesh | tree | raycast boxes | raycast tris | overlap_box boxes | overlap_box tris | nearest boxes | "
           "nearest tris | replay = copse |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < n; i++)
        for (b = 0; b < 3; b++) {
            const mesh_report *r = &reps[i];
            double k = r->stats_n ? 1.0 / r->stats_n : 0.0;
            if (!builder_wanted(b) || r->stats_n == 0)
                continue;
            printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f%% |\n", r->name, split_name[b],
                   r->stats_sum[b][0].box_tests * k, r->stats_sum[b][0].prim_tests * k,
                   r->stats_sum[b][1].box_tests * k, r->stats_sum[b][1].prim_tests * k,
                   r->stats_sum[b][2].box_tests * k, r->stats_sum[b][2].prim_tests * k,
                   100.0 * r->stats_agree[b] * k);
        }
}

/* ---- main ---------------------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The meshes to run: --mesh filters, else every .obj/.ply/.stl/.gltf/.glb/.dae in DATA/meshes. */
static unsigned list_meshes(const char *dir, char **names, unsigned cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    unsigned n = 0;
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL && n < cap) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot == NULL || e->d_name[0] == '.')
            continue;
        if (strcmp(dot, ".obj") && strcmp(dot, ".ply") && strcmp(dot, ".stl") && strcmp(dot, ".gltf") &&
            strcmp(dot, ".glb") && strcmp(dot, ".dae"))
            continue;
        names[n] = xmalloc(strlen(e->d_name) + 1u);
        strcpy(names[n], e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    return n;
}

int main(int argc, char **argv)
{
    char dir[1024], path[1280];
    char *names[64];
    mesh_report *reps;
    unsigned n, i, done = 0;

    parse(argc, argv);
    if (opt.kv != NULL && (kv_out = fopen(opt.kv, "w")) == NULL) {
        fprintf(stderr, "bench_host: cannot write %s\n", opt.kv);
        return 1;
    }
    snprintf(dir, sizeof dir, "%s/meshes", opt.data);
    n = list_meshes(dir, names, 64);
    if (n == 0) {
        printf("\n_No meshes: %s is missing or empty (set DATA=path/to/shared/data). The host part was "
               "skipped._\n",
               dir);
        fprintf(stderr, "bench_host: no meshes in %s: skipping the host benchmarks\n", dir);
        return 0;
    }
    reps = xmalloc(n * sizeof *reps);
    for (i = 0; i < n; i++) {
        unsigned k, keep = opt.mesh_count == 0;
        for (k = 0; k < opt.mesh_count; k++)
            keep |= strcmp(opt.meshes[k], names[i]) == 0;
        if (!keep)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (bench_mesh(path, names[i], &reps[done]) == 0)
            done++;
    }
    printf("\n%u queries per family, median of %u runs; brute force answers as many of the first queries of "
           "each set as fit %.0f triangle tests per run (at least 16). Rates are queries per second on one "
           "thread.\n",
           (unsigned)opt.queries, (unsigned)opt.runs, opt.brute_budget);
    print_builds(reps, done);
    printf("\n### Queries (leaf size 4)\n");
    for (i = 0; i < done; i++)
        print_queries(&reps[i]);
    if (opt.stats && opt.family == NULL)
        print_stats(reps, done);
    if (opt.sweep[0] != '\0' && opt.family == NULL) {
        snprintf(path, sizeof path, "%s/%s", dir, opt.sweep);
        sweep(path, opt.sweep);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(reps);
    if (kv_out)
        fclose(kv_out);
    return failed_status;
}

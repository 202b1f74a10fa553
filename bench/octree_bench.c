/* SPDX-License-Identifier: MIT */
/*
 * octree_bench: copse's octrees on the host (make bench-octree, part of make bench).
 *
 *  - the point octree on the real laser scan (88,206 points): build time, bytes per point,
 *    nodes, for buckets of 8, 16 and 32; radius and k-nearest throughput against brute force
 *    over every point, answers compared on the brute-force subset; each tree saved as a blob
 *    and viewed again (blob bytes, save and view times);
 *  - the loose octree on a generated city (buildings, cars, lamp posts): frustum culling
 *    throughput against testing every box.
 *
 * Method: fixed seeds; each rate is the median of --runs rounds, tree and brute force taking
 * turns within each round; brute force answers the first queries of each set only.
 * Prints markdown on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "octree_scan.h"

#define MAX_RUNS 15
#define SHAPES 5u

static unsigned g_runs = 5;
static uint32_t g_queries = 4096, g_brute = 64, g_leaf = 64, g_bucket = 8;

/* ---- the scan -------------------------------------------------------------------------------- */

/* The tree shapes the scan is built in (leaf size, bucket size). */
static const uint32_t k_leaf[SHAPES] = {8, 16, 32, 32, 64}, k_bucket[SHAPES] = {8, 16, 32, 8, 8};

/* Saving each tree as a blob and viewing it again: sizes and times (median of --runs). */
static void bench_blobs(const scan *s)
{
    unsigned b, r;
    printf("## Point octree: the laser scan as a blob (save, then view in place)\n\n");
    printf("| leaf | bucket | blob bytes | bytes/point | save (ms, median) | view (ms, median) |\n");
    printf("|---:|---:|---:|---:|---:|---:|\n");
    for (b = 0; b < SHAPES; b++) {
        double ts[MAX_RUNS], tv[MAX_RUNS], build_ns;
        copse_octree tree, view;
        void *mem = NULL, *blob;
        size_t size, written = 0;
        if (scan_octree(s, k_leaf[b], k_bucket[b], 16, &tree, &mem, &build_ns) != 0) {
            printf("build failed\n");
            exit(1);
        }
        size = copse_octree_save_bytes(&tree);
        blob = malloc(size);
        for (r = 0; r < g_runs; r++) {
            double t0 = bench_now_ns();
            copse_status st = copse_octree_save(&tree, blob, size, &written);
            ts[r] = bench_now_ns() - t0;
            t0 = bench_now_ns();
            if (st == COPSE_OK)
                st = copse_octree_view(&view, blob, size);
            tv[r] = bench_now_ns() - t0;
            if (st != COPSE_OK || view.size != tree.size) {
                printf("blob failed: %s\n", copse_status_str(st));
                exit(1);
            }
        }
        printf("| %u | %u | %lu | %.2f | %.1f | %.1f |\n", (unsigned)k_leaf[b], (unsigned)k_bucket[b],
               (unsigned long)size, (double)size / s->count, bench_median(ts, g_runs) / 1e6,
               bench_median(tv, g_runs) / 1e6);
        free(blob);
        free(mem);
    }
    printf("\nA blob holds the tree and its points (12 bytes) and ids (4 bytes) for each point, so it"
           " needs nothing else; the view checks it in full (structure, exact bounds, every point in"
           " its octants) before the first query.\n\n");
}

static void bench_builds(const scan *s)
{
    unsigned b, r;
    printf("## Point octree: building the laser scan (%u points)\n\n", (unsigned)s->count);
    printf("| leaf | bucket | build (ms, median) | nodes | leaves | buckets | depth | bytes | bytes/point | MiB |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (b = 0; b < SHAPES; b++) {
        double t[MAX_RUNS];
        copse_octree tree;
        copse_octree_stats st;
        void *mem = NULL;
        for (r = 0; r < g_runs; r++) {
            free(mem);
            if (scan_octree(s, k_leaf[b], k_bucket[b], 16, &tree, &mem, &t[r]) != 0) {
                printf("build failed\n");
                exit(1);
            }
        }
        copse_octree_get_stats(&tree, &st);
        printf("| %u | %u | %.1f | %u | %u | %u | %u | %lu | %.2f | %.2f |\n", (unsigned)k_leaf[b], (unsigned)k_bucket[b],
               bench_median(t, g_runs) / 1e6, (unsigned)st.nodes, (unsigned)st.leaves, (unsigned)st.buckets,
               (unsigned)st.depth, (unsigned long)st.bytes_used,
               (double)st.bytes_used / s->count, (double)st.bytes_used / 1048576.0);
        free(mem);
    }
    printf("\nBytes are the node and bucket pools the build fills (36-byte nodes, 4*(bucket+1)-byte buckets);"
           " the points stay in the caller's array (12 bytes a point, not counted, as for nanoflann).\n\n");
}

typedef struct qctx {
    const scan *s;
    const copse_octree *tree;
    const copse_vec3 *q;
    uint32_t n;
    float r;
    uint32_t k;
    copse_neighbor *nb;
    uint32_t *ids;
    uint64_t sink;
} qctx;

static void run_radius(qctx *c)
{
    uint32_t i;
    for (i = 0; i < c->n; i++) {
        copse_sphere sp;
        copse_id_list l = copse_id_list_make(c->ids, c->s->count);
        sp.center = c->q[i];
        sp.radius = c->r;
        copse_octree_overlap_sphere(c->tree, &sp, &l);
        c->sink += l.count;
    }
}

static void run_knn(qctx *c)
{
    uint32_t i;
    for (i = 0; i < c->n; i++) {
        copse_neighbor_list l = copse_neighbor_list_make(c->nb, c->k);
        copse_octree_knn(c->tree, c->q[i], FLT_MAX, &l);
        c->sink += l.items[0].id;
    }
}

static void brute_radius(qctx *c)
{
    uint32_t i;
    for (i = 0; i < c->n; i++)
        c->sink += scan_brute_radius(c->s, &c->q[i], c->r);
}

static void brute_knn(qctx *c)
{
    uint32_t i;
    for (i = 0; i < c->n; i++) {
        scan_brute_knn(c->s, &c->q[i], c->k, c->nb);
        c->sink += c->nb[0].id;
    }
}

/* Queries per second of f over c->n queries: the median of the rounds. */
static double rate(void (*f)(qctx *), qctx *c, double *samples, unsigned r)
{
    double t0 = bench_now_ns();
    f(c);
    samples[r] = (double)c->n / ((bench_now_ns() - t0) * 1e-9);
    return samples[r];
}

static void bench_queries(const scan *s)
{
    copse_octree tree;
    void *mem;
    double build_ns;
    copse_vec3 *q = (copse_vec3 *)malloc(sizeof(copse_vec3) * g_queries);
    uint32_t *ids = (uint32_t *)malloc(4u * s->count), i, agree;
    copse_neighbor nb[32], bn[32];
    static const float radii[2] = {0.1f, 0.3f};
    static const uint32_t ks[2] = {1, 8};
    unsigned f, r;
    scan_queries(s, 7, q, g_queries);
    if (scan_octree(s, g_leaf, g_bucket, 16, &tree, &mem, &build_ns) != 0)
        exit(1);
    printf("## Point octree: queries on the scan (leaf %u, bucket %u, %u query points)\n\n", (unsigned)g_leaf,
           (unsigned)g_bucket, (unsigned)g_queries);
    printf("| query | copse (queries/s) | brute force (queries/s) | speed-up | answers equal |\n");
    printf("|---|---:|---:|---:|---|\n");
    for (f = 0; f < 4u; f++) {
        double a[MAX_RUNS], b[MAX_RUNS];
        qctx ct, cb;
        bool radius = f < 2u;
        memset(&ct, 0, sizeof ct);
        ct.s = s;
        ct.tree = &tree;
        ct.q = q;
        ct.n = g_queries;
        ct.ids = ids;
        ct.nb = nb;
        ct.r = radii[f % 2u];
        ct.k = ks[f % 2u];
        cb = ct;
        cb.n = g_brute;
        cb.nb = bn;
        run_radius(&ct); /* warm-up */
        for (r = 0; r < g_runs; r++) {
            rate(radius ? run_radius : run_knn, &ct, a, r);
            rate(radius ? brute_radius : brute_knn, &cb, b, r);
        }
        agree = 0;
        for (i = 0; i < g_brute; i++) {
            if (radius) {
                copse_sphere sp;
                copse_id_list l = copse_id_list_make(ids, s->count);
                sp.center = q[i];
                sp.radius = ct.r;
                copse_octree_overlap_sphere(&tree, &sp, &l);
                agree += l.count == scan_brute_radius(s, &q[i], ct.r);
            } else {
                copse_neighbor_list l = copse_neighbor_list_make(nb, ct.k);
                uint32_t j, same = 1;
                copse_octree_knn(&tree, q[i], FLT_MAX, &l);
                scan_brute_knn(s, &q[i], ct.k, bn);
                for (j = 0; j < ct.k; j++)
                    same &= nb[j].id == bn[j].id && nb[j].distance_sq == bn[j].distance_sq;
                agree += same;
            }
        }
        {
            double ra = bench_median(a, g_runs), rb = bench_median(b, g_runs);
            if (radius)
                printf("| radius %.1f m | %.0f | %.0f | %.0fx | %u/%u |\n", (double)ct.r, ra, rb, ra / rb, (unsigned)agree,
                       (unsigned)g_brute);
            else
                printf("| k = %u nearest | %.0f | %.0f | %.0fx | %u/%u |\n", (unsigned)ct.k, ra, rb, ra / rb,
                       (unsigned)agree, (unsigned)g_brute);
        }
        if (ct.sink == 12345u) /* keep the work */
            printf(" ");
    }
    printf("\n");
    free(mem);
    free(q);
    free(ids);
}

/* ---- the city ---------------------------------------------------------------------------------- */

#define CITY 64 /* blocks per side */

static uint32_t make_city(copse_box3 *boxes)
{
    bench_rng rng;
    uint32_t n = 0, i, j;
    bench_rng_seed(&rng, 1234);
    for (i = 0; i < CITY; i++)
        for (j = 0; j < CITY; j++) {
            float x = (float)i * 20.0f - 640.0f, z = (float)j * 20.0f - 640.0f;
            float w = bench_rng_float(&rng, 6.0f, 9.0f), d = bench_rng_float(&rng, 6.0f, 9.0f);
            float h = bench_rng_float(&rng, 5.0f, 120.0f);
            float cx = bench_rng_float(&rng, 1.0f, 3.0f), cz = bench_rng_float(&rng, 1.0f, 3.0f);
            boxes[n++] = copse_box3_make(x - w, 0.0f, z - d, x + w, h, z + d);                 /* building */
            boxes[n++] = copse_box3_make(x + 10.0f + cx, 0.0f, z + cz, x + 11.0f + cx, 1.5f, z + 2.0f + cz); /* car */
            boxes[n++] = copse_box3_make(x + 9.8f, 0.0f, z + 9.8f, x + 10.2f, 6.0f, z + 10.2f); /* lamp post */
        }
    return n;
}

/* A camera at street level looking along the ground. */
static copse_frustum street_frustum(bench_rng *rng)
{
    float ex = bench_rng_float(rng, -600.0f, 600.0f), ez = bench_rng_float(rng, -600.0f, 600.0f), ey = 1.8f;
    float ang = bench_rng_float(rng, 0.0f, 6.2831853f);
    float fx = __builtin_cosf(ang), fz = __builtin_sinf(ang); /* forward; right = (-fz, 0, fx); up = y */
    float t = 1.0f, far_d = 300.0f, near_d = 0.5f; /* 90 degree horizontal and vertical field */
    copse_frustum f;
    copse_vec3 fw = copse_v3(fx, 0.0f, fz), rt = copse_v3(-fz, 0.0f, fx), up = copse_v3(0.0f, 1.0f, 0.0f);
    copse_vec3 n[6];
    int k;
    n[0] = fw;
    n[1] = copse_v3(-fx, 0.0f, -fz);
    n[2] = copse_v3(fw.x * t + rt.x, 0.0f, fw.z * t + rt.z);
    n[3] = copse_v3(fw.x * t - rt.x, 0.0f, fw.z * t - rt.z);
    n[4] = copse_v3(fw.x * t, up.y, fw.z * t);
    n[5] = copse_v3(fw.x * t, -up.y, fw.z * t);
    for (k = 0; k < 6; k++) {
        f.planes[k].normal = copse_v3(-n[k].x, -n[k].y, -n[k].z); /* n points in; copse's normals out */
        f.planes[k].dist = -(n[k].x * ex + n[k].y * ey + n[k].z * ez);
    }
    f.planes[0].dist -= near_d;
    f.planes[1].dist += far_d;
    return f;
}

static uint32_t brute_cull(const copse_box3 *boxes, uint32_t n, const copse_frustum *f)
{
    uint32_t i, seen = 0;
    for (i = 0; i < n; i++) {
        int k, in = 1;
        for (k = 0; k < 6 && in; k++) {
            /* the corner deepest behind the plane is in front of it: the box is outside */
            const copse_plane *p = &f->planes[k];
            float x = p->normal.x <= 0.0f ? boxes[i].max.x : boxes[i].min.x;
            float y = p->normal.y <= 0.0f ? boxes[i].max.y : boxes[i].min.y;
            float z = p->normal.z <= 0.0f ? boxes[i].max.z : boxes[i].min.z;
            in = p->normal.x * x + p->normal.y * y + p->normal.z * z <= p->dist;
        }
        seen += (uint32_t)in;
    }
    return seen;
}

#define CITY_DEPTHS 7u
static const uint32_t k_city_depth[CITY_DEPTHS] = {3, 4, 5, 7, 7, 7, 10};
static const uint32_t k_city_capacity[CITY_DEPTHS] = {0, 0, 0, 0, 8, 16, 16};

static void bench_city(void)
{
    copse_box3 *boxes = (copse_box3 *)malloc(sizeof(copse_box3) * CITY * CITY * 3);
    uint32_t n = make_city(boxes), i, nf = 512, agree[CITY_DEPTHS];
    copse_frustum *fr = (copse_frustum *)malloc(sizeof(copse_frustum) * nf);
    uint32_t *ids = (uint32_t *)malloc(4u * n);
    copse_loose trees[CITY_DEPTHS];
    copse_loose_stats st[CITY_DEPTHS];
    void *mem[CITY_DEPTHS];
    double build[CITY_DEPTHS], rates[CITY_DEPTHS][MAX_RUNS], brute[MAX_RUNS], t0;
    bench_rng rng;
    unsigned r, d;
    uint64_t sink = 0, visible = 0;
    for (d = 0; d < CITY_DEPTHS; d++) {
        copse_loose_config cfg;
        copse_arena arena;
        size_t bytes;
        memset(&cfg, 0, sizeof cfg);
        cfg.world = copse_box3_make(-660, -10, -660, 660, 130, 660);
        cfg.max_nodes = 4u * n;
        cfg.max_objects = n;
        cfg.max_depth = k_city_depth[d];
        cfg.node_capacity = k_city_capacity[d];
        bytes = copse_loose_bytes(&cfg);
        mem[d] = malloc(bytes);
        copse_arena_init(&arena, mem[d], bytes);
        if (copse_loose_init(&trees[d], &arena, &cfg) != COPSE_OK)
            exit(1);
        t0 = bench_now_ns();
        for (i = 0; i < n; i++) {
            if (copse_loose_insert(&trees[d], i, &boxes[i]) != COPSE_OK) {
                fprintf(stderr, "octree_bench: city insert %u failed\n", (unsigned)i);
                exit(1);
            }
        }
        build[d] = bench_now_ns() - t0;
        copse_loose_get_stats(&trees[d], &st[d]);
    }
    bench_rng_seed(&rng, 99);
    for (i = 0; i < nf; i++)
        fr[i] = street_frustum(&rng);
    for (d = 0; d < CITY_DEPTHS; d++) {
        agree[d] = 0;
        for (i = 0; i < nf; i++) {
            copse_id_list l = copse_id_list_make(ids, n);
            copse_loose_cull(&trees[d], &fr[i], &l);
            agree[d] += l.count == brute_cull(boxes, n, &fr[i]);
            visible += d == 0u ? l.count : 0u;
        }
    }
    for (r = 0; r < g_runs; r++) {
        t0 = bench_now_ns();
        for (i = 0; i < nf; i++)
            sink += brute_cull(boxes, n, &fr[i]);
        brute[r] = nf / ((bench_now_ns() - t0) * 1e-9);
        for (d = 0; d < CITY_DEPTHS; d++) {
            t0 = bench_now_ns();
            for (i = 0; i < nf; i++) {
                copse_id_list l = copse_id_list_make(ids, n);
                copse_loose_cull(&trees[d], &fr[i], &l);
                sink += l.count;
            }
            rates[d][r] = nf / ((bench_now_ns() - t0) * 1e-9);
        }
    }
    printf("## Loose octree: frustum culling a generated city\n\n");
    printf("%u boxes (%dx%d blocks: a building, a car and a lamp post each); %u street-level cameras (90 degrees,"
           " 300 m), %.0f boxes visible on average. Testing every box: %.0f frusta/s.\n\n",
           (unsigned)n, CITY, CITY, (unsigned)nf, (double)visible / nf, bench_median(brute, g_runs));
    printf("| max_depth | node_capacity | nodes | bytes in use | insert all (ms) | copse (frusta/s) |"
           " vs every box tested | visible sets equal |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (d = 0; d < CITY_DEPTHS; d++) {
        double a = bench_median(rates[d], g_runs);
        printf("| %u | %u | %u | %lu | %.2f | %.0f | %.1fx | %u/%u |\n", (unsigned)k_city_depth[d],
               (unsigned)k_city_capacity[d], (unsigned)st[d].nodes,
               (unsigned long)st[d].bytes_used, build[d] / 1e6, a, a / bench_median(brute, g_runs),
               (unsigned)agree[d], (unsigned)nf);
    }
    printf("\n");
    if (sink == 1u)
        printf(" ");
    for (d = 0; d < CITY_DEPTHS; d++)
        free(mem[d]);
    free(boxes);
    free(fr);
    free(ids);
}

int main(int argc, char **argv)
{
    const char *data = "../shared/data";
    scan s;
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (strcmp(argv[i], "--leaf") == 0 && i + 1 < argc)
            g_leaf = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--bucket") == 0 && i + 1 < argc)
            g_bucket = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) {
            g_runs = 3;
            g_queries = 1024;
            g_brute = 16;
        }
    }
    if (scan_load(&s, data) != 0) {
        fprintf(stderr, "octree_bench: cannot read %s/pointclouds/octomap-scan.xyz\n", data);
        return 1;
    }
    bench_builds(&s);
    bench_blobs(&s);
    bench_queries(&s);
    bench_city();
    scan_free(&s);
    return 0;
}

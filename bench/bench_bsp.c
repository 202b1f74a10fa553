/* SPDX-License-Identifier: MIT */
/*
 * make bench-bsp: the BSP trees on the host -> docs/benchmarks-bsp.md.
 *
 * Scenes: the dungeon (../shared/data/meshes/dungeon.obj) cut into per-cluster boxes, as a 3D
 * brush set and as a 2D map of their xz footprints; random grid boxes and random extruded
 * polygons (3D); a random 2D map. Per scene: build time, nodes, leaves, bytes, depth, splits;
 * query throughput of the tree against brute force (every brush or box, the loop a user writes
 * without a tree), both timed in the same run, taking turns, each figure the median of
 * BENCH_RUNS runs; the speed-up column is the median of the per-run ratios. The two answers
 * are compared on every query (the "agree" column).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_bsp.h"
#include "copse/copse.h"
#include "host_clock.h"
#include "mesh_clusters.h"
#include "mesh_load.h"

#define BENCH_RUNS 7
#define QUERIES 20000u


static bsp_rng g_rng = {88172645463325252ull};

typedef struct set3 {
    const char *name;
    copse_brush *brushes;
    copse_plane *planes;
    uint32_t n;
    float lo[3], hi[3];
} set3;

static void scene3_report(FILE *out, FILE *rows, const set3 *s)
{
    copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    size_t scratch = copse_bsp3_scratch_bytes(s->brushes, s->n, &p), exact;
    void *work = malloc(scratch), *mem;
    double build[BENCH_RUNS], tq[3][BENCH_RUNS], bq[3][BENCH_RUNS], ratio[3][BENCH_RUNS];
    copse_segment3 *segs = (copse_segment3 *)malloc(QUERIES * sizeof *segs);
    copse_bsp3 t;
    copse_arena arena;
    unsigned run, q, f, agree[3] = {0, 0, 0};
    float diag2 = 0.0f, radius;
    exact = copse_bsp3_build_bytes(s->brushes, s->n, &p, work, scratch);
    mem = malloc(exact);
    for (run = 0; run < BENCH_RUNS; run++) {
        double t0 = bench_now_s();
        copse_arena_init(&arena, mem, exact);
        if (copse_bsp3_build(&t, &arena, s->brushes, s->n, &p) != COPSE_OK) {
            fprintf(stderr, "bench_bsp: %s: build failed\n", s->name);
            exit(1);
        }
        build[run] = bench_now_s() - t0;
    }
    for (q = 0; q < 3; q++)
        diag2 += (s->hi[q] - s->lo[q]) * (s->hi[q] - s->lo[q]);
    radius = 0.01f * (float)__builtin_sqrtf(diag2);
    bsp_gen_segments3(&g_rng, s->lo, s->hi, 0.2f, segs, QUERIES); /* up to a fifth of the scene */
    for (run = 0; run < BENCH_RUNS; run++) {
        for (f = 0; f < 3; f++) { /* 0 contents, 1 ray, 2 sphere: tree then brute, in turn */
            volatile float sink = 0.0f;
            double t0 = bench_now_s(), t1, t2;
            for (q = 0; q < QUERIES; q++) {
                copse_bsp3_trace tr;
                copse_bsp3_where w;
                if (f == 0) {
                    copse_bsp3_contents(&t, segs[q].a, &w);
                    sink += (float)w.solid;
                } else {
                    copse_sweep_sphere_bsp3(&segs[q], f == 1 ? 0.0f : radius, &t, &tr);
                    sink += tr.t;
                }
            }
            t1 = bench_now_s();
            for (q = 0; q < QUERIES; q++)
                sink += f == 0 ? (float)bsp_brute_contents(&t, segs[q].a) : bsp_brute_trace(&t, &segs[q], f == 1 ? 0.0f : radius);
            t2 = bench_now_s();
            tq[f][run] = (t1 - t0) / QUERIES;
            bq[f][run] = (t2 - t1) / QUERIES;
            ratio[f][run] = bq[f][run] / tq[f][run];
            (void)sink;
        }
    }
    for (q = 0; q < QUERIES; q++) {
        copse_bsp3_trace tr;
        copse_bsp3_where w;
        float bt;
        copse_bsp3_contents(&t, segs[q].a, &w);
        agree[0] += (int)w.solid == bsp_brute_contents(&t, segs[q].a);
        for (f = 1; f < 3; f++) {
            copse_sweep_sphere_bsp3(&segs[q], f == 1 ? 0.0f : radius, &t, &tr);
            bt = bsp_brute_trace(&t, &segs[q], f == 1 ? 0.0f : radius);
            agree[f] += tr.hit ? (bt <= 1.0f && tr.t - bt < 1e-4f && bt - tr.t < 1e-4f) : bt > 1.0f;
        }
    }
    fprintf(out, "| %s | %u | %.2f ms | %u | %u / %u / %u | %lu | %lu | %u | %u |\n", s->name, (unsigned)s->n,
            bench_median(build, BENCH_RUNS) * 1e3, (unsigned)t.node_count, (unsigned)t.solid_leaves,
            (unsigned)t.mixed_leaves, (unsigned)t.empty_leaves, (unsigned long)copse_bsp3_bytes(&t),
            (unsigned long)exact, (unsigned)t.depth, (unsigned)t.split_count);
    {
        static const char *const names[3] = {"point contents", "ray trace", "sphere trace (r = 1% diag)"};
        for (f = 0; f < 3; f++)
            fprintf(rows, "| %s | %s | %.0f | %.0f | %.1fx | %u / %u |\n", s->name, names[f],
                    1e-3 / bench_median(tq[f], BENCH_RUNS), 1e-3 / bench_median(bq[f], BENCH_RUNS), bench_median(ratio[f], BENCH_RUNS),
                    agree[f], QUERIES);
    }
    free(work);
    free(mem);
    free(segs);
}

/* ---- 2D ----------------------------------------------------------------------------------- */

static void scene2_report(FILE *out, const char *name, const copse_box2 *scene, const copse_box2 *boxes, uint32_t n,
                          uint32_t depth)
{
    copse_bsp2_params p;
    size_t exact;
    void *mem;
    copse_bsp2 t;
    copse_arena arena;
    double build[BENCH_RUNS], tq[BENCH_RUNS], bq[BENCH_RUNS], ratio[BENCH_RUNS];
    copse_segment2 *segs = (copse_segment2 *)malloc(QUERIES * sizeof *segs);
    unsigned run, q, agree = 0;
    p.max_depth = depth;
    exact = copse_bsp2_build_bytes(scene, boxes, n, &p);
    mem = malloc(exact);
    for (run = 0; run < BENCH_RUNS; run++) {
        double t0 = bench_now_s();
        copse_arena_init(&arena, mem, exact);
        if (copse_bsp2_build(&t, &arena, scene, boxes, n, &p) != COPSE_OK) {
            fprintf(stderr, "bench_bsp: %s: 2D build failed\n", name);
            exit(1);
        }
        build[run] = bench_now_s() - t0;
    }
    bsp_gen_segments2(&g_rng, scene, 0.3f, segs, QUERIES);
    for (run = 0; run < BENCH_RUNS; run++) {
        volatile float sink = 0.0f;
        double t0 = bench_now_s(), t1, t2;
        for (q = 0; q < QUERIES; q++) {
            copse_bsp2_trace tr;
            copse_sweep_point_bsp2(&segs[q], &t, &tr);
            sink += tr.t;
        }
        t1 = bench_now_s();
        for (q = 0; q < QUERIES; q++)
            sink += bsp_brute_segment2(boxes, n, scene, &segs[q]);
        t2 = bench_now_s();
        tq[run] = (t1 - t0) / QUERIES;
        bq[run] = (t2 - t1) / QUERIES;
        ratio[run] = bq[run] / tq[run];
        (void)sink;
    }
    for (q = 0; q < QUERIES; q++) {
        copse_bsp2_trace tr;
        float b = bsp_brute_segment2(boxes, n, scene, &segs[q]);
        copse_sweep_point_bsp2(&segs[q], &t, &tr);
        agree += tr.hit ? (b <= 1.0f && tr.t - b < 1e-5f && b - tr.t < 1e-5f) : b > 1.0f;
    }
    fprintf(out, "| %s | %u | %u | %.3f ms | %u | %u | %lu | %u | %u | %.0f | %.0f | %.1f | %u / %u |\n", name,
            (unsigned)n, (unsigned)depth, bench_median(build, BENCH_RUNS) * 1e3, (unsigned)t.node_count,
            (unsigned)t.leaf_count, (unsigned long)copse_bsp2_bytes(&t), (unsigned)t.depth, (unsigned)t.split_count,
            1e-3 / bench_median(tq, BENCH_RUNS), 1e-3 / bench_median(bq, BENCH_RUNS), bench_median(ratio, BENCH_RUNS), agree, QUERIES);
    free(mem);
    free(segs);
}

/* ---- scenes ----------------------------------------------------------------------------------- */

static void set_from_boxes(set3 *s, const char *name, const copse_box3 *boxes, uint32_t n)
{
    uint32_t i;
    s->name = name;
    s->n = n;
    s->brushes = (copse_brush *)malloc(n * sizeof *s->brushes);
    s->planes = (copse_plane *)malloc(n * 6u * sizeof *s->planes);
    for (i = 0; i < n; i++) {
        copse_brush_from_box(&boxes[i], s->planes + 6u * i);
        s->brushes[i].planes = s->planes + 6u * i;
        s->brushes[i].plane_count = 6;
        if (i == 0) {
            s->lo[0] = boxes[i].min.x, s->lo[1] = boxes[i].min.y, s->lo[2] = boxes[i].min.z;
            s->hi[0] = boxes[i].max.x, s->hi[1] = boxes[i].max.y, s->hi[2] = boxes[i].max.z;
        }
        s->lo[0] = boxes[i].min.x < s->lo[0] ? boxes[i].min.x : s->lo[0];
        s->lo[1] = boxes[i].min.y < s->lo[1] ? boxes[i].min.y : s->lo[1];
        s->lo[2] = boxes[i].min.z < s->lo[2] ? boxes[i].min.z : s->lo[2];
        s->hi[0] = boxes[i].max.x > s->hi[0] ? boxes[i].max.x : s->hi[0];
        s->hi[1] = boxes[i].max.y > s->hi[1] ? boxes[i].max.y : s->hi[1];
        s->hi[2] = boxes[i].max.z > s->hi[2] ? boxes[i].max.z : s->hi[2];
    }
}

static void polygons_set(set3 *s, uint32_t n)
{
    s->name = "300 random extruded octagons";
    s->n = n;
    s->brushes = (copse_brush *)malloc(n * sizeof *s->brushes);
    s->planes = (copse_plane *)malloc(n * 10u * sizeof *s->planes);
    bsp_gen_octagons(&g_rng, s->planes, s->brushes, n, 100.0f);
    s->lo[0] = s->lo[1] = -3.0f;
    s->lo[2] = 0.0f;
    s->hi[0] = s->hi[1] = 103.0f;
    s->hi[2] = 13.0f;
}

int main(int argc, char **argv)
{
    const char *data = "../shared/data", *outpath = NULL;
    char path[600], err[256];
    host_mesh mesh;
    FILE *out = stdout;
    int i, have_mesh;
    copse_box3 *cl = (copse_box3 *)malloc(20u * 20u * 4u * sizeof *cl);
    float lo[3], hi[3];
    uint32_t ncl = 0;
    set3 sets[3];
    unsigned s;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--data") == 0)
            data = argv[++i];
        else if (strcmp(argv[i], "--out") == 0)
            outpath = argv[++i];
    }
    if (outpath != NULL && (out = fopen(outpath, "w")) == NULL) {
        fprintf(stderr, "bench_bsp: cannot write %s\n", outpath);
        return 1;
    }
    snprintf(path, sizeof path, "%s/meshes/dungeon.obj", data);
    have_mesh = host_mesh_load(path, &mesh, err, sizeof err) == 0;
    if (have_mesh)
        ncl = host_mesh_cluster_boxes(&mesh, 12, 3, 0.05f, cl, lo, hi);
    fprintf(out, "# BSP benchmarks\n\nGenerated by `make bench-bsp` (part of `make bench`) from `bench/bench_bsp.c` on the host, "
                 "gcc -O2 -ffp-contract=off. Each time is the median of %d runs; tree and brute force take turns within "
                 "each run, and the speed-up is the median of the per-run ratios. Brute force is the loop a user writes "
                 "without a tree: every brush's planes (3D) or every box (2D). %u queries per row; \"agree\" counts "
                 "queries where tree and brute force give the same answer (t within 1e-4).\n\n",
            BENCH_RUNS, QUERIES);
    if (!have_mesh)
        fprintf(out, "(%s is missing: the dungeon rows are left out.)\n\n", path);
    fprintf(out, "## 3D solid-leaf trees\n\nDefault parameters (max depth %u, split weight 8). Leaves: solid / mixed / "
                 "empty. Bytes: the tree; peak: the build's arena (scratch + tree).\n\n",
            (unsigned)COPSE_BSP_MAX_DEPTH);
    fprintf(out, "| scene | brushes | build | nodes | leaves | bytes | peak | depth | splits |\n|---|---|---|---|---|---|---|---|---|\n");
    s = 0;
    if (have_mesh)
        set_from_boxes(&sets[s++], "dungeon.obj, 12x3x12 triangle clusters as boxes", cl, ncl);
    {
        copse_box3 *rb = (copse_box3 *)malloc(300u * sizeof *rb);
        bsp_gen_grid_boxes(&g_rng, rb, 300u, 60.0f);
        set_from_boxes(&sets[s++], "300 random grid boxes", rb, 300u);
    }
    polygons_set(&sets[s++], 300u);
    fflush(out);
    /* the query rows gather in a temporary file and follow the build table */
    {
        FILE *rows = tmpfile();
        char line[512];
        if (rows == NULL)
            return 1;
        for (i = 0; i < (int)s; i++)
            scene3_report(out, rows, &sets[i]);
        fprintf(out, "\n| scene | query | tree (k/s) | brute force (k/s) | speed-up | agree |\n|---|---|---|---|---|---|\n");
        rewind(rows);
        while (fgets(line, sizeof line, rows) != NULL)
            fputs(line, out);
        fclose(rows);
    }
    fprintf(out, "\n## 2D axis-aligned trees (line of sight)\n\nSegments up to 30%% of the map; tree and brute force "
                 "in k segments per second.\n\n");
    fprintf(out, "| map | boxes | max depth | build | nodes | leaves | bytes | depth | splits | tree (k/s) | brute (k/s) | speed-up | agree |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    if (have_mesh) {
        copse_box2 *fp = (copse_box2 *)malloc(ncl * sizeof *fp), scene = copse_box2_make(lo[0], lo[2], hi[0], hi[2]);
        uint32_t k;
        for (k = 0; k < ncl; k++)
            fp[k] = copse_box2_make(cl[k].min.x, cl[k].min.z, cl[k].max.x, cl[k].max.z);
        scene2_report(out, "dungeon.obj cluster footprints (xz)", &scene, fp, ncl, 12);
        free(fp);
    }
    {
        copse_box2 *rb = (copse_box2 *)malloc(200u * sizeof *rb), scene = copse_box2_make(0, 0, 100, 100);
        bsp_gen_map2(&g_rng, rb, 200u, 100.0f);
        scene2_report(out, "200 random boxes in 100x100", &scene, rb, 200u, 12);
        scene2_report(out, "200 random boxes in 100x100", &scene, rb, 200u, 16);
        free(rb);
    }
    fprintf(out, "\nReproduce: `make bench-bsp` (or `make bench`); the program is `$(B)/bench/bsp/bench_bsp --data "
                 "../shared/data --out docs/benchmarks-bsp.md`.\n");
    if (out != stdout)
        fclose(out);
    if (have_mesh)
        host_mesh_free(&mesh);
    return 0;
}

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

#include "copse/copse.h"
#include "mesh_load.h"

#define BENCH_RUNS 7
#define QUERIES 20000u

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t g_rng = 88172645463325252ull;
static float frand(float lo, float hi)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return lo + (hi - lo) * (float)(g_rng >> 40) * (1.0f / 16777216.0f);
}

/* ---- 3D brute force: every brush, float, Cyrus-Beck on the tree's own planes (with bevels
 * for spheres, as the tree's semantics) ---------------------------------------------------- */

static float brute_trace(const copse_bsp3 *t, const copse_segment3 *s, float r)
{
    float best = 2.0f, d[3] = {s->b.x - s->a.x, s->b.y - s->a.y, s->b.z - s->a.z};
    uint32_t i, k;
    for (i = 0; i < t->brush_count; i++) {
        const copse_bsp3_brush *b = &t->brushes[i];
        float tn = 0.0f, tf = 1.0f;
        int ok = 1;
        for (k = 0; k < (r > 0.0f ? b->sides : b->split_sides) && ok; k++) {
            const copse_plane *p = &t->planes[t->sides[b->first + k]];
            float da = p->normal.x * s->a.x + p->normal.y * s->a.y + p->normal.z * s->a.z - (p->dist + r);
            float dn = p->normal.x * d[0] + p->normal.y * d[1] + p->normal.z * d[2];
            if (dn == 0.0f) {
                ok = da <= 0.0f;
            } else if (dn < 0.0f) {
                float th = -da / dn;
                tn = th > tn ? th : tn;
            } else {
                float th = -da / dn;
                tf = th < tf ? th : tf;
            }
            ok = ok && tn <= tf;
        }
        if (ok && tn < best)
            best = tn;
    }
    return best;
}

static int brute_contents(const copse_bsp3 *t, copse_vec3 x)
{
    uint32_t i, k;
    for (i = 0; i < t->brush_count; i++) {
        const copse_bsp3_brush *b = &t->brushes[i];
        int in = 1;
        for (k = 0; k < b->split_sides && in; k++) {
            const copse_plane *p = &t->planes[t->sides[b->first + k]];
            in = p->normal.x * x.x + p->normal.y * x.y + p->normal.z * x.z - p->dist <= 0.0f;
        }
        if (in)
            return 1;
    }
    return 0;
}

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
        double t0 = now_s();
        copse_arena_init(&arena, mem, exact);
        if (copse_bsp3_build(&t, &arena, s->brushes, s->n, &p) != COPSE_OK) {
            fprintf(stderr, "bench_bsp: %s: build failed\n", s->name);
            exit(1);
        }
        build[run] = now_s() - t0;
    }
    for (q = 0; q < 3; q++)
        diag2 += (s->hi[q] - s->lo[q]) * (s->hi[q] - s->lo[q]);
    radius = 0.01f * (float)__builtin_sqrtf(diag2);
    for (q = 0; q < QUERIES; q++) { /* segments of up to a fifth of the scene, anywhere in it */
        float a[3], len = 0.2f;
        unsigned k;
        for (k = 0; k < 3; k++)
            a[k] = frand(s->lo[k], s->hi[k]);
        segs[q].a = copse_v3(a[0], a[1], a[2]);
        segs[q].b = copse_v3(a[0] + len * frand(-1, 1) * (s->hi[0] - s->lo[0]),
                             a[1] + len * frand(-1, 1) * (s->hi[1] - s->lo[1]),
                             a[2] + len * frand(-1, 1) * (s->hi[2] - s->lo[2]));
    }
    for (run = 0; run < BENCH_RUNS; run++) {
        for (f = 0; f < 3; f++) { /* 0 contents, 1 ray, 2 sphere: tree then brute, in turn */
            volatile float sink = 0.0f;
            double t0 = now_s(), t1, t2;
            for (q = 0; q < QUERIES; q++) {
                copse_bsp3_trace tr;
                copse_bsp3_where w;
                if (f == 0) {
                    copse_bsp3_contents(&t, segs[q].a, &w);
                    sink += (float)w.solid;
                } else {
                    copse_bsp3_trace_sphere(&t, &segs[q], f == 1 ? 0.0f : radius, &tr);
                    sink += tr.fraction;
                }
            }
            t1 = now_s();
            for (q = 0; q < QUERIES; q++)
                sink += f == 0 ? (float)brute_contents(&t, segs[q].a) : brute_trace(&t, &segs[q], f == 1 ? 0.0f : radius);
            t2 = now_s();
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
        agree[0] += (int)w.solid == brute_contents(&t, segs[q].a);
        for (f = 1; f < 3; f++) {
            copse_bsp3_trace_sphere(&t, &segs[q], f == 1 ? 0.0f : radius, &tr);
            bt = brute_trace(&t, &segs[q], f == 1 ? 0.0f : radius);
            agree[f] += tr.hit ? (bt <= 1.0f && tr.fraction - bt < 1e-4f && bt - tr.fraction < 1e-4f) : bt > 1.0f;
        }
    }
    fprintf(out, "| %s | %u | %.2f ms | %u | %u / %u / %u | %lu | %lu | %u | %u |\n", s->name, (unsigned)s->n,
            median(build, BENCH_RUNS) * 1e3, (unsigned)t.node_count, (unsigned)t.solid_leaves,
            (unsigned)t.mixed_leaves, (unsigned)t.empty_leaves, (unsigned long)copse_bsp3_bytes(&t),
            (unsigned long)exact, (unsigned)t.depth, (unsigned)t.split_count);
    {
        static const char *const names[3] = {"point contents", "ray trace", "sphere trace (r = 1% diag)"};
        for (f = 0; f < 3; f++)
            fprintf(rows, "| %s | %s | %.0f | %.0f | %.1fx | %u / %u |\n", s->name, names[f],
                    1e-3 / median(tq[f], BENCH_RUNS), 1e-3 / median(bq[f], BENCH_RUNS), median(ratio[f], BENCH_RUNS),
                    agree[f], QUERIES);
    }
    free(work);
    free(mem);
    free(segs);
}

/* ---- 2D ----------------------------------------------------------------------------------- */

static float brute_segment2(const copse_box2 *boxes, uint32_t n, const copse_box2 *scene, const copse_segment2 *s)
{
    float best = 2.0f, d[2] = {s->b.x - s->a.x, s->b.y - s->a.y}, o[2] = {s->a.x, s->a.y};
    uint32_t i;
    unsigned k;
    for (i = 0; i < n; i++) {
        float mn[2] = {boxes[i].min.x > scene->min.x ? boxes[i].min.x : scene->min.x,
                       boxes[i].min.y > scene->min.y ? boxes[i].min.y : scene->min.y};
        float mx[2] = {boxes[i].max.x < scene->max.x ? boxes[i].max.x : scene->max.x,
                       boxes[i].max.y < scene->max.y ? boxes[i].max.y : scene->max.y};
        float tn = 0.0f, tf = 1.0f;
        for (k = 0; k < 2; k++) {
            if (d[k] == 0.0f) {
                if (o[k] < mn[k] || o[k] > mx[k])
                    tn = 3.0f;
            } else {
                float inv = 1.0f / d[k], t0 = ((d[k] > 0 ? mn[k] : mx[k]) - o[k]) * inv,
                      t1 = ((d[k] > 0 ? mx[k] : mn[k]) - o[k]) * inv;
                tn = t0 > tn ? t0 : tn;
                tf = t1 < tf ? t1 : tf;
            }
        }
        if (tn <= tf && tn < best)
            best = tn;
    }
    return best;
}

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
        double t0 = now_s();
        copse_arena_init(&arena, mem, exact);
        if (copse_bsp2_build(&t, &arena, scene, boxes, n, &p) != COPSE_OK) {
            fprintf(stderr, "bench_bsp: %s: 2D build failed\n", name);
            exit(1);
        }
        build[run] = now_s() - t0;
    }
    for (q = 0; q < QUERIES; q++) {
        float ex = scene->max.x - scene->min.x, ey = scene->max.y - scene->min.y;
        segs[q].a = copse_v2(frand(scene->min.x, scene->max.x), frand(scene->min.y, scene->max.y));
        segs[q].b = copse_v2(segs[q].a.x + 0.3f * ex * frand(-1, 1), segs[q].a.y + 0.3f * ey * frand(-1, 1));
    }
    for (run = 0; run < BENCH_RUNS; run++) {
        volatile float sink = 0.0f;
        double t0 = now_s(), t1, t2;
        for (q = 0; q < QUERIES; q++) {
            copse_bsp2_trace tr;
            copse_bsp2_segment(&t, &segs[q], &tr);
            sink += tr.t;
        }
        t1 = now_s();
        for (q = 0; q < QUERIES; q++)
            sink += brute_segment2(boxes, n, scene, &segs[q]);
        t2 = now_s();
        tq[run] = (t1 - t0) / QUERIES;
        bq[run] = (t2 - t1) / QUERIES;
        ratio[run] = bq[run] / tq[run];
        (void)sink;
    }
    for (q = 0; q < QUERIES; q++) {
        copse_bsp2_trace tr;
        float b = brute_segment2(boxes, n, scene, &segs[q]);
        copse_bsp2_segment(&t, &segs[q], &tr);
        agree += tr.hit ? (b <= 1.0f && tr.t - b < 1e-5f && b - tr.t < 1e-5f) : b > 1.0f;
    }
    fprintf(out, "| %s | %u | %u | %.3f ms | %u | %u | %lu | %u | %u | %.0f | %.0f | %.1f | %u / %u |\n", name,
            (unsigned)n, (unsigned)depth, median(build, BENCH_RUNS) * 1e3, (unsigned)t.node_count,
            (unsigned)t.leaf_count, (unsigned long)copse_bsp2_bytes(&t), (unsigned)t.depth, (unsigned)t.split_count,
            1e-3 / median(tq, BENCH_RUNS), 1e-3 / median(bq, BENCH_RUNS), median(ratio, BENCH_RUNS), agree, QUERIES);
    free(mem);
    free(segs);
}

/* ---- scenes ----------------------------------------------------------------------------------- */

/* Grid clusters of the mesh's triangles (by centroid): one box each, flat ones thickened. */
static uint32_t cluster_boxes(const host_mesh *m, unsigned gxz, unsigned gy, copse_box3 *out, float *lo, float *hi)
{
    float *cell = (float *)calloc((size_t)gxz * gxz * gy, 7u * sizeof(float));
    uint32_t t, i, n = 0;
    unsigned k, j;
    for (k = 0; k < 3; k++) {
        lo[k] = hi[k] = m->positions[k];
        for (i = 1; i < m->vertex_count; i++) {
            float v = m->positions[3u * i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    }
    for (t = 0; t < m->triangle_count; t++) {
        float c[3] = {0, 0, 0}, mn[3] = {1e30f, 1e30f, 1e30f}, mx[3] = {-1e30f, -1e30f, -1e30f};
        uint32_t g[3], at;
        for (j = 0; j < 3; j++) {
            const float *v = m->positions + 3u * m->indices[3u * t + j];
            for (k = 0; k < 3; k++) {
                c[k] += v[k] / 3.0f;
                mn[k] = v[k] < mn[k] ? v[k] : mn[k];
                mx[k] = v[k] > mx[k] ? v[k] : mx[k];
            }
        }
        for (k = 0; k < 3; k++) {
            unsigned cells = k == 1 ? gy : gxz;
            float u = (c[k] - lo[k]) / (hi[k] - lo[k]);
            g[k] = u >= 1.0f ? cells - 1u : (uint32_t)(u * (float)cells);
        }
        at = 7u * ((g[1] * gxz + g[2]) * gxz + g[0]);
        for (k = 0; k < 3; k++) {
            cell[at + k] = cell[at + 6] == 0.0f || mn[k] < cell[at + k] ? mn[k] : cell[at + k];
            cell[at + 3u + k] = cell[at + 6] == 0.0f || mx[k] > cell[at + 3u + k] ? mx[k] : cell[at + 3u + k];
        }
        cell[at + 6] = 1.0f;
    }
    for (i = 0; i < gxz * gxz * gy; i++) {
        float *b = cell + 7u * i;
        if (b[6] == 0.0f)
            continue;
        for (k = 0; k < 3; k++)
            if (b[3u + k] - b[k] < 0.05f) {
                b[k] -= 0.025f;
                b[3u + k] += 0.025f;
            }
        out[n++] = copse_box3_make(b[0], b[1], b[2], b[3], b[4], b[5]);
    }
    free(cell);
    return n;
}

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
    static const float cs[8][2] = {{1, 0}, {0.707f, 0.707f}, {0, 1}, {-0.707f, 0.707f},
                                   {-1, 0}, {-0.707f, -0.707f}, {0, -1}, {0.707f, -0.707f}};
    uint32_t i, used = 0, count;
    s->name = "random extruded octagons";
    s->n = n;
    s->brushes = (copse_brush *)malloc(n * sizeof *s->brushes);
    s->planes = (copse_plane *)malloc(n * 10u * sizeof *s->planes);
    for (i = 0; i < n; i++) {
        copse_vec2 c[8];
        float cx = frand(0, 100), cy = frand(0, 100), r = frand(0.5f, 3.0f), z0 = frand(0, 10);
        unsigned k;
        for (k = 0; k < 8; k++)
            c[k] = copse_v2(cx + r * cs[k][0], cy + r * cs[k][1]);
        copse_brush_from_polygon(c, 8, z0, z0 + frand(0.5f, 3.0f), s->planes + used, 10, &count);
        s->brushes[i].planes = s->planes + used;
        s->brushes[i].plane_count = count;
        used += count;
    }
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
        ncl = cluster_boxes(&mesh, 12, 3, cl, lo, hi);
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
        uint32_t k;
        for (k = 0; k < 300u; k++) {
            float x = (float)(int)frand(0, 60), y = (float)(int)frand(0, 60), z = (float)(int)frand(0, 5);
            rb[k] = copse_box3_make(x, y, z, x + 1.0f + (float)(int)frand(0, 4), y + 1.0f + (float)(int)frand(0, 4),
                                    z + 1.0f + (float)(int)frand(0, 3));
        }
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
        uint32_t k;
        for (k = 0; k < 200u; k++) {
            float x = frand(0, 97), y = frand(0, 97);
            rb[k] = copse_box2_make(x, y, x + frand(0.3f, 3), y + frand(0.3f, 3));
        }
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

/* SPDX-License-Identifier: MIT */
/*
 * The tool oracle's octree commands (tools/copse/tests/run.sh):
 *
 *   tool_oracle cloud OUT.xyz OUT.pcd N SEED   a generated cloud of N points, the same floats as
 *                                              XYZ text and binary PCD: grid points (exact distance
 *                                              ties), exact duplicates and a tight cluster
 *   tool_oracle cloud-queries CLOUD N SEED     N point-octree queries (octree_query.h), one a line
 *   tool_oracle cloud-brute CLOUD QUERIES      the answers by brute force over the file's points:
 *                                              box, sphere, knn and nearest in float exactly as
 *                                              octree.h defines them (compared exactly); capsule in
 *                                              double with ids in the boundary band marked '?'
 *   tool_oracle boxes OUT.txt N SEED           a 3D box file (docs/tool.md) of N boxes, small and large
 *   tool_oracle box-queries BOXES N SEED       N loose-octree queries
 *   tool_oracle box-brute BOXES QUERIES        box overlap exactly; sphere and ray in double (band '?',
 *                                              rays compared by t)
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bvh_query.h"
#include "../tool.h"
#include "../word_query.h"
#include "copse/octree.h"
#include "oracle/oracle.h"
#include "pointcloud_load.h"
#include "tool_oracle.h"

#define GRID 0.25 /* grid points: exact distance ties around grid-aligned queries */

static float grid_coord(double lo, double hi)
{
    return (float)(floor(rnd(lo, hi) / GRID) * GRID);
}

static int gen_cloud(const char *xyz_path, const char *pcd_path, unsigned n, unsigned seed)
{
    float *p = (float *)malloc(sizeof *p * 3u * (n > 0 ? n : 1u));
    FILE *x, *c;
    unsigned i, a;
    if (p == NULL)
        return 1;
    oracle_seed(seed);
    for (i = 0; i < n; i++) {
        double kind = rnd(0, 1);
        if (kind >= 0.8 && i > 0) { /* an exact duplicate of an earlier point */
            memcpy(p + 3 * i, p + 3 * (unsigned)rnd(0, (double)i), sizeof *p * 3);
            continue;
        }
        for (a = 0; a < 3; a++)
            p[3 * i + a] = kind < 0.6 || i == 0 ? grid_coord(-10, 10) : (float)(3.0 + rnd(-1e-3, 1e-3));
    }
    x = fopen(xyz_path, "w");
    c = fopen(pcd_path, "wb");
    if (x == NULL || c == NULL)
        return tool_fail("cannot write %s / %s", xyz_path, pcd_path);
    fprintf(x, "# generated cloud, %u points, seed %u\n", n, seed);
    for (i = 0; i < n; i++)
        fprintf(x, "%.9g %.9g %.9g\n", (double)p[3 * i], (double)p[3 * i + 1], (double)p[3 * i + 2]);
    fprintf(c, "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH %u\nHEIGHT 1\n"
               "VIEWPOINT 0 0 0 1 0 0 0\nPOINTS %u\nDATA binary\n", n, n);
    fwrite(p, sizeof *p * 3u, n, c); /* little-endian host */
    free(p);
    return (fclose(x) != 0) | (fclose(c) != 0);
}

/* "box x0 y0 z0 x1 y1 z1": min corners from corner(lo, hi), sizes 0 to max_size (0 one time in zero_odds). */
static void put_box_query(float (*corner)(double, double), double lo, double hi, double max_size, double zero_odds)
{
    float mn[3], mx[3];
    unsigned a;
    for (a = 0; a < 3; a++) {
        mn[a] = corner(lo, hi);
        mx[a] = mn[a] + (rnd(0, 1) < zero_odds ? 0.0f : (float)rnd(0, max_size));
    }
    printf("box %.9g %.9g %.9g %.9g %.9g %.9g\n", (double)mn[0], (double)mn[1], (double)mn[2], (double)mx[0],
           (double)mx[1], (double)mx[2]);
}

static float any_coord(double lo, double hi)
{
    return (float)rnd(lo, hi);
}

static float grid_or_any_coord(double lo, double hi)
{
    return rnd(0, 1) < 0.5 ? grid_coord(lo, hi) : any_coord(lo, hi);
}

/* A float coordinate, on the grid half the time (ties), printed so it parses back exactly. */
static void put_coord(double lo, double hi)
{
    printf(" %.9g", (double)grid_or_any_coord(lo, hi));
}

static void put_coords(unsigned n, double lo, double hi)
{
    while (n-- > 0)
        put_coord(lo, hi);
}

static int gen_cloud_queries(unsigned n, unsigned seed)
{
    static const unsigned ks[] = {1, 2, 3, 5, 8, 20};
    unsigned i;
    oracle_seed(seed);
    for (i = 0; i < n; i++) {
        unsigned kind = (unsigned)rnd(0, 5);
        if (kind == 0) {
            put_box_query(grid_or_any_coord, -11, 11, 6, 0.2);
            continue;
        }
        printf("%s", kind == 1 ? "sphere" : kind == 2 ? "capsule" : kind == 3 ? "knn" : "nearest");
        put_coords(kind == 2 ? 6u : 3u, -11, 11);
        if (kind == 1 || kind == 2)
            printf(" %.9g", rnd(0, 1) < 0.2 ? (double)GRID * (double)(unsigned)rnd(0, 12) : (double)(float)rnd(0, 4));
        if (kind == 3)
            printf(" %u", ks[(unsigned)rnd(0, sizeof ks / sizeof ks[0])]);
        if ((kind == 3 || kind == 4) && rnd(0, 1) < 0.3)
            printf(" %.9g", (double)(float)rnd(0, 3));
        putchar('\n');
    }
    return 0;
}

/* ---- brute force over a cloud ---------------------------------------------------------------- */

typedef struct cloud {
    host_points pts;
    uint8_t *verdict;
    copse_neighbor *all;
} cloud;

static float dist2f(const float *p, const float *c) /* octree.h's formula, in float */
{
    float dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
    return (dx * dx + dy * dy) + dz * dz;
}

static int by_d2_id(const void *a, const void *b)
{
    const copse_neighbor *x = (const copse_neighbor *)a, *y = (const copse_neighbor *)b;
    if (x->distance_sq != y->distance_sq)
        return x->distance_sq < y->distance_sq ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Every point within max of c, sorted by (d2, id); returns how many. */
static uint32_t sorted_within(cloud *cl, const float *c, float max)
{
    const float r2 = max * max;
    uint32_t i, m = 0;
    for (i = 0; i < cl->pts.count; i++) {
        float d2 = dist2f(cl->pts.xyz + 3u * i, c);
        if (d2 <= r2) {
            cl->all[m].distance_sq = d2;
            cl->all[m].id = cl->all[m].index = i;
            m++;
        }
    }
    qsort(cl->all, m, sizeof *cl->all, by_d2_id);
    return m;
}

static int cloud_answer(const void *ctx, const char *const *words, unsigned n, FILE *out)
{
    cloud *cl = (cloud *)(uintptr_t)ctx;
    const float *pts = cl->pts.xyz;
    float v[7] = {0, 0, 0, FLT_MAX, 0, 0, 0};
    uint32_t i, m;
    unsigned a;
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "knn") == 0 || strcmp(words[0], "nearest") == 0) {
        int knn = words[0][0] == 'k';
        float k = 1.0f, max = FLT_MAX;
        if (word_numbers_opt(words, n, knn ? 4u : 3u, 1, v) != 0)
            return 1;
        if (knn) {
            k = v[3];
            max = n == 6 ? v[4] : FLT_MAX;
        } else
            max = v[3];
        m = sorted_within(cl, v, max);
        m = m < (uint32_t)k ? m : (uint32_t)k;
        if (!knn) {
            if (m == 0)
                bvh_query_print_nearest(out, COPSE_NONE, 0, v, 3);
            else
                bvh_query_print_nearest(out, cl->all[0].id, cl->all[0].distance_sq, pts + 3u * cl->all[0].id, 3);
            return 0;
        }
        fprintf(out, " -> %lu nearest:", (unsigned long)m);
        for (i = 0; i < m; i++)
            fprintf(out, " %lu:%.9g", (unsigned long)cl->all[i].id, (double)cl->all[i].distance_sq);
        fputc('\n', out);
        return 0;
    }
    if (strcmp(words[0], "box") == 0) {
        if (word_numbers(words, n, 6, v) != 0)
            return 1;
        for (i = 0; i < cl->pts.count; i++) {
            int in = 1;
            for (a = 0; a < 3; a++)
                in &= pts[3u * i + a] >= v[a] && pts[3u * i + a] <= v[3 + a];
            cl->verdict[i] = in ? ORC_YES : ORC_NO;
        }
    } else if (strcmp(words[0], "sphere") == 0) {
        if (word_numbers(words, n, 4, v) != 0)
            return 1;
        for (i = 0; i < cl->pts.count; i++)
            cl->verdict[i] = dist2f(pts + 3u * i, v) <= v[3] * v[3] ? ORC_YES : ORC_NO;
    } else if (strcmp(words[0], "capsule") == 0) {
        double s[3], e[3], p[3], near[3], mag;
        if (word_numbers(words, n, 7, v) != 0)
            return 1;
        mag = (double)v[6];
        for (a = 0; a < 3; a++) {
            s[a] = (double)v[a];
            e[a] = (double)v[3 + a];
            mag = fmax(mag, fmax(fabs(s[a]), fabs(e[a])));
        }
        for (i = 0; i < cl->pts.count; i++) {
            for (a = 0; a < 3; a++)
                p[a] = (double)pts[3u * i + a];
            cl->verdict[i] = (uint8_t)orc_ball(orc_closest_segment(p, s, e, near), (double)v[6],
                                               fmax(mag, orc_max_abs(p)) * 1e-5);
        }
    } else {
        return word_unknown(out, words[0], "point cloud", "box, sphere, capsule, knn, nearest");
    }
    ids_line(out, cl->verdict, cl->pts.count);
    return 0;
}

static int cloud_brute(const char *path, const char *queries)
{
    cloud cl;
    char err[600];
    int rc;
    if (host_points_load(path, &cl.pts, err, sizeof err) != 0)
        return tool_fail("%s", err);
    cl.verdict = (uint8_t *)malloc(cl.pts.count);
    cl.all = (copse_neighbor *)malloc(sizeof *cl.all * cl.pts.count);
    rc = cl.verdict == NULL || cl.all == NULL ? tool_fail("out of memory")
                                              : word_run(queries, NULL, 0, &cl, cloud_answer);
    free(cl.verdict);
    free(cl.all);
    host_points_free(&cl.pts);
    return rc;
}

/* ---- boxes for the loose octree ------------------------------------------------------------- */

static int gen_boxes(const char *path, unsigned n, unsigned seed)
{
    FILE *f = fopen(path, "w");
    unsigned i, a;
    if (f == NULL)
        return tool_fail("cannot write %s", path);
    oracle_seed(seed);
    fprintf(f, "# generated boxes, %u, seed %u\nworld -20 -20 -20 20 20 20\n", n, seed);
    for (i = 0; i < n; i++) {
        double size = rnd(0, 1) < 0.1 ? rnd(5, 15) : rnd(0, 1) < 0.2 ? 0.0 : rnd(0.01, 2); /* some flat */
        float lo[3], hi[3];
        for (a = 0; a < 3; a++) {
            lo[a] = (float)rnd(-24, 22); /* a few poke out of the world: they live in the root */
            hi[a] = lo[a] + (float)(size * rnd(0.2, 1));
        }
        fprintf(f, "box %.9g %.9g %.9g %.9g %.9g %.9g\n", (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0],
                (double)hi[1], (double)hi[2]);
    }
    return fclose(f) != 0;
}

static int gen_box_queries(unsigned n, unsigned seed)
{
    unsigned i;
    oracle_seed(seed);
    for (i = 0; i < n; i++) {
        unsigned kind = (unsigned)rnd(0, 3);
        if (kind == 0) {
            put_box_query(any_coord, -25, 25, 8, 0.0);
        } else if (kind == 1) {
            printf("sphere %.9g %.9g %.9g %.9g\n", (double)(float)rnd(-25, 25), (double)(float)rnd(-25, 25),
                   (double)(float)rnd(-25, 25), (double)(float)rnd(0, 6));
        } else {
            printf("ray %.9g %.9g %.9g %.9g %.9g %.9g", (double)(float)rnd(-25, 25), (double)(float)rnd(-25, 25),
                   (double)(float)rnd(-25, 25), (double)(float)rnd(-1, 1), (double)(float)rnd(-1, 1),
                   (double)(float)rnd(-1, 1));
            if (rnd(0, 1) < 0.3)
                printf(" %.9g", (double)(float)rnd(0, 30));
            putchar('\n');
        }
    }
    return 0;
}

typedef struct box_set {
    float *corners; /* 6 a box */
    uint32_t count;
    uint8_t *verdict;
} box_set;

static int box_answer(const void *ctx, const char *const *words, unsigned n, FILE *out)
{
    box_set *bs = (box_set *)(uintptr_t)ctx;
    float v[7] = {0, 0, 0, 0, 0, 0, INFINITY};
    double lo[3], hi[3], q[6], near[3];
    uint32_t i, best = COPSE_NONE;
    double best_t = DBL_MAX;
    unsigned a;
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "box") != 0 && strcmp(words[0], "sphere") != 0 && strcmp(words[0], "ray") != 0)
        return word_unknown(out, words[0], "box set", "box, sphere, ray");
    if (word_numbers_opt(words, n, words[0][0] == 's' ? 4u : 6u, words[0][0] == 'r' ? 1u : 0u, v) != 0)
        return 1;
    for (a = 0; a < 6; a++)
        q[a] = (double)v[a];
    for (i = 0; i < bs->count; i++) {
        for (a = 0; a < 3; a++) {
            lo[a] = (double)bs->corners[6u * i + a];
            hi[a] = (double)bs->corners[6u * i + 3u + a];
        }
        if (words[0][0] == 'b') {
            bs->verdict[i] = orc_box_box(lo, hi, q, q + 3, 3) ? ORC_YES : ORC_NO;
        } else if (words[0][0] == 's') {
            bs->verdict[i] = (uint8_t)orc_ball(orc_closest_box(q, lo, hi, 3, near), q[3], 1e-4);
        } else {
            orc_hit h = orc_ray_box(q, q + 3, (double)v[6], lo, hi, 3, 1e-5);
            if (orc_exact(h.verdict) && h.t < best_t) {
                best_t = h.t;
                best = i;
            }
        }
    }
    if (words[0][0] != 'r')
        ids_line(out, bs->verdict, bs->count);
    else if (best == COPSE_NONE)
        fprintf(out, " -> miss\n");
    else
        fprintf(out, " -> hit id=%lu t=%.9g\n", (unsigned long)best, best_t);
    return 0;
}

static int box_brute(const char *path, const char *queries)
{
    box_set bs;
    float world[6];
    int have_world, rc;
    if (box_file_read(path, 3, "world", &bs.corners, &bs.count, world, &have_world) != 0)
        return 1;
    bs.verdict = (uint8_t *)malloc(bs.count);
    rc = bs.verdict == NULL ? tool_fail("out of memory") : word_run(queries, NULL, 0, &bs, box_answer);
    free(bs.verdict);
    free(bs.corners);
    return rc;
}

int octree_oracle_main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "cloud") == 0)
        return gen_cloud(argv[2], argv[3], (unsigned)atoi(argv[4]), (unsigned)atoi(argv[5]));
    if (argc == 5 && strcmp(argv[1], "cloud-queries") == 0)
        return gen_cloud_queries((unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "cloud-brute") == 0)
        return cloud_brute(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "boxes") == 0)
        return gen_boxes(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "box-queries") == 0)
        return gen_box_queries((unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "box-brute") == 0)
        return box_brute(argv[2], argv[3]);
    return -1;
}

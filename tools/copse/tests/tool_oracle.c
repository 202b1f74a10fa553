/* SPDX-License-Identifier: MIT */
/*
 * The tool tests' other side (tools/copse/tests/run.sh):
 *
 *   tool_oracle queries MESH N SEED     N random 3D queries around MESH (fixed seed), one a line
 *   tool_oracle direct MESH QUERIES     answers from a BVH built here with the library (SAH, leaf 4):
 *                                       the same text the tool prints for a baked blob
 *   tool_oracle brute MESH QUERIES      answers by brute force in double precision (tests/oracle):
 *                                       ids within the boundary band are marked '?' (either answer
 *                                       is right), compared by compare.py
 *   tool_oracle stl|ply|gltf OUT N SEED a generated mesh of N random triangles (binary STL, binary
 *                                       PLY or glTF: the same triangles for the same seed)
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bvh_query.h"
#include "../tool.h"
#include "mesh_load.h"
#include "oracle/oracle.h"
#include "tool_oracle.h"

static uint64_t g_rng;

void oracle_seed(uint64_t seed)
{
    g_rng = seed;
}

double rnd(double lo, double hi) /* splitmix64: the same numbers everywhere */
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int load(const char *path, host_mesh *m)
{
    char err[600];
    if (host_mesh_load(path, m, err, sizeof err) != 0)
        return tool_fail("%s", err);
    return 0;
}

static void bounds(const host_mesh *m, double *lo, double *hi)
{
    uint32_t i;
    unsigned a;
    for (a = 0; a < 3; a++) {
        lo[a] = hi[a] = (double)m->positions[a];
        for (i = 1; i < m->vertex_count; i++) {
            double v = (double)m->positions[3u * i + a];
            lo[a] = v < lo[a] ? v : lo[a];
            hi[a] = v > hi[a] ? v : hi[a];
        }
    }
}

static void corner(const host_mesh *m, uint32_t tri, unsigned k, double *out)
{
    const float *p = m->positions + 3u * m->indices[3u * tri + k];
    out[0] = (double)p[0];
    out[1] = (double)p[1];
    out[2] = (double)p[2];
}

/* ---- queries ------------------------------------------------------------------------------------- */

static void point_in(const double *lo, const double *hi, double grow, double *p)
{
    unsigned a;
    for (a = 0; a < 3; a++) {
        double pad = grow * (hi[a] - lo[a]);
        p[a] = rnd(lo[a] - pad, hi[a] + pad);
    }
}

static int gen_queries(const char *mesh_path, unsigned n, unsigned seed)
{
    host_mesh m;
    double lo[3], hi[3], e = 0.0, p[3], q[3];
    unsigned i, a;
    if (load(mesh_path, &m) != 0)
        return 1;
    g_rng = seed;
    bounds(&m, lo, hi);
    for (a = 0; a < 3; a++)
        e = hi[a] - lo[a] > e ? hi[a] - lo[a] : e;
    for (i = 0; i < n; i++) {
        point_in(lo, hi, 0.3, p);
        switch (i % 6u) {
        case 0: { /* a ray: half aimed at a point of a random triangle */
            if (i % 12u == 0) {
                double c[3][3], u = rnd(0, 1), v = rnd(0, 1 - u);
                uint32_t t = (uint32_t)rnd(0, (double)m.triangle_count);
                for (a = 0; a < 3; a++)
                    corner(&m, t, a, c[a]);
                for (a = 0; a < 3; a++)
                    q[a] = c[0][a] + u * (c[1][a] - c[0][a]) + v * (c[2][a] - c[0][a]) - p[a];
            } else {
                for (a = 0; a < 3; a++)
                    q[a] = rnd(-1, 1);
            }
            printf("ray %.9g %.9g %.9g %.9g %.9g %.9g", p[0], p[1], p[2], q[0], q[1], q[2]);
            if (i % 4u == 2)
                printf(" %.9g", rnd(0, 2));
            printf("\n");
            break;
        }
        case 1: {
            double h = rnd(0, 0.12 * e);
            printf("box %.9g %.9g %.9g %.9g %.9g %.9g\n", p[0] - h, p[1] - rnd(0, h), p[2] - h, p[0] + rnd(0, h),
                   p[1] + h, p[2] + h);
            break;
        }
        case 2:
            printf("sphere %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], rnd(0, 0.12 * e));
            break;
        case 3:
            printf("segment %.9g %.9g %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], p[0] + rnd(-0.3, 0.3) * e,
                   p[1] + rnd(-0.3, 0.3) * e, p[2] + rnd(-0.3, 0.3) * e);
            break;
        case 4:
            printf(i % 12u == 4 ? "nearest %.9g %.9g %.9g\n" : "nearest %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2],
                   rnd(0, 0.3 * e));
            break;
        default:
            printf("vertex %.9g %.9g %.9g\n", p[0], p[1], p[2]);
            break;
        }
    }
    host_mesh_free(&m);
    return 0;
}

/* ---- the tree, built here ------------------------------------------------------------------------ */

static int answer_on_tree(void *ctx, const bvh_query *q, FILE *out)
{
    return bvh_query_answer((const copse_bvh *)ctx, q, out);
}

static int direct(const char *mesh_path, const char *queries)
{
    host_mesh m;
    copse_mesh view;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bvh bvh;
    size_t bytes;
    void *mem;
    int rc;
    if (load(mesh_path, &m) != 0)
        return 1;
    view = host_mesh_view(&m);
    bytes = copse_bvh_build_bytes(m.triangle_count, 3, &params);
    mem = malloc(bytes);
    copse_arena_init(&arena, mem, bytes);
    if (mem == NULL || copse_bvh_build_mesh(&bvh, &arena, &view, &params) != COPSE_OK)
        rc = tool_fail("%s: direct build failed", mesh_path);
    else
        rc = bvh_query_run(queries, NULL, 0, answer_on_tree, &bvh);
    free(mem);
    host_mesh_free(&m);
    return rc;
}

/* ---- brute force --------------------------------------------------------------------------------- */

typedef struct brute {
    host_mesh m;
    double band;
} brute;

void ids_line(FILE *out, const uint8_t *verdict, uint32_t n)
{
    uint32_t i, count = 0;
    for (i = 0; i < n; i++)
        count += verdict[i] != ORC_NO;
    fprintf(out, " -> %lu ids:", (unsigned long)count);
    for (i = 0; i < n; i++)
        if (verdict[i] != ORC_NO)
            fprintf(out, orc_fragile((orc_verdict)verdict[i]) ? " ?%lu" : " %lu", (unsigned long)i);
    fputc('\n', out);
}

static int answer_brute(void *ctx, const bvh_query *q, FILE *out)
{
    const brute *b = (const brute *)ctx;
    const host_mesh *m = &b->m;
    const float *v = q->v;
    double a[3], c[3][3], d[3], tmp[3];
    uint32_t t, best = COPSE_NONE;
    unsigned k;
    for (k = 0; k < 3; k++) {
        a[k] = (double)v[k];
        d[k] = (double)v[3u + k];
    }
    if (strcmp(q->name, "ray") == 0) {
        orc_hit h, bh;
        bh.t = DBL_MAX;
        bh.u = bh.v = 0.0;
        for (t = 0; t < m->triangle_count; t++) {
            for (k = 0; k < 3; k++)
                corner(m, t, k, c[k]);
            h = orc_ray_triangle3(a, d, (double)v[6], c[0], c[1], c[2]);
            if (orc_exact(h.verdict) && h.t < bh.t) {
                bh = h;
                best = t;
            }
        }
        if (best == COPSE_NONE)
            fprintf(out, " -> miss\n");
        else
            fprintf(out, " -> hit id=%lu t=%.9g u=%.9g v=%.9g\n", (unsigned long)best, bh.t, bh.u, bh.v);
    } else if (strcmp(q->name, "nearest") == 0 || strcmp(q->name, "vertex") == 0) {
        double best_d = DBL_MAX, bp[3] = {0, 0, 0}, limit = (double)v[3];
        float fp[3];
        for (t = 0; t < m->triangle_count; t++)
            for (k = 0; k < 3; k++) {
                double dist;
                uint32_t id = q->name[0] == 'v' ? m->indices[3u * t + k] : t;
                corner(m, t, k, c[k]);
                if (q->name[0] == 'v') {
                    dist = orc_dist(a, c[k]);
                    memcpy(tmp, c[k], sizeof tmp);
                } else if (k == 2) {
                    dist = orc_closest_triangle(a, c[0], c[1], c[2], tmp);
                } else {
                    continue;
                }
                if (dist <= limit && (dist < best_d || (dist == best_d && id < best))) {
                    best_d = dist;
                    best = id;
                    memcpy(bp, tmp, sizeof bp);
                }
            }
        for (k = 0; k < 3; k++)
            fp[k] = (float)bp[k];
        bvh_query_print_nearest(out, best, (float)(best_d * best_d), fp, 3);
    } else {
        uint8_t *verdict = (uint8_t *)calloc(m->triangle_count + 1u, 1);
        if (verdict == NULL)
            return tool_fail("out of memory");
        for (t = 0; t < m->triangle_count; t++) {
            for (k = 0; k < 3; k++)
                corner(m, t, k, c[k]);
            if (strcmp(q->name, "box") == 0) {
                verdict[t] = (uint8_t)orc_triangle_box(a, d, c[0], c[1], c[2], b->band);
            } else if (strcmp(q->name, "sphere") == 0) {
                verdict[t] = (uint8_t)orc_ball(orc_closest_triangle(a, c[0], c[1], c[2], tmp), (double)v[3],
                                               b->band * orc_triangle_condition(c[0], c[1], c[2]));
            } else { /* segment */
                double dir[3];
                orc_sub(dir, d, a);
                verdict[t] = (uint8_t)orc_ray_triangle3(a, dir, 1.0, c[0], c[1], c[2]).verdict;
            }
        }
        ids_line(out, verdict, m->triangle_count);
        free(verdict);
    }
    return 0;
}

static int brute_force(const char *mesh_path, const char *queries)
{
    brute b;
    double lo[3], hi[3], mag = 0.0;
    unsigned a;
    int rc;
    if (load(mesh_path, &b.m) != 0)
        return 1;
    bounds(&b.m, lo, hi);
    for (a = 0; a < 3; a++)
        mag = fmax(mag, fmax(fabs(lo[a]), fmax(fabs(hi[a]), hi[a] - lo[a])));
    b.band = 64.0 * ORC_FLT_EPS * 2.0 * mag; /* queries reach 30 % beyond the bounds */
    rc = bvh_query_run(queries, NULL, 0, answer_brute, &b);
    host_mesh_free(&b.m);
    return rc;
}

/* ---- a generated mesh ---------------------------------------------------------------------------- */

static void put32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void put_float(FILE *f, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    put32(f, u);
}

/* Random small triangles in a 10-unit cube, some slivers and some touching: 9 floats each. */
static float *make_triangles(unsigned n, unsigned seed)
{
    float *xyz = (float *)malloc(sizeof(float) * 9u * (n > 0 ? n : 1u));
    unsigned i, k, a;
    if (xyz == NULL)
        return NULL;
    g_rng = seed;
    for (i = 0; i < n; i++) {
        double c[3], s = i % 17u == 0 ? 2.0 : 0.4;
        for (a = 0; a < 3; a++)
            c[a] = rnd(-5, 5);
        for (k = 0; k < 3; k++)
            for (a = 0; a < 3; a++)
                xyz[9u * i + 3u * k + a] = (float)(c[a] + rnd(-s, s) * (i % 23u == 0 && a == 1 ? 0.001 : 1.0));
    }
    return xyz;
}

static void write_stl(FILE *f, const float *xyz, unsigned n)
{
    char header[80];
    unsigned i, k;
    memset(header, 0, sizeof header);
    snprintf(header, sizeof header, "copse tool test mesh"); /* not "solid": binary */
    fwrite(header, 1, 80, f);
    put32(f, n);
    for (i = 0; i < n; i++) {
        for (k = 0; k < 3; k++)
            put_float(f, 0.0f); /* the normal: unused */
        for (k = 0; k < 9; k++)
            put_float(f, xyz[9u * i + k]);
        fputc(0, f);
        fputc(0, f);
    }
}

static void write_ply(FILE *f, const float *xyz, unsigned n)
{
    unsigned i, k;
    fprintf(f, "ply\nformat binary_little_endian 1.0\ncomment copse tool test mesh\nelement vertex %u\n"
               "property float x\nproperty float y\nproperty float z\nelement face %u\n"
               "property list uchar uint vertex_indices\nend_header\n",
            3u * n, n);
    for (i = 0; i < 9u * n; i++)
        put_float(f, xyz[i]);
    for (i = 0; i < n; i++) {
        fputc(3, f);
        for (k = 0; k < 3; k++)
            put32(f, 3u * i + k);
    }
}

/* glTF 2.0 with the vertices and indices in one base64 data URI (little-endian float32, uint32). */
static void write_gltf(FILE *f, const float *xyz, unsigned n)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const size_t vbytes = 36u * (size_t)n, bytes = vbytes + 36u * (size_t)n / 3u;
    unsigned char *buf = (unsigned char *)malloc(bytes + 3u);
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    size_t i;
    unsigned a;
    if (buf == NULL)
        return;
    memset(buf, 0, bytes + 3u);
    memcpy(buf, xyz, vbytes); /* this test runs on little-endian hosts, as the blobs do */
    for (i = 0; i < 3u * n; i++) {
        uint32_t v = (uint32_t)i;
        memcpy(buf + vbytes + 4u * i, &v, 4);
        for (a = 0; a < 3; a++) {
            float c = xyz[3u * i + a];
            lo[a] = i == 0 || c < lo[a] ? c : lo[a];
            hi[a] = i == 0 || c > hi[a] ? c : hi[a];
        }
    }
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],\n"
               "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"mode\":4}]}],\n"
               "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
               "\"min\":[%.9g,%.9g,%.9g],\"max\":[%.9g,%.9g,%.9g]},\n"
               "{\"bufferView\":1,\"componentType\":5125,\"count\":%u,\"type\":\"SCALAR\"}],\n"
               "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%lu,\"target\":34962},"
               "{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu,\"target\":34963}],\n"
               "\"buffers\":[{\"byteLength\":%lu,\"uri\":\"data:application/octet-stream;base64,",
            3u * n, (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2], 3u * n,
            (unsigned long)vbytes, (unsigned long)vbytes, (unsigned long)(bytes - vbytes), (unsigned long)bytes);
    for (i = 0; i < bytes; i += 3) {
        uint32_t w = (uint32_t)buf[i] << 16 | (uint32_t)buf[i + 1] << 8 | buf[i + 2];
        fputc(b64[w >> 18], f);
        fputc(b64[(w >> 12) & 63u], f);
        fputc(i + 1 < bytes ? b64[(w >> 6) & 63u] : '=', f);
        fputc(i + 2 < bytes ? b64[w & 63u] : '=', f);
    }
    fprintf(f, "\"}]}\n");
    free(buf);
}

/* The same triangles as binary STL, binary PLY or glTF: all three store floats exactly, so all
 * three files bake into the same blob. */
static int gen_mesh(const char *path, unsigned n, unsigned seed, const char *format)
{
    float *xyz = make_triangles(n, seed);
    FILE *f = fopen(path, "wb");
    if (f == NULL || xyz == NULL) {
        free(xyz);
        if (f != NULL)
            fclose(f);
        return tool_fail("%s: cannot write", path);
    }
    if (format[0] == 's')
        write_stl(f, xyz, n);
    else if (format[0] == 'p')
        write_ply(f, xyz, n);
    else
        write_gltf(f, xyz, n);
    free(xyz);
    return fclose(f) == 0 ? 0 : tool_fail("%s: write error", path);
}

int main(int argc, char **argv)
{
    int rc;
    if (argc == 5 && strcmp(argv[1], "queries") == 0)
        return gen_queries(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "direct") == 0)
        return direct(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "brute") == 0)
        return brute_force(argv[2], argv[3]);
    if (argc == 5 && (strcmp(argv[1], "stl") == 0 || strcmp(argv[1], "ply") == 0 || strcmp(argv[1], "gltf") == 0))
        return gen_mesh(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]), argv[1]);
    rc = octree_oracle_main(argc, argv);
    if (rc >= 0)
        return rc;
    fprintf(stderr, "usage: tool_oracle queries MESH N SEED | direct MESH QUERIES | brute MESH QUERIES | "
                    "stl|ply|gltf OUT N SEED | (octree_oracle.c's commands)\n");
    return 2;
}

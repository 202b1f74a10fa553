/* SPDX-License-Identifier: MIT */
/*
 * The closest-point kernels (src/geom/closest.c) against a double-precision oracle
 * (tests/oracle/oracle_closest.c, textbook definitions, never calling src/geom).
 *
 * Scenes (fixed seeds): fat, needle, sliver, nearly flat and exactly collinear triangles;
 * segments random, nearly parallel, parallel, collinear, crossing, touching and of zero length;
 * coordinates near 0, around 1 and 1e4 with small features, and near 1e15; points on corners and
 * edges, above faces, far away. Every kernel is judged on:
 *  - accuracy: |sqrt(d2) - d_exact| <= GC_TOL * FLT_EPSILON * M, M the largest |coordinate| of
 *    the inputs (the worst ratio seen is printed per kernel);
 *  - its points: on their primitives within GC_TOL_POINT * FLT_EPSILON * M, and d2 is
 *    |pa - pb|^2 computed from them in float;
 *  - order: every rotation and reflection of a triangle's corners, reversed segments and swapped
 *    arguments give the same bits (outputs swapped);
 *  - meeting: d2 is 0 exactly when the exact tests (src/geom/intersect.c) say the sets meet,
 *    then with one common point; a pair clearly apart for the oracle is never 0; a box that
 *    touches a triangle (built exactly) is never reported apart.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../src/geom/geom_collide.h"
#include "oracle/oracle_closest.h"
#include "suites.h"
#include "test.h"

#define GC_TOL 16.0       /* distance error, in FLT_EPSILON * M */
#define GC_TOL_POINT 32.0 /* returned points off their primitives, in FLT_EPSILON * M */
#define GC_EPS ((double)FLT_EPSILON)

enum { K_POINT_TRI, K_SEG_SEG, K_SEG_TRI, K_TRI_TRI, K_BOX_TRI, K_COUNT };
static const char *const k_names[K_COUNT] = {"point_triangle", "segment_segment", "segment_triangle",
                                             "triangle_triangle", "box_triangle"};
static double g_err[K_COUNT], g_perr[K_COUNT];
static unsigned long g_cases[K_COUNT];
static unsigned g_reported;

/* The six orders of three corners: three rotations, three reflections. */
static const unsigned char k_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

/* Samples per scene: the host, the Cortex-M boards with room, the micro:bit (soft double). */
static unsigned gc_reps(unsigned host)
{
    size_t m = test_memory_bytes();
    if (m >= ((size_t)32u << 20))
        return host;
    if (m >= (256u << 10))
        return host / 8u > 2u ? host / 8u : 2u;
    return host / 40u > 1u ? host / 40u : 1u;
}

/* A failed judgement: the first few are printed with their inputs, all are counted. */
static void gc_fail(const char *what, const float *const *pts, unsigned n, double got, double want)
{
    unsigned i;
    g_reported++;
    if (g_reported > 6u) {
        CHECK(false);
        return;
    }
    CHECKF(false, "%s: got %.9e, expected %.9e", what, got, want);
    for (i = 0; i < n; i++)
        copse_port_printf("    in[%u] = (%.9e, %.9e, %.9e)\n", i, (double)pts[i][0], (double)pts[i][1],
                          (double)pts[i][2]);
}

/* One judgement, counted as a check. */
static void gc_expect(bool ok, const char *what, const float *const *pts, unsigned n, double got, double want)
{
    if (ok)
        CHECK(true);
    else
        gc_fail(what, pts, n, got, want);
}

static void gc_d3(double *o, const float *f)
{
    o[0] = (double)f[0];
    o[1] = (double)f[1];
    o[2] = (double)f[2];
}

static double gc_maxabs(const float *const *pts, unsigned n)
{
    double m = 0.0;
    unsigned i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 3; k++)
            if (fabs((double)pts[i][k]) > m)
                m = fabs((double)pts[i][k]);
    return m;
}

/* |a - b|^2 in float, as the contract says the kernels compute it. */
static float gc_dist2f(const float *a, const float *b)
{
    float x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

static bool gc_same3(const float *a, const float *b)
{
    return memcmp(a, b, 3 * sizeof(float)) == 0;
}

/* The distance judgement shared by every kernel: accuracy against the oracle, d2 from the points. */
static void gc_judge(unsigned kernel, const float *const *in, unsigned n, double m, float d2, const float *pa,
                     const float *pb, double exact)
{
    double got = sqrt((double)d2), scale = GC_EPS * (m > 0.0 ? m : 1.0), err = fabs(got - exact) / scale;
    g_cases[kernel]++;
    if (err > g_err[kernel])
        g_err[kernel] = err;
    gc_expect(err <= GC_TOL, k_names[kernel], in, n, got, exact);
    gc_expect(d2 == gc_dist2f(pa, pb), "d2 is |pa - pb|^2 of the points", in, n, (double)d2,
              (double)gc_dist2f(pa, pb));
}

static void gc_judge_point(unsigned kernel, const float *const *in, unsigned n, double m, double off)
{
    double err = off / (GC_EPS * (m > 0.0 ? m : 1.0));
    if (err > g_perr[kernel])
        g_perr[kernel] = err;
    gc_expect(err <= GC_TOL_POINT, "a point off its primitive", in, n, off, 0.0);
}

static void gc_report(unsigned kernel)
{
    copse_port_printf("info geom_closest %s: %lu cases, max |d - d_exact| = %.2f eps*M, points within %.2f eps*M\n",
                      k_names[kernel], g_cases[kernel], g_err[kernel], g_perr[kernel]);
}

/* ---- scenes ---------------------------------------------------------------------------------- */

enum { S_UNIT, S_SMALL, S_FAR, S_HUGE, S_COUNT };
enum { T_FAT, T_NEEDLE, T_SLIVER, T_FLAT, T_COLLINEAR, T_COUNT };

typedef struct gc_scene {
    double center[3];
    double size;
    double quantum; /* a power of two: multiples of it near the centre are exact floats */
} gc_scene;

static double gc_u(test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)test_rng_u32(r) / 4294967296.0);
}

static void gc_scene_make(gc_scene *s, unsigned scale, test_rng *r)
{
    static const double k_center[S_COUNT] = {1.0, 1e-3, 1e4, 1e15};
    static const double k_size[S_COUNT] = {1.0, 1e-3, 0.25, 1e13};
    unsigned k;
    s->size = k_size[scale];
    s->quantum = 1.0;
    while (s->quantum > s->size / 64.0)
        s->quantum *= 0.5;
    while (s->quantum * 2.0 <= s->size / 64.0)
        s->quantum *= 2.0;
    for (k = 0; k < 3; k++) { /* on the grid, so grid points are exact floats */
        double c = k_center[scale] * gc_u(r, 0.5, 1.0) * (test_rng_below(r, 2) ? 1.0 : -1.0);
        s->center[k] = floor(c / s->quantum) * s->quantum;
    }
}

static void gc_set(float *out, const double *d)
{
    out[0] = (float)d[0];
    out[1] = (float)d[1];
    out[2] = (float)d[2];
}

/* A random point in the scene's cube, grown by `grow`. */
static void gc_point(float *out, const gc_scene *s, test_rng *r, double grow)
{
    double d[3];
    unsigned k;
    for (k = 0; k < 3; k++)
        d[k] = s->center[k] + gc_u(r, -1.0, 1.0) * s->size * grow;
    gc_set(out, d);
}

/* A grid point: centre + quantum * (integers in [-n, n]). Exact. */
static void gc_grid(float *out, const gc_scene *s, test_rng *r, int n)
{
    double d[3];
    unsigned k;
    for (k = 0; k < 3; k++)
        d[k] = s->center[k] + s->quantum * (double)((int)test_rng_below(r, (uint32_t)(2 * n + 1)) - n);
    gc_set(out, d);
}

static void gc_random_dir(double *d, test_rng *r)
{
    double l;
    do {
        d[0] = gc_u(r, -1.0, 1.0);
        d[1] = gc_u(r, -1.0, 1.0);
        d[2] = gc_u(r, -1.0, 1.0);
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (l < 0.1 || l > 1.0);
    d[0] /= l;
    d[1] /= l;
    d[2] /= l;
}

/* A triangle of the given kind in the scene. */
static void gc_triangle(float t[3][3], unsigned kind, const gc_scene *s, test_rng *r)
{
    double a[3], b[3], c[3], dir[3], len, w;
    unsigned k;
    if (kind == T_COLLINEAR) { /* exactly: a, a + d, a + 2d on the grid; or repeated corners */
        int step[3];
        unsigned form = test_rng_below(r, 4);
        gc_grid(t[0], s, r, 16);
        for (k = 0; k < 3; k++)
            step[k] = (int)test_rng_below(r, 17) - 8;
        for (k = 0; k < 3; k++) {
            t[1][k] = (float)((double)t[0][k] + s->quantum * 2.0 * step[k]);
            if (form == 0) /* the midpoint */
                t[2][k] = (float)((double)t[0][k] + s->quantum * step[k]);
            else if (form == 3) /* beyond b */
                t[2][k] = (float)((double)t[0][k] + s->quantum * 3.0 * step[k]);
            else /* repeated */
                t[2][k] = form == 1 ? t[0][k] : t[1][k];
        }
        if (form == 2 && test_rng_below(r, 2)) /* all three equal */
            for (k = 0; k < 3; k++)
                t[1][k] = t[2][k] = t[0][k];
        return;
    }
    for (k = 0; k < 3; k++) {
        a[k] = s->center[k] + gc_u(r, -1.0, 1.0) * s->size;
        b[k] = s->center[k] + gc_u(r, -1.0, 1.0) * s->size;
    }
    len = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
    gc_random_dir(dir, r);
    switch (kind) {
    case T_NEEDLE: /* one edge 1e-4 .. 1e-6 of the others */
        w = len * pow(10.0, -gc_u(r, 4.0, 6.0));
        for (k = 0; k < 3; k++)
            c[k] = b[k] + dir[k] * w;
        break;
    case T_SLIVER:
    case T_FLAT: { /* c near the segment ab: an angle near 180 degrees */
        double lambda = gc_u(r, 0.02, 0.98);
        w = len * (kind == T_SLIVER ? pow(10.0, -gc_u(r, 1.0, 6.0)) : pow(10.0, -gc_u(r, 7.0, 9.0)));
        for (k = 0; k < 3; k++)
            c[k] = a[k] + (b[k] - a[k]) * lambda + dir[k] * w;
        break;
    }
    default:
        for (k = 0; k < 3; k++)
            c[k] = s->center[k] + gc_u(r, -1.0, 1.0) * s->size;
        break;
    }
    gc_set(t[0], a);
    gc_set(t[1], b);
    gc_set(t[2], c);
}

static void gc_tri_d(double td[3][3], const double *tp[3], float t[3][3])
{
    unsigned i;
    for (i = 0; i < 3; i++) {
        gc_d3(td[i], t[i]);
        tp[i] = td[i];
    }
}

/* A point of the triangle (barycentric weights in double, rounded) and its unit normal. */
static void gc_on_triangle(double *x, double *n, float t[3][3], test_rng *r)
{
    double u = gc_u(r, 0.0, 1.0), v = gc_u(r, 0.0, 1.0), e1[3], e2[3], l;
    unsigned k;
    if (u + v > 1.0) {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    for (k = 0; k < 3; k++) {
        x[k] = (double)t[0][k] + ((double)t[1][k] - (double)t[0][k]) * u + ((double)t[2][k] - (double)t[0][k]) * v;
        e1[k] = (double)t[1][k] - (double)t[0][k];
        e2[k] = (double)t[2][k] - (double)t[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l > 0.0) {
        n[0] /= l;
        n[1] /= l;
        n[2] /= l;
    } else {
        gc_random_dir(n, r);
    }
}

/* A query point for a triangle: 0 random near, 1 above the face, 2 far, 3 a corner, 4 near an
 * edge, 5 on the face (rounded). */
static void gc_query(float *p, float t[3][3], const gc_scene *s, unsigned how, test_rng *r)
{
    double x[3], n[3], h;
    unsigned k, i = test_rng_below(r, 3);
    switch (how) {
    case 0:
        gc_point(p, s, r, 2.0);
        return;
    case 1:
    case 5:
        gc_on_triangle(x, n, t, r);
        h = how == 5 ? 0.0 : s->size * pow(10.0, -gc_u(r, 0.0, 7.0)) * (test_rng_below(r, 2) ? 1.0 : -1.0);
        for (k = 0; k < 3; k++)
            x[k] += n[k] * h;
        gc_set(p, x);
        return;
    case 2:
        gc_point(p, s, r, 20.0);
        return;
    case 3:
        for (k = 0; k < 3; k++)
            p[k] = t[i][k];
        return;
    default: {
        double lambda = gc_u(r, 0.0, 1.0), dir[3], off = s->size * pow(10.0, -gc_u(r, 0.0, 8.0));
        gc_random_dir(dir, r);
        for (k = 0; k < 3; k++)
            x[k] = (double)t[i][k] + ((double)t[(i + 1) % 3][k] - (double)t[i][k]) * lambda + dir[k] * off;
        gc_set(p, x);
        return;
    }
    }
}

/* ---- point and triangle ---------------------------------------------------------------------- */

static void gc_point_triangle_case(const float *p, float t[3][3])
{
    const float *tri[3], *in[4];
    const double *tp[3];
    double pd[3], td[3][3], qd[3], o[3], m, exact;
    float q[3], d2, q2[3], d2b;
    unsigned i, j;
    for (i = 0; i < 3; i++)
        tri[i] = in[i] = t[i];
    in[3] = p;
    m = gc_maxabs(in, 4);
    d2 = copse_geo_point_triangle(p, tri, q);
    gc_d3(pd, p);
    gc_tri_d(td, tp, t);
    exact = ocl_point_triangle(pd, tp, o);
    gc_judge(K_POINT_TRI, in, 4, m, d2, p, q, exact);
    gc_d3(qd, q);
    gc_judge_point(K_POINT_TRI, in, 4, m, ocl_point_triangle(qd, tp, o));
    for (i = 0; i < 3; i++) /* a corner is its own closest point, exactly */
        if (memcmp(p, t[i], sizeof(float) * 3) == 0)
            gc_expect(d2 == 0.0f && gc_same3(p, q), "point_triangle: a corner is its own closest point", in, 4,
                      (double)d2, 0.0);
    for (i = 0; i < 6; i++) {
        const float *pt[3];
        geo_tri_prep prep;
        for (j = 0; j < 3; j++)
            pt[j] = t[k_perm[i][j]];
        if (i > 0) {
            d2b = copse_geo_point_triangle(p, pt, q2);
            gc_expect(memcmp(&d2, &d2b, sizeof d2) == 0 && gc_same3(q, q2),
                      "point_triangle: another corner order gave other bits", in, 4, (double)d2b, (double)d2);
        }
        copse_geo_tri_prepare(&prep, pt);
        d2b = copse_geo_point_tri_prepared(&prep, p, q2);
        gc_expect(memcmp(&d2, &d2b, sizeof d2) == 0 && gc_same3(q, q2),
                  "point_tri_prepared: other bits than point_triangle", in, 4, (double)d2b, (double)d2);
    }
}

static void test_point_triangle_random(void)
{
    unsigned scale, kind, how, rep, reps = gc_reps(120);
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0001u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (kind = 0; kind < T_COUNT; kind++)
            for (how = 0; how < 6u; how++)
                for (rep = 0; rep < reps; rep++) {
                    gc_scene s;
                    float t[3][3], p[3];
                    gc_scene_make(&s, scale, &r);
                    gc_triangle(t, kind, &s, &r);
                    gc_query(p, t, &s, how, &r);
                    gc_point_triangle_case(p, t);
                }
    gc_report(K_POINT_TRI);
}

/* Hand-built: corners, edge points and face points that are exact floats, a point in the plane of
 * a degenerate triangle, the three-equal-corners point, and huge and tiny coordinates. */
static void test_point_triangle_cases(void)
{
    static const float k_tri[3][3] = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
    static const float k_pts[][3] = {{0, 0, 0},  {4, 0, 0},   {0, 4, 0},   {2, 0, 0},    {2, 2, 0},
                                     {1, 1, 0},  {1, 1, 3},   {1, 1, -3},  {-1, -1, 0},  {5, -1, 2},
                                     {3, 3, 0},  {-2, 2, 1},  {2, -5, 0},  {0.5f, 3.5f, 7}, {8, 8, 8}};
    float t[3][3], p[3];
    unsigned i, k, sc;
    g_reported = 0;
    for (sc = 0; sc < 4u; sc++) {
        static const float k_scale[4] = {1.0f, 1e-3f, 1e4f, 1e15f};
        for (i = 0; i < sizeof k_pts / sizeof k_pts[0]; i++) {
            for (k = 0; k < 3; k++) {
                t[0][k] = k_tri[0][k] * k_scale[sc];
                t[1][k] = k_tri[1][k] * k_scale[sc];
                t[2][k] = k_tri[2][k] * k_scale[sc];
                p[k] = k_pts[i][k] * k_scale[sc];
            }
            gc_point_triangle_case(p, t);
            {
                const float *tri[3];
                float q[3];
                tri[0] = t[0];
                tri[1] = t[1];
                tri[2] = t[2];
                if (i < 3) /* a corner is its own closest point */
                    CHECK(copse_geo_point_triangle(p, tri, q) == 0.0f && gc_same3(p, q));
            }
        }
    }
    /* a point on the line of a collinear triangle, beyond it and between its corners */
    {
        static const float k_line[3][3] = {{1, 1, 1}, {3, 3, 3}, {2, 2, 2}};
        static const float k_q[3][3] = {{5, 5, 5}, {2, 2, 2}, {0, 2, 4}};
        memcpy(t, k_line, sizeof t);
        for (i = 0; i < 3; i++)
            gc_point_triangle_case(k_q[i], t);
    }
}

/* ---- segment and segment --------------------------------------------------------------------- */

static void gc_seg_seg_case(const float *a0, const float *a1, const float *b0, const float *b1)
{
    const float *in[4];
    double ad[2][3], bd[2][3], pad[3], pbd[3], x[3], y[3], m, exact;
    float pa[3], pb[3], d2, qa[3], qb[3], e2;
    unsigned v;
    in[0] = a0;
    in[1] = a1;
    in[2] = b0;
    in[3] = b1;
    m = gc_maxabs(in, 4);
    d2 = copse_geo_segment_segment(a0, a1, b0, b1, pa, pb);
    gc_d3(ad[0], a0);
    gc_d3(ad[1], a1);
    gc_d3(bd[0], b0);
    gc_d3(bd[1], b1);
    exact = ocl_segment_segment(ad[0], ad[1], bd[0], bd[1], x, y);
    gc_judge(K_SEG_SEG, in, 4, m, d2, pa, pb, exact);
    gc_d3(pad, pa);
    gc_d3(pbd, pb);
    gc_judge_point(K_SEG_SEG, in, 4, m, ocl_point_segment(pad, ad[0], ad[1], x));
    gc_judge_point(K_SEG_SEG, in, 4, m, ocl_point_segment(pbd, bd[0], bd[1], y));
    for (v = 1; v < 8u; v++) { /* reversed ends, swapped arguments */
        const float *x0 = v & 1u ? a1 : a0, *x1 = v & 1u ? a0 : a1, *y0 = v & 2u ? b1 : b0, *y1 = v & 2u ? b0 : b1;
        bool same;
        if (v & 4u) {
            e2 = copse_geo_segment_segment(y0, y1, x0, x1, qb, qa);
        } else {
            e2 = copse_geo_segment_segment(x0, x1, y0, y1, qa, qb);
        }
        same = memcmp(&d2, &e2, sizeof d2) == 0 && gc_same3(pa, qa) && gc_same3(pb, qb);
        gc_expect(same, "segment_segment: reversed or swapped arguments gave other bits", in, 4, (double)e2,
                  (double)d2);
    }
}

static void test_segment_segment(void)
{
    unsigned scale, form, rep, reps = gc_reps(150), k;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0002u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (form = 0; form < 8u; form++)
            for (rep = 0; rep < reps; rep++) {
                gc_scene s;
                float a0[3], a1[3], b0[3], b1[3];
                int d1[3], d2[3];
                gc_scene_make(&s, scale, &r);
                for (k = 0; k < 3; k++) {
                    d1[k] = (int)test_rng_below(&r, 9) - 4;
                    d2[k] = (int)test_rng_below(&r, 9) - 4;
                }
                switch (form) {
                case 0: /* random */
                    gc_point(a0, &s, &r, 1.0);
                    gc_point(a1, &s, &r, 1.0);
                    gc_point(b0, &s, &r, 1.0);
                    gc_point(b1, &s, &r, 1.0);
                    break;
                case 1: { /* nearly parallel: b's direction is a's turned by 1e-3 .. 1e-8 */
                    double dir[3], tilt = pow(10.0, -gc_u(&r, 3.0, 8.0)), off[3], x[3];
                    gc_point(a0, &s, &r, 1.0);
                    gc_point(a1, &s, &r, 1.0);
                    gc_random_dir(dir, &r);
                    for (k = 0; k < 3; k++)
                        off[k] = gc_u(&r, -1.0, 1.0) * s.size * pow(10.0, -gc_u(&r, 0.0, 6.0));
                    for (k = 0; k < 3; k++)
                        x[k] = (double)a0[k] + off[k] + gc_u(&r, -0.5, 0.5) * ((double)a1[k] - (double)a0[k]);
                    gc_set(b0, x);
                    for (k = 0; k < 3; k++)
                        x[k] = (double)b0[k] + ((double)a1[k] - (double)a0[k]) * gc_u(&r, 0.5, 1.5) +
                               dir[k] * tilt * s.size;
                    gc_set(b1, x);
                    break;
                }
                case 2: /* exactly parallel (grid) */
                case 3: /* collinear (grid) */
                case 4: /* crossing at a grid point */
                case 5: /* touching: an end of b on a */
                {
                    int i0 = (int)test_rng_below(&r, 5) - 2, i1 = i0 + 1 + (int)test_rng_below(&r, 4);
                    int j0 = (int)test_rng_below(&r, 9) - 4, j1 = j0 + (int)test_rng_below(&r, 5);
                    float base[3], other[3];
                    gc_grid(base, &s, &r, 20);
                    gc_grid(other, &s, &r, 20);
                    if (d1[0] == 0 && d1[1] == 0 && d1[2] == 0)
                        d1[0] = 1;
                    for (k = 0; k < 3; k++) {
                        double q = s.quantum, o = form == 2 ? (double)other[k] : (double)base[k];
                        const int *db = form == 2 || form == 3 ? d1 : d2;
                        a0[k] = (float)((double)base[k] + q * d1[k] * i0);
                        a1[k] = (float)((double)base[k] + q * d1[k] * i1);
                        if (form == 5) {
                            b0[k] = (float)((double)base[k] + q * d1[k] * (i0 + (i1 - i0) / 2));
                            b1[k] = (float)((double)b0[k] + q * d2[k] * 3);
                        } else {
                            b0[k] = (float)(o + q * db[k] * j0);
                            b1[k] = (float)(o + q * db[k] * j1);
                        }
                    }
                    break;
                }
                case 6: /* zero length: one or both */
                    gc_point(a0, &s, &r, 1.0);
                    gc_point(b0, &s, &r, 1.0);
                    gc_point(b1, &s, &r, 1.0);
                    for (k = 0; k < 3; k++)
                        a1[k] = a0[k];
                    if (rep & 1u)
                        for (k = 0; k < 3; k++)
                            b1[k] = b0[k];
                    break;
                default: /* far apart, one tiny */
                    gc_point(a0, &s, &r, 1.0);
                    gc_point(a1, &s, &r, 1.0);
                    gc_point(b0, &s, &r, 10.0);
                    for (k = 0; k < 3; k++)
                        b1[k] = (float)((double)b0[k] + s.size * 1e-5 * gc_u(&r, -1.0, 1.0));
                    break;
                }
                gc_seg_seg_case(a0, a1, b0, b1);
            }
    gc_report(K_SEG_SEG);
}

/* ---- segment and triangle -------------------------------------------------------------------- */

static void gc_seg_tri_case(const float *s0, const float *s1, float t[3][3], int must_meet)
{
    const float *tri[3], *in[5];
    const double *tp[3];
    double sd[2][3], td[3][3], psd[3], ptd[3], x[3], y[3], m, exact;
    float ps[3], pt[3], d2, qs[3], qt[3], e2;
    bool meet;
    unsigned i, j;
    for (i = 0; i < 3; i++)
        tri[i] = in[i] = t[i];
    in[3] = s0;
    in[4] = s1;
    m = gc_maxabs(in, 5);
    d2 = copse_geo_segment_triangle(s0, s1, tri, ps, pt);
    gc_d3(sd[0], s0);
    gc_d3(sd[1], s1);
    gc_tri_d(td, tp, t);
    exact = ocl_segment_triangle(sd[0], sd[1], tp, x, y);
    gc_judge(K_SEG_TRI, in, 5, m, d2, ps, pt, exact);
    gc_d3(psd, ps);
    gc_d3(ptd, pt);
    gc_judge_point(K_SEG_TRI, in, 5, m, ocl_point_segment(psd, sd[0], sd[1], x));
    gc_judge_point(K_SEG_TRI, in, 5, m, ocl_point_triangle(ptd, tp, y));
    meet = copse_geo_segment_triangle_overlap(s0, s1, tri);
    gc_expect((d2 == 0.0f) == meet, "segment_triangle: 0 exactly when the exact test meets", in, 5, (double)d2,
              meet ? 0.0 : 1.0);
    gc_expect(d2 != 0.0f || gc_same3(ps, pt), "segment_triangle: a meeting pair reports one point", in, 5, 1.0, 0.0);
    gc_expect(exact <= 4.0 * GC_TOL * GC_EPS * m || d2 != 0.0f, "segment_triangle: clearly apart but 0", in, 5, 0.0,
              exact);
    gc_expect(!must_meet || d2 == 0.0f, "segment_triangle: a crossing reported apart", in, 5, (double)d2, 0.0);
    for (i = 0; i < 12u; i++) {
        const float *pp[3];
        for (j = 0; j < 3; j++)
            pp[j] = t[k_perm[i % 6u][j]];
        e2 = i < 6u ? copse_geo_segment_triangle(s0, s1, pp, qs, qt) : copse_geo_segment_triangle(s1, s0, pp, qs, qt);
        gc_expect(memcmp(&d2, &e2, sizeof d2) == 0 && gc_same3(ps, qs) && gc_same3(pt, qt),
                  "segment_triangle: another corner or end order gave other bits", in, 5, (double)e2, (double)d2);
    }
}

static void test_segment_triangle(void)
{
    unsigned scale, kind, form, rep, reps = gc_reps(40), k;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0003u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (kind = 0; kind < T_COUNT; kind++)
            for (form = 0; form < 7u; form++)
                for (rep = 0; rep < reps; rep++) {
                    gc_scene s;
                    float t[3][3], s0[3], s1[3];
                    double x[3], n[3], dir[3], h, len;
                    int must = 0;
                    gc_scene_make(&s, scale, &r);
                    gc_triangle(t, kind, &s, &r);
                    switch (form) {
                    case 0: /* random near */
                        gc_point(s0, &s, &r, 1.5);
                        gc_point(s1, &s, &r, 1.5);
                        break;
                    case 1: /* through the face at a steep angle: crosses (for a fat triangle) */
                    case 2: /* parallel to the face, above it */
                    case 3: /* in the plane (rounded) */
                        gc_on_triangle(x, n, t, &r);
                        gc_random_dir(dir, &r);
                        len = s.size * gc_u(&r, 0.1, 1.0);
                        h = form == 2 ? s.size * pow(10.0, -gc_u(&r, 0.0, 6.0)) : 0.0;
                        if (form == 1) {
                            for (k = 0; k < 3; k++)
                                dir[k] = n[k] + 0.3 * dir[k];
                        } else { /* remove the normal part */
                            double dn = dir[0] * n[0] + dir[1] * n[1] + dir[2] * n[2];
                            for (k = 0; k < 3; k++)
                                dir[k] -= dn * n[k];
                        }
                        for (k = 0; k < 3; k++) {
                            double a = x[k] + n[k] * h - dir[k] * len * gc_u(&r, 0.0, 1.0);
                            double b = x[k] + n[k] * h + dir[k] * len * gc_u(&r, 0.0, 1.0);
                            s0[k] = (float)a;
                            s1[k] = (float)b;
                        }
                        /* a fat triangle crossed well inside must meet */
                        must = form == 1 && kind == T_FAT && scale != S_FAR ? -1 : 0;
                        break;
                    case 4: /* an end on a corner */
                        for (k = 0; k < 3; k++)
                            s0[k] = t[rep % 3u][k];
                        gc_point(s1, &s, &r, 1.5);
                        must = 1;
                        break;
                    case 5: /* zero length */
                        gc_query(s0, t, &s, rep % 6u, &r);
                        for (k = 0; k < 3; k++)
                            s1[k] = s0[k];
                        break;
                    default: /* far, long */
                        gc_point(s0, &s, &r, 10.0);
                        gc_point(s1, &s, &r, 10.0);
                        break;
                    }
                    if (must < 0) { /* decide with the oracle whether the crossing is clear */
                        double sd0[3], sd1[3], td[3][3], y0[3], y1[3];
                        const double *tp[3];
                        gc_d3(sd0, s0);
                        gc_d3(sd1, s1);
                        gc_tri_d(td, tp, t);
                        must = ocl_segment_triangle(sd0, sd1, tp, y0, y1) == 0.0 &&
                               ocl_point_triangle(sd0, tp, y0) > 1e-3 * s.size &&
                               ocl_point_triangle(sd1, tp, y1) > 1e-3 * s.size;
                        if (must) { /* and the crossing point is well inside */
                            unsigned e;
                            for (e = 0; e < 3; e++)
                                if (ocl_point_segment(y0, tp[e], tp[(e + 1) % 3], y1) < 1e-3 * s.size)
                                    must = 0;
                        }
                    }
                    gc_seg_tri_case(s0, s1, t, must);
                }
    gc_report(K_SEG_TRI);
}

/* ---- triangle and triangle ------------------------------------------------------------------- */

/* The other entries on the pair (p2, q2), given in some order, against the plain one's answer
 * (d2, a, b): prepared triangles (both argument orders), and when the pair is apart the entries
 * that skip the exact test. All must give the same bits. */
static void gc_tri_tri_variants(const float *const p2[3], const float *const q2[3], bool meet, float d2,
                                const float *a, const float *b, const float *const *in)
{
    geo_tri_prep pp, qp;
    float e2, a2[3], b2[3];
    unsigned v;
    copse_geo_tri_prepare(&pp, p2);
    copse_geo_tri_prepare(&qp, q2);
    for (v = 0; v < 4u; v++) {
        if (v >= 2u && meet)
            break;
        switch (v) {
        case 0:
            e2 = copse_geo_tri_tri_prepared(&pp, &qp, a2, b2);
            break;
        case 1:
            e2 = copse_geo_tri_tri_prepared(&qp, &pp, b2, a2);
            break;
        case 2:
            e2 = copse_geo_tri_tri_prepared_apart(&qp, &pp, b2, a2);
            break;
        default:
            e2 = copse_geo_triangle_triangle_apart(p2, q2, a2, b2);
            break;
        }
        gc_expect(memcmp(&d2, &e2, sizeof d2) == 0 && gc_same3(a, a2) && gc_same3(b, b2),
                  "triangle_triangle: a prepared or apart entry gave other bits", in, 6, (double)e2, (double)d2);
    }
}

static void gc_tri_tri_case(float p[3][3], float q[3][3], bool must_meet)
{
    const float *pp[3], *qq[3], *in[6];
    const double *pd[3], *qd[3];
    double pdd[3][3], qdd[3][3], x[3], y[3], o[3], m, exact;
    float a[3], b[3], d2, a2[3], b2[3], e2;
    bool meet;
    unsigned i, j, v;
    for (i = 0; i < 3; i++) {
        pp[i] = in[i] = p[i];
        qq[i] = in[3 + i] = q[i];
    }
    m = gc_maxabs(in, 6);
    d2 = copse_geo_triangle_triangle(pp, qq, a, b);
    gc_tri_d(pdd, pd, p);
    gc_tri_d(qdd, qd, q);
    exact = ocl_triangle_triangle(pd, qd, x, y);
    gc_judge(K_TRI_TRI, in, 6, m, d2, a, b, exact);
    gc_d3(x, a);
    gc_d3(y, b);
    gc_judge_point(K_TRI_TRI, in, 6, m, ocl_point_triangle(x, pd, o));
    gc_judge_point(K_TRI_TRI, in, 6, m, ocl_point_triangle(y, qd, o));
    meet = copse_geo_triangle_triangle_overlap(pp, qq);
    gc_expect((d2 == 0.0f) == meet, "triangle_triangle: 0 exactly when the exact test meets", in, 6, (double)d2,
              meet ? 0.0 : 1.0);
    gc_expect(d2 != 0.0f || gc_same3(a, b), "triangle_triangle: a meeting pair reports one point", in, 6, 1.0, 0.0);
    gc_expect(exact <= 4.0 * GC_TOL * GC_EPS * m || d2 != 0.0f, "triangle_triangle: clearly apart but 0", in, 6, 0.0,
              exact);
    gc_expect(!must_meet || d2 == 0.0f, "triangle_triangle: a crossing reported apart", in, 6, (double)d2, 0.0);
    for (v = 0; v < 12u; v++) { /* orders of both, and the arguments swapped */
        const float *p2[3], *q2[3];
        for (j = 0; j < 3; j++) {
            p2[j] = p[k_perm[v % 6u][j]];
            q2[j] = q[k_perm[(v * 5u + 1u) % 6u][j]];
        }
        e2 = v < 6u ? copse_geo_triangle_triangle(p2, q2, a2, b2) : copse_geo_triangle_triangle(q2, p2, b2, a2);
        gc_expect(memcmp(&d2, &e2, sizeof d2) == 0 && gc_same3(a, a2) && gc_same3(b, b2),
                  "triangle_triangle: another corner or argument order gave other bits", in, 6, (double)e2, (double)d2);
        gc_tri_tri_variants(p2, q2, meet, d2, a, b, in);
    }
}

static void test_triangle_triangle(void)
{
    unsigned scale, kp, form, rep, reps = gc_reps(24), k, i;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0004u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (kp = 0; kp < T_COUNT; kp++)
            for (form = 0; form < 5u; form++)
                for (rep = 0; rep < reps; rep++) {
                    gc_scene s;
                    float p[3][3], q[3][3];
                    double x[3], n[3], dir[3];
                    bool must = false;
                    gc_scene_make(&s, scale, &r);
                    gc_triangle(p, kp, &s, &r);
                    gc_triangle(q, test_rng_below(&r, T_COUNT), &s, &r);
                    switch (form) {
                    case 0: /* random pair in the same cube */
                        break;
                    case 1: /* q's first edge pierces p steeply */
                        gc_on_triangle(x, n, p, &r);
                        gc_random_dir(dir, &r);
                        for (k = 0; k < 3; k++) {
                            double l = s.size * 0.5;
                            q[0][k] = (float)(x[k] - (n[k] + 0.3 * dir[k]) * l);
                            q[1][k] = (float)(x[k] + (n[k] + 0.3 * dir[k]) * l);
                        }
                        if (kp == T_FAT && scale != S_FAR) {
                            double pd0[3][3], y0[3], y1[3], z0[3], z1[3];
                            const double *pd[3];
                            gc_tri_d(pd0, pd, p);
                            gc_d3(z0, q[0]);
                            gc_d3(z1, q[1]);
                            must = ocl_segment_triangle(z0, z1, pd, y0, y1) == 0.0;
                            for (i = 0; i < 3 && must; i++)
                                if (ocl_point_segment(y0, pd[i], pd[(i + 1) % 3], y1) < 1e-3 * s.size)
                                    must = false;
                        }
                        break;
                    case 2: /* a shared corner */
                        for (k = 0; k < 3; k++)
                            q[rep % 3u][k] = p[(rep / 3u) % 3u][k];
                        must = true;
                        break;
                    case 3: /* q: p shifted along its normal by a small gap (parallel planes) */
                        gc_on_triangle(x, n, p, &r);
                        {
                            double gap = s.size * pow(10.0, -gc_u(&r, 0.0, 6.0));
                            for (i = 0; i < 3; i++)
                                for (k = 0; k < 3; k++)
                                    q[i][k] = (float)((double)p[(i + 1) % 3][k] + n[k] * gap +
                                                      gc_u(&r, -0.3, 0.3) * s.size);
                        }
                        break;
                    default: /* q far away */
                        for (i = 0; i < 3; i++)
                            for (k = 0; k < 3; k++)
                                q[i][k] = (float)((double)q[i][k] + 5.0 * s.size);
                        break;
                    }
                    gc_tri_tri_case(p, q, must);
                }
    /* coplanar grid triangles: overlapping, touching along an edge, star-of-David crossing, apart */
    {
        static const float k_cop[4][2][3][3] = {
            {{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}, {{1, 1, 0}, {5, 1, 0}, {1, 5, 0}}},
            {{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}, {{4, 0, 0}, {0, 4, 0}, {4, 4, 0}}},
            {{{0, 0, 0}, {6, 0, 0}, {3, 6, 0}}, {{0, 4, 0}, {6, 4, 0}, {3, -2, 0}}},
            {{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}, {{3, 3, 0}, {7, 3, 0}, {3, 7, 0}}}};
        float p[3][3], q[3][3];
        unsigned c, sc;
        for (sc = 0; sc < 3u; sc++) {
            static const float k_scale[3] = {1.0f, 1e-3f, 1e15f};
            for (c = 0; c < 4u; c++) {
                for (i = 0; i < 3; i++)
                    for (k = 0; k < 3; k++) {
                        p[i][k] = k_cop[c][0][i][k] * k_scale[sc];
                        q[i][k] = k_cop[c][1][i][k] * k_scale[sc];
                    }
                gc_tri_tri_case(p, q, c < 3u);
            }
        }
    }
    gc_report(K_TRI_TRI);
}

/* Pairs as a mesh-against-mesh walk meets them: two triangles of a size near each other, most
 * apart by less than their size, where the fast search must find the nearest of many close
 * features. Forms: a corner, an edge's point or a face's point of q placed at a small gap from a
 * point of p in a random direction; an edge of q parallel to one of p (near-ties between the edge
 * pairs); q parallel to p's plane, shifted sideways; and q's corners on a grid with p's so that
 * edges cross at exact distances. Kinds as in triangle_triangle (needles and slivers make the
 * near-ties). */
static void test_triangle_triangle_near(void)
{
    unsigned scale, kp, form, rep, reps = gc_reps(20), k, i;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0007u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (kp = 0; kp < T_COUNT; kp++)
            for (form = 0; form < 4u; form++)
                for (rep = 0; rep < reps; rep++) {
                    gc_scene s;
                    float p[3][3], q[3][3];
                    double x[3], n[3], dir[3], y[3], gap;
                    gc_scene_make(&s, scale, &r);
                    gc_triangle(p, kp, &s, &r);
                    gc_triangle(q, test_rng_below(&r, T_COUNT), &s, &r);
                    gap = s.size * pow(10.0, -gc_u(&r, 0.0, 6.0));
                    switch (form) {
                    case 0: { /* a point of q (corner, edge point or face point) near a point of p */
                        unsigned c = test_rng_below(&r, 3);
                        double w0 = gc_u(&r, 0.0, 1.0), w1 = test_rng_below(&r, 3) == 0 ? 0.0 : gc_u(&r, 0.0, 1.0 - w0);
                        gc_on_triangle(x, n, p, &r);
                        gc_random_dir(dir, &r);
                        for (k = 0; k < 3; k++) /* the point of q, moved onto x + dir * gap */
                            y[k] = (double)q[c][k] + ((double)q[(c + 1) % 3][k] - (double)q[c][k]) * w0 +
                                   ((double)q[(c + 2) % 3][k] - (double)q[c][k]) * w1;
                        for (i = 0; i < 3; i++)
                            for (k = 0; k < 3; k++)
                                q[i][k] = (float)((double)q[i][k] - y[k] + x[k] + dir[k] * gap);
                        break;
                    }
                    case 1: { /* q's first edge parallel to p's edge, at the gap, overlapping along it */
                        unsigned c = test_rng_below(&r, 3);
                        double lo = gc_u(&r, -0.5, 0.5), hi = gc_u(&r, 0.5, 1.5), e[3];
                        gc_on_triangle(x, n, p, &r);
                        gc_random_dir(dir, &r);
                        for (k = 0; k < 3; k++)
                            e[k] = (double)p[(c + 1) % 3][k] - (double)p[c][k];
                        {
                            double ed = (dir[0] * e[0] + dir[1] * e[1] + dir[2] * e[2]) /
                                        (e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + 1e-300), l;
                            for (k = 0; k < 3; k++) /* dir perpendicular to the edge */
                                dir[k] -= ed * e[k];
                            l = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
                            for (k = 0; k < 3; k++)
                                dir[k] = l > 0.0 ? dir[k] / l : n[k];
                        }
                        for (k = 0; k < 3; k++) {
                            q[0][k] = (float)((double)p[c][k] + e[k] * lo + dir[k] * gap);
                            q[1][k] = (float)((double)p[c][k] + e[k] * hi + dir[k] * gap);
                            q[2][k] = (float)((double)q[2][k] + dir[k] * s.size);
                        }
                        break;
                    }
                    case 2: /* q: p's corners moved along p's normal by the gap, and sideways */
                        gc_on_triangle(x, n, p, &r);
                        gc_random_dir(dir, &r);
                        for (i = 0; i < 3; i++)
                            for (k = 0; k < 3; k++)
                                q[i][k] = (float)((double)p[(i + 1) % 3][k] + n[k] * gap + dir[k] * s.size * 0.3);
                        break;
                    default: /* grid corners: edges crossing at exact distances, corners over faces */
                        for (i = 0; i < 3; i++) {
                            gc_grid(p[i], &s, &r, 8);
                            gc_grid(q[i], &s, &r, 8);
                        }
                        for (i = 0; i < 3; i++) /* q moved up by a whole number of quanta */
                            q[i][2] = (float)((double)q[i][2] + s.quantum * (double)(1 + test_rng_below(&r, 4)));
                        break;
                    }
                    gc_tri_tri_case(p, q, false);
                }
    gc_report(K_TRI_TRI);
}

/* ---- box and triangle ------------------------------------------------------------------------ */

/* must: 1 they touch or overlap (built exactly), 0 unknown */
static void gc_box_tri_case(const float *h, float t[3][3], bool must_meet)
{
    const float *tri[3], *in[4];
    const double *tp[3];
    double hd[3], td[3][3], pbd[3], ptd[3], x[3], y[3], m, exact, gap;
    float pb[3], pt[3], d2, qb[3], qt[3], e2;
    bool meet;
    unsigned i, j;
    for (i = 0; i < 3; i++)
        tri[i] = in[i] = t[i];
    in[3] = h;
    m = gc_maxabs(in, 4);
    gc_d3(hd, h);
    gc_tri_d(td, tp, t);
    meet = copse_geo_box_triangle_overlap(h, tri);
    d2 = copse_geo_box_triangle(h, tri, pb, pt);
    gap = ocl_box_triangle_gap(hd, tp);
    exact = ocl_box_triangle(hd, tp, x, y);
    gc_expect((d2 == 0.0f) == meet, "box_triangle: 0 exactly when box_triangle_overlap says so", in, 4, (double)d2,
              meet ? 0.0 : 1.0);
    gc_expect(!must_meet || meet, "box_triangle_overlap: a touching pair reported apart", in, 4, 1.0, 0.0);
    gc_expect(meet || gap >= -GC_EPS * m, "box_triangle_overlap: an overlapping pair reported apart", in, 4, gap, 0.0);
    gc_expect(!meet || exact <= GC_TOL * GC_EPS * m, "box_triangle_overlap: a pair clearly apart reported meeting", in,
              4, 0.0, exact);
    if (!meet)
        gc_judge(K_BOX_TRI, in, 4, m, d2, pb, pt, exact);
    else
        gc_expect(gc_same3(pb, pt), "box_triangle: a meeting pair reports one point", in, 4, 1.0, 0.0);
    gc_d3(pbd, pb);
    gc_d3(ptd, pt);
    gc_judge_point(K_BOX_TRI, in, 4, m, ocl_point_box(pbd, hd, x));
    gc_judge_point(K_BOX_TRI, in, 4, m, ocl_point_triangle(ptd, tp, y));
    for (i = 1; i < 6u; i++) {
        const float *pp[3];
        for (j = 0; j < 3; j++)
            pp[j] = t[k_perm[i][j]];
        e2 = copse_geo_box_triangle(h, pp, qb, qt);
        gc_expect(memcmp(&d2, &e2, sizeof d2) == 0 && gc_same3(pb, qb) && gc_same3(pt, qt) &&
                      copse_geo_box_triangle_overlap(h, pp) == meet,
                  "box_triangle: another corner order gave other bits", in, 4, (double)e2, (double)d2);
    }
}

static void test_box_triangle(void)
{
    unsigned scale, kind, form, rep, reps = gc_reps(40), k, i;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0005u);
    for (scale = 0; scale < S_COUNT; scale++)
        for (kind = 0; kind < T_COUNT; kind++)
            for (form = 0; form < 4u; form++)
                for (rep = 0; rep < reps; rep++) {
                    gc_scene s;
                    float t[3][3], h[3];
                    gc_scene_make(&s, scale, &r);
                    for (k = 0; k < 3; k++) /* the box at the origin of its frame, some extents 0 */
                        h[k] = test_rng_below(&r, 6) == 0 ? 0.0f : (float)(s.size * gc_u(&r, 0.05, 1.0));
                    s.center[0] = s.center[1] = s.center[2] = 0.0;
                    gc_triangle(t, kind, &s, &r);
                    switch (form) {
                    case 0: /* random near the box */
                        break;
                    case 1: /* pushed off by up to two box sizes */
                    case 2: {
                        double off[3], sc = form == 1 ? 2.0 : 0.1;
                        gc_random_dir(off, &r);
                        for (i = 0; i < 3; i++)
                            for (k = 0; k < 3; k++)
                                t[i][k] = (float)((double)t[i][k] + off[k] * s.size * sc * gc_u(&r, 0.5, 1.5));
                        break;
                    }
                    default: /* small, near a face */
                        for (i = 0; i < 3; i++)
                            for (k = 0; k < 3; k++)
                                t[i][k] = (float)((double)t[i][k] * 0.1 + (k == rep % 3u ? (double)h[k] * 1.05 : 0.0));
                        break;
                    }
                    gc_box_tri_case(h, t, false);
                }
    /* built exactly: touching at a corner on a face, an edge on an edge, the face on a box corner
     * (x/hx + y/hy + z/hz = 3 through (hx, hy, hz)), lying in a face's plane; and one ulp apart */
    {
        static const float k_half[4][3] = {{1, 1, 1}, {0.5f, 2, 0.25f}, {3, 0, 1}, {1e15f, 2e15f, 5e14f}};
        float h[3], t[3][3];
        unsigned b, c, ulp;
        for (b = 0; b < 4u; b++) {
            for (k = 0; k < 3; k++)
                h[k] = k_half[b][k];
            for (c = 0; c < 5u; c++) {
                for (ulp = 0; ulp < 2u; ulp++) {
                    switch (c) {
                    case 0: /* a corner on the +x face */
                        t[0][0] = h[0], t[0][1] = h[1] * 0.5f, t[0][2] = -h[2] * 0.5f;
                        t[1][0] = h[0] * 3, t[1][1] = h[1] * 2, t[1][2] = h[2];
                        t[2][0] = h[0] * 2, t[2][1] = -h[1], t[2][2] = h[2] * 3;
                        break;
                    case 1: /* an edge across the box edge x = hx, y = hy */
                        t[0][0] = h[0] * 2, t[0][1] = h[1] * 0, t[0][2] = h[2] * 0.5f;
                        t[1][0] = h[0] * 0, t[1][1] = h[1] * 2, t[1][2] = h[2] * 0.5f;
                        t[2][0] = h[0] * 3, t[2][1] = h[1] * 3, t[2][2] = -h[2];
                        break;
                    case 2: /* the face through the corner (hx, hy, hz) */
                        t[0][0] = h[0] * 3, t[0][1] = 0, t[0][2] = 0;
                        t[1][0] = 0, t[1][1] = h[1] * 3, t[1][2] = 0;
                        t[2][0] = 0, t[2][1] = 0, t[2][2] = h[2] * 3;
                        break;
                    case 3: /* in the plane z = hz, over the face */
                        t[0][0] = -h[0] * 2, t[0][1] = -h[1] * 2, t[0][2] = h[2];
                        t[1][0] = h[0] * 4, t[1][1] = -h[1] * 2, t[1][2] = h[2];
                        t[2][0] = -h[0] * 2, t[2][1] = h[1] * 4, t[2][2] = h[2];
                        break;
                    default: /* a corner on the box corner */
                        t[0][0] = h[0], t[0][1] = h[1], t[0][2] = h[2];
                        t[1][0] = h[0] * 2, t[1][1] = h[1] * 3, t[1][2] = h[2] * 2 + 1;
                        t[2][0] = h[0] * 3 + 1, t[2][1] = h[1], t[2][2] = h[2] * 4;
                        break;
                    }
                    if (ulp) { /* move it all one ulp outward along +x (+z for the face-plane case) */
                        unsigned ax = c == 3 ? 2u : (c == 1 ? 1u : 0u);
                        for (i = 0; i < 3; i++)
                            t[i][ax] = nextafterf(t[i][ax], t[i][ax] + 1.0f + fabsf(t[i][ax]));
                    }
                    gc_box_tri_case(h, t, ulp == 0 && !(c == 2 && b == 3u)); /* 3 * 1e15f rounds */
                }
            }
        }
    }
    gc_report(K_BOX_TRI);
}

/* A random multiple of 2^-10 in [lo, hi] (units of 2^-10): sums of a few stay exact floats. */
static float gc_grid10(test_rng *r, int lo, int hi)
{
    return (float)((lo + (int)test_rng_below(r, (uint32_t)(hi - lo + 1))) * (1.0 / 1024.0));
}

/* Touching exactly, with coordinates whose products round, so that only a conservative
 * separating-axis test keeps them together: a triangle whose centroid is the box corner c and
 * whose plane supports the box there (c + u, c + v, c - u - v with u x v > 0 on every axis), and a
 * triangle with an edge whose midpoint lies on a box edge, the triangle outside the box. */
static void test_box_triangle_touching(void)
{
    unsigned rep, reps = gc_reps(400), k, i, form;
    test_rng r;
    g_reported = 0;
    test_rng_seed(&r, 0x5eed0006u);
    for (form = 0; form < 2u; form++)
        for (rep = 0; rep < reps; rep++) {
            float h[3], t[3][3], u[3], v[3], sc = (float)ldexp(1.0, (int)test_rng_below(&r, 40) - 20);
            for (k = 0; k < 3; k++)
                h[k] = gc_grid10(&r, 256, 1024) * sc;
            if (form == 0) {
                float n[3];
                do {
                    for (k = 0; k < 3; k++) {
                        u[k] = gc_grid10(&r, -700, 700) * sc;
                        v[k] = gc_grid10(&r, -700, 700) * sc;
                    }
                    n[0] = u[1] * v[2] - u[2] * v[1];
                    n[1] = u[2] * v[0] - u[0] * v[2];
                    n[2] = u[0] * v[1] - u[1] * v[0];
                } while (!((n[0] > 0 && n[1] > 0 && n[2] > 0) || (n[0] < 0 && n[1] < 0 && n[2] < 0)));
                if (n[0] < 0) /* the plane's normal must point away from the box at the corner */
                    for (k = 0; k < 3; k++)
                        u[k] = -u[k], v[k] = -v[k];
                for (k = 0; k < 3; k++) {
                    t[0][k] = h[k] + u[k];
                    t[1][k] = h[k] + v[k];
                    t[2][k] = h[k] - u[k] - v[k];
                }
                if (n[0] < 0) { /* (u, v) -> (-u, -v) keeps u x v: swap to flip it */
                    for (k = 0; k < 3; k++) {
                        float x = t[0][k];
                        t[0][k] = t[1][k];
                        t[1][k] = x;
                    }
                }
            } else { /* the edge midpoint P = (hx, hy, pz) on the box edge along z */
                float pz = gc_grid10(&r, -256, 256) * sc, wz = gc_grid10(&r, -900, 900) * sc;
                float wx = gc_grid10(&r, 1, 900) * sc, wy = gc_grid10(&r, 1, 900) * sc;
                t[0][0] = h[0] + wx, t[0][1] = h[1] - wy, t[0][2] = pz + wz;
                t[1][0] = h[0] - wx, t[1][1] = h[1] + wy, t[1][2] = pz - wz;
                t[2][0] = h[0] + gc_grid10(&r, 1, 900) * sc, t[2][1] = h[1] + gc_grid10(&r, 1, 900) * sc;
                t[2][2] = pz + gc_grid10(&r, -900, 900) * sc;
            }
            for (i = 0; i < 3; i++) /* some in every octant: mirror the scene */
                for (k = 0; k < 3; k++)
                    if ((rep >> k) & 1u)
                        t[i][k] = -t[i][k];
            gc_box_tri_case(h, t, true);
        }
}

void suite_geom_closest(void)
{
    memset(g_err, 0, sizeof g_err);
    memset(g_perr, 0, sizeof g_perr);
    memset(g_cases, 0, sizeof g_cases);
    test_run("geom_closest/point_triangle_random", test_point_triangle_random);
    test_run("geom_closest/point_triangle_cases", test_point_triangle_cases);
    test_run("geom_closest/segment_segment", test_segment_segment);
    test_run("geom_closest/segment_triangle", test_segment_triangle);
    test_run("geom_closest/triangle_triangle", test_triangle_triangle);
    test_run("geom_closest/triangle_triangle_near", test_triangle_triangle_near);
    test_run("geom_closest/box_triangle", test_box_triangle);
    test_run("geom_closest/box_triangle_touching", test_box_triangle_touching);
}

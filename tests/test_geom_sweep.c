/* SPDX-License-Identifier: MIT */
/*
 * GJK and the sweep kernels (src/geom/gjk.c, src/geom/sweep.c) against the double-precision
 * oracle of tests/oracle/oracle_sweep.c (brute-force convex distances; first contact by golden
 * section and bisection on the exact distance, which is convex in t under translation).
 *
 * GJK: random hulls of 1..8 points (rotated, translated, grown by a radius) against triangles
 * (fat, slivers, needles, segments, points), boxes (8 corners) and points, at scales 1e-12 to
 * 1e14 and far from the origin. The distance agrees with the oracle within GJK_ERR of the scale;
 * overlap is reported whenever the oracle finds the sets meet, and never when they are apart by
 * more than the tolerance band; the points lie on their hulls and the distance returned is theirs;
 * swapping the hulls swaps the outputs bit for bit. Touching pairs built exactly (a shared corner,
 * a triangle in a box's face plane, balls and capsules at exactly the sum of their radii) report 0.
 *
 * Sweeps, judged by their contract: on a hit, the gap at the reported t is at most
 * COPSE_SWEEP_TOLERANCE of the scale (contact declared within tolerance) and, past t = 0, not
 * below -PEN of it (never past the exact contact beyond rounding); a miss only where the oracle's
 * smallest gap over [0, t_max] is positive by more than 2 ulps of the scale (grazing contacts
 * must be found); the point lies on the triangle and at the shape; the unit normal spans a plane
 * that separates the two at contact, and for spheres and capsules agrees with the oracle's
 * closest-point direction. Hand cases: head-on, grazing (a face, an edge, a corner: hit when
 * tangent, miss at 1e-3 of the scale), parallel to a face, along an edge, starting in contact
 * and inside, zero motion, huge motion, degenerate triangles; every order of the triangle's
 * corners gives the same bits.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../src/geom/geom_collide.h"
#include "copse/collide.h"
#include "oracle/oracle.h"
#include "oracle/oracle_sweep.h"
#include "suites.h"
#include "test.h"

#define EPS ORC_FLT_EPS
/* GJK's distance error allowed, relative to the scale (measured: under 2 ulps) */
#define GJK_ERR (16.0 * EPS)
/* a sweep's penetration allowed at its reported contact, relative to the scale (rounding) */
#define PEN (64.0 * EPS)
/* the distance of a reported contact point from the triangle, relative to the scale */
#define ON_TRI (16.0 * EPS)

/* The host does the full counts; boards run the oracle in software double, the micro:bit most
 * slowly of all. */
static unsigned scaled(unsigned host, unsigned board, unsigned micro)
{
    size_t m = test_memory_bytes();
    return m >= ((size_t)32u << 20) ? host : (m >= ((size_t)256u << 10) ? board : micro);
}

static double urand(test_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * ((double)test_rng_u32(rng) / 4294967296.0);
}

static double max_abs_f(const float *p, unsigned n)
{
    double m = 0.0;
    unsigned i;
    for (i = 0; i < n; i++)
        m = fabs((double)p[i]) > m ? fabs((double)p[i]) : m;
    return m;
}

static void to_d(double *out, const float *p)
{
    out[0] = (double)p[0];
    out[1] = (double)p[1];
    out[2] = (double)p[2];
}

static osw_tri tri_d(const float *t)
{
    osw_tri T;
    int i;
    for (i = 0; i < 3; i++)
        to_d(T.v[i], t + 3 * i);
    return T;
}

/* A uniformly random rotation (a random unit quaternion), row-major, rounded to float. */
static void rand_rot(test_rng *rng, float *r)
{
    double q[4], n = 0.0, x, y, z, w;
    int i;
    do {
        n = 0.0;
        for (i = 0; i < 4; i++) {
            q[i] = urand(rng, -1.0, 1.0);
            n += q[i] * q[i];
        }
    } while (n > 1.0 || n < 1e-3);
    n = sqrt(n);
    x = q[0] / n;
    y = q[1] / n;
    z = q[2] / n;
    w = q[3] / n;
    r[0] = (float)(1 - 2 * (y * y + z * z));
    r[1] = (float)(2 * (x * y - z * w));
    r[2] = (float)(2 * (x * z + y * w));
    r[3] = (float)(2 * (x * y + z * w));
    r[4] = (float)(1 - 2 * (x * x + z * z));
    r[5] = (float)(2 * (y * z - x * w));
    r[6] = (float)(2 * (x * z - y * w));
    r[7] = (float)(2 * (y * z + x * w));
    r[8] = (float)(1 - 2 * (x * x + y * y));
}

static const float k_identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

/* A scene's size and placement: the size s (tiny and huge ones too, whose squared cross products
 * leave float's range), and an offset o that puts it far from the origin one time in four. */
static void rand_frame(test_rng *rng, double *s, double *o)
{
    static const double sizes[8] = { 0.01, 0.1, 1.0, 1.0, 10.0, 1000.0, 1e-12, 1e14 };
    int k;
    *s = sizes[test_rng_below(rng, 8)];
    for (k = 0; k < 3; k++)
        o[k] = test_rng_below(rng, 4) == 0 ? 100.0 * *s * urand(rng, -1.0, 1.0) : 0.0;
}

static void rand_point(test_rng *rng, float *p, const double *o, double s)
{
    int k;
    for (k = 0; k < 3; k++)
        p[k] = (float)(o[k] + s * urand(rng, -1.0, 1.0));
}

/* A random triangle of size s around o: fat, sliver, needle, a segment or a point. */
static void rand_tri(test_rng *rng, float *t, const double *o, double s)
{
    unsigned kind = test_rng_below(rng, 10), k;
    rand_point(rng, t, o, s);
    rand_point(rng, t + 3, o, s);
    rand_point(rng, t + 6, o, s);
    if (kind == 6) { /* a sliver: the third corner near the middle of the first edge */
        for (k = 0; k < 3; k++)
            t[6 + k] = (float)(0.5 * ((double)t[k] + (double)t[3 + k]) + s * 1e-3 * urand(rng, -1.0, 1.0));
    } else if (kind == 7) { /* a needle: two corners close */
        for (k = 0; k < 3; k++)
            t[3 + k] = (float)((double)t[k] + s * 1e-3 * urand(rng, -1.0, 1.0));
    } else if (kind == 8) { /* a segment */
        memcpy(t + 6, t + 3, 3 * sizeof(float));
    } else if (kind == 9 && test_rng_below(rng, 2) == 0) { /* a point */
        memcpy(t + 3, t, 3 * sizeof(float));
        memcpy(t + 6, t, 3 * sizeof(float));
    }
}

static void box_corners_f(const float *half, float *corners)
{
    unsigned c, k;
    for (c = 0; c < 8u; c++)
        for (k = 0; k < 3u; k++)
            corners[3 * c + k] = (c >> k & 1u) ? half[k] : -half[k];
}

static osw_box box_d(const float *center, const float *rot, const float *half)
{
    osw_box b;
    int j, k;
    for (j = 0; j < 3; j++) {
        b.center[j] = (double)center[j];
        b.half[j] = (double)half[j];
        for (k = 0; k < 3; k++)
            b.axis[j][k] = (double)rot[3 * k + j]; /* the axes are the columns */
    }
    return b;
}

static float dist_sq_f(const float *a, const float *b)
{
    float d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

static bool same_bits(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n) == 0;
}

/* ---- GJK ------------------------------------------------------------------------------------- */

typedef struct gjk_tally {
    double max_err;
    unsigned long calls, overlaps;
} gjk_tally;

/* A hull's points (at most 8) from x, y, z triples. */
static const copse_vec3 *hull_points(copse_vec3 *store, const float *xyz, unsigned count)
{
    unsigned k;
    for (k = 0; k < count; k++)
        store[k] = copse_v3(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]);
    return store;
}

/* The hull's points mapped in double (p' = R p + t, from the float R and t). */
static void hull_d(const geo_hull *h, double *out)
{
    uint32_t i;
    int j;
    for (i = 0; i < h->count; i++) {
        const float xyz[3] = { h->points[i].x, h->points[i].y, h->points[i].z }, *p = xyz;
        for (j = 0; j < 3; j++) {
            double x = h->rot ? (double)h->rot[3 * j] * (double)p[0] + (double)h->rot[3 * j + 1] * (double)p[1] +
                                    (double)h->rot[3 * j + 2] * (double)p[2]
                              : (double)p[j];
            out[3 * i + (uint32_t)j] = x + (h->trans ? (double)h->trans[j] : 0.0);
        }
    }
}

/* Distance from p to the hull's core (its points, not grown). */
static double point_hull(const double *pts, unsigned n, const float *p)
{
    osw_tri P;
    double x[3], y[3];
    to_d(P.v[0], p);
    to_d(P.v[1], p);
    to_d(P.v[2], p);
    return osw_hull_triangle(pts, n, &P, x, y);
}

/* A against B, where B is a triangle (3 points, no pose) or a box (8 corners, posed) and the
 * oracle's answer is `core` (the distance of the cores) and `scale`. Checks the contract. */
static void judge_gjk(gjk_tally *tally, const char *what, unsigned idx, const geo_hull *a, const geo_hull *b,
                      double core, double scale, bool must_touch)
{
    float pa[3], pb[3], qa[3], qb[3], d2, e2;
    double pts_a[24], pts_b[24], gap = core - (double)a->radius - (double)b->radius, got;
    bool apart;
    d2 = copse_geo_gjk(a, b, pa, pb);
    e2 = copse_geo_gjk(b, a, qb, qa);
    tally->calls++;
    CHECKF(same_bits(&d2, &e2, sizeof d2) && same_bits(pa, qa, sizeof pa) && same_bits(pb, qb, sizeof pb),
           "%s %u: swapping the hulls changed the answer (%.9g vs %.9g)", what, idx, (double)d2, (double)e2);
    CHECKF(d2 == dist_sq_f(pa, pb), "%s %u: returned %.9g, |pa - pb|^2 = %.9g", what, idx, (double)d2,
           (double)dist_sq_f(pa, pb));
    got = sqrt((double)d2);
    apart = d2 > 0.0f;
    if (gap < 0.0)
        gap = 0.0;
    if (!apart)
        tally->overlaps++;
    if (core == 0.0 || must_touch)
        CHECKF(!apart, "%s %u: the sets meet, GJK says %.9g apart (scale %.3g)", what, idx, got, scale);
    if (gap > 1.5 * (double)COPSE_GJK_TOLERANCE * scale)
        CHECKF(apart, "%s %u: %.9g apart (%.3g of the scale), GJK says they touch", what, idx, gap, gap / scale);
    if (apart) {
        double err = fabs(got - gap) / scale;
        tally->max_err = err > tally->max_err ? err : tally->max_err;
        CHECKF(err <= GJK_ERR, "%s %u: distance %.9g, oracle %.9g (%.3g of the scale)", what, idx, got, gap, err);
    }
    /* the points on (or, when they overlap, in) their grown hulls */
    hull_d(a, pts_a);
    hull_d(b, pts_b);
    {
        double da = point_hull(pts_a, a->count, pa), db = point_hull(pts_b, b->count, pb);
        double slack = (apart ? GJK_ERR : 2.0 * (double)COPSE_GJK_TOLERANCE) * scale;
        CHECKF(da <= (double)a->radius + slack && db <= (double)b->radius + slack,
               "%s %u: points off their hulls by %.3g, %.3g (radii %.3g, %.3g)", what, idx, da, db, (double)a->radius,
               (double)b->radius);
    }
}

static void gjk_report(const char *what, const gjk_tally *t)
{
    copse_port_printf("  %s: %lu pairs (%lu overlapping), distance error up to %.3g of the scale\n", what, t->calls,
                      t->overlaps, t->max_err);
}

static void test_gjk_triangles(void)
{
    unsigned n = scaled(3000u, 150u, 25u), i;
    gjk_tally tally = { 0.0, 0, 0 };
    test_rng rng;
    test_rng_seed(&rng, 101u);
    for (i = 0; i < n; i++) {
        float pts[24], tri[9], rot[9], trans[3], center[3];
        double s, o[3], pd[24], scale, x[3], y[3], core;
        unsigned count = 1u + test_rng_below(&rng, 8), k;
        geo_hull a, b;
        copse_vec3 hull_a[8], hull_b[8];
        osw_tri T;
        rand_frame(&rng, &s, o);
        for (k = 0; k < 3u * count; k++) /* in its own frame, placed by the pose */
            pts[k] = (float)(s * urand(&rng, -1.0, 1.0));
        rand_rot(&rng, rot);
        rand_point(&rng, center, o, 1.5 * s);
        trans[0] = center[0];
        trans[1] = center[1];
        trans[2] = center[2];
        rand_tri(&rng, tri, o, 1.5 * s);
        a.count = count;
        a.points = hull_points(hull_a, pts, a.count);
        a.rot = test_rng_below(&rng, 4) == 0 ? NULL : rot;
        a.trans = trans;
        a.radius = test_rng_below(&rng, 3) == 0 ? (float)(s * urand(&rng, 0.0, 0.3)) : 0.0f;
        b.points = hull_points(hull_b, tri, 3);
        b.count = 3;
        b.rot = NULL;
        b.trans = NULL;
        b.radius = 0.0f;
        hull_d(&a, pd);
        T = tri_d(tri);
        core = osw_hull_triangle(pd, count, &T, x, y);
        scale = max_abs_f(tri, 9) + (double)a.radius;
        for (k = 0; k < 3u * count; k++)
            scale = fabs(pd[k]) > scale ? fabs(pd[k]) : scale;
        judge_gjk(&tally, "hull-triangle", i, &a, &b, core, scale, false);
    }
    gjk_report("hull-triangle", &tally);
}

static void test_gjk_boxes(void)
{
    unsigned n = scaled(800u, 40u, 6u), i;
    gjk_tally tally = { 0.0, 0, 0 };
    test_rng rng;
    test_rng_seed(&rng, 202u);
    for (i = 0; i < n; i++) {
        float pts[24], corners[24], rot[9], brot[9], trans[3], center[3], half[3];
        double s, o[3], pd[24], scale, x[3], y[3], core, bc[8][3];
        unsigned count = 1u + test_rng_below(&rng, 8), k;
        geo_hull a, b;
        copse_vec3 hull_a[8], hull_b[8];
        osw_box box;
        rand_frame(&rng, &s, o);
        for (k = 0; k < 3u * count; k++)
            pts[k] = (float)(s * urand(&rng, -1.0, 1.0));
        rand_rot(&rng, rot);
        rand_rot(&rng, brot);
        rand_point(&rng, trans, o, 1.5 * s);
        rand_point(&rng, center, o, 0.5 * s);
        for (k = 0; k < 3u; k++)
            half[k] = test_rng_below(&rng, 8) == 0 ? 0.0f : (float)(s * urand(&rng, 0.05, 0.8));
        box_corners_f(half, corners);
        a.count = count;
        a.points = hull_points(hull_a, pts, a.count);
        a.rot = rot;
        a.trans = trans;
        a.radius = test_rng_below(&rng, 3) == 0 ? (float)(s * urand(&rng, 0.0, 0.3)) : 0.0f;
        b.points = hull_points(hull_b, corners, 8);
        b.count = 8;
        b.rot = brot;
        b.trans = center;
        b.radius = test_rng_below(&rng, 4) == 0 ? (float)(s * urand(&rng, 0.0, 0.2)) : 0.0f;
        hull_d(&a, pd);
        box = box_d(center, brot, half);
        core = osw_hull_box(pd, count, &box, x, y);
        osw_box_corners(&box, bc);
        scale = (double)a.radius + (double)b.radius;
        for (k = 0; k < 3u * count; k++)
            scale = fabs(pd[k]) > scale ? fabs(pd[k]) : scale;
        for (k = 0; k < 24u; k++)
            scale = fabs(bc[k / 3u][k % 3u]) > scale ? fabs(bc[k / 3u][k % 3u]) : scale;
        judge_gjk(&tally, "hull-box", i, &a, &b, core, scale, false);
    }
    gjk_report("hull-box", &tally);
}

/* Pairs that touch exactly: a shared corner, a triangle lying in a box's face plane across the
 * face, a triangle's corner on a face, balls and capsules at exactly the sum of their radii,
 * and the same a few ulps apart (either answer, but a distance that agrees). */
static void test_gjk_touching(void)
{
    static const float cube[24] = { -1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1,
                                    -1, -1, 1,  1, -1, 1,  -1, 1, 1,  1, 1, 1 };
    gjk_tally tally = { 0.0, 0, 0 };
    unsigned rep, c;
    test_rng rng;
    test_rng_seed(&rng, 303u);
    for (rep = 0; rep < 8u; rep++) {
        const float sc = rep < 4u ? 1.0f : 256.0f, off = (rep & 1u) ? 1024.0f : 0.0f;
        if (scaled(1u, 1u, 0u) == 0u && rep != 0u && rep != 5u)
            continue; /* the micro:bit: one unit scene at the origin, one large one far out */
        float pts[24], tri[9], trans[3] = { off, -off, off };
        geo_hull a, b;
        copse_vec3 hull_a[8], hull_b[8];
        double pd[24], x[3], y[3], core, scale;
        osw_tri T;
        for (c = 0; c < 24u; c++)
            pts[c] = cube[c] * sc;
        a.count = 8;
        a.points = hull_points(hull_a, pts, a.count);
        a.rot = NULL;
        a.trans = trans;
        a.radius = 0.0f;
        b.points = hull_b; /* set from tri below, as each triangle is made */
        b.count = 3;
        b.rot = NULL;
        b.trans = NULL;
        b.radius = 0.0f;
        hull_d(&a, pd);
        scale = 1024.0 + 4.0 * (double)sc;
        for (c = 0; c < 5u; c++) {
            /* 0: in the top face's plane, across the face; 1: a corner on the face; 2: sharing the
             * cube's corner; 3: along an edge; 4: in the plane, just beside the face */
            float z = trans[2] + sc;
            float u = (float)urand(&rng, -0.9, 0.9) * sc, w = (float)urand(&rng, -0.9, 0.9) * sc;
            float base[9];
            unsigned k;
            switch (c) {
            case 0: {
                const float t0[9] = { -2, -0.5f, 0, 2, -0.5f, 0, 0, 3, 0 };
                memcpy(base, t0, sizeof base);
                for (k = 0; k < 9u; k++)
                    base[k] *= sc;
                break;
            }
            case 1: {
                const float t1[9] = { 0, 0, 0, 1, 0, 2, 0, 1, 3 };
                for (k = 0; k < 9u; k++)
                    base[k] = t1[k] * sc;
                base[0] = u;
                base[1] = w;
                base[3] += u;
                base[4] += w;
                base[6] += u;
                base[7] += w;
                break;
            }
            case 2: {
                const float t2[9] = { 1, 1, 0, 3, 1, 1, 1, 3, 2 };
                for (k = 0; k < 9u; k++)
                    base[k] = t2[k] * sc;
                break;
            }
            case 3: {
                const float t3[9] = { -3, 1, 0, 3, 1, 0, 0, 2, 2 };
                for (k = 0; k < 9u; k++)
                    base[k] = t3[k] * sc;
                break;
            }
            default: {
                const float t4[9] = { 1, -1, 0, 3, 0, 0, 2, 2, 0 };
                for (k = 0; k < 9u; k++)
                    base[k] = t4[k] * sc;
                break;
            }
            }
            for (k = 0; k < 3u; k++) {
                tri[3 * k] = base[3 * k] + trans[0];
                tri[3 * k + 1] = base[3 * k + 1] + trans[1];
                tri[3 * k + 2] = base[3 * k + 2] + z;
            }
            hull_points(hull_b, tri, 3);
            T = tri_d(tri);
            core = osw_hull_triangle(pd, 8, &T, x, y);
            judge_gjk(&tally, "touching", rep * 10u + c, &a, &b, core, scale, true);
            /* a few ulps above the face: either answer, the distance right when apart */
            for (k = 0; k < 3u; k++)
                tri[3 * k + 2] = nextafterf(nextafterf(tri[3 * k + 2], FLT_MAX), FLT_MAX);
            hull_points(hull_b, tri, 3);
            T = tri_d(tri);
            core = osw_hull_triangle(pd, 8, &T, x, y);
            judge_gjk(&tally, "nearly touching", rep * 10u + c, &a, &b, core, scale, false);
        }
    }
    { /* balls and capsules at exactly the sum of their radii: 0.75 + 0.25 = 1 */
        static const copse_vec3 p0[1] = { { 0, 0, 0 } }, p1[1] = { { 1, 0, 0 } }, seg[2] = { { 1, -2, 0 }, { 1, 2, 0 } };
        geo_hull a = { p0, 1, NULL, NULL, 0.75f }, b = { p1, 1, NULL, NULL, 0.25f };
        judge_gjk(&tally, "balls", 0, &a, &b, 1.0, 1.0, true);
        b.points = seg;
        b.count = 2;
        judge_gjk(&tally, "ball-capsule", 0, &a, &b, 1.0, 2.0, true);
        a.radius = 0.5f; /* 0.25 apart */
        judge_gjk(&tally, "ball-capsule apart", 0, &a, &b, 1.0, 2.0, false);
    }
    gjk_report("touching", &tally);
}

/* ---- sweeps: cases and the judge ------------------------------------------------------------- */

enum { SH_SPHERE, SH_CAPSULE, SH_BOX };

typedef struct sw_case {
    int kind;
    bool point;        /* against the point tri[0..2], else the triangle */
    float a[3], b[3];  /* sphere centre, capsule ends, box centre (a) */
    float r;
    float rot[9], half[3];
    float v[3];
    float t_max;
    float tri[9];
} sw_case;

typedef struct sw_result {
    bool hit;
    float t, point[3], normal[3];
} sw_result;

static sw_result run_case(const sw_case *c, const unsigned *order)
{
    static const unsigned k_order[3] = { 0, 1, 2 };
    const float *t[3];
    sw_result res;
    if (order == NULL)
        order = k_order;
    t[0] = c->tri + 3 * order[0];
    t[1] = c->tri + 3 * order[1];
    t[2] = c->tri + 3 * order[2];
    memset(&res, 0, sizeof res);
    if (c->point) {
        memcpy(res.point, c->tri, sizeof res.point);
        if (c->kind == SH_SPHERE)
            res.hit = copse_geo_sweep_sphere_point(c->a, c->r, c->v, c->tri, c->t_max, &res.t, res.normal);
        else if (c->kind == SH_CAPSULE)
            res.hit = copse_geo_sweep_capsule_point(c->a, c->b, c->r, c->v, c->tri, c->t_max, &res.t, res.normal);
        else
            res.hit = copse_geo_sweep_box_point(c->a, c->rot, c->half, c->v, c->tri, c->t_max, &res.t, res.normal);
    } else if (c->kind == SH_SPHERE) {
        res.hit = copse_geo_sweep_sphere_triangle(c->a, c->r, c->v, t, c->t_max, &res.t, res.point, res.normal);
    } else if (c->kind == SH_CAPSULE) {
        res.hit = copse_geo_sweep_capsule_triangle(c->a, c->b, c->r, c->v, t, c->t_max, &res.t, res.point,
                                                   res.normal);
    } else {
        res.hit = copse_geo_sweep_box_triangle(c->a, c->rot, c->half, c->v, t, c->t_max, &res.t, res.point,
                                               res.normal);
    }
    return res;
}

/* The scale of a sweep: the largest coordinate of the shape at the start and of the triangle or
 * point, and the shape's size. (COPSE_SWEEP_TOLERANCE's scale also counts the motion; the
 * kernels hold to this smaller one.) */
static double case_scale(const sw_case *c)
{
    double s = max_abs_f(c->a, 3), m = max_abs_f(c->tri, c->point ? 3u : 9u);
    s = m > s ? m : s;
    if (c->kind == SH_CAPSULE) {
        m = max_abs_f(c->b, 3);
        s = m > s ? m : s;
    }
    m = c->kind == SH_BOX ? (double)c->half[0] + (double)c->half[1] + (double)c->half[2] : (double)c->r;
    return m > s ? m : s;
}

/* The shape's core at time t (sphere centre, capsule ends, box) in double. */
static void core_at(const sw_case *c, double t, double *a, double *b)
{
    int k;
    for (k = 0; k < 3; k++) {
        a[k] = (double)c->a[k] + t * (double)c->v[k];
        b[k] = (double)c->b[k] + t * (double)c->v[k];
    }
}

/* Closest points of the core (cp) and the triangle or point (tp) at time t; their distance. */
static double core_dist(const sw_case *c, double t, double *cp, double *tp)
{
    double a[3], b[3];
    osw_tri T;
    int k;
    core_at(c, t, a, b);
    T = tri_d(c->tri);
    if (c->point)
        for (k = 0; k < 3; k++)
            T.v[1][k] = T.v[2][k] = T.v[0][k];
    if (c->kind == SH_SPHERE) {
        for (k = 0; k < 3; k++)
            cp[k] = a[k];
        return orc_closest_triangle(a, T.v[0], T.v[1], T.v[2], tp);
    }
    if (c->kind == SH_CAPSULE)
        return osw_segment_triangle(a, b, &T, cp, tp);
    {
        osw_box bx = box_d(c->a, c->rot, c->half);
        for (k = 0; k < 3; k++)
            bx.center[k] = a[k];
        return osw_box_triangle(&bx, &T, cp, tp);
    }
}

static double case_gap(const void *ctx, double t)
{
    const sw_case *c = (const sw_case *)ctx;
    double cp[3], tp[3];
    return core_dist(c, t, cp, tp) - (c->kind == SH_BOX ? 0.0 : (double)c->r);
}

/* The least of n . (y - p) over the shape at time t. */
static double shape_low(const sw_case *c, double t, const double *n, const double *p)
{
    double a[3], b[3], d[3];
    core_at(c, t, a, b);
    orc_sub(d, a, p);
    if (c->kind == SH_SPHERE)
        return orc_dot(n, d) - (double)c->r;
    if (c->kind == SH_CAPSULE) {
        double e[3], x;
        orc_sub(e, b, p);
        x = orc_dot(n, e);
        return (orc_dot(n, d) < x ? orc_dot(n, d) : x) - (double)c->r;
    }
    {
        double s = orc_dot(n, d);
        int k;
        for (k = 0; k < 3; k++) {
            double ax[3];
            ax[0] = (double)c->rot[k];
            ax[1] = (double)c->rot[3 + k];
            ax[2] = (double)c->rot[6 + k];
            s -= (double)c->half[k] * fabs(orc_dot(n, ax));
        }
        return s;
    }
}

typedef struct sw_tally {
    unsigned long cases, hits, oracle_hits, started;
    double max_gap, max_pen, max_t_err, max_sep, max_angle;
} sw_tally;

static void sw_tally_report(const char *what, const sw_tally *t)
{
    copse_port_printf("  %s: %lu sweeps, %lu hits (oracle %lu, %lu at t = 0); at contact gap <= %.3e, "
                      "penetration <= %.3e, |dt| |v| <= %.3e of the scale; normal: separation error %.3e, "
                      "angle %.3e\n",
                      what, t->cases, t->hits, t->oracle_hits, t->started, t->max_gap, t->max_pen, t->max_t_err,
                      t->max_sep, t->max_angle);
}

/* Runs the case and judges it against the oracle. Returns the kernel's answer. */
static sw_result judge_sweep(sw_tally *tally, const char *what, unsigned idx, const sw_case *c)
{
    sw_result res = run_case(c, NULL);
    const double scale = case_scale(c), tol = (double)COPSE_SWEEP_TOLERANCE * scale;
    double t_o = 0.0, min_gap, speed, vd[3];
    bool o_hit = osw_first_contact(case_gap, c, (double)c->t_max, &t_o, &min_gap);
    to_d(vd, c->v);
    speed = sqrt(orc_dot(vd, vd));
    tally->cases++;
    tally->oracle_hits += o_hit ? 1u : 0u;
    if (!res.hit) {
        CHECKF(min_gap > 2.0 * EPS * scale, "%s %u: missed; the oracle comes within %.3g of the scale (t %.9g)",
               what, idx, min_gap / scale, o_hit ? t_o : -1.0);
        return res;
    }
    tally->hits++;
    tally->started += res.t == 0.0f ? 1u : 0u;
    CHECKF(res.t >= 0.0f && res.t <= c->t_max, "%s %u: t %.9g outside [0, %.9g]", what, idx, (double)res.t,
           (double)c->t_max);
    {
        double g = case_gap(c, (double)res.t), nn, sep, low, n[3], p[3];
        unsigned i;
        tally->max_gap = g / scale > tally->max_gap ? g / scale : tally->max_gap;
        CHECKF(g <= tol, "%s %u: contact at t %.9g with a gap of %.3g of the scale (oracle t %.9g, min gap %.3g)",
               what, idx, (double)res.t, g / scale, o_hit ? t_o : -1.0, min_gap / scale);
        if (res.t > 0.0f) {
            tally->max_pen = -g / scale > tally->max_pen ? -g / scale : tally->max_pen;
            CHECKF(g >= -PEN * scale, "%s %u: t %.9g is past the contact (oracle %.9g): penetration %.3g of the scale",
                   what, idx, (double)res.t, t_o, -g / scale);
        }
        if (o_hit && speed > 0.0) {
            double e = fabs((double)res.t - t_o) * speed / scale;
            tally->max_t_err = e > tally->max_t_err ? e : tally->max_t_err;
        }
        to_d(p, res.point);
        to_d(n, res.normal);
        if (!c->point) {
            osw_tri T = tri_d(c->tri);
            double q[3], dt = orc_closest_triangle(p, T.v[0], T.v[1], T.v[2], q);
            CHECKF(dt <= ON_TRI * scale, "%s %u: the contact point is %.3g of the scale off the triangle", what, idx,
                   dt / scale);
            { /* and at the shape: its gap to the point, as a sweep against that point */
                sw_case at = *c;
                double gp;
                at.point = true;
                memcpy(at.tri, res.point, sizeof res.point);
                gp = case_gap(&at, (double)res.t);
                CHECKF(gp <= tol + ON_TRI * scale, "%s %u: the contact point is %.3g of the scale off the shape", what,
                       idx, gp / scale);
            }
        } else {
            CHECK(same_bits(res.point, c->tri, sizeof res.point));
        }
        nn = sqrt(orc_dot(n, n));
        CHECKF(fabs(nn - 1.0) <= 1e-5, "%s %u: |normal| = %.9g", what, idx, nn);
        if (res.t == 0.0f && case_gap(c, 0.0) <= 0.0)
            return res; /* started in contact, perhaps inside: no separating plane to check */
        /* the plane through the point with this normal separates them (within rounding and the
         * contact gap) */
        sep = 0.0;
        for (i = 0; i < (c->point ? 1u : 3u); i++) {
            double d[3], x;
            d[0] = (double)c->tri[3 * i] - p[0];
            d[1] = (double)c->tri[3 * i + 1] - p[1];
            d[2] = (double)c->tri[3 * i + 2] - p[2];
            x = orc_dot(n, d);
            sep = x > sep ? x : sep;
        }
        low = shape_low(c, (double)res.t, n, p);
        sep = -low > sep ? -low : sep;
        sep /= scale;
        tally->max_sep = sep > tally->max_sep ? sep : tally->max_sep;
        CHECKF(sep <= 1e-4, "%s %u: the normal (%.6f %.6f %.6f) leaves the sets overlapping by %.3g of the scale",
               what, idx, n[0], n[1], n[2], sep);
        if (c->kind != SH_BOX && (double)c->r > 0.01 * scale) {
            /* a sphere's or capsule's normal is the direction from the triangle to its core */
            double cp[3], tp[3], d = core_dist(c, (double)res.t, cp, tp), u[3], ang;
            if (d > 0.5 * (double)c->r) {
                orc_sub(u, cp, tp);
                ang = 1.0 - orc_dot(u, n) / d;
                tally->max_angle = ang > tally->max_angle ? ang : tally->max_angle;
                CHECKF(ang <= 1e-6, "%s %u: normal off the closest direction by 1 - cos = %.3g", what, idx, ang);
            }
        }
    }
    return res;
}

/* Every order of the triangle's corners gives the same bits. */
static void check_orders(const char *what, unsigned idx, const sw_case *c, const sw_result *base)
{
    static const unsigned orders[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };
    unsigned o;
    if (c->point)
        return;
    for (o = 1; o < 6u; o++) {
        sw_result r = run_case(c, orders[o]);
        CHECKF(r.hit == base->hit && (!r.hit || (same_bits(&r.t, &base->t, sizeof r.t) &&
                                                 same_bits(r.point, base->point, sizeof r.point) &&
                                                 same_bits(r.normal, base->normal, sizeof r.normal))),
               "%s %u: the corner order %u%u%u changed the answer", what, idx, orders[o][0], orders[o][1],
               orders[o][2]);
    }
}

/* A random sweep of the given kind: the shape around the triangle (or point), moving roughly
 * toward it (sometimes not at all, or past it, or hugely). */
static void rand_case(test_rng *rng, sw_case *c, int kind, bool point)
{
    double s, o[3], aim[3];
    unsigned k, mode = test_rng_below(rng, 16);
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->point = point;
    rand_frame(rng, &s, o);
    if (point) {
        rand_point(rng, c->tri, o, s);
    } else {
        rand_tri(rng, c->tri, o, s);
    }
    rand_point(rng, c->a, o, 3.0 * s);
    c->r = (float)(s * urand(rng, 0.02, 0.6));
    if (kind == SH_CAPSULE) {
        for (k = 0; k < 3u; k++)
            c->b[k] = (float)((double)c->a[k] + s * urand(rng, -1.0, 1.0));
        if (mode == 3)
            c->r = 0.0f; /* a bare segment */
    }
    if (kind == SH_BOX) {
        rand_rot(rng, c->rot);
        for (k = 0; k < 3u; k++)
            c->half[k] = (float)(s * urand(rng, 0.05, 0.8));
        if (mode == 4)
            c->half[test_rng_below(rng, 3)] = 0.0f; /* a rectangle */
        if (mode == 5)
            memcpy(c->rot, k_identity, sizeof c->rot);
    } else {
        memcpy(c->rot, k_identity, sizeof c->rot);
    }
    /* aim at a point of the triangle's region, then overshoot to a random length */
    for (k = 0; k < 3u; k++)
        aim[k] = (double)c->tri[k] + s * urand(rng, -0.8, 0.8) - (double)c->a[k];
    {
        double len = mode < 2 ? 0.0 : (mode == 2 ? 1e4 : urand(rng, 0.3, 2.0));
        for (k = 0; k < 3u; k++)
            c->v[k] = (float)(aim[k] * len);
    }
    c->t_max = test_rng_below(rng, 4) == 0 ? (float)urand(rng, 0.2, 1.0) : 1.0f;
}

static void random_sweeps(const char *what, int kind, bool point, unsigned n, uint64_t seed)
{
    sw_tally tally;
    unsigned i;
    test_rng rng;
    memset(&tally, 0, sizeof tally);
    test_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        sw_case c;
        sw_result r;
        rand_case(&rng, &c, kind, point);
        r = judge_sweep(&tally, what, i, &c);
        check_orders(what, i, &c, &r);
    }
    sw_tally_report(what, &tally);
}

static void test_sphere_triangle_random(void)
{
    random_sweeps("sphere-triangle", SH_SPHERE, false, scaled(4000u, 200u, 40u), 401u);
}

static void test_capsule_triangle_random(void)
{
    random_sweeps("capsule-triangle", SH_CAPSULE, false, scaled(3000u, 120u, 20u), 402u);
}

static void test_box_triangle_random(void)
{
    random_sweeps("box-triangle", SH_BOX, false, scaled(1500u, 40u, 8u), 403u);
}

static void test_point_sweeps_random(void)
{
    random_sweeps("sphere-point", SH_SPHERE, true, scaled(4000u, 300u, 60u), 404u);
    random_sweeps("capsule-point", SH_CAPSULE, true, scaled(4000u, 300u, 60u), 405u);
    random_sweeps("box-point", SH_BOX, true, scaled(2000u, 100u, 20u), 406u);
}

/* ---- hand cases -------------------------------------------------------------------------------- */

/* The triangle (0,0,0) (4,0,0) (0,4,0), scaled by s and moved by off: the face z = off_z. */
static void base_case(sw_case *c, int kind, float s, float off)
{
    static const float tri[9] = { 0, 0, 0, 4, 0, 0, 0, 4, 0 };
    unsigned k;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    for (k = 0; k < 9u; k++)
        c->tri[k] = tri[k] * s + off;
    memcpy(c->rot, k_identity, sizeof c->rot);
    c->t_max = 1.0f;
}

static void set3(float *p, float x, float y, float z, float s, float off)
{
    p[0] = x * s + off;
    p[1] = y * s + off;
    p[2] = z * s + off;
}

static void expect(const char *what, unsigned idx, const sw_result *r, bool hit, double t, double t_tol)
{
    CHECKF(r->hit == hit, "%s %u: %s, expected %s", what, idx, r->hit ? "hit" : "miss", hit ? "a hit" : "a miss");
    if (hit && r->hit && t >= 0.0)
        CHECKF(fabs((double)r->t - t) <= t_tol, "%s %u: t %.9g, expected %.9g", what, idx, (double)r->t, t);
}

static void expect_normal(const char *what, unsigned idx, const sw_result *r, double x, double y, double z)
{
    if (r->hit)
        CHECKF(fabs((double)r->normal[0] - x) <= 1e-5 && fabs((double)r->normal[1] - y) <= 1e-5 &&
                   fabs((double)r->normal[2] - z) <= 1e-5,
               "%s %u: normal (%.7f %.7f %.7f), expected (%g %g %g)", what, idx, (double)r->normal[0],
               (double)r->normal[1], (double)r->normal[2], x, y, z);
}

/* The shape: a sphere at p, or a capsule from p to p + (2, 0, 0) s, or a cube of half 0.5 s
 * centred at p; extent below it along -z: r for the first two, 0.5 s for the cube. */
static void place(sw_case *c, float x, float y, float z, float s, float off)
{
    set3(c->a, x, y, z, s, off);
    if (c->kind == SH_CAPSULE)
        set3(c->b, x + 2.0f, y, z, s, off);
    c->r = 0.5f * s;
    c->half[0] = c->half[1] = c->half[2] = 0.5f * s;
}

static void test_sweep_cases(void)
{
    static const char *names[3] = { "sphere cases", "capsule cases", "box cases" };
    sw_tally tally;
    int kind;
    unsigned rep;
    memset(&tally, 0, sizeof tally);
    for (kind = SH_SPHERE; kind <= SH_BOX; kind++) {
        const char *what = names[kind];
        for (rep = 0; rep < 4u; rep++) {
            const float s = rep < 2u ? 1.0f : 0.03125f, off = (rep & 1u) ? 512.0f : 0.0f;
            const double ttol = 1e-5 * ((double)s * 4.0 + (double)off) / (double)s; /* the motions are about s long */
            const unsigned id = rep * 100u;
            sw_case c;
            sw_result r;

            /* head-on onto the face: from z = 2 down by 4: contact at z = 0.5, t = 0.375 */
            base_case(&c, kind, s, off);
            place(&c, 1.0f, 0.5f, 2.0f, s, off);
            set3(c.v, 0, 0, -4, s, 0.0f);
            r = judge_sweep(&tally, what, id + 1u, &c);
            expect(what, id + 1u, &r, true, 0.375, ttol);
            expect_normal(what, id + 1u, &r, 0, 0, 1);
            check_orders(what, id + 1u, &c, &r);

            /* from below, the other side of the face */
            c.a[2] = -2.0f * s + off;
            c.b[2] = c.a[2];
            set3(c.v, 0, 0, 4, s, 0.0f);
            r = judge_sweep(&tally, what, id + 2u, &c);
            expect(what, id + 2u, &r, true, 0.375, ttol);
            expect_normal(what, id + 2u, &r, 0, 0, -1);

            /* grazing the face: the shape's underside slides in the face's plane toward +x from
             * x = -3 (the centre, or the capsule's axis, at height r; the cube's bottom face in the
             * plane): the sphere first touches the edge x = 0 when its centre is over it (t = 0.5),
             * the cube when its leading face reaches it (t = 2.5 / 6), the capsule when its
             * leading end is over it (a grazing contact: judged by its gap alone) */
            base_case(&c, kind, s, off);
            place(&c, -3.0f, 1.0f, 0.5f, s, off);
            set3(c.v, 6, 0, 0, s, 0.0f);
            r = judge_sweep(&tally, what, id + 3u, &c);
            expect(what, id + 3u, &r, true, kind == SH_SPHERE ? 0.5 : (kind == SH_CAPSULE ? -1.0 : 2.5 / 6.0), ttol);
            /* 1e-3 of the scale above: a miss */
            c.a[2] = (0.5f + 1e-3f * (4.0f + off / s)) * s + off;
            c.b[2] = c.a[2];
            r = judge_sweep(&tally, what, id + 4u, &c);
            expect(what, id + 4u, &r, false, 0.0, 0.0);

            /* parallel to the face, lower than touching: meets the edge x = 0 side-on */
            base_case(&c, kind, s, off);
            place(&c, -3.0f, 1.0f, 0.25f, s, off);
            set3(c.v, 6, 0, 0, s, 0.0f);
            r = judge_sweep(&tally, what, id + 5u, &c);
            expect(what, id + 5u, &r, true, -1.0, 0.0);

            /* along the edge y = 0 (x from -3 toward +x), beside it at y = -0.25 below the plane:
             * the corner (0, 0, 0) first */
            base_case(&c, kind, s, off);
            place(&c, -3.0f, -0.25f, -0.25f, s, off);
            set3(c.v, 6, 0, 0, s, 0.0f);
            r = judge_sweep(&tally, what, id + 6u, &c);
            expect(what, id + 6u, &r, true, -1.0, 0.0);

            /* grazing the edge y = 0: passing below it in the plane x = 2 at distance exactly 0.5
             * (the sphere and capsule: tangent to the edge's cylinder; the box: its top face
             * slides along the edge) */
            base_case(&c, kind, s, off);
            place(&c, 2.0f, -0.5f, -3.0f, s, off);
            if (kind == SH_CAPSULE) {
                set3(c.a, 2.0f, -0.5f, -3.0f, s, off);
                set3(c.b, 2.0f, -2.5f, -3.0f, s, off);
            }
            set3(c.v, 0, 0, 6, s, 0.0f);
            r = judge_sweep(&tally, what, id + 7u, &c);
            /* (advancement meets a grazing contact within the gap tolerance, which in t is its
             * square root: the capsule's t is judged by its gap alone) */
            expect(what, id + 7u, &r, true, kind == SH_BOX ? 2.5 / 6.0 : (kind == SH_CAPSULE ? -1.0 : 0.5), ttol);
            c.a[1] -= 1e-3f * (4.0f * s + off);
            c.b[1] -= 1e-3f * (4.0f * s + off);
            r = judge_sweep(&tally, what, id + 8u, &c);
            expect(what, id + 8u, &r, false, 0.0, 0.0);

            /* grazing the corner (4, 0, 0) diagonally: the sphere's centre passes at distance r */
            if (kind == SH_SPHERE) {
                base_case(&c, kind, s, off);
                c.r = 0.5f * s;
                set3(c.a, 4.0f + 0.5f, -3.0f, 0.0f, s, off);
                set3(c.v, 0, 6, 0, s, 0.0f);
                r = judge_sweep(&tally, what, id + 9u, &c);
                expect(what, id + 9u, &r, true, 0.5, ttol);
                c.a[0] += 1e-3f * (4.0f * s + off);
                r = judge_sweep(&tally, what, id + 10u, &c);
                expect(what, id + 10u, &r, false, 0.0, 0.0);
            }

            /* starting in contact (touching the face, moving away), starting inside, zero motion */
            base_case(&c, kind, s, off);
            place(&c, 1.0f, 1.0f, 0.5f, s, off);
            set3(c.v, 0, 0, 3, s, 0.0f);
            r = judge_sweep(&tally, what, id + 11u, &c);
            expect(what, id + 11u, &r, true, 0.0, 0.0);
            expect_normal(what, id + 11u, &r, 0, 0, 1);
            c.a[2] = 0.25f * s + off;
            c.b[2] = c.a[2];
            r = judge_sweep(&tally, what, id + 12u, &c);
            expect(what, id + 12u, &r, true, 0.0, 0.0);
            c.v[0] = c.v[1] = c.v[2] = 0.0f;
            r = judge_sweep(&tally, what, id + 13u, &c);
            expect(what, id + 13u, &r, true, 0.0, 0.0);
            c.a[2] = 2.0f * s + off;
            c.b[2] = c.a[2];
            r = judge_sweep(&tally, what, id + 14u, &c);
            expect(what, id + 14u, &r, false, 0.0, 0.0);

            /* huge motion: a million times the distance */
            base_case(&c, kind, s, off);
            place(&c, 1.0f, 0.5f, 2.0f, s, off);
            set3(c.v, 0, 0, -1.5e6f, s, 0.0f);
            r = judge_sweep(&tally, what, id + 15u, &c);
            expect(what, id + 15u, &r, true, 1.5 / 1.5e6, 1e-5 * 1.5 / 1.5e6 + 1e-5 * (double)off / (1.5e6 * (double)s));

            /* a degenerate triangle (the segment (0,0,0)-(4,0,0)): head-on onto its middle */
            base_case(&c, kind, s, off);
            memcpy(c.tri + 6, c.tri + 3, 3 * sizeof(float));
            place(&c, 2.0f, 0.0f, 2.0f, s, off);
            if (kind == SH_CAPSULE) { /* crossing the segment */
                set3(c.a, 2.0f, -1.0f, 2.0f, s, off);
                set3(c.b, 2.0f, 1.0f, 2.0f, s, off);
            }
            set3(c.v, 0, 0, -4, s, 0.0f);
            r = judge_sweep(&tally, what, id + 16u, &c);
            expect(what, id + 16u, &r, true, 0.375, ttol);
            expect_normal(what, id + 16u, &r, 0, 0, 1);
            check_orders(what, id + 16u, &c, &r);
            /* and a single point */
            memcpy(c.tri + 3, c.tri, 3 * sizeof(float));
            memcpy(c.tri + 6, c.tri, 3 * sizeof(float));
            set3(c.a, 0.0f, 0.0f, 2.0f, s, off);
            if (kind == SH_CAPSULE) {
                set3(c.a, 0.0f, -1.0f, 2.0f, s, off);
                set3(c.b, 0.0f, 1.0f, 2.0f, s, off);
            }
            r = judge_sweep(&tally, what, id + 17u, &c);
            expect(what, id + 17u, &r, true, 0.375, ttol);
            expect_normal(what, id + 17u, &r, 0, 0, 1);
        }
    }
    { /* a capsule lying parallel to the face, dropping onto it across the whole triangle: its
       * middle lands inside while both ends are outside */
        sw_case c;
        sw_result r;
        base_case(&c, SH_CAPSULE, 1.0f, 0.0f);
        set3(c.a, -3.0f, 1.0f, 2.0f, 1.0f, 0.0f);
        set3(c.b, 6.0f, 1.0f, 2.0f, 1.0f, 0.0f);
        c.r = 0.5f;
        set3(c.v, 0, 0, -4, 1.0f, 0.0f);
        r = judge_sweep(&tally, "capsule cases", 900u, &c);
        expect("capsule cases", 900u, &r, true, 0.375, 1e-5);
        expect_normal("capsule cases", 900u, &r, 0, 0, 1);
        /* a box turned 45 degrees about z, edge first onto the edge y = 0 (edge against edge) */
        base_case(&c, SH_BOX, 1.0f, 0.0f);
        {
            const float h = 0.70710678f;
            const float rz[9] = { 1, 0, 0, 0, h, -h, 0, h, h };
            memcpy(c.rot, rz, sizeof rz);
        }
        c.half[0] = c.half[1] = c.half[2] = 0.5f;
        set3(c.a, 2.0f, -2.0f, 0.0f, 1.0f, 0.0f);
        set3(c.v, 0, 2, 0, 1.0f, 0.0f);
        r = judge_sweep(&tally, "box cases", 901u, &c);
        expect("box cases", 901u, &r, true, (2.0 - 0.70710678) / 2.0, 1e-5);
    }
    sw_tally_report("hand cases", &tally);
}

/* ---- grazing, at random ---------------------------------------------------------------------- */

static void unit_d(double *u)
{
    double l = sqrt(orc_dot(u, u));
    u[0] /= l;
    u[1] /= l;
    u[2] /= l;
}

static void rand_unit(test_rng *rng, double *u)
{
    do {
        u[0] = urand(rng, -1.0, 1.0);
        u[1] = urand(rng, -1.0, 1.0);
        u[2] = urand(rng, -1.0, 1.0);
    } while (orc_dot(u, u) > 1.0 || orc_dot(u, u) < 1e-2);
    unit_d(u);
}

/* A random unit vector perpendicular to u. */
static void rand_perp(test_rng *rng, const double *u, double *w)
{
    double x[3];
    rand_unit(rng, x);
    orc_cross(w, u, x);
    unit_d(w);
}

static void set_f(float *out, const double *p)
{
    out[0] = (float)p[0];
    out[1] = (float)p[1];
    out[2] = (float)p[2];
}

/* A path tangent to the shape in exact arithmetic, then rounded to float: the shape's surface
 * passes through the point (or the triangle's corner, or along its edge or face) at t0, moving
 * along it, never into it. Which side of tangent the rounding leaves it is the oracle's to say:
 * within 2 ulps of the scale it must be a hit (judge_sweep), and any hit must lie within the
 * tolerance. Half the paths are then moved 1e-3 of the scale outward: those must miss. */
static void rand_grazing(test_rng *rng, sw_case *c, int kind, bool point, bool away)
{
    double s, o[3], u[3], w[3], q[3], a[3], t0, speed, x[3];
    unsigned k;
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->point = point;
    c->t_max = 1.0f;
    rand_frame(rng, &s, o);
    memcpy(c->rot, k_identity, sizeof c->rot);
    c->r = (float)(s * urand(rng, 0.1, 0.5));
    t0 = urand(rng, 0.2, 0.8);
    speed = s * urand(rng, 1.0, 3.0);
    if (kind == SH_BOX) {
        /* in the box's frame: the point (a triangle's corner) in the plane of face k, moving in it */
        double half[3], pl[3], vl[3], R[9];
        unsigned f = test_rng_below(rng, 3), f1 = (f + 1u) % 3u, f2 = (f + 2u) % 3u;
        double sg = test_rng_below(rng, 2) ? 1.0 : -1.0;
        rand_rot(rng, c->rot);
        for (k = 0; k < 3u; k++) {
            c->half[k] = (float)(s * urand(rng, 0.1, 0.6));
            half[k] = (double)c->half[k];
        }
        for (k = 0; k < 9u; k++)
            R[k] = (double)c->rot[k];
        vl[f] = 0.0;
        vl[f1] = urand(rng, -1.0, 1.0);
        vl[f2] = urand(rng, -1.0, 1.0);
        unit_d(vl);
        pl[f] = sg * (half[f] + (away ? 1e-3 * (fabs(o[0]) + fabs(o[1]) + fabs(o[2]) + 4.0 * s) : 0.0));
        pl[f1] = half[f1] * urand(rng, -0.9, 0.9);
        pl[f2] = half[f2] * urand(rng, -0.9, 0.9);
        /* the point over the face at t0: it started t0 back along the motion (it moves by -v in
         * the box's frame) */
        for (k = 0; k < 3u; k++)
            pl[k] += t0 * speed * vl[k];
        rand_point(rng, c->a, o, s);
        for (k = 0; k < 3u; k++) {
            x[k] = (double)c->a[k] + R[3 * k] * pl[0] + R[3 * k + 1] * pl[1] + R[3 * k + 2] * pl[2];
            c->v[k] = (float)(speed * (R[3 * k] * vl[0] + R[3 * k + 1] * vl[1] + R[3 * k + 2] * vl[2]));
        }
        set_f(c->tri, x);
        if (!point) { /* the triangle's other corners beyond the face plane */
            for (k = 0; k < 2u; k++) {
                double y[3], d[3];
                unsigned j;
                d[f] = sg * s * urand(rng, 0.2, 1.0);
                d[f1] = s * urand(rng, -1.0, 1.0);
                d[f2] = s * urand(rng, -1.0, 1.0);
                for (j = 0; j < 3u; j++)
                    y[j] = x[j] + R[3 * j] * d[0] + R[3 * j + 1] * d[1] + R[3 * j + 2] * d[2];
                set_f(c->tri + 3u * (k + 1u), y);
            }
        }
        return;
    }
    rand_point(rng, c->tri, o, s);
    to_d(q, c->tri);
    if (point) {
        rand_unit(rng, u);
        rand_perp(rng, u, w);
    } else {
        /* a fat triangle around q; graze its corner q (u outward from both edges), the edge from
         * q (u in the plane, across it), or slide over its face (u its normal) */
        double e1[3], e2[3], n[3], m[3], b1[3], b2[3];
        unsigned mode = test_rng_below(rng, 3);
        rand_unit(rng, e1);
        rand_perp(rng, e1, e2);
        for (k = 0; k < 3u; k++) { /* corners q + s (e1 cos + e2 sin) at angles 0 and 70 degrees */
            b1[k] = q[k] + s * e1[k];
            b2[k] = q[k] + s * (0.342 * e1[k] + 0.940 * e2[k]);
        }
        set_f(c->tri + 3, b1);
        set_f(c->tri + 6, b2);
        orc_cross(n, e1, e2);
        orc_cross(m, e1, n); /* in the plane, across the edge q-b1, away from b2 */
        if (orc_dot(m, e2) > 0.0)
            for (k = 0; k < 3u; k++)
                m[k] = -m[k];
        if (mode == 0u) { /* the corner: u outward from both edges, tilted out of the plane */
            double tilt = urand(rng, -0.7, 0.7);
            for (k = 0; k < 3u; k++)
                u[k] = -(e1[k] + 0.342 * e1[k] + 0.940 * e2[k]) + tilt * n[k];
            unit_d(u);
            rand_perp(rng, u, w);
        } else if (mode == 1u) { /* beside the edge, in the plane; moving in the plane of n and e1 */
            double a1 = urand(rng, 0.0, 6.2831853), beta = urand(rng, 0.2, 0.8);
            for (k = 0; k < 3u; k++) {
                q[k] += beta * s * e1[k];
                u[k] = m[k];
                w[k] = cos(a1) * n[k] + sin(a1) * e1[k];
            }
        } else { /* over the face at height r, moving in its plane */
            double a1 = urand(rng, 0.0, 6.2831853);
            for (k = 0; k < 3u; k++) {
                q[k] += s * (0.4 * e1[k] + 0.3 * e2[k]);
                u[k] = n[k];
                w[k] = cos(a1) * e1[k] + sin(a1) * e2[k];
            }
        }
    }
    /* the shape's nearest surface point is q at t0: its core r out along u */
    for (k = 0; k < 3u; k++)
        a[k] = q[k] + ((double)c->r + (away ? 1e-3 * (max_abs_f(c->tri, 9) + s) : 0.0)) * u[k] -
               t0 * speed * w[k];
    set_f(c->a, a);
    for (k = 0; k < 3u; k++)
        c->v[k] = (float)(speed * w[k]);
    if (kind == SH_CAPSULE) {
        /* the core runs on away from the contact (its end ball grazes), or across it, in the plane
         * perpendicular to u (its side grazes) */
        double d[3], l2 = s * urand(rng, 0.5, 2.0), beta = urand(rng, 0.1, 0.9);
        if (test_rng_below(rng, 2) == 0u) {
            for (k = 0; k < 3u; k++)
                d[k] = u[k];
            beta = 0.0;
        } else {
            rand_perp(rng, u, d);
        }
        for (k = 0; k < 3u; k++) {
            x[k] = a[k] - beta * l2 * d[k];
            a[k] = x[k] + l2 * d[k];
        }
        set_f(c->a, x);
        set_f(c->b, a);
    }
}

static void test_grazing_random(void)
{
    static const char *names[6] = { "grazing sphere-point",    "grazing capsule-point", "grazing box-point",
                                    "grazing sphere-triangle", "grazing capsule-triangle", "grazing box-triangle" };
    unsigned n = scaled(1500u, 60u, 12u), i, g;
    for (g = 0; g < 6u; g++) {
        sw_tally tally;
        unsigned long close = 0, hits = 0;
        test_rng rng;
        memset(&tally, 0, sizeof tally);
        test_rng_seed(&rng, 500u + g);
        for (i = 0; i < n; i++) {
            sw_case c;
            sw_result r;
            bool away = i % 2u == 1u;
            double t_o, min_gap;
            rand_grazing(&rng, &c, (int)(g % 3u), g < 3u, away);
            r = judge_sweep(&tally, names[g], i, &c);
            if (!away) {
                if (!osw_first_contact(case_gap, &c, (double)c.t_max, &t_o, &min_gap) || min_gap >= 0.0)
                    close += fabs(min_gap) <= 2.0 * EPS * case_scale(&c) ? 1u : 0u;
                hits += r.hit ? 1u : 0u;
            } else {
                CHECKF(!r.hit, "%s %u: passing 1e-3 of the scale outside tangent, reported a hit at t %.9g", names[g], i,
                       (double)r.t);
            }
            if (g >= 3u)
                check_orders(names[g], i, &c, &r);
        }
        copse_port_printf("  %s: %u tangent paths, %lu hits (%lu of them touching or within 2 ulps outside once "
                          "rounded to float); %u paths 1e-3 outside, none hit\n",
                          names[g], (n + 1u) / 2u, hits, close, n / 2u);
        sw_tally_report(names[g], &tally);
    }
}

/* Point sweeps by hand: head-on, tangent (hit) and 1e-3 of the scale off (miss), along a box's
 * face plane, starting inside, zero motion. */
static void test_point_cases(void)
{
    sw_tally tally;
    int kind;
    unsigned rep;
    memset(&tally, 0, sizeof tally);
    for (kind = SH_SPHERE; kind <= SH_BOX; kind++) {
        for (rep = 0; rep < 4u; rep++) {
            const float s = rep < 2u ? 1.0f : 0.03125f, off = (rep & 1u) ? 512.0f : 0.0f;
            const double ttol = 1e-5 * ((double)s * 4.0 + (double)off) / (double)s;
            const unsigned id = (unsigned)kind * 100u + rep * 10u;
            sw_case c;
            sw_result r;
            memset(&c, 0, sizeof c);
            c.kind = kind;
            c.point = true;
            c.t_max = 1.0f;
            memcpy(c.rot, k_identity, sizeof c.rot);
            c.r = 0.5f * s;
            c.half[0] = c.half[1] = c.half[2] = 0.5f * s;
            set3(c.tri, 0, 0, 0, s, off);
            /* head-on along -x from x = 2: contact at x = 0.5, t = 0.375 */
            set3(c.a, 2, 0, 0, s, off);
            set3(c.b, 2, 0, 1, s, off);
            set3(c.v, -4, 0, 0, s, 0.0f);
            r = judge_sweep(&tally, "point cases", id + 1u, &c);
            expect("point cases", id + 1u, &r, true, 0.375, ttol);
            expect_normal("point cases", id + 1u, &r, 1, 0, 0);
            /* tangent: passing at distance 0.5 along y (sphere), the capsule's side, the box's face
             * plane */
            set3(c.a, 0, -3, 0.5f, s, off);
            set3(c.b, 2, -3, 0.5f, s, off);
            set3(c.v, 0, 6, 0, s, 0.0f);
            r = judge_sweep(&tally, "point cases", id + 2u, &c);
            expect("point cases", id + 2u, &r, true, kind == SH_BOX ? 2.5 / 6.0 : 0.5, ttol);
            c.a[2] += 1e-3f * (4.0f * s + off);
            c.b[2] = c.a[2];
            r = judge_sweep(&tally, "point cases", id + 3u, &c);
            expect("point cases", id + 3u, &r, false, 0.0, 0.0);
            /* starting inside; zero motion inside and outside */
            set3(c.a, 0.25f, 0, 0, s, off);
            set3(c.b, 0.25f, 0, 1, s, off);
            r = judge_sweep(&tally, "point cases", id + 4u, &c);
            expect("point cases", id + 4u, &r, true, 0.0, 0.0);
            c.v[0] = c.v[1] = c.v[2] = 0.0f;
            r = judge_sweep(&tally, "point cases", id + 5u, &c);
            expect("point cases", id + 5u, &r, true, 0.0, 0.0);
            set3(c.a, 2, 0, 0, s, off);
            set3(c.b, 2, 0, 1, s, off);
            r = judge_sweep(&tally, "point cases", id + 6u, &c);
            expect("point cases", id + 6u, &r, false, 0.0, 0.0);
            /* the capsule along its own axis, end first */
            if (kind == SH_CAPSULE) {
                set3(c.a, 0, 0, 2, s, off);
                set3(c.b, 0, 0, 4, s, off);
                set3(c.v, 0, 0, -4, s, 0.0f);
                r = judge_sweep(&tally, "point cases", id + 7u, &c);
                expect("point cases", id + 7u, &r, true, 0.375, ttol);
                expect_normal("point cases", id + 7u, &r, 0, 0, 1);
            }
        }
    }
    sw_tally_report("point hand cases", &tally);
}

void suite_geom_sweep(void)
{
    test_run("geom_sweep/gjk_hull_triangle", test_gjk_triangles);
    test_run("geom_sweep/gjk_hull_box", test_gjk_boxes);
    test_run("geom_sweep/gjk_touching", test_gjk_touching);
    test_run("geom_sweep/sphere_triangle_random", test_sphere_triangle_random);
    test_run("geom_sweep/capsule_triangle_random", test_capsule_triangle_random);
    test_run("geom_sweep/box_triangle_random", test_box_triangle_random);
    test_run("geom_sweep/point_sweeps_random", test_point_sweeps_random);
    test_run("geom_sweep/sweep_cases", test_sweep_cases);
    test_run("geom_sweep/point_cases", test_point_cases);
    test_run("geom_sweep/grazing_random", test_grazing_random);
}

/* SPDX-License-Identifier: MIT */
/*
 * The exact orientation predicates (src/geom/predicates.c) and the exact intersection tests
 * (src/geom/intersect.c) against exact integer references (tests/oracle/oracle_exact.c):
 *
 *  - orient3d / orient2d on integer points (|x| <= 2^18: random, coplanar or collinear on a
 *    lattice, one unit off a plane, a tiny grid, coincident) scaled by 2^-60 .. 2^60 and
 *    translated, against the int64 definition; every permutation of the arguments (the sign
 *    follows the permutation's parity);
 *  - points nudged 1 to 3 ulps off a plane or line: the sign is reasoned from the construction
 *    (the determinant is affine in each coordinate) and compared with the big-integer reference;
 *  - random floats over the whole exponent range, nearly coplanar float points, subnormals,
 *    coordinates near FLT_MAX, triangles near 1e30, and 1e30 beside 1e-30 (beyond the float
 *    accumulator's range: 182 binades of axis spreads, 207 in 2D; the wide integer path): exact;
 *  - exactly coplanar / collinear points with full 24-bit mantissas (every product has a tail),
 *    in range and far outside it: always 0;
 *  - triangle-triangle, segment-triangle and point-triangle on lattice scenes (dense grids full
 *    of touching and degenerate cases, coplanar pairs, shared corners, corners on edges and
 *    faces, collinear and coincident corners) against a Minkowski-difference / Caratheodory
 *    reference, under every rotation and reflection of the corners and swapped arguments, scaled
 *    to 1e30, 1e-30 and subnormals, and translated;
 *  - hand-built cases (shared corner and edge, T-junction, edge on edge, corner on face,
 *    coplanar overlap / touch / apart / nested, segments and points as triangles);
 *  - a corner on a face nudged 1 ulp to either side (and along the plane).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../src/geom/geom_collide.h"
#include "oracle/oracle_exact.h"
#include "suites.h"
#include "test.h"

/* The six orders of three corners: three rotations (even), three reflections (odd). */
static const unsigned char k_perm3[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };

/* Scenes per batch: the host, the Cortex-M boards with room, the micro:bit (soft float). */
static unsigned ge_reps(unsigned host)
{
    size_t m = test_memory_bytes();
    if (m >= ((size_t)32u << 20))
        return host;
    if (m >= (256u << 10))
        return host / 10u > 2u ? host / 10u : 2u;
    return host / 50u > 1u ? host / 50u : 1u;
}

static int64_t ge_int(test_rng *r, int64_t lim)
{
    return (int64_t)test_rng_below(r, (uint32_t)(2 * lim + 1)) - lim;
}

/* ---- predicates on integer scenes ------------------------------------------------------------- */

/* Four points with |x| <= 2^18 (2^18 + 1 for mode 2): random; coplanar on a lattice; coplanar
 * but for one unit in one coordinate; a tiny grid; collinear or coincident. */
static void ge_scene(test_rng *r, unsigned mode, int64_t p[4][3])
{
    int64_t o[3], u[3], v[3];
    unsigned i, k;
    for (k = 0; k < 3; k++) {
        o[k] = ge_int(r, 1 << 17);
        u[k] = ge_int(r, 1 << 8);
        v[k] = ge_int(r, 1 << 8);
    }
    for (i = 0; i < 4; i++) {
        const int64_t ci = ge_int(r, mode == 4 ? 2 : 1 << 8), cj = ge_int(r, 1 << 8);
        for (k = 0; k < 3; k++) {
            switch (mode) {
            case 0:
                p[i][k] = ge_int(r, 1 << 18);
                break;
            case 3:
                p[i][k] = ge_int(r, 2);
                break;
            case 4:
                p[i][k] = o[k] + ci * u[k];
                break;
            default:
                p[i][k] = o[k] + ci * u[k] + cj * v[k];
                break;
            }
        }
    }
    if (mode == 2)
        p[test_rng_below(r, 4)][test_rng_below(r, 3)] += test_rng_below(r, 2) ? 1 : -1;
}

static void ge_to_float(float *out, const int64_t *in, int e, const float *off)
{
    unsigned k;
    for (k = 0; k < 3; k++)
        out[k] = ldexpf((float)in[k], e) + (off != NULL ? off[k] : 0.0f);
}

/* orient3d of every permutation of the four points against want (times the parity). */
static void ge_check_orient3d_perms(const float f[4][3], int want, const char *what)
{
    unsigned i0, i1, i2, i3;
    for (i0 = 0; i0 < 4; i0++)
        for (i1 = 0; i1 < 4; i1++)
            for (i2 = 0; i2 < 4; i2++)
                for (i3 = 0; i3 < 4; i3++) {
                    const unsigned idx[4] = { i0, i1, i2, i3 };
                    unsigned a, b, inv = 0;
                    int got;
                    if (i0 == i1 || i0 == i2 || i0 == i3 || i1 == i2 || i1 == i3 || i2 == i3)
                        continue;
                    for (a = 0; a < 4; a++)
                        for (b = a + 1; b < 4; b++)
                            inv += idx[a] > idx[b];
                    got = copse_geo_orient3d(f[i0], f[i1], f[i2], f[i3]);
                    CHECKF(got == (inv % 2 ? -want : want),
                           "%s: orient3d perm %u%u%u%u = %d, want %d; (%.9g %.9g %.9g) (%.9g %.9g %.9g) "
                           "(%.9g %.9g %.9g) (%.9g %.9g %.9g)",
                           what, i0, i1, i2, i3, got, inv % 2 ? -want : want, (double)f[0][0], (double)f[0][1],
                           (double)f[0][2], (double)f[1][0], (double)f[1][1], (double)f[1][2], (double)f[2][0],
                           (double)f[2][1], (double)f[2][2], (double)f[3][0], (double)f[3][1], (double)f[3][2]);
                }
}

static void ge_check_orient2d_perms(const float f[4][3], unsigned k, int want, const char *what)
{
    unsigned j;
    for (j = 0; j < 6; j++) {
        const unsigned char *o = k_perm3[j];
        const int w = j < 3 ? want : -want;
        const int got = copse_geo_orient2d(f[o[0]], f[o[1]], f[o[2]], k);
        CHECKF(got == w, "%s: orient2d k=%u order %u%u%u = %d, want %d; (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g)",
               what, k, o[0], o[1], o[2], got, w, (double)f[0][0], (double)f[0][1], (double)f[0][2], (double)f[1][0],
               (double)f[1][1], (double)f[1][2], (double)f[2][0], (double)f[2][1], (double)f[2][2]);
    }
}

/* The references agree with each other: the big-integer one (used on floats below) against the
 * int64 definition; the hull reference on cases known by construction. */
static void test_oracle(void)
{
    static const int32_t tri[3][3] = { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } };
    static const int32_t inside[1][3] = { { 1, 1, 0 } }, above[1][3] = { { 1, 1, 1 } }, edge[1][3] = { { 2, 0, 0 } },
                         outside[1][3] = { { 3, 3, 0 } };
    static const int32_t seg_cross[2][3] = { { 1, 1, -1 }, { 1, 1, 1 } }, seg_miss[2][3] = { { 3, 3, -1 }, { 3, 3, 1 } };
    static const int32_t seg_far[2][3] = { { 5, 5, 0 }, { 6, 6, 0 } }, seg_in[2][3] = { { 2, 2, 0 }, { 9, 9, 0 } };
    static const int32_t tri_shared[3][3] = { { 0, 0, 0 }, { 0, 0, 5 }, { -3, -1, 2 } };
    static const int32_t tri_apart[3][3] = { { 0, 0, 1 }, { 4, 0, 1 }, { 0, 4, 1 } };
    test_rng rng;
    unsigned n, mode, i, k;
    test_rng_seed(&rng, 11);
    for (n = 0; n < ge_reps(2000); n++) {
        int64_t p[4][3];
        float f[4][3];
        mode = n % 5;
        ge_scene(&rng, mode, p);
        for (i = 0; i < 4; i++)
            ge_to_float(f[i], p[i], 0, NULL);
        CHECK_EQ_INT(oex_orient3d(f[0], f[1], f[2], f[3]), oex_orient3d_i(p[0], p[1], p[2], p[3]));
        for (k = 0; k < 3; k++)
            CHECK_EQ_INT(oex_orient2d(f[0], f[1], f[2], k), oex_orient2d_i(p[0], p[1], p[2], k));
    }
    CHECK(oex_hulls_meet(inside, 1, tri, 3));
    CHECK(oex_hulls_meet(edge, 1, tri, 3));
    CHECK(!oex_hulls_meet(above, 1, tri, 3));
    CHECK(!oex_hulls_meet(outside, 1, tri, 3));
    CHECK(oex_hulls_meet(seg_cross, 2, tri, 3));
    CHECK(!oex_hulls_meet(seg_miss, 2, tri, 3));
    CHECK(!oex_hulls_meet(seg_far, 2, tri, 3));
    CHECK(oex_hulls_meet(seg_in, 2, tri, 3));
    CHECK(oex_hulls_meet(tri, 3, tri_shared, 3));
    CHECK(!oex_hulls_meet(tri, 3, tri_apart, 3));
    CHECK(oex_hulls_meet(edge, 1, seg_far, 2) == false);
}

/* Integer scenes scaled by 2^-60 .. 2^60 (and translated), every argument order. */
static void test_orient_grid(void)
{
    static const char *const names[5] = { "random", "coplanar", "off by one", "tiny grid", "collinear" };
    test_rng rng;
    unsigned n, i, k;
    test_rng_seed(&rng, 12);
    for (n = 0; n < ge_reps(6000); n++) {
        const unsigned mode = n % 5;
        const int e = (int)test_rng_below(&rng, 121) - 60;
        int64_t p[4][3];
        float f[4][3];
        ge_scene(&rng, mode, p);
        if (n % 7 == 6) { /* translate: stays exact in float (|x| < 2^22) */
            const int64_t t = (int64_t)test_rng_below(&rng, 3) << 19;
            for (i = 0; i < 4; i++)
                for (k = 0; k < 3; k++)
                    p[i][k] += t;
        }
        for (i = 0; i < 4; i++)
            ge_to_float(f[i], p[i], e, NULL);
        ge_check_orient3d_perms((const float(*)[3])f, oex_orient3d_i(p[0], p[1], p[2], p[3]), names[mode]);
        for (k = 0; k < 3; k++)
            ge_check_orient2d_perms((const float(*)[3])f, k, oex_orient2d_i(p[0], p[1], p[2], k), names[mode]);
    }
}

/* Step x by n ulps toward +inf (up) or -inf. */
static float ge_nudge(float x, int n)
{
    for (; n > 0; n--)
        x = nextafterf(x, FLT_MAX * 2.0f);
    for (; n < 0; n++)
        x = nextafterf(x, -FLT_MAX * 2.0f);
    return x;
}

/* Coplanar (collinear) integer points, one coordinate moved 1..3 ulps: the determinant is affine
 * in that coordinate and 0 before the move, so its sign is sign(move) * sign(det with that
 * coordinate one unit larger). Checked against the reasoned sign and the big-integer one. */
static void test_orient_nudged(void)
{
    test_rng rng;
    unsigned n, i, k, j;
    test_rng_seed(&rng, 13);
    for (n = 0; n < ge_reps(4000); n++) {
        const int e = (int)test_rng_below(&rng, 121) - 60;
        const unsigned who = test_rng_below(&rng, 4), axis = test_rng_below(&rng, 3);
        const int steps = (int)test_rng_below(&rng, 3) + 1, dir = test_rng_below(&rng, 2) ? 1 : -1;
        int64_t p[4][3], q[4][3];
        float f[4][3];
        int want, want2;
        ge_scene(&rng, n % 2 ? 1u : 4u, p);
        for (i = 0; i < 4; i++)
            ge_to_float(f[i], p[i], e, NULL);
        f[who][axis] = ge_nudge(f[who][axis], dir * steps);
        memcpy(q, p, sizeof q);
        q[who][axis] += 1;
        want = dir * oex_orient3d_i(q[0], q[1], q[2], q[3]);
        CHECK_EQ_INT(oex_orient3d(f[0], f[1], f[2], f[3]), want);
        ge_check_orient3d_perms((const float(*)[3])f, want, "nudged");
        for (k = 0; k < 3; k++) {
            want2 = dir * oex_orient2d_i(q[0], q[1], q[2], k);
            if (who == 3 || !(oex_orient2d_i(p[0], p[1], p[2], k) == 0))
                continue; /* only where the three points were collinear in the projection */
            CHECK_EQ_INT(oex_orient2d(f[0], f[1], f[2], k), want2);
            ge_check_orient2d_perms((const float(*)[3])f, k, want2, "nudged");
        }
        for (j = 0; j < 3; j++) { /* a random float point on the lattice plane, nudged */
            float g[3];
            for (k = 0; k < 3; k++)
                g[k] = f[3][k];
            g[j] = ge_nudge(g[j], dir);
            CHECK_EQ_INT(copse_geo_orient3d(f[0], f[1], f[2], g), oex_orient3d(f[0], f[1], f[2], g));
        }
    }
}

/* The documented range: the spreads of the axes in axes_mask (floor(log2 |x|) of the largest
 * minus that of the smallest nonzero coordinate, at least -126) sum to at most `limit`. */
static bool ge_in_range(const float *const *pts, unsigned n, unsigned axes_mask, int limit)
{
    int sum = 0;
    unsigned i, k;
    for (k = 0; k < 3; k++) {
        int lo = 1000, hi = -1000;
        if (!(axes_mask >> k & 1u))
            continue;
        for (i = 0; i < n; i++) {
            int e;
            if (pts[i][k] == 0.0f)
                continue;
            (void)frexpf(pts[i][k], &e);
            e = e - 1 < -126 ? -126 : e - 1;
            lo = e < lo ? e : lo;
            hi = e > hi ? e : hi;
        }
        sum += hi >= lo ? hi - lo : 0;
    }
    return sum <= limit;
}

static float ge_rand_float(test_rng *r, int e0, unsigned spread)
{
    const float m = (float)((1u << 23) | (test_rng_u32(r) & 0x7fffffu));
    const int e = e0 + (int)test_rng_below(r, spread + 1u);
    const float x = ldexpf(m, e - 23);
    if (test_rng_below(r, 10) == 0)
        return 0.0f;
    return test_rng_below(r, 2) ? -x : x;
}

static unsigned g_outside, g_outside_zero;

/* Judge orient3d and orient2d on float points against the big-integer reference: equal, inside
 * the float accumulator's range and beyond it (counted in g_outside). */
static void ge_judge_floats(const float f[4][3], const char *what)
{
    const float *pts[4];
    int want, got;
    unsigned k;
    pts[0] = f[0];
    pts[1] = f[1];
    pts[2] = f[2];
    pts[3] = f[3];
    want = oex_orient3d(f[0], f[1], f[2], f[3]);
    got = copse_geo_orient3d(f[0], f[1], f[2], f[3]);
    if (ge_in_range(pts, 4, 7u, 182)) {
        CHECKF(got == want, "%s: orient3d = %d, want %d; (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g)", what, got, want,
               (double)f[0][0], (double)f[0][1], (double)f[0][2], (double)f[1][0], (double)f[1][1], (double)f[1][2],
               (double)f[2][0], (double)f[2][1], (double)f[2][2], (double)f[3][0], (double)f[3][1], (double)f[3][2]);
    } else {
        /* beyond the float accumulator's range: the wide integer path, exact as well */
        g_outside++;
        g_outside_zero += got == 0 && want != 0;
        CHECKF(got == want, "%s (beyond the accumulator's range): orient3d = %d, want %d", what, got, want);
    }
    for (k = 0; k < 3; k++) {
        const unsigned mask = 7u & ~(1u << k);
        want = oex_orient2d(f[0], f[1], f[2], k);
        got = copse_geo_orient2d(f[0], f[1], f[2], k);
        if (ge_in_range(pts, 3, mask, 207)) {
            CHECKF(got == want, "%s: orient2d k=%u = %d, want %d; (%.9g %.9g %.9g) (%.9g %.9g %.9g) (%.9g %.9g %.9g)", what, k, got, want,
                   (double)f[0][0], (double)f[0][1], (double)f[0][2], (double)f[1][0], (double)f[1][1],
                   (double)f[1][2], (double)f[2][0], (double)f[2][1], (double)f[2][2]);
        } else {
            g_outside++;
            g_outside_zero += got == 0 && want != 0;
            CHECKF(got == want, "%s (beyond the accumulator's range): orient2d = %d, want %d", what, got, want);
        }
    }
}

/* Random floats: exponents spread over up to 60 binades anywhere in float's range; points on a
 * plane or line computed in float (off it by rounding: the hard cases). */
static void test_orient_floats(void)
{
    test_rng rng;
    unsigned n, i, k;
    test_rng_seed(&rng, 14);
    g_outside = g_outside_zero = 0;
    for (n = 0; n < ge_reps(6000); n++) {
        const unsigned spread = n % 3 == 0 ? 0u : test_rng_below(&rng, 61);
        const int e0 = (int)test_rng_below(&rng, (uint32_t)(253 - (int)spread)) - 126;
        float f[4][3];
        for (i = 0; i < 4; i++)
            for (k = 0; k < 3; k++)
                f[i][k] = ge_rand_float(&rng, e0, spread);
        if (n % 4 == 1 || n % 4 == 2) { /* d (and for 2D c) on the plane / line through the others */
            const float s = test_rng_float(&rng, -1.0f, 2.0f), t = n % 4 == 1 ? test_rng_float(&rng, -1.0f, 2.0f) : 0.0f;
            for (k = 0; k < 3; k++) {
                f[3][k] = f[0][k] + s * (f[1][k] - f[0][k]) + t * (f[2][k] - f[0][k]);
                if (n % 4 == 2)
                    f[2][k] = f[0][k] + s * (f[1][k] - f[0][k]);
            }
        }
        for (i = 0; i < 12; i++) /* the construction may overflow near FLT_MAX */
            if (!isfinite(f[i / 3][i % 3]))
                f[i / 3][i % 3] = 0.0f;
        ge_judge_floats((const float(*)[3])f, "random floats");
    }
    CHECK(g_outside_zero == 0u);
}

/* Extremes: subnormal and near-FLT_MAX lattices, triangles near 1e30 with tiny spread,
 * coordinates at +-FLT_MAX, and inputs outside the range (1e30 with 1e-30). */
static void test_orient_extreme(void)
{
    static const float big[6] = { FLT_MAX, -FLT_MAX, 0x1.fffffcp127f, 0x1p127f, -0x1.8p127f, 0.0f };
    test_rng rng;
    unsigned n, i, k;
    test_rng_seed(&rng, 15);
    g_outside = g_outside_zero = 0;
    for (n = 0; n < ge_reps(3000); n++) {
        int64_t p[4][3];
        float f[4][3], off[3];
        const unsigned kind = n % 5;
        ge_scene(&rng, n / 5 % 5, p);
        for (i = 0; i < 4; i++) {
            switch (kind) {
            case 0: /* subnormal and tiny: 2^-149 .. 2^-120 */
                ge_to_float(f[i], p[i], -149 + (int)(n / 25 % 30), NULL);
                break;
            case 1: /* up to 2^127 */
                ge_to_float(f[i], p[i], 90 + (int)(n / 25 % 20), NULL);
                break;
            case 2: /* near 1.5 * 2^99 (about 9.5e29), a spread of 2^18 ulps */
                off[0] = 0x1.8p99f;
                off[1] = -0x1.8p99f;
                off[2] = 0x1.8p99f;
                ge_to_float(f[i], p[i], 77, off);
                break;
            case 3: /* FLT_MAX and friends: every difference overflows */
                for (k = 0; k < 3; k++)
                    f[i][k] = big[test_rng_below(&rng, 6)];
                break;
            default: /* 1e30 with 1e-30: outside the range */
                for (k = 0; k < 3; k++)
                    f[i][k] = ge_rand_float(&rng, test_rng_below(&rng, 2) ? 99 : -101, 2);
                break;
            }
        }
        ge_judge_floats((const float(*)[3])f, kind == 0 ? "tiny" : kind == 1 ? "huge" : kind == 2 ? "near 1e30" : kind == 3 ? "FLT_MAX" : "mixed");
        if (kind == 2) { /* exact from the construction too */
            CHECK_EQ_INT(copse_geo_orient3d(f[0], f[1], f[2], f[3]), oex_orient3d_i(p[0], p[1], p[2], p[3]));
        }
    }
    CHECK(g_outside > 0); /* the mixed scenes did leave the range */
}

/* A float of magnitude 2^-140 .. 2^-100, 2^-10 .. 2^10 or 2^90 .. 2^120, random bits. */
static float ge_wild(test_rng *r)
{
    static const int base[3] = { -140, -10, 90 };
    const float x = ge_rand_float(r, base[test_rng_below(r, 3)], 30);
    return x != 0.0f ? x : 1.0f;
}

/* Exactly coplanar points (z = +-x or z = +-y, copied) and exactly collinear ones (w = +-u in
 * the projection), with random 24-bit mantissas: a determinant of exactly 0 whose products
 * have full-length tails, so an inexact product would show. Every other scene has each axis
 * spread over 200 binades: outside the exact range, where rounded tails would leave a nonzero
 * sum. The answer is 0 and must stay 0. */
static void test_orient_zero(void)
{
    test_rng rng;
    unsigned n, i, k;
    test_rng_seed(&rng, 16);
    for (n = 0; n < ge_reps(4000); n++) {
        const unsigned from = test_rng_below(&rng, 2), to = 2;
        const float sgn = test_rng_below(&rng, 2) ? 1.0f : -1.0f;
        const int e0 = (int)test_rng_below(&rng, 200) - 100;
        float f[4][3];
        for (i = 0; i < 4; i++) {
            f[i][0] = n % 2 ? ge_wild(&rng) : ge_rand_float(&rng, e0, 3);
            f[i][1] = n % 2 ? ge_wild(&rng) : ge_rand_float(&rng, e0, 3);
            f[i][to] = sgn * f[i][from];
        }
        ge_check_orient3d_perms((const float(*)[3])f, 0, n % 2 ? "coplanar, out of range" : "coplanar");
        k = test_rng_below(&rng, 3);
        for (i = 0; i < 3; i++) {
            f[i][(k + 1) % 3] = n % 2 ? ge_wild(&rng) : ge_rand_float(&rng, e0, 3);
            f[i][(k + 2) % 3] = sgn * f[i][(k + 1) % 3];
        }
        ge_check_orient2d_perms((const float(*)[3])f, k, 0, n % 2 ? "collinear, out of range" : "collinear");
    }
}

/* ---- intersection tests on lattice scenes -------------------------------------------------------- */

/* Exact maps of small integer scenes (|x| <= 1024) into floats, under which the answers stay. */
typedef struct ge_map {
    int e;
    float off[3];
    const char *name;
} ge_map;

static const ge_map k_maps[6] = {
    { 0, { 0.0f, 0.0f, 0.0f }, "as is" },
    { 100, { 0.0f, 0.0f, 0.0f }, "x2^100 (1e30)" },
    { -100, { 0.0f, 0.0f, 0.0f }, "x2^-100 (1e-30)" },
    { -140, { 0.0f, 0.0f, 0.0f }, "x2^-140 (subnormal)" },
    { 0, { 12345.5f, -777.25f, 1048576.0f }, "translated" },
    { 78, { 0x1.8p99f, -0x1.8p99f, 0x1.8p99f }, "near 1e30, small" },
};

/* For nudges: near 1e30 with 2^12 ulps a lattice unit (k_maps[5] has 4: a nudge there may
 * leave the face, whose centroid can be 0.07 units from an edge). */
static const ge_map k_map_nudge = { 88, { 0x1.8p99f, -0x1.8p99f, 0x1.8p99f }, "near 1e30" };

static void ge_map_points(float (*out)[3], const int32_t (*in)[3], unsigned n, const ge_map *m)
{
    unsigned i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 3; k++)
            out[i][k] = ldexpf((float)in[i][k], m->e) + m->off[k];
}

enum { GE_POINT = 1, GE_SEGMENT = 2, GE_TRIANGLE = 3 };

/* The kernel for a (1, 2 or 3 corners) against b (3 corners). */
static bool ge_call(const float (*a)[3], unsigned na, const unsigned char *oa, const float (*b)[3],
                    const unsigned char *ob, bool swap)
{
    const float *A[3], *B[3];
    unsigned i;
    for (i = 0; i < 3; i++) {
        A[i] = a[na == 3 ? oa[i] : na == 2 ? (oa[0] + i) % 2u : 0u]; /* a segment: both directions */
        B[i] = b[ob[i]];
    }
    if (na == GE_POINT)
        return copse_geo_point_on_triangle(A[0], B);
    if (na == GE_SEGMENT)
        return copse_geo_segment_triangle_overlap(A[0], A[1], B);
    return swap ? copse_geo_triangle_triangle_overlap(B, A) : copse_geo_triangle_triangle_overlap(A, B);
}

static void ge_print_scene(const int32_t (*a)[3], unsigned na, const int32_t (*b)[3])
{
    char buf[200];
    unsigned i;
    int len = 0;
    for (i = 0; i < na + 3u; i++) {
        const int32_t *p = i < na ? a[i] : b[i - na];
        len += copse_port_snprintf(buf + len, sizeof buf - (size_t)len, "%s(%d %d %d)", i == na ? " | " : " ",
                                   (int)p[0], (int)p[1], (int)p[2]);
        if (len >= (int)sizeof buf - 1)
            break;
    }
    copse_port_printf("    scene:%s\n", buf);
}

/* Judge one integer scene (a with na corners against the triangle b) under every map; under the
 * identity with every order of both shapes' corners and both argument orders. */
static unsigned ge_judge_scene(const int32_t (*a)[3], unsigned na, const int32_t (*b)[3], int expect, const char *what)
{
    const bool want = oex_hulls_meet(a, na, b, 3);
    float fa[3][3], fb[3][3];
    unsigned m, i, j, bad = 0;
    if (expect >= 0)
        CHECKF(want == (expect != 0), "%s: the reference says %d, the construction %d", what, want, expect);
    for (m = 0; m < 6; m++) {
        ge_map_points(fa, a, na, &k_maps[m]);
        ge_map_points(fb, b, 3, &k_maps[m]);
        for (i = 0; i < 6; i++) {
            for (j = 0; j < 6; j++) {
                const bool swap = (i + j) % 2 == 1;
                bool got;
                if (m != 0 && j != (i * 5u + m) % 6u) /* other maps: six orders */
                    continue;
                if (na < 3 && swap && m != 0)
                    continue;
                got = ge_call((const float(*)[3])fa, na, k_perm3[i], (const float(*)[3])fb, k_perm3[j], swap);
                if (!CHECKF(got == want, "%s, %s: got %d want %d (orders %u %u%s)", what, k_maps[m].name, got, want, i,
                            j, swap ? " swapped" : "")) {
                    if (bad++ == 0)
                        ge_print_scene(a, na, b);
                }
            }
        }
    }
    return bad;
}

/* A triangle: random in [-lim, lim]; on the lattice plane o + i u + j v; or collinear. */
static void ge_tri(test_rng *r, unsigned kind, int32_t lim, const int32_t *o, const int32_t *u, const int32_t *v,
                   int32_t (*t)[3], unsigned n)
{
    unsigned i, k;
    for (i = 0; i < n; i++) {
        const int32_t ci = (int32_t)ge_int(r, 3), cj = kind == 2 ? 0 : (int32_t)ge_int(r, 3);
        for (k = 0; k < 3; k++)
            t[i][k] = kind == 0 ? (int32_t)ge_int(r, lim) : o[k] + ci * u[k] + cj * v[k];
    }
}

/* Pair generators: 0 dense grid [-2, 2]; 1 random [-64, 64]; 2 coplanar; 3 shared corners;
 * 4 a corner on an edge midpoint, centroid or corner of the other; 5 degenerate (collinear or
 * coincident corners) on one or both sides. */
static void ge_pair(test_rng *r, unsigned mode, int32_t (*a)[3], unsigned na, int32_t (*b)[3])
{
    int32_t o[3], u[3], v[3];
    unsigned i, k;
    for (k = 0; k < 3; k++) {
        o[k] = (int32_t)ge_int(r, 24);
        u[k] = (int32_t)ge_int(r, 3);
        v[k] = (int32_t)ge_int(r, 3);
    }
    switch (mode) {
    case 0:
        ge_tri(r, 0, 2, o, u, v, a, na);
        ge_tri(r, 0, 2, o, u, v, b, 3);
        break;
    case 1:
        ge_tri(r, 0, 64, o, u, v, a, na);
        ge_tri(r, 0, 64, o, u, v, b, 3);
        break;
    case 2:
        ge_tri(r, 1, 0, o, u, v, a, na);
        ge_tri(r, 1, 0, o, u, v, b, 3);
        break;
    case 3:
        ge_tri(r, 0, 8, o, u, v, a, na);
        ge_tri(r, 0, 8, o, u, v, b, 3);
        for (i = 0; i < 1u + test_rng_below(r, na < 3 ? 1 : 2); i++)
            memcpy(a[test_rng_below(r, na)], b[test_rng_below(r, 3)], sizeof a[0]);
        break;
    case 4: {
        const unsigned w = test_rng_below(r, 3);
        ge_tri(r, 0, 4, o, u, v, b, 3);
        for (i = 0; i < 3; i++)
            for (k = 0; k < 3; k++)
                b[i][k] *= 6; /* edge midpoints and the centroid are on the lattice */
        ge_tri(r, 0, 24, o, u, v, a, na);
        for (k = 0; k < 3; k++)
            a[0][k] = w == 0 ? (b[0][k] + b[1][k]) / 2 : w == 1 ? (b[0][k] + b[1][k] + b[2][k]) / 3 : b[2][k];
        break;
    }
    default:
        ge_tri(r, test_rng_below(r, 2) ? 2u : 0u, 6, o, u, v, a, na);
        ge_tri(r, 2, 0, o, u, v, b, 3);
        if (test_rng_below(r, 3) == 0)
            memcpy(b[1], b[0], sizeof b[0]);
        if (test_rng_below(r, 2)) { /* the degenerate one on the other side */
            int32_t t[3][3];
            memcpy(t, b, sizeof t);
            ge_tri(r, 0, 6, o, u, v, b, 3);
            memcpy(a, t, sizeof(int32_t) * 3u * na);
        }
        break;
    }
}

static void ge_lattice(unsigned na, uint64_t seed, unsigned reps)
{
    static const char *const names[6] = { "dense grid", "random", "coplanar", "shared corners", "corner on feature",
                                          "degenerate" };
    test_rng rng;
    unsigned n, hits[6] = { 0 }, total[6] = { 0 }, bad = 0, hit_all = 0, total_all = 0;
    test_rng_seed(&rng, seed);
    for (n = 0; n < ge_reps(reps); n++) {
        const unsigned mode = n % 6;
        int32_t a[3][3], b[3][3];
        ge_pair(&rng, mode, a, na, b);
        total[mode]++;
        hits[mode] += oex_hulls_meet((const int32_t(*)[3])a, na, (const int32_t(*)[3])b, 3);
        bad += ge_judge_scene((const int32_t(*)[3])a, na, (const int32_t(*)[3])b, -1, names[mode]);
        if (bad > 20)
            break;
    }
    for (n = 0; n < 6; n++) {
        hit_all += hits[n];
        total_all += total[n];
    }
    /* both answers occur (or the scenes are useless); the counts per kind for the record */
    CHECKF(hit_all > 0 && hit_all < total_all, "%u of %u scenes meet", hit_all, total_all);
    copse_port_printf("info %s: meeting / scenes per kind: %u/%u %u/%u %u/%u %u/%u %u/%u %u/%u\n",
                      na == 3 ? "tri_tri" : na == 2 ? "seg_tri" : "point_tri", hits[0], total[0], hits[1], total[1],
                      hits[2], total[2], hits[3], total[3], hits[4], total[4], hits[5], total[5]);
}

static void test_tri_tri_lattice(void)
{
    ge_lattice(GE_TRIANGLE, 21, 3000);
}

static void test_seg_tri_lattice(void)
{
    ge_lattice(GE_SEGMENT, 22, 3000);
}

static void test_point_tri_lattice(void)
{
    ge_lattice(GE_POINT, 23, 3000);
}

/* ---- hand-built cases -------------------------------------------------------------------------------- */

typedef struct ge_case {
    const char *name;
    unsigned na;
    int32_t a[3][3];
    int32_t b[3][3];
    int meet;
} ge_case;

/* b is mostly the triangle (0,0,0) (4,0,0) (0,4,0) in z = 0. */
static const ge_case k_cases[] = {
    { "shared corner", 3, { { 0, 0, 0 }, { 0, 0, 3 }, { -2, -1, 2 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "shared corner, coplanar", 3, { { 0, 0, 0 }, { -4, 0, 0 }, { 0, -4, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "shared edge", 3, { { 0, 0, 0 }, { 4, 0, 0 }, { 1, -2, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "shared edge, coplanar", 3, { { 0, 0, 0 }, { 4, 0, 0 }, { 1, -3, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "T-junction", 3, { { 2, 0, 0 }, { 2, -1, 1 }, { 2, -1, -1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "T-junction, one step away", 3, { { 2, -1, 0 }, { 2, -2, 1 }, { 2, -2, -1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "edge on edge", 3, { { 2, -2, -2 }, { 2, 2, 2 }, { 2, -6, 2 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "edges skew, apart", 3, { { 2, -2, -1 }, { 2, 2, 3 }, { 2, -6, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "corner on face", 3, { { 1, 1, 0 }, { 2, 1, 3 }, { 1, 2, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "corner above face", 3, { { 1, 1, 1 }, { 2, 1, 3 }, { 1, 2, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "corner on plane, outside", 3, { { 3, 3, 0 }, { 4, 3, 3 }, { 3, 4, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "piercing", 3, { { 1, 1, -2 }, { 1, 1, 2 }, { 3, 3, 2 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "edge through corner", 3, { { 0, 0, -2 }, { 0, 0, 2 }, { -3, -3, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar overlap", 3, { { 1, 1, 0 }, { 5, 1, 0 }, { 1, 5, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar, edges crossing", 3, { { 2, -1, 0 }, { 3, 3, 0 }, { -1, 2, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar, edge touch", 3, { { 2, 2, 0 }, { 4, 4, 0 }, { 0, 6, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar, corner touch", 3, { { 4, 0, 0 }, { 6, 0, 0 }, { 5, -3, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar, apart", 3, { { 3, 3, 0 }, { 6, 3, 0 }, { 3, 6, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "coplanar, nested", 3, { { 1, 1, 0 }, { 2, 1, 0 }, { 1, 2, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar, same", 3, { { 0, 4, 0 }, { 0, 0, 0 }, { 4, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "coplanar tilted, touch", 3, { { 2, 2, 2 }, { 4, 0, 4 }, { 6, 3, 6 } }, { { 0, 0, 0 }, { 4, 0, 4 }, { 0, 4, 0 } }, 1 },
    { "parallel planes", 3, { { 0, 0, 1 }, { 4, 0, 1 }, { 0, 4, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "segment triangle through face", 3, { { 1, 1, -1 }, { 1, 1, 1 }, { 1, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "segment triangle beside", 3, { { 5, 5, -1 }, { 5, 5, 1 }, { 5, 5, 3 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "segment triangle in plane, crossing", 3, { { -1, 1, 0 }, { 1, 1, 0 }, { 5, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "segment triangle on edge line, apart", 3, { { 5, 0, 0 }, { 6, 0, 0 }, { 7, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "segment triangle on edge line, touch", 3, { { 4, 0, 0 }, { 6, 0, 0 }, { 7, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "point triangle on face", 3, { { 1, 1, 0 }, { 1, 1, 0 }, { 1, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "point triangle above", 3, { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "two crossing segments", 3, { { -1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 } }, { { 0, -1, 0 }, { 0, 1, 0 }, { 0, 3, 0 } }, 1 },
    { "two skew segments", 3, { { -1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 } }, { { 0, -1, 1 }, { 0, 1, 1 }, { 0, 3, 1 } }, 0 },
    { "collinear segments, overlap", 3, { { 0, 0, 0 }, { 2, 2, 2 }, { 1, 1, 1 } }, { { 2, 2, 2 }, { 3, 3, 3 }, { 5, 5, 5 } }, 1 },
    { "collinear segments, gap", 3, { { 0, 0, 0 }, { 2, 2, 2 }, { 1, 1, 1 } }, { { 3, 3, 3 }, { 4, 4, 4 }, { 5, 5, 5 } }, 0 },
    { "point on segment", 3, { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 3, 3, 3 }, { 2, 2, 2 } }, 1 },
    { "point beside segment", 3, { { 1, 1, 2 }, { 1, 1, 2 }, { 1, 1, 2 } }, { { 0, 0, 0 }, { 3, 3, 3 }, { 2, 2, 2 } }, 0 },
    { "same point", 3, { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } }, { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } }, 1 },
    { "two points", 3, { { 1, 2, 3 }, { 1, 2, 3 }, { 1, 2, 3 } }, { { 1, 2, 4 }, { 1, 2, 4 }, { 1, 2, 4 } }, 0 },
    { "seg: through face", 2, { { 1, 1, -1 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: end on face", 2, { { 1, 1, 0 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: end on edge", 2, { { 2, 0, 0 }, { 2, -1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: through corner", 2, { { -1, -1, -1 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: through edge", 2, { { 2, -1, -1 }, { 2, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: misses edge", 2, { { 2, -2, -1 }, { 2, 0, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "seg: stops short", 2, { { 1, 1, 2 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "seg: in plane, inside", 2, { { 1, 1, 0 }, { 2, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: in plane, along edge", 2, { { -1, 0, 0 }, { 5, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: in plane, outside", 2, { { 3, 3, 0 }, { 5, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "seg: point on face", 2, { { 1, 2, 0 }, { 1, 2, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "seg: point off", 2, { { 1, 2, 1 }, { 1, 2, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "seg: degenerate triangle, crossing", 2, { { 1, -1, 0 }, { 1, 1, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 2, 0, 0 } }, 1 },
    { "seg: degenerate triangle, skew", 2, { { 1, -1, 1 }, { 1, 1, 1 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 2, 0, 0 } }, 0 },
    { "seg: point triangle", 2, { { 0, 0, 0 }, { 2, 2, 2 } }, { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }, 1 },
    { "point: corner", 1, { { 4, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "point: edge", 1, { { 2, 2, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 1 },
    { "point: just outside edge", 1, { { 3, 2, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "point: on edge line, outside", 1, { { 5, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 0, 4, 0 } }, 0 },
    { "point: segment triangle", 1, { { 3, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 2, 0, 0 } }, 1 },
    { "point: segment triangle, beyond", 1, { { 5, 0, 0 } }, { { 0, 0, 0 }, { 4, 0, 0 }, { 2, 0, 0 } }, 0 },
    { "point: point triangle", 1, { { 2, 0, 0 } }, { { 2, 0, 0 }, { 2, 0, 0 }, { 2, 0, 0 } }, 1 },
};

static void test_cases(void)
{
    unsigned i;
    for (i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
        (void)ge_judge_scene((const int32_t(*)[3])k_cases[i].a, k_cases[i].na, (const int32_t(*)[3])k_cases[i].b,
                             k_cases[i].meet, k_cases[i].name);
}

/* A corner of one triangle (an end of a segment, a point) at the centroid of a tilted lattice
 * triangle t, the rest strictly on the + side of t's plane: meeting. One coordinate of that
 * corner moved 1 ulp: the corner goes to the side sign(move * n_k) (n = t's normal), so the
 * shape stays touching-inside (n_k = 0), pierces t (-), or lifts off (+). */
static void test_nudged_contact(void)
{
    test_rng rng;
    unsigned n, m, k, i, j, judged = 0, skipped = 0;
    test_rng_seed(&rng, 31);
    for (n = 0; n < ge_reps(1500); n++) {
        int32_t t[3][3], a[3][3];
        int64_t ti[3][3], ai[3], nrm[3], e1[3], e2[3];
        float ft[3][3], fa[3][3];
        const float *T[3], *A[3];
        int sgn, dir = test_rng_below(&rng, 2) ? 1 : -1;
        bool ok = false;
        while (!ok) { /* t with a normal; the other corners on its + side */
            for (i = 0; i < 3; i++)
                for (k = 0; k < 3; k++)
                    t[i][k] = 3 * (int32_t)ge_int(&rng, 4);
            for (k = 0; k < 3; k++) {
                a[0][k] = (t[0][k] + t[1][k] + t[2][k]) / 3;
                e1[k] = t[1][k] - t[0][k];
                e2[k] = t[2][k] - t[0][k];
            }
            nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
            nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
            ok = nrm[0] != 0 || nrm[1] != 0 || nrm[2] != 0;
            for (i = 1; i < 3 && ok; i++) {
                for (k = 0; k < 3; k++)
                    a[i][k] = a[0][k] + (int32_t)ge_int(&rng, 6);
                for (j = 0; j < 3; j++)
                    for (k = 0; k < 3; k++)
                        ti[j][k] = t[j][k];
                for (k = 0; k < 3; k++)
                    ai[k] = a[i][k];
                ok = oex_orient3d_i(ti[0], ti[1], ti[2], ai) > 0;
            }
        }
        k = test_rng_below(&rng, 3);
        sgn = dir * (nrm[k] > 0 ? 1 : nrm[k] < 0 ? -1 : 0);
        for (m = 0; m < 6; m++) {
            const float *all[6];
            const ge_map *mp = m == 5 ? &k_map_nudge : &k_maps[m];
            ge_map_points(ft, (const int32_t(*)[3])t, 3, mp);
            ge_map_points(fa, (const int32_t(*)[3])a, 3, mp);
            fa[0][k] = ge_nudge(fa[0][k], dir);
            for (i = 0; i < 3; i++) {
                T[i] = ft[k_perm3[(n + m) % 6][i]];
                A[i] = fa[i];
                all[i] = T[i];
                all[3 + i] = A[i];
            }
            /* a 0 moved to +-2^-149 beside 2^100: beyond the float accumulator, decided by the
             * wide integer path */
            skipped += !ge_in_range(all, 6, 7u, 182);
            CHECKF(copse_geo_orient3d(T[0], T[1], T[2], fa[0]) * ((n + m) % 6 < 3 ? 1 : -1) == sgn,
                   "nudged corner, %s: side %d", mp->name, sgn);
            CHECKF(copse_geo_triangle_triangle_overlap(A, T) == (sgn <= 0), "nudged corner, %s: triangles, side %d",
                   mp->name, sgn);
            CHECKF(copse_geo_triangle_triangle_overlap(T, A) == (sgn <= 0), "nudged corner, %s: swapped, side %d",
                   mp->name, sgn);
            CHECKF(copse_geo_segment_triangle_overlap(fa[0], fa[1], T) == (sgn <= 0),
                   "nudged corner, %s: segment, side %d", mp->name, sgn);
            CHECKF(copse_geo_point_on_triangle(fa[0], T) == (sgn == 0), "nudged corner, %s: point, side %d",
                   mp->name, sgn);
            judged++;
        }
    }
    copse_port_printf("info nudged_contact: %u judged, %u of them beyond the float accumulator's range\n", judged,
                      skipped);
    CHECK(skipped > 0u && judged > skipped);
}

/* ---- a * b - c * d (copse_geo_exact_cross) ------------------------------------------------ */

/* A float with a random sign and mantissa and an exponent in [lo, hi] (subnormal below -126). */
static float ge_float_exp(test_rng *r, int lo, int hi)
{
    const int e = lo + (int)test_rng_below(r, (uint32_t)(hi - lo + 1));
    float m = 1.0f + (float)(test_rng_u32(r) >> 9) * 0x1p-23f; /* [1, 2), all 24 bits */
    float f = e < -126 ? ldexpf(m, -126) * ldexpf(1.0f, e + 126) : ldexpf(m, e);
    return (test_rng_u32(r) & 1u) ? -f : f;
}

static unsigned g_cross_zero_in_float;

/* Judge one a * b - c * d: the sign against the big-integer orient2d (the cross product of
 * (a, c) and (d, b) from the origin), the value against double (products of floats are exact
 * there, the difference rounds once), and the symmetries a neighbouring triangle relies on. */
static void ge_judge_cross(float a, float b, float c, float d)
{
    const float o[3] = { 0.0f, 0.0f, 0.0f }, p[3] = { a, c, 0.0f }, q[3] = { d, b, 0.0f };
    const int want = oex_orient2d(o, p, q, 2u);
    const float got = copse_geo_exact_cross(a, b, c, d);
    const double ref = (double)a * (double)b - (double)c * (double)d;
    const float swapped = copse_geo_exact_cross(c, d, a, b), commuted = copse_geo_exact_cross(b, a, d, c);
    const int sign = got > 0.0f ? 1 : got < 0.0f ? -1 : 0;
    const double aref = ref < 0.0 ? -ref : ref;
    g_cross_zero_in_float += a * b - c * d == 0.0f && want != 0;
    if (aref >= 0x1p-126 && aref <= (double)FLT_MAX) {
        CHECKF(sign == want, "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g, sign %d, want %d", (double)a, (double)b, (double)c,
               (double)d, (double)got, sign, want);
        CHECKF(fabs((double)got - ref) <= 0x1p-23 * aref, "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g, want %.9g", (double)a,
               (double)b, (double)c, (double)d, (double)got, ref);
    } else if (aref > (double)FLT_MAX) {
        /* inf, or FLT_MAX for an exact value within half an ulp of it */
        const bool near_max = aref < (double)FLT_MAX + 0x1p103 && (got == FLT_MAX || got == -FLT_MAX);
        CHECKF((got == INFINITY || got == -INFINITY || near_max) && sign == want,
               "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g, want inf of %.9g",
               (double)a, (double)b, (double)c, (double)d, (double)got, ref);
    } else { /* below the normal range: a subnormal or 0, never the wrong sign */
        CHECKF(sign == want || sign == 0, "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g, want the sign %d or 0", (double)a,
               (double)b, (double)c, (double)d, (double)got, want);
        CHECKF(fabs((double)got - ref) <= 0x1p-148, "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g, want %.9g", (double)a,
               (double)b, (double)c, (double)d, (double)got, ref);
    }
    CHECKF(swapped == -got && commuted == got, "exact_cross(%.9g, %.9g, %.9g, %.9g) = %.9g: swapped %.9g, commuted %.9g",
           (double)a, (double)b, (double)c, (double)d, (double)got, (double)swapped, (double)commuted);
}

/* Random floats over every exponent range; products rounded together in float (c * d within
 * a few ulps of a * b, and equal to it); exact cancellations with full mantissas; zeros,
 * subnormals, FLT_MAX. */
static void test_exact_cross(void)
{
    test_rng rng;
    const unsigned reps = ge_reps(20000u);
    unsigned i;
    test_rng_seed(&rng, 0xC2055u);
    g_cross_zero_in_float = 0;
    for (i = 0; i < reps; i++) {
        const int lo = -149 + (int)test_rng_below(&rng, 200u), span = (int)test_rng_below(&rng, 80u);
        const int hi = lo + span > 127 ? 127 : lo + span;
        float a = ge_float_exp(&rng, lo, hi), b = ge_float_exp(&rng, lo, hi), c, d;
        unsigned k;
        ge_judge_cross(a, b, ge_float_exp(&rng, lo, hi), ge_float_exp(&rng, lo, hi));
        /* c * d rounded near a * b: d random, c = a * b / d, then nudged by up to 3 ulps */
        d = ge_float_exp(&rng, lo, hi);
        c = (float)((double)a * (double)b / (double)d);
        for (k = test_rng_below(&rng, 7u); k > 0u && c - c == 0.0f; k--)
            c = nextafterf(c, (k & 1u) ? INFINITY : -INFINITY);
        if (c - c == 0.0f)
            ge_judge_cross(a, b, c, d);
        /* exactly equal products: (m1 * 2^i)(m2 * 2^j) = (m1 * 2^(i+s))(m2 * 2^(j-s)) */
        k = test_rng_below(&rng, 40u);
        c = ldexpf(a, (int)k - 20);
        d = ldexpf(b, 20 - (int)k);
        if (c - c == 0.0f && d - d == 0.0f) /* not scaled past FLT_MAX */
            ge_judge_cross(a, b, c, d);
        ge_judge_cross(a, b, b, a);
    }
    {
        /* rounded together: (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22 */
        const float one_up = 1.0f + 0x1p-23f, two_up = 1.0f + 0x1p-22f;
        static const float k_special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0x1p-149f, -0x1p-149f, 0x1p-126f, 3.0f,
                                           FLT_MAX, -FLT_MAX, 0x1.fffffep-127f, 1e30f, 1e-30f, 0x1.000002p0f };
        const unsigned n = sizeof k_special / sizeof k_special[0];
        unsigned x, y, z, w;
        CHECK(one_up * one_up - two_up * 1.0f == 0.0f);
        CHECK(copse_geo_exact_cross(one_up, one_up, two_up, 1.0f) == 0x1p-46f);
        CHECK(copse_geo_exact_cross(two_up, 1.0f, one_up, one_up) == -0x1p-46f);
        for (x = 0; x < n; x++)
            for (y = 0; y < n; y++)
                for (z = 0; z < n; z += 3u)
                    for (w = 0; w < n; w += 2u)
                        ge_judge_cross(k_special[x], k_special[y], k_special[z], k_special[w]);
    }
    copse_port_printf("info exact_cross: %u inputs whose float difference is 0 but the exact one is not\n",
                      g_cross_zero_in_float);
    CHECK(g_cross_zero_in_float > reps / 4u);
}

/* No ray slips between two triangles sharing an edge: float corners with full mantissas, a
 * ray aimed at a point of the edge (rounded, so it passes within an ulp of it), the far
 * corners on either side. Every ray must hit at least one of the two, at nearly the same t. */
static void test_shared_edge(void)
{
    test_rng rng;
    const unsigned reps = ge_reps(20000u);
    unsigned i, hits_both = 0, hits_first = 0, hits_second = 0;
    test_rng_seed(&rng, 0xED6Eu);
    for (i = 0; i < reps; i++) {
        float p[3], q[3], r0[3], s0[3], org[3], dir[3], aim[3], t1, t2, u, v;
        const float scale = ldexpf(1.0f, (int)test_rng_below(&rng, 120u) - 60);
        const float f = test_rng_float(&rng, 0.1f, 0.9f);
        geo_ray ray;
        bool h1, h2;
        unsigned k;
        for (k = 0; k < 3u; k++) {
            p[k] = scale * test_rng_float(&rng, -1.0f, 1.0f);
            q[k] = scale * test_rng_float(&rng, -1.0f, 1.0f);
            org[k] = scale * test_rng_float(&rng, -4.0f, 4.0f);
        }
        for (k = 0; k < 3u; k++) {
            /* far corners: the edge's midpoint pushed either way along a random direction */
            const float m = 0.5f * (p[k] + q[k]), off = scale * test_rng_float(&rng, -1.0f, 1.0f);
            r0[k] = m + off;
            s0[k] = m - off;
            aim[k] = p[k] + f * (q[k] - p[k]);
            dir[k] = aim[k] - org[k];
        }
        geo_ray_init(&ray, org, dir, INFINITY, 3u);
        t1 = t2 = -1.0f;
        h1 = geo_ray_triangle(&ray, p, q, r0, INFINITY, &t1, &u, &v);
        h2 = geo_ray_triangle(&ray, q, p, s0, INFINITY, &t2, &u, &v);
        hits_both += h1 && h2;
        hits_first += h1;
        hits_second += h2;
        CHECKF(h1 || h2, "ray %u slipped between two triangles sharing an edge (scale %g)", i, (double)scale);
        if (h1 && h2)
            CHECKF(fabsf(t1 - t2) <= 1e-4f * (t1 > t2 ? t1 : t2), "ray %u: t %.9g and %.9g on the shared edge", i,
                   (double)t1, (double)t2);
    }
    copse_port_printf("info shared_edge: %u rays, %u hit the first triangle, %u the second, %u both\n", reps,
                      hits_first, hits_second, hits_both);
    /* the rays straddle the edge: each side takes a fair share of them */
    CHECK(hits_first > reps / 4u && hits_second > reps / 4u);
}

void suite_geom_exact(void)
{
    test_run("geom_exact/oracle", test_oracle);
    test_run("geom_exact/orient_grid", test_orient_grid);
    test_run("geom_exact/orient_nudged", test_orient_nudged);
    test_run("geom_exact/orient_floats", test_orient_floats);
    test_run("geom_exact/orient_extreme", test_orient_extreme);
    test_run("geom_exact/orient_zero", test_orient_zero);
    test_run("geom_exact/cases", test_cases);
    test_run("geom_exact/tri_tri_lattice", test_tri_tri_lattice);
    test_run("geom_exact/seg_tri_lattice", test_seg_tri_lattice);
    test_run("geom_exact/point_tri_lattice", test_point_tri_lattice);
    test_run("geom_exact/nudged_contact", test_nudged_contact);
    test_run("geom_exact/exact_cross", test_exact_cross);
    test_run("geom_exact/shared_edge", test_shared_edge);
}

/* SPDX-License-Identifier: MIT */
/*
 * Geometry the trees share: primitive tests on plain float arrays.
 *
 * The hot tests are static inline so they fold into the traversal loops; the
 * larger ones live in geom.c under copse_geo_ names (internal, not in the API).
 * 2D callers embed their points at z = 0 and reuse the 3D routines where the
 * answer is the same (closest point, triangle/box overlap); only the ray entry
 * into a 2D triangle differs in kind and has its own routine.
 */
#ifndef COPSE_GEOM_INTERNAL_H
#define COPSE_GEOM_INTERNAL_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>

#include "copse/config.h"
#include "copse/geom.h"

/* Same input, same bytes (docs/design.md rule 6): no multiply-add contraction anywhere in the library,
 * whatever the user's flags, since a fused a*b+c rounds once and changes split planes and
 * bounds on CPUs with FMA. GCC ignores #pragma STDC FP_CONTRACT but honours this pragma under
 * -ffp-contract=fast and -march=haswell; clang honours its pragma under its default
 * (-ffp-contract=on), while clang's -ffp-contract=fast overrides every pragma by design
 * (docs/fuzz.md, "FMA"). Every library source includes this header before its code. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(__GNUC__) || defined(__clang__)
#if COPSE_FORCE_INLINE /* config.h */
#define COPSE_INLINE static inline __attribute__((always_inline))
#else
#define COPSE_INLINE static inline
#endif
#define COPSE_NOINLINE __attribute__((noinline))
#define copse_sqrtf(x) __builtin_sqrtf(x)
#define copse_fabsf(x) __builtin_fabsf(x)
#define COPSE_LIKELY(x) __builtin_expect(!!(x), 1)
#define COPSE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#include <math.h>
#define COPSE_INLINE static inline
#define COPSE_NOINLINE
#define copse_sqrtf(x) sqrtf(x)
#define copse_fabsf(x) fabsf(x)
#define COPSE_LIKELY(x) (x)
#define COPSE_UNLIKELY(x) (x)
#endif

/* COPSE_BRANCH_FREE (config.h): host CPUs guess branches far ahead and pay for each wrong
 * guess; Cortex-M cores pay per instruction instead. Walks whose branches are coin flips take
 * their branch-free form on the first (measured: rays 9% faster on x86-64, 7% more
 * instructions on Cortex-M4). */

/* A vector's fields as an array, for the walks that loop over axes: a struct is not an array,
 * and indexing &v.x past x is undefined behaviour however the fields are laid out. The copy
 * folds away where the walk is inlined. */
COPSE_INLINE float *geo_v3_array(float out[3], copse_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    return out;
}

COPSE_INLINE float *geo_v2_array(float out[2], copse_vec2 v)
{
    out[0] = v.x;
    out[1] = v.y;
    return out;
}

/* NaN and both infinities fail: x - x is 0 only for finite x. */
COPSE_INLINE bool geo_finite(float x)
{
    return (x - x) == 0.0f;
}

COPSE_INLINE float geo_min(float a, float b)
{
    return a < b ? a : b;
}

COPSE_INLINE float geo_max(float a, float b)
{
    return a > b ? a : b;
}

COPSE_INLINE float geo_dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

COPSE_INLINE void geo_sub3(float *out, const float *a, const float *b)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

COPSE_INLINE void geo_cross3(float *out, const float *a, const float *b)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- boxes (any dimension) ------------------------------------------------------------------ */

COPSE_INLINE bool geo_box_overlap(const float *amin, const float *amax, const float *bmin, const float *bmax,
                                  unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        if (amin[a] > bmax[a] || bmin[a] > amax[a])
            return false;
    return true;
}

/* How far p lies outside [lo, hi] on one axis (0 inside). Without branches (at most one
 * difference is positive) where a wrong guess costs more than two float operations; with
 * them on Cortex-M, where soft-float cores pay a library call per operation. */
COPSE_INLINE float geo_gap(float p, float lo, float hi)
{
#if COPSE_BRANCH_FREE
    return geo_max(geo_max(lo - p, p - hi), 0.0f);
#else
    return p < lo ? lo - p : (p > hi ? p - hi : 0.0f);
#endif
}

/* Squared distance from p to the box (0 inside). */
COPSE_INLINE float geo_box_dist_sq(const float *p, const float *bmin, const float *bmax, unsigned dim)
{
    float d = geo_gap(p[0], bmin[0], bmax[0]), d2 = d * d;
    d = geo_gap(p[1], bmin[1], bmax[1]);
    d2 += d * d;
    if (dim == 3) {
        d = geo_gap(p[2], bmin[2], bmax[2]);
        d2 += d * d;
    }
    return d2;
}

COPSE_INLINE void geo_box_closest(float *out, const float *p, const float *bmin, const float *bmax, unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        out[a] = p[a] < bmin[a] ? bmin[a] : (p[a] > bmax[a] ? bmax[a] : p[a]);
}

/* ---- rays ----------------------------------------------------------------------------------- */

/* A ray with what every box and triangle test wants precomputed. */
typedef struct geo_ray {
    float org[3], dir[3], inv[3];
    float t_max;
    /* node tests: which of a box's 2*dim bounds (min[dim] then max[dim]) is the near and
     * which the far plane on each axis, chosen once by the sign of the direction */
    unsigned char near[3], far[3];
    /* watertight triangle test (3D): the dominant axis kz and the shear */
    unsigned kx, ky, kz;
    float sx, sy, sz;
} geo_ray;

/* 1/d, with IEEE infinities for d = +-0 so slab tests need no special case. */
COPSE_INLINE float geo_recip(float d)
{
    return 1.0f / d;
}

COPSE_INLINE void geo_ray_init(geo_ray *r, const float *org, const float *dir, float t_max, unsigned dim)
{
    unsigned a;
    for (a = 0; a < 3; a++) {
        r->org[a] = a < dim ? org[a] : 0.0f;
        r->dir[a] = a < dim ? dir[a] : 0.0f;
        r->inv[a] = geo_recip(r->dir[a]);
        r->near[a] = (unsigned char)(r->inv[a] < 0.0f ? dim + a : a);
        r->far[a] = (unsigned char)(r->inv[a] < 0.0f ? a : dim + a);
    }
    r->t_max = t_max;
    if (dim == 3) {
        float ax = copse_fabsf(dir[0]), ay = copse_fabsf(dir[1]), az = copse_fabsf(dir[2]);
        unsigned t;
        r->kz = (ax >= ay && ax >= az) ? 0u : (ay >= az ? 1u : 2u);
        r->kx = r->kz == 2u ? 0u : r->kz + 1u;
        r->ky = r->kx == 2u ? 0u : r->kx + 1u;
        if (dir[r->kz] < 0.0f) { /* keep the winding: swap so the sheared frame is right-handed */
            t = r->kx;
            r->kx = r->ky;
            r->ky = t;
        }
        r->sx = dir[r->kx] / dir[r->kz];
        r->sy = dir[r->ky] / dir[r->kz];
        r->sz = 1.0f / dir[r->kz];
    } else {
        r->kx = 0;
        r->ky = 1;
        r->kz = 2;
        r->sx = r->sy = r->sz = 0.0f;
    }
}

/* 1 + 2*gamma(3): widens a slab test's far distance so that rounding never culls a box
 * that the exact ray touches (Ize, "Robust BVH Ray Traversal", 2013). */
#define GEO_SLAB_WIDEN (1.0f + 2.0f * (3.0f * FLT_EPSILON * 0.5f) / (1.0f - 3.0f * FLT_EPSILON * 0.5f))

/* 1 + 4 ulps: a bound on t_max * det that exceeds T whenever T / det rounds to at most t_max. */
#define GEO_T_SLACK (1.0f + 4.0f * FLT_EPSILON)

/* Slab test of the ray's [t_lo, t_hi] against a box. On a hit, *t_enter is where the ray
 * enters (t_lo when it starts inside). `widen` makes it conservative for node culling.
 * A zero direction component gives infinite slab distances; a NaN (origin exactly on a
 * slab plane) is ignored by the comparisons' order, which is right: the ray lies in it. */
COPSE_INLINE bool geo_ray_box(const geo_ray *r, const float *bmin, const float *bmax, float t_lo, float t_hi,
                              unsigned dim, bool widen, float *t_enter)
{
    float tn = t_lo, tf = t_hi;
    unsigned a;
    for (a = 0; a < dim; a++) {
        float near_plane = r->inv[a] < 0.0f ? bmax[a] : bmin[a];
        float far_plane = r->inv[a] < 0.0f ? bmin[a] : bmax[a];
        float t0 = (near_plane - r->org[a]) * r->inv[a];
        float t1 = (far_plane - r->org[a]) * r->inv[a];
        if (widen)
            t1 *= GEO_SLAB_WIDEN;
        tn = t0 > tn ? t0 : tn;
        tf = t1 < tf ? t1 : tf;
    }
    *t_enter = tn;
    return tn <= tf;
}

/* The node test of the ordered and overlap walks: geo_ray_box(r, b, b + dim, 0, t_hi, dim,
 * widen = true) with the same answer, for a box stored as b[0..dim) = min, b[dim..2*dim) = max.
 * The planes were chosen by geo_ray_init, the axes are written out for a constant dim, and
 * the far distance is widened once: rounding is monotonic, so min(w*a, w*b) = w*min(a, b).
 * As there, a NaN slab distance (origin on a plane, zero direction) never wins a comparison. */
COPSE_INLINE bool geo_ray_node(const geo_ray *r, const float *b, float t_hi, unsigned dim, float *t_enter)
{
    float tn = 0.0f, tf = FLT_MAX;
    float t0 = (b[r->near[0]] - r->org[0]) * r->inv[0];
    float t1 = (b[r->far[0]] - r->org[0]) * r->inv[0];
    tn = t0 > tn ? t0 : tn;
    tf = t1 < tf ? t1 : tf;
    t0 = (b[r->near[1]] - r->org[1]) * r->inv[1];
    t1 = (b[r->far[1]] - r->org[1]) * r->inv[1];
    tn = t0 > tn ? t0 : tn;
    tf = t1 < tf ? t1 : tf;
    if (dim == 3) {
        t0 = (b[r->near[2]] - r->org[2]) * r->inv[2];
        t1 = (b[r->far[2]] - r->org[2]) * r->inv[2];
        tn = t0 > tn ? t0 : tn;
        tf = t1 < tf ? t1 : tf;
    }
    tf *= GEO_SLAB_WIDEN; /* FLT_MAX (no finite far plane) becomes +inf: t_hi decides */
    tf = tf < t_hi ? tf : t_hi;
    *t_enter = tn;
    return tn <= tf;
}

/* a * b - c * d for finite floats, with the exact sign (0 only when it is exactly 0) and a
 * relative error below 2^-23; the float it returns overflows to inf and underflows to 0 as
 * a rounding of the exact value would. No double: the products of the 24-bit mantissas are
 * exact in 64-bit integers (src/geom/predicates.c). */
float copse_geo_exact_cross(float a, float b, float c, float d);

/* Watertight ray/triangle intersection (Woop, Benthin, Wald, JCGT 2013): no ray slips
 * between two triangles that share an edge. Two-sided. Hits t in [0, t_max]; u, v are
 * the weights of p1 and p2. */
COPSE_INLINE bool geo_ray_triangle(const geo_ray *r, const float *p0, const float *p1, const float *p2,
                                   float t_max, float *t_out, float *u_out, float *v_out)
{
    const unsigned kx = r->kx, ky = r->ky, kz = r->kz;
    /* the corners relative to the origin, read straight in the ray's axis order */
    const float az = p0[kz] - r->org[kz], bz = p1[kz] - r->org[kz], cz = p2[kz] - r->org[kz];
    float ax, ay, bx, by, cx, cy, U, V, W, det, T, rcp;

    ax = (p0[kx] - r->org[kx]) - r->sx * az;
    ay = (p0[ky] - r->org[ky]) - r->sy * az;
    bx = (p1[kx] - r->org[kx]) - r->sx * bz;
    by = (p1[ky] - r->org[ky]) - r->sy * bz;
    cx = (p2[kx] - r->org[kx]) - r->sx * cz;
    cy = (p2[ky] - r->org[ky]) - r->sy * cz;
    U = cx * by - cy * bx;
    V = ax * cy - ay * cx;
    W = bx * ay - by * ax;
    /* A weight that is not 0 has its exact sign already (rounding is monotonic, so the two
     * rounded products keep their order), and a neighbour sharing the edge computes exactly
     * its negation. A 0 may be an exact 0 or two products rounded together: decided exactly
     * (the paper does it in double; copse has no double). */
    if (COPSE_UNLIKELY(U == 0.0f))
        U = copse_geo_exact_cross(cx, by, cy, bx);
    if (COPSE_UNLIKELY(V == 0.0f))
        V = copse_geo_exact_cross(ax, cy, ay, cx);
    if (COPSE_UNLIKELY(W == 0.0f))
        W = copse_geo_exact_cross(bx, ay, by, ax);
    if ((U < 0.0f || V < 0.0f || W < 0.0f) && (U > 0.0f || V > 0.0f || W > 0.0f))
        return false;
    det = U + V + W;
    if (det == 0.0f)
        return false;
    if (COPSE_UNLIKELY(det - det != 0.0f)) {
        /* Finite weights whose sum overflows (a corner near FLT_MAX): 1 / det would be 0 and
         * the hit land at t = 0. Scaled by 2^-64 (exact for every weight that matters) the
         * ratios T / det, V / det, W / det are the same. */
        U *= 0x1p-64f;
        V *= 0x1p-64f;
        W *= 0x1p-64f;
        det = U + V + W;
    }
    T = U * (r->sz * az) + V * (r->sz * bz) + W * (r->sz * cz);
    /* The early out against t_max has slack: only the t reported decides, so that a hit at
     * exactly t_max (an equal triangle, found second) is kept and ties go to the lower id. */
    if (det > 0.0f) {
        if (T < 0.0f || T > t_max * det * GEO_T_SLACK)
            return false;
    } else {
        if (T > 0.0f || T < t_max * det * GEO_T_SLACK)
            return false;
    }
    rcp = 1.0f / det;
    *t_out = T * rcp;
    *u_out = V * rcp;
    *v_out = W * rcp;
    return *t_out <= t_max;
}

/* ---- closest points ------------------------------------------------------------------------- */

/* Closest point on segment [a, b] to p (a == b allowed). */
COPSE_INLINE void geo_segment_closest(float *out, const float *p, const float *a, const float *b)
{
    float ab[3], ap[3], len2, s;
    geo_sub3(ab, b, a);
    geo_sub3(ap, p, a);
    len2 = geo_dot3(ab, ab);
    s = len2 > 0.0f ? geo_dot3(ap, ab) / len2 : 0.0f;
    s = s > 0.0f ? (s < 1.0f ? s : 1.0f) : 0.0f; /* NaN (inf / inf, huge coordinates) -> a */
    out[0] = a[0] + ab[0] * s;
    out[1] = a[1] + ab[1] * s;
    out[2] = a[2] + ab[2] * s;
}

COPSE_INLINE float geo_dist_sq3(const float *a, const float *b)
{
    float d[3];
    geo_sub3(d, a, b);
    return geo_dot3(d, d);
}

/* |a - b| <= r, given r2 = r * r. Past r = 2^64 r2 is infinite, and so is every squared distance
 * beyond 2^64: the differences are then compared scaled by 2^-64 (exact but for differences
 * below 2^-85, nothing beside such a radius). A difference beyond FLT_MAX is infinite either
 * way, farther than any r. Found by fuzz_octree_view: a capsule of radius 4e37 held points
 * 3e38 away. */
COPSE_INLINE bool geo_within(const float *a, const float *b, float r, float r2)
{
    float d[3];
    if (r2 <= FLT_MAX)
        return geo_dist_sq3(a, b) <= r2;
    geo_sub3(d, a, b);
    d[0] *= 0x1p-64f;
    d[1] *= 0x1p-64f;
    d[2] *= 0x1p-64f;
    r *= 0x1p-64f;
    return geo_dot3(d, d) <= r * r;
}

/* Closest point on triangle (a, b, c) to p, by Voronoi regions (Ericson, RTCD 5.1.5).
 * Degenerate triangles fall back to the closest of their three edges. Returns |p - out|^2. */
float copse_geo_triangle_closest(float *out, const float *p, const float *a, const float *b, const float *c);

/* ---- overlap -------------------------------------------------------------------------------- */

/* A box prepared once for many triangle tests: its bounds, centre and half extents. */
typedef struct geo_tri_box {
    float min[3], max[3];
    float ctr[3], half[3];
} geo_tri_box;

/* Centre and half extents from q->min, q->max. */
COPSE_INLINE void geo_tri_box_prepare(geo_tri_box *q)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        /* halves first: no overflow for coordinates near FLT_MAX */
        q->ctr[k] = q->min[k] * 0.5f + q->max[k] * 0.5f;
        q->half[k] = q->max[k] * 0.5f - q->min[k] * 0.5f;
    }
}

COPSE_INLINE void geo_tri_box_init(geo_tri_box *q, const float *bmin, const float *bmax)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        q->min[k] = bmin[k];
        q->max[k] = bmax[k];
    }
    geo_tri_box_prepare(q);
}

/* Triangle vs prepared box, closed sets: the triangle's bounds against the box (exact
 * comparisons: reject when apart, accept when inside), a corner inside the box (accept),
 * then the separating axis theorem's other ten axes (Akenine-Moeller): nine edge x box-axis
 * directions and the triangle's plane. */
bool copse_geo_triangle_box(const geo_tri_box *q, const float *a, const float *b, const float *c);

/* The same for a box given by its corners (prepares it, then copse_geo_triangle_box). */
bool copse_geo_triangle_box_overlap(const float *bmin, const float *bmax, const float *a, const float *b,
                              const float *c);

/* Is p in the closed 2D triangle (a, b, c) (z ignored)? Decided by the signs of the edge
 * functions, not by a rounded distance. A triangle of zero area has no inside: false. */
bool copse_geo_point_in_triangle2(const float *p, const float *a, const float *b, const float *c);

/* Where a 2D ray first touches the closed triangle (a, b, c) (z ignored), t in [0, t_max];
 * u, v are the barycentric weights of b and c at that point. */
bool copse_geo_ray_triangle2(const geo_ray *r, const float *a, const float *b, const float *c, float t_max,
                       float *t_out, float *u_out, float *v_out);

/* ---- containment and planes (octrees) ------------------------------------------------------- */

/* Is the box [imin, imax] inside the closed box [omin, omax]? */
COPSE_INLINE bool geo_box_inside(const float *imin, const float *imax, const float *omin, const float *omax)
{
    return imin[0] >= omin[0] && imin[1] >= omin[1] && imin[2] >= omin[2] && imax[0] <= omax[0] &&
           imax[1] <= omax[1] && imax[2] <= omax[2];
}

/* Squared distance from p to the box's farthest corner. Every point of the box is at most this
 * far in float as well (rounding is monotonic): a ball containing it contains the whole box. */
COPSE_INLINE float geo_box_far_dist_sq(const float *p, const float *bmin, const float *bmax)
{
    float d[3];
    unsigned a;
    for (a = 0; a < 3; a++) {
        float lo = p[a] - bmin[a], hi = bmax[a] - p[a];
        d[a] = lo > hi ? lo : hi;
    }
    return geo_dot3(d, d);
}

/* A box against the plane n.x + d >= 0: the signed values at the corner farthest along n (*hi)
 * and farthest against it (*lo). The box is wholly behind the plane when *hi < 0 and wholly in
 * front when *lo >= 0. Each product and sum rounds monotonically, so a box inside another gets
 * a *hi no larger and a *lo no smaller: a parent's verdict holds for everything it contains. */
COPSE_INLINE void geo_plane_box(const float *n, float d, const float *bmin, const float *bmax, float *lo, float *hi)
{
    float pv[3], nv[3];
    unsigned a;
    for (a = 0; a < 3; a++) {
        pv[a] = n[a] >= 0.0f ? bmax[a] : bmin[a];
        nv[a] = n[a] >= 0.0f ? bmin[a] : bmax[a];
    }
    *hi = geo_dot3(n, pv) + d;
    *lo = geo_dot3(n, nv) + d;
}

#endif /* COPSE_GEOM_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * Closest points between points, segments, triangles and boxes, in float (geom_collide.h).
 *
 * Accuracy. The distance between convex sets moves by at most d when their corners move by d,
 * so an answer that is exact for corners moved by a few ulps is a few ulps of the coordinates
 * off. Every kernel here is built to be that (backward stable):
 *  - A triangle is seen in a frame of its longest edge e = b - a and the part u of c - a
 *    perpendicular to e, taken twice (Gram-Schmidt): the plane of e and u is the exact plane of
 *    the triangle with c moved by a few ulps of |e|, whatever its shape. A cross product of two
 *    edges of a sliver instead tilts the plane by ulps * |e| / height, and Voronoi-region
 *    products of dot products cancel to nothing (the old copse_geo_triangle_closest).
 *  - In that frame the face test is three distances to lines (each good to a few ulps of
 *    |p - a|), the face point a projection, and an edge point a clamped 1D projection.
 *  - Segment pairs: the interior stationary point comes from the parts of the two vectors
 *    perpendicular to one segment (a 1D problem) where the usual 2x2 determinant cancels on
 *    nearly parallel segments; otherwise the best of the four ends projected on the other.
 * Whether two sets meet is decided by the exact tests (intersect.c); the points reported then
 * are the best of candidate crossings, good to the same few ulps.
 *
 * Speed. A triangle pair that is apart is answered by the nearest of fifteen features (corners
 * against triangles, edge pairs), found by a search that evaluates the likely ones first and
 * skips the others by lower bounds (cl_tri_tri_apart): about three features of fifteen on pairs
 * from a mesh walk. A prepared triangle (geo_tri_prep) keeps its frame for many queries; the
 * answers are the plain kernels' bits.
 *
 * Order independence: a triangle's corners, a segment's ends and the two arguments of a
 * symmetric kernel are first put in a canonical order by their bits, so every rotation,
 * reflection or swap runs the same float operations and gives the same bits.
 */
#include "geom_collide.h"

COPSE_INLINE void cl_copy3(float *out, const float *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

/* ---- canonical order ---------------------------------------------------------------------- */

/* A total order on floats by their bits, -0 before +0 (so equal corners are equal bits): the
 * sign bit set for positive floats, all bits flipped for negative ones. */
COPSE_INLINE uint32_t cl_key(float x)
{
    union {
        float f;
        uint32_t u;
    } v;
    v.f = x;
    return v.u ^ ((0u - (v.u >> 31)) | 0x80000000u);
}

/* Lexicographic order of points: -1, 0, +1. The keys' order is the floats' order but for the two
 * zeros (finite coordinates), which the keys settle. */
static int cl_cmp(const float *p, const float *q)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        uint32_t a, b;
        if (p[k] != q[k])
            return p[k] < q[k] ? -1 : 1;
        a = cl_key(p[k]);
        b = cl_key(q[k]);
        if (a != b)
            return a < b ? -1 : 1;
    }
    return 0;
}

COPSE_INLINE void cl_order2(const float **v)
{
    if (cl_cmp(v[1], v[0]) < 0) {
        const float *t = v[0];
        v[0] = v[1];
        v[1] = t;
    }
}

/* Order of two sorted point lists of n points. */
static int cl_cmp_list(const float *const *p, const float *const *q, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) {
        int c = cl_cmp(p[i], q[i]);
        if (c != 0)
            return c;
    }
    return 0;
}

/* ---- the best pair of points so far -------------------------------------------------------- */

typedef struct cl_pair {
    float d2; /* < 0: none yet */
    float p[3], q[3];
} cl_pair;

/* Keep (p, q) when strictly nearer: candidates come in a fixed order, so ties are stable.
 * `flip`: the candidate's points are (q, p) of the pair. */
static void cl_take(cl_pair *b, float d2, const float *p, const float *q, bool flip)
{
    if (b->d2 < 0.0f || d2 < b->d2) {
        b->d2 = d2;
        cl_copy3(b->p, flip ? q : p);
        cl_copy3(b->q, flip ? p : q);
    }
}

/* Squared gap between the bounding boxes of two segments: no pair of their points is nearer. */
static float cl_gap2(const float *a0, const float *a1, const float *b0, const float *b1)
{
    float d2 = 0.0f;
    unsigned k;
    for (k = 0; k < 3; k++) {
        float g = geo_max(geo_min(a0[k], a1[k]) - geo_max(b0[k], b1[k]),
                          geo_min(b0[k], b1[k]) - geo_max(a0[k], a1[k]));
        if (g > 0.0f)
            d2 += g * g;
    }
    return d2;
}

/* The report for sets the exact test calls apart whose nearest points rounded to one point:
 * move q by one unit in the last place of its largest coordinate, so the distance is not 0. */
static float cl_apart(const float *p, float *q)
{
    union {
        float f;
        uint32_t u;
    } v;
    float d2;
    unsigned k = 0;
    if (copse_fabsf(q[1]) > copse_fabsf(q[k]))
        k = 1;
    if (copse_fabsf(q[2]) > copse_fabsf(q[k]))
        k = 2;
    v.f = q[k];
    v.u += 1u; /* away from zero */
    q[k] = v.f;
    d2 = geo_dist_sq3(p, q);
    if (d2 == 0.0f) { /* tiny coordinates: a step whose square is a normal float */
        q[k] = p[k] + 0x1p-62f;
        d2 = geo_dist_sq3(p, q);
    }
    return d2;
}

/* ---- point and segment ---------------------------------------------------------------------- */

/* The point of [a, b] (e = b - a) at x = (p - a).e of ee = |e|^2, that is at t = x / ee (given,
 * used only inside): the ends exactly. Returns where it is: 1 at a, 2 at b, 3 between them. */
COPSE_INLINE unsigned cl_edge_at(float *out, const float *a, const float *b, const float *e, float x, float ee,
                                 float t)
{
    if (x <= 0.0f || ee <= 0.0f) {
        cl_copy3(out, a);
        return 1u;
    }
    if (x >= ee) {
        cl_copy3(out, b);
        return 2u;
    }
    out[0] = a[0] + e[0] * t;
    out[1] = a[1] + e[1] * t;
    out[2] = a[2] + e[2] * t;
    return 3u;
}

/* Closest point of the segment [a, b] to p; returns |p - out|^2, and in *on where it is (as
 * cl_edge_at). */
static float cl_seg_point(const float *p, const float *a, const float *b, float *out, unsigned *on)
{
    float e[3], g[3];
    float x, ee;
    geo_sub3(e, b, a);
    geo_sub3(g, p, a);
    x = geo_dot3(g, e);
    ee = geo_dot3(e, e);
    *on = cl_edge_at(out, a, b, e, x, ee, x > 0.0f && x < ee ? x / ee : 0.0f);
    return geo_dist_sq3(out, p);
}

/* ---- a triangle in the frame of its longest edge -------------------------------------------- */

/* The frame is the prepared triangle of geom_collide.h (n filled only where a kernel needs it). */
typedef geo_tri_prep cl_frame;

/* u -= t e with t = (u.e) / |e|^2: the part of u along e removed; returns t. */
COPSE_INLINE float cl_remove(float *u, const float *e, float inv_ee)
{
    float t = geo_dot3(u, e) * inv_ee;
    u[0] -= t * e[0];
    u[1] -= t * e[1];
    u[2] -= t * e[2];
    return t;
}

/* The corners in the frame's order and the frame. The squared length of an edge has the same bits
 * whichever way it is measured, so the longest edge is found the same way for every order of the
 * corners; the corner opposite it is c (among ties, the first in the canonical order), and a, b
 * are the other two in the canonical order. */
static void cl_frame_init(cl_frame *f, const float *const tri[3])
{
    const float *a, *b, *c;
    float e[3], u[3], l0, l1, l2, ee, uu = 0.0f, inv_ee = 0.0f, tc = 0.0f;
    unsigned i = 0;
    l0 = geo_dist_sq3(tri[1], tri[2]); /* the edge opposite corner 0, ... */
    l1 = geo_dist_sq3(tri[0], tri[2]);
    l2 = geo_dist_sq3(tri[0], tri[1]);
    ee = l0;
    if (l1 > ee) {
        i = 1;
        ee = l1;
    }
    if (l2 > ee) {
        i = 2;
        ee = l2;
    }
    if (COPSE_UNLIKELY((i == 0 && (l1 == ee || l2 == ee)) || (i == 1 && l2 == ee))) {
        /* a tie: of the corners opposite the longest edges, the first in the canonical order */
        if (l1 == ee && cl_cmp(tri[1], tri[i]) < 0)
            i = 1;
        if (l2 == ee && cl_cmp(tri[2], tri[i]) < 0)
            i = 2;
    }
    c = tri[i];
    a = tri[i == 0 ? 1 : 0];
    b = tri[i == 2 ? 1 : 2];
    if (cl_cmp(b, a) < 0) {
        const float *s = a;
        a = b;
        b = s;
    }
    f->a = a;
    f->b = b;
    f->c = c;
    geo_sub3(e, b, a);
    geo_sub3(u, c, a);
    if (ee >= FLT_MIN) { /* else a point, or corners within 1e-19: the longest edge */
        inv_ee = 1.0f / ee;
        tc = cl_remove(u, e, inv_ee); /* twice: the second removes what the first left */
        tc += cl_remove(u, e, inv_ee);
        uu = geo_dot3(u, u);
        if (!(uu >= FLT_MIN)) /* collinear, or thinner than 1e-19: a segment */
            uu = 0.0f;
    }
    cl_copy3(f->e, e);
    cl_copy3(f->u, u);
    f->ee = ee;
    f->uu = uu;
    f->inv_ee = inv_ee;
    f->inv_uu = uu > 0.0f ? 1.0f / uu : 0.0f;
    f->rho = uu * inv_ee;
    f->tc = tc;
}

/* Closest point of the triangle to p; returns |p - out|^2, and in *on the corners of the feature
 * it lies on (bit 0 a, 1 b, 2 c: all three in the face, two on an edge, one at a corner). With s,
 * r the coordinates of p's projection along e and u (the triangle is (0,0), (1,0), (tc,1) there),
 * the three edge lines are r = 0, s = tc r and s = 1 + (tc - 1) r; the tests below are those times
 * uu, which keeps every term below |p - a| |e| (no overflow for far points). */
COPSE_NOINLINE static float cl_frame_closest_on(const cl_frame *f, const float *p, float *out, unsigned *on)
{
    float g[3], q[3], x, y, best, d2;
    unsigned m;
    bool in_ab = false, in_ca = true, in_bc = true;
    geo_sub3(g, p, f->a);
    x = geo_dot3(g, f->e);
    if (f->uu > 0.0f) {
        y = geo_dot3(g, f->u);
        in_ab = y >= 0.0f;
        in_ca = x * f->rho - f->tc * y >= 0.0f;
        in_bc = (f->uu - x * f->rho) + (f->tc - 1.0f) * y >= 0.0f;
        if (in_ab && in_ca && in_bc) {
            float s = x * f->inv_ee, r = y * f->inv_uu;
            unsigned k;
            for (k = 0; k < 3; k++)
                out[k] = f->a[k] + f->e[k] * s + f->u[k] * r;
            *on = 7u;
            return geo_dist_sq3(out, p);
        }
    }
    /* Outside: the nearest point lies on an edge whose line p is outside of. A segment or a
     * point (uu = 0) is its longest edge. */
    best = -1.0f;
    *on = 0u;
    if (!in_ab) {
        if (f->inv_ee > 0.0f)
            *on = cl_edge_at(out, f->a, f->b, f->e, x, f->ee, x * f->inv_ee);
        else
            (void)cl_seg_point(p, f->a, f->b, out, on);
        if (!(f->uu > 0.0f) && (*on == 3u || f->inv_ee == 0.0f))
            *on = 7u; /* a segment's c lies on it, a point's corners are one */
        best = geo_dist_sq3(out, p);
    }
    if (!in_ca) {
        d2 = cl_seg_point(p, f->a, f->c, q, &m);
        if (best < 0.0f || d2 < best) {
            best = d2;
            cl_copy3(out, q);
            *on = (m & 1u) | (m & 2u) << 1; /* a, c */
        }
    }
    if (!in_bc) {
        d2 = cl_seg_point(p, f->b, f->c, q, &m);
        if (best < 0.0f || d2 < best) {
            best = d2;
            cl_copy3(out, q);
            *on = m << 1; /* b, c */
        }
    }
    return best;
}

COPSE_INLINE float cl_frame_closest(const cl_frame *f, const float *p, float *out)
{
    unsigned on;
    return cl_frame_closest_on(f, p, out, &on);
}

/* The unit normal of the frame's plane (0 for a segment or a point). */
static void cl_frame_normal(const cl_frame *f, float *n)
{
    float eh[3], uh[3], se, su;
    unsigned k;
    if (!(f->uu > 0.0f)) {
        n[0] = n[1] = n[2] = 0.0f;
        return;
    }
    se = 1.0f / copse_sqrtf(f->ee);
    su = 1.0f / copse_sqrtf(f->uu);
    for (k = 0; k < 3; k++) {
        eh[k] = f->e[k] * se;
        uh[k] = f->u[k] * su;
    }
    geo_cross3(n, eh, uh);
}

/* Is p one of the corners? (A corner is its own closest point exactly: a mesh's vertices.) */
COPSE_INLINE bool cl_is_corner(const float *p, const float *a, const float *b, const float *c)
{
    return (p[0] == a[0] && p[1] == a[1] && p[2] == a[2]) || (p[0] == b[0] && p[1] == b[1] && p[2] == b[2]) ||
           (p[0] == c[0] && p[1] == c[1] && p[2] == c[2]);
}

/* The point against the frame (f NULL: p is a corner). */
COPSE_INLINE float cl_point_frame(const cl_frame *f, const float *p, float *closest)
{
    float q[3], d2;
    if (f == NULL) {
        cl_copy3(closest, p);
        return 0.0f;
    }
    d2 = cl_frame_closest(f, p, q);
    cl_copy3(closest, q);
    return d2;
}

float copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest)
{
    cl_frame f;
    if (cl_is_corner(p, tri[0], tri[1], tri[2]))
        return cl_point_frame(NULL, p, closest);
    cl_frame_init(&f, tri);
    return cl_point_frame(&f, p, closest);
}

void copse_geo_tri_prepare(geo_tri_prep *t, const float *const tri[3])
{
    cl_frame_init(t, tri);
    cl_frame_normal(t, t->n);
}

float copse_geo_point_tri_prepared(const geo_tri_prep *t, const float *p, float *closest)
{
    return cl_point_frame(cl_is_corner(p, t->a, t->b, t->c) ? NULL : t, p, closest);
}

/* ---- segment and segment -------------------------------------------------------------------- */

/* The interior stationary point of |a0 + s e - b0 - t f| when it lies in [0, 1]^2 (then the
 * points and |pa - pb|^2), else -1. With f = fe e + fp and r = b0 - a0 = re e + rp, fp and rp
 * perpendicular to e, the distance at t is |rp + t fp| once s = re + t fe takes up the part along
 * e: a 1D problem, where the usual 2x2 determinant cancels on nearly parallel segments. */
static float cl_seg_interior(const float *a0, const float *a1, const float *b0, const float *b1, float *pa,
                             float *pb)
{
    float e[3], f[3], r[3], ee, ff, fe, re, den = 0.0f, num = 0.0f, t, s;
    unsigned k;
    geo_sub3(e, a1, a0);
    geo_sub3(f, b1, b0);
    geo_sub3(r, b0, a0);
    ee = geo_dot3(e, e);
    ff = geo_dot3(f, f);
    if (!(ee > 0.0f && ff > 0.0f))
        return -1.0f;
    fe = geo_dot3(f, e) / ee;
    re = geo_dot3(r, e) / ee;
    for (k = 0; k < 3; k++) {
        float fp = f[k] - fe * e[k], rp = r[k] - re * e[k];
        den += fp * fp;
        num += rp * fp;
    }
    if (!(den > 0.0f))
        return -1.0f;
    t = -num / den;
    s = re + t * fe;
    if (!(t >= 0.0f && t <= 1.0f && s >= 0.0f && s <= 1.0f))
        return -1.0f;
    for (k = 0; k < 3; k++) {
        pa[k] = a0[k] + e[k] * s;
        pb[k] = b0[k] + f[k] * t;
    }
    return geo_dist_sq3(pa, pb);
}

/* Closest points of [a0, a1] and [b0, b1], in the order given, and in *on the ends of the
 * features they lie on (bits 0, 1: a0, a1; 2, 3: b0, b1). */
static float cl_seg_seg_on(const float *a0, const float *a1, const float *b0, const float *b1, float *pa, float *pb,
                           unsigned *on)
{
    float best, d2, q[3];
    unsigned m;
    best = cl_seg_interior(a0, a1, b0, b1, pa, pb);
    if (best >= 0.0f) {
        *on = 15u;
        return best;
    }
    /* the minimum lies on the boundary of the parameter square: an end against the other */
    best = cl_seg_point(a0, b0, b1, pb, &m);
    cl_copy3(pa, a0);
    *on = 1u | m << 2;
    d2 = cl_seg_point(a1, b0, b1, q, &m);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, a1);
        cl_copy3(pb, q);
        *on = 2u | m << 2;
    }
    d2 = cl_seg_point(b0, a0, a1, q, &m);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, q);
        cl_copy3(pb, b0);
        *on = m | 4u;
    }
    d2 = cl_seg_point(b1, a0, a1, q, &m);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, q);
        cl_copy3(pb, b1);
        *on = m | 8u;
    }
    return best;
}

static float cl_seg_seg(const float *a0, const float *a1, const float *b0, const float *b1, float *pa, float *pb)
{
    unsigned on;
    return cl_seg_seg_on(a0, a1, b0, b1, pa, pb, &on);
}

float copse_geo_segment_segment(const float *a0, const float *a1, const float *b0, const float *b1, float *pa,
                                float *pb)
{
    const float *x[2], *y[2];
    float qa[3], qb[3], d2;
    x[0] = a0;
    x[1] = a1;
    y[0] = b0;
    y[1] = b1;
    cl_order2(x);
    cl_order2(y);
    if (cl_cmp_list(y, x, 2) < 0)
        d2 = cl_seg_seg(y[0], y[1], x[0], x[1], qb, qa);
    else
        d2 = cl_seg_seg(x[0], x[1], y[0], y[1], qa, qb);
    cl_copy3(pa, qa);
    cl_copy3(pb, qb);
    return d2;
}

/* ---- segment and triangle ------------------------------------------------------------------ */

/* Where [s0, s1] crosses the frame's plane (float sides: a candidate, not a decision), with the
 * triangle's point nearest to it. */
static void cl_cross_candidate(cl_pair *best, const float *s0, const float *s1, const cl_frame *f, const float *n,
                               bool flip)
{
    float g[3], d0, d1, x[3], q[3], t;
    unsigned k;
    geo_sub3(g, s0, f->a);
    d0 = geo_dot3(g, n);
    geo_sub3(g, s1, f->a);
    d1 = geo_dot3(g, n);
    if ((d0 > 0.0f && d1 > 0.0f) || (d0 < 0.0f && d1 < 0.0f) || d0 == d1)
        return; /* one side, or in the plane (the ends and edges are candidates already) */
    t = d0 / (d0 - d1);
    if (t >= 1.0f) {
        cl_copy3(x, s1);
    } else {
        t = geo_max(t, 0.0f);
        for (k = 0; k < 3; k++)
            x[k] = s0[k] + (s1[k] - s0[k]) * t;
    }
    cl_take(best, cl_frame_closest(f, x, q), x, q, flip);
}

/* The segment's ends against the triangle and the segment against its edges: the nearest pair
 * when they are apart. p of the pair is on the segment. */
static void cl_seg_tri_features(cl_pair *best, const float *s0, const float *s1, const cl_frame *f)
{
    float ps[3], pt[3];
    cl_take(best, cl_frame_closest(f, s0, pt), s0, pt, false);
    cl_take(best, cl_frame_closest(f, s1, pt), s1, pt, false);
    if (cl_gap2(s0, s1, f->a, f->b) < best->d2)
        cl_take(best, cl_seg_seg(s0, s1, f->a, f->b, ps, pt), ps, pt, false);
    if (cl_gap2(s0, s1, f->a, f->c) < best->d2)
        cl_take(best, cl_seg_seg(s0, s1, f->a, f->c, ps, pt), ps, pt, false);
    if (cl_gap2(s0, s1, f->b, f->c) < best->d2)
        cl_take(best, cl_seg_seg(s0, s1, f->b, f->c, ps, pt), ps, pt, false);
}

/* The output of a pair: a meeting pair reports the midpoint of its best candidate as both points
 * (0 exactly); a pair the exact test calls apart never reports 0. */
static float cl_report(cl_pair *best, bool meet, float *pa, float *pb)
{
    if (meet) {
        unsigned k;
        for (k = 0; k < 3; k++)
            pa[k] = pb[k] = best->p[k] * 0.5f + best->q[k] * 0.5f;
        return 0.0f;
    }
    if (best->d2 == 0.0f)
        best->d2 = cl_apart(best->p, best->q);
    cl_copy3(pa, best->p);
    cl_copy3(pb, best->q);
    return best->d2;
}

/* The work of copse_geo_segment_triangle once the exact test has spoken (its own frame, so that
 * the exact test's stack and this one's do not add up). */
COPSE_NOINLINE static float cl_seg_tri(const float *s0, const float *s1, const float *const tri[3], bool meet,
                                       float *ps, float *pt)
{
    cl_frame f;
    cl_pair best;
    cl_frame_init(&f, tri);
    best.d2 = -1.0f;
    cl_seg_tri_features(&best, s0, s1, &f);
    if (meet && best.d2 > 0.0f) {
        float n[3];
        cl_frame_normal(&f, n);
        cl_cross_candidate(&best, s0, s1, &f, n, false);
    }
    return cl_report(&best, meet, ps, pt);
}

float copse_geo_segment_triangle(const float *s0, const float *s1, const float *const tri[3], float *ps, float *pt)
{
    const float *s[2];
    s[0] = s0;
    s[1] = s1;
    cl_order2(s);
    return cl_seg_tri(s[0], s[1], tri, copse_geo_segment_triangle_overlap(s[0], s[1], tri), ps, pt);
}

/* ---- triangle and triangle ------------------------------------------------------------------ */

/* The ends of edge k of a triangle's corners v[0..2]: (0, 1), (0, 2), (1, 2). */
#define CL_E0(k) ((k) == 2u ? 1u : 0u)
#define CL_E1(k) ((k) == 0u ? 1u : 2u)

COPSE_INLINE void cl_corners(const float **v, const cl_frame *f)
{
    v[0] = f->a;
    v[1] = f->b;
    v[2] = f->c;
}

/* The corners of `fv` against the triangle `fw`, and where the edges of `fv` cross it when the
 * triangles meet. `flip`: fw is the first of the pair. */
COPSE_NOINLINE static void cl_tri_corners(cl_pair *best, const cl_frame *fv, const cl_frame *fw, bool meet, bool flip)
{
    const float *v[3];
    float q[3];
    unsigned i;
    cl_corners(v, fv);
    for (i = 0; i < 3; i++)
        cl_take(best, cl_frame_closest(fw, v[i], q), v[i], q, flip);
    if (meet && best->d2 > 0.0f) {
        cl_cross_candidate(best, v[0], v[1], fw, fw->n, flip);
        cl_cross_candidate(best, v[1], v[2], fw, fw->n, flip);
        cl_cross_candidate(best, v[0], v[2], fw, fw->n, flip);
    }
}

/* The nine edge pairs, each when their bounds could beat the best so far. */
COPSE_NOINLINE static void cl_tri_edges(cl_pair *best, const cl_frame *fa, const cl_frame *fb)
{
    const float *a[3], *b[3];
    float x[3], y[3];
    unsigned i, j;
    cl_corners(a, fa);
    cl_corners(b, fb);
    for (i = 0; i < 3; i++) {
        const float *a0 = a[CL_E0(i)], *a1 = a[CL_E1(i)];
        for (j = 0; j < 3; j++) {
            const float *b0 = b[CL_E0(j)], *b1 = b[CL_E1(j)];
            if (cl_gap2(a0, a1, b0, b1) < best->d2)
                cl_take(best, cl_seg_seg(a0, a1, b0, b1, x, y), x, y, false);
        }
    }
}

/* Triangles that are apart: the same fifteen features (each corner against the other triangle,
 * the nine edge pairs), the nearest one found first and the others skipped by lower bounds.
 *  - First the corner of each triangle nearest the other's centroid: most often one of them is
 *    the answer.
 *  - Projections: for any direction w, no pair of points of a feature is nearer than the gap
 *    between the projections of its two parts on w. w is the direction of the best pair so far,
 *    taken from the corners of its feature (a face's normal, the perpendicular from an edge to a
 *    corner, two edges' cross product), not from the rounded points. When that pair is the answer
 *    the planes through it perpendicular to w separate the triangles, and every feature is
 *    skipped at once. The corners of the best pair's own feature lie on those planes: their
 *    projections are shifted by a rounding allowance (eps |g|_1) toward skipping, so that its ties
 *    are skipped; a feature skipped that way is nearer by less than that. The others are
 *    compared as they come out.
 *  - Heights (when the first projection has not settled it): every point of a feature is at
 *    least as far from the other triangle as its part's nearest corner from that triangle's plane,
 *    when that part lies wholly on one side.
 * Features go in the order of their bounds, lowest first, until none can beat the best. */
typedef struct cl_tt {
    const cl_frame *f[2]; /* A (the first of the pair) and B */
    const float *n[2];    /* their normals: the frames' own when made, else made here when needed */
    float nbuf[2][3];
    const float *v[6]; /* the corners of A and of B, in their frames' order */
    float hs[6];       /* heights of A's corners over B's plane, and of B's over A's */
    float eh[6];       /* the bound of each edge of A over B's plane, and of B's over A's */
    float s[6];        /* the corners' projections on the best direction */
    float dist;        /* the best distance (the bounds' reference) */
    bool heights;
} cl_tt;

#define CL_FEATURES 15u

/* eps |g|_1: the rounding allowance of a projection of g on a unit vector. */
COPSE_INLINE float cl_tol(const float *g)
{
    return FLT_EPSILON * (copse_fabsf(g[0]) + copse_fabsf(g[1]) + copse_fabsf(g[2]));
}

/* v scaled to a largest component of 1 (when it has one): products of its components stay
 * finite. Returns false for a zero or non-finite v. */
COPSE_INLINE bool cl_unit_max(float *v)
{
    float big = geo_max(geo_max(copse_fabsf(v[0]), copse_fabsf(v[1])), copse_fabsf(v[2]));
    if (!(big >= FLT_MIN && big <= FLT_MAX))
        return false;
    big = 1.0f / big;
    v[0] *= big;
    v[1] *= big;
    v[2] *= big;
    return true;
}

/* The corners' projections on the direction w (from A toward B): A's measured from the point ra
 * of A, B's from rb of B plus the gap w.(rb - ra). `on`: the corners of the best feature (bit i
 * of corner i), given the allowance. The reference is the best distance, or the gap when smaller
 * by less than the distance's own rounding (from the best points' coordinates): a gap measured
 * from corners is free of that rounding, so that the ties of the best feature are settled by it,
 * and a gap far below the distance (w rounded badly) is not taken. */
static void cl_tt_project(cl_tt *t, float *w, const float *ra, const float *rb, const cl_pair *best, unsigned on)
{
    float g[3], r, gap, dist = copse_sqrtf(best->d2), big = 0.0f;
    unsigned i;
    t->dist = dist;
    if (!cl_unit_max(w)) { /* no direction: no bound */
        for (i = 0; i < 6u; i++)
            t->s[i] = 0.0f;
        return;
    }
    r = 1.0f / copse_sqrtf(geo_dot3(w, w));
    geo_sub3(g, rb, ra);
    gap = geo_dot3(w, g) * r;
    for (i = 0; i < 6u; i++) {
        float tol;
        geo_sub3(g, t->v[i], i < 3u ? ra : rb);
        tol = (on >> i) & 1u ? cl_tol(g) : 0.0f;
        t->s[i] = i < 3u ? geo_dot3(w, g) * r - tol : (geo_dot3(w, g) * r + tol) + gap;
    }
    for (i = 0; i < 3; i++)
        big = geo_max(big, geo_max(copse_fabsf(best->p[i]), copse_fabsf(best->q[i])));
    t->dist = geo_min(dist, geo_max(gap, dist - FLT_EPSILON * big));
}

/* The frames' normals, the corners' heights and the edges' bounds, when first needed. */
COPSE_NOINLINE static void cl_tt_heights(cl_tt *t)
{
    float g[3];
    unsigned i;
    for (i = 0; i < 2u; i++)
        if (t->n[i] == NULL) {
            cl_frame_normal(t->f[i], t->nbuf[i]);
            t->n[i] = t->nbuf[i];
        }
    for (i = 0; i < 6u; i++) {
        unsigned o = i < 3u ? 1u : 0u;
        geo_sub3(g, t->v[i], t->f[o]->a);
        t->hs[i] = geo_dot3(t->n[o], g);
    }
    for (i = 0; i < 6u; i++) { /* an edge's nearer end, when both lie strictly on one side */
        unsigned o = i < 3u ? 0u : 3u, k = i - o;
        float h0 = t->hs[o + CL_E0(k)], h1 = t->hs[o + CL_E1(k)];
        t->eh[i] = h0 > 0.0f && h1 > 0.0f ? geo_min(h0, h1) : h0 < 0.0f && h1 < 0.0f ? -geo_max(h0, h1) : 0.0f;
    }
    t->heights = true;
}

/* Is corner k (0..2 of A, 3..5 of B), which lies over the other triangle's face, the answer? It
 * is when its triangle lies wholly on its side of the face's plane and none of its corners is
 * nearer to that plane: the plane through it parallel to the face separates the triangles.
 * Heights compared with heights: a corner skipped is nearer only by their rounding. */
static bool cl_tt_face_answer(cl_tt *t, unsigned k)
{
    unsigned i, side = k < 3u ? 0u : 3u;
    float h;
    if (!t->heights)
        cl_tt_heights(t);
    h = t->hs[k];
    for (i = side; i < side + 3u; i++)
        if (h > 0.0f ? !(t->hs[i] >= h) : !(t->hs[i] <= h))
            return false;
    return h != 0.0f;
}

/* Feature k is skipped for good when its bound b reaches the reference (which only shrinks);
 * else the lowest bound so far is kept in (*kmin, *lb). */
COPSE_INLINE void cl_tt_consider(unsigned *left, unsigned k, float b, float dist, unsigned *kmin, float *lb)
{
    if (b >= dist)
        *left &= ~(1u << k);
    else if (b < *lb) {
        *kmin = k;
        *lb = b;
    }
}

/* The features still `left` (bit k: 0..2 a corner of A against B, 3..5 a corner of B against A,
 * 6 + 3i + j edge i of A against edge j of B) whose bound is below the reference; returns the one
 * of the lowest bound (CL_FEATURES when none is left). */
static unsigned cl_tt_next(cl_tt *t, unsigned *left)
{
    const float *s = t->s;
    float smax[3], smin[3], amax, bmin, dist = t->dist, lb = dist;
    unsigned i, j, kmin = CL_FEATURES;
    for (i = 0; i < 3; i++) {
        smax[i] = geo_max(s[CL_E0(i)], s[CL_E1(i)]);
        smin[i] = geo_min(s[3u + CL_E0(i)], s[3u + CL_E1(i)]);
    }
    amax = geo_max(smax[0], s[2]);
    bmin = geo_min(smin[0], s[5]);
    if (bmin - amax >= dist) { /* the planes through the best pair separate the triangles */
        *left = 0;
        return CL_FEATURES;
    }
    if (!t->heights)
        cl_tt_heights(t);
    for (i = 0; i < 3; i++) {
        if ((*left >> i) & 1u)
            cl_tt_consider(left, i, geo_max(copse_fabsf(t->hs[i]), bmin - s[i]), dist, &kmin, &lb);
        if ((*left >> (3u + i)) & 1u)
            cl_tt_consider(left, 3u + i, geo_max(copse_fabsf(t->hs[3u + i]), s[3u + i] - amax), dist, &kmin, &lb);
        for (j = 0; j < 3; j++)
            if ((*left >> (6u + 3u * i + j)) & 1u)
                cl_tt_consider(left, 6u + 3u * i + j, geo_max(geo_max(t->eh[i], t->eh[3u + j]), smin[j] - smax[i]),
                               dist, &kmin, &lb);
    }
    return kmin;
}

/* Feature k against the best so far: 0 when it is not nearer; 1 when it is, with the direction
 * w (from A toward B), a point of each side's part of the feature to project from and the
 * feature's corners; 2 when it is the answer (the triangles touch in float, or a corner over a
 * face settles it). */
COPSE_INLINE unsigned cl_tt_eval(cl_tt *t, cl_pair *best, unsigned k, float *w, const float **r, unsigned *on)
{
    float x[3], y[3], e[3], d2;
    const float *v, *y0, *y1 = NULL;
    unsigned m, o, va;
    if (k < 6u) { /* corner v against the other triangle: its face, an edge or a corner */
        va = k < 3u;
        o = va ? 3u : 0u;
        v = t->v[k];
        d2 = cl_frame_closest_on(t->f[va], v, x, &m);
        if (!(best->d2 < 0.0f || d2 < best->d2))
            return 0u;
        cl_take(best, d2, v, x, !va);
        if (d2 == 0.0f || (m == 7u && cl_tt_face_answer(t, k)))
            return 2u;
        *on = 1u << k | m << o;
        if (m == 7u && !(t->f[va]->uu > 0.0f))
            m = 3u; /* a segment's inside: its longest edge */
        y0 = t->v[o + (m & 1u ? 0u : m & 2u ? 1u : 2u)];
        if (m == 3u || m == 5u || m == 6u) /* an edge */
            y1 = t->v[o + (m & 4u ? 2u : 1u)];
        if (m == 7u) { /* the face: its normal, toward B */
            const float *n = t->n[va];
            float sg = (t->hs[k] > 0.0f) == (va != 0u) ? -1.0f : 1.0f;
            w[0] = n[0] * sg;
            w[1] = n[1] * sg;
            w[2] = n[2] * sg;
            r[va ? 0 : 1] = v;
            r[va ? 1 : 0] = y0;
            return 1u;
        }
    } else {
        unsigned i = k >= 12u ? 2u : k >= 9u ? 1u : 0u, j = k - 6u - 3u * i; /* no division on a Cortex-M0 */
        const float *a0 = t->v[CL_E0(i)], *a1 = t->v[CL_E1(i)], *b0 = t->v[3u + CL_E0(j)], *b1 = t->v[3u + CL_E1(j)];
        d2 = cl_seg_seg_on(a0, a1, b0, b1, x, y, &m);
        if (!(best->d2 < 0.0f || d2 < best->d2))
            return 0u;
        cl_take(best, d2, x, y, false);
        if (d2 == 0.0f)
            return 2u;
        *on = (m & 1u) << CL_E0(i) | (m >> 1 & 1u) << CL_E1(i) | (m >> 2 & 1u) << (3u + CL_E0(j)) |
              (m >> 3 & 1u) << (3u + CL_E1(j));
        if (m == 15u) { /* inside both: the edges' common perpendicular, toward B */
            float f[3];
            geo_sub3(e, a1, a0);
            geo_sub3(f, b1, b0);
            (void)cl_unit_max(e);
            (void)cl_unit_max(f);
            geo_cross3(w, e, f);
            geo_sub3(e, b0, a0);
            d2 = geo_dot3(w, e) < 0.0f ? -1.0f : 1.0f;
            w[0] *= d2;
            w[1] *= d2;
            w[2] *= d2;
            r[0] = a0;
            r[1] = b0;
            return 1u;
        }
        /* an end v against the other edge (its inside, or an end) */
        va = (m & 3u) != 3u;
        if (va) {
            v = m & 1u ? a0 : a1;
            y0 = m & 4u ? b0 : b1;
            y1 = (m & 12u) == 12u ? b1 : NULL;
        } else {
            v = m & 4u ? b0 : b1;
            y0 = a0;
            y1 = a1;
        }
    }
    /* the perpendicular from y0 or [y0, y1] to v, toward B */
    geo_sub3(w, v, y0);
    if (y1 != NULL) {
        float ee, u = 0.0f;
        geo_sub3(e, y1, y0);
        ee = geo_dot3(e, e);
        if (ee > 0.0f)
            u = geo_dot3(w, e) / ee;
        w[0] -= u * e[0];
        w[1] -= u * e[1];
        w[2] -= u * e[2];
    }
    if (va) {
        w[0] = -w[0];
        w[1] = -w[1];
        w[2] = -w[2];
    }
    r[va ? 0 : 1] = v;
    r[va ? 1 : 0] = y0;
    return 1u;
}

/* The pair's canonical order: true when q comes first (its frame's corners before p's), so that
 * swapped arguments run the same operations. */
static bool cl_tri_swap(const cl_frame *p, const cl_frame *q)
{
    int c = cl_cmp(q->a, p->a);
    if (c == 0)
        c = cl_cmp(q->b, p->b);
    if (c == 0)
        c = cl_cmp(q->c, p->c);
    return c < 0;
}

/* copse_geo_triangle_triangle for a pair the exact test calls apart, on frames whose normals are
 * made (`normals`) or not yet. */
COPSE_NOINLINE static float cl_tri_tri_apart(const cl_frame *p, const cl_frame *q, bool normals, float *pp, float *pq)
{
    cl_tt t;
    cl_pair best;
    float w[3];
    const float *r[2];
    bool swap = cl_tri_swap(p, q), fresh = false;
    const cl_frame *fa = swap ? q : p, *fb = swap ? p : q;
    unsigned i, k, first[2], nfirst = 2, on = 0, left = (1u << CL_FEATURES) - 1u;
    best.d2 = -1.0f;
    t.f[0] = fa;
    t.f[1] = fb;
    t.n[0] = normals ? fa->n : NULL;
    t.n[1] = normals ? fb->n : NULL;
    t.heights = false;
    cl_corners(t.v, fa);
    cl_corners(t.v + 3, fb);
    for (i = 0; i < 3; i++) { /* the centroids (a guide: rounding, even to inf, does no harm) */
        t.hs[i] = (fb->a[i] + fb->b[i] + fb->c[i]) * (1.0f / 3.0f);
        t.hs[3u + i] = (fa->a[i] + fa->b[i] + fa->c[i]) * (1.0f / 3.0f);
    }
    for (i = 0; i < 6u; i++)
        t.s[i] = geo_dist_sq3(t.v[i], t.hs + (i < 3u ? 0u : 3u));
    k = t.s[1] < t.s[0] ? 1u : 0u;
    first[0] = t.s[2] < t.s[k] ? 2u : k;
    k = t.s[4] < t.s[3] ? 4u : 3u;
    first[1] = t.s[5] < t.s[k] ? 5u : k;
    r[0] = r[1] = NULL;
    for (;;) {
        if (nfirst > 0u) {
            k = first[2u - nfirst--];
        } else {
            if (fresh)
                cl_tt_project(&t, w, r[0], r[1], &best, on);
            fresh = false;
            k = cl_tt_next(&t, &left);
            if (k == CL_FEATURES)
                break;
        }
        left &= ~(1u << k);
        i = cl_tt_eval(&t, &best, k, w, r, &on);
        if (i == 2u)
            break;
        fresh = fresh || i == 1u;
    }
    return swap ? cl_report(&best, false, pq, pp) : cl_report(&best, false, pp, pq);
}

/* copse_geo_triangle_triangle for a pair that meets: every feature, and where the edges of each
 * cross the other. */
COPSE_NOINLINE static float cl_tri_tri_meet(const cl_frame *p, const cl_frame *q, float *pp, float *pq)
{
    cl_pair best;
    bool swap = cl_tri_swap(p, q);
    const cl_frame *a = swap ? q : p, *b = swap ? p : q;
    best.d2 = -1.0f;
    cl_tri_corners(&best, a, b, true, false);
    cl_tri_corners(&best, b, a, true, true);
    cl_tri_edges(&best, a, b);
    return swap ? cl_report(&best, true, pq, pp) : cl_report(&best, true, pp, pq);
}

/* The frames made in their own stack frame, after the exact test has returned; for a pair that
 * is apart without their normals (most are answered without them). */
COPSE_NOINLINE static float cl_tri_tri_plain_apart(const float *const p[3], const float *const q[3], float *pp,
                                                   float *pq)
{
    cl_frame fp, fq;
    cl_frame_init(&fp, p);
    cl_frame_init(&fq, q);
    return cl_tri_tri_apart(&fp, &fq, false, pp, pq);
}

COPSE_NOINLINE static float cl_tri_tri_plain_meet(const float *const p[3], const float *const q[3], float *pp,
                                                  float *pq)
{
    cl_frame fp, fq;
    copse_geo_tri_prepare(&fp, p);
    copse_geo_tri_prepare(&fq, q);
    return cl_tri_tri_meet(&fp, &fq, pp, pq);
}

float copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq)
{
    if (copse_geo_triangle_triangle_overlap(p, q))
        return cl_tri_tri_plain_meet(p, q, pp, pq);
    return cl_tri_tri_plain_apart(p, q, pp, pq);
}

/* The caller has certified that the triangles do not meet (the exact test would say so), which
 * spares that test; the answer is the same bits either way. */
float copse_geo_triangle_triangle_apart(const float *const p[3], const float *const q[3], float *pp, float *pq)
{
    return cl_tri_tri_plain_apart(p, q, pp, pq);
}

float copse_geo_tri_tri_prepared(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq)
{
    const float *vp[3], *vq[3];
    cl_corners(vp, p);
    cl_corners(vq, q);
    if (copse_geo_triangle_triangle_overlap(vp, vq))
        return cl_tri_tri_meet(p, q, pp, pq);
    return cl_tri_tri_apart(p, q, true, pp, pq);
}

float copse_geo_tri_tri_prepared_apart(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq)
{
    return cl_tri_tri_apart(p, q, true, pp, pq);
}

/* ---- box and triangle ----------------------------------------------------------------------- */

/* Corner i of the box [-h, h]: bit k of i picks +h[k]. */
COPSE_INLINE void cl_corner(float *out, const float *h, unsigned i)
{
    unsigned k;
    for (k = 0; k < 3; k++)
        out[k] = (i >> k) & 1u ? h[k] : -h[k];
}

/* Which face planes of the box the triangle reaches or passes: bit 2k + 1 for +h[k], bit 2k for
 * -h[k]. A box edge or corner can be the nearest point to a point of the triangle only if the
 * triangle reaches every face the feature lies on (its Voronoi region is beyond all of them). A
 * flat axis has one face, every point beyond it. */
static unsigned cl_reach(const cl_frame *f, const float *h)
{
    unsigned k, bits = 0;
    for (k = 0; k < 3; k++) {
        float lo = geo_min(geo_min(f->a[k], f->b[k]), f->c[k]);
        float hi = geo_max(geo_max(f->a[k], f->b[k]), f->c[k]);
        if (h[k] == 0.0f)
            bits |= 3u << (2 * k);
        else
            bits |= (hi >= h[k] ? 2u : 0u) << (2 * k) | (lo <= -h[k] ? 1u : 0u) << (2 * k);
    }
    return bits;
}

/* Does the axis L separate the triangle's projection from the box's by more than rounding could
 * make up? Each projection is off by at most gamma(3) sum |L_k| |v_k| and the radius by gamma(3)
 * of itself, so a margin of 4 eps sum |L_k| w_k (w = max |v| + h) covers both with room: a
 * touching pair is never separated. */
static bool cl_separates(const float *L, const float *const v[3], const float *h, const float *w)
{
    float p0 = geo_dot3(L, v[0]), p1 = geo_dot3(L, v[1]), p2 = geo_dot3(L, v[2]);
    float lo = geo_min(geo_min(p0, p1), p2), hi = geo_max(geo_max(p0, p1), p2);
    float al[3], r;
    al[0] = copse_fabsf(L[0]);
    al[1] = copse_fabsf(L[1]);
    al[2] = copse_fabsf(L[2]);
    r = geo_dot3(h, al) + 4.0f * FLT_EPSILON * geo_dot3(w, al) + FLT_MIN;
    return lo > r || hi < -r;
}

/* The separating axis test on the frame's corners (a canonical order): the box's three axes
 * (exact comparisons), the triangle's normal (from the frame: good on slivers) and the nine
 * edge x axis directions (exact: their components are the edge's). Closed and conservative. */
static bool cl_box_tri_meet(const float *h, const float *const v[3], const cl_frame *f)
{
    float w[3], L[3], e[3], n[3];
    unsigned k, i;
    for (k = 0; k < 3; k++) {
        float lo = geo_min(geo_min(v[0][k], v[1][k]), v[2][k]);
        float hi = geo_max(geo_max(v[0][k], v[1][k]), v[2][k]);
        if (lo > h[k] || hi < -h[k])
            return false;
        w[k] = geo_max(-lo, hi) + h[k];
    }
    for (i = 0; i < 3; i++) /* a corner inside: they meet */
        if (copse_fabsf(v[i][0]) <= h[0] && copse_fabsf(v[i][1]) <= h[1] && copse_fabsf(v[i][2]) <= h[2])
            return true;
    cl_frame_normal(f, n);
    if (cl_separates(n, v, h, w))
        return false;
    for (i = 0; i < 3; i++) {
        geo_sub3(e, v[i == 2 ? 2 : i + 1], v[i == 2 ? 0 : i]);
        for (k = 0; k < 3; k++) { /* e x unit k */
            unsigned k1 = k == 2 ? 0 : k + 1, k2 = k1 == 2 ? 0 : k1 + 1;
            L[k] = 0.0f;
            L[k1] = e[k2];
            L[k2] = -e[k1];
            if (cl_separates(L, v, h, w))
                return false;
        }
    }
    return true;
}

bool copse_geo_box_triangle_overlap(const float *half, const float *const tri[3])
{
    const float *v[3];
    cl_frame f;
    cl_frame_init(&f, tri);
    v[0] = f.a;
    v[1] = f.b;
    v[2] = f.c;
    return cl_box_tri_meet(half, v, &f);
}

/* Clamp x into the box. */
COPSE_INLINE void cl_clamp_box(float *x, const float *h)
{
    unsigned k;
    for (k = 0; k < 3; k++)
        x[k] = geo_max(geo_min(x[k], h[k]), -h[k]);
}

/* Does [a, b] meet the box (slabs)? Then *x is its first point inside, clamped into the box. */
COPSE_NOINLINE static bool cl_clip_box(const float *a, const float *b, const float *h, float *x)
{
    float t0 = 0.0f, t1 = 1.0f;
    unsigned k;
    for (k = 0; k < 3; k++) {
        float d = b[k] - a[k];
        if (d == 0.0f) {
            if (a[k] < -h[k] || a[k] > h[k])
                return false;
        } else {
            float ta = (-h[k] - a[k]) / d, tb = (h[k] - a[k]) / d;
            t0 = geo_max(t0, geo_min(ta, tb));
            t1 = geo_min(t1, geo_max(ta, tb));
        }
    }
    if (t0 > t1)
        return false;
    for (k = 0; k < 3; k++)
        x[k] = a[k] + (b[k] - a[k]) * t0;
    cl_clamp_box(x, h);
    return true;
}

/* The box's edges against the triangle: where an edge crosses the triangle's plane (when they
 * meet), else each edge whose Voronoi region the triangle reaches against each triangle edge
 * whose bounds could beat the best so far. p of the pair is on the box. */
COPSE_NOINLINE static void cl_box_edges(cl_pair *best, const float *h, const cl_frame *f, const float *n, bool meet)
{
    float c0[3], c1[3], x[3], y[3];
    unsigned k, m, i, reach = meet ? 63u : cl_reach(f, h);
    for (k = 0; k < 3; k++) {
        unsigned k1 = k == 2 ? 0 : k + 1, k2 = k1 == 2 ? 0 : k1 + 1;
        for (m = 0; m < 4u; m++) {
            unsigned lo = ((m & 1u) << k1) | (((m >> 1) & 1u) << k2);
            if (!((reach >> (2 * k1 + (m & 1u))) & (reach >> (2 * k2 + (m >> 1))) & 1u) ||
                (h[k1] == 0.0f && (m & 1u)) || (h[k2] == 0.0f && (m & 2u)))
                continue; /* not reached, or the second copy of an edge on a flat axis */
            cl_corner(c0, h, lo);
            cl_corner(c1, h, lo | (1u << k));
            if (meet) {
                cl_cross_candidate(best, c0, c1, f, n, false);
                continue;
            }
            for (i = 0; i < 3; i++) {
                const float *a0 = i == 2 ? f->b : f->a, *a1 = i == 0 ? f->b : f->c;
                if (cl_gap2(c0, c1, a0, a1) < best->d2)
                    cl_take(best, cl_seg_seg(c0, c1, a0, a1, x, y), x, y, false);
            }
        }
    }
}

/* The triangle's corners against the box, and the box's corners against the triangle: when they
 * meet (at the rounding level), all of them; else those nearest the triangle's plane, when the
 * box lies wholly on one side of it, whose Voronoi region the triangle reaches. */
COPSE_NOINLINE static void cl_box_corners(cl_pair *best, const float *h, const cl_frame *f, const float *n, bool meet)
{
    const float *v[3];
    float x[3], q[3], p0, p1, p2, r, side = 0.0f;
    unsigned i, k, reach;
    v[0] = f->a;
    v[1] = f->b;
    v[2] = f->c;
    for (i = 0; i < 3; i++) {
        cl_copy3(x, v[i]);
        cl_clamp_box(x, h);
        cl_take(best, geo_dist_sq3(x, v[i]), x, v[i], false);
    }
    if (!meet) {
        p0 = geo_dot3(n, v[0]);
        p1 = geo_dot3(n, v[1]);
        p2 = geo_dot3(n, v[2]);
        r = h[0] * copse_fabsf(n[0]) + h[1] * copse_fabsf(n[1]) + h[2] * copse_fabsf(n[2]);
        if (geo_min(geo_min(p0, p1), p2) > r)
            side = 1.0f;
        else if (geo_max(geo_max(p0, p1), p2) < -r)
            side = -1.0f;
        else
            return; /* the plane cuts the box: no box corner faces the triangle's interior */
    }
    reach = meet ? 63u : cl_reach(f, h);
    for (i = 0; i < 8u; i++) {
        bool take = true;
        for (k = 0; k < 3; k++) {
            float s = side * n[k];
            unsigned up = (i >> k) & 1u;
            if (h[k] == 0.0f ? up != 0u : (s > 0.0f && !up) || (s < 0.0f && up) || !((reach >> (2 * k + up)) & 1u))
                take = false; /* not extreme or not reached (a flat axis: its two corners are one) */
        }
        if (take) {
            cl_corner(x, h, i);
            cl_take(best, cl_frame_closest(f, x, q), x, q, false);
        }
    }
}

float copse_geo_box_triangle(const float *half, const float *const tri[3], float *pb, float *pt)
{
    const float *v[3];
    cl_frame f;
    cl_pair best;
    float n[3], x[3];
    bool meet;
    unsigned i;
    cl_frame_init(&f, tri);
    v[0] = f.a;
    v[1] = f.b;
    v[2] = f.c;
    meet = cl_box_tri_meet(half, v, &f);
    if (meet) { /* a corner inside, else a triangle edge through the box: a common point */
        for (i = 0; i < 3; i++) {
            cl_copy3(x, v[i]);
            cl_clamp_box(x, half);
            if (x[0] == v[i][0] && x[1] == v[i][1] && x[2] == v[i][2])
                break;
        }
        if (i == 3)
            for (i = 0; i < 3; i++)
                if (cl_clip_box(v[i], v[i == 2 ? 0 : i + 1], half, x))
                    break;
        if (i < 3) {
            cl_copy3(pb, x);
            cl_copy3(pt, x);
            return 0.0f;
        }
    }
    best.d2 = -1.0f;
    cl_frame_normal(&f, n);
    cl_box_corners(&best, half, &f, n, meet);
    cl_box_edges(&best, half, &f, n, false);
    if (meet) { /* a box edge through the triangle (or a touch at the rounding level) */
        cl_box_edges(&best, half, &f, n, true);
        cl_clamp_box(best.q, half);
    }
    return cl_report(&best, meet, pb, pt);
}

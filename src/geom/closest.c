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

/* Lexicographic order of points: -1, 0, +1. */
static int cl_cmp(const float *p, const float *q)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        uint32_t a = cl_key(p[k]), b = cl_key(q[k]);
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

static void cl_sort3(const float **v, const float *const tri[3])
{
    v[0] = tri[0];
    v[1] = tri[1];
    v[2] = tri[2];
    cl_order2(v);
    cl_order2(v + 1);
    cl_order2(v);
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
 * used only inside): the ends exactly. */
COPSE_INLINE void cl_edge_at(float *out, const float *a, const float *b, const float *e, float x, float ee, float t)
{
    if (x <= 0.0f || ee <= 0.0f) {
        cl_copy3(out, a);
    } else if (x >= ee) {
        cl_copy3(out, b);
    } else {
        out[0] = a[0] + e[0] * t;
        out[1] = a[1] + e[1] * t;
        out[2] = a[2] + e[2] * t;
    }
}

/* Closest point of the segment [a, b] to p; returns |p - out|^2. */
static float cl_seg_point(const float *p, const float *a, const float *b, float *out)
{
    float e[3], g[3];
    float x, ee;
    geo_sub3(e, b, a);
    geo_sub3(g, p, a);
    x = geo_dot3(g, e);
    ee = geo_dot3(e, e);
    cl_edge_at(out, a, b, e, x, ee, x > 0.0f && x < ee ? x / ee : 0.0f);
    return geo_dist_sq3(out, p);
}

/* ---- a triangle in the frame of its longest edge -------------------------------------------- */

typedef struct cl_frame {
    const float *a, *b, *c; /* ab is the longest edge, a before b in the canonical order */
    float e[3];             /* b - a */
    float u[3];             /* the part of c - a perpendicular to e: c = a + tc e + u */
    float ee, uu;           /* |e|^2; |u|^2, 0 for a segment or a point */
    float inv_ee, inv_uu, rho, tc; /* 1 / ee, 1 / uu, uu / ee */
} cl_frame;

/* The corners in the frame's order. The squared length of an edge has the same bits whichever
 * way it is measured, so the longest edge is found the same way for every order of the corners;
 * the corner opposite it is c (among ties, the first in the canonical order), and a, b are the
 * other two in the canonical order. */
static void cl_frame_corners(cl_frame *f, const float *const tri[3])
{
    const float *v[2];
    float d[3], l[3];
    unsigned i, c;
    geo_sub3(d, tri[1], tri[2]); /* the edge opposite corner 0, ... */
    l[0] = geo_dot3(d, d);
    geo_sub3(d, tri[0], tri[2]);
    l[1] = geo_dot3(d, d);
    geo_sub3(d, tri[0], tri[1]);
    l[2] = geo_dot3(d, d);
    c = l[0] >= l[1] && l[0] >= l[2] ? 0u : (l[1] >= l[2] ? 1u : 2u);
    for (i = c + 1; i < 3; i++)
        if (l[i] == l[c] && cl_cmp(tri[i], tri[c]) < 0)
            c = i;
    v[0] = tri[c == 0 ? 1 : 0];
    v[1] = tri[c == 2 ? 1 : 2];
    cl_order2(v);
    f->a = v[0];
    f->b = v[1];
    f->c = tri[c];
}

/* u -= t e with t = (u.e) / |e|^2: the part of u along e removed; returns t. */
COPSE_INLINE float cl_remove(float *u, const float *e, float inv_ee)
{
    float t = geo_dot3(u, e) * inv_ee;
    u[0] -= t * e[0];
    u[1] -= t * e[1];
    u[2] -= t * e[2];
    return t;
}

static void cl_frame_init(cl_frame *f, const float *const tri[3])
{
    float e[3], u[3], ee, uu = 0.0f, inv_ee = 0.0f, tc = 0.0f;
    cl_frame_corners(f, tri);
    geo_sub3(e, f->b, f->a);
    geo_sub3(u, f->c, f->a);
    ee = geo_dot3(e, e);
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

/* Closest point of the triangle to p; returns |p - out|^2. With s, r the coordinates of p's
 * projection along e and u (the triangle is (0,0), (1,0), (tc,1) there), the three edge lines
 * are r = 0, s = tc r and s = 1 + (tc - 1) r; the tests below are those times uu, which keeps
 * every term below |p - a| |e| (no overflow for far points). */
static float cl_frame_closest(const cl_frame *f, const float *p, float *out)
{
    float g[3], q[3], x, y, best, d2;
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
            return geo_dist_sq3(out, p);
        }
    }
    /* Outside: the nearest point lies on an edge whose line p is outside of. A segment or a
     * point (uu = 0) is its longest edge. */
    best = -1.0f;
    if (!in_ab) {
        if (f->inv_ee > 0.0f)
            cl_edge_at(out, f->a, f->b, f->e, x, f->ee, x * f->inv_ee);
        else
            (void)cl_seg_point(p, f->a, f->b, out);
        best = geo_dist_sq3(out, p);
    }
    if (!in_ca) {
        d2 = cl_seg_point(p, f->a, f->c, q);
        if (best < 0.0f || d2 < best) {
            best = d2;
            cl_copy3(out, q);
        }
    }
    if (!in_bc) {
        d2 = cl_seg_point(p, f->b, f->c, q);
        if (best < 0.0f || d2 < best) {
            best = d2;
            cl_copy3(out, q);
        }
    }
    return best;
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

float copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest)
{
    cl_frame f;
    float q[3], d2;
    unsigned i;
    for (i = 0; i < 3; i++) { /* a corner is its own closest point exactly (a mesh's vertices) */
        if (p[0] == tri[i][0] && p[1] == tri[i][1] && p[2] == tri[i][2]) {
            cl_copy3(closest, p);
            return 0.0f;
        }
    }
    cl_frame_init(&f, tri);
    d2 = cl_frame_closest(&f, p, q);
    cl_copy3(closest, q);
    return d2;
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

/* Closest points of [a0, a1] and [b0, b1], in the order given. */
static float cl_seg_seg(const float *a0, const float *a1, const float *b0, const float *b1, float *pa, float *pb)
{
    float best, d2, q[3];
    best = cl_seg_interior(a0, a1, b0, b1, pa, pb);
    if (best >= 0.0f)
        return best;
    /* the minimum lies on the boundary of the parameter square: an end against the other */
    best = cl_seg_point(a0, b0, b1, pb);
    cl_copy3(pa, a0);
    d2 = cl_seg_point(a1, b0, b1, q);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, a1);
        cl_copy3(pb, q);
    }
    d2 = cl_seg_point(b0, a0, a1, q);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, q);
        cl_copy3(pb, b0);
    }
    d2 = cl_seg_point(b1, a0, a1, q);
    if (d2 < best) {
        best = d2;
        cl_copy3(pa, q);
        cl_copy3(pb, b1);
    }
    return best;
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

/* The corners of `v` against the triangle `w`, and where the edges of `v` cross it when the
 * triangles meet. `flip`: w is the first of the pair. */
COPSE_NOINLINE static void cl_tri_corners(cl_pair *best, const float *const v[3], const float *const w[3], bool meet,
                                          bool flip)
{
    cl_frame f;
    float q[3], n[3];
    unsigned i;
    cl_frame_init(&f, w);
    for (i = 0; i < 3; i++)
        cl_take(best, cl_frame_closest(&f, v[i], q), v[i], q, flip);
    if (meet && best->d2 > 0.0f) {
        cl_frame_normal(&f, n);
        cl_cross_candidate(best, v[0], v[1], &f, n, flip);
        cl_cross_candidate(best, v[1], v[2], &f, n, flip);
        cl_cross_candidate(best, v[0], v[2], &f, n, flip);
    }
}

/* The nine edge pairs, each when their bounds could beat the best so far. */
COPSE_NOINLINE static void cl_tri_edges(cl_pair *best, const float *const a[3], const float *const b[3])
{
    float x[3], y[3];
    unsigned i, j;
    for (i = 0; i < 3; i++) {
        const float *a0 = a[i == 2 ? 1 : 0], *a1 = a[i == 0 ? 1 : 2];
        for (j = 0; j < 3; j++) {
            const float *b0 = b[j == 2 ? 1 : 0], *b1 = b[j == 0 ? 1 : 2];
            if (cl_gap2(a0, a1, b0, b1) < best->d2)
                cl_take(best, cl_seg_seg(a0, a1, b0, b1, x, y), x, y, false);
        }
    }
}

/* The work of copse_geo_triangle_triangle once the exact test has spoken (its own frame). */
COPSE_NOINLINE static float cl_tri_tri(const float *const a[3], const float *const b[3], bool meet, float *pa,
                                       float *pb)
{
    cl_pair best;
    best.d2 = -1.0f;
    cl_tri_corners(&best, a, b, meet, false);
    cl_tri_corners(&best, b, a, meet, true);
    cl_tri_edges(&best, a, b);
    return cl_report(&best, meet, pa, pb);
}

float copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq)
{
    const float *a[3], *b[3];
    cl_sort3(a, p);
    cl_sort3(b, q);
    if (cl_cmp_list(b, a, 3) < 0)
        return cl_tri_tri(b, a, copse_geo_triangle_triangle_overlap(b, a), pq, pp);
    return cl_tri_tri(a, b, copse_geo_triangle_triangle_overlap(a, b), pp, pq);
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

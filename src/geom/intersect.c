/* SPDX-License-Identifier: MIT */
/*
 * Exact intersection tests of closed triangles, segments and points, built only on the exact
 * orientation predicates (predicates.c): every decision is a sign of an exact determinant, so the
 * answer is the true one for the float corners, and it cannot depend on the order of a
 * triangle's corners or of the two arguments. Exact for all finite corners (the predicates
 * are: predicates.c, "Guarantee").
 *
 * Triangle-triangle: Guigue and Devillers, "Fast and robust triangle-triangle overlap test
 * using orientation predicates" (JGT 2003): each triangle against the other's plane (the
 * common case, apart, leaves after three filtered orient3d calls), then two orient3d signs
 * compare the intervals the triangles cut from the planes' common line. Coplanar pairs are
 * decided in the projection that drops an axis along which the plane's normal is exactly
 * nonzero. A degenerate triangle (collinear or coincident corners) is the segment or point it
 * covers: against a proper triangle, a segment-triangle test; against another degenerate one,
 * decided in the three axis projections.
 *
 * The rare branches are functions of their own, called last (so they run after the caller's
 * frame is gone, as tail calls), and a segment against a triangle known to be proper never
 * reaches the degenerate branch: the call graph holds only paths that can run.
 */
#include "geom_collide.h"

#define IX_NONE 3u

COPSE_INLINE unsigned ix_next(unsigned i, unsigned n)
{
    return i + 1u == n ? 0u : i + 1u;
}

/* An axis along which the triangle's normal (t1 - t0) x (t2 - t0) is nonzero, exactly, and the
 * sign of that component (the triangle's orientation in the projection); IX_NONE for a
 * degenerate triangle. The rounded normal's largest component is tried first: that projection
 * is the least squashed, so its orient2d filters decide most often. */
static unsigned ix_tri_axis(const float *const t[3], int *sign)
{
    float e1[3], e2[3], n[3];
    unsigned k, i;
    geo_sub3(e1, t[1], t[0]);
    geo_sub3(e2, t[2], t[0]);
    geo_cross3(n, e1, e2);
    n[0] = copse_fabsf(n[0]);
    n[1] = copse_fabsf(n[1]);
    n[2] = copse_fabsf(n[2]);
    k = n[0] > n[1] ? (n[0] > n[2] ? 0u : 2u) : (n[1] > n[2] ? 1u : 2u);
    for (i = 0; i < 3u; i++, k = ix_next(k, 3u)) {
        const int s = copse_geo_orient2d(t[0], t[1], t[2], k);
        if (s != 0) {
            *sign = s;
            return k;
        }
    }
    *sign = 0;
    return IX_NONE;
}

/* All the corners of P and Q on one line, in the projection along k: do their extents along it
 * overlap? Compared on a projected axis along which they are not all equal. */
static bool ix_collinear_overlap(const float *const *P, unsigned np, const float *const *Q, unsigned nq, unsigned k)
{
    unsigned x = ix_next(k, 3u), i;
    float plo, phi, qlo, qhi;
    bool same = true;
    for (i = 1; i < np + nq; i++)
        same = same && (i < np ? P[i][x] : Q[i - np][x]) == P[0][x];
    if (same)
        x = ix_next(x, 3u);
    plo = phi = P[0][x];
    qlo = qhi = Q[0][x];
    for (i = 1; i < np; i++) {
        plo = geo_min(plo, P[i][x]);
        phi = geo_max(phi, P[i][x]);
    }
    for (i = 1; i < nq; i++) {
        qlo = geo_min(qlo, Q[i][x]);
        qhi = geo_max(qhi, Q[i][x]);
    }
    return plo <= qhi && qlo <= phi;
}

/* Do the closed hulls of P and Q (np, nq = 1, 2 or 3 corners: a point, a segment, a triangle)
 * meet, seen in the projection along axis k? Exact for that projection; the callers pick k so
 * that it is one-to-one on a plane holding both, or use it only to rule a meeting out. sp and sq:
 * the orientation of P and Q there when they are proper triangles, else 0.
 * Separating axes: they are apart iff the line of an edge of one has every corner of the other
 * strictly outside (strictly on either side, for a degenerate one's line); edge lines give every
 * separating direction unless all the corners are collinear, and then their extents along that
 * line decide. A corner of P inside Q settles a meeting early. */
static bool ix_overlap2(const float *const *P, unsigned np, int sp, const float *const *Q, unsigned nq, int sq,
                        unsigned k)
{
    unsigned side, e, j;
    bool flat = true;
    for (side = 0; side < 2u; side++) {
        const float *const *A = side != 0u ? P : Q, *const *B = side != 0u ? Q : P;
        const unsigned na = side != 0u ? np : nq, nb = side != 0u ? nq : np;
        const int sa = side != 0u ? sp : sq;
        bool inside = sa != 0; /* B[0] inside A so far */
        for (e = 0; e < (na == 3u ? 3u : na - 1u); e++) {
            int seen = 0; /* bit 0: a corner strictly left, bit 1: strictly right, bit 2: on */
            for (j = 0; j < nb; j++) {
                const int o = copse_geo_orient2d(A[e], A[ix_next(e, na)], B[j], k);
                seen |= o > 0 ? 1 : (o < 0 ? 2 : 4);
                if (j == 0)
                    inside = inside && sa * o >= 0;
            }
            if ((seen == 1 && sa <= 0) || (seen == 2 && sa >= 0))
                return false;
            flat = flat && seen == 4;
        }
        if (inside)
            return true;
    }
    return !flat || ix_collinear_overlap(P, np, Q, nq, k);
}

/* A corner of a degenerate triangle other than t[0], spanning with it the line (or point) the
 * triangle covers. */
COPSE_INLINE const float *ix_other(const float *const *t)
{
    return t[1][0] != t[0][0] || t[1][1] != t[0][1] || t[1][2] != t[0][2] ? t[1] : t[2];
}

/* Do P and Q (np, nq corners, each on one line: points or segments, as degenerate triangles
 * too) meet? They must lie in one plane; then they meet iff they meet in all three axis
 * projections: meeting sets meet in every projection, and at least one projection is
 * one-to-one on the plane (or line) holding both, and there it is the answer. */
static COPSE_NOINLINE bool ix_lines_meet(const float *const *P, unsigned np, const float *const *Q, unsigned nq)
{
    unsigned k;
    if (copse_geo_orient3d(P[0], np == 3u ? ix_other(P) : P[np - 1u], Q[0], ix_other(Q)) != 0)
        return false;
    for (k = 0; k < 3u; k++)
        if (!ix_overlap2(P, np, 0, Q, nq, 0, k))
            return false;
    return true;
}

/* P (np corners: a point, a segment, or a degenerate triangle), known to lie on the plane of
 * the proper triangle t: do they meet? */
static COPSE_NOINLINE bool ix_in_plane(const float *const *P, unsigned np, const float *const t[3])
{
    int s;
    const unsigned k = ix_tri_axis(t, &s);
    return k != IX_NONE && ix_overlap2(P, np, 0, t, 3u, s, k);
}

/* [s0, s1] against the proper triangle t, the ends on sides d0 and d1 of its plane, not both on
 * it (and not both strictly on one side). */
static COPSE_NOINLINE bool ix_segment_off_plane(const float *s0, const float *s1, const float *const t[3], int d0, int d1)
{
    int o0, o1, o2;
    if (d0 == 0 || d1 == 0) /* one end on the plane: is it in the triangle? */
        return ix_in_plane(d0 == 0 ? &s0 : &s1, 1u, t);
    /* the ends strictly on either side: the crossing point is in the closed triangle iff it is on
     * the inner side of (or on) all three edge lines, i.e. the three signs below (the side of
     * each edge as seen along the segment) do not disagree */
    o0 = copse_geo_orient3d(s0, s1, t[0], t[1]);
    o1 = copse_geo_orient3d(s0, s1, t[1], t[2]);
    if (o0 * o1 < 0)
        return false;
    o2 = copse_geo_orient3d(s0, s1, t[2], t[0]);
    return o0 * o2 >= 0 && o1 * o2 >= 0;
}

bool copse_geo_point_on_triangle(const float *p, const float *const tri[3])
{
    int s;
    if (copse_geo_orient3d(tri[0], tri[1], tri[2], p) != 0)
        return false;
    /* on the plane, or the triangle degenerate */
    return ix_tri_axis(tri, &s) != IX_NONE ? ix_in_plane(&p, 1u, tri) : ix_lines_meet(&p, 1u, tri, 3u);
}

bool copse_geo_segment_triangle_overlap(const float *s0, const float *s1, const float *const tri[3])
{
    const float *P[2];
    const int d0 = copse_geo_orient3d(tri[0], tri[1], tri[2], s0);
    const int d1 = copse_geo_orient3d(tri[0], tri[1], tri[2], s1);
    int s;
    if (d0 * d1 > 0)
        return false;
    if (d0 != 0 || d1 != 0) /* the triangle is proper */
        return ix_segment_off_plane(s0, s1, tri, d0, d1);
    /* both ends on the plane, or the triangle degenerate */
    P[0] = s0;
    P[1] = s1;
    return ix_tri_axis(tri, &s) != IX_NONE ? ix_in_plane(P, 2u, tri) : ix_lines_meet(P, 2u, tri, 3u);
}

/* The degenerate triangle p against the proper triangle q: the segment [a, b] p covers against q.
 * When it lies on q's plane, p's corners are decided there as they are. */
static COPSE_NOINLINE bool ix_degenerate_proper(const float *const p[3], const float *const q[3])
{
    const float *a = p[0], *b = p[0];
    unsigned x = 0, i;
    int d0, d1;
    while (x < 2u && p[0][x] == p[1][x] && p[0][x] == p[2][x])
        x++;
    for (i = 1; i < 3u; i++) { /* the ends: collinear corners are ordered along any axis they span */
        a = p[i][x] < a[x] ? p[i] : a;
        b = p[i][x] > b[x] ? p[i] : b;
    }
    d0 = copse_geo_orient3d(q[0], q[1], q[2], a);
    d1 = copse_geo_orient3d(q[0], q[1], q[2], b);
    if (d0 * d1 > 0)
        return false;
    if (d0 != 0 || d1 != 0)
        return ix_segment_off_plane(a, b, q, d0, d1);
    return ix_in_plane(p, 3u, q);
}

/* All of p's corners lie on q's plane, or q is degenerate. */
static COPSE_NOINLINE bool ix_flat(const float *const p[3], const float *const q[3])
{
    int sp, sq;
    const unsigned k = ix_tri_axis(q, &sq);
    if (k != IX_NONE) { /* coplanar: p's orientation in q's projection (0 when p is degenerate) */
        sp = copse_geo_orient2d(p[0], p[1], p[2], k);
        return ix_overlap2(p, 3u, sp, q, 3u, sq, k);
    }
    if (ix_tri_axis(p, &sp) != IX_NONE)
        return ix_degenerate_proper(q, p);
    return ix_lines_meet(p, 3u, q, 3u);
}

/* The corner that is alone on its side of the other triangle's plane: nonzero sign, and each
 * other corner on the other side or on the plane. IX_NONE when there is none: one corner on
 * the plane, the two others strictly on one side. */
static unsigned ix_alone(const signed char *s)
{
    unsigned i;
    for (i = 0; i < 3u; i++)
        if (s[i] != 0 && s[i] * s[ix_next(i, 3u)] <= 0 && s[i] * s[ix_next(ix_next(i, 3u), 3u)] <= 0)
            return i;
    return IX_NONE;
}

COPSE_INLINE unsigned ix_zero(const signed char *s)
{
    return s[0] == 0 ? 0u : (s[1] == 0 ? 1u : 2u);
}

bool copse_geo_triangle_triangle_overlap(const float *const p[3], const float *const q[3])
{
    signed char dp[3], dq[3];
    unsigned ip, iq, p1, p2, q1, q2, i;

    for (i = 0; i < 3u; i++)
        dp[i] = (signed char)copse_geo_orient3d(q[0], q[1], q[2], p[i]);
    if (dp[0] == dp[1] && dp[1] == dp[2]) {
        if (dp[0] != 0)
            return false;
        return ix_flat(p, q);
    }
    for (i = 0; i < 3u; i++)
        dq[i] = (signed char)copse_geo_orient3d(p[0], p[1], p[2], q[i]);
    if (dq[0] == dq[1] && dq[1] == dq[2]) {
        if (dq[0] != 0)
            return false;
        /* q is on p's plane although p is not on q's (q is not degenerate): p is degenerate */
        return ix_degenerate_proper(p, q);
    }

    /* Both proper, and each meets the other's plane. Where a triangle only touches the other's
     * plane with one corner, the answer is whether that corner is in the other. */
    ip = ix_alone(dp);
    if (ip == IX_NONE)
        return ix_in_plane(&p[ix_zero(dp)], 1u, q);
    iq = ix_alone(dq);
    if (iq == IX_NONE)
        return ix_in_plane(&q[ix_zero(dq)], 1u, p);

    /* P0 = p[ip] alone on the positive side of Q's plane, Q0 = q[iq] alone on the positive side
     * of P's (swapping the two other corners of one triangle turns the other's signs). P cuts
     * the segment [x2, x1] (x1 on P0 P1, x2 on P0 P2) from the planes' common line, in that
     * order along n_P x n_Q, and Q cuts [y1, y2]; sign [P0, Pa, Q0, Qb] is that of y_b - x_a. */
    p1 = ix_next(ip, 3u);
    p2 = ix_next(p1, 3u);
    q1 = ix_next(iq, 3u);
    q2 = ix_next(q1, 3u);
    if (dp[ip] < 0) {
        i = q1;
        q1 = q2;
        q2 = i;
    }
    if (dq[iq] < 0) {
        i = p1;
        p1 = p2;
        p2 = i;
    }
    return copse_geo_orient3d(p[ip], p[p1], q[iq], q[q1]) <= 0 && copse_geo_orient3d(p[ip], p[p2], q[iq], q[q2]) >= 0;
}

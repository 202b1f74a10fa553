/* SPDX-License-Identifier: MIT */
/* Brute-force convex distances and contact times in double (oracle_sweep.h). */
#include "oracle/oracle_sweep.h"

#include <float.h>
#include <math.h>

#include "oracle/oracle.h"

static void osw_copy(double *out, const double *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

/* Keeps (d, p, q) when d is below *best. */
static void osw_keep(double d, const double *p, const double *q, double *best, double *bp, double *bq)
{
    if (d < *best) {
        *best = d;
        osw_copy(bp, p);
        osw_copy(bq, q);
    }
}

double osw_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb)
{
    /* The squared distance is a convex quadratic in (s, t) on the unit square: its minimum is at
     * the free critical point when that lies inside, else on a side, where one end is fixed. */
    double best = DBL_MAX, q[3], d1[3], d2[3], r[3], a, b, c, e, f, den;
    osw_keep(orc_closest_segment(a0, b0, b1, q), a0, q, &best, pa, pb);
    osw_keep(orc_closest_segment(a1, b0, b1, q), a1, q, &best, pa, pb);
    osw_keep(orc_closest_segment(b0, a0, a1, q), q, b0, &best, pa, pb);
    osw_keep(orc_closest_segment(b1, a0, a1, q), q, b1, &best, pa, pb);
    orc_sub(d1, a1, a0);
    orc_sub(d2, b1, b0);
    orc_sub(r, a0, b0);
    a = orc_dot(d1, d1);
    e = orc_dot(d2, d2);
    b = orc_dot(d1, d2);
    c = orc_dot(d1, r);
    f = orc_dot(d2, r);
    den = a * e - b * b;
    if (den > 0.0) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) {
            double x[3], y[3];
            int k;
            for (k = 0; k < 3; k++) {
                x[k] = a0[k] + s * d1[k];
                y[k] = b0[k] + t * d2[k];
            }
            osw_keep(orc_dist(x, y), x, y, &best, pa, pb);
        }
    }
    return best;
}

/* Moeller-Trumbore: where the segment crosses the triangle, *w along the segment. */
static bool osw_crossing(const double *s0, const double *s1, const osw_tri *t, double *w)
{
    double e1[3], e2[3], d[3], h[3], sv[3], q[3], det, u, v;
    orc_sub(e1, t->v[1], t->v[0]);
    orc_sub(e2, t->v[2], t->v[0]);
    orc_sub(d, s1, s0);
    orc_cross(h, d, e2);
    det = orc_dot(e1, h);
    if (det == 0.0)
        return false;
    orc_sub(sv, s0, t->v[0]);
    u = orc_dot(sv, h) / det;
    if (u < 0.0 || u > 1.0)
        return false;
    orc_cross(q, sv, e1);
    v = orc_dot(d, q) / det;
    if (v < 0.0 || u + v > 1.0)
        return false;
    *w = orc_dot(e2, q) / det;
    return *w >= 0.0 && *w <= 1.0;
}

bool osw_segment_crosses(const double *s0, const double *s1, const osw_tri *t)
{
    double w;
    return osw_crossing(s0, s1, t, &w);
}

double osw_segment_triangle(const double *s0, const double *s1, const osw_tri *t, double *ps, double *pt)
{
    double best = DBL_MAX, q[3], x[3], y[3], w;
    int i, k;
    if (osw_crossing(s0, s1, t, &w)) {
        for (k = 0; k < 3; k++)
            ps[k] = pt[k] = s0[k] + w * (s1[k] - s0[k]);
        return 0.0;
    }
    osw_keep(orc_closest_triangle(s0, t->v[0], t->v[1], t->v[2], q), s0, q, &best, ps, pt);
    osw_keep(orc_closest_triangle(s1, t->v[0], t->v[1], t->v[2], q), s1, q, &best, ps, pt);
    for (i = 0; i < 3; i++)
        osw_keep(osw_segment_segment(s0, s1, t->v[i], t->v[(i + 1) % 3], x, y), x, y, &best, ps, pt);
    return best;
}

double osw_triangle_triangle(const osw_tri *p, const osw_tri *q, double *pp, double *pq)
{
    double best = DBL_MAX, x[3], y[3];
    int i;
    for (i = 0; i < 3; i++) {
        double d = osw_segment_triangle(p->v[i], p->v[(i + 1) % 3], q, x, y);
        osw_keep(d, x, y, &best, pp, pq);
        d = osw_segment_triangle(q->v[i], q->v[(i + 1) % 3], p, y, x);
        osw_keep(d, x, y, &best, pp, pq);
    }
    return best;
}

/* ---- boxes ---------------------------------------------------------------------------------- */

void osw_box_corners(const osw_box *b, double corners[8][3])
{
    int c, k, j;
    for (c = 0; c < 8; c++) {
        for (k = 0; k < 3; k++) {
            corners[c][k] = b->center[k];
            for (j = 0; j < 3; j++)
                corners[c][k] += ((c >> j & 1) ? b->half[j] : -b->half[j]) * b->axis[j][k];
        }
    }
}

static void osw_project(const double (*pts)[3], int n, const double *axis, double *lo, double *hi)
{
    int i;
    *lo = *hi = orc_dot(pts[0], axis);
    for (i = 1; i < n; i++) {
        double s = orc_dot(pts[i], axis);
        *lo = s < *lo ? s : *lo;
        *hi = s > *hi ? s : *hi;
    }
}

/* Is there a separating axis among the box's face normals, the triangle's normal and the
 * crosses of box edges with triangle edges? (A zero axis separates nothing.) */
static bool osw_box_triangle_apart(const osw_box *b, const double (*corners)[3], const osw_tri *t)
{
    double axes[13][3], e[3][3];
    int k, j, a = 0;
    for (k = 0; k < 3; k++)
        orc_cross(axes[a++], b->axis[(k + 1) % 3], b->axis[(k + 2) % 3]);
    for (j = 0; j < 3; j++)
        orc_sub(e[j], t->v[(j + 1) % 3], t->v[j]);
    orc_cross(axes[a++], e[0], e[1]);
    for (k = 0; k < 3; k++)
        for (j = 0; j < 3; j++)
            orc_cross(axes[a++], b->axis[k], e[j]);
    for (a = 0; a < 13; a++) {
        double bl, bh, tl, th;
        if (orc_dot(axes[a], axes[a]) == 0.0)
            continue;
        osw_project(corners, 8, axes[a], &bl, &bh);
        osw_project(t->v, 3, axes[a], &tl, &th);
        if (bh < tl || th < bl)
            return true;
    }
    return false;
}

double osw_box_triangle(const osw_box *b, const osw_tri *t, double *pb, double *pt)
{
    double c[8][3], best = DBL_MAX, q[3], x[3], y[3];
    int i, k, j;
    osw_box_corners(b, c);
    if (!osw_box_triangle_apart(b, (const double(*)[3])c, t)) {
        for (k = 0; k < 3; k++)
            pb[k] = pt[k] = (t->v[0][k] + t->v[1][k] + t->v[2][k]) / 3.0; /* not meaningful */
        return 0.0;
    }
    for (i = 0; i < 8; i++)
        osw_keep(orc_closest_triangle(c[i], t->v[0], t->v[1], t->v[2], q), c[i], q, &best, pb, pt);
    for (k = 0; k < 3; k++) { /* each triangle corner against the six faces (two triangles each) */
        int i1 = 1 << ((k + 1) % 3), i2 = 1 << ((k + 2) % 3), s;
        for (s = 0; s < 2; s++) {
            int base = s ? 1 << k : 0;
            for (j = 0; j < 3; j++) {
                osw_keep(orc_closest_triangle(t->v[j], c[base], c[base | i1], c[base | i1 | i2], q), q, t->v[j], &best,
                         pb, pt);
                osw_keep(orc_closest_triangle(t->v[j], c[base], c[base | i1 | i2], c[base | i2], q), q, t->v[j], &best,
                         pb, pt);
            }
        }
    }
    for (i = 0; i < 8; i++) { /* the 12 edges: corner pairs one bit apart */
        for (k = 0; k < 3; k++) {
            if (i >> k & 1)
                continue;
            for (j = 0; j < 3; j++)
                osw_keep(osw_segment_segment(c[i], c[i | 1 << k], t->v[j], t->v[(j + 1) % 3], x, y), x, y, &best, pb, pt);
        }
    }
    return best;
}

/* ---- hulls ---------------------------------------------------------------------------------- */

/* Is p in the closed tetrahedron (a, b, c, d)? (False for a flat one: the triples see those.) */
static bool osw_in_tetra(const double *p, const double *a, const double *b, const double *c, const double *d)
{
    const double *v[4];
    double vol, e1[3], e2[3], e3[3], x[3];
    int i;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    v[3] = d;
    orc_sub(e1, b, a);
    orc_sub(e2, c, a);
    orc_sub(e3, d, a);
    orc_cross(x, e2, e3);
    vol = orc_dot(e1, x);
    if (vol == 0.0)
        return false;
    for (i = 0; i < 4; i++) { /* the volume with p in place of corner i has vol's sign */
        const double *w[4];
        double f1[3], f2[3], f3[3], y[3], s;
        int j;
        for (j = 0; j < 4; j++)
            w[j] = j == i ? p : v[j];
        orc_sub(f1, w[1], w[0]);
        orc_sub(f2, w[2], w[0]);
        orc_sub(f3, w[3], w[0]);
        orc_cross(y, f2, f3);
        s = orc_dot(f1, y);
        if (vol > 0.0 ? s < 0.0 : s > 0.0)
            return false;
    }
    return true;
}

static bool osw_in_hull_tetra(const double *p, const double *pts, unsigned n)
{
    unsigned i, j, k, l;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            for (k = j + 1; k < n; k++)
                for (l = k + 1; l < n; l++)
                    if (osw_in_tetra(p, pts + 3 * i, pts + 3 * j, pts + 3 * k, pts + 3 * l))
                        return true;
    return false;
}

/* The candidate faces of the hull: every triple; for fewer points the segment or the point as a
 * degenerate triangle. Returns false past the last. */
static bool osw_next_face(const double *pts, unsigned n, unsigned idx, osw_tri *f)
{
    unsigned i, j, k, c = 0;
    if (n < 3u) {
        if (idx > 0u)
            return false;
        osw_copy(f->v[0], pts);
        osw_copy(f->v[1], pts + 3 * (n - 1u));
        osw_copy(f->v[2], pts + 3 * (n - 1u));
        return true;
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            for (k = j + 1; k < n; k++)
                if (c++ == idx) {
                    osw_copy(f->v[0], pts + 3 * i);
                    osw_copy(f->v[1], pts + 3 * j);
                    osw_copy(f->v[2], pts + 3 * k);
                    return true;
                }
    return false;
}

double osw_hull_triangle(const double *pts, unsigned n, const osw_tri *t, double *ph, double *pt)
{
    double best = DBL_MAX, x[3], y[3];
    osw_tri f;
    unsigned idx, j;
    for (idx = 0; osw_next_face(pts, n, idx, &f); idx++)
        osw_keep(osw_triangle_triangle(&f, t, x, y), x, y, &best, ph, pt);
    if (best > 0.0) {
        for (j = 0; j < 3u; j++) {
            if (osw_in_hull_tetra(t->v[j], pts, n)) {
                osw_copy(ph, t->v[j]);
                osw_copy(pt, t->v[j]);
                return 0.0;
            }
        }
    }
    return best;
}

double osw_hull_box(const double *pts, unsigned n, const osw_box *b, double *ph, double *pbx)
{
    double best = DBL_MAX, x[3], y[3], c[8][3];
    osw_tri f;
    unsigned idx, j;
    for (idx = 0; osw_next_face(pts, n, idx, &f); idx++)
        osw_keep(osw_box_triangle(b, &f, y, x), x, y, &best, ph, pbx);
    if (best > 0.0) {
        osw_box_corners(b, c);
        for (j = 0; j < 8u; j++) {
            if (osw_in_hull_tetra(c[j], pts, n)) {
                osw_copy(ph, c[j]);
                osw_copy(pbx, c[j]);
                return 0.0;
            }
        }
    }
    return best;
}

/* ---- first contact -------------------------------------------------------------------------- */

bool osw_first_contact(osw_gap_fn gap, const void *ctx, double t_max, double *t_first, double *min_gap)
{
    const double phi = 0.6180339887498949;
    double a = 0.0, b = t_max, x1, x2, f1, f2, best, lo = 0.0, hi = -1.0;
    int it;
    best = gap(ctx, 0.0);
    if (best <= 0.0) {
        *t_first = 0.0;
        *min_gap = best;
        return true;
    }
    if (t_max <= 0.0) {
        *min_gap = best;
        return false;
    }
    f1 = gap(ctx, t_max);
    best = f1 < best ? f1 : best;
    if (f1 <= 0.0)
        hi = t_max;
    x1 = b - phi * (b - a);
    x2 = a + phi * (b - a);
    f1 = gap(ctx, x1);
    f2 = gap(ctx, x2);
    /* golden section for the minimum of the convex gap, until a point touches (the first contact
     * then lies between 0 and it) */
    for (it = 0; hi < 0.0 && it < 200; it++) {
        best = f1 < best ? f1 : best;
        best = f2 < best ? f2 : best;
        if (f1 <= 0.0) {
            hi = x1;
            break;
        }
        if (f2 <= 0.0) {
            hi = x2;
            break;
        }
        if (b - a <= 1e-10 * t_max)
            break;
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - phi * (b - a);
            f1 = gap(ctx, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + phi * (b - a);
            f2 = gap(ctx, x2);
        }
    }
    if (hi < 0.0) {
        *min_gap = best;
        return false;
    }
    for (it = 0; it < 200 && hi - lo > 1e-13 * t_max; it++) {
        double mid = 0.5 * (lo + hi);
        if (gap(ctx, mid) <= 0.0)
            hi = mid;
        else
            lo = mid;
    }
    *t_first = hi;
    *min_gap = best;
    return true;
}

/* SPDX-License-Identifier: MIT */
/* Closest points in double from the textbook definitions (see oracle_closest.h). */
#include "oracle_closest.h"

#include <math.h>

static double ocl_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void ocl_sub(double *o, const double *a, const double *b)
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static void ocl_cross(double *o, const double *a, const double *b)
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    o[0] = x;
    o[1] = y;
    o[2] = z;
}

static double ocl_dist(const double *a, const double *b)
{
    double d[3];
    ocl_sub(d, a, b);
    return sqrt(ocl_dot(d, d));
}

static void ocl_copy(double *o, const double *a)
{
    o[0] = a[0];
    o[1] = a[1];
    o[2] = a[2];
}

/* Keep (p, q, d) when d is below *best (*best < 0: nothing yet). */
static void ocl_keep(double *best, double d, const double *p, const double *q, double *bp, double *bq)
{
    if (*best < 0.0 || d < *best) {
        *best = d;
        ocl_copy(bp, p);
        ocl_copy(bq, q);
    }
}

double ocl_point_segment(const double *p, const double *a, const double *b, double *out)
{
    double ab[3], ap[3], l2, s;
    int k;
    ocl_sub(ab, b, a);
    ocl_sub(ap, p, a);
    l2 = ocl_dot(ab, ab);
    s = l2 > 0.0 ? ocl_dot(ap, ab) / l2 : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    for (k = 0; k < 3; k++)
        out[k] = a[k] + ab[k] * s;
    return ocl_dist(out, p);
}

/* The plane normal from the two edges at the corner opposite the longest edge (the best
 * conditioned pair), oriented as (t1 - t0) x (t2 - t0). False for a triangle flatter than 1e-8
 * of its longest edge: it is then its edges. */
static bool ocl_normal(const double *const t[3], double *n)
{
    double e[3][3], l[3];
    int i, c;
    for (i = 0; i < 3; i++) {
        ocl_sub(e[i], t[(i + 2) % 3], t[(i + 1) % 3]); /* the edge opposite corner i */
        l[i] = ocl_dot(e[i], e[i]);
    }
    c = l[0] >= l[1] && l[0] >= l[2] ? 0 : (l[1] >= l[2] ? 1 : 2);
    {
        double u[3], v[3];
        ocl_sub(u, t[(c + 1) % 3], t[c]);
        ocl_sub(v, t[(c + 2) % 3], t[c]);
        ocl_cross(n, u, v);
    }
    return sqrt(ocl_dot(n, n)) > 1e-8 * l[c];
}

/* Is q, a point of the plane, inside the closed triangle (edge functions along n)? */
static bool ocl_inside(const double *q, const double *const t[3], const double *n)
{
    int i;
    for (i = 0; i < 3; i++) {
        double e[3], w[3], x[3];
        ocl_sub(e, t[(i + 1) % 3], t[i]);
        ocl_sub(w, q, t[i]);
        ocl_cross(x, e, w);
        if (ocl_dot(x, n) < 0.0)
            return false;
    }
    return true;
}

double ocl_point_triangle(const double *p, const double *const t[3], double *out)
{
    double n[3], q[3], best = -1.0;
    int i, k;
    if (ocl_normal(t, n)) {
        double g[3], s;
        ocl_sub(g, p, t[0]);
        s = ocl_dot(g, n) / ocl_dot(n, n);
        for (k = 0; k < 3; k++)
            q[k] = p[k] - n[k] * s;
        if (ocl_inside(q, t, n)) {
            ocl_copy(out, q);
            return ocl_dist(p, q);
        }
    }
    for (i = 0; i < 3; i++) {
        double d = ocl_point_segment(p, t[i], t[(i + 1) % 3], q);
        if (best < 0.0 || d < best) {
            best = d;
            ocl_copy(out, q);
        }
    }
    return best;
}

double ocl_point_box(const double *p, const double *h, double *out)
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = p[k] < -h[k] ? -h[k] : (p[k] > h[k] ? h[k] : p[k]);
    return ocl_dist(p, out);
}

/* The minimum of |a0 + s d1 - b0 - t d2| over the unit square: at the interior critical point of
 * the normal equations when it lies inside, else on the square's boundary (an end of one
 * segment against the other). */
double ocl_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb)
{
    double d1[3], d2[3], r[3], a, b, c, e, f, denom, best = -1.0, q[3];
    int k;
    ocl_sub(d1, a1, a0);
    ocl_sub(d2, b1, b0);
    ocl_sub(r, a0, b0);
    a = ocl_dot(d1, d1);
    e = ocl_dot(d2, d2);
    b = ocl_dot(d1, d2);
    c = ocl_dot(d1, r);
    f = ocl_dot(d2, r);
    denom = a * e - b * b;
    if (a > 0.0 && e > 0.0 && denom > 1e-20 * a * e) {
        double s = (b * f - c * e) / denom, t = (a * f - b * c) / denom;
        if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) {
            double x[3], y[3];
            for (k = 0; k < 3; k++) {
                x[k] = a0[k] + d1[k] * s;
                y[k] = b0[k] + d2[k] * t;
            }
            ocl_keep(&best, ocl_dist(x, y), x, y, pa, pb);
        }
    }
    ocl_keep(&best, ocl_point_segment(a0, b0, b1, q), a0, q, pa, pb);
    ocl_keep(&best, ocl_point_segment(a1, b0, b1, q), a1, q, pa, pb);
    ocl_keep(&best, ocl_point_segment(b0, a0, a1, q), q, b0, pa, pb);
    ocl_keep(&best, ocl_point_segment(b1, a0, a1, q), q, b1, pa, pb);
    return best;
}

/* Does [s0, s1] cross the triangle's plane at a point inside it? Then *x is that point. */
static bool ocl_crosses(const double *s0, const double *s1, const double *const t[3], double *x)
{
    double n[3], g[3], d0, d1, u;
    int k;
    if (!ocl_normal(t, n))
        return false;
    ocl_sub(g, s0, t[0]);
    d0 = ocl_dot(g, n);
    ocl_sub(g, s1, t[0]);
    d1 = ocl_dot(g, n);
    if (!((d0 < 0.0 && d1 > 0.0) || (d0 > 0.0 && d1 < 0.0)))
        return false;
    u = d0 / (d0 - d1);
    for (k = 0; k < 3; k++)
        x[k] = s0[k] + (s1[k] - s0[k]) * u;
    return ocl_inside(x, t, n);
}

double ocl_segment_triangle(const double *s0, const double *s1, const double *const t[3], double *ps, double *pt)
{
    double best = -1.0, x[3], y[3];
    int i;
    if (ocl_crosses(s0, s1, t, x)) {
        ocl_copy(ps, x);
        ocl_copy(pt, x);
        return 0.0;
    }
    ocl_keep(&best, ocl_point_triangle(s0, t, y), s0, y, ps, pt);
    ocl_keep(&best, ocl_point_triangle(s1, t, y), s1, y, ps, pt);
    for (i = 0; i < 3; i++) {
        double d = ocl_segment_segment(s0, s1, t[i], t[(i + 1) % 3], x, y);
        ocl_keep(&best, d, x, y, ps, pt);
    }
    return best;
}

double ocl_triangle_triangle(const double *const p[3], const double *const q[3], double *pp, double *pq)
{
    double best = -1.0, x[3], y[3];
    int i, j;
    for (i = 0; i < 3; i++) {
        if (ocl_crosses(p[i], p[(i + 1) % 3], q, x) || ocl_crosses(q[i], q[(i + 1) % 3], p, x)) {
            ocl_copy(pp, x);
            ocl_copy(pq, x);
            return 0.0;
        }
    }
    for (i = 0; i < 3; i++) {
        ocl_keep(&best, ocl_point_triangle(p[i], q, y), p[i], y, pp, pq);
        ocl_keep(&best, ocl_point_triangle(q[i], p, y), y, q[i], pp, pq);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            double d = ocl_segment_segment(p[i], p[(i + 1) % 3], q[j], q[(j + 1) % 3], x, y);
            ocl_keep(&best, d, x, y, pp, pq);
        }
    return best;
}

/* The gap between the projections on axis L (any length; 0 skips it), in units of length. */
static double ocl_axis_gap(const double *L, const double *h, const double *const t[3])
{
    double len = sqrt(ocl_dot(L, L)), lo, hi, r;
    int i;
    if (len == 0.0)
        return -HUGE_VAL;
    lo = hi = ocl_dot(L, t[0]);
    for (i = 1; i < 3; i++) {
        double p = ocl_dot(L, t[i]);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
    }
    r = h[0] * fabs(L[0]) + h[1] * fabs(L[1]) + h[2] * fabs(L[2]);
    return (lo - r > -r - hi ? lo - r : -r - hi) / len;
}

double ocl_box_triangle_gap(const double *h, const double *const t[3])
{
    double gap = -HUGE_VAL, L[3], n[3], g;
    int i, k;
    for (k = 0; k < 3; k++) {
        L[0] = L[1] = L[2] = 0.0;
        L[k] = 1.0;
        g = ocl_axis_gap(L, h, t);
        gap = g > gap ? g : gap;
    }
    if (ocl_normal(t, n)) {
        g = ocl_axis_gap(n, h, t);
        gap = g > gap ? g : gap;
    }
    for (i = 0; i < 3; i++) {
        double e[3], ax[3];
        ocl_sub(e, t[(i + 1) % 3], t[i]);
        for (k = 0; k < 3; k++) {
            ax[0] = ax[1] = ax[2] = 0.0;
            ax[k] = 1.0;
            ocl_cross(L, e, ax);
            g = ocl_axis_gap(L, h, t);
            gap = g > gap ? g : gap;
        }
    }
    return gap;
}

double ocl_box_triangle(const double *h, const double *const t[3], double *pb, double *pt)
{
    double best = -1.0, c0[3], c1[3], x[3], y[3];
    int i, k, m;
    if (ocl_box_triangle_gap(h, t) <= 0.0)
        return 0.0;
    for (i = 0; i < 8; i++) {
        for (k = 0; k < 3; k++)
            c0[k] = (i >> k) & 1 ? h[k] : -h[k];
        ocl_keep(&best, ocl_point_triangle(c0, t, y), c0, y, pb, pt);
    }
    for (i = 0; i < 3; i++)
        ocl_keep(&best, ocl_point_box(t[i], h, x), x, t[i], pb, pt);
    for (i = 0; i < 8; i++) {
        for (k = 0; k < 3; k++) { /* the edge from corner i along axis k, where i is at -h[k] */
            if ((i >> k) & 1)
                continue;
            for (m = 0; m < 3; m++) {
                c0[m] = (i >> m) & 1 ? h[m] : -h[m];
                c1[m] = m == k ? h[m] : c0[m];
            }
            for (m = 0; m < 3; m++) {
                double d = ocl_segment_segment(c0, c1, t[m], t[(m + 1) % 3], x, y);
                ocl_keep(&best, d, x, y, pb, pt);
            }
        }
    }
    return best;
}

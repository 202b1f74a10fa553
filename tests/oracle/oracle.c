/* SPDX-License-Identifier: MIT */
/* Double-precision reference geometry (see oracle.h). Straightforward on purpose. */
#include "oracle.h"

#include <math.h>

/* How many float roundings of the magnitudes involved make the boundary band of a ray test. */
#define ORC_RAY_K 32.0

double orc_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void orc_sub(double *out, const double *a, const double *b)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

void orc_cross(double *out, const double *a, const double *b)
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

double orc_len(const double *a)
{
    return sqrt(orc_dot(a, a));
}

double orc_dist(const double *a, const double *b)
{
    double d[3];
    orc_sub(d, a, b);
    return orc_len(d);
}

static double orc_abs(double x)
{
    return x < 0.0 ? -x : x;
}

double orc_max_abs(const double *a)
{
    double m = orc_abs(a[0]);
    if (orc_abs(a[1]) > m)
        m = orc_abs(a[1]);
    if (orc_abs(a[2]) > m)
        m = orc_abs(a[2]);
    return m;
}

/* ---- closest points -------------------------------------------------------------------------- */

double orc_closest_segment(const double *p, const double *a, const double *b, double *out)
{
    double ab[3], ap[3], l2, s;
    int k;
    orc_sub(ab, b, a);
    orc_sub(ap, p, a);
    l2 = orc_dot(ab, ab);
    s = l2 > 0.0 ? orc_dot(ap, ab) / l2 : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    for (k = 0; k < 3; k++)
        out[k] = a[k] + ab[k] * s;
    return orc_dist(out, p);
}

/* Project onto the plane; inside the three edges that is the answer, else the nearest edge. */
double orc_closest_triangle(const double *p, const double *a, const double *b, const double *c, double *out)
{
    const double *v[3];
    double e1[3], e2[3], n[3], nn, best = -1.0, q[3];
    int k, i;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    orc_sub(e1, b, a);
    orc_sub(e2, c, a);
    orc_cross(n, e1, e2);
    nn = orc_dot(n, n);
    if (nn > 0.0) {
        double ap[3], s, side[3];
        orc_sub(ap, p, a);
        s = orc_dot(ap, n) / nn;
        for (k = 0; k < 3; k++)
            q[k] = p[k] - n[k] * s;
        for (i = 0; i < 3; i++) {
            double e[3], w[3], x[3];
            orc_sub(e, v[(i + 1) % 3], v[i]);
            orc_sub(w, q, v[i]);
            orc_cross(x, e, w);
            side[i] = orc_dot(x, n);
        }
        if (side[0] >= 0.0 && side[1] >= 0.0 && side[2] >= 0.0) {
            for (k = 0; k < 3; k++)
                out[k] = q[k];
            return orc_dist(p, q);
        }
    }
    for (i = 0; i < 3; i++) {
        double d = orc_closest_segment(p, v[i], v[(i + 1) % 3], q);
        if (best < 0.0 || d < best) {
            best = d;
            for (k = 0; k < 3; k++)
                out[k] = q[k];
        }
    }
    return best;
}

double orc_closest_box(const double *p, const double *bmin, const double *bmax, unsigned dim, double *out)
{
    unsigned a;
    out[2] = p[2];
    for (a = 0; a < dim; a++)
        out[a] = p[a] < bmin[a] ? bmin[a] : (p[a] > bmax[a] ? bmax[a] : p[a]);
    return orc_dist(p, out);
}

double orc_triangle_condition(const double *a, const double *b, const double *c)
{
    double e[3][3], n[3], longest = 0.0, area2;
    int i;
    orc_sub(e[0], b, a);
    orc_sub(e[1], c, b);
    orc_sub(e[2], a, c);
    for (i = 0; i < 3; i++)
        if (orc_dot(e[i], e[i]) > longest)
            longest = orc_dot(e[i], e[i]);
    orc_cross(n, e[0], e[1]);
    area2 = orc_len(n);
    if (area2 == 0.0 || longest <= area2)
        return 1.0;
    return longest / area2;
}

/* ---- overlap ------------------------------------------------------------------------------- */

bool orc_box_box(const double *amin, const double *amax, const double *bmin, const double *bmax, unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        if (amin[a] > bmax[a] || bmin[a] > amax[a])
            return false;
    return true;
}

/* The 13 separating axes. For each, the gap between the projections in world units
 * (positive: separated). The answer is fragile when the deciding gaps are within the band. */
orc_verdict orc_triangle_box(const double *bmin, const double *bmax, const double *a, const double *b, const double *c,
                             double band)
{
    double ctr[3], h[3], v[3][3], e[3][3], axes[13][3], max_gap = -1e300;
    double plane_band = band * orc_triangle_condition(a, b, c);
    bool any_sep_outside_band = false, any_near = false;
    int k, i, j, n_axes = 0;

    for (k = 0; k < 3; k++) {
        ctr[k] = 0.5 * (bmin[k] + bmax[k]);
        h[k] = 0.5 * (bmax[k] - bmin[k]);
        v[0][k] = a[k] - ctr[k];
        v[1][k] = b[k] - ctr[k];
        v[2][k] = c[k] - ctr[k];
    }
    for (i = 0; i < 3; i++)
        orc_sub(e[i], v[(i + 1) % 3], v[i]);
    for (k = 0; k < 3; k++) { /* the box's face normals */
        for (j = 0; j < 3; j++)
            axes[n_axes][j] = j == k ? 1.0 : 0.0;
        n_axes++;
    }
    orc_cross(axes[n_axes++], e[0], e[1]); /* the triangle's normal: axis 3 */
    for (i = 0; i < 3; i++) {
        for (k = 0; k < 3; k++) {
            double unit[3] = {0.0, 0.0, 0.0};
            unit[k] = 1.0;
            orc_cross(axes[n_axes++], e[i], unit);
        }
    }
    for (i = 0; i < n_axes; i++) {
        const double *L = axes[i];
        double len = orc_len(L), lo, hi, r, gap, p, bnd;
        if (len == 0.0)
            continue; /* degenerate triangle or edge: not an axis */
        lo = hi = orc_dot(L, v[0]);
        for (k = 1; k < 3; k++) {
            p = orc_dot(L, v[k]);
            lo = p < lo ? p : lo;
            hi = p > hi ? p : hi;
        }
        r = h[0] * orc_abs(L[0]) + h[1] * orc_abs(L[1]) + h[2] * orc_abs(L[2]);
        gap = (lo - r > -r - hi ? lo - r : -r - hi) / len;
        bnd = i == 3 ? plane_band : band;
        if (gap > max_gap)
            max_gap = gap;
        if (gap > bnd)
            any_sep_outside_band = true;
        if (gap >= -bnd)
            any_near = true;
    }
    if (max_gap > 0.0)
        return any_sep_outside_band ? ORC_NO : ORC_EDGE_NO;
    return any_near ? ORC_EDGE_YES : ORC_YES;
}

orc_verdict orc_ball(double d, double radius, double band)
{
    if (d <= radius)
        return radius - d <= band ? ORC_EDGE_YES : ORC_YES;
    return d - radius <= band ? ORC_EDGE_NO : ORC_NO;
}

/* ---- rays ---------------------------------------------------------------------------------- */

static orc_hit make_hit(bool hit, bool fragile, double t, double u, double v)
{
    orc_hit h;
    h.verdict = hit ? (fragile ? ORC_EDGE_YES : ORC_YES) : (fragile ? ORC_EDGE_NO : ORC_NO);
    h.t = t;
    h.u = u;
    h.v = v;
    return h;
}

/* Signed volumes: E_i = d . (P_j x P_k) says on which side of edge (j, k) the ray passes,
 * with P = corner - origin. All three of one sign: the ray line crosses the triangle. A float
 * evaluation of E_i errs by a few roundings of |d| |P_j| |P_k|: that is its band. */
orc_hit orc_ray_triangle3(const double *o, const double *d, double t_max, const double *a, const double *b,
                          const double *c)
{
    double P[3][3], x[3], E[3], band[3], len[3], n[3], e1[3], e2[3], det, nn, dn, t, pmax = 0.0;
    double cond = orc_triangle_condition(a, b, c), dl = orc_len(d);
    bool inside, near_edge = false, all_near = true, near_start, near_end, parallel, in_range;
    int i;

    orc_sub(P[0], a, o);
    orc_sub(P[1], b, o);
    orc_sub(P[2], c, o);
    for (i = 0; i < 3; i++) {
        len[i] = orc_len(P[i]);
        pmax = len[i] > pmax ? len[i] : pmax;
    }
    for (i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        orc_cross(x, P[j], P[k]);
        E[i] = orc_dot(d, x);
        band[i] = ORC_RAY_K * ORC_FLT_EPS * dl * len[j] * len[k];
        if (orc_abs(E[i]) <= band[i])
            near_edge = true;
        else
            all_near = false;
    }
    orc_sub(e1, b, a);
    orc_sub(e2, c, a);
    orc_cross(n, e1, e2);
    nn = orc_len(n);
    if (nn == 0.0) /* degenerate: never hit; fragile when the ray runs along it */
        return make_hit(false, all_near, ORC_NO_T, 0.0, 0.0);

    det = E[0] + E[1] + E[2]; /* = d . n */
    inside = det != 0.0 && ((E[0] >= 0.0 && E[1] >= 0.0 && E[2] >= 0.0) || (E[0] <= 0.0 && E[1] <= 0.0 && E[2] <= 0.0));
    dn = orc_dot(n, d);
    parallel = orc_abs(dn) <= ORC_RAY_K * ORC_FLT_EPS * cond * nn * dl;
    t = dn != 0.0 ? orc_dot(n, P[0]) / dn : ORC_NO_T;
    /* origin or end point within the band of the plane: t = 0 or t = t_max is undecided */
    near_start = orc_abs(orc_dot(n, P[0])) / nn <= ORC_RAY_K * ORC_FLT_EPS * cond * pmax;
    near_end = false;
    if (t_max < 1e300) {
        double end_off = orc_dot(n, P[0]) - t_max * dn;
        near_end = orc_abs(end_off) / nn <= ORC_RAY_K * ORC_FLT_EPS * cond * (pmax + t_max * dl);
    }
    in_range = dn != 0.0 && t >= 0.0 && t <= t_max;
    {
        bool hit = inside && in_range;
        bool fragile = ((inside || near_edge) && (parallel || near_start || near_end)) ||
                       (near_edge && (in_range || near_start || near_end));
        double u = det != 0.0 ? E[1] / det : 0.0, v = det != 0.0 ? E[2] / det : 0.0;
        return make_hit(hit, fragile, t, u, v);
    }
}

static double cross2(const double *a, const double *b)
{
    return a[0] * b[1] - a[1] * b[0];
}

/* Distance from point p to the ray's segment o + t d, t in [0, t_max]; *t_at is the closest t. */
static double point_ray_dist(const double *p, const double *o, const double *d, double t_max, double *t_at)
{
    double w[2], dd = d[0] * d[0] + d[1] * d[1], t, q[3];
    w[0] = p[0] - o[0];
    w[1] = p[1] - o[1];
    t = dd > 0.0 ? (w[0] * d[0] + w[1] * d[1]) / dd : 0.0;
    t = t < 0.0 ? 0.0 : (t > t_max ? t_max : t);
    q[0] = o[0] + d[0] * t;
    q[1] = o[1] + d[1] * t;
    q[2] = p[2];
    *t_at = t;
    return orc_dist(p, q);
}

/* First t in [0, t_max] where the 2D ray meets the closed segment [p, q], or a negative value. */
static double ray_segment2(const double *o, const double *d, double t_max, const double *p, const double *q)
{
    double e[2], w[2], denom;
    e[0] = q[0] - p[0];
    e[1] = q[1] - p[1];
    w[0] = p[0] - o[0];
    w[1] = p[1] - o[1];
    denom = cross2(d, e);
    if (denom != 0.0) {
        double t = cross2(w, e) / denom, s = cross2(w, d) / denom;
        return (t >= 0.0 && t <= t_max && s >= 0.0 && s <= 1.0) ? t : -1.0;
    }
    if (cross2(w, d) == 0.0) { /* collinear: where the ray reaches the nearer end, or 0 inside */
        double dd = d[0] * d[0] + d[1] * d[1];
        double tp = (w[0] * d[0] + w[1] * d[1]) / dd;
        double tq = ((q[0] - o[0]) * d[0] + (q[1] - o[1]) * d[1]) / dd;
        double lo = tp < tq ? tp : tq, hi = tp < tq ? tq : tp;
        if (hi >= 0.0 && lo <= t_max)
            return lo > 0.0 ? lo : 0.0;
    }
    return -1.0;
}

static double boundary_dist(const double *p, const double *const v[3])
{
    double q[3], best = -1.0;
    int i;
    for (i = 0; i < 3; i++) {
        double dd = orc_closest_segment(p, v[i], v[(i + 1) % 3], q);
        if (best < 0.0 || dd < best)
            best = dd;
    }
    return best;
}

double orc_signed_distance2(const double *p, const double *a, const double *b, const double *c)
{
    const double *v[3];
    double p3[3], ab[2], ac[2], s[3];
    int i;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    p3[0] = p[0];
    p3[1] = p[1];
    p3[2] = 0.0;
    ab[0] = b[0] - a[0];
    ab[1] = b[1] - a[1];
    ac[0] = c[0] - a[0];
    ac[1] = c[1] - a[1];
    for (i = 0; i < 3; i++) {
        double e[2], r[2];
        e[0] = v[(i + 1) % 3][0] - v[i][0];
        e[1] = v[(i + 1) % 3][1] - v[i][1];
        r[0] = p[0] - v[i][0];
        r[1] = p[1] - v[i][1];
        s[i] = cross2(e, r);
    }
    if (cross2(ab, ac) != 0.0 &&
        ((s[0] >= 0.0 && s[1] >= 0.0 && s[2] >= 0.0) || (s[0] <= 0.0 && s[1] <= 0.0 && s[2] <= 0.0)))
        return -boundary_dist(p3, v);
    return boundary_dist(p3, v);
}

orc_hit orc_ray_triangle2(const double *o, const double *d, double t_max, const double *a, const double *b,
                          const double *c, double band)
{
    const double *v[3];
    double ab[2], ac[2], area, t = -1.0, u = 0.0, w = 0.0, o3[3], end[3], t_at, t_graze = -1.0;
    bool hit = false, fragile;
    int i;
    v[0] = a;
    v[1] = b;
    v[2] = c;
    ab[0] = b[0] - a[0];
    ab[1] = b[1] - a[1];
    ac[0] = c[0] - a[0];
    ac[1] = c[1] - a[1];
    area = cross2(ab, ac);
    if (area != 0.0) {
        double s[3];
        for (i = 0; i < 3; i++) {
            double e[2], r[2];
            e[0] = v[(i + 1) % 3][0] - v[i][0];
            e[1] = v[(i + 1) % 3][1] - v[i][1];
            r[0] = o[0] - v[i][0];
            r[1] = o[1] - v[i][1];
            s[i] = cross2(e, r);
        }
        if ((s[0] >= 0.0 && s[1] >= 0.0 && s[2] >= 0.0) || (s[0] <= 0.0 && s[1] <= 0.0 && s[2] <= 0.0)) {
            hit = true;
            t = 0.0;
        }
    }
    if (!hit) {
        for (i = 0; i < 3; i++) {
            double te = ray_segment2(o, d, t_max, v[i], v[(i + 1) % 3]);
            if (te >= 0.0 && (!hit || te < t)) {
                t = te;
                hit = true;
            }
        }
    }
    /* fragile: an end of the ray near the boundary, or a corner near the ray */
    o3[0] = o[0];
    o3[1] = o[1];
    o3[2] = 0.0;
    fragile = boundary_dist(o3, v) <= band;
    if (fragile)
        t_graze = 0.0;
    if (t_max < 1e300) {
        end[0] = o[0] + d[0] * t_max;
        end[1] = o[1] + d[1] * t_max;
        end[2] = 0.0;
        if (boundary_dist(end, v) <= band) {
            fragile = true;
            if (t_graze < 0.0)
                t_graze = t_max;
        }
    }
    for (i = 0; i < 3; i++) {
        if (point_ray_dist(v[i], o, d, t_max, &t_at) <= band) {
            fragile = true;
            if (t_graze < 0.0 || t_at < t_graze)
                t_graze = t_at;
        }
    }
    if (hit && area != 0.0) {
        double x[2];
        x[0] = o[0] + d[0] * t - a[0];
        x[1] = o[1] + d[1] * t - a[1];
        u = cross2(x, ac) / area;
        w = cross2(ab, x) / area;
    }
    return make_hit(hit, fragile, hit ? t : t_graze, u, w);
}

/* Slab test, closed, entering: t = max(0, the slabs' entries), also when it misses. */
static bool slab(const double *o, const double *d, double t_max, const double *bmin, const double *bmax, unsigned dim,
                 double *t_enter)
{
    double tn = 0.0, tf = t_max;
    bool inside_planes = true;
    unsigned a;
    for (a = 0; a < dim; a++) {
        if (d[a] == 0.0) {
            if (o[a] < bmin[a] || o[a] > bmax[a])
                inside_planes = false;
        } else {
            double t0 = (bmin[a] - o[a]) / d[a], t1 = (bmax[a] - o[a]) / d[a];
            if (t0 > t1) {
                double s = t0;
                t0 = t1;
                t1 = s;
            }
            tn = t0 > tn ? t0 : tn;
            tf = t1 < tf ? t1 : tf;
        }
    }
    *t_enter = tn < t_max ? tn : t_max;
    return inside_planes && tn <= tf;
}

/* Fragile when growing the box by the band would make a miss a hit, or shrinking it a hit a
 * miss. A box thinner than the band on two axes (a point, or a segment in 3D) is only ever
 * hit on its boundary. */
orc_hit orc_ray_box(const double *o, const double *d, double t_max, const double *bmin, const double *bmax,
                    unsigned dim, double band)
{
    double gmin[3], gmax[3], smin[3], smax[3], t = 0.0, tg = 0.0, ts = 0.0;
    bool hit, grown, shrunk;
    unsigned a, thin = 0;
    for (a = 0; a < 3; a++) {
        double mid = 0.5 * (bmin[a] + bmax[a]);
        gmin[a] = bmin[a] - band;
        gmax[a] = bmax[a] + band;
        smin[a] = bmin[a] + band < mid ? bmin[a] + band : mid;
        smax[a] = bmax[a] - band > mid ? bmax[a] - band : mid;
        if (a < dim && bmax[a] - bmin[a] <= 2.0 * band)
            thin++;
    }
    hit = slab(o, d, t_max, bmin, bmax, dim, &t);
    grown = slab(o, d, t_max, gmin, gmax, dim, &tg);
    shrunk = thin < 2u && slab(o, d, t_max, smin, smax, dim, &ts);
    if (hit)
        return make_hit(true, !shrunk, t, 0.0, 0.0);
    return make_hit(false, grown, t, 0.0, 0.0);
}

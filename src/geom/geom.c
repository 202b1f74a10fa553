/* SPDX-License-Identifier: MIT */
/* The larger primitive tests of geom_internal.h. */
#include "geom_internal.h"

/* out = the corner v; returns |p - v|^2. */
static float corner_closest(float *out, const float *p, const float *v)
{
    out[0] = v[0];
    out[1] = v[1];
    out[2] = v[2];
    return geo_dist_sq3(out, p);
}

float copse_geo_triangle_closest(float *out, const float *p, const float *a, const float *b, const float *c)
{
    float ab[3], ac[3], ap[3], bp[3], cp[3];
    float d1, d2, d3, d4, d5, d6, va, vb, vc, sum;
    int k;

    /* The corner regions first, each from two dot products (Ericson's order): p behind a
     * corner along both its edges has that corner nearest, degenerate triangle or not. */
    geo_sub3(ab, b, a);
    geo_sub3(ac, c, a);
    geo_sub3(ap, p, a);
    d1 = geo_dot3(ab, ap);
    d2 = geo_dot3(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f)
        return corner_closest(out, p, a);
    geo_sub3(bp, p, b);
    d3 = geo_dot3(ab, bp);
    d4 = geo_dot3(ac, bp);
    if (d3 >= 0.0f && d4 <= d3)
        return corner_closest(out, p, b);
    geo_sub3(cp, p, c);
    d5 = geo_dot3(ab, cp);
    d6 = geo_dot3(ac, cp);
    if (d6 >= 0.0f && d5 <= d6)
        return corner_closest(out, p, c);
    va = d3 * d6 - d5 * d4;
    vb = d5 * d2 - d1 * d6;
    vc = d1 * d4 - d3 * d2;
    sum = va + vb + vc; /* |ab x ac|^2 in exact arithmetic: 0 for a degenerate triangle */

    if (sum > 0.0f && geo_finite(sum)) {
        if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
            float v = d1 / (d1 - d3); /* d1 - d3 = |ab|^2 > 0 */
            for (k = 0; k < 3; k++)
                out[k] = a[k] + ab[k] * v;
        } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
            float w = d2 / (d2 - d6); /* d2 - d6 = |ac|^2 > 0 */
            for (k = 0; k < 3; k++)
                out[k] = a[k] + ac[k] * w;
        } else if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
            float w = (d4 - d3) / ((d4 - d3) + (d5 - d6)); /* sum = |bc|^2 > 0 */
            for (k = 0; k < 3; k++)
                out[k] = b[k] + (c[k] - b[k]) * w;
        } else {
            float v = vb / sum, w = vc / sum;
            for (k = 0; k < 3; k++)
                out[k] = a[k] + ab[k] * v + ac[k] * w;
        }
        return geo_dist_sq3(out, p);
    }

    /* Degenerate (a segment or a point): the closest of the three edges. */
    {
        float q[3], best;
        geo_segment_closest(out, p, a, b);
        best = geo_dist_sq3(out, p);
        geo_segment_closest(q, p, b, c);
        if (geo_dist_sq3(q, p) < best) {
            best = geo_dist_sq3(q, p);
            for (k = 0; k < 3; k++)
                out[k] = q[k];
        }
        geo_segment_closest(q, p, c, a);
        if (geo_dist_sq3(q, p) < best) {
            best = geo_dist_sq3(q, p);
            for (k = 0; k < 3; k++)
                out[k] = q[k];
        }
        return best;
    }
}

/* Does the axis separate the projection [min(p, q), max(p, q)] from the box's [-r, r]? */
COPSE_INLINE bool separated2(float p, float q, float r)
{
    return geo_min(p, q) > r || geo_max(p, q) < -r;
}

COPSE_INLINE bool corner_inside(const geo_tri_box *q, const float *p)
{
    return p[0] >= q->min[0] && p[0] <= q->max[0] && p[1] >= q->min[1] && p[1] <= q->max[1] &&
           p[2] >= q->min[2] && p[2] <= q->max[2];
}

bool copse_geo_triangle_box(const geo_tri_box *q, const float *a, const float *b, const float *c)
{
    const float *h = q->half;
    float v0[3], v1[3], v2[3], e[3][3], n[3];
    bool inside = true;
    int k, i;

    /* the box's face normals: the triangle's bounds against the box, exactly */
    for (k = 0; k < 3; k++) {
        float lo = geo_min(a[k], geo_min(b[k], c[k]));
        float hi = geo_max(a[k], geo_max(b[k], c[k]));
        if (lo > q->max[k] || hi < q->min[k])
            return false;
        inside = inside && lo >= q->min[k] && hi <= q->max[k];
    }
    if (inside || corner_inside(q, a) || corner_inside(q, b) || corner_inside(q, c))
        return true;
    for (k = 0; k < 3; k++) {
        v0[k] = a[k] - q->ctr[k];
        v1[k] = b[k] - q->ctr[k];
        v2[k] = c[k] - q->ctr[k];
    }
    geo_sub3(e[0], v1, v0);
    geo_sub3(e[1], v2, v1);
    geo_sub3(e[2], v0, v2);
    /* the triangle's plane: one axis, and the one that parts a box from a triangle lying along
     * its face (mesh walks near contact), so before the nine */
    geo_cross3(n, e[0], e[1]);
    {
        float d = geo_dot3(n, v0);
        float r = h[0] * copse_fabsf(n[0]) + h[1] * copse_fabsf(n[1]) + h[2] * copse_fabsf(n[2]);
        if (d > r || d < -r)
            return false;
    }
    /* the nine edge x axis directions: axis = unit_k x edge. Both ends of the edge project to
     * the same point, so each axis needs only its start and the opposite corner. */
    for (i = 0; i < 3; i++) {
        const float *f = e[i], *s = i == 0 ? v0 : (i == 1 ? v1 : v2), *o = i == 0 ? v2 : (i == 1 ? v0 : v1);
        /* x cross f = (0, -f.z, f.y) */
        if (separated2(-f[2] * s[1] + f[1] * s[2], -f[2] * o[1] + f[1] * o[2],
                       h[1] * copse_fabsf(f[2]) + h[2] * copse_fabsf(f[1])))
            return false;
        /* y cross f = (f.z, 0, -f.x) */
        if (separated2(f[2] * s[0] - f[0] * s[2], f[2] * o[0] - f[0] * o[2],
                       h[0] * copse_fabsf(f[2]) + h[2] * copse_fabsf(f[0])))
            return false;
        /* z cross f = (-f.y, f.x, 0) */
        if (separated2(-f[1] * s[0] + f[0] * s[1], -f[1] * o[0] + f[0] * o[1],
                       h[0] * copse_fabsf(f[1]) + h[1] * copse_fabsf(f[0])))
            return false;
    }
    return true;
}

bool copse_geo_triangle_box_overlap(const float *bmin, const float *bmax, const float *a, const float *b,
                                    const float *c)
{
    geo_tri_box q;
    geo_tri_box_init(&q, bmin, bmax);
    return copse_geo_triangle_box(&q, a, b, c);
}

COPSE_INLINE float cross2(const float *a, const float *b)
{
    return a[0] * b[1] - a[1] * b[0];
}

/* Which side of the ray's line p lies on (0: on it). */
COPSE_INLINE float ray_side2(const geo_ray *r, const float *p)
{
    float w[2];
    w[0] = p[0] - r->org[0];
    w[1] = p[1] - r->org[1];
    return cross2(r->dir, w);
}

/* The largest |component| of a 2D direction; dir / it has components in [-1, 1], one of
 * them exactly +-1, so the products below neither overflow nor underflow through it. */
COPSE_INLINE float dir2_scale(const float *dir)
{
    return geo_max(copse_fabsf(dir[0]), copse_fabsf(dir[1]));
}

/* Where the ray's line meets the line through p and q, for coordinates whose differences or
 * products overflow float: the coordinates scaled by 2^-66 (the largest cross product of
 * their differences is then below FLT_MAX / 2) and the direction by its largest component;
 * t = (w x e) / (dir x e) gets both scales back at the end. Measured from the end nearer the
 * origin, since the products from a far end cancel (found by fuzz_bvh_build: edges ~3e38
 * long gave t = 0, a hit at the origin, for rays starting outside the triangle). */
static float ray_segment2_t_wide(const geo_ray *r, const float *p, const float *q)
{
    const float s = 0x1p-66f, m = dir2_scale(r->dir);
    const float ex = q[0] * s - p[0] * s, ey = q[1] * s - p[1] * s;
    const float px = p[0] * s - r->org[0] * s, py = p[1] * s - r->org[1] * s;
    const float qx = q[0] * s - r->org[0] * s, qy = q[1] * s - r->org[1] * s;
    const bool p_near = copse_fabsf(px) + copse_fabsf(py) <= copse_fabsf(qx) + copse_fabsf(qy);
    const float wx = p_near ? px : qx, wy = p_near ? py : qy;
    float x, t;
    if (!(m > 0.0f))
        return -1.0f;
    x = (wx * ey - wy * ex) / ((r->dir[0] / m) * ey - (r->dir[1] / m) * ex); /* t * m * s */
    t = m >= 1.0f ? (x / m) * 0x1p66f : (x * 0x1p66f) / m;
    return t >= 0.0f && t <= FLT_MAX ? t : -1.0f; /* NaN, behind, out of range: no hit */
}

/* The ray parameter of the point on its line nearest p when dir . dir overflows or underflows
 * float (a direction beyond ~1e19; found by fuzz_bvh_build: a point-triangle on the ray
 * reported at t = 0): the direction scaled by its largest component, the offset by 1/8. */
static float ray_param2_wide(const geo_ray *r, const float *p)
{
    const float m = dir2_scale(r->dir);
    float ux, uy, wx, wy, x, t;
    if (!(m > 0.0f))
        return 0.0f;
    ux = r->dir[0] / m;
    uy = r->dir[1] / m;
    wx = p[0] * 0.125f - r->org[0] * 0.125f;
    wy = p[1] * 0.125f - r->org[1] * 0.125f;
    x = (wx * ux + wy * uy) / (ux * ux + uy * uy); /* t * m / 8 */
    t = m >= 1.0f ? (x / m) * 8.0f : (x * 8.0f) / m;
    return t > FLT_MAX ? FLT_MAX : t < -FLT_MAX ? -FLT_MAX : t;
}

/* The ray parameter of the point on the ray's line nearest p, scaled down when the float
 * terms overflow. */
static float ray_param2(const geo_ray *r, const float *p)
{
    const float dd = r->dir[0] * r->dir[0] + r->dir[1] * r->dir[1];
    const float t = ((p[0] - r->org[0]) * r->dir[0] + (p[1] - r->org[1]) * r->dir[1]) / dd;
    return geo_finite(dd) && geo_finite(t) ? t : ray_param2_wide(r, p);
}

/* Lowers *t to the first t in [0, t_max] where the 2D ray meets segment [p, q], if it does.
 * sp, sq: the ends' sides of the ray (ray_side2); the line crosses the segment where they differ. */
static bool ray_segment2(const geo_ray *r, const float *p, const float *q, float sp, float sq, float t_max,
                         float *t_io)
{
    float t = FLT_MAX;
    bool hit = false;
    float e[2], w[2], denom;
    e[0] = q[0] - p[0];
    e[1] = q[1] - p[1];
    w[0] = p[0] - r->org[0];
    w[1] = p[1] - r->org[1];
    denom = cross2(r->dir, e);
    if (sp != 0.0f && sq != 0.0f) {
        if (((sp < 0.0f && sq > 0.0f) || (sp > 0.0f && sq < 0.0f)) && denom != 0.0f) {
            /* measured from the end nearer the origin: from the far end of a long edge the
             * products cancel (fuzz_bvh_build: w = -e exactly, t = 0, for a ray that starts
             * outside the triangle and enters it at t = 1.26) */
            float wq[2], num;
            wq[0] = q[0] - r->org[0];
            wq[1] = q[1] - r->org[1];
            num = copse_fabsf(wq[0]) + copse_fabsf(wq[1]) < copse_fabsf(w[0]) + copse_fabsf(w[1]) ? cross2(wq, e)
                                                                                              : cross2(w, e);
            if (geo_finite(num) && geo_finite(denom) && geo_finite(e[0]) && geo_finite(e[1]))
                t = num / denom;
            else /* coordinates near FLT_MAX overflow the products (inf / inf, x / inf = 0): scaled */
                t = ray_segment2_t_wide(r, p, q);
            hit = t >= 0.0f && t <= t_max;
        }
    } else if (sp != 0.0f || sq != 0.0f) {
        /* one end on the ray's line: the ray meets the segment there. Its own parameter, not
         * the crossing formula, whose products cancel to 0 (fuzz_bvh_build: t = -0 for a ray
         * passing a corner at t = 0.0234) */
        t = ray_param2(r, sp == 0.0f ? p : q);
        hit = t >= 0.0f && t <= t_max;
    } else { /* collinear: the nearer end in front, or 0 if inside */
        float dd = r->dir[0] * r->dir[0] + r->dir[1] * r->dir[1];
        float tp = ray_param2(r, p), tq = ray_param2(r, q), lo, hi;
        lo = geo_min(tp, tq);
        hi = geo_max(tp, tq);
        t = geo_max(lo, 0.0f);
        hit = dd > 0.0f && hi >= 0.0f && lo <= t_max;
    }
    if (hit && t < *t_io)
        *t_io = t + 0.0f; /* + 0: never -0 */
    return hit;
}

bool copse_geo_point_in_triangle2(const float *p, const float *a, const float *b, const float *c)
{
    float ab[2], bc[2], ca[2], pa[2], pb[2], pc[2], d1, d2, d3;
    unsigned k;
    /* Outside the corners' bounds is outside, exactly. The edge products below round: with
     * corners near 7e10 a point 90 units off an edge read as on it (fuzz_bvh_build: a 2D ray
     * from outside the triangle's bounds reported at t = 0 by the all-hits walk, whose
     * first-hit twin pruned the node by its box). */
    for (k = 0; k < 2u; k++)
        if (p[k] < geo_min(a[k], geo_min(b[k], c[k])) || p[k] > geo_max(a[k], geo_max(b[k], c[k])))
            return false;
    ab[0] = b[0] - a[0];
    ab[1] = b[1] - a[1];
    bc[0] = c[0] - b[0];
    bc[1] = c[1] - b[1];
    ca[0] = a[0] - c[0];
    ca[1] = a[1] - c[1];
    pa[0] = p[0] - a[0];
    pa[1] = p[1] - a[1];
    pb[0] = p[0] - b[0];
    pb[1] = p[1] - b[1];
    pc[0] = p[0] - c[0];
    pc[1] = p[1] - c[1];
    d1 = cross2(ab, pa);
    d2 = cross2(bc, pb);
    d3 = cross2(ca, pc);
    return cross2(ab, ca) != 0.0f &&
           ((d1 >= 0.0f && d2 >= 0.0f && d3 >= 0.0f) || (d1 <= 0.0f && d2 <= 0.0f && d3 <= 0.0f));
}

bool copse_geo_ray_triangle2(const geo_ray *r, const float *a, const float *b, const float *c, float t_max,
                             float *t_out, float *u_out, float *v_out)
{
    float ab[2], ac[2], x[2], ax[2], area, t;
    bool hit = false;
    ab[0] = b[0] - a[0];
    ab[1] = b[1] - a[1];
    ac[0] = c[0] - a[0];
    ac[1] = c[1] - a[1];
    area = cross2(ab, ac);
    t = FLT_MAX;
    if (copse_geo_point_in_triangle2(r->org, a, b, c)) {
        t = 0.0f;
        hit = true;
    }
    if (!hit) {
        /* outside: the ray enters through the nearest edge it crosses. Which side of the ray
         * each corner lies on is computed once, so that a ray through a corner crosses one of
         * its two edges however the rounding falls (no entry lost at a corner). */
        float side[3];
        side[0] = ray_side2(r, a);
        side[1] = ray_side2(r, b);
        side[2] = ray_side2(r, c);
        hit = ray_segment2(r, a, b, side[0], side[1], t_max, &t);
        hit = ray_segment2(r, b, c, side[1], side[2], t_max, &t) || hit;
        hit = ray_segment2(r, c, a, side[2], side[0], t_max, &t) || hit;
        if (!hit)
            return false;
    }
    x[0] = r->org[0] + r->dir[0] * t;
    x[1] = r->org[1] + r->dir[1] * t;
    ax[0] = x[0] - a[0];
    ax[1] = x[1] - a[1];
    *t_out = t;
    *u_out = area != 0.0f ? cross2(ax, ac) / area : 0.0f;
    *v_out = area != 0.0f ? cross2(ab, ax) / area : 0.0f;
    return true;
}

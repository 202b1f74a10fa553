/* SPDX-License-Identifier: MIT */
/*
 * Sweeps under translation (geom_collide.h, "sweeps"): the first t in [0, t_max] at which a
 * moving sphere, capsule or oriented box touches a triangle or a point.
 *
 *  - A sphere against a triangle, and each shape against a point, is a ray against a static
 *    Minkowski sum, in closed form: the triangle's face offset by r, the edges' capsules (a
 *    cylinder, as a disc in the plane across the edge, then the corner balls), a box's slabs.
 *  - A capsule against a triangle: conservative advancement on the exact segment-triangle
 *    distance (closest.c). Under translation the distance of two convex sets is convex in t, and
 *    the separation along any fixed axis is linear in t: a step that closes the separation along
 *    the best axis (the closest direction or a separating-axis candidate) never passes the
 *    contact, and neither does one of gap / speed. Each step aims at half the contact band, which
 *    makes even a grazing contact a simple root; a separation the motion does not close is a miss.
 *  - An oriented box against a triangle: the separating-axis test (the box's 3 axes, the
 *    triangle's normal, the 9 edge cross products) as time intervals; the latest entry is the
 *    contact. Any axis is a valid test, so rounding in an axis can bring the contact early, never
 *    late; advancement from there checks it on the exact distance (no step, in practice) and
 *    gives the point and the normal.
 *
 * Tolerances are relative to the scale of the query: the largest coordinate among the shape at
 * the start, the triangle or point, and the shape's size (COPSE_SWEEP_TOLERANCE's scale also
 * counts the motion, so it is never smaller). A pass that comes within SW_SLACK of contact
 * counts (at its closest approach); contact found by advancement is within SW_CONTACT; both lie
 * inside COPSE_SWEEP_TOLERANCE.
 *
 * The triangle's corners are put in one order first (lexicographic), so that any rotation or
 * reflection of tri[0..2] gives the same bits.
 */
#include "geom_collide.h" /* first: geom_internal.h turns FMA contraction off */

#include <stddef.h>

/* 16 and 48 ulps of the scale: 1.9e-6 and 5.7e-6, inside COPSE_SWEEP_TOLERANCE (1e-5, about 84
 * ulps; copse/collide.h) */
#define SW_SLACK (16.0f * FLT_EPSILON)
#define SW_CONTACT (48.0f * FLT_EPSILON)
#define SW_MAX_STEPS 64u

COPSE_INLINE float sw_max_abs3(const float *v)
{
    return geo_max(copse_fabsf(v[0]), geo_max(copse_fabsf(v[1]), copse_fabsf(v[2])));
}

COPSE_INLINE void sw_copy3(float *out, const float *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

/* out = a + s * d */
COPSE_INLINE void sw_madd3(float *out, const float *a, float s, const float *d)
{
    out[0] = a[0] + s * d[0];
    out[1] = a[1] + s * d[1];
    out[2] = a[2] + s * d[2];
}

/* A power of two f with m f in [1, 4) (m > 0 finite; 1 for 0). Scaling by it is exact: it keeps
 * the squares of cross products (fourth powers of coordinates, up to the 1e19 of geom_collide.h)
 * in range. */
static float sw_pow2_inv(float m)
{
    union {
        float f;
        uint32_t u;
    } x;
    uint32_t e;
    x.f = m;
    e = x.u >> 23 & 0xffu; /* m's biased exponent: m in [2^(e-127), 2^(e-126)) */
    if (m == 0.0f || e == 255u)
        return 1.0f;
    e = e == 0u ? 253u : (e >= 254u ? 1u : 254u - e);
    x.u = e << 23;
    return x.f;
}

/* a scaled by a power of two to its largest component in [1, 4) (exact; 0 stays 0) */
COPSE_INLINE void sw_pow2_normalize(float *a)
{
    const float f = sw_pow2_inv(sw_max_abs3(a));
    a[0] *= f;
    a[1] *= f;
    a[2] *= f;
}

/* a / |a| into out when |a| > min_len; false (out untouched) otherwise. */
static bool sw_unit(float *out, const float *a, float min_len)
{
    float b[3], f = sw_pow2_inv(sw_max_abs3(a)), l;
    b[0] = a[0] * f;
    b[1] = a[1] * f;
    b[2] = a[2] * f;
    l = copse_sqrtf(geo_dot3(b, b));
    if (!(l > 0.0f) || !(l / f > min_len))
        return false;
    out[0] = b[0] / l;
    out[1] = b[1] / l;
    out[2] = b[2] / l;
    return true;
}

/* The normal when contact leaves no direction of its own (the shape's core on the primitive):
 * back along the motion, with its part along `along` (an edge's direction, or NULL) removed, and
 * when that leaves nothing, `face` (or +z). */
static void sw_fallback_normal(float *n, const float *v, const float *along, const float *face)
{
    float d[3];
    d[0] = -v[0];
    d[1] = -v[1];
    d[2] = -v[2];
    if (along != NULL) {
        float aa = geo_dot3(along, along);
        if (aa > 0.0f)
            sw_madd3(d, d, -geo_dot3(d, along) / aa, along);
    }
    if (sw_unit(n, d, 0.0f))
        return;
    if (face != NULL) {
        sw_copy3(n, face);
        return;
    }
    n[0] = n[1] = 0.0f;
    n[2] = 1.0f;
}

/* L = (unit axis k) x e, exactly: one component zero, the others e's, one negated. */
COPSE_INLINE void sw_axis_cross(float *L, unsigned k, const float *e)
{
    const unsigned k1 = k == 2u ? 0u : k + 1u, k2 = k1 == 2u ? 0u : k1 + 1u;
    L[k] = 0.0f;
    L[k1] = -e[k2];
    L[k2] = e[k1];
}

/* ---- the triangle in one order ------------------------------------------------------------- */

static bool sw_before(const float *p, const float *q)
{
    if (p[0] != q[0])
        return p[0] < q[0];
    if (p[1] != q[1])
        return p[1] < q[1];
    return p[2] < q[2];
}

static void sw_sort3(const float **t, const float *const tri[3])
{
    const float *x;
    t[0] = tri[0];
    t[1] = tri[1];
    t[2] = tri[2];
    if (sw_before(t[1], t[0])) {
        x = t[0];
        t[0] = t[1];
        t[1] = x;
    }
    if (sw_before(t[2], t[1])) {
        x = t[1];
        t[1] = t[2];
        t[2] = x;
        if (sw_before(t[1], t[0])) {
            x = t[0];
            t[0] = t[1];
            t[1] = x;
        }
    }
}

/* The scale of a query: the largest coordinate of the start, of the (up to four) fixed points,
 * and `size`. Not of the motion: a contact happens where the shape meets the primitive, among
 * these coordinates, and a closest approach m + t v is no larger than m; a long motion costs
 * resolution in t, not in the gaps measured. */
static float sw_scale(const float *start, const float *const *pts, unsigned n, float size)
{
    float s = geo_max(sw_max_abs3(start), size);
    unsigned i;
    for (i = 0; i < n; i++)
        s = geo_max(s, sw_max_abs3(pts[i]));
    return s;
}

/* ---- rays against balls and capsules ------------------------------------------------------- */

/* The first t in [0, t_max] at which |m + t d| <= r: 0 when it starts within r + slack; a pass
 * that comes within r + slack counts (at its closest approach when it reaches no deeper than
 * the slack). The closest approach is measured from the perpendicular offset, not from
 * b^2 - a c, which cancels. */
static bool sw_ray_ball(const float *m, const float *d, float r, float slack, float t_max, float *t)
{
    const float rs = r + slack;
    float a, b, tc, h[3], h2, s;
    if (geo_dot3(m, m) <= rs * rs) {
        *t = 0.0f;
        return true;
    }
    b = geo_dot3(m, d);
    if (!(b < 0.0f))
        return false; /* moving away, or not moving */
    a = geo_dot3(d, d);
    tc = -b / a;
    if (!(tc <= FLT_MAX))
        return false; /* a motion too small to square: it never gets there */
    sw_madd3(h, m, tc, d);
    h2 = geo_dot3(h, h);
    if (h2 > rs * rs)
        return false;
    /* Entering deeper than the slack: at the entry. Within it (a grazing pass), at the closest
     * approach: there the entry is ill-conditioned (a square root of a difference of rounded
     * squares) and the normal is the tangent's, while the closest approach is neither. */
    s = r * r - h2;
    if (s > 0.0f && r - copse_sqrtf(h2) > slack)
        tc -= copse_sqrtf(s / a);
    tc = geo_max(tc, 0.0f);
    if (tc > t_max) { /* the range ends first: a hit still if it ends within the slack */
        sw_madd3(h, m, t_max, d);
        if (!(geo_dot3(h, h) <= rs * rs))
            return false;
        tc = t_max;
    }
    *t = tc;
    return true;
}

/* The first t in [0, t_max] at which o + t d comes within r of the segment [s0, s1]: its side
 * (the ray in the plane across the segment against a disc, kept where the contact lies along the
 * segment), then the end balls flagged in `ends` (bit 0: s0, bit 1: s1). */
static bool sw_ray_capsule(const float *o, const float *d, const float *s0, const float *s1, float r, float slack,
                           float t_max, unsigned ends, float *t)
{
    float e[3], m[3], ee, tt;
    bool hit = false;
    geo_sub3(e, s1, s0);
    geo_sub3(m, o, s0);
    ee = geo_dot3(e, e);
    if (ee > 0.0f) {
        float me = geo_dot3(m, e) / ee, de = geo_dot3(d, e) / ee, mp[3], dp[3];
        sw_madd3(mp, m, -me, e);
        sw_madd3(dp, d, -de, e);
        if (sw_ray_ball(mp, dp, r, slack, t_max, &tt)) {
            float uu = me + tt * de;
            if (uu >= 0.0f && uu <= 1.0f) {
                *t = tt;
                hit = true;
            }
        }
    }
    if ((ends & 1u) && sw_ray_ball(m, d, r, slack, t_max, &tt) && (!hit || tt < *t)) {
        *t = tt;
        hit = true;
    }
    if (ends & 2u) {
        geo_sub3(m, o, s1);
        if (sw_ray_ball(m, d, r, slack, t_max, &tt) && (!hit || tt < *t)) {
            *t = tt;
            hit = true;
        }
    }
    return hit;
}

/* ---- sphere against triangle --------------------------------------------------------------- */

/* The unit normal of the triangle, from the two edges at the corner opposite the longest (the
 * best-conditioned cross product), in the orientation of t[0], t[1], t[2]. False when it has no
 * area in float. */
static bool sw_tri_normal(const float *const *t, float *n)
{
    float e[3][3], l[3], x[3];
    unsigned i, k;
    for (i = 0; i < 3u; i++) {
        geo_sub3(e[i], t[i == 2u ? 0u : i + 1u], t[i]); /* e[i]: t[i] -> t[i+1] */
        l[i] = geo_dot3(e[i], e[i]);
    }
    /* the longest edge is e[i]; the corner opposite it is t[i+2], between e[i+1] and e[i+2] */
    i = l[0] >= l[1] ? (l[0] >= l[2] ? 0u : 2u) : (l[1] >= l[2] ? 1u : 2u);
    k = i == 2u ? 0u : i + 1u;
    geo_cross3(x, e[k], e[k == 2u ? 0u : k + 1u]);
    return sw_unit(n, x, 0.0f);
}

/* The sphere against the triangle's face offset by r (unit normal n): the time it reaches the
 * offset plane on the side it comes from (0 when within r + slack of the plane, t_max when it
 * ends within that), kept when it is then over the triangle. q: scratch. */
static COPSE_NOINLINE bool sw_sphere_face(const float *c, float r, const float *v, const float *const *t,
                                          const float *n, float slack, float t_max, float *tf, float *q)
{
    float cp[3], s0, nv, tt = -1.0f;
    unsigned i;
    geo_sub3(cp, c, t[0]);
    s0 = geo_dot3(n, cp);
    nv = geo_dot3(n, v);
    if (copse_fabsf(s0) <= r + slack)
        tt = 0.0f;
    else if (s0 > 0.0f ? nv < 0.0f : nv > 0.0f)
        tt = (copse_fabsf(s0) - r) / copse_fabsf(nv);
    if (tt > t_max && copse_fabsf(s0 + t_max * nv) <= r + slack)
        tt = t_max;
    if (!(tt >= 0.0f && tt <= t_max))
        return false;
    sw_madd3(q, c, tt, v);
    for (i = 0; i < 3u; i++) { /* over the triangle: on the inner side of each edge */
        float e[3], w[3], x[3];
        geo_sub3(e, t[i == 2u ? 0u : i + 1u], t[i]);
        geo_sub3(w, q, t[i]);
        geo_cross3(x, e, w);
        if (geo_dot3(x, n) < 0.0f)
            return false;
    }
    *tf = tt;
    return true;
}

bool copse_geo_sweep_sphere_triangle(const float *c, float r, const float *v, const float *const tri[3], float t_max,
                                     float *t_hit, float *point, float *normal)
{
    const float *t[3];
    float n[3], q[3], slack, best = t_max, tt;
    bool has_face, hit = false;
    unsigned i;
    sw_sort3(t, tri);
    slack = SW_SLACK * sw_scale(c, t, 3, r);
    has_face = sw_tri_normal(t, n);
    if (has_face && sw_sphere_face(c, r, v, t, n, slack, t_max, &tt, q)) {
        best = tt;
        hit = true;
    }
    for (i = 0; i < 3u; i++) { /* each edge's capsule, with the ball at its first corner */
        if (sw_ray_capsule(c, v, t[i], t[i == 2u ? 0u : i + 1u], r, slack, best, 1u, &tt) && (!hit || tt < best)) {
            best = tt;
            hit = true;
        }
    }
    if (!hit)
        return false;
    /* The point: the triangle's closest to the centre then, which for a pass that only grazes
     * within the slack need not be on the feature that came within it first; so the normal, from
     * it to the centre, always bounds the triangle. */
    sw_madd3(q, c, best, v);
    (void)copse_geo_point_triangle(q, t, point);
    geo_sub3(q, q, point);
    if (!sw_unit(normal, q, slack)) {
        /* the centre on the triangle (a bare point, or a start inside): the face against the
         * motion, else back along it across the triangle's (segment's) direction */
        float cp[3], s0, e[3];
        if (has_face) {
            geo_sub3(cp, c, t[0]);
            s0 = geo_dot3(n, cp);
            if (s0 < -slack || (s0 <= slack && geo_dot3(n, v) > 0.0f)) {
                n[0] = -n[0];
                n[1] = -n[1];
                n[2] = -n[2];
            }
            sw_copy3(normal, n);
        } else {
            geo_sub3(e, t[2], t[0]); /* sorted: the ends of a segment (or a point) */
            sw_fallback_normal(normal, v, e, NULL);
        }
    }
    *t_hit = best;
    return true;
}

/* ---- shapes against a point ------------------------------------------------------------------ */

bool copse_geo_sweep_sphere_point(const float *c, float r, const float *v, const float *p, float t_max, float *t_hit,
                                  float *normal)
{
    const float *pts[1];
    float m[3], slack, t, q[3];
    pts[0] = p;
    slack = SW_SLACK * sw_scale(c, pts, 1, r);
    geo_sub3(m, c, p);
    if (!sw_ray_ball(m, v, r, slack, t_max, &t))
        return false;
    sw_madd3(q, m, t, v);
    if (!sw_unit(normal, q, slack))
        sw_fallback_normal(normal, v, NULL, NULL);
    *t_hit = t;
    return true;
}

bool copse_geo_sweep_capsule_point(const float *a, const float *b, float r, const float *v, const float *p,
                                   float t_max, float *t_hit, float *normal)
{
    const float *pts[2];
    float d[3], slack, t, core[3], e[3];
    pts[0] = b;
    pts[1] = p;
    slack = SW_SLACK * sw_scale(a, pts, 2, r);
    d[0] = -v[0];
    d[1] = -v[1];
    d[2] = -v[2];
    /* the point moving by -v against the capsule at rest; the normal from the core's point
     * closest to it then (for a pass that grazes within the slack, not always the feature's) */
    if (!sw_ray_capsule(p, d, a, b, r, slack, t_max, 3u, &t))
        return false;
    sw_madd3(d, a, t, v);
    sw_madd3(e, b, t, v);
    geo_segment_closest(core, p, d, e);
    geo_sub3(core, core, p);
    geo_sub3(e, b, a);
    if (!sw_unit(normal, core, slack))
        sw_fallback_normal(normal, v, e, NULL);
    *t_hit = t;
    return true;
}

/* x in the box's frame: R^T x. */
COPSE_INLINE void sw_to_box(const float *rot, const float *x, float *out)
{
    out[0] = rot[0] * x[0] + rot[3] * x[1] + rot[6] * x[2];
    out[1] = rot[1] * x[0] + rot[4] * x[1] + rot[7] * x[2];
    out[2] = rot[2] * x[0] + rot[5] * x[1] + rot[8] * x[2];
}

/* s times the box's axis k (column k of rot), in the frame of the query. */
COPSE_INLINE void sw_box_axis(const float *rot, unsigned k, float s, float *out)
{
    out[0] = rot[k] * s;
    out[1] = rot[3u + k] * s;
    out[2] = rot[6u + k] * s;
}

COPSE_INLINE float sw_box_size(const float *half)
{
    return half[0] + half[1] + half[2];
}

bool copse_geo_sweep_box_point(const float *center, const float *rot, const float *half, const float *v,
                               const float *p, float t_max, float *t_hit, float *normal)
{
    const float *pts[1];
    float x[3], q[3], d[3], slack, t_in = -FLT_MAX, t_wide = 0.0f, t_out = t_max, depth = FLT_MAX;
    unsigned k, axis = 0, axis_wide = 0;
    pts[0] = p;
    slack = SW_SLACK * sw_scale(center, pts, 1, sw_box_size(half));
    /* the point moving by -v against the box at rest, in the box's frame */
    geo_sub3(x, p, center);
    sw_to_box(rot, x, q);
    sw_to_box(rot, v, d);
    for (k = 0; k < 3u; k++) {
        d[k] = -d[k];
        if (d[k] == 0.0f) {
            if (copse_fabsf(q[k]) > half[k] + slack)
                return false;
        } else {
            /* the slab's entry, and the entry and exit of the slab widened by the slack */
            const float sg = d[k] > 0.0f ? 1.0f : -1.0f, hw = half[k] + slack;
            const float t0 = (-sg * half[k] - q[k]) / d[k], t0w = (-sg * hw - q[k]) / d[k];
            const float t1w = (sg * hw - q[k]) / d[k];
            if (t0 > t_in) {
                t_in = t0;
                axis = k;
            }
            if (t0w > t_wide) {
                t_wide = t0w;
                axis_wide = k;
            }
            t_out = geo_min(t_out, t1w);
        }
    }
    /* a hit when the path meets the widened box in [0, t_max]: at its entry into the box itself
     * if that comes first, else where it enters the widened box */
    if (!(t_wide <= t_out))
        return false;
    if (!(t_in <= t_out)) {
        t_in = t_wide;
        axis = axis_wide;
    }
    if (t_in > 0.0f) { /* entered through the face across `axis`: the box lies along d from it */
        sw_box_axis(rot, axis, d[axis] > 0.0f ? 1.0f : -1.0f, normal);
        *t_hit = t_in;
        return true;
    }
    /* inside (or on) at t = 0: toward the box from its nearest face */
    for (k = 0; k < 3u; k++) {
        float dk = half[k] - copse_fabsf(q[k]);
        if (dk < depth) {
            depth = dk;
            axis = k;
        }
    }
    sw_box_axis(rot, axis, q[axis] >= 0.0f ? -1.0f : 1.0f, normal);
    *t_hit = 0.0f;
    return true;
}

/* ---- conservative advancement ---------------------------------------------------------------- */

/* The moving shape of an advancement: a capsule (segment a, b grown by r) in the triangle's frame,
 * or the box [-half, half] at rest with the triangle moving by -v in the box's frame. */
typedef struct sw_mover sw_mover;

/* The closest points (ps on the shape's core, pt on the triangle) of the mover at x (what
 * sw_mover_at gives), and their distance: a pointer, so that each sweep links only its own exact
 * distance kernel. */
typedef float (*sw_dist_fn)(const sw_mover *m, float (*x)[3], float *ps, float *pt);

struct sw_mover {
    const float *a, *b, *half;
    float r;
    const float *v;
    const float *const *tri; /* the capsule's triangle */
    const float (*tl)[3];    /* the box's: the triangle in the box's frame at t = 0 */
    sw_dist_fn dist;
};

/* What moves, at time t: the capsule's core ends (x[0], x[1]), or the triangle's corners. */
static void sw_mover_at(const sw_mover *m, float t, float (*x)[3])
{
    unsigned i;
    if (m->half == NULL) {
        sw_madd3(x[0], m->a, t, m->v);
        sw_madd3(x[1], m->b, t, m->v);
    } else {
        for (i = 0; i < 3u; i++)
            sw_madd3(x[i], m->tl[i], -t, m->v);
    }
}

static float sw_dist_capsule(const sw_mover *m, float (*x)[3], float *ps, float *pt)
{
    return copse_sqrtf(copse_geo_segment_triangle(x[0], x[1], m->tri, ps, pt));
}

static float sw_dist_box(const sw_mover *m, float (*x)[3], float *ps, float *pt)
{
    const float *xt[3];
    xt[0] = x[0];
    xt[1] = x[1];
    xt[2] = x[2];
    return copse_sqrtf(copse_geo_box_triangle(m->half, xt, ps, pt));
}

/* Of the closest direction ps - pt and the separating-axis candidates (capsule: the triangle's
 * normal, the crosses of the core with the edges, and the in-plane normals for a core in the
 * triangle's plane; box: its axes, the triangle's normal, the crosses of its axes with the
 * edges), the one along which the shape lies farthest from the triangle: that separation (the
 * grown shape's; negative when they overlap along every one) and the unit axis, toward the shape.
 *
 * The separation along a fixed axis is a lower bound on the distance and changes linearly under
 * translation, whatever the axis: so it gives advancement steps and misses that are safe even
 * when ps - pt is tilted, as it is when the closest points are ill-conditioned (nearly parallel
 * edges: a pair an ulp longer than the closest can lie far along them). Where the closest pair is
 * a face and a corner, or two edges, a candidate is the exact normal; where it is two corners (or
 * a corner and an edge), ps - pt is, and its error costs separation only to second order. */
static COPSE_NOINLINE float sw_best_axis(const sw_mover *m, float (*x)[3], const float *ps, const float *pt, float *axis)
{
    const bool box = m->half != NULL;
    const float *const *tri = m->tri;
    const float *tp[3];
    float e[3][3], n[3], sd[3], L[3], best = -FLT_MAX;
    unsigned a, i, count = box ? 14u : 9u;
    geo_sub3(sd, x[1], x[0]); /* the capsule's core (unused for a box) */
    if (box) {
        tp[0] = x[0];
        tp[1] = x[1];
        tp[2] = x[2];
        tri = tp;
    }
    for (i = 0; i < 3u; i++)
        geo_sub3(e[i], tri[i == 2u ? 0u : i + 1u], tri[i]);
    geo_cross3(n, e[0], e[1]);
    sw_pow2_normalize(n);
    axis[0] = axis[1] = 0.0f;
    axis[2] = 1.0f;
    for (a = 0; a < count; a++) {
        float lo_s, hi_s, lo_t, hi_t, y, len, sep;
        if (a == 0u) {
            geo_sub3(L, ps, pt);
        } else if (a == 1u) {
            sw_copy3(L, n);
        } else if (!box) {
            if (a < 5u)
                geo_cross3(L, sd, e[a - 2u]);
            else if (a < 8u)
                geo_cross3(L, n, e[a - 5u]);
            else
                geo_cross3(L, n, sd);
        } else if (a < 5u) {
            L[0] = L[1] = L[2] = 0.0f;
            L[a - 2u] = 1.0f;
        } else { /* box axis k x edge j, a = 5 + 3 k + j */
            sw_axis_cross(L, a < 8u ? 0u : (a < 11u ? 1u : 2u), e[a < 8u ? a - 5u : (a < 11u ? a - 8u : a - 11u)]);
        }
        sw_pow2_normalize(L); /* any length will do: one whose square and products stay in range */
        len = copse_sqrtf(geo_dot3(L, L));
        if (!(len > 0.0f))
            continue;
        if (box) {
            hi_s = m->half[0] * copse_fabsf(L[0]) + m->half[1] * copse_fabsf(L[1]) + m->half[2] * copse_fabsf(L[2]);
            lo_s = -hi_s;
        } else {
            lo_s = geo_dot3(x[0], L);
            hi_s = geo_dot3(x[1], L);
            if (hi_s < lo_s) {
                y = lo_s;
                lo_s = hi_s;
                hi_s = y;
            }
        }
        lo_t = hi_t = geo_dot3(tri[0], L);
        for (i = 1; i < 3u; i++) {
            y = geo_dot3(tri[i], L);
            lo_t = geo_min(lo_t, y);
            hi_t = geo_max(hi_t, y);
        }
        sep = (lo_s - hi_t) / len;
        y = (lo_t - hi_s) / len;
        if (y > sep) {
            sep = y;
            len = -len;
        }
        if (sep > best) {
            best = sep;
            axis[0] = L[0] / len;
            axis[1] = L[1] / len;
            axis[2] = L[2] / len;
        }
    }
    return best - m->r;
}

/* Advances from t0 until the gap (distance - r) is within `contact`, or the motion leaves t_max
 * or can no longer close the gap (a miss). Each step is the larger of two safe ones: the gap over
 * the speed (the distance shrinks no faster), and the separation along the best axis over the
 * approach along it (each step aims at half the contact band: a grazing contact is then a simple
 * root). On a hit: the time, the closest points and the contact normal. */
static bool sw_advance(const sw_mover *m, float t0, float t_max, float contact, float *t_hit, float *pt,
                       float *normal)
{
    const float speed = copse_sqrtf(geo_dot3(m->v, m->v));
    float t = t0, x[3][3], ps[3];
    unsigned it;
    for (it = 0;; it++) {
        float gap, sep, approach, step;
        sw_mover_at(m, t, x);
        gap = m->dist(m, x, ps, pt) - m->r;
        sep = sw_best_axis(m, x, ps, pt, normal);
        if (gap <= contact || it == SW_MAX_STEPS)
            break; /* (not settled in SW_MAX_STEPS: stop short of any contact) */
        approach = -geo_dot3(normal, m->v);
        if (!(speed > 0.0f) || (sep > 0.0f && !(approach > 0.0f)))
            return false; /* apart along an axis that the motion does not close */
        step = (gap - 0.5f * contact) / speed;
        if (approach > 0.0f && sep > 0.5f * contact)
            step = geo_max(step, (sep - 0.5f * contact) / approach);
        t += step;
        if (!(t <= t_max)) {
            /* past the range: a hit still if its end is within the contact band */
            if (!(t0 < t_max))
                return false;
            t0 = t = t_max;
        }
    }
    *t_hit = t;
    return true;
}

bool copse_geo_sweep_capsule_triangle(const float *a, const float *b, float r, const float *v,
                                      const float *const tri[3], float t_max, float *t_hit, float *point,
                                      float *normal)
{
    const float *t[3];
    const float *pts[4];
    sw_mover m;
    sw_sort3(t, tri);
    pts[0] = b;
    pts[1] = t[0];
    pts[2] = t[1];
    pts[3] = t[2];
    m.a = a;
    m.b = b;
    m.half = NULL;
    m.r = r;
    m.v = v;
    m.tri = t;
    m.tl = NULL;
    m.dist = sw_dist_capsule;
    return sw_advance(&m, 0.0f, t_max, SW_CONTACT * sw_scale(a, pts, 4, r), t_hit, point, normal);
}

/* ---- box against triangle -------------------------------------------------------------------- */

/* The separating-axis test of the box [-half, half] at rest against the triangle tl moving by -vl
 * (the box's frame), as time intervals: on each axis the box's centre, at t vL, must lie within
 * the triangle's projection widened by the box's. False when some axis keeps them apart over
 * [0, t_max], even with the intervals widened by the slack; else the latest entry (0 when they
 * meet at the start), or, for a pass that only grazes within the slack, the latest entry into the
 * widened intervals. */
static COPSE_NOINLINE bool sw_box_sat(const float *half, const float (*tl)[3], const float *vl, float slack,
                                      float t_max, float *t_hit)
{
    float e[3][3], L[3], t_in = 0.0f, t_wide = 0.0f, t_out = t_max;
    unsigned a, i;
    for (i = 0; i < 3u; i++)
        geo_sub3(e[i], tl[i == 2u ? 0u : i + 1u], tl[i]);
    /* axes: 0-2 the box's, 3 the triangle's normal, 4-12 box axis k x edge j */
    for (a = 0; a < 13u; a++) {
        float rb, lo, hi, vL, s;
        if (a < 3u) {
            L[0] = L[1] = L[2] = 0.0f;
            L[a] = 1.0f;
        } else {
            if (a == 3u)
                geo_cross3(L, e[0], e[1]);
            else /* box axis k x edge j, a = 4 + 3 k + j */
                sw_axis_cross(L, a < 7u ? 0u : (a < 10u ? 1u : 2u), e[a < 7u ? a - 4u : (a < 10u ? a - 7u : a - 10u)]);
            sw_pow2_normalize(L); /* any length will do: one whose products stay in range */
        }
        s = slack * copse_sqrtf(geo_dot3(L, L)); /* a zero axis separates nothing */
        rb = half[0] * copse_fabsf(L[0]) + half[1] * copse_fabsf(L[1]) + half[2] * copse_fabsf(L[2]);
        lo = hi = geo_dot3(tl[0], L);
        for (i = 1; i < 3u; i++) {
            float x = geo_dot3(tl[i], L);
            lo = geo_min(lo, x);
            hi = geo_max(hi, x);
        }
        lo -= rb;
        hi += rb;
        vL = geo_dot3(vl, L);
        if (vL > 0.0f) {
            t_in = geo_max(t_in, lo / vL);
            t_wide = geo_max(t_wide, (lo - s) / vL);
            t_out = geo_min(t_out, (hi + s) / vL);
        } else if (vL < 0.0f) {
            t_in = geo_max(t_in, hi / vL);
            t_wide = geo_max(t_wide, (hi + s) / vL);
            t_out = geo_min(t_out, (lo - s) / vL);
        } else if (lo > s || hi < -s) {
            return false;
        }
        if (!(t_wide <= t_out))
            return false;
    }
    /* the entry itself when it comes in range, else the entry into the widened intervals */
    *t_hit = t_in <= t_out ? t_in : t_wide;
    return true;
}

bool copse_geo_sweep_box_triangle(const float *center, const float *rot, const float *half, const float *v,
                                  const float *const tri[3], float t_max, float *t_hit, float *point,
                                  float *normal)
{
    const float *t[3];
    float tl[3][3], vl[3], scale, th, x[3];
    sw_mover m;
    unsigned i;
    sw_sort3(t, tri);
    scale = sw_scale(center, t, 3, sw_box_size(half));
    for (i = 0; i < 3u; i++) { /* the triangle in the box's frame, the box at rest */
        geo_sub3(x, t[i], center);
        sw_to_box(rot, x, tl[i]);
    }
    sw_to_box(rot, v, vl);
    if (!sw_box_sat(half, (const float(*)[3])tl, vl, SW_SLACK * scale, t_max, &th))
        return false;
    /* The axes' entry is the contact when they are exact; advancement on the exact distance checks
     * it (no step) and gives the point and the normal, or, where the axes' rounding (a sliver's
     * normal) let the intervals meet early, goes on from there: never from past the contact. */
    m.a = m.b = NULL;
    m.half = half;
    m.r = 0.0f;
    m.v = vl;
    m.tri = NULL;
    m.tl = (const float(*)[3])tl;
    m.dist = sw_dist_box;
    if (!sw_advance(&m, th, t_max, SW_CONTACT * scale, &th, x, normal))
        return false;
    /* back to the query's frame: the point on the triangle, where the box is at th */
    for (i = 0; i < 3u; i++)
        point[i] = center[i] + th * v[i] + (rot[3u * i] * x[0] + rot[3u * i + 1u] * x[1] + rot[3u * i + 2u] * x[2]);
    sw_copy3(x, normal);
    normal[0] = rot[0] * x[0] + rot[1] * x[1] + rot[2] * x[2];
    normal[1] = rot[3] * x[0] + rot[4] * x[1] + rot[5] * x[2];
    normal[2] = rot[6] * x[0] + rot[7] * x[1] + rot[8] * x[2];
    *t_hit = th;
    return true;
}

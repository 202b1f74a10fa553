/* SPDX-License-Identifier: MIT */
/* Brute force for posed shapes against points and for sweeps, in double (see oracle_points.h). */
#include "oracle/oracle_points.h"

#include <math.h>
#include <stddef.h>

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static void copy3(double *out, const double *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static void vec_d(double *out, const copse_vec3 *v)
{
    out[0] = (double)v->x;
    out[1] = (double)v->y;
    out[2] = (double)v->z;
}

/* ---- poses ------------------------------------------------------------------------------------- */

void orp_pose_point(const copse_pose *pose, const double *p, double *out)
{
    double r[3];
    unsigned i;
    if (pose == NULL) {
        copy3(out, p);
        return;
    }
    for (i = 0; i < 3; i++)
        r[i] = (double)pose->rotation[i][0] * p[0] + (double)pose->rotation[i][1] * p[1] +
               (double)pose->rotation[i][2] * p[2];
    out[0] = r[0] + (double)pose->translation.x;
    out[1] = r[1] + (double)pose->translation.y;
    out[2] = r[2] + (double)pose->translation.z;
}

void orp_pose_dir(const copse_pose *pose, const double *d, double *out)
{
    double r[3];
    unsigned i;
    if (pose == NULL) {
        copy3(out, d);
        return;
    }
    for (i = 0; i < 3; i++)
        r[i] = (double)pose->rotation[i][0] * d[0] + (double)pose->rotation[i][1] * d[1] +
               (double)pose->rotation[i][2] * d[2];
    copy3(out, r);
}

void orp_random_rotation(float r[3][3], double u1, double u2, double u3)
{
    const double two_pi = 6.283185307179586;
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    double x = a * sin(two_pi * u2), y = a * cos(two_pi * u2), z = b * sin(two_pi * u3), w = b * cos(two_pi * u3);
    r[0][0] = (float)(1.0 - 2.0 * (y * y + z * z));
    r[0][1] = (float)(2.0 * (x * y - z * w));
    r[0][2] = (float)(2.0 * (x * z + y * w));
    r[1][0] = (float)(2.0 * (x * y + z * w));
    r[1][1] = (float)(1.0 - 2.0 * (x * x + z * z));
    r[1][2] = (float)(2.0 * (y * z - x * w));
    r[2][0] = (float)(2.0 * (x * z - y * w));
    r[2][1] = (float)(2.0 * (y * z + x * w));
    r[2][2] = (float)(1.0 - 2.0 * (x * x + y * y));
}

/* ---- shapes ------------------------------------------------------------------------------------ */

static void shape_init(orp_shape *s, orp_kind kind, unsigned count)
{
    unsigned i, j;
    s->kind = kind;
    s->count = count;
    s->radius = 0.0;
    s->faces = 0;
    s->flip = 0;
    s->flat = false;
    for (i = 0; i < 3; i++) {
        s->center[i] = 0.0;
        s->half[i] = 0.0;
        for (j = 0; j < 3; j++)
            s->axis[i][j] = 0.0;
    }
}

static void posed(const copse_pose *pose, const copse_vec3 *v, double *out)
{
    double p[3];
    vec_d(p, v);
    orp_pose_point(pose, p, out);
}

void orp_point(orp_shape *s, const double *p)
{
    shape_init(s, ORP_POINT, 1);
    copy3(s->p[0], p);
}

void orp_sphere(orp_shape *s, const copse_sphere *sphere, const copse_pose *pose)
{
    shape_init(s, ORP_SPHERE, 1);
    posed(pose, &sphere->center, s->p[0]);
    s->radius = (double)sphere->radius;
}

void orp_capsule(orp_shape *s, const copse_capsule *capsule, const copse_pose *pose)
{
    shape_init(s, ORP_CAPSULE, 2);
    posed(pose, &capsule->segment.a, s->p[0]);
    posed(pose, &capsule->segment.b, s->p[1]);
    s->radius = (double)capsule->radius;
}

void orp_obb(orp_shape *s, const copse_obb *obb, const copse_pose *pose)
{
    unsigned i, k;
    shape_init(s, ORP_OBB, 1);
    posed(pose, &obb->center, s->center);
    copy3(s->p[0], s->center);
    for (k = 0; k < 3; k++) {
        double col[3];
        for (i = 0; i < 3; i++)
            col[i] = (double)obb->rotation[i][k]; /* the box's axes are its rotation's columns */
        orp_pose_dir(pose, col, s->axis[k]);
    }
    s->half[0] = (double)obb->half.x;
    s->half[1] = (double)obb->half.y;
    s->half[2] = (double)obb->half.z;
}

void orp_triangle(orp_shape *s, const copse_triangle *tri, const copse_pose *pose)
{
    shape_init(s, ORP_TRIANGLE, 3);
    posed(pose, &tri->a, s->p[0]);
    posed(pose, &tri->b, s->p[1]);
    posed(pose, &tri->c, s->p[2]);
}

/* The triples i < j < k of n points, numbered in this order (bit t of orp_shape.faces). */
#define FOR_TRIPLES(n, t, i, j, k)                  \
    for ((t) = 0u, (i) = 0u; (i) < (n); (i)++)      \
        for ((j) = (i) + 1u; (j) < (n); (j)++)      \
            for ((k) = (j) + 1u; (k) < (n); (k)++, (t)++)

static void plane_normal(const orp_shape *s, unsigned i, unsigned j, unsigned k, double *n)
{
    double e1[3], e2[3];
    orc_sub(e1, s->p[j], s->p[i]);
    orc_sub(e2, s->p[k], s->p[i]);
    orc_cross(n, e1, e2);
}

void orp_hull(orp_shape *s, const copse_vec3 *points, uint32_t count, const copse_pose *pose)
{
    unsigned i, j, k, m, t, best_i = 0, best_j = 0, best_k = 0;
    double ext = 0.0, best = 0.0, n[3];
    if (count > ORP_MAX_HULL)
        count = ORP_MAX_HULL;
    shape_init(s, ORP_HULL, count);
    for (i = 0; i < count; i++)
        posed(pose, &points[i], s->p[i]);
    for (i = 0; i < count; i++)
        for (j = 0; j < count; j++)
            ext = fmax(ext, orc_dist(s->p[i], s->p[j]));
    s->flat = true;
    if (count < 4u)
        return;
    /* the widest triple gives the plane the set is flat in, if any */
    FOR_TRIPLES(count, t, i, j, k) {
        double l;
        plane_normal(s, i, j, k, n);
        l = orc_len(n);
        if (l > best) {
            best = l;
            best_i = i;
            best_j = j;
            best_k = k;
        }
    }
    if (best <= 1e-24 * ext * ext)
        return; /* collinear or one point */
    plane_normal(s, best_i, best_j, best_k, n);
    for (m = 0; m < count; m++) {
        double d[3];
        orc_sub(d, s->p[m], s->p[best_i]);
        if (fabs(orc_dot(d, n)) > 1e-12 * ext * best)
            s->flat = false;
    }
    if (s->flat)
        return;
    /* facets: triples with every other point on one side of their plane */
    FOR_TRIPLES(count, t, i, j, k) {
        bool pos = false, neg = false;
        double l;
        plane_normal(s, i, j, k, n);
        l = orc_len(n);
        if (l <= 1e-12 * ext * ext)
            continue;
        for (m = 0; m < count; m++) {
            double d[3], side;
            orc_sub(d, s->p[m], s->p[i]);
            side = orc_dot(d, n);
            if (side > 1e-12 * ext * l)
                pos = true;
            else if (side < -1e-12 * ext * l)
                neg = true;
        }
        if (pos && neg)
            continue;
        s->faces |= (uint64_t)1u << t;
        if (pos)
            s->flip |= (uint64_t)1u << t; /* the others lie in front: the outward normal is -n */
    }
}

double orp_scale(const orp_shape *s)
{
    double m = s->radius;
    unsigned i;
    for (i = 0; i < s->count; i++)
        m = fmax(m, orc_max_abs(s->p[i]) + s->radius);
    if (s->kind == ORP_OBB)
        m = fmax(m, orc_max_abs(s->center) + s->half[0] + s->half[1] + s->half[2]);
    return m;
}

void orp_bounding_ball(const orp_shape *s, double *center, double *radius)
{
    unsigned i, k;
    double r = 0.0;
    if (s->kind == ORP_OBB) {
        copy3(center, s->center);
        *radius = sqrt(s->half[0] * s->half[0] + s->half[1] * s->half[1] + s->half[2] * s->half[2]) * (1.0 + 1e-6);
        return;
    }
    for (k = 0; k < 3; k++) {
        center[k] = 0.0;
        for (i = 0; i < s->count; i++)
            center[k] += s->p[i][k];
        center[k] /= (double)s->count;
    }
    for (i = 0; i < s->count; i++)
        r = fmax(r, orc_dist(center, s->p[i]));
    *radius = r * (1.0 + 1e-9) + s->radius;
}

double orp_support_min(const orp_shape *s, const double *n)
{
    double m;
    unsigned i, k;
    if (s->kind == ORP_OBB) {
        m = orc_dot(n, s->center);
        for (k = 0; k < 3; k++)
            m -= s->half[k] * fabs(orc_dot(n, s->axis[k]));
        return m;
    }
    m = orc_dot(n, s->p[0]);
    for (i = 1; i < s->count; i++)
        m = fmin(m, orc_dot(n, s->p[i]));
    return m - s->radius * orc_len(n);
}

/* ---- a point against a shape ------------------------------------------------------------------- */

/* Box: q in the box's own frame. */
static void box_local(const orp_shape *s, const double *q, double *l)
{
    double d[3];
    unsigned k;
    orc_sub(d, q, s->center);
    for (k = 0; k < 3; k++)
        l[k] = orc_dot(d, s->axis[k]);
}

/* Hull: the largest signed distance to a facet plane (> 0 outside). */
static double hull_signed(const orp_shape *s, const double *q)
{
    double worst = -HUGE_VAL, n[3], d[3];
    unsigned t, i, j, k;
    FOR_TRIPLES(s->count, t, i, j, k) {
        double sd;
        if (!(s->faces >> t & 1u))
            continue;
        plane_normal(s, i, j, k, n);
        orc_sub(d, q, s->p[i]);
        sd = orc_dot(d, n) / orc_len(n);
        if (s->flip >> t & 1u)
            sd = -sd;
        worst = fmax(worst, sd);
    }
    return worst;
}

/* Distance to the union of the triangles the hull's points make (all of them, or the facets). */
static double hull_surface(const orp_shape *s, const double *q, double *closest, bool facets_only)
{
    double best = HUGE_VAL, c[3];
    unsigned t, i, j, k;
    if (s->count < 3u)
        return orc_closest_segment(q, s->p[0], s->p[s->count - 1u], closest);
    FOR_TRIPLES(s->count, t, i, j, k) {
        double d;
        if (facets_only && !(s->faces >> t & 1u))
            continue;
        d = orc_closest_triangle(q, s->p[i], s->p[j], s->p[k], c);
        if (d < best) {
            best = d;
            copy3(closest, c);
        }
    }
    return best;
}

double orp_point_distance(const orp_shape *s, const double *q, double *closest)
{
    double c[3], d, l[3];
    unsigned k;
    switch (s->kind) {
    case ORP_POINT:
        copy3(closest, s->p[0]);
        return orc_dist(q, s->p[0]);
    case ORP_SPHERE:
    case ORP_CAPSULE:
        d = orc_closest_segment(q, s->p[0], s->p[s->count - 1u], c);
        if (d <= s->radius) {
            copy3(closest, q);
            return 0.0;
        }
        for (k = 0; k < 3; k++)
            closest[k] = c[k] + (q[k] - c[k]) * (s->radius / d);
        return d - s->radius;
    case ORP_OBB:
        box_local(s, q, l);
        for (k = 0; k < 3; k++)
            c[k] = s->center[k];
        for (k = 0; k < 3; k++) {
            double x = clampd(l[k], -s->half[k], s->half[k]);
            c[0] += x * s->axis[k][0];
            c[1] += x * s->axis[k][1];
            c[2] += x * s->axis[k][2];
        }
        if (fabs(l[0]) <= s->half[0] && fabs(l[1]) <= s->half[1] && fabs(l[2]) <= s->half[2]) {
            copy3(closest, q);
            return 0.0;
        }
        copy3(closest, c);
        return orc_dist(q, c);
    case ORP_TRIANGLE:
        return orc_closest_triangle(q, s->p[0], s->p[1], s->p[2], closest);
    case ORP_HULL:
    default:
        if (s->count == 1u) {
            copy3(closest, s->p[0]);
            return orc_dist(q, s->p[0]);
        }
        if (!s->flat && hull_signed(s, q) <= 0.0) {
            copy3(closest, q);
            return 0.0;
        }
        return hull_surface(s, q, closest, !s->flat);
    }
}

double orp_core_distance(const orp_shape *s, const double *q, double *closest)
{
    if (s->kind == ORP_SPHERE || s->kind == ORP_CAPSULE)
        return orc_closest_segment(q, s->p[0], s->p[s->count - 1u], closest);
    return orp_point_distance(s, q, closest);
}

double orp_depth(const orp_shape *s, const double *q)
{
    double c[3], l[3], m;
    unsigned k;
    switch (s->kind) {
    case ORP_SPHERE:
    case ORP_CAPSULE:
        return fmax(0.0, s->radius - orc_closest_segment(q, s->p[0], s->p[s->count - 1u], c));
    case ORP_OBB:
        box_local(s, q, l);
        m = HUGE_VAL;
        for (k = 0; k < 3; k++)
            m = fmin(m, s->half[k] - fabs(l[k]));
        return fmax(0.0, m);
    case ORP_HULL:
        if (s->flat || s->count < 4u)
            return 0.0;
        return fmax(0.0, -hull_signed(s, q));
    case ORP_POINT:
    case ORP_TRIANGLE:
    default:
        return 0.0;
    }
}

orc_verdict orp_point_in(const orp_shape *s, const double *q, double band)
{
    double c[3], d = orp_point_distance(s, q, c);
    if (d > 0.0)
        return d > band ? ORC_NO : ORC_EDGE_NO;
    return orp_depth(s, q) > band || band == 0.0 ? ORC_YES : ORC_EDGE_YES;
}

/* ---- distances between primitives -------------------------------------------------------------- */

double orp_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb)
{
    double d1[3], d2[3], r[3], a, e, f, s = 0.0, t = 0.0, best, q[3];
    unsigned k;
    orc_sub(d1, a1, a0);
    orc_sub(d2, b1, b0);
    orc_sub(r, a0, b0);
    a = orc_dot(d1, d1);
    e = orc_dot(d2, d2);
    f = orc_dot(d2, r);
    if (a == 0.0 && e == 0.0) {
        s = t = 0.0;
    } else if (a == 0.0) {
        t = clampd(f / e, 0.0, 1.0);
    } else {
        double c = orc_dot(d1, r);
        if (e == 0.0) {
            s = clampd(-c / a, 0.0, 1.0);
        } else {
            double b = orc_dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? clampd((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clampd(-c / a, 0.0, 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = clampd((b - c) / a, 0.0, 1.0);
            }
        }
    }
    for (k = 0; k < 3; k++) {
        pa[k] = a0[k] + d1[k] * s;
        pb[k] = b0[k] + d2[k] * t;
    }
    best = orc_dist(pa, pb);
    /* near-parallel pairs: an end of one against the other is as close (and better conditioned) */
    if (a > 0.0 && e > 0.0) {
        double b = orc_dot(d1, d2);
        if (a * e - b * b <= 1e-6 * a * e) {
            const double *ends[4];
            unsigned i;
            ends[0] = a0;
            ends[1] = a1;
            ends[2] = b0;
            ends[3] = b1;
            for (i = 0; i < 4; i++) {
                double d = i < 2u ? orc_closest_segment(ends[i], b0, b1, q) : orc_closest_segment(ends[i], a0, a1, q);
                if (d < best) {
                    best = d;
                    copy3(i < 2u ? pa : pb, ends[i]);
                    copy3(i < 2u ? pb : pa, q);
                }
            }
        }
    }
    return best;
}

double orp_segment_triangle(const double *s0, const double *s1, const double *const tri[3])
{
    double c[3], pa[3], pb[3], e1[3], e2[3], n[3], best, da, db;
    unsigned i;
    best = fmin(orc_closest_triangle(s0, tri[0], tri[1], tri[2], c), orc_closest_triangle(s1, tri[0], tri[1], tri[2], c));
    for (i = 0; i < 3; i++)
        best = fmin(best, orp_segment_segment(s0, s1, tri[i], tri[(i + 1u) % 3u], pa, pb));
    /* a crossing of the plane inside the triangle */
    orc_sub(e1, tri[1], tri[0]);
    orc_sub(e2, tri[2], tri[0]);
    orc_cross(n, e1, e2);
    orc_sub(e1, s0, tri[0]);
    orc_sub(e2, s1, tri[0]);
    da = orc_dot(e1, n);
    db = orc_dot(e2, n);
    if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) {
        double x[3], w = da / (da - db);
        for (i = 0; i < 3; i++)
            x[i] = s0[i] + (s1[i] - s0[i]) * w;
        best = fmin(best, orc_closest_triangle(x, tri[0], tri[1], tri[2], c));
    }
    return best;
}

static bool separated_on(const double *half, const double *const tri[3], const double *axis)
{
    double rb = half[0] * fabs(axis[0]) + half[1] * fabs(axis[1]) + half[2] * fabs(axis[2]);
    double p0 = orc_dot(tri[0], axis), p1 = orc_dot(tri[1], axis), p2 = orc_dot(tri[2], axis);
    double lo = fmin(p0, fmin(p1, p2)), hi = fmax(p0, fmax(p1, p2));
    return lo > rb || hi < -rb;
}

bool orp_box_triangle_overlap(const double *half, const double *const tri[3])
{
    double axis[3], e[3][3], n[3];
    unsigned i, k;
    for (k = 0; k < 3; k++) {
        axis[0] = axis[1] = axis[2] = 0.0;
        axis[k] = 1.0;
        if (separated_on(half, tri, axis))
            return false;
    }
    for (i = 0; i < 3; i++)
        orc_sub(e[i], tri[(i + 1u) % 3u], tri[i]);
    orc_cross(n, e[0], e[1]);
    if (separated_on(half, tri, n))
        return false;
    for (k = 0; k < 3; k++)
        for (i = 0; i < 3; i++) {
            double u[3] = {0.0, 0.0, 0.0};
            u[k] = 1.0;
            orc_cross(axis, u, e[i]);
            if (separated_on(half, tri, axis))
                return false;
        }
    return true;
}

static void box_corner(const double *half, unsigned c, double *out)
{
    out[0] = c & 1u ? half[0] : -half[0];
    out[1] = c & 2u ? half[1] : -half[1];
    out[2] = c & 4u ? half[2] : -half[2];
}

double orp_box_triangle(const double *half, const double *const tri[3])
{
    double best = HUGE_VAL, c[3], q[3], pa[3], pb[3];
    unsigned i, k, corner;
    if (orp_box_triangle_overlap(half, tri))
        return 0.0;
    for (corner = 0; corner < 8u; corner++) {
        box_corner(half, corner, c);
        best = fmin(best, orc_closest_triangle(c, tri[0], tri[1], tri[2], q));
    }
    for (i = 0; i < 3; i++) {
        for (k = 0; k < 3; k++)
            q[k] = clampd(tri[i][k], -half[k], half[k]);
        best = fmin(best, orc_dist(q, tri[i]));
    }
    /* the 12 edges: corners differing in one bit */
    for (corner = 0; corner < 8u; corner++)
        for (k = 0; k < 3; k++) {
            double c1[3];
            if (corner & (1u << k))
                continue;
            box_corner(half, corner, c);
            box_corner(half, corner | (1u << k), c1);
            for (i = 0; i < 3; i++)
                best = fmin(best, orp_segment_segment(c, c1, tri[i], tri[(i + 1u) % 3u], pa, pb));
        }
    return best;
}

double orp_prim_point(const orp_prim *p, const double *q)
{
    double c[3];
    if (p->n == 1u)
        return orc_dist(q, p->v[0]);
    return orc_closest_triangle(q, p->v[0], p->v[1], p->v[2], c);
}

double orp_shape_prim(const orp_shape *s, const double *offset, const orp_prim *p)
{
    double v[3][3], c[3], best;
    const double *tri[3];
    unsigned i, k;
    /* the primitive moved by -offset instead of the shape by +offset */
    for (i = 0; i < p->n; i++)
        for (k = 0; k < 3; k++)
            v[i][k] = p->v[i][k] - (offset != NULL ? offset[k] : 0.0);
    if (p->n == 1u)
        return orp_point_distance(s, v[0], c);
    tri[0] = v[0];
    tri[1] = v[1];
    tri[2] = v[2];
    switch (s->kind) {
    case ORP_POINT:
        return orc_closest_triangle(s->p[0], v[0], v[1], v[2], c);
    case ORP_SPHERE:
        return fmax(0.0, orc_closest_triangle(s->p[0], v[0], v[1], v[2], c) - s->radius);
    case ORP_CAPSULE:
        return fmax(0.0, orp_segment_triangle(s->p[0], s->p[1], tri) - s->radius);
    case ORP_OBB: {
        double l[3][3];
        const double *lt[3];
        for (i = 0; i < 3; i++) {
            double d[3];
            orc_sub(d, v[i], s->center);
            for (k = 0; k < 3; k++)
                l[i][k] = orc_dot(d, s->axis[k]);
            lt[i] = l[i];
        }
        return orp_box_triangle(s->half, lt);
    }
    case ORP_TRIANGLE: {
        const double *own[3];
        own[0] = s->p[0];
        own[1] = s->p[1];
        own[2] = s->p[2];
        best = HUGE_VAL;
        for (i = 0; i < 3; i++) {
            best = fmin(best, orp_segment_triangle(own[i], own[(i + 1u) % 3u], tri));
            best = fmin(best, orp_segment_triangle(tri[i], tri[(i + 1u) % 3u], own));
        }
        return best;
    }
    case ORP_HULL:
    default:
        return -1.0; /* not offered */
    }
}

/* ---- sweeps ---------------------------------------------------------------------------------------- */

double orp_sweep_distance(const orp_shape *s, const double *motion, const orp_prim *p, double t)
{
    double off[3];
    off[0] = motion[0] * t;
    off[1] = motion[1] * t;
    off[2] = motion[2] * t;
    return orp_shape_prim(s, off, p);
}

/* The first t in (lo, hi] with distance <= threshold, given distance(lo) > threshold >= distance(hi). */
static double first_below(const orp_shape *s, const double *motion, const orp_prim *p, double lo, double hi,
                          double threshold)
{
    unsigned it;
    for (it = 0; it < 64u && hi - lo > 0.0; it++) {
        double mid = lo + (hi - lo) * 0.5;
        if (mid <= lo || mid >= hi)
            break;
        if (orp_sweep_distance(s, motion, p, mid) <= threshold)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

void orp_sweep(const orp_shape *s, const double *motion, const orp_prim *p, double eps, double gap,
               orp_contact *out)
{
    const double g = 0.6180339887498949;
    double cs[3], rs, cp[3], rp = 0.0, end[3], q[3], a, b, x1, x2, f1, f2, t_best, f_best, f_end;
    unsigned i, it;
    out->touches = false;
    out->near = false;
    out->t_contact = 1.0;
    out->t_early = 1.0;
    out->d0 = orp_sweep_distance(s, motion, p, 0.0);
    out->d_min = out->d0;
    if (out->d0 <= eps) {
        out->touches = out->near = true;
        out->t_contact = out->t_early = 0.0;
        return;
    }
    /* far from the path: the bounding balls never come within gap */
    orp_bounding_ball(s, cs, &rs);
    for (i = 0; i < 3; i++) {
        cp[i] = 0.0;
        for (it = 0; it < p->n; it++)
            cp[i] += p->v[it][i] / (double)p->n;
    }
    for (it = 0; it < p->n; it++)
        rp = fmax(rp, orc_dist(cp, p->v[it]) * (1.0 + 1e-9));
    for (i = 0; i < 3; i++)
        end[i] = cs[i] + motion[i];
    if (orc_closest_segment(cp, cs, end, q) - rs - rp > gap * 2.0 + 1e-12 * (orc_max_abs(cs) + orc_max_abs(cp))) {
        out->d_min = fmax(0.0, orc_closest_segment(cp, cs, end, q) - rs - rp);
        return;
    }
    /* golden-section search for the smallest distance; stop at the first point at contact */
    f_end = orp_sweep_distance(s, motion, p, 1.0);
    t_best = out->d0 <= f_end ? 0.0 : 1.0;
    f_best = fmin(out->d0, f_end);
    a = 0.0;
    b = 1.0;
    x1 = b - g * (b - a);
    x2 = a + g * (b - a);
    f1 = orp_sweep_distance(s, motion, p, x1);
    f2 = orp_sweep_distance(s, motion, p, x2);
    for (it = 0; it < 90u && f_best > eps; it++) {
        if (f1 < f_best) {
            f_best = f1;
            t_best = x1;
        }
        if (f2 < f_best) {
            f_best = f2;
            t_best = x2;
        }
        if (f_best <= eps || b - a < 1e-17)
            break;
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = orp_sweep_distance(s, motion, p, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = orp_sweep_distance(s, motion, p, x2);
        }
    }
    out->d_min = f_best;
    if (f_best <= gap) {
        out->near = true;
        out->t_early = first_below(s, motion, p, 0.0, t_best, gap);
    }
    if (f_best <= eps) {
        out->touches = true;
        out->t_contact = first_below(s, motion, p, 0.0, t_best, eps);
    }
}

bool orp_sweep_sphere_point(const double *c, double r, const double *v, const double *p, double *t)
{
    double w[3], a, b, cc, disc, root;
    orc_sub(w, c, p);
    a = orc_dot(v, v);
    b = orc_dot(w, v);
    cc = orc_dot(w, w) - r * r;
    if (cc <= 0.0) {
        *t = 0.0;
        return true;
    }
    if (a == 0.0 || b >= 0.0)
        return false;
    disc = b * b - a * cc;
    if (disc < 0.0)
        return false;
    root = (-b - sqrt(disc)) / a;
    if (root > 1.0)
        return false;
    *t = root;
    return true;
}

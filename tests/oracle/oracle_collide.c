/* SPDX-License-Identifier: MIT */
/* Double-precision reference collision geometry (see oracle_collide.h). Straightforward on
 * purpose: minima over feature pairs, signed volumes, separating axes. */
#include "oracle_collide.h"

#include <math.h>
#include <string.h>

/* ---- small vector helpers ------------------------------------------------------------------- */

static double dabs(double x)
{
    return x < 0.0 ? -x : x;
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

static void copy3(double *out, const double *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static void set3(double *out, const double *a)
{
    if (out != NULL)
        copy3(out, a);
}

static void lerp3(double *out, const double *a, const double *b, double s)
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = a[k] + (b[k] - a[k]) * s;
}

static bool same3(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static bool zero3(const double *a)
{
    return a[0] == 0.0 && a[1] == 0.0 && a[2] == 0.0;
}

static void vec_of_float(double *out, copse_vec3 v)
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

/* ---- poses ---------------------------------------------------------------------------------- */

void orcc_pose_identity(orcc_pose *p)
{
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++)
            p->r[i][j] = i == j ? 1.0 : 0.0;
        p->t[i] = 0.0;
    }
}

void orcc_pose_of(orcc_pose *out, const copse_pose *pose)
{
    int i, j;
    if (pose == NULL) {
        orcc_pose_identity(out);
        return;
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->r[i][j] = (double)pose->rotation[i][j];
    vec_of_float(out->t, pose->translation);
}

void orcc_pose_to_float(copse_pose *out, const orcc_pose *p)
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->rotation[i][j] = (float)p->r[i][j];
    out->translation = copse_v3((float)p->t[0], (float)p->t[1], (float)p->t[2]);
}

void orcc_pose_apply_dir(const orcc_pose *p, const double *in, double *out)
{
    double x[3];
    int i;
    for (i = 0; i < 3; i++)
        x[i] = p->r[i][0] * in[0] + p->r[i][1] * in[1] + p->r[i][2] * in[2];
    copy3(out, x);
}

void orcc_pose_apply(const orcc_pose *p, const double *in, double *out)
{
    double x[3];
    int i;
    orcc_pose_apply_dir(p, in, x);
    for (i = 0; i < 3; i++)
        out[i] = x[i] + p->t[i];
}

void orcc_pose_invert(orcc_pose *out, const orcc_pose *p)
{
    orcc_pose q;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            q.r[i][j] = p->r[j][i];
    for (i = 0; i < 3; i++)
        q.t[i] = -(q.r[i][0] * p->t[0] + q.r[i][1] * p->t[1] + q.r[i][2] * p->t[2]);
    *out = q;
}

void orcc_pose_compose(orcc_pose *out, const orcc_pose *a, const orcc_pose *b)
{
    orcc_pose q;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            q.r[i][j] = a->r[i][0] * b->r[0][j] + a->r[i][1] * b->r[1][j] + a->r[i][2] * b->r[2][j];
    orcc_pose_apply(a, b->t, q.t);
    *out = q;
}

void orcc_pose_from_quat(orcc_pose *out, const double *q, const double *t)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    out->r[0][0] = 1.0 - 2.0 * (y * y + z * z);
    out->r[0][1] = 2.0 * (x * y - z * w);
    out->r[0][2] = 2.0 * (x * z + y * w);
    out->r[1][0] = 2.0 * (x * y + z * w);
    out->r[1][1] = 1.0 - 2.0 * (x * x + z * z);
    out->r[1][2] = 2.0 * (y * z - x * w);
    out->r[2][0] = 2.0 * (x * z - y * w);
    out->r[2][1] = 2.0 * (y * z + x * w);
    out->r[2][2] = 1.0 - 2.0 * (x * x + y * y);
    copy3(out->t, t);
}

void orcc_pose_from_z(orcc_pose *out, const double *z, const double *t)
{
    double a[3] = {0.0, 0.0, 0.0}, x[3], y[3], d, l;
    int k;
    a[dabs(z[0]) < 0.9 ? 0 : 1] = 1.0;
    d = orc_dot(a, z);
    for (k = 0; k < 3; k++)
        x[k] = a[k] - d * z[k];
    l = orc_len(x);
    for (k = 0; k < 3; k++)
        x[k] /= l;
    orc_cross(y, z, x);
    for (k = 0; k < 3; k++) {
        out->r[k][0] = x[k];
        out->r[k][1] = y[k];
        out->r[k][2] = z[k];
    }
    copy3(out->t, t);
}

double orcc_det3(const double (*r)[3])
{
    return r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
           r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
}

void orcc_pose_axes(orcc_pose *out, unsigned perm, unsigned signs)
{
    static const unsigned perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    unsigned i, j;
    orcc_pose_identity(out);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->r[i][j] = 0.0;
    for (i = 0; i < 3; i++)
        out->r[i][perms[perm % 6u][i]] = ((signs >> i) & 1u) ? -1.0 : 1.0;
    if (orcc_det3((const double(*)[3])out->r) < 0.0)
        for (j = 0; j < 3; j++)
            out->r[0][j] = -out->r[0][j];
}

double orcc_pose_reach(const orcc_pose *p, double m)
{
    double best = 0.0;
    int i;
    for (i = 0; i < 3; i++) {
        double row = (dabs(p->r[i][0]) + dabs(p->r[i][1]) + dabs(p->r[i][2])) * m + dabs(p->t[i]);
        best = dmax(best, row);
    }
    return best;
}

/* ---- exact-ish predicates ------------------------------------------------------------------ */

/* ((a - d) . ((b - d) x (c - d))), snapped to 0 when within its rounding bound: the sign is then
 * right whenever it is not snapped (float inputs: the differences are exact in double). */
static double orient3(const double *a, const double *b, const double *c, const double *d)
{
    double ad[3], bd[3], cd[3], m0, m1, m2, det, perm;
    orc_sub(ad, a, d);
    orc_sub(bd, b, d);
    orc_sub(cd, c, d);
    m0 = bd[1] * cd[2] - bd[2] * cd[1];
    m1 = bd[2] * cd[0] - bd[0] * cd[2];
    m2 = bd[0] * cd[1] - bd[1] * cd[0];
    det = ad[0] * m0 + ad[1] * m1 + ad[2] * m2;
    perm = dabs(ad[0]) * (dabs(bd[1] * cd[2]) + dabs(bd[2] * cd[1])) +
           dabs(ad[1]) * (dabs(bd[2] * cd[0]) + dabs(bd[0] * cd[2])) +
           dabs(ad[2]) * (dabs(bd[0] * cd[1]) + dabs(bd[1] * cd[0]));
    return dabs(det) <= 1e-14 * perm ? 0.0 : det;
}

/* 2D orientation in the plane of axes (u, v): exact in double for float inputs (two 25-bit
 * products and one correctly rounded difference). */
static double orient2(const double *a, const double *b, const double *c, int u, int v)
{
    return (b[u] - a[u]) * (c[v] - a[v]) - (b[v] - a[v]) * (c[u] - a[u]);
}

static int sgn(double x)
{
    return x > 0.0 ? 1 : (x < 0.0 ? -1 : 0);
}

/* p (collinear with a, b) lies between them */
static bool between2(const double *a, const double *b, const double *p, int u, int v)
{
    return ((a[u] <= p[u] && p[u] <= b[u]) || (b[u] <= p[u] && p[u] <= a[u])) &&
           ((a[v] <= p[v] && p[v] <= b[v]) || (b[v] <= p[v] && p[v] <= a[v]));
}

static bool segs_meet2(const double *p0, const double *p1, const double *q0, const double *q1, int u, int v)
{
    int d1 = sgn(orient2(q0, q1, p0, u, v)), d2 = sgn(orient2(q0, q1, p1, u, v));
    int d3 = sgn(orient2(p0, p1, q0, u, v)), d4 = sgn(orient2(p0, p1, q1, u, v));
    if (d1 * d2 < 0 && d3 * d4 < 0)
        return true;
    return (d1 == 0 && between2(q0, q1, p0, u, v)) || (d2 == 0 && between2(q0, q1, p1, u, v)) ||
           (d3 == 0 && between2(p0, p1, q0, u, v)) || (d4 == 0 && between2(p0, p1, q1, u, v));
}

static bool point_in_tri2(const double *p, const double (*t)[3], int u, int v)
{
    int s0 = sgn(orient2(t[0], t[1], p, u, v)), s1 = sgn(orient2(t[1], t[2], p, u, v));
    int s2 = sgn(orient2(t[2], t[0], p, u, v));
    return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

static int argmax_abs(const double *n)
{
    int k = 0;
    if (dabs(n[1]) > dabs(n[k]))
        k = 1;
    if (dabs(n[2]) > dabs(n[k]))
        k = 2;
    return k;
}

/* Do two closed segments in space meet? (Either may be a point.) */
static bool segments_meet(const double *p0, const double *p1, const double *q0, const double *q1)
{
    double d[4][3], n[3], best = -1.0;
    int i, drop;
    if (orient3(p0, p1, q0, q1) != 0.0)
        return false;
    /* coplanar: project along the largest normal the four points offer */
    orc_sub(d[0], p1, p0);
    orc_sub(d[1], q0, p0);
    orc_sub(d[2], q1, p0);
    orc_sub(d[3], q1, q0);
    drop = -1;
    for (i = 1; i < 4; i++) {
        double c[3];
        orc_cross(c, d[0], d[i]);
        if (orc_len(c) > best) {
            best = orc_len(c);
            copy3(n, c);
        }
    }
    {
        double c[3];
        orc_cross(c, d[3], d[1]);
        if (orc_len(c) > best) {
            best = orc_len(c);
            copy3(n, c);
        }
    }
    if (best > 0.0) {
        drop = argmax_abs(n);
    } else { /* collinear (or points): keep the line's main axis */
        int longest = 0, k;
        double len = -1.0;
        for (i = 0; i < 4; i++)
            if (orc_len(d[i]) > len) {
                len = orc_len(d[i]);
                longest = i;
            }
        if (len == 0.0)
            return true; /* all four points coincide */
        k = argmax_abs(d[longest]);
        drop = (k + 1) % 3;
    }
    return segs_meet2(p0, p1, q0, q1, (drop + 1) % 3, (drop + 2) % 3);
}

bool orcc_segment_meets_triangle(const double *s0, const double *s1, const double (*tri)[3], double *at)
{
    double e1[3], e2[3], n[3], o0, o1, tmp[3];
    int drop, u, v, i;
    orc_sub(e1, tri[1], tri[0]);
    orc_sub(e2, tri[2], tri[0]);
    orc_cross(n, e1, e2);
    if (zero3(n)) { /* a degenerate triangle is its edges */
        for (i = 0; i < 3; i++)
            if (segments_meet(s0, s1, tri[i], tri[(i + 1) % 3])) {
                if (at != NULL)
                    (void)orcc_segment_segment(s0, s1, tri[i], tri[(i + 1) % 3], at, tmp);
                return true;
            }
        return false;
    }
    drop = argmax_abs(n);
    u = (drop + 1) % 3;
    v = (drop + 2) % 3;
    o0 = orient3(tri[0], tri[1], tri[2], s0);
    o1 = orient3(tri[0], tri[1], tri[2], s1);
    if ((o0 > 0.0 && o1 > 0.0) || (o0 < 0.0 && o1 < 0.0))
        return false;
    if (o0 == 0.0 && o1 == 0.0) { /* coplanar */
        bool in0 = point_in_tri2(s0, tri, u, v), in1 = point_in_tri2(s1, tri, u, v);
        if (in0 || in1) {
            set3(at, in0 ? s0 : s1);
            return true;
        }
        for (i = 0; i < 3; i++)
            if (segs_meet2(s0, s1, tri[i], tri[(i + 1) % 3], u, v)) {
                if (at != NULL)
                    (void)orcc_segment_segment(s0, s1, tri[i], tri[(i + 1) % 3], at, tmp);
                return true;
            }
        return false;
    }
    if (o0 == 0.0 || o1 == 0.0) { /* one end on the plane, the other off it */
        const double *p = o0 == 0.0 ? s0 : s1;
        if (!point_in_tri2(p, tri, u, v))
            return false;
        set3(at, p);
        return true;
    }
    {
        double w0 = orient3(s0, s1, tri[0], tri[1]), w1 = orient3(s0, s1, tri[1], tri[2]);
        double w2 = orient3(s0, s1, tri[2], tri[0]);
        if (!((w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) || (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0)))
            return false;
        if (at != NULL)
            lerp3(at, s0, s1, o0 / (o0 - o1));
        return true;
    }
}

bool orcc_triangles_meet(const double (*a)[3], const double (*b)[3])
{
    int i;
    for (i = 0; i < 3; i++)
        if (orcc_segment_meets_triangle(a[i], a[(i + 1) % 3], b, NULL) ||
            orcc_segment_meets_triangle(b[i], b[(i + 1) % 3], a, NULL))
            return true;
    return false;
}

/* ---- closest points ------------------------------------------------------------------------- */

/* The minimum of |(a0 + s da) - (b0 + t db)| over [0,1]^2: the interior critical point when it
 * lies inside, and the four edges of the square (an end against the other segment). */
double orcc_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                            double *pb)
{
    double da[3], db[3], r[3], x[3], y[3], best, d;
    double A, B, E, C, F, den;
    orc_sub(da, a1, a0);
    orc_sub(db, b1, b0);
    orc_sub(r, a0, b0);
    best = orc_closest_segment(a0, b0, b1, y);
    set3(pa, a0);
    set3(pb, y);
    d = orc_closest_segment(a1, b0, b1, y);
    if (d < best) {
        best = d;
        set3(pa, a1);
        set3(pb, y);
    }
    d = orc_closest_segment(b0, a0, a1, x);
    if (d < best) {
        best = d;
        set3(pa, x);
        set3(pb, b0);
    }
    d = orc_closest_segment(b1, a0, a1, x);
    if (d < best) {
        best = d;
        set3(pa, x);
        set3(pb, b1);
    }
    A = orc_dot(da, da);
    B = orc_dot(da, db);
    E = orc_dot(db, db);
    C = orc_dot(da, r);
    F = orc_dot(db, r);
    den = A * E - B * B;
    if (den > 0.0) {
        double s = (B * F - C * E) / den, t = (A * F - B * C) / den;
        if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) {
            lerp3(x, a0, a1, s);
            lerp3(y, b0, b1, t);
            d = orc_dist(x, y);
            if (d < best) {
                best = d;
                set3(pa, x);
                set3(pb, y);
            }
        }
    }
    return best;
}

double orcc_segment_triangle(const double *s0, const double *s1, const double (*tri)[3], double *ps, double *pt)
{
    double at[3], x[3], y[3], best, d;
    int i;
    if (orcc_segment_meets_triangle(s0, s1, tri, at)) {
        set3(ps, at);
        set3(pt, at);
        return 0.0;
    }
    best = orc_closest_triangle(s0, tri[0], tri[1], tri[2], y);
    set3(ps, s0);
    set3(pt, y);
    d = orc_closest_triangle(s1, tri[0], tri[1], tri[2], y);
    if (d < best) {
        best = d;
        set3(ps, s1);
        set3(pt, y);
    }
    for (i = 0; i < 3; i++) {
        d = orcc_segment_segment(s0, s1, tri[i], tri[(i + 1) % 3], x, y);
        if (d < best) {
            best = d;
            set3(ps, x);
            set3(pt, y);
        }
    }
    return best;
}

double orcc_triangle_triangle(const double (*a)[3], const double (*b)[3], double *pa, double *pb)
{
    double x[3], y[3], best = -1.0, d;
    int i, j;
    for (i = 0; i < 3; i++) {
        if (orcc_segment_meets_triangle(a[i], a[(i + 1) % 3], b, x) ||
            orcc_segment_meets_triangle(b[i], b[(i + 1) % 3], a, x)) {
            set3(pa, x);
            set3(pb, x);
            return 0.0;
        }
    }
    for (i = 0; i < 3; i++) {
        d = orc_closest_triangle(a[i], b[0], b[1], b[2], y);
        if (best < 0.0 || d < best) {
            best = d;
            set3(pa, a[i]);
            set3(pb, y);
        }
        d = orc_closest_triangle(b[i], a[0], a[1], a[2], x);
        if (d < best) {
            best = d;
            set3(pa, x);
            set3(pb, b[i]);
        }
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            d = orcc_segment_segment(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], x, y);
            if (d < best) {
                best = d;
                set3(pa, x);
                set3(pb, y);
            }
        }
    return best;
}

/* ---- separating axes -------------------------------------------------------------------------- */

/* The gap of the two point sets' projections on L, in world units (negative: overlap). */
static double axis_gap(const double (*a)[3], unsigned na, const double (*b)[3], unsigned nb, const double *L)
{
    double len = orc_len(L), alo, ahi, blo, bhi, p;
    unsigned i;
    alo = ahi = orc_dot(L, a[0]);
    for (i = 1; i < na; i++) {
        p = orc_dot(L, a[i]);
        alo = p < alo ? p : alo;
        ahi = p > ahi ? p : ahi;
    }
    blo = bhi = orc_dot(L, b[0]);
    for (i = 1; i < nb; i++) {
        p = orc_dot(L, b[i]);
        blo = p < blo ? p : blo;
        bhi = p > bhi ? p : bhi;
    }
    return dmax(alo - bhi, blo - ahi) / len;
}

/* Running maximum of the gaps over the axes offered; axes shorter than a rounding of the
 * vectors they came from are no axes. */
typedef struct sat_acc {
    const double (*a)[3];
    unsigned na;
    const double (*b)[3];
    unsigned nb;
    double gap;
    bool any;
} sat_acc;

static void sat_axis(sat_acc *s, const double *L, double scale)
{
    double g, len = orc_len(L);
    if (!(len > 1e-12 * scale))
        return;
    g = axis_gap(s->a, s->na, s->b, s->nb, L);
    if (!s->any || g > s->gap)
        s->gap = g;
    s->any = true;
}

static void sat_cross(sat_acc *s, const double *u, const double *v)
{
    double c[3];
    orc_cross(c, u, v);
    sat_axis(s, c, orc_len(u) * orc_len(v));
}

static double sat_result(const sat_acc *s)
{
    return s->any ? s->gap : 0.0;
}

double orcc_sat(const double (*a)[3], unsigned na, const double (*b)[3], unsigned nb, const double (*axes)[3],
                unsigned naxes)
{
    sat_acc s;
    unsigned i;
    s.a = a;
    s.na = na;
    s.b = b;
    s.nb = nb;
    s.gap = 0.0;
    s.any = false;
    for (i = 0; i < naxes; i++)
        sat_axis(&s, axes[i], orc_len(axes[i]));
    return sat_result(&s);
}

static void tri_normal(double *n, const double (*t)[3])
{
    double e1[3], e2[3];
    orc_sub(e1, t[1], t[0]);
    orc_sub(e2, t[2], t[0]);
    orc_cross(n, e1, e2);
}

/* The triangle pair's largest gap over its candidate axes: both normals, edge x edge, and each
 * normal x every edge (the in-plane normals that coplanar pairs need). */
static double tri_tri_sat(const double (*a)[3], const double (*b)[3])
{
    double na[3], nb[3], ea[3][3], eb[3][3];
    sat_acc s;
    int i, j;
    s.a = a;
    s.na = 3;
    s.b = b;
    s.nb = 3;
    s.gap = 0.0;
    s.any = false;
    tri_normal(na, a);
    tri_normal(nb, b);
    for (i = 0; i < 3; i++) {
        orc_sub(ea[i], a[(i + 1) % 3], a[i]);
        orc_sub(eb[i], b[(i + 1) % 3], b[i]);
    }
    sat_axis(&s, na, orc_dot(ea[0], ea[0]) + orc_dot(ea[1], ea[1]));
    sat_axis(&s, nb, orc_dot(eb[0], eb[0]) + orc_dot(eb[1], eb[1]));
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            sat_cross(&s, ea[i], eb[j]);
    for (i = 0; i < 3; i++) {
        sat_cross(&s, na, ea[i]);
        sat_cross(&s, na, eb[i]);
        sat_cross(&s, nb, ea[i]);
        sat_cross(&s, nb, eb[i]);
    }
    return sat_result(&s);
}

static orc_verdict verdict_of(bool overlap, double measure, double band)
{
    if (overlap)
        return measure < band ? ORC_EDGE_YES : ORC_YES;
    return measure < band ? ORC_EDGE_NO : ORC_NO;
}

orc_verdict orcc_triangle_verdict(const double (*a)[3], const double (*b)[3], double band)
{
    if (orcc_triangles_meet(a, b)) {
        double depth = -tri_tri_sat(a, b);
        return verdict_of(true, depth > 0.0 ? depth : 0.0, band);
    }
    return verdict_of(false, orcc_triangle_triangle(a, b, NULL, NULL), band);
}

/* ---- boxes (in their own frame) ------------------------------------------------------------- */

static void box_corner(double *out, const double *half, unsigned k)
{
    out[0] = (k & 1u) ? half[0] : -half[0];
    out[1] = (k & 2u) ? half[1] : -half[1];
    out[2] = (k & 4u) ? half[2] : -half[2];
}

static double point_box(const double *p, const double *half, double *out)
{
    double q[3];
    int k;
    for (k = 0; k < 3; k++)
        q[k] = p[k] < -half[k] ? -half[k] : (p[k] > half[k] ? half[k] : p[k]);
    set3(out, q);
    return orc_dist(p, q);
}

/* The first point of the segment [p0, p1] inside the box, clipped slab by slab. */
static bool segment_box_point(const double *p0, const double *p1, const double *half, double *out)
{
    double t0 = 0.0, t1 = 1.0, d[3];
    int k;
    orc_sub(d, p1, p0);
    for (k = 0; k < 3; k++) {
        if (d[k] == 0.0) {
            if (p0[k] < -half[k] || p0[k] > half[k])
                return false;
        } else {
            double a = (-half[k] - p0[k]) / d[k], b = (half[k] - p0[k]) / d[k];
            if (a > b) {
                double tmp = a;
                a = b;
                b = tmp;
            }
            t0 = a > t0 ? a : t0;
            t1 = b < t1 ? b : t1;
        }
    }
    if (t0 > t1)
        return false;
    lerp3(out, p0, p1, t0);
    for (k = 0; k < 3; k++) /* clamp the rounding of the entry */
        out[k] = out[k] < -half[k] ? -half[k] : (out[k] > half[k] ? half[k] : out[k]);
    return true;
}

/* The box's 13 axes against the triangle (and its in-plane edge normals). */
static double box_tri_sat(const double *half, const double (*tri)[3])
{
    double corners[8][3], n[3], e[3][3], unit[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    sat_acc s;
    unsigned k, i;
    for (k = 0; k < 8; k++)
        box_corner(corners[k], half, k);
    s.a = (const double(*)[3])corners;
    s.na = 8;
    s.b = tri;
    s.nb = 3;
    s.gap = 0.0;
    s.any = false;
    for (k = 0; k < 3; k++)
        sat_axis(&s, unit[k], 1.0);
    tri_normal(n, tri);
    for (i = 0; i < 3; i++)
        orc_sub(e[i], tri[(i + 1) % 3], tri[i]);
    sat_axis(&s, n, orc_dot(e[0], e[0]) + orc_dot(e[1], e[1]));
    for (i = 0; i < 3; i++) {
        for (k = 0; k < 3; k++)
            sat_cross(&s, unit[k], e[i]);
        sat_cross(&s, n, e[i]);
    }
    return sat_result(&s);
}

double orcc_box_triangle(const double *half, const double (*tri)[3], double *pb, double *pt)
{
    double x[3], y[3], c0[3], c1[3], best = -1.0, d;
    unsigned k, i, a;
    if (box_tri_sat(half, tri) <= 0.0) {
        /* they meet: a shared point for the record (a corner inside, an edge through the box,
         * or a box edge through the triangle) */
        for (i = 0; i < 3; i++)
            if (segment_box_point(tri[i], tri[(i + 1) % 3], half, x)) {
                set3(pb, x);
                set3(pt, x);
                return 0.0;
            }
        for (k = 0; k < 8; k++)
            for (a = 0; a < 3; a++) {
                if (k & (1u << a))
                    continue;
                box_corner(c0, half, k);
                box_corner(c1, half, k | (1u << a));
                if (orcc_segment_meets_triangle(c0, c1, tri, x)) {
                    set3(pb, x);
                    set3(pt, x);
                    return 0.0;
                }
            }
        c0[0] = c0[1] = c0[2] = 0.0; /* not found (a rounding case): the nearest to the centre */
        (void)orc_closest_triangle(c0, tri[0], tri[1], tri[2], y);
        (void)point_box(y, half, x);
        set3(pb, x);
        set3(pt, y);
        return 0.0;
    }
    for (i = 0; i < 3; i++) { /* triangle corners against the box */
        d = point_box(tri[i], half, x);
        if (best < 0.0 || d < best) {
            best = d;
            set3(pb, x);
            set3(pt, tri[i]);
        }
    }
    for (k = 0; k < 8; k++) { /* box corners against the triangle */
        box_corner(c0, half, k);
        d = orc_closest_triangle(c0, tri[0], tri[1], tri[2], y);
        if (d < best) {
            best = d;
            set3(pb, c0);
            set3(pt, y);
        }
    }
    for (k = 0; k < 8; k++) /* box edges against triangle edges */
        for (a = 0; a < 3; a++) {
            if (k & (1u << a))
                continue;
            box_corner(c0, half, k);
            box_corner(c1, half, k | (1u << a));
            for (i = 0; i < 3; i++) {
                d = orcc_segment_segment(c0, c1, tri[i], tri[(i + 1) % 3], x, y);
                if (d < best) {
                    best = d;
                    set3(pb, x);
                    set3(pt, y);
                }
            }
        }
    return best;
}

/* ---- shapes --------------------------------------------------------------------------------- */

static void shape_init(orcc_shape *s, orcc_kind kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
}

static void shape_measure(orcc_shape *s)
{
    unsigned i;
    double m = 0.0;
    for (i = 0; i < s->n; i++)
        m = dmax(m, orc_max_abs(s->p[i]));
    if (s->kind == ORCC_OBB) {
        unsigned k;
        for (k = 0; k < 8; k++) {
            double c[3], w[3];
            box_corner(c, s->half, k);
            for (i = 0; i < 3; i++)
                w[i] = s->p[0][i] + c[0] * s->axis[0][i] + c[1] * s->axis[1][i] + c[2] * s->axis[2][i];
            m = dmax(m, orc_max_abs(w));
        }
    }
    s->mag = m + s->radius;
}

static void posed_point(double *out, const orcc_pose *p, copse_vec3 v)
{
    double x[3];
    vec_of_float(x, v);
    orcc_pose_apply(p, x, out);
}

void orcc_make_sphere(orcc_shape *s, const copse_sphere *sphere, const copse_pose *pose)
{
    orcc_pose p;
    orcc_pose_of(&p, pose);
    shape_init(s, ORCC_SPHERE);
    s->n = 1;
    posed_point(s->p[0], &p, sphere->center);
    s->radius = (double)sphere->radius;
    shape_measure(s);
}

void orcc_make_capsule(orcc_shape *s, const copse_capsule *capsule, const copse_pose *pose)
{
    orcc_pose p;
    orcc_pose_of(&p, pose);
    shape_init(s, ORCC_CAPSULE);
    s->n = 2;
    posed_point(s->p[0], &p, capsule->segment.a);
    posed_point(s->p[1], &p, capsule->segment.b);
    s->radius = (double)capsule->radius;
    shape_measure(s);
}

void orcc_make_obb(orcc_shape *s, const copse_obb *obb, const copse_pose *pose)
{
    orcc_pose p;
    unsigned k, i;
    orcc_pose_of(&p, pose);
    shape_init(s, ORCC_OBB);
    s->n = 1;
    posed_point(s->p[0], &p, obb->center);
    vec_of_float(s->half, obb->half);
    for (k = 0; k < 3; k++) { /* column k of the box's rotation, carried by the pose */
        double col[3];
        for (i = 0; i < 3; i++)
            col[i] = (double)obb->rotation[i][k];
        orcc_pose_apply_dir(&p, col, s->axis[k]);
    }
    shape_measure(s);
}

void orcc_make_triangle(orcc_shape *s, const copse_triangle *tri, const copse_pose *pose)
{
    orcc_pose p;
    orcc_pose_of(&p, pose);
    shape_init(s, ORCC_TRIANGLE);
    s->n = 3;
    posed_point(s->p[0], &p, tri->a);
    posed_point(s->p[1], &p, tri->b);
    posed_point(s->p[2], &p, tri->c);
    shape_measure(s);
}

/* Triples in a fixed order; the bit of (i, j, k), i < j < k. */
static unsigned triple_index(unsigned i, unsigned j, unsigned k)
{
    return (i * ORCC_HULL_MAX + j) * ORCC_HULL_MAX + k;
}

static bool face_bit(const orcc_shape *s, unsigned i, unsigned j, unsigned k)
{
    unsigned b = triple_index(i, j, k);
    return (s->face[b >> 3] >> (b & 7u)) & 1u;
}

static void hull_prepare(orcc_shape *s)
{
    const unsigned n = s->n;
    unsigned i, j, k, m;
    bool collinear = true, coplanar = true;
    memset(s->face, 0, sizeof s->face);
    s->nfaces = 0;
    s->dim = 0;
    for (i = 1; i < n; i++)
        if (!same3(s->p[i], s->p[0]))
            s->dim = 1;
    if (s->dim == 0)
        return;
    for (i = 0; i < n && collinear; i++)
        for (j = i + 1; j < n && collinear; j++)
            for (k = j + 1; k < n && collinear; k++) {
                double n3[3], t[3][3];
                copy3(t[0], s->p[i]);
                copy3(t[1], s->p[j]);
                copy3(t[2], s->p[k]);
                tri_normal(n3, (const double(*)[3])t);
                if (!zero3(n3))
                    collinear = false;
            }
    if (collinear)
        return;
    s->dim = 2;
    for (i = 0; i < n && coplanar; i++)
        for (j = i + 1; j < n && coplanar; j++)
            for (k = j + 1; k < n && coplanar; k++)
                for (m = 0; m < n && coplanar; m++)
                    if (orient3(s->p[i], s->p[j], s->p[k], s->p[m]) != 0.0)
                        coplanar = false;
    if (!coplanar)
        s->dim = 3;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            for (k = j + 1; k < n; k++) {
                double n3[3], t[3][3];
                int pos = 0, neg = 0;
                unsigned b;
                copy3(t[0], s->p[i]);
                copy3(t[1], s->p[j]);
                copy3(t[2], s->p[k]);
                tri_normal(n3, (const double(*)[3])t);
                if (zero3(n3))
                    continue;
                for (m = 0; m < n && s->dim == 3; m++) {
                    double o = orient3(s->p[i], s->p[j], s->p[k], s->p[m]);
                    pos += o > 0.0;
                    neg += o < 0.0;
                }
                if (pos > 0 && neg > 0)
                    continue; /* points on both sides: not on the boundary */
                b = triple_index(i, j, k);
                s->face[b >> 3] = (uint8_t)(s->face[b >> 3] | (1u << (b & 7u)));
                s->nfaces++;
            }
}

void orcc_make_hull(orcc_shape *s, const double (*pts)[3], unsigned n)
{
    unsigned i;
    shape_init(s, ORCC_HULL);
    s->n = n;
    for (i = 0; i < n; i++)
        copy3(s->p[i], pts[i]);
    shape_measure(s);
    hull_prepare(s);
}

bool orcc_make_convex(orcc_shape *s, const copse_convex *convex, const copse_pose *pose)
{
    orcc_pose p;
    unsigned i;
    shape_init(s, ORCC_HULL);
    if (convex->count == 0 || convex->count > ORCC_HULL_MAX)
        return false;
    orcc_pose_of(&p, pose);
    s->n = convex->count;
    for (i = 0; i < s->n; i++)
        posed_point(s->p[i], &p, convex->points[i]);
    shape_measure(s);
    hull_prepare(s);
    return true;
}

/* ---- hulls ---------------------------------------------------------------------------------- */

static void hull_tri(const orcc_shape *s, unsigned i, unsigned j, unsigned k, double (*t)[3])
{
    copy3(t[0], s->p[i]);
    copy3(t[1], s->p[j]);
    copy3(t[2], s->p[k]);
}

/* Is p inside the solid hull (closed)? Every face plane has p on the side of the centroid. */
static bool hull_contains(const orcc_shape *s, const double *p)
{
    double c[3] = {0.0, 0.0, 0.0};
    unsigned i, j, k;
    for (i = 0; i < s->n; i++)
        for (k = 0; k < 3; k++)
            c[k] += s->p[i][k] / (double)s->n;
    for (i = 0; i < s->n; i++)
        for (j = i + 1; j < s->n; j++)
            for (k = j + 1; k < s->n; k++) {
                double oc, op;
                if (!face_bit(s, i, j, k))
                    continue;
                oc = orient3(s->p[i], s->p[j], s->p[k], c);
                op = orient3(s->p[i], s->p[j], s->p[k], p);
                if ((oc > 0.0 && op < 0.0) || (oc < 0.0 && op > 0.0))
                    return false;
            }
    return true;
}

static bool hull_meets(const orcc_shape *s, const double (*tri)[3])
{
    double t[3][3];
    unsigned i, j, k;
    if (s->dim == 0)
        return orcc_segment_meets_triangle(s->p[0], s->p[0], tri, NULL);
    if (s->dim == 1) {
        for (i = 0; i < s->n; i++)
            for (j = i + 1; j < s->n; j++)
                if (orcc_segment_meets_triangle(s->p[i], s->p[j], tri, NULL))
                    return true;
        return false;
    }
    for (i = 0; i < s->n; i++)
        for (j = i + 1; j < s->n; j++)
            for (k = j + 1; k < s->n; k++) {
                if (!face_bit(s, i, j, k))
                    continue;
                hull_tri(s, i, j, k, t);
                if (orcc_triangles_meet((const double(*)[3])t, tri))
                    return true;
            }
    return s->dim == 3 && hull_contains(s, tri[0]);
}

/* Distance from the hull's boundary pieces to the triangle (the distance when apart). */
static double hull_tri_distance(const orcc_shape *s, const double (*tri)[3], double *ps, double *pt)
{
    double t[3][3], x[3], y[3], best = -1.0, d;
    unsigned i, j, k;
    if (s->dim == 0) {
        d = orc_closest_triangle(s->p[0], tri[0], tri[1], tri[2], y);
        set3(ps, s->p[0]);
        set3(pt, y);
        return d;
    }
    for (i = 0; i < s->n; i++)
        for (j = i + 1; j < s->n; j++) {
            if (s->dim == 1) {
                d = orcc_segment_triangle(s->p[i], s->p[j], tri, x, y);
                if (best < 0.0 || d < best) {
                    best = d;
                    set3(ps, x);
                    set3(pt, y);
                }
                continue;
            }
            for (k = j + 1; k < s->n; k++) {
                if (!face_bit(s, i, j, k))
                    continue;
                hull_tri(s, i, j, k, t);
                d = orcc_triangle_triangle((const double(*)[3])t, tri, x, y);
                if (best < 0.0 || d < best) {
                    best = d;
                    set3(ps, x);
                    set3(pt, y);
                }
            }
        }
    return best;
}

/* The hull's largest separating gap against the triangle: face normals, the triangle's normal,
 * every pair's direction x the triangle's edges, and the in-plane normals of flat sets. */
static double hull_tri_sat(const orcc_shape *s, const double (*tri)[3])
{
    double nt[3], e[3][3], d[3], nh[3] = {0.0, 0.0, 0.0}, t[3][3];
    sat_acc a;
    unsigned i, j, k, m;
    a.a = (const double(*)[3])s->p;
    a.na = s->n;
    a.b = tri;
    a.nb = 3;
    a.gap = 0.0;
    a.any = false;
    tri_normal(nt, tri);
    for (i = 0; i < 3; i++)
        orc_sub(e[i], tri[(i + 1) % 3], tri[i]);
    sat_axis(&a, nt, orc_dot(e[0], e[0]) + orc_dot(e[1], e[1]));
    for (i = 0; i < 3; i++)
        sat_cross(&a, nt, e[i]);
    for (i = 0; i < s->n; i++)
        for (j = i + 1; j < s->n; j++) {
            orc_sub(d, s->p[j], s->p[i]);
            for (m = 0; m < 3; m++)
                sat_cross(&a, d, e[m]);
            sat_cross(&a, nt, d);
            for (k = j + 1; k < s->n; k++) {
                double n3[3], e1[3];
                if (!face_bit(s, i, j, k))
                    continue;
                hull_tri(s, i, j, k, t);
                tri_normal(n3, (const double(*)[3])t);
                orc_sub(e1, t[2], t[0]);
                sat_axis(&a, n3, orc_dot(d, d) + orc_dot(e1, e1));
                if (zero3(nh))
                    copy3(nh, n3);
            }
        }
    if (s->dim == 2 && !zero3(nh)) { /* a flat hull: its in-plane normals */
        for (i = 0; i < s->n; i++)
            for (j = i + 1; j < s->n; j++) {
                orc_sub(d, s->p[j], s->p[i]);
                sat_cross(&a, nh, d);
            }
        for (m = 0; m < 3; m++)
            sat_cross(&a, nh, e[m]);
    }
    return sat_result(&a);
}

/* A solid tetrahedron against a triangle, separating axes (complete for two polytopes). */
static bool tetra_meets(const double (*q)[3], const double (*tri)[3])
{
    static const unsigned fc[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    static const unsigned ed[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    double nt[3], e[3][3], d[3], t[3][3], n3[3];
    sat_acc a;
    unsigned i, m;
    a.a = q;
    a.na = 4;
    a.b = tri;
    a.nb = 3;
    a.gap = 0.0;
    a.any = false;
    for (i = 0; i < 4; i++) {
        copy3(t[0], q[fc[i][0]]);
        copy3(t[1], q[fc[i][1]]);
        copy3(t[2], q[fc[i][2]]);
        tri_normal(n3, (const double(*)[3])t);
        sat_axis(&a, n3, orc_dist(t[0], t[1]) * orc_dist(t[0], t[2]));
    }
    tri_normal(nt, tri);
    for (i = 0; i < 3; i++)
        orc_sub(e[i], tri[(i + 1) % 3], tri[i]);
    sat_axis(&a, nt, orc_dot(e[0], e[0]) + orc_dot(e[1], e[1]));
    for (i = 0; i < 6; i++) {
        orc_sub(d, q[ed[i][1]], q[ed[i][0]]);
        for (m = 0; m < 3; m++)
            sat_cross(&a, d, e[m]);
    }
    return sat_result(&a) <= 0.0;
}

bool orcc_hull_triangle_by_pieces(const orcc_shape *s, const double (*tri)[3])
{
    const unsigned n = s->n;
    double q[4][3];
    unsigned i, j, k, m;
    if (n == 1)
        return orcc_segment_meets_triangle(s->p[0], s->p[0], tri, NULL);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            if (orcc_segment_meets_triangle(s->p[i], s->p[j], tri, NULL))
                return true;
            for (k = j + 1; k < n; k++) {
                hull_tri(s, i, j, k, q);
                if (orcc_triangles_meet((const double(*)[3])q, tri))
                    return true;
                for (m = k + 1; m < n; m++) {
                    if (orient3(s->p[i], s->p[j], s->p[k], s->p[m]) == 0.0)
                        continue; /* flat: its triangles cover it */
                    copy3(q[3], s->p[m]);
                    if (tetra_meets((const double(*)[3])q, tri))
                        return true;
                }
            }
        }
    return false;
}

/* ---- a shape against one triangle --------------------------------------------------------------- */

/* The triangle in the box's frame (box corners at +-half), and a box-frame point back out. */
static void to_box(const orcc_shape *s, const double *p, double *out)
{
    double d[3];
    int k;
    orc_sub(d, p, s->p[0]);
    for (k = 0; k < 3; k++)
        out[k] = orc_dot(s->axis[k], d);
}

static void from_box(const orcc_shape *s, const double *q, double *out)
{
    int k;
    for (k = 0; k < 3; k++)
        out[k] = s->p[0][k] + q[0] * s->axis[0][k] + q[1] * s->axis[1][k] + q[2] * s->axis[2][k];
}

orc_verdict orcc_shape_triangle(const orcc_shape *s, const double (*tri)[3], double band, orcc_contact *out)
{
    orcc_contact c;
    double x[3], y[3];
    memset(&c, 0, sizeof c);
    switch (s->kind) {
    case ORCC_SPHERE:
    case ORCC_CAPSULE:
        if (s->kind == ORCC_SPHERE) {
            c.core = orc_closest_triangle(s->p[0], tri[0], tri[1], tri[2], y);
            copy3(x, s->p[0]);
        } else {
            c.core = orcc_segment_triangle(s->p[0], s->p[1], tri, x, y);
        }
        c.meets = c.core <= s->radius;
        c.distance = c.core > s->radius ? c.core - s->radius : 0.0;
        c.depth = s->radius > c.core ? s->radius - c.core : 0.0;
        copy3(c.shape_point, x);
        copy3(c.tri_point, y);
        if (out != NULL)
            *out = c;
        return orc_ball(c.core, s->radius, band);
    case ORCC_OBB: {
        double t[3][3], pb[3], pt[3], gap;
        int i;
        for (i = 0; i < 3; i++)
            to_box(s, tri[i], t[i]);
        gap = box_tri_sat(s->half, (const double(*)[3])t);
        c.meets = gap <= 0.0;
        c.sat_depth = c.meets ? -gap : 0.0;
        c.distance = orcc_box_triangle(s->half, (const double(*)[3])t, pb, pt);
        from_box(s, pb, c.shape_point);
        from_box(s, pt, c.tri_point);
        break;
    }
    case ORCC_TRIANGLE:
        c.distance = orcc_triangle_triangle((const double(*)[3])s->p, tri, c.shape_point, c.tri_point);
        c.meets = orcc_triangles_meet((const double(*)[3])s->p, tri);
        if (c.meets) {
            double g = -tri_tri_sat((const double(*)[3])s->p, tri);
            c.sat_depth = g > 0.0 ? g : 0.0;
        }
        break;
    case ORCC_HULL:
        c.meets = hull_meets(s, tri);
        if (c.meets) {
            double g = -hull_tri_sat(s, tri);
            c.sat_depth = g > 0.0 ? g : 0.0;
            /* a shared point, for the record: a hull piece's, or a triangle corner inside */
            if (hull_tri_distance(s, tri, c.shape_point, c.tri_point) > 0.0) {
                copy3(c.shape_point, tri[0]);
                copy3(c.tri_point, tri[0]);
            }
        } else {
            c.distance = hull_tri_distance(s, tri, c.shape_point, c.tri_point);
        }
        break;
    }
    if (c.meets)
        c.distance = 0.0;
    c.core = c.distance;
    if (out != NULL)
        *out = c;
    return c.meets ? verdict_of(true, c.sat_depth, band) : verdict_of(false, c.distance, band);
}

double orcc_point_shape(const double *p, const orcc_shape *s)
{
    double y[3], d;
    unsigned i, j, k;
    switch (s->kind) {
    case ORCC_SPHERE:
        d = orc_dist(p, s->p[0]) - s->radius;
        return d > 0.0 ? d : 0.0;
    case ORCC_CAPSULE:
        d = orc_closest_segment(p, s->p[0], s->p[1], y) - s->radius;
        return d > 0.0 ? d : 0.0;
    case ORCC_OBB:
        to_box(s, p, y);
        return point_box(y, s->half, NULL);
    case ORCC_TRIANGLE:
        return orc_closest_triangle(p, s->p[0], s->p[1], s->p[2], y);
    case ORCC_HULL: {
        double best = -1.0, t[3][3];
        if (s->dim == 0)
            return orc_dist(p, s->p[0]);
        if (s->dim == 3 && hull_contains(s, p))
            return 0.0;
        for (i = 0; i < s->n; i++)
            for (j = i + 1; j < s->n; j++) {
                if (s->dim == 1) {
                    d = orc_closest_segment(p, s->p[i], s->p[j], y);
                    best = best < 0.0 || d < best ? d : best;
                    continue;
                }
                for (k = j + 1; k < s->n; k++) {
                    if (!face_bit(s, i, j, k))
                        continue;
                    hull_tri(s, i, j, k, t);
                    d = orc_closest_triangle(p, t[0], t[1], t[2], y);
                    best = best < 0.0 || d < best ? d : best;
                }
            }
        return best;
    }
    }
    return 0.0;
}

/* ---- meshes --------------------------------------------------------------------------------- */

static uint32_t mesh_corner(const copse_mesh *m, uint32_t t, unsigned k)
{
    if (m->index_type == COPSE_MESH_INDEX_U16)
        return ((const uint16_t *)m->indices)[(size_t)t * 3u + k];
    if (m->index_type == COPSE_MESH_INDEX_U32)
        return ((const uint32_t *)m->indices)[(size_t)t * 3u + k];
    return t * 3u + k;
}

static void mesh_vertex(const copse_mesh *m, uint32_t v, double *out)
{
    uint32_t stride = m->vertex_stride != 0 ? m->vertex_stride : 12u;
    const float *p = (const float *)(const void *)((const uint8_t *)m->positions + (size_t)v * stride);
    out[0] = (double)p[0];
    out[1] = (double)p[1];
    out[2] = (double)p[2];
}

void orcc_mesh_triangle(const copse_mesh *m, uint32_t t, double (*v)[3])
{
    unsigned k;
    for (k = 0; k < 3; k++)
        mesh_vertex(m, mesh_corner(m, t, k), v[k]);
}

void orcc_mesh_triangle_posed(const copse_mesh *m, uint32_t t, const orcc_pose *pose, double (*v)[3])
{
    unsigned k;
    orcc_mesh_triangle(m, t, v);
    for (k = 0; k < 3; k++)
        orcc_pose_apply(pose, v[k], v[k]);
}

double orcc_mesh_mag(const copse_mesh *m)
{
    double v[3][3], best = 0.0;
    uint32_t t;
    unsigned k;
    for (t = 0; t < m->triangle_count; t++) {
        orcc_mesh_triangle(m, t, v);
        for (k = 0; k < 3; k++)
            best = dmax(best, orc_max_abs(v[k]));
    }
    return best;
}

void orcc_mesh_query(const copse_mesh *m, const orcc_shape *s, double band, uint8_t *verdict, double *core,
                     orcc_nearest *nearest)
{
    double v[3][3];
    uint32_t t;
    orcc_contact c;
    orc_verdict vd;
    if (nearest != NULL) {
        memset(nearest, 0, sizeof *nearest);
        nearest->tree_id = COPSE_NONE;
        nearest->shape_id = COPSE_NONE;
    }
    for (t = 0; t < m->triangle_count; t++) {
        orcc_mesh_triangle(m, t, v);
        vd = orcc_shape_triangle(s, (const double(*)[3])v, band, &c);
        if (verdict != NULL)
            verdict[t] = (uint8_t)vd;
        if (core != NULL)
            core[t] = c.core;
        if (nearest != NULL && (nearest->tree_id == COPSE_NONE || c.core < nearest->c.core)) {
            nearest->tree_id = t;
            nearest->c = c;
        }
    }
}

static void tri_bounds(const double (*v)[3], double *lo, double *hi)
{
    int k;
    for (k = 0; k < 3; k++) {
        lo[k] = v[0][k] < v[1][k] ? v[0][k] : v[1][k];
        lo[k] = v[2][k] < lo[k] ? v[2][k] : lo[k];
        hi[k] = v[0][k] > v[1][k] ? v[0][k] : v[1][k];
        hi[k] = v[2][k] > hi[k] ? v[2][k] : hi[k];
    }
}

/* A lower bound of the distance between two triangles: the gap between their boxes. */
static double box_gap(const double (*a)[3], const double (*b)[3])
{
    double alo[3], ahi[3], blo[3], bhi[3], g = 0.0;
    int k;
    tri_bounds(a, alo, ahi);
    tri_bounds(b, blo, bhi);
    for (k = 0; k < 3; k++) {
        double gk = dmax(alo[k] - bhi[k], blo[k] - ahi[k]);
        g = dmax(g, gk);
    }
    return g;
}

void orcc_pairs_overlap(const copse_mesh *tree, const copse_mesh *mesh, const orcc_pose *pose, double band,
                        uint8_t *verdict)
{
    double a[3][3], b[3][3];
    uint32_t t, s, nm = mesh->triangle_count;
    for (s = 0; s < nm; s++) {
        orcc_mesh_triangle_posed(mesh, s, pose, b);
        for (t = 0; t < tree->triangle_count; t++) {
            orcc_mesh_triangle(tree, t, a);
            if (box_gap((const double(*)[3])a, (const double(*)[3])b) > band)
                verdict[(size_t)t * nm + s] = (uint8_t)ORC_NO;
            else
                verdict[(size_t)t * nm + s] =
                    (uint8_t)orcc_triangle_verdict((const double(*)[3])a, (const double(*)[3])b, band);
        }
    }
}

void orcc_pairs_nearest(const copse_mesh *tree, const copse_mesh *mesh, const orcc_pose *pose, orcc_nearest *out)
{
    double a[3][3], b[3][3], pa[3], pb[3], d;
    uint32_t t, s;
    memset(out, 0, sizeof *out);
    out->tree_id = COPSE_NONE;
    out->shape_id = COPSE_NONE;
    for (t = 0; t < tree->triangle_count; t++) {
        orcc_mesh_triangle(tree, t, a);
        for (s = 0; s < mesh->triangle_count; s++) {
            orcc_mesh_triangle_posed(mesh, s, pose, b);
            if (out->tree_id != COPSE_NONE && box_gap((const double(*)[3])a, (const double(*)[3])b) > out->c.distance)
                continue;
            d = orcc_triangle_triangle((const double(*)[3])a, (const double(*)[3])b, pa, pb);
            if (out->tree_id == COPSE_NONE || d < out->c.distance) {
                out->tree_id = t;
                out->shape_id = s;
                out->c.distance = out->c.core = d;
                copy3(out->c.tri_point, pa);
                copy3(out->c.shape_point, pb);
            }
        }
    }
}

/* SPDX-License-Identifier: MIT */
/*
 * GJK distance between two convex hulls (geom_collide.h, "convex sets").
 *
 * The sub-simplex solver is the signed-volumes method (Montanari, Petrinic, Barbieri, "Improving
 * the GJK algorithm for faster and more reliable distance queries between convex objects", ACM
 * TOG 2017): the origin's barycentric coordinates come from signed areas in the largest
 * axis-aligned projection of a triangle and from signed volumes of a tetrahedron, not from
 * Johnson's Gram determinants, which lose most digits on thin simplices in float. Every result is
 * a convex combination of support points, so the points returned lie on the hulls whatever the
 * rounding, and the distance is never below the true one by more than the rounding of the points.
 *
 * Termination: the support point is already a simplex vertex; or the lower bound v . w / |v|
 * meets the upper bound |v| to the rounding of the dot products; or |v| stops shrinking (rounding
 * has the last word); or |v| is within the tolerance of the radii (overlap decided); or the origin
 * is inside a tetrahedron; or COPSE_GJK_MAX_ITERATIONS. Measured on random hulls of 8 to 1024
 * points against triangles and boxes: 4 to 6.5 iterations on average, 15 at most; the distance
 * within 2 ulps of the scale of the oracle's (tests/test_geom_sweep.c).
 *
 * The whole computation is odd under swapping the hulls (every simplex vertex w = a - b changes
 * sign, exactly, and every decision depends on products of pairs of them or on signs of ratios),
 * so gjk(b, a) returns the outputs of gjk(a, b) swapped, bit for bit. Hulls need at least one
 * point. Stack: 372 bytes at most on Cortex-M4 at -O2 (the simplex with its indices and weights
 * is 116 of them; the rest is mostly registers saved).
 */
#include "geom_collide.h" /* first: geom_internal.h turns FMA contraction off */

#include <stddef.h>

COPSE_INLINE float gjk_max_abs3(const float *v)
{
    return geo_max(copse_fabsf(v[0]), geo_max(copse_fabsf(v[1]), copse_fabsf(v[2])));
}

/* A power of two f with m f in [1, 4) (m > 0 finite; 1 for 0): scaling by it is exact, and keeps
 * the solver's cubes and fourth powers of coordinates (up to the 1e19 of geom_collide.h) in
 * range. */
static float gjk_pow2_inv(float m)
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

/* Point i of the hull, mapped by its rotation and translation. */
static void hull_point(const geo_hull *h, uint32_t i, float *out)
{
    const copse_vec3 *p = &h->points[i];
    float x = p->x, y = p->y, z = p->z;
    if (h->rot != NULL) {
        const float *r = h->rot;
        out[0] = r[0] * x + r[1] * y + r[2] * z;
        out[1] = r[3] * x + r[4] * y + r[5] * z;
        out[2] = r[6] * x + r[7] * y + r[8] * z;
    } else {
        out[0] = x;
        out[1] = y;
        out[2] = z;
    }
    if (h->trans != NULL) {
        out[0] += h->trans[0];
        out[1] += h->trans[1];
        out[2] += h->trans[2];
    }
}

/* The index of the hull point farthest along d (along -d when `against`; the lowest index on
 * ties): d . (R p + t) is largest where (R^T d) . p is, so the scan reads the points as they are. */
static uint32_t hull_support(const geo_hull *h, const float *d, bool against)
{
    float dl[3], ds[3], best, f;
    const copse_vec3 *p = h->points;
    uint32_t i, bi = 0;
    /* only the direction counts: brought near unit length, exactly, so no product overflows */
    f = gjk_pow2_inv(geo_max(copse_fabsf(d[0]), geo_max(copse_fabsf(d[1]), copse_fabsf(d[2]))));
    ds[0] = d[0] * f;
    ds[1] = d[1] * f;
    ds[2] = d[2] * f;
    d = ds;
    if (h->rot != NULL) {
        const float *r = h->rot;
        dl[0] = r[0] * d[0] + r[3] * d[1] + r[6] * d[2];
        dl[1] = r[1] * d[0] + r[4] * d[1] + r[7] * d[2];
        dl[2] = r[2] * d[0] + r[5] * d[1] + r[8] * d[2];
    } else {
        dl[0] = d[0];
        dl[1] = d[1];
        dl[2] = d[2];
    }
    if (against) { /* exact: the same bits as scanning along -d */
        dl[0] = -dl[0];
        dl[1] = -dl[1];
        dl[2] = -dl[2];
    }
    best = p->x * dl[0] + p->y * dl[1] + p->z * dl[2]; /* geo_dot3's order */
    for (i = 1; i < h->count; i++) {
        float s;
        p++;
        s = p->x * dl[0] + p->y * dl[1] + p->z * dl[2];
        if (s > best) {
            best = s;
            bi = i;
        }
    }
    return bi;
}

/* ---- signed volumes ------------------------------------------------------------------------- */
/* Each solver writes the weights of the simplex vertices it keeps into lam (indices into w), the
 * closest point itself into v, and returns the vertices kept as a bit mask; weights outside the
 * mask are scratch. Where several sub-simplices compete, each is tried in lam and v, and the
 * closest is solved again: no copies of candidates on the stack.
 *
 * v is computed the most accurate way for its feature, not as sum lam_k w_k: when the origin is
 * near a large simplex, that sum carries an error of an ulp of the vertices, which tilts the next
 * search direction enough to pick the wrong one of two nearly tied support points (a sliver's long
 * edges) and stop early. */

COPSE_INLINE bool sv_same_sign(float a, float b)
{
    return (a > 0.0f && b > 0.0f) || (a < 0.0f && b < 0.0f);
}

COPSE_INLINE void sv_copy3(float *out, const float *a)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

/* The segment w[i] w[j]: the origin's projection onto its line, clamped. */
static unsigned sv_segment(const float (*w)[3], unsigned i, unsigned j, float *lam, float *v)
{
    float t[3], tt, u;
    geo_sub3(t, w[j], w[i]);
    tt = geo_dot3(t, t);
    u = tt > 0.0f ? -geo_dot3(w[i], t) / tt : 0.0f;
    if (!(u > 0.0f)) {
        lam[i] = 1.0f;
        sv_copy3(v, w[i]);
        return 1u << i;
    }
    if (u >= 1.0f) {
        lam[j] = 1.0f;
        sv_copy3(v, w[j]);
        return 1u << j;
    }
    lam[i] = 1.0f - u;
    lam[j] = u;
    v[0] = w[i][0] + u * t[0];
    v[1] = w[i][1] + u * t[1];
    v[2] = w[i][2] + u * t[2];
    return 1u << i | 1u << j;
}

/* The edge of triangle id[] opposite its corner m. */
COPSE_INLINE unsigned sv_edge(const float (*w)[3], const unsigned *id, unsigned m, float *lam, float *v)
{
    return sv_segment(w, id[m == 2u ? 0u : m + 1u], id[m == 0u ? 2u : m - 1u], lam, v);
}

/* The triangle w[id[0..2]]: project the origin onto its plane, then compare the signed areas of
 * the sub-triangles in the coordinate plane where the triangle's projection is largest. Where
 * the projection falls outside (or the triangle has no area), the closest of the edges facing
 * it (all three when it has no area). */
static unsigned sv_triangle(const float (*w)[3], const unsigned *id, float *lam, float *v)
{
    float n[3], p[3], c[3] = { 0.0f, 0.0f, 0.0f }, mu = 0.0f, best = FLT_MAX;
    unsigned m, bm = 0;
    {
        float e1[3], e2[3], nn;
        geo_sub3(e1, w[id[1]], w[id[0]]);
        geo_sub3(e2, w[id[2]], w[id[0]]);
        geo_cross3(n, e1, e2);
        nn = geo_dot3(n, n);
        if (nn > 0.0f) {
            float s = geo_dot3(w[id[0]], n) / nn;
            unsigned k, a, b;
            p[0] = s * n[0];
            p[1] = s * n[1];
            p[2] = s * n[2];
            k = copse_fabsf(n[0]) >= copse_fabsf(n[1]) ? 0u : 1u;
            k = copse_fabsf(n[k]) >= copse_fabsf(n[2]) ? k : 2u;
            a = k == 2u ? 0u : k + 1u;
            b = a == 2u ? 0u : a + 1u;
            for (m = 0; m < 3u; m++) {
                const float *q = w[id[m == 2u ? 0u : m + 1u]], *r = w[id[m == 0u ? 2u : m - 1u]];
                c[m] = (q[a] - p[a]) * (r[b] - p[b]) - (q[b] - p[b]) * (r[a] - p[a]);
            }
            mu = c[0] + c[1] + c[2];
        }
    }
    if (sv_same_sign(c[0], mu) && sv_same_sign(c[1], mu) && sv_same_sign(c[2], mu)) {
        for (m = 0; m < 3u; m++)
            lam[id[m]] = c[m] / mu;
        sv_copy3(v, p); /* along the normal: its direction does not depend on the origin's distance */
        return 1u << id[0] | 1u << id[1] | 1u << id[2];
    }
    for (m = 0; m < 3u; m++) {
        if (mu == 0.0f || !sv_same_sign(c[m], mu)) {
            float d2;
            (void)sv_edge(w, id, m, lam, v);
            d2 = geo_dot3(v, v);
            if (d2 < best) {
                best = d2;
                bm = m;
            }
        }
    }
    return sv_edge(w, id, bm, lam, v);
}

COPSE_INLINE float sv_det3(const float *a, const float *b, const float *c)
{
    float bc[3];
    geo_cross3(bc, b, c);
    return geo_dot3(a, bc);
}

/* The face of the tetrahedron opposite its corner m. */
static unsigned sv_face(const float (*w)[3], unsigned m, float *lam, float *v)
{
    unsigned id[3], j, q = 0;
    for (j = 0; j < 4u; j++)
        if (j != m)
            id[q++] = j;
    return sv_triangle(w, id, lam, v);
}

/* The tetrahedron w[0..3]: c[m] is the signed volume with the origin in place of w[m]. All of
 * one sign with their sum: the origin is inside. Else the closest of the faces facing it. */
static unsigned sv_tetra(const float (*w)[3], float *lam, float *v)
{
    float c[4], mu, best = FLT_MAX;
    unsigned m, bm = 0;
    c[0] = sv_det3(w[1], w[2], w[3]);
    c[1] = -sv_det3(w[0], w[2], w[3]);
    c[2] = sv_det3(w[0], w[1], w[3]);
    c[3] = -sv_det3(w[0], w[1], w[2]);
    mu = c[0] + c[1] + c[2] + c[3];
    if (sv_same_sign(c[0], mu) && sv_same_sign(c[1], mu) && sv_same_sign(c[2], mu) && sv_same_sign(c[3], mu)) {
        for (m = 0; m < 4u; m++)
            lam[m] = c[m] / mu;
        v[0] = v[1] = v[2] = 0.0f;
        return 15u;
    }
    for (m = 0; m < 4u; m++) {
        if (!sv_same_sign(c[m], mu)) {
            float d2;
            (void)sv_face(w, m, lam, v);
            d2 = geo_dot3(v, v);
            if (d2 < best) {
                best = d2;
                bm = m;
            }
        }
    }
    return sv_face(w, bm, lam, v);
}

/* ---- GJK ------------------------------------------------------------------------------------- */

/* The simplex: up to four vertices w = a - b of the Minkowski difference, each with the indices
 * of the support points a (hull A) and b (hull B) that made it, and its weight in the closest
 * point. */
typedef struct gjk_simplex {
    float w[4][3];
    float lam[4];
    uint32_t ia[4], ib[4];
    unsigned n;
} gjk_simplex;

/* Reduces the simplex to the vertices that carry the closest point (weights in lam[0..n)); the
 * closest point in v. */
static void gjk_solve(gjk_simplex *s, float *v)
{
    static const unsigned k_tri[3] = { 0, 1, 2 };
    const float(*w)[3] = (const float(*)[3])s->w;
    float m = 0.0f, f, g;
    unsigned mask, k, j, n = 0;
    /* solved at unit scale (exactly: a power of two), back after */
    for (k = 0; k < s->n; k++)
        m = geo_max(m, gjk_max_abs3(s->w[k]));
    f = gjk_pow2_inv(m);
    g = 1.0f / f;
    for (k = 0; k < s->n; k++)
        for (j = 0; j < 3u; j++)
            s->w[k][j] *= f;
    if (s->n == 2u)
        mask = sv_segment(w, 0, 1, s->lam, v);
    else if (s->n == 3u)
        mask = sv_triangle(w, k_tri, s->lam, v);
    else
        mask = sv_tetra(w, s->lam, v);
    v[0] *= g;
    v[1] *= g;
    v[2] *= g;
    for (k = 0; k < s->n; k++) {
        if (mask >> k & 1u) {
            s->w[n][0] = s->w[k][0] * g;
            s->w[n][1] = s->w[k][1] * g;
            s->w[n][2] = s->w[k][2] * g;
            s->ia[n] = s->ia[k];
            s->ib[n] = s->ib[k];
            s->lam[n++] = s->lam[k];
        }
    }
    s->n = n;
}

/* The outputs from the final simplex: the closest points of the cores (the same weights on the
 * support points), then grown by the radii, or one shared point when within the tolerance. */
static COPSE_NOINLINE float gjk_finish(const geo_hull *ha, const geo_hull *hb, const gjk_simplex *s, bool inside,
                                       float slack, float *pa, float *pb)
{
    float a[3], b[3], ca[3], cb[3], dir[3], d;
    const float rsum = ha->radius + hb->radius;
    unsigned k;
    ca[0] = ca[1] = ca[2] = cb[0] = cb[1] = cb[2] = 0.0f;
    for (k = 0; k < s->n; k++) {
        hull_point(ha, s->ia[k], a);
        hull_point(hb, s->ib[k], b);
        ca[0] += s->lam[k] * a[0];
        ca[1] += s->lam[k] * a[1];
        ca[2] += s->lam[k] * a[2];
        cb[0] += s->lam[k] * b[0];
        cb[1] += s->lam[k] * b[1];
        cb[2] += s->lam[k] * b[2];
    }
    geo_sub3(dir, cb, ca);
    d = copse_sqrtf(geo_dot3(dir, dir));
    if (d > 0.0f) {
        dir[0] /= d;
        dir[1] /= d;
        dir[2] /= d;
    }
    if (inside || d - rsum <= slack) {
        /* overlap: one shared point, in both grown cores when the cores are apart (the midpoint
         * moved toward the smaller radius; written from both sides alike, so swapping the hulls
         * gives the same bits) */
        const float x = ha->radius - hb->radius; /* changes sign, exactly, with the order */
        for (k = 0; k < 3u; k++) {
            float p;
            if (d == 0.0f || inside)
                p = 0.5f * (ca[k] + cb[k]);
            else if (x <= -d) /* B's ball holds A's core point */
                p = ca[k];
            else if (x >= d)
                p = cb[k];
            else
                p = 0.5f * (ca[k] + cb[k]) + dir[k] * (0.5f * x);
            pa[k] = pb[k] = p;
        }
        return 0.0f;
    }
    for (k = 0; k < 3u; k++) {
        pa[k] = ca[k] + dir[k] * ha->radius;
        pb[k] = cb[k] - dir[k] * hb->radius;
    }
    return geo_dist_sq3(pa, pb);
}

float copse_geo_gjk(const geo_hull *ha, const geo_hull *hb, float *pa, float *pb)
{
    gjk_simplex s;
    float v[3], b[3], d2, scale;
    const float rsum = ha->radius + hb->radius;
    unsigned it, k;
    bool inside = false;

    hull_point(ha, 0, s.w[0]);
    hull_point(hb, 0, b);
    scale = geo_max(geo_max(gjk_max_abs3(s.w[0]), gjk_max_abs3(b)), rsum);
    geo_sub3(s.w[0], s.w[0], b);
    s.ia[0] = s.ib[0] = 0;
    s.lam[0] = 1.0f;
    s.n = 1;
    sv_copy3(v, s.w[0]);
    d2 = geo_dot3(v, v);
    for (it = 0; it < COPSE_GJK_MAX_ITERATIONS; it++) {
        float *w = s.w[s.n], vw, err, nd2, stop = rsum + COPSE_GJK_TOLERANCE * scale;
        uint32_t ia, ib;
        if (d2 <= stop * stop)
            break; /* the upper bound |v| already says overlap */
        ia = hull_support(ha, v, true);
        ib = hull_support(hb, v, false);
        for (k = 0; k < s.n; k++)
            if (s.ia[k] == ia && s.ib[k] == ib)
                break;
        if (k < s.n)
            break; /* the support point is already a vertex: v is the closest point */
        hull_point(ha, ia, w);
        hull_point(hb, ib, b);
        scale = geo_max(scale, geo_max(gjk_max_abs3(w), gjk_max_abs3(b)));
        geo_sub3(w, w, b);
        /* v . w / |v| is a lower bound on the distance: stop when it meets |v| to the rounding of
         * the two dot products (and a relative 8 ulps) */
        vw = geo_dot3(v, w);
        err = copse_fabsf(v[0] * w[0]) + copse_fabsf(v[1] * w[1]) + copse_fabsf(v[2] * w[2]);
        if (d2 - vw <= FLT_EPSILON * (8.0f * d2 + 4.0f * err))
            break;
        s.ia[s.n] = ia;
        s.ib[s.n] = ib;
        s.n++;
        gjk_solve(&s, v);
        if (s.n == 4u) {
            inside = true; /* the origin is inside the tetrahedron */
            break;
        }
        nd2 = geo_dot3(v, v);
        if (!(nd2 < d2)) /* no progress: rounding has the last word */
            break;
        d2 = nd2;
    }
    return gjk_finish(ha, hb, &s, inside, COPSE_GJK_TOLERANCE * scale, pa, pb);
}

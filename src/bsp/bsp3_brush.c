/* SPDX-License-Identifier: MIT */
/*
 * Brushes: the helpers that make them, and what the 3D builder learns about each one before
 * it cuts anything (unit planes, corners, bevels, how far an expanded brush reaches).
 *
 * A brush that encloses no finite region is found first, from its normals alone (bounded()).
 * Corners then come from every triple of planes, intersected and kept when they lie behind
 * every plane. A convex polyhedron with F faces has at most 2F - 4 corners, which sizes their
 * storage from the plane counts alone.
 *
 * Float only (docs/design.md rule 8). Where a float is not enough (a corner of nearly parallel
 * planes, a distance to a plane under a millionth of the brush's scale) the values are pairs of
 * floats h + l, about 46 bits (Dekker and Knuth: two-sum, Veltkamp's split with 4097 and the
 * exact two-product; no fma, every step rounded into a float variable, so the same bytes on
 * every target), and each brush is first scaled by a power of two (exact) so that no product
 * or split overflows. The convexity of a polygon is the exact orientation predicate's sign.
 */
#include "bsp3_internal.h"
#include "../geom/geom_collide.h" /* copse_geo_orient2d */

copse_status copse_brush_from_box(const copse_box3 *box, copse_plane planes[6])
{
    unsigned a;
    if (box == NULL || planes == NULL)
        return COPSE_ERR_NULL;
    if (!bsp_finite3(&box->min) || !bsp_finite3(&box->max))
        return COPSE_ERR_NONFINITE;
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
        return COPSE_ERR_PARAM;
    if (box->min.x == box->max.x || box->min.y == box->max.y || box->min.z == box->max.z)
        return COPSE_ERR_DEGENERATE;
    for (a = 0; a < 3; a++) {
        const float lo = a == 0 ? box->min.x : (a == 1 ? box->min.y : box->min.z);
        const float hi = a == 0 ? box->max.x : (a == 1 ? box->max.y : box->max.z);
        copse_plane *neg = &planes[2u * a], *pos = &planes[2u * a + 1u];
        neg->normal = copse_v3(a == 0 ? -1.0f : 0.0f, a == 1 ? -1.0f : 0.0f, a == 2 ? -1.0f : 0.0f);
        neg->dist = -lo;
        pos->normal = copse_v3(a == 0 ? 1.0f : 0.0f, a == 1 ? 1.0f : 0.0f, a == 2 ? 1.0f : 0.0f);
        pos->dist = hi;
    }
    return COPSE_OK;
}

copse_status copse_brush_from_polygon(const copse_vec2 *corners, uint32_t count, float z0, float z1,
                                      copse_plane *planes, uint32_t capacity, uint32_t *plane_count)
{
    uint32_t i;
    int winding = 0;
    if (plane_count != NULL)
        *plane_count = 0;
    if (corners == NULL || planes == NULL || plane_count == NULL)
        return COPSE_ERR_NULL;
    if (count < 3u || count > COPSE_BSP3_MAX_SIDES - 2u)
        return count < 3u ? COPSE_ERR_PARAM : COPSE_ERR_TOO_LARGE;
    if (!geo_finite(z0) || !geo_finite(z1))
        return COPSE_ERR_NONFINITE;
    for (i = 0; i < count; i++)
        if (!bsp_finite2(&corners[i]))
            return COPSE_ERR_NONFINITE;
    if (!(z0 < z1))
        return z0 == z1 ? COPSE_ERR_DEGENERATE : COPSE_ERR_PARAM;
    /* convex: every turn the same way (the exact sign of (q - p) x (r - p) for float inputs) */
    for (i = 0; i < count; i++) {
        const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count], *r = &corners[(i + 2u) % count];
        const float a[3] = {p->x, p->y, 0.0f}, b[3] = {q->x, q->y, 0.0f}, c[3] = {r->x, r->y, 0.0f};
        const int s = copse_geo_orient2d(a, b, c, 2u);
        if (s == 0)
            return COPSE_ERR_DEGENERATE; /* a repeated or collinear corner */
        if (winding != 0 && s != winding)
            return COPSE_ERR_NONCONVEX;
        winding = s;
    }
    /* a star polygon turns one way at every corner but winds round twice: the edges' y
     * direction then changes sign four times instead of twice */
    {
        uint32_t changes = 0;
        int first = 0, last = 0;
        for (i = 0; i < count; i++) {
            const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count];
            int s = q->y > p->y ? 1 : (q->y < p->y ? -1 : 0);
            if (s == 0)
                continue;
            if (last != 0 && s != last)
                changes++;
            first = first == 0 ? s : first;
            last = s;
        }
        changes += last != first;
        if (changes != 2u)
            return COPSE_ERR_NONCONVEX;
    }
    if (capacity < count + 2u)
        return COPSE_ERR_NOMEM;
    for (i = 0; i < count; i++) {
        const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count];
        /* outward normal of edge p -> q: right of the edge for counter-clockwise corners */
        float nx = winding > 0 ? q->y - p->y : p->y - q->y;
        float ny = winding > 0 ? p->x - q->x : q->x - p->x;
        planes[i].normal = copse_v3(nx, ny, 0.0f);
        planes[i].dist = nx * p->x + ny * p->y;
        if (!geo_finite(planes[i].dist) || !geo_finite(nx) || !geo_finite(ny))
            return COPSE_ERR_NONFINITE; /* corners too far apart for float */
    }
    planes[count].normal = copse_v3(0.0f, 0.0f, -1.0f);
    planes[count].dist = -z0;
    planes[count + 1u].normal = copse_v3(0.0f, 0.0f, 1.0f);
    planes[count + 1u].dist = z1;
    *plane_count = count + 2u;
    return COPSE_OK;
}

/* ---- what the builder learns about a brush -------------------------------------------------- */

bool copse_bsp3_needs_bevel(const copse_brush *in, unsigned k)
{
    const unsigned axis = k / 2u;
    const float sign = (k & 1u) ? -1.0f : 1.0f;
    uint32_t j;
    for (j = 0; j < in->plane_count; j++) {
        const copse_vec3 *n = &in->planes[j].normal;
        if (bsp3_at(n, axis) * sign > 0.0f && bsp3_at(n, (axis + 1u) % 3u) == 0.0f &&
            bsp3_at(n, (axis + 2u) % 3u) == 0.0f)
            return false;
    }
    return true;
}

uint32_t copse_bsp3_bevel_count(const copse_brush *in)
{
    uint32_t k, count = 0;
    for (k = 0; k < 6; k++)
        count += copse_bsp3_needs_bevel(in, k);
    return count;
}

copse_status copse_bsp3_check_input(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params)
{
    uint32_t i, k;
    if (params == NULL || (brushes == NULL && count > 0))
        return COPSE_ERR_NULL;
    if (params->max_depth < 1u || params->max_depth > COPSE_BSP_MAX_DEPTH || params->split_weight > 1000u)
        return COPSE_ERR_PARAM;
    if (count > COPSE_BSP_MAX_OBJECTS)
        return COPSE_ERR_TOO_LARGE;
    for (i = 0; i < count; i++) {
        const copse_brush *b = &brushes[i];
        if (b->planes == NULL && b->plane_count > 0)
            return COPSE_ERR_NULL;
        if (b->plane_count > COPSE_BSP3_MAX_SIDES)
            return COPSE_ERR_TOO_LARGE;
        if (b->plane_count < 4u)
            return COPSE_ERR_UNBOUNDED; /* fewer than four half-spaces never enclose a volume */
        for (k = 0; k < b->plane_count; k++) {
            const copse_plane *p = &b->planes[k];
            if (!bsp_finite3(&p->normal) || !geo_finite(p->dist))
                return COPSE_ERR_NONFINITE;
            if (p->normal.x == 0.0f && p->normal.y == 0.0f && p->normal.z == 0.0f)
                return COPSE_ERR_PARAM;
        }
    }
    return COPSE_OK;
}

/* ---- pairs of floats ------------------------------------------------------------------------ */

/* The value h + l, with h the float nearest to it: about 46 significant bits. */
typedef struct bf2 {
    float h, l;
} bf2;

/* 1e-6 (the tolerance per unit of scale), 1e-9 (the triple product of planes that meet in no
 * single point) and 1e-18 (the squared cross product of parallel normals) as pairs: the
 * thresholds of the double-precision code this replaced. */
#define BF_MICRO_H 0x1.0c6f7ap-20f
#define BF_MICRO_L 0x1.6bdb1ap-49f
#define BF_NANO_H 0x1.12e0bep-30f
#define BF_NANO_L 0x1.04dad2p-55f
#define BF_ATTO_H 0x1.2725dep-60f
#define BF_ATTO_L (-0x1.c5b78ap-85f)

COPSE_INLINE bf2 bf_make(float h, float l)
{
    bf2 r;
    r.h = h;
    r.l = l;
    return r;
}

COPSE_INLINE bf2 bf_neg(bf2 a)
{
    return bf_make(-a.h, -a.l);
}

COPSE_INLINE bf2 bf_abs(bf2 a)
{
    return a.h < 0.0f ? bf_neg(a) : a;
}

/* a + b exactly, when |a| >= |b| or a = 0 (Dekker's fast two-sum). */
COPSE_INLINE bf2 bf_quick(float a, float b)
{
    const float s = a + b;
    const float z = s - a;
    return bf_make(s, b - z);
}

/* a + b exactly (Knuth's two-sum). */
COPSE_INLINE bf2 bf_two_sum(float a, float b)
{
    const float s = a + b;
    const float bv = s - a;
    const float av = s - bv;
    const float eb = b - bv;
    const float ea = a - av;
    return bf_make(s, ea + eb);
}

/* a * b exactly (Dekker's product with Veltkamp's split; |a|, |b| below 2^115 so that the
 * split cannot overflow, and a product far below 1 loses only a tail under 2^-126). */
static COPSE_NOINLINE bf2 bf_two_prod(float a, float b)
{
    const float x = a * b;
    const float ca = 4097.0f * a, cb = 4097.0f * b;
    const float ba = ca - a, bb = cb - b;
    const float ah = ca - ba, bh = cb - bb;
    const float al = a - ah, bl = b - bh;
    const float p1 = ah * bh, p2 = al * bh, p3 = ah * bl, p4 = al * bl;
    const float e1 = x - p1;
    const float e2 = e1 - p2;
    const float e3 = e2 - p3;
    return bf_make(x, p4 - e3);
}

/* a + b: the pairs' accurate sum (two-sums of both parts, renormalised twice), relative error
 * below 3 * 2^-48. */
static COPSE_NOINLINE bf2 bf_add(bf2 a, bf2 b)
{
    const bf2 s = bf_two_sum(a.h, b.h), t = bf_two_sum(a.l, b.l);
    const float c = s.l + t.h;
    const bf2 u = bf_quick(s.h, c);
    const float w = u.l + t.l;
    return bf_quick(u.h, w);
}

static COPSE_NOINLINE bf2 bf_mulf(bf2 a, float b)
{
    const bf2 p = bf_two_prod(a.h, b);
    const float t = a.l * b;
    const float c = p.l + t;
    return bf_quick(p.h, c);
}

static bf2 bf_sq(bf2 a)
{
    const bf2 p = bf_two_prod(a.h, a.h);
    const float t = a.h * a.l;
    const float t2 = t + t;
    const float c = p.l + t2;
    return bf_quick(p.h, c);
}

/* a / b, b != 0: the float quotient and one correction from the exact remainder. */
static bf2 bf_div(bf2 a, bf2 b)
{
    const float q1 = a.h / b.h;
    const bf2 r = bf_add(a, bf_neg(bf_mulf(b, q1)));
    const float q2 = r.h / b.h;
    return bf_quick(q1, q2);
}

/* a <= b (false when either is NaN) */
COPSE_INLINE bool bf_le(bf2 a, bf2 b)
{
    return bf_add(a, bf_neg(b)).h <= 0.0f;
}

/* p * q - r * s */
static COPSE_NOINLINE bf2 bf_cross(float p, float q, float r, float s)
{
    return bf_add(bf_two_prod(p, q), bf_neg(bf_two_prod(r, s)));
}

/* n . v - d (|v| and |d| below 2^100) */
static bf2 bf_plane(const copse_vec3 *n, const bf2 *v, float d)
{
    bf2 s = bf_mulf(v[0], n->x);
    s = bf_add(s, bf_mulf(v[1], n->y));
    s = bf_add(s, bf_mulf(v[2], n->z));
    return bf_add(s, bf_make(-d, 0.0f));
}

/* The sum of t[0..n), overwriting t, as accurate as in four times float's precision and then
 * rounded (Ogita, Rump and Oishi's SumK, K = 4: three passes of error-free two-sums move the
 * value into the last term, then a plain sum). */
static float bf_sum_k(float *t, unsigned n)
{
    unsigned pass, i;
    float s = 0.0f;
    for (pass = 0; pass < 3u; pass++)
        for (i = 1; i < n; i++) {
            const bf2 p = bf_two_sum(t[i], t[i - 1u]);
            t[i] = p.h;
            t[i - 1u] = p.l;
        }
    for (i = 0; i + 1u < n; i++)
        s += t[i];
    return s + t[n - 1u];
}

/* 2^e for -126 <= e <= 127 */
COPSE_INLINE float bf_pow2(int e)
{
    union {
        uint32_t u;
        float f;
    } b;
    b.u = (uint32_t)(e + 127) << 23;
    return b.f;
}

/* floor(log2 m) for a normal m > 0 */
COPSE_INLINE int bf_exponent(float m)
{
    union {
        float f;
        uint32_t u;
    } b;
    b.f = m;
    return (int)((b.u >> 23) & 0xFFu) - 127;
}

/* The power of two that brings a finite m >= 0 below 2^64 (to [2^63, 2^64)); 1 when it is. */
static float bf_range_down(float m)
{
    return m >= 0x1p64f ? bf_pow2(63 - bf_exponent(m)) : 1.0f;
}

/* x = f * 2^e with |f| in [1, 2), for a finite x != 0 (subnormals made normal first) */
static float bf_frexp(float x, int *e)
{
    union {
        float f;
        uint32_t u;
    } b;
    int k = 0;
    if (copse_fabsf(x) < 0x1p-100f) {
        x *= 0x1p100f;
        k = -100;
    }
    *e = k + bf_exponent(x);
    b.f = x;
    b.u = (b.u & 0x807FFFFFu) | (127u << 23);
    return b.f;
}

/* x * 2^e rounded once, for 1/8 <= |x| <= 8 and any e: a step that cannot round (the value stays
 * normal) goes before the one that may, and a result under 2^-157 is a signed 0 */
static float bf_ldexp(float x, int e)
{
    while (e > 120) {
        x *= 0x1p120f; /* an overflow here is the result's */
        e -= 120;
    }
    if (e < -160)
        return x * 0.0f;
    if (e < -120) {
        x *= 0x1p-120f;
        e += 120;
    }
    return x * bf_pow2(e);
}

/* ---- unit planes and corners -------------------------------------------------------------------- */

/* A unit plane from the caller's: normal and distance divided by the normal's length, rounded
 * once from pairs (the length from sqrtf and one Newton step for the pair: about 46 bits), so a
 * result differs from the correctly rounded one only when that lies within about 2^-46 of a
 * float's rounding boundary (or is subnormal). Every value is taken apart into a mantissa in
 * [1, 2) and a power of two first: the length's squares neither overflow nor underflow for any
 * float normal, each quotient is of mantissas, and the same plane at any scale gives the same
 * bytes. Axial normals stay exactly axial; zeros keep their sign. */
void copse_bsp3_unit_plane(const copse_plane *in, copse_plane *out)
{
    float n[4], f[4], x[3], r, r2, corr;
    int e[4], em = -1000;
    bf2 len2, len, res;
    unsigned k, zeros = 0;
    geo_v3_array(n, in->normal);
    n[3] = in->dist;
    for (k = 0; k < 3; k++)
        zeros += n[k] == 0.0f;
    if (zeros == 2u) { /* exactly axial: +-1, and the distance divided once */
        const float m = copse_fabsf(n[0] + n[1] + n[2]);
        out->normal = copse_v3(n[0] / m, n[1] / m, n[2] / m);
        out->dist = n[3] / m;
        return;
    }
    for (k = 0; k < 4; k++) {
        f[k] = n[k] == 0.0f ? 0.0f : bf_frexp(n[k], &e[k]);
        if (n[k] == 0.0f)
            e[k] = -1000;
        if (k < 3u)
            em = e[k] > em ? e[k] : em;
    }
    /* the normal over 2^(em - 1): its largest component in [2, 4), the length in [2, 7) */
    for (k = 0; k < 3; k++)
        x[k] = n[k] == 0.0f ? 0.0f : bf_ldexp(f[k], e[k] + 1 - em);
    len2 = bf_add(bf_add(bf_two_prod(x[0], x[0]), bf_two_prod(x[1], x[1])), bf_two_prod(x[2], x[2]));
    r = copse_sqrtf(len2.h);
    res = bf_add(len2, bf_neg(bf_two_prod(r, r)));
    r2 = r + r;
    corr = res.h / r2;
    len = bf_quick(r, corr); /* one Newton step for the pair */
    for (k = 0; k < 4; k++)
        if (n[k] != 0.0f)
            n[k] = bf_ldexp(bf_div(bf_make(f[k], 0.0f), len).h, e[k] + 1 - em);
    out->normal = copse_v3(n[0], n[1], n[2]);
    out->dist = n[3];
}

/* The normals of planes a, b, c as arrays. */
COPSE_INLINE void corner_normals(const copse_vec3 *a, const copse_vec3 *b, const copse_vec3 *c, float na[3],
                                 float nb[3], float nc[3])
{
    geo_v3_array(na, *a);
    geo_v3_array(nb, *b);
    geo_v3_array(nc, *c);
}

/* Cramer's rule for the planes with unit normals a, b, c at distances da, db, dc (below 2^64),
 * in pairs (the cross products of float normals are exact as pairs): v within about 2^-46 of the
 * terms, and the float parts of the cross products (cr: bc, ca, ab) and of the triple product
 * for the refinement; false when the planes meet in no single point (a triple product below
 * 1e-9). */
static COPSE_NOINLINE bool corner_solve(const copse_vec3 *a, const copse_vec3 *b, const copse_vec3 *c, float da,
                                        float db, float dc, bf2 v[3], float cr[9], float *det_h)
{
    float na[3], nb[3], nc[3];
    bf2 bc[3], det;
    unsigned k;
    corner_normals(a, b, c, na, nb, nc);
    for (k = 0; k < 3; k++) {
        const unsigned i = k == 2u ? 0u : k + 1u, j = i == 2u ? 0u : i + 1u;
        bc[k] = bf_cross(nb[i], nc[j], nb[j], nc[i]);
        cr[k] = bc[k].h;
    }
    det = bf_add(bf_add(bf_mulf(bc[0], na[0]), bf_mulf(bc[1], na[1])), bf_mulf(bc[2], na[2]));
    *det_h = det.h;
    if (bf_add(bf_abs(det), bf_make(-BF_NANO_H, -BF_NANO_L)).h < 0.0f)
        return false;
    for (k = 0; k < 3; k++) {
        const unsigned i = k == 2u ? 0u : k + 1u, j = i == 2u ? 0u : i + 1u;
        const bf2 ca = bf_cross(nc[i], na[j], nc[j], na[i]), ab = bf_cross(na[i], nb[j], na[j], nb[i]);
        cr[3u + k] = ca.h;
        cr[6u + k] = ab.h;
        v[k] = bf_div(bf_add(bf_add(bf_mulf(bc[k], da), bf_mulf(ca, db)), bf_mulf(ab, dc)), det);
    }
    return true;
}

/* One refinement of corner_solve's v: the planes' residuals at v (d - n . v, whose 13 exact
 * terms cancel to about 2^-46 of them) summed well enough to move v by their solution to within
 * a few float roundings of that move; d keeps the move apart for the corner's final rounding. */
static COPSE_NOINLINE void corner_refine(const copse_vec3 *const pl[3], const float dist[3], const bf2 v[3],
                                         const float cr[9], float det_h, float d[3])
{
    float r[3], t[13], nk[3];
    unsigned p, q;
    for (p = 0; p < 3u; p++) {
        geo_v3_array(nk, *pl[p]);
        t[0] = dist[p];
        for (q = 0; q < 3u; q++) {
            const bf2 x = bf_two_prod(nk[q], v[q].h), y = bf_two_prod(nk[q], v[q].l);
            t[1u + 4u * q] = -x.h;
            t[2u + 4u * q] = -x.l;
            t[3u + 4u * q] = -y.h;
            t[4u + 4u * q] = -y.l;
        }
        r[p] = bf_sum_k(t, 13u);
    }
    for (q = 0; q < 3u; q++) {
        const float m0 = r[0] * cr[q], m1 = r[1] * cr[3u + q], m2 = r[2] * cr[6u + q];
        const float s01 = m0 + m1;
        const float s = s01 + m2;
        d[q] = s / det_h;
    }
}

/* The corner v + d of the planes with unit normals a, b, c at distances da, db, dc (below 2^64)
 * and the sign of their triple product, or 0 when they meet in no single point: within about
 * 2^-60 of the corner's scale. */
COPSE_INLINE int corner(const copse_vec3 *a, const copse_vec3 *b, const copse_vec3 *c, float da, float db, float dc,
                        bf2 v[3], float d[3])
{
    const copse_vec3 *pl[3];
    float cr[9], dist[3], det_h;
    if (!corner_solve(a, b, c, da, db, dc, v, cr, &det_h))
        return 0;
    pl[0] = a;
    pl[1] = b;
    pl[2] = c;
    dist[0] = da;
    dist[1] = db;
    dist[2] = dc;
    corner_refine(pl, dist, v, cr, det_h, d);
    return det_h > 0.0f ? 1 : -1;
}

/* A coordinate of corner v + d of the planes a, b, c (det: the sign corner() returned) that is
 * exactly 0 (Cramer's numerator, a determinant of floats, is by the exact orientation
 * predicate) made 0: signed as the numerator summed in the plain order (+0 unless every term is
 * -0) over det. Apart from corner() so that the predicate's frames stack on a small one, and
 * only for the corners kept. */
static COPSE_NOINLINE void corner_zeros(const copse_vec3 *a, const copse_vec3 *b, const copse_vec3 *c, float da,
                                        float db, float dc, int det, bf2 v[3], float d[3])
{
    static const float zero[3] = {0.0f, 0.0f, 0.0f};
    float na[3], nb[3], nc[3], ma[3], mb[3], mc[3];
    unsigned k;
    corner_normals(a, b, c, na, nb, nc);
    for (k = 0; k < 3; k++) {
        const unsigned i = k == 2u ? 0u : k + 1u, j = i == 2u ? 0u : i + 1u;
        __builtin_memcpy(ma, na, sizeof ma);
        __builtin_memcpy(mb, nb, sizeof mb);
        __builtin_memcpy(mc, nc, sizeof mc);
        ma[k] = da;
        mb[k] = db;
        mc[k] = dc;
        if (copse_geo_orient3d(zero, ma, mb, mc) == 0) {
            const float p0 = nb[i] * nc[j], p1 = nb[j] * nc[i], p2 = nc[i] * na[j], p3 = nc[j] * na[i];
            const float p4 = na[i] * nb[j], p5 = na[j] * nb[i];
            const float bc = p0 - p1, ca = p2 - p3, ab = p4 - p5;
            const float t0 = da * bc, t1 = db * ca, t2 = dc * ab;
            const float t01 = t0 + t1;
            const float s = t01 + t2;
            const float z = s == 0.0f ? s : 0.0f;
            v[k] = bf_make(det > 0 ? z : -z, 0.0f);
            d[k] = 0.0f;
        }
    }
}

/* v + d rounded to a float once, for |d| far below v's last bit: l + d is split exactly into
 * s.h + s.l, and where h + s.h falls exactly halfway between two floats s.l decides. */
static float bf_round3(bf2 v, float d)
{
    const bf2 s = bf_two_sum(v.l, d);
    const float r = v.h + s.h;
    const float moved = r - v.h;   /* exact: r is h or a neighbour */
    const float rest = s.h - moved; /* exact: what the rounding of h + s.h left out */
    if (s.h == 0.0f)
        return v.h; /* a signed 0 stays one */
    if (s.l != 0.0f && rest != 0.0f && (s.l > 0.0f) == (rest > 0.0f)) {
        const float two = rest + rest;
        const float next = r + two;
        const float step = next - r;
        if (step == two)
            return next; /* a tie, and the value lies beyond it */
    }
    return r;
}

/* Do the planes enclose a bounded region? Not when some direction u != 0 has n . u <= 0 for
 * every normal (the region recedes along it). Such a cone, when it is not {0}, has an edge
 * along the cross product of two normals (or, when the normals span less than 3D, every cross
 * product lies on its line), so the pairs decide: O(n^3), no LP. */
static COPSE_NOINLINE bool bounded(const copse_plane *unit, uint32_t n)
{
    const bf2 atto = bf_make(BF_ATTO_H, BF_ATTO_L), nano = bf_make(BF_NANO_H, BF_NANO_L);
    uint32_t i, j, k;
    bool any = false;
    for (i = 0; i < n; i++)
        for (j = i + 1u; j < n; j++) {
            float a[3], b[3];
            bf2 u[3], len2, eps;
            bool all_le = true, all_ge = true;
            geo_v3_array(a, unit[i].normal);
            geo_v3_array(b, unit[j].normal);
            for (k = 0; k < 3; k++) {
                const unsigned p = k == 2u ? 0u : k + 1u, q = p == 2u ? 0u : p + 1u;
                u[k] = bf_cross(a[p], b[q], a[q], b[p]);
            }
            len2 = bf_add(bf_add(bf_sq(u[0]), bf_sq(u[1])), bf_sq(u[2]));
            if (!bf_le(atto, len2))
                continue; /* parallel normals */
            any = true;
            eps = len2.h > 1.0f ? bf_mulf(nano, len2.h) : nano;
            for (k = 0; k < n && (all_le || all_ge); k++) {
                const bf2 d = bf_plane(&unit[k].normal, u, 0.0f);
                all_le = all_le && bf_le(d, eps);
                all_ge = all_ge && bf_le(bf_neg(eps), d);
            }
            if (all_le || all_ge)
                return false;
        }
    return any; /* all normals parallel: a slab at best */
}

/* Every plane's distance is taken times `down`, a power of two that brings the largest below
 * 2^64 (exact: a corner then lies below 2^96, and its products and splits stay in range); the
 * tolerance with it, so every decision is the one at the brush's own scale. */
copse_status copse_bsp3_corners(const copse_plane *unit, uint32_t n, float *verts, uint32_t cap, uint32_t *count,
                                float *tol_out)
{
    uint32_t i, j, k, l, nv = 0;
    float scale = 1.0f, down, up;
    bf2 tol, tol4;
    *count = 0;
    *tol_out = 0.0f;
    if (!bounded(unit, n))
        return COPSE_ERR_UNBOUNDED;
    for (i = 0; i < n; i++) {
        const float d = copse_fabsf(unit[i].dist);
        scale = d > scale ? d : scale;
    }
    if (!geo_finite(scale))
        return COPSE_ERR_DEGENERATE; /* a distance beyond float once divided by its normal's length */
    down = bf_range_down(scale);
    up = 1.0f / down;
    tol = bf_mulf(bf_make(BF_MICRO_H, BF_MICRO_L), scale * down);
    tol4 = bf_make(4.0f * tol.h, 4.0f * tol.l);
    for (i = 0; i < n; i++) {
        for (j = i + 1u; j < n; j++) {
            for (k = j + 1u; k < n; k++) {
                bf2 v[3], c[3];
                float dv[3];
                unsigned a;
                bool inside = true;
                const int det = corner(&unit[i].normal, &unit[j].normal, &unit[k].normal, unit[i].dist * down,
                                       unit[j].dist * down, unit[k].dist * down, c, dv);
                if (det == 0)
                    continue;
                for (a = 0; a < 3u; a++)
                    v[a] = bf_add(c[a], bf_make(dv[a], 0.0f));
                for (l = 0; l < n && inside; l++)
                    inside = bf_le(bf_plane(&unit[l].normal, v, unit[l].dist * down), tol);
                if (!inside)
                    continue;
                {
                    float f[3];
                    uint32_t m;
                    bool dup = false;
                    for (m = 0; m < nv && !dup; m++) {
                        const float *w = verts + 3u * m;
                        for (dup = true, a = 0; a < 3u && dup; a++)
                            dup = bf_le(bf_abs(bf_add(bf_make(w[a] * down, 0.0f), bf_neg(v[a]))), tol);
                    }
                    if (dup)
                        continue;
                    corner_zeros(&unit[i].normal, &unit[j].normal, &unit[k].normal, unit[i].dist * down,
                                 unit[j].dist * down, unit[k].dist * down, det, c, dv);
                    for (a = 0; a < 3u; a++)
                        f[a] = bf_round3(c[a], dv[a]) * up;
                    if (!geo_finite(f[0]) || !geo_finite(f[1]) || !geo_finite(f[2]))
                        return COPSE_ERR_UNBOUNDED;
                    if (nv >= cap)
                        return COPSE_ERR_DEGENERATE; /* more corners than a polyhedron has: numerically flat */
                    __builtin_memcpy(verts + 3u * nv, f, sizeof f);
                    nv++;
                }
            }
        }
    }
    *count = nv;
    *tol_out = tol.h * up;
    if (nv < 4u)
        return COPSE_ERR_DEGENERATE; /* empty, or a point, a segment or a polygon */
    /* flat: some plane has every corner on it (its opposite side has no room) */
    for (i = 0; i < n; i++) {
        bool flat = true;
        for (j = 0; j < nv && flat; j++) {
            bf2 v[3];
            for (k = 0; k < 3u; k++)
                v[k] = bf_make(verts[3u * j + k] * down, 0.0f);
            flat = bf_le(bf_neg(bf_plane(&unit[i].normal, v, unit[i].dist * down)), tol4);
        }
        if (flat)
            return COPSE_ERR_DEGENERATE;
    }
    return COPSE_OK;
}

/* The move of a corner when its planes active[i], active[j], active[k] move out by 1, kept in
 * *worst (times 1 + 1e-6) when it is the largest so far and inside every active plane moved out. */
static COPSE_NOINLINE void inflation_at(const copse_plane *planes, const uint8_t *active, uint32_t na, uint32_t i,
                                        uint32_t j, uint32_t k, bf2 *worst)
{
    const bf2 micro = bf_make(BF_MICRO_H, BF_MICRO_L);
    bf2 dl[3], len2;
    float dd[3];
    uint32_t l;
    unsigned a;
    bool ok = true;
    if (corner(&planes[active[i]].normal, &planes[active[j]].normal, &planes[active[k]].normal, 1.0f, 1.0f, 1.0f,
               dl, dd) == 0)
        return;
    for (a = 0; a < 3u; a++)
        dl[a] = bf_add(dl[a], bf_make(dd[a], 0.0f));
    for (l = 0; l < na && ok; l++)
        ok = bf_le(bf_plane(&planes[active[l]].normal, dl, 1.0f), micro); /* n . dl <= 1 + 1e-6 */
    len2 = bf_add(bf_add(bf_sq(dl[0]), bf_sq(dl[1])), bf_sq(dl[2]));
    if (ok && !bf_le(len2, bf_sq(*worst))) {
        const float f = copse_sqrtf(len2.h);
        const float g = f * BF_MICRO_H;
        *worst = bf_quick(f, g); /* f * (1 + 1e-6) */
    }
}

float copse_bsp3_inflation(const copse_plane *planes, uint32_t n, const float *verts, uint32_t nv, float tol)
{
    bf2 worst = bf_make(1.0f, 0.0f), band;
    float m = 0.0f, down, tol16 = 16.0f * tol;
    uint32_t v, i, j, k;
    /* the same power of two as the corners' (or a smaller one: the bevels and corners may lie
     * further out than any plane), for the distances of the corners to the planes */
    for (i = 0; i < n; i++)
        m = geo_max(m, copse_fabsf(planes[i].dist));
    for (i = 0; i < 3u * nv; i++)
        m = geo_max(m, copse_fabsf(verts[i]));
    down = bf_range_down(m);
    band = bf_make(tol16 * down, 0.0f);
    for (v = 0; v < nv; v++) {
        bf2 p[3];
        uint8_t active[COPSE_BSP3_MAX_SIDES + 6u];
        uint32_t na = 0;
        for (k = 0; k < 3u; k++)
            p[k] = bf_make(verts[3u * v + k] * down, 0.0f);
        for (i = 0; i < n; i++)
            if (bf_le(bf_abs(bf_plane(&planes[i].normal, p, planes[i].dist * down)), band))
                active[na++] = (uint8_t)i;
        /* the corners of {delta : n . delta <= 1 for the planes at v}: how far v moves when
         * every plane moves out by 1 */
        for (i = 0; i < na; i++)
            for (j = i + 1u; j < na; j++)
                for (k = j + 1u; k < na; k++)
                    inflation_at(planes, active, na, i, j, k, &worst);
    }
    return worst.h * 1.001f;
}

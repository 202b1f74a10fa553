/* Shared benchmark code: RNG, query sets, brute force, procedural scene (see bench.h). */
#include "bench.h"

#include <float.h>
#include <math.h>

/* ---- random numbers ---------------------------------------------------------------------- */

void bench_rng_seed(bench_rng *rng, uint64_t seed)
{
    rng->state = seed * 6364136223846793005ull + 1442695040888963407ull;
    (void)bench_rng_u32(rng);
}

uint32_t bench_rng_u32(bench_rng *rng)
{
    uint64_t old = rng->state;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    rng->state = old * 6364136223846793005ull + 1442695040888963407ull;
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

float bench_rng_float(bench_rng *rng, float lo, float hi)
{
    float u = (float)(bench_rng_u32(rng) >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

static uint32_t rng_below(bench_rng *rng, uint32_t n)
{
    return (uint32_t)(((uint64_t)bench_rng_u32(rng) * n) >> 32);
}

/* ---- small vector helpers ------------------------------------------------------------------ */

static void sub3(float *o, const float *a, const float *b)
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(float *o, const float *a, const float *b)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static float minf(float a, float b)
{
    return a < b ? a : b;
}

static float maxf(float a, float b)
{
    return a > b ? a : b;
}

/* ---- mesh access --------------------------------------------------------------------------- */

static void tri_indices(const copse_mesh *m, uint32_t t, uint32_t idx[3])
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        if (m->index_type == COPSE_INDEX_U16)
            idx[k] = ((const uint16_t *)m->indices)[3u * t + k];
        else if (m->index_type == COPSE_INDEX_U32)
            idx[k] = ((const uint32_t *)m->indices)[3u * t + k];
        else
            idx[k] = 3u * t + k;
    }
}

static const float *vertex(const copse_mesh *m, uint32_t v)
{
    size_t stride = m->vertex_stride ? m->vertex_stride : 3u * sizeof(float);
    return (const float *)(const void *)((const uint8_t *)m->positions + (size_t)v * stride);
}

void bench_triangle(const copse_mesh *mesh, uint32_t t, const float *v[3])
{
    uint32_t idx[3];
    tri_indices(mesh, t, idx);
    v[0] = vertex(mesh, idx[0]);
    v[1] = vertex(mesh, idx[1]);
    v[2] = vertex(mesh, idx[2]);
}

void bench_scene_init(bench_scene *s, const copse_mesh *mesh)
{
    uint32_t t, a, k;
    float d2 = 0.0f;
    s->mesh = *mesh;
    for (a = 0; a < 3; a++) {
        s->min[a] = FLT_MAX;
        s->max[a] = -FLT_MAX;
    }
    for (t = 0; t < mesh->triangle_count; t++) {
        const float *v[3];
        bench_triangle(mesh, t, v);
        for (k = 0; k < 3; k++)
            for (a = 0; a < 3; a++) {
                s->min[a] = minf(s->min[a], v[k][a]);
                s->max[a] = maxf(s->max[a], v[k][a]);
            }
    }
    for (a = 0; a < 3; a++)
        d2 += (s->max[a] - s->min[a]) * (s->max[a] - s->min[a]);
    s->diag = mesh->triangle_count > 0 ? sqrtf(d2) : 1.0f;
}

/* ---- query generation ---------------------------------------------------------------------- */

/* A uniform point on a random triangle (chosen by index, not area: every part of the mesh
 * is queried, dense detail as often as large faces). */
static void surface_point(const bench_scene *s, bench_rng *rng, float out[3])
{
    const float *v[3];
    float r1 = sqrtf(bench_rng_float(rng, 0.0f, 1.0f)), r2 = bench_rng_float(rng, 0.0f, 1.0f);
    float wa = 1.0f - r1, wb = r1 * (1.0f - r2), wc = r1 * r2;
    unsigned a;
    bench_triangle(&s->mesh, rng_below(rng, s->mesh.triangle_count), v);
    for (a = 0; a < 3; a++)
        out[a] = wa * v[0][a] + wb * v[1][a] + wc * v[2][a];
}

/* A point in the bounds grown by `grow` diagonals on every side. */
static void box_point(const bench_scene *s, bench_rng *rng, float grow, float out[3])
{
    unsigned a;
    for (a = 0; a < 3; a++)
        out[a] = bench_rng_float(rng, s->min[a] - grow * s->diag, s->max[a] + grow * s->diag);
}

/* A uniform random unit vector (rejection from the cube: no trigonometry). */
static void unit_vector(bench_rng *rng, float out[3])
{
    for (;;) {
        float x = bench_rng_float(rng, -1.0f, 1.0f), y = bench_rng_float(rng, -1.0f, 1.0f);
        float z = bench_rng_float(rng, -1.0f, 1.0f), l2 = x * x + y * y + z * z;
        if (l2 > 1e-4f && l2 <= 1.0f) {
            float inv = 1.0f / sqrtf(l2);
            out[0] = x * inv;
            out[1] = y * inv;
            out[2] = z * inv;
            return;
        }
    }
}

static void jitter(const bench_scene *s, bench_rng *rng, float amount, float p[3])
{
    unsigned a;
    for (a = 0; a < 3; a++)
        p[a] += bench_rng_float(rng, -amount, amount) * s->diag;
}

void bench_gen_rays(const bench_scene *s, uint64_t seed, copse_ray3 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float o[3], target[3], d[3], len;
        box_point(s, &rng, 0.1f, o);
        surface_point(s, &rng, target);
        sub3(d, target, o);
        len = sqrtf(dot3(d, d));
        if (len > 0.0f) {
            d[0] /= len;
            d[1] /= len;
            d[2] /= len;
        } else {
            d[0] = 0.0f;
            d[1] = -1.0f;
            d[2] = 0.0f;
        }
        out[i].origin = copse_v3(o[0], o[1], o[2]);
        out[i].dir = copse_v3(d[0], d[1], d[2]);
        out[i].t_max = 2.0f * s->diag;
    }
}

void bench_gen_boxes(const bench_scene *s, uint64_t seed, copse_box3 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    unsigned a;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float c[3], mn[3], mx[3];
        surface_point(s, &rng, c);
        jitter(s, &rng, 0.01f, c);
        for (a = 0; a < 3; a++) {
            float h = bench_rng_float(&rng, 0.005f, 0.015f) * s->diag;
            mn[a] = c[a] - h;
            mx[a] = c[a] + h;
        }
        out[i] = copse_box3_make(mn[0], mn[1], mn[2], mx[0], mx[1], mx[2]);
    }
}

void bench_gen_spheres(const bench_scene *s, uint64_t seed, copse_sphere *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float c[3];
        surface_point(s, &rng, c);
        jitter(s, &rng, 0.01f, c);
        out[i].center = copse_v3(c[0], c[1], c[2]);
        out[i].radius = bench_rng_float(&rng, 0.005f, 0.015f) * s->diag;
    }
}

void bench_gen_segments(const bench_scene *s, uint64_t seed, copse_segment3 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float a[3], d[3], len;
        surface_point(s, &rng, a);
        jitter(s, &rng, 0.05f, a);
        unit_vector(&rng, d);
        len = bench_rng_float(&rng, 0.001f, 0.1f) * s->diag;
        out[i].a = copse_v3(a[0], a[1], a[2]);
        out[i].b = copse_v3(a[0] + d[0] * len, a[1] + d[1] * len, a[2] + d[2] * len);
    }
}

void bench_gen_points(const bench_scene *s, uint64_t seed, copse_vec3 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float p[3];
        if (i % 2u == 0u) {
            surface_point(s, &rng, p);
            jitter(s, &rng, 0.02f, p);
        } else {
            box_point(s, &rng, 0.1f, p);
        }
        out[i] = copse_v3(p[0], p[1], p[2]);
    }
}

void bench_gen_rects_xz(const bench_scene *s, uint64_t seed, copse_box2 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float c[3], hx, hz;
        surface_point(s, &rng, c);
        jitter(s, &rng, 0.01f, c);
        hx = bench_rng_float(&rng, 0.005f, 0.015f) * s->diag;
        hz = bench_rng_float(&rng, 0.005f, 0.015f) * s->diag;
        out[i] = copse_box2_make(c[0] - hx, c[2] - hz, c[0] + hx, c[2] + hz);
    }
}

void bench_gen_segments_xz(const bench_scene *s, uint64_t seed, copse_segment2 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        float a[3], d[3], len, l2;
        surface_point(s, &rng, a);
        /* off the surface: a start exactly on a vertical wall's XZ shadow is a float tie */
        jitter(s, &rng, 0.02f, a);
        unit_vector(&rng, d);
        l2 = sqrtf(d[0] * d[0] + d[2] * d[2]);
        if (l2 < 1e-3f) { /* nearly vertical: any horizontal direction will do */
            d[0] = 1.0f;
            d[2] = 0.0f;
            l2 = 1.0f;
        }
        len = bench_rng_float(&rng, 0.001f, 0.1f) * s->diag / l2;
        out[i].a = copse_v2(a[0], a[2]);
        out[i].b = copse_v2(a[0] + d[0] * len, a[2] + d[2] * len);
    }
}

/* ---- primitive tests ----------------------------------------------------------------------- */

/* Moeller-Trumbore, two-sided; degenerate triangles never hit. */
bool bench_ray_triangle(const float *o, const float *d, const float *a, const float *b, const float *c,
                        float t_max, float *t)
{
    float e1[3], e2[3], p[3], q[3], s[3], det, inv, u, v, tt;
    sub3(e1, b, a);
    sub3(e2, c, a);
    cross3(p, d, e2);
    det = dot3(e1, p);
    if (det == 0.0f)
        return false;
    inv = 1.0f / det;
    sub3(s, o, a);
    u = dot3(s, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return false;
    cross3(q, s, e1);
    v = dot3(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return false;
    tt = dot3(e2, q) * inv;
    if (tt < 0.0f || tt > t_max)
        return false;
    *t = tt;
    return true;
}

/* Ericson, Real-Time Collision Detection 5.1.5; degenerate triangles via their edges. */
static void segment_closest(float *out, const float *p, const float *a, const float *b)
{
    float ab[3], ap[3], l2, s;
    sub3(ab, b, a);
    sub3(ap, p, a);
    l2 = dot3(ab, ab);
    s = l2 > 0.0f ? dot3(ap, ab) / l2 : 0.0f;
    s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
    out[0] = a[0] + ab[0] * s;
    out[1] = a[1] + ab[1] * s;
    out[2] = a[2] + ab[2] * s;
}

static float dist2(const float *a, const float *b)
{
    float d[3];
    sub3(d, a, b);
    return dot3(d, d);
}

float bench_triangle_closest(float *out, const float *p, const float *a, const float *b, const float *c)
{
    float ab[3], ac[3], ap[3], bp[3], cp[3], d1, d2, d3, d4, d5, d6, va, vb, vc, denom, v, w;
    unsigned k;
    sub3(ab, b, a);
    sub3(ac, c, a);
    sub3(ap, p, a);
    d1 = dot3(ab, ap);
    d2 = dot3(ac, ap);
    sub3(bp, p, b);
    d3 = dot3(ab, bp);
    d4 = dot3(ac, bp);
    sub3(cp, p, c);
    d5 = dot3(ab, cp);
    d6 = dot3(ac, cp);
    va = d3 * d6 - d5 * d4;
    vb = d5 * d2 - d1 * d6;
    vc = d1 * d4 - d3 * d2;
    denom = va + vb + vc;
    if (!(denom > 0.0f)) { /* degenerate: the closest of the three edges */
        const float *ends[3][2];
        float q[3], best = FLT_MAX;
        ends[0][0] = a, ends[0][1] = b;
        ends[1][0] = b, ends[1][1] = c;
        ends[2][0] = c, ends[2][1] = a;
        for (k = 0; k < 3; k++) {
            segment_closest(q, p, ends[k][0], ends[k][1]);
            if (k == 0 || dist2(q, p) < best) {
                best = dist2(q, p);
                out[0] = q[0];
                out[1] = q[1];
                out[2] = q[2];
            }
        }
        return best;
    }
    if (d1 <= 0.0f && d2 <= 0.0f) {
        for (k = 0; k < 3; k++)
            out[k] = a[k];
    } else if (d3 >= 0.0f && d4 <= d3) {
        for (k = 0; k < 3; k++)
            out[k] = b[k];
    } else if (d6 >= 0.0f && d5 <= d6) {
        for (k = 0; k < 3; k++)
            out[k] = c[k];
    } else if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        v = d1 / (d1 - d3);
        for (k = 0; k < 3; k++)
            out[k] = a[k] + ab[k] * v;
    } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        w = d2 / (d2 - d6);
        for (k = 0; k < 3; k++)
            out[k] = a[k] + ac[k] * w;
    } else if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f) {
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (k = 0; k < 3; k++)
            out[k] = b[k] + (c[k] - b[k]) * w;
    } else {
        v = vb / denom;
        w = vc / denom;
        for (k = 0; k < 3; k++)
            out[k] = a[k] + ab[k] * v + ac[k] * w;
    }
    return dist2(out, p);
}

/* Does the axis separate the projections [min p, max p] and [-r, r]? */
static bool separated(float p0, float p1, float p2, float r)
{
    return minf(p0, minf(p1, p2)) > r || maxf(p0, maxf(p1, p2)) < -r;
}

/* Akenine-Moeller's SAT: box faces, 9 edge cross products, triangle plane. Closed sets. */
bool bench_triangle_box(const float *bmin, const float *bmax, const float *a, const float *b, const float *c)
{
    float ctr[3], h[3], v[3][3], e[3][3], n[3], d, r;
    unsigned k, i;
    for (k = 0; k < 3; k++) {
        ctr[k] = (bmin[k] + bmax[k]) * 0.5f;
        h[k] = (bmax[k] - bmin[k]) * 0.5f;
        v[0][k] = a[k] - ctr[k];
        v[1][k] = b[k] - ctr[k];
        v[2][k] = c[k] - ctr[k];
    }
    for (k = 0; k < 3; k++)
        if (separated(v[0][k], v[1][k], v[2][k], h[k]))
            return false;
    sub3(e[0], v[1], v[0]);
    sub3(e[1], v[2], v[1]);
    sub3(e[2], v[0], v[2]);
    for (i = 0; i < 3; i++) {
        const float *f = e[i];
        /* axis = unit_k x f, for k = x, y, z */
        if (separated(f[1] * v[0][2] - f[2] * v[0][1], f[1] * v[1][2] - f[2] * v[1][1],
                      f[1] * v[2][2] - f[2] * v[2][1], h[1] * fabsf(f[2]) + h[2] * fabsf(f[1])))
            return false;
        if (separated(f[2] * v[0][0] - f[0] * v[0][2], f[2] * v[1][0] - f[0] * v[1][2],
                      f[2] * v[2][0] - f[0] * v[2][2], h[0] * fabsf(f[2]) + h[2] * fabsf(f[0])))
            return false;
        if (separated(f[0] * v[0][1] - f[1] * v[0][0], f[0] * v[1][1] - f[1] * v[1][0],
                      f[0] * v[2][1] - f[1] * v[2][0], h[0] * fabsf(f[1]) + h[1] * fabsf(f[0])))
            return false;
    }
    cross3(n, e[0], e[1]);
    d = dot3(n, v[0]);
    r = h[0] * fabsf(n[0]) + h[1] * fabsf(n[1]) + h[2] * fabsf(n[2]);
    return !(d > r || d < -r);
}

/* 2D separating axes between two convex point sets (closed). Every edge normal and edge
 * direction of both is tried, so degenerate polygons (a segment, a triangle seen edge-on
 * in XZ) are handled too; an extra axis can never make a wrong "separated". */
static bool sat2_overlap(const float (*pa)[2], unsigned na, const float (*pb)[2], unsigned nb)
{
    unsigned side, i, j, k;
    for (side = 0; side < 2; side++) {
        const float(*p)[2] = side == 0 ? pa : pb;
        unsigned n = side == 0 ? na : nb;
        for (i = 0; i < n; i++) {
            float ex = p[(i + 1u) % n][0] - p[i][0], ey = p[(i + 1u) % n][1] - p[i][1];
            for (j = 0; j < 2; j++) {
                float ax = j == 0 ? -ey : ex, ay = j == 0 ? ex : ey;
                float lo_a = FLT_MAX, hi_a = -FLT_MAX, lo_b = FLT_MAX, hi_b = -FLT_MAX;
                for (k = 0; k < na; k++) {
                    float d = pa[k][0] * ax + pa[k][1] * ay;
                    lo_a = minf(lo_a, d);
                    hi_a = maxf(hi_a, d);
                }
                for (k = 0; k < nb; k++) {
                    float d = pb[k][0] * ax + pb[k][1] * ay;
                    lo_b = minf(lo_b, d);
                    hi_b = maxf(hi_b, d);
                }
                if (hi_a < lo_b || hi_b < lo_a)
                    return false;
            }
        }
    }
    return true;
}

/* ---- brute force ----------------------------------------------------------------------------- */

uint32_t bench_brute_raycast(const copse_mesh *m, const copse_ray3 *ray, float *t_out)
{
    uint32_t t, best = COPSE_NONE;
    float best_t = ray->t_max, th;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        if (bench_ray_triangle(&ray->origin.x, &ray->dir.x, v[0], v[1], v[2], best_t, &th) &&
            (best == COPSE_NONE || th < best_t)) {
            best_t = th;
            best = t;
        }
    }
    *t_out = best == COPSE_NONE ? FLT_MAX : best_t;
    return best;
}

uint32_t bench_brute_raycast_count(const copse_mesh *m, const copse_ray3 *ray)
{
    uint32_t t, n = 0;
    float th;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        n += bench_ray_triangle(&ray->origin.x, &ray->dir.x, v[0], v[1], v[2], ray->t_max, &th);
    }
    return n;
}

uint32_t bench_brute_box_count(const copse_mesh *m, const copse_box3 *box)
{
    uint32_t t, n = 0;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        n += bench_triangle_box(&box->min.x, &box->max.x, v[0], v[1], v[2]);
    }
    return n;
}

uint32_t bench_brute_sphere_count(const copse_mesh *m, const copse_sphere *sphere)
{
    uint32_t t, n = 0;
    float q[3], r2 = sphere->radius * sphere->radius;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        n += bench_triangle_closest(q, &sphere->center.x, v[0], v[1], v[2]) <= r2;
    }
    return n;
}

uint32_t bench_brute_segment_count(const copse_mesh *m, const copse_segment3 *seg)
{
    uint32_t t, n = 0;
    float d[3], th;
    sub3(d, &seg->b.x, &seg->a.x);
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        n += bench_ray_triangle(&seg->a.x, d, v[0], v[1], v[2], 1.0f, &th);
    }
    return n;
}

uint32_t bench_brute_nearest(const copse_mesh *m, const float *p, float *d2_out)
{
    uint32_t t, best = COPSE_NONE;
    float best_d2 = FLT_MAX, q[3];
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        float d2;
        bench_triangle(m, t, v);
        d2 = bench_triangle_closest(q, p, v[0], v[1], v[2]);
        if (d2 < best_d2) {
            best_d2 = d2;
            best = t;
        }
    }
    *d2_out = best_d2;
    return best;
}

/* Every vertex counts (all vertices of the benchmark meshes are used by triangles). */
uint32_t bench_brute_nearest_vertex(const copse_mesh *m, const float *p, float *d2_out)
{
    uint32_t v, best = COPSE_NONE;
    float best_d2 = FLT_MAX;
    for (v = 0; v < m->vertex_count; v++) {
        float d2 = dist2(vertex(m, v), p);
        if (d2 < best_d2) {
            best_d2 = d2;
            best = v;
        }
    }
    *d2_out = best_d2;
    return best;
}

uint32_t bench_brute_rect_xz_count(const copse_mesh *m, const copse_box2 *rect)
{
    float box[4][2];
    uint32_t t, n = 0;
    box[0][0] = rect->min.x, box[0][1] = rect->min.y;
    box[1][0] = rect->max.x, box[1][1] = rect->min.y;
    box[2][0] = rect->max.x, box[2][1] = rect->max.y;
    box[3][0] = rect->min.x, box[3][1] = rect->max.y;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        float tri[3][2];
        unsigned k;
        bench_triangle(m, t, v);
        for (k = 0; k < 3; k++) {
            tri[k][0] = v[k][0];
            tri[k][1] = v[k][2];
        }
        n += sat2_overlap((const float(*)[2])tri, 3, (const float(*)[2])box, 4);
    }
    return n;
}

uint32_t bench_brute_segment_xz_count(const copse_mesh *m, const copse_segment2 *seg)
{
    float sp[2][2];
    uint32_t t, n = 0;
    sp[0][0] = seg->a.x, sp[0][1] = seg->a.y;
    sp[1][0] = seg->b.x, sp[1][1] = seg->b.y;
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        float tri[3][2];
        unsigned k;
        bench_triangle(m, t, v);
        for (k = 0; k < 3; k++) {
            tri[k][0] = v[k][0];
            tri[k][1] = v[k][2];
        }
        n += sat2_overlap((const float(*)[2])tri, 3, (const float(*)[2])sp, 2);
    }
    return n;
}

/* ---- the procedural room ------------------------------------------------------------------- */

copse_mesh bench_scene_room(float *pos, uint16_t *idx, uint32_t grid, uint32_t boxes, uint64_t seed)
{
    /* corner bits: 1 = +x, 2 = +y, 4 = +z; two triangles per face */
    static const uint8_t faces[6][4] = { { 0, 2, 6, 4 }, { 1, 5, 7, 3 }, { 0, 4, 5, 1 },
                                         { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 6, 7, 5 } };
    const float room = 10.0f;
    bench_rng rng;
    uint32_t nv = 0, nt = 0, i, j, b;
    copse_mesh mesh;
    bench_rng_seed(&rng, seed);

    /* an uneven floor: small random bumps, as a scanned floor has */
    for (j = 0; j <= grid; j++)
        for (i = 0; i <= grid; i++, nv++) {
            pos[3u * nv + 0u] = room * (float)i / (float)grid;
            pos[3u * nv + 1u] = bench_rng_float(&rng, 0.0f, 0.05f);
            pos[3u * nv + 2u] = room * (float)j / (float)grid;
        }
    for (j = 0; j < grid; j++)
        for (i = 0; i < grid; i++) {
            uint16_t v00 = (uint16_t)(j * (grid + 1u) + i), v10 = (uint16_t)(v00 + 1u);
            uint16_t v01 = (uint16_t)(v00 + grid + 1u), v11 = (uint16_t)(v01 + 1u);
            uint16_t quad[6];
            quad[0] = v00, quad[1] = v10, quad[2] = v11, quad[3] = v00, quad[4] = v11, quad[5] = v01;
            for (b = 0; b < 6; b++)
                idx[3u * nt + b] = quad[b];
            nt += 2;
        }
    /* crates and shelves; every other one turned about y by a random angle */
    for (b = 0; b < boxes; b++) {
        float cx = bench_rng_float(&rng, 1.0f, room - 1.0f), cz = bench_rng_float(&rng, 1.0f, room - 1.0f);
        float hx = bench_rng_float(&rng, 0.2f, 1.0f), hy = bench_rng_float(&rng, 0.15f, 1.0f);
        float hz = bench_rng_float(&rng, 0.2f, 0.5f), cs = 1.0f, sn = 0.0f;
        uint32_t base = nv, f, k;
        if (b % 2u == 1u) {
            float x = bench_rng_float(&rng, -1.0f, 1.0f), z = bench_rng_float(&rng, 0.1f, 1.0f);
            float l = sqrtf(x * x + z * z);
            cs = x / l;
            sn = z / l;
        }
        for (k = 0; k < 8; k++, nv++) {
            float lx = (k & 1u) ? hx : -hx, ly = (k & 2u) ? 2.0f * hy : 0.0f, lz = (k & 4u) ? hz : -hz;
            pos[3u * nv + 0u] = cx + cs * lx - sn * lz;
            pos[3u * nv + 1u] = 0.06f + ly;
            pos[3u * nv + 2u] = cz + sn * lx + cs * lz;
        }
        for (f = 0; f < 6; f++) {
            const uint8_t *q = faces[f];
            idx[3u * nt + 0u] = (uint16_t)(base + q[0]);
            idx[3u * nt + 1u] = (uint16_t)(base + q[1]);
            idx[3u * nt + 2u] = (uint16_t)(base + q[2]);
            idx[3u * nt + 3u] = (uint16_t)(base + q[0]);
            idx[3u * nt + 4u] = (uint16_t)(base + q[2]);
            idx[3u * nt + 5u] = (uint16_t)(base + q[3]);
            nt += 2;
        }
    }
    mesh.positions = pos;
    mesh.vertex_count = nv;
    mesh.vertex_stride = 0;
    mesh.indices = idx;
    mesh.index_type = COPSE_INDEX_U16;
    mesh.triangle_count = nt;
    return mesh;
}

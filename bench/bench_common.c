/* SPDX-License-Identifier: MIT */
/* Shared benchmark code: RNG, query sets, brute force, procedural scene (see bench.h). */
#include "bench.h"

/* the library's internal geometry: the same primitive tests the trees run */
#include "../src/geom/geom_internal.h"

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

/* ---- mesh access --------------------------------------------------------------------------- */

static void tri_indices(const copse_mesh *m, uint32_t t, uint32_t idx[3])
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        if (m->index_type == COPSE_MESH_INDEX_U16)
            idx[k] = ((const uint16_t *)m->indices)[3u * t + k];
        else if (m->index_type == COPSE_MESH_INDEX_U32)
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
                s->min[a] = geo_min(s->min[a], v[k][a]);
                s->max[a] = geo_max(s->max[a], v[k][a]);
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
        geo_sub3(d, target, o);
        len = sqrtf(geo_dot3(d, d));
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

/* The library's own primitive tests (src/geom): brute force and the trees differ only by
 * the tree, and peers' callbacks run the very test copse runs. */

bool bench_ray_triangle(const float *o, const float *d, const float *a, const float *b, const float *c,
                        float t_max, float *t)
{
    geo_ray r;
    float u, v;
    geo_ray_init(&r, o, d, t_max, 3);
    return geo_ray_triangle(&r, a, b, c, t_max, t, &u, &v);
}

float bench_triangle_closest(float *out, const float *p, const float *a, const float *b, const float *c)
{
    return copse_geo_triangle_closest(out, p, a, b, c);
}

bool bench_triangle_box(const float *bmin, const float *bmax, const float *a, const float *b, const float *c)
{
    return copse_geo_triangle_box_overlap(bmin, bmax, a, b, c);
}

/* ---- brute force ----------------------------------------------------------------------------- */

uint32_t bench_brute_raycast(const copse_mesh *m, const copse_ray3 *ray, float *t_out)
{
    uint32_t t, best = COPSE_NONE;
    float best_t = ray->t_max, th, u, v;
    geo_ray r;
    geo_ray_init(&r, &ray->origin.x, &ray->dir.x, ray->t_max, 3);
    for (t = 0; t < m->triangle_count; t++) {
        const float *p[3];
        bench_triangle(m, t, p);
        if (geo_ray_triangle(&r, p[0], p[1], p[2], best_t, &th, &u, &v) && (best == COPSE_NONE || th < best_t)) {
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
    float th, u, v;
    geo_ray r;
    geo_ray_init(&r, &ray->origin.x, &ray->dir.x, ray->t_max, 3);
    for (t = 0; t < m->triangle_count; t++) {
        const float *p[3];
        bench_triangle(m, t, p);
        n += geo_ray_triangle(&r, p[0], p[1], p[2], ray->t_max, &th, &u, &v);
    }
    return n;
}

uint32_t bench_brute_box_count(const copse_mesh *m, const copse_box3 *box)
{
    uint32_t t, n = 0;
    geo_tri_box q;
    geo_tri_box_init(&q, &box->min.x, &box->max.x);
    for (t = 0; t < m->triangle_count; t++) {
        const float *v[3];
        bench_triangle(m, t, v);
        n += copse_geo_triangle_box(&q, v[0], v[1], v[2]);
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
        n += copse_geo_triangle_closest(q, &sphere->center.x, v[0], v[1], v[2]) <= r2;
    }
    return n;
}

uint32_t bench_brute_segment_count(const copse_mesh *m, const copse_segment3 *seg)
{
    uint32_t t, n = 0;
    float d[3], th, u, v, q[3];
    bool point;
    geo_ray r;
    geo_sub3(d, &seg->b.x, &seg->a.x);
    point = d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f;
    geo_ray_init(&r, &seg->a.x, d, 1.0f, 3);
    for (t = 0; t < m->triangle_count; t++) {
        const float *p[3];
        bench_triangle(m, t, p);
        if (point)
            n += copse_geo_triangle_closest(q, &seg->a.x, p[0], p[1], p[2]) == 0.0f;
        else
            n += geo_ray_triangle(&r, p[0], p[1], p[2], 1.0f, &th, &u, &v);
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
        d2 = copse_geo_triangle_closest(q, p, v[0], v[1], v[2]);
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
        float d2 = geo_dist_sq3(vertex(m, v), p);
        if (d2 < best_d2) {
            best_d2 = d2;
            best = v;
        }
    }
    *d2_out = best_d2;
    return best;
}

/* A triangle's (x, z) shadow, embedded at z = 0 as the library's 2D trees see it. */
static void shadow_xz(const copse_mesh *m, uint32_t t, float tri[3][3])
{
    const float *v[3];
    unsigned k;
    bench_triangle(m, t, v);
    for (k = 0; k < 3; k++) {
        tri[k][0] = v[k][0];
        tri[k][1] = v[k][2];
        tri[k][2] = 0.0f;
    }
}

uint32_t bench_brute_rect_xz_count(const copse_mesh *m, const copse_box2 *rect)
{
    float bmin[3], bmax[3], tri[3][3];
    uint32_t t, n = 0;
    geo_tri_box q;
    bmin[0] = rect->min.x, bmin[1] = rect->min.y, bmin[2] = -1.0f; /* a slab through z = 0 */
    bmax[0] = rect->max.x, bmax[1] = rect->max.y, bmax[2] = 1.0f;
    geo_tri_box_init(&q, bmin, bmax);
    for (t = 0; t < m->triangle_count; t++) {
        shadow_xz(m, t, tri);
        n += copse_geo_triangle_box(&q, tri[0], tri[1], tri[2]);
    }
    return n;
}

uint32_t bench_brute_segment_xz_count(const copse_mesh *m, const copse_segment2 *seg)
{
    float o[2], d[2], tri[3][3], th, u, v, q[3];
    uint32_t t, n = 0;
    bool point;
    geo_ray r;
    o[0] = seg->a.x, o[1] = seg->a.y;
    d[0] = seg->b.x - seg->a.x, d[1] = seg->b.y - seg->a.y;
    point = d[0] == 0.0f && d[1] == 0.0f;
    geo_ray_init(&r, o, d, 1.0f, 2);
    for (t = 0; t < m->triangle_count; t++) {
        shadow_xz(m, t, tri);
        if (point)
            n += copse_geo_point_in_triangle2(r.org, tri[0], tri[1], tri[2]) ||
                 copse_geo_triangle_closest(q, r.org, tri[0], tri[1], tri[2]) == 0.0f;
        else
            n += copse_geo_ray_triangle2(&r, tri[0], tri[1], tri[2], 1.0f, &th, &u, &v);
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
    mesh.index_type = COPSE_MESH_INDEX_U16;
    mesh.triangle_count = nt;
    return mesh;
}

/* SPDX-License-Identifier: MIT */
/* Scenes and brute force for the BSP benchmarks (see bench_bsp.h). */
#include "bench_bsp.h"

void bsp_rng_seed(bsp_rng *rng, uint64_t seed)
{
    rng->state = seed * 6364136223846793005ull + 1442695040888963407ull;
}

float bsp_rng_float(bsp_rng *rng, float lo, float hi)
{
    rng->state = rng->state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)(uint32_t)(rng->state >> 40) * (1.0f / 16777216.0f);
}

void bsp_gen_grid_boxes(bsp_rng *rng, copse_box3 *out, uint32_t n, float extent)
{
    uint32_t k;
    for (k = 0; k < n; k++) {
        float x = (float)(int)bsp_rng_float(rng, 0, extent), y = (float)(int)bsp_rng_float(rng, 0, extent),
              z = (float)(int)bsp_rng_float(rng, 0, 5);
        out[k] = copse_box3_make(x, y, z, x + 1.0f + (float)(int)bsp_rng_float(rng, 0, 4),
                                 y + 1.0f + (float)(int)bsp_rng_float(rng, 0, 4),
                                 z + 1.0f + (float)(int)bsp_rng_float(rng, 0, 3));
    }
}

void bsp_gen_octagons(bsp_rng *rng, copse_plane *planes, copse_brush *brushes, uint32_t n, float extent)
{
    static const float cs[8][2] = {{1, 0},  {0.707f, 0.707f},   {0, 1},  {-0.707f, 0.707f},
                                   {-1, 0}, {-0.707f, -0.707f}, {0, -1}, {0.707f, -0.707f}};
    uint32_t i, count;
    for (i = 0; i < n; i++) {
        copse_vec2 c[8];
        float cx = bsp_rng_float(rng, 0, extent), cy = bsp_rng_float(rng, 0, extent);
        float r = bsp_rng_float(rng, 0.5f, 3.0f), z0 = bsp_rng_float(rng, 0, 10);
        unsigned k;
        for (k = 0; k < 8; k++)
            c[k] = copse_v2(cx + r * cs[k][0], cy + r * cs[k][1]);
        (void)copse_brush_from_polygon(c, 8, z0, z0 + bsp_rng_float(rng, 0.5f, 3.0f), planes + 10u * i, 10, &count);
        brushes[i].planes = planes + 10u * i;
        brushes[i].plane_count = count;
    }
}

void bsp_gen_map2(bsp_rng *rng, copse_box2 *out, uint32_t n, float extent)
{
    uint32_t k;
    for (k = 0; k < n; k++) {
        float x = bsp_rng_float(rng, 0, extent - 3.0f), y = bsp_rng_float(rng, 0, extent - 3.0f);
        out[k] = copse_box2_make(x, y, x + bsp_rng_float(rng, 0.3f, 3), y + bsp_rng_float(rng, 0.3f, 3));
    }
}

void bsp_gen_segments3(bsp_rng *rng, const float *lo, const float *hi, float reach, copse_segment3 *out, uint32_t n)
{
    uint32_t q;
    for (q = 0; q < n; q++) {
        float a[3], b[3];
        unsigned k;
        for (k = 0; k < 3; k++) {
            a[k] = bsp_rng_float(rng, lo[k], hi[k]);
            b[k] = a[k] + reach * bsp_rng_float(rng, -1, 1) * (hi[k] - lo[k]);
        }
        out[q].a = copse_v3(a[0], a[1], a[2]);
        out[q].b = copse_v3(b[0], b[1], b[2]);
    }
}

void bsp_gen_segments2(bsp_rng *rng, const copse_box2 *scene, float reach, copse_segment2 *out, uint32_t n)
{
    uint32_t q;
    float ex = scene->max.x - scene->min.x, ey = scene->max.y - scene->min.y;
    for (q = 0; q < n; q++) {
        out[q].a = copse_v2(bsp_rng_float(rng, scene->min.x, scene->max.x), bsp_rng_float(rng, scene->min.y, scene->max.y));
        out[q].b = copse_v2(out[q].a.x + reach * ex * bsp_rng_float(rng, -1, 1),
                            out[q].a.y + reach * ey * bsp_rng_float(rng, -1, 1));
    }
}

float bsp_brute_trace(const copse_bsp3 *t, const copse_segment3 *s, float radius)
{
    float best = 2.0f, d[3];
    uint32_t i, k;
    d[0] = s->b.x - s->a.x;
    d[1] = s->b.y - s->a.y;
    d[2] = s->b.z - s->a.z;
    for (i = 0; i < t->brush_count; i++) {
        const copse_bsp3_brush *b = &t->brushes[i];
        float tn = 0.0f, tf = 1.0f;
        int ok = 1;
        for (k = 0; k < (radius > 0.0f ? copse_bsp3_brush_sides(b) : copse_bsp3_brush_split_sides(b)) && ok; k++) {
            const copse_plane *p = &t->planes[t->sides[b->first + k]];
            float da = p->normal.x * s->a.x + p->normal.y * s->a.y + p->normal.z * s->a.z - (p->dist + radius);
            float dn = p->normal.x * d[0] + p->normal.y * d[1] + p->normal.z * d[2];
            if (dn == 0.0f) {
                ok = da <= 0.0f;
            } else if (dn < 0.0f) {
                float th = -da / dn;
                tn = th > tn ? th : tn;
            } else {
                float th = -da / dn;
                tf = th < tf ? th : tf;
            }
            ok = ok && tn <= tf;
        }
        if (ok && tn < best)
            best = tn;
    }
    return best;
}

int bsp_brute_contents(const copse_bsp3 *t, copse_vec3 x)
{
    uint32_t i, k;
    for (i = 0; i < t->brush_count; i++) {
        const copse_bsp3_brush *b = &t->brushes[i];
        int in = 1;
        for (k = 0; k < copse_bsp3_brush_split_sides(b) && in; k++) {
            const copse_plane *p = &t->planes[t->sides[b->first + k]];
            in = p->normal.x * x.x + p->normal.y * x.y + p->normal.z * x.z - p->dist <= 0.0f;
        }
        if (in)
            return 1;
    }
    return 0;
}

float bsp_brute_segment2(const copse_box2 *boxes, uint32_t n, const copse_box2 *scene, const copse_segment2 *s)
{
    float best = 2.0f, d[2], o[2];
    uint32_t i;
    unsigned k;
    d[0] = s->b.x - s->a.x;
    d[1] = s->b.y - s->a.y;
    o[0] = s->a.x;
    o[1] = s->a.y;
    for (i = 0; i < n; i++) {
        float mn[2], mx[2], tn = 0.0f, tf = 1.0f;
        mn[0] = boxes[i].min.x > scene->min.x ? boxes[i].min.x : scene->min.x;
        mn[1] = boxes[i].min.y > scene->min.y ? boxes[i].min.y : scene->min.y;
        mx[0] = boxes[i].max.x < scene->max.x ? boxes[i].max.x : scene->max.x;
        mx[1] = boxes[i].max.y < scene->max.y ? boxes[i].max.y : scene->max.y;
        if (!(mn[0] < mx[0] && mn[1] < mx[1]))
            continue; /* outside the scene: not in the tree either */
        for (k = 0; k < 2; k++) {
            if (d[k] == 0.0f) {
                if (o[k] < mn[k] || o[k] > mx[k])
                    tn = 3.0f;
            } else {
                float inv = 1.0f / d[k];
                float t0 = ((d[k] > 0.0f ? mn[k] : mx[k]) - o[k]) * inv, t1 = ((d[k] > 0.0f ? mx[k] : mn[k]) - o[k]) * inv;
                tn = t0 > tn ? t0 : tn;
                tf = t1 < tf ? t1 : tf;
            }
        }
        if (tn <= tf && tn < best)
            best = tn;
    }
    return best;
}

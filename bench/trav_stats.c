/* SPDX-License-Identifier: MIT */
/* Replays copse's 3D walks with counters (see trav_stats.h). */
#include "trav_stats.h"

#include <float.h>

#include "bench.h"

/* Same widening as the library's conservative slab test (Ize 2013: 1 + 2*gamma(3)). */
#define WIDEN (1.0f + 2.0f * (3.0f * FLT_EPSILON * 0.5f) / (1.0f - 3.0f * FLT_EPSILON * 0.5f))
#define MAX_STACK COPSE_BVH_MAX_DEPTH

typedef struct entry {
    uint32_t node;
    float key;
} entry;

static const copse_bvh_node3 *node_at(const copse_bvh *bvh, uint32_t i)
{
    return (const copse_bvh_node3 *)bvh->nodes + i;
}

static uint32_t span(const copse_bvh *bvh, uint32_t i)
{
    int32_t index = node_at(bvh, i)->index;
    return index < 0 ? (uint32_t)(-(int64_t)index) : 1u;
}

static int slab(const float *o, const float *inv, const copse_bvh_node3 *n, float t_max, float *t_enter)
{
    float tn = 0.0f, tf = t_max;
    unsigned a;
    for (a = 0; a < 3; a++) {
        float lo = inv[a] < 0.0f ? n->max[a] : n->min[a], hi = inv[a] < 0.0f ? n->min[a] : n->max[a];
        float t0 = (lo - o[a]) * inv[a], t1 = (hi - o[a]) * inv[a] * WIDEN;
        tn = t0 > tn ? t0 : tn;
        tf = t1 < tf ? t1 : tf;
    }
    *t_enter = tn;
    return tn <= tf;
}

uint32_t trav_raycast(const copse_bvh *bvh, const copse_ray3 *ray, trav_count *c)
{
    const float *o = &ray->origin.x, *d = &ray->dir.x;
    float inv[3], best_t = ray->t_max, tn;
    uint32_t best = COPSE_NONE, node = 0, sp = 0;
    entry stack[MAX_STACK];
    unsigned a;
    c->box_tests = c->prim_tests = 0;
    for (a = 0; a < 3; a++)
        inv[a] = 1.0f / d[a];
    if (bvh->node_count == 0)
        return best;
    c->box_tests++;
    if (!slab(o, inv, node_at(bvh, 0), best_t, &tn))
        return best;
    for (;;) {
        const copse_bvh_node3 *n = node_at(bvh, node);
        if (n->index >= 0) {
            uint32_t k;
            for (k = 0; k < n->count; k++) {
                uint32_t prim = bvh->prims[(uint32_t)n->index + k];
                const float *v[3];
                float th;
                bench_triangle(&bvh->mesh, prim, v);
                c->prim_tests++;
                if (bench_ray_triangle(o, d, v[0], v[1], v[2], best_t, &th) &&
                    (th < best_t || prim < best)) {
                    best_t = th;
                    best = prim;
                }
            }
        } else {
            uint32_t left = node + 1u, right = left + span(bvh, left);
            float tl, tr;
            int hl = slab(o, inv, node_at(bvh, left), best_t, &tl);
            int hr = slab(o, inv, node_at(bvh, right), best_t, &tr);
            c->box_tests += 2;
            if (hl && hr && sp < MAX_STACK) {
                stack[sp].node = tr < tl ? left : right;
                stack[sp].key = tr < tl ? tl : tr;
                node = tr < tl ? right : left;
                sp++;
                continue;
            }
            if (hl || hr) {
                node = hl ? left : right;
                continue;
            }
        }
        for (;;) { /* pop the next subtree that can still hold a nearer hit */
            if (sp == 0)
                return best;
            sp--;
            if (stack[sp].key <= best_t) {
                node = stack[sp].node;
                break;
            }
        }
    }
}

uint32_t trav_box(const copse_bvh *bvh, const copse_box3 *box, trav_count *c)
{
    const float *bmin = &box->min.x, *bmax = &box->max.x;
    uint32_t i = 0, found = 0;
    c->box_tests = c->prim_tests = 0;
    while (i < bvh->node_count) {
        const copse_bvh_node3 *n = node_at(bvh, i);
        int hit = 1, inside = 1;
        unsigned a;
        c->box_tests++;
        for (a = 0; a < 3; a++) {
            if (bmin[a] > n->max[a] || n->min[a] > bmax[a])
                hit = 0;
            if (n->min[a] < bmin[a] || n->max[a] > bmax[a])
                inside = 0;
        }
        if (hit && inside) { /* a node inside the box: its triangles are taken untested */
            uint32_t end = i + span(bvh, i);
            for (; i < end; i++)
                if (node_at(bvh, i)->index >= 0)
                    found += node_at(bvh, i)->count;
            continue;
        }
        if (n->index >= 0) {
            uint32_t k;
            for (k = 0; hit && k < n->count; k++) {
                const float *v[3];
                bench_triangle(&bvh->mesh, bvh->prims[(uint32_t)n->index + k], v);
                c->prim_tests++;
                found += bench_triangle_box(bmin, bmax, v[0], v[1], v[2]);
            }
            i++;
        } else {
            i += hit ? 1u : (uint32_t)(-(int64_t)n->index);
        }
    }
    return found;
}

static float box_dist2(const float *p, const copse_bvh_node3 *n)
{
    float d2 = 0.0f;
    unsigned a;
    for (a = 0; a < 3; a++) {
        float d = p[a] < n->min[a] ? n->min[a] - p[a] : (p[a] > n->max[a] ? p[a] - n->max[a] : 0.0f);
        d2 += d * d;
    }
    return d2;
}

uint32_t trav_nearest(const copse_bvh *bvh, const copse_vec3 *point, trav_count *c)
{
    const float *p = &point->x;
    float best_d2 = FLT_MAX;
    uint32_t best = COPSE_NONE, node = 0, sp = 0;
    entry stack[MAX_STACK];
    c->box_tests = c->prim_tests = 0;
    if (bvh->node_count == 0)
        return best;
    c->box_tests++;
    for (;;) {
        const copse_bvh_node3 *n = node_at(bvh, node);
        if (n->index >= 0) {
            uint32_t k;
            for (k = 0; k < n->count; k++) {
                uint32_t prim = bvh->prims[(uint32_t)n->index + k];
                const float *v[3];
                float q[3], d2;
                bench_triangle(&bvh->mesh, prim, v);
                c->prim_tests++;
                d2 = bench_triangle_closest(q, p, v[0], v[1], v[2]);
                if (d2 < best_d2 || (d2 == best_d2 && prim < best)) {
                    best_d2 = d2;
                    best = prim;
                }
            }
        } else {
            uint32_t left = node + 1u, right = left + span(bvh, left);
            float dl = box_dist2(p, node_at(bvh, left)), dr = box_dist2(p, node_at(bvh, right));
            int hl = dl <= best_d2, hr = dr <= best_d2;
            c->box_tests += 2;
            if (hl && hr && sp < MAX_STACK) {
                stack[sp].node = dr < dl ? left : right;
                stack[sp].key = dr < dl ? dl : dr;
                node = dr < dl ? right : left;
                sp++;
                continue;
            }
            if (hl || hr) {
                node = hl ? left : right;
                continue;
            }
        }
        for (;;) {
            if (sp == 0)
                return best;
            sp--;
            if (stack[sp].key <= best_d2) {
                node = stack[sp].node;
                break;
            }
        }
    }
}

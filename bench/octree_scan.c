/* SPDX-License-Identifier: MIT */
/* The octree benchmarks' shared parts (see octree_scan.h). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "octree_scan.h"

int scan_load(scan *s, const char *data_dir)
{
    char path[600];
    FILE *f;
    float x, y, z;
    uint32_t cap = 1u << 17;
    unsigned a;
    snprintf(path, sizeof path, "%s/pointclouds/octomap-scan.xyz", data_dir);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    s->points = (copse_vec3 *)malloc(sizeof(copse_vec3) * cap);
    s->count = 0;
    while (s->points != NULL && fscanf(f, "%f %f %f", &x, &y, &z) == 3) {
        if (s->count == cap) {
            cap *= 2u;
            s->points = (copse_vec3 *)realloc(s->points, sizeof(copse_vec3) * cap);
            if (s->points == NULL)
                break;
        }
        s->points[s->count++] = copse_v3(x, y, z);
    }
    fclose(f);
    if (s->points == NULL || s->count == 0u)
        return -1;
    for (a = 0; a < 3; a++) {
        s->min[a] = FLT_MAX;
        s->max[a] = -FLT_MAX;
    }
    for (uint32_t i = 0; i < s->count; i++)
        for (a = 0; a < 3; a++) {
            float v = (&s->points[i].x)[a];
            s->min[a] = v < s->min[a] ? v : s->min[a];
            s->max[a] = v > s->max[a] ? v : s->max[a];
        }
    return 0;
}

void scan_free(scan *s)
{
    free(s->points);
    s->points = NULL;
}

void scan_queries(const scan *s, uint64_t seed, copse_vec3 *out, uint32_t n)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, seed);
    for (i = 0; i < n; i++) {
        if (i % 2u == 0u) {
            const copse_vec3 *p = &s->points[bench_rng_u32(&rng) % s->count];
            float dx = bench_rng_float(&rng, -0.05f, 0.05f), dy = bench_rng_float(&rng, -0.05f, 0.05f),
                  dz = bench_rng_float(&rng, -0.05f, 0.05f);
            out[i] = copse_v3(p->x + dx, p->y + dy, p->z + dz);
        } else {
            float x = bench_rng_float(&rng, s->min[0], s->max[0]), y = bench_rng_float(&rng, s->min[1], s->max[1]),
                  z = bench_rng_float(&rng, s->min[2], s->max[2]);
            out[i] = copse_v3(x, y, z);
        }
    }
}


static float d2_of(const copse_vec3 *p, const copse_vec3 *q)
{
    float dx = p->x - q->x, dy = p->y - q->y, dz = p->z - q->z;
    float xy = dx * dx + dy * dy;
    return xy + dz * dz;
}

uint32_t scan_brute_radius(const scan *s, const copse_vec3 *q, float r)
{
    uint32_t i, n = 0;
    float r2 = r * r;
    for (i = 0; i < s->count; i++)
        n += d2_of(&s->points[i], q) <= r2;
    return n;
}

void scan_brute_knn(const scan *s, const copse_vec3 *q, uint32_t k, copse_neighbor *out)
{
    uint32_t i, j, count = 0;
    for (i = 0; i < s->count; i++) {
        float d2 = d2_of(&s->points[i], q);
        if (count == k && !(d2 < out[k - 1u].distance_sq))
            continue; /* indices ascend: an equal distance never beats an earlier one */
        if (count < k)
            count++;
        for (j = count - 1u; j > 0u && d2 < out[j - 1u].distance_sq; j--)
            out[j] = out[j - 1u];
        out[j].distance_sq = d2;
        out[j].id = out[j].index = i;
    }
}

int scan_octree(const scan *s, uint32_t leaf, uint32_t bucket, uint32_t depth, copse_octree *tree, void **mem,
                double *build_ns)
{
    copse_octree_config cfg;
    copse_arena arena, scratch;
    uint32_t nodes, buckets;
    size_t bytes, sx;
    void *smem;
    double t0;
    memset(&cfg, 0, sizeof cfg);
    cfg.points = s->points;
    cfg.point_capacity = s->count;
    cfg.bounds = copse_box3_make(s->min[0], s->min[1], s->min[2], s->max[0], s->max[1], s->max[2]);
    cfg.max_nodes = 1;
    cfg.leaf_size = leaf;
    cfg.bucket_size = bucket;
    cfg.max_depth = depth;
    bytes = copse_octree_bytes(&cfg);
    *mem = malloc(bytes);
    copse_arena_init(&arena, *mem, bytes);
    if (copse_octree_init(tree, &arena, &cfg) != COPSE_OK)
        return -1;
    sx = copse_octree_build_scratch_bytes(tree, s->count);
    smem = malloc(sx);
    copse_arena_init(&scratch, smem, sx);
    if (copse_octree_measure(tree, &scratch, s->count, &nodes, &buckets) != COPSE_OK)
        return -1;
    free(*mem);
    cfg.max_nodes = nodes;
    cfg.max_buckets = buckets;
    bytes = copse_octree_bytes(&cfg);
    *mem = malloc(bytes);
    copse_arena_init(&arena, *mem, bytes);
    if (copse_octree_init(tree, &arena, &cfg) != COPSE_OK)
        return -1;
    t0 = bench_now_ns();
    if (copse_octree_build(tree, &scratch, s->count) != COPSE_OK)
        return -1;
    *build_ns = bench_now_ns() - t0;
    free(smem);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * What the octree benchmarks share (bench/octree_bench.c, bench/peers/octree_peers.cpp): the
 * laser scan, query points generated from it with fixed seeds, a nanosecond clock, medians,
 * and the brute-force answers every tree is checked against.
 */
#ifndef COPSE_BENCH_OCTREE_SCAN_H
#define COPSE_BENCH_OCTREE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "copse/octree.h"
#include "host_clock.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct scan {
    copse_vec3 *points;
    uint32_t count;
    float min[3], max[3];
} scan;

/* Loads <data>/pointclouds/octomap-scan.xyz; 0 on success. */
int scan_load(scan *s, const char *data_dir);
void scan_free(scan *s);

/* Query points: half a scan point moved by up to 5 cm, half anywhere in the bounds. */
void scan_queries(const scan *s, uint64_t seed, copse_vec3 *out, uint32_t n);


/* Brute force, the same float formulas as copse: points within r (count), the k nearest
 * (sorted by distance, then index) into out. */
uint32_t scan_brute_radius(const scan *s, const copse_vec3 *q, float r);
void scan_brute_knn(const scan *s, const copse_vec3 *q, uint32_t k, copse_neighbor *out);

/* A point octree over the scan in malloc'd memory: pools exactly as the build measures. */
int scan_octree(const scan *s, uint32_t leaf, uint32_t bucket, uint32_t depth, copse_octree *tree, void **mem,
                double *build_ns);

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: MIT */
/*
 * octree_ab: the point octree's k-nearest walk of another revision (AB_BASE, default main)
 * against this checkout's, in one process, on the same trees and query points
 * (make bench-octree-ab). The base's src/octree/octree_query.c is compiled with its public
 * names prefixed by base_ (mk/octree-bench.mk); both use this checkout's node layout.
 *
 * Method: the laser scan, leaves of 32 and 64 in buckets of 8, 8192 query points (half near
 * the scan, half anywhere in its bounds) judged as one set and as each half. Each round runs
 * both walks over all the queries, in alternating order; the figure is the median over the
 * rounds of each round's time ratio, timed in thread CPU time so that other processes on a
 * shared machine cost less noise. Answers are compared item by item. Prints markdown.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "octree_scan.h"

copse_status base_octree_knn(const copse_octree *tree, copse_vec3 point, float max_distance,
                             copse_neighbor_list *out);

#define MAX_RUNS 64u

typedef copse_status (*knn_fn)(const copse_octree *, copse_vec3, float, copse_neighbor_list *);

/* Seconds of CPU one walk takes over the queries; the answers' count feeds *sink. */
static double time_walk(knn_fn knn, const copse_octree *t, const copse_vec3 *q, uint32_t n, uint32_t k,
                        uint64_t *sink)
{
    double a = bench_cpu_ns();
    uint32_t i;
    for (i = 0; i < n; i++) {
        copse_neighbor nb[8];
        copse_neighbor_list l = copse_neighbor_list_make(nb, k);
        knn(t, q[i], FLT_MAX, &l);
        *sink += l.count;
    }
    return (bench_cpu_ns() - a) * 1e-9;
}

static uint32_t count_equal(const copse_octree *t, const copse_vec3 *q, uint32_t n, uint32_t k)
{
    uint32_t i, same = 0;
    for (i = 0; i < n; i++) {
        copse_neighbor a[8], b[8];
        copse_neighbor_list la = copse_neighbor_list_make(a, k), lb = copse_neighbor_list_make(b, k);
        base_octree_knn(t, q[i], FLT_MAX, &la);
        copse_octree_knn(t, q[i], FLT_MAX, &lb);
        same += la.count == lb.count && memcmp(a, b, sizeof a[0] * la.count) == 0;
    }
    return same;
}

int main(int argc, char **argv)
{
    static const uint32_t leaves[2] = { 32, 64 }, ks[2] = { 1, 8 };
    static const char *const sets[3] = { "all", "near the scan", "anywhere in its bounds" };
    const char *data = "../shared/data";
    unsigned runs = 15, r;
    uint32_t nq = 8192, i, t, set;
    copse_vec3 *q, *sub;
    scan s;
    uint64_t sink = 0;
    for (i = 1; i < (uint32_t)argc; i++) {
        if (strcmp(argv[i], "--data") == 0 && i + 1u < (uint32_t)argc)
            data = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0)
            runs = 5;
    }
    if (scan_load(&s, data) != 0) {
        fprintf(stderr, "octree_ab: cannot read %s/pointclouds/octomap-scan.xyz\n", data);
        return 1;
    }
    q = (copse_vec3 *)malloc(sizeof *q * nq);
    sub = (copse_vec3 *)malloc(sizeof *sub * nq);
    if (q == NULL || sub == NULL)
        return 1;
    scan_queries(&s, 7, q, nq);
    printf("## k nearest: this checkout against the base revision\n\n");
    printf("%u points, %u query points, median over %u rounds of the base's time over this one's "
           "(above 1: this checkout is faster).\n\n", (unsigned)s.count, (unsigned)nq, runs);
    printf("| queries | leaf/bucket | k | base (q/s) | this (q/s) | speed-up | answers equal |\n");
    printf("|---|---|---:|---:|---:|---:|---|\n");
    for (t = 0; t < 2u; t++) {
        copse_octree tree;
        void *mem;
        double build;
        if (scan_octree(&s, leaves[t], 8, 16, &tree, &mem, &build) != 0)
            return 1;
        for (set = 0; set < 3u; set++) {
            uint32_t n = 0, ki;
            for (i = set == 2u ? 1u : 0u; i < nq; i += set == 0u ? 1u : 2u)
                sub[n++] = q[i];
            for (ki = 0; ki < 2u; ki++) {
                double ta[MAX_RUNS], tb[MAX_RUNS], ratio[MAX_RUNS];
                for (r = 0; r <= runs; r++) { /* round 0 warms up */
                    double a, b;
                    if (r % 2u == 0u) {
                        a = time_walk(base_octree_knn, &tree, sub, n, ks[ki], &sink);
                        b = time_walk(copse_octree_knn, &tree, sub, n, ks[ki], &sink);
                    } else {
                        b = time_walk(copse_octree_knn, &tree, sub, n, ks[ki], &sink);
                        a = time_walk(base_octree_knn, &tree, sub, n, ks[ki], &sink);
                    }
                    if (r > 0u) {
                        ta[r - 1u] = n / a;
                        tb[r - 1u] = n / b;
                        ratio[r - 1u] = a / b;
                    }
                }
                printf("| %s | %u/8 | %u | %.0f | %.0f | %.2f | %u/%u |\n", sets[set], (unsigned)leaves[t],
                       (unsigned)ks[ki], bench_median(ta, runs), bench_median(tb, runs), bench_median(ratio, runs),
                       (unsigned)count_equal(&tree, sub, n, ks[ki]), (unsigned)n);
            }
        }
        free(mem);
    }
    printf("\n");
    free(q);
    free(sub);
    scan_free(&s);
    return sink == 1u;
}

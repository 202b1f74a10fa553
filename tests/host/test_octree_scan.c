/* SPDX-License-Identifier: MIT */
/*
 * The point octree on the real laser scan (host only): <data>/pointclouds/octomap-scan.xyz,
 * 88,206 points of a corridor. Bulk-built with (leaf, bucket) sizes (16, 16), (32, 8) and
 * (64, 8); every query family judged against brute force over all points; then a tenth of the
 * points removed and put back one by one, the structure checked and the queries judged again
 * after each phase.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"
#include "test_octree.h"

#define SCAN_MAX 200000u

static copse_vec3 *g_points;
static uint32_t g_count;
static char g_path[600];

static bool load_scan(void)
{
    FILE *f = fopen(g_path, "r");
    float x, y, z;
    if (f == NULL)
        return false;
    g_points = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * SCAN_MAX);
    g_count = 0;
    while (g_points != NULL && g_count < SCAN_MAX && fscanf(f, "%f %f %f", &x, &y, &z) == 3)
        g_points[g_count++] = copse_v3(x, y, z);
    fclose(f);
    return g_points != NULL;
}

static void test_scan(void)
{
    static const uint32_t leaves[3] = {16, 32, 64}, buckets[3] = {16, 8, 8};
    unsigned b;
    tk_pool_reset();
    if (!CHECKF(load_scan(), "cannot read %s", g_path))
        return;
    CHECK_EQ_INT(g_count, 88206);
    for (b = 0; b < 3u; b++) {
        size_t mark = tk_mark();
        ot_point_tree pt;
        copse_octree_stats st;
        test_rng rng;
        uint32_t i;
        test_rng_seed(&rng, 88206u + b);
        tk_context("scan leaf=%u bucket=%u", (unsigned)leaves[b], (unsigned)buckets[b]);
        if (!ot_point_build(&pt, g_points, NULL, g_count, g_count, leaves[b], buckets[b], 16, 64, 64))
            return;
        (void)copse_octree_get_stats(&pt.tree, &st);
        copse_port_printf("info octree scan leaf %u bucket %u: %u nodes, %u leaves, %u buckets, depth %u, %lu bytes "
                          "(%.2f per point), %u overflowing leaves\n",
                          (unsigned)leaves[b], (unsigned)buckets[b], (unsigned)st.nodes, (unsigned)st.leaves, (unsigned)st.buckets,
                          (unsigned)st.depth, (unsigned long)st.bytes_used,
                          (double)st.bytes_used / (double)g_count, (unsigned)st.overflow_leaves);
        ot_judge_all(&pt, &rng, 25);
        /* every tenth point out and back in */
        for (i = 0; i < g_count; i += 10u) {
            CHECK(copse_octree_remove(&pt.tree, i) == COPSE_OK);
            pt.in[i] = 0;
        }
        CHECK(copse_octree_check(&pt.tree) == COPSE_OK);
        ot_judge_all(&pt, &rng, 5);
        for (i = 0; i < g_count; i += 10u) {
            copse_status s = copse_octree_insert(&pt.tree, i);
            if (s == COPSE_ERR_NOMEM)
                break; /* the pools were sized for the build plus a little: fine, judged as is */
            CHECK(s == COPSE_OK);
            pt.in[i] = 1;
        }
        CHECK(copse_octree_check(&pt.tree) == COPSE_OK);
        ot_judge_all(&pt, &rng, 5);
        tk_rewind(mark);
    }
}

static void test_no_data(void)
{
    test_skip("no shared data: run the tests with --data <dir> (make passes ../shared/data)");
}

void suite_octree_scan(void)
{
    const char *data = test_data_dir();
    FILE *f = NULL;
    if (data != NULL) {
        copse_port_snprintf(g_path, sizeof g_path, "%s/pointclouds/octomap-scan.xyz", data);
        f = fopen(g_path, "r");
    }
    if (f == NULL) {
        test_run("octree_scan/octomap", test_no_data);
        return;
    }
    fclose(f);
    test_run("octree_scan/octomap", test_scan);
}

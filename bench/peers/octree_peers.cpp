/* SPDX-License-Identifier: MIT */
/*
 * octree_peers: copse's point octree against nanoflann's KD-tree (Debian libnanoflann-dev) on
 * the real laser scan, in one process, on the same query points: k = 1 and k = 8 nearest and
 * radius search. Rates are medians of rounds in which the two take turns (nanoflann first and last
 * in turn), timed in the thread's CPU time; answers are compared
 * (k nearest: the distances rank by rank, ties may pick other points; radius: the counts, and
 * nanoflann counts d2 < r2 where copse counts d2 <= r2); memory is what each index keeps
 * beyond the caller's points (nanoflann's usedMemory(), copse's node and bucket pools).
 * Prints markdown on stdout (make bench-octree-peers -> docs/benchmarks-octree-peers.md).
 */
#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <nanoflann.hpp>

#include "octree_scan.h"

namespace {

struct cloud_adaptor {
    const scan *s;
    size_t kdtree_get_point_count() const { return s->count; }
    float kdtree_get_pt(size_t i, size_t dim) const { return (&s->points[i].x)[dim]; }
    template <class BBOX> bool kdtree_get_bbox(BBOX &) const { return false; }
};

typedef nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<float, cloud_adaptor>, cloud_adaptor, 3,
                                            uint32_t>
    kd_tree;

unsigned g_runs = 11;
uint32_t g_queries = 8192;

struct shape {
    uint32_t leaf, bucket;
};

double median(std::vector<double> v)
{
    return bench_median(v.data(), (unsigned)v.size());
}

}  // namespace

int main(int argc, char **argv)
{
    const char *data = "../shared/data";
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
    }
    if (quick) {
        g_runs = 3;
        g_queries = 2048;
    }
    scan s;
    if (scan_load(&s, data) != 0) {
        std::fprintf(stderr, "octree_peers: cannot read %s/pointclouds/octomap-scan.xyz\n", data);
        return 1;
    }
    std::vector<copse_vec3> q(g_queries);
    scan_queries(&s, 7, q.data(), g_queries);

    /* nanoflann, its default leaf size of 10 */
    cloud_adaptor adaptor{&s};
    double t0 = bench_now_ns();
    kd_tree kd(3, adaptor, nanoflann::KDTreeSingleIndexAdaptorParams(10));
    kd.buildIndex();
    double kd_build = bench_now_ns() - t0;
    size_t kd_bytes = kd.usedMemory(kd);

    static const shape shapes[2] = {{32, 8}, {64, 8}};
    std::printf("## Point octree against nanoflann (KD-tree) on the laser scan\n\n");
    std::printf("%u points, %u query points (half near the scan, half anywhere in its bounds), medians of %u"
                " rounds taking turns, timed in thread CPU time (time the process waits for the CPU on this shared"
                " machine does not count).\n\n",
                (unsigned)s.count, (unsigned)g_queries, g_runs);
    std::printf("| index | build (ms) | index bytes | bytes/point | vs nanoflann |\n|---|---:|---:|---:|---:|\n");
    std::printf("| nanoflann 1.4, leaf 10 | %.1f | %lu | %.2f | 1.00 |\n", kd_build / 1e6, (unsigned long)kd_bytes,
                (double)kd_bytes / s.count);
    copse_octree trees[2];
    void *mems[2];
    for (int k = 0; k < 2; k++) {
        double b;
        if (scan_octree(&s, shapes[k].leaf, shapes[k].bucket, 16, &trees[k], &mems[k], &b) != 0)
            return 1;
        copse_octree_stats st;
        copse_octree_get_stats(&trees[k], &st);
        std::printf("| copse octree, leaf %u, bucket %u | %.1f | %lu | %.2f | %.2f |\n", (unsigned)shapes[k].leaf,
                    (unsigned)shapes[k].bucket, b / 1e6, (unsigned long)st.bytes_used,
                    (double)st.bytes_used / s.count, (double)st.bytes_used / (double)kd_bytes);
    }
    std::printf("\n| query | nanoflann (q/s) | copse 32/8 (q/s) | ratio | copse 64/8 (q/s) | ratio | answers equal |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---|\n");

    std::vector<uint32_t> ids(s.count);
    std::vector<std::pair<uint32_t, float>> matches;
    matches.reserve(s.count);
    uint64_t sink = 0;
    struct family {
        const char *name;
        uint32_t k;
        float r;
    };
    static const family families[4] = {{"k = 1 nearest", 1, 0}, {"k = 8 nearest", 8, 0}, {"radius 0.1 m", 0, 0.1f},
                                       {"radius 0.3 m", 0, 0.3f}};
    for (const family &f : families) {
        std::vector<double> rk, rc[2];
        for (unsigned round = 0; round <= g_runs; round++) { /* round 0 warms up */
            /* nanoflann first in even rounds, last in odd ones: neither always finds the
             * caches as the other left them */
            auto time_kd = [&]() {
                double a = bench_cpu_ns();
                for (uint32_t i = 0; i < g_queries; i++) {
                    const float *p = &q[i].x;
                    if (f.k > 0) {
                        uint32_t idx[8];
                        float d2[8];
                        sink += kd.knnSearch(p, f.k, idx, d2);
                    } else {
                        sink += kd.radiusSearch(p, f.r * f.r, matches, nanoflann::SearchParams(32, 0.0f, false));
                    }
                }
                return g_queries / ((bench_cpu_ns() - a) * 1e-9);
            };
            double kd_rate = round % 2u == 0u ? time_kd() : 0.0;
            double c_rate[2];
            for (int t = 0; t < 2; t++) {
                double a = bench_cpu_ns();
                for (uint32_t i = 0; i < g_queries; i++) {
                    if (f.k > 0) {
                        copse_neighbor nb[8];
                        copse_neighbor_list l = copse_neighbor_list_make(nb, f.k);
                        copse_octree_knn(&trees[t], q[i], FLT_MAX, &l);
                        sink += l.count;
                    } else {
                        copse_sphere sp;
                        sp.center = q[i];
                        sp.radius = f.r;
                        copse_id_list l = copse_id_list_make(ids.data(), s.count);
                        copse_octree_overlap_sphere(&trees[t], &sp, &l);
                        sink += l.count;
                    }
                }
                c_rate[t] = g_queries / ((bench_cpu_ns() - a) * 1e-9);
            }
            if (round % 2u == 1u)
                kd_rate = time_kd();
            if (round > 0) {
                rk.push_back(kd_rate);
                rc[0].push_back(c_rate[0]);
                rc[1].push_back(c_rate[1]);
            }
        }
        uint32_t agree = 0;
        for (uint32_t i = 0; i < g_queries; i++) {
            const float *p = &q[i].x;
            bool same = true;
            for (int t = 0; t < 2; t++) {
                if (f.k > 0) {
                    uint32_t idx[8];
                    float d2[8];
                    size_t n = kd.knnSearch(p, f.k, idx, d2);
                    copse_neighbor nb[8];
                    copse_neighbor_list l = copse_neighbor_list_make(nb, f.k);
                    copse_octree_knn(&trees[t], q[i], FLT_MAX, &l);
                    same = same && n == l.count;
                    for (size_t j = 0; same && j < n; j++)
                        same = d2[j] == nb[j].distance_sq;
                } else {
                    size_t n = kd.radiusSearch(p, f.r * f.r, matches, nanoflann::SearchParams(32, 0.0f, false));
                    copse_sphere sp;
                    sp.center = q[i];
                    sp.radius = f.r;
                    copse_id_list l = copse_id_list_make(ids.data(), s.count);
                    copse_octree_overlap_sphere(&trees[t], &sp, &l);
                    same = same && n == l.count;
                }
            }
            agree += same;
        }
        double k = median(rk), c0 = median(rc[0]), c1 = median(rc[1]);
        std::printf("| %s | %.0f | %.0f | %.2f | %.0f | %.2f | %u/%u |\n", f.name, k, c0, c0 / k, c1, c1 / k,
                    (unsigned)agree, (unsigned)g_queries);
    }
    std::printf("\nratio: copse's queries per second over nanoflann's (above 1: copse is faster).\n\n");
    if (sink == 1)
        std::printf(" ");
    for (int t = 0; t < 2; t++)
        std::free(mems[t]);
    scan_free(&s);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The peer benchmarks' timer (bench/collide_peers.cpp, bench/robot_peers.cpp): contenders take
 * turns over rounds, a different one going first each round, so a shared machine's slow spells
 * fall on all of them alike; each contender's time is the median of its rounds (the first round
 * warms the caches and is not counted).
 */
#ifndef COPSE_BENCH_TURNS_H
#define COPSE_BENCH_TURNS_H

#include <cstdint>
#include <vector>

#include "host_clock.h" /* bench_cpu_ns, bench_median */

/* ns per item (n items a run) of each contender's run(), which returns a value kept in sink. */
template <class Contender>
std::vector<double> bench_time_turns(const std::vector<Contender> &cs, uint32_t n, unsigned rounds,
                                     volatile uint64_t &sink)
{
    std::vector<std::vector<double>> t(cs.size());
    for (unsigned round = 0; round <= rounds; round++)
        for (size_t j = 0; j < cs.size(); j++) {
            size_t c = (round + j) % cs.size();
            double a = bench_cpu_ns();
            sink = sink + cs[c].run();
            double dt = bench_cpu_ns() - a;
            if (round > 0)
                t[c].push_back(dt / n);
        }
    std::vector<double> med;
    for (auto &v : t)
        med.push_back(bench_median(v.data(), (unsigned)v.size()));
    return med;
}

#endif /* COPSE_BENCH_TURNS_H */

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bsp2_check.py map MAP N SEED: a box map of N random boxes (fixed seed) in a 100 x 60 scene.
bsp2_check.py queries N SEED: N random point, rect and segment2 queries in that scene.
bsp2_check.py judge MAP ANSWERS: `copse query` answers on the baked 2D BSP against brute force over
the map's boxes (closed sets): point -> solid/empty and the lowest box holding it; rect -> overlap
or clear; segment2 -> hit or clear, t within 1e-5 and the box hit (or one hit at the same t).
Exit 1 with the differing lines."""
import random
import sys


def boxes_of(path):
    return [tuple(map(float, l.split()[1:])) for l in open(path) if l.startswith("box ")]


def seg_t(a, b, box):
    """first t in [0, 1] where the segment a-b is in the closed box, or None (slab test)."""
    t0, t1 = 0.0, 1.0
    for k in range(2):
        d = b[k] - a[k]
        lo, hi = box[k], box[k + 2]
        if d == 0.0:
            if a[k] < lo or a[k] > hi:
                return None
            continue
        u, v = (lo - a[k]) / d, (hi - a[k]) / d
        t0, t1 = max(t0, min(u, v)), min(t1, max(u, v))
        if t0 > t1:
            return None
    return t0


def judge(query, answer, boxes):
    w = query.split()
    v = list(map(float, w[1:]))
    if w[0] == "point":
        inside = [i for i, b in enumerate(boxes) if b[0] <= v[0] <= b[2] and b[1] <= v[1] <= b[3]]
        got = answer.split()
        return got[0] == ("solid" if inside else "empty") and got[2] == f"object={inside[0] if inside else -1}"
    if w[0] == "rect":
        hit = any(b[0] <= v[2] and v[0] <= b[2] and b[1] <= v[3] and v[1] <= b[3] for b in boxes)
        return answer == ("overlap" if hit else "clear")
    ts = [(seg_t(v[0:2], v[2:4], b), i) for i, b in enumerate(boxes)]
    ts = [(t, i) for t, i in ts if t is not None]
    if not ts:
        return answer == "clear"
    if not answer.startswith("hit"):
        return False
    f = dict(kv.split("=") for kv in answer.split()[1:])
    t_best = min(ts)[0]
    return abs(float(f["t"]) - t_best) <= 1e-5 and any(abs(t - float(f["t"])) <= 1e-5 and i == int(f["object"]) for t, i in ts)


def main():
    if sys.argv[1] == "map":
        r = random.Random(int(sys.argv[3]))
        print("scene 0 0 100 60")
        for _ in range(int(sys.argv[2])):
            x, y = r.uniform(0, 90), r.uniform(0, 50)
            print("box %.4f %.4f %.4f %.4f" % (x, y, x + r.uniform(0.5, 10), y + r.uniform(0.5, 10)))
        return 0
    if sys.argv[1] == "queries":
        r = random.Random(int(sys.argv[3]))
        for i in range(int(sys.argv[2])):
            p = [r.uniform(-5, 105), r.uniform(-5, 65)]
            if i % 3 == 0:
                print("point %.7f %.7f" % tuple(p))
            elif i % 3 == 1:
                print("rect %.7f %.7f %.7f %.7f" % (p[0], p[1], p[0] + r.uniform(0, 8), p[1] + r.uniform(0, 8)))
            else:
                print("segment2 %.7f %.7f %.7f %.7f" % (p[0], p[1], r.uniform(0, 100), r.uniform(0, 60)))
        return 0
    boxes = boxes_of(sys.argv[2])
    lines = open(sys.argv[3]).read().splitlines()
    bad = [l for l in lines if not judge(*l.split(" -> "), boxes)]
    for l in bad:
        print("FAIL", l)
    print(f"{len(lines) - len(bad)} of {len(lines)} answers agree with brute force over {len(boxes)} boxes")
    return 1 if bad or not lines else 0


sys.exit(main())

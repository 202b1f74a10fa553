#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare.py TREE BRUTE: the tree's answers (`copse query`) against brute force (tool_oracle brute).

Lines pair up by position and must echo the same query. Overlaps: the tree's ids are the
brute-force ids, except those marked '?' (within the boundary band: either answer is right).
Rays: both miss, or both hit at t within 1e-4 relative (the id may differ only at such a tie).
Nearest: both none, or squared distances within 1e-4 relative. k nearest (knn): the same
ids and squared distances in the same order, exactly (both sides compute them in float as
octree.h defines). Prints one line per failure
and a summary; exit 1 on any failure."""
import sys


def close(a, b):
    return abs(a - b) <= 1e-4 * (1.0 + abs(a) + abs(b))


def fields(answer):
    return dict(kv.split("=", 1) for kv in answer.split() if "=" in kv)


def judge(query, tree, brute):
    kind = query.split()[0]
    if kind == "ray":
        if tree == "miss" or brute == "miss":
            return tree == brute
        return close(float(fields(tree)["t"]), float(fields(brute)["t"]))
    if kind == "knn":
        return tree == brute
    if kind in ("nearest", "vertex"):
        if tree == "none" or brute == "none":
            return tree == brute
        return close(float(fields(tree)["d2"]), float(fields(brute)["d2"]))
    got = set(tree.split(":", 1)[1].split())
    sure = {w for w in brute.split(":", 1)[1].split() if not w.startswith("?")}
    maybe = {w[1:] for w in brute.split(":", 1)[1].split() if w.startswith("?")}
    return sure <= got and got <= sure | maybe


def main():
    tree = open(sys.argv[1]).read().splitlines()
    brute = open(sys.argv[2]).read().splitlines()
    if len(tree) != len(brute) or not tree:
        print(f"FAIL {len(tree)} tree answers, {len(brute)} brute-force answers")
        return 1
    bad = 0
    for t, b in zip(tree, brute):
        tq, ta = t.split(" -> ")
        bq, ba = b.split(" -> ")
        if tq != bq or not judge(tq, ta, ba):
            bad += 1
            print(f"FAIL {tq}\n     tree:  {ta}\n     brute: {ba}")
    print(f"{len(tree) - bad} of {len(tree)} answers agree with brute force")
    return 1 if bad else 0


sys.exit(main())

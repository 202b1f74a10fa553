#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Assemble docs/benchmarks.md (make bench) or docs/benchmarks-peers.md (make bench-peers).

The measuring programs print their own markdown (bench_host, bench_peers) or one record per
line (bench_fw under QEMU); this script adds the run's facts (machine, date, command, flags,
tool versions), turns the board records into tables and writes the file.
"""
import argparse
import datetime
import hashlib
import os
import platform
import statistics
import subprocess
import sys


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pkg_version(pkg):
    return run(["dpkg-query", "-W", "-f=${Version}", pkg]) or "?"


def run_facts(args, peers):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = run(["git", "rev-parse", "--short", "HEAD"]) or "?"
    diff = run(["git", "diff", "HEAD", "--", "src", "include"])
    source = f"commit {head}"
    if diff:
        digest = hashlib.sha1(diff.encode()).hexdigest()[:10]
        source += f" with uncommitted changes to src/ and include/ (`git diff HEAD -- src include` sha1 {digest})"
    lines = [
        "| | |",
        "|---|---|",
        f"| source | {source} |",
        f"| machine | `{platform.machine()}`, {cpu_model()}, {os.cpu_count()} logical CPUs (shared; one thread used) |",
        f"| kernel | {platform.system()} {platform.release()} |",
        f"| date | {now} |",
        f"| command | `{args.command}` (from the repository root) |",
        f"| flags | {args.flags} |",
        f"| host compiler | gcc {run(['gcc', '-dumpfullversion'])} |",
    ]
    if peers:
        lines.append(f"| peers | Embree {pkg_version('libembree-dev')}, Bullet {pkg_version('libbullet-dev')}, "
                     f"CGAL {pkg_version('libcgal-dev')} (Debian packages) |")
    else:
        lines.append(f"| boards | arm-none-eabi-gcc {run(['arm-none-eabi-gcc', '-dumpfullversion'])}, "
                     f"QEMU {pkg_version('qemu-system-arm')} with `-icount shift=7,sleep=off` |")
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    lines.append(f"| load | {load} (1, 5, 15 min load averages when the run ended; 2 CPUs are shared) |")
    lines.append(f"| time | {args.seconds} s of measuring (builds not counted) |")
    return "\n".join(lines) + "\n"


# ---- board records -------------------------------------------------------------------------------

def parse_board(path):
    """bench_fw's records -> (header fields, scenes {name: (tris, verts)}, builds, queries)."""
    info, scenes, builds, queries = {}, {}, {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "bench_fw":
                info = {"board": w[1], "unit": w[3], "scratch": int(w[5])}
            elif w[0] == "scene":
                scenes[w[1]] = (int(w[2]), int(w[3]))
            elif w[0] == "build":
                builds[(w[1], w[2])] = (int(w[3]), int(w[4]), int(w[5]))
            elif w[0] == "query":
                brute = None if w[4] == "-" else float(w[4])
                queries[(w[1], w[2])] = (float(w[3]), brute, int(w[5]), int(w[6]), float(w[7]))
            elif w[0] in ("error", "skip"):
                queries.setdefault(("_notes", line.strip()), None)
    return info, scenes, builds, queries


FAMILY_ORDER = ["raycast", "raycast_all", "overlap_box", "overlap_sphere", "overlap_segment", "nearest",
                "nearest_vertex", "overlap_rect_leaves", "overlap_rect", "overlap_segment2"]


def fmt_count(x):
    return f"{x:,.0f}"


def board_section(boards):
    parsed = [(name, parse_board(path)) for name, path in boards]
    out = []
    scene_names = []
    for _, (_, scenes, _, _) in parsed:
        for s in scenes:
            if s not in scene_names:
                scene_names.append(s)
    for name, (info, _, _, _) in parsed:
        out.append(f"- **{name}**: counter unit `{info.get('unit', '?')}`, "
                   f"{info.get('scratch', 0):,} bytes of scratch RAM for mesh + tree + build")
    out.append("")
    for s in scene_names:
        tri_vert = next((p[1][s] for _, p in parsed if s in p[1]), (0, 0))
        have = [(n, p) for n, p in parsed if s in p[1]]
        missing = [n for n, p in parsed if s not in p[1]]
        out.append(f"### {s}: {tri_vert[0]} triangles, {tri_vert[1]} vertices"
                   + (f" (does not fit: {', '.join(missing)})" if missing else ""))
        out.append("")
        out.append("Builds (instructions for one build; bytes = copse_bvh_bytes):")
        out.append("")
        out.append("| tree | " + " | ".join(f"{n} insns" for n, _ in have) + " | bytes | nodes |")
        out.append("|---|" + "---:|" * len(have) + "---:|---:|")
        trees = []
        for _, p in have:
            for (sc, t) in p[2]:
                if sc == s and t not in trees:
                    trees.append(t)
        for t in trees:
            cells = []
            size = ("", "")
            for _, p in have:
                b = p[2].get((s, t))
                cells.append(fmt_count(b[0]) if b else "-")
                if b:
                    size = (str(b[1]), str(b[2]))
            out.append(f"| {t} | " + " | ".join(cells) + f" | {size[0]} | {size[1]} |")
        out.append("")
        out.append("Queries (instructions per query: copse / brute force over every triangle):")
        out.append("")
        head = "| query | " + " | ".join(f"{n} copse | {n} brute | {n} speed-up" for n, _ in have)
        out.append(head + " | results/query | agrees with brute force (per board) |")
        out.append("|---|" + "---:|---:|---:|" * len(have) + "---:|---:|")
        fams = []
        for _, p in have:
            for (sc, fam) in p[3]:
                if sc == s and fam not in fams:
                    fams.append(fam)
        fams.sort(key=lambda fam: FAMILY_ORDER.index(fam) if fam in FAMILY_ORDER else len(FAMILY_ORDER))
        for fam in fams:
            cells, res, agree = [], "", ""
            for _, p in have:
                q = p[3].get((s, fam))
                if q is None:
                    cells += ["-", "-", "-"]
                    continue
                copse, brute, ok, checked, results = q
                cells += [fmt_count(copse), fmt_count(brute) if brute else "-",
                          f"{brute / copse:.1f}x" if brute else "-"]
                res = f"{results:.2f}"
                if checked:
                    agree += ("" if not agree else ", ") + f"{ok}/{checked}"
            out.append(f"| {fam} | " + " | ".join(cells) + f" | {res} | {agree or '-'} |")
        out.append("")
    return "\n".join(out) + "\n"


# ---- flags comparison --------------------------------------------------------------------------

def read_kv(paths):
    """One or more kv files (space-separated): the median of each value over the files."""
    values = {}
    for path in paths.split():
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) == 4:
                    values.setdefault((w[0], w[1], w[2]), []).append(float(w[3]))
    return {k: statistics.median(v) for k, v in values.items()}


def kv_arg(item):
    """LABEL=FILE [FILE...]: labels may hold "=" (-march=native), paths do not."""
    label, paths = item.rsplit("=", 1)
    return label, paths


def kv_exists(paths):
    return all(os.path.exists(p) for p in paths.split())


def flags_section(kvs):
    (label_a, a), (label_b, b) = kvs[0], kvs[1]
    rows = []
    for (mesh, what, variant), vb in sorted(b.items()):
        if variant != "sah" or what == "build_ms" or (mesh, what, variant) not in a:
            continue
        va = a[(mesh, what, variant)]
        rows.append(f"| {mesh} | {what} | {va / 1e3:,.1f}k | {vb / 1e3:,.1f}k | {vb / va:.2f}x |")
    for (mesh, what, variant), vb in sorted(b.items()):
        if what == "build_ms" and variant == "sah" and (mesh, what, variant) in a:
            va = a[(mesh, what, variant)]
            rows.append(f"| {mesh} | SAH build (ms, lower is better) | {va:.2f} | {vb:.2f} | {va / vb:.2f}x |")
    if not rows:
        return "_No data._\n"
    head = (f"| mesh | query (SAH tree) | `{label_a}` q/s | `{label_b}` q/s | speed-up |\n"
            "|---|---|---:|---:|---:|\n")
    return head + "\n".join(rows) + "\n"


def peers_flags_section(kvs):
    """copse's rates from a second build with other flags, against the same peer rates."""
    (label_a, a), (label_b, b) = kvs[0], kvs[1]
    rows = []
    targets = {("raycast", "embree"): 0.5, ("raycast", "bullet"): 10.0, ("overlap_box", "bullet"): 3.0,
               ("overlap_box_candidates", "bullet"): 3.0, ("nearest", "embree"): 1.0}
    meshes = sorted({m for (m, _, _) in b})
    for mesh in meshes:
        for what in ("raycast", "overlap_box", "overlap_box_candidates", "nearest"):
            ca, cb = a.get((mesh, what, "copse")), b.get((mesh, what, "copse"))
            if not ca or not cb:
                continue
            cells = []
            for peer in ("embree", "bullet", "cgal"):
                p = a.get((mesh, what, peer))
                if not p:
                    cells.append("-")
                    continue
                cell = f"{ca / p:.2f}x → {cb / p:.2f}x"
                if (what, peer) in targets:
                    cell += " (target " + f"{targets[(what, peer)]:g}x: " + \
                        ("met" if cb / p >= targets[(what, peer)] else "missed") + ")"
                cells.append(cell)
            rows.append(f"| {mesh} | {what} | {ca / 1e3:,.1f}k | {cb / 1e3:,.1f}k | " + " | ".join(cells) + " |")
    head = (f"| mesh | query | copse `{label_a}` q/s | copse `{label_b}` q/s | vs Embree | vs Bullet | vs CGAL |\n"
            "|---|---|---:|---:|---|---|---|\n")
    return head + "\n".join(rows) + "\n"


# ---- main ----------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--method")
    ap.add_argument("--host")
    ap.add_argument("--peers")
    ap.add_argument("--notes", help="markdown appended to the peers document (where the targets stand)")
    ap.add_argument("--kv", action="append", default=[], help="LABEL=FILE")
    ap.add_argument("--board", action="append", default=[], help="NAME=FILE")
    ap.add_argument("--flags", default="")
    ap.add_argument("--command", default="")
    ap.add_argument("--seconds", default="?")
    args = ap.parse_args()

    doc = []
    if args.peers:
        doc.append("# copse next to Embree, Bullet and CGAL\n")
        doc.append("Generated by `make bench-peers` (bench/peers/peers.cpp, bench/report.py); do not edit by "
                   "hand. The method and the host numbers are in [benchmarks.md](benchmarks.md).\n")
        doc.append("## Run\n")
        doc.append(run_facts(args, True))
        doc.append("## Results\n")
        with open(args.peers) as f:
            doc.append(f.read().lstrip("\n"))
        kvs = [(label, read_kv(paths)) for label, paths in map(kv_arg, args.kv[:2]) if kv_exists(paths)]
        if len(kvs) == 2:
            doc.append("\n## copse built with other flags\n")
            doc.append(f"copse's library and calls rebuilt with `{kvs[1][0]}` and run again on the same queries "
                       "(`--copse-only`, a separate process); the peers' rates are those of the run above (their "
                       "Debian builds select their own SIMD code at run time). Ratios are copse/peer, first build → "
                       "second. Unlike the tables above, the two copse figures were not measured in turn, so "
                       "machine load can move them apart; benchmarks.md compares the flags in turn.\n")
            doc.append(peers_flags_section(kvs))
        if args.notes:
            with open(args.notes) as f:
                doc.append("\n" + f.read().strip() + "\n")
    else:
        doc.append("# copse benchmarks\n")
        doc.append("Generated by `make bench` (bench/bench_host.c, bench/bench_fw.c, bench/report.py) below the "
                   "method, which is kept in bench/method.md; edit that, not this file. copse next to Embree, "
                   "Bullet and CGAL: [benchmarks-peers.md](benchmarks-peers.md) (`make bench-peers`).\n")
        if args.method:
            with open(args.method) as f:
                doc.append(f.read().strip() + "\n")
        doc.append("## Run\n")
        doc.append(run_facts(args, False))
        if args.host:
            doc.append("## Host: the shared meshes\n")
            with open(args.host) as f:
                doc.append(f.read().lstrip("\n"))
        if len(args.kv) >= 2:
            kvs = [(label, read_kv(paths)) for label, paths in map(kv_arg, args.kv[:2]) if kv_exists(paths)]
            if len(kvs) == 2:
                doc.append("\n## Compiler flags\n")
                doc.append("The same program and library built twice (SAH trees, leaf size 4, same query sets, "
                           "no brute force); the two builds ran in turn three times and each figure is the "
                           "median of the three.\n")
                doc.append(flags_section(kvs))
        if args.board:
            doc.append("\n## Boards: instructions under QEMU -icount\n")
            doc.append("The procedural room of bench/bench_fw.c (uneven floor + crates, some turned), built and "
                       "queried on the board; 32 queries per family, SAH trees with leaf size 4 (the 2D tree is "
                       "the XZ projection). Counts are exact and repeatable (docs/boards.md: counting instructions); they include "
                       "the query loop. Brute force is the same C as on the host.\n")
            boards = [tuple(b.split("=", 1)) for b in args.board]
            doc.append(board_section(boards))
    text = "\n".join(part.rstrip("\n") + "\n" for part in doc)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

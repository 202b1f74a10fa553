#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""robot_fw_report.py DIR HOST BOARD...: the firmware section of docs/benchmarks-robot.md from
DIR/robot-fw-<board>.txt (bench/robot_fw.c's output under QEMU -icount), DIR/robot-fw-<board>.size
(bench/robot_fw_map.py) and DIR/robot-fw-<host>.txt (the same program on the host). Fails when
the boards' or the host's answer lines differ, or when the robot or the world takes RAM."""
import sys

QUERY_TEXT = {
    "fk": "FK alone (`copse_robot_fk`)",
    "fk_collides": "FK + `copse_robot_collides(SELF \\| WORLD)`",
    "fk_collides_no_shapes": "FK + collides, `NO_SHAPES` (no sphere pre-test)",
    "fk_collides_world": "FK + collides, `WORLD` only",
    "fk_collides_self": "FK + collides, `SELF` only",
    "fk_distances_5cm": "FK + `copse_robot_distances(SELF \\| WORLD, 5 cm)`",
}


def read(path):
    answers, counts, stack, info = [], {}, {}, {}
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "#" and len(w) >= 4 and w[1] == "count":
            counts[w[2]] = int(w[3])
        elif w[0] == "#" and len(w) >= 4 and w[1] == "stack":
            stack[w[2]] = int(w[3])
        elif w[0] == "#":
            continue
        else:
            answers.append(line.rstrip("\n"))
            if w[0] in ("robot", "world"):
                info[w[0]] = w[1:]
            if w[0] == "answer":
                info[w[1]] = (w[2], w[4], w[5])
    return answers, counts, stack, info


def read_size(path):
    groups, lib = {}, {}
    for line in open(path):
        w = line.split()
        if w[0] == "group":
            groups[w[1]] = [int(x) for x in w[2:6]]
        elif w[0] == "libobj":
            lib[w[1]] = [int(x) for x in w[2:6]]
    return groups, lib


def main():
    d, host, boards = sys.argv[1], sys.argv[2], sys.argv[3:]
    runs = {b: read("%s/robot-fw-%s.txt" % (d, b)) for b in [host] + boards}
    sizes = {b: read_size("%s/robot-fw-%s.size" % (d, b)) for b in boards}
    ref = runs[boards[0]][0]
    bad = [b for b in [host] + boards if runs[b][0] != ref]
    if bad:
        sys.stderr.write("robot_fw_report: answers differ on %s from %s\n" % (", ".join(bad), boards[0]))
        for b in bad:
            for a, r in zip(runs[b][0], ref):
                if a != r:
                    sys.stderr.write("  %s: %s\n  %s: %s\n" % (b, a, boards[0], r))
        sys.exit(1)
    info = runs[boards[0]][3]
    links, dof, tris, blob = info["robot"]
    wtris, wbytes = info["world"]
    out = []
    p = out.append
    p("## 3. On the boards: instructions per configuration")
    p("")
    p("bench/robot_fw.c under QEMU `-icount` (an exact count of guest instructions, docs/boards.md: counting instructions), "
      "arm-none-eabi-gcc -O2, the image built by mk/robot-fw.mk. The Panda (%s links, %s variables, %s triangles) "
      "baked by `copse robot bake panda.urdf --capsule --name robot_panda -o robot_panda.c` (ROBOT_SHAPES) into a const "
      "blob (a %s-byte layout; the blob's bytes are robot_panda.o's rodata below), and a world of the table and box alone (%s triangles, a %s-byte tree baked by `copse bake "
      "--tree bvh -o robot_world.c`), both viewed in flash. The same random configurations as the host's "
      "Panda rows (the first %s of them, same seed); the world differs (no shared meshes)." %
      (links, dof, tris, blob, wtris, wbytes, info["fk"][1]))
    p("")
    head = "| per configuration | found / configurations |" + "".join(" %s (instructions) |" % b for b in boards)
    head += "".join(" stack on %s (bytes) |" % b for b in boards[:1])
    p(head)
    p("|---|---:|" + "---:|" * (len(boards) + 1))
    base = runs[boards[0]][2].get("harness", 0)
    for q in [k for k in QUERY_TEXT if k in info]:
        row = "| %s | %s / %s |" % (QUERY_TEXT[q], info[q][0], info[q][1])
        row += "".join(" %s |" % runs[b][1].get(q, "") for b in boards)
        st = runs[boards[0]][2].get(q)
        row += " %s |" % (st - base if st is not None else "")
        p(row)
    p("")
    p("Answers (found counts and a hash of every answer: contact or not, every link's distances) are the "
      "same bit for bit on %s and the host (%s ns per FK + collides there). Stack: the high-water "
      "mark during the query less the harness's own (%d bytes: main's frame with the configurations); it includes "
      "the link poses and distances the harness passes (a caller's own arrays, 13 links)." %
      (", ".join(boards), runs[host][1].get("fk_collides", "?"), base))
    p("")
    p("### Flash and RAM of the image")
    p("")
    p("| part |" + "".join(" %s text | %s rodata | %s .data + .bss |" % (b, b, b) for b in boards))
    p("|---|" + "---:|---:|---:|" * len(boards))
    names = [("robot", "the baked Panda (robot_panda.o)"), ("world", "the baked world (robot_world.o)"),
             ("library", "copse library code linked (libcopse.a)"),
             ("harness", "bench harness (robot_fw.o, bench_common.o)"), ("port", "port (start-up, semihosting, printf)"),
             ("libc", "newlib and libgcc")]
    ram_fail = []
    for g, text in names:
        row = "| %s |" % text
        for b in boards:
            t, r, da, bs = sizes[b][0][g]
            row += " %d | %d | %d |" % (t, r, da + bs)
            if g in ("robot", "world", "library") and da + bs:
                ram_fail.append("%s on %s" % (g, b))
        p(row)
    row = "| total |"
    for b in boards:
        t = [sum(sizes[b][0][g][k] for g, _ in names) for k in range(4)]
        row += " %d | %d | %d |" % (t[0], t[1], t[2] + t[3])
    p(row)
    p("")
    lib = sizes[boards[0]][1]
    top = sorted(lib.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    p("Library objects linked on %s (text + rodata): %s." % (
        boards[0], ", ".join("%s %d" % (o, v[0] + v[1]) for o, v in top)))
    p("")
    if ram_fail:
        p("**RAM beyond the stack is not 0** for: %s." % ", ".join(ram_fail))
    else:
        p("RAM beyond the stack taken by the robot, the world and the library: **0 bytes** of .data and .bss on "
          "every board (the robot, the world tree and the link poses are views and stack locals). The "
          ".data + .bss above belong to the port (its counter state) and newlib; the harness's "
          "configurations are on main's stack. The boards' flash is 4 MB (docs/boards.md): the image fits.")
    p("")
    print("\n".join(out))


if __name__ == "__main__":
    main()

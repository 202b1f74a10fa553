#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""robot_fw_map.py MAP: flash and RAM of bench/robot_fw's image by who put it there, from the GNU
ld link map (mk/robot-fw.mk). Every input section that landed in the image is counted as text,
rodata, data or bss and charged to its object: the baked robot (gen/robot_panda.o), the baked
world (gen/robot_world.o), the copse library (libcopse.a, per object), the benchmark harness
(robot_fw.o, bench_common.o), the port (startup, semihosting, printf) and the C library.
Prints `group <name> <text> <rodata> <data> <bss>` lines, then `libobj <object> ...` lines."""
import re
import sys
from collections import defaultdict

KEEP = (".text", ".ARM.exidx", ".data", ".bss")


def kind(sec):
    if sec.startswith(".rodata"):
        return "rodata"
    if sec.startswith(".data"):
        return "data"
    if sec.startswith(".bss") or sec == "COMMON":
        return "bss"
    return "text"  # .text*, .vectors, .ARM.exidx, .init/.fini, glue


def group(obj):
    if "robot_panda.o" in obj:
        return "robot"
    if "robot_world.o" in obj:
        return "world"
    if "libcopse.a" in obj:
        return "library"
    if "/port/" in obj:
        return "port"
    if obj.endswith("robot_fw.o") or obj.endswith("bench_common.o"):
        return "harness"
    return "libc"


def main():
    lines = open(sys.argv[1]).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    out_sec = None
    totals = defaultdict(lambda: defaultdict(int))
    libobj = defaultdict(lambda: defaultdict(int))
    pending = None
    entry = re.compile(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
    cont = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
    for l in lines[start:]:
        m = re.match(r"^(\.\S+)", l)
        if m:
            out_sec = m.group(1)
            pending = None
            continue
        if out_sec not in KEEP:
            continue
        m = entry.match(l)
        sec = size = obj = None
        if m:
            sec, size, obj = m.group(1), int(m.group(3), 16), m.group(4)
        elif pending is not None:
            m2 = cont.match(l)
            if m2:
                sec, size, obj = pending, int(m2.group(2), 16), m2.group(3)
        pending = None
        if sec is None:
            m3 = re.match(r"^ (\.\S+|COMMON)\s*$", l)
            if m3:
                pending = m3.group(1)
            continue
        if size == 0 or sec.startswith("*"):
            continue
        g = group(obj)
        totals[g][kind(sec)] += size
        if g == "library":
            o = re.search(r"\((.*)\)", obj)
            libobj[o.group(1) if o else obj][kind(sec)] += size
    for g in ("robot", "world", "library", "harness", "port", "libc"):
        t = totals[g]
        print("group %s %d %d %d %d" % (g, t["text"], t["rodata"], t["data"], t["bss"]))
    for o in sorted(libobj):
        t = libobj[o]
        print("libobj %s %d %d %d %d" % (o, t["text"], t["rodata"], t["data"], t["bss"]))


if __name__ == "__main__":
    main()

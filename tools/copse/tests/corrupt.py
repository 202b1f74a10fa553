#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""corrupt.py TOOL BLOB MESH N SEED: N copies of a good blob with 1 to 4 random bytes changed
and the CRC-32 recomputed (so the damage reaches the tree's own checks, not just the checksum),
each given to `copse stats --mesh`, `copse query --mesh` and `copse svg`. Every run must exit 0
(the damage left a valid tree) or 1 with a "copse: FILE: ..." line, and no sanitizer report.
Prints what the runs ended with; exit 1 on the first bad run."""
import random
import struct
import subprocess
import sys
import zlib

tool, blob, mesh, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
work = blob + ".corrupt.bin"
good = open(blob, "rb").read()
rng = random.Random(seed)
ends = {}
for i in range(n):
    b = bytearray(good)
    for _ in range(rng.randint(1, 4)):  # mostly the sections, sometimes the header's tree info
        at = rng.randrange(128, len(b)) if rng.random() < 0.8 else rng.randrange(32, 96)
        b[at] = rng.randrange(256)
    b[12:16] = b"\0\0\0\0"
    b[12:16] = struct.pack("<I", zlib.crc32(bytes(b)) & 0xFFFFFFFF)
    open(work, "wb").write(b)
    for cmd in (["stats", work, "--mesh", mesh], ["query", work, "--mesh", mesh, "ray", "0", "0", "0", "1", "0.3", "0.2"],
                ["svg", work, "-o", work + ".svg"]):
        r = subprocess.run([tool] + cmd, capture_output=True, text=True)
        bad = r.returncode not in (0, 1) or "Sanitizer" in r.stderr or "runtime error" in r.stderr
        if r.returncode == 1 and not r.stderr.startswith("copse: " + work):
            bad = True
        if bad:
            print(f"FAIL corrupted blob {i}, copse {cmd[0]}: exit {r.returncode}\n{r.stderr[:800]}")
            sys.exit(1)
        end = "accepted" if r.returncode == 0 else r.stderr.split("COPSE_ERR_")[-1].split(":")[0]
        ends[end] = ends.get(end, 0) + 1
print(f"{n} corrupted blobs x 3 commands: " + ", ".join(f"{v} {k}" for k, v in sorted(ends.items())))

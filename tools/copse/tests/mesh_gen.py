#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Small meshes for the tool's tests, and facts about mesh files, independent of assimp.

  mesh_gen.py grid-stl OUT.stl NX NZ [ascii]   an NX x NZ grid of unit squares, bumpy in y, two
                                               triangles a square with their face normals, every
                                               corner written again for each triangle that uses
                                               it (binary STL, or ASCII); prints its distinct
                                               corners
  mesh_gen.py stl-corners FILE.stl             the distinct corners of a binary STL, bit for bit
"""
import struct
import sys


def grid_triangles(nx, nz):
    def corner(i, k):  # a bumpy sheet: neighbouring triangles face other ways
        return (float(i), 0.25 * ((7 * i + 3 * k) % 5), float(k))
    for i in range(nx):
        for k in range(nz):
            a, b, c, d = corner(i, k), corner(i + 1, k), corner(i + 1, k + 1), corner(i, k + 1)
            yield (a, b, c)
            yield (a, c, d)


def normal(t):
    u = [t[1][a] - t[0][a] for a in range(3)]
    v = [t[2][a] - t[0][a] for a in range(3)]
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    length = sum(c * c for c in n) ** 0.5
    return tuple(c / length for c in n)


def write_stl(path, triangles, ascii_stl):
    if ascii_stl:
        with open(path, "w") as f:
            f.write("solid grid\n")
            for t in triangles:
                f.write("  facet normal %r %r %r\n    outer loop\n" % normal(t))
                for p in t:
                    f.write("      vertex %r %r %r\n" % p)
                f.write("    endloop\n  endfacet\n")
            f.write("endsolid grid\n")
        return
    with open(path, "wb") as f:
        f.write(b"copse tool test grid".ljust(80, b"\0"))
        f.write(struct.pack("<I", len(triangles)))
        for t in triangles:
            f.write(struct.pack("<3f", *normal(t)))
            for p in t:
                f.write(struct.pack("<3f", *p))
            f.write(b"\0\0")


def stl_corners(path):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 80)[0]
    if len(data) != 84 + 50 * n:
        sys.exit(f"{path}: not a binary STL of {n} triangles")
    return len({data[84 + 50 * t + 12 + 12 * k: 84 + 50 * t + 24 + 12 * k] for t in range(n) for k in range(3)})


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "grid-stl":
        nx, nz = int(sys.argv[3]), int(sys.argv[4])
        write_stl(sys.argv[2], list(grid_triangles(nx, nz)), len(sys.argv) > 5 and sys.argv[5] == "ascii")
        print((nx + 1) * (nz + 1))
    elif len(sys.argv) == 3 and sys.argv[1] == "stl-corners":
        print(stl_corners(sys.argv[2]))
    else:
        sys.exit(__doc__)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Small meshes for the tool's tests, and facts about mesh files, independent of assimp.

  mesh_gen.py grid-stl OUT.stl NX NZ [ascii]   an NX x NZ grid of unit squares, bumpy in y, two
                                               triangles a square with their face normals, every
                                               corner written again for each triangle that uses
                                               it (binary STL, or ASCII); prints its distinct
                                               corners
  mesh_gen.py stl-corners FILE.stl             the distinct corners of a binary STL, bit for bit
  mesh_gen.py collada OUT.dae UP               two triangles, (0 0 0) (1 0 0) (0 2 0) and
                                               (0 0 0) (1 0 0) (0 0 3): x, y, z spans 1, 2, 3;
                                               <up_axis>UP</up_axis> (X_UP, Y_UP, Z_UP; NONE: no
                                               <up_axis>)
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


COLLADA = """<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/>%s</asset>
  <library_geometries>
    <geometry id="tris" name="tris">
      <mesh>
        <source id="tris-pos">
          <float_array id="tris-pos-array" count="12">0 0 0 1 0 0 0 2 0 0 0 3</float_array>
          <technique_common><accessor source="#tris-pos-array" count="4" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
          </accessor></technique_common>
        </source>
        <vertices id="tris-vtx"><input semantic="POSITION" source="#tris-pos"/></vertices>
        <triangles count="2"><input semantic="VERTEX" source="#tris-vtx" offset="0"/><p>0 1 2 0 1 3</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene"><node id="tris-node" name="tris"><instance_geometry url="#tris"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
"""


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "grid-stl":
        nx, nz = int(sys.argv[3]), int(sys.argv[4])
        write_stl(sys.argv[2], list(grid_triangles(nx, nz)), len(sys.argv) > 5 and sys.argv[5] == "ascii")
        print((nx + 1) * (nz + 1))
    elif len(sys.argv) == 4 and sys.argv[1] == "collada":
        up = "" if sys.argv[3] == "NONE" else "<up_axis>%s</up_axis>" % sys.argv[3]
        with open(sys.argv[2], "w") as f:
            f.write(COLLADA % up)
    elif len(sys.argv) == 3 and sys.argv[1] == "stl-corners":
        print(stl_corners(sys.argv[2]))
    else:
        sys.exit(__doc__)


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""svg_count.py FILE.svg RECTS POLYGONS [CIRCLES]: the file parses as XML (xml.etree) and holds
exactly that many <rect> and <polygon> elements (and <circle>s, points, when given; none when
not). Exit 1 otherwise, with the counts found."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as e:
    print(f"{sys.argv[1]}: not XML: {e}")
    sys.exit(1)
rects = len(root.findall(f".//{NS}rect"))
polys = len(root.findall(f".//{NS}polygon"))
circles = len(root.findall(f".//{NS}circle"))
want = (int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
print(f"{sys.argv[1]}: {rects} rects, {polys} polygons, {circles} circles (want {want[0]}, {want[1]}, {want[2]})")
sys.exit(0 if root.tag == f"{NS}svg" and (rects, polys, circles) == want else 1)

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""svg_count.py FILE.svg RECTS POLYGONS [CIRCLES] [--scale ROOT_WIDTH]: the file parses as XML
(xml.etree) and holds exactly that many <rect> and <polygon> elements (and <circle>s, points,
when given; none when not), and a scale bar: a <g id="scale-bar"> whose first <line> is the bar
and a <text id="scale-label"> "LENGTH UNIT" with a positive length. With --scale, the bar's
length in pixels must be LENGTH times the drawing's pixels per unit, measured on the root cell
(the <rect class="l1">), ROOT_WIDTH world units wide. Exit 1 otherwise, with what was found."""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
args = sys.argv[1:]
root_width = None
if "--scale" in args:
    k = args.index("--scale")
    root_width = float(args[k + 1])
    del args[k:k + 2]
try:
    root = ET.parse(args[0]).getroot()
except ET.ParseError as e:
    print(f"{args[0]}: not XML: {e}")
    sys.exit(1)
rects = len(root.findall(f".//{NS}rect"))
polys = len(root.findall(f".//{NS}polygon"))
circles = len(root.findall(f".//{NS}circle"))
want = (int(args[1]), int(args[2]), int(args[3]) if len(args) > 3 else 0)
problems = []
bar = root.find(f".//{NS}g[@id='scale-bar']")
label = root.find(f".//{NS}text[@id='scale-label']")
m = re.fullmatch(r"([0-9.eE+-]+) (\S+)", label.text or "") if label is not None else None
if bar is None or bar.find(f"{NS}line") is None:
    problems.append("no scale bar")
elif m is None or float(m.group(1)) <= 0:
    problems.append(f"scale bar label {label.text if label is not None else None!r}")
else:
    line = bar.find(f"{NS}line")
    bar_px = abs(float(line.get("x2")) - float(line.get("x1")))
    length, unit = float(m.group(1)), m.group(2)
    scale_note = f"scale bar {length:g} {unit}, {bar_px:.2f} px"
    if root_width is not None:
        cell = root.find(f".//{NS}rect[@class='l1']")
        if cell is None:
            problems.append("no root cell to measure the scale on")
        else:
            expect = length * float(cell.get("width")) / root_width
            scale_note += f" (the root cell says {expect:.2f} px)"
            if abs(expect - bar_px) > 0.2:
                problems.append("the scale bar's length is wrong")
found = f"{rects} rects, {polys} polygons, {circles} circles (want {want[0]}, {want[1]}, {want[2]})"
print(f"{args[0]}: {found}; " + ("; ".join(problems) if problems else scale_note))
sys.exit(0 if root.tag == f"{NS}svg" and (rects, polys, circles) == want and not problems else 1)

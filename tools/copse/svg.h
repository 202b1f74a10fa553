/* SPDX-License-Identifier: MIT */
/*
 * A small SVG writer for `copse svg`: a canvas that maps world coordinates (the two axes
 * drawn) to pixels with the second axis up, primitives as <polygon>s and tree cells as
 * <rect>s coloured by level, points as <circle>s. One element per primitive, per cell and per
 * point, nothing else of those kinds, so a test can count them. Below the drawing: a legend and
 * a scale bar.
 */
#ifndef COPSE_TOOL_SVG_H
#define COPSE_TOOL_SVG_H

#include <stdio.h>

#include "tool.h"

typedef struct svg_canvas {
    FILE *f;
    float lo[2], hi[2]; /* world window */
    double scale;       /* pixels per world unit */
    double width, height; /* the drawing (the file adds the legend and the scale bar below it) */
    const char *unit;   /* the scale bar's unit: "units" (svg_begin's), "m" for a robot */
} svg_canvas;

/* Opens path and writes the header for the window lo..hi (padded a little) and the style of
 * each of `levels` cell levels; 0, or 1 after tool_fail. `title` goes into <title>. */
int svg_begin(svg_canvas *c, const char *path, const float *lo, const float *hi, const char *title,
              unsigned levels);

/* A filled primitive outline: n corners, xy pairs in world coordinates. */
void svg_polygon(svg_canvas *c, const float *xy, unsigned n);

/* A cell outline at tree level `level` (root = 1), coloured by the level's style. */
void svg_rect(svg_canvas *c, const float *lo, const float *hi, unsigned level);

/* A point (a dot of a fixed size) in world coordinates. */
void svg_point(svg_canvas *c, float x, float y);

/* ---- for the kinds' svg commands ---- */

/* svg's output must be a .svg file: 0, or TOOL_USAGE after a message. */
int tool_svg_target(const tool_opts *opts);

/* The two axes --plane draws (xz, xy or yz: x = 0, the second one up): 0, or TOOL_USAGE after a message. */
int tool_plane_axes(const tool_opts *opts, unsigned ax[2]);

/* The legend (text), the scale bar and the closing tag; 0, or 1 after tool_fail. The scale bar
 * is a <g id="scale-bar"> of <line>s (no rect, polygon or circle: those count primitives and
 * cells), its first line the bar, a round length (1, 2 or 5 times a power of ten) 80 to 200
 * pixels long, and a <text id="scale-label"> "LENGTH UNIT". */
int svg_end(svg_canvas *c, const char *legend);

#endif

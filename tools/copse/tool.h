/* SPDX-License-Identifier: MIT */
/*
 * The `copse` host tool (docs/tool.md): bake a mesh into a tree blob or a const C array,
 * print a blob's statistics, answer one-off queries, draw a tree as SVG.
 *
 * One backend per tree kind: a row of tool_kinds[] with its bake, stats, query and svg
 * functions. main.c parses the command line, finds the row (by --tree for bake, by the blob's
 * kind otherwise) and calls it. Host code: stdio and malloc are fine here, never in src/.
 */
#ifndef COPSE_TOOL_H
#define COPSE_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "copse/status.h"

/* Exit statuses, as docs/tool.md defines them: every command ends with one of these. */
#define TOOL_OK 0     /* done */
#define TOOL_FAILED 1 /* the input or the work failed: a file missing, unreadable or malformed, a damaged
                         or mismatched blob, a build, check or query the library refused */
#define TOOL_USAGE 2  /* the command line is wrong: an unknown command or option, an option without its
                         value or with a bad one, a missing or surplus argument, a query that does not parse */

typedef struct tool_opts {
    const char *input;       /* the file the command works on */
    const char *output;      /* -o: .bin, .c (+ .h) or .svg */
    const char *mesh;        /* --mesh: the source a BVH blob was baked from */
    const char *name;        /* --name: the C identifier of an emitted array */
    const char *tree;        /* --tree: bvh (default), bsp2, bsp3, octree, loose */
    const char *builder;     /* --builder: sah, median, midpoint */
    const char *project;     /* --project: none, xz, xy, yz (a 2D BVH over a projected mesh) */
    const char *plane;       /* svg --plane: xz (top-down, y up: default), xy, yz */
    const char *queries;     /* query --queries FILE: one query a line */
    const char *up;          /* --up y|z: turn the mesh so that this axis is up (NULL: the file's own axes) */
    unsigned leaf;           /* --leaf (an octree's leaf size, a loose octree's node capacity) */
    unsigned bucket;         /* --bucket: a point octree's bucket slots (0: not given, the leaf size) */
    int max_level;           /* svg --levels: deepest level drawn (0: not given, all) */
    int depth;               /* --depth: levels below the root (0: not given, the kind's default) */
    unsigned grid;           /* --grid: cells along x and z for a 3D BSP's brushes (0: not given, 12) */
    int quiet;               /* -q: no progress on stderr */
    const char **words;      /* query: the queries on the command line (word_query.h) */
    unsigned word_count;
} tool_opts;

typedef struct tool_kind {
    const char *name;  /* --tree value */
    uint32_t blob_kind; /* copse_blob_kind */
    int (*bake)(const tool_opts *opts);
    int (*stats)(const tool_opts *opts, const void *blob, size_t len);
    int (*query)(const tool_opts *opts, const void *blob, size_t len);
    int (*svg)(const tool_opts *opts, const void *blob, size_t len);
} tool_kind;

/* The backends (kind_<name>.c); main.c lists them. */
extern const tool_kind tool_kind_bvh, tool_kind_bsp2, tool_kind_bsp3, tool_kind_octree, tool_kind_loose;

/* ---- shared helpers (tool.c) ---------------------------------------------------------------- */

/* Prints "copse: <message>" on stderr and returns TOOL_FAILED (1): the input or the work failed. */
int tool_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Prints "copse: <message>" on stderr and returns TOOL_USAGE (2): the command line is wrong. */
int tool_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A progress line on stderr with the seconds since the command started, unless -q. */
void tool_progress(const tool_opts *opts, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A whole file in a 16-byte-aligned buffer (free with free()); NULL after tool_fail. */
void *tool_read_file(const char *path, size_t *len);

/* Writes bytes to path; 0, or 1 after tool_fail. */
int tool_write_file(const char *path, const void *data, size_t len);

/* A view's verdict on the input blob: 0, or 1 after "<input>: not a valid <what>: <status>". */
int tool_viewed(const tool_opts *opts, copse_status st, const char *what);

/* The last line of stats, "check     OK" or the status of the tree's check; the exit status. */
int tool_check_line(const tool_opts *opts, copse_status st);

/* The `bounds` line of stats: the blob header's bounds, per tree axis, named by `axis` (the input
 * axis each tree axis reads; NULL: x, y, z) for the first `dim` axes. */
void tool_bounds_line(const void *blob, size_t len, unsigned dim, const uint8_t *axis);

/* --up as the mesh loader takes it: 0 (the file's own axes), 'y' or 'z'. */
char tool_up(const tool_opts *opts);

/* Parses one float word; 0 when it is not a whole finite number. */
int tool_parse_float(const char *word, float *v);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * One-off BVH queries as text: `ray ox oy oz dx dy dz [t_max]` in, one answer line out. The
 * tool's `query` command, the tool's tests (a tree built directly, a baked blob, an emitted C
 * array) and the brute-force checker all print through the same formats, so their answers
 * compare line by line.
 *
 *   3D trees: ray ox oy oz dx dy dz [t_max]   first hit       -> hit id=I t=T u=U v=V | miss
 *             box x0 y0 z0 x1 y1 z1          overlap         -> N ids: I ...   (ascending)
 *             sphere cx cy cz r              overlap         -> N ids: I ...
 *             segment ax ay az bx by bz      overlap         -> N ids: I ...
 *             nearest x y z [max_distance]   nearest point   -> id=I d2=D point=X,Y,Z | none
 *             vertex x y z [max_distance]    nearest vertex  -> id=I d2=D point=X,Y,Z | none
 *   2D trees: ray2 ox oy dx dy [t_max], rect x0 y0 x1 y1, circle cx cy r,
 *             segment2 ax ay bx by, nearest2 x y [max_distance]
 */
#ifndef COPSE_TOOL_BVH_QUERY_H
#define COPSE_TOOL_BVH_QUERY_H

#include <stdio.h>

#include "copse/bvh.h"

#define BVH_QUERY_MAX_WORDS 16

/* A parsed query: which one and its numbers. */
typedef struct bvh_query {
    const char *name;
    unsigned dim;     /* the tree dimension it needs */
    float v[9];       /* its numbers; optional ones filled with their defaults */
} bvh_query;

/* Parses words[0..n) into q; 0, or TOOL_USAGE after a message naming the problem. */
int bvh_query_parse(const char *const *words, unsigned n, bvh_query *q);

/* The query's words, as the answer line echoes them. */
void bvh_query_echo(const char *const *words, unsigned n, FILE *out);

/* Answers a parsed query on the tree and prints "-> answer\n"; 0, or TOOL_FAILED on a copse error. */
int bvh_query_answer(const copse_bvh *bvh, const bvh_query *q, FILE *out);

/* Splits a line in place into words ('#' starts a comment); returns the count. */
unsigned bvh_query_split(char *line, const char **words, unsigned cap);

/* The queries of a file (path) or of the command line (words), as word_run (word_query.h) takes
 * them, each parsed, echoed and answered by `answer` on stdout; word_run's statuses. */
typedef int (*bvh_query_answerer)(void *ctx, const bvh_query *q, FILE *out);
int bvh_query_run(const char *path, const char *const *words, unsigned n, bvh_query_answerer answer, void *ctx);

/* Printing an answer, shared with the brute-force checker. */
void bvh_query_print_hit(FILE *out, const copse_hit *hit);
void bvh_query_print_ids(FILE *out, uint32_t *ids, uint32_t count); /* sorts ids */
void bvh_query_print_nearest(FILE *out, uint32_t id, float d2, const float *point, unsigned dim);

#endif

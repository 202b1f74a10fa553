/* SPDX-License-Identifier: MIT */
/*
 * One-off octree queries as text, shared by `copse query` and the tests' program around an
 * emitted blob, so both print the same lines (the brute-force checker prints them too):
 *
 *   point octree  box x0 y0 z0 x1 y1 z1          -> N ids: I ...            (ascending)
 *                 sphere x y z r                 -> N ids: I ...
 *                 capsule ax ay az bx by bz r    -> N ids: I ...
 *                 knn x y z k [max_distance]     -> N nearest: I:D2 ...     (by d2, then id)
 *                 nearest x y z [max_distance]   -> id=I d2=D point=X,Y,Z | none
 *   loose octree  box x0 y0 z0 x1 y1 z1          -> N ids: I ...
 *                 sphere x y z r                 -> N ids: I ...
 *                 ray ox oy oz dx dy dz [t_max]  -> hit id=I t=T | miss   (first box entered)
 */
#ifndef COPSE_TOOL_OCTREE_QUERY_H
#define COPSE_TOOL_OCTREE_QUERY_H

#include <stdio.h>

#include "copse/octree.h"

#define OCTREE_QUERY_MAX_K 100000u /* knn's k */

/* word_answerer (word_query.h) over a copse_octree / a copse_loose. */
int octree_answer(const void *tree, const char *const *words, unsigned n, FILE *out);
int loose_answer(const void *tree, const char *const *words, unsigned n, FILE *out);

#endif

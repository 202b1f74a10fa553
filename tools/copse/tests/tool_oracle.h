/* SPDX-License-Identifier: MIT */
/* Shared by the tool oracle's files (tool_oracle.c: meshes, octree_oracle.c: clouds and boxes). */
#ifndef COPSE_TOOL_ORACLE_H
#define COPSE_TOOL_ORACLE_H

#include <stdint.h>
#include <stdio.h>

/* A uniform number in [lo, hi) from the one fixed-seed generator (splitmix64). */
void oracle_seed(uint64_t seed);
double rnd(double lo, double hi);

/* " -> N ids: I ..." from verdicts (orc_verdict) of ids 0..n-1; band ids marked '?'. */
void ids_line(FILE *out, const uint8_t *verdict, uint32_t n);

/* The octree commands (octree_oracle.c): their exit status, or -1 when argv is none of them. */
int octree_oracle_main(int argc, char **argv);

#endif

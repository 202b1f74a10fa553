/* SPDX-License-Identifier: MIT */
/*
 * Query words and box files shared by the tool's backends (BSP, octrees) and the programs the
 * tests compile around an emitted blob: numbers from words, one query or a file of them, the
 * answer line's error form, and the box-list text files the box kinds are baked from.
 */
#ifndef COPSE_TOOL_WORD_QUERY_H
#define COPSE_TOOL_WORD_QUERY_H

#include <stdint.h>
#include <stdio.h>

#include "copse/status.h"

/* Answers one query (words[0] names it) on `tree`, printing the echo and " -> answer\n". */
typedef int (*word_answerer)(const void *tree, const char *const *words, unsigned n, FILE *out);

/* Answerers and the parsers below return 0, TOOL_FAILED (the library refused: its status ends the
 * answer line) or TOOL_USAGE (the words do not make a query of this tree). */

/* Parses words[1..n) into v, exactly `want` of them; 0, or TOOL_USAGE after a message. */
int word_numbers(const char *const *words, unsigned n, unsigned want, float *v);

/* As word_numbers, with up to `optional` more numbers after `want` (their v[] left as given). */
int word_numbers_opt(const char *const *words, unsigned n, unsigned want, unsigned optional, float *v);

/* The queries of `path` (one a line, '#' comments) when it is not NULL, else those of words[0..n)
 * (each starts at a word that is not a number: `ray 0 0 0 1 0 0 sphere 0 0 0 1`), answered on
 * stdout in order up to the first that fails. 0; the failing query's status on the command line;
 * TOOL_FAILED for a failing line of the file (the file is the input); TOOL_USAGE for no queries or
 * both forms. */
int word_run(const char *path, const char *const *words, unsigned n, const void *tree, word_answerer answer);

/* Ends an answer line for an unknown query and says which ones the tree knows; TOOL_USAGE. */
int word_unknown(FILE *out, const char *word, const char *tree, const char *known);

/* COPSE_OK: 0; otherwise ends the answer line with the status and returns TOOL_FAILED after a message. */
int word_status(copse_status st, const char *query, FILE *out);

/* A box file: one `box` a line with 2*dim numbers (min corner, max corner), an optional
 * `<region_word>` line with the region's corners, '#' comments. *boxes: 2*dim floats a box
 * (free() it). 0, or 1 after a message naming the file, the line and the expected form. */
int box_file_read(const char *path, unsigned dim, const char *region_word, float **boxes, uint32_t *count,
                  float *region, int *have_region);

#endif

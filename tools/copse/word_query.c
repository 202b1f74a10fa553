/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "word_query.h"

#include <stdlib.h>
#include <string.h>

#include "bvh_query.h"
#include "tool.h"

int word_numbers_opt(const char *const *words, unsigned n, unsigned want, unsigned optional, float *v)
{
    unsigned k;
    if (n - 1u < want || n - 1u > want + optional) {
        if (optional == 0)
            return tool_usage("query %s takes %u numbers, not %u", words[0], want, n - 1u);
        return tool_usage("query %s takes %u to %u numbers, not %u", words[0], want, want + optional, n - 1u);
    }
    for (k = 1; k < n; k++)
        if (!tool_parse_float(words[k], &v[k - 1u]))
            return tool_usage("query %s: '%s' is not a finite number", words[0], words[k]);
    return 0;
}

int word_numbers(const char *const *words, unsigned n, unsigned want, float *v)
{
    return word_numbers_opt(words, n, want, 0, v);
}

/* A word that reads as a number (or tries to: a sign, a digit or a point first, or nan and inf),
 * so it belongs to the query before it rather than starting the next one. */
static int number_word(const char *w)
{
    char *end;
    if ((w[0] >= '0' && w[0] <= '9') || w[0] == '-' || w[0] == '+' || w[0] == '.')
        return 1;
    (void)strtod(w, &end);
    return end != w && *end == '\0';
}

int word_run(const char *path, const char *const *words, unsigned n, const void *tree, word_answerer answer)
{
    const char *line_words[BVH_QUERY_MAX_WORDS];
    char line[1024];
    unsigned long number = 0;
    unsigned k, first;
    int rc = 0;
    FILE *f;
    if (path != NULL && n > 0)
        return tool_usage("query: give the queries on the command line or in --queries %s, not both", path);
    if (path == NULL) {
        if (n == 0)
            return tool_usage("query: give a query (e.g. ray 0 1 0  1 0 0) or --queries FILE");
        /* several queries: each starts at a word that is not a number */
        for (first = 0; rc == 0 && first < n; first = k) {
            for (k = first + 1u; k < n && number_word(words[k]); k++)
                ;
            rc = answer(tree, words + first, k - first, stdout);
        }
        return rc;
    }
    if ((f = fopen(path, "r")) == NULL)
        return tool_fail("%s: cannot open", path);
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        number++;
        if ((k = bvh_query_split(line, line_words, BVH_QUERY_MAX_WORDS)) > 0 &&
            (rc = answer(tree, line_words, k, stdout)) != 0)
            rc = tool_fail("%s:%lu: the query above", path, number); /* a bad line is bad input: 1 */
    }
    fclose(f);
    return rc;
}

int word_unknown(FILE *out, const char *word, const char *tree, const char *known)
{
    fputc('\n', out);
    return tool_usage("unknown query '%s' on a %s (%s)", word, tree, known);
}

int word_status(copse_status st, const char *query, FILE *out)
{
    if (st == COPSE_OK)
        return 0;
    fprintf(out, " -> error %s\n", copse_status_str(st));
    return tool_fail("query %s: %s", query, copse_status_str(st));
}

/* "x0 y0 x1 y1" or "x0 y0 z0 x1 y1 z1" for the messages. */
static const char *corner_words(unsigned dim)
{
    return dim == 2 ? "x0 y0 x1 y1" : "x0 y0 z0 x1 y1 z1";
}

/* Why a box-file line is refused, or NULL: not a box (or region) line, or an inverted one. */
static const char *box_line_problem(const char *const *w, unsigned n, unsigned dim, const char *region_word, float *v,
                                    unsigned *axis)
{
    unsigned k;
    if (n != 2u * dim + 1u || (strcmp(w[0], "box") != 0 && strcmp(w[0], region_word) != 0))
        return "form";
    for (k = 0; k < 2u * dim; k++)
        if (!tool_parse_float(w[k + 1u], &v[k]))
            return "form";
    for (k = 0; k < dim; k++)
        if (v[k] > v[dim + k]) {
            *axis = k;
            return "inverted";
        }
    return NULL;
}

int box_file_read(const char *path, unsigned dim, const char *region_word, float **boxes, uint32_t *count,
                  float *region, int *have_region)
{
    const unsigned per_box = 2u * dim;
    size_t len;
    char *text = (char *)tool_read_file(path, &len), *line, *save = NULL;
    uint32_t cap = 0;
    unsigned long number = 0;
    int rc = 0;
    *boxes = NULL;
    *count = 0;
    *have_region = 0;
    if (text == NULL)
        return 1;
    text[len] = '\0'; /* tool_read_file leaves a spare byte */
    for (line = strtok_r(text, "\n", &save); line != NULL && rc == 0; line = strtok_r(NULL, "\n", &save)) {
        const char *w[8], *problem;
        unsigned n = bvh_query_split(line, w, 8), a = 0;
        float v[6];
        number++;
        if (n == 0)
            continue;
        if ((problem = box_line_problem(w, n, dim, region_word, v, &a)) != NULL && problem[0] == 'f')
            rc = tool_fail("%s:%lu: expected 'box %s' or '%s %s' with finite numbers", path, number, corner_words(dim),
                           region_word, corner_words(dim));
        else if (problem != NULL && strcmp(w[0], region_word) == 0)
            rc = tool_fail("%s:%lu: the %s is inverted: %c0 %g > %c1 %g", path, number, region_word, "xyz"[a],
                           (double)v[a], "xyz"[a], (double)v[dim + a]);
        else if (problem != NULL)
            rc = tool_fail("%s:%lu: box %lu (counting from 0) is inverted: %c0 %g > %c1 %g", path, number,
                           (unsigned long)*count, "xyz"[a], (double)v[a], "xyz"[a], (double)v[dim + a]);
        else if (strcmp(w[0], region_word) == 0) {
            memcpy(region, v, sizeof v[0] * per_box);
            *have_region = 1;
        } else {
            if (*count == cap) {
                float *bigger = (float *)realloc(*boxes, sizeof **boxes * per_box * (cap = cap ? cap * 2u : 256u));
                if (bigger == NULL) {
                    rc = tool_fail("out of memory");
                    break;
                }
                *boxes = bigger;
            }
            memcpy(*boxes + (size_t)per_box * (*count)++, v, sizeof v[0] * per_box);
        }
    }
    free(text);
    if (rc == 0 && *count == 0)
        rc = tool_fail("%s: no boxes", path);
    if (rc != 0) {
        free(*boxes);
        *boxes = NULL;
        *count = 0;
    }
    return rc;
}

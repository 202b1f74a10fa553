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
            return tool_fail("query %s takes %u numbers, not %u", words[0], want, n - 1u);
        return tool_fail("query %s takes %u to %u numbers, not %u", words[0], want, want + optional, n - 1u);
    }
    for (k = 1; k < n; k++)
        if (!tool_parse_float(words[k], &v[k - 1u]))
            return tool_fail("query %s: '%s' is not a finite number", words[0], words[k]);
    return 0;
}

int word_numbers(const char *const *words, unsigned n, unsigned want, float *v)
{
    return word_numbers_opt(words, n, want, 0, v);
}

int word_run(const char *path, const char *const *words, unsigned n, const void *tree, word_answerer answer)
{
    const char *line_words[BVH_QUERY_MAX_WORDS];
    char line[1024];
    unsigned k;
    int rc = 0;
    FILE *f;
    if (path == NULL) {
        if (n == 0)
            return tool_fail("query: give a query or --queries FILE");
        return answer(tree, words, n, stdout);
    }
    if ((f = fopen(path, "r")) == NULL)
        return tool_fail("%s: cannot open", path);
    while (rc == 0 && fgets(line, sizeof line, f) != NULL)
        if ((k = bvh_query_split(line, line_words, BVH_QUERY_MAX_WORDS)) > 0)
            rc = answer(tree, line_words, k, stdout);
    fclose(f);
    return rc;
}

int word_unknown(FILE *out, const char *word, const char *tree, const char *known)
{
    fputc('\n', out);
    return tool_fail("unknown query '%s' on a %s (%s)", word, tree, known);
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

int box_file_read(const char *path, unsigned dim, const char *region_word, float **boxes, uint32_t *count,
                  float *region, int *have_region)
{
    const unsigned per_box = 2u * dim;
    size_t len;
    char *text = (char *)tool_read_file(path, &len), *line, *save = NULL;
    uint32_t cap = 0;
    unsigned long number = 0;
    *boxes = NULL;
    *count = 0;
    *have_region = 0;
    if (text == NULL)
        return 1;
    text[len] = '\0'; /* tool_read_file leaves a spare byte */
    for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        const char *w[8];
        unsigned n = bvh_query_split(line, w, 8), k;
        float v[6];
        int good;
        number++;
        if (n == 0)
            continue;
        good = n == per_box + 1u && (strcmp(w[0], "box") == 0 || strcmp(w[0], region_word) == 0);
        for (k = 0; good && k < per_box; k++)
            good = tool_parse_float(w[k + 1u], &v[k]);
        if (!good) {
            free(text);
            free(*boxes);
            *boxes = NULL;
            return tool_fail("%s:%lu: expected 'box %s' or '%s %s' with finite numbers", path, number,
                             corner_words(dim), region_word, corner_words(dim));
        }
        if (strcmp(w[0], region_word) == 0) {
            memcpy(region, v, sizeof v[0] * per_box);
            *have_region = 1;
            continue;
        }
        if (*count == cap) {
            float *bigger = (float *)realloc(*boxes, sizeof **boxes * per_box * (cap = cap ? cap * 2u : 256u));
            if (bigger == NULL) {
                free(text);
                free(*boxes);
                *boxes = NULL;
                return tool_fail("out of memory");
            }
            *boxes = bigger;
        }
        memcpy(*boxes + (size_t)per_box * (*count)++, v, sizeof v[0] * per_box);
    }
    free(text);
    if (*count == 0)
        return tool_fail("%s: no boxes", path);
    return 0;
}

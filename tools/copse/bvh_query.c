/* SPDX-License-Identifier: MIT */
#include "bvh_query.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "word_query.h"

typedef struct query_form {
    const char *name;
    unsigned dim, required, optional; /* numbers: required, then at most one optional */
    float fallback;                   /* the optional number's default */
} query_form;

static const query_form forms[] = {
    {"ray", 3, 6, 1, FLT_MAX},     {"box", 3, 6, 0, 0.0f},     {"sphere", 3, 4, 0, 0.0f},
    {"segment", 3, 6, 0, 0.0f},    {"nearest", 3, 3, 1, FLT_MAX}, {"vertex", 3, 3, 1, FLT_MAX},
    {"ray2", 2, 4, 1, FLT_MAX},    {"rect", 2, 4, 0, 0.0f},    {"circle", 2, 3, 0, 0.0f},
    {"segment2", 2, 4, 0, 0.0f},   {"nearest2", 2, 2, 1, FLT_MAX},
};

int bvh_query_parse(const char *const *words, unsigned n, bvh_query *q)
{
    unsigned f, k;
    memset(q, 0, sizeof *q);
    if (n == 0)
        return tool_usage("empty query");
    for (f = 0; f < sizeof forms / sizeof forms[0]; f++)
        if (strcmp(words[0], forms[f].name) == 0)
            break;
    if (f == sizeof forms / sizeof forms[0])
        return tool_usage("unknown query '%s' (ray box sphere segment nearest vertex; ray2 rect circle segment2 "
                          "nearest2)", words[0]);
    if (n - 1u < forms[f].required || n - 1u > forms[f].required + forms[f].optional)
        return tool_usage("query %s takes %u%s numbers, not %u", words[0], forms[f].required,
                          forms[f].optional ? " or one more" : "", n - 1u);
    q->name = forms[f].name;
    q->dim = forms[f].dim;
    q->v[forms[f].required] = forms[f].fallback;
    for (k = 1; k < n; k++)
        if (!tool_parse_float(words[k], &q->v[k - 1u]))
            return tool_usage("query %s: '%s' is not a finite number", words[0], words[k]);
    return 0;
}

void bvh_query_echo(const char *const *words, unsigned n, FILE *out)
{
    unsigned k;
    for (k = 0; k < n; k++)
        fprintf(out, "%s%s", k ? " " : "", words[k]);
}

void bvh_query_print_hit(FILE *out, const copse_hit *hit)
{
    if (hit->id == COPSE_NONE)
        fprintf(out, " -> miss\n");
    else
        fprintf(out, " -> hit id=%lu t=%.9g u=%.9g v=%.9g\n", (unsigned long)hit->id, (double)hit->t,
                (double)hit->u, (double)hit->v);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void bvh_query_print_ids(FILE *out, uint32_t *ids, uint32_t count)
{
    uint32_t i;
    qsort(ids, count, sizeof *ids, by_value);
    fprintf(out, " -> %lu ids:", (unsigned long)count);
    for (i = 0; i < count; i++)
        fprintf(out, " %lu", (unsigned long)ids[i]);
    fputc('\n', out);
}

void bvh_query_print_nearest(FILE *out, uint32_t id, float d2, const float *point, unsigned dim)
{
    unsigned a;
    if (id == COPSE_NONE) {
        fprintf(out, " -> none\n");
        return;
    }
    fprintf(out, " -> id=%lu d2=%.9g point=", (unsigned long)id, (double)d2);
    for (a = 0; a < dim; a++)
        fprintf(out, "%s%.9g", a ? "," : "", (double)point[a]);
    fputc('\n', out);
}

/* The overlap queries: one list, filled by the query that matches the name. */
static copse_status overlap(const copse_bvh *bvh, const bvh_query *q, copse_id_list *list)
{
    const float *v = q->v;
    const char *s = q->name;
    if (strcmp(s, "box") == 0) {
        copse_box3 b = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
        return copse_bvh_overlap_box(bvh, &b, COPSE_BVH_SELECT_PRIMS, list);
    }
    if (strcmp(s, "sphere") == 0) {
        copse_sphere sp;
        sp.center = copse_v3(v[0], v[1], v[2]);
        sp.radius = v[3];
        return copse_bvh_overlap_sphere(bvh, &sp, COPSE_BVH_SELECT_PRIMS, list);
    }
    if (strcmp(s, "segment") == 0) {
        copse_segment3 sg;
        sg.a = copse_v3(v[0], v[1], v[2]);
        sg.b = copse_v3(v[3], v[4], v[5]);
        return copse_bvh_overlap_segment(bvh, &sg, COPSE_BVH_SELECT_PRIMS, list);
    }
    if (strcmp(s, "rect") == 0) {
        copse_box2 r = copse_box2_make(v[0], v[1], v[2], v[3]);
        return copse_bvh_overlap_rect(bvh, &r, COPSE_BVH_SELECT_PRIMS, list);
    }
    if (strcmp(s, "circle") == 0) {
        copse_circle c;
        c.center = copse_v2(v[0], v[1]);
        c.radius = v[2];
        return copse_bvh_overlap_circle(bvh, &c, COPSE_BVH_SELECT_PRIMS, list);
    } else {
        copse_segment2 sg;
        sg.a = copse_v2(v[0], v[1]);
        sg.b = copse_v2(v[2], v[3]);
        return copse_bvh_overlap_segment2(bvh, &sg, COPSE_BVH_SELECT_PRIMS, list);
    }
}

static int answer_status(copse_status st, const bvh_query *q, FILE *out)
{
    if (st == COPSE_OK)
        return 0;
    fprintf(out, " -> error %s\n", copse_status_str(st));
    return tool_fail("query %s: %s", q->name, copse_status_str(st));
}

int bvh_query_answer(const copse_bvh *bvh, const bvh_query *q, FILE *out)
{
    const float *v = q->v;
    copse_status st;
    if (strcmp(q->name, "ray") == 0 || strcmp(q->name, "ray2") == 0) {
        copse_hit hit;
        if (q->dim == 3) {
            copse_ray3 ray;
            ray.origin = copse_v3(v[0], v[1], v[2]);
            ray.dir = copse_v3(v[3], v[4], v[5]);
            ray.t_max = v[6];
            st = copse_bvh_raycast(bvh, &ray, &hit);
        } else {
            copse_ray2 ray;
            ray.origin = copse_v2(v[0], v[1]);
            ray.dir = copse_v2(v[2], v[3]);
            ray.t_max = v[4];
            st = copse_bvh_raycast2(bvh, &ray, &hit);
        }
        if (st == COPSE_OK)
            bvh_query_print_hit(out, &hit);
    } else if (strncmp(q->name, "nearest", 7) == 0 || strcmp(q->name, "vertex") == 0) {
        copse_nearest3 n3;
        copse_nearest2 n2;
        if (q->dim == 2) {
            st = copse_bvh_nearest2(bvh, copse_v2(v[0], v[1]), v[2], &n2);
            if (st == COPSE_OK)
                bvh_query_print_nearest(out, n2.id, n2.distance_sq, &n2.point.x, 2);
        } else {
            st = q->name[0] == 'v' ? copse_bvh_nearest_vertex(bvh, copse_v3(v[0], v[1], v[2]), v[3], &n3)
                                   : copse_bvh_nearest(bvh, copse_v3(v[0], v[1], v[2]), v[3], &n3);
            if (st == COPSE_OK)
                bvh_query_print_nearest(out, n3.id, n3.distance_sq, &n3.point.x, 3);
        }
    } else {
        uint32_t cap = bvh->prim_count + 1u;
        uint32_t *ids = (uint32_t *)malloc(sizeof(uint32_t) * cap);
        copse_id_list list = copse_id_list_make(ids, cap);
        if (ids == NULL)
            return tool_fail("out of memory");
        st = overlap(bvh, q, &list);
        if (st == COPSE_OK)
            bvh_query_print_ids(out, ids, list.count);
        free(ids);
    }
    return answer_status(st, q, out);
}

unsigned bvh_query_split(char *line, const char **words, unsigned cap)
{
    unsigned n = 0;
    char *p = line;
    while (*p != '\0' && *p != '#' && n < cap) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            *p++ = '\0';
        if (*p == '\0' || *p == '#')
            break;
        words[n++] = p;
        while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '#')
            p++;
    }
    *p = '\0';
    return n;
}

/* word_run's answerer over a parsed-query answerer: parse, echo, answer. */
typedef struct parsed_answerer {
    bvh_query_answerer answer;
    void *ctx;
} parsed_answerer;

static int answer_words(const void *tree, const char *const *words, unsigned n, FILE *out)
{
    const parsed_answerer *p = (const parsed_answerer *)tree;
    bvh_query q;
    int rc = bvh_query_parse(words, n, &q);
    if (rc != 0)
        return rc;
    bvh_query_echo(words, n, out);
    return p->answer(p->ctx, &q, out);
}

int bvh_query_run(const char *path, const char *const *words, unsigned n, bvh_query_answerer answer, void *ctx)
{
    parsed_answerer p;
    p.answer = answer;
    p.ctx = ctx;
    return word_run(path, words, n, &p, answer_words);
}

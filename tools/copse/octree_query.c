/* SPDX-License-Identifier: MIT */
#include "octree_query.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_query.h"
#include "tool.h"
#include "word_query.h"

/* The points (or objects) a list query may return: all of them. */
static int print_list(copse_status (*query)(const void *tree, const float *v, copse_id_list *out), const void *tree,
                      uint32_t all, const float *v, const char *name, FILE *out)
{
    uint32_t *ids = (uint32_t *)malloc(sizeof *ids * (all > 0 ? all : 1u));
    copse_id_list list = copse_id_list_make(ids, all);
    copse_status st;
    if (ids == NULL)
        return tool_fail("out of memory");
    if ((st = query(tree, v, &list)) == COPSE_OK)
        bvh_query_print_ids(out, ids, list.count);
    free(ids);
    return word_status(st, name, out);
}

static copse_status point_box(const void *tree, const float *v, copse_id_list *out)
{
    copse_box3 b = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
    return copse_octree_overlap_box((const copse_octree *)tree, &b, out);
}

static copse_status point_sphere(const void *tree, const float *v, copse_id_list *out)
{
    copse_sphere s;
    s.center = copse_v3(v[0], v[1], v[2]);
    s.radius = v[3];
    return copse_octree_overlap_sphere((const copse_octree *)tree, &s, out);
}

static copse_status point_capsule(const void *tree, const float *v, copse_id_list *out)
{
    copse_capsule c;
    c.segment.a = copse_v3(v[0], v[1], v[2]);
    c.segment.b = copse_v3(v[3], v[4], v[5]);
    c.radius = v[6];
    return copse_octree_overlap_capsule((const copse_octree *)tree, &c, out);
}

static int knn(const copse_octree *t, const char *const *words, unsigned n, FILE *out)
{
    float v[5] = {0, 0, 0, 0, FLT_MAX};
    copse_neighbor *items;
    copse_neighbor_list list;
    copse_status st;
    uint32_t i, k;
    if (word_numbers_opt(words, n, 4, 1, v) != 0)
        return TOOL_USAGE;
    if (v[3] < 1.0f || v[3] > (float)OCTREE_QUERY_MAX_K || v[3] != (float)(uint32_t)v[3]) {
        fputc('\n', out);
        return tool_usage("query knn: k %s: expected a whole number 1 to %u", words[4], OCTREE_QUERY_MAX_K);
    }
    k = (uint32_t)v[3];
    if ((items = (copse_neighbor *)malloc(sizeof *items * k)) == NULL)
        return tool_fail("out of memory");
    list = copse_neighbor_list_make(items, k);
    if ((st = copse_octree_knn(t, copse_v3(v[0], v[1], v[2]), v[4], &list)) == COPSE_OK) {
        fprintf(out, " -> %lu nearest:", (unsigned long)list.count);
        for (i = 0; i < list.count; i++)
            fprintf(out, " %lu:%.9g", (unsigned long)items[i].id, (double)items[i].distance_sq);
        fputc('\n', out);
    }
    free(items);
    return word_status(st, words[0], out);
}

int octree_answer(const void *tree, const char *const *words, unsigned n, FILE *out)
{
    const copse_octree *t = (const copse_octree *)tree;
    float v[7] = {0, 0, 0, FLT_MAX, 0, 0, 0};
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "box") == 0)
        return word_numbers(words, n, 6, v) != 0 ? TOOL_USAGE : print_list(point_box, t, t->size, v, words[0], out);
    if (strcmp(words[0], "sphere") == 0)
        return word_numbers(words, n, 4, v) != 0 ? TOOL_USAGE : print_list(point_sphere, t, t->size, v, words[0], out);
    if (strcmp(words[0], "capsule") == 0)
        return word_numbers(words, n, 7, v) != 0 ? TOOL_USAGE : print_list(point_capsule, t, t->size, v, words[0], out);
    if (strcmp(words[0], "knn") == 0)
        return knn(t, words, n, out);
    if (strcmp(words[0], "nearest") == 0) {
        copse_nearest3 near;
        copse_status st;
        if (word_numbers_opt(words, n, 3, 1, v) != 0)
            return TOOL_USAGE;
        if ((st = copse_octree_nearest(t, copse_v3(v[0], v[1], v[2]), v[3], &near)) == COPSE_OK)
            bvh_query_print_nearest(out, near.id, near.distance_sq, &near.point.x, 3);
        return word_status(st, words[0], out);
    }
    return word_unknown(out, words[0], "point octree", "box, sphere, capsule, knn, nearest");
}

static copse_status loose_box(const void *tree, const float *v, copse_id_list *out)
{
    copse_box3 b = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
    return copse_loose_overlap_box((const copse_loose *)tree, &b, out);
}

static copse_status loose_sphere(const void *tree, const float *v, copse_id_list *out)
{
    copse_sphere s;
    s.center = copse_v3(v[0], v[1], v[2]);
    s.radius = v[3];
    return copse_loose_overlap_sphere((const copse_loose *)tree, &s, out);
}

int loose_answer(const void *tree, const char *const *words, unsigned n, FILE *out)
{
    const copse_loose *t = (const copse_loose *)tree;
    float v[7] = {0, 0, 0, 0, 0, 0, FLT_MAX};
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "box") == 0)
        return word_numbers(words, n, 6, v) != 0 ? TOOL_USAGE : print_list(loose_box, t, t->max_objects, v, words[0], out);
    if (strcmp(words[0], "sphere") == 0)
        return word_numbers(words, n, 4, v) != 0 ? TOOL_USAGE : print_list(loose_sphere, t, t->max_objects, v, words[0], out);
    if (strcmp(words[0], "ray") == 0) {
        copse_ray3 ray;
        copse_hit hit;
        copse_status st;
        if (word_numbers_opt(words, n, 6, 1, v) != 0)
            return TOOL_USAGE;
        ray.origin = copse_v3(v[0], v[1], v[2]);
        ray.dir = copse_v3(v[3], v[4], v[5]);
        ray.t_max = v[6];
        if ((st = copse_loose_raycast(t, &ray, &hit)) == COPSE_OK) {
            if (hit.id == COPSE_NONE)
                fprintf(out, " -> miss\n");
            else
                fprintf(out, " -> hit id=%lu t=%.9g\n", (unsigned long)hit.id, (double)hit.t);
        }
        return word_status(st, words[0], out);
    }
    return word_unknown(out, words[0], "loose octree", "box, sphere, ray");
}

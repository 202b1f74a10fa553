/* SPDX-License-Identifier: MIT */
/*
 * copse — what queries return, shared by every tree: id lists and hit lists with a capacity
 * and a truncated flag (the array form), nearest results, and the visitor callbacks (the
 * visitor form: return false to stop).
 */
#ifndef COPSE_QUERY_H
#define COPSE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "copse/geom.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COPSE_NONE 0xFFFFFFFFu /* "no id": no primitive, point, object, brush or leaf (a miss) */

/* An array result: up to `capacity` entries; `truncated` when more were found. */
typedef struct copse_id_list {
    uint32_t *ids;
    uint32_t capacity;
    uint32_t count;
    bool truncated;
} copse_id_list;

typedef struct copse_hit {
    float t;      /* ray parameter: the hit point is origin + t*dir */
    uint32_t id;  /* primitive id (triangle index, box id), COPSE_NONE on a miss */
    float u, v;   /* triangles: the point is (1-u-v)*p0 + u*p1 + v*p2 of the triangle's corners */
} copse_hit;

typedef struct copse_hit_list {
    copse_hit *hits;
    uint32_t capacity;
    uint32_t count;
    bool truncated; /* more hits than capacity: the nearest `capacity` are kept */
} copse_hit_list;

typedef struct copse_nearest3 {
    float distance_sq; /* squared distance to the query point */
    uint32_t id;       /* triangle, box or vertex; COPSE_NONE when nothing lies within range */
    copse_vec3 point;  /* the closest point on that primitive, or the vertex */
} copse_nearest3;

typedef struct copse_nearest2 {
    float distance_sq;
    uint32_t id;
    copse_vec2 point;
} copse_nearest2;

static inline copse_id_list copse_id_list_make(uint32_t *ids, uint32_t capacity)
{
    copse_id_list list;
    list.ids = ids;
    list.capacity = capacity;
    list.count = 0;
    list.truncated = false;
    return list;
}

static inline copse_hit_list copse_hit_list_make(copse_hit *hits, uint32_t capacity)
{
    copse_hit_list list;
    list.hits = hits;
    list.capacity = capacity;
    list.count = 0;
    list.truncated = false;
    return list;
}

/* Visitors: return false to stop the query early. */
typedef bool (*copse_id_visitor)(void *user, uint32_t id);
typedef bool (*copse_hit_visitor)(void *user, const copse_hit *hit);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_QUERY_H */

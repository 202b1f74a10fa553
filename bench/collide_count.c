/* SPDX-License-Identifier: MIT */
/*
 * Work counters for make bench-collide's "work per query" table. Linked only into the counting
 * build of the benchmark (collide_work), with -Wl,--wrap for each function below: every call
 * that one library object makes to another's goes through the wrapper here, which counts it and
 * calls the real function. The timed build never sees this file, so its times carry no counting.
 */
#include <stdbool.h>
#include <stdint.h>

#include "collide_count.h"
#include "../src/geom/geom_collide.h"

static uint64_t counts[COLLIDE_COUNT_KINDS];

uint64_t *collide_counts(void)
{
    return counts;
}

bool __real_copse__collide_sat(const float *m, const float *e, const float *c, const float *h, const float *r,
                               const float *ar, float slack);
bool __real_copse__collide_face_axes(const float *t, const float *e, const float *h, const float *ext_t,
                                   const float *ext_o, const float *r, const float *ar, float slack);
float __real_copse__collide_box_gap2(const float *m, const float *e, const float *c, const float *h, const float *r,
                                     const float *ar);
bool __real_copse_geo_triangle_triangle_overlap(const float *const p[3], const float *const q[3]);
float __real_copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq);
float __real_copse_geo_triangle_triangle_apart(const float *const p[3], const float *const q[3], float *pp,
                                               float *pq);
float __real_copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest);
float __real_copse_geo_tri_tri_prepared(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);
float __real_copse_geo_tri_tri_prepared_apart(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);
float __real_copse_geo_point_tri_prepared(const geo_tri_prep *t, const float *p, float *closest);

bool __wrap_copse__collide_sat(const float *m, const float *e, const float *c, const float *h, const float *r,
                               const float *ar, float slack);
bool __wrap_copse__collide_face_axes(const float *t, const float *e, const float *h, const float *ext_t,
                                   const float *ext_o, const float *r, const float *ar, float slack);
float __wrap_copse__collide_box_gap2(const float *m, const float *e, const float *c, const float *h, const float *r,
                                     const float *ar);
bool __wrap_copse_geo_triangle_triangle_overlap(const float *const p[3], const float *const q[3]);
float __wrap_copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq);
float __wrap_copse_geo_triangle_triangle_apart(const float *const p[3], const float *const q[3], float *pp,
                                               float *pq);
float __wrap_copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest);
float __wrap_copse_geo_tri_tri_prepared(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);
float __wrap_copse_geo_tri_tri_prepared_apart(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);
float __wrap_copse_geo_point_tri_prepared(const geo_tri_prep *t, const float *p, float *closest);

bool __wrap_copse__collide_sat(const float *m, const float *e, const float *c, const float *h, const float *r,
                               const float *ar, float slack)
{
    counts[COLLIDE_COUNT_NODE_SAT]++;
    return __real_copse__collide_sat(m, e, c, h, r, ar, slack);
}

/* the mesh walks' node test (the six face axes, in the split's shared form) */
bool __wrap_copse__collide_face_axes(const float *t, const float *e, const float *h, const float *ext_t,
                                   const float *ext_o, const float *r, const float *ar, float slack)
{
    counts[COLLIDE_COUNT_NODE_SAT]++;
    return __real_copse__collide_face_axes(t, e, h, ext_t, ext_o, r, ar, slack);
}

float __wrap_copse__collide_box_gap2(const float *m, const float *e, const float *c, const float *h, const float *r,
                                     const float *ar)
{
    counts[COLLIDE_COUNT_NODE_GAP]++;
    return __real_copse__collide_box_gap2(m, e, c, h, r, ar);
}

bool __wrap_copse_geo_triangle_triangle_overlap(const float *const p[3], const float *const q[3])
{
    counts[COLLIDE_COUNT_TRI_OVERLAP]++;
    return __real_copse_geo_triangle_triangle_overlap(p, q);
}

float __wrap_copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq)
{
    counts[COLLIDE_COUNT_TRI_DISTANCE]++;
    return __real_copse_geo_triangle_triangle(p, q, pp, pq);
}

float __wrap_copse_geo_triangle_triangle_apart(const float *const p[3], const float *const q[3], float *pp,
                                               float *pq)
{
    counts[COLLIDE_COUNT_TRI_DISTANCE]++;
    return __real_copse_geo_triangle_triangle_apart(p, q, pp, pq);
}

float __wrap_copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest)
{
    counts[COLLIDE_COUNT_POINT_TRI]++;
    return __real_copse_geo_point_triangle(p, tri, closest);
}

/* The prepared forms (src/collide prepares each triangle once for its leaf pair) count alike. */
float __wrap_copse_geo_tri_tri_prepared(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq)
{
    counts[COLLIDE_COUNT_TRI_DISTANCE]++;
    return __real_copse_geo_tri_tri_prepared(p, q, pp, pq);
}

float __wrap_copse_geo_tri_tri_prepared_apart(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq)
{
    counts[COLLIDE_COUNT_TRI_DISTANCE]++;
    return __real_copse_geo_tri_tri_prepared_apart(p, q, pp, pq);
}

float __wrap_copse_geo_point_tri_prepared(const geo_tri_prep *t, const float *p, float *closest)
{
    counts[COLLIDE_COUNT_POINT_TRI]++;
    return __real_copse_geo_point_tri_prepared(t, p, closest);
}

/* SPDX-License-Identifier: MIT */
/*
 * Brute-force geometry in double precision: the answers copse's float code is judged
 * against. Written from the textbook definitions, never from src/geom, and never
 * calling it. Points are 3 doubles; 2D callers put their points at z = 0.
 *
 * Every predicate also says whether its answer is fragile: when the query lies within
 * a tiny band of the primitive's boundary (a few float roundings of the coordinates
 * involved), a float implementation may answer either way. Callers count those
 * excusals and fail when there are many.
 */
#ifndef COPSE_TEST_ORACLE_H
#define COPSE_TEST_ORACLE_H

#include <stdbool.h>

/* float's epsilon as a double: the grain of copse's arithmetic */
#define ORC_FLT_EPS 1.1920928955078125e-7

typedef enum orc_verdict {
    ORC_NO = 0,      /* clearly apart */
    ORC_YES = 1,     /* clearly overlapping / hit */
    ORC_EDGE_NO = 2, /* apart, but within the boundary band */
    ORC_EDGE_YES = 3 /* overlapping, but within the boundary band */
} orc_verdict;

static inline bool orc_exact(orc_verdict v)
{
    return v == ORC_YES || v == ORC_EDGE_YES;
}

static inline bool orc_fragile(orc_verdict v)
{
    return v == ORC_EDGE_NO || v == ORC_EDGE_YES;
}

/* ---- vectors -------------------------------------------------------------------------------- */

double orc_dot(const double *a, const double *b);
void orc_sub(double *out, const double *a, const double *b);
void orc_cross(double *out, const double *a, const double *b);
double orc_len(const double *a);
double orc_dist(const double *a, const double *b);
double orc_max_abs(const double *a);

/* ---- closest points and distances ----------------------------------------------------------- */

/* Closest point on segment [a, b] to p; returns the distance. */
double orc_closest_segment(const double *p, const double *a, const double *b, double *out);
/* Closest point on the closed triangle (a, b, c) to p (a degenerate triangle is the union of
 * its edges); returns the distance. */
double orc_closest_triangle(const double *p, const double *a, const double *b, const double *c, double *out);
/* Closest point of the box [bmin, bmax] (dim axes) to p; returns the distance. */
double orc_closest_box(const double *p, const double *bmin, const double *bmax, unsigned dim, double *out);

/* Signed distance from p to the closed 2D triangle (z ignored): the distance to the boundary,
 * negative inside. */
double orc_signed_distance2(const double *p, const double *a, const double *b, const double *c);

/* How badly conditioned a triangle is for float tests: longest edge squared over twice the area
 * (1 for a fat triangle, large for a sliver; 1 for an exactly degenerate one, which copse treats
 * as its edges). */
double orc_triangle_condition(const double *a, const double *b, const double *c);

/* ---- overlap predicates, with a boundary band of width `band` (world units) ----------------- */

/* Closed boxes. Box against box is exact in float (only comparisons): no band. */
bool orc_box_box(const double *amin, const double *amax, const double *bmin, const double *bmax, unsigned dim);

/* Triangle against box by the separating axis theorem (13 axes). 2D callers pass a triangle at
 * z = 0 and a box with z in [-1, 1]. */
orc_verdict orc_triangle_box(const double *bmin, const double *bmax, const double *a, const double *b, const double *c,
                             double band);

/* A closed ball against anything whose distance to the centre is d. */
orc_verdict orc_ball(double d, double radius, double band);

/* ---- rays: origin o, direction d (any length), t in [0, t_max] (t_max may be +inf) ---------- */

#define ORC_NO_T (-1.0) /* orc_hit.t when no t is meaningful */

typedef struct orc_hit {
    orc_verdict verdict;
    double t;    /* the hit's t; for ORC_EDGE_NO where a float test would most likely hit, or ORC_NO_T */
    double u, v; /* triangles: weights of the 2nd and 3rd corner at the hit point */
} orc_hit;

/* A 3D ray against the surface of a triangle (two-sided; a degenerate triangle is never hit). */
orc_hit orc_ray_triangle3(const double *o, const double *d, double t_max, const double *a, const double *b,
                          const double *c);

/* A 2D ray (z ignored) entering the closed triangle: t = 0 when the origin is inside. */
orc_hit orc_ray_triangle2(const double *o, const double *d, double t_max, const double *a, const double *b,
                          const double *c, double band);

/* A ray entering a closed box (t = 0 when the origin is inside); band grows / shrinks the box. */
orc_hit orc_ray_box(const double *o, const double *d, double t_max, const double *bmin, const double *bmax,
                    unsigned dim, double band);

#endif

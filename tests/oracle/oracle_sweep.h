/* SPDX-License-Identifier: MIT */
/*
 * Brute-force convex distances and first contact times in double precision: the oracle of the
 * GJK and sweep kernels (tests/test_geom_sweep.c). Written from the textbook definitions (the
 * closest pair of two disjoint convex polytopes is realised by a vertex against a face or an edge
 * against an edge), never from src/geom, and never calling it.
 *
 * Points are 3 doubles.
 */
#ifndef COPSE_TEST_ORACLE_SWEEP_H
#define COPSE_TEST_ORACLE_SWEEP_H

#include <stdbool.h>

/* A triangle (it may be degenerate: a segment or a point). */
typedef struct osw_tri {
    double v[3][3];
} osw_tri;

/* Closest points of the segments [a0, a1] and [b0, b1] (either may be a point); the distance. */
double osw_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb);

/* Does the segment cross the triangle's plane inside the triangle (not parallel to it)? Touching
 * at a boundary may go either way: the distance features below see it at distance 0. */
bool osw_segment_crosses(const double *s0, const double *s1, const osw_tri *t);

/* Closest points of a segment and a triangle, of two triangles: 0 with a shared point when they
 * cross; touching ones are found by the features, at a distance of the rounding. */
double osw_segment_triangle(const double *s0, const double *s1, const osw_tri *t, double *ps, double *pt);
double osw_triangle_triangle(const osw_tri *p, const osw_tri *q, double *pp, double *pq);

/* An oriented box: centre + sum_k q_k axis[k], |q_k| <= half[k] (the axes need not be unit or
 * orthogonal: a parallelepiped). */
typedef struct osw_box {
    double center[3], axis[3][3], half[3];
} osw_box;

void osw_box_corners(const osw_box *b, double corners[8][3]);

/* Closest points of the solid box and a triangle: 0 when they meet (the points are then not
 * meaningful), decided by the separating axis test on the box's face normals, the triangle's
 * normal and the nine edge cross products. */
double osw_box_triangle(const osw_box *b, const osw_tri *t, double *pb, double *pt);

/* The hull of n points (1..8; x, y, z each): its distance to a triangle and to a box, with closest points.
 * Every triple of points (pair, point when n < 3) is a candidate face: when apart the closest is
 * on the hull's boundary, which those cover; overlap when one meets the other, or when a corner
 * of the other lies in a tetrahedron of the points. */
double osw_hull_triangle(const double *pts, unsigned n, const osw_tri *t, double *ph, double *pt);
double osw_hull_box(const double *pts, unsigned n, const osw_box *b, double *ph, double *pbx);

/* The first time a convex gap function (distance minus radius; <= 0 when touching) reaches 0
 * on [0, t_max]: golden-section search for the minimum, stopped at the first t that touches,
 * then bisection. *min_gap is the smallest gap seen (the minimum, when nothing touches). */
typedef double (*osw_gap_fn)(const void *ctx, double t);
bool osw_first_contact(osw_gap_fn gap, const void *ctx, double t_max, double *t_first, double *min_gap);

#endif

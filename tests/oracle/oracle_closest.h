/* SPDX-License-Identifier: MIT */
/*
 * Closest points in double precision, from the textbook definitions, for tests/test_geom_closest.c.
 * Never calls src/geom. Each function returns the (unsquared) distance and the points that
 * realise it; a degenerate triangle (corners collinear or equal) is the union of its edges.
 *
 * Accuracy: double's rounding, amplified where the problem is badly posed for the method: a plane
 * through a sliver of height w and length L tilts by about 1e-16 L / w, and nearly parallel
 * segments' interior solution by 1e-16 / sin^2(angle). Triangles flatter than 1e-8 of their
 * length are taken as their edges and segment pairs closer to parallel than 1e-10 as parallel,
 * which bounds the oracle's own error near 1e-8 of the coordinates (a tenth of a float ulp).
 */
#ifndef COPSE_TEST_ORACLE_CLOSEST_H
#define COPSE_TEST_ORACLE_CLOSEST_H

#include <stdbool.h>

/* point and segment [a, b] */
double ocl_point_segment(const double *p, const double *a, const double *b, double *out);

/* point and the closed triangle t[0..2] */
double ocl_point_triangle(const double *p, const double *const t[3], double *out);

/* point and the box [-h, h] */
double ocl_point_box(const double *p, const double *h, double *out);

/* segments [a0, a1] and [b0, b1] */
double ocl_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb);

/* segment and triangle: 0 when the segment crosses the triangle's interior */
double ocl_segment_triangle(const double *s0, const double *s1, const double *const t[3], double *ps, double *pt);

/* two triangles: 0 when an edge of one crosses the other */
double ocl_triangle_triangle(const double *const p[3], const double *const q[3], double *pp, double *pq);

/* The separating-axis gap between the box [-h, h] and the triangle: the largest distance between
 * their projections over the 13 axes (unit length), negative when every axis overlaps. A lower
 * bound of the distance; > 0 exactly when they are apart (up to double rounding). */
double ocl_box_triangle_gap(const double *h, const double *const t[3]);

/* box [-h, h] and triangle: 0 when the gap above is <= 0 (then the points are not set) */
double ocl_box_triangle(const double *h, const double *const t[3], double *pb, double *pt);

#endif

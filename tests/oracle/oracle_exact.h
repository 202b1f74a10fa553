/* SPDX-License-Identifier: MIT */
/*
 * Exact references for the orientation predicates and intersection tests (tests/test_geom_exact.c),
 * in integer arithmetic only, written from textbook definitions and never calling src/geom.
 *
 *  - oex_orient*_i: the definitions ((b - a) x (c - a)) . (d - a) and its 2D component in int64
 *    (exact for |coordinates| <= 2^18).
 *  - oex_orient*: the same signs for any finite floats: each float is m * 2^e with an integer m,
 *    the determinant is expanded by Leibniz's formula into signed products of coordinates, and
 *    these are summed in a 960-bit two's complement integer (no float arithmetic at all).
 *  - oex_hulls_meet: do the convex hulls of two small integer point sets (1 to 3 points each:
 *    points, segments, triangles, degenerate or not) meet? 0 must lie in the hull of the
 *    Minkowski difference {p_i - q_j}, hence (Caratheodory) in the hull of some affinely
 *    independent subset of at most 4 of its points: a point, segment, triangle or tetrahedron,
 *    each tested with int64 orientations. |coordinates| <= 1024.
 */
#ifndef COPSE_TEST_ORACLE_EXACT_H
#define COPSE_TEST_ORACLE_EXACT_H

#include <stdbool.h>
#include <stdint.h>

int oex_orient3d_i(const int64_t *a, const int64_t *b, const int64_t *c, const int64_t *d);
int oex_orient2d_i(const int64_t *a, const int64_t *b, const int64_t *c, unsigned k);

int oex_orient3d(const float *a, const float *b, const float *c, const float *d);
int oex_orient2d(const float *a, const float *b, const float *c, unsigned k);

#define OEX_HULL_MAX_COORD 1024
bool oex_hulls_meet(const int32_t (*p)[3], unsigned np, const int32_t (*q)[3], unsigned nq);

#endif

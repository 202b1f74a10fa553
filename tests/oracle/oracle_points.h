/* SPDX-License-Identifier: MIT */
/*
 * Brute force for posed shapes against points and for sweeps, in double precision, written
 * from the definitions (never calling copse): the answers tests/test_collide_octree.c and
 * tests/test_collide_sweep.c judge copse's float code against.
 *
 * A shape is placed in the tree's frame here, in double, from the float inputs and the float
 * pose matrix taken as given (p -> R p + t, NULL = identity; the matrix is used as an affine
 * map, as copse_pose documents). Boxes are measured in their own frame through R^T, which is
 * within a few float ulps of R^-1 for the near-orthonormal rotations the tests build.
 *
 * Verdicts (orc_verdict, oracle.h) carry a boundary band: a point within `band` of a shape's
 * boundary may be reported either way. band = 0 asks for the exact answer; the tests pass it
 * only for constructed scenes whose coordinates make every double operation exact (integer
 * grids, axis-aligned boxes and triangles, the identity pose).
 */
#ifndef COPSE_TEST_ORACLE_POINTS_H
#define COPSE_TEST_ORACLE_POINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "copse/geom.h"
#include "oracle/oracle.h"

/* The largest convex set the oracle takes (its facets are enumerated by brute force). */
#define ORP_MAX_HULL 8u

typedef enum orp_kind { ORP_POINT, ORP_SPHERE, ORP_CAPSULE, ORP_OBB, ORP_TRIANGLE, ORP_HULL } orp_kind;

/* A shape in the tree's frame. */
typedef struct orp_shape {
    orp_kind kind;
    unsigned count;              /* points in p[]: point / sphere 1, capsule 2, triangle 3, hull 1..8 */
    double p[ORP_MAX_HULL][3];   /* centre; segment ends; corners; hull points */
    double radius;               /* sphere, capsule */
    double center[3], axis[3][3], half[3]; /* box: centre + sum_k q_k axis[k], |q_k| <= half[k] */
    uint64_t faces, flip;        /* hull: triples (orp_triple order) that are facets; outward sign */
    bool flat;                   /* hull: all points in one plane (a surface: nothing is inside) */
} orp_shape;

/* ---- poses ------------------------------------------------------------------------------------ */

/* pose p in double; NULL is the identity. */
void orp_pose_point(const copse_pose *pose, const double *p, double *out);
void orp_pose_dir(const copse_pose *pose, const double *d, double *out);
/* The rotation matrix (as floats) of the unit quaternion through Shoemake's uniform map of
 * u1, u2, u3 in [0, 1): a uniformly random rotation. */
void orp_random_rotation(float r[3][3], double u1, double u2, double u3);

/* ---- shapes ----------------------------------------------------------------------------------- */

void orp_point(orp_shape *s, const double *p);
void orp_sphere(orp_shape *s, const copse_sphere *sphere, const copse_pose *pose);
void orp_capsule(orp_shape *s, const copse_capsule *capsule, const copse_pose *pose);
void orp_obb(orp_shape *s, const copse_obb *obb, const copse_pose *pose);
void orp_triangle(orp_shape *s, const copse_triangle *tri, const copse_pose *pose);
/* count 1..ORP_MAX_HULL */
void orp_hull(orp_shape *s, const copse_vec3 *points, uint32_t count, const copse_pose *pose);

/* The largest |coordinate| of the shape's defining points, its radius and its box's reach. */
double orp_scale(const orp_shape *s);
/* A ball that holds the shape. */
void orp_bounding_ball(const orp_shape *s, double *center, double *radius);
/* min over the shape of dot(n, x). */
double orp_support_min(const orp_shape *s, const double *n);

/* ---- a point against a shape ------------------------------------------------------------------- */

/* Distance from q to the closed shape (0 inside) and the closest point of the shape. */
double orp_point_distance(const orp_shape *s, const double *q, double *closest);
/* Spheres and capsules: distance from q to the core (centre, segment) and the core's closest
 * point; other shapes: orp_point_distance. */
double orp_core_distance(const orp_shape *s, const double *q, double *closest);
/* How far inside q lies (distance to the boundary; 0 outside, on it, or for a surface). */
double orp_depth(const orp_shape *s, const double *q);
/* Is q in the closed shape? Fragile within `band` of the boundary (band 0: exact). */
orc_verdict orp_point_in(const orp_shape *s, const double *q, double band);

/* ---- distances between primitives -------------------------------------------------------------- */

/* Closest points of the closed segments [a0, a1], [b0, b1] (either may be a point). */
double orp_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                           double *pb);
/* Distance between the closed segment and the closed triangle (degenerate: its edges). */
double orp_segment_triangle(const double *s0, const double *s1, const double *const tri[3]);
/* The box [-half, half] against a closed triangle in the box's frame: overlap by the 13 axes of
 * the separating axis theorem, and the distance from features. */
bool orp_box_triangle_overlap(const double *half, const double *const tri[3]);
double orp_box_triangle(const double *half, const double *const tri[3]);

/* A primitive of a tree: a point (n = 1) or a triangle (n = 3). */
typedef struct orp_prim {
    double v[3][3];
    unsigned n;
} orp_prim;

/* Distance between the shape moved by `offset` and the primitive (point, sphere, capsule, box;
 * a triangle shape only against a point). offset may be NULL. */
double orp_shape_prim(const orp_shape *s, const double *offset, const orp_prim *p);
/* The distance from a point to a primitive. */
double orp_prim_point(const orp_prim *p, const double *q);

/* ---- sweeps --------------------------------------------------------------------------------------
 * The shape moved by t * motion, t in [0, 1], against one primitive. The distance is a convex
 * function of t (two convex sets, one translated linearly), so the first t where it drops to a
 * threshold is found by a golden-section search for the minimum and a bisection before it. */

typedef struct orp_contact {
    double d0;        /* distance at t = 0 */
    double d_min;     /* the smallest distance found over [0, 1] (an upper bound within rounding) */
    bool touches;     /* the distance reaches `eps` (exact contact, up to double rounding) */
    double t_contact; /* the first t with distance <= eps (touches) */
    bool near;        /* the distance reaches `gap` */
    double t_early;   /* the first t with distance <= gap (near) */
} orp_contact;

void orp_sweep(const orp_shape *s, const double *motion, const orp_prim *p, double eps, double gap,
               orp_contact *out);

/* The distance at time t. */
double orp_sweep_distance(const orp_shape *s, const double *motion, const orp_prim *p, double t);

/* A sphere (centre c, radius r) moving by t * v against a point: the first t in [0, 1] at
 * which they touch, in closed form; false when they never do. */
bool orp_sweep_sphere_point(const double *c, double r, const double *v, const double *p, double *t);

#endif

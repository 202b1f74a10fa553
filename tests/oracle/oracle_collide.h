/* SPDX-License-Identifier: MIT */
/*
 * Brute-force collision geometry in double precision: the answers copse's collision queries
 * (copse/collide.h) are judged against. Written from the textbook definitions (closest points
 * as minima over feature pairs, overlap as "some edge meets the other" and as separating axes),
 * never from src/, and never calling it: copse's headers are included for their types only.
 *
 * Everything here is in the tree's frame: a posed shape is first carried there in double
 * (orcc_make_*), exactly as the pose's entries say (an affine map, as collide.h promises within
 * COPSE_POSE_TOLERANCE).
 *
 * Verdicts carry a boundary band like oracle.h's: ORC_EDGE_NO when the two sets are apart by less
 * than `band`, ORC_EDGE_YES when they overlap but a motion of less than `band` parts them (their
 * penetration depth, from separating axes). A band of 0 asks for the exact answer; the double
 * arithmetic is then exact for small-integer (dyadic) inputs and right to ~1e-15 relative
 * otherwise. Prefix: orcc_ (other oracles live beside this one).
 */
#ifndef COPSE_TEST_ORACLE_COLLIDE_H
#define COPSE_TEST_ORACLE_COLLIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "copse/collide.h"
#include "oracle.h"

/* ---- poses ------------------------------------------------------------------------------------ */

/* p -> r p + t, r[i][j] row i, column j (the layout of copse_pose). */
typedef struct orcc_pose {
    double r[3][3];
    double t[3];
} orcc_pose;

void orcc_pose_identity(orcc_pose *p);
void orcc_pose_of(orcc_pose *out, const copse_pose *pose); /* NULL: the identity; entries as given */
void orcc_pose_to_float(copse_pose *out, const orcc_pose *p);
void orcc_pose_apply(const orcc_pose *p, const double *in, double *out);
void orcc_pose_apply_dir(const orcc_pose *p, const double *in, double *out);
/* The inverse of a rigid pose (rotation transposed). */
void orcc_pose_invert(orcc_pose *out, const orcc_pose *p);
/* out = a after b (out may be a or b). */
void orcc_pose_compose(orcc_pose *out, const orcc_pose *a, const orcc_pose *b);
/* From a quaternion x, y, z, w (normalised here; must not be zero) and a translation. */
void orcc_pose_from_quat(orcc_pose *out, const double *q, const double *t);
/* A frame whose third axis is the unit vector z (the first two completed to a right-handed
 * orthonormal basis), placed at origin t. */
void orcc_pose_from_z(orcc_pose *out, const double *z, const double *t);
/* A rotation that permutes the axes (perm 0..5) with signs (bits of `signs`), flipped to det +1:
 * exact in float. */
void orcc_pose_axes(orcc_pose *out, unsigned perm, unsigned signs);
double orcc_det3(const double (*r)[3]);
/* max |entry| of t, and of r's rows times the magnitude m (how large a posed coordinate gets). */
double orcc_pose_reach(const orcc_pose *p, double m);

/* ---- shapes in the tree's frame ----------------------------------------------------------------- */

typedef enum orcc_kind { ORCC_SPHERE, ORCC_CAPSULE, ORCC_OBB, ORCC_TRIANGLE, ORCC_HULL } orcc_kind;

#define ORCC_HULL_MAX 12u /* points of a convex set the oracle takes */

typedef struct orcc_shape {
    orcc_kind kind;
    unsigned n;                /* points in p: 1 sphere, 2 capsule, 1 obb (centre), 3 triangle, hull */
    double p[ORCC_HULL_MAX][3];
    double radius;             /* sphere, capsule */
    double half[3];            /* obb */
    double axis[3][3];         /* obb: axis[k] is the box's k-th axis in the tree's frame */
    double mag;                /* the largest |coordinate| the shape reaches, radius included */
    /* hulls: a bit per index triple i < j < k whose triangle lies on the boundary (solid hulls) or
     * per non-degenerate triple (flat ones): together they cover it */
    unsigned nfaces;
    uint8_t face[ORCC_HULL_MAX * ORCC_HULL_MAX * ORCC_HULL_MAX / 8u];
    int dim; /* hulls: 0 point, 1 segment, 2 flat, 3 solid */
} orcc_shape;

void orcc_make_sphere(orcc_shape *s, const copse_sphere *sphere, const copse_pose *pose);
void orcc_make_capsule(orcc_shape *s, const copse_capsule *capsule, const copse_pose *pose);
void orcc_make_obb(orcc_shape *s, const copse_obb *obb, const copse_pose *pose);
void orcc_make_triangle(orcc_shape *s, const copse_triangle *tri, const copse_pose *pose);
/* false when the set has 0 or more than ORCC_HULL_MAX points */
bool orcc_make_convex(orcc_shape *s, const copse_convex *convex, const copse_pose *pose);
/* The same from double points already in the tree's frame (hand-made cases). */
void orcc_make_hull(orcc_shape *s, const double (*pts)[3], unsigned n);

/* ---- primitive distances (closest points out; any may be NULL) ------------------------------- */

/* Closest points of the closed segments [a0, a1] and [b0, b1] (either may be a point). */
double orcc_segment_segment(const double *a0, const double *a1, const double *b0, const double *b1, double *pa,
                            double *pb);
/* Closest points of a closed segment and a closed triangle; 0 when they meet. */
double orcc_segment_triangle(const double *s0, const double *s1, const double (*tri)[3], double *ps, double *pt);
/* Closest points of two closed triangles: min over vertex-face and edge-edge pairs; 0 when they meet. */
double orcc_triangle_triangle(const double (*a)[3], const double (*b)[3], double *pa, double *pb);
/* Closest points of the box [-half, half] (its own frame) and a triangle in that frame. */
double orcc_box_triangle(const double *half, const double (*tri)[3], double *pb, double *pt);
/* The distance from p to a shape (0 inside it). */
double orcc_point_shape(const double *p, const orcc_shape *s);

/* ---- exact-ish intersection (signed volumes in double, snapped to 0 within their error bound) -- */

/* Does the closed segment meet the closed triangle (a degenerate triangle is its edges)? */
bool orcc_segment_meets_triangle(const double *s0, const double *s1, const double (*tri)[3], double *at);
bool orcc_triangles_meet(const double (*a)[3], const double (*b)[3]);

/* Separating axes over the hulls of two small point sets, with the axes given: the largest gap
 * (positive: apart along that axis; minus it: the smallest overlap). */
double orcc_sat(const double (*a)[3], unsigned na, const double (*b)[3], unsigned nb, const double (*axes)[3],
                unsigned naxes);

/* ---- a shape against one triangle --------------------------------------------------------------- */

typedef struct orcc_contact {
    bool meets;            /* the closed sets share a point (balls: the core is within the radius) */
    double distance;       /* between the shape and the triangle, 0 when they meet */
    double core;           /* spheres, capsules: from the centre / segment to the triangle; else = distance */
    double depth;          /* spheres, capsules: radius - core when positive; else 0 */
    double sat_depth;      /* other shapes, when they meet: the penetration depth (separating axes) */
    double tri_point[3];   /* closest point on the triangle (to the core for spheres and capsules) */
    double shape_point[3]; /* closest point of the shape (of the core for spheres and capsules); when
                            * they meet, a shared point where one is easily found */
} orcc_contact;

/* Contact and verdict in one pass (c may be NULL). */
orc_verdict orcc_shape_triangle(const orcc_shape *s, const double (*tri)[3], double band, orcc_contact *c);

/* Hull against triangle by the definition: the triangle against every tetrahedron and every
 * triangle of hull points (slow; the self-tests compare it with the verdict above). */
bool orcc_hull_triangle_by_pieces(const orcc_shape *s, const double (*tri)[3]);

/* Triangle against triangle with a band (the pair queries). */
orc_verdict orcc_triangle_verdict(const double (*a)[3], const double (*b)[3], double band);

/* ---- whole meshes --------------------------------------------------------------------------------- */

void orcc_mesh_triangle(const copse_mesh *m, uint32_t t, double (*v)[3]);
/* The triangle placed by a pose. */
void orcc_mesh_triangle_posed(const copse_mesh *m, uint32_t t, const orcc_pose *pose, double (*v)[3]);
double orcc_mesh_mag(const copse_mesh *m); /* largest |coordinate| of a used vertex */

/* The nearest triangle: smallest distance (spheres, capsules: smallest core distance), ties to
 * the lower id. id COPSE_NONE for an empty mesh. */
typedef struct orcc_nearest {
    uint32_t tree_id, shape_id;
    orcc_contact c;
} orcc_nearest;

/* One pass over the mesh: verdict[t] (bytes holding orc_verdict) and core[t] (the contact's
 * core distance) for every triangle t, and the nearest. Any output may be NULL. */
void orcc_mesh_query(const copse_mesh *m, const orcc_shape *s, double band, uint8_t *verdict, double *core,
                     orcc_nearest *nearest);

/* Mesh against mesh: `mesh` placed by `pose` against `tree`. verdict[t * mesh_n + s] for tree
 * triangle t and mesh triangle s; boxes more than `band` apart are skipped as ORC_NO. */
void orcc_pairs_overlap(const copse_mesh *tree, const copse_mesh *mesh, const orcc_pose *pose, double band,
                        uint8_t *verdict);
/* The nearest pair (ties to the lower tree id, then the lower mesh id); c.shape_point on the
 * posed mesh, c.tri_point on the tree's. */
void orcc_pairs_nearest(const copse_mesh *tree, const copse_mesh *mesh, const orcc_pose *pose, orcc_nearest *out);

#endif

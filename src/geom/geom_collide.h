/* SPDX-License-Identifier: MIT */
/*
 * The primitive kernels of the collision queries (src/collide): exact orientation tests,
 * closest points, convex distance (GJK) and sweeps, each on plain float arrays in one frame.
 *
 * Float only: no double anywhere in these files (docs/design.md rule 8). Exactness comes from
 * error-bounded filters with exact float-expansion fallbacks, not from wider types.
 *
 * Conventions:
 *  - A point is `const float *` to 3 floats; a triangle is `const float *const tri[3]`, its
 *    corners (which may point into a caller's mesh, never written).
 *  - Sets are closed. A degenerate triangle (collinear or coincident corners) is the segment or
 *    point it covers, never an empty set.
 *  - Distances are returned squared, and are |pa - pb|^2 of the points returned (computed from
 *    them), so a caller's comparison and the reported points always agree.
 *  - Results must not depend on the order of a triangle's corners (any rotation or reflection
 *    of tri[0..2] gives bit-identical outputs) nor on which argument order the two shapes of a
 *    symmetric kernel are passed in (up to swapping the outputs).
 *  - Coordinates must be finite; squared distances must stay finite (differences below ~1e19).
 */
#ifndef COPSE_GEOM_COLLIDE_H
#define COPSE_GEOM_COLLIDE_H

#include <stddef.h>

#include "geom_internal.h"

/* ---- exact orientation (src/geom/predicates.c) ---------------------------------------------- */

/* The sign (+1, 0, -1) of ((b - a) x (c - a)) . (d - a), exactly, for any finite float inputs:
 * +1 when d lies on the side that the normal of the counter-clockwise triangle (a, b, c) points
 * to. A fast float filter decides almost every call; the rest are decided exactly in float
 * expansions (two-sum / two-product), scaled by powers of two where products could overflow or
 * underflow. */
int copse_geo_orient3d(const float *a, const float *b, const float *c, const float *d);

/* The sign of ((b - a) x (c - a)) along axis k (0, 1, 2) — the 2D orientation of the three
 * points projected onto the plane of the two other axes ((k+1)%3, (k+2)%3) — exactly. */
int copse_geo_orient2d(const float *a, const float *b, const float *c, unsigned k);

/* A triangle's plane as orient3d's float filter sees it, kept for testing many points: the
 * cross product of its edges from corner 0, and the factors of its error bound. Tests against
 * it decide only what the filter decides (certainly on one side); anything closer is left to the
 * exact tests, so answers stay exactly theirs. */
typedef struct geo_tri_plane {
    float o[3];    /* corner 0 */
    float n[3];    /* (v1 - v0) x (v2 - v0) in float */
    float nabs[3]; /* |e1y e2z| + |e1z e2y|, ...: the filter's permanent, per component of q - o */
} geo_tri_plane;

/* Shewchuk's stage-A bound for the orientation determinant in float (as src/geom/predicates.c) */
#define GEO_O3D_BOUND ((7.0f + 56.0f * 0x1p-24f) * 0x1p-24f)

COPSE_INLINE void geo_tri_plane_init(geo_tri_plane *p, const float *const v[3])
{
    float e1[3], e2[3];
    unsigned k;
    geo_sub3(e1, v[1], v[0]);
    geo_sub3(e2, v[2], v[0]);
    geo_cross3(p->n, e1, e2);
    for (k = 0; k < 3; k++) {
        unsigned k1 = k == 2u ? 0u : k + 1u, k2 = k1 == 2u ? 0u : k1 + 1u;
        p->o[k] = v[0][k];
        p->nabs[k] = copse_fabsf(e1[k1] * e2[k2]) + copse_fabsf(e1[k2] * e2[k1]);
    }
}

/* The signed value n . (q - o) and its error bound: the sign of the exact orientation is the
 * value's whenever |value| > *err. */
COPSE_INLINE float geo_tri_plane_eval(const geo_tri_plane *p, const float *q, float *err)
{
    float f[3], a[3];
    unsigned k;
    geo_sub3(f, q, p->o);
    for (k = 0; k < 3; k++)
        a[k] = copse_fabsf(f[k]);
    *err = GEO_O3D_BOUND * geo_dot3(p->nabs, a) + FLT_MIN * (a[0] + a[1] + a[2] + 1.0f);
    return geo_dot3(p->n, f);
}

/* Are the three points certainly strictly on one side of the plane (so no triangle through them
 * meets the plane's triangle)? When they are and `gap` is not NULL, *gap is a lower bound of
 * n . (q - o) over them, in units of |n|'s length times the distance (0 otherwise). */
COPSE_INLINE bool geo_tri_plane_apart(const geo_tri_plane *p, const float *const q[3], float *gap)
{
    float e0, e1, e2;
    float s0 = geo_tri_plane_eval(p, q[0], &e0);
    float s1 = geo_tri_plane_eval(p, q[1], &e1);
    float s2 = geo_tri_plane_eval(p, q[2], &e2);
    bool above = s0 > e0 && s1 > e1 && s2 > e2, below = s0 < -e0 && s1 < -e1 && s2 < -e2;
    if (gap != NULL)
        *gap = above ? geo_min(s0 - e0, geo_min(s1 - e1, s2 - e2))
                     : below ? geo_min(-s0 - e0, geo_min(-s1 - e1, -s2 - e2)) : 0.0f;
    return above || below;
}

/* ---- exact intersection tests (src/geom/intersect.c) ---------------------------------------- */

/* Do the closed triangles share a point? Exact on the float corners: touching at a corner, along
 * an edge, coplanar overlap, and degenerate triangles (segments, points) included. */
bool copse_geo_triangle_triangle_overlap(const float *const p[3], const float *const q[3]);

/* Does the closed segment [s0, s1] (a point when s0 == s1) meet the closed triangle? Exact. */
bool copse_geo_segment_triangle_overlap(const float *s0, const float *s1, const float *const tri[3]);

/* Does point p lie on the closed triangle? Exact (coplanar and inside or on the boundary). */
bool copse_geo_point_on_triangle(const float *p, const float *const tri[3]);

/* ---- closest points (src/geom/closest.c) ---------------------------------------------------- */

/* Closest point on the closed triangle to p. Accurate on needles and slivers (the error is a few
 * ulps of the coordinates' magnitude, not of magnitude / sin(smallest angle)). */
float copse_geo_point_triangle(const float *p, const float *const tri[3], float *closest);

/* Closest points of the closed segments [a0, a1] and [b0, b1] (either may be a point); parallel
 * and collinear segments included. */
float copse_geo_segment_segment(const float *a0, const float *a1, const float *b0, const float *b1, float *pa,
                                float *pb);

/* Closest points of a closed segment and a closed triangle: 0 (with a shared point) when the
 * segment meets the triangle, decided exactly as copse_geo_segment_triangle_overlap. */
float copse_geo_segment_triangle(const float *s0, const float *s1, const float *const tri[3], float *ps, float *pt);

/* Closest points of two closed triangles: 0 (with a shared point) when they overlap, decided
 * exactly as copse_geo_triangle_triangle_overlap. */
float copse_geo_triangle_triangle(const float *const p[3], const float *const q[3], float *pp, float *pq);

/* The same for two triangles the caller knows do not meet (geo_tri_plane_apart said so): the
 * exact overlap test is skipped, the answer is bit for bit copse_geo_triangle_triangle's. */
float copse_geo_triangle_triangle_apart(const float *const p[3], const float *const q[3], float *pp, float *pq);

/* A triangle prepared once for many closest-point queries: its corners in a canonical order (the
 * caller's corners, pointed to: they must stay in place while the preparation is used) and the
 * frame of its longest edge with its unit normal. Made by copse_geo_tri_prepare; the fields are
 * closest.c's business. 72 bytes on a 32-bit target. */
typedef struct geo_tri_prep {
    const float *a, *b, *c;         /* ab the longest edge, a before b in the canonical order */
    float e[3], u[3];               /* b - a; the part of c - a perpendicular to e */
    float ee, uu, inv_ee, inv_uu;   /* |e|^2, |u|^2 (0 for a segment or a point), inverses or 0 */
    float rho, tc;                  /* uu / ee; c = a + tc e + u */
    float n[3];                     /* e x u, unit (0 for a segment or a point) */
} geo_tri_prep;

void copse_geo_tri_prepare(geo_tri_prep *t, const float *const tri[3]);

/* copse_geo_point_triangle against a prepared triangle: the same bits. */
float copse_geo_point_tri_prepared(const geo_tri_prep *t, const float *p, float *closest);

/* copse_geo_triangle_triangle and copse_geo_triangle_triangle_apart on prepared triangles: the
 * same bits (pp on p, pq on q). */
float copse_geo_tri_tri_prepared(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);
float copse_geo_tri_tri_prepared_apart(const geo_tri_prep *p, const geo_tri_prep *q, float *pp, float *pq);

/* Closest points of the axis-aligned box [-half, half] (centred at the origin: an oriented box
 * seen in its own frame; half >= 0, a zero extent allowed) and a closed triangle in that frame.
 * 0 when they overlap. */
float copse_geo_box_triangle(const float *half, const float *const tri[3], float *pb, float *pt);

/* Does the box [-half, half] meet the closed triangle (in the box's frame)? Closed; no false
 * "apart" for a triangle that touches the box (conservative at the rounding level). */
bool copse_geo_box_triangle_overlap(const float *half, const float *const tri[3]);

/* ---- convex sets (src/geom/gjk.c) ------------------------------------------------------------- */

/* A convex set for GJK: the hull of `count` points, each mapped by rot (row-major 3x3, or NULL
 * for none) and trans (or NULL), then grown by `radius` (a sphere, capsule or rounded shape). */
typedef struct geo_hull {
    const copse_vec3 *points;
    uint32_t count;
    const float *rot;
    const float *trans;
    float radius;
} geo_hull;

/* GJK distance between two hulls, with closest points. Bounded iterations, no heap. Reports
 * overlap (distance 0) when the hulls' gap is below COPSE_GJK_TOLERANCE times their scale: a
 * touching pair is never reported apart. Returns the squared distance. */
#define COPSE_GJK_MAX_ITERATIONS 64u
#define COPSE_GJK_TOLERANCE (8.0f * FLT_EPSILON)
float copse_geo_gjk(const geo_hull *a, const geo_hull *b, float *pa, float *pb);

/* ---- sweeps (src/geom/sweep.c) ------------------------------------------------------------------ */

/* A sphere (centre c, radius r) moving by c + t*v, t in [0, t_max], against the closed triangle:
 * the first t at which they touch (0 when they already do), the contact point on the triangle and
 * the unit normal from it toward the sphere's centre. False when they never touch in the range. */
bool copse_geo_sweep_sphere_triangle(const float *c, float r, const float *v, const float *const tri[3], float t_max,
                                     float *t_hit, float *point, float *normal);

/* A capsule (segment [a, b], radius r) moving by v against the closed triangle, as above. */
bool copse_geo_sweep_capsule_triangle(const float *a, const float *b, float r, const float *v,
                                      const float *const tri[3], float t_max, float *t_hit, float *point,
                                      float *normal);

/* An oriented box moving by v against the closed triangle, as above: the box is centre + R q,
 * |q_k| <= half_k, with rot row-major (its columns the box's axes). */
bool copse_geo_sweep_box_triangle(const float *center, const float *rot, const float *half, const float *v,
                                  const float *const tri[3], float t_max, float *t_hit, float *point,
                                  float *normal);

/* The shapes above moving by v against a single point p (a scan point): first t, and the normal
 * from p toward the shape at contact. */
bool copse_geo_sweep_sphere_point(const float *c, float r, const float *v, const float *p, float t_max, float *t_hit,
                                  float *normal);
bool copse_geo_sweep_capsule_point(const float *a, const float *b, float r, const float *v, const float *p,
                                   float t_max, float *t_hit, float *normal);
bool copse_geo_sweep_box_point(const float *center, const float *rot, const float *half, const float *v,
                               const float *p, float t_max, float *t_hit, float *normal);

#endif /* COPSE_GEOM_COLLIDE_H */

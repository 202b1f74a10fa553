/* SPDX-License-Identifier: MIT */
/*
 * copse — collision checks: shapes and meshes placed by a pose against trees.
 *
 * A query asks about a posed thing — a sphere, capsule, oriented box, triangle, convex point set,
 * or a whole mesh given by its own BVH — against a tree: a BVH over a triangle mesh (3D) or a
 * point octree (a scan). The thing is given in its own frame and placed in the tree's frame by a
 * pose (copse/geom.h; NULL is the identity). Every answer is in the tree's frame. Nothing is
 * rebuilt, refitted or copied: a mesh's BVH is walked where it lies, in RAM or in flash.
 *
 * Words (the roles, whatever the arguments are called):
 *   tree   the BVH or octree whose frame the answer is in;
 *   shape  the posed thing: a shape, or for mesh against mesh the posed mesh.
 * Results name their two sides tree_ and shape_.
 *
 * Sets are closed: touching is overlap. A mesh is a surface, open or closed: its triangles, not
 * a volume they may enclose. A sphere wholly inside a closed mesh, clear of every triangle, does
 * not overlap it, and its distance is its distance to the nearest triangle. The same holds for
 * one mesh inside another. (A robot that must not enter a closed object adds a volume test of its
 * own, e.g. a ray parity test with copse_bvh_raycast_all.)
 *
 * Float only (no double anywhere): orientation tests are exact on the float coordinates the
 * queries see (the shape's corners after its pose is applied, in float), whatever their
 * magnitudes (src/geom/predicates.c, "Guarantee": a corner at 1e-34 beside others at 1e8 too).
 * Distances carry a few
 * float ulps of the coordinates' magnitude (docs/collide.md gives the bounds the tests hold).
 * A convex point set goes through GJK, which decides touching within a margin of at most 18 ulps
 * (18 FLT_EPSILON) of the largest coordinate the test combines -- its posed points plus the
 * pose's translation, and the triangle's corners or the scan point: 2 for the move to a frame at
 * the triangle, 8 of the solver's scale (at most twice that coordinate). A gap below the margin
 * may count as touching while the distance query measures it (docs/collide.md).
 * Tree walks cull with conservative bounds: rounding never drops a primitive the exact test would
 * report.
 *
 * Ties: a distance query that finds two primitives at the same distance reports the lower
 * tree_id (then the lower shape_id); a sweep, the lower id at the same t. Touching ends a
 * distance query: the first pair found at distance 0 (for spheres and capsules: with the core
 * itself touching) is the answer, as a collision check would stop there; which pair that is
 * depends only on the trees and the query, the same on every target.
 *
 * Statuses, for every function here: NULL (a required pointer), DIMENSION (a 2D tree), KIND (a
 * BVH over boxes: these queries need triangles), TOO_DEEP (a tree deeper than this build's cap),
 * NONFINITE (a coordinate, radius, pose or motion that is NaN or infinite), PARAM (a pose or box
 * rotation that is not a rotation within COPSE_POSE_TOLERANCE, a convex set of 0 or more than
 * COPSE_CONVEX_MAX_POINTS points, a distance query with negative errors), EMPTY_RANGE (a negative
 * radius, half extent or max_distance). On any error every output is emptied first: no id
 * (COPSE_NONE), an empty list, distance FLT_MAX, no sweep hit.
 */
#ifndef COPSE_COLLIDE_H
#define COPSE_COLLIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "copse/bvh.h"
#include "copse/geom.h"
#include "copse/octree.h"
#include "copse/query.h"
#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results -------------------------------------------------------------------------------- */

/* Two primitives that touch: the tree's triangle and the posed mesh's triangle. */
typedef struct copse_pair {
    uint32_t tree_id;
    uint32_t shape_id;
} copse_pair;

/* The array form of pair queries: up to `capacity` pairs; `truncated` when there were more. */
typedef struct copse_pair_list {
    copse_pair *pairs;
    uint32_t capacity;
    uint32_t count;
    bool truncated;
} copse_pair_list;

static inline copse_pair_list copse_pair_list_make(copse_pair *pairs, uint32_t capacity)
{
    copse_pair_list list;
    list.pairs = pairs;
    list.capacity = capacity;
    list.count = 0;
    list.truncated = false;
    return list;
}

/* The visitor form: return false to stop. */
typedef bool (*copse_pair_visitor)(void *user, const copse_pair *pair);

/* What a distance query should find. COPSE_DISTANCE_QUERY_DEFAULT: the exact smallest distance,
 * no cut-off. */
typedef struct copse_distance_query {
    /* Only distances up to this matter (FLT_MAX: all). Nothing within it: distance FLT_MAX, no
     * ids. Parts of the trees farther away are never visited, so a small cut-off is fast. */
    float max_distance;
    /* Error allowed for more pruning (as FCL's and Coal's abs_err, rel_err): the distance
     * reported is at most abs_err + (1 + rel_err) * the smallest distance, and is a real
     * distance between the two points reported. 0, 0: exact (to float rounding). */
    float abs_err, rel_err;
    /* Stop at the first pair found within max_distance: answers "is it within max_distance?"
     * as soon as that is decided. The distance reported is then that pair's (<= max_distance),
     * not the smallest. */
    bool first_within;
} copse_distance_query;

#define COPSE_DISTANCE_QUERY_DEFAULT { 3.40282347e+38f, 0.0f, 0.0f, false }

typedef struct copse_distance {
    /* The smallest distance between the shape and the tree's primitives (0 when they touch or
     * overlap); FLT_MAX when nothing lies within max_distance. */
    float distance;
    /* Spheres and capsules: how far to move the shape along `normal` to clear the nearest
     * triangle: radius minus the distance from its core (centre or segment) to it, when
     * positive; when the core itself meets the triangle, radius plus the core's own
     * penetration depth into it (docs/collide.md). Else 0. Other shapes: 0 (they report
     * distance 0 when they touch, nothing deeper). */
    float depth;
    uint32_t tree_id;  /* the tree's primitive (triangle id, point id); COPSE_NONE when none */
    uint32_t shape_id; /* the posed mesh's triangle (mesh against mesh), else COPSE_NONE */
    copse_vec3 tree_point;  /* closest point on the tree's primitive (the nearest surface point) */
    copse_vec3 shape_point; /* closest point on the shape (the deepest, when depth > 0) */
    /* Unit, from tree_point toward the shape: the direction to push the shape to part them (for
     * spheres and capsules also when they overlap: see docs/collide.md for a core on the
     * surface). Zero when the two points coincide and no better direction is known. */
    copse_vec3 normal;
} copse_distance;

/* A sweep: the shape moves by `motion` (a translation in the tree's frame; its rotation is held:
 * rotating sweeps are not offered). */
typedef struct copse_sweep_hit {
    /* The fraction of the motion at first contact, in [0, 1]: never past the exact contact,
     * and the two are within COPSE_SWEEP_TOLERANCE of the motion's scale there
     * (docs/collide.md). 1 with id COPSE_NONE: the whole motion is free. */
    float t;
    uint32_t id;            /* the tree's primitive touched first; COPSE_NONE for none */
    bool started_in_contact; /* the shape already touched at t = 0 (t is then 0) */
    copse_vec3 point;       /* the contact point on the primitive, tree frame */
    copse_vec3 normal;      /* unit, from the primitive toward the shape at contact */
} copse_sweep_hit;

/* Relative tolerance of sweep contact times: contact is declared when the gap is below this
 * times the scale of the coordinates involved (the shape, its motion, the primitive). */
#define COPSE_SWEEP_TOLERANCE 1.0e-5f

/* ---- a shape against a BVH over a triangle mesh --------------------------------------------
 * The pose places the shape in the tree's frame. any: *id receives the first triangle found
 * that touches the shape (COPSE_NONE: none). overlap / visit: every triangle that touches it,
 * in tree order. (For a sphere without a pose, copse_bvh_overlap_sphere and _visit_sphere in
 * bvh.h do the same.) */

/* Statuses: OK, NULL, PARAM, NONFINITE, DIMENSION, KIND, EMPTY_RANGE, TOO_DEEP. */
copse_status copse_bvh_any_sphere(const copse_bvh *tree, const copse_sphere *sphere, const copse_pose *pose,
                                  uint32_t *id);
copse_status copse_bvh_any_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                   uint32_t *id);
copse_status copse_bvh_any_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose, uint32_t *id);
copse_status copse_bvh_any_triangle(const copse_bvh *tree, const copse_triangle *triangle, const copse_pose *pose,
                                    uint32_t *id);
copse_status copse_bvh_any_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                  uint32_t *id);

copse_status copse_bvh_overlap_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                       copse_id_list *out);
copse_status copse_bvh_visit_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                     copse_id_visitor visit, void *user);
copse_status copse_bvh_overlap_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose,
                                   copse_id_list *out);
copse_status copse_bvh_visit_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose,
                                 copse_id_visitor visit, void *user);
copse_status copse_bvh_overlap_triangle(const copse_bvh *tree, const copse_triangle *triangle,
                                        const copse_pose *pose, copse_id_list *out);
copse_status copse_bvh_visit_triangle(const copse_bvh *tree, const copse_triangle *triangle, const copse_pose *pose,
                                      copse_id_visitor visit, void *user);
copse_status copse_bvh_overlap_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                      copse_id_list *out);
copse_status copse_bvh_visit_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                    copse_id_visitor visit, void *user);

/* The smallest distance from the posed shape to the mesh, the closest points and the triangle.
 * query may be NULL (COPSE_DISTANCE_QUERY_DEFAULT). */
copse_status copse_distance_sphere_bvh(const copse_sphere *sphere, const copse_pose *pose, const copse_bvh *tree,
                                       const copse_distance_query *query, copse_distance *out);
copse_status copse_distance_capsule_bvh(const copse_capsule *capsule, const copse_pose *pose, const copse_bvh *tree,
                                        const copse_distance_query *query, copse_distance *out);
copse_status copse_distance_obb_bvh(const copse_obb *obb, const copse_pose *pose, const copse_bvh *tree,
                                    const copse_distance_query *query, copse_distance *out);
copse_status copse_distance_triangle_bvh(const copse_triangle *triangle, const copse_pose *pose,
                                         const copse_bvh *tree, const copse_distance_query *query,
                                         copse_distance *out);
copse_status copse_distance_convex_bvh(const copse_convex *convex, const copse_pose *pose, const copse_bvh *tree,
                                       const copse_distance_query *query, copse_distance *out);

/* ---- a mesh against a mesh ------------------------------------------------------------------
 * `mesh` is a BVH over another triangle mesh in its own frame; `pose` places it in the tree's
 * frame. Both trees are walked together as they are: one's boxes are oriented boxes in the
 * other's frame. Touching triangles count, coplanar ones included.
 *
 * `separation` (may be NULL): when no pair touches, a lower bound on the distance between the
 * meshes that the walk saw on its way (0 when pairs touch): a free "how far, at least".
 *
 * Stack: the walk keeps up to 2 * COPSE_BVH_MAX_DEPTH pending node pairs (docs/stack.md). */

copse_status copse_bvh_any_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                               copse_pair *witness, float *separation);
copse_status copse_bvh_overlap_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                                   copse_pair_list *out, float *separation);
copse_status copse_bvh_visit_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                                 copse_pair_visitor visit, void *user, float *separation);

/* The smallest distance between the posed mesh and the tree's mesh: both triangles, both closest
 * points (tree frame). */
copse_status copse_distance_bvh_bvh(const copse_bvh *mesh, const copse_pose *pose, const copse_bvh *tree,
                                    const copse_distance_query *query, copse_distance *out);

/* ---- shapes and meshes against a point octree (a scan) ----------------------------------------
 * Points are closed: a point on the shape's boundary is within it. A triangle holds the points
 * that lie exactly on it (decided exactly on the float coordinates). Ids are the octree's point
 * ids, lists in tree order. */

/* Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE. */
copse_status copse_octree_any_sphere(const copse_octree *tree, const copse_sphere *sphere, const copse_pose *pose,
                                     uint32_t *id);
copse_status copse_octree_any_capsule(const copse_octree *tree, const copse_capsule *capsule,
                                      const copse_pose *pose, uint32_t *id);
copse_status copse_octree_any_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                  uint32_t *id);
copse_status copse_octree_any_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                       const copse_pose *pose, uint32_t *id);
copse_status copse_octree_any_convex(const copse_octree *tree, const copse_convex *convex, const copse_pose *pose,
                                     uint32_t *id);

copse_status copse_octree_overlap_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                      copse_id_list *out);
copse_status copse_octree_visit_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                    copse_id_visitor visit, void *user);
copse_status copse_octree_overlap_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                           const copse_pose *pose, copse_id_list *out);
copse_status copse_octree_visit_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                         const copse_pose *pose, copse_id_visitor visit, void *user);
copse_status copse_octree_overlap_convex(const copse_octree *tree, const copse_convex *convex,
                                         const copse_pose *pose, copse_id_list *out);
copse_status copse_octree_visit_convex(const copse_octree *tree, const copse_convex *convex, const copse_pose *pose,
                                       copse_id_visitor visit, void *user);
/* (Spheres and capsules without a pose: copse_octree_overlap_sphere, _overlap_capsule and their visitors.) */

/* The nearest point to the posed shape: its id, the point (tree_point) and the closest point
 * of the shape (shape_point). depth and normal as for the BVH: a sphere or capsule reaching
 * past points reports how deep the deepest-reached nearest point is. */
copse_status copse_distance_sphere_octree(const copse_sphere *sphere, const copse_pose *pose,
                                          const copse_octree *tree, const copse_distance_query *query,
                                          copse_distance *out);
copse_status copse_distance_capsule_octree(const copse_capsule *capsule, const copse_pose *pose,
                                           const copse_octree *tree, const copse_distance_query *query,
                                           copse_distance *out);
copse_status copse_distance_obb_octree(const copse_obb *obb, const copse_pose *pose, const copse_octree *tree,
                                       const copse_distance_query *query, copse_distance *out);
copse_status copse_distance_triangle_octree(const copse_triangle *triangle, const copse_pose *pose,
                                            const copse_octree *tree, const copse_distance_query *query,
                                            copse_distance *out);
copse_status copse_distance_convex_octree(const copse_convex *convex, const copse_pose *pose,
                                          const copse_octree *tree, const copse_distance_query *query,
                                          copse_distance *out);

/* A posed mesh against a scan: the nearest point to the mesh's surface (shape_id: the mesh's
 * triangle), and every point within `distance` of it (0: the points on the surface).
 * Statuses: OK, NULL, PARAM, NONFINITE, DIMENSION, KIND, EMPTY_RANGE, TOO_DEEP. */
copse_status copse_distance_bvh_octree(const copse_bvh *mesh, const copse_pose *pose, const copse_octree *tree,
                                       const copse_distance_query *query, copse_distance *out);
copse_status copse_octree_overlap_bvh(const copse_octree *tree, const copse_bvh *mesh, const copse_pose *pose,
                                      float distance, copse_id_list *out);
copse_status copse_octree_visit_bvh(const copse_octree *tree, const copse_bvh *mesh, const copse_pose *pose,
                                    float distance, copse_id_visitor visit, void *user);

/* ---- sweeps: the posed shape moved by `motion` (tree frame), rotation held ------------------- */

copse_status copse_sweep_sphere_bvh(const copse_sphere *sphere, const copse_pose *pose, copse_vec3 motion,
                                    const copse_bvh *tree, copse_sweep_hit *hit);
copse_status copse_sweep_capsule_bvh(const copse_capsule *capsule, const copse_pose *pose, copse_vec3 motion,
                                     const copse_bvh *tree, copse_sweep_hit *hit);
copse_status copse_sweep_obb_bvh(const copse_obb *obb, const copse_pose *pose, copse_vec3 motion,
                                 const copse_bvh *tree, copse_sweep_hit *hit);

/* Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE. */
copse_status copse_sweep_sphere_octree(const copse_sphere *sphere, const copse_pose *pose, copse_vec3 motion,
                                       const copse_octree *tree, copse_sweep_hit *hit);
copse_status copse_sweep_capsule_octree(const copse_capsule *capsule, const copse_pose *pose, copse_vec3 motion,
                                        const copse_octree *tree, copse_sweep_hit *hit);
copse_status copse_sweep_obb_octree(const copse_obb *obb, const copse_pose *pose, copse_vec3 motion,
                                    const copse_octree *tree, copse_sweep_hit *hit);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_COLLIDE_H */

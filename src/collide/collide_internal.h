/* SPDX-License-Identifier: MIT */
/*
 * What the collision queries share: a posed shape moved into the tree's frame once per query,
 * its conservative tests against node boxes, its exact tests against triangles and points, and
 * the node-pair test of two trees (an axis-aligned box against an oriented one).
 *
 * Every query works in the tree's frame: the shape (or the posed mesh's triangles) is mapped
 * there in float, and the tree's boxes and primitives are read as they are. Node tests are
 * widened by `slack`, a few ulps of the largest coordinate involved, so that rounding in a node
 * test never drops a primitive that the leaf test (exact, or accurate to a few ulps) would
 * report.
 */
#ifndef COPSE_COLLIDE_INTERNAL_H
#define COPSE_COLLIDE_INTERNAL_H

#include "copse/collide.h"
#include "../bvh/bvh_internal.h"
#include "../core/emit_internal.h"
#include "../geom/geom_collide.h"
#include "../octree/octree_internal.h"

/* Rounding allowance of node culling, in ulps of the largest coordinate: the leaf kernels are
 * exact or within 16 ulps of it (src/geom/closest.c), the node tests within a few. */
#define CL_SLACK_ULPS 32.0f

/* ---- frames ----------------------------------------------------------------------------------- */

/* A pose as the walks use it: row-major rotation (re-orthonormalised: see copse__collide_frame)
 * and translation. */
typedef struct cl_frame {
    float r[9];
    float t[3];
} cl_frame;

/* Checks the pose (copse_pose_check: NULL is the identity) and makes its rotation exactly what
 * the queries assume, a rotation: rows 0 and 1 orthonormalised (Gram–Schmidt), row 2 their cross
 * product. A pose that is already orthonormal in float (the identity, quarter turns) keeps its
 * bits; one within COPSE_POSE_TOLERANCE moves by at most that. */
copse_status copse__collide_frame(const copse_pose *pose, cl_frame *f);

COPSE_INLINE void cl_apply(const cl_frame *f, const float *p, float *out)
{
    float x = p[0], y = p[1], z = p[2];
    out[0] = f->r[0] * x + f->r[1] * y + f->r[2] * z + f->t[0];
    out[1] = f->r[3] * x + f->r[4] * y + f->r[5] * z + f->t[1];
    out[2] = f->r[6] * x + f->r[7] * y + f->r[8] * z + f->t[2];
}

COPSE_INLINE void cl_rotate(const float *r, const float *v, float *out)
{
    float x = v[0], y = v[1], z = v[2];
    out[0] = r[0] * x + r[1] * y + r[2] * z;
    out[1] = r[3] * x + r[4] * y + r[5] * z;
    out[2] = r[6] * x + r[7] * y + r[8] * z;
}

/* r^T v: a tree-frame direction into the frame whose axes are r's columns. */
COPSE_INLINE void cl_rotate_t(const float *r, const float *v, float *out)
{
    float x = v[0], y = v[1], z = v[2];
    out[0] = r[0] * x + r[3] * y + r[6] * z;
    out[1] = r[1] * x + r[4] * y + r[7] * z;
    out[2] = r[2] * x + r[5] * y + r[8] * z;
}

COPSE_INLINE void cl_vec3_in(float *out, copse_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

COPSE_INLINE copse_vec3 cl_vec3_out(const float *v)
{
    return copse_v3(v[0], v[1], v[2]);
}

COPSE_INLINE float cl_max_abs3(const float *v)
{
    return geo_max(copse_fabsf(v[0]), geo_max(copse_fabsf(v[1]), copse_fabsf(v[2])));
}

/* ---- shapes in the tree's frame ----------------------------------------------------------------- */

typedef enum cl_kind { CL_SPHERE, CL_CAPSULE, CL_OBB, CL_TRIANGLE, CL_CONVEX } cl_kind;

typedef struct cl_shape {
    float lo[3], hi[3]; /* its bounds (core grown by radius), widened by slack */
    float radius;       /* sphere, capsule: the core's radius; 0 for the others */
    float v[3][3];      /* sphere: centre v[0]; capsule: v[0] to v[1]; triangle: corners */
    float c[3], h[3];   /* oriented box: centre and half extents */
    float r[9];         /* oriented box: rotation, row-major, its columns the box's axes */
    float ar[9];        /* |r| plus a little: the separating-axis tests' absolute rotation */
    geo_ray ray;        /* capsule: v[0] to v[1], t in [0, 1], for node tests */
    geo_hull hull;      /* convex: the caller's points under `frame` */
    cl_frame frame;
    float mag;          /* the largest |coordinate| of the shape in the tree's frame, and of the tree's */
    float own_mag;      /* convex: the largest |coordinate| of the shape alone (posed, plus the pose's) */
    float slack;        /* rounding allowance of node tests (CL_SLACK_ULPS ulps of mag and the tree's) */
} cl_shape;

/* Validate the shape and the pose, and place the shape in the tree's frame. `tree_mag` is the
 * largest |coordinate| of the tree's root box (slack covers both). */
copse_status copse__collide_sphere(cl_shape *s, const copse_sphere *sphere, const copse_pose *pose, float tree_mag);
copse_status copse__collide_capsule(cl_shape *s, const copse_capsule *capsule, const copse_pose *pose,
                                    float tree_mag);
copse_status copse__collide_obb(cl_shape *s, const copse_obb *obb, const copse_pose *pose, float tree_mag);
copse_status copse__collide_triangle(cl_shape *s, const copse_triangle *triangle, const copse_pose *pose,
                                     float tree_mag);
copse_status copse__collide_convex(cl_shape *s, const copse_convex *convex, const copse_pose *pose, float tree_mag);

/* The shape's preparation for its kind: with a constant kind, only that one is linked. */
COPSE_INLINE copse_status cl_prepare(cl_shape *s, cl_kind kind, const void *shape, const copse_pose *pose, float mag)
{
    switch (kind) {
    case CL_SPHERE:
        return copse__collide_sphere(s, (const copse_sphere *)shape, pose, mag);
    case CL_CAPSULE:
        return copse__collide_capsule(s, (const copse_capsule *)shape, pose, mag);
    case CL_OBB:
        return copse__collide_obb(s, (const copse_obb *)shape, pose, mag);
    case CL_TRIANGLE:
        return copse__collide_triangle(s, (const copse_triangle *)shape, pose, mag);
    case CL_CONVEX:
        return copse__collide_convex(s, (const copse_convex *)shape, pose, mag);
    }
    return COPSE_ERR_PARAM;
}

/* The slack for coordinates up to `mag`. */
COPSE_INLINE float cl_slack(float mag)
{
    return mag * (CL_SLACK_ULPS * FLT_EPSILON) + FLT_MIN;
}

/* ---- a box against an oriented box: separating axes ---------------------------------------------
 * The axis-aligned box (centre m, half e) against the oriented box (centre c, half h, axes the
 * columns of r, ar = |r| + a little): the 15 axes of the separating axis theorem, each widened by
 * slack, so a pair that touches is never called apart. */
bool copse__collide_sat(const float *m, const float *e, const float *c, const float *h, const float *r,
                        const float *ar, float slack);

/* The node pairs' test of the mesh walks: the six face axes of copse__collide_sat alone (the nine
 * edge axes cost more than the extra pairs they would cut: measured on the robots' walks,
 * docs/benchmarks-robot.md), so a pair it passes may still be apart; the leaves' exact tests
 * decide. What each box contributes is made once and shared by the two children of a split:
 * t = c - m; ext_t[j], the oriented box's half extent along the tree's axis j (row j of ar times
 * h); ext_o[i], the axis-aligned box's along the oriented box's axis i (column i of ar times e),
 * or NULL to make it here (only once the tree's axes have not separated them). */
bool copse__collide_face_axes(const float *t, const float *e, const float *h, const float *ext_t, const float *ext_o,
                               const float *r, const float *ar, float slack);

/* Those half extents: of an oriented box (half h) along the tree's axes, and of an axis-aligned
 * box (half e) along the oriented box's axes. */
COPSE_INLINE void cl_ext_tree(const float *ar, const float *h, float *ext)
{
    unsigned j;
    for (j = 0; j < 3; j++)
        ext[j] = ar[3 * j] * h[0] + ar[3 * j + 1] * h[1] + ar[3 * j + 2] * h[2];
}

COPSE_INLINE void cl_ext_oriented(const float *ar, const float *e, float *ext)
{
    unsigned i;
    for (i = 0; i < 3; i++)
        ext[i] = ar[i] * e[0] + ar[3 + i] * e[1] + ar[6 + i] * e[2];
}

/* Squared lower bound of the distance between the same two boxes: the larger of the gaps between
 * each box and the other's bounds in its frame (0 when those overlap). */
float copse__collide_box_gap2(const float *m, const float *e, const float *c, const float *h, const float *r,
                              const float *ar);

/* Centre and half extents of a node's bounds, halves first (no overflow near FLT_MAX). */
COPSE_INLINE void cl_center_half(const float *mn, const float *mx, float *m, float *e)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        m[k] = mn[k] * 0.5f + mx[k] * 0.5f;
        e[k] = mx[k] * 0.5f - mn[k] * 0.5f;
    }
}

/* Squared gap between two boxes (0 when they overlap). */
COPSE_INLINE float cl_aabb_gap2(const float *amin, const float *amax, const float *bmin, const float *bmax)
{
    float g2 = 0.0f;
    unsigned k;
    for (k = 0; k < 3; k++) {
        float g = geo_max(geo_max(amin[k] - bmax[k], bmin[k] - amax[k]), 0.0f);
        g2 += g * g;
    }
    return g2;
}

/* Can the shape touch anything inside the node's box [mn, mx]? Conservative. */
COPSE_INLINE bool cl_node_touch(const cl_shape *s, cl_kind kind, const float *mn, const float *mx)
{
    float m[3], e[3];
    if (!geo_box_overlap(s->lo, s->hi, mn, mx, 3))
        return false;
    switch (kind) {
    case CL_SPHERE: {
        float r = s->radius + s->slack;
        return geo_box_dist_sq(s->v[0], mn, mx, 3) <= r * r;
    }
    case CL_CAPSULE: {
        float gmn[3], gmx[3], t;
        unsigned k;
        for (k = 0; k < 3; k++) {
            gmn[k] = mn[k] - (s->radius + s->slack);
            gmx[k] = mx[k] + (s->radius + s->slack);
        }
        return geo_ray_box(&s->ray, gmn, gmx, 0.0f, 1.0f, 3, true, &t);
    }
    case CL_OBB:
        cl_center_half(mn, mx, m, e);
        return copse__collide_sat(m, e, s->c, s->h, s->r, s->ar, s->slack);
    case CL_TRIANGLE: {
        float gmn[3], gmx[3];
        unsigned k;
        for (k = 0; k < 3; k++) {
            gmn[k] = mn[k] - s->slack;
            gmx[k] = mx[k] + s->slack;
        }
        return copse_geo_triangle_box_overlap(gmn, gmx, s->v[0], s->v[1], s->v[2]);
    }
    case CL_CONVEX:
        return true; /* its bounds said so */
    }
    return true;
}

/* A lower bound of the squared distance from the shape's core (for spheres and capsules: the
 * centre or the segment; the whole shape for the others) to anything in the node's box. */
COPSE_INLINE float cl_node_lb2(const cl_shape *s, cl_kind kind, const float *mn, const float *mx)
{
    if (kind == CL_SPHERE)
        return geo_box_dist_sq(s->v[0], mn, mx, 3);
    if (kind == CL_OBB) {
        float m[3], e[3];
        cl_center_half(mn, mx, m, e);
        return copse__collide_box_gap2(m, e, s->c, s->h, s->r, s->ar);
    }
    {
        /* the core's own bounds: the shape's bounds less its radius and slack */
        float lo[3], hi[3];
        unsigned k;
        float grow = s->radius + s->slack;
        for (k = 0; k < 3; k++) {
            lo[k] = s->lo[k] + grow;
            hi[k] = s->hi[k] - grow;
        }
        return cl_aabb_gap2(lo, hi, mn, mx);
    }
}

/* A tree-frame point in the oriented box's own frame: r^T (p - c). */
COPSE_INLINE void cl_to_box(const cl_shape *s, const float *p, float *out)
{
    float d[3];
    geo_sub3(d, p, s->c);
    cl_rotate_t(s->r, d, out);
}

/* A box-frame point back in the tree's frame: c + r q. */
COPSE_INLINE void cl_from_box(const cl_shape *s, const float *q, float *out)
{
    cl_rotate(s->r, q, out);
    out[0] += s->c[0];
    out[1] += s->c[1];
    out[2] += s->c[2];
}

/* GJK between the convex set and up to three points (a triangle, a point), in a frame moved to
 * the first of those points: the solver's rounding then scales with the sizes involved, not with
 * how far from the origin they lie. `grow` widens the convex set (the touch tests pass a few ulps
 * of the coordinates' magnitude, which the move itself may round away). Points come back in the
 * tree's frame, and the squared distance is measured between them. */
COPSE_INLINE float cl_convex_gjk(const cl_shape *s, const float *const *pts, unsigned n, float grow, float *ps,
                                 float *pt)
{
    geo_hull a = s->hull, b;
    copse_vec3 local[3];
    float t[3], d2;
    const float *o = pts[0];
    unsigned k;
    for (k = 0; k < n; k++)
        local[k] = copse_v3(pts[k][0] - o[0], pts[k][1] - o[1], pts[k][2] - o[2]);
    geo_sub3(t, s->frame.t, o);
    a.trans = t;
    a.radius = grow;
    b.points = local;
    b.count = n;
    b.rot = NULL;
    b.trans = NULL;
    b.radius = 0.0f;
    d2 = copse_geo_gjk(&a, &b, ps, pt);
    for (k = 0; k < 3; k++) {
        ps[k] += o[k];
        pt[k] += o[k];
    }
    return d2 == 0.0f ? 0.0f : geo_dist_sq3(ps, pt);
}

/* What the move to a local frame may round away: a few ulps of the magnitude of the coordinates
 * the test combines -- the shape's own and those of the points it is tested against, never the
 * whole tree's (a tree reaching 1e12 must not make a point 60 m away touch). */
COPSE_INLINE float cl_convex_grow(const cl_shape *s, const float *const *pts, unsigned n)
{
    float m = s->own_mag;
    unsigned k;
    for (k = 0; k < n; k++)
        m = geo_max(m, cl_max_abs3(pts[k]));
    return m * (2.0f * FLT_EPSILON);
}

/* Does the shape touch the closed triangle (tree frame)? One kernel per kind: with a constant
 * kind only that kernel is linked. */
COPSE_INLINE bool cl_touch_triangle(const cl_shape *s, cl_kind kind, const float *const tri[3])
{
    float q[3], ps[3], pt[3];
    switch (kind) {
    case CL_SPHERE:
        return copse_geo_point_triangle(s->v[0], tri, q) <= s->radius * s->radius;
    case CL_CAPSULE:
        return copse_geo_segment_triangle(s->v[0], s->v[1], tri, ps, pt) <= s->radius * s->radius;
    case CL_OBB: {
        float local[3][3];
        const float *lt[3];
        unsigned k;
        for (k = 0; k < 3; k++) {
            cl_to_box(s, tri[k], local[k]);
            lt[k] = local[k];
        }
        return copse_geo_box_triangle_overlap(s->h, lt);
    }
    case CL_TRIANGLE: {
        const float *st[3];
        st[0] = s->v[0];
        st[1] = s->v[1];
        st[2] = s->v[2];
        return copse_geo_triangle_triangle_overlap(st, tri);
    }
    case CL_CONVEX:
        return cl_convex_gjk(s, tri, 3, cl_convex_grow(s, tri, 3), ps, pt) == 0.0f;
    }
    return false;
}

/* Squared distance from the shape's core to the triangle; *ps on the core (the shape's closest
 * point for shapes without a radius), *pt on the triangle. */
COPSE_INLINE float cl_dist2_triangle(const cl_shape *s, cl_kind kind, const float *const tri[3], float *ps,
                                     float *pt)
{
    switch (kind) {
    case CL_SPHERE:
        ps[0] = s->v[0][0];
        ps[1] = s->v[0][1];
        ps[2] = s->v[0][2];
        return copse_geo_point_triangle(s->v[0], tri, pt);
    case CL_CAPSULE:
        return copse_geo_segment_triangle(s->v[0], s->v[1], tri, ps, pt);
    case CL_OBB: {
        float local[3][3], qb[3], qt[3], d2;
        const float *lt[3];
        unsigned k;
        for (k = 0; k < 3; k++) {
            cl_to_box(s, tri[k], local[k]);
            lt[k] = local[k];
        }
        d2 = copse_geo_box_triangle(s->h, lt, qb, qt);
        cl_from_box(s, qt, pt);
        if (d2 == 0.0f) { /* touching: exactly 0, whatever the way back rounds */
            ps[0] = pt[0];
            ps[1] = pt[1];
            ps[2] = pt[2];
            return 0.0f;
        }
        cl_from_box(s, qb, ps);
        return geo_dist_sq3(ps, pt); /* measured in the tree's frame, from the points reported */
    }
    case CL_TRIANGLE: {
        const float *st[3];
        st[0] = s->v[0];
        st[1] = s->v[1];
        st[2] = s->v[2];
        return copse_geo_triangle_triangle(st, tri, ps, pt);
    }
    case CL_CONVEX:
        return cl_convex_gjk(s, tri, 3, 0.0f, ps, pt);
    }
    return FLT_MAX;
}

/* The same against a point (the octree's): the core's squared distance, *ps on the core. */
COPSE_INLINE float cl_dist2_point(const cl_shape *s, cl_kind kind, const float *p, float *ps)
{
    switch (kind) {
    case CL_SPHERE:
        ps[0] = s->v[0][0];
        ps[1] = s->v[0][1];
        ps[2] = s->v[0][2];
        return geo_dist_sq3(ps, p);
    case CL_CAPSULE:
        geo_segment_closest(ps, p, s->v[0], s->v[1]);
        return geo_dist_sq3(ps, p);
    case CL_OBB: {
        float q[3], h0[3], c[3];
        unsigned k;
        cl_to_box(s, p, q);
        for (k = 0; k < 3; k++)
            h0[k] = -s->h[k];
        geo_box_closest(c, q, h0, s->h, 3);
        if (c[0] == q[0] && c[1] == q[1] && c[2] == q[2]) { /* inside: exactly 0 */
            ps[0] = p[0];
            ps[1] = p[1];
            ps[2] = p[2];
            return 0.0f;
        }
        cl_from_box(s, c, ps);
        return geo_dist_sq3(ps, p);
    }
    case CL_TRIANGLE: {
        const float *st[3];
        st[0] = s->v[0];
        st[1] = s->v[1];
        st[2] = s->v[2];
        return copse_geo_point_triangle(p, st, ps);
    }
    case CL_CONVEX: {
        float pp[3];
        const float *one[1];
        one[0] = p;
        return cl_convex_gjk(s, one, 1, 0.0f, ps, pp);
    }
    }
    return FLT_MAX;
}

/* Is the point within the closed shape? */
COPSE_INLINE bool cl_touch_point(const cl_shape *s, cl_kind kind, const float *p)
{
    float ps[3];
    if (kind == CL_OBB) {
        float q[3];
        cl_to_box(s, p, q);
        return copse_fabsf(q[0]) <= s->h[0] && copse_fabsf(q[1]) <= s->h[1] && copse_fabsf(q[2]) <= s->h[2];
    }
    if (kind == CL_TRIANGLE) {
        const float *st[3];
        st[0] = s->v[0];
        st[1] = s->v[1];
        st[2] = s->v[2];
        return copse_geo_point_on_triangle(p, st);
    }
    if (kind == CL_CONVEX) {
        float pp[3];
        const float *one[1];
        one[0] = p;
        return cl_convex_gjk(s, one, 1, cl_convex_grow(s, one, 1), ps, pp) == 0.0f;
    }
    {
        const float d2 = cl_dist2_point(s, kind, p, ps), r2 = s->radius * s->radius;
        return r2 <= FLT_MAX ? d2 <= r2 : geo_within(p, ps, s->radius, r2);
    }
}

/* ---- distance queries ------------------------------------------------------------------------------ */

/* The state of a distance walk: the best pair so far (core distance) and the cut-off that
 * prunes nodes, derived from it and from the query (max_distance, abs_err, rel_err). */
typedef struct cl_best {
    float d2;          /* core distance squared of the best pair, +inf before the first */
    uint32_t tree_id, shape_id;
    float ps[3], pt[3];
    float cut2;        /* nodes whose lower bound exceeds this are pruned */
    float radius, slack;
    float max_distance, abs_err, rel_err;
    bool first_within, done;
} cl_best;

/* Checks the query (NULL: the default) and starts the state. */
copse_status copse__collide_best_init(cl_best *b, const copse_distance_query *query, float radius, float slack);

/* Offers a pair at core distance squared d2; keeps it when nearer (ties: lower tree id, then
 * lower shape id) and within max_distance. */
void copse__collide_best_offer(cl_best *b, float d2, uint32_t tree_id, uint32_t shape_id, const float *ps,
                               const float *pt);

/* The result of a distance walk. For spheres and capsules whose core touches the surface
 * (distance 0), the triangle the core lies on gives the normal (tri may be NULL otherwise). */
void copse__collide_best_finish(const cl_best *b, const cl_shape *s, cl_kind kind, const float *const tri[3],
                                copse_distance *out);

/* Every output emptied (on an error, or before a walk). */
void copse__collide_distance_empty(copse_distance *out);

/* ---- trees -------------------------------------------------------------------------------------------- */

/* A 3D triangle tree (or an empty one): OK, NULL, DIMENSION, KIND, TOO_DEEP. */
copse_status copse__collide_mesh_tree(const copse_bvh *tree);

/* The largest |coordinate| of the tree's root box (0 for an empty tree). */
float copse__collide_bvh_mag(const copse_bvh *tree);
float copse__collide_octree_mag(const copse_octree *tree);

/* A triangle's corners in the tree's frame (pointers into its mesh). */
COPSE_INLINE void cl_tree_triangle(const copse_bvh *t, uint32_t prim, const float *v[3])
{
    uint32_t idx[3];
    bvh_mesh_triangle(&t->mesh, prim, idx);
    v[0] = bvh_mesh_vertex(&t->mesh, idx[0]);
    v[1] = bvh_mesh_vertex(&t->mesh, idx[1]);
    v[2] = bvh_mesh_vertex(&t->mesh, idx[2]);
}

/* Does the mesh tree hold a triangle that touches the shape (given in the tree's own frame, as
 * prepared by hand)? The BVH's overlap walk, stopping at the first; for the octree's mesh
 * queries, one per kind used. */
bool copse__collide_bvh_touches_obb(const copse_bvh *tree, const cl_shape *s);
bool copse__collide_bvh_touches_sphere(const copse_bvh *tree, const cl_shape *s);

/* The id visitor of the `any` queries: keeps the first id and stops. */
bool copse__collide_keep_first(void *user, uint32_t id);

/* A query's outputs start empty, so a refused query leaves them so. */
COPSE_INLINE void cl_id_empty(uint32_t *id)
{
    if (id != NULL)
        *id = COPSE_NONE;
}


/* ---- ordered octree walks (distance, sweeps) -----------------------------------------------------
 * The nearest child first (by `key`: a lower bound of the squared distance, or an entry time),
 * its siblings waiting as one stack entry per level: the parent and the children already taken.
 * A resumed entry picks the nearest remaining child again, so the stack needs one entry per
 * level, however many children a node has. `key`, `leaf` and `bound` are inline functions
 * passed as constants: each walk is compiled for its own. */
typedef float (*cl_oct_key)(const void *ctx, const float *mn, const float *mx);
typedef void (*cl_oct_leaf)(void *ctx, const copse_octree *t, const copse_octree_node *leaf);
typedef float (*cl_oct_bound)(const void *ctx); /* keys above it are pruned; NaN never is */
typedef bool (*cl_oct_done)(const void *ctx);

typedef struct cl_oct_entry {
    uint32_t parent;
    uint32_t taken; /* bit i: the i-th child in the sibling list was taken */
    float key;      /* the smallest key among the children not taken */
} cl_oct_entry;

#define CL_OCT_STACK (COPSE_OCTREE_MAX_DEPTH + 2u)

/* Picks the nearest child of `parent` not yet taken; false when none is within the bound. On
 * success, *child is it, *key its key and *rest the smallest key among the others left (FLT_MAX:
 * none). Children beyond the bound are marked taken too: every walk's bound only shrinks. */
COPSE_INLINE bool cl_oct_pick(const copse_octree *t, uint32_t parent, uint32_t *taken, const void *ctx, cl_oct_key key,
                              float bound, uint32_t *child, float *key_out, float *rest)
{
    uint32_t c = t->nodes[parent].first, i = 0, best_i = 32u, best = OCT_NONE;
    float best_k = FLT_MAX, second = FLT_MAX;
    for (; c != OCT_NONE && i < 32u; c = t->nodes[c].next, i++) {
        float k;
        if ((*taken >> i) & 1u)
            continue;
        k = key(ctx, t->nodes[c].min, t->nodes[c].max);
        if (!(k <= bound)) {
            *taken |= 1u << i;
            continue;
        }
        if (best == OCT_NONE || k < best_k) {
            second = best == OCT_NONE ? second : best_k;
            best_k = k;
            best = c;
            best_i = i;
        } else if (k < second) {
            second = k;
        }
    }
    if (best == OCT_NONE)
        return false;
    *taken |= 1u << best_i;
    *child = best;
    *key_out = best_k;
    *rest = second;
    return true;
}

COPSE_INLINE void cl_octree_ordered_walk(const copse_octree *t, void *ctx, cl_oct_key key, cl_oct_leaf leaf,
                                         cl_oct_bound bound, cl_oct_done done)
{
    cl_oct_entry stack[CL_OCT_STACK];
    uint32_t sp = 0, n = 0;
    if (t->nodes == NULL || t->size == 0u || !(key(ctx, t->nodes[0].min, t->nodes[0].max) <= bound(ctx)))
        return;
    for (;;) {
        const copse_octree_node *node = &t->nodes[n];
        if (oct_is_leaf(node)) {
            leaf(ctx, t, node);
            if (done(ctx))
                return;
        } else if (sp < CL_OCT_STACK) {
            stack[sp].parent = n;
            stack[sp].taken = 0;
            stack[sp++].key = 0.0f;
        }
        /* resume the deepest waiting parent whose remaining children may still matter */
        for (;;) {
            cl_oct_entry *e;
            float rest, k;
            if (sp == 0u)
                return;
            e = &stack[sp - 1u];
            if (e->key <= bound(ctx) && cl_oct_pick(t, e->parent, &e->taken, ctx, key, bound(ctx), &n, &k, &rest)) {
                e->key = rest;
                if (!(rest <= bound(ctx)))
                    sp--; /* nothing else there can matter now */
                break;
            }
            sp--;
        }
    }
}

#endif /* COPSE_COLLIDE_INTERNAL_H */

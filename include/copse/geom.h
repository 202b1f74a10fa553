/* SPDX-License-Identifier: MIT */
/*
 * copse — the geometry the trees are built over and queried with.
 *
 * Plain structs of floats, no padding, no hidden members: they can sit in
 * flash and be shared with other libraries' vector types by layout.
 */
#ifndef COPSE_GEOM_H
#define COPSE_GEOM_H

#include <stdbool.h>
#include <stdint.h>

#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct copse_vec2 { float x, y; } copse_vec2;
typedef struct copse_vec3 { float x, y, z; } copse_vec3;

/* Axis-aligned boxes; min <= max on every axis for a valid box. */
typedef struct copse_box2 { copse_vec2 min, max; } copse_box2;
typedef struct copse_box3 { copse_vec3 min, max; } copse_box3;

/* Points origin + t*dir for t in [0, t_max]; dir need not be unit length
 * (t is then in units of |dir|; with a unit dir, t is a distance). */
typedef struct copse_ray2 { copse_vec2 origin, dir; float t_max; } copse_ray2;
typedef struct copse_ray3 { copse_vec3 origin, dir; float t_max; } copse_ray3;

/* The closed segment from a to b. */
typedef struct copse_segment2 { copse_vec2 a, b; } copse_segment2;
typedef struct copse_segment3 { copse_vec3 a, b; } copse_segment3;

typedef struct copse_circle { copse_vec2 center; float radius; } copse_circle;
typedef struct copse_sphere { copse_vec3 center; float radius; } copse_sphere;

/* The plane dot(normal, x) = dist. The points with dot(normal, x) <= dist are behind it; a
 * convex region (a BSP brush, a view frustum) is the set of points behind all of its planes,
 * so its normals point out. Normals need not be unit length. */
typedef struct copse_plane { copse_vec3 normal; float dist; } copse_plane;

/* Every point within `radius` of the closed segment: a robot link, a swept sphere. */
typedef struct copse_capsule { copse_segment3 segment; float radius; } copse_capsule;

static inline copse_vec2 copse_v2(float x, float y)
{
    copse_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

static inline copse_vec3 copse_v3(float x, float y, float z)
{
    copse_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static inline copse_box2 copse_box2_make(float x0, float y0, float x1, float y1)
{
    copse_box2 b;
    b.min = copse_v2(x0, y0);
    b.max = copse_v2(x1, y1);
    return b;
}

static inline copse_box3 copse_box3_make(float x0, float y0, float z0, float x1, float y1, float z1)
{
    copse_box3 b;
    b.min = copse_v3(x0, y0, z0);
    b.max = copse_v3(x1, y1, z1);
    return b;
}

/* The ray through a segment: t in [0,1] spans a..b. */
static inline copse_ray3 copse_ray3_from_segment(copse_segment3 s)
{
    copse_ray3 r;
    r.origin = s.a;
    r.dir = copse_v3(s.b.x - s.a.x, s.b.y - s.a.y, s.b.z - s.a.z);
    r.t_max = 1.0f;
    return r;
}

static inline copse_ray2 copse_ray2_from_segment(copse_segment2 s)
{
    copse_ray2 r;
    r.origin = s.a;
    r.dir = copse_v2(s.b.x - s.a.x, s.b.y - s.a.y);
    r.t_max = 1.0f;
    return r;
}


/* A triangle by its corners: a query shape (collide.h). Closed: its edges and corners belong to it. */
typedef struct copse_triangle { copse_vec3 a, b, c; } copse_triangle;

/* ---- poses ------------------------------------------------------------------------------------
 * A pose places something (a shape, a mesh, a robot link) in another frame (a tree's, the world's):
 * the point p of the thing is at rotation * p + translation there. rotation[i][j] is row i, column
 * j; its columns are the thing's own axes seen in the other frame.
 *
 * Every query that takes a pose checks it first: COPSE_ERR_NONFINITE for a NaN or infinite entry,
 * COPSE_ERR_PARAM for a rotation that is not a rotation within COPSE_POSE_TOLERANCE (each entry
 * of R^T R - I at most that, and det R > 0: no mirror). A pose built here from angles or a
 * quaternion is orthonormal to a few float ulps; the tolerance leaves room for poses composed
 * along a long chain. Within it a query uses the matrix as given (an affine map). */
#define COPSE_POSE_TOLERANCE 1e-4f

typedef struct copse_pose {
    float rotation[3][3];
    copse_vec3 translation;
} copse_pose;

/* A rotation as a quaternion, stored x, y, z, w (the order of ROS messages, Bullet and Eigen's
 * coeffs()). Any non-zero length is accepted and normalised. */
typedef struct copse_quat { float x, y, z, w; } copse_quat;

/* An oriented box: the points center + R q with |q_k| <= half_k, where R = rotation (its columns
 * are the box's axes). A box with a zero half extent is a rectangle (or a segment, or a point). */
typedef struct copse_obb {
    copse_vec3 center;
    copse_vec3 half;
    float rotation[3][3];
} copse_obb;

/* The convex hull of `count` points (1..COPSE_CONVEX_MAX_POINTS), e.g. a gripper finger given by
 * its corners. The points are the caller's; nothing is copied. */
#define COPSE_CONVEX_MAX_POINTS 1024u
typedef struct copse_convex {
    const copse_vec3 *points;
    uint32_t count;
} copse_convex;

static inline copse_pose copse_pose_identity(void)
{
    copse_pose p;
    unsigned i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            p.rotation[i][j] = i == j ? 1.0f : 0.0f;
    p.translation = copse_v3(0.0f, 0.0f, 0.0f);
    return p;
}

/* A pure translation. */
static inline copse_pose copse_pose_translation(copse_vec3 t)
{
    copse_pose p = copse_pose_identity();
    p.translation = t;
    return p;
}

/* OK, NULL, NONFINITE, or PARAM (not a rotation within COPSE_POSE_TOLERANCE).
 * Statuses: OK, NULL, PARAM, NONFINITE. */
copse_status copse_pose_check(const copse_pose *pose);

/* From a quaternion (normalised here) and a translation. NONFINITE; PARAM for a zero quaternion.
 * On error *out is the identity. */
copse_status copse_pose_from_quat(copse_pose *out, copse_quat q, copse_vec3 translation);

/* From URDF's <origin xyz="..." rpy="...">: fixed-axis roll about x, then pitch about y, then yaw
 * about z (R = Rz(yaw) Ry(pitch) Rx(roll)), then the translation xyz. Angles in radians, |angle|
 * at most COPSE_MAX_ANGLE. The sines and cosines are copse's own (float, the same bits on every
 * target: libm's differ between libraries). NONFINITE, PARAM; on error *out is the identity. */
#define COPSE_MAX_ANGLE 1.0e5f
copse_status copse_pose_from_xyz_rpy(copse_pose *out, copse_vec3 xyz, copse_vec3 rpy);

/* A rotation by `angle` radians about `axis` (any non-zero length; normalised here), then the
 * translation: a URDF revolute joint. NONFINITE, PARAM (zero axis, |angle| > COPSE_MAX_ANGLE). */
copse_status copse_pose_from_axis_angle(copse_pose *out, copse_vec3 axis, float angle, copse_vec3 translation);

/* out = a after b: the point p goes to a(b(p)) (b places a thing in a frame that a places in
 * another). out may be a or b. NULL when any pointer is.
 * Statuses: OK, NULL. */
copse_status copse_pose_compose(copse_pose *out, const copse_pose *a, const copse_pose *b);

/* The inverse motion (rotation transposed: the pose must be a rotation, as copse_pose_check
 * accepts). out may be pose.
 * Statuses: OK, NULL, PARAM, NONFINITE. */
copse_status copse_pose_invert(copse_pose *out, const copse_pose *pose);

/* rotation * p + translation; rotation * d (a direction); the inverse motion of p. A NULL pose is
 * the identity, here and in every query that takes a pose. */
copse_vec3 copse_pose_apply(const copse_pose *pose, copse_vec3 p);
copse_vec3 copse_pose_apply_dir(const copse_pose *pose, copse_vec3 d);
copse_vec3 copse_pose_apply_inverse(const copse_pose *pose, copse_vec3 p);

/* An oriented box from an axis-aligned box in a thing's own frame and that thing's pose.
 * Statuses: OK, NULL, PARAM, NONFINITE, EMPTY_RANGE. */
copse_status copse_obb_from_box(copse_obb *out, const copse_box3 *box, const copse_pose *pose);

/* OK, NULL, NONFINITE, EMPTY_RANGE (a negative half extent), PARAM (rotation as for a pose). */
copse_status copse_obb_check(const copse_obb *obb);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_GEOM_H */

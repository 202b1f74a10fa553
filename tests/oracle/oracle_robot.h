/* SPDX-License-Identifier: MIT */
/*
 * A robot against its world, brute force in double precision: the answers copse/robot.h's
 * one-call-per-configuration functions are judged against (tests/test_robot_check.c, and the
 * real robots' tests). Written from the definitions -- URDF forward kinematics in double with
 * libm's sines, the minimum over every primitive pair -- on the double kernels of oracle.h,
 * oracle_closest.h and oracle_collide.h; never calling copse (its headers give types only).
 *
 * Plain arrays in, so any description (a generated robot, a parsed URDF) can be mirrored:
 *   joints  type (copse_joint_type values), parent and child link, URDF origin xyz + rpy, axis,
 *           limits, mimic (joint index or -1) with multiplier and offset;
 *   links   a triangle mesh (float vertices in the link's frame, uint32 indices or NULL for
 *           "triangle t is vertices 3t..3t+2"), spheres (4 doubles each: centre, radius),
 *           capsules (7 doubles: a, b, radius), a padding;
 *   allowed link_count * link_count bytes, non-zero where the two links may touch (orb_acm
 *           fills it the way copse_robot_build documents).
 * The vertices stay floats (what the library is given) so a robot's meshes are not copied: the
 * micro:bit has 16 KB of RAM.
 *
 * What a link is: ORB_GEOM_MESH_ELSE_SHAPES (its mesh when it has one -- its spheres and
 * capsules then only bound it -- else its spheres and capsules) or ORB_GEOM_UNION (all of it).
 * Sets are closed and meshes are surfaces (copse/collide.h). Paddings: a link grows by its
 * padding, a scan point is a ball of the scan padding; a pair is in contact when its geometric
 * distance is at most the sum, and its "padded distance" is the geometric one minus the sum.
 *
 * Prefix orb_.
 */
#ifndef COPSE_TEST_ORACLE_ROBOT_H
#define COPSE_TEST_ORACLE_ROBOT_H

#include <stdbool.h>
#include <stdint.h>
#include <math.h>

#include "oracle/oracle.h"
#include "oracle/oracle_collide.h"

#define ORB_MAX_LINKS 64u
#define ORB_INF HUGE_VAL /* "none within the cutoff" */

typedef struct orb_joint {
    unsigned type;          /* 0 fixed, 1 revolute, 2 continuous, 3 prismatic (copse_joint_type) */
    unsigned parent, child; /* links */
    double xyz[3], rpy[3];  /* URDF origin: R = Rz(yaw) Ry(pitch) Rx(roll), then xyz */
    double axis[3];         /* any non-zero length */
    double lower, upper;
    int mimic;              /* joint index, or -1 */
    double multiplier, offset;
} orb_joint;

typedef struct orb_link {
    const float *positions;    /* 3 floats a vertex, link frame */
    const uint32_t *indices;   /* 3 a triangle, or NULL */
    unsigned triangle_count;
    const double *spheres;     /* 4 a sphere */
    unsigned sphere_count;
    const double *capsules;    /* 7 a capsule */
    unsigned capsule_count;
    double padding;
} orb_link;

typedef enum orb_geometry { ORB_GEOM_MESH_ELSE_SHAPES = 0, ORB_GEOM_UNION = 1 } orb_geometry;

typedef struct orb_robot {
    const orb_link *links;
    unsigned link_count;
    const orb_joint *joints;
    unsigned joint_count;
    const uint8_t *allowed; /* link_count^2 bytes */
    orb_geometry geometry;
} orb_robot;

typedef struct orb_mesh {
    const float *positions;
    const uint32_t *indices; /* or NULL */
    unsigned triangle_count;
    orcc_pose pose;          /* its frame in the world */
} orb_mesh;

typedef struct orb_object {
    unsigned kind;           /* 0 box, 1 sphere (copse_object_kind) */
    double center[3];
    double half[3];          /* box */
    double rotation[3][3];   /* box: columns are its axes */
    double radius;           /* sphere */
} orb_object;

typedef struct orb_world {
    const orb_mesh *meshes;
    unsigned mesh_count;
    const float *points;     /* scan points, 3 floats each, world frame; id = index */
    unsigned point_count;
    double scan_padding;
    const orb_object *objects;
    unsigned object_count;
} orb_world;

/* ---- kinematics -------------------------------------------------------------------------------- */

/* Variables: the non-fixed joints that mimic nothing, in joint order. */
unsigned orb_dof(const orb_robot *r);
/* The variable of joint j, or -1. */
int orb_joint_variable(const orb_robot *r, unsigned j);
/* Joint j's value at q (a mimic: multiplier * its joint's value + offset; fixed: 0). */
double orb_joint_value(const orb_robot *r, const double *q, unsigned j);
/* The link with no parent joint (the first one), or link_count when there is none. */
unsigned orb_root(const orb_robot *r);
/* Every link's pose in the world; base NULL is the identity. false when a link is unreachable. */
bool orb_fk(const orb_robot *r, const double *q, const orcc_pose *base, orcc_pose *poses);

/* The allowed matrix copse_robot_build documents: the given pairs, plus links joined by a joint
 * unless check_adjacent; a link with itself is allowed. */
void orb_acm(const orb_robot *r, const unsigned (*pairs)[2], unsigned pair_count, bool check_adjacent,
             uint8_t *allowed);

/* ---- geometry ---------------------------------------------------------------------------------- */

/* What is measured: a link, a world mesh, the scan, an object, or a lone point. */
#define ORB_LINK 1u   /* = COPSE_CONTACT_SELF: index is the link */
#define ORB_MESH 2u   /* = COPSE_CONTACT_MESH */
#define ORB_SCAN 3u   /* = COPSE_CONTACT_SCAN (index 0) */
#define ORB_OBJECT 4u /* = COPSE_CONTACT_OBJECT */
#define ORB_POINT 5u  /* the point `point` (index unused) */

/* prim selectors */
#define ORB_SHAPES 0xFFFFFFFFu /* a link's spheres and capsules only (= COPSE_NONE) */
#define ORB_ANY 0xFFFFFFFEu    /* all of it (as orb_robot.geometry says for a link) */

typedef struct orb_side {
    unsigned kind;
    unsigned index;
    unsigned prim;           /* ORB_ANY, ORB_SHAPES, or a triangle / point id */
    const double *point;     /* ORB_POINT */
} orb_side;

static inline orb_side orb_side_make(unsigned kind, unsigned index, unsigned prim)
{
    orb_side s;
    s.kind = kind;
    s.index = index;
    s.prim = prim;
    s.point = (const double *)0;
    return s;
}

typedef struct orb_scene {
    const orb_robot *robot;
    const orb_world *world;
    const orcc_pose *poses;  /* every link's pose in the world */
} orb_scene;

typedef struct orb_near {
    double distance;           /* geometric: 0 when they meet, paddings not taken off */
    unsigned a_prim, b_prim;   /* triangle or point id; ORB_SHAPES for a sphere or capsule; COPSE_NONE
                                * (= ORB_SHAPES) for an object or a point */
    unsigned a_shape, b_shape; /* the sphere (0..) or capsule (sphere_count..) index, when ORB_SHAPES */
    double a_point[3], b_point[3]; /* closest points, world frame (a shared one when they meet) */
} orb_near;

/* The geometric distance between two sides, when it is at most `cutoff` (ORB_INF: any);
 * otherwise ORB_INF (near untouched). Ties: the first pair in a's then b's primitive order
 * (triangles, spheres, capsules). */
double orb_distance(const orb_scene *s, const orb_side *a, const orb_side *b, double cutoff, orb_near *near);
/* The padding of a side: a link's, the scan's, else 0. */
double orb_padding(const orb_scene *s, const orb_side *side);
/* How many primitives (for loops): a link's triangles + spheres + capsules, a mesh's triangles,
 * the scan's points, 1 for an object or a point. */
unsigned orb_prim_count(const orb_scene *s, const orb_side *side);
/* Does the side have anything to collide (a link with no geometry has not)? */
bool orb_side_empty(const orb_scene *s, const orb_side *side);

/* ---- what the robot's one-call functions answer ------------------------------------------------- */

#define ORB_SELF 1u  /* = COPSE_ROBOT_SELF */
#define ORB_WORLD 2u /* = COPSE_ROBOT_WORLD */

/* The pairs a check visits, in copse's order: every link's world pairs (its meshes, the objects,
 * the scan), link by link, then the self pairs (link < other, not allowed). Returns the number of pairs; fills up to cap. */
typedef struct orb_pair {
    unsigned link, kind, other;
} orb_pair;
unsigned orb_pairs(const orb_scene *s, unsigned flags, orb_pair *out, unsigned cap);

/* A pair's padded distance (geometric minus both paddings), when it is at most cutoff, else
 * ORB_INF. */
double orb_pair_distance(const orb_scene *s, const orb_pair *p, double cutoff, orb_near *near);

/* Contact verdict of a pair, with a boundary band on the padded distance. */
orc_verdict orb_pair_verdict(const orb_scene *s, const orb_pair *p, double band);

/* Per link: the smallest padded distance to the world (flags' WORLD) and to the links it may not
 * touch (SELF), each with its other and nearest pair; ORB_INF (other UINT32_MAX) when none is
 * at most cutoff. */
typedef struct orb_link_near {
    double world;
    unsigned world_kind, world_other;
    orb_near world_near;
    double self;
    unsigned self_other;
    orb_near self_near;
} orb_link_near;
void orb_link_distances(const orb_scene *s, unsigned link, unsigned flags, double cutoff, orb_link_near *out);

/* The largest |coordinate| of the posed scene (for tolerances). */
double orb_scene_magnitude(const orb_scene *s);

#endif

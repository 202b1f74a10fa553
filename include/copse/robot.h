/* SPDX-License-Identifier: MIT */
/*
 * copse — a robot against its world: links on a kinematic tree, one call per configuration.
 *
 * A robot is its links (each with an optional collision mesh, which copse builds a BVH over, and
 * an optional set of spheres and capsules) joined by URDF joints (fixed, revolute, continuous,
 * prismatic; mimic joints), with an allowed-collision matrix. copse_robot_build lays all of it out
 * in one caller buffer — the meshes copied in, their trees built there — in the same flat form a
 * robot blob has (copse_robot_save / copse_robot_view, docs/format.md), so a robot baked on the
 * host is queried from flash with no RAM beyond the query's stack.
 *
 * Frames: each link has its own frame (URDF's); its mesh, spheres and capsules are given in it.
 * A joint places its child link's frame in its parent link's frame: origin (URDF xyz + rpy), then
 * the motion about or along its axis (given in the child's frame, as URDF does). The root link is
 * placed in the world by a base pose.
 *
 * Configurations: q holds one value per *variable*: each revolute, continuous or prismatic joint
 * that does not mimic another, in joint order (copse_robot_dof). A mimic joint takes
 * multiplier * q[mimicked] + offset. Angles in radians, lengths in metres (any unit: consistent).
 *
 * Deterministic: forward kinematics runs in float in a fixed order, with copse's own sines
 * (copse/geom.h), so the same q gives the same link poses, bit for bit, on every target.
 */
#ifndef COPSE_ROBOT_H
#define COPSE_ROBOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/arena.h"
#include "copse/bvh.h"
#include "copse/collide.h"
#include "copse/geom.h"
#include "copse/octree.h"
#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COPSE_ROBOT_MAX_LINKS 64u    /* links per robot */
#define COPSE_ROBOT_MAX_SHAPES 1024u /* spheres plus capsules per link */
#define COPSE_ROBOT_NAME_MAX 63u     /* bytes of a link or joint name, without the terminating 0 */
/* The checks' world: every coordinate a placed link (padding included) or a world mesh's frame
 * origin may have. Beyond it the checks' squared distances would overflow float; they refuse
 * such poses with COPSE_ERR_NONFINITE before looking at any pair (see the checks below). */
#define COPSE_ROBOT_MAX_COORD 1.0e18f

typedef enum copse_joint_type {
    COPSE_JOINT_FIXED = 0,
    COPSE_JOINT_REVOLUTE = 1,   /* about the axis, within [lower, upper] */
    COPSE_JOINT_CONTINUOUS = 2, /* about the axis, no limits */
    COPSE_JOINT_PRISMATIC = 3   /* along the axis, within [lower, upper] */
} copse_joint_type;

/* ---- describing a robot (what the host tool makes from a URDF, or a firmware writes) -------- */

typedef struct copse_joint_desc {
    const char *name;        /* may be NULL */
    copse_joint_type type;
    uint32_t parent, child;  /* link indices; each link but the root is the child of one joint */
    copse_vec3 xyz, rpy;     /* URDF <origin>: the child frame at q = 0 in the parent's frame */
    copse_vec3 axis;         /* URDF <axis>, any non-zero length (normalised); ignored if fixed */
    float lower, upper;      /* URDF <limit> (revolute, prismatic) */
    int32_t mimic;           /* the joint index this one mimics, or -1 */
    float multiplier, offset;/* mimic: value = multiplier * value(mimic) + offset */
} copse_joint_desc;

typedef struct copse_link_desc {
    const char *name;               /* may be NULL */
    const copse_mesh *mesh;         /* its collision mesh in its frame, or NULL: copied, a BVH built */
    const copse_sphere *spheres;    /* in its frame; may be NULL with sphere_count 0 */
    uint32_t sphere_count;
    const copse_capsule *capsules;  /* in its frame */
    uint32_t capsule_count;
    float padding;                  /* every check grows the link by this much (>= 0) */
} copse_link_desc;

/* A pair of links that may touch without it counting (an SRDF <disable_collisions>). */
typedef struct copse_link_pair {
    uint32_t a, b;
} copse_link_pair;

typedef struct copse_robot_desc {
    const copse_link_desc *links;
    uint32_t link_count;
    const copse_joint_desc *joints;
    uint32_t joint_count;
    const copse_link_pair *allowed;  /* pairs allowed to touch, besides adjacent links */
    uint32_t allowed_count;
    copse_bvh_params tree_params;    /* for the link meshes' trees: COPSE_BVH_PARAMS_DEFAULT */
    uint32_t flags;                  /* COPSE_ROBOT_CHECK_ADJACENT */
} copse_robot_desc;

/* Links joined by a joint are allowed to touch (MoveIt's default for links that always do)
 * unless this flag asks for them to be checked too. */
#define COPSE_ROBOT_CHECK_ADJACENT 1u

/* ---- the robot -------------------------------------------------------------------------------- */

/* A robot, built in an arena or viewed in a blob. The fields are the sections of its flat layout
 * (src/robot/robot_internal.h, docs/format.md "Robot"); read them through the functions below. */
typedef struct copse_robot {
    const uint32_t *data;     /* the whole layout (4-byte words), in the arena or the blob */
    size_t bytes;
    uint32_t link_count, joint_count, dof;
    uint32_t tree_count;      /* links with a mesh */
    const void *links;        /* robot_link[link_count] */
    const void *joints;       /* robot_joint[joint_count] */
    const void *shapes;       /* robot_shape[]: every link's spheres, then its capsules */
    const void *trees;        /* robot_tree[tree_count]: the link meshes' BVHs and meshes */
    const uint32_t *order;    /* joints parents first: the forward kinematics' order */
    const uint32_t *names;    /* packed names */
    const uint32_t *acm;      /* allowed-collision bits, link_count rows of acm_words words */
    uint32_t *acm_writable;   /* the same bits on a built robot (NULL on a view) */
    uint32_t acm_words;
    float reach;              /* the farthest any link, padding included, reaches from its frame's
                                 origin (its bounding sphere's centre distance plus radius) */
    bool read_only;           /* a view of a blob: copse_robot_allow returns COPSE_ERR_READ_ONLY */
} copse_robot;

/* Exact arena bytes copse_robot_build takes (the robot keeps all of it but the trees' build
 * scratch, which it gives back); SIZE_MAX for a description it would refuse. */
size_t copse_robot_build_bytes(const copse_robot_desc *desc);

/* Validates the description (NULL, PARAM: a link that is no joint's child but the root, a
 * cycle, two roots, a mimic of a fixed or mimicking joint, a zero axis, lower > upper, a name
 * too long, too many links; NONFINITE; the BVH builder's statuses for a mesh; NOMEM; CONFIG) and lays
 * the robot out in the arena.
 * Work: the description is validated and sized first, O(links + joints + allowed pairs + shapes +
 * mesh vertices and triangles); the exact bytes (copse_robot_build_bytes) are checked against the
 * arena before anything is laid out (NOMEM at once). Then each mesh's BVH is built (bvh.h's bound)
 * and, for a link with both a mesh and shapes, every triangle corner is tested against its shapes
 * (ROBOT_LINK_SHAPES_BOUND): O(triangles * shapes) for that link.
 * Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, DEGENERATE, TOO_LARGE, ALIGN, CONFIG. */
copse_status copse_robot_build(copse_robot *robot, copse_arena *arena, const copse_robot_desc *desc);

/* The number of variables of q. */
uint32_t copse_robot_dof(const copse_robot *robot);

/* A link's or joint's name, copied with its 0 into buf[0, cap) (an empty string when it has
 * none). NULL, INDEX, NOMEM (cap too short: nothing written).
 * Statuses: OK, NULL, NOMEM, INDEX. */
copse_status copse_robot_link_name(const copse_robot *robot, uint32_t link, char *buf, size_t cap);
copse_status copse_robot_joint_name(const copse_robot *robot, uint32_t joint, char *buf, size_t cap);
/* The link or joint with that name, or COPSE_NONE. */
uint32_t copse_robot_find_link(const copse_robot *robot, const char *name);
uint32_t copse_robot_find_joint(const copse_robot *robot, const char *name);

/* A link's parts as the queries see them: its mesh's tree (a view filled into *tree, empty when
 * it has none) and its spheres and capsules, in its frame.
 * Statuses: OK, NULL, INDEX. */
copse_status copse_robot_link_tree(const copse_robot *robot, uint32_t link, copse_bvh *tree);
uint32_t copse_robot_link_spheres(const copse_robot *robot, uint32_t link, copse_sphere *out, uint32_t capacity);
uint32_t copse_robot_link_capsules(const copse_robot *robot, uint32_t link, copse_capsule *out, uint32_t capacity);

/* What a link and a joint are, as the robot holds them (built or viewed): NULL, INDEX. On error
 * *out is zeroed (ids COPSE_NONE). */
typedef struct copse_robot_link_info {
    uint32_t parent_joint; /* COPSE_NONE for the root */
    float padding;
    bool shapes_bound;     /* its spheres and capsules hold its mesh: checks may prune with them */
} copse_robot_link_info;

typedef struct copse_robot_joint_info {
    copse_joint_type type;
    uint32_t parent, child; /* links */
    uint32_t variable;      /* its value's index in q; COPSE_NONE for fixed and mimic joints */
    uint32_t mimic;         /* the joint it follows (value = multiplier * that + offset), COPSE_NONE */
    float multiplier, offset;
    float lower, upper;     /* continuous: -FLT_MAX, FLT_MAX; fixed: 0, 0 */
    copse_vec3 axis;        /* unit, in the child's frame; 0 for fixed */
    copse_pose origin;      /* the child's frame at value 0 in the parent's */
} copse_robot_joint_info;

copse_status copse_robot_link_info_get(const copse_robot *robot, uint32_t link, copse_robot_link_info *out);
copse_status copse_robot_joint_info_get(const copse_robot *robot, uint32_t joint, copse_robot_joint_info *out);

/* Variable i's joint and limits (continuous: -inf..inf as -FLT_MAX..FLT_MAX). */
copse_status copse_robot_variable(const copse_robot *robot, uint32_t i, uint32_t *joint, float *lower, float *upper);

/* The allowed-collision matrix: may links a and b touch? Set on a built robot (READ_ONLY on a
 * view). */
bool copse_robot_allowed(const copse_robot *robot, uint32_t a, uint32_t b);
/* Statuses: OK, NULL, INDEX, READ_ONLY. */
copse_status copse_robot_allow(copse_robot *robot, uint32_t a, uint32_t b, bool allowed);

/* Forward kinematics: every link's pose in the world (link_count poses), from q (dof values) and
 * the root's pose (NULL: identity). NONFINITE; PARAM for a value outside its joint's limits
 * (beyond a relative 1e-6 of the range: the caller's clamping rounds).
 * Statuses: OK, NULL, PARAM, NONFINITE, INDEX. */
copse_status copse_robot_fk(const copse_robot *robot, const float *q, const copse_pose *base, copse_pose *link_poses);

/* ---- the world ---------------------------------------------------------------------------------- */

typedef struct copse_world_mesh {
    const copse_bvh *tree;  /* a BVH over a triangle mesh in its own frame */
    copse_pose pose;        /* its frame in the world */
} copse_world_mesh;

typedef enum copse_object_kind { COPSE_OBJECT_BOX = 0, COPSE_OBJECT_SPHERE = 1 } copse_object_kind;

/* A moving object: an oriented box or a sphere, in the world. */
typedef struct copse_world_object {
    uint32_t kind;        /* copse_object_kind */
    copse_obb box;        /* COPSE_OBJECT_BOX */
    copse_sphere sphere;  /* COPSE_OBJECT_SPHERE */
} copse_world_object;

typedef struct copse_world {
    const copse_world_mesh *meshes;   /* static meshes, each with its pose */
    uint32_t mesh_count;
    const copse_octree *scan;         /* a point cloud in the world's frame, or NULL */
    float scan_padding;               /* scan points count as balls of this radius */
    const copse_world_object *objects;/* moving objects, indexed by the loose octree's ids */
    uint32_t object_count;
    const copse_loose *object_tree;   /* their boxes' broadphase (ids = indices), or NULL: all tested */
} copse_world;

/* ---- one call per configuration ----------------------------------------------------------------- */

/* What a contact is between. */
typedef enum copse_contact_kind {
    COPSE_CONTACT_NONE = 0,
    COPSE_CONTACT_SELF = 1,   /* two links of the robot */
    COPSE_CONTACT_MESH = 2,   /* a link and a world mesh */
    COPSE_CONTACT_SCAN = 3,   /* a link and a scan point */
    COPSE_CONTACT_OBJECT = 4  /* a link and a moving object */
} copse_contact_kind;

typedef struct copse_robot_contact {
    uint32_t kind;      /* copse_contact_kind */
    uint32_t link;      /* the robot's link */
    uint32_t other;     /* the other link, world mesh, or object index; 0 for the scan */
    uint32_t prim;      /* the link's triangle (COPSE_NONE when its spheres or capsules decided) */
    uint32_t other_prim;/* the other's triangle or point id (COPSE_NONE for objects) */
    copse_vec3 point;   /* a point of the contact, world frame */
} copse_robot_contact;

/* What to check. */
#define COPSE_ROBOT_SELF 1u         /* link against link (the allowed matrix aside) */
#define COPSE_ROBOT_WORLD 2u        /* links against the world */
#define COPSE_ROBOT_NO_SHAPES 4u    /* skip the sphere/capsule pre-test (same answers, slower) */
#define COPSE_ROBOT_CHECK_DEFAULT (COPSE_ROBOT_SELF | COPSE_ROBOT_WORLD)

/* The checks' argument rules, the same for every check and decided before any pair, so a status
 * never depends on where a call stops (collides stops at its first contact, contacts does not):
 * NULL (robot, link_poses, outputs; world, its meshes' trees, meshes or objects arrays under
 * COPSE_ROBOT_WORLD); PARAM (unknown flags; a negative scan_padding; an object of another kind);
 * NONFINITE (a pose that is not finite, a scan_padding or object that is not); a pose's own
 * copse_pose_check status; a world tree's (DIMENSION, KIND, TOO_DEEP); an object's (EMPTY_RANGE:
 * a negative radius; copse_obb_check); and NONFINITE for a link pose whose translation puts its
 * link beyond COPSE_ROBOT_MAX_COORD (|translation| + reach in any coordinate) or a world mesh
 * pose whose translation is beyond it. The cost is O(links + meshes + objects) a call. */

/* In collision at these link poses? *first gets the first contact found (kind NONE: clear).
 * Statuses: OK, NULL, PARAM, NONFINITE, INDEX, DIMENSION, KIND, EMPTY_RANGE, TOO_DEEP. */
copse_status copse_robot_collides(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                  uint32_t flags, copse_robot_contact *first);

/* Every contact, one per touching (link, other) pair, up to capacity (*count, *truncated). */
copse_status copse_robot_contacts(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                  uint32_t flags, copse_robot_contact *contacts, uint32_t capacity, uint32_t *count,
                                  bool *truncated);

/* Per link: its smallest distance to the world and to the other links (not allowed to touch),
 * paddings taken off, with the closest points; only distances up to max_distance are sought
 * (FLT_MAX: all). */
typedef struct copse_link_distance {
    float world;               /* FLT_MAX when nothing is within max_distance */
    copse_robot_contact world_nearest; /* kind, other, prims; point: on the link */
    copse_vec3 world_point;    /* on the world */
    float self;
    copse_robot_contact self_nearest;
    copse_vec3 self_point;     /* on the other link */
} copse_link_distance;

copse_status copse_robot_distances(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                   uint32_t flags, float max_distance, copse_link_distance *per_link);

/* A motion from q0 to q1 (straight in joint space), a sweep of the robot: *t is the first
 * fraction of it in [0, 1] (the sweeps' t, collide.h) at which it collides, checking configurations at most max_step apart in every variable (OMPL's
 * longest-valid-segment rule), in order from q0. *t = 1 and contact kind NONE: clear.
 * Discrete: a collision between two checked configurations closer than max_step can be
 * missed; copse_robot_motion_continuous cannot miss one. PARAM: max_step <= 0, or more than
 * COPSE_ROBOT_MAX_CHECKS configurations. link_poses: the caller's link_count poses (both
 * motions' scratch for forward kinematics); on return, the last configuration checked (the
 * one at *t, except after COPSE_ERR_LIMIT or another error). */
#define COPSE_ROBOT_MAX_CHECKS 1000000u
copse_status copse_robot_motion(const copse_robot *robot, const copse_world *world, const float *q0, const float *q1,
                                const copse_pose *base, copse_pose *link_poses, float max_step, uint32_t flags,
                                float *t, copse_robot_contact *contact);

/* The same motion, certified by conservative advancement (Schwarzer, Saha and Latombe's exact
 * motion check): at each checked configuration the links' distances (to the world, and to each
 * other under SELF) bound how far the motion may go before any point of a link could have moved
 * that far -- each joint's change times the link's reach from that joint's axis, summed along
 * its chain -- so no collision between two checks can be missed, for meshes and shapes alike.
 * A configuration closer than min_clearance (> 0) counts as a collision: *t is where, and
 * *contact the nearest pair there. PARAM: min_clearance <= 0 or max_checks 0; COPSE_ERR_LIMIT
 * when max_checks configurations did not certify the whole motion (*t: the certified
 * prefix, contact kind NONE).
 * Statuses: OK, NULL, PARAM, NONFINITE, INDEX, DIMENSION, KIND, EMPTY_RANGE, TOO_DEEP, LIMIT. */
copse_status copse_robot_motion_continuous(const copse_robot *robot, const copse_world *world, const float *q0,
                                           const float *q1, const copse_pose *base, copse_pose *link_poses,
                                           float min_clearance, uint32_t max_checks, uint32_t flags,
                                           float *t, copse_robot_contact *contact);

/* ---- bake on the host, query from flash -------------------------------------------------------- */

size_t copse_robot_save_bytes(const copse_robot *robot);
/* Statuses: OK, NULL, NOMEM, PARAM, NONFINITE, INDEX, TOO_DEEP, TOO_LARGE. */
copse_status copse_robot_save(const copse_robot *robot, void *buf, size_t cap, size_t *written);
/* Statuses: OK, NULL, PARAM, NONFINITE, INDEX, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER,
 * BLOB_VERSION, BLOB_KIND, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER, BLOB_NODE, BLOB_PRIM,
 * BLOB_BOUNDS, BLOB_DEPTH, TOO_DEEP. */
copse_status copse_robot_view(copse_robot *robot, const void *blob, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_ROBOT_H */

/* SPDX-License-Identifier: MIT */
/*
 * The robot's flat layout: what copse_robot_build lays out in its arena and a robot blob holds
 * (docs/format.md, "Robot"). Every field is a 4-byte word (the blob rule that lets one converter
 * serve every kind); offsets are in words from the start of the layout, so the same bytes work
 * in RAM and in flash.
 *
 *   links[link_count]     robot_link
 *   joints[joint_count]   robot_joint
 *   order[joint_count]    joint indices, each joint after the one that places its parent link
 *   shapes[]              robot_shape: link 0's spheres then capsules, link 1's, ...
 *   trees[tree_count]     robot_tree: where each mesh's BVH and vertices are
 *   acm[link_count * acm_words]  bit b of row a: links a and b may touch
 *   names[]               packed names (robot_name_*)
 *   per tree: nodes (copse_bvh_node3), prims (u32), positions (3 floats a vertex), indices (3 u32 a
 *   triangle)
 */
#ifndef COPSE_ROBOT_INTERNAL_H
#define COPSE_ROBOT_INTERNAL_H

#include "copse/robot.h"
#include "../geom/geom_internal.h"

/* robot_link.flags: every triangle of the link's mesh lies inside one of its spheres or capsules
 * (checked at build: all three corners in one of them), so they may prune the mesh's tests. */
#define ROBOT_LINK_SHAPES_BOUND 1u

typedef struct robot_link {
    uint32_t parent_joint; /* the joint whose child it is; COPSE_NONE for the root */
    uint32_t name;         /* word offset of its name in names[], COPSE_NONE for none */
    uint32_t shape_first;  /* its first shape in shapes[] */
    uint32_t sphere_count; /* spheres, then capsules, from shape_first */
    uint32_t capsule_count;
    uint32_t tree;         /* its mesh's index in trees[], COPSE_NONE for none */
    uint32_t flags;        /* ROBOT_LINK_* */
    float padding;
} robot_link;

typedef struct robot_joint {
    uint32_t type;         /* copse_joint_type */
    uint32_t parent, child;/* links */
    uint32_t name;
    float rotation[9];     /* origin: row-major, a rotation */
    float translation[3];
    float axis[3];         /* unit, in the child's (joint) frame */
    float lower, upper;    /* limits; continuous: -FLT_MAX, FLT_MAX */
    uint32_t var;          /* its variable in q, COPSE_NONE for fixed and mimic joints */
    uint32_t mimic;        /* the joint it mimics, COPSE_NONE for none */
    float multiplier, offset;
} robot_joint;

/* A sphere (a == b) or a capsule, in its link's frame. */
typedef struct robot_shape {
    float a[3], b[3];
    float radius;
} robot_shape;

/* A link mesh: its BVH's arrays and its vertices, word offsets into the layout. */
typedef struct robot_tree {
    uint32_t link;
    uint32_t nodes, node_count;      /* copse_bvh_node3[node_count] */
    uint32_t prims, prim_count;      /* uint32_t[prim_count] */
    uint32_t depth, degenerate_count;
    uint32_t positions, vertex_count;/* float[3 * vertex_count] */
    uint32_t indices, triangle_count;/* uint32_t[3 * triangle_count] */
} robot_tree;

COPSE_INLINE const robot_link *robot_link_at(const copse_robot *r, uint32_t i)
{
    return (const robot_link *)r->links + i;
}

COPSE_INLINE const robot_joint *robot_joint_at(const copse_robot *r, uint32_t i)
{
    return (const robot_joint *)r->joints + i;
}

COPSE_INLINE const robot_shape *robot_shape_at(const copse_robot *r, uint32_t i)
{
    return (const robot_shape *)r->shapes + i;
}

COPSE_INLINE const robot_tree *robot_tree_at(const copse_robot *r, uint32_t i)
{
    return (const robot_tree *)r->trees + i;
}

/* Are links a and b allowed to touch (never checked against each other)? */
COPSE_INLINE bool robot_acm_get(const copse_robot *r, uint32_t a, uint32_t b)
{
    return ((r->acm[(size_t)a * r->acm_words + (b >> 5)] >> (b & 31u)) & 1u) != 0u;
}

/* Names: at a name's offset, a word with its length in bytes, then ceil(length / 4) words, each
 * holding 4 bytes by value (byte k of the name in bits 8k..8k+7): readable on any host, and a
 * blob's byte-order conversion keeps it. */
COPSE_INLINE uint32_t robot_name_length(const copse_robot *r, uint32_t offset)
{
    return r->names[offset];
}

COPSE_INLINE char robot_name_char(const copse_robot *r, uint32_t offset, uint32_t k)
{
    return (char)((r->names[offset + 1u + (k >> 2)] >> (8u * (k & 3u))) & 0xFFu);
}


/* ---- shared by the model's files (robot_build.c, robot_fk.c, robot_blob.c) -------------------- */

/* Words of each layout record (all 4-byte fields, no padding: checked in robot_build.c). */
#define ROBOT_LINK_WORDS 8u
#define ROBOT_JOINT_WORDS 25u
#define ROBOT_SHAPE_WORDS 7u
#define ROBOT_TREE_WORDS 11u
#define ROBOT_NODE_WORDS 8u /* copse_bvh_node3 */

/* The counts that place the fixed sections (links .. names); the per-tree arrays follow them. */
typedef struct robot_counts {
    uint32_t link_count, joint_count, dof, tree_count, shape_count, names_words;
} robot_counts;

/* Word offset of the first per-tree array (the end of names[]), from the counts; the fixed
 * sections' offsets are links 0, then each after the previous in the order above. */
uint32_t copse__robot_fixed_words(const robot_counts *c);

/* Points robot's fields into `data` (the layout, `bytes` long) for these counts; `writable` is
 * the same layout for a built robot (acm_writable points into it), NULL for a view (read_only). */
void copse__robot_point(copse_robot *robot, const uint32_t *data, size_t bytes, const robot_counts *c, uint32_t *writable);

/* Does one of link l's shapes hold all three corners of every triangle of tree t (its mesh)?
 * A true bound in real numbers, decided in float (robot_build.c); what ROBOT_LINK_SHAPES_BOUND
 * records, and what a view recomputes. */
bool copse__robot_shapes_bound(const copse_robot *robot, const robot_link *l, const robot_tree *t);

/* Tree t's BVH over its mesh, as a view into the layout. */
void copse__robot_tree_view(const copse_robot *robot, uint32_t t, copse_bvh *out);

/* ---- shared by the checks (robot_check.c) and the motions (robot_motion.c) -------------------- */

/* A link's bounding sphere in its frame: its mesh's root box, else its shapes' box (radius < 0:
 * it has neither). */
void copse__robot_link_sphere(const copse_robot *robot, uint32_t link, float center[3], float *radius);

/* copse_robot.reach: the largest |centre| + radius + padding of the links' bounding spheres
 * (copse__robot_link_sphere), in their frames; set by the build and the view. */
float copse__robot_reach(const copse_robot *robot);

/* The checks' argument rules (robot.h): everything a pair could refuse, decided before any pair
 * so that no status depends on where a call stops; link poses and world mesh poses within
 * COPSE_ROBOT_MAX_COORD. */
copse_status copse__robot_check_begin(const copse_robot *robot, const copse_world *world, const copse_pose *poses,
                               uint32_t flags);

/* A contact that names nothing: what every check and motion leaves on error or when clear. */
COPSE_INLINE void robot_contact_empty(copse_robot_contact *c)
{
    c->kind = COPSE_CONTACT_NONE;
    c->link = COPSE_NONE;
    c->other = COPSE_NONE;
    c->prim = COPSE_NONE;
    c->other_prim = COPSE_NONE;
    c->point = copse_v3(0.0f, 0.0f, 0.0f);
}

/* The nearest thing to a link, paddings off (FLT_MAX: nothing within max_distance). */
typedef struct robot_near {
    float distance;
    copse_robot_contact contact; /* point: on contact.link */
    copse_vec3 other_point;
} robot_near;

/* Link against the world, and link a against link b (from a's side); arguments checked. */
copse_status copse__robot_world_nearest(const copse_robot *robot, const copse_world *world, const copse_pose *poses,
                                 uint32_t flags, uint32_t link, float max_distance, robot_near *out);
copse_status copse__robot_pair_nearest(const copse_robot *robot, const copse_pose *poses, uint32_t flags, uint32_t a,
                                uint32_t b, float max_distance, robot_near *out);

#endif /* COPSE_ROBOT_INTERNAL_H */

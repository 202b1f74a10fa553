/* SPDX-License-Identifier: MIT */
/*
 * A procedural robot cell for the copse arm demo: a 6-joint arm with a two-finger gripper, and
 * its world (a table, pillars, a shelf, moving objects, a scanned fence), all generated in code
 * from boxes and prisms: no data file.
 *
 * Axes as in URDF: z is up, the floor is the plane z = 0 (not in any mesh: it would be every
 * link's nearest obstacle), the arm's pedestal stands at the origin.
 *
 * Two sizes: the default cell, and with DEMO_SMALL=1 a cell that fits a 16 KB micro:bit with its
 * 4 KB stack: an arm of capsules alone (no link meshes: a mesh against a mesh takes more stack),
 * prisms of 6 sides, a table without legs, one pillar, no shelf and no scan.
 */
#ifndef ARM_CELL_H
#define ARM_CELL_H

#include <stdint.h>

#include "copse/copse.h"
#include "copse/robot.h"

#ifndef DEMO_SMALL
#define DEMO_SMALL 0
#endif

/* ---- the arm ------------------------------------------------------------------------------------
 * base (pedestal) -pan(z)- shoulder -lift(y)- upper_arm -elbow(y)- forearm -wrist_pitch(y)- wrist
 * -wrist_roll(z, continuous)- flange -hand_pitch(y)- hand -finger_l(prismatic y)- finger_l
 *                                                       -finger_r(mimic: -finger_l)- finger_r    */
enum {
    L_BASE, L_SHOULDER, L_UPPER, L_FOREARM, L_WRIST, L_FLANGE, L_HAND, L_FINGER_L, L_FINGER_R,
    ARM_LINKS
};
#define ARM_JOINTS (ARM_LINKS - 1)
#define ARM_DOF 7 /* six revolute joints and the gripper's opening (finger_r mimics finger_l) */

#if DEMO_SMALL
#define PRISM_SIDES 6
#else
#define PRISM_SIDES 8
#endif
#define PRISM_VERTS (2 * PRISM_SIDES)
#define PRISM_TRIS (4 * PRISM_SIDES - 4) /* sides, and each cap as a fan */
#define BOX_VERTS 8
#define BOX_TRIS 12

/* Link meshes: four prisms (pedestal, upper arm, forearm, flange) and five boxes (shoulder,
 * wrist, palm, two fingers): exact counts for the pool. The small arm has none: each link is a
 * capsule (a ball for the cube-like ones). */
#if DEMO_SMALL
#define ARM_MESHES 0
#define ARM_PRISMS 0
#define ARM_BOXES 0
#else
#define ARM_MESHES 1
#define ARM_PRISMS 4
#define ARM_BOXES 5
#endif
#define ARM_VERTS (ARM_PRISMS * PRISM_VERTS + ARM_BOXES * BOX_VERTS)
#define ARM_TRIS (ARM_PRISMS * PRISM_TRIS + ARM_BOXES * BOX_TRIS)

/* ---- the world ---------------------------------------------------------------------------------- */
#if DEMO_SMALL
#define TABLE_BOXES 1 /* the top only */
#define SHELF_BOXES 0
#define PILLARS 1
#define SCAN_POINTS 0
#else
#define TABLE_BOXES 5 /* the top and four legs */
#define SHELF_BOXES 5 /* two sides and three boards */
#define PILLARS 2
#define SCAN_X 16 /* a scanned safety fence: a grid of points */
#define SCAN_Z 12
#define SCAN_POINTS (SCAN_X * SCAN_Z)
#endif
#define WORLD_MESHES (1 + PILLARS + (SHELF_BOXES > 0)) /* table, pillars (one tree), shelf */
#define WORLD_TREES (2 + (SHELF_BOXES > 0))
#define WORLD_VERTS ((TABLE_BOXES + SHELF_BOXES) * BOX_VERTS + PRISM_VERTS)
#define WORLD_TRIS ((TABLE_BOXES + SHELF_BOXES) * BOX_TRIS + PRISM_TRIS)
#define WORLD_OBJECTS 3 /* tote (box), ball (sphere), crate (box) */

/* A slice of a vertex and index pool, filled part by part. */
typedef struct mesh_builder {
    float *pos;      /* the pool's next free vertex */
    uint16_t *idx;   /* ... and triangle */
    uint32_t nverts, ntris;
} mesh_builder;

/* The arm: link meshes (written into pos/idx, ARM_VERTS and ARM_TRIS), shapes and joints.
 * desc points into `storage`, which must outlive copse_robot_build. */
typedef struct arm_storage {
    copse_link_desc links[ARM_LINKS];
    copse_joint_desc joints[ARM_JOINTS];
    copse_mesh meshes[ARM_LINKS];
    copse_sphere spheres[ARM_LINKS];
    copse_capsule capsules[ARM_LINKS];
    copse_link_pair allowed[3];
} arm_storage;

void arm_describe(arm_storage *s, float *pos, uint16_t *idx, copse_robot_desc *desc);

/* The cell's static meshes (WORLD_TREES of them into pos/idx): index 0 the table, 1 the pillar,
 * 2 the shelf; where each stands (WORLD_MESHES poses, with the tree each one uses); names. */
void cell_meshes(float *pos, uint16_t *idx, copse_mesh *meshes);
void cell_placements(copse_pose *poses, uint32_t *tree_of);
const char *cell_mesh_name(uint32_t world_mesh);

/* The moving objects at time s (0 at the start of the trajectory, 1 at its end). */
void cell_objects(float s, copse_world_object *objects);
const char *cell_object_name(uint32_t object);

#if SCAN_POINTS > 0
void cell_scan(copse_vec3 *points);
#endif

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A procedural warehouse for the copse demo: walls, pillars, racks full of boxes
 * and a few loose crates, generated in code (no data files) into static arrays.
 *
 * Axes as in Recast: y is up, the floor is the plane y = 0, x and z span the room.
 * The floor is NOT in the mesh: robots treat the ground plane analytically (ground
 * segmentation), and a floor under everything would be the "nearest obstacle" of
 * every pose. The mesh holds what a robot can bump into.
 *
 * Every count is a compile-time constant, so the BVH's storage can be a static
 * array sized with COPSE_BVH_BUILD_BYTES(SCENE_TRIS, leaf) — no malloc anywhere.
 *
 * Two sizes: the default room for Cortex-M4/M7 boards, and with DEMO_SMALL=1 a
 * smaller room that fits a 16 KB micro:bit together with its tree.
 */
#ifndef DEMO_SCENE_H
#define DEMO_SCENE_H

#include <stdint.h>

#include "copse/copse.h"

#ifndef DEMO_SMALL
#define DEMO_SMALL 0
#endif

/* ---- layout knobs ---------------------------------------------------------------------------- */
#if DEMO_SMALL
#define ROOM_X 12.0f      /* metres along x */
#define ROOM_Z 8.0f       /* metres along z */
#define WALL_TILES_X 1    /* wall panels along an x wall */
#define WALL_TILES_Z 1    /* wall panels along a z wall */
#define RACK_ROWS 1       /* rows of racks, parallel to x */
#define RACK_BAYS 2       /* bays per row */
#define RACK_LEVELS 2     /* shelves per bay */
#define BOXES_PER_SHELF 1 /* boxes on each shelf of each bay */
#define PILLARS 1
#define CRATES 1
#else
#define ROOM_X 24.0f
#define ROOM_Z 16.0f
#define WALL_TILES_X 6
#define WALL_TILES_Z 4
#define RACK_ROWS 3
#define RACK_BAYS 4
#define RACK_LEVELS 3
#define BOXES_PER_SHELF 2
#define PILLARS 4
#define CRATES 3
#endif
#define ROOM_Y 5.0f         /* wall height */
#define PILLAR_SIDES 8      /* pillars are octagonal prisms (scene.c has the 8 corners) */

/* ---- what the generator emits (exact) -------------------------------------------------------- */
#define SCENE_BOXES_PER_ROW ((RACK_BAYS + 1) + RACK_LEVELS + RACK_BAYS * RACK_LEVELS * BOXES_PER_SHELF)
#define SCENE_BOXES (RACK_ROWS * SCENE_BOXES_PER_ROW + CRATES) /* 8 vertices, 12 triangles each */
#define SCENE_PANELS (2 * (WALL_TILES_X + WALL_TILES_Z))       /* 4 vertices, 2 triangles each */
#define SCENE_TRIS (12 * SCENE_BOXES + 2 * SCENE_PANELS + 2 * PILLAR_SIDES * PILLARS)
#define SCENE_VERTS (8 * SCENE_BOXES + 4 * SCENE_PANELS + 2 * PILLAR_SIDES * PILLARS)

/* What each triangle belongs to: the demo names what the robot is close to. */
typedef enum scene_kind { KIND_WALL, KIND_PILLAR, KIND_RACK, KIND_BOX, KIND_CRATE } scene_kind;

typedef struct scene {
    float pos[3 * SCENE_VERTS];     /* x, y, z per vertex */
    uint16_t idx[3 * SCENE_TRIS];   /* 16-bit indices: SCENE_VERTS < 65536 */
    uint8_t kind[SCENE_TRIS];       /* scene_kind per triangle */
    uint32_t nverts, ntris;
} scene;

/* Fill `s` with the warehouse. Same numbers, bit for bit, on every machine. */
void scene_build(scene *s);

/* The mesh view copse builds over (nothing is copied). */
copse_mesh scene_mesh(const scene *s);

const char *scene_kind_name(scene_kind kind);

#endif

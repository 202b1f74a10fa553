/* SPDX-License-Identifier: MIT */
/*
 * The robot benchmarks' table (make bench-robot): a table in front of the arm's base and a box
 * standing on it, as one triangle mesh in the world frame (z up, the arm's base at the origin, as
 * the URDFs place it). The host bench adds shared meshes around it; the firmware bakes exactly
 * this mesh (bench/robot_world_stl.c -> copse bake) so both measure against the same table.
 *
 * Plain C99, no I/O, no allocation: builds for the host and for every board.
 */
#ifndef COPSE_BENCH_ROBOT_SCENE_H
#define COPSE_BENCH_ROBOT_SCENE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ROBOT_SCENE_BOXES 6u /* the table's top and four legs, the box on it */
#define ROBOT_SCENE_VERTICES (8u * ROBOT_SCENE_BOXES)
#define ROBOT_SCENE_TRIANGLES (12u * ROBOT_SCENE_BOXES)

/* Box b of the scene (b < ROBOT_SCENE_BOXES): centre and half extents, metres. */
void robot_scene_box(uint32_t b, float center[3], float half[3]);

/* Fills pos (3 floats a vertex, ROBOT_SCENE_VERTICES) and idx (3 a triangle, ROBOT_SCENE_TRIANGLES),
 * triangles wound outwards. */
void robot_scene_table(float *pos, uint32_t *idx);

#ifdef __cplusplus
}
#endif

#endif

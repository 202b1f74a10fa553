/* SPDX-License-Identifier: MIT */
/* The list of suites. Add a suite: write tests/test_<name>.c with suite_<name>() and list it
 * here with its part; suites that need files or host libraries go in tests/host/ and
 * COPSE_HOST_SUITES.
 *
 * Parts: a board short of flash (the micro:bit) runs the suites as one image per part
 * (boards/<b>/board.mk TEST_PARTS), each linking only its own suites and library modules.
 * Everywhere else one image runs every part (COPSE_TEST_PART 0). */
#ifndef COPSE_SUITES_H
#define COPSE_SUITES_H

#define COPSE_PART_CORE_BVH 1
#define COPSE_PART_BLOB 2
#define COPSE_PART_OCTREE 3
#define COPSE_PART_BSP 4
#define COPSE_PART_SAME_BYTES 5 /* every builder: tests/test_same_bytes.c */
#define COPSE_PART_GEOM 6       /* poses and the collision kernels: tests/test_geom_*.c */
#define COPSE_PART_COLLIDE 7    /* posed shapes and meshes against a BVH: tests/test_collide_{bvh,pair}.c */
#define COPSE_PART_COLLIDE_SCAN 8 /* against a point octree, and sweeps: tests/test_collide_{octree,sweep}.c */
#define COPSE_PART_ROBOT 9        /* robots: tests/test_robot_{model,check}.c */
#define COPSE_PART_HOSTILE 10     /* hostile input: the findings' regressions, tests/test_hostile_findings.c */
#define COPSE_PART_HOSTILE_COLLIDE 11 /* ... those in the collision kernels and the robot; config.h's check */

#define COPSE_SUITES \
    COPSE_SUITE(core, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(bvh_build, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(bvh_query, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(bvh_edge, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(bvh_errors, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(blob, COPSE_PART_BLOB) \
    COPSE_SUITE(blob_octree, COPSE_PART_BLOB) \
    COPSE_SUITE(octree_point, COPSE_PART_OCTREE) \
    COPSE_SUITE(octree_loose, COPSE_PART_OCTREE) \
    COPSE_SUITE(bsp2, COPSE_PART_BSP) \
    COPSE_SUITE(bsp3, COPSE_PART_BSP) \
    COPSE_SUITE(blob_bsp, COPSE_PART_BSP) \
    COPSE_SUITE(same_bytes, COPSE_PART_SAME_BYTES) \
    COPSE_SUITE(geom_pose, COPSE_PART_GEOM) \
    COPSE_SUITE(geom_exact, COPSE_PART_GEOM) \
    COPSE_SUITE(geom_closest, COPSE_PART_GEOM) \
    COPSE_SUITE(geom_sweep, COPSE_PART_GEOM) \
    COPSE_SUITE(collide_bvh, COPSE_PART_COLLIDE) \
    COPSE_SUITE(collide_pair, COPSE_PART_COLLIDE) \
    COPSE_SUITE(collide_octree, COPSE_PART_COLLIDE_SCAN) \
    COPSE_SUITE(collide_sweep, COPSE_PART_COLLIDE_SCAN) \
    COPSE_SUITE(robot_model, COPSE_PART_ROBOT) \
    COPSE_SUITE(robot_check, COPSE_PART_ROBOT) \
    COPSE_SUITE(hostile_findings, COPSE_PART_HOSTILE) \
    COPSE_SUITE(hostile_collide, COPSE_PART_HOSTILE_COLLIDE) \
    COPSE_SUITE(config, COPSE_PART_HOSTILE_COLLIDE)

/* COPSE_NO_HOST_SUITES: a host build without the data files and assimp (mk/bigendian.mk). */
#if defined(COPSE_HOST) && !defined(COPSE_NO_HOST_SUITES)
#define COPSE_HOST_SUITES \
    COPSE_SUITE(bvh_meshes, COPSE_PART_CORE_BVH) \
    COPSE_SUITE(octree_scan, COPSE_PART_OCTREE) \
    COPSE_SUITE(bsp_meshes, COPSE_PART_BSP) \
    COPSE_SUITE(collide_robots, COPSE_PART_COLLIDE)
#else
#define COPSE_HOST_SUITES
#endif

#define COPSE_SUITE(name, part) void suite_##name(void);
COPSE_SUITES
COPSE_HOST_SUITES
#undef COPSE_SUITE

#endif

/* SPDX-License-Identifier: MIT */
/*
 * copse — every compile-time setting, in one place.
 *
 * Override any of them for the whole build, library and callers alike, either one by one
 * (-DCOPSE_BVH_MAX_DEPTH=24) or from a header of your own, as littlefs and TinyUSB do:
 * -DCOPSE_CONFIG_FILE='"my_copse_config.h"' (its #defines come first; what it leaves out keeps
 * the default). Each value is checked here: out of range does not compile.
 *
 * The settings that size things a caller computes at compile time (the depth caps, which size
 * the query stacks and the builders' arena bounds, and the SAH bins) are folded into
 * COPSE_CONFIG_SIGNATURE. copse_arena_init records the caller's signature in the arena, and
 * every builder compares it with the library's own: a library and a caller built with
 * different values fail the first build with COPSE_ERR_CONFIG instead of mis-sizing silently.
 *
 * There is no assert policy to choose: copse has no asserts. Every check it makes is always
 * on and ends in a status (status.h), on every build.
 */
#ifndef COPSE_CONFIG_H
#define COPSE_CONFIG_H

#ifdef COPSE_CONFIG_FILE
#include COPSE_CONFIG_FILE
#endif

/* ---- depth caps: the trees' deepest level, and the size of every walk's fixed stack ------------ */

/* BVH levels. Builders guarantee it; queries size their stacks by it (the ordered walks take
 * 8 bytes a level, the mesh-against-mesh walks 2 pending pairs a level) and refuse deeper
 * trees (COPSE_ERR_TOO_DEEP, e.g. a blob baked where the cap was larger). 8..255. */
#ifndef COPSE_BVH_MAX_DEPTH
#define COPSE_BVH_MAX_DEPTH 64u
#endif
#if COPSE_BVH_MAX_DEPTH < 8 || COPSE_BVH_MAX_DEPTH > 255
#error "COPSE_BVH_MAX_DEPTH must be 8..255 (copse_bvh.depth is a byte)"
#endif

/* BSP levels below the root (2D and 3D): the builders' cap and every walk's stack (34 entries
 * at 32). 1..255. */
#ifndef COPSE_BSP_MAX_DEPTH
#define COPSE_BSP_MAX_DEPTH 32u
#endif
#if COPSE_BSP_MAX_DEPTH < 1 || COPSE_BSP_MAX_DEPTH > 255
#error "COPSE_BSP_MAX_DEPTH must be 1..255"
#endif

/* Point octree levels below the root: the largest max_depth a point octree takes, and its
 * queries' stacks (k-nearest keeps 7 * depth + 8 pending cells). 1..24: below 2^-24 of the
 * root a cell's centre no longer moves in float. */
#ifndef COPSE_OCTREE_MAX_DEPTH
#define COPSE_OCTREE_MAX_DEPTH 20u
#endif
#if COPSE_OCTREE_MAX_DEPTH < 1 || COPSE_OCTREE_MAX_DEPTH > 24
#error "COPSE_OCTREE_MAX_DEPTH must be 1..24"
#endif

/* Loose octree levels below the root. 1..COPSE_OCTREE_MAX_DEPTH (the blob reader shares its
 * path buffers with the point octree's). */
#ifndef COPSE_LOOSE_MAX_DEPTH
#define COPSE_LOOSE_MAX_DEPTH 16u
#endif
#if COPSE_LOOSE_MAX_DEPTH < 1 || COPSE_LOOSE_MAX_DEPTH > COPSE_OCTREE_MAX_DEPTH
#error "COPSE_LOOSE_MAX_DEPTH must be 1..COPSE_OCTREE_MAX_DEPTH"
#endif

/* ---- builders ------------------------------------------------------------------------------- */

/* Bins per axis of the binned SAH BVH builder: more bins, better trees, more build scratch
 * (4 * 8 * bins bytes) and time. 2..64. The trees it builds change with it (the same-bytes
 * checksums of tests/test_same_bytes.c are those of 16). */
#ifndef COPSE_BVH_SAH_BINS
#define COPSE_BVH_SAH_BINS 16u
#endif
#if COPSE_BVH_SAH_BINS < 2 || COPSE_BVH_SAH_BINS > 64
#error "COPSE_BVH_SAH_BINS must be 2..64"
#endif

/* ---- code generation: speed against size, never the answers --------------------------------- */

/* 1: the kernels' small helpers are always inlined (the fastest code, the default); 0: plain
 * static inline, the compiler decides (smaller code at -Os). */
#ifndef COPSE_FORCE_INLINE
#define COPSE_FORCE_INLINE 1
#endif
#if COPSE_FORCE_INLINE != 0 && COPSE_FORCE_INLINE != 1
#error "COPSE_FORCE_INLINE must be 0 or 1"
#endif

/* 1: the box tests choose with min/max and selects (no data-dependent branches: the host's
 * SIMD and conditional moves); 0: early-out branches (Cortex-M, where a taken branch costs 1-3
 * cycles and a select several instructions). The default follows the target. */
#ifndef COPSE_BRANCH_FREE
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define COPSE_BRANCH_FREE 0
#else
#define COPSE_BRANCH_FREE 1
#endif
#endif
#if COPSE_BRANCH_FREE != 0 && COPSE_BRANCH_FREE != 1
#error "COPSE_BRANCH_FREE must be 0 or 1"
#endif

/* ---- the signature the library and its callers must share ------------------------------------ */

/* Bits 0-7 the BVH depth, 8-15 the BSP depth, 16-20 the octree depth, 21-25 the loose depth,
 * 26-31 the SAH bins - 1. Never 0 (the BVH depth is at least 8), so 0 can mean "an arena set up
 * by hand, not checked". */
#define COPSE_CONFIG_SIGNATURE                                                                     \
    ((unsigned long)(COPSE_BVH_MAX_DEPTH) | ((unsigned long)(COPSE_BSP_MAX_DEPTH) << 8) |            \
     ((unsigned long)(COPSE_OCTREE_MAX_DEPTH) << 16) | ((unsigned long)(COPSE_LOOSE_MAX_DEPTH) << 21) | \
     ((unsigned long)(COPSE_BVH_SAH_BINS - 1u) << 26))

#endif /* COPSE_CONFIG_H */

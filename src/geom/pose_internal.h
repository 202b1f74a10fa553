/* SPDX-License-Identifier: MIT */
/*
 * Poses for the kernels (src/geom/pose.c): copse's own float sine and cosine, a pose's status
 * as every query sees it, and a pose as the row-major arrays the kernels of geom_collide.h take.
 */
#ifndef COPSE_POSE_INTERNAL_H
#define COPSE_POSE_INTERNAL_H

#include <stddef.h>

#include "geom_internal.h" /* first: its pragma turns FMA contraction off */
#include "copse/geom.h"

/* sin and cos of `angle` (radians), the same bits on every target: no libm (newlib, picolibc and
 * glibc round differently), no FMA, float operations only. For |angle| <= COPSE_MAX_ANGLE the
 * error is below 0.9 ulp of each result (0.882 ulp for sin, 0.884 for cos, measured over every
 * float in that range against the host's double sin and cos; tests/test_geom_pose.c checks 1 ulp
 * on 200 000 angles and the hardest ones). NaN for a larger or non-finite angle. Either pointer
 * may be NULL. About 90 float operations. */
void copse_geo_sincos(float angle, float *s, float *c);

/* The status a query gives its pose argument: OK for NULL (the identity), else copse_pose_check. */
COPSE_INLINE copse_status copse_geo_pose_status(const copse_pose *pose)
{
    return pose == NULL ? COPSE_OK : copse_pose_check(pose);
}

/* r = the rotation row-major (r[3*i + j] = rotation[i][j]), t = the translation; the identity for
 * a NULL pose. */
void copse_geo_pose_arrays(const copse_pose *pose, float r[9], float t[3]);

#endif /* COPSE_POSE_INTERNAL_H */

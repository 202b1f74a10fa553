/* SPDX-License-Identifier: MIT */
/*
 * What the 3D tree's builder and queries share: brush preparation (bsp3_brush.c) and the
 * child codes of the node array.
 */
#ifndef COPSE_BSP3_INTERNAL_H
#define COPSE_BSP3_INTERNAL_H

#include "bsp_internal.h"

/* Planes per brush while building: the input's and up to six bevels. */
#define BSP3_PLANES_MAX (COPSE_BSP3_MAX_SIDES + 6u)
/* A convex polyhedron with F faces has at most 2F - 4 corners. */
#define BSP3_CORNERS(planes) (2u * (planes) - 4u) /* of the input planes; bevels add none */

copse_status copse_bsp3_check_input(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params);
void copse_bsp3_unit_plane(const copse_plane *in, copse_plane *out);

/* The corners of the brush of n unit planes into verts (3 floats each, at most cap): OK,
 * DEGENERATE (no volume) or UNBOUNDED. *tol: the distance under which a corner is on a plane. */
copse_status copse_bsp3_corners(const copse_plane *unit, uint32_t n, float *verts, uint32_t cap, uint32_t *count,
                                float *tol);

/* How far, per unit of expansion, the brush's expanded planes reach beyond the brush: the
 * largest move of a corner when all its planes move out by 1 (at least 1). */
float copse_bsp3_inflation(const copse_plane *planes, uint32_t n, const float *verts, uint32_t nv, float tol);

COPSE_INLINE float bsp3_at(const copse_vec3 *v, unsigned axis)
{
    return axis == 0 ? v->x : (axis == 1 ? v->y : v->z);
}

/* Bevel k (0..5: +x, -x, +y, -y, +z, -z) is needed when no input plane has exactly that
 * axial normal (any length). Decided on the input so that sizes follow from it alone. */
bool copse_bsp3_needs_bevel(const copse_brush *in, unsigned k);
uint32_t copse_bsp3_bevel_count(const copse_brush *in);

COPSE_INLINE bool bsp3_is_node(uint32_t child)
{
    return (child & COPSE_BSP3_LEAF) == 0u;
}

COPSE_INLINE float bsp3_plane_dist(const copse_plane *p, const float *x)
{
    return p->normal.x * x[0] + p->normal.y * x[1] + p->normal.z * x[2] - p->dist;
}

#endif /* COPSE_BSP3_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * What the two BSP trees share: the text writer and the walk of their dumps, the
 * fixed stacks' size, and small validation helpers.
 *
 * A tree describes itself to the dump through two callbacks (the children of a node,
 * the text of a node), so the pre-order and level-order walks exist once.
 */
#ifndef COPSE_BSP_INTERNAL_H
#define COPSE_BSP_INTERNAL_H

#include "copse/bsp.h"
#include "../core/emit_internal.h"
#include "../geom/geom_internal.h"

/* Entries of every walk's fixed stack: each pop pushes at most two, so a tree of depth D
 * never holds more than D + 2. */
#define BSP_STACK (COPSE_BSP_MAX_DEPTH + 2u)

/* ---- text into a caller's buffer ------------------------------------------------------------ */

typedef struct bsp_text {
    char *buf;
    size_t cap;
    size_t len; /* the full length, also past cap */
} bsp_text;

void copse_bsp_text_char(bsp_text *t, char c);
void copse_bsp_text_str(bsp_text *t, const char *s);
void copse_bsp_text_u32(bsp_text *t, uint32_t v);
/* An integer as decimal when it is one below 2^24 in magnitude, otherwise C99 hex float. */
void copse_bsp_text_float(bsp_text *t, float v);
/* A leaf's token: its letter, then its ids separated by commas ("S0,4"). */
void copse_bsp_text_leaf(bsp_text *t, char kind, const uint32_t *ids, uint32_t count);

/* ---- dumps ------------------------------------------------------------------------------------ */

/* What the shared dump walker asks of each tree (direct calls picked by `dim`, not function
 * pointers, so the call graph and the stack bound stay known). */
/* child[0], child[1] of node `node`, or false for a leaf. */
bool copse_bsp2_dump_children(const void *tree, uint32_t node, uint32_t child[2]);
bool copse_bsp3_dump_children(const void *tree, uint32_t node, uint32_t child[2]);
/* Writes the node's token ("X12", "E", ...). */
void copse_bsp2_dump_token(const void *tree, uint32_t node, bsp_text *text);
void copse_bsp3_dump_token(const void *tree, uint32_t node, bsp_text *text);

/* The dump of a 2D (dim 2) or 3D (dim 3) tree. */
copse_status copse_bsp_dump_tree(const void *tree, unsigned dim, uint32_t node_count, copse_bsp_order order,
                                 char *buf, size_t cap, size_t *length);

/* ---- walking a segment through a tree --------------------------------------------------------- */

/* A range of the segment parameter t; empty when lo > hi. */
typedef struct bsp_range {
    float lo, hi;
} bsp_range;

/* Along p(t) = a + t*(b - a), whose signed distance to a line or plane is da at t = 0 and db at
 * t = 1: the part of [t0, t1] where the distance is <= r (behind / the low side) and where it is
 * >= -r (in front / the high side), each widened by `slack` in t. Both trees walk with it: the
 * 2D tree with r = 0, the 3D tree with r = 0 (rays) or a sphere's or box's reach. */
COPSE_INLINE void bsp_side_ranges(float da, float db, float t0, float t1, float r, float slack, bsp_range *back,
                                  bsp_range *front)
{
    float dd = db - da;
    back->lo = front->lo = t0;
    back->hi = front->hi = t1;
    if (dd == 0.0f) {
        if (!(da <= r))
            back->hi = back->lo - 1.0f;
        if (!(da >= -r))
            front->hi = front->lo - 1.0f;
    } else if (geo_finite(dd)) {
        float tb = (r - da) / dd, tf = (-r - da) / dd; /* where the distance is r, and -r */
        if (dd > 0.0f) {
            back->hi = geo_min(t1, tb + slack);
            front->lo = geo_max(t0, tf - slack);
        } else {
            back->lo = geo_max(t0, tb - slack);
            front->hi = geo_min(t1, tf + slack);
        }
    } /* a distance too large for float: both sides, whole */
}

/* ---- traces whose b - a overflows ---------------------------------------------------------------
 * Finite ends can be more than FLT_MAX apart. Such a trace runs in two parts, a -> m and
 * m -> b, from the midpoint m = a/2 + b/2: each part's difference is finite (|b/2 - a/2| is at
 * most FLT_MAX, and the rounding of m, at most half an ulp of FLT_MAX / 2, cannot carry it
 * past), and a part's t maps to the whole's as (part + t) / 2, exactly. */

/* 2 when b - a overflows on some axis, else 1: how many parts the trace takes. */
COPSE_INLINE unsigned bsp_parts(const float *a, const float *b, unsigned dim)
{
    unsigned k;
    bool finite = true;
    for (k = 0; k < dim; k++)
        finite = finite && geo_finite(b[k] - a[k]);
    return finite ? 1u : 2u;
}

/* The start and the direction of part `part` (0 or 1) of `parts` of the segment a -> b. */
COPSE_INLINE void bsp_part(const float *a, const float *b, unsigned part, unsigned parts, float *org, float *dir,
                           unsigned dim)
{
    unsigned k;
    for (k = 0; k < dim; k++) {
        float m = a[k] * 0.5f + b[k] * 0.5f;
        float lo = parts == 1u || part == 0u ? a[k] : m;
        float hi = parts == 1u || part == 1u ? b[k] : m;
        org[k] = lo;
        dir[k] = hi - lo;
    }
}

/* A part's t as the whole segment's. */
COPSE_INLINE float bsp_whole_t(float t, unsigned part, unsigned parts)
{
    return parts == 1u ? t : ((float)part + t) * 0.5f;
}

/* ---- shared checks --------------------------------------------------------------------------- */

COPSE_INLINE bool bsp_finite2(const copse_vec2 *v)
{
    return geo_finite(v->x) && geo_finite(v->y);
}

COPSE_INLINE bool bsp_finite3(const copse_vec3 *v)
{
    return geo_finite(v->x) && geo_finite(v->y) && geo_finite(v->z);
}

/* A query box, as min and max arrays: NONFINITE, EMPTY_RANGE (inverted on an axis) or OK. */
COPSE_INLINE copse_status bsp_check_box(const float *mn, const float *mx, unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        if (!geo_finite(mn[a]) || !geo_finite(mx[a]))
            return COPSE_ERR_NONFINITE;
    for (a = 0; a < dim; a++)
        if (mn[a] > mx[a])
            return COPSE_ERR_EMPTY_RANGE;
    return COPSE_OK;
}

#endif /* COPSE_BSP_INTERNAL_H */

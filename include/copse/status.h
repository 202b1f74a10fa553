/*
 * copse — status codes.
 *
 * Every fallible call returns a copse_status. Zero is success; errors are
 * negative and each names one way the input or the buffer was wrong, so a
 * caller can react without parsing text.
 */
#ifndef COPSE_STATUS_H
#define COPSE_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum copse_status {
    COPSE_OK = 0,
    COPSE_ERR_NULL = -1,        /* a required pointer argument was NULL */
    COPSE_ERR_NOMEM = -2,       /* the arena is too small; copse_arena.needed says how big */
    COPSE_ERR_PARAM = -3,       /* a parameter is outside its documented range */
    COPSE_ERR_NONFINITE = -4,   /* an input coordinate is NaN or infinite */
    COPSE_ERR_INDEX = -5,       /* an input index is out of range */
    COPSE_ERR_DEGENERATE = -6,  /* no area or volume: a triangle (COPSE_BVH_REJECT_DEGENERATE), a box, a brush */
    COPSE_ERR_TOO_LARGE = -7,   /* a count exceeds what the tree can index */
    COPSE_ERR_ALIGN = -8,       /* a pointer or stride is not aligned for float access */
    COPSE_ERR_DIMENSION = -9,   /* a 2D query on a 3D tree, or the reverse */
    COPSE_ERR_KIND = -10,       /* the query needs another primitive kind (e.g. vertices of a box tree) */
    COPSE_ERR_EMPTY_RANGE = -11, /* a query range is empty or inverted (t_max < 0, radius < 0) */
    COPSE_ERR_TOO_DEEP = -12,   /* a tree deeper than this build's stack cap (COPSE_BVH_MAX_DEPTH) */
    COPSE_ERR_NONCONVEX = -13,  /* a polygon that should be convex is not */
    COPSE_ERR_UNBOUNDED = -14   /* a brush's planes enclose no finite region */
} copse_status;

/* A short, static, English name for a status ("COPSE_ERR_NOMEM: arena too small"). */
const char *copse_status_str(copse_status status);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_STATUS_H */

/* SPDX-License-Identifier: MIT */
/*
 * copse — status codes.
 *
 * Every fallible call returns a copse_status. Zero is success; errors are
 * negative and each names one way the input or the buffer was wrong, so a
 * caller can react without parsing text.
 *
 * Each header says which statuses its functions can return in a sentence
 * "Statuses: OK, NULL, ..." (the names below without COPSE_ / COPSE_ERR_). It holds
 * for every declaration after it, up to the next such sentence; the hostile-API
 * suite (docs/hostile.md) fails when a function returns a status outside its list.
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
    COPSE_ERR_TOO_DEEP = -12,   /* a tree deeper than this build's depth cap (config.h: COPSE_BVH/BSP_MAX_DEPTH) */
    COPSE_ERR_NONCONVEX = -13,  /* a polygon that should be convex is not */
    COPSE_ERR_UNBOUNDED = -14,  /* a brush's planes enclose no finite region */
    /* blobs (copse/blob.h, docs/format.md) */
    COPSE_ERR_BLOB_TRUNCATED = -15, /* shorter than its header or than the size it records */
    COPSE_ERR_BLOB_MAGIC = -16,     /* does not start with the copse magic: not a blob */
    COPSE_ERR_BLOB_BYTE_ORDER = -17, /* the byte-order marker is neither order's (docs/format.md) */
    COPSE_ERR_BLOB_VERSION = -18,   /* a format version this library does not read */
    COPSE_ERR_BLOB_KIND = -19,      /* the blob holds another kind of tree */
    COPSE_ERR_BLOB_CRC = -20,       /* the CRC-32 does not match the bytes: damaged */
    COPSE_ERR_BLOB_HEADER = -21,    /* a header field out of range (sizes, flags, reserved, tree info) */
    COPSE_ERR_BLOB_SECTION = -22,   /* the section table: ids, offsets, alignment, sizes vs counts */
    COPSE_ERR_BLOB_NODE = -23,      /* a node's escape, child or leaf range is inconsistent */
    COPSE_ERR_BLOB_PRIM = -24,      /* a primitive index out of range, repeated or missing */
    COPSE_ERR_BLOB_BOUNDS = -25,    /* bounds non-finite, inverted, outside the parent or the header's */
    COPSE_ERR_BLOB_DEPTH = -26,     /* the recorded depth is not the tree's */
    COPSE_ERR_BLOB_SOURCE = -27,    /* the mesh or boxes passed do not match the blob (kind, dim, count) */
    COPSE_ERR_HOST_ORDER = -28,     /* blob's section words not in this host's order (copse_blob_to_host converts), or float not IEEE */
    COPSE_ERR_READ_ONLY = -29,      /* the tree is a view of a blob (in flash): it cannot change */
    COPSE_ERR_LIMIT = -30,          /* a documented work limit ran out before the answer was decided */
    COPSE_ERR_CONFIG = -31          /* the arena was started by code built with other settings (config.h) */
} copse_status;

/* A short, static, English name for a status ("COPSE_ERR_NOMEM: arena too small"). */
const char *copse_status_str(copse_status status);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_STATUS_H */

/* SPDX-License-Identifier: MIT */
/*
 * copse internal: writing and reading the blob container (docs/format.md). Fields are stored
 * and loaded byte by byte in little-endian order, so the writer runs on any host and never
 * depends on struct layout; only the in-place view needs a little-endian host.
 */
#ifndef COPSE_BLOB_INTERNAL_H
#define COPSE_BLOB_INTERNAL_H

#include "copse/blob.h"
#include "../geom/geom_internal.h" /* COPSE_INLINE */

/* Header offsets (docs/format.md). */
#define BLOB_OFF_MAGIC 0u
#define BLOB_OFF_VERSION 4u
#define BLOB_OFF_KIND 6u
#define BLOB_OFF_ORDER 8u
#define BLOB_OFF_CRC 12u
#define BLOB_OFF_TOTAL 16u
#define BLOB_OFF_FLAGS 20u
#define BLOB_OFF_HEADER_BYTES 24u
#define BLOB_OFF_SECTION_COUNT 26u
#define BLOB_OFF_RESERVED0 28u
#define BLOB_OFF_TREE 32u
#define BLOB_OFF_BOUNDS 64u
#define BLOB_OFF_RESERVED1 88u

/* The marker of a blob whose section words are big endian, read as a little-endian u32. */
#define BLOB_BYTE_ORDER_SWAPPED 0x04030201u

COPSE_INLINE void blob_put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

COPSE_INLINE void blob_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

COPSE_INLINE void blob_put_f32(uint8_t *p, float f)
{
    uint32_t v;
    __builtin_memcpy(&v, &f, sizeof v);
    blob_put_u32(p, v);
}

COPSE_INLINE uint32_t blob_get_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
}

COPSE_INLINE uint32_t blob_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

COPSE_INLINE float blob_get_f32(const uint8_t *p)
{
    uint32_t v = blob_get_u32(p);
    float f;
    __builtin_memcpy(&f, &v, sizeof f);
    return f;
}

/* copse_blob_read, then: can this host read the blob's sections in place (their words in its
 * byte order, IEEE-754 binary32 floats)? HOST_ORDER when not (info zeroed). Every view
 * starts here. */
copse_status copse__blob_read_in_place(const void *blob, size_t len, copse_blob_info *info);

/* Offsets of `count` sections of the given sizes laid out after the header and table, and the
 * total size; 0 when the total does not fit the format's 32-bit sizes. */
uint32_t copse__blob_layout(uint32_t count, const size_t *sizes, uint32_t *offsets);

/* Zeroes out[0, total) and writes the header and the section table. */
void copse__blob_write_header(uint8_t *out, uint32_t kind, uint32_t flags, uint32_t total, uint32_t count,
                       const uint32_t *ids, const uint32_t *offsets, const size_t *sizes,
                       const uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES], const float bounds[6]);

/* Writes the CRC-32 of out[0, total) (its own field taken as zero) at offset 12. */
void copse__blob_seal(uint8_t *out, uint32_t total);

COPSE_INLINE bool blob_same_bits(float a, float b)
{
    uint32_t x, y;
    __builtin_memcpy(&x, &a, sizeof x);
    __builtin_memcpy(&y, &b, sizeof y);
    return x == y;
}

/* ---- what every tree's save and view share --------------------------------------------------- */

/* One section to save: `bytes` bytes of 4-byte fields (u32, i32, float) in host order, stored
 * field by field little endian (the trees' arrays are such fields only, checked at compile
 * time next to each tree's save). Sections take ids 1, 2, ... in order. */
typedef struct blob_words {
    const void *data;
    uint64_t bytes;
} blob_words;

/* The blob's total size, or 0 when it does not fit the format's 32-bit sizes. */
uint32_t copse__blob_words_size(uint32_t count, const blob_words *secs);

/* Writes a whole blob: TOO_LARGE (over 32-bit sizes); else *written (optional) = the size, and
 * NOMEM with nothing written when cap is short; else the header, the sections and the CRC. */
copse_status copse__blob_save_words(uint32_t kind, const uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES], const float bounds[6],
                             uint32_t count, const blob_words *secs, void *buf, size_t cap, size_t *written);

/* The start of every view: NULL blob, HOST_ORDER, the container (copse_blob_read), then
 * BLOB_KIND when it holds another kind of tree. */
copse_status copse__blob_view_open(const void *blob, size_t len, uint32_t kind, copse_blob_info *info);

/* BLOB_SECTION unless the blob has exactly `count` sections, ids 1..count, of these sizes. */
copse_status copse__blob_view_sections(const copse_blob_info *info, uint32_t count, const uint64_t *sizes);

/* Where section s starts, as a pointer into the blob (4-aligned after copse__blob_view_open). */
COPSE_INLINE const void *blob_section_data(const void *blob, const copse_blob_info *info, uint32_t s)
{
    return (const void *)((const uint8_t *)blob + info->sections[s].offset);
}

/* Are bytes 32 + from .. 63 of the tree information zero (reserved)? */
COPSE_INLINE bool blob_tree_reserved_zero(const copse_blob_info *info, uint32_t from)
{
    uint32_t k;
    for (k = from; k < COPSE_BLOB_TREE_INFO_BYTES; k++)
        if (info->tree[k] != 0u)
            return false;
    return true;
}

#endif

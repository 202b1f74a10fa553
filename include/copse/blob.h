/* SPDX-License-Identifier: MIT */
/*
 * copse — the blob container every tree is saved in (docs/format.md).
 *
 * A blob is one little-endian byte string: a 96-byte header (magic, format version, tree
 * kind, byte-order marker, CRC-32, total size, flags, the kind's own 32 bytes of counts,
 * the bounds) and a table of sections, each at an offset that is a multiple of 16. No
 * pointers, no struct padding: every field sits at a documented offset. A blob placed at a
 * 4-byte-aligned address (flash, a const array) is queried in place by its tree's view
 * function (copse_bvh_view_mesh, copse_octree_view, copse_loose_view), which validates it first.
 *
 * This header holds what all kinds share: the constants, the CRC-32, and a reader that
 * validates the container (not the tree inside it) and describes it.
 */
#ifndef COPSE_BLOB_H
#define COPSE_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "copse/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COPSE_BLOB_MAGIC_0 0x43u /* 'C' 'P' 'S' 'B' at offset 0 */
#define COPSE_BLOB_MAGIC_1 0x50u
#define COPSE_BLOB_MAGIC_2 0x53u
#define COPSE_BLOB_MAGIC_3 0x42u
#define COPSE_BLOB_VERSION 1u            /* the format version this library writes and reads */
#define COPSE_BLOB_BYTE_ORDER 0x01020304u /* in the section words' order: 04 03 02 01 as saved */
#define COPSE_BLOB_HEADER_BYTES 96u
#define COPSE_BLOB_SECTION_ENTRY_BYTES 16u
#define COPSE_BLOB_MAX_SECTIONS 8u
#define COPSE_BLOB_SECTION_ALIGN 16u     /* section offsets are multiples of this */
#define COPSE_BLOB_ALIGN 4u              /* a blob is viewed at an address aligned to this */
#define COPSE_BLOB_TREE_INFO_BYTES 32u

/* Tree kinds (header offset 6). Values are never reused. */
typedef enum copse_blob_kind {
    COPSE_BLOB_BVH = 1,
    COPSE_BLOB_OCTREE = 2, /* copse_octree_save / copse_octree_view (copse/octree.h): points and ids inside */
    COPSE_BLOB_LOOSE = 3,  /* copse_loose_save / copse_loose_view */
    COPSE_BLOB_BSP2 = 4,   /* copse_bsp2_save / copse_bsp2_view (copse/bsp.h) */
    COPSE_BLOB_BSP3 = 5,   /* copse_bsp3_save / copse_bsp3_view */
    COPSE_BLOB_ROBOT = 6   /* copse_robot_save / copse_robot_view (copse/robot.h): links' meshes and trees inside */
} copse_blob_kind;

typedef struct copse_blob_section {
    uint32_t id;     /* what the section holds (per kind) */
    uint32_t offset; /* from the start of the blob, a multiple of COPSE_BLOB_SECTION_ALIGN */
    uint32_t size;   /* bytes */
} copse_blob_section;

/* The container, decoded. */
typedef struct copse_blob_info {
    uint32_t version;
    uint32_t kind;        /* copse_blob_kind */
    uint32_t flags;       /* per kind; 0 for every kind in version 1 */
    uint32_t total_bytes; /* header, table, sections: the bytes the CRC covers */
    uint32_t crc;
    uint32_t section_count;
    uint32_t big_endian;  /* 1: the section words are big endian (copse_blob_to_host on a
                             big-endian host); 0: little endian, as every writer saves them */
    copse_blob_section sections[COPSE_BLOB_MAX_SECTIONS];
    uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES]; /* header bytes 32..63: the kind's counts, as stored */
    float bounds[6];      /* min x y z, max x y z of everything in the tree (2D: z = 0) */
} copse_blob_info;

/* CRC-32 as zlib's crc32() (reflected polynomial 0xEDB88320, initial value and final xor
 * 0xFFFFFFFF): start with crc = 0 and chain calls over consecutive pieces. */
uint32_t copse_crc32(uint32_t crc, const void *data, size_t len);

/* Validates the container in one pass and fills `info`: NULL, ALIGN (blob not 4-aligned),
 * BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER, BLOB_VERSION, BLOB_HEADER, BLOB_CRC,
 * BLOB_SECTION (checked in that order). It reads bytes, so it works on any host, and accepts
 * both section orders (info->big_endian). `len` may exceed the blob's total size (a blob at
 * the start of a larger flash region). The tree inside is not looked at: its view function
 * does that. On error `info` is zeroed.
 * Statuses: OK, NULL, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER, BLOB_VERSION,
 * BLOB_HEADER, BLOB_CRC, BLOB_SECTION. */
copse_status copse_blob_read(const void *blob, size_t len, copse_blob_info *info);

/* Writes to `out` a copy of the blob that this host's views accept in place: every 4-byte
 * word of every section in the host's byte order, the byte-order marker saying so and the CRC
 * recomputed (docs/format.md, "Byte order"); the header and table stay little endian. On a
 * little-endian host a saved blob comes out unchanged. Works for every tree kind: every
 * section field is 4 bytes wide. `out` may be `blob` itself (converted in place) but may not
 * overlap it otherwise (PARAM); it must be 4-aligned (ALIGN). `*written` (may be NULL) gets
 * the blob's total size whenever the container is valid, also with NOMEM when `cap` is short.
 * The container is validated first (copse_blob_read's statuses); HOST_ORDER where float is
 * not IEEE binary32. Nothing is written to `out` on failure.
 * Statuses: OK, NULL, NOMEM, PARAM, ALIGN, BLOB_TRUNCATED, BLOB_MAGIC, BLOB_BYTE_ORDER,
 * BLOB_VERSION, BLOB_HEADER, BLOB_CRC, BLOB_SECTION, HOST_ORDER. */
copse_status copse_blob_to_host(const void *blob, size_t len, void *out, size_t cap, size_t *written);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_BLOB_H */

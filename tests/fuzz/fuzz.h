/* SPDX-License-Identifier: MIT */
/*
 * copse fuzz targets (docs/fuzz.md): libFuzzer entry points in tests/fuzz/fuzz_*.c, built
 * with clang -fsanitize=fuzzer,address,undefined by mk/fuzz.mk. What they share lives here:
 * a reader over the fuzzer's bytes, the deterministic sources a BVH view is given back, and
 * the query battery every accepted or built tree is put through.
 *
 * A target fails by FUZZ_ASSERT (abort with the property that broke), by a sanitizer report
 * or by a crash; libFuzzer then saves the input.
 */
#ifndef COPSE_FUZZ_H
#define COPSE_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"

#define FUZZ_ASSERT(cond, ...)                                      \
    do {                                                            \
        if (!(cond))                                                \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);      \
    } while (0)

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

/* The fuzzer's bytes, consumed front to back; zeros once they run out. */
typedef struct fuzz_reader {
    const uint8_t *data;
    size_t size, at;
} fuzz_reader;

void fuzz_reader_init(fuzz_reader *r, const uint8_t *data, size_t size);
uint32_t fuzz_u8(fuzz_reader *r);
uint32_t fuzz_u32(fuzz_reader *r);
float fuzz_float(fuzz_reader *r);     /* any bit pattern: NaN, infinities, denormals */
float fuzz_coord(fuzz_reader *r);     /* finite, mostly small, sometimes huge */

/* A status a query or build may return for bad input: the documented, specific ones. */
bool fuzz_specific_status(copse_status st);
/* FUZZ_ASSERT that a query returned OK or a specific status. */
void fuzz_query_status(copse_status st, const char *query);
/* A status a blob view may refuse with: the container's and tree's BLOB_*, HOST_ORDER, ... */
bool fuzz_view_status(copse_status st);

/* A target's input is a blob, then bytes that pick the queries: the blob is the header's
 * total_bytes when that is plausible (>= 96, within the input), else the whole input. */
uint32_t fuzz_le32_at(const uint8_t *data, size_t size, size_t at); /* 0 past the end */
size_t fuzz_blob_part(const uint8_t *data, size_t size);
/* A malloc'd copy of exactly `size` bytes (16-aligned; ASan sees a read past it); free() it. */
uint8_t *fuzz_blob_copy(const uint8_t *data, size_t size);

/* Where the NUL of a text written into buf[0..cap) is; cap when there is none. */
size_t fuzz_text_len(const char *buf, size_t cap);

/* The visitor form's answer, to compare with the list form (same capacity, same order). */
#define FUZZ_CAP 64u
typedef struct fuzz_collect {
    uint32_t ids[FUZZ_CAP];
    uint32_t count;
    bool truncated; /* the visitor was stopped: more than FUZZ_CAP */
} fuzz_collect;
bool fuzz_collect_id(void *user, uint32_t id); /* a copse_id_visitor over a fuzz_collect */
void fuzz_same_ids(const copse_id_list *list, const fuzz_collect *visited, const char *query);
/* A first-hit walk's t against the nearest t of all hits: a few ulps apart at most, or both
 * below FLT_MIN (a huge direction leaves t almost no bits). */
bool fuzz_t_close(float first, float nearest);

/* The geometry a BVH blob's view is given back (the corpus maker builds its blobs over the
 * same): primitive i is a box or triangle near (i, i mod 7, i mod 5). */
#define FUZZ_MAX_PRIMS 4096u
void fuzz_source_boxes3(copse_box3 *boxes, uint32_t count);
void fuzz_source_boxes2(copse_box2 *boxes, uint32_t count);
void fuzz_source_mesh(float *positions, uint32_t count, copse_mesh *mesh); /* 9 floats per triangle */

/* Every query kind of the tree's dimension, in array and visitor form, with shapes from `r`:
 * each must return OK or a specific status, report no more than its capacity, and agree
 * with itself (first hit = nearest of all hits, list = visitor). When `exact` (the tree
 * passed copse_bvh_check over its source) overlap queries are compared with brute force. */
void fuzz_query_bvh(const copse_bvh *bvh, fuzz_reader *r, bool exact);

#endif

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

/* SPDX-License-Identifier: MIT */
/*
 * What the blob suites share (tests/test_blob.c): the CRC fix-up after a deliberate change,
 * and the hostile-bytes run every tree kind's view goes through.
 */
#ifndef COPSE_TEST_BLOB_H
#define COPSE_TEST_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"
#include "test.h"

/* True on a big-endian host, where a saved (little-endian) blob needs copse_blob_to_host. */
bool host_big_endian(void);

/* Recomputes the CRC after a deliberate change (format.md: the field at 12 read as zero). */
void blob_reseal(uint8_t *b, size_t total);

/* Makes a saved (little-endian) blob one this host's views accept, in place, by
 * copse_blob_to_host: a no-op on a little-endian host, the section words reversed on a
 * big-endian one. The suites call it after each save they view; it returns the conversion's
 * status (a container damaged on purpose is refused, and then viewed as it is). */
copse_status blob_to_host_in_place(uint8_t *blob, size_t size);

/* The 4-byte word at `at` of a valid container in the blob's own order: the header and the
 * section table are little endian, section words in the order the marker at 8 says. */
uint32_t blob_get_word(const uint8_t *blob, size_t at);
void blob_put_word(uint8_t *blob, size_t at, uint32_t v);

/* A tree kind's view under attack. */
typedef struct blob_victim {
    /* Views len bytes into the victim's tree; *empty: the tree it left is the empty one. */
    copse_status (*view)(void *ctx, const uint8_t *blob, size_t len, bool *empty);
    /* Queries the tree of the last accepted view: it must do no harm (the sanitizers watch). */
    void (*poke)(void *ctx);
    void *ctx;
    /* On boards, `size` bytes for the copies (the host copies into exact-size malloc blocks, so
     * the sanitizers catch any read past a truncated blob). */
    uint8_t *work;
} blob_victim;

/* Every truncation (BLOB_TRUNCATED, an empty tree) and every single-byte change by 4 patterns
 * (refused as is; with the CRC recomputed either refused with an empty tree, or accepted and
 * poked) of blob[0, size). */
void blob_hostile(const blob_victim *v, const uint8_t *blob, size_t size, const char *name);

#endif

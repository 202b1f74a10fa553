/* SPDX-License-Identifier: MIT */
/*
 * copse — the caller's memory.
 *
 * A copse_arena hands out pieces of one buffer the caller owns, front to back.
 * Builders take what a tree keeps first and their scratch after it, and give
 * the scratch back (copse_arena_rewind) before they return, so the arena ends
 * exactly at the end of the tree. Nothing here ever writes outside the buffer.
 *
 * Every size copse reports assumes the buffer starts on a COPSE_ARENA_ALIGN
 * boundary; declare static storage with COPSE_ARENA_STORAGE to get that.
 */
#ifndef COPSE_ARENA_H
#define COPSE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "copse/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every allocation starts and ends on this boundary (8: doubles and uint64 are safe). */
#define COPSE_ARENA_ALIGN 8u

/* Round a byte count up to the arena's granule. */
#define COPSE_ARENA_ROUND(bytes) (((size_t)(bytes) + (COPSE_ARENA_ALIGN - 1u)) & ~(size_t)(COPSE_ARENA_ALIGN - 1u))

/* Saturating size arithmetic for the sizing macros and functions: SIZE_MAX stands for "more
 * than size_t holds" and stays SIZE_MAX (a 32-bit size_t never wraps to a small size). The
 * second operand of COPSE_SIZE_MUL is read twice: make it the constant. */
#define COPSE_SIZE_MUL(a, b)                                                                   \
    ((size_t)(b) != 0u && (size_t)(a) * (size_t)(b) / (size_t)(b) != (size_t)(a) ? SIZE_MAX          \
                                                                                  : (size_t)(a) * (size_t)(b))
#define COPSE_SIZE_ADD(a, b) \
    ((size_t)(a) + (size_t)(b) < (size_t)(a) ? SIZE_MAX : (size_t)(a) + (size_t)(b))
#define COPSE_SIZE_ROUND(bytes) (COPSE_ARENA_ROUND(bytes) < (size_t)(bytes) ? SIZE_MAX : COPSE_ARENA_ROUND(bytes))

/* Static storage of at least `bytes`, aligned for the arena: COPSE_ARENA_STORAGE(mem, 4096);
 * a saturated size (SIZE_MAX) does not compile rather than round to a small array. */
#define COPSE_ARENA_STORAGE(name, bytes) uint64_t name[(size_t)(bytes) / 8u + ((size_t)(bytes) % 8u != 0u)]

typedef struct copse_arena {
    uint8_t *base;     /* first aligned byte of the caller's buffer */
    size_t capacity;   /* usable bytes from base */
    size_t used;       /* bytes handed out so far */
    size_t high_water; /* the most `used` has ever been */
    size_t needed;     /* after COPSE_ERR_NOMEM: the capacity that would have succeeded */
    uint32_t config;   /* COPSE_CONFIG_SIGNATURE of the code that started it (0: set up by hand) */
} copse_arena;

/* A NULL arena is no arena: init and rewind do nothing, alloc returns NULL, remaining, mark and
 * reserve_check return 0. */

/* Start an arena over buf[0..size). A misaligned buf loses its first bytes to alignment. With
 * buf NULL, or size smaller than the alignment gap, the arena has no buffer (base NULL,
 * capacity 0) and every allocation, even of 0 bytes, returns NULL. A size that runs past the
 * end of the address space is cut there. */
void copse_arena_init_config(copse_arena *arena, void *buf, size_t size, uint32_t config);
/* ... and records the caller's settings (config.h), which every builder compares with the
 * library's: a mismatch fails the build with COPSE_ERR_CONFIG. Call this one. */
static inline void copse_arena_init(copse_arena *arena, void *buf, size_t size)
{
    copse_arena_init_config(arena, buf, size, (uint32_t)COPSE_CONFIG_SIGNATURE);
}

/* `bytes` (rounded up to COPSE_ARENA_ALIGN) or NULL when they do not fit; records `needed`.
 * Every pointer returned is COPSE_ARENA_ALIGN-aligned, including for 0 bytes (not to be
 * dereferenced then). */
void *copse_arena_alloc(copse_arena *arena, size_t bytes);

/* Bytes still free. */
size_t copse_arena_remaining(const copse_arena *arena);

/* True when `bytes` more would fit; otherwise records `needed` and returns false. */
int copse_arena_reserve_check(copse_arena *arena, size_t bytes);

/* A mark to rewind to: everything allocated after it is given back at once. Rewinding to a
 * value that no mark could be (past `used`, or not a multiple of COPSE_ARENA_ALIGN) does
 * nothing. */
size_t copse_arena_mark(const copse_arena *arena);
void copse_arena_rewind(copse_arena *arena, size_t mark);

#ifdef __cplusplus
}
#endif

#endif /* COPSE_ARENA_H */

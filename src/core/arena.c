/* SPDX-License-Identifier: MIT */
#include "copse/arena.h"

void copse_arena_init_config(copse_arena *arena, void *buf, size_t size, uint32_t config)
{
    uintptr_t start = (uintptr_t)buf;
    uintptr_t aligned = (start + (COPSE_ARENA_ALIGN - 1u)) & ~(uintptr_t)(COPSE_ARENA_ALIGN - 1u);
    size_t lost = (size_t)(aligned - start);

    if (arena == NULL)
        return;
    arena->base = NULL; /* no buffer, or none left after alignment: every request fails */
    arena->capacity = 0;
    if (buf != NULL && size >= lost && aligned >= start) {
        size_t room = size - lost;
        /* a size that runs past the end of the address space: keep base + capacity in it */
        if (room > (size_t)(UINTPTR_MAX - aligned))
            room = (size_t)(UINTPTR_MAX - aligned);
        arena->base = (uint8_t *)buf + lost;
        arena->capacity = room;
    }
    arena->used = 0;
    arena->high_water = 0;
    arena->needed = 0;
    arena->config = config;
}

size_t copse_arena_remaining(const copse_arena *arena)
{
    return arena != NULL ? arena->capacity - arena->used : 0u;
}

int copse_arena_reserve_check(copse_arena *arena, size_t bytes)
{
    size_t rounded = COPSE_ARENA_ROUND(bytes);
    if (arena == NULL)
        return 0;
    /* bytes near SIZE_MAX round to a small number: treat that as "never fits". */
    if (rounded < bytes || rounded > copse_arena_remaining(arena)) {
        size_t want = rounded < bytes ? (size_t)-1 : arena->used + rounded;
        if (want < arena->used)
            want = (size_t)-1;
        if (want > arena->needed)
            arena->needed = want;
        return 0;
    }
    return 1;
}

void *copse_arena_alloc(copse_arena *arena, size_t bytes)
{
    uint8_t *p;
    if (arena == NULL || !copse_arena_reserve_check(arena, bytes) || arena->base == NULL)
        return NULL;
    p = arena->base + arena->used;
    arena->used += COPSE_ARENA_ROUND(bytes);
    if (arena->used > arena->high_water)
        arena->high_water = arena->used;
    return p;
}

size_t copse_arena_mark(const copse_arena *arena)
{
    return arena != NULL ? arena->used : 0u;
}

void copse_arena_rewind(copse_arena *arena, size_t mark)
{
    /* marks are aligned and never past `used`: anything else would misalign what follows */
    if (arena != NULL && mark <= arena->used && (mark & (COPSE_ARENA_ALIGN - 1u)) == 0u)
        arena->used = mark;
}

/* SPDX-License-Identifier: MIT */
/* What the builders ask of an arena beyond arena.h. */
#ifndef COPSE_ARENA_INTERNAL_H
#define COPSE_ARENA_INTERNAL_H

#include "copse/arena.h"

/* Started by code built with this library's settings (config.h), or set up by hand (config 0,
 * not checked): anything else is a caller whose compile-time sizes are not the library's. */
static inline int copse__arena_config_ok(const copse_arena *arena)
{
    return arena->config == 0u || arena->config == (uint32_t)COPSE_CONFIG_SIGNATURE;
}

#endif /* COPSE_ARENA_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * What the size firmwares (examples/size, `make size`) share: the data a real firmware would
 * hold in flash (a blob baked on the host, a mesh), defined in data.c so that its bytes are
 * counted as the application's, not the library's, and a sink that keeps every answer alive
 * so that --gc-sections cannot drop the call that computed it.
 */
#ifndef COPSE_SIZE_EXAMPLE_H
#define COPSE_SIZE_EXAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"

extern const uint32_t size_blob[];  /* a baked tree, 4-byte aligned as the views require */
extern const size_t size_blob_bytes;
extern const copse_mesh size_mesh; /* the triangles a BVH blob indexes */
extern volatile uint32_t size_sink;

#endif

/* SPDX-License-Identifier: MIT */
/* The application's data for the size firmwares: a placeholder blob and a two-triangle mesh.
 * The firmwares are linked and measured, not run: what a blob holds does not change which
 * library code its view links. */
#include "size_example.h"

const uint32_t size_blob[64];
const size_t size_blob_bytes = sizeof size_blob;

static const float size_vertices[12] = { 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1 };
static const uint16_t size_indices[6] = { 0, 1, 2, 0, 2, 3 };
const copse_mesh size_mesh = { size_vertices, 4u, 0u, size_indices, COPSE_MESH_INDEX_U16, 2u };

volatile uint32_t size_sink;

/* SPDX-License-Identifier: MIT */
/*
 * Host-side mesh loading for tests, benchmarks and tools, through the Open Asset
 * Import Library (OBJ, PLY, STL, glTF, COLLADA, ...). The core never sees this.
 * All meshes of the file are merged into one, with their node transforms applied.
 */
#ifndef COPSE_MESH_LOAD_H
#define COPSE_MESH_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "copse/bvh.h"

typedef struct host_mesh {
    float *positions;        /* xyz per vertex, packed */
    uint32_t vertex_count;
    uint32_t *indices;       /* 3 per triangle */
    uint32_t triangle_count;
} host_mesh;

/* 0 on success; otherwise -1 with a message naming the file and the problem in err. */
int host_mesh_load(const char *path, host_mesh *out, char *err, size_t err_cap);
void host_mesh_free(host_mesh *mesh);

/* A copse view of the loaded mesh (32-bit indices, packed vertices). */
copse_mesh host_mesh_view(const host_mesh *mesh);

#endif

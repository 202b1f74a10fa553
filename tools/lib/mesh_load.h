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
    char up_declared;        /* the up axis the file declares, 'x', 'y' or 'z': COLLADA's <up_axis> (y
                                when absent, as its spec says), glTF's y; 0 for formats without one */
    char up;                 /* the up axis the positions are in: up_declared, or the one asked for */
} host_mesh;

/* 0 on success; otherwise -1 with a message naming the file and the problem in err. The
 * coordinates are the file's own: assimp's turn of a Z-up COLLADA file to Y-up is not made. */
int host_mesh_load(const char *path, host_mesh *out, char *err, size_t err_cap);

/* As host_mesh_load, then turned so that `up` ('y' or 'z') is up, by the rotation from the
 * file's declared frame (COLLADA: Y_UP is right x, up y; Z_UP right x, up z, in -y; X_UP right -y,
 * up x): Z-up to Y-up is (x, y, z) -> (x, z, -y), as assimp turns it. A signed permutation, exact
 * in float (a 0 stays +0). up = 0 keeps the file's axes; a file that declares none cannot be turned (-1). */
int host_mesh_load_up(const char *path, char up, host_mesh *out, char *err, size_t err_cap);

/* Where up_declared comes from ("COLLADA <up_axis>, Y_UP when absent", "glTF, y up by its
 * spec"), or NULL for a format that declares no up axis. */
const char *host_mesh_up_source(const char *path);

/* Which axes the loaded mesh is in, as one phrase: "the file's own: z up (COLLADA <up_axis>, Y_UP
 * when absent)", "turned to y up from the file's z up (...): x, y, z are the file's x, z, -y",
 * "the file's own (its format declares no up axis)". */
void host_mesh_axes(const host_mesh *mesh, const char *path, char *buf, size_t cap);
void host_mesh_free(host_mesh *mesh);

/* A copse view of the loaded mesh (32-bit indices, packed vertices). */
copse_mesh host_mesh_view(const host_mesh *mesh);

#endif

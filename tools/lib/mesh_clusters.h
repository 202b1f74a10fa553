/* SPDX-License-Identifier: MIT */
/*
 * Host-side: a mesh cut into boxes, for the BSP tests and benchmarks. The triangles are
 * grouped by the cell of a grid over the mesh's bounds that holds their centroid (gxz cells
 * along x and z, gy along y: y is up), and each group's bounding box becomes one box; flat
 * boxes (a floor, a wall) get `thickness` on their flat axis. The boxes overlap, touch and nest
 * as level geometry does. Header-only so that tests and benchmarks need no extra object.
 */
#ifndef COPSE_MESH_CLUSTERS_H
#define COPSE_MESH_CLUSTERS_H

#include <stdlib.h>

#include "copse/geom.h"
#include "mesh_load.h"

/* Writes up to gxz*gxz*gy boxes to out and returns how many; lo/hi get the mesh's bounds.
 * 0 when memory runs out. */
static inline uint32_t host_mesh_cluster_boxes(const host_mesh *m, unsigned gxz, unsigned gy, float thickness,
                                               copse_box3 *out, float *lo, float *hi)
{
    const size_t cells = (size_t)gxz * gxz * gy;
    float *cell = (float *)calloc(cells, 7u * sizeof(float)); /* min xyz, max xyz, used */
    uint32_t t, i, n = 0;
    unsigned k, j;
    if (cell == NULL)
        return 0;
    for (k = 0; k < 3; k++) {
        lo[k] = hi[k] = m->positions[k];
        for (i = 1; i < m->vertex_count; i++) {
            float v = m->positions[3u * i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    }
    for (t = 0; t < m->triangle_count; t++) {
        float c[3] = {0, 0, 0}, mn[3] = {1e30f, 1e30f, 1e30f}, mx[3] = {-1e30f, -1e30f, -1e30f};
        uint32_t g[3];
        size_t at;
        for (j = 0; j < 3; j++) {
            const float *v = m->positions + 3u * m->indices[3u * t + j];
            for (k = 0; k < 3; k++) {
                c[k] += v[k] / 3.0f;
                mn[k] = v[k] < mn[k] ? v[k] : mn[k];
                mx[k] = v[k] > mx[k] ? v[k] : mx[k];
            }
        }
        for (k = 0; k < 3; k++) {
            unsigned count = k == 1 ? gy : gxz;
            float u = (c[k] - lo[k]) / (hi[k] - lo[k]);
            g[k] = u >= 1.0f ? count - 1u : (uint32_t)(u * (float)count);
        }
        at = 7u * (((size_t)g[1] * gxz + g[2]) * gxz + g[0]);
        for (k = 0; k < 3; k++) {
            cell[at + k] = cell[at + 6] == 0.0f || mn[k] < cell[at + k] ? mn[k] : cell[at + k];
            cell[at + 3u + k] = cell[at + 6] == 0.0f || mx[k] > cell[at + 3u + k] ? mx[k] : cell[at + 3u + k];
        }
        cell[at + 6] = 1.0f;
    }
    for (i = 0; i < cells; i++) {
        float *b = cell + 7u * i;
        if (b[6] == 0.0f)
            continue;
        for (k = 0; k < 3; k++)
            if (b[3u + k] - b[k] < thickness) {
                b[k] -= thickness * 0.5f;
                b[3u + k] += thickness * 0.5f;
            }
        out[n++] = copse_box3_make(b[0], b[1], b[2], b[3], b[4], b[5]);
    }
    free(cell);
    return n;
}

#endif

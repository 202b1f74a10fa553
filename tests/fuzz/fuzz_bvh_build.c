/* SPDX-License-Identifier: MIT */
/* Fuzz target: the BVH builders fed arbitrary floats (NaN, infinities, huge, coincident).
 * Byte 0 picks the source (mesh 3D, mesh projected, boxes 3D, boxes 2D), the split and the
 * leaf size; the rest are coordinates. The arena is exactly copse_bvh_build_bytes (ASan sees
 * any write past it). A build either fails with a specific status, leaving the tree empty and
 * the arena as it was, or succeeds: then copse_bvh_check passes, the tree's bytes fit the
 * arena, and every query kind answers (box trees' overlaps equal brute force). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static bool build_status(copse_status st)
{
    return st == COPSE_ERR_NONFINITE || st == COPSE_ERR_PARAM || st == COPSE_ERR_DEGENERATE ||
           st == COPSE_ERR_TOO_LARGE || st == COPSE_ERR_TOO_DEEP;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const copse_bvh_projection proj[3] = {COPSE_BVH_PROJECT_XZ, COPSE_BVH_PROJECT_XY, COPSE_BVH_PROJECT_YZ};
    fuzz_reader r;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    const uint32_t mode = size > 0 ? data[0] : 0u, source = mode & 3u;
    uint32_t n, i, floats_per = source == 3u ? 4u : source == 2u ? 6u : 9u;
    unsigned dim = source == 0u || source == 2u ? 3u : 2u;
    float *coords;
    size_t bytes;
    uint8_t *mem;
    copse_arena arena;
    copse_bvh bvh;
    copse_status st;
    fuzz_reader_init(&r, data, size);
    (void)fuzz_u8(&r);
    params.split = (copse_bvh_split)((mode >> 2) % 3u);
    params.leaf_size = 1u + ((mode >> 4) & 7u);
    params.projection = source == 1u ? proj[(mode >> 7) + (fuzz_u8(&r) & 1u)] : COPSE_BVH_PROJECT_NONE;
    params.flags = (fuzz_u8(&r) & 1u) ? COPSE_BVH_REJECT_DEGENERATE : 0u;
    n = (uint32_t)((size - (r.at < size ? r.at : size)) / (3u * floats_per)); /* ~3 bytes per coordinate */
    n = n > 512u ? 512u : n;
    coords = (float *)malloc(sizeof(float) * floats_per * (n + 1u));
    if (coords == NULL)
        return 0;
    for (i = 0; i < floats_per * n; i++)
        coords[i] = (i % 17u == 16u) ? fuzz_float(&r) : fuzz_coord(&r);
    for (i = 0; source >= 2u && i < n; i++) { /* boxes: mostly min <= max, so builds succeed */
        float *b = coords + floats_per * i;
        unsigned a;
        for (a = 0; a < dim; a++)
            if (b[a] > b[dim + a] && (i & 3u) != 3u) {
                const float t = b[a];
                b[a] = b[dim + a];
                b[dim + a] = t;
            }
    }
    bytes = copse_bvh_build_bytes(n, dim, &params);
    FUZZ_ASSERT(bytes != (size_t)-1, "build_bytes(%u, %u) refused valid params", (unsigned)n, dim);
    mem = (uint8_t *)malloc(bytes + 1u);
    if (mem == NULL) {
        free(coords);
        return 0;
    }
    copse_arena_init(&arena, mem, bytes);
    if (source < 2u) {
        copse_mesh mesh;
        memset(&mesh, 0, sizeof mesh);
        mesh.positions = coords;
        mesh.vertex_count = 3u * n;
        mesh.index_type = COPSE_MESH_INDEX_NONE;
        mesh.triangle_count = n;
        st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params);
    } else if (source == 2u) {
        st = copse_bvh_build_boxes3(&bvh, &arena, (const copse_box3 *)(const void *)coords, NULL, n, &params);
    } else {
        st = copse_bvh_build_boxes2(&bvh, &arena, (const copse_box2 *)(const void *)coords, NULL, n, &params);
    }
    if (st != COPSE_OK) {
        FUZZ_ASSERT(build_status(st), "build: %s", copse_status_str(st));
        FUZZ_ASSERT(bvh.node_count == 0 && bvh.nodes == NULL && arena.used == 0, "failed build left state");
    } else {
        st = copse_bvh_check(&bvh);
        FUZZ_ASSERT(st == COPSE_OK, "check after build: %s", copse_status_str(st));
        FUZZ_ASSERT(copse_bvh_bytes(&bvh) <= bytes && arena.used <= bytes, "tree past the arena");
        FUZZ_ASSERT(bvh.prim_count == n && bvh.dim == dim, "tree of %u prims, %u dims", (unsigned)bvh.prim_count,
                    (unsigned)bvh.dim);
        fuzz_query_bvh(&bvh, &r, true);
    }
    free(mem);
    free(coords);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * A program that uses copse the way a user would: the installed headers and copse::bvh (or
 * pkg-config's flags), nothing else of this repository. A BVH over a few triangles, a ray that
 * must hit the middle one at t = 0.5, and one that must miss. Exit status 0 when both are right.
 */
#include <stdio.h>

#include "copse/bvh.h"

/* Three unit squares' worth of triangles in the planes z = 1, 2, 3, facing a ray along +z. */
static const float vertices[] = {
    -1, -1, 1, 1, -1, 1, 0, 1, 1,
    -1, -1, 2, 1, -1, 2, 0, 1, 2,
    -1, -1, 3, 1, -1, 3, 0, 1, 3,
};

static COPSE_ARENA_STORAGE(memory, COPSE_BVH_BUILD_BYTES(3, 1));

int main(void)
{
    copse_mesh mesh = { vertices, 9, 0, NULL, COPSE_MESH_INDEX_NONE, 3 };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit, miss;
    /* Starts between the first and the second triangle: the second is the first it meets. */
    copse_ray3 ray = { { 0.0f, 0.0f, 1.5f }, { 0.0f, 0.0f, 1.0f }, 10.0f };
    copse_ray3 away = { { 5.0f, 5.0f, 0.0f }, { 0.0f, 0.0f, 1.0f }, 10.0f };
    copse_status st;

    params.leaf_size = 1;
    copse_arena_init(&arena, memory, sizeof memory);
    st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params);
    if (st != COPSE_OK) {
        printf("consumer: build failed: %s\n", copse_status_str(st));
        return 1;
    }
    copse_bvh_raycast(&bvh, &ray, &hit);
    copse_bvh_raycast(&bvh, &away, &miss);
    printf("consumer: hit triangle %u at t=%g, miss %s\n", (unsigned)hit.id, (double)hit.t,
           miss.id == COPSE_NONE ? "ok" : "WRONG");
    return hit.id == 1u && hit.t > 0.4999f && hit.t < 0.5001f && miss.id == COPSE_NONE ? 0 : 1;
}

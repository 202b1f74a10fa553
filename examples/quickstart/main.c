/* SPDX-License-Identifier: MIT */
/*
 * copse quickstart: the example in README.md, built and run by `make test`.
 *
 * A floor and one crate as a triangle mesh in flash, a BVH over it in a static
 * buffer whose size the compiler works out, then a ray, a sphere check and the
 * nearest point. No malloc anywhere: the tree lives in `tree_memory`.
 */
#include <stdio.h>

#include "copse/bvh.h"

/* The scene: a 10 m x 10 m floor at y = 0 and a 1 m crate standing on it. */
#define VERTEX_COUNT 12u
#define TRIANGLE_COUNT 12u

static const float vertices[VERTEX_COUNT * 3u] = {
    0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10,     /* floor corners 0..3 */
    4, 0, 4, 5, 0, 4, 5, 0, 5, 4, 0, 5,         /* crate bottom 4..7 */
    4, 1, 4, 5, 1, 4, 5, 1, 5, 4, 1, 5,         /* crate top 8..11 */
};

static const uint16_t triangles[TRIANGLE_COUNT * 3u] = {
    0, 2, 1, 0, 3, 2,                           /* floor */
    8, 10, 9, 8, 11, 10,                        /* crate top */
    4, 5, 9, 4, 9, 8, 5, 6, 10, 5, 10, 9,       /* crate sides */
    6, 7, 11, 6, 11, 10, 7, 4, 8, 7, 8, 11,
};

/* Enough for any builder at leaf size 4; after the build the tree keeps only
 * copse_bvh_bytes() of it and the rest is free again. */
static COPSE_ARENA_STORAGE(tree_memory, COPSE_BVH_BUILD_BYTES(TRIANGLE_COUNT, 4));

int main(void)
{
    copse_mesh mesh = { vertices, VERTEX_COUNT, 0, triangles, COPSE_MESH_INDEX_U16, TRIANGLE_COUNT };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit;
    /* A lidar beam 0.5 m above the floor, heading +x towards the crate. */
    copse_ray3 ray = { { 0.0f, 0.5f, 4.5f }, { 1.0f, 0.0f, 0.0f }, 20.0f };
    copse_sphere body;
    uint32_t touching[8];
    copse_id_list list = copse_id_list_make(touching, 8);
    copse_nearest3 near;
    copse_status st;

    copse_arena_init(&arena, tree_memory, sizeof tree_memory);
    st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params);
    if (st != COPSE_OK) {
        printf("build: %s\n", copse_status_str(st));
        return 1;
    }
    printf("tree: %u nodes, %zu bytes of %zu reserved\n", (unsigned)bvh.node_count, copse_bvh_bytes(&bvh),
           sizeof tree_memory);

    copse_bvh_raycast(&bvh, &ray, &hit);
    if (hit.id == COPSE_NONE)
        printf("ray: no hit\n");
    else
        printf("ray: triangle %u at %.2f m\n", (unsigned)hit.id, (double)hit.t);

    /* The robot's body as a sphere: which triangles does it touch? */
    body.center = copse_v3(3.8f, 0.5f, 4.5f);
    body.radius = 0.3f;
    copse_bvh_overlap_sphere(&bvh, &body, COPSE_BVH_SELECT_PRIMS, &list);
    printf("sphere: touches %u triangles%s\n", (unsigned)list.count, list.truncated ? " (and more)" : "");

    /* The surface nearest to a gripper 0.6 m above the crate, looking 3 m around. */
    copse_bvh_nearest(&bvh, copse_v3(4.3f, 1.6f, 4.6f), 3.0f, &near);
    printf("nearest: triangle %u, point (%.2f, %.2f, %.2f)\n", (unsigned)near.id, (double)near.point.x,
           (double)near.point.y, (double)near.point.z);
    return hit.id != COPSE_NONE && list.count > 0 && near.id != COPSE_NONE ? 0 : 1;
}

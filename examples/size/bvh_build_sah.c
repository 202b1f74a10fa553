/* SPDX-License-Identifier: MIT */
/* Size row "SAH build + raycast": the tree built on the device in a static buffer, then one
 * ray's first hit. */
#include "size_example.h"

static COPSE_ARENA_STORAGE(tree_memory, COPSE_BVH_BUILD_BYTES(2u, 4u));

int main(void)
{
    const copse_ray3 ray = { { 0.0f, 1.0f, 0.0f }, { 0.0f, -1.0f, 0.0f }, 10.0f };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT; /* COPSE_BVH_SPLIT_SAH */
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit;
    copse_arena_init(&arena, tree_memory, sizeof tree_memory);
    if (copse_bvh_build_mesh(&bvh, &arena, &size_mesh, &params) != COPSE_OK)
        return 1;
    if (copse_bvh_raycast(&bvh, &ray, &hit) != COPSE_OK)
        return 2;
    size_sink = hit.id;
    return 0;
}

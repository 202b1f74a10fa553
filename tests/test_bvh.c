#include "copse/copse.h"
#include "suites.h"
#include "test.h"

static void test_bvh_smoke(void)
{
    static const float pos[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1 };
    static const uint16_t idx[] = { 0, 1, 2, 3, 4, 5 };
    copse_mesh mesh = { pos, 6, 0, idx, COPSE_INDEX_U16, 2 };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    COPSE_ARENA_STORAGE(mem, COPSE_BVH_BUILD_BYTES(2, 1));
    copse_arena arena;
    copse_bvh bvh;
    copse_hit hit;
    copse_ray3 ray = { { 0.2f, 0.2f, -1 }, { 0, 0, 1 }, 100 };
    params.leaf_size = 1;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_bvh_build_mesh(&bvh, &arena, &mesh, &params), COPSE_OK);
    CHECK_EQ_INT(bvh.node_count, 3);
    CHECK_STATUS(copse_bvh_check(&bvh), COPSE_OK);
    CHECK_STATUS(copse_bvh_raycast(&bvh, &ray, &hit), COPSE_OK);
    CHECK_EQ_INT(hit.id, 0);
    CHECKF(hit.t > 0.999f && hit.t < 1.001f, "t = %f", (double)hit.t);
}

void suite_bvh(void)
{
    test_run("bvh/smoke", test_bvh_smoke);
}

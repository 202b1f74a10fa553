/* SPDX-License-Identifier: MIT */
/*
 * Stack probe: how much stack do copse's public functions really use on this board?
 * `make stack` runs it under QEMU and puts the numbers beside the static worst cases
 * in docs/stack.md. Copy the MEASURE idea to check your own firmware's call paths.
 *
 * How: paint the free stack with a pattern (copse_port_stack_paint), call the function,
 * find the lowest word that no longer holds the pattern (copse_port_stack_used), and
 * subtract what was already in use at the call. A measurement shows the path this
 * input took; the static figure bounds every path.
 *
 * Boards only (it reads SP). Output lines "stack <fn> <bytes>".
 */
#include <stdint.h>

#include "copse/copse.h"
#include "port.h"
#include "../warehouse/scene.h"

static uintptr_t sp_now(void) __attribute__((always_inline));
static inline uintptr_t sp_now(void)
{
    uintptr_t sp;
#if defined(__riscv)
    __asm__ volatile("mv %0, sp" : "=r"(sp));
#else
    __asm__ volatile("mov %0, sp" : "=r"(sp));
#endif
    return sp;
}

/* Stack below the caller's SP that `call` touched. copse_port_stack_paint leaves the words
 * just under its own frame unpainted, so the method cannot see below a floor of a few
 * dozen bytes: measure nothing once to know it. */
#define MEASURE(name, call)                                                            \
    do {                                                                               \
        uintptr_t sp0_;                                                                \
        size_t used_;                                                                  \
        copse_port_stack_paint();                                                        \
        sp0_ = sp_now();                                                               \
        (void)(call);                                                                  \
        used_ = copse_port_stack_used() - (size_t)(copse_port_stack_top() - sp0_);          \
        copse_port_printf("stack %s %lu\n", name, (unsigned long)used_);               \
    } while (0)

#define LEAF (DEMO_SMALL ? 8u : 4u) /* as in the demo: the small scene fits a micro:bit */

static scene g_scene;
static COPSE_ARENA_STORAGE(g_mem, COPSE_BVH_BUILD_BYTES(SCENE_TRIS, LEAF));

/* A visitor that counts: the callback's own frame is part of what visit_* measure. */
static bool count_ids(void *user, uint32_t id)
{
    (void)id;
    ++*(uint32_t *)user;
    return true;
}

int main(int argc, char **argv)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_bvh_params median = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bvh bvh;
    copse_mesh mesh;
    copse_hit hit, hits[16];
    copse_hit_list hit_list = copse_hit_list_make(hits, 16);
    uint32_t ids[32], visited = 0;
    copse_id_list id_list = copse_id_list_make(ids, 32);
    copse_nearest3 near;
    copse_bvh_stats stats;
    /* from the middle of the first aisle: along it, and diagonally into a rack */
    copse_ray3 ray = { { 1.5f, 0.4f, 6.0f }, { 0.8f, 0.0f, -0.6f }, 30.0f };
    copse_sphere body = { { 8.0f, 0.5f, 6.0f }, 1.5f };
    copse_box3 box = copse_box3_make(6.0f, 0.0f, 3.0f, 10.0f, 2.0f, 7.0f);
    copse_vec3 point = copse_v3(8.0f, 0.5f, 6.0f);

    copse_port_init(argc, argv);
    /* No interrupts while measuring: an exception stacks 32-104 bytes on top of whatever runs.
     * On Cortex-M the port's SysTick is the only one; the RISC-V port enables none. */
#if defined(__arm__)
    *(volatile uint32_t *)0xE000E010u = 0u; /* SysTick CSR: off */
#endif
    copse_port_printf("stack probe on %s: bytes below the caller's SP\n", copse_port_name());

    scene_build(&g_scene);
    mesh = scene_mesh(&g_scene);
    MEASURE("(floor)", 0);

    params.leaf_size = median.leaf_size = LEAF;
    median.split = COPSE_BVH_SPLIT_MEDIAN;
    copse_arena_init(&arena, g_mem, sizeof g_mem);
    MEASURE("copse_bvh_build_mesh", copse_bvh_build_mesh(&bvh, &arena, &mesh, &median));
    copse_arena_init(&arena, g_mem, sizeof g_mem);
    MEASURE("copse_bvh_build_mesh", copse_bvh_build_mesh(&bvh, &arena, &mesh, &params)); /* SAH: kept */

    MEASURE("copse_bvh_raycast", copse_bvh_raycast(&bvh, &ray, &hit));
    MEASURE("copse_bvh_raycast_all", copse_bvh_raycast_all(&bvh, &ray, &hit_list));
    MEASURE("copse_bvh_overlap_box", copse_bvh_overlap_box(&bvh, &box, COPSE_BVH_SELECT_PRIMS, &id_list));
    MEASURE("copse_bvh_overlap_sphere", copse_bvh_overlap_sphere(&bvh, &body, COPSE_BVH_SELECT_PRIMS, &id_list));
    MEASURE("copse_bvh_visit_sphere",
            copse_bvh_visit_sphere(&bvh, &body, COPSE_BVH_SELECT_PRIMS, count_ids, &visited));
    MEASURE("copse_bvh_nearest", copse_bvh_nearest(&bvh, point, 3.0f, &near));
    MEASURE("copse_bvh_nearest_vertex", copse_bvh_nearest_vertex(&bvh, point, 3.0f, &near));
    MEASURE("copse_bvh_get_stats", copse_bvh_get_stats(&bvh, &stats));
    MEASURE("copse_bvh_check", copse_bvh_check(&bvh));

    copse_port_printf("done: %lu triangles, ray hit %lu, %lu ids in the box, %lu visited\n",
                      (unsigned long)bvh.prim_count, (unsigned long)hit.id, (unsigned long)id_list.count,
                      (unsigned long)visited);
    return 0;
}

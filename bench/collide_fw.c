/* SPDX-License-Identifier: MIT */
/*
 * collide_fw: the collision queries on a board. A procedural room (bench_scene_room: an uneven
 * floor, crates and shelves; no data files) and a procedural robot link (a closed cylinder,
 * forearm sized), both as BVHs; the link at random poses near the room's surfaces, about half of
 * them touching. Under `qemu-run <board> <elf> --icount` the port's counter counts instructions
 * exactly (docs/boards.md: counting instructions), so each figure is deterministic; on the host it is nanoseconds.
 *
 * One record per line:
 *   scene <room triangles> <link triangles> <room tree bytes> <link tree bytes>
 *   collide <query> <counter per query> <touching or found> <queries>
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bench.h"
#include "copse/copse.h"
#include "port.h"

#define GRID 16u
#define BOXES 24u
#define SIDES 16u
#define RINGS 4u
#define LINK_VERTICES (SIDES * (RINGS + 1u) + 2u)
#define LINK_TRIANGLES (2u * SIDES * RINGS + 2u * SIDES)
#define POSES 64u

static float room_pos[3u * BENCH_SCENE_VERTICES(GRID, BOXES)];
static uint16_t room_idx[3u * BENCH_SCENE_TRIANGLES(GRID, BOXES)];
static float link_pos[3u * LINK_VERTICES];
static uint16_t link_idx[3u * LINK_TRIANGLES];
static COPSE_ARENA_STORAGE(room_mem, COPSE_BVH_BUILD_BYTES(BENCH_SCENE_TRIANGLES(GRID, BOXES), 4));
static COPSE_ARENA_STORAGE(link_mem, COPSE_BVH_BUILD_BYTES(LINK_TRIANGLES, 4));
static copse_pose poses[POSES];

static int failures;

/* A closed cylinder along z, radius r, length len, centred at the origin. */
static copse_mesh make_link(float r, float len)
{
    uint32_t s, k, nt = 0;
    copse_mesh m;
    for (k = 0; k <= RINGS; k++)
        for (s = 0; s < SIDES; s++) {
            float a = 6.2831853f * (float)s / (float)SIDES;
            float *p = &link_pos[3u * (k * SIDES + s)];
            p[0] = r * cosf(a);
            p[1] = r * sinf(a);
            p[2] = len * ((float)k / (float)RINGS - 0.5f);
        }
    link_pos[3u * (LINK_VERTICES - 2u) + 0u] = 0.0f;
    link_pos[3u * (LINK_VERTICES - 2u) + 1u] = 0.0f;
    link_pos[3u * (LINK_VERTICES - 2u) + 2u] = -0.5f * len;
    link_pos[3u * (LINK_VERTICES - 1u) + 0u] = 0.0f;
    link_pos[3u * (LINK_VERTICES - 1u) + 1u] = 0.0f;
    link_pos[3u * (LINK_VERTICES - 1u) + 2u] = 0.5f * len;
    for (k = 0; k < RINGS; k++)
        for (s = 0; s < SIDES; s++) {
            uint16_t a = (uint16_t)(k * SIDES + s), b = (uint16_t)(k * SIDES + (s + 1u) % SIDES);
            uint16_t c = (uint16_t)(a + SIDES), d = (uint16_t)(b + SIDES);
            uint16_t *t = &link_idx[3u * nt];
            t[0] = a, t[1] = b, t[2] = d, t[3] = a, t[4] = d, t[5] = c;
            nt += 2;
        }
    for (s = 0; s < SIDES; s++) {
        uint16_t *t = &link_idx[3u * nt];
        t[0] = (uint16_t)(LINK_VERTICES - 2u), t[1] = (uint16_t)((s + 1u) % SIDES), t[2] = (uint16_t)s;
        t[3] = (uint16_t)(LINK_VERTICES - 1u), t[4] = (uint16_t)(RINGS * SIDES + s);
        t[5] = (uint16_t)(RINGS * SIDES + (s + 1u) % SIDES);
        nt += 2;
    }
    m.positions = link_pos;
    m.vertex_count = LINK_VERTICES;
    m.vertex_stride = 0;
    m.indices = link_idx;
    m.index_type = COPSE_MESH_INDEX_U16;
    m.triangle_count = nt;
    return m;
}

/* Poses near the room's surfaces: a random point of a random triangle, moved up to 0.3 m. */
static void make_poses(const copse_mesh *room)
{
    bench_rng rng;
    uint32_t i;
    bench_rng_seed(&rng, 77);
    for (i = 0; i < POSES; i++) {
        const float *v[3];
        float u = bench_rng_float(&rng, 0.0f, 1.0f), w = bench_rng_float(&rng, 0.0f, 1.0f);
        copse_quat q;
        copse_vec3 at;
        bench_triangle(room, bench_rng_u32(&rng) % room->triangle_count, v);
        if (u + w > 1.0f) {
            u = 1.0f - u;
            w = 1.0f - w;
        }
        at.x = v[0][0] + u * (v[1][0] - v[0][0]) + w * (v[2][0] - v[0][0]) + bench_rng_float(&rng, -0.3f, 0.3f);
        at.y = v[0][1] + u * (v[1][1] - v[0][1]) + w * (v[2][1] - v[0][1]) + bench_rng_float(&rng, -0.1f, 0.3f);
        at.z = v[0][2] + u * (v[1][2] - v[0][2]) + w * (v[2][2] - v[0][2]) + bench_rng_float(&rng, -0.3f, 0.3f);
        q.x = bench_rng_float(&rng, -1.0f, 1.0f);
        q.y = bench_rng_float(&rng, -1.0f, 1.0f);
        q.z = bench_rng_float(&rng, -1.0f, 1.0f);
        q.w = bench_rng_float(&rng, -1.0f, 1.0f);
        if (copse_pose_from_quat(&poses[i], q, at) != COPSE_OK)
            poses[i] = copse_pose_translation(at);
    }
}

static void check(copse_status st, const char *what)
{
    if (st != COPSE_OK) {
        copse_port_printf("error %s %s\n", what, copse_status_str(st));
        failures++;
    }
}

enum { Q_MESH_ANY, Q_MESH_DISTANCE, Q_MESH_WITHIN, Q_CAPSULE_ANY, Q_CAPSULE_DISTANCE, Q_SPHERE_ANY,
       Q_SPHERE_DISTANCE, Q_OBB_ANY, Q_SPHERE_SWEEP, Q_COUNT };

static const char *const q_name[Q_COUNT] = { "link_vs_room_any",   "link_vs_room_distance",
                                             "link_vs_room_within_5cm", "capsule_any",
                                             "capsule_distance", "sphere_any",
                                             "sphere_distance",   "obb_any",
                                             "sphere_sweep" };

/* One query family over every pose; returns how many touched (or found something). */
static uint32_t run(int q, const copse_bvh *room, const copse_bvh *link)
{
    /* the link's stand-ins in its own frame: a capsule along its axis, a sphere around its
     * middle, its bounding box */
    static const copse_capsule capsule = { { { 0.0f, 0.0f, -0.2f }, { 0.0f, 0.0f, 0.2f } }, 0.06f };
    static const copse_sphere sphere = { { 0.0f, 0.0f, 0.0f }, 0.1f };
    copse_obb obb;
    copse_distance_query within = COPSE_DISTANCE_QUERY_DEFAULT;
    uint32_t i, touched = 0;
    obb.center = copse_v3(0.0f, 0.0f, 0.0f);
    obb.half = copse_v3(0.06f, 0.06f, 0.2f);
    obb.rotation[0][0] = 1.0f, obb.rotation[0][1] = 0.0f, obb.rotation[0][2] = 0.0f;
    obb.rotation[1][0] = 0.0f, obb.rotation[1][1] = 1.0f, obb.rotation[1][2] = 0.0f;
    obb.rotation[2][0] = 0.0f, obb.rotation[2][1] = 0.0f, obb.rotation[2][2] = 1.0f;
    within.max_distance = 0.05f;
    within.first_within = true;
    for (i = 0; i < POSES; i++) {
        const copse_pose *p = &poses[i];
        copse_pair pair;
        copse_distance d;
        copse_sweep_hit hit;
        uint32_t id;
        copse_status st = COPSE_OK;
        switch (q) {
        case Q_MESH_ANY:
            st = copse_bvh_any_bvh(room, link, p, &pair, NULL);
            touched += pair.tree_id != COPSE_NONE;
            break;
        case Q_MESH_DISTANCE:
            st = copse_distance_bvh_bvh(link, p, room, NULL, &d);
            touched += d.distance == 0.0f;
            break;
        case Q_MESH_WITHIN:
            st = copse_distance_bvh_bvh(link, p, room, &within, &d);
            touched += d.tree_id != COPSE_NONE;
            break;
        case Q_CAPSULE_ANY:
            st = copse_bvh_any_capsule(room, &capsule, p, &id);
            touched += id != COPSE_NONE;
            break;
        case Q_CAPSULE_DISTANCE:
            st = copse_distance_capsule_bvh(&capsule, p, room, NULL, &d);
            touched += d.distance == 0.0f;
            break;
        case Q_SPHERE_ANY:
            st = copse_bvh_any_sphere(room, &sphere, p, &id);
            touched += id != COPSE_NONE;
            break;
        case Q_SPHERE_DISTANCE:
            st = copse_distance_sphere_bvh(&sphere, p, room, NULL, &d);
            touched += d.distance == 0.0f;
            break;
        case Q_OBB_ANY:
            st = copse_bvh_any_obb(room, &obb, p, &id);
            touched += id != COPSE_NONE;
            break;
        default:
            st = copse_sweep_sphere_bvh(&sphere, p, copse_v3(0.0f, -0.5f, 0.0f), room, &hit);
            touched += hit.id != COPSE_NONE;
            break;
        }
        if (st != COPSE_OK)
            check(st, q_name[q]);
    }
    return touched;
}

int main(int argc, char **argv)
{
    copse_mesh room_mesh, link_mesh;
    copse_bvh room, link;
    copse_arena arena;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    int q;
    copse_port_init(argc, argv);
    room_mesh = bench_scene_room(room_pos, room_idx, GRID, BOXES, 5);
    link_mesh = make_link(0.06f, 0.4f);
    copse_arena_init(&arena, room_mem, sizeof room_mem);
    check(copse_bvh_build_mesh(&room, &arena, &room_mesh, &params), "room build");
    copse_arena_init(&arena, link_mem, sizeof link_mem);
    check(copse_bvh_build_mesh(&link, &arena, &link_mesh, &params), "link build");
    if (failures != 0)
        copse_port_exit(1);
    make_poses(&room_mesh);
    copse_port_printf("scene %u %u %u %u\n", (unsigned)room_mesh.triangle_count, (unsigned)link_mesh.triangle_count,
                      (unsigned)copse_bvh_bytes(&room), (unsigned)copse_bvh_bytes(&link));
    for (q = 0; q < Q_COUNT; q++) {
        uint64_t t0 = copse_port_counter(), t1;
        uint32_t touched = run(q, &room, &link);
        t1 = copse_port_counter();
        copse_port_printf("collide %s %u %u %u\n", q_name[q], (unsigned)((t1 - t0) / POSES), (unsigned)touched,
                          (unsigned)POSES);
    }
    copse_port_printf("unit %s\n", copse_port_counter_unit());
    copse_port_exit(failures != 0 ? 1 : 0);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * copse collision example: a robot's forearm, its own collision mesh placed by the pose of a
 * URDF joint origin, checked against the world mesh and against a laser scan of a wall.
 * Built and run by `make test`, which checks its output against expected.txt (README.md
 * shows both). No malloc: every tree lives in a static buffer the compiler sizes.
 */
#include <stdio.h>

#include "copse/collide.h"

/* ---- the world: a 10 m x 10 m floor at y = 0 and a 1 m crate from (4, 0, 4) to (5, 1, 5) ---- */
static const float world_vertices[12 * 3] = {
    0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10, /* floor */
    4, 0, 4, 5, 0, 4, 5, 0, 5, 4, 0, 5,     /* crate bottom */
    4, 1, 4, 5, 1, 4, 5, 1, 5, 4, 1, 5,     /* crate top */
};
static const uint16_t world_triangles[12 * 3] = {
    0, 2, 1, 0, 3, 2, 8, 10, 9, 8, 11, 10, 4, 5, 9, 4, 9, 8,
    5, 6, 10, 5, 10, 9, 6, 7, 11, 6, 11, 10, 7, 4, 8, 7, 8, 11,
};

/* ---- the forearm: a hexagonal prism 0.5 m long along its own z, corners 0.06 m from its axis -- */
#define SIDES 6u
static float link_vertices[(2u * SIDES + 2u) * 3u];
static uint16_t link_triangles[4u * SIDES * 3u];

static void make_forearm(void)
{
    /* corners of a hexagon of circumradius 0.06 m: cos and sin of multiples of 60 degrees */
    static const float c[SIDES] = { 1.0f, 0.5f, -0.5f, -1.0f, -0.5f, 0.5f };
    static const float s[SIDES] = { 0.0f, 0.8660254f, 0.8660254f, 0.0f, -0.8660254f, -0.8660254f };
    unsigned k, t = 0;
    for (k = 0; k < SIDES; k++) {
        float *lo = &link_vertices[3u * k], *hi = &link_vertices[3u * (k + SIDES)];
        lo[0] = hi[0] = 0.06f * c[k];
        lo[1] = hi[1] = 0.06f * s[k];
        lo[2] = 0.0f;
        hi[2] = 0.5f;
    }
    link_vertices[3u * 2u * SIDES + 2u] = 0.0f;       /* the centres of the two ends */
    link_vertices[3u * (2u * SIDES + 1u) + 2u] = 0.5f;
    for (k = 0; k < SIDES; k++) {
        uint16_t a = (uint16_t)k, b = (uint16_t)((k + 1u) % SIDES);
        uint16_t quad[12] = { a, b, (uint16_t)(b + SIDES), a, (uint16_t)(b + SIDES), (uint16_t)(a + SIDES),
                              (uint16_t)(2u * SIDES), b, a, (uint16_t)(2u * SIDES + 1u), (uint16_t)(a + SIDES),
                              (uint16_t)(b + SIDES) };
        unsigned j;
        for (j = 0; j < 12u; j++)
            link_triangles[t++] = quad[j];
    }
}

/* ---- the scan: a wall at z = 6 from x = 3 to 6, up to 1.5 m, one point every 10 cm ---------- */
#define SCAN_POINTS (31u * 16u)
static copse_vec3 scan_points[SCAN_POINTS];

static COPSE_ARENA_STORAGE(world_memory, COPSE_BVH_BUILD_BYTES(12, 4));
static COPSE_ARENA_STORAGE(link_memory, COPSE_BVH_BUILD_BYTES(4u * SIDES, 4));
static COPSE_ARENA_STORAGE(scan_memory, COPSE_OCTREE_BYTES(256, 256, 8));
static COPSE_ARENA_STORAGE(scan_scratch, COPSE_OCTREE_BUILD_SCRATCH_BYTES(SCAN_POINTS, 8));

int main(void)
{
    copse_mesh world_mesh = { world_vertices, 12, 0, world_triangles, COPSE_MESH_INDEX_U16, 12 };
    copse_mesh link_mesh = { link_vertices, 2u * SIDES + 2u, 0, link_triangles, COPSE_MESH_INDEX_U16, 4u * SIDES };
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_octree_config scan_config = { scan_points, NULL, SCAN_POINTS, { { 0, 0, 0 }, { 10, 2, 10 } },
                                        256, 256, 16, 8, 8 };
    copse_bvh world, link;
    copse_octree scan;
    copse_arena arena, scratch;
    copse_pose pose;
    copse_pair pair;
    copse_distance d;
    copse_sweep_hit hit;
    uint32_t near_ids[SCAN_POINTS];
    copse_id_list near = copse_id_list_make(near_ids, SCAN_POINTS);
    float separation;
    unsigned i, j;

    make_forearm();
    for (i = 0; i < 31u; i++)
        for (j = 0; j < 16u; j++)
            scan_points[16u * i + j] = copse_v3(3.0f + 0.1f * (float)i, 0.1f * (float)j, 6.0f);

    copse_arena_init(&arena, world_memory, sizeof world_memory);
    if (copse_bvh_build_mesh(&world, &arena, &world_mesh, &params) != COPSE_OK)
        return 1;
    copse_arena_init(&arena, link_memory, sizeof link_memory);
    if (copse_bvh_build_mesh(&link, &arena, &link_mesh, &params) != COPSE_OK)
        return 1;
    copse_arena_init(&arena, scan_memory, sizeof scan_memory);
    copse_arena_init(&scratch, scan_scratch, sizeof scan_scratch);
    if (copse_octree_init(&scan, &arena, &scan_config) != COPSE_OK ||
        copse_octree_build(&scan, &scratch, SCAN_POINTS) != COPSE_OK)
        return 1;

    /* The forearm's frame in the world, as a URDF <origin xyz="3.7 0.5 4.5" rpy="0 1.5708 0">:
     * pitched a quarter turn, so its z axis points along the world's x, 0.5 m above the floor. */
    copse_pose_from_xyz_rpy(&pose, copse_v3(3.7f, 0.5f, 4.5f), copse_v3(0.0f, 1.5707964f, 0.0f));

    /* Does it touch the world? It reaches from x = 3.7 to 4.2, into the crate. */
    copse_bvh_any_bvh(&world, &link, &pose, &pair, &separation);
    if (pair.tree_id == COPSE_NONE)
        printf("clear of the world (at least %.3f m)\n", (double)separation);
    else
        printf("touches the world: crate triangle %u, forearm triangle %u\n", (unsigned)pair.tree_id,
               (unsigned)pair.shape_id);

    /* Back off 0.3 m: how far is it now, and from what? */
    pose.translation.x -= 0.3f;
    copse_distance_bvh_bvh(&link, &pose, &world, NULL, &d);
    printf("backed off: %.3f m from triangle %u, nearest point (%.2f, %.2f, %.2f)\n", (double)d.distance,
           (unsigned)d.tree_id, (double)d.tree_point.x, (double)d.tree_point.y, (double)d.tree_point.z);

    /* And from the scanned wall: the nearest point, and every point within 1.5 m. */
    copse_distance_bvh_octree(&link, &pose, &scan, NULL, &d);
    copse_octree_overlap_bvh(&scan, &link, &pose, 1.5f, &near);
    printf("scan: nearest point %u at %.3f m, %u points within 1.5 m%s\n", (unsigned)d.tree_id, (double)d.distance,
           (unsigned)near.count, near.truncated ? " (and more)" : "");

    /* Its stand-in for fast checks, a capsule round its axis, swept 1 m along +x: where does it
     * first touch? (The capsule reaches 0.06 m past the forearm's end.) */
    {
        copse_capsule around = { { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.5f } }, 0.06f };
        copse_sweep_capsule_bvh(&around, &pose, copse_v3(1.0f, 0.0f, 0.0f), &world, &hit);
        printf("sweep +1 m in x: first contact after %.3f m on triangle %u, normal (%.0f, %.0f, %.0f)\n",
               (double)hit.t, (unsigned)hit.id, (double)hit.normal.x, (double)hit.normal.y, (double)hit.normal.z);
    }
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The 3D BSP on brushes made from a real mesh (host only): dungeon.obj (Recast's demo level)
 * cut into clusters of triangles by a grid over its bounds, each cluster's bounding box one
 * brush (flat ones thickened), so the brushes overlap, touch and nest as real level geometry
 * does. The 3D tree is judged by the brute-force battery of test_bsp.h; the clusters' xz
 * footprints, as a 2D map, by the 2D one. The 3D tree also goes through a blob and back.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh_clusters.h"
#include "mesh_load.h"
#include "suites.h"
#include "test_bsp.h"

#define GRID_XZ 12u
#define GRID_Y 3u

static void test_dungeon(void)
{
    const char *data = test_data_dir();
    char path[600], err[256];
    host_mesh mesh;
    float lo[3], hi[3];
    copse_box3 *boxes;
    copse_plane *planes;
    copse_brush *brushes;
    uint32_t i, n;
    unsigned k;
    copse_bsp3 tree;
    copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    test_rng rng;
    bsp3_battery bt;
    if (data == NULL) {
        test_skip("no shared data: run the tests with --data <dir> (make passes ../shared/data)");
        return;
    }
    copse_port_snprintf(path, sizeof path, "%s/meshes/dungeon.obj", data);
    if (host_mesh_load(path, &mesh, err, sizeof err) != 0) {
        test_skip("../shared/data/meshes/dungeon.obj is missing: the real-mesh BSP suite did not run");
        return;
    }
    boxes = (copse_box3 *)malloc(GRID_XZ * GRID_XZ * GRID_Y * sizeof *boxes);
    planes = (copse_plane *)malloc(GRID_XZ * GRID_XZ * GRID_Y * 6u * sizeof *planes);
    brushes = (copse_brush *)malloc(GRID_XZ * GRID_XZ * GRID_Y * sizeof *brushes);
    n = boxes != NULL ? host_mesh_cluster_boxes(&mesh, GRID_XZ, GRID_Y, 0.05f, boxes, lo, hi) : 0;
    if (CHECK(planes != NULL && brushes != NULL && n > 50)) {
        for (i = 0; i < n; i++) {
            CHECK_STATUS(copse_brush_from_box(&boxes[i], planes + 6u * i), COPSE_OK);
            brushes[i].planes = planes + 6u * i;
            brushes[i].plane_count = 6;
        }
        bsp_pool_reset();
        if (bsp3_build_exact(&tree, brushes, n, &p)) {
            copse_port_printf("info bsp3 dungeon: %u brushes, %u nodes, %u solid + %u mixed + %u empty leaves, "
                              "depth %u, %u splits, %lu bytes\n",
                              (unsigned)n, (unsigned)tree.node_count, (unsigned)tree.solid_leaves,
                              (unsigned)tree.mixed_leaves, (unsigned)tree.empty_leaves, (unsigned)tree.depth,
                              (unsigned)tree.split_count, (unsigned long)copse_bsp3_bytes(&tree));
            test_rng_seed(&rng, 2718);
            bt.name = "dungeon clusters";
            for (k = 0; k < 3; k++) {
                bt.lo[k] = lo[k];
                bt.hi[k] = hi[k];
            }
            bt.grid = 0.0f;
            bt.radius = (hi[0] - lo[0]) * 0.02f;
            bsp3_run_oracle(&tree, brushes, n, &bt, &rng, 2000u);
            bsp3_blob_round_trip(&tree, &bt, "bsp3 dungeon"); /* baked and viewed: the same tree */
        }
        /* the same clusters as a ground robot's 2D map: their xz footprints */
        {
            copse_box2 *map = (copse_box2 *)malloc(n * sizeof *map), scene = copse_box2_make(lo[0], lo[2], hi[0], hi[2]);
            uint32_t depth;
            if (!CHECK(map != NULL))
                n = 0;
            for (i = 0; i < n; i++)
                map[i] = copse_box2_make(boxes[i].min.x, boxes[i].min.z, boxes[i].max.x, boxes[i].max.z);
            for (depth = 6; depth <= 18 && depth <= COPSE_BSP_MAX_DEPTH; depth += 6) {
                bsp_pool_reset();
                bsp2_judge_map(&scene, map, n, depth, 1618u + depth, 2000u);
            }
            free(map);
        }
    }
    free(boxes);
    free(planes);
    free(brushes);
    host_mesh_free(&mesh);
}

void suite_bsp_meshes(void)
{
    test_run("bsp_meshes/dungeon_clusters", test_dungeon);
}

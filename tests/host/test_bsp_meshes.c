/*
 * The 3D BSP on brushes made from a real mesh (host only): dungeon.obj (Recast's demo level)
 * cut into clusters of triangles by a grid over its bounds, each cluster's bounding box one
 * brush (flat ones thickened), so the brushes overlap, touch and nest as real level geometry
 * does. The tree is judged by the brute-force battery of test_bsp3.h.
 */
#include <stdlib.h>
#include <string.h>

#include "mesh_load.h"
#include "suites.h"
#include "test_bsp3.h"

#define GRID_XZ 12u
#define GRID_Y 3u

static void test_dungeon(void)
{
    const char *data = test_data_dir();
    char path[600], err[256];
    host_mesh mesh;
    float lo[3], hi[3], *cell;
    copse_plane *planes;
    copse_brush *brushes;
    uint32_t t, i, n = 0;
    unsigned k;
    copse_bsp3 tree;
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
    for (k = 0; k < 3; k++) {
        lo[k] = hi[k] = mesh.positions[k];
        for (i = 1; i < mesh.vertex_count; i++) {
            float v = mesh.positions[3u * i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    }
    /* per cell: min xyz, max xyz, and a flag */
    cell = (float *)calloc(GRID_XZ * GRID_XZ * GRID_Y, 7u * sizeof(float));
    planes = (copse_plane *)malloc(GRID_XZ * GRID_XZ * GRID_Y * 6u * sizeof(copse_plane));
    brushes = (copse_brush *)malloc(GRID_XZ * GRID_XZ * GRID_Y * sizeof(copse_brush));
    if (!CHECK(cell != NULL && planes != NULL && brushes != NULL)) {
        host_mesh_free(&mesh);
        return;
    }
    for (t = 0; t < mesh.triangle_count; t++) {
        float c[3] = {0, 0, 0}, mn[3], mx[3];
        uint32_t g[3], at;
        unsigned j;
        for (k = 0; k < 3; k++) {
            mn[k] = 1e30f;
            mx[k] = -1e30f;
        }
        for (j = 0; j < 3; j++) {
            const float *v = mesh.positions + 3u * mesh.indices[3u * t + j];
            for (k = 0; k < 3; k++) {
                c[k] += v[k] / 3.0f;
                mn[k] = v[k] < mn[k] ? v[k] : mn[k];
                mx[k] = v[k] > mx[k] ? v[k] : mx[k];
            }
        }
        for (k = 0; k < 3; k++) {
            uint32_t cells = k == 1 ? GRID_Y : GRID_XZ;
            float u = (c[k] - lo[k]) / (hi[k] - lo[k]);
            g[k] = u >= 1.0f ? cells - 1u : (uint32_t)(u * (float)cells);
        }
        at = 7u * ((g[1] * GRID_XZ + g[2]) * GRID_XZ + g[0]);
        for (k = 0; k < 3; k++) {
            cell[at + k] = cell[at + 6] == 0.0f || mn[k] < cell[at + k] ? mn[k] : cell[at + k];
            cell[at + 3u + k] = cell[at + 6] == 0.0f || mx[k] > cell[at + 3u + k] ? mx[k] : cell[at + 3u + k];
        }
        cell[at + 6] = 1.0f;
    }
    for (i = 0; i < GRID_XZ * GRID_XZ * GRID_Y; i++) {
        float *b = cell + 7u * i;
        copse_box3 box;
        if (b[6] == 0.0f)
            continue;
        for (k = 0; k < 3; k++)
            if (b[3u + k] - b[k] < 0.05f) { /* a floor or a wall: give it thickness */
                b[k] -= 0.025f;
                b[3u + k] += 0.025f;
            }
        box = copse_box3_make(b[0], b[1], b[2], b[3], b[4], b[5]);
        CHECK_STATUS(copse_brush_from_box(&box, planes + 6u * n), COPSE_OK);
        brushes[n].planes = planes + 6u * n;
        brushes[n].plane_count = 6;
        n++;
    }
    bsp3_pool_reset();
    {
        copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
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
        }
    }
    CHECK(n > 50);
    free(cell);
    free(planes);
    free(brushes);
    host_mesh_free(&mesh);
}

void suite_bsp_meshes(void)
{
    test_run("bsp_meshes/dungeon_clusters", test_dungeon);
}

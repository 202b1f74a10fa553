/* SPDX-License-Identifier: MIT */
/*
 * The BVH on real meshes (host only): every mesh in <data>/meshes, loaded through assimp,
 * built with each split, as a 3D tree and as a 2D tree over its XZ projection; random rays
 * (around and inside the bounds, and aimed at points of random triangles), boxes, spheres,
 * segments, nearest points and nearest vertices, each judged against the double-precision
 * oracle on every tree. The query count per mesh keeps the brute force near a fixed budget.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_load.h"
#include "suites.h"
#include "test_bvh.h"

#define MAX_MESHES 32
#define PRIM_TESTS_PER_MESH 12000000.0 /* brute-force primitive tests per mesh and projection */

static char g_dir[512];
static char g_names[MAX_MESHES][96];
static char g_tests[MAX_MESHES][128];
static unsigned g_count, g_current;

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Queries per family: about PRIM_TESTS_PER_MESH brute-force tests in all, 12..60 per family unit. */
static tk_mix mix_for(uint32_t triangles, bool planar)
{
    double unit = PRIM_TESTS_PER_MESH / (10.0 * (triangles > 0 ? (double)triangles : 1.0));
    unsigned k = unit > 60.0 ? 60u : unit < 12.0 ? 12u : (unsigned)unit;
    tk_mix mix;
    mix.boxes = k;
    mix.spheres = k;
    mix.segments = k;
    mix.rays = 4u * k;
    mix.nearest = 2u * k;
    mix.vertices = planar ? 0u : k;
    return mix;
}

static void run_mesh(const copse_mesh *view, copse_bvh_projection projection, const char *name)
{
    static const copse_bvh_split splits[3] = { COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT };
    size_t mark = tk_mark();
    tk_tree trees[3];
    tk_scene sc;
    tk_mix mix;
    unsigned s;
    tk_scene_from_mesh(&sc, view, projection);
    tk_context("%s%s", name, projection == COPSE_BVH_PROJECT_XZ ? " (xz)" : "");
    for (s = 0; s < 3; s++) {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        p.split = splits[s];
        if (!tk_build(&trees[s], &sc, &p)) {
            tk_rewind(mark);
            return;
        }
    }
    mix = mix_for(sc.n, projection != COPSE_BVH_PROJECT_NONE);
    tk_run_queries(&sc, trees, 3, 4242u + sc.n, &mix);
    tk_rewind(mark);
}

static void test_one_mesh(void)
{
    char path[640], err[256];
    host_mesh mesh;
    copse_mesh view;
    copse_port_snprintf(path, sizeof path, "%s/%s", g_dir, g_names[g_current]);
    tk_pool_reset();
    tk_tally_begin();
    tk_context("%s", g_names[g_current]);
    if (!CHECKF(host_mesh_load(path, &mesh, err, sizeof err) == 0, "%s", err))
        return;
    CHECKF(mesh.triangle_count > 0, "%s: no triangles", path);
    view = host_mesh_view(&mesh);
    run_mesh(&view, COPSE_BVH_PROJECT_NONE, g_names[g_current]);
    run_mesh(&view, COPSE_BVH_PROJECT_XZ, g_names[g_current]);
    host_mesh_free(&mesh);
    tk_tally_end();
}

static void test_no_data(void)
{
    test_skip("no shared data: run the tests with --data <dir> (make passes ../shared/data)");
}

void suite_bvh_meshes(void)
{
    const char *data = test_data_dir();
    DIR *dir = NULL;
    struct dirent *entry;
    unsigned i;
    g_count = 0;
    if (data != NULL) {
        copse_port_snprintf(g_dir, sizeof g_dir, "%s/meshes", data);
        dir = opendir(g_dir);
    }
    if (dir == NULL) {
        test_run("bvh_meshes/all", test_no_data);
        return;
    }
    while ((entry = readdir(dir)) != NULL && g_count < MAX_MESHES) {
        size_t len = strlen(entry->d_name);
        if (entry->d_name[0] == '.' || len >= sizeof g_names[0])
            continue;
        memcpy(g_names[g_count++], entry->d_name, len + 1u);
    }
    closedir(dir);
    qsort(g_names, g_count, sizeof g_names[0], by_name);
    if (g_count == 0)
        test_run("bvh_meshes/all", test_no_data);
    for (i = 0; i < g_count; i++) {
        g_current = i;
        copse_port_snprintf(g_tests[i], sizeof g_tests[i], "bvh_meshes/%s", g_names[i]);
        test_run(g_tests[i], test_one_mesh);
    }
    tk_tally_report("bvh_meshes");
}

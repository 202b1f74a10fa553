/* SPDX-License-Identifier: MIT */
/*
 * Same input, same bytes (docs/design.md rule 6): fixed small scenes built by every builder,
 * each tree hashed and printed as a "checksum <name>: <hash>" line. `make test` compares
 * those lines across every host configuration, the FMA-contracting builds, every board and
 * the big-endian run (tools/same-bytes); a difference or a missing line fails it.
 *
 * The hash reads every 4-byte field as a value and feeds it least significant byte first,
 * so a big-endian machine that builds the same tree prints the same hash; the saved blob is
 * hashed as bytes (it is little endian everywhere). Scenes are made of integers divided by 7
 * (one correctly rounded division: no multiply-add a compiler could contract in the test
 * itself). Within the run each build is repeated at another arena offset and must hash the
 * same, and each tree must pass its check function.
 */
#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test.h"

enum { SB_PRIMS = 32, SB_POINTS = 48, SB_BOXES = 24 };

typedef struct sb_scene {
    float verts[3 * SB_PRIMS * 2];
    uint16_t tris[3 * SB_PRIMS];
    copse_box3 boxes3[SB_PRIMS];
    copse_box2 boxes2[SB_PRIMS];
    copse_vec3 points[SB_POINTS];
} sb_scene;

static sb_scene g_scene;

static float sb_coord(test_rng *rng, uint32_t range)
{
    return (float)((int32_t)test_rng_below(rng, 2u * range + 1u) - (int32_t)range) / 7.0f;
}

static void make_scene(sb_scene *s)
{
    test_rng rng;
    uint32_t i, a;
    test_rng_seed(&rng, 0x5A3EB17Eu);
    for (i = 0; i < 3u * SB_PRIMS * 2u; i++)
        s->verts[i] = sb_coord(&rng, 700u);
    for (i = 0; i < 3u * SB_PRIMS; i++)
        s->tris[i] = (uint16_t)test_rng_below(&rng, SB_PRIMS * 2u);
    for (i = 0; i < SB_PRIMS; i++) {
        float lo[3], hi[3];
        for (a = 0; a < 3u; a++) {
            lo[a] = sb_coord(&rng, 700u);
            hi[a] = lo[a] + (float)test_rng_below(&rng, 60u) / 7.0f;
        }
        s->boxes3[i] = copse_box3_make(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
        s->boxes2[i] = copse_box2_make(lo[0], lo[1], hi[0], hi[1]);
    }
    for (i = 0; i < SB_POINTS; i++) {
        s->points[i].x = sb_coord(&rng, 700u);
        s->points[i].y = sb_coord(&rng, i % 4u == 0u ? 3u : 700u); /* some near a plane */
        s->points[i].z = sb_coord(&rng, 700u);
    }
}

/* ---- hashing ------------------------------------------------------------------------------ */

static uint32_t fnv_byte(uint32_t h, uint32_t byte)
{
    return (h ^ (byte & 0xFFu)) * 16777619u;
}

static uint32_t hash_u32(uint32_t h, uint32_t v)
{
    h = fnv_byte(h, v);
    h = fnv_byte(h, v >> 8);
    h = fnv_byte(h, v >> 16);
    return fnv_byte(h, v >> 24);
}

/* `words` 4-byte fields (u32, i32 or float) by value. */
static uint32_t hash_words(uint32_t h, const void *p, size_t words)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < words; i++) {
        uint32_t v;
        memcpy(&v, b + 4u * i, 4u);
        h = hash_u32(h, v);
    }
    return h;
}

static uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        h = fnv_byte(h, ((const uint8_t *)p)[i]);
    return h;
}

#define SB_HASH0 2166136261u

/* ---- one build, twice ---------------------------------------------------------------------- */

/* A builder under test: builds into `arena`, returns the tree's hash through *hash (0 if the
 * build or the tree's check failed, after a failed CHECK). */
typedef bool (*sb_build_fn)(copse_arena *arena, unsigned variant, uint32_t *hash);

/* Builds at the start of the test memory and again 48 bytes further on (nothing in a tree
 * may depend on where it lies), prints the hash once both agree. */
static void run_twice(const char *name, sb_build_fn build, unsigned variant)
{
    size_t bytes = 0;
    uint8_t *mem = (uint8_t *)test_memory(&bytes);
    uint32_t h[2] = {0, 0};
    unsigned k;
    for (k = 0; k < 2u; k++) {
        copse_arena arena;
        copse_arena_init(&arena, mem + 48u * k, bytes - 48u * k);
        if (!build(&arena, variant, &h[k]))
            return;
    }
    if (CHECKF(h[0] == h[1], "%s: the same build at another address hashes %08x, then %08x", name, (unsigned)h[0],
               (unsigned)h[1]))
        copse_port_printf("checksum %s: %08x\n", name, (unsigned)h[0]);
}

/* ---- BVH ------------------------------------------------------------------------------------ */

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT};
static const char *const k_split_names[3] = {"sah", "median", "midpoint"};

enum { BVH_MESH3, BVH_MESH2_XZ, BVH_BOXES3, BVH_BOXES2, BVH_SOURCES };
static const char *const k_bvh_sources[BVH_SOURCES] = {"mesh3", "mesh2-xz", "boxes3", "boxes2"};

/* variant = source * 3 + split. The hash covers the nodes and prims by value, the tree's
 * counts and the saved blob's bytes. */
static bool build_bvh(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    const unsigned source = variant / 3u;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_bvh bvh;
    copse_mesh mesh;
    copse_status st;
    size_t save_bytes, written = 0;
    uint8_t *blob;
    uint32_t h = SB_HASH0;
    params.split = k_splits[variant % 3u];
    params.leaf_size = 2;
    params.projection = source == BVH_MESH2_XZ ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = g_scene.verts;
    mesh.vertex_count = SB_PRIMS * 2u;
    mesh.indices = g_scene.tris;
    mesh.index_type = COPSE_MESH_INDEX_U16;
    mesh.triangle_count = SB_PRIMS;
    if (source <= BVH_MESH2_XZ)
        st = copse_bvh_build_mesh(&bvh, arena, &mesh, &params);
    else if (source == BVH_BOXES3)
        st = copse_bvh_build_boxes3(&bvh, arena, g_scene.boxes3, NULL, SB_PRIMS, &params);
    else
        st = copse_bvh_build_boxes2(&bvh, arena, g_scene.boxes2, NULL, SB_PRIMS, &params);
    if (!CHECKF(st == COPSE_OK && copse_bvh_check(&bvh) == COPSE_OK, "bvh %s %s: %s", k_bvh_sources[source],
                k_split_names[variant % 3u], copse_status_str(st)))
        return false;
    h = hash_words(h, bvh.nodes, (size_t)bvh.node_count * (bvh.dim == 3u ? 8u : 6u));
    h = hash_words(h, bvh.prims, bvh.prim_count);
    h = hash_u32(h, (uint32_t)bvh.depth | ((uint32_t)bvh.dim << 8) | ((uint32_t)bvh.kind << 16));
    h = hash_u32(h, bvh.degenerate_count);
    save_bytes = copse_bvh_save_bytes(&bvh);
    blob = (uint8_t *)copse_arena_alloc(arena, save_bytes);
    if (!CHECK(blob != NULL) || !CHECK(copse_bvh_save(&bvh, blob, save_bytes, &written) == COPSE_OK))
        return false;
    *hash = hash_bytes(h, blob, written);
    return true;
}

/* ---- point octree ---------------------------------------------------------------------------- */

static uint32_t hash_octree(const copse_octree *t)
{
    uint32_t h = SB_HASH0;
    h = hash_words(h, t->nodes, (size_t)t->node_top * (sizeof(copse_octree_node) / 4u));
    h = hash_words(h, t->buckets, (size_t)t->bucket_top * (t->bucket_size + 1u));
    h = hash_u32(h, t->size);
    h = hash_u32(h, t->node_free);
    h = hash_u32(h, t->bucket_free);
    return hash_words(h, t->center, 4u); /* center[3], half */
}

/* variant 0: bulk build of every point; 1: the points inserted one by one in a fixed shuffle,
 * a quarter removed and put back. */
static bool build_octree(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    copse_octree_config cfg;
    copse_octree tree;
    copse_arena scratch;
    copse_status st;
    uint32_t i;
    void *scratch_mem;
    memset(&cfg, 0, sizeof cfg);
    cfg.points = g_scene.points;
    cfg.point_capacity = SB_POINTS;
    cfg.bounds = copse_box3_make(-100.0f, -100.0f, -100.0f, 100.0f, 100.0f, 100.0f);
    cfg.max_nodes = 64;
    cfg.max_buckets = 64;
    cfg.leaf_size = 4;
    cfg.bucket_size = 3;
    cfg.max_depth = 8;
    scratch_mem = copse_arena_alloc(arena, COPSE_OCTREE_BUILD_SCRATCH_BYTES(SB_POINTS, 8));
    if (!CHECK(scratch_mem != NULL))
        return false;
    copse_arena_init(&scratch, scratch_mem, COPSE_OCTREE_BUILD_SCRATCH_BYTES(SB_POINTS, 8));
    st = copse_octree_init(&tree, arena, &cfg);
    if (st == COPSE_OK && variant == 0u)
        st = copse_octree_build(&tree, &scratch, SB_POINTS);
    for (i = 0; st == COPSE_OK && variant == 1u && i < SB_POINTS; i++)
        st = copse_octree_insert(&tree, (i * 29u) % SB_POINTS);
    for (i = 0; st == COPSE_OK && variant == 1u && i < SB_POINTS; i += 4u)
        st = copse_octree_remove(&tree, (i * 7u) % SB_POINTS);
    for (i = 0; st == COPSE_OK && variant == 1u && i < SB_POINTS; i += 4u)
        st = copse_octree_insert(&tree, (i * 7u) % SB_POINTS);
    if (!CHECKF(st == COPSE_OK && copse_octree_check(&tree) == COPSE_OK && tree.size == SB_POINTS,
                "octree variant %u: %s", variant, copse_status_str(st)))
        return false;
    *hash = hash_octree(&tree);
    return true;
}

/* ---- loose octree ------------------------------------------------------------------------------ */

/* Every box inserted, a third moved, a sixth removed. */
static bool build_loose(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    copse_loose_config cfg;
    copse_loose tree;
    copse_status st;
    uint32_t i, h = SB_HASH0;
    (void)variant;
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(-100.0f, -100.0f, -100.0f, 100.0f, 100.0f, 100.0f);
    cfg.max_nodes = 64;
    cfg.max_objects = SB_PRIMS;
    cfg.max_depth = 6;
    cfg.node_capacity = 2;
    st = copse_loose_init(&tree, arena, &cfg);
    for (i = 0; st == COPSE_OK && i < SB_PRIMS; i++)
        st = copse_loose_insert(&tree, (i * 13u) % SB_PRIMS, &g_scene.boxes3[i]);
    for (i = 0; st == COPSE_OK && i < SB_PRIMS; i += 3u)
        st = copse_loose_move(&tree, i, &g_scene.boxes3[(i + 5u) % SB_PRIMS]);
    for (i = 1; st == COPSE_OK && i < SB_PRIMS; i += 6u)
        st = copse_loose_remove(&tree, i);
    if (!CHECKF(st == COPSE_OK, "loose: %s", copse_status_str(st)))
        return false;
    h = hash_words(h, tree.nodes, (size_t)tree.node_top * (sizeof(copse_loose_node) / 4u));
    h = hash_words(h, tree.objects, (size_t)tree.max_objects * (sizeof(copse_loose_object) / 4u));
    h = hash_u32(h, tree.size);
    h = hash_u32(h, tree.node_free);
    *hash = hash_words(h, tree.center, 4u);
    return true;
}

/* ---- BSP ---------------------------------------------------------------------------------------- */

static bool build_bsp2(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    const copse_box2 scene = copse_box2_make(-101.0f, -101.0f, 111.0f, 111.0f);
    copse_bsp2_params params = COPSE_BSP2_PARAMS_DEFAULT;
    copse_bsp2 bsp;
    copse_status st;
    uint32_t h = SB_HASH0;
    (void)variant;
    params.max_depth = 9;
    st = copse_bsp2_build(&bsp, arena, &scene, g_scene.boxes2, SB_BOXES, &params);
    if (!CHECKF(st == COPSE_OK && copse_bsp2_check(&bsp) == COPSE_OK, "bsp2: %s", copse_status_str(st)))
        return false;
    h = hash_words(h, bsp.nodes, (size_t)bsp.node_count * 3u);
    h = hash_words(h, bsp.items, bsp.item_count);
    h = hash_u32(h, bsp.leaf_count);
    *hash = hash_u32(h, bsp.depth);
    return true;
}

/* A few box brushes and one extruded hexagon (planes that are not axis-aligned). */
static bool build_bsp3(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    enum { BOX_BRUSHES = 6 };
    static copse_plane planes[BOX_BRUSHES * 6 + 8];
    static const copse_vec2 hexagon[6] = {{0.0f, -3.0f}, {2.6f, -1.5f}, {2.6f, 1.5f},
                                          {0.0f, 3.0f},  {-2.6f, 1.5f}, {-2.6f, -1.5f}};
    copse_brush brushes[BOX_BRUSHES + 1];
    copse_bsp3_params params = COPSE_BSP3_PARAMS_DEFAULT;
    copse_bsp3 bsp;
    copse_status st = COPSE_OK;
    uint32_t i, h = SB_HASH0, hex_planes = 0;
    (void)variant;
    for (i = 0; st == COPSE_OK && i < BOX_BRUSHES; i++) {
        const copse_box3 *b = &g_scene.boxes3[i];
        copse_box3 grown = copse_box3_make(b->min.x / 8.0f, b->min.y / 8.0f, b->min.z / 8.0f, b->min.x / 8.0f + 4.0f,
                                           b->min.y / 8.0f + 3.0f, b->min.z / 8.0f + 5.0f);
        st = copse_brush_from_box(&grown, planes + 6u * i);
        brushes[i].planes = planes + 6u * i;
        brushes[i].plane_count = 6;
    }
    if (st == COPSE_OK)
        st = copse_brush_from_polygon(hexagon, 6, -2.0f, 4.5f, planes + 6u * BOX_BRUSHES, 8, &hex_planes);
    brushes[BOX_BRUSHES].planes = planes + 6u * BOX_BRUSHES;
    brushes[BOX_BRUSHES].plane_count = hex_planes;
    if (st == COPSE_OK)
        st = copse_bsp3_build(&bsp, arena, brushes, BOX_BRUSHES + 1u, &params);
    if (!CHECKF(st == COPSE_OK && copse_bsp3_check(&bsp) == COPSE_OK, "bsp3: %s", copse_status_str(st)))
        return false;
    h = hash_words(h, bsp.nodes, (size_t)bsp.node_count * 3u);
    h = hash_words(h, bsp.planes, (size_t)bsp.plane_count * 4u);
    h = hash_words(h, bsp.sides, bsp.side_count);
    for (i = 0; i < bsp.brush_count; i++)
        h = hash_u32(hash_u32(h, bsp.brushes[i].first), bsp.brushes[i].counts);
    h = hash_words(h, bsp.leaves, (size_t)bsp.leaf_count * 2u);
    h = hash_words(h, bsp.leaf_brushes, bsp.leaf_brush_count);
    h = hash_u32(h, bsp.root);
    h = hash_u32(h, bsp.depth);
    h = hash_words(h, &bsp.inflate, 1u);
    h = hash_words(h, &bsp.slack, 1u);
    *hash = hash_words(h, &bsp.bounds, 6u);
    return true;
}

/* ---- collision answers ----------------------------------------------------------------------------
 * Not a tree but the answers of the collision queries (include/copse/collide.h) on the scene:
 * poses from angles and quaternions (copse's own sines), the scene's mesh against itself posed,
 * the shapes against it, sweeps, and the points. Every float of every answer is hashed, so a
 * target that rounds one operation otherwise (a fused multiply-add, a libm) prints another hash. */

static uint32_t hash_distance(uint32_t h, const copse_distance *d)
{
    h = hash_words(h, &d->distance, 1u);
    h = hash_words(h, &d->depth, 1u);
    h = hash_u32(h, d->tree_id);
    h = hash_u32(h, d->shape_id);
    h = hash_words(h, &d->tree_point, 3u);
    h = hash_words(h, &d->shape_point, 3u);
    return hash_words(h, &d->normal, 3u);
}

static uint32_t hash_sweep(uint32_t h, const copse_sweep_hit *s)
{
    h = hash_words(h, &s->t, 1u);
    h = hash_u32(h, s->id | (s->started_in_contact ? 0x80000000u : 0u));
    h = hash_words(h, &s->point, 3u);
    return hash_words(h, &s->normal, 3u);
}

static bool build_collide(copse_arena *arena, unsigned variant, uint32_t *hash)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_mesh mesh;
    copse_bvh bvh;
    copse_pose pose;
    copse_distance d;
    copse_sweep_hit sw;
    copse_pair pair;
    copse_status st;
    float sep = 0.0f;
    uint32_t h = SB_HASH0, i, ok = 0;
    (void)variant;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = g_scene.verts;
    mesh.vertex_count = SB_PRIMS * 2u;
    mesh.indices = g_scene.tris;
    mesh.index_type = COPSE_MESH_INDEX_U16;
    mesh.triangle_count = SB_PRIMS;
    params.leaf_size = 2;
    st = copse_bvh_build_mesh(&bvh, arena, &mesh, &params);
    if (!CHECKF(st == COPSE_OK, "collide: %s", copse_status_str(st)))
        return false;
    for (i = 0; i < 6u; i++) {
        copse_vec3 a = g_scene.points[i].x < 0.0f ? g_scene.points[i] : g_scene.points[i + 6u];
        copse_vec3 b = g_scene.points[i + 12u];
        copse_vec3 rpy = copse_v3(b.x / 37.0f, b.y / 41.0f, b.z / 43.0f);
        copse_quat q;
        copse_capsule cap;
        copse_sphere sph;
        copse_obb box;
        copse_convex cx;
        q.x = a.y / 50.0f, q.y = b.x / 50.0f, q.z = a.z / 60.0f, q.w = 1.0f;
        ok += copse_pose_from_xyz_rpy(&pose, copse_v3(a.x / 9.0f, a.y / 9.0f, a.z / 9.0f), rpy) == COPSE_OK;
        h = hash_words(h, &pose, 12u);
        ok += copse_distance_bvh_bvh(&bvh, &pose, &bvh, NULL, &d) == COPSE_OK;
        h = hash_distance(h, &d);
        ok += copse_bvh_any_bvh(&bvh, &bvh, &pose, &pair, &sep) == COPSE_OK;
        h = hash_u32(hash_u32(h, pair.tree_id), pair.shape_id);
        h = hash_words(h, &sep, 1u);
        ok += copse_pose_from_quat(&pose, q, b) == COPSE_OK;
        h = hash_words(h, &pose, 12u);
        cap.segment.a = a;
        cap.segment.b = b;
        cap.radius = (float)(i + 1u) / 3.0f;
        ok += copse_distance_capsule_bvh(&cap, &pose, &bvh, NULL, &d) == COPSE_OK;
        h = hash_distance(h, &d);
        sph.center = a;
        sph.radius = 2.0f;
        ok += copse_sweep_sphere_bvh(&sph, NULL, copse_v3(b.x - a.x, b.y - a.y, b.z - a.z), &bvh, &sw) == COPSE_OK;
        h = hash_sweep(h, &sw);
        ok += copse_obb_from_box(&box, &g_scene.boxes3[i], &pose) == COPSE_OK;
        ok += copse_distance_obb_bvh(&box, NULL, &bvh, NULL, &d) == COPSE_OK;
        h = hash_distance(h, &d);
        ok += copse_sweep_capsule_bvh(&cap, &pose, copse_v3(a.z - b.z, 1.0f, b.x), &bvh, &sw) == COPSE_OK;
        h = hash_sweep(h, &sw);
        cx.points = &g_scene.points[24u + 4u * i];
        cx.count = 4;
        ok += copse_distance_convex_bvh(&cx, &pose, &bvh, NULL, &d) == COPSE_OK;
        h = hash_distance(h, &d);
    }
    if (!CHECKF(ok == 6u * 10u, "collide: %u of %u queries answered OK", (unsigned)ok, 60u))
        return false;
    *hash = h;
    return true;
}

/* ---- the suite ---------------------------------------------------------------------------------- */

static void test_bvh(void)
{
    unsigned v;
    char name[40];
    make_scene(&g_scene);
    for (v = 0; v < 3u * BVH_SOURCES; v++) {
        copse_port_snprintf(name, sizeof name, "bvh %s %s", k_bvh_sources[v / 3u], k_split_names[v % 3u]);
        run_twice(name, build_bvh, v);
    }
}

static void test_octrees(void)
{
    make_scene(&g_scene);
    run_twice("octree bulk", build_octree, 0);
    run_twice("octree inserts", build_octree, 1);
    run_twice("loose inserts-moves-removes", build_loose, 0);
}

static void test_bsp(void)
{
    make_scene(&g_scene);
    run_twice("bsp2 boxes", build_bsp2, 0);
    run_twice("bsp3 brushes", build_bsp3, 0);
}

static void test_collide(void)
{
    make_scene(&g_scene);
    run_twice("collide answers", build_collide, 0);
}

void suite_same_bytes(void)
{
    test_run("same_bytes/bvh", test_bvh);
    test_run("same_bytes/octrees", test_octrees);
    test_run("same_bytes/bsp", test_bsp);
    test_run("same_bytes/collide", test_collide);
}

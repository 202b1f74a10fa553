/* SPDX-License-Identifier: MIT */
/*
 * bench_fw: copse on a board. Builds a procedural room (bench_scene_room; no data
 * files), then prints the counter cost of each build and, per query family, of one
 * query by copse and by brute force. Under `qemu-run <board> <elf> --icount` the
 * port's counter is an exact instruction count (docs/boards.md: counting instructions), so the numbers
 * are deterministic; on the host the same program prints nanoseconds.
 *
 * Output is one record per line for bench/report.py:
 *   scene <scene> <triangles> <vertices>
 *   build <scene> <tree> <counter> <bytes> <nodes>
 *   query <scene> <family> <copse per query> <brute per query or -> <agree> <checked> <results per query>
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bench.h"
#include "copse/copse.h"
#include "port.h"

#define QUERIES 32u /* per family: the loop and counter overhead vanish against it */

enum { F_RAY, F_RAY_ALL, F_BOX, F_SPHERE, F_SEGMENT, F_NEAREST, F_NEAREST_VERTEX, F_RECT_LEAVES, F_RECT, F_SEGMENT2,
       F_COUNT };

static const char *const family_name[F_COUNT] = { "raycast",   "raycast_all",     "overlap_box",
                                                  "overlap_sphere", "overlap_segment", "nearest",
                                                  "nearest_vertex", "overlap_rect_leaves", "overlap_rect",
                                                  "overlap_segment2" };

/* One family's query set at a time: the micro:bit has 16 KB of RAM. */
static union {
    copse_ray3 rays[QUERIES];
    copse_box3 boxes[QUERIES];
    copse_sphere spheres[QUERIES];
    copse_segment3 segments[QUERIES];
    copse_vec3 points[QUERIES];
    copse_box2 rects[QUERIES];
    copse_segment2 segments2[QUERIES];
} qs;

typedef struct res {
    uint32_t id; /* hit or nearest id, or a count */
    float value; /* t or distance */
} res;

static res copse_out[QUERIES], brute_out[QUERIES];

typedef struct fw_ctx {
    const copse_mesh *mesh;
    const copse_bvh *tree;
    uint32_t *ids;
    uint32_t id_cap;
    copse_hit *hits;
    uint32_t hit_cap;
} fw_ctx;

static uint64_t counter_overhead;
static int failures;

static void check(copse_status st, const char *what)
{
    if (st != COPSE_OK) {
        copse_port_printf("error %s %s\n", what, copse_status_str(st));
        failures++;
    }
}

static void gen(const bench_scene *s, int f)
{
    switch (f) {
    case F_RAY:
    case F_RAY_ALL:
        bench_gen_rays(s, 1, qs.rays, QUERIES);
        break;
    case F_BOX:
        bench_gen_boxes(s, 2, qs.boxes, QUERIES);
        break;
    case F_SPHERE:
        bench_gen_spheres(s, 3, qs.spheres, QUERIES);
        break;
    case F_SEGMENT:
        bench_gen_segments(s, 4, qs.segments, QUERIES);
        break;
    case F_NEAREST:
    case F_NEAREST_VERTEX:
        bench_gen_points(s, 5, qs.points, QUERIES);
        break;
    case F_RECT_LEAVES:
    case F_RECT:
        bench_gen_rects_xz(s, 6, qs.rects, QUERIES);
        break;
    default:
        bench_gen_segments_xz(s, 7, qs.segments2, QUERIES);
        break;
    }
}

static void run_copse(const fw_ctx *c, int f, res *out)
{
    copse_id_list list = copse_id_list_make(c->ids, c->id_cap);
    copse_hit_list hits = copse_hit_list_make(c->hits, c->hit_cap);
    copse_hit hit;
    copse_nearest3 near;
    copse_status st = COPSE_OK;
    uint32_t i;
    for (i = 0; i < QUERIES; i++) {
        out[i].value = 0.0f;
        switch (f) {
        case F_RAY:
            st = copse_bvh_raycast(c->tree, &qs.rays[i], &hit);
            out[i].id = hit.id;
            out[i].value = hit.t;
            break;
        case F_RAY_ALL:
            st = copse_bvh_raycast_all(c->tree, &qs.rays[i], &hits);
            out[i].id = hits.count;
            break;
        case F_BOX:
            st = copse_bvh_overlap_box(c->tree, &qs.boxes[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_SPHERE:
            st = copse_bvh_overlap_sphere(c->tree, &qs.spheres[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_SEGMENT:
            st = copse_bvh_overlap_segment(c->tree, &qs.segments[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        case F_NEAREST:
            st = copse_bvh_nearest(c->tree, qs.points[i], FLT_MAX, &near);
            out[i].id = near.id;
            out[i].value = near.distance_sq;
            break;
        case F_NEAREST_VERTEX:
            st = copse_bvh_nearest_vertex(c->tree, qs.points[i], FLT_MAX, &near);
            out[i].id = near.id;
            out[i].value = near.distance_sq;
            break;
        case F_RECT_LEAVES:
            st = copse_bvh_overlap_rect(c->tree, &qs.rects[i], COPSE_BVH_SELECT_LEAVES, &list);
            out[i].id = list.count;
            break;
        case F_RECT:
            st = copse_bvh_overlap_rect(c->tree, &qs.rects[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        default:
            st = copse_bvh_overlap_segment2(c->tree, &qs.segments2[i], COPSE_BVH_SELECT_PRIMS, &list);
            out[i].id = list.count;
            break;
        }
        if (st != COPSE_OK)
            check(st, family_name[f]);
    }
}

static void run_brute(const fw_ctx *c, int f, res *out)
{
    const copse_mesh *m = c->mesh;
    uint32_t i;
    for (i = 0; i < QUERIES; i++) {
        out[i].value = 0.0f;
        switch (f) {
        case F_RAY:
            out[i].id = bench_brute_raycast(m, &qs.rays[i], &out[i].value);
            break;
        case F_RAY_ALL:
            out[i].id = bench_brute_raycast_count(m, &qs.rays[i]);
            break;
        case F_BOX:
            out[i].id = bench_brute_box_count(m, &qs.boxes[i]);
            break;
        case F_SPHERE:
            out[i].id = bench_brute_sphere_count(m, &qs.spheres[i]);
            break;
        case F_SEGMENT:
            out[i].id = bench_brute_segment_count(m, &qs.segments[i]);
            break;
        case F_NEAREST:
            out[i].id = bench_brute_nearest(m, &qs.points[i].x, &out[i].value);
            break;
        case F_NEAREST_VERTEX:
            out[i].id = bench_brute_nearest_vertex(m, &qs.points[i].x, &out[i].value);
            break;
        case F_RECT:
            out[i].id = bench_brute_rect_xz_count(m, &qs.rects[i]);
            break;
        default:
            out[i].id = bench_brute_segment_xz_count(m, &qs.segments2[i]);
            break;
        }
    }
}

/* Same answer: hit/miss and t (rays), distance (nearest, squared here), or count. */
static int agrees(int f, const res *a, const res *b, float diag)
{
    float tol = 1e-4f * diag;
    if (f == F_RAY)
        return (a->id == COPSE_NONE) == (b->id == COPSE_NONE) &&
               (a->id == COPSE_NONE || fabsf(a->value - b->value) <= tol);
    if (f == F_NEAREST || f == F_NEAREST_VERTEX)
        return fabsf(sqrtf(a->value) - sqrtf(b->value)) <= tol;
    return a->id == b->id;
}

static uint64_t elapsed(uint64_t t0, uint64_t t1)
{
    uint64_t d = t1 - t0;
    return d > counter_overhead ? d - counter_overhead : 0u;
}

static void bench_family(const char *scene_name, const bench_scene *s, const fw_ctx *c, int f)
{
    uint64_t t0, t1, tc, tb = 0;
    uint32_t i, agree = 0, checked = 0;
    double results = 0.0;
    int brute = f != F_RECT_LEAVES;
    gen(s, f);
    t0 = copse_port_counter();
    run_copse(c, f, copse_out);
    t1 = copse_port_counter();
    tc = elapsed(t0, t1);
    if (brute) {
        t0 = copse_port_counter();
        run_brute(c, f, brute_out);
        t1 = copse_port_counter();
        tb = elapsed(t0, t1);
        checked = QUERIES;
    }
    for (i = 0; i < QUERIES; i++) {
        if (brute)
            agree += (uint32_t)agrees(f, &copse_out[i], &brute_out[i], s->diag);
        if (f == F_RAY)
            results += copse_out[i].id != COPSE_NONE;
        else if (f != F_NEAREST && f != F_NEAREST_VERTEX)
            results += copse_out[i].id;
        else
            results += 1.0;
    }
    if (brute)
        copse_port_printf("query %s %s %.1f %.1f %u %u %.2f\n", scene_name, family_name[f], (double)tc / QUERIES,
                          (double)tb / QUERIES, (unsigned)agree, (unsigned)checked, results / QUERIES);
    else
        copse_port_printf("query %s %s %.1f - 0 0 %.2f\n", scene_name, family_name[f], (double)tc / QUERIES,
                          results / QUERIES);
}

/* Builds into the arena over mem[0..cap) and prints the cost; 0 on success. */
static int build(const char *scene_name, const char *tree_name, copse_bvh *bvh, void *mem, size_t cap,
                 const copse_mesh *mesh, copse_bvh_split split, copse_bvh_projection proj)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_status st;
    uint64_t t0, t1;
    params.split = split;
    params.projection = proj;
    copse_arena_init(&arena, mem, cap);
    t0 = copse_port_counter();
    st = copse_bvh_build_mesh(bvh, &arena, mesh, &params);
    t1 = copse_port_counter();
    if (st != COPSE_OK) {
        copse_port_printf("error build %s %s %s (needs %lu bytes, has %lu)\n", scene_name, tree_name,
                          copse_status_str(st), (unsigned long)arena.needed, (unsigned long)cap);
        failures++;
        return -1;
    }
    copse_port_printf("build %s %s %llu %lu %u\n", scene_name, tree_name, (unsigned long long)elapsed(t0, t1),
                      (unsigned long)copse_bvh_bytes(bvh), (unsigned)bvh->node_count);
    return 0;
}

static uint8_t *take(uint8_t **p, size_t bytes)
{
    uint8_t *q = *p;
    *p += (bytes + 7u) & ~(size_t)7u;
    return q;
}

static void run_scene(const char *name, uint32_t grid, uint32_t boxes, uint8_t *mem, size_t cap)
{
    static const char *const split_names[3] = { "SAH", "MEDIAN", "MIDPOINT" };
    const uint32_t nv = BENCH_SCENE_VERTICES(grid, boxes), nt = BENCH_SCENE_TRIANGLES(grid, boxes);
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    uint8_t *p = mem, *arena_mem;
    size_t need, arena_cap;
    copse_mesh mesh;
    bench_scene scene;
    copse_bvh bvh;
    fw_ctx c;
    int f, split;
    float *pos;
    uint16_t *idx;

    need = copse_bvh_build_bytes(nt, 3, &params);
    if (need == (size_t)-1 || need + nv * 12u + nt * 10u + 16u * sizeof(copse_hit) + 64u > cap) {
        copse_port_printf("skip %s %u %lu\n", name, (unsigned)nt, (unsigned long)cap);
        return;
    }
    pos = (float *)(void *)take(&p, nv * 3u * sizeof(float));
    idx = (uint16_t *)(void *)take(&p, nt * 3u * sizeof(uint16_t));
    memset(&c, 0, sizeof c);
    c.id_cap = nt; /* an overlap can never report more: lists are never truncated */
    c.ids = (uint32_t *)(void *)take(&p, nt * sizeof(uint32_t));
    c.hit_cap = 16;
    c.hits = (copse_hit *)(void *)take(&p, c.hit_cap * sizeof(copse_hit));
    arena_mem = p;
    arena_cap = cap - (size_t)(p - mem);

    mesh = bench_scene_room(pos, idx, grid, boxes, 2024u);
    bench_scene_init(&scene, &mesh);
    c.mesh = &mesh;
    c.tree = &bvh;
    copse_port_printf("scene %s %u %u\n", name, (unsigned)mesh.triangle_count, (unsigned)mesh.vertex_count);

    /* builds that are only measured, then the 2D tree and its queries, then the 3D SAH tree */
    for (split = 1; split < 3; split++)
        build(name, split_names[split], &bvh, arena_mem, arena_cap, &mesh, (copse_bvh_split)split,
              COPSE_BVH_PROJECT_NONE);
    if (build(name, "SAH-2D-XZ", &bvh, arena_mem, arena_cap, &mesh, COPSE_BVH_SPLIT_SAH, COPSE_BVH_PROJECT_XZ) == 0)
        for (f = F_RECT_LEAVES; f < F_COUNT; f++)
            bench_family(name, &scene, &c, f);
    if (build(name, "SAH", &bvh, arena_mem, arena_cap, &mesh, COPSE_BVH_SPLIT_SAH, COPSE_BVH_PROJECT_NONE) == 0)
        for (f = 0; f < F_RECT_LEAVES; f++)
            bench_family(name, &scene, &c, f);
}

int main(int argc, char **argv)
{
    size_t cap;
    uint8_t *mem;
    uint64_t t0, t1;
    copse_port_init(argc, argv);
    mem = (uint8_t *)copse_port_scratch(&cap);
    /* what two back-to-back counter reads cost, taken off every measurement */
    t0 = copse_port_counter();
    t1 = copse_port_counter();
    counter_overhead = t1 - t0;
    copse_port_printf("bench_fw %s unit %s scratch %lu overhead %llu\n", copse_port_name(),
                      copse_port_counter_unit(), (unsigned long)cap, (unsigned long long)counter_overhead);
    /* a small room every board holds (the micro:bit's 16 KB), and a larger one where it fits */
    run_scene("room-S", 5, 4, mem, cap);
    run_scene("room-M", 16, 24, mem, cap);
    copse_port_printf("done %d\n", failures);
    return failures ? 1 : 0;
}

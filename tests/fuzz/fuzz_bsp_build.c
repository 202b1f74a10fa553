/* SPDX-License-Identifier: MIT */
/* Fuzz target: the BSP builders fed arbitrary floats. 2D: a scene and boxes; the arena is
 * exactly copse_bsp2_build_bytes (or, when that refuses the input, the build must refuse it
 * too, with a specific status); a built tree passes copse_bsp2_check and locates points as
 * brute force over the boxes does (solid, lowest object). 3D: box brushes and one brush of
 * arbitrary planes; copse_bsp3_build_bytes is exact (the build succeeds in exactly that); a
 * built tree passes copse_bsp3_check and every query answers safely. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_BOXES = 48, MAX_BRUSHES = 8 };

static bool build_status(copse_status st)
{
    return st == COPSE_ERR_NONFINITE || st == COPSE_ERR_PARAM || st == COPSE_ERR_DEGENERATE ||
           st == COPSE_ERR_TOO_LARGE || st == COPSE_ERR_NOMEM || st == COPSE_ERR_UNBOUNDED ||
           st == COPSE_ERR_NONCONVEX;
}

static void bsp2(fuzz_reader *r)
{
    copse_box2 objects[MAX_BOXES], scene;
    copse_bsp2_params params = COPSE_BSP2_PARAMS_DEFAULT;
    const uint32_t n = fuzz_u8(r) % (MAX_BOXES + 1u);
    uint32_t i, q;
    size_t bytes;
    uint8_t *mem;
    copse_arena arena;
    copse_bsp2 bsp;
    copse_status st;
    params.max_depth = 1u + fuzz_u8(r) % 12u;
    scene = copse_box2_make(fuzz_coord(r), fuzz_coord(r), 0.0f, 0.0f);
    scene.max.x = scene.min.x + (float)fuzz_u8(r) + 0.5f;
    scene.max.y = scene.min.y + (float)fuzz_u8(r) + 0.5f;
    for (i = 0; i < n; i++) {
        const float x = i % 23u == 22u ? fuzz_float(r) : fuzz_coord(r), y = fuzz_coord(r);
        objects[i] = copse_box2_make(x, y, x + (float)fuzz_u8(r) / 8.0f, y + (float)fuzz_u8(r) / 8.0f);
    }
    bytes = copse_bsp2_build_bytes(&scene, objects, n, &params);
    if (bytes == (size_t)-1 || bytes > (16u << 20))
        bytes = 64; /* refused (or huge): the build must refuse too, or run short */
    mem = (uint8_t *)malloc(bytes + 1u);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, bytes);
    st = copse_bsp2_build(&bsp, &arena, &scene, objects, n, &params);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(build_status(st), "bsp2 build: %s", copse_status_str(st));
        FUZZ_ASSERT(bsp.node_count == 0 && arena.used == 0, "failed bsp2 build left state");
        free(mem);
        return;
    }
    st = copse_bsp2_check(&bsp);
    FUZZ_ASSERT(st == COPSE_OK, "bsp2 check: %s", copse_status_str(st));
    for (q = 0; q < 8u; q++) {
        const copse_vec2 p = {fuzz_coord(r), fuzz_coord(r)};
        const bool in_scene = p.x >= scene.min.x && p.x <= scene.max.x && p.y >= scene.min.y && p.y <= scene.max.y;
        uint32_t want = COPSE_NONE;
        copse_bsp2_where where;
        for (i = 0; in_scene && i < n && want == COPSE_NONE; i++) {
            /* an object's part in the scene; one that only touches the scene has none (bsp.h) */
            const float x0 = objects[i].min.x > scene.min.x ? objects[i].min.x : scene.min.x;
            const float y0 = objects[i].min.y > scene.min.y ? objects[i].min.y : scene.min.y;
            const float x1 = objects[i].max.x < scene.max.x ? objects[i].max.x : scene.max.x;
            const float y1 = objects[i].max.y < scene.max.y ? objects[i].max.y : scene.max.y;
            if (x0 < x1 && y0 < y1 && p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1)
                want = i;
        }
        st = copse_bsp2_locate(&bsp, p, &where);
        FUZZ_ASSERT(st == COPSE_OK, "locate: %s", copse_status_str(st));
        FUZZ_ASSERT(where.solid == (want != COPSE_NONE) && where.id == want,
                    "locate (%g, %g): object %u, brute force %u", (double)p.x, (double)p.y, (unsigned)where.id,
                    (unsigned)want);
    }
    free(mem);
}

static void bsp3(fuzz_reader *r)
{
    static copse_plane planes[MAX_BRUSHES * 8];
    copse_brush brushes[MAX_BRUSHES];
    copse_bsp3_params params = COPSE_BSP3_PARAMS_DEFAULT;
    const uint32_t n = fuzz_u8(r) % (MAX_BRUSHES + 1u);
    uint32_t i, k, q;
    size_t scratch, bytes;
    uint8_t *work, *mem;
    copse_arena arena;
    copse_bsp3 bsp;
    copse_status st;
    params.max_depth = 1u + fuzz_u8(r) % COPSE_BSP_MAX_DEPTH;
    params.split_weight = fuzz_u8(r) * 4u;
    for (i = 0; i < n; i++) {
        brushes[i].planes = planes + 8u * i;
        if (fuzz_u8(r) < 200u) { /* a box (its build may refuse a flat or huge one) */
            const float x = fuzz_coord(r), y = fuzz_coord(r), z = fuzz_coord(r);
            const copse_box3 b = copse_box3_make(x, y, z, x + (float)fuzz_u8(r) / 8.0f, y + (float)fuzz_u8(r) / 8.0f,
                                                 z + (float)fuzz_u8(r) / 8.0f);
            if (copse_brush_from_box(&b, planes + 8u * i) != COPSE_OK)
                memset(planes + 8u * i, 0, 6u * sizeof(copse_plane));
            brushes[i].plane_count = 6;
        } else { /* any planes */
            brushes[i].plane_count = 4u + fuzz_u8(r) % 5u;
            for (k = 0; k < brushes[i].plane_count; k++) {
                copse_plane *pl = &planes[8u * i + k];
                pl->normal.x = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
                pl->normal.y = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
                pl->normal.z = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
                pl->dist = fuzz_coord(r);
            }
        }
    }
    scratch = copse_bsp3_scratch_bytes(brushes, n, &params);
    if (scratch == (size_t)-1)
        scratch = 256;
    work = (uint8_t *)malloc(scratch + 1u);
    if (work == NULL)
        return;
    bytes = copse_bsp3_build_bytes(brushes, n, &params, work, scratch);
    free(work);
    if (bytes == (size_t)-1 || bytes > (16u << 20))
        bytes = scratch;
    mem = (uint8_t *)malloc(bytes + 1u);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, bytes);
    st = copse_bsp3_build(&bsp, &arena, brushes, n, &params);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(build_status(st), "bsp3 build: %s", copse_status_str(st));
        FUZZ_ASSERT(bsp.node_count == 0 && arena.used == 0, "failed bsp3 build left state");
        free(mem);
        return;
    }
    st = copse_bsp3_check(&bsp);
    FUZZ_ASSERT(st == COPSE_OK, "bsp3 check: %s", copse_status_str(st));
    FUZZ_ASSERT(copse_bsp3_bytes(&bsp) <= bytes, "bsp3 past its arena");
    for (q = 0; q < 4u; q++) {
        const copse_vec3 p = {fuzz_coord(r), fuzz_coord(r), fuzz_coord(r)};
        const copse_segment3 seg = {{p.x, p.y, p.z}, {fuzz_coord(r), fuzz_coord(r), fuzz_coord(r)}};
        const copse_box3 box = copse_box3_make(p.x, p.y, p.z, p.x + 1.0f, p.y + 2.0f, p.z + 0.5f);
        copse_bsp3_where where;
        copse_bsp3_trace trace;
        uint32_t hit_id = COPSE_NONE;
        st = copse_bsp3_contents(&bsp, p, &where);
        FUZZ_ASSERT(st == COPSE_OK, "contents: %s", copse_status_str(st));
        st = copse_sweep_point_bsp3(&seg, &bsp, &trace);
        FUZZ_ASSERT(st == COPSE_OK || fuzz_specific_status(st), "sweep_point_bsp3: %s", copse_status_str(st));
        st = copse_sweep_sphere_bsp3(&seg, (float)fuzz_u8(r) / 16.0f, &bsp, &trace);
        FUZZ_ASSERT(st == COPSE_OK || fuzz_specific_status(st), "sweep_sphere_bsp3: %s", copse_status_str(st));
        st = copse_bsp3_any_box(&bsp, &box, &hit_id);
        FUZZ_ASSERT(st == COPSE_OK || fuzz_specific_status(st), "any_box: %s", copse_status_str(st));
        FUZZ_ASSERT(hit_id == COPSE_NONE || hit_id < bsp.brush_count, "any_box: brush %u", (unsigned)hit_id);
    }
    free(mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r;
    fuzz_reader_init(&r, data, size);
    if (fuzz_u8(&r) & 1u)
        bsp3(&r);
    else
        bsp2(&r);
    return 0;
}

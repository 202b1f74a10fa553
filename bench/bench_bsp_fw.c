/* SPDX-License-Identifier: MIT */
/*
 * bench_bsp_fw: the BSP trees on a board. Builds generated scenes sized to the board's
 * memory (no data files), then prints, as markdown table rows, the counter cost of each build
 * and of one query by the tree and by brute force. Under `qemu-run <board> <elf> --icount` the
 * counter is an exact instruction count (docs/boards.md: counting instructions): the numbers are deterministic.
 */
#include <string.h>

#include "bench_bsp.h"
#include "copse/copse.h"
#include "port.h"

#define QF 32u /* queries per family */

static union {
    copse_segment3 s3[QF];
    copse_segment2 s2[QF];
} qs;
static float copse_out[QF], brute_out[QF];
static uint64_t overhead;
static int failures;

static uint8_t *g_mem;
static size_t g_size, g_used;

static void *take(size_t bytes)
{
    size_t at = (g_used + 7u) & ~(size_t)7u;
    if (at + bytes > g_size) {
        copse_port_printf("error: %lu bytes do not fit\n", (unsigned long)bytes);
        failures++;
        return NULL;
    }
    g_used = at + bytes;
    return g_mem + at;
}

static uint64_t per_query(uint64_t c0, uint64_t c1)
{
    uint64_t d = c1 - c0;
    return (d > overhead ? d - overhead : 0u) / QF;
}

static void row(const char *scene, const char *query, uint64_t tree, uint64_t brute, unsigned agree)
{
    uint64_t ratio10 = tree > 0 ? (brute * 10u + tree / 2u) / tree : 0u;
    copse_port_printf("Q| %s | %s | %s | %lu | %lu | %lu.%lux | %u / %u |\n", copse_port_name(), scene, query,
                      (unsigned long)tree, (unsigned long)brute, (unsigned long)(ratio10 / 10u),
                      (unsigned long)(ratio10 % 10u), agree, QF);
    failures += agree != QF;
}

static unsigned agree_t(void)
{
    unsigned i, n = 0;
    for (i = 0; i < QF; i++) {
        float a = copse_out[i], b = brute_out[i];
        n += (a > 1.0f && b > 1.0f) || (a - b < 1e-4f && b - a < 1e-4f);
    }
    return n;
}

static void bench3(const char *scene, const copse_brush *brushes, uint32_t n, const float *lo, const float *hi)
{
    copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    size_t mark = g_used, scratch = copse_bsp3_scratch_bytes(brushes, n, &p), exact;
    void *work = take(scratch), *mem;
    copse_arena arena;
    copse_bsp3 t;
    uint64_t c0, c1, c2;
    unsigned f, i;
    if (work == NULL)
        return;
    exact = copse_bsp3_build_bytes(brushes, n, &p, work, scratch);
    g_used = mark;
    mem = take(exact);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, exact);
    c0 = copse_port_counter();
    if (copse_bsp3_build(&t, &arena, brushes, n, &p) != COPSE_OK) {
        failures++;
        return;
    }
    c1 = copse_port_counter();
    copse_port_printf("B| %s | %s | %lu | %lu | %lu | %u | %u |\n", copse_port_name(), scene,
                      (unsigned long)(c1 - c0), (unsigned long)copse_bsp3_bytes(&t), (unsigned long)exact,
                      (unsigned)t.node_count, (unsigned)t.depth);
    g_used = (size_t)((uint8_t *)mem - g_mem) + copse_bsp3_bytes(&t); /* the scratch goes back */
    {
        bsp_rng rng;
        bsp_rng_seed(&rng, 7);
        bsp_gen_segments3(&rng, lo, hi, 0.3f, qs.s3, QF);
    }
    for (f = 0; f < 3; f++) {
        static const char *const names[3] = {"point contents", "ray trace", "sphere trace r=0.5"};
        const float r = f == 2 ? 0.5f : 0.0f;
        c0 = copse_port_counter();
        for (i = 0; i < QF; i++) {
            copse_bsp3_trace tr;
            copse_bsp3_where w;
            if (f == 0) {
                copse_bsp3_contents(&t, qs.s3[i].a, &w);
                copse_out[i] = w.solid ? 0.0f : 2.0f;
            } else {
                copse_sweep_sphere_bsp3(&qs.s3[i], r, &t, &tr);
                copse_out[i] = tr.hit ? tr.t : 2.0f;
            }
        }
        c1 = copse_port_counter();
        for (i = 0; i < QF; i++)
            brute_out[i] = f == 0 ? (bsp_brute_contents(&t, qs.s3[i].a) ? 0.0f : 2.0f) : bsp_brute_trace(&t, &qs.s3[i], r);
        c2 = copse_port_counter();
        row(scene, names[f], per_query(c0, c1), per_query(c1, c2), agree_t());
    }
    g_used = mark;
}

static void bench2(const char *scene, const copse_box2 *map, const copse_box2 *boxes, uint32_t n)
{
    copse_bsp2_params p;
    size_t mark = g_used, exact;
    void *mem;
    copse_arena arena;
    copse_bsp2 t;
    uint64_t c0, c1, c2;
    unsigned i;
    p.max_depth = 10;
    exact = copse_bsp2_build_bytes(map, boxes, n, &p);
    mem = take(exact);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, exact);
    c0 = copse_port_counter();
    if (copse_bsp2_build(&t, &arena, map, boxes, n, &p) != COPSE_OK) {
        failures++;
        return;
    }
    c1 = copse_port_counter();
    copse_port_printf("B| %s | %s | %lu | %lu | %lu | %u | %u |\n", copse_port_name(), scene,
                      (unsigned long)(c1 - c0), (unsigned long)exact, (unsigned long)exact, (unsigned)t.node_count,
                      (unsigned)t.depth);
    {
        bsp_rng rng;
        bsp_rng_seed(&rng, 8);
        bsp_gen_segments2(&rng, map, 0.3f, qs.s2, QF);
    }
    c0 = copse_port_counter();
    for (i = 0; i < QF; i++) {
        copse_bsp2_trace tr;
        copse_sweep_point_bsp2(&qs.s2[i], &t, &tr);
        copse_out[i] = tr.hit ? tr.t : 2.0f;
    }
    c1 = copse_port_counter();
    for (i = 0; i < QF; i++)
        brute_out[i] = bsp_brute_segment2(boxes, n, map, &qs.s2[i]);
    c2 = copse_port_counter();
    row(scene, "line of sight", per_query(c0, c1), per_query(c1, c2), agree_t());
    g_used = mark;
}

int main(int argc, char **argv)
{
    bool small;
    uint32_t nb, no, n2;
    uint64_t c0, c1;
    bsp_rng rng;
    unsigned i;
    copse_port_init(argc, argv);
    g_mem = (uint8_t *)copse_port_scratch(&g_size);
    small = g_size < (64u << 10); /* the micro:bit: smaller scenes */
    nb = small ? 6u : 40u;
    no = small ? 4u : 24u;
    n2 = small ? 24u : 100u;
    c0 = copse_port_counter();
    c1 = copse_port_counter();
    overhead = c1 - c0;
    bsp_rng_seed(&rng, 42);
    copse_port_printf("bench_bsp_fw on %s, counter in %s\n", copse_port_name(), copse_port_counter_unit());
    {
        copse_box3 *boxes = (copse_box3 *)take(nb * sizeof(copse_box3));
        copse_plane *planes = (copse_plane *)take(nb * 6u * sizeof(copse_plane));
        copse_brush *brushes = (copse_brush *)take(nb * sizeof(copse_brush));
        const float lo[3] = {0, 0, 0}, hi[3] = {small ? 8.0f : 24.0f, small ? 8.0f : 24.0f, 8.0f};
        char name[48];
        if (boxes == NULL || planes == NULL || brushes == NULL)
            return 1;
        bsp_gen_grid_boxes(&rng, boxes, nb, small ? 6.0f : 20.0f);
        for (i = 0; i < nb; i++) {
            (void)copse_brush_from_box(&boxes[i], planes + 6u * i);
            brushes[i].planes = planes + 6u * i;
            brushes[i].plane_count = 6;
        }
        copse_port_snprintf(name, sizeof name, "%u grid boxes (3D)", (unsigned)nb);
        bench3(name, brushes, nb, lo, hi);
        g_used = 0;
    }
    {
        copse_plane *planes = (copse_plane *)take(no * 10u * sizeof(copse_plane));
        copse_brush *brushes = (copse_brush *)take(no * sizeof(copse_brush));
        const float lo[3] = {-3, -3, 0}, hi[3] = {small ? 15.0f : 33.0f, small ? 15.0f : 33.0f, 13.0f};
        char name[48];
        if (planes == NULL || brushes == NULL)
            return 1;
        bsp_gen_octagons(&rng, planes, brushes, no, small ? 12.0f : 30.0f);
        copse_port_snprintf(name, sizeof name, "%u extruded octagons (3D)", (unsigned)no);
        bench3(name, brushes, no, lo, hi);
        g_used = 0;
    }
    {
        copse_box2 *boxes = (copse_box2 *)take(n2 * sizeof(copse_box2)), map = copse_box2_make(0, 0, 40, 40);
        char name[48];
        if (boxes == NULL)
            return 1;
        bsp_gen_map2(&rng, boxes, n2, 40.0f);
        copse_port_snprintf(name, sizeof name, "%u boxes, 2D map, depth 10", (unsigned)n2);
        bench2(name, &map, boxes, n2);
    }
    return failures == 0 ? 0 : 1;
}

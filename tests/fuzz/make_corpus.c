/* Writes the seed corpus of the fuzz targets (make fuzz-corpus): small valid inputs, so the
 * fuzzers start from real structure. tests/fuzz/corpus/<target>/ holds its output.
 *   fuzz_blob, fuzz_bvh_view: BVH blobs saved over the fuzz sources (fuzz_source_*) for every
 *     source kind and split, a few sizes, and (fuzz_blob) each one's big-endian form;
 *   fuzz_bvh_build: each source kind with a few primitives on the coordinate grid;
 *   fuzz_octree_build, fuzz_bsp_build: small lattices of points, boxes and box brushes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int write_file(const char *dir, const char *target, const char *name, const void *data, size_t size)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        fprintf(stderr, "make_corpus: cannot write %s\n", path);
        if (f != NULL)
            fclose(f);
        return 1;
    }
    return fclose(f) != 0;
}

/* format.md's big-endian form: section words reversed, marker 01 02 03 04, CRC over it. */
static void to_big_endian(uint8_t *b)
{
    copse_blob_info info;
    uint32_t s, i, crc;
    static const uint8_t zero[4] = {0, 0, 0, 0};
    if (copse_blob_read(b, 1u << 30, &info) != COPSE_OK)
        return;
    for (s = 0; s < info.section_count; s++)
        for (i = 0; i < info.sections[s].size; i += 4u) {
            uint8_t *w = b + info.sections[s].offset + i, t0 = w[0], t1 = w[1];
            w[0] = w[3], w[1] = w[2], w[2] = t1, w[3] = t0;
        }
    for (i = 0; i < 4u; i++)
        b[8u + i] = (uint8_t)(1u + i);
    crc = copse_crc32(copse_crc32(copse_crc32(0, b, 12), zero, 4), b + 16, info.total_bytes - 16u);
    for (i = 0; i < 4u; i++)
        b[12u + i] = (uint8_t)(crc >> (8u * i));
}

static int blobs(const char *dir)
{
    static const char *const kinds[3] = {"mesh", "boxes3", "boxes2"};
    static const uint32_t counts[3] = {1, 5, 24};
    static uint8_t mem[1u << 20];
    static float pos[9u * 24u];
    static copse_box3 b3[24];
    static copse_box2 b2[24];
    unsigned kind, split, c;
    int bad = 0;
    for (kind = 0; kind < 3u; kind++)
        for (split = 0; split < 3u; split++)
            for (c = 0; c < 3u; c++) {
                copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
                copse_arena arena;
                copse_bvh bvh;
                copse_mesh mesh;
                copse_status st;
                size_t need, written = 0;
                uint8_t *blob;
                char name[64];
                const uint32_t n = counts[c];
                params.split = (copse_bvh_split)split;
                params.leaf_size = 2;
                copse_arena_init(&arena, mem, sizeof mem);
                fuzz_source_mesh(pos, n, &mesh);
                fuzz_source_boxes3(b3, n);
                fuzz_source_boxes2(b2, n);
                st = kind == 0u   ? copse_bvh_build_mesh(&bvh, &arena, &mesh, &params)
                     : kind == 1u ? copse_bvh_build_boxes3(&bvh, &arena, b3, NULL, n, &params)
                                  : copse_bvh_build_boxes2(&bvh, &arena, b2, NULL, n, &params);
                need = copse_bvh_save_bytes(&bvh);
                blob = (uint8_t *)copse_arena_alloc(&arena, need);
                if (st != COPSE_OK || blob == NULL || copse_bvh_save(&bvh, blob, need, &written) != COPSE_OK) {
                    fprintf(stderr, "make_corpus: %s build or save failed\n", kinds[kind]);
                    return 1;
                }
                snprintf(name, sizeof name, "%s-split%u-n%u.blob", kinds[kind], split, (unsigned)n);
                bad |= write_file(dir, "fuzz_bvh_view", name, blob, written);
                if (split == 0u) {
                    bad |= write_file(dir, "fuzz_blob", name, blob, written);
                    to_big_endian(blob);
                    snprintf(name, sizeof name, "%s-n%u-big-endian.blob", kinds[kind], (unsigned)n);
                    bad |= write_file(dir, "fuzz_blob", name, blob, written);
                }
            }
    return bad;
}

/* fuzz_bvh_build's input: mode byte, projection byte, flags byte, then coordinates as
 * fuzz_coord reads them (a byte below 200, then a 16-bit grid value). */
static int builds(const char *dir)
{
    static const uint8_t modes[5] = {0x10, 0x15, 0x02 | 0x20, 0x03 | 0x08, 0x81};
    static const uint32_t floats_per[4] = {9, 9, 6, 4};
    uint8_t buf[3 + 3 * 9 * 8];
    unsigned m;
    int bad = 0;
    for (m = 0; m < 5u; m++) {
        const uint32_t per = floats_per[modes[m] & 3u];
        size_t at = 3, i;
        char name[64];
        buf[0] = modes[m];
        buf[1] = 0;
        buf[2] = 0;
        for (i = 0; i < 8u * per; i++) {
            /* prims along a diagonal; boxes as min then max */
            const unsigned prim = (unsigned)(i / per), k = (unsigned)(i % per);
            const int v = (int)(prim * 512u + (k < per / 2u || per == 9u ? 0u : 700u) + (k % 3u) * 256u);
            const unsigned grid = (unsigned)(v + 32768);
            buf[at++] = 7;
            buf[at++] = (uint8_t)grid;
            buf[at++] = (uint8_t)(grid >> 8);
        }
        snprintf(name, sizeof name, "source%u-mode%02x.in", modes[m] & 3u, modes[m]);
        bad |= write_file(dir, "fuzz_bvh_build", name, buf, at);
    }
    return bad;
}

/* Appends a coordinate as fuzz_coord reads it: a byte below 200, then v * 512 + 32768 in 16 bits. */
static size_t put_coord(uint8_t *buf, size_t at, int sixteenths_of_32)
{
    const unsigned grid = (unsigned)(sixteenths_of_32 * 16 + 32768);
    buf[at] = 7;
    buf[at + 1u] = (uint8_t)grid;
    buf[at + 2u] = (uint8_t)(grid >> 8);
    return at + 3u;
}

/* fuzz_octree_build: n points on a small lattice, pools that fit or run short, then a tail of
 * operations; fuzz_bsp_build: a 2D scene with boxes (mode byte even), box brushes (odd). */
static int trees(const char *dir)
{
    static uint8_t buf[4096];
    static const uint8_t pools[2][5] = {{255, 255, 4, 4, 8}, {6, 3, 1, 1, 20}};
    unsigned v, i;
    size_t at;
    char name[64];
    int bad = 0;
    for (v = 0; v < 2u; v++) {
        const unsigned n = v == 0u ? 40u : 200u;
        at = 0;
        buf[at++] = (uint8_t)n;
        for (i = 0; i < 3u * n; i++)
            at = put_coord(buf, at, (int)((i * 37u + v) % 61u) - 30);
        memcpy(buf + at, pools[v], 5);
        at += 5;
        for (i = 0; i < 4u * n && at < sizeof buf; i++)
            buf[at++] = (uint8_t)(i * 73u + 11u);
        snprintf(name, sizeof name, "points%u-pools%u.in", n, v);
        bad |= write_file(dir, "fuzz_octree_build", name, buf, at);
    }
    for (v = 0; v < 2u; v++) {
        const unsigned n = v == 0u ? 12u : 5u;
        at = 0;
        buf[at++] = (uint8_t)v;     /* 0: bsp2, 1: bsp3 */
        buf[at++] = (uint8_t)n;
        if (v == 0u) {
            buf[at++] = 8; /* depth */
            at = put_coord(buf, at, -40);
            at = put_coord(buf, at, -40);
            buf[at++] = 90;
            buf[at++] = 90;
            for (i = 0; i < n; i++) {
                at = put_coord(buf, at, (int)(i * 13u % 70u) - 35);
                at = put_coord(buf, at, (int)(i * 29u % 70u) - 35);
                buf[at++] = (uint8_t)(40u + i * 7u);
                buf[at++] = (uint8_t)(30u + i * 11u);
            }
        } else {
            buf[at++] = 20; /* depth */
            buf[at++] = 2;  /* split weight / 4 */
            for (i = 0; i < n; i++) {
                buf[at++] = 10; /* a box brush */
                at = put_coord(buf, at, (int)(i * 13u % 40u) - 20);
                at = put_coord(buf, at, (int)(i * 7u % 40u) - 20);
                at = put_coord(buf, at, (int)(i * 3u % 40u) - 20);
                buf[at++] = 50;
                buf[at++] = 60;
                buf[at++] = 70;
            }
        }
        for (i = 0; i < 96u; i++)
            buf[at++] = (uint8_t)(i * 53u + 5u);
        snprintf(name, sizeof name, "%s-n%u.in", v == 0u ? "bsp2" : "bsp3", n);
        bad |= write_file(dir, "fuzz_bsp_build", name, buf, at);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/fuzz/corpus";
    return blobs(dir) | builds(dir) | trees(dir);
}

/* SPDX-License-Identifier: MIT */
/* Writes the starting corpus of the fuzz targets (make fuzz-corpus): small valid inputs, so the
 * fuzzers start from real structure. tests/fuzz/corpus/<target>/ holds its output.
 *   fuzz_blob, fuzz_bvh_view: BVH blobs saved over the fuzz sources (fuzz_source_*) for every
 *     source kind and split, a few sizes, and (fuzz_blob) each one's big-endian form;
 *   fuzz_bvh_build: each source kind with a few primitives on the coordinate grid;
 *   fuzz_octree_build, fuzz_bsp_build: small lattices of points, boxes and box brushes;
 *   fuzz_octree_view, fuzz_bsp_view: saves of point and loose octrees and 2D and 3D BSPs over
 *     such lattices, each followed by bytes for the queries;
 *   fuzz_pointcloud: a small XYZ file, PCD ascii and PCD binary. */
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

/* A view target's seed: the blob, then bytes that pick the queries' shapes (a coordinate as
 * fuzz_coord reads it is a byte below 200, then a 16-bit grid value: here small ones). */
static int write_view_seed(const char *dir, const char *target, const char *name, const uint8_t *blob, size_t size)
{
    static uint8_t seed[4096];
    size_t at = size, i;
    if (size + 192u > sizeof seed) {
        fprintf(stderr, "make_corpus: %s is %zu bytes, too large for a seed\n", name, size);
        return 1;
    }
    memcpy(seed, blob, size);
    for (i = 0; i < 64u; i++) {
        const unsigned grid = 32768u + ((i * 2909u) % 4096u) - 2048u;
        seed[at++] = (uint8_t)(i * 3u % 200u);
        seed[at++] = (uint8_t)grid;
        seed[at++] = (uint8_t)(grid >> 8);
    }
    return write_file(dir, target, name, seed, at);
}

/* Point octrees of n lattice points and loose octrees of n boxes, bulk built / inserted, saved. */
static int octree_blobs(const char *dir, uint8_t *mem, size_t mem_size)
{
    static const uint32_t counts[3] = {1, 5, 40};
    static copse_vec3 pts[40];
    unsigned c, i;
    int bad = 0;
    for (i = 0; i < 40u; i++)
        pts[i] = copse_v3((float)(i % 4u), (float)(i / 4u % 3u), (float)(i * 7u % 5u) / 2.0f);
    for (c = 0; c < 3u; c++) {
        const uint32_t n = counts[c];
        copse_octree_config oc;
        copse_loose_config lc;
        copse_octree octree;
        copse_loose loose;
        copse_arena arena, scratch;
        size_t half = mem_size / 2u, written = 0;
        char name[64];
        copse_status st;
        memset(&oc, 0, sizeof oc);
        oc.points = pts;
        oc.point_capacity = n;
        oc.max_nodes = 64;
        oc.max_buckets = 64;
        oc.leaf_size = 2;
        oc.bucket_size = 2;
        oc.max_depth = 6;
        copse_arena_init(&arena, mem, half);
        copse_arena_init(&scratch, mem + half, half);
        st = copse_octree_init(&octree, &arena, &oc);
        if (st == COPSE_OK)
            st = copse_octree_build(&octree, &scratch, n);
        if (st == COPSE_OK)
            st = copse_octree_save(&octree, mem + half, half, &written);
        snprintf(name, sizeof name, "octree-n%u.blob", (unsigned)n);
        bad |= st != COPSE_OK ? 1 : write_view_seed(dir, "fuzz_octree_view", name, mem + half, written);

        memset(&lc, 0, sizeof lc);
        lc.world = copse_box3_make(0.0f, 0.0f, 0.0f, 8.0f, 8.0f, 8.0f);
        lc.max_nodes = 64;
        lc.max_objects = n + 1u; /* one slot left out of the tree */
        lc.max_depth = 4;
        lc.node_capacity = c; /* 0: each box as deep as it fits */
        copse_arena_init(&arena, mem, half);
        st = copse_loose_init(&loose, &arena, &lc);
        for (i = 0; i < n && st == COPSE_OK; i++) {
            const copse_box3 box = copse_box3_make(pts[i].x, pts[i].y, pts[i].z, pts[i].x + 0.5f * (float)(i % 3u),
                                                   pts[i].y + 0.25f, pts[i].z + 1.0f);
            st = copse_loose_insert(&loose, i, &box);
        }
        if (st == COPSE_OK)
            st = copse_loose_save(&loose, mem + half, half, &written);
        snprintf(name, sizeof name, "loose-n%u.blob", (unsigned)n);
        bad |= st != COPSE_OK ? 1 : write_view_seed(dir, "fuzz_octree_view", name, mem + half, written);
        if (st != COPSE_OK)
            fprintf(stderr, "make_corpus: octree seeds: %s\n", copse_status_str(st));
    }
    return bad;
}

/* 2D BSPs over n boxes in a 64-unit scene, 3D BSPs over n box brushes (none: an empty tree). */
static int bsp_blobs(const char *dir, uint8_t *mem, size_t mem_size)
{
    static const uint32_t counts[3] = {0, 2, 6};
    static copse_box2 boxes[6];
    static copse_plane planes[6][6];
    copse_brush brushes[6];
    unsigned c, i;
    int bad = 0;
    for (i = 0; i < 6u; i++) {
        const float x = (float)(i * 9u % 50u), y = (float)(i * 23u % 50u), z = (float)(i * 5u % 7u);
        const copse_box3 box = copse_box3_make(x, y, z, x + 6.0f + (float)i, y + 4.0f, z + 3.0f);
        boxes[i] = copse_box2_make(x, y, x + 6.0f + (float)i, y + 4.0f);
        bad |= copse_brush_from_box(&box, planes[i]) != COPSE_OK;
        brushes[i].planes = planes[i];
        brushes[i].plane_count = 6;
    }
    for (c = 0; c < 3u; c++) {
        const uint32_t n = counts[c];
        const copse_box2 scene = copse_box2_make(0.0f, 0.0f, 64.0f, 64.0f);
        copse_bsp2_params p2 = COPSE_BSP2_PARAMS_DEFAULT;
        copse_bsp3_params p3 = COPSE_BSP3_PARAMS_DEFAULT;
        copse_bsp2 bsp2;
        copse_bsp3 bsp3;
        copse_arena arena;
        size_t half = mem_size / 2u, written = 0;
        char name[64];
        copse_status st;
        p2.max_depth = 6;
        copse_arena_init(&arena, mem, half);
        st = copse_bsp2_build(&bsp2, &arena, &scene, boxes, n, &p2);
        if (st == COPSE_OK)
            st = copse_bsp2_save(&bsp2, mem + half, half, &written);
        snprintf(name, sizeof name, "bsp2-n%u.blob", (unsigned)n);
        bad |= st != COPSE_OK ? 1 : write_view_seed(dir, "fuzz_bsp_view", name, mem + half, written);

        p3.max_depth = c == 2u ? 3u : p3.max_depth; /* stopped early: mixed leaves */
        copse_arena_init(&arena, mem, half);
        st = copse_bsp3_build(&bsp3, &arena, brushes, n, &p3);
        if (st == COPSE_OK)
            st = copse_bsp3_save(&bsp3, mem + half, half, &written);
        snprintf(name, sizeof name, "bsp3-n%u.blob", (unsigned)n);
        bad |= st != COPSE_OK ? 1 : write_view_seed(dir, "fuzz_bsp_view", name, mem + half, written);
        if (st != COPSE_OK)
            fprintf(stderr, "make_corpus: bsp seeds: %s\n", copse_status_str(st));
    }
    return bad;
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
    return bad | octree_blobs(dir, mem, sizeof mem) | bsp_blobs(dir, mem, sizeof mem);
}

/* fuzz_pointcloud: reader byte (bit 0: PCD), message-size byte, then a small file of each
 * kind: XYZ with comments and extra columns, PCD ascii, PCD binary. */
static int clouds(const char *dir)
{
    static const char xyz[] = "# scan\n-0.0434742 -4.82982 0.499645\n0.0295245 -4.82834 0.541775 7 1\n\n"
                              "1e3 2.5 -3\r\n4 5 6";
    static const char pcd_ascii[] = "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z intensity\nSIZE 4 4 4 4\nTYPE F F F F\n"
                                    "COUNT 1 1 1 1\nWIDTH 2\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS 2\n"
                                    "DATA ascii\n1 2 3 0.5\n-4 5.5 6 1\n";
    static const char pcd_binary[] = "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH 2\n"
                                     "HEIGHT 1\nPOINTS 2\nDATA binary\n";
    static uint8_t buf[512];
    const float xyz_floats[6] = {1.0f, -2.0f, 3.5f, 0.25f, 100.0f, -7.0f};
    size_t at;
    unsigned i;
    int bad = 0;
    buf[0] = 0, buf[1] = 200;
    memcpy(buf + 2, xyz, sizeof xyz - 1u);
    bad |= write_file(dir, "fuzz_pointcloud", "scan.xyz.in", buf, 2u + sizeof xyz - 1u);
    buf[0] = 1, buf[1] = 40; /* a short message buffer */
    memcpy(buf + 2, pcd_ascii, sizeof pcd_ascii - 1u);
    bad |= write_file(dir, "fuzz_pointcloud", "ascii.pcd.in", buf, 2u + sizeof pcd_ascii - 1u);
    buf[0] = 1, buf[1] = 200;
    memcpy(buf + 2, pcd_binary, sizeof pcd_binary - 1u);
    at = 2u + sizeof pcd_binary - 1u;
    for (i = 0; i < 6u; i++) { /* little-endian floats, as PCD stores them on every host we target */
        uint32_t w;
        memcpy(&w, &xyz_floats[i], 4);
        buf[at++] = (uint8_t)w, buf[at++] = (uint8_t)(w >> 8), buf[at++] = (uint8_t)(w >> 16), buf[at++] = (uint8_t)(w >> 24);
    }
    bad |= write_file(dir, "fuzz_pointcloud", "binary.pcd.in", buf, at);
    /* POINTS far beyond the data: the reader must refuse (binary) or find too few lines
     * (ascii) without allocating for them (a regression seed: it asked for 12 GB) */
    for (i = 0; i < 2u; i++) {
        const char *head = i == 0u ? pcd_binary : pcd_ascii;
        const char *cut = strstr(head, "WIDTH");
        const int n = snprintf((char *)buf + 2, sizeof buf - 2u, "%.*sWIDTH 1000000000\nHEIGHT 1\nPOINTS 1000000000\n"
                               "DATA %s\n1 2 3%s\n", (int)(cut - head), head, i == 0u ? "binary" : "ascii",
                               i == 0u ? "" : " 0.5");
        buf[0] = 1, buf[1] = 200;
        bad |= write_file(dir, "fuzz_pointcloud", i == 0u ? "huge-points-binary.pcd.in" : "huge-points-ascii.pcd.in",
                          buf, 2u + (size_t)n);
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
    return blobs(dir) | builds(dir) | trees(dir) | clouds(dir);
}

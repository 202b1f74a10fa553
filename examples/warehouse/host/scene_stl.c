/* SPDX-License-Identifier: MIT */
/*
 * Host only (make demo): writes the warehouse of scene.c as a binary STL file, which
 * `copse bake` turns into the const tree the firmware links (mk/demo.mk). Binary STL stores
 * each corner as the float itself, so the baked mesh has the scene's coordinates bit for bit
 * and its triangles in the scene's order: the baked tree is the run-time tree, and triangle
 * ids mean the same in both (the demo checks it).
 */
#include <stdio.h>
#include <string.h>

#include "../scene.h"

static scene g_scene;

static int put_u32(FILE *f, uint32_t v)
{
    unsigned char b[4];
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
    return fwrite(b, 1, 4, f) == 4;
}

static int put_float(FILE *f, float x)
{
    uint32_t bits;
    memcpy(&bits, &x, 4);
    return put_u32(f, bits);
}

int main(int argc, char **argv)
{
    char header[80];
    uint32_t t;
    unsigned k, a;
    int ok = 1;
    FILE *f;
    if (argc != 2) {
        fprintf(stderr, "usage: scene_stl OUT.stl\n");
        return 2;
    }
    scene_build(&g_scene);
    f = fopen(argv[1], "wb");
    if (f == NULL) {
        fprintf(stderr, "scene_stl: cannot write %s\n", argv[1]);
        return 1;
    }
    memset(header, 0, sizeof header); /* must not start with "solid": that means ASCII STL */
    snprintf(header, sizeof header, "copse warehouse demo scene (DEMO_SMALL=%d)", DEMO_SMALL);
    ok = fwrite(header, 1, sizeof header, f) == sizeof header && put_u32(f, g_scene.ntris);
    for (t = 0; ok && t < g_scene.ntris; t++) {
        for (a = 0; a < 3; a++)
            ok = ok && put_float(f, 0.0f); /* the normal: unused */
        for (k = 0; k < 3; k++)
            for (a = 0; a < 3; a++)
                ok = ok && put_float(f, g_scene.pos[3u * g_scene.idx[3u * t + k] + a]);
        ok = ok && fwrite("\0\0", 1, 2, f) == 2; /* attribute byte count */
    }
    if (fclose(f) != 0 || !ok) {
        fprintf(stderr, "scene_stl: write error on %s\n", argv[1]);
        return 1;
    }
    return 0;
}

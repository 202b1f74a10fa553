/* SPDX-License-Identifier: MIT */
/*
 * robot_world_stl OUT.stl: writes the robot benchmarks' table and box (bench/robot_scene.c) as
 * binary STL, each corner the float itself, for `copse bake` to turn into the firmware's world
 * (mk/robot-fw.mk). Host only.
 */
#include <stdio.h>
#include <string.h>

#include "robot_scene.h"

static int put(FILE *f, const void *p, size_t n)
{
    return fwrite(p, 1, n, f) == n ? 0 : -1;
}

int main(int argc, char **argv)
{
    static float pos[3u * ROBOT_SCENE_VERTICES];
    static uint32_t idx[3u * ROBOT_SCENE_TRIANGLES];
    unsigned char header[80];
    uint32_t n = ROBOT_SCENE_TRIANGLES, t;
    int bad = 0;
    FILE *f;
    if (argc != 2) {
        fprintf(stderr, "usage: robot_world_stl OUT.stl\n");
        return 2;
    }
    robot_scene_table(pos, idx);
    f = fopen(argv[1], "wb");
    if (f == NULL) {
        perror(argv[1]);
        return 1;
    }
    memset(header, 0, sizeof header);
    memcpy(header, "copse robot bench: table and box", 32);
    bad |= put(f, header, sizeof header);
    bad |= put(f, &n, 4); /* STL is little endian, as is every host this runs on */
    for (t = 0; t < n; t++) {
        float normal[3] = { 0.0f, 0.0f, 0.0f };
        unsigned char attr[2] = { 0, 0 };
        uint32_t k;
        bad |= put(f, normal, sizeof normal);
        for (k = 0; k < 3u; k++)
            bad |= put(f, &pos[3u * idx[3u * t + k]], 3u * sizeof(float));
        bad |= put(f, attr, 2);
    }
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "robot_world_stl: writing %s failed\n", argv[1]);
        return 1;
    }
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* The robot benchmarks' table and box (bench/robot_scene.h). */
#include "robot_scene.h"

/* centre x, y, z, half x, y, z: the top (0.75 x 1.4 m, 4 cm thick, its surface 12 cm above the
 * arm's base), its legs, and a 12 x 12 x 30 cm box standing on it to the arm's left */
static const float boxes[ROBOT_SCENE_BOXES][6] = {
    { 0.625f, 0.0f, 0.10f, 0.375f, 0.70f, 0.02f },  { 0.30f, -0.65f, -0.27f, 0.02f, 0.02f, 0.35f },
    { 0.30f, 0.65f, -0.27f, 0.02f, 0.02f, 0.35f },  { 0.95f, -0.65f, -0.27f, 0.02f, 0.02f, 0.35f },
    { 0.95f, 0.65f, -0.27f, 0.02f, 0.02f, 0.35f },  { 0.45f, 0.35f, 0.27f, 0.06f, 0.06f, 0.15f },
};

void robot_scene_box(uint32_t b, float center[3], float half[3])
{
    uint32_t a;
    for (a = 0; a < 3u; a++) {
        center[a] = boxes[b][a];
        half[a] = boxes[b][3u + a];
    }
}

void robot_scene_table(float *pos, uint32_t *idx)
{
    /* corner k: bit 0 x, bit 1 y, bit 2 z (set: the + side); two triangles a face, outwards */
    static const uint8_t faces[12][3] = { { 0, 2, 3 }, { 0, 3, 1 }, { 4, 5, 7 }, { 4, 7, 6 },
                                          { 0, 1, 5 }, { 0, 5, 4 }, { 2, 6, 7 }, { 2, 7, 3 },
                                          { 0, 4, 6 }, { 0, 6, 2 }, { 1, 3, 7 }, { 1, 7, 5 } };
    uint32_t b, k, t;
    for (b = 0; b < ROBOT_SCENE_BOXES; b++) {
        float c[3], h[3];
        robot_scene_box(b, c, h);
        for (k = 0; k < 8u; k++) {
            float *p = &pos[3u * (8u * b + k)];
            p[0] = c[0] + ((k & 1u) ? h[0] : -h[0]);
            p[1] = c[1] + ((k & 2u) ? h[1] : -h[1]);
            p[2] = c[2] + ((k & 4u) ? h[2] : -h[2]);
        }
        for (t = 0; t < 12u; t++)
            for (k = 0; k < 3u; k++)
                idx[3u * (12u * b + t) + k] = 8u * b + faces[t][k];
    }
}

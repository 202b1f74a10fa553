/* SPDX-License-Identifier: MIT */
/*
 * The warehouse, generated in code. Only + - * on floats and integer random
 * numbers: the same vertices, bit for bit, on a Cortex-M0, an M4F and a PC.
 */
#include "scene.h"

/* 16-bit indices must reach every vertex (a compile-time check). */
typedef char scene_fits_u16[SCENE_VERTS <= 65536 ? 1 : -1];

/* ---- placement (metres) ---------------------------------------------------------------------- */
#define BAY_W 2.5f        /* bay width along x */
#define RACK_DEPTH 1.0f   /* along z */
#define LEVEL_H 0.9f      /* shelf pitch */
#define SHELF_Y0 0.15f    /* lowest shelf */
#define FRAME_T 0.08f     /* thickness of a rack's end frames */
#define BOARD_T 0.05f     /* thickness of a shelf board */
#define PILLAR_R 0.25f

#if DEMO_SMALL
#define RACK_X0 2.5f
static const float row_z[RACK_ROWS] = { 5.5f };                   /* row centres */
static const float pillar_xz[PILLARS][2] = { { 10.0f, 5.5f } };
static const float crate_xz[CRATES][2] = { { 6.0f, 3.6f } };
#else
#define RACK_X0 3.0f
static const float row_z[RACK_ROWS] = { 4.0f, 8.0f, 12.0f };
static const float pillar_xz[PILLARS][2] = { { 17.0f, 4.0f }, { 17.0f, 8.0f }, { 17.0f, 12.0f }, { 21.0f, 13.5f } };
static const float crate_xz[CRATES][2] = { { 8.0f, 5.4f }, { 19.5f, 10.6f }, { 11.0f, 14.5f } };
#endif

/* ---- deterministic random numbers: an LCG, integer only ---------------------------------------- */
static uint32_t g_rng = 12345u;

static float rnd(float lo, float hi) /* uniform in [lo, hi) */
{
    g_rng = g_rng * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((float)(g_rng >> 8) * (1.0f / 16777216.0f));
}

/* ---- emitting geometry ----------------------------------------------------------------------- */
static uint32_t vertex(scene *s, float x, float y, float z)
{
    float *p = &s->pos[3u * s->nverts];
    p[0] = x;
    p[1] = y;
    p[2] = z;
    return s->nverts++;
}

static void triangle(scene *s, uint32_t a, uint32_t b, uint32_t c, scene_kind kind)
{
    uint16_t *t = &s->idx[3u * s->ntris];
    t[0] = (uint16_t)a;
    t[1] = (uint16_t)b;
    t[2] = (uint16_t)c;
    s->kind[s->ntris++] = (uint8_t)kind;
}

/* An axis-aligned box: 8 corners, 12 triangles wound outwards. */
static void box(scene *s, float x0, float y0, float z0, float x1, float y1, float z1, scene_kind kind)
{
    static const uint8_t faces[12][3] = {
        { 0, 2, 1 }, { 0, 3, 2 }, /* bottom (y0) */ { 4, 5, 6 }, { 4, 6, 7 }, /* top (y1) */
        { 0, 1, 5 }, { 0, 5, 4 }, /* z0 side */    { 3, 6, 2 }, { 3, 7, 6 }, /* z1 side */
        { 0, 4, 7 }, { 0, 7, 3 }, /* x0 side */    { 1, 2, 6 }, { 1, 6, 5 }, /* x1 side */
    };
    uint32_t v = vertex(s, x0, y0, z0), i;
    vertex(s, x1, y0, z0);
    vertex(s, x1, y0, z1);
    vertex(s, x0, y0, z1);
    vertex(s, x0, y1, z0);
    vertex(s, x1, y1, z0);
    vertex(s, x1, y1, z1);
    vertex(s, x0, y1, z1);
    for (i = 0; i < 12u; i++)
        triangle(s, v + faces[i][0], v + faces[i][1], v + faces[i][2], kind);
}

/* A vertical wall panel from (x0, z0) to (x1, z1), floor to ceiling: 2 triangles. */
static void panel(scene *s, float x0, float z0, float x1, float z1)
{
    uint32_t v = vertex(s, x0, 0.0f, z0);
    vertex(s, x1, 0.0f, z1);
    vertex(s, x1, ROOM_Y, z1);
    vertex(s, x0, ROOM_Y, z0);
    triangle(s, v, v + 1u, v + 2u, KIND_WALL);
    triangle(s, v, v + 2u, v + 3u, KIND_WALL);
}

/* An octagonal pillar, floor to ceiling (no caps: nothing can see them). */
static void pillar(scene *s, float cx, float cz)
{
    static const float ring[PILLAR_SIDES][2] = {
        { 1, 0 }, { 0.70710678f, 0.70710678f }, { 0, 1 }, { -0.70710678f, 0.70710678f },
        { -1, 0 }, { -0.70710678f, -0.70710678f }, { 0, -1 }, { 0.70710678f, -0.70710678f },
    };
    uint32_t v = s->nverts, k;
    for (k = 0; k < PILLAR_SIDES; k++) {
        vertex(s, cx + PILLAR_R * ring[k][0], 0.0f, cz + PILLAR_R * ring[k][1]);
        vertex(s, cx + PILLAR_R * ring[k][0], ROOM_Y, cz + PILLAR_R * ring[k][1]);
    }
    for (k = 0; k < PILLAR_SIDES; k++) {
        uint32_t a = v + 2u * k, b = v + 2u * ((k + 1u) % PILLAR_SIDES);
        triangle(s, a, b, b + 1u, KIND_PILLAR);
        triangle(s, a, b + 1u, a + 1u, KIND_PILLAR);
    }
}

/* A row of racks along x centred on z = zc: end frames between bays, one long board per
 * level, and boxes of random sizes on every shelf of every bay. */
static void rack_row(scene *s, float zc)
{
    const float z0 = zc - 0.5f * RACK_DEPTH, z1 = zc + 0.5f * RACK_DEPTH;
    const float x_end = RACK_X0 + (float)RACK_BAYS * BAY_W;
    const float top = SHELF_Y0 + (float)RACK_LEVELS * LEVEL_H;
    int bay, level, k;

    for (bay = 0; bay <= RACK_BAYS; bay++) {
        float x = RACK_X0 + (float)bay * BAY_W;
        box(s, x - 0.5f * FRAME_T, 0.0f, z0, x + 0.5f * FRAME_T, top, z1, KIND_RACK);
    }
    for (level = 0; level < RACK_LEVELS; level++) {
        float y = SHELF_Y0 + (float)level * LEVEL_H;
        box(s, RACK_X0, y - BOARD_T, z0, x_end, y, z1, KIND_RACK);
    }
    for (bay = 0; bay < RACK_BAYS; bay++) {
        const float slot = (BAY_W - FRAME_T) / (float)BOXES_PER_SHELF;
        for (level = 0; level < RACK_LEVELS; level++) {
            float y = SHELF_Y0 + (float)level * LEVEL_H;
            for (k = 0; k < BOXES_PER_SHELF; k++) {
                float w = rnd(0.4f, 0.9f), d = rnd(0.4f, 0.8f), h = rnd(0.25f, 0.6f);
                float x = RACK_X0 + (float)bay * BAY_W + 0.5f * FRAME_T + (float)k * slot;
                float xo = rnd(0.0f, slot - w), zo = rnd(0.0f, RACK_DEPTH - d);
                box(s, x + xo, y, z0 + zo, x + xo + w, y + h, z0 + zo + d, KIND_BOX);
            }
        }
    }
}

void scene_build(scene *s)
{
    int i;
    s->nverts = s->ntris = 0;
    g_rng = 12345u;

    /* four walls, inward, in panels so no triangle spans the whole room */
    for (i = 0; i < WALL_TILES_X; i++) {
        float xa = ROOM_X * (float)i / (float)WALL_TILES_X, xb = ROOM_X * (float)(i + 1) / (float)WALL_TILES_X;
        panel(s, xa, 0.0f, xb, 0.0f);
        panel(s, xb, ROOM_Z, xa, ROOM_Z);
    }
    for (i = 0; i < WALL_TILES_Z; i++) {
        float za = ROOM_Z * (float)i / (float)WALL_TILES_Z, zb = ROOM_Z * (float)(i + 1) / (float)WALL_TILES_Z;
        panel(s, 0.0f, zb, 0.0f, za);
        panel(s, ROOM_X, za, ROOM_X, zb);
    }
    for (i = 0; i < RACK_ROWS; i++)
        rack_row(s, row_z[i]);
    for (i = 0; i < PILLARS; i++)
        pillar(s, pillar_xz[i][0], pillar_xz[i][1]);
    for (i = 0; i < CRATES; i++) /* loose crates on the floor, some in the aisles */
        box(s, crate_xz[i][0] - 0.5f, 0.0f, crate_xz[i][1] - 0.35f, crate_xz[i][0] + 0.5f, 0.8f,
            crate_xz[i][1] + 0.35f, KIND_CRATE);
}

copse_mesh scene_mesh(const scene *s)
{
    copse_mesh m;
    m.positions = s->pos;
    m.vertex_count = s->nverts;
    m.vertex_stride = 0; /* packed xyz */
    m.indices = s->idx;
    m.index_type = COPSE_MESH_INDEX_U16;
    m.triangle_count = s->ntris;
    return m;
}

const char *scene_kind_name(scene_kind kind)
{
    static const char *const names[] = { "wall", "pillar", "rack", "box", "crate" };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

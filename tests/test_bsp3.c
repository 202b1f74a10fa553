/* SPDX-License-Identifier: MIT */
/*
 * The 3D solid-leaf BSP tree: hand-derived trees for one and two boxes, the brush helpers,
 * every query against brute force over the brushes in double precision (point in any brush;
 * the segment clipped by every brush's planes; the same with planes pushed out for spheres
 * and boxes) on random brush sets with fixed seeds (0, 1, 2 and more brushes; boxes on a grid,
 * touching and coincident; extruded polygons; brushes of tangent planes with redundant ones;
 * huge coordinates), exact sizes with a guard after the buffer, and bad input; the brush
 * preparation's float arithmetic (unit planes and corners against double, the same bytes at
 * every power-of-two scale, near-parallel planes, polygons far from the origin).
 *
 * Boundary band: the build treats a corner within 1e-6 of the scene's scale of a plane as on
 * it, so answers within 1e-5 of the scale of a brush's boundary may go either way. The oracle
 * decides with brushes shrunk and grown by that band and accepts what lies between.
 */
#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test_bsp.h"
#include "../src/bsp/bsp3_internal.h" /* copse_bsp3_unit_plane, copse_bsp3_corners */

static uint8_t *g_pool;
static size_t g_pool_size, g_pool_used;

void bsp_pool_reset(void)
{
    g_pool = (uint8_t *)test_memory(&g_pool_size);
    g_pool_used = 0;
}

void *bsp_pool_alloc(size_t bytes)
{
    size_t start = (g_pool_used + 7u) & ~(size_t)7u;
    if (!CHECKF(start + bytes <= g_pool_size, "test pool: %lu bytes do not fit", (unsigned long)bytes))
        return NULL;
    g_pool_used = start + bytes;
    return g_pool + start;
}

#define pool_reset bsp_pool_reset
#define pool_alloc bsp_pool_alloc

static const copse_bsp3_params k_default = COPSE_BSP3_PARAMS_DEFAULT;

/* Builds into exactly copse_bsp3_build_bytes() and checks the arena's accounting. */
bool bsp3_build_exact(copse_bsp3 *t, const copse_brush *brushes, uint32_t n, const copse_bsp3_params *p)
{
    size_t scratch = copse_bsp3_scratch_bytes(brushes, n, p), exact, mark = g_pool_used;
    void *work, *buf;
    copse_arena arena;
    if (!CHECKF(scratch != (size_t)-1, "scratch bytes refused n=%u", (unsigned)n))
        return false;
    work = pool_alloc(scratch);
    if (work == NULL)
        return false;
    exact = copse_bsp3_build_bytes(brushes, n, p, work, scratch);
    g_pool_used = mark;
    if (!CHECKF(exact != (size_t)-1, "build bytes refused n=%u", (unsigned)n))
        return false;
    buf = pool_alloc(exact);
    if (buf == NULL)
        return false;
    copse_arena_init(&arena, buf, exact);
    CHECK_STATUS(copse_bsp3_build(t, &arena, brushes, n, p), COPSE_OK);
    CHECK_EQ_INT(arena.high_water, exact);
    CHECK_EQ_INT(arena.used, copse_bsp3_bytes(t));
    CHECK_STATUS(copse_bsp3_check(t), COPSE_OK);
    /* the scratch past the tree goes back to the pool */
    g_pool_used = (size_t)((uint8_t *)buf - g_pool) + arena.used;
    return true;
}

/* ---- hand-derived trees ----------------------------------------------------------------------- */

/*
 * One box [0,1]^3: copse_brush_from_box gives planes 0 (-x <= 0), 1 (x <= 1), 2 (-y <= 0),
 * 3 (y <= 1), 4 (-z <= 0), 5 (z <= 1); all axial, so no bevels. With one fragment every plane
 * is its own (it goes behind): front 0, back 1, no cut, score 1 each; ties go to the lower
 * index, so the planes are used in order, each with empty space in front, and the last back
 * child is inside the box: solid, listing brush 0.
 */
static const char k_one_box[] = "P0\n  E\n  P1\n    E\n    P2\n      E\n      P3\n        E\n        P4\n"
                                "          E\n          P5\n            E\n            S0\n";
static const char k_one_box_levels[] = "0: P0\n1: E P1\n2: E P2\n3: E P3\n4: E P4\n5: E P5\n6: E S0\n";

/*
 * Two boxes touching at x = 1: A = [0,1]^3 (brush 0), B = [1,2]x[0,1]^2 (brush 1). Distinct
 * planes: A's 0..5 as above; B's -x <= -1 is new (6), x <= 2 is new (7), its y and z planes
 * are A's 2..5. Root candidates in order 0..5, 6, 7 (B's 2..5 are already scored):
 *   P0: A own (back), B behind (x >= 1)         -> front 0, back 2: score 2
 *   P1: A own, B's corners at x - 1 in [0, 1]   -> front 1, back 1: score 0
 *   P2..P5: own for both                          -> back 2: score 2
 *   P6: A in front (x <= 1 is 1 - x >= 0), B own -> score 0;  P7: both behind -> 2
 * P1 and P6 tie at 0: P1 (lower index). Behind it A alone uses 0, 2, 3, 4, 5 in order; in
 * front B alone uses its planes by index: 2, 3, 4, 5, 6, 7. Children print front first.
 */
static const char k_two_boxes[] = "P1\n"
                                  "  P2\n    E\n    P3\n      E\n      P4\n        E\n        P5\n"
                                  "          E\n          P6\n            E\n            P7\n"
                                  "              E\n              S1\n"
                                  "  P0\n    E\n    P2\n      E\n      P3\n        E\n        P4\n"
                                  "          E\n          P5\n            E\n            S0\n";

void bsp3_two_boxes(copse_plane planes[2][6], copse_brush brushes[2])
{
    copse_box3 a = copse_box3_make(0, 0, 0, 1, 1, 1), b = copse_box3_make(1, 0, 0, 2, 1, 1);
    CHECK_STATUS(copse_brush_from_box(&a, planes[0]), COPSE_OK);
    CHECK_STATUS(copse_brush_from_box(&b, planes[1]), COPSE_OK);
    brushes[0].planes = planes[0];
    brushes[0].plane_count = 6;
    brushes[1].planes = planes[1];
    brushes[1].plane_count = 6;
}

static void test_hand_trees(void)
{
    copse_plane planes[2][6];
    copse_brush brushes[2];
    copse_bsp3 t;
    char text[512];
    size_t len;
    pool_reset();
    bsp3_two_boxes(planes, brushes);
    if (!bsp3_build_exact(&t, brushes, 1, &k_default))
        return;
    CHECK_EQ_INT(t.node_count, 6);
    CHECK_EQ_INT(t.plane_count, 6);
    CHECK_EQ_INT(t.solid_leaves, 1);
    CHECK_EQ_INT(t.depth, 6);
    CHECK_STATUS(copse_bsp3_dump(&t, COPSE_BSP_PREORDER, text, sizeof text, &len), COPSE_OK);
    CHECKF(strcmp(text, k_one_box) == 0, "one box:\n%s", text);
    CHECK_STATUS(copse_bsp3_dump(&t, COPSE_BSP_LEVELORDER, text, sizeof text, &len), COPSE_OK);
    CHECKF(strcmp(text, k_one_box_levels) == 0, "one box, levels:\n%s", text);
    CHECK(t.inflate >= 1.7320f && t.inflate < 1.75f); /* a box's corner moves sqrt(3) */
    if (!bsp3_build_exact(&t, brushes, 2, &k_default))
        return;
    CHECK_EQ_INT(t.node_count, 12);
    CHECK_EQ_INT(t.plane_count, 8);
    CHECK_EQ_INT(t.split_count, 0);
    CHECK_STATUS(copse_bsp3_dump(&t, COPSE_BSP_PREORDER, text, sizeof text, &len), COPSE_OK);
    CHECKF(strcmp(text, k_two_boxes) == 0, "two boxes:\n%s", text);
    {
        copse_bsp3_where w;
        copse_bsp3_trace tr;
        copse_segment3 s;
        bool hit;
        uint32_t hit_id = COPSE_NONE;
        copse_box3 q;
        CHECK_STATUS(copse_bsp3_contents(&t, copse_v3(1.0f, 0.5f, 0.5f), &w), COPSE_OK); /* the shared face */
        CHECK(w.solid);
        CHECK_STATUS(copse_bsp3_contents(&t, copse_v3(1.5f, 0.5f, 1.5f), &w), COPSE_OK);
        CHECK(!w.solid && w.leaf == COPSE_NONE);
        /* a ray from below into B's floor */
        s.a = copse_v3(1.5f, 0.5f, -1.0f);
        s.b = copse_v3(1.5f, 0.5f, 3.0f);
        CHECK_STATUS(copse_sweep_point_bsp3(&s, &t, &tr), COPSE_OK);
        CHECK(tr.hit && !tr.start_solid && tr.t == 0.25f && tr.point.z == 0.0f && tr.normal.z == -1.0f);
        /* a sphere of radius 0.5 along x above both boxes, 0.25 over their tops: it hits A's top? no:
         * it starts beside A and meets A's -x side pushed out to x = -0.5 at fraction 0.5/4 */
        s.a = copse_v3(-1.0f, 0.5f, 1.25f);
        s.b = copse_v3(3.0f, 0.5f, 1.25f);
        CHECK_STATUS(copse_sweep_sphere_bsp3(&s, 0.5f, &t, &tr), COPSE_OK);
        CHECK(tr.hit && tr.id == 0 && tr.t == 0.125f && tr.normal.x == -1.0f);
        /* the same sphere 0.6 over the tops misses */
        s.a.z = s.b.z = 1.6f;
        CHECK_STATUS(copse_sweep_sphere_bsp3(&s, 0.5f, &t, &tr), COPSE_OK);
        CHECK(!tr.hit && tr.t == 1.0f);
        q = copse_box3_make(2.0f, 1.0f, 1.0f, 3.0f, 2.0f, 2.0f); /* touches B's corner */
        CHECK_STATUS(copse_bsp3_any_box(&t, &q, &hit_id), COPSE_OK);
        hit = hit_id != COPSE_NONE;
        CHECK(hit);
        q.min.x = 2.001f;
        CHECK_STATUS(copse_bsp3_any_box(&t, &q, &hit_id), COPSE_OK);
        hit = hit_id != COPSE_NONE;
        CHECK(!hit);
    }
}

/* ---- helpers -------------------------------------------------------------------------------- */

static void test_helpers(void)
{
    copse_plane p[32];
    uint32_t n = 0;
    copse_vec2 sq[4], star[5], bent[4], line[3];
    copse_box3 box = copse_box3_make(0, 0, 0, 1, 0, 1);
    const float nan = 0.0f * (1.0f / 0.0f);
    unsigned i;
    sq[0] = copse_v2(0, 0);
    sq[1] = copse_v2(2, 0);
    sq[2] = copse_v2(2, 1);
    sq[3] = copse_v2(0, 1);
    CHECK_STATUS(copse_brush_from_polygon(sq, 4, -1.0f, 1.0f, p, 32, &n), COPSE_OK);
    CHECK_EQ_INT(n, 6);
    /* outward normals: (0,-1) below the first edge, then (+1, 0) ... */
    CHECK(p[0].normal.x == 0.0f && p[0].normal.y < 0.0f && p[1].normal.x > 0.0f && p[5].normal.z == 1.0f);
    for (i = 0; i < 4; i++) { /* the other winding gives the same planes */
        copse_vec2 r[4];
        copse_plane q[6];
        uint32_t m;
        unsigned k;
        for (k = 0; k < 4; k++)
            r[k] = sq[3u - k];
        CHECK_STATUS(copse_brush_from_polygon(r, 4, -1.0f, 1.0f, q, 6, &m), COPSE_OK);
        CHECK(q[i].normal.x * q[i].normal.x + q[i].normal.y * q[i].normal.y > 0.0f);
    }
    for (i = 0; i < 5; i++) /* a pentagram: turns one way, winds twice */
        star[i] = copse_v2((float)((i * 2u) % 5u == 0 ? 0 : (i * 2u) % 5u == 1 ? 3 : (i * 2u) % 5u == 2 ? 4 : (i * 2u) % 5u == 3 ? 2 : -1),
                           (float)((i * 2u) % 5u == 0 ? 0 : (i * 2u) % 5u == 1 ? 0 : (i * 2u) % 5u == 2 ? 3 : (i * 2u) % 5u == 3 ? 5 : 3));
    CHECK_STATUS(copse_brush_from_polygon(star, 5, 0.0f, 1.0f, p, 32, &n), COPSE_ERR_NONCONVEX);
    bent[0] = copse_v2(0, 0);
    bent[1] = copse_v2(2, 0);
    bent[2] = copse_v2(1, 0.5f);
    bent[3] = copse_v2(2, 2);
    CHECK_STATUS(copse_brush_from_polygon(bent, 4, 0.0f, 1.0f, p, 32, &n), COPSE_ERR_NONCONVEX);
    line[0] = copse_v2(0, 0);
    line[1] = copse_v2(1, 1);
    line[2] = copse_v2(2, 2);
    CHECK_STATUS(copse_brush_from_polygon(line, 3, 0.0f, 1.0f, p, 32, &n), COPSE_ERR_DEGENERATE);
    CHECK_STATUS(copse_brush_from_polygon(sq, 4, 1.0f, 1.0f, p, 32, &n), COPSE_ERR_DEGENERATE);
    CHECK_STATUS(copse_brush_from_polygon(sq, 4, 2.0f, 1.0f, p, 32, &n), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_brush_from_polygon(sq, 2, 0.0f, 1.0f, p, 32, &n), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_brush_from_polygon(sq, 4, 0.0f, 1.0f, p, 5, &n), COPSE_ERR_NOMEM);
    CHECK_STATUS(copse_brush_from_polygon(sq, 4, 0.0f, nan, p, 32, &n), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_brush_from_polygon(NULL, 4, 0.0f, 1.0f, p, 32, &n), COPSE_ERR_NULL);
    CHECK_EQ_INT(n, 0);
    CHECK_STATUS(copse_brush_from_box(&box, p), COPSE_ERR_DEGENERATE);
    box.max.y = -1.0f;
    CHECK_STATUS(copse_brush_from_box(&box, p), COPSE_ERR_PARAM);
    box.max.y = nan;
    CHECK_STATUS(copse_brush_from_box(&box, p), COPSE_ERR_NONFINITE);
}

/* ---- the oracle: brushes in double ---------------------------------------------------------------- */

#define MAX_P 20 /* the test sets have at most 14 planes, and up to 6 bevels */

typedef struct obrush {
    double n[MAX_P][3], d[MAX_P]; /* unit planes: the input's, then the oracle's own bevels */
    unsigned count, real;
} obrush;

typedef struct oscene {
    obrush *b;
    uint32_t n;
    double scale, band;
} oscene;

static double odot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Unit planes and bevels (the input planes' corners' bounds on the axes no input normal has). */
static void oracle_brush(obrush *o, const copse_brush *in)
{
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    unsigned i, j, k, l, a;
    o->real = o->count = in->plane_count;
    for (i = 0; i < in->plane_count; i++) {
        const copse_plane *p = &in->planes[i];
        double v[3], len;
        v[0] = (double)p->normal.x;
        v[1] = (double)p->normal.y;
        v[2] = (double)p->normal.z;
        len = odot(v, v);
        for (len = len > 1.0 ? len : 1.0, k = 0; k < 60; k++) /* Newton: the test needs no libm */
            len = 0.5 * (len + odot(v, v) / len);
        for (k = 0; k < 3; k++)
            o->n[i][k] = v[k] / len;
        o->d[i] = (double)p->dist / len;
    }
    for (i = 0; i < o->real; i++)
        for (j = i + 1; j < o->real; j++)
            for (k = j + 1; k < o->real; k++) {
                double *a0 = o->n[i], *b0 = o->n[j], *c0 = o->n[k], bc[3], ca[3], ab[3], det, v[3];
                bool in_all = true;
                bc[0] = b0[1] * c0[2] - b0[2] * c0[1];
                bc[1] = b0[2] * c0[0] - b0[0] * c0[2];
                bc[2] = b0[0] * c0[1] - b0[1] * c0[0];
                ca[0] = c0[1] * a0[2] - c0[2] * a0[1];
                ca[1] = c0[2] * a0[0] - c0[0] * a0[2];
                ca[2] = c0[0] * a0[1] - c0[1] * a0[0];
                ab[0] = a0[1] * b0[2] - a0[2] * b0[1];
                ab[1] = a0[2] * b0[0] - a0[0] * b0[2];
                ab[2] = a0[0] * b0[1] - a0[1] * b0[0];
                det = odot(a0, bc);
                if (det < 1e-9 && det > -1e-9)
                    continue;
                for (a = 0; a < 3; a++)
                    v[a] = (o->d[i] * bc[a] + o->d[j] * ca[a] + o->d[k] * ab[a]) / det;
                for (l = 0; l < o->real && in_all; l++)
                    in_all = odot(o->n[l], v) - o->d[l] <= 1e-7 * (1.0 + (o->d[l] < 0 ? -o->d[l] : o->d[l]));
                if (!in_all)
                    continue;
                for (a = 0; a < 3; a++) {
                    lo[a] = v[a] < lo[a] ? v[a] : lo[a];
                    hi[a] = v[a] > hi[a] ? v[a] : hi[a];
                }
            }
    for (a = 0; a < 6; a++) {
        unsigned axis = a / 2u;
        double sign = (a & 1u) ? -1.0 : 1.0;
        bool have = false;
        for (i = 0; i < o->real && !have; i++) {
            const copse_plane *p = &in->planes[i];
            const float c[3] = {p->normal.x, p->normal.y, p->normal.z};
            have = c[(axis + 1u) % 3u] == 0.0f && c[(axis + 2u) % 3u] == 0.0f && (double)c[axis] * sign > 0.0;
        }
        if (!have) {
            o->n[o->count][0] = axis == 0 ? sign : 0.0;
            o->n[o->count][1] = axis == 1 ? sign : 0.0;
            o->n[o->count][2] = axis == 2 ? sign : 0.0;
            o->d[o->count++] = sign > 0 ? hi[axis] : -lo[axis];
        }
    }
}

/* Largest signed distance of p outside brush b's planes pushed out by e(plane) + grow. */
static double outside(const obrush *b, const double *p, double sphere, const double *half, double grow, bool bevels)
{
    double worst = -1e300;
    unsigned k;
    for (k = 0; k < (bevels ? b->count : b->real); k++) {
        double e = sphere;
        double d;
        if (half != NULL)
            e = (b->n[k][0] < 0 ? -b->n[k][0] : b->n[k][0]) * half[0] + (b->n[k][1] < 0 ? -b->n[k][1] : b->n[k][1]) * half[1] +
                (b->n[k][2] < 0 ? -b->n[k][2] : b->n[k][2]) * half[2];
        d = odot(b->n[k], p) - (b->d[k] + e + grow);
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* First t in [0, 1] of a + t (b - a) inside any expanded brush grown by `grow`, or 2. */
static double oracle_trace(const oscene *s, const double *a, const double *b, double r, double grow, bool bevels,
                           uint32_t *which)
{
    double best = 2.0, dir[3];
    uint32_t i;
    unsigned k;
    for (k = 0; k < 3; k++)
        dir[k] = b[k] - a[k];
    *which = COPSE_NONE;
    for (i = 0; i < s->n; i++) {
        const obrush *o = &s->b[i];
        double tn = 0.0, tf = 1.0;
        bool miss = false;
        for (k = 0; k < (bevels ? o->count : o->real) && !miss; k++) {
            double da = odot(o->n[k], a) - (o->d[k] + r + grow), dn = odot(o->n[k], dir);
            if (dn == 0.0) {
                miss = da > 0.0;
            } else if (dn < 0.0) {
                double t = -da / dn;
                tn = t > tn ? t : tn;
            } else {
                double t = -da / dn;
                tf = t < tf ? t : tf;
            }
        }
        if (!miss && tn <= tf && tn < best) {
            best = tn;
            *which = i;
        }
    }
    return best;
}

/* ---- random brush sets ---------------------------------------------------------------------------- */

typedef enum set_kind { SET_GRID_BOXES, SET_POLYGONS, SET_TANGENT, SET_HUGE, SET_COUNT } set_kind;
static const char *const k_set_names[SET_COUNT] = {"grid boxes", "extruded polygons", "tangent planes", "huge"};

typedef struct bset {
    copse_brush *brushes;
    copse_plane *planes;
    uint32_t n;
} bset;

static bool make_set(bset *s, set_kind kind, uint32_t n, test_rng *rng)
{
    uint32_t i, used = 0;
    s->n = n;
    s->brushes = (copse_brush *)pool_alloc((n > 0 ? n : 1u) * sizeof(copse_brush));
    s->planes = (copse_plane *)pool_alloc((n > 0 ? n : 1u) * 14u * sizeof(copse_plane));
    if (s->brushes == NULL || s->planes == NULL)
        return false;
    for (i = 0; i < n; i++) {
        copse_plane *p = s->planes + used;
        uint32_t count = 6;
        if (i > 0 && test_rng_below(rng, 8) == 0) { /* a coincident copy */
            s->brushes[i] = s->brushes[test_rng_below(rng, i)];
            continue;
        }
        if (kind == SET_GRID_BOXES || kind == SET_HUGE) {
            float unit = kind == SET_HUGE ? 1e29f : 1.0f;
            float x = (float)test_rng_below(rng, 12), y = (float)test_rng_below(rng, 12), z = (float)test_rng_below(rng, 4);
            copse_box3 b = copse_box3_make(x * unit, y * unit, z * unit, (x + 1.0f + (float)test_rng_below(rng, 4)) * unit,
                                           (y + 1.0f + (float)test_rng_below(rng, 4)) * unit,
                                           (z + 1.0f + (float)test_rng_below(rng, 2)) * unit);
            (void)copse_brush_from_box(&b, p);
        } else if (kind == SET_POLYGONS) {
            copse_vec2 c[8];
            float cx = test_rng_float(rng, 0.0f, 12.0f), cy = test_rng_float(rng, 0.0f, 12.0f);
            float rad = test_rng_float(rng, 0.5f, 3.0f), z0 = test_rng_float(rng, 0.0f, 3.0f);
            uint32_t k, m = 3u + test_rng_below(rng, 6);
            /* corners on a circle at increasing angles (a small table of cos/sin: no libm) */
            static const float cs[16][2] = {{1, 0},      {0.924f, 0.383f},   {0.707f, 0.707f},   {0.383f, 0.924f},
                                            {0, 1},      {-0.383f, 0.924f},  {-0.707f, 0.707f},  {-0.924f, 0.383f},
                                            {-1, 0},     {-0.924f, -0.383f}, {-0.707f, -0.707f}, {-0.383f, -0.924f},
                                            {0, -1},     {0.383f, -0.924f},  {0.707f, -0.707f},  {0.924f, -0.383f}};
            uint32_t start = test_rng_below(rng, 16);
            for (k = 0; k < m; k++) {
                uint32_t at = (start + (k * 16u) / m) % 16u;
                c[k] = copse_v2(cx + rad * cs[at][0], cy + rad * cs[at][1]);
            }
            if (copse_brush_from_polygon(c, m, z0, z0 + test_rng_float(rng, 0.2f, 2.0f), p, 14, &count) != COPSE_OK)
                return CHECKF(false, "polygon brush refused");
        } else { /* tangent planes of a sphere, then the six faces of its bounds (often redundant) */
            float cx = test_rng_float(rng, 0.0f, 12.0f), cy = test_rng_float(rng, 0.0f, 12.0f),
                  cz = test_rng_float(rng, 0.0f, 4.0f), rad = test_rng_float(rng, 0.5f, 2.0f);
            uint32_t k, m = 4u + test_rng_below(rng, 5);
            copse_box3 b = copse_box3_make(cx - rad * 1.2f, cy - rad * 1.2f, cz - rad * 1.2f, cx + rad * 1.2f,
                                           cy + rad * 1.2f, cz + rad * 1.2f);
            for (k = 0; k < m; k++) {
                copse_vec3 nrm = copse_v3(test_rng_float(rng, -1, 1), test_rng_float(rng, -1, 1), test_rng_float(rng, -1, 1));
                float len2 = nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z, len = 1.0f;
                unsigned it;
                if (len2 < 0.01f)
                    nrm = copse_v3(1, 1, 1), len2 = 3.0f;
                for (it = 0; it < 20; it++)
                    len = 0.5f * (len + len2 / len);
                p[k].normal = nrm; /* not unit: the build normalises */
                p[k].dist = nrm.x * cx + nrm.y * cy + nrm.z * cz + rad * len;
            }
            (void)copse_brush_from_box(&b, p + m);
            count = m + 6u;
        }
        s->brushes[i].planes = p;
        s->brushes[i].plane_count = count;
        used += count;
    }
    return true;
}

/* A query point: anywhere in the scene's bounds grown by 5% on each side; with a grid unit,
 * a third of the coordinates snap to it (on faces and edges of grid boxes). */
static void random_point(const bsp3_battery *bt, test_rng *rng, double *p)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        float lo = bt->lo[k], ext = bt->hi[k] - bt->lo[k];
        float v = lo + ext * test_rng_float(rng, -0.05f, 1.05f);
        if (bt->grid > 0.0f && test_rng_below(rng, 3) == 0)
            v = bt->grid * (float)(int32_t)(v / bt->grid);
        p[k] = (double)v;
    }
}

void bsp3_run_oracle(const copse_bsp3 *t, const copse_brush *brushes, uint32_t n, const bsp3_battery *bt,
                     test_rng *rng, unsigned queries)
{
    oscene o;
    uint32_t i;
    unsigned q, bad_point = 0, bad_ray = 0, bad_normal = 0, bad_sphere = 0, bad_box = 0;
    unsigned solid = 0, ray_hits = 0, normals = 0, sphere_hits = 0, box_hits = 0;
    size_t mark = g_pool_used;
    o.n = n;
    o.b = (obrush *)pool_alloc((n > 0 ? n : 1u) * sizeof(obrush));
    if (o.b == NULL)
        return;
    for (i = 0; i < n; i++)
        oracle_brush(&o.b[i], &brushes[i]);
    o.scale = 1.0;
    for (i = 0; i < 3; i++) {
        double m = bt->lo[i] < 0.0f ? -(double)bt->lo[i] : (double)bt->lo[i];
        o.scale = m > o.scale ? m : o.scale;
        m = bt->hi[i] < 0.0f ? -(double)bt->hi[i] : (double)bt->hi[i];
        o.scale = m > o.scale ? m : o.scale;
    }
    o.scale *= 1.1;
    o.band = o.scale * 2e-5;
    for (q = 0; q < queries; q++) {
        double a[3], b[3], r;
        uint32_t w_in, w_out;
        copse_segment3 s;
        copse_bsp3_trace tr;
        random_point(bt, rng, a);
        random_point(bt, rng, b);
        if (q % 4 == 0) { /* axis-aligned, often along faces */
            b[1] = a[1];
            b[2] = a[2];
        }
        s.a = copse_v3((float)a[0], (float)a[1], (float)a[2]);
        s.b = copse_v3((float)b[0], (float)b[1], (float)b[2]);
        a[0] = (double)s.a.x, a[1] = (double)s.a.y, a[2] = (double)s.a.z;
        b[0] = (double)s.b.x, b[1] = (double)s.b.y, b[2] = (double)s.b.z;
        /* point contents */
        {
            copse_bsp3_where w;
            double shrunk = 1e300, grown = 1e300;
            for (i = 0; i < o.n; i++) {
                double d = outside(&o.b[i], a, 0.0, NULL, 0.0, false);
                shrunk = d + o.band < shrunk ? d + o.band : shrunk;
                grown = d - o.band < grown ? d - o.band : grown;
            }
            CHECK_STATUS(copse_bsp3_contents(t, s.a, &w), COPSE_OK);
            bad_point += w.solid ? grown > 0.0 : shrunk <= 0.0;
            solid += w.solid;
        }
        /* ray: the fraction between the shrunk and grown brushes' answers */
        {
            double t_in = oracle_trace(&o, a, b, 0.0, -o.band, false, &w_in);
            double t_out = oracle_trace(&o, a, b, 0.0, o.band, false, &w_out);
            double len2 = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]);
            double tol = 1e-5;
            CHECK_STATUS(copse_sweep_point_bsp3(&s, t, &tr), COPSE_OK);
            ray_hits += tr.hit;
            if (tr.hit) {
                bad_ray += w_out == COPSE_NONE || (double)tr.t < t_out - tol ||
                           (w_in != COPSE_NONE && (double)tr.t > t_in + tol);
                /* a clean entry through a face: the normal is that face's, facing the start */
                if (!tr.start_solid && w_in != COPSE_NONE && t_in - t_out < 1e-4 && len2 > 0.0) {
                    double nd = (double)tr.normal.x * (b[0] - a[0]) + (double)tr.normal.y * (b[1] - a[1]) +
                                (double)tr.normal.z * (b[2] - a[2]);
                    double n2 = (double)tr.normal.x * (double)tr.normal.x + (double)tr.normal.y * (double)tr.normal.y +
                                (double)tr.normal.z * (double)tr.normal.z;
                    bool on_face = false;
                    double p[3];
                    unsigned k;
                    p[0] = (double)tr.point.x, p[1] = (double)tr.point.y, p[2] = (double)tr.point.z;
                    for (i = 0; i < o.n && !on_face; i++)
                        for (k = 0; k < o.b[i].real && !on_face; k++) {
                            double dn = o.b[i].n[k][0] - (double)tr.normal.x, d2;
                            d2 = dn * dn;
                            dn = o.b[i].n[k][1] - (double)tr.normal.y;
                            d2 += dn * dn;
                            dn = o.b[i].n[k][2] - (double)tr.normal.z;
                            d2 += dn * dn;
                            on_face = d2 < 1e-8 && outside(&o.b[i], p, 0.0, NULL, 4.0 * o.band, false) <= 0.0;
                        }
                    bad_normal += nd > 0.0 || n2 < 0.999 || n2 > 1.001 || !on_face;
                    normals++;
                }
            } else {
                bad_ray += w_in != COPSE_NONE || tr.t != 1.0f;
            }
        }
        /* swept sphere against the expanded planes with bevels */
        {
            float rf = bt->radius * test_rng_float(rng, 0.0f, 1.0f);
            double t_in, t_out;
            r = (double)rf;
            CHECK_STATUS(copse_sweep_sphere_bsp3(&s, rf, t, &tr), COPSE_OK);
            sphere_hits += tr.hit;
            t_in = oracle_trace(&o, a, b, r, -o.band, true, &w_in);
            t_out = oracle_trace(&o, a, b, r, o.band, true, &w_out);
            if (tr.hit)
                bad_sphere += w_out == COPSE_NONE || (double)tr.t < t_out - 1e-5 ||
                              (w_in != COPSE_NONE && (double)tr.t > t_in + 1e-5);
            else
                bad_sphere += w_in != COPSE_NONE;
        }
        /* box overlap */
        {
            double half[3], c[3], shrunk = 1e300, grown = 1e300;
            copse_box3 bx;
            bool hit;
            uint32_t hit_id = COPSE_NONE;
            unsigned k;
            for (k = 0; k < 3; k++) {
                double lo = a[k] < b[k] ? a[k] : b[k], hi = a[k] < b[k] ? b[k] : a[k];
                hi = lo + (hi - lo) * 0.25;
                (&bx.min.x)[k] = (float)lo;
                (&bx.max.x)[k] = (float)hi;
                half[k] = (double)(&bx.max.x)[k] * 0.5 - (double)(&bx.min.x)[k] * 0.5;
                c[k] = (double)(&bx.max.x)[k] * 0.5 + (double)(&bx.min.x)[k] * 0.5;
            }
            for (i = 0; i < o.n; i++) {
                double d = outside(&o.b[i], c, 0.0, half, 0.0, true);
                shrunk = d + o.band < shrunk ? d + o.band : shrunk;
                grown = d - o.band < grown ? d - o.band : grown;
            }
            CHECK_STATUS(copse_bsp3_any_box(t, &bx, &hit_id), COPSE_OK);
            hit = hit_id != COPSE_NONE;
            bad_box += hit ? grown > 0.0 : shrunk <= 0.0;
            /* the witness is a brush the box reaches (within the band) */
            bad_box += hit && (hit_id >= o.n || outside(&o.b[hit_id], c, 0.0, half, 0.0, true) - o.band > 0.0);
            box_hits += hit;
        }
    }
    CHECKF(bad_point + bad_ray + bad_normal + bad_sphere + bad_box == 0,
           "%s n=%u: wrong: %u points, %u rays, %u normals, %u spheres, %u boxes of %u", bt->name, (unsigned)n,
           bad_point, bad_ray, bad_normal, bad_sphere, bad_box, queries);
    /* the battery saw both answers of every family once the scene has a few brushes */
    if (n >= 5 && queries >= 100)
        CHECKF(solid > 0 && solid < queries && ray_hits > 0 && ray_hits < queries && normals > 0 &&
                   sphere_hits > ray_hits / 2u && box_hits > 0 && box_hits < queries,
               "%s n=%u: one-sided battery: %u solid, %u ray hits (%u normals), %u sphere hits, %u box hits",
               bt->name, (unsigned)n, solid, ray_hits, normals, sphere_hits, box_hits);
    if (n == 0)
        CHECK(solid + ray_hits + sphere_hits + box_hits == 0);
    g_pool_used = mark;
}

/* Where a set's queries go: the sets lie in [0, 16] x [0, 16] x [0, 6] (times 1e29 when huge). */
static void set_battery(set_kind kind, bsp3_battery *bt)
{
    const float unit = kind == SET_HUGE ? 1e29f : 1.0f;
    bt->name = k_set_names[kind];
    bt->lo[0] = bt->lo[1] = -1.0f * unit;
    bt->lo[2] = -1.0f * unit;
    bt->hi[0] = bt->hi[1] = 17.0f * unit;
    bt->hi[2] = 7.0f * unit;
    bt->grid = kind == SET_GRID_BOXES || kind == SET_HUGE ? unit : 0.0f;
    bt->radius = 1.5f * unit;
}

bool bsp3_make_set(unsigned kind, uint32_t n, test_rng *rng, const copse_brush **brushes, bsp3_battery *bt)
{
    bset set;
    if (kind >= SET_COUNT || !make_set(&set, (set_kind)kind, n, rng))
        return false;
    *brushes = set.brushes;
    set_battery((set_kind)kind, bt);
    return true;
}

static void test_random(void)
{
    static const uint32_t sizes[] = {0, 1, 2, 3, 5, 8};
    const bool small = test_memory_bytes() < (256u << 10); /* 11 KiB on the micro:bit */
    uint32_t big = small ? 5u : 60u;
    unsigned kind, i, d;
    for (kind = 0; kind < SET_COUNT; kind++) {
        for (i = 0; i <= sizeof sizes / sizeof sizes[0]; i++) {
            for (d = 0; d < 2; d++) {
                uint32_t n = i < sizeof sizes / sizeof sizes[0] && sizes[i] < big ? sizes[i] : big;
                copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
                test_rng rng;
                bset set;
                copse_bsp3 t;
                pool_reset();
                p.max_depth = d == 0 ? COPSE_BSP_MAX_DEPTH : 4u; /* shallow: mixed leaves */
                p.split_weight = d == 0 ? 8u : 0u;
                bsp3_battery bt;
                test_rng_seed(&rng, 500u + 100u * kind + 10u * i + d);
                if (!make_set(&set, (set_kind)kind, n, &rng) || !bsp3_build_exact(&t, set.brushes, n, &p))
                    return;
                CHECK(t.depth <= p.max_depth && (d == 1 || n > 20 || t.mixed_leaves == 0 || kind == SET_TANGENT));
                set_battery((set_kind)kind, &bt);
                bsp3_run_oracle(&t, set.brushes, n, &bt, &rng, small ? 40u : 300u);
            }
        }
    }
}

static void test_checksum(void)
{
    uint32_t h = 2166136261u, i;
    size_t bytes;
    test_rng rng;
    bset set;
    copse_bsp3 t;
    pool_reset();
    test_rng_seed(&rng, 31337);
    if (!make_set(&set, SET_POLYGONS, 6, &rng) || !bsp3_build_exact(&t, set.brushes, set.n, &k_default))
        return;
    bytes = copse_bsp3_bytes(&t);
    for (i = 0; i < bytes; i++)
        h = (h ^ ((const uint8_t *)t.nodes)[i]) * 16777619u;
    CHECK(t.node_count > 6);
    copse_port_printf("info bsp3 checksum polygons n=6: %08x (%u nodes, %u bytes)\n", (unsigned)h,
                      (unsigned)t.node_count, (unsigned)bytes);
}

/* A build into an arena that already holds someone's bytes: the tree lands right after them,
 * the scratch goes back, the tree answers as one built alone; the same input built twice in
 * other buffers gives the same bytes. */
static void test_arena_sharing(void)
{
    test_rng rng;
    bset set;
    copse_bsp3 alone, shared;
    copse_arena arena;
    size_t scratch, exact, bytes;
    uint8_t *buf;
    void *work;
    unsigned q;
    pool_reset();
    test_rng_seed(&rng, 4711);
    /* three brushes on the micro:bit, whose whole RAM holds two trees, the work and the copies */
    if (!make_set(&set, SET_POLYGONS, test_memory_bytes() < (256u << 10) ? 3u : 5u, &rng) ||
        !bsp3_build_exact(&alone, set.brushes, set.n, &k_default))
        return;
    bytes = copse_bsp3_bytes(&alone);
    scratch = copse_bsp3_scratch_bytes(set.brushes, set.n, &k_default);
    work = pool_alloc(scratch);
    if (work == NULL)
        return;
    exact = copse_bsp3_build_bytes(set.brushes, set.n, &k_default, work, scratch);
    buf = (uint8_t *)pool_alloc(24u + exact + 8u);
    if (buf == NULL)
        return;
    memset(buf, 0x77, 24u + exact + 8u);
    copse_arena_init(&arena, buf, 24u + exact);
    CHECK(copse_arena_alloc(&arena, 20) != NULL); /* someone else's 24 bytes */
    CHECK_STATUS(copse_bsp3_build(&shared, &arena, set.brushes, set.n, &k_default), COPSE_OK);
    CHECK_EQ_INT(arena.used, 24u + bytes);
    CHECK_EQ_INT(arena.high_water, 24u + exact);
    CHECK((const uint8_t *)shared.nodes == buf + 24);
    CHECK(buf[0] == 0x77 && buf[23] == 0x77 && buf[24u + exact] == 0x77); /* theirs and past the end */
    CHECK_STATUS(copse_bsp3_check(&shared), COPSE_OK);
    CHECK(memcmp(shared.nodes, alone.nodes, bytes) == 0); /* same input, same bytes */
    for (q = 0; q < 50; q++) {
        copse_segment3 s;
        copse_bsp3_trace a, b;
        s.a = copse_v3(test_rng_float(&rng, -2, 14), test_rng_float(&rng, -2, 14), test_rng_float(&rng, -1, 6));
        s.b = copse_v3(test_rng_float(&rng, -2, 14), test_rng_float(&rng, -2, 14), test_rng_float(&rng, -1, 6));
        CHECK_STATUS(copse_sweep_sphere_bsp3(&s, 0.3f, &alone, &a), COPSE_OK);
        CHECK_STATUS(copse_sweep_sphere_bsp3(&s, 0.3f, &shared, &b), COPSE_OK);
        CHECK(a.hit == b.hit && a.t == b.t && a.id == b.id);
    }
    /* a second tree after the first, 8 bytes short: NOMEM with more than the arena holds (the count
     * stops when the tree outgrows it), first tree intact */
    copse_arena_init(&arena, buf, 24u + exact);
    arena.used = 24u + bytes;
    {
        copse_bsp3 second;
        uint8_t *again = (uint8_t *)pool_alloc(24u + bytes + exact - 8u);
        if (again == NULL)
            return;
        memcpy(again, buf, 24u + bytes);
        copse_arena_init(&arena, again, 24u + bytes + exact - 8u);
        arena.used = 24u + bytes;
        CHECK_STATUS(copse_bsp3_build(&second, &arena, set.brushes, set.n, &k_default), COPSE_ERR_NOMEM);
        CHECK(arena.needed > 24u + bytes + exact - 8u && arena.needed <= 24u + bytes + exact); /* a lower bound */
        CHECK_EQ_INT(arena.used, 24u + bytes);
        CHECK(memcmp(again + 24, alone.nodes, bytes) == 0);
    }
}

/* Thin brushes: within a millionth of their scale of flat, a brush has no volume the build can
 * rely on (DEGENERATE); a thousandth is fine and traced like any other. */
static void test_thin(void)
{
    copse_plane p[6];
    copse_brush b;
    copse_bsp3 t;
    copse_arena arena;
    copse_box3 thin = copse_box3_make(0.0f, 0.0f, 1.0f, 10.0f, 10.0f, 1.0f + 1e-7f * 10.0f);
    copse_segment3 s;
    copse_bsp3_trace tr;
    void *mem;
    pool_reset();
    mem = pool_alloc(4096);
    if (mem == NULL)
        return;
    b.planes = p;
    b.plane_count = 6;
    CHECK_STATUS(copse_brush_from_box(&thin, p), COPSE_OK);
    copse_arena_init(&arena, mem, 4096);
    CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, &k_default), COPSE_ERR_DEGENERATE);
    thin.max.z = 1.01f;
    CHECK_STATUS(copse_brush_from_box(&thin, p), COPSE_OK);
    CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, &k_default), COPSE_OK);
    s.a = copse_v3(5, 5, 3);
    s.b = copse_v3(5, 5, -1);
    CHECK_STATUS(copse_sweep_point_bsp3(&s, &t, &tr), COPSE_OK);
    CHECK(tr.hit && tr.normal.z == 1.0f && tr.point.z > 1.0099f && tr.point.z < 1.0101f);
}

static void test_guard(void)
{
    enum { GUARD = 32 };
    static const uint32_t counts[] = {0, 1, 2, 3};
    unsigned c;
    for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        size_t scratch, exact, fixed, k, bad = 0;
        uint8_t *region;
        test_rng rng;
        bset set;
        pool_reset();
        test_rng_seed(&rng, 900u + c);
        if (!make_set(&set, SET_GRID_BOXES, counts[c], &rng))
            return;
        scratch = copse_bsp3_scratch_bytes(set.brushes, set.n, &k_default);
        region = (uint8_t *)pool_alloc(scratch);
        if (region == NULL)
            return;
        exact = copse_bsp3_build_bytes(set.brushes, set.n, &k_default, region, scratch);
        CHECK(copse_bsp3_build_bytes(set.brushes, set.n, &k_default, region, scratch - (scratch > 0)) ==
              (scratch > 0 ? (size_t)-1 : exact));
        region = (uint8_t *)pool_alloc(exact + GUARD);
        if (region == NULL)
            return;
        { /* the tree's planes, sides and brushes: counted before any node */
            copse_arena arena;
            copse_bsp3 t;
            copse_arena_init(&arena, region, exact);
            if (!CHECK(copse_bsp3_build(&t, &arena, set.brushes, set.n, &k_default) == COPSE_OK))
                return;
            fixed = scratch + COPSE_ARENA_ROUND(16u * t.plane_count) + COPSE_ARENA_ROUND(4u * t.side_count) +
                    COPSE_ARENA_ROUND(8u * t.brush_count);
        }
        for (k = 0; k <= exact; k++) {
            copse_arena arena;
            copse_bsp3 t;
            copse_status st;
            size_t i;
            memset(region, 0xA5, exact + GUARD);
            memset(&t, 0x5A, sizeof t);
            copse_arena_init(&arena, region, k);
            st = copse_bsp3_build(&t, &arena, set.brushes, set.n, &k_default);
            for (i = k; i < exact + GUARD; i++)
                bad += region[i] != 0xA5;
            if (k < exact)
                bad += st != COPSE_ERR_NOMEM || arena.used != 0 || t.node_count != 0 || t.nodes != NULL ||
                       arena.needed <= k || arena.needed > exact || /* a lower bound: the count stops */
                       (k >= scratch && arena.needed > (k < fixed ? fixed : k + 32u + 4u * counts[c])); /* at once */
            else
                bad += st != COPSE_OK || arena.used != copse_bsp3_bytes(&t) || copse_bsp3_check(&t) != COPSE_OK;
        }
        CHECKF(bad == 0, "n=%u: %lu problems over %lu sizes", (unsigned)counts[c], (unsigned long)bad,
               (unsigned long)exact + 1u);
    }
}

static void test_bad_input(void)
{
    uint64_t *mem;
    const size_t mem_bytes = 4096;
    copse_plane p[32];
    copse_brush b;
    copse_bsp3_params prm = COPSE_BSP3_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bsp3 t;
    copse_box3 box = copse_box3_make(0, 0, 0, 1, 1, 1);
    const float inf = 1.0f / 0.0f;
    unsigned i;
    copse_bsp3_trace tr;
    copse_segment3 s;
    bool hit = true;
    uint32_t hit_id = 0u;
    pool_reset();
    mem = (uint64_t *)pool_alloc(mem_bytes); /* not static: the micro:bit's RAM is the pool */
    if (mem == NULL)
        return;
    b.planes = p;
    copse_arena_init(&arena, mem, mem_bytes);
#define REFUSED(expected)                                                                   \
    do {                                                                                    \
        memset(&t, 0x5A, sizeof t);                                                         \
        CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, &prm), expected);                  \
        CHECK(t.node_count == 0 && t.nodes == NULL && t.leaf_count == 0 && arena.used == 0); \
        CHECK(copse_bsp3_scratch_bytes(&b, 1, &prm) == (size_t)-1 ||                        \
              copse_bsp3_build_bytes(&b, 1, &prm, mem, mem_bytes) == (size_t)-1);          \
    } while (0)
    (void)copse_brush_from_box(&box, p);
    b.plane_count = 5; /* an open box */
    REFUSED(COPSE_ERR_UNBOUNDED);
    b.plane_count = 3;
    REFUSED(COPSE_ERR_UNBOUNDED);
    b.plane_count = 6;
    p[1].dist = -0.5f; /* x <= -0.5 and x >= 0: empty */
    REFUSED(COPSE_ERR_DEGENERATE);
    p[1].dist = 0.0f; /* x <= 0 and x >= 0: flat */
    REFUSED(COPSE_ERR_DEGENERATE);
    p[1].dist = 1.0f;
    p[2].normal = copse_v3(0, 0, 0);
    REFUSED(COPSE_ERR_PARAM);
    p[2].normal = copse_v3(0, -1, 0);
    p[3].dist = inf;
    REFUSED(COPSE_ERR_NONFINITE);
    p[3].dist = 1.0f;
    for (i = 6; i < 32; i++)
        p[i] = p[i % 6u]; /* repeated planes are fine, too many are not */
    b.plane_count = COPSE_BSP3_MAX_SIDES;
    CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, &prm), COPSE_OK);
    arena.used = 0;
    b.plane_count = COPSE_BSP3_MAX_SIDES + 1u;
    REFUSED(COPSE_ERR_TOO_LARGE);
    b.plane_count = 6;
    prm.max_depth = 0;
    REFUSED(COPSE_ERR_PARAM);
    prm.max_depth = COPSE_BSP_MAX_DEPTH + 1u;
    REFUSED(COPSE_ERR_PARAM);
    prm.max_depth = 8;
    prm.split_weight = 1001;
    REFUSED(COPSE_ERR_PARAM);
    prm.split_weight = 8;
    b.planes = NULL;
    REFUSED(COPSE_ERR_NULL);
    b.planes = p;
    CHECK_STATUS(copse_bsp3_build(&t, &arena, NULL, 1, &prm), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_build(&t, NULL, &b, 1, &prm), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_build(NULL, &arena, &b, 1, &prm), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, NULL), COPSE_ERR_NULL);
#undef REFUSED
    /* queries on the refused (empty) tree, and bad queries on a good one */
    s.a = copse_v3(-1, 0.5f, 0.5f);
    s.b = copse_v3(2, 0.5f, 0.5f);
    CHECK_STATUS(copse_sweep_point_bsp3(&s, &t, &tr), COPSE_OK);
    CHECK(!tr.hit);
    CHECK_STATUS(copse_bsp3_build(&t, &arena, &b, 1, &prm), COPSE_OK);
    CHECK_STATUS(copse_sweep_point_bsp3(&s, &t, &tr), COPSE_OK);
    CHECK(tr.hit && tr.t * 3.0f > 0.99f && tr.t * 3.0f < 1.01f && tr.normal.x == -1.0f);
    CHECK_STATUS(copse_sweep_sphere_bsp3(&s, -1.0f, &t, &tr), COPSE_ERR_EMPTY_RANGE);
    CHECK(!tr.hit);
    CHECK_STATUS(copse_sweep_sphere_bsp3(&s, inf, &t, &tr), COPSE_ERR_NONFINITE);
    s.b.x = inf;
    CHECK_STATUS(copse_sweep_point_bsp3(&s, &t, &tr), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_sweep_point_bsp3(&s, NULL, &tr), COPSE_ERR_NULL);
    box.max.x = -1.0f;
    CHECK_STATUS(copse_bsp3_any_box(&t, &box, &hit_id), COPSE_ERR_EMPTY_RANGE);
    hit = hit_id != COPSE_NONE;
    CHECK(!hit);
    {
        copse_bsp3 bad = t;
        copse_bsp3_node nodes[8];
        memcpy(nodes, t.nodes, t.node_count * sizeof nodes[0]);
        bad.nodes = nodes;
        nodes[1].plane = t.plane_count;
        CHECK_STATUS(copse_bsp3_check(&bad), COPSE_ERR_INDEX);
        nodes[1] = t.nodes[1];
        nodes[2].child[1] = 1; /* a cycle */
        CHECK_STATUS(copse_bsp3_check(&bad), COPSE_ERR_INDEX);
    }
}

/* ---- the brush preparation in float --------------------------------------------------------------- */

static float bf_times_pow2(float x, int k)
{
    for (; k > 0; k--)
        x *= 2.0f;
    for (; k < 0; k++)
        x *= 0.5f;
    return x;
}

static bool bf_normal_or_zero(float x)
{
    const float a = x < 0.0f ? -x : x;
    return x == 0.0f || (a >= 0x1p-126f && a <= 0x1p126f);
}

/* |got - want| within one float ulp of want (want in double) */
static bool bf_within_ulp(float got, double want)
{
    double a = want < 0.0 ? -want : want, d = (double)got - want;
    return (d < 0.0 ? -d : d) <= a * 0x1p-23 + 0x1p-149;
}

/* Unit planes within an ulp of double and the same bytes at any power-of-two scale; corners of
 * brushes with rotated and nearly parallel planes on their planes and the same bytes when the
 * brush is scaled by 2^30, 2^70 and 2^100; polygons far from the origin judged exactly. */
static void test_brush_float(void)
{
    static const int scales[] = {-100, -60, -20, 30, 70, 100};
    test_rng rng;
    unsigned it, s, k, bad_unit = 0, bad_scale = 0, bad_corner = 0, built = 0;
    test_rng_seed(&rng, 1212u);
    for (it = 0; it < 300u; it++) {
        copse_plane in, out, o2;
        double n[3], len2, len;
        in.normal = copse_v3(test_rng_float(&rng, -1, 1), test_rng_float(&rng, -1, 1),
                             it % 3u == 0u ? 0.0f : test_rng_float(&rng, -1, 1));
        in.dist = test_rng_float(&rng, -100, 100);
        if (in.normal.x == 0.0f && in.normal.y == 0.0f && in.normal.z == 0.0f)
            continue;
        copse_bsp3_unit_plane(&in, &out);
        n[0] = (double)in.normal.x;
        n[1] = (double)in.normal.y;
        n[2] = (double)in.normal.z;
        len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        for (len = 1.0, k = 0; k < 80u; k++) /* Newton: no libm */
            len = 0.5 * (len + len2 / len);
        bad_unit += !bf_within_ulp(out.normal.x, n[0] / len) + !bf_within_ulp(out.normal.y, n[1] / len) +
                    !bf_within_ulp(out.normal.z, n[2] / len) + !bf_within_ulp(out.dist, (double)in.dist / len);
        for (s = 0; s < sizeof scales / sizeof scales[0]; s++) {
            copse_plane sc;
            sc.normal = copse_v3(bf_times_pow2(in.normal.x, scales[s]), bf_times_pow2(in.normal.y, scales[s]),
                                 bf_times_pow2(in.normal.z, scales[s]));
            sc.dist = bf_times_pow2(in.dist, 2 * scales[s] > 0 ? scales[s] / 2 : -scales[s] / 2);
            if (!bf_normal_or_zero(sc.normal.x) || !bf_normal_or_zero(sc.normal.y) || !bf_normal_or_zero(sc.normal.z))
                continue;
            copse_bsp3_unit_plane(&sc, &o2);
            /* the normal's scale divides out; the distance's stays */
            bad_scale += o2.normal.x != out.normal.x || o2.normal.y != out.normal.y || o2.normal.z != out.normal.z;
            if (bf_normal_or_zero(out.dist) && bf_normal_or_zero(o2.dist))
                bad_scale += o2.dist != bf_times_pow2(bf_times_pow2(out.dist, -scales[s]),
                                                      2 * scales[s] > 0 ? scales[s] / 2 : -scales[s] / 2);
        }
    }
    CHECKF(bad_unit == 0, "%u unit-plane values more than an ulp from double", bad_unit);
    CHECKF(bad_scale == 0, "%u unit planes not the same bytes at another power-of-two scale", bad_scale);
    for (it = 0; it < 60u; it++) {
        enum { NP = 10 };
        copse_plane raw[NP], unit[NP], big[NP];
        float v0[3 * BSP3_CORNERS(NP)], v1[3 * BSP3_CORNERS(NP)], tol0, tol1;
        uint32_t n0, n1, i, j, np = 4u + test_rng_below(&rng, NP - 3u);
        copse_status st0, st1;
        for (i = 0; i < np; i++) {
            if (i > 0 && it % 2u == 1u && i % 3u == 0u) /* nearly parallel to the one before */
                raw[i].normal = copse_v3(raw[i - 1u].normal.x + 1e-4f, raw[i - 1u].normal.y,
                                         raw[i - 1u].normal.z - 1e-4f);
            else /* integer normals: the rotated planes of hand-made brushes */
                raw[i].normal = copse_v3((float)((int)test_rng_below(&rng, 7u) - 3),
                                         (float)((int)test_rng_below(&rng, 7u) - 3),
                                         (float)((int)test_rng_below(&rng, 7u) - 3));
            if (raw[i].normal.x == 0.0f && raw[i].normal.y == 0.0f && raw[i].normal.z == 0.0f)
                raw[i].normal.z = 1.0f;
            raw[i].dist = (float)(18 + (int)test_rng_below(&rng, 27u)) / 3.0f; /* over |n| >= 1: the tolerance scales */
            copse_bsp3_unit_plane(&raw[i], &unit[i]);
        }
        st0 = copse_bsp3_corners(unit, np, v0, BSP3_CORNERS(np), &n0, &tol0);
        if (st0 == COPSE_OK) {
            built++;
            for (j = 0; j < n0; j++) {
                unsigned on = 0;
                for (i = 0; i < np; i++) {
                    const double d = (double)unit[i].normal.x * (double)v0[3u * j] +
                                     (double)unit[i].normal.y * (double)v0[3u * j + 1u] +
                                     (double)unit[i].normal.z * (double)v0[3u * j + 2u] - (double)unit[i].dist;
                    bad_corner += d > 2.0 * (double)tol0;
                    on += d > -2.0 * (double)tol0;
                }
                bad_corner += on < 3u;
            }
        }
        for (s = 3; s < sizeof scales / sizeof scales[0]; s++) {
            for (i = 0; i < np; i++) {
                big[i] = unit[i];
                big[i].dist = bf_times_pow2(unit[i].dist, scales[s]);
            }
            st1 = copse_bsp3_corners(big, np, v1, BSP3_CORNERS(np), &n1, &tol1);
            bad_scale += st1 != st0 || n1 != n0;
            if (st1 == st0 && n1 == n0 && st0 == COPSE_OK) {
                bad_scale += tol1 != bf_times_pow2(tol0, scales[s]);
                for (j = 0; j < 3u * n0; j++)
                    bad_scale += v1[j] != bf_times_pow2(v0[j], scales[s]) && bf_normal_or_zero(v0[j]);
            }
        }
    }
    CHECK(built > 10u);
    CHECKF(bad_corner == 0, "%u corners off their planes", bad_corner);
    CHECKF(bad_scale == 0, "%u corner sets not the same bytes at another power-of-two scale", bad_scale);
    { /* a square 1e18 from the origin, exactly collinear corners there, and one nudged by an ulp */
        const float far = 1e18f, side = 1e12f;
        copse_vec2 sq[4] = {{far, far}, {far + side, far}, {far + side, far + side}, {far, far + side}};
        copse_vec2 line[3] = {{far, far}, {2.0f * far, 2.0f * far}, {4.0f * far, 4.0f * far}};
        copse_plane p[8];
        uint32_t np = 0;
        CHECK_STATUS(copse_brush_from_polygon(sq, 4, 0.0f, 1.0f, p, 8, &np), COPSE_OK);
        CHECK_STATUS(copse_brush_from_polygon(line, 3, 0.0f, 1.0f, p, 8, &np), COPSE_ERR_DEGENERATE);
        line[1].y = 0x1.000002p+0f * line[1].y; /* an ulp off the line: a thin triangle */
        CHECK_STATUS(copse_brush_from_polygon(line, 3, 0.0f, 1.0f, p, 8, &np), COPSE_OK);
    }
}

void suite_bsp3(void)
{
    test_run("bsp3/hand_trees", test_hand_trees);
    test_run("bsp3/helpers", test_helpers);
    test_run("bsp3/random_vs_brute_force", test_random);
    test_run("bsp3/checksum", test_checksum);
    test_run("bsp3/arena_sharing", test_arena_sharing);
    test_run("bsp3/thin", test_thin);
    test_run("bsp3/guard", test_guard);
    test_run("bsp3/bad_input", test_bad_input);
    test_run("bsp3/brush_float", test_brush_float);
}

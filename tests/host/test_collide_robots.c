/* SPDX-License-Identifier: MIT */
/*
 * The collision queries on real robots (host only; copse/collide.h against the double-precision
 * oracles oracle/oracle_collide.h and oracle/oracle_points.h, brute force over every primitive):
 *
 *   - links: every collision mesh of the Franka Panda (link0..link7, hand, finger; OBJ) and the
 *     KUKA iiwa (link_0..link_7; binary STL) against every other link of both robots, posed so a
 *     random point of one's surface lies near a random point of the other's (facing, tilted or
 *     at any rotation; touching, a hair apart, interpenetrating, or centimetres apart):
 *     copse_bvh_any_bvh, _overlap_bvh, _visit_bvh (pair sets and separation) and
 *     copse_distance_bvh_bvh (distance, both triangles, both points, normal, cut-offs);
 *   - obstacles: the links against the shared meshes placed as obstacles (suzanne, teapot and spot
 *     scaled to tens of centimetres, the dungeon scaled to rooms of a few metres), mesh against
 *     mesh and with the link's bounding sphere, capsule (along its longest axis) and box:
 *     copse_bvh_any_ / _overlap_ / _visit_ / copse_distance_{sphere,capsule,obb}_bvh;
 *   - scan: the links against the OctoMap corridor scan (88,206 points, metres) in a point octree,
 *     placed at random scan points: copse_distance_bvh_octree, copse_octree_overlap_bvh /
 *     _visit_bvh, copse_distance_{sphere,capsule,obb}_octree, copse_octree_any_* and
 *     copse_octree_overlap_obb;
 *   - self: each link against itself at the identity (every triangle touches itself and every
 *     triangle it shares a corner with) and each KUKA link against a copy moved by a hair;
 *   - corner orders: needles, slivers and ordinary triangles of every link, in all six orders of
 *     their corners, as query triangles (copse_distance_triangle_bvh, any, overlap) and as
 *     one-triangle trees (sphere, capsule, box, triangle, mesh both ways): bit-identical answers;
 *     the one exception docs/collide.md makes is a sphere's or capsule's core on the triangle,
 *     pushed out along the face normal on the winding's side, which a reflection turns around.
 *
 * The brute force prunes with boxes only (a pair of triangles whose boxes are more than the band
 * apart is apart; the nearest pair lies within the distance of a pair the oracle measured
 * itself), sorted by their lowest x; collide_robots/oracle checks the pruning against the
 * unpruned oracle functions.
 *
 * Rules as in test_collide_bvh.c and test_collide_pair.c: sets are the oracle's, except members
 * within the boundary band BAND_K * FLT_EPSILON * M (counted with the kit's tally, per query;
 * queries placed touching on purpose count as built on a boundary); distances agree within
 * DIST_K * FLT_EPSILON * M, M being the largest coordinate magnitude involved (on the scan: the
 * posed link's, its shapes' and the anchor point's, not the whole corridor's).
 *
 * Sizes (a 2-core host: about 21 s at gcc -O2, about 60 s under ASan+UBSan): 4 poses for each
 * ordered pair of different links (1,224), 5 per link and obstacle (360, each with 3 shapes), 360
 * on the scan (each with 3 shapes), 36 self poses and 24 moved copies, 144 triangles in 6 orders.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copse/collide.h"
#include "mesh_load.h"
#include "oracle/oracle_collide.h"
#include "oracle/oracle_points.h"
#include "suites.h"
#include "test_octree.h"

#define DIST_K 64.0      /* distances: this many FLT_EPSILON of the largest magnitude involved */
#define BAND_K 8.0       /* triangle sets: the boundary band, likewise */
#define SCAN_BAND_K 32.0 /* point sets (as test_collide_octree.c) */

#define POSES_PER_LINK_PAIR 4u
#define POSES_PER_OBSTACLE 5u
#define SCAN_POSES 360u
#define MOVED_POSES 3u
#define ORDER_SAMPLES 8u

#define PI 3.14159265358979323846

/* ---- the data ------------------------------------------------------------------------------- */

#define N_LINKS 18u
#define N_OBST 4u

static const char *const k_link_files[N_LINKS] = {
    "robots/panda/meshes/collision/link0.obj", "robots/panda/meshes/collision/link1.obj",
    "robots/panda/meshes/collision/link2.obj", "robots/panda/meshes/collision/link3.obj",
    "robots/panda/meshes/collision/link4.obj", "robots/panda/meshes/collision/link5.obj",
    "robots/panda/meshes/collision/link6.obj", "robots/panda/meshes/collision/link7.obj",
    "robots/panda/meshes/collision/hand.obj",  "robots/panda/meshes/collision/finger.obj",
    "robots/kuka_iiwa/meshes/link_0.stl",      "robots/kuka_iiwa/meshes/link_1.stl",
    "robots/kuka_iiwa/meshes/link_2.stl",      "robots/kuka_iiwa/meshes/link_3.stl",
    "robots/kuka_iiwa/meshes/link_4.stl",      "robots/kuka_iiwa/meshes/link_5.stl",
    "robots/kuka_iiwa/meshes/link_6.stl",      "robots/kuka_iiwa/meshes/link_7.stl"};
static const char *const k_link_names[N_LINKS] = {
    "panda link0", "panda link1", "panda link2", "panda link3", "panda link4", "panda link5",
    "panda link6", "panda link7", "panda hand",  "panda finger", "kuka link_0", "kuka link_1",
    "kuka link_2", "kuka link_3", "kuka link_4", "kuka link_5", "kuka link_6", "kuka link_7"};
#define FIRST_KUKA 10u

/* Obstacles: scaled (in float) to tens of centimetres, the dungeon to rooms of a few metres. */
static const char *const k_obst_files[N_OBST] = {"meshes/suzanne.obj", "meshes/teapot.obj", "meshes/spot.obj",
                                                 "meshes/dungeon.obj"};
static const char *const k_obst_names[N_OBST] = {"suzanne", "teapot", "spot", "dungeon"};
static const float k_obst_scale[N_OBST] = {0.1f, 0.05f, 0.15f, 0.08f};

#define SCAN_FILE "pointclouds/octomap-scan.xyz"
#define SCAN_MAX 200000u

/* Triangles in double with their boxes, sorted by the boxes' lowest x: the brute force's prune. */
typedef struct tset {
    uint32_t n;
    double (*v)[3][3];
    double (*box)[6]; /* lo x y z, hi x y z */
    uint32_t *order;  /* by box lo x (NULL: not sorted) */
    double *lox;      /* box lo x, in that order */
    double maxw;      /* the widest box along x */
    double bounds[6];
    double mag; /* the largest |coordinate| */
} tset;

typedef struct body {
    const char *name;
    host_mesh hm;
    copse_mesh mesh;
    copse_bvh bvh[2]; /* SAH leaf 4; median leaf 1 */
    void *tree_mem[2];
    tset ts;     /* own frame */
    double *cum; /* cumulative triangle areas */
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    double local_mag; /* the largest magnitude among its floats and its shapes' */
    bool loaded;
} body;

static body g_links[N_LINKS], g_obst[N_OBST];
static copse_vec3 *g_scan;
static uint32_t g_scan_n;
static char g_data[512];
static bool g_tried, g_ok;

/* ---- run records -------------------------------------------------------------------------------- */

enum { FAM_LINKS, FAM_OBST, FAM_SCAN, FAM_SELF, FAM_ORDER, FAMS };
static const char *const k_fam_names[FAMS] = {"links", "obstacles", "scan", "self", "corner orders"};

/* worst distance errors, in FLT_EPSILON * M */
enum { W_PAIR, W_SPHERE, W_CAPSULE, W_OBB, W_TRIANGLE, W_SCAN_MESH, W_SCAN_SPHERE, W_SCAN_CAPSULE, W_SCAN_OBB, WS };
static const char *const k_w_names[WS] = {"mesh-mesh", "sphere",      "capsule",      "obb",     "triangle",
                                          "scan-mesh", "scan-sphere", "scan-capsule", "scan-obb"};
static double g_worst[WS];
static unsigned long g_wcount[WS];

typedef struct fam_stats {
    unsigned long poses, touching, comparisons, excused, edge_excused, pairs, points, bitwise;
} fam_stats;
static fam_stats g_fam[FAMS];
static unsigned g_cur_fam, g_described, g_query;
static double g_worst_cond;

static void note(unsigned slot, double err, double M)
{
    double k = err / (ORC_FLT_EPS * M);
    if (k > g_worst[slot])
        g_worst[slot] = k;
    g_wcount[slot]++;
}

/* one comparison: a query's answer (any, a set) judged against one oracle answer */
static void tally(bool excused, bool edge)
{
    tk_tally_now.comparisons++;
    g_fam[g_cur_fam].comparisons++;
    if (excused && edge) {
        tk_tally_now.edge_excused++;
        g_fam[g_cur_fam].edge_excused++;
    } else if (excused) {
        tk_tally_now.excused++;
        g_fam[g_cur_fam].excused++;
    }
}

/* ---- small helpers ------------------------------------------------------------------------------ */

static double dmx(double a, double b)
{
    return a > b ? a : b;
}

static double dab(double a)
{
    return a < 0.0 ? -a : a;
}

static double urand(test_rng *rng)
{
    return (double)test_rng_u32(rng) * (1.0 / 4294967296.0);
}

static double urange(test_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * urand(rng);
}

static void vd(double *out, copse_vec3 v)
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

static copse_vec3 vf(const double *p)
{
    return copse_v3((float)p[0], (float)p[1], (float)p[2]);
}

static bool same_v(copse_vec3 a, copse_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

static double len_v(copse_vec3 v)
{
    double d[3];
    vd(d, v);
    return orc_len(d);
}

static void random_unit(test_rng *rng, double *u)
{
    double l;
    int k;
    do {
        for (k = 0; k < 3; k++)
            u[k] = urange(rng, -1.0, 1.0);
        l = orc_len(u);
    } while (l < 0.1 || l > 1.0);
    for (k = 0; k < 3; k++)
        u[k] /= l;
}

static void unit_normal(const double (*v)[3], double *n)
{
    double e1[3], e2[3], l;
    int k;
    orc_sub(e1, v[1], v[0]);
    orc_sub(e2, v[2], v[0]);
    orc_cross(n, e1, e2);
    l = orc_len(n);
    for (k = 0; k < 3; k++)
        n[k] = l > 0.0 ? n[k] / l : (k == 2 ? 1.0 : 0.0);
}

static bool same_distance(const copse_distance *a, const copse_distance *b)
{
    return a->distance == b->distance && a->depth == b->depth && a->tree_id == b->tree_id &&
           a->shape_id == b->shape_id && same_v(a->tree_point, b->tree_point) &&
           same_v(a->shape_point, b->shape_point) && same_v(a->normal, b->normal);
}

static void print_distance(const char *what, const copse_distance *d)
{
    copse_port_printf("    %s: distance %.9g depth %.9g ids %u %u\n", what, (double)d->distance, (double)d->depth,
                      (unsigned)d->tree_id, (unsigned)d->shape_id);
    copse_port_printf("      tree_point (%.9g, %.9g, %.9g) shape_point (%.9g, %.9g, %.9g)\n", (double)d->tree_point.x,
                      (double)d->tree_point.y, (double)d->tree_point.z, (double)d->shape_point.x,
                      (double)d->shape_point.y, (double)d->shape_point.z);
    copse_port_printf("      normal (%.9g, %.9g, %.9g)\n", (double)d->normal.x, (double)d->normal.y, (double)d->normal.z);
    {
        const float f[11] = {d->distance, d->depth, d->tree_point.x, d->tree_point.y, d->tree_point.z,
                             d->shape_point.x, d->shape_point.y, d->shape_point.z, d->normal.x, d->normal.y,
                             d->normal.z};
        unsigned i;
        copse_port_printf("      bits");
        for (i = 0; i < 11u; i++) {
            uint32_t u;
            memcpy(&u, &f[i], 4);
            copse_port_printf(" %08lx", (unsigned long)u);
        }
        copse_port_printf("\n");
    }
}

static bool is_none(const copse_distance *d)
{
    return d->distance == FLT_MAX && d->tree_id == COPSE_NONE && d->shape_id == COPSE_NONE;
}

/* ---- triangle sets ------------------------------------------------------------------------------ */

static void *grab(size_t bytes, bool persistent)
{
    void *p;
    if (!persistent)
        return tk_alloc(bytes);
    p = malloc(bytes);
    CHECKF(p != NULL, "out of memory (%lu bytes)", (unsigned long)bytes);
    return p;
}

typedef struct keyed {
    double x;
    uint32_t i;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *p = (const keyed *)a, *q = (const keyed *)b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->i < q->i ? -1 : (p->i > q->i ? 1 : 0);
}

/* The mesh's triangles placed by `pose` (NULL: as they are), boxes and, when `sorted`, their order. */
static bool tset_make(tset *ts, const copse_mesh *m, const orcc_pose *pose, bool sorted, bool persistent)
{
    const uint32_t n = m->triangle_count;
    uint32_t t;
    unsigned k, c;
    memset(ts, 0, sizeof *ts);
    ts->n = n;
    ts->v = (double(*)[3][3])grab(sizeof(double[3][3]) * (n + 1u), persistent);
    ts->box = (double(*)[6])grab(sizeof(double[6]) * (n + 1u), persistent);
    if (ts->v == NULL || ts->box == NULL)
        return false;
    for (k = 0; k < 3; k++) {
        ts->bounds[k] = HUGE_VAL;
        ts->bounds[3 + k] = -HUGE_VAL;
    }
    for (t = 0; t < n; t++) {
        double *b = ts->box[t];
        if (pose != NULL)
            orcc_mesh_triangle_posed(m, t, pose, ts->v[t]);
        else
            orcc_mesh_triangle(m, t, ts->v[t]);
        for (k = 0; k < 3; k++) {
            b[k] = b[3 + k] = ts->v[t][0][k];
            for (c = 1; c < 3; c++) {
                b[k] = ts->v[t][c][k] < b[k] ? ts->v[t][c][k] : b[k];
                b[3 + k] = ts->v[t][c][k] > b[3 + k] ? ts->v[t][c][k] : b[3 + k];
            }
            ts->bounds[k] = b[k] < ts->bounds[k] ? b[k] : ts->bounds[k];
            ts->bounds[3 + k] = b[3 + k] > ts->bounds[3 + k] ? b[3 + k] : ts->bounds[3 + k];
            ts->mag = dmx(ts->mag, dmx(dab(b[k]), dab(b[3 + k])));
        }
        ts->maxw = dmx(ts->maxw, b[3] - b[0]);
    }
    if (sorted) {
        keyed *tmp = (keyed *)malloc(sizeof(keyed) * (n + 1u));
        ts->order = (uint32_t *)grab(sizeof(uint32_t) * (n + 1u), persistent);
        ts->lox = (double *)grab(sizeof(double) * (n + 1u), persistent);
        if (!CHECK(tmp != NULL) || ts->order == NULL || ts->lox == NULL) {
            free(tmp);
            return false;
        }
        for (t = 0; t < n; t++) {
            tmp[t].x = ts->box[t][0];
            tmp[t].i = t;
        }
        qsort(tmp, n, sizeof *tmp, keyed_cmp);
        for (t = 0; t < n; t++) {
            ts->order[t] = tmp[t].i;
            ts->lox[t] = tmp[t].x;
        }
        free(tmp);
    }
    return true;
}

static void tset_free(tset *ts)
{
    free(ts->v);
    free(ts->box);
    free(ts->order);
    free(ts->lox);
    memset(ts, 0, sizeof *ts);
}

/* The gap between two boxes (lo xyz, hi xyz): a lower bound of the distance between their contents. */
static double box_gap(const double *a, const double *b)
{
    double g = 0.0;
    int k;
    for (k = 0; k < 3; k++) {
        g = dmx(g, a[k] - b[3 + k]);
        g = dmx(g, b[k] - a[3 + k]);
    }
    return g;
}

/* The first position in ts's order whose box may reach down to x. */
static uint32_t tset_first(const tset *ts, double x)
{
    uint32_t lo = 0, hi = ts->n;
    x -= ts->maxw;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (ts->lox[mid] < x)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

static void point_box(const double *p, double *box)
{
    int k;
    for (k = 0; k < 3; k++)
        box[k] = box[3 + k] = p[k];
}

/* The distance from p to the nearest triangle of ts within `limit` (HUGE_VAL: none), its id. */
static double tset_point(const tset *ts, const double *p, double limit, uint32_t *id)
{
    double best = HUGE_VAL, pb[6], c[3];
    uint32_t q;
    *id = COPSE_NONE;
    point_box(p, pb);
    if (box_gap(pb, ts->bounds) > limit)
        return best;
    for (q = tset_first(ts, p[0] - limit); q < ts->n && ts->lox[q] <= p[0] + limit; q++) {
        uint32_t t = ts->order[q];
        double d, lim = best < limit ? best : limit;
        if (box_gap(pb, ts->box[t]) > lim)
            continue;
        d = orc_closest_triangle(p, ts->v[t][0], ts->v[t][1], ts->v[t][2], c);
        if (d <= limit && (d < best || (d == best && t < *id))) {
            best = d;
            *id = t;
        }
    }
    return best;
}

/* ---- loading ------------------------------------------------------------------------------------ */

static bool body_tree(body *b, unsigned k)
{
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    size_t bytes;
    tk_scene sc;
    if (k == 1u) {
        p.split = COPSE_BVH_SPLIT_MEDIAN;
        p.leaf_size = 1;
    }
    bytes = copse_bvh_build_bytes(b->mesh.triangle_count, 3, &p);
    b->tree_mem[k] = malloc(bytes);
    if (!CHECKF(b->tree_mem[k] != NULL, "%s: out of memory", b->name))
        return false;
    copse_arena_init(&arena, b->tree_mem[k], bytes);
    if (!CHECKF(copse_bvh_build_mesh(&b->bvh[k], &arena, &b->mesh, &p) == COPSE_OK, "%s: BVH build failed", b->name))
        return false;
    tk_scene_from_mesh(&sc, &b->mesh, COPSE_BVH_PROJECT_NONE);
    tk_verify_tree(&b->bvh[k], &sc, &p);
    return true;
}

/* Bounding shapes in the body's own frame: the sphere about its box's centre, the capsule along
 * its box's longest axis, and the box itself. */
static void body_shapes(body *b)
{
    const uint32_t nv = b->hm.vertex_count;
    const float *v = b->hm.positions;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    double c[3], r = 0.0, a[3], e[3], perp = 0.0, half_len, tmp[3];
    uint32_t i;
    unsigned k, axis = 0;
    for (i = 0; i < nv; i++)
        for (k = 0; k < 3; k++) {
            lo[k] = v[3u * i + k] < lo[k] ? v[3u * i + k] : lo[k];
            hi[k] = v[3u * i + k] > hi[k] ? v[3u * i + k] : hi[k];
        }
    for (k = 0; k < 3; k++) {
        c[k] = 0.5 * ((double)lo[k] + (double)hi[k]);
        if (hi[k] - lo[k] > hi[axis] - lo[axis])
            axis = k;
    }
    for (i = 0; i < nv; i++) {
        double p[3] = {(double)v[3u * i], (double)v[3u * i + 1u], (double)v[3u * i + 2u]}, q = 0.0;
        r = dmx(r, orc_dist(p, c));
        for (k = 0; k < 3; k++)
            if (k != axis)
                q += (p[k] - c[k]) * (p[k] - c[k]);
        perp = dmx(perp, sqrt(q));
    }
    b->sphere.center = vf(c);
    b->sphere.radius = (float)(r * (1.0 + 1e-6));
    half_len = dmx(0.0, 0.5 * ((double)hi[axis] - (double)lo[axis]) - perp);
    for (k = 0; k < 3; k++) {
        a[k] = c[k];
        e[k] = c[k];
    }
    a[axis] -= half_len;
    e[axis] += half_len;
    b->capsule.segment.a = vf(a);
    b->capsule.segment.b = vf(e);
    vd(a, b->capsule.segment.a);
    vd(e, b->capsule.segment.b);
    r = 0.0;
    for (i = 0; i < nv; i++) {
        double p[3] = {(double)v[3u * i], (double)v[3u * i + 1u], (double)v[3u * i + 2u]};
        r = dmx(r, orc_closest_segment(p, a, e, tmp));
    }
    b->capsule.radius = (float)(r * (1.0 + 1e-6));
    memset(&b->obb, 0, sizeof b->obb);
    b->obb.center = vf(c);
    b->obb.half = copse_v3(0.5f * (hi[0] - lo[0]), 0.5f * (hi[1] - lo[1]), 0.5f * (hi[2] - lo[2]));
    for (k = 0; k < 3; k++)
        b->obb.rotation[k][k] = 1.0f;
    b->local_mag = dmx(b->ts.mag, dmx(r, orc_max_abs(c) + (double)b->sphere.radius));
}

static bool body_load(body *b, const char *rel, const char *name, float scale)
{
    char path[700], err[256];
    uint32_t t;
    double total = 0.0;
    b->name = name;
    (void)copse_port_snprintf(path, sizeof path, "%s/%s", g_data, rel);
    if (!CHECKF(host_mesh_load(path, &b->hm, err, sizeof err) == 0, "%s", err))
        return false;
    b->loaded = true;
    if (scale != 1.0f) {
        uint32_t i;
        for (i = 0; i < 3u * b->hm.vertex_count; i++)
            b->hm.positions[i] *= scale;
    }
    b->mesh = host_mesh_view(&b->hm);
    if (!CHECKF(b->mesh.triangle_count > 0u, "%s: no triangles", path) || !tset_make(&b->ts, &b->mesh, NULL, true, true))
        return false;
    b->cum = (double *)grab(sizeof(double) * (b->ts.n + 1u), true);
    if (b->cum == NULL)
        return false;
    for (t = 0; t < b->ts.n; t++) {
        double e1[3], e2[3], n[3];
        orc_sub(e1, b->ts.v[t][1], b->ts.v[t][0]);
        orc_sub(e2, b->ts.v[t][2], b->ts.v[t][0]);
        orc_cross(n, e1, e2);
        total += 0.5 * orc_len(n);
        b->cum[t] = total;
    }
    body_shapes(b);
    return body_tree(b, 0) && body_tree(b, 1);
}

static void body_free(body *b)
{
    if (b->loaded)
        host_mesh_free(&b->hm);
    free(b->tree_mem[0]);
    free(b->tree_mem[1]);
    free(b->cum);
    tset_free(&b->ts);
    memset(b, 0, sizeof *b);
}

static bool load_scan(void)
{
    char path[700];
    FILE *f;
    float x, y, z;
    (void)copse_port_snprintf(path, sizeof path, "%s/%s", g_data, SCAN_FILE);
    f = fopen(path, "r");
    if (!CHECKF(f != NULL, "cannot read %s", path))
        return false;
    g_scan = (copse_vec3 *)malloc(sizeof(copse_vec3) * SCAN_MAX);
    g_scan_n = 0;
    while (g_scan != NULL && g_scan_n < SCAN_MAX && fscanf(f, "%f %f %f", &x, &y, &z) == 3)
        g_scan[g_scan_n++] = copse_v3(x, y, z);
    fclose(f);
    return CHECK(g_scan != NULL) && CHECK_EQ_INT(g_scan_n, 88206);
}

/* Everything, once (the first test to need it loads it; failures fail that test). */
static bool need_world(void)
{
    unsigned i;
    if (g_tried)
        return CHECKF(g_ok, "the shared data did not load (see the first test)");
    g_tried = true;
    g_ok = true;
    tk_context("loading");
    for (i = 0; i < N_LINKS && g_ok; i++)
        g_ok = body_load(&g_links[i], k_link_files[i], k_link_names[i], 1.0f);
    for (i = 0; i < N_OBST && g_ok; i++)
        g_ok = body_load(&g_obst[i], k_obst_files[i], k_obst_names[i], k_obst_scale[i]);
    if (g_ok)
        g_ok = load_scan();
    return g_ok;
}

static void world_free(void)
{
    unsigned i;
    for (i = 0; i < N_LINKS; i++)
        body_free(&g_links[i]);
    for (i = 0; i < N_OBST; i++)
        body_free(&g_obst[i]);
    free(g_scan);
    g_scan = NULL;
    g_scan_n = 0;
    g_tried = g_ok = false;
}

/* ---- poses --------------------------------------------------------------------------------------- */

typedef struct pose_case {
    copse_pose pose_f;
    const copse_pose *pose; /* &pose_f, or NULL */
    orcc_pose pose_d;       /* the float pose, read in double */
    bool edge;              /* placed touching on purpose */
    uint32_t at, as;        /* the anchor triangles (tree's, mesh's), COPSE_NONE for none */
    double h;               /* the offset along the tree's normal */
} pose_case;

static void set_pose(pose_case *pc, const orcc_pose *p, bool null_pose)
{
    if (null_pose) {
        pc->pose = NULL;
        orcc_pose_identity(&pc->pose_d);
        pc->pose_f = copse_pose_identity();
        return;
    }
    orcc_pose_to_float(&pc->pose_f, p);
    pc->pose = &pc->pose_f;
    orcc_pose_of(&pc->pose_d, pc->pose);
}

static void rot_axis_angle(orcc_pose *out, const double *axis, double angle)
{
    double q[4], t[3] = {0.0, 0.0, 0.0}, s = sin(0.5 * angle);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = cos(0.5 * angle);
    orcc_pose_from_quat(out, q, t);
}

static void random_rotation(test_rng *rng, orcc_pose *p)
{
    double q[4], n2, t[3] = {0.0, 0.0, 0.0};
    int k;
    do {
        for (k = 0; k < 4; k++)
            q[k] = urange(rng, -1.0, 1.0);
        n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 < 1e-3 || n2 > 1.0);
    orcc_pose_from_quat(p, q, t);
}

/* R with R nm = -nt (the two surfaces facing), spun about nt, tilted by up to `tilt` radians. */
static void facing_rotation(orcc_pose *R, const double *nt, const double *nm, double tilt, test_rng *rng)
{
    orcc_pose ft, fm, fm_inv, spin, tl;
    double mt[3] = {-nt[0], -nt[1], -nt[2]}, zero[3] = {0.0, 0.0, 0.0}, ax[3];
    orcc_pose_from_z(&ft, mt, zero);
    orcc_pose_from_z(&fm, nm, zero);
    orcc_pose_invert(&fm_inv, &fm);
    orcc_pose_compose(R, &ft, &fm_inv);
    rot_axis_angle(&spin, nt, 2.0 * PI * urand(rng));
    orcc_pose_compose(R, &spin, R);
    random_unit(rng, ax);
    rot_axis_angle(&tl, ax, tilt * urand(rng));
    orcc_pose_compose(R, &tl, R);
}

/* An area-weighted random triangle (never one of no area). */
static uint32_t pick_triangle(const body *b, test_rng *rng)
{
    double x = urand(rng) * b->cum[b->ts.n - 1u];
    uint32_t lo = 0, hi = b->ts.n - 1u;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (b->cum[mid] <= x)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

static void point_on(const double (*v)[3], test_rng *rng, double *p)
{
    double r1 = sqrt(urand(rng)), r2 = urand(rng), a = 1.0 - r1, b = r1 * (1.0 - r2), c = r1 * r2;
    int k;
    for (k = 0; k < 3; k++)
        p[k] = a * v[0][k] + b * v[1][k] + c * v[2][k];
}

/* The offset along the tree's normal: 0 (touching), a hair either way, or centimetres. */
static double random_offset(test_rng *rng, bool *edge, double far)
{
    unsigned u = test_rng_below(rng, 20);
    *edge = false;
    if (u < 3u) {
        *edge = true;
        return 0.0;
    }
    if (u < 14u)
        return (test_rng_below(rng, 2) ? 1.0 : -1.0) * pow(10.0, urange(rng, -5.0, -2.0));
    if (u < 17u)
        return urange(rng, -0.02, 0.02);
    return urange(rng, 0.02, far);
}

/* Mesh body m placed against tree body t: a random point of m's surface near a random point of
 * t's, facing (mostly), tilted, or at any rotation. */
static void contact_pose_at(pose_case *pc, const body *t, uint32_t at, const body *m, uint32_t as, test_rng *rng,
                            double far)
{
    orcc_pose p;
    double pt[3], pm[3], nt[3], nm[3], rp[3];
    unsigned k, style = test_rng_below(rng, 10);
    memset(pc, 0, sizeof *pc);
    pc->at = at != COPSE_NONE ? at : pick_triangle(t, rng);
    pc->as = as != COPSE_NONE ? as : pick_triangle(m, rng);
    point_on((const double(*)[3])t->ts.v[pc->at], rng, pt);
    point_on((const double(*)[3])m->ts.v[pc->as], rng, pm);
    unit_normal((const double(*)[3])t->ts.v[pc->at], nt);
    unit_normal((const double(*)[3])m->ts.v[pc->as], nm);
    if (style < 6u)
        facing_rotation(&p, nt, nm, 0.15, rng);
    else if (style < 8u)
        facing_rotation(&p, nt, nm, 1.2, rng);
    else
        random_rotation(rng, &p);
    pc->h = random_offset(rng, &pc->edge, far);
    orcc_pose_apply_dir(&p, pm, rp);
    for (k = 0; k < 3; k++)
        p.t[k] = pt[k] + pc->h * nt[k] - rp[k];
    set_pose(pc, &p, false);
}

static void contact_pose(pose_case *pc, const body *t, const body *m, test_rng *rng, double far)
{
    contact_pose_at(pc, t, COPSE_NONE, m, COPSE_NONE, rng, far);
}

static void describe_pose(const char *tree, const char *mesh, const pose_case *pc)
{
    unsigned i;
    if (g_described++ >= 6u)
        return;
    copse_port_printf("    %s (tree) vs %s (posed), pose ", tree, mesh);
    if (pc->pose == NULL) {
        copse_port_printf("NULL\n");
        return;
    }
    copse_port_printf("R=[");
    for (i = 0; i < 9; i++)
        copse_port_printf("%s%.9g", i == 0 ? "" : ", ", (double)pc->pose_f.rotation[i / 3][i % 3]);
    copse_port_printf("] t=(%.9g, %.9g, %.9g) (anchors %u, %u, offset %.3g)\n", (double)pc->pose_f.translation.x,
                      (double)pc->pose_f.translation.y, (double)pc->pose_f.translation.z, (unsigned)pc->at,
                      (unsigned)pc->as, pc->h);
}

static void print_tri(const char *what, const double (*v)[3])
{
    if (g_described > 8u)
        return;
    copse_port_printf("    %s (%.9g, %.9g, %.9g) (%.9g, %.9g, %.9g) (%.9g, %.9g, %.9g)\n", what, v[0][0], v[0][1],
                      v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]);
}

/* ---- the pair oracle ------------------------------------------------------------------------------ */

typedef struct cand {
    uint32_t t, s, v;
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = (const cand *)a, *y = (const cand *)b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->s < y->s ? -1 : (x->s > y->s ? 1 : 0);
}

/* The verdict of pair (t, s): ORC_NO when it is not among the candidates. */
static orc_verdict cand_find(const cand *c, uint32_t n, uint32_t t, uint32_t s)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (c[mid].t < t || (c[mid].t == t && c[mid].s < s))
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo < n && c[lo].t == t && c[lo].s == s ? (orc_verdict)c[lo].v : ORC_NO;
}

/* Every pair of tree triangle t and posed mesh triangle s whose boxes come within `band`, with its
 * verdict (orcc_triangle_verdict); the ORC_NO ones left out (as every pair whose boxes are farther
 * apart, as orcc_pairs_overlap decides them). Sorted by (t, s). *full: more than `cap`. */
static uint32_t pair_oracle(const tset *T, const tset *S, double band, cand *out, uint32_t cap, bool *full)
{
    uint32_t s, q, n = 0;
    *full = false;
    for (s = 0; s < S->n; s++) {
        const double *bs = S->box[s];
        if (box_gap(bs, T->bounds) > band)
            continue;
        for (q = tset_first(T, bs[0] - band); q < T->n && T->lox[q] <= bs[3] + band; q++) {
            uint32_t t = T->order[q];
            orc_verdict v;
            if (box_gap(T->box[t], bs) > band)
                continue;
            v = orcc_triangle_verdict((const double(*)[3])T->v[t], (const double(*)[3])S->v[s], band);
            if (v == ORC_NO)
                continue;
            if (n == cap) {
                *full = true;
                return n;
            }
            out[n].t = t;
            out[n].s = s;
            out[n].v = (uint32_t)v;
            n++;
        }
    }
    qsort(out, n, sizeof *out, cand_cmp);
    return n;
}

typedef struct near_pair {
    uint32_t t, s;
    double d, pa[3], pb[3]; /* pa on the tree's triangle, pb on the posed mesh's */
} near_pair;

static void pair_measure(const tset *T, const tset *S, uint32_t t, uint32_t s, near_pair *np)
{
    np->t = t;
    np->s = s;
    np->d = orcc_triangle_triangle((const double(*)[3])T->v[t], (const double(*)[3])S->v[s], np->pa, np->pb);
}

/* The nearest pair, given a pair already measured (its distance bounds the search). Ties: the
 * lower tree id, then the lower mesh id. */
static void pair_nearest(const tset *T, const tset *S, near_pair *best)
{
    uint32_t s, q;
    for (s = 0; s < S->n; s++) {
        const double *bs = S->box[s];
        if (box_gap(bs, T->bounds) > best->d)
            continue;
        for (q = tset_first(T, bs[0] - best->d); q < T->n && T->lox[q] <= bs[3] + best->d; q++) {
            uint32_t t = T->order[q];
            near_pair np;
            if (box_gap(T->box[t], bs) > best->d)
                continue;
            pair_measure(T, S, t, s, &np);
            if (np.d < best->d || (np.d == best->d && (t < best->t || (t == best->t && s < best->s))))
                *best = np;
        }
    }
}

/* ---- judges: a posed mesh against a mesh -------------------------------------------------------- */

typedef struct pair_answer {
    const body *tb, *mb;
    const pose_case *pc;
    tset S; /* the mesh, posed */
    cand *c;
    uint32_t nc;
    near_pair near; /* when no pair meets */
    double M, band, tol, dstar;
    bool any_yes, any_edge, meets;
} pair_answer;

#define CAND_CAP 4000000u

static bool pair_answer_make(pair_answer *a, const body *tb, const body *mb, const pose_case *pc)
{
    bool full;
    uint32_t i;
    memset(a, 0, sizeof *a);
    a->tb = tb;
    a->mb = mb;
    a->pc = pc;
    if (!tset_make(&a->S, &mb->mesh, &pc->pose_d, false, false))
        return false;
    a->M = dmx(tb->ts.mag, dmx(a->S.mag, dmx(mb->ts.mag, orcc_pose_reach(&pc->pose_d, mb->ts.mag))));
    a->band = BAND_K * ORC_FLT_EPS * a->M;
    a->tol = DIST_K * ORC_FLT_EPS * a->M;
    a->c = (cand *)tk_alloc(sizeof(cand) * CAND_CAP);
    if (a->c == NULL)
        return false;
    a->nc = pair_oracle(&tb->ts, &a->S, a->band, a->c, CAND_CAP, &full);
    if (!CHECKF(!full, "%s: more than %u candidate pairs", tk_ctx(), CAND_CAP))
        return false;
    for (i = 0; i < a->nc; i++) {
        a->any_yes |= a->c[i].v == ORC_YES;
        a->any_edge |= orc_fragile((orc_verdict)a->c[i].v);
        a->meets |= orc_exact((orc_verdict)a->c[i].v);
    }
    g_fam[g_cur_fam].pairs += a->nc;
    if (a->meets) {
        a->dstar = 0.0;
    } else {
        pair_measure(&tb->ts, &a->S, pc->at != COPSE_NONE ? pc->at : 0u, pc->as != COPSE_NONE ? pc->as : 0u,
                     &a->near);
        pair_nearest(&tb->ts, &a->S, &a->near);
        a->dstar = a->near.d;
    }
    return true;
}

static const char *pair_tag(unsigned k, unsigned km)
{
    static char buf[200];
    (void)copse_port_snprintf(buf, sizeof buf, "%s [trees %u/%u] q%u", tk_ctx(), k, km, g_query);
    return buf;
}

typedef struct pair_sink {
    copse_pair *pairs;
    uint32_t cap, count;
} pair_sink;

static bool sink_pair(void *user, const copse_pair *p)
{
    pair_sink *s = (pair_sink *)user;
    if (s->count < s->cap)
        s->pairs[s->count] = *p;
    s->count++;
    return true;
}

static int pair_cmp(const void *a, const void *b)
{
    const copse_pair *x = (const copse_pair *)a, *y = (const copse_pair *)b;
    if (x->tree_id != y->tree_id)
        return x->tree_id < y->tree_id ? -1 : 1;
    return x->shape_id < y->shape_id ? -1 : (x->shape_id > y->shape_id ? 1 : 0);
}

static bool check_separation(const pair_answer *a, float sep, bool found, const char *what, const char *tag)
{
    bool ok = CHECKF(sep >= 0.0f && sep == sep, "%s: %s: separation %.9g", tag, what, (double)sep);
    if (found || a->any_yes)
        ok &= CHECKF(sep == 0.0f || (!a->any_yes && a->any_edge), "%s: %s: pairs touch, but separation is %.9g", tag,
                     what, (double)sep);
    else
        ok &= CHECKF((double)sep <= a->dstar + a->tol, "%s: %s: separation %.9g exceeds the distance %.9g", tag, what,
                     (double)sep, a->dstar);
    return ok;
}

/* any, overlap and visit against the candidates: false after a failed check. *ex: the band was needed. */
static bool judge_pair_sets(const pair_answer *a, const copse_bvh *tt, const copse_bvh *mt, const char *tag,
                            bool *ex_any, bool *ex_set)
{
    const uint32_t nt = a->tb->ts.n, nm = a->S.n, cap = a->nc + 16u;
    size_t mark = tk_mark();
    copse_pair *pairs = (copse_pair *)tk_alloc(sizeof(copse_pair) * cap), *buf = (copse_pair *)tk_alloc(sizeof(copse_pair) * cap);
    copse_pair w, bad_pair = {0, 0};
    copse_pair_list list;
    pair_sink sink;
    copse_status st;
    float sep = -1.0f;
    uint32_t i, j, wrong = 0, dup = 0;
    bool ok = true, bad_reported = false;
    if (pairs == NULL || buf == NULL)
        return false;

    w.tree_id = w.shape_id = 0x1234u;
    st = copse_bvh_any_bvh(tt, mt, a->pc->pose, &w, &sep);
    ok &= CHECKF(st == COPSE_OK && ((w.tree_id == COPSE_NONE && w.shape_id == COPSE_NONE) ||
                                    (w.tree_id < nt && w.shape_id < nm)),
                 "%s: any_bvh: %s, witness (%u, %u)", tag, copse_status_str(st), (unsigned)w.tree_id,
                 (unsigned)w.shape_id);
    if (w.tree_id == COPSE_NONE) {
        ok &= CHECKF(!a->any_yes, "%s: any_bvh found nothing, but pairs touch (oracle)", tag);
        *ex_any |= a->any_edge;
    } else if (w.tree_id < nt && w.shape_id < nm) {
        orc_verdict v = cand_find(a->c, a->nc, w.tree_id, w.shape_id);
        ok &= CHECKF(v != ORC_NO, "%s: any_bvh: witness (%u, %u) is apart (oracle)", tag, (unsigned)w.tree_id,
                     (unsigned)w.shape_id);
        *ex_any |= v == ORC_EDGE_NO;
    }
    ok &= check_separation(a, sep, w.tree_id != COPSE_NONE, "any_bvh", tag);

    list = copse_pair_list_make(pairs, cap);
    sep = -1.0f;
    st = copse_bvh_overlap_bvh(tt, mt, a->pc->pose, &list, &sep);
    ok &= CHECKF(st == COPSE_OK && !list.truncated, "%s: overlap_bvh: %s, %u pairs%s (oracle: %u candidates)", tag,
                 copse_status_str(st), (unsigned)list.count, list.truncated ? ", truncated" : "", (unsigned)a->nc);
    ok &= check_separation(a, sep, list.count > 0u, "overlap_bvh", tag);
    ok &= CHECKF((list.count == 0u) == (w.tree_id == COPSE_NONE), "%s: any_bvh gave (%u, %u), overlap_bvh %u pairs",
                 tag, (unsigned)w.tree_id, (unsigned)w.shape_id, (unsigned)list.count);
    /* the visitor: the same sequence */
    sink.pairs = buf;
    sink.cap = cap;
    sink.count = 0;
    st = copse_bvh_visit_bvh(tt, mt, a->pc->pose, sink_pair, &sink, NULL);
    ok &= CHECKF(st == COPSE_OK && sink.count == list.count &&
                     memcmp(buf, pairs, sizeof(copse_pair) * (list.count < cap ? list.count : cap)) == 0,
                 "%s: visit_bvh gave %u pairs, overlap_bvh %u (or in another order)", tag, (unsigned)sink.count,
                 (unsigned)list.count);
    if (list.count > 1u) {
        copse_pair one;
        copse_pair_list part = copse_pair_list_make(&one, 1);
        st = copse_bvh_overlap_bvh(tt, mt, a->pc->pose, &part, NULL);
        ok &= CHECKF(st == COPSE_OK && part.count == 1u && part.truncated && one.tree_id == pairs[0].tree_id &&
                         one.shape_id == pairs[0].shape_id,
                     "%s: overlap_bvh at capacity 1: count %u truncated %d", tag, (unsigned)part.count,
                     (int)part.truncated);
    }
    /* the set, sorted, against the candidates */
    qsort(pairs, list.count, sizeof *pairs, pair_cmp);
    for (i = 0, j = 0; i < list.count; i++) {
        orc_verdict v;
        if (i > 0u && pair_cmp(&pairs[i], &pairs[i - 1u]) == 0) {
            dup++;
            continue;
        }
        if (pairs[i].tree_id >= nt || pairs[i].shape_id >= nm) {
            wrong++;
            continue;
        }
        while (j < a->nc && (a->c[j].t < pairs[i].tree_id ||
                             (a->c[j].t == pairs[i].tree_id && a->c[j].s < pairs[i].shape_id))) {
            /* a candidate not reported */
            if (a->c[j].v == ORC_YES) {
                if (wrong++ == 0u) {
                    bad_pair.tree_id = a->c[j].t;
                    bad_pair.shape_id = a->c[j].s;
                }
            } else if (a->c[j].v == ORC_EDGE_YES) {
                *ex_set = true;
            }
            j++;
        }
        v = j < a->nc && a->c[j].t == pairs[i].tree_id && a->c[j].s == pairs[i].shape_id ? (orc_verdict)a->c[j].v
                                                                                          : ORC_NO;
        if (v == ORC_NO) {
            if (wrong++ == 0u) {
                bad_pair = pairs[i];
                bad_reported = true;
            }
        } else if (v == ORC_EDGE_NO) {
            *ex_set = true;
        }
        if (v != ORC_NO)
            j++;
    }
    for (; j < a->nc; j++) {
        if (a->c[j].v == ORC_YES) {
            if (wrong++ == 0u) {
                bad_pair.tree_id = a->c[j].t;
                bad_pair.shape_id = a->c[j].s;
            }
        } else if (a->c[j].v == ORC_EDGE_YES) {
            *ex_set = true;
        }
    }
    ok &= CHECKF(dup == 0u, "%s: overlap_bvh reported %u pairs twice", tag, (unsigned)dup);
    if (!CHECKF(wrong == 0u, "%s: overlap_bvh: %u pairs wrong, e.g. (%u, %u) %s (band %.3g)", tag, (unsigned)wrong,
                (unsigned)bad_pair.tree_id, (unsigned)bad_pair.shape_id,
                bad_reported ? "reported, the oracle says apart" : "missing, the oracle says they touch", a->band)) {
        ok = false;
        if (bad_pair.tree_id < nt && bad_pair.shape_id < nm) {
            print_tri("tree triangle", (const double(*)[3])a->tb->ts.v[bad_pair.tree_id]);
            print_tri("posed mesh triangle", (const double(*)[3])a->S.v[bad_pair.shape_id]);
        }
    }
    tk_rewind(mark);
    return ok;
}

/* One distance answer: within the tolerance of the oracle (exact), or a real pair within
 * [d* - tol, hi + tol] (errors allowed, first within). */
static bool check_pair_distance(const pair_answer *a, const copse_distance *o, copse_status st, float max_distance,
                                bool exact, double hi, const char *what, const char *tag)
{
    const double tol = a->tol, dstar = a->dstar;
    const tset *T = &a->tb->ts, *S = &a->S;
    double d, tp[3], sp[3], nv[3], nl, tmp[3], off_t, off_s;
    near_pair np;
    bool ok = true;
    if (!CHECKF(st == COPSE_OK, "%s: %s: %s", tag, what, copse_status_str(st)))
        return false;
    if (o->tree_id == COPSE_NONE) {
        ok &= CHECKF(is_none(o), "%s: %s: no pair, but distance %.9g", tag, what, (double)o->distance);
        ok &= CHECKF(dstar > (double)max_distance - tol, "%s: %s found nothing within %.9g, but the meshes are %.9g apart",
                     tag, what, (double)max_distance, dstar);
        return ok;
    }
    if (!CHECKF(o->tree_id < T->n && o->shape_id < S->n && o->distance >= 0.0f && o->distance <= max_distance &&
                    o->depth == 0.0f,
                "%s: %s: pair (%u, %u) distance %.9g depth %.9g (max %.9g)", tag, what, (unsigned)o->tree_id,
                (unsigned)o->shape_id, (double)o->distance, (double)o->depth, (double)max_distance))
        return false;
    d = (double)o->distance;
    ok &= CHECKF(dstar <= (double)max_distance + tol, "%s: %s found (%u, %u) at %.9g, but nothing lies within %.9g",
                 tag, what, (unsigned)o->tree_id, (unsigned)o->shape_id, d, (double)max_distance);
    if (exact) {
        note(W_PAIR, dab(d - dstar), a->M);
        ok &= CHECKF(dab(d - dstar) <= tol, "%s: %s %.9g, oracle %.9g (pair %u, %u): off by %.3g = %.1f eps*M", tag,
                     what, d, dstar, (unsigned)a->near.t, (unsigned)a->near.s, dab(d - dstar),
                     dab(d - dstar) / (ORC_FLT_EPS * a->M));
        ok &= CHECKF(!a->any_yes || o->distance == 0.0f, "%s: %s %.9g, but pairs touch: 0 expected", tag, what, d);
    } else {
        ok &= CHECKF(d >= dstar - tol && d <= hi + tol, "%s: %s %.9g outside [%.9g, %.9g]", tag, what, d, dstar, hi);
    }
    /* the reported pair is that far apart, and touches when the distance is 0 */
    pair_measure(T, S, o->tree_id, o->shape_id, &np);
    ok &= CHECKF(dab(np.d - d) <= tol, "%s: %s: pair (%u, %u) is %.9g apart, not %.9g", tag, what, (unsigned)o->tree_id,
                 (unsigned)o->shape_id, np.d, d);
    if (o->distance == 0.0f)
        ok &= CHECKF(cand_find(a->c, a->nc, o->tree_id, o->shape_id) != ORC_NO,
                     "%s: %s 0 at pair (%u, %u), which is apart (oracle: %.9g)", tag, what, (unsigned)o->tree_id,
                     (unsigned)o->shape_id, np.d);
    vd(tp, o->tree_point);
    vd(sp, o->shape_point);
    vd(nv, o->normal);
    off_t = orc_closest_triangle(tp, T->v[o->tree_id][0], T->v[o->tree_id][1], T->v[o->tree_id][2], tmp);
    off_s = orc_closest_triangle(sp, S->v[o->shape_id][0], S->v[o->shape_id][1], S->v[o->shape_id][2], tmp);
    ok &= CHECKF(off_t <= tol && off_s <= tol, "%s: %s: tree_point %.3g off, shape_point %.3g off their triangles",
                 tag, what, off_t, off_s);
    ok &= CHECKF(dab(orc_dist(tp, sp) - d) <= 2.0 * tol, "%s: %s: points %.9g apart, distance %.9g", tag, what,
                 orc_dist(tp, sp), d);
    nl = orc_len(nv);
    ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: %s: normal of length %.9g", tag, what, nl);
    if (np.d > 1000.0 * tol) {
        double u[3];
        int k;
        for (k = 0; k < 3; k++)
            u[k] = (np.pb[k] - np.pa[k]) / np.d;
        ok &= CHECKF(nl > 0.0 && orc_dot(nv, u) >= 0.999 * nl,
                     "%s: %s: normal (%.6g, %.6g, %.6g), oracle direction (%.6g, %.6g, %.6g)", tag, what, nv[0], nv[1],
                     nv[2], u[0], u[1], u[2]);
    } else if (d > tol) {
        ok &= CHECKF(nl > 0.0, "%s: %s: zero normal for points %.9g apart", tag, what, d);
    }
    return ok;
}

static bool judge_pair_distance(const pair_answer *a, const copse_bvh *tt, const copse_bvh *mt, const char *tag)
{
    const double dstar = a->dstar, tol = a->tol;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_distance o;
    copse_status st;
    bool ok = true;
    memset(&o, 0x5A, sizeof o);
    st = copse_distance_bvh_bvh(mt, a->pc->pose, tt, NULL, &o);
    ok &= check_pair_distance(a, &o, st, FLT_MAX, true, 0.0, "distance_bvh_bvh", tag);
    if (dstar > 4.0 * tol) { /* nothing within half the distance */
        dq.max_distance = (float)(0.5 * dstar);
        st = copse_distance_bvh_bvh(mt, a->pc->pose, tt, &dq, &o);
        ok &= check_pair_distance(a, &o, st, dq.max_distance, true, 0.0, "distance (max below)", tag);
    }
    dq.max_distance = (float)(2.0 * dstar + 2.0 * tol);
    dq.first_within = true;
    st = copse_distance_bvh_bvh(mt, a->pc->pose, tt, &dq, &o);
    ok &= check_pair_distance(a, &o, st, dq.max_distance, false, (double)dq.max_distance, "distance (first within)", tag);
    return ok;
}

/* Mesh body mb placed by pc against tree body tb: the oracle once, then two pairs of trees
 * (SAH leaf 4 and median leaf 1, crossed on odd queries). */
static void judge_pair_pose(const body *tb, const body *mb, const pose_case *pc)
{
    size_t mark = tk_mark();
    pair_answer a;
    bool ex_any = false, ex_set = false, ok = true;
    unsigned k;
    if (!pair_answer_make(&a, tb, mb, pc)) {
        tk_rewind(mark);
        return;
    }
    for (k = 0; k < 2u; k++) {
        unsigned km = (k + g_query) & 1u;
        const char *tag = pair_tag(k, km);
        ok &= judge_pair_sets(&a, &tb->bvh[k], &mb->bvh[km], tag, &ex_any, &ex_set);
        ok &= judge_pair_distance(&a, &tb->bvh[k], &mb->bvh[km], tag);
    }
    tally(ex_any, pc->edge);
    tally(ex_set, pc->edge);
    g_fam[g_cur_fam].poses++;
    g_fam[g_cur_fam].touching += a.meets;
    if (!ok)
        describe_pose(tb->name, mb->name, pc);
    tk_rewind(mark);
}

/* ---- judges: a posed shape against a mesh --------------------------------------------------------- */

static const char *const k_kind_names[] = {"sphere", "capsule", "obb", "triangle", "convex"};

typedef struct shape_q {
    orcc_kind kind; /* sphere, capsule, obb or triangle */
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    copse_triangle tri;
    double local_mag; /* the largest magnitude among its own floats */
} shape_q;

static bool kind_ball(orcc_kind k)
{
    return k == ORCC_SPHERE || k == ORCC_CAPSULE;
}

static unsigned kind_slot(orcc_kind k)
{
    return k == ORCC_SPHERE ? W_SPHERE : k == ORCC_CAPSULE ? W_CAPSULE : k == ORCC_OBB ? W_OBB : W_TRIANGLE;
}

static void shape_make(const shape_q *q, const copse_pose *pose, orcc_shape *s)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        orcc_make_sphere(s, &q->sphere, pose);
        break;
    case ORCC_CAPSULE:
        orcc_make_capsule(s, &q->capsule, pose);
        break;
    case ORCC_OBB:
        orcc_make_obb(s, &q->obb, pose);
        break;
    default:
        orcc_make_triangle(s, &q->tri, pose);
        break;
    }
}

/* The shape's box, and its core's (spheres, capsules: the centre or segment; else the shape's). */
static void shape_boxes(const orcc_shape *s, double *box, double *core)
{
    unsigned i, k;
    for (k = 0; k < 3; k++) {
        core[k] = HUGE_VAL;
        core[3 + k] = -HUGE_VAL;
    }
    if (s->kind == ORCC_OBB) {
        for (k = 0; k < 3; k++) {
            double r = dab(s->axis[0][k]) * s->half[0] + dab(s->axis[1][k]) * s->half[1] + dab(s->axis[2][k]) * s->half[2];
            core[k] = s->p[0][k] - r;
            core[3 + k] = s->p[0][k] + r;
        }
    } else {
        for (i = 0; i < s->n; i++)
            for (k = 0; k < 3; k++) {
                core[k] = s->p[i][k] < core[k] ? s->p[i][k] : core[k];
                core[3 + k] = s->p[i][k] > core[3 + k] ? s->p[i][k] : core[3 + k];
            }
    }
    for (k = 0; k < 3; k++) {
        double r = kind_ball(s->kind) ? s->radius : 0.0;
        box[k] = core[k] - r;
        box[3 + k] = core[3 + k] + r;
    }
}

typedef struct shape_answer {
    orcc_shape s;
    uint8_t *v; /* per tree triangle; ORC_NO beyond the candidates */
    uint32_t n, best;
    double best_key; /* core distance (spheres, capsules) or distance */
    double M, band, tol, dstar;
    bool any_yes, any_edge, ball;
} shape_answer;

static double shape_key(const shape_answer *a, const tset *T, uint32_t t, orc_verdict *v, orcc_contact *c)
{
    orc_verdict vv = orcc_shape_triangle(&a->s, (const double(*)[3])T->v[t], a->band, c);
    if (v != NULL)
        *v = vv;
    return a->ball ? c->core : c->distance;
}

/* The brute force: verdicts of the triangles whose boxes come within the band of the shape's, and
 * the nearest triangle within the key of `anchor` (ties to the lower id). */
static bool shape_answer_make(shape_answer *a, const tset *T, const shape_q *q, const pose_case *pc, uint32_t anchor)
{
    double box[6], core[6], key;
    uint32_t p;
    orcc_contact c;
    orc_verdict v;
    memset(a, 0, sizeof *a);
    shape_make(q, pc->pose, &a->s);
    a->ball = kind_ball(q->kind);
    a->n = T->n;
    a->M = dmx(dmx(T->mag, a->s.mag), dmx(q->local_mag, orcc_pose_reach(&pc->pose_d, q->local_mag)));
    a->band = BAND_K * ORC_FLT_EPS * a->M;
    a->tol = DIST_K * ORC_FLT_EPS * a->M;
    a->v = (uint8_t *)tk_alloc(T->n + 1u);
    if (a->v == NULL)
        return false;
    memset(a->v, ORC_NO, T->n + 1u);
    shape_boxes(&a->s, box, core);
    a->best = anchor;
    a->best_key = shape_key(a, T, anchor, NULL, &c);
    for (p = tset_first(T, box[0] - a->band); p < T->n && T->lox[p] <= box[3] + a->band; p++) {
        uint32_t t = T->order[p];
        if (box_gap(T->box[t], box) > a->band)
            continue;
        key = shape_key(a, T, t, &v, &c);
        a->v[t] = (uint8_t)v;
        a->any_yes |= v == ORC_YES;
        a->any_edge |= orc_fragile(v);
        if (key < a->best_key || (key == a->best_key && t < a->best)) {
            a->best = t;
            a->best_key = key;
        }
    }
    for (p = tset_first(T, core[0] - a->best_key); p < T->n && T->lox[p] <= core[3] + a->best_key; p++) {
        uint32_t t = T->order[p];
        if (box_gap(T->box[t], core) > a->best_key)
            continue;
        key = shape_key(a, T, t, NULL, &c);
        if (key < a->best_key || (key == a->best_key && t < a->best)) {
            a->best = t;
            a->best_key = key;
        }
    }
    a->dstar = a->ball ? dmx(0.0, a->best_key - a->s.radius) : a->best_key;
    return true;
}

static copse_status sq_any(const copse_bvh *b, const shape_q *q, const copse_pose *pose, uint32_t *id)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_bvh_any_sphere(b, &q->sphere, pose, id);
    case ORCC_CAPSULE:
        return copse_bvh_any_capsule(b, &q->capsule, pose, id);
    case ORCC_OBB:
        return copse_bvh_any_obb(b, &q->obb, pose, id);
    default:
        return copse_bvh_any_triangle(b, &q->tri, pose, id);
    }
}

static copse_status sq_overlap(const copse_bvh *b, const shape_q *q, const copse_pose *pose, copse_id_list *out)
{
    switch (q->kind) {
    case ORCC_CAPSULE:
        return copse_bvh_overlap_capsule(b, &q->capsule, pose, out);
    case ORCC_OBB:
        return copse_bvh_overlap_obb(b, &q->obb, pose, out);
    default:
        return copse_bvh_overlap_triangle(b, &q->tri, pose, out);
    }
}

static copse_status sq_visit(const copse_bvh *b, const shape_q *q, const copse_pose *pose, copse_id_visitor fn,
                             void *user)
{
    switch (q->kind) {
    case ORCC_CAPSULE:
        return copse_bvh_visit_capsule(b, &q->capsule, pose, fn, user);
    case ORCC_OBB:
        return copse_bvh_visit_obb(b, &q->obb, pose, fn, user);
    default:
        return copse_bvh_visit_triangle(b, &q->tri, pose, fn, user);
    }
}

static copse_status sq_distance(const copse_bvh *b, const shape_q *q, const copse_pose *pose,
                                const copse_distance_query *dq, copse_distance *out)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_distance_sphere_bvh(&q->sphere, pose, b, dq, out);
    case ORCC_CAPSULE:
        return copse_distance_capsule_bvh(&q->capsule, pose, b, dq, out);
    case ORCC_OBB:
        return copse_distance_obb_bvh(&q->obb, pose, b, dq, out);
    default:
        return copse_distance_triangle_bvh(&q->tri, pose, b, dq, out);
    }
}

typedef struct id_sink {
    uint32_t *ids;
    uint32_t cap, count;
} id_sink;

static bool sink_id(void *user, uint32_t id)
{
    id_sink *s = (id_sink *)user;
    if (s->count < s->cap)
        s->ids[s->count] = id;
    s->count++;
    return true;
}

/* A reported id list against per-primitive verdicts: unknown or repeated ids, wrong members (the
 * first in *bad), excusals. */
static uint32_t judge_id_set(const uint32_t *ids, uint32_t count, const uint8_t *v, uint32_t n, uint8_t *seen,
                             bool *excused, uint32_t *bad, bool *bad_reported)
{
    uint32_t i, wrong = 0;
    memset(seen, 0, n + 1u);
    for (i = 0; i < count; i++) {
        if (ids[i] >= n || seen[ids[i]]) {
            if (wrong++ == 0u) {
                *bad = ids[i];
                *bad_reported = true;
            }
            continue;
        }
        seen[ids[i]] = 1;
    }
    for (i = 0; i < n; i++) {
        if ((seen[i] != 0) == orc_exact((orc_verdict)v[i]))
            continue;
        if (orc_fragile((orc_verdict)v[i])) {
            *excused = true;
        } else if (wrong++ == 0u) {
            *bad = i;
            *bad_reported = seen[i] != 0;
        }
    }
    return wrong;
}

static bool judge_shape_sets(const tset *T, const copse_bvh *bvh, const shape_q *q, const pose_case *pc,
                             const shape_answer *a, bool *ex_any, bool *ex_set, const char *tag)
{
    const uint32_t n = T->n;
    const char *kn = k_kind_names[q->kind];
    size_t mark = tk_mark();
    uint32_t *ids = (uint32_t *)tk_alloc(4u * (n + 1u)), *buf = (uint32_t *)tk_alloc(4u * (n + 1u)), id = 0x12345u,
             bad = 0, wrong;
    uint8_t *seen = (uint8_t *)tk_alloc(n + 1u);
    copse_id_list list;
    id_sink sink;
    copse_status st;
    bool ok = true, bad_reported = false;
    if (ids == NULL || buf == NULL || seen == NULL)
        return false;
    st = sq_any(bvh, q, pc->pose, &id);
    ok &= CHECKF(st == COPSE_OK && (id == COPSE_NONE || id < n), "%s: any_%s: %s, id %u", tag, kn,
                 copse_status_str(st), (unsigned)id);
    if (id == COPSE_NONE) {
        ok &= CHECKF(!a->any_yes, "%s: any_%s found nothing, but triangles touch it (oracle)", tag, kn);
        *ex_any |= a->any_edge;
    } else if (id < n) {
        ok &= CHECKF(a->v[id] != ORC_NO, "%s: any_%s: witness %u is apart (oracle)", tag, kn, (unsigned)id);
        *ex_any |= a->v[id] == ORC_EDGE_NO;
    }
    if (q->kind != ORCC_SPHERE) {
        list = copse_id_list_make(ids, n + 1u);
        st = sq_overlap(bvh, q, pc->pose, &list);
        ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= n, "%s: overlap_%s: %s, %u ids", tag, kn,
                     copse_status_str(st), (unsigned)list.count);
        if (list.count > n)
            list.count = 0;
        wrong = judge_id_set(ids, list.count, a->v, n, seen, ex_set, &bad, &bad_reported);
        ok &= CHECKF(wrong == 0u, "%s: overlap_%s: %u triangles wrong, e.g. %u %s (band %.3g)", tag, kn,
                     (unsigned)wrong, (unsigned)bad,
                     bad_reported ? "reported, the oracle says apart" : "missing, the oracle says it touches", a->band);
        ok &= CHECKF((list.count == 0u) == (id == COPSE_NONE), "%s: any_%s gave %u, overlap_%s %u ids", tag, kn,
                     (unsigned)id, kn, (unsigned)list.count);
        sink.ids = buf;
        sink.cap = n + 1u;
        sink.count = 0;
        st = sq_visit(bvh, q, pc->pose, sink_id, &sink);
        ok &= CHECKF(st == COPSE_OK && sink.count == list.count && memcmp(buf, ids, 4u * list.count) == 0,
                     "%s: visit_%s gave %u ids, overlap_%s %u (or in another order)", tag, kn, (unsigned)sink.count,
                     kn, (unsigned)list.count);
    }
    tk_rewind(mark);
    return ok;
}

static double to_core(const orcc_shape *s, const double *p)
{
    double tmp[3];
    if (s->kind == ORCC_SPHERE)
        return orc_dist(p, s->p[0]);
    return orc_closest_segment(p, s->p[0], s->p[1], tmp);
}

static bool check_shape_distance(const tset *T, const shape_q *q, const shape_answer *a, const copse_distance *o,
                                 copse_status st, float max_distance, bool exact, double hi, const char *what,
                                 const char *tag)
{
    const double tol = a->tol, dstar = a->dstar, r = a->s.radius;
    const char *kn = k_kind_names[q->kind];
    double d, d_id, tp[3], sp[3], nv[3], nl, tmp[3], off_t, off_s, gap;
    orcc_contact c;
    orc_verdict v;
    uint32_t id;
    bool ok = true;
    if (!CHECKF(st == COPSE_OK, "%s: %s_%s: %s", tag, what, kn, copse_status_str(st)))
        return false;
    if (o->tree_id == COPSE_NONE) {
        ok &= CHECKF(is_none(o), "%s: %s_%s: no triangle, but distance %.9g", tag, what, kn, (double)o->distance);
        ok &= CHECKF(dstar > (double)max_distance - tol, "%s: %s_%s found nothing within %.9g, but triangle %u is %.9g away",
                     tag, what, kn, (double)max_distance, (unsigned)a->best, dstar);
        return ok;
    }
    if (!CHECKF(o->tree_id < T->n && o->shape_id == COPSE_NONE && o->distance >= 0.0f && o->distance <= max_distance,
                "%s: %s_%s: id %u shape id %u distance %.9g (max %.9g)", tag, what, kn, (unsigned)o->tree_id,
                (unsigned)o->shape_id, (double)o->distance, (double)max_distance))
        return false;
    id = o->tree_id;
    d = (double)o->distance;
    ok &= CHECKF(dstar <= (double)max_distance + tol, "%s: %s_%s found %u at %.9g, but nothing lies within %.9g", tag,
                 what, kn, (unsigned)id, d, (double)max_distance);
    (void)shape_key(a, T, id, &v, &c);
    d_id = a->ball ? dmx(0.0, c.core - r) : c.distance;
    if (exact) {
        note(kind_slot(q->kind), dab(d - dstar), a->M);
        ok &= CHECKF(dab(d - dstar) <= tol, "%s: %s_%s %.9g, oracle %.9g (triangle %u): off by %.3g = %.1f eps*M", tag,
                     what, kn, d, dstar, (unsigned)a->best, dab(d - dstar), dab(d - dstar) / (ORC_FLT_EPS * a->M));
        ok &= CHECKF(!a->any_yes || o->distance == 0.0f, "%s: %s_%s %.9g, but triangles overlap it: 0 expected", tag,
                     what, kn, d);
        if (a->ball && a->best_key > tol)
            ok &= CHECKF(dab(c.core - a->best_key) <= tol,
                         "%s: %s_%s: triangle %u is %.9g from the core, the nearest (%u) %.9g", tag, what, kn,
                         (unsigned)id, c.core, (unsigned)a->best, a->best_key);
    } else {
        ok &= CHECKF(d >= dstar - tol && d <= hi + tol, "%s: %s_%s %.9g outside [%.9g, %.9g]", tag, what, kn, d, dstar,
                     hi);
    }
    ok &= CHECKF(dab(d_id - d) <= tol, "%s: %s_%s: triangle %u is %.9g away (core %.9g), not %.9g", tag, what, kn,
                 (unsigned)id, d_id, c.core, d);
    if (!a->ball && o->distance == 0.0f)
        ok &= CHECKF(v != ORC_NO, "%s: %s_%s 0 at triangle %u, which is %.9g away (oracle)", tag, what, kn,
                     (unsigned)id, c.distance);
    /* depth: radius - core, or at least the radius when the core itself touches */
    if (!a->ball)
        ok &= CHECKF(o->depth == 0.0f, "%s: %s_%s: depth %.9g for a shape without one", tag, what, kn,
                     (double)o->depth);
    else if (c.core > tol)
        ok &= CHECKF(dab((double)o->depth - dmx(0.0, r - c.core)) <= tol, "%s: %s_%s: depth %.9g, oracle %.9g", tag,
                     what, kn, (double)o->depth, dmx(0.0, r - c.core));
    else
        ok &= CHECKF((double)o->depth >= r - tol, "%s: %s_%s: the core meets triangle %u, but depth %.9g < radius %.9g",
                     tag, what, kn, (unsigned)id, (double)o->depth, r);
    /* the points */
    vd(tp, o->tree_point);
    vd(sp, o->shape_point);
    vd(nv, o->normal);
    off_t = orc_closest_triangle(tp, T->v[id][0], T->v[id][1], T->v[id][2], tmp);
    off_s = orcc_point_shape(sp, &a->s);
    ok &= CHECKF(off_t <= tol && off_s <= tol, "%s: %s_%s: tree_point %.3g off triangle %u, shape_point %.3g off the shape",
                 tag, what, kn, off_t, (unsigned)id, off_s);
    gap = orc_dist(tp, sp);
    if (a->ball) {
        ok &= CHECKF(dab(to_core(&a->s, tp) - c.core) <= tol, "%s: %s_%s: tree_point %.9g from the core, the triangle %.9g",
                     tag, what, kn, to_core(&a->s, tp), c.core);
        if (c.core > tol)
            ok &= CHECKF(dab(gap - (d + (double)o->depth)) <= 2.0 * tol,
                         "%s: %s_%s: points %.9g apart, distance %.9g + depth %.9g", tag, what, kn, gap, d,
                         (double)o->depth);
    } else {
        ok &= CHECKF(dab(gap - d) <= 2.0 * tol, "%s: %s_%s: points %.9g apart, distance %.9g", tag, what, kn, gap, d);
    }
    nl = orc_len(nv);
    ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: %s_%s: normal of length %.9g", tag, what, kn, nl);
    if (c.core > 1000.0 * tol) {
        double u[3];
        int k;
        for (k = 0; k < 3; k++)
            u[k] = (c.shape_point[k] - c.tri_point[k]) / c.core;
        ok &= CHECKF(nl > 0.0 && orc_dot(nv, u) >= 0.999 * nl,
                     "%s: %s_%s: normal (%.6g, %.6g, %.6g), oracle direction (%.6g, %.6g, %.6g)", tag, what, kn, nv[0],
                     nv[1], nv[2], u[0], u[1], u[2]);
    }
    return ok;
}

static bool judge_shape_distance(const tset *T, const copse_bvh *bvh, const shape_q *q, const pose_case *pc,
                                 const shape_answer *a, const char *tag)
{
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_distance o;
    copse_status st;
    bool ok = true;
    memset(&o, 0x5A, sizeof o);
    st = sq_distance(bvh, q, pc->pose, NULL, &o);
    ok &= check_shape_distance(T, q, a, &o, st, FLT_MAX, true, 0.0, "distance", tag);
    if (a->dstar > 4.0 * a->tol) {
        dq.max_distance = (float)(0.5 * a->dstar);
        st = sq_distance(bvh, q, pc->pose, &dq, &o);
        ok &= check_shape_distance(T, q, a, &o, st, dq.max_distance, true, 0.0, "distance (max below)", tag);
    }
    dq.max_distance = (float)(2.0 * a->dstar + 2.0 * a->tol);
    dq.first_within = true;
    st = sq_distance(bvh, q, pc->pose, &dq, &o);
    ok &= check_shape_distance(T, q, a, &o, st, dq.max_distance, false, (double)dq.max_distance,
                               "distance (first within)", tag);
    return ok;
}

static void describe_shape(const shape_q *q)
{
    if (g_described > 8u)
        return;
    switch (q->kind) {
    case ORCC_SPHERE:
        copse_port_printf("    sphere c=(%.9g, %.9g, %.9g) r=%.9g\n", (double)q->sphere.center.x,
                          (double)q->sphere.center.y, (double)q->sphere.center.z, (double)q->sphere.radius);
        break;
    case ORCC_CAPSULE:
        copse_port_printf("    capsule (%.9g, %.9g, %.9g)-(%.9g, %.9g, %.9g) r=%.9g\n", (double)q->capsule.segment.a.x,
                          (double)q->capsule.segment.a.y, (double)q->capsule.segment.a.z,
                          (double)q->capsule.segment.b.x, (double)q->capsule.segment.b.y,
                          (double)q->capsule.segment.b.z, (double)q->capsule.radius);
        break;
    case ORCC_OBB:
        copse_port_printf("    obb c=(%.9g, %.9g, %.9g) half=(%.9g, %.9g, %.9g), axes of the link\n",
                          (double)q->obb.center.x, (double)q->obb.center.y, (double)q->obb.center.z,
                          (double)q->obb.half.x, (double)q->obb.half.y, (double)q->obb.half.z);
        break;
    default:
        copse_port_printf("    triangle (%.9g, %.9g, %.9g) (%.9g, %.9g, %.9g) (%.9g, %.9g, %.9g)\n", (double)q->tri.a.x,
                          (double)q->tri.a.y, (double)q->tri.a.z, (double)q->tri.b.x, (double)q->tri.b.y,
                          (double)q->tri.b.z, (double)q->tri.c.x, (double)q->tri.c.y, (double)q->tri.c.z);
        break;
    }
}

/* The shape placed by pc against tree body tb (both of its trees), the oracle once. */
static void judge_shape_pose(const body *tb, const shape_q *q, const pose_case *pc, const char *mesh_name)
{
    size_t mark = tk_mark();
    shape_answer a;
    bool ex_any = false, ex_set = false, ok = true;
    unsigned k;
    if (!shape_answer_make(&a, &tb->ts, q, pc, pc->at != COPSE_NONE ? pc->at : 0u)) {
        tk_rewind(mark);
        return;
    }
    for (k = 0; k < 2u; k++) {
        char tag[200];
        (void)copse_port_snprintf(tag, sizeof tag, "%s [tree %u] q%u", tk_ctx(), k, g_query);
        ok &= judge_shape_sets(&tb->ts, &tb->bvh[k], q, pc, &a, &ex_any, &ex_set, tag);
        ok &= judge_shape_distance(&tb->ts, &tb->bvh[k], q, pc, &a, tag);
    }
    tally(ex_any, pc->edge);
    if (q->kind != ORCC_SPHERE)
        tally(ex_set, pc->edge);
    if (!ok) {
        describe_pose(tb->name, mesh_name, pc);
        describe_shape(q);
    }
    tk_rewind(mark);
}

static void link_shape(const body *b, orcc_kind kind, shape_q *q)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->sphere = b->sphere;
    q->capsule = b->capsule;
    q->obb = b->obb;
    q->local_mag = b->local_mag;
}

/* ---- judges: against the scan ----------------------------------------------------------------------- */

static const copse_octree *g_octree;

static void scan_point(uint32_t i, double *p)
{
    vd(p, g_scan[i]);
}

static void orp_make(const shape_q *q, const copse_pose *pose, orp_shape *s)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        orp_sphere(s, &q->sphere, pose);
        break;
    case ORCC_CAPSULE:
        orp_capsule(s, &q->capsule, pose);
        break;
    default:
        orp_obb(s, &q->obb, pose);
        break;
    }
}

typedef struct scan_answer {
    orp_shape s;
    uint8_t *v; /* per point */
    uint32_t best;
    double best_key; /* balls: core distance - radius; boxes: distance */
    double M, band, tol;
    bool any_yes, any_edge, ball;
} scan_answer;

static double scan_key(const scan_answer *a, const double *p, double *closest)
{
    return a->ball ? orp_core_distance(&a->s, p, closest) - a->s.radius : orp_point_distance(&a->s, p, closest);
}

/* Brute force over every point, pruned by the shape's bounding ball: verdicts within the band,
 * the nearest point within the key of `anchor` (ties to the lower id). */
static bool scan_answer_make(scan_answer *a, const shape_q *q, const pose_case *pc, uint32_t anchor)
{
    double c[3], r, box[6], pb[6], p[3], cl[3], key;
    uint32_t i;
    unsigned k;
    memset(a, 0, sizeof *a);
    orp_make(q, pc->pose, &a->s);
    a->ball = kind_ball(q->kind);
    orp_bounding_ball(&a->s, c, &r);
    for (k = 0; k < 3; k++) {
        box[k] = c[k] - r;
        box[3 + k] = c[k] + r;
    }
    a->M = dmx(orp_scale(&a->s), dmx(q->local_mag, orcc_pose_reach(&pc->pose_d, q->local_mag)));
    scan_point(anchor, p);
    a->M = dmx(a->M, orc_max_abs(p));
    a->band = SCAN_BAND_K * ORC_FLT_EPS * a->M;
    a->tol = DIST_K * ORC_FLT_EPS * a->M;
    a->v = (uint8_t *)tk_alloc(g_scan_n + 1u);
    if (a->v == NULL)
        return false;
    memset(a->v, ORC_NO, g_scan_n + 1u);
    a->best = anchor;
    a->best_key = scan_key(a, p, cl);
    for (i = 0; i < g_scan_n; i++) {
        double gap;
        scan_point(i, p);
        point_box(p, pb);
        gap = box_gap(pb, box);
        if (gap > a->band && gap > a->best_key)
            continue;
        if (gap <= a->band) {
            orc_verdict v = orp_point_in(&a->s, p, a->band);
            a->v[i] = (uint8_t)v;
            a->any_yes |= v == ORC_YES;
            a->any_edge |= orc_fragile(v);
        }
        key = scan_key(a, p, cl);
        if (key < a->best_key || (key == a->best_key && i < a->best)) {
            a->best = i;
            a->best_key = key;
        }
    }
    return true;
}

static copse_status scan_any(const shape_q *q, const copse_pose *pose, uint32_t *id)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_octree_any_sphere(g_octree, &q->sphere, pose, id);
    case ORCC_CAPSULE:
        return copse_octree_any_capsule(g_octree, &q->capsule, pose, id);
    default:
        return copse_octree_any_obb(g_octree, &q->obb, pose, id);
    }
}

static copse_status scan_distance(const shape_q *q, const copse_pose *pose, const copse_distance_query *dq,
                                  copse_distance *out)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_distance_sphere_octree(&q->sphere, pose, g_octree, dq, out);
    case ORCC_CAPSULE:
        return copse_distance_capsule_octree(&q->capsule, pose, g_octree, dq, out);
    default:
        return copse_distance_obb_octree(&q->obb, pose, g_octree, dq, out);
    }
}

/* No lower id holds the same point (ties go to the lower id). */
static bool check_scan_tie(uint32_t id, const char *what, const char *tag)
{
    uint32_t j;
    for (j = 0; j < id; j++)
        if (same_v(g_scan[j], g_scan[id]))
            break;
    return CHECKF(j == id, "%s: %s reported point %u, but %u is the same point", tag, what, (unsigned)id, (unsigned)j);
}

static bool check_scan_distance(const scan_answer *a, const shape_q *q, const copse_distance *o, copse_status st,
                                float max_distance, bool exact, double hi, const char *what, const char *tag)
{
    const double tol = a->tol, dstar = dmx(0.0, a->best_key);
    const char *kn = k_kind_names[q->kind];
    double d, key, p[3], sp[3], cl[3], w[3], nl, gap, want_depth;
    bool ok = true, on_core;
    if (!CHECKF(st == COPSE_OK, "%s: %s_%s_octree: %s", tag, what, kn, copse_status_str(st)))
        return false;
    if (o->tree_id == COPSE_NONE) {
        ok &= CHECKF(is_none(o), "%s: %s_%s_octree: no point, but distance %.9g", tag, what, kn, (double)o->distance);
        ok &= CHECKF(dstar > (double)max_distance - tol, "%s: %s_%s_octree found nothing within %.9g, but point %u is %.9g away",
                     tag, what, kn, (double)max_distance, (unsigned)a->best, dstar);
        return ok;
    }
    if (!CHECKF(o->tree_id < g_scan_n && o->shape_id == COPSE_NONE && same_v(o->tree_point, g_scan[o->tree_id]) &&
                    o->distance >= 0.0f && o->distance <= max_distance,
                "%s: %s_%s_octree: id %u, shape id %u, distance %.9g (max %.9g), tree_point not the point's", tag,
                what, kn, (unsigned)o->tree_id, (unsigned)o->shape_id, (double)o->distance, (double)max_distance))
        return false;
    d = (double)o->distance;
    scan_point(o->tree_id, p);
    key = scan_key(a, p, cl);
    ok &= CHECKF(dab(d - dmx(0.0, key)) <= tol, "%s: %s_%s_octree: point %u at %.9g, oracle %.9g for it", tag, what,
                 kn, (unsigned)o->tree_id, d, dmx(0.0, key));
    if (exact) {
        note(q->kind == ORCC_SPHERE ? W_SCAN_SPHERE : q->kind == ORCC_CAPSULE ? W_SCAN_CAPSULE : W_SCAN_OBB,
             dab(d - dstar), a->M);
        ok &= CHECKF(dab(d - dstar) <= tol && key <= a->best_key + 2.0 * tol,
                     "%s: %s_%s_octree %.9g to point %u (key %.9g), oracle %.9g to point %u (key %.9g)", tag, what, kn,
                     d, (unsigned)o->tree_id, key, dstar, (unsigned)a->best, a->best_key);
        ok &= check_scan_tie(o->tree_id, what, tag);
    } else {
        ok &= CHECKF(d >= dstar - tol && d <= hi + tol, "%s: %s_%s_octree %.9g outside [%.9g, %.9g]", tag, what, kn, d,
                     dstar, hi);
    }
    want_depth = a->ball ? dmx(0.0, -key) : 0.0;
    ok &= CHECKF(dab((double)o->depth - want_depth) <= tol, "%s: %s_%s_octree: depth %.9g, oracle %.9g", tag, what, kn,
                 (double)o->depth, want_depth);
    vd(sp, o->shape_point);
    ok &= CHECKF(orp_point_distance(&a->s, sp, cl) <= tol, "%s: %s_%s_octree: shape_point %.3g off the shape", tag,
                 what, kn, orp_point_distance(&a->s, sp, cl));
    gap = orc_dist(p, sp);
    on_core = a->ball && key + a->s.radius <= tol;
    if (!on_core)
        ok &= CHECKF(dab(gap - (o->depth > 0.0f ? (double)o->depth : d)) <= 2.0 * tol,
                     "%s: %s_%s_octree: points %.9g apart, distance %.9g, depth %.9g", tag, what, kn, gap, d,
                     (double)o->depth);
    nl = len_v(o->normal);
    ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: %s_%s_octree: normal of length %.9g", tag, what, kn, nl);
    if (a->ball) {
        (void)orp_core_distance(&a->s, p, cl);
        orc_sub(w, cl, p);
    } else {
        orc_sub(w, sp, p);
    }
    if (orc_len(w) > 1000.0 * tol) {
        double nd[3];
        vd(nd, o->normal);
        ok &= CHECKF(nl > 0.0 && orc_dot(nd, w) >= 0.999 * orc_len(w) * nl,
                     "%s: %s_%s_octree: normal (%.6g, %.6g, %.6g) is not the direction (%.6g, %.6g, %.6g)", tag, what,
                     kn, nd[0], nd[1], nd[2], w[0], w[1], w[2]);
    }
    return ok;
}

static void judge_scan_shape(const shape_q *q, const pose_case *pc, uint32_t anchor, const char *link)
{
    size_t mark = tk_mark();
    const char *kn = k_kind_names[q->kind];
    scan_answer a;
    copse_distance o;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_status st;
    uint32_t id = 0x12345u, *ids = NULL, *buf = NULL, bad = 0, wrong;
    uint8_t *seen = NULL;
    bool ok = true, ex_any = false, ex_set = false, bad_reported = false;
    char tag[200];
    (void)copse_port_snprintf(tag, sizeof tag, "%s q%u", tk_ctx(), g_query);
    if (!scan_answer_make(&a, q, pc, anchor))
        goto done;
    st = scan_any(q, pc->pose, &id);
    ok &= CHECKF(st == COPSE_OK && (id == COPSE_NONE || id < g_scan_n), "%s: octree_any_%s: %s, id %u", tag, kn,
                 copse_status_str(st), (unsigned)id);
    if (id == COPSE_NONE) {
        ok &= CHECKF(!a.any_yes, "%s: octree_any_%s found nothing, but points lie in it (oracle)", tag, kn);
        ex_any = a.any_edge;
    } else if (id < g_scan_n) {
        ok &= CHECKF(a.v[id] != ORC_NO, "%s: octree_any_%s: point %u is outside (oracle)", tag, kn, (unsigned)id);
        ex_any = a.v[id] == ORC_EDGE_NO;
    }
    tally(ex_any, pc->edge);
    if (q->kind == ORCC_OBB) {
        copse_id_list list;
        id_sink sink;
        ids = (uint32_t *)tk_alloc(4u * (g_scan_n + 1u));
        buf = (uint32_t *)tk_alloc(4u * (g_scan_n + 1u));
        seen = (uint8_t *)tk_alloc(g_scan_n + 1u);
        if (ids == NULL || buf == NULL || seen == NULL)
            goto done;
        list = copse_id_list_make(ids, g_scan_n + 1u);
        st = copse_octree_overlap_obb(g_octree, &q->obb, pc->pose, &list);
        ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= g_scan_n, "%s: octree_overlap_obb: %s, %u ids",
                     tag, copse_status_str(st), (unsigned)list.count);
        if (list.count > g_scan_n)
            list.count = 0;
        wrong = judge_id_set(ids, list.count, a.v, g_scan_n, seen, &ex_set, &bad, &bad_reported);
        ok &= CHECKF(wrong == 0u, "%s: octree_overlap_obb: %u points wrong, e.g. %u %s (band %.3g)", tag,
                     (unsigned)wrong, (unsigned)bad,
                     bad_reported ? "reported, the oracle says outside" : "missing, the oracle says inside", a.band);
        ok &= CHECKF((list.count == 0u) == (id == COPSE_NONE), "%s: octree_any_obb gave %u, the list %u ids", tag,
                     (unsigned)id, (unsigned)list.count);
        sink.ids = buf;
        sink.cap = g_scan_n + 1u;
        sink.count = 0;
        st = copse_octree_visit_obb(g_octree, &q->obb, pc->pose, sink_id, &sink);
        ok &= CHECKF(st == COPSE_OK && sink.count == list.count && memcmp(buf, ids, 4u * list.count) == 0,
                     "%s: octree_visit_obb saw %u, the list %u (or in another order)", tag, (unsigned)sink.count,
                     (unsigned)list.count);
        tally(ex_set, pc->edge);
        g_fam[FAM_SCAN].points += list.count;
    }
    memset(&o, 0x5A, sizeof o);
    st = scan_distance(q, pc->pose, NULL, &o);
    ok &= check_scan_distance(&a, q, &o, st, FLT_MAX, true, 0.0, "distance", tag);
    if (dmx(0.0, a.best_key) > 4.0 * a.tol && (g_query & 1u) == 0u) {
        dq.max_distance = (float)(0.5 * a.best_key);
        st = scan_distance(q, pc->pose, &dq, &o);
        ok &= check_scan_distance(&a, q, &o, st, dq.max_distance, true, 0.0, "distance (max below)", tag);
    } else {
        dq.first_within = true;
        dq.max_distance = (float)(1.5 * dmx(0.0, a.best_key) + 4.0 * a.tol);
        st = scan_distance(q, pc->pose, &dq, &o);
        ok &= check_scan_distance(&a, q, &o, st, dq.max_distance, false, (double)dq.max_distance,
                                  "distance (first within)", tag);
    }
done:
    if (!ok) {
        describe_pose("scan", link, pc);
        describe_shape(q);
    }
    tk_rewind(mark);
}

/* A posed link against the scan: the nearest point, and the points within a distance. */
static void judge_scan_mesh(const body *b, const pose_case *pc, uint32_t anchor, double within)
{
    size_t mark = tk_mark();
    tset S;
    double M, tol, band, best, p[3], pb[6];
    uint32_t i, best_id = anchor, sid, *ids, *buf, bad = 0, wrong;
    uint8_t *v, *seen;
    unsigned k;
    bool ok = true, ex_set = false, bad_reported = false;
    char tag[200];
    (void)copse_port_snprintf(tag, sizeof tag, "%s q%u", tk_ctx(), g_query);
    if (!tset_make(&S, &b->mesh, &pc->pose_d, true, false))
        goto done;
    scan_point(anchor, p);
    M = dmx(dmx(S.mag, b->ts.mag), dmx(orcc_pose_reach(&pc->pose_d, b->ts.mag), orc_max_abs(p)));
    tol = DIST_K * ORC_FLT_EPS * M;
    band = SCAN_BAND_K * ORC_FLT_EPS * M;
    /* the nearest point: within the anchor's distance */
    best = tset_point(&S, p, HUGE_VAL, &sid);
    for (i = 0; i < g_scan_n; i++) {
        double d;
        scan_point(i, p);
        point_box(p, pb);
        if (box_gap(pb, S.bounds) > best)
            continue;
        d = tset_point(&S, p, best, &sid);
        if (d < best || (d == best && i < best_id)) {
            best = d;
            best_id = i;
        }
    }
    for (k = 0; k < 2u; k++) {
        copse_distance o;
        copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
        copse_status st;
        memset(&o, 0x5A, sizeof o);
        st = copse_distance_bvh_octree(&b->bvh[k], pc->pose, g_octree, NULL, &o);
        if (!CHECKF(st == COPSE_OK && o.tree_id < g_scan_n && o.shape_id < S.n && o.depth == 0.0f &&
                        same_v(o.tree_point, g_scan[o.tree_id < g_scan_n ? o.tree_id : 0u]),
                    "%s [tree %u]: distance_bvh_octree: %s, point %u, triangle %u, depth %.9g", tag, k,
                    copse_status_str(st), (unsigned)o.tree_id, (unsigned)o.shape_id, (double)o.depth)) {
            ok = false;
            continue;
        }
        {
            double d = (double)o.distance, sp[3], c[3], on, to_tri, key, nl = len_v(o.normal);
            uint32_t t2;
            scan_point(o.tree_id, p);
            vd(sp, o.shape_point);
            on = orc_closest_triangle(sp, S.v[o.shape_id][0], S.v[o.shape_id][1], S.v[o.shape_id][2], c);
            to_tri = orc_closest_triangle(p, S.v[o.shape_id][0], S.v[o.shape_id][1], S.v[o.shape_id][2], c);
            key = tset_point(&S, p, HUGE_VAL, &t2);
            note(W_SCAN_MESH, dab(d - best), M);
            ok &= CHECKF(dab(d - best) <= tol && key <= best + 2.0 * tol,
                         "%s [tree %u]: distance_bvh_octree %.9g to point %u (its distance %.9g), oracle %.9g to point %u",
                         tag, k, d, (unsigned)o.tree_id, key, best, (unsigned)best_id);
            ok &= CHECKF(on <= tol && dab(to_tri - d) <= tol && dab(orc_dist(p, sp) - d) <= 2.0 * tol,
                         "%s [tree %u]: distance_bvh_octree: point %u, triangle %u at %.9g (reported %.9g); shape_point "
                         "%.3g off it, %.9g from the point",
                         tag, k, (unsigned)o.tree_id, (unsigned)o.shape_id, to_tri, d, on, orc_dist(p, sp));
            ok &= check_scan_tie(o.tree_id, "distance_bvh_octree", tag);
            ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: distance_bvh_octree: normal of length %.9g", tag, nl);
            if (d > 1000.0 * tol) {
                double nd[3], w[3];
                vd(nd, o.normal);
                orc_sub(w, sp, p);
                ok &= CHECKF(orc_dot(nd, w) >= 0.999 * orc_len(w) * nl && nl > 0.0,
                             "%s: distance_bvh_octree: normal (%.6g, %.6g, %.6g), direction (%.6g, %.6g, %.6g)", tag,
                             nd[0], nd[1], nd[2], w[0], w[1], w[2]);
            }
        }
        if (best > 4.0 * tol) {
            dq.max_distance = (float)(0.5 * best);
            st = copse_distance_bvh_octree(&b->bvh[k], pc->pose, g_octree, &dq, &o);
            ok &= CHECKF(st == COPSE_OK && is_none(&o), "%s [tree %u]: distance_bvh_octree within %.9g found %.9g (oracle %.9g)",
                         tag, k, (double)dq.max_distance, (double)o.distance, best);
        }
    }
    /* every point within `within` of the surface */
    v = (uint8_t *)tk_alloc(g_scan_n + 1u);
    seen = (uint8_t *)tk_alloc(g_scan_n + 1u);
    ids = (uint32_t *)tk_alloc(4u * (g_scan_n + 1u));
    buf = (uint32_t *)tk_alloc(4u * (g_scan_n + 1u));
    if (v == NULL || seen == NULL || ids == NULL || buf == NULL)
        goto done;
    memset(v, ORC_NO, g_scan_n + 1u);
    for (i = 0; i < g_scan_n; i++) {
        double d;
        scan_point(i, p);
        point_box(p, pb);
        if (box_gap(pb, S.bounds) > within + band)
            continue;
        d = tset_point(&S, p, within + band, &sid);
        if (d == HUGE_VAL)
            continue;
        v[i] = (uint8_t)(d <= within ? (within - d < band ? ORC_EDGE_YES : ORC_YES)
                                     : (d - within < band ? ORC_EDGE_NO : ORC_NO));
    }
    for (k = 0; k < 2u; k++) {
        copse_id_list list = copse_id_list_make(ids, g_scan_n + 1u);
        id_sink sink;
        copse_status st = copse_octree_overlap_bvh(g_octree, &b->bvh[k], pc->pose, (float)within, &list);
        ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= g_scan_n,
                     "%s [tree %u]: octree_overlap_bvh: %s, %u ids", tag, k, copse_status_str(st), (unsigned)list.count);
        if (list.count > g_scan_n)
            list.count = 0;
        wrong = judge_id_set(ids, list.count, v, g_scan_n, seen, &ex_set, &bad, &bad_reported);
        ok &= CHECKF(wrong == 0u, "%s [tree %u]: octree_overlap_bvh within %.9g: %u points wrong, e.g. %u %s", tag, k,
                     within, (unsigned)wrong, (unsigned)bad,
                     bad_reported ? "reported, the oracle says farther" : "missing, the oracle says within");
        sink.ids = buf;
        sink.cap = g_scan_n + 1u;
        sink.count = 0;
        st = copse_octree_visit_bvh(g_octree, &b->bvh[k], pc->pose, (float)within, sink_id, &sink);
        ok &= CHECKF(st == COPSE_OK && sink.count == list.count && memcmp(buf, ids, 4u * list.count) == 0,
                     "%s [tree %u]: octree_visit_bvh saw %u, the list %u (or in another order)", tag, k,
                     (unsigned)sink.count, (unsigned)list.count);
        g_fam[FAM_SCAN].points += list.count;
    }
    tally(ex_set, pc->edge);
    g_fam[FAM_SCAN].poses++;
    for (i = 0; i < g_scan_n && v[i] != ORC_YES; i++)
        ;
    g_fam[FAM_SCAN].touching += i < g_scan_n;
done:
    if (!ok)
        describe_pose("scan", b->name, pc);
    tk_rewind(mark);
}

/* ---- tests ------------------------------------------------------------------------------------------ */

static void begin(unsigned fam, const char *what)
{
    tk_pool_reset();
    tk_tally_begin();
    g_cur_fam = fam;
    g_described = 0;
    tk_context("%s", what);
}

/* The kit's rule (tk_tally_end) without adding to its run total: this suite prints its own. */
static void end(void)
{
    CHECKF(tk_tally_now.excused <= 3u || tk_tally_now.excused * 64u <= tk_tally_now.comparisons,
           "%s: %lu of %lu comparisons needed the boundary band: too many to be rounding", k_fam_names[g_cur_fam],
           tk_tally_now.excused, tk_tally_now.comparisons);
}

/* The shapes of a link, shrunk about their centres by f (1: the bounding ones). */
static void shrink(shape_q *q, float f)
{
    copse_vec3 a = q->capsule.segment.a, b = q->capsule.segment.b, m;
    q->sphere.radius *= f;
    q->capsule.radius *= f;
    m = copse_v3(0.5f * (a.x + b.x), 0.5f * (a.y + b.y), 0.5f * (a.z + b.z));
    q->capsule.segment.a = copse_v3(m.x + f * (a.x - m.x), m.y + f * (a.y - m.y), m.z + f * (a.z - m.z));
    q->capsule.segment.b = copse_v3(m.x + f * (b.x - m.x), m.y + f * (b.y - m.y), m.z + f * (b.z - m.z));
    q->obb.half = copse_v3(f * q->obb.half.x, f * q->obb.half.y, f * q->obb.half.z);
}

static float random_shrink(test_rng *rng)
{
    return test_rng_below(rng, 2) ? 1.0f : (float)urange(rng, 0.2, 1.0);
}

/* The oracle's pruning against its unpruned functions, and a hand case of its own. */
static void test_oracle(void)
{
    static const unsigned pairs[4][2] = {{8, 9}, {7, 8}, {0, 9}, {9, 9}};
    test_rng rng;
    unsigned i, j;
    fam_stats keep = g_fam[FAM_LINKS];
    begin(FAM_LINKS, "oracle");
    if (!need_world())
        return;
    test_rng_seed(&rng, 7100);
    { /* hand cases: a triangle above another's interior; two that cross */
        const double A[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, B[3][3] = {{0.25, 0.25, 0.5}, {1, 1, 2}, {0, 1, 3}},
                     C[3][3] = {{0.25, 0.25, -0.5}, {0.25, 0.25, 0.5}, {0.3, 0.2, 0.5}};
        double pa[3], pb[3];
        CHECK(dab(orcc_triangle_triangle(A, B, pa, pb) - 0.5) < 1e-15 && dab(pa[0] - 0.25) < 1e-15 &&
              dab(pa[1] - 0.25) < 1e-15 && pa[2] == 0.0);
        CHECK(orcc_triangle_triangle(A, C, pa, pb) == 0.0 && orcc_triangles_meet(A, C));
        CHECK(orcc_triangle_verdict(A, B, 0.0) == ORC_NO && orcc_triangle_verdict(A, C, 0.0) == ORC_YES);
    }
    for (i = 0; i < 4u; i++) {
        const body *t = &g_links[pairs[i][0]], *m = &g_links[pairs[i][1]];
        for (j = 0; j < 4u; j++) {
            size_t mark = tk_mark();
            pose_case pc;
            pair_answer a;
            orcc_nearest full;
            uint8_t *verdict = (uint8_t *)tk_alloc((size_t)t->ts.n * m->ts.n + 1u);
            uint32_t tt, s, wrong = 0;
            contact_pose(&pc, t, m, &rng, 0.05);
            tk_context("oracle %s vs %s, pose %u", t->name, m->name, j);
            if (verdict == NULL || !pair_answer_make(&a, t, m, &pc))
                return;
            orcc_pairs_overlap(&t->mesh, &m->mesh, &pc.pose_d, a.band, verdict);
            for (tt = 0; tt < t->ts.n; tt++)
                for (s = 0; s < m->ts.n; s++)
                    wrong += cand_find(a.c, a.nc, tt, s) != (orc_verdict)verdict[(size_t)tt * m->ts.n + s];
            CHECKF(wrong == 0u, "%s: the pruned pair oracle differs from orcc_pairs_overlap on %u pairs", tk_ctx(),
                   (unsigned)wrong);
            orcc_pairs_nearest(&t->mesh, &m->mesh, &pc.pose_d, &full);
            CHECKF(a.meets ? full.c.distance == 0.0 : full.c.distance == a.near.d,
                   "%s: the pruned nearest pair %.17g, orcc_pairs_nearest %.17g", tk_ctx(), a.meets ? 0.0 : a.near.d,
                   full.c.distance);
            tk_rewind(mark);
        }
    }
    for (i = 0; i < 12u; i++) { /* shapes against an obstacle: pruned vs orcc_mesh_query */
        size_t mark = tk_mark();
        const body *t = &g_obst[i % 3u], *l = &g_links[test_rng_below(&rng, N_LINKS)];
        pose_case pc;
        shape_q q;
        shape_answer a;
        orcc_nearest full;
        uint8_t *verdict = (uint8_t *)tk_alloc(t->ts.n + 1u);
        uint32_t k, wrong = 0;
        contact_pose(&pc, t, l, &rng, 0.1);
        link_shape(l, (orcc_kind)(i % 3u), &q);
        shrink(&q, random_shrink(&rng));
        tk_context("oracle %s against %s, pose %u", k_kind_names[q.kind], t->name, i);
        if (verdict == NULL || !shape_answer_make(&a, &t->ts, &q, &pc, pc.at))
            return;
        orcc_mesh_query(&t->mesh, &a.s, a.band, verdict, NULL, &full);
        for (k = 0; k < t->ts.n; k++)
            wrong += verdict[k] != a.v[k];
        CHECKF(wrong == 0u && full.c.core == a.best_key, "%s: the pruned shape oracle: %u verdicts differ; nearest %.17g, "
               "orcc_mesh_query %.17g", tk_ctx(), (unsigned)wrong, a.best_key, full.c.core);
        tk_rewind(mark);
    }
    { /* point against a posed link: pruned vs every triangle */
        size_t mark = tk_mark();
        const body *l = &g_links[12];
        pose_case pc;
        tset S;
        contact_pose(&pc, l, l, &rng, 0.1);
        if (!tset_make(&S, &l->mesh, &pc.pose_d, true, false))
            return;
        for (i = 0; i < 200u; i++) {
            double p[3], want = HUGE_VAL, c[3], got;
            uint32_t t, id;
            for (j = 0; j < 3u; j++)
                p[j] = urange(&rng, S.bounds[j] - 0.05, S.bounds[3 + j] + 0.05);
            for (t = 0; t < S.n; t++) {
                double d = orc_closest_triangle(p, S.v[t][0], S.v[t][1], S.v[t][2], c);
                want = d < want ? d : want;
            }
            got = tset_point(&S, p, i % 2u ? HUGE_VAL : 0.02, &id);
            CHECKF(got == (i % 2u || want <= 0.02 ? want : HUGE_VAL), "oracle: point %u: pruned %.17g, every triangle %.17g",
                   i, got, want);
        }
        tk_rewind(mark);
    }
    g_fam[FAM_LINKS] = keep; /* the runs above are the oracle's, not the suite's */
    end();
}

static void test_links(void)
{
    test_rng rng;
    unsigned i, j, k;
    begin(FAM_LINKS, "links");
    if (!need_world())
        return;
    test_rng_seed(&rng, 7200);
    for (i = 0; i < N_LINKS; i++)
        for (j = 0; j < N_LINKS; j++) {
            if (i == j)
                continue;
            for (k = 0; k < POSES_PER_LINK_PAIR; k++) {
                pose_case pc;
                contact_pose(&pc, &g_links[i], &g_links[j], &rng, 0.2);
                g_query = k;
                tk_context("%s vs %s (posed)", g_links[i].name, g_links[j].name);
                judge_pair_pose(&g_links[i], &g_links[j], &pc);
            }
        }
    end();
}

static void test_obstacles(void)
{
    test_rng rng;
    unsigned i, j, k, s;
    begin(FAM_OBST, "obstacles");
    if (!need_world())
        return;
    test_rng_seed(&rng, 7300);
    for (j = 0; j < N_OBST; j++)
        for (i = 0; i < N_LINKS; i++)
            for (k = 0; k < POSES_PER_OBSTACLE; k++) {
                pose_case pc;
                shape_q q;
                float f;
                contact_pose(&pc, &g_obst[j], &g_links[i], &rng, 0.3);
                g_query = k;
                tk_context("%s in %s", g_links[i].name, g_obst[j].name);
                judge_pair_pose(&g_obst[j], &g_links[i], &pc);
                f = random_shrink(&rng);
                for (s = 0; s < 3u; s++) {
                    link_shape(&g_links[i], (orcc_kind)s, &q);
                    shrink(&q, f);
                    tk_context("%s's %s in %s", g_links[i].name, k_kind_names[s], g_obst[j].name);
                    judge_shape_pose(&g_obst[j], &q, &pc, g_links[i].name);
                }
            }
    end();
}

static void test_scan(void)
{
    test_rng rng;
    ot_point_tree pt;
    unsigned i, s;
    begin(FAM_SCAN, "scan");
    if (!need_world())
        return;
    if (!ot_point_build(&pt, g_scan, NULL, g_scan_n, g_scan_n, 16, 8, 16, 0, 0))
        return;
    g_octree = &pt.tree;
    test_rng_seed(&rng, 7400);
    for (i = 0; i < SCAN_POSES; i++) {
        const body *b = &g_links[i % N_LINKS];
        uint32_t anchor = test_rng_below(&rng, g_scan_n), at = pick_triangle(b, &rng);
        orcc_pose p;
        pose_case pc;
        double P[3], pm[3], u[3], rp[3], h, within;
        shape_q q;
        float f;
        unsigned k;
        memset(&pc, 0, sizeof pc);
        scan_point(anchor, P);
        point_on((const double(*)[3])b->ts.v[at], &rng, pm);
        random_rotation(&rng, &p);
        random_unit(&rng, u);
        h = dab(random_offset(&rng, &pc.edge, 0.3));
        orcc_pose_apply_dir(&p, pm, rp);
        for (k = 0; k < 3u; k++)
            p.t[k] = P[k] + h * u[k] - rp[k];
        set_pose(&pc, &p, false);
        pc.at = COPSE_NONE;
        pc.as = at;
        pc.h = h;
        g_query = i;
        tk_context("%s on the scan at point %u", b->name, (unsigned)anchor);
        within = test_rng_below(&rng, 4) == 0u ? 0.0 : (double)(float)urange(&rng, 0.0, 0.05);
        judge_scan_mesh(b, &pc, anchor, within);
        f = random_shrink(&rng);
        for (s = 0; s < 3u; s++) {
            link_shape(b, (orcc_kind)s, &q);
            shrink(&q, f);
            tk_context("%s's %s on the scan at point %u", b->name, k_kind_names[s], (unsigned)anchor);
            judge_scan_shape(&q, &pc, anchor, b->name);
        }
    }
    g_octree = NULL;
    end();
}

/* Every triangle touches itself and every triangle it shares a corner with: exactly, at NULL
 * and the identity; then the KUKA links against copies moved by a hair. */
static bool share_corner(const tset *T, uint32_t a, uint32_t b)
{
    unsigned i, j;
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            if (T->v[a][i][0] == T->v[b][j][0] && T->v[a][i][1] == T->v[b][j][1] && T->v[a][i][2] == T->v[b][j][2])
                return true;
    return false;
}

static void self_exact(const body *b, const pose_case *pc)
{
    size_t mark = tk_mark();
    pair_answer a;
    unsigned k;
    if (!pair_answer_make(&a, b, b, pc))
        return;
    for (k = 0; k < 2u; k++) {
        uint32_t cap = a.nc + 16u, i, j, missing = 0, miss_t = 0, miss_s = 0, not_meeting = 0;
        copse_pair *pairs = (copse_pair *)tk_alloc(sizeof(copse_pair) * cap);
        copse_pair_list list;
        copse_distance o;
        if (pairs == NULL)
            break;
        list = copse_pair_list_make(pairs, cap);
        CHECK_STATUS(copse_bvh_overlap_bvh(&b->bvh[k], &b->bvh[k], pc->pose, &list, NULL), COPSE_OK);
        qsort(pairs, list.count, sizeof *pairs, pair_cmp);
        for (i = 0, j = 0; i < a.nc; i++) {
            const cand *c = &a.c[i];
            if (c->t != c->s && !share_corner(&b->ts, c->t, c->s))
                continue;
            not_meeting += !orc_exact((orc_verdict)c->v);
            while (j < list.count && (pairs[j].tree_id < c->t || (pairs[j].tree_id == c->t && pairs[j].shape_id < c->s)))
                j++;
            if (!(j < list.count && pairs[j].tree_id == c->t && pairs[j].shape_id == c->s) && missing++ == 0u) {
                miss_t = c->t;
                miss_s = c->s;
            }
        }
        for (i = 0, j = 0; i < b->ts.n; i++) { /* (t, t) is a candidate of every t */
            while (j < a.nc && a.c[j].t < i)
                j++;
            while (j < a.nc && a.c[j].t == i && a.c[j].s < i)
                j++;
            if (!(j < a.nc && a.c[j].t == i && a.c[j].s == i))
                break;
        }
        CHECKF(i == b->ts.n && not_meeting == 0u, "%s: the oracle: triangle %u does not meet itself, %u neighbours apart",
               tk_ctx(), (unsigned)i, (unsigned)not_meeting);
        CHECKF(missing == 0u, "%s [tree %u]: %u pairs that share a corner (or are one triangle) not reported, e.g. (%u, %u)",
               tk_ctx(), k, (unsigned)missing, (unsigned)miss_t, (unsigned)miss_s);
        CHECKF(copse_distance_bvh_bvh(&b->bvh[k], pc->pose, &b->bvh[k], NULL, &o) == COPSE_OK && o.distance == 0.0f,
               "%s [tree %u]: a mesh against itself at %.9g", tk_ctx(), k, (double)o.distance);
        g_fam[FAM_SELF].bitwise++;
    }
    tk_rewind(mark);
}

static void test_self(void)
{
    test_rng rng;
    unsigned i, k;
    begin(FAM_SELF, "self");
    if (!need_world())
        return;
    test_rng_seed(&rng, 7500);
    for (i = 0; i < N_LINKS; i++)
        for (k = 0; k < 2u; k++) {
            pose_case pc;
            orcc_pose id;
            memset(&pc, 0, sizeof pc);
            orcc_pose_identity(&id);
            set_pose(&pc, &id, k == 0u);
            pc.edge = true;
            pc.at = pc.as = 0;
            g_query = k;
            tk_context("%s against itself (%s)", g_links[i].name, k == 0u ? "NULL" : "identity");
            judge_pair_pose(&g_links[i], &g_links[i], &pc);
            self_exact(&g_links[i], &pc);
        }
    for (i = FIRST_KUKA; i < N_LINKS; i++)
        for (k = 0; k < MOVED_POSES; k++) {
            pose_case pc;
            orcc_pose p, r;
            double ax[3], tr[3];
            unsigned c;
            memset(&pc, 0, sizeof pc);
            random_unit(&rng, ax);
            rot_axis_angle(&r, ax, pow(10.0, urange(&rng, -6.0, -2.5)));
            random_unit(&rng, tr);
            p = r;
            for (c = 0; c < 3u; c++)
                p.t[c] = tr[c] * pow(10.0, urange(&rng, -6.0, -2.5));
            set_pose(&pc, &p, false);
            pc.edge = true;
            pc.at = pc.as = pick_triangle(&g_links[i], &rng);
            g_query = k;
            tk_context("%s against a copy moved by %.3g", g_links[i].name, orc_len(p.t));
            judge_pair_pose(&g_links[i], &g_links[i], &pc);
        }
    end();
}

/* ---- corner orders ------------------------------------------------------------------------------- */

static const unsigned k_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

static copse_triangle tri_perm(const copse_vec3 *f, unsigned p)
{
    copse_triangle t;
    t.a = f[k_perm[p][0]];
    t.b = f[k_perm[p][1]];
    t.c = f[k_perm[p][2]];
    return t;
}

static bool zero_area(const double (*v)[3])
{
    double e1[3], e2[3], n[3];
    orc_sub(e1, v[1], v[0]);
    orc_sub(e2, v[2], v[0]);
    orc_cross(n, e1, e2);
    return n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0;
}

/* The worst-conditioned triangles (needles, slivers), one of no area if there is one, then
 * random ones. */
static unsigned sample_triangles(const body *b, test_rng *rng, uint32_t *out, double *worst_cond)
{
    uint32_t worst[4] = {COPSE_NONE, COPSE_NONE, COPSE_NONE, COPSE_NONE}, degen = COPSE_NONE, t;
    double wc[4] = {0.0, 0.0, 0.0, 0.0};
    unsigned n = 0, k;
    for (t = 0; t < b->ts.n; t++) {
        const double(*v)[3] = (const double(*)[3])b->ts.v[t];
        double c;
        if (zero_area(v)) {
            if (degen == COPSE_NONE)
                degen = t;
            continue;
        }
        c = orc_triangle_condition(v[0], v[1], v[2]);
        for (k = 4; k > 0u && c > wc[k - 1u]; k--) {
            if (k < 4u) {
                wc[k] = wc[k - 1u];
                worst[k] = worst[k - 1u];
            }
        }
        if (k < 4u) {
            wc[k] = c;
            worst[k] = t;
        }
    }
    *worst_cond = wc[0];
    for (k = 0; k < 4u; k++)
        if (worst[k] != COPSE_NONE)
            out[n++] = worst[k];
    if (degen != COPSE_NONE)
        out[n++] = degen;
    while (n < ORDER_SAMPLES)
        out[n++] = pick_triangle(b, rng);
    return n;
}

static bool same_ids(const copse_id_list *a, const copse_id_list *b)
{
    return a->count == b->count && a->truncated == b->truncated && memcmp(a->ids, b->ids, 4u * a->count) == 0;
}

/* The triangle as a query in every order, against another link: the same bits; the first order
 * against the oracle. */
static void order_as_query(const body *l, uint32_t t, const copse_vec3 *f, const body *o, test_rng *rng)
{
    size_t mark = tk_mark();
    pose_case pc;
    shape_q q;
    copse_distance d0, d;
    uint32_t id0, id, *ids0 = (uint32_t *)tk_alloc(4u * (o->ts.n + 1u)), *ids = (uint32_t *)tk_alloc(4u * (o->ts.n + 1u));
    copse_id_list l0, li;
    unsigned p;
    bool ok = true;
    if (ids0 == NULL || ids == NULL)
        return;
    contact_pose_at(&pc, o, COPSE_NONE, l, t, rng, 0.05);
    memset(&q, 0, sizeof q);
    q.kind = ORCC_TRIANGLE;
    q.tri = tri_perm(f, 0);
    q.local_mag = l->local_mag;
    judge_shape_pose(o, &q, &pc, l->name);
    for (p = 0; p < 6u; p++) {
        copse_triangle tp = tri_perm(f, p);
        copse_status s1 = copse_distance_triangle_bvh(&tp, pc.pose, &o->bvh[0], NULL, p == 0u ? &d0 : &d);
        copse_status s2 = copse_bvh_any_triangle(&o->bvh[0], &tp, pc.pose, p == 0u ? &id0 : &id);
        copse_status s3;
        if (p == 0u) {
            l0 = copse_id_list_make(ids0, o->ts.n + 1u);
            s3 = copse_bvh_overlap_triangle(&o->bvh[0], &tp, pc.pose, &l0);
            ok &= CHECK(s1 == COPSE_OK && s2 == COPSE_OK && s3 == COPSE_OK);
            continue;
        }
        li = copse_id_list_make(ids, o->ts.n + 1u);
        s3 = copse_bvh_overlap_triangle(&o->bvh[0], &tp, pc.pose, &li);
        g_fam[FAM_ORDER].bitwise += (unsigned)same_distance(&d, &d0) + (id == id0) + same_ids(&li, &l0);
        ok &= CHECKF(s1 == COPSE_OK && same_distance(&d, &d0),
                     "%s: distance_triangle_bvh, corners in order %u: %.9g at %u, in order 0: %.9g at %u (or other points)",
                     tk_ctx(), p, (double)d.distance, (unsigned)d.tree_id, (double)d0.distance, (unsigned)d0.tree_id);
        ok &= CHECKF(s2 == COPSE_OK && id == id0, "%s: any_triangle, corners in order %u: %u, in order 0: %u", tk_ctx(),
                     p, (unsigned)id, (unsigned)id0);
        ok &= CHECKF(s3 == COPSE_OK && same_ids(&li, &l0), "%s: overlap_triangle, corners in order %u: %u ids, in order 0: %u",
                     tk_ctx(), p, (unsigned)li.count, (unsigned)l0.count);
    }
    if (!ok) {
        describe_pose(o->name, l->name, &pc);
        describe_shape(&q);
    }
    tk_rewind(mark);
}

/* Corner orders give the same bits. One documented exception: a sphere's or capsule's core on the
 * triangle is pushed out along the face normal on the winding's side (docs/collide.md), which a
 * reflection of the corners turns around; all else stays. */
static bool order_same(const copse_distance *a, const copse_distance *b, bool core_on_reflected)
{
    if (!core_on_reflected)
        return same_distance(a, b);
    return a->distance == b->distance && a->depth == b->depth && a->tree_id == b->tree_id &&
           a->shape_id == b->shape_id && same_v(a->tree_point, b->tree_point) &&
           (same_v(a->normal, b->normal) || same_v(a->normal, copse_v3(-b->normal.x, -b->normal.y, -b->normal.z)));
}

/* A point near the triangle's plane, inside or beyond its edges. */
static void near_point(const double (*v)[3], double size, test_rng *rng, double *out)
{
    double w[3], s = 0.0, n[3], h = test_rng_below(rng, 4) == 0u ? 0.0 : (test_rng_below(rng, 2) ? 1.0 : -1.0) * size * pow(10.0, urange(rng, -4.0, -0.5));
    unsigned k;
    for (k = 0; k < 3u; k++) {
        w[k] = urange(rng, -0.3, 1.3);
        s += w[k];
    }
    if (dab(s) < 0.1) {
        w[0] += 1.0;
        s += 1.0;
    }
    unit_normal(v, n);
    for (k = 0; k < 3u; k++)
        out[k] = (w[0] * v[0][k] + w[1] * v[1][k] + w[2] * v[2][k]) / s + h * n[k];
}

/* The distance from triangle A to the nearest of ts's triangles (each placed as ts holds them). */
static double tri_to_tset(const double (*A)[3], const tset *ts)
{
    double box[6], best = HUGE_VAL;
    uint32_t s;
    unsigned k, c;
    for (k = 0; k < 3u; k++) {
        box[k] = box[3 + k] = A[0][k];
        for (c = 1; c < 3u; c++) {
            box[k] = A[c][k] < box[k] ? A[c][k] : box[k];
            box[3 + k] = A[c][k] > box[3 + k] ? A[c][k] : box[3 + k];
        }
    }
    for (s = 0; s < ts->n; s++) {
        double d;
        if (box_gap(box, ts->box[s]) > best)
            continue;
        d = orcc_triangle_triangle(A, (const double(*)[3])ts->v[s], NULL, NULL);
        best = d < best ? d : best;
    }
    return best;
}

/* One-triangle trees over the triangle in every order: every query answers with the same bits;
 * the first order against the oracle. */
static void order_as_tree(const body *l, uint32_t t, const copse_vec3 *f, const body *o, test_rng *rng)
{
    size_t mark = tk_mark();
    const double(*v)[3] = (const double(*)[3])l->ts.v[t];
    copse_bvh tiny[6];
    copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    double size = 0.0, M, tol;
    pose_case pc;
    copse_pose inv_f;
    orcc_pose inv;
    tset S;
    unsigned p, k, qn, fails = 0;
    bool ok = true;
    for (k = 0; k < 3u; k++)
        size = dmx(size, orc_dist(v[k], v[(k + 1u) % 3u]));
    if (size == 0.0)
        size = 0.01;
    bp.leaf_size = 1;
    for (p = 0; p < 6u; p++) {
        float *pos = (float *)tk_alloc(9u * sizeof(float));
        size_t bytes = copse_bvh_build_bytes(1, 3, &bp);
        void *mem = tk_alloc(bytes);
        copse_mesh m;
        copse_arena arena;
        if (pos == NULL || mem == NULL)
            return;
        for (k = 0; k < 3u; k++) {
            copse_vec3 c = f[k_perm[p][k]];
            pos[3u * k] = c.x;
            pos[3u * k + 1u] = c.y;
            pos[3u * k + 2u] = c.z;
        }
        memset(&m, 0, sizeof m);
        m.positions = pos;
        m.vertex_count = 3;
        m.triangle_count = 1;
        copse_arena_init(&arena, mem, bytes);
        if (!CHECKF(copse_bvh_build_mesh(&tiny[p], &arena, &m, &bp) == COPSE_OK, "%s: one-triangle tree", tk_ctx()))
            return;
    }
    /* o's mesh placed at the triangle, and the triangle placed at o (the inverse) */
    contact_pose_at(&pc, l, t, o, COPSE_NONE, rng, 0.05);
    orcc_pose_invert(&inv, &pc.pose_d);
    orcc_pose_to_float(&inv_f, &inv);
    orcc_pose_of(&inv, &inv_f);
    if (!tset_make(&S, &o->mesh, &pc.pose_d, false, false))
        return;
    M = dmx(dmx(l->local_mag, S.mag), dmx(o->local_mag, orcc_pose_reach(&pc.pose_d, o->local_mag)));
    tol = DIST_K * ORC_FLT_EPS * M;
    for (qn = 0; qn < 7u; qn++) {
        shape_q q;
        orcc_shape s;
        orcc_contact c;
        copse_distance d[6];
        uint32_t id[6];
        double a[3], b[3], want = 0.0;
        orcc_pose r;
        const char *what = qn < 4u ? k_kind_names[qn] : qn == 4u ? "triangle (posed)" : qn == 5u ? "mesh" : "inverse";
        memset(&q, 0, sizeof q);
        q.local_mag = M;
        q.kind = qn < 3u ? (orcc_kind)qn : ORCC_TRIANGLE;
        near_point(v, size, rng, a);
        near_point(v, size, rng, b);
        q.sphere.center = vf(a);
        q.sphere.radius = (float)(size * urange(rng, 0.0, 0.3));
        q.capsule.segment.a = vf(a);
        q.capsule.segment.b = vf(b);
        q.capsule.radius = (float)(size * urange(rng, 0.0, 0.2));
        q.obb.center = vf(a);
        q.obb.half = copse_v3((float)(size * urange(rng, 0.02, 0.4)), (float)(size * urange(rng, 0.02, 0.4)),
                              (float)(size * urange(rng, 0.02, 0.4)));
        random_rotation(rng, &r);
        for (k = 0; k < 9u; k++)
            q.obb.rotation[k / 3u][k % 3u] = (float)r.r[k / 3u][k % 3u];
        near_point(v, size, rng, b);
        q.tri.a = vf(a);
        q.tri.b = vf(b);
        near_point(v, size, rng, b);
        q.tri.c = vf(b);
        if (qn == 4u) { /* a triangle of o, posed */
            uint32_t s2 = pick_triangle(o, rng);
            q.tri.a = vf(o->ts.v[s2][0]);
            q.tri.b = vf(o->ts.v[s2][1]);
            q.tri.c = vf(o->ts.v[s2][2]);
        }
        for (p = 0; p < 6u; p++) {
            const copse_pose *pose = qn == 4u ? pc.pose : NULL;
            copse_status st;
            memset(&d[p], 0x5A, sizeof d[p]);
            if (qn < 5u) {
                st = sq_distance(&tiny[p], &q, pose, NULL, &d[p]);
                if (st == COPSE_OK)
                    st = sq_any(&tiny[p], &q, pose, &id[p]);
            } else if (qn == 5u) {
                copse_pair w;
                st = copse_distance_bvh_bvh(&o->bvh[0], pc.pose, &tiny[p], NULL, &d[p]);
                if (st == COPSE_OK)
                    st = copse_bvh_any_bvh(&tiny[p], &o->bvh[0], pc.pose, &w, NULL);
                id[p] = w.shape_id;
            } else {
                copse_pair w;
                st = copse_distance_bvh_bvh(&tiny[p], &inv_f, &o->bvh[0], NULL, &d[p]);
                if (st == COPSE_OK)
                    st = copse_bvh_any_bvh(&o->bvh[0], &tiny[p], &inv_f, &w, NULL);
                id[p] = w.tree_id;
            }
            ok &= CHECKF(st == COPSE_OK, "%s: %s on the one-triangle tree (order %u): %s", tk_ctx(), what, p,
                         copse_status_str(st));
            if (p > 0u) {
                bool same = order_same(&d[p], &d[0], p >= 3u && kind_ball(q.kind) && qn < 4u &&
                                                         (double)d[0].depth >= (double)(q.kind == ORCC_SPHERE ? q.sphere.radius : q.capsule.radius));
                if (!same && fails++ == 0u && g_described < 6u) {
                    print_distance("corners in order 0", &d[0]);
                    print_distance("in this order", &d[p]);
                }
                ok &= CHECKF(same && id[p] == id[0],
                             "%s: %s against the triangle in corner order %u (%s): %.9g (any %u), order 0: %.9g (any %u), "
                             "or other bits",
                             tk_ctx(), what, p, p < 3u ? "a rotation" : "a reflection", (double)d[p].distance,
                             (unsigned)id[p], (double)d[0].distance, (unsigned)id[0]);
                g_fam[FAM_ORDER].bitwise += same && id[p] == id[0];
            }
        }
        /* the first order against the oracle */
        if (qn < 5u) {
            shape_make(&q, qn == 4u ? pc.pose : NULL, &s);
            (void)orcc_shape_triangle(&s, v, 0.0, &c);
            want = kind_ball(s.kind) ? dmx(0.0, c.core - s.radius) : c.distance;
        } else if (qn == 5u) {
            want = tri_to_tset(v, &S);
        } else {
            double A[3][3];
            for (k = 0; k < 3u; k++)
                orcc_pose_apply(&inv, v[k], A[k]);
            want = tri_to_tset((const double(*)[3])A, &o->ts);
        }
        note(W_TRIANGLE, dab((double)d[0].distance - want), M);
        ok &= CHECKF(dab((double)d[0].distance - want) <= tol, "%s: %s against the one-triangle tree: %.9g, oracle %.9g",
                     tk_ctx(), what, (double)d[0].distance, want);
        if (!ok)
            break;
    }
    if (!ok) {
        print_tri("the triangle", v);
        describe_pose(l->name, o->name, &pc);
    }
    tk_rewind(mark);
}

static void test_orders(void)
{
    test_rng rng;
    unsigned i, j, n, slivers = 0, degenerate = 0;
    double worst_cond = 0.0;
    begin(FAM_ORDER, "corner orders");
    if (!need_world())
        return;
    test_rng_seed(&rng, 7600);
    for (i = 0; i < N_LINKS; i++) {
        const body *l = &g_links[i];
        uint32_t sample[ORDER_SAMPLES + 8u];
        double wc;
        n = sample_triangles(l, &rng, sample, &wc);
        worst_cond = dmx(worst_cond, wc);
        for (j = 0; j < n; j++) {
            const body *o = &g_links[(i + 1u + test_rng_below(&rng, N_LINKS - 1u)) % N_LINKS];
            const uint32_t t = sample[j];
            copse_vec3 f[3];
            unsigned k;
            for (k = 0; k < 3u; k++)
                f[k] = vf(l->ts.v[t][k]);
            if (zero_area((const double(*)[3])l->ts.v[t]))
                degenerate++;
            else if (orc_triangle_condition(l->ts.v[t][0], l->ts.v[t][1], l->ts.v[t][2]) > 100.0)
                slivers++;
            g_query = j;
            tk_context("%s triangle %u", l->name, (unsigned)t);
            order_as_query(l, t, f, o, &rng);
            order_as_tree(l, t, f, o, &rng);
            g_fam[FAM_ORDER].poses++;
        }
    }
    g_fam[FAM_ORDER].touching = slivers;
    g_fam[FAM_ORDER].pairs = degenerate;
    g_worst_cond = worst_cond;
    end();
}

/* ---- the suite ------------------------------------------------------------------------------------ */

/* One line, printed in pieces (the port's printf formats up to 256 characters a call). */
static void report(void)
{
    unsigned f, w;
    copse_port_printf("info collide_robots:");
    for (f = 0; f < FAMS; f++) {
        const fam_stats *s = &g_fam[f];
        if (f == FAM_ORDER)
            copse_port_printf(" %s: %lu triangles (%lu needles or slivers, condition up to %.3g; %lu of no area) x 6, "
                              "%lu answers bitwise equal to the first order's,",
                              k_fam_names[f], s->poses, s->touching, g_worst_cond, s->pairs, s->bitwise);
        else if (f == FAM_SCAN)
            copse_port_printf(" %s: %lu poses (%lu with points within reach), %lu points listed,", k_fam_names[f],
                              s->poses, s->touching, s->points);
        else
            copse_port_printf(" %s: %lu poses (%lu touching), %lu triangle pairs decided,", k_fam_names[f], s->poses,
                              s->touching, s->pairs);
        copse_port_printf(" %lu comparisons, %lu excused (+%lu on purpose);", s->comparisons, s->excused,
                          s->edge_excused);
    }
    copse_port_printf(" worst distance errors in FLT_EPSILON * M (allowed %.0f; count):", DIST_K);
    for (w = 0; w < WS; w++)
        copse_port_printf(" %s %.1f (%lu)", k_w_names[w], g_worst[w], g_wcount[w]);
    copse_port_printf("\n");
}

static void test_no_data(void)
{
    test_skip("no shared data: run the tests with --data <dir> (make passes ../shared/data)");
}

void suite_collide_robots(void)
{
    const char *data = test_data_dir();
    char path[700];
    FILE *f = NULL;
    if (data != NULL) {
        (void)copse_port_snprintf(g_data, sizeof g_data, "%s", data);
        (void)copse_port_snprintf(path, sizeof path, "%s/%s", g_data, k_link_files[0]);
        f = fopen(path, "r");
    }
    if (f == NULL) {
        test_run("collide_robots/all", test_no_data);
        return;
    }
    fclose(f);
    memset(g_fam, 0, sizeof g_fam);
    memset(g_worst, 0, sizeof g_worst);
    memset(g_wcount, 0, sizeof g_wcount);
    test_run("collide_robots/oracle", test_oracle);
    test_run("collide_robots/links", test_links);
    test_run("collide_robots/obstacles", test_obstacles);
    test_run("collide_robots/scan", test_scan);
    test_run("collide_robots/self", test_self);
    test_run("collide_robots/corner_orders", test_orders);
    if (g_tried)
        report();
    world_free();
}

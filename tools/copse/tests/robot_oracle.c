/* SPDX-License-Identifier: MIT */
/*
 * robot_oracle URDF BLOB DATA CONFIGS DISTANCE_CONFIGS SEED: a baked robot (`copse robot bake`)
 * judged against the URDF it came from and a brute-force double oracle (tools/copse/tests/run.sh).
 *
 *   bake       every link's triangles in the blob = the URDF's collision meshes loaded again here
 *              (assimp), scaled and placed by their origin quaternion in double, rounded once;
 *              every joint origin's rpy (what the bake gives the core) = urdfdom's quaternion;
 *              the allowed pairs = adjacent links, and links joined through links without
 *              geometry (the documented rule)
 *   fk         copse_robot_fk on the viewed blob = URDF forward kinematics in double
 *              (oracle_robot.h's orb_fk over the URDF's double data), random q within the limits
 *   queries    the robot at a base in the laser scan's corridor (DATA/pointclouds/octomap-scan.xyz,
 *              the points within reach, padding 1 cm) among a table, suzanne and the teapot
 *              (DATA/meshes): collides (outside a band), contacts (the set of touching pairs),
 *              distances (per link, world and self, within 64 FLT_EPSILON of the scene's size
 *              plus the float kinematics' error) against every triangle pair and point, pruned
 *              only by exact box bounds
 * Prints "ok   ..." / "FAIL ..." lines and "N passed, M failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copse/robot.h"
#include "mesh_load.h"
#include "oracle/oracle.h"
#include "oracle/oracle_collide.h"
#include "oracle/oracle_robot.h"
#include "pointcloud_load.h"
#include "../robot_tool.h"
#include "../robot_urdf.h"

#define BAND 2e-5          /* contact verdicts: pairs closer than this to touching are not judged */
#define SCAN_PADDING 0.01f
#define MAX_DIST 0.1f      /* distances sought up to this */
#define MAX_TRIS 70000u

static unsigned pass_count, fail_count;

static void ok(const char *what)
{
    printf("ok   %s\n", what);
    pass_count++;
}

static void bad(const char *what)
{
    printf("FAIL %s\n", what);
    fail_count++;
}

static uint64_t rng_state;
static double urand(double lo, double hi)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

/* ---- geometry helpers -------------------------------------------------------------------------- */

typedef struct dtri {
    double v[3][3];
    double lo[3], hi[3];
} dtri;

static void tri_box(dtri *t)
{
    unsigned a, k;
    for (a = 0; a < 3u; a++) {
        t->lo[a] = t->hi[a] = t->v[0][a];
        for (k = 1; k < 3u; k++) {
            t->lo[a] = fmin(t->lo[a], t->v[k][a]);
            t->hi[a] = fmax(t->hi[a], t->v[k][a]);
        }
    }
}

/* Distance between two boxes (0 when they overlap). */
static double box_gap(const double *alo, const double *ahi, const double *blo, const double *bhi)
{
    double s = 0.0;
    unsigned a;
    for (a = 0; a < 3u; a++) {
        double g = fmax(alo[a] - bhi[a], blo[a] - ahi[a]);
        if (g > 0.0)
            s += g * g;
    }
    return sqrt(s);
}

static void quat_matrix(const double *q, double m[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3], n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
}

static void rpy_matrix(const double *rpy, double m[3][3])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]), cy = cos(rpy[2]), sy = sin(rpy[2]);
    m[0][0] = cy * cp, m[0][1] = cy * sp * sr - sy * cr, m[0][2] = cy * sp * cr + sy * sr;
    m[1][0] = sy * cp, m[1][1] = sy * sp * sr + cy * cr, m[1][2] = sy * sp * cr - cy * sr;
    m[2][0] = -sp, m[2][1] = cp * sr, m[2][2] = cp * cr;
}

/* ---- the bake against the URDF ---------------------------------------------------------------- */

static int has_geometry(const copse_robot *r, uint32_t link)
{
    copse_bvh t;
    return (copse_robot_link_tree(r, link, &t) == COPSE_OK && t.mesh.triangle_count > 0) ||
           copse_robot_link_spheres(r, link, NULL, 0) > 0;
}

static void check_bake(const char *urdf_path, const urdf_robot *u, const copse_robot *r, uint8_t *allowed)
{
    unsigned i, k, j, t, bad_links = 0, n = u->link_count;
    double worst = 0.0, rpy_err = 0.0;
    char what[300];
    uint32_t triangles = 0;
    if (r->link_count != u->link_count || r->joint_count != u->joint_count) {
        bad("bake: link or joint count differs from the URDF");
        return;
    }
    for (i = 0; i < n; i++) {
        copse_bvh tree;
        uint32_t at = 0;
        const float *pos;
        const uint32_t *idx;
        int have = copse_robot_link_tree(r, i, &tree) == COPSE_OK && tree.mesh.triangle_count > 0;
        pos = have ? tree.mesh.positions : NULL;
        idx = have ? (const uint32_t *)tree.mesh.indices : NULL;
        for (k = 0; k < u->links[i].geom_count; k++) {
            const urdf_geom *g = &u->links[i].geoms[k];
            char path[2048], tried[4096], err[2600];
            host_mesh hm;
            double m[3][3];
            if (g->kind != URDF_MESH)
                continue; /* the shared robots have meshes only */
            if (robot_resolve_mesh(urdf_path, g->filename, path, sizeof path, tried, sizeof tried) != 0 ||
                host_mesh_load(path, &hm, err, sizeof err) != 0) {
                bad_links++;
                continue;
            }
            quat_matrix(g->origin.quat, m);
            for (t = 0; t < hm.triangle_count && have && at + t < tree.mesh.triangle_count; t++)
                for (j = 0; j < 3u; j++) {
                    const float *src = hm.positions + 3u * hm.indices[3u * t + j];
                    const float *got = pos + 3u * idx[3u * (at + t) + j];
                    double v[3];
                    unsigned a;
                    for (a = 0; a < 3u; a++)
                        v[a] = (double)src[a] * g->scale[a];
                    for (a = 0; a < 3u; a++) {
                        double want = m[a][0] * v[0] + m[a][1] * v[1] + m[a][2] * v[2] + g->origin.xyz[a];
                        double e = fabs((double)got[a] - want) / (fabs(want) + 1e-30);
                        if (fabs((double)got[a] - want) > ORC_FLT_EPS * 0.5 * fabs(want) * (1.0 + 1e-9) + 1e-45)
                            worst = fmax(worst, e);
                    }
                }
            at += hm.triangle_count;
            host_mesh_free(&hm);
        }
        if ((have ? tree.mesh.triangle_count : 0u) != at)
            bad_links++;
        triangles += at;
    }
    snprintf(what, sizeof what, "bake: %u links, %u triangles: every corner = the URDF's mesh placed in double, rounded once",
             n, (unsigned)triangles);
    if (bad_links == 0 && worst == 0.0)
        ok(what);
    else {
        printf("     %u links with wrong counts, worst relative error %g\n", bad_links, worst);
        bad(what);
    }
    for (j = 0; j < u->joint_count; j++) {
        double a[3][3], b[3][3];
        unsigned x, y;
        quat_matrix(u->joints[j].origin.quat, a);
        rpy_matrix(u->joints[j].origin.rpy, b);
        for (x = 0; x < 3u; x++)
            for (y = 0; y < 3u; y++)
                rpy_err = fmax(rpy_err, fabs(a[x][y] - b[x][y]));
    }
    snprintf(what, sizeof what, "bake: every joint origin's rpy (given to the core) = urdfdom's quaternion (max %.1g)", rpy_err);
    if (rpy_err < 1e-12)
        ok(what);
    else
        bad("bake: a joint origin's rpy is not urdfdom's rotation");
    /* allowed: adjacent, and joined through links without geometry */
    memset(allowed, 0, (size_t)n * n);
    for (i = 0; i < n; i++)
        allowed[i * n + i] = 1;
    for (j = 0; j < u->joint_count; j++) {
        unsigned c = u->joints[j].child, p = u->joints[j].parent;
        allowed[c * n + p] = allowed[p * n + c] = 1;
        if (!has_geometry(r, c))
            continue;
        while (p != 0 && !has_geometry(r, p)) {
            unsigned q;
            for (q = 0; q < u->joint_count && u->joints[q].child != p; q++)
                ;
            p = u->joints[q].parent;
        }
        if (has_geometry(r, p))
            allowed[c * n + p] = allowed[p * n + c] = 1;
    }
    for (i = 0, k = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (i != j && (allowed[i * n + j] != 0) != copse_robot_allowed(r, i, j))
                k++;
    if (k == 0)
        ok("bake: the allowed pairs are the adjacent ones and those joined through links without geometry");
    else
        bad("bake: the robot's allowed matrix differs from the documented rule");
}

/* ---- the scene ------------------------------------------------------------------------------------ */

typedef struct scene {
    unsigned n;                  /* links */
    dtri *link_tris[COPSE_ROBOT_MAX_LINKS];
    unsigned link_tri_count[COPSE_ROBOT_MAX_LINKS];
    copse_mesh link_mesh[COPSE_ROBOT_MAX_LINKS];
    double link_lo[COPSE_ROBOT_MAX_LINKS][3], link_hi[COPSE_ROBOT_MAX_LINKS][3];
    dtri *world;                 /* every world triangle in the world frame */
    unsigned *world_mesh;        /* its mesh */
    unsigned world_count;
    double *points;              /* the cropped scan, double */
    unsigned point_count;
} scene;

static void pose_links(scene *s, const orcc_pose *poses)
{
    unsigned l, t, k;
    for (l = 0; l < s->n; l++) {
        for (k = 0; k < 3u; k++)
            s->link_lo[l][k] = DBL_MAX, s->link_hi[l][k] = -DBL_MAX;
        for (t = 0; t < s->link_tri_count[l]; t++) {
            dtri *d = &s->link_tris[l][t];
            orcc_mesh_triangle_posed(&s->link_mesh[l], t, &poses[l], d->v);
            tri_box(d);
            for (k = 0; k < 3u; k++) {
                s->link_lo[l][k] = fmin(s->link_lo[l][k], d->lo[k]);
                s->link_hi[l][k] = fmax(s->link_hi[l][k], d->hi[k]);
            }
        }
    }
}

/* Smallest distance between two triangle sets, when below cutoff (else cutoff). Only triangles
 * whose box is within the running best of the other set's box can matter: both sides are
 * filtered by that first (exact: a box gap is a lower bound on the distance). */
static double tris_tris(const dtri *a, unsigned na, const dtri *b, unsigned nb, double cutoff)
{
    double best = cutoff, alo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, ahi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    double blo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, bhi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    unsigned i, j, k, ma = 0, mb = 0, *ia, *ib;
    for (i = 0; i < na; i++)
        for (k = 0; k < 3u; k++)
            alo[k] = fmin(alo[k], a[i].lo[k]), ahi[k] = fmax(ahi[k], a[i].hi[k]);
    for (j = 0; j < nb; j++)
        for (k = 0; k < 3u; k++)
            blo[k] = fmin(blo[k], b[j].lo[k]), bhi[k] = fmax(bhi[k], b[j].hi[k]);
    ia = (unsigned *)malloc(sizeof *ia * (na + 1u));
    ib = (unsigned *)malloc(sizeof *ib * (nb + 1u));
    for (i = 0; i < na; i++)
        if (box_gap(a[i].lo, a[i].hi, blo, bhi) <= cutoff)
            ia[ma++] = i;
    for (j = 0; j < nb; j++)
        if (box_gap(b[j].lo, b[j].hi, alo, ahi) <= cutoff)
            ib[mb++] = j;
    for (i = 0; i < ma; i++)
        for (j = 0; j < mb; j++) {
            const dtri *x = &a[ia[i]], *y = &b[ib[j]];
            double d;
            if (box_gap(x->lo, x->hi, y->lo, y->hi) > best)
                continue;
            d = orcc_triangle_triangle((const double (*)[3])x->v, (const double (*)[3])y->v, NULL, NULL);
            best = fmin(best, d);
        }
    free(ia);
    free(ib);
    return best;
}

static double tris_points(const dtri *a, unsigned na, const double *lo, const double *hi, const double *pts,
                          unsigned np, double cutoff)
{
    double best = cutoff;
    unsigned i, j;
    for (j = 0; j < np; j++) {
        const double *p = pts + 3u * j;
        if (box_gap(lo, hi, p, p) > best)
            continue;
        for (i = 0; i < na; i++) {
            double x[3];
            if (box_gap(a[i].lo, a[i].hi, p, p) > best)
                continue;
            best = fmin(best, orc_closest_triangle(p, a[i].v[0], a[i].v[1], a[i].v[2], x));
        }
    }
    return best;
}

/* Padded distance of (link, kind, other), when below cutoff (else cutoff). */
static double pair_distance(const scene *s, unsigned link, unsigned kind, unsigned other, double cutoff)
{
    const dtri *a = s->link_tris[link];
    unsigned na = s->link_tri_count[link];
    if (kind == COPSE_CONTACT_SELF)
        return box_gap(s->link_lo[link], s->link_hi[link], s->link_lo[other], s->link_hi[other]) > cutoff
                   ? cutoff
                   : tris_tris(a, na, s->link_tris[other], s->link_tri_count[other], cutoff);
    if (kind == COPSE_CONTACT_SCAN) {
        double reach = cutoff + (double)SCAN_PADDING,
               d = tris_points(a, na, s->link_lo[link], s->link_hi[link], s->points, s->point_count, reach);
        return d >= reach ? cutoff : d - (double)SCAN_PADDING;
    }
    {
        unsigned first = 0, end;
        while (first < s->world_count && s->world_mesh[first] != other)
            first++;
        for (end = first; end < s->world_count && s->world_mesh[end] == other; end++)
            ;
        return tris_tris(a, na, s->world + first, end - first, cutoff);
    }
}

/* ---- main ------------------------------------------------------------------------------------------ */

static int add_world_mesh(scene *s, const char *path, double scale, const double *at, double yaw, copse_bvh *tree,
                          host_mesh *hm, copse_world_mesh *wm, void **mem)
{
    char err[700];
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    copse_mesh m;
    orcc_pose op;
    unsigned k, t;
    size_t bytes;
    if (host_mesh_load(path, hm, err, sizeof err) != 0) {
        printf("skip robot oracle: %s\n", err);
        return -1;
    }
    for (k = 0; k < 3u * hm->vertex_count; k++) {
        lo[k % 3u] = fmin(lo[k % 3u], hm->positions[k]);
        hi[k % 3u] = fmax(hi[k % 3u], hm->positions[k]);
    }
    for (k = 0; k < 3u * hm->vertex_count; k++) /* centred on its box, scaled */
        hm->positions[k] = (float)(((double)hm->positions[k] - 0.5 * (lo[k % 3u] + hi[k % 3u])) * scale);
    m = host_mesh_view(hm);
    bytes = copse_bvh_build_bytes(m.triangle_count, 3u, &params);
    *mem = malloc(bytes);
    copse_arena_init(&arena, *mem, bytes);
    if (copse_bvh_build_mesh(tree, &arena, &m, &params) != COPSE_OK)
        return -1;
    wm->tree = tree;
    copse_pose_from_xyz_rpy(&wm->pose, copse_v3((float)at[0], (float)at[1], (float)at[2]), copse_v3(0.0f, 0.0f, (float)yaw));
    orcc_pose_of(&op, &wm->pose);
    s->world = (dtri *)realloc(s->world, sizeof *s->world * (s->world_count + m.triangle_count));
    s->world_mesh = (unsigned *)realloc(s->world_mesh, sizeof *s->world_mesh * (s->world_count + m.triangle_count));
    for (t = 0; t < m.triangle_count; t++) {
        orcc_mesh_triangle_posed(&m, t, &op, s->world[s->world_count].v);
        tri_box(&s->world[s->world_count]);
        s->world_mesh[s->world_count++] = 0u; /* set by the caller */
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *urdf_path, *blob_path, *data;
    unsigned configs, dist_configs, i, l, k, n, dof;
    urdf_robot u;
    char err[2048], path[1024], what[400];
    void *blob;
    size_t len;
    FILE *f;
    copse_robot robot;
    orb_joint *oj;
    orb_link *ol;
    orb_robot orobot;
    uint8_t *allowed;
    scene s;
    static host_mesh hms[3];
    static copse_bvh trees[3];
    static copse_world_mesh wms[3];
    void *tree_mem[3] = {NULL, NULL, NULL}, *octree_pool = NULL;
    host_points scan;
    float *cropped;
    copse_octree octree;
    copse_world world;
    double base_xyz[3] = {3.0, 0.0, -0.05}, fk_err = 0.0, dist_err = 0.0, mag;
    orcc_pose obase;
    copse_pose base;
    unsigned yes = 0, edge = 0, fails_collide = 0, fails_contacts = 0, fails_dist = 0, contacts_total = 0;
    clock_t start = clock();
    if (argc < 7) {
        fprintf(stderr, "usage: robot_oracle URDF BLOB DATA CONFIGS DISTANCE_CONFIGS SEED\n");
        return 2;
    }
    urdf_path = argv[1], blob_path = argv[2], data = argv[3];
    configs = (unsigned)atoi(argv[4]), dist_configs = (unsigned)atoi(argv[5]);
    rng_state = (uint64_t)atoll(argv[6]);
    if (urdf_load(urdf_path, &u, err, sizeof err) != 0) {
        printf("FAIL %s\n0 passed, 1 failed\n", err);
        return 1;
    }
    if ((f = fopen(blob_path, "rb")) == NULL) {
        printf("FAIL %s: cannot open\n0 passed, 1 failed\n", blob_path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    if (posix_memalign(&blob, 16, len + 1u) != 0 || fread(blob, 1, len, f) != len) {
        fclose(f);
        return 1;
    }
    fclose(f);
    if (copse_robot_view(&robot, blob, len) != COPSE_OK) {
        printf("FAIL %s: copse_robot_view refused it\n0 passed, 1 failed\n", blob_path);
        return 1;
    }
    n = u.link_count;
    allowed = (uint8_t *)calloc((size_t)n * n, 1);
    check_bake(urdf_path, &u, &robot, allowed);

    /* the oracle's robot: URDF data in double, the blob's float meshes */
    memset(&s, 0, sizeof s);
    s.n = n;
    oj = (orb_joint *)calloc(u.joint_count + 1u, sizeof *oj);
    ol = (orb_link *)calloc(n, sizeof *ol);
    for (k = 0; k < u.joint_count; k++) {
        const urdf_joint *j = &u.joints[k];
        oj[k].type = j->kind == URDF_REVOLUTE ? 1u : j->kind == URDF_CONTINUOUS ? 2u : j->kind == URDF_PRISMATIC ? 3u : 0u;
        oj[k].parent = j->parent, oj[k].child = j->child;
        memcpy(oj[k].xyz, j->origin.xyz, sizeof oj[k].xyz);
        memcpy(oj[k].rpy, j->origin.rpy, sizeof oj[k].rpy);
        memcpy(oj[k].axis, j->axis, sizeof oj[k].axis);
        if (oj[k].type == 0u)
            oj[k].axis[2] = 1.0;
        oj[k].lower = j->lower, oj[k].upper = j->upper;
        oj[k].mimic = j->mimic, oj[k].multiplier = j->multiplier, oj[k].offset = j->offset;
    }
    for (l = 0; l < n; l++) {
        copse_bvh t;
        if (copse_robot_link_tree(&robot, l, &t) == COPSE_OK && t.mesh.triangle_count > 0) {
            s.link_mesh[l] = t.mesh;
            s.link_tri_count[l] = t.mesh.triangle_count;
            s.link_tris[l] = (dtri *)malloc(sizeof(dtri) * t.mesh.triangle_count);
            ol[l].positions = t.mesh.positions;
            ol[l].indices = (const uint32_t *)t.mesh.indices;
            ol[l].triangle_count = t.mesh.triangle_count;
        }
    }
    memset(&orobot, 0, sizeof orobot);
    orobot.links = ol, orobot.link_count = n, orobot.joints = oj, orobot.joint_count = u.joint_count;
    orobot.allowed = allowed;
    dof = orb_dof(&orobot);
    if (dof != copse_robot_dof(&robot)) {
        bad("fk: the blob's variable count differs from the URDF's");
        return 1;
    }

    /* the world: a table, suzanne, the teapot around the base; the scan near it */
    memset(&world, 0, sizeof world);
    {
        static const char *const names[3] = {"table", "suzanne.obj", "teapot.obj"};
        static const double scale[3] = {0.0, 0.35, 0.07}, off[3][3] = {{0.6, 0.0, 0.28}, {0.25, 0.5, 0.55}, {-0.35, -0.45, 0.6}};
        FILE *tf;
        unsigned m;
        snprintf(path, sizeof path, "%s/table.obj", getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
        if ((tf = fopen(path, "w")) == NULL)
            return 1;
        /* a 0.5 x 0.9 x 0.04 table top (unit box scaled below) */
        fprintf(tf, "v -0.25 -0.45 -0.02\nv 0.25 -0.45 -0.02\nv -0.25 0.45 -0.02\nv 0.25 0.45 -0.02\n"
                    "v -0.25 -0.45 0.02\nv 0.25 -0.45 0.02\nv -0.25 0.45 0.02\nv 0.25 0.45 0.02\n"
                    "f 1 3 2\nf 2 3 4\nf 5 6 7\nf 6 8 7\nf 1 2 5\nf 2 6 5\nf 3 7 4\nf 4 7 8\nf 1 5 3\nf 3 5 7\nf 2 4 6\nf 4 8 6\n");
        fclose(tf);
        for (m = 0; m < 3u; m++) {
            char mp[1024];
            double at[3];
            unsigned before = s.world_count, t;
            if (m == 0)
                snprintf(mp, sizeof mp, "%s", path);
            else
                snprintf(mp, sizeof mp, "%s/meshes/%s", data, names[m]);
            for (k = 0; k < 3u; k++)
                at[k] = base_xyz[k] + off[m][k];
            /* the table's box is already in metres: scale 1 */
            if (add_world_mesh(&s, mp, m == 0 ? 1.0 : scale[m], at, 0.4 * m, &trees[m], &hms[m], &wms[m], &tree_mem[m]) != 0)
                return 1;
            for (t = before; t < s.world_count; t++)
                s.world_mesh[t] = m;
        }
        world.meshes = wms;
        world.mesh_count = 3;
    }
    snprintf(path, sizeof path, "%s/pointclouds/octomap-scan.xyz", data);
    if (host_points_load(path, &scan, err, sizeof err) != 0) {
        printf("skip robot oracle: %s\n", err);
        return 0;
    }
    cropped = (float *)malloc(sizeof(float) * 3u * scan.count);
    s.points = (double *)malloc(sizeof(double) * 3u * scan.count);
    for (i = 0; i < scan.count; i++) {
        const float *p = scan.xyz + 3u * i;
        if (fabs((double)p[0] - base_xyz[0]) < 1.4 && fabs((double)p[1] - base_xyz[1]) < 1.4 && (double)p[2] < base_xyz[2] + 1.6) {
            for (k = 0; k < 3u; k++) {
                cropped[3u * s.point_count + k] = p[k];
                s.points[3u * s.point_count + k] = (double)p[k];
            }
            s.point_count++;
        }
    }
    {
        copse_octree_config cfg;
        copse_arena arena, scratch;
        uint32_t nodes = 0, buckets = 0;
        void *sm = NULL;
        memset(&cfg, 0, sizeof cfg);
        cfg.points = (const copse_vec3 *)(const void *)cropped;
        cfg.point_capacity = s.point_count;
        cfg.bounds = copse_box3_make(0, 0, 0, 1, 1, 1);
        cfg.max_nodes = 1, cfg.leaf_size = 8, cfg.bucket_size = 8, cfg.max_depth = 16;
        for (k = 0; k < 2u; k++) {
            size_t b = copse_octree_bytes(&cfg), sb;
            free(octree_pool);
            free(sm);
            octree_pool = malloc(b);
            copse_arena_init(&arena, octree_pool, b);
            copse_octree_init(&octree, &arena, &cfg);
            sb = copse_octree_build_scratch_bytes(&octree, s.point_count);
            sm = malloc(sb + 1u);
            copse_arena_init(&scratch, sm, sb);
            if ((k == 0 ? copse_octree_measure(&octree, &scratch, s.point_count, &nodes, &buckets)
                        : copse_octree_build(&octree, &scratch, s.point_count)) != COPSE_OK) {
                bad("queries: the scan's octree did not build");
                return 1;
            }
            cfg.max_nodes = nodes, cfg.max_buckets = buckets;
        }
        free(sm);
        world.scan = &octree;
        world.scan_padding = SCAN_PADDING;
    }
    copse_pose_from_xyz_rpy(&base, copse_v3((float)base_xyz[0], (float)base_xyz[1], (float)base_xyz[2]), copse_v3(0, 0, 0));
    orcc_pose_of(&obase, &base);

    /* random configurations */
    {
        float *q = (float *)calloc(dof + 1u, sizeof *q);
        double *qd = (double *)calloc(dof + 1u, sizeof *qd);
        copse_pose *poses = (copse_pose *)calloc(n, sizeof *poses);
        orcc_pose *op = (orcc_pose *)calloc(n, sizeof *op);
        copse_robot_contact first, contacts[256];
        copse_link_distance dist[COPSE_ROBOT_MAX_LINKS];
        uint32_t count;
        bool truncated;
        mag = 0.0;
        for (i = 0; i < configs; i++) {
            unsigned v;
            int any_yes = 0, any_edge = 0;
            for (v = 0; v < dof; v++) {
                uint32_t joint;
                float lo, hi;
                copse_robot_variable(&robot, v, &joint, &lo, &hi);
                if (lo == -FLT_MAX)
                    lo = -3.14159f, hi = 3.14159f;
                q[v] = (float)urand((double)lo, (double)hi);
                q[v] = q[v] < lo ? lo : q[v] > hi ? hi : q[v];
                qd[v] = (double)q[v];
            }
            if (copse_robot_fk(&robot, q, &base, poses) != COPSE_OK || !orb_fk(&orobot, qd, &obase, op)) {
                bad("fk: a configuration within the limits failed");
                break;
            }
            for (l = 0; l < n; l++) {
                unsigned x, y;
                for (x = 0; x < 3u; x++) {
                    fk_err = fmax(fk_err, fabs((double)poses[l].translation.x * (x == 0) + (double)poses[l].translation.y * (x == 1) +
                                               (double)poses[l].translation.z * (x == 2) - op[l].t[x]));
                    for (y = 0; y < 3u; y++)
                        fk_err = fmax(fk_err, fabs((double)poses[l].rotation[x][y] - op[l].r[x][y]));
                }
            }
            pose_links(&s, op);
            for (l = 0; l < n; l++)
                for (k = 0; k < 3u && s.link_tri_count[l] > 0; k++)
                    mag = fmax(mag, fmax(fabs(s.link_lo[l][k]), fabs(s.link_hi[l][k])));
            /* every pair's verdict */
            {
                uint8_t verdict[COPSE_ROBOT_MAX_LINKS][COPSE_ROBOT_MAX_LINKS + 4];
                unsigned ncontact = 0, c;
                memset(verdict, 0, sizeof verdict);
                for (l = 0; l < n; l++) {
                    unsigned o;
                    if (s.link_tri_count[l] == 0)
                        continue;
                    for (o = 0; o < n + 4u; o++) {
                        unsigned kind = o < n ? COPSE_CONTACT_SELF : o < n + 3u ? COPSE_CONTACT_MESH : COPSE_CONTACT_SCAN;
                        double d;
                        if (o < n && (o <= l || allowed[l * n + o] || s.link_tri_count[o] == 0))
                            continue;
                        if (o == n + 3u && s.point_count == 0)
                            continue;
                        d = pair_distance(&s, l, kind, o < n ? o : o - n, BAND);
                        /* 3 yes, 2 within the band, 1 no; meshes that meet (0) are refined below */
                        verdict[l][o] = d < -BAND ? 3u : d < BAND ? 2u : 1u;
                        if (kind != COPSE_CONTACT_SCAN && d == 0.0)
                            verdict[l][o] = 3u;
                    }
                }
                /* triangle pairs that meet have distance 0: graze pairs (touching within the band)
                 * are re-judged with orcc_triangle_verdict's penetration depth */
                for (l = 0; l < n; l++) {
                    unsigned o;
                    for (o = 0; o < n + 3u; o++) {
                        const dtri *a = s.link_tris[l];
                        unsigned na = s.link_tri_count[l], t, j, deep = 0;
                        if (verdict[l][o] != 3u || o == n + 3u)
                            continue;
                        for (t = 0; t < na && !deep; t++) {
                            const dtri *b = o < n ? s.link_tris[o] : s.world;
                            unsigned nb = o < n ? s.link_tri_count[o] : s.world_count;
                            for (j = 0; j < nb && !deep; j++) {
                                if ((o >= n && s.world_mesh[j] != o - n) || box_gap(a[t].lo, a[t].hi, b[j].lo, b[j].hi) > 0.0)
                                    continue;
                                if (orcc_triangle_verdict((const double (*)[3])a[t].v, (const double (*)[3])b[j].v, BAND) == ORC_YES)
                                    deep = 1;
                            }
                        }
                        if (!deep)
                            verdict[l][o] = 2u;
                    }
                }
                any_yes = any_edge = 0;
                for (l = 0; l < n; l++)
                    for (k = 0; k < n + 4u; k++)
                        any_yes |= verdict[l][k] == 3u, any_edge |= verdict[l][k] == 2u;
                if (copse_robot_collides(&robot, &world, poses, COPSE_ROBOT_CHECK_DEFAULT, &first) != COPSE_OK)
                    fails_collide++;
                else if ((any_yes && first.kind == COPSE_CONTACT_NONE) || (!any_yes && !any_edge && first.kind != COPSE_CONTACT_NONE)) {
                    if (fails_collide++ < 3)
                        printf("     config %u: copse says %s, the oracle %s\n", i, first.kind ? "collision" : "clear",
                               any_yes ? "collision" : "clear");
                }
                yes += any_yes != 0;
                edge += !any_yes && any_edge;
                if (copse_robot_contacts(&robot, &world, poses, COPSE_ROBOT_CHECK_DEFAULT, contacts, 256, &count, &truncated) != COPSE_OK ||
                    truncated) {
                    fails_contacts++;
                    continue;
                }
                {
                    uint8_t seen[COPSE_ROBOT_MAX_LINKS][COPSE_ROBOT_MAX_LINKS + 4];
                    memset(seen, 0, sizeof seen);
                    for (c = 0; c < count; c++) {
                        unsigned a = contacts[c].link, o = contacts[c].other;
                        unsigned col = contacts[c].kind == COPSE_CONTACT_SELF ? o : contacts[c].kind == COPSE_CONTACT_MESH ? n + o : n + 3u;
                        if (contacts[c].kind == COPSE_CONTACT_SELF && o < a)
                            col = a, a = o;
                        if (a >= n || col >= n + 4u) {
                            fails_contacts++;
                            continue;
                        }
                        seen[a][col] = 1;
                        if (verdict[a][col] == 1u || verdict[a][col] == 0u) {
                            if (fails_contacts++ < 3)
                                printf("     config %u: copse reports contact (link %u, %u), the oracle finds them apart\n", i, a, col);
                        }
                    }
                    for (l = 0; l < n; l++)
                        for (k = 0; k < n + 4u; k++)
                            if (verdict[l][k] == 3u && !seen[l][k] && fails_contacts++ < 3)
                                printf("     config %u: contact (link %u, %u) missing\n", i, l, k);
                    contacts_total += count;
                    ncontact += count;
                }
            }
            /* distances, on a share of the configurations */
            if (dist_configs > 0 && i % (configs / dist_configs > 0 ? configs / dist_configs : 1u) == 0) {
                double tol;
                if (copse_robot_distances(&robot, &world, poses, COPSE_ROBOT_CHECK_DEFAULT, MAX_DIST, dist) != COPSE_OK) {
                    fails_dist++;
                    continue;
                }
                tol = 64.0 * ORC_FLT_EPS * fmax(mag, 1.0) + 8.0 * fk_err * fmax(mag, 1.0);
                for (l = 0; l < n; l++) {
                    double w = MAX_DIST, self = MAX_DIST, gw, gs;
                    unsigned o;
                    if (s.link_tri_count[l] == 0)
                        continue;
                    for (o = 0; o < 3u; o++)
                        w = fmin(w, pair_distance(&s, l, COPSE_CONTACT_MESH, o, w));
                    if (s.point_count > 0)
                        w = fmin(w, pair_distance(&s, l, COPSE_CONTACT_SCAN, 0, w));
                    for (o = 0; o < n; o++)
                        if (o != l && !allowed[l * n + o] && s.link_tri_count[o] > 0)
                            self = fmin(self, pair_distance(&s, l, COPSE_CONTACT_SELF, o, self));
                    gw = dist[l].world == FLT_MAX ? (double)MAX_DIST : (double)dist[l].world;
                    gs = dist[l].self == FLT_MAX ? (double)MAX_DIST : (double)dist[l].self;
                    if (fabs(gw - w) > tol || fabs(gs - self) > tol) {
                        if (fails_dist++ < 3)
                            printf("     config %u link %u: copse world %.9g self %.9g, oracle %.9g %.9g (tol %.3g)\n", i, l, gw,
                                   gs, w, self, tol);
                    }
                    dist_err = fmax(dist_err, fmax(fabs(gw - w), fabs(gs - self)));
                }
            }
        }
        free(q);
        free(qd);
        free(poses);
        free(op);
    }
    snprintf(what, sizeof what,
             "fk: %u random configurations within the limits: every link pose = URDF kinematics in double (max |error| %.2g)",
             configs, fk_err);
    if (fk_err < 1e-5)
        ok(what);
    else
        bad(what);
    snprintf(what, sizeof what, "collides: %u configurations (%u in collision, %u within the band) = brute force; %u scan points near the base",
             configs, yes, edge, s.point_count);
    if (fails_collide == 0)
        ok(what);
    else
        bad(what);
    snprintf(what, sizeof what, "contacts: %u contacts over the configurations = the touching pairs by brute force", contacts_total);
    if (fails_contacts == 0)
        ok(what);
    else
        bad(what);
    snprintf(what, sizeof what,
             "distances: %u configurations, per link world and self up to %g = brute force (max |error| %.2g, scene size %.3g)",
             dist_configs, (double)MAX_DIST, dist_err, mag);
    if (fails_dist == 0)
        ok(what);
    else
        bad(what);
    printf("time %.1f s\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    printf("%u passed, %u failed\n", pass_count, fail_count);
    for (l = 0; l < n; l++)
        free(s.link_tris[l]);
    for (k = 0; k < 3u; k++) {
        host_mesh_free(&hms[k]);
        free(tree_mem[k]);
    }
    free(octree_pool);
    free(s.world);
    free(s.world_mesh);
    free(s.points);
    free(cropped);
    host_points_free(&scan);
    free(oj);
    free(ol);
    free(allowed);
    free(blob);
    urdf_free(&u);
    return fail_count == 0 ? 0 : 1;
}

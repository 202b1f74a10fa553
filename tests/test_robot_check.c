/* SPDX-License-Identifier: MIT */
/*
 * The robot's one-call-per-configuration functions (copse/robot.h: copse_robot_collides,
 * _contacts, _distances, _motion, _motion_continuous) against the double oracle
 * (oracle/oracle_robot.h): every primitive pair, brute force, at the same link poses.
 *
 * Robots: generated arms (prism links with bounding capsules, boxes with bounding spheres, a
 * few shapes that bound nothing, a shapes-only sensor, an empty tool frame, fixed joints, a
 * continuous wrist, a prismatic rail, a prismatic gripper with a mimic finger), paddings 0 and
 * > 0, the default allowed matrix with custom pairs and COPSE_ROBOT_CHECK_ADJACENT. World: a
 * table, a posed box, a triangle soup, a scan (point octree) with its padding, and objects
 * (boxes, spheres) with and without their loose octree; two objects are placed against a
 * random point of the posed links every configuration (touching, a hair apart, penetrating).
 *
 * Rules: verdicts are the oracle's except within a boundary band of BAND_K float ulps of the
 * scene's magnitude (counted); distances within DIST_K ulps; the reported contacts and nearest
 * pairs are real per the oracle; every answer is bit-identical with COPSE_ROBOT_NO_SHAPES and on
 * a saved-and-viewed robot.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "copse/arena.h"
#include "copse/octree.h"
#include "copse/blob.h"
#include "copse/robot.h"
#include "oracle/oracle_points.h"
#include "oracle/oracle_robot.h"
#include "suites.h"
#include "test.h"

#define DIST_K 64.0 /* distance tolerance, FLT_EPSILON times the scene's magnitude */
#define BAND_K 16.0 /* boundary band, likewise */
#define FK_K 16.0   /* forward kinematics, per joint of the chain */

#define MAXL 12u
#define MAXJ 11u
#define MAXV 9u
#define MAXS 8u /* spheres + capsules of a link */
#define NOBJ 4u
#define NMESH 3u
#define MAXC 96u /* contacts */

static double rnd_d(test_rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)test_rng_u32(rng) / 4294967296.0;
}

static bool big_machine(void)
{
#ifdef COPSE_TEST_EMULATED /* qemu-user (mk/bigendian.mk): the boards' sizes, not the host's */
    return false;
#else
    return test_memory_bytes() >= ((size_t)32u << 20);
#endif
}

static bool small_machine(void)
{
    return test_memory_bytes() < ((size_t)256u << 10);
}

/* The scene's size: small on a small machine, and where the oracle's double arithmetic is slow
 * (COPSE_TEST_SLOW_DOUBLE, boards/rv32imafc: libgcc's double helpers write fflags there, and under
 * QEMU each such write ends a translation block; the full scene took 15 minutes of CPU). */
static bool small_scene(void)
{
#ifdef COPSE_TEST_SLOW_DOUBLE
    return true;
#else
    return small_machine();
#endif
}

/* ---- memory: a bump allocator over test memory ---------------------------------------------- */

static uint8_t *g_mem;
static size_t g_cap, g_lo, g_hi;

static void mem_reset(void)
{
    g_mem = (uint8_t *)test_memory(&g_cap);
    g_lo = 0;
    g_hi = g_cap & ~(size_t)7u;
}

static void *take(size_t n)
{
    void *p;
    n = (n + 7u) & ~(size_t)7u;
    if (g_hi - g_lo < n)
        return NULL;
    p = g_mem + g_lo;
    g_lo += n;
    memset(p, 0, n);
    return p;
}

/* temporaries from the top, released by resetting g_hi */
static void *take_top(size_t n)
{
    n = (n + 7u) & ~(size_t)7u;
    if (g_hi - g_lo < n)
        return NULL;
    g_hi -= n;
    memset(g_mem + g_hi, 0, n);
    return g_mem + g_hi;
}

/* ---- counters ------------------------------------------------------------------------------------ */

static unsigned long g_configs, g_contacts, g_band, g_pairs_checked, g_dist_checks, g_motions;
static double g_worst_dist; /* worst distance error in FLT_EPSILON * magnitude */

/* ---- the scene ------------------------------------------------------------------------------------ */

typedef struct scene {
    /* the robot as built and its oracle mirror */
    copse_robot robot;
    uint32_t dof, link_count, joint_count;
    float lower[MAXV], upper[MAXV];
    orb_link olinks[MAXL];
    orb_joint ojoints[MAXJ];
    uint8_t allowed[MAXL * MAXL];
    double *oshapes; /* every link's spheres (4 doubles) and capsules (7), sized to the robot */
    orb_robot orobot;
    copse_pose base;
    orcc_pose obase;
    unsigned variant;
    /* the world */
    copse_bvh wtrees[NMESH];
    copse_world_mesh wmeshes[NMESH];
    copse_octree scan;
    copse_world_object objects[NOBJ];
    copse_loose loose;
    copse_world world, world_flat; /* with and without the loose octree */
    orb_mesh omeshes[NMESH];
    orb_object oobjects[NOBJ];
    orb_world oworld;
    double mag;
    /* per configuration */
    copse_pose poses[MAXL];
    orcc_pose oposes[MAXL];
    orb_scene os;
} scene;

/* A prism of n sides along z from z0 to z1, radius rho: 2n vertices, 4n - 4 triangles. */
static bool make_prism(copse_mesh *m, unsigned n, double rho, double z0, double z1)
{
    float *v = (float *)take(sizeof(float) * 6u * n);
    uint32_t *ix = (uint32_t *)take(sizeof(uint32_t) * 3u * (4u * n - 4u));
    unsigned i, t = 0;
    if (!v || !ix)
        return false;
    for (i = 0; i < n; i++) {
        double a = 6.283185307179586 * (double)i / (double)n + 0.1;
        v[6u * i] = v[6u * i + 3u] = (float)(rho * cos(a));
        v[6u * i + 1u] = v[6u * i + 4u] = (float)(rho * sin(a));
        v[6u * i + 2u] = (float)z0;
        v[6u * i + 5u] = (float)z1;
    }
    for (i = 0; i < n; i++) {
        uint32_t b0 = 2u * i, t0 = b0 + 1u, b1 = 2u * ((i + 1u) % n), t1 = b1 + 1u;
        ix[3u * t] = b0, ix[3u * t + 1u] = b1, ix[3u * t + 2u] = t1, t++;
        ix[3u * t] = b0, ix[3u * t + 1u] = t1, ix[3u * t + 2u] = t0, t++;
    }
    for (i = 1; i + 1u < n; i++) {
        ix[3u * t] = 0u, ix[3u * t + 1u] = 2u * (i + 1u), ix[3u * t + 2u] = 2u * i, t++;
        ix[3u * t] = 1u, ix[3u * t + 1u] = 2u * i + 1u, ix[3u * t + 2u] = 2u * (i + 1u) + 1u, t++;
    }
    memset(m, 0, sizeof *m);
    m->positions = v;
    m->vertex_count = 2u * n;
    m->indices = ix;
    m->index_type = COPSE_MESH_INDEX_U32;
    m->triangle_count = t;
    return true;
}

/* Boxes (half extents h, centres c), 8 vertices and 12 triangles each, in one mesh. */
static bool make_boxes(copse_mesh *m, unsigned count, const double (*h)[3], const double (*c)[3])
{
    static const uint8_t faces[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                         {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    float *v = (float *)take(sizeof(float) * 24u * count);
    uint32_t *ix = (uint32_t *)take(sizeof(uint32_t) * 36u * count);
    unsigned b, k, i;
    if (!v || !ix)
        return false;
    for (b = 0; b < count; b++) {
        for (k = 0; k < 8u; k++)
            for (i = 0; i < 3u; i++)
                v[24u * b + 3u * k + i] = (float)(c[b][i] + ((k >> i) & 1u ? h[b][i] : -h[b][i]));
        for (k = 0; k < 12u; k++)
            for (i = 0; i < 3u; i++)
                ix[36u * b + 3u * k + i] = 8u * b + faces[k][i];
    }
    memset(m, 0, sizeof *m);
    m->positions = v;
    m->vertex_count = 8u * count;
    m->indices = ix;
    m->index_type = COPSE_MESH_INDEX_U32;
    m->triangle_count = 12u * count;
    return true;
}

static copse_vec3 v3(double x, double y, double z)
{
    return copse_v3((float)x, (float)y, (float)z);
}

static void d3(double *o, copse_vec3 v)
{
    o[0] = (double)v.x;
    o[1] = (double)v.y;
    o[2] = (double)v.z;
}

/*
 * The generated robot. Links: 0 base (box, a bounding sphere), [rail (box, prismatic)], arm
 * links (prisms with a bounding capsule; every other one also a small sphere that bounds
 * nothing, so the link is not ROBOT_LINK_SHAPES_BOUND), a sensor (spheres and a capsule only),
 * a tool frame (nothing), two fingers (boxes; the second mimics the first).
 * variant bit 0: paddings > 0; bit 1: COPSE_ROBOT_CHECK_ADJACENT and a rail.
 */
typedef struct gen {
    copse_link_desc links[MAXL];
    copse_joint_desc joints[MAXJ];
    copse_mesh meshes[MAXL];
    copse_sphere spheres[MAXL][4];
    copse_capsule capsules[MAXL][4];
    copse_link_pair pairs[4];
    copse_robot_desc desc;
} gen;

static uint32_t add_joint(gen *g, uint32_t *nj, uint32_t type, uint32_t parent, uint32_t child, copse_vec3 xyz,
                          copse_vec3 rpy, copse_vec3 axis, float lo, float hi)
{
    copse_joint_desc *j = &g->joints[*nj];
    memset(j, 0, sizeof *j);
    j->type = (copse_joint_type)type;
    j->parent = parent;
    j->child = child;
    j->xyz = xyz;
    j->rpy = rpy;
    j->axis = axis;
    j->lower = lo;
    j->upper = hi;
    j->mimic = -1;
    j->multiplier = 1.0f;
    return (*nj)++;
}

static bool make_robot_desc(gen *g, unsigned variant, bool small)
{
    static const double len_big[7] = {0.30, 0.34, 0.30, 0.24, 0.20, 0.15, 0.12};
    unsigned narm = small ? 4u : 6u, sides = small ? 3u : 8u, i, nl = 0;
    uint32_t nj = 0, prev, tool, fl, jl;
    double rho = 0.05, h[2][3], c[2][3];
    copse_vec3 zero = v3(0, 0, 0);
    bool pad = (variant & 1u) != 0u, rail = (variant & 2u) != 0u;
    memset(g, 0, sizeof *g);
    /* base */
    h[0][0] = 0.15, h[0][1] = 0.15, h[0][2] = 0.05, c[0][0] = 0, c[0][1] = 0, c[0][2] = 0.05;
    if (!make_boxes(&g->meshes[nl], 1u, (const double(*)[3])h, (const double(*)[3])c))
        return false;
    g->links[nl].mesh = &g->meshes[nl];
    g->spheres[nl][0].center = v3(0, 0, 0.05);
    g->spheres[nl][0].radius = (float)(0.2121 * 1.03);
    g->links[nl].spheres = g->spheres[nl];
    g->links[nl].sphere_count = 1u;
    nl++;
    prev = 0;
    if (rail) {
        h[0][0] = 0.08, h[0][1] = 0.08, h[0][2] = 0.02, c[0][2] = 0.03;
        if (!make_boxes(&g->meshes[nl], 1u, (const double(*)[3])h, (const double(*)[3])c))
            return false;
        g->links[nl].mesh = &g->meshes[nl];
        g->links[nl].padding = pad ? 0.005f : 0.0f;
        add_joint(g, &nj, COPSE_JOINT_PRISMATIC, prev, nl, v3(0, 0, 0.1), zero, v3(1, 0, 0), -0.3f, 0.3f);
        prev = nl++;
    }
    for (i = 0; i < narm; i++) {
        double len = small ? 0.3 : len_big[i];
        copse_vec3 axis = (i % 3u == 0u) ? v3(0, 0, 1) : (i % 3u == 1u ? v3(0, 1, 0) : v3(0.2, 1, 0));
        copse_vec3 rpy = i == 2u ? v3(0.3, -0.2, 0.5) : zero;
        double z = i == 0u ? (rail ? 0.06 : 0.1) : (small ? 0.3 : len_big[i - 1u]);
        if (!make_prism(&g->meshes[nl], sides, rho, 0.03, len - 0.03))
            return false;
        g->links[nl].mesh = &g->meshes[nl];
        g->capsules[nl][0].segment.a = v3(0, 0, 0.03);
        g->capsules[nl][0].segment.b = v3(0, 0, len - 0.03);
        g->capsules[nl][0].radius = (float)(rho * 1.02);
        g->links[nl].capsules = g->capsules[nl];
        g->links[nl].capsule_count = 1u;
        if (i & 1u) { /* a sphere that bounds nothing */
            g->spheres[nl][0].center = v3(0, 0, len / 2);
            g->spheres[nl][0].radius = (float)(rho * 0.6);
            g->links[nl].spheres = g->spheres[nl];
            g->links[nl].sphere_count = 1u;
        }
        g->links[nl].padding = pad && (i & 1u) ? 0.01f : 0.0f;
        add_joint(g, &nj, i + 1u == narm && !small ? COPSE_JOINT_CONTINUOUS : COPSE_JOINT_REVOLUTE, prev, nl,
                  v3(0, 0, z), rpy, axis, -2.6f, 2.6f);
        prev = nl++;
    }
    /* the sensor: shapes only, fixed beside the last arm link */
    g->spheres[nl][0].center = zero;
    g->spheres[nl][0].radius = 0.02f;
    g->spheres[nl][1].center = v3(0, 0.03, 0);
    g->spheres[nl][1].radius = 0.015f;
    g->capsules[nl][0].segment.a = v3(0, 0, -0.03);
    g->capsules[nl][0].segment.b = v3(0, 0, 0.03);
    g->capsules[nl][0].radius = 0.015f;
    g->links[nl].spheres = g->spheres[nl];
    g->links[nl].sphere_count = 2u;
    g->links[nl].capsules = g->capsules[nl];
    g->links[nl].capsule_count = 1u;
    g->links[nl].padding = pad ? 0.02f : 0.0f;
    add_joint(g, &nj, COPSE_JOINT_FIXED, prev, nl, v3(0.12, 0, 0.06), v3(0, 0.4, 0), zero, 0, 0);
    nl++;
    /* the tool frame: nothing */
    tool = nl++;
    add_joint(g, &nj, COPSE_JOINT_FIXED, prev, tool, v3(0, 0, small ? 0.3 : len_big[narm - 1u]), zero, zero, 0, 0);
    /* fingers */
    h[0][0] = 0.01, h[0][1] = 0.005, h[0][2] = 0.03, c[0][0] = 0, c[0][1] = 0.01, c[0][2] = 0.03;
    if (!make_boxes(&g->meshes[nl], 1u, (const double(*)[3])h, (const double(*)[3])c))
        return false;
    g->links[nl].mesh = &g->meshes[nl];
    g->spheres[nl][0].center = v3(0, 0.01, 0.03);
    g->spheres[nl][0].radius = 0.033f;
    g->links[nl].spheres = g->spheres[nl];
    g->links[nl].sphere_count = 1u;
    fl = nl;
    jl = add_joint(g, &nj, COPSE_JOINT_PRISMATIC, tool, nl++, v3(0, 0, 0.02), zero, v3(0, 1, 0), 0.0f, 0.04f);
    c[0][1] = -0.01;
    if (!make_boxes(&g->meshes[nl], 1u, (const double(*)[3])h, (const double(*)[3])c))
        return false;
    g->links[nl].mesh = &g->meshes[nl];
    g->links[nl].padding = pad ? 0.004f : 0.0f;
    add_joint(g, &nj, COPSE_JOINT_PRISMATIC, tool, nl, v3(0, 0, 0.02), zero, v3(0, 1, 0), -0.04f, 0.0f);
    g->joints[nj - 1u].mimic = (int32_t)jl;
    g->joints[nj - 1u].multiplier = -1.0f;
    g->joints[nj - 1u].offset = 0.0f;
    g->pairs[0].a = fl;
    g->pairs[0].b = nl;
    nl++;
    g->pairs[1].a = 1u; /* the first arm link may touch the third */
    g->pairs[1].b = 3u;
    g->desc.links = g->links;
    g->desc.link_count = nl;
    g->desc.joints = g->joints;
    g->desc.joint_count = nj;
    g->desc.allowed = g->pairs;
    g->desc.allowed_count = rail ? 1u : 2u;
    {
        copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
        g->desc.tree_params = bp;
    }
    g->desc.flags = rail ? COPSE_ROBOT_CHECK_ADJACENT : 0u;
    return true;
}

/* The oracle's mirror of a description. */
static bool mirror_robot(scene *s, const gen *g)
{
    const copse_robot_desc *d = &g->desc;
    unsigned l, j, k, pairs[4][2];
    size_t doubles = 0;
    double *sh;
    for (l = 0; l < d->link_count; l++)
        doubles += 4u * d->links[l].sphere_count + 7u * d->links[l].capsule_count;
    s->oshapes = sh = (double *)take(sizeof(double) * (doubles + 1u));
    if (sh == NULL)
        return false;
    for (l = 0; l < d->link_count; l++) {
        const copse_link_desc *ld = &d->links[l];
        orb_link *o = &s->olinks[l];
        memset(o, 0, sizeof *o);
        if (ld->mesh) {
            o->positions = ld->mesh->positions;
            o->indices = (const uint32_t *)ld->mesh->indices;
            o->triangle_count = ld->mesh->triangle_count;
        }
        for (k = 0; k < ld->sphere_count; k++) {
            d3(sh + 4u * k, ld->spheres[k].center);
            sh[4u * k + 3u] = (double)ld->spheres[k].radius;
        }
        o->spheres = sh;
        o->sphere_count = ld->sphere_count;
        sh += 4u * ld->sphere_count;
        for (k = 0; k < ld->capsule_count; k++) {
            d3(sh + 7u * k, ld->capsules[k].segment.a);
            d3(sh + 7u * k + 3u, ld->capsules[k].segment.b);
            sh[7u * k + 6u] = (double)ld->capsules[k].radius;
        }
        o->capsules = sh;
        o->capsule_count = ld->capsule_count;
        sh += 7u * ld->capsule_count;
        o->padding = (double)ld->padding;
    }
    for (j = 0; j < d->joint_count; j++) {
        const copse_joint_desc *jd = &d->joints[j];
        orb_joint *o = &s->ojoints[j];
        o->type = (unsigned)jd->type;
        o->parent = jd->parent;
        o->child = jd->child;
        d3(o->xyz, jd->xyz);
        d3(o->rpy, jd->rpy);
        d3(o->axis, jd->axis);
        o->lower = (double)jd->lower;
        o->upper = (double)jd->upper;
        o->mimic = jd->mimic;
        o->multiplier = (double)jd->multiplier;
        o->offset = (double)jd->offset;
    }
    s->orobot.links = s->olinks;
    s->orobot.link_count = d->link_count;
    s->orobot.joints = s->ojoints;
    s->orobot.joint_count = d->joint_count;
    s->orobot.allowed = s->allowed;
    s->orobot.geometry = ORB_GEOM_MESH_ELSE_SHAPES;
    for (k = 0; k < d->allowed_count; k++)
        pairs[k][0] = d->allowed[k].a, pairs[k][1] = d->allowed[k].b;
    orb_acm(&s->orobot, (const unsigned(*)[2])pairs, d->allowed_count, (d->flags & COPSE_ROBOT_CHECK_ADJACENT) != 0u,
            s->allowed);
    s->link_count = d->link_count;
    s->joint_count = d->joint_count;
    return true;
}

static void set_pose_rt(copse_pose *p, const float r[3][3], copse_vec3 t)
{
    memcpy(p->rotation, r, sizeof p->rotation);
    p->translation = t;
}

static void obb_aabb(const copse_world_object *o, copse_box3 *b)
{
    unsigned i;
    if (o->kind == COPSE_OBJECT_SPHERE) {
        float r = o->sphere.radius;
        *b = copse_box3_make(o->sphere.center.x - r, o->sphere.center.y - r, o->sphere.center.z - r,
                             o->sphere.center.x + r, o->sphere.center.y + r, o->sphere.center.z + r);
        return;
    }
    {
        float e[3], c[3] = {o->box.center.x, o->box.center.y, o->box.center.z};
        float hh[3] = {o->box.half.x, o->box.half.y, o->box.half.z};
        for (i = 0; i < 3; i++)
            e[i] = fabsf(o->box.rotation[i][0]) * hh[0] + fabsf(o->box.rotation[i][1]) * hh[1] +
                   fabsf(o->box.rotation[i][2]) * hh[2] + 1e-4f;
        *b = copse_box3_make(c[0] - e[0], c[1] - e[1], c[2] - e[2], c[0] + e[0], c[1] + e[1], c[2] + e[2]);
    }
}

/* Mirror object k (and move it in the loose octree). */
static void sync_object(scene *s, unsigned k, bool insert)
{
    const copse_world_object *o = &s->objects[k];
    orb_object *m = &s->oobjects[k];
    copse_box3 b;
    unsigned i, j;
    memset(m, 0, sizeof *m);
    m->kind = o->kind;
    if (o->kind == COPSE_OBJECT_SPHERE) {
        d3(m->center, o->sphere.center);
        m->radius = (double)o->sphere.radius;
    } else {
        d3(m->center, o->box.center);
        d3(m->half, o->box.half);
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                m->rotation[i][j] = (double)o->box.rotation[i][j];
    }
    obb_aabb(o, &b);
    if (insert)
        CHECK_STATUS(copse_loose_insert(&s->loose, k, &b), COPSE_OK);
    else
        CHECK_STATUS(copse_loose_move(&s->loose, k, &b), COPSE_OK);
}

static bool make_world(scene *s, test_rng *rng, bool small)
{
    copse_mesh *m = (copse_mesh *)take(sizeof(copse_mesh) * NMESH);
    copse_arena arena;
    copse_bvh_params bp = COPSE_BVH_PARAMS_DEFAULT;
    double h[2][3] = {{0.4, 0.6, 0.02}, {0.03, 0.03, 0.2}}, c[2][3] = {{0.8, 0.0, 0.4}, {0.5, 0.3, 0.2}};
    double h1[1][3] = {{0.1, 0.15, 0.2}}, c1[1][3] = {{0, 0, 0}};
    unsigned k, i, nsoup = small ? 6u : 40u, npts = small ? 24u : 256u;
    float r[3][3];
    copse_vec3 *pts;
    copse_octree_config oc;
    copse_loose_config lc;
    size_t bytes;
    void *mem;
    if (!m || !make_boxes(&m[0], 2u, (const double(*)[3])h, (const double(*)[3])c) ||
        !make_boxes(&m[1], 1u, (const double(*)[3])h1, (const double(*)[3])c1))
        return false;
    { /* the soup: unindexed */
        float *v = (float *)take(sizeof(float) * 9u * nsoup);
        if (!v)
            return false;
        for (k = 0; k < nsoup; k++) {
            double cx = rnd_d(rng, -0.7, -0.1), cy = rnd_d(rng, -0.7, -0.1), cz = rnd_d(rng, 0.2, 1.0);
            for (i = 0; i < 3; i++) {
                v[9u * k + 3u * i] = (float)(cx + rnd_d(rng, -0.08, 0.08));
                v[9u * k + 3u * i + 1u] = (float)(cy + rnd_d(rng, -0.08, 0.08));
                v[9u * k + 3u * i + 2u] = (float)(cz + rnd_d(rng, -0.08, 0.08));
            }
        }
        memset(&m[2], 0, sizeof m[2]);
        m[2].positions = v;
        m[2].vertex_count = 3u * nsoup;
        m[2].index_type = COPSE_MESH_INDEX_NONE;
        m[2].triangle_count = nsoup;
    }
    for (k = 0; k < NMESH; k++) {
        bytes = copse_bvh_build_bytes(m[k].triangle_count, 3u, &bp);
        mem = take(bytes);
        if (!mem)
            return false;
        copse_arena_init(&arena, mem, bytes);
        CHECK_STATUS(copse_bvh_build_mesh(&s->wtrees[k], &arena, &m[k], &bp), COPSE_OK);
        s->wmeshes[k].tree = &s->wtrees[k];
        s->omeshes[k].positions = m[k].positions;
        s->omeshes[k].indices = (const uint32_t *)m[k].indices;
        s->omeshes[k].triangle_count = m[k].triangle_count;
    }
    (void)copse_pose_from_xyz_rpy(&s->wmeshes[0].pose, v3(0.1, 0.05, 0.0), v3(0, 0, 0.1));
    orp_random_rotation(r, 0.3, 0.6, 0.2);
    set_pose_rt(&s->wmeshes[1].pose, (const float(*)[3])r, v3(-0.5, 0.5, 0.35));
    s->wmeshes[2].pose = copse_pose_identity();
    for (k = 0; k < NMESH; k++)
        orcc_pose_of(&s->omeshes[k].pose, &s->wmeshes[k].pose);
    /* the scan: a wall and a cluster in reach */
    pts = (copse_vec3 *)take(sizeof(copse_vec3) * npts);
    if (!pts)
        return false;
    for (k = 0; k < npts; k++) {
        if (k % 2u == 0u)
            pts[k] = v3(-0.9, rnd_d(rng, -1, 1), rnd_d(rng, 0, 1.2));
        else
            pts[k] = v3(0.3 + rnd_d(rng, -0.15, 0.15), -0.5 + rnd_d(rng, -0.15, 0.15), 0.6 + rnd_d(rng, -0.15, 0.15));
    }
    memset(&oc, 0, sizeof oc);
    oc.points = pts;
    oc.point_capacity = npts;
    oc.bounds = copse_box3_make(-1, -1, -1, 1, 1, 1);
    oc.max_nodes = npts;
    oc.max_buckets = npts;
    oc.leaf_size = 8u;
    oc.bucket_size = 8u;
    oc.max_depth = 8u;
    bytes = copse_octree_bytes(&oc);
    mem = take(bytes);
    if (!mem)
        return false;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_octree_init(&s->scan, &arena, &oc), COPSE_OK);
    {
        size_t sb = copse_octree_build_scratch_bytes(&s->scan, npts);
        void *sm = take_top(sb);
        size_t hi = g_hi + ((sb + 7u) & ~(size_t)7u);
        if (!sm)
            return false;
        copse_arena_init(&arena, sm, sb);
        CHECK_STATUS(copse_octree_build(&s->scan, &arena, npts), COPSE_OK);
        g_hi = hi;
    }
    s->oworld.points = &pts[0].x; /* float triples: the oracle reads them as a float array */
    s->oworld.point_count = npts;
    /* objects: two fixed, two placed per configuration */
    memset(&lc, 0, sizeof lc);
    lc.world = copse_box3_make(-2, -2, -2, 2, 2, 2);
    lc.max_nodes = 32u;
    lc.max_objects = NOBJ;
    lc.max_depth = 4u;
    lc.node_capacity = 1u;
    bytes = copse_loose_bytes(&lc);
    mem = take(bytes);
    if (!mem)
        return false;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_loose_init(&s->loose, &arena, &lc), COPSE_OK);
    for (k = 0; k < NOBJ; k++) {
        copse_world_object *o = &s->objects[k];
        memset(o, 0, sizeof *o);
        o->kind = (k & 1u) ? COPSE_OBJECT_BOX : COPSE_OBJECT_SPHERE;
        o->sphere.center = v3(0.4, 0.4, 0.8 - 0.5 * k);
        o->sphere.radius = 0.05f;
        o->box.center = v3(-0.3, 0.3 * k, 0.5);
        o->box.half = v3(0.05, 0.03, 0.08);
        orp_random_rotation(o->box.rotation, 0.1 * k, 0.7, 0.4);
        sync_object(s, k, true);
    }
    memset(&s->world, 0, sizeof s->world);
    s->world.meshes = s->wmeshes;
    s->world.mesh_count = NMESH;
    s->world.scan = &s->scan;
    s->world.scan_padding = (s->variant & 1u) ? 0.01f : 0.005f;
    s->world.objects = s->objects;
    s->world.object_count = NOBJ;
    s->world.object_tree = &s->loose;
    s->world_flat = s->world;
    s->world_flat.object_tree = NULL;
    s->oworld.meshes = s->omeshes;
    s->oworld.mesh_count = NMESH;
    s->oworld.scan_padding = (double)s->world.scan_padding;
    s->oworld.objects = s->oobjects;
    s->oworld.object_count = NOBJ;
    return true;
}

/* ---- scenes ----------------------------------------------------------------------------------- */

static scene *g_s;
static orb_pair *g_pairs;
static uint8_t *g_verdict;
static unsigned g_npairs;

/* A robot of `variant` in its world; NULL (after a failed CHECK or on a small machine) when it
 * does not fit. with_world false: the robot only (save / view). */
static scene *make_scene(unsigned variant, uint64_t seed)
{
    test_rng rng;
    scene *s;
    gen *g;
    size_t bytes, top;
    void *mem;
    copse_arena arena;
    mem_reset();
    test_rng_seed(&rng, seed);
    s = (scene *)take(sizeof *s);
    top = g_hi;
    g = (gen *)take_top(sizeof *g);
    if (!s || !g || !make_robot_desc(g, variant, small_scene()))
        return NULL;
    s->variant = variant;
    if (!mirror_robot(s, g))
        return NULL;
    bytes = copse_robot_build_bytes(&g->desc);
    mem = take(bytes);
    if (!mem)
        return NULL;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_robot_build(&s->robot, &arena, &g->desc), COPSE_OK);
    if (s->robot.link_count != g->desc.link_count)
        return NULL;
    g_hi = top; /* the description is no longer needed */
    s->dof = copse_robot_dof(&s->robot);
    CHECK_EQ_INT(s->dof, orb_dof(&s->orobot));
    {
        uint32_t v, j;
        for (v = 0; v < s->dof && v < MAXV; v++)
            CHECK_STATUS(copse_robot_variable(&s->robot, v, &j, &s->lower[v], &s->upper[v]), COPSE_OK);
    }
    if (variant & 2u)
        (void)copse_pose_from_xyz_rpy(&s->base, v3(0.1, -0.05, 0.02), v3(0.0, 0.0, 0.3));
    else
        s->base = copse_pose_identity();
    orcc_pose_of(&s->obase, &s->base);
    if (!make_world(s, &rng, small_scene()))
        return NULL;
    s->os.robot = &s->orobot;
    s->os.world = &s->oworld;
    s->os.poses = s->oposes;
    g_npairs = orb_pairs(&s->os, ORB_SELF | ORB_WORLD, NULL, 0);
    g_pairs = (orb_pair *)take(sizeof(orb_pair) * g_npairs);
    g_verdict = (uint8_t *)take(g_npairs + 1u);
    if (!g_pairs || !g_verdict)
        return NULL;
    (void)orb_pairs(&s->os, ORB_SELF | ORB_WORLD, g_pairs, g_npairs);
    g_s = s;
    return s;
}

static void sample_q(const scene *s, test_rng *rng, float *q)
{
    uint32_t v;
    for (v = 0; v < s->dof; v++) {
        float lo = s->lower[v] < -4.0f ? -4.0f : s->lower[v], hi = s->upper[v] > 4.0f ? 4.0f : s->upper[v];
        q[v] = test_rng_float(rng, lo, hi);
        if (q[v] < lo)
            q[v] = lo;
        if (q[v] > hi)
            q[v] = hi;
    }
}

/* The library's link poses at q, and the oracle's copy of them. */
static bool pose_at(scene *s, const float *q)
{
    uint32_t l;
    copse_status st = copse_robot_fk(&s->robot, q, &s->base, s->poses);
    CHECK_STATUS(st, COPSE_OK);
    for (l = 0; l < s->link_count; l++)
        orcc_pose_of(&s->oposes[l], &s->poses[l]);
    s->mag = orb_scene_magnitude(&s->os);
    return st == COPSE_OK;
}

/* The oracle's own poses at q (double FK). */
static void oracle_pose_at(scene *s, const double *q)
{
    CHECK(orb_fk(&s->orobot, q, &s->obase, s->oposes));
}

/* Objects 2 (a sphere) and 3 (a box) against a random point of a random posed link: touching, a
 * hair apart, or slightly in. */
static void place_objects(scene *s, test_rng *rng)
{
    static const double gaps[16] = {0.0,  2e-5,  -2e-5, 1e-4,  -1e-4, 1e-3, -2e-3, 0.02,
                                    3e-5, -3e-5, 5e-4,  -5e-4, 4e-3,  -1e-2, 2e-4, -2e-4};
    unsigned k;
    for (k = 2; k < NOBJ; k++) {
        unsigned l, n, i, tries;
        double p[3], dir[3], len, gap = gaps[test_rng_below(rng, 16u)];
        orb_side side;
        for (tries = 0; tries < 20u; tries++) {
            l = test_rng_below(rng, s->link_count);
            side = orb_side_make(ORB_LINK, l, ORB_ANY);
            if (!orb_side_empty(&s->os, &side))
                break;
        }
        n = orb_prim_count(&s->os, &side);
        {
            /* a corner of a random primitive: the closest point of the link to a far point */
            double far[3], tmp[3];
            orb_near nr;
            orb_side pt = orb_side_make(ORB_POINT, 0, ORB_ANY);
            for (i = 0; i < 3; i++)
                dir[i] = rnd_d(rng, -1, 1);
            len = orc_len(dir);
            if (len < 1e-3)
                dir[0] = 1.0, len = 1.0;
            for (i = 0; i < 3; i++)
                dir[i] /= len;
            for (i = 0; i < 3; i++)
                far[i] = s->oposes[l].t[i] + dir[i] * 2.0;
            pt.point = far;
            (void)n;
            if (orb_distance(&s->os, &pt, &side, ORB_INF, &nr) == ORB_INF)
                continue;
            for (i = 0; i < 3; i++)
                tmp[i] = far[i] - nr.b_point[i];
            len = orc_len(tmp);
            for (i = 0; i < 3; i++) {
                p[i] = nr.b_point[i];
                dir[i] = tmp[i] / len;
            }
        }
        gap += s->olinks[l].padding;
        if (k == 2u) {
            double r = 0.03;
            s->objects[k].sphere.center = v3(p[0] + dir[0] * (r + gap), p[1] + dir[1] * (r + gap), p[2] + dir[2] * (r + gap));
            s->objects[k].sphere.radius = (float)r;
        } else {
            /* a box whose face, of normal dir, passes through p */
            double z[3], t[3];
            orcc_pose f;
            copse_pose fp;
            for (i = 0; i < 3; i++) {
                z[i] = dir[i];
                t[i] = p[i] + dir[i] * (0.04 + gap);
            }
            orcc_pose_from_z(&f, z, t);
            orcc_pose_to_float(&fp, &f);
            memcpy(s->objects[k].box.rotation, fp.rotation, sizeof fp.rotation);
            s->objects[k].box.center = fp.translation;
            s->objects[k].box.half = v3(0.05, 0.03, 0.04);
        }
        sync_object(s, k, false);
    }
}

/* ---- the checks ---------------------------------------------------------------------------------- */

static double band_of(const scene *s)
{
    return BAND_K * ORC_FLT_EPS * (s->mag > 1.0 ? s->mag : 1.0);
}

static double tol_of(const scene *s)
{
    return DIST_K * ORC_FLT_EPS * (s->mag > 1.0 ? s->mag : 1.0);
}

static unsigned pair_index(const copse_robot_contact *c)
{
    unsigned i;
    for (i = 0; i < g_npairs; i++)
        if (g_pairs[i].link == c->link && g_pairs[i].kind == c->kind &&
            g_pairs[i].other == (c->kind == COPSE_CONTACT_SCAN ? 0u : c->other))
            return i;
    return g_npairs;
}

/* Verdicts of every pair; returns ORC_YES when some pair surely touches, ORC_EDGE_* when only band
 * pairs may, ORC_NO when none does. */
static orc_verdict all_verdicts(scene *s, unsigned flags, double band)
{
    unsigned i;
    bool yes = false, edge = false;
    for (i = 0; i < g_npairs; i++) {
        bool self = g_pairs[i].kind == ORB_LINK;
        orc_verdict v = ORC_NO;
        if ((self && (flags & ORB_SELF)) || (!self && (flags & ORB_WORLD)))
            v = orb_pair_verdict(&s->os, &g_pairs[i], band);
        g_verdict[i] = (uint8_t)v;
        yes = yes || v == ORC_YES;
        edge = edge || orc_fragile(v);
    }
    return yes ? ORC_YES : edge ? ORC_EDGE_NO : ORC_NO;
}

/* Is the reported contact a real one per the oracle (its prims touch, its point is in both)? */
static bool contact_real(scene *s, const copse_robot_contact *c, double band)
{
    unsigned i = pair_index(c), other;
    orb_side a, b, pt;
    double pads, d, p[3], da, db;
    bool ok;
    if (!CHECKF(i < g_npairs, "contact kind %u link %u other %u is no pair the check visits", (unsigned)c->kind, (unsigned)c->link,
                (unsigned)c->other))
        return false;
    ok = CHECKF(g_verdict[i] != ORC_NO, "contact kind %u link %u other %u: the oracle finds them apart", (unsigned)c->kind,
                (unsigned)c->link, (unsigned)c->other);
    other = g_pairs[i].other;
    a = orb_side_make(ORB_LINK, c->link, c->prim == COPSE_NONE ? ORB_SHAPES : c->prim);
    ok &= CHECKF(c->prim == COPSE_NONE ? s->olinks[c->link].triangle_count == 0u
                                       : c->prim < s->olinks[c->link].triangle_count,
                 "contact prim %u of link %u (%u triangles)", (unsigned)c->prim, (unsigned)c->link, s->olinks[(unsigned)c->link].triangle_count);
    switch (c->kind) {
    case COPSE_CONTACT_SELF:
        b = orb_side_make(ORB_LINK, other, c->other_prim == COPSE_NONE ? ORB_SHAPES : c->other_prim);
        ok &= CHECK(c->other_prim == COPSE_NONE ? s->olinks[other].triangle_count == 0u
                                                : c->other_prim < s->olinks[other].triangle_count);
        break;
    case COPSE_CONTACT_MESH:
        b = orb_side_make(ORB_MESH, other, c->other_prim);
        ok &= CHECK(c->other_prim < s->oworld.meshes[other].triangle_count);
        break;
    case COPSE_CONTACT_SCAN:
        b = orb_side_make(ORB_SCAN, 0, c->other_prim);
        ok &= CHECK(c->other_prim < s->oworld.point_count);
        break;
    default:
        b = orb_side_make(ORB_OBJECT, other, ORB_ANY);
        ok &= CHECK(c->other_prim == COPSE_NONE);
        break;
    }
    if (!ok)
        return false;
    pads = orb_padding(&s->os, &a) + orb_padding(&s->os, &b);
    d = orb_distance(&s->os, &a, &b, pads + band, NULL);
    ok &= CHECKF(d != ORB_INF, "contact kind %u link %u prim %u other %u prim %u: those primitives are apart",
                 (unsigned)c->kind, (unsigned)c->link, (unsigned)c->prim, other, (unsigned)c->other_prim);
    d3(p, c->point);
    pt = orb_side_make(ORB_POINT, 0, ORB_ANY);
    pt.point = p;
    a.prim = ORB_ANY;
    b.prim = ORB_ANY;
    da = orb_distance(&s->os, &pt, &a, ORB_INF, NULL);
    db = orb_distance(&s->os, &pt, &b, ORB_INF, NULL);
    ok &= CHECKF(da + db <= pads + 2.0 * band + tol_of(s),
                 "contact kind %u link %u other %u: point %g %g %g is %g from the link, %g from the other (pads %g)",
                 (unsigned)c->kind, (unsigned)c->link, other, p[0], p[1], p[2], da, db, pads);
    return ok;
}

static void empty_contact(copse_robot_contact *c)
{
    memset(c, 0xA5, sizeof *c);
}

/* collides, with and without the pre-test and the broadphase; returns whether it collided. */
static bool check_collides(scene *s, unsigned flags, orc_verdict truth)
{
    copse_robot_contact c, c2;
    copse_status st;
    bool hit;
    empty_contact(&c);
    st = copse_robot_collides(&s->robot, &s->world, s->poses, flags, &c);
    CHECK_STATUS(st, COPSE_OK);
    hit = c.kind != COPSE_CONTACT_NONE;
    if (truth == ORC_YES)
        CHECKF(hit, "config %lu flags %u: the oracle finds a contact, collides none", g_configs, flags);
    else if (truth == ORC_NO)
        CHECKF(!hit, "config %lu flags %u: collides reports kind %u link %u other %u; the oracle finds none",
               g_configs, flags, (unsigned)c.kind, (unsigned)c.link, (unsigned)c.other);
    if (hit) {
        unsigned i = pair_index(&c), k;
        if (contact_real(s, &c, band_of(s)))
            for (k = 0; k < i; k++)
                if (!CHECKF(g_verdict[k] != ORC_YES,
                            "config %lu: first contact is pair %u (link %u kind %u other %u) but pair %u (link %u kind "
                            "%u other %u) comes first and touches",
                            g_configs, i, (unsigned)c.link, (unsigned)c.kind, (unsigned)c.other, k, g_pairs[k].link, g_pairs[k].kind,
                            g_pairs[k].other))
                    break;
    }
    empty_contact(&c2);
    CHECK_STATUS(copse_robot_collides(&s->robot, &s->world, s->poses, flags | COPSE_ROBOT_NO_SHAPES, &c2), COPSE_OK);
    CHECKF(memcmp(&c, &c2, sizeof c) == 0, "config %lu: collides differs with COPSE_ROBOT_NO_SHAPES", g_configs);
    empty_contact(&c2);
    CHECK_STATUS(copse_robot_collides(&s->robot, &s->world_flat, s->poses, flags, &c2), COPSE_OK);
    CHECKF(memcmp(&c, &c2, sizeof c) == 0, "config %lu: collides differs without the object broadphase", g_configs);
    return hit;
}

static void check_contacts(scene *s, unsigned flags, orc_verdict truth, copse_robot_contact *buf)
{
    uint32_t n = 0, n2 = 0;
    unsigned i, k;
    bool tr = true, tr2 = true;
    copse_robot_contact *b2 = buf + MAXC, first;
    (void)truth;
    memset(buf, 0xA5, sizeof(*buf) * MAXC);
    CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, flags, buf, MAXC, &n, &tr), COPSE_OK);
    CHECK(!tr && n <= MAXC);
    if (n > MAXC)
        n = MAXC;
    g_contacts += n;
    for (i = 0, k = 0; i < n; i++) {
        unsigned p = pair_index(&buf[i]);
        if (!contact_real(s, &buf[i], band_of(s)))
            break;
        CHECKF(i == 0u || p >= k, "contacts out of order or repeated at %u", i);
        for (; k < p; k++)
            CHECKF(i > 0u && k == pair_index(&buf[i - 1u]) ? true : g_verdict[k] != ORC_YES,
                   "config %lu: contacts miss pair link %u kind %u other %u", g_configs, g_pairs[k].link,
                   g_pairs[k].kind, g_pairs[k].other);
        k = p + 1u;
    }
    if (i == n)
        for (; k < g_npairs; k++)
            CHECKF(g_verdict[k] != ORC_YES, "config %lu: contacts miss pair link %u kind %u other %u", g_configs,
                   g_pairs[k].link, g_pairs[k].kind, g_pairs[k].other);
    /* the same with the shapes' pre-test off and without the broadphase */
    memset(b2, 0xA5, sizeof(*b2) * MAXC);
    CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, flags | COPSE_ROBOT_NO_SHAPES, b2, MAXC, &n2,
                                      &tr2),
                 COPSE_OK);
    CHECK(n2 == n && tr2 == tr && memcmp(buf, b2, sizeof(*buf) * n) == 0);
    memset(b2, 0xA5, sizeof(*b2) * MAXC);
    CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world_flat, s->poses, flags, b2, MAXC, &n2, &tr2), COPSE_OK);
    CHECK(n2 == n && tr2 == tr && memcmp(buf, b2, sizeof(*buf) * n) == 0);
    /* collides' first is contacts' first */
    empty_contact(&first);
    CHECK_STATUS(copse_robot_collides(&s->robot, &s->world, s->poses, flags, &first), COPSE_OK);
    if (n > 0u)
        CHECKF(memcmp(&first, &buf[0], sizeof first) == 0, "config %lu: collides' contact is not contacts' first",
               g_configs);
    else
        CHECK(first.kind == COPSE_CONTACT_NONE);
    /* capacities: 0 (NULL array), 1, exact */
    n2 = 99u;
    tr2 = false;
    CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, flags, NULL, 0u, &n2, &tr2), COPSE_OK);
    CHECK(n2 == 0u && tr2 == (n > 0u));
    memset(b2, 0xA5, sizeof(*b2) * 2u);
    CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, flags, b2, 1u, &n2, &tr2), COPSE_OK);
    CHECK(n2 == (n > 0u ? 1u : 0u) && tr2 == (n > 1u));
    if (n > 0u)
        CHECK(memcmp(b2, buf, sizeof *b2) == 0);
    {
        uint8_t guard[sizeof(copse_robot_contact)];
        memset(guard, 0xA5, sizeof guard);
        memset(b2, 0xA5, sizeof(*b2) * (n + 1u));
        CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, flags, b2, n, &n2, &tr2),
                     n > 0u ? COPSE_OK : COPSE_OK);
        CHECK(n2 == n && !tr2 && memcmp(b2, buf, sizeof(*buf) * n) == 0);
        CHECK(memcmp(&b2[n], guard, sizeof guard) == 0);
    }
}

static double err_k(const scene *s, double e)
{
    double k = e / (ORC_FLT_EPS * (s->mag > 1.0 ? s->mag : 1.0));
    if (k > g_worst_dist)
        g_worst_dist = k;
    return k;
}

/* One side of a link's distance (world or self) against the oracle. */
static void check_near(scene *s, unsigned l, bool self, float got, const copse_robot_contact *nc, copse_vec3 op,
                       double want, float max_distance)
{
    double tol = tol_of(s), p[3], q[3], da, db, pads, sep;
    orb_side a, b, pt;
    unsigned other;
    if (want == ORB_INF || want > (double)max_distance + tol) {
        if (max_distance == FLT_MAX || want > (double)max_distance + tol)
            CHECKF(got == FLT_MAX, "config %lu link %u %s: %g, the oracle finds nothing within %g", g_configs, l,
                   self ? "self" : "world", (double)got, (double)max_distance);
        return;
    }
    if (got == FLT_MAX) {
        CHECKF(want > (double)max_distance - tol, "config %lu link %u %s: nothing found, the oracle %.9g", g_configs,
               l, self ? "self" : "world", want);
        return;
    }
    g_dist_checks++;
    CHECKF(err_k(s, fabs((double)got - want)) <= DIST_K, "config %lu link %u %s distance %.9g, oracle %.9g",
           g_configs, l, self ? "self" : "world", (double)got, want);
    CHECK(nc->link == l && (self ? nc->kind == COPSE_CONTACT_SELF : nc->kind >= COPSE_CONTACT_MESH));
    other = nc->kind == COPSE_CONTACT_SCAN ? 0u : nc->other;
    a = orb_side_make(ORB_LINK, l, ORB_ANY);
    b = orb_side_make(nc->kind == COPSE_CONTACT_SELF ? ORB_LINK : nc->kind, other, ORB_ANY);
    if (!CHECK(nc->kind >= COPSE_CONTACT_SELF && nc->kind <= COPSE_CONTACT_OBJECT &&
               (nc->kind != COPSE_CONTACT_SELF || other < s->link_count) &&
               (nc->kind != COPSE_CONTACT_MESH || other < NMESH) && (nc->kind != COPSE_CONTACT_OBJECT || other < NOBJ)))
        return;
    pads = orb_padding(&s->os, &a) + orb_padding(&s->os, &b);
    {
        orb_pair pr;
        double pd;
        pr.link = l;
        pr.kind = b.kind;
        pr.other = other;
        pd = orb_pair_distance(&s->os, &pr, ORB_INF, NULL);
        CHECKF(pd <= want + tol, "config %lu link %u: the reported other (kind %u, %u) is %.9g away, the nearest %.9g",
               g_configs, l, (unsigned)nc->kind, other, pd, want);
    }
    d3(p, nc->point);
    d3(q, op);
    pt = orb_side_make(ORB_POINT, 0, ORB_ANY);
    pt.point = p;
    da = orb_distance(&s->os, &pt, &a, ORB_INF, NULL);
    pt.point = q;
    db = orb_distance(&s->os, &pt, &b, ORB_INF, NULL);
    CHECKF(da <= tol, "config %lu link %u %s: the link's point is %g off the link", g_configs, l,
           self ? "self" : "world", da);
    CHECKF(db <= tol + (b.kind == ORB_SCAN ? orb_padding(&s->os, &b) : 0.0),
           "config %lu link %u %s: the other's point is %g off it (kind %u)", g_configs, l, self ? "self" : "world", db,
           (unsigned)nc->kind);
    sep = orc_dist(p, q);
    if (want + pads > tol)
        CHECKF(fabs(sep - (want + pads)) <= 2.0 * tol + (b.kind == ORB_SCAN ? orb_padding(&s->os, &b) : 0.0),
               "config %lu link %u %s: the points are %.9g apart, the distance %.9g", g_configs, l,
               self ? "self" : "world", sep, want + pads);
}

static void check_distances(scene *s, unsigned flags, float max_distance, copse_link_distance *dl)
{
    copse_link_distance *d2 = dl + MAXL;
    unsigned l;
    memset(dl, 0xA5, sizeof(*dl) * MAXL);
    {
        copse_status st = copse_robot_distances(&s->robot, &s->world, s->poses, flags, max_distance, dl);
        CHECKF(st == COPSE_OK, "config %lu flags %u max_distance %g: distances -> %s", g_configs, flags,
               (double)max_distance, copse_status_str(st));
    }
    for (l = 0; l < s->link_count; l++) {
        orb_link_near on;
        double cut = max_distance == FLT_MAX ? ORB_INF : (double)max_distance + tol_of(s);
        orb_link_distances(&s->os, l, flags, cut, &on);
        if (flags & COPSE_ROBOT_WORLD)
            check_near(s, l, false, dl[l].world, &dl[l].world_nearest, dl[l].world_point, on.world, max_distance);
        else
            CHECK(dl[l].world == FLT_MAX);
        if (flags & COPSE_ROBOT_SELF)
            check_near(s, l, true, dl[l].self, &dl[l].self_nearest, dl[l].self_point, on.self, max_distance);
        else
            CHECK(dl[l].self == FLT_MAX);
    }
    memset(d2, 0xA5, sizeof(*d2) * MAXL);
    CHECK_STATUS(copse_robot_distances(&s->robot, &s->world, s->poses, flags | COPSE_ROBOT_NO_SHAPES, max_distance,
                                       d2),
                 COPSE_OK);
    CHECKF(memcmp(dl, d2, sizeof(*dl) * s->link_count) == 0, "config %lu: distances differ with NO_SHAPES",
           g_configs);
    memset(d2, 0xA5, sizeof(*d2) * MAXL);
    CHECK_STATUS(copse_robot_distances(&s->robot, &s->world_flat, s->poses, flags, max_distance, d2), COPSE_OK);
    CHECKF(memcmp(dl, d2, sizeof(*dl) * s->link_count) == 0, "config %lu: distances differ without the broadphase",
           g_configs);
}

/* ---- tests ------------------------------------------------------------------------------------------ */

static unsigned n_configs(void)
{
    return big_machine() ? 300u : small_machine() ? 4u : 12u;
}

static void *scratch_after(size_t n)
{
    return take(n);
}

static void run_configs(unsigned variant, uint64_t seed)
{
    scene *s = make_scene(variant, seed);
    test_rng rng;
    float q[MAXV];
    unsigned i, n = n_configs();
    copse_robot_contact *buf;
    copse_link_distance *dl;
    if (!CHECKF(s != NULL, "the scene does not fit in %lu bytes", (unsigned long)test_memory_bytes()))
        return;
    buf = (copse_robot_contact *)scratch_after(sizeof(*buf) * 2u * MAXC);
    dl = (copse_link_distance *)scratch_after(sizeof(*dl) * 2u * MAXL);
    if (!CHECK(buf && dl))
        return;
    test_rng_seed(&rng, seed * 7u + 1u);
    for (i = 0; i < n; i++) {
        static const unsigned flag_set[3] = {COPSE_ROBOT_CHECK_DEFAULT, COPSE_ROBOT_SELF, COPSE_ROBOT_WORLD};
        unsigned flags = flag_set[i % 3u];
        orc_verdict truth;
        sample_q(s, &rng, q);
        if (!pose_at(s, q))
            return;
        if (test_rng_below(&rng, 4u) != 0u)
            place_objects(s, &rng);
        g_configs++;
        truth = all_verdicts(s, flags, band_of(s));
        if (orc_fragile(truth))
            g_band++;
        g_pairs_checked += g_npairs;
        (void)check_collides(s, flags, truth);
        check_contacts(s, flags, truth, buf);
        if (i % 2u == 0u || big_machine())
            check_distances(s, flags, i % 4u == 0u ? 0.05f : FLT_MAX, dl);
    }
}

static void test_padless(void)
{
    run_configs(0u, 11u);
}

static void test_padded_adjacent(void)
{
    run_configs(3u, 23u);
}

static void test_padded(void)
{
    run_configs(1u, 37u);
}

/* Forward kinematics: the library's float poses against the oracle's double ones. */
static void test_fk(void)
{
    scene *s = make_scene(3u, 5u);
    test_rng rng;
    float q[MAXV];
    double qd[MAXV];
    orcc_pose *op;
    unsigned i, n = big_machine() ? 400u : 30u, l, a, b, v;
    double worst = 0.0;
    if (!CHECK(s != NULL))
        return;
    op = (orcc_pose *)take(sizeof(orcc_pose) * MAXL);
    if (!CHECK(op != NULL))
        return;
    test_rng_seed(&rng, 99u);
    for (i = 0; i < n; i++) {
        sample_q(s, &rng, q);
        if (!pose_at(s, q))
            return;
        for (v = 0; v < s->dof; v++)
            qd[v] = (double)q[v];
        CHECK(orb_fk(&s->orobot, qd, &s->obase, op));
        for (l = 0; l < s->link_count; l++) {
            double e = 0.0, tol = FK_K * ORC_FLT_EPS * (double)(s->joint_count + 1u);
            for (a = 0; a < 3; a++) {
                for (b = 0; b < 3; b++)
                    e = fmax(e, fabs(op[l].r[a][b] - (double)s->poses[l].rotation[a][b]));
                e = fmax(e, fabs(op[l].t[a] - (a == 0 ? (double)s->poses[l].translation.x
                                                      : a == 1 ? (double)s->poses[l].translation.y
                                                               : (double)s->poses[l].translation.z)) /
                                fmax(1.0, s->mag));
            }
            worst = fmax(worst, e / (ORC_FLT_EPS * (double)(s->joint_count + 1u)));
            CHECKF(e <= tol, "fk link %u: off by %g (tolerance %g)", l, e, tol);
        }
    }
    copse_port_printf("info robot_check/fk: %u configurations, worst %.2f ulps per joint\n", n, worst);
}

/* The configuration the motion functions check at fraction f (their float interpolation, as
 * robot.h's "straight in joint space" rounds it), in double for the oracle. */
static void motion_q(const scene *s, const float *q0, const float *q1, float f, double *qd, float *qf)
{
    uint32_t v;
    for (v = 0; v < s->dof; v++) {
        float x = q0[v] + f * (q1[v] - q0[v]);
        float lo = q0[v] < q1[v] ? q0[v] : q1[v], hi = q0[v] < q1[v] ? q1[v] : q0[v];
        x = f == 0.0f ? q0[v] : f == 1.0f ? q1[v] : (x < lo ? lo : x > hi ? hi : x);
        if (qf)
            qf[v] = x;
        qd[v] = (double)x;
    }
}

static double motion_band(const scene *s)
{
    /* the oracle's double FK differs from the library's float FK by this much */
    return band_of(s) + FK_K * ORC_FLT_EPS * (double)(s->joint_count + 1u) * (s->mag > 1.0 ? s->mag : 1.0);
}

/* The smallest padded distance over the pairs the flags check, at the oracle's current poses
 * (at most cutoff; else ORB_INF). */
static double min_distance(scene *s, unsigned flags, double cutoff)
{
    unsigned i;
    double best = cutoff, d;
    bool any = false;
    for (i = 0; i < g_npairs; i++) {
        bool self = g_pairs[i].kind == ORB_LINK;
        if (!((self && (flags & ORB_SELF)) || (!self && (flags & ORB_WORLD))))
            continue;
        d = orb_pair_distance(&s->os, &g_pairs[i], best, NULL);
        if (d != ORB_INF && (!any || d < best)) {
            best = d;
            any = true;
        }
    }
    return any ? best : ORB_INF;
}

/* q0 mostly clear (per the oracle), q1 anywhere: a fair share of motions that hit nothing. */
static void random_motion(scene *s, test_rng *rng, float *q0, float *q1)
{
    uint32_t v, tries;
    double qd[MAXV];
    for (tries = 0; tries < 8u; tries++) {
        sample_q(s, rng, q0);
        for (v = 0; v < s->dof; v++)
            qd[v] = (double)q0[v];
        oracle_pose_at(s, qd);
        if (min_distance(s, COPSE_ROBOT_CHECK_DEFAULT, 0.02) == ORB_INF)
            break;
    }
    sample_q(s, rng, q1);
    if (test_rng_below(rng, 2u))
        for (v = 0; v < s->dof; v++) /* a short one */
            q1[v] = q0[v] + 0.3f * (q1[v] - q0[v]);
}

static void test_motion(void)
{
    scene *s = make_scene(1u, 41u);
    test_rng rng;
    float q0[MAXV], q1[MAXV], qf[MAXV], frac;
    double qd[MAXV];
    copse_robot_contact c;
    unsigned i, n = small_machine() ? 2u : big_machine() ? 150u : 4u, hits = 0;
    if (!CHECK(s != NULL))
        return;
    test_rng_seed(&rng, 4242u);
    for (i = 0; i < n; i++) {
        float max_step = i % 2u ? 0.05f : 0.2f, longest = 0.0f, ratio;
        unsigned v, steps, k, first_yes, got_k;
        if (i % 3u == 0u)
            place_objects(s, &rng);
        random_motion(s, &rng, q0, q1);
        for (v = 0; v < s->dof; v++)
            longest = fmaxf(longest, fabsf(q1[v] - q0[v]));
        ratio = longest / max_step;
        steps = (uint32_t)ratio;
        if ((float)steps < ratio)
            steps++;
        CHECK_STATUS(copse_robot_motion(&s->robot, &s->world, q0, q1, &s->base, s->poses, max_step,
                                        COPSE_ROBOT_CHECK_DEFAULT, &frac, &c),
                     COPSE_OK);
        g_motions++;
        got_k = steps + 1u;
        for (k = 0; k <= steps; k++) {
            float f = k == steps ? 1.0f : (float)k / (float)steps;
            if (steps == 0u)
                f = 0.0f;
            if (frac == f && c.kind != COPSE_CONTACT_NONE) {
                got_k = k;
                break;
            }
        }
        if (c.kind == COPSE_CONTACT_NONE)
            CHECK(frac == 1.0f);
        else
            CHECKF(got_k <= steps, "motion %u: fraction %.9g is none of the %u steps", i, (double)frac, steps);
        /* the oracle at every checked configuration up to the reported one */
        first_yes = steps + 1u;
        for (k = 0; k <= steps && k <= got_k; k++) {
            float f = k == steps ? 1.0f : steps == 0u ? 0.0f : (float)k / (float)steps;
            orc_verdict t;
            motion_q(s, q0, q1, f, qd, qf);
            oracle_pose_at(s, qd);
            t = all_verdicts(s, COPSE_ROBOT_CHECK_DEFAULT, motion_band(s));
            if (t == ORC_YES && first_yes > steps)
                first_yes = k;
            if (k == got_k)
                CHECKF(t != ORC_NO, "motion %u: step %u/%u reported colliding, the oracle finds it clear", i, k,
                       steps);
        }
        CHECKF(first_yes >= got_k, "motion %u: the oracle collides at step %u/%u, the library reports %u", i,
               first_yes, steps, got_k);
        if (c.kind != COPSE_CONTACT_NONE && got_k <= steps) {
            /* its contact is real at the poses it returns */
            uint32_t l;
            hits++;
            for (l = 0; l < s->link_count; l++)
                orcc_pose_of(&s->oposes[l], &s->poses[l]);
            (void)all_verdicts(s, COPSE_ROBOT_CHECK_DEFAULT, band_of(s));
            (void)contact_real(s, &c, band_of(s));
        }
    }
    copse_port_printf("info robot_check/motion: %u motions, %u colliding\n", n, hits);
}

static void test_motion_continuous(void)
{
    scene *s = make_scene(0u, 43u);
    test_rng rng;
    float q0[MAXV], q1[MAXV], frac;
    double qd[MAXV];
    copse_robot_contact c;
    unsigned i, n = small_machine() ? 1u : big_machine() ? 60u : 2u, dense = big_machine() ? 200u : 24u;
    unsigned stops = 0, limits = 0, clear = 0;
    if (!CHECK(s != NULL))
        return;
    test_rng_seed(&rng, 777u);
    for (i = 0; i < n; i++) {
        float clearance = i % 2u ? 0.01f : 0.002f;
        uint32_t k, checks = i % 5u == 4u ? 3u : 5000u;
        copse_status st;
        double mb, d0;
        if (i % 3u == 0u)
            place_objects(s, &rng);
        random_motion(s, &rng, q0, q1);
        st = copse_robot_motion_continuous(&s->robot, &s->world, q0, q1, &s->base, s->poses, clearance, checks,
                                           COPSE_ROBOT_CHECK_DEFAULT, &frac, &c);
        g_motions++;
        if (!CHECKF(st == COPSE_OK || st == COPSE_ERR_LIMIT, "continuous motion %u: %s", i, copse_status_str(st)))
            continue;
        CHECK(frac >= 0.0f && frac <= 1.0f);
        if (st == COPSE_ERR_LIMIT) {
            limits++;
            CHECK(c.kind == COPSE_CONTACT_NONE);
        } else if (c.kind == COPSE_CONTACT_NONE) {
            clear++;
            CHECK(frac == 1.0f);
        } else
            stops++;
        motion_q(s, q0, q1, 0.0f, qd, NULL);
        oracle_pose_at(s, qd);
        mb = motion_band(s);
        d0 = min_distance(s, COPSE_ROBOT_CHECK_DEFAULT, ORB_INF);
        if (d0 < (double)clearance - mb)
            CHECKF(st == COPSE_OK && frac == 0.0f && c.kind != COPSE_CONTACT_NONE,
                   "continuous motion %u: q0 is %g from collision (clearance %g) but the motion goes on to %g", i, d0,
                   (double)clearance, (double)frac);
        /* no collision anywhere in what it certified */
        for (k = 0; k <= dense; k++) {
            float f = (float)k / (float)dense;
            double d;
            if (st == COPSE_OK && c.kind != COPSE_CONTACT_NONE ? f >= frac : st == COPSE_ERR_LIMIT && f > frac)
                break;
            motion_q(s, q0, q1, f, qd, NULL);
            oracle_pose_at(s, qd);
            d = min_distance(s, COPSE_ROBOT_CHECK_DEFAULT, mb);
            CHECKF(d == ORB_INF || d > -mb,
                   "continuous motion %u: certified through %g but the oracle collides at %g (distance %g)", i,
                   (double)frac, (double)f, d);
        }
        if (st == COPSE_OK && c.kind != COPSE_CONTACT_NONE) {
            /* the configuration where it stops is within min_clearance of collision, and the contact is
             * the nearest pair there */
            double d, pd;
            orb_pair pr;
            motion_q(s, q0, q1, frac, qd, NULL);
            oracle_pose_at(s, qd);
            d = min_distance(s, COPSE_ROBOT_CHECK_DEFAULT, ORB_INF);
            CHECKF(d < (double)clearance + mb + tol_of(s),
                   "continuous motion %u: stops at %g, where the oracle's nearest pair is %g away (clearance %g)", i,
                   (double)frac, d, (double)clearance);
            pr.link = c.link;
            pr.kind = c.kind == COPSE_CONTACT_SELF ? ORB_LINK : c.kind;
            pr.other = c.kind == COPSE_CONTACT_SCAN ? 0u : c.other;
            if (CHECK(c.link < s->link_count)) {
                pd = orb_pair_distance(&s->os, &pr, ORB_INF, NULL);
                CHECKF(pd <= d + mb + tol_of(s), "continuous motion %u: contact pair is %g away, the nearest %g", i,
                       pd, d);
            }
        }
    }
    copse_port_printf("info robot_check/motion_continuous: %u motions: %u clear, %u stopped, %u at the limit\n", n,
                      clear, stops, limits);
}

/* Saved and viewed: the same answers, bit for bit. */
static void test_saved(void)
{
    scene *s = make_scene(1u, 51u);
    copse_robot view;
    size_t bytes, written = 0;
    void *blob;
    copse_robot_contact *b1, *b2;
    copse_link_distance *d1, *d2;
    test_rng rng;
    float q[MAXV], f1, f2, q1[MAXV];
    unsigned i, n = big_machine() ? 40u : 3u;
    if (!CHECK(s != NULL))
        return;
    bytes = copse_robot_save_bytes(&s->robot);
    blob = take(bytes);
    b1 = (copse_robot_contact *)take(sizeof(*b1) * 2u * MAXC);
    d1 = (copse_link_distance *)take(sizeof(*d1) * 2u * MAXL);
    if (!blob || !b1 || !d1) {
        CHECK(small_machine());
        test_skip("the blob does not fit beside the scene");
        return;
    }
    b2 = b1 + MAXC;
    d2 = d1 + MAXL;
    CHECK_STATUS(copse_robot_save(&s->robot, blob, bytes, &written), COPSE_OK);
    /* little endian as saved; a big-endian host converts it first (a no-op here) */
    CHECK_STATUS(copse_blob_to_host(blob, written, blob, written, NULL), COPSE_OK);
    CHECK(written == bytes);
    CHECK_STATUS(copse_robot_view(&view, blob, written), COPSE_OK);
    test_rng_seed(&rng, 9u);
    for (i = 0; i < n; i++) {
        copse_robot_contact c1, c2;
        uint32_t n1 = 0, n2 = 0;
        bool t1 = false, t2 = false;
        sample_q(s, &rng, q);
        if (!pose_at(s, q))
            return;
        place_objects(s, &rng);
        memset(&c1, 0, sizeof c1);
        memset(&c2, 0, sizeof c2);
        CHECK_STATUS(copse_robot_collides(&s->robot, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c1), COPSE_OK);
        CHECK_STATUS(copse_robot_collides(&view, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c2), COPSE_OK);
        CHECK(memcmp(&c1, &c2, sizeof c1) == 0);
        memset(b1, 0, sizeof(*b1) * 2u * MAXC);
        CHECK_STATUS(copse_robot_contacts(&s->robot, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, b1, MAXC, &n1, &t1),
                     COPSE_OK);
        CHECK_STATUS(copse_robot_contacts(&view, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, b2, MAXC, &n2, &t2),
                     COPSE_OK);
        CHECK(n1 == n2 && t1 == t2 && memcmp(b1, b2, sizeof(*b1) * MAXC) == 0);
        memset(d1, 0, sizeof(*d1) * 2u * MAXL);
        CHECK_STATUS(copse_robot_distances(&s->robot, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, FLT_MAX, d1),
                     COPSE_OK);
        CHECK_STATUS(copse_robot_distances(&view, &s->world, s->poses, COPSE_ROBOT_CHECK_DEFAULT, FLT_MAX, d2),
                     COPSE_OK);
        CHECK(memcmp(d1, d2, sizeof(*d1) * MAXL) == 0);
        if (i < 4u) {
            copse_pose *p2 = (copse_pose *)d2; /* scratch poses: the distances are compared already */
            sample_q(s, &rng, q1);
            CHECK_STATUS(copse_robot_motion(&s->robot, &s->world, q, q1, &s->base, s->poses, 0.1f,
                                            COPSE_ROBOT_CHECK_DEFAULT, &f1, &c1),
                         COPSE_OK);
            CHECK_STATUS(copse_robot_motion(&view, &s->world, q, q1, &s->base, p2, 0.1f, COPSE_ROBOT_CHECK_DEFAULT,
                                            &f2, &c2),
                         COPSE_OK);
            CHECK(f1 == f2 && memcmp(&c1, &c2, sizeof c1) == 0);
            CHECK_STATUS(copse_robot_motion_continuous(&s->robot, &s->world, q, q1, &s->base, s->poses, 0.005f, 2000u,
                                                       COPSE_ROBOT_CHECK_DEFAULT, &f1, &c1),
                         COPSE_OK);
            CHECK_STATUS(copse_robot_motion_continuous(&view, &s->world, q, q1, &s->base, p2, 0.005f, 2000u,
                                                       COPSE_ROBOT_CHECK_DEFAULT, &f2, &c2),
                         COPSE_OK);
            CHECK(f1 == f2 && memcmp(&c1, &c2, sizeof c1) == 0);
        }
    }
}

static bool contact_is_empty(const copse_robot_contact *c)
{
    return c->kind == COPSE_CONTACT_NONE;
}

static void test_errors(void)
{
    scene *s = make_scene(0u, 61u);
    copse_robot_contact c, list[2];
    copse_link_distance *dl;
    uint32_t n;
    bool tr;
    float q0[MAXV], q1[MAXV], f;
    copse_pose saved;
    test_rng rng;
    const copse_robot *r;
    const copse_world *w;
    if (!CHECK(s != NULL))
        return;
    dl = (copse_link_distance *)take(sizeof(*dl) * MAXL);
    if (!CHECK(dl != NULL))
        return;
    r = &s->robot;
    w = &s->world;
    test_rng_seed(&rng, 3u);
    sample_q(s, &rng, q0);
    sample_q(s, &rng, q1);
    if (!pose_at(s, q0))
        return;
    /* collides */
    empty_contact(&c);
    CHECK_STATUS(copse_robot_collides(NULL, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    CHECK(contact_is_empty(&c));
    empty_contact(&c);
    CHECK_STATUS(copse_robot_collides(r, NULL, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    CHECK(contact_is_empty(&c));
    CHECK_STATUS(copse_robot_collides(r, NULL, s->poses, COPSE_ROBOT_SELF, &c), COPSE_OK);
    empty_contact(&c);
    CHECK_STATUS(copse_robot_collides(r, w, NULL, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    CHECK(contact_is_empty(&c));
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, NULL), COPSE_ERR_NULL);
    empty_contact(&c);
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, 64u, &c), COPSE_ERR_PARAM);
    CHECK(contact_is_empty(&c));
    saved = s->poses[2];
    s->poses[2].translation.y = NAN;
    empty_contact(&c);
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NONFINITE);
    CHECK(contact_is_empty(&c));
    s->poses[2].rotation[0][0] = INFINITY;
    s->poses[2].translation = saved.translation;
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NONFINITE);
    s->poses[2] = saved;
    s->poses[2].rotation[0][0] = 2.0f; /* no rotation */
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_PARAM);
    s->poses[2] = saved;
    {
        copse_world bad = *w;
        bad.scan_padding = -1.0f;
        CHECK_STATUS(copse_robot_collides(r, &bad, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_PARAM);
        bad.scan_padding = NAN;
        CHECK_STATUS(copse_robot_collides(r, &bad, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NONFINITE);
        bad = *w;
        bad.meshes = NULL;
        CHECK_STATUS(copse_robot_collides(r, &bad, s->poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    }
    CHECK_STATUS(copse_robot_collides(r, w, s->poses, 0u, &c), COPSE_OK);
    CHECK(contact_is_empty(&c));
    /* contacts */
    n = 7u;
    tr = true;
    CHECK_STATUS(copse_robot_contacts(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, NULL, 2u, &n, &tr), COPSE_ERR_NULL);
    CHECK(n == 0u && !tr);
    CHECK_STATUS(copse_robot_contacts(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, list, 2u, NULL, &tr), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_contacts(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, list, 2u, &n, NULL), COPSE_ERR_NULL);
    n = 7u;
    CHECK_STATUS(copse_robot_contacts(NULL, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, list, 2u, &n, &tr), COPSE_ERR_NULL);
    CHECK(n == 0u && !tr);
    n = 7u;
    CHECK_STATUS(copse_robot_contacts(r, w, s->poses, 8u, list, 2u, &n, &tr), COPSE_ERR_PARAM);
    CHECK(n == 0u && !tr);
    CHECK_STATUS(copse_robot_contacts(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, NULL, 0u, &n, &tr), COPSE_OK);
    /* distances */
    CHECK_STATUS(copse_robot_distances(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, -1.0f, dl), COPSE_ERR_PARAM);
    CHECK(dl[0].world == FLT_MAX && dl[0].self == FLT_MAX && dl[0].world_nearest.kind == COPSE_CONTACT_NONE);
    CHECK_STATUS(copse_robot_distances(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, NAN, dl), COPSE_ERR_PARAM);
    CHECK(dl[1].world == FLT_MAX);
    CHECK_STATUS(copse_robot_distances(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, 1.0f, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_distances(NULL, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, 1.0f, dl), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_distances(r, NULL, s->poses, COPSE_ROBOT_CHECK_DEFAULT, 1.0f, dl), COPSE_ERR_NULL);
    CHECK(dl[0].world == FLT_MAX);
    CHECK_STATUS(copse_robot_distances(r, w, s->poses, 0x10u, 1.0f, dl), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_distances(r, w, s->poses, COPSE_ROBOT_CHECK_DEFAULT, 0.0f, dl), COPSE_OK);
    /* motions */
    f = 0.5f;
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 0.0f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK(contact_is_empty(&c));
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, -0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, NAN, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 1e-9f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM); /* more than COPSE_ROBOT_MAX_CHECKS steps */
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, NULL, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, NULL, &c),
                 COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_motion(r, w, NULL, q1, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_motion(r, NULL, q0, q1, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 0.1f, 32u, &f, &c), COPSE_ERR_PARAM);
    q1[1] = NAN;
    CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NONFINITE);
    CHECK(contact_is_empty(&c) && f == 0.0f);
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, 0.01f, 100u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NONFINITE);
    q1[1] = q0[1];
    {
        float keep = q0[0];
        q0[0] = s->upper[0] + 1.0f; /* outside its limits: forward kinematics refuses it */
        f = 0.5f;
        CHECK_STATUS(copse_robot_motion(r, w, q0, q1, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                     COPSE_ERR_PARAM);
        CHECK(contact_is_empty(&c));
        q0[0] = keep;
    }
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, 0.0f, 100u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, -1.0f, 100u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, NAN, 100u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, 0.01f, 0u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_PARAM);
    CHECK(contact_is_empty(&c) && f == 0.0f);
    CHECK_STATUS(copse_robot_motion_continuous(r, NULL, q0, q1, &s->base, s->poses, 0.01f, 10u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_motion_continuous(r, w, q0, q1, &s->base, s->poses, 0.01f, 10u,
                                               COPSE_ROBOT_CHECK_DEFAULT, &f, NULL),
                 COPSE_ERR_NULL);
    /* the same motion, q0 = q1: one configuration */
    CHECK_STATUS(copse_robot_motion(r, w, q0, q0, &s->base, s->poses, 0.1f, COPSE_ROBOT_CHECK_DEFAULT, &f, &c),
                 COPSE_OK);
    CHECK(c.kind == COPSE_CONTACT_NONE ? f == 1.0f : f == 0.0f);
}

/* The scene, its double mirror for the oracle and the robot's build peak take about 19 KB even
 * scaled down: the micro:bit's 11 KB cannot hold them. It runs robot_model (build, FK, blobs) and
 * the arm demo (checks compared with the host) instead. */
#define ROBOT_CHECK_MIN_MEMORY ((size_t)24u << 10)

static void test_too_small(void)
{
    test_skip("robot_check needs 24 KB of test memory (the scene, the oracle's mirror, the robot's build); "
              "this board runs robot_model and the arm demo");
}

void suite_robot_check(void)
{
    bool fits = test_memory_bytes() >= ROBOT_CHECK_MIN_MEMORY;
    g_configs = g_contacts = g_band = g_pairs_checked = g_dist_checks = g_motions = 0;
    g_worst_dist = 0.0;
    test_run("robot_check/fk", fits ? test_fk : test_too_small);
    test_run("robot_check/padless", fits ? test_padless : test_too_small);
    test_run("robot_check/padded", fits ? test_padded : test_too_small);
    test_run("robot_check/padded_adjacent", fits ? test_padded_adjacent : test_too_small);
    test_run("robot_check/motion", fits ? test_motion : test_too_small);
    test_run("robot_check/motion_continuous", fits ? test_motion_continuous : test_too_small);
    test_run("robot_check/saved", fits ? test_saved : test_too_small);
    test_run("robot_check/errors", fits ? test_errors : test_too_small);
    copse_port_printf("info robot_check: %lu configurations, %lu pairs, %lu contacts, %lu band cases, %lu distances "
                      "(worst %.1f FLT_EPSILON * M), %lu motions\n",
                      g_configs, g_pairs_checked, g_contacts, g_band, g_dist_checks, g_worst_dist, g_motions);
}

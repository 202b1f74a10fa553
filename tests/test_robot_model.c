/* SPDX-License-Identifier: MIT */
/*
 * The robot model (copse/robot.h: build, forward kinematics, names, link parts, the allowed
 * matrix, save and view) against oracles written here: a double-precision forward kinematics
 * from the textbook definitions (URDF's fixed-axis roll-pitch-yaw, Rodrigues' rotation), brute
 * force over each link's triangles, containment of mesh corners in the link's shapes in double,
 * and the description itself for every count, name and pair. Robots: a hand (a branching tree
 * with fixed, continuous, revolute, prismatic and mimic joints, meshes with every index type and
 * a stride) and random trees of random joints; blobs mutated byte by byte.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "copse/blob.h"
#include "copse/robot.h"
#include "oracle/oracle.h"
#include "suites.h"
#include "test_blob.h"
#include "test.h"

/* ---- memory: a bump allocator over the harness's free region -------------------------------- */

static uint8_t *tm_base;
static size_t tm_cap, tm_used;

static void tm_reset(void)
{
    uintptr_t p;
    size_t lost;
    tm_base = (uint8_t *)test_memory(&tm_cap);
    p = (uintptr_t)tm_base;
    lost = (size_t)((8u - (p & 7u)) & 7u);
    tm_base += lost;
    tm_cap = tm_cap > lost ? tm_cap - lost : 0u;
    tm_used = 0;
}

static void *tm_alloc(size_t n)
{
    void *p;
    n = (n + 7u) & ~(size_t)7u;
    if (tm_cap - tm_used < n)
        return NULL;
    p = tm_base + tm_used;
    tm_used += n;
    return p;
}

static bool big_machine(void)
{
    return test_memory_bytes() >= ((size_t)1u << 20);
}

/* ---- descriptions -------------------------------------------------------------------------------- */

#define TM_MAX_LINKS 12u

typedef struct tm_robot {
    copse_link_desc links[TM_MAX_LINKS];
    copse_joint_desc joints[TM_MAX_LINKS];
    copse_link_pair allowed[4];
    copse_sphere spheres[TM_MAX_LINKS];
    copse_capsule capsules[TM_MAX_LINKS];
    copse_robot_desc desc;
} tm_robot;

static tm_robot *tm_robot_new(uint32_t links)
{
    tm_robot *r = (tm_robot *)tm_alloc(sizeof *r);
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    uint32_t i;
    if (r == NULL)
        return NULL;
    memset(r, 0, sizeof *r);
    for (i = 0; i < TM_MAX_LINKS; i++) {
        r->joints[i].mimic = -1;
        r->joints[i].multiplier = 1.0f;
    }
    r->desc.links = r->links;
    r->desc.link_count = links;
    r->desc.joints = r->joints;
    r->desc.joint_count = links - 1u;
    r->desc.tree_params = params;
    return r;
}

static copse_joint_desc *tm_joint(tm_robot *r, uint32_t j, const char *name, copse_joint_type type, uint32_t parent,
                                  uint32_t child)
{
    copse_joint_desc *jd = &r->joints[j];
    jd->name = name;
    jd->type = type;
    jd->parent = parent;
    jd->child = child;
    jd->axis = copse_v3(0.0f, 0.0f, 1.0f);
    return jd;
}

/* A box mesh: 8 corners (stride 12 or 16 bytes), 12 triangles with u16, u32 or no indices
 * (then 36 corners). */
static const uint8_t k_box_tris[36] = { 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                        2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6 };

static copse_mesh *tm_box(copse_vec3 c, copse_vec3 h, copse_mesh_index_type type, uint32_t stride_floats)
{
    copse_mesh *m = (copse_mesh *)tm_alloc(sizeof *m);
    uint32_t nv = type == COPSE_MESH_INDEX_NONE ? 36u : 8u, v, k;
    float *pos = (float *)tm_alloc(sizeof(float) * stride_floats * nv);
    if (m == NULL || pos == NULL)
        return NULL;
    memset(m, 0, sizeof *m);
    for (v = 0; v < nv; v++) {
        uint32_t corner = type == COPSE_MESH_INDEX_NONE ? k_box_tris[v] : v;
        pos[stride_floats * v + 0] = c.x + ((corner & 1u) ? h.x : -h.x);
        pos[stride_floats * v + 1] = c.y + ((corner & 2u) ? h.y : -h.y);
        pos[stride_floats * v + 2] = c.z + ((corner & 4u) ? h.z : -h.z);
        for (k = 3; k < stride_floats; k++)
            pos[stride_floats * v + k] = -1234.0f;
    }
    m->positions = pos;
    m->vertex_count = nv;
    m->vertex_stride = stride_floats == 3u ? 0u : 4u * stride_floats;
    m->index_type = type;
    m->triangle_count = 12u;
    if (type == COPSE_MESH_INDEX_U16) {
        uint16_t *ix = (uint16_t *)tm_alloc(sizeof(uint16_t) * 36u);
        if (ix == NULL)
            return NULL;
        for (k = 0; k < 36u; k++)
            ix[k] = k_box_tris[k];
        m->indices = ix;
    } else if (type == COPSE_MESH_INDEX_U32) {
        uint32_t *ix = (uint32_t *)tm_alloc(sizeof(uint32_t) * 36u);
        if (ix == NULL)
            return NULL;
        for (k = 0; k < 36u; k++)
            ix[k] = k_box_tris[k];
        m->indices = ix;
    }
    return m;
}

/* A closed cylinder about z: n sides of radius rad from z0 to z1 (u32 indices). */
static copse_mesh *tm_cylinder(uint32_t n, float rad, float z0, float z1)
{
    copse_mesh *m = (copse_mesh *)tm_alloc(sizeof *m);
    float *pos = (float *)tm_alloc(sizeof(float) * 3u * (2u * n + 2u));
    uint32_t *ix = (uint32_t *)tm_alloc(sizeof(uint32_t) * 3u * 4u * n), i, t = 0;
    if (m == NULL || pos == NULL || ix == NULL)
        return NULL;
    memset(m, 0, sizeof *m);
    for (i = 0; i < n; i++) {
        double a = 2.0 * 3.14159265358979 * i / n;
        pos[3u * i] = pos[3u * (n + i)] = (float)((double)rad * cos(a));
        pos[3u * i + 1u] = pos[3u * (n + i) + 1u] = (float)((double)rad * sin(a));
        pos[3u * i + 2u] = z0;
        pos[3u * (n + i) + 2u] = z1;
    }
    pos[6u * n] = pos[6u * n + 1u] = pos[6u * n + 3u] = pos[6u * n + 4u] = 0.0f;
    pos[6u * n + 2u] = z0;
    pos[6u * n + 5u] = z1;
    for (i = 0; i < n; i++) {
        uint32_t j = (i + 1u) % n, q[12];
        q[0] = i, q[1] = j, q[2] = n + j, q[3] = i, q[4] = n + j, q[5] = n + i;
        q[6] = 2u * n, q[7] = j, q[8] = i, q[9] = 2u * n + 1u, q[10] = n + i, q[11] = n + j;
        memcpy(ix + t, q, sizeof q);
        t += 12u;
    }
    m->positions = pos;
    m->vertex_count = 2u * n + 2u;
    m->indices = ix;
    m->index_type = COPSE_MESH_INDEX_U32;
    m->triangle_count = 4u * n;
    return m;
}

/* Links of the hand, by index (the root is not link 0, the joints are not in tree order). */
enum { H_PALM, H_FINGER_L, H_BASE, H_UPPER, H_FINGER_R, H_FORE, H_TOOL, H_SHOULDER, H_LINKS };
static const char *const k_hand_links[H_LINKS] = { "palm", "finger_l", "base", "upper_arm",
                                                   "finger_r", "forearm", NULL, "shoulder" };
static const char *const k_hand_joints[H_LINKS - 1] = { "wrist", "finger_l_joint", "shoulder_pan", "finger_r_joint",
                                                        "elbow", "tool_mount", "shoulder_lift" };

static tm_robot *tm_hand(bool meshes)
{
    tm_robot *r = tm_robot_new(H_LINKS);
    copse_joint_desc *j;
    uint32_t i;
    if (r == NULL)
        return NULL;
    for (i = 0; i < H_LINKS; i++)
        r->links[i].name = k_hand_links[i];
    j = tm_joint(r, 0, k_hand_joints[0], COPSE_JOINT_FIXED, H_FORE, H_PALM);
    j->xyz = copse_v3(0.0f, 0.0f, 0.3f);
    j->rpy = copse_v3(0.1f, -0.2f, 0.3f);
    j->axis = copse_v3(0.0f, 0.0f, 0.0f); /* ignored: fixed */
    j = tm_joint(r, 1, k_hand_joints[1], COPSE_JOINT_PRISMATIC, H_PALM, H_FINGER_L);
    j->xyz = copse_v3(0.0f, 0.02f, 0.08f);
    j->axis = copse_v3(0.0f, 1.0f, 0.0f);
    j->upper = 0.04f;
    j = tm_joint(r, 2, k_hand_joints[2], COPSE_JOINT_CONTINUOUS, H_BASE, H_SHOULDER);
    j->xyz = copse_v3(0.0f, 0.0f, 0.1f);
    j = tm_joint(r, 3, k_hand_joints[3], COPSE_JOINT_PRISMATIC, H_PALM, H_FINGER_R);
    j->xyz = copse_v3(0.0f, -0.02f, 0.08f);
    j->axis = copse_v3(0.0f, 1.0f, 0.0f);
    j->lower = -0.04f;
    j->mimic = 1;
    j->multiplier = -1.0f;
    j->offset = 0.001f;
    j = tm_joint(r, 4, k_hand_joints[4], COPSE_JOINT_REVOLUTE, H_UPPER, H_FORE);
    j->xyz = copse_v3(0.0f, 0.0f, 0.4f);
    j->rpy = copse_v3(0.0f, 0.5f, 0.0f);
    j->axis = copse_v3(0.0f, 2.0f, 1.0f);
    j->lower = -2.5f;
    j->upper = 2.5f;
    j = tm_joint(r, 5, k_hand_joints[5], COPSE_JOINT_FIXED, H_PALM, H_TOOL);
    j->xyz = copse_v3(0.0f, 0.0f, 0.1f);
    j = tm_joint(r, 6, k_hand_joints[6], COPSE_JOINT_REVOLUTE, H_SHOULDER, H_UPPER);
    j->xyz = copse_v3(0.0f, 0.0f, 0.05f);
    j->rpy = copse_v3(1.5707964f, 0.0f, -0.25f);
    j->axis = copse_v3(0.0f, 1.0f, 0.0f);
    j->lower = -1.5f;
    j->upper = 1.5f;
    r->allowed[0].a = H_FINGER_R;
    r->allowed[0].b = H_FINGER_L;
    r->desc.allowed = r->allowed;
    r->desc.allowed_count = 1;
    /* shapes: a capsule around the upper arm's cylinder, a sphere around the palm, one too small
     * for the forearm, a sphere alone on the tool */
    r->capsules[0].segment.a = copse_v3(0.0f, 0.0f, 0.0f);
    r->capsules[0].segment.b = copse_v3(0.0f, 0.0f, 0.4f);
    r->capsules[0].radius = 0.07f;
    r->links[H_UPPER].capsules = &r->capsules[0];
    r->links[H_UPPER].capsule_count = 1;
    r->spheres[0].center = copse_v3(0.0f, 0.0f, 0.04f);
    r->spheres[0].radius = 0.07f;
    r->links[H_PALM].spheres = &r->spheres[0];
    r->links[H_PALM].sphere_count = 1;
    r->spheres[1].center = copse_v3(0.0f, 0.0f, 0.15f);
    r->spheres[1].radius = 0.05f;
    r->links[H_FORE].spheres = &r->spheres[1];
    r->links[H_FORE].sphere_count = 1;
    r->spheres[2].center = copse_v3(0.0f, 0.0f, 0.0f);
    r->spheres[2].radius = 0.01f;
    r->links[H_TOOL].spheres = &r->spheres[2];
    r->links[H_TOOL].sphere_count = 1;
    r->links[H_FORE].padding = 0.01f;
    if (meshes) { /* five meshes; three on a small machine (the Cortex-M0's 16 KB) */
        bool big = big_machine();
        r->links[H_UPPER].mesh = tm_cylinder(big ? 6u : 4u, 0.05f, 0.0f, 0.4f);
        r->links[H_FORE].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.15f), copse_v3(0.03f, 0.03f, 0.15f), COPSE_MESH_INDEX_U16, 4u);
        r->links[H_PALM].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.04f), copse_v3(0.03f, 0.04f, 0.04f), COPSE_MESH_INDEX_NONE, 3u);
        if (r->links[H_UPPER].mesh == NULL || r->links[H_FORE].mesh == NULL || r->links[H_PALM].mesh == NULL)
            return NULL;
        if (big) {
            r->links[H_BASE].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.05f), copse_v3(0.1f, 0.1f, 0.05f), COPSE_MESH_INDEX_U32, 3u);
            r->links[H_FINGER_L].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.02f), copse_v3(0.005f, 0.005f, 0.02f),
                                               COPSE_MESH_INDEX_U16, 3u);
            if (r->links[H_BASE].mesh == NULL || r->links[H_FINGER_L].mesh == NULL)
                return NULL;
        }
    }
    return r;
}

/* A random tree of n links: random parents, link indices and joint order shuffled, random
 * joint types, origins, axes (any length), limits and mimics. */
static tm_robot *tm_random(test_rng *rng, uint32_t n)
{
    tm_robot *r = tm_robot_new(n);
    uint32_t perm[TM_MAX_LINKS], jperm[TM_MAX_LINKS], i, k;
    bool mimicked[TM_MAX_LINKS];
    if (r == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        perm[i] = jperm[i] = i;
    for (i = n; i > 1u; i--) {
        uint32_t a = test_rng_below(rng, i), t = perm[i - 1u];
        perm[i - 1u] = perm[a];
        perm[a] = t;
    }
    for (i = n - 1u; i > 1u; i--) {
        uint32_t a = test_rng_below(rng, i), t = jperm[i - 1u];
        jperm[i - 1u] = jperm[a];
        jperm[a] = t;
    }
    for (i = 1; i < n; i++) {
        copse_joint_desc *j = tm_joint(r, jperm[i - 1u], NULL, (copse_joint_type)test_rng_below(rng, 4u),
                                       perm[test_rng_below(rng, i)], perm[i]);
        float s = test_rng_float(rng, 0.1f, 3.0f);
        j->xyz = copse_v3(test_rng_float(rng, -0.5f, 0.5f), test_rng_float(rng, -0.5f, 0.5f),
                          test_rng_float(rng, -0.5f, 0.5f));
        j->rpy = copse_v3(test_rng_float(rng, -3.2f, 3.2f), test_rng_float(rng, -1.6f, 1.6f),
                          test_rng_float(rng, -3.2f, 3.2f));
        do
            j->axis = copse_v3(s * test_rng_float(rng, -1.0f, 1.0f), s * test_rng_float(rng, -1.0f, 1.0f),
                               s * test_rng_float(rng, -1.0f, 1.0f));
        while (fabsf(j->axis.x) + fabsf(j->axis.y) + fabsf(j->axis.z) < 0.05f);
        if (test_rng_below(rng, 5u) == 0u) /* an axis along a frame axis, as most URDFs have */
            j->axis = copse_v3(0.0f, 0.0f, test_rng_below(rng, 2u) ? -1.0f : 1.0f);
        if (j->type == COPSE_JOINT_PRISMATIC) {
            j->lower = test_rng_float(rng, -0.4f, 0.0f);
            j->upper = test_rng_float(rng, 0.0f, 0.4f);
        } else {
            j->lower = test_rng_float(rng, -3.0f, 0.0f);
            j->upper = test_rng_float(rng, 0.0f, 3.0f);
        }
    }
    for (i = 0; i + 1u < n; i++)
        mimicked[i] = false;
    for (i = 0; i + 1u < n; i++) {
        copse_joint_desc *j = &r->joints[i];
        if (j->type == COPSE_JOINT_FIXED || mimicked[i] || test_rng_below(rng, 4u) != 0u)
            continue;
        for (k = 0; k + 1u < n; k++) {
            uint32_t t = (i + 1u + k) % (n - 1u);
            if (t != i && r->joints[t].type != COPSE_JOINT_FIXED && r->joints[t].mimic == -1) {
                j->mimic = (int32_t)t;
                j->multiplier = test_rng_float(rng, -2.0f, 2.0f);
                j->offset = test_rng_float(rng, -0.2f, 0.2f);
                mimicked[t] = true;
                break;
            }
        }
    }
    return r;
}

static tm_robot *tm_small(void);

/* ---- the oracle: forward kinematics in double, from the definitions ------------------------------ */

typedef struct dpose {
    double r[3][3], t[3];
} dpose;

static void d_compose(dpose *out, const dpose *a, const dpose *b)
{
    dpose o;
    unsigned i, j, k;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            o.r[i][j] = 0.0;
            for (k = 0; k < 3; k++)
                o.r[i][j] += a->r[i][k] * b->r[k][j];
        }
        o.t[i] = a->t[i];
        for (k = 0; k < 3; k++)
            o.t[i] += a->r[i][k] * b->t[k];
    }
    *out = o;
}

static void d_identity(dpose *p)
{
    memset(p, 0, sizeof *p);
    p->r[0][0] = p->r[1][1] = p->r[2][2] = 1.0;
}

/* URDF origin: R = Rz(yaw) Ry(pitch) Rx(roll), the elementary rotations written out. */
static void d_origin(dpose *p, const copse_joint_desc *j)
{
    double cr = cos((double)j->rpy.x), sr = sin((double)j->rpy.x), cp = cos((double)j->rpy.y),
           sp = sin((double)j->rpy.y), cy = cos((double)j->rpy.z), sy = sin((double)j->rpy.z);
    dpose rx, ry, rz, t;
    d_identity(&rx);
    d_identity(&ry);
    d_identity(&rz);
    rx.r[1][1] = cr, rx.r[1][2] = -sr, rx.r[2][1] = sr, rx.r[2][2] = cr;
    ry.r[0][0] = cp, ry.r[0][2] = sp, ry.r[2][0] = -sp, ry.r[2][2] = cp;
    rz.r[0][0] = cy, rz.r[0][1] = -sy, rz.r[1][0] = sy, rz.r[1][1] = cy;
    d_compose(&t, &ry, &rx);
    d_compose(p, &rz, &t);
    p->t[0] = (double)j->xyz.x;
    p->t[1] = (double)j->xyz.y;
    p->t[2] = (double)j->xyz.z;
}

/* The motion: Rodrigues' rotation about the unit axis, or a translation along it. */
static void d_motion(dpose *p, const copse_joint_desc *j, double v)
{
    double k[3] = { (double)j->axis.x, (double)j->axis.y, (double)j->axis.z }, n = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
    double c = cos(v), s = sin(v), K[3][3];
    unsigned a, b;
    d_identity(p);
    if (j->type == COPSE_JOINT_FIXED)
        return;
    for (a = 0; a < 3; a++)
        k[a] /= n;
    if (j->type == COPSE_JOINT_PRISMATIC) {
        for (a = 0; a < 3; a++)
            p->t[a] = k[a] * v;
        return;
    }
    memset(K, 0, sizeof K);
    K[0][1] = -k[2], K[0][2] = k[1], K[1][0] = k[2], K[1][2] = -k[0], K[2][0] = -k[1], K[2][1] = k[0];
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            p->r[a][b] = (a == b ? c : 0.0) + s * K[a][b] + (1.0 - c) * k[a] * k[b];
}

/* The variables of the description, numbered as robot.h says: non-fixed, non-mimic joints in
 * joint order. */
static uint32_t d_var(const copse_robot_desc *d, uint32_t joint)
{
    uint32_t j, v = 0;
    for (j = 0; j < joint; j++)
        v += d->joints[j].type != COPSE_JOINT_FIXED && d->joints[j].mimic == -1;
    return v;
}

static double d_value(const copse_robot_desc *d, uint32_t joint, const float *q)
{
    const copse_joint_desc *j = &d->joints[joint];
    if (j->type == COPSE_JOINT_FIXED)
        return 0.0;
    if (j->mimic >= 0)
        return (double)j->multiplier * (double)q[d_var(d, (uint32_t)j->mimic)] + (double)j->offset;
    return (double)q[d_var(d, joint)];
}

/* Every link's pose; depth[i] = the joints from the root, each counted 1 + |angle| (an angle's
 * float rounding is relative to it), scale[i] = the lengths along the way. */
static void d_fk(const copse_robot_desc *d, const float *q, const copse_pose *base, dpose *out, double *depth,
                 double *scale)
{
    bool placed[TM_MAX_LINKS];
    uint32_t i, j, done = 0, a, b;
    for (i = 0; i < d->link_count; i++)
        placed[i] = true;
    for (j = 0; j < d->joint_count; j++)
        placed[d->joints[j].child] = false;
    for (i = 0; i < d->link_count; i++)
        if (placed[i]) {
            d_identity(&out[i]);
            if (base != NULL)
                for (a = 0; a < 3; a++) {
                    for (b = 0; b < 3; b++)
                        out[i].r[a][b] = (double)base->rotation[a][b];
                    out[i].t[a] = (double)(a == 0 ? base->translation.x : a == 1 ? base->translation.y : base->translation.z);
                }
            depth[i] = 1.0;
            scale[i] = fabs(out[i].t[0]) + fabs(out[i].t[1]) + fabs(out[i].t[2]);
        }
    while (done < d->joint_count) /* passes until every joint whose parent is placed is done */
        for (j = 0; j < d->joint_count; j++) {
            const copse_joint_desc *jd = &d->joints[j];
            dpose o, m, l;
            double v;
            if (!placed[jd->parent] || placed[jd->child])
                continue;
            v = d_value(d, j, q);
            d_origin(&o, jd);
            d_motion(&m, jd, v);
            d_compose(&l, &o, &m);
            d_compose(&out[jd->child], &out[jd->parent], &l);
            depth[jd->child] = depth[jd->parent] + 1.0 +
                               (jd->type == COPSE_JOINT_REVOLUTE || jd->type == COPSE_JOINT_CONTINUOUS ? fabs(v) : 0.0);
            scale[jd->child] = scale[jd->parent] + fabs((double)jd->xyz.x) + fabs((double)jd->xyz.y) + fabs((double)jd->xyz.z) +
                               (jd->type == COPSE_JOINT_PRISMATIC ? fabs(v) : 0.0);
            placed[jd->child] = true;
            done++;
        }
}

static void random_q(const copse_robot_desc *d, test_rng *rng, float *q, unsigned mode)
{
    uint32_t j;
    for (j = 0; j < d->joint_count; j++) {
        const copse_joint_desc *jd = &d->joints[j];
        float v;
        if (jd->type == COPSE_JOINT_FIXED || jd->mimic >= 0)
            continue;
        if (jd->type == COPSE_JOINT_CONTINUOUS)
            v = test_rng_float(rng, -20.0f, 20.0f);
        else if (mode == 1u)
            v = test_rng_below(rng, 2u) ? jd->upper : jd->lower; /* the limits themselves */
        else
            v = test_rng_float(rng, jd->lower, jd->upper);
        q[d_var(d, j)] = v;
    }
}

/* The worst error of FK against the oracle, in units of FLT_EPSILON per joint of chain (rotation
 * entries absolute, translations relative to the lengths along the chain). */
static double fk_error(const copse_robot_desc *d, const copse_pose *poses, const dpose *want, const double *depth,
                       const double *scale)
{
    double worst = 0.0;
    uint32_t i, a, b;
    for (i = 0; i < d->link_count; i++) {
        double unit = (double)FLT_EPSILON * depth[i];
        for (a = 0; a < 3; a++) {
            double t = (double)(a == 0 ? poses[i].translation.x : a == 1 ? poses[i].translation.y : poses[i].translation.z);
            for (b = 0; b < 3; b++) {
                double e = fabs((double)poses[i].rotation[a][b] - want[i].r[a][b]) / unit;
                worst = e > worst ? e : worst;
            }
            t = fabs(t - want[i].t[a]) / (unit * (scale[i] + 1e-3));
            worst = t > worst ? t : worst;
        }
    }
    return worst;
}

#define FK_TOLERANCE 4.0 /* eps per joint: measured worst 1.43 over every robot here */

static double g_fk_worst; /* reported by fk_random */

static void check_fk(const copse_robot *robot, const copse_robot_desc *d, test_rng *rng, uint32_t samples)
{
    copse_pose poses[TM_MAX_LINKS], base;
    dpose want[TM_MAX_LINKS];
    uint32_t s;
    double scale[TM_MAX_LINKS], depth[TM_MAX_LINKS];
    float q[TM_MAX_LINKS];
    for (s = 0; s < samples; s++) {
        const copse_pose *bp = NULL;
        double err;
        random_q(d, rng, q, s % 7u == 3u ? 1u : 0u);
        if (s % 3u != 0u) {
            copse_quat qu;
            qu.x = test_rng_float(rng, -1.0f, 1.0f);
            qu.y = test_rng_float(rng, -1.0f, 1.0f);
            qu.z = test_rng_float(rng, -1.0f, 1.0f);
            qu.w = test_rng_float(rng, -1.0f, 1.0f);
            CHECK_STATUS(copse_pose_from_quat(&base, qu,
                                              copse_v3(test_rng_float(rng, -2.0f, 2.0f), test_rng_float(rng, -2.0f, 2.0f),
                                                       test_rng_float(rng, -2.0f, 2.0f))),
                         COPSE_OK);
            bp = &base;
        }
        CHECK_STATUS(copse_robot_fk(robot, q, bp, poses), COPSE_OK);
        d_fk(d, q, bp, want, depth, scale);
        err = fk_error(d, poses, want, depth, scale);
        if (err > g_fk_worst)
            g_fk_worst = err;
        if (!CHECKF(err <= FK_TOLERANCE, "FK error %.2f eps per joint (sample %u)", err, (unsigned)s))
            return;
    }
}

static bool build_in(copse_robot *robot, const copse_robot_desc *d, copse_arena *arena)
{
    size_t bytes = copse_robot_build_bytes(d);
    void *mem;
    if (!CHECK(bytes != (size_t)-1))
        return false;
    mem = tm_alloc(bytes);
    if (mem == NULL) {
        test_skip("not enough memory for the robot");
        return false;
    }
    copse_arena_init(arena, mem, bytes);
    CHECK_STATUS(copse_robot_build(robot, arena, d), COPSE_OK);
    if (robot->data == NULL)
        return false;
    tm_used = (size_t)((uint8_t *)mem - tm_base) + arena->used; /* the scratch back to the pool */
    return true;
}

/* ---- tests ---------------------------------------------------------------------------------------- */

static void test_build_hand(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    uint32_t j, joint, k;
    float lo, hi;
    bool seen[H_LINKS];
    tm_reset();
    h = tm_hand(true);
    if (!CHECK(h != NULL) || !build_in(&robot, &h->desc, &arena))
        return;
    CHECK_EQ_INT(robot.link_count, H_LINKS);
    CHECK_EQ_INT(robot.joint_count, H_LINKS - 1);
    CHECK_EQ_INT(copse_robot_dof(&robot), 4);
    CHECK_EQ_INT(robot.tree_count, big_machine() ? 5 : 3);
    CHECK(!robot.read_only && robot.acm_writable != NULL);
    CHECK_EQ_INT(arena.used, (robot.bytes + 7u) & ~(size_t)7u); /* scratch and node budget given back */
    CHECK(robot.bytes < copse_robot_build_bytes(&h->desc));
    /* variables: prismatic finger_l, continuous pan, elbow, shoulder lift, in joint order */
    {
        static const uint32_t want_joint[4] = { 1, 2, 4, 6 };
        for (k = 0; k < 4u; k++) {
            CHECK_STATUS(copse_robot_variable(&robot, k, &joint, &lo, &hi), COPSE_OK);
            CHECK_EQ_INT(joint, want_joint[k]);
            if (h->joints[joint].type == COPSE_JOINT_CONTINUOUS)
                CHECK(lo == -FLT_MAX && hi == FLT_MAX);
            else
                CHECK(lo == h->joints[joint].lower && hi == h->joints[joint].upper);
        }
        CHECK_STATUS(copse_robot_variable(&robot, 4, &joint, &lo, &hi), COPSE_ERR_INDEX);
        CHECK_STATUS(copse_robot_variable(NULL, 0, &joint, &lo, &hi), COPSE_ERR_NULL);
    }
    /* what the robot says of each joint and link is the description's */
    for (j = 0; j < robot.joint_count; j++) {
        const copse_joint_desc *d = &h->joints[j];
        copse_robot_joint_info ji;
        dpose o;
        const double ax = (double)d->axis.x, ay = (double)d->axis.y, az = (double)d->axis.z;
        double err = 0.0, an = sqrt(ax * ax + ay * ay + az * az);
        unsigned a, b;
        CHECK_STATUS(copse_robot_joint_info_get(&robot, j, &ji), COPSE_OK);
        CHECK(ji.type == d->type && ji.parent == d->parent && ji.child == d->child);
        CHECK(ji.mimic == (d->mimic < 0 ? COPSE_NONE : (uint32_t)d->mimic));
        CHECK((ji.variable == COPSE_NONE) == (d->type == COPSE_JOINT_FIXED || d->mimic >= 0));
        if (d->mimic >= 0)
            CHECK(ji.multiplier == d->multiplier && ji.offset == d->offset);
        if (d->type == COPSE_JOINT_REVOLUTE || d->type == COPSE_JOINT_PRISMATIC)
            CHECK(ji.lower == d->lower && ji.upper == d->upper);
        if (d->type != COPSE_JOINT_FIXED) /* the axis, normalised */
            CHECKF(fabs((double)ji.axis.x - ax / an) + fabs((double)ji.axis.y - ay / an) +
                           fabs((double)ji.axis.z - az / an) < 1e-6,
                   "joint %u axis", (unsigned)j);
        d_origin(&o, d);
        for (a = 0; a < 3u; a++) {
            for (b = 0; b < 3u; b++)
                err = fmax(err, fabs((double)ji.origin.rotation[a][b] - o.r[a][b]));
            err = fmax(err, fabs((double)(a == 0 ? ji.origin.translation.x : a == 1 ? ji.origin.translation.y
                                                                                   : ji.origin.translation.z) -
                                 o.t[a]));
        }
        CHECKF(err < 1e-6, "joint %u origin off by %g", (unsigned)j, err);
    }
    for (k = 0; k < robot.link_count; k++) {
        copse_robot_link_info li;
        CHECK_STATUS(copse_robot_link_info_get(&robot, k, &li), COPSE_OK);
        CHECK(li.padding == h->links[k].padding);
        CHECK(k == H_BASE ? li.parent_joint == COPSE_NONE : li.parent_joint < robot.joint_count &&
                                                                h->joints[li.parent_joint].child == k);
    }
    {
        copse_robot_link_info li;
        copse_robot_joint_info ji;
        CHECK_STATUS(copse_robot_link_info_get(&robot, robot.link_count, &li), COPSE_ERR_INDEX);
        CHECK(li.parent_joint == COPSE_NONE && li.padding == 0.0f && !li.shapes_bound);
        CHECK_STATUS(copse_robot_link_info_get(NULL, 0, &li), COPSE_ERR_NULL);
        CHECK_STATUS(copse_robot_link_info_get(&robot, 0, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_robot_joint_info_get(&robot, robot.joint_count, &ji), COPSE_ERR_INDEX);
        CHECK(ji.parent == COPSE_NONE && ji.child == COPSE_NONE && ji.variable == COPSE_NONE);
        CHECK_STATUS(copse_robot_joint_info_get(NULL, 0, &ji), COPSE_ERR_NULL);
        CHECK_STATUS(copse_robot_joint_info_get(&robot, 0, NULL), COPSE_ERR_NULL);
    }
    /* order: a permutation, each joint after the one placing its parent */
    for (k = 0; k < H_LINKS; k++)
        seen[k] = k == H_BASE;
    for (k = 0; k < robot.joint_count; k++) {
        j = robot.order[k];
        CHECK(j < robot.joint_count);
        if (j >= robot.joint_count)
            return;
        CHECK(seen[h->joints[j].parent] && !seen[h->joints[j].child]);
        seen[h->joints[j].child] = true;
    }
    for (k = 0; k < H_LINKS; k++)
        CHECK(seen[k]);
    {
        test_rng rng;
        test_rng_seed(&rng, 77);
        check_fk(&robot, &h->desc, &rng, big_machine() ? 400u : 60u);
    }
    /* the mimic finger mirrors the other: q = 0.03 puts them 2 * 0.03 - 0.001 + 0.04 apart */
    {
        float q[4] = { 0.03f, 0.7f, -0.4f, 0.2f };
        copse_pose p[H_LINKS];
        copse_vec3 a, b;
        double dx, dy, dz;
        CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_OK);
        a = p[H_FINGER_L].translation;
        b = p[H_FINGER_R].translation;
        dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y, dz = (double)a.z - (double)b.z;
        CHECKF(fabs(sqrt(dx * dx + dy * dy + dz * dz) - (0.04 + 0.06 - 0.001)) < 1e-6, "finger gap %g",
               sqrt(dx * dx + dy * dy + dz * dz));
    }
}

static void test_fk_random(void)
{
    test_rng rng;
    uint32_t r, robots = big_machine() ? 60u : 6u;
    test_rng_seed(&rng, 4242);
    g_fk_worst = 0.0;
    for (r = 0; r < robots; r++) {
        tm_robot *d;
        copse_robot robot;
        copse_arena arena;
        tm_reset();
        d = tm_random(&rng, 2u + test_rng_below(&rng, TM_MAX_LINKS - 1u));
        if (!CHECK(d != NULL) || !build_in(&robot, &d->desc, &arena))
            return;
        check_fk(&robot, &d->desc, &rng, big_machine() ? 100u : 25u);
    }
    /* a long chain of revolute joints: the error grows with the chain, not faster */
    {
        tm_robot *d;
        copse_robot robot;
        copse_arena arena;
        tm_reset();
        d = tm_robot_new(TM_MAX_LINKS);
        if (!CHECK(d != NULL))
            return;
        for (r = 0; r + 1u < TM_MAX_LINKS; r++) {
            copse_joint_desc *j = tm_joint(d, r, NULL, COPSE_JOINT_REVOLUTE, r, r + 1u);
            j->xyz = copse_v3(0.3f, 0.0f, 0.1f);
            j->rpy = copse_v3(0.3f * (float)r, 0.2f, -0.1f);
            j->axis = copse_v3(1.0f, (float)r, 3.0f);
            j->lower = -3.1f;
            j->upper = 3.1f;
        }
        if (build_in(&robot, &d->desc, &arena))
            check_fk(&robot, &d->desc, &rng, big_machine() ? 300u : 30u);
    }
    copse_port_printf("info robot_model: worst FK error %.2f FLT_EPSILON per joint (1 + |angle| each)\n", g_fk_worst);
}

static bool all_identity(const copse_pose *p, uint32_t n)
{
    uint32_t i, a, b;
    for (i = 0; i < n; i++) {
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++)
                if (p[i].rotation[a][b] != (a == b ? 1.0f : 0.0f))
                    return false;
        if (p[i].translation.x != 0.0f || p[i].translation.y != 0.0f || p[i].translation.z != 0.0f)
            return false;
    }
    return true;
}

static void test_fk_errors(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    copse_pose p[H_LINKS], base = copse_pose_identity();
    float q[4] = { 0.01f, 1.0f, 0.5f, -0.5f }, bad;
    tm_reset();
    h = tm_hand(false);
    if (!CHECK(h != NULL) || !build_in(&robot, &h->desc, &arena))
        return;
    CHECK_STATUS(copse_robot_fk(NULL, q, NULL, p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_fk(&robot, NULL, NULL, p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, NULL), COPSE_ERR_NULL);
    bad = q[2];
    q[2] = NAN;
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_NONFINITE);
    CHECK(all_identity(p, H_LINKS));
    q[2] = INFINITY;
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_NONFINITE);
    q[2] = 2.5f * (1.0f + 5e-7f); /* within 1e-6 of the range: the caller's rounding */
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_OK);
    q[2] = 2.5f + 5.0f * 2e-6f; /* beyond */
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_PARAM);
    CHECK(all_identity(p, H_LINKS));
    q[2] = -2.6f;
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_PARAM);
    q[2] = bad;
    q[1] = 1e6f; /* continuous: no limits, but beyond copse's angles */
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_PARAM);
    q[1] = -1e4f;
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_OK);
    q[0] = -0.001f; /* prismatic below its lower limit 0 */
    CHECK_STATUS(copse_robot_fk(&robot, q, NULL, p), COPSE_ERR_PARAM);
    q[0] = 0.04f;
    base.translation.y = NAN;
    CHECK_STATUS(copse_robot_fk(&robot, q, &base, p), COPSE_ERR_NONFINITE);
    base = copse_pose_identity();
    base.rotation[0][0] = 2.0f;
    CHECK_STATUS(copse_robot_fk(&robot, q, &base, p), COPSE_ERR_PARAM);
    base = copse_pose_identity();
    base.translation = copse_v3(1.0f, 2.0f, 3.0f);
    CHECK_STATUS(copse_robot_fk(&robot, q, &base, p), COPSE_OK);
    CHECK(p[H_BASE].translation.x == 1.0f && p[H_BASE].translation.z == 3.0f);
}

/* The build's answer and build_bytes' agree on a refusal: the status, SIZE_MAX, an empty robot,
 * an untouched arena. */
static void expect_refused(const copse_robot_desc *d, copse_status want, int line)
{
    static uint64_t mem[64];
    copse_robot robot;
    copse_arena arena;
    copse_status st;
    memset(&robot, 0x5A, sizeof robot);
    copse_arena_init(&arena, mem, sizeof mem);
    arena.used = 8;
    st = copse_robot_build(&robot, &arena, d);
    test_checkf_at(st == want, __FILE__, line, "build -> %s, expected %s", copse_status_str(st),
                   copse_status_str(want));
    test_checkf_at(robot.data == NULL && robot.link_count == 0 && robot.links == NULL && arena.used == 8, __FILE__,
                   line, "refused build left output");
    if (want != COPSE_ERR_NOMEM)
        test_checkf_at(copse_robot_build_bytes(d) == (size_t)-1, __FILE__, line, "build_bytes of a refused robot");
}

#define REFUSED(d, want) expect_refused((d), (want), __LINE__)

static void test_build_errors(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    copse_joint_desc saved;
    copse_link_desc link;
    copse_mesh *m;
    char name[COPSE_ROBOT_NAME_MAX + 2u];
    uint64_t one[2];
    tm_reset();
    h = tm_hand(false);
    if (!CHECK(h != NULL))
        return;
    CHECK_STATUS(copse_robot_build(NULL, &arena, &h->desc), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_build(&robot, NULL, &h->desc), COPSE_ERR_NULL);
    REFUSED(NULL, COPSE_ERR_NULL);
    CHECK(copse_robot_build_bytes(NULL) == (size_t)-1);
    h->desc.links = NULL;
    REFUSED(&h->desc, COPSE_ERR_NULL);
    h->desc.links = h->links;
    h->desc.allowed = NULL;
    REFUSED(&h->desc, COPSE_ERR_NULL);
    h->desc.allowed = h->allowed;
    h->desc.link_count = 0;
    h->desc.joint_count = 0;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.link_count = COPSE_ROBOT_MAX_LINKS + 1u;
    h->desc.joint_count = COPSE_ROBOT_MAX_LINKS;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.link_count = H_LINKS;
    h->desc.joint_count = H_LINKS - 2u; /* two roots */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.joint_count = H_LINKS - 1u;
    h->desc.flags = 2u;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.flags = 0u;
    h->desc.tree_params.leaf_size = 0u;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.tree_params.leaf_size = 4u;
    h->desc.tree_params.projection = COPSE_BVH_PROJECT_XZ;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->desc.tree_params.projection = COPSE_BVH_PROJECT_NONE;
    /* joints */
    saved = h->joints[4];
    h->joints[4].child = H_PALM; /* palm the child of two joints, forearm of none: two roots */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4] = saved;
    h->joints[4].parent = H_LINKS;
    REFUSED(&h->desc, COPSE_ERR_INDEX);
    h->joints[4] = saved;
    h->joints[4].parent = H_FORE; /* a joint from a link to itself */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4] = saved;
    h->joints[4].parent = H_PALM; /* forearm -> palm -> forearm: a cycle away from the root */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4] = saved;
    h->joints[4].type = (copse_joint_type)4;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4] = saved;
    h->joints[4].axis = copse_v3(0.0f, 0.0f, 0.0f);
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].axis = copse_v3(0.0f, NAN, 1.0f);
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->joints[4] = saved;
    h->joints[4].lower = 3.0f; /* lower > upper */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].lower = -INFINITY;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->joints[4] = saved;
    h->joints[4].xyz.z = INFINITY;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->joints[4] = saved;
    h->joints[4].rpy.x = 2e5f; /* beyond COPSE_MAX_ANGLE */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4] = saved;
    h->joints[4].mimic = 0; /* mimics the fixed wrist */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].mimic = 3; /* mimics the mimicking finger */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].mimic = 4; /* itself */
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].mimic = 7;
    REFUSED(&h->desc, COPSE_ERR_INDEX);
    h->joints[4].mimic = -2;
    REFUSED(&h->desc, COPSE_ERR_INDEX);
    h->joints[4].mimic = 6;
    h->joints[4].multiplier = NAN;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->joints[4] = saved;
    h->joints[2].type = COPSE_JOINT_FIXED; /* the continuous pan fixed: fine; lower > upper ignored */
    h->joints[2].lower = 1.0f;
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    h->joints[2].type = COPSE_JOINT_CONTINUOUS; /* continuous ignores limits */
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    h->joints[2].lower = 0.0f;
    /* names: NAME_MAX bytes fit, one more does not */
    memset(name, 'n', sizeof name);
    name[COPSE_ROBOT_NAME_MAX] = '\0';
    h->joints[4].name = name;
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    name[COPSE_ROBOT_NAME_MAX] = 'n';
    name[COPSE_ROBOT_NAME_MAX + 1u] = '\0';
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->joints[4].name = saved.name;
    h->links[H_TOOL].name = name;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->links[H_TOOL].name = NULL;
    /* allowed pairs */
    h->allowed[0].b = H_LINKS;
    REFUSED(&h->desc, COPSE_ERR_INDEX);
    h->allowed[0].b = H_FINGER_L;
    /* links: padding, shapes */
    link = h->links[H_FORE];
    h->links[H_FORE].padding = -0.001f;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->links[H_FORE].padding = NAN;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->links[H_FORE] = link;
    h->spheres[1].radius = -1.0f;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->spheres[1].radius = INFINITY;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->spheres[1].radius = 0.05f;
    h->spheres[1].center.x = NAN;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->spheres[1].center.x = 0.0f;
    h->capsules[0].radius = -0.5f;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->capsules[0].radius = 0.07f;
    h->capsules[0].segment.b.y = -INFINITY;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    h->capsules[0].segment.b.y = 0.0f;
    h->links[H_FORE].spheres = NULL;
    REFUSED(&h->desc, COPSE_ERR_NULL);
    h->links[H_FORE] = link;
    /* too many shapes: counted before any is read, so a short array serves */
    h->links[H_FORE].sphere_count = COPSE_ROBOT_MAX_SHAPES;
    h->links[H_FORE].capsules = h->capsules;
    h->links[H_FORE].capsule_count = 1;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    h->links[H_FORE] = link;
    /* meshes: the BVH builder's statuses */
    m = tm_box(copse_v3(0.0f, 0.0f, 0.0f), copse_v3(0.1f, 0.1f, 0.1f), COPSE_MESH_INDEX_U32, 3u);
    if (!CHECK(m != NULL))
        return;
    h->links[H_TOOL].mesh = m;
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    ((uint32_t *)(uintptr_t)m->indices)[7] = 8u;
    REFUSED(&h->desc, COPSE_ERR_INDEX);
    ((uint32_t *)(uintptr_t)m->indices)[7] = k_box_tris[7];
    ((float *)(uintptr_t)m->positions)[13] = NAN;
    REFUSED(&h->desc, COPSE_ERR_NONFINITE);
    ((float *)(uintptr_t)m->positions)[13] = 0.1f;
    m->vertex_stride = 14u;
    REFUSED(&h->desc, COPSE_ERR_ALIGN);
    m->vertex_stride = 0u;
    m->index_type = (copse_mesh_index_type)3;
    REFUSED(&h->desc, COPSE_ERR_PARAM);
    m->index_type = COPSE_MESH_INDEX_U32;
    m->positions = NULL;
    REFUSED(&h->desc, COPSE_ERR_NULL);
    m->positions = tm_box(copse_v3(0.0f, 0.0f, 0.0f), copse_v3(0.1f, 0.1f, 0.1f), COPSE_MESH_INDEX_U32, 3u)->positions;
    ((uint32_t *)(uintptr_t)m->indices)[8] = ((const uint32_t *)m->indices)[7]; /* a zero-area triangle */
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    h->desc.tree_params.flags = COPSE_BVH_REJECT_DEGENERATE;
    REFUSED(&h->desc, COPSE_ERR_DEGENERATE);
    h->desc.tree_params.flags = 0u;
    m->index_type = COPSE_MESH_INDEX_NONE;
    REFUSED(&h->desc, COPSE_ERR_INDEX); /* 12 triangles need 36 corners, 8 given */
    m->index_type = COPSE_MESH_INDEX_U32;
    m->triangle_count = 0u; /* no triangles: no mesh, whatever else it says */
    m->positions = NULL;
    CHECK(copse_robot_build_bytes(&h->desc) != (size_t)-1);
    h->links[H_TOOL].mesh = NULL;
    /* NOMEM: too small, and needed says how much */
    copse_arena_init(&arena, one, sizeof one);
    CHECK_STATUS(copse_robot_build(&robot, &arena, &h->desc), COPSE_ERR_NOMEM);
    CHECK(arena.needed == copse_robot_build_bytes(&h->desc) && arena.used == 0 && robot.data == NULL);
}

/* Exactly build_bytes builds; one byte less is NOMEM with `needed` the figure; after an arena
 * already in use too. */
static void check_exact(const copse_robot_desc *d)
{
    size_t bytes = copse_robot_build_bytes(d), k, mark = tm_used;
    uint8_t *mem;
    copse_robot robot;
    copse_arena arena;
    if (!CHECK(bytes != (size_t)-1 && bytes % 8u == 0u))
        return;
    mem = (uint8_t *)tm_alloc(bytes + 16u);
    if (mem == NULL) {
        test_skip("not enough memory");
        return;
    }
    for (k = 0; k < 2u; k++) {
        size_t pre = 8u * k;
        copse_arena_init(&arena, mem, bytes + pre - 1u);
        arena.used = pre;
        CHECK_STATUS(copse_robot_build(&robot, &arena, d), COPSE_ERR_NOMEM);
        CHECK(arena.needed == bytes + pre && arena.used == pre && robot.data == NULL);
        copse_arena_init(&arena, mem, bytes + pre);
        arena.used = pre;
        memset(mem + pre, 0xA5, bytes);
        CHECK_STATUS(copse_robot_build(&robot, &arena, d), COPSE_OK);
        CHECK(arena.used == pre + ((robot.bytes + 7u) & ~(size_t)7u) && arena.high_water == pre + bytes);
        CHECK((const uint8_t *)robot.data == mem + pre);
    }
    tm_used = mark;
}

static void test_build_bytes(void)
{
    test_rng rng;
    uint32_t r;
    tm_robot *h;
    test_rng_seed(&rng, 99);
    tm_reset();
    h = tm_hand(true);
    if (!CHECK(h != NULL))
        return;
    check_exact(&h->desc);
    h->desc.tree_params.leaf_size = 1u;
    h->desc.tree_params.split = COPSE_BVH_SPLIT_MEDIAN;
    check_exact(&h->desc);
    for (r = 0; r < 8u; r++) {
        tm_robot *d;
        tm_reset();
        d = tm_random(&rng, 2u + test_rng_below(&rng, TM_MAX_LINKS - 1u));
        if (!CHECK(d != NULL))
            return;
        if (r % 2u) {
            d->links[0].mesh = tm_cylinder(3u + r, 0.1f, -0.1f, 0.2f);
            d->links[d->desc.link_count - 1u].mesh =
                tm_box(copse_v3(0.0f, 0.0f, 0.0f), copse_v3(0.1f, 0.2f, 0.3f), COPSE_MESH_INDEX_U16, 3u);
        }
        check_exact(&d->desc);
    }
}

/* Same robot, same bytes: two builds over differently dirty memory. */
static void test_same_bytes(void)
{
    tm_robot *h;
    copse_robot a, b;
    uint8_t *ma, *mb;
    copse_arena aa, ab;
    size_t bytes;
    tm_reset();
    h = big_machine() ? tm_hand(true) : tm_small();
    if (!CHECK(h != NULL))
        return;
    bytes = copse_robot_build_bytes(&h->desc);
    ma = (uint8_t *)tm_alloc(bytes);
    mb = (uint8_t *)tm_alloc(bytes);
    if (ma == NULL || mb == NULL) {
        test_skip("not enough memory");
        return;
    }
    memset(ma, 0x00, bytes);
    memset(mb, 0xFF, bytes);
    copse_arena_init(&aa, ma, bytes);
    copse_arena_init(&ab, mb, bytes);
    CHECK_STATUS(copse_robot_build(&a, &aa, &h->desc), COPSE_OK);
    CHECK_STATUS(copse_robot_build(&b, &ab, &h->desc), COPSE_OK);
    CHECK(a.bytes == b.bytes && memcmp(a.data, b.data, a.bytes) == 0);
}

static bool adjacent(const copse_robot_desc *d, uint32_t a, uint32_t b)
{
    uint32_t j;
    for (j = 0; j < d->joint_count; j++)
        if ((d->joints[j].parent == a && d->joints[j].child == b) || (d->joints[j].parent == b && d->joints[j].child == a))
            return true;
    return false;
}

static void test_acm(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    uint32_t a, b, flags;
    tm_reset();
    h = tm_hand(false);
    if (!CHECK(h != NULL))
        return;
    for (flags = 0; flags < 2u; flags++) {
        h->desc.flags = flags ? COPSE_ROBOT_CHECK_ADJACENT : 0u;
        if (!build_in(&robot, &h->desc, &arena))
            return;
        for (a = 0; a < H_LINKS; a++)
            for (b = 0; b < H_LINKS; b++) {
                bool want = a == b || (!flags && adjacent(&h->desc, a, b)) ||
                            ((a == H_FINGER_L && b == H_FINGER_R) || (a == H_FINGER_R && b == H_FINGER_L));
                CHECKF(copse_robot_allowed(&robot, a, b) == want, "allowed(%u, %u) flags %u", (unsigned)a,
                       (unsigned)b, (unsigned)flags);
            }
    }
    CHECK(!copse_robot_allowed(&robot, 0, H_LINKS) && !copse_robot_allowed(NULL, 0, 0));
    CHECK_STATUS(copse_robot_allow(&robot, H_BASE, H_TOOL, true), COPSE_OK);
    CHECK(copse_robot_allowed(&robot, H_TOOL, H_BASE) && copse_robot_allowed(&robot, H_BASE, H_TOOL));
    CHECK_STATUS(copse_robot_allow(&robot, H_FINGER_R, H_FINGER_L, false), COPSE_OK);
    CHECK(!copse_robot_allowed(&robot, H_FINGER_L, H_FINGER_R) && !copse_robot_allowed(&robot, H_FINGER_R, H_FINGER_L));
    CHECK(copse_robot_allowed(&robot, H_TOOL, H_BASE));
    CHECK_STATUS(copse_robot_allow(&robot, H_LINKS, 0, true), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_robot_allow(NULL, 0, 1, true), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_allow(&robot, 3, 3, false), COPSE_ERR_PARAM);
    CHECK(copse_robot_allowed(&robot, 3, 3));
    /* 64 links: the second ACM word (some 16 KB: not on the Cortex-M0) */
    if (test_memory_bytes() >= ((size_t)32u << 10)) {
        tm_robot *c;
        copse_robot big;
        copse_link_desc *links = (copse_link_desc *)tm_alloc(sizeof(copse_link_desc) * COPSE_ROBOT_MAX_LINKS);
        copse_joint_desc *joints = (copse_joint_desc *)tm_alloc(sizeof(copse_joint_desc) * COPSE_ROBOT_MAX_LINKS);
        c = tm_robot_new(2);
        if (links == NULL || joints == NULL || c == NULL) {
            test_skip("not enough memory");
            return;
        }
        memset(links, 0, sizeof(copse_link_desc) * COPSE_ROBOT_MAX_LINKS);
        memset(joints, 0, sizeof(copse_joint_desc) * COPSE_ROBOT_MAX_LINKS);
        for (a = 0; a + 1u < COPSE_ROBOT_MAX_LINKS; a++) {
            joints[a].type = COPSE_JOINT_FIXED;
            joints[a].parent = a / 2u; /* a binary tree */
            joints[a].child = a + 1u;
            joints[a].mimic = -1;
        }
        c->desc.links = links;
        c->desc.joints = joints;
        c->desc.link_count = COPSE_ROBOT_MAX_LINKS;
        c->desc.joint_count = COPSE_ROBOT_MAX_LINKS - 1u;
        c->allowed[0].a = 63;
        c->allowed[0].b = 1;
        c->desc.allowed = c->allowed;
        c->desc.allowed_count = 1;
        if (!build_in(&big, &c->desc, &arena))
            return;
        CHECK_EQ_INT(big.acm_words, 2);
        for (a = 0; a < COPSE_ROBOT_MAX_LINKS; a++)
            for (b = 0; b < COPSE_ROBOT_MAX_LINKS; b++) {
                bool want = a == b || adjacent(&c->desc, a, b) || (a == 63 && b == 1) || (a == 1 && b == 63);
                if (copse_robot_allowed(&big, a, b) != want)
                    CHECKF(false, "64 links: allowed(%u, %u)", (unsigned)a, (unsigned)b);
            }
        CHECK_STATUS(copse_robot_allow(&big, 40, 62, true), COPSE_OK);
        CHECK(copse_robot_allowed(&big, 62, 40));
    }
}

static void test_names(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    char buf[COPSE_ROBOT_NAME_MAX + 1u], name[COPSE_ROBOT_NAME_MAX + 1u];
    uint32_t i, k;
    tm_reset();
    h = tm_hand(false);
    if (!CHECK(h != NULL))
        return;
    for (k = 0; k < COPSE_ROBOT_NAME_MAX; k++)
        name[k] = (char)('!' + (k * 7u) % 90u);
    name[COPSE_ROBOT_NAME_MAX] = '\0';
    h->joints[5].name = name; /* the longest name */
    h->links[H_FINGER_R].name = ""; /* empty: no name */
    if (!build_in(&robot, &h->desc, &arena))
        return;
    for (i = 0; i < H_LINKS; i++) {
        const char *want = h->links[i].name != NULL ? h->links[i].name : "";
        CHECK_STATUS(copse_robot_link_name(&robot, i, buf, sizeof buf), COPSE_OK);
        CHECKF(strcmp(buf, want) == 0, "link %u: '%s' vs '%s'", (unsigned)i, buf, want);
        if (want[0] != '\0')
            CHECK_EQ_INT(copse_robot_find_link(&robot, want), i);
        memset(buf, '#', sizeof buf);
        CHECK_STATUS(copse_robot_link_name(&robot, i, buf, strlen(want)), COPSE_ERR_NOMEM);
        CHECK(buf[0] == '#');
        CHECK_STATUS(copse_robot_link_name(&robot, i, buf, strlen(want) + 1u), COPSE_OK);
    }
    for (i = 0; i + 1u < H_LINKS; i++) {
        CHECK_STATUS(copse_robot_joint_name(&robot, i, buf, sizeof buf), COPSE_OK);
        CHECK(strcmp(buf, h->joints[i].name) == 0);
        CHECK_EQ_INT(copse_robot_find_joint(&robot, h->joints[i].name), i);
    }
    CHECK(copse_robot_find_link(&robot, "elbow") == COPSE_NONE); /* a joint's name */
    CHECK(copse_robot_find_joint(&robot, "elbo") == COPSE_NONE && copse_robot_find_joint(&robot, "elbowx") == COPSE_NONE);
    CHECK(copse_robot_find_link(&robot, "") == COPSE_NONE && copse_robot_find_link(&robot, NULL) == COPSE_NONE);
    CHECK(copse_robot_find_link(NULL, "palm") == COPSE_NONE);
    CHECK_STATUS(copse_robot_link_name(&robot, H_LINKS, buf, sizeof buf), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_robot_joint_name(&robot, H_LINKS - 1u, buf, sizeof buf), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_robot_link_name(NULL, 0, buf, sizeof buf), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_joint_name(&robot, 0, NULL, 4), COPSE_ERR_NULL);
}

/* Brute force: the nearest triangle of the link's description mesh, in double. */
static double brute_nearest(const copse_mesh *m, const double *p)
{
    uint32_t t, k;
    double best = (double)INFINITY;
    uint32_t stride = m->vertex_stride ? m->vertex_stride / 4u : 3u;
    for (t = 0; t < m->triangle_count; t++) {
        double c[3][3], out[3], d;
        for (k = 0; k < 3u; k++) {
            uint32_t v = m->index_type == COPSE_MESH_INDEX_U16   ? ((const uint16_t *)m->indices)[3u * t + k]
                         : m->index_type == COPSE_MESH_INDEX_U32 ? ((const uint32_t *)m->indices)[3u * t + k]
                                                            : 3u * t + k;
            c[k][0] = (double)m->positions[stride * v];
            c[k][1] = (double)m->positions[stride * v + 1u];
            c[k][2] = (double)m->positions[stride * v + 2u];
        }
        d = orc_closest_triangle(p, c[0], c[1], c[2], out);
        best = d < best ? d : best;
    }
    return best;
}

/* The link's tree answers nearest queries as brute force over the description's mesh does. */
static void check_tree(const copse_robot *robot, const copse_link_desc *l, uint32_t link, test_rng *rng, uint32_t n)
{
    copse_bvh tree;
    uint32_t s;
    CHECK_STATUS(copse_robot_link_tree(robot, link, &tree), COPSE_OK);
    if (l->mesh == NULL || l->mesh->triangle_count == 0) {
        CHECK(tree.node_count == 0 && tree.prim_count == 0 && tree.nodes == NULL);
        return;
    }
    CHECK_STATUS(copse_bvh_check(&tree), COPSE_OK);
    CHECK(tree.prim_count == l->mesh->triangle_count && tree.mesh.vertex_count == l->mesh->vertex_count);
    for (s = 0; s < n; s++) {
        copse_vec3 p = copse_v3(test_rng_float(rng, -0.3f, 0.3f), test_rng_float(rng, -0.3f, 0.3f),
                                test_rng_float(rng, -0.2f, 0.6f));
        double dp[3] = { (double)p.x, (double)p.y, (double)p.z }, want = brute_nearest(l->mesh, dp);
        copse_nearest3 got;
        CHECK_STATUS(copse_bvh_nearest(&tree, p, FLT_MAX, &got), COPSE_OK);
        CHECKF(fabs(sqrt((double)got.distance_sq) - want) <= 1e-6 * (1.0 + want), "nearest %g vs %g",
               sqrt((double)got.distance_sq), want);
    }
}

static void test_link_parts(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    copse_sphere sp[2];
    copse_capsule cp[2];
    copse_bvh tree;
    test_rng rng;
    uint32_t i;
    tm_reset();
    test_rng_seed(&rng, 5);
    h = tm_hand(true);
    if (!CHECK(h != NULL) || !build_in(&robot, &h->desc, &arena))
        return;
    for (i = 0; i < H_LINKS; i++)
        check_tree(&robot, &h->links[i], i, &rng, big_machine() ? 100u : 10u);
    CHECK_STATUS(copse_robot_link_tree(&robot, H_LINKS, &tree), COPSE_ERR_INDEX);
    CHECK(tree.node_count == 0 && tree.dim == 0);
    CHECK_STATUS(copse_robot_link_tree(&robot, 0, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_link_tree(NULL, 0, &tree), COPSE_ERR_NULL);
    for (i = 0; i < H_LINKS; i++) {
        uint32_t ns = copse_robot_link_spheres(&robot, i, sp, 2), nc = copse_robot_link_capsules(&robot, i, cp, 2), k;
        CHECK(ns == h->links[i].sphere_count && nc == h->links[i].capsule_count);
        for (k = 0; k < ns && k < 2u; k++)
            CHECK(memcmp(&sp[k], &h->links[i].spheres[k], sizeof sp[k]) == 0);
        for (k = 0; k < nc && k < 2u; k++)
            CHECK(memcmp(&cp[k], &h->links[i].capsules[k], sizeof cp[k]) == 0);
    }
    CHECK(copse_robot_link_spheres(&robot, H_PALM, NULL, 5) == 1u); /* the count alone */
    sp[0].radius = -7.0f;
    CHECK(copse_robot_link_spheres(&robot, H_PALM, sp, 0) == 1u && sp[0].radius == -7.0f);
    CHECK(copse_robot_link_spheres(&robot, H_LINKS, sp, 2) == 0u && copse_robot_link_capsules(NULL, 0, cp, 2) == 0u);
}

/* Are all three corners of every triangle inside one shape (double, with a margin either way)?
 * 1 yes, 0 no, -1 too close to call. */
static int shapes_hold(const copse_link_desc *l)
{
    const copse_mesh *m = l->mesh;
    uint32_t stride = m->vertex_stride ? m->vertex_stride / 4u : 3u, t, s, k;
    int verdict = 1;
    for (t = 0; t < m->triangle_count; t++) {
        int best = 0;
        for (s = 0; s < l->sphere_count + l->capsule_count; s++) {
            int in = 1;
            for (k = 0; k < 3u; k++) {
                uint32_t v = m->index_type == COPSE_MESH_INDEX_U16   ? ((const uint16_t *)m->indices)[3u * t + k]
                             : m->index_type == COPSE_MESH_INDEX_U32 ? ((const uint32_t *)m->indices)[3u * t + k]
                                                                : 3u * t + k;
                double p[3] = { (double)m->positions[stride * v], (double)m->positions[stride * v + 1u],
                                (double)m->positions[stride * v + 2u] };
                double a[3], b[3], out[3], r, d;
                if (s < l->sphere_count) {
                    a[0] = b[0] = (double)l->spheres[s].center.x, a[1] = b[1] = (double)l->spheres[s].center.y;
                    a[2] = b[2] = (double)l->spheres[s].center.z, r = (double)l->spheres[s].radius;
                } else {
                    const copse_capsule *c = &l->capsules[s - l->sphere_count];
                    a[0] = (double)c->segment.a.x, a[1] = (double)c->segment.a.y, a[2] = (double)c->segment.a.z;
                    b[0] = (double)c->segment.b.x, b[1] = (double)c->segment.b.y, b[2] = (double)c->segment.b.z;
                    r = (double)c->radius;
                }
                d = orc_closest_segment(p, a, b, out);
                if (d > r * (1.0 + 1e-5))
                    in = 0;
                else if (d > r * (1.0 - 1e-5) && in == 1)
                    in = -1;
                if (in == 0)
                    break;
            }
            if (in == 1 || (in == -1 && best == 0))
                best = in;
        }
        if (best == 0)
            return 0;
        if (best == -1)
            verdict = -1;
    }
    return verdict;
}

static void test_shapes_bound(void)
{
    tm_robot *h;
    copse_robot robot;
    copse_arena arena;
    test_rng rng;
    uint32_t i, trial, set = 0, unset = 0;
    tm_reset();
    h = tm_hand(true);
    if (!CHECK(h != NULL) || !build_in(&robot, &h->desc, &arena))
        return;
    for (i = 0; i < H_LINKS; i++) {
        bool flag = (((const uint32_t *)robot.links)[8u * i + 6u] & 1u) != 0u; /* robot_link.flags */
        bool want = h->links[i].mesh != NULL && shapes_hold(&h->links[i]) == 1;
        CHECKF(flag == want, "link %u bound flag %d", (unsigned)i, (int)flag);
    }
    CHECK((((const uint32_t *)robot.links)[8u * H_UPPER + 6u] & 1u) && (((const uint32_t *)robot.links)[8u * H_PALM + 6u] & 1u));
    /* random boxes against random spheres and capsules, some just holding, some just not */
    test_rng_seed(&rng, 31);
    for (trial = 0; trial < (big_machine() ? 300u : 40u); trial++) {
        tm_robot *d;
        copse_robot one;
        double half[3], reach;
        int want;
        tm_reset();
        d = tm_robot_new(1);
        if (d == NULL)
            return;
        half[0] = (double)test_rng_float(&rng, 0.01f, 1.0f);
        half[1] = (double)test_rng_float(&rng, 0.01f, 1.0f);
        half[2] = (double)test_rng_float(&rng, 0.01f, 1.0f);
        d->links[0].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.0f), copse_v3((float)half[0], (float)half[1], (float)half[2]),
                                  COPSE_MESH_INDEX_U32, 3u);
        reach = sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
        if (trial % 2u) {
            d->spheres[0].center = copse_v3(0.0f, 0.0f, 0.0f);
            d->spheres[0].radius = (float)(reach * (1.0 + (double)test_rng_float(&rng, -3e-6f, 3e-6f) * (trial % 4u == 1u ? 1.0 : 1e4)));
            d->links[0].spheres = d->spheres;
            d->links[0].sphere_count = 1;
        } else { /* a capsule along x through the box: reach from the axis */
            double rx = sqrt(half[1] * half[1] + half[2] * half[2]);
            d->capsules[0].segment.a = copse_v3((float)-half[0], 0.0f, 0.0f);
            d->capsules[0].segment.b = copse_v3((float)half[0], 0.0f, 0.0f);
            d->capsules[0].radius = (float)(rx * (1.0 + (double)test_rng_float(&rng, -3e-6f, 3e-6f) * (trial % 4u == 0u ? 1.0 : 1e4)));
            d->links[0].capsules = d->capsules;
            d->links[0].capsule_count = 1;
        }
        if (!build_in(&one, &d->desc, &arena))
            return;
        want = shapes_hold(&d->links[0]);
        {
            bool flag = (((const uint32_t *)one.links)[6] & 1u) != 0u;
            if (want == 0)
                CHECKF(!flag, "trial %u: flag set on a mesh its shapes do not hold", (unsigned)trial);
            else if (want == 1)
                CHECKF(flag, "trial %u: flag unset though the shapes hold", (unsigned)trial);
            set += flag, unset += !flag;
        }
    }
    CHECKF(set > 0 && unset > 0, "both answers seen: %u set, %u unset", (unsigned)set, (unsigned)unset);
}

/* ---- blobs ------------------------------------------------------------------------------------------ */

static bool same_fk(const copse_robot *a, const copse_robot *b, const copse_robot_desc *d, test_rng *rng)
{
    copse_pose pa[TM_MAX_LINKS], pb[TM_MAX_LINKS];
    float q[TM_MAX_LINKS];
    random_q(d, rng, q, 0u);
    return copse_robot_fk(a, q, NULL, pa) == COPSE_OK && copse_robot_fk(b, q, NULL, pb) == COPSE_OK &&
           memcmp(pa, pb, sizeof(copse_pose) * d->link_count) == 0;
}

/* Saves are little endian (docs/format.md); a big-endian host (host_big_endian, test_blob.h) views
 * them after copse_blob_to_host, and the byte-for-byte comparisons of the blob tests are
 * little-endian facts. */

/* On a big-endian host: the saved robot, converted, views and holds the same layout. */
static void view_converted(const copse_robot *robot, uint8_t *blob, size_t bytes)
{
    copse_robot view;
    CHECK_STATUS(copse_robot_view(&view, blob, bytes), COPSE_ERR_HOST_ORDER);
    CHECK_STATUS(copse_blob_to_host(blob, bytes, blob, bytes, NULL), COPSE_OK);
    CHECK_STATUS(copse_robot_view(&view, blob, bytes), COPSE_OK);
    CHECK(view.bytes == robot->bytes && memcmp(view.data, robot->data, robot->bytes) == 0);
    test_skip("big-endian host: the converted view checked; byte comparisons run on little-endian hosts");
}

static void test_blob_roundtrip(void)
{
    tm_robot *h;
    copse_robot robot, view;
    copse_arena arena;
    size_t bytes, written;
    uint8_t *blob;
    test_rng rng;
    uint32_t i, k;
    tm_reset();
    test_rng_seed(&rng, 8);
    h = tm_hand(true);
    if (!CHECK(h != NULL) || !build_in(&robot, &h->desc, &arena))
        return;
    CHECK_STATUS(copse_robot_allow(&robot, H_BASE, H_TOOL, true), COPSE_OK); /* a changed ACM is saved */
    bytes = copse_robot_save_bytes(&robot);
    CHECK(bytes == 112u + robot.bytes); /* header, one table entry, the layout */
    blob = (uint8_t *)tm_alloc(bytes);
    if (blob == NULL) {
        test_skip("not enough memory for the blob");
        return;
    }
    CHECK_STATUS(copse_robot_save(&robot, blob, bytes - 1u, &written), COPSE_ERR_NOMEM);
    CHECK(written == bytes);
    CHECK_STATUS(copse_robot_save(&robot, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_STATUS(copse_robot_save(&robot, NULL, 4, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_save(NULL, blob, bytes, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_save(&robot, blob, bytes, &written), COPSE_OK);
    CHECK(written == bytes && copse_robot_save_bytes(NULL) == 0);
    if (host_big_endian()) {
        view_converted(&robot, blob, bytes);
        return;
    }
    CHECK_STATUS(copse_robot_view(&view, blob, bytes), COPSE_OK);
    CHECK(view.read_only && view.acm_writable == NULL && view.bytes == robot.bytes);
    CHECK(memcmp(view.data, robot.data, robot.bytes) == 0);
    CHECK(view.link_count == robot.link_count && view.joint_count == robot.joint_count && view.dof == robot.dof &&
          view.tree_count == robot.tree_count && view.acm_words == robot.acm_words);
    CHECK(copse_robot_allowed(&view, H_TOOL, H_BASE));
    CHECK_STATUS(copse_robot_allow(&view, H_BASE, H_TOOL, false), COPSE_ERR_READ_ONLY);
    for (i = 0; i < 20u; i++)
        CHECK(same_fk(&robot, &view, &h->desc, &rng));
    CHECK_EQ_INT(copse_robot_find_link(&view, "forearm"), H_FORE);
    for (i = 0; i < H_LINKS; i++) {
        copse_bvh ta, tb;
        CHECK_STATUS(copse_robot_link_tree(&robot, i, &ta), COPSE_OK);
        CHECK_STATUS(copse_robot_link_tree(&view, i, &tb), COPSE_OK);
        CHECK(ta.node_count == tb.node_count && ta.prim_count == tb.prim_count);
        for (k = 0; k < 10u && ta.node_count > 0; k++) {
            copse_vec3 p = copse_v3(test_rng_float(&rng, -0.3f, 0.3f), test_rng_float(&rng, -0.3f, 0.3f),
                                    test_rng_float(&rng, -0.3f, 0.3f));
            copse_nearest3 na, nb;
            CHECK_STATUS(copse_bvh_nearest(&ta, p, FLT_MAX, &na), COPSE_OK);
            CHECK_STATUS(copse_bvh_nearest(&tb, p, FLT_MAX, &nb), COPSE_OK);
            CHECK(memcmp(&na, &nb, sizeof na) == 0);
        }
    }
    /* a view saves to the same bytes */
    {
        uint8_t *again = (uint8_t *)tm_alloc(bytes);
        if (again != NULL) {
            CHECK_STATUS(copse_robot_save(&view, again, bytes, &written), COPSE_OK);
            CHECK(memcmp(again, blob, bytes) == 0);
            /* byte order: in place on this host it is already in order; words swapped with the
             * marker saying so, the view refuses it and copse_blob_to_host brings it back */
            CHECK_STATUS(copse_blob_to_host(blob, bytes, again, bytes, &written), COPSE_OK);
            CHECK(memcmp(again, blob, bytes) == 0);
        }
    }
    /* errors */
    CHECK_STATUS(copse_robot_view(NULL, blob, bytes), COPSE_ERR_NULL);
    CHECK_STATUS(copse_robot_view(&view, NULL, bytes), COPSE_ERR_NULL);
    CHECK(view.data == NULL && view.link_count == 0);
    CHECK_STATUS(copse_robot_view(&view, blob + 4, bytes - 4u), COPSE_ERR_BLOB_MAGIC);
    CHECK_STATUS(copse_robot_view(&view, blob + 2, bytes - 2u), COPSE_ERR_ALIGN);
    CHECK_STATUS(copse_robot_view(&view, blob, bytes - 1u), COPSE_ERR_BLOB_TRUNCATED);
    CHECK_STATUS(copse_robot_view(&view, blob, 95u), COPSE_ERR_BLOB_TRUNCATED);
    CHECK(view.data == NULL);
    {
        uint16_t kind = COPSE_BLOB_BVH;
        memcpy(blob + 6, &kind, 2); /* little-endian hosts and boards alike */
        blob_reseal(blob, bytes);
        CHECK_STATUS(copse_robot_view(&view, blob, bytes), COPSE_ERR_BLOB_KIND);
    }
}


/* Uses everything a viewed robot offers; nothing may fault (ASan watches on the host). */
static void exercise(const copse_robot *v, test_rng *rng)
{
    copse_pose poses[COPSE_ROBOT_MAX_LINKS];
    float q[COPSE_ROBOT_MAX_LINKS];
    char buf[COPSE_ROBOT_NAME_MAX + 1u];
    uint32_t i, joint;
    copse_status st;
    for (i = 0; i < v->dof && i < COPSE_ROBOT_MAX_LINKS; i++) {
        float lo, hi;
        CHECK_STATUS(copse_robot_variable(v, i, &joint, &lo, &hi), COPSE_OK);
        q[i] = lo <= -FLT_MAX ? 0.5f : lo + (hi - lo) * test_rng_float(rng, 0.0f, 1.0f);
        if (!(q[i] >= lo && q[i] <= hi))
            q[i] = lo;
    }
    if (v->link_count <= COPSE_ROBOT_MAX_LINKS) {
        st = copse_robot_fk(v, q, NULL, poses);
        CHECKF(st == COPSE_OK || st == COPSE_ERR_PARAM || st == COPSE_ERR_NONFINITE, "fk on a view: %s",
               copse_status_str(st));
    }
    for (i = 0; i < v->link_count; i++) {
        copse_bvh tree;
        copse_sphere sp[4];
        copse_capsule cp[4];
        (void)copse_robot_link_name(v, i, buf, sizeof buf);
        (void)copse_robot_find_link(v, buf);
        (void)copse_robot_link_spheres(v, i, sp, 4);
        (void)copse_robot_link_capsules(v, i, cp, 4);
        (void)copse_robot_allowed(v, i, (i * 5u) % v->link_count);
        if (copse_robot_link_tree(v, i, &tree) == COPSE_OK && tree.node_count > 0) {
            copse_nearest3 n;
            copse_hit hit;
            copse_ray3 ray;
            ray.origin = copse_v3(test_rng_float(rng, -1.0f, 1.0f), test_rng_float(rng, -1.0f, 1.0f), 1.0f);
            ray.dir = copse_v3(0.0f, 0.1f, -1.0f);
            ray.t_max = 3.0f;
            CHECK_STATUS(copse_bvh_check(&tree), COPSE_OK);
            CHECK_STATUS(copse_bvh_nearest(&tree, copse_v3(0.1f, 0.2f, 0.3f), FLT_MAX, &n), COPSE_OK);
            CHECK_STATUS(copse_bvh_raycast(&tree, &ray, &hit), COPSE_OK);
        }
    }
    for (i = 0; i < v->joint_count; i++)
        (void)copse_robot_joint_name(v, i, buf, sizeof buf);
}

/* A small robot: a box on a revolute joint, a finger on a prismatic one, a mimic. */
static tm_robot *tm_small(void)
{
    tm_robot *r = tm_robot_new(4);
    copse_joint_desc *j;
    if (r == NULL)
        return NULL;
    r->links[0].name = "base";
    r->links[1].name = "arm";
    r->links[2].name = "f";
    r->links[0].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.0f), copse_v3(0.1f, 0.1f, 0.1f), COPSE_MESH_INDEX_U16, 3u);
    r->links[2].mesh = tm_box(copse_v3(0.0f, 0.0f, 0.05f), copse_v3(0.01f, 0.01f, 0.05f), COPSE_MESH_INDEX_U32, 3u);
    r->spheres[0].center = copse_v3(0.0f, 0.0f, 0.0f);
    r->spheres[0].radius = 0.2f;
    r->links[0].spheres = r->spheres;
    r->links[0].sphere_count = 1;
    r->capsules[0].segment.b = copse_v3(0.0f, 0.0f, 0.1f);
    r->capsules[0].radius = 0.02f;
    r->links[2].capsules = r->capsules;
    r->links[2].capsule_count = 1;
    j = tm_joint(r, 0, "j0", COPSE_JOINT_REVOLUTE, 0, 1);
    j->xyz = copse_v3(0.0f, 0.0f, 0.1f);
    j->rpy = copse_v3(0.0f, 0.3f, 0.0f);
    j->axis = copse_v3(0.0f, 1.0f, 0.0f);
    j->lower = -1.0f;
    j->upper = 1.0f;
    j = tm_joint(r, 1, NULL, COPSE_JOINT_PRISMATIC, 1, 2);
    j->axis = copse_v3(1.0f, 0.0f, 0.0f);
    j->upper = 0.1f;
    j = tm_joint(r, 2, "mimic", COPSE_JOINT_REVOLUTE, 1, 3);
    j->lower = -5.0f;
    j->upper = 5.0f;
    j->mimic = 0;
    j->multiplier = 2.0f;
    if (r->links[0].mesh == NULL || r->links[2].mesh == NULL)
        return NULL;
    return r;
}

static void test_blob_mutations(void)
{
    tm_robot *s;
    copse_robot robot, view;
    copse_arena arena;
    uint8_t *blob, *work, *again;
    size_t bytes, pos, written;
    uint32_t step = big_machine() ? 1u : 7u, accepted = 0, refused = 0, x;
    static const uint8_t flips[3] = { 0xFF, 0x01, 0x80 };
    test_rng rng;
    tm_reset();
    test_rng_seed(&rng, 1234);
    s = tm_small();
    if (!CHECK(s != NULL) || !build_in(&robot, &s->desc, &arena))
        return;
    bytes = copse_robot_save_bytes(&robot);
    blob = (uint8_t *)tm_alloc(bytes);
    work = (uint8_t *)tm_alloc(bytes);
    again = (uint8_t *)tm_alloc(bytes);
    if (blob == NULL || work == NULL || again == NULL) {
        test_skip("not enough memory for the blobs");
        return;
    }
    CHECK_STATUS(copse_robot_save(&robot, blob, bytes, &written), COPSE_OK);
    if (host_big_endian()) {
        view_converted(&robot, blob, bytes);
        return;
    }
    CHECK_STATUS(copse_robot_view(&view, blob, bytes), COPSE_OK);
    exercise(&view, &rng);
    for (x = 0; x < (big_machine() ? 3u : 1u); x++)
        for (pos = (x * 3u) % step; pos < bytes; pos += step) {
            copse_status st;
            memcpy(work, blob, bytes);
            work[pos] ^= flips[x];
            st = copse_robot_view(&view, work, bytes);
            if (!CHECKF(st != COPSE_OK, "byte %u ^ %02x passed the CRC", (unsigned)pos, flips[x]))
                return;
            if (pos >= 12u && pos < 16u)
                continue; /* the CRC itself */
            blob_reseal(work, bytes);
            st = copse_robot_view(&view, work, bytes);
            if (st != COPSE_OK) {
                refused++;
                CHECK(view.data == NULL && view.link_count == 0);
                continue;
            }
            accepted++;
            exercise(&view, &rng);
            /* what a view accepts is canonical: it saves to the very same bytes */
            CHECK_STATUS(copse_robot_save(&view, again, bytes, &written), COPSE_OK);
            CHECKF(written == bytes && memcmp(again, work, bytes) == 0, "byte %u ^ %02x: the view saves otherwise",
                   (unsigned)pos, flips[x]);
        }
    CHECK(refused > 0);
    copse_port_printf("info robot_model: %lu-byte blob, resealed mutations: %u refused, %u accepted (queried, saved back "
                      "identically)\n", (unsigned long)bytes, (unsigned)refused, (unsigned)accepted);
}

void suite_robot_model(void)
{
    test_run("robot_model/build_hand", test_build_hand);
    test_run("robot_model/fk_random", test_fk_random);
    test_run("robot_model/fk_errors", test_fk_errors);
    test_run("robot_model/build_errors", test_build_errors);
    test_run("robot_model/build_bytes", test_build_bytes);
    test_run("robot_model/same_bytes", test_same_bytes);
    test_run("robot_model/acm", test_acm);
    test_run("robot_model/names", test_names);
    test_run("robot_model/link_parts", test_link_parts);
    test_run("robot_model/shapes_bound", test_shapes_bound);
    test_run("robot_model/blob_roundtrip", test_blob_roundtrip);
    test_run("robot_model/blob_mutations", test_blob_mutations);
}

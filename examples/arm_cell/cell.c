/* SPDX-License-Identifier: MIT */
/*
 * The arm and its cell, generated: boxes and prisms triangulated here, the same numbers, bit for
 * bit, on every machine (no libm: the prisms' corners come from tables, rotations from copse).
 */
#include "cell.h"

/* ---- triangulation -------------------------------------------------------------------------- */
#if PRISM_SIDES == 6
static const float g_cos[6] = { 1.0f, 0.5f, -0.5f, -1.0f, -0.5f, 0.5f };
static const float g_sin[6] = { 0.0f, 0.8660254f, 0.8660254f, 0.0f, -0.8660254f, -0.8660254f };
#else
static const float g_cos[8] = { 1.0f, 0.70710677f, 0.0f, -0.70710677f, -1.0f, -0.70710677f, 0.0f, 0.70710677f };
static const float g_sin[8] = { 0.0f, 0.70710677f, 1.0f, 0.70710677f, 0.0f, -0.70710677f, -1.0f, -0.70710677f };
#endif

static void mb_start(mesh_builder *mb, float *pos, uint16_t *idx)
{
    mb->pos = pos;
    mb->idx = idx;
    mb->nverts = mb->ntris = 0;
}

static copse_mesh mb_mesh(const mesh_builder *mb)
{
    copse_mesh m;
    m.positions = mb->pos;
    m.vertex_count = mb->nverts;
    m.vertex_stride = 0;
    m.indices = mb->idx;
    m.index_type = COPSE_MESH_INDEX_U16;
    m.triangle_count = mb->ntris;
    return m;
}

static void mb_vertex(mesh_builder *mb, float x, float y, float z)
{
    float *p = mb->pos + 3u * mb->nverts++;
    p[0] = x;
    p[1] = y;
    p[2] = z;
}

/* A triangle of the part whose first vertex is `base` (outward normal: a, b, c counter-clockwise). */
static void mb_tri(mesh_builder *mb, uint32_t base, uint32_t a, uint32_t b, uint32_t c)
{
    uint16_t *t = mb->idx + 3u * mb->ntris++;
    t[0] = (uint16_t)(base + a);
    t[1] = (uint16_t)(base + b);
    t[2] = (uint16_t)(base + c);
}

/* An axis-aligned box; vertex k has bit 0 = max x, bit 1 = max y, bit 2 = max z. */
static void mb_box(mesh_builder *mb, float x0, float y0, float z0, float x1, float y1, float z1)
{
    static const uint8_t faces[BOX_TRIS][3] = { { 0, 4, 6 }, { 0, 6, 2 }, { 1, 3, 7 }, { 1, 7, 5 },
                                                { 0, 1, 5 }, { 0, 5, 4 }, { 2, 6, 7 }, { 2, 7, 3 },
                                                { 0, 2, 3 }, { 0, 3, 1 }, { 4, 5, 7 }, { 4, 7, 6 } };
    uint32_t base = mb->nverts, k;
    for (k = 0; k < BOX_VERTS; k++)
        mb_vertex(mb, (k & 1u) ? x1 : x0, (k & 2u) ? y1 : y0, (k & 4u) ? z1 : z0);
    for (k = 0; k < BOX_TRIS; k++)
        mb_tri(mb, base, faces[k][0], faces[k][1], faces[k][2]);
}

/* A prism round an axis (0 x, 1 y, 2 z) from the point c to c + len along it, its corners r
 * from the axis. Local (u, v, w), w along the axis, map to the frame by a cyclic permutation
 * (no mirror: the caps stay outward). */
static void mb_prism(mesh_builder *mb, int axis, copse_vec3 c, float len, float r)
{
    uint32_t base = mb->nverts, k;
    for (k = 0; k < 2u * PRISM_SIDES; k++) {
        float u = r * g_cos[k % PRISM_SIDES], v = r * g_sin[k % PRISM_SIDES], w = k < PRISM_SIDES ? 0.0f : len;
        if (axis == 0)
            mb_vertex(mb, c.x + w, c.y + u, c.z + v);
        else if (axis == 1)
            mb_vertex(mb, c.x + v, c.y + w, c.z + u);
        else
            mb_vertex(mb, c.x + u, c.y + v, c.z + w);
    }
    for (k = 0; k < PRISM_SIDES; k++) {
        uint32_t k1 = (k + 1u) % PRISM_SIDES;
        mb_tri(mb, base, k, k1, k1 + PRISM_SIDES);
        mb_tri(mb, base, k, k1 + PRISM_SIDES, k + PRISM_SIDES);
    }
    for (k = 1; k + 1u < PRISM_SIDES; k++) {
        mb_tri(mb, base, 0, k + 1u, k);                                          /* the cap at c */
        mb_tri(mb, base, PRISM_SIDES, PRISM_SIDES + k, PRISM_SIDES + k + 1u);   /* the far cap */
    }
}

/* ---- the arm ------------------------------------------------------------------------------------ */
static const char *const g_link_names[ARM_LINKS] = { "base",  "shoulder", "upper_arm", "forearm",  "wrist",
                                                     "flange", "hand",    "finger_l",  "finger_r" };

/* A link that is a prism along z from its frame's origin, len long, its corners r from its axis.
 * With its mesh (mb), a capsule round the axis bounds it; without (mb NULL) a capsule is all
 * there is of it, as long as the prism and no longer: its round ends inside [0, len]. */
static void arm_prism_link(arm_storage *s, mesh_builder *mb, uint32_t link, float len, float r)
{
    copse_capsule *c = &s->capsules[link];
    if (mb != NULL) {
        mb_prism(mb, 2, copse_v3(0.0f, 0.0f, 0.0f), len, r);
        c->segment.a = copse_v3(0.0f, 0.0f, 0.0f);
        c->segment.b = copse_v3(0.0f, 0.0f, len);
        c->radius = 1.01f * r; /* corners exactly r away: a margin for rounding */
    } else {
        float lo = 2.0f * r < len ? r : 0.5f * len; /* short: a ball at the middle */
        c->segment.a = copse_v3(0.0f, 0.0f, lo);
        c->segment.b = copse_v3(0.0f, 0.0f, len - lo);
        c->radius = r;
    }
    s->links[link].capsules = c;
    s->links[link].capsule_count = 1;
}

/* A link that is a box. With its mesh (mb), a sphere round its centre bounds it; without (mb
 * NULL) the box is a capsule along its longest axis, as thick as the box and no longer. */
static void arm_box_link(arm_storage *s, mesh_builder *mb, uint32_t link, copse_vec3 lo, copse_vec3 hi)
{
    copse_vec3 h = copse_v3(0.5f * (hi.x - lo.x), 0.5f * (hi.y - lo.y), 0.5f * (hi.z - lo.z));
    copse_vec3 o = copse_v3(lo.x + h.x, lo.y + h.y, lo.z + h.z);
    if (mb != NULL) {
        float d2 = h.x * h.x + h.y * h.y + h.z * h.z, r = d2; /* r = sqrt(d2) by Newton: no libm */
        int i;
        for (i = 0; i < 24; i++)
            r = 0.5f * (r + d2 / r);
        mb_box(mb, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
        s->spheres[link].center = o;
        s->spheres[link].radius = 1.01f * r;
        s->links[link].spheres = &s->spheres[link];
        s->links[link].sphere_count = 1;
    } else {
        copse_capsule *c = &s->capsules[link];
        copse_vec3 e = copse_v3(0.0f, 0.0f, 0.0f); /* half the segment */
        float r;
        if (h.x >= h.y && h.x >= h.z) {
            r = h.y > h.z ? h.y : h.z;
            e.x = h.x - r;
        } else if (h.y >= h.z) {
            r = h.x > h.z ? h.x : h.z;
            e.y = h.y - r;
        } else {
            r = h.x > h.y ? h.x : h.y;
            e.z = h.z - r;
        }
        c->segment.a = copse_v3(o.x - e.x, o.y - e.y, o.z - e.z);
        c->segment.b = copse_v3(o.x + e.x, o.y + e.y, o.z + e.z);
        c->radius = r;
        s->links[link].capsules = c;
        s->links[link].capsule_count = 1;
    }
}

static void arm_joint(arm_storage *s, uint32_t j, const char *name, copse_joint_type type, float z, copse_vec3 axis,
                      float lower, float upper)
{
    copse_joint_desc *d = &s->joints[j];
    d->name = name;
    d->type = type;
    d->parent = j; /* a chain: joint j places link j + 1 on link j ... */
    d->child = j + 1u;
    d->xyz = copse_v3(0.0f, 0.0f, z);
    d->rpy = copse_v3(0.0f, 0.0f, 0.0f);
    d->axis = axis;
    d->lower = lower;
    d->upper = upper;
    d->mimic = -1;
    d->multiplier = 1.0f;
    d->offset = 0.0f;
}

void arm_describe(arm_storage *s, float *pos, uint16_t *idx, copse_robot_desc *desc)
{
    const copse_vec3 Y = { 0.0f, 1.0f, 0.0f }, Z = { 0.0f, 0.0f, 1.0f };
    copse_robot_desc d;
    mesh_builder mesh, *mb;
    uint32_t i;

    for (i = 0; i < ARM_LINKS; i++) {
        copse_link_desc *l = &s->links[i];
        l->name = g_link_names[i];
        l->mesh = &s->meshes[i];
        l->spheres = NULL;
        l->sphere_count = 0;
        l->capsules = NULL;
        l->capsule_count = 0;
        l->padding = 0.0f;
        mb_start(&mesh, pos, idx);
        mb = ARM_MESHES ? &mesh : NULL;
        switch (i) {
        case L_BASE: arm_prism_link(s, mb, i, 0.60f, 0.10f); break;
        case L_SHOULDER: arm_box_link(s, mb, i, copse_v3(-0.08f, -0.08f, 0.0f), copse_v3(0.08f, 0.08f, 0.16f)); break;
        case L_UPPER: arm_prism_link(s, mb, i, 0.45f, 0.06f); break;
        case L_FOREARM: arm_prism_link(s, mb, i, 0.40f, 0.05f); break;
        case L_WRIST: arm_box_link(s, mb, i, copse_v3(-0.045f, -0.045f, 0.0f), copse_v3(0.045f, 0.045f, 0.08f)); break;
        case L_FLANGE: arm_prism_link(s, mb, i, 0.06f, 0.045f); break;
        case L_HAND: arm_box_link(s, mb, i, copse_v3(-0.04f, -0.09f, 0.0f), copse_v3(0.04f, 0.09f, 0.05f)); break;
        case L_FINGER_L:
            arm_box_link(s, mb, i, copse_v3(-0.015f, 0.005f, 0.0f), copse_v3(0.015f, 0.025f, 0.08f));
            break;
        default:
            arm_box_link(s, mb, i, copse_v3(-0.015f, -0.025f, 0.0f), copse_v3(0.015f, -0.005f, 0.08f));
            break;
        }
        if (mb == NULL) {
            l->mesh = NULL;
            continue;
        }
        s->meshes[i] = mb_mesh(mb);
        pos += 3u * mb->nverts;
        idx += 3u * mb->ntris;
    }
    /* The chain's origins: pedestal 0.60 m, shoulder 0.16, upper arm 0.45, forearm 0.40, wrist
     * 0.08, flange 0.06, palm 0.05. */
    arm_joint(s, 0, "pan", COPSE_JOINT_REVOLUTE, 0.60f, Z, -2.9f, 2.9f);
    arm_joint(s, 1, "lift", COPSE_JOINT_REVOLUTE, 0.16f, Y, -2.0f, 2.0f);
    arm_joint(s, 2, "elbow", COPSE_JOINT_REVOLUTE, 0.45f, Y, -2.6f, 2.6f);
    arm_joint(s, 3, "wrist_pitch", COPSE_JOINT_REVOLUTE, 0.40f, Y, -2.2f, 2.2f);
    arm_joint(s, 4, "wrist_roll", COPSE_JOINT_CONTINUOUS, 0.08f, Z, 0.0f, 0.0f);
    arm_joint(s, 5, "hand_pitch", COPSE_JOINT_REVOLUTE, 0.06f, Y, -2.0f, 2.0f);
    arm_joint(s, 6, "finger_l", COPSE_JOINT_PRISMATIC, 0.05f, Y, 0.0f, 0.05f);
    arm_joint(s, 7, "finger_r", COPSE_JOINT_PRISMATIC, 0.05f, Y, -0.05f, 0.0f);
    s->joints[7].parent = L_HAND; /* both fingers hang on the palm */
    s->joints[7].mimic = 6;       /* ... and move apart together */
    s->joints[7].multiplier = -1.0f;
    /* Pairs an SRDF would disable: the pedestal's and the upper arm's capsules overlap round the
     * shoulder, which is between them; the wrist and the palm may brush as the hand pitches;
     * the fingers meet when the gripper closes. */
    s->allowed[0].a = L_BASE;
    s->allowed[0].b = L_UPPER;
    s->allowed[1].a = L_WRIST;
    s->allowed[1].b = L_HAND;
    s->allowed[2].a = L_FINGER_L;
    s->allowed[2].b = L_FINGER_R;

    d.links = s->links;
    d.link_count = ARM_LINKS;
    d.joints = s->joints;
    d.joint_count = ARM_JOINTS;
    d.allowed = s->allowed;
    d.allowed_count = 3;
    d.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    d.flags = 0;
    *desc = d;
}

/* ---- the world ---------------------------------------------------------------------------------- */
#define PILLAR_R 0.08f
#define PILLAR_H 1.80f

void cell_meshes(float *pos, uint16_t *idx, copse_mesh *meshes)
{
    mesh_builder mb;

    /* 0: the table, its top 0.70..0.74 m high, in front of the arm */
    mb_start(&mb, pos, idx);
    mb_box(&mb, 0.35f, -0.50f, 0.70f, 1.05f, 0.50f, 0.74f);
#if TABLE_BOXES > 1
    mb_box(&mb, 0.37f, -0.48f, 0.0f, 0.41f, -0.44f, 0.70f);
    mb_box(&mb, 0.99f, -0.48f, 0.0f, 1.03f, -0.44f, 0.70f);
    mb_box(&mb, 0.37f, 0.44f, 0.0f, 0.41f, 0.48f, 0.70f);
    mb_box(&mb, 0.99f, 0.44f, 0.0f, 1.03f, 0.48f, 0.70f);
#endif
    meshes[0] = mb_mesh(&mb);
    pos += 3u * mb.nverts;
    idx += 3u * mb.ntris;

    /* 1: a pillar round its own z axis, placed (cell_placements) wherever one stands */
    mb_start(&mb, pos, idx);
    mb_prism(&mb, 2, copse_v3(0.0f, 0.0f, 0.0f), PILLAR_H, PILLAR_R);
    meshes[1] = mb_mesh(&mb);
#if SHELF_BOXES > 0
    pos += 3u * mb.nverts;
    idx += 3u * mb.ntris;

    /* 2: a shelf, 1 m wide along its x, 0.3 m deep, three boards */
    mb_start(&mb, pos, idx);
    mb_box(&mb, -0.50f, -0.15f, 0.0f, -0.48f, 0.15f, 1.50f);
    mb_box(&mb, 0.48f, -0.15f, 0.0f, 0.50f, 0.15f, 1.50f);
    mb_box(&mb, -0.48f, -0.15f, 0.30f, 0.48f, 0.15f, 0.32f);
    mb_box(&mb, -0.48f, -0.15f, 0.80f, 0.48f, 0.15f, 0.82f);
    mb_box(&mb, -0.48f, -0.15f, 1.30f, 0.48f, 0.15f, 1.32f);
    meshes[2] = mb_mesh(&mb);
#endif
}

void cell_placements(copse_pose *poses, uint32_t *tree_of)
{
    poses[0] = copse_pose_identity();
    tree_of[0] = 0;
    poses[1] = copse_pose_translation(copse_v3(-0.45f, 0.60f, 0.0f));
    tree_of[1] = 1;
#if PILLARS > 1
    poses[2] = copse_pose_translation(copse_v3(0.50f, -0.85f, 0.0f));
    tree_of[2] = 1;
#endif
#if SHELF_BOXES > 0
    /* behind the arm, turned a quarter round: its boards run along the world's y */
    (void)copse_pose_from_xyz_rpy(&poses[PILLARS + 1], copse_v3(-0.72f, 0.05f, 0.0f),
                                  copse_v3(0.0f, 0.0f, 1.5707964f));
    tree_of[PILLARS + 1] = 2;
#endif
}

const char *cell_mesh_name(uint32_t world_mesh)
{
    static const char *const names[] = { "table", "pillar_a", "pillar_b" };
    if (world_mesh == PILLARS + 1u)
        return "shelf";
    return world_mesh < 3u ? names[world_mesh] : "?";
}

void cell_objects(float s, copse_world_object *objects)
{
    copse_box3 tote = { { -0.10f, -0.07f, -0.06f }, { 0.10f, 0.07f, 0.06f } };
    copse_box3 crate = { { -0.20f, -0.15f, -0.20f }, { 0.20f, 0.15f, 0.20f } };
    copse_pose p;

    /* a tote sliding along the table, turning as it goes */
    (void)copse_pose_from_xyz_rpy(&p, copse_v3(0.62f, -0.40f + 0.80f * s, 0.80f), copse_v3(0.0f, 0.0f, 0.6f * s));
    objects[0].kind = COPSE_OBJECT_BOX;
    (void)copse_obb_from_box(&objects[0].box, &tote, &p);
    /* a ball circling the arm at shoulder height */
    (void)copse_pose_from_axis_angle(&p, copse_v3(0.0f, 0.0f, 1.0f), 1.2f + 4.0f * s, copse_v3(0.0f, 0.0f, 0.0f));
    objects[1].kind = COPSE_OBJECT_SPHERE;
    objects[1].sphere.center = copse_pose_apply(&p, copse_v3(0.55f, 0.0f, 1.05f));
    objects[1].sphere.radius = 0.08f;
    /* a crate on the floor beside the table (it does not move) */
    (void)copse_pose_from_xyz_rpy(&p, copse_v3(0.05f, -0.62f, 0.20f), copse_v3(0.0f, 0.0f, 0.3f));
    objects[2].kind = COPSE_OBJECT_BOX;
    (void)copse_obb_from_box(&objects[2].box, &crate, &p);
}

const char *cell_object_name(uint32_t object)
{
    static const char *const names[WORLD_OBJECTS] = { "tote", "ball", "crate" };
    return object < WORLD_OBJECTS ? names[object] : "?";
}

#if SCAN_POINTS > 0
/* A safety fence beside the cell, scanned: a grid of points 0.1 m apart in the plane y = 0.95. */
void cell_scan(copse_vec3 *points)
{
    int i, k;
    for (i = 0; i < SCAN_X; i++)
        for (k = 0; k < SCAN_Z; k++)
            points[i * SCAN_Z + k] = copse_v3(-0.60f + 0.1f * (float)i, 0.95f, 0.10f + 0.1f * (float)k);
}
#endif

/* SPDX-License-Identifier: MIT */
/* Hostile cases: robot.h (building, the model's accessors, forward kinematics, the checks, the
 * motions, blobs), and the deepest calls of every module for the small-stack test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

#define ROBOT_STATUS (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_PARAM) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_INDEX) | \
                      HZ_S(ERR_NOMEM) | HZ_S(ERR_DEGENERATE) | HZ_S(ERR_TOO_LARGE) | HZ_S(ERR_TOO_DEEP) |    \
                      HZ_S(ERR_EMPTY_RANGE) | HZ_S(ERR_KIND) | HZ_S(ERR_DIMENSION) | HZ_S(ERR_LIMIT) |        \
                      HZ_S(ERR_ALIGN) | HZ_S(ERR_READ_ONLY))

/* ---- descriptions ------------------------------------------------------------------------------ */

typedef struct desc_kit {
    copse_link_desc links[COPSE_ROBOT_MAX_LINKS + 1u];
    copse_joint_desc joints[COPSE_ROBOT_MAX_LINKS];
    copse_sphere spheres[2];
    copse_capsule caps[1];
    copse_link_pair allowed[2];
    copse_robot_desc d;
} desc_kit;

/* A chain of n links (the first with the fixture's mesh), revolute joints. */
static void chain(desc_kit *k, const hz_fix *f, uint32_t n)
{
    uint32_t i;
    memset(k, 0, sizeof *k);
    k->spheres[0].center = copse_v3(0.0f, 0.0f, 0.0f);
    k->spheres[0].radius = 0.3f;
    k->caps[0].segment.b = copse_v3(0.0f, 0.0f, 1.0f);
    k->caps[0].radius = 0.1f;
    for (i = 0; i < n; i++) {
        k->links[i].spheres = k->spheres;
        k->links[i].sphere_count = 1;
        k->links[i].capsules = k->caps;
        k->links[i].capsule_count = 1;
    }
    k->links[0].mesh = &f->mesh;
    for (i = 0; i + 1u < n; i++) {
        k->joints[i].type = COPSE_JOINT_REVOLUTE;
        k->joints[i].parent = i;
        k->joints[i].child = i + 1u;
        k->joints[i].xyz = copse_v3(0.0f, 0.0f, 1.0f);
        k->joints[i].axis = copse_v3(0.0f, 1.0f, 0.0f);
        k->joints[i].lower = -1.0f;
        k->joints[i].upper = 1.0f;
        k->joints[i].mimic = -1;
    }
    k->d.links = k->links;
    k->d.link_count = n;
    k->d.joints = k->joints;
    k->d.joint_count = n > 0u ? n - 1u : 0u;
    k->d.allowed = k->allowed;
    k->d.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
}

/* build_bytes and build agree: both refuse, or the build fits its exact arena and not one byte less. */
static copse_status build_one(const copse_robot_desc *d)
{
    copse_robot r;
    copse_arena a;
    size_t b;
    copse_status st;
    HZ(copse_robot_build_bytes);
    b = copse_robot_build_bytes(d);
    copse_arena_init(&a, hz_buf(b == SIZE_MAX || b > (1u << 22) ? 4096u : b, 0),
                     b == SIZE_MAX || b > (1u << 22) ? 4096u : b);
    memset(&r, 0x5A, sizeof r);
    HZ(copse_robot_build);
    st = copse_robot_build(&r, &a, d);
    HZ_EXPECT(st, ROBOT_STATUS);
    if (b == SIZE_MAX)
        HZ_CHECK(st != COPSE_OK);
    if (st != COPSE_OK) {
        HZ_CHECK(r.link_count == 0u && r.data == NULL && a.used == 0u);
    } else if (b > 0u) {
        copse_arena_init(&a, hz_buf(b - 1u, 0), b - 1u);
        HZ(copse_robot_build);
        HZ_IS(copse_robot_build(&r, &a, d), COPSE_ERR_NOMEM);
        HZ_CHECK(a.used == 0u && a.needed == b);
    }
    hz_guards();
    return st;
}

static desc_kit *g_kit;

static void joint_mutant(void *ctx, const void *m)
{
    desc_kit *k = g_kit;
    const copse_joint_desc saved = k->joints[0];
    (void)ctx;
    memcpy(&k->joints[0].xyz, m, sizeof(copse_vec3) * 3u + 2u * sizeof(float));
    (void)build_one(&k->d);
    k->joints[0] = saved;
}

static void shape_mutant(void *ctx, const void *m)
{
    desc_kit *k = g_kit;
    const copse_sphere s = k->spheres[0];
    const copse_capsule c = k->caps[0];
    (void)ctx;
    memcpy(&k->spheres[0], m, sizeof(copse_sphere));
    memcpy(&k->caps[0], (const uint8_t *)m + sizeof(copse_sphere), sizeof(copse_capsule));
    (void)build_one(&k->d);
    k->spheres[0] = s;
    k->caps[0] = c;
}

static void build_cases(const hz_fix *f)
{
    desc_kit *k = (desc_kit *)malloc(sizeof *k);
    copse_robot r;
    copse_arena a;
    char longname[COPSE_ROBOT_NAME_MAX + 2u];
    uint8_t mut[sizeof(copse_sphere) + sizeof(copse_capsule)];
    unsigned g;
    uint32_t i;
    if (k == NULL)
        abort();
    g_kit = k;
    chain(k, f, 3);
    HZ(copse_robot_build_bytes);
    HZ_CHECK(copse_robot_build_bytes(NULL) == SIZE_MAX);
    copse_arena_init(&a, hz_buf(4096, 0), 4096);
    HZ(copse_robot_build);
    HZ_IS(copse_robot_build(NULL, &a, &k->d), COPSE_ERR_NULL);
    HZ(copse_robot_build);
    HZ_IS(copse_robot_build(&r, NULL, &k->d), COPSE_ERR_NULL);
    HZ(copse_robot_build);
    HZ_IS(copse_robot_build(&r, &a, NULL), COPSE_ERR_NULL);
    hz_guards();
    HZ_IS(build_one(&k->d), COPSE_OK);
    /* counts: no link, the most links and one more, joints too few and too many */
    chain(k, f, 0);
    (void)build_one(&k->d);
    chain(k, f, COPSE_ROBOT_MAX_LINKS);
    HZ_IS(build_one(&k->d), COPSE_OK);
    chain(k, f, COPSE_ROBOT_MAX_LINKS + 1u);
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM) | HZ_S(ERR_TOO_LARGE));
    chain(k, f, 3);
    k->d.joint_count = 1;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM));
    k->d.joint_count = 3;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM) | HZ_S(ERR_INDEX) | HZ_S(ERR_NULL));
    /* NULL arrays with counts, links and joints out of range, cycles, mimic chains */
    chain(k, f, 3);
    k->d.links = NULL;
    HZ_IS(build_one(&k->d), COPSE_ERR_NULL);
    chain(k, f, 3);
    k->d.joints = NULL;
    HZ_IS(build_one(&k->d), COPSE_ERR_NULL);
    chain(k, f, 3);
    k->links[1].spheres = NULL;
    HZ_IS(build_one(&k->d), COPSE_ERR_NULL);
    chain(k, f, 3);
    k->links[1].sphere_count = COPSE_ROBOT_MAX_SHAPES + 1u;
    k->links[1].spheres = NULL;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_NULL) | HZ_S(ERR_PARAM));
    chain(k, f, 3);
    k->joints[1].child = 7;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM) | HZ_S(ERR_INDEX));
    chain(k, f, 3);
    k->joints[1].child = 0; /* a cycle through the root */
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM));
    chain(k, f, 3);
    k->joints[1].parent = 2; /* a self joint */
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM));
    chain(k, f, 3);
    k->joints[1].mimic = 1; /* itself */
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM));
    chain(k, f, 3);
    k->joints[1].mimic = 5;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_PARAM) | HZ_S(ERR_INDEX));
    chain(k, f, 3);
    k->joints[0].type = (copse_joint_type)9;
    HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    chain(k, f, 3);
    k->joints[0].axis = copse_v3(0, 0, 0);
    HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    chain(k, f, 3);
    k->joints[0].lower = 2.0f;
    HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    chain(k, f, 3);
    k->links[2].padding = -1.0f;
    HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    chain(k, f, 3);
    k->d.allowed_count = 2;
    k->allowed[0].a = 0, k->allowed[0].b = 2;
    k->allowed[1].a = 1, k->allowed[1].b = 3;
    HZ_EXPECT(build_one(&k->d), HZ_S(ERR_INDEX) | HZ_S(ERR_PARAM));
    chain(k, f, 3);
    k->d.allowed_count = 1;
    k->d.allowed = NULL;
    HZ_IS(build_one(&k->d), COPSE_ERR_NULL);
    chain(k, f, 3);
    k->d.flags = 0xFFFFFFFFu;
    HZ_EXPECT(build_one(&k->d), HZ_S(OK) | HZ_S(ERR_PARAM));
    /* names: 63 bytes, 64 bytes, duplicates */
    memset(longname, 'n', sizeof longname);
    longname[COPSE_ROBOT_NAME_MAX] = '\0';
    chain(k, f, 3);
    k->links[1].name = longname;
    HZ_IS(build_one(&k->d), COPSE_OK);
    longname[COPSE_ROBOT_NAME_MAX] = 'n';
    longname[COPSE_ROBOT_NAME_MAX + 1u] = '\0';
    HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    k->links[1].name = "";
    (void)build_one(&k->d);
    k->links[1].name = k->links[2].name = "same";
    (void)build_one(&k->d);
    /* the link mesh: the BVH builder's statuses come through */
    chain(k, f, 2);
    {
        copse_mesh bad = f->mesh;
        bad.positions = NULL;
        k->links[0].mesh = &bad;
        HZ_IS(build_one(&k->d), COPSE_ERR_NULL);
        bad = f->mesh;
        bad.vertex_stride = 5;
        k->links[0].mesh = &bad;
        HZ_EXPECT(build_one(&k->d), HZ_S(ERR_ALIGN) | HZ_S(ERR_PARAM));
        k->d.tree_params.leaf_size = 0;
        k->links[0].mesh = &f->mesh;
        HZ_IS(build_one(&k->d), COPSE_ERR_PARAM);
    }
    /* hostile numbers in the joint origin, axis and limits, and in the shapes */
    chain(k, f, 3);
    hz_mutate(&k->joints[0].xyz, sizeof(copse_vec3) * 3u + 2u * sizeof(float), joint_mutant, NULL);
    memcpy(mut, &k->spheres[0], sizeof(copse_sphere));
    memcpy(mut + sizeof(copse_sphere), &k->caps[0], sizeof(copse_capsule));
    hz_mutate(mut, sizeof mut, shape_mutant, NULL);
    for (g = 0; g < HZ_NGARBAGE; g++) { /* garbage numbers everywhere but the pointers and counts */
        chain(k, f, 3);
        for (i = 0; i < 2u; i++) {
            copse_joint_desc *j = &k->joints[i];
            hz_garbage(&j->xyz, sizeof(copse_vec3) * 3u + 2u * sizeof(float), g);
            hz_garbage(&j->type, sizeof j->type, g);
            hz_garbage(&j->mimic, sizeof j->mimic + 2u * sizeof(float), g);
        }
        (void)build_one(&k->d);
    }
    free(k);
}

/* ---- the model's accessors ---------------------------------------------------------------------- */

static void model_cases(const hz_fix *f)
{
    copse_robot zero, view;
    const copse_robot *robots[3];
    copse_bvh tree;
    uint32_t r, i, joint;
    float lo, hi;
    size_t cap;
    memset(&zero, 0, sizeof zero);
    HZ(copse_robot_view);
    HZ_IS(copse_robot_view(&view, f->blob_robot, f->n_robot), COPSE_OK);
    robots[0] = &f->robot, robots[1] = &view, robots[2] = &zero;
    HZ(copse_robot_dof);
    HZ_CHECK(copse_robot_dof(NULL) == 0u);
    HZ(copse_robot_link_name);
    HZ_IS(copse_robot_link_name(NULL, 0, NULL, 0), COPSE_ERR_NULL);
    HZ(copse_robot_link_name);
    HZ_IS(copse_robot_link_name(&f->robot, 0, NULL, 8), COPSE_ERR_NULL);
    HZ(copse_robot_joint_name);
    HZ_IS(copse_robot_joint_name(NULL, 0, NULL, 0), COPSE_ERR_NULL);
    HZ(copse_robot_find_link);
    HZ_CHECK(copse_robot_find_link(NULL, "base") == COPSE_NONE);
    HZ(copse_robot_find_link);
    HZ_CHECK(copse_robot_find_link(&f->robot, NULL) == COPSE_NONE);
    HZ(copse_robot_find_joint);
    HZ_CHECK(copse_robot_find_joint(&f->robot, NULL) == COPSE_NONE);
    HZ(copse_robot_link_tree);
    HZ_IS(copse_robot_link_tree(NULL, 0, &tree), COPSE_ERR_NULL);
    HZ(copse_robot_link_tree);
    HZ_IS(copse_robot_link_tree(&f->robot, 0, NULL), COPSE_ERR_NULL);
    HZ(copse_robot_link_spheres);
    HZ_CHECK(copse_robot_link_spheres(NULL, 0, NULL, 0) == 0u);
    HZ(copse_robot_link_spheres);
    (void)copse_robot_link_spheres(&f->robot, 0, NULL, 4); /* NULL storage: a count, nothing written */
    HZ(copse_robot_link_capsules);
    (void)copse_robot_link_capsules(&f->robot, 1, NULL, 4);
    HZ(copse_robot_variable);
    HZ_IS(copse_robot_variable(NULL, 0, &joint, &lo, &hi), COPSE_ERR_NULL);
    HZ(copse_robot_variable);
    HZ_EXPECT(copse_robot_variable(&f->robot, 0, NULL, NULL, NULL), HZ_S(OK) | HZ_S(ERR_NULL));
    {
        copse_robot_link_info li;
        copse_robot_joint_info ji;
        memset(&li, 0xCD, sizeof li);
        HZ(copse_robot_link_info_get);
        HZ_IS(copse_robot_link_info_get(NULL, 0, &li), COPSE_ERR_NULL);
        HZ_CHECK(li.parent_joint == COPSE_NONE && li.padding == 0.0f && !li.shapes_bound); /* emptied */
        HZ(copse_robot_link_info_get);
        HZ_IS(copse_robot_link_info_get(&f->robot, 0, NULL), COPSE_ERR_NULL);
        memset(&ji, 0xCD, sizeof ji);
        HZ(copse_robot_joint_info_get);
        HZ_IS(copse_robot_joint_info_get(NULL, 0, &ji), COPSE_ERR_NULL);
        HZ_CHECK(ji.parent == COPSE_NONE && ji.child == COPSE_NONE && ji.variable == COPSE_NONE && ji.mimic == COPSE_NONE);
        HZ(copse_robot_joint_info_get);
        HZ_IS(copse_robot_joint_info_get(&f->robot, 0, NULL), COPSE_ERR_NULL);
    }
    HZ(copse_robot_allowed);
    HZ_CHECK(!copse_robot_allowed(NULL, 0, 1));
    HZ(copse_robot_allow);
    HZ_IS(copse_robot_allow(NULL, 0, 1, true), COPSE_ERR_NULL);
    for (r = 0; r < 3u; r++) {
        const copse_robot *rb = robots[r];
        HZ(copse_robot_dof);
        HZ_CHECK(copse_robot_dof(rb) == rb->dof);
        for (i = 0; i <= rb->link_count + 1u; i++) {
            for (cap = 0; cap <= 6u; cap++) { /* "base" and "arm": too short, exact, more */
                char *buf = (char *)hz_buf(cap, 0);
                copse_status st;
                HZ(copse_robot_link_name);
                st = copse_robot_link_name(rb, i, buf, cap);
                HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_INDEX) | HZ_S(ERR_NOMEM) | HZ_S(ERR_NULL));
                if (st == COPSE_OK) {
                    HZ_CHECK(memchr(buf, '\0', cap) != NULL);
                    HZ(copse_robot_find_link);
                    HZ_CHECK(buf[0] == '\0' || copse_robot_find_link(rb, buf) == i);
                }
                if (i >= rb->link_count)
                    HZ_CHECK(st != COPSE_OK);
                buf = (char *)hz_buf(cap, 1);
                HZ(copse_robot_joint_name);
                st = copse_robot_joint_name(rb, i, buf, cap);
                HZ_EXPECT(st, HZ_S(OK) | HZ_S(ERR_INDEX) | HZ_S(ERR_NOMEM) | HZ_S(ERR_NULL));
                if (i >= rb->joint_count)
                    HZ_CHECK(st != COPSE_OK);
            }
            {
                copse_sphere *sp = (copse_sphere *)hz_buf(sizeof(copse_sphere) * 2u, 0);
                copse_capsule *cp = (copse_capsule *)hz_buf(sizeof(copse_capsule) * 2u, 0);
                uint32_t c;
                for (c = 0; c <= 2u; c++) {
                    HZ(copse_robot_link_spheres);
                    (void)copse_robot_link_spheres(rb, i, sp, c);
                    HZ(copse_robot_link_capsules);
                    (void)copse_robot_link_capsules(rb, i, cp, c);
                }
                HZ(copse_robot_link_tree);
                HZ_EXPECT(copse_robot_link_tree(rb, i, &tree), HZ_S(OK) | HZ_S(ERR_INDEX));
            }
            for (joint = 0; joint <= rb->link_count + 1u; joint++) {
                HZ(copse_robot_allowed);
                (void)copse_robot_allowed(rb, i, joint);
            }
            {
                copse_robot_link_info *li = (copse_robot_link_info *)hz_buf(sizeof *li, 0);
                copse_robot_joint_info *ji = (copse_robot_joint_info *)hz_buf(sizeof *ji, 0);
                copse_status st;
                HZ(copse_robot_link_info_get);
                st = copse_robot_link_info_get(rb, i, li);
                HZ_IS(st, i < rb->link_count ? COPSE_OK : COPSE_ERR_INDEX);
                HZ_CHECK(st != COPSE_OK ? li->parent_joint == COPSE_NONE
                                        : li->parent_joint == COPSE_NONE || li->parent_joint < rb->joint_count);
                HZ(copse_robot_joint_info_get);
                st = copse_robot_joint_info_get(rb, i, ji);
                HZ_IS(st, i < rb->joint_count ? COPSE_OK : COPSE_ERR_INDEX);
                HZ_CHECK(st != COPSE_OK ? ji->child == COPSE_NONE
                                        : ji->child < rb->link_count && ji->parent < rb->link_count &&
                                              (ji->variable == COPSE_NONE || ji->variable < rb->dof));
            }
            hz_guards();
        }
        HZ(copse_robot_find_link);
        HZ_CHECK(copse_robot_find_link(rb, "") == COPSE_NONE || rb->link_count > 0u);
        HZ(copse_robot_find_joint);
        HZ_CHECK(copse_robot_find_joint(rb, "no such joint") == COPSE_NONE);
        for (i = 0; i <= rb->dof + 1u; i++) {
            copse_status st;
            HZ(copse_robot_variable);
            st = copse_robot_variable(rb, i, &joint, &lo, &hi);
            HZ_IS(st, i < rb->dof ? COPSE_OK : COPSE_ERR_INDEX);
        }
        HZ(copse_robot_variable);
        HZ_IS(copse_robot_variable(rb, 0xFFFFFFFFu, &joint, &lo, &hi), COPSE_ERR_INDEX);
    }
    /* allow: out of range, on a view, on a built copy */
    {
        copse_robot copy = f->robot;
        uint32_t *acm = (uint32_t *)malloc(4u * copy.link_count * copy.acm_words + 4u);
        if (acm == NULL)
            abort();
        HZ(copse_robot_allow);
        HZ_IS(copse_robot_allow(&view, 0, 1, true), COPSE_ERR_READ_ONLY);
        HZ(copse_robot_allow);
        HZ_EXPECT(copse_robot_allow(&zero, 0, 1, true), HZ_S(ERR_INDEX) | HZ_S(ERR_READ_ONLY) | HZ_S(ERR_PARAM));
        HZ(copse_robot_allow);
        HZ_IS(copse_robot_allow(&copy, 0, copy.link_count, true), COPSE_ERR_INDEX);
        HZ(copse_robot_allow);
        HZ_IS(copse_robot_allow(&copy, 0xFFFFFFFFu, 0, true), COPSE_ERR_INDEX);
        free(acm);
    }
}

/* ---- forward kinematics, checks, motions --------------------------------------------------------- */

static const hz_fix *g_f;

static void checks_at(const copse_robot *r, const copse_world *w, const copse_pose *poses, uint32_t flags)
{
    copse_robot_contact first, *list = (copse_robot_contact *)hz_buf(sizeof(copse_robot_contact) * 4u, 0);
    copse_link_distance *per = (copse_link_distance *)hz_buf(sizeof(copse_link_distance) * r->link_count, 0);
    uint32_t count = 99, i;
    bool truncated = true;
    copse_status a, b, c;
    memset(&first, 0x5A, sizeof first);
    HZ(copse_robot_collides);
    a = copse_robot_collides(r, w, poses, flags, &first);
    HZ_EXPECT(a, ROBOT_STATUS);
    HZ(copse_robot_contacts);
    b = copse_robot_contacts(r, w, poses, flags, list, 4, &count, &truncated);
    HZ(copse_robot_distances);
    c = copse_robot_distances(r, w, poses, flags, FLT_MAX, per);
    CHECKF(a == b && b == c, "robot checks: collides %s, contacts %s, distances %s", copse_status_str(a),
           copse_status_str(b), copse_status_str(c));
    if (a != COPSE_OK)
        HZ_CHECK(first.kind == COPSE_CONTACT_NONE && count == 0u && !truncated);
    else
        HZ_CHECK((first.kind != COPSE_CONTACT_NONE) == (count > 0u || truncated) && count <= 4u);
    for (i = 0; i < r->link_count; i++)
        HZ_CHECK(c == COPSE_OK || (per[i].world == FLT_MAX && per[i].self == FLT_MAX));
    hz_guards();
}

static void pose_mutant(void *ctx, const void *m)
{
    copse_pose poses[2];
    (void)ctx;
    poses[0] = copse_pose_identity();
    memcpy(&poses[1], m, sizeof(copse_pose));
    checks_at(&g_f->robot, &g_f->world, poses, COPSE_ROBOT_CHECK_DEFAULT);
}

static void object_mutant(void *ctx, const void *m)
{
    copse_world w = g_f->world;
    copse_world_object obj[2];
    copse_pose poses[2];
    (void)ctx;
    obj[0] = g_f->objects[0];
    obj[1] = g_f->objects[1];
    memcpy(&obj[0].box, m, sizeof(copse_obb));
    w.objects = obj;
    poses[0] = copse_pose_identity();
    poses[1] = copse_pose_translation(copse_v3(0.0f, 1.0f, 0.0f));
    checks_at(&g_f->robot, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
}

static void q_mutant(void *ctx, const void *m)
{
    float q[2];
    copse_pose poses[2 + 1];
    copse_robot_contact c;
    float frac;
    copse_status st;
    (void)ctx;
    memcpy(q, m, sizeof q);
    memset(poses, 0x5A, sizeof poses);
    HZ(copse_robot_fk);
    st = copse_robot_fk(&g_f->robot, q, NULL, poses);
    HZ_EXPECT(st, ROBOT_STATUS);
    if (st == COPSE_OK)
        checks_at(&g_f->robot, &g_f->world, poses, COPSE_ROBOT_CHECK_DEFAULT);
    HZ_CHECK(((const uint8_t *)&poses[2])[0] == 0x5Au); /* link_count poses, not one more */
    HZ(copse_robot_motion);
    st = copse_robot_motion(&g_f->robot, &g_f->world, &q[0], &q[1], NULL, poses, 0.5f, COPSE_ROBOT_CHECK_DEFAULT,
                            &frac, &c);
    HZ_EXPECT(st, ROBOT_STATUS);
    HZ_CHECK(frac >= 0.0f && frac <= 1.0f && (st == COPSE_OK || c.kind == COPSE_CONTACT_NONE));
    HZ(copse_robot_motion_continuous);
    st = copse_robot_motion_continuous(&g_f->robot, &g_f->world, &q[0], &q[1], NULL, poses, 0.05f, 8,
                                       COPSE_ROBOT_CHECK_DEFAULT, &frac, &c);
    HZ_EXPECT(st, ROBOT_STATUS);
    HZ_CHECK(frac >= 0.0f && frac <= 1.0f && (st == COPSE_OK || c.kind == COPSE_CONTACT_NONE));
}

static void check_cases(const hz_fix *f)
{
    const copse_robot *r = &f->robot;
    copse_pose poses[2], base;
    copse_robot_contact c, list[2];
    copse_link_distance per[2];
    copse_world w;
    copse_bvh zero;
    uint32_t count, flags;
    bool trunc;
    float q[2] = {0.1f, -0.2f}, frac;
    g_f = f;
    memset(&zero, 0, sizeof zero);
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(NULL, q, NULL, poses), COPSE_ERR_NULL);
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, NULL, NULL, poses), COPSE_ERR_NULL);
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, q, NULL, NULL), COPSE_ERR_NULL);
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, q, NULL, poses), COPSE_OK);
    base = copse_pose_identity();
    base.rotation[0][0] = 2.0f;
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, q, &base, poses), COPSE_ERR_PARAM);
    q[0] = 3.0f + 1e-3f; /* past the upper limit by more than the relative 1e-6 */
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, q, NULL, poses), COPSE_ERR_PARAM);
    q[0] = 0.1f;
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(r, q, NULL, poses), COPSE_OK);
    /* the checks: NULLs, flags, world parts missing, every flag combination */
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(r, &f->world, poses, COPSE_ROBOT_CHECK_DEFAULT, NULL), COPSE_ERR_NULL);
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(NULL, &f->world, poses, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(r, NULL, poses, COPSE_ROBOT_WORLD, &c), COPSE_ERR_NULL);
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(r, NULL, poses, COPSE_ROBOT_SELF, &c), COPSE_OK); /* no world needed */
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(r, &f->world, NULL, COPSE_ROBOT_CHECK_DEFAULT, &c), COPSE_ERR_NULL);
    HZ(copse_robot_collides);
    HZ_IS(copse_robot_collides(r, &f->world, poses, 8u, &c), COPSE_ERR_PARAM);
    HZ(copse_robot_contacts);
    HZ_IS(copse_robot_contacts(r, &f->world, poses, 0, NULL, 2, &count, &trunc), COPSE_ERR_NULL);
    HZ(copse_robot_contacts);
    HZ_IS(copse_robot_contacts(r, &f->world, poses, 0, list, 2, NULL, &trunc), COPSE_ERR_NULL);
    HZ(copse_robot_contacts);
    HZ_IS(copse_robot_contacts(r, &f->world, poses, 0, list, 2, &count, NULL), COPSE_ERR_NULL);
    HZ(copse_robot_contacts);
    HZ_IS(copse_robot_contacts(r, &f->world, poses, COPSE_ROBOT_CHECK_DEFAULT, NULL, 0, &count, &trunc), COPSE_OK);
    HZ(copse_robot_distances);
    HZ_IS(copse_robot_distances(r, &f->world, poses, 0, 1.0f, NULL), COPSE_ERR_NULL);
    HZ(copse_robot_distances);
    HZ_IS(copse_robot_distances(r, &f->world, poses, 0, -1.0f, per), COPSE_ERR_PARAM);
    HZ(copse_robot_distances);
    HZ_IS(copse_robot_distances(r, &f->world, poses, 0, NAN, per), COPSE_ERR_PARAM);
    for (flags = 0; flags < 16u; flags++)
        checks_at(r, &f->world, poses, flags);
    w = f->world;
    w.meshes = NULL;
    checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    w = f->world;
    w.objects = NULL;
    checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    w = f->world;
    w.scan_padding = -1.0f;
    checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    w.scan_padding = INFINITY;
    checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    w = f->world;
    {
        copse_world_mesh wm = f->wmesh;
        wm.tree = &zero; /* an empty world mesh: nothing to touch */
        w.meshes = &wm;
        checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
        wm.tree = &f->mesh2;
        checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
        wm.tree = NULL;
        checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
        wm.tree = &f->boxes3;
        checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    }
    w = f->world;
    w.object_tree = &f->loose; /* ids past the two objects: INDEX */
    checks_at(r, &w, poses, COPSE_ROBOT_CHECK_DEFAULT);
    /* hostile numbers: a link pose, an object's box, q */
    hz_mutate(&poses[1], sizeof poses[1], pose_mutant, NULL);
    hz_mutate(&f->objects[0].box, sizeof f->objects[0].box, object_mutant, NULL);
    hz_mutate(q, sizeof q, q_mutant, NULL);
    /* motions: NULLs, steps, checks, limits */
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, &q[0], &q[1], NULL, poses, 0.1f, 0, NULL, &c), COPSE_ERR_NULL);
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, NULL, &q[1], NULL, poses, 0.1f, 0, &frac, &c), COPSE_ERR_NULL);
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, &q[0], &q[1], NULL, NULL, 0.1f, 0, &frac, &c), COPSE_ERR_NULL);
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, &q[0], &q[1], NULL, poses, 0.0f, 0, &frac, &c), COPSE_ERR_PARAM);
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, &q[0], &q[1], NULL, poses, 1e-9f, 0, &frac, &c), COPSE_ERR_PARAM);
    HZ(copse_robot_motion);
    HZ_IS(copse_robot_motion(r, &f->world, &q[0], &q[1], NULL, poses, 0.1f, 99u, &frac, &c), COPSE_ERR_PARAM);
    HZ(copse_robot_motion_continuous);
    HZ_IS(copse_robot_motion_continuous(r, &f->world, &q[0], &q[1], NULL, poses, 0.05f, 0, 0, &frac, &c),
          COPSE_ERR_PARAM);
    HZ(copse_robot_motion_continuous);
    HZ_IS(copse_robot_motion_continuous(r, &f->world, &q[0], &q[1], NULL, poses, 0.0f, 8, 0, &frac, &c),
          COPSE_ERR_PARAM);
    HZ(copse_robot_motion_continuous);
    HZ_IS(copse_robot_motion_continuous(r, &f->world, &q[0], &q[1], NULL, poses, 0.05f, 8, 0, NULL, &c),
          COPSE_ERR_NULL);
    HZ(copse_robot_motion_continuous);
    HZ_EXPECT(copse_robot_motion_continuous(r, &f->world, &q[0], &q[1], NULL, poses, 1e-6f, 1, COPSE_ROBOT_SELF,
                                            &frac, &c),
              HZ_S(OK) | HZ_S(ERR_LIMIT));
}

/* ---- blobs --------------------------------------------------------------------------------------------- */

HZ_BLOB_OPS(copse_robot, robot, x->link_count == 0u && x->data == NULL)

static void blob_cases(const hz_fix *f)
{
    hz_blob_family(&ops_robot, &f->robot, f->blob_robot, f->n_robot, f->blob_bvh, f->n_bvh);
}

HZ_TEST("robot/build", build_cases)
HZ_TEST("robot/model", model_cases)
HZ_TEST("robot/checks", check_cases)
HZ_TEST("robot/blob", blob_cases)

void hz_robot(void)
{
    HZ_RUN("robot/build", build_cases);
    HZ_RUN("robot/model", model_cases);
    HZ_RUN("robot/checks", check_cases);
    HZ_RUN("robot/blob", blob_cases);
}

/* ---- the deepest calls, for the small-stack thread -------------------------------------------------- */

void hz_deep_calls(void)
{
    const hz_fix *f = hz_fixture();
    copse_distance d;
    copse_pair w;
    copse_hit hit;
    copse_nearest3 n3;
    copse_bsp3_trace tr;
    copse_bsp3_where wh;
    copse_neighbor nb[8];
    copse_neighbor_list nl = copse_neighbor_list_make(nb, 8);
    copse_link_distance per[2];
    copse_robot_contact c;
    copse_pose poses[2];
    const copse_ray3 ray = {{0.5f, 0.5f, 0.5f}, {1.0f, 0.0f, 0.0f}, FLT_MAX};
    const copse_segment3 seg = {{-5.0f, 0.01f, 0.3f}, {5.0f, -0.01f, 0.2f}};
    const copse_capsule cap = {{{0.5f, 0.5f, 0.5f}, {1e30f, 0.5f, 0.5f}}, 0.5f};
    float q[2] = {0.2f, -0.1f}, q1[2] = {-0.5f, 0.4f}, frac;
    HZ_CHECK(f->deep.depth >= 40u); /* the builder's chain: the walks' stacks are used */
    HZ(copse_bvh_raycast);
    HZ_IS(copse_bvh_raycast(&f->deep, &ray, &hit), COPSE_OK);
    HZ(copse_bvh_nearest);
    HZ_IS(copse_bvh_nearest(&f->deep, copse_v3(3e30f, 0, 0), FLT_MAX, &n3), COPSE_OK);
    HZ(copse_distance_capsule_bvh);
    HZ_IS(copse_distance_capsule_bvh(&cap, NULL, &f->mesh3, NULL, &d), COPSE_OK);
    HZ(copse_distance_bvh_bvh);
    HZ_IS(copse_distance_bvh_bvh(&f->mesh3, NULL, &f->mesh3, NULL, &d), COPSE_OK);
    HZ(copse_bvh_any_bvh);
    HZ_IS(copse_bvh_any_bvh(&f->mesh3, &f->mesh3, NULL, &w, NULL), COPSE_OK);
    HZ(copse_distance_bvh_octree);
    HZ_IS(copse_distance_bvh_octree(&f->mesh3, NULL, &f->oct, NULL, &d), COPSE_OK);
    HZ(copse_octree_knn);
    HZ_IS(copse_octree_knn(&f->oct, copse_v3(0, 0, 0), FLT_MAX, &nl), COPSE_OK);
    HZ(copse_sweep_sphere_bsp3);
    HZ_IS(copse_sweep_sphere_bsp3(&seg, 0.05f, &f->deep3, &tr), COPSE_OK);
    HZ(copse_bsp3_contents);
    HZ_IS(copse_bsp3_contents(&f->deep3, copse_v3(0.01f, 0.0f, 0.0f), &wh), COPSE_OK);
    HZ(copse_robot_fk);
    HZ_IS(copse_robot_fk(&f->robot, q, NULL, poses), COPSE_OK);
    HZ(copse_robot_distances);
    HZ_IS(copse_robot_distances(&f->robot, &f->world, poses, COPSE_ROBOT_CHECK_DEFAULT, FLT_MAX, per), COPSE_OK);
    HZ(copse_robot_motion_continuous);
    HZ_EXPECT(copse_robot_motion_continuous(&f->robot, &f->world, q, q1, NULL, poses, 0.01f, 64,
                                            COPSE_ROBOT_CHECK_DEFAULT, &frac, &c),
              HZ_S(OK) | HZ_S(ERR_LIMIT));
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target: robot.h. The input describes a small robot (1..4 links with meshes of 1..3
 * triangles, spheres and capsules, paddings; joints of every type with origins, axes, limits,
 * mimics; allowed pairs): copse_robot_build into an exact arena either refuses it with a status
 * robot.h lists (and copse_robot_build_bytes refused it too, or the refusal is the mesh
 * builder's) or builds it; a built robot is saved into an exact buffer and must view back.
 * Then the saved blob is mutated by the input (bytes xor-ed at chosen offsets, the CRC mostly
 * re-sealed so the checks behind it are reached, sometimes cut short) and viewed: the view
 * fails with a status and an empty robot, or the viewed robot goes through every query:
 * names into exact buffers, link parts with guard slots, variables, fk from fuzzed q (grid,
 * NaN, inf, huge) and base pose, collides / contacts / distances against a fixed small world,
 * and both motions. Properties: statuses from the documented lists; on error outputs are empty
 * (fk: identity poses; contacts: none; distances: FLT_MAX); capacities respected; collides
 * finds a contact exactly when contacts lists one; a motion's fraction is in [0, 1] and 1
 * exactly when it is clear. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_LINKS 4u
#define GUARD 4u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool robot_status(copse_status st)
{
    return st == COPSE_ERR_NULL || st == COPSE_ERR_PARAM || st == COPSE_ERR_NONFINITE || st == COPSE_ERR_INDEX ||
           st == COPSE_ERR_NOMEM || st == COPSE_ERR_DEGENERATE || st == COPSE_ERR_TOO_LARGE ||
           st == COPSE_ERR_TOO_DEEP || st == COPSE_ERR_EMPTY_RANGE || st == COPSE_ERR_KIND ||
           st == COPSE_ERR_DIMENSION || st == COPSE_ERR_LIMIT;
}

static void check_status(copse_status st, const char *what)
{
    FUZZ_ASSERT(st == COPSE_OK || robot_status(st), "%s: %s", what, copse_status_str(st));
}

/* A robot's length: grid values scaled to the world's metre, sometimes any bits. */
static float len(fuzz_reader *r)
{
    return (fuzz_u8(r) & 31u) == 31u ? fuzz_float(r) : fuzz_coord(r) * (1.0f / 32.0f);
}

static copse_vec3 vec(fuzz_reader *r)
{
    copse_vec3 v;
    v.x = len(r);
    v.y = len(r);
    v.z = len(r);
    return v;
}

/* ---- the world: fixed, built once ----------------------------------------------------------- */

static struct {
    bool ready;
    float tri[18];
    uint8_t bvh_mem[4096] __attribute__((aligned(16)));
    copse_bvh bvh;
    copse_world_mesh mesh;
    copse_vec3 pts[6];
    uint8_t oct_mem[4096] __attribute__((aligned(16)));
    uint8_t scratch[2048] __attribute__((aligned(16)));
    copse_octree scan;
    copse_world_object objects[2];
    uint8_t loose_mem[2048] __attribute__((aligned(16)));
    copse_loose loose;
    copse_world world;
} W;

static void world_init(void)
{
    static const float tri[18] = {-1, -1, 0, 1, -1, 0, -1, 1, 0, 0.5f, 0.2f, 0.3f, 0.5f, 0.9f, 0.3f, 0.5f, 0.2f, 1.0f};
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_mesh mesh;
    copse_arena arena;
    copse_octree_config oc;
    copse_loose_config lc;
    uint32_t i;
    if (W.ready)
        return;
    memcpy(W.tri, tri, sizeof tri);
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = W.tri;
    mesh.vertex_count = 6u;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.triangle_count = 2u;
    copse_arena_init(&arena, W.bvh_mem, sizeof W.bvh_mem);
    if (copse_bvh_build_mesh(&W.bvh, &arena, &mesh, &params) != COPSE_OK)
        abort();
    W.mesh.tree = &W.bvh;
    W.mesh.pose = copse_pose_translation(copse_v3(0.0f, 0.0f, -0.25f));
    for (i = 0; i < 6u; i++)
        W.pts[i] = copse_v3(-0.6f + 0.25f * (float)i, 0.1f * (float)(i % 3u), 0.2f + 0.15f * (float)(i % 2u));
    memset(&oc, 0, sizeof oc);
    oc.points = W.pts;
    oc.point_capacity = 6u;
    oc.bounds = copse_box3_make(-1, -1, -1, 1, 1, 1);
    oc.max_nodes = 16u;
    oc.max_buckets = 16u;
    oc.leaf_size = 2u;
    oc.bucket_size = 2u;
    oc.max_depth = 4u;
    copse_arena_init(&arena, W.oct_mem, sizeof W.oct_mem);
    if (copse_octree_init(&W.scan, &arena, &oc) != COPSE_OK)
        abort();
    copse_arena_init(&arena, W.scratch, sizeof W.scratch);
    if (copse_octree_build(&W.scan, &arena, 6u) != COPSE_OK)
        abort();
    memset(W.objects, 0, sizeof W.objects);
    W.objects[0].kind = COPSE_OBJECT_BOX;
    W.objects[0].box.center = copse_v3(0.3f, -0.4f, 0.5f);
    W.objects[0].box.half = copse_v3(0.1f, 0.05f, 0.2f);
    {
        const copse_pose id = copse_pose_identity();
        memcpy(W.objects[0].box.rotation, id.rotation, sizeof id.rotation);
    }
    W.objects[1].kind = COPSE_OBJECT_SPHERE;
    W.objects[1].sphere.center = copse_v3(-0.3f, 0.4f, 0.6f);
    W.objects[1].sphere.radius = 0.1f;
    memset(&lc, 0, sizeof lc);
    lc.world = copse_box3_make(-1, -1, -1, 1, 1, 1);
    lc.max_nodes = 8u;
    lc.max_objects = 2u;
    lc.max_depth = 3u;
    lc.node_capacity = 1u;
    copse_arena_init(&arena, W.loose_mem, sizeof W.loose_mem);
    if (copse_loose_init(&W.loose, &arena, &lc) != COPSE_OK)
        abort();
    {
        copse_box3 b0 = copse_box3_make(0.1f, -0.5f, 0.2f, 0.5f, -0.3f, 0.8f);
        copse_box3 b1 = copse_box3_make(-0.4f, 0.3f, 0.5f, -0.2f, 0.5f, 0.7f);
        if (copse_loose_insert(&W.loose, 0, &b0) != COPSE_OK || copse_loose_insert(&W.loose, 1, &b1) != COPSE_OK)
            abort();
    }
    memset(&W.world, 0, sizeof W.world);
    W.world.meshes = &W.mesh;
    W.world.mesh_count = 1u;
    W.world.scan = &W.scan;
    W.world.scan_padding = 0.01f;
    W.world.objects = W.objects;
    W.world.object_count = 2u;
    W.world.object_tree = &W.loose;
    W.ready = true;
}

/* ---- the description ------------------------------------------------------------------------ */

typedef struct desc_store {
    copse_link_desc links[MAX_LINKS];
    copse_joint_desc joints[MAX_LINKS];
    copse_mesh meshes[MAX_LINKS];
    float tri[MAX_LINKS][27];
    copse_sphere spheres[MAX_LINKS][2];
    copse_capsule capsules[MAX_LINKS][1];
    copse_link_pair allowed[2];
    copse_robot_desc desc;
} desc_store;

static const char *const g_names[4] = {NULL, "base", "a_link_name", "dup"};

static void describe(desc_store *d, fuzz_reader *r)
{
    const uint32_t head = fuzz_u8(r);
    const uint32_t links = 1u + (head & 3u);
    uint32_t i, k;
    memset(d, 0, sizeof *d);
    for (i = 0; i < links; i++) {
        copse_link_desc *l = &d->links[i];
        const uint32_t f = fuzz_u8(r);
        l->name = g_names[(f >> 6) & 3u];
        if (f & 1u) {
            const uint32_t nt = 1u + ((f >> 1) & 1u) + ((f >> 2) & 1u);
            for (k = 0; k < 9u * nt; k++)
                d->tri[i][k] = len(r);
            d->meshes[i].positions = d->tri[i];
            d->meshes[i].vertex_count = 3u * nt;
            d->meshes[i].index_type = COPSE_MESH_INDEX_NONE;
            d->meshes[i].triangle_count = nt;
            l->mesh = &d->meshes[i];
        }
        l->sphere_count = (f >> 3) & 1u ? 1u + ((f >> 4) & 1u) : 0u;
        for (k = 0; k < l->sphere_count; k++) {
            d->spheres[i][k].center = vec(r);
            d->spheres[i][k].radius = len(r);
        }
        l->spheres = l->sphere_count ? d->spheres[i] : NULL;
        l->capsule_count = (f >> 5) & 1u;
        if (l->capsule_count) {
            d->capsules[i][0].segment.a = vec(r);
            d->capsules[i][0].segment.b = vec(r);
            d->capsules[i][0].radius = len(r);
            l->capsules = d->capsules[i];
        }
        l->padding = (f & 0xC0u) == 0xC0u ? len(r) : 0.0f;
    }
    for (i = 0; i + 1u < links; i++) {
        copse_joint_desc *j = &d->joints[i];
        const uint32_t f = fuzz_u8(r);
        j->name = g_names[(f >> 6) & 3u];
        j->type = (copse_joint_type)(f & 3u);
        j->parent = (f >> 2) & 1u ? (fuzz_u8(r) % (links + 1u)) : i; /* sometimes a bad or cyclic parent */
        j->child = (f >> 3) & 1u ? (fuzz_u8(r) % (links + 1u)) : i + 1u;
        j->xyz = vec(r);
        j->rpy = (f >> 4) & 1u ? vec(r) : copse_v3(0.0f, 0.0f, 0.0f);
        j->axis = vec(r);
        j->lower = len(r) * 8.0f;
        j->upper = (f >> 5) & 1u ? len(r) * 8.0f : j->lower + 2.0f;
        j->mimic = -1;
        if ((f & 0xC0u) == 0xC0u) {
            j->mimic = (int32_t)(fuzz_u8(r) % (i + 2u)) - 1;
            j->multiplier = len(r);
            j->offset = len(r);
        }
    }
    d->desc.links = d->links;
    d->desc.link_count = links;
    d->desc.joints = d->joints;
    d->desc.joint_count = links - 1u;
    if ((head >> 2) & 1u)
        d->desc.joint_count = fuzz_u8(r) % (links + 1u); /* too few or too many */
    d->desc.allowed_count = (head >> 3) & 3u;
    if (d->desc.allowed_count > 2u)
        d->desc.allowed_count = 2u;
    for (i = 0; i < d->desc.allowed_count; i++) {
        d->allowed[i].a = fuzz_u8(r) % (links + 1u);
        d->allowed[i].b = fuzz_u8(r) % (links + 1u);
    }
    d->desc.allowed = d->allowed;
    d->desc.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    d->desc.tree_params.leaf_size = 1u + ((head >> 5) & 1u);
    d->desc.flags = (head >> 6) & 1u ? COPSE_ROBOT_CHECK_ADJACENT : 0u;
}

/* ---- queries on a robot --------------------------------------------------------------------- */

static void contact_ok(const copse_robot *robot, const copse_robot_contact *c, const char *what)
{
    FUZZ_ASSERT(c->kind <= COPSE_CONTACT_OBJECT, "%s: kind %u", what, (unsigned)c->kind);
    if (c->kind != COPSE_CONTACT_NONE)
        FUZZ_ASSERT(c->link < robot->link_count, "%s: link %u of %u", what, (unsigned)c->link,
                    (unsigned)robot->link_count);
    if (c->kind == COPSE_CONTACT_SELF)
        FUZZ_ASSERT(c->other < robot->link_count && c->other != c->link, "%s: self %u-%u", what, (unsigned)c->link,
                    (unsigned)c->other);
}

static void names(const copse_robot *robot, fuzz_reader *r)
{
    const size_t cap = fuzz_u8(r) % 80u;
    char *buf = (char *)malloc(cap + 1u);
    uint32_t i;
    copse_status st;
    if (buf == NULL)
        abort();
    for (i = 0; i <= robot->link_count + robot->joint_count; i++) {
        const bool link = i < robot->link_count + 1u;
        const uint32_t at = link ? i : i - robot->link_count - 1u;
        memset(buf, 0x5A, cap + 1u);
        st = link ? copse_robot_link_name(robot, at, buf, cap) : copse_robot_joint_name(robot, at, buf, cap);
        FUZZ_ASSERT(st == COPSE_OK || st == COPSE_ERR_INDEX || st == COPSE_ERR_NOMEM || st == COPSE_ERR_NULL,
                    "name: %s", copse_status_str(st));
        FUZZ_ASSERT((unsigned char)buf[cap] == 0x5Au, "name written past cap %zu", cap);
        if (st == COPSE_OK) {
            FUZZ_ASSERT(fuzz_text_len(buf, cap) < cap, "name not terminated within %zu", cap);
            (void)(link ? copse_robot_find_link(robot, buf) : copse_robot_find_joint(robot, buf));
        }
        if (link && at == robot->link_count)
            FUZZ_ASSERT(st != COPSE_OK, "name of link %u of %u", (unsigned)at, (unsigned)robot->link_count);
    }
    free(buf);
}

static void parts(const copse_robot *robot, fuzz_reader *r)
{
    const uint32_t cap = fuzz_u8(r) % 4u;
    copse_sphere sp[3 + GUARD];
    copse_capsule ca[3 + GUARD];
    uint32_t i, n, g;
    for (i = 0; i <= robot->link_count; i++) {
        copse_bvh tree;
        copse_status st = copse_robot_link_tree(robot, i, &tree);
        check_status(st, "link_tree");
        if (st == COPSE_OK && tree.node_count > 0u)
            FUZZ_ASSERT(copse_bvh_check(&tree) == COPSE_OK, "link %u's tree fails its check", (unsigned)i);
        memset(sp, 0x5A, sizeof sp);
        memset(ca, 0x5A, sizeof ca);
        n = copse_robot_link_spheres(robot, i, sp, cap);
        (void)n;
        n = copse_robot_link_capsules(robot, i, ca, cap);
        (void)n;
        for (g = cap; g < 3u + GUARD; g++) {
            const uint8_t *a = (const uint8_t *)&sp[g], *b = (const uint8_t *)&ca[g];
            size_t k;
            for (k = 0; k < sizeof sp[0]; k++)
                FUZZ_ASSERT(a[k] == 0x5Au, "link_spheres wrote past capacity %u", (unsigned)cap);
            for (k = 0; k < sizeof ca[0]; k++)
                FUZZ_ASSERT(b[k] == 0x5Au, "link_capsules wrote past capacity %u", (unsigned)cap);
        }
    }
    for (i = 0; i <= robot->dof; i++) {
        uint32_t joint = 0;
        float lo = 0.0f, hi = 0.0f;
        copse_status st = copse_robot_variable(robot, i, &joint, &lo, &hi);
        check_status(st, "variable");
        if (st == COPSE_OK)
            FUZZ_ASSERT(joint < robot->joint_count && !(lo > hi), "variable %u: joint %u, [%g, %g]", (unsigned)i,
                        (unsigned)joint, (double)lo, (double)hi);
        if (i == robot->dof)
            FUZZ_ASSERT(st != COPSE_OK, "variable %u of %u", (unsigned)i, (unsigned)robot->dof);
    }
}

/* q: inside the limits mostly, else any value. */
static void config_of(const copse_robot *robot, fuzz_reader *r, float *q)
{
    uint32_t i;
    for (i = 0; i < robot->dof; i++) {
        uint32_t joint;
        float lo = -1.0f, hi = 1.0f;
        const uint32_t k = fuzz_u8(r);
        (void)copse_robot_variable(robot, i, &joint, &lo, &hi);
        if (k < 200u) {
            const float u = (float)k / 199.0f;
            q[i] = lo > -1.0e6f && hi < 1.0e6f ? lo + (hi - lo) * u : 3.0f * u - 1.5f;
        } else {
            q[i] = k < 230u ? fuzz_float(r) : k < 250u ? fuzz_coord(r) : (k & 1u ? 3.0e38f : -3.0e38f);
        }
    }
}

static const copse_pose *base_of(fuzz_reader *r, copse_pose *p)
{
    const uint32_t k = fuzz_u8(r);
    copse_quat q;
    if ((k & 3u) == 0u)
        return NULL;
    q.x = len(r), q.y = len(r), q.z = len(r), q.w = len(r);
    if (copse_pose_from_quat(p, q, vec(r)) != COPSE_OK)
        *p = copse_pose_identity();
    if ((k & 3u) == 3u)
        p->rotation[k % 3u][(k >> 2) % 3u] = fuzz_float(r);
    return p;
}

static bool is_identity(const copse_pose *p)
{
    const copse_pose id = copse_pose_identity();
    return memcmp(p, &id, sizeof id) == 0;
}

static void drive(const copse_robot *robot, fuzz_reader *r)
{
    const uint32_t n = robot->link_count, dof = robot->dof;
    copse_pose *poses = (copse_pose *)malloc(sizeof(copse_pose) * (n ? n : 1u));
    float *q0 = (float *)malloc(sizeof(float) * (dof ? dof : 1u)), *q1 = (float *)malloc(sizeof(float) * (dof ? dof : 1u));
    copse_link_distance *per = (copse_link_distance *)malloc(sizeof(copse_link_distance) * (n ? n : 1u));
    copse_robot_contact first, contacts[3 + GUARD];
    copse_pose base_buf;
    const copse_pose *base;
    uint32_t i, count = 77u, cap, flags;
    bool truncated = true;
    float fraction;
    copse_status st, st_first, st_list;
    if (poses == NULL || q0 == NULL || q1 == NULL || per == NULL)
        abort();
    names(robot, r);
    parts(robot, r);
    config_of(robot, r, q0);
    config_of(robot, r, q1);
    base = base_of(r, &base_buf);
    memset(poses, 0xCD, sizeof(copse_pose) * n);
    st = copse_robot_fk(robot, q0, base, poses);
    check_status(st, "fk");
    if (st != COPSE_OK) {
        for (i = 0; i < n; i++)
            FUZZ_ASSERT(is_identity(&poses[i]), "fk: error %s left link %u's pose", copse_status_str(st), (unsigned)i);
    } else {
        flags = fuzz_u8(r) & 7u;
        cap = fuzz_u8(r) % 4u;
        memset(&first, 0xCD, sizeof first);
        memset(contacts, 0x5A, sizeof contacts);
        st_first = copse_robot_collides(robot, &W.world, poses, flags, &first);
        st_list = copse_robot_contacts(robot, &W.world, poses, flags, contacts, cap, &count, &truncated);
        check_status(st_first, "collides");
        FUZZ_ASSERT(st_first == st_list, "collides %s, contacts %s", copse_status_str(st_first),
                    copse_status_str(st_list));
        for (i = cap; i < 3u + GUARD; i++) {
            const uint8_t *g = (const uint8_t *)&contacts[i];
            size_t k;
            for (k = 0; k < sizeof contacts[0]; k++)
                FUZZ_ASSERT(g[k] == 0x5Au, "contacts wrote past capacity %u", (unsigned)cap);
        }
        if (st_first != COPSE_OK) {
            FUZZ_ASSERT(first.kind == COPSE_CONTACT_NONE && count == 0 && !truncated, "error %s left contacts",
                        copse_status_str(st_first));
        } else {
            contact_ok(robot, &first, "collides");
            FUZZ_ASSERT(count <= cap, "%u contacts in %u", (unsigned)count, (unsigned)cap);
            for (i = 0; i < count; i++)
                contact_ok(robot, &contacts[i], "contacts");
            FUZZ_ASSERT((first.kind != COPSE_CONTACT_NONE) == (count > 0 || truncated),
                        "collides: kind %u; contacts: %u%s", (unsigned)first.kind, (unsigned)count,
                        truncated ? " (truncated)" : "");
        }
        memset(per, 0xCD, sizeof(copse_link_distance) * n);
        st = copse_robot_distances(robot, &W.world, poses, flags, fuzz_u8(r) & 1u ? len(r) : FLT_MAX, per);
        check_status(st, "distances");
        for (i = 0; i < n; i++) {
            if (st != COPSE_OK)
                FUZZ_ASSERT(per[i].world == FLT_MAX && per[i].self == FLT_MAX &&
                                per[i].world_nearest.kind == COPSE_CONTACT_NONE &&
                                per[i].self_nearest.kind == COPSE_CONTACT_NONE,
                            "distances: error %s left link %u's", copse_status_str(st), (unsigned)i);
            else {
                /* paddings taken off: within them a distance is negative (docs/robot.md), never NaN */
                FUZZ_ASSERT(per[i].world == per[i].world && per[i].self == per[i].self, "link %u: distances %g %g",
                            (unsigned)i, (double)per[i].world, (double)per[i].self);
                FUZZ_ASSERT((per[i].world == FLT_MAX) == (per[i].world_nearest.kind == COPSE_CONTACT_NONE) &&
                                (per[i].self == FLT_MAX) == (per[i].self_nearest.kind == COPSE_CONTACT_NONE),
                            "link %u: distances %g %g, kinds %u %u", (unsigned)i, (double)per[i].world,
                            (double)per[i].self, (unsigned)per[i].world_nearest.kind,
                            (unsigned)per[i].self_nearest.kind);
                contact_ok(robot, &per[i].world_nearest, "distances world");
                contact_ok(robot, &per[i].self_nearest, "distances self");
            }
        }
    }
    /* motions: q0 to q1 */
    {
        float step = fuzz_u8(r) & 1u ? len(r) : 0.05f, span = 0.0f;
        copse_robot_contact c;
        /* a motion of 4096 to COPSE_ROBOT_MAX_CHECKS checks is bounded work, but seconds under the
         * sanitizers (docs/fuzz.md): its step is widened to 4096 checks; more still refuse */
        for (i = 0; i < dof; i++) {
            const float d = q1[i] > q0[i] ? q1[i] - q0[i] : q0[i] - q1[i];
            span = d > span ? d : span;
        }
        if (step > 0.0f && span - span == 0.0f && span / step > 4096.0f &&
            span / step <= (float)COPSE_ROBOT_MAX_CHECKS)
            step = span / 4096.0f;
        flags = fuzz_u8(r) & 7u;
        memset(&c, 0xCD, sizeof c);
        fraction = -1.0f;
        st = copse_robot_motion(robot, &W.world, q0, q1, base, poses, step, flags, &fraction, &c);
        check_status(st, "motion");
        FUZZ_ASSERT(fraction >= 0.0f && fraction <= 1.0f, "motion: fraction %g", (double)fraction);
        if (st == COPSE_OK) {
            contact_ok(robot, &c, "motion");
            FUZZ_ASSERT(c.kind != COPSE_CONTACT_NONE || fraction == 1.0f, "motion clear at %g", (double)fraction);
        } else {
            FUZZ_ASSERT(c.kind == COPSE_CONTACT_NONE, "motion: error %s left a contact", copse_status_str(st));
        }
        memset(&c, 0xCD, sizeof c);
        fraction = -1.0f;
        st = copse_robot_motion_continuous(robot, &W.world, q0, q1, base, poses,
                                           fuzz_u8(r) & 1u ? len(r) : 0.02f, 1u + fuzz_u8(r) % 48u, flags,
                                           &fraction, &c);
        check_status(st, "motion_continuous");
        FUZZ_ASSERT(fraction >= 0.0f && fraction <= 1.0f, "motion_continuous: fraction %g", (double)fraction);
        if (st == COPSE_OK) {
            contact_ok(robot, &c, "motion_continuous");
            FUZZ_ASSERT(c.kind != COPSE_CONTACT_NONE || fraction == 1.0f, "motion_continuous clear at %g",
                        (double)fraction);
        } else {
            FUZZ_ASSERT(c.kind == COPSE_CONTACT_NONE, "motion_continuous: error %s left a contact",
                        copse_status_str(st));
        }
    }
    free(poses);
    free(q0);
    free(q1);
    free(per);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r;
    desc_store *d = (desc_store *)malloc(sizeof *d);
    size_t bytes, saved_bytes, written = 0, view_len;
    uint8_t *mem, *blob;
    copse_arena arena;
    copse_robot robot, view;
    copse_status st;
    uint32_t m, k;
    if (d == NULL)
        return 0;
    world_init();
    fuzz_reader_init(&r, data, size);
    describe(d, &r);
    bytes = copse_robot_build_bytes(&d->desc);
    mem = (uint8_t *)malloc(bytes == (size_t)-1 ? 4096u : bytes);
    if (mem == NULL)
        abort();
    copse_arena_init(&arena, mem, bytes == (size_t)-1 ? 4096u : bytes);
    memset(&robot, 0xCD, sizeof robot);
    st = copse_robot_build(&robot, &arena, &d->desc);
    check_status(st, "build");
    if (bytes == (size_t)-1)
        FUZZ_ASSERT(st != COPSE_OK, "build_bytes refused a description the build took");
    if (st != COPSE_OK) {
        free(mem);
        free(d);
        return 0;
    }
    FUZZ_ASSERT(arena.used <= bytes, "robot past its arena");
    FUZZ_ASSERT(robot.link_count == d->desc.link_count, "robot of %u links", (unsigned)robot.link_count);
    saved_bytes = copse_robot_save_bytes(&robot);
    blob = (uint8_t *)malloc(saved_bytes);
    if (blob == NULL)
        abort();
    st = copse_robot_save(&robot, blob, saved_bytes, &written);
    FUZZ_ASSERT(st == COPSE_OK && written == saved_bytes, "save: %s, %zu of %zu", copse_status_str(st), written,
                saved_bytes);
    st = copse_robot_view(&view, blob, saved_bytes);
    FUZZ_ASSERT(st == COPSE_OK && view.link_count == robot.link_count && view.dof == robot.dof,
                "a saved robot does not view: %s", copse_status_str(st));
    if (fuzz_u8(&r) & 1u)
        drive(&robot, &r);
    /* the blob mutated: bytes xor-ed, the CRC re-sealed or not, the length cut or not */
    m = fuzz_u8(&r);
    for (k = 0; k < (m & 7u); k++) {
        const uint32_t at = (fuzz_u8(&r) | (fuzz_u8(&r) << 8)) % (uint32_t)saved_bytes;
        blob[at] ^= (uint8_t)fuzz_u8(&r);
    }
    if ((m & 0x30u) != 0x30u && saved_bytes >= 16u) { /* seal: CRC-32 of the blob with its CRC field as 0 */
        static const uint8_t zero[4] = {0, 0, 0, 0};
        const uint32_t total = fuzz_le32_at(blob, saved_bytes, 4);
        if (total >= 16u && total <= saved_bytes) {
            const uint32_t crc = copse_crc32(copse_crc32(copse_crc32(0, blob, 12), zero, 4), blob + 16, total - 16u);
            for (k = 0; k < 4u; k++)
                blob[12u + k] = (uint8_t)(crc >> (8u * k));
        }
    }
    view_len = (m & 0x40u) ? fuzz_u32(&r) % (saved_bytes + 1u) : saved_bytes;
    memset(&view, 0xCD, sizeof view);
    st = copse_robot_view(&view, blob, view_len);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(fuzz_view_status(st) || st == COPSE_ERR_BLOB_CRC || st == COPSE_ERR_BLOB_MAGIC ||
                        st == COPSE_ERR_BLOB_BYTE_ORDER || st == COPSE_ERR_BLOB_VERSION || st == COPSE_ERR_BLOB_KIND,
                    "view: %s", copse_status_str(st));
        FUZZ_ASSERT(view.data == NULL && view.link_count == 0 && view.joint_count == 0 && view.dof == 0 &&
                        view.links == NULL,
                    "a failed view left a robot");
    } else {
        FUZZ_ASSERT(view.read_only, "a view is not read-only");
        FUZZ_ASSERT(copse_robot_allow(&view, 0, 0, true) == COPSE_ERR_READ_ONLY ||
                        copse_robot_allow(&view, 0, 0, true) == COPSE_ERR_INDEX,
                    "allow on a view");
        drive(&view, &r);
    }
    free(blob);
    free(mem);
    free(d);
    return 0;
}

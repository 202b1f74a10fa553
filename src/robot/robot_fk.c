/* SPDX-License-Identifier: MIT */
/*
 * A robot's forward kinematics and what it tells about itself: variables, names, link parts and
 * the allowed-collision matrix. Each function is small and stands alone (docs/design.md rule 9).
 */
#include "robot_internal.h"
#include "../geom/pose_internal.h"

uint32_t copse_robot_dof(const copse_robot *robot)
{
    return robot != NULL ? robot->dof : 0u;
}

/* A joint's value in q: its variable's, or the mimicked joint's scaled (views guarantee the
 * mimicked joint has a variable). */
COPSE_INLINE float joint_value(const copse_robot *r, const robot_joint *j, const float *q)
{
    if (j->var != COPSE_NONE)
        return q[j->var];
    return j->multiplier * q[robot_joint_at(r, j->mimic)->var] + j->offset;
}

/* out = a b (a's rotation times b's, then a's rotation times b's translation plus a's), in a
 * fixed order, straight-line: forward kinematics does this twice a joint. */
COPSE_INLINE void fk_compose(const float ar[9], const float at[3], const float br[9], const float bt[3], float or_[9],
                             float ot[3])
{
    unsigned i;
    for (i = 0; i < 3u; i++) {
        const float r0 = ar[3u * i], r1 = ar[3u * i + 1u], r2 = ar[3u * i + 2u];
        or_[3u * i] = r0 * br[0] + r1 * br[3] + r2 * br[6];
        or_[3u * i + 1u] = r0 * br[1] + r1 * br[4] + r2 * br[7];
        or_[3u * i + 2u] = r0 * br[2] + r1 * br[5] + r2 * br[8];
        ot[i] = r0 * bt[0] + r1 * bt[1] + r2 * bt[2] + at[i];
    }
}

/* The link's pose: parent, then the joint's origin, then its motion for this value -- about the
 * unit axis through the quaternion (sin(value/2) axis, cos(value/2)) (the Euler-Rodrigues form,
 * as copse_pose_from_axis_angle), or along it. The joint and q were checked (check_q). */
static copse_status fk_joint(const robot_joint *j, float value, const copse_pose *parent, copse_pose *child)
{
    float pr[9], pt[3], m[9], mt[3], local[9], lt[3], r[9], t[3];
    const float *rr = m, *tt = mt;
    unsigned i, k;
    for (i = 0; i < 3u; i++) {
        for (k = 0; k < 3u; k++)
            pr[3u * i + k] = parent->rotation[i][k];
    }
    pt[0] = parent->translation.x;
    pt[1] = parent->translation.y;
    pt[2] = parent->translation.z;
    fk_compose(pr, pt, j->rotation, j->translation, m, mt); /* parent times origin */
    if (j->type != COPSE_JOINT_FIXED) {                      /* times the motion */
        lt[0] = lt[1] = lt[2] = 0.0f;
        if (j->type == COPSE_JOINT_PRISMATIC) {
            for (k = 0; k < 3u; k++)
                lt[k] = j->axis[k] * value;
            for (k = 0; k < 9u; k++)
                local[k] = k % 4u == 0u ? 1.0f : 0.0f;
        } else {
            float sh, ch, x, y, z, w, sc;
            if (!(copse_fabsf(value) <= COPSE_MAX_ANGLE))
                return COPSE_ERR_PARAM;
            copse_geo_sincos(value * 0.5f, &sh, &ch);
            x = j->axis[0] * sh;
            y = j->axis[1] * sh;
            z = j->axis[2] * sh;
            w = ch;
            sc = 2.0f / (x * x + y * y + z * z + w * w);
            local[0] = 1.0f - sc * (y * y + z * z);
            local[1] = sc * (x * y - z * w);
            local[2] = sc * (x * z + y * w);
            local[3] = sc * (x * y + z * w);
            local[4] = 1.0f - sc * (x * x + z * z);
            local[5] = sc * (y * z - x * w);
            local[6] = sc * (x * z - y * w);
            local[7] = sc * (y * z + x * w);
            local[8] = 1.0f - sc * (x * x + y * y);
        }
        fk_compose(m, mt, local, lt, r, t);
        rr = r;
        tt = t;
    }
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            child->rotation[i][k] = rr[3u * i + k];
    child->translation = copse_v3(tt[0], tt[1], tt[2]);
    return COPSE_OK;
}

/* q's values finite and within their joints' limits (a relative 1e-6 of the range beyond). */
static copse_status check_q(const copse_robot *r, const float *q)
{
    uint32_t j;
    for (j = 0; j < r->joint_count; j++) {
        const robot_joint *jt = robot_joint_at(r, j);
        float v, tol;
        if (jt->var == COPSE_NONE)
            continue;
        v = q[jt->var];
        if (!geo_finite(v))
            return COPSE_ERR_NONFINITE;
        if (jt->type == COPSE_JOINT_CONTINUOUS)
            continue;
        tol = 1e-6f * (jt->upper - jt->lower);
        if (v < jt->lower - tol || v > jt->upper + tol)
            return COPSE_ERR_PARAM;
    }
    return COPSE_OK;
}

copse_status copse_robot_fk(const copse_robot *robot, const float *q, const copse_pose *base, copse_pose *link_poses)
{
    uint32_t i, k;
    copse_status st;
    if (robot == NULL || link_poses == NULL || (q == NULL && robot->dof > 0u))
        return COPSE_ERR_NULL;
    st = copse_geo_pose_status(base);
    if (st == COPSE_OK)
        st = check_q(robot, q);
    for (i = 0; i < robot->link_count && st == COPSE_OK; i++)
        if (robot_link_at(robot, i)->parent_joint == COPSE_NONE)
            link_poses[i] = base != NULL ? *base : copse_pose_identity();
    for (k = 0; k < robot->joint_count && st == COPSE_OK; k++) {
        const robot_joint *j = robot_joint_at(robot, robot->order[k]);
        const float v = j->type == COPSE_JOINT_FIXED ? 0.0f : joint_value(robot, j, q);
        st = geo_finite(v) ? fk_joint(j, v, &link_poses[j->parent], &link_poses[j->child]) : COPSE_ERR_NONFINITE;
    }
    if (st != COPSE_OK)
        for (i = 0; i < robot->link_count; i++)
            link_poses[i] = copse_pose_identity();
    return st;
}

copse_status copse_robot_link_info_get(const copse_robot *robot, uint32_t link, copse_robot_link_info *out)
{
    const robot_link *l;
    if (out != NULL) {
        __builtin_memset(out, 0, sizeof *out);
        out->parent_joint = COPSE_NONE;
    }
    if (robot == NULL || out == NULL)
        return COPSE_ERR_NULL;
    if (link >= robot->link_count)
        return COPSE_ERR_INDEX;
    l = robot_link_at(robot, link);
    out->parent_joint = l->parent_joint;
    out->padding = l->padding;
    out->shapes_bound = (l->flags & ROBOT_LINK_SHAPES_BOUND) != 0u;
    return COPSE_OK;
}

copse_status copse_robot_joint_info_get(const copse_robot *robot, uint32_t joint, copse_robot_joint_info *out)
{
    const robot_joint *j;
    unsigned i, k;
    if (out != NULL) {
        __builtin_memset(out, 0, sizeof *out);
        out->parent = out->child = out->variable = out->mimic = COPSE_NONE;
        out->origin = copse_pose_identity();
    }
    if (robot == NULL || out == NULL)
        return COPSE_ERR_NULL;
    if (joint >= robot->joint_count)
        return COPSE_ERR_INDEX;
    j = robot_joint_at(robot, joint);
    out->type = (copse_joint_type)j->type;
    out->parent = j->parent;
    out->child = j->child;
    out->variable = j->var;
    out->mimic = j->mimic;
    out->multiplier = j->multiplier;
    out->offset = j->offset;
    out->lower = j->lower;
    out->upper = j->upper;
    out->axis = copse_v3(j->axis[0], j->axis[1], j->axis[2]);
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            out->origin.rotation[i][k] = j->rotation[3u * i + k];
    out->origin.translation = copse_v3(j->translation[0], j->translation[1], j->translation[2]);
    return COPSE_OK;
}

copse_status copse_robot_variable(const copse_robot *robot, uint32_t i, uint32_t *joint, float *lower, float *upper)
{
    uint32_t j;
    if (robot == NULL)
        return COPSE_ERR_NULL;
    for (j = 0; j < robot->joint_count; j++) {
        const robot_joint *jt = robot_joint_at(robot, j);
        if (jt->var == i) {
            if (joint != NULL)
                *joint = j;
            if (lower != NULL)
                *lower = jt->lower;
            if (upper != NULL)
                *upper = jt->upper;
            return COPSE_OK;
        }
    }
    return COPSE_ERR_INDEX;
}

/* ---- names ------------------------------------------------------------------------------------ */

static copse_status copy_name(const copse_robot *r, uint32_t offset, char *buf, size_t cap)
{
    uint32_t n = offset == COPSE_NONE ? 0u : robot_name_length(r, offset), k;
    if (cap < (size_t)n + 1u)
        return COPSE_ERR_NOMEM;
    for (k = 0; k < n; k++)
        buf[k] = robot_name_char(r, offset, k);
    buf[n] = '\0';
    return COPSE_OK;
}

copse_status copse_robot_link_name(const copse_robot *robot, uint32_t link, char *buf, size_t cap)
{
    if (robot == NULL || buf == NULL)
        return COPSE_ERR_NULL;
    if (link >= robot->link_count)
        return COPSE_ERR_INDEX;
    return copy_name(robot, robot_link_at(robot, link)->name, buf, cap);
}

copse_status copse_robot_joint_name(const copse_robot *robot, uint32_t joint, char *buf, size_t cap)
{
    if (robot == NULL || buf == NULL)
        return COPSE_ERR_NULL;
    if (joint >= robot->joint_count)
        return COPSE_ERR_INDEX;
    return copy_name(robot, robot_joint_at(robot, joint)->name, buf, cap);
}

/* The first of `count` records (each `stride` words, its name's offset at word `field`) named
 * `name`. */
static uint32_t find_name(const copse_robot *r, const uint32_t *records, uint32_t count, uint32_t stride,
                          uint32_t field, const char *name)
{
    uint32_t i, n = 0, k;
    if (name == NULL)
        return COPSE_NONE;
    while (n <= COPSE_ROBOT_NAME_MAX && name[n] != '\0')
        n++;
    if (n == 0u || n > COPSE_ROBOT_NAME_MAX)
        return COPSE_NONE;
    for (i = 0; i < count; i++) {
        uint32_t off = records[(size_t)i * stride + field];
        if (off == COPSE_NONE || robot_name_length(r, off) != n)
            continue;
        for (k = 0; k < n && robot_name_char(r, off, k) == name[k]; k++)
            ;
        if (k == n)
            return i;
    }
    return COPSE_NONE;
}

uint32_t copse_robot_find_link(const copse_robot *robot, const char *name)
{
    if (robot == NULL)
        return COPSE_NONE;
    return find_name(robot, (const uint32_t *)robot->links, robot->link_count, ROBOT_LINK_WORDS, 1u, name);
}

uint32_t copse_robot_find_joint(const copse_robot *robot, const char *name)
{
    if (robot == NULL)
        return COPSE_NONE;
    return find_name(robot, (const uint32_t *)robot->joints, robot->joint_count, ROBOT_JOINT_WORDS, 3u, name);
}

/* ---- link parts ------------------------------------------------------------------------------- */

void copse__robot_tree_view(const copse_robot *robot, uint32_t t, copse_bvh *out)
{
    const robot_tree *tr = robot_tree_at(robot, t);
    __builtin_memset(out, 0, sizeof *out);
    out->nodes = robot->data + tr->nodes;
    out->prims = robot->data + tr->prims;
    out->node_count = tr->node_count;
    out->prim_count = tr->prim_count;
    out->dim = 3u;
    out->kind = COPSE_BVH_PRIM_TRIANGLES;
    out->axis[0] = 0u;
    out->axis[1] = 1u;
    out->axis[2] = 2u;
    out->depth = (uint8_t)tr->depth;
    out->degenerate_count = tr->degenerate_count;
    out->mesh.positions = (const float *)(const void *)(robot->data + tr->positions);
    out->mesh.vertex_count = tr->vertex_count;
    out->mesh.vertex_stride = 3u * (uint32_t)sizeof(float);
    out->mesh.indices = robot->data + tr->indices;
    out->mesh.index_type = COPSE_MESH_INDEX_U32;
    out->mesh.triangle_count = tr->triangle_count;
}

copse_status copse_robot_link_tree(const copse_robot *robot, uint32_t link, copse_bvh *tree)
{
    uint32_t t;
    if (tree == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(tree, 0, sizeof *tree);
    if (robot == NULL)
        return COPSE_ERR_NULL;
    if (link >= robot->link_count)
        return COPSE_ERR_INDEX;
    t = robot_link_at(robot, link)->tree;
    if (t != COPSE_NONE)
        copse__robot_tree_view(robot, t, tree);
    return COPSE_OK;
}

/* The link's spheres (capsules = false) or capsules, up to capacity; returns how many it has. */
static uint32_t link_shapes(const copse_robot *r, uint32_t link, bool capsules, copse_capsule *caps,
                            copse_sphere *spheres, uint32_t capacity)
{
    const robot_link *l;
    uint32_t first, count, i;
    if (r == NULL || link >= r->link_count)
        return 0u;
    l = robot_link_at(r, link);
    first = l->shape_first + (capsules ? l->sphere_count : 0u);
    count = capsules ? l->capsule_count : l->sphere_count;
    for (i = 0; i < count && i < capacity; i++) {
        const robot_shape *s = robot_shape_at(r, first + i);
        copse_vec3 a = copse_v3(s->a[0], s->a[1], s->a[2]);
        if (capsules) {
            caps[i].segment.a = a;
            caps[i].segment.b = copse_v3(s->b[0], s->b[1], s->b[2]);
            caps[i].radius = s->radius;
        } else {
            spheres[i].center = a;
            spheres[i].radius = s->radius;
        }
    }
    return count;
}

uint32_t copse_robot_link_spheres(const copse_robot *robot, uint32_t link, copse_sphere *out, uint32_t capacity)
{
    return link_shapes(robot, link, false, NULL, out, out != NULL ? capacity : 0u);
}

uint32_t copse_robot_link_capsules(const copse_robot *robot, uint32_t link, copse_capsule *out, uint32_t capacity)
{
    return link_shapes(robot, link, true, out, NULL, out != NULL ? capacity : 0u);
}

/* ---- the allowed-collision matrix -------------------------------------------------------------- */

bool copse_robot_allowed(const copse_robot *robot, uint32_t a, uint32_t b)
{
    if (robot == NULL || a >= robot->link_count || b >= robot->link_count)
        return false;
    return robot_acm_get(robot, a, b);
}

copse_status copse_robot_allow(copse_robot *robot, uint32_t a, uint32_t b, bool allowed)
{
    uint32_t *acm;
    if (robot == NULL)
        return COPSE_ERR_NULL;
    if (robot->read_only || robot->acm_writable == NULL)
        return COPSE_ERR_READ_ONLY;
    if (a >= robot->link_count || b >= robot->link_count)
        return COPSE_ERR_INDEX;
    if (a == b)
        return allowed ? COPSE_OK : COPSE_ERR_PARAM; /* a link always touches itself */
    acm = robot->acm_writable;
    if (allowed) {
        acm[(size_t)a * robot->acm_words + (b >> 5)] |= 1u << (b & 31u);
        acm[(size_t)b * robot->acm_words + (a >> 5)] |= 1u << (a & 31u);
    } else {
        acm[(size_t)a * robot->acm_words + (b >> 5)] &= ~(1u << (b & 31u));
        acm[(size_t)b * robot->acm_words + (a >> 5)] &= ~(1u << (a & 31u));
    }
    return COPSE_OK;
}

/* SPDX-License-Identifier: MIT */
/*
 * A robot's forward kinematics and what it tells about itself: variables, names, link parts and
 * the allowed-collision matrix. Each function is small and stands alone (DESIGN.md 9).
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

/* The joint's place for its value: origin, then the motion about or along its axis. */
static copse_status joint_pose(const robot_joint *j, float value, copse_pose *local)
{
    copse_pose origin, motion;
    copse_vec3 axis = copse_v3(j->axis[0], j->axis[1], j->axis[2]);
    unsigned i, k;
    copse_status st = COPSE_OK;
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            origin.rotation[i][k] = j->rotation[3u * i + k];
    origin.translation = copse_v3(j->translation[0], j->translation[1], j->translation[2]);
    if (j->type == COPSE_JOINT_FIXED) {
        *local = origin;
        return COPSE_OK;
    }
    if (!geo_finite(value))
        return COPSE_ERR_NONFINITE;
    if (j->type == COPSE_JOINT_PRISMATIC)
        motion = copse_pose_translation(copse_v3(axis.x * value, axis.y * value, axis.z * value));
    else
        st = copse_pose_from_axis_angle(&motion, axis, value, copse_v3(0.0f, 0.0f, 0.0f));
    if (st == COPSE_OK)
        st = copse_pose_compose(local, &origin, &motion);
    return st;
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
        copse_pose local;
        st = joint_pose(j, j->type == COPSE_JOINT_FIXED ? 0.0f : joint_value(robot, j, q), &local);
        if (st == COPSE_OK)
            st = copse_pose_compose(&link_poses[j->child], &link_poses[j->parent], &local);
    }
    if (st != COPSE_OK)
        for (i = 0; i < robot->link_count; i++)
            link_poses[i] = copse_pose_identity();
    return st;
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

void robot_tree_view(const copse_robot *robot, uint32_t t, copse_bvh *out)
{
    const robot_tree *tr = robot_tree_at(robot, t);
    __builtin_memset(out, 0, sizeof *out);
    out->nodes = robot->data + tr->nodes;
    out->prims = robot->data + tr->prims;
    out->node_count = tr->node_count;
    out->prim_count = tr->prim_count;
    out->dim = 3u;
    out->kind = COPSE_PRIM_TRIANGLES;
    out->axis[0] = 0u;
    out->axis[1] = 1u;
    out->axis[2] = 2u;
    out->depth = (uint8_t)tr->depth;
    out->degenerate_count = tr->degenerate_count;
    out->mesh.positions = (const float *)(const void *)(robot->data + tr->positions);
    out->mesh.vertex_count = tr->vertex_count;
    out->mesh.vertex_stride = 3u * (uint32_t)sizeof(float);
    out->mesh.indices = robot->data + tr->indices;
    out->mesh.index_type = COPSE_INDEX_U32;
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
        robot_tree_view(robot, t, tree);
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

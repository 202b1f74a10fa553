/* SPDX-License-Identifier: MIT */
/*
 * Building a robot: the description validated, then laid out in one piece of the arena in the
 * flat form a robot blob holds (robot_internal.h, docs/format.md "Robot").
 *
 * Arena use: one block of build_bytes. Its front is the layout as it would be with every tree
 * at its node budget (the most the builder can make); behind that, each link mesh's BVH is built
 * over the caller's mesh in turn, copied to the layout's end (at its real size) and given back.
 * At the end the arena keeps the layout and nothing else. Every size here depends on counts
 * only, so copse_robot_build_bytes is exact without building anything.
 */
#include "../core/arena_internal.h"
#include "robot_internal.h"
#include "../bvh/bvh_internal.h"
#include "../geom/pose_internal.h"

/* The layout records are read in place from a blob: 4-byte fields, no padding. */
typedef char robot_link_layout[(sizeof(robot_link) == 4u * ROBOT_LINK_WORDS) ? 1 : -1];
typedef char robot_joint_layout[(sizeof(robot_joint) == 4u * ROBOT_JOINT_WORDS) ? 1 : -1];
typedef char robot_shape_layout[(sizeof(robot_shape) == 4u * ROBOT_SHAPE_WORDS) ? 1 : -1];
typedef char robot_tree_layout[(sizeof(robot_tree) == 4u * ROBOT_TREE_WORDS) ? 1 : -1];
typedef char robot_node_layout[(sizeof(copse_bvh_node3) == 4u * ROBOT_NODE_WORDS) ? 1 : -1];

/* Layouts past this many words are refused (a blob's sizes are 32-bit byte counts). */
#define ROBOT_MAX_WORDS 0x3FFFFF00u

/* What planning learns: the counts, and the arena sizes. */
typedef struct robot_plan {
    robot_counts c;
    uint32_t root;
    uint64_t worst_words; /* the layout with every tree at its node budget */
    size_t scratch;       /* the largest tree build's arena bytes */
    size_t peak;          /* build_bytes */
} robot_plan;

uint32_t copse__robot_fixed_words(const robot_counts *c)
{
    uint64_t acm_words = (c->link_count + 31u) / 32u;
    uint64_t w = (uint64_t)c->link_count * ROBOT_LINK_WORDS + (uint64_t)c->joint_count * (ROBOT_JOINT_WORDS + 1u) +
                 (uint64_t)c->shape_count * ROBOT_SHAPE_WORDS + (uint64_t)c->tree_count * ROBOT_TREE_WORDS +
                 (uint64_t)c->link_count * acm_words + c->names_words;
    return w > ROBOT_MAX_WORDS ? 0xFFFFFFFFu : (uint32_t)w;
}

void copse__robot_point(copse_robot *robot, const uint32_t *data, size_t bytes, const robot_counts *c, uint32_t *writable)
{
    uint32_t at = 0;
    robot->data = data;
    robot->bytes = bytes;
    robot->link_count = c->link_count;
    robot->joint_count = c->joint_count;
    robot->dof = c->dof;
    robot->tree_count = c->tree_count;
    robot->acm_words = (c->link_count + 31u) / 32u;
    robot->links = data + at;
    at += c->link_count * ROBOT_LINK_WORDS;
    robot->joints = data + at;
    at += c->joint_count * ROBOT_JOINT_WORDS;
    robot->order = data + at;
    at += c->joint_count;
    robot->shapes = data + at;
    at += c->shape_count * ROBOT_SHAPE_WORDS;
    robot->trees = data + at;
    at += c->tree_count * ROBOT_TREE_WORDS;
    robot->acm = data + at;
    robot->acm_writable = writable != NULL ? writable + at : NULL;
    at += c->link_count * robot->acm_words;
    robot->names = data + at;
    robot->read_only = writable == NULL;
}

/* ---- validation ------------------------------------------------------------------------------ */

/* A name's bytes, or NAME_MAX + 1 when longer (never reading past that). */
static uint32_t name_length(const char *s)
{
    uint32_t n = 0;
    if (s == NULL)
        return 0;
    while (n <= COPSE_ROBOT_NAME_MAX && s[n] != '\0')
        n++;
    return n;
}

/* Words a name takes in names[] (none for an empty one: it is stored as "no name"). */
static uint32_t name_words(uint32_t length)
{
    return length == 0u ? 0u : 1u + (length + 3u) / 4u;
}

static bool finite3(copse_vec3 v)
{
    return geo_finite(v.x) && geo_finite(v.y) && geo_finite(v.z);
}

/* A link mesh a build copies (triangle_count > 0): the BVH builder's checks, and every vertex
 * finite (all are copied, and a view checks them all). */
static copse_status check_mesh(const copse_mesh *m, const copse_bvh_params *params, copse_mesh *norm)
{
    uint32_t stride, v, t, k;
    if (m->triangle_count > COPSE_BVH_MAX_PRIMS || m->vertex_count > ROBOT_MAX_WORDS / 3u)
        return COPSE_ERR_TOO_LARGE;
    if (m->positions == NULL)
        return COPSE_ERR_NULL;
    if (m->index_type != COPSE_MESH_INDEX_NONE && m->index_type != COPSE_MESH_INDEX_U16 && m->index_type != COPSE_MESH_INDEX_U32)
        return COPSE_ERR_PARAM;
    if (m->index_type != COPSE_MESH_INDEX_NONE && m->indices == NULL)
        return COPSE_ERR_NULL;
    stride = m->vertex_stride == 0 ? 3u * (uint32_t)sizeof(float) : m->vertex_stride;
    if (stride < 3u * sizeof(float) || stride % sizeof(float) != 0 || ((uintptr_t)m->positions % sizeof(float)) != 0 ||
        ((uintptr_t)m->indices % (m->index_type == COPSE_MESH_INDEX_NONE ? 1u : (unsigned)m->index_type)) != 0)
        return COPSE_ERR_ALIGN;
    if (m->index_type == COPSE_MESH_INDEX_NONE && (uint64_t)m->triangle_count * 3u > m->vertex_count)
        return COPSE_ERR_INDEX;
    *norm = *m;
    norm->vertex_stride = stride;
    for (v = 0; v < m->vertex_count; v++) {
        const float *p = bvh_mesh_vertex(norm, v);
        if (!geo_finite(p[0]) || !geo_finite(p[1]) || !geo_finite(p[2]))
            return COPSE_ERR_NONFINITE;
    }
    for (t = 0; t < m->triangle_count; t++) {
        uint32_t idx[3];
        float e1[3], e2[3], n[3];
        bvh_mesh_triangle(norm, t, idx);
        for (k = 0; k < 3u; k++)
            if (idx[k] >= m->vertex_count)
                return COPSE_ERR_INDEX;
        if (params->flags & COPSE_BVH_REJECT_DEGENERATE) { /* the builder's own test */
            geo_sub3(e1, bvh_mesh_vertex(norm, idx[1]), bvh_mesh_vertex(norm, idx[0]));
            geo_sub3(e2, bvh_mesh_vertex(norm, idx[2]), bvh_mesh_vertex(norm, idx[0]));
            geo_cross3(n, e1, e2);
            if (n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f)
                return COPSE_ERR_DEGENERATE;
        }
    }
    return COPSE_OK;
}

static copse_status check_link(const copse_link_desc *l, const copse_bvh_params *params)
{
    uint32_t i;
    copse_mesh norm;
    if (name_length(l->name) > COPSE_ROBOT_NAME_MAX)
        return COPSE_ERR_PARAM;
    if (!geo_finite(l->padding))
        return COPSE_ERR_NONFINITE;
    if (l->padding < 0.0f || (uint64_t)l->sphere_count + l->capsule_count > COPSE_ROBOT_MAX_SHAPES)
        return COPSE_ERR_PARAM;
    if ((l->spheres == NULL && l->sphere_count > 0) || (l->capsules == NULL && l->capsule_count > 0))
        return COPSE_ERR_NULL;
    for (i = 0; i < l->sphere_count; i++) {
        if (!finite3(l->spheres[i].center) || !geo_finite(l->spheres[i].radius))
            return COPSE_ERR_NONFINITE;
        if (l->spheres[i].radius < 0.0f)
            return COPSE_ERR_PARAM;
    }
    for (i = 0; i < l->capsule_count; i++) {
        const copse_capsule *c = &l->capsules[i];
        if (!finite3(c->segment.a) || !finite3(c->segment.b) || !geo_finite(c->radius))
            return COPSE_ERR_NONFINITE;
        if (c->radius < 0.0f)
            return COPSE_ERR_PARAM;
    }
    if (l->mesh != NULL && l->mesh->triangle_count > 0)
        return check_mesh(l->mesh, params, &norm);
    return COPSE_OK;
}

static copse_status check_joint(const copse_robot_desc *d, uint32_t j, uint8_t *has_parent)
{
    const copse_joint_desc *jd = &d->joints[j];
    copse_pose origin;
    copse_status st;
    if ((uint32_t)jd->type > (uint32_t)COPSE_JOINT_PRISMATIC || name_length(jd->name) > COPSE_ROBOT_NAME_MAX)
        return COPSE_ERR_PARAM;
    if (jd->parent >= d->link_count || jd->child >= d->link_count)
        return COPSE_ERR_INDEX;
    if (jd->parent == jd->child || has_parent[jd->child])
        return COPSE_ERR_PARAM; /* a loop on one link, or a link placed twice */
    has_parent[jd->child] = 1u;
    st = copse_pose_from_xyz_rpy(&origin, jd->xyz, jd->rpy); /* NONFINITE, PARAM (|angle| too large) */
    if (st != COPSE_OK || jd->type == COPSE_JOINT_FIXED)
        return st;
    if (!finite3(jd->axis))
        return COPSE_ERR_NONFINITE;
    if (jd->axis.x == 0.0f && jd->axis.y == 0.0f && jd->axis.z == 0.0f)
        return COPSE_ERR_PARAM;
    if (jd->type != COPSE_JOINT_CONTINUOUS) {
        if (!geo_finite(jd->lower) || !geo_finite(jd->upper))
            return COPSE_ERR_NONFINITE;
        if (jd->lower > jd->upper)
            return COPSE_ERR_PARAM;
    }
    if (jd->mimic != -1) {
        const copse_joint_desc *m;
        if (jd->mimic < 0 || (uint32_t)jd->mimic >= d->joint_count)
            return COPSE_ERR_INDEX;
        m = &d->joints[jd->mimic];
        if ((uint32_t)jd->mimic == j || m->type == COPSE_JOINT_FIXED || m->mimic != -1)
            return COPSE_ERR_PARAM;
        if (!geo_finite(jd->multiplier) || !geo_finite(jd->offset))
            return COPSE_ERR_NONFINITE;
    }
    return COPSE_OK;
}

/* The joints parents first: breadth first from the root, each link's joints in index order.
 * Returns how many joints were reached (fewer than joint_count: a cycle not through the root). */
static uint32_t joint_order(const copse_robot_desc *d, uint32_t root, uint32_t *order)
{
    uint8_t queue[COPSE_ROBOT_MAX_LINKS];
    uint32_t head = 0, tail = 0, count = 0, j;
    queue[tail++] = (uint8_t)root;
    while (head < tail) {
        uint32_t link = queue[head++];
        for (j = 0; j < d->joint_count; j++)
            if (d->joints[j].parent == link && tail < COPSE_ROBOT_MAX_LINKS) {
                queue[tail++] = (uint8_t)d->joints[j].child;
                if (order != NULL)
                    order[count] = j;
                count++;
            }
    }
    return count;
}

static bool link_has_mesh(const copse_link_desc *l)
{
    return l->mesh != NULL && l->mesh->triangle_count > 0;
}

static size_t round8(uint64_t bytes)
{
    return (size_t)((bytes + (COPSE_ARENA_ALIGN - 1u)) & ~(uint64_t)(COPSE_ARENA_ALIGN - 1u));
}

/* Validates the description and sizes its layout and build. */
static copse_status plan_robot(const copse_robot_desc *d, robot_plan *p)
{
    uint8_t has_parent[COPSE_ROBOT_MAX_LINKS];
    uint32_t i, roots = 0;
    uint64_t shapes = 0, tree_words = 0, worst_nodes = 0, names = 0;
    size_t scratch = 0;
    copse_status st;

    if (d == NULL || (d->links == NULL && d->link_count > 0) || (d->joints == NULL && d->joint_count > 0) ||
        (d->allowed == NULL && d->allowed_count > 0))
        return COPSE_ERR_NULL;
    if (d->link_count == 0 || d->link_count > COPSE_ROBOT_MAX_LINKS || d->joint_count != d->link_count - 1u ||
        (d->flags & ~COPSE_ROBOT_CHECK_ADJACENT) != 0u || d->tree_params.projection != COPSE_BVH_PROJECT_NONE ||
        copse_bvh_build_bytes(1u, 3u, &d->tree_params) == (size_t)-1)
        return COPSE_ERR_PARAM;
    for (i = 0; i < d->link_count; i++) {
        const copse_link_desc *l = &d->links[i];
        st = check_link(l, &d->tree_params);
        if (st != COPSE_OK)
            return st;
        has_parent[i] = 0u;
        shapes += (uint64_t)l->sphere_count + l->capsule_count;
        names += name_words(name_length(l->name));
        if (link_has_mesh(l)) {
            uint32_t n = l->mesh->triangle_count;
            size_t b = copse_bvh_build_bytes(n, 3u, &d->tree_params);
            if (b == (size_t)-1)
                return COPSE_ERR_TOO_LARGE;
            scratch = b > scratch ? b : scratch;
            p->c.tree_count++;
            tree_words += (uint64_t)n + 3u * (uint64_t)n + 3u * (uint64_t)l->mesh->vertex_count;
            worst_nodes += COPSE_BVH_NODE_BUDGET(n, d->tree_params.leaf_size);
        }
    }
    p->c.link_count = d->link_count;
    p->c.joint_count = d->joint_count;
    p->c.shape_count = (uint32_t)shapes;
    p->c.names_words = 0;
    for (i = 0; i < d->joint_count; i++) {
        st = check_joint(d, i, has_parent);
        if (st != COPSE_OK)
            return st;
        names += name_words(name_length(d->joints[i].name));
        if (d->joints[i].type != COPSE_JOINT_FIXED && d->joints[i].mimic == -1)
            p->c.dof++;
    }
    for (i = 0; i < d->link_count; i++)
        if (!has_parent[i]) {
            p->root = i;
            roots++;
        }
    /* joint_count = link_count - 1 children, each once: exactly one root; all reached from it
     * unless some links hang in a cycle of their own */
    if (roots != 1u || joint_order(d, p->root, NULL) != d->joint_count)
        return COPSE_ERR_PARAM;
    for (i = 0; i < d->allowed_count; i++)
        if (d->allowed[i].a >= d->link_count || d->allowed[i].b >= d->link_count)
            return COPSE_ERR_INDEX;
    p->c.names_words = (uint32_t)names;
    p->worst_words = copse__robot_fixed_words(&p->c) + tree_words + worst_nodes * ROBOT_NODE_WORDS;
    if (p->worst_words > ROBOT_MAX_WORDS)
        return COPSE_ERR_TOO_LARGE;
    p->scratch = scratch;
    p->peak = round8(p->worst_words * 4u) + scratch;
    return COPSE_OK;
}

/* ---- the layout -------------------------------------------------------------------------------- */

static void copy_words(uint32_t *dst, const void *src, size_t words)
{
    const uint8_t *s = (const uint8_t *)src;
    size_t i;
    for (i = 0; i < words; i++)
        __builtin_memcpy(&dst[i], s + 4u * i, 4u);
}

/* Writes a name at names[*at] (nothing for an empty one) and returns its offset. */
static uint32_t put_name(uint32_t *names, uint32_t *at, const char *s)
{
    uint32_t n = name_length(s), k, off = *at;
    if (n == 0u)
        return COPSE_NONE;
    names[off] = n;
    for (k = 0; k < (n + 3u) / 4u; k++)
        names[off + 1u + k] = 0u;
    for (k = 0; k < n; k++)
        names[off + 1u + (k >> 2)] |= (uint32_t)(uint8_t)s[k] << (8u * (k & 3u));
    *at += name_words(n);
    return off;
}

/* |p - c| <= r for the real numbers the floats stand for, decided in float: the computed squared
 * distance s has at most 5 roundings between it and |p - c|^2 (each a factor within 1 +- 2^-24),
 * r*r one; so s * (1 + 16 eps) <= r*r, with the rounding of that product too, leaves room for all
 * of them (it needs 1 + 3.5 eps). Underflow's absolute errors (below 1e-44) are covered by the
 * same margin wherever they could matter; an infinite s or r*r is never inside. */
static bool point_in_ball(const float *p, const float *c, float r)
{
    float d[3], s, rr = r * r;
    geo_sub3(d, p, c);
    s = geo_dot3(d, d);
    return rr <= FLT_MAX && s * (1.0f + 16.0f * FLT_EPSILON) <= rr;
}

/* Is p within the capsule (a, b, r)? The closest point q computed on the segment is off the
 * segment's true point a + t (b - a) (t as computed, in [0, 1]) by at most 5 roundings of
 * coordinates no larger than m = max |a_k|, |b_k|: under 9 * 2^-24 * m in length. The ball test
 * runs with r less 8 eps (m + r), which covers that and the rounding of r's subtraction. */
static bool point_in_capsule(const float *p, const float *a, const float *b, float r)
{
    float q[3], m = 0.0f, rr;
    unsigned k;
    geo_segment_closest(q, p, a, b);
    for (k = 0; k < 3u; k++)
        m = geo_max(m, geo_max(copse_fabsf(a[k]), copse_fabsf(b[k])));
    rr = r - 8.0f * FLT_EPSILON * (m + r);
    return rr >= 0.0f && point_in_ball(p, q, rr);
}

bool copse__robot_shapes_bound(const copse_robot *r, const robot_link *l, const robot_tree *t)
{
    const robot_shape *shapes = (const robot_shape *)r->shapes;
    const uint32_t *data = r->data;
    const float *pos = (const float *)(const void *)(data + t->positions);
    uint32_t tri, s, n = l->sphere_count + l->capsule_count;
    if (n == 0u)
        return false;
    for (tri = 0; tri < t->triangle_count; tri++) {
        const uint32_t *idx = data + t->indices + 3u * tri;
        bool held = false;
        for (s = 0; s < n && !held; s++) {
            const robot_shape *sh = &shapes[l->shape_first + s];
            unsigned c;
            held = true;
            for (c = 0; c < 3u && held; c++) {
                const float *p = pos + 3u * idx[c];
                held = s < l->sphere_count ? point_in_ball(p, sh->a, sh->radius)
                                           : point_in_capsule(p, sh->a, sh->b, sh->radius);
            }
        }
        if (!held)
            return false;
    }
    return true;
}

static void put_joint(robot_joint *o, const copse_joint_desc *jd, uint32_t *var)
{
    copse_pose origin;
    unsigned i, k;
    float ax[3], m = 0.0f, n;
    (void)copse_pose_from_xyz_rpy(&origin, jd->xyz, jd->rpy); /* checked */
    o->type = (uint32_t)jd->type;
    o->parent = jd->parent;
    o->child = jd->child;
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            o->rotation[3u * i + k] = origin.rotation[i][k];
    o->translation[0] = origin.translation.x;
    o->translation[1] = origin.translation.y;
    o->translation[2] = origin.translation.z;
    o->var = COPSE_NONE;
    o->mimic = COPSE_NONE;
    o->multiplier = 1.0f;
    o->offset = 0.0f;
    o->lower = 0.0f;
    o->upper = 0.0f;
    for (i = 0; i < 3u; i++)
        o->axis[i] = 0.0f;
    if (jd->type == COPSE_JOINT_FIXED)
        return;
    ax[0] = jd->axis.x;
    ax[1] = jd->axis.y;
    ax[2] = jd->axis.z;
    for (i = 0; i < 3u; i++) /* largest component 1 first: no overflow or underflow */
        m = geo_max(m, copse_fabsf(ax[i]));
    for (i = 0; i < 3u; i++)
        ax[i] /= m;
    n = copse_sqrtf(geo_dot3(ax, ax));
    for (i = 0; i < 3u; i++)
        o->axis[i] = ax[i] / n;
    if (jd->type == COPSE_JOINT_CONTINUOUS) {
        o->lower = -FLT_MAX;
        o->upper = FLT_MAX;
    } else {
        o->lower = jd->lower;
        o->upper = jd->upper;
    }
    if (jd->mimic >= 0) {
        o->mimic = (uint32_t)jd->mimic;
        o->multiplier = jd->multiplier;
        o->offset = jd->offset;
    } else {
        o->var = (*var)++;
    }
}

static void set_allowed(uint32_t *acm, uint32_t words, uint32_t a, uint32_t b)
{
    acm[(size_t)a * words + (b >> 5)] |= 1u << (b & 31u);
    acm[(size_t)b * words + (a >> 5)] |= 1u << (a & 31u);
}

/* Everything but the trees' arrays; returns the word where they start. */
static uint32_t lay_out_fixed(const copse_robot_desc *d, const robot_plan *p, copse_robot *r, uint32_t *data)
{
    robot_link *links = (robot_link *)(void *)data;
    robot_joint *joints = (robot_joint *)(void *)(data + ((const uint32_t *)r->joints - r->data));
    robot_shape *shapes = (robot_shape *)(void *)(data + ((const uint32_t *)r->shapes - r->data));
    uint32_t *order = data + (r->order - r->data), *acm = r->acm_writable;
    uint32_t *names = data + (r->names - r->data);
    uint32_t i, j, s = 0, tree = 0, var = 0, name_at = 0, fixed = copse__robot_fixed_words(&p->c);

    for (i = 0; i < fixed; i++)
        data[i] = 0u;
    for (i = 0; i < d->link_count; i++) {
        const copse_link_desc *l = &d->links[i];
        links[i].parent_joint = COPSE_NONE;
        links[i].name = put_name(names, &name_at, l->name);
        links[i].shape_first = s;
        links[i].sphere_count = l->sphere_count;
        links[i].capsule_count = l->capsule_count;
        links[i].tree = link_has_mesh(l) ? tree++ : COPSE_NONE;
        links[i].flags = 0u;
        links[i].padding = l->padding;
        for (j = 0; j < l->sphere_count; j++, s++) {
            shapes[s].a[0] = shapes[s].b[0] = l->spheres[j].center.x;
            shapes[s].a[1] = shapes[s].b[1] = l->spheres[j].center.y;
            shapes[s].a[2] = shapes[s].b[2] = l->spheres[j].center.z;
            shapes[s].radius = l->spheres[j].radius;
        }
        for (j = 0; j < l->capsule_count; j++, s++) {
            const copse_capsule *c = &l->capsules[j];
            shapes[s].a[0] = c->segment.a.x;
            shapes[s].a[1] = c->segment.a.y;
            shapes[s].a[2] = c->segment.a.z;
            shapes[s].b[0] = c->segment.b.x;
            shapes[s].b[1] = c->segment.b.y;
            shapes[s].b[2] = c->segment.b.z;
            shapes[s].radius = c->radius;
        }
    }
    for (j = 0; j < d->joint_count; j++) {
        put_joint(&joints[j], &d->joints[j], &var);
        joints[j].name = put_name(names, &name_at, d->joints[j].name);
        links[d->joints[j].child].parent_joint = j;
    }
    (void)joint_order(d, p->root, order);
    for (i = 0; i < d->link_count; i++)
        set_allowed(acm, r->acm_words, i, i);
    if (!(d->flags & COPSE_ROBOT_CHECK_ADJACENT))
        for (j = 0; j < d->joint_count; j++)
            set_allowed(acm, r->acm_words, d->joints[j].parent, d->joints[j].child);
    for (i = 0; i < d->allowed_count; i++)
        set_allowed(acm, r->acm_words, d->allowed[i].a, d->allowed[i].b);
    return fixed;
}

/* Builds each mesh's tree behind the worst-case layout, then appends its nodes, prims, vertices
 * and indices at `at`. Returns the layout's words, or 0 with *st set on a failure. */
static uint32_t lay_out_trees(const copse_robot_desc *d, const robot_plan *p, copse_robot *r, uint32_t *data,
                              uint32_t at, copse_status *st)
{
    robot_link *links = (robot_link *)(void *)data;
    robot_tree *trees = (robot_tree *)(void *)(data + ((const uint32_t *)r->trees - r->data));
    copse_arena sub;
    uint32_t i, k, tree = 0;
    copse_arena_init(&sub, (uint8_t *)data + round8(p->worst_words * 4u), p->scratch);
    for (i = 0; i < d->link_count; i++) {
        const copse_link_desc *l = &d->links[i];
        copse_mesh norm;
        copse_bvh bvh;
        robot_tree *t = &trees[tree];
        if (!link_has_mesh(l))
            continue;
        (void)check_mesh(l->mesh, &d->tree_params, &norm); /* the stride normalised */
        *st = copse_bvh_build_mesh(&bvh, &sub, &norm, &d->tree_params);
        if (*st != COPSE_OK)
            return 0u;
        t->link = i;
        t->depth = bvh.depth;
        t->degenerate_count = bvh.degenerate_count;
        t->nodes = at;
        t->node_count = bvh.node_count;
        copy_words(data + at, bvh.nodes, (size_t)bvh.node_count * ROBOT_NODE_WORDS);
        at += bvh.node_count * ROBOT_NODE_WORDS;
        t->prims = at;
        t->prim_count = bvh.prim_count;
        copy_words(data + at, bvh.prims, bvh.prim_count);
        at += bvh.prim_count;
        t->positions = at;
        t->vertex_count = norm.vertex_count;
        for (k = 0; k < norm.vertex_count; k++)
            copy_words(data + at + 3u * k, bvh_mesh_vertex(&norm, k), 3u);
        at += 3u * norm.vertex_count;
        t->indices = at;
        t->triangle_count = norm.triangle_count;
        for (k = 0; k < norm.triangle_count; k++)
            bvh_mesh_triangle(&norm, k, data + at + 3u * k);
        at += 3u * norm.triangle_count;
        copse_arena_rewind(&sub, 0u);
        if (copse__robot_shapes_bound(r, &links[i], t))
            links[i].flags |= ROBOT_LINK_SHAPES_BOUND;
        tree++;
    }
    return at;
}

size_t copse_robot_build_bytes(const copse_robot_desc *desc)
{
    robot_plan p;
    __builtin_memset(&p, 0, sizeof p);
    return plan_robot(desc, &p) == COPSE_OK ? p.peak : (size_t)-1;
}

copse_status copse_robot_build(copse_robot *robot, copse_arena *arena, const copse_robot_desc *desc)
{
    robot_plan p;
    copse_status st = COPSE_OK;
    size_t mark;
    uint32_t *data, words;
    if (robot == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(robot, 0, sizeof *robot);
    robot->read_only = false;
    if (arena == NULL)
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    __builtin_memset(&p, 0, sizeof p);
    st = plan_robot(desc, &p);
    if (st != COPSE_OK)
        return st;
    if (!copse_arena_reserve_check(arena, p.peak))
        return COPSE_ERR_NOMEM;
    mark = copse_arena_mark(arena);
    data = (uint32_t *)copse_arena_alloc(arena, p.peak);
    copse__robot_point(robot, data, 0u, &p.c, data);
    words = lay_out_fixed(desc, &p, robot, data);
    words = lay_out_trees(desc, &p, robot, data, words, &st);
    if (st != COPSE_OK) {
        copse_arena_rewind(arena, mark);
        __builtin_memset(robot, 0, sizeof *robot);
        return st;
    }
    copse_arena_rewind(arena, mark + round8((uint64_t)words * 4u));
    robot->bytes = (size_t)words * 4u;
    robot->reach = copse__robot_reach(robot);
    return COPSE_OK;
}

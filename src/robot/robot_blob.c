/* SPDX-License-Identifier: MIT */
/*
 * Saving a robot as a blob and viewing one in place (docs/format.md, "Robot"): one section, the
 * layout itself. A view checks all of it before the robot is used -- every count, offset and
 * index in range, the joints one tree, every float finite, each link mesh's BVH with the BVH's
 * own check, the ACM symmetric -- and the layout canonical (what a build makes), so a damaged
 * blob is refused rather than queried.
 */
#include "robot_internal.h"
#include "../blob/blob_internal.h"
#include "../bvh/bvh_internal.h"

/* Tree information (header bytes 32..63), u32 each. */
#define RI_LINKS 0u
#define RI_JOINTS 4u
#define RI_DOF 8u
#define RI_TREES 12u
#define RI_SHAPES 16u
#define RI_NAMES 20u
#define RI_WORDS 24u
#define RI_USED 28u /* 28..31 reserved, zero */

static uint32_t info_u32(const copse_blob_info *info, uint32_t at)
{
    return blob_get_u32(info->tree + at);
}

static bool finite_n(const float *v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        if (!geo_finite(v[i]))
            return false;
    return true;
}

static bool same_bits(float a, float b)
{
    uint32_t x, y;
    __builtin_memcpy(&x, &a, sizeof x);
    __builtin_memcpy(&y, &b, sizeof y);
    return x == y;
}

/* Names in canonical order (links', then joints'), each where the previous ended: at offset
 * `off` a name of 1..NAME_MAX bytes, none 0, the rest of its last word 0. */
static copse_status check_name(const copse_robot *r, uint32_t off, uint32_t *at, uint32_t names_words)
{
    uint32_t n, k, words;
    if (off == COPSE_NONE)
        return COPSE_OK;
    if (off != *at || off >= names_words)
        return COPSE_ERR_BLOB_SECTION;
    n = r->names[off];
    if (n == 0u || n > COPSE_ROBOT_NAME_MAX)
        return COPSE_ERR_BLOB_HEADER;
    words = 1u + (n + 3u) / 4u;
    if (words > names_words - off)
        return COPSE_ERR_BLOB_SECTION;
    for (k = 0; k < 4u * (words - 1u); k++)
        if ((robot_name_char(r, off, k) == '\0') != (k >= n))
            return COPSE_ERR_BLOB_HEADER;
    *at += words;
    return COPSE_OK;
}

static copse_status check_links(const copse_robot *r, const robot_counts *c, uint32_t *root)
{
    uint32_t i, shapes = 0, trees = 0, roots = 0;
    for (i = 0; i < r->link_count; i++) {
        const robot_link *l = robot_link_at(r, i);
        if (l->parent_joint == COPSE_NONE) {
            *root = i;
            roots++;
        } else if (l->parent_joint >= r->joint_count || robot_joint_at(r, l->parent_joint)->child != i) {
            return COPSE_ERR_BLOB_NODE;
        }
        if (l->shape_first != shapes || l->sphere_count > COPSE_ROBOT_MAX_SHAPES ||
            l->capsule_count > COPSE_ROBOT_MAX_SHAPES - l->sphere_count || (l->flags & ~ROBOT_LINK_SHAPES_BOUND) != 0u ||
            (l->tree != COPSE_NONE && l->tree != trees))
            return COPSE_ERR_BLOB_NODE;
        shapes += l->sphere_count + l->capsule_count;
        if (shapes > c->shape_count)
            return COPSE_ERR_BLOB_NODE;
        trees += l->tree != COPSE_NONE ? 1u : 0u;
        if (!geo_finite(l->padding) || l->padding < 0.0f)
            return COPSE_ERR_BLOB_BOUNDS;
    }
    return (roots != 1u || shapes != c->shape_count || trees != c->tree_count) ? COPSE_ERR_BLOB_NODE : COPSE_OK;
}

static copse_status check_joint(const copse_robot *r, uint32_t j, uint32_t *vars)
{
    const robot_joint *jt = robot_joint_at(r, j);
    copse_pose origin;
    unsigned i, k;
    float n;
    if (jt->type > (uint32_t)COPSE_JOINT_PRISMATIC || jt->parent >= r->link_count || jt->child >= r->link_count ||
        jt->parent == jt->child || robot_link_at(r, jt->child)->parent_joint != j)
        return COPSE_ERR_BLOB_NODE;
    for (i = 0; i < 3u; i++)
        for (k = 0; k < 3u; k++)
            origin.rotation[i][k] = jt->rotation[3u * i + k];
    origin.translation = copse_v3(jt->translation[0], jt->translation[1], jt->translation[2]);
    if (copse_pose_check(&origin) != COPSE_OK || !finite_n(jt->axis, 3u) || !geo_finite(jt->multiplier) ||
        !geo_finite(jt->offset))
        return COPSE_ERR_BLOB_BOUNDS;
    if (jt->type == COPSE_JOINT_FIXED) {
        if (jt->var != COPSE_NONE || jt->mimic != COPSE_NONE || jt->axis[0] != 0.0f || jt->axis[1] != 0.0f ||
            jt->axis[2] != 0.0f || !same_bits(jt->lower, 0.0f) || !same_bits(jt->upper, 0.0f) ||
            !same_bits(jt->multiplier, 1.0f) || !same_bits(jt->offset, 0.0f))
            return COPSE_ERR_BLOB_NODE;
        return COPSE_OK;
    }
    n = geo_dot3(jt->axis, jt->axis);
    if (!(n >= 1.0f - 1e-5f && n <= 1.0f + 1e-5f))
        return COPSE_ERR_BLOB_BOUNDS;
    if (jt->type == COPSE_JOINT_CONTINUOUS ? !(jt->lower == -FLT_MAX && jt->upper == FLT_MAX)
                                           : !(geo_finite(jt->lower) && geo_finite(jt->upper) && jt->lower <= jt->upper))
        return COPSE_ERR_BLOB_BOUNDS;
    if (jt->mimic == COPSE_NONE) {
        if (jt->var != (*vars)++ || !same_bits(jt->multiplier, 1.0f) || !same_bits(jt->offset, 0.0f))
            return COPSE_ERR_BLOB_NODE;
        return COPSE_OK;
    }
    if (jt->var != COPSE_NONE || jt->mimic >= r->joint_count || jt->mimic == j ||
        robot_joint_at(r, jt->mimic)->type == COPSE_JOINT_FIXED || robot_joint_at(r, jt->mimic)->mimic != COPSE_NONE)
        return COPSE_ERR_BLOB_NODE;
    return COPSE_OK;
}

/* order[] a permutation of the joints, each after the one placing its parent link. */
static copse_status check_order(const copse_robot *r, uint32_t root)
{
    uint8_t placed[COPSE_ROBOT_MAX_LINKS], used[COPSE_ROBOT_MAX_LINKS];
    uint32_t i;
    for (i = 0; i < COPSE_ROBOT_MAX_LINKS; i++)
        placed[i] = used[i] = 0u;
    placed[root] = 1u;
    for (i = 0; i < r->joint_count; i++) {
        uint32_t j = r->order[i];
        const robot_joint *jt;
        if (j >= r->joint_count || used[j])
            return COPSE_ERR_BLOB_NODE;
        jt = robot_joint_at(r, j);
        if (!placed[jt->parent] || placed[jt->child])
            return COPSE_ERR_BLOB_NODE;
        used[j] = 1u;
        placed[jt->child] = 1u;
    }
    return COPSE_OK;
}

static copse_status check_shapes(const copse_robot *r, const robot_counts *c)
{
    uint32_t i, s;
    for (i = 0; i < r->link_count; i++) {
        const robot_link *l = robot_link_at(r, i);
        for (s = 0; s < l->sphere_count + l->capsule_count; s++) {
            const robot_shape *sh = robot_shape_at(r, l->shape_first + s);
            if (!finite_n(sh->a, 3u) || !finite_n(sh->b, 3u) || !geo_finite(sh->radius) || sh->radius < 0.0f)
                return COPSE_ERR_BLOB_BOUNDS;
            if (s < l->sphere_count &&
                (!same_bits(sh->a[0], sh->b[0]) || !same_bits(sh->a[1], sh->b[1]) || !same_bits(sh->a[2], sh->b[2])))
                return COPSE_ERR_BLOB_NODE;
        }
    }
    (void)c;
    return COPSE_OK;
}

/* One array of `count` records of `size` words at `off`: where the previous ended. */
static bool place(uint32_t off, uint64_t count, uint32_t size, uint64_t *at, uint32_t words)
{
    uint64_t end = *at + count * size;
    if (off != *at || end > words)
        return false;
    *at = end;
    return true;
}

static copse_status bvh_status(copse_status st)
{
    if (st == COPSE_OK || st == COPSE_ERR_TOO_DEEP)
        return st;
    return st == COPSE_ERR_NONFINITE || st == COPSE_ERR_PARAM ? COPSE_ERR_BLOB_BOUNDS : COPSE_ERR_BLOB_NODE;
}

static copse_status check_tree(const copse_robot *r, uint32_t t, uint64_t *at, uint32_t words)
{
    const robot_tree *tr = robot_tree_at(r, t);
    const float *pos;
    uint32_t i, k, degenerate = 0;
    copse_bvh bvh;
    if (tr->link >= r->link_count || robot_link_at(r, tr->link)->tree != t)
        return COPSE_ERR_BLOB_NODE;
    if (tr->triangle_count == 0u || tr->triangle_count > COPSE_BVH_MAX_PRIMS || tr->prim_count != tr->triangle_count ||
        tr->node_count > 2u * tr->prim_count || tr->degenerate_count > tr->triangle_count)
        return COPSE_ERR_BLOB_HEADER;
    if (tr->depth == 0u || tr->depth > COPSE_BVH_MAX_DEPTH)
        return COPSE_ERR_BLOB_DEPTH;
    if (!place(tr->nodes, tr->node_count, ROBOT_NODE_WORDS, at, words) || !place(tr->prims, tr->prim_count, 1u, at, words) ||
        !place(tr->positions, tr->vertex_count, 3u, at, words) || !place(tr->indices, tr->triangle_count, 3u, at, words))
        return COPSE_ERR_BLOB_SECTION;
    pos = (const float *)(const void *)(r->data + tr->positions);
    if (!finite_n(pos, 3u * tr->vertex_count))
        return COPSE_ERR_BLOB_BOUNDS;
    for (i = 0; i < tr->triangle_count; i++) {
        const uint32_t *idx = r->data + tr->indices + 3u * i;
        float e1[3], e2[3], n[3];
        for (k = 0; k < 3u; k++)
            if (idx[k] >= tr->vertex_count)
                return COPSE_ERR_BLOB_PRIM;
        geo_sub3(e1, pos + 3u * idx[1], pos + 3u * idx[0]);
        geo_sub3(e2, pos + 3u * idx[2], pos + 3u * idx[0]);
        geo_cross3(n, e1, e2);
        degenerate += (n[0] == 0.0f && n[1] == 0.0f && n[2] == 0.0f) ? 1u : 0u;
    }
    if (degenerate != tr->degenerate_count)
        return COPSE_ERR_BLOB_PRIM;
    copse__robot_tree_view(r, t, &bvh);
    return bvh_status(copse_bvh_check(&bvh));
}

static copse_status check_acm(const copse_robot *r)
{
    uint32_t a, b;
    for (a = 0; a < r->link_count; a++) {
        for (b = r->link_count; b < 32u * r->acm_words; b++) /* bits past the last link: zero */
            if ((r->acm[(size_t)a * r->acm_words + (b >> 5)] >> (b & 31u)) & 1u)
                return COPSE_ERR_BLOB_NODE;
        for (b = 0; b < r->link_count; b++)
            if (robot_acm_get(r, a, b) != robot_acm_get(r, b, a) || (a == b && !robot_acm_get(r, a, a)))
                return COPSE_ERR_BLOB_NODE;
    }
    return COPSE_OK;
}

/* The SHAPES_BOUND flags are what a build computes (robot_build.c). */
static copse_status check_flags(const copse_robot *r)
{
    uint32_t i;
    for (i = 0; i < r->link_count; i++) {
        const robot_link *l = robot_link_at(r, i);
        bool bound = l->tree != COPSE_NONE && copse__robot_shapes_bound(r, l, robot_tree_at(r, l->tree));
        if (bound != ((l->flags & ROBOT_LINK_SHAPES_BOUND) != 0u))
            return COPSE_ERR_BLOB_NODE;
    }
    return COPSE_OK;
}

/* All of a layout of `words` words, robot pointing into it. */
static copse_status check_layout(const copse_robot *r, const robot_counts *c, uint32_t words)
{
    uint32_t root = 0, vars = 0, i, name_at = 0;
    uint64_t at = copse__robot_fixed_words(c);
    copse_status st = check_links(r, c, &root);
    for (i = 0; i < r->joint_count && st == COPSE_OK; i++)
        st = check_joint(r, i, &vars);
    if (st == COPSE_OK && vars != c->dof)
        st = COPSE_ERR_BLOB_HEADER;
    if (st == COPSE_OK)
        st = check_order(r, root);
    if (st == COPSE_OK)
        st = check_shapes(r, c);
    for (i = 0; i < r->link_count && st == COPSE_OK; i++)
        st = check_name(r, robot_link_at(r, i)->name, &name_at, c->names_words);
    for (i = 0; i < r->joint_count && st == COPSE_OK; i++)
        st = check_name(r, robot_joint_at(r, i)->name, &name_at, c->names_words);
    if (st == COPSE_OK && name_at != c->names_words)
        st = COPSE_ERR_BLOB_SECTION;
    if (st == COPSE_OK)
        st = check_acm(r);
    for (i = 0; i < c->tree_count && st == COPSE_OK; i++)
        st = check_tree(r, i, &at, words);
    if (st == COPSE_OK && at != words)
        st = COPSE_ERR_BLOB_SECTION;
    if (st == COPSE_OK)
        st = check_flags(r);
    return st;
}

/* The counts of a robot as the blob records them; false when they cannot be a robot's. */
static bool counts_ok(const robot_counts *c, uint32_t words)
{
    uint32_t fixed;
    if (c->link_count == 0u || c->link_count > COPSE_ROBOT_MAX_LINKS || c->joint_count != c->link_count - 1u ||
        c->dof > c->joint_count || c->tree_count > c->link_count ||
        c->shape_count > c->link_count * COPSE_ROBOT_MAX_SHAPES ||
        c->names_words > (c->link_count + c->joint_count) * (1u + (COPSE_ROBOT_NAME_MAX + 3u) / 4u))
        return false;
    fixed = copse__robot_fixed_words(c);
    return fixed <= words && words <= 0x3FFFFF00u;
}

static void counts_of(const copse_robot *r, robot_counts *c)
{
    c->link_count = r->link_count;
    c->joint_count = r->joint_count;
    c->dof = r->dof;
    c->tree_count = r->tree_count;
    c->shape_count = 0;
    c->names_words = 0;
    if (r->shapes != NULL && r->trees != NULL)
        c->shape_count = (uint32_t)(((const uint32_t *)r->trees - (const uint32_t *)r->shapes) / ROBOT_SHAPE_WORDS);
    if (r->names != NULL && r->tree_count > 0u)
        c->names_words = robot_tree_at(r, 0)->nodes - (uint32_t)(r->names - r->data);
    else if (r->names != NULL)
        c->names_words = (uint32_t)(r->bytes / 4u) - (uint32_t)(r->names - r->data);
}

/* The robot's counts, checked against its layout as a view would. */
static copse_status robot_ok(const copse_robot *r, robot_counts *c)
{
    copse_robot p;
    if (r->data == NULL || r->bytes % 4u != 0u || r->bytes / 4u > 0x3FFFFF00u)
        return COPSE_ERR_PARAM;
    counts_of(r, c);
    if (!counts_ok(c, (uint32_t)(r->bytes / 4u)))
        return COPSE_ERR_PARAM;
    copse__robot_point(&p, r->data, r->bytes, c, NULL);
    if (p.names != r->names || p.acm != r->acm)
        return COPSE_ERR_PARAM;
    return check_layout(&p, c, (uint32_t)(r->bytes / 4u));
}

size_t copse_robot_save_bytes(const copse_robot *robot)
{
    blob_words sec;
    if (robot == NULL || robot->data == NULL)
        return 0;
    sec.data = robot->data;
    sec.bytes = robot->bytes;
    return copse__blob_words_size(1u, &sec);
}

copse_status copse_robot_save(const copse_robot *robot, void *buf, size_t cap, size_t *written)
{
    blob_words sec;
    robot_counts c;
    uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES];
    float bounds[6];
    uint32_t i;
    copse_status st;
    if (written != NULL)
        *written = 0;
    if (robot == NULL || (buf == NULL && cap > 0))
        return COPSE_ERR_NULL;
    st = robot_ok(robot, &c); /* never write a blob that would not view */
    if (st != COPSE_OK)
        return st;
    for (i = 0; i < COPSE_BLOB_TREE_INFO_BYTES; i++)
        tree[i] = 0u;
    for (i = 0; i < 6u; i++)
        bounds[i] = 0.0f; /* the links move: no fixed bounds */
    blob_put_u32(tree + RI_LINKS, c.link_count);
    blob_put_u32(tree + RI_JOINTS, c.joint_count);
    blob_put_u32(tree + RI_DOF, c.dof);
    blob_put_u32(tree + RI_TREES, c.tree_count);
    blob_put_u32(tree + RI_SHAPES, c.shape_count);
    blob_put_u32(tree + RI_NAMES, c.names_words);
    blob_put_u32(tree + RI_WORDS, (uint32_t)(robot->bytes / 4u));
    sec.data = robot->data;
    sec.bytes = robot->bytes;
    return copse__blob_save_words(COPSE_BLOB_ROBOT, tree, bounds, 1u, &sec, buf, cap, written);
}

copse_status copse_robot_view(copse_robot *robot, const void *blob, size_t len)
{
    copse_blob_info info;
    robot_counts c;
    copse_robot r;
    uint64_t size;
    uint32_t words, i;
    copse_status st;
    if (robot == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(robot, 0, sizeof *robot);
    st = copse__blob_view_open(blob, len, COPSE_BLOB_ROBOT, &info);
    if (st != COPSE_OK)
        return st;
    c.link_count = info_u32(&info, RI_LINKS);
    c.joint_count = info_u32(&info, RI_JOINTS);
    c.dof = info_u32(&info, RI_DOF);
    c.tree_count = info_u32(&info, RI_TREES);
    c.shape_count = info_u32(&info, RI_SHAPES);
    c.names_words = info_u32(&info, RI_NAMES);
    words = info_u32(&info, RI_WORDS);
    if (info.flags != 0u || !blob_tree_reserved_zero(&info, RI_USED) || !counts_ok(&c, words))
        return COPSE_ERR_BLOB_HEADER;
    for (i = 0; i < 6u; i++)
        if (!same_bits(info.bounds[i], 0.0f))
            return COPSE_ERR_BLOB_BOUNDS;
    size = (uint64_t)words * 4u;
    st = copse__blob_view_sections(&info, 1u, &size);
    if (st != COPSE_OK)
        return st;
    copse__robot_point(&r, (const uint32_t *)blob_section_data(blob, &info, 0), (size_t)size, &c, NULL);
    st = check_layout(&r, &c, words);
    if (st == COPSE_OK) {
        r.reach = copse__robot_reach(&r);
        *robot = r;
    }
    return st;
}

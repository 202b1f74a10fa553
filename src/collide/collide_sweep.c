/* SPDX-License-Identifier: MIT */
/*
 * Sweeps: a sphere, capsule or oriented box moved by a translation against a mesh tree or a
 * scan, the time of first contact.
 *
 * Both walks are ordered by the time the shape's bounding box, moving along the motion, enters
 * a node (a slab test of its centre's path against the node grown by its half extents): the
 * earliest node first, and nodes entered after the best contact so far are dropped. At the
 * leaves the kernels of src/geom/sweep.c give each primitive's exact first contact.
 */
#include "collide_internal.h"

typedef struct sweep_walk {
    const cl_shape *s;
    float v[3];         /* the motion */
    geo_ray path;       /* the centre of the shape's bounds along the motion, t in [0, 1] */
    float ext[3];       /* half extents of the shape's bounds (slack included) */
    float sweep_lo[3], sweep_hi[3]; /* the bounds of the whole swept volume */
    float best_t;
    uint32_t best_id;
    float point[3], normal[3];
} sweep_walk;

static copse_status sweep_start(sweep_walk *w, const cl_shape *s, copse_vec3 motion)
{
    float c[3];
    unsigned k;
    cl_vec3_in(w->v, motion);
    if (!geo_finite(w->v[0]) || !geo_finite(w->v[1]) || !geo_finite(w->v[2]))
        return COPSE_ERR_NONFINITE;
    w->s = s;
    for (k = 0; k < 3; k++) {
        c[k] = s->lo[k] * 0.5f + s->hi[k] * 0.5f;
        w->ext[k] = s->hi[k] * 0.5f - s->lo[k] * 0.5f + s->slack;
        w->sweep_lo[k] = geo_min(s->lo[k], s->lo[k] + w->v[k]) - s->slack;
        w->sweep_hi[k] = geo_max(s->hi[k], s->hi[k] + w->v[k]) + s->slack;
        w->point[k] = w->normal[k] = 0.0f;
    }
    geo_ray_init(&w->path, c, w->v, 1.0f, 3);
    w->best_t = 1.0f;
    w->best_id = COPSE_NONE;
    return COPSE_OK;
}

/* When the moving bounds first meet the box [mn, mx]; +inf when never within [0, 1]. */
COPSE_INLINE float sweep_key(const sweep_walk *w, const float *mn, const float *mx)
{
    float gmn[3], gmx[3], t;
    unsigned k;
    for (k = 0; k < 3; k++) {
        gmn[k] = mn[k] - w->ext[k];
        gmx[k] = mx[k] + w->ext[k];
    }
    if (!geo_ray_box(&w->path, gmn, gmx, 0.0f, 1.0f, 3, true, &t))
        return FLT_MAX * 2.0f;
    return t;
}

/* Keeps a contact when earlier than the best (ties: the lower id). */
COPSE_INLINE void sweep_offer(sweep_walk *w, float t, uint32_t id, const float *point, const float *normal)
{
    unsigned k;
    if (t > w->best_t || (t == w->best_t && w->best_id != COPSE_NONE && id >= w->best_id))
        return;
    w->best_t = t;
    w->best_id = id;
    for (k = 0; k < 3; k++) {
        w->point[k] = point[k];
        w->normal[k] = normal[k];
    }
}

COPSE_INLINE bool sweep_triangle(const sweep_walk *w, cl_kind kind, const float *const tri[3], float *t, float *point,
                                 float *normal)
{
    const cl_shape *s = w->s;
    if (kind == CL_SPHERE)
        return copse_geo_sweep_sphere_triangle(s->v[0], s->radius, w->v, tri, w->best_t, t, point, normal);
    if (kind == CL_CAPSULE)
        return copse_geo_sweep_capsule_triangle(s->v[0], s->v[1], s->radius, w->v, tri, w->best_t, t, point,
                                                normal);
    return copse_geo_sweep_box_triangle(s->c, s->r, s->h, w->v, tri, w->best_t, t, point, normal);
}

COPSE_INLINE bool sweep_point(const sweep_walk *w, cl_kind kind, const float *p, float *t, float *normal)
{
    const cl_shape *s = w->s;
    if (kind == CL_SPHERE)
        return copse_geo_sweep_sphere_point(s->v[0], s->radius, w->v, p, w->best_t, t, normal);
    if (kind == CL_CAPSULE)
        return copse_geo_sweep_capsule_point(s->v[0], s->v[1], s->radius, w->v, p, w->best_t, t, normal);
    return copse_geo_sweep_box_point(s->c, s->r, s->h, w->v, p, w->best_t, t, normal);
}

static void sweep_hit_empty(copse_sweep_hit *hit)
{
    hit->t = 1.0f;
    hit->id = COPSE_NONE;
    hit->started_in_contact = false;
    hit->point = copse_v3(0.0f, 0.0f, 0.0f);
    hit->normal = hit->point;
}

static void sweep_finish(const sweep_walk *w, copse_sweep_hit *hit)
{
    sweep_hit_empty(hit);
    if (w->best_id == COPSE_NONE)
        return;
    hit->t = w->best_t;
    hit->id = w->best_id;
    hit->started_in_contact = w->best_t == 0.0f;
    hit->point = cl_vec3_out(w->point);
    hit->normal = cl_vec3_out(w->normal);
}

/* ---- against a mesh tree ------------------------------------------------------------------------- */

COPSE_INLINE void bvh_sweep_walk(const copse_bvh *t, sweep_walk *w, cl_kind kind)
{
    const void *nodes = t->nodes;
    trav_entry stack[COPSE_BVH_MAX_DEPTH + 1u];
    uint32_t sp = 0, node = 0;
    if (!(sweep_key(w, bvh_node_min(nodes, 0, 3), bvh_node_max(nodes, 0, 3)) <= w->best_t))
        return;
    for (;;) {
        int32_t index = bvh_node_index(nodes, node, 3);
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(nodes, node, 3);
            for (k = 0; k < count; k++) {
                uint32_t prim = t->prims[(uint32_t)index + k];
                const float *v[3];
                float mn[3], mx[3], th, p[3], n[3];
                unsigned a;
                cl_tree_triangle(t, prim, v);
                for (a = 0; a < 3; a++) {
                    mn[a] = geo_min(v[0][a], geo_min(v[1][a], v[2][a]));
                    mx[a] = geo_max(v[0][a], geo_max(v[1][a], v[2][a]));
                }
                if (geo_box_overlap(mn, mx, w->sweep_lo, w->sweep_hi, 3) && sweep_key(w, mn, mx) <= w->best_t &&
                    sweep_triangle(w, kind, v, &th, p, n))
                    sweep_offer(w, th, bvh_prim_id(t, prim), p, n);
            }
        } else {
            uint32_t left = node + 1u, right = bvh_node_right(nodes, node, 3);
            float tl = sweep_key(w, bvh_node_min(nodes, left, 3), bvh_node_max(nodes, left, 3));
            float tr = sweep_key(w, bvh_node_min(nodes, right, 3), bvh_node_max(nodes, right, 3));
            if (ordered_descend(stack, &sp, &node, left, right, tl <= w->best_t, tr <= w->best_t, tl, tr))
                continue;
        }
        if (!ordered_pop(stack, &sp, &node, w->best_t))
            return;
    }
}

static void bvh_sweep_sphere(const copse_bvh *t, sweep_walk *w)
{
    bvh_sweep_walk(t, w, CL_SPHERE);
}
static void bvh_sweep_capsule(const copse_bvh *t, sweep_walk *w)
{
    bvh_sweep_walk(t, w, CL_CAPSULE);
}
static void bvh_sweep_obb(const copse_bvh *t, sweep_walk *w)
{
    bvh_sweep_walk(t, w, CL_OBB);
}

COPSE_INLINE copse_status sweep_bvh(const copse_bvh *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                                    copse_vec3 motion, copse_sweep_hit *hit)
{
    cl_shape s;
    sweep_walk w;
    copse_status st;
    if (hit == NULL)
        return COPSE_ERR_NULL;
    sweep_hit_empty(hit);
    st = copse__collide_mesh_tree(tree);
    if (st == COPSE_OK)
        st = cl_prepare(&s, kind, shape, pose, copse__collide_bvh_mag(tree));
    if (st == COPSE_OK)
        st = sweep_start(&w, &s, motion);
    if (st != COPSE_OK)
        return st;
    if (tree->node_count > 0u) {
        if (kind == CL_SPHERE)
            bvh_sweep_sphere(tree, &w);
        else if (kind == CL_CAPSULE)
            bvh_sweep_capsule(tree, &w);
        else
            bvh_sweep_obb(tree, &w);
    }
    sweep_finish(&w, hit);
    return COPSE_OK;
}

copse_status copse_sweep_sphere_bvh(const copse_sphere *sphere, const copse_pose *pose, copse_vec3 motion,
                                    const copse_bvh *tree, copse_sweep_hit *hit)
{
    return sweep_bvh(tree, CL_SPHERE, sphere, pose, motion, hit);
}

copse_status copse_sweep_capsule_bvh(const copse_capsule *capsule, const copse_pose *pose, copse_vec3 motion,
                                     const copse_bvh *tree, copse_sweep_hit *hit)
{
    return sweep_bvh(tree, CL_CAPSULE, capsule, pose, motion, hit);
}

copse_status copse_sweep_obb_bvh(const copse_obb *obb, const copse_pose *pose, copse_vec3 motion,
                                 const copse_bvh *tree, copse_sweep_hit *hit)
{
    return sweep_bvh(tree, CL_OBB, obb, pose, motion, hit);
}

/* ---- against a scan ---------------------------------------------------------------------------------- */

static float oct_key(const void *c, const float *mn, const float *mx)
{
    return sweep_key((const sweep_walk *)c, mn, mx);
}

static float oct_bound(const void *c)
{
    return ((const sweep_walk *)c)->best_t;
}

static bool oct_done(const void *c)
{
    return ((const sweep_walk *)c)->best_t == 0.0f && ((const sweep_walk *)c)->best_id == 0u;
}

COPSE_INLINE void oct_sweep_leaf(sweep_walk *w, const copse_octree *t, const copse_octree_node *node, cl_kind kind)
{
    oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
    uint32_t k;
    while (oct_leaf_next(t, &it)) {
        for (k = 0; k < it.count; k++) {
            uint32_t idx = it.slots[k];
            float p[3], th, n[3];
            p[0] = t->points[idx].x;
            p[1] = t->points[idx].y;
            p[2] = t->points[idx].z;
            if (p[0] < w->sweep_lo[0] || p[0] > w->sweep_hi[0] || p[1] < w->sweep_lo[1] ||
                p[1] > w->sweep_hi[1] || p[2] < w->sweep_lo[2] || p[2] > w->sweep_hi[2])
                continue;
            if (sweep_point(w, kind, p, &th, n))
                sweep_offer(w, th, oct_point_id(t, idx), p, n);
        }
    }
}

static void oct_leaf_sphere(void *c, const copse_octree *t, const copse_octree_node *node)
{
    oct_sweep_leaf((sweep_walk *)c, t, node, CL_SPHERE);
}
static void oct_leaf_capsule(void *c, const copse_octree *t, const copse_octree_node *node)
{
    oct_sweep_leaf((sweep_walk *)c, t, node, CL_CAPSULE);
}
static void oct_leaf_obb(void *c, const copse_octree *t, const copse_octree_node *node)
{
    oct_sweep_leaf((sweep_walk *)c, t, node, CL_OBB);
}

static void oct_sweep_sphere(const copse_octree *t, sweep_walk *w)
{
    cl_octree_ordered_walk(t, w, oct_key, oct_leaf_sphere, oct_bound, oct_done);
}
static void oct_sweep_capsule(const copse_octree *t, sweep_walk *w)
{
    cl_octree_ordered_walk(t, w, oct_key, oct_leaf_capsule, oct_bound, oct_done);
}
static void oct_sweep_obb(const copse_octree *t, sweep_walk *w)
{
    cl_octree_ordered_walk(t, w, oct_key, oct_leaf_obb, oct_bound, oct_done);
}

COPSE_INLINE copse_status sweep_octree(const copse_octree *tree, cl_kind kind, const void *shape,
                                       const copse_pose *pose, copse_vec3 motion, copse_sweep_hit *hit)
{
    cl_shape s;
    sweep_walk w;
    copse_status st;
    if (hit == NULL)
        return COPSE_ERR_NULL;
    sweep_hit_empty(hit);
    if (tree == NULL)
        return COPSE_ERR_NULL;
    st = cl_prepare(&s, kind, shape, pose, copse__collide_octree_mag(tree));
    if (st == COPSE_OK)
        st = sweep_start(&w, &s, motion);
    if (st != COPSE_OK)
        return st;
    if (kind == CL_SPHERE)
        oct_sweep_sphere(tree, &w);
    else if (kind == CL_CAPSULE)
        oct_sweep_capsule(tree, &w);
    else
        oct_sweep_obb(tree, &w);
    sweep_finish(&w, hit);
    return COPSE_OK;
}

copse_status copse_sweep_sphere_octree(const copse_sphere *sphere, const copse_pose *pose, copse_vec3 motion,
                                       const copse_octree *tree, copse_sweep_hit *hit)
{
    return sweep_octree(tree, CL_SPHERE, sphere, pose, motion, hit);
}

copse_status copse_sweep_capsule_octree(const copse_capsule *capsule, const copse_pose *pose, copse_vec3 motion,
                                        const copse_octree *tree, copse_sweep_hit *hit)
{
    return sweep_octree(tree, CL_CAPSULE, capsule, pose, motion, hit);
}

copse_status copse_sweep_obb_octree(const copse_obb *obb, const copse_pose *pose, copse_vec3 motion,
                                    const copse_octree *tree, copse_sweep_hit *hit)
{
    return sweep_octree(tree, CL_OBB, obb, pose, motion, hit);
}

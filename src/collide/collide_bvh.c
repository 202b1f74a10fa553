/* SPDX-License-Identifier: MIT */
/*
 * Posed shapes against a BVH over a triangle mesh: any, overlap, visit and distance.
 *
 * Overlaps take the stackless escape-index walk of the BVH's own overlap queries; distances the
 * ordered walk of its nearest query (nearer child first, the other waiting with its lower
 * bound). Each walk is written once and inlined per shape, so a firmware that asks about one
 * shape links that shape's tests only.
 */
#include "collide_internal.h"

/* The triangle's bounds, for a cheap rejection before the exact test. */
COPSE_INLINE void tri_bounds(const float *const v[3], float *mn, float *mx)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        mn[k] = geo_min(v[0][k], geo_min(v[1][k], v[2][k]));
        mx[k] = geo_max(v[0][k], geo_max(v[1][k], v[2][k]));
    }
}

/* ---- overlap ------------------------------------------------------------------------------------ */

COPSE_INLINE void overlap_walk(const copse_bvh *t, const cl_shape *s, cl_kind kind, id_emitter *e)
{
    const void *nodes = t->nodes;
    const uint32_t n = t->node_count;
    uint32_t i = 0;
    while (i < n) {
        const float *mn = bvh_node_min(nodes, i, 3), *mx = bvh_node_max(nodes, i, 3);
        bool hit = cl_node_touch(s, kind, mn, mx);
        int32_t index = bvh_node_index(nodes, i, 3);
        if (index >= 0) {
            if (hit) {
                uint32_t k, count = bvh_node_count(nodes, i, 3);
                for (k = 0; k < count; k++) {
                    uint32_t prim = t->prims[(uint32_t)index + k];
                    const float *v[3];
                    float tmn[3], tmx[3];
                    cl_tree_triangle(t, prim, v);
                    tri_bounds(v, tmn, tmx);
                    if (geo_box_overlap(s->lo, s->hi, tmn, tmx, 3) && cl_touch_triangle(s, kind, v) &&
                        !id_emit(e, bvh_prim_id(t, prim)))
                        return;
                }
            }
            i++;
        } else {
            i += hit ? 1u : (uint32_t)(-(int64_t)index);
        }
    }
}

static void overlap_sphere(const copse_bvh *t, const cl_shape *s, id_emitter *e)
{
    overlap_walk(t, s, CL_SPHERE, e);
}
static void overlap_capsule(const copse_bvh *t, const cl_shape *s, id_emitter *e)
{
    overlap_walk(t, s, CL_CAPSULE, e);
}
static void overlap_obb(const copse_bvh *t, const cl_shape *s, id_emitter *e)
{
    overlap_walk(t, s, CL_OBB, e);
}
static void overlap_triangle(const copse_bvh *t, const cl_shape *s, id_emitter *e)
{
    overlap_walk(t, s, CL_TRIANGLE, e);
}
static void overlap_convex(const copse_bvh *t, const cl_shape *s, id_emitter *e)
{
    overlap_walk(t, s, CL_CONVEX, e);
}

bool copse__collide_bvh_touches_obb(const copse_bvh *tree, const cl_shape *s)
{
    uint32_t id = COPSE_NONE;
    id_emitter e;
    (void)id_emitter_init(&e, NULL, copse__collide_keep_first, &id);
    overlap_obb(tree, s, &e);
    return id != COPSE_NONE;
}

bool copse__collide_bvh_touches_sphere(const copse_bvh *tree, const cl_shape *s)
{
    uint32_t id = COPSE_NONE;
    id_emitter e;
    (void)id_emitter_init(&e, NULL, copse__collide_keep_first, &id);
    overlap_sphere(tree, s, &e);
    return id != COPSE_NONE;
}

COPSE_INLINE void overlap_run(const copse_bvh *t, const cl_shape *s, cl_kind kind, id_emitter *e)
{
    switch (kind) {
    case CL_SPHERE:
        overlap_sphere(t, s, e);
        break;
    case CL_CAPSULE:
        overlap_capsule(t, s, e);
        break;
    case CL_OBB:
        overlap_obb(t, s, e);
        break;
    case CL_TRIANGLE:
        overlap_triangle(t, s, e);
        break;
    case CL_CONVEX:
        overlap_convex(t, s, e);
        break;
    }
}

/* Every overlap entry point: the list or visitor, the tree, the shape; then the walk. */
COPSE_INLINE copse_status overlap(const copse_bvh *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                                  copse_id_list *out, copse_id_visitor visit, void *user)
{
    cl_shape s;
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st == COPSE_OK)
        st = copse__collide_mesh_tree(tree);
    if (st == COPSE_OK)
        st = cl_prepare(&s, kind, shape, pose, copse__collide_bvh_mag(tree));
    if (st != COPSE_OK)
        return st;
    if (tree->node_count > 0u)
        overlap_run(tree, &s, kind, &e);
    return COPSE_OK;
}

COPSE_INLINE copse_status any(const copse_bvh *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                              uint32_t *id)
{
    cl_id_empty(id);
    if (id == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, kind, shape, pose, NULL, copse__collide_keep_first, id);
}

copse_status copse_bvh_any_sphere(const copse_bvh *tree, const copse_sphere *sphere, const copse_pose *pose,
                                  uint32_t *id)
{
    return any(tree, CL_SPHERE, sphere, pose, id);
}

copse_status copse_bvh_any_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                   uint32_t *id)
{
    return any(tree, CL_CAPSULE, capsule, pose, id);
}

copse_status copse_bvh_any_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose, uint32_t *id)
{
    return any(tree, CL_OBB, obb, pose, id);
}

copse_status copse_bvh_any_triangle(const copse_bvh *tree, const copse_triangle *triangle, const copse_pose *pose,
                                    uint32_t *id)
{
    return any(tree, CL_TRIANGLE, triangle, pose, id);
}

copse_status copse_bvh_any_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                  uint32_t *id)
{
    return any(tree, CL_CONVEX, convex, pose, id);
}

copse_status copse_bvh_overlap_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                       copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_CAPSULE, capsule, pose, out, NULL, NULL);
}

copse_status copse_bvh_visit_capsule(const copse_bvh *tree, const copse_capsule *capsule, const copse_pose *pose,
                                     copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_CAPSULE, capsule, pose, NULL, visit, user);
}

copse_status copse_bvh_overlap_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose,
                                   copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_OBB, obb, pose, out, NULL, NULL);
}

copse_status copse_bvh_visit_obb(const copse_bvh *tree, const copse_obb *obb, const copse_pose *pose,
                                 copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_OBB, obb, pose, NULL, visit, user);
}

copse_status copse_bvh_overlap_triangle(const copse_bvh *tree, const copse_triangle *triangle,
                                        const copse_pose *pose, copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_TRIANGLE, triangle, pose, out, NULL, NULL);
}

copse_status copse_bvh_visit_triangle(const copse_bvh *tree, const copse_triangle *triangle, const copse_pose *pose,
                                      copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_TRIANGLE, triangle, pose, NULL, visit, user);
}

copse_status copse_bvh_overlap_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                      copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_CONVEX, convex, pose, out, NULL, NULL);
}

copse_status copse_bvh_visit_convex(const copse_bvh *tree, const copse_convex *convex, const copse_pose *pose,
                                    copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_CONVEX, convex, pose, NULL, visit, user);
}

/* ---- distance ---------------------------------------------------------------------------------- */

COPSE_INLINE void distance_walk(const copse_bvh *t, const cl_shape *s, cl_kind kind, cl_best *b)
{
    const void *nodes = t->nodes;
    trav_entry stack[COPSE_BVH_MAX_DEPTH + 1u];
    uint32_t sp = 0, node = 0;

    if (cl_node_lb2(s, kind, bvh_node_min(nodes, 0, 3), bvh_node_max(nodes, 0, 3)) > b->cut2)
        return;
    for (;;) {
        int32_t index = bvh_node_index(nodes, node, 3);
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(nodes, node, 3);
            for (k = 0; k < count; k++) {
                uint32_t prim = t->prims[(uint32_t)index + k];
                const float *v[3];
                float tmn[3], tmx[3], ps[3], pt[3], d2;
                cl_tree_triangle(t, prim, v);
                tri_bounds(v, tmn, tmx);
                if (cl_node_lb2(s, kind, tmn, tmx) > b->cut2)
                    continue;
                d2 = cl_dist2_triangle(s, kind, v, ps, pt);
                copse__collide_best_offer(b, d2, bvh_prim_id(t, prim), COPSE_NONE, ps, pt);
                if (b->done)
                    return;
            }
        } else {
            uint32_t left = node + 1u, right = bvh_node_right(nodes, node, 3);
            float dl = cl_node_lb2(s, kind, bvh_node_min(nodes, left, 3), bvh_node_max(nodes, left, 3));
            float dr = cl_node_lb2(s, kind, bvh_node_min(nodes, right, 3), bvh_node_max(nodes, right, 3));
            if (ordered_descend(stack, &sp, &node, left, right, dl <= b->cut2, dr <= b->cut2, dl, dr))
                continue;
        }
        if (!ordered_pop(stack, &sp, &node, b->cut2))
            return;
    }
}

static void distance_sphere(const copse_bvh *t, const cl_shape *s, cl_best *b)
{
    distance_walk(t, s, CL_SPHERE, b);
}
static void distance_capsule(const copse_bvh *t, const cl_shape *s, cl_best *b)
{
    distance_walk(t, s, CL_CAPSULE, b);
}
static void distance_obb(const copse_bvh *t, const cl_shape *s, cl_best *b)
{
    distance_walk(t, s, CL_OBB, b);
}
static void distance_triangle(const copse_bvh *t, const cl_shape *s, cl_best *b)
{
    distance_walk(t, s, CL_TRIANGLE, b);
}
static void distance_convex(const copse_bvh *t, const cl_shape *s, cl_best *b)
{
    distance_walk(t, s, CL_CONVEX, b);
}

COPSE_INLINE copse_status distance(const copse_bvh *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                                   const copse_distance_query *query, copse_distance *out)
{
    cl_shape s;
    cl_best b;
    copse_status st;
    copse__collide_distance_empty(out);
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = copse__collide_mesh_tree(tree);
    if (st == COPSE_OK)
        st = cl_prepare(&s, kind, shape, pose, copse__collide_bvh_mag(tree));
    if (st == COPSE_OK)
        st = copse__collide_best_init(&b, query, s.radius, s.slack);
    if (st != COPSE_OK)
        return st;
    if (tree->node_count > 0u) {
        switch (kind) {
        case CL_SPHERE:
            distance_sphere(tree, &s, &b);
            break;
        case CL_CAPSULE:
            distance_capsule(tree, &s, &b);
            break;
        case CL_OBB:
            distance_obb(tree, &s, &b);
            break;
        case CL_TRIANGLE:
            distance_triangle(tree, &s, &b);
            break;
        case CL_CONVEX:
            distance_convex(tree, &s, &b);
            break;
        }
    }
    if (b.tree_id != COPSE_NONE && (kind == CL_SPHERE || kind == CL_CAPSULE) && b.d2 == 0.0f) {
        const float *v[3];
        cl_tree_triangle(tree, b.tree_id, v);
        copse__collide_best_finish(&b, &s, kind, v, out);
    } else {
        copse__collide_best_finish(&b, &s, kind, NULL, out);
    }
    return COPSE_OK;
}

copse_status copse_distance_sphere_bvh(const copse_sphere *sphere, const copse_pose *pose, const copse_bvh *tree,
                                       const copse_distance_query *query, copse_distance *out)
{
    return distance(tree, CL_SPHERE, sphere, pose, query, out);
}

copse_status copse_distance_capsule_bvh(const copse_capsule *capsule, const copse_pose *pose, const copse_bvh *tree,
                                        const copse_distance_query *query, copse_distance *out)
{
    return distance(tree, CL_CAPSULE, capsule, pose, query, out);
}

copse_status copse_distance_obb_bvh(const copse_obb *obb, const copse_pose *pose, const copse_bvh *tree,
                                    const copse_distance_query *query, copse_distance *out)
{
    return distance(tree, CL_OBB, obb, pose, query, out);
}

copse_status copse_distance_triangle_bvh(const copse_triangle *triangle, const copse_pose *pose,
                                         const copse_bvh *tree, const copse_distance_query *query,
                                         copse_distance *out)
{
    return distance(tree, CL_TRIANGLE, triangle, pose, query, out);
}

copse_status copse_distance_convex_bvh(const copse_convex *convex, const copse_pose *pose, const copse_bvh *tree,
                                       const copse_distance_query *query, copse_distance *out)
{
    return distance(tree, CL_CONVEX, convex, pose, query, out);
}

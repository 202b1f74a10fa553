/* SPDX-License-Identifier: MIT */
/*
 * Posed shapes and meshes against a point octree (a scan).
 *
 *  - any / overlap / visit: depth first over the nodes' exact point bounds (the octree's own
 *    region walk), the shape's conservative node test, then each point exactly.
 *  - distance: the ordered octree walk of collide_internal.h (nearest child first, one waiting
 *    entry per level).
 *  - a mesh against the scan: its nearest point by a walk over pairs (octree node, mesh node),
 *    the mesh's boxes oriented in the scan's frame; the points within a distance of the mesh by
 *    the octree's region walk, each node and point asked of the mesh's tree in the mesh's frame,
 *    so every point is reported once.
 */
#include "collide_internal.h"

COPSE_INLINE void point_of(const copse_octree *t, uint32_t index, float *p)
{
    p[0] = t->points[index].x;
    p[1] = t->points[index].y;
    p[2] = t->points[index].z;
}

COPSE_INLINE bool in_bounds(const float *p, const float *lo, const float *hi)
{
    return p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] && p[2] >= lo[2] && p[2] <= hi[2];
}

/* ---- any / overlap / visit -------------------------------------------------------------------------- */

COPSE_INLINE void region_walk(const copse_octree *t, const cl_shape *s, cl_kind kind, id_emitter *e)
{
    uint32_t stack[COPSE_OCTREE_MAX_DEPTH + 2u], sp = 0, n = 0;
    if (t->nodes == NULL || t->size == 0u)
        return;
    for (;;) {
        const copse_octree_node *node = &t->nodes[n];
        if (cl_node_touch(s, kind, node->min, node->max)) {
            if (oct_is_leaf(node)) {
                oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
                uint32_t k;
                while (oct_leaf_next(t, &it)) {
                    for (k = 0; k < it.count; k++) {
                        uint32_t idx = it.slots[k];
                        float p[3];
                        point_of(t, idx, p);
                        if (in_bounds(p, s->lo, s->hi) && cl_touch_point(s, kind, p) &&
                            !id_emit(e, oct_point_id(t, idx)))
                            return;
                    }
                }
            } else {
                if (node->next != OCT_NONE && sp < COPSE_OCTREE_MAX_DEPTH + 2u)
                    stack[sp++] = node->next;
                n = node->first;
                continue;
            }
        }
        n = node->next;
        if (n == OCT_NONE) {
            if (sp == 0u)
                return;
            n = stack[--sp];
        }
    }
}

static void region_sphere(const copse_octree *t, const cl_shape *s, id_emitter *e)
{
    region_walk(t, s, CL_SPHERE, e);
}
static void region_capsule(const copse_octree *t, const cl_shape *s, id_emitter *e)
{
    region_walk(t, s, CL_CAPSULE, e);
}
static void region_obb(const copse_octree *t, const cl_shape *s, id_emitter *e)
{
    region_walk(t, s, CL_OBB, e);
}
static void region_triangle(const copse_octree *t, const cl_shape *s, id_emitter *e)
{
    region_walk(t, s, CL_TRIANGLE, e);
}
static void region_convex(const copse_octree *t, const cl_shape *s, id_emitter *e)
{
    region_walk(t, s, CL_CONVEX, e);
}

COPSE_INLINE copse_status overlap(const copse_octree *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                                  copse_id_list *out, copse_id_visitor visit, void *user)
{
    cl_shape s;
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st == COPSE_OK && tree == NULL)
        st = COPSE_ERR_NULL;
    if (st == COPSE_OK)
        st = cl_prepare(&s, kind, shape, pose, copse__collide_octree_mag(tree));
    if (st != COPSE_OK)
        return st;
    switch (kind) {
    case CL_SPHERE:
        region_sphere(tree, &s, &e);
        break;
    case CL_CAPSULE:
        region_capsule(tree, &s, &e);
        break;
    case CL_OBB:
        region_obb(tree, &s, &e);
        break;
    case CL_TRIANGLE:
        region_triangle(tree, &s, &e);
        break;
    case CL_CONVEX:
        region_convex(tree, &s, &e);
        break;
    }
    return COPSE_OK;
}

COPSE_INLINE copse_status any(const copse_octree *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                              uint32_t *id)
{
    cl_id_empty(id);
    if (id == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, kind, shape, pose, NULL, copse__collide_keep_first, id);
}

copse_status copse_octree_any_sphere(const copse_octree *tree, const copse_sphere *sphere, const copse_pose *pose,
                                     uint32_t *id)
{
    return any(tree, CL_SPHERE, sphere, pose, id);
}

copse_status copse_octree_any_capsule(const copse_octree *tree, const copse_capsule *capsule,
                                      const copse_pose *pose, uint32_t *id)
{
    return any(tree, CL_CAPSULE, capsule, pose, id);
}

copse_status copse_octree_any_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                  uint32_t *id)
{
    return any(tree, CL_OBB, obb, pose, id);
}

copse_status copse_octree_any_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                       const copse_pose *pose, uint32_t *id)
{
    return any(tree, CL_TRIANGLE, triangle, pose, id);
}

copse_status copse_octree_any_convex(const copse_octree *tree, const copse_convex *convex, const copse_pose *pose,
                                     uint32_t *id)
{
    return any(tree, CL_CONVEX, convex, pose, id);
}

copse_status copse_octree_overlap_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                      copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_OBB, obb, pose, out, NULL, NULL);
}

copse_status copse_octree_visit_obb(const copse_octree *tree, const copse_obb *obb, const copse_pose *pose,
                                    copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_OBB, obb, pose, NULL, visit, user);
}

copse_status copse_octree_overlap_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                           const copse_pose *pose, copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_TRIANGLE, triangle, pose, out, NULL, NULL);
}

copse_status copse_octree_visit_triangle(const copse_octree *tree, const copse_triangle *triangle,
                                         const copse_pose *pose, copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_TRIANGLE, triangle, pose, NULL, visit, user);
}

copse_status copse_octree_overlap_convex(const copse_octree *tree, const copse_convex *convex,
                                         const copse_pose *pose, copse_id_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    return overlap(tree, CL_CONVEX, convex, pose, out, NULL, NULL);
}

copse_status copse_octree_visit_convex(const copse_octree *tree, const copse_convex *convex, const copse_pose *pose,
                                       copse_id_visitor visit, void *user)
{
    return overlap(tree, CL_CONVEX, convex, pose, NULL, visit, user);
}

/* ---- distance --------------------------------------------------------------------------------------- */

typedef struct dist_ctx {
    const cl_shape *s;
    cl_best *b;
} dist_ctx;

static float dist_bound(const void *c)
{
    return ((const dist_ctx *)c)->b->cut2;
}

static bool dist_done(const void *c)
{
    return ((const dist_ctx *)c)->b->done;
}

COPSE_INLINE void dist_leaf(dist_ctx *c, const copse_octree *t, const copse_octree_node *node, cl_kind kind)
{
    oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
    uint32_t k;
    while (oct_leaf_next(t, &it)) {
        for (k = 0; k < it.count; k++) {
            uint32_t idx = it.slots[k];
            float p[3], ps[3], d2;
            point_of(t, idx, p);
            if (kind != CL_SPHERE && cl_node_lb2(c->s, kind, p, p) > c->b->cut2)
                continue;
            d2 = cl_dist2_point(c->s, kind, p, ps);
            if (kind == CL_TRIANGLE && d2 > 0.0f && d2 <= c->s->slack * c->s->slack && cl_touch_point(c->s, kind, p)) {
                /* the exact test says the point is on the triangle, and the any queries say so:
                 * the float closest point can be ulps off it (fuzz_collide: 1.3e-5 for a point
                 * on an edge, corners near 60). The distance is 0, at the point itself. */
                d2 = 0.0f;
                ps[0] = p[0];
                ps[1] = p[1];
                ps[2] = p[2];
            }
            copse__collide_best_offer(c->b, d2, oct_point_id(t, idx), COPSE_NONE, ps, p);
            if (c->b->done)
                return;
        }
    }
}

/* One ordered walk per shape: its node bound and its point distance inlined. */
#define DISTANCE_WALK(name, kind)                                                                       \
    static float name##_key(const void *c, const float *mn, const float *mx)                           \
    {                                                                                                  \
        return cl_node_lb2(((const dist_ctx *)c)->s, kind, mn, mx);                                    \
    }                                                                                                  \
    static void name##_leaf(void *c, const copse_octree *t, const copse_octree_node *node)             \
    {                                                                                                  \
        dist_leaf((dist_ctx *)c, t, node, kind);                                                       \
    }                                                                                                  \
    static void name(const copse_octree *t, dist_ctx *c)                                              \
    {                                                                                                  \
        cl_octree_ordered_walk(t, c, name##_key, name##_leaf, dist_bound, dist_done);                  \
    }

DISTANCE_WALK(distance_sphere, CL_SPHERE)
DISTANCE_WALK(distance_capsule, CL_CAPSULE)
DISTANCE_WALK(distance_obb, CL_OBB)
DISTANCE_WALK(distance_triangle, CL_TRIANGLE)
DISTANCE_WALK(distance_convex, CL_CONVEX)

COPSE_INLINE copse_status distance(const copse_octree *tree, cl_kind kind, const void *shape, const copse_pose *pose,
                                   const copse_distance_query *query, copse_distance *out)
{
    cl_shape s;
    cl_best b;
    dist_ctx c;
    copse_status st = COPSE_OK;
    copse__collide_distance_empty(out);
    if (out == NULL || tree == NULL)
        return COPSE_ERR_NULL;
    st = cl_prepare(&s, kind, shape, pose, copse__collide_octree_mag(tree));
    if (st == COPSE_OK)
        st = copse__collide_best_init(&b, query, s.radius, s.slack);
    if (st != COPSE_OK)
        return st;
    c.s = &s;
    c.b = &b;
    switch (kind) {
    case CL_SPHERE:
        distance_sphere(tree, &c);
        break;
    case CL_CAPSULE:
        distance_capsule(tree, &c);
        break;
    case CL_OBB:
        distance_obb(tree, &c);
        break;
    case CL_TRIANGLE:
        distance_triangle(tree, &c);
        break;
    case CL_CONVEX:
        distance_convex(tree, &c);
        break;
    }
    copse__collide_best_finish(&b, &s, kind, NULL, out);
    return COPSE_OK;
}

copse_status copse_distance_sphere_octree(const copse_sphere *sphere, const copse_pose *pose,
                                          const copse_octree *tree, const copse_distance_query *query,
                                          copse_distance *out)
{
    return distance(tree, CL_SPHERE, sphere, pose, query, out);
}

copse_status copse_distance_capsule_octree(const copse_capsule *capsule, const copse_pose *pose,
                                           const copse_octree *tree, const copse_distance_query *query,
                                           copse_distance *out)
{
    return distance(tree, CL_CAPSULE, capsule, pose, query, out);
}

copse_status copse_distance_obb_octree(const copse_obb *obb, const copse_pose *pose, const copse_octree *tree,
                                       const copse_distance_query *query, copse_distance *out)
{
    return distance(tree, CL_OBB, obb, pose, query, out);
}

copse_status copse_distance_triangle_octree(const copse_triangle *triangle, const copse_pose *pose,
                                            const copse_octree *tree, const copse_distance_query *query,
                                            copse_distance *out)
{
    return distance(tree, CL_TRIANGLE, triangle, pose, query, out);
}

copse_status copse_distance_convex_octree(const copse_convex *convex, const copse_pose *pose,
                                          const copse_octree *tree, const copse_distance_query *query,
                                          copse_distance *out)
{
    return distance(tree, CL_CONVEX, convex, pose, query, out);
}

/* ---- a mesh against the scan: the nearest point ------------------------------------------------------
 * Pairs (octree node o, mesh node b), nearest first. Splitting b continues with the nearer child
 * pair and leaves the other; splitting o leaves one entry for o's children with b, which picks the
 * nearest child not yet taken each time it is resumed (as cl_octree_ordered_walk does). So each
 * level of either tree leaves at most one entry. */

#define MO_CHILDREN 0x80000000u /* entry flag on o: o's children (those not in `taken`) with b */
#define MO_STACK (COPSE_OCTREE_MAX_DEPTH + COPSE_BVH_MAX_DEPTH + 4u)

typedef struct mo_entry {
    uint32_t o, b;
    uint32_t taken; /* children entries: bit i, the i-th child in o's list was taken */
    float key;      /* a bound of every pair the entry stands for */
} mo_entry;

typedef struct mo_walk {
    const copse_octree *t;
    const copse_bvh *m;
    cl_frame f;
    float ar[9];
    cl_best best;
} mo_walk;

COPSE_INLINE float mo_key(const mo_walk *w, uint32_t o, uint32_t b)
{
    float m[3], e[3], cb[3], h[3], c[3];
    cl_center_half(w->t->nodes[o].min, w->t->nodes[o].max, m, e);
    cl_center_half(bvh_node_min(w->m->nodes, b, 3), bvh_node_max(w->m->nodes, b, 3), cb, h);
    cl_apply(&w->f, cb, c);
    return copse__collide_box_gap2(m, e, c, h, w->f.r, w->ar);
}

COPSE_NOINLINE static void mo_leaves(mo_walk *w, const copse_octree_node *leaf, uint32_t b)
{
    const copse_bvh *m = w->m;
    uint32_t ib = (uint32_t)bvh_node_index(m->nodes, b, 3), nb = bvh_node_count(m->nodes, b, 3), j;
    for (j = 0; j < nb && !w->best.done; j++) {
        uint32_t prim = m->prims[ib + j], k;
        const float *v[3];
        float tv[3][3], tmn[3], tmx[3];
        const float *tp[3];
        geo_tri_prep prep;
        bool prepared = false;
        oct_leaf_iter it;
        cl_tree_triangle(m, prim, v);
        for (k = 0; k < 3; k++) {
            cl_apply(&w->f, v[k], tv[k]);
            tp[k] = tv[k];
        }
        for (k = 0; k < 3; k++) {
            tmn[k] = geo_min(tv[0][k], geo_min(tv[1][k], tv[2][k]));
            tmx[k] = geo_max(tv[0][k], geo_max(tv[1][k], tv[2][k]));
        }
        if (cl_aabb_gap2(tmn, tmx, leaf->min, leaf->max) > w->best.cut2)
            continue;
        it = oct_leaf_begin(leaf->first, oct_count(leaf));
        while (oct_leaf_next(w->t, &it) && !w->best.done) {
            for (k = 0; k < it.count; k++) {
                uint32_t idx = it.slots[k];
                float p[3], q[3], d2;
                point_of(w->t, idx, p);
                if (geo_box_dist_sq(p, tmn, tmx, 3) > w->best.cut2)
                    continue;
                if (!prepared) { /* once per triangle, for all the leaf's points */
                    copse_geo_tri_prepare(&prep, tp);
                    prepared = true;
                }
                d2 = copse_geo_point_tri_prepared(&prep, p, q);
                copse__collide_best_offer(&w->best, d2, oct_point_id(w->t, idx), bvh_prim_id(m, prim), q, p);
                if (w->best.done)
                    return;
            }
        }
    }
}

COPSE_INLINE bool mo_split_octree(const mo_walk *w, uint32_t o, uint32_t b)
{
    const copse_octree_node *n = &w->t->nodes[o];
    const float *bmn, *bmx;
    if (oct_is_leaf(n))
        return false;
    if (bvh_node_index(w->m->nodes, b, 3) >= 0)
        return true;
    bmn = bvh_node_min(w->m->nodes, b, 3);
    bmx = bvh_node_max(w->m->nodes, b, 3);
    return (n->max[0] - n->min[0]) + (n->max[1] - n->min[1]) + (n->max[2] - n->min[2]) >=
           (bmx[0] - bmn[0]) + (bmx[1] - bmn[1]) + (bmx[2] - bmn[2]);
}

/* The key of an octree box paired with one mesh node: what cl_oct_pick ranks children by. */
typedef struct mo_key_ctx {
    const mo_walk *w;
    float c[3], h[3]; /* the mesh node's box in the scan's frame: centre, half extents */
} mo_key_ctx;

static float mo_pick_key(const void *ctx, const float *mn, const float *mx)
{
    const mo_key_ctx *k = (const mo_key_ctx *)ctx;
    float m[3], e[3];
    cl_center_half(mn, mx, m, e);
    return copse__collide_box_gap2(m, e, k->c, k->h, k->w->f.r, k->w->ar);
}

/* The nearest child of octree node o not yet taken, paired with b (cl_oct_pick). */
static bool mo_pick(const mo_walk *w, uint32_t o, uint32_t b, uint32_t *taken, uint32_t *child, float *key,
                    float *rest)
{
    mo_key_ctx k;
    float cb[3];
    k.w = w;
    cl_center_half(bvh_node_min(w->m->nodes, b, 3), bvh_node_max(w->m->nodes, b, 3), cb, k.h);
    cl_apply(&w->f, cb, k.c);
    return cl_oct_pick(w->t, o, taken, &k, mo_pick_key, w->best.cut2, child, key, rest);
}

COPSE_NOINLINE static void mo_walk_nearest(mo_walk *w)
{
    mo_entry stack[MO_STACK];
    uint32_t sp = 0, o = 0, b = 0;
    float key = mo_key(w, 0, 0);
    for (;;) {
        if (key <= w->best.cut2) {
            const copse_octree_node *n = &w->t->nodes[o];
            bool bleaf = bvh_node_index(w->m->nodes, b, 3) >= 0;
            if (oct_is_leaf(n) && bleaf) {
                mo_leaves(w, n, b);
                if (w->best.done)
                    return;
            } else if (mo_split_octree(w, o, b)) {
                if (sp < MO_STACK) {
                    stack[sp].o = o | MO_CHILDREN;
                    stack[sp].b = b;
                    stack[sp].taken = 0;
                    stack[sp++].key = key;
                }
            } else {
                uint32_t b1 = b + 1u, b2 = bvh_node_right(w->m->nodes, b, 3);
                float k1 = mo_key(w, o, b1), k2 = mo_key(w, o, b2);
                if (k2 < k1) {
                    uint32_t tb = b1;
                    float tk = k1;
                    b1 = b2;
                    k1 = k2;
                    b2 = tb;
                    k2 = tk;
                }
                if (k2 <= w->best.cut2 && sp < MO_STACK) {
                    stack[sp].o = o;
                    stack[sp].b = b2;
                    stack[sp].taken = 0;
                    stack[sp++].key = k2;
                }
                b = b1;
                key = k1;
                continue;
            }
        }
        /* the next pair: the top entry, or the nearest child its children entry has left */
        for (;;) {
            mo_entry *e;
            float rest;
            if (sp == 0u)
                return;
            e = &stack[sp - 1u];
            if (!(e->key <= w->best.cut2)) {
                sp--;
                continue;
            }
            if ((e->o & MO_CHILDREN) == 0u) {
                o = e->o;
                b = e->b;
                key = e->key;
                sp--;
                break;
            }
            b = e->b;
            if (mo_pick(w, e->o & ~MO_CHILDREN, b, &e->taken, &o, &key, &rest)) {
                e->key = rest;
                break;
            }
            sp--;
        }
    }
}

copse_status copse_distance_bvh_octree(const copse_bvh *mesh, const copse_pose *pose, const copse_octree *tree,
                                       const copse_distance_query *query, copse_distance *out)
{
    mo_walk w;
    copse_status st;
    unsigned k;
    float mag;
    copse__collide_distance_empty(out);
    if (out == NULL || tree == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(&w, 0, sizeof w);
    st = copse__collide_mesh_tree(mesh);
    if (st == COPSE_OK)
        st = copse__collide_frame(pose, &w.f);
    if (st != COPSE_OK)
        return st;
    w.t = tree;
    w.m = mesh;
    for (k = 0; k < 9; k++)
        w.ar[k] = copse_fabsf(w.f.r[k]) + 4.0f * FLT_EPSILON;
    mag = copse__collide_octree_mag(tree);
    if (mesh->node_count > 0u) {
        float cb[3], h[3], c[3];
        cl_center_half(bvh_node_min(mesh->nodes, 0, 3), bvh_node_max(mesh->nodes, 0, 3), cb, h);
        cl_apply(&w.f, cb, c);
        mag = geo_max(mag, cl_max_abs3(c) + (h[0] + h[1] + h[2]));
    }
    st = copse__collide_best_init(&w.best, query, 0.0f, cl_slack(mag));
    if (st != COPSE_OK)
        return st;
    if (mesh->node_count > 0u && tree->nodes != NULL && tree->size > 0u)
        mo_walk_nearest(&w);
    copse__collide_best_finish(&w.best, NULL, CL_TRIANGLE, NULL, out);
    return COPSE_OK;
}

/* ---- a mesh against the scan: every point within a distance --------------------------------------
 * The octree's region walk in the scan's frame; each node is asked of the mesh as an oriented box
 * in the mesh's frame (the node's box grown by the distance), each point as a sphere there. */

typedef struct mw_walk {
    const copse_bvh *m;
    cl_frame inv;  /* the scan's frame into the mesh's */
    float distance;
    float slack;   /* of the larger magnitude of the two */
} mw_walk;

static bool mw_node(const mw_walk *w, const copse_octree_node *n)
{
    cl_shape s;
    float m[3], e[3];
    unsigned i, j;
    __builtin_memset(&s, 0, sizeof s);
    cl_center_half(n->min, n->max, m, e);
    cl_apply(&w->inv, m, s.c);
    for (i = 0; i < 3; i++) {
        s.h[i] = e[i] + w->distance + w->slack;
        for (j = 0; j < 3; j++) {
            s.r[3 * i + j] = w->inv.r[3 * i + j]; /* the node's axes (the scan's) in the mesh's frame */
            s.ar[3 * i + j] = copse_fabsf(s.r[3 * i + j]) + 4.0f * FLT_EPSILON;
        }
    }
    for (i = 0; i < 3; i++) {
        float ext = s.ar[3 * i] * s.h[0] + s.ar[3 * i + 1] * s.h[1] + s.ar[3 * i + 2] * s.h[2];
        s.lo[i] = s.c[i] - ext - w->slack;
        s.hi[i] = s.c[i] + ext + w->slack;
    }
    s.slack = w->slack;
    return copse__collide_bvh_touches_obb(w->m, &s);
}

static bool mw_point(const mw_walk *w, const float *p)
{
    cl_shape s;
    unsigned k;
    __builtin_memset(&s, 0, sizeof s);
    cl_apply(&w->inv, p, s.v[0]);
    s.radius = w->distance;
    s.slack = w->slack;
    for (k = 0; k < 3; k++) {
        s.lo[k] = s.v[0][k] - (s.radius + s.slack);
        s.hi[k] = s.v[0][k] + (s.radius + s.slack);
    }
    return copse__collide_bvh_touches_sphere(w->m, &s);
}

static void mw_region(const copse_octree *t, const mw_walk *w, id_emitter *e)
{
    uint32_t stack[COPSE_OCTREE_MAX_DEPTH + 2u], sp = 0, n = 0;
    if (t->nodes == NULL || t->size == 0u || w->m->node_count == 0u)
        return;
    for (;;) {
        const copse_octree_node *node = &t->nodes[n];
        if (mw_node(w, node)) {
            if (oct_is_leaf(node)) {
                oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
                uint32_t k;
                while (oct_leaf_next(t, &it)) {
                    for (k = 0; k < it.count; k++) {
                        uint32_t idx = it.slots[k];
                        float p[3];
                        point_of(t, idx, p);
                        if (mw_point(w, p) && !id_emit(e, oct_point_id(t, idx)))
                            return;
                    }
                }
            } else {
                if (node->next != OCT_NONE && sp < COPSE_OCTREE_MAX_DEPTH + 2u)
                    stack[sp++] = node->next;
                n = node->first;
                continue;
            }
        }
        n = node->next;
        if (n == OCT_NONE) {
            if (sp == 0u)
                return;
            n = stack[--sp];
        }
    }
}

static copse_status mesh_points(const copse_octree *tree, const copse_bvh *mesh, const copse_pose *pose,
                                float distance, id_emitter *e)
{
    mw_walk w;
    cl_frame f;
    copse_status st;
    float mag;
    unsigned i, j;
    if (tree == NULL)
        return COPSE_ERR_NULL;
    st = copse__collide_mesh_tree(mesh);
    if (st == COPSE_OK)
        st = copse__collide_frame(pose, &f);
    if (st != COPSE_OK)
        return st;
    if (!geo_finite(distance))
        return COPSE_ERR_NONFINITE;
    if (distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    /* the inverse motion: R^T, -R^T t */
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            w.inv.r[3 * i + j] = f.r[3 * j + i];
    cl_rotate(w.inv.r, f.t, w.inv.t);
    for (i = 0; i < 3; i++)
        w.inv.t[i] = -w.inv.t[i];
    w.m = mesh;
    w.distance = distance;
    mag = geo_max(copse__collide_bvh_mag(mesh), copse__collide_octree_mag(tree) + cl_max_abs3(f.t));
    w.slack = cl_slack(mag + distance);
    mw_region(tree, &w, e);
    return COPSE_OK;
}

copse_status copse_octree_overlap_bvh(const copse_octree *tree, const copse_bvh *mesh, const copse_pose *pose,
                                      float distance, copse_id_list *out)
{
    id_emitter e;
    copse_status st;
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = id_emitter_init(&e, out, NULL, NULL);
    if (st != COPSE_OK)
        return st;
    return mesh_points(tree, mesh, pose, distance, &e);
}

copse_status copse_octree_visit_bvh(const copse_octree *tree, const copse_bvh *mesh, const copse_pose *pose,
                                    float distance, copse_id_visitor visit, void *user)
{
    id_emitter e;
    copse_status st = id_emitter_init(&e, NULL, visit, user);
    if (st != COPSE_OK)
        return st;
    return mesh_points(tree, mesh, pose, distance, &e);
}

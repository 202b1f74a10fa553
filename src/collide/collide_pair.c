/* SPDX-License-Identifier: MIT */
/*
 * A mesh against a mesh: two BVHs walked together, neither rebuilt, refitted nor copied.
 *
 * The posed mesh's node boxes become oriented boxes in the tree's frame (centre moved by the
 * pose, axes its rotation's columns); each node pair is tested by separating axes, widened by
 * the rounding slack. A pair that may touch splits the larger of its two boxes. At two leaves,
 * the posed mesh's triangles are moved into the tree's frame and tested exactly against the
 * tree's. The walk keeps the pairs it has still to visit on a fixed stack: each split leaves
 * one, so at most depth(tree) + depth(mesh) wait.
 */
#include "collide_internal.h"

#define PAIR_STACK (2u * COPSE_BVH_MAX_DEPTH + 2u)

/* A leaf's triangles moved into the other tree's frame (up to LEAF_KEEP of them), so a walk that
 * stays at the leaf while the other side splits tests the other's boxes against the triangles
 * themselves, not against the leaf's box: a large slanted triangle's box holds much empty space. */
#define LEAF_KEEP 4u

typedef struct leaf_tris_moved {
    uint32_t node;  /* the leaf held; COPSE_NONE for none */
    uint32_t count; /* its triangles */
    float v[LEAF_KEEP][3][3];
    float mn[LEAF_KEEP][3], mx[LEAF_KEEP][3];
} leaf_tris_moved;

typedef struct pair_walk {
    const copse_bvh *ta; /* the tree: its frame is the answer's */
    const copse_bvh *tb; /* the posed mesh */
    cl_frame f;          /* the mesh's frame into the tree's */
    cl_frame inv;        /* and back */
    float ar[9];         /* |rotation| plus a little, for the separating axes */
    float slack;
    float sep2;          /* the smallest squared gap of the pairs set aside */
    bool want_sep;
} pair_walk;

/* The boolean walk's leaves kept moved (in its own frame: the distance walk does not pay for them). */
typedef struct moved_leaves {
    leaf_tris_moved mesh_leaf; /* a mesh leaf in the tree's frame */
    leaf_tris_moved tree_leaf; /* a tree leaf in the mesh's frame */
} moved_leaves;

/* The node's box: centre and half extents. */
COPSE_INLINE void node_box(const copse_bvh *t, uint32_t i, float *m, float *e)
{
    cl_center_half(bvh_node_min(t->nodes, i, 3), bvh_node_max(t->nodes, i, 3), m, e);
}

COPSE_INLINE bool is_leaf(const copse_bvh *t, uint32_t i)
{
    return bvh_node_index(t->nodes, i, 3) >= 0;
}

/* A mesh node's box in the tree's frame: its centre moved by the pose (its half extents stay,
 * along the rotated axes). */
COPSE_INLINE void posed_box(const pair_walk *w, uint32_t b, float *c, float *h)
{
    float cb[3];
    node_box(w->tb, b, cb, h);
    cl_apply(&w->f, cb, c);
}

/* A mesh node in the tree's frame: centre, half extents along its own axes, and along the tree's
 * (what every tree node it meets shares). */
typedef struct posed_node {
    float c[3], h[3], ext[3];
} posed_node;

COPSE_INLINE void pose_node(const pair_walk *w, uint32_t b, posed_node *p)
{
    posed_box(w, b, p->c, p->h);
    cl_ext_tree(w->ar, p->h, p->ext);
}

/* May the tree's node (centre m, half e) and the posed mesh node hold touching triangles?
 * ext_o: the tree node's half extents along the mesh node's axes, or NULL. */
COPSE_INLINE bool node_touch(pair_walk *w, const float *m, const float *e, const posed_node *p, const float *ext_o)
{
    float t[3];
    geo_sub3(t, p->c, m);
    if (copse__collide_face_axes(t, e, p->h, p->ext, ext_o, w->f.r, w->ar, w->slack))
        return true;
    if (w->want_sep)
        w->sep2 = geo_min(w->sep2, copse__collide_box_gap2(m, e, p->c, p->h, w->f.r, w->ar));
    return false;
}

/* Which node of a pair to split: the tree's unless it is a leaf, or the mesh's box is larger. */
COPSE_INLINE bool split_tree_side(const pair_walk *w, uint32_t a, uint32_t b)
{
    const float *amn, *amx, *bmn, *bmx;
    if (is_leaf(w->ta, a))
        return false;
    if (is_leaf(w->tb, b))
        return true;
    amn = bvh_node_min(w->ta->nodes, a, 3);
    amx = bvh_node_max(w->ta->nodes, a, 3);
    bmn = bvh_node_min(w->tb->nodes, b, 3);
    bmx = bvh_node_max(w->tb->nodes, b, 3);
    return (amx[0] - amn[0]) + (amx[1] - amn[1]) + (amx[2] - amn[2]) >=
           (bmx[0] - bmn[0]) + (bmx[1] - bmn[1]) + (bmx[2] - bmn[2]);
}

/* A posed mesh triangle in the tree's frame, with its bounds. */
typedef struct posed_tri {
    float v[3][3];
    const float *p[3];
    float mn[3], mx[3];
} posed_tri;

COPSE_INLINE void pose_triangle(const pair_walk *w, uint32_t prim, posed_tri *pt)
{
    const float *v[3];
    unsigned k, a;
    cl_tree_triangle(w->tb, prim, v);
    for (k = 0; k < 3; k++) {
        cl_apply(&w->f, v[k], pt->v[k]);
        pt->p[k] = pt->v[k];
    }
    for (a = 0; a < 3; a++) {
        pt->mn[a] = geo_min(pt->v[0][a], geo_min(pt->v[1][a], pt->v[2][a]));
        pt->mx[a] = geo_max(pt->v[0][a], geo_max(pt->v[1][a], pt->v[2][a]));
    }
}

COPSE_INLINE void tri_bounds(const float *const v[3], float *mn, float *mx)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        mn[k] = geo_min(v[0][k], geo_min(v[1][k], v[2][k]));
        mx[k] = geo_max(v[0][k], geo_max(v[1][k], v[2][k]));
    }
}

/* The box [mn, mx] grown by g on every side. */
COPSE_INLINE void grow_box(const float *mn, const float *mx, float g, float *gmn, float *gmx)
{
    unsigned k;
    for (k = 0; k < 3; k++) {
        gmn[k] = mn[k] - g;
        gmx[k] = mx[k] + g;
    }
}

/* Moves leaf `leaf` of tree t by frame f into l (kept while it stays the same leaf). */
static void leaf_move(const copse_bvh *t, uint32_t leaf, const cl_frame *f, leaf_tris_moved *l)
{
    uint32_t first = (uint32_t)bvh_node_index(t->nodes, leaf, 3), n = bvh_node_count(t->nodes, leaf, 3), j;
    unsigned k, c;
    if (l->node == leaf)
        return;
    l->node = leaf;
    l->count = n;
    for (j = 0; j < n && j < LEAF_KEEP; j++) {
        const float *v[3];
        cl_tree_triangle(t, t->prims[first + j], v);
        for (k = 0; k < 3; k++)
            cl_apply(f, v[k], l->v[j][k]);
        for (c = 0; c < 3; c++) {
            l->mn[j][c] = geo_min(l->v[j][0][c], geo_min(l->v[j][1][c], l->v[j][2][c]));
            l->mx[j][c] = geo_max(l->v[j][0][c], geo_max(l->v[j][1][c], l->v[j][2][c]));
        }
    }
}

/* May a triangle of the moved leaf touch the box [mn, mx] (grown by the slack)? A leaf with more
 * triangles than are kept says yes: its box test stands alone. When none may, the smallest gap
 * between a triangle's bounds and the box is what the pair adds to the separation bound. */
static bool leaf_meets_box(pair_walk *w, const leaf_tris_moved *l, const float *mn, const float *mx)
{
    float gmn[3], gmx[3], g2 = FLT_MAX;
    geo_tri_box q;
    uint32_t j;
    if (l->count > LEAF_KEEP)
        return true;
    grow_box(mn, mx, w->slack, gmn, gmx);
    geo_tri_box_init(&q, gmn, gmx);
    for (j = 0; j < l->count; j++)
        if (geo_box_overlap(l->mn[j], l->mx[j], gmn, gmx, 3) &&
            copse_geo_triangle_box(&q, l->v[j][0], l->v[j][1], l->v[j][2]))
            return true;
    if (w->want_sep) {
        for (j = 0; j < l->count; j++)
            g2 = geo_min(g2, cl_aabb_gap2(l->mn[j], l->mx[j], mn, mx));
        w->sep2 = geo_min(w->sep2, g2);
    }
    return false;
}

static copse_status pair_start(pair_walk *w, const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose)
{
    copse_status st;
    unsigned k;
    float mag;
    __builtin_memset(w, 0, sizeof *w);
    st = copse__collide_mesh_tree(tree);
    if (st == COPSE_OK)
        st = copse__collide_mesh_tree(mesh);
    if (st == COPSE_OK)
        st = copse__collide_frame(pose, &w->f);
    if (st != COPSE_OK)
        return st;
    w->ta = tree;
    w->tb = mesh;
    for (k = 0; k < 9; k++)
        w->ar[k] = copse_fabsf(w->f.r[k]) + 4.0f * FLT_EPSILON;
    for (k = 0; k < 3; k++) { /* the rotation is orthonormal (copse__collide_frame): its inverse is its transpose */
        unsigned i;
        for (i = 0; i < 3; i++)
            w->inv.r[3 * k + i] = w->f.r[3 * i + k];
    }
    for (k = 0; k < 3; k++)
        w->inv.t[k] = -(w->inv.r[3 * k] * w->f.t[0] + w->inv.r[3 * k + 1] * w->f.t[1] + w->inv.r[3 * k + 2] * w->f.t[2]);
    mag = copse__collide_bvh_mag(tree);
    if (mesh->node_count > 0u) {
        float c[3], h[3];
        posed_box(w, 0, c, h);
        mag = geo_max(mag, cl_max_abs3(c) + (h[0] + h[1] + h[2]));
    }
    w->slack = cl_slack(mag);
    w->sep2 = FLT_MAX;
    return COPSE_OK;
}

/* ---- overlap: every touching pair ----------------------------------------------------------------- */

/* Where found pairs go: the caller's list (then `truncated`) or visitor. */
typedef struct pair_emitter {
    copse_pair_list *list;
    copse_pair_visitor visit;
    void *user;
    bool found;
} pair_emitter;

static bool emit_pair(pair_emitter *e, uint32_t tree_id, uint32_t shape_id)
{
    copse_pair p;
    p.tree_id = tree_id;
    p.shape_id = shape_id;
    e->found = true;
    if (e->list != NULL) {
        if (e->list->count < e->list->capacity) {
            e->list->pairs[e->list->count++] = p;
            return true;
        }
        e->list->truncated = true;
        return false;
    }
    return e->visit(e->user, &p);
}

/* A leaf's triangles, prepared once per leaf pair for all the other leaf's triangles: corners,
 * bounds, and (made when first needed) planes for the cheap side tests before the exact ones.
 * Up to LEAF_PLANES are kept; a larger leaf's others are made as they come. */
#define LEAF_PLANES 4u

typedef struct leaf_tris {
    uint32_t first, count;
    const float *v[LEAF_PLANES][3];
    float mn[LEAF_PLANES][3], mx[LEAF_PLANES][3];
    geo_tri_plane plane[LEAF_PLANES];
    uint32_t planes_made; /* bit k: plane[k] is made */
} leaf_tris;

static void leaf_tris_init(const copse_bvh *t, uint32_t leaf, leaf_tris *l)
{
    uint32_t k;
    l->first = (uint32_t)bvh_node_index(t->nodes, leaf, 3);
    l->count = bvh_node_count(t->nodes, leaf, 3);
    l->planes_made = 0;
    for (k = 0; k < l->count && k < LEAF_PLANES; k++) {
        cl_tree_triangle(t, t->prims[l->first + k], l->v[k]);
        tri_bounds(l->v[k], l->mn[k], l->mx[k]);
    }
}

/* The leaf's k-th triangle: corners and bounds kept, or made into the caller's. */
static void leaf_tri(const copse_bvh *t, const leaf_tris *l, uint32_t k, const float **v, const float **mn,
                     const float **mx, float *smn, float *smx)
{
    if (k < LEAF_PLANES) {
        v[0] = l->v[k][0];
        v[1] = l->v[k][1];
        v[2] = l->v[k][2];
        *mn = l->mn[k];
        *mx = l->mx[k];
        return;
    }
    cl_tree_triangle(t, t->prims[l->first + k], v);
    tri_bounds(v, smn, smx);
    *mn = smn;
    *mx = smx;
}

/* The plane of the leaf's k-th triangle (corners v): kept, or made into `spare`. */
static const geo_tri_plane *leaf_plane(leaf_tris *l, uint32_t k, const float *const v[3], geo_tri_plane *spare)
{
    if (k >= LEAF_PLANES) {
        geo_tri_plane_init(spare, v);
        return spare;
    }
    if (((l->planes_made >> k) & 1u) == 0u) {
        geo_tri_plane_init(&l->plane[k], v);
        l->planes_made |= 1u << k;
    }
    return &l->plane[k];
}

/* A lower bound of the distance between two triangles that the planes' side tests certify
 * apart (0 when they do not): the nearer corner's height over the other's plane. */
COPSE_INLINE float plane_gap(const geo_tri_plane *pa, const float *const va[3], const geo_tri_plane *pb,
                             const float *const vb[3])
{
    float ga = 0.0f, gb = 0.0f, la, lb;
    if (geo_tri_plane_apart(pa, vb, &ga) && ga > 0.0f) {
        la = copse_sqrtf(geo_dot3(pa->n, pa->n));
        ga = ga / (la * (1.0f + 4.0f * FLT_EPSILON));
    }
    if (geo_tri_plane_apart(pb, va, &gb) && gb > 0.0f) {
        lb = copse_sqrtf(geo_dot3(pb->n, pb->n));
        gb = gb / (lb * (1.0f + 4.0f * FLT_EPSILON));
    }
    return geo_max(ga, gb);
}

/* The triangles of leaf a (tree) against those of leaf b (mesh); false stops the walk. */
COPSE_NOINLINE static bool leaf_pairs(pair_walk *w, uint32_t a, uint32_t b, pair_emitter *e)
{
    const copse_bvh *ta = w->ta, *tb = w->tb;
    uint32_t ib = (uint32_t)bvh_node_index(tb->nodes, b, 3), nb = bvh_node_count(tb->nodes, b, 3);
    float lmn[3], lmx[3];
    leaf_tris la;
    uint32_t j, k;
    grow_box(bvh_node_min(ta->nodes, a, 3), bvh_node_max(ta->nodes, a, 3), w->slack, lmn, lmx);
    leaf_tris_init(ta, a, &la);
    for (j = 0; j < nb; j++) {
        uint32_t pb = tb->prims[ib + j];
        posed_tri t;
        geo_tri_plane tplane;
        bool tplane_made = false;
        pose_triangle(w, pb, &t);
        if (!geo_box_overlap(t.mn, t.mx, lmn, lmx, 3)) {
            if (w->want_sep)
                w->sep2 = geo_min(w->sep2, cl_aabb_gap2(t.mn, t.mx, bvh_node_min(ta->nodes, a, 3),
                                                         bvh_node_max(ta->nodes, a, 3)));
            continue;
        }
        for (k = 0; k < la.count; k++) {
            const float *v[3], *amn, *amx;
            float smn[3], smx[3];
            geo_tri_plane spare;
            const geo_tri_plane *aplane;
            leaf_tri(ta, &la, k, v, &amn, &amx, smn, smx);
            if (!geo_box_overlap(t.mn, t.mx, amn, amx, 3)) {
                if (w->want_sep)
                    w->sep2 = geo_min(w->sep2, cl_aabb_gap2(t.mn, t.mx, amn, amx));
                continue;
            }
            /* each triangle's corners certainly on one side of the other's plane: apart, as the
             * exact test would say, for a few float operations */
            aplane = leaf_plane(&la, k, v, &spare);
            if (!tplane_made) {
                geo_tri_plane_init(&tplane, t.p);
                tplane_made = true;
            }
            if (geo_tri_plane_apart(aplane, t.p, NULL) || geo_tri_plane_apart(&tplane, v, NULL)) {
                if (w->want_sep) {
                    float g = plane_gap(aplane, v, &tplane, t.p);
                    w->sep2 = geo_min(w->sep2, g * g);
                }
                continue;
            }
            if (copse_geo_triangle_triangle_overlap(v, t.p)) {
                if (!emit_pair(e, bvh_prim_id(ta, ta->prims[la.first + k]), bvh_prim_id(tb, pb)))
                    return false;
            } else if (w->want_sep) {
                w->sep2 = geo_min(w->sep2, cl_aabb_gap2(t.mn, t.mx, amn, amx));
            }
        }
    }
    return true;
}

typedef struct node_pair {
    uint32_t a, b;
} node_pair;

/* Depth first over the node pairs that may touch, left children first. A split tests both
 * children at once, so the side that stays (the posed mesh node, or the tree node's extents
 * along the mesh node's axes) is made once for the two; a stacked pair is known to touch. */
COPSE_NOINLINE static void overlap_walk(pair_walk *w, pair_emitter *e)
{
    node_pair stack[PAIR_STACK];
    uint32_t sp = 0, a = 0, b = 0;
    float m[3], ev[3];
    posed_node p;
    moved_leaves ml;
    ml.mesh_leaf.node = ml.tree_leaf.node = COPSE_NONE;
    node_box(w->ta, 0, m, ev);
    pose_node(w, 0, &p);
    if (!node_touch(w, m, ev, &p, NULL))
        return;
    for (;;) {
        if (is_leaf(w->ta, a) && is_leaf(w->tb, b)) {
            if (!leaf_pairs(w, a, b, e))
                return;
        } else if (sp < PAIR_STACK) {
            uint32_t c1, c2;
            float g1, g2;
            bool t1, t2;
            if (split_tree_side(w, a, b)) {
                const bool b_leaf = is_leaf(w->tb, b);
                c1 = a + 1u;
                c2 = bvh_node_right(w->ta->nodes, a, 3);
                pose_node(w, b, &p);
                if (b_leaf)
                    leaf_move(w->tb, b, &w->f, &ml.mesh_leaf);
                node_box(w->ta, c1, m, ev);
                g1 = geo_dist_sq3(m, p.c);
                t1 = node_touch(w, m, ev, &p, NULL) &&
                     (!b_leaf || leaf_meets_box(w, &ml.mesh_leaf, bvh_node_min(w->ta->nodes, c1, 3),
                                                bvh_node_max(w->ta->nodes, c1, 3)));
                node_box(w->ta, c2, m, ev);
                g2 = geo_dist_sq3(m, p.c);
                t2 = node_touch(w, m, ev, &p, NULL) &&
                     (!b_leaf || leaf_meets_box(w, &ml.mesh_leaf, bvh_node_min(w->ta->nodes, c2, 3),
                                                bvh_node_max(w->ta->nodes, c2, 3)));
                if (t1 || t2) {
                    if (t1 && t2) { /* the nearer centre first: a touching pair sooner */
                        stack[sp].a = g2 < g1 ? c1 : c2;
                        stack[sp++].b = b;
                        a = g2 < g1 ? c2 : c1;
                    } else {
                        a = t1 ? c1 : c2;
                    }
                    continue;
                }
            } else {
                float eo[3];
                const bool a_leaf = is_leaf(w->ta, a);
                c1 = b + 1u;
                c2 = bvh_node_right(w->tb->nodes, b, 3);
                node_box(w->ta, a, m, ev);
                cl_ext_oriented(w->ar, ev, eo);
                if (a_leaf)
                    leaf_move(w->ta, a, &w->inv, &ml.tree_leaf);
                pose_node(w, c1, &p);
                g1 = geo_dist_sq3(m, p.c);
                t1 = node_touch(w, m, ev, &p, eo) &&
                     (!a_leaf || leaf_meets_box(w, &ml.tree_leaf, bvh_node_min(w->tb->nodes, c1, 3),
                                                bvh_node_max(w->tb->nodes, c1, 3)));
                pose_node(w, c2, &p);
                g2 = geo_dist_sq3(m, p.c);
                t2 = node_touch(w, m, ev, &p, eo) &&
                     (!a_leaf || leaf_meets_box(w, &ml.tree_leaf, bvh_node_min(w->tb->nodes, c2, 3),
                                                bvh_node_max(w->tb->nodes, c2, 3)));
                if (t1 || t2) {
                    if (t1 && t2) {
                        stack[sp].a = a;
                        stack[sp++].b = g2 < g1 ? c1 : c2;
                        b = g2 < g1 ? c2 : c1;
                    } else {
                        b = t1 ? c1 : c2;
                    }
                    continue;
                }
            }
        }
        if (sp == 0u)
            return;
        sp--;
        a = stack[sp].a;
        b = stack[sp].b;
    }
}

static copse_status overlap(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose, pair_emitter *e,
                            float *separation)
{
    pair_walk w;
    copse_status st;
    if (separation != NULL)
        *separation = 0.0f;
    st = pair_start(&w, tree, mesh, pose);
    if (st != COPSE_OK)
        return st;
    w.want_sep = separation != NULL;
    if (tree->node_count > 0u && mesh->node_count > 0u)
        overlap_walk(&w, e);
    if (separation != NULL && !e->found)
        *separation = w.sep2 >= FLT_MAX ? FLT_MAX : geo_max(copse_sqrtf(w.sep2) - w.slack, 0.0f);
    return COPSE_OK;
}

static bool keep_first_pair(void *user, const copse_pair *pair)
{
    *(copse_pair *)user = *pair;
    return false;
}

copse_status copse_bvh_any_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                               copse_pair *witness, float *separation)
{
    pair_emitter e;
    if (witness != NULL)
        witness->tree_id = witness->shape_id = COPSE_NONE;
    if (witness == NULL) {
        if (separation != NULL)
            *separation = 0.0f;
        return COPSE_ERR_NULL;
    }
    e.list = NULL;
    e.visit = keep_first_pair;
    e.user = witness;
    e.found = false;
    return overlap(tree, mesh, pose, &e, separation);
}

copse_status copse_bvh_overlap_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                                   copse_pair_list *out, float *separation)
{
    pair_emitter e;
    if (out != NULL) {
        out->count = 0;
        out->truncated = false;
    }
    if (out == NULL || (out->pairs == NULL && out->capacity > 0u)) {
        if (separation != NULL)
            *separation = 0.0f;
        return COPSE_ERR_NULL;
    }
    e.list = out;
    e.visit = NULL;
    e.user = NULL;
    e.found = false;
    return overlap(tree, mesh, pose, &e, separation);
}

copse_status copse_bvh_visit_bvh(const copse_bvh *tree, const copse_bvh *mesh, const copse_pose *pose,
                                 copse_pair_visitor visit, void *user, float *separation)
{
    pair_emitter e;
    if (visit == NULL) {
        if (separation != NULL)
            *separation = 0.0f;
        return COPSE_ERR_NULL;
    }
    e.list = NULL;
    e.visit = visit;
    e.user = user;
    e.found = false;
    return overlap(tree, mesh, pose, &e, separation);
}

/* ---- distance -------------------------------------------------------------------------------------- */

typedef struct pair_entry {
    uint32_t a, b;
    float key; /* squared lower bound of the pair's distance */
} pair_entry;

COPSE_INLINE float pair_lb2(const pair_walk *w, uint32_t a, uint32_t b)
{
    float m[3], e[3], c[3], h[3];
    node_box(w->ta, a, m, e);
    posed_box(w, b, c, h);
    return copse__collide_box_gap2(m, e, c, h, w->f.r, w->ar);
}

/* Triangle pairs of two leaves are taken LEAF_SORT x LEAF_SORT at a time, nearest bound first,
 * so the best distance shrinks early and prunes the rest of the chunk. */
#define LEAF_SORT 2u

typedef struct tri_candidate {
    float lb2;           /* the pair's squared lower bound */
    uint8_t j, k, apart; /* mesh triangle, tree triangle (within the chunks), certified apart */
} tri_candidate;

COPSE_NOINLINE static void leaf_distances(const pair_walk *w, uint32_t a, uint32_t b, cl_best *best)
{
    const copse_bvh *ta = w->ta, *tb = w->tb;
    uint32_t ib = (uint32_t)bvh_node_index(tb->nodes, b, 3), nb = bvh_node_count(tb->nodes, b, 3);
    uint32_t ia = (uint32_t)bvh_node_index(ta->nodes, a, 3), na = bvh_node_count(ta->nodes, a, 3);
    const float *lmn = bvh_node_min(ta->nodes, a, 3), *lmx = bvh_node_max(ta->nodes, a, 3);
    uint32_t jb, ka;
    for (jb = 0; jb < nb && !best->done; jb += LEAF_SORT) {
        uint32_t nj = nb - jb < LEAF_SORT ? nb - jb : LEAF_SORT, j;
        posed_tri t[LEAF_SORT];
        geo_tri_plane tplane[LEAF_SORT];
        geo_tri_prep tprep[LEAF_SORT];
        bool near[LEAF_SORT];
        uint32_t prepared = 0; /* bit j: tprep[j] is made */
        for (j = 0; j < nj; j++) {
            pose_triangle(w, tb->prims[ib + jb + j], &t[j]);
            near[j] = cl_aabb_gap2(t[j].mn, t[j].mx, lmn, lmx) <= best->cut2;
            if (near[j])
                geo_tri_plane_init(&tplane[j], t[j].p);
        }
        for (ka = 0; ka < na && !best->done; ka += LEAF_SORT) {
            uint32_t nk = na - ka < LEAF_SORT ? na - ka : LEAF_SORT, k, n = 0, i;
            tri_candidate c[LEAF_SORT * LEAF_SORT];
            geo_tri_plane aplane[LEAF_SORT];
            geo_tri_prep aprep[LEAF_SORT];
            uint32_t aprepared = 0; /* bit k: aprep[k] is made */
            const float *v[LEAF_SORT][3];
            float amn[LEAF_SORT][3], amx[LEAF_SORT][3];
            for (k = 0; k < nk; k++) {
                cl_tree_triangle(ta, ta->prims[ia + ka + k], v[k]);
                tri_bounds(v[k], amn[k], amx[k]);
                geo_tri_plane_init(&aplane[k], v[k]);
            }
            for (j = 0; j < nj; j++) {
                if (!near[j])
                    continue;
                for (k = 0; k < nk; k++) {
                    float g2 = cl_aabb_gap2(t[j].mn, t[j].mx, amn[k], amx[k]), g;
                    if (g2 > best->cut2)
                        continue;
                    /* the planes' gap: a bound that spares most far pairs the exact distance, and
                     * a pair it certifies apart the exact overlap test */
                    g = plane_gap(&aplane[k], v[k], &tplane[j], t[j].p);
                    c[n].lb2 = geo_max(g2, g * g);
                    c[n].j = (uint8_t)j;
                    c[n].k = (uint8_t)k;
                    c[n++].apart = g > 0.0f;
                }
            }
            for (i = 1; i < n; i++) { /* insertion sort: at most 16, stable (ties keep their order) */
                tri_candidate x = c[i];
                uint32_t m = i;
                while (m > 0u && c[m - 1u].lb2 > x.lb2) {
                    c[m] = c[m - 1u];
                    m--;
                }
                c[m] = x;
            }
            for (i = 0; i < n && !best->done; i++) {
                float pp[3], pq[3], d2;
                uint32_t cj = c[i].j, ck = c[i].k;
                if (c[i].lb2 > best->cut2)
                    break;
                /* each triangle prepared once, for all the pairs it is in */
                if (((prepared >> cj) & 1u) == 0u) {
                    copse_geo_tri_prepare(&tprep[cj], t[cj].p);
                    prepared |= 1u << cj;
                }
                if (((aprepared >> ck) & 1u) == 0u) {
                    copse_geo_tri_prepare(&aprep[ck], v[ck]);
                    aprepared |= 1u << ck;
                }
                d2 = c[i].apart ? copse_geo_tri_tri_prepared_apart(&tprep[cj], &aprep[ck], pp, pq)
                                : copse_geo_tri_tri_prepared(&tprep[cj], &aprep[ck], pp, pq);
                copse__collide_best_offer(best, d2, bvh_prim_id(ta, ta->prims[ia + ka + c[i].k]),
                                          bvh_prim_id(tb, tb->prims[ib + jb + c[i].j]), pp, pq);
            }
        }
    }
}

COPSE_NOINLINE static void distance_walk(const pair_walk *w, cl_best *best)
{
    pair_entry stack[PAIR_STACK];
    uint32_t sp = 0, a = 0, b = 0;
    if (pair_lb2(w, 0, 0) > best->cut2)
        return;
    for (;;) {
        bool la = is_leaf(w->ta, a), lb = is_leaf(w->tb, b);
        if (la && lb) {
            leaf_distances(w, a, b, best);
            if (best->done)
                return;
        } else {
            /* split one side; go on with the nearer child pair, keep the other if it may help */
            uint32_t a1 = a, b1 = b, a2 = a, b2 = b;
            float k1, k2;
            if (split_tree_side(w, a, b)) {
                a1 = a + 1u;
                a2 = bvh_node_right(w->ta->nodes, a, 3);
            } else {
                b1 = b + 1u;
                b2 = bvh_node_right(w->tb->nodes, b, 3);
            }
            k1 = pair_lb2(w, a1, b1);
            k2 = pair_lb2(w, a2, b2);
            if (k2 < k1) {
                uint32_t ta = a1, tb = b1;
                float tk = k1;
                a1 = a2;
                b1 = b2;
                k1 = k2;
                a2 = ta;
                b2 = tb;
                k2 = tk;
            }
            if (k1 <= best->cut2) {
                if (k2 <= best->cut2 && sp < PAIR_STACK) {
                    stack[sp].a = a2;
                    stack[sp].b = b2;
                    stack[sp++].key = k2;
                }
                a = a1;
                b = b1;
                continue;
            }
        }
        for (;;) {
            if (sp == 0u)
                return;
            sp--;
            if (stack[sp].key <= best->cut2)
                break;
        }
        a = stack[sp].a;
        b = stack[sp].b;
    }
}

copse_status copse_distance_bvh_bvh(const copse_bvh *mesh, const copse_pose *pose, const copse_bvh *tree,
                                    const copse_distance_query *query, copse_distance *out)
{
    pair_walk w;
    cl_best best;
    copse_status st;
    copse__collide_distance_empty(out);
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = pair_start(&w, tree, mesh, pose);
    if (st == COPSE_OK)
        st = copse__collide_best_init(&best, query, 0.0f, w.slack);
    if (st != COPSE_OK)
        return st;
    if (tree->node_count > 0u && mesh->node_count > 0u) {
        /* Touching ends the query (collide.h). The boolean walk finds a touching pair far sooner
         * than the distance walk, which would price every near pair on its way there; when it
         * finds none, the distance walk runs. */
        copse_pair touch;
        pair_emitter e;
        e.list = NULL;
        e.visit = keep_first_pair;
        e.user = &touch;
        e.found = false;
        touch.tree_id = touch.shape_id = COPSE_NONE;
        overlap_walk(&w, &e);
        if (e.found) {
            const float *v[3];
            posed_tri t;
            float pp[3], pq[3], d2;
            unsigned k;
            /* ids are primitive indices in mesh trees (no box ids) */
            cl_tree_triangle(tree, touch.tree_id, v);
            pose_triangle(&w, touch.shape_id, &t);
            d2 = copse_geo_triangle_triangle(t.p, v, pp, pq);
            if (d2 > 0.0f) {
                /* The exact test says they touch; the closest-point kernel, in float, can leave its
                 * two points an ulp apart (fuzz_collide: 3.8e-6 at 32 with corners at 1.7e9). The
                 * distance is 0: one point, between the two, serves both sides. */
                for (k = 0; k < 3u; k++)
                    pp[k] = pq[k] = 0.5f * pp[k] + 0.5f * pq[k];
                d2 = 0.0f;
            }
            copse__collide_best_offer(&best, d2, touch.tree_id, touch.shape_id, pp, pq);
        } else {
            distance_walk(&w, &best);
        }
    }
    /* the walks offer (tree triangle, mesh triangle) with the mesh's point first */
    copse__collide_best_finish(&best, NULL, CL_TRIANGLE, NULL, out);
    return COPSE_OK;
}

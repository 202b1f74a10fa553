/* SPDX-License-Identifier: MIT */
/*
 * One call per configuration: a robot's links, placed by their world poses, against the world
 * and against each other (copse_robot_collides, _contacts, _distances), on top of collide.h.
 *
 * What a link is: its mesh when it has one (a surface, as every mesh query sees it), else the
 * union of its spheres and capsules, else nothing (it never collides). A link's padding grows it:
 * two things touch when their distance is at most their paddings together (plus the world's
 * scan_padding for a scan point).
 *
 * Pruning never changes an answer: a bounding-sphere cull per pair, the object broadphase, and
 * the sphere/capsule pre-test (a link whose shapes hold its mesh, ROBOT_LINK_SHAPES_BOUND: shapes
 * clear of the other thing by more than the cut-off mean the mesh is too) only skip pairs that
 * could not be within the cut-off, each with a relative slack for rounding; the pairs tested, and
 * the order they are visited in, are the same with and without COPSE_ROBOT_NO_SHAPES.
 *
 * Order (collides' first contact and contacts' list): the world first, link by link in index
 * order (its world meshes in order, then objects by index, then the scan), then the self pairs
 * (a < b, lexicographic). A contact's details (triangles, point) come from a distance query on
 * the pair that was found touching, stopping at its first pair within the paddings: point is the
 * closest point on the link (the grown link's surface for shapes), in the world; when the two
 * touch with no padding it is a point both share.
 */
#include "robot_internal.h"
#include "../collide/collide_internal.h"
#include "../geom/geom_collide.h"

/* A pair's bounding-sphere cull and the pre-test skip only beyond this much (relative to the
 * coordinates' magnitude) past the cut-off: rounding in the bounds and in the build's
 * shapes-hold-the-mesh check stays well inside it. */
#define RC_SLACK 1.0e-5f

/* Two meshes' shapes are tested before their ball tests when they make at most this many pairs. */
#define RC_FEW_SHAPE_PAIRS 4u

/* The first links' bounding balls in the world, made as they are first asked for: a call over
 * every pair asks for each link's many times. Arms have fewer than RC_BALLS links; a larger
 * robot's others are made each time (the cache stays a quarter of a kilobyte of stack). */
#define RC_BALLS 16u

/* The first world meshes' balls, made once a call (their poses do not move within it). */
#define RC_MESH_BALLS 8u

typedef struct rc_balls {
    uint32_t made;      /* bit l: ball[l] is made */
    uint32_t mesh_made; /* bit i: mesh[i] is made */
    float ball[RC_BALLS][4];      /* centre, radius (< 0: the link has nothing) */
    float mesh[RC_MESH_BALLS][4]; /* centre, radius (< 0: the tree is empty) */
} rc_balls;

typedef struct rc_ctx {
    const copse_robot *robot;
    const copse_world *world;
    const copse_pose *poses;
    uint32_t flags;
    rc_balls *balls; /* NULL: each ball made when asked for */
} rc_ctx;

static void rc_ctx_init(rc_ctx *c, const copse_robot *robot, const copse_world *world, const copse_pose *poses,
                        uint32_t flags, rc_balls *balls)
{
    c->robot = robot;
    c->world = world;
    c->poses = poses;
    c->flags = flags;
    c->balls = balls;
    if (balls != NULL)
        balls->made = balls->mesh_made = 0u;
}

/* One pair's question. */
typedef struct rc_job {
    uint32_t link, kind, other; /* the link; COPSE_CONTACT_*; the other link, mesh or object */
    float pad;                  /* the pair's paddings together */
    float max_raw;              /* the distance (paddings not taken off) that matters */
    bool touch;                 /* only "within max_raw?": boolean queries where they exist */
    bool first;                 /* a distance: the first pair found within max_raw will do */
} rc_job;

/* A pair's answer. */
typedef struct rc_near {
    float d; /* paddings not taken off (touch: 0); FLT_MAX: nothing within max_raw */
    uint32_t prim, other_prim;
    copse_vec3 p_link, p_other; /* world */
} rc_near;

/* A part of a side: a mesh, a capsule (a sphere when a == b) in the world, a box, the scan. */
enum { RC_MESH, RC_CAPSULE, RC_OBB, RC_SCAN };

typedef struct rc_part {
    uint32_t type;
    const copse_bvh *tree;    /* RC_MESH */
    const copse_pose *pose;   /* RC_MESH: its frame in the world */
    copse_capsule cap;        /* RC_CAPSULE */
    const copse_obb *obb;     /* RC_OBB */
} rc_part;

static void rc_empty(rc_near *n)
{
    n->d = FLT_MAX;
    n->prim = COPSE_NONE;
    n->other_prim = COPSE_NONE;
    n->p_link = copse_v3(0.0f, 0.0f, 0.0f);
    n->p_other = n->p_link;
}

COPSE_INLINE float rc_add(float a, float b)
{
    float s = a + b;
    return s < FLT_MAX ? s : FLT_MAX;
}

COPSE_INLINE float rc_len(float x, float y, float z)
{
    return copse_sqrtf(x * x + y * y + z * z);
}

COPSE_INLINE float rc_mag(copse_vec3 v)
{
    return geo_max(geo_max(copse_fabsf(v.x), copse_fabsf(v.y)), copse_fabsf(v.z));
}

static bool rc_keep_first(void *user, uint32_t id)
{
    *(uint32_t *)user = id;
    return false;
}

void copse__robot_link_sphere(const copse_robot *r, uint32_t link, float c[3], float *radius)
{
    const robot_link *l = robot_link_at(r, link);
    float mn[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, mx[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
    uint32_t i, k, n = l->sphere_count + l->capsule_count;
    *radius = -1.0f;
    if (l->tree != COPSE_NONE) {
        const robot_tree *t = robot_tree_at(r, l->tree);
        const copse_bvh_node3 *root = (const copse_bvh_node3 *)(const void *)(r->data + t->nodes);
        if (t->node_count == 0u)
            return;
        for (k = 0; k < 3; k++) {
            mn[k] = root->min[k];
            mx[k] = root->max[k];
        }
    } else {
        if (n == 0u)
            return;
        for (i = 0; i < n; i++) {
            const robot_shape *s = robot_shape_at(r, l->shape_first + i);
            for (k = 0; k < 3; k++) {
                mn[k] = geo_min(mn[k], geo_min(s->a[k], s->b[k]) - s->radius);
                mx[k] = geo_max(mx[k], geo_max(s->a[k], s->b[k]) + s->radius);
            }
        }
    }
    for (k = 0; k < 3; k++)
        c[k] = 0.5f * mn[k] + 0.5f * mx[k];
    *radius = 0.5f * rc_len(mx[0] - mn[0], mx[1] - mn[1], mx[2] - mn[2]);
    /* A mesh held by one capsule (copse robot bake --capsule): the capsule's ball when smaller. Its
     * radius is rounded up by a few ulps, as the box's ball is only by its own rounding (the
     * culls' relative slack covers both). */
    if (l->tree != COPSE_NONE && (l->flags & ROBOT_LINK_SHAPES_BOUND) != 0u && n == 1u) {
        const robot_shape *s = robot_shape_at(r, l->shape_first);
        float m[3], half;
        for (k = 0; k < 3; k++)
            m[k] = 0.5f * s->a[k] + 0.5f * s->b[k];
        half = 0.5f * rc_len(s->b[0] - s->a[0], s->b[1] - s->a[1], s->b[2] - s->a[2]);
        if ((half + s->radius) * (1.0f + 4.0f * FLT_EPSILON) < *radius) {
            for (k = 0; k < 3; k++)
                c[k] = m[k];
            *radius = (half + s->radius) * (1.0f + 4.0f * FLT_EPSILON);
        }
    }
}

/* A cached ball: centre and radius, four floats. */
COPSE_INLINE bool rc_ball_load(const float *b, copse_vec3 *center, float *radius)
{
    *center = copse_v3(b[0], b[1], b[2]);
    *radius = b[3];
    return *radius >= 0.0f;
}

COPSE_INLINE void rc_ball_store(float *b, copse_vec3 center, float radius)
{
    b[0] = center.x;
    b[1] = center.y;
    b[2] = center.z;
    b[3] = radius;
}

/* The link's bounding sphere in the world; false: the link has nothing to bound. */
static bool rc_link_ball(const rc_ctx *c, uint32_t link, copse_vec3 *center, float *radius)
{
    float lc[3];
    const bool cached = c->balls != NULL && link < RC_BALLS;
    if (cached && ((c->balls->made >> link) & 1u) != 0u)
        return rc_ball_load(c->balls->ball[link], center, radius);
    copse__robot_link_sphere(c->robot, link, lc, radius);
    *center = *radius < 0.0f ? copse_v3(0.0f, 0.0f, 0.0f) : copse_pose_apply(&c->poses[link], copse_v3(lc[0], lc[1], lc[2]));
    if (cached) {
        rc_ball_store(c->balls->ball[link], *center, *radius);
        c->balls->made |= (uint32_t)1u << link;
    }
    return *radius >= 0.0f;
}

/* World mesh i's bounding sphere (its root box's) in the world; false: the tree is empty. A tree
 * the queries will refuse gets an infinite ball (so the query runs and says why). */
static bool rc_mesh_ball(const rc_ctx *c, uint32_t i, copse_vec3 *center, float *radius)
{
    const copse_bvh *t = c->world->meshes[i].tree;
    const copse_bvh_node3 *root;
    const bool cached = c->balls != NULL && i < RC_MESH_BALLS;
    if (cached && ((c->balls->mesh_made >> i) & 1u) != 0u)
        return rc_ball_load(c->balls->mesh[i], center, radius);
    *center = copse_v3(0.0f, 0.0f, 0.0f);
    *radius = FLT_MAX;
    if (t->node_count == 0u) {
        *radius = -1.0f;
    } else if (t->dim == 3u && t->nodes != NULL) {
        root = (const copse_bvh_node3 *)t->nodes;
        *center = copse_pose_apply(&c->world->meshes[i].pose,
                                   copse_v3(0.5f * root->min[0] + 0.5f * root->max[0],
                                            0.5f * root->min[1] + 0.5f * root->max[1],
                                            0.5f * root->min[2] + 0.5f * root->max[2]));
        *radius = 0.5f * rc_len(root->max[0] - root->min[0], root->max[1] - root->min[1],
                                root->max[2] - root->min[2]);
    }
    if (cached) {
        rc_ball_store(c->balls->mesh[i], *center, *radius);
        c->balls->mesh_made |= (uint32_t)1u << i;
    }
    return *radius >= 0.0f;
}

/* Are two bounding balls farther apart than max_raw? Only beyond the rounding slack (RC_SLACK):
 * rb may be FLT_MAX, a tree the queries refuse, which is never apart. */
COPSE_INLINE bool rc_balls_apart(copse_vec3 ca, float ra, copse_vec3 cb, float rb, float max_raw)
{
    const float slack = RC_SLACK * (rc_mag(ca) + rc_mag(cb) + ra + (rb < FLT_MAX ? rb : 0.0f));
    const float gap = rc_len(ca.x - cb.x, ca.y - cb.y, ca.z - cb.z) - ra - rb;
    return gap > rc_add(max_raw, slack);
}

/* Link `link`'s (mesh: world mesh `link`'s) cached ball, made now if it is not; NULL beyond the
 * cache. */
COPSE_INLINE const float *rc_cached_ball(const rc_ctx *c, uint32_t link, bool mesh)
{
    copse_vec3 center;
    float radius;
    if (mesh) {
        if (link >= RC_MESH_BALLS)
            return NULL;
        if (((c->balls->mesh_made >> link) & 1u) == 0u)
            (void)rc_mesh_ball(c, link, &center, &radius);
        return c->balls->mesh[link];
    }
    if (link >= RC_BALLS)
        return NULL;
    if (((c->balls->made >> link) & 1u) == 0u)
        (void)rc_link_ball(c, link, &center, &radius);
    return c->balls->ball[link];
}

/* A boolean pair of a link and another link (SELF) or a world mesh (MESH) that the balls alone set
 * apart: rc_pair's first cull, from the call's cached balls before a job is made, as most of a
 * call's pairs end there. False: the pair must run (it may still find them apart). */
COPSE_INLINE bool rc_touch_apart(const rc_ctx *c, uint32_t link, uint32_t kind, uint32_t other)
{
    const float *a = rc_cached_ball(c, link, false), *b;
    float pad = robot_link_at(c->robot, link)->padding;
    if (a == NULL)
        return false;
    if (kind == COPSE_CONTACT_SELF)
        pad += robot_link_at(c->robot, other)->padding;
    b = rc_cached_ball(c, other, kind != COPSE_CONTACT_SELF);
    if (b == NULL)
        return false;
    if (a[3] < 0.0f || b[3] < 0.0f)
        return true; /* a side with nothing in it: rc_pair says the same */
    return rc_balls_apart(copse_v3(a[0], a[1], a[2]), a[3], copse_v3(b[0], b[1], b[2]), b[3], pad);
}

/* The other thing's bounding sphere; false: it is empty. A tree the queries will refuse gets an
 * infinite ball (so the query runs and says why). */
static bool rc_other_ball(const rc_ctx *c, const rc_job *j, copse_vec3 *center, float *radius)
{
    const copse_world *w = c->world;
    if (j->kind == COPSE_CONTACT_SELF)
        return rc_link_ball(c, j->other, center, radius);
    if (j->kind == COPSE_CONTACT_MESH)
        return rc_mesh_ball(c, j->other, center, radius);
    if (j->kind == COPSE_CONTACT_SCAN) {
        const copse_octree *t = w->scan;
        if (t->size == 0u)
            return false;
        *center = copse_v3(t->center[0], t->center[1], t->center[2]);
        *radius = 1.7320509f * t->half;
        return true;
    }
    {
        const copse_world_object *o = &w->objects[j->other];
        if (o->kind != COPSE_OBJECT_BOX && o->kind != COPSE_OBJECT_SPHERE) {
            *center = copse_v3(0.0f, 0.0f, 0.0f); /* unknown: let the pair say PARAM */
            *radius = FLT_MAX;
        } else if (o->kind == COPSE_OBJECT_BOX) {
            *center = o->box.center;
            *radius = rc_len(o->box.half.x, o->box.half.y, o->box.half.z);
        } else {
            *center = o->sphere.center;
            *radius = o->sphere.radius;
        }
        return true;
    }
}

/* ---- one link part against one other part ---------------------------------------------------- */

/* A distance query's answer as a pair's: `link_tree` when the link's part was the tree; `frame`
 * maps the tree's frame to the world (NULL: the world). */
static void rc_from_distance(const copse_distance *dd, bool link_tree, const copse_pose *frame, rc_near *out)
{
    rc_empty(out);
    if (dd->distance == FLT_MAX)
        return;
    out->d = dd->distance;
    out->prim = link_tree ? dd->tree_id : dd->shape_id;
    out->other_prim = link_tree ? dd->shape_id : dd->tree_id;
    out->p_link = copse_pose_apply(frame, link_tree ? dd->tree_point : dd->shape_point);
    out->p_other = copse_pose_apply(frame, link_tree ? dd->shape_point : dd->tree_point);
    /* A sphere or capsule into the surface: its reported point is its deepest, inside the mesh's
     * volume; the surface point lies in both, so both sides take it. */
    if (dd->depth > 0.0f)
        out->p_link = out->p_other = copse_pose_apply(frame, dd->tree_point);
}

/* Rounded cores: pa on the link's core, pb on the other's, d2 apart, radii ra and rb. The points
 * become the closest points of the rounded shapes (each moves toward the other by at most its
 * radius: when they overlap, a point of both). */
static void rc_rounded(const float *pa, const float *pb, float d2, float ra, float rb, float max_raw, rc_near *out)
{
    float core = copse_sqrtf(d2), d = core - ra - rb, ua = 0.0f, ub = 0.0f;
    unsigned k;
    float qa[3], qb[3];
    rc_empty(out);
    if (d < 0.0f)
        d = 0.0f;
    if (!(d <= max_raw))
        return;
    if (core > 0.0f) {
        ua = geo_min(ra, core) / core;
        ub = geo_min(rb, core) / core;
    }
    for (k = 0; k < 3; k++) {
        qa[k] = pa[k] + (pb[k] - pa[k]) * ua;
        qb[k] = pb[k] - (pb[k] - pa[k]) * ub;
    }
    out->d = d;
    out->p_link = copse_v3(qa[0], qa[1], qa[2]);
    out->p_other = copse_v3(qb[0], qb[1], qb[2]);
}

static void rc_vec(float *out, copse_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
}

/* A world capsule against a box: in the box's frame, the segment as a degenerate triangle. */
static void rc_capsule_obb(const copse_capsule *cap, const copse_obb *obb, float max_raw, rc_near *out)
{
    float p[2][3], half[3], pb[3], pt[3], d2, w[3];
    const float *tri[3];
    unsigned i, k;
    copse_vec3 ends[2];
    ends[0] = cap->segment.a;
    ends[1] = cap->segment.b;
    for (i = 0; i < 2; i++) {
        float g[3];
        g[0] = ends[i].x - obb->center.x;
        g[1] = ends[i].y - obb->center.y;
        g[2] = ends[i].z - obb->center.z;
        for (k = 0; k < 3; k++)
            p[i][k] = obb->rotation[0][k] * g[0] + obb->rotation[1][k] * g[1] + obb->rotation[2][k] * g[2];
    }
    rc_vec(half, obb->half);
    tri[0] = p[0];
    tri[1] = p[1];
    tri[2] = p[1];
    d2 = copse_geo_box_triangle(half, tri, pb, pt);
    rc_rounded(pt, pb, d2, cap->radius, 0.0f, max_raw, out);
    if (out->d == FLT_MAX)
        return;
    /* back to the world */
    rc_vec(pt, out->p_link);
    rc_vec(pb, out->p_other);
    for (k = 0; k < 3; k++)
        w[k] = obb->rotation[k][0] * pt[0] + obb->rotation[k][1] * pt[1] + obb->rotation[k][2] * pt[2];
    out->p_link = copse_v3(w[0] + obb->center.x, w[1] + obb->center.y, w[2] + obb->center.z);
    for (k = 0; k < 3; k++)
        w[k] = obb->rotation[k][0] * pb[0] + obb->rotation[k][1] * pb[1] + obb->rotation[k][2] * pb[2];
    out->p_other = copse_v3(w[0] + obb->center.x, w[1] + obb->center.y, w[2] + obb->center.z);
}

static void rc_capsule_capsule(const copse_capsule *a, const copse_capsule *b, float max_raw, rc_near *out)
{
    float a0[3], a1[3], b0[3], b1[3], pa[3], pb[3], d2;
    rc_vec(a0, a->segment.a);
    rc_vec(a1, a->segment.b);
    rc_vec(b0, b->segment.a);
    rc_vec(b1, b->segment.b);
    d2 = copse_geo_segment_segment(a0, a1, b0, b1, pa, pb);
    rc_rounded(pa, pb, d2, a->radius, b->radius, max_raw, out);
}

/* A touch answer: d 0 with the witness' ids. */
static void rc_touched(bool hit, uint32_t prim, uint32_t other_prim, rc_near *out)
{
    rc_empty(out);
    if (hit) {
        out->d = 0.0f;
        out->prim = prim;
        out->other_prim = other_prim;
    }
}

/* A pose the checks make from the caller's (an inverse, a product of two). Each factor is a
 * rotation within COPSE_POSE_TOLERANCE, so the result can be a few times that far from one and
 * the kernels would refuse it (COPSE_ERR_PARAM) though the caller gave nothing wrong. Only then
 * are its columns made orthonormal again (Gram-Schmidt, the third from the first two): poses
 * that pass keep their bytes, and the settled map differs from the product by about what the
 * caller's own poses were off. */
static copse_status rc_settle(copse_pose *p)
{
    float (*m)[3] = p->rotation;
    float c0[3], c1[3], n0, d, n1;
    unsigned k;
    copse_status st = copse_pose_check(p);
    if (st != COPSE_ERR_PARAM)
        return st;
    for (k = 0; k < 3u; k++) {
        c0[k] = m[k][0];
        c1[k] = m[k][1];
    }
    n0 = 1.0f / copse_sqrtf(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
    for (k = 0; k < 3u; k++)
        c0[k] *= n0;
    d = c0[0] * c1[0] + c0[1] * c1[1] + c0[2] * c1[2];
    for (k = 0; k < 3u; k++)
        c1[k] -= d * c0[k];
    n1 = 1.0f / copse_sqrtf(c1[0] * c1[0] + c1[1] * c1[1] + c1[2] * c1[2]);
    for (k = 0; k < 3u; k++) {
        c1[k] *= n1;
        m[k][0] = c0[k];
        m[k][1] = c1[k];
    }
    m[0][2] = c0[1] * c1[2] - c0[2] * c1[1];
    m[1][2] = c0[2] * c1[0] - c0[0] * c1[2];
    m[2][2] = c0[0] * c1[1] - c0[1] * c1[0];
    return copse_pose_check(p);
}

/* The link's part a (RC_MESH or RC_CAPSULE) against the other's part b; with `settle`, the
 * relative pose settled first (rc_settle). */
static COPSE_NOINLINE copse_status rc_leaf_posed(const rc_ctx *c, const rc_job *j, const rc_part *a, const rc_part *b,
                                                 rc_near *out, bool settle)
{
    copse_distance dd;
    copse_distance_query q;
    copse_pose rel;
    copse_capsule grown;
    copse_status st = COPSE_OK;
    uint32_t id = COPSE_NONE;
    bool any = j->touch;
    q.max_distance = j->max_raw;
    q.abs_err = 0.0f;
    q.rel_err = 0.0f;
    q.first_within = j->first || j->touch;
    rc_empty(out);
    if (a->type == RC_CAPSULE) {
        grown = a->cap;
        grown.radius = rc_add(grown.radius, j->max_raw);
        switch (b->type) {
        case RC_CAPSULE:
            rc_capsule_capsule(&a->cap, &b->cap, j->max_raw, out);
            return COPSE_OK;
        case RC_OBB:
            if ((st = copse_obb_check(b->obb)) != COPSE_OK)
                return st;
            rc_capsule_obb(&a->cap, b->obb, j->max_raw, out);
            return COPSE_OK;
        case RC_SCAN:
            if (any) {
                st = copse_octree_any_capsule(c->world->scan, &grown, NULL, &id);
                rc_touched(id != COPSE_NONE, COPSE_NONE, id, out);
                return st;
            }
            st = copse_distance_capsule_octree(&a->cap, NULL, c->world->scan, &q, &dd);
            rc_from_distance(&dd, false, NULL, out);
            return st;
        default: /* a mesh: the capsule in its frame */
            if ((st = copse_pose_invert(&rel, b->pose)) != COPSE_OK || (settle && (st = rc_settle(&rel)) != COPSE_OK))
                return st;
            if (any) {
                st = copse_bvh_any_capsule(b->tree, &grown, &rel, &id);
                rc_touched(id != COPSE_NONE, COPSE_NONE, id, out);
                return st;
            }
            st = copse_distance_capsule_bvh(&a->cap, &rel, b->tree, &q, &dd);
            rc_from_distance(&dd, false, b->pose, out);
            return st;
        }
    }
    /* the link's mesh: the tree, the other placed in its frame (the scan aside) */
    if (b->type == RC_SCAN) {
        if (any) {
            st = copse_octree_visit_bvh(c->world->scan, a->tree, a->pose, j->max_raw, rc_keep_first, &id);
            rc_touched(id != COPSE_NONE, COPSE_NONE, id, out);
            return st;
        }
        st = copse_distance_bvh_octree(a->tree, a->pose, c->world->scan, &q, &dd);
        rc_from_distance(&dd, false, NULL, out);
        return st;
    }
    if ((st = copse_pose_invert(&rel, a->pose)) != COPSE_OK)
        return st;
    if (b->type != RC_CAPSULE && b->type != RC_OBB && (st = copse_pose_compose(&rel, &rel, b->pose)) != COPSE_OK)
        return st;
    if (settle && (st = rc_settle(&rel)) != COPSE_OK)
        return st;
    if (b->type == RC_CAPSULE) {
        grown = b->cap;
        grown.radius = rc_add(grown.radius, j->max_raw);
        if (any) {
            st = copse_bvh_any_capsule(a->tree, &grown, &rel, &id);
            rc_touched(id != COPSE_NONE, id, COPSE_NONE, out);
            return st;
        }
        st = copse_distance_capsule_bvh(&b->cap, &rel, a->tree, &q, &dd);
    } else if (b->type == RC_OBB) {
        if (any && j->max_raw == 0.0f) {
            st = copse_bvh_any_obb(a->tree, b->obb, &rel, &id);
            rc_touched(id != COPSE_NONE, id, COPSE_NONE, out);
            return st;
        }
        st = copse_distance_obb_bvh(b->obb, &rel, a->tree, &q, &dd);
    } else {
        if (any && j->max_raw == 0.0f) {
            copse_pair w;
            st = copse_bvh_any_bvh(a->tree, b->tree, &rel, &w, NULL);
            rc_touched(w.tree_id != COPSE_NONE, w.tree_id, w.shape_id, out);
            return st;
        }
        st = copse_distance_bvh_bvh(b->tree, &rel, a->tree, &q, &dd);
    }
    rc_from_distance(&dd, true, a->pose, out);
    if (b->type != RC_MESH)
        out->other_prim = COPSE_NONE;
    return st;
}

/* A relative pose made from two valid ones can miss the kernels' tolerance (rc_settle): only a
 * kernel's PARAM, never the common case, pays for settling it and trying again. */
static copse_status rc_leaf(const rc_ctx *c, const rc_job *j, const rc_part *a, const rc_part *b, rc_near *out)
{
    copse_status st = rc_leaf_posed(c, j, a, b, out, false);
    return st == COPSE_ERR_PARAM ? rc_leaf_posed(c, j, a, b, out, true) : st;
}

/* ---- a pair: the link's mesh or shapes against the other's ----------------------------------- */

/* A moving object's own rules: PARAM (kind), NONFINITE, EMPTY_RANGE, copse_obb_check's. */
static copse_status rc_object_check(const copse_world_object *o)
{
    if (o->kind == COPSE_OBJECT_BOX)
        return copse_obb_check(&o->box);
    if (o->kind != COPSE_OBJECT_SPHERE)
        return COPSE_ERR_PARAM;
    if (!geo_finite(o->sphere.radius) || !geo_finite(o->sphere.center.x) || !geo_finite(o->sphere.center.y) ||
        !geo_finite(o->sphere.center.z))
        return COPSE_ERR_NONFINITE;
    return o->sphere.radius < 0.0f ? COPSE_ERR_EMPTY_RANGE : COPSE_OK;
}


/* Shape i of a link, in the world. */
static void rc_shape_world(const rc_ctx *c, uint32_t link, uint32_t i, copse_capsule *cap)
{
    const robot_shape *s = robot_shape_at(c->robot, robot_link_at(c->robot, link)->shape_first + i);
    const copse_pose *p = &c->poses[link];
    cap->segment.a = copse_pose_apply(p, copse_v3(s->a[0], s->a[1], s->a[2]));
    cap->segment.b = copse_pose_apply(p, copse_v3(s->b[0], s->b[1], s->b[2]));
    cap->radius = s->radius;
}

/* Two capsules (world frame) whose bounding balls are farther apart than max_raw, with the same
 * relative slack as the other culls: the segment-segment search is not needed. */
static bool rc_capsules_apart(const copse_capsule *a, const copse_capsule *b, float max_raw)
{
    copse_vec3 ca = copse_v3(0.5f * a->segment.a.x + 0.5f * a->segment.b.x, 0.5f * a->segment.a.y + 0.5f * a->segment.b.y,
                             0.5f * a->segment.a.z + 0.5f * a->segment.b.z);
    copse_vec3 cb = copse_v3(0.5f * b->segment.a.x + 0.5f * b->segment.b.x, 0.5f * b->segment.a.y + 0.5f * b->segment.b.y,
                             0.5f * b->segment.a.z + 0.5f * b->segment.b.z);
    float ra = 0.5f * rc_len(a->segment.b.x - a->segment.a.x, a->segment.b.y - a->segment.a.y,
                             a->segment.b.z - a->segment.a.z) + a->radius;
    float rb = 0.5f * rc_len(b->segment.b.x - b->segment.a.x, b->segment.b.y - b->segment.a.y,
                             b->segment.b.z - b->segment.a.z) + b->radius;
    float slack = RC_SLACK * (rc_mag(ca) + rc_mag(cb) + ra + rb);
    return rc_len(ca.x - cb.x, ca.y - cb.y, ca.z - cb.z) - ra - rb > rc_add(max_raw, slack);
}

/* Keeps the better answer; true when the search is over (touch or first: something found). */
static bool rc_merge(rc_job *j, const rc_near *r, rc_near *best)
{
    if (r->d < best->d) {
        *best = *r;
        j->max_raw = r->d;
    }
    return best->d != FLT_MAX && (j->touch || j->first);
}

/* The link as its shapes (a_shapes) or mesh against the other as its shapes or mesh (self) or
 * as what it is (the world). Shapes in order, the link's outside. */
static COPSE_NOINLINE copse_status rc_parts(const rc_ctx *c, const rc_job *job, bool a_shapes, bool b_shapes,
                                            rc_near *best)
{
    const copse_world *w = c->world;
    const robot_link *la = robot_link_at(c->robot, job->link);
    uint32_t na = a_shapes ? la->sphere_count + la->capsule_count : 1u, nb = 1u, i, k;
    copse_bvh ta, tb;
    rc_part a, b;
    rc_job j = *job;
    rc_near r;
    copse_status st;
    rc_empty(best);
    a.type = RC_MESH;
    a.pose = &c->poses[job->link];
    a.tree = &ta;
    if (!a_shapes)
        copse__robot_tree_view(c->robot, la->tree, &ta);
    b.tree = &tb;
    b.pose = NULL;
    switch (job->kind) {
    case COPSE_CONTACT_SELF:
        if (b_shapes) {
            const robot_link *lb = robot_link_at(c->robot, job->other);
            nb = lb->sphere_count + lb->capsule_count;
        } else {
            b.type = RC_MESH;
            b.pose = &c->poses[job->other];
            copse__robot_tree_view(c->robot, robot_link_at(c->robot, job->other)->tree, &tb);
        }
        break;
    case COPSE_CONTACT_MESH:
        b.type = RC_MESH;
        b.tree = w->meshes[job->other].tree;
        b.pose = &w->meshes[job->other].pose;
        break;
    case COPSE_CONTACT_SCAN:
        b.type = RC_SCAN;
        break;
    default: {
        const copse_world_object *o = &w->objects[job->other];
        if ((st = rc_object_check(o)) != COPSE_OK) /* copse__robot_check_begin has: kept for the internal callers */
            return st;
        if (o->kind == COPSE_OBJECT_BOX) {
            b.type = RC_OBB;
            b.obb = &o->box;
        } else {
            b.type = RC_CAPSULE;
            b.cap.segment.a = o->sphere.center;
            b.cap.segment.b = o->sphere.center;
            b.cap.radius = o->sphere.radius;
        }
    }
    }
    for (i = 0; i < na; i++) {
        if (a_shapes) {
            a.type = RC_CAPSULE;
            rc_shape_world(c, job->link, i, &a.cap);
        }
        for (k = 0; k < nb; k++) {
            if (job->kind == COPSE_CONTACT_SELF && b_shapes) {
                b.type = RC_CAPSULE;
                rc_shape_world(c, job->other, k, &b.cap);
                if (a_shapes && rc_capsules_apart(&a.cap, &b.cap, j.max_raw))
                    continue;
            }
            if ((st = rc_leaf(c, &j, &a, &b, &r)) != COPSE_OK) {
                rc_empty(best);
                return st;
            }
            if (rc_merge(&j, &r, best))
                return COPSE_OK;
        }
    }
    return COPSE_OK;
}

COPSE_INLINE uint32_t rc_shape_count(const robot_link *l)
{
    return l->sphere_count + l->capsule_count;
}

/* Is nothing of the tree (placed in the world by `frame`) within `reach` of the world point c?
 * The ball test of one side against the other's tree: a few flops a node and a point-triangle
 * test a leaf, where the mesh walk pays a separating-axis test a node pair. */
static bool rc_ball_clear(const copse_bvh *tree, const copse_pose *frame, copse_vec3 c, float reach)
{
    cl_shape s; /* only what a sphere's walk reads: centre, radius, bounds, slack */
    copse_vec3 p;
    unsigned k;
    if (copse__collide_mesh_tree(tree) != COPSE_OK || tree->node_count == 0u)
        return false; /* the mesh walk says why (or that an empty tree touches nothing) */
    p = copse_pose_apply_inverse(frame, c);
    cl_vec3_in(s.v[0], p);
    s.radius = reach;
    s.slack = cl_slack(geo_max(copse__collide_bvh_mag(tree), cl_max_abs3(s.v[0]) + reach));
    for (k = 0; k < 3; k++) {
        s.lo[k] = s.v[0][k] - (reach + s.slack);
        s.hi[k] = s.v[0][k] + (reach + s.slack);
    }
    return !copse__collide_bvh_touches_sphere(tree, &s);
}

/* The pair's answer (out->d FLT_MAX: nothing within job->max_raw). */
static copse_status rc_pair(const rc_ctx *c, const rc_job *j, rc_near *out)
{
    const robot_link *la = robot_link_at(c->robot, j->link), *lb = NULL;
    bool a_mesh = la->tree != COPSE_NONE, b_mesh = false, a_pre, b_pre = false;
    copse_vec3 ca, cb;
    float ra, rb, slack;
    copse_status st;
    rc_empty(out);
    if (!rc_link_ball(c, j->link, &ca, &ra) || !rc_other_ball(c, j, &cb, &rb))
        return COPSE_OK;
    if (j->kind == COPSE_CONTACT_SELF) {
        lb = robot_link_at(c->robot, j->other);
        b_mesh = lb->tree != COPSE_NONE;
    }
    if (rc_balls_apart(ca, ra, cb, rb, j->max_raw))
        return COPSE_OK;
    slack = RC_SLACK * (rc_mag(ca) + rc_mag(cb) + ra + (rb < FLT_MAX ? rb : 0.0f));
    a_pre = a_mesh && (la->flags & ROBOT_LINK_SHAPES_BOUND) != 0u && rc_shape_count(la) > 0u;
    if (lb != NULL)
        b_pre = b_mesh && (lb->flags & ROBOT_LINK_SHAPES_BOUND) != 0u && rc_shape_count(lb) > 0u;
    /* Two meshes: their shapes first when that is a few arithmetic tests (a capsule or two each,
     * copse robot bake --capsule); sets of fitted spheres, several times the mesh's volume,
     * seldom prove two meshes apart after the ball tests and cost their count squared
     * (docs/benchmarks-robot.md). */
    if (a_mesh && b_mesh) {
        const bool few = rc_shape_count(la) * rc_shape_count(lb) <= RC_FEW_SHAPE_PAIRS;
        if (a_pre && b_pre && few && (c->flags & COPSE_ROBOT_NO_SHAPES) == 0u) {
            rc_job pre = *j;
            pre.max_raw = rc_add(j->max_raw, slack);
            pre.first = true;
            if ((st = rc_parts(c, &pre, true, true, out)) != COPSE_OK)
                return st;
            if (out->d == FLT_MAX)
                return COPSE_OK;
            rc_empty(out); /* the shapes meet: the meshes decide */
        }
        a_pre = b_pre = false;
    }
    /* One side's ball against the other's tree, the smaller ball first: the ball holds its side
     * (mesh or shapes), so nothing of the tree within its radius + max_raw (+ slack) means the
     * pair is farther apart than max_raw. Most pairs whose balls meet end here. */
    if (j->kind == COPSE_CONTACT_MESH) {
        const copse_world_mesh *m = &c->world->meshes[j->other];
        if (rc_ball_clear(m->tree, &m->pose, ca, rc_add(ra, rc_add(j->max_raw, slack))))
            return COPSE_OK;
    } else if (j->kind == COPSE_CONTACT_SELF) {
        copse_bvh t;
        bool b_first = rb <= ra;
        unsigned k;
        for (k = 0; k < 2u; k++) {
            bool b_ball = (k == 0u) == b_first; /* b's ball against a's tree, or a's against b's */
            const robot_link *l = b_ball ? la : lb;
            if (l->tree == COPSE_NONE)
                continue;
            copse__robot_tree_view(c->robot, l->tree, &t);
            if (rc_ball_clear(&t, &c->poses[b_ball ? j->link : j->other], b_ball ? cb : ca,
                              rc_add(b_ball ? rb : ra, rc_add(j->max_raw, slack))))
                return COPSE_OK;
        }
    }
    /* Not against a world mesh: each shape there is a walk of the world's tree, where the link's
     * own mesh walk culls as well (docs/benchmarks-robot.md: the pre-test made it 5x slower). */
    if (j->kind == COPSE_CONTACT_MESH)
        return rc_parts(c, j, !a_mesh, false, out);
    if ((c->flags & COPSE_ROBOT_NO_SHAPES) == 0u && (a_pre || b_pre)) {
        rc_job pre = *j;
        pre.max_raw = rc_add(j->max_raw, slack);
        pre.first = true;
        if ((st = rc_parts(c, &pre, a_pre || !a_mesh, b_pre || !b_mesh, out)) != COPSE_OK)
            return st;
        if (out->d == FLT_MAX)
            return COPSE_OK;
    }
    return rc_parts(c, j, !a_mesh, !b_mesh, out);
}

static float rc_padding(const rc_ctx *c, uint32_t link, uint32_t kind, uint32_t other)
{
    float p = robot_link_at(c->robot, link)->padding;
    if (kind == COPSE_CONTACT_SELF)
        p += robot_link_at(c->robot, other)->padding;
    else if (kind == COPSE_CONTACT_SCAN)
        p += c->world->scan_padding;
    return p;
}

static void rc_job_make(const rc_ctx *c, rc_job *j, uint32_t link, uint32_t kind, uint32_t other, bool touch,
                        float max_padded)
{
    j->link = link;
    j->kind = kind;
    j->other = other;
    j->pad = rc_padding(c, link, kind, other);
    j->touch = touch;
    j->first = touch;
    j->max_raw = touch ? j->pad : rc_add(max_padded, j->pad);
}

/* A mesh-against-mesh boolean hit with no padding names its two triangles: the contact point is
 * where they meet, from the corners the walk tested (posed by the same frame), with no second
 * walk. False: the hit is not one (shapes, boxes, the scan, a padding), the walk must run. */
static COPSE_NOINLINE bool rc_witness(const rc_ctx *c, const rc_job *j, const rc_near *hit, copse_vec3 *point)
{
    const robot_link *la = robot_link_at(c->robot, j->link);
    const copse_pose *pose_a = &c->poses[j->link], *pose_b;
    copse_bvh ta, tb_own;
    const copse_bvh *tb = &tb_own;
    copse_pose rel;
    cl_frame f;
    const float *va[3], *vb[3], *qb[3];
    float posed[3][3], pa[3], pq[3];
    unsigned k;
    if (hit == NULL || j->max_raw != 0.0f || hit->d != 0.0f || hit->prim == COPSE_NONE ||
        hit->other_prim == COPSE_NONE || la->tree == COPSE_NONE)
        return false;
    if (j->kind == COPSE_CONTACT_SELF) {
        const robot_link *lb = robot_link_at(c->robot, j->other);
        if (lb->tree == COPSE_NONE)
            return false;
        copse__robot_tree_view(c->robot, lb->tree, &tb_own);
        pose_b = &c->poses[j->other];
    } else if (j->kind == COPSE_CONTACT_MESH) {
        tb = c->world->meshes[j->other].tree;
        pose_b = &c->world->meshes[j->other].pose;
    } else {
        return false;
    }
    copse__robot_tree_view(c->robot, la->tree, &ta);
    if (hit->prim >= ta.mesh.triangle_count || hit->other_prim >= tb->mesh.triangle_count)
        return false;
    if (copse_pose_invert(&rel, pose_a) != COPSE_OK || copse_pose_compose(&rel, &rel, pose_b) != COPSE_OK ||
        rc_settle(&rel) != COPSE_OK || copse__collide_frame(&rel, &f) != COPSE_OK)
        return false;
    cl_tree_triangle(&ta, hit->prim, va);
    cl_tree_triangle(tb, hit->other_prim, vb);
    for (k = 0; k < 3; k++) {
        cl_apply(&f, vb[k], posed[k]);
        qb[k] = posed[k];
    }
    (void)copse_geo_triangle_triangle(va, qb, pa, pq);
    *point = copse_pose_apply(pose_a, copse_v3(pa[0], pa[1], pa[2]));
    return true;
}

/* A touching pair's details (hit: the boolean's answer, or NULL): the witness triangles' meeting
 * point, else the first pair within the paddings, else (rounding made the boolean and the
 * distance queries disagree) the nearest. */
static copse_status rc_detail(const rc_ctx *c, const rc_job *touch, const rc_near *hit, copse_robot_contact *out)
{
    rc_job j = *touch;
    rc_near n;
    copse_status st;
    out->kind = j.kind;
    out->link = j.link;
    out->other = j.kind == COPSE_CONTACT_SCAN ? 0u : j.other;
    if (rc_witness(c, &j, hit, &out->point)) {
        out->prim = hit->prim;
        out->other_prim = hit->other_prim;
        return COPSE_OK;
    }
    j.touch = false;
    j.first = true;
    j.max_raw = j.pad;
    if ((st = rc_pair(c, &j, &n)) == COPSE_OK && n.d == FLT_MAX) {
        j.first = false;
        j.max_raw = FLT_MAX;
        st = rc_pair(c, &j, &n);
    }
    out->kind = j.kind;
    out->link = j.link;
    out->other = j.kind == COPSE_CONTACT_SCAN ? 0u : j.other;
    out->prim = n.prim;
    out->other_prim = n.other_prim;
    out->point = n.p_link;
    return st;
}


/* ---- arguments ---------------------------------------------------------------------------------- */

/* Past the checks' world (COPSE_ROBOT_MAX_COORD): |v| + grow in some coordinate. */
COPSE_INLINE bool rc_beyond(copse_vec3 v, float grow)
{
    return !(rc_mag(v) + grow <= COPSE_ROBOT_MAX_COORD);
}

float copse__robot_reach(const copse_robot *r)
{
    float reach = 0.0f, c[3], radius;
    uint32_t i;
    for (i = 0; i < r->link_count; i++) {
        copse__robot_link_sphere(r, i, c, &radius);
        if (radius >= 0.0f)
            reach = geo_max(reach, rc_len(c[0], c[1], c[2]) + radius + robot_link_at(r, i)->padding);
    }
    return reach;
}

/* Everything a pair could refuse, decided before any pair (robot.h: the checks' argument rules). */
copse_status copse__robot_check_begin(const copse_robot *r, const copse_world *w, const copse_pose *poses, uint32_t flags)
{
    uint32_t i;
    copse_status st;
    if (r == NULL || poses == NULL)
        return COPSE_ERR_NULL;
    if ((flags & ~(COPSE_ROBOT_SELF | COPSE_ROBOT_WORLD | COPSE_ROBOT_NO_SHAPES)) != 0u)
        return COPSE_ERR_PARAM;
    if ((flags & COPSE_ROBOT_WORLD) != 0u) {
        if (w == NULL || (w->mesh_count > 0u && w->meshes == NULL) || (w->object_count > 0u && w->objects == NULL))
            return COPSE_ERR_NULL;
        for (i = 0; i < w->mesh_count; i++) {
            const copse_world_mesh *m = &w->meshes[i];
            if ((st = copse__collide_mesh_tree(m->tree)) != COPSE_OK || (st = copse_pose_check(&m->pose)) != COPSE_OK)
                return st;
            if (rc_beyond(m->pose.translation, 0.0f))
                return COPSE_ERR_NONFINITE;
        }
        for (i = 0; i < w->object_count; i++)
            if ((st = rc_object_check(&w->objects[i])) != COPSE_OK)
                return st;
        if (w->scan != NULL) {
            if (!geo_finite(w->scan_padding))
                return COPSE_ERR_NONFINITE;
            if (w->scan_padding < 0.0f)
                return COPSE_ERR_PARAM;
        }
    }
    for (i = 0; i < r->link_count; i++) {
        if ((st = copse_pose_check(&poses[i])) != COPSE_OK)
            return st;
        if (rc_beyond(poses[i].translation, r->reach))
            return COPSE_ERR_NONFINITE;
    }
    return COPSE_OK;
}

/* ---- objects: the broadphase's candidates, answered as if visited in index order ------------------ */

enum { RC_FIRST, RC_ALL, RC_NEAREST };

typedef struct rc_objects {
    const rc_ctx *c;
    uint32_t link, mode, count;
    copse_status st;
    /* RC_FIRST: the lowest touching index; RC_NEAREST: the nearest, ties to the lower index */
    uint32_t best;
    float limit;  /* RC_NEAREST: paddings off */
    rc_near near;
    /* RC_ALL: contacts[start, *n) sorted by object, at most cap */
    copse_robot_contact *list;
    uint32_t start, n, cap;
    bool truncated;
} rc_objects;

static bool rc_object(void *user, uint32_t id)
{
    rc_objects *o = (rc_objects *)user;
    const rc_ctx *c = o->c;
    rc_job j;
    rc_near r;
    uint32_t i;
    if (id >= o->count) {
        o->st = COPSE_ERR_INDEX;
        return false;
    }
    if (o->mode == RC_FIRST && id >= o->best)
        return true;
    rc_job_make(c, &j, o->link, COPSE_CONTACT_OBJECT, id, o->mode != RC_NEAREST, o->limit);
    if ((o->st = rc_pair(c, &j, &r)) != COPSE_OK)
        return false;
    if (r.d == FLT_MAX)
        return true;
    if (o->mode == RC_FIRST) {
        o->best = id;
    } else if (o->mode == RC_NEAREST) {
        float v = r.d - j.pad;
        if (v < o->near.d || (v == o->near.d && id < o->best)) {
            o->near = r;
            o->near.d = v;
            o->best = id;
            o->limit = geo_min(o->limit, v);
        }
    } else {
        copse_robot_contact ct;
        if ((o->st = rc_detail(c, &j, NULL, &ct)) != COPSE_OK)
            return false;
        /* insert by object index, dropping the last when full */
        i = o->n;
        if (o->n - o->start < o->cap - o->start) {
            o->n++;
        } else {
            o->truncated = true;
            if (o->n == o->start || o->list[o->n - 1u].other < id)
                return true;
            i = o->n - 1u;
        }
        while (i > o->start && o->list[i - 1u].other > id) {
            o->list[i] = o->list[i - 1u];
            i--;
        }
        o->list[i] = ct;
    }
    return true;
}

/* Every candidate object of the link: those whose boxes meet the link's ball grown by `reach`
 * (the broadphase), or all when there is no broadphase or no finite reach. */
static copse_status rc_objects_run(const rc_ctx *c, rc_objects *o, float reach)
{
    const copse_world *w = c->world;
    uint32_t i;
    copse_vec3 center;
    float radius;
    o->c = c;
    o->count = w->object_count;
    o->st = COPSE_OK;
    if (w->object_count == 0u || !rc_link_ball(c, o->link, &center, &radius))
        return COPSE_OK;
    if (w->object_tree != NULL && reach < FLT_MAX) {
        copse_box3 box;
        copse_status st;
        float g = rc_add(rc_add(radius, reach), RC_SLACK * (rc_mag(center) + radius) + RC_SLACK * reach);
        box.min = copse_v3(center.x - g, center.y - g, center.z - g);
        box.max = copse_v3(center.x + g, center.y + g, center.z + g);
        st = copse_loose_visit_box(w->object_tree, &box, rc_object, o);
        return st != COPSE_OK ? st : o->st;
    }
    for (i = 0; i < w->object_count; i++)
        if (!rc_object(o, i))
            break;
    return o->st;
}

static float rc_max_pad(const rc_ctx *c, uint32_t link)
{
    return robot_link_at(c->robot, link)->padding;
}

/* ---- collides ----------------------------------------------------------------------------------- */

copse_status copse_robot_collides(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                  uint32_t flags, copse_robot_contact *first)
{
    rc_ctx c;
    rc_balls balls;
    rc_job j;
    rc_near r;
    uint32_t a, b, i;
    copse_status st;
    if (first == NULL)
        return COPSE_ERR_NULL;
    robot_contact_empty(first);
    if ((st = copse__robot_check_begin(robot, world, link_poses, flags)) != COPSE_OK)
        return st;
    rc_ctx_init(&c, robot, world, link_poses, flags, &balls);
    if ((flags & COPSE_ROBOT_WORLD) != 0u) {
        for (a = 0; a < robot->link_count; a++) {
            rc_objects o;
            for (i = 0; i < world->mesh_count; i++) {
                if (rc_touch_apart(&c, a, COPSE_CONTACT_MESH, i))
                    continue;
                rc_job_make(&c, &j, a, COPSE_CONTACT_MESH, i, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    return st;
                if (r.d != FLT_MAX)
                    goto found;
            }
            o.link = a;
            o.mode = RC_FIRST;
            o.best = COPSE_NONE;
            o.limit = 0.0f;
            if ((st = rc_objects_run(&c, &o, rc_max_pad(&c, a))) != COPSE_OK)
                return st;
            if (o.best != COPSE_NONE) {
                rc_job_make(&c, &j, a, COPSE_CONTACT_OBJECT, o.best, true, 0.0f);
                rc_empty(&r); /* no witness: the detail runs the pair again */
                goto found;
            }
            if (world->scan != NULL) {
                rc_job_make(&c, &j, a, COPSE_CONTACT_SCAN, 0u, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    return st;
                if (r.d != FLT_MAX)
                    goto found;
            }
        }
    }
    if ((flags & COPSE_ROBOT_SELF) != 0u)
        for (a = 0; a < robot->link_count; a++)
            for (b = a + 1u; b < robot->link_count; b++) {
                if (robot_acm_get(robot, a, b) || rc_touch_apart(&c, a, COPSE_CONTACT_SELF, b))
                    continue;
                rc_job_make(&c, &j, a, COPSE_CONTACT_SELF, b, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    return st;
                if (r.d != FLT_MAX)
                    goto found;
            }
    return COPSE_OK;
found:
    st = rc_detail(&c, &j, &r, first);
    if (st != COPSE_OK)
        robot_contact_empty(first);
    return st;
}

/* ---- contacts ----------------------------------------------------------------------------------- */

/* Appends a touching pair's contact; false when the list is full (then truncated). */
static copse_status rc_emit(const rc_ctx *c, const rc_job *j, const rc_near *hit, copse_robot_contact *list,
                            uint32_t cap, uint32_t *count, bool *truncated)
{
    if (*count >= cap) {
        *truncated = true;
        return COPSE_OK;
    }
    return rc_detail(c, j, hit, &list[(*count)++]);
}

copse_status copse_robot_contacts(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                  uint32_t flags, copse_robot_contact *contacts, uint32_t capacity, uint32_t *count,
                                  bool *truncated)
{
    rc_ctx c;
    rc_balls balls;
    rc_job j;
    rc_near r;
    uint32_t a, b, i;
    copse_status st = COPSE_OK;
    if (count == NULL || truncated == NULL || (contacts == NULL && capacity > 0u)) {
        if (count != NULL)
            *count = 0;
        if (truncated != NULL)
            *truncated = false;
        return COPSE_ERR_NULL;
    }
    *count = 0;
    *truncated = false;
    if ((st = copse__robot_check_begin(robot, world, link_poses, flags)) != COPSE_OK)
        return st;
    rc_ctx_init(&c, robot, world, link_poses, flags, &balls);
    if ((flags & COPSE_ROBOT_WORLD) != 0u) {
        for (a = 0; a < robot->link_count && !*truncated; a++) {
            rc_objects o;
            for (i = 0; i < world->mesh_count && !*truncated; i++) {
                if (rc_touch_apart(&c, a, COPSE_CONTACT_MESH, i))
                    continue;
                rc_job_make(&c, &j, a, COPSE_CONTACT_MESH, i, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    goto fail;
                if (r.d != FLT_MAX && (st = rc_emit(&c, &j, &r, contacts, capacity, count, truncated)) != COPSE_OK)
                    goto fail;
            }
            if (*truncated)
                break;
            o.link = a;
            o.mode = RC_ALL;
            o.limit = 0.0f;
            o.list = contacts;
            o.start = *count;
            o.n = *count;
            o.cap = capacity;
            o.truncated = false;
            if ((st = rc_objects_run(&c, &o, rc_max_pad(&c, a))) != COPSE_OK)
                goto fail;
            *count = o.n;
            *truncated = o.truncated;
            if (*truncated)
                break;
            if (world->scan != NULL) {
                rc_job_make(&c, &j, a, COPSE_CONTACT_SCAN, 0u, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    goto fail;
                if (r.d != FLT_MAX && (st = rc_emit(&c, &j, &r, contacts, capacity, count, truncated)) != COPSE_OK)
                    goto fail;
            }
        }
    }
    if ((flags & COPSE_ROBOT_SELF) != 0u)
        for (a = 0; a < robot->link_count && !*truncated; a++)
            for (b = a + 1u; b < robot->link_count && !*truncated; b++) {
                if (robot_acm_get(robot, a, b) || rc_touch_apart(&c, a, COPSE_CONTACT_SELF, b))
                    continue;
                rc_job_make(&c, &j, a, COPSE_CONTACT_SELF, b, true, 0.0f);
                if ((st = rc_pair(&c, &j, &r)) != COPSE_OK)
                    goto fail;
                if (r.d != FLT_MAX && (st = rc_emit(&c, &j, &r, contacts, capacity, count, truncated)) != COPSE_OK)
                    goto fail;
            }
    return COPSE_OK;
fail:
    *count = 0;
    *truncated = false;
    return st;
}

/* ---- distances ---------------------------------------------------------------------------------- */

static void rc_near_out(const rc_near *r, float v, uint32_t kind, uint32_t link, uint32_t other, robot_near *out)
{
    out->distance = v;
    out->contact.kind = kind;
    out->contact.link = link;
    out->contact.other = kind == COPSE_CONTACT_SCAN ? 0u : other;
    out->contact.prim = r->prim;
    out->contact.other_prim = r->other_prim;
    out->contact.point = r->p_link;
    out->other_point = r->p_other;
}

static void robot_near_empty(robot_near *out)
{
    out->distance = FLT_MAX;
    robot_contact_empty(&out->contact);
    out->other_point = copse_v3(0.0f, 0.0f, 0.0f);
}

/* Offers pair (link, kind, other) to *out: kept when nearer than it and within max_distance. */
static copse_status rc_offer(const rc_ctx *c, uint32_t link, uint32_t kind, uint32_t other, float max_distance,
                             robot_near *out)
{
    rc_job j;
    rc_near r;
    copse_status st;
    rc_job_make(c, &j, link, kind, other, false, geo_min(max_distance, out->distance));
    if (j.max_raw < 0.0f) /* a best so far below minus this pair's paddings: it cannot beat it */
        return COPSE_OK;
    if ((st = rc_pair(c, &j, &r)) != COPSE_OK)
        return st;
    if (r.d != FLT_MAX && r.d - j.pad < out->distance && r.d - j.pad <= max_distance)
        rc_near_out(&r, r.d - j.pad, kind, link, other, out);
    return COPSE_OK;
}

copse_status copse__robot_world_nearest(const copse_robot *robot, const copse_world *world, const copse_pose *poses,
                                 uint32_t flags, uint32_t link, float max_distance, robot_near *out)
{
    rc_ctx c;
    rc_objects o;
    uint32_t i;
    copse_status st;
    rc_ctx_init(&c, robot, world, poses, flags, NULL);
    robot_near_empty(out);
    for (i = 0; i < world->mesh_count; i++)
        if ((st = rc_offer(&c, link, COPSE_CONTACT_MESH, i, max_distance, out)) != COPSE_OK)
            goto fail;
    /* objects with the cut-off the meshes left; a tie goes to the kind visited first (meshes,
     * objects, scan), then to the lower index */
    o.link = link;
    o.mode = RC_NEAREST;
    o.best = COPSE_NONE;
    o.limit = geo_min(max_distance, out->distance);
    rc_empty(&o.near);
    if ((st = rc_objects_run(&c, &o, rc_add(o.limit, rc_max_pad(&c, link)))) != COPSE_OK)
        goto fail;
    if (o.best != COPSE_NONE && o.near.d < out->distance)
        rc_near_out(&o.near, o.near.d, COPSE_CONTACT_OBJECT, link, o.best, out);
    if (world->scan != NULL && (st = rc_offer(&c, link, COPSE_CONTACT_SCAN, 0u, max_distance, out)) != COPSE_OK)
        goto fail;
    return COPSE_OK;
fail:
    robot_near_empty(out);
    return st;
}

copse_status copse__robot_pair_nearest(const copse_robot *robot, const copse_pose *poses, uint32_t flags, uint32_t a,
                                uint32_t b, float max_distance, robot_near *out)
{
    rc_ctx c;
    copse_status st;
    rc_ctx_init(&c, robot, NULL, poses, flags, NULL);
    robot_near_empty(out);
    if ((st = rc_offer(&c, a, COPSE_CONTACT_SELF, b, max_distance, out)) != COPSE_OK)
        robot_near_empty(out);
    return st;
}

static void rc_distance_empty(copse_link_distance *d)
{
    d->world = FLT_MAX;
    robot_contact_empty(&d->world_nearest);
    d->world_point = copse_v3(0.0f, 0.0f, 0.0f);
    d->self = FLT_MAX;
    robot_contact_empty(&d->self_nearest);
    d->self_point = d->world_point;
}

copse_status copse_robot_distances(const copse_robot *robot, const copse_world *world, const copse_pose *link_poses,
                                   uint32_t flags, float max_distance, copse_link_distance *per_link)
{
    uint32_t a, b;
    robot_near n;
    copse_status st;
    if (per_link == NULL)
        return COPSE_ERR_NULL;
    if (robot != NULL)
        for (a = 0; a < robot->link_count; a++)
            rc_distance_empty(&per_link[a]);
    if ((st = copse__robot_check_begin(robot, world, link_poses, flags)) != COPSE_OK)
        return st;
    if (!(max_distance >= 0.0f))
        return COPSE_ERR_PARAM;
    if ((flags & COPSE_ROBOT_WORLD) != 0u)
        for (a = 0; a < robot->link_count; a++) {
            if ((st = copse__robot_world_nearest(robot, world, link_poses, flags, a, max_distance, &n)) != COPSE_OK)
                goto fail;
            per_link[a].world = n.distance;
            per_link[a].world_nearest = n.contact;
            per_link[a].world_point = n.other_point;
        }
    if ((flags & COPSE_ROBOT_SELF) != 0u)
        for (a = 0; a < robot->link_count; a++)
            for (b = a + 1u; b < robot->link_count; b++) {
                float cut;
                if (robot_acm_get(robot, a, b))
                    continue;
                /* the pair matters only if nearer than one of the two links' best so far */
                cut = geo_min(max_distance, geo_max(per_link[a].self, per_link[b].self));
                if ((st = copse__robot_pair_nearest(robot, link_poses, flags, a, b, cut, &n)) != COPSE_OK)
                    goto fail;
                if (n.distance == FLT_MAX)
                    continue;
                if (n.distance < per_link[a].self) {
                    per_link[a].self = n.distance;
                    per_link[a].self_nearest = n.contact;
                    per_link[a].self_point = n.other_point;
                }
                if (n.distance < per_link[b].self) {
                    per_link[b].self = n.distance;
                    per_link[b].self_nearest.kind = COPSE_CONTACT_SELF;
                    per_link[b].self_nearest.link = b;
                    per_link[b].self_nearest.other = a;
                    per_link[b].self_nearest.prim = n.contact.other_prim;
                    per_link[b].self_nearest.other_prim = n.contact.prim;
                    per_link[b].self_nearest.point = n.other_point;
                    per_link[b].self_point = n.contact.point;
                }
            }
    return COPSE_OK;
fail:
    for (a = 0; a < robot->link_count; a++)
        rc_distance_empty(&per_link[a]);
    return st;
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target: collide.h, every entry point, on a small scene decoded from the input.
 * Bytes: a scene byte (triangles 1..8 of the tree, 1..4 of the posed mesh, points 0..15, and
 * whether the tree is a BVH over boxes instead: every query must then refuse it), the scene's
 * coordinates (fuzz_coord: a grid, any finite float, +-3e38), then up to 24 queries: an
 * operation byte, a pose (NULL, from a quaternion, from xyz/rpy, or such a pose with one entry
 * replaced by any float) and a shape whose numbers are grid values or any bit pattern.
 * Properties: each call returns OK or a status collide.h lists; on error every output is
 * empty (id COPSE_NONE, empty list, distance FLT_MAX, no sweep hit); lists stay within their
 * capacity (guard words after it are untouched), hold ids in range and equal the visitor's
 * answer; any_* finds a hit exactly when the complete list is non-empty, and the hit is listed;
 * a touching shape has distance 0 (a convex set: within GJK's margin, from the touched triangle
 * or point and the posed set) and, swept, hits at t = 0; a distance is within
 * max_distance; a sweep's t is in [0, 1], 1 exactly when nothing is hit. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_TRI 8u
#define MAX_MESH_TRI 4u
#define MAX_PTS 16u
#define MAX_QUERIES 24u
#define GUARD 4u
#define GUARD_WORD 0xA5A5A5A5u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scene, in fixed static buffers. */
static uint8_t g_tree_mem[32768] __attribute__((aligned(16)));
static uint8_t g_mesh_mem[16384] __attribute__((aligned(16)));
static uint8_t g_oct_mem[8192] __attribute__((aligned(16)));
static uint8_t g_scratch_mem[8192] __attribute__((aligned(16)));
static float g_tri[9u * MAX_TRI], g_mtri[9u * MAX_MESH_TRI];
static copse_box3 g_boxes[MAX_TRI];
static copse_vec3 g_pts[MAX_PTS];

static bool collide_status(copse_status st)
{
    return st == COPSE_ERR_NULL || st == COPSE_ERR_DIMENSION || st == COPSE_ERR_KIND || st == COPSE_ERR_TOO_DEEP ||
           st == COPSE_ERR_NONFINITE || st == COPSE_ERR_PARAM || st == COPSE_ERR_EMPTY_RANGE;
}

static void check_status(copse_status st, const char *what)
{
    FUZZ_ASSERT(st == COPSE_OK || collide_status(st), "%s: %s", what, copse_status_str(st));
}

/* Set when a scene's or the current query's finite number is beyond HUGE: coordinate
 * differences may then overflow, and distances and sweep times are not held to their values
 * (docs/fuzz.md), only to statuses, empty outputs, ids and capacities. Any spread of magnitudes
 * below that is held to them: the orientation predicates are exact for every finite input
 * (src/geom/predicates.c). */
#define HUGE_COORD 1.0e18f
typedef struct magnitudes {
    bool huge;
} magnitudes;
static magnitudes g_scene, g_query;

static void magnitudes_reset(magnitudes *m)
{
    m->huge = false;
}

static float note(float v, magnitudes *m)
{
    const float a = v < 0.0f ? -v : v;
    if (v == v && v - v == 0.0f)
        m->huge = m->huge || a > HUGE_COORD;
    return v;
}

static float coord(fuzz_reader *r)
{
    return note(fuzz_coord(r), &g_scene);
}

/* A shape's number: mostly grid values, sometimes any bits (NaN, inf, denormal, huge). */
static float num(fuzz_reader *r)
{
    return note((fuzz_u8(r) & 15u) == 15u ? fuzz_float(r) : fuzz_coord(r), &g_query);
}

static bool huge(void)
{
    return g_scene.huge || g_query.huge;
}

static copse_vec3 vec(fuzz_reader *r)
{
    copse_vec3 v;
    v.x = num(r);
    v.y = num(r);
    v.z = num(r);
    return v;
}

/* NULL, or a pose: from a quaternion, from xyz/rpy, or one of those with an entry replaced. */
static const copse_pose *pose_of(fuzz_reader *r, copse_pose *p)
{
    const uint32_t kind = fuzz_u8(r);
    copse_quat q;
    copse_vec3 t;
    if ((kind & 3u) == 0u)
        return NULL;
    t = vec(r);
    if ((kind & 3u) == 1u) {
        q.x = fuzz_coord(r), q.y = fuzz_coord(r), q.z = fuzz_coord(r), q.w = fuzz_coord(r);
        if (copse_pose_from_quat(p, q, t) != COPSE_OK)
            *p = copse_pose_translation(t);
    } else if (copse_pose_from_xyz_rpy(p, t, vec(r)) != COPSE_OK) {
        *p = copse_pose_identity();
    }
    if ((kind & 3u) == 3u) { /* an entry replaced: off the rotations, NaN, inf, or a tiny nudge */
        const uint32_t e = fuzz_u8(r) % 12u;
        const float v = (kind & 4u) ? note(fuzz_float(r), &g_query) : num(r) * 1.0e-4f;
        if (e < 9u)
            p->rotation[e / 3u][e % 3u] = (kind & 4u) ? v : p->rotation[e / 3u][e % 3u] + v;
        else if (e == 9u)
            p->translation.x = v;
        else if (e == 10u)
            p->translation.y = v;
        else
            p->translation.z = v;
    }
    return p;
}

typedef struct shapes {
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    copse_triangle triangle;
    copse_vec3 hull[8];
    copse_convex convex;
} shapes;

static void shapes_of(fuzz_reader *r, shapes *s)
{
    copse_pose rot;
    uint32_t i, j;
    s->sphere.center = vec(r);
    s->sphere.radius = num(r);
    if (s->sphere.radius < 0.0f && (fuzz_u8(r) & 3u) != 0u)
        s->sphere.radius = -s->sphere.radius;
    s->capsule.segment.a = vec(r);
    s->capsule.segment.b = vec(r);
    s->capsule.radius = s->sphere.radius;
    s->obb.center = vec(r);
    s->obb.half = vec(r);
    if ((fuzz_u8(r) & 3u) != 0u) {
        s->obb.half.x = s->obb.half.x < 0.0f ? -s->obb.half.x : s->obb.half.x;
        s->obb.half.y = s->obb.half.y < 0.0f ? -s->obb.half.y : s->obb.half.y;
        s->obb.half.z = s->obb.half.z < 0.0f ? -s->obb.half.z : s->obb.half.z;
    }
    if (pose_of(r, &rot) == NULL)
        rot = copse_pose_identity();
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            s->obb.rotation[i][j] = rot.rotation[i][j];
    s->triangle.a = vec(r);
    s->triangle.b = vec(r);
    s->triangle.c = vec(r);
    s->convex.count = fuzz_u8(r) % 9u; /* 0: PARAM */
    for (i = 0; i < 8u; i++)
        s->hull[i] = i < s->convex.count ? vec(r) : copse_v3(0.0f, 0.0f, 0.0f);
    s->convex.points = s->hull;
}

/* ---- outputs with guards ------------------------------------------------------------------ */

typedef struct guarded_ids {
    uint32_t *mem; /* capacity + GUARD words, malloc'd at that size */
    copse_id_list list;
} guarded_ids;

static void ids_open(guarded_ids *g, uint32_t capacity)
{
    uint32_t i;
    g->mem = (uint32_t *)malloc(sizeof(uint32_t) * (capacity + GUARD));
    if (g->mem == NULL)
        abort();
    for (i = 0; i < capacity + GUARD; i++)
        g->mem[i] = GUARD_WORD;
    g->list = copse_id_list_make(g->mem, capacity);
    g->list.count = 12345u; /* must be reset */
    g->list.truncated = true;
}

/* The list's properties; frees it. */
static void ids_close(guarded_ids *g, copse_status st, uint32_t id_limit, const char *what)
{
    uint32_t i;
    for (i = g->list.capacity; i < g->list.capacity + GUARD; i++)
        FUZZ_ASSERT(g->mem[i] == GUARD_WORD, "%s wrote past its capacity %u", what, (unsigned)g->list.capacity);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(g->list.count == 0 && !g->list.truncated, "%s: error %s left a list of %u", what,
                    copse_status_str(st), (unsigned)g->list.count);
    } else {
        FUZZ_ASSERT(g->list.count <= g->list.capacity, "%s: %u ids in %u", what, (unsigned)g->list.count,
                    (unsigned)g->list.capacity);
        for (i = 0; i < g->list.count; i++)
            FUZZ_ASSERT(g->list.ids[i] < id_limit, "%s: id %u of %u", what, (unsigned)g->list.ids[i],
                        (unsigned)id_limit);
    }
    free(g->mem);
}

static bool listed(const copse_id_list *l, uint32_t id)
{
    uint32_t i;
    for (i = 0; i < l->count; i++)
        if (l->ids[i] == id)
            return true;
    return false;
}

/* any's answer against the complete list (FUZZ_CAP is more than any scene's primitives). */
static void any_vs_list(copse_status st_any, uint32_t id, copse_status st_list, const copse_id_list *full,
                        const char *what)
{
    FUZZ_ASSERT(st_any == st_list, "%s: any %s, list %s", what, copse_status_str(st_any), copse_status_str(st_list));
    if (st_any != COPSE_OK) {
        FUZZ_ASSERT(id == COPSE_NONE, "%s: error left id %u", what, (unsigned)id);
        return;
    }
    FUZZ_ASSERT(!full->truncated, "%s: a full list truncated", what);
    FUZZ_ASSERT((id != COPSE_NONE) == (full->count > 0), "%s: any %u, list of %u", what, (unsigned)id,
                (unsigned)full->count);
    FUZZ_ASSERT(id == COPSE_NONE || listed(full, id), "%s: any's %u not listed", what, (unsigned)id);
}

/* How far apart a convex set and what it touches may be (collide.h: GJK decides touching within
 * 18 ulps of the largest coordinate the test combines): 20 ulps of the largest of the posed points
 * plus the pose's translation, and of the n points it touched (a triangle's corners, a scan point). */
static float convex_touch_tol(const shapes *sh, const copse_pose *pose, const float *pts, unsigned n)
{
    double m = 0.0, tm = 0.0;
    uint32_t i;
    if (pose != NULL)
        tm = fmax(fabs((double)pose->translation.x), fmax(fabs((double)pose->translation.y),
                                                          fabs((double)pose->translation.z)));
    for (i = 0; i < sh->convex.count; i++) {
        const copse_vec3 q = pose == NULL ? sh->hull[i] : copse_pose_apply(pose, sh->hull[i]);
        m = fmax(m, fmax(fabs((double)q.x), fmax(fabs((double)q.y), fabs((double)q.z))) + tm);
    }
    for (i = 0; i < 3u * n; i++)
        m = fmax(m, fabs((double)pts[i]));
    return (float)(20.0 * (double)FLT_EPSILON * m);
}

static float point_touch_tol(const shapes *sh, const copse_pose *pose, uint32_t id)
{
    const float p[3] = {g_pts[id].x, g_pts[id].y, g_pts[id].z};
    return convex_touch_tol(sh, pose, p, 1u);
}

/* touching: the any query found a hit, at most touch_tol away (0: exactly touching). */
static void distance_check(copse_status st, const copse_distance *d, const copse_distance_query *q, uint32_t id_limit,
                           bool touching, float touch_tol, const char *what)
{
    check_status(st, what);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(d->distance == FLT_MAX && d->tree_id == COPSE_NONE && d->shape_id == COPSE_NONE,
                    "%s: error %s left distance %g, ids %u %u", what, copse_status_str(st), (double)d->distance,
                    (unsigned)d->tree_id, (unsigned)d->shape_id);
        return;
    }
    FUZZ_ASSERT((d->distance == FLT_MAX) == (d->tree_id == COPSE_NONE), "%s: distance %g with id %u", what,
                (double)d->distance, (unsigned)d->tree_id);
    FUZZ_ASSERT(d->tree_id == COPSE_NONE || d->tree_id < id_limit, "%s: id %u of %u", what, (unsigned)d->tree_id,
                (unsigned)id_limit);
    if (huge())
        return;
    FUZZ_ASSERT(d->distance >= 0.0f, "%s: distance %g", what, (double)d->distance);
    FUZZ_ASSERT(d->distance == FLT_MAX || q == NULL || d->distance <= q->max_distance,
                "%s: distance %g past max %g", what, (double)d->distance, (double)q->max_distance);
    FUZZ_ASSERT(d->depth >= 0.0f || d->depth != d->depth, "%s: depth %g", what, (double)d->depth);
    /* the smallest distance is 0; errors allowed or the first pair within may report more */
    /* A gap below the convex margin counts as touching while the distance query measures it
     * (collide.h): beyond a max_distance below the margin it may find nothing. */
    if (touching && (q == NULL || (q->abs_err == 0.0f && q->rel_err == 0.0f && !q->first_within)))
        FUZZ_ASSERT(d->distance <= touch_tol || (d->distance == FLT_MAX && q != NULL && q->max_distance < touch_tol),
                    "%s: touching, distance %g (allowed %g)", what, (double)d->distance, (double)touch_tol);
}

/* touching: the any query found a hit, so the sweep must hit; at_zero: and at t = 0. */
static void sweep_check(copse_status st, const copse_sweep_hit *h, uint32_t id_limit, bool touching, bool at_zero,
                        const char *what)
{
    check_status(st, what);
    if (st != COPSE_OK) {
        FUZZ_ASSERT(h->id == COPSE_NONE && h->t == 1.0f && !h->started_in_contact, "%s: error %s left a hit (%u, %g)",
                    what, copse_status_str(st), (unsigned)h->id, (double)h->t);
        return;
    }
    FUZZ_ASSERT(h->id == COPSE_NONE || h->id < id_limit, "%s: id %u", what, (unsigned)h->id);
    if (huge())
        return;
    FUZZ_ASSERT(h->t >= 0.0f && h->t <= 1.0f, "%s: t %g", what, (double)h->t);
    FUZZ_ASSERT(h->id != COPSE_NONE || (h->t == 1.0f && !h->started_in_contact), "%s: no id, t %g", what,
                (double)h->t);
    FUZZ_ASSERT(!h->started_in_contact || h->t == 0.0f, "%s: started in contact at t %g", what, (double)h->t);
    if (touching)
        FUZZ_ASSERT(h->id != COPSE_NONE && (h->t == 0.0f || !at_zero), "%s: touching at t = 0, hit %u at %g", what,
                    (unsigned)h->id, (double)h->t);
}

/* The box-triangle test is conservative at the rounding level (no false "apart"): a box it calls
 * touching may be a few ulps of the coordinates' magnitude M clear of the triangle, which the
 * sweep, exact to its tolerance, then reaches at some t > 0 (a triangle reaching 1e8, the box 7.6
 * away: contact at t = 0.27). A box that still touches triangle `id` with every half extent
 * shrunk by 64 ulps of M (the triangle's, the box's, the pose's) overlaps it beyond rounding: its
 * sweep must start in contact. */
static bool obb_deep(const copse_bvh *t, const copse_obb *obb, const copse_pose *pose, uint32_t id)
{
    copse_obb in = *obb;
    double m = 0.0;
    uint32_t k, ids[MAX_TRI];
    copse_id_list list = copse_id_list_make(ids, MAX_TRI);
    if (id >= t->mesh.triangle_count)
        return false;
    for (k = 0; k < 9u; k++)
        m = fmax(m, fabs((double)g_tri[9u * id + k]));
    m = fmax(m, fabs((double)obb->center.x) + fabs((double)obb->center.y) + fabs((double)obb->center.z));
    m = fmax(m, fabs((double)obb->half.x) + fabs((double)obb->half.y) + fabs((double)obb->half.z));
    if (pose != NULL)
        m += fabs((double)pose->translation.x) + fabs((double)pose->translation.y) + fabs((double)pose->translation.z);
    in.half.x = (float)((double)obb->half.x - 64.0 * (double)FLT_EPSILON * m);
    in.half.y = (float)((double)obb->half.y - 64.0 * (double)FLT_EPSILON * m);
    in.half.z = (float)((double)obb->half.z - 64.0 * (double)FLT_EPSILON * m);
    if (copse_bvh_overlap_obb(t, &in, pose, &list) != COPSE_OK)
        return false;
    for (k = 0; k < list.count; k++)
        if (ids[k] == id)
            return true;
    return false;
}

/* ---- the queries ---------------------------------------------------------------------------- */

typedef struct scene {
    copse_bvh tree, mesh;
    copse_octree oct;
    uint32_t tree_prims, mesh_prims, points;
} scene;

/* NULL (the default query) or q, filled from the input. */
static const copse_distance_query *query_of(fuzz_reader *r, copse_distance_query *q)
{
    const copse_distance_query def = COPSE_DISTANCE_QUERY_DEFAULT;
    const uint32_t k = fuzz_u8(r);
    *q = def;
    if ((k & 1u) == 0u)
        return NULL;
    if (k & 2u)
        q->max_distance = num(r);
    if (k & 4u)
        q->abs_err = num(r);
    if (k & 8u)
        q->rel_err = num(r);
    q->first_within = (k & 16u) != 0u;
    return q;
}

static void garbage(void *p, size_t n)
{
    memset(p, 0xCD, n);
}

/* Shape against the BVH: any / overlap / visit / distance / sweep. */
static void shape_vs_bvh(const scene *s, fuzz_reader *r, uint32_t which, const shapes *sh, const copse_pose *pose)
{
    uint32_t id = 0xCDCDCDCDu, cap = fuzz_u8(r) % 6u;
    guarded_ids full, small;
    fuzz_collect seen;
    copse_status st_any, st_full, st_small, st_visit = COPSE_OK, st;
    copse_distance d;
    copse_distance_query q;
    const copse_distance_query *qp;
    copse_sweep_hit hit;
    const copse_bvh *t = &s->tree;
    const uint32_t lim = s->tree_prims;
    bool has_list = true;
    ids_open(&full, FUZZ_CAP);
    ids_open(&small, cap);
    memset(&seen, 0, sizeof seen);
    switch (which) {
    case 0:
        st_any = copse_bvh_any_sphere(t, &sh->sphere, pose, &id);
        has_list = false;
        st_full = st_small = COPSE_OK; /* no list form: the lists stay empty */
        full.list.count = small.list.count = 0;
        full.list.truncated = small.list.truncated = false;
        break;
    case 1:
        st_any = copse_bvh_any_capsule(t, &sh->capsule, pose, &id);
        st_full = copse_bvh_overlap_capsule(t, &sh->capsule, pose, &full.list);
        st_small = copse_bvh_overlap_capsule(t, &sh->capsule, pose, &small.list);
        st_visit = copse_bvh_visit_capsule(t, &sh->capsule, pose, fuzz_collect_id, &seen);
        break;
    case 2:
        st_any = copse_bvh_any_obb(t, &sh->obb, pose, &id);
        st_full = copse_bvh_overlap_obb(t, &sh->obb, pose, &full.list);
        st_small = copse_bvh_overlap_obb(t, &sh->obb, pose, &small.list);
        st_visit = copse_bvh_visit_obb(t, &sh->obb, pose, fuzz_collect_id, &seen);
        break;
    case 3:
        st_any = copse_bvh_any_triangle(t, &sh->triangle, pose, &id);
        st_full = copse_bvh_overlap_triangle(t, &sh->triangle, pose, &full.list);
        st_small = copse_bvh_overlap_triangle(t, &sh->triangle, pose, &small.list);
        st_visit = copse_bvh_visit_triangle(t, &sh->triangle, pose, fuzz_collect_id, &seen);
        break;
    default:
        st_any = copse_bvh_any_convex(t, &sh->convex, pose, &id);
        st_full = copse_bvh_overlap_convex(t, &sh->convex, pose, &full.list);
        st_small = copse_bvh_overlap_convex(t, &sh->convex, pose, &small.list);
        st_visit = copse_bvh_visit_convex(t, &sh->convex, pose, fuzz_collect_id, &seen);
        break;
    }
    check_status(st_any, "bvh any");
    if (has_list) {
        FUZZ_ASSERT(st_full == st_any && st_small == st_any && st_visit == st_any, "bvh %u: statuses %d %d %d %d",
                    (unsigned)which, st_any, st_full, st_small, st_visit);
        any_vs_list(st_any, id, st_full, &full.list, "bvh any/overlap");
        if (st_any == COPSE_OK) {
            fuzz_same_ids(&full.list, &seen, "bvh overlap/visit");
            FUZZ_ASSERT(small.list.count == (full.list.count < cap ? full.list.count : cap) &&
                            small.list.truncated == (full.list.count > cap),
                        "bvh: capacity %u kept %u of %u", (unsigned)cap, (unsigned)small.list.count,
                        (unsigned)full.list.count);
            FUZZ_ASSERT(memcmp(small.list.ids, full.list.ids, sizeof(uint32_t) * small.list.count) == 0,
                        "bvh: a short list is not the full list's start");
        }
    } else if (st_any != COPSE_OK) {
        FUZZ_ASSERT(id == COPSE_NONE, "bvh any sphere: error left id %u", (unsigned)id);
    } else {
        FUZZ_ASSERT(id == COPSE_NONE || id < lim, "bvh any sphere: id %u", (unsigned)id);
    }
    ids_close(&full, st_full, lim, "bvh overlap");
    ids_close(&small, st_small, lim, "bvh overlap (short)");

    qp = query_of(r, &q);
    garbage(&d, sizeof d);
    switch (which) {
    case 0: st = copse_distance_sphere_bvh(&sh->sphere, pose, t, qp, &d); break;
    case 1: st = copse_distance_capsule_bvh(&sh->capsule, pose, t, qp, &d); break;
    case 2: st = copse_distance_obb_bvh(&sh->obb, pose, t, qp, &d); break;
    case 3: st = copse_distance_triangle_bvh(&sh->triangle, pose, t, qp, &d); break;
    default: st = copse_distance_convex_bvh(&sh->convex, pose, t, qp, &d); break;
    }
    distance_check(st, &d, qp, lim, st_any == COPSE_OK && id != COPSE_NONE,
                   which == 4u && id < s->tree_prims ? convex_touch_tol(sh, pose, g_tri + 9u * id, 3u) : 0.0f,
                   "bvh distance");
    if (which <= 2u) {
        const copse_vec3 motion = vec(r);
        garbage(&hit, sizeof hit);
        if (which == 0u)
            st = copse_sweep_sphere_bvh(&sh->sphere, pose, motion, t, &hit);
        else if (which == 1u)
            st = copse_sweep_capsule_bvh(&sh->capsule, pose, motion, t, &hit);
        else
            st = copse_sweep_obb_bvh(&sh->obb, pose, motion, t, &hit);
        sweep_check(st, &hit, lim, st == COPSE_OK && st_any == COPSE_OK && id != COPSE_NONE,
                    which != 2u || obb_deep(t, &sh->obb, pose, id), "bvh sweep");
    }
}

static void shape_vs_octree(const scene *s, fuzz_reader *r, uint32_t which, const shapes *sh, const copse_pose *pose)
{
    uint32_t id = 0xCDCDCDCDu, cap = fuzz_u8(r) % 6u;
    guarded_ids full, small;
    fuzz_collect seen;
    copse_status st_any, st_full, st_small, st_visit = COPSE_OK, st;
    copse_distance d;
    copse_distance_query q;
    const copse_distance_query *qp;
    copse_sweep_hit hit;
    const copse_octree *t = &s->oct;
    const uint32_t lim = s->points;
    bool has_list = true;
    ids_open(&full, FUZZ_CAP);
    ids_open(&small, cap);
    memset(&seen, 0, sizeof seen);
    switch (which) {
    case 0:
        st_any = copse_octree_any_sphere(t, &sh->sphere, pose, &id);
        has_list = false;
        st_full = st_small = COPSE_OK; /* no list form: the lists stay empty */
        full.list.count = small.list.count = 0;
        full.list.truncated = small.list.truncated = false;
        break;
    case 1:
        st_any = copse_octree_any_capsule(t, &sh->capsule, pose, &id);
        has_list = false;
        st_full = st_small = COPSE_OK; /* no list form: the lists stay empty */
        full.list.count = small.list.count = 0;
        full.list.truncated = small.list.truncated = false;
        break;
    case 2:
        st_any = copse_octree_any_obb(t, &sh->obb, pose, &id);
        st_full = copse_octree_overlap_obb(t, &sh->obb, pose, &full.list);
        st_small = copse_octree_overlap_obb(t, &sh->obb, pose, &small.list);
        st_visit = copse_octree_visit_obb(t, &sh->obb, pose, fuzz_collect_id, &seen);
        break;
    case 3:
        st_any = copse_octree_any_triangle(t, &sh->triangle, pose, &id);
        st_full = copse_octree_overlap_triangle(t, &sh->triangle, pose, &full.list);
        st_small = copse_octree_overlap_triangle(t, &sh->triangle, pose, &small.list);
        st_visit = copse_octree_visit_triangle(t, &sh->triangle, pose, fuzz_collect_id, &seen);
        break;
    default:
        st_any = copse_octree_any_convex(t, &sh->convex, pose, &id);
        st_full = copse_octree_overlap_convex(t, &sh->convex, pose, &full.list);
        st_small = copse_octree_overlap_convex(t, &sh->convex, pose, &small.list);
        st_visit = copse_octree_visit_convex(t, &sh->convex, pose, fuzz_collect_id, &seen);
        break;
    }
    check_status(st_any, "octree any");
    if (has_list) {
        FUZZ_ASSERT(st_full == st_any && st_small == st_any && st_visit == st_any, "octree %u: statuses %d %d %d %d",
                    (unsigned)which, st_any, st_full, st_small, st_visit);
        any_vs_list(st_any, id, st_full, &full.list, "octree any/overlap");
        if (st_any == COPSE_OK) {
            fuzz_same_ids(&full.list, &seen, "octree overlap/visit");
            FUZZ_ASSERT(small.list.count == (full.list.count < cap ? full.list.count : cap) &&
                            small.list.truncated == (full.list.count > cap),
                        "octree: capacity %u kept %u of %u", (unsigned)cap, (unsigned)small.list.count,
                        (unsigned)full.list.count);
        }
    } else if (st_any != COPSE_OK) {
        FUZZ_ASSERT(id == COPSE_NONE, "octree any: error left id %u", (unsigned)id);
    } else {
        FUZZ_ASSERT(id == COPSE_NONE || id < lim, "octree any: id %u", (unsigned)id);
    }
    ids_close(&full, st_full, lim, "octree overlap");
    ids_close(&small, st_small, lim, "octree overlap (short)");

    qp = query_of(r, &q);
    garbage(&d, sizeof d);
    switch (which) {
    case 0: st = copse_distance_sphere_octree(&sh->sphere, pose, t, qp, &d); break;
    case 1: st = copse_distance_capsule_octree(&sh->capsule, pose, t, qp, &d); break;
    case 2: st = copse_distance_obb_octree(&sh->obb, pose, t, qp, &d); break;
    case 3: st = copse_distance_triangle_octree(&sh->triangle, pose, t, qp, &d); break;
    default: st = copse_distance_convex_octree(&sh->convex, pose, t, qp, &d); break;
    }
    distance_check(st, &d, qp, lim, st_any == COPSE_OK && id != COPSE_NONE,
                   which == 4u && id < MAX_PTS ? point_touch_tol(sh, pose, id) : 0.0f,
                   "octree distance");
    if (which <= 2u) {
        const copse_vec3 motion = vec(r);
        garbage(&hit, sizeof hit);
        if (which == 0u)
            st = copse_sweep_sphere_octree(&sh->sphere, pose, motion, t, &hit);
        else if (which == 1u)
            st = copse_sweep_capsule_octree(&sh->capsule, pose, motion, t, &hit);
        else
            st = copse_sweep_obb_octree(&sh->obb, pose, motion, t, &hit);
        sweep_check(st, &hit, lim, st == COPSE_OK && st_any == COPSE_OK && id != COPSE_NONE, true, "octree sweep");
    }
}

typedef struct pair_collect {
    copse_pair pairs[FUZZ_CAP];
    uint32_t count;
} pair_collect;

static bool collect_pair(void *user, const copse_pair *p)
{
    pair_collect *c = (pair_collect *)user;
    if (c->count >= FUZZ_CAP)
        return false;
    c->pairs[c->count++] = *p;
    return true;
}

/* The posed mesh against the tree and against the scan. */
static void mesh_queries(const scene *s, fuzz_reader *r, const copse_pose *pose)
{
    const uint32_t cap = fuzz_u8(r) % 6u;
    copse_pair witness, *mem = (copse_pair *)malloc(sizeof(copse_pair) * (FUZZ_CAP + GUARD)),
                        *smem = (copse_pair *)malloc(sizeof(copse_pair) * (cap + GUARD));
    copse_pair_list full, small;
    pair_collect seen;
    float sep_any = -7.0f, sep_list = -7.0f, sep_small, sep_visit;
    copse_status st_any, st_full, st_small, st_visit, st;
    copse_distance d;
    copse_distance_query q;
    const copse_distance_query *qp;
    guarded_ids ids;
    fuzz_collect seen_ids;
    float within;
    uint32_t i;
    if (mem == NULL || smem == NULL)
        abort();
    memset(mem, 0xA5, sizeof(copse_pair) * (FUZZ_CAP + GUARD));
    memset(smem, 0xA5, sizeof(copse_pair) * (cap + GUARD));
    full = copse_pair_list_make(mem, FUZZ_CAP);
    small = copse_pair_list_make(smem, cap);
    small.count = 999u;
    seen.count = 0;
    garbage(&witness, sizeof witness);
    st_any = copse_bvh_any_bvh(&s->tree, &s->mesh, pose, &witness, &sep_any);
    st_full = copse_bvh_overlap_bvh(&s->tree, &s->mesh, pose, &full, &sep_list);
    st_small = copse_bvh_overlap_bvh(&s->tree, &s->mesh, pose, &small, &sep_small);
    st_visit = copse_bvh_visit_bvh(&s->tree, &s->mesh, pose, collect_pair, &seen, &sep_visit);
    check_status(st_any, "bvh_bvh any");
    FUZZ_ASSERT(st_full == st_any && st_small == st_any && st_visit == st_any, "bvh_bvh statuses %d %d %d %d", st_any,
                st_full, st_small, st_visit);
    for (i = 0; i < GUARD; i++) {
        const uint8_t *g1 = (const uint8_t *)(mem + FUZZ_CAP + i), *g2 = (const uint8_t *)(smem + cap + i);
        uint32_t b;
        for (b = 0; b < sizeof(copse_pair); b++)
            FUZZ_ASSERT(g1[b] == 0xA5u && g2[b] == 0xA5u, "bvh_bvh wrote past a pair list's capacity");
    }
    if (st_any != COPSE_OK) {
        FUZZ_ASSERT(witness.tree_id == COPSE_NONE && full.count == 0 && small.count == 0 && !small.truncated,
                    "bvh_bvh: error %s left outputs", copse_status_str(st_any));
    } else {
        FUZZ_ASSERT(!full.truncated && (witness.tree_id != COPSE_NONE) == (full.count > 0),
                    "bvh_bvh: any %u, list of %u", (unsigned)witness.tree_id, (unsigned)full.count);
        FUZZ_ASSERT(small.count == (full.count < cap ? full.count : cap) && small.truncated == (full.count > cap),
                    "bvh_bvh: capacity %u kept %u of %u", (unsigned)cap, (unsigned)small.count, (unsigned)full.count);
        FUZZ_ASSERT(seen.count == full.count && memcmp(seen.pairs, full.pairs, sizeof(copse_pair) * full.count) == 0,
                    "bvh_bvh: visitor saw %u pairs, list %u", (unsigned)seen.count, (unsigned)full.count);
        for (i = 0; i < full.count; i++)
            FUZZ_ASSERT(full.pairs[i].tree_id < s->tree_prims && full.pairs[i].shape_id < s->mesh_prims,
                        "bvh_bvh: pair (%u, %u)", (unsigned)full.pairs[i].tree_id, (unsigned)full.pairs[i].shape_id);
        if (witness.tree_id != COPSE_NONE) {
            bool found = false;
            for (i = 0; i < full.count; i++)
                found |= full.pairs[i].tree_id == witness.tree_id && full.pairs[i].shape_id == witness.shape_id;
            FUZZ_ASSERT(found, "bvh_bvh: witness (%u, %u) not listed", (unsigned)witness.tree_id,
                        (unsigned)witness.shape_id);
            FUZZ_ASSERT(huge() || (sep_any == 0.0f && sep_list == 0.0f), "bvh_bvh: touching, separation %g %g", (double)sep_any,
                        (double)sep_list);
        } else {
            FUZZ_ASSERT(huge() || (sep_any >= 0.0f && sep_list >= 0.0f), "bvh_bvh: separation %g %g", (double)sep_any,
                        (double)sep_list);
        }
    }
    qp = query_of(r, &q);
    garbage(&d, sizeof d);
    st = copse_distance_bvh_bvh(&s->mesh, pose, &s->tree, qp, &d);
    distance_check(st, &d, qp, s->tree_prims, st_any == COPSE_OK && witness.tree_id != COPSE_NONE, 0.0f,
                   "distance bvh_bvh");
    if (st == COPSE_OK && st_any == COPSE_OK && witness.tree_id == COPSE_NONE && d.distance != FLT_MAX)
        FUZZ_ASSERT(d.shape_id < s->mesh_prims, "distance bvh_bvh: shape id %u", (unsigned)d.shape_id);
    if (st != COPSE_OK || d.distance == FLT_MAX || st_any != COPSE_OK || witness.tree_id != COPSE_NONE) {
        /* nothing more */
    } else if (qp == NULL && !huge()) {
        FUZZ_ASSERT(d.distance >= sep_any || d.distance != d.distance, "distance %g below the separation %g",
                    (double)d.distance, (double)sep_any);
    }
    free(mem);
    free(smem);

    /* against the scan */
    qp = query_of(r, &q);
    garbage(&d, sizeof d);
    st = copse_distance_bvh_octree(&s->mesh, pose, &s->oct, qp, &d);
    distance_check(st, &d, qp, s->points, false, 0.0f, "distance bvh_octree");
    within = num(r);
    ids_open(&ids, FUZZ_CAP);
    memset(&seen_ids, 0, sizeof seen_ids);
    st_full = copse_octree_overlap_bvh(&s->oct, &s->mesh, pose, within, &ids.list);
    st_visit = copse_octree_visit_bvh(&s->oct, &s->mesh, pose, within, fuzz_collect_id, &seen_ids);
    check_status(st_full, "octree_overlap_bvh");
    FUZZ_ASSERT(st_full == st_visit, "octree bvh: %d %d", st_full, st_visit);
    if (st_full == COPSE_OK) {
        fuzz_same_ids(&ids.list, &seen_ids, "octree overlap/visit bvh");
        if (st == COPSE_OK && within == 0.0f && qp == NULL && !huge())
            FUZZ_ASSERT(ids.list.count == 0 || d.distance == 0.0f,
                        "octree bvh: %u on the surface, distance %g", (unsigned)ids.list.count, (double)d.distance);
    }
    ids_close(&ids, st_full, s->points, "octree overlap bvh");
}

static void build_scene(scene *s, fuzz_reader *r, uint32_t mode)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_mesh mesh;
    copse_arena arena;
    copse_octree_config oc;
    uint32_t i;
    s->tree_prims = 1u + (mode & 7u);
    s->mesh_prims = 1u + ((mode >> 3) & 3u);
    s->points = (mode >> 5) & 7u ? ((mode >> 5) & 7u) * 2u + 1u : 0u;
    params.leaf_size = 1u + (fuzz_u8(r) & 3u);
    for (i = 0; i < 9u * s->tree_prims; i++)
        g_tri[i] = coord(r);
    for (i = 0; i < 9u * s->mesh_prims; i++)
        g_mtri[i] = coord(r);
    for (i = 0; i < s->points; i++)
        g_pts[i] = copse_v3(coord(r), coord(r), coord(r));
    memset(&mesh, 0, sizeof mesh);
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    copse_arena_init(&arena, g_tree_mem, sizeof g_tree_mem);
    if (fuzz_u8(r) == 0xB0u) { /* a tree over boxes: every query refuses it (KIND) */
        for (i = 0; i < s->tree_prims; i++) {
            const float *p = g_tri + 9u * i;
            g_boxes[i] = copse_box3_make(p[0] < p[3] ? p[0] : p[3], p[1] < p[4] ? p[1] : p[4],
                                         p[2] < p[5] ? p[2] : p[5], p[0] < p[3] ? p[3] : p[0],
                                         p[1] < p[4] ? p[4] : p[1], p[2] < p[5] ? p[5] : p[2]);
        }
        if (copse_bvh_build_boxes3(&s->tree, &arena, g_boxes, NULL, s->tree_prims, &params) != COPSE_OK)
            memset(&s->tree, 0, sizeof s->tree);
    } else {
        mesh.positions = g_tri;
        mesh.vertex_count = 3u * s->tree_prims;
        mesh.triangle_count = s->tree_prims;
        if (copse_bvh_build_mesh(&s->tree, &arena, &mesh, &params) != COPSE_OK)
            memset(&s->tree, 0, sizeof s->tree);
    }
    copse_arena_init(&arena, g_mesh_mem, sizeof g_mesh_mem);
    mesh.positions = g_mtri;
    mesh.vertex_count = 3u * s->mesh_prims;
    mesh.triangle_count = s->mesh_prims;
    if (copse_bvh_build_mesh(&s->mesh, &arena, &mesh, &params) != COPSE_OK)
        memset(&s->mesh, 0, sizeof s->mesh);
    memset(&oc, 0, sizeof oc);
    oc.points = g_pts;
    oc.point_capacity = MAX_PTS;
    oc.bounds = copse_box3_make(-64.0f, -64.0f, -64.0f, 64.0f, 64.0f, 64.0f);
    oc.max_nodes = 64u;
    oc.max_buckets = 32u;
    oc.leaf_size = 1u + (fuzz_u8(r) & 3u);
    oc.bucket_size = 4u;
    oc.max_depth = 6u;
    copse_arena_init(&arena, g_oct_mem, sizeof g_oct_mem);
    if (copse_octree_init(&s->oct, &arena, &oc) != COPSE_OK)
        abort(); /* a fixed valid configuration */
    copse_arena_init(&arena, g_scratch_mem, sizeof g_scratch_mem);
    if (copse_octree_build(&s->oct, &arena, s->points) != COPSE_OK)
        s->points = 0; /* unchanged: empty */
    if (s->points == 0u)
        s->points = 1u; /* ids below 1: none can be reported by an empty tree */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader r;
    scene s;
    uint32_t n;
    fuzz_reader_init(&r, data, size);
    magnitudes_reset(&g_scene);
    build_scene(&s, &r, fuzz_u8(&r));
    if (s.tree.node_count == 0u)
        s.tree_prims = 0u;
    if (s.mesh.node_count == 0u)
        s.mesh_prims = 0u;
    magnitudes_reset(&g_query);
    for (n = 0; n < MAX_QUERIES && r.at < r.size; n++, magnitudes_reset(&g_query)) {
        const uint32_t op = fuzz_u8(&r);
        copse_pose pbuf;
        const copse_pose *pose = pose_of(&r, &pbuf);
        shapes sh;
        if ((op & 15u) == 15u) {
            mesh_queries(&s, &r, pose);
            continue;
        }
        shapes_of(&r, &sh);
        if (op & 16u)
            shape_vs_octree(&s, &r, (op & 15u) % 5u, &sh, pose);
        else
            shape_vs_bvh(&s, &r, (op & 15u) % 5u, &sh, pose);
    }
    return 0;
}

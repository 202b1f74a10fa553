/* SPDX-License-Identifier: MIT */
/*
 * Sweeps (collide.h): copse_sweep_{sphere,capsule,obb}_{bvh,octree} against brute force in double
 * (oracle/oracle_points.h). For every primitive the oracle finds the first contact time of the
 * convex pair under the linear motion (the distance is convex in t: a golden-section search and a
 * bisection on an exact double distance), then the minimum over primitives. A hit is judged by
 * what collide.h promises:
 *   - hit or miss: a hit when some primitive touches within the motion, a miss when none comes
 *     within the contact band (2 * COPSE_SWEEP_TOLERANCE of the scale); in between either;
 *   - t in [0, 1], never past the first exact contact beyond float rounding (for a grazing
 *     approach, whose contact time is ill conditioned: a lag whose mirror before the contact is
 *     within rounding), and the reported primitive within the contact band of the shape at t;
 *   - the id: the primitive touched first, unless another touches within the band at the same
 *     time; copies of a primitive and contacts at t = 0 go to the lower id;
 *   - the point lies on that primitive and on the shape at t (within the band); the normal is unit
 *     and separates them, the shape on its side and the primitive on the other, up to a tilt of
 *     NORMAL_TILT radians (closest points at a contact are nearly equal: their direction is noisy);
 *   - started_in_contact with t = 0 when the shape touches at the start;
 *   - a miss: t = 1, id COPSE_NONE.
 * Scenes: random meshes (the BVH kit) and clouds (the octree kit), random poses and motions aimed
 * at primitives; hand-built cases with known answers: head-on, zero motion, motion parallel to a
 * face, grazing (a tangent touch is a hit), a near miss by 1e-3 of the scale, huge motions, ties.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "copse/collide.h"
#include "oracle/oracle_points.h"
#include "suites.h"
#include "test_octree.h"

#define RND_K 64.0 /* float rounding allowance, in float epsilons of the scale */
#define NORMAL_TILT 0.05 /* radians a contact normal may lean past separating */

static bool big_machine(void)
{
    return test_memory_bytes() >= ((size_t)32u << 20);
}

static unsigned g_described;
/* Measured: the largest gap at the reported t, and how far before the exact contact the reported
 * t lies (motion length times the difference), both over the scale. */
static double g_worst_gap, g_worst_early;
static unsigned long g_hits, g_misses, g_started; /* what the judged answers were */
static double g_worst_tilt; /* the most a normal leaned past separating, in radians */

/* ---- sweep queries -------------------------------------------------------------------------- */

typedef enum s_kind { S_SPHERE, S_CAPSULE, S_OBB, S_KINDS } s_kind;
static const char *const k_kind_names[S_KINDS] = {"sphere", "capsule", "obb"};

typedef struct sq {
    s_kind kind;
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    copse_pose pose;
    bool posed;
    copse_vec3 motion;
} sq;

static const copse_pose *sq_pose(const sq *q)
{
    return q->posed ? &q->pose : NULL;
}

static void sq_oracle(const sq *q, orp_shape *s)
{
    if (q->kind == S_SPHERE)
        orp_sphere(s, &q->sphere, sq_pose(q));
    else if (q->kind == S_CAPSULE)
        orp_capsule(s, &q->capsule, sq_pose(q));
    else
        orp_obb(s, &q->obb, sq_pose(q));
}

static copse_status sq_bvh(const sq *q, const copse_bvh *t, copse_sweep_hit *hit)
{
    if (q->kind == S_SPHERE)
        return copse_sweep_sphere_bvh(&q->sphere, sq_pose(q), q->motion, t, hit);
    if (q->kind == S_CAPSULE)
        return copse_sweep_capsule_bvh(&q->capsule, sq_pose(q), q->motion, t, hit);
    return copse_sweep_obb_bvh(&q->obb, sq_pose(q), q->motion, t, hit);
}

static copse_status sq_octree(const sq *q, const copse_octree *t, copse_sweep_hit *hit)
{
    if (q->kind == S_SPHERE)
        return copse_sweep_sphere_octree(&q->sphere, sq_pose(q), q->motion, t, hit);
    if (q->kind == S_CAPSULE)
        return copse_sweep_capsule_octree(&q->capsule, sq_pose(q), q->motion, t, hit);
    return copse_sweep_obb_octree(&q->obb, sq_pose(q), q->motion, t, hit);
}

static void print3(const char *name, const copse_vec3 *v)
{
    copse_port_printf(" %s=(%.9g, %.9g, %.9g)", name, (double)v->x, (double)v->y, (double)v->z);
}

static void sq_describe(const sq *q)
{
    if (g_described++ >= 4u)
        return;
    copse_port_printf("    %s:", k_kind_names[q->kind]);
    if (q->kind == S_SPHERE) {
        print3("c", &q->sphere.center);
        copse_port_printf(" r=%.9g", (double)q->sphere.radius);
    } else if (q->kind == S_CAPSULE) {
        print3("a", &q->capsule.segment.a);
        print3("b", &q->capsule.segment.b);
        copse_port_printf(" r=%.9g", (double)q->capsule.radius);
    } else {
        const copse_obb *b = &q->obb;
        print3("c", &b->center);
        print3("half", &b->half);
        copse_port_printf(" rot=(%.9g %.9g %.9g / %.9g %.9g %.9g / %.9g %.9g %.9g)", (double)b->rotation[0][0],
                          (double)b->rotation[0][1], (double)b->rotation[0][2], (double)b->rotation[1][0],
                          (double)b->rotation[1][1], (double)b->rotation[1][2], (double)b->rotation[2][0],
                          (double)b->rotation[2][1], (double)b->rotation[2][2]);
    }
    print3("motion", &q->motion);
    copse_port_printf("\n");
    if (q->posed) {
        const copse_pose *p = &q->pose;
        copse_port_printf("    pose rot=(%.9g %.9g %.9g / %.9g %.9g %.9g / %.9g %.9g %.9g)", (double)p->rotation[0][0],
                          (double)p->rotation[0][1], (double)p->rotation[0][2], (double)p->rotation[1][0],
                          (double)p->rotation[1][1], (double)p->rotation[1][2], (double)p->rotation[2][0],
                          (double)p->rotation[2][1], (double)p->rotation[2][2]);
        print3("t", &p->translation);
        copse_port_printf("\n");
    }
}

static void hit_describe(const copse_sweep_hit *h)
{
    if (g_described > 4u)
        return;
    copse_port_printf("    hit t=%.9g id=%u started=%d", (double)h->t, (unsigned)h->id, (int)h->started_in_contact);
    print3("point", &h->point);
    print3("normal", &h->normal);
    copse_port_printf("\n");
}

/* ---- primitives: a mesh's triangles or a cloud's points -------------------------------------- */

typedef struct prims {
    const tk_scene *mesh;    /* triangles (id = triangle index), or */
    const copse_vec3 *pts;   /* points (id = ids[i] or i) */
    const uint32_t *ids;
    uint32_t n;
    double mag;
} prims;

static void prim_get(const prims *pr, uint32_t i, orp_prim *p)
{
    if (pr->mesh != NULL) {
        tk_prim g;
        unsigned k;
        tk_get_prim(pr->mesh, i, &g);
        for (k = 0; k < 3; k++) {
            p->v[k][0] = g.v[k][0];
            p->v[k][1] = g.v[k][1];
            p->v[k][2] = g.v[k][2];
        }
        p->n = 3;
        return;
    }
    p->v[0][0] = (double)pr->pts[i].x;
    p->v[0][1] = (double)pr->pts[i].y;
    p->v[0][2] = (double)pr->pts[i].z;
    p->n = 1;
}

static uint32_t prim_id(const prims *pr, uint32_t i)
{
    return pr->mesh == NULL && pr->ids != NULL ? pr->ids[i] : i;
}

static uint32_t prim_index(const prims *pr, uint32_t id)
{
    uint32_t i;
    if (pr->mesh != NULL || pr->ids == NULL)
        return id < pr->n ? id : COPSE_NONE;
    for (i = 0; i < pr->n; i++)
        if (pr->ids[i] == id)
            return i;
    return COPSE_NONE;
}

static void prims_init(prims *pr, const tk_scene *mesh, const copse_vec3 *pts, const uint32_t *ids, uint32_t n)
{
    uint32_t i;
    pr->mesh = mesh;
    pr->pts = pts;
    pr->ids = ids;
    pr->n = n;
    pr->mag = 0.0;
    for (i = 0; i < n; i++) {
        orp_prim p;
        unsigned k;
        prim_get(pr, i, &p);
        for (k = 0; k < p.n; k++)
            pr->mag = fmax(pr->mag, orc_max_abs(p.v[k]));
    }
}

/* The same primitive: the same corners, in any order. */
static bool prim_same(const orp_prim *a, const orp_prim *b)
{
    unsigned i, j, k, used = 0;
    if (a->n != b->n)
        return false;
    for (i = 0; i < a->n; i++) {
        for (j = 0; j < b->n; j++) {
            if (used >> j & 1u)
                continue;
            for (k = 0; k < 3u && a->v[i][k] == b->v[j][k]; k++)
                ;
            if (k == 3u)
                break;
        }
        if (j == b->n)
            return false;
        used |= 1u << j;
    }
    return true;
}

/* ---- the judge ------------------------------------------------------------------------------------ */

typedef struct sweep_oracle {
    double scale, gap, eps, rnd, eps_t, v[3], vlen;
    bool any_touch, any_near;
    double t_first;   /* the first exact contact over all primitives */
    uint32_t first;   /* its primitive (lowest id at equal t) */
    uint32_t low0_id; /* the lowest id touching at t = 0 */
} sweep_oracle;

static void sweep_oracle_run(const prims *pr, const sq *q, const orp_shape *s, sweep_oracle *o)
{
    uint32_t i;
    o->v[0] = (double)q->motion.x;
    o->v[1] = (double)q->motion.y;
    o->v[2] = (double)q->motion.z;
    o->vlen = orc_len(o->v);
    o->scale = fmax(fmax(orp_scale(s), orp_scale(s) + orc_max_abs(o->v)), pr->mag);
    o->gap = 2.0 * (double)COPSE_SWEEP_TOLERANCE * o->scale;
    o->eps = 1e-12 * o->scale;
    o->rnd = RND_K * ORC_FLT_EPS * o->scale;
    o->eps_t = o->vlen > 0.0 ? o->rnd / o->vlen : 1.0;
    o->any_touch = o->any_near = false;
    o->t_first = 2.0;
    o->first = COPSE_NONE;
    o->low0_id = COPSE_NONE;
    for (i = 0; i < pr->n; i++) {
        orp_prim p;
        orp_contact c;
        uint32_t id = prim_id(pr, i);
        prim_get(pr, i, &p);
        orp_sweep(s, o->v, &p, o->eps, o->gap, &c);
        o->any_near = o->any_near || c.near;
        if (!c.touches)
            continue;
        o->any_touch = true;
        if (o->first == COPSE_NONE || c.t_contact < o->t_first || (c.t_contact == o->t_first && id < prim_id(pr, o->first))) {
            o->t_first = c.t_contact;
            o->first = i;
        }
        if (c.t_contact == 0.0 && id < o->low0_id)
            o->low0_id = id;
    }
}

static bool is_miss(const copse_sweep_hit *h)
{
    return h->t == 1.0f && h->id == COPSE_NONE && !h->started_in_contact;
}

static double len3(const copse_vec3 *v)
{
    return sqrt((double)v->x * (double)v->x + (double)v->y * (double)v->y + (double)v->z * (double)v->z);
}

/* One answer against the oracle. False after a failed check. */
static bool judge_hit(const prims *pr, const sq *q, const orp_shape *s, const sweep_oracle *o,
                      const copse_sweep_hit *h, const char *tree)
{
    uint32_t i, j;
    orp_prim p, other;
    double t = (double)h->t, off[3], pt[3], n[3], d_at, on_prim, on_shape, nl = len3(&h->normal);
    unsigned k;
    bool late;
    if (!o->any_near) {
        if (!CHECKF(is_miss(h), "%s %s: %s: the oracle's shape never comes within %.3g; got t=%.9g id %u", tk_ctx(),
                    tree, k_kind_names[q->kind], o->gap, t, (unsigned)h->id))
            return false;
        return true;
    }
    if (h->id == COPSE_NONE) {
        if (!CHECKF(!o->any_touch && is_miss(h), "%s %s: %s: a miss (t=%.9g started=%d), the oracle touches primitive %u "
                    "at t=%.9g", tk_ctx(), tree, k_kind_names[q->kind], t, (int)h->started_in_contact,
                    o->first != COPSE_NONE ? (unsigned)prim_id(pr, o->first) : 0u, o->t_first))
            return false;
        tk_tally_now.comparisons++;
        tk_tally_now.edge_excused++; /* within the contact band, never touching: either answer */
        return true;
    }
    tk_tally_now.comparisons++;
    i = prim_index(pr, h->id);
    if (!CHECKF(i != COPSE_NONE && t >= 0.0 && t <= 1.0 && (!h->started_in_contact || t == 0.0),
                "%s %s: %s: id %u, t=%.9g, started=%d", tk_ctx(), tree, k_kind_names[q->kind], (unsigned)h->id, t,
                (int)h->started_in_contact))
        return false;
    prim_get(pr, i, &p);
    for (k = 0; k < 3; k++)
        off[k] = o->v[k] * t;
    d_at = orp_shape_prim(s, off, &p);
    g_worst_gap = fmax(g_worst_gap, d_at / o->scale);
    if (o->any_touch)
        g_worst_early = fmax(g_worst_early, (o->t_first - t) * o->vlen / o->scale);
    /* at the reported t the reported primitive is within the band; no exact contact comes earlier:
     * past it by more than rounding in t, or, for a grazing approach whose contact time is ill
     * conditioned, by a lag whose mirror before the contact is farther than rounding */
    late = o->any_touch && t > o->t_first + o->eps_t;
    if (late) {
        orp_prim first;
        double back[3], lag = t - o->t_first;
        prim_get(pr, o->first, &first);
        for (k = 0; k < 3; k++)
            back[k] = o->v[k] * fmax(0.0, o->t_first - lag);
        late = orp_shape_prim(s, back, &first) > o->rnd;
    }
    if (!CHECKF(d_at <= o->gap + o->rnd, "%s %s: %s: id %u at t=%.9g is %.9g away (band %.3g)", tk_ctx(), tree,
                k_kind_names[q->kind], (unsigned)h->id, t, d_at, o->gap) ||
        !CHECKF(!late,
                "%s %s: %s: t=%.9g (id %u) is past the first contact t=%.9g (id %u)", tk_ctx(), tree,
                k_kind_names[q->kind], t, (unsigned)h->id, o->t_first,
                o->first != COPSE_NONE ? (unsigned)prim_id(pr, o->first) : 0u))
        return false;
    if (o->low0_id != COPSE_NONE &&
        !CHECKF(h->started_in_contact && h->id <= o->low0_id, "%s %s: %s: touching at the start (lowest id %u): got "
                "id %u, started=%d", tk_ctx(), tree, k_kind_names[q->kind], (unsigned)o->low0_id, (unsigned)h->id,
                (int)h->started_in_contact))
        return false;
    /* copies: the lower id */
    for (j = 0; j < pr->n; j++) {
        if (prim_id(pr, j) >= h->id)
            continue;
        prim_get(pr, j, &other);
        if (!CHECKF(!prim_same(&p, &other), "%s %s: %s: id %u has a copy with the lower id %u", tk_ctx(), tree,
                    k_kind_names[q->kind], (unsigned)h->id, (unsigned)prim_id(pr, j)))
            return false;
    }
    /* the contact point: on the primitive, on the shape at t */
    pt[0] = (double)h->point.x;
    pt[1] = (double)h->point.y;
    pt[2] = (double)h->point.z;
    on_prim = orp_prim_point(&p, pt);
    {
        orp_prim as_point;
        as_point.n = 1;
        for (k = 0; k < 3; k++)
            as_point.v[0][k] = pt[k];
        on_shape = orp_shape_prim(s, off, &as_point);
    }
    if (!CHECKF(on_prim <= o->rnd && on_shape <= o->gap + 2.0 * o->rnd,
                "%s %s: %s: the point is %.3g off primitive %u and %.3g off the shape at t (rounding %.3g)", tk_ctx(),
                tree, k_kind_names[q->kind], on_prim, (unsigned)h->id, on_shape, o->rnd) ||
        !CHECKF(fabs(nl - 1.0) <= 1e-5, "%s %s: %s: normal of length %.9g", tk_ctx(), tree, k_kind_names[q->kind], nl))
        return false;
    if (h->started_in_contact)
        return true;
    /* the normal separates, up to rounding and a small tilt: the shape at t on its side, the
     * primitive on the other (at a contact the direction between nearly equal closest points is
     * noisy; a tilt of NORMAL_TILT radians is let pass, and the worst is reported) */
    n[0] = (double)h->normal.x / nl;
    n[1] = (double)h->normal.y / nl;
    n[2] = (double)h->normal.z / nl;
    {
        double slack = 4.0 * o->gap + o->rnd, base = orc_dot(n, pt), behind, ball[3], r, reach, tilt = 0.0;
        bool ok = true;
        behind = -(orp_support_min(s, n) + t * orc_dot(n, o->v) - base);
        orp_bounding_ball(s, ball, &r);
        for (k = 0; k < 3; k++)
            ball[k] += off[k];
        reach = orc_dist(ball, pt) + r;
        if (behind > slack) {
            tilt = behind / reach;
            ok = tilt <= NORMAL_TILT;
        }
        for (k = 0; k < p.n; k++) {
            double ahead = orc_dot(n, p.v[k]) - base;
            if (ahead > slack) {
                tilt = fmax(tilt, ahead / orc_dist(p.v[k], pt));
                ok = ok && ahead / orc_dist(p.v[k], pt) <= NORMAL_TILT;
            }
        }
        g_worst_tilt = fmax(g_worst_tilt, tilt);
        return CHECKF(ok, "%s %s: %s: normal (%.6g, %.6g, %.6g) does not separate: tilted %.3g radians (allowed %g)",
                      tk_ctx(), tree, k_kind_names[q->kind], n[0], n[1], n[2], tilt, NORMAL_TILT);
    }
}

static bool same_hit(const copse_sweep_hit *a, const copse_sweep_hit *b)
{
    return a->t == b->t && a->id == b->id && a->started_in_contact == b->started_in_contact &&
           a->point.x == b->point.x && a->point.y == b->point.y && a->point.z == b->point.z &&
           a->normal.x == b->normal.x && a->normal.y == b->normal.y && a->normal.z == b->normal.z;
}

/* Runs q against the primitives' tree(s) and judges each answer. bvh or octree (and view). */
static void judge_sweep(const prims *pr, const sq *q, const copse_bvh *bvh, const copse_octree *oct,
                        const copse_octree *view)
{
    orp_shape s;
    sweep_oracle o;
    copse_sweep_hit h, hv;
    copse_status st;
    sq_oracle(q, &s);
    sweep_oracle_run(pr, q, &s, &o);
    memset(&h, 0x5a, sizeof h);
    st = bvh != NULL ? sq_bvh(q, bvh, &h) : sq_octree(q, oct, &h);
    if (h.id == COPSE_NONE)
        g_misses++;
    else if (h.started_in_contact)
        g_started++;
    else
        g_hits++;
    if (!CHECKF(st == COPSE_OK, "%s: %s sweep: %s", tk_ctx(), k_kind_names[q->kind], copse_status_str(st)) ||
        !judge_hit(pr, q, &s, &o, &h, bvh != NULL ? "bvh" : "octree")) {
        sq_describe(q);
        hit_describe(&h);
        if (g_described <= 4u && h.id != COPSE_NONE && prim_index(pr, h.id) != COPSE_NONE) {
            orp_prim p;
            unsigned k;
            prim_get(pr, prim_index(pr, h.id), &p);
            copse_port_printf("    primitive %u:", (unsigned)h.id);
            for (k = 0; k < p.n; k++)
                copse_port_printf(" (%.9g, %.9g, %.9g)", p.v[k][0], p.v[k][1], p.v[k][2]);
            copse_port_printf("\n");
        }
    }
    if (view != NULL) {
        memset(&hv, 0x3c, sizeof hv);
        CHECKF(sq_octree(q, view, &hv) == COPSE_OK && same_hit(&h, &hv), "%s: %s sweep on the view differs", tk_ctx(),
               k_kind_names[q->kind]);
    }
}

/* ---- random queries ------------------------------------------------------------------------------- */

static copse_vec3 rand3(test_rng *rng, float lo, float hi)
{
    copse_vec3 v;
    v.x = test_rng_float(rng, lo, hi);
    v.y = test_rng_float(rng, lo, hi);
    v.z = test_rng_float(rng, lo, hi);
    return v;
}

static void random_rotation(test_rng *rng, float r[3][3])
{
    double u1 = (double)test_rng_float(rng, 0.0f, 1.0f);
    double u2 = (double)test_rng_float(rng, 0.0f, 1.0f);
    double u3 = (double)test_rng_float(rng, 0.0f, 1.0f);
    orp_random_rotation(r, u1, u2, u3);
}

static void set_identity(float r[3][3])
{
    unsigned i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r[i][j] = i == j ? 1.0f : 0.0f;
}

typedef struct scene_box {
    double lo[3], hi[3], size;
} scene_box;

static void prims_box(const prims *pr, scene_box *b)
{
    uint32_t i;
    unsigned k, a;
    for (a = 0; a < 3; a++) {
        b->lo[a] = pr->n > 0u ? HUGE_VAL : -1.0;
        b->hi[a] = pr->n > 0u ? -HUGE_VAL : 1.0;
    }
    for (i = 0; i < pr->n; i++) {
        orp_prim p;
        prim_get(pr, i, &p);
        for (k = 0; k < p.n; k++)
            for (a = 0; a < 3; a++) {
                b->lo[a] = fmin(b->lo[a], p.v[k][a]);
                b->hi[a] = fmax(b->hi[a], p.v[k][a]);
            }
    }
    b->size = 1.0;
    for (a = 0; a < 3; a++)
        b->size = fmax(b->size, b->hi[a] - b->lo[a]);
}

/* A shape near the scene moving by a motion aimed at a point of a primitive most of the time. */
static void random_sq(sq *q, s_kind kind, const prims *pr, const scene_box *b, test_rng *rng)
{
    double target[3], start[3], dir[3], dl, reach, scale;
    float s = (float)b->size;
    copse_vec3 lc;
    unsigned a;
    uint32_t pick = test_rng_below(rng, 8);
    memset(q, 0, sizeof *q);
    q->kind = kind;
    if (pr->n > 0u && pick != 0u) {
        orp_prim p;
        double u = (double)test_rng_float(rng, 0.0f, 1.0f), v = (double)test_rng_float(rng, 0.0f, 1.0f);
        prim_get(pr, test_rng_below(rng, pr->n), &p);
        if (u + v > 1.0) {
            u = 1.0 - u;
            v = 1.0 - v;
        }
        for (a = 0; a < 3; a++)
            target[a] = p.n == 1u ? p.v[0][a] : p.v[0][a] + u * (p.v[1][a] - p.v[0][a]) + v * (p.v[2][a] - p.v[0][a]);
    } else {
        for (a = 0; a < 3; a++)
            target[a] = b->lo[a] + (b->hi[a] - b->lo[a]) * (double)test_rng_float(rng, 0.0f, 1.0f);
    }
    do {
        for (a = 0; a < 3; a++)
            dir[a] = (double)test_rng_float(rng, -1.0f, 1.0f);
        dl = orc_len(dir);
    } while (dl < 0.1 || dl > 1.0);
    reach = b->size * (double)test_rng_float(rng, 0.05f, 0.6f);
    for (a = 0; a < 3; a++)
        start[a] = target[a] + dir[a] / dl * reach;
    /* the motion: to the target and beyond or short of it; sometimes anywhere, sometimes none */
    scale = (double)test_rng_float(rng, 0.3f, 2.0f);
    pick = test_rng_below(rng, 16);
    if (pick == 0u)
        q->motion = copse_v3(0, 0, 0);
    else if (pick < 4u)
        q->motion = rand3(rng, -s, s);
    else
        q->motion = copse_v3((float)((target[0] - start[0]) * scale), (float)((target[1] - start[1]) * scale),
                             (float)((target[2] - start[2]) * scale));
    q->posed = test_rng_below(rng, 2) == 1u;
    if (q->posed) {
        random_rotation(rng, q->pose.rotation);
        q->pose.translation = copse_v3((float)start[0], (float)start[1], (float)start[2]);
        lc = rand3(rng, -0.05f * s, 0.05f * s);
    } else {
        q->pose = copse_pose_identity();
        lc = copse_v3((float)start[0], (float)start[1], (float)start[2]);
    }
    if (kind == S_SPHERE) {
        q->sphere.center = lc;
        q->sphere.radius = test_rng_below(rng, 8) == 0u ? 0.0f : s * test_rng_float(rng, 0.0f, 0.1f);
    } else if (kind == S_CAPSULE) {
        copse_vec3 d = rand3(rng, -0.1f * s, 0.1f * s);
        if (test_rng_below(rng, 6) == 0u)
            d = copse_v3(0, 0, 0);
        q->capsule.segment.a = copse_v3(lc.x + d.x, lc.y + d.y, lc.z + d.z);
        q->capsule.segment.b = copse_v3(lc.x - d.x, lc.y - d.y, lc.z - d.z);
        q->capsule.radius = test_rng_below(rng, 8) == 0u ? 0.0f : s * test_rng_float(rng, 0.0f, 0.05f);
    } else {
        q->obb.center = lc;
        q->obb.half = rand3(rng, 0.0f, 0.1f * s);
        if (test_rng_below(rng, 8) == 0u)
            q->obb.half.y = 0.0f;
        if (test_rng_below(rng, 2) == 0u)
            random_rotation(rng, q->obb.rotation);
        else
            set_identity(q->obb.rotation);
    }
}

/* ---- the oracle's own cases ------------------------------------------------------------------------ */

static bool near_d(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static void test_oracle(void)
{
    test_rng rng;
    unsigned i;
    orp_shape s;
    orp_prim p;
    orp_contact c;
    double v[3];
    test_rng_seed(&rng, 4242);
    /* a sphere against a point: the closed form and the search agree */
    for (i = 0; i < (big_machine() ? 400u : 40u); i++) {
        copse_sphere sp;
        double t = -1.0, pp[3];
        bool hit;
        unsigned k;
        sp.center = rand3(&rng, -5, 5);
        sp.radius = test_rng_float(&rng, 0.0f, 2.0f);
        orp_sphere(&s, &sp, NULL);
        for (k = 0; k < 3; k++) {
            v[k] = (double)test_rng_float(&rng, -10, 10);
            pp[k] = (double)test_rng_float(&rng, -5, 5);
        }
        p.n = 1;
        p.v[0][0] = pp[0], p.v[0][1] = pp[1], p.v[0][2] = pp[2];
        hit = orp_sweep_sphere_point(s.p[0], s.radius, v, pp, &t);
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        if (!CHECKF(hit == c.touches && (!hit || near_d(c.t_contact, t, 1e-9)),
                    "sphere-point %u: closed form %d t=%.12g, search %d t=%.12g (min %.3g)", i, (int)hit, t,
                    (int)c.touches, c.t_contact, c.d_min))
            break;
        CHECK(!c.near || c.t_early <= c.t_contact);
    }
    { /* a unit sphere falling 10 onto a big floor from 5 up: t = 0.4 */
        copse_sphere sp = {{0.5f, -0.5f, 5.0f}, 1.0f};
        orp_sphere(&s, &sp, NULL);
        v[0] = 0, v[1] = 0, v[2] = -10;
        p.n = 3;
        p.v[0][0] = -10, p.v[0][1] = -10, p.v[0][2] = 0;
        p.v[1][0] = 10, p.v[1][1] = -10, p.v[1][2] = 0;
        p.v[2][0] = 10, p.v[2][1] = 10, p.v[2][2] = 0;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(c.touches && near_d(c.t_contact, 0.4, 1e-10) && near_d(c.d0, 4.0, 1e-12) && c.t_early < 0.4 &&
                   c.t_early > 0.4 - 2e-5,
               "sphere onto floor: %d t=%.12g early %.12g", (int)c.touches, c.t_contact, c.t_early);
    }
    { /* a capsule lying along x, 3 up, radius 0.5: t = 0.5 onto the floor; beside it: a miss by 1 */
        copse_capsule cap = {{{-1, 0, 3}, {1, 0, 3}}, 0.5f};
        orp_capsule(&s, &cap, NULL);
        v[0] = 0, v[1] = 0, v[2] = -5;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(c.touches && near_d(c.t_contact, 0.5, 1e-10), "capsule onto floor: t=%.12g", c.t_contact);
        cap.segment.a = copse_v3(11.5f, 0, 0);
        cap.segment.b = copse_v3(11.5f, 0, 5);
        orp_capsule(&s, &cap, NULL);
        v[0] = 0, v[1] = 0, v[2] = -5;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(!c.touches && !c.near && near_d(c.d_min, 1.0, 1e-9), "capsule beside the floor: min %.12g", c.d_min);
    }
    { /* a box (half 1) turned 45 degrees about z, an edge of the floor triangle parallel to a face */
        copse_obb b;
        const double r = 0.70710678118654752;
        set_identity(b.rotation);
        b.rotation[0][0] = (float)r, b.rotation[0][1] = (float)-r, b.rotation[1][0] = (float)r,
        b.rotation[1][1] = (float)r;
        b.center = copse_v3(0, -20, 0.5f);
        b.half = copse_v3(1, 1, 1);
        orp_obb(&s, &b, NULL);
        /* moving +y toward the edge y = -10 of the floor triangle: the leading corner at y = -20 + sqrt 2 */
        v[0] = 0, v[1] = 20, v[2] = 0;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(c.touches && near_d(c.t_contact, (10.0 - sqrt(2.0)) / 20.0, 1e-6), "box corner to edge: t=%.12g",
               c.t_contact);
        /* lifted 1.5 above the floor, sliding parallel to it: never touches, the gap is 0.5 */
        b.center = copse_v3(0, 0, 1.5f);
        orp_obb(&s, &b, NULL);
        v[0] = 3, v[1] = -2, v[2] = 0;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(!c.touches && near_d(c.d_min, 0.5, 1e-7) && near_d(c.d0, 0.5, 1e-7), "box sliding: min %.12g", c.d_min);
        /* resting on it: touching from the start */
        b.center = copse_v3(0, 0, 1.0f);
        orp_obb(&s, &b, NULL);
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(c.touches && c.t_contact == 0.0, "box resting: t=%.12g", c.t_contact);
    }
    { /* grazing a point: the closest approach is exactly the radius, at t = 0.5 */
        copse_sphere sp = {{-5, 1, 0}, 1.0f};
        orp_sphere(&s, &sp, NULL);
        v[0] = 10, v[1] = 0, v[2] = 0;
        p.n = 1;
        p.v[0][0] = p.v[0][1] = p.v[0][2] = 0;
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(c.touches && fabs(c.t_contact - 0.5) < 1e-5 && c.d_min <= 1e-12, "grazing: t=%.12g min %.3g",
               c.t_contact, c.d_min);
        sp.center.y = 1.01f;
        orp_sphere(&s, &sp, NULL);
        orp_sweep(&s, v, &p, 1e-12, 1e-4, &c);
        CHECKF(!c.touches && !c.near && near_d(c.d_min, (double)1.01f - 1.0, 1e-9), "near miss: min %.12g", c.d_min);
    }
}

/* ---- random scenes ------------------------------------------------------------------------------------ */

static void test_bvh_random(void)
{
    static const tk_layout layouts[3] = {TK_U16, TK_U32, TK_FLAT};
    /* (origin, extent): near the origin, and far from it (rounding relative to the coordinates) */
    static const float origins[3] = {0.0f, -50.0f, 1.0e4f}, extents[3] = {20.0f, 100.0f, 30.0f};
    unsigned sc_i, q, kind;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    for (sc_i = 0; sc_i < 6u; sc_i++) {
        size_t mark = tk_mark();
        uint32_t tris = sc_i == 0u ? 1u : (sc_i == 1u ? 3u : (big_machine() ? 150u : 10u));
        unsigned queries = big_machine() ? 60u : 4u;
        copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
        tk_mesh_spec spec;
        tk_scene ms;
        tk_tree mt;
        scene_box box;
        prims pr;
        test_rng rng;
        test_rng_seed(&rng, 300u + sc_i);
        tk_mesh_spec_init(&spec, tris, layouts[sc_i % 3u]);
        spec.origin = origins[sc_i % 3u];
        spec.extent = extents[sc_i % 3u];
        spec.dup_pct = 6;
        spec.degen_pct = 6;
        spec.coplanar_pct = 4;
        params.leaf_size = 1u + sc_i % 4u;
        params.split = (copse_bvh_split)(sc_i % 3u);
        tk_context("mesh %u at %g seed=%u", (unsigned)tris, (double)spec.origin, 300u + sc_i);
        if (!tk_make_mesh(&ms, &spec, &rng) || !tk_build(&mt, &ms, &params))
            return;
        prims_init(&pr, &ms, NULL, NULL, ms.n);
        prims_box(&pr, &box);
        for (q = 0; q < queries; q++)
            for (kind = 0; kind < S_KINDS; kind++) {
                sq query;
                if (kind == S_OBB && !big_machine() && q % 2u == 1u)
                    continue; /* box against triangle is the dearest oracle in soft double */
                random_sq(&query, (s_kind)kind, &pr, &box, &rng);
                judge_sweep(&pr, &query, &mt.bvh, NULL, NULL);
            }
        tk_rewind(mark);
    }
    tk_tally_end();
}

static void test_octree_random(void)
{
    unsigned kind, q, k, b;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        for (b = 0; b < 2u; b++) {
            size_t mark = tk_mark();
            uint32_t n = b == 0u ? 2u : (big_machine() ? 800u : 40u);
            copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
            uint32_t *ids = (kind + b) % 2u ? ot_make_ids(n) : NULL;
            unsigned queries = big_machine() ? 60u : 4u;
            ot_point_tree pt;
            copse_octree view;
            scene_box box;
            prims pr;
            test_rng rng;
            size_t bytes, written = 0;
            void *blob;
            if (pts == NULL)
                return;
            test_rng_seed(&rng, 600u + kind * 10u + b);
            tk_context("%s n=%u%s seed=%u", ot_cloud_name((ot_cloud_kind)kind), (unsigned)n, ids != NULL ? " ids" : "",
                       600u + kind * 10u + b);
            ot_make_cloud(pts, n, (ot_cloud_kind)kind, &rng);
            if (!ot_point_build(&pt, pts, ids, n, n, 1u + 3u * b, 1u + 2u * b, COPSE_OCTREE_MAX_DEPTH, 0, 0))
                return;
            bytes = copse_octree_save_bytes(&pt.tree);
            blob = tk_alloc(bytes);
            if (blob == NULL || !CHECK(copse_octree_save(&pt.tree, blob, bytes, &written) == COPSE_OK) ||
                !CHECK(copse_blob_to_host(blob, bytes, blob, bytes, NULL) == COPSE_OK) || /* big endian */
                !CHECK(copse_octree_view(&view, blob, bytes) == COPSE_OK))
                return;
            prims_init(&pr, NULL, pts, ids, n);
            prims_box(&pr, &box);
            for (q = 0; q < queries; q++)
                for (k = 0; k < S_KINDS; k++) {
                    sq query;
                    random_sq(&query, (s_kind)k, &pr, &box, &rng);
                    judge_sweep(&pr, &query, NULL, &pt.tree, &view);
                }
            tk_rewind(mark);
        }
    }
    tk_tally_end();
}

/* ---- hand-built cases with known answers ------------------------------------------------------------ */

/* A floor: the square [-10, 10]^2 at z = 0 as triangles 0 and 1 (the diagonal x = y; triangle 0
 * holds x > y), triangle 2 a copy of 0 with its corners turned, triangle 3 a copy of 1. */
static const float k_floor[36] = {-10, -10, 0, 10, -10, 0, 10, 10, 0, /**/ -10, -10, 0, 10, 10, 0, -10, 10, 0,
                                  10, -10, 0, 10, 10, 0, -10, -10, 0,  /**/ -10, -10, 0, 10, 10, 0, -10, 10, 0};

typedef struct expect {
    double t;      /* < 0: a miss */
    uint32_t id;   /* COPSE_NONE: any */
    bool started;
    double n[3];   /* all zero: any */
} expect;

/* Judges q against the oracle and against the known answer (t within the band over the motion). */
static void check_case(const prims *pr, const sq *q, const copse_bvh *bvh, const copse_octree *oct,
                       const expect *e, const char *name)
{
    copse_sweep_hit h;
    copse_status st;
    double vl = len3(&q->motion), slack;
    orp_shape s;
    sweep_oracle o;
    tk_context("case %s", name);
    judge_sweep(pr, q, bvh, oct, NULL);
    sq_oracle(q, &s);
    sweep_oracle_run(pr, q, &s, &o);
    slack = vl > 0.0 ? (o.gap + o.rnd) / vl : 0.0;
    memset(&h, 0x5a, sizeof h);
    st = bvh != NULL ? sq_bvh(q, bvh, &h) : sq_octree(q, oct, &h);
    if (e->t < 0.0) {
        CHECKF(st == COPSE_OK && is_miss(&h), "case %s: a miss expected; t=%.9g id %u", name, (double)h.t,
               (unsigned)h.id);
        return;
    }
    CHECKF(st == COPSE_OK && h.id != COPSE_NONE && fabs((double)h.t - e->t) <= slack + 1e-6 &&
               (e->id == COPSE_NONE || h.id == e->id) && h.started_in_contact == e->started,
           "case %s: t=%.9g id %u started %d; expected t=%.9g (+-%.3g) id %u started %d", name, (double)h.t,
           (unsigned)h.id, (int)h.started_in_contact, e->t, slack, (unsigned)e->id, (int)e->started);
    if (e->n[0] != 0.0 || e->n[1] != 0.0 || e->n[2] != 0.0)
        CHECKF(fabs((double)h.normal.x - e->n[0]) <= 1e-4 && fabs((double)h.normal.y - e->n[1]) <= 1e-4 &&
                   fabs((double)h.normal.z - e->n[2]) <= 1e-4,
               "case %s: normal (%.9g, %.9g, %.9g), expected (%g, %g, %g)", name, (double)h.normal.x,
               (double)h.normal.y, (double)h.normal.z, e->n[0], e->n[1], e->n[2]);
}

static void sphere_q(sq *q, float x, float y, float z, float r, float mx, float my, float mz)
{
    memset(q, 0, sizeof *q);
    q->kind = S_SPHERE;
    q->sphere.center = copse_v3(x, y, z);
    q->sphere.radius = r;
    q->pose = copse_pose_identity();
    q->motion = copse_v3(mx, my, mz);
}

static void box_q(sq *q, float x, float y, float z, float h, float mx, float my, float mz)
{
    memset(q, 0, sizeof *q);
    q->kind = S_OBB;
    q->obb.center = copse_v3(x, y, z);
    q->obb.half = copse_v3(h, h, h);
    set_identity(q->obb.rotation);
    q->pose = copse_pose_identity();
    q->motion = copse_v3(mx, my, mz);
}

static void set_expect(expect *e, double t, uint32_t id, bool started, double nx, double ny, double nz)
{
    e->t = t;
    e->id = id;
    e->started = started;
    e->n[0] = nx;
    e->n[1] = ny;
    e->n[2] = nz;
}

static void valid_sq(sq *q, s_kind kind);

static void test_cases(void)
{
    copse_mesh mesh;
    tk_scene ms;
    tk_tree mt;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    prims pr;
    sq q;
    expect e;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = k_floor;
    mesh.vertex_count = 12;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.triangle_count = 4;
    tk_scene_from_mesh(&ms, &mesh, COPSE_BVH_PROJECT_NONE);
    params.leaf_size = 1;
    tk_context("floor");
    if (!tk_build(&mt, &ms, &params))
        return;
    prims_init(&pr, &ms, NULL, NULL, 4);
    /* head-on: t = 0.4, triangle 0 (its copy 2 ties: the lower id) */
    sphere_q(&q, 0.5f, -0.5f, 5, 1, 0, 0, -10);
    set_expect(&e, 0.4, 0, false, 0, 0, 1);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "sphere head-on");
    /* the same from below: the surface is two-sided */
    sphere_q(&q, 0.5f, -0.5f, -5, 1, 0, 0, 10);
    set_expect(&e, 0.4, 0, false, 0, 0, -1);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "sphere from below");
    /* zero motion: touching (every triangle: the lowest id), or not */
    sphere_q(&q, 0.5f, -0.5f, 0.5f, 1, 0, 0, 0);
    set_expect(&e, 0.0, 0, true, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "zero motion touching");
    sphere_q(&q, 0.5f, -0.5f, 5, 1, 0, 0, 0);
    set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "zero motion apart");
    /* sliding parallel to the floor: 0.5 above it (a miss), resting on it (touching from the start) */
    box_q(&q, 0, 0, 1.5f, 1, 5, 3, 0);
    set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "box sliding above");
    box_q(&q, 0, 0, 1, 1, 5, 3, 0);
    set_expect(&e, 0.0, 0, true, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "box resting and sliding");
    /* a box dropping flat: t = (3 - 1) / 4 */
    box_q(&q, 2, -3, 3, 1, 0, 0, -4);
    set_expect(&e, 0.5, 0, false, 0, 0, 1);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "box dropping");
    /* a capsule lying 3 up, radius 0.5, dropping 5: t = 0.5; over triangle 1 only */
    memset(&q, 0, sizeof q);
    q.kind = S_CAPSULE;
    q.capsule.segment.a = copse_v3(-6, 2, 3);
    q.capsule.segment.b = copse_v3(-4, 4, 3);
    q.capsule.radius = 0.5f;
    q.pose = copse_pose_identity();
    q.motion = copse_v3(0, 0, -5);
    set_expect(&e, 0.5, 1, false, 0, 0, 1);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "capsule dropping");
    /* moving toward the floor's rim edge-on, in its plane: the leading point meets x = 10 at t = 0.5 */
    sphere_q(&q, 12, 0.5f, 0, 1, -2, 0, 0);
    set_expect(&e, 0.5, 0, false, 1, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "sphere to the rim");
    /* huge motion: from a million up, t = (1e6 - 1) / 2e6 */
    sphere_q(&q, 0.5f, -0.5f, 1e6f, 1, 0, 0, -2e6f);
    set_expect(&e, (1e6 - 1.0) / 2e6, 0, false, 0, 0, 1);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "huge motion");
    /* the motion ends just short of the floor: a miss by 1e-3 of the scale (the scale here is 10) */
    sphere_q(&q, 0.5f, -0.5f, 5, 1, 0, 0, -3.99f);
    set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "ends short");
    /* beside the floor's rim by 1e-3 of the scale, passing it */
    sphere_q(&q, 11.01f, 0, 5, 1, 0, 0, -10);
    set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "near miss at the rim");
    /* grazing the rim: the sphere's side passes the edge x = 10 at exactly its radius */
    sphere_q(&q, 11, 0, 5, 1, 0, 0, -10);
    set_expect(&e, 0.5, COPSE_NONE, false, 1, 0, 0);
    check_case(&pr, &q, &mt.bvh, NULL, &e, "grazing the rim");

    { /* points: a copy of a point under a lower id wins; grazing and a near miss */
        static const copse_vec3 pts[4] = {{0, 0, 0}, {3, 3, 3}, {0, 0, 0}, {-3, 2, 1}};
        uint32_t *ids = ot_make_ids(4);
        ot_point_tree pt;
        uint32_t low;
        tk_context("points");
        if (ids == NULL || !ot_point_build(&pt, pts, ids, 4, 4, 1, 1, COPSE_OCTREE_MAX_DEPTH, 0, 0))
            return;
        prims_init(&pr, NULL, pts, ids, 4);
        low = ids[0] < ids[2] ? ids[0] : ids[2];
        sphere_q(&q, 0, 0, 5, 1, 0, 0, -10);
        set_expect(&e, 0.4, low, false, 0, 0, 1);
        check_case(&pr, &q, NULL, &pt.tree, &e, "point copies");
        sphere_q(&q, -5, 1, 0, 1, 10, 0, 0);
        set_expect(&e, 0.5, low, false, 0, 1, 0);
        check_case(&pr, &q, NULL, &pt.tree, &e, "grazing a point");
        sphere_q(&q, -5, 1.01f, 0, 1, 10, 0, 0);
        set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
        check_case(&pr, &q, NULL, &pt.tree, &e, "near miss of a point");
        box_q(&q, 0, 0, 0, 0.5f, 3, 3, 3);
        set_expect(&e, 0.0, low, true, 0, 0, 0);
        check_case(&pr, &q, NULL, &pt.tree, &e, "box around a point");
        box_q(&q, 3, 3, 0, 1, 0, 0, 4);
        set_expect(&e, 0.5, ids[1], false, 0, 0, -1);
        check_case(&pr, &q, NULL, &pt.tree, &e, "box face onto a point");
        /* nothing to hit: an empty tree */
        if (ot_point_build(&pt, pts, ids, 4, 0, 1, 1, COPSE_OCTREE_MAX_DEPTH, 0, 0)) {
            unsigned kind;
            prims_init(&pr, NULL, pts, ids, 0);
            for (kind = 0; kind < S_KINDS; kind++) {
                valid_sq(&q, (s_kind)kind);
                q.motion = copse_v3(1e3f, -2e3f, 5e2f);
                set_expect(&e, -1.0, COPSE_NONE, false, 0, 0, 0);
                check_case(&pr, &q, NULL, &pt.tree, &e, "empty octree");
            }
        }
    }
    tk_tally_end();
}

/* ---- bad input --------------------------------------------------------------------------------------- */

static bool swept_nothing(const copse_sweep_hit *h)
{
    return h->id == COPSE_NONE && !h->started_in_contact && h->t == 1.0f;
}

static void expect_sweep(const sq *q, const copse_bvh *bvh, const copse_octree *oct, copse_status want,
                         const char *what)
{
    copse_sweep_hit h;
    copse_status st;
    memset(&h, 0x5a, sizeof h);
    st = bvh != NULL || oct == NULL ? sq_bvh(q, bvh, &h) : sq_octree(q, oct, &h);
    CHECKF(st == want && (want == COPSE_OK || swept_nothing(&h)), "%s %s: %s (t=%.9g id %u), expected %s",
           k_kind_names[q->kind], what, copse_status_str(st), (double)h.t, (unsigned)h.id, copse_status_str(want));
}

static void valid_sq(sq *q, s_kind kind)
{
    if (kind == S_SPHERE) {
        sphere_q(q, 0.25f, 0.25f, 1, 0.5f, 0, 0, -2);
    } else if (kind == S_OBB) {
        box_q(q, 0.25f, 0.25f, 1, 0.25f, 0, 0, -2);
    } else {
        memset(q, 0, sizeof *q);
        q->kind = S_CAPSULE;
        q->capsule.segment.a = copse_v3(0.25f, 0.25f, 1);
        q->capsule.segment.b = copse_v3(0.25f, 0.25f, 2);
        q->capsule.radius = 0.5f;
        q->pose = copse_pose_identity();
        q->motion = copse_v3(0, 0, -2);
    }
}

static void test_errors(void)
{
    static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 2, 2}, {3, 3, 3}}};
    static const copse_vec3 pts[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    copse_mesh mesh;
    copse_bvh good, flat, box;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena arena;
    void *mem;
    ot_point_tree pt;
    copse_octree zero;
    unsigned kind, t;
    size_t bytes = copse_bvh_build_bytes(1, 3, &params) + copse_bvh_build_bytes(1, 2, &params) +
                   copse_bvh_build_bytes(2, 3, &params);
    tk_pool_reset();
    tk_context("errors");
    mem = tk_alloc(bytes);
    if (mem == NULL || !ot_point_build(&pt, pts, NULL, 3, 3, 1, 1, COPSE_OCTREE_MAX_DEPTH, 0, 0))
        return;
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = tri;
    mesh.vertex_count = 3;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.triangle_count = 1;
    copse_arena_init(&arena, mem, bytes);
    CHECK_STATUS(copse_bvh_build_mesh(&good, &arena, &mesh, &params), COPSE_OK);
    params.projection = COPSE_BVH_PROJECT_XY;
    CHECK_STATUS(copse_bvh_build_mesh(&flat, &arena, &mesh, &params), COPSE_OK);
    params.projection = COPSE_BVH_PROJECT_NONE;
    CHECK_STATUS(copse_bvh_build_boxes3(&box, &arena, boxes, NULL, 2, &params), COPSE_OK);
    memset(&zero, 0, sizeof zero);
    for (kind = 0; kind < S_KINDS; kind++) {
        for (t = 0; t < 2u; t++) { /* against the mesh, then the points */
            const copse_bvh *b = t == 0u ? &good : NULL;
            const copse_octree *o = t == 0u ? NULL : &pt.tree;
            sq q;
            valid_sq(&q, (s_kind)kind);
            expect_sweep(&q, b, o, COPSE_OK, "valid");
            q.motion.y = NAN;
            expect_sweep(&q, b, o, COPSE_ERR_NONFINITE, "NaN motion");
            q.motion.y = INFINITY;
            expect_sweep(&q, b, o, COPSE_ERR_NONFINITE, "infinite motion");
            q.motion.y = 0;
            q.posed = true;
            q.pose.rotation[0][0] = 2.0f;
            expect_sweep(&q, b, o, COPSE_ERR_PARAM, "scaled pose");
            q.pose = copse_pose_identity();
            q.pose.rotation[0][0] = -1.0f;
            expect_sweep(&q, b, o, COPSE_ERR_PARAM, "mirror pose");
            q.pose = copse_pose_translation(copse_v3(0, -INFINITY, 0));
            expect_sweep(&q, b, o, COPSE_ERR_NONFINITE, "infinite pose");
            q.pose = copse_pose_identity();
            q.posed = false;
            if (kind == S_SPHERE) {
                q.sphere.radius = -1.0f;
                expect_sweep(&q, b, o, COPSE_ERR_EMPTY_RANGE, "negative radius");
                q.sphere.radius = 0.5f;
                q.sphere.center.z = NAN;
                expect_sweep(&q, b, o, COPSE_ERR_NONFINITE, "NaN centre");
            } else if (kind == S_CAPSULE) {
                q.capsule.radius = -1.0f;
                expect_sweep(&q, b, o, COPSE_ERR_EMPTY_RANGE, "negative radius");
                q.capsule.radius = 0.5f;
                q.capsule.segment.b.x = NAN;
                expect_sweep(&q, b, o, COPSE_ERR_NONFINITE, "NaN end");
            } else {
                q.obb.half.z = -1.0f;
                expect_sweep(&q, b, o, COPSE_ERR_EMPTY_RANGE, "negative half extent");
                q.obb.half.z = 0.25f;
                q.obb.rotation[0][1] = 0.5f;
                expect_sweep(&q, b, o, COPSE_ERR_PARAM, "sheared box");
            }
            if (t == 0u) {
                valid_sq(&q, (s_kind)kind);
                expect_sweep(&q, &flat, NULL, COPSE_ERR_DIMENSION, "2D tree");
                expect_sweep(&q, &box, NULL, COPSE_ERR_KIND, "box tree");
                expect_sweep(&q, NULL, NULL, COPSE_ERR_NULL, "NULL tree");
                CHECK_STATUS(sq_bvh(&q, &good, NULL), COPSE_ERR_NULL);
            } else {
                CHECK_STATUS(sq_octree(&q, &pt.tree, NULL), COPSE_ERR_NULL);
                CHECK_STATUS(sq_octree(&q, NULL, NULL), COPSE_ERR_NULL);
                {
                    copse_sweep_hit h;
                    memset(&h, 0x5a, sizeof h);
                    valid_sq(&q, (s_kind)kind);
                    CHECKF(sq_octree(&q, &zero, &h) == COPSE_OK && swept_nothing(&h), "%s against a zeroed tree",
                           k_kind_names[kind]);
                }
            }
        }
    }
    {
        copse_sweep_hit h;
        CHECK_STATUS(copse_sweep_sphere_bvh(NULL, NULL, copse_v3(0, 0, 1), &good, &h), COPSE_ERR_NULL);
        CHECK_STATUS(copse_sweep_capsule_bvh(NULL, NULL, copse_v3(0, 0, 1), &good, &h), COPSE_ERR_NULL);
        CHECK_STATUS(copse_sweep_obb_bvh(NULL, NULL, copse_v3(0, 0, 1), &good, &h), COPSE_ERR_NULL);
        CHECK_STATUS(copse_sweep_sphere_octree(NULL, NULL, copse_v3(0, 0, 1), &pt.tree, &h), COPSE_ERR_NULL);
        CHECK_STATUS(copse_sweep_capsule_octree(NULL, NULL, copse_v3(0, 0, 1), &pt.tree, &h), COPSE_ERR_NULL);
        CHECK_STATUS(copse_sweep_obb_octree(NULL, NULL, copse_v3(0, 0, 1), &pt.tree, &h), COPSE_ERR_NULL);
    }
}

void suite_collide_sweep(void)
{
    g_worst_gap = 0.0;
    g_worst_early = 0.0;
    g_described = 0;
    g_hits = g_misses = g_started = 0;
    g_worst_tilt = 0.0;
    test_run("collide_sweep/oracle", test_oracle);
    test_run("collide_sweep/bvh_random", test_bvh_random);
    test_run("collide_sweep/octree_random", test_octree_random);
    test_run("collide_sweep/cases", test_cases);
    test_run("collide_sweep/errors", test_errors);
    tk_tally_report("collide_sweep");
    copse_port_printf("info collide_sweep: %lu hits, %lu started in contact, %lu misses judged; normals leaned at most "
                      "%.3g radians past separating\n", g_hits, g_started, g_misses, g_worst_tilt);
    copse_port_printf("info collide_sweep: worst gap at the reported t %.3g of the scale, worst lead on the exact "
                      "contact %.3g of the scale (COPSE_SWEEP_TOLERANCE %g)\n",
                      g_worst_gap, g_worst_early, (double)COPSE_SWEEP_TOLERANCE);
}

/* SPDX-License-Identifier: MIT */
/*
 * Posed shapes against a BVH over a triangle mesh (copse/collide.h, the BVH section): every
 * any / overlap / visit / distance function against the double-precision oracle
 * (oracle/oracle_collide.h), never against copse's own kernels.
 *
 * Scenes: the BVH kit's random meshes (16-bit, 32-bit strided and no indices; duplicate,
 * coincident and degenerate triangles), sizes 0, 1, 2, leaf-1, leaf, leaf+1 for leaves 1, 4, 7
 * and one large size from test memory, each under SAH and median trees. Queries: random shapes
 * of every kind and size (degenerate, grazing, deep, far) at random poses (NULL, the identity,
 * exact axis permutations, random rotations, shifts, far translations that cancel large local
 * coordinates), and shapes built to touch one triangle. One oracle answer is judged against
 * every tree.
 *
 * Rules: overlap sets are the oracle's except triangles within the boundary band (counted with
 * the kit's tally; too many fail the test). A triangle at an exact pose has no band: the contract
 * promises exact orientation tests on the float coordinates. Distances agree within
 * DIST_K * FLT_EPSILON * M (M: the largest coordinate magnitude involved), the reported triangle
 * is at that distance, the points lie on their primitives and are that far apart.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "oracle/oracle_collide.h"
#include "suites.h"
#include "test_bvh.h"

#define DIST_K 64.0 /* distance tolerance, in FLT_EPSILON of the largest magnitude involved */
#define BAND_K 8.0         /* overlap boundary band, likewise */
#define CONVEX_BAND_K 16.0 /* convex sets (GJK) */

static const copse_bvh_split k_splits[2] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN};
static const uint32_t k_leaves[3] = {1, 4, 7};
#define TREES_PER_SCENE 6u

static bool big_machine(void)
{
    return test_memory_bytes() >= ((size_t)32u << 20);
}

static double dmx(double a, double b)
{
    return a > b ? a : b;
}

static double dab(double a)
{
    return a < 0.0 ? -a : a;
}

static double scale_of(const tk_scene *sc)
{
    return sc->diag > 0.0 ? sc->diag : 1.0 + 1e-3 * sc->mag;
}

static double rnd(test_rng *rng, double lo, double hi)
{
    return (double)test_rng_float(rng, (float)lo, (float)hi);
}

static void random_unit(test_rng *rng, double *u)
{
    double l;
    int k;
    do {
        for (k = 0; k < 3; k++)
            u[k] = rnd(rng, -1.0, 1.0);
        l = orc_len(u);
    } while (l < 0.1 || l > 1.0);
    for (k = 0; k < 3; k++)
        u[k] /= l;
}

static void vd(double *out, copse_vec3 v)
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

/* ---- run records ------------------------------------------------------------------------------ */

static double g_worst_k[5];  /* per kind: the largest |d - d_oracle| / (FLT_EPSILON * M) seen */
static double g_worst_k_huge[5]; /* the same in the test at 1e6 */
static bool g_in_huge;
static unsigned long g_dist_checks, g_must;
static unsigned g_described; /* failing queries printed in this test */
static unsigned g_query;

/* Excusals are counted per query (one oracle answer), not per tree judged against it: a
 * comparison is "any" or "the set", excused when some tree needed the band. */
static bool g_ex_any, g_ex_set, g_has_set;

static void tally(bool excused, bool edge)
{
    tk_tally_now.comparisons++;
    if (excused && edge)
        tk_tally_now.edge_excused++;
    else if (excused)
        tk_tally_now.excused++;
}

/* ---- queries -------------------------------------------------------------------------------- */

typedef enum pose_kind { POSE_NULL, POSE_IDENTITY, POSE_PERM, POSE_RANDOM, POSE_SHIFT, POSE_FAR } pose_kind;

static const char *const k_kind_names[] = {"sphere", "capsule", "obb", "triangle", "convex"};
static const char *const k_pose_names[] = {"NULL", "identity", "axis-perm", "random", "shift", "far"};

typedef struct cq {
    orcc_kind kind;
    pose_kind pk;
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    copse_triangle tri;
    copse_vec3 pts[ORCC_HULL_MAX];
    copse_convex convex;
    copse_pose pose_f;
    const copse_pose *pose;
    orcc_pose pose_d; /* the float pose, read in double */
    bool edge;        /* built on a boundary on purpose: its excusals are expected */
    bool null_shape;  /* pass NULL for the shape (bad input) */
    double local_mag; /* the largest magnitude among the shape's own floats */
} cq;

static bool is_ball(const cq *q)
{
    return q->kind == ORCC_SPHERE || q->kind == ORCC_CAPSULE;
}

static bool pose_exact(const cq *q)
{
    return q->pk == POSE_NULL || q->pk == POSE_IDENTITY || q->pk == POSE_PERM;
}

static void rotation_random(test_rng *rng, orcc_pose *p)
{
    double q[4], n2, t[3] = {0.0, 0.0, 0.0};
    int k;
    do {
        for (k = 0; k < 4; k++)
            q[k] = rnd(rng, -1.0, 1.0);
        n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 < 1e-3 || n2 > 1.0);
    orcc_pose_from_quat(p, q, t);
}

static void rotation_perm(test_rng *rng, orcc_pose *p)
{
    unsigned perm = test_rng_below(rng, 6);
    orcc_pose_axes(p, perm, test_rng_below(rng, 8));
}

static void set_pose(cq *q, const orcc_pose *p, pose_kind pk)
{
    q->pk = pk;
    if (pk == POSE_NULL) {
        q->pose = NULL;
        orcc_pose_identity(&q->pose_d);
        return;
    }
    orcc_pose_to_float(&q->pose_f, p);
    q->pose = &q->pose_f;
    orcc_pose_of(&q->pose_d, q->pose);
}

static void make_pose(cq *q, test_rng *rng, double s, pose_kind pk)
{
    orcc_pose p;
    int k;
    orcc_pose_identity(&p);
    if (pk == POSE_PERM)
        rotation_perm(rng, &p);
    else if (pk == POSE_RANDOM || pk == POSE_FAR)
        rotation_random(rng, &p);
    if (pk == POSE_RANDOM || pk == POSE_SHIFT)
        for (k = 0; k < 3; k++)
            p.t[k] = rnd(rng, -s, s);
    if (pk == POSE_FAR)
        for (k = 0; k < 3; k++)
            p.t[k] = rnd(rng, -20.0 * s, 20.0 * s);
    set_pose(q, &p, pk);
}

static pose_kind random_pose_kind(test_rng *rng)
{
    static const pose_kind kinds[10] = {POSE_NULL,   POSE_IDENTITY, POSE_PERM,  POSE_RANDOM, POSE_RANDOM,
                                        POSE_RANDOM, POSE_RANDOM,   POSE_SHIFT, POSE_FAR,    POSE_PERM};
    return kinds[test_rng_below(rng, 10)];
}

/* A point of the tree's frame as the shape's own float coordinates. */
static copse_vec3 to_local(const cq *q, const double *w)
{
    orcc_pose inv;
    double l[3];
    orcc_pose_invert(&inv, &q->pose_d);
    orcc_pose_apply(&inv, w, l);
    return copse_v3((float)l[0], (float)l[1], (float)l[2]);
}

/* A rotation of the tree's frame (columns: axes) as the box's own rotation under the pose. */
static void local_rotation(const cq *q, const orcc_pose *w, float (*out)[3])
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out[i][j] = (float)(q->pose_d.r[0][i] * w->r[0][j] + q->pose_d.r[1][i] * w->r[1][j] +
                                q->pose_d.r[2][i] * w->r[2][j]);
}

static double mag_v(copse_vec3 v)
{
    double d[3];
    vd(d, v);
    return orc_max_abs(d);
}

static void finish_query(cq *q, unsigned npts)
{
    double m = 0.0;
    unsigned i;
    q->convex.points = q->pts;
    q->convex.count = npts;
    switch (q->kind) {
    case ORCC_SPHERE:
        m = mag_v(q->sphere.center) + (double)q->sphere.radius;
        break;
    case ORCC_CAPSULE:
        m = dmx(mag_v(q->capsule.segment.a), mag_v(q->capsule.segment.b)) + (double)q->capsule.radius;
        break;
    case ORCC_OBB:
        m = mag_v(q->obb.center) + mag_v(q->obb.half) * 3.0;
        break;
    case ORCC_TRIANGLE:
        m = dmx(mag_v(q->tri.a), dmx(mag_v(q->tri.b), mag_v(q->tri.c)));
        break;
    case ORCC_HULL:
        for (i = 0; i < npts; i++)
            m = dmx(m, mag_v(q->pts[i]));
        break;
    }
    q->local_mag = m;
}

/* A random shape of the query's kind around `target` (tree frame), of about `size`; class 0
 * makes it degenerate. The pose is already set. */
static void build_shape(cq *q, const double *target, double size, unsigned cls, unsigned hull_max, test_rng *rng)
{
    double w[3], u[3];
    unsigned npts = 0, i;
    int k;
    switch (q->kind) {
    case ORCC_SPHERE:
        q->sphere.center = to_local(q, target);
        q->sphere.radius = (cls == 0 || test_rng_below(rng, 8) == 0) ? 0.0f : (float)rnd(rng, 0.0, size);
        break;
    case ORCC_CAPSULE: {
        double len = cls == 0 ? 0.0 : rnd(rng, 0.0, 2.0 * size);
        random_unit(rng, u);
        for (k = 0; k < 3; k++)
            w[k] = target[k] + 0.5 * len * u[k];
        q->capsule.segment.a = to_local(q, w);
        for (k = 0; k < 3; k++)
            w[k] = target[k] - 0.5 * len * u[k];
        q->capsule.segment.b = cls == 0 ? q->capsule.segment.a : to_local(q, w);
        q->capsule.radius = test_rng_below(rng, 8) == 0 ? 0.0f : (float)rnd(rng, 0.0, size);
        break;
    }
    case ORCC_OBB: {
        orcc_pose r;
        double h[3];
        uint32_t how = test_rng_below(rng, 4);
        if (how == 0)
            orcc_pose_identity(&r);
        else if (how == 1)
            rotation_perm(rng, &r);
        else
            rotation_random(rng, &r);
        for (k = 0; k < 3; k++)
            h[k] = rnd(rng, 0.0, size);
        if (cls == 0) { /* a rectangle, a segment or a point */
            uint32_t zeros = 1u + test_rng_below(rng, 3), first = test_rng_below(rng, 3);
            for (i = 0; i < zeros; i++)
                h[(first + i) % 3u] = 0.0;
        }
        q->obb.center = to_local(q, target);
        q->obb.half = copse_v3((float)h[0], (float)h[1], (float)h[2]);
        local_rotation(q, &r, q->obb.rotation);
        break;
    }
    case ORCC_TRIANGLE: {
        copse_vec3 c[3];
        for (i = 0; i < 3; i++) {
            for (k = 0; k < 3; k++)
                w[k] = target[k] + rnd(rng, -size, size);
            c[i] = to_local(q, w);
        }
        if (cls == 0) { /* a segment (two corners shared) or a point */
            uint32_t how = test_rng_below(rng, 3);
            if (how == 0)
                c[2] = c[1];
            else if (how == 1)
                c[1] = c[0];
            else
                c[1] = c[2] = c[0];
        }
        q->tri.a = c[0];
        q->tri.b = c[1];
        q->tri.c = c[2];
        break;
    }
    case ORCC_HULL: {
        uint32_t how = test_rng_below(rng, 6);
        double plane[3];
        npts = cls == 0 ? 1u + test_rng_below(rng, 2) : 3u + test_rng_below(rng, hull_max - 2u);
        random_unit(rng, plane);
        for (i = 0; i < npts; i++) {
            for (k = 0; k < 3; k++)
                u[k] = rnd(rng, -size, size);
            if (how == 0) { /* flat: in a plane through the target */
                double d = orc_dot(u, plane);
                for (k = 0; k < 3; k++)
                    u[k] -= d * plane[k];
            }
            for (k = 0; k < 3; k++)
                w[k] = target[k] + u[k];
            q->pts[i] = to_local(q, w);
            if (how == 1 && i > 0 && test_rng_below(rng, 3) == 0)
                q->pts[i] = q->pts[test_rng_below(rng, i)]; /* repeated points */
        }
        break;
    }
    }
    finish_query(q, npts);
}

static void oracle_shape(const cq *q, orcc_shape *s);

/* Where a random query goes: a point of a triangle, a corner, or around the scene. True when it
 * is on a triangle. */
static bool random_target(const tk_scene *sc, test_rng *rng, double *target)
{
    const double s = scale_of(sc);
    uint32_t pick = test_rng_below(rng, 8);
    double grow = pick == 3 ? 1.0 : 0.2;
    int k;
    if (sc->n > 0 && pick < 3) {
        tk_prim g;
        double u = rnd(rng, 0.0, 1.0), v = rnd(rng, 0.0, 1.0);
        tk_get_prim(sc, test_rng_below(rng, sc->n), &g);
        if (pick == 2) {
            u = (double)test_rng_below(rng, 2);
            v = u > 0.0 ? 0.0 : (double)test_rng_below(rng, 2);
        } else if (u + v > 1.0) {
            u = 1.0 - u;
            v = 1.0 - v;
        }
        for (k = 0; k < 3; k++)
            target[k] = (double)(float)(g.v[0][k] + u * (g.v[1][k] - g.v[0][k]) + v * (g.v[2][k] - g.v[0][k]));
        return true;
    }
    for (k = 0; k < 3; k++)
        target[k] = rnd(rng, sc->lo[k] - grow * s, sc->hi[k] + grow * s);
    return false;
}

/* A shape of no extent: a point (a zero sphere, a point box, ...). */
static bool point_like(const orcc_shape *s)
{
    unsigned i;
    if (s->radius > 0.0 || s->half[0] > 0.0 || s->half[1] > 0.0 || s->half[2] > 0.0)
        return false;
    for (i = 1; i < s->n; i++)
        if (s->p[i][0] != s->p[0][0] || s->p[i][1] != s->p[0][1] || s->p[i][2] != s->p[0][2])
            return false;
    return true;
}

static void make_random_query(cq *q, orcc_kind kind, const tk_scene *sc, unsigned hull_max, test_rng *rng)
{
    const double s = scale_of(sc);
    unsigned cls = test_rng_below(rng, 8);
    double target[3], size;
    bool on_prim;
    int k;
    memset(q, 0, sizeof *q);
    q->kind = kind;
    on_prim = random_target(sc, rng, target);
    size = cls <= 3 ? 0.05 * s : cls <= 5 ? 0.2 * s : cls == 6 ? 0.6 * s : rnd(rng, 0.05 * s, 0.2 * s);
    if (cls == 7) { /* far from the mesh */
        double u[3];
        random_unit(rng, u);
        for (k = 0; k < 3; k++)
            target[k] += 1.5 * s * u[k];
    }
    make_pose(q, rng, s, random_pose_kind(rng));
    build_shape(q, target, size, cls, hull_max, rng);
    if (on_prim && cls != 7) { /* a point on a triangle is on its boundary */
        size_t mark = tk_mark();
        orcc_shape *sh = (orcc_shape *)tk_alloc(sizeof(orcc_shape));
        if (sh != NULL) {
            oracle_shape(q, sh);
            q->edge = point_like(sh);
        }
        tk_rewind(mark);
    }
}

/* ---- calls ------------------------------------------------------------------------------------ */

static copse_status cq_any(const copse_bvh *b, const cq *q, uint32_t *id)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_bvh_any_sphere(b, q->null_shape ? NULL : &q->sphere, q->pose, id);
    case ORCC_CAPSULE:
        return copse_bvh_any_capsule(b, q->null_shape ? NULL : &q->capsule, q->pose, id);
    case ORCC_OBB:
        return copse_bvh_any_obb(b, q->null_shape ? NULL : &q->obb, q->pose, id);
    case ORCC_TRIANGLE:
        return copse_bvh_any_triangle(b, q->null_shape ? NULL : &q->tri, q->pose, id);
    case ORCC_HULL:
        return copse_bvh_any_convex(b, q->null_shape ? NULL : &q->convex, q->pose, id);
    }
    return COPSE_ERR_PARAM;
}

/* Spheres have no pose-taking overlap form (bvh.h's copse_bvh_overlap_sphere is the one). */
static bool has_lists(const cq *q)
{
    return q->kind != ORCC_SPHERE;
}

static copse_status cq_overlap(const copse_bvh *b, const cq *q, copse_id_list *out)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return COPSE_ERR_PARAM;
    case ORCC_CAPSULE:
        return copse_bvh_overlap_capsule(b, q->null_shape ? NULL : &q->capsule, q->pose, out);
    case ORCC_OBB:
        return copse_bvh_overlap_obb(b, q->null_shape ? NULL : &q->obb, q->pose, out);
    case ORCC_TRIANGLE:
        return copse_bvh_overlap_triangle(b, q->null_shape ? NULL : &q->tri, q->pose, out);
    case ORCC_HULL:
        return copse_bvh_overlap_convex(b, q->null_shape ? NULL : &q->convex, q->pose, out);
    }
    return COPSE_ERR_PARAM;
}

static copse_status cq_visit(const copse_bvh *b, const cq *q, copse_id_visitor visit, void *user)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return COPSE_ERR_PARAM;
    case ORCC_CAPSULE:
        return copse_bvh_visit_capsule(b, q->null_shape ? NULL : &q->capsule, q->pose, visit, user);
    case ORCC_OBB:
        return copse_bvh_visit_obb(b, q->null_shape ? NULL : &q->obb, q->pose, visit, user);
    case ORCC_TRIANGLE:
        return copse_bvh_visit_triangle(b, q->null_shape ? NULL : &q->tri, q->pose, visit, user);
    case ORCC_HULL:
        return copse_bvh_visit_convex(b, q->null_shape ? NULL : &q->convex, q->pose, visit, user);
    }
    return COPSE_ERR_PARAM;
}

static copse_status cq_distance(const copse_bvh *b, const cq *q, const copse_distance_query *dq, copse_distance *out)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        return copse_distance_sphere_bvh(q->null_shape ? NULL : &q->sphere, q->pose, b, dq, out);
    case ORCC_CAPSULE:
        return copse_distance_capsule_bvh(q->null_shape ? NULL : &q->capsule, q->pose, b, dq, out);
    case ORCC_OBB:
        return copse_distance_obb_bvh(q->null_shape ? NULL : &q->obb, q->pose, b, dq, out);
    case ORCC_TRIANGLE:
        return copse_distance_triangle_bvh(q->null_shape ? NULL : &q->tri, q->pose, b, dq, out);
    case ORCC_HULL:
        return copse_distance_convex_bvh(q->null_shape ? NULL : &q->convex, q->pose, b, dq, out);
    }
    return COPSE_ERR_PARAM;
}

static void print_v(const char *name, copse_vec3 v)
{
    copse_port_printf(" %s=(%.9g, %.9g, %.9g)", name, (double)v.x, (double)v.y, (double)v.z);
}

/* After a failed check: the query, exactly, so that it can be replayed. */
static void describe(const cq *q)
{
    unsigned i;
    if (g_described++ >= 4u)
        return;
    copse_port_printf("    %s, pose %s", k_kind_names[q->kind], k_pose_names[q->pk]);
    if (q->pose != NULL) {
        copse_port_printf(" R=[");
        for (i = 0; i < 9; i++)
            copse_port_printf("%s%.9g", i == 0 ? "" : ", ", (double)q->pose->rotation[i / 3][i % 3]);
        copse_port_printf("]");
        print_v("t", q->pose->translation);
    }
    copse_port_printf("\n     ");
    switch (q->kind) {
    case ORCC_SPHERE:
        print_v("c", q->sphere.center);
        copse_port_printf(" r=%.9g", (double)q->sphere.radius);
        break;
    case ORCC_CAPSULE:
        print_v("a", q->capsule.segment.a);
        print_v("b", q->capsule.segment.b);
        copse_port_printf(" r=%.9g", (double)q->capsule.radius);
        break;
    case ORCC_OBB:
        print_v("c", q->obb.center);
        print_v("half", q->obb.half);
        copse_port_printf(" R=[");
        for (i = 0; i < 9; i++)
            copse_port_printf("%s%.9g", i == 0 ? "" : ", ", (double)q->obb.rotation[i / 3][i % 3]);
        copse_port_printf("]");
        break;
    case ORCC_TRIANGLE:
        print_v("a", q->tri.a);
        print_v("b", q->tri.b);
        print_v("c", q->tri.c);
        break;
    case ORCC_HULL:
        for (i = 0; i < q->convex.count; i++)
            print_v("p", q->pts[i]);
        break;
    }
    copse_port_printf("\n");
}

/* ---- the oracle's answer -------------------------------------------------------------------- */

/* One triangle's contact, kept for the judges (points in float: they only give directions). */
typedef struct contact {
    double core; /* the contact's core distance (other shapes: the distance) */
    float tri_point[3], shape_point[3];
} contact;

typedef struct answer {
    orcc_shape shape;
    uint8_t *verdict; /* per triangle */
    contact *c;       /* per triangle */
    orcc_nearest near;
    double M, band, tol;
    double dstar; /* the smallest distance (spheres, capsules: minus the radius, at least 0); -1: none */
    double s;     /* the scene's scale */
} answer;

static void oracle_shape(const cq *q, orcc_shape *s)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        orcc_make_sphere(s, &q->sphere, q->pose);
        break;
    case ORCC_CAPSULE:
        orcc_make_capsule(s, &q->capsule, q->pose);
        break;
    case ORCC_OBB:
        orcc_make_obb(s, &q->obb, q->pose);
        break;
    case ORCC_TRIANGLE:
        orcc_make_triangle(s, &q->tri, q->pose);
        break;
    case ORCC_HULL:
        (void)orcc_make_convex(s, &q->convex, q->pose);
        break;
    }
}

static double band_for(const cq *q, double M)
{
    if (q->kind == ORCC_TRIANGLE && pose_exact(q))
        return 0.0;
    return (q->kind == ORCC_HULL ? CONVEX_BAND_K : BAND_K) * ORC_FLT_EPS * M;
}

static answer *answer_make(const tk_scene *sc, const cq *q)
{
    answer *a = (answer *)tk_alloc(sizeof(answer));
    uint32_t t;
    if (a == NULL)
        return NULL;
    a->verdict = (uint8_t *)tk_alloc((size_t)sc->n + 1u);
    a->c = (contact *)tk_alloc(((size_t)sc->n + 1u) * sizeof(contact));
    if (a->verdict == NULL || a->c == NULL)
        return NULL;
    oracle_shape(q, &a->shape);
    a->M = dmx(dmx(sc->mag, a->shape.mag), dmx(q->local_mag, orcc_pose_reach(&q->pose_d, q->local_mag)));
    a->band = band_for(q, a->M);
    a->tol = DIST_K * ORC_FLT_EPS * a->M;
    a->s = scale_of(sc);
    a->near.tree_id = a->near.shape_id = COPSE_NONE;
    for (t = 0; t < sc->n; t++) {
        orcc_contact c;
        tk_prim g;
        unsigned k;
        tk_get_prim(sc, t, &g);
        a->verdict[t] = (uint8_t)orcc_shape_triangle(&a->shape, (const double(*)[3])g.v, a->band, &c);
        a->c[t].core = c.core;
        for (k = 0; k < 3; k++) {
            a->c[t].tri_point[k] = (float)c.tri_point[k];
            a->c[t].shape_point[k] = (float)c.shape_point[k];
        }
        if (a->near.tree_id == COPSE_NONE || c.core < a->near.c.core) {
            a->near.tree_id = t;
            a->near.c = c;
        }
    }
    if (a->near.tree_id == COPSE_NONE)
        a->dstar = -1.0;
    else if (is_ball(q))
        a->dstar = dmx(0.0, a->near.c.core - a->shape.radius);
    else
        a->dstar = a->near.c.distance;
    return a;
}

static const char *tag(const tk_tree *tree)
{
    static char buf[112];
    copse_port_snprintf(buf, sizeof buf, "%s [%s/%u] q%u", tk_ctx(), tk_split_name(tree->params.split),
                        (unsigned)tree->params.leaf_size, g_query);
    return buf;
}

/* ---- judges: sets ----------------------------------------------------------------------------- */

typedef struct id_sink {
    uint32_t *ids;
    uint32_t cap, count, stop_after;
} id_sink;

static bool sink_id(void *user, uint32_t id)
{
    id_sink *s = (id_sink *)user;
    if (s->count < s->cap)
        s->ids[s->count] = id;
    s->count++;
    return s->count < s->stop_after;
}

/* any: a witness the oracle accepts, or none when nothing clearly overlaps. */
static bool judge_any(const tk_scene *sc, const tk_tree *tree, const cq *q, const answer *a, uint32_t *any_id)
{
    const uint32_t n = sc->n;
    uint32_t i, yes = COPSE_NONE;
    bool ok = true, edge_yes = false, excused = false;
    copse_status st;
    *any_id = 0x12345u;
    st = cq_any(&tree->bvh, q, any_id);
    ok &= CHECKF(st == COPSE_OK && (*any_id == COPSE_NONE || *any_id < n), "%s: any_%s: %s, id %u", tag(tree),
                 k_kind_names[q->kind], copse_status_str(st), (unsigned)*any_id);
    for (i = 0; i < n; i++) {
        if (a->verdict[i] == ORC_YES && yes == COPSE_NONE)
            yes = i;
        edge_yes |= a->verdict[i] == ORC_EDGE_YES;
    }
    if (*any_id == COPSE_NONE) {
        ok &= CHECKF(yes == COPSE_NONE, "%s: any_%s found nothing, but triangle %u overlaps (oracle)", tag(tree),
                     k_kind_names[q->kind], (unsigned)yes);
        excused = edge_yes;
    } else if (*any_id < n) {
        ok &= CHECKF(a->verdict[*any_id] != ORC_NO, "%s: any_%s: witness %u is %.9g away (oracle)", tag(tree),
                     k_kind_names[q->kind], (unsigned)*any_id, a->c[*any_id].core);
        excused = a->verdict[*any_id] == ORC_EDGE_NO;
    }
    g_ex_any |= excused;
    return ok;
}

static void judge_sets(const tk_scene *sc, const tk_tree *tree, const cq *q, const answer *a, test_rng *rng)
{
    const copse_bvh *bvh = &tree->bvh;
    const uint32_t n = sc->n;
    const char *kn = k_kind_names[q->kind];
    size_t mark = tk_mark();
    uint32_t *ids = (uint32_t *)tk_alloc(((size_t)n + 1u) * 4u), *buf = (uint32_t *)tk_alloc(((size_t)n + 1u) * 4u);
    uint8_t *seen = (uint8_t *)tk_alloc((size_t)n + 1u);
    uint32_t i, any_id, wrong = 0, wrong_id = 0, bad = 0, caps[3], c;
    bool ok = true, excused = false;
    copse_id_list list;
    copse_status st;
    id_sink s;
    if (ids == NULL || buf == NULL || seen == NULL)
        goto done;
    ok &= judge_any(sc, tree, q, a, &any_id);
    memset(seen, 0, (size_t)n + 1u);
    if (!has_lists(q)) {
        /* without a pose, bvh.h's sphere query answers the same question (both may differ on
         * triangles within the band) */
        if (q->pose == NULL) {
            bool fragile = false;
            list = copse_id_list_make(ids, n + 1u);
            st = copse_bvh_overlap_sphere(bvh, &q->sphere, COPSE_BVH_SELECT_PRIMS, &list);
            for (i = 0; i < list.count && i < n; i++)
                seen[ids[i] < n ? ids[i] : 0] = 1;
            for (i = 0; i < n; i++)
                fragile |= orc_fragile((orc_verdict)a->verdict[i]);
            ok &= CHECKF(st == COPSE_OK && (fragile || ((list.count == 0) == (any_id == COPSE_NONE) &&
                                                        (any_id == COPSE_NONE || (any_id < n && seen[any_id])))),
                         "%s: any_sphere gave %u, copse_bvh_overlap_sphere %u ids", tag(tree), (unsigned)any_id,
                         (unsigned)list.count);
        }
        goto done;
    }

    /* the whole set against the oracle */
    list = copse_id_list_make(ids, n + 1u);
    list.count = 77u; /* the query must reset it */
    st = cq_overlap(bvh, q, &list);
    ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= n, "%s: overlap_%s: %s, %u ids", tag(tree), kn,
                 copse_status_str(st), (unsigned)list.count);
    if (list.count > n)
        list.count = 0;
    for (i = 0; i < list.count; i++) {
        if (ids[i] >= n || seen[ids[i]])
            bad++;
        else
            seen[ids[i]] = 1;
    }
    ok &= CHECKF(bad == 0, "%s: overlap_%s reported %u unknown or repeated ids", tag(tree), kn, (unsigned)bad);
    for (i = 0; i < n; i++) {
        if ((seen[i] != 0) != orc_exact((orc_verdict)a->verdict[i])) {
            if (orc_fragile((orc_verdict)a->verdict[i])) {
                excused = true;
            } else {
                wrong++;
                wrong_id = i;
            }
        }
    }
    g_ex_set |= excused;
    g_has_set = true;
    ok &= CHECKF(wrong == 0, "%s: overlap_%s: %u triangles wrong, e.g. %u %s (oracle distance %.9g, band %.3g)",
                 tag(tree), kn, (unsigned)wrong, (unsigned)wrong_id,
                 seen[wrong_id] ? "reported, the oracle says apart" : "missing, the oracle says it overlaps",
                 a->c[wrong_id].core, a->band);
    ok &= CHECKF(list.count == 0 ? any_id == COPSE_NONE : (any_id < n && seen[any_id] != 0),
                 "%s: any_%s gave %u, overlap_%s has %u ids", tag(tree), kn, (unsigned)any_id, kn,
                 (unsigned)list.count);

    /* the visitor: the same sequence; stopped early, a prefix */
    s.ids = buf;
    s.cap = n + 1u;
    s.count = 0;
    s.stop_after = 0xFFFFFFFFu;
    st = cq_visit(bvh, q, sink_id, &s);
    ok &= CHECKF(st == COPSE_OK && s.count == list.count && memcmp(buf, ids, (size_t)list.count * 4u) == 0,
                 "%s: visit_%s gave %u ids, overlap_%s %u (or another order)", tag(tree), kn, (unsigned)s.count, kn,
                 (unsigned)list.count);
    if (list.count > 0) {
        s.count = 0;
        s.stop_after = 1u + test_rng_below(rng, list.count);
        st = cq_visit(bvh, q, sink_id, &s);
        ok &= CHECKF(st == COPSE_OK && s.count == s.stop_after && memcmp(buf, ids, (size_t)s.count * 4u) == 0,
                     "%s: visit_%s stopping after %u was called %u times", tag(tree), kn, (unsigned)s.stop_after,
                     (unsigned)s.count);
    }
    /* capacities 0, 1 and random: the first ones, and truncated when there were more */
    caps[0] = 0;
    caps[1] = 1;
    caps[2] = test_rng_below(rng, list.count + 2u);
    for (c = 0; c < 3; c++) {
        copse_id_list part = copse_id_list_make(caps[c] > 0 ? buf : NULL, caps[c]);
        uint32_t expect = list.count < caps[c] ? list.count : caps[c];
        st = cq_overlap(bvh, q, &part);
        ok &= CHECKF(st == COPSE_OK && part.count == expect && part.truncated == (list.count > caps[c]) &&
                         memcmp(buf, ids, (size_t)expect * 4u) == 0,
                     "%s: overlap_%s at capacity %u: count %u truncated %d, of %u", tag(tree), kn, (unsigned)caps[c],
                     (unsigned)part.count, (int)part.truncated, (unsigned)list.count);
    }
done:
    tk_rewind(mark);
    if (!ok)
        describe(q);
}

/* ---- judges: distances ---------------------------------------------------------------------- */

static bool same_distance(const copse_distance *a, const copse_distance *b)
{
    return a->distance == b->distance && a->depth == b->depth && a->tree_id == b->tree_id &&
           a->shape_id == b->shape_id && a->tree_point.x == b->tree_point.x && a->tree_point.y == b->tree_point.y &&
           a->tree_point.z == b->tree_point.z && a->shape_point.x == b->shape_point.x &&
           a->shape_point.y == b->shape_point.y && a->shape_point.z == b->shape_point.z &&
           a->normal.x == b->normal.x && a->normal.y == b->normal.y && a->normal.z == b->normal.z;
}

/* From a point to the shape's core (centre or segment): the distance. */
/* The penetration depth of the core of a capsule that meets triangle v (docs/collide.md): the
 * least translation that parts the segment from the triangle, over the faces of their Minkowski
 * difference (the triangle's normal and the segment crossed with each edge); 0 for a sphere. */
static double core_depth(const orcc_shape *s, double (*v)[3])
{
    double axis[4][3], seg[3], best = 1e300;
    unsigned i, k, count = 0;
    if (s->n != 2u)
        return 0.0;
    orc_sub(seg, s->p[1], s->p[0]);
    for (i = 0; i < 4; i++) {
        double e1[3], e2[3], len;
        if (i == 0) {
            orc_sub(e1, v[1], v[0]);
            orc_sub(e2, v[2], v[0]);
            orc_cross(axis[count], e1, e2);
        } else {
            orc_sub(e1, v[i % 3u], v[i - 1u]);
            orc_cross(axis[count], seg, e1);
        }
        len = orc_len(axis[count]);
        if (len > 1e-12 * (1.0 + orc_max_abs(axis[count]))) {
            for (k = 0; k < 3; k++)
                axis[count][k] /= len;
            count++;
        } else if (i == 0) {
            return 0.0; /* a triangle of no area: collide.h reports the radius alone */
        }
    }
    for (i = 0; i < count; i++) {
        double sa = orc_dot(s->p[0], axis[i]), sb = orc_dot(s->p[1], axis[i]);
        double t0 = orc_dot(v[0], axis[i]), t1 = orc_dot(v[1], axis[i]), t2 = orc_dot(v[2], axis[i]);
        double t_lo = t0 < t1 ? (t0 < t2 ? t0 : t2) : (t1 < t2 ? t1 : t2);
        double t_hi = t0 > t1 ? (t0 > t2 ? t0 : t2) : (t1 > t2 ? t1 : t2);
        double up = t_hi - (sa < sb ? sa : sb), down = (sa > sb ? sa : sb) - t_lo;
        best = up < best ? up : best;
        best = down < best ? down : best;
    }
    return best > 0.0 ? best : 0.0;
}

static double to_core(const answer *a, const double *p)
{
    double tmp[3];
    if (a->shape.kind == ORCC_SPHERE)
        return orc_dist(p, a->shape.p[0]);
    return orc_closest_segment(p, a->shape.p[0], a->shape.p[1], tmp);
}

/* One distance answer. exact: the smallest distance within the tolerance; else a real pair at
 * a distance in [d* - tol, hi + tol] (errors allowed, or the first pair within). */
static bool check_distance(const char *what, const tk_scene *sc, const tk_tree *tree, const cq *q, const answer *a,
                           const copse_distance *o, copse_status st, float max_distance, bool exact, double hi)
{
    const double tol = a->tol, dstar = a->dstar;
    const bool ball = is_ball(q);
    double d, d_id, tp[3], sp[3], nv[3], nl, gap;
    orcc_contact c;
    tk_prim g;
    uint32_t id, j;
    bool ok = true;

    if (!CHECKF(st == COPSE_OK, "%s: %s_%s: %s", tag(tree), what, k_kind_names[q->kind], copse_status_str(st)))
        return false;
    if (o->tree_id == COPSE_NONE) {
        ok &= CHECKF(o->distance == FLT_MAX && o->shape_id == COPSE_NONE, "%s: %s: no triangle, but distance %.9g",
                     tag(tree), what, (double)o->distance);
        ok &= CHECKF(dstar < 0.0 || dstar > (double)max_distance - tol,
                     "%s: %s found nothing within %.9g, but triangle %u is %.9g away (oracle)", tag(tree), what,
                     (double)max_distance, (unsigned)a->near.tree_id, dstar);
        return ok;
    }
    if (!CHECKF(o->tree_id < sc->n && o->shape_id == COPSE_NONE && o->distance >= 0.0f &&
                    o->distance <= max_distance,
                "%s: %s: id %u shape id %u distance %.9g (max %.9g)", tag(tree), what, (unsigned)o->tree_id,
                (unsigned)o->shape_id, (double)o->distance, (double)max_distance))
        return false;
    ok &= CHECKF(dstar <= (double)max_distance + tol, "%s: %s found %u at %.9g, but nothing lies within %.9g (%.9g)",
                 tag(tree), what, (unsigned)o->tree_id, (double)o->distance, (double)max_distance, dstar);
    d = (double)o->distance;
    if (exact) {
        double err = dab(d - dstar), k = err / (ORC_FLT_EPS * a->M);
        if (g_in_huge)
            g_worst_k_huge[q->kind] = dmx(g_worst_k_huge[q->kind], k);
        else
            g_worst_k[q->kind] = dmx(g_worst_k[q->kind], k);
        g_dist_checks++;
        ok &= CHECKF(err <= tol, "%s: %s %.9g, oracle %.9g (triangle %u): off by %.3g = %.1f eps*M (M %.3g)",
                     tag(tree), what, d, dstar, (unsigned)a->near.tree_id, err, k, a->M);
    } else {
        ok &= CHECKF(d >= dstar - tol && d <= hi + tol, "%s: %s %.9g outside [%.9g, %.9g]", tag(tree), what, d, dstar,
                     hi);
    }

    /* the reported triangle is at that distance */
    id = o->tree_id;
    tk_get_prim(sc, id, &g);
    c.core = a->c[id].core;
    c.distance = ball ? dmx(0.0, c.core - a->shape.radius) : c.core;
    for (j = 0; j < 3; j++) {
        c.tri_point[j] = (double)a->c[id].tri_point[j];
        c.shape_point[j] = (double)a->c[id].shape_point[j];
    }
    d_id = ball ? dmx(0.0, c.core - a->shape.radius) : c.distance;
    if (exact)
        ok &= CHECKF(dab(d_id - d) <= tol && (!ball || dab(c.core - a->near.c.core) <= tol),
                     "%s: %s: triangle %u is %.9g away (core %.9g), not %.9g (nearest core %.9g)", tag(tree), what,
                     (unsigned)id, d_id, c.core, d, a->near.c.core);
    else
        ok &= CHECKF(d_id <= d + tol, "%s: %s: triangle %u is %.9g away, more than the %.9g reported", tag(tree), what,
                     (unsigned)id, d_id, d);
    if (ball) {
        double want = dmx(0.0, a->shape.radius - (exact ? a->near.c.core : c.core));
        if (c.core <= tol) {
            /* the core meets the surface (collide.h, docs/collide.md): depth is the radius plus
             * the core's own penetration depth into the triangle (0 when it only grazes it), so it
             * is continuous with radius - core; one check per query, not per variant */
            if (max_distance == FLT_MAX && exact) {
                want = a->shape.radius + core_depth(&a->shape, g.v);
                ok &= CHECKF(dab((double)o->depth - want) <= 2.0 * tol,
                             "%s: %s: the core meets triangle %u: depth %.9g, docs/collide.md says %.9g", tag(tree),
                             what, (unsigned)id, (double)o->depth, want);
            }
        } else {
            ok &= CHECKF(dab((double)o->depth - want) <= tol, "%s: %s: depth %.9g, oracle %.9g", tag(tree), what,
                         (double)o->depth, want);
        }
    } else {
        ok &= CHECKF(o->depth == 0.0f, "%s: %s: depth %.9g for a shape without one", tag(tree), what,
                     (double)o->depth);
    }

    /* the points: on their primitives, as far apart as reported */
    vd(tp, o->tree_point);
    vd(sp, o->shape_point);
    vd(nv, o->normal);
    {
        double tmp[3], off_t = orc_closest_triangle(tp, g.v[0], g.v[1], g.v[2], tmp);
        double off_s = orcc_point_shape(sp, &a->shape);
        ok &= CHECKF(off_t <= tol && off_s <= tol, "%s: %s: tree_point %.3g off triangle %u, shape_point %.3g off the shape",
                     tag(tree), what, off_t, (unsigned)id, off_s);
    }
    gap = orc_dist(tp, sp);
    if (ball) {
        double ct = to_core(a, tp);
        ok &= CHECKF(dab(ct - c.core) <= tol, "%s: %s: tree_point is %.9g from the core, the triangle %.9g", tag(tree),
                     what, ct, c.core);
        if (c.core > tol)
            ok &= CHECKF(dab(gap - (d + (double)o->depth)) <= 2.0 * tol,
                         "%s: %s: points %.9g apart, distance %.9g + depth %.9g", tag(tree), what, gap, d,
                         (double)o->depth);
    } else {
        ok &= CHECKF(dab(gap - d) <= 2.0 * tol, "%s: %s: points %.9g apart, distance %.9g", tag(tree), what, gap, d);
    }

    /* the normal: unit or zero; from the triangle toward the shape where that is well defined */
    nl = orc_len(nv);
    ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: %s: normal of length %.9g", tag(tree), what, nl);
    if (c.core > 1000.0 * tol) {
        double u[3];
        int k;
        for (k = 0; k < 3; k++)
            u[k] = (c.shape_point[k] - c.tri_point[k]) / c.core;
        ok &= CHECKF(nl > 0.0 && orc_dot(nv, u) >= 0.999 * nl,
                     "%s: %s: normal (%.6g, %.6g, %.6g), oracle direction (%.6g, %.6g, %.6g)", tag(tree), what,
                     nv[0], nv[1], nv[2], u[0], u[1], u[2]);
    } else if (!ball && d > tol) {
        ok &= CHECKF(nl > 0.0, "%s: %s: zero normal for points %.9g apart", tag(tree), what, gap);
    }

    /* ties go to the lower id, except at contact: collide.h says touching ends the query, the
     * first touching pair found being the answer (for spheres and capsules: the core touching) */
    if (exact && c.core > 0.0 && !(o->distance == 0.0f && (!ball || (double)o->depth >= a->shape.radius))) {
        for (j = 0; j < id; j++)
            if (tk_prim_same(sc, j, id))
                break;
        ok &= CHECKF(j == id, "%s: %s reported triangle %u, but %u is the same triangle", tag(tree), what,
                     (unsigned)id, (unsigned)j);
    }
    return ok;
}

static void judge_distance(const tk_scene *sc, const tk_tree *tree, const cq *q, const answer *a)
{
    const copse_bvh *bvh = &tree->bvh;
    const double dstar = a->dstar, tol = a->tol;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_distance o, o2;
    copse_status st;
    bool ok = true;

    memset(&o, 0x5A, sizeof o);
    st = cq_distance(bvh, q, NULL, &o);
    ok &= check_distance("distance", sc, tree, q, a, &o, st, FLT_MAX, true, 0.0);
    memset(&o2, 0xA5, sizeof o2);
    st = cq_distance(bvh, q, &dq, &o2);
    ok &= CHECKF(st == COPSE_OK && same_distance(&o, &o2), "%s: the default query answers otherwise than NULL",
                 tag(tree));
    if (dstar >= 0.0) {
        if (dstar > 4.0 * tol) { /* nothing within half the distance */
            dq.max_distance = (float)(0.5 * dstar);
            st = cq_distance(bvh, q, &dq, &o);
            ok &= check_distance("distance (max below)", sc, tree, q, a, &o, st, dq.max_distance, true, 0.0);
        }
        dq.max_distance = (float)(1.25 * dstar + 2.0 * tol);
        st = cq_distance(bvh, q, &dq, &o);
        ok &= check_distance("distance (max above)", sc, tree, q, a, &o, st, dq.max_distance, true, 0.0);
        dq.max_distance = 0.0f;
        st = cq_distance(bvh, q, &dq, &o);
        ok &= check_distance("distance (max 0)", sc, tree, q, a, &o, st, 0.0f, true, 0.0);

        dq.max_distance = (float)(2.0 * dstar + 2.0 * tol);
        dq.first_within = true;
        st = cq_distance(bvh, q, &dq, &o);
        ok &= check_distance("distance (first within)", sc, tree, q, a, &o, st, dq.max_distance, false,
                             (double)dq.max_distance);
        if (dstar > 4.0 * tol) {
            dq.max_distance = (float)(0.5 * dstar);
            st = cq_distance(bvh, q, &dq, &o);
            ok &= check_distance("distance (first within, none)", sc, tree, q, a, &o, st, dq.max_distance, false,
                                 (double)dq.max_distance);
        }
        dq.first_within = false;
        dq.max_distance = FLT_MAX;
        dq.abs_err = (float)(0.1 * a->s);
        dq.rel_err = 0.5f;
        st = cq_distance(bvh, q, &dq, &o);
        ok &= check_distance("distance (abs/rel err)", sc, tree, q, a, &o, st, FLT_MAX, false,
                             (double)dq.abs_err + 1.5 * dstar);
    }
    if (!ok)
        describe(q);
}

/* ---- batteries --------------------------------------------------------------------------------- */

static bool tri_area_ok(const tk_prim *g)
{
    double e1[3], e2[3], n[3];
    orc_sub(e1, g->v[1], g->v[0]);
    orc_sub(e2, g->v[2], g->v[0]);
    orc_cross(n, e1, e2);
    return orc_len(n) > 1e-6 * orc_dot(e1, e1) + 1e-30;
}

/* A shape built to touch triangle t of the scene. *must: the construction is exact at an exact
 * pose, so the contract demands the contact (triangles and convex sets sharing a corner, a box
 * with a corner on it). False when t is too thin to build on. */
static bool make_touching_query(cq *q, orcc_kind kind, const tk_scene *sc, uint32_t t, test_rng *rng, bool *must)
{
    const double s = scale_of(sc);
    double nrm[3], e1[3], e2[3], on[3], w[3], u[3], size = rnd(rng, 0.02 * s, 0.15 * s), h;
    double bu = (double)test_rng_float(rng, 0.0f, 1.0f), bv = (double)test_rng_float(rng, 0.0f, 1.0f);
    orcc_shape *sh = (orcc_shape *)tk_alloc(sizeof(orcc_shape));
    orcc_contact c;
    tk_prim g;
    int k;
    unsigned i;
    memset(q, 0, sizeof *q);
    if (sh == NULL)
        return false;
    q->kind = kind;
    q->edge = true;
    *must = false;
    tk_get_prim(sc, t, &g);
    if (!tri_area_ok(&g))
        return false;
    orc_sub(e1, g.v[1], g.v[0]);
    orc_sub(e2, g.v[2], g.v[0]);
    orc_cross(nrm, e1, e2);
    h = orc_len(nrm);
    for (k = 0; k < 3; k++)
        nrm[k] /= h;
    if (bu + bv > 1.0) {
        bu = 1.0 - bu;
        bv = 1.0 - bv;
    }
    for (k = 0; k < 3; k++)
        on[k] = g.v[0][k] + bu * e1[k] + bv * e2[k];
    make_pose(q, rng, s, random_pose_kind(rng));
    switch (kind) {
    case ORCC_SPHERE: /* the radius is the oracle's distance from the centre to t */
        h = rnd(rng, 0.0, size);
        for (k = 0; k < 3; k++)
            w[k] = on[k] + h * nrm[k];
        q->sphere.center = to_local(q, w);
        orcc_make_sphere(sh, &q->sphere, q->pose);
        (void)orcc_shape_triangle(sh, (const double(*)[3])g.v, 0.0, &c);
        q->sphere.radius = (float)c.core;
        break;
    case ORCC_CAPSULE:
        random_unit(rng, u);
        for (k = 0; k < 3; k++)
            w[k] = on[k] + size * (nrm[k] + 0.5 * u[k]);
        q->capsule.segment.a = to_local(q, w);
        for (k = 0; k < 3; k++)
            w[k] = on[k] + size * (nrm[k] - 0.5 * u[k]);
        q->capsule.segment.b = to_local(q, w);
        orcc_make_capsule(sh, &q->capsule, q->pose);
        (void)orcc_shape_triangle(sh, (const double(*)[3])g.v, 0.0, &c);
        q->capsule.radius = (float)c.core;
        break;
    case ORCC_OBB:
        if (test_rng_below(rng, 2) == 0) { /* resting on the face: its bottom in t's plane */
            orcc_pose f, spin;
            double half[3], quat[4] = {0.0, 0.0, 0.0, 1.0}, zero[3] = {0.0, 0.0, 0.0};
            double ang = rnd(rng, 0.0, 3.0);
            quat[2] = sin(ang);
            quat[3] = cos(ang);
            for (k = 0; k < 3; k++)
                half[k] = rnd(rng, 0.1 * size, size);
            for (k = 0; k < 3; k++)
                w[k] = on[k] + half[2] * nrm[k];
            orcc_pose_from_z(&f, nrm, w);
            orcc_pose_from_quat(&spin, quat, zero);
            orcc_pose_compose(&f, &f, &spin);
            q->obb.center = to_local(q, w);
            q->obb.half = copse_v3((float)half[0], (float)half[1], (float)half[2]);
            local_rotation(q, &f, q->obb.rotation);
        } else { /* axis-aligned in the tree's frame, a corner on t's first corner */
            orcc_pose f;
            double half[3];
            uint32_t signs = test_rng_below(rng, 8);
            bool exact = true;
            orcc_pose_identity(&f);
            for (k = 0; k < 3; k++) {
                float hk = (float)ldexp(1.0, -(int)test_rng_below(rng, 4)) * (float)size, ck;
                float vk = (float)g.v[0][k];
                ck = ((signs >> k) & 1u) ? vk + hk : vk - hk;
                exact &= (((signs >> k) & 1u) ? ck - hk : ck + hk) == vk &&
                         (double)ck - (double)hk * (((signs >> k) & 1u) ? 1.0 : -1.0) == (double)vk;
                half[k] = (double)hk;
                w[k] = (double)ck;
            }
            q->obb.center = to_local(q, w);
            q->obb.half = copse_v3((float)half[0], (float)half[1], (float)half[2]);
            local_rotation(q, &f, q->obb.rotation);
            *must = exact && pose_exact(q);
        }
        break;
    case ORCC_TRIANGLE: /* sharing t's first corner, the rest on the normal's side */
        q->tri.a = to_local(q, g.v[0]);
        for (k = 0; k < 3; k++)
            w[k] = g.v[0][k] + size * (nrm[k] + rnd(rng, -1.0, 1.0));
        q->tri.b = to_local(q, w);
        for (k = 0; k < 3; k++)
            w[k] = g.v[0][k] + size * (nrm[k] + rnd(rng, -1.0, 1.0));
        q->tri.c = to_local(q, w);
        *must = pose_exact(q);
        break;
    case ORCC_HULL: { /* t's corner as a point of the set, the others on the normal's side */
        unsigned npts = 1u + test_rng_below(rng, 5);
        unsigned corner = test_rng_below(rng, 3);
        q->pts[0] = to_local(q, g.v[corner]);
        for (i = 1; i < npts; i++) {
            for (k = 0; k < 3; k++)
                w[k] = g.v[corner][k] + size * (nrm[k] * rnd(rng, 0.2, 1.0) + rnd(rng, -0.5, 0.5));
            q->pts[i] = to_local(q, w);
        }
        finish_query(q, npts);
        *must = pose_exact(q);
        return true;
    }
    }
    finish_query(q, 0);
    return true;
}

/* The contact a touching query was built for: found by every form, at distance 0. */
static void judge_must(const tk_scene *sc, const tk_tree *tree, const cq *q, uint32_t t)
{
    const copse_bvh *bvh = &tree->bvh;
    size_t mark = tk_mark();
    uint32_t id = 0x12345u, *ids = (uint32_t *)tk_alloc(((size_t)sc->n + 1u) * 4u), i;
    copse_distance o;
    copse_status st;
    bool ok = true;
    if (ids == NULL)
        return;
    g_must++;
    st = cq_any(bvh, q, &id);
    ok &= CHECKF(st == COPSE_OK && id != COPSE_NONE, "%s: any_%s missed a shape that touches triangle %u exactly",
                 tag(tree), k_kind_names[q->kind], (unsigned)t);
    if (has_lists(q)) {
        copse_id_list list = copse_id_list_make(ids, sc->n + 1u);
        st = cq_overlap(bvh, q, &list);
        for (i = 0; i < list.count && ids[i] != t; i++)
            ;
        ok &= CHECKF(st == COPSE_OK && i < list.count, "%s: overlap_%s misses triangle %u, which it touches exactly",
                     tag(tree), k_kind_names[q->kind], (unsigned)t);
    }
    st = cq_distance(bvh, q, NULL, &o);
    ok &= CHECKF(st == COPSE_OK && o.distance == 0.0f, "%s: distance_%s %.9g for a shape touching triangle %u",
                 tag(tree), k_kind_names[q->kind], (double)o.distance, (unsigned)t);
    tk_rewind(mark);
    if (!ok)
        describe(q);
}

static void judge_query(const tk_scene *sc, const tk_tree *trees, unsigned ntrees, const cq *q, test_rng *rng,
                        uint32_t must_t)
{
    size_t mark = tk_mark();
    answer *a = answer_make(sc, q);
    unsigned t;
    g_ex_any = g_ex_set = g_has_set = false;
    if (a != NULL)
        for (t = 0; t < ntrees; t++) {
            judge_sets(sc, &trees[t], q, a, rng);
            judge_distance(sc, &trees[t], q, a);
            if (must_t != COPSE_NONE)
                judge_must(sc, &trees[t], q, must_t);
        }
    if (a != NULL && ntrees > 0) {
        tally(g_ex_any, q->edge);
        if (g_has_set)
            tally(g_ex_set, q->edge);
    }
    tk_rewind(mark);
}

static unsigned hull_max(void)
{
    return big_machine() ? 8u : 5u;
}

static void run_battery(const tk_scene *sc, const tk_tree *trees, unsigned ntrees, orcc_kind kind, uint64_t seed,
                        unsigned nq)
{
    size_t mark = tk_mark();
    cq *q = (cq *)tk_alloc(sizeof(cq));
    test_rng rng;
    unsigned i;
    if (q == NULL)
        return;
    test_rng_seed(&rng, seed);
    for (i = 0; i < nq; i++) {
        g_query = i;
        make_random_query(q, kind, sc, hull_max(), &rng);
        judge_query(sc, trees, ntrees, q, &rng, COPSE_NONE);
    }
    for (i = 0; sc->n > 0 && i < nq / 3u + 1u; i++) { /* built to touch a triangle */
        uint32_t t = test_rng_below(&rng, sc->n);
        size_t m2 = tk_mark();
        bool must;
        g_query = 1000u + i;
        if (make_touching_query(q, kind, sc, t, &rng, &must))
            judge_query(sc, trees, ntrees, q, &rng, must ? t : COPSE_NONE);
        tk_rewind(m2);
    }
    tk_rewind(mark);
}

/* Builds as many of the scene's trees as fit, runs the battery on them, repeats. A small machine
 * builds half of them: leaves 1, 4, 7 with the splits alternating, starting with `flip`'s. */
static void run_scene(const tk_scene *sc, tk_tree *trees, orcc_kind kind, uint64_t seed, unsigned nq, unsigned flip)
{
    static const unsigned halves[2][3] = {{0, 3, 4}, {1, 2, 5}}; /* sah/1 median/4 sah/7, and the others */
    const unsigned ncombos = big_machine() ? TREES_PER_SCENE : 3u;
    unsigned next = 0, combo;
    while (next < ncombos) {
        size_t mark = tk_mark();
        unsigned built = 0;
        while (next < ncombos) {
            copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
            size_t exact, keep;
            combo = big_machine() ? next : halves[flip % 2u][next];
            p.split = k_splits[combo % 2u];
            p.leaf_size = k_leaves[combo / 2u];
            exact = copse_bvh_build_bytes(sc->n, 3, &p);
            keep = COPSE_BVH_TREE_BYTES(sc->n, p.leaf_size) + 32u * (size_t)sc->n + sizeof(cq) + sizeof(answer) +
                   1024u;
            if (built > 0 && (exact > tk_free_bytes() || keep > tk_free_bytes()))
                break;
            if (!tk_build(&trees[built], sc, &p)) {
                tk_rewind(mark);
                return;
            }
            built++;
            next++;
        }
        run_battery(sc, trees, built, kind, seed, nq);
        tk_rewind(mark);
    }
}

static bool make_mesh(tk_scene *sc, uint32_t n, unsigned layout, float origin, float extent, test_rng *rng)
{
    tk_mesh_spec m;
    tk_mesh_spec_init(&m, n, layout == 0 ? TK_U16 : layout == 1 ? TK_U32 : TK_FLAT);
    m.stride = layout == 1 ? 20u : layout == 2 ? 16u : 12u;
    m.origin = origin;
    m.extent = extent;
    m.dup_pct = 4;
    m.coplanar_pct = 3;
    m.degen_pct = 4;
    return tk_make_mesh(sc, &m, rng);
}

static const char *const k_layout_names[3] = {"u16", "u32-stride20", "flat-stride16"};

static void run_kind(orcc_kind kind)
{
    const bool big = big_machine();
    uint32_t sizes[10], s, nsizes = 0;
    tk_tree *trees;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    trees = (tk_tree *)tk_alloc(TREES_PER_SCENE * sizeof(tk_tree));
    if (trees == NULL)
        return;
    for (s = 0; s <= 8u; s++)
        sizes[nsizes++] = s;
    sizes[nsizes++] = tk_large_count(420u + (big ? 0u : 200u), 300);
    for (s = 0; s < nsizes; s++) {
        size_t mark = tk_mark();
        uint64_t seed = 70000u + 1000u * (uint64_t)kind + sizes[s];
        unsigned layout = s % 3u;
        unsigned nq = sizes[s] <= 8u ? (big ? 16u : 3u) : (big ? 40u : 4u);
        test_rng rng;
        tk_scene sc;
        test_rng_seed(&rng, seed);
        tk_context("mesh3-%s n=%u %s", k_layout_names[layout], (unsigned)sizes[s], k_kind_names[kind]);
        if (CHECKF(make_mesh(&sc, sizes[s], layout, 0.0f, 100.0f, &rng), "%s: scene does not fit", tk_ctx()))
            run_scene(&sc, trees, kind, seed, nq, s);
        tk_rewind(mark);
    }
    tk_tally_end();
}

static void test_sphere(void)
{
    run_kind(ORCC_SPHERE);
}

static void test_capsule(void)
{
    run_kind(ORCC_CAPSULE);
}

static void test_obb(void)
{
    run_kind(ORCC_OBB);
}

static void test_triangle(void)
{
    run_kind(ORCC_TRIANGLE);
}

static void test_convex(void)
{
    run_kind(ORCC_HULL);
}

/* Small features a million units from the origin: every kind, on one mesh. */
static void test_huge(void)
{
    const bool big = big_machine();
    uint32_t n = big ? 60u : 12u;
    tk_tree *trees;
    tk_scene sc;
    test_rng rng;
    unsigned kind;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    trees = (tk_tree *)tk_alloc(TREES_PER_SCENE * sizeof(tk_tree));
    test_rng_seed(&rng, 71234u);
    if (trees == NULL || !CHECK(make_mesh(&sc, n, 0, 1.0e6f, 100.0f, &rng)))
        return;
    g_in_huge = true;
    for (kind = 0; kind <= (unsigned)ORCC_HULL; kind++) {
        tk_context("mesh3-u16 n=%u at 1e6 %s", (unsigned)n, k_kind_names[kind]);
        run_scene(&sc, trees, (orcc_kind)kind, 71234u + kind, big ? 24u : 3u, kind);
    }
    g_in_huge = false;
    tk_tally_end();
}

/* ---- hand-made cases with known answers -------------------------------------------------------- */

/* Triangles 0, 1: the square [0,4]^2 at z = 0; 2: a wall at x = 8; 3: triangle 0 again; 4: a
 * segment-like triangle at y = 10. */
static const float k_hand_pos[] = {0, 0, 0, 4, 0, 0, 4, 4, 0, 0, 4, 0, 8, 0, 0, 8, 4, 0, 8, 0, 4, 0, 10, 0, 2, 10, 0};
static const uint16_t k_hand_ix[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 0, 1, 2, 7, 8, 8};

static bool hand_tree(tk_tree *tree, tk_scene *sc, uint32_t leaf)
{
    copse_mesh m;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    memset(&m, 0, sizeof m);
    m.positions = k_hand_pos;
    m.vertex_count = 9;
    m.indices = k_hand_ix;
    m.index_type = COPSE_MESH_INDEX_U16;
    m.triangle_count = 5;
    tk_scene_from_mesh(sc, &m, COPSE_BVH_PROJECT_NONE);
    p.leaf_size = leaf;
    return tk_build(tree, sc, &p);
}

static bool near_v(copse_vec3 v, double x, double y, double z)
{
    return dab((double)v.x - x) <= 1e-5 && dab((double)v.y - y) <= 1e-5 && dab((double)v.z - z) <= 1e-5;
}

static void test_hand(void)
{
    uint32_t leaves[2] = {1, 4}, ids[8], id, l;
    tk_tree tree;
    tk_scene sc;
    tk_pool_reset();
    for (l = 0; l < 2; l++) {
        copse_distance o;
        copse_id_list list;
        copse_pose pose;
        if (!hand_tree(&tree, &sc, leaves[l]))
            return;
        /* a sphere above triangle 1: 0.5 away, straight down */
        {
            copse_sphere s = {{1, 3, 2}, 1.5f};
            CHECK_STATUS(copse_distance_sphere_bvh(&s, NULL, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 1 && dab((double)o.distance - 0.5) <= 1e-6 && o.depth == 0.0f &&
                       near_v(o.tree_point, 1, 3, 0) && near_v(o.shape_point, 1, 3, 0.5) && near_v(o.normal, 0, 0, 1),
                   "hand sphere: id %u d %.9g depth %.9g tp (%g %g %g) sp (%g %g %g) n (%g %g %g)",
                   (unsigned)o.tree_id, (double)o.distance, (double)o.depth, (double)o.tree_point.x,
                   (double)o.tree_point.y, (double)o.tree_point.z, (double)o.shape_point.x, (double)o.shape_point.y,
                   (double)o.shape_point.z, (double)o.normal.x, (double)o.normal.y, (double)o.normal.z);
            /* the same sphere placed by a pose: its centre at the origin, moved up by the pose */
            s.center = copse_v3(0, 0, 0);
            s.radius = 2.5f;
            pose = copse_pose_translation(copse_v3(1, 3, 2));
            CHECK_STATUS(copse_distance_sphere_bvh(&s, &pose, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 1 && o.distance == 0.0f && dab((double)o.depth - 0.5) <= 1e-6 &&
                       near_v(o.tree_point, 1, 3, 0) && near_v(o.shape_point, 1, 3, -0.5) &&
                       near_v(o.normal, 0, 0, 1),
                   "hand sphere, posed and deep: id %u d %.9g depth %.9g", (unsigned)o.tree_id, (double)o.distance,
                   (double)o.depth);
            CHECK_STATUS(copse_bvh_any_sphere(&tree.bvh, &s, &pose, &id), COPSE_OK);
            CHECKF(id == 0 || id == 1 || id == 3, "hand sphere any: %u", (unsigned)id);
        }
        /* a box on the square, turned a quarter about z by its pose: triangles 0, 1 and 3 */
        {
            copse_obb b;
            memset(&b, 0, sizeof b);
            b.center = copse_v3(0, 0, 0);
            b.half = copse_v3(1, 2, 1);
            b.rotation[0][0] = b.rotation[1][1] = b.rotation[2][2] = 1.0f;
            memset(&pose, 0, sizeof pose);
            pose.rotation[0][1] = -1.0f;
            pose.rotation[1][0] = 1.0f;
            pose.rotation[2][2] = 1.0f;
            pose.translation = copse_v3(2, 1, 1); /* box x in [0, 4], y in [0, 2], z in [0, 2] */
            list = copse_id_list_make(ids, 8);
            CHECK_STATUS(copse_bvh_overlap_obb(&tree.bvh, &b, &pose, &list), COPSE_OK);
            CHECKF(list.count == 3 && !list.truncated, "hand box: %u ids", (unsigned)list.count);
            CHECK_STATUS(copse_distance_obb_bvh(&b, &pose, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 0 && o.distance == 0.0f, "hand box: distance %.9g at %u (ties to the lowest id)",
                   (double)o.distance, (unsigned)o.tree_id);
            /* lifted by 3: 3 above the square, 4 from the wall's top corner, ... */
            pose.translation = copse_v3(2, 1, 4);
            CHECK_STATUS(copse_distance_obb_bvh(&b, &pose, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 0 && dab((double)o.distance - 3.0) <= 1e-6 && dab((double)o.tree_point.z) <= 1e-6 &&
                       dab((double)o.shape_point.z - 3.0) <= 1e-6 && near_v(o.normal, 0, 0, 1),
                   "hand box lifted: id %u distance %.9g", (unsigned)o.tree_id, (double)o.distance);
        }
        /* a capsule along the wall, 1 from it: the wall only */
        {
            copse_capsule c = {{{9.5f, 1, 1}, {9.5f, 3, 1}}, 0.5f};
            list = copse_id_list_make(ids, 8);
            CHECK_STATUS(copse_bvh_overlap_capsule(&tree.bvh, &c, NULL, &list), COPSE_OK);
            CHECKF(list.count == 0, "hand capsule 1 off the wall: %u ids", (unsigned)list.count);
            CHECK_STATUS(copse_distance_capsule_bvh(&c, NULL, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 2 && dab((double)o.distance - 1.0) <= 1e-6 && dab((double)o.tree_point.x - 8.0) <= 1e-6 &&
                       dab((double)o.shape_point.x - 9.0) <= 1e-6 && near_v(o.normal, 1, 0, 0),
                   "hand capsule: id %u d %.9g", (unsigned)o.tree_id, (double)o.distance);
            c.radius = 2.0f;
            list = copse_id_list_make(ids, 8);
            CHECK_STATUS(copse_bvh_overlap_capsule(&tree.bvh, &c, NULL, &list), COPSE_OK);
            CHECKF(list.count == 1 && ids[0] == 2, "hand capsule into the wall: %u ids", (unsigned)list.count);
            /* through the square, 1 below it to 2 above: its core meets triangle 1; its middle is
             * above, so it must rise by the radius plus the 1 its lower end reaches below:
             * depth 1.5, normal +z, the deepest point 0.5 below that end (docs/collide.md) */
            c.segment.a = copse_v3(1, 3, -1);
            c.segment.b = copse_v3(1, 3, 2);
            c.radius = 0.5f;
            CHECK_STATUS(copse_distance_capsule_bvh(&c, NULL, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 1 && o.distance == 0.0f && dab((double)o.depth - 1.5) <= 1e-6 &&
                       near_v(o.tree_point, 1, 3, 0) && near_v(o.normal, 0, 0, 1) &&
                       near_v(o.shape_point, 1, 3, -1.5),
                   "hand capsule through the square: id %u d %.9g depth %.9g (docs/collide.md: 1.5)",
                   (unsigned)o.tree_id, (double)o.distance, (double)o.depth);
        }
        /* a triangle standing on the segment-like triangle 4: touches it only */
        {
            copse_triangle t = {{1, 10, 0}, {1, 10, 3}, {1, 12, 3}};
            list = copse_id_list_make(ids, 8);
            CHECK_STATUS(copse_bvh_overlap_triangle(&tree.bvh, &t, NULL, &list), COPSE_OK);
            CHECKF(list.count == 1 && ids[0] == 4, "hand triangle on the degenerate one: %u ids", (unsigned)list.count);
            CHECK_STATUS(copse_distance_triangle_bvh(&t, NULL, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF(o.tree_id == 4 && o.distance == 0.0f, "hand triangle: id %u d %.9g", (unsigned)o.tree_id,
                   (double)o.distance);
        }
        /* a unit cube set, 1 above the square's corner (4, 4, 0) diagonally */
        {
            copse_vec3 pts[8];
            copse_convex cv;
            unsigned k;
            for (k = 0; k < 8; k++)
                pts[k] = copse_v3((float)(5 + (k & 1u)), (float)(5 + ((k >> 1) & 1u)), (float)(1 + ((k >> 2) & 1u)));
            cv.points = pts;
            cv.count = 8;
            CHECK_STATUS(copse_distance_convex_bvh(&cv, NULL, &tree.bvh, NULL, &o), COPSE_OK);
            CHECKF((o.tree_id == 0 || o.tree_id == 1) && dab((double)o.distance - sqrt(3.0)) <= 1e-5 &&
                       near_v(o.tree_point, 4, 4, 0) && near_v(o.shape_point, 5, 5, 1),
                   "hand convex: id %u d %.9g", (unsigned)o.tree_id, (double)o.distance);
            CHECKF(o.tree_id == 0, "hand convex: the corner (4, 4, 0) is shared by 0, 1, 3: ties to 0, got %u",
                   (unsigned)o.tree_id);
            CHECK_STATUS(copse_bvh_any_convex(&tree.bvh, &cv, NULL, &id), COPSE_OK);
            CHECK(id == COPSE_NONE);
        }
        tk_pool_reset();
    }
}

/* ---- bad input ------------------------------------------------------------------------------------ */

static unsigned g_visits;

static bool count_visit(void *user, uint32_t id)
{
    (void)user;
    (void)id;
    g_visits++;
    return true;
}

/* Every function of q's kind refuses with `expected` and empties its outputs. */
static void expect_refused(const copse_bvh *tree, const cq *q, const copse_distance_query *dq, copse_status expected,
                           const char *what)
{
    uint32_t id = 7, ids[4];
    copse_id_list list = copse_id_list_make(ids, 4);
    copse_distance o;
    copse_status st;
    const char *kn = k_kind_names[q->kind];
    st = cq_any(tree, q, &id);
    CHECKF(st == expected && id == COPSE_NONE, "%s: any_%s -> %s, id %u (expected %s)", what, kn,
           copse_status_str(st), (unsigned)id, copse_status_str(expected));
    if (has_lists(q)) {
        list.count = 3;
        list.truncated = true;
        st = cq_overlap(tree, q, &list);
        CHECKF(st == expected && list.count == 0 && !list.truncated, "%s: overlap_%s -> %s, count %u (expected %s)",
               what, kn, copse_status_str(st), (unsigned)list.count, copse_status_str(expected));
        g_visits = 0;
        st = cq_visit(tree, q, count_visit, NULL);
        CHECKF(st == expected && g_visits == 0, "%s: visit_%s -> %s, %u visits (expected %s)", what, kn,
               copse_status_str(st), g_visits, copse_status_str(expected));
    }
    memset(&o, 0x5A, sizeof o);
    st = cq_distance(tree, q, dq, &o);
    CHECKF(st == expected && o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE,
           "%s: distance_%s -> %s, distance %.9g id %u (expected %s)", what, kn, copse_status_str(st),
           (double)o.distance, (unsigned)o.tree_id, copse_status_str(expected));
}

/* Distance only (bad queries). */
static void expect_refused_distance(const copse_bvh *tree, const cq *q, const copse_distance_query *dq,
                                    copse_status expected, const char *what)
{
    copse_distance o;
    copse_status st;
    memset(&o, 0x5A, sizeof o);
    st = cq_distance(tree, q, dq, &o);
    CHECKF(st == expected && o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE,
           "%s: distance_%s -> %s, distance %.9g id %u (expected %s)", what, k_kind_names[q->kind],
           copse_status_str(st), (double)o.distance, (unsigned)o.tree_id, copse_status_str(expected));
}

static void good_query(cq *q, orcc_kind kind)
{
    unsigned i;
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->pk = POSE_NULL;
    q->sphere.center = copse_v3(1, 1, 1);
    q->sphere.radius = 1.5f;
    q->capsule.segment.a = copse_v3(1, 1, 1);
    q->capsule.segment.b = copse_v3(2, 2, 1);
    q->capsule.radius = 1.5f;
    q->obb.center = copse_v3(1, 1, 0.5f);
    q->obb.half = copse_v3(1, 1, 1);
    q->obb.rotation[0][0] = q->obb.rotation[1][1] = q->obb.rotation[2][2] = 1.0f;
    q->tri.a = copse_v3(1, 1, -1);
    q->tri.b = copse_v3(1, 1, 1);
    q->tri.c = copse_v3(2, 1, 1);
    for (i = 0; i < 4; i++)
        q->pts[i] = copse_v3((float)(i & 1u), (float)((i >> 1) & 1u), (float)i - 1.0f);
    finish_query(q, 4);
}

/* Poison one coordinate of the shape (k picks which). */
static bool poison(cq *q, unsigned k, float bad)
{
    switch (q->kind) {
    case ORCC_SPHERE:
        if (k == 0)
            q->sphere.center.y = bad;
        else if (k == 1)
            q->sphere.radius = bad;
        return k < 2;
    case ORCC_CAPSULE:
        if (k == 0)
            q->capsule.segment.a.x = bad;
        else if (k == 1)
            q->capsule.segment.b.z = bad;
        else if (k == 2)
            q->capsule.radius = bad;
        return k < 3;
    case ORCC_OBB:
        if (k == 0)
            q->obb.center.z = bad;
        else if (k == 1)
            q->obb.half.y = bad;
        else if (k == 2)
            q->obb.rotation[1][2] = bad;
        return k < 3;
    case ORCC_TRIANGLE:
        if (k == 0)
            q->tri.a.x = bad;
        else if (k == 1)
            q->tri.b.y = bad;
        else if (k == 2)
            q->tri.c.z = bad;
        return k < 3;
    case ORCC_HULL:
        if (k < 4)
            q->pts[k].y = bad;
        return k < 4;
    }
    return false;
}

static void test_errors(void)
{
    static const float flat_pos[] = {0, 0, 0, 4, 0, 0, 0, 0, 4};
    static const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 2, 2}, {3, 3, 3}}};
    /* (1, 1, 0), then (0, 0, 0) repeated (both on the square), where test memory holds them */
    copse_vec3 *many = NULL;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    tk_tree tree;
    tk_scene sc;
    copse_bvh tree2, boxtree, deep;
    copse_mesh m2;
    copse_arena arena;
    void *mem;
    size_t bytes = 4096;
    cq q;
    unsigned kind, k, i;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;

    tk_pool_reset();
    if (!hand_tree(&tree, &sc, 2))
        return;
    mem = tk_alloc(bytes);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, bytes);
    memset(&m2, 0, sizeof m2);
    m2.positions = flat_pos;
    m2.vertex_count = 3;
    m2.triangle_count = 1;
    p.projection = COPSE_BVH_PROJECT_XZ;
    CHECK_STATUS(copse_bvh_build_mesh(&tree2, &arena, &m2, &p), COPSE_OK);
    p.projection = COPSE_BVH_PROJECT_NONE;
    CHECK_STATUS(copse_bvh_build_boxes3(&boxtree, &arena, boxes, NULL, 2, &p), COPSE_OK);
    deep = tree.bvh;
    deep.depth = (uint8_t)(COPSE_BVH_MAX_DEPTH + 1u);

    for (kind = 0; kind <= (unsigned)ORCC_HULL; kind++) {
        const char *kn = k_kind_names[kind];
        uint32_t id = 5;
        copse_distance o;
        good_query(&q, (orcc_kind)kind);
        tk_context("errors %s", kn);
        /* the good query works */
        CHECK_STATUS(cq_any(&tree.bvh, &q, &id), COPSE_OK);
        CHECKF(id != COPSE_NONE, "errors: the good %s touches the square", kn);

        expect_refused(NULL, &q, NULL, COPSE_ERR_NULL, "NULL tree");
        q.null_shape = true;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NULL, "NULL shape");
        q.null_shape = false;
        CHECK_STATUS(cq_any(&tree.bvh, &q, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(cq_distance(&tree.bvh, &q, NULL, NULL), COPSE_ERR_NULL);
        if (has_lists(&q)) {
            CHECK_STATUS(cq_overlap(&tree.bvh, &q, NULL), COPSE_ERR_NULL);
            CHECK_STATUS(cq_visit(&tree.bvh, &q, NULL, NULL), COPSE_ERR_NULL);
        }
        expect_refused(&tree2, &q, NULL, COPSE_ERR_DIMENSION, "2D tree");
        expect_refused(&boxtree, &q, NULL, COPSE_ERR_KIND, "box tree");
        expect_refused(&deep, &q, NULL, COPSE_ERR_TOO_DEEP, "tree deeper than the cap");

        /* NaN and infinity in every coordinate */
        for (k = 0; k < 4; k++) {
            good_query(&q, (orcc_kind)kind);
            if (!poison(&q, k, NAN))
                break;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NONFINITE, "NaN in the shape");
            good_query(&q, (orcc_kind)kind);
            (void)poison(&q, k, INFINITY);
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NONFINITE, "infinity in the shape");
        }
        /* poses: non-finite; not a rotation (scaled, sheared, mirrored) */
        good_query(&q, (orcc_kind)kind);
        q.pose_f = copse_pose_identity();
        q.pose = &q.pose_f;
        q.pose_f.rotation[1][1] = NAN;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NONFINITE, "NaN in the pose");
        q.pose_f = copse_pose_identity();
        q.pose_f.translation.x = INFINITY;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NONFINITE, "infinity in the pose");
        q.pose_f = copse_pose_identity();
        for (i = 0; i < 3; i++)
            q.pose_f.rotation[i][i] = 1.01f;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a pose scaled by 1.01");
        q.pose_f = copse_pose_identity();
        q.pose_f.rotation[0][1] = 0.01f;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a sheared pose");
        q.pose_f = copse_pose_identity();
        q.pose_f.rotation[2][2] = -1.0f;
        expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a mirroring pose");
        q.pose_f = copse_pose_identity();
        q.pose_f.rotation[0][0] = 1.0f + 4e-5f; /* within COPSE_POSE_TOLERANCE: accepted */
        CHECK_STATUS(cq_any(&tree.bvh, &q, &id), COPSE_OK);
        CHECK_STATUS(cq_distance(&tree.bvh, &q, NULL, &o), COPSE_OK);

        /* negative sizes; bad box rotations; bad convex counts */
        good_query(&q, (orcc_kind)kind);
        if (kind == ORCC_SPHERE || kind == ORCC_CAPSULE) {
            q.sphere.radius = q.capsule.radius = -1.0f;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_EMPTY_RANGE, "a negative radius");
        }
        if (kind == ORCC_OBB) {
            q.obb.half.x = -0.5f;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_EMPTY_RANGE, "a negative half extent");
            good_query(&q, (orcc_kind)kind);
            q.obb.rotation[0][0] = 1.01f;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a box rotation scaled by 1.01");
            good_query(&q, (orcc_kind)kind);
            q.obb.rotation[1][1] = -1.0f;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a mirroring box rotation");
        }
        if (kind == ORCC_HULL) {
            q.convex.count = 0;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a convex set of 0 points");
            if (tk_free_bytes() > (COPSE_CONVEX_MAX_POINTS + 2u) * sizeof(copse_vec3) + 4096u)
                many = (copse_vec3 *)tk_alloc((COPSE_CONVEX_MAX_POINTS + 1u) * sizeof(copse_vec3));
        }
        if (kind == ORCC_HULL && many != NULL) {
            memset(many, 0, (COPSE_CONVEX_MAX_POINTS + 1u) * sizeof(copse_vec3));
            many[0] = copse_v3(1, 1, 0);
            q.convex.points = many;
            q.convex.count = COPSE_CONVEX_MAX_POINTS + 1u;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_PARAM, "a convex set of too many points");
            q.convex.count = COPSE_CONVEX_MAX_POINTS; /* the most: one point, on the square */
            CHECK_STATUS(cq_any(&tree.bvh, &q, &id), COPSE_OK);
            CHECKF(id == 0 || id == 1 || id == 3, "a convex set of %u points on the square: %u",
                   (unsigned)q.convex.count, (unsigned)id);
        }
        if (kind == ORCC_HULL) {
            q.convex.points = NULL;
            q.convex.count = 1;
            expect_refused(&tree.bvh, &q, NULL, COPSE_ERR_NULL, "a convex set without points");
        }
        /* bad distance queries */
        good_query(&q, (orcc_kind)kind);
        dq = (copse_distance_query)COPSE_DISTANCE_QUERY_DEFAULT;
        dq.max_distance = -1.0f;
        expect_refused_distance(&tree.bvh, &q, &dq, COPSE_ERR_EMPTY_RANGE, "a negative max_distance");
        dq.max_distance = FLT_MAX;
        dq.abs_err = -0.5f;
        expect_refused_distance(&tree.bvh, &q, &dq, COPSE_ERR_PARAM, "a negative abs_err");
        dq.abs_err = 0.0f;
        dq.rel_err = -0.5f;
        expect_refused_distance(&tree.bvh, &q, &dq, COPSE_ERR_PARAM, "a negative rel_err");
        dq.rel_err = 0.0f;
        dq.max_distance = NAN;
        {
            copse_status st;
            memset(&o, 0x5A, sizeof o);
            st = cq_distance(&tree.bvh, &q, &dq, &o);
            CHECKF(st != COPSE_OK && o.distance == FLT_MAX && o.tree_id == COPSE_NONE,
                   "errors %s: a NaN max_distance -> %s", kn, copse_status_str(st));
        }
    }
}

/* Size 0: an empty mesh, built, answers nothing (and distance FLT_MAX) for every kind. */
static void test_empty(void)
{
    static const float pos[3] = {0, 0, 0};
    copse_mesh m;
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_bvh bvh;
    copse_arena arena;
    size_t bytes = copse_bvh_build_bytes(0, 3, &p);
    void *mem;
    unsigned kind;
    cq q;
    tk_pool_reset();
    mem = tk_alloc(bytes + 8u);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, bytes + 8u);
    memset(&m, 0, sizeof m);
    m.positions = pos;
    m.vertex_count = 1;
    m.triangle_count = 0;
    if (!CHECK_EQ_INT(copse_bvh_build_mesh(&bvh, &arena, &m, &p), COPSE_OK))
        return;
    for (kind = 0; kind <= (unsigned)ORCC_HULL; kind++) {
        uint32_t id = 3, ids[2];
        copse_id_list list = copse_id_list_make(ids, 2);
        copse_distance o;
        good_query(&q, (orcc_kind)kind);
        CHECK_STATUS(cq_any(&bvh, &q, &id), COPSE_OK);
        CHECK(id == COPSE_NONE);
        if (has_lists(&q)) {
            CHECK_STATUS(cq_overlap(&bvh, &q, &list), COPSE_OK);
            CHECK(list.count == 0 && !list.truncated);
        }
        memset(&o, 0x5A, sizeof o);
        CHECK_STATUS(cq_distance(&bvh, &q, NULL, &o), COPSE_OK);
        CHECKF(o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE,
               "empty tree, %s: distance %.9g id %u", k_kind_names[kind], (double)o.distance, (unsigned)o.tree_id);
    }
}

/* ---- the oracle's own checks ---------------------------------------------------------------------- */

static bool close_to(double got, double want)
{
    return dab(got - want) <= 1e-12 * (1.0 + dab(want));
}

static bool close3(const double *p, double x, double y, double z)
{
    return close_to(p[0], x) && close_to(p[1], y) && close_to(p[2], z);
}

static void set_tri(double (*t)[3], double ax, double ay, double az, double bx, double by, double bz, double cx,
                    double cy, double cz)
{
    t[0][0] = ax;
    t[0][1] = ay;
    t[0][2] = az;
    t[1][0] = bx;
    t[1][1] = by;
    t[1][2] = bz;
    t[2][0] = cx;
    t[2][1] = cy;
    t[2][2] = cz;
}

static void test_oracle_hand(void)
{
    const double r2 = sqrt(2.0), r3 = sqrt(3.0);
    double A[3][3], B[3][3], pa[3], pb[3], d;
    tk_pool_reset();
    double a0[3] = {0, 0, 0}, a1[3] = {2, 0, 0}, b0[3] = {1, -1, 1}, b1[3] = {1, 1, 1};
    unsigned k;

    /* segment against segment */
    d = orcc_segment_segment(a0, a1, b0, b1, pa, pb);
    CHECKF(close_to(d, 1.0) && close3(pa, 1, 0, 0) && close3(pb, 1, 0, 1), "oracle seg-seg skew: %g", d);
    b0[0] = 1, b0[1] = 1, b0[2] = 0, b1[0] = 3, b1[1] = 1, b1[2] = 0;
    CHECK(close_to(orcc_segment_segment(a0, a1, b0, b1, pa, pb), 1.0));
    b0[0] = 1, b0[1] = -1, b0[2] = 0, b1[0] = 1, b1[1] = 1, b1[2] = 0;
    d = orcc_segment_segment(a0, a1, b0, b1, pa, pb);
    CHECKF(d == 0.0 && close3(pa, 1, 0, 0), "oracle seg-seg crossing: %g", d);
    b0[0] = 3, b0[1] = 0, b1[0] = 4, b1[1] = 0;
    CHECK(close_to(orcc_segment_segment(a0, a1, b0, b1, pa, pb), 1.0)); /* collinear, apart */
    b0[0] = 1, b0[1] = 5, b1[0] = 1, b1[1] = 5;
    CHECK(close_to(orcc_segment_segment(a0, a1, b0, b1, pa, pb), 5.0)); /* a point */
    CHECK(close_to(orcc_segment_segment(b0, b0, a0, a0, pa, pb), sqrt(26.0)));

    /* segment against triangle T = (0,0,0) (4,0,0) (0,4,0) */
    set_tri(A, 0, 0, 0, 4, 0, 0, 0, 4, 0);
    {
        double s0[3] = {1, 1, -1}, s1[3] = {1, 1, 1};
        CHECK(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb) == 0.0 && close3(pa, 1, 1, 0));
        s0[2] = 2, s1[0] = 2, s1[2] = 2;
        CHECK(close_to(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb), 2.0));
        s0[2] = 0, s1[0] = 1, s1[2] = 3;
        CHECK(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb) == 0.0); /* an end on the face */
        s0[0] = 5, s0[1] = 1, s0[2] = 0, s1[0] = 5, s1[1] = 3, s1[2] = 0;
        CHECK(close_to(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb), r2)); /* coplanar, apart */
        s1[0] = 1, s1[1] = 1;
        CHECK(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb) == 0.0); /* coplanar, across an edge */
        s0[0] = 6, s0[1] = 6, s0[2] = -1, s1[0] = 6, s1[1] = 6, s1[2] = 1;
        CHECK(close_to(orcc_segment_triangle(s0, s1, (const double(*)[3])A, pa, pb), 4.0 * r2));
        set_tri(B, 0, 0, 0, 2, 0, 0, 4, 0, 0); /* degenerate: a segment */
        s0[0] = 1, s0[1] = -1, s0[2] = 0, s1[0] = 1, s1[1] = 1, s1[2] = 0;
        CHECK(orcc_segment_triangle(s0, s1, (const double(*)[3])B, pa, pb) == 0.0);
        s0[1] = 1, s0[2] = 1, s1[0] = 3, s1[2] = 1;
        CHECK(close_to(orcc_segment_triangle(s0, s1, (const double(*)[3])B, pa, pb), r2));
    }

    /* triangle against triangle */
    set_tri(B, 0, 0, 3, 4, 0, 3, 0, 4, 3);
    CHECK(close_to(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb), 3.0));
    set_tri(B, 1, 1, 0, 1, 1, 5, 2, 1, 5); /* a corner on the face */
    CHECK(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb) == 0.0);
    CHECK(orcc_triangles_meet((const double(*)[3])A, (const double(*)[3])B));
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 0.0) == ORC_YES);
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 1e-3) == ORC_EDGE_YES);
    set_tri(B, 1, 1, -2, 1, 1, 2, 3, 1, 2); /* crossing, 2 deep along z */
    CHECK(orcc_triangles_meet((const double(*)[3])A, (const double(*)[3])B));
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 0.5) == ORC_YES);
    set_tri(B, 3, 3, 1, 10, 3, 1, 3, 10, 1);
    d = orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb);
    CHECKF(close_to(d, r3) && close3(pa, 2, 2, 0) && close3(pb, 3, 3, 1), "oracle tri-tri corner: %g", d);
    set_tri(B, 1, 1, 0, 5, 1, 0, 1, 5, 0); /* coplanar, overlapping */
    CHECK(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb) == 0.0);
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 1e-9) == ORC_EDGE_YES);
    set_tri(B, 3, 3, 0, 6, 3, 0, 3, 6, 0); /* coplanar, apart */
    CHECK(close_to(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb), r2));
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 2.0) == ORC_EDGE_NO);
    CHECK(orcc_triangle_verdict((const double(*)[3])A, (const double(*)[3])B, 1.0) == ORC_NO);
    CHECK(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])A, pa, pb) == 0.0);
    set_tri(B, -1, 2, 1, 5, 2, 1, 2, 2, 1); /* a flat triangle (segment) above: 1 */
    CHECK(close_to(orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb), 1.0));
    set_tri(B, 1, 1, -1, 1, 1, 1, 1, 1, 1); /* a segment through the face */
    CHECK(orcc_triangles_meet((const double(*)[3])A, (const double(*)[3])B));

    /* box [-1, 1]^3 against triangles */
    {
        double half[3] = {1, 1, 1}, flat[3] = {1, 1, 0};
        set_tri(B, -5, -5, 3, 5, -5, 3, 0, 5, 3);
        CHECK(close_to(orcc_box_triangle(half, (const double(*)[3])B, pa, pb), 2.0) && close_to(pa[2], 1.0));
        set_tri(B, -5, -5, 0, 5, -5, 0, 0, 5, 0);
        CHECK(orcc_box_triangle(half, (const double(*)[3])B, pa, pb) == 0.0);
        set_tri(B, 2, 2, -5, 2, 2, 5, 9, 9, 0); /* an edge parallel to the box's */
        CHECK(close_to(orcc_box_triangle(half, (const double(*)[3])B, pa, pb), r2));
        set_tri(B, 2, 2, 2, 9, 2, 2, 2, 9, 2);
        d = orcc_box_triangle(half, (const double(*)[3])B, pa, pb);
        CHECKF(close_to(d, r3) && close3(pa, 1, 1, 1) && close3(pb, 2, 2, 2), "oracle box corner: %g", d);
        set_tri(B, -5, -5, 0, 5, -5, 0, 0, 5, 0);
        CHECK(orcc_box_triangle(flat, (const double(*)[3])B, pa, pb) == 0.0);
        set_tri(B, 3, -1, 0, 3, 1, 0, 3, 0, 1); /* skew to a flat box's edge: 2 */
        CHECK(close_to(orcc_box_triangle(flat, (const double(*)[3])B, pa, pb), 2.0));
    }

    /* hulls: the cube [0, 2]^3, a point, a segment, a square */
    {
        double cube[8][3];
        orcc_shape *s = (orcc_shape *)tk_alloc(sizeof(orcc_shape));
        if (s == NULL)
            return;
        for (k = 0; k < 8; k++) {
            cube[k][0] = (k & 1u) ? 2.0 : 0.0;
            cube[k][1] = (k & 2u) ? 2.0 : 0.0;
            cube[k][2] = (k & 4u) ? 2.0 : 0.0;
        }
        orcc_make_hull(s, (const double(*)[3])cube, 8);
        CHECKF(s->dim == 3 && s->nfaces == 24, "oracle cube: dim %d, %u faces", s->dim, s->nfaces);
        set_tri(B, 3, 0, 0, 3, 2, 0, 3, 0, 2);
        {
            orcc_contact c;
            CHECK(orcc_shape_triangle(s, (const double(*)[3])B, 0.0, &c) == ORC_NO && close_to(c.distance, 1.0));
            set_tri(B, 1, 1, 1, 1.5, 1, 1, 1, 1.5, 1); /* inside */
            CHECK(orcc_shape_triangle(s, (const double(*)[3])B, 0.1, &c) == ORC_YES && c.distance == 0.0);
            CHECK(orcc_hull_triangle_by_pieces(s, (const double(*)[3])B));
            set_tri(B, 3, 3, 3, 4, 3, 3, 3, 4, 3);
            CHECK(orcc_shape_triangle(s, (const double(*)[3])B, 0.0, &c) == ORC_NO && close_to(c.distance, r3));
            CHECK(!orcc_hull_triangle_by_pieces(s, (const double(*)[3])B));
            set_tri(B, 2, 2, 2, 4, 3, 3, 3, 4, 3); /* a corner on the cube's corner */
            CHECK(orcc_shape_triangle(s, (const double(*)[3])B, 0.0, &c) == ORC_YES);
            CHECK(orcc_hull_triangle_by_pieces(s, (const double(*)[3])B));
        }
        pa[0] = pa[1] = pa[2] = 1.0;
        CHECK(orcc_point_shape(pa, s) == 0.0);
        pa[0] = 5.0;
        CHECK(close_to(orcc_point_shape(pa, s), 3.0));
        orcc_make_hull(s, (const double(*)[3])cube, 1);
        CHECK(s->dim == 0);
        orcc_make_hull(s, (const double(*)[3])cube, 2);
        CHECK(s->dim == 1);
        orcc_make_hull(s, (const double(*)[3])cube, 4);
        CHECK(s->dim == 2 && s->nfaces == 4);
        set_tri(B, 1, 1, -1, 1, 1, 1, 3, 3, 1); /* through the square */
        CHECK(orcc_shape_triangle(s, (const double(*)[3])B, 0.0, NULL) == ORC_YES);
        CHECK(orcc_hull_triangle_by_pieces(s, (const double(*)[3])B));
    }

    /* whole meshes: the hand mesh against a sphere above triangle 1 (0.5 away) */
    {
        copse_mesh m;
        copse_sphere sp = {{1, 3, 2}, 1.5f};
        orcc_shape *s = (orcc_shape *)tk_alloc(sizeof(orcc_shape));
        orcc_nearest nr;
        uint8_t verdict[5];
        double core[5];
        if (s == NULL)
            return;
        memset(&m, 0, sizeof m);
        m.positions = k_hand_pos;
        m.vertex_count = 9;
        m.indices = k_hand_ix;
        m.index_type = COPSE_MESH_INDEX_U16;
        m.triangle_count = 5;
        CHECK(orcc_mesh_mag(&m) == 10.0);
        orcc_make_sphere(s, &sp, NULL);
        orcc_mesh_query(&m, s, 0.0, verdict, core, &nr);
        CHECKF(nr.tree_id == 1 && close_to(nr.c.core, 2.0) && close_to(nr.c.distance, 0.5) &&
                   close3(nr.c.tri_point, 1, 3, 0) && verdict[1] == ORC_NO && close_to(core[0], sqrt(6.0)),
               "oracle mesh query: id %u core %g", (unsigned)nr.tree_id, nr.c.core);
        sp.radius = 2.5f;
        orcc_make_sphere(s, &sp, NULL);
        orcc_mesh_query(&m, s, 0.01, verdict, NULL, NULL);
        CHECK(verdict[0] == ORC_YES && verdict[1] == ORC_YES && verdict[2] == ORC_NO && verdict[3] == ORC_YES);
        sp.radius = 2.0f; /* touching triangle 1 exactly: on the band */
        orcc_make_sphere(s, &sp, NULL);
        orcc_mesh_query(&m, s, 0.01, verdict, NULL, NULL);
        CHECK(verdict[1] == ORC_EDGE_YES);
        pa[0] = 1, pa[1] = 3, pa[2] = 1, pb[0] = 1, pb[1] = 3, pb[2] = -1;
        CHECK(orcc_segment_meets_triangle(pa, pb, (const double(*)[3])A, NULL)); /* A: the triangle above */
        pb[2] = 0.5;
        CHECK(!orcc_segment_meets_triangle(pa, pb, (const double(*)[3])A, NULL));
    }

    /* poses: a quarter turn about z, then a shift */
    {
        orcc_pose p, inv, both;
        double q[4] = {0.0, 0.0, sqrt(0.5), sqrt(0.5)}, t[3] = {1, 2, 3}, x[3] = {1, 0, 0}, y[3];
        orcc_pose_from_quat(&p, q, t);
        orcc_pose_apply(&p, x, y);
        CHECKF(dab(y[0] - 1.0) < 1e-15 && dab(y[1] - 3.0) < 1e-15 && dab(y[2] - 3.0) < 1e-15,
               "oracle pose: (%g %g %g)", y[0], y[1], y[2]);
        orcc_pose_invert(&inv, &p);
        orcc_pose_compose(&both, &inv, &p);
        orcc_pose_apply(&both, t, y);
        CHECK(dab(y[0] - 1.0) < 1e-14 && dab(y[1] - 2.0) < 1e-14 && dab(y[2] - 3.0) < 1e-14);
        CHECK(dab(orcc_det3((const double(*)[3])p.r) - 1.0) < 1e-15);
        x[0] = 0.6, x[1] = 0.0, x[2] = 0.8;
        orcc_pose_from_z(&p, x, t);
        CHECK(dab(orcc_det3((const double(*)[3])p.r) - 1.0) < 1e-14 && p.r[0][2] == 0.6 && p.r[2][2] == 0.8);
    }
}

/* Random pairs: the distances are attained by the points returned, no sampled pair is closer,
 * and the overlap tests agree with each other. */
static void test_oracle_random(void)
{
    const unsigned rounds = big_machine() ? 400u : 12u;
    orcc_shape *s;
    test_rng rng;
    unsigned r, i, k, bad_dist = 0, bad_pts = 0, bad_sample = 0, bad_meet = 0, bad_hull = 0, bad_box = 0;
    tk_pool_reset();
    s = (orcc_shape *)tk_alloc(sizeof(orcc_shape));
    if (s == NULL)
        return;
    test_rng_seed(&rng, 4242u);
    for (r = 0; r < rounds; r++) {
        double A[3][3], B[3][3], pa[3], pb[3], d, tmp[3], gap;
        double scale = r % 3u == 0 ? 1.0 : 5.0;
        for (i = 0; i < 3; i++)
            for (k = 0; k < 3; k++) {
                A[i][k] = r % 4u == 0 ? (double)(int)rnd(&rng, -4.0, 4.0) : rnd(&rng, -scale, scale);
                B[i][k] = r % 4u == 0 ? (double)(int)rnd(&rng, -4.0, 4.0) : rnd(&rng, -scale, scale) + 1.0;
            }
        d = orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb);
        bad_dist += !close_to(orc_dist(pa, pb), d);
        bad_pts += orc_closest_triangle(pa, A[0], A[1], A[2], tmp) > 1e-9 ||
                   orc_closest_triangle(pb, B[0], B[1], B[2], tmp) > 1e-9;
        bad_meet += orcc_triangles_meet((const double(*)[3])A, (const double(*)[3])B) != (d == 0.0);
        for (i = 0; i < 64u; i++) { /* no sampled pair is closer */
            double u = rnd(&rng, 0, 1), v = rnd(&rng, 0, 1), x[3], y[3];
            if (u + v > 1.0)
                u = 1.0 - u, v = 1.0 - v;
            for (k = 0; k < 3; k++)
                x[k] = A[0][k] + u * (A[1][k] - A[0][k]) + v * (A[2][k] - A[0][k]);
            u = rnd(&rng, 0, 1), v = rnd(&rng, 0, 1);
            if (u + v > 1.0)
                u = 1.0 - u, v = 1.0 - v;
            for (k = 0; k < 3; k++)
                y[k] = B[0][k] + u * (B[1][k] - B[0][k]) + v * (B[2][k] - B[0][k]);
            bad_sample += orc_dist(x, y) < d - 1e-12;
        }
        /* the separating-axis gap is a lower bound of the distance, and none when they meet */
        {
            double axes[1][3];
            orc_sub(tmp, pb, pa);
            memcpy(axes[0], tmp, sizeof tmp);
            gap = d > 0.0 ? orcc_sat((const double(*)[3])A, 3, (const double(*)[3])B, 3, (const double(*)[3])axes, 1)
                          : 0.0;
            bad_dist += d > 0.0 && !close_to(gap, d); /* along the closest points' direction: the distance */
        }
        /* a box [-h, h] against B */
        {
            double half[3], bx[3], by[3], db;
            copse_obb obb;
            orcc_contact c;
            orc_verdict v;
            for (k = 0; k < 3; k++)
                half[k] = r % 5u == 0 && k == r % 3u ? 0.0 : rnd(&rng, 0.0, 2.0);
            db = orcc_box_triangle(half, (const double(*)[3])B, bx, by);
            bad_box += !close_to(orc_dist(bx, by), db);
            for (k = 0; k < 3; k++)
                bad_box += bx[k] > half[k] + 1e-12 || bx[k] < -half[k] - 1e-12;
            bad_box += orc_closest_triangle(by, B[0], B[1], B[2], tmp) > 1e-9;
            for (i = 0; i < 64u; i++) {
                double x[3], u = rnd(&rng, 0, 1), w = rnd(&rng, 0, 1);
                for (k = 0; k < 3; k++)
                    x[k] = rnd(&rng, -half[k], half[k]);
                if (u + w > 1.0)
                    u = 1.0 - u, w = 1.0 - w;
                for (k = 0; k < 3; k++)
                    tmp[k] = B[0][k] + u * (B[1][k] - B[0][k]) + w * (B[2][k] - B[0][k]);
                bad_sample += orc_dist(x, tmp) < db - 1e-12;
            }
            /* the same box as a posed shape: the verdict's "meets" agrees with a box corner or
             * triangle point inside, when clear */
            memset(&obb, 0, sizeof obb);
            obb.half = copse_v3((float)half[0], (float)half[1], (float)half[2]);
            obb.rotation[0][0] = obb.rotation[1][1] = obb.rotation[2][2] = 1.0f;
            orcc_make_obb(s, &obb, NULL);
            v = orcc_shape_triangle(s, (const double(*)[3])B, 1e-9, &c);
            bad_box += !orc_fragile(v) && orc_exact(v) != (db == 0.0) && (double)(float)half[0] == half[0];
        }
        /* a hull of 1..8 points against A: by pieces, as the verdict says */
        {
            double pts[8][3];
            unsigned n = 1u + test_rng_below(&rng, 8);
            orcc_contact c;
            orc_verdict v;
            for (i = 0; i < n; i++)
                for (k = 0; k < 3; k++)
                    pts[i][k] = rnd(&rng, -2.0, 2.0) + 1.5;
            orcc_make_hull(s, (const double(*)[3])pts, n);
            v = orcc_shape_triangle(s, (const double(*)[3])A, 1e-9, &c);
            bad_hull += !orc_fragile(v) && orc_exact(v) != orcc_hull_triangle_by_pieces(s, (const double(*)[3])A);
            bad_hull += !orc_exact(v) && (!close_to(orc_dist(c.shape_point, c.tri_point), c.distance) ||
                                          orcc_point_shape(c.shape_point, s) > 1e-9);
            for (i = 0; i < 32u && !orc_exact(v); i++) { /* convex combinations are no closer */
                double x[3] = {0, 0, 0}, wsum = 0.0, wt[8];
                for (k = 0; k < n; k++)
                    wsum += wt[k] = rnd(&rng, 0.0, 1.0);
                for (k = 0; k < n; k++) {
                    x[0] += pts[k][0] * wt[k] / wsum;
                    x[1] += pts[k][1] * wt[k] / wsum;
                    x[2] += pts[k][2] * wt[k] / wsum;
                }
                bad_sample += orc_closest_triangle(x, A[0], A[1], A[2], tmp) < c.distance - 1e-12;
                bad_hull += orcc_point_shape(x, s) > 1e-9;
            }
        }
    }
    CHECKF(bad_dist == 0 && bad_pts == 0, "oracle: %u distances not attained, %u points off", bad_dist, bad_pts);
    CHECKF(bad_sample == 0, "oracle: %u sampled pairs closer than the distance", bad_sample);
    CHECKF(bad_meet == 0, "oracle: %u pairs where meeting and distance 0 disagree", bad_meet);
    CHECKF(bad_box == 0, "oracle: %u box checks failed", bad_box);
    CHECKF(bad_hull == 0, "oracle: %u hull checks failed", bad_hull);
}

static void report(void)
{
    copse_port_printf("info collide_bvh: %lu distances against the oracle; worst error in FLT_EPSILON * M (allowed "
                      "%.0f): sphere %.1f, capsule %.1f, obb %.1f, triangle %.1f, convex %.1f; at 1e6: %.1f, %.1f, "
                      "%.1f, %.1f, %.1f\n",
                      g_dist_checks, DIST_K, g_worst_k[0], g_worst_k[1], g_worst_k[2], g_worst_k[3], g_worst_k[4],
                      g_worst_k_huge[0], g_worst_k_huge[1], g_worst_k_huge[2], g_worst_k_huge[3], g_worst_k_huge[4]);
    copse_port_printf("info collide_bvh: %lu exact contacts (shared corners, box corners on a triangle) demanded\n",
                      g_must);
}

void suite_collide_bvh(void)
{
    test_run("collide_bvh/oracle_hand", test_oracle_hand);
    test_run("collide_bvh/oracle_random", test_oracle_random);
    test_run("collide_bvh/hand", test_hand);
    test_run("collide_bvh/empty", test_empty);
    test_run("collide_bvh/errors", test_errors);
    test_run("collide_bvh/sphere", test_sphere);
    test_run("collide_bvh/capsule", test_capsule);
    test_run("collide_bvh/obb", test_obb);
    test_run("collide_bvh/triangle", test_triangle);
    test_run("collide_bvh/convex", test_convex);
    test_run("collide_bvh/huge", test_huge);
    tk_tally_report("collide_bvh");
    report();
}

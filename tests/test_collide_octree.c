/* SPDX-License-Identifier: MIT */
/*
 * Posed shapes and meshes against a point octree (collide.h), judged against brute force over
 * every point in double (oracle/oracle_points.h), written from the header's contract alone:
 *
 *   - copse_octree_any_{sphere,capsule,obb,triangle,convex}, _overlap_ / _visit_{obb,triangle,
 *     convex}: the id set against the oracle's closed sets, boundary-band excusals counted (kit
 *     tallies); visitor order = list order, early stop, truncation, zero capacity; any agrees
 *     with the list;
 *   - copse_distance_{sphere,capsule,obb,triangle,convex}_octree: the distance within
 *     DIST_K * FLT_EPSILON * M of the oracle (M: the coordinates' magnitude), tree_point is the
 *     reported point, shape_point lies on the shape, depth and normal, ties to the lower id,
 *     max_distance, first_within, abs_err / rel_err;
 *   - copse_distance_bvh_octree, copse_octree_overlap_bvh / _visit_bvh: a posed mesh against a
 *     scan;
 *   - every cloud kind of the octree kit, sizes 0, 1, 2, leaf+1 and one from the machine's
 *     memory, the kit's leaf and bucket sizes, trees built in bulk, by inserts, and views of
 *     their saved blobs (which must answer exactly as the tree they were saved from);
 *   - constructed scenes on an integer grid where every double operation is exact, so the
 *     closed sets are decided with no band: points on box faces, on triangles and their edges,
 *     on convex hulls' faces, at exactly a radius from a sphere or capsule;
 *   - bad input: statuses and emptied outputs.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "copse/collide.h"
#include "oracle/oracle_points.h"
#include "suites.h"
#include "test_octree.h"

#define DIST_K 64.0 /* distances: within this many float epsilons of the coordinates' magnitude */
#define BAND_K 32.0 /* closed sets: the boundary band, in float epsilons of the magnitude */

static bool big_machine(void)
{
    return test_memory_bytes() >= ((size_t)32u << 20);
}

/* The worst distance error seen per shape (the mesh last), in FLT_EPSILON * M, and where. */
#define WORST_SLOTS 6u
static double g_worst[WORST_SLOTS];
static char g_worst_ctx[80];
static unsigned g_described;

static void note_error(unsigned slot, double e)
{
    if (e > g_worst[slot]) {
        unsigned k;
        bool top = true;
        for (k = 0; k < WORST_SLOTS; k++)
            top = top && e > g_worst[k];
        g_worst[slot] = e;
        if (top)
            (void)copse_port_snprintf(g_worst_ctx, sizeof g_worst_ctx, "%s", tk_ctx());
    }
}

/* ---- query shapes --------------------------------------------------------------------------- */

typedef enum q_kind { Q_SPHERE, Q_CAPSULE, Q_OBB, Q_TRIANGLE, Q_CONVEX, Q_KINDS } q_kind;
static const char *const k_kind_names[Q_KINDS] = {"sphere", "capsule", "obb", "triangle", "convex"};

typedef struct cq {
    q_kind kind;
    copse_sphere sphere;
    copse_capsule capsule;
    copse_obb obb;
    copse_triangle tri;
    copse_vec3 hull[ORP_MAX_HULL];
    uint32_t hull_count;
    copse_pose pose;
    bool posed; /* false: a NULL pose */
    bool exact; /* constructed: the oracle decides with no band, ties are exact */
    bool edge;  /* centred on a point of the cloud: its excusals are expected (tk_tally edge_excused) */
} cq;

static const copse_pose *cq_pose(const cq *q)
{
    return q->posed ? &q->pose : NULL;
}

static float q_radius(const cq *q)
{
    return q->kind == Q_SPHERE ? q->sphere.radius : q->kind == Q_CAPSULE ? q->capsule.radius : 0.0f;
}

static copse_convex cq_convex(const cq *q)
{
    copse_convex c;
    c.points = q->hull;
    c.count = q->hull_count;
    return c;
}

static bool cq_core(const cq *q)
{
    return q->kind == Q_SPHERE || q->kind == Q_CAPSULE;
}

static void cq_oracle(const cq *q, orp_shape *s)
{
    switch (q->kind) {
    case Q_SPHERE:
        orp_sphere(s, &q->sphere, cq_pose(q));
        break;
    case Q_CAPSULE:
        orp_capsule(s, &q->capsule, cq_pose(q));
        break;
    case Q_OBB:
        orp_obb(s, &q->obb, cq_pose(q));
        break;
    case Q_TRIANGLE:
        orp_triangle(s, &q->tri, cq_pose(q));
        break;
    case Q_CONVEX:
    default:
        orp_hull(s, q->hull, q->hull_count, cq_pose(q));
        break;
    }
}

static copse_status cq_any(const copse_octree *t, const cq *q, uint32_t *id)
{
    copse_convex cv = cq_convex(q);
    switch (q->kind) {
    case Q_SPHERE:
        return copse_octree_any_sphere(t, &q->sphere, cq_pose(q), id);
    case Q_CAPSULE:
        return copse_octree_any_capsule(t, &q->capsule, cq_pose(q), id);
    case Q_OBB:
        return copse_octree_any_obb(t, &q->obb, cq_pose(q), id);
    case Q_TRIANGLE:
        return copse_octree_any_triangle(t, &q->tri, cq_pose(q), id);
    case Q_CONVEX:
    default:
        return copse_octree_any_convex(t, &cv, cq_pose(q), id);
    }
}

static bool cq_has_list(const cq *q)
{
    return q->kind == Q_OBB || q->kind == Q_TRIANGLE || q->kind == Q_CONVEX;
}

static copse_status cq_overlap(const copse_octree *t, const cq *q, copse_id_list *out)
{
    copse_convex cv = cq_convex(q);
    if (q->kind == Q_OBB)
        return copse_octree_overlap_obb(t, &q->obb, cq_pose(q), out);
    if (q->kind == Q_TRIANGLE)
        return copse_octree_overlap_triangle(t, &q->tri, cq_pose(q), out);
    return copse_octree_overlap_convex(t, &cv, cq_pose(q), out);
}

static copse_status cq_visit(const copse_octree *t, const cq *q, copse_id_visitor visit, void *user)
{
    copse_convex cv = cq_convex(q);
    if (q->kind == Q_OBB)
        return copse_octree_visit_obb(t, &q->obb, cq_pose(q), visit, user);
    if (q->kind == Q_TRIANGLE)
        return copse_octree_visit_triangle(t, &q->tri, cq_pose(q), visit, user);
    return copse_octree_visit_convex(t, &cv, cq_pose(q), visit, user);
}

static copse_status cq_distance(const cq *q, const copse_octree *t, const copse_distance_query *dq,
                                copse_distance *out)
{
    copse_convex cv = cq_convex(q);
    switch (q->kind) {
    case Q_SPHERE:
        return copse_distance_sphere_octree(&q->sphere, cq_pose(q), t, dq, out);
    case Q_CAPSULE:
        return copse_distance_capsule_octree(&q->capsule, cq_pose(q), t, dq, out);
    case Q_OBB:
        return copse_distance_obb_octree(&q->obb, cq_pose(q), t, dq, out);
    case Q_TRIANGLE:
        return copse_distance_triangle_octree(&q->tri, cq_pose(q), t, dq, out);
    case Q_CONVEX:
    default:
        return copse_distance_convex_octree(&cv, cq_pose(q), t, dq, out);
    }
}

static void print3(const char *name, const copse_vec3 *v)
{
    copse_port_printf(" %s=(%.9g, %.9g, %.9g)", name, (double)v->x, (double)v->y, (double)v->z);
}

/* After a failed check: the query, exactly, so it can be replayed. */
static void cq_describe(const cq *q)
{
    unsigned i;
    if (g_described++ >= 4u)
        return;
    copse_port_printf("    %s:", k_kind_names[q->kind]);
    switch (q->kind) {
    case Q_SPHERE:
        print3("c", &q->sphere.center);
        copse_port_printf(" r=%.9g", (double)q->sphere.radius);
        break;
    case Q_CAPSULE:
        print3("a", &q->capsule.segment.a);
        print3("b", &q->capsule.segment.b);
        copse_port_printf(" r=%.9g", (double)q->capsule.radius);
        break;
    case Q_OBB:
        print3("c", &q->obb.center);
        print3("half", &q->obb.half);
        copse_port_printf(" rot=(%.9g %.9g %.9g / %.9g %.9g %.9g / %.9g %.9g %.9g)", (double)q->obb.rotation[0][0],
                          (double)q->obb.rotation[0][1], (double)q->obb.rotation[0][2], (double)q->obb.rotation[1][0],
                          (double)q->obb.rotation[1][1], (double)q->obb.rotation[1][2], (double)q->obb.rotation[2][0],
                          (double)q->obb.rotation[2][1], (double)q->obb.rotation[2][2]);
        break;
    case Q_TRIANGLE:
        print3("a", &q->tri.a);
        print3("b", &q->tri.b);
        print3("c", &q->tri.c);
        break;
    case Q_CONVEX:
    default:
        for (i = 0; i < q->hull_count; i++)
            print3("p", &q->hull[i]);
        break;
    }
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

/* ---- scans: the points, their trees, an id -> index map --------------------------------------- */

typedef struct idmap {
    uint32_t id, index;
} idmap;

typedef struct scan {
    const copse_vec3 *pts;
    const uint32_t *ids;
    uint32_t n; /* points 0..n-1, all of them in every tree */
    idmap *map; /* sorted by id */
    const copse_octree *tree[2];
    const char *name[2];
    unsigned ntrees;
    bool view;      /* tree[1] is a view of tree[0]'s blob: the same answers, bit for bit */
    double mag;     /* the largest |coordinate| */
    float mn[3];    /* the points' bounds, grown */
    float mx[3];
    float size;     /* the largest extent, at least 1 */
} scan;

static uint32_t scan_id(const scan *sc, uint32_t i)
{
    return sc->ids != NULL ? sc->ids[i] : i;
}

static uint32_t scan_index(const scan *sc, uint32_t id)
{
    uint32_t lo = 0, hi = sc->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (sc->map[mid].id < id)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo < sc->n && sc->map[lo].id == id ? sc->map[lo].index : COPSE_NONE;
}

static bool scan_init(scan *sc, const copse_vec3 *pts, const uint32_t *ids, uint32_t n)
{
    uint32_t i, gap, j;
    unsigned a;
    memset(sc, 0, sizeof *sc);
    sc->pts = pts;
    sc->ids = ids;
    sc->n = n;
    sc->map = (idmap *)tk_alloc(sizeof(idmap) * (n + 1u));
    if (sc->map == NULL)
        return false;
    for (i = 0; i < n; i++) {
        sc->map[i].id = scan_id(sc, i);
        sc->map[i].index = i;
    }
    for (gap = n / 2u; gap > 0u; gap /= 2u)
        for (i = gap; i < n; i++)
            for (j = i; j >= gap && sc->map[j - gap].id > sc->map[j].id; j -= gap) {
                idmap t = sc->map[j];
                sc->map[j] = sc->map[j - gap];
                sc->map[j - gap] = t;
            }
    for (a = 0; a < 3; a++) {
        sc->mn[a] = n > 0u ? FLT_MAX : -1.0f;
        sc->mx[a] = n > 0u ? -FLT_MAX : 1.0f;
    }
    for (i = 0; i < n; i++) {
        float p[3];
        p[0] = pts[i].x;
        p[1] = pts[i].y;
        p[2] = pts[i].z;
        for (a = 0; a < 3; a++) {
            sc->mn[a] = p[a] < sc->mn[a] ? p[a] : sc->mn[a];
            sc->mx[a] = p[a] > sc->mx[a] ? p[a] : sc->mx[a];
            sc->mag = fmax(sc->mag, fabs((double)p[a]));
        }
    }
    sc->size = 1.0f;
    for (a = 0; a < 3; a++)
        sc->size = sc->mx[a] - sc->mn[a] > sc->size ? sc->mx[a] - sc->mn[a] : sc->size;
    for (a = 0; a < 3; a++) {
        sc->mn[a] -= 0.2f * sc->size;
        sc->mx[a] += 0.2f * sc->size;
    }
    return true;
}

static void point_d(const copse_vec3 *v, double *out)
{
    out[0] = (double)v->x;
    out[1] = (double)v->y;
    out[2] = (double)v->z;
}

static bool same_point(const copse_vec3 *a, const copse_vec3 *b)
{
    return a->x == b->x && a->y == b->y && a->z == b->z;
}

/* ---- random shapes ------------------------------------------------------------------------------- */

static copse_vec3 rand3(test_rng *rng, float lo, float hi)
{
    copse_vec3 v;
    v.x = test_rng_float(rng, lo, hi);
    v.y = test_rng_float(rng, lo, hi);
    v.z = test_rng_float(rng, lo, hi);
    return v;
}

static copse_vec3 add3(copse_vec3 a, copse_vec3 b)
{
    return copse_v3(a.x + b.x, a.y + b.y, a.z + b.z);
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

/* A shape of `kind` around the scan (on one of its points a third of the time), posed half the
 * time: then given in its own frame around the origin. */
static void random_cq(cq *q, q_kind kind, const scan *sc, test_rng *rng)
{
    float s = sc->size;
    copse_vec3 c, lc;
    uint32_t i;
    memset(q, 0, sizeof *q);
    q->kind = kind;
    if (sc->n > 0u && test_rng_below(rng, 3) == 0u) {
        c = sc->pts[test_rng_below(rng, sc->n)];
        q->edge = true;
    } else {
        c.x = test_rng_float(rng, sc->mn[0], sc->mx[0]);
        c.y = test_rng_float(rng, sc->mn[1], sc->mx[1]);
        c.z = test_rng_float(rng, sc->mn[2], sc->mx[2]);
    }
    q->posed = test_rng_below(rng, 2) == 1u;
    if (q->posed) {
        random_rotation(rng, q->pose.rotation);
        q->pose.translation = c;
        lc = rand3(rng, -0.1f * s, 0.1f * s);
    } else {
        q->pose = copse_pose_identity();
        lc = c;
    }
    switch (kind) {
    case Q_SPHERE:
        q->sphere.center = lc;
        q->sphere.radius = test_rng_below(rng, 8) == 0u ? 0.0f : s * test_rng_float(rng, 0.0f, 0.3f);
        break;
    case Q_CAPSULE: {
        copse_vec3 d = rand3(rng, -0.3f * s, 0.3f * s);
        q->capsule.segment.a = add3(lc, d);
        q->capsule.segment.b = test_rng_below(rng, 6) == 0u ? q->capsule.segment.a : add3(lc, copse_v3(-d.x, -d.y, -d.z));
        q->capsule.radius = test_rng_below(rng, 8) == 0u ? 0.0f : s * test_rng_float(rng, 0.0f, 0.15f);
        break;
    }
    case Q_OBB:
        q->obb.center = lc;
        q->obb.half = rand3(rng, 0.0f, 0.3f * s);
        if (test_rng_below(rng, 8) == 0u)
            q->obb.half.z = 0.0f; /* a rectangle */
        if (test_rng_below(rng, 16) == 0u)
            q->obb.half = copse_v3(0.0f, 0.0f, 0.0f); /* a point */
        if (test_rng_below(rng, 2) == 0u)
            random_rotation(rng, q->obb.rotation);
        else
            set_identity(q->obb.rotation);
        break;
    case Q_TRIANGLE:
        q->tri.a = add3(lc, rand3(rng, -0.4f * s, 0.4f * s));
        q->tri.b = add3(lc, rand3(rng, -0.4f * s, 0.4f * s));
        q->tri.c = add3(lc, rand3(rng, -0.4f * s, 0.4f * s));
        if (test_rng_below(rng, 8) == 0u)
            q->tri.c = test_rng_below(rng, 2) ? q->tri.a : q->tri.b; /* a segment */
        break;
    case Q_CONVEX:
    default:
        q->hull_count = 1u + test_rng_below(rng, ORP_MAX_HULL);
        for (i = 0; i < q->hull_count; i++)
            q->hull[i] = add3(lc, rand3(rng, -0.3f * s, 0.3f * s));
        break;
    }
}

/* ---- judging one query against every tree of a scan ---------------------------------------------- */

typedef struct oracle_answer {
    uint8_t *verdict; /* orc_verdict per point index */
    float *key;       /* spheres and capsules: distance to the core minus the radius; else the distance
                       * (float: the judges' arrays must fit a 16 KB machine; ties compare keys only
                       * in constructed scenes, whose keys are exact) */
    float *depth;     /* how deep inside */
    double tol, band, mag;
    bool edge;        /* the query was built on a boundary on purpose */
    uint32_t best;    /* the nearest point's index (lowest id among equal keys), COPSE_NONE if none */
    double best_key;  /* its key, in double */
} oracle_answer;

static void oracle_points(const scan *sc, const cq *q, const orp_shape *s, oracle_answer *o)
{
    uint32_t i;
    double best_key = HUGE_VAL;
    o->mag = fmax(sc->mag, orp_scale(s));
    o->tol = DIST_K * ORC_FLT_EPS * o->mag;
    o->band = q->exact ? 0.0 : BAND_K * ORC_FLT_EPS * o->mag;
    o->edge = q->edge;
    o->best = COPSE_NONE;
    for (i = 0; i < sc->n; i++) {
        double p[3], c[3], key;
        point_d(&sc->pts[i], p);
        o->verdict[i] = (uint8_t)orp_point_in(s, p, o->band);
        key = cq_core(q) ? orp_core_distance(s, p, c) - s->radius : orp_point_distance(s, p, c);
        if (o->best == COPSE_NONE || key < best_key || (key == best_key && scan_id(sc, i) < scan_id(sc, o->best))) {
            o->best = i;
            best_key = key;
        }
        o->key[i] = (float)key;
        o->depth[i] = (float)orp_depth(s, p);
    }
    o->best_key = best_key;
}

/* Does the reported membership of point i agree with the oracle? Counts the band's excusals. */
static bool agrees(const oracle_answer *o, uint32_t i, bool reported)
{
    orc_verdict v = (orc_verdict)o->verdict[i];
    tk_tally_now.comparisons++;
    if (reported == orc_exact(v))
        return true;
    if (orc_fragile(v)) {
        if (o->edge)
            tk_tally_now.edge_excused++;
        else
            tk_tally_now.excused++;
        return true;
    }
    return false;
}

/* A set query in its two forms, for judge_list. */
typedef struct lister {
    copse_status (*overlap)(const void *ctx, const copse_octree *t, copse_id_list *out);
    copse_status (*visit)(const void *ctx, const copse_octree *t, copse_id_visitor visit, void *user);
    const void *ctx;
    const char *what;
} lister;

/* Every tree's list against the oracle's verdicts; the visitor, early stops, truncation; a view
 * lists what its tree lists, in the same order. count[t]: what tree t listed. False when a
 * list disagreed with the oracle. got: n + 1 ids; first: 2 (n + 1); seen: n + 1 bytes. */
static bool judge_list(const scan *sc, const oracle_answer *o, const lister *l, uint32_t *got, uint32_t *first,
                       uint8_t *seen, uint32_t *count)
{
    unsigned t;
    uint32_t first_count = 0;
    bool all_ok = true;
    for (t = 0; t < sc->ntrees; t++) {
        const copse_octree *tree = sc->tree[t];
        uint32_t i, k;
        copse_status st;
        bool ok;
        copse_id_list list;
        ot_collect c;
        /* the array form, room for all */
        list = copse_id_list_make(got, sc->n + 1u);
        st = l->overlap(l->ctx, tree, &list);
        memset(seen, 0, sc->n + 1u);
        ok = st == COPSE_OK && !list.truncated && list.count <= sc->n;
        for (k = 0; ok && k < list.count; k++) {
            i = scan_index(sc, got[k]);
            ok = i != COPSE_NONE && !seen[i] && agrees(o, i, true);
            if (ok)
                seen[i] = 1;
        }
        for (i = 0; ok && i < sc->n; i++)
            if (!seen[i])
                ok = agrees(o, i, false);
        count[t] = list.count;
        if (!CHECKF(ok, "%s %s: %s: %s, %u listed (first wrong: id %u)", tk_ctx(), sc->name[t], l->what,
                    copse_status_str(st), (unsigned)list.count, k > 0u && k <= list.count ? (unsigned)got[k - 1u] : 0u)) {
            all_ok = false;
            continue;
        }
        if (t == 0u) {
            memcpy(first, got, 4u * (size_t)list.count);
            first_count = list.count;
        } else if (sc->view) {
            CHECKF(list.count == first_count && memcmp(first, got, 4u * (size_t)list.count) == 0,
                   "%s: %s on the view: %u ids, the tree %u", tk_ctx(), l->what, (unsigned)list.count,
                   (unsigned)first_count);
        }
        /* the visitor sees the list, in its order (collected past the first tree's answer) */
        c.ids = first + first_count;
        c.cap = 2u * (sc->n + 1u) - first_count;
        c.count = 0;
        c.stop_after = 0xFFFFFFFFu;
        st = l->visit(l->ctx, tree, ot_collect_id, &c);
        k = c.count < c.cap ? c.count : c.cap;
        CHECKF(st == COPSE_OK && c.count == list.count && memcmp(c.ids, got, 4u * (size_t)k) == 0,
               "%s %s: %s visitor saw %u, the list %u", tk_ctx(), sc->name[t], l->what, (unsigned)c.count,
               (unsigned)list.count);
        if (list.count >= 2u) {
            uint32_t one[1] = {COPSE_NONE};
            c.count = 0;
            c.stop_after = 1;
            CHECKF(l->visit(l->ctx, tree, ot_collect_id, &c) == COPSE_OK && c.count == 1u,
                   "%s %s: %s visitor did not stop", tk_ctx(), sc->name[t], l->what);
            list = copse_id_list_make(one, 1);
            CHECKF(l->overlap(l->ctx, tree, &list) == COPSE_OK && list.count == 1u && list.truncated && one[0] == got[0],
                   "%s %s: %s truncated list", tk_ctx(), sc->name[t], l->what);
        }
        k = count[t];
        list = copse_id_list_make(NULL, 0);
        CHECKF(l->overlap(l->ctx, tree, &list) == COPSE_OK && list.count == 0u && list.truncated == (k > 0u),
               "%s %s: %s zero-capacity list", tk_ctx(), sc->name[t], l->what);
    }
    return all_ok;
}

static copse_status cq_overlap_ctx(const void *ctx, const copse_octree *t, copse_id_list *out)
{
    return cq_overlap(t, (const cq *)ctx, out);
}

static copse_status cq_visit_ctx(const void *ctx, const copse_octree *t, copse_id_visitor visit, void *user)
{
    return cq_visit(t, (const cq *)ctx, visit, user);
}

static void judge_sets(const scan *sc, const cq *q, const oracle_answer *o, uint32_t *got, uint32_t *first,
                       uint8_t *seen)
{
    uint32_t any[2] = {COPSE_NONE, COPSE_NONE}, count[2] = {0, 0};
    unsigned t;
    for (t = 0; t < sc->ntrees; t++) {
        uint32_t id = 12345u, i;
        copse_status st = cq_any(sc->tree[t], q, &id);
        bool ok = st == COPSE_OK;
        if (ok && id != COPSE_NONE) {
            i = scan_index(sc, id);
            ok = i != COPSE_NONE && agrees(o, i, true);
        } else if (ok) { /* none: every point judged out */
            for (i = 0; i < sc->n && ok; i++)
                ok = agrees(o, i, false);
        }
        any[t] = id;
        if (!CHECKF(ok, "%s %s: %s any: %s, id %u", tk_ctx(), sc->name[t], k_kind_names[q->kind],
                    copse_status_str(st), (unsigned)id))
            cq_describe(q);
    }
    if (cq_has_list(q)) {
        lister l;
        char what[32];
        (void)copse_port_snprintf(what, sizeof what, "%s overlap", k_kind_names[q->kind]);
        l.overlap = cq_overlap_ctx;
        l.visit = cq_visit_ctx;
        l.ctx = q;
        l.what = what;
        if (!judge_list(sc, o, &l, got, first, seen, count))
            cq_describe(q);
        for (t = 0; t < sc->ntrees; t++)
            CHECKF((any[t] != COPSE_NONE) == (count[t] > 0u), "%s %s: %s any says %u, the list has %u", tk_ctx(),
                   sc->name[t], k_kind_names[q->kind], (unsigned)any[t], (unsigned)count[t]);
    }
}

static double len3(const copse_vec3 *v)
{
    return sqrt((double)v->x * (double)v->x + (double)v->y * (double)v->y + (double)v->z * (double)v->z);
}

static bool is_none(const copse_distance *d)
{
    return d->distance == FLT_MAX && d->tree_id == COPSE_NONE && d->shape_id == COPSE_NONE;
}

/* What holds for any reported pair: the point is the tree's, shape_point lies on the shape, the
 * distance is the pair's, depth and normal as collide.h says. *index: the point's index. */
static bool check_pair(const scan *sc, const cq *q, const orp_shape *s, const oracle_answer *o,
                       const copse_distance *d, uint32_t *index)
{
    double tp[3], sp[3], c[3], w[3], gap, nl = len3(&d->normal), tol = o->tol, on, want_depth;
    uint32_t i = scan_index(sc, d->tree_id);
    bool core = cq_core(q), on_core;
    *index = i;
    if (i == COPSE_NONE || d->shape_id != COPSE_NONE || !same_point(&d->tree_point, &sc->pts[i]))
        return CHECKF(false, "%s: %s reported id %u (index %u), shape_id %u, tree_point not the point's",
                      tk_ctx(), k_kind_names[q->kind], (unsigned)d->tree_id, (unsigned)i, (unsigned)d->shape_id);
    point_d(&d->tree_point, tp);
    point_d(&d->shape_point, sp);
    gap = orc_dist(tp, sp);
    on = orp_point_distance(s, sp, c);
    want_depth = core ? fmax(0.0, -(double)o->key[i]) : 0.0;
    /* a core on the point itself: no direction, so the deepest point of the shape is open */
    on_core = core && (double)o->key[i] + s->radius <= tol;
    note_error(q->kind, fabs((double)d->distance - fmax(0.0, (double)o->key[i])) / (ORC_FLT_EPS * o->mag));
    note_error(q->kind, fabs((double)d->depth - want_depth) / (ORC_FLT_EPS * o->mag));
    if (!CHECKF(fabs((double)d->distance - fmax(0.0, (double)o->key[i])) <= tol && on <= tol &&
                    fabs((double)d->depth - want_depth) <= tol &&
                    (on_core || fabs(gap - (d->depth > 0.0f ? (double)d->depth : (double)d->distance)) <= tol),
                "%s: %s pair with point %u: distance %.9g (its oracle distance %.9g), depth %.9g (%.9g), shape_point "
                "%.3g off the shape, points %.9g apart (tol %.3g)",
                tk_ctx(), k_kind_names[q->kind], (unsigned)d->tree_id, (double)d->distance, fmax(0.0, (double)o->key[i]),
                (double)d->depth, want_depth, on, gap, tol))
        return false;
    /* a point inside a box or convex set by more than the band overlaps it: distance 0 exactly */
    if (!core && !CHECKF((double)o->depth[i] <= o->band || d->distance == 0.0f,
                         "%s: %s point %u is %.9g inside the shape; its distance is %.9g, not 0", tk_ctx(),
                         k_kind_names[q->kind], (unsigned)d->tree_id, (double)o->depth[i], (double)d->distance))
        return false;
    /* the normal: from the point toward the shape (its core for spheres and capsules) */
    if (core) {
        orc_closest_segment(tp, s->p[0], s->p[s->count - 1u], c);
        orc_sub(w, c, tp);
    } else {
        orc_sub(w, sp, tp);
    }
    if (orc_len(w) > 1000.0 * tol) {
        double nd[3];
        point_d(&d->normal, nd);
        if (!CHECKF(fabs(nl - 1.0) <= 1e-5 && orc_dot(nd, w) >= 0.999 * orc_len(w),
                    "%s: %s normal (%.9g, %.9g, %.9g) is not the unit direction (%.9g, %.9g, %.9g)", tk_ctx(),
                    k_kind_names[q->kind], (double)d->normal.x, (double)d->normal.y, (double)d->normal.z,
                    w[0] / orc_len(w), w[1] / orc_len(w), w[2] / orc_len(w)))
            return false;
        if (core) { /* the shape point: the nearest, or the deepest, along the normal */
            unsigned k;
            double want[3];
            for (k = 0; k < 3; k++)
                want[k] = c[k] - s->radius * w[k] / orc_len(w);
            return CHECKF(orc_dist(want, sp) <= 2.0 * tol + 4.0 * s->radius * tol / orc_len(w),
                          "%s: %s shape_point %.3g from the core's point minus the radius along the normal",
                          tk_ctx(), k_kind_names[q->kind], orc_dist(want, sp));
        }
        return true;
    }
    return CHECKF(nl == 0.0 || fabs(nl - 1.0) <= 1e-5, "%s: %s normal of length %.9g", tk_ctx(), k_kind_names[q->kind],
                  nl);
}

static bool same_distance(const copse_distance *a, const copse_distance *b)
{
    return a->distance == b->distance && a->depth == b->depth && a->tree_id == b->tree_id &&
           a->shape_id == b->shape_id && same_point(&a->tree_point, &b->tree_point) &&
           same_point(&a->shape_point, &b->shape_point) && same_point(&a->normal, &b->normal);
}

/* Ties: a lower id at exactly the same distance must win. Exact ties are copies of the point,
 * two points inside a box or convex set (distance 0) by more than the band, or in a constructed
 * scene, equal oracle keys. Except at contact: collide.h says touching ends a distance query
 * (for spheres and capsules, the centre or segment itself on a point), the first point found
 * being the answer. */
static bool check_tie(const scan *sc, const cq *q, const oracle_answer *o, uint32_t i, const copse_distance *d)
{
    uint32_t j;
    bool ball = q->kind == Q_SPHERE || q->kind == Q_CAPSULE;
    if (d->distance == 0.0f && (!ball || d->depth >= q_radius(q)))
        return true;
    for (j = 0; j < sc->n; j++) {
        bool tie;
        if (scan_id(sc, j) >= d->tree_id)
            continue;
        tie = same_point(&sc->pts[j], &sc->pts[i]) || (q->exact && (double)o->key[j] == (double)o->key[i]) ||
              ((q->kind == Q_OBB || q->kind == Q_CONVEX) && d->distance == 0.0f && (double)o->depth[j] > o->band &&
               (double)o->depth[i] > o->band);
        if (tie) {
            CHECKF(false, "%s: %s reported id %u; id %u ties it (keys %.9g, %.9g) and is lower", tk_ctx(),
                   k_kind_names[q->kind], (unsigned)d->tree_id, (unsigned)scan_id(sc, j), (double)o->key[i], (double)o->key[j]);
            if (g_described < 4u) {
                copse_port_printf("   ");
                print3("reported", &sc->pts[i]);
                print3("lower", &sc->pts[j]);
                copse_port_printf("\n");
            }
            return false;
        }
    }
    return true;
}

static void judge_distance(const scan *sc, const cq *q, const orp_shape *s, const oracle_answer *o, test_rng *rng)
{
    copse_distance out[2];
    double want = o->best != COPSE_NONE ? fmax(0.0, o->best_key) : HUGE_VAL;
    unsigned t, mode = test_rng_below(rng, 3);
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    /* the second query: a cut-off around the answer, first_within, or an error allowance */
    if (mode == 0u) {
        dq.max_distance = o->best == COPSE_NONE ? 1.0f : (float)(want * (double)test_rng_float(rng, 0.0f, 1.5f));
        if (test_rng_below(rng, 4) == 0u)
            dq.max_distance = 0.0f;
    } else if (mode == 1u) {
        dq.first_within = true;
        dq.max_distance = o->best == COPSE_NONE ? 1.0f : (float)(want * 1.5 + 4.0 * o->tol);
    } else {
        dq.abs_err = 0.01f * sc->size;
        dq.rel_err = 0.25f;
    }
    for (t = 0; t < sc->ntrees; t++) {
        const copse_octree *tree = sc->tree[t];
        copse_distance *d = &out[t], e;
        copse_status st;
        uint32_t i;
        memset(d, 0x5a, sizeof *d);
        st = cq_distance(q, tree, NULL, d);
        if (!CHECKF(st == COPSE_OK, "%s %s: %s distance: %s", tk_ctx(), sc->name[t], k_kind_names[q->kind],
                    copse_status_str(st)))
            continue;
        if (o->best == COPSE_NONE) {
            CHECKF(is_none(d), "%s %s: %s distance on an empty tree: %.9g, id %u", tk_ctx(), sc->name[t],
                   k_kind_names[q->kind], (double)d->distance, (unsigned)d->tree_id);
        } else if (check_pair(sc, q, s, o, d, &i)) {
            if (!CHECKF(fabs((double)d->distance - want) <= o->tol && (double)o->key[i] <= o->best_key + 2.0 * o->tol,
                        "%s %s: %s distance %.9g to id %u, oracle %.9g to id %u (key %.9g vs %.9g)", tk_ctx(),
                        sc->name[t], k_kind_names[q->kind], (double)d->distance, (unsigned)d->tree_id, want,
                        (unsigned)scan_id(sc, o->best), (double)o->key[i], o->best_key) ||
                !check_tie(sc, q, o, i, d))
                cq_describe(q);
        } else {
            cq_describe(q);
        }
        /* the same query, spelt out as the default */
        {
            copse_distance_query def = COPSE_DISTANCE_QUERY_DEFAULT;
            CHECKF(cq_distance(q, tree, &def, &e) == COPSE_OK && same_distance(&e, d),
                   "%s %s: %s distance with COPSE_DISTANCE_QUERY_DEFAULT differs from NULL", tk_ctx(), sc->name[t],
                   k_kind_names[q->kind]);
        }
        /* the second query */
        st = cq_distance(q, tree, &dq, &e);
        if (!CHECKF(st == COPSE_OK, "%s: %s distance (mode %u): %s", tk_ctx(), k_kind_names[q->kind], mode,
                    copse_status_str(st)))
            continue;
        if (o->best == COPSE_NONE) {
            CHECK(is_none(&e));
        } else if (mode == 0u) {
            if (want > (double)dq.max_distance + o->tol) {
                if (!CHECKF(is_none(&e), "%s %s: %s max_distance %.9g, oracle %.9g: found %.9g (id %u)", tk_ctx(),
                            sc->name[t], k_kind_names[q->kind], (double)dq.max_distance, want, (double)e.distance,
                            (unsigned)e.tree_id))
                    cq_describe(q);
            } else if (want < (double)dq.max_distance - o->tol || (!is_none(&e) && e.tree_id == d->tree_id) ||
                       (cq_core(q) ? o->best_key < -o->tol : (double)o->depth[o->best] > o->band)) {
                /* within the cut-off: found, and the smallest; a point clearly inside the shape is at
                 * distance 0, within a cut-off of 0 */
                if (CHECKF(!is_none(&e) && e.distance <= dq.max_distance, "%s %s: %s max_distance %.9g, oracle %.9g: "
                           "nothing, or too far", tk_ctx(), sc->name[t], k_kind_names[q->kind],
                           (double)dq.max_distance, want))
                    CHECKF(check_pair(sc, q, s, o, &e, &i) && fabs((double)e.distance - want) <= o->tol,
                           "%s %s: %s within max_distance %.9g: %.9g, oracle %.9g", tk_ctx(), sc->name[t],
                           k_kind_names[q->kind], (double)dq.max_distance, (double)e.distance, want);
            } else if (!is_none(&e)) {
                tk_tally_now.excused++;
                CHECK(check_pair(sc, q, s, o, &e, &i));
            }
        } else if (mode == 1u) {
            if (CHECKF(!is_none(&e) && e.distance <= dq.max_distance, "%s %s: %s first_within %.9g, oracle %.9g: "
                       "nothing, or too far (%.9g)", tk_ctx(), sc->name[t], k_kind_names[q->kind],
                       (double)dq.max_distance, want, (double)e.distance))
                CHECK(check_pair(sc, q, s, o, &e, &i));
        } else {
            if (CHECKF(!is_none(&e) && (double)e.distance <= (double)dq.abs_err + 1.25 * want + o->tol,
                       "%s %s: %s abs_err %.9g rel_err 0.25: %.9g, oracle %.9g", tk_ctx(), sc->name[t],
                       k_kind_names[q->kind], (double)dq.abs_err, (double)e.distance, want))
                CHECK(check_pair(sc, q, s, o, &e, &i));
        }
    }
    if (sc->view && sc->ntrees == 2u)
        CHECKF(same_distance(&out[0], &out[1]), "%s: %s distance on the view differs from the tree", tk_ctx(),
               k_kind_names[q->kind]);
}

static void judge(const scan *sc, const cq *q, test_rng *rng)
{
    size_t mark = tk_mark();
    uint32_t n = sc->n;
    oracle_answer o;
    orp_shape s;
    uint32_t *got = (uint32_t *)tk_alloc(4u * (n + 1u)), *first = (uint32_t *)tk_alloc(8u * (n + 1u));
    uint8_t *seen = (uint8_t *)tk_alloc(n + 1u);
    o.verdict = (uint8_t *)tk_alloc(n + 1u);
    o.key = (float *)tk_alloc(4u * (n + 1u));
    o.depth = (float *)tk_alloc(4u * (n + 1u));
    if (got == NULL || first == NULL || seen == NULL || o.verdict == NULL || o.key == NULL || o.depth == NULL)
        return;
    cq_oracle(q, &s);
    oracle_points(sc, q, &s, &o);
    judge_sets(sc, q, &o, got, first, seen);
    judge_distance(sc, q, &s, &o, rng);
    tk_rewind(mark);
}

/* ---- trees over a scan ------------------------------------------------------------------------------ */

typedef struct scan_trees {
    ot_point_tree pt;
    copse_octree view;
} scan_trees;

/* variant 0: built in bulk, and a view of its saved blob; variant 1: built by inserts. */
static bool make_trees(scan *sc, scan_trees *tr, unsigned variant, uint32_t leaf, uint32_t bucket, uint32_t depth)
{
    uint32_t n = sc->n, i;
    sc->ntrees = 0;
    sc->view = false;
    if (variant == 0u) {
        size_t bytes, written = 0;
        void *blob;
        if (!ot_point_build(&tr->pt, sc->pts, sc->ids, n, n, leaf, bucket, depth, 0, 0))
            return false;
        bytes = copse_octree_save_bytes(&tr->pt.tree);
        blob = tk_alloc(bytes);
        if (blob == NULL)
            return false;
        /* saved blobs are little endian: a big-endian host converts them before viewing */
        if (!CHECKF(copse_octree_save(&tr->pt.tree, blob, bytes, &written) == COPSE_OK && written == bytes,
                    "%s: save", tk_ctx()) ||
            !CHECKF(copse_blob_to_host(blob, bytes, blob, bytes, NULL) == COPSE_OK, "%s: to host", tk_ctx()) ||
            !CHECKF(copse_octree_view(&tr->view, blob, bytes) == COPSE_OK, "%s: view", tk_ctx()))
            return false;
        sc->tree[0] = &tr->pt.tree;
        sc->name[0] = "built";
        sc->tree[1] = &tr->view;
        sc->name[1] = "view";
        sc->ntrees = 2;
        sc->view = true;
        return true;
    }
    if (!ot_point_build(&tr->pt, sc->pts, sc->ids, n, 0, leaf, bucket, 10u, (leaf < 4u ? 2u * n : n) + 16u, (leaf < 4u ? 2u * n : n) + 16u))
        return false;
    for (i = 0; i < n; i++) {
        copse_status st = copse_octree_insert(&tr->pt.tree, i);
        if (!CHECKF(st == COPSE_OK, "%s: insert %u: %s (%u nodes, %u buckets short)", tk_ctx(), (unsigned)i,
                    copse_status_str(st), (unsigned)tr->pt.tree.nodes_short, (unsigned)tr->pt.tree.buckets_short))
            return false;
    }
    if (!CHECKF(copse_octree_check(&tr->pt.tree) == COPSE_OK, "%s: check after inserts", tk_ctx()))
        return false;
    sc->tree[0] = &tr->pt.tree;
    sc->name[0] = "inserted";
    sc->ntrees = 1;
    return true;
}

/* ---- the oracle's own hand cases ----------------------------------------------------------------- */

static bool near_d(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (1.0 + fabs(b));
}

static void test_oracle(void)
{
    orp_shape s;
    double p[3], c[3], pa[3], pb[3];
    copse_pose rz = copse_pose_identity();
    /* a quarter turn about z, then a shift: (1, 0, 0) -> (0, 1, 0) + t */
    rz.rotation[0][0] = 0.0f;
    rz.rotation[0][1] = -1.0f;
    rz.rotation[1][0] = 1.0f;
    rz.rotation[1][1] = 0.0f;
    rz.translation = copse_v3(10, 20, 30);
    p[0] = 1;
    p[1] = p[2] = 0;
    orp_pose_point(&rz, p, c);
    CHECK(c[0] == 10.0 && c[1] == 21.0 && c[2] == 30.0);
    { /* boxes: faces are in, depth, distance to an edge, a turned box */
        copse_obb b;
        set_identity(b.rotation);
        b.center = copse_v3(0, 0, 0);
        b.half = copse_v3(1, 2, 3);
        orp_obb(&s, &b, NULL);
        p[0] = 1, p[1] = 0, p[2] = 0;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && orp_depth(&s, p) == 0.0);
        p[0] = 1.5;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_NO && near_d(orp_point_distance(&s, p, c), 0.5) && c[0] == 1.0);
        CHECK(orp_point_in(&s, p, 0.6) == ORC_EDGE_NO);
        p[0] = 2, p[1] = 3;
        CHECK(near_d(orp_point_distance(&s, p, c), sqrt(2.0)));
        p[0] = p[1] = p[2] = 0;
        CHECK(orp_depth(&s, p) == 1.0 && orp_point_in(&s, p, 0.5) == ORC_YES && orp_point_in(&s, p, 2.0) == ORC_EDGE_YES);
        orp_obb(&s, &b, &rz); /* turned: x in [8, 12], y in [19, 21], z in [27, 33] */
        p[0] = 12, p[1] = 20, p[2] = 30;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES);
        p[0] = 10, p[1] = 21;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES);
        p[1] = 21.5;
        CHECK(near_d(orp_point_distance(&s, p, c), 0.5));
        p[0] = 0, p[1] = 1, p[2] = 0;
        CHECK(near_d(orp_support_min(&s, p), 19.0));
    }
    { /* spheres and capsules */
        copse_sphere sp;
        copse_capsule cap;
        sp.center = copse_v3(0, 0, 0);
        sp.radius = 2;
        orp_sphere(&s, &sp, NULL);
        p[0] = 0, p[1] = 0, p[2] = 3;
        CHECK(near_d(orp_point_distance(&s, p, c), 1.0) && near_d(c[2], 2.0) && near_d(orp_core_distance(&s, p, c), 3.0));
        p[2] = 1;
        CHECK(near_d(orp_depth(&s, p), 1.0) && orp_point_distance(&s, p, c) == 0.0);
        p[2] = 2;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES);
        cap.segment.a = copse_v3(0, 0, 0);
        cap.segment.b = copse_v3(4, 0, 0);
        cap.radius = 1;
        orp_capsule(&s, &cap, NULL);
        p[0] = 2, p[1] = 1, p[2] = 0;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && orp_depth(&s, p) == 0.0);
        p[1] = 3;
        CHECK(near_d(orp_point_distance(&s, p, c), 2.0));
        p[0] = 6, p[1] = 0;
        CHECK(near_d(orp_point_distance(&s, p, c), 1.0) && near_d(c[0], 5.0));
    }
    { /* triangles: inside, on an edge, beside, above */
        copse_triangle t;
        t.a = copse_v3(0, 0, 0);
        t.b = copse_v3(4, 0, 0);
        t.c = copse_v3(0, 4, 0);
        orp_triangle(&s, &t, NULL);
        p[0] = 1, p[1] = 1, p[2] = 0;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES);
        p[0] = 2, p[1] = 2;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && orp_point_in(&s, p, 1.0) == ORC_EDGE_YES);
        p[0] = 3, p[1] = 3;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_NO && near_d(orp_point_distance(&s, p, c), sqrt(2.0)));
        p[0] = 1, p[1] = 1, p[2] = 1;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_NO && near_d(orp_point_distance(&s, p, c), 1.0));
    }
    { /* hulls: a cube (depth, faces, corners), a flat square, one point, a segment */
        copse_vec3 cube[8], sq[4];
        unsigned i;
        for (i = 0; i < 8u; i++)
            cube[i] = copse_v3(i & 1u ? 2.0f : 0.0f, i & 2u ? 2.0f : 0.0f, i & 4u ? 2.0f : 0.0f);
        orp_hull(&s, cube, 8, NULL);
        CHECK(!s.flat);
        p[0] = p[1] = p[2] = 1;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && near_d(orp_depth(&s, p), 1.0));
        p[2] = 2;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && orp_depth(&s, p) == 0.0);
        p[2] = 3;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_NO && near_d(orp_point_distance(&s, p, c), 1.0));
        p[0] = p[1] = p[2] = 3;
        CHECK(near_d(orp_point_distance(&s, p, c), sqrt(3.0)));
        p[0] = p[1] = p[2] = -1;
        CHECK(near_d(orp_support_min(&s, p), -6.0));
        sq[0] = copse_v3(0, 0, 0);
        sq[1] = copse_v3(2, 0, 0);
        sq[2] = copse_v3(2, 2, 0);
        sq[3] = copse_v3(0, 2, 0);
        orp_hull(&s, sq, 4, NULL);
        CHECK(s.flat);
        p[0] = 1, p[1] = 1, p[2] = 0;
        CHECK(orp_point_in(&s, p, 0.0) == ORC_YES && orp_depth(&s, p) == 0.0);
        p[2] = 1;
        CHECK(near_d(orp_point_distance(&s, p, c), 1.0));
        p[0] = 3, p[2] = 0;
        CHECK(near_d(orp_point_distance(&s, p, c), 1.0));
        orp_hull(&s, sq, 1, NULL);
        CHECK(near_d(orp_point_distance(&s, p, c), sqrt(10.0)));
        orp_hull(&s, sq, 2, NULL);
        CHECK(near_d(orp_point_distance(&s, p, c), sqrt(2.0)));
    }
    { /* segments and triangles against each other, boxes against triangles */
        double a0[3] = {0, 0, 0}, a1[3] = {2, 0, 0}, b0[3] = {1, -1, 1}, b1[3] = {1, 1, 1};
        double c0[3] = {1, 1, 0}, c1[3] = {3, 1, 0}, d0[3] = {2.5, 0, 0}, d1[3] = {3, 0, 0};
        double t0[3] = {-5, -5, 2}, t1[3] = {5, -5, 2}, t2[3] = {0, 5, 2}, half[3] = {1, 1, 1};
        double e0[3] = {2, 2, -5}, e1[3] = {2, 2, 5}, e2[3] = {10, 10, 0};
        const double *tri[3], *edge_tri[3];
        CHECK(near_d(orp_segment_segment(a0, a1, b0, b1, pa, pb), 1.0) && near_d(pa[0], 1.0) && near_d(pb[2], 1.0));
        CHECK(near_d(orp_segment_segment(a0, a1, c0, c1, pa, pb), 1.0));
        CHECK(near_d(orp_segment_segment(a0, a1, d0, d1, pa, pb), 0.5));
        CHECK(near_d(orp_segment_segment(a0, a0, d0, d0, pa, pb), 2.5));
        tri[0] = t0, tri[1] = t1, tri[2] = t2;
        b0[2] = 0, b1[2] = 4;
        b0[1] = b1[1] = 0;
        CHECK(orp_segment_triangle(b0, b1, tri) == 0.0); /* pierces it */
        CHECK(near_d(orp_segment_triangle(a0, a1, tri), 2.0));
        CHECK(near_d(orp_box_triangle(half, tri), 1.0) && !orp_box_triangle_overlap(half, tri));
        t0[2] = t1[2] = t2[2] = 0.5;
        CHECK(orp_box_triangle(half, tri) == 0.0);
        edge_tri[0] = e0, edge_tri[1] = e1, edge_tri[2] = e2; /* an edge parallel to the box's */
        CHECK(near_d(orp_box_triangle(half, edge_tri), sqrt(2.0)));
    }
}

/* ---- random scenes ---------------------------------------------------------------------------------- */

/* (leaf_size, bucket_size) as the octree kit's suites use them */
#define TREE_SHAPES 3u
static const uint32_t k_leaf[TREE_SHAPES] = {1, 4, 8}, k_bucket[TREE_SHAPES] = {1, 4, 3};

/* Bytes a point of a large scene takes: the point, its id and map entry, two trees, a blob and
 * the judges' arrays. */
#define BYTES_PER_POINT 260u

/* Every cloud kind, tree shape, size and tree variant, with random shapes of one kind. */
static void run_random(q_kind shape)
{
    unsigned kind, b, sz, variant, q;
    tk_pool_reset();
    g_described = 0;
    tk_tally_begin();
    for (kind = 0; kind < OT_CLOUD_KINDS; kind++) {
        for (b = 0; b < TREE_SHAPES; b++) {
            uint32_t sizes[5], nsizes = 0;
            sizes[nsizes++] = 0;
            sizes[nsizes++] = 1;
            sizes[nsizes++] = 2;
            sizes[nsizes++] = k_leaf[b] + 1u;
            sizes[nsizes++] = tk_large_count(BYTES_PER_POINT, 1500);
            if (!big_machine() && b == 1u)
                continue;
            for (sz = 0; sz < nsizes; sz++) {
                size_t mark = tk_mark();
                uint32_t n = sizes[sz];
                copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
                uint32_t *ids = (sz + kind) % 2u ? ot_make_ids(n) : NULL;
                test_rng rng;
                scan sc;
                if (pts == NULL)
                    return;
                test_rng_seed(&rng, 5000u + shape * 1000u + kind * 100u + b * 10u + sz);
                ot_make_cloud(pts, n, (ot_cloud_kind)kind, &rng);
                if (!scan_init(&sc, pts, ids, n))
                    return;
                for (variant = 0; variant < 2u; variant++) {
                    size_t mark2 = tk_mark();
                    scan_trees tr;
                    unsigned queries = sz + 1u < nsizes ? (big_machine() ? 3u : 1u) : (big_machine() ? 12u : 2u); /* of this shape */
                    tk_context("%s %s leaf=%u bucket=%u n=%u%s seed=%u", k_kind_names[shape], ot_cloud_name((ot_cloud_kind)kind),
                               (unsigned)k_leaf[b], (unsigned)k_bucket[b], (unsigned)n, ids != NULL ? " ids" : "",
                               (unsigned)(5000u + shape * 1000u + kind * 100u + b * 10u + sz));
                    if (make_trees(&sc, &tr, variant, k_leaf[b], k_bucket[b], sz % 2u ? 12u : COPSE_OCTREE_MAX_DEPTH))
                        for (q = 0; q < queries; q++) {
                            cq query;
                            random_cq(&query, shape, &sc, &rng);
                            judge(&sc, &query, &rng);
                        }
                    tk_rewind(mark2);
                }
                tk_rewind(mark);
            }
        }
    }
    tk_tally_end();
}

static void test_sphere(void)
{
    run_random(Q_SPHERE);
}

static void test_capsule(void)
{
    run_random(Q_CAPSULE);
}

static void test_obb(void)
{
    run_random(Q_OBB);
}

static void test_triangle(void)
{
    run_random(Q_TRIANGLE);
}

static void test_convex(void)
{
    run_random(Q_CONVEX);
}

/* ---- constructed scenes: an integer grid, shapes whose boundaries pass through its points --------- */

static void exact_box(cq *q, float cx, float cy, float cz, float hx, float hy, float hz)
{
    memset(q, 0, sizeof *q);
    q->kind = Q_OBB;
    q->exact = true;
    q->obb.center = copse_v3(cx, cy, cz);
    q->obb.half = copse_v3(hx, hy, hz);
    set_identity(q->obb.rotation);
    q->pose = copse_pose_identity();
}

static void exact_sphere(cq *q, float cx, float cy, float cz, float r)
{
    memset(q, 0, sizeof *q);
    q->kind = Q_SPHERE;
    q->exact = true;
    q->sphere.center = copse_v3(cx, cy, cz);
    q->sphere.radius = r;
    q->pose = copse_pose_identity();
}

static void exact_capsule(cq *q, copse_vec3 a, copse_vec3 b, float r)
{
    memset(q, 0, sizeof *q);
    q->kind = Q_CAPSULE;
    q->exact = true;
    q->capsule.segment.a = a;
    q->capsule.segment.b = b;
    q->capsule.radius = r;
    q->pose = copse_pose_identity();
}

static void exact_triangle(cq *q, copse_vec3 a, copse_vec3 b, copse_vec3 c)
{
    memset(q, 0, sizeof *q);
    q->kind = Q_TRIANGLE;
    q->exact = true;
    q->tri.a = a;
    q->tri.b = b;
    q->tri.c = c;
    q->pose = copse_pose_identity();
}

static void exact_convex(cq *q, const copse_vec3 *p, uint32_t count)
{
    uint32_t i;
    memset(q, 0, sizeof *q);
    q->kind = Q_CONVEX;
    q->exact = true;
    for (i = 0; i < count; i++)
        q->hull[i] = p[i];
    q->hull_count = count;
    q->pose = copse_pose_identity();
}

/* Quarter turns: entries 0 and +-1, so a pose moves integer points exactly. */
static void quarter_turn(copse_pose *p, unsigned axis, copse_vec3 t)
{
    unsigned u = (axis + 1u) % 3u, v = (axis + 2u) % 3u;
    *p = copse_pose_identity();
    p->rotation[u][u] = 0.0f;
    p->rotation[v][v] = 0.0f;
    p->rotation[u][v] = -1.0f;
    p->rotation[v][u] = 1.0f;
    p->translation = t;
}

/* Every constructed case, in order; false past the last. */
static bool exact_case(unsigned k, cq *q)
{
    static const copse_vec3 cube[8] = {{1, 1, 1}, {3, 1, 1}, {1, 3, 1}, {3, 3, 1},
                                       {1, 1, 3}, {3, 1, 3}, {1, 3, 3}, {3, 3, 3}};
    static const copse_vec3 square[4] = {{0, 0, 2}, {4, 0, 2}, {4, 4, 2}, {0, 4, 2}};
    static const copse_vec3 tetra[4] = {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}};
    static const copse_vec3 one[2] = {{3, 1, 2}, {3, 1, 2}};
    static const copse_vec3 seg[2] = {{0, 0, 4}, {4, 0, 4}};
    switch (k) {
    case 0: /* a box whose faces hold grid points */
        exact_box(q, 2, 2, 2, 1, 1, 1);
        return true;
    case 1: /* the same box placed by a translation */
        exact_box(q, 1.5f, 1.5f, 1.5f, 1, 1, 1);
        q->posed = true;
        q->pose = copse_pose_translation(copse_v3(0.5f, 0.5f, 0.5f));
        return true;
    case 2: /* a rectangle (flat box) in the plane z = 2 */
        exact_box(q, 2, 2, 2, 2, 1, 0);
        return true;
    case 3: /* a box turned a quarter about z by its own rotation */
        exact_box(q, 2, 2, 2, 2, 1, 1);
        quarter_turn(&q->pose, 2, copse_v3(0, 0, 0));
        memcpy(q->obb.rotation, q->pose.rotation, sizeof q->obb.rotation);
        q->pose = copse_pose_identity();
        return true;
    case 4: /* a box turned about x by its pose: x in [1, 3], z in [0, 4], y in [1, 3] */
        exact_box(q, 2, 2, -2, 1, 2, 1); /* (x, y, z) -> (x, -z, y) */
        q->posed = true;
        quarter_turn(&q->pose, 0, copse_v3(0, 0, 0));
        return true;
    case 5: /* a segment and a point as boxes */
        exact_box(q, 2, 2, 2, 0, 0, 2);
        return true;
    case 6:
        exact_box(q, 1, 1, 1, 0, 0, 0);
        return true;
    case 7: /* spheres: seven points, the six at exactly the radius */
        exact_sphere(q, 2, 2, 2, 1);
        return true;
    case 8: /* touching one point from outside the grid */
        exact_sphere(q, 2, 2, 5, 1);
        return true;
    case 9: /* radius 0 on a point; radius 2 with a shell of points at exactly 2 */
        exact_sphere(q, 1, 2, 3, 0);
        return true;
    case 10:
        exact_sphere(q, 2, 2, 2, 2);
        return true;
    case 11: /* a sphere placed by a translation and a quarter turn */
        exact_sphere(q, 1, 0, 0, 1);
        q->posed = true;
        quarter_turn(&q->pose, 2, copse_v3(2, 1, 2)); /* (1, 0, 0) -> (2, 2, 2) */
        return true;
    case 12: /* capsules touching a row of points; radius 0 along a diagonal; around a grid line */
        exact_capsule(q, copse_v3(1, 1, 5), copse_v3(3, 1, 5), 1);
        return true;
    case 13:
        exact_capsule(q, copse_v3(0, 0, 0), copse_v3(4, 4, 0), 0);
        return true;
    case 14:
        exact_capsule(q, copse_v3(2, 2, 0), copse_v3(2, 2, 4), 1);
        return true;
    case 15: /* triangles: axis-aligned with points on its hypotenuse, tilted in z = x, a segment, a point */
        exact_triangle(q, copse_v3(0, 0, 2), copse_v3(4, 0, 2), copse_v3(0, 4, 2));
        return true;
    case 16:
        exact_triangle(q, copse_v3(0, 0, 0), copse_v3(4, 0, 4), copse_v3(0, 4, 0));
        return true;
    case 17:
        exact_triangle(q, copse_v3(0, 0, 1), copse_v3(4, 4, 1), copse_v3(2, 2, 1));
        return true;
    case 18:
        exact_triangle(q, copse_v3(1, 1, 1), copse_v3(1, 1, 1), copse_v3(1, 1, 1));
        return true;
    case 19: /* a triangle placed by a quarter turn about z and a shift: corners (4,0,3), (4,4,3), (0,0,3) */
        exact_triangle(q, copse_v3(0, 0, 3), copse_v3(4, 0, 3), copse_v3(0, 4, 3));
        q->posed = true;
        quarter_turn(&q->pose, 2, copse_v3(4, 0, 0));
        return true;
    case 20: /* convex sets: a cube, a square, a tetrahedron with points on its slanted face, one
              * point, a segment, the cube placed by a quarter turn */
        exact_convex(q, cube, 8);
        return true;
    case 21:
        exact_convex(q, square, 4);
        return true;
    case 22:
        exact_convex(q, tetra, 4);
        return true;
    case 23:
        exact_convex(q, one, 1);
        return true;
    case 24:
        exact_convex(q, one, 2);
        return true;
    case 25:
        exact_convex(q, seg, 2);
        return true;
    case 26:
        exact_convex(q, cube, 8);
        q->posed = true;
        quarter_turn(&q->pose, 1, copse_v3(0, 0, 4)); /* (x, y, z) -> (z, y, 4 - x) */
        return true;
    default:
        return false;
    }
}

/* The integer grid x, z in 0..4, y in 0..4 (1..3 on a small machine), in index order or backwards. */
static uint32_t grid_count(void)
{
    return big_machine() ? 125u : 75u;
}

static uint32_t make_grid(copse_vec3 *pts, bool backwards)
{
    uint32_t ny = big_machine() ? 5u : 3u, y0 = big_machine() ? 0u : 1u, n = 25u * ny, i;
    for (i = 0; i < n; i++) {
        uint32_t j = backwards ? n - 1u - i : i;
        pts[i] = copse_v3((float)(j % 5u), (float)(y0 + j / 5u % ny), (float)(j / (5u * ny)));
    }
    return n;
}

/* The closed sets hold the points on their boundaries; ties are exact. Every tree variant, with
 * and without ids, points in two orders. */
static void test_exact(void)
{
    g_described = 0;
    unsigned variant, order, k;
    tk_pool_reset();
    tk_tally_begin();
    for (order = 0; order < 2u; order++) {
        for (variant = 0; variant < 2u; variant++) {
            size_t mark = tk_mark();
            copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * grid_count());
            uint32_t n = pts != NULL ? make_grid(pts, order == 1u) : 0u;
            uint32_t *ids = order ? ot_make_ids(n) : NULL;
            scan sc;
            scan_trees tr;
            test_rng rng;
            if (pts == NULL)
                return;
            test_rng_seed(&rng, 17u + order);
            tk_context("grid order=%u%s", order, ids != NULL ? " ids" : "");
            if (scan_init(&sc, pts, ids, n) && make_trees(&sc, &tr, variant, 4, 3, COPSE_OCTREE_MAX_DEPTH)) {
                cq q;
                for (k = 0; exact_case(k, &q); k++) {
                    tk_context("grid order=%u%s %s case %u", order, ids != NULL ? " ids" : "", sc.name[0], k);
                    judge(&sc, &q, &rng);
                }
            }
            tk_rewind(mark);
        }
    }
    CHECKF(tk_tally_now.excused == 0u, "exact scenes needed the band %lu times", tk_tally_now.excused);
    tk_tally_end();
}

/* ---- a posed mesh against a scan --------------------------------------------------------------------- */

typedef struct posed_mesh {
    const copse_bvh *bvh;
    const copse_pose *pose;
    double *v; /* 9 per triangle: the corners in the tree's frame */
    uint32_t n;
    double mag;
    float distance; /* for the set query */
} posed_mesh;

static bool pose_mesh(posed_mesh *pm, const tk_scene *ms, const copse_bvh *bvh, const copse_pose *pose)
{
    uint32_t t;
    unsigned k;
    pm->bvh = bvh;
    pm->pose = pose;
    pm->n = ms->n;
    pm->mag = 0.0;
    pm->v = (double *)tk_alloc(sizeof(double) * 9u * (ms->n + 1u));
    if (pm->v == NULL)
        return false;
    for (t = 0; t < ms->n; t++) {
        tk_prim g;
        tk_get_prim(ms, t, &g);
        for (k = 0; k < 3; k++) {
            orp_pose_point(pose, g.v[k], pm->v + 9u * t + 3u * k);
            pm->mag = fmax(pm->mag, orc_max_abs(pm->v + 9u * t + 3u * k));
        }
    }
    return true;
}

static double mesh_tri_distance(const posed_mesh *pm, uint32_t t, const double *p)
{
    double c[3];
    const double *v = pm->v + 9u * t;
    return orc_closest_triangle(p, v, v + 3, v + 6, c);
}

static copse_status mesh_overlap_ctx(const void *ctx, const copse_octree *t, copse_id_list *out)
{
    const posed_mesh *pm = (const posed_mesh *)ctx;
    return copse_octree_overlap_bvh(t, pm->bvh, pm->pose, pm->distance, out);
}

static copse_status mesh_visit_ctx(const void *ctx, const copse_octree *t, copse_id_visitor visit, void *user)
{
    const posed_mesh *pm = (const posed_mesh *)ctx;
    return copse_octree_visit_bvh(t, pm->bvh, pm->pose, pm->distance, visit, user);
}

/* The nearest point and triangle: the points, the triangle, the distance, ties. */
static bool check_mesh_pair(const scan *sc, const posed_mesh *pm, const oracle_answer *o, const copse_distance *d)
{
    uint32_t i = scan_index(sc, d->tree_id);
    double tp[3], sp[3], c[3], gap, on, to_tri, nl = len3(&d->normal);
    if (!CHECKF(i != COPSE_NONE && d->shape_id < pm->n && same_point(&d->tree_point, &sc->pts[i]) && d->depth == 0.0f,
                "%s: mesh pair: tree_id %u, shape_id %u of %u, depth %.9g", tk_ctx(), (unsigned)d->tree_id,
                (unsigned)d->shape_id, (unsigned)pm->n, (double)d->depth))
        return false;
    point_d(&d->tree_point, tp);
    point_d(&d->shape_point, sp);
    gap = orc_dist(tp, sp);
    on = orc_closest_triangle(sp, pm->v + 9u * d->shape_id, pm->v + 9u * d->shape_id + 3, pm->v + 9u * d->shape_id + 6, c);
    to_tri = mesh_tri_distance(pm, d->shape_id, tp);
    note_error(Q_KINDS, fabs((double)d->distance - to_tri) / (ORC_FLT_EPS * o->mag));
    if (!CHECKF(on <= o->tol && fabs(gap - (double)d->distance) <= o->tol && fabs(to_tri - (double)d->distance) <= o->tol,
                "%s: mesh pair point %u, triangle %u: distance %.9g, oracle %.9g for that pair; shape_point %.3g off "
                "the triangle, points %.9g apart",
                tk_ctx(), (unsigned)d->tree_id, (unsigned)d->shape_id, (double)d->distance, to_tri, on, gap))
        return false;
    if (gap > 1000.0 * o->tol) {
        double nd[3], w[3];
        point_d(&d->normal, nd);
        orc_sub(w, sp, tp);
        return CHECKF(fabs(nl - 1.0) <= 1e-5 && orc_dot(nd, w) >= 0.999 * orc_len(w),
                      "%s: mesh normal (%.9g, %.9g, %.9g) is not the unit direction to the shape point", tk_ctx(),
                      (double)d->normal.x, (double)d->normal.y, (double)d->normal.z);
    }
    return CHECKF(nl == 0.0 || fabs(nl - 1.0) <= 1e-5, "%s: mesh normal of length %.9g", tk_ctx(), nl);
}

static void judge_mesh(const scan *sc, posed_mesh *pm, bool exact, test_rng *rng)
{
    size_t mark = tk_mark();
    uint32_t n = sc->n, i, t, *got = (uint32_t *)tk_alloc(4u * (n + 1u)), *first = (uint32_t *)tk_alloc(8u * (n + 1u));
    uint8_t *seen = (uint8_t *)tk_alloc(n + 1u);
    copse_distance out[2];
    oracle_answer o;
    double want;
    o.verdict = (uint8_t *)tk_alloc(n + 1u);
    o.key = (float *)tk_alloc(4u * (n + 1u));
    o.depth = NULL;
    if (got == NULL || first == NULL || seen == NULL || o.verdict == NULL || o.key == NULL)
        return;
    o.mag = fmax(sc->mag, pm->mag);
    o.tol = DIST_K * ORC_FLT_EPS * o.mag;
    o.band = exact ? 0.0 : BAND_K * ORC_FLT_EPS * o.mag;
    o.edge = false;
    o.best = COPSE_NONE;
    o.best_key = HUGE_VAL;
    for (i = 0; i < n; i++) {
        double p[3], d = HUGE_VAL, dd = (double)pm->distance;
        point_d(&sc->pts[i], p);
        for (t = 0; t < pm->n; t++)
            d = fmin(d, mesh_tri_distance(pm, t, p));
        o.key[i] = (float)d;
        o.verdict[i] = (uint8_t)(d <= dd ? (dd - d <= o.band && !exact ? ORC_EDGE_YES : ORC_YES)
                                         : (d - dd <= o.band && !exact ? ORC_EDGE_NO : ORC_NO));
        if (pm->n > 0u && (o.best == COPSE_NONE || d < o.best_key ||
                           (d == o.best_key && scan_id(sc, i) < scan_id(sc, o.best)))) {
            o.best = i;
            o.best_key = d;
        }
    }
    want = o.best != COPSE_NONE ? o.best_key : HUGE_VAL;
    for (t = 0; t < sc->ntrees; t++) {
        const copse_octree *tree = sc->tree[t];
        copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
        copse_distance *d = &out[t], e;
        copse_status st;
        memset(d, 0x5a, sizeof *d);
        st = copse_distance_bvh_octree(pm->bvh, pm->pose, tree, NULL, d);
        if (!CHECKF(st == COPSE_OK, "%s %s: mesh distance: %s", tk_ctx(), sc->name[t], copse_status_str(st)))
            continue;
        if (o.best == COPSE_NONE) {
            CHECKF(is_none(d), "%s %s: mesh distance with nothing to find: %.9g", tk_ctx(), sc->name[t],
                   (double)d->distance);
            continue;
        }
        if (check_mesh_pair(sc, pm, &o, d)) {
            uint32_t idx = scan_index(sc, d->tree_id), j;
            CHECKF(fabs((double)d->distance - want) <= o.tol && (double)o.key[idx] <= want + 2.0 * o.tol,
                   "%s %s: mesh distance %.9g to point %u, oracle %.9g to point %u", tk_ctx(), sc->name[t],
                   (double)d->distance, (unsigned)d->tree_id, want, (unsigned)scan_id(sc, o.best));
            /* ties to the lower id, except at contact: touching ends the query (collide.h) */
            for (j = 0; j < n && d->distance > 0.0f; j++)
                if (scan_id(sc, j) < d->tree_id &&
                    (same_point(&sc->pts[j], &sc->pts[idx]) || (exact && (double)o.key[j] == (double)o.key[idx])))
                    break;
            CHECKF(j == n || d->distance == 0.0f, "%s %s: mesh distance: point %u ties %u and is lower", tk_ctx(),
                   sc->name[t], j < n ? (unsigned)scan_id(sc, j) : 0u, (unsigned)d->tree_id);
        }
        /* a cut-off around the answer, or first_within */
        if (test_rng_below(rng, 2) == 0u) {
            dq.max_distance = (float)(want * (double)test_rng_float(rng, 0.0f, 1.5f));
            st = copse_distance_bvh_octree(pm->bvh, pm->pose, tree, &dq, &e);
            if (want > (double)dq.max_distance + o.tol)
                CHECKF(st == COPSE_OK && is_none(&e), "%s %s: mesh max_distance %.9g, oracle %.9g: found %.9g",
                       tk_ctx(), sc->name[t], (double)dq.max_distance, want, (double)e.distance);
            else if (want < (double)dq.max_distance - o.tol)
                CHECKF(st == COPSE_OK && !is_none(&e) && e.distance <= dq.max_distance && check_mesh_pair(sc, pm, &o, &e),
                       "%s %s: mesh max_distance %.9g, oracle %.9g", tk_ctx(), sc->name[t], (double)dq.max_distance,
                       want);
        } else {
            dq.first_within = true;
            dq.max_distance = (float)(want * 1.5 + 4.0 * o.tol);
            st = copse_distance_bvh_octree(pm->bvh, pm->pose, tree, &dq, &e);
            CHECKF(st == COPSE_OK && !is_none(&e) && e.distance <= dq.max_distance && check_mesh_pair(sc, pm, &o, &e),
                   "%s %s: mesh first_within %.9g, oracle %.9g: %.9g", tk_ctx(), sc->name[t], (double)dq.max_distance,
                   want, (double)e.distance);
        }
    }
    if (sc->view && sc->ntrees == 2u)
        CHECKF(same_distance(&out[0], &out[1]), "%s: mesh distance on the view differs from the tree", tk_ctx());
    {
        lister l;
        uint32_t count[2];
        char what[40];
        (void)copse_port_snprintf(what, sizeof what, "mesh within %.9g", (double)pm->distance);
        l.overlap = mesh_overlap_ctx;
        l.visit = mesh_visit_ctx;
        l.ctx = pm;
        l.what = what;
        (void)judge_list(sc, &o, &l, got, first, seen, count);
    }
    tk_rewind(mark);
}

static void random_pose(test_rng *rng, copse_pose *p, float reach)
{
    random_rotation(rng, p->rotation);
    p->translation = rand3(rng, -reach, reach);
}

static void test_mesh(void)
{
    g_described = 0;
    static const tk_layout layouts[3] = {TK_U16, TK_U32, TK_FLAT};
    static const ot_cloud_kind clouds[4] = {OT_UNIFORM, OT_CLUSTERED, OT_GRID, OT_PLANAR};
    unsigned c, m, q, variant;
    tk_pool_reset();
    tk_tally_begin();
    for (c = 0; c < 4u; c++) {
        for (m = 0; m < 3u; m++) {
            size_t mark = tk_mark();
            uint32_t tris = m == 0u ? 1u : (big_machine() ? 120u : 10u), n = m == 1u ? 1u : (big_machine() ? 500u : 30u);
            copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (n + 1u));
            uint32_t *ids = m == 2u ? ot_make_ids(n) : NULL;
            copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
            tk_mesh_spec spec;
            tk_scene ms;
            tk_tree mt;
            test_rng rng;
            scan sc;
            if (pts == NULL)
                return;
            test_rng_seed(&rng, 900u + c * 10u + m);
            tk_context("mesh %u on %s n=%u seed=%u", (unsigned)tris, ot_cloud_name(clouds[c]), (unsigned)n,
                       900u + c * 10u + m);
            ot_make_cloud(pts, n, clouds[c], &rng);
            tk_mesh_spec_init(&spec, tris, layouts[(c + m) % 3u]);
            spec.origin = -4.0f;
            spec.extent = 8.0f;
            spec.dup_pct = 5;
            spec.degen_pct = 5;
            params.leaf_size = 1u + m;
            if (!scan_init(&sc, pts, ids, n) || !tk_make_mesh(&ms, &spec, &rng) || !tk_build(&mt, &ms, &params))
                return;
            for (variant = 0; variant < 2u; variant++) {
                size_t mark2 = tk_mark();
                scan_trees tr;
                if (make_trees(&sc, &tr, variant, k_leaf[m], k_bucket[m], COPSE_OCTREE_MAX_DEPTH))
                    for (q = 0; q < (big_machine() ? 6u : 2u); q++) {
                        size_t mark3 = tk_mark();
                        copse_pose pose;
                        posed_mesh pm;
                        bool posed = q % 3u != 0u;
                        if (posed)
                            random_pose(&rng, &pose, 4.0f);
                        if (!pose_mesh(&pm, &ms, &mt.bvh, posed ? &pose : NULL))
                            return;
                        pm.distance = q % 4u == 3u ? 0.0f : sc.size * test_rng_float(&rng, 0.0f, 0.15f);
                        judge_mesh(&sc, &pm, false, &rng);
                        tk_rewind(mark3);
                    }
                tk_rewind(mark2);
            }
            tk_rewind(mark);
        }
    }
    tk_tally_end();
}

/* A mesh of axis-aligned triangles over the integer grid: the points on it are at distance 0,
 * the points at exactly `distance` are in the set. */
static void test_mesh_exact(void)
{
    g_described = 0;
    static const float square[27] = {0, 0, 2, 4, 0, 2, 4, 4, 2, /**/ 0, 0, 2, 4, 4, 2, 0, 4, 2,
                                     /* a wall in x = 0 */ 0, 0, 0, 0, 4, 0, 0, 0, 4};
    static const float distances[4] = {0.0f, 1.0f, 2.0f, 0.5f};
    copse_mesh mesh;
    tk_scene ms;
    tk_tree mt;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    unsigned variant, k;
    tk_pool_reset();
    tk_tally_begin();
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = square;
    mesh.vertex_count = 9;
    mesh.vertex_stride = 12;
    mesh.index_type = COPSE_MESH_INDEX_NONE;
    mesh.triangle_count = 3;
    tk_scene_from_mesh(&ms, &mesh, COPSE_BVH_PROJECT_NONE);
    params.leaf_size = 1;
    tk_context("mesh exact");
    if (!tk_build(&mt, &ms, &params))
        return;
    for (variant = 0; variant < 2u; variant++) {
        size_t mark = tk_mark();
        copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * grid_count());
        uint32_t n = pts != NULL ? make_grid(pts, false) : 0u;
        uint32_t *ids = variant ? ot_make_ids(n) : NULL;
        scan sc;
        scan_trees tr;
        test_rng rng;
        if (pts == NULL)
            return;
        test_rng_seed(&rng, 31u);
        if (!scan_init(&sc, pts, ids, n) || !make_trees(&sc, &tr, variant, 4, 3, COPSE_OCTREE_MAX_DEPTH))
            return;
        for (k = 0; k < 12u; k++) {
            size_t mark2 = tk_mark();
            copse_pose pose;
            posed_mesh pm;
            const copse_pose *pp = NULL;
            if (k / 4u == 1u) {
                pose = copse_pose_translation(copse_v3(0, 0, 1)); /* the square to z = 3, the wall up by 1 */
                pp = &pose;
            } else if (k / 4u == 2u) {
                quarter_turn(&pose, 2, copse_v3(4, 0, 0)); /* the wall to y = 0 */
                pp = &pose;
            }
            tk_context("mesh exact %s pose %u distance %g", sc.name[0], k / 4u, (double)distances[k % 4u]);
            if (!pose_mesh(&pm, &ms, &mt.bvh, pp))
                return;
            pm.distance = distances[k % 4u];
            judge_mesh(&sc, &pm, true, &rng);
            tk_rewind(mark2);
        }
        tk_rewind(mark);
    }
    CHECKF(tk_tally_now.excused == 0u, "exact mesh scenes needed the band %lu times", tk_tally_now.excused);
    tk_tally_end();
}

/* ---- bad input ------------------------------------------------------------------------------------- */

static unsigned g_visits;

static bool count_visit(void *user, uint32_t id)
{
    (void)user;
    (void)id;
    g_visits++;
    return true;
}

static bool emptied(const copse_distance *d)
{
    return d->distance == FLT_MAX && d->tree_id == COPSE_NONE && d->shape_id == COPSE_NONE;
}

/* Runs every query of q's kind against tree with pose, expecting `want`; on an error, every output
 * emptied and no visit. */
static void expect_status(const copse_octree *tree, const cq *q, const copse_distance_query *dq, copse_status want,
                          const char *what)
{
    uint32_t id = 7, ids[4];
    copse_id_list list = copse_id_list_make(ids, 4);
    copse_distance d;
    copse_status st;
    memset(&d, 0x5a, sizeof d);
    if (dq == NULL) {
        st = cq_any(tree, q, &id);
        CHECKF(st == want && (want == COPSE_OK || id == COPSE_NONE), "%s %s any: %s (id %u), expected %s",
               k_kind_names[q->kind], what, copse_status_str(st), (unsigned)id, copse_status_str(want));
    }
    st = cq_distance(q, tree, dq, &d);
    CHECKF(st == want && (want == COPSE_OK || emptied(&d)), "%s %s distance: %s (%.9g, id %u), expected %s",
           k_kind_names[q->kind], what, copse_status_str(st), (double)d.distance, (unsigned)d.tree_id,
           copse_status_str(want));
    if (!cq_has_list(q) || dq != NULL)
        return;
    list.count = 3;
    list.truncated = true;
    st = cq_overlap(tree, q, &list);
    CHECKF(st == want && (want == COPSE_OK || (list.count == 0u && !list.truncated)),
           "%s %s overlap: %s (%u listed), expected %s", k_kind_names[q->kind], what, copse_status_str(st),
           (unsigned)list.count, copse_status_str(want));
    g_visits = 0;
    st = cq_visit(tree, q, count_visit, NULL);
    CHECKF(st == want && (want == COPSE_OK || g_visits == 0u), "%s %s visit: %s (%u visits), expected %s",
           k_kind_names[q->kind], what, copse_status_str(st), g_visits, copse_status_str(want));
}

static void make_valid(cq *q, q_kind kind)
{
    static const copse_vec3 hull[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    switch (kind) {
    case Q_SPHERE:
        exact_sphere(q, 1, 1, 1, 1);
        break;
    case Q_CAPSULE:
        exact_capsule(q, copse_v3(0, 0, 0), copse_v3(1, 1, 1), 0.5f);
        break;
    case Q_OBB:
        exact_box(q, 1, 1, 1, 1, 1, 1);
        break;
    case Q_TRIANGLE:
        exact_triangle(q, copse_v3(0, 0, 0), copse_v3(2, 0, 0), copse_v3(0, 2, 0));
        break;
    case Q_CONVEX:
    default:
        exact_convex(q, hull, 4);
        break;
    }
}

/* The shape's first coordinate, radius or half extent, for poisoning. */
static float *shape_coord(cq *q)
{
    switch (q->kind) {
    case Q_SPHERE:
        return &q->sphere.center.x;
    case Q_CAPSULE:
        return &q->capsule.segment.b.y;
    case Q_OBB:
        return &q->obb.center.z;
    case Q_TRIANGLE:
        return &q->tri.c.x;
    case Q_CONVEX:
    default:
        return &q->hull[2].y;
    }
}

static void test_errors(void)
{
    static const copse_vec3 grid[8] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                       {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    ot_point_tree pt;
    copse_octree zero;
    unsigned kind;
    tk_pool_reset();
    tk_context("errors");
    if (!ot_point_build(&pt, grid, NULL, 8, 8, 2, 2, COPSE_OCTREE_MAX_DEPTH, 0, 0))
        return;
    memset(&zero, 0, sizeof zero);
    for (kind = 0; kind < Q_KINDS; kind++) {
        cq q;
        copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
        uint32_t id = 7;
        copse_distance d;
        make_valid(&q, (q_kind)kind);
        expect_status(&pt.tree, &q, NULL, COPSE_OK, "valid");
        expect_status(&zero, &q, NULL, COPSE_OK, "zeroed tree");
        CHECK(cq_any(&zero, &q, &id) == COPSE_OK && id == COPSE_NONE);
        CHECK(cq_distance(&q, &zero, NULL, &d) == COPSE_OK && emptied(&d));
        expect_status(NULL, &q, NULL, COPSE_ERR_NULL, "NULL tree");
        /* poses: NaN, infinite, scaled, sheared, mirrored; within the tolerance */
        q.posed = true;
        q.pose = copse_pose_translation(copse_v3(NAN, 0, 0));
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "NaN pose");
        q.pose = copse_pose_identity();
        q.pose.rotation[1][2] = INFINITY;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "infinite pose");
        q.pose = copse_pose_identity();
        q.pose.rotation[0][0] = q.pose.rotation[1][1] = q.pose.rotation[2][2] = 2.0f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "scaled pose");
        q.pose = copse_pose_identity();
        q.pose.rotation[0][1] = 1e-3f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "sheared pose");
        q.pose = copse_pose_identity();
        q.pose.rotation[2][2] = -1.0f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "mirror pose");
        q.pose = copse_pose_identity();
        q.pose.rotation[0][0] = 1.0f + 2e-5f;
        expect_status(&pt.tree, &q, NULL, COPSE_OK, "pose within the tolerance");
        q.posed = false;
        /* coordinates */
        *shape_coord(&q) = NAN;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "NaN coordinate");
        *shape_coord(&q) = -INFINITY;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "infinite coordinate");
        make_valid(&q, (q_kind)kind);
        /* distance queries: negative errors, negative or NaN cut-off */
        dq.abs_err = -1.0f;
        expect_status(&pt.tree, &q, &dq, COPSE_ERR_PARAM, "negative abs_err");
        dq.abs_err = 0.0f;
        dq.rel_err = -0.5f;
        expect_status(&pt.tree, &q, &dq, COPSE_ERR_PARAM, "negative rel_err");
        dq.rel_err = 0.0f;
        dq.max_distance = -1.0f;
        expect_status(&pt.tree, &q, &dq, COPSE_ERR_EMPTY_RANGE, "negative max_distance");
        dq.max_distance = NAN;
        expect_status(&pt.tree, &q, &dq, COPSE_ERR_NONFINITE, "NaN max_distance");
        dq.max_distance = 0.0f;
        expect_status(&pt.tree, &q, &dq, COPSE_OK, "max_distance 0");
        /* NULL outputs and shapes */
        CHECK_STATUS(cq_any(&pt.tree, &q, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(cq_distance(&q, &pt.tree, NULL, NULL), COPSE_ERR_NULL);
        if (cq_has_list(&q)) {
            CHECK_STATUS(cq_overlap(&pt.tree, &q, NULL), COPSE_ERR_NULL);
            CHECK_STATUS(cq_visit(&pt.tree, &q, NULL, NULL), COPSE_ERR_NULL);
        }
    }
    { /* shape-specific: negative radius and half extents, bad box rotations, bad convex sets */
        cq q;
        uint32_t id = 7;
        copse_distance d;
        copse_id_list list;
        copse_convex cv;
        make_valid(&q, Q_SPHERE);
        q.sphere.radius = -1.0f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_EMPTY_RANGE, "negative radius");
        q.sphere.radius = NAN;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "NaN radius");
        make_valid(&q, Q_CAPSULE);
        q.capsule.radius = -FLT_MIN;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_EMPTY_RANGE, "negative radius");
        q.capsule.radius = INFINITY;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "infinite radius");
        make_valid(&q, Q_OBB);
        q.obb.half.y = -0.5f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_EMPTY_RANGE, "negative half extent");
        make_valid(&q, Q_OBB);
        q.obb.rotation[1][1] = -1.0f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "mirrored box rotation");
        make_valid(&q, Q_OBB);
        q.obb.rotation[2][0] = 0.5f;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "sheared box rotation");
        make_valid(&q, Q_OBB);
        q.obb.rotation[2][0] = NAN;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_NONFINITE, "NaN box rotation");
        make_valid(&q, Q_CONVEX);
        q.hull_count = 0;
        expect_status(&pt.tree, &q, NULL, COPSE_ERR_PARAM, "empty convex set");
        if (big_machine()) { /* more than the cap, every point readable and finite */
            size_t mark = tk_mark();
            copse_vec3 *many = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * (COPSE_CONVEX_MAX_POINTS + 1u));
            uint32_t i;
            if (many != NULL) {
                for (i = 0; i <= COPSE_CONVEX_MAX_POINTS; i++)
                    many[i] = copse_v3((float)(i % 3u), (float)(i % 5u), (float)(i % 7u));
                cv.points = many;
                cv.count = COPSE_CONVEX_MAX_POINTS + 1u;
                id = 7;
                CHECK(copse_octree_any_convex(&pt.tree, &cv, NULL, &id) == COPSE_ERR_PARAM && id == COPSE_NONE);
                memset(&d, 0x5a, sizeof d);
                CHECK(copse_distance_convex_octree(&cv, NULL, &pt.tree, NULL, &d) == COPSE_ERR_PARAM && emptied(&d));
                list = copse_id_list_make(&id, 1);
                CHECK(copse_octree_overlap_convex(&pt.tree, &cv, NULL, &list) == COPSE_ERR_PARAM && list.count == 0u);
                cv.count = COPSE_CONVEX_MAX_POINTS; /* the cap itself is fine */
                CHECK_STATUS(copse_octree_any_convex(&pt.tree, &cv, NULL, &id), COPSE_OK);
            }
            tk_rewind(mark);
        }
        cv.points = NULL;
        cv.count = 3;
        id = 7;
        CHECK(copse_octree_any_convex(&pt.tree, &cv, NULL, &id) == COPSE_ERR_NULL && id == COPSE_NONE);
        CHECK_STATUS(copse_octree_any_sphere(&pt.tree, NULL, NULL, &id), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_any_capsule(&pt.tree, NULL, NULL, &id), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_any_obb(&pt.tree, NULL, NULL, &id), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_any_triangle(&pt.tree, NULL, NULL, &id), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_any_convex(&pt.tree, NULL, NULL, &id), COPSE_ERR_NULL);
        CHECK_STATUS(copse_distance_sphere_octree(NULL, NULL, &pt.tree, NULL, &d), COPSE_ERR_NULL);
        CHECK_STATUS(copse_distance_obb_octree(NULL, NULL, &pt.tree, NULL, &d), COPSE_ERR_NULL);
        list = copse_id_list_make(&id, 1);
        CHECK_STATUS(copse_octree_overlap_triangle(&pt.tree, NULL, NULL, &list), COPSE_ERR_NULL);
    }
    { /* meshes: a 2D tree, a box tree, a NULL mesh, a bad distance */
        static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        static const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 2, 2}, {3, 3, 3}}};
        copse_mesh mesh;
        copse_bvh flat, box, good;
        copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
        copse_arena arena;
        size_t bytes = copse_bvh_build_bytes(1, 3, &params) + copse_bvh_build_bytes(1, 2, &params) +
                       copse_bvh_build_bytes(2, 3, &params);
        void *mem = tk_alloc(bytes);
        copse_distance d;
        uint32_t ids[4];
        copse_id_list list;
        copse_pose bad = copse_pose_identity();
        if (mem == NULL)
            return;
        memset(&mesh, 0, sizeof mesh);
        mesh.positions = tri;
        mesh.vertex_count = 3;
        mesh.index_type = COPSE_MESH_INDEX_NONE;
        mesh.triangle_count = 1;
        copse_arena_init(&arena, mem, bytes);
        CHECK_STATUS(copse_bvh_build_mesh(&good, &arena, &mesh, &params), COPSE_OK);
        params.projection = COPSE_BVH_PROJECT_XZ;
        CHECK_STATUS(copse_bvh_build_mesh(&flat, &arena, &mesh, &params), COPSE_OK);
        params.projection = COPSE_BVH_PROJECT_NONE;
        CHECK_STATUS(copse_bvh_build_boxes3(&box, &arena, boxes, NULL, 2, &params), COPSE_OK);
        memset(&d, 0x5a, sizeof d);
        CHECK(copse_distance_bvh_octree(&good, NULL, &pt.tree, NULL, &d) == COPSE_OK && d.distance == 0.0f);
        memset(&d, 0x5a, sizeof d);
        CHECK(copse_distance_bvh_octree(&flat, NULL, &pt.tree, NULL, &d) == COPSE_ERR_DIMENSION && emptied(&d));
        memset(&d, 0x5a, sizeof d);
        CHECK(copse_distance_bvh_octree(&box, NULL, &pt.tree, NULL, &d) == COPSE_ERR_KIND && emptied(&d));
        CHECK_STATUS(copse_distance_bvh_octree(NULL, NULL, &pt.tree, NULL, &d), COPSE_ERR_NULL);
        CHECK_STATUS(copse_distance_bvh_octree(&good, NULL, NULL, NULL, &d), COPSE_ERR_NULL);
        CHECK_STATUS(copse_distance_bvh_octree(&good, NULL, &pt.tree, NULL, NULL), COPSE_ERR_NULL);
        bad.rotation[0][0] = 2.0f;
        memset(&d, 0x5a, sizeof d);
        CHECK(copse_distance_bvh_octree(&good, &bad, &pt.tree, NULL, &d) == COPSE_ERR_PARAM && emptied(&d));
        list = copse_id_list_make(ids, 4);
        CHECK(copse_octree_overlap_bvh(&pt.tree, &good, NULL, 0.0f, &list) == COPSE_OK && list.count == 3u);
        list.truncated = true;
        CHECK(copse_octree_overlap_bvh(&pt.tree, &flat, NULL, 0.0f, &list) == COPSE_ERR_DIMENSION && list.count == 0u &&
              !list.truncated);
        list.count = 2;
        CHECK(copse_octree_overlap_bvh(&pt.tree, &box, NULL, 0.0f, &list) == COPSE_ERR_KIND && list.count == 0u);
        list.count = 2;
        CHECK(copse_octree_overlap_bvh(&pt.tree, &good, NULL, -1.0f, &list) == COPSE_ERR_EMPTY_RANGE && list.count == 0u);
        list.count = 2;
        CHECK(copse_octree_overlap_bvh(&pt.tree, &good, NULL, NAN, &list) == COPSE_ERR_NONFINITE && list.count == 0u);
        list.count = 2;
        CHECK(copse_octree_overlap_bvh(&pt.tree, &good, &bad, 0.0f, &list) == COPSE_ERR_PARAM && list.count == 0u);
        CHECK_STATUS(copse_octree_overlap_bvh(&pt.tree, NULL, NULL, 0.0f, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_overlap_bvh(NULL, &good, NULL, 0.0f, &list), COPSE_ERR_NULL);
        CHECK_STATUS(copse_octree_overlap_bvh(&pt.tree, &good, NULL, 0.0f, NULL), COPSE_ERR_NULL);
        g_visits = 0;
        CHECK(copse_octree_visit_bvh(&pt.tree, &flat, NULL, 1.0f, count_visit, NULL) == COPSE_ERR_DIMENSION &&
              g_visits == 0u);
        CHECK(copse_octree_visit_bvh(&pt.tree, &box, NULL, 1.0f, count_visit, NULL) == COPSE_ERR_KIND && g_visits == 0u);
        CHECK(copse_octree_visit_bvh(&pt.tree, &good, NULL, -2.0f, count_visit, NULL) == COPSE_ERR_EMPTY_RANGE &&
              g_visits == 0u);
        CHECK_STATUS(copse_octree_visit_bvh(&pt.tree, &good, NULL, 1.0f, NULL, NULL), COPSE_ERR_NULL);
        CHECK(copse_octree_visit_bvh(&pt.tree, &good, NULL, 0.0f, count_visit, NULL) == COPSE_OK && g_visits == 3u);
    }
}

void suite_collide_octree(void)
{
    memset(g_worst, 0, sizeof g_worst);
    g_worst_ctx[0] = '\0';
    test_run("collide_octree/oracle", test_oracle);
    test_run("collide_octree/sphere", test_sphere);
    test_run("collide_octree/capsule", test_capsule);
    test_run("collide_octree/obb", test_obb);
    test_run("collide_octree/triangle", test_triangle);
    test_run("collide_octree/convex", test_convex);
    test_run("collide_octree/exact", test_exact);
    test_run("collide_octree/mesh", test_mesh);
    test_run("collide_octree/mesh_exact", test_mesh_exact);
    test_run("collide_octree/errors", test_errors);
    tk_tally_report("collide_octree");
    copse_port_printf("info collide_octree: worst distance error in FLT_EPSILON * M (allowed %g): sphere %.3g, capsule "
                      "%.3g, obb %.3g, triangle %.3g, convex %.3g, mesh %.3g; the worst in %s\n",
                      DIST_K, g_worst[0], g_worst[1], g_worst[2], g_worst[3], g_worst[4], g_worst[5], g_worst_ctx);
}

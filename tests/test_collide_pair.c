/* SPDX-License-Identifier: MIT */
/*
 * A mesh against a mesh (copse/collide.h: copse_bvh_any_bvh, _overlap_bvh, _visit_bvh,
 * copse_distance_bvh_bvh) against the double-precision oracle (oracle/oracle_collide.h): every
 * pair of triangles, brute force.
 *
 * Scenes: pairs of the BVH kit's random meshes (every index layout; duplicates, coincident and
 * degenerate triangles) of sizes 0 to a large one from test memory, trees of leaf 1, 4 and 7,
 * SAH and median; the posed mesh at random poses (NULL, the identity, axis permutations, random
 * rotations, interpenetrating, far). And meshes of small integer coordinates, where every test
 * is exact in float and in the oracle: a mesh against itself (every triangle touches itself and
 * its neighbours), a vertex placed exactly on the other mesh's face, coplanar layers shifted in
 * their plane, random soups at axis-permuting poses. There the band is 0: the contract promises
 * exact orientation tests on the float coordinates.
 *
 * Rules: pair sets are the oracle's, except pairs within the boundary band (the kit's tally);
 * `separation` is 0 when pairs touch and at most the oracle's distance otherwise; distances as
 * in test_collide_bvh.c, with both triangles and both points.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "oracle/oracle_collide.h"
#include "suites.h"
#include "test_bvh.h"

#define DIST_K 64.0 /* distance tolerance, in FLT_EPSILON of the largest magnitude involved */
#define BAND_K 8.0  /* boundary band, likewise, at a pose that rounds */

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

static double rnd(test_rng *rng, double lo, double hi)
{
    return (double)test_rng_float(rng, (float)lo, (float)hi);
}

static void vd(double *out, copse_vec3 v)
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

static double g_worst_k;
static unsigned long g_dist_checks, g_exact_pairs;
static unsigned g_described, g_query;

/* Counted per posed pair of meshes (one oracle answer), not per pair of trees judged. */
static bool g_ex_any, g_ex_set;

static void tally(bool excused, bool edge)
{
    tk_tally_now.comparisons++;
    if (excused && edge)
        tk_tally_now.edge_excused++;
    else if (excused)
        tk_tally_now.excused++;
}

/* ---- a posed mesh ------------------------------------------------------------------------------ */

typedef enum pose_kind { POSE_NULL, POSE_IDENTITY, POSE_AXES, POSE_RANDOM, POSE_INSIDE, POSE_FAR } pose_kind;
static const char *const k_pose_names[] = {"NULL", "identity", "axes", "random", "inside", "far"};

typedef struct pq {
    pose_kind pk;
    copse_pose pose_f;
    const copse_pose *pose;
    orcc_pose pose_d; /* the float pose, read in double */
    bool exact;       /* the pose adds no rounding (and the meshes are small integers, or it is NULL / identity) */
    bool edge;        /* built on a boundary on purpose */
} pq;

static void set_pose(pq *q, const orcc_pose *p, pose_kind pk, bool exact)
{
    q->pk = pk;
    q->exact = exact;
    if (pk == POSE_NULL) {
        q->pose = NULL;
        orcc_pose_identity(&q->pose_d);
        return;
    }
    orcc_pose_to_float(&q->pose_f, p);
    q->pose = &q->pose_f;
    orcc_pose_of(&q->pose_d, q->pose);
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

static void centre_of(const tk_scene *sc, double *c)
{
    int k;
    for (k = 0; k < 3; k++)
        c[k] = 0.5 * (sc->lo[k] + sc->hi[k]);
}

/* A pose for mesh m against tree t: m's centre carried near (or into, or far from) t's. */
static void random_pose(pq *q, const tk_scene *t, const tk_scene *m, test_rng *rng)
{
    static const pose_kind kinds[8] = {POSE_NULL,   POSE_IDENTITY, POSE_AXES, POSE_RANDOM,
                                       POSE_RANDOM, POSE_INSIDE,   POSE_FAR,  POSE_RANDOM};
    pose_kind pk = kinds[test_rng_below(rng, 8)];
    double ct[3], cm[3], rc[3], s = dmx(t->diag, m->diag) + 1.0;
    orcc_pose p;
    int k;
    memset(q, 0, sizeof *q);
    centre_of(t, ct);
    centre_of(m, cm);
    orcc_pose_identity(&p);
    if (pk == POSE_AXES) {
        unsigned perm = test_rng_below(rng, 6);
        orcc_pose_axes(&p, perm, test_rng_below(rng, 8));
    } else if (pk >= POSE_RANDOM) {
        rotation_random(rng, &p);
        orcc_pose_apply_dir(&p, cm, rc);
        for (k = 0; k < 3; k++) {
            double off = pk == POSE_INSIDE ? rnd(rng, -0.1, 0.1) * s
                         : pk == POSE_FAR  ? (test_rng_below(rng, 2) ? 3.0 : -3.0) * s
                                           : rnd(rng, -0.6, 0.6) * s;
            p.t[k] = ct[k] + off - rc[k];
        }
    }
    set_pose(q, &p, pk, pk <= POSE_AXES);
}

/* ---- the oracle's answer ---------------------------------------------------------------------- */

typedef struct answer {
    uint8_t *verdict; /* [t * nm + s] */
    orcc_nearest near;
    double M, band, tol;
    uint32_t nt, nm;
    bool any_yes, any_edge;
} answer;

static answer *answer_make(const tk_scene *t, const tk_scene *m, const pq *q)
{
    answer *a = (answer *)tk_alloc(sizeof(answer));
    size_t cells = (size_t)t->n * m->n, i;
    if (a == NULL)
        return NULL;
    a->verdict = (uint8_t *)tk_alloc(cells + 1u);
    if (a->verdict == NULL)
        return NULL;
    a->nt = t->n;
    a->nm = m->n;
    a->M = dmx(t->mag, dmx(m->mag, orcc_pose_reach(&q->pose_d, m->mag)));
    a->band = q->exact ? 0.0 : BAND_K * ORC_FLT_EPS * a->M;
    a->tol = DIST_K * ORC_FLT_EPS * a->M;
    orcc_pairs_overlap(&t->mesh, &m->mesh, &q->pose_d, a->band, a->verdict);
    orcc_pairs_nearest(&t->mesh, &m->mesh, &q->pose_d, &a->near);
    a->any_yes = a->any_edge = false;
    for (i = 0; i < cells; i++) {
        a->any_yes |= a->verdict[i] == ORC_YES;
        a->any_edge |= orc_fragile((orc_verdict)a->verdict[i]);
    }
    return a;
}

typedef struct tree_pair {
    const tk_tree *t, *m;
} tree_pair;

static const char *tag(const tree_pair *tp)
{
    static char buf[128];
    copse_port_snprintf(buf, sizeof buf, "%s [%s/%u vs %s/%u] q%u", tk_ctx(), tk_split_name(tp->t->params.split),
                        (unsigned)tp->t->params.leaf_size, tk_split_name(tp->m->params.split),
                        (unsigned)tp->m->params.leaf_size, g_query);
    return buf;
}

static void describe(const pq *q)
{
    unsigned i;
    if (g_described++ >= 4u)
        return;
    copse_port_printf("    pose %s", k_pose_names[q->pk]);
    if (q->pose != NULL) {
        copse_port_printf(" R=[");
        for (i = 0; i < 9; i++)
            copse_port_printf("%s%.9g", i == 0 ? "" : ", ", (double)q->pose->rotation[i / 3][i % 3]);
        copse_port_printf("] t=(%.9g, %.9g, %.9g)", (double)q->pose->translation.x, (double)q->pose->translation.y,
                          (double)q->pose->translation.z);
    }
    copse_port_printf("\n");
}

/* ---- judges: pair sets ------------------------------------------------------------------------- */

typedef struct pair_sink {
    copse_pair *pairs;
    uint32_t cap, count, stop_after;
} pair_sink;

static bool sink_pair(void *user, const copse_pair *p)
{
    pair_sink *s = (pair_sink *)user;
    if (s->count < s->cap)
        s->pairs[s->count] = *p;
    s->count++;
    return s->count < s->stop_after;
}

static bool same_pairs(const copse_pair *a, const copse_pair *b, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (a[i].tree_id != b[i].tree_id || a[i].shape_id != b[i].shape_id)
            return false;
    return true;
}

/* separation: 0 when pairs touch; at most the distance when none does. */
static bool check_separation(const tree_pair *tp, const answer *a, float sep, bool found, const char *what)
{
    bool ok = true;
    ok &= CHECKF(sep >= 0.0f && sep == sep, "%s: %s: separation %.9g", tag(tp), what, (double)sep);
    if (found || a->any_yes)
        ok &= CHECKF(sep == 0.0f || (!a->any_yes && a->any_edge),
                     "%s: %s: pairs touch, but separation is %.9g", tag(tp), what, (double)sep);
    else if (a->near.tree_id != COPSE_NONE)
        ok &= CHECKF((double)sep <= a->near.c.distance + a->tol,
                     "%s: %s: separation %.9g exceeds the distance %.9g (pair %u, %u)", tag(tp), what, (double)sep,
                     a->near.c.distance, (unsigned)a->near.tree_id, (unsigned)a->near.shape_id);
    return ok;
}

static void judge_sets(const pq *q, const tree_pair *tp, const answer *a, test_rng *rng)
{
    const uint32_t nt = a->nt, nm = a->nm;
    const size_t cells = (size_t)nt * nm;
    size_t mark = tk_mark();
    copse_pair *pairs = (copse_pair *)tk_alloc((cells + 1u) * sizeof(copse_pair));
    copse_pair *buf = (copse_pair *)tk_alloc((cells + 1u) * sizeof(copse_pair));
    uint8_t *seen = (uint8_t *)tk_alloc(cells + 1u);
    copse_pair w;
    copse_pair_list list;
    pair_sink s;
    copse_status st;
    float sep;
    uint32_t i, bad = 0, wrong = 0, wt = 0, wm = 0, caps[3], c;
    bool ok = true, excused = false;
    if (pairs == NULL || buf == NULL || seen == NULL)
        goto done;
    memset(seen, 0, cells + 1u);

    /* any: a witness the oracle accepts */
    w.tree_id = w.shape_id = 0x1234u;
    sep = -1.0f;
    st = copse_bvh_any_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, &w, &sep);
    ok &= CHECKF(st == COPSE_OK && ((w.tree_id == COPSE_NONE && w.shape_id == COPSE_NONE) ||
                                    (w.tree_id < nt && w.shape_id < nm)),
                 "%s: any_bvh: %s, witness (%u, %u)", tag(tp), copse_status_str(st), (unsigned)w.tree_id,
                 (unsigned)w.shape_id);
    if (w.tree_id == COPSE_NONE) {
        ok &= CHECKF(!a->any_yes, "%s: any_bvh found nothing, but pairs touch (oracle)", tag(tp));
        excused = a->any_edge;
    } else if (w.tree_id < nt && w.shape_id < nm) {
        uint8_t v = a->verdict[(size_t)w.tree_id * nm + w.shape_id];
        ok &= CHECKF(v != ORC_NO, "%s: any_bvh: witness (%u, %u) is apart (oracle)", tag(tp), (unsigned)w.tree_id,
                     (unsigned)w.shape_id);
        excused = v == ORC_EDGE_NO;
    }
    g_ex_any |= excused;
    excused = false;
    ok &= check_separation(tp, a, sep, w.tree_id != COPSE_NONE, "any_bvh");
    st = copse_bvh_any_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, &w, NULL);
    ok &= CHECKF(st == COPSE_OK, "%s: any_bvh without separation: %s", tag(tp), copse_status_str(st));

    /* overlap: the whole set, against the oracle */
    list = copse_pair_list_make(pairs, (uint32_t)cells + 1u);
    list.count = 99u;
    sep = -1.0f;
    st = copse_bvh_overlap_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, &list, &sep);
    ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= cells, "%s: overlap_bvh: %s, %u pairs", tag(tp),
                 copse_status_str(st), (unsigned)list.count);
    if (list.count > cells)
        list.count = 0;
    for (i = 0; i < list.count; i++) {
        size_t cell = (size_t)pairs[i].tree_id * nm + pairs[i].shape_id;
        if (pairs[i].tree_id >= nt || pairs[i].shape_id >= nm || seen[cell])
            bad++;
        else
            seen[cell] = 1;
    }
    ok &= CHECKF(bad == 0, "%s: overlap_bvh: %u unknown or repeated pairs", tag(tp), (unsigned)bad);
    for (i = 0; i < cells; i++) {
        if ((seen[i] != 0) != orc_exact((orc_verdict)a->verdict[i])) {
            if (orc_fragile((orc_verdict)a->verdict[i])) {
                excused = true;
            } else {
                wrong++;
                wt = (uint32_t)(i / nm);
                wm = (uint32_t)(i % nm);
            }
        }
    }
    g_ex_set |= excused;
    if (q->exact)
        g_exact_pairs += cells;
    ok &= CHECKF(wrong == 0, "%s: overlap_bvh: %u pairs wrong, e.g. (%u, %u) %s (band %.3g)", tag(tp), (unsigned)wrong,
                 (unsigned)wt, (unsigned)wm,
                 wrong > 0 && seen[(size_t)wt * nm + wm] ? "reported, the oracle says apart"
                                                         : "missing, the oracle says they touch",
                 a->band);
    ok &= check_separation(tp, a, sep, list.count > 0, "overlap_bvh");
    ok &= CHECKF((list.count == 0) == (w.tree_id == COPSE_NONE) &&
                     (w.tree_id == COPSE_NONE || seen[(size_t)w.tree_id * nm + w.shape_id]),
                 "%s: any_bvh gave (%u, %u), overlap_bvh %u pairs", tag(tp), (unsigned)w.tree_id,
                 (unsigned)w.shape_id, (unsigned)list.count);
    st = copse_bvh_overlap_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, &list, NULL);
    ok &= CHECKF(st == COPSE_OK, "%s: overlap_bvh without separation: %s", tag(tp), copse_status_str(st));

    /* the visitor: the same sequence; stopped early, a prefix */
    s.pairs = buf;
    s.cap = (uint32_t)cells + 1u;
    s.count = 0;
    s.stop_after = 0xFFFFFFFFu;
    sep = -1.0f;
    st = copse_bvh_visit_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, sink_pair, &s, &sep);
    ok &= CHECKF(st == COPSE_OK && s.count == list.count && same_pairs(buf, pairs, list.count),
                 "%s: visit_bvh gave %u pairs, overlap_bvh %u (or in another order)", tag(tp), (unsigned)s.count,
                 (unsigned)list.count);
    ok &= check_separation(tp, a, sep, s.count > 0, "visit_bvh");
    if (list.count > 0) {
        s.count = 0;
        s.stop_after = 1u + test_rng_below(rng, list.count);
        st = copse_bvh_visit_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, sink_pair, &s, NULL);
        ok &= CHECKF(st == COPSE_OK && s.count == s.stop_after && same_pairs(buf, pairs, s.count),
                     "%s: visit_bvh stopping after %u was called %u times", tag(tp), (unsigned)s.stop_after,
                     (unsigned)s.count);
    }
    caps[0] = 0;
    caps[1] = 1;
    caps[2] = test_rng_below(rng, list.count + 2u);
    for (c = 0; c < 3; c++) {
        copse_pair_list part = copse_pair_list_make(caps[c] > 0 ? buf : NULL, caps[c]);
        uint32_t expect = list.count < caps[c] ? list.count : caps[c];
        st = copse_bvh_overlap_bvh(&tp->t->bvh, &tp->m->bvh, q->pose, &part, NULL);
        ok &= CHECKF(st == COPSE_OK && part.count == expect && part.truncated == (list.count > caps[c]) &&
                         same_pairs(buf, pairs, expect),
                     "%s: overlap_bvh at capacity %u: count %u truncated %d, of %u", tag(tp), (unsigned)caps[c],
                     (unsigned)part.count, (int)part.truncated, (unsigned)list.count);
    }
done:
    tk_rewind(mark);
    if (!ok)
        describe(q);
}

/* ---- judges: distance ------------------------------------------------------------------------ */

static bool same_distance(const copse_distance *a, const copse_distance *b)
{
    return a->distance == b->distance && a->depth == b->depth && a->tree_id == b->tree_id &&
           a->shape_id == b->shape_id && a->tree_point.x == b->tree_point.x && a->tree_point.y == b->tree_point.y &&
           a->tree_point.z == b->tree_point.z && a->shape_point.x == b->shape_point.x &&
           a->shape_point.y == b->shape_point.y && a->shape_point.z == b->shape_point.z &&
           a->normal.x == b->normal.x && a->normal.y == b->normal.y && a->normal.z == b->normal.z;
}

static bool check_distance(const char *what, const tk_scene *t, const tk_scene *m, const tree_pair *tp, const pq *q,
                           const answer *a, const copse_distance *o, copse_status st, float max_distance, bool exact,
                           double hi)
{
    const double tol = a->tol, dstar = a->near.tree_id == COPSE_NONE ? -1.0 : a->near.c.distance;
    double A[3][3], B[3][3], pa[3], pb[3], d, d_id, tpnt[3], spnt[3], nv[3], nl, tmp[3], off_t, off_s;
    uint32_t j, k;
    bool ok = true;
    if (!CHECKF(st == COPSE_OK, "%s: %s: %s", tag(tp), what, copse_status_str(st)))
        return false;
    if (o->tree_id == COPSE_NONE) {
        ok &= CHECKF(o->distance == FLT_MAX && o->shape_id == COPSE_NONE, "%s: %s: no pair, but distance %.9g",
                     tag(tp), what, (double)o->distance);
        ok &= CHECKF(dstar < 0.0 || dstar > (double)max_distance - tol,
                     "%s: %s found nothing within %.9g, but pair (%u, %u) is %.9g apart (oracle)", tag(tp), what,
                     (double)max_distance, (unsigned)a->near.tree_id, (unsigned)a->near.shape_id, dstar);
        return ok;
    }
    if (!CHECKF(o->tree_id < t->n && o->shape_id < m->n && o->distance >= 0.0f && o->distance <= max_distance &&
                    o->depth == 0.0f,
                "%s: %s: pair (%u, %u) distance %.9g depth %.9g (max %.9g)", tag(tp), what, (unsigned)o->tree_id,
                (unsigned)o->shape_id, (double)o->distance, (double)o->depth, (double)max_distance))
        return false;
    ok &= CHECKF(dstar <= (double)max_distance + tol, "%s: %s found (%u, %u) at %.9g, but nothing within %.9g",
                 tag(tp), what, (unsigned)o->tree_id, (unsigned)o->shape_id, (double)o->distance,
                 (double)max_distance);
    d = (double)o->distance;
    if (exact) {
        double err = dab(d - dstar), kk = err / (ORC_FLT_EPS * a->M);
        g_worst_k = dmx(g_worst_k, kk);
        g_dist_checks++;
        ok &= CHECKF(err <= tol, "%s: %s %.9g, oracle %.9g (pair %u, %u): off by %.3g = %.1f eps*M", tag(tp), what, d,
                     dstar, (unsigned)a->near.tree_id, (unsigned)a->near.shape_id, err, kk);
    } else {
        ok &= CHECKF(d >= dstar - tol && d <= hi + tol, "%s: %s %.9g outside [%.9g, %.9g]", tag(tp), what, d, dstar,
                     hi);
    }
    /* the reported pair is that far apart; the points lie on its triangles */
    orcc_mesh_triangle(&t->mesh, o->tree_id, A);
    orcc_mesh_triangle_posed(&m->mesh, o->shape_id, &q->pose_d, B);
    d_id = orcc_triangle_triangle((const double(*)[3])A, (const double(*)[3])B, pa, pb);
    if (exact)
        ok &= CHECKF(dab(d_id - d) <= tol, "%s: %s: pair (%u, %u) is %.9g apart, not %.9g", tag(tp), what,
                     (unsigned)o->tree_id, (unsigned)o->shape_id, d_id, d);
    else
        ok &= CHECKF(d_id <= d + tol, "%s: %s: pair (%u, %u) is %.9g apart, more than %.9g", tag(tp), what,
                     (unsigned)o->tree_id, (unsigned)o->shape_id, d_id, d);
    vd(tpnt, o->tree_point);
    vd(spnt, o->shape_point);
    vd(nv, o->normal);
    off_t = orc_closest_triangle(tpnt, A[0], A[1], A[2], tmp);
    off_s = orc_closest_triangle(spnt, B[0], B[1], B[2], tmp);
    ok &= CHECKF(off_t <= tol && off_s <= tol, "%s: %s: tree_point %.3g off, shape_point %.3g off their triangles",
                 tag(tp), what, off_t, off_s);
    ok &= CHECKF(dab(orc_dist(tpnt, spnt) - d) <= 2.0 * tol, "%s: %s: points %.9g apart, distance %.9g", tag(tp),
                 what, orc_dist(tpnt, spnt), d);
    nl = orc_len(nv);
    ok &= CHECKF(nl == 0.0 || dab(nl - 1.0) <= 1e-5, "%s: %s: normal of length %.9g", tag(tp), what, nl);
    if (d_id > 1000.0 * tol) {
        double u[3];
        for (k = 0; k < 3; k++)
            u[k] = (pb[k] - pa[k]) / d_id;
        ok &= CHECKF(nl > 0.0 && orc_dot(nv, u) >= 0.999 * nl,
                     "%s: %s: normal (%.6g, %.6g, %.6g), oracle direction (%.6g, %.6g, %.6g)", tag(tp), what, nv[0],
                     nv[1], nv[2], u[0], u[1], u[2]);
    } else if (d > tol) {
        ok &= CHECKF(nl > 0.0, "%s: %s: zero normal for points %.9g apart", tag(tp), what, d);
    }
    /* ties go to the lower ids, except at contact: collide.h says touching ends the query, the
     * first touching pair the walk finds being the answer (checked above: it touches) */
    if (exact && o->distance > 0.0f) {
        for (j = 0; j < o->tree_id; j++)
            if (tk_prim_same(t, j, o->tree_id))
                break;
        ok &= CHECKF(j == o->tree_id, "%s: %s reported tree triangle %u, but %u is the same", tag(tp), what,
                     (unsigned)o->tree_id, (unsigned)j);
        for (j = 0; j < o->shape_id; j++)
            if (tk_prim_same(m, j, o->shape_id))
                break;
        ok &= CHECKF(j == o->shape_id, "%s: %s reported mesh triangle %u, but %u is the same", tag(tp), what,
                     (unsigned)o->shape_id, (unsigned)j);
    }
    return ok;
}

static void judge_distance(const tk_scene *t, const tk_scene *m, const tree_pair *tp, const pq *q, const answer *a,
                           double s)
{
    const copse_bvh *tb = &tp->t->bvh, *mb = &tp->m->bvh;
    const double tol = a->tol, dstar = a->near.tree_id == COPSE_NONE ? -1.0 : a->near.c.distance;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_distance o, o2;
    copse_status st;
    bool ok = true;
    memset(&o, 0x5A, sizeof o);
    st = copse_distance_bvh_bvh(mb, q->pose, tb, NULL, &o);
    ok &= check_distance("distance_bvh_bvh", t, m, tp, q, a, &o, st, FLT_MAX, true, 0.0);
    memset(&o2, 0xA5, sizeof o2);
    st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o2);
    ok &= CHECKF(st == COPSE_OK && same_distance(&o, &o2), "%s: the default query answers otherwise than NULL",
                 tag(tp));
    if (dstar >= 0.0) {
        if (dstar > 4.0 * tol) {
            dq.max_distance = (float)(0.5 * dstar);
            st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o);
            ok &= check_distance("distance (max below)", t, m, tp, q, a, &o, st, dq.max_distance, true, 0.0);
        }
        dq.max_distance = (float)(1.25 * dstar + 2.0 * tol);
        st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o);
        ok &= check_distance("distance (max above)", t, m, tp, q, a, &o, st, dq.max_distance, true, 0.0);
        dq.max_distance = 0.0f;
        st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o);
        ok &= check_distance("distance (max 0)", t, m, tp, q, a, &o, st, 0.0f, true, 0.0);
        dq.max_distance = (float)(2.0 * dstar + 2.0 * tol);
        dq.first_within = true;
        st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o);
        ok &= check_distance("distance (first within)", t, m, tp, q, a, &o, st, dq.max_distance, false,
                             (double)dq.max_distance);
        dq.first_within = false;
        dq.max_distance = FLT_MAX;
        dq.abs_err = (float)(0.1 * s);
        dq.rel_err = 0.5f;
        st = copse_distance_bvh_bvh(mb, q->pose, tb, &dq, &o);
        ok &= check_distance("distance (abs/rel err)", t, m, tp, q, a, &o, st, FLT_MAX, false,
                             (double)dq.abs_err + 1.5 * dstar);
    }
    if (!ok)
        describe(q);
}

/* Every tree of one mesh against every tree of the other (some of them on a small machine). */
static void judge_all(const tk_scene *t, const tk_scene *m, const tk_tree *tt, unsigned ntt, const tk_tree *mt,
                      unsigned nmt, const pq *q, test_rng *rng)
{
    size_t mark = tk_mark();
    answer *a = answer_make(t, m, q);
    const double s = dmx(t->diag, m->diag) + 1.0;
    unsigned i, j;
    g_ex_any = g_ex_set = false;
    if (a != NULL)
        for (i = 0; i < ntt; i++)
            for (j = 0; j < nmt; j++) {
                tree_pair tp;
                if (!big_machine() && i != j)
                    continue;
                tp.t = &tt[i];
                tp.m = &mt[j];
                judge_sets(q, &tp, a, rng);
                judge_distance(t, m, &tp, q, a, s);
            }
    if (a != NULL && ntt > 0 && nmt > 0) {
        tally(g_ex_any, q->edge);
        tally(g_ex_set, q->edge);
    }
    tk_rewind(mark);
}

/* ---- scenes ---------------------------------------------------------------------------------- */

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_SAH};
static const uint32_t k_leaves[3] = {1, 4, 7};

/* Three trees over a scene (leaves 1, 4, 7; the middle one median, or all shifted by `flip`). */
static unsigned build_trees(tk_tree *trees, const tk_scene *sc, unsigned flip)
{
    unsigned i;
    for (i = 0; i < 3; i++) {
        copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        p.split = k_splits[(i + flip) % 3u];
        p.leaf_size = k_leaves[i];
        if (!tk_build(&trees[i], sc, &p))
            return i;
    }
    return 3;
}

static bool make_mesh(tk_scene *sc, uint32_t n, unsigned layout, test_rng *rng)
{
    tk_mesh_spec m;
    tk_mesh_spec_init(&m, n, layout == 0 ? TK_U16 : layout == 1 ? TK_U32 : TK_FLAT);
    m.stride = layout == 1 ? 20u : layout == 2 ? 16u : 12u;
    m.dup_pct = 4;
    m.coplanar_pct = 3;
    m.degen_pct = 4;
    return tk_make_mesh(sc, &m, rng);
}

static void run_pair(const tk_scene *t, const tk_scene *m, uint64_t seed, unsigned nposes)
{
    size_t mark = tk_mark();
    tk_tree *tt = (tk_tree *)tk_alloc(3u * sizeof(tk_tree)), *mt = (tk_tree *)tk_alloc(3u * sizeof(tk_tree));
    pq *q = (pq *)tk_alloc(sizeof(pq));
    unsigned ntt, nmt, i;
    test_rng rng;
    if (tt == NULL || mt == NULL || q == NULL)
        return;
    ntt = build_trees(tt, t, 0);
    nmt = t == m ? ntt : build_trees(mt, m, 1);
    if (t == m)
        memcpy(mt, tt, 3u * sizeof(tk_tree));
    test_rng_seed(&rng, seed);
    for (i = 0; i < nposes; i++) {
        g_query = i;
        random_pose(q, t, m, &rng);
        judge_all(t, m, tt, ntt, mt, nmt, q, &rng);
    }
    tk_rewind(mark);
}

static void test_random(void)
{
    const bool big = big_machine();
    uint32_t sizes[][2] = {{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 2}, {2, 5}, {4, 4}, {5, 8}, {8, 7}, {0, 0}, {0, 0}};
    unsigned nsizes = 9, s;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    {
        uint32_t large = tk_large_count(big ? 1500u : 2600u, big ? 400u : 300u);
        sizes[nsizes][0] = large;
        sizes[nsizes++][1] = large / 3u + 1u;
        sizes[nsizes][0] = large / 4u + 1u;
        sizes[nsizes++][1] = large / 2u;
    }
    for (s = 0; s < nsizes; s++) {
        size_t mark = tk_mark();
        uint64_t seed = 90000u + s;
        test_rng rng;
        tk_scene t, m;
        test_rng_seed(&rng, seed);
        tk_context("tree n=%u (%u) vs mesh n=%u (%u)", (unsigned)sizes[s][0], s % 3u, (unsigned)sizes[s][1],
                   (s + 1u) % 3u);
        if (CHECKF(make_mesh(&t, sizes[s][0], s % 3u, &rng) && make_mesh(&m, sizes[s][1], (s + 1u) % 3u, &rng),
                   "%s: scenes do not fit", tk_ctx()))
            run_pair(&t, &m, seed, sizes[s][0] <= 8u ? (big ? 12u : 3u) : (big ? 10u : 2u));
        tk_rewind(mark);
    }
    tk_tally_end();
}

/* A mesh against itself at the identity (NULL and a pointer): every triangle touches itself and
 * every triangle it shares a corner with; decided exactly. */
static void test_self(void)
{
    const bool big = big_machine();
    uint32_t sizes[3] = {1, 7, 0}, s;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    sizes[2] = tk_large_count(big ? 1500u : 2600u, big ? 300u : 120u);
    for (s = 0; s < 3; s++) {
        size_t mark = tk_mark();
        tk_tree *tt = (tk_tree *)tk_alloc(3u * sizeof(tk_tree));
        pq *q = (pq *)tk_alloc(sizeof(pq));
        copse_pair *pairs;
        uint8_t *hit;
        test_rng rng;
        tk_scene sc;
        orcc_pose id;
        unsigned ntt, i, k;
        test_rng_seed(&rng, 91000u + s);
        tk_context("self n=%u (%u)", (unsigned)sizes[s], (unsigned)s);
        if (tt == NULL || q == NULL || !CHECK(make_mesh(&sc, sizes[s], s, &rng)))
            return;
        ntt = build_trees(tt, &sc, 0);
        pairs = (copse_pair *)tk_alloc(((size_t)sc.n * sc.n + 1u) * sizeof(copse_pair));
        hit = (uint8_t *)tk_alloc((size_t)sc.n + 1u);
        if (pairs == NULL || hit == NULL)
            return;
        orcc_pose_identity(&id);
        for (k = 0; k < 2; k++) {
            memset(q, 0, sizeof *q);
            set_pose(q, &id, k == 0 ? POSE_NULL : POSE_IDENTITY, true);
            g_query = k;
            judge_all(&sc, &sc, tt, ntt, tt, ntt, q, &rng);
            for (i = 0; i < ntt; i++) { /* and explicitly: (t, t) for every t */
                copse_pair_list list = copse_pair_list_make(pairs, sc.n * sc.n + 1u);
                uint32_t j, missing = 0;
                memset(hit, 0, (size_t)sc.n + 1u);
                CHECK_STATUS(copse_bvh_overlap_bvh(&tt[i].bvh, &tt[i].bvh, q->pose, &list, NULL), COPSE_OK);
                for (j = 0; j < list.count; j++)
                    if (pairs[j].tree_id == pairs[j].shape_id && pairs[j].tree_id < sc.n)
                        hit[pairs[j].tree_id] = 1;
                for (j = 0; j < sc.n; j++)
                    missing += !hit[j];
                CHECKF(missing == 0, "%s [leaf %u]: %u triangles not reported touching themselves", tk_ctx(),
                       (unsigned)tt[i].params.leaf_size, (unsigned)missing);
            }
        }
        tk_rewind(mark);
    }
    tk_tally_end();
}

/* ---- integer meshes: every test exact --------------------------------------------------------- */

/* n triangles of small integer coordinates: `kind` 0 random in [0, 8]^3 (degenerate ones
 * included), 1 right triangles in planes x, y or z = const (lattice points inside), 2 all in
 * z = 0 (coplanar). Flat layout, or indexed by `indexed`. */
static bool int_mesh(tk_scene *sc, uint32_t n, unsigned kind, bool indexed, test_rng *rng)
{
    float *pos = (float *)tk_alloc((size_t)n * 36u + 4u);
    uint32_t *ix = indexed ? (uint32_t *)tk_alloc((size_t)n * 12u + 4u) : NULL;
    copse_mesh mesh;
    uint32_t t, k, a;
    if (pos == NULL || (indexed && ix == NULL))
        return false;
    for (t = 0; t < n; t++) {
        float *v = pos + (size_t)t * 9u;
        if (kind == 0) {
            for (k = 0; k < 9; k++)
                v[k] = (float)test_rng_below(rng, 9);
        } else {
            unsigned axis = kind == 2 ? 2u : test_rng_below(rng, 3), u = (axis + 1u) % 3u, w = (axis + 2u) % 3u;
            float c = kind == 2 ? 0.0f : (float)test_rng_below(rng, 9), x = (float)test_rng_below(rng, 6),
                  y = (float)test_rng_below(rng, 6), lu = (float)(3u + test_rng_below(rng, 5)),
                  lw = (float)(3u + test_rng_below(rng, 5));
            for (k = 0; k < 3; k++)
                v[3u * k + axis] = c;
            v[u] = x;
            v[w] = y;
            v[3u + u] = x + (test_rng_below(rng, 2) ? lu : -lu);
            v[3u + w] = y;
            v[6u + u] = x;
            v[6u + w] = y + (test_rng_below(rng, 2) ? lw : -lw);
        }
    }
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = 3u * n;
    mesh.triangle_count = n;
    if (indexed) {
        for (a = 0; a < 3u * n; a++)
            ix[a] = a;
        mesh.indices = ix;
        mesh.index_type = COPSE_MESH_INDEX_U32;
    }
    tk_scene_from_mesh(sc, &mesh, COPSE_BVH_PROJECT_NONE);
    return true;
}

/* Exact poses for integer meshes: axis permutations and integer shifts. */
static void exact_pose(pq *q, test_rng *rng, int reach)
{
    orcc_pose p;
    unsigned k, perm = test_rng_below(rng, 6);
    memset(q, 0, sizeof *q);
    orcc_pose_axes(&p, perm, test_rng_below(rng, 8));
    for (k = 0; k < 3; k++)
        p.t[k] = (double)((int)test_rng_below(rng, (unsigned)(2 * reach + 1)) - reach);
    set_pose(q, &p, POSE_AXES, true);
}

static void test_exact(void)
{
    const bool big = big_machine();
    const unsigned rounds = big ? 12u : 3u;
    unsigned r;
    tk_pool_reset();
    tk_tally_begin();
    g_described = 0;
    for (r = 0; r < rounds; r++) {
        size_t mark = tk_mark();
        unsigned kind = r % 3u, i;
        uint32_t nt = big ? 6u + 4u * r : 3u + r, nm = big ? 4u + 3u * r : 2u + r;
        tk_tree *tt = (tk_tree *)tk_alloc(3u * sizeof(tk_tree)), *mt = (tk_tree *)tk_alloc(3u * sizeof(tk_tree));
        pq *q = (pq *)tk_alloc(sizeof(pq));
        unsigned ntt, nmt;
        test_rng rng;
        tk_scene t, m, *mp = &m;
        test_rng_seed(&rng, 92000u + r);
        tk_context("integer meshes (%s) n=%u vs %u", kind == 0 ? "random" : kind == 1 ? "axis planes" : "coplanar",
                   (unsigned)nt, (unsigned)(kind == 2 ? nt : nm));
        if (kind == 2) /* coplanar layers: the same triangles, shifted in their plane */
            mp = &t;
        if (tt == NULL || mt == NULL || q == NULL || !int_mesh(&t, nt, kind, r % 2u == 0, &rng) ||
            (kind != 2 && !int_mesh(&m, nm, test_rng_below(&rng, 2), r % 2u == 1, &rng)))
            return;
        ntt = build_trees(tt, &t, r);
        nmt = build_trees(mt, mp, r + 1u);
        for (i = 0; i < (big ? 8u : 3u); i++) {
            g_query = i;
            if (kind == 2) { /* shifted by halves in the plane z = 0 */
                orcc_pose p;
                orcc_pose_identity(&p);
                p.t[0] = (double)((int)test_rng_below(&rng, 9) - 4) * 0.5;
                p.t[1] = (double)((int)test_rng_below(&rng, 9) - 4) * 0.5;
                memset(q, 0, sizeof *q);
                set_pose(q, &p, i == 0 ? POSE_NULL : POSE_AXES, true);
            } else {
                exact_pose(q, &rng, 6);
            }
            judge_all(&t, mp, tt, ntt, mt, nmt, q, &rng);
        }
        /* a vertex of the mesh placed exactly on a face of the tree's mesh (kind 1: lattice points
         * inside the faces) */
        if (kind == 1) {
            for (i = 0; i < (big ? 6u : 2u); i++) {
                orcc_pose p;
                double A[3][3], v[3], target[3];
                uint32_t ft = test_rng_below(&rng, t.n), vm = test_rng_below(&rng, m.n * 3u);
                unsigned k;
                orcc_mesh_triangle(&t.mesh, ft, A);
                for (k = 0; k < 3; k++) /* a lattice point inside the right triangle: 1 in from the corner */
                    target[k] = A[0][k] + (A[1][k] > A[0][k] ? 1.0 : A[1][k] < A[0][k] ? -1.0 : 0.0) +
                                (A[2][k] > A[0][k] ? 1.0 : A[2][k] < A[0][k] ? -1.0 : 0.0);
                tk_vertex(&m, vm, v);
                orcc_pose_axes(&p, test_rng_below(&rng, 6), test_rng_below(&rng, 8));
                orcc_pose_apply_dir(&p, v, v);
                for (k = 0; k < 3; k++)
                    p.t[k] = target[k] - v[k];
                memset(q, 0, sizeof *q);
                set_pose(q, &p, POSE_AXES, true);
                g_query = 100u + i;
                judge_all(&t, &m, tt, ntt, mt, nmt, q, &rng);
                { /* the pair of that face and that vertex's triangle must be reported */
                    copse_pair pairs[64];
                    copse_pair_list list = copse_pair_list_make(pairs, 64);
                    uint32_t j;
                    CHECK_STATUS(copse_bvh_overlap_bvh(&tt[0].bvh, &mt[0].bvh, q->pose, &list, NULL), COPSE_OK);
                    for (j = 0; j < list.count && !(pairs[j].tree_id == ft && pairs[j].shape_id == vm / 3u); j++)
                        ;
                    CHECKF(j < list.count || list.truncated,
                           "%s: a vertex of mesh triangle %u placed on tree face %u: the pair is not reported",
                           tk_ctx(), (unsigned)(vm / 3u), (unsigned)ft);
                }
            }
        }
        tk_rewind(mark);
    }
    tk_tally_end();
}

/* ---- bad input ------------------------------------------------------------------------------------ */

static unsigned g_visits;

static bool count_visit(void *user, const copse_pair *p)
{
    (void)user;
    (void)p;
    g_visits++;
    return true;
}

static void expect_refused(const copse_bvh *t, const copse_bvh *m, const copse_pose *pose,
                           const copse_distance_query *dq, copse_status expected, const char *what)
{
    copse_pair w, pairs[4];
    copse_pair_list list = copse_pair_list_make(pairs, 4);
    copse_distance o;
    copse_status st;
    float sep = 5.0f;
    w.tree_id = w.shape_id = 3;
    st = copse_bvh_any_bvh(t, m, pose, &w, &sep);
    CHECKF(st == expected && w.tree_id == COPSE_NONE && w.shape_id == COPSE_NONE,
           "%s: any_bvh -> %s, witness (%u, %u) (expected %s)", what, copse_status_str(st), (unsigned)w.tree_id,
           (unsigned)w.shape_id, copse_status_str(expected));
    list.count = 3;
    list.truncated = true;
    st = copse_bvh_overlap_bvh(t, m, pose, &list, &sep);
    CHECKF(st == expected && list.count == 0 && !list.truncated, "%s: overlap_bvh -> %s, count %u (expected %s)",
           what, copse_status_str(st), (unsigned)list.count, copse_status_str(expected));
    g_visits = 0;
    st = copse_bvh_visit_bvh(t, m, pose, count_visit, NULL, &sep);
    CHECKF(st == expected && g_visits == 0, "%s: visit_bvh -> %s, %u visits (expected %s)", what,
           copse_status_str(st), g_visits, copse_status_str(expected));
    memset(&o, 0x5A, sizeof o);
    st = copse_distance_bvh_bvh(m, pose, t, dq, &o);
    CHECKF(st == expected && o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE,
           "%s: distance_bvh_bvh -> %s, distance %.9g (expected %s)", what, copse_status_str(st), (double)o.distance,
           copse_status_str(expected));
}

static void test_errors(void)
{
    static const float pos[] = {0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4};
    static const uint16_t ix[] = {0, 1, 2, 0, 1, 3};
    static const copse_box3 boxes[2] = {{{0, 0, 0}, {1, 1, 1}}, {{2, 2, 2}, {3, 3, 3}}};
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_bvh good, flat, boxtree, deep;
    copse_mesh mesh;
    copse_arena arena;
    copse_pose pose;
    copse_distance_query dq = COPSE_DISTANCE_QUERY_DEFAULT;
    copse_pair w;
    copse_distance o;
    size_t bytes = 4096;
    void *mem;
    unsigned i;
    tk_pool_reset();
    mem = tk_alloc(bytes);
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, bytes);
    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = 4;
    mesh.indices = ix;
    mesh.index_type = COPSE_MESH_INDEX_U16;
    mesh.triangle_count = 2;
    CHECK_STATUS(copse_bvh_build_mesh(&good, &arena, &mesh, &p), COPSE_OK);
    p.projection = COPSE_BVH_PROJECT_XY;
    CHECK_STATUS(copse_bvh_build_mesh(&flat, &arena, &mesh, &p), COPSE_OK);
    p.projection = COPSE_BVH_PROJECT_NONE;
    CHECK_STATUS(copse_bvh_build_boxes3(&boxtree, &arena, boxes, NULL, 2, &p), COPSE_OK);
    deep = good;
    deep.depth = (uint8_t)(COPSE_BVH_MAX_DEPTH + 1u);

    CHECK_STATUS(copse_bvh_any_bvh(&good, &good, NULL, &w, NULL), COPSE_OK);
    CHECK(w.tree_id != COPSE_NONE);
    expect_refused(NULL, &good, NULL, NULL, COPSE_ERR_NULL, "NULL tree");
    expect_refused(&good, NULL, NULL, NULL, COPSE_ERR_NULL, "NULL mesh");
    CHECK_STATUS(copse_bvh_any_bvh(&good, &good, NULL, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_overlap_bvh(&good, &good, NULL, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_visit_bvh(&good, &good, NULL, NULL, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_distance_bvh_bvh(&good, NULL, &good, NULL, NULL), COPSE_ERR_NULL);
    expect_refused(&flat, &good, NULL, NULL, COPSE_ERR_DIMENSION, "2D tree");
    expect_refused(&good, &flat, NULL, NULL, COPSE_ERR_DIMENSION, "2D mesh");
    expect_refused(&boxtree, &good, NULL, NULL, COPSE_ERR_KIND, "box tree");
    expect_refused(&good, &boxtree, NULL, NULL, COPSE_ERR_KIND, "box mesh");
    expect_refused(&deep, &good, NULL, NULL, COPSE_ERR_TOO_DEEP, "tree deeper than the cap");
    expect_refused(&good, &deep, NULL, NULL, COPSE_ERR_TOO_DEEP, "mesh deeper than the cap");

    pose = copse_pose_identity();
    pose.rotation[2][0] = NAN;
    expect_refused(&good, &good, &pose, NULL, COPSE_ERR_NONFINITE, "NaN in the pose");
    pose = copse_pose_identity();
    pose.translation.y = -INFINITY;
    expect_refused(&good, &good, &pose, NULL, COPSE_ERR_NONFINITE, "infinity in the pose");
    pose = copse_pose_identity();
    for (i = 0; i < 3; i++)
        pose.rotation[i][i] = 1.01f;
    expect_refused(&good, &good, &pose, NULL, COPSE_ERR_PARAM, "a pose scaled by 1.01");
    pose = copse_pose_identity();
    pose.rotation[1][2] = 0.01f;
    expect_refused(&good, &good, &pose, NULL, COPSE_ERR_PARAM, "a sheared pose");
    pose = copse_pose_identity();
    pose.rotation[0][0] = -1.0f;
    expect_refused(&good, &good, &pose, NULL, COPSE_ERR_PARAM, "a mirroring pose");
    pose = copse_pose_identity();
    pose.rotation[1][1] = 1.0f - 4e-5f; /* within COPSE_POSE_TOLERANCE */
    CHECK_STATUS(copse_bvh_any_bvh(&good, &good, &pose, &w, NULL), COPSE_OK);

    dq.max_distance = -1.0f;
    memset(&o, 0x5A, sizeof o);
    CHECK_STATUS(copse_distance_bvh_bvh(&good, NULL, &good, &dq, &o), COPSE_ERR_EMPTY_RANGE);
    CHECK(o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE);
    dq.max_distance = FLT_MAX;
    dq.abs_err = -1.0f;
    CHECK_STATUS(copse_distance_bvh_bvh(&good, NULL, &good, &dq, &o), COPSE_ERR_PARAM);
    dq.abs_err = 0.0f;
    dq.rel_err = -1.0f;
    memset(&o, 0x5A, sizeof o);
    CHECK_STATUS(copse_distance_bvh_bvh(&good, NULL, &good, &dq, &o), COPSE_ERR_PARAM);
    CHECK(o.distance == FLT_MAX && o.tree_id == COPSE_NONE && o.shape_id == COPSE_NONE);
}

static void report(void)
{
    copse_port_printf("info collide_pair: %lu distances against the oracle, worst error %.1f FLT_EPSILON * M "
                      "(allowed %.0f); %lu triangle pairs judged with no band\n",
                      g_dist_checks, g_worst_k, DIST_K, g_exact_pairs);
}

void suite_collide_pair(void)
{
    test_run("collide_pair/errors", test_errors);
    test_run("collide_pair/self", test_self);
    test_run("collide_pair/exact", test_exact);
    test_run("collide_pair/random", test_random);
    tk_tally_report("collide_pair");
    report();
}

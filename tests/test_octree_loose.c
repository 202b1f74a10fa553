/* SPDX-License-Identifier: MIT */
/*
 * The loose object octree against brute force: random boxes of every size (points, huge ones,
 * some sticking out of the world), inserted, moved and removed at random with the structure
 * checked after every step; box, sphere, frustum and ray queries judged in every form; NOMEM
 * leaves the tree unchanged; guard regions; bad input.
 *
 * The oracles are octree.h's definitions written again: closed box overlap; the sphere against
 * the box's nearest point, d2 summed over x, y, z from 0; a box is visible unless, for one plane,
 * with n = -normal and d = dist, the corner farthest along n gives (n.x*x + n.y*y) + n.z*z + d < 0. Rays are judged in
 * double (oracle/oracle.h) with a boundary band.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "suites.h"
#include "test_octree.h"

typedef struct scene {
    copse_loose tree;
    copse_box3 *boxes; /* the current box of each id */
    uint8_t *in;
    uint32_t n;
} scene;

static bool big(void)
{
    return test_memory_bytes() >= ((size_t)32u << 20);
}

/* Objects for a scene: many on the host, fewer on the boards, a handful on the micro:bit. */
static uint32_t scene_objects(uint32_t host)
{
    return big() ? host : test_memory_bytes() >= ((size_t)1u << 20) ? host / 3u : 20u;
}

static bool scene_init(scene *s, uint32_t n, uint32_t max_nodes, uint32_t depth, uint32_t capacity)
{
    s->boxes = (copse_box3 *)tk_alloc(sizeof(copse_box3) * (n + 1u));
    s->in = (uint8_t *)tk_alloc(n + 1u);
    s->n = n;
    if (s->boxes == NULL || s->in == NULL)
        return false;
    memset(s->in, 0, n + 1u);
    return ot_loose_init(&s->tree, n, max_nodes, depth, capacity);
}

/* ---- oracles ----------------------------------------------------------------------------------- */

static bool o_box(const copse_box3 *a, const copse_box3 *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y &&
           a->min.z <= b->max.z && b->min.z <= a->max.z;
}

static float axis_gap(float p, float lo, float hi)
{
    return p < lo ? lo - p : p > hi ? p - hi : 0.0f;
}

static bool o_sphere(const copse_sphere *s, const copse_box3 *b)
{
    float dx = axis_gap(s->center.x, b->min.x, b->max.x), dy = axis_gap(s->center.y, b->min.y, b->max.y),
          dz = axis_gap(s->center.z, b->min.z, b->max.z);
    float d2 = 0.0f;
    d2 += dx * dx;
    d2 += dy * dy;
    d2 += dz * dz;
    return d2 <= s->radius * s->radius;
}

static bool o_frustum(const copse_frustum *f, const copse_box3 *b)
{
    unsigned k;
    for (k = 0; k < 6u; k++) {
        /* inside: n.x + d >= 0 with n = -normal, d = dist, at the corner farthest along n */
        const copse_vec3 n = copse_v3(-f->planes[k].normal.x, -f->planes[k].normal.y, -f->planes[k].normal.z);
        float x = n.x >= 0.0f ? b->max.x : b->min.x, y = n.y >= 0.0f ? b->max.y : b->min.y,
              z = n.z >= 0.0f ? b->max.z : b->min.z;
        float xy = n.x * x + n.y * y;
        float v = xy + n.z * z;
        if (v + f->planes[k].dist < 0.0f)
            return false;
    }
    return true;
}

/* A camera at `eye` looking along `dir` (not parallel to y), with half-angle tangents tx, ty,
 * near and far distances: the planes of its frustum (copse's convention: normals outward). */
static copse_frustum make_frustum(const float *eye, const float *dir, double tx, double ty, double znear, double zfar)
{
    double f[3], r[3], u[3], up[3] = {0, 1, 0}, len;
    copse_frustum fr;
    unsigned k;
    double n[6][3];
    for (k = 0; k < 3; k++)
        f[k] = (double)dir[k];
    len = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (k = 0; k < 3; k++)
        f[k] /= len;
    orc_cross(r, f, up);
    len = orc_len(r);
    for (k = 0; k < 3; k++)
        r[k] /= len;
    orc_cross(u, r, f);
    for (k = 0; k < 3; k++) {
        n[0][k] = f[k];                      /* near */
        n[1][k] = -f[k];                     /* far */
        n[2][k] = f[k] * tx + r[k];          /* left: points with x/z > -tx */
        n[3][k] = f[k] * tx - r[k];          /* right */
        n[4][k] = f[k] * ty + u[k];          /* bottom */
        n[5][k] = f[k] * ty - u[k];          /* top */
    }
    for (k = 0; k < 6u; k++) {
        double e[3], d;
        e[0] = (double)eye[0];
        e[1] = (double)eye[1];
        e[2] = (double)eye[2];
        d = -orc_dot(n[k], e);
        if (k == 0u)
            d -= znear;
        if (k == 1u)
            d += zfar;
        fr.planes[k].normal = copse_v3((float)-n[k][0], (float)-n[k][1], (float)-n[k][2]); /* out */
        fr.planes[k].dist = (float)d;
    }
    return fr;
}

/* ---- judges ------------------------------------------------------------------------------------ */

typedef enum qkind { Q_BOX, Q_SPHERE, Q_FRUSTUM } qkind;

typedef struct lq {
    qkind kind;
    copse_box3 box;
    copse_sphere sphere;
    copse_frustum frustum;
} lq;

static copse_status run_list(const scene *s, const lq *q, copse_id_list *out)
{
    if (q->kind == Q_BOX)
        return copse_loose_overlap_box(&s->tree, &q->box, out);
    if (q->kind == Q_SPHERE)
        return copse_loose_overlap_sphere(&s->tree, &q->sphere, out);
    return copse_loose_cull(&s->tree, &q->frustum, out);
}

static copse_status run_visit(const scene *s, const lq *q, ot_collect *c)
{
    if (q->kind == Q_BOX)
        return copse_loose_visit_box(&s->tree, &q->box, ot_collect_id, c);
    if (q->kind == Q_SPHERE)
        return copse_loose_visit_sphere(&s->tree, &q->sphere, ot_collect_id, c);
    return copse_loose_visit_frustum(&s->tree, &q->frustum, ot_collect_id, c);
}

static const char *const k_q_names[3] = {"box", "sphere", "frustum"};
static unsigned long g_queries[3], g_expected[3]; /* what the judges compared, for the run's info line */

static void judge(const scene *s, const lq *q)
{
    size_t mark = tk_mark();
    uint32_t *want = (uint32_t *)tk_alloc(4u * (s->n + 1u)), *got = (uint32_t *)tk_alloc(4u * (s->n + 1u));
    uint32_t i, nw = 0;
    copse_id_list list;
    ot_collect c;
    if (want == NULL || got == NULL)
        return;
    for (i = 0; i < s->n; i++) {
        bool yes;
        if (!s->in[i])
            continue;
        yes = q->kind == Q_BOX ? o_box(&q->box, &s->boxes[i])
              : q->kind == Q_SPHERE ? o_sphere(&q->sphere, &s->boxes[i])
                                    : o_frustum(&q->frustum, &s->boxes[i]);
        if (yes)
            want[nw++] = i;
    }
    g_queries[q->kind]++;
    g_expected[q->kind] += nw;
    list = copse_id_list_make(got, s->n + 1u);
    CHECKF(run_list(s, q, &list) == COPSE_OK && !list.truncated, "%s: %s status", tk_ctx(), k_q_names[q->kind]);
    ot_sort_ids(got, list.count);
    CHECKF(list.count == nw && memcmp(got, want, 4u * nw) == 0, "%s: %s: %u reported, oracle %u", tk_ctx(),
           k_q_names[q->kind], (unsigned)list.count, (unsigned)nw);
    /* the visitor sees the list's ids in the list's order; it stops when told; lists truncate */
    list = copse_id_list_make(got, s->n + 1u);
    (void)run_list(s, q, &list);
    c.ids = want;
    c.count = 0;
    c.cap = s->n + 1u;
    c.stop_after = 0xFFFFFFFFu;
    CHECKF(run_visit(s, q, &c) == COPSE_OK && c.count == list.count && memcmp(want, got, 4u * list.count) == 0,
           "%s: %s visitor", tk_ctx(), k_q_names[q->kind]);
    if (list.count >= 2u) {
        uint32_t one;
        copse_id_list small = copse_id_list_make(&one, 1);
        c.count = 0;
        c.stop_after = 1;
        CHECKF(run_visit(s, q, &c) == COPSE_OK && c.count == 1u, "%s: %s visitor did not stop", tk_ctx(),
               k_q_names[q->kind]);
        CHECKF(run_list(s, q, &small) == COPSE_OK && small.count == 1u && small.truncated && one == got[0],
               "%s: %s truncated", tk_ctx(), k_q_names[q->kind]);
    }
    tk_rewind(mark);
}

typedef struct ray_seen {
    uint32_t count;
    uint8_t *hit;
    float *t;
} ray_seen;

static bool see_hit(void *user, const copse_hit *h)
{
    ray_seen *r = (ray_seen *)user;
    r->hit[h->id]++;
    r->t[h->id] = h->t;
    r->count++;
    return true;
}

static void judge_ray(const scene *s, const copse_ray3 *ray)
{
    size_t mark = tk_mark();
    ray_seen seen;
    double o[3], d[3];
    double best = -1.0, band = 1e-4;
    uint32_t i, bad = 0;
    copse_hit first;
    for (i = 0; i < 3u; i++) {
        o[i] = (double)(&ray->origin.x)[i];
        d[i] = (double)(&ray->dir.x)[i];
    }
    seen.hit = (uint8_t *)tk_alloc(s->n + 1u);
    seen.t = (float *)tk_alloc(4u * (s->n + 1u));
    seen.count = 0;
    if (seen.hit == NULL || seen.t == NULL)
        return;
    memset(seen.hit, 0, s->n + 1u);
    CHECK(copse_loose_visit_ray(&s->tree, ray, see_hit, &seen) == COPSE_OK);
    CHECK(copse_loose_raycast(&s->tree, ray, &first) == COPSE_OK);
    for (i = 0; i < s->n; i++) {
        double mn[3], mx[3];
        orc_hit h;
        if (!s->in[i]) {
            bad += seen.hit[i] != 0u;
            continue;
        }
        mn[0] = (double)s->boxes[i].min.x;
        mn[1] = (double)s->boxes[i].min.y;
        mn[2] = (double)s->boxes[i].min.z;
        mx[0] = (double)s->boxes[i].max.x;
        mx[1] = (double)s->boxes[i].max.y;
        mx[2] = (double)s->boxes[i].max.z;
        h = orc_ray_box(o, d, (double)ray->t_max, mn, mx, 3, band);
        if (seen.hit[i] > 1u || (h.verdict == ORC_YES && seen.hit[i] == 0u) || (h.verdict == ORC_NO && seen.hit[i]))
            bad++;
        if (seen.hit[i] && fabs((double)seen.t[i] - h.t) > band && h.verdict != ORC_EDGE_NO && h.verdict != ORC_NO)
            bad++;
        if (seen.hit[i] && (best < 0.0 || (double)seen.t[i] < best))
            best = (double)seen.t[i];
    }
    /* the first hit is the smallest t the visitor saw, ties to the lower id */
    if (best < 0.0) {
        bad += first.id != COPSE_NONE;
    } else {
        bad += first.id >= s->n || !seen.hit[first.id] || (double)first.t != best;
        for (i = 0; i < s->n && first.id < s->n; i++)
            bad += seen.hit[i] && seen.t[i] == first.t && i < first.id;
    }
    CHECKF(bad == 0u, "%s: ray: %u disagreements (%u hits)", tk_ctx(), (unsigned)bad, (unsigned)seen.count);
    tk_rewind(mark);
}

static void judge_all(const scene *s, test_rng *rng, unsigned queries)
{
    unsigned k;
    for (k = 0; k < queries; k++) {
        lq q;
        float eye[3], dir[3];
        copse_ray3 ray;
        unsigned a;
        q.kind = Q_BOX;
        q.box = ot_random_object_box(rng);
        judge(s, &q);
        q.kind = Q_SPHERE;
        q.sphere.center = copse_v3(test_rng_float(rng, -60, 60), test_rng_float(rng, -60, 60), 0.0f);
        q.sphere.center.z = test_rng_float(rng, -60, 60);
        q.sphere.radius = test_rng_below(rng, 6) == 0u ? 0.0f : test_rng_float(rng, 0.0f, 30.0f);
        judge(s, &q);
        q.kind = Q_FRUSTUM;
        for (a = 0; a < 3; a++)
            eye[a] = test_rng_float(rng, -70.0f, 70.0f);
        for (a = 0; a < 3; a++)
            dir[a] = test_rng_float(rng, -1.0f, 1.0f);
        dir[0] += 0.1f; /* never parallel to y */
        q.frustum = make_frustum(eye, dir, (double)test_rng_float(rng, 0.2f, 1.5f), (double)test_rng_float(rng, 0.2f, 1.0f), 0.5,
                                 (double)test_rng_float(rng, 5.0f, 200.0f));
        judge(s, &q);
        ray.origin = copse_v3(eye[0], eye[1], eye[2]);
        ray.dir = copse_v3(dir[0], dir[1], dir[2]);
        ray.t_max = test_rng_below(rng, 3) == 0u ? INFINITY : test_rng_float(rng, 0.0f, 150.0f);
        judge_ray(s, &ray);
    }
}

/* ---- tests ------------------------------------------------------------------------------------- */

static void test_queries_and_changes(void)
{
    /* (max_depth, node_capacity) */
    static const uint32_t depths[6] = {0, 3, 8, 8, 8, 5}, capacities[6] = {0, 0, 0, 1, 4, 16};
    unsigned di;
    tk_pool_reset();
    for (di = 0; di < 6u; di++) {
        size_t mark = tk_mark();
        uint32_t n = scene_objects(600), i, step;
        scene s;
        test_rng rng;
        bool ok = true;
        test_rng_seed(&rng, 555u + di);
        tk_context("loose depth=%u capacity=%u n=%u", (unsigned)depths[di], (unsigned)capacities[di], (unsigned)n);
        if (!scene_init(&s, n, n * (depths[di] + 1u) + 1u, depths[di], capacities[di]))
            return;
        for (i = 0; i < n; i++) {
            s.boxes[i] = ot_random_object_box(&rng);
            ok = ok && CHECK(copse_loose_insert(&s.tree, i, &s.boxes[i]) == COPSE_OK);
            s.in[i] = 1;
        }
        CHECK(copse_loose_check(&s.tree) == COPSE_OK);
        {
            copse_loose_stats st;
            CHECKF(copse_loose_get_stats(&s.tree, &st) == COPSE_OK && st.objects == n && st.depth <= depths[di] &&
                       (depths[di] == 0u || capacities[di] >= n || (st.depth > 0u && st.root_objects < n)),
                   "%s: %u objects, depth %u, %u in the root, %u nodes", tk_ctx(), (unsigned)st.objects,
                   (unsigned)st.depth, (unsigned)st.root_objects, (unsigned)st.nodes);
        }
        judge_all(&s, &rng, big() ? 40u : 6u);
        for (step = 0; step < 4u * n && ok; step++) {
            uint32_t id = test_rng_below(&rng, n), r = test_rng_below(&rng, 3);
            copse_box3 b = ot_random_object_box(&rng);
            copse_status st, want;
            if (r == 0u) {
                want = s.in[id] ? COPSE_ERR_INDEX : COPSE_OK;
                st = copse_loose_insert(&s.tree, id, &b);
                if (st == COPSE_OK) {
                    s.in[id] = 1;
                    s.boxes[id] = b;
                }
            } else if (r == 1u) {
                want = s.in[id] ? COPSE_OK : COPSE_ERR_INDEX;
                st = copse_loose_remove(&s.tree, id);
                if (st == COPSE_OK)
                    s.in[id] = 0;
            } else {
                if (test_rng_below(&rng, 2) == 0u && s.in[id]) { /* a small move: usually the same node */
                    float dx = test_rng_float(&rng, -0.05f, 0.05f);
                    b = s.boxes[id];
                    b.min.x += dx;
                    b.max.x += dx;
                }
                want = s.in[id] ? COPSE_OK : COPSE_ERR_INDEX;
                st = copse_loose_move(&s.tree, id, &b);
                if (st == COPSE_OK)
                    s.boxes[id] = b;
            }
            ok = CHECKF(st == want, "%s: step %u: %s, expected %s", tk_ctx(), (unsigned)step, copse_status_str(st),
                        copse_status_str(want)) &&
                 CHECKF(copse_loose_check(&s.tree) == COPSE_OK, "%s: check after step %u", tk_ctx(), (unsigned)step);
            if (ok && step % (n / 2u + 1u) == 0u)
                judge_all(&s, &rng, 2);
        }
        for (i = 0; i < n; i++)
            if (s.in[i]) {
                CHECK(copse_loose_remove(&s.tree, i) == COPSE_OK);
                s.in[i] = 0;
            }
        CHECKF(s.tree.size == 0u && s.tree.nodes_used == 1u && copse_loose_check(&s.tree) == COPSE_OK,
               "%s: emptied tree keeps %u nodes", tk_ctx(), (unsigned)s.tree.nodes_used);
        judge_all(&s, &rng, 1);
        tk_rewind(mark);
    }
    copse_port_printf("info octree_loose: box %lu queries (%lu ids), sphere %lu (%lu), frustum %lu (%lu)\n",
                      g_queries[0], g_expected[0], g_queries[1], g_expected[1], g_queries[2], g_expected[2]);
}

/* A frustum around the whole world sees everything, and its nodes are all "inside". */
static void test_frustum_inside(void)
{
    uint32_t n = scene_objects(300), i, got_n;
    scene s;
    test_rng rng;
    float eye[3] = {0.0f, 0.0f, -1000.0f}, dir[3] = {0.0f, 0.0f, 1.0f};
    lq q;
    tk_pool_reset();
    tk_context("frustum inside n=%u", (unsigned)n);
    if (!scene_init(&s, n, 4u * n + 1u, 6, 2))
        return;
    test_rng_seed(&rng, 8);
    for (i = 0; i < n; i++) {
        s.boxes[i] = ot_random_object_box(&rng);
        CHECK(copse_loose_insert(&s.tree, i, &s.boxes[i]) == COPSE_OK);
        s.in[i] = 1;
    }
    q.kind = Q_FRUSTUM;
    q.frustum = make_frustum(eye, dir, 1.0, 1.0, 1.0, 5000.0);
    judge(&s, &q);
    {
        uint32_t *ids = (uint32_t *)tk_alloc(4u * n);
        copse_id_list l = copse_id_list_make(ids, n);
        CHECK(ids != NULL && copse_loose_cull(&s.tree, &q.frustum, &l) == COPSE_OK);
        got_n = l.count;
        CHECK_EQ_INT(got_n, n);
    }
}

static void nomem_scene(uint32_t capacity)
{
    uint32_t n = scene_objects(200), i, refusals = 0;
    scene s;
    test_rng rng;
    tk_pool_reset();
    tk_context("loose nomem capacity=%u n=%u", (unsigned)capacity, (unsigned)n);
    if (!scene_init(&s, n, 6, 8, capacity))
        return;
    test_rng_seed(&rng, 99);
    for (i = 0; i < n; i++) {
        uint32_t before = ot_loose_hash(&s.tree);
        copse_status st;
        s.boxes[i] = ot_random_object_box(&rng);
        st = copse_loose_insert(&s.tree, i, &s.boxes[i]);
        if (st == COPSE_ERR_NOMEM) {
            refusals++;
            CHECKF(ot_loose_hash(&s.tree) == before && s.tree.nodes_short > 0u,
                   "%s: refused insert %u changed the tree (short %u)", tk_ctx(), (unsigned)i,
                   (unsigned)s.tree.nodes_short);
        } else {
            CHECK(st == COPSE_OK);
            s.in[i] = 1;
        }
    }
    CHECK(refusals > 0u);
    /* moves that need nodes are refused too, and leave the tree as it was */
    for (i = 0; i < n; i++) {
        uint32_t before = ot_loose_hash(&s.tree);
        copse_box3 b = ot_random_object_box(&rng);
        copse_status st;
        if (!s.in[i])
            continue;
        st = copse_loose_move(&s.tree, i, &b);
        if (st == COPSE_ERR_NOMEM)
            CHECKF(ot_loose_hash(&s.tree) == before, "%s: refused move %u changed the tree", tk_ctx(), (unsigned)i);
        else if (CHECK(st == COPSE_OK))
            s.boxes[i] = b;
    }
    CHECK(copse_loose_check(&s.tree) == COPSE_OK);
    judge_all(&s, &rng, 3);
}

static void test_nomem(void)
{
    nomem_scene(0);
    nomem_scene(3);
}

static void test_guard(void)
{
    enum { GUARD = 32 };
    copse_loose_config cfg;
    size_t exact, k, bad = 0;
    uint8_t *region;
    tk_pool_reset();
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(0, 0, 0, 10, 10, 10);
    cfg.max_nodes = 7;
    cfg.max_objects = 5;
    cfg.max_depth = 4;
    exact = copse_loose_bytes(&cfg);
    region = (uint8_t *)tk_alloc(exact + 2u * GUARD);
    if (region == NULL)
        return;
    for (k = 0; k <= exact; k++) {
        copse_arena arena;
        copse_loose t;
        copse_status st;
        size_t i;
        memset(region, OT_GUARD_BYTE, exact + 2u * GUARD);
        copse_arena_init(&arena, region + GUARD, k);
        st = copse_loose_init(&t, &arena, &cfg);
        if (st == COPSE_OK) {
            copse_box3 b = copse_box3_make(1, 1, 1, 1.5f, 1.5f, 1.5f);
            for (i = 0; i < 5u; i++)
                (void)copse_loose_insert(&t, (uint32_t)i, &b);
        }
        bad += !ot_guard_intact(region, GUARD, k);
        if (k < exact)
            bad += st != COPSE_ERR_NOMEM || arena.needed != exact || arena.used != 0u || t.nodes != NULL;
        else
            bad += st != COPSE_OK || arena.used != exact || copse_loose_check(&t) != COPSE_OK || t.size != 5u;
    }
    CHECKF(bad == 0u, "loose guard: %lu failures over %lu sizes", (unsigned long)bad, (unsigned long)exact + 1u);
}

static bool count_id(void *user, uint32_t id)
{
    (void)id;
    ++*(uint32_t *)user;
    return true;
}

static void test_errors(void)
{
    COPSE_ARENA_STORAGE(mem, COPSE_LOOSE_BYTES(8, 4));
    copse_loose_config cfg;
    copse_arena arena;
    copse_loose t;
    copse_box3 b = copse_box3_make(0, 0, 0, 1, 1, 1), bad = copse_box3_make(1, 0, 0, 0, 1, 1);
    copse_sphere sp = {{0, 0, 0}, 1.0f};
    copse_frustum fr;
    copse_ray3 ray = {{0, 0, 0}, {1, 0, 0}, 10.0f};
    copse_hit hit;
    uint32_t ids[4], seen = 0;
    copse_id_list l = copse_id_list_make(ids, 4);
    unsigned k;
    memset(&fr, 0, sizeof fr);
    for (k = 0; k < 6u; k++)
        fr.planes[k].dist = 1.0f;
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(-8, -8, -8, 8, 8, 8);
    cfg.max_nodes = 8;
    cfg.max_objects = 4;
    cfg.max_depth = 4;
    copse_arena_init(&arena, mem, sizeof mem);
    CHECK_STATUS(copse_loose_init(NULL, &arena, &cfg), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_init(&t, NULL, &cfg), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_init(&t, &arena, NULL), COPSE_ERR_NULL);
    cfg.max_depth = COPSE_LOOSE_MAX_DEPTH + 1u;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_ERR_PARAM);
    cfg.max_depth = 4;
    cfg.max_nodes = 0;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_ERR_PARAM);
    cfg.max_nodes = 8;
    cfg.max_objects = COPSE_LOOSE_MAX_OBJECTS + 1u;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_ERR_PARAM);
    CHECK(copse_loose_bytes(&cfg) == (size_t)-1);
    cfg.max_objects = 4;
    cfg.world.max.x = NAN;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_ERR_NONFINITE);
    cfg.world.max.x = -9.0f;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_ERR_EMPTY_RANGE);
    CHECK_STATUS(copse_loose_insert(&t, 0, &b), COPSE_ERR_PARAM); /* a refused init: no pools */
    CHECK_STATUS(copse_loose_cull(&t, &fr, &l), COPSE_OK);
    CHECK_EQ_INT(l.count, 0);
    CHECK_EQ_INT(arena.used, 0);
    cfg.world.max.x = 8.0f;
    CHECK_STATUS(copse_loose_init(&t, &arena, &cfg), COPSE_OK);
    CHECK_STATUS(copse_loose_insert(&t, 4, &b), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_loose_insert(&t, 0, &bad), COPSE_ERR_EMPTY_RANGE);
    bad = b;
    bad.max.z = INFINITY;
    CHECK_STATUS(copse_loose_insert(&t, 0, &bad), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_loose_insert(&t, 0, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_insert(NULL, 0, &b), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_remove(&t, 0), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_loose_move(&t, 0, &b), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_loose_insert(&t, 0, &b), COPSE_OK);
    CHECK_STATUS(copse_loose_insert(&t, 0, &b), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_loose_move(&t, 0, &bad), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_loose_remove(&t, 9), COPSE_ERR_INDEX);
    CHECK_STATUS(copse_loose_overlap_box(&t, &bad, &l), COPSE_ERR_NONFINITE);
    CHECK_EQ_INT(l.count, 0);
    CHECK_STATUS(copse_loose_overlap_box(&t, &b, NULL), COPSE_ERR_NULL);
    sp.radius = -1.0f;
    CHECK_STATUS(copse_loose_overlap_sphere(&t, &sp, &l), COPSE_ERR_EMPTY_RANGE);
    sp.radius = NAN;
    CHECK_STATUS(copse_loose_visit_sphere(&t, &sp, count_id, &seen), COPSE_ERR_NONFINITE);
    CHECK_EQ_INT(seen, 0);
    fr.planes[3].normal.y = NAN;
    CHECK_STATUS(copse_loose_cull(&t, &fr, &l), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_loose_visit_frustum(&t, NULL, count_id, &seen), COPSE_ERR_NULL);
    fr.planes[3].normal.y = 0.0f;
    CHECK_STATUS(copse_loose_visit_frustum(&t, &fr, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_cull(&t, &fr, &l), COPSE_OK); /* all planes normal 0, dist 1: everything */
    CHECK_EQ_INT(l.count, 1);
    ray.t_max = -1.0f;
    CHECK_STATUS(copse_loose_raycast(&t, &ray, &hit), COPSE_ERR_EMPTY_RANGE);
    CHECK(hit.id == COPSE_NONE);
    ray.t_max = 10.0f;
    ray.dir = copse_v3(0, 0, 0);
    CHECK_STATUS(copse_loose_raycast(&t, &ray, &hit), COPSE_ERR_PARAM);
    ray.dir = copse_v3(1, 0, 0);
    ray.origin.y = NAN;
    CHECK_STATUS(copse_loose_visit_ray(&t, &ray, NULL, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_raycast(&t, &ray, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_raycast(&t, &ray, &hit), COPSE_ERR_NONFINITE);
    ray.origin = copse_v3(-5, 0.5f, 0.5f);
    CHECK_STATUS(copse_loose_raycast(&t, &ray, &hit), COPSE_OK);
    CHECK(hit.id == 0u && hit.t == 5.0f);
    CHECK_STATUS(copse_loose_check(&t), COPSE_OK);
    t.size++;
    CHECK_STATUS(copse_loose_check(&t), COPSE_ERR_PARAM);
    t.size--;
    CHECK_STATUS(copse_loose_check(NULL), COPSE_ERR_NULL);
}

void suite_octree_loose(void)
{
    test_run("octree_loose/queries_and_changes", test_queries_and_changes);
    test_run("octree_loose/frustum_inside", test_frustum_inside);
    test_run("octree_loose/nomem", test_nomem);
    test_run("octree_loose/guard", test_guard);
    test_run("octree_loose/errors", test_errors);
}

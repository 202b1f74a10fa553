/* SPDX-License-Identifier: MIT */
/* The octree test kit (see test_octree.h): clouds, oracles, judges. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_octree.h"

/* ---- clouds ---------------------------------------------------------------------------------- */

static const char *const k_cloud_names[OT_CLOUD_KINDS] = {"uniform", "clustered", "coincident",
                                                          "planar",  "huge",      "grid"};

const char *ot_cloud_name(ot_cloud_kind kind)
{
    return k_cloud_names[kind];
}

/* Three draws in a fixed order (the order of a call's arguments is unspecified in C). */
static copse_vec3 rand3(test_rng *rng, float lo, float hi)
{
    copse_vec3 v;
    v.x = test_rng_float(rng, lo, hi);
    v.y = test_rng_float(rng, lo, hi);
    v.z = test_rng_float(rng, lo, hi);
    return v;
}

void ot_make_cloud(copse_vec3 *points, uint32_t n, ot_cloud_kind kind, test_rng *rng)
{
    uint32_t i;
    copse_vec3 centers[5];
    for (i = 0; i < 5u; i++)
        centers[i] = rand3(rng, -10, 10);
    for (i = 0; i < n; i++) {
        copse_vec3 *p = &points[i];
        switch (kind) {
        case OT_UNIFORM:
            *p = rand3(rng, -10, 10);
            break;
        case OT_CLUSTERED: { /* tight clusters of very different sizes, a few exact repeats */
            const copse_vec3 *c = &centers[test_rng_below(rng, 5)];
            float s = test_rng_below(rng, 2) ? 1e-3f : 0.5f;
            if (i > 0u && test_rng_below(rng, 10) == 0u)
                *p = points[test_rng_below(rng, i)];
            else {
                copse_vec3 d = rand3(rng, -s, s);
                *p = copse_v3(c->x + d.x, c->y + d.y, c->z + d.z);
            }
            break;
        }
        case OT_COINCIDENT:
            *p = copse_v3(1.5f, -2.25f, 3.0f);
            break;
        case OT_PLANAR:
            *p = rand3(rng, -10, 10);
            p->y = 0.25f;
            break;
        case OT_HUGE: /* far out, spread wide, squared distances still finite (see octree.h) */
            *p = rand3(rng, -1e12f, 1e12f);
            p->x += 1e15f;
            p->y += -3e14f;
            break;
        case OT_GRID: /* small integers: many equal distances, ties by id */
        default:
            p->x = (float)test_rng_below(rng, 5);
            p->y = (float)test_rng_below(rng, 5);
            p->z = (float)test_rng_below(rng, 3);
            break;
        }
    }
}

/* ---- trees ----------------------------------------------------------------------------------- */

bool ot_guard_intact(const uint8_t *region, size_t guard, size_t k)
{
    size_t i;
    for (i = 0; i < guard; i++)
        if (region[i] != OT_GUARD_BYTE || region[guard + k + i] != OT_GUARD_BYTE)
            return false;
    return true;
}

/* Two arenas from the pool: the tree's and its build scratch. */
static bool pool_arenas(size_t bytes, size_t scratch_bytes, copse_arena *arena, copse_arena *scratch)
{
    void *mem = tk_alloc(bytes), *scratch_mem = tk_alloc(scratch_bytes);
    if (mem == NULL || scratch_mem == NULL)
        return false;
    copse_arena_init(arena, mem, bytes);
    copse_arena_init(scratch, scratch_mem, scratch_bytes);
    return true;
}

bool ot_point_build(ot_point_tree *pt, const copse_vec3 *points, const uint32_t *ids, uint32_t capacity,
                    uint32_t n, uint32_t leaf, uint32_t bucket, uint32_t depth, uint32_t extra_nodes,
                    uint32_t extra_buckets)
{
    copse_octree_config cfg;
    copse_arena arena;
    size_t bytes, scratch_bytes = COPSE_OCTREE_BUILD_SCRATCH_BYTES(n, depth), mark;
    uint32_t nodes = 0, buckets = 0, i;
    copse_arena scratch;
    memset(&cfg, 0, sizeof cfg);
    cfg.points = points;
    cfg.ids = ids;
    cfg.point_capacity = capacity;
    cfg.bounds = copse_box3_make(-1, -1, -1, 1, 1, 1);
    cfg.max_nodes = 1;
    cfg.leaf_size = leaf;
    cfg.bucket_size = bucket;
    cfg.max_depth = depth;
    pt->points = points;
    pt->ids = ids;
    pt->n = capacity;
    pt->in = (uint8_t *)tk_alloc(capacity + 1u);
    if (pt->in == NULL)
        return false;
    /* measure with a one-node tree, then size the real one */
    bytes = copse_octree_bytes(&cfg);
    mark = tk_mark();
    if (!pool_arenas(bytes, scratch_bytes, &arena, &scratch))
        return false;
    if (!CHECKF(copse_octree_init(&pt->tree, &arena, &cfg) == COPSE_OK, "%s: init", tk_ctx()) ||
        !CHECKF(copse_octree_measure(&pt->tree, &scratch, n, &nodes, &buckets) == COPSE_OK, "%s: measure", tk_ctx()))
        return false;
    tk_rewind(mark);
    cfg.max_nodes = nodes + extra_nodes;
    cfg.max_buckets = buckets + extra_buckets;
    bytes = copse_octree_bytes(&cfg);
    CHECKF(bytes == COPSE_OCTREE_BYTES(cfg.max_nodes, cfg.max_buckets, bucket), "%s: bytes vs macro", tk_ctx());
    if (!pool_arenas(bytes, scratch_bytes, &arena, &scratch))
        return false;
    if (!CHECKF(copse_octree_init(&pt->tree, &arena, &cfg) == COPSE_OK && arena.used == bytes, "%s: init 2",
                tk_ctx()))
        return false;
    if (!CHECKF(copse_octree_build(&pt->tree, &scratch, n) == COPSE_OK, "%s: build", tk_ctx()))
        return false;
    CHECKF(scratch.used == 0u && scratch.high_water == scratch_bytes, "%s: scratch used %lu, peak %lu of %lu",
           tk_ctx(), (unsigned long)scratch.used, (unsigned long)scratch.high_water, (unsigned long)scratch_bytes);
    CHECKF(pt->tree.nodes_used == nodes && pt->tree.buckets_used == buckets,
           "%s: build took %u nodes, %u buckets; measure said %u, %u", tk_ctx(), (unsigned)pt->tree.nodes_used,
           (unsigned)pt->tree.buckets_used, (unsigned)nodes, (unsigned)buckets);
    tk_rewind(tk_mark() - COPSE_ARENA_ROUND(scratch_bytes)); /* the scratch goes back to the pool */
    for (i = 0; i < capacity; i++)
        pt->in[i] = i < n;
    return CHECKF(copse_octree_check(&pt->tree) == COPSE_OK, "%s: check after build", tk_ctx());
}

/* ---- random shapes --------------------------------------------------------------------------- */

/* The bounds of the points in the tree, grown a little. */
static void cloud_bounds(const ot_point_tree *pt, float *mn, float *mx)
{
    uint32_t i;
    unsigned a;
    for (a = 0; a < 3; a++) {
        mn[a] = -1.0f;
        mx[a] = 1.0f;
    }
    for (i = 0; i < pt->n; i++) {
        const float *p = &pt->points[i].x;
        if (i == 0u)
            for (a = 0; a < 3; a++)
                mn[a] = mx[a] = p[a];
        for (a = 0; a < 3; a++) {
            mn[a] = p[a] < mn[a] ? p[a] : mn[a];
            mx[a] = p[a] > mx[a] ? p[a] : mx[a];
        }
    }
    for (a = 0; a < 3; a++) {
        float g = (mx[a] - mn[a]) * 0.1f + (fabsf(mn[a]) + fabsf(mx[a])) * 1e-6f + 1e-3f;
        mn[a] -= g;
        mx[a] += g;
    }
}

static float scale_of(const ot_point_tree *pt)
{
    float mn[3], mx[3], s = 0.0f;
    unsigned a;
    cloud_bounds(pt, mn, mx);
    for (a = 0; a < 3; a++)
        s = mx[a] - mn[a] > s ? mx[a] - mn[a] : s;
    return s;
}

void ot_random_point(const ot_point_tree *pt, test_rng *rng, float *p)
{
    float mn[3], mx[3];
    unsigned a;
    if (pt->n > 0u && test_rng_below(rng, 3) == 0u) { /* on a point of the cloud */
        const float *q = &pt->points[test_rng_below(rng, pt->n)].x;
        p[0] = q[0];
        p[1] = q[1];
        p[2] = q[2];
        return;
    }
    cloud_bounds(pt, mn, mx);
    for (a = 0; a < 3; a++)
        p[a] = test_rng_float(rng, mn[a], mx[a]);
}

void ot_random_box(const ot_point_tree *pt, test_rng *rng, copse_box3 *box)
{
    float c[3], s = scale_of(pt);
    unsigned a;
    ot_random_point(pt, rng, c);
    for (a = 0; a < 3; a++) {
        float h = s * test_rng_float(rng, 0.0f, 0.3f);
        (&box->min.x)[a] = c[a] - h;
        (&box->max.x)[a] = c[a] + h;
    }
    if (test_rng_below(rng, 8) == 0u)
        box->max = box->min; /* a point box */
}

void ot_random_sphere(const ot_point_tree *pt, test_rng *rng, copse_sphere *s)
{
    ot_random_point(pt, rng, &s->center.x);
    s->radius = test_rng_below(rng, 8) == 0u ? 0.0f : scale_of(pt) * test_rng_float(rng, 0.0f, 0.3f);
}

void ot_random_capsule(const ot_point_tree *pt, test_rng *rng, copse_capsule *c)
{
    ot_random_point(pt, rng, &c->segment.a.x);
    ot_random_point(pt, rng, &c->segment.b.x);
    if (test_rng_below(rng, 6) == 0u)
        c->segment.b = c->segment.a;
    c->radius = test_rng_below(rng, 8) == 0u ? 0.0f : scale_of(pt) * test_rng_float(rng, 0.0f, 0.15f);
}

/* ---- oracles: the definitions of octree.h, written again ---------------------------------------- */

static bool in_box(const float *p, const copse_box3 *b)
{
    return p[0] >= b->min.x && p[0] <= b->max.x && p[1] >= b->min.y && p[1] <= b->max.y && p[2] >= b->min.z &&
           p[2] <= b->max.z;
}

static float dist2(const float *p, const float *c)
{
    float dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
    float xy = dx * dx + dy * dy;
    return xy + dz * dz;
}

/* The capsule in double: the distance to the segment and whether it is too close to call. */
static bool capsule_verdict(const float *pf, const copse_capsule *c, double band, bool *fragile)
{
    double p[3], a[3], b[3], q[3], d;
    unsigned k;
    for (k = 0; k < 3; k++) {
        p[k] = (double)pf[k];
        a[k] = (double)(&c->segment.a.x)[k];
        b[k] = (double)(&c->segment.b.x)[k];
    }
    d = orc_closest_segment(p, a, b, q);
    *fragile = fabs(d - (double)c->radius) <= band;
    return d <= (double)c->radius;
}

static double capsule_band(const ot_point_tree *pt, const copse_capsule *c)
{
    double m = (double)c->radius;
    uint32_t i;
    unsigned a;
    for (a = 0; a < 3; a++) {
        m = fmax(m, fabs((double)(&c->segment.a.x)[a]));
        m = fmax(m, fabs((double)(&c->segment.b.x)[a]));
    }
    for (i = 0; i < pt->n; i++)
        for (a = 0; a < 3; a++)
            m = fmax(m, fabs((double)(&pt->points[i].x)[a]));
    return m * 16.0 * ORC_FLT_EPS;
}

static uint32_t id_of(const ot_point_tree *pt, uint32_t i)
{
    return pt->ids != NULL ? pt->ids[i] : i;
}

void ot_sort_ids(uint32_t *v, uint32_t n)
{
    uint32_t gap, i, j;
    for (gap = n / 2u; gap > 0u; gap /= 2u)
        for (i = gap; i < n; i++)
            for (j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
                uint32_t t = v[j];
                v[j] = v[j - gap];
                v[j - gap] = t;
            }
}

uint32_t *ot_make_ids(uint32_t n)
{
    uint32_t *ids = (uint32_t *)tk_alloc(4u * (n + 1u)), i;
    if (ids != NULL)
        for (i = 0; i < n; i++)
            ids[i] = tk_box_id(i);
    return ids;
}

/* ---- loose trees ------------------------------------------------------------------------------ */

bool ot_loose_init(copse_loose *tree, uint32_t max_objects, uint32_t max_nodes, uint32_t depth, uint32_t capacity)
{
    copse_loose_config cfg;
    copse_arena arena;
    size_t bytes;
    void *mem;
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(-50, -50, -50, 50, 50, 50);
    cfg.max_nodes = max_nodes;
    cfg.max_objects = max_objects;
    cfg.max_depth = depth;
    cfg.node_capacity = capacity;
    bytes = copse_loose_bytes(&cfg);
    CHECK(bytes == COPSE_LOOSE_BYTES(max_nodes, max_objects));
    mem = tk_alloc(bytes);
    if (mem == NULL)
        return false;
    copse_arena_init(&arena, mem, bytes);
    return CHECKF(copse_loose_init(tree, &arena, &cfg) == COPSE_OK && arena.used == bytes, "%s: init", tk_ctx());
}

copse_box3 ot_random_object_box(test_rng *rng)
{
    copse_box3 b;
    float c[3], h[3];
    unsigned a, kind = test_rng_below(rng, 10);
    for (a = 0; a < 3; a++)
        c[a] = test_rng_float(rng, -60.0f, 60.0f); /* the world is [-50, 50]: some stick out */
    for (a = 0; a < 3; a++)
        h[a] = kind == 0u ? 0.0f : kind == 1u ? test_rng_float(rng, 5.0f, 40.0f) : test_rng_float(rng, 0.01f, 2.0f);
    for (a = 0; a < 3; a++) {
        (&b.min.x)[a] = c[a] - h[a];
        (&b.max.x)[a] = c[a] + h[a];
    }
    return b;
}

/* ---- judging region queries ------------------------------------------------------------------------ */

bool ot_collect_id(void *user, uint32_t id)
{
    ot_collect *c = (ot_collect *)user;
    if (c->count < c->cap)
        c->ids[c->count] = id;
    c->count++;
    return c->count < c->stop_after;
}

typedef enum region_kind { R_BOX, R_SPHERE, R_CAPSULE } region_kind;

typedef struct region_query {
    region_kind kind;
    copse_box3 box;
    copse_sphere sphere;
    copse_capsule capsule;
} region_query;

static copse_status run_list(const ot_point_tree *pt, const region_query *q, copse_id_list *out)
{
    if (q->kind == R_BOX)
        return copse_octree_overlap_box(&pt->tree, &q->box, out);
    if (q->kind == R_SPHERE)
        return copse_octree_overlap_sphere(&pt->tree, &q->sphere, out);
    return copse_octree_overlap_capsule(&pt->tree, &q->capsule, out);
}

static copse_status run_visit(const ot_point_tree *pt, const region_query *q, ot_collect *c)
{
    if (q->kind == R_BOX)
        return copse_octree_visit_box(&pt->tree, &q->box, ot_collect_id, c);
    if (q->kind == R_SPHERE)
        return copse_octree_visit_sphere(&pt->tree, &q->sphere, ot_collect_id, c);
    return copse_octree_visit_capsule(&pt->tree, &q->capsule, ot_collect_id, c);
}

static const char *const k_region_names[3] = {"box", "sphere", "capsule"};

/* Oracle: must[] the ids that have to be reported, may: ids that may (capsule band). */
static void judge_region(const ot_point_tree *pt, const region_query *q)
{
    size_t mark = tk_mark();
    uint32_t n = pt->n, i, must = 0, total = 0, k;
    uint32_t *expect = (uint32_t *)tk_alloc(4u * (n + 1u));
    uint8_t *maybe = (uint8_t *)tk_alloc(n + 1u);
    uint32_t *got = (uint32_t *)tk_alloc(4u * (n + 1u));
    double band = q->kind == R_CAPSULE ? capsule_band(pt, &q->capsule) : 0.0;
    const char *name = k_region_names[q->kind];
    copse_id_list list;
    ot_collect c;
    bool ok = true;
    if (expect == NULL || maybe == NULL || got == NULL)
        return;
    for (i = 0; i < n; i++) {
        const float *p = &pt->points[i].x;
        bool yes, fragile = false;
        maybe[i] = 0;
        if (!pt->in[i])
            continue;
        if (q->kind == R_BOX)
            yes = in_box(p, &q->box);
        else if (q->kind == R_SPHERE)
            yes = dist2(p, &q->sphere.center.x) <= q->sphere.radius * q->sphere.radius;
        else
            yes = capsule_verdict(p, &q->capsule, band, &fragile);
        if (fragile)
            maybe[i] = 1;
        else if (yes)
            expect[must++] = id_of(pt, i);
        total += yes || fragile;
    }
    ot_sort_ids(expect, must);
    /* array form, room for all */
    list = copse_id_list_make(got, n + 1u);
    CHECKF(run_list(pt, q, &list) == COPSE_OK && !list.truncated, "%s: %s list status", tk_ctx(), name);
    ot_sort_ids(got, list.count);
    {
        uint32_t a = 0, extra = 0;
        for (k = 0; k < list.count; k++) {
            if (k > 0u && got[k] == got[k - 1u])
                ok = false; /* reported twice */
            if (a < must && got[k] == expect[a]) {
                a++;
                continue;
            }
            /* not required: allowed only inside the capsule's band */
            for (i = 0; i < n; i++)
                if (pt->in[i] && maybe[i] && id_of(pt, i) == got[k])
                    break;
            if (i == n)
                ok = false;
            extra++;
        }
        ok = ok && a == must;
        (void)extra;
    }
    CHECKF(ok, "%s: %s: %u reported, oracle %u (+%u on the boundary band)", tk_ctx(), name, (unsigned)list.count,
           (unsigned)must, (unsigned)(total - must));
    /* visitor form: the same ids (in tree order: the same order as the list) */
    {
        uint32_t listed = list.count;
        list = copse_id_list_make(got, n + 1u);
        (void)run_list(pt, q, &list);
        c.ids = expect;
        c.count = 0;
        c.cap = n + 1u;
        c.stop_after = 0xFFFFFFFFu;
        CHECKF(run_visit(pt, q, &c) == COPSE_OK && c.count == listed &&
                   memcmp(c.ids, got, 4u * (size_t)listed) == 0,
               "%s: %s visitor saw %u, list %u", tk_ctx(), name, (unsigned)c.count, (unsigned)listed);
        /* early stop and truncation */
        if (listed >= 2u) {
            uint32_t small[1];
            c.count = 0;
            c.stop_after = 1;
            CHECKF(run_visit(pt, q, &c) == COPSE_OK && c.count == 1u, "%s: %s visitor did not stop", tk_ctx(),
                   name);
            list = copse_id_list_make(small, 1);
            CHECKF(run_list(pt, q, &list) == COPSE_OK && list.count == 1u && list.truncated && small[0] == got[0],
                   "%s: %s truncated list", tk_ctx(), name);
        }
        list = copse_id_list_make(NULL, 0);
        CHECKF(run_list(pt, q, &list) == COPSE_OK && list.count == 0u && list.truncated == (listed > 0u),
               "%s: %s zero-capacity list", tk_ctx(), name);
    }
    if (q->kind == R_CAPSULE) {
        uint32_t any = 0;
        CHECKF(copse_octree_any_capsule(&pt->tree, &q->capsule, NULL, &any) == COPSE_OK &&
                   (list.truncated ? any == got[0] : any == COPSE_NONE),
               "%s: capsule_any gave %u", tk_ctx(), (unsigned)any);
    }
    tk_rewind(mark);
}

void ot_judge_box(const ot_point_tree *pt, const copse_box3 *box)
{
    region_query q;
    q.kind = R_BOX;
    q.box = *box;
    judge_region(pt, &q);
}

void ot_judge_sphere(const ot_point_tree *pt, const copse_sphere *s)
{
    region_query q;
    q.kind = R_SPHERE;
    q.sphere = *s;
    judge_region(pt, &q);
}

void ot_judge_capsule(const ot_point_tree *pt, const copse_capsule *c)
{
    region_query q;
    q.kind = R_CAPSULE;
    q.capsule = *c;
    judge_region(pt, &q);
}

/* ---- judging k nearest --------------------------------------------------------------------------- */

static bool before(float da, uint32_t ia, float db, uint32_t ib)
{
    return da < db || (da == db && ia < ib);
}

typedef struct near_seen {
    const copse_neighbor *want;
    uint32_t count, stop_after;
    bool ok;
} near_seen;

static bool see_neighbor(void *user, const copse_neighbor *n)
{
    near_seen *s = (near_seen *)user;
    const copse_neighbor *w = &s->want[s->count];
    s->ok = s->ok && n->distance_sq == w->distance_sq && n->id == w->id && n->index == w->index;
    s->count++;
    return s->count < s->stop_after;
}

void ot_judge_knn(const ot_point_tree *pt, const float *p, uint32_t k, float max_distance)
{
    size_t mark = tk_mark();
    copse_neighbor *want = (copse_neighbor *)tk_alloc(sizeof(copse_neighbor) * (k + 1u));
    copse_neighbor *got = (copse_neighbor *)tk_alloc(sizeof(copse_neighbor) * (k + 1u));
    float limit = max_distance * max_distance;
    uint32_t i, count = 0, j;
    copse_neighbor_list list;
    copse_nearest3 near;
    bool ok = true;
    if (want == NULL || got == NULL)
        return;
    /* the k smallest (d2, id) by insertion */
    for (i = 0; i < pt->n; i++) {
        float d2;
        uint32_t id = id_of(pt, i);
        if (!pt->in[i])
            continue;
        d2 = dist2(&pt->points[i].x, p);
        if (!(d2 <= limit))
            continue;
        if (count == k && !before(d2, id, want[k - 1u].distance_sq, want[k - 1u].id))
            continue;
        if (count < k)
            count++;
        for (j = count - 1u; j > 0u && before(d2, id, want[j - 1u].distance_sq, want[j - 1u].id); j--)
            want[j] = want[j - 1u];
        want[j].distance_sq = d2;
        want[j].id = id;
        want[j].index = i;
    }
    list = copse_neighbor_list_make(got, k);
    CHECKF(copse_octree_knn(&pt->tree, copse_v3(p[0], p[1], p[2]), max_distance, &list) == COPSE_OK,
           "%s: knn status", tk_ctx());
    ok = list.count == count;
    for (j = 0; ok && j < count; j++)
        ok = got[j].distance_sq == want[j].distance_sq && got[j].id == want[j].id &&
             id_of(pt, got[j].index) == got[j].id;
    if (!CHECKF(ok, "%s: knn k=%u: %u found, oracle %u", tk_ctx(), (unsigned)k, (unsigned)list.count,
                (unsigned)count))
        copse_port_printf("    point (%.9g, %.9g, %.9g) max %.9g\n", (double)p[0], (double)p[1], (double)p[2],
                          (double)max_distance);
    /* the walk with its state in a caller's buffer gives the same list, bit for bit */
    {
        void *work = tk_alloc(COPSE_OCTREE_KNN_WORK_BYTES);
        copse_neighbor *again = (copse_neighbor *)tk_alloc(sizeof(copse_neighbor) * (k + 1u));
        if (work != NULL && again != NULL) {
            copse_neighbor_list l2 = copse_neighbor_list_make(again, k);
            CHECKF(copse_octree_knn_in(&pt->tree, copse_v3(p[0], p[1], p[2]), max_distance, work,
                                       COPSE_OCTREE_KNN_WORK_BYTES, &l2) == COPSE_OK &&
                       l2.count == list.count && memcmp(again, got, sizeof(copse_neighbor) * list.count) == 0,
                   "%s: knn_in k=%u differs from knn", tk_ctx(), (unsigned)k);
        }
    }
    /* the visitor form, in batches of 1..3, sees the same neighbours in the same order; stopped
     * at k it has seen exactly the k nearest (they are all there is when fewer) */
    {
        copse_neighbor scratch[3];
        near_seen seen;
        seen.want = want;
        seen.count = 0;
        seen.stop_after = count;
        seen.ok = true;
        if (count > 0u)
            CHECKF(copse_octree_visit_nearest(&pt->tree, copse_v3(p[0], p[1], p[2]), max_distance, scratch,
                                              1u + k % 3u, see_neighbor, &seen) == COPSE_OK &&
                       seen.ok && seen.count == count,
                   "%s: visit_nearest k=%u: %u seen, oracle %u", tk_ctx(), (unsigned)k, (unsigned)seen.count,
                   (unsigned)count);
    }
    CHECKF(copse_octree_nearest(&pt->tree, copse_v3(p[0], p[1], p[2]), max_distance, &near) == COPSE_OK &&
               (count == 0u ? near.id == COPSE_NONE && near.distance_sq == FLT_MAX
                            : near.id == want[0].id && near.distance_sq == want[0].distance_sq &&
                                  memcmp(&near.point, &pt->points[want[0].index], sizeof near.point) == 0),
           "%s: nearest", tk_ctx());
    tk_rewind(mark);
}

void ot_judge_all(const ot_point_tree *pt, test_rng *rng, unsigned queries)
{
    static const uint32_t ks[5] = {1, 2, 3, 8, 33};
    unsigned q;
    for (q = 0; q < queries; q++) {
        copse_box3 box;
        copse_sphere s;
        copse_capsule c;
        float p[3], maxd;
        ot_random_box(pt, rng, &box);
        ot_judge_box(pt, &box);
        ot_random_sphere(pt, rng, &s);
        ot_judge_sphere(pt, &s);
        ot_random_capsule(pt, rng, &c);
        ot_judge_capsule(pt, &c);
        ot_random_point(pt, rng, p);
        maxd = test_rng_below(rng, 3) == 0u ? scale_of(pt) * test_rng_float(rng, 0.0f, 0.2f) : FLT_MAX;
        ot_judge_knn(pt, p, ks[q % 5u], maxd);
    }
}

/* ---- hashes ---------------------------------------------------------------------------------- */

static uint32_t fnv(uint32_t h, const void *data, size_t bytes)
{
    const uint8_t *p = (const uint8_t *)data;
    size_t i;
    for (i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

uint32_t ot_point_hash(const copse_octree *t)
{
    uint32_t h = 2166136261u;
    h = fnv(h, t->nodes, sizeof(copse_octree_node) * t->node_top);
    h = fnv(h, t->buckets, 4u * (size_t)(t->bucket_size + 1u) * t->bucket_top);
    h = fnv(h, &t->size, sizeof t->size);
    h = fnv(h, &t->nodes_used, sizeof t->nodes_used);
    h = fnv(h, &t->node_free, sizeof t->node_free);
    h = fnv(h, &t->buckets_used, sizeof t->buckets_used);
    h = fnv(h, &t->bucket_free, sizeof t->bucket_free);
    return fnv(h, t->center, sizeof t->center + sizeof t->half);
}

uint32_t ot_loose_hash(const copse_loose *t)
{
    uint32_t h = 2166136261u;
    h = fnv(h, t->nodes, sizeof(copse_loose_node) * t->node_top);
    h = fnv(h, t->objects, sizeof(copse_loose_object) * t->max_objects);
    h = fnv(h, &t->size, sizeof t->size);
    h = fnv(h, &t->nodes_used, sizeof t->nodes_used);
    return fnv(h, &t->node_free, sizeof t->node_free);
}

/* SPDX-License-Identifier: MIT */
/* The hostile-API suite's kit: cases, statuses, guarded buffers, hostile numbers, outputs,
 * re-entrant visitors and the scene (tests/hostile/hostile.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hostile/hostile.h"

/* ---- cases ------------------------------------------------------------------------------------ */

#define HZ_MAX_FNS 512u

static const char *g_fns[HZ_MAX_FNS];
static uint64_t g_seen[HZ_MAX_FNS]; /* the statuses each function was seen to return */
static unsigned g_cur = HZ_MAX_FNS;  /* g_fn's index in g_fns */
static unsigned g_nfns;
static const char *g_fn = "";
static unsigned long g_cases;

void hz_case(const char *fn)
{
    unsigned i;
    g_fn = fn;
    g_cases++;
    for (i = 0; i < g_nfns; i++)
        if (g_fns[i] == fn || strcmp(g_fns[i], fn) == 0) {
            g_cur = i;
            return;
        }
    g_cur = g_nfns < HZ_MAX_FNS ? g_nfns : HZ_MAX_FNS;
    if (g_nfns < HZ_MAX_FNS)
        g_fns[g_nfns++] = fn;
}

/* A status the current case's function returned (checked later against its header's list). */
static void seen(copse_status st)
{
    int s = -(int)st;
    if (g_cur < g_nfns && s >= 0 && s < 64)
        g_seen[g_cur] |= (uint64_t)1 << (unsigned)s;
}

uint64_t hz_seen(const char *fn)
{
    unsigned i;
    for (i = 0; i < g_nfns; i++)
        if (strcmp(g_fns[i], fn) == 0)
            return g_seen[i];
    return 0u;
}

const char *hz_fn(void)
{
    return g_fn;
}

unsigned long hz_cases(void)
{
    return g_cases;
}

bool hz_covered(const char *fn)
{
    unsigned i;
    for (i = 0; i < g_nfns; i++)
        if (strcmp(g_fns[i], fn) == 0)
            return true;
    return false;
}

unsigned hz_covered_count(void)
{
    return g_nfns;
}

const char *hz_covered_name(unsigned i)
{
    return i < g_nfns ? g_fns[i] : NULL;
}

bool hz_in(copse_status st, uint64_t mask)
{
    int s = -(int)st;
    return s >= 0 && s < 64 && ((mask >> s) & 1u) != 0u;
}

bool hz_expect_at(copse_status st, uint64_t mask, const char *file, int line)
{
    seen(st);
    return test_checkf_at(hz_in(st, mask), file, line, "%s: %s not documented here", g_fn, copse_status_str(st));
}

bool hz_is_at(copse_status st, copse_status want, const char *file, int line)
{
    seen(st);
    return test_checkf_at(st == want, file, line, "%s: %s, expected %s", g_fn, copse_status_str(st),
                          copse_status_str(want));
}

/* ---- guarded buffers ------------------------------------------------------------------------ */

#define HZ_MAX_BUFS 256u

typedef struct hz_block {
    uint8_t *raw, *user;
    size_t bytes;
} hz_block;

static hz_block g_bufs[HZ_MAX_BUFS];
static unsigned g_nbufs;

void *hz_buf(size_t bytes, unsigned misalign)
{
    hz_block *b;
    uint8_t *raw;
    if (g_nbufs == HZ_MAX_BUFS)
        hz_guards();
    raw = (uint8_t *)malloc(bytes + HZ_GUARD + 32u);
    if (raw == NULL)
        abort();
    b = &g_bufs[g_nbufs++];
    b->raw = raw;
    b->user = (uint8_t *)(((uintptr_t)raw + 15u) & ~(uintptr_t)15u) + (misalign & 15u);
    b->bytes = bytes;
    memset(b->user, (int)HZ_FILL, bytes);
    memset(b->user + bytes, 0xA5, HZ_GUARD);
    return b->user;
}

void hz_guards(void)
{
    unsigned i;
    for (i = 0; i < g_nbufs; i++) {
        const uint8_t *g = g_bufs[i].user + g_bufs[i].bytes;
        unsigned k, bad = 0;
        for (k = 0; k < HZ_GUARD; k++)
            bad += g[k] != 0xA5u;
        CHECKF(bad == 0u, "%s: %u guard bytes written after a caller buffer of %lu bytes", hz_fn(), bad,
               (unsigned long)g_bufs[i].bytes);
        free(g_bufs[i].raw);
    }
    g_nbufs = 0;
}

/* ---- hostile numbers ------------------------------------------------------------------------ */

const float hz_floats[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 3.0e38f, -1.0e19f, 1.0e19f, -0.0f,
                           FLT_MIN, 1.4e-45f, -1.0e-40f, -1.0f, 0.0f};
const unsigned hz_nfloats = sizeof hz_floats / sizeof hz_floats[0];

void hz_mutate(const void *base, size_t bytes, hz_mutant_fn fn, void *ctx)
{
    uint64_t copy[32]; /* 256 bytes: the largest struct mutated (a pose, an obb, a frustum) fits */
    size_t slot, v;
    if (bytes > sizeof copy)
        abort();
    for (slot = 0; slot < bytes / sizeof(float); slot++)
        for (v = 0; v < hz_nfloats; v++) {
            memcpy(copy, base, bytes);
            memcpy((uint8_t *)copy + slot * sizeof(float), &hz_floats[v], sizeof(float));
            fn(ctx, copy);
        }
}

void hz_garbage(void *dst, size_t bytes, unsigned which)
{
    static const uint8_t fill[HZ_NGARBAGE] = {0x00u, 0xFFu, 0xA5u, 0x7Fu, 0x80u};
    memset(dst, fill[which % HZ_NGARBAGE], bytes);
}

/* ---- outputs -------------------------------------------------------------------------------- */

copse_id_list hz_ids(uint32_t capacity)
{
    copse_id_list l = copse_id_list_make((uint32_t *)hz_buf(sizeof(uint32_t) * capacity, 0), capacity);
    l.count = 0xBADu;
    l.truncated = true;
    return l;
}

copse_hit_list hz_hits(uint32_t capacity)
{
    copse_hit_list l = copse_hit_list_make((copse_hit *)hz_buf(sizeof(copse_hit) * capacity, 0), capacity);
    l.count = 0xBADu;
    l.truncated = true;
    return l;
}

copse_neighbor_list hz_neighbors(uint32_t capacity)
{
    copse_neighbor_list l =
        copse_neighbor_list_make((copse_neighbor *)hz_buf(sizeof(copse_neighbor) * capacity, 0), capacity);
    l.count = 0xBADu;
    return l;
}

copse_pair_list hz_pairs(uint32_t capacity)
{
    copse_pair_list l = copse_pair_list_make((copse_pair *)hz_buf(sizeof(copse_pair) * capacity, 0), capacity);
    l.count = 0xBADu;
    l.truncated = true;
    return l;
}

/* An output left by a call: emptied on an error, within its capacity on OK. */
static void list_ok(uint32_t count, uint32_t capacity, bool truncated, copse_status st, const char *file, int line)
{
    if (st != COPSE_OK)
        test_checkf_at(count == 0u && !truncated, file, line, "%s: error %s left a list of %u%s", g_fn,
                       copse_status_str(st), (unsigned)count, truncated ? " (truncated)" : "");
    else
        test_checkf_at(count <= capacity, file, line, "%s: %u in a list of %u", g_fn, (unsigned)count,
                       (unsigned)capacity);
}

void hz_ids_ok_at(const copse_id_list *l, copse_status st, const char *file, int line)
{
    list_ok(l->count, l->capacity, l->truncated, st, file, line);
}

void hz_hits_ok_at(const copse_hit_list *l, copse_status st, const char *file, int line)
{
    list_ok(l->count, l->capacity, l->truncated, st, file, line);
}

void hz_pairs_ok_at(const copse_pair_list *l, copse_status st, const char *file, int line)
{
    list_ok(l->count, l->capacity, l->truncated, st, file, line);
}

void hz_neighbors_ok_at(const copse_neighbor_list *l, copse_status st, const char *file, int line)
{
    list_ok(l->count, l->capacity, false, st, file, line);
}

/* ---- re-entrant visitors -------------------------------------------------------------------- */

static bool hz_re_visit(hz_re *r)
{
    r->visits++;
    if (r->depth == 0u && !r->nested_done) {
        unsigned outer = r->visits;
        r->depth = 1u;
        r->visits = 0;
        r->nested_st = r->call(r);
        r->nested_visits = r->visits;
        r->visits = outer;
        r->depth = 0u;
        r->nested_done = true;
    }
    return true;
}

bool hz_re_id(void *user, uint32_t id)
{
    (void)id;
    return hz_re_visit((hz_re *)user);
}

bool hz_re_hit(void *user, const copse_hit *hit)
{
    (void)hit;
    return hz_re_visit((hz_re *)user);
}

bool hz_re_neighbor(void *user, const copse_neighbor *n)
{
    (void)n;
    return hz_re_visit((hz_re *)user);
}

bool hz_re_pair(void *user, const copse_pair *p)
{
    (void)p;
    return hz_re_visit((hz_re *)user);
}

bool hz_re_bsp_pair(void *user, uint32_t a, uint32_t b)
{
    (void)a;
    (void)b;
    return hz_re_visit((hz_re *)user);
}

bool hz_re_bounds(void *user, const float *mn, const float *mx)
{
    (void)mn;
    (void)mx;
    return hz_re_visit((hz_re *)user);
}

void hz_reenter(hz_re *r)
{
    copse_status st;
    unsigned plain;
    r->depth = 1u; /* a plain call first: no nesting */
    r->visits = 0;
    st = r->call(r);
    plain = r->visits;
    HZ_IS(st, COPSE_OK);
    r->depth = 0u;
    r->visits = 0;
    r->nested_done = false;
    r->nested_st = COPSE_OK;
    r->nested_visits = 0;
    st = r->call(r);
    HZ_IS(st, COPSE_OK);
    HZ_IS(r->nested_st, COPSE_OK);
    CHECKF(r->visits == plain && (plain == 0u || (r->nested_done && r->nested_visits == plain)),
           "%s: re-entered: %u visits outside, %u inside, %u plain", hz_fn(), r->visits, r->nested_visits, plain);
}

bool hz_stop_id(void *user, uint32_t id)
{
    (void)id;
    (*(unsigned *)user)++;
    return false;
}

bool hz_true_id(void *user, uint32_t id)
{
    (void)user;
    (void)id;
    return true;
}

bool hz_count_id(void *user, uint32_t id)
{
    (void)id;
    (*(unsigned *)user)++;
    return true;
}

/* ---- families of queries ------------------------------------------------------------------ */

void hz_idq_nulls(const hz_idq *q, const void *tree, const void *shape)
{
    copse_id_list l = hz_ids(4);
    unsigned n = 0;
    HZ_IS(q->list(NULL, shape, &l), COPSE_ERR_NULL);
    hz_ids_ok(&l, COPSE_ERR_NULL);
    l = hz_ids(4);
    HZ_IS(q->list(tree, NULL, &l), COPSE_ERR_NULL);
    hz_ids_ok(&l, COPSE_ERR_NULL);
    HZ_IS(q->list(tree, shape, NULL), COPSE_ERR_NULL);
    l = copse_id_list_make(NULL, 3);
    HZ_IS(q->list(tree, shape, &l), COPSE_ERR_NULL);
    l = copse_id_list_make(NULL, 0); /* no storage and no room: nothing to write, fine */
    HZ_EXPECT(q->list(tree, shape, &l), HZ_S(OK) | HZ_S(ERR_NULL));
    HZ_IS(q->visit(tree, shape, NULL, NULL), COPSE_ERR_NULL);
    HZ_IS(q->visit(NULL, shape, hz_count_id, &n), COPSE_ERR_NULL);
    HZ_IS(q->visit(tree, NULL, hz_count_id, &n), COPSE_ERR_NULL);
    hz_guards();
}

void hz_idq_one(const hz_idq *q, const void *tree, const void *shape, uint64_t mask)
{
    copse_id_list full = hz_ids(64), c0 = hz_ids(0);
    copse_status st = q->list(tree, shape, &full), s0, sv;
    unsigned n = 0;
    HZ_EXPECT(st, mask);
    hz_ids_ok(&full, st);
    s0 = q->list(tree, shape, &c0);
    hz_ids_ok(&c0, s0);
    sv = q->visit(tree, shape, hz_count_id, &n);
    HZ_CHECK(s0 == st && sv == st);
    if (st == COPSE_OK)
        HZ_CHECK(n == full.count && c0.truncated == (full.count > 0u));
    hz_guards();
}

typedef struct idq_ctx {
    const hz_idq *q;
    const void *tree;
    uint64_t mask;
} idq_ctx;

static void idq_mutant(void *ctx, const void *m)
{
    const idq_ctx *c = (const idq_ctx *)ctx;
    hz_idq_one(c->q, c->tree, m, c->mask);
}

void hz_idq_mutate(const hz_idq *q, const void *tree, const void *shape, size_t bytes, uint64_t mask)
{
    idq_ctx c;
    c.q = q;
    c.tree = tree;
    c.mask = mask;
    hz_mutate(shape, bytes, idq_mutant, &c);
}

static copse_status idq_again(hz_re *r)
{
    return ((const hz_idq *)r->c)->visit(r->a, r->b, hz_re_id, r);
}

void hz_idq_visitors(const hz_idq *q, const void *tree, const void *shape)
{
    unsigned n = 0;
    hz_re re;
    HZ_IS(q->visit(tree, shape, hz_stop_id, &n), COPSE_OK);
    HZ_CHECK(n <= 1u);
    memset(&re, 0, sizeof re);
    re.call = idq_again;
    re.a = tree;
    re.b = shape;
    re.c = q;
    hz_reenter(&re);
}

void hz_blob_family(const hz_blob_ops *o, const void *tree, const void *blob, size_t n, const void *other,
                    size_t other_n)
{
    uint64_t zero[64], view[64]; /* room for any tree struct, zeroed and aligned */
    size_t bytes, written, len;
    uint8_t *buf;
    if (o->tree_bytes > sizeof zero)
        abort();
    memset(zero, 0, sizeof zero);
    hz_case(o->save_bytes_name);
    HZ_CHECK(o->save_bytes(NULL) == 0u);
    hz_case(o->save_bytes_name);
    HZ_CHECK(o->save_bytes(zero) == 0u);
    hz_case(o->save_bytes_name);
    bytes = o->save_bytes(tree);
    HZ_CHECK(bytes == n);
    hz_case(o->save_name);
    HZ_IS(o->save(NULL, NULL, 0, &written), COPSE_ERR_NULL);
    hz_case(o->save_name);
    HZ_IS(o->save(tree, NULL, 5, &written), COPSE_ERR_NULL);
    hz_case(o->save_name);
    HZ_IS(o->save(zero, hz_buf(64, 0), 64, &written), o->zero_save);
    buf = (uint8_t *)hz_buf(bytes - 1u, 0);
    written = 0;
    hz_case(o->save_name);
    HZ_IS(o->save(tree, buf, bytes - 1u, &written), COPSE_ERR_NOMEM);
    HZ_CHECK(written == bytes && buf[0] == HZ_FILL && buf[bytes - 2u] == HZ_FILL);
    buf = (uint8_t *)hz_buf(bytes, 3);
    hz_case(o->save_name);
    HZ_IS(o->save(tree, buf, bytes, NULL), COPSE_OK);
    hz_case(o->view_name);
    HZ_IS(o->view(NULL, blob, n), COPSE_ERR_NULL);
    hz_case(o->view_name);
    HZ_IS(o->view(view, buf, bytes), COPSE_ERR_ALIGN);
    HZ_CHECK(o->empty(view));
    hz_case(o->view_name);
    HZ_IS(o->view(view, NULL, n), COPSE_ERR_NULL);
    for (len = 0; len < n; len += len < 128u ? 3u : 29u) {
        hz_case(o->view_name);
        HZ_CHECK(o->view(view, blob, len) != COPSE_OK && o->empty(view));
    }
    hz_case(o->view_name);
    HZ_IS(o->view(view, other, other_n), COPSE_ERR_BLOB_KIND);
    HZ_CHECK(o->empty(view));
    hz_case(o->view_name);
    HZ_IS(o->view(view, blob, n), COPSE_OK);
    hz_guards();
}

/* ---- the scene ------------------------------------------------------------------------------ */

copse_octree_config hz_octree_config(const hz_fix *f)
{
    copse_octree_config c;
    memset(&c, 0, sizeof c);
    c.points = f->pts;
    c.point_capacity = HZ_POINTS;
    c.bounds = copse_box3_make(-4, -4, -4, 4, 4, 4);
    c.max_nodes = 64;
    c.max_buckets = 64;
    c.leaf_size = 4;
    c.bucket_size = 4;
    c.max_depth = 6;
    return c;
}

copse_loose_config hz_loose_config(void)
{
    copse_loose_config c;
    memset(&c, 0, sizeof c);
    c.world = copse_box3_make(-4, -4, -4, 12, 4, 4);
    c.max_nodes = 32;
    c.max_objects = 16;
    c.max_depth = 4;
    c.node_capacity = 1;
    return c;
}

static hz_fix g_fix;
static bool g_ready;

static void *g_fix_raw[64];
static unsigned g_fix_nraw;

static void *fix_mem(size_t bytes)
{
    void *p = malloc(bytes + 16u); /* the scene lives until hz_fixture_free */
    if (p == NULL || g_fix_nraw == 64u)
        abort();
    g_fix_raw[g_fix_nraw++] = p;
    return (void *)(((uintptr_t)p + 15u) & ~(uintptr_t)15u);
}

void hz_fixture_free(void)
{
    while (g_fix_nraw > 0u)
        free(g_fix_raw[--g_fix_nraw]);
    g_ready = false;
}

static void fix_arena(copse_arena *a, size_t bytes)
{
    copse_arena_init(a, fix_mem(bytes), bytes);
}

static void *fix_blob(size_t bytes, copse_status st_of_save)
{
    (void)st_of_save;
    return fix_mem(bytes);
}

#define FIX_OK(expr)                                 \
    do {                                             \
        if (!CHECK((expr) == COPSE_OK))              \
            abort();                                 \
    } while (0)

static void fix_bvh(hz_fix *f)
{
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    copse_arena a;
    uint32_t i, k;
    for (i = 0; i < HZ_TRIS; i++) { /* a 4 x 6 strip of small triangles, two heights */
        float x = (float)(i % 6u), z = (float)(i / 6u), y = (float)(i % 2u) * 0.5f;
        const float c[9] = {x, y, z, x + 0.9f, y, z, x, y + 0.25f, z + 0.9f};
        for (k = 0; k < 9u; k++)
            f->tri[9u * i + k] = c[k];
    }
    memset(&f->mesh, 0, sizeof f->mesh);
    f->mesh.positions = f->tri;
    f->mesh.vertex_count = 3u * HZ_TRIS;
    f->mesh.index_type = COPSE_MESH_INDEX_NONE;
    f->mesh.triangle_count = HZ_TRIS;
    fix_arena(&a, COPSE_BVH_BUILD_BYTES(HZ_TRIS, 4));
    FIX_OK(copse_bvh_build_mesh(&f->mesh3, &a, &f->mesh, &p));
    p.projection = COPSE_BVH_PROJECT_XZ;
    fix_arena(&a, COPSE_BVH_BUILD_BYTES(HZ_TRIS, 4));
    FIX_OK(copse_bvh_build_mesh(&f->mesh2, &a, &f->mesh, &p));
    p.projection = COPSE_BVH_PROJECT_NONE;
    for (i = 0; i < HZ_BOXES; i++) {
        float x = (float)i * 0.75f;
        f->b3[i] = copse_box3_make(x, 0.0f, -1.0f, x + 1.0f, 1.0f + 0.1f * (float)i, 1.0f);
        f->b2[i] = copse_box2_make(x, -0.5f, x + 1.0f, 0.5f + 0.1f * (float)i);
        f->ids[i] = 100u + i;
    }
    fix_arena(&a, COPSE_BVH_BUILD_BYTES(HZ_BOXES, 4));
    FIX_OK(copse_bvh_build_boxes3(&f->boxes3, &a, f->b3, f->ids, HZ_BOXES, &p));
    fix_arena(&a, COPSE_BVH_BUILD_BYTES(HZ_BOXES, 4));
    FIX_OK(copse_bvh_build_boxes2(&f->boxes2, &a, f->b2, NULL, HZ_BOXES, &p));
    f->n_bvh = copse_bvh_save_bytes(&f->mesh3);
    f->blob_bvh = fix_blob(f->n_bvh, COPSE_OK);
    FIX_OK(copse_bvh_save(&f->mesh3, f->blob_bvh, f->n_bvh, NULL));
    /* the deepest tree the builder makes: boxes at doubling distances, split at the midpoint,
     * peel one off per level */
    {
        static copse_box3 chain[200];
        copse_bvh_params mp = COPSE_BVH_PARAMS_DEFAULT;
        mp.split = COPSE_BVH_SPLIT_MIDPOINT;
        mp.leaf_size = 1;
        for (i = 0; i < 200u; i++) {
            float x = ldexpf(1.0f, (int)(i / 2u)) * ((i & 1u) ? 1.5f : 1.0f);
            chain[i] = copse_box3_make(x, 0.0f, 0.0f, x, 1.0f, 1.0f);
        }
        fix_arena(&a, COPSE_BVH_BUILD_BYTES(200, 1));
        FIX_OK(copse_bvh_build_boxes3(&f->deep, &a, chain, NULL, 200u, &mp));
    }
}

static void fix_octrees(hz_fix *f)
{
    copse_octree_config oc;
    copse_loose_config lc;
    copse_arena a, scratch;
    uint32_t i;
    for (i = 0; i < HZ_POINTS; i++)
        f->pts[i] = copse_v3(-3.0f + 0.15f * (float)i, (float)(i % 5u) * 0.5f - 1.0f, (float)(i % 3u) - 1.0f);
    oc = hz_octree_config(f);
    fix_arena(&a, copse_octree_bytes(&oc));
    FIX_OK(copse_octree_init(&f->oct, &a, &oc));
    fix_arena(&scratch, COPSE_OCTREE_BUILD_SCRATCH_BYTES(HZ_POINTS, 6));
    FIX_OK(copse_octree_build(&f->oct, &scratch, HZ_POINTS));
    f->n_oct = copse_octree_save_bytes(&f->oct);
    f->blob_oct = fix_blob(f->n_oct, COPSE_OK);
    FIX_OK(copse_octree_save(&f->oct, f->blob_oct, f->n_oct, NULL));
    lc = hz_loose_config();
    fix_arena(&a, copse_loose_bytes(&lc));
    FIX_OK(copse_loose_init(&f->loose, &a, &lc));
    for (i = 0; i < HZ_BOXES; i++)
        FIX_OK(copse_loose_insert(&f->loose, i, &f->b3[i]));
    f->n_loose = copse_loose_save_bytes(&f->loose);
    f->blob_loose = fix_blob(f->n_loose, COPSE_OK);
    FIX_OK(copse_loose_save(&f->loose, f->blob_loose, f->n_loose, NULL));
}

static void fix_bsp(hz_fix *f)
{
    const copse_bsp2_params p2 = COPSE_BSP2_PARAMS_DEFAULT;
    const copse_bsp3_params p3 = COPSE_BSP3_PARAMS_DEFAULT;
    copse_arena a;
    size_t work = 1u << 20;
    void *wmem = fix_mem(work);
    uint32_t i;
    f->scene = copse_box2_make(-8, -8, 12, 8);
    for (i = 0; i < HZ_BOXES; i++)
        f->objs[i] = copse_box2_make((float)i * 0.75f, -0.5f, (float)i * 0.75f + 1.0f, 0.5f + 0.1f * (float)i);
    fix_arena(&a, copse_bsp2_build_bytes(&f->scene, f->objs, HZ_BOXES, &p2));
    FIX_OK(copse_bsp2_build(&f->bsp2, &a, &f->scene, f->objs, HZ_BOXES, &p2));
    f->n_bsp2 = copse_bsp2_save_bytes(&f->bsp2);
    f->blob_bsp2 = fix_blob(f->n_bsp2, COPSE_OK);
    FIX_OK(copse_bsp2_save(&f->bsp2, f->blob_bsp2, f->n_bsp2, NULL));
    for (i = 0; i < HZ_BRUSHES; i++) {
        copse_box3 b = copse_box3_make((float)i * 1.5f, 0.0f, 0.0f, (float)i * 1.5f + 1.0f, 1.0f + (float)i, 1.0f);
        FIX_OK(copse_brush_from_box(&b, f->planes[i]));
        f->brushes[i].planes = f->planes[i];
        f->brushes[i].plane_count = 6;
    }
    fix_arena(&a, copse_bsp3_build_bytes(f->brushes, HZ_BRUSHES, &p3, wmem, work));
    FIX_OK(copse_bsp3_build(&f->bsp3, &a, f->brushes, HZ_BRUSHES, &p3));
    f->n_bsp3 = copse_bsp3_save_bytes(&f->bsp3);
    f->blob_bsp3 = fix_blob(f->n_bsp3, COPSE_OK);
    FIX_OK(copse_bsp3_save(&f->bsp3, f->blob_bsp3, f->n_bsp3, NULL));
    /* a deep 3D tree: slabs crossing each other, split_weight 0 */
    {
        static copse_plane slab[16][6];
        static copse_brush sb[16];
        copse_bsp3_params dp = COPSE_BSP3_PARAMS_DEFAULT;
        size_t bytes;
        dp.split_weight = 0;
        for (i = 0; i < 16u; i++) {
            float an = 3.14159265f * (float)i / 16.0f, c = cosf(an), s = sinf(an);
            const copse_plane pl[6] = {{{c, s, 0}, 0.05f}, {{-c, -s, 0}, 0.05f}, {{-s, c, 0}, 10},
                                       {{s, -c, 0}, 10},   {{0, 0, 1}, 10},      {{0, 0, -1}, 10}};
            memcpy(slab[i], pl, sizeof pl);
            sb[i].planes = slab[i];
            sb[i].plane_count = 6;
        }
        bytes = copse_bsp3_build_bytes(sb, 16u, &dp, wmem, work);
        fix_arena(&a, bytes);
        FIX_OK(copse_bsp3_build(&f->deep3, &a, sb, 16u, &dp));
    }
}

static void fix_robot(hz_fix *f)
{
    static copse_sphere spheres[1] = {{{2.5f, 0.5f, 2.0f}, 4.5f}};
    static copse_capsule caps[1] = {{{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, 0.2f}};
    static copse_link_desc links[2];
    static copse_joint_desc joints[1];
    copse_robot_desc d;
    copse_arena a;
    size_t bytes;
    memset(links, 0, sizeof links);
    memset(joints, 0, sizeof joints);
    links[0].name = "base";
    links[0].mesh = &f->mesh;
    links[0].spheres = spheres;
    links[0].sphere_count = 1;
    links[1].name = "arm";
    links[1].capsules = caps;
    links[1].capsule_count = 1;
    links[1].padding = 0.01f;
    joints[0].name = "j0";
    joints[0].type = COPSE_JOINT_REVOLUTE;
    joints[0].parent = 0;
    joints[0].child = 1;
    joints[0].xyz = copse_v3(0.0f, 1.0f, 0.0f);
    joints[0].axis = copse_v3(0.0f, 0.0f, 1.0f);
    joints[0].lower = -3.0f;
    joints[0].upper = 3.0f;
    joints[0].mimic = -1;
    memset(&d, 0, sizeof d);
    d.links = links;
    d.link_count = 2;
    d.joints = joints;
    d.joint_count = 1;
    d.tree_params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    bytes = copse_robot_build_bytes(&d);
    fix_arena(&a, bytes);
    FIX_OK(copse_robot_build(&f->robot, &a, &d));
    f->n_robot = copse_robot_save_bytes(&f->robot);
    f->blob_robot = fix_blob(f->n_robot, COPSE_OK);
    FIX_OK(copse_robot_save(&f->robot, f->blob_robot, f->n_robot, NULL));
    f->wmesh.tree = &f->mesh3;
    f->wmesh.pose = copse_pose_translation(copse_v3(0.0f, -0.5f, 0.0f));
    memset(f->objects, 0, sizeof f->objects);
    f->objects[0].kind = COPSE_OBJECT_BOX;
    f->objects[0].box.center = copse_v3(0.0f, 1.0f, 0.5f);
    f->objects[0].box.half = copse_v3(0.1f, 0.1f, 0.1f);
    {
        const copse_pose id = copse_pose_identity();
        memcpy(f->objects[0].box.rotation, id.rotation, sizeof id.rotation);
    }
    f->objects[1].kind = COPSE_OBJECT_SPHERE;
    f->objects[1].sphere.center = copse_v3(0.3f, 1.0f, 0.8f);
    f->objects[1].sphere.radius = 0.2f;
    memset(&f->world, 0, sizeof f->world);
    f->world.meshes = &f->wmesh;
    f->world.mesh_count = 1;
    f->world.scan = &f->oct;
    f->world.scan_padding = 0.01f;
    f->world.objects = f->objects;
    f->world.object_count = 2;
}

const hz_fix *hz_fixture(void)
{
    if (!g_ready) {
        memset(&g_fix, 0, sizeof g_fix);
        fix_bvh(&g_fix);
        fix_octrees(&g_fix);
        fix_bsp(&g_fix);
        fix_robot(&g_fix);
        g_ready = true;
    }
    return &g_fix;
}

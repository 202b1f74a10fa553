/* SPDX-License-Identifier: MIT */
/*
 * Blobs of the BSP trees (docs/format.md, kinds 4 and 5): round trips on random maps and brush
 * sets where the viewed tree answers every query bit for bit as the built one and passes the
 * brute-force judges of tests/test_bsp2.c and test_bsp3.c; the reference example's hand-derived tree read
 * back from its blob; every truncation and every single-byte corruption of small blobs
 * (refused, or with the CRC fixed up refused or safe to query); each hand-made way to be
 * wrong with its own status; a guard after the save buffer for every capacity; bad arguments.
 */
#include <string.h>

#include "suites.h"
#include "test_blob.h"
#include "test_bsp.h"
#include "test_bvh.h" /* tk_context: the failing case's name */

#define pool_reset bsp_pool_reset
#define pool_alloc bsp_pool_alloc

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* FNV-1a over 32-bit words: one number per answer sequence. */
static uint32_t mix(uint32_t h, uint32_t v)
{
    unsigned k;
    for (k = 0; k < 4u; k++)
        h = (h ^ ((v >> (8u * k)) & 0xFFu)) * 16777619u;
    return h;
}

/* A text dump of either tree into `text`; its hash. */
static uint32_t dump_hash(const char *text)
{
    uint32_t h = 2166136261u;
    for (; *text != '\0'; text++)
        h = mix(h, (uint8_t)*text);
    return h;
}

/* ---- the 2D tree ---------------------------------------------------------------------------- */

typedef struct bsp2_blob {
    copse_bsp2 tree;
    uint8_t *blob;
    size_t size;
} bsp2_blob;

typedef copse_status (*save_fn)(const void *tree, void *buf, size_t cap, size_t *written);

static copse_status save2_fn(const void *tree, void *buf, size_t cap, size_t *written)
{
    return copse_bsp2_save((const copse_bsp2 *)tree, buf, cap, written);
}

static copse_status save3_fn(const void *tree, void *buf, size_t cap, size_t *written)
{
    return copse_bsp3_save((const copse_bsp3 *)tree, buf, cap, written);
}

/* Saves a built tree of `size` blob bytes into a fresh pool buffer, converted to this host's
 * order for the views (blob_to_host_in_place); NULL after failed checks. */
static uint8_t *save_blob(const void *tree, save_fn save, size_t size)
{
    size_t written = 1;
    uint8_t *blob = (uint8_t *)pool_alloc(size);
    if (!CHECK(size > 0) || blob == NULL)
        return NULL;
    CHECK_STATUS(save(tree, blob, size, &written), COPSE_OK);
    if (!CHECK_EQ_INT(written, size) || !CHECK(blob_to_host_in_place(blob, size) == COPSE_OK))
        return NULL;
    return blob;
}

static bool build2(bsp2_blob *b, const copse_box2 *scene, const copse_box2 *boxes, uint32_t n, uint32_t depth)
{
    if (!bsp2_build_exact(&b->tree, scene, boxes, n, depth))
        return false;
    b->size = copse_bsp2_save_bytes(&b->tree);
    return (b->blob = save_blob(&b->tree, save2_fn, b->size)) != NULL;
}

static bool hash_leaf(void *user, uint32_t leaf)
{
    uint32_t *h = (uint32_t *)user;
    *h = mix(*h, leaf);
    return true;
}

static bool hash_pair(void *user, uint32_t a, uint32_t b)
{
    uint32_t *h = (uint32_t *)user;
    *h = mix(mix(*h, a), b);
    return true;
}

static float coord(test_rng *rng, float lo, float hi)
{
    float ext = hi * 0.5f - lo * 0.5f; /* halves: no overflow near FLT_MAX */
    return lo + ext * test_rng_float(rng, -0.1f, 2.2f);
}

/* Every 2D query, its answers hashed in order (statuses too): equal hashes for equal trees. */
static uint32_t answers2(const copse_bsp2 *t, uint64_t seed, unsigned queries)
{
    const copse_box2 *sc = &t->scene;
    uint32_t h = 2166136261u, ids[16], k;
    char text[512];
    size_t len = 0;
    test_rng rng;
    unsigned q;
    test_rng_seed(&rng, seed);
    h = mix(h, (uint32_t)copse_bsp2_visit_pairs(t, hash_pair, &h));
    for (k = 0; k < t->node_count; k++) {
        const uint32_t *objs = NULL;
        uint32_t count = 0, i;
        h = mix(h, (uint32_t)copse_bsp2_leaf_objects(t, k, &objs, &count));
        for (i = 0; i < count; i++)
            h = mix(h, objs[i]);
    }
    h = mix(h, (uint32_t)copse_bsp2_dump(t, COPSE_BSP_PREORDER, text, sizeof text, &len));
    h = mix(mix(h, dump_hash(text)), (uint32_t)len);
    h = mix(h, (uint32_t)copse_bsp2_dump(t, COPSE_BSP_LEVELORDER, text, sizeof text, &len));
    h = mix(mix(h, dump_hash(text)), (uint32_t)len);
    for (q = 0; q < queries; q++) {
        copse_vec2 a = copse_v2(coord(&rng, sc->min.x, sc->max.x), coord(&rng, sc->min.y, sc->max.y));
        copse_vec2 b = copse_v2(coord(&rng, sc->min.x, sc->max.x), coord(&rng, sc->min.y, sc->max.y));
        copse_box2 box = copse_box2_make(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.x < b.x ? b.x : a.x,
                                         a.y < b.y ? b.y : a.y);
        copse_circle c;
        copse_segment2 s;
        copse_bsp2_where w;
        copse_bsp2_trace tr;
        copse_id_list list = copse_id_list_make(ids, 16);
        uint32_t hit_id = COPSE_NONE;
        c.center = a;
        c.radius = (box.max.x - box.min.x) * 0.25f;
        s.a = a;
        s.b = b;
        h = mix(h, (uint32_t)copse_bsp2_locate(t, a, &w));
        h = mix(mix(mix(h, w.solid), w.leaf), w.id);
        h = mix(mix(h, (uint32_t)copse_bsp2_any_box(t, &box, &hit_id)), hit_id);
        h = mix(mix(h, (uint32_t)copse_bsp2_any_circle(t, &c, &hit_id)), hit_id);
        h = mix(h, (uint32_t)copse_sweep_point_bsp2(&s, t, &tr));
        h = mix(mix(mix(mix(h, tr.hit), bits(tr.t)), bits(tr.point.x)), bits(tr.point.y));
        h = mix(mix(mix(mix(h, bits(tr.normal.x)), bits(tr.normal.y)), tr.id), tr.leaf);
        h = mix(h, (uint32_t)copse_bsp2_visit_front_to_back(t, a, hash_leaf, &h));
        h = mix(h, (uint32_t)copse_bsp2_visit_back_to_front(t, b, hash_leaf, &h));
        h = mix(h, (uint32_t)copse_bsp2_overlap_box_leaves(t, &box, &list));
        h = mix(mix(h, list.count), list.truncated);
        for (k = 0; k < list.count; k++)
            h = mix(h, ids[k]);
    }
    return h;
}

/* The viewed tree is the saved one: same fields, same arrays, same answers. */
static void compare2(const bsp2_blob *b, const copse_bsp2 *v, const char *what)
{
    const copse_bsp2 *t = &b->tree;
    const bool same = v->node_count == t->node_count && v->item_count == t->item_count &&
                      v->leaf_count == t->leaf_count && v->object_count == t->object_count && v->depth == t->depth &&
                      v->split_count == t->split_count && bits(v->scene.min.x) == bits(t->scene.min.x) &&
                      bits(v->scene.min.y) == bits(t->scene.min.y) && bits(v->scene.max.x) == bits(t->scene.max.x) &&
                      bits(v->scene.max.y) == bits(t->scene.max.y) &&
                      memcmp(v->nodes, t->nodes, t->node_count * sizeof(copse_bsp2_node)) == 0 &&
                      memcmp(v->items, t->items, t->item_count * 4u) == 0 &&
                      memcmp(v->objects, t->objects, t->object_count * sizeof(copse_box2)) == 0;
    CHECKF(same, "%s: viewed tree differs", what);
    CHECKF((const uint8_t *)v->nodes > b->blob && (const uint8_t *)v->nodes < b->blob + b->size &&
               (t->object_count == 0 || (const uint8_t *)v->objects < b->blob + b->size),
           "%s: the view does not point into the blob", what);
    CHECK_STATUS(copse_bsp2_check(v), COPSE_OK);
    CHECKF(answers2(t, 7, 40) == answers2(v, 7, 40), "%s: answers differ", what);
}

static void test_bsp2_seed(void)
{
    copse_box2 scene, boxes[4];
    bsp2_blob b;
    copse_bsp2 v;
    pool_reset();
    bsp2_seed_scene(&scene, boxes);
    if (!build2(&b, &scene, boxes, 4, 3))
        return;
    memset(boxes, 0, sizeof boxes); /* the view needs nothing but the blob */
    CHECK_STATUS(copse_bsp2_view(&v, b.blob, b.size), COPSE_OK);
    bsp2_check_seed_tree(&v);
    CHECK_EQ_INT(b.size, 384); /* 96 + 3 x 16, nodes 11 x 12 (+ 12 padding), items 6 x 4 (+ 8), boxes 4 x 16 */
}

static void test_bsp2_round_trip(void)
{
    const bool small = test_memory_bytes() < (256u << 10); /* the micro:bit */
    const uint32_t sizes[5] = {0, 1, 2, 3, small ? 12u : 150u};
    static const uint32_t depths[3] = {1, 2, 13};
    unsigned kind, i, d;
    for (kind = 0; kind < BSP2_MAP_KINDS; kind++)
        for (i = 0; i < 5u; i++)
            for (d = 0; d < 3u; d++) {
                copse_box2 scene;
                const copse_box2 *boxes;
                bsp2_blob b;
                copse_bsp2 v;
                test_rng rng;
                const uint64_t seed = 9000u + 100u * kind + 10u * i + d;
                pool_reset();
                test_rng_seed(&rng, seed);
                tk_context("bsp2 %s n=%u depth %u", bsp2_map_name(kind), (unsigned)sizes[i], (unsigned)depths[d]);
                if (!bsp2_make_map(kind, sizes[i], &rng, &scene, &boxes) ||
                    !build2(&b, &scene, boxes, sizes[i], depths[d]))
                    return;
                CHECK_STATUS(copse_bsp2_view(&v, b.blob, b.size), COPSE_OK);
                compare2(&b, &v, tk_ctx());
                bsp2_judge_tree(&v, kind, depths[d], seed, small ? 30u : 150u);
                CHECK_STATUS(copse_bsp2_view(&v, b.blob, b.size + 8u), COPSE_OK); /* len past the blob */
            }
}

/* ---- the 3D tree ---------------------------------------------------------------------------- */

typedef struct bsp3_blob {
    copse_bsp3 tree;
    uint8_t *blob;
    size_t size;
} bsp3_blob;

static bool build3(bsp3_blob *b, const copse_brush *brushes, uint32_t n, const copse_bsp3_params *p)
{
    if (!bsp3_build_exact(&b->tree, brushes, n, p))
        return false;
    b->size = copse_bsp3_save_bytes(&b->tree);
    return (b->blob = save_blob(&b->tree, save3_fn, b->size)) != NULL;
}

static uint32_t hash_trace(uint32_t h, copse_status st, const copse_bsp3_trace *tr)
{
    h = mix(mix(mix(mix(h, (uint32_t)st), tr->hit), tr->start_solid), bits(tr->t));
    h = mix(mix(mix(h, bits(tr->point.x)), bits(tr->point.y)), bits(tr->point.z));
    h = mix(mix(mix(h, bits(tr->normal.x)), bits(tr->normal.y)), bits(tr->normal.z));
    return mix(h, tr->id);
}

static uint32_t answers3(const copse_bsp3 *t, const bsp3_battery *bt, uint64_t seed, unsigned queries)
{
    uint32_t h = 2166136261u;
    char text[512];
    size_t len = 0;
    test_rng rng;
    unsigned q, k;
    test_rng_seed(&rng, seed);
    h = mix(h, (uint32_t)copse_bsp3_dump(t, COPSE_BSP_PREORDER, text, sizeof text, &len));
    h = mix(mix(h, dump_hash(text)), (uint32_t)len);
    h = mix(h, (uint32_t)copse_bsp3_dump(t, COPSE_BSP_LEVELORDER, text, sizeof text, &len));
    h = mix(mix(h, dump_hash(text)), (uint32_t)len);
    for (q = 0; q < queries; q++) {
        float a[3], b[3];
        copse_segment3 s;
        copse_bsp3_where w;
        copse_bsp3_trace tr;
        copse_box3 box;
        uint32_t hit_id = COPSE_NONE;
        copse_status st;
        for (k = 0; k < 3u; k++) {
            a[k] = coord(&rng, bt->lo[k], bt->hi[k]);
            b[k] = coord(&rng, bt->lo[k], bt->hi[k]);
        }
        s.a = copse_v3(a[0], a[1], a[2]);
        s.b = copse_v3(b[0], b[1], b[2]);
        box = copse_box3_make(a[0] < b[0] ? a[0] : b[0], a[1] < b[1] ? a[1] : b[1], a[2] < b[2] ? a[2] : b[2],
                              a[0] < b[0] ? b[0] : a[0], a[1] < b[1] ? b[1] : a[1], a[2] < b[2] ? b[2] : a[2]);
        h = mix(h, (uint32_t)copse_bsp3_contents(t, s.a, &w));
        h = mix(mix(h, w.solid), w.leaf);
        st = copse_sweep_point_bsp3(&s, t, &tr);
        h = hash_trace(h, st, &tr);
        st = copse_sweep_sphere_bsp3(&s, bt->radius * test_rng_float(&rng, 0.0f, 1.0f), t, &tr);
        h = hash_trace(h, st, &tr);
        h = mix(mix(h, (uint32_t)copse_bsp3_any_box(t, &box, &hit_id)), hit_id);
    }
    return h;
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

static void compare3(const bsp3_blob *b, const copse_bsp3 *v, const bsp3_battery *bt, const char *what)
{
    const copse_bsp3 *t = &b->tree;
    const bool same =
        v->node_count == t->node_count && v->plane_count == t->plane_count && v->side_count == t->side_count &&
        v->brush_count == t->brush_count && v->leaf_count == t->leaf_count &&
        v->leaf_brush_count == t->leaf_brush_count && v->root == t->root && v->depth == t->depth &&
        v->split_count == t->split_count && v->solid_leaves == t->solid_leaves &&
        v->mixed_leaves == t->mixed_leaves && v->empty_leaves == t->empty_leaves &&
        bits(v->inflate) == bits(t->inflate) && bits(v->slack) == bits(t->slack) &&
        same_bytes(&v->bounds, &t->bounds, sizeof t->bounds) &&
        same_bytes(v->nodes, t->nodes, t->node_count * sizeof(copse_bsp3_node)) &&
        same_bytes(v->planes, t->planes, t->plane_count * sizeof(copse_plane)) &&
        same_bytes(v->sides, t->sides, t->side_count * 4u) &&
        same_bytes(v->brushes, t->brushes, t->brush_count * sizeof(copse_bsp3_brush)) &&
        same_bytes(v->leaves, t->leaves, t->leaf_count * sizeof(copse_bsp3_leaf)) &&
        same_bytes(v->leaf_brushes, t->leaf_brushes, t->leaf_brush_count * 4u);
    CHECKF(same, "%s: viewed tree differs", what);
    CHECK_STATUS(copse_bsp3_check(v), COPSE_OK);
    CHECKF(answers3(t, bt, 8, 40) == answers3(v, bt, 8, 40), "%s: answers differ", what);
}

void bsp3_blob_round_trip(const copse_bsp3 *t, const bsp3_battery *bt, const char *what)
{
    bsp3_blob b;
    copse_bsp3 v;
    b.tree = *t;
    b.size = copse_bsp3_save_bytes(t);
    b.blob = save_blob(t, save3_fn, b.size);
    if (b.blob == NULL)
        return;
    CHECK_STATUS(copse_bsp3_view(&v, b.blob, b.size), COPSE_OK);
    compare3(&b, &v, bt, what);
    copse_port_printf("info blob %s: %lu bytes for a tree of %lu\n", what, (unsigned long)b.size,
                      (unsigned long)copse_bsp3_bytes(t));
}

static void test_bsp3_round_trip(void)
{
    const bool small = test_memory_bytes() < (256u << 10);
    const uint32_t sizes[5] = {0, 1, 2, 5, small ? 5u : 40u};
    unsigned kind, i, d;
    for (kind = 0; kind < BSP3_SET_KINDS; kind++)
        for (i = 0; i < 5u; i++)
            for (d = 0; d < 2u; d++) {
                copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
                const copse_brush *brushes;
                bsp3_battery bt;
                bsp3_blob b;
                copse_bsp3 v;
                test_rng rng;
                pool_reset();
                p.max_depth = d == 0 ? COPSE_BSP_MAX_DEPTH : 3u; /* shallow: mixed leaves */
                test_rng_seed(&rng, 7000u + 100u * kind + 10u * i + d);
                tk_context("bsp3 kind %u n=%u depth %u", kind, (unsigned)sizes[i], (unsigned)p.max_depth);
                if (!bsp3_make_set(kind, sizes[i], &rng, &brushes, &bt) || !build3(&b, brushes, sizes[i], &p))
                    return;
                CHECK_STATUS(copse_bsp3_view(&v, b.blob, b.size), COPSE_OK);
                compare3(&b, &v, &bt, tk_ctx());
                bsp3_run_oracle(&v, brushes, sizes[i], &bt, &rng, small ? 30u : 300u);
                CHECK_STATUS(copse_bsp3_view(&v, b.blob, b.size + 8u), COPSE_OK);
            }
}

/* The small blobs of the hostile, status and guard tests: the reference map and two boxes (the
 * hand-derived trees of tests/test_bsp2.c and test_bsp3.c). */
typedef struct fixtures {
    copse_box2 scene, boxes[4];
    copse_plane planes[2][6];
    copse_brush brushes[2];
    bsp2_blob b2;
    bsp3_blob b3;
} fixtures;

static bool make_fixtures(fixtures *f)
{
    static const copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    pool_reset();
    bsp2_seed_scene(&f->scene, f->boxes);
    bsp3_two_boxes(f->planes, f->brushes);
    return build2(&f->b2, &f->scene, f->boxes, 4, 3) && build3(&f->b3, f->brushes, 2, &p) &&
           CHECK_EQ_INT(f->b3.tree.node_count, 12) && CHECK_EQ_INT(f->b3.tree.depth, 7);
}

/* ---- hostile blobs -------------------------------------------------------------------------- */

typedef struct victim2 {
    copse_bsp2 view;
} victim2;

static copse_status view2(void *ctx, const uint8_t *blob, size_t len, bool *empty)
{
    victim2 *v = (victim2 *)ctx;
    copse_status st = copse_bsp2_view(&v->view, blob, len);
    *empty = v->view.node_count == 0 && v->view.nodes == NULL && v->view.objects == NULL;
    return st;
}

static void poke2(void *ctx)
{
    (void)answers2(&((victim2 *)ctx)->view, 3, 4);
}

typedef struct victim3 {
    copse_bsp3 view;
    bsp3_battery bt;
} victim3;

static copse_status view3(void *ctx, const uint8_t *blob, size_t len, bool *empty)
{
    victim3 *v = (victim3 *)ctx;
    copse_status st = copse_bsp3_view(&v->view, blob, len);
    *empty = v->view.node_count == 0 && v->view.leaf_count == 0 && v->view.nodes == NULL &&
             v->view.root == COPSE_BSP3_EMPTY;
    return st;
}

static void poke3(void *ctx)
{
    victim3 *v = (victim3 *)ctx;
    (void)answers3(&v->view, &v->bt, 3, 4);
    (void)copse_bsp3_check(&v->view);
}

static void attack(copse_status (*view)(void *, const uint8_t *, size_t, bool *), void (*poke)(void *), void *ctx,
                   const uint8_t *blob, size_t size, const char *name)
{
    blob_victim v;
    v.view = view;
    v.poke = poke;
    v.ctx = ctx;
    v.work = (uint8_t *)pool_alloc(size);
    if (v.work != NULL)
        blob_hostile(&v, blob, size, name);
}

static void test_hostile(void)
{
    fixtures f;
    victim2 v2;
    victim3 v3;
    unsigned k;
    if (!make_fixtures(&f))
        return;
    attack(view2, poke2, &v2, f.b2.blob, f.b2.size, "bsp2 seed map");
    for (k = 0; k < 3u; k++) {
        v3.bt.lo[k] = -1.0f;
        v3.bt.hi[k] = 3.0f;
    }
    v3.bt.radius = 0.5f;
    attack(view3, poke3, &v3, f.b3.blob, f.b3.size, "bsp3 two boxes");
}

/* ---- each way to be wrong ------------------------------------------------------------------- */

/* A u32 set to `value` at `at` in section `section` (0: the header), the CRC then fixed up. */
typedef struct blob_case {
    uint8_t section;
    uint16_t at;
    uint32_t value;
    copse_status want;
} blob_case;

typedef copse_status (*view_fn)(void *tree, const uint8_t *blob, size_t len);

static copse_status view2_fn(void *tree, const uint8_t *blob, size_t len)
{
    return copse_bsp2_view((copse_bsp2 *)tree, blob, len);
}

static copse_status view3_fn(void *tree, const uint8_t *blob, size_t len)
{
    return copse_bsp3_view((copse_bsp3 *)tree, blob, len);
}

static void run_cases(const char *what, const uint8_t *blob, size_t size, const blob_case *cases, unsigned count,
                      view_fn view, void *tree)
{
    copse_blob_info info;
    uint8_t *b = (uint8_t *)pool_alloc(size);
    unsigned c;
    if (b == NULL)
        return;
    CHECK_STATUS(copse_blob_read(blob, size, &info), COPSE_OK);
    CHECK_STATUS(view(tree, blob, size), COPSE_OK);
    for (c = 0; c < count; c++) {
        const uint32_t at = (cases[c].section > 0 ? info.sections[cases[c].section - 1u].offset : 0u) + cases[c].at;
        copse_status st;
        if (cases[c].want == COPSE_ERR_TOO_DEEP && COPSE_BSP_MAX_DEPTH >= cases[c].value)
            continue;
        memcpy(b, blob, size);
        blob_put_word(b, at, cases[c].value);
        blob_reseal(b, size);
        st = view(tree, b, size);
        CHECKF(st == cases[c].want, "%s case %u (section %u + %u = %08x): %s, expected %s", what, c,
               (unsigned)cases[c].section, (unsigned)cases[c].at, (unsigned)cases[c].value, copse_status_str(st),
               copse_status_str(cases[c].want));
    }
}

static void test_specific_statuses(void)
{
    /* the reference tree: nodes Y16 Y9 Y4 E S0,1 X22 S0 S3 X19 S2 S3 (12 bytes each); items 0 1 0 3 2 3 */
    static const blob_case cases2[] = {
        {0, 4, 0x00050001u, COPSE_ERR_BLOB_KIND},      /* version 1, kind 5 */
        {0, 20, 1u, COPSE_ERR_BLOB_HEADER},            /* flags */
        {0, 56, 1u, COPSE_ERR_BLOB_HEADER},            /* reserved tree info */
        {0, 32, 9u, COPSE_ERR_BLOB_HEADER},            /* nodes != 2 leaves - 1 */
        {0, 44, COPSE_BSP_MAX_OBJECTS + 1u, COPSE_ERR_BLOB_HEADER},
        {0, 48, 99u, COPSE_ERR_TOO_DEEP},              /* depth */
        {0, 36, 5u, COPSE_ERR_BLOB_SECTION},           /* items: the section is 6 x 4 */
        {0, 44, 5u, COPSE_ERR_BLOB_SECTION},           /* objects: the section is 4 x 16 */
        {0, 48, 2u, COPSE_ERR_BLOB_DEPTH},
        {0, 72, 0x3F800000u, COPSE_ERR_BLOB_BOUNDS},   /* min z = 1 */
        {0, 64, 0x7F800000u, COPSE_ERR_BLOB_BOUNDS},   /* min x = inf */
        {0, 76, 0x3F800000u, COPSE_ERR_BLOB_BOUNDS},   /* max x = 1 = min x */
        {1, 0, 0x7FC00000u, COPSE_ERR_BLOB_BOUNDS},    /* root split NaN */
        {1, 0, 0x42100000u, COPSE_ERR_BLOB_BOUNDS},    /* root split 36: outside the scene */
        {1, 0, 0x42040000u, COPSE_ERR_BLOB_BOUNDS},    /* root split 33: on the scene's edge */
        {1, 4, 7u, COPSE_ERR_BLOB_NODE},               /* root's high child */
        {1, 4, 1u, COPSE_ERR_BLOB_NODE},               /* ... pointing at its low child: a node twice */
        {1, 4, 0u, COPSE_ERR_BLOB_NODE},               /* ... at itself: a cycle */
        {1, 4, 0xFFFFFFFFu, COPSE_ERR_BLOB_NODE},
        {1, 8, 3u, COPSE_ERR_BLOB_NODE},               /* kind 3 */
        {1, 8, 5u, COPSE_ERR_BLOB_NODE},               /* an internal node with a count */
        {1, 8, 2u, COPSE_ERR_BLOB_NODE},               /* the root a leaf: its split is not 0 */
        {1, 36, 0x3F800000u, COPSE_ERR_BLOB_NODE},     /* leaf 3's split */
        {1, 52, 1u, COPSE_ERR_BLOB_NODE},              /* leaf 4's first item */
        {1, 44, 2u | (1u << 2), COPSE_ERR_BLOB_NODE},  /* leaf 3 lists 1: leaf 4 starts too early */
        {1, 128, 2u | (9u << 2), COPSE_ERR_BLOB_NODE}, /* leaf 10 lists past the items */
        {2, 0, 1u, COPSE_ERR_BLOB_PRIM},               /* leaf 4: 1, 1 */
        {2, 4, 0u, COPSE_ERR_BLOB_PRIM},               /* leaf 4: 0, 0 */
        {2, 0, 4u, COPSE_ERR_BLOB_PRIM},               /* object 4 of 4 */
        {3, 0, 0x41800000u, COPSE_ERR_BLOB_BOUNDS},    /* box 0: min x 16 > max x 10 */
        {3, 16, 0xFF800000u, COPSE_ERR_BLOB_BOUNDS},   /* box 1: min x -inf */
        {3, 20, 0x41100000u, COPSE_ERR_BLOB_BOUNDS},   /* box 1: min y 9 = max y: no area */
    };
    /* the two boxes: nodes P1 P0 P2 P3 P4 P5 P2 .. P7 (back first), leaves S0 S1 */
    static const blob_case cases3[] = {
        {0, 20, 1u, COPSE_ERR_BLOB_HEADER},
        {0, 44, 10u, COPSE_ERR_BLOB_HEADER},            /* 10 brushes over 12 sides */
        {0, 36, 13u, COPSE_ERR_BLOB_HEADER},            /* more planes than sides */
        {0, 48, 14u, COPSE_ERR_BLOB_HEADER},            /* more leaves than nodes + 1 */
        {0, 56, 99u, COPSE_ERR_TOO_DEEP},
        {0, 32, 11u, COPSE_ERR_BLOB_SECTION},
        {0, 40, 13u, COPSE_ERR_BLOB_SECTION},
        {0, 52, 3u, COPSE_ERR_BLOB_SECTION},
        {0, 56, 6u, COPSE_ERR_BLOB_DEPTH},
        {0, 64, 0x7FC00000u, COPSE_ERR_BLOB_BOUNDS},    /* min x NaN */
        {0, 76, 0xBF800000u, COPSE_ERR_BLOB_BOUNDS},    /* max x -1 < min x */
        {1, 0, 8u, COPSE_ERR_BLOB_NODE},                /* node 0's plane */
        {1, 8, 2u, COPSE_ERR_BLOB_NODE},                /* node 0's back child */
        {1, 8, 0u, COPSE_ERR_BLOB_NODE},                /* ... itself */
        {1, 16, 0x80000005u, COPSE_ERR_BLOB_NODE},      /* node 1's front: a leaf out of order */
        {1, 16, 12u, COPSE_ERR_BLOB_NODE},              /* ... a node past the end */
        {1, 68, 0x80000001u, COPSE_ERR_BLOB_NODE},      /* node 5's back: leaf 1 before leaf 0 */
        {1, 68, 0xFFFFFFFFu, COPSE_ERR_BLOB_NODE},      /* ... empty: leaf 0 never reached */
        {2, 0, 0x7F800000u, COPSE_ERR_BLOB_BOUNDS},     /* plane 0's normal x */
        {2, 12, 0xFFC00000u, COPSE_ERR_BLOB_BOUNDS},    /* plane 0's dist */
        {3, 0, 8u, COPSE_ERR_BLOB_PRIM},                /* a side's plane */
        {4, 8, 7u, COPSE_ERR_BLOB_PRIM},                /* brush 1 starts at side 7 */
        {4, 4, 6u | (7u << 16), COPSE_ERR_BLOB_PRIM},   /* 7 input sides of 6 */
        {4, 4, 9u | (3u << 16), COPSE_ERR_BLOB_PRIM},   /* 3 input sides */
        {4, 4, 12u | (5u << 16), COPSE_ERR_BLOB_PRIM},  /* 7 bevels */
        {4, 4, 7u | (6u << 16), COPSE_ERR_BLOB_PRIM},   /* the sides do not tile */
        {5, 0, 1u, COPSE_ERR_BLOB_NODE},                /* leaf 0's first brush */
        {5, 4, 0u, COPSE_ERR_BLOB_NODE},                /* leaf 0 lists none */
        {5, 12, 2u, COPSE_ERR_BLOB_NODE},               /* leaf 1 lists past the end */
        {6, 0, 2u, COPSE_ERR_BLOB_PRIM},                /* brush 2 of 2 */
        {7, 0, 0x3F000000u, COPSE_ERR_BLOB_HEADER},     /* inflate 0.5 */
        {7, 4, 0xBF800000u, COPSE_ERR_BLOB_HEADER},     /* slack -1 */
        {7, 4, 0x7F800000u, COPSE_ERR_BLOB_HEADER},     /* slack inf */
    };
    fixtures f;
    copse_bsp2 v2;
    copse_bsp3 v3;
    if (!make_fixtures(&f))
        return;
    run_cases("bsp2", f.b2.blob, f.b2.size, cases2, sizeof cases2 / sizeof cases2[0], view2_fn, &v2);
    run_cases("bsp3", f.b3.blob, f.b3.size, cases3, sizeof cases3 / sizeof cases3[0], view3_fn, &v3);
    /* one kind's blob is not the other's */
    CHECK_STATUS(copse_bsp3_view(&v3, f.b2.blob, f.b2.size), COPSE_ERR_BLOB_KIND);
    CHECK_STATUS(copse_bsp2_view(&v2, f.b3.blob, f.b3.size), COPSE_ERR_BLOB_KIND);
    CHECK(v2.node_count == 0 && v2.nodes == NULL && v3.node_count == 0 && v3.root == COPSE_BSP3_EMPTY);
}

/* ---- saving ----------------------------------------------------------------------------------- */

/* Every capacity from 0 to the size, with a guard after it: NOMEM and nothing written when
 * short, the same bytes when not (`blob`, the first save, is in the host's order: the last
 * save converted must equal it). */
static void save_guard(const char *what, const void *tree, save_fn save, const uint8_t *blob, size_t size)
{
    uint8_t *buf = (uint8_t *)pool_alloc(size + 32u);
    size_t cap, i, written;
    bool intact;
    if (buf == NULL)
        return;
    for (cap = 0; cap <= size; cap++) {
        memset(buf, 0xA5, size + 32u);
        written = 0;
        CHECK_STATUS(save(tree, buf, cap, &written), cap < size ? COPSE_ERR_NOMEM : COPSE_OK);
        CHECK_EQ_INT(written, size);
        intact = true;
        for (i = cap < size ? 0 : size; i < size + 32u; i++)
            intact = intact && buf[i] == 0xA5;
        CHECKF(intact, "%s: cap %lu: bytes written outside the blob or when short", what, (unsigned long)cap);
    }
    CHECK_STATUS(blob_to_host_in_place(buf, size), COPSE_OK);
    CHECKF(memcmp(buf, blob, size) == 0, "%s: saved twice, different bytes", what);
}

static void test_save_guard(void)
{
    fixtures f;
    if (!make_fixtures(&f))
        return;
    save_guard("bsp2", &f.b2.tree, save2_fn, f.b2.blob, f.b2.size);
    save_guard("bsp3", &f.b3.tree, save3_fn, f.b3.blob, f.b3.size);
}

/* An empty 3D tree (no brushes) saves and views; a tree that was never built does not save. */
static void test_empty_and_unbuilt(void)
{
    static const copse_bsp3_params p = COPSE_BSP3_PARAMS_DEFAULT;
    bsp3_blob b;
    copse_bsp3 v, zero3;
    copse_bsp2 zero2;
    uint8_t buf[16];
    size_t written = 7;
    bsp3_battery bt;
    unsigned k;
    pool_reset();
    if (!build3(&b, NULL, 0, &p))
        return;
    CHECK_STATUS(copse_bsp3_view(&v, b.blob, b.size), COPSE_OK);
    for (k = 0; k < 3u; k++) {
        bt.lo[k] = -1.0f;
        bt.hi[k] = 1.0f;
    }
    bt.radius = 1.0f;
    compare3(&b, &v, &bt, "bsp3 empty");
    CHECK(v.root == COPSE_BSP3_EMPTY && v.node_count == 0 && v.leaf_count == 0 && v.empty_leaves == 1);
    memset(&zero2, 0, sizeof zero2);
    memset(&zero3, 0, sizeof zero3);
    CHECK_EQ_INT(copse_bsp2_save_bytes(&zero2), 0);
    CHECK_EQ_INT(copse_bsp3_save_bytes(&zero3), 0);
    CHECK_STATUS(copse_bsp2_save(&zero2, buf, sizeof buf, &written), COPSE_ERR_PARAM);
    CHECK_EQ_INT(written, 0);
    CHECK_STATUS(copse_bsp3_save(&zero3, buf, sizeof buf, &written), COPSE_ERR_PARAM);
    CHECK_EQ_INT(written, 0);
    /* a tree whose root disagrees with its counts (one leaf, but the root empty) */
    if (!build3(&b, NULL, 0, &p))
        return;
    {
        static const copse_bsp3_leaf leaf = {0, 1};
        static const uint32_t ref = 0;
        copse_plane planes[6];
        copse_brush brush;
        copse_box3 box = copse_box3_make(0, 0, 0, 1, 1, 1);
        bsp3_blob one;
        CHECK_STATUS(copse_brush_from_box(&box, planes), COPSE_OK);
        brush.planes = planes;
        brush.plane_count = 6;
        if (!build3(&one, &brush, 1, &p))
            return;
        zero3 = one.tree;
        zero3.node_count = 0;
        zero3.leaves = &leaf;
        zero3.leaf_count = 1;
        zero3.leaf_brushes = &ref;
        zero3.leaf_brush_count = 1;
        zero3.depth = 0;
        zero3.root = COPSE_BSP3_EMPTY;
        CHECK_STATUS(copse_bsp3_check(&zero3), COPSE_OK);
        CHECK_STATUS(copse_bsp3_save(&zero3, buf, 0, &written), COPSE_ERR_BLOB_NODE);
        zero3.root = COPSE_BSP3_LEAF;
        CHECK_STATUS(copse_bsp3_save(&zero3, NULL, 0, &written), COPSE_ERR_NOMEM); /* a tree of one solid leaf */
    }
}

static void test_bad_args(void)
{
    fixtures f;
    const bsp2_blob *b2 = &f.b2;
    const bsp3_blob *b3 = &f.b3;
    copse_bsp2 v2;
    copse_bsp3 v3;
    size_t written = 7;
    uint8_t *shifted;
    if (!make_fixtures(&f) || (shifted = (uint8_t *)pool_alloc(f.b3.size + 4u)) == NULL)
        return;
    CHECK_EQ_INT(copse_bsp2_save_bytes(NULL), 0);
    CHECK_EQ_INT(copse_bsp3_save_bytes(NULL), 0);
    CHECK_STATUS(copse_bsp2_save(NULL, shifted, b2->size, &written), COPSE_ERR_NULL);
    CHECK_EQ_INT(written, 0);
    CHECK_STATUS(copse_bsp3_save(NULL, shifted, b3->size, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_save(&b2->tree, NULL, 8, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_save(&b3->tree, NULL, 8, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_save(&b2->tree, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(written, b2->size);
    CHECK_STATUS(copse_bsp3_save(&b3->tree, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(written, b3->size);
    CHECK_STATUS(copse_bsp2_save(&b2->tree, shifted, b2->size, NULL), COPSE_OK);
    CHECK_STATUS(copse_bsp3_save(&b3->tree, shifted, b3->size, NULL), COPSE_OK);

    CHECK_STATUS(copse_bsp2_view(NULL, b2->blob, b2->size), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_view(NULL, b3->blob, b3->size), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_view(&v2, NULL, b2->size), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp3_view(&v3, NULL, b3->size), COPSE_ERR_NULL);
    memcpy(shifted + 2, b2->blob, b2->size);
    CHECK_STATUS(copse_bsp2_view(&v2, shifted + 2, b2->size), COPSE_ERR_ALIGN);
    memcpy(shifted + 1, b3->blob, b3->size);
    CHECK_STATUS(copse_bsp3_view(&v3, shifted + 1, b3->size), COPSE_ERR_ALIGN);
    CHECK(v2.node_count == 0 && v3.node_count == 0 && v3.nodes == NULL);
    {
        copse_blob_info info;
        CHECK_STATUS(copse_blob_read(b2->blob, b2->size, &info), COPSE_OK);
        CHECK(info.kind == COPSE_BLOB_BSP2 && info.section_count == 3u && info.sections[0].offset == 144u);
        CHECK_STATUS(copse_blob_read(b3->blob, b3->size, &info), COPSE_OK);
        CHECK(info.kind == COPSE_BLOB_BSP3 && info.section_count == 7u && info.sections[0].offset == 208u &&
              info.sections[6].size == 8u && info.total_bytes == b3->size);
    }
}

void suite_blob_bsp(void)
{
    test_run("blob_bsp/bsp2_seed", test_bsp2_seed);
    test_run("blob_bsp/bsp2_round_trip", test_bsp2_round_trip);
    test_run("blob_bsp/bsp3_round_trip", test_bsp3_round_trip);
    test_run("blob_bsp/hostile", test_hostile);
    test_run("blob_bsp/specific_statuses", test_specific_statuses);
    test_run("blob_bsp/save_guard", test_save_guard);
    test_run("blob_bsp/empty_and_unbuilt", test_empty_and_unbuilt);
    test_run("blob_bsp/bad_args", test_bad_args);
}

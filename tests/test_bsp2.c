/* SPDX-License-Identifier: MIT */
/*
 * The 2D axis-aligned BSP tree: the reference example with its tree derived by hand,
 * every query against brute force over the boxes on random scenes (fixed seeds, sizes 0, 1,
 * 2 and up, touching and coincident boxes, integer grids where float is exact, huge
 * coordinates), the leaves' contents against the regions they cover, exact sizes with a
 * guard after the buffer at every byte count, and bad input.
 */
#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test_bsp.h"

#define pool_reset bsp_pool_reset
#define pool_alloc bsp_pool_alloc

/* Builds into a pool buffer of exactly copse_bsp2_build_bytes() and checks the accounting. */
bool bsp2_build_exact(copse_bsp2 *t, const copse_box2 *scene, const copse_box2 *objects, uint32_t n,
                      uint32_t max_depth)
{
    copse_bsp2_params p;
    copse_arena arena;
    size_t exact;
    void *buf;
    p.max_depth = max_depth;
    exact = copse_bsp2_build_bytes(scene, objects, n, &p);
    if (!CHECKF(exact != (size_t)-1, "build_bytes refused n=%u", (unsigned)n))
        return false;
    buf = pool_alloc(exact);
    if (buf == NULL)
        return false;
    copse_arena_init(&arena, buf, exact);
    CHECK_STATUS(copse_bsp2_build(t, &arena, scene, objects, n, &p), COPSE_OK);
    CHECK_EQ_INT(arena.used, exact);
    CHECK_EQ_INT(copse_bsp2_bytes(t), exact);
    CHECK_STATUS(copse_bsp2_check(t), COPSE_OK);
    CHECK(exact <= COPSE_BSP2_BYTES(n, max_depth) || max_depth > 20u);
    return t->node_count > 0;
}

/* ---- the reference example -------------------------------------------------------------------------- */

/*
 * Scene 1..33 x 1..33; boxes as (x0, x1, y0, y1): 0 = (4,10,4,16), 1 = (10,24,4,9),
 * 2 = (7,19,23,27), 3 = (22,28,13,24); max depth 3. Derivation, by the rules of
 * src/bsp/bsp2_build.c (per axis the edge nearest the centre; a line that cuts no piece wins;
 * else the relatively nearer one):
 *
 * root [1,33]x[1,33], centre (17,17), half extents (16,16). x edges inside: 4,7,10,19,22,24,28
 *   -> nearest 17 is 19 (d 2); y edges: 4,9,13,16,23,24,27 -> 16 (d 1). x=19 cuts box 1
 *   (10<19<24); y=16 cuts box 3 (13<16<24). Both cut: 1/16 < 2/16 -> Y16.
 * low  [1,33]x[1,16], centre (17,8.5), half (16,7.5). Pieces 0 [4,10]x[4,16], 1 [10,24]x[4,9],
 *   3 [22,28]x[13,16]. x: 4,10,22,24,28 -> 22 (d 5); y: 4,9,13 (16 is the border) -> 9 (d 0.5).
 *   x=22 cuts 1, y=9 cuts 0: both cut, 0.5/7.5 < 5/16 -> Y9.
 *   low [1,33]x[1,9], centre (17,5), half (16,4): pieces 0 [4,10]x[4,9], 1 [10,24]x[4,9].
 *     x: 4,10,24 -> 10 and 24 tie at d 7, the lower wins: 10; y: 4 -> d 1. Neither cuts
 *     (10 is an edge of both): 1/4 < 7/16 -> Y4.
 *     low  [1,33]x[1,4]: no piece (boxes touching y=4 from above are not in it) -> E.
 *     high [1,33]x[4,9]: depth 3 = max -> S0,1.
 *   high [1,33]x[9,16], centre (17,12.5), half (16,3.5): pieces 0 [4,10]x[9,16],
 *     3 [22,28]x[13,16]. x: 4,10,22,28 -> 22 (d 5); y: 13 -> d 0.5. x=22 cuts nothing,
 *     y=13 cuts 0 -> X22. Children at depth 3: [1,22] holds 0 -> S0; [22,33] holds 3 -> S3.
 * high [1,33]x[16,33], centre (17,24.5), half (16,8.5). Pieces 2 [7,19]x[23,27],
 *   3 [22,28]x[16,24] (box 0 only touches y=16). x: 7,19,22,28 -> 19 (d 2); y: 23,24,27 ->
 *   24 (d 0.5). x=19 cuts nothing (19 is box 2's edge), y=24 cuts 2 -> X19.
 *   low [1,19]: only piece 2 -> S2 (one object: a solid leaf at depth 2).
 *   high [19,33]: only piece 3 -> S3.
 * Lines that cut a piece: Y16 cuts box 3 and Y9 cuts box 0: split count 2.
 */
static const char k_seed_pre[] = "Y16\n"
                                 "  Y9\n"
                                 "    Y4\n"
                                 "      E\n"
                                 "      S0,1\n"
                                 "    X22\n"
                                 "      S0\n"
                                 "      S3\n"
                                 "  X19\n"
                                 "    S2\n"
                                 "    S3\n";
static const char k_seed_level[] = "0: Y16\n"
                                   "1: Y9 X19\n"
                                   "2: Y4 X22 S2 S3\n"
                                   "3: E S0,1 S0 S3\n";

void bsp2_seed_scene(copse_box2 *scene, copse_box2 *boxes)
{
    *scene = copse_box2_make(1, 1, 33, 33);
    boxes[0] = copse_box2_make(4, 4, 10, 16);
    boxes[1] = copse_box2_make(10, 4, 24, 9);
    boxes[2] = copse_box2_make(7, 23, 19, 27);
    boxes[3] = copse_box2_make(22, 13, 28, 24);
}

typedef struct visit_log {
    uint32_t ids[16];
    uint32_t count, stop_after;
} visit_log;

static bool log_leaf(void *user, uint32_t leaf)
{
    visit_log *v = (visit_log *)user;
    if (v->count < 16u)
        v->ids[v->count] = leaf;
    return ++v->count != v->stop_after;
}

/* The array form of copse_bsp2_overlap_box_leaves, its list unpacked. */
static copse_status leaves_in_box(const copse_bsp2 *t, const copse_box2 *box, uint32_t *ids, uint32_t capacity,
                                  uint32_t *count, bool *truncated)
{
    copse_id_list list = copse_id_list_make(ids, capacity);
    copse_status st = copse_bsp2_overlap_box_leaves(t, box, &list);
    *count = list.count;
    *truncated = list.truncated;
    return st;
}

static bool log_pair(void *user, uint32_t a, uint32_t b)
{
    visit_log *v = (visit_log *)user;
    if (v->count + 1u < 16u) {
        v->ids[v->count] = a;
        v->ids[v->count + 1u] = b;
    }
    v->count += 2u;
    return true;
}

/* The reference tree's leaves (nodes 3, 4, 6, 7, 9, 10) in the visit orders, the array form's
 * truncation, visitors that stop, the pairs of the broad phase. */
static void seed_walks(const copse_bsp2 *t)
{
    static const uint32_t order[6] = {3, 4, 6, 7, 9, 10};
    copse_box2 all = copse_box2_make(0, 0, 40, 40);
    visit_log v;
    uint32_t ids[8], count = 0, i;
    bool trunc = false;
    const uint32_t *objs;
    memset(&v, 0, sizeof v);
    CHECK_STATUS(copse_bsp2_visit_front_to_back(t, copse_v2(2, 2), log_leaf, &v), COPSE_OK);
    CHECK_EQ_INT(v.count, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(v.ids[i], order[i]);
    memset(&v, 0, sizeof v);
    CHECK_STATUS(copse_bsp2_visit_back_to_front(t, copse_v2(2, 2), log_leaf, &v), COPSE_OK);
    CHECK_EQ_INT(v.count, 6);
    for (i = 0; i < 6; i++)
        CHECK_EQ_INT(v.ids[i], order[5u - i]);
    /* from (30, 30): X19's high side, then its low side, then the low half of the map, where the
     * eye is above Y9 and Y4 and right of X22 */
    memset(&v, 0, sizeof v);
    CHECK_STATUS(copse_bsp2_visit_front_to_back(t, copse_v2(30, 30), log_leaf, &v), COPSE_OK);
    CHECK(v.count == 6 && v.ids[0] == 10 && v.ids[1] == 9 && v.ids[2] == 7 && v.ids[3] == 6 && v.ids[4] == 4 &&
          v.ids[5] == 3);
    memset(&v, 0, sizeof v);
    v.stop_after = 2;
    CHECK_STATUS(copse_bsp2_visit_front_to_back(t, copse_v2(2, 2), log_leaf, &v), COPSE_OK);
    CHECK_EQ_INT(v.count, 2);
    CHECK_STATUS(leaves_in_box(t, &all, ids, 3, &count, &trunc), COPSE_OK);
    CHECK(count == 3 && trunc && ids[0] == 3 && ids[1] == 4 && ids[2] == 6);
    CHECK_STATUS(leaves_in_box(t, &all, ids, 8, &count, &trunc), COPSE_OK);
    CHECK(count == 6 && !trunc);
    memset(&v, 0, sizeof v);
    v.stop_after = 1;
    CHECK_STATUS(copse_bsp2_visit_box_leaves(t, &all, log_leaf, &v), COPSE_OK);
    CHECK_EQ_INT(v.count, 1);
    /* a box over box 2 only: the leaf X19 low (9); one touching the line x = 19 reaches both sides */
    all = copse_box2_make(8, 24, 12, 26);
    CHECK_STATUS(leaves_in_box(t, &all, ids, 8, &count, &trunc), COPSE_OK);
    CHECK(count == 1 && ids[0] == 9);
    all = copse_box2_make(8, 24, 19, 26);
    CHECK_STATUS(leaves_in_box(t, &all, ids, 8, &count, &trunc), COPSE_OK);
    CHECK(count == 2 && ids[0] == 9 && ids[1] == 10);
    {   /* refused: no list, no visitor, or a list with room but no array; the list is left empty */
        copse_id_list bad = copse_id_list_make(NULL, 4);
        bad.count = 7;
        CHECK_STATUS(copse_bsp2_overlap_box_leaves(t, &all, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bsp2_visit_box_leaves(t, &all, NULL, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_bsp2_overlap_box_leaves(t, &all, &bad), COPSE_ERR_NULL);
        CHECK(bad.count == 0 && !bad.truncated);
        CHECK_STATUS(leaves_in_box(NULL, &all, ids, 8, &count, &trunc), COPSE_ERR_NULL);
        CHECK(count == 0);
    }
    /* broad phase: only leaf 4 lists two objects */
    memset(&v, 0, sizeof v);
    CHECK_STATUS(copse_bsp2_visit_pairs(t, log_pair, &v), COPSE_OK);
    CHECK(v.count == 2 && v.ids[0] == 0 && v.ids[1] == 1);
    CHECK_STATUS(copse_bsp2_leaf_objects(t, 4, &objs, &count), COPSE_OK);
    CHECK(count == 2 && objs[0] == 0 && objs[1] == 1);
}

/* Everything derived by hand about the reference tree, on a built or a viewed one. */
void bsp2_check_seed_tree(const copse_bsp2 *t)
{
    char text[256];
    size_t len = 0;
    CHECK_EQ_INT(t->node_count, 11);
    CHECK_EQ_INT(t->leaf_count, 6);
    CHECK_EQ_INT(t->depth, 3);
    CHECK_EQ_INT(t->split_count, 2);
    CHECK_STATUS(copse_bsp2_dump(t, COPSE_BSP_PREORDER, text, sizeof text, &len), COPSE_OK);
    CHECKF(strcmp(text, k_seed_pre) == 0, "pre-order dump:\n%s", text);
    CHECK_EQ_INT(len, strlen(k_seed_pre));
    CHECK_STATUS(copse_bsp2_dump(t, COPSE_BSP_LEVELORDER, text, sizeof text, &len), COPSE_OK);
    CHECKF(strcmp(text, k_seed_level) == 0, "level-order dump:\n%s", text);
    /* truncation: the first cap-1 bytes and the full length */
    CHECK_STATUS(copse_bsp2_dump(t, COPSE_BSP_PREORDER, text, 10, &len), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(len, strlen(k_seed_pre));
    CHECK(strlen(text) == 9 && memcmp(text, k_seed_pre, 9) == 0);
    CHECK_STATUS(copse_bsp2_dump(t, COPSE_BSP_PREORDER, NULL, 0, &len), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(len, strlen(k_seed_pre));
    seed_walks(t);
    {
        copse_bsp2_where w;
        copse_bsp2_trace tr;
        copse_segment2 s;
        /* inside box 2; on the shared edge of boxes 0 and 1; in the empty strip y < 4 */
        CHECK_STATUS(copse_bsp2_locate(t, copse_v2(10, 25), &w), COPSE_OK);
        CHECK(w.solid && w.id == 2 && w.leaf == 9);
        CHECK_STATUS(copse_bsp2_locate(t, copse_v2(10, 6), &w), COPSE_OK);
        CHECK(w.solid && w.id == 0 && w.leaf == 4);
        CHECK_STATUS(copse_bsp2_locate(t, copse_v2(20, 2), &w), COPSE_OK);
        CHECK(!w.solid && w.id == COPSE_NONE && w.leaf == 3);
        /* a point on the line y = 16 over box 0's top edge: solid though its leaf (the high
         * side, X19's low child) lists only box 2 */
        CHECK_STATUS(copse_bsp2_locate(t, copse_v2(5, 16), &w), COPSE_OK);
        CHECK(w.solid && w.id == 0 && w.leaf == 9);
        /* line of sight from (2,12) east: box 0's west side at x = 4 */
        s.a = copse_v2(2, 12);
        s.b = copse_v2(32, 12);
        CHECK_STATUS(copse_sweep_point_bsp2(&s, t, &tr), COPSE_OK);
        CHECK(tr.hit && tr.id == 0 && tr.point.x == 4.0f && tr.point.y == 12.0f && tr.normal.x == -1.0f &&
              tr.normal.y == 0.0f);
        /* from (20,30) down past box 2's corner to box 3's top at y = 24 */
        s.a = copse_v2(25, 30);
        s.b = copse_v2(25, 2);
        CHECK_STATUS(copse_sweep_point_bsp2(&s, t, &tr), COPSE_OK);
        CHECK(tr.hit && tr.id == 3 && tr.point.y == 24.0f && tr.normal.y == 1.0f);
        /* a clear line through the empty middle, ending short of box 3 */
        s.a = copse_v2(2, 20);
        s.b = copse_v2(21, 20);
        CHECK_STATUS(copse_sweep_point_bsp2(&s, t, &tr), COPSE_OK);
        CHECK(!tr.hit && tr.t == 1.0f && tr.id == COPSE_NONE);
    }
}

static void test_seed_example(void)
{
    copse_box2 scene, boxes[4];
    copse_bsp2 t;
    pool_reset();
    bsp2_seed_scene(&scene, boxes);
    if (bsp2_build_exact(&t, &scene, boxes, 4, 3))
        bsp2_check_seed_tree(&t);
}

/* ---- brute force ------------------------------------------------------------------------------- */

typedef struct scene2 {
    copse_box2 scene;
    const copse_box2 *boxes;
    uint32_t n;
} scene2;

static void clipped(const scene2 *s, uint32_t i, double *mn, double *mx)
{
    const copse_box2 *b = &s->boxes[i];
    mn[0] = (double)(b->min.x > s->scene.min.x ? b->min.x : s->scene.min.x);
    mn[1] = (double)(b->min.y > s->scene.min.y ? b->min.y : s->scene.min.y);
    mx[0] = (double)(b->max.x < s->scene.max.x ? b->max.x : s->scene.max.x);
    mx[1] = (double)(b->max.y < s->scene.max.y ? b->max.y : s->scene.max.y);
}

/* Boxes that only touch the scene from outside are not in the tree: their part has no area. */
static bool clipped_nonempty(const double *mn, const double *mx)
{
    return mn[0] < mx[0] && mn[1] < mx[1];
}

static uint32_t brute_point(const scene2 *s, double x, double y)
{
    uint32_t i;
    for (i = 0; i < s->n; i++) {
        double mn[2], mx[2];
        clipped(s, i, mn, mx);
        if (clipped_nonempty(mn, mx) && x >= mn[0] && x <= mx[0] && y >= mn[1] && y <= mx[1])
            return i;
    }
    return COPSE_NONE;
}

static bool brute_box(const scene2 *s, const double *qmn, const double *qmx)
{
    uint32_t i;
    for (i = 0; i < s->n; i++) {
        double mn[2], mx[2];
        clipped(s, i, mn, mx);
        if (clipped_nonempty(mn, mx) && qmn[0] <= mx[0] && qmx[0] >= mn[0] && qmn[1] <= mx[1] && qmx[1] >= mn[1])
            return true;
    }
    return false;
}

/* Squared distance from c to the nearest box; +big when there is none. */
static double brute_circle_d2(const scene2 *s, double cx, double cy)
{
    double best = 1e300;
    uint32_t i;
    for (i = 0; i < s->n; i++) {
        double mn[2], mx[2], dx, dy;
        clipped(s, i, mn, mx);
        if (!clipped_nonempty(mn, mx))
            continue;
        dx = cx < mn[0] ? mn[0] - cx : (cx > mx[0] ? cx - mx[0] : 0.0);
        dy = cy < mn[1] ? mn[1] - cy : (cy > mx[1] ? cy - mx[1] : 0.0);
        if (dx * dx + dy * dy < best)
            best = dx * dx + dy * dy;
    }
    return best;
}

/* First entry t of a -> b into any box (closed) grown by `grow` on every side (negative:
 * shrunk), or 2 for none. Grown and shrunk answers bracket what float may decide. */
static double brute_segment(const scene2 *s, const double *a, const double *b, uint32_t *obj, double grow)
{
    double best = 2.0;
    uint32_t i;
    *obj = COPSE_NONE;
    for (i = 0; i < s->n; i++) {
        double mn[2], mx[2], tn = 0.0, tf = 1.0;
        unsigned k;
        clipped(s, i, mn, mx);
        if (!clipped_nonempty(mn, mx))
            continue;
        for (k = 0; k < 2; k++) {
            mn[k] -= grow;
            mx[k] += grow;
        }
        if (!(mn[0] <= mx[0] && mn[1] <= mx[1]))
            continue;
        for (k = 0; k < 2; k++) {
            double d = b[k] - a[k];
            if (d == 0.0) {
                if (a[k] < mn[k] || a[k] > mx[k])
                    tn = 3.0;
            } else {
                double t0 = ((d > 0 ? mn[k] : mx[k]) - a[k]) / d, t1 = ((d > 0 ? mx[k] : mn[k]) - a[k]) / d;
                tn = t0 > tn ? t0 : tn;
                tf = t1 < tf ? t1 : tf;
            }
        }
        if (tn <= tf && tn < best) {
            best = tn;
            *obj = i;
        }
    }
    return best;
}

/* ---- random scenes --------------------------------------------------------------------------- */

typedef enum scene_kind { SC_GRID, SC_FLOAT, SC_TOUCHING, SC_HUGE, SC_COUNT } scene_kind;
static const char *const k_scene_names[SC_COUNT] = {"grid", "float", "touching", "huge"};

/* n boxes: GRID on integers 0..64 (float is exact), FLOAT anywhere, TOUCHING as tiles of a
 * grid that share edges and repeat (coincident boxes), HUGE near 1e30 with tiny and vast boxes. */
static bool make_scene(scene2 *s, scene_kind kind, uint32_t n, test_rng *rng)
{
    uint32_t i;
    float lo = kind == SC_HUGE ? -3e30f : 0.0f, hi = kind == SC_HUGE ? 3e30f : 64.0f;
    s->n = n;
    copse_box2 *boxes = (copse_box2 *)pool_alloc((n > 0 ? n : 1u) * sizeof(copse_box2));
    s->boxes = boxes;
    if (boxes == NULL)
        return false;
    s->scene = copse_box2_make(lo, lo, hi, hi);
    if (kind == SC_GRID || kind == SC_TOUCHING)
        s->scene = copse_box2_make(0, 0, 64, 64);
    for (i = 0; i < n; i++) {
        float x0, y0, w, h;
        switch (kind) {
        case SC_GRID:
            x0 = (float)test_rng_below(rng, 66) - 2.0f; /* some poke out of the scene */
            y0 = (float)test_rng_below(rng, 66) - 2.0f;
            w = (float)(1u + test_rng_below(rng, 16));
            h = (float)(1u + test_rng_below(rng, 16));
            break;
        case SC_TOUCHING:
            if (i > 0 && test_rng_below(rng, 5) == 0) {
                boxes[i] = boxes[test_rng_below(rng, i)]; /* coincident */
                continue;
            }
            x0 = 8.0f * (float)test_rng_below(rng, 8);
            y0 = 8.0f * (float)test_rng_below(rng, 8);
            w = h = 8.0f;
            break;
        case SC_FLOAT:
            x0 = test_rng_float(rng, -5.0f, 60.0f);
            y0 = test_rng_float(rng, -5.0f, 60.0f);
            w = test_rng_float(rng, 0.01f, 20.0f);
            h = test_rng_float(rng, 0.01f, 20.0f);
            break;
        default: /* SC_HUGE */
            x0 = test_rng_float(rng, -2.5e30f, 2.5e30f);
            y0 = test_rng_float(rng, -2.5e30f, 2.5e30f);
            w = test_rng_below(rng, 2) ? test_rng_float(rng, 1e24f, 1e30f) : 1e29f;
            h = test_rng_float(rng, 1e24f, 1e30f);
            break;
        }
        boxes[i] = copse_box2_make(x0, y0, x0 + w, y0 + h);
    }
    return true;
}

/* The closed region of every leaf (computed here, not by the library) and the objects whose
 * interior meets it: exactly the leaf's list. */
typedef struct leaf_region {
    float mn[2], mx[2];
} leaf_region;

/* Box b as double bounds, and whether its interior meets the region's. */
static bool box_in_region(const copse_box2 *b, const leaf_region *r, double *lo, double *hi)
{
    lo[0] = (double)b->min.x;
    lo[1] = (double)b->min.y;
    hi[0] = (double)b->max.x;
    hi[1] = (double)b->max.y;
    return lo[0] < (double)r->mx[0] && hi[0] > (double)r->mn[0] && lo[1] < (double)r->mx[1] && hi[1] > (double)r->mn[1];
}

/* The original rule, again, in double, from the boxes: the line a region with pieces gets, as
 * axis (0 x, 1 y; 2 none) and coordinate. Exact for the integer scenes it is used on. */
static unsigned seed_rule(const scene2 *s, const leaf_region *r, double *split, uint32_t *pieces)
{
    double best_d[2] = {0, 0}, best_c[2] = {0, 0}, ctr[2], half[2];
    bool have[2] = {false, false}, cuts[2] = {false, false};
    uint32_t i;
    unsigned a, k;
    *pieces = 0;
    for (a = 0; a < 2; a++) {
        ctr[a] = ((double)r->mn[a] + (double)r->mx[a]) / 2.0;
        half[a] = ((double)r->mx[a] - (double)r->mn[a]) / 2.0;
    }
    for (i = 0; i < s->n; i++) {
        double lo[2], hi[2];
        if (!box_in_region(&s->boxes[i], r, lo, hi))
            continue;
        (*pieces)++;
        for (a = 0; a < 2; a++)
            for (k = 0; k < 2; k++) {
                double c = k == 0 ? lo[a] : hi[a], d = c > ctr[a] ? c - ctr[a] : ctr[a] - c;
                if (c > (double)r->mn[a] && c < (double)r->mx[a] &&
                    (!have[a] || d < best_d[a] || (d == best_d[a] && c < best_c[a]))) {
                    have[a] = true;
                    best_d[a] = d;
                    best_c[a] = c;
                }
            }
    }
    for (i = 0; i < s->n; i++) {
        double lo[2], hi[2];
        if (!box_in_region(&s->boxes[i], r, lo, hi))
            continue;
        for (a = 0; a < 2; a++)
            cuts[a] = cuts[a] || (have[a] && lo[a] < best_c[a] && best_c[a] < hi[a]);
    }
    if (*pieces < 2 || (!have[0] && !have[1]))
        return 2;
    a = !have[1] ? 0u : !have[0] ? 1u : cuts[0] != cuts[1] ? (cuts[0] ? 1u : 0u)
                                                          : (best_d[1] / half[1] < best_d[0] / half[0] ? 1u : 0u);
    *split = best_c[a];
    return a;
}

/* Every leaf lists exactly the objects whose interior meets its closed region (computed here,
 * not by the library); leaves hold several objects only at the depth cap or when no line fits;
 * on integer scenes (`rule`) every line is the one the original rule picks. */
static void check_leaves(const copse_bsp2 *t, const scene2 *s, leaf_region *reg, uint32_t max_depth, bool rule)
{
    uint32_t stack[COPSE_BSP_MAX_DEPTH + 2u], depth[COPSE_BSP_MAX_DEPTH + 2u], sp = 0, k, bad = 0, bad_rule = 0;
    reg[0].mn[0] = s->scene.min.x;
    reg[0].mn[1] = s->scene.min.y;
    reg[0].mx[0] = s->scene.max.x;
    reg[0].mx[1] = s->scene.max.y;
    stack[sp] = 0;
    depth[sp++] = 0;
    while (sp > 0) {
        const copse_bsp2_node *n;
        uint32_t d, pieces;
        double split = 0.0;
        unsigned want;
        k = stack[--sp];
        d = depth[sp];
        n = &t->nodes[k];
        want = seed_rule(s, &reg[k], &split, &pieces);
        if ((n->info & 3u) == COPSE_BSP2_LEAF) {
            const uint32_t *objs;
            uint32_t count, i, j = 0;
            CHECK_STATUS(copse_bsp2_leaf_objects(t, k, &objs, &count), COPSE_OK);
            for (i = 0; i < s->n; i++) {
                double lo[2], hi[2];
                if (box_in_region(&s->boxes[i], &reg[k], lo, hi))
                    bad += j >= count || objs[j++] != i;
            }
            bad += j != count;
            /* the original stop rules: a leaf at the cap, or with fewer than two objects, or no line */
            bad_rule += rule && d < max_depth && want != 2u;
            continue;
        }
        bad_rule += d >= max_depth || (rule && (want != (n->info & 3u) || split != (double)n->split));
        reg[k + 1u] = reg[k];
        reg[k + 1u].mx[n->info & 3u] = n->split;
        reg[n->index] = reg[k];
        reg[n->index].mn[n->info & 3u] = n->split;
        CHECK(n->split > reg[k].mn[n->info & 3u] && n->split < reg[k].mx[n->info & 3u]);
        stack[sp] = n->index;
        depth[sp++] = d + 1u;
        stack[sp] = k + 1u;
        depth[sp++] = d + 1u;
    }
    CHECKF(bad == 0, "%u leaves list the wrong objects", (unsigned)bad);
    CHECKF(bad_rule == 0, "%u nodes where the original rule decides otherwise", (unsigned)bad_rule);
}

typedef struct order_ctx {
    uint32_t *order; /* node -> visit position */
    uint32_t next, visits;
} order_ctx;

static bool record_leaf(void *user, uint32_t leaf)
{
    order_ctx *c = (order_ctx *)user;
    c->visits++;
    if (c->order[leaf] != COPSE_NONE)
        c->visits += 1000000u; /* visited twice */
    c->order[leaf] = c->next++;
    return true;
}

/* Front-to-back: at every node, all leaves on the eye's side come before all the others
 * (back-to-front: after). end[k] is the last node of k's subtree. */
static void check_order(const copse_bsp2 *t, copse_vec2 eye, bool front, uint32_t *order, uint32_t *end)
{
    order_ctx c;
    uint32_t k, bad = 0;
    const float p[2] = {eye.x, eye.y};
    for (k = 0; k < t->node_count; k++)
        order[k] = COPSE_NONE;
    c.order = order;
    c.next = c.visits = 0;
    if (front)
        CHECK_STATUS(copse_bsp2_visit_front_to_back(t, eye, record_leaf, &c), COPSE_OK);
    else
        CHECK_STATUS(copse_bsp2_visit_back_to_front(t, eye, record_leaf, &c), COPSE_OK);
    CHECK_EQ_INT(c.visits, t->leaf_count);
    for (k = t->node_count; k-- > 0;) {
        const copse_bsp2_node *n = &t->nodes[k];
        end[k] = (n->info & 3u) == COPSE_BSP2_LEAF ? k : end[n->index];
    }
    for (k = 0; k < t->node_count; k++) {
        const copse_bsp2_node *n = &t->nodes[k];
        uint32_t lo_max = 0, hi_min = COPSE_NONE, lo_min = COPSE_NONE, hi_max = 0, j;
        bool eye_low;
        if ((n->info & 3u) == COPSE_BSP2_LEAF)
            continue;
        for (j = k + 1u; j < n->index; j++)
            if (order[j] != COPSE_NONE) {
                lo_max = order[j] > lo_max ? order[j] : lo_max;
                lo_min = order[j] < lo_min ? order[j] : lo_min;
            }
        for (j = n->index; j <= end[k]; j++)
            if (order[j] != COPSE_NONE) {
                hi_max = order[j] > hi_max ? order[j] : hi_max;
                hi_min = order[j] < hi_min ? order[j] : hi_min;
            }
        eye_low = p[n->info & 3u] <= n->split;
        if (eye_low == front)
            bad += lo_max > hi_min;
        else
            bad += hi_max > lo_min;
    }
    CHECKF(bad == 0, "%s order wrong at %u nodes", front ? "front-to-back" : "back-to-front", (unsigned)bad);
}

typedef struct pair_ctx {
    const scene2 *s;
    uint32_t pairs, bad;
} pair_ctx;

static bool count_pair(void *user, uint32_t a, uint32_t b)
{
    pair_ctx *c = (pair_ctx *)user;
    c->pairs++;
    c->bad += a >= b || b >= c->s->n;
    return true;
}

/* A random coordinate for queries: on the grid (often exactly on edges) or anywhere. */
static float qcoord(const scene2 *s, scene_kind kind, test_rng *rng, unsigned axis)
{
    float lo = axis == 0 ? s->scene.min.x : s->scene.min.y, hi = axis == 0 ? s->scene.max.x : s->scene.max.y;
    float ext = hi * 0.5f - lo * 0.5f;
    if ((kind == SC_GRID || kind == SC_TOUCHING) && test_rng_below(rng, 2))
        return (float)test_rng_below(rng, 69) - 2.0f;
    if (s->n > 0 && test_rng_below(rng, 4) == 0) { /* on an edge of a box */
        const copse_box2 *b = &s->boxes[test_rng_below(rng, s->n)];
        float v = axis == 0 ? (test_rng_below(rng, 2) ? b->min.x : b->max.x) : (test_rng_below(rng, 2) ? b->min.y : b->max.y);
        return v;
    }
    return test_rng_float(rng, lo - 0.05f * ext, lo + 2.1f * ext);
}

static void run_queries(const copse_bsp2 *t, const scene2 *s, scene_kind kind, test_rng *rng, unsigned count,
                        uint32_t *leaf_ids, uint32_t leaf_cap)
{
    unsigned q, bad_point = 0, bad_box = 0, bad_circle = 0, bad_seg = 0, bad_leaves = 0;
    const double scale = (double)s->scene.max.x - (double)s->scene.min.x;
    for (q = 0; q < count; q++) {
        float x = qcoord(s, kind, rng, 0), y = qcoord(s, kind, rng, 1);
        float x2 = qcoord(s, kind, rng, 0), y2 = qcoord(s, kind, rng, 1);
        copse_bsp2_where w;
        bool hit;
        uint32_t hit_id = COPSE_NONE;
        /* point */
        CHECK_STATUS(copse_bsp2_locate(t, copse_v2(x, y), &w), COPSE_OK);
        {
            uint32_t o = brute_point(s, (double)x, (double)y);
            bad_point += w.solid != (o != COPSE_NONE) || w.id != o;
        }
        /* box */
        {
            copse_box2 b = copse_box2_make(x < x2 ? x : x2, y < y2 ? y : y2, x < x2 ? x2 : x, y < y2 ? y2 : y);
            double mn[2], mx[2];
            uint32_t nleaves = 0, i;
            bool trunc = false;
            mn[0] = (double)b.min.x;
            mn[1] = (double)b.min.y;
            mx[0] = (double)b.max.x;
            mx[1] = (double)b.max.y;
            CHECK_STATUS(copse_bsp2_any_box(t, &b, &hit_id), COPSE_OK);
            hit = hit_id != COPSE_NONE;
            bad_box += hit != brute_box(s, mn, mx);
            if (hit) { /* the witness is an object the box touches */
                double omn[2], omx[2];
                bad_box += hit_id >= s->n;
                if (hit_id < s->n) {
                    clipped(s, hit_id, omn, omx);
                    bad_box += !(mn[0] <= omx[0] && mx[0] >= omn[0] && mn[1] <= omx[1] && mx[1] >= omn[1]);
                }
            }
            /* the leaves it touches: each leaf's listed objects that touch the box are found */
            CHECK_STATUS(leaves_in_box(t, &b, leaf_ids, leaf_cap, &nleaves, &trunc), COPSE_OK);
            if (!trunc) {
                bool any = false;
                for (i = 0; i < nleaves; i++) {
                    const uint32_t *objs;
                    uint32_t c, j;
                    bad_leaves += copse_bsp2_leaf_objects(t, leaf_ids[i], &objs, &c) != COPSE_OK;
                    for (j = 0; j < c; j++) {
                        double omn[2], omx[2];
                        clipped(s, objs[j], omn, omx);
                        any = any || (mn[0] <= omx[0] && mx[0] >= omn[0] && mn[1] <= omx[1] && mx[1] >= omn[1]);
                    }
                }
                bad_leaves += any != hit;
            }
        }
        /* circle: decided exactly unless the distance is within rounding of the radius */
        {
            copse_circle c;
            double d2;
            c.center = copse_v2(x, y);
            c.radius = test_rng_float(rng, 0.0f, 0.1f) * (float)scale;
            if (q % 7 == 0)
                c.radius = 0.0f;
            CHECK_STATUS(copse_bsp2_any_circle(t, &c, &hit_id), COPSE_OK);
            hit = hit_id != COPSE_NONE;
            d2 = brute_circle_d2(s, (double)x, (double)y);
            bad_circle += hit && hit_id >= s->n;
            {
                double r2 = (double)c.radius * (double)c.radius;
                if (!(d2 > 0.0 && r2 > 0.0 && d2 / r2 > 1.0 - 1e-5 && d2 / r2 < 1.0 + 1e-5))
                    bad_circle += hit != (d2 <= r2);
            }
        }
        /* segment: same hit, the same t (exact on grids, within 1e-5 elsewhere) and a point on the object */
        {
            copse_segment2 sg;
            copse_bsp2_trace tr;
            double a[2], b[2], tb;
            uint32_t ob;
            sg.a = copse_v2(x, y);
            sg.b = copse_v2(x2, y2);
            if (q % 5 == 0)
                sg.b.y = y; /* axis-aligned, often along edges */
            a[0] = (double)sg.a.x;
            a[1] = (double)sg.a.y;
            b[0] = (double)sg.b.x;
            b[1] = (double)sg.b.y;
            CHECK_STATUS(copse_sweep_point_bsp2(&sg, t, &tr), COPSE_OK);
            tb = brute_segment(s, a, b, &ob, 0.0);
            if (kind == SC_GRID || kind == SC_TOUCHING) {
                /* exact inputs; t itself is a rounded quotient */
                bad_seg += tr.hit != (ob != COPSE_NONE);
                if (tr.hit && ob != COPSE_NONE && tr.id != ob && tr.id < s->n) {
                    /* a tie within rounding (two boxes entered at one corner): the object the
                     * library chose must be entered at the brute-force t too */
                    scene2 one;
                    uint32_t o1;
                    one.scene = s->scene;
                    one.boxes = &s->boxes[tr.id];
                    one.n = 1;
                    if (brute_segment(&one, a, b, &o1, 0.0) == tb)
                        ob = tr.id;
                }
                if (tr.hit && ob != COPSE_NONE)
                    bad_seg += ((double)tr.t - tb > 1e-6 || tb - (double)tr.t > 1e-6) ||
                               (tr.id != ob && tr.t != (float)tb);
            } else {
                /* float inputs: boxes grown and shrunk by 1e-6 of the scene bracket the answer */
                uint32_t o_in, o_out;
                double t_in = brute_segment(s, a, b, &o_in, -1e-6 * scale);
                double t_out = brute_segment(s, a, b, &o_out, 1e-6 * scale);
                if (tr.hit)
                    bad_seg += o_out == COPSE_NONE || (double)tr.t < t_out - 1e-5 ||
                               (o_in != COPSE_NONE && (double)tr.t > t_in + 1e-5);
                else
                    bad_seg += o_in != COPSE_NONE;
            }
            if (tr.hit) {
                double mn[2], mx[2], tol = 1e-5 * scale;
                clipped(s, tr.id, mn, mx);
                double px = (double)tr.point.x, py = (double)tr.point.y;
                bad_seg += px < mn[0] - tol || px > mx[0] + tol || py < mn[1] - tol || py > mx[1] + tol;
                /* start_solid: a lies in the object hit, entered through no side */
                bad_seg += tr.start_solid != (tr.normal.x == 0.0f && tr.normal.y == 0.0f);
                bad_seg += tr.start_solid && (tr.t != 0.0f || a[0] < mn[0] - tol || a[0] > mx[0] + tol ||
                                              a[1] < mn[1] - tol || a[1] > mx[1] + tol);
            } else {
                bad_seg += tr.t != 1.0f || tr.id != COPSE_NONE || tr.start_solid;
            }
        }
    }
    CHECKF(bad_point + bad_box + bad_circle + bad_seg + bad_leaves == 0,
           "%s n=%u: wrong answers: %u points, %u boxes, %u circles, %u segments, %u leaf lists",
           k_scene_names[kind], (unsigned)s->n, bad_point, bad_box, bad_circle, bad_seg, bad_leaves);
}

/* One built scene, judged whole: leaf contents (and the original rule on integer scenes), both
 * visit orders, the pairs, and the query battery. */
/* A built (or viewed) tree over s, judged whole. */
static void judge_tree(const copse_bsp2 *tree, const scene2 *s, scene_kind kind, uint32_t depth, test_rng *rng,
                       unsigned queries)
{
    const copse_bsp2 t = *tree;
    leaf_region *reg;
    uint32_t *order, *end, *ids;
    pair_ctx pc;
    reg = (leaf_region *)pool_alloc(t.node_count * sizeof(leaf_region));
    order = (uint32_t *)pool_alloc(t.node_count * 4u);
    end = (uint32_t *)pool_alloc(t.node_count * 4u);
    ids = (uint32_t *)pool_alloc(t.node_count * 4u);
    if (reg == NULL || order == NULL || end == NULL || ids == NULL)
        return;
    CHECK(t.depth <= depth);
    check_leaves(&t, s, reg, depth, kind == SC_GRID || kind == SC_TOUCHING);
    check_order(&t, copse_v2(qcoord(s, kind, rng, 0), qcoord(s, kind, rng, 1)), true, order, end);
    check_order(&t, copse_v2(qcoord(s, kind, rng, 0), qcoord(s, kind, rng, 1)), false, order, end);
    pc.s = s;
    pc.pairs = pc.bad = 0;
    CHECK_STATUS(copse_bsp2_visit_pairs(&t, count_pair, &pc), COPSE_OK);
    CHECK(pc.bad == 0);
    run_queries(&t, s, kind, rng, queries, ids, t.node_count);
}

static void judge_scene(const scene2 *s, scene_kind kind, uint32_t depth, test_rng *rng, unsigned queries)
{
    copse_bsp2 t;
    if (bsp2_build_exact(&t, &s->scene, s->boxes, s->n, depth))
        judge_tree(&t, s, kind, depth, rng, queries);
}

bool bsp2_make_map(unsigned kind, uint32_t n, test_rng *rng, copse_box2 *scene, const copse_box2 **boxes)
{
    scene2 s;
    if (kind >= SC_COUNT || !make_scene(&s, (scene_kind)kind, n, rng))
        return false;
    *scene = s.scene;
    *boxes = s.boxes;
    return true;
}

const char *bsp2_map_name(unsigned kind)
{
    return kind < SC_COUNT ? k_scene_names[kind] : "?";
}

void bsp2_judge_tree(const copse_bsp2 *t, unsigned kind, uint32_t depth, uint64_t seed, unsigned queries)
{
    scene2 s;
    test_rng rng;
    s.scene = t->scene;
    s.boxes = t->objects;
    s.n = t->object_count;
    test_rng_seed(&rng, seed);
    judge_tree(t, &s, (scene_kind)kind, depth, &rng, queries);
}

void bsp2_judge_map(const copse_box2 *scene, const copse_box2 *boxes, uint32_t n, uint32_t depth, uint64_t seed,
                    unsigned queries)
{
    scene2 s;
    test_rng rng;
    s.scene = *scene;
    s.boxes = boxes;
    s.n = n;
    test_rng_seed(&rng, seed);
    judge_scene(&s, SC_FLOAT, depth, &rng, queries);
}

static void test_random(void)
{
    static const uint32_t small[] = {0, 1, 2, 3, 5, 8, 13};
    uint32_t big = test_memory_bytes() > (256u << 10) ? 200u : 16u; /* 11 KiB on the micro:bit */
    unsigned kind, i, depth;
    for (kind = 0; kind < SC_COUNT; kind++) {
        for (i = 0; i <= sizeof small / sizeof small[0]; i++) {
            for (depth = 1; depth <= 13; depth += 6) {
                uint32_t n = i < sizeof small / sizeof small[0] ? small[i] : big;
                test_rng rng;
                scene2 s;
                pool_reset();
                test_rng_seed(&rng, 1000u * kind + 10u * i + depth);
                if (!make_scene(&s, (scene_kind)kind, n, &rng))
                    return;
                judge_scene(&s, (scene_kind)kind, depth, &rng, n > 20 ? 300u : 60u);
            }
        }
    }
}

/* Same input, same bytes: a fixed scene's checksum, printed for comparison across machines. */
static void test_checksum(void)
{
    uint32_t h = 2166136261u, i;
    test_rng rng;
    scene2 s;
    copse_bsp2 t;
    pool_reset();
    test_rng_seed(&rng, 4242);
    if (!make_scene(&s, SC_FLOAT, 40, &rng) || !bsp2_build_exact(&t, &s.scene, s.boxes, s.n, 10))
        return;
    for (i = 0; i < t.node_count * (uint32_t)sizeof(copse_bsp2_node); i++)
        h = (h ^ ((const uint8_t *)t.nodes)[i]) * 16777619u;
    for (i = 0; i < t.item_count * 4u; i++)
        h = (h ^ ((const uint8_t *)t.items)[i]) * 16777619u;
    CHECK(t.node_count > 1);
    copse_port_printf("info bsp2 checksum float n=40 depth 10: %08x (%u nodes)\n", (unsigned)h,
                      (unsigned)t.node_count);
}

/* Every byte count from 0 to the exact size, with a guard after the buffer. */
static void test_guard(void)
{
    enum { GUARD = 32 };
    static const uint32_t counts[] = {0, 1, 2, 4, 9};
    unsigned c;
    for (c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        copse_bsp2_params p;
        size_t exact, k, bad = 0;
        uint8_t *region;
        test_rng rng;
        scene2 s;
        pool_reset();
        test_rng_seed(&rng, 77u + c);
        p.max_depth = 6;
        if (!make_scene(&s, SC_GRID, counts[c], &rng))
            return;
        exact = copse_bsp2_build_bytes(&s.scene, s.boxes, s.n, &p);
        region = (uint8_t *)pool_alloc(exact + GUARD);
        if (region == NULL)
            return;
        for (k = 0; k <= exact; k++) {
            copse_arena arena;
            copse_bsp2 t;
            copse_status st;
            size_t i;
            memset(region, 0xA5, exact + GUARD);
            memset(&t, 0x5A, sizeof t);
            copse_arena_init(&arena, region, k);
            st = copse_bsp2_build(&t, &arena, &s.scene, s.boxes, s.n, &p);
            for (i = k; i < exact + GUARD; i++)
                bad += region[i] != 0xA5;
            if (k < exact) /* needed: more than the arena, at most the exact size (bsp.h: a lower bound) */
                bad += st != COPSE_ERR_NOMEM || arena.needed <= k || arena.needed > exact || arena.used != 0 ||
                       t.node_count != 0 || t.nodes != NULL;
            else
                bad += st != COPSE_OK || arena.used != exact || copse_bsp2_check(&t) != COPSE_OK;
        }
        CHECKF(bad == 0, "n=%u: %lu problems over %lu sizes", (unsigned)counts[c], (unsigned long)bad,
               (unsigned long)exact + 1u);
    }
}

static void test_bad_input(void)
{
    uint64_t *mem;
    copse_box2 scene = copse_box2_make(0, 0, 10, 10), boxes[2];
    copse_bsp2_params p = COPSE_BSP2_PARAMS_DEFAULT;
    copse_arena arena;
    copse_bsp2 t;
    const float inf = 1.0f / 0.0f;
    float nan;
    bool hit = true;
    uint32_t hit_id = 0u;
    copse_bsp2_where w;
    copse_bsp2_trace tr;
    copse_segment2 sg;
    copse_circle c;
    nan = inf - inf;
    boxes[0] = copse_box2_make(1, 1, 2, 2);
    boxes[1] = copse_box2_make(3, 3, 4, 4);
    pool_reset();
    mem = (uint64_t *)pool_alloc(512); /* not static: the micro:bit's RAM is the pool */
    if (mem == NULL)
        return;
    copse_arena_init(&arena, mem, 512);
#define BUILD_FAILS(expected)                                                               \
    do {                                                                                    \
        memset(&t, 0x5A, sizeof t);                                                         \
        CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, boxes, 2, &p), expected);         \
        CHECK(t.node_count == 0 && t.nodes == NULL && arena.used == 0);                     \
        CHECK(copse_bsp2_build_bytes(&scene, boxes, 2, &p) == (size_t)-1);                  \
    } while (0)
    p.max_depth = 0;
    BUILD_FAILS(COPSE_ERR_PARAM);
    p.max_depth = COPSE_BSP_MAX_DEPTH + 1u;
    BUILD_FAILS(COPSE_ERR_PARAM);
    p.max_depth = 4;
    boxes[1].max.x = nan;
    BUILD_FAILS(COPSE_ERR_NONFINITE);
    boxes[1].max.x = inf;
    BUILD_FAILS(COPSE_ERR_NONFINITE);
    boxes[1].max.x = 2.0f; /* inverted: min 3 > max 2 */
    BUILD_FAILS(COPSE_ERR_PARAM);
    boxes[1].max.x = 3.0f; /* zero width */
    BUILD_FAILS(COPSE_ERR_DEGENERATE);
    boxes[1].max.x = 4.0f;
    scene.max.y = 0.0f; /* an empty scene */
    BUILD_FAILS(COPSE_ERR_PARAM);
    scene.max.y = nan;
    BUILD_FAILS(COPSE_ERR_NONFINITE);
    scene.max.y = 10.0f;
    CHECK_STATUS(copse_bsp2_build(NULL, &arena, &scene, boxes, 2, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, NULL, &scene, boxes, 2, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, NULL, boxes, 2, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, NULL, 2, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, boxes, 2, NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, NULL, COPSE_BSP_MAX_OBJECTS + 1u, &p), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, boxes, COPSE_BSP_MAX_OBJECTS + 1u, &p), COPSE_ERR_TOO_LARGE);
    /* queries on the failed (empty) tree find nothing; bad queries get their status */
    CHECK_STATUS(copse_bsp2_locate(&t, copse_v2(1.5f, 1.5f), &w), COPSE_OK);
    CHECK(!w.solid && w.leaf == COPSE_NONE);
    CHECK_STATUS(copse_bsp2_build(&t, &arena, &scene, boxes, 2, &p), COPSE_OK);
    CHECK_STATUS(copse_bsp2_locate(&t, copse_v2(nan, 1.0f), &w), COPSE_ERR_NONFINITE);
    CHECK(!w.solid);
    CHECK_STATUS(copse_bsp2_locate(NULL, copse_v2(1.0f, 1.0f), &w), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bsp2_locate(&t, copse_v2(1.0f, 1.0f), NULL), COPSE_ERR_NULL);
    c.center = copse_v2(1.0f, 1.0f);
    c.radius = -1.0f;
    CHECK_STATUS(copse_bsp2_any_circle(&t, &c, &hit_id), COPSE_ERR_EMPTY_RANGE);
    hit = hit_id != COPSE_NONE;
    CHECK(!hit);
    c.radius = nan;
    CHECK_STATUS(copse_bsp2_any_circle(&t, &c, &hit_id), COPSE_ERR_NONFINITE);
    hit = hit_id != COPSE_NONE;
    {
        copse_box2 inv = copse_box2_make(2, 2, 1, 1);
        hit = true;
        CHECK_STATUS(copse_bsp2_any_box(&t, &inv, &hit_id), COPSE_ERR_EMPTY_RANGE);
        hit = hit_id != COPSE_NONE;
        CHECK(!hit);
    }
    sg.a = copse_v2(0, 0);
    sg.b = copse_v2(inf, 0);
    CHECK_STATUS(copse_sweep_point_bsp2(&sg, &t, &tr), COPSE_ERR_NONFINITE);
    CHECK(!tr.hit);
    /* a zero-length segment is a point */
    sg.a = sg.b = copse_v2(1.5f, 1.5f);
    CHECK_STATUS(copse_sweep_point_bsp2(&sg, &t, &tr), COPSE_OK);
    CHECK(tr.hit && tr.t == 0.0f && tr.id == 0 && tr.normal.x == 0.0f && tr.normal.y == 0.0f);
    {
        const uint32_t *objs;
        uint32_t count;
        CHECK_STATUS(copse_bsp2_leaf_objects(&t, t.node_count, &objs, &count), COPSE_ERR_INDEX);
        CHECK_STATUS(copse_bsp2_leaf_objects(&t, 0, &objs, &count), COPSE_ERR_INDEX); /* the root splits */
        CHECK_STATUS(copse_bsp2_dump(&t, (copse_bsp_order)7, NULL, 0, NULL), COPSE_ERR_PARAM);
    }
    /* a corrupted tree is caught by the check */
    {
        copse_bsp2 bad = t;
        copse_bsp2_node nodes[16];
        memcpy(nodes, t.nodes, t.node_count * sizeof nodes[0]);
        bad.nodes = nodes;
        nodes[0].index = 0;
        CHECK_STATUS(copse_bsp2_check(&bad), COPSE_ERR_INDEX);
        bad.object_count = 0;
        nodes[0].index = t.nodes[0].index;
        CHECK_STATUS(copse_bsp2_check(&bad), COPSE_ERR_INDEX);
    }
#undef BUILD_FAILS
}

void suite_bsp2(void)
{
    test_run("bsp2/seed_example", test_seed_example);
    test_run("bsp2/random_vs_brute_force", test_random);
    test_run("bsp2/checksum", test_checksum);
    test_run("bsp2/guard", test_guard);
    test_run("bsp2/bad_input", test_bad_input);
}

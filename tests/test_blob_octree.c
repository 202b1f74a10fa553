/* SPDX-License-Identifier: MIT */
/*
 * Octree blobs (docs/format.md, "Point octree", "Loose octree"): round trips of point trees
 * (sizes 0, 1, 2, leaf-1, leaf, leaf+1 and more; coincident points; with and without ids;
 * after removes and inserts that leave holes in the pools) and of loose trees (after moves and
 * removes), where the view answers every query exactly as the original (same ids, same order,
 * same distance bits) and the point view is judged by the kit's brute-force oracles; identical
 * blobs for trees with the same contents and different pool histories; every truncation and
 * every single-byte corruption of small blobs (raw: refused; with the CRC recomputed: refused,
 * or a tree that queries safely under the sanitizers); hand-made corruptions with their own
 * statuses; a guard after the save buffer for every capacity; read-only views; bad arguments.
 */
#include <float.h>
#include <string.h>

#include "suites.h"
#include "test_blob.h"
#include "test_octree.h"

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static bool same_vec(const copse_vec3 *a, const copse_vec3 *b)
{
    return bits(a->x) == bits(b->x) && bits(a->y) == bits(b->y) && bits(a->z) == bits(b->z);
}

/* The offset of section k, from the blob's table. */
static uint32_t section_at(const uint8_t *blob, uint32_t k)
{
    return blob_get_word(blob, 96u + 16u * k + 4u);
}

/* ---- the two kinds behind one interface: save, view, the saved and viewed trees ------------- */

typedef enum blob_kind { POINT, LOOSE } blob_kind;

typedef union any_tree {
    copse_octree point;
    copse_loose loose;
} any_tree;

static size_t save_bytes(blob_kind kind, const void *tree)
{
    return kind == POINT ? copse_octree_save_bytes((const copse_octree *)tree)
                         : copse_loose_save_bytes((const copse_loose *)tree);
}

static copse_status save_to(blob_kind kind, const void *tree, void *buf, size_t cap, size_t *written)
{
    return kind == POINT ? copse_octree_save((const copse_octree *)tree, buf, cap, written)
                         : copse_loose_save((const copse_loose *)tree, buf, cap, written);
}

static copse_status view_of(blob_kind kind, any_tree *out, const void *blob, size_t len)
{
    return kind == POINT ? copse_octree_view(&out->point, blob, len) : copse_loose_view(&out->loose, blob, len);
}

/* A refused view leaves an empty tree. */
static bool view_empty(blob_kind kind, const any_tree *t)
{
    return kind == POINT ? t->point.nodes == NULL && t->point.size == 0u && !t->point.read_only
                         : t->loose.nodes == NULL && t->loose.size == 0u && !t->loose.read_only;
}

/* Saves into a fresh pool buffer (checking written == save_bytes): the bytes every host
 * writes, little endian. NULL after failed checks. */
static uint8_t *save_le(blob_kind kind, const void *tree, size_t *size)
{
    size_t need = save_bytes(kind, tree), written = 1;
    uint8_t *buf = (uint8_t *)tk_alloc(need);
    *size = need;
    if (!CHECKF(need > 0u && buf != NULL, "%s: save_bytes %lu", tk_ctx(), (unsigned long)need))
        return NULL;
    if (!CHECKF(save_to(kind, tree, buf, need, &written) == COPSE_OK, "%s: save", tk_ctx()))
        return NULL;
    CHECK_EQ_INT(written, need);
    return buf;
}

/* A save in this host's order, for the views (blob_to_host_in_place). */
static uint8_t *save(blob_kind kind, const void *tree, size_t *size)
{
    uint8_t *blob = save_le(kind, tree, size);
    if (blob != NULL && !CHECK(blob_to_host_in_place(blob, *size) == COPSE_OK))
        return NULL;
    return blob;
}

/* A view saved again gives the bytes of the tree it came from, both little endian. `blob`
 * (the original's save, as viewed) is that save on a little-endian host; a big-endian one
 * saves the original again rather than hold both on the boards' small memory. */
static void check_saved_again(blob_kind kind, const void *view, const void *orig, const uint8_t *blob, size_t size)
{
    size_t size_le = size, size2 = 0;
    const uint8_t *le = host_big_endian() ? save_le(kind, orig, &size_le) : blob;
    const uint8_t *again = save_le(kind, view, &size2);
    CHECKF(le != NULL && again != NULL && size2 == size_le && size_le == size && memcmp(again, le, size) == 0,
           "%s: view saved differs", tk_ctx());
}

/* ---- point trees ------------------------------------------------------------------------------ */

/* The view answers as the original: region lists (ids and order), k nearest (distance bits,
 * ids, the points the indices name), nearest, any_capsule. */
static void point_compare(const ot_point_tree *pt, const copse_octree *view, test_rng *rng, unsigned queries)
{
    const copse_octree *orig = &pt->tree;
    const uint32_t cap = orig->size + 1u;
    uint32_t *ids_a = (uint32_t *)tk_alloc(4u * cap), *ids_b = (uint32_t *)tk_alloc(4u * cap);
    copse_neighbor na[9], nb[9];
    unsigned q, k;
    if (ids_a == NULL || ids_b == NULL)
        return;
    for (q = 0; q < queries; q++) {
        copse_box3 box;
        copse_sphere s;
        copse_capsule c;
        copse_id_list la = copse_id_list_make(ids_a, cap), lb = copse_id_list_make(ids_b, cap);
        copse_neighbor_list ka = copse_neighbor_list_make(na, 1u + q % 9u);
        copse_neighbor_list kb = copse_neighbor_list_make(nb, 1u + q % 9u);
        copse_nearest3 ra, rb;
        uint32_t any_a = 0, any_b = 1;
        float p[3];
        bool same;
        ot_random_box(pt, rng, &box);
        CHECK(copse_octree_overlap_box(orig, &box, &la) == copse_octree_overlap_box(view, &box, &lb));
        CHECKF(la.count == lb.count && memcmp(ids_a, ids_b, 4u * la.count) == 0, "%s: box %u", tk_ctx(), q);
        ot_random_sphere(pt, rng, &s);
        CHECK(copse_octree_overlap_sphere(orig, &s, &la) == copse_octree_overlap_sphere(view, &s, &lb));
        CHECKF(la.count == lb.count && memcmp(ids_a, ids_b, 4u * la.count) == 0, "%s: sphere %u", tk_ctx(), q);
        ot_random_capsule(pt, rng, &c);
        CHECK(copse_octree_overlap_capsule(orig, &c, &la) == copse_octree_overlap_capsule(view, &c, &lb));
        CHECKF(la.count == lb.count && memcmp(ids_a, ids_b, 4u * la.count) == 0, "%s: capsule %u", tk_ctx(), q);
        CHECK(copse_octree_any_capsule(orig, &c, NULL, &any_a) == copse_octree_any_capsule(view, &c, NULL, &any_b));
        CHECKF(any_a == any_b, "%s: any_capsule %u", tk_ctx(), q);
        ot_random_point(pt, rng, p);
        CHECK(copse_octree_knn(orig, copse_v3(p[0], p[1], p[2]), FLT_MAX, &ka) ==
              copse_octree_knn(view, copse_v3(p[0], p[1], p[2]), FLT_MAX, &kb));
        same = ka.count == kb.count;
        for (k = 0; same && k < ka.count; k++)
            same = bits(na[k].distance_sq) == bits(nb[k].distance_sq) && na[k].id == nb[k].id &&
                   same_vec(&orig->points[na[k].index], &view->points[nb[k].index]);
        CHECKF(same, "%s: knn %u: %u vs %u", tk_ctx(), q, (unsigned)ka.count, (unsigned)kb.count);
        CHECK(copse_octree_nearest(orig, copse_v3(p[0], p[1], p[2]), FLT_MAX, &ra) ==
              copse_octree_nearest(view, copse_v3(p[0], p[1], p[2]), FLT_MAX, &rb));
        CHECKF(ra.id == rb.id && bits(ra.distance_sq) == bits(rb.distance_sq) && same_vec(&ra.point, &rb.point),
               "%s: nearest %u", tk_ctx(), q);
    }
}

/* Changes on a view are refused and leave the blob's bytes alone. */
static void point_read_only(copse_octree *view, const uint8_t *blob, size_t size)
{
    uint8_t *before = (uint8_t *)tk_alloc(size);
    uint8_t scratch_mem[64];
    copse_arena scratch;
    uint32_t size_before = view->size;
    if (before == NULL)
        return;
    memcpy(before, blob, size);
    copse_arena_init(&scratch, scratch_mem, sizeof scratch_mem);
    CHECK(view->read_only);
    CHECK_STATUS(copse_octree_insert(view, 0), COPSE_ERR_READ_ONLY);
    CHECK_STATUS(copse_octree_remove(view, 0), COPSE_ERR_READ_ONLY);
    CHECK_STATUS(copse_octree_build(view, &scratch, 0), COPSE_ERR_READ_ONLY);
    copse_octree_clear(view);
    CHECK(view->size == size_before && memcmp(before, blob, size) == 0);
}

/* Saves, views, compares; the view saved again gives the same bytes. */
static void point_round_trip(ot_point_tree *pt, test_rng *rng, unsigned queries)
{
    size_t mark = tk_mark(), size = 0;
    copse_octree view;
    copse_octree_stats sa, sb;
    uint8_t *blob = save(POINT, &pt->tree, &size);
    copse_status st;
    if (blob == NULL)
        return;
    st = copse_octree_view(&view, blob, size);
    if (!CHECKF(st == COPSE_OK, "%s: view: %s", tk_ctx(), copse_status_str(st)))
        return;
    CHECK_STATUS(copse_octree_check(&view), COPSE_OK);
    CHECK_STATUS(copse_octree_get_stats(&pt->tree, &sa), COPSE_OK);
    CHECK_STATUS(copse_octree_get_stats(&view, &sb), COPSE_OK);
    CHECKF(sa.points == sb.points && sa.nodes == sb.nodes && sa.leaves == sb.leaves && sa.buckets == sb.buckets &&
               sa.depth == sb.depth && sa.max_leaf_points == sb.max_leaf_points &&
               sa.overflow_leaves == sb.overflow_leaves && view.leaf_size == pt->tree.leaf_size &&
               view.bucket_size == pt->tree.bucket_size && view.max_depth == pt->tree.max_depth &&
               bits(view.half) == bits(pt->tree.half) && view.ids != NULL,
           "%s: viewed tree differs", tk_ctx());
    CHECKF((const uint8_t *)view.nodes == blob + section_at(blob, 1) &&
               (const uint8_t *)view.points == blob + section_at(blob, 3),
           "%s: view not in place", tk_ctx());
    point_compare(pt, &view, rng, queries);
    {
        /* the kit's oracles over the view's own points */
        ot_point_tree vt = *pt;
        uint32_t i;
        vt.tree = view;
        vt.points = view.points;
        vt.ids = view.ids;
        vt.n = view.size;
        vt.in = (uint8_t *)tk_alloc(view.size + 1u);
        if (vt.in != NULL) {
            for (i = 0; i < view.size; i++)
                vt.in[i] = 1;
            ot_judge_all(&vt, rng, queries / 2u + 1u);
        }
    }
    check_saved_again(POINT, &view, &pt->tree, blob, size);
    CHECK_STATUS(copse_octree_view(&view, blob, size + 16u), COPSE_OK); /* len past the blob */
    point_read_only(&view, blob, size);
    tk_rewind(mark);
}

static bool point_change(ot_point_tree *pt, uint32_t i, bool insert)
{
    copse_status st = insert ? copse_octree_insert(&pt->tree, i) : copse_octree_remove(&pt->tree, i);
    if (!CHECKF(st == COPSE_OK, "%s: %s %u: %s", tk_ctx(), insert ? "insert" : "remove", (unsigned)i,
                copse_status_str(st)))
        return false;
    pt->in[i] = insert;
    return true;
}

static void test_point_round_trips(void)
{
    static const ot_cloud_kind clouds[4] = {OT_UNIFORM, OT_COINCIDENT, OT_CLUSTERED, OT_GRID};
    static const uint32_t leaf[2] = {4, 8}, bucket[2] = {4, 3};
    const unsigned queries = tk_free_bytes() >= (1u << 20) ? 12u : 4u;
    unsigned c, b, s;
    tk_pool_reset();
    for (c = 0; c < 4u; c++)
        for (b = 0; b < 2u; b++) {
            uint32_t sizes[7];
            sizes[0] = 0;
            sizes[1] = 1;
            sizes[2] = 2;
            sizes[3] = leaf[b] - 1u;
            sizes[4] = leaf[b];
            sizes[5] = leaf[b] + 1u;
            sizes[6] = tk_large_count(400, 1200);
            for (s = 0; s < 7u; s++) {
                size_t mark = tk_mark();
                uint32_t n = sizes[s], cap = n + n / 2u + 2u, i;
                copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * cap);
                uint32_t *ids = (c + s) % 2u ? ot_make_ids(cap) : NULL;
                ot_point_tree pt;
                test_rng rng;
                test_rng_seed(&rng, 0x0B10B000u + c * 64u + b * 16u + s);
                tk_context("%s leaf=%u bucket=%u n=%u%s", ot_cloud_name(clouds[c]), (unsigned)leaf[b],
                           (unsigned)bucket[b], (unsigned)n, ids != NULL ? " ids" : "");
                if (pts == NULL)
                    return;
                ot_make_cloud(pts, cap, clouds[c], &rng);
                if (!ot_point_build(&pt, pts, ids, cap, n, leaf[b], bucket[b], 12, cap, cap))
                    return;
                point_round_trip(&pt, &rng, queries);
                /* holes: remove every third point, insert the spare ones, remove one of them */
                for (i = 0; i < n; i += 3u)
                    if (!point_change(&pt, i, false))
                        return;
                for (i = n; i < cap; i++)
                    if (!point_change(&pt, i, true))
                        return;
                if (!point_change(&pt, cap - 1u, false))
                    return;
                CHECK_STATUS(copse_octree_check(&pt.tree), COPSE_OK);
                point_round_trip(&pt, &rng, queries);
                tk_rewind(mark);
            }
        }
}

/* ---- loose trees --------------------------------------------------------------------------------- */

typedef struct loose_scene {
    copse_loose tree;
    copse_box3 *boxes;
    uint32_t n;
} loose_scene;

static bool loose_init(loose_scene *s, uint32_t n, uint32_t max_nodes, uint32_t depth, uint32_t capacity)
{
    s->boxes = (copse_box3 *)tk_alloc(sizeof(copse_box3) * (n + 1u));
    s->n = n;
    return s->boxes != NULL && ot_loose_init(&s->tree, n, max_nodes, depth, capacity);
}

/* Brute force: the ids whose box (the scene's, where the tree has them) overlaps `q`, sorted. */
static uint32_t loose_oracle_box(const loose_scene *s, const copse_box3 *q, uint32_t *out)
{
    uint32_t i, n = 0;
    for (i = 0; i < s->n; i++) {
        const copse_box3 *b = &s->boxes[i];
        if (s->tree.objects[i].node != COPSE_NONE && b->min.x <= q->max.x && q->min.x <= b->max.x &&
            b->min.y <= q->max.y && q->min.y <= b->max.y && b->min.z <= q->max.z && q->min.z <= b->max.z)
            out[n++] = i;
    }
    return n;
}

/* The view answers as the original (ids and order) for boxes, spheres, frustums and rays; box
 * answers also as brute force. */
static void loose_compare(const loose_scene *s, const copse_loose *view, test_rng *rng, unsigned queries)
{
    const copse_loose *orig = &s->tree;
    const uint32_t cap = s->n + 1u;
    uint32_t *a = (uint32_t *)tk_alloc(4u * cap), *b = (uint32_t *)tk_alloc(4u * cap);
    uint32_t *o = (uint32_t *)tk_alloc(4u * cap);
    unsigned q;
    if (a == NULL || b == NULL || o == NULL)
        return;
    for (q = 0; q < queries; q++) {
        copse_box3 box = ot_random_object_box(rng);
        copse_sphere sp;
        copse_frustum f;
        copse_ray3 ray;
        copse_hit ha, hb;
        copse_id_list la = copse_id_list_make(a, cap), lb = copse_id_list_make(b, cap);
        uint32_t n, k;
        CHECK(copse_loose_overlap_box(orig, &box, &la) == copse_loose_overlap_box(view, &box, &lb));
        CHECKF(la.count == lb.count && memcmp(a, b, 4u * la.count) == 0, "%s: box %u", tk_ctx(), q);
        n = loose_oracle_box(s, &box, o);
        ot_sort_ids(b, lb.count);
        CHECKF(n == lb.count && memcmp(o, b, 4u * n) == 0, "%s: box %u: %u ids, oracle %u", tk_ctx(), q,
               (unsigned)lb.count, (unsigned)n);
        sp.center = box.min;
        sp.radius = test_rng_float(rng, 0.0f, 30.0f);
        CHECK(copse_loose_overlap_sphere(orig, &sp, &la) == copse_loose_overlap_sphere(view, &sp, &lb));
        CHECKF(la.count == lb.count && memcmp(a, b, 4u * la.count) == 0, "%s: sphere %u", tk_ctx(), q);
        for (k = 0; k < 6u; k++) { /* an axis box as six planes, some tilted */
            float t = k < 2u ? test_rng_float(rng, -0.3f, 0.3f) : 0.0f;
            f.planes[k].normal = copse_v3(k % 3u == 0u ? (k < 3u ? -1.0f : 1.0f) : t,
                                                 k % 3u == 1u ? (k < 3u ? -1.0f : 1.0f) : 0.0f,
                                                 k % 3u == 2u ? (k < 3u ? -1.0f : 1.0f) : 0.0f);
            f.planes[k].dist = test_rng_float(rng, 0.0f, 40.0f);
        }
        CHECK(copse_loose_cull(orig, &f, &la) == copse_loose_cull(view, &f, &lb));
        CHECKF(la.count == lb.count && memcmp(a, b, 4u * la.count) == 0, "%s: frustum %u", tk_ctx(), q);
        ray.origin = box.max;
        ray.dir = copse_v3(test_rng_float(rng, -1, 1), test_rng_float(rng, -1, 1), 0.5f);
        ray.t_max = 200.0f;
        CHECK(copse_loose_raycast(orig, &ray, &ha) == copse_loose_raycast(view, &ray, &hb));
        CHECKF(ha.id == hb.id && bits(ha.t) == bits(hb.t), "%s: ray %u", tk_ctx(), q);
    }
}

static void loose_round_trip(loose_scene *s, test_rng *rng, unsigned queries)
{
    size_t mark = tk_mark(), size = 0;
    copse_loose view;
    copse_loose_stats sa, sb;
    uint8_t *blob = save(LOOSE, &s->tree, &size), *before;
    copse_box3 box = copse_box3_make(0, 0, 0, 1, 1, 1);
    copse_status st;
    if (blob == NULL)
        return;
    st = copse_loose_view(&view, blob, size);
    if (!CHECKF(st == COPSE_OK, "%s: view: %s", tk_ctx(), copse_status_str(st)))
        return;
    CHECK_STATUS(copse_loose_check(&view), COPSE_OK);
    CHECK_STATUS(copse_loose_get_stats(&s->tree, &sa), COPSE_OK);
    CHECK_STATUS(copse_loose_get_stats(&view, &sb), COPSE_OK);
    CHECKF(sa.objects == sb.objects && sa.nodes == sb.nodes && sa.depth == sb.depth &&
               sa.max_node_objects == sb.max_node_objects && sa.root_objects == sb.root_objects &&
               view.max_objects == s->tree.max_objects && view.node_capacity == s->tree.node_capacity &&
               (const uint8_t *)view.objects == blob + section_at(blob, 2),
           "%s: viewed tree differs", tk_ctx());
    loose_compare(s, &view, rng, queries);
    CHECK_STATUS(copse_loose_view(&view, blob, size + 16u), COPSE_OK); /* len past the blob */
    check_saved_again(LOOSE, &view, &s->tree, blob, size);
    before = (uint8_t *)tk_alloc(size);
    if (before != NULL) {
        memcpy(before, blob, size);
        CHECK(view.read_only);
        CHECK_STATUS(copse_loose_insert(&view, 0, &box), COPSE_ERR_READ_ONLY);
        CHECK_STATUS(copse_loose_remove(&view, 0), COPSE_ERR_READ_ONLY);
        CHECK_STATUS(copse_loose_move(&view, 0, &box), COPSE_ERR_READ_ONLY);
        copse_loose_clear(&view);
        CHECK(view.size == s->tree.size && memcmp(before, blob, size) == 0);
    }
    tk_rewind(mark);
}

static bool loose_change(loose_scene *s, uint32_t id, int what, test_rng *rng)
{
    copse_status st;
    if (what == 0) {
        s->boxes[id] = ot_random_object_box(rng);
        st = copse_loose_insert(&s->tree, id, &s->boxes[id]);
    } else if (what == 1) {
        s->boxes[id] = ot_random_object_box(rng);
        st = copse_loose_move(&s->tree, id, &s->boxes[id]);
    } else {
        st = copse_loose_remove(&s->tree, id);
    }
    return CHECKF(st == COPSE_OK, "%s: change %d of %u: %s", tk_ctx(), what, (unsigned)id, copse_status_str(st));
}

static void test_loose_round_trips(void)
{
    static const uint32_t capacities[3] = {0, 1, 4};
    const unsigned queries = tk_free_bytes() >= (1u << 20) ? 16u : 4u;
    uint32_t sizes[4];
    unsigned c, z;
    tk_pool_reset();
    sizes[0] = 0;
    sizes[1] = 1;
    sizes[2] = 2;
    sizes[3] = tk_large_count(800, 600);
    for (c = 0; c < 3u; c++)
        for (z = 0; z < 4u; z++) {
            size_t mark = tk_mark();
            uint32_t n = sizes[z], i;
            loose_scene s;
            test_rng rng;
            test_rng_seed(&rng, 0x100CE000u + c * 16u + z);
            tk_context("loose capacity %u n=%u", (unsigned)capacities[c], (unsigned)n);
            if (!loose_init(&s, n + 1u, 8u * n + 8u, 6, capacities[c]))
                return;
            for (i = 0; i < n; i++)
                if (!loose_change(&s, i, 0, &rng))
                    return;
            loose_round_trip(&s, &rng, queries);
            /* holes: move every other object, remove every third */
            for (i = 0; i < n; i += 2u)
                if (!loose_change(&s, i, 1, &rng))
                    return;
            for (i = 0; i < n; i += 3u)
                if (!loose_change(&s, i, 2, &rng))
                    return;
            CHECK_STATUS(copse_loose_check(&s.tree), COPSE_OK);
            loose_round_trip(&s, &rng, queries);
            tk_rewind(mark);
        }
}

/* ---- same contents, different pool histories: the same bytes -------------------------------- */

static void check_same_blobs(blob_kind kind, const void *a, const void *b)
{
    size_t size_a = 0, size_b = 0;
    const uint8_t *blob_a = save_le(kind, a, &size_a), *blob_b = save_le(kind, b, &size_b);
    CHECKF(blob_a != NULL && blob_b != NULL && size_a == size_b && memcmp(blob_a, blob_b, size_a) == 0,
           "%s: blobs differ", tk_ctx());
}

static void test_same_bytes_point(void)
{
    copse_vec3 *pts;
    ot_point_tree a, b;
    test_rng rng;
    uint32_t i, n;
    tk_pool_reset();
    n = tk_large_count(800, 300);
    test_rng_seed(&rng, 31);
    tk_context("same bytes, point n=%u", (unsigned)n);
    pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * 2u * n);
    if (pts == NULL)
        return;
    ot_make_cloud(pts, 2u * n, OT_CLUSTERED, &rng);
    /* a: points 0..n-1 inserted into an empty tree; b: n..2n-1 first, all removed again, then
     * 0..n-1: the same tree, its nodes and buckets elsewhere in the pools */
    if (!ot_point_build(&a, pts, NULL, 2u * n, 0, 4, 3, 12, 4u * n, 4u * n) ||
        !ot_point_build(&b, pts, NULL, 2u * n, 0, 4, 3, 12, 4u * n, 4u * n))
        return;
    for (i = n; i < 2u * n; i++)
        if (!point_change(&b, i, true))
            return;
    for (i = 2u * n; i-- > n;)
        if (!point_change(&b, i, false))
            return;
    for (i = 0; i < n; i++)
        if (!point_change(&a, i, true) || !point_change(&b, i, true))
            return;
    CHECK(ot_point_hash(&a.tree) != ot_point_hash(&b.tree)); /* the pools do differ */
    check_same_blobs(POINT, &a.tree, &b.tree);
}

/* The loose octree, the same way; without a node capacity (with one, a node once split stays
 * split: another tree). */
static void test_same_bytes_loose(void)
{
    loose_scene la, lb;
    test_rng rng;
    uint32_t i, n;
    tk_pool_reset();
    n = tk_large_count(1600, 300);
    test_rng_seed(&rng, 37);
    tk_context("same bytes, loose n=%u", (unsigned)n);
    if (!loose_init(&la, 2u * n, 16u * n, 6, 0) || !loose_init(&lb, 2u * n, 16u * n, 6, 0))
        return;
    for (i = n; i < 2u * n; i++)
        if (!loose_change(&lb, i, 0, &rng))
            return;
    for (i = n; i < 2u * n; i++)
        if (!loose_change(&lb, i, i % 2u == 0u ? 1 : 2, &rng) || (i % 2u == 0u && !loose_change(&lb, i, 2, &rng)))
            return;
    for (i = 0; i < n; i++) {
        la.boxes[i] = ot_random_object_box(&rng);
        CHECK_STATUS(copse_loose_insert(&la.tree, i, &la.boxes[i]), COPSE_OK);
        CHECK_STATUS(copse_loose_insert(&lb.tree, i, &la.boxes[i]), COPSE_OK);
    }
    CHECK(ot_loose_hash(&la.tree) != ot_loose_hash(&lb.tree));
    check_same_blobs(LOOSE, &la.tree, &lb.tree);
}

/* ---- hostile blobs ------------------------------------------------------------------------------ */

/* A tree a view accepted: it must query without harm (the sanitizers watch). */
static void poke(blob_kind kind, const any_tree *t)
{
    uint32_t ids[8], any;
    copse_id_list list = copse_id_list_make(ids, 8);
    copse_box3 box = copse_box3_make(-3, -3, -3, 3, 3, 3);
    copse_sphere s;
    s.center = copse_v3(0.5f, 0.25f, 0);
    s.radius = 2.0f;
    if (kind == POINT) {
        copse_neighbor nb[4];
        copse_neighbor_list kl = copse_neighbor_list_make(nb, 4);
        copse_capsule c;
        copse_octree_stats st;
        c.segment.a = box.min;
        c.segment.b = box.max;
        c.radius = 1.0f;
        (void)copse_octree_overlap_box(&t->point, &box, &list);
        (void)copse_octree_overlap_sphere(&t->point, &s, &list);
        (void)copse_octree_overlap_capsule(&t->point, &c, &list);
        (void)copse_octree_any_capsule(&t->point, &c, NULL, &any);
        (void)copse_octree_knn(&t->point, s.center, FLT_MAX, &kl);
        (void)copse_octree_get_stats(&t->point, &st);
        (void)copse_octree_check(&t->point);
    } else {
        copse_hit hit;
        copse_ray3 ray;
        copse_loose_stats st;
        ray.origin = box.min;
        ray.dir = copse_v3(1, 0.5f, 0.25f);
        ray.t_max = 100.0f;
        (void)copse_loose_overlap_box(&t->loose, &box, &list);
        (void)copse_loose_overlap_sphere(&t->loose, &s, &list);
        (void)copse_loose_raycast(&t->loose, &ray, &hit);
        (void)copse_loose_get_stats(&t->loose, &st);
        (void)copse_loose_check(&t->loose);
    }
}

/* The two kinds behind blob_hostile. */
typedef struct octree_victim {
    blob_kind kind;
    any_tree view;
} octree_victim;

static copse_status octree_victim_view(void *ctx, const uint8_t *blob, size_t len, bool *empty)
{
    octree_victim *h = (octree_victim *)ctx;
    copse_status st = view_of(h->kind, &h->view, blob, len);
    *empty = view_empty(h->kind, &h->view);
    return st;
}

static void octree_victim_poke(void *ctx)
{
    octree_victim *h = (octree_victim *)ctx;
    poke(h->kind, &h->view);
}

static void hostile(blob_kind kind, const void *tree)
{
    size_t mark = tk_mark(), size = 0;
    octree_victim h;
    blob_victim v;
    uint8_t *blob = save(kind, tree, &size);
    if (blob == NULL)
        return;
    h.kind = kind;
    v.view = octree_victim_view;
    v.poke = octree_victim_poke;
    v.ctx = &h;
    v.work = (uint8_t *)tk_alloc(size);
    if (v.work != NULL)
        blob_hostile(&v, blob, size, tk_ctx());
    tk_rewind(mark);
}

/* A small point tree (6 points in chains of buckets, with ids) and a small loose one. */
static bool small_point(ot_point_tree *pt, bool with_ids)
{
    copse_vec3 *pts = (copse_vec3 *)tk_alloc(sizeof(copse_vec3) * 6u);
    test_rng rng;
    test_rng_seed(&rng, 41);
    if (pts == NULL)
        return false;
    ot_make_cloud(pts, 6, OT_UNIFORM, &rng);
    return ot_point_build(pt, pts, with_ids ? ot_make_ids(6) : NULL, 6, 6, 2, 2, 8, 2, 2);
}

static bool small_loose(loose_scene *s)
{
    test_rng rng;
    uint32_t i;
    test_rng_seed(&rng, 43);
    if (!loose_init(s, 5, 16, 4, 1))
        return false;
    for (i = 0; i < 4u; i++)
        if (!loose_change(s, i, 0, &rng))
            return false;
    return true;
}

static void test_truncation_and_corruption(void)
{
    ot_point_tree pt;
    loose_scene ls;
    tk_pool_reset();
    tk_context("point n=6 leaf 2 bucket 2 ids");
    if (small_point(&pt, true))
        hostile(POINT, &pt.tree);
    tk_context("loose n=4 capacity 1");
    if (small_loose(&ls))
        hostile(LOOSE, &ls.tree);
}

/* Each way to be wrong, made by hand at a field's offset (section, offset in it), CRC fixed. */
typedef struct corruption {
    int section; /* -1: the header */
    uint32_t at;
    uint32_t value; /* the new u32 there */
    copse_status want;
} corruption;

static void corrupt(blob_kind kind, const uint8_t *blob, size_t size, const corruption *cases, unsigned count)
{
    size_t mark = tk_mark();
    any_tree view;
    unsigned c;
    for (c = 0; c < count; c++) {
        uint8_t *b = (uint8_t *)tk_alloc(size);
        uint32_t at = cases[c].at + (cases[c].section >= 0 ? section_at(blob, (uint32_t)cases[c].section) : 0u);
        copse_status st;
        if (b == NULL)
            return;
        memcpy(b, blob, size);
        blob_put_word(b, at, cases[c].value);
        blob_reseal(b, size);
        st = view_of(kind, &view, b, size);
        CHECKF(st == cases[c].want && (st == COPSE_OK || view_empty(kind, &view)),
               "%s case %u (section %d + %u = %08x): %s, expected %s", tk_ctx(), c, cases[c].section,
               (unsigned)cases[c].at, (unsigned)cases[c].value, copse_status_str(st), copse_status_str(cases[c].want));
        tk_rewind(mark);
    }
}

/* Two objects in different nodes: the first named in the other's node (listed in one, naming
 * another: BLOB_PRIM), or given the other's box (the union unchanged, but that box lives
 * elsewhere: BLOB_BOUNDS). */
static void loose_misplaced(const uint8_t *blob, size_t size)
{
    const uint8_t *objects = blob + section_at(blob, 2);
    const uint32_t slots = blob_get_word(blob, 36), at = section_at(blob, 2);
    uint32_t a, b;
    for (a = 0; a < slots; a++)
        for (b = 0; b < slots; b++) {
            uint32_t na = blob_get_word(blob, at + 32u * a + 24u), nb = blob_get_word(blob, at + 32u * b + 24u);
            if (na != 0xFFFFFFFFu && nb != 0xFFFFFFFFu && na != nb) {
                size_t mark = tk_mark();
                uint8_t *bad = (uint8_t *)tk_alloc(size);
                corruption named;
                any_tree view;
                named.section = 2;
                named.at = 32u * a + 24u;
                named.value = nb;
                named.want = COPSE_ERR_BLOB_PRIM;
                corrupt(LOOSE, blob, size, &named, 1);
                if (bad == NULL)
                    return;
                memcpy(bad, blob, size);
                memcpy(bad + section_at(blob, 2) + 32u * a, objects + 32u * b, 24u);
                blob_reseal(bad, size);
                CHECK_STATUS(view_of(LOOSE, &view, bad, size), COPSE_ERR_BLOB_BOUNDS);
                tk_rewind(mark);
                return;
            }
        }
    CHECKF(false, "%s: every object in one node", tk_ctx());
}

static void test_specific_statuses(void)
{
    ot_point_tree pt;
    loose_scene ls;
    size_t size = 0;
    uint8_t *blob;
    tk_pool_reset();
    tk_context("point statuses");
    if (small_point(&pt, true) && (blob = save(POINT, &pt.tree, &size)) != NULL) {
        const uint32_t nodes = blob_get_word(blob, 32), leaf1 = 1u; /* node 1: the root's first child */
        const corruption cases[] = {
            {-1, 4, 0x00030001u, COPSE_ERR_BLOB_KIND},        /* kind 3 */
            {-1, 4, 0x00010001u, COPSE_ERR_BLOB_KIND},        /* kind 1 */
            {-1, 20, 1, COPSE_ERR_BLOB_HEADER},               /* flags */
            {-1, 60, 1, COPSE_ERR_BLOB_HEADER},               /* reserved tree info */
            {-1, 44, 0, COPSE_ERR_BLOB_HEADER},               /* bucket size 0 */
            {-1, 44, 1025, COPSE_ERR_BLOB_HEADER},            /* bucket size too large */
            {-1, 52, COPSE_OCTREE_MAX_DEPTH + 1u, COPSE_ERR_TOO_DEEP},
            {-1, 52, 0, COPSE_ERR_BLOB_HEADER},               /* depth past max_depth + 1 */
            {-1, 56, 1, COPSE_ERR_BLOB_DEPTH},                /* the depth recorded too small */
            {-1, 32, nodes + 1u, COPSE_ERR_BLOB_SECTION},     /* node count vs section size */
            {-1, 40, 5, COPSE_ERR_BLOB_SECTION},              /* point count vs sections */
            {-1, 96, 7, COPSE_ERR_BLOB_SECTION},              /* section id */
            {-1, 64, 0x3F800000u, COPSE_ERR_BLOB_BOUNDS},     /* header bounds not the root's */
            {0, 12, 0xBF800000u, COPSE_ERR_BLOB_BOUNDS},      /* negative half size */
            {0, 0, 0x7FC00000u, COPSE_ERR_BLOB_BOUNDS},       /* NaN centre */
            {1, 24, 7, COPSE_ERR_BLOB_NODE},                  /* root's first child not node 1 */
            {1, 28, 1, COPSE_ERR_BLOB_NODE},                  /* a sibling for the root */
            {1, 36 * leaf1 + 28, leaf1, COPSE_ERR_BLOB_NODE}, /* a child its own sibling: a loop */
            {1, 36 * leaf1 + 28, 0, COPSE_ERR_BLOB_NODE},     /* back to the root */
            {1, 36 * leaf1 + 28, 0xFFFFFFFFu, COPSE_ERR_BLOB_NODE}, /* the other children lost */
            {1, 32, 0x80000006u, COPSE_ERR_BLOB_NODE},        /* the root a leaf */
            {1, 32, 5, COPSE_ERR_BLOB_NODE},                  /* the root's count */
            {1, 0, 0x7F800000u, COPSE_ERR_BLOB_BOUNDS},       /* infinite bound */
            {1, 0, 0x3F800000u, COPSE_ERR_BLOB_BOUNDS},       /* root min 1: not the exact bounds */
            {2, 0, 5, COPSE_ERR_BLOB_NODE},                   /* a bucket chain skips */
            {2, 4, 1, COPSE_ERR_BLOB_PRIM},                   /* a point twice (and one never) */
            {2, 4, 6, COPSE_ERR_BLOB_PRIM},                   /* a point out of range */
            {3, 0, 0x7F800000u, COPSE_ERR_BLOB_BOUNDS},       /* an infinite point */
            {3, 0, 0x42000000u, COPSE_ERR_BLOB_BOUNDS},       /* a point outside its leaf */
            {4, 0, 12345, COPSE_OK},                          /* an id may be anything */
        };
        corrupt(POINT, blob, size, cases, sizeof cases / sizeof cases[0]);
        {
            /* node 1 takes its next sibling's octant: two children in one octant */
            const uint32_t n1 = section_at(blob, 1) + 36u, sib = blob_get_word(blob, n1 + 28u);
            corruption same;
            if (CHECK(sib != 0xFFFFFFFFu && sib < nodes)) {
                const uint32_t other = blob_get_word(blob, section_at(blob, 1) + 36u * sib + 32u);
                same.section = 1;
                same.at = 36u + 32u;
                same.value = (blob_get_word(blob, n1 + 32u) & ~0x70000000u) | (other & 0x70000000u);
                same.want = COPSE_ERR_BLOB_NODE;
                corrupt(POINT, blob, size, &same, 1);
            }
        }
    }
    tk_context("loose statuses");
    if (small_loose(&ls) && (blob = save(LOOSE, &ls.tree, &size)) != NULL) {
        const uint32_t nodes = blob_get_word(blob, 32);
        const corruption cases[] = {
            {-1, 4, 0x00020001u, COPSE_ERR_BLOB_KIND},
            {-1, 56, 1, COPSE_ERR_BLOB_HEADER},               /* reserved tree info */
            {-1, 40, 6, COPSE_ERR_BLOB_HEADER},               /* size > objects */
            {-1, 44, COPSE_LOOSE_MAX_DEPTH + 1u, COPSE_ERR_TOO_DEEP},
            {-1, 52, 9, COPSE_ERR_BLOB_HEADER},               /* depth past max_depth + 1 */
            {-1, 32, nodes + 1u, COPSE_ERR_BLOB_SECTION},
            {-1, 36, 4, COPSE_ERR_BLOB_SECTION},              /* object slots vs section */
            {-1, 76, 0x3F800000u, COPSE_ERR_BLOB_BOUNDS},     /* header bounds not the union */
            {0, 12, 0x7F800000u, COPSE_ERR_BLOB_BOUNDS},      /* infinite half size */
            {1, 4, 1, COPSE_ERR_BLOB_NODE},                   /* a sibling for the root */
            {1, 12, 0x00000011u, COPSE_ERR_BLOB_NODE},        /* the root's octant */
            {1, 12, 0x00000FF0u, COPSE_ERR_BLOB_PRIM},        /* the root's object count */
            {2, 32 * 4 + 24, 0, COPSE_ERR_BLOB_PRIM},         /* an unused slot in a node */
            {2, 32 * 4 + 0, 0x3F800000u, COPSE_ERR_BLOB_PRIM}, /* an unused slot with a box */
            {2, 0, 0x7FC00000u, COPSE_ERR_BLOB_BOUNDS},       /* a NaN box */
            {2, 0, 0xC2C80000u, COPSE_ERR_BLOB_BOUNDS},       /* min x -100: no longer where it is */
        };
        corrupt(LOOSE, blob, size, cases, sizeof cases / sizeof cases[0]);
        loose_misplaced(blob, size);
    }
}

/* ---- saving ----------------------------------------------------------------------------------- */

static void save_guard(blob_kind kind, const void *tree)
{
    size_t size = 0, cap, i, written;
    uint8_t *blob = save_le(kind, tree, &size), *buf;
    bool intact;
    if (blob == NULL || (buf = (uint8_t *)tk_alloc(size + 32u)) == NULL)
        return;
    for (cap = 0; cap <= size; cap++) {
        memset(buf, 0xA5, size + 32u);
        written = 0;
        CHECK_STATUS(save_to(kind, tree, buf, cap, &written), cap < size ? COPSE_ERR_NOMEM : COPSE_OK);
        CHECK_EQ_INT(written, size);
        intact = true;
        for (i = cap < size ? 0 : size; i < size + 32u; i++)
            intact = intact && buf[i] == 0xA5;
        CHECKF(intact, "%s cap %lu: bytes written outside the blob or when short", tk_ctx(), (unsigned long)cap);
    }
    CHECK(memcmp(buf, blob, size) == 0); /* the same tree, the same bytes */
}

static void test_save_guard(void)
{
    ot_point_tree pt;
    loose_scene ls;
    tk_pool_reset();
    tk_context("point guard");
    if (small_point(&pt, false)) {
        save_guard(POINT, &pt.tree);
        /* no ids in the tree: the blob holds their indices, 5 sections, sizes as format.md */
        CHECK_EQ_INT(copse_octree_save_bytes(&pt.tree),
                     192u + ((36u * pt.tree.nodes_used + 15u) & ~15u) +
                         ((12u * pt.tree.buckets_used + 15u) & ~15u) + ((12u * 6u + 15u) & ~15u) + 4u * 6u);
    }
    tk_context("loose guard");
    if (small_loose(&ls)) {
        save_guard(LOOSE, &ls.tree);
        CHECK_EQ_INT(copse_loose_save_bytes(&ls.tree), 160u + 16u * ls.tree.nodes_used + 32u * 5u);
    }
}

static void test_bad_args(void)
{
    ot_point_tree pt;
    loose_scene ls;
    copse_octree zero_point, pv;
    copse_loose zero_loose, lv;
    size_t ps = 0, lsize = 0, written = 7;
    uint8_t *pblob, *lblob, *shifted;
    tk_pool_reset();
    tk_context("bad args");
    if (!small_point(&pt, true) || !small_loose(&ls) || (pblob = save(POINT, &pt.tree, &ps)) == NULL ||
        (lblob = save(LOOSE, &ls.tree, &lsize)) == NULL || (shifted = (uint8_t *)tk_alloc(ps + lsize + 8u)) == NULL)
        return;
    memset(&zero_point, 0, sizeof zero_point);
    memset(&zero_loose, 0, sizeof zero_loose);
    CHECK_EQ_INT(copse_octree_save_bytes(NULL), 0);
    CHECK_EQ_INT(copse_octree_save_bytes(&zero_point), 0);
    CHECK_EQ_INT(copse_loose_save_bytes(NULL), 0);
    CHECK_EQ_INT(copse_loose_save_bytes(&zero_loose), 0);
    CHECK_STATUS(copse_octree_save(NULL, shifted, ps, &written), COPSE_ERR_NULL);
    CHECK_EQ_INT(written, 0);
    CHECK_STATUS(copse_octree_save(&pt.tree, NULL, 8, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_save(&pt.tree, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(written, ps);
    CHECK_STATUS(copse_octree_save(&zero_point, shifted, ps, &written), COPSE_ERR_PARAM);
    CHECK_STATUS(copse_loose_save(NULL, shifted, lsize, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_save(&ls.tree, NULL, 8, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_save(&ls.tree, NULL, 0, NULL), COPSE_ERR_NOMEM);
    CHECK_STATUS(copse_loose_save(&zero_loose, shifted, lsize, &written), COPSE_ERR_PARAM);
    /* a tree that no longer passes its check, or a point that became infinite, is not saved */
    pt.tree.nodes[0].meta ^= 1u;
    CHECK_STATUS(copse_octree_save(&pt.tree, shifted, ps, &written), COPSE_ERR_PARAM);
    CHECK_EQ_INT(written, 0);
    pt.tree.nodes[0].meta ^= 1u;
    ((copse_vec3 *)(uintptr_t)pt.points)[0].x = FLT_MAX * 2.0f; /* no longer finite: as documented */
    CHECK_STATUS(copse_octree_save(&pt.tree, shifted, ps, &written), COPSE_ERR_NONFINITE);
    ls.tree.objects[0].box.min.x = -FLT_MAX * 2.0f;
    CHECK_STATUS(copse_loose_save(&ls.tree, shifted, lsize, &written), COPSE_ERR_NONFINITE);

    CHECK_STATUS(copse_octree_view(NULL, pblob, ps), COPSE_ERR_NULL);
    CHECK_STATUS(copse_octree_view(&pv, NULL, ps), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_view(NULL, lblob, lsize), COPSE_ERR_NULL);
    CHECK_STATUS(copse_loose_view(&lv, NULL, lsize), COPSE_ERR_NULL);
    memcpy(shifted + 1, pblob, ps);
    CHECK_STATUS(copse_octree_view(&pv, shifted + 1, ps), COPSE_ERR_ALIGN);
    memcpy(shifted + 2, lblob, lsize);
    CHECK_STATUS(copse_loose_view(&lv, shifted + 2, lsize), COPSE_ERR_ALIGN);
    CHECK_STATUS(copse_octree_view(&pv, lblob, lsize), COPSE_ERR_BLOB_KIND);
    CHECK(pv.nodes == NULL && !pv.read_only);
    CHECK_STATUS(copse_loose_view(&lv, pblob, ps), COPSE_ERR_BLOB_KIND);
    CHECK(lv.nodes == NULL && !lv.read_only);
    /* a refused view is an empty tree: queries find nothing, changes are PARAM */
    {
        uint32_t ids[2];
        copse_id_list list = copse_id_list_make(ids, 2);
        copse_box3 box = copse_box3_make(-1e30f, -1e30f, -1e30f, 1e30f, 1e30f, 1e30f);
        CHECK_STATUS(copse_octree_overlap_box(&pv, &box, &list), COPSE_OK);
        CHECK(list.count == 0u);
        CHECK_STATUS(copse_octree_insert(&pv, 0), COPSE_ERR_PARAM);
        CHECK_STATUS(copse_loose_overlap_box(&lv, &box, &list), COPSE_OK);
        CHECK(list.count == 0u);
        CHECK_STATUS(copse_loose_insert(&lv, 0, &box), COPSE_ERR_PARAM);
    }
    CHECK_STATUS(copse_octree_view(&pv, pblob, ps), COPSE_OK);
    CHECK_STATUS(copse_loose_view(&lv, lblob, lsize), COPSE_OK);
}

void suite_blob_octree(void)
{
    test_run("blob_octree/point_round_trips", test_point_round_trips);
    test_run("blob_octree/loose_round_trips", test_loose_round_trips);
    test_run("blob_octree/same_bytes_point", test_same_bytes_point);
    test_run("blob_octree/same_bytes_loose", test_same_bytes_loose);
    test_run("blob_octree/truncation_and_corruption", test_truncation_and_corruption);
    test_run("blob_octree/specific_statuses", test_specific_statuses);
    test_run("blob_octree/save_guard", test_save_guard);
    test_run("blob_octree/bad_args", test_bad_args);
}

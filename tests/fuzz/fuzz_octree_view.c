/* SPDX-License-Identifier: MIT */
/* Fuzz target: the octree views. The input is a blob (the corpus holds real saves of point
 * and loose octrees), then bytes that pick the queries. Both views are tried on it: each
 * fails with a specific status and leaves the tree empty, or accepts. An accepted tree goes
 * through every query of its kind, list form against visitor form (point: box, sphere,
 * capsule, any_capsule, k nearest against the nearest visitor and nearest; loose: box,
 * sphere, frustum, first hit against all hits), refuses changes (READ_ONLY), and must then
 * pass its check; when the check holds, box queries also equal brute force over the blob. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_K = 8 };

typedef struct query_shapes {
    copse_box3 box;
    copse_sphere sphere;
    copse_segment3 segment;
    float t_max;
} query_shapes;

/* Seven coordinates make a box (a corner and sizes, possibly inverted), a sphere (possibly of
 * negative radius) and a segment. */
static query_shapes read_shapes(fuzz_reader *r)
{
    query_shapes s;
    float c[7];
    unsigned a;
    for (a = 0; a < 7u; a++)
        c[a] = fuzz_coord(r);
    s.box = copse_box3_make(c[0], c[1], c[2], c[0] + c[3], c[1] + 2.0f, c[2] + 3.0f);
    s.sphere.center = copse_v3(c[0], c[1], c[2]);
    s.sphere.radius = c[3];
    s.segment.a = s.sphere.center;
    s.segment.b = copse_v3(c[4], c[5], c[6]);
    s.t_max = fuzz_u8(r) < 128u ? FLT_MAX : c[3];
    return s;
}

static bool box_touch(const copse_box3 *a, const copse_box3 *b)
{
    return a->min.x <= b->max.x && a->max.x >= b->min.x && a->min.y <= b->max.y && a->max.y >= b->min.y &&
           a->min.z <= b->max.z && a->max.z >= b->min.z;
}

/* A list of FUZZ_CAP against the brute-force count of what it should hold. */
static void brute_count(const copse_id_list *list, uint32_t expected, const char *query)
{
    FUZZ_ASSERT(list->count == (expected < FUZZ_CAP ? expected : FUZZ_CAP) && list->truncated == (expected > FUZZ_CAP),
                "%s: %u listed (truncated %d), brute force %u", query, (unsigned)list->count, (int)list->truncated,
                (unsigned)expected);
}

/* ---- point octree ---------------------------------------------------------------------------- */

typedef struct neighbor_collect {
    copse_neighbor items[MAX_K];
    uint32_t count, capacity;
} neighbor_collect;

static bool collect_neighbor(void *user, const copse_neighbor *n)
{
    neighbor_collect *c = (neighbor_collect *)user;
    c->items[c->count++] = *n;
    return c->count < c->capacity;
}

static void point_knn(const copse_octree *t, fuzz_reader *r, copse_vec3 p, float max_distance)
{
    copse_neighbor items[MAX_K], scratch[4];
    const uint32_t k = 1u + fuzz_u8(r) % MAX_K, batch = 1u + fuzz_u8(r) % 4u;
    copse_neighbor_list knn = copse_neighbor_list_make(items, k);
    neighbor_collect visited;
    copse_nearest3 nearest;
    copse_status st = copse_octree_knn(t, p, max_distance, &knn), st_visit, st_nearest;
    uint32_t i;
    fuzz_query_status(st, "knn");
    FUZZ_ASSERT(knn.count <= k && knn.count <= t->size, "knn: %u of k %u, %u points", (unsigned)knn.count,
                (unsigned)k, (unsigned)t->size);
    for (i = 0; i < knn.count; i++) {
        FUZZ_ASSERT(items[i].index < t->size, "knn: index %u of %u", (unsigned)items[i].index, (unsigned)t->size);
        FUZZ_ASSERT(i == 0 || items[i - 1u].distance_sq < items[i].distance_sq ||
                        (items[i - 1u].distance_sq == items[i].distance_sq && items[i - 1u].id < items[i].id),
                    "knn: entry %u not after entry %u in (distance, id)", (unsigned)i, (unsigned)(i - 1u));
    }
    memset(&visited, 0, sizeof visited);
    visited.capacity = k;
    st_visit = copse_octree_visit_nearest(t, p, max_distance, scratch, batch, collect_neighbor, &visited);
    FUZZ_ASSERT(st_visit == st, "knn %s, visit_nearest %s", copse_status_str(st), copse_status_str(st_visit));
    FUZZ_ASSERT(visited.count == knn.count, "knn %u, visit_nearest %u (batch %u)", (unsigned)knn.count,
                (unsigned)visited.count, (unsigned)batch);
    for (i = 0; i < knn.count; i++)
        FUZZ_ASSERT(visited.items[i].id == items[i].id && visited.items[i].distance_sq == items[i].distance_sq,
                    "knn and visit_nearest differ at %u: id %u, %u", (unsigned)i, (unsigned)items[i].id,
                    (unsigned)visited.items[i].id);
    st_nearest = copse_octree_nearest(t, p, max_distance, &nearest);
    FUZZ_ASSERT(st_nearest == st, "knn %s, nearest %s", copse_status_str(st), copse_status_str(st_nearest));
    if (st == COPSE_OK)
        FUZZ_ASSERT(knn.count == 0 ? nearest.id == COPSE_NONE
                                   : nearest.id == items[0].id && nearest.distance_sq == items[0].distance_sq,
                    "nearest %u, first of knn %u", (unsigned)nearest.id, knn.count ? (unsigned)items[0].id : 0u);
}

static void point_queries(copse_octree *t, fuzz_reader *r, bool exact)
{
    uint32_t ids[FUZZ_CAP], q;
    for (q = 0; q < 3u; q++) {
        const query_shapes s = read_shapes(r);
        const copse_capsule capsule = {s.segment, s.sphere.radius};
        copse_id_list list = copse_id_list_make(ids, FUZZ_CAP);
        fuzz_collect visited;
        uint32_t any = 0, i, expected = 0;
        copse_status st = copse_octree_overlap_box(t, &s.box, &list);
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(st, "overlap_box");
        fuzz_query_status(copse_octree_visit_box(t, &s.box, fuzz_collect_id, &visited), "visit_box");
        fuzz_same_ids(&list, &visited, "overlap_box");
        for (i = 0; exact && st == COPSE_OK && i < t->size; i++) {
            const copse_vec3 *p = &t->points[i];
            expected += p->x >= s.box.min.x && p->x <= s.box.max.x && p->y >= s.box.min.y && p->y <= s.box.max.y &&
                        p->z >= s.box.min.z && p->z <= s.box.max.z;
        }
        if (exact && st == COPSE_OK)
            brute_count(&list, expected, "overlap_box");

        list = copse_id_list_make(ids, FUZZ_CAP);
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(copse_octree_overlap_sphere(t, &s.sphere, &list), "overlap_sphere");
        fuzz_query_status(copse_octree_visit_sphere(t, &s.sphere, fuzz_collect_id, &visited), "visit_sphere");
        fuzz_same_ids(&list, &visited, "overlap_sphere");

        list = copse_id_list_make(ids, FUZZ_CAP);
        memset(&visited, 0, sizeof visited);
        st = copse_octree_overlap_capsule(t, &capsule, &list);
        fuzz_query_status(st, "overlap_capsule");
        fuzz_query_status(copse_octree_visit_capsule(t, &capsule, fuzz_collect_id, &visited), "visit_capsule");
        fuzz_same_ids(&list, &visited, "overlap_capsule");
        FUZZ_ASSERT(copse_octree_any_capsule(t, &capsule, NULL, &any) == st, "any_capsule and overlap_capsule differ in status");
        if (st == COPSE_OK)
            FUZZ_ASSERT(list.count == 0 ? any == COPSE_NONE : any == ids[0], "any_capsule %u, first listed %u",
                        (unsigned)any, list.count ? (unsigned)ids[0] : 0u);

        point_knn(t, r, s.segment.b, s.t_max);
    }
    FUZZ_ASSERT(copse_octree_insert(t, 0) == COPSE_ERR_READ_ONLY && copse_octree_remove(t, 0) == COPSE_ERR_READ_ONLY,
                "a view accepted a change");
}

static void point_view(const uint8_t *blob, size_t size, const uint8_t *tail, size_t tail_size)
{
    copse_octree t;
    fuzz_reader r;
    copse_status st = copse_octree_view(&t, blob, size), check;
    FUZZ_ASSERT(st == COPSE_OK || fuzz_view_status(st), "octree_view: %s", copse_status_str(st));
    if (st != COPSE_OK) {
        FUZZ_ASSERT(t.nodes == NULL && t.size == 0, "failed octree view left a tree");
        return;
    }
    check = copse_octree_check(&t);
    fuzz_reader_init(&r, tail, tail_size);
    point_queries(&t, &r, check == COPSE_OK);
    FUZZ_ASSERT(check == COPSE_OK, "octree view accepted a tree its check refuses: %s", copse_status_str(check));
}

/* ---- loose octree ---------------------------------------------------------------------------- */

typedef struct hit_collect {
    copse_hit nearest; /* the lowest t visited */
    uint32_t count;
} hit_collect;

static bool collect_hit(void *user, const copse_hit *hit)
{
    hit_collect *c = (hit_collect *)user;
    if (c->count == 0 || hit->t < c->nearest.t)
        c->nearest = *hit;
    return ++c->count < 100000u;
}

static copse_frustum read_frustum(fuzz_reader *r)
{
    copse_frustum f;
    unsigned i;
    for (i = 0; i < 6u; i++) {
        f.planes[i].normal.x = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
        f.planes[i].normal.y = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
        f.planes[i].normal.z = (float)((int32_t)fuzz_u8(r) - 128) / 16.0f;
        f.planes[i].dist = fuzz_coord(r);
    }
    return f;
}

static void loose_queries(copse_loose *t, fuzz_reader *r, bool exact)
{
    uint32_t ids[FUZZ_CAP], q;
    for (q = 0; q < 3u; q++) {
        const query_shapes s = read_shapes(r);
        const copse_frustum frustum = read_frustum(r);
        const copse_ray3 ray = {s.segment.a, s.segment.b, s.t_max};
        copse_id_list list = copse_id_list_make(ids, FUZZ_CAP);
        fuzz_collect visited;
        hit_collect hits;
        copse_hit first;
        uint32_t i, expected = 0;
        copse_status st = copse_loose_overlap_box(t, &s.box, &list), st_visit;
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(st, "loose overlap_box");
        fuzz_query_status(copse_loose_visit_box(t, &s.box, fuzz_collect_id, &visited), "loose visit_box");
        fuzz_same_ids(&list, &visited, "loose overlap_box");
        for (i = 0; exact && st == COPSE_OK && i < t->max_objects; i++)
            expected += t->objects[i].node != COPSE_NONE && box_touch(&t->objects[i].box, &s.box);
        if (exact && st == COPSE_OK)
            brute_count(&list, expected, "loose overlap_box");

        list = copse_id_list_make(ids, FUZZ_CAP);
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(copse_loose_overlap_sphere(t, &s.sphere, &list), "loose overlap_sphere");
        fuzz_query_status(copse_loose_visit_sphere(t, &s.sphere, fuzz_collect_id, &visited), "loose visit_sphere");
        fuzz_same_ids(&list, &visited, "loose overlap_sphere");

        list = copse_id_list_make(ids, FUZZ_CAP);
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(copse_loose_cull(t, &frustum, &list), "loose cull");
        fuzz_query_status(copse_loose_visit_frustum(t, &frustum, fuzz_collect_id, &visited), "loose visit_frustum");
        fuzz_same_ids(&list, &visited, "loose cull");

        memset(&hits, 0, sizeof hits);
        st = copse_loose_raycast(t, &ray, &first);
        st_visit = copse_loose_visit_ray(t, &ray, collect_hit, &hits);
        fuzz_query_status(st, "loose raycast");
        FUZZ_ASSERT(st == st_visit, "raycast %s, visit_ray %s", copse_status_str(st), copse_status_str(st_visit));
        if (st == COPSE_OK) {
            FUZZ_ASSERT((first.id == COPSE_NONE) == (hits.count == 0), "first hit %u but %u hits visited",
                        (unsigned)first.id, (unsigned)hits.count);
            FUZZ_ASSERT(hits.count == 0 || fuzz_t_close(first.t, hits.nearest.t),
                        "first hit %u at t %g, nearest visited %u at %g", (unsigned)first.id, (double)first.t,
                        (unsigned)hits.nearest.id, (double)hits.nearest.t);
        }
    }
    {
        const copse_box3 box = copse_box3_make(0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f);
        FUZZ_ASSERT(copse_loose_insert(t, 0, &box) == COPSE_ERR_READ_ONLY && copse_loose_remove(t, 0) == COPSE_ERR_READ_ONLY &&
                        copse_loose_move(t, 0, &box) == COPSE_ERR_READ_ONLY,
                    "a loose view accepted a change");
    }
}

static void loose_view(const uint8_t *blob, size_t size, const uint8_t *tail, size_t tail_size)
{
    copse_loose t;
    fuzz_reader r;
    copse_status st = copse_loose_view(&t, blob, size), check;
    FUZZ_ASSERT(st == COPSE_OK || fuzz_view_status(st), "loose_view: %s", copse_status_str(st));
    if (st != COPSE_OK) {
        FUZZ_ASSERT(t.nodes == NULL && t.size == 0, "failed loose view left a tree");
        return;
    }
    check = copse_loose_check(&t);
    fuzz_reader_init(&r, tail, tail_size);
    loose_queries(&t, &r, check == COPSE_OK);
    FUZZ_ASSERT(check == COPSE_OK, "loose view accepted a tree its check refuses: %s", copse_status_str(check));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *blob = fuzz_blob_copy(data, size);
    const size_t blob_size = fuzz_blob_part(data, size);
    if (blob == NULL)
        return 0;
    point_view(blob, size, data + blob_size, size - blob_size);
    loose_view(blob, size, data + blob_size, size - blob_size);
    free(blob);
    return 0;
}

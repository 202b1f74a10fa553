/* SPDX-License-Identifier: MIT */
/* Fuzz target: the BSP views. The input is a blob (the corpus holds real saves of 2D and 3D
 * trees), then bytes that pick the queries. Both views are tried on it: each fails with a
 * specific status and leaves the tree empty, or accepts. An accepted tree answers every query
 * of its dimension with OK or a specific status and answers that stay in range (leaves,
 * objects, brushes, witnesses, t in [0, 1]); 2D: the leaves-in-box list equals its visitor,
 * back-to-front is front-to-back reversed; both: dumps are NUL-terminated at the length they
 * report, or cut at the capacity with NOMEM. Then the tree must pass its check. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* A dump into an exact malloc of 1..4096 bytes: the text is as long as *length says, or cut
 * at cap - 1 with NOMEM. */
typedef copse_status (*dump_fn)(const void *tree, copse_bsp_order order, char *buf, size_t cap, size_t *length);

static copse_status dump2(const void *tree, copse_bsp_order order, char *buf, size_t cap, size_t *length)
{
    return copse_bsp2_dump((const copse_bsp2 *)tree, order, buf, cap, length);
}

static copse_status dump3(const void *tree, copse_bsp_order order, char *buf, size_t cap, size_t *length)
{
    return copse_bsp3_dump((const copse_bsp3 *)tree, order, buf, cap, length);
}

static void check_dumps(const void *tree, dump_fn dump, fuzz_reader *r)
{
    unsigned order;
    for (order = 0; order < 2u; order++) {
        const size_t cap = 1u + ((fuzz_u8(r) | (fuzz_u8(r) << 8)) & 4095u);
        char *buf = (char *)malloc(cap);
        size_t length = 0, shown;
        copse_status st;
        if (buf == NULL)
            return;
        st = dump(tree, (copse_bsp_order)order, buf, cap, &length);
        FUZZ_ASSERT(st == COPSE_OK || st == COPSE_ERR_NOMEM, "dump: %s", copse_status_str(st));
        shown = fuzz_text_len(buf, cap);
        FUZZ_ASSERT(shown < cap, "dump not NUL-terminated within %zu bytes", cap);
        FUZZ_ASSERT(st == COPSE_OK ? shown == length : shown == cap - 1u && length >= cap,
                    "dump %s: %zu chars shown, length %zu, cap %zu", copse_status_str(st), shown, length, cap);
        free(buf);
    }
}

/* ---- 2D -------------------------------------------------------------------------------------- */

static bool is_leaf2(const copse_bsp2 *t, uint32_t node)
{
    return node < t->node_count && (t->nodes[node].info & 3u) == COPSE_BSP2_LEAF;
}

typedef struct pair_count {
    uint32_t objects, pairs;
} pair_count;

static bool count_pair(void *user, uint32_t a, uint32_t b)
{
    pair_count *c = (pair_count *)user;
    FUZZ_ASSERT(a < b && b < c->objects, "pair (%u, %u) of %u objects", (unsigned)a, (unsigned)b, (unsigned)c->objects);
    return ++c->pairs < 100000u;
}

static void bsp2_orders(const copse_bsp2 *t, copse_vec2 eye)
{
    fuzz_collect front, back;
    copse_status st_front, st_back;
    uint32_t i;
    memset(&front, 0, sizeof front);
    memset(&back, 0, sizeof back);
    st_front = copse_bsp2_visit_front_to_back(t, eye, fuzz_collect_id, &front);
    st_back = copse_bsp2_visit_back_to_front(t, eye, fuzz_collect_id, &back);
    fuzz_query_status(st_front, "visit_front_to_back");
    FUZZ_ASSERT(st_front == st_back, "front_to_back %s, back_to_front %s", copse_status_str(st_front),
                copse_status_str(st_back));
    for (i = 0; i < front.count; i++)
        FUZZ_ASSERT(is_leaf2(t, front.ids[i]) && is_leaf2(t, back.ids[i]), "visit order: node %u or %u not a leaf",
                    (unsigned)front.ids[i], (unsigned)back.ids[i]);
    if (st_front != COPSE_OK || front.truncated || back.truncated)
        return;
    FUZZ_ASSERT(front.count == t->leaf_count && back.count == t->leaf_count, "orders visit %u and %u of %u leaves",
                (unsigned)front.count, (unsigned)back.count, (unsigned)t->leaf_count);
    for (i = 0; i < front.count; i++)
        FUZZ_ASSERT(front.ids[i] == back.ids[front.count - 1u - i], "back-to-front is not front-to-back reversed");
}

static void bsp2_queries(const copse_bsp2 *t, fuzz_reader *r)
{
    uint32_t ids[FUZZ_CAP], q;
    for (q = 0; q < 3u; q++) {
        const copse_vec2 p = {fuzz_coord(r), fuzz_coord(r)};
        const float w = fuzz_coord(r), h = fuzz_coord(r);
        const copse_box2 box = copse_box2_make(p.x, p.y, p.x + w, p.y + h);
        const copse_circle circle = {p, w};
        const copse_segment2 seg = {p, {p.x + w, p.y + h}};
        copse_id_list list = copse_id_list_make(ids, FUZZ_CAP);
        fuzz_collect visited;
        copse_bsp2_where where;
        copse_bsp2_trace trace;
        uint32_t hit_id = COPSE_NONE;
        copse_status st = copse_bsp2_locate(t, p, &where);
        fuzz_query_status(st, "locate");
        FUZZ_ASSERT(st != COPSE_OK || where.solid == (where.id != COPSE_NONE), "locate: solid %d, object %u",
                    (int)where.solid, (unsigned)where.id);
        FUZZ_ASSERT(st != COPSE_OK || where.id == COPSE_NONE || where.id < t->object_count,
                    "locate: object %u of %u", (unsigned)where.id, (unsigned)t->object_count);
        FUZZ_ASSERT(st != COPSE_OK || where.leaf == COPSE_NONE || is_leaf2(t, where.leaf), "locate: leaf %u",
                    (unsigned)where.leaf);
        fuzz_query_status(copse_bsp2_any_box(t, &box, &hit_id), "bsp2 any_box");
        FUZZ_ASSERT(hit_id == COPSE_NONE || hit_id < t->object_count, "any: object %u", (unsigned)hit_id);
        fuzz_query_status(copse_bsp2_any_circle(t, &circle, &hit_id), "bsp2 any_circle");
        FUZZ_ASSERT(hit_id == COPSE_NONE || hit_id < t->object_count, "any: object %u", (unsigned)hit_id);
        st = copse_sweep_point_bsp2(&seg, t, &trace);
        fuzz_query_status(st, "sweep_point_bsp2");
        FUZZ_ASSERT(st != COPSE_OK || (trace.t >= 0.0f && trace.t <= 1.0f), "sweep_point_bsp2: t %g", (double)trace.t);
        FUZZ_ASSERT(st != COPSE_OK || !trace.hit || trace.id < t->object_count, "sweep_point_bsp2: object %u of %u",
                    (unsigned)trace.id, (unsigned)t->object_count);
        bsp2_orders(t, p);
        memset(&visited, 0, sizeof visited);
        fuzz_query_status(copse_bsp2_overlap_box_leaves(t, &box, &list), "overlap_box_leaves");
        fuzz_query_status(copse_bsp2_visit_box_leaves(t, &box, fuzz_collect_id, &visited), "visit_box_leaves");
        fuzz_same_ids(&list, &visited, "overlap_box_leaves");
    }
    {
        const uint32_t *objects = NULL;
        uint32_t count = 0, k;
        const uint32_t leaf = t->node_count > 0u ? fuzz_u32(r) % t->node_count : 0u;
        const copse_status st = copse_bsp2_leaf_objects(t, leaf, &objects, &count);
        FUZZ_ASSERT(st == COPSE_OK || st == COPSE_ERR_INDEX, "leaf_objects: %s", copse_status_str(st));
        for (k = 0; st == COPSE_OK && k < count; k++)
            FUZZ_ASSERT(objects[k] < t->object_count, "leaf %u lists object %u of %u", (unsigned)leaf,
                        (unsigned)objects[k], (unsigned)t->object_count);
    }
    {
        pair_count pairs = {t->object_count, 0};
        fuzz_query_status(copse_bsp2_visit_pairs(t, count_pair, &pairs), "visit_pairs");
    }
    check_dumps(t, dump2, r);
}

static void bsp2_view(const uint8_t *blob, size_t size, const uint8_t *tail, size_t tail_size)
{
    copse_bsp2 t;
    fuzz_reader r;
    copse_status st = copse_bsp2_view(&t, blob, size), check;
    FUZZ_ASSERT(st == COPSE_OK || fuzz_view_status(st), "bsp2_view: %s", copse_status_str(st));
    if (st != COPSE_OK) {
        FUZZ_ASSERT(t.node_count == 0 && t.nodes == NULL, "failed bsp2 view left a tree");
        return;
    }
    check = copse_bsp2_check(&t);
    fuzz_reader_init(&r, tail, tail_size);
    bsp2_queries(&t, &r);
    FUZZ_ASSERT(check == COPSE_OK, "bsp2 view accepted a tree its check refuses: %s", copse_status_str(check));
}

/* ---- 3D -------------------------------------------------------------------------------------- */

static void check_trace(const copse_bsp3 *t, copse_status st, const copse_bsp3_trace *trace, const char *query)
{
    fuzz_query_status(st, query);
    if (st != COPSE_OK)
        return;
    FUZZ_ASSERT(trace->t >= 0.0f && trace->t <= 1.0f, "%s: t %g", query, (double)trace->t);
    FUZZ_ASSERT(!trace->start_solid || (trace->hit && trace->t == 0.0f), "%s: start solid, t %g", query,
                (double)trace->t);
    FUZZ_ASSERT(trace->id == COPSE_NONE || trace->id < t->brush_count, "%s: brush %u of %u", query,
                (unsigned)trace->id, (unsigned)t->brush_count);
}

static void bsp3_queries(const copse_bsp3 *t, fuzz_reader *r)
{
    uint32_t q;
    for (q = 0; q < 3u; q++) {
        const copse_vec3 p = {fuzz_coord(r), fuzz_coord(r), fuzz_coord(r)};
        const copse_segment3 seg = {p, {fuzz_coord(r), fuzz_coord(r), fuzz_coord(r)}};
        const float radius = fuzz_coord(r);
        const copse_box3 box = copse_box3_make(p.x, p.y, p.z, p.x + radius, p.y + 2.0f, p.z + 0.5f);
        copse_bsp3_where where;
        copse_bsp3_trace trace;
        uint32_t hit_id = COPSE_NONE;
        copse_status st = copse_bsp3_contents(t, p, &where);
        fuzz_query_status(st, "contents");
        FUZZ_ASSERT(st != COPSE_OK || where.leaf == COPSE_NONE || where.leaf < t->leaf_count,
                    "contents: leaf %u of %u", (unsigned)where.leaf, (unsigned)t->leaf_count);
        check_trace(t, copse_sweep_point_bsp3(&seg, t, &trace), &trace, "sweep_point_bsp3");
        check_trace(t, copse_sweep_sphere_bsp3(&seg, radius, t, &trace), &trace, "sweep_sphere_bsp3");
        fuzz_query_status(copse_bsp3_any_box(t, &box, &hit_id), "bsp3 any_box");
        FUZZ_ASSERT(hit_id == COPSE_NONE || hit_id < t->brush_count, "any_box: brush %u", (unsigned)hit_id);
    }
    check_dumps(t, dump3, r);
}

static void bsp3_view(const uint8_t *blob, size_t size, const uint8_t *tail, size_t tail_size)
{
    copse_bsp3 t;
    fuzz_reader r;
    copse_status st = copse_bsp3_view(&t, blob, size), check;
    FUZZ_ASSERT(st == COPSE_OK || fuzz_view_status(st), "bsp3_view: %s", copse_status_str(st));
    if (st != COPSE_OK) {
        FUZZ_ASSERT(t.node_count == 0 && t.nodes == NULL, "failed bsp3 view left a tree");
        return;
    }
    check = copse_bsp3_check(&t);
    fuzz_reader_init(&r, tail, tail_size);
    bsp3_queries(&t, &r);
    FUZZ_ASSERT(check == COPSE_OK, "bsp3 view accepted a tree its check refuses: %s", copse_status_str(check));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *blob = fuzz_blob_copy(data, size);
    const size_t blob_size = fuzz_blob_part(data, size);
    if (blob == NULL)
        return 0;
    bsp2_view(blob, size, data + blob_size, size - blob_size);
    bsp3_view(blob, size, data + blob_size, size - blob_size);
    free(blob);
    return 0;
}

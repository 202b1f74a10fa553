/* SPDX-License-Identifier: MIT */
/* Fuzz target: the point octree (bulk build, then removes and inserts) and the loose octree
 * (inserts, moves, removes) fed arbitrary floats and pool sizes. Pools and scratch are exact
 * mallocs (ASan sees a write past them). Every call returns OK or a specific status; after
 * the sequence copse_octree_check / copse_loose_check pass, and box queries equal brute force
 * over what is in the tree (closed boxes). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_POINTS = 256 };

static bool tree_status(copse_status st)
{
    return st == COPSE_ERR_NONFINITE || st == COPSE_ERR_INDEX || st == COPSE_ERR_NOMEM ||
           st == COPSE_ERR_EMPTY_RANGE || st == COPSE_ERR_PARAM;
}

static bool point_in(const copse_vec3 *p, const copse_box3 *b)
{
    return p->x >= b->min.x && p->x <= b->max.x && p->y >= b->min.y && p->y <= b->max.y && p->z >= b->min.z &&
           p->z <= b->max.z;
}

static bool box_touch(const copse_box3 *a, const copse_box3 *b)
{
    return a->min.x <= b->max.x && a->max.x >= b->min.x && a->min.y <= b->max.y && a->max.y >= b->min.y &&
           a->min.z <= b->max.z && a->max.z >= b->min.z;
}

static copse_box3 query_box(fuzz_reader *r)
{
    const float x = fuzz_coord(r), y = fuzz_coord(r), z = fuzz_coord(r);
    const float w = (float)fuzz_u8(r) / 4.0f;
    return copse_box3_make(x, y, z, x + w, y + w, z + w);
}

/* A list (capacity MAX_POINTS, never truncated here) holds exactly the expected ids. */
static void same_set(const copse_id_list *list, const bool *expected, uint32_t n, const char *what)
{
    uint32_t k, want = 0;
    for (k = 0; k < n; k++)
        want += expected[k] ? 1u : 0u;
    FUZZ_ASSERT(list->count == want && !list->truncated, "%s: %u listed, %u expected", what, (unsigned)list->count,
                (unsigned)want);
    for (k = 0; k < list->count; k++)
        FUZZ_ASSERT(list->ids[k] < n && expected[list->ids[k]], "%s: id %u not expected", what,
                    (unsigned)list->ids[k]);
}

static void point_octree(fuzz_reader *r, const copse_vec3 *pts, uint32_t n)
{
    copse_octree_config cfg;
    copse_octree tree;
    copse_arena arena, scratch;
    uint8_t *pool, *scr;
    size_t bytes, sbytes;
    bool in[MAX_POINTS], expect[MAX_POINTS];
    uint32_t ids[MAX_POINTS], i;
    copse_status st;
    memset(&cfg, 0, sizeof cfg);
    cfg.points = pts;
    cfg.point_capacity = n;
    cfg.bounds = copse_box3_make(-64.0f, -64.0f, -64.0f, 64.0f, 64.0f, 64.0f);
    cfg.max_nodes = 1u + fuzz_u8(r);
    cfg.max_buckets = fuzz_u8(r);
    cfg.leaf_size = 1u + (fuzz_u8(r) & 15u);
    cfg.bucket_size = 1u + (fuzz_u8(r) & 7u);
    cfg.max_depth = fuzz_u8(r) % (COPSE_OCTREE_MAX_DEPTH + 1u);
    bytes = copse_octree_bytes(&cfg);
    pool = (uint8_t *)malloc(bytes + 1u);
    if (pool == NULL)
        return;
    copse_arena_init(&arena, pool, bytes);
    st = copse_octree_init(&tree, &arena, &cfg);
    FUZZ_ASSERT(st == COPSE_OK, "octree init: %s", copse_status_str(st));
    sbytes = copse_octree_build_scratch_bytes(&tree, n);
    scr = (uint8_t *)malloc(sbytes + 1u);
    if (scr == NULL) {
        free(pool);
        return;
    }
    copse_arena_init(&scratch, scr, sbytes);
    st = copse_octree_build(&tree, &scratch, n);
    FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "octree build: %s", copse_status_str(st));
    FUZZ_ASSERT(scratch.used == 0, "scratch not given back");
    for (i = 0; i < n; i++)
        in[i] = st == COPSE_OK;
    for (i = 0; i < 2u * n; i++) { /* removes and inserts */
        const uint32_t idx = fuzz_u8(r) % (n + 1u); /* n: out of range */
        const bool remove = (fuzz_u8(r) & 1u) != 0u;
        st = remove ? copse_octree_remove(&tree, idx) : copse_octree_insert(&tree, idx);
        FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "octree %s: %s", remove ? "remove" : "insert",
                    copse_status_str(st));
        if (st == COPSE_OK)
            in[idx] = !remove;
    }
    st = copse_octree_check(&tree);
    FUZZ_ASSERT(st == COPSE_OK, "octree check: %s", copse_status_str(st));
    for (i = 0; i < 4u; i++) {
        const copse_box3 q = query_box(r);
        copse_id_list list = copse_id_list_make(ids, MAX_POINTS);
        uint32_t k;
        st = copse_octree_overlap_box(&tree, &q, &list);
        FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "overlap_box: %s", copse_status_str(st));
        if (st != COPSE_OK)
            continue;
        for (k = 0; k < n; k++)
            expect[k] = in[k] && point_in(&pts[k], &q);
        same_set(&list, expect, n, "octree overlap_box");
    }
    {
        copse_neighbor near[4];
        copse_neighbor_list knn = copse_neighbor_list_make(near, 4);
        uint32_t k, size = 0;
        const copse_vec3 p = {fuzz_coord(r), fuzz_coord(r), fuzz_coord(r)};
        for (k = 0; k < n; k++)
            size += in[k] ? 1u : 0u;
        st = copse_octree_knn(&tree, p, 3.0e38f, &knn);
        FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "knn: %s", copse_status_str(st));
        FUZZ_ASSERT(st != COPSE_OK || knn.count <= (size < 4u ? size : 4u), "knn: %u of %u points",
                    (unsigned)knn.count, (unsigned)size);
        for (k = 0; st == COPSE_OK && k < knn.count; k++)
            FUZZ_ASSERT(near[k].index < n && in[near[k].index] && (k == 0 || !(near[k].distance_sq < near[k - 1u].distance_sq)),
                        "knn: entry %u not in the tree or not sorted", (unsigned)k);
    }
    free(scr);
    free(pool);
}

static void loose_octree(fuzz_reader *r, const copse_vec3 *pts, uint32_t n)
{
    copse_loose_config cfg;
    copse_loose tree;
    copse_arena arena;
    copse_box3 boxes[MAX_POINTS];
    bool in[MAX_POINTS], expect[MAX_POINTS];
    uint32_t ids[MAX_POINTS], i;
    uint8_t *pool;
    size_t bytes;
    copse_status st;
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(-64.0f, -64.0f, -64.0f, 64.0f, 64.0f, 64.0f);
    cfg.max_nodes = 1u + fuzz_u8(r);
    cfg.max_objects = n;
    cfg.max_depth = fuzz_u8(r) % (COPSE_LOOSE_MAX_DEPTH + 1u);
    cfg.node_capacity = fuzz_u8(r) & 7u;
    if (n == 0)
        return;
    bytes = copse_loose_bytes(&cfg);
    pool = (uint8_t *)malloc(bytes + 1u);
    if (pool == NULL)
        return;
    copse_arena_init(&arena, pool, bytes);
    st = copse_loose_init(&tree, &arena, &cfg);
    FUZZ_ASSERT(st == COPSE_OK, "loose init: %s", copse_status_str(st));
    for (i = 0; i < n; i++) {
        const float w = (float)fuzz_u8(r) / 8.0f;
        boxes[i] = copse_box3_make(pts[i].x, pts[i].y, pts[i].z, pts[i].x + w, pts[i].y + w, pts[i].z + w);
        in[i] = false;
    }
    for (i = 0; i < 2u * n; i++) {
        const uint32_t op = fuzz_u8(r), idx = fuzz_u8(r) % (n + 1u), other = fuzz_u8(r) % n;
        if (op < 128u)
            st = copse_loose_insert(&tree, idx, &boxes[other]);
        else if (op < 200u)
            st = copse_loose_move(&tree, idx, &boxes[other]);
        else
            st = copse_loose_remove(&tree, idx);
        FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "loose op %u: %s", (unsigned)op, copse_status_str(st));
        if (st == COPSE_OK && op >= 200u)
            in[idx] = false;
        else if (st == COPSE_OK) {
            in[idx] = true;
            boxes[idx] = boxes[other]; /* ids now carry that box */
        }
    }
    st = copse_loose_check(&tree);
    FUZZ_ASSERT(st == COPSE_OK, "loose check: %s", copse_status_str(st));
    for (i = 0; i < 4u; i++) {
        const copse_box3 q = query_box(r);
        copse_id_list list = copse_id_list_make(ids, MAX_POINTS);
        uint32_t k;
        st = copse_loose_overlap_box(&tree, &q, &list);
        FUZZ_ASSERT(st == COPSE_OK || tree_status(st), "loose overlap_box: %s", copse_status_str(st));
        if (st != COPSE_OK)
            continue;
        for (k = 0; k < n; k++)
            expect[k] = in[k] && box_touch(&boxes[k], &q);
        same_set(&list, expect, n, "loose overlap_box");
    }
    free(pool);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static copse_vec3 pts[MAX_POINTS];
    fuzz_reader r;
    uint32_t n, i;
    fuzz_reader_init(&r, data, size);
    n = fuzz_u8(&r) % (MAX_POINTS + 1u);
    for (i = 0; i < n; i++) {
        pts[i].x = i % 29u == 28u ? fuzz_float(&r) : fuzz_coord(&r);
        pts[i].y = fuzz_coord(&r);
        pts[i].z = fuzz_coord(&r);
    }
    point_octree(&r, pts, n);
    loose_octree(&r, pts, n);
    return 0;
}

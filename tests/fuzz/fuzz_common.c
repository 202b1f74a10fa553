/* SPDX-License-Identifier: MIT */
/* What the fuzz targets share (fuzz.h). */
#include "fuzz.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: property failed: %s: ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_reader_init(fuzz_reader *r, const uint8_t *data, size_t size)
{
    r->data = data;
    r->size = size;
    r->at = 0;
}

uint32_t fuzz_u8(fuzz_reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0u;
}

uint32_t fuzz_u32(fuzz_reader *r)
{
    uint32_t v = fuzz_u8(r);
    v |= fuzz_u8(r) << 8;
    v |= fuzz_u8(r) << 16;
    return v | (fuzz_u8(r) << 24);
}

float fuzz_float(fuzz_reader *r)
{
    uint32_t v = fuzz_u32(r);
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

float fuzz_coord(fuzz_reader *r)
{
    uint32_t kind = fuzz_u8(r);
    if (kind < 200u) /* a grid of sixteenths in [-64, 64): coincident and touching shapes */
        return (float)((int32_t)(fuzz_u8(r) | (fuzz_u8(r) << 8)) - 32768) / 512.0f;
    if (kind < 250u) {
        float f = fuzz_float(r);
        return f == f && f - f == 0.0f ? f : 1.0f;
    }
    return kind & 1u ? 3.0e38f : -3.0e38f;
}

bool fuzz_specific_status(copse_status st)
{
    return st == COPSE_ERR_NULL || st == COPSE_ERR_NONFINITE || st == COPSE_ERR_DIMENSION ||
           st == COPSE_ERR_EMPTY_RANGE || st == COPSE_ERR_PARAM;
}

void fuzz_source_boxes3(copse_box3 *boxes, uint32_t count)
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        const float x = (float)i, y = (float)(i % 7u), z = (float)(i % 5u);
        boxes[i] = copse_box3_make(x, y, z, x + 1.5f, y + 0.5f, z + 2.0f);
    }
}

void fuzz_source_boxes2(copse_box2 *boxes, uint32_t count)
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        const float x = (float)i, y = (float)(i % 7u);
        boxes[i] = copse_box2_make(x, y, x + 1.5f, y + 0.5f);
    }
}

void fuzz_source_mesh(float *positions, uint32_t count, copse_mesh *mesh)
{
    uint32_t i;
    for (i = 0; i < count; i++) {
        float *p = positions + 9u * i;
        const float x = (float)i, y = (float)(i % 7u), z = (float)(i % 5u);
        p[0] = x, p[1] = y, p[2] = z;
        p[3] = x + 1.0f, p[4] = y, p[5] = z + 0.5f;
        p[6] = x, p[7] = y + 1.0f, p[8] = z + 1.0f;
    }
    memset(mesh, 0, sizeof *mesh);
    mesh->positions = positions;
    mesh->vertex_count = 3u * count;
    mesh->index_type = COPSE_MESH_INDEX_NONE;
    mesh->triangle_count = count;
}

/* ---- the query battery ---------------------------------------------------------------------- */

bool fuzz_view_status(copse_status st)
{
    return (st <= COPSE_ERR_BLOB_TRUNCATED && st >= COPSE_ERR_HOST_ORDER) || st == COPSE_ERR_TOO_DEEP ||
           st == COPSE_ERR_ALIGN || st == COPSE_ERR_NULL || st == COPSE_ERR_INDEX || st == COPSE_ERR_PARAM;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

uint32_t fuzz_le32_at(const uint8_t *data, size_t size, size_t at)
{
    return size >= at + 4u ? le32(data + at) : 0u;
}

size_t fuzz_blob_part(const uint8_t *data, size_t size)
{
    const uint32_t total = fuzz_le32_at(data, size, 16); /* the header's total_bytes */
    return total >= 96u && total <= size ? total : size;
}

uint8_t *fuzz_blob_copy(const uint8_t *data, size_t size)
{
    uint8_t *blob = (uint8_t *)malloc(size + 1u); /* malloc is 16-aligned; exact size for ASan */
    if (blob != NULL && size > 0u)
        memcpy(blob, data, size);
    return blob;
}

size_t fuzz_text_len(const char *buf, size_t cap)
{
    const char *nul = (const char *)memchr(buf, 0, cap);
    return nul != NULL ? (size_t)(nul - buf) : cap;
}

void fuzz_query_status(copse_status st, const char *query)
{
    FUZZ_ASSERT(st == COPSE_OK || fuzz_specific_status(st), "%s: %s", query, copse_status_str(st));
}

bool fuzz_collect_id(void *user, uint32_t id)
{
    fuzz_collect *c = (fuzz_collect *)user;
    if (c->count == FUZZ_CAP) {
        c->truncated = true;
        return false;
    }
    c->ids[c->count++] = id;
    return true;
}

static bool count_hit(void *user, const copse_hit *hit)
{
    (void)hit;
    return ++*(uint32_t *)user < 1000u;
}

/* The primitive's bounds in tree coordinates (dim floats min, then max). */
static void prim_bounds(const copse_bvh *bvh, uint32_t prim, float *mn, float *mx)
{
    unsigned a, k;
    if (bvh->kind == COPSE_BVH_PRIM_BOXES) {
        const float *b = bvh->boxes + 2u * bvh->dim * prim;
        for (a = 0; a < bvh->dim; a++) {
            mn[a] = b[a];
            mx[a] = b[bvh->dim + a];
        }
        return;
    }
    for (a = 0; a < bvh->dim; a++) {
        mn[a] = FLT_MAX;
        mx[a] = -FLT_MAX;
        for (k = 0; k < 3u; k++) { /* the sources here are unindexed, packed */
            const float v = bvh->mesh.positions[9u * prim + 3u * k + bvh->axis[a]];
            mn[a] = v < mn[a] ? v : mn[a];
            mx[a] = v > mx[a] ? v : mx[a];
        }
    }
}

/* Overlap list against brute force: a box tree reports exactly the boxes that touch the
 * query box; a mesh tree only triangles whose bounds touch it. */
static void brute_overlap(const copse_bvh *bvh, const float *qmin, const float *qmax, const copse_id_list *list)
{
    uint32_t p, k, expected = 0;
    for (p = 0; p < bvh->prim_count; p++) {
        float mn[3], mx[3];
        unsigned a;
        bool touch = true, listed = false;
        prim_bounds(bvh, p, mn, mx);
        for (a = 0; a < bvh->dim; a++)
            touch = touch && mn[a] <= qmax[a] && mx[a] >= qmin[a];
        for (k = 0; k < list->count; k++)
            listed = listed || list->ids[k] == copse_bvh_prim_id(bvh, p);
        FUZZ_ASSERT(touch || !listed, "prim %u listed but its bounds miss the box", (unsigned)p);
        if (bvh->kind == COPSE_BVH_PRIM_BOXES && touch) {
            expected++;
            FUZZ_ASSERT(listed || list->truncated, "box %u touches the query box but is not listed", (unsigned)p);
        }
    }
    if (bvh->kind == COPSE_BVH_PRIM_BOXES)
        FUZZ_ASSERT(list->count == (expected < FUZZ_CAP ? expected : FUZZ_CAP), "%u listed, %u expected",
                    (unsigned)list->count, (unsigned)expected);
}

static void check_list(const copse_bvh *bvh, const copse_id_list *list, copse_bvh_select sel, const fuzz_collect *visited)
{
    uint32_t k;
    FUZZ_ASSERT(list->count <= list->capacity, "list overfilled");
    for (k = 0; k < list->count && sel == COPSE_BVH_SELECT_LEAVES; k++)
        FUZZ_ASSERT(list->ids[k] < bvh->node_count, "leaf %u of %u nodes", (unsigned)list->ids[k],
                    (unsigned)bvh->node_count);
    fuzz_same_ids(list, visited, "bvh");
}

void fuzz_same_ids(const copse_id_list *list, const fuzz_collect *visited, const char *query)
{
    FUZZ_ASSERT(list->count <= list->capacity, "%s: list overfilled", query);
    FUZZ_ASSERT(visited->count == list->count && memcmp(visited->ids, list->ids, 4u * list->count) == 0,
                "%s: list (%u) and visitor (%u) differ", query, (unsigned)list->count, (unsigned)visited->count);
}

bool fuzz_t_close(float first, float nearest)
{
    const double a = (double)first, b = (double)nearest, big = a > b ? a : b;
    return (a > b ? a - b : b - a) <= 1e-5 * big + 4.0 * (double)FLT_MIN;
}

static void check_hits(const copse_hit *first, copse_status st_first, const copse_hit_list *all, copse_status st_all)
{
    FUZZ_ASSERT(st_first == st_all, "raycast %s, raycast_all %s", copse_status_str(st_first), copse_status_str(st_all));
    FUZZ_ASSERT(all->count <= all->capacity, "hit list overfilled");
    if (st_first != COPSE_OK)
        return;
    FUZZ_ASSERT((first->id == COPSE_NONE) == (all->count == 0), "first hit %u but %u hits", (unsigned)first->id,
                (unsigned)all->count);
    /* The same primitive tests, but the first-hit walk prunes nodes by their entry t: the two
     * may round apart, never by more than a few ulps of t. Below FLT_MIN (a ray with a huge
     * direction) t is denormal and has almost no bits, so that difference is excused too. */
    if (all->count > 0)
        FUZZ_ASSERT(fuzz_t_close(first->t, all->hits[0].t), "first hit %u at t %g, nearest of all %u at %g (%u hits)",
                    (unsigned)first->id, (double)first->t, (unsigned)all->hits[0].id, (double)all->hits[0].t,
                    (unsigned)all->count);
}

void fuzz_query_bvh(const copse_bvh *bvh, fuzz_reader *r, bool exact)
{
    uint32_t ids[FUZZ_CAP], n_visited = 0;
    copse_hit hits[FUZZ_CAP], first;
    unsigned q;
    for (q = 0; q < 3u; q++) {
        const copse_bvh_select sel = (fuzz_u8(r) & 1u) ? COPSE_BVH_SELECT_LEAVES : COPSE_BVH_SELECT_PRIMS;
        copse_id_list list = copse_id_list_make(ids, FUZZ_CAP);
        copse_hit_list all = copse_hit_list_make(hits, FUZZ_CAP);
        fuzz_collect visited;
        copse_status st, st_all;
        float c[6];
        unsigned a;
        for (a = 0; a < 6u; a++)
            c[a] = fuzz_coord(r);
        memset(&visited, 0, sizeof visited);
        if (bvh->dim != 2u) {
            const copse_box3 box = copse_box3_make(c[0], c[1], c[2], c[0] + (c[3] < 0.0f ? -c[3] : c[3]), c[1] + 2.0f, c[2] + 3.0f);
            const copse_sphere sphere = {{c[0], c[1], c[2]}, c[3]};
            const copse_segment3 seg = {{c[0], c[1], c[2]}, {c[3], c[4], c[5]}};
            const copse_ray3 ray = {{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, fuzz_u8(r) < 128u ? FLT_MAX : 100.0f};
            const copse_vec3 p = {c[3], c[4], c[5]};
            copse_nearest3 near;
            st = copse_bvh_overlap_box(bvh, &box, sel, &list);
            fuzz_query_status(st, "overlap_box");
            fuzz_query_status(copse_bvh_visit_box(bvh, &box, sel, fuzz_collect_id, &visited), "visit_box");
            check_list(bvh, &list, sel, &visited);
            if (exact && st == COPSE_OK && sel == COPSE_BVH_SELECT_PRIMS)
                brute_overlap(bvh, &box.min.x, &box.max.x, &list);
            list = copse_id_list_make(ids, FUZZ_CAP);
            fuzz_query_status(copse_bvh_overlap_sphere(bvh, &sphere, sel, &list), "overlap_sphere");
            list = copse_id_list_make(ids, FUZZ_CAP);
            fuzz_query_status(copse_bvh_overlap_segment(bvh, &seg, sel, &list), "overlap_segment");
            st = copse_bvh_raycast(bvh, &ray, &first);
            st_all = copse_bvh_raycast_all(bvh, &ray, &all);
            fuzz_query_status(st, "raycast");
            check_hits(&first, st, &all, st_all);
            fuzz_query_status(copse_bvh_visit_ray(bvh, &ray, count_hit, &n_visited), "visit_ray");
            st = copse_bvh_nearest(bvh, p, fuzz_u8(r) < 128u ? FLT_MAX : c[0], &near);
            fuzz_query_status(st, "nearest");
            FUZZ_ASSERT(st != COPSE_OK || near.id == COPSE_NONE || near.distance_sq >= 0.0f, "negative distance");
            if (bvh->kind == COPSE_BVH_PRIM_TRIANGLES)
                fuzz_query_status(copse_bvh_nearest_vertex(bvh, p, FLT_MAX, &near), "nearest_vertex");
        } else {
            const copse_box2 rect = copse_box2_make(c[0], c[1], c[0] + (c[3] < 0.0f ? -c[3] : c[3]), c[1] + 2.0f);
            const copse_circle circle = {{c[0], c[1]}, c[2]};
            const copse_segment2 seg = {{c[0], c[1]}, {c[3], c[4]}};
            const copse_ray2 ray = {{c[0], c[1]}, {c[3], c[4]}, fuzz_u8(r) < 128u ? FLT_MAX : 100.0f};
            const copse_vec2 p = {c[4], c[5]};
            copse_nearest2 near;
            st = copse_bvh_overlap_rect(bvh, &rect, sel, &list);
            fuzz_query_status(st, "overlap_rect");
            fuzz_query_status(copse_bvh_visit_rect(bvh, &rect, sel, fuzz_collect_id, &visited), "visit_rect");
            check_list(bvh, &list, sel, &visited);
            if (exact && st == COPSE_OK && sel == COPSE_BVH_SELECT_PRIMS)
                brute_overlap(bvh, &rect.min.x, &rect.max.x, &list);
            list = copse_id_list_make(ids, FUZZ_CAP);
            fuzz_query_status(copse_bvh_overlap_circle(bvh, &circle, sel, &list), "overlap_circle");
            list = copse_id_list_make(ids, FUZZ_CAP);
            fuzz_query_status(copse_bvh_overlap_segment2(bvh, &seg, sel, &list), "overlap_segment2");
            st = copse_bvh_raycast2(bvh, &ray, &first);
            st_all = copse_bvh_raycast2_all(bvh, &ray, &all);
            fuzz_query_status(st, "raycast2");
            check_hits(&first, st, &all, st_all);
            fuzz_query_status(copse_bvh_visit_ray2(bvh, &ray, count_hit, &n_visited), "visit_ray2");
            fuzz_query_status(copse_bvh_nearest2(bvh, p, FLT_MAX, &near), "nearest2");
        }
    }
    {
        const uint32_t *prims = NULL;
        uint32_t count = 0, leaf = bvh->node_count > 0 ? fuzz_u32(r) % bvh->node_count : 0u;
        copse_status st = copse_bvh_leaf_prims(bvh, leaf, &prims, &count);
        FUZZ_ASSERT(st != COPSE_OK || count <= bvh->prim_count, "leaf of %u prims", (unsigned)count);
    }
}

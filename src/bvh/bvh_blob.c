/* SPDX-License-Identifier: MIT */
/* Saving a BVH as a blob and viewing one in place (docs/format.md, "BVH"). */
#include "bvh_internal.h"
#include "../blob/blob_internal.h"

/* The view reads the nodes section through copse_bvh_node3/2: their layout must be the
 * format's (fields at 4-byte steps, no padding). True of every C99 target with 4-byte float
 * and int32; a compiler that pads these structs fails to compile here. */
typedef char bvh_blob_node3_layout[(sizeof(copse_bvh_node3) == COPSE_BVH_NODE3_BYTES &&
                                    offsetof(copse_bvh_node3, max) == 12u &&
                                    offsetof(copse_bvh_node3, index) == 24u &&
                                    offsetof(copse_bvh_node3, count) == 28u) ? 1 : -1];
typedef char bvh_blob_node2_layout[(sizeof(copse_bvh_node2) == COPSE_BVH_NODE2_BYTES &&
                                    offsetof(copse_bvh_node2, max) == 8u &&
                                    offsetof(copse_bvh_node2, index) == 16u &&
                                    offsetof(copse_bvh_node2, count) == 20u) ? 1 : -1];

/* Sections: 1 the nodes, 2 the prims. Tree-info offsets (relative to header byte 32). */
#define BVH_INFO_NODES 0u
#define BVH_INFO_PRIMS 4u
#define BVH_INFO_DEGENERATE 8u
#define BVH_INFO_DIM 12u
#define BVH_INFO_KIND 13u
#define BVH_INFO_DEPTH 14u
#define BVH_INFO_AXIS 15u /* 3 bytes */
#define BVH_INFO_USED 18u /* bytes 18..31 are reserved, zero */

/* The blob's sections (the node and prim arrays, saved as they are): PARAM for a tree with no
 * dimension or kind. */
static copse_status sections(const copse_bvh *bvh, blob_words secs[2])
{
    if ((bvh->dim != 2u && bvh->dim != 3u) || (bvh->kind != COPSE_BVH_PRIM_TRIANGLES && bvh->kind != COPSE_BVH_PRIM_BOXES))
        return COPSE_ERR_PARAM;
    secs[0].data = bvh->nodes;
    secs[0].bytes = (uint64_t)bvh->node_count * bvh_node_bytes(bvh->dim);
    secs[1].data = bvh->prims;
    secs[1].bytes = (uint64_t)bvh->prim_count * 4u;
    return COPSE_OK;
}

size_t copse_bvh_save_bytes(const copse_bvh *bvh)
{
    blob_words secs[2];
    if (bvh == NULL || sections(bvh, secs) != COPSE_OK)
        return 0;
    return copse__blob_words_size(2u, secs);
}

copse_status copse_bvh_save(const copse_bvh *bvh, void *buf, size_t cap, size_t *written)
{
    blob_words secs[2];
    uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES];
    float bounds[6];
    unsigned a;
    copse_status st;

    if (written != NULL)
        *written = 0;
    if (bvh == NULL || (buf == NULL && cap > 0))
        return COPSE_ERR_NULL;
    st = sections(bvh, secs);
    if (st == COPSE_OK)
        st = copse_bvh_check(bvh); /* never write a blob that would not view */
    if (st != COPSE_OK)
        return st;
    __builtin_memset(tree, 0, sizeof tree);
    blob_put_u32(tree + BVH_INFO_NODES, bvh->node_count);
    blob_put_u32(tree + BVH_INFO_PRIMS, bvh->prim_count);
    blob_put_u32(tree + BVH_INFO_DEGENERATE, bvh->degenerate_count);
    tree[BVH_INFO_DIM] = bvh->dim;
    tree[BVH_INFO_KIND] = bvh->kind;
    tree[BVH_INFO_DEPTH] = bvh->depth;
    __builtin_memcpy(tree + BVH_INFO_AXIS, bvh->axis, 3u);
    __builtin_memset(bounds, 0, sizeof bounds);
    if (bvh->node_count > 0)
        for (a = 0; a < bvh->dim; a++) {
            bounds[a] = bvh_node_min(bvh->nodes, 0, bvh->dim)[a];
            bounds[3u + a] = bvh_node_max(bvh->nodes, 0, bvh->dim)[a];
        }
    return copse__blob_save_words(COPSE_BLOB_BVH, tree, bounds, 2u, secs, buf, cap, written);
}

/* ---- view ---------------------------------------------------------------------------------- */

/* The tree info of a BVH blob, decoded and range-checked (not yet against the sections). */
static copse_status read_info(const copse_blob_info *info, copse_bvh *t)
{
    const uint8_t *b = info->tree;
    unsigned a;
    uint8_t seen = 0;
    uint64_t sizes[2];
    t->node_count = blob_get_u32(b + BVH_INFO_NODES);
    t->prim_count = blob_get_u32(b + BVH_INFO_PRIMS);
    t->degenerate_count = blob_get_u32(b + BVH_INFO_DEGENERATE);
    t->dim = b[BVH_INFO_DIM];
    t->kind = b[BVH_INFO_KIND];
    t->depth = b[BVH_INFO_DEPTH];
    __builtin_memcpy(t->axis, b + BVH_INFO_AXIS, 3u);
    if (!blob_tree_reserved_zero(info, BVH_INFO_USED))
        return COPSE_ERR_BLOB_HEADER;
    for (a = 0; a < 3u; a++)
        seen = (uint8_t)(seen | (t->axis[a] < 3u ? 1u << t->axis[a] : 8u));
    if (info->flags != 0u || (t->dim != 2u && t->dim != 3u) ||
        (t->kind != COPSE_BVH_PRIM_TRIANGLES && t->kind != COPSE_BVH_PRIM_BOXES) || seen != 7u ||
        ((t->dim == 3u || t->kind == COPSE_BVH_PRIM_BOXES) && (t->axis[0] != 0u || t->axis[1] != 1u)) ||
        t->prim_count > COPSE_BVH_MAX_PRIMS || (t->node_count == 0u) != (t->prim_count == 0u) ||
        t->node_count > 2u * t->prim_count || t->degenerate_count > t->prim_count ||
        (t->kind == COPSE_BVH_PRIM_BOXES && t->degenerate_count != 0u) || (t->node_count == 0u) != (t->depth == 0u))
        return COPSE_ERR_BLOB_HEADER;
    if (t->depth > COPSE_BVH_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP;
    sizes[0] = (uint64_t)t->node_count * bvh_node_bytes(t->dim);
    sizes[1] = (uint64_t)t->prim_count * 4u;
    return copse__blob_view_sections(info, 2u, sizes);
}

/* Is the caller's mesh readable by queries over `prim_count` triangles (every index in range)? */
static copse_status check_mesh(const copse_mesh *mesh, uint32_t prim_count, uint32_t *stride)
{
    uint32_t t, k;
    if (mesh->triangle_count != prim_count)
        return COPSE_ERR_BLOB_SOURCE;
    if (prim_count > 0 && mesh->positions == NULL)
        return COPSE_ERR_NULL;
    if (mesh->index_type != COPSE_MESH_INDEX_NONE && mesh->index_type != COPSE_MESH_INDEX_U16 &&
        mesh->index_type != COPSE_MESH_INDEX_U32)
        return COPSE_ERR_PARAM;
    if (prim_count > 0 && mesh->index_type != COPSE_MESH_INDEX_NONE && mesh->indices == NULL)
        return COPSE_ERR_NULL;
    *stride = mesh->vertex_stride == 0 ? 3u * (uint32_t)sizeof(float) : mesh->vertex_stride;
    if (*stride < 3u * sizeof(float) || *stride % sizeof(float) != 0 ||
        ((uintptr_t)mesh->positions % sizeof(float)) != 0 ||
        ((uintptr_t)mesh->indices % (mesh->index_type == COPSE_MESH_INDEX_NONE ? 1u : (unsigned)mesh->index_type)) != 0)
        return COPSE_ERR_ALIGN;
    if (mesh->index_type == COPSE_MESH_INDEX_NONE)
        return (uint64_t)prim_count * 3u > mesh->vertex_count ? COPSE_ERR_INDEX : COPSE_OK;
    for (t = 0; t < prim_count; t++) {
        uint32_t idx[3];
        bvh_mesh_triangle(mesh, t, idx);
        for (k = 0; k < 3u; k++)
            if (idx[k] >= mesh->vertex_count)
                return COPSE_ERR_INDEX;
    }
    return COPSE_OK;
}

/* The nodes and prims in one pass, in place: each internal node against its two children
 * (escape = 1 + theirs, `count` = left subtree, children inside it), leaves tiling the prim
 * slots in order, every prim index in range and used once, bounds finite and ordered, the
 * root's bounds the header's, the depth the recorded one. */
static copse_status check_tree(const copse_bvh *t, const float *hdr_bounds)
{
    uint32_t ends[COPSE_BVH_MAX_DEPTH], sp = 0, depth = 0, i, slot = 0, sum_a = 0, sum_b = 0;
    const unsigned dim = t->dim;
    unsigned a;
    for (a = 0; a < 6u; a++) {
        float want = 0.0f;
        if (t->node_count > 0 && a % 3u < dim)
            want = a < 3u ? bvh_node_min(t->nodes, 0, dim)[a] : bvh_node_max(t->nodes, 0, dim)[a - 3u];
        if (!blob_same_bits(hdr_bounds[a], want))
            return COPSE_ERR_BLOB_BOUNDS;
    }
    if (t->node_count == 0)
        return COPSE_OK;
    if (bvh_node_span(t->nodes, 0, dim) != t->node_count)
        return COPSE_ERR_BLOB_NODE;
    for (i = 0; i < t->node_count; i++) {
        const float *mn = bvh_node_min(t->nodes, i, dim), *mx = bvh_node_max(t->nodes, i, dim);
        int32_t index = bvh_node_index(t->nodes, i, dim);
        for (a = 0; a < dim; a++)
            if (!geo_finite(mn[a]) || !geo_finite(mx[a]) || mn[a] > mx[a])
                return COPSE_ERR_BLOB_BOUNDS;
        while (sp > 0 && ends[sp - 1u] == i)
            sp--;
        if (sp + 1u > depth)
            depth = sp + 1u;
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(t->nodes, i, dim);
            if (count == 0 || (uint32_t)index != slot || count > t->prim_count - slot)
                return COPSE_ERR_BLOB_NODE;
            for (k = 0; k < count; k++) {
                uint32_t prim = t->prims[slot + k];
                if (prim >= t->prim_count)
                    return COPSE_ERR_BLOB_PRIM;
                sum_a += bvh_mix_a(prim);
                sum_b += bvh_mix_b(prim);
            }
            slot += count;
        } else {
            uint32_t span = (uint32_t)(-(int64_t)index), left = i + 1u, right, left_span;
            if (span < 3u || span > t->node_count - i)
                return COPSE_ERR_BLOB_NODE;
            left_span = bvh_node_span(t->nodes, left, dim);
            if (bvh_node_count(t->nodes, i, dim) != left_span || left_span > span - 2u)
                return COPSE_ERR_BLOB_NODE;
            right = bvh_node_right(t->nodes, i, dim);
            if (bvh_node_span(t->nodes, right, dim) != span - 1u - left_span)
                return COPSE_ERR_BLOB_NODE; /* not exactly two children tiling the subtree */
            if (!bvh_box_within(bvh_node_min(t->nodes, left, dim), bvh_node_max(t->nodes, left, dim), mn, mx, dim) ||
                !bvh_box_within(bvh_node_min(t->nodes, right, dim), bvh_node_max(t->nodes, right, dim), mn, mx, dim))
                return COPSE_ERR_BLOB_BOUNDS;
            if (sp + 1u >= COPSE_BVH_MAX_DEPTH)
                return COPSE_ERR_TOO_DEEP;
            ends[sp++] = i + span;
        }
    }
    if (slot != t->prim_count)
        return COPSE_ERR_BLOB_NODE;
    if (depth != t->depth)
        return COPSE_ERR_BLOB_DEPTH;
    for (i = 0; i < t->prim_count; i++) {
        sum_a -= bvh_mix_a(i);
        sum_b -= bvh_mix_b(i);
    }
    return (sum_a | sum_b) != 0u ? COPSE_ERR_BLOB_PRIM : COPSE_OK;
}

/* Everything but the source: container, tree info, sections, structure. Fills `t`'s tree
 * fields (nodes and prims pointing into the blob). */
static copse_status view_blob(copse_bvh *t, const void *blob, size_t len)
{
    copse_blob_info info;
    copse_status st = copse__blob_view_open(blob, len, COPSE_BLOB_BVH, &info);
    if (st == COPSE_OK)
        st = read_info(&info, t);
    if (st != COPSE_OK)
        return st;
    t->nodes = blob_section_data(blob, &info, 0);
    t->prims = (const uint32_t *)blob_section_data(blob, &info, 1);
    return check_tree(t, info.bounds);
}

copse_status copse_bvh_view_mesh(copse_bvh *bvh, const void *blob, size_t len, const copse_mesh *mesh)
{
    copse_bvh t;
    copse_status st;
    uint32_t stride;
    if (bvh == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bvh, 0, sizeof *bvh);
    if (mesh == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(&t, 0, sizeof t);
    st = view_blob(&t, blob, len);
    if (st != COPSE_OK)
        return st;
    if (t.kind != COPSE_BVH_PRIM_TRIANGLES)
        return COPSE_ERR_BLOB_SOURCE;
    st = check_mesh(mesh, t.prim_count, &stride);
    if (st != COPSE_OK)
        return st;
    t.mesh = *mesh;
    t.mesh.vertex_stride = stride;
    *bvh = t;
    return COPSE_OK;
}

static copse_status view_boxes(copse_bvh *bvh, const void *blob, size_t len, const float *boxes,
                               const uint32_t *ids, uint32_t count, unsigned dim)
{
    copse_bvh t;
    copse_status st;
    if (bvh == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bvh, 0, sizeof *bvh);
    if (boxes == NULL && count > 0)
        return COPSE_ERR_NULL;
    if (((uintptr_t)boxes % sizeof(float)) != 0 || ((uintptr_t)ids % sizeof(uint32_t)) != 0)
        return COPSE_ERR_ALIGN;
    __builtin_memset(&t, 0, sizeof t);
    st = view_blob(&t, blob, len);
    if (st != COPSE_OK)
        return st;
    if (t.kind != COPSE_BVH_PRIM_BOXES || t.dim != dim || t.prim_count != count)
        return COPSE_ERR_BLOB_SOURCE;
    if (!bvh_ids_ok(ids, count))
        return COPSE_ERR_PARAM;
    t.boxes = boxes;
    t.box_ids = ids;
    *bvh = t;
    return COPSE_OK;
}

copse_status copse_bvh_view_boxes3(copse_bvh *bvh, const void *blob, size_t len, const copse_box3 *boxes,
                                   const uint32_t *ids, uint32_t count)
{
    return view_boxes(bvh, blob, len, (const float *)(const void *)boxes, ids, count, 3u);
}

copse_status copse_bvh_view_boxes2(copse_bvh *bvh, const void *blob, size_t len, const copse_box2 *boxes,
                                   const uint32_t *ids, uint32_t count)
{
    return view_boxes(bvh, blob, len, (const float *)(const void *)boxes, ids, count, 2u);
}

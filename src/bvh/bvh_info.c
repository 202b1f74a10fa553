/* SPDX-License-Identifier: MIT */
/* Walking, inspecting and checking a BVH. */
#include "bvh_internal.h"

copse_status copse_bvh_walk(const copse_bvh *bvh, copse_bounds_visitor enter, copse_id_visitor visit, void *user)
{
    uint32_t i = 0;
    const unsigned dim = bvh != NULL ? bvh->dim : 0u;
    if (bvh == NULL || visit == NULL)
        return COPSE_ERR_NULL;
    while (i < bvh->node_count) {
        bool descend = enter == NULL ||
                       enter(user, bvh_node_min(bvh->nodes, i, dim), bvh_node_max(bvh->nodes, i, dim));
        int32_t index = bvh_node_index(bvh->nodes, i, dim);
        if (index >= 0) {
            if (descend) {
                uint32_t k, count = bvh_node_count(bvh->nodes, i, dim);
                for (k = 0; k < count; k++)
                    if (!visit(user, bvh_prim_id(bvh, bvh->prims[(uint32_t)index + k])))
                        return COPSE_OK;
            }
            i++;
        } else {
            i += descend ? 1u : (uint32_t)(-(int64_t)index);
        }
    }
    return COPSE_OK;
}

copse_status copse_bvh_leaf_prims(const copse_bvh *bvh, uint32_t leaf, const uint32_t **prims, uint32_t *count)
{
    int32_t index;
    if (bvh == NULL || prims == NULL || count == NULL)
        return COPSE_ERR_NULL;
    *prims = NULL;
    *count = 0;
    if (leaf >= bvh->node_count)
        return COPSE_ERR_INDEX;
    index = bvh_node_index(bvh->nodes, leaf, bvh->dim);
    if (index < 0)
        return COPSE_ERR_PARAM; /* an internal node */
    *prims = bvh->prims + index;
    *count = bvh_node_count(bvh->nodes, leaf, bvh->dim);
    return COPSE_OK;
}

uint32_t copse_bvh_prim_id(const copse_bvh *bvh, uint32_t prim)
{
    /* Out of range (or no tree): never read past the caller's ids[]. */
    if (bvh == NULL || prim >= bvh->prim_count)
        return COPSE_NONE;
    return bvh->kind == COPSE_BVH_PRIM_BOXES ? bvh_prim_id(bvh, prim) : prim;
}

/* Half surface area (3D) or half perimeter (2D) of a box whose half extents are multiplied by
 * `scale`: with the root's largest half extent scaled to 1, no box of finite coordinates
 * overflows (the areas of boxes 1e20 wide would, unscaled). */
static float half_area(const float *mn, const float *mx, unsigned dim, float scale)
{
    float dx = (mx[0] * 0.5f - mn[0] * 0.5f) * scale, dy = (mx[1] * 0.5f - mn[1] * 0.5f) * scale, dz;
    if (dim == 2)
        return dx + dy;
    dz = (mx[2] * 0.5f - mn[2] * 0.5f) * scale;
    return dx * dy + dy * dz + dz * dx;
}

copse_status copse_bvh_get_stats(const copse_bvh *bvh, copse_bvh_stats *stats)
{
    uint32_t ends[COPSE_BVH_MAX_DEPTH + 1u], sp = 0, i;
    float root_area, extent = 0.0f, scale = 1.0f;
    const float *rmn, *rmx;
    const unsigned dim = bvh != NULL ? bvh->dim : 0u;
    unsigned a;
    if (bvh == NULL || stats == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(stats, 0, sizeof *stats);
    if (bvh->depth > COPSE_BVH_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP;
    stats->nodes = bvh->node_count;
    if (bvh->node_count == 0)
        return COPSE_OK;
    rmn = bvh_node_min(bvh->nodes, 0, dim);
    rmx = bvh_node_max(bvh->nodes, 0, dim);
    for (a = 0; a < dim; a++)
        extent = geo_max(extent, rmx[a] * 0.5f - rmn[a] * 0.5f);
    if (extent >= FLT_MIN)
        scale = 1.0f / extent;
    root_area = half_area(rmn, rmx, dim, scale);
    for (i = 0; i < bvh->node_count; i++) {
        int32_t index = bvh_node_index(bvh->nodes, i, dim);
        float area = half_area(bvh_node_min(bvh->nodes, i, dim), bvh_node_max(bvh->nodes, i, dim), dim, scale);
        float p = root_area > 0.0f ? area / root_area : 1.0f; /* chance a random ray entering the root enters here */
        while (sp > 0 && ends[sp - 1u] == i)
            sp--;
        if (sp + 1u > stats->depth)
            stats->depth = sp + 1u;
        if (index >= 0) {
            uint32_t count = bvh_node_count(bvh->nodes, i, dim), bucket = 0;
            stats->leaves++;
            if (count > stats->max_leaf_prims)
                stats->max_leaf_prims = count;
            while (bucket < 8u && count > (1u << bucket))
                bucket++;
            stats->leaf_histogram[bucket]++;
            stats->sah_cost += p * (1.0f + (float)count);
        } else {
            stats->sah_cost += p;
            if (sp <= COPSE_BVH_MAX_DEPTH)
                ends[sp++] = i + (uint32_t)(-(int64_t)index);
        }
    }
    return COPSE_OK;
}

/* Does leaf `i` hold the bounds of each of its primitives (read from the caller's mesh or
 * boxes)? Queries take a node inside a query box as the answer for everything below it. */
static copse_status check_leaf_prims(const copse_bvh *bvh, uint32_t i)
{
    const unsigned dim = bvh->dim;
    const float *mn = bvh_node_min(bvh->nodes, i, dim), *mx = bvh_node_max(bvh->nodes, i, dim);
    uint32_t k, first = (uint32_t)bvh_node_index(bvh->nodes, i, dim), count = bvh_node_count(bvh->nodes, i, dim);
    unsigned a, c;
    for (k = 0; k < count; k++) {
        uint32_t prim = bvh->prims[first + k];
        float lo[3], hi[3];
        if (bvh->kind == COPSE_BVH_PRIM_TRIANGLES) {
            uint32_t idx[3];
            bvh_mesh_triangle(&bvh->mesh, prim, idx);
            for (c = 0; c < 3; c++) {
                float v[3];
                if (idx[c] >= bvh->mesh.vertex_count)
                    return COPSE_ERR_INDEX;
                bvh_vertex(bvh, idx[c], v, dim);
                for (a = 0; a < dim; a++) {
                    if (!geo_finite(v[a]))
                        return COPSE_ERR_NONFINITE;
                    lo[a] = c == 0 ? v[a] : geo_min(lo[a], v[a]);
                    hi[a] = c == 0 ? v[a] : geo_max(hi[a], v[a]);
                }
            }
        } else {
            const float *box = bvh_box(bvh, prim, dim);
            for (a = 0; a < dim; a++) {
                lo[a] = box[a];
                hi[a] = box[dim + a];
            }
        }
        for (a = 0; a < dim; a++)
            if (!(lo[a] >= mn[a] && hi[a] <= mx[a]))
                return COPSE_ERR_PARAM; /* a primitive pokes out of its leaf */
    }
    return COPSE_OK;
}

/* Can the tree's primitives be read? (the mesh view or the boxes it refers to) */
static copse_status check_source(const copse_bvh *bvh)
{
    if (bvh->kind == COPSE_BVH_PRIM_TRIANGLES) {
        const copse_mesh *m = &bvh->mesh;
        if (m->positions == NULL || (m->index_type != COPSE_MESH_INDEX_NONE && m->indices == NULL))
            return COPSE_ERR_NULL;
        if (m->vertex_stride < 3u * sizeof(float) || bvh->axis[0] > 2u || bvh->axis[1] > 2u ||
            (m->index_type != COPSE_MESH_INDEX_NONE && m->index_type != COPSE_MESH_INDEX_U16 &&
             m->index_type != COPSE_MESH_INDEX_U32))
            return COPSE_ERR_PARAM;
        if (m->triangle_count < bvh->prim_count ||
            (m->index_type == COPSE_MESH_INDEX_NONE && (uint64_t)m->triangle_count * 3u > m->vertex_count))
            return COPSE_ERR_INDEX;
        return COPSE_OK;
    }
    if (bvh->kind == COPSE_BVH_PRIM_BOXES)
        return bvh->boxes != NULL ? COPSE_OK : COPSE_ERR_NULL;
    return COPSE_ERR_PARAM;
}

/* The structure is checked node by node, each internal node against its two children only:
 * its escape count is 1 + theirs, its `count` is its left subtree's size, and both children
 * lie inside it. With the root's escape count equal to node_count, this makes the array one
 * pre-order tree. Only the depth needs the chain of open subtrees (4 bytes a level). */
copse_status copse_bvh_check(const copse_bvh *bvh)
{
    uint32_t ends[COPSE_BVH_MAX_DEPTH], sp = 0, depth = 0, i, slot = 0, sum_a = 0, sum_b = 0;
    unsigned dim, a;
    if (bvh == NULL)
        return COPSE_ERR_NULL;
    dim = bvh->dim;
    if (bvh->node_count == 0)
        return bvh->prim_count == 0 ? COPSE_OK : COPSE_ERR_INDEX;
    if ((dim != 2 && dim != 3) || bvh->nodes == NULL || bvh->prims == NULL)
        return COPSE_ERR_PARAM;
    if (bvh_node_span(bvh->nodes, 0, dim) != bvh->node_count)
        return COPSE_ERR_INDEX; /* the root's subtree is not the whole array */
    for (i = 0; i < bvh->node_count; i++) {
        const float *mn = bvh_node_min(bvh->nodes, i, dim), *mx = bvh_node_max(bvh->nodes, i, dim);
        int32_t index = bvh_node_index(bvh->nodes, i, dim);
        for (a = 0; a < dim; a++) {
            if (!geo_finite(mn[a]) || !geo_finite(mx[a]))
                return COPSE_ERR_NONFINITE;
            if (mn[a] > mx[a])
                return COPSE_ERR_PARAM;
        }
        while (sp > 0 && ends[sp - 1u] == i)
            sp--;
        if (sp + 1u > depth)
            depth = sp + 1u;
        if (index >= 0) {
            uint32_t k, count = bvh_node_count(bvh->nodes, i, dim);
            if (count == 0 || (uint32_t)index != slot || count > bvh->prim_count - slot)
                return COPSE_ERR_INDEX;
            for (k = 0; k < count; k++) {
                if (bvh->prims[slot + k] >= bvh->prim_count)
                    return COPSE_ERR_INDEX;
                sum_a += bvh_mix_a(bvh->prims[slot + k]);
                sum_b += bvh_mix_b(bvh->prims[slot + k]);
            }
            slot += count;
        } else {
            uint32_t span = (uint32_t)(-(int64_t)index), left = i + 1u, right, left_span;
            if (span < 3u || span > bvh->node_count - i)
                return COPSE_ERR_INDEX;
            left_span = bvh_node_span(bvh->nodes, left, dim); /* left < i + span: in the array */
            right = bvh_node_right(bvh->nodes, i, dim);
            if (bvh_node_count(bvh->nodes, i, dim) != left_span || left_span > span - 2u ||
                bvh_node_span(bvh->nodes, right, dim) != span - 1u - left_span)
                return COPSE_ERR_INDEX; /* not exactly two children tiling the subtree */
            if (!bvh_box_within(bvh_node_min(bvh->nodes, left, dim), bvh_node_max(bvh->nodes, left, dim), mn, mx, dim) ||
                !bvh_box_within(bvh_node_min(bvh->nodes, right, dim), bvh_node_max(bvh->nodes, right, dim), mn, mx, dim))
                return COPSE_ERR_PARAM; /* a child pokes out of its parent */
            if (sp + 1u >= COPSE_BVH_MAX_DEPTH)
                return COPSE_ERR_TOO_DEEP; /* deeper than queries' stacks */
            ends[sp++] = i + span;
        }
    }
    if (depth != bvh->depth)
        return COPSE_ERR_PARAM; /* queries refuse trees by their recorded depth */
    if (slot != bvh->prim_count)
        return COPSE_ERR_INDEX;
    for (i = 0; i < bvh->prim_count; i++) {
        sum_a -= bvh_mix_a(i);
        sum_b -= bvh_mix_b(i);
    }
    if ((sum_a | sum_b) != 0u)
        return COPSE_ERR_INDEX; /* a primitive twice, another never */
    {
        copse_status st = check_source(bvh);
        for (i = 0; st == COPSE_OK && i < bvh->node_count; i++)
            if (bvh_node_index(bvh->nodes, i, dim) >= 0)
                st = check_leaf_prims(bvh, i);
        return st;
    }
}

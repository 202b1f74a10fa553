/* SPDX-License-Identifier: MIT */
/*
 * Inspection of both octrees: statistics and a full structure check. One walk each, along the
 * path from the root (its nodes and cells kept per level), so a check can ask every point of a
 * leaf whether it took the octant of each node above it.
 */
#include "octree_internal.h"

/* ---- point octree ---------------------------------------------------------------------------- */

typedef struct pwalk {
    uint32_t node[COPSE_OCTREE_MAX_DEPTH + 1u];
    float c[COPSE_OCTREE_MAX_DEPTH + 1u][3], h[COPSE_OCTREE_MAX_DEPTH + 1u];
    bool nonfinite; /* the check stopped at a point that is no longer finite */
} pwalk;

/* Does every point of leaf n (at depth d on the path) lie in its bounds and follow the path's
 * octants? Adds its buckets to *buckets. */
static bool leaf_ok(const copse_octree *t, pwalk *w, uint32_t d, uint32_t *buckets, float *mn, float *mx)
{
    const copse_octree_node *node = &t->nodes[w->node[d]];
    uint32_t b = node->first, left = oct_count(node), chain = 0;
    unsigned a;
    for (a = 0; a < 3; a++) {
        mn[a] = FLT_MAX;
        mx[a] = -FLT_MAX;
    }
    while (b != OCT_NONE && left > 0u) {
        const uint32_t *bk;
        uint32_t k, m = left < t->bucket_size ? left : t->bucket_size, l;
        if (b >= t->bucket_top || ++chain > t->max_buckets)
            return false;
        bk = oct_bucket(t, b);
        for (k = 0; k < m; k++) {
            uint32_t idx = bk[1u + k];
            float p[3];
            if (idx >= t->point_capacity)
                return false;
            geo_v3_array(p, t->points[idx]);
            if (!oct_finite3(p)) {
                w->nonfinite = true;
                return false;
            }
            for (a = 0; a < 3; a++) {
                mn[a] = geo_min(mn[a], p[a]);
                mx[a] = geo_max(mx[a], p[a]);
            }
            for (l = 1; l <= d; l++)
                if (oct_octant_of(p, w->c[l - 1u]) != oct_octant(&t->nodes[w->node[l]]))
                    return false;
        }
        left -= m;
        b = bk[0];
    }
    *buckets += chain;
    return left == 0u && b == OCT_NONE && chain == (oct_count(node) + t->bucket_size - 1u) / t->bucket_size;
}

static bool same_bounds(const copse_octree_node *n, const float *mn, const float *mx)
{
    unsigned a;
    for (a = 0; a < 3; a++)
        if (n->min[a] != mn[a] || n->max[a] != mx[a])
            return false;
    return true;
}

/* Walks the whole tree; with `check`, returns false at the first broken rule (*nonfinite:
 * a point no longer finite broke it). */
static bool point_walk(const copse_octree *t, copse_octree_stats *s, bool check, bool *nonfinite)
{
    pwalk w;
    uint32_t d = 0, visited = 0, buckets = 0;
    w.nonfinite = false;
    *nonfinite = false;
    s->points = t->size;
    s->nodes = s->leaves = s->buckets = s->depth = s->max_leaf_points = s->overflow_leaves = 0;
    s->bytes_used = 0;
    if (t->nodes == NULL)
        return true;
    w.node[0] = 0;
    w.c[0][0] = t->center[0];
    w.c[0][1] = t->center[1];
    w.c[0][2] = t->center[2];
    w.h[0] = t->half;
    if (check && oct_count(&t->nodes[0]) != t->size)
        return false;
    for (;;) {
        const copse_octree_node *node = &t->nodes[w.node[d]];
        if (check && ++visited > t->nodes_used)
            return false;
        s->depth = d > s->depth ? d : s->depth;
        if (oct_is_leaf(node)) {
            float mn[3], mx[3];
            uint32_t count = oct_count(node);
            bool ok = leaf_ok(t, &w, d, &buckets, mn, mx);
            *nonfinite = w.nonfinite;
            s->leaves++;
            s->max_leaf_points = count > s->max_leaf_points ? count : s->max_leaf_points;
            s->overflow_leaves += count > t->leaf_size;
            if (check && (!ok || !same_bounds(node, mn, mx) || (count == 0u && d > 0u)))
                return false;
        } else {
            uint32_t c, sum = 0, seen = 0;
            float mn[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, mx[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
            unsigned a;
            /* splits happen above leaf_size points; removals fold a node back at one bucket */
            uint32_t least = t->leaf_size < t->bucket_size ? t->leaf_size : t->bucket_size;
            if (check && (d >= t->max_depth || node->first == OCT_NONE || oct_count(node) <= least))
                return false;
            for (c = node->first; check && c != OCT_NONE; c = t->nodes[c].next) {
                unsigned bit;
                if (c >= t->node_top)
                    return false;
                bit = 1u << oct_octant(&t->nodes[c]);
                if ((seen & bit) != 0u || oct_count(&t->nodes[c]) == 0u)
                    return false;
                seen |= bit;
                sum += oct_count(&t->nodes[c]);
                for (a = 0; a < 3; a++) {
                    mn[a] = geo_min(mn[a], t->nodes[c].min[a]);
                    mx[a] = geo_max(mx[a], t->nodes[c].max[a]);
                }
            }
            if (check && (sum != oct_count(node) || !same_bounds(node, mn, mx)))
                return false;
            /* down to the first child */
            oct_child_cell(w.c[d], w.h[d], oct_octant(&t->nodes[node->first]), w.c[d + 1u], &w.h[d + 1u]);
            w.node[++d] = node->first;
            continue;
        }
        /* across to the next sibling, or up */
        while (d > 0u && t->nodes[w.node[d]].next == OCT_NONE)
            d--;
        if (d == 0u)
            break;
        w.node[d] = t->nodes[w.node[d]].next;
        if (check && w.node[d] >= t->node_top)
            return false;
        oct_child_cell(w.c[d - 1u], w.h[d - 1u], oct_octant(&t->nodes[w.node[d]]), w.c[d], &w.h[d]);
    }
    s->nodes = t->nodes_used;
    s->buckets = t->buckets_used;
    s->bytes_used = (size_t)t->nodes_used * COPSE_OCTREE_NODE_BYTES +
                    (size_t)t->buckets_used * COPSE_OCTREE_BUCKET_BYTES(t->bucket_size);
    return !check || (visited == t->nodes_used && buckets == t->buckets_used);
}

copse_status copse_octree_get_stats(const copse_octree *tree, copse_octree_stats *stats)
{
    if (tree == NULL || stats == NULL)
        return COPSE_ERR_NULL;
    bool nonfinite;
    (void)point_walk(tree, stats, false, &nonfinite);
    return COPSE_OK;
}

copse_status copse__oct_check_points(const copse_octree *tree)
{
    copse_octree_stats s;
    bool nonfinite;
    if (tree == NULL)
        return COPSE_ERR_NULL;
    if (tree->nodes != NULL && (tree->nodes_used == 0u || tree->nodes_used > tree->max_nodes ||
                                tree->buckets_used > tree->max_buckets || tree->node_top > tree->max_nodes ||
                                tree->bucket_top > tree->max_buckets))
        return COPSE_ERR_PARAM;
    if (point_walk(tree, &s, true, &nonfinite))
        return COPSE_OK;
    return nonfinite ? COPSE_ERR_NONFINITE : COPSE_ERR_PARAM;
}

copse_status copse_octree_check(const copse_octree *tree)
{
    copse_status st = copse__oct_check_points(tree);
    return st == COPSE_ERR_NONFINITE ? COPSE_ERR_PARAM : st; /* documented: OK or PARAM */
}

/* ---- loose octree ---------------------------------------------------------------------------- */

/* With a node capacity, children exist only below split nodes. */
static bool tree_split_rule(const copse_loose *t)
{
    return t->node_capacity > 0u;
}

static bool loose_walk_nodes(const copse_loose *t, copse_loose_stats *s, bool check)
{
    uint32_t path[COPSE_LOOSE_MAX_DEPTH + 1u], d = 0, visited = 0, objects = 0;
    s->objects = t->size;
    s->nodes = s->depth = s->max_node_objects = s->root_objects = 0;
    s->bytes_used = 0;
    if (t->nodes == NULL)
        return true;
    path[0] = 0;
    for (;;) {
        const copse_loose_node *node = &t->nodes[path[d]];
        uint32_t o, here = 0;
        if (check && ++visited > t->nodes_used)
            return false;
        for (o = node->first_object; o != OCT_NONE; o = t->objects[o].next) {
            if (check && (o >= t->max_objects || t->objects[o].node != path[d] || ++here > t->max_objects))
                return false;
            if (!check)
                here++;
        }
        if (check && (node->meta == OCT_NONE || (node->meta >> 4) != here ||
                      (tree_split_rule(t) && (node->meta & 8u) == 0u && node->first_child != OCT_NONE)))
            return false; /* counts agree; a node has children only once it has split */
        objects += here;
        s->max_node_objects = here > s->max_node_objects ? here : s->max_node_objects;
        if (d == 0u)
            s->root_objects = here;
        s->depth = d > s->depth ? d : s->depth;
        if (check && d > 0u && here == 0u && node->first_child == OCT_NONE)
            return false; /* empty nodes are given back */
        if (node->first_child != OCT_NONE) {
            if (check && (node->first_child >= t->node_top || d >= t->max_depth))
                return false;
            path[++d] = node->first_child;
            continue;
        }
        while (d > 0u && t->nodes[path[d]].next == OCT_NONE)
            d--;
        if (d == 0u)
            break;
        path[d] = t->nodes[path[d]].next;
        if (check && path[d] >= t->node_top)
            return false;
    }
    s->nodes = t->nodes_used;
    s->bytes_used = (size_t)t->nodes_used * COPSE_LOOSE_NODE_BYTES + (size_t)t->size * COPSE_LOOSE_OBJECT_BYTES;
    return !check || (visited == t->nodes_used && objects == t->size);
}

copse_status copse_loose_get_stats(const copse_loose *tree, copse_loose_stats *stats)
{
    if (tree == NULL || stats == NULL)
        return COPSE_ERR_NULL;
    (void)loose_walk_nodes(tree, stats, false);
    return COPSE_OK;
}

copse_status copse_loose_check(const copse_loose *tree)
{
    copse_loose_stats s;
    if (tree == NULL)
        return COPSE_ERR_NULL;
    if (tree->nodes != NULL && (tree->nodes_used == 0u || tree->nodes_used > tree->max_nodes ||
                                tree->size > tree->max_objects))
        return COPSE_ERR_PARAM;
    return loose_walk_nodes(tree, &s, true) ? COPSE_OK : COPSE_ERR_PARAM;
}

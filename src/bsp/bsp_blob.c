/* SPDX-License-Identifier: MIT */
/*
 * Saving the BSP trees as blobs and viewing them in place (docs/format.md, kinds 4 and 5).
 *
 * Both blobs are self-contained: a map baked on the host is queried from flash with nothing
 * else. The 2D blob holds the objects' boxes next to the nodes and items; the 3D blob holds
 * what the tree already owns (planes, brushes, leaf lists).
 *
 * A blob is hostile input, so each view runs one validation pass over the tree it points at,
 * and each save runs the same pass over the tree it is given before writing: a blob that a
 * save wrote always views.
 */
#include "bsp3_internal.h"
#include "../blob/blob_internal.h"

/* The views read the sections through these structs: every field 4 bytes, no padding (a
 * compiler that pads them fails to compile here). */
typedef char bsp_blob_layout[(sizeof(copse_bsp2_node) == COPSE_BSP2_NODE_BYTES &&
                              offsetof(copse_bsp2_node, index) == 4u && offsetof(copse_bsp2_node, info) == 8u &&
                              sizeof(copse_box2) == 16u && offsetof(copse_box2, max) == 8u &&
                              sizeof(copse_bsp3_node) == 12u && offsetof(copse_bsp3_node, child) == 4u &&
                              sizeof(copse_plane) == 16u && offsetof(copse_plane, dist) == 12u &&
                              sizeof(copse_bsp3_brush) == 8u && offsetof(copse_bsp3_brush, counts) == 4u &&
                              sizeof(copse_bsp3_leaf) == 8u && offsetof(copse_bsp3_leaf, info) == 4u)
                                 ? 1
                                 : -1];

/* Tree information: u32 fields at header bytes 32..63, in this order (docs/format.md). */
static const size_t k_bsp2_info[6] = {
    offsetof(copse_bsp2, node_count), offsetof(copse_bsp2, item_count), offsetof(copse_bsp2, leaf_count),
    offsetof(copse_bsp2, object_count), offsetof(copse_bsp2, depth), offsetof(copse_bsp2, split_count)};
static const size_t k_bsp3_info[8] = {
    offsetof(copse_bsp3, node_count), offsetof(copse_bsp3, plane_count), offsetof(copse_bsp3, side_count),
    offsetof(copse_bsp3, brush_count), offsetof(copse_bsp3, leaf_count), offsetof(copse_bsp3, leaf_brush_count),
    offsetof(copse_bsp3, depth), offsetof(copse_bsp3, split_count)};
#define BSP2_SECTIONS 3u   /* 1 nodes, 2 items, 3 objects */
#define BSP3_SECTIONS 7u   /* 1 nodes, 2 planes, 3 sides, 4 brushes, 5 leaves, 6 leaf brushes, 7 margins */
#define BSP3_BEVELS_MAX 6u

/* A walk entry: a node (2D) or child code (3D) and its depth. */
typedef struct blob_entry {
    uint32_t code, depth;
} blob_entry;

/* The tree's u32 counts at `fields` into the tree information, and back. */
static void put_info(uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES], const void *t, const size_t *fields, uint32_t count)
{
    uint32_t k, v;
    __builtin_memset(tree, 0, COPSE_BLOB_TREE_INFO_BYTES);
    for (k = 0; k < count; k++) {
        __builtin_memcpy(&v, (const uint8_t *)t + fields[k], sizeof v);
        blob_put_u32(tree + 4u * k, v);
    }
}

/* The start of both views: the container, the kind, flags 0, and the counts of the tree
 * information into `t` (the bytes after them reserved, zero). */
static copse_status open_view(const void *blob, size_t len, uint32_t kind, copse_blob_info *info, void *t,
                              const size_t *fields, uint32_t count)
{
    uint32_t k, v;
    copse_status st = copse__blob_view_open(blob, len, kind, info);
    if (st != COPSE_OK)
        return st;
    if (info->flags != 0u || !blob_tree_reserved_zero(info, 4u * count))
        return COPSE_ERR_BLOB_HEADER;
    for (k = 0; k < count; k++) {
        v = blob_get_u32(info->tree + 4u * k);
        __builtin_memcpy((uint8_t *)t + fields[k], &v, sizeof v);
    }
    return COPSE_OK;
}

/* The header's bounds: min x, y, z, max x, y, z (2D: z = 0). */
static void put_bounds(float bounds[6], copse_vec3 mn, copse_vec3 mx)
{
    bounds[0] = mn.x;
    bounds[1] = mn.y;
    bounds[2] = mn.z;
    bounds[3] = mx.x;
    bounds[4] = mx.y;
    bounds[5] = mx.z;
}

/* BLOB_SECTION unless the blob's sections are exactly those a tree with its counts saves. */
static copse_status check_sections(const copse_blob_info *info, const blob_words *secs, uint32_t count)
{
    uint64_t sizes[COPSE_BLOB_MAX_SECTIONS];
    uint32_t s;
    for (s = 0; s < count; s++)
        sizes[s] = secs[s].bytes;
    return copse__blob_view_sections(info, count, sizes);
}

/* =============================================================================================
 * 2D
 * ========================================================================================== */

/* A box the builder would take: finite, positive width and height. */
static bool box2_valid(const copse_box2 *b)
{
    return bsp_finite2(&b->min) && bsp_finite2(&b->max) && b->min.x < b->max.x && b->min.y < b->max.y;
}

/* The count relations a built tree has (a full binary tree: N = 2L - 1). */
static copse_status bsp2_counts(const copse_bsp2 *t)
{
    if (t->node_count == 0 || (uint64_t)t->node_count != 2u * (uint64_t)t->leaf_count - 1u ||
        t->object_count > COPSE_BSP_MAX_OBJECTS || t->item_count > 0x7FFFFFFFu)
        return COPSE_ERR_BLOB_HEADER;
    return t->depth > COPSE_BSP_MAX_DEPTH ? COPSE_ERR_TOO_DEEP : COPSE_OK;
}

/* A leaf: its items continue the previous leaf's (`*slot`), ascending object indices in range. */
static copse_status bsp2_leaf(const copse_bsp2 *t, const copse_bsp2_node *n, uint32_t *slot)
{
    uint32_t i, count = n->info >> 2, prev = 0;
    if (!blob_same_bits(n->split, 0.0f) || n->index != *slot || count > t->item_count - *slot)
        return COPSE_ERR_BLOB_NODE;
    for (i = 0; i < count; i++) {
        uint32_t o = t->items[*slot + i];
        if (o >= t->object_count || (i > 0 && o <= prev))
            return COPSE_ERR_BLOB_PRIM;
        prev = o;
    }
    *slot += count;
    return COPSE_OK;
}

/* The tree in one pass: nodes met in pre-order exactly once (so a tree, no cycles), splits
 * finite and strictly inside the scene, leaves tiling the items, depth as recorded. */
static copse_status bsp2_walk(const copse_bsp2 *t)
{
    blob_entry stack[BSP_STACK];
    uint32_t sp = 0, expected = 0, slot = 0, depth = 0, i;
    const float lo[2] = {t->scene.min.x, t->scene.min.y}, hi[2] = {t->scene.max.x, t->scene.max.y};
    if (!box2_valid(&t->scene))
        return COPSE_ERR_BLOB_BOUNDS;
    for (i = 0; i < t->object_count; i++)
        if (!box2_valid(&t->objects[i]))
            return COPSE_ERR_BLOB_BOUNDS;
    stack[sp].code = 0;
    stack[sp++].depth = 0;
    while (sp > 0) {
        blob_entry e = stack[--sp];
        const copse_bsp2_node *n;
        uint32_t axis;
        copse_status st;
        if (e.code != expected || expected >= t->node_count)
            return COPSE_ERR_BLOB_NODE;
        expected++;
        n = &t->nodes[e.code];
        axis = n->info & 3u;
        depth = e.depth > depth ? e.depth : depth;
        if (axis == COPSE_BSP2_LEAF) {
            st = bsp2_leaf(t, n, &slot);
            if (st != COPSE_OK)
                return st;
            continue;
        }
        if (axis > COPSE_BSP2_LEAF || (n->info >> 2) != 0u)
            return COPSE_ERR_BLOB_NODE;
        if (!(n->split > lo[axis] && n->split < hi[axis]))
            return COPSE_ERR_BLOB_BOUNDS; /* also NaN */
        if (e.depth >= COPSE_BSP_MAX_DEPTH || sp + 2u > BSP_STACK)
            return COPSE_ERR_TOO_DEEP;
        stack[sp].code = n->index;
        stack[sp++].depth = e.depth + 1u;
        stack[sp].code = e.code + 1u;
        stack[sp++].depth = e.depth + 1u;
    }
    if (expected != t->node_count || slot != t->item_count)
        return COPSE_ERR_BLOB_NODE;
    return depth == t->depth ? COPSE_OK : COPSE_ERR_BLOB_DEPTH;
}

static void words(blob_words *w, const void *data, uint32_t count, size_t element)
{
    w->data = data;
    w->bytes = (uint64_t)count * element;
}

static void bsp2_sections(const copse_bsp2 *t, blob_words secs[BSP2_SECTIONS])
{
    words(&secs[0], t->nodes, t->node_count, sizeof(copse_bsp2_node));
    words(&secs[1], t->items, t->item_count, 4u);
    words(&secs[2], t->objects, t->object_count, sizeof(copse_box2));
}

size_t copse_bsp2_save_bytes(const copse_bsp2 *bsp)
{
    blob_words secs[BSP2_SECTIONS];
    if (bsp == NULL || bsp->node_count == 0)
        return 0;
    bsp2_sections(bsp, secs);
    return copse__blob_words_size(BSP2_SECTIONS, secs);
}

copse_status copse_bsp2_save(const copse_bsp2 *bsp, void *buf, size_t cap, size_t *written)
{
    blob_words secs[BSP2_SECTIONS];
    uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES];
    float bounds[6];
    copse_status st;
    if (written != NULL)
        *written = 0;
    if (bsp == NULL || (buf == NULL && cap > 0))
        return COPSE_ERR_NULL;
    if (bsp->node_count == 0)
        return COPSE_ERR_PARAM; /* not a built tree */
    st = copse_bsp2_check(bsp);
    if (st == COPSE_OK)
        st = bsp2_counts(bsp);
    if (st == COPSE_OK)
        st = bsp2_walk(bsp); /* never write a blob that would not view */
    if (st != COPSE_OK)
        return st;
    put_info(tree, bsp, k_bsp2_info, 6u);
    put_bounds(bounds, copse_v3(bsp->scene.min.x, bsp->scene.min.y, 0.0f),
               copse_v3(bsp->scene.max.x, bsp->scene.max.y, 0.0f));
    bsp2_sections(bsp, secs);
    return copse__blob_save_words(COPSE_BLOB_BSP2, tree, bounds, BSP2_SECTIONS, secs, buf, cap, written);
}

copse_status copse_bsp2_view(copse_bsp2 *bsp, const void *blob, size_t len)
{
    copse_blob_info info;
    copse_bsp2 t;
    blob_words secs[BSP2_SECTIONS];
    copse_status st;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bsp, 0, sizeof *bsp);
    __builtin_memset(&t, 0, sizeof t);
    st = open_view(blob, len, COPSE_BLOB_BSP2, &info, &t, k_bsp2_info, 6u);
    if (st == COPSE_OK)
        st = bsp2_counts(&t);
    bsp2_sections(&t, secs);
    if (st == COPSE_OK)
        st = check_sections(&info, secs, BSP2_SECTIONS);
    if (st != COPSE_OK)
        return st;
    if (!blob_same_bits(info.bounds[2], 0.0f) || !blob_same_bits(info.bounds[5], 0.0f))
        return COPSE_ERR_BLOB_BOUNDS; /* a 2D tree's z */
    t.scene = copse_box2_make(info.bounds[0], info.bounds[1], info.bounds[3], info.bounds[4]);
    t.nodes = (const copse_bsp2_node *)blob_section_data(blob, &info, 0);
    t.items = (const uint32_t *)blob_section_data(blob, &info, 1);
    t.objects = (const copse_box2 *)blob_section_data(blob, &info, 2);
    st = bsp2_walk(&t);
    if (st == COPSE_OK)
        *bsp = t;
    return st;
}

/* =============================================================================================
 * 3D
 * ========================================================================================== */

static copse_status bsp3_counts(const copse_bsp3 *t)
{
    const uint64_t b = t->brush_count;
    if (t->brush_count > COPSE_BSP_MAX_OBJECTS || t->side_count < 4u * b ||
        t->side_count > (COPSE_BSP3_MAX_SIDES + BSP3_BEVELS_MAX) * b || t->plane_count > t->side_count ||
        t->leaf_brush_count < t->leaf_count || (uint64_t)t->leaf_count > (uint64_t)t->node_count + 1u ||
        (t->node_count == 0 && t->depth != 0))
        return COPSE_ERR_BLOB_HEADER;
    return t->depth > COPSE_BSP_MAX_DEPTH ? COPSE_ERR_TOO_DEEP : COPSE_OK;
}

/* The root follows from the counts: node 0, else the only leaf, else empty space. */
static uint32_t bsp3_root(const copse_bsp3 *t)
{
    return t->node_count > 0 ? 0u : (t->leaf_count > 0 ? COPSE_BSP3_LEAF : COPSE_BSP3_EMPTY);
}

/* Margins in range, bounds finite and ordered (all zero without brushes), planes finite, brushes tiling the
 * sides in order with plausible counts, every side a plane. */
static copse_status bsp3_brushes(const copse_bsp3 *t)
{
    const float lo[3] = {t->bounds.min.x, t->bounds.min.y, t->bounds.min.z},
                hi[3] = {t->bounds.max.x, t->bounds.max.y, t->bounds.max.z};
    uint32_t i, k, side = 0;
    if (!geo_finite(t->inflate) || !(t->inflate >= 1.0f) || !geo_finite(t->slack) || !(t->slack >= 0.0f))
        return COPSE_ERR_BLOB_HEADER; /* the margins: tree constants */
    for (k = 0; k < 3u; k++)
        if (!geo_finite(lo[k]) || !geo_finite(hi[k]) || lo[k] > hi[k] ||
            (t->brush_count == 0 && (!blob_same_bits(lo[k], 0.0f) || !blob_same_bits(hi[k], 0.0f))))
            return COPSE_ERR_BLOB_BOUNDS;
    for (i = 0; i < t->plane_count; i++)
        if (!bsp_finite3(&t->planes[i].normal) || !geo_finite(t->planes[i].dist))
            return COPSE_ERR_BLOB_BOUNDS;
    for (i = 0; i < t->brush_count; i++) {
        const copse_bsp3_brush *b = &t->brushes[i];
        uint32_t sides = copse_bsp3_brush_sides(b), split = copse_bsp3_brush_split_sides(b);
        if (b->first != side || split < 4u || split > COPSE_BSP3_MAX_SIDES || sides < split ||
            sides > split + BSP3_BEVELS_MAX || sides > t->side_count - side)
            return COPSE_ERR_BLOB_PRIM;
        for (k = 0; k < sides; k++)
            if (t->sides[side + k] >= t->plane_count)
                return COPSE_ERR_BLOB_PRIM;
        side += sides;
    }
    return side == t->side_count ? COPSE_OK : COPSE_ERR_BLOB_PRIM;
}

typedef struct bsp3_tally {
    uint32_t node, leaf, ref, depth, solid, mixed, empty;
} bsp3_tally;

/* A child code met by the walk: nodes and leaves each numbered in the order a back-first walk
 * meets them (as the builder emits them), so each is reached exactly once. */
static copse_status bsp3_leaf(const copse_bsp3 *t, uint32_t code, bsp3_tally *n)
{
    const copse_bsp3_leaf *leaf;
    uint32_t i, count;
    if (code == COPSE_BSP3_EMPTY) {
        n->empty++;
        return COPSE_OK;
    }
    if ((code & ~COPSE_BSP3_LEAF) != n->leaf || n->leaf >= t->leaf_count)
        return COPSE_ERR_BLOB_NODE;
    leaf = &t->leaves[n->leaf++];
    count = leaf->info & ~COPSE_BSP3_MIXED;
    if (leaf->first != n->ref || count == 0 || count > t->leaf_brush_count - n->ref)
        return COPSE_ERR_BLOB_NODE;
    for (i = 0; i < count; i++)
        if (t->leaf_brushes[n->ref + i] >= t->brush_count)
            return COPSE_ERR_BLOB_PRIM;
    n->ref += count;
    n->mixed += (leaf->info & COPSE_BSP3_MIXED) != 0u;
    n->solid += (leaf->info & COPSE_BSP3_MIXED) == 0u;
    return COPSE_OK;
}

/* The tree in one pass; fills the leaf tallies. */
static copse_status bsp3_walk(const copse_bsp3 *t, bsp3_tally *n)
{
    blob_entry stack[BSP_STACK];
    uint32_t sp = 0;
    __builtin_memset(n, 0, sizeof *n);
    stack[sp].code = bsp3_root(t);
    stack[sp++].depth = 0;
    while (sp > 0) {
        blob_entry e = stack[--sp];
        const copse_bsp3_node *node;
        n->depth = e.depth > n->depth ? e.depth : n->depth;
        if (!bsp3_is_node(e.code)) {
            copse_status st = bsp3_leaf(t, e.code, n);
            if (st != COPSE_OK)
                return st;
            continue;
        }
        if (e.code != n->node || n->node >= t->node_count)
            return COPSE_ERR_BLOB_NODE;
        node = &t->nodes[n->node++];
        if (node->plane >= t->plane_count)
            return COPSE_ERR_BLOB_NODE;
        if (e.depth >= COPSE_BSP_MAX_DEPTH || sp + 2u > BSP_STACK)
            return COPSE_ERR_TOO_DEEP;
        stack[sp].code = node->child[0]; /* front waits, back first: the builder's order */
        stack[sp++].depth = e.depth + 1u;
        stack[sp].code = node->child[1];
        stack[sp++].depth = e.depth + 1u;
    }
    if (n->node != t->node_count || n->leaf != t->leaf_count || n->ref != t->leaf_brush_count)
        return COPSE_ERR_BLOB_NODE;
    return n->depth == t->depth ? COPSE_OK : COPSE_ERR_BLOB_DEPTH;
}

/* Everything a view checks past the counts, the container and the section sizes. */
static copse_status bsp3_validate(const copse_bsp3 *t, bsp3_tally *n)
{
    copse_status st = bsp3_brushes(t);
    if (st == COPSE_OK)
        st = bsp3_walk(t, n);
    return st;
}

static void bsp3_sections(const copse_bsp3 *t, const float margins[2], blob_words secs[BSP3_SECTIONS])
{
    words(&secs[0], t->nodes, t->node_count, sizeof(copse_bsp3_node));
    words(&secs[1], t->planes, t->plane_count, sizeof(copse_plane));
    words(&secs[2], t->sides, t->side_count, 4u);
    words(&secs[3], t->brushes, t->brush_count, sizeof(copse_bsp3_brush));
    words(&secs[4], t->leaves, t->leaf_count, sizeof(copse_bsp3_leaf));
    words(&secs[5], t->leaf_brushes, t->leaf_brush_count, 4u);
    words(&secs[6], margins, 2u, sizeof(float));
}

size_t copse_bsp3_save_bytes(const copse_bsp3 *bsp)
{
    blob_words secs[BSP3_SECTIONS];
    float margins[2] = {0.0f, 0.0f};
    if (bsp == NULL || (bsp3_is_node(bsp->root) && bsp->node_count == 0))
        return 0; /* not a built tree (a zeroed one) */
    bsp3_sections(bsp, margins, secs);
    return copse__blob_words_size(BSP3_SECTIONS, secs);
}

copse_status copse_bsp3_save(const copse_bsp3 *bsp, void *buf, size_t cap, size_t *written)
{
    blob_words secs[BSP3_SECTIONS];
    uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES];
    float bounds[6], margins[2];
    bsp3_tally tally;
    copse_status st;
    if (written != NULL)
        *written = 0;
    if (bsp == NULL || (buf == NULL && cap > 0))
        return COPSE_ERR_NULL;
    if (bsp3_is_node(bsp->root) && bsp->node_count == 0)
        return COPSE_ERR_PARAM; /* not a built tree (a zeroed one), as save_bytes and the 2D save say */
    st = copse_bsp3_check(bsp);
    if (st == COPSE_OK)
        st = bsp3_counts(bsp);
    if (st == COPSE_OK && bsp->root != bsp3_root(bsp))
        st = COPSE_ERR_BLOB_NODE;
    if (st == COPSE_OK)
        st = bsp3_validate(bsp, &tally); /* never write a blob that would not view */
    if (st != COPSE_OK)
        return st;
    put_info(tree, bsp, k_bsp3_info, 8u);
    put_bounds(bounds, bsp->bounds.min, bsp->bounds.max);
    margins[0] = bsp->inflate;
    margins[1] = bsp->slack;
    bsp3_sections(bsp, margins, secs);
    return copse__blob_save_words(COPSE_BLOB_BSP3, tree, bounds, BSP3_SECTIONS, secs, buf, cap, written);
}

copse_status copse_bsp3_view(copse_bsp3 *bsp, const void *blob, size_t len)
{
    copse_blob_info info;
    copse_bsp3 t;
    blob_words secs[BSP3_SECTIONS];
    const float *margins;
    bsp3_tally tally;
    copse_status st;
    if (bsp == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(bsp, 0, sizeof *bsp);
    bsp->root = COPSE_BSP3_EMPTY;
    __builtin_memset(&t, 0, sizeof t);
    st = open_view(blob, len, COPSE_BLOB_BSP3, &info, &t, k_bsp3_info, 8u);
    if (st == COPSE_OK)
        st = bsp3_counts(&t);
    bsp3_sections(&t, NULL, secs);
    if (st == COPSE_OK)
        st = check_sections(&info, secs, BSP3_SECTIONS);
    if (st != COPSE_OK)
        return st;
    t.nodes = (const copse_bsp3_node *)blob_section_data(blob, &info, 0);
    t.planes = (const copse_plane *)blob_section_data(blob, &info, 1);
    t.sides = (const uint32_t *)blob_section_data(blob, &info, 2);
    t.brushes = (const copse_bsp3_brush *)blob_section_data(blob, &info, 3);
    t.leaves = (const copse_bsp3_leaf *)blob_section_data(blob, &info, 4);
    t.leaf_brushes = (const uint32_t *)blob_section_data(blob, &info, 5);
    margins = (const float *)blob_section_data(blob, &info, 6);
    t.inflate = margins[0];
    t.slack = margins[1];
    t.bounds = copse_box3_make(info.bounds[0], info.bounds[1], info.bounds[2], info.bounds[3], info.bounds[4],
                               info.bounds[5]);
    t.root = bsp3_root(&t);
    st = bsp3_validate(&t, &tally);
    if (st != COPSE_OK)
        return st;
    t.solid_leaves = tally.solid;
    t.mixed_leaves = tally.mixed;
    t.empty_leaves = tally.empty;
    *bsp = t;
    return COPSE_OK;
}

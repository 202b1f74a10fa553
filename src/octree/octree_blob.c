/* SPDX-License-Identifier: MIT */
/*
 * Saving the octrees as blobs and viewing them in place (docs/format.md, "Point octree" and
 * "Loose octree").
 *
 * A save writes a canonical compacted form: nodes renumbered in pre-order (children in the
 * tree's own sibling order), so free lists and holes in the pools leave no trace and the query
 * walks visit the same nodes in the same order as on the original. A view checks that form in
 * one walk that must meet the nodes in index order 0, 1, 2, ... (so each is reached exactly
 * once and no link can loop), then the geometry.
 */

#include "octree_internal.h"
#include "../blob/blob_internal.h"

/* The view reads the sections through the library's structs: their layout must be the
 * format's (4-byte fields, no padding). A compiler that pads them fails to compile here. */
typedef char oct_blob_node_layout[(sizeof(copse_octree_node) == COPSE_OCTREE_NODE_BYTES &&
                                   offsetof(copse_octree_node, max) == 12u &&
                                   offsetof(copse_octree_node, first) == 24u &&
                                   offsetof(copse_octree_node, next) == 28u &&
                                   offsetof(copse_octree_node, meta) == 32u && sizeof(copse_vec3) == 12u) ? 1 : -1];
typedef char oct_blob_loose_layout[(sizeof(copse_loose_node) == COPSE_LOOSE_NODE_BYTES &&
                                    offsetof(copse_loose_node, next) == 4u &&
                                    offsetof(copse_loose_node, first_object) == 8u &&
                                    offsetof(copse_loose_node, meta) == 12u &&
                                    sizeof(copse_loose_object) == COPSE_LOOSE_OBJECT_BYTES &&
                                    offsetof(copse_loose_object, node) == 24u &&
                                    offsetof(copse_loose_object, next) == 28u) ? 1 : -1];
/* One path array serves both trees' walks. */
typedef char oct_blob_depths[(COPSE_LOOSE_MAX_DEPTH <= COPSE_OCTREE_MAX_DEPTH) ? 1 : -1];

#define OB_PATH (COPSE_OCTREE_MAX_DEPTH + 1u) /* levels: the root and max_depth below it */

/* Section ids and tree-info words (relative to header byte 32), docs/format.md. */
#define OB_SECTION_CELL 1u
#define OB_SECTION_NODES 2u
#define OB_SECTION_BUCKETS 3u /* point octree */
#define OB_SECTION_POINTS 4u
#define OB_SECTION_IDS 5u
#define OB_SECTION_OBJECTS 3u /* loose octree */
#define OB_CELL_BYTES 16u     /* centre x, y, z, half size */

#define PI_NODES 0u
#define PI_BUCKETS 4u
#define PI_POINTS 8u
#define PI_BUCKET_SIZE 12u
#define PI_LEAF_SIZE 16u
#define PI_MAX_DEPTH 20u
#define PI_DEPTH 24u
#define PI_USED 28u

#define LI_NODES 0u
#define LI_OBJECTS 4u
#define LI_SIZE 8u
#define LI_MAX_DEPTH 12u
#define LI_NODE_CAPACITY 16u
#define LI_DEPTH 20u
#define LI_USED 24u

/* ---- what both trees share -------------------------------------------------------------------- */

/* One node's links and meta fields, whatever the tree: the walks below are written once. */
typedef enum ob_field { OB_CHILD, OB_NEXT, OB_OCTANT } ob_field;
typedef enum ob_tree { OB_POINT, OB_LOOSE } ob_tree;

static uint32_t point_field(const void *tree, uint32_t n, ob_field field)
{
    const copse_octree_node *node = &((const copse_octree *)tree)->nodes[n];
    if (field == OB_CHILD)
        return oct_is_leaf(node) ? OCT_NONE : node->first; /* a leaf's `first` is a bucket */
    return field == OB_NEXT ? node->next : oct_octant(node);
}

static uint32_t loose_field(const void *tree, uint32_t n, ob_field field)
{
    const copse_loose_node *node = &((const copse_loose *)tree)->nodes[n];
    if (field == OB_CHILD)
        return node->first_child;
    return field == OB_NEXT ? node->next : (node->meta & 7u);
}

/* Dispatch by switch, not through function pointers: `make stack` then sees every call. */
static uint32_t ob_node_field(const void *tree, ob_tree kind, uint32_t n, ob_field field)
{
    return kind == OB_POINT ? point_field(tree, n, field) : loose_field(tree, n, field);
}

/* Pre-order over a checked tree (the save). path[depth] is the current node. */
typedef struct ob_walk {
    uint32_t path[OB_PATH];
    uint32_t depth;
} ob_walk;

static bool ob_walk_next(ob_walk *w, const void *tree, ob_tree kind)
{
    uint32_t c = ob_node_field(tree, kind, w->path[w->depth], OB_CHILD);
    if (c != OCT_NONE && w->depth + 1u < OB_PATH) {
        w->path[++w->depth] = c;
        return true;
    }
    while (w->depth > 0u) {
        uint32_t s = ob_node_field(tree, kind, w->path[w->depth], OB_NEXT);
        if (s != OCT_NONE) {
            w->path[w->depth] = s;
            return true;
        }
        w->depth--;
    }
    return false;
}

/* The save's renumbering: node k of the walk becomes node k of the blob; its first child is
 * k + 1, and its `next` is patched in when the sibling after it is written. prev[d]: the blob
 * index of the last node written at depth d under the current parent. */
typedef struct ob_renumber {
    uint32_t prev[OB_PATH + 1u];
    uint32_t count;
} ob_renumber;

/* The blob index of the node the walk is at; patches its previous sibling's `next` (a u32 at
 * `next_offset` in a node of `node_bytes` in `nodes`). */
static uint32_t ob_renumber_node(ob_renumber *r, uint32_t depth, uint8_t *nodes, uint32_t node_bytes,
                                 uint32_t next_offset)
{
    uint32_t k = r->count++;
    if (r->prev[depth] != OCT_NONE)
        blob_put_u32(nodes + (size_t)r->prev[depth] * node_bytes + next_offset, k);
    r->prev[depth] = k;
    r->prev[depth + 1u] = OCT_NONE; /* its children start a new list */
    return k;
}

/* The view's walk: it must reach the nodes in index order, so the links of node i lead to
 * i + 1 (its first child) or to where its subtree ends (its next sibling). */
typedef struct ob_check {
    uint32_t parents[OB_PATH];
    uint32_t sp, next_index, levels, node_count, max_depth;
} ob_check;

static void ob_check_init(ob_check *c, uint32_t node_count, uint32_t max_depth)
{
    c->sp = 0;
    c->next_index = 0;
    c->levels = 0;
    c->node_count = node_count;
    c->max_depth = max_depth;
}

/* Node n is the one the links reach next: it must be the next index. */
static copse_status ob_check_enter(ob_check *c, uint32_t n)
{
    if (n != c->next_index || n >= c->node_count)
        return COPSE_ERR_BLOB_NODE;
    c->next_index++;
    c->levels = c->sp + 1u > c->levels ? c->sp + 1u : c->levels;
    return COPSE_OK;
}

/* Node n has children: at most eight, in range, in distinct octants; the first is n + 1; no
 * deeper than max_depth. *child: where the walk goes. */
static copse_status ob_check_descend(ob_check *c, const void *tree, ob_tree kind, uint32_t n, uint32_t *child)
{
    uint32_t k, seen = 0;
    for (k = ob_node_field(tree, kind, n, OB_CHILD); k != OCT_NONE; k = ob_node_field(tree, kind, k, OB_NEXT)) {
        uint32_t bit;
        if (k >= c->node_count)
            return COPSE_ERR_BLOB_NODE;
        bit = 1u << ob_node_field(tree, kind, k, OB_OCTANT);
        if ((seen & bit) != 0u)
            return COPSE_ERR_BLOB_NODE; /* also ends a looping list within nine steps */
        seen |= bit;
    }
    if (ob_node_field(tree, kind, n, OB_CHILD) != n + 1u)
        return COPSE_ERR_BLOB_NODE;
    if (c->sp >= c->max_depth)
        return COPSE_ERR_BLOB_DEPTH;
    c->parents[c->sp++] = n;
    *child = n + 1u;
    return COPSE_OK;
}

/* After node n's subtree: the next sibling of it or of the nearest ancestor that has one.
 * False when the walk is over. */
static bool ob_check_advance(ob_check *c, const void *tree, ob_tree kind, uint32_t n, uint32_t *next)
{
    while (ob_node_field(tree, kind, n, OB_NEXT) == OCT_NONE) {
        if (c->sp == 0u)
            return false;
        n = c->parents[--c->sp];
    }
    *next = ob_node_field(tree, kind, n, OB_NEXT);
    return true;
}

/* ---- save and view, for both kinds ---------------------------------------------------------- */

#define OB_MAX_SECTIONS 5u

/* A blob about to be written: the container's parts, filled by the kind's functions. */
typedef struct ob_blob {
    uint32_t total;
    size_t sizes[OB_MAX_SECTIONS];
    uint32_t offsets[OB_MAX_SECTIONS];
    uint8_t info[COPSE_BLOB_TREE_INFO_BYTES];
    float bounds[6], center[3], half;
} ob_blob;

/* Either tree, for a view built before it is handed out. */
typedef union ob_any_tree {
    copse_octree point;
    copse_loose loose;
} ob_any_tree;

/* What a kind of tree is in a blob: its kind and sections; its functions are picked by `tree`
 * (point_* or loose_*: sizes, the checks before a save with the tree info, bounds and cell,
 * the writer, and the view over a read container). */
typedef struct ob_format {
    ob_tree tree;
    uint32_t kind, section_count, info_used;
    const uint32_t *section_ids;
    size_t tree_bytes;
} ob_format;

static copse_status point_sections(const void *tree, uint64_t *bytes);
static copse_status point_prepare(const void *tree, ob_blob *b);
static void point_write(const void *tree, uint8_t *out, const uint32_t *offsets);
static copse_status point_view(ob_any_tree *t, const void *blob, const copse_blob_info *info);
static copse_status loose_sections(const void *tree, uint64_t *bytes);
static copse_status loose_prepare(const void *tree, ob_blob *b);
static void loose_write(const void *tree, uint8_t *out, const uint32_t *offsets);
static copse_status loose_view(ob_any_tree *t, const void *blob, const copse_blob_info *info);

/* The layout and total; TOO_LARGE past the format's 32-bit sizes. */
static copse_status ob_plan(const ob_format *f, const void *tree, ob_blob *b)
{
    uint64_t bytes[OB_MAX_SECTIONS], sum = 0;
    uint32_t k;
    copse_status st = f->tree == OB_POINT ? point_sections(tree, bytes) : loose_sections(tree, bytes);
    if (st != COPSE_OK)
        return st;
    for (k = 0; k < f->section_count; k++) {
        sum += bytes[k];
        b->sizes[k] = (size_t)bytes[k];
    }
    if (sum > 0xFFFFFFFFu - 256u)
        return COPSE_ERR_TOO_LARGE;
    b->total = copse__blob_layout(f->section_count, b->sizes, b->offsets);
    return b->total != 0u ? COPSE_OK : COPSE_ERR_TOO_LARGE;
}

static size_t ob_save_bytes(const ob_format *f, const void *tree)
{
    ob_blob b;
    if (tree == NULL || ob_plan(f, tree, &b) != COPSE_OK)
        return 0;
    return b.total;
}

static void ob_put_cell(uint8_t *p, const float *center, float half)
{
    unsigned a;
    for (a = 0; a < 3u; a++)
        blob_put_f32(p + 4u * a, center[a]);
    blob_put_f32(p + 12u, half);
}

static copse_status ob_save(const ob_format *f, const void *tree, void *buf, size_t cap, size_t *written)
{
    ob_blob b;
    uint8_t *out = (uint8_t *)buf;
    copse_status st;
    if (written != NULL)
        *written = 0;
    if (tree == NULL || (buf == NULL && cap > 0u))
        return COPSE_ERR_NULL;
    __builtin_memset(&b, 0, sizeof b);
    st = ob_plan(f, tree, &b);
    if (st == COPSE_OK)
        /* never write a blob that would not view */
        st = f->tree == OB_POINT ? point_prepare(tree, &b) : loose_prepare(tree, &b);
    if (st != COPSE_OK)
        return st;
    if (written != NULL)
        *written = b.total;
    if (cap < b.total)
        return COPSE_ERR_NOMEM;
    copse__blob_write_header(out, f->kind, 0u, b.total, f->section_count, f->section_ids, b.offsets, b.sizes, b.info,
                      b.bounds);
    ob_put_cell(out + b.offsets[0], b.center, b.half);
    if (f->tree == OB_POINT)
        point_write(tree, out, b.offsets);
    else
        loose_write(tree, out, b.offsets);
    copse__blob_seal(out, b.total);
    return COPSE_OK;
}

/* The container, the kind, zero flags and reserved tree-info words, the section ids in order;
 * then the kind's own checks. `out` is zeroed first and filled only on success. */
static copse_status ob_view(const ob_format *f, void *out, const void *blob, size_t len)
{
    copse_blob_info info;
    ob_any_tree t;
    copse_status st;
    uint32_t k;
    if (out == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(out, 0, f->tree_bytes);
    st = copse__blob_view_open(blob, len, f->kind, &info);
    if (st != COPSE_OK)
        return st;
    if (!blob_tree_reserved_zero(&info, f->info_used) || info.flags != 0u)
        return COPSE_ERR_BLOB_HEADER;
    if (info.section_count != f->section_count)
        return COPSE_ERR_BLOB_SECTION;
    for (k = 0; k < f->section_count; k++)
        if (info.sections[k].id != f->section_ids[k])
            return COPSE_ERR_BLOB_SECTION;
    __builtin_memset(&t, 0, sizeof t);
    st = f->tree == OB_POINT ? point_view(&t, blob, &info) : loose_view(&t, blob, &info);
    if (st == COPSE_OK)
        __builtin_memcpy(out, &t, f->tree_bytes);
    return st;
}

/* A section, read in place (the container checked its offset is a multiple of 16). The views
 * never write through the pointers they make of it. */
static uintptr_t ob_section(const void *blob, const copse_blob_info *info, uint32_t k)
{
    return (uintptr_t)blob + info->sections[k].offset;
}

/* The cell section: its size, a finite centre and a finite half size >= 0. Section words are
 * in the host's order (the container checked the marker), so they are read as floats, not
 * byte by byte as little endian: that misread every cell on a big-endian host. */
static copse_status ob_read_cell(const void *blob, const copse_blob_info *info, float *center, float *half)
{
    const uint8_t *p = (const uint8_t *)blob + info->sections[0].offset;
    if (info->sections[0].size != OB_CELL_BYTES)
        return COPSE_ERR_BLOB_SECTION;
    __builtin_memcpy(center, p, 3u * sizeof(float));
    __builtin_memcpy(half, p + 12u, sizeof(float));
    return oct_finite3(center) && geo_finite(*half) && *half >= 0.0f ? COPSE_OK : COPSE_ERR_BLOB_BOUNDS;
}

/* The header's bounds are bit for bit `bounds`. */
static bool ob_same_bounds(const copse_blob_info *info, const float *bounds)
{
    unsigned a;
    for (a = 0; a < 6u; a++)
        if (!blob_same_bits(info->bounds[a], bounds[a]))
            return false;
    return true;
}

/* The checked walk over a blob's nodes, shared by both views: links in order (ob_check_*),
 * the recorded depth, and the kind's visit (point_visit, loose_visit) on each node once its
 * child list is known to be sound. */
static copse_status point_visit(const void *tree, uint32_t n, void *state);
static copse_status loose_visit(const void *tree, uint32_t n, void *state);

static copse_status ob_check_tree(const void *tree, ob_tree kind, uint32_t node_count, uint32_t max_depth,
                                  uint32_t levels, void *state)
{
    ob_check c;
    uint32_t n = 0, child = 0;
    ob_check_init(&c, node_count, max_depth);
    for (;;) {
        bool inner;
        copse_status st = ob_check_enter(&c, n);
        if (st == COPSE_OK && c.levels > levels)
            st = COPSE_ERR_BLOB_DEPTH;
        inner = st == COPSE_OK && ob_node_field(tree, kind, n, OB_CHILD) != OCT_NONE;
        if (inner)
            st = ob_check_descend(&c, tree, kind, n, &child);
        if (st == COPSE_OK)
            st = kind == OB_POINT ? point_visit(tree, n, state) : loose_visit(tree, n, state);
        if (st != COPSE_OK)
            return st;
        if (inner)
            n = child;
        else if (!ob_check_advance(&c, tree, kind, n, &n))
            break;
    }
    if (c.next_index != node_count)
        return COPSE_ERR_BLOB_NODE;
    return c.levels == levels ? COPSE_OK : COPSE_ERR_BLOB_DEPTH;
}

/* ---- point octree ------------------------------------------------------------------------------ */

static const uint32_t k_point_ids[5] = {OB_SECTION_CELL, OB_SECTION_NODES, OB_SECTION_BUCKETS, OB_SECTION_POINTS,
                                        OB_SECTION_IDS};

static copse_status point_sections(const void *tree, uint64_t *bytes)
{
    const copse_octree *t = (const copse_octree *)tree;
    if (t->nodes == NULL)
        return COPSE_ERR_PARAM;
    bytes[0] = OB_CELL_BYTES;
    bytes[1] = (uint64_t)t->nodes_used * COPSE_OCTREE_NODE_BYTES;
    bytes[2] = (uint64_t)t->buckets_used * COPSE_OCTREE_BUCKET_BYTES(t->bucket_size);
    bytes[3] = (uint64_t)t->size * 12u;
    bytes[4] = (uint64_t)t->size * 4u;
    return COPSE_OK;
}

/* Every point in the tree still finite (the caller owns the array), and the levels. */
static copse_status point_scan(const copse_octree *t, uint32_t *levels)
{
    ob_walk w;
    w.path[0] = 0;
    w.depth = 0;
    *levels = 0;
    do {
        const copse_octree_node *node = &t->nodes[w.path[w.depth]];
        *levels = w.depth + 1u > *levels ? w.depth + 1u : *levels;
        if (oct_is_leaf(node)) {
            oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
            uint32_t k;
            while (oct_leaf_next(t, &it))
                for (k = 0; k < it.count; k++)
                    if (!oct_finite_v3(t->points[it.slots[k]]))
                        return COPSE_ERR_NONFINITE;
        }
    } while (ob_walk_next(&w, t, OB_POINT));
    return COPSE_OK;
}

/* The header's bounds: the root's, or zeros for an empty tree (not the empty root's
 * +-FLT_MAX). */
static void point_bounds(const copse_octree *t, float *bounds)
{
    unsigned a;
    for (a = 0; a < 3u; a++) {
        bounds[a] = t->size > 0u ? t->nodes[0].min[a] : 0.0f;
        bounds[3u + a] = t->size > 0u ? t->nodes[0].max[a] : 0.0f;
    }
}

static copse_status point_prepare(const void *tree, ob_blob *b)
{
    const copse_octree *t = (const copse_octree *)tree;
    uint32_t levels = 0;
    copse_status st = copse__oct_check_points(t);
    if (st == COPSE_OK)
        st = point_scan(t, &levels);
    if (st != COPSE_OK)
        return st;
    blob_put_u32(b->info + PI_NODES, t->nodes_used);
    blob_put_u32(b->info + PI_BUCKETS, t->buckets_used);
    blob_put_u32(b->info + PI_POINTS, t->size);
    blob_put_u32(b->info + PI_BUCKET_SIZE, t->bucket_size);
    blob_put_u32(b->info + PI_LEAF_SIZE, t->leaf_size);
    blob_put_u32(b->info + PI_MAX_DEPTH, t->max_depth);
    blob_put_u32(b->info + PI_DEPTH, levels);
    point_bounds(t, b->bounds);
    __builtin_memcpy(b->center, t->center, sizeof b->center);
    b->half = t->half;
    return COPSE_OK;
}

/* A leaf's points: fresh buckets one after the other, the points (and ids) in slot order. */
static void point_write_leaf(const copse_octree *t, const copse_octree_node *node, uint8_t *out,
                             const uint32_t *offsets, uint32_t *bucket, uint32_t *point)
{
    const uint32_t bucket_bytes = (uint32_t)COPSE_OCTREE_BUCKET_BYTES(t->bucket_size);
    uint32_t left = oct_count(node), k;
    oct_leaf_iter it = oct_leaf_begin(node->first, left);
    while (oct_leaf_next(t, &it)) {
        uint8_t *bk = out + offsets[2] + (size_t)*bucket * bucket_bytes;
        left -= it.count;
        blob_put_u32(bk, left > 0u ? *bucket + 1u : OCT_NONE);
        for (k = 0; k < it.count; k++) { /* unused slots stay zero */
            float p[3];
            uint8_t *pp = out + offsets[3] + (size_t)*point * 12u;
            geo_v3_array(p, t->points[it.slots[k]]);
            blob_put_u32(bk + 4u * (1u + k), *point);
            blob_put_f32(pp, p[0]);
            blob_put_f32(pp + 4u, p[1]);
            blob_put_f32(pp + 8u, p[2]);
            blob_put_u32(out + offsets[4] + (size_t)*point * 4u, oct_point_id(t, it.slots[k]));
            (*point)++;
        }
        (*bucket)++;
    }
}

static void point_write(const void *tree, uint8_t *out, const uint32_t *offsets)
{
    const copse_octree *t = (const copse_octree *)tree;
    ob_walk w;
    ob_renumber r;
    uint32_t bucket = 0, point = 0;
    uint8_t *nodes = out + offsets[1];
    w.path[0] = 0;
    w.depth = 0;
    r.count = 0;
    r.prev[0] = OCT_NONE;
    do {
        const copse_octree_node *node = &t->nodes[w.path[w.depth]];
        uint32_t k = ob_renumber_node(&r, w.depth, nodes, COPSE_OCTREE_NODE_BYTES, 28u), first = k + 1u;
        uint8_t *p = nodes + (size_t)k * COPSE_OCTREE_NODE_BYTES;
        unsigned a;
        if (oct_is_leaf(node)) {
            first = node->first != OCT_NONE ? bucket : OCT_NONE;
            point_write_leaf(t, node, out, offsets, &bucket, &point);
        }
        for (a = 0; a < 3u; a++) {
            blob_put_f32(p + 4u * a, node->min[a]);
            blob_put_f32(p + 12u + 4u * a, node->max[a]);
        }
        blob_put_u32(p + 24u, first);
        blob_put_u32(p + 28u, OCT_NONE); /* patched by the next sibling */
        blob_put_u32(p + 32u, node->meta);
    } while (ob_walk_next(&w, t, OB_POINT));
}

/* The tree info, range-checked, the section sizes it implies, the points finite. */
static copse_status point_read_info(const copse_blob_info *info, copse_octree *t, uint32_t *levels)
{
    const uint8_t *b = info->tree;
    uint32_t k;
    t->nodes_used = blob_get_u32(b + PI_NODES);
    t->buckets_used = blob_get_u32(b + PI_BUCKETS);
    t->size = blob_get_u32(b + PI_POINTS);
    t->bucket_size = blob_get_u32(b + PI_BUCKET_SIZE);
    t->leaf_size = blob_get_u32(b + PI_LEAF_SIZE);
    t->max_depth = blob_get_u32(b + PI_MAX_DEPTH);
    *levels = blob_get_u32(b + PI_DEPTH);
    if (t->nodes_used == 0u || t->nodes_used > COPSE_OCTREE_MAX_POINTS || t->buckets_used > COPSE_OCTREE_MAX_POINTS ||
        t->size > COPSE_OCTREE_MAX_POINTS || t->bucket_size == 0u || t->bucket_size > COPSE_OCTREE_MAX_BUCKET ||
        t->leaf_size == 0u || t->leaf_size > COPSE_OCTREE_MAX_POINTS || *levels == 0u ||
        (t->size == 0u && (t->nodes_used != 1u || t->buckets_used != 0u)) ||
        (uint64_t)t->buckets_used * t->bucket_size < t->size)
        return COPSE_ERR_BLOB_HEADER;
    if (t->max_depth > COPSE_OCTREE_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP;
    if (*levels > t->max_depth + 1u)
        return COPSE_ERR_BLOB_HEADER;
    if (info->sections[1].size != (uint64_t)t->nodes_used * COPSE_OCTREE_NODE_BYTES ||
        info->sections[2].size != (uint64_t)t->buckets_used * COPSE_OCTREE_BUCKET_BYTES(t->bucket_size) ||
        info->sections[3].size != (uint64_t)t->size * 12u || info->sections[4].size != (uint64_t)t->size * 4u)
        return COPSE_ERR_BLOB_SECTION;
    for (k = 0; k < t->size; k++)
        if (!oct_finite_v3(t->points[k]))
            return COPSE_ERR_BLOB_BOUNDS;
    return COPSE_OK;
}

/* The view's running counts: the next bucket and point a leaf must start at. */
typedef struct point_walk_state {
    uint32_t bucket, point;
} point_walk_state;

/* A leaf's buckets are the next ones in order, chained one to the next, holding the next point
 * numbers in order; the rest of the last bucket is zero. */
static copse_status point_check_leaf(const copse_octree *t, const copse_octree_node *node, point_walk_state *w)
{
    uint32_t left = oct_count(node), k;
    if (left == 0u)
        return node->first == OCT_NONE ? COPSE_OK : COPSE_ERR_BLOB_NODE;
    if (node->first != w->bucket)
        return COPSE_ERR_BLOB_NODE;
    while (left > 0u) {
        const uint32_t *bk;
        uint32_t m = left < t->bucket_size ? left : t->bucket_size;
        if (w->bucket >= t->buckets_used)
            return COPSE_ERR_BLOB_NODE;
        bk = oct_bucket(t, w->bucket);
        left -= m;
        if (bk[0] != (left > 0u ? w->bucket + 1u : OCT_NONE))
            return COPSE_ERR_BLOB_NODE;
        for (k = 0; k < t->bucket_size; k++) {
            uint32_t want = k < m ? w->point++ : 0u;
            if (bk[1u + k] != want || (k < m && want >= t->size))
                return COPSE_ERR_BLOB_PRIM;
        }
        w->bucket++;
    }
    return COPSE_OK;
}

/* One node (its child list already checked): finite ordered bounds (an empty tree's root: the
 * empty +-FLT_MAX), the root's count, octant 0 and no sibling; an internal node's count, the
 * sum of its children's; a leaf's buckets. */
static copse_status point_visit(const void *tree, uint32_t n, void *state)
{
    const copse_octree *t = (const copse_octree *)tree;
    const copse_octree_node *node = &t->nodes[n];
    uint32_t count = oct_count(node), least = t->leaf_size < t->bucket_size ? t->leaf_size : t->bucket_size, k;
    uint64_t sum = 0;
    unsigned a;
    if (n == 0u && (count != t->size || oct_octant(node) != 0u || node->next != OCT_NONE))
        return COPSE_ERR_BLOB_NODE;
    if (count == 0u) { /* only the root of an empty tree */
        for (a = 0; a < 3u; a++)
            if (!blob_same_bits(node->min[a], FLT_MAX) || !blob_same_bits(node->max[a], -FLT_MAX))
                return COPSE_ERR_BLOB_BOUNDS;
        return n == 0u && oct_is_leaf(node) ? COPSE_OK : COPSE_ERR_BLOB_NODE;
    }
    for (a = 0; a < 3u; a++)
        if (!geo_finite(node->min[a]) || !geo_finite(node->max[a]) || node->min[a] > node->max[a])
            return COPSE_ERR_BLOB_BOUNDS;
    if (oct_is_leaf(node))
        return point_check_leaf(t, node, (point_walk_state *)state);
    /* split only above leaf_size points, folded back at a bucket's worth; a child at least */
    if (count <= least || node->first == OCT_NONE)
        return COPSE_ERR_BLOB_NODE;
    for (k = node->first; k != OCT_NONE; k = t->nodes[k].next)
        sum += oct_count(&t->nodes[k]);
    return sum == count ? COPSE_OK : COPSE_ERR_BLOB_NODE;
}

static copse_status point_view(ob_any_tree *any, const void *blob, const copse_blob_info *info)
{
    copse_octree *t = &any->point;
    point_walk_state w;
    uint32_t levels = 0;
    float bounds[6];
    copse_status st;
    t->nodes = (copse_octree_node *)ob_section(blob, info, 1);
    t->buckets = (uint32_t *)ob_section(blob, info, 2);
    t->points = (const copse_vec3 *)ob_section(blob, info, 3);
    t->ids = (const uint32_t *)ob_section(blob, info, 4);
    st = point_read_info(info, t, &levels);
    if (st == COPSE_OK)
        st = ob_read_cell(blob, info, t->center, &t->half);
    if (st != COPSE_OK)
        return st;
    t->point_capacity = t->size;
    t->max_nodes = t->node_top = t->nodes_used;
    t->max_buckets = t->bucket_top = t->buckets_used;
    t->node_free = t->bucket_free = OCT_NONE;
    t->read_only = true;
    w.bucket = w.point = 0;
    st = ob_check_tree(t, OB_POINT, t->nodes_used, t->max_depth, levels, &w);
    if (st == COPSE_OK && w.bucket != t->buckets_used)
        st = COPSE_ERR_BLOB_NODE;
    if (st == COPSE_OK && w.point != t->size)
        st = COPSE_ERR_BLOB_PRIM;
    if (st != COPSE_OK)
        return st;
    point_bounds(t, bounds);
    if (!ob_same_bounds(info, bounds))
        return COPSE_ERR_BLOB_BOUNDS;
    /* the structure is sound: the full check now only finds bounds that are not the exact
     * ones of the points below, or a point outside its octants */
    return copse_octree_check(t) == COPSE_OK ? COPSE_OK : COPSE_ERR_BLOB_BOUNDS;
}

static const ob_format k_point_format = {OB_POINT, COPSE_BLOB_OCTREE, 5u, PI_USED, k_point_ids, sizeof(copse_octree)};

size_t copse_octree_save_bytes(const copse_octree *tree)
{
    return ob_save_bytes(&k_point_format, tree);
}

copse_status copse_octree_save(const copse_octree *tree, void *buf, size_t cap, size_t *written)
{
    return ob_save(&k_point_format, tree, buf, cap, written);
}

copse_status copse_octree_view(copse_octree *tree, const void *blob, size_t len)
{
    return ob_view(&k_point_format, tree, blob, len);
}

/* ---- loose octree ------------------------------------------------------------------------------ */

static const uint32_t k_loose_ids[3] = {OB_SECTION_CELL, OB_SECTION_NODES, OB_SECTION_OBJECTS};

static copse_status loose_sections(const void *tree, uint64_t *bytes)
{
    const copse_loose *t = (const copse_loose *)tree;
    if (t->nodes == NULL)
        return COPSE_ERR_PARAM;
    bytes[0] = OB_CELL_BYTES;
    bytes[1] = (uint64_t)t->nodes_used * COPSE_LOOSE_NODE_BYTES;
    bytes[2] = (uint64_t)t->max_objects * COPSE_LOOSE_OBJECT_BYTES;
    return COPSE_OK;
}

/* The union of the boxes in the tree (zeros when there are none); false for a box no longer
 * finite and ordered (objects' boxes are the tree's own: only a damaged tree has one). */
static bool loose_bounds(const copse_loose *t, float *bounds)
{
    uint32_t o;
    unsigned a;
    for (a = 0; a < 3u; a++) {
        bounds[a] = t->size > 0u ? FLT_MAX : 0.0f;
        bounds[3u + a] = t->size > 0u ? -FLT_MAX : 0.0f;
    }
    for (o = 0; o < t->max_objects; o++) {
        float mn[3], mx[3];
        if (t->objects[o].node == OCT_NONE)
            continue;
        geo_v3_array(mn, t->objects[o].box.min);
        geo_v3_array(mx, t->objects[o].box.max);
        for (a = 0; a < 3u; a++) {
            if (!geo_finite(mn[a]) || !geo_finite(mx[a]) || mn[a] > mx[a])
                return false;
            bounds[a] = geo_min(bounds[a], mn[a]);
            bounds[3u + a] = geo_max(bounds[3u + a], mx[a]);
        }
    }
    return true;
}

static copse_status loose_prepare(const void *tree, ob_blob *b)
{
    const copse_loose *t = (const copse_loose *)tree;
    copse_loose_stats s;
    copse_status st = copse_loose_check(t);
    if (st != COPSE_OK)
        return st;
    if (!loose_bounds(t, b->bounds))
        return COPSE_ERR_NONFINITE;
    (void)copse_loose_get_stats(t, &s);
    blob_put_u32(b->info + LI_NODES, t->nodes_used);
    blob_put_u32(b->info + LI_OBJECTS, t->max_objects);
    blob_put_u32(b->info + LI_SIZE, t->size);
    blob_put_u32(b->info + LI_MAX_DEPTH, t->max_depth);
    blob_put_u32(b->info + LI_NODE_CAPACITY, t->node_capacity);
    blob_put_u32(b->info + LI_DEPTH, s.depth + 1u);
    __builtin_memcpy(b->center, t->center, sizeof b->center);
    b->half = t->half;
    return COPSE_OK;
}

static void loose_write(const void *tree, uint8_t *out, const uint32_t *offsets)
{
    const copse_loose *t = (const copse_loose *)tree;
    ob_walk w;
    ob_renumber r;
    uint8_t *nodes = out + offsets[1], *objects = out + offsets[2];
    uint32_t o;
    for (o = 0; o < t->max_objects; o++) { /* slots not in the tree: zero box, no links */
        uint8_t *p = objects + (size_t)o * COPSE_LOOSE_OBJECT_BYTES;
        float box[6];
        unsigned a;
        geo_v3_array(box, t->objects[o].box.min);
        geo_v3_array(box + 3, t->objects[o].box.max);
        if (t->objects[o].node != OCT_NONE)
            for (a = 0; a < 6u; a++)
                blob_put_f32(p + 4u * a, box[a]);
        blob_put_u32(p + 24u, OCT_NONE); /* a member's node: set below */
        blob_put_u32(p + 28u, t->objects[o].node != OCT_NONE ? t->objects[o].next : OCT_NONE);
    }
    w.path[0] = 0;
    w.depth = 0;
    r.count = 0;
    r.prev[0] = OCT_NONE;
    do {
        const copse_loose_node *node = &t->nodes[w.path[w.depth]];
        uint32_t k = ob_renumber_node(&r, w.depth, nodes, COPSE_LOOSE_NODE_BYTES, 4u);
        uint8_t *p = nodes + (size_t)k * COPSE_LOOSE_NODE_BYTES;
        blob_put_u32(p, node->first_child != OCT_NONE ? k + 1u : OCT_NONE);
        blob_put_u32(p + 4u, OCT_NONE); /* patched by the next sibling */
        blob_put_u32(p + 8u, node->first_object);
        blob_put_u32(p + 12u, node->meta);
        for (o = node->first_object; o != OCT_NONE; o = t->objects[o].next)
            blob_put_u32(objects + (size_t)o * COPSE_LOOSE_OBJECT_BYTES + 24u, k);
    } while (ob_walk_next(&w, t, OB_LOOSE));
}

static copse_status loose_read_info(const copse_blob_info *info, copse_loose *t, uint32_t *levels)
{
    const uint8_t *b = info->tree;
    t->nodes_used = blob_get_u32(b + LI_NODES);
    t->max_objects = blob_get_u32(b + LI_OBJECTS);
    t->size = blob_get_u32(b + LI_SIZE);
    t->max_depth = blob_get_u32(b + LI_MAX_DEPTH);
    t->node_capacity = blob_get_u32(b + LI_NODE_CAPACITY);
    *levels = blob_get_u32(b + LI_DEPTH);
    if (t->nodes_used == 0u || t->nodes_used > COPSE_LOOSE_MAX_OBJECTS || t->max_objects > COPSE_LOOSE_MAX_OBJECTS ||
        t->size > t->max_objects || *levels == 0u)
        return COPSE_ERR_BLOB_HEADER;
    if (t->max_depth > COPSE_LOOSE_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP;
    if (*levels > t->max_depth + 1u)
        return COPSE_ERR_BLOB_HEADER;
    if (info->sections[1].size != (uint64_t)t->nodes_used * COPSE_LOOSE_NODE_BYTES ||
        info->sections[2].size != (uint64_t)t->max_objects * COPSE_LOOSE_OBJECT_BYTES)
        return COPSE_ERR_BLOB_SECTION;
    return COPSE_OK;
}

/* One node: octant 0 and no sibling at the root, no split flag without a node capacity, and
 * its object list: exactly its count of objects, each in range and naming this node. */
static copse_status loose_visit(const void *tree, uint32_t n, void *state)
{
    const copse_loose *t = (const copse_loose *)tree;
    const copse_loose_node *node = &t->nodes[n];
    uint32_t count = node->meta >> 4, o = node->first_object, k;
    if ((n == 0u && ((node->meta & 7u) != 0u || node->next != OCT_NONE)) ||
        (t->node_capacity == 0u && (node->meta & 8u) != 0u))
        return COPSE_ERR_BLOB_NODE;
    for (k = 0; k < count; k++) {
        if (o >= t->max_objects || t->objects[o].node != n)
            return COPSE_ERR_BLOB_PRIM;
        o = t->objects[o].next;
    }
    if (o != OCT_NONE)
        return COPSE_ERR_BLOB_PRIM;
    *(uint64_t *)state += count;
    if (node->first_child != OCT_NONE) /* children only below a split node (with a capacity) */
        return t->node_capacity > 0u && (node->meta & 8u) == 0u ? COPSE_ERR_BLOB_NODE : COPSE_OK;
    return n > 0u && count == 0u ? COPSE_ERR_BLOB_NODE : COPSE_OK; /* empty nodes are given back */
}

/* Every slot: out of the tree exactly as a cleared one (zero box, no links), or in a node; as
 * many in as the size says. */
static copse_status loose_check_slots(const copse_loose *t)
{
    static const copse_box3 zero_box;
    uint32_t o, members = 0;
    for (o = 0; o < t->max_objects; o++) {
        const copse_loose_object *obj = &t->objects[o];
        if (obj->node == OCT_NONE) {
            if (obj->next != OCT_NONE || __builtin_memcmp(&obj->box, &zero_box, sizeof zero_box) != 0)
                return COPSE_ERR_BLOB_PRIM;
        } else if (obj->node >= t->nodes_used) {
            return COPSE_ERR_BLOB_PRIM;
        } else {
            members++;
        }
    }
    return members == t->size ? COPSE_OK : COPSE_ERR_BLOB_PRIM;
}

/* Each object in the node its box places it in (so inside that node's loose cell). */
static copse_status loose_check_places(const copse_loose *t)
{
    uint32_t o;
    for (o = 0; o < t->max_objects; o++)
        if (t->objects[o].node != OCT_NONE && !copse__loose_object_placed(t, o))
            return COPSE_ERR_BLOB_BOUNDS;
    return COPSE_OK;
}

static copse_status loose_view(ob_any_tree *any, const void *blob, const copse_blob_info *info)
{
    copse_loose *t = &any->loose;
    uint32_t levels = 0;
    uint64_t listed = 0;
    float bounds[6];
    copse_status st;
    t->nodes = (copse_loose_node *)ob_section(blob, info, 1);
    t->objects = (copse_loose_object *)ob_section(blob, info, 2);
    st = loose_read_info(info, t, &levels);
    if (st == COPSE_OK)
        st = ob_read_cell(blob, info, t->center, &t->half);
    if (st != COPSE_OK)
        return st;
    t->max_nodes = t->node_top = t->nodes_used;
    t->node_free = OCT_NONE;
    t->read_only = true;
    st = ob_check_tree(t, OB_LOOSE, t->nodes_used, t->max_depth, levels, &listed);
    if (st == COPSE_OK && listed != t->size)
        st = COPSE_ERR_BLOB_PRIM;
    if (st == COPSE_OK)
        st = loose_check_slots(t);
    if (st == COPSE_OK && (!loose_bounds(t, bounds) || !ob_same_bounds(info, bounds)))
        st = COPSE_ERR_BLOB_BOUNDS;
    return st == COPSE_OK ? loose_check_places(t) : st;
}

static const ob_format k_loose_format = {OB_LOOSE, COPSE_BLOB_LOOSE, 3u, LI_USED, k_loose_ids, sizeof(copse_loose)};

size_t copse_loose_save_bytes(const copse_loose *tree)
{
    return ob_save_bytes(&k_loose_format, tree);
}

copse_status copse_loose_save(const copse_loose *tree, void *buf, size_t cap, size_t *written)
{
    return ob_save(&k_loose_format, tree, buf, cap, written);
}

copse_status copse_loose_view(copse_loose *tree, const void *blob, size_t len)
{
    return ob_view(&k_loose_format, tree, blob, len);
}

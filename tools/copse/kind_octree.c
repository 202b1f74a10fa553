/* SPDX-License-Identifier: MIT */
/*
 * The octree backends of the tool. Both blobs are self-contained (a point-octree blob holds its
 * points and ids, a loose-octree blob its boxes), so stats, queries and SVG need only the blob.
 *
 *   octree  baked from a point cloud (.xyz text or .pcd, tools/lib/pointcloud_load.h); point i
 *           of the file has id i. --leaf N (points a leaf holds, default 4), --bucket N (slots
 *           a bucket, default the leaf size), --depth N (levels below the root, default 16).
 *   loose   baked from a 3D box file: one `box x0 y0 z0 x1 y1 z1` a line (object i is the i-th
 *           box), an optional `world x0 y0 z0 x1 y1 z1` (default: the boxes' bounds), '#'
 *           comments. --leaf N (objects a node keeps before splitting, default 4), --depth N
 *           (default 8).
 * Queries: octree_query.h. SVG: the node cells projected on --plane, coloured by level, over
 * the points (at most SVG_MAX_POINTS, evenly subsampled) or the boxes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copse/blob.h"
#include "copse/octree.h"
#include "emit_c.h"
#include "octree_query.h"
#include "pointcloud_load.h"
#include "svg.h"
#include "tool.h"
#include "word_query.h"

#define OCTREE_DEFAULT_DEPTH 16u
#define LOOSE_DEFAULT_DEPTH 8u
#define SVG_MAX_POINTS 20000u

/* A cell of the walk that draws: a node, its level (root 1), its cube. */
typedef struct draw_cell {
    uint32_t node, level;
    float center[3], half;
} draw_cell;

/* The child's cube, with the library's arithmetic (octant bit a: the high half along axis a). */
static void child_cell(const draw_cell *parent, uint32_t node, unsigned octant, draw_cell *child)
{
    float q = parent->half * 0.5f;
    unsigned a;
    for (a = 0; a < 3; a++)
        child->center[a] = (octant >> a) & 1u ? parent->center[a] + q : parent->center[a] - q;
    child->half = q;
    child->node = node;
    child->level = parent->level + 1u;
}

static void draw_cube(svg_canvas *c, const draw_cell *cell, const unsigned *ax)
{
    float lo[2], hi[2];
    unsigned a;
    for (a = 0; a < 2; a++) {
        lo[a] = cell->center[ax[a]] - cell->half;
        hi[a] = cell->center[ax[a]] + cell->half;
    }
    svg_rect(c, lo, hi, cell->level);
}

/* Links of a node, for the one walk both kinds draw with. */
typedef struct node_links {
    uint32_t (*first_child)(const void *tree, uint32_t node); /* COPSE_NONE for none */
    uint32_t (*next)(const void *tree, uint32_t node);
    unsigned (*octant)(const void *tree, uint32_t node);
} node_links;

/* Draws every node's cell down to max_level (0: all), depth first with an explicit stack;
 * returns the cells drawn. */
static uint32_t draw_cells(svg_canvas *c, const void *tree, const node_links *links, const float *center, float half,
                           unsigned max_level, const unsigned *ax)
{
    draw_cell stack[COPSE_OCTREE_MAX_DEPTH + 2u];
    uint32_t sp = 0, drawn = 0;
    memcpy(stack[0].center, center, sizeof stack[0].center);
    stack[0].half = half;
    stack[0].node = 0;
    stack[0].level = 1;
    sp = 1;
    while (sp > 0) {
        draw_cell cur = stack[sp - 1u];
        uint32_t child = links->first_child(tree, cur.node);
        if (max_level == 0 || cur.level <= max_level) {
            draw_cube(c, &cur, ax);
            drawn++;
        }
        if (child != COPSE_NONE && sp < sizeof stack / sizeof stack[0] && (max_level == 0 || cur.level < max_level)) {
            child_cell(&cur, child, links->octant(tree, child), &stack[sp++]);
            continue;
        }
        /* no deeper: go to the next sibling of this cell or of the nearest ancestor that has one */
        while (sp > 0) {
            draw_cell done = stack[--sp];
            uint32_t next = links->next(tree, done.node);
            if (next != COPSE_NONE && sp > 0) {
                child_cell(&stack[sp - 1u], next, links->octant(tree, next), &stack[sp]);
                sp++;
                break;
            }
        }
    }
    return drawn;
}

/* Opens the SVG over the root cube on the drawn axes, titled "copse <what>: <input>". */
static int begin_cube_svg(svg_canvas *c, const tool_opts *o, const float *center, float half, const unsigned *ax,
                          const char *what, unsigned levels)
{
    float lo[2], hi[2];
    char title[300];
    unsigned a;
    for (a = 0; a < 2; a++) {
        lo[a] = center[ax[a]] - half;
        hi[a] = center[ax[a]] + half;
    }
    snprintf(title, sizeof title, "copse %s: %s", what, o->input);
    return svg_begin(c, o->output, lo, hi, title, levels);
}

/* ---- point octree ------------------------------------------------------------------------------ */

static int octree_bake(const tool_opts *o)
{
    copse_octree_config cfg;
    copse_octree tree;
    copse_arena arena, scratch;
    copse_status st;
    host_points pts;
    uint32_t i, nodes = 0, buckets = 0;
    uint8_t *pools = NULL, *scratch_mem = NULL, *blob = NULL;
    size_t pool_bytes, scratch_bytes, blob_len = 0;
    char err[600];
    int rc = 1;
    if (o->leaf < 1)
        return tool_usage("octree: --leaf %u: expected 1 or more", o->leaf);
    if (o->bucket > COPSE_OCTREE_MAX_BUCKET)
        return tool_usage("octree: --bucket %u: expected 1 to %u", o->bucket, COPSE_OCTREE_MAX_BUCKET);
    if (o->depth > (int)COPSE_OCTREE_MAX_DEPTH)
        return tool_usage("octree: --depth %d: expected 1 to %u", o->depth, COPSE_OCTREE_MAX_DEPTH);
    tool_progress(o, "loading %s", o->input);
    if (host_points_load(o->input, &pts, err, sizeof err) != 0)
        return tool_fail("%s", err);
    if (pts.count > COPSE_OCTREE_MAX_POINTS) {
        host_points_free(&pts);
        return tool_fail("%s: %lu points, more than a point octree holds (%lu)", o->input, (unsigned long)pts.count,
                         (unsigned long)COPSE_OCTREE_MAX_POINTS);
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.points = (const copse_vec3 *)(const void *)pts.xyz;
    cfg.point_capacity = pts.count;
    cfg.bounds = copse_box3_make(0, 0, 0, 1, 1, 1); /* the build replaces it with the points' cube */
    cfg.max_nodes = 1;
    cfg.leaf_size = o->leaf;
    cfg.bucket_size = o->bucket > 0 ? o->bucket : (o->leaf < COPSE_OCTREE_MAX_BUCKET ? o->leaf : COPSE_OCTREE_MAX_BUCKET);
    cfg.max_depth = o->depth > 0 ? (uint32_t)o->depth : OCTREE_DEFAULT_DEPTH;
    /* measure with the smallest pools, then build into exactly what it needs */
    for (i = 0; i < 2; i++) {
        pool_bytes = copse_octree_bytes(&cfg);
        free(pools);
        if (pool_bytes == (size_t)-1 || (pools = (uint8_t *)malloc(pool_bytes)) == NULL) {
            tool_fail("%s: no memory for the octree's pools", o->input);
            goto done;
        }
        copse_arena_init(&arena, pools, pool_bytes);
        if ((st = copse_octree_init(&tree, &arena, &cfg)) != COPSE_OK) {
            tool_fail("%s: octree: %s", o->input, copse_status_str(st));
            goto done;
        }
        scratch_bytes = copse_octree_build_scratch_bytes(&tree, pts.count);
        free(scratch_mem);
        if ((scratch_mem = (uint8_t *)malloc(scratch_bytes > 0 ? scratch_bytes : 1)) == NULL) {
            tool_fail("out of memory");
            goto done;
        }
        copse_arena_init(&scratch, scratch_mem, scratch_bytes);
        st = i == 0 ? copse_octree_measure(&tree, &scratch, pts.count, &nodes, &buckets)
                    : copse_octree_build(&tree, &scratch, pts.count);
        if (st != COPSE_OK) {
            tool_fail("%s: the octree build failed: %s", o->input, copse_status_str(st));
            goto done;
        }
        cfg.max_nodes = nodes > 0 ? nodes : 1;
        cfg.max_buckets = buckets;
        if (i == 0)
            tool_progress(o, "building the point octree over %lu points: %lu nodes, %lu buckets",
                          (unsigned long)pts.count, (unsigned long)nodes, (unsigned long)buckets);
    }
    if ((blob_len = copse_octree_save_bytes(&tree)) == 0 || (blob = (uint8_t *)malloc(blob_len)) == NULL ||
        (st = copse_octree_save(&tree, blob, blob_len, NULL)) != COPSE_OK)
        tool_fail("%s: saving the point octree failed", o->input);
    else
        rc = emit_blob_output(o->input, o->output, o->name, "octree.h", "octree", "octree", blob, blob_len);
done:
    free(blob);
    free(scratch_mem);
    free(pools);
    host_points_free(&pts);
    return rc;
}

static int octree_open(const tool_opts *o, const void *blob, size_t len, copse_octree *tree)
{
    return tool_viewed(o, copse_octree_view(tree, blob, len), "point octree");
}

#define OCT_META_COUNT(m) ((m) & 0x0FFFFFFFu)
#define OCT_META_LEAF(m) (((m) >> 31) & 1u)

/* "leaves    largest M; histogram (points count): P C ...": every leaf size that occurs. */
static int print_leaf_histogram(const copse_octree *t, uint32_t largest)
{
    uint32_t *bins = (uint32_t *)calloc((size_t)largest + 1u, sizeof *bins), i;
    if (bins == NULL)
        return tool_fail("out of memory");
    for (i = 0; i < t->nodes_used; i++)
        if (OCT_META_LEAF(t->nodes[i].meta))
            bins[OCT_META_COUNT(t->nodes[i].meta)]++;
    printf("leaves    largest %lu; histogram (points count):", (unsigned long)largest);
    for (i = 0; i <= largest; i++)
        if (bins[i] > 0)
            printf(" %lu %lu", (unsigned long)i, (unsigned long)bins[i]);
    putchar('\n');
    free(bins);
    return 0;
}

static int octree_stats(const tool_opts *o, const void *blob, size_t len)
{
    copse_octree t;
    copse_octree_stats s;
    copse_status st;
    if (octree_open(o, blob, len, &t) != 0)
        return 1;
    if ((st = copse_octree_get_stats(&t, &s)) != COPSE_OK)
        return tool_fail("%s: stats: %s", o->input, copse_status_str(st));
    printf("file      %s: point octree blob, format v%u, %lu bytes\n", o->input, COPSE_BLOB_VERSION, (unsigned long)len);
    printf("tree      point octree, leaf %lu, bucket %lu, max depth %lu; root cell centre %g %g %g half %g\n",
           (unsigned long)t.leaf_size, (unsigned long)t.bucket_size, (unsigned long)t.max_depth, (double)t.center[0],
           (double)t.center[1], (double)t.center[2], (double)t.half);
    tool_bounds_line(blob, len, 3, NULL);
    printf("axes      the cloud's own (a point cloud is never turned)\n");
    printf("points    %lu\n", (unsigned long)s.points);
    printf("nodes     %lu (%lu leaves, %lu internal)\n", (unsigned long)s.nodes, (unsigned long)s.leaves,
           (unsigned long)(s.nodes - s.leaves));
    printf("buckets   %lu of %lu slots; %lu overflowing leaves\n", (unsigned long)s.buckets,
           (unsigned long)t.bucket_size, (unsigned long)s.overflow_leaves);
    printf("depth     %lu\n", (unsigned long)s.depth);
    printf("bytes     blob %lu (%.2f per point); nodes %lu + buckets %lu in an arena\n", (unsigned long)len,
           s.points > 0 ? (double)len / (double)s.points : 0.0, (unsigned long)(COPSE_OCTREE_NODE_BYTES * s.nodes),
           (unsigned long)(COPSE_OCTREE_BUCKET_BYTES(t.bucket_size) * s.buckets));
    if (print_leaf_histogram(&t, s.max_leaf_points) != 0)
        return 1;
    return tool_check_line(o, copse_octree_check(&t));
}

static int octree_query(const tool_opts *o, const void *blob, size_t len)
{
    copse_octree t;
    return octree_open(o, blob, len, &t) != 0 ? 1 : word_run(o->queries, o->words, o->word_count, &t, octree_answer);
}

static uint32_t oct_first_child(const void *tree, uint32_t node)
{
    const copse_octree_node *n = &((const copse_octree *)tree)->nodes[node];
    return OCT_META_LEAF(n->meta) ? COPSE_NONE : n->first;
}

static uint32_t oct_next(const void *tree, uint32_t node)
{
    return ((const copse_octree *)tree)->nodes[node].next;
}

static unsigned oct_octant(const void *tree, uint32_t node)
{
    return (unsigned)((((const copse_octree *)tree)->nodes[node].meta >> 28) & 7u);
}

static int octree_svg(const tool_opts *o, const void *blob, size_t len)
{
    static const node_links links = {oct_first_child, oct_next, oct_octant};
    copse_octree t;
    svg_canvas c;
    unsigned ax[2];
    uint32_t i, step, drawn_points = 0, cells;
    char legend[300];
    copse_octree_stats s;
    int rc;
    if ((rc = tool_svg_target(o)) != 0 || (rc = tool_plane_axes(o, ax)) != 0 || (rc = octree_open(o, blob, len, &t)) != 0)
        return rc;
    if (copse_octree_get_stats(&t, &s) != COPSE_OK)
        return tool_fail("%s: stats failed", o->input);
    if (begin_cube_svg(&c, o, t.center, t.half, ax, "point octree", s.depth + 1u) != 0)
        return 1;
    step = t.size > SVG_MAX_POINTS ? (t.size + SVG_MAX_POINTS - 1u) / SVG_MAX_POINTS : 1u;
    for (i = 0; i < t.size; i += step, drawn_points++) /* the blob holds point i at index i */
        svg_point(&c, (&t.points[i].x)[ax[0]], (&t.points[i].x)[ax[1]]);
    cells = t.nodes_used > 0 ? draw_cells(&c, &t, &links, t.center, t.half, (unsigned)o->max_level, ax) : 0;
    snprintf(legend, sizeof legend, "point octree, %lu points (%lu drawn), %lu cells drawn, depth %lu; plane %s",
             (unsigned long)t.size, (unsigned long)drawn_points, (unsigned long)cells, (unsigned long)s.depth, o->plane);
    return svg_end(&c, legend);
}

/* ---- loose octree ------------------------------------------------------------------------------ */

static int loose_bake(const tool_opts *o)
{
    copse_loose_config cfg;
    copse_loose tree;
    copse_arena arena;
    copse_status st = COPSE_OK;
    float *corners = NULL, world[6];
    uint32_t count = 0, i, a;
    int have_world, rc = 1;
    uint8_t *pools = NULL, *blob = NULL;
    size_t bytes, blob_len;
    if (o->depth > (int)COPSE_LOOSE_MAX_DEPTH)
        return tool_usage("loose: --depth %d: expected 1 to %u", o->depth, COPSE_LOOSE_MAX_DEPTH);
    tool_progress(o, "loading %s", o->input);
    if (box_file_read(o->input, 3, "world", &corners, &count, world, &have_world) != 0)
        return 1;
    if (!have_world) {
        memcpy(world, corners, sizeof world);
        for (i = 1; i < count; i++)
            for (a = 0; a < 3; a++) {
                world[a] = corners[6 * i + a] < world[a] ? corners[6 * i + a] : world[a];
                world[3 + a] = corners[6 * i + 3 + a] > world[3 + a] ? corners[6 * i + 3 + a] : world[3 + a];
            }
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.world = copse_box3_make(world[0], world[1], world[2], world[3], world[4], world[5]);
    cfg.max_objects = count;
    cfg.max_depth = o->depth > 0 ? (uint32_t)o->depth : LOOSE_DEFAULT_DEPTH;
    cfg.node_capacity = o->leaf;
    /* each insert adds at most one node a level; the blob keeps only those used */
    cfg.max_nodes = count > (COPSE_LOOSE_MAX_OBJECTS - 1u) / (cfg.max_depth + 1u) ? COPSE_LOOSE_MAX_OBJECTS
                                                                                   : 1u + count * (cfg.max_depth + 1u);
    bytes = copse_loose_bytes(&cfg);
    if (bytes == (size_t)-1 || (pools = (uint8_t *)malloc(bytes)) == NULL) {
        free(corners);
        return tool_fail("%s: no memory for a loose octree of %lu boxes", o->input, (unsigned long)count);
    }
    copse_arena_init(&arena, pools, bytes);
    st = copse_loose_init(&tree, &arena, &cfg);
    tool_progress(o, "inserting %lu boxes (depth %lu, node capacity %lu)", (unsigned long)count,
                  (unsigned long)cfg.max_depth, (unsigned long)cfg.node_capacity);
    for (i = 0; i < count && st == COPSE_OK; i++) {
        copse_box3 b = copse_box3_make(corners[6 * i], corners[6 * i + 1], corners[6 * i + 2], corners[6 * i + 3],
                                       corners[6 * i + 4], corners[6 * i + 5]);
        st = copse_loose_insert(&tree, i, &b);
    }
    if (st != COPSE_OK)
        tool_fail("%s: box %lu (counting from 0): %s", o->input, (unsigned long)i - 1u, copse_status_str(st));
    else if ((blob_len = copse_loose_save_bytes(&tree)) == 0 || (blob = (uint8_t *)malloc(blob_len)) == NULL ||
             copse_loose_save(&tree, blob, blob_len, NULL) != COPSE_OK)
        tool_fail("%s: saving the loose octree failed", o->input);
    else
        rc = emit_blob_output(o->input, o->output, o->name, "octree.h", "loose", "loose", blob, blob_len);
    free(blob);
    free(pools);
    free(corners);
    return rc;
}

static int loose_open(const tool_opts *o, const void *blob, size_t len, copse_loose *tree)
{
    return tool_viewed(o, copse_loose_view(tree, blob, len), "loose octree");
}

static int loose_stats(const tool_opts *o, const void *blob, size_t len)
{
    copse_loose t;
    copse_loose_stats s;
    copse_status st;
    uint32_t i, split = 0;
    if (loose_open(o, blob, len, &t) != 0)
        return 1;
    if ((st = copse_loose_get_stats(&t, &s)) != COPSE_OK)
        return tool_fail("%s: stats: %s", o->input, copse_status_str(st));
    for (i = 0; i < t.nodes_used; i++)
        split += (t.nodes[i].meta >> 3) & 1u;
    printf("file      %s: loose octree blob, format v%u, %lu bytes\n", o->input, COPSE_BLOB_VERSION, (unsigned long)len);
    printf("tree      loose octree, %lu object slots, node capacity %lu, max depth %lu; world centre %g %g %g half %g\n",
           (unsigned long)t.max_objects, (unsigned long)t.node_capacity, (unsigned long)t.max_depth,
           (double)t.center[0], (double)t.center[1], (double)t.center[2], (double)t.half);
    tool_bounds_line(blob, len, 3, NULL);
    printf("axes      the box file's own (a box file is never turned)\n");
    printf("objects   %lu (%lu in the root, at most %lu in one node)\n", (unsigned long)s.objects,
           (unsigned long)s.root_objects, (unsigned long)s.max_node_objects);
    printf("nodes     %lu (%lu split)\n", (unsigned long)s.nodes, (unsigned long)split);
    printf("depth     %lu\n", (unsigned long)s.depth);
    printf("bytes     blob %lu (%.2f per object); nodes %lu + objects %lu in an arena\n", (unsigned long)len,
           s.objects > 0 ? (double)len / (double)s.objects : 0.0, (unsigned long)(COPSE_LOOSE_NODE_BYTES * s.nodes),
           (unsigned long)(COPSE_LOOSE_OBJECT_BYTES * t.max_objects));
    return tool_check_line(o, copse_loose_check(&t));
}

static int loose_query(const tool_opts *o, const void *blob, size_t len)
{
    copse_loose t;
    return loose_open(o, blob, len, &t) != 0 ? 1 : word_run(o->queries, o->words, o->word_count, &t, loose_answer);
}

static uint32_t loose_first_child(const void *tree, uint32_t node)
{
    return ((const copse_loose *)tree)->nodes[node].first_child;
}

static uint32_t loose_next(const void *tree, uint32_t node)
{
    return ((const copse_loose *)tree)->nodes[node].next;
}

static unsigned loose_octant(const void *tree, uint32_t node)
{
    return (unsigned)(((const copse_loose *)tree)->nodes[node].meta & 7u);
}

static int loose_svg(const tool_opts *o, const void *blob, size_t len)
{
    static const node_links links = {loose_first_child, loose_next, loose_octant};
    copse_loose t;
    copse_loose_stats s;
    svg_canvas c;
    unsigned ax[2];
    uint32_t i, boxes = 0, cells;
    char legend[300];
    int rc;
    if ((rc = tool_svg_target(o)) != 0 || (rc = tool_plane_axes(o, ax)) != 0 || (rc = loose_open(o, blob, len, &t)) != 0)
        return rc;
    if (copse_loose_get_stats(&t, &s) != COPSE_OK)
        return tool_fail("%s: stats failed", o->input);
    if (begin_cube_svg(&c, o, t.center, t.half, ax, "loose octree", s.depth + 1u) != 0)
        return 1;
    for (i = 0; i < t.max_objects; i++) /* the boxes in the tree as polygons under the cells */
        if (t.objects[i].node != COPSE_NONE) {
            const float *mn = &t.objects[i].box.min.x, *mx = &t.objects[i].box.max.x;
            float xy[8] = {mn[ax[0]], mn[ax[1]], mx[ax[0]], mn[ax[1]], mx[ax[0]], mx[ax[1]], mn[ax[0]], mx[ax[1]]};
            svg_polygon(&c, xy, 4);
            boxes++;
        }
    cells = t.nodes_used > 0 ? draw_cells(&c, &t, &links, t.center, t.half, (unsigned)o->max_level, ax) : 0;
    snprintf(legend, sizeof legend, "loose octree, %lu boxes, %lu cells drawn (not loosened), depth %lu; plane %s",
             (unsigned long)boxes, (unsigned long)cells, (unsigned long)s.depth, o->plane);
    return svg_end(&c, legend);
}

const tool_kind tool_kind_octree = {"octree", COPSE_BLOB_OCTREE, octree_bake, octree_stats, octree_query, octree_svg};
const tool_kind tool_kind_loose = {"loose", COPSE_BLOB_LOOSE, loose_bake, loose_stats, loose_query, loose_svg};

/* SPDX-License-Identifier: MIT */
/*
 * The BSP backends of the tool. A BSP blob is a self-contained map (it holds its objects or
 * brushes), so stats, queries and SVG need nothing but the blob.
 *
 *   bsp2  baked from a box map: a text file, one `box x0 y0 x1 y1` a line (object i is the
 *         i-th box), an optional `scene x0 y0 x1 y1` (default: the boxes' bounds), '#' comments.
 *         Queries: point x y, rect x0 y0 x1 y1, circle x y r, segment2 ax ay bx by.
 *   bsp3  baked from a mesh: its triangles grouped into --grid N x N x 3 cells (y up), each
 *         group's bounding box a box brush (tools/lib/mesh_clusters.h). Queries: point x y z,
 *         box x0 y0 z0 x1 y1 z1, ray ax ay az bx by bz (a trace), sphere ax ay az bx by bz r.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_query.h"
#include "copse/blob.h"
#include "copse/bsp.h"
#include "emit_c.h"
#include "mesh_clusters.h"
#include "mesh_load.h"
#include "pointcloud_load.h"
#include "svg.h"
#include "tool.h"
#include "word_query.h"

/* ---- shared: writing the blob ---------------------------------------------------------------------- */


/* ---- bsp2: a box map -------------------------------------------------------------------------------- */

static int bsp2_bake(const tool_opts *o)
{
    copse_box2 *boxes = NULL, scene;
    float *corners = NULL, region[4];
    copse_bsp2_params params = COPSE_BSP2_PARAMS_DEFAULT;
    copse_bsp2 bsp;
    copse_arena arena;
    copse_status st;
    uint32_t count, i;
    int have_scene, rc = 1;
    size_t bytes, blob_len;
    void *mem = NULL;
    uint8_t *blob = NULL;
    if (o->depth > (int)COPSE_BSP_MAX_DEPTH)
        return tool_usage("bsp2: --depth %d: expected 1 to %u", o->depth, COPSE_BSP_MAX_DEPTH);
    if (o->depth > 0)
        params.max_depth = (uint32_t)o->depth;
    tool_progress(o, "loading %s", o->input);
    if (box_file_read(o->input, 2, "scene", &corners, &count, region, &have_scene) != 0)
        return 1;
    if ((boxes = (copse_box2 *)malloc(sizeof *boxes * count)) == NULL) {
        free(corners);
        return tool_fail("out of memory");
    }
    for (i = 0; i < count; i++)
        boxes[i] = copse_box2_make(corners[4 * i], corners[4 * i + 1], corners[4 * i + 2], corners[4 * i + 3]);
    free(corners);
    if (have_scene)
        scene = copse_box2_make(region[0], region[1], region[2], region[3]);
    if (!have_scene) {
        scene = boxes[0];
        for (i = 1; i < count; i++) {
            scene.min = copse_v2(boxes[i].min.x < scene.min.x ? boxes[i].min.x : scene.min.x,
                                 boxes[i].min.y < scene.min.y ? boxes[i].min.y : scene.min.y);
            scene.max = copse_v2(boxes[i].max.x > scene.max.x ? boxes[i].max.x : scene.max.x,
                                 boxes[i].max.y > scene.max.y ? boxes[i].max.y : scene.max.y);
        }
    }
    bytes = copse_bsp2_build_bytes(&scene, boxes, count, &params);
    if (bytes == (size_t)-1 || (mem = malloc(bytes > 0 ? bytes : 1)) == NULL) {
        free(boxes);
        return tool_fail("%s: the 2D BSP build refuses this map (%lu boxes, depth %lu)", o->input, (unsigned long)count,
                         (unsigned long)params.max_depth);
    }
    tool_progress(o, "building the 2D BSP over %lu boxes (depth %lu)", (unsigned long)count,
                  (unsigned long)params.max_depth);
    copse_arena_init(&arena, mem, bytes);
    if ((st = copse_bsp2_build(&bsp, &arena, &scene, boxes, count, &params)) != COPSE_OK)
        tool_fail("%s: the 2D BSP build failed: %s", o->input, copse_status_str(st));
    else if ((blob_len = copse_bsp2_save_bytes(&bsp)) == 0 || (blob = (uint8_t *)malloc(blob_len)) == NULL ||
             (st = copse_bsp2_save(&bsp, blob, blob_len, NULL)) != COPSE_OK)
        tool_fail("%s: saving the 2D BSP failed: %s", o->input, copse_status_str(st));
    else
        rc = emit_blob_output(o->input, o->output, o->name, "bsp.h", "bsp2", "bsp2", blob, blob_len);
    free(blob);
    free(mem);
    free(boxes);
    return rc;
}



static int bsp2_open(const tool_opts *o, const void *blob, size_t len, copse_bsp2 *bsp)
{
    return tool_viewed(o, copse_bsp2_view(bsp, blob, len), "2D BSP");
}

static int bsp2_stats(const tool_opts *o, const void *blob, size_t len)
{
    copse_bsp2 bsp;
    if (bsp2_open(o, blob, len, &bsp) != 0)
        return TOOL_FAILED;
    printf("file      %s: 2D BSP blob, format v%u, %lu bytes\n", o->input, COPSE_BLOB_VERSION, (unsigned long)len);
    printf("tree      2D axis-aligned over %lu boxes in the scene %g %g %g %g\n", (unsigned long)bsp.object_count,
           (double)bsp.scene.min.x, (double)bsp.scene.min.y, (double)bsp.scene.max.x, (double)bsp.scene.max.y);
    tool_bounds_line(blob, len, 2, NULL);
    printf("axes      the box map's own (x, y)\n");
    printf("nodes     %lu (%lu leaves, %lu internal)\n", (unsigned long)bsp.node_count, (unsigned long)bsp.leaf_count,
           (unsigned long)(bsp.node_count - bsp.leaf_count));
    printf("depth     %lu\n", (unsigned long)bsp.depth);
    printf("bytes     blob %lu; %lu in an arena; %lu leaf slots, %lu boxes cut by a line\n", (unsigned long)len,
           (unsigned long)copse_bsp2_bytes(&bsp), (unsigned long)bsp.item_count, (unsigned long)bsp.split_count);
    return tool_check_line(o, copse_bsp2_check(&bsp));
}

static int bsp2_answer(const void *tree, const char *const *words, unsigned n, FILE *out)
{
    const copse_bsp2 *bsp = (const copse_bsp2 *)tree;
    float v[4];
    copse_status st;
    bool hit = false;
    uint32_t hit_id = COPSE_NONE;
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "point") == 0) {
        copse_bsp2_where w;
        if (word_numbers(words, n, 2, v) != 0)
            return TOOL_USAGE;
        if ((st = copse_bsp2_locate(bsp, copse_v2(v[0], v[1]), &w)) == COPSE_OK)
            fprintf(out, " -> %s leaf=%lu object=%ld\n", w.solid ? "solid" : "empty", (unsigned long)w.leaf,
                    w.id == COPSE_NONE ? -1L : (long)w.id);
    } else if (strcmp(words[0], "segment2") == 0) {
        copse_bsp2_trace tr;
        copse_segment2 sg;
        if (word_numbers(words, n, 4, v) != 0)
            return TOOL_USAGE;
        sg.a = copse_v2(v[0], v[1]);
        sg.b = copse_v2(v[2], v[3]);
        if ((st = copse_sweep_point_bsp2(&sg, bsp, &tr)) == COPSE_OK)
            fprintf(out, tr.hit ? " -> hit object=%lu t=%.9g\n" : " -> clear\n", (unsigned long)tr.id, (double)tr.t);
    } else if (strcmp(words[0], "rect") == 0 || strcmp(words[0], "circle") == 0) {
        int rect = words[0][0] == 'r';
        if (word_numbers(words, n, rect ? 4u : 3u, v) != 0)
            return TOOL_USAGE;
        if (rect) {
            copse_box2 b = copse_box2_make(v[0], v[1], v[2], v[3]);
            st = copse_bsp2_any_box(bsp, &b, &hit_id);
            hit = hit_id != COPSE_NONE;
        } else {
            copse_circle c;
            c.center = copse_v2(v[0], v[1]);
            c.radius = v[2];
            st = copse_bsp2_any_circle(bsp, &c, &hit_id);
            hit = hit_id != COPSE_NONE;
        }
        if (st == COPSE_OK)
            fprintf(out, " -> %s\n", hit ? "overlap" : "clear");
    } else {
        return word_unknown(out, words[0], "2D BSP", "point, rect, circle, segment2");
    }
    return word_status(st, words[0], out);
}

static int bsp2_query(const tool_opts *o, const void *blob, size_t len)
{
    copse_bsp2 bsp;
    return bsp2_open(o, blob, len, &bsp) != 0 ? 1 : word_run(o->queries, o->words, o->word_count, &bsp, bsp2_answer);
}

/* The cells: the scene cut by each split line, walked with an explicit stack of cells. */
static int bsp2_svg(const tool_opts *o, const void *blob, size_t len)
{
    typedef struct cell { uint32_t node, level; float lo[2], hi[2]; } cell;
    cell stack[COPSE_BSP_MAX_DEPTH + 2u];
    copse_bsp2 bsp;
    svg_canvas c;
    uint32_t i, sp = 0, leaves = 0;
    float lo[2], hi[2];
    char legend[300], title[300];
    int rc;
    if ((rc = tool_svg_target(o)) != 0 || (rc = bsp2_open(o, blob, len, &bsp)) != 0)
        return rc;
    lo[0] = bsp.scene.min.x;
    lo[1] = bsp.scene.min.y;
    hi[0] = bsp.scene.max.x;
    hi[1] = bsp.scene.max.y;
    snprintf(title, sizeof title, "copse 2D BSP: %s", o->input);
    if (svg_begin(&c, o->output, lo, hi, title, bsp.depth + 1u) != 0)
        return 1;
    for (i = 0; i < bsp.object_count; i++) { /* the boxes as polygons under the cells */
        const copse_box2 *b = &bsp.objects[i];
        float xy[8] = {b->min.x, b->min.y, b->max.x, b->min.y, b->max.x, b->max.y, b->min.x, b->max.y};
        svg_polygon(&c, xy, 4);
    }
    stack[sp].node = 0;
    stack[sp].level = 1;
    memcpy(stack[sp].lo, lo, sizeof lo);
    memcpy(stack[sp].hi, hi, sizeof hi);
    sp++;
    while (sp > 0 && bsp.node_count > 0) {
        cell cur = stack[--sp];
        const copse_bsp2_node *nd = &bsp.nodes[cur.node];
        unsigned kind = nd->info & 3u;
        if (kind == COPSE_BSP2_LEAF || sp + 2u > sizeof stack / sizeof stack[0]) {
            svg_rect(&c, cur.lo, cur.hi, cur.level);
            leaves++;
            continue;
        }
        stack[sp] = cur; /* the high side: the node `index` */
        stack[sp].node = nd->index;
        stack[sp].level = cur.level + 1u;
        stack[sp].lo[kind] = nd->split;
        sp++;
        stack[sp] = cur; /* the low side: the next node */
        stack[sp].node = cur.node + 1u;
        stack[sp].level = cur.level + 1u;
        stack[sp].hi[kind] = nd->split;
        sp++;
    }
    snprintf(legend, sizeof legend, "2D BSP, %lu boxes, %lu leaf cells, depth %lu; red root to violet level %lu",
             (unsigned long)bsp.object_count, (unsigned long)leaves, (unsigned long)bsp.depth,
             (unsigned long)bsp.depth + 1u);
    return svg_end(&c, legend);
}

/* ---- bsp3: box brushes from a mesh's clusters --------------------------------------------------------- */

static int bsp3_bake(const tool_opts *o)
{
    const unsigned grid = o->grid > 0 ? o->grid : 12u, grid_y = 3u;
    copse_bsp3_params params = COPSE_BSP3_PARAMS_DEFAULT;
    host_mesh hm;
    copse_box3 *boxes = NULL;
    copse_plane *planes = NULL;
    copse_brush *brushes = NULL;
    copse_bsp3 bsp;
    copse_arena arena;
    copse_status st = COPSE_OK;
    uint8_t *blob = NULL, *mem = NULL;
    size_t scratch, bytes = (size_t)-1, blob_len;
    float lo[3], hi[3];
    uint32_t n = 0, i;
    char err[600], axes[300];
    int rc = 1;
    if (o->depth > (int)COPSE_BSP_MAX_DEPTH)
        return tool_usage("bsp3: --depth %d: expected 1 to %u", o->depth, COPSE_BSP_MAX_DEPTH);
    if (o->depth > 0)
        params.max_depth = (uint32_t)o->depth;
    if (grid > 64u)
        return tool_usage("--grid %u: expected 1 to 64", grid);
    tool_progress(o, "loading %s", o->input);
    if (host_mesh_load_up(o->input, tool_up(o), &hm, err, sizeof err) != 0)
        return tool_fail("%s", err);
    host_mesh_axes(&hm, o->input, axes, sizeof axes);
    tool_progress(o, "axes: %s", axes);
    boxes = (copse_box3 *)malloc(sizeof *boxes * grid * grid * grid_y);
    planes = (copse_plane *)malloc(sizeof *planes * 6u * grid * grid * grid_y);
    brushes = (copse_brush *)malloc(sizeof *brushes * grid * grid * grid_y);
    if (boxes != NULL && planes != NULL && brushes != NULL)
        n = host_mesh_cluster_boxes(&hm, grid, grid_y, 0.05f, boxes, lo, hi);
    for (i = 0; i < n && st == COPSE_OK; i++) {
        st = copse_brush_from_box(&boxes[i], planes + 6u * i);
        brushes[i].planes = planes + 6u * i;
        brushes[i].plane_count = 6u;
    }
    tool_progress(o, "%lu triangles in %lu box brushes (grid %u x %u x %u)", (unsigned long)hm.triangle_count,
                  (unsigned long)n, grid, grid, grid_y);
    if (n > 0 && st == COPSE_OK && (scratch = copse_bsp3_scratch_bytes(brushes, n, &params)) != (size_t)-1 &&
        (mem = (uint8_t *)malloc(scratch)) != NULL) {
        bytes = copse_bsp3_build_bytes(brushes, n, &params, mem, scratch);
        if (bytes != (size_t)-1 && bytes > scratch) {
            uint8_t *bigger = (uint8_t *)realloc(mem, bytes);
            mem = bigger;
            bytes = bigger != NULL ? bytes : (size_t)-1;
        }
    }
    if (n == 0 || st != COPSE_OK || bytes == (size_t)-1 || mem == NULL) {
        tool_fail("%s: no 3D BSP from this mesh (%lu brushes: %s)", o->input, (unsigned long)n,
                  st != COPSE_OK ? copse_status_str(st) : "the build refuses them or memory ran out");
        goto done;
    }
    tool_progress(o, "building the 3D BSP (depth %lu) in a %lu-byte arena", (unsigned long)params.max_depth,
                  (unsigned long)bytes);
    copse_arena_init(&arena, mem, bytes);
    if ((st = copse_bsp3_build(&bsp, &arena, brushes, n, &params)) != COPSE_OK)
        tool_fail("%s: the 3D BSP build failed: %s", o->input, copse_status_str(st));
    else if ((blob_len = copse_bsp3_save_bytes(&bsp)) == 0 || (blob = (uint8_t *)malloc(blob_len)) == NULL ||
             (st = copse_bsp3_save(&bsp, blob, blob_len, NULL)) != COPSE_OK)
        tool_fail("%s: saving the 3D BSP failed: %s", o->input, copse_status_str(st));
    else
        rc = emit_blob_output(o->input, o->output, o->name, "bsp.h", "bsp3", o->up == NULL ? "bsp3" : o->up[0] == 'y' ? "bsp3 --up y" : "bsp3 --up z", blob, blob_len);
done:
    free(blob);
    free(mem);
    free(brushes);
    free(planes);
    free(boxes);
    host_mesh_free(&hm);
    return rc;
}

static int bsp3_open(const tool_opts *o, const void *blob, size_t len, copse_bsp3 *bsp)
{
    return tool_viewed(o, copse_bsp3_view(bsp, blob, len), "3D BSP");
}

static int bsp3_stats(const tool_opts *o, const void *blob, size_t len)
{
    copse_bsp3 bsp;
    if (bsp3_open(o, blob, len, &bsp) != 0)
        return 1;
    printf("file      %s: 3D BSP blob, format v%u, %lu bytes\n", o->input, COPSE_BLOB_VERSION, (unsigned long)len);
    printf("tree      3D solid-leaf over %lu brushes (%lu planes, %lu sides)\n", (unsigned long)bsp.brush_count,
           (unsigned long)bsp.plane_count, (unsigned long)bsp.side_count);
    tool_bounds_line(blob, len, 3, NULL);
    printf("axes      as baked: a blob does not record them (its mesh's own axes unless baked with --up)\n");
    printf("nodes     %lu; leaves %lu solid, %lu mixed, %lu empty\n", (unsigned long)bsp.node_count,
           (unsigned long)bsp.solid_leaves, (unsigned long)bsp.mixed_leaves, (unsigned long)bsp.empty_leaves);
    printf("depth     %lu\n", (unsigned long)bsp.depth);
    printf("bytes     blob %lu; %lu in an arena; %lu brush fragments cut\n", (unsigned long)len,
           (unsigned long)copse_bsp3_bytes(&bsp), (unsigned long)bsp.split_count);
    return tool_check_line(o, copse_bsp3_check(&bsp));
}

static int bsp3_answer(const void *tree, const char *const *words, unsigned n, FILE *out)
{
    const copse_bsp3 *bsp = (const copse_bsp3 *)tree;
    float v[7];
    copse_status st;
    bvh_query_echo(words, n, out);
    if (strcmp(words[0], "point") == 0) {
        copse_bsp3_where w;
        if (word_numbers(words, n, 3, v) != 0)
            return TOOL_USAGE;
        if ((st = copse_bsp3_contents(bsp, copse_v3(v[0], v[1], v[2]), &w)) == COPSE_OK)
            fprintf(out, " -> %s\n", w.solid ? "solid" : "empty");
    } else if (strcmp(words[0], "box") == 0) {
        copse_box3 b;
        bool hit = false;
        uint32_t hit_id = COPSE_NONE;
        if (word_numbers(words, n, 6, v) != 0)
            return TOOL_USAGE;
        b = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
        if ((st = copse_bsp3_any_box(bsp, &b, &hit_id)) == COPSE_OK)
            fprintf(out, " -> %s\n", hit ? "overlap" : "clear");
    } else if (strcmp(words[0], "ray") == 0 || strcmp(words[0], "sphere") == 0) {
        int sphere = words[0][0] == 's';
        copse_bsp3_trace tr;
        copse_segment3 sg;
        if (word_numbers(words, n, sphere ? 7u : 6u, v) != 0)
            return TOOL_USAGE;
        sg.a = copse_v3(v[0], v[1], v[2]);
        sg.b = copse_v3(v[3], v[4], v[5]);
        st = sphere ? copse_sweep_sphere_bsp3(&sg, v[6], bsp, &tr) : copse_sweep_point_bsp3(&sg, bsp, &tr);
        if (st == COPSE_OK)
            fprintf(out, tr.hit ? " -> hit fraction=%.9g%s\n" : " -> clear\n", (double)tr.t,
                    tr.start_solid ? " (starts in solid)" : "");
    } else {
        return word_unknown(out, words[0], "3D BSP", "point, box, ray, sphere");
    }
    return word_status(st, words[0], out);
}

static int bsp3_query(const tool_opts *o, const void *blob, size_t len)
{
    copse_bsp3 bsp;
    return bsp3_open(o, blob, len, &bsp) != 0 ? 1 : word_run(o->queries, o->words, o->word_count, &bsp, bsp3_answer);
}

/* A brush's box: the build gives every brush its six axis-aligned bevels, so the box is read
 * off its axis-aligned sides (unit normals, dot(n, x) <= dist). 0 when one is missing. */
static int bsp3_brush_box(const copse_bsp3 *bsp, const copse_bsp3_brush *b, float lo[3], float hi[3])
{
    uint32_t i, n = copse_bsp3_brush_sides(b), found = 0;
    for (i = 0; i < n; i++) {
        const copse_plane *p = &bsp->planes[bsp->sides[b->first + i]];
        const float nv[3] = {p->normal.x, p->normal.y, p->normal.z};
        unsigned a;
        for (a = 0; a < 3; a++)
            if (nv[(a + 1u) % 3u] == 0.0f && nv[(a + 2u) % 3u] == 0.0f && nv[a] != 0.0f) {
                if (nv[a] > 0.0f)
                    hi[a] = p->dist / nv[a];
                else
                    lo[a] = p->dist / nv[a];
                found |= 1u << (a * 2u + (nv[a] > 0.0f));
            }
    }
    return found == 0x3Fu;
}

/* Top-down (--plane) drawing: each brush's box as a polygon, and each solid or mixed leaf as
 * its cell, cut only by the splits whose planes stand straight across the drawing (normal along
 * a drawn axis); a split along the third axis or at a slant leaves both children the whole
 * cell. Cells are coloured by level. */
static int bsp3_svg(const tool_opts *o, const void *blob, size_t len)
{
    typedef struct cell { uint32_t code, level; float lo[2], hi[2]; } cell;
    cell stack[COPSE_BSP_MAX_DEPTH + 2u];
    copse_bsp3 bsp;
    svg_canvas c;
    uint32_t i, sp = 0, drawn_brushes = 0, cells = 0;
    unsigned ax[2];
    float lo[2], hi[2];
    char legend[400], title[300];
    int rc;
    if ((rc = tool_svg_target(o)) != 0 || (rc = tool_plane_axes(o, ax)) != 0 || (rc = bsp3_open(o, blob, len, &bsp)) != 0)
        return rc;
    for (i = 0; i < 2; i++) {
        const float b_lo[3] = {bsp.bounds.min.x, bsp.bounds.min.y, bsp.bounds.min.z};
        const float b_hi[3] = {bsp.bounds.max.x, bsp.bounds.max.y, bsp.bounds.max.z};
        lo[i] = bsp.brush_count > 0 ? b_lo[ax[i]] : -1.0f;
        hi[i] = bsp.brush_count > 0 ? b_hi[ax[i]] : 1.0f;
    }
    snprintf(title, sizeof title, "copse 3D BSP: %s", o->input);
    if (svg_begin(&c, o->output, lo, hi, title, bsp.depth + 1u) != 0)
        return 1;
    for (i = 0; i < bsp.brush_count; i++) {
        float blo[3], bhi[3];
        if (bsp3_brush_box(&bsp, &bsp.brushes[i], blo, bhi)) {
            float xy[8] = {blo[ax[0]], blo[ax[1]], bhi[ax[0]], blo[ax[1]], bhi[ax[0]], bhi[ax[1]], blo[ax[0]], bhi[ax[1]]};
            svg_polygon(&c, xy, 4);
            drawn_brushes++;
        }
    }
    stack[0].code = bsp.root;
    stack[0].level = 1;
    memcpy(stack[0].lo, lo, sizeof lo);
    memcpy(stack[0].hi, hi, sizeof hi);
    sp = 1;
    while (sp > 0) {
        cell cur = stack[--sp], front, back;
        const copse_bsp3_node *nd;
        const copse_plane *p;
        float nv[3];
        unsigned k;
        if (cur.code == COPSE_BSP3_EMPTY)
            continue;
        if ((cur.code & COPSE_BSP3_LEAF) != 0u) { /* solid or mixed: the leaves worth seeing */
            svg_rect(&c, cur.lo, cur.hi, cur.level);
            cells++;
            continue;
        }
        if (sp + 2u > sizeof stack / sizeof stack[0]) /* cannot happen after a view (depth cap) */
            continue;
        nd = &bsp.nodes[cur.code];
        p = &bsp.planes[nd->plane];
        nv[0] = p->normal.x;
        nv[1] = p->normal.y;
        nv[2] = p->normal.z;
        front = back = cur;
        front.level = back.level = cur.level + 1u;
        front.code = nd->child[0];
        back.code = nd->child[1];
        for (k = 0; k < 2; k++) { /* front: dot(n, x) > dist */
            unsigned a = ax[k], b = ax[1u - k], third = 3u - ax[0] - ax[1];
            if (nv[a] != 0.0f && nv[b] == 0.0f && nv[third] == 0.0f) {
                float at = p->dist / nv[a];
                at = at < cur.lo[k] ? cur.lo[k] : (at > cur.hi[k] ? cur.hi[k] : at);
                if (nv[a] > 0.0f)
                    front.lo[k] = back.hi[k] = at;
                else
                    front.hi[k] = back.lo[k] = at;
            }
        }
        stack[sp++] = back;
        stack[sp++] = front;
    }
    snprintf(legend, sizeof legend,
             "3D BSP on %s, %lu brushes, %lu solid or mixed leaves (cut by the splits across the drawing), depth %lu",
             o->plane, (unsigned long)drawn_brushes, (unsigned long)cells, (unsigned long)bsp.depth);
    return svg_end(&c, legend);
}

const tool_kind tool_kind_bsp2 = {"bsp2", COPSE_BLOB_BSP2, bsp2_bake, bsp2_stats, bsp2_query, bsp2_svg};
const tool_kind tool_kind_bsp3 = {"bsp3", COPSE_BLOB_BSP3, bsp3_bake, bsp3_stats, bsp3_query, bsp3_svg};

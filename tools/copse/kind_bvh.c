/* SPDX-License-Identifier: MIT */
/*
 * The BVH backend of the tool: bake a mesh (assimp: OBJ, PLY, STL, glTF, COLLADA ...) into a
 * BVH blob or C array; stats, queries and SVG of a BVH blob. A BVH blob does not hold its mesh
 * (docs/format.md): queries, `check` and the triangles of an SVG take it again with --mesh.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_query.h"
#include "copse/blob.h"
#include "copse/bvh.h"
#include "emit_c.h"
#include "mesh_load.h"
#include "pointcloud_load.h"
#include "svg.h"
#include "tool.h"

/* ---- parameters ---------------------------------------------------------------------------------- */

static int params_from_opts(const tool_opts *o, copse_bvh_params *p)
{
    static const char *const splits[] = {"sah", "median", "midpoint"};
    static const char *const projections[] = {"none", "xz", "xy", "yz"};
    unsigned k;
    copse_bvh_params def = COPSE_BVH_PARAMS_DEFAULT;
    *p = def;
    for (k = 0; k < 3 && strcmp(o->builder, splits[k]) != 0; k++)
        ;
    if (k == 3)
        return tool_usage("--builder %s: expected sah, median or midpoint", o->builder);
    p->split = (copse_bvh_split)k;
    for (k = 0; k < 4 && strcmp(o->project, projections[k]) != 0; k++)
        ;
    if (k == 4)
        return tool_usage("--project %s: expected none, xz, xy or yz", o->project);
    p->projection = (copse_bvh_projection)k;
    if (o->leaf < 1 || o->leaf > COPSE_BVH_MAX_LEAF)
        return tool_usage("--leaf %u: expected 1 to %u", o->leaf, COPSE_BVH_MAX_LEAF);
    p->leaf_size = o->leaf;
    return 0;
}

/* ---- bake ----------------------------------------------------------------------------------------- */

static int emit_mesh_c(const tool_opts *o, const host_mesh *hm, const uint8_t *blob, size_t len)
{
    char name[128], guard[128], *header = NULL, *source = NULL, generator[512], axes[300];
    const int u16 = hm->vertex_count <= 65536u;
    emit_array arrays[2];
    emit_spec spec;
    int rc;
    emit_names(o->output, o->name, name, guard, sizeof name);
    arrays[0].suffix = "positions";
    arrays[0].type = EMIT_F32;
    arrays[0].data = hm->positions;
    arrays[0].count = (size_t)hm->vertex_count * 3u;
    arrays[0].per_line = 3;
    arrays[0].comment = "the mesh's vertices: x, y, z each (the blob does not hold them)";
    arrays[1].suffix = "indices";
    arrays[1].type = u16 ? EMIT_U16 : EMIT_U32;
    arrays[1].data = hm->indices;
    arrays[1].count = (size_t)hm->triangle_count * 3u;
    arrays[1].per_line = 3;
    arrays[1].comment = "the mesh's triangles: 3 vertex indices each, in the order the tree's ids count them";
    header = (char *)malloc(2048);
    source = (char *)malloc(2048);
    if (header == NULL || source == NULL) {
        free(header);
        free(source);
        return tool_fail("out of memory");
    }
    host_mesh_axes(hm, o->input, axes, sizeof axes);
    snprintf(header, 2048,
             "\n#include \"copse/bvh.h\"\n\n/* Axes: %s. */\n"
             "#define %s_VERTEX_COUNT %luu\n#define %s_TRIANGLE_COUNT %luu\n#define %s_INDEX_TYPE %s\n\n"
             "/* Points `bvh` at the tree in place, over the arrays above (the blob is validated first):\n"
             " * COPSE_OK, or the status copse_bvh_view_mesh returns. Nothing is copied into RAM. */\n"
             "copse_status %s_view(copse_bvh *bvh);\n",
             axes, guard, (unsigned long)hm->vertex_count, guard, (unsigned long)hm->triangle_count, guard,
             u16 ? "COPSE_MESH_INDEX_U16" : "COPSE_MESH_INDEX_U32", name);
    snprintf(source, 2048,
             "\ncopse_status %s_view(copse_bvh *bvh)\n{\n    copse_mesh mesh;\n"
             "    mesh.positions = %s_positions;\n    mesh.vertex_count = %s_VERTEX_COUNT;\n"
             "    mesh.vertex_stride = 0u;\n    mesh.indices = %s_indices;\n    mesh.index_type = %s_INDEX_TYPE;\n"
             "    mesh.triangle_count = %s_TRIANGLE_COUNT;\n"
             "    return copse_bvh_view_mesh(bvh, %s, %s_BYTES, &mesh);\n}\n",
             name, name, guard, name, guard, guard, name, guard);
    snprintf(generator, sizeof generator, "copse bake %s --tree bvh --builder %s --leaf %u%s%s%s%s -o %s", o->input,
             o->builder, o->leaf, strcmp(o->project, "none") != 0 ? " --project " : "",
             strcmp(o->project, "none") != 0 ? o->project : "", o->up != NULL ? " --up " : "",
             o->up != NULL ? o->up : "", o->output);
    emit_spec_init(&spec, o->output, name, generator, blob, len);
    spec.arrays = arrays;
    spec.array_count = 2;
    spec.header_extra = header;
    spec.source_extra = source;
    rc = emit_c(&spec);
    free(header);
    free(source);
    return rc;
}

static int bvh_bake(const tool_opts *o)
{
    host_mesh hm;
    copse_bvh_params params;
    copse_bvh bvh;
    copse_arena arena;
    copse_mesh mesh;
    copse_status st;
    char err[600], axes[300];
    void *mem = NULL;
    uint8_t *blob = NULL;
    size_t bytes, blob_len = 0;
    int rc;
    if ((rc = params_from_opts(o, &params)) != 0)
        return rc;
    rc = 1;
    if (host_points_is_cloud_path(o->input))
        return tool_usage("%s: a point cloud; a BVH is built over a mesh (OBJ, PLY, STL, glTF, COLLADA): "
                          "--tree octree bakes a cloud", o->input);
    tool_progress(o, "loading %s", o->input);
    if (host_mesh_load_up(o->input, tool_up(o), &hm, err, sizeof err) != 0)
        return tool_fail("%s", err);
    tool_progress(o, "%lu triangles, %lu vertices", (unsigned long)hm.triangle_count,
                  (unsigned long)hm.vertex_count);
    host_mesh_axes(&hm, o->input, axes, sizeof axes);
    tool_progress(o, "axes: %s", axes);
    mesh = host_mesh_view(&hm);
    bytes = copse_bvh_build_bytes(hm.triangle_count, params.projection == COPSE_BVH_PROJECT_NONE ? 3u : 2u, &params);
    if (bytes == (size_t)-1 || (mem = malloc(bytes)) == NULL) {
        tool_fail("%s: %lu triangles are more than a BVH can take here", o->input, (unsigned long)hm.triangle_count);
        goto done;
    }
    tool_progress(o, "building the BVH (%s, leaf %u) in a %lu-byte arena", o->builder, o->leaf, (unsigned long)bytes);
    copse_arena_init(&arena, mem, bytes);
    if ((st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params)) != COPSE_OK ||
        (st = copse_bvh_check(&bvh)) != COPSE_OK) {
        tool_fail("%s: the BVH build failed: %s", o->input, copse_status_str(st));
        goto done;
    }
    blob_len = copse_bvh_save_bytes(&bvh);
    if (blob_len == 0 || (blob = (uint8_t *)malloc(blob_len)) == NULL ||
        (st = copse_bvh_save(&bvh, blob, blob_len, NULL)) != COPSE_OK) {
        tool_fail("%s: saving the BVH failed", o->input);
        goto done;
    }
    tool_progress(o, "%lu nodes, depth %u: a %lu-byte blob", (unsigned long)bvh.node_count, (unsigned)bvh.depth,
                  (unsigned long)blob_len);
    rc = host_path_has_suffix(o->output, ".c") ? emit_mesh_c(o, &hm, blob, blob_len)
                                          : tool_write_file(o->output, blob, blob_len);
    if (rc == 0)
        tool_progress(o, "wrote %s", o->output);
done:
    free(blob);
    free(mem);
    host_mesh_free(&hm);
    return rc;
}

/* ---- opening a blob ------------------------------------------------------------------------------ */

/* What a view of a BVH blob stands on: the mesh from --mesh, or zeroed stand-ins of the right
 * shape when the command only reads the nodes (stats, cells of an SVG). */
typedef struct bvh_source {
    host_mesh mesh;
    int have_mesh;
    void *stand_in;
} bvh_source;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void bvh_close(bvh_source *src)
{
    if (src->have_mesh)
        host_mesh_free(&src->mesh);
    free(src->stand_in);
    memset(src, 0, sizeof *src);
}

/* A mesh with the right count of triangles but other coordinates (another file, another --up)
 * would answer wrongly: its bounds on the tree's axes must be the tree's (the header's, which
 * are the root's: every triangle's corners). 1 and why in `why` when they differ. */
static int mesh_bounds_differ(const copse_bvh *bvh, const host_mesh *m, const float *bounds, char *why, size_t cap)
{
    unsigned a;
    uint32_t v;
    for (a = 0; a < bvh->dim; a++) {
        unsigned axis = bvh->axis[a];
        float lo = FLT_MAX, hi = -FLT_MAX;
        for (v = 0; v < m->vertex_count; v++) {
            float c = m->positions[3u * v + axis];
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        if (lo != bounds[a] || hi != bounds[3 + a]) {
            snprintf(why, cap, "it spans %c %.9g to %.9g, the tree %.9g to %.9g", "xyz"[axis], (double)lo, (double)hi,
                     (double)bounds[a], (double)bounds[3 + a]);
            return 1;
        }
    }
    return 0;
}

static int bvh_open(const tool_opts *o, const void *blob, size_t len, int need_mesh, copse_bvh *bvh,
                    bvh_source *src)
{
    copse_blob_info info;
    copse_status st = copse_blob_read(blob, len, &info);
    uint32_t prims;
    unsigned dim, kind;
    char err[600];
    memset(src, 0, sizeof *src);
    if (st != COPSE_OK)
        return tool_fail("%s: %s", o->input, copse_status_str(st));
    prims = le32(info.tree + 4);
    dim = info.tree[12];
    kind = info.tree[13];
    if (prims > len / 4u) /* before sizing stand-ins by it: every primitive has 4 bytes in the blob */
        return tool_fail("%s: not a valid BVH: %lu primitives in a %lu-byte file", o->input, (unsigned long)prims,
                         (unsigned long)len);
    if (o->mesh != NULL) {
        copse_mesh view;
        if (host_mesh_load_up(o->mesh, tool_up(o), &src->mesh, err, sizeof err) != 0)
            return tool_fail("%s", err);
        src->have_mesh = 1;
        view = host_mesh_view(&src->mesh);
        st = copse_bvh_view_mesh(bvh, blob, len, &view);
        if (st == COPSE_ERR_BLOB_SOURCE) {
            bvh_close(src);
            return tool_fail("%s: %lu triangles, but %s was baked from %lu %s", o->mesh,
                             (unsigned long)view.triangle_count, o->input, (unsigned long)prims,
                             kind == COPSE_BVH_PRIM_BOXES ? "boxes" : "triangles");
        }
    } else if (need_mesh) {
        return tool_usage("%s: a BVH blob holds the tree, not its mesh: give the mesh it was baked from with --mesh",
                          o->input);
    } else if (kind == COPSE_BVH_PRIM_BOXES) {
        src->stand_in = calloc((size_t)prims + 1u, sizeof(copse_box3));
        st = src->stand_in == NULL ? COPSE_ERR_NOMEM
             : dim == 2 ? copse_bvh_view_boxes2(bvh, blob, len, (const copse_box2 *)src->stand_in, NULL, prims)
                        : copse_bvh_view_boxes3(bvh, blob, len, (const copse_box3 *)src->stand_in, NULL, prims);
    } else {
        /* views never read coordinates: zeros of the right count let the nodes be read */
        copse_mesh view;
        src->stand_in = calloc((size_t)prims * 9u + 1u, sizeof(float));
        view.positions = (const float *)src->stand_in;
        view.vertex_count = 3u * prims;
        view.vertex_stride = 0;
        view.indices = NULL;
        view.index_type = COPSE_MESH_INDEX_NONE;
        view.triangle_count = prims;
        st = src->stand_in == NULL ? COPSE_ERR_NOMEM : copse_bvh_view_mesh(bvh, blob, len, &view);
    }
    if (st != COPSE_OK) {
        bvh_close(src);
        return tool_fail("%s: not a valid BVH: %s", o->input, copse_status_str(st));
    }
    if (src->have_mesh && bvh->prim_count > 0 && mesh_bounds_differ(bvh, &src->mesh, info.bounds, err, sizeof err)) {
        char axes[300];
        host_mesh_axes(&src->mesh, o->mesh, axes, sizeof axes);
        bvh_close(src);
        return tool_fail("%s: not the mesh %s was baked from, or not in its axes: %s (its axes: %s; give the --up "
                         "it was baked with)",
                         o->mesh, o->input, err, axes);
    }
    return 0;
}

/* ---- stats ----------------------------------------------------------------------------------------- */

static int bvh_stats(const tool_opts *o, const void *blob, size_t len)
{
    static const char *const buckets[9] = {"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-128", ">128"};
    static const char *const axes = "xyz";
    copse_bvh bvh;
    copse_bvh_stats s;
    bvh_source src;
    copse_status st;
    size_t node_bytes, prim_bytes;
    unsigned k;
    int rc;
    if ((rc = bvh_open(o, blob, len, 0, &bvh, &src)) != 0)
        return rc;
    (void)copse_bvh_get_stats(&bvh, &s);
    printf("file      %s: BVH blob, format v%u, %lu bytes\n", o->input, COPSE_BLOB_VERSION, (unsigned long)len);
    printf("tree      %uD over %lu %s", (unsigned)bvh.dim, (unsigned long)bvh.prim_count,
           bvh.kind == COPSE_BVH_PRIM_BOXES ? "boxes" : "triangles");
    if (bvh.dim == 2 && bvh.kind == COPSE_BVH_PRIM_TRIANGLES)
        printf(" projected on %c%c", axes[bvh.axis[0]], axes[bvh.axis[1]]);
    printf(" (%lu degenerate)\n", (unsigned long)bvh.degenerate_count);
    tool_bounds_line(blob, len, bvh.dim, bvh.axis);
    if (src.have_mesh) {
        char text[300];
        host_mesh_axes(&src.mesh, o->mesh, text, sizeof text);
        printf("axes      %s: %s\n", o->mesh, text);
    } else {
        printf("axes      as baked: a blob does not record them (its mesh's own axes unless baked with --up; --mesh "
               "shows them)\n");
    }
    printf("nodes     %lu (%lu leaves, %lu internal)\n", (unsigned long)s.nodes, (unsigned long)s.leaves,
           (unsigned long)(s.nodes - s.leaves));
    printf("depth     %lu\n", (unsigned long)s.depth);
    node_bytes = (size_t)bvh.node_count * (bvh.dim == 3 ? COPSE_BVH_NODE3_BYTES : COPSE_BVH_NODE2_BYTES);
    prim_bytes = 4u * (size_t)bvh.prim_count;
    printf("bytes     blob %lu; nodes %lu + prims %lu = %.2f per primitive; %lu in an arena (rounded to %u)\n",
           (unsigned long)len, (unsigned long)node_bytes, (unsigned long)prim_bytes,
           bvh.prim_count > 0 ? (double)(node_bytes + prim_bytes) / (double)bvh.prim_count : 0.0,
           (unsigned long)copse_bvh_bytes(&bvh), COPSE_ARENA_ALIGN);
    printf("sah cost  %.3f\n", (double)s.sah_cost);
    printf("leaves    largest %lu;", (unsigned long)s.max_leaf_prims);
    for (k = 0; k < 9; k++)
        if (s.leaf_histogram[k] > 0)
            printf(" %s: %lu", buckets[k], (unsigned long)s.leaf_histogram[k]);
    printf("\n");
    if (src.have_mesh) {
        st = copse_bvh_check(&bvh);
        printf("check     %s against %s\n", st == COPSE_OK ? "OK" : copse_status_str(st), o->mesh);
        if (st != COPSE_OK)
            tool_fail("%s: the tree does not fit %s: %s", o->input, o->mesh, copse_status_str(st));
    } else {
        printf("check     of the nodes only (give --mesh to check every triangle against its leaf)\n");
        st = COPSE_OK;
    }
    bvh_close(&src);
    return st == COPSE_OK ? 0 : 1;
}

/* ---- query ----------------------------------------------------------------------------------------- */

static int answer_on_tree(void *ctx, const bvh_query *q, FILE *out)
{
    return bvh_query_answer((const copse_bvh *)ctx, q, out);
}

static int bvh_query_cmd(const tool_opts *o, const void *blob, size_t len)
{
    copse_bvh bvh;
    bvh_source src;
    int rc;
    if (o->queries == NULL && o->word_count == 0)
        return tool_usage("query: give a query (e.g. ray 0 1 0  1 0 0) or --queries FILE");
    if ((rc = bvh_open(o, blob, len, 1, &bvh, &src)) != 0)
        return rc;
    rc = bvh_query_run(o->queries, o->words, o->word_count, answer_on_tree, &bvh);
    bvh_close(&src);
    return rc;
}

/* ---- svg ------------------------------------------------------------------------------------------- */

static const float *node_min(const copse_bvh *bvh, uint32_t i)
{
    return bvh->dim == 3 ? ((const copse_bvh_node3 *)bvh->nodes)[i].min : ((const copse_bvh_node2 *)bvh->nodes)[i].min;
}

static const float *node_max(const copse_bvh *bvh, uint32_t i)
{
    return bvh->dim == 3 ? ((const copse_bvh_node3 *)bvh->nodes)[i].max : ((const copse_bvh_node2 *)bvh->nodes)[i].max;
}

static int32_t node_index(const copse_bvh *bvh, uint32_t i)
{
    return bvh->dim == 3 ? ((const copse_bvh_node3 *)bvh->nodes)[i].index
                         : ((const copse_bvh_node2 *)bvh->nodes)[i].index;
}

/* levels[i]: the level of node i, root = 1 (pre-order, escape counts: a stack of subtree ends). */
static void node_levels(const copse_bvh *bvh, uint8_t *levels)
{
    uint32_t ends[256], sp = 0, i;
    for (i = 0; i < bvh->node_count; i++) {
        int32_t index = node_index(bvh, i);
        while (sp > 0 && ends[sp - 1u] == i)
            sp--;
        levels[i] = (uint8_t)(sp + 1u);
        if (index < 0 && sp < 255u)
            ends[sp++] = i + (uint32_t)(-(int64_t)index);
    }
}

static int bvh_svg(const tool_opts *o, const void *blob, size_t len)
{
    copse_bvh bvh;
    bvh_source src;
    svg_canvas c;
    uint8_t *levels;
    unsigned ax[2], a, levels_drawn, level;
    float lo[2], hi[2];
    uint32_t i, drawn = 0;
    char legend[400], title[300];
    int rc;
    if ((rc = tool_svg_target(o)) != 0 || (rc = bvh_open(o, blob, len, 0, &bvh, &src)) != 0)
        return rc;
    if (bvh.dim == 2) { /* tree axes are the plane already; the mesh is read through the axis map */
        ax[0] = 0;
        ax[1] = 1;
    } else if ((rc = tool_plane_axes(o, ax)) != 0) {
        bvh_close(&src);
        return rc;
    }
    if (bvh.node_count == 0) {
        bvh_close(&src);
        return tool_fail("%s: an empty tree: nothing to draw", o->input);
    }
    levels = (uint8_t *)malloc(bvh.node_count);
    if (levels == NULL) {
        bvh_close(&src);
        return tool_fail("out of memory");
    }
    node_levels(&bvh, levels);
    levels_drawn = o->max_level > 0 && (unsigned)o->max_level < bvh.depth ? (unsigned)o->max_level : bvh.depth;
    for (a = 0; a < 2; a++) {
        lo[a] = node_min(&bvh, 0)[ax[a]];
        hi[a] = node_max(&bvh, 0)[ax[a]];
    }
    snprintf(title, sizeof title, "copse BVH: %s", o->input); /* svg_begin escapes it */
    if (svg_begin(&c, o->output, lo, hi, title, levels_drawn) != 0) {
        free(levels);
        bvh_close(&src);
        return 1;
    }
    if (src.have_mesh) /* triangles under the cells, through the tree's axis map in 2D */
        for (i = 0; i < src.mesh.triangle_count; i++) {
            float xy[6];
            unsigned k;
            for (k = 0; k < 3; k++)
                for (a = 0; a < 2; a++)
                    xy[2u * k + a] = src.mesh.positions[3u * src.mesh.indices[3u * i + k] +
                                                        (bvh.dim == 2 ? bvh.axis[a] : ax[a])];
            svg_polygon(&c, xy, 3);
        }
    for (level = levels_drawn; level >= 1; level--) /* deepest first: the root's outline on top */
        for (i = 0; i < bvh.node_count; i++)
            if (levels[i] == level) {
                float cl[2], ch[2];
                for (a = 0; a < 2; a++) {
                    cl[a] = node_min(&bvh, i)[ax[a]];
                    ch[a] = node_max(&bvh, i)[ax[a]];
                }
                svg_rect(&c, cl, ch, level);
                drawn++;
            }
    snprintf(legend, sizeof legend, "BVH %uD, %lu %s, %lu nodes (%lu drawn), depth %u; red root to violet level %u; "
             "%c right, %c up",
             (unsigned)bvh.dim, (unsigned long)bvh.prim_count, src.have_mesh ? "triangles" : "primitives (not drawn)",
             (unsigned long)bvh.node_count, (unsigned long)drawn, (unsigned)bvh.depth, levels_drawn,
             "xyz"[bvh.dim == 2 ? bvh.axis[0] : ax[0]], "xyz"[bvh.dim == 2 ? bvh.axis[1] : ax[1]]);
    rc = svg_end(&c, legend);
    free(levels);
    bvh_close(&src);
    return rc;
}

const tool_kind tool_kind_bvh = {"bvh", COPSE_BLOB_BVH, bvh_bake, bvh_stats, bvh_query_cmd, bvh_svg};

/* SPDX-License-Identifier: MIT */
#include "mesh_load.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node of the scene with its transform to the root, for the walk below. */
typedef struct placed_node {
    const struct aiNode *node;
    struct aiMatrix4x4 xf;
} placed_node;

/* out = a * b, in float, in this order of additions (the same bits on every host). */
static void multiply(struct aiMatrix4x4 *out, const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b)
{
    const float *pa = &a->a1, *pb = &b->a1;
    float r[16];
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            float s = 0.0f;
            for (k = 0; k < 4; k++)
                s += pa[i * 4 + k] * pb[k * 4 + j];
            r[i * 4 + j] = s;
        }
    memcpy(out, r, sizeof r);
}

/* Every node of the scene with a mesh, in file order: pre-order, children in turn. An explicit,
 * growing stack (no depth or width limit). NULL when memory runs out. */
static placed_node *walk_nodes(const struct aiScene *scene, size_t *count)
{
    placed_node *stack = NULL, *out = NULL;
    size_t sp = 0, cap = 0, n = 0, out_cap = 0;
    int ok = 1;
    *count = 0;
    if ((stack = (placed_node *)malloc(sizeof *stack * (cap = 64))) == NULL)
        return NULL;
    stack[sp].node = scene->mRootNode;
    stack[sp++].xf = scene->mRootNode->mTransformation;
    while (sp > 0 && ok) {
        placed_node cur = stack[--sp];
        unsigned i;
        if (cur.node->mNumMeshes > 0) {
            if (n == out_cap) {
                placed_node *bigger = (placed_node *)realloc(out, sizeof *out * (out_cap = out_cap ? out_cap * 2 : 16));
                if ((ok = bigger != NULL) == 0)
                    break;
                out = bigger;
            }
            out[n++] = cur;
        }
        if (sp + cur.node->mNumChildren > cap) {
            placed_node *bigger;
            while (sp + cur.node->mNumChildren > cap)
                cap *= 2;
            if ((ok = (bigger = (placed_node *)realloc(stack, sizeof *stack * cap)) != NULL) == 0)
                break;
            stack = bigger;
        }
        for (i = cur.node->mNumChildren; i-- > 0;) { /* pushed last first: popped in file order */
            stack[sp].node = cur.node->mChildren[i];
            multiply(&stack[sp].xf, &cur.xf, &cur.node->mChildren[i]->mTransformation);
            sp++;
        }
    }
    free(stack);
    if (!ok) {
        free(out);
        return NULL;
    }
    *count = n;
    return out != NULL ? out : (placed_node *)malloc(sizeof *out);
}

static void transform_point(const struct aiMatrix4x4 *m, const struct aiVector3D *v, float *out)
{
    out[0] = m->a1 * v->x + m->a2 * v->y + m->a3 * v->z + m->a4;
    out[1] = m->b1 * v->x + m->b2 * v->y + m->b3 * v->z + m->b4;
    out[2] = m->c1 * v->x + m->c2 * v->y + m->c3 * v->z + m->c4;
}

/* ---- joining: one vertex per distinct position, bit for bit -------------------------------------- */

typedef struct vertex_table {
    uint32_t *slots; /* vertex index + 1; 0 empty */
    size_t mask;
} vertex_table;

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint32_t position_hash(const float *p)
{
    uint32_t h = float_bits(p[0]) * 0x9E3779B1u;
    h = (h ^ (h >> 15)) + float_bits(p[1]) * 0x85EBCA77u;
    h = (h ^ (h >> 13)) + float_bits(p[2]) * 0xC2B2AE3Du;
    return h ^ (h >> 16);
}

/* The index of position p among out's vertices, appending it when it is new. */
static uint32_t join_vertex(vertex_table *t, host_mesh *out, const float *p)
{
    size_t s = position_hash(p) & t->mask;
    for (;; s = (s + 1u) & t->mask) {
        uint32_t v = t->slots[s];
        if (v == 0) {
            memcpy(out->positions + (size_t)out->vertex_count * 3u, p, 3u * sizeof *p);
            t->slots[s] = ++out->vertex_count;
            return out->vertex_count - 1u;
        }
        if (memcmp(out->positions + (size_t)(v - 1u) * 3u, p, 3u * sizeof *p) == 0)
            return v - 1u;
    }
}

/* Triangles of the placed nodes: counted (out == NULL, faces checked) or joined into out. 0, or -1
 * with the problem in err. */
static int merge(const struct aiScene *scene, const placed_node *nodes, size_t node_count, host_mesh *out,
                 vertex_table *table, uint32_t *triangles, const char *path, char *err, size_t err_cap)
{
    size_t i;
    uint32_t t = 0;
    for (i = 0; i < node_count; i++) {
        unsigned m;
        for (m = 0; m < nodes[i].node->mNumMeshes; m++) {
            unsigned mesh_index = nodes[i].node->mMeshes[m], f, k;
            const struct aiMesh *mesh = mesh_index < scene->mNumMeshes ? scene->mMeshes[mesh_index] : NULL;
            if (mesh == NULL) {
                snprintf(err, err_cap, "%s: node '%s' names mesh %u of %u", path, nodes[i].node->mName.data,
                         mesh_index, scene->mNumMeshes);
                return -1;
            }
            for (f = 0; f < mesh->mNumFaces; f++) {
                const struct aiFace *face = &mesh->mFaces[f];
                if (face->mNumIndices != 3)
                    continue; /* points and lines */
                if (t >= UINT32_MAX / 3u) {
                    snprintf(err, err_cap, "%s: more than %lu triangles", path, (unsigned long)(UINT32_MAX / 3u));
                    return -1;
                }
                for (k = 0; k < 3; k++) {
                    unsigned v = face->mIndices[k];
                    float p[3];
                    if (v >= mesh->mNumVertices) {
                        snprintf(err, err_cap,
                                 "%s: triangle %lu (face %u of mesh %u), corner %u: vertex index %u out of range "
                                 "(the mesh has %u vertices)",
                                 path, (unsigned long)t, f, mesh_index, k, v, mesh->mNumVertices);
                        return -1;
                    }
                    if (out == NULL)
                        continue;
                    transform_point(&nodes[i].xf, &mesh->mVertices[v], p);
                    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
                        const struct aiVector3D *q = &mesh->mVertices[v];
                        int raw = !isfinite(q->x) || !isfinite(q->y) || !isfinite(q->z);
                        snprintf(err, err_cap,
                                 "%s: triangle %lu, corner %u (vertex %u of mesh %u): non-finite coordinate (%g %g %g)%s",
                                 path, (unsigned long)t, k, v, mesh_index, (double)(raw ? q->x : p[0]),
                                 (double)(raw ? q->y : p[1]), (double)(raw ? q->z : p[2]),
                                 raw ? "" : " after the node's transform");
                        return -1;
                    }
                    out->indices[(size_t)t * 3u + k] = join_vertex(table, out, p);
                }
                t++;
            }
        }
    }
    *triangles = t;
    return 0;
}

/* ---- axes: the up axis a file declares, and a turn to another ------------------------------------ */

static int has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix), i;
    if (n < k)
        return 0;
    for (i = 0; i < k; i++) {
        char c = path[n - k + i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != suffix[i])
            return 0;
    }
    return 1;
}

const char *host_mesh_up_source(const char *path)
{
    if (has_suffix(path, ".dae"))
        return "COLLADA <up_axis>, Y_UP when absent";
    if (has_suffix(path, ".gltf") || has_suffix(path, ".glb"))
        return "glTF, y up by its spec";
    return NULL;
}

/* COLLADA: the <up_axis> of the document's <asset> (its first element), Y_UP when absent. */
static char collada_up(const char *path)
{
    char buf[65536], *asset, *end, *up;
    size_t n;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 'y';
    n = fread(buf, 1, sizeof buf - 1u, f);
    fclose(f);
    buf[n] = '\0';
    if ((asset = strstr(buf, "<asset")) == NULL || (end = strstr(asset, "</asset>")) == NULL)
        return 'y';
    *end = '\0';
    if ((up = strstr(asset, "<up_axis>")) == NULL)
        return 'y';
    for (up += 9; *up == ' ' || *up == '\t' || *up == '\r' || *up == '\n'; up++)
        ;
    return (up[0] == 'X' || up[0] == 'Z') && strncmp(up + 1, "_UP", 3) == 0 ? (char)(up[0] - 'A' + 'a') : 'y';
}

static char declared_up(const char *path)
{
    const char *source = host_mesh_up_source(path);
    return source == NULL ? 0 : source[0] == 'C' ? collada_up(path) : 'y';
}

/* A frame: which file axis (and sign) is right, up and in. */
typedef struct signed_axis {
    unsigned axis;
    float sign;
} signed_axis;

static const signed_axis *frame_of(char up)
{
    static const signed_axis x_up[3] = {{1, -1.0f}, {0, 1.0f}, {2, 1.0f}};
    static const signed_axis y_up[3] = {{0, 1.0f}, {1, 1.0f}, {2, 1.0f}};
    static const signed_axis z_up[3] = {{0, 1.0f}, {2, 1.0f}, {1, -1.0f}};
    return up == 'x' ? x_up : up == 'z' ? z_up : y_up;
}

/* Every vertex from the `from` frame to the `to` frame (y or z up): right, up, in read in the
 * first, written in the second. */
static void turn(host_mesh *m, char from, char to)
{
    const signed_axis *f = frame_of(from);
    uint32_t v;
    for (v = 0; v < m->vertex_count; v++) {
        float *p = m->positions + (size_t)v * 3u, rui[3], q[3];
        unsigned k;
        for (k = 0; k < 3; k++) /* 0 - v: exact, and a 0 stays +0 (as a rotation matrix gives it) */
            rui[k] = f[k].sign < 0.0f ? 0.0f - p[f[k].axis] : p[f[k].axis];
        q[0] = rui[0];
        q[1] = to == 'z' ? 0.0f - rui[2] : rui[1];
        q[2] = to == 'z' ? rui[1] : rui[2];
        memcpy(p, q, sizeof q);
    }
}

void host_mesh_axes(const host_mesh *mesh, const char *path, char *buf, size_t cap)
{
    const char *source = host_mesh_up_source(path);
    if (mesh->up_declared == 0 || source == NULL) {
        snprintf(buf, cap, "the file's own (its format declares no up axis)");
    } else if (mesh->up == mesh->up_declared) {
        snprintf(buf, cap, "the file's own: %c up (%s)", mesh->up, source);
    } else {
        /* where each axis comes from: the turn of the unit vectors */
        host_mesh unit;
        float p[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        char from[3][3];
        unsigned a, k;
        memset(&unit, 0, sizeof unit);
        unit.positions = p;
        unit.vertex_count = 3;
        turn(&unit, mesh->up_declared, mesh->up);
        for (a = 0; a < 3; a++) /* tree axis a = sign * file axis k where unit k has a non-zero a */
            for (k = 0; k < 3; k++)
                if (p[3u * k + a] != 0.0f)
                    snprintf(from[a], sizeof from[a], "%s%c", p[3u * k + a] < 0.0f ? "-" : "", "xyz"[k]);
        snprintf(buf, cap, "turned to %c up from the file's %c up (%s): x, y, z are the file's %s, %s, %s",
                 mesh->up, mesh->up_declared, source, from[0], from[1], from[2]);
    }
}

int host_mesh_load(const char *path, host_mesh *out, char *err, size_t err_cap)
{
    return host_mesh_load_up(path, 0, out, err, err_cap);
}

int host_mesh_load_up(const char *path, char up, host_mesh *out, char *err, size_t err_cap)
{
    const struct aiScene *scene;
    struct aiPropertyStore *props;
    placed_node *nodes = NULL;
    size_t node_count = 0;
    vertex_table table;
    uint32_t triangles = 0;
    size_t size = 2;
    int rc = -1;
    memset(out, 0, sizeof *out);
    memset(&table, 0, sizeof table);
    /* Polygons become triangle fans; vertices are joined below, exactly (assimp's
     * JoinIdenticalVertices would compare normals too, and positions with a tolerance). */
    if ((props = aiCreatePropertyStore()) == NULL) {
        snprintf(err, err_cap, "%s: out of memory", path);
        return -1;
    }
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1); /* the file's own axes */
    scene = aiImportFileExWithProperties(path, aiProcess_Triangulate, NULL, props);
    aiReleasePropertyStore(props);
    if (scene == NULL || scene->mRootNode == NULL) {
        snprintf(err, err_cap, "%s: %s", path, aiGetErrorString());
        if (scene != NULL)
            aiReleaseImport(scene);
        return -1;
    }
    if ((nodes = walk_nodes(scene, &node_count)) == NULL) {
        snprintf(err, err_cap, "%s: out of memory", path);
        goto done;
    }
    if (merge(scene, nodes, node_count, NULL, NULL, &triangles, path, err, err_cap) != 0)
        goto done;
    if (triangles == 0) {
        snprintf(err, err_cap, "%s: no triangles", path);
        goto done;
    }
    while (size < (size_t)6u * triangles) /* at least twice the corners: short probes */
        size *= 2u;
    table.mask = size - 1u;
    table.slots = (uint32_t *)calloc(size, sizeof *table.slots);
    out->positions = (float *)malloc((size_t)triangles * 9u * sizeof(float));
    out->indices = (uint32_t *)malloc((size_t)triangles * 3u * sizeof(uint32_t));
    if (table.slots == NULL || out->positions == NULL || out->indices == NULL) {
        snprintf(err, err_cap, "%s: out of memory", path);
        goto done;
    }
    if (merge(scene, nodes, node_count, out, &table, &out->triangle_count, path, err, err_cap) != 0)
        goto done;
    {
        float *fit = (float *)realloc(out->positions, (size_t)out->vertex_count * 3u * sizeof(float));
        if (fit != NULL)
            out->positions = fit;
    }
    out->up_declared = out->up = declared_up(path);
    if (up != 0 && out->up_declared == 0) {
        snprintf(err, err_cap, "%s: the file declares no up axis (COLLADA and glTF do), so it cannot be turned to "
                 "%c up: its coordinates are taken as they are without --up", path, up);
        goto done;
    }
    if (up != 0 && up != out->up_declared) {
        turn(out, out->up_declared, up);
        out->up = up;
    }
    rc = 0;
done:
    if (rc != 0)
        host_mesh_free(out);
    free(table.slots);
    free(nodes);
    aiReleaseImport(scene);
    return rc;
}

void host_mesh_free(host_mesh *mesh)
{
    free(mesh->positions);
    free(mesh->indices);
    memset(mesh, 0, sizeof *mesh);
}

copse_mesh host_mesh_view(const host_mesh *mesh)
{
    copse_mesh view;
    view.positions = mesh->positions;
    view.vertex_count = mesh->vertex_count;
    view.vertex_stride = 0;
    view.indices = mesh->indices;
    view.index_type = COPSE_MESH_INDEX_U32;
    view.triangle_count = mesh->triangle_count;
    return view;
}

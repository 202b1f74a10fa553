/* SPDX-License-Identifier: MIT */
#include "mesh_load.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_ctx {
    const struct aiScene *scene;
    host_mesh *out;
    uint32_t vertices, triangles; /* filled so far */
} merge_ctx;

static void transform_point(const struct aiMatrix4x4 *m, const struct aiVector3D *v, float *out)
{
    out[0] = m->a1 * v->x + m->a2 * v->y + m->a3 * v->z + m->a4;
    out[1] = m->b1 * v->x + m->b2 * v->y + m->b3 * v->z + m->b4;
    out[2] = m->c1 * v->x + m->c2 * v->y + m->c3 * v->z + m->c4;
}

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

/* Walks the node tree with an explicit stack (depth of real scenes is small). */
static void count_or_copy(merge_ctx *ctx, int copy)
{
    const struct aiNode *nodes[256];
    struct aiMatrix4x4 xforms[256];
    int sp = 0;
    nodes[sp] = ctx->scene->mRootNode;
    xforms[sp] = ctx->scene->mRootNode->mTransformation;
    sp++;
    while (sp > 0) {
        const struct aiNode *node = nodes[--sp];
        struct aiMatrix4x4 xf = xforms[sp];
        unsigned i, f, v;
        for (i = 0; i < node->mNumMeshes; i++) {
            const struct aiMesh *mesh = ctx->scene->mMeshes[node->mMeshes[i]];
            uint32_t base = ctx->vertices;
            if (copy)
                for (v = 0; v < mesh->mNumVertices; v++)
                    transform_point(&xf, &mesh->mVertices[v], ctx->out->positions + (size_t)(base + v) * 3u);
            ctx->vertices += mesh->mNumVertices;
            for (f = 0; f < mesh->mNumFaces; f++) {
                const struct aiFace *face = &mesh->mFaces[f];
                if (face->mNumIndices != 3)
                    continue; /* points and lines */
                if (copy) {
                    uint32_t *dst = ctx->out->indices + (size_t)ctx->triangles * 3u;
                    dst[0] = base + face->mIndices[0];
                    dst[1] = base + face->mIndices[1];
                    dst[2] = base + face->mIndices[2];
                }
                ctx->triangles++;
            }
        }
        for (i = 0; i < node->mNumChildren && sp < 256; i++) {
            nodes[sp] = node->mChildren[i];
            multiply(&xforms[sp], &xf, &node->mChildren[i]->mTransformation);
            sp++;
        }
    }
}

int host_mesh_load(const char *path, host_mesh *out, char *err, size_t err_cap)
{
    const struct aiScene *scene;
    merge_ctx ctx;
    memset(out, 0, sizeof *out);
    /* Triangulate polygons (fans for convex faces); join identical vertices so shared
     * edges share indices, as the source files intend. */
    scene = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    if (scene == NULL || scene->mRootNode == NULL) {
        snprintf(err, err_cap, "%s: %s", path, aiGetErrorString());
        if (scene != NULL)
            aiReleaseImport(scene);
        return -1;
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.scene = scene;
    ctx.out = out;
    count_or_copy(&ctx, 0);
    if (ctx.triangles == 0) {
        snprintf(err, err_cap, "%s: no triangles", path);
        aiReleaseImport(scene);
        return -1;
    }
    out->positions = malloc((size_t)ctx.vertices * 3u * sizeof(float));
    out->indices = malloc((size_t)ctx.triangles * 3u * sizeof(uint32_t));
    if (out->positions == NULL || out->indices == NULL) {
        snprintf(err, err_cap, "%s: out of memory", path);
        host_mesh_free(out);
        aiReleaseImport(scene);
        return -1;
    }
    out->vertex_count = ctx.vertices;
    out->triangle_count = ctx.triangles;
    ctx.vertices = ctx.triangles = 0;
    count_or_copy(&ctx, 1);
    aiReleaseImport(scene);
    return 0;
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
    view.index_type = COPSE_INDEX_U32;
    view.triangle_count = mesh->triangle_count;
    return view;
}

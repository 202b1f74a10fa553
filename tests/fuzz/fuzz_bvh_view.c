/* SPDX-License-Identifier: MIT */
/* Fuzz target: the BVH views. The input is a blob (the corpus holds real saves). It is given
 * back the sources its header asks for (fuzz_source_*, the geometry the corpus was built
 * over), and once with a wrong count. A view either fails with a specific status and leaves
 * the tree empty, or accepts: then every query kind must be memory-safe and consistent, and
 * when copse_bvh_check also passes, overlap answers must match brute force. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void view_and_query(const uint8_t *blob, size_t size, uint32_t count, const uint8_t *tail, size_t tail_size)
{
    copse_box3 *b3 = (copse_box3 *)malloc(sizeof(copse_box3) * (count + 1u));
    copse_box2 *b2 = (copse_box2 *)malloc(sizeof(copse_box2) * (count + 1u));
    float *pos = (float *)malloc(sizeof(float) * 9u * (count + 1u));
    copse_mesh mesh;
    unsigned which;
    if (b3 == NULL || b2 == NULL || pos == NULL)
        goto done;
    fuzz_source_boxes3(b3, count);
    fuzz_source_boxes2(b2, count);
    fuzz_source_mesh(pos, count, &mesh);
    for (which = 0; which < 3u; which++) {
        copse_bvh bvh;
        copse_status st = which == 0u   ? copse_bvh_view_mesh(&bvh, blob, size, &mesh)
                          : which == 1u ? copse_bvh_view_boxes3(&bvh, blob, size, b3, NULL, count)
                                        : copse_bvh_view_boxes2(&bvh, blob, size, b2, NULL, count);
        FUZZ_ASSERT(st == COPSE_OK || fuzz_view_status(st), "view: %s", copse_status_str(st));
        if (st != COPSE_OK) {
            FUZZ_ASSERT(bvh.node_count == 0 && bvh.nodes == NULL && bvh.prims == NULL, "failed view left a tree");
            continue;
        }
        FUZZ_ASSERT(bvh.prim_count == count, "view of %u prims over %u", (unsigned)bvh.prim_count, (unsigned)count);
        {
            fuzz_reader r;
            const copse_status check = copse_bvh_check(&bvh);
            fuzz_reader_init(&r, tail, tail_size);
            fuzz_query_bvh(&bvh, &r, check == COPSE_OK);
        }
    }
done:
    free(pos);
    free(b2);
    free(b3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *blob = fuzz_blob_copy(data, size);
    const uint32_t count = fuzz_le32_at(data, size, 36); /* the header's primitive count */
    const size_t blob_size = fuzz_blob_part(data, size);
    if (blob == NULL)
        return 0;
    /* the bytes after the blob's own size pick the queries */
    if (count <= FUZZ_MAX_PRIMS) {
        view_and_query(blob, size, count, data + blob_size, size - blob_size);
        view_and_query(blob, size, count + 1u, data + blob_size, size - blob_size); /* wrong count */
    }
    free(blob);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* Size row "view + k nearest": a point octree (a scan) baked on the host, viewed in place
 * from flash, the 4 points nearest a query point. With SIZE_KNN_IN (octree_knn_in.c) the walk's
 * state is in a static buffer (.bss) through copse_octree_knn_in instead of on the stack. */
#include "size_example.h"

#if defined(SIZE_KNN_IN)
static uint64_t knn_work[(COPSE_OCTREE_KNN_WORK_BYTES + 7u) / 8u];
#endif

int main(void)
{
    copse_neighbor found[4];
    copse_neighbor_list list = copse_neighbor_list_make(found, 4u);
    copse_octree tree;
    const copse_vec3 at = copse_v3(0.5f, 0.0f, 0.5f);
    if (copse_octree_view(&tree, size_blob, size_blob_bytes) != COPSE_OK)
        return 1;
#if defined(SIZE_KNN_IN)
    if (copse_octree_knn_in(&tree, at, 1.0f, knn_work, sizeof knn_work, &list) != COPSE_OK)
        return 2;
#else
    if (copse_octree_knn(&tree, at, 1.0f, &list) != COPSE_OK)
        return 2;
#endif
    size_sink = list.count;
    return 0;
}

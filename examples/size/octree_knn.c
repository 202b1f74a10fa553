/* SPDX-License-Identifier: MIT */
/* Size row "view + k nearest": a point octree (a scan) baked on the host, viewed in place
 * from flash, the 4 points nearest a query point. */
#include "size_example.h"

int main(void)
{
    copse_neighbor found[4];
    copse_neighbor_list list = copse_neighbor_list_make(found, 4u);
    copse_octree tree;
    if (copse_octree_view(&tree, size_blob, size_blob_bytes) != COPSE_OK)
        return 1;
    if (copse_octree_knn(&tree, copse_v3(0.5f, 0.0f, 0.5f), 1.0f, &list) != COPSE_OK)
        return 2;
    size_sink = list.count;
    return 0;
}

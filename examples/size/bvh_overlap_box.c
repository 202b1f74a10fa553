/* SPDX-License-Identifier: MIT */
/* Size row "view + box overlap": a BVH baked on the host, viewed in place from flash, the
 * triangles that touch a box. */
#include "size_example.h"

int main(void)
{
    const copse_box3 box = { { 0.2f, -0.1f, 0.2f }, { 0.4f, 0.1f, 0.4f } };
    uint32_t ids[8];
    copse_id_list list = copse_id_list_make(ids, 8u);
    copse_bvh bvh;
    if (copse_bvh_view_mesh(&bvh, size_blob, size_blob_bytes, &size_mesh) != COPSE_OK)
        return 1;
    if (copse_bvh_overlap_box(&bvh, &box, COPSE_BVH_SELECT_PRIMS, &list) != COPSE_OK)
        return 2;
    size_sink = list.count;
    return 0;
}

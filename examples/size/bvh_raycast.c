/* SPDX-License-Identifier: MIT */
/* Size row "view + raycast": a BVH baked on the host, viewed in place from flash, one ray's
 * first hit. */
#include "size_example.h"

int main(void)
{
    const copse_ray3 ray = { { 0.0f, 1.0f, 0.0f }, { 0.0f, -1.0f, 0.0f }, 10.0f };
    copse_bvh bvh;
    copse_hit hit;
    if (copse_bvh_view_mesh(&bvh, size_blob, size_blob_bytes, &size_mesh) != COPSE_OK)
        return 1;
    if (copse_bvh_raycast(&bvh, &ray, &hit) != COPSE_OK)
        return 2;
    size_sink = hit.id;
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* Size row "BSP view + contents + trace": a 3D BSP of solid brushes baked on the host, viewed
 * in place from flash; what holds a point, and where a moving point first hits a solid. */
#include "size_example.h"

int main(void)
{
    const copse_segment3 path = { { 0.0f, 1.0f, 0.0f }, { 4.0f, 1.0f, 0.0f } };
    copse_bsp3 bsp;
    copse_bsp3_where where;
    copse_bsp3_trace trace;
    if (copse_bsp3_view(&bsp, size_blob, size_blob_bytes) != COPSE_OK)
        return 1;
    if (copse_bsp3_contents(&bsp, copse_v3(0.5f, 0.5f, 0.5f), &where) != COPSE_OK)
        return 2;
    if (copse_sweep_point_bsp3(&path, &bsp, &trace) != COPSE_OK)
        return 3;
    size_sink = (where.solid ? 1u : 0u) + trace.id;
    return 0;
}

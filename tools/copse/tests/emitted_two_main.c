/* SPDX-License-Identifier: MIT */
/*
 * The tool test of --name: two meshes baked into upperarm.c/.h and forearm.c/.h, compiled into
 * one program (every warning an error, C99 and C11): no symbol or macro of one clashes with the
 * other's, and each views its own tree in place.
 */
#include <stdio.h>

#include "forearm.h"
#include "upperarm.h"

int main(void)
{
    copse_bvh upper, fore;
    copse_status st;
    if ((st = upperarm_view(&upper)) != COPSE_OK || (st = forearm_view(&fore)) != COPSE_OK ||
        (st = copse_bvh_check(&upper)) != COPSE_OK || (st = copse_bvh_check(&fore)) != COPSE_OK) {
        fprintf(stderr, "emitted_two: %s\n", copse_status_str(st));
        return 1;
    }
    if (upper.prim_count != UPPERARM_TRIANGLE_COUNT || fore.prim_count != FOREARM_TRIANGLE_COUNT ||
        UPPERARM_TRIANGLE_COUNT == FOREARM_TRIANGLE_COUNT) {
        fprintf(stderr, "emitted_two: the trees are not their meshes'\n");
        return 1;
    }
    printf("upperarm %lu triangles (%lu bytes), forearm %lu triangles (%lu bytes)\n",
           (unsigned long)UPPERARM_TRIANGLE_COUNT, (unsigned long)upperarm_len, (unsigned long)FOREARM_TRIANGLE_COUNT,
           (unsigned long)forearm_len);
    return 0;
}

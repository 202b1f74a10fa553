/* SPDX-License-Identifier: MIT */
/*
 * The tool test of `copse bake --tree octree|loose -o x.c`: compiled with the emitted
 * baked_cloud.c and baked_boxes.c (every warning an error, C99 and C11), it views each const
 * blob in place and answers a query file, printing what `copse query` prints for the .bin.
 *
 *   emitted_octree cloud|boxes QUERIES
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../octree_query.h"
#include "../word_query.h"
#include "baked_boxes.h"
#include "baked_cloud.h"

int main(int argc, char **argv)
{
    copse_octree points;
    copse_loose boxes;
    copse_status st;
    int cloud = argc == 3 && strcmp(argv[1], "cloud") == 0;
    if (argc != 3 || (!cloud && strcmp(argv[1], "boxes") != 0)) {
        fprintf(stderr, "usage: emitted_octree cloud|boxes QUERIES\n");
        return 2;
    }
    if (((uintptr_t)baked_cloud & 15u) != 0 || ((uintptr_t)baked_boxes & 15u) != 0) {
        fprintf(stderr, "emitted_octree: a blob is not 16-aligned\n");
        return 1;
    }
    st = cloud ? baked_cloud_view(&points) : baked_boxes_view(&boxes);
    if (st == COPSE_OK)
        st = cloud ? copse_octree_check(&points) : copse_loose_check(&boxes);
    if (st != COPSE_OK) {
        fprintf(stderr, "emitted_octree: %s\n", copse_status_str(st));
        return 1;
    }
    return cloud ? word_run(argv[2], NULL, 0, &points, octree_answer) : word_run(argv[2], NULL, 0, &boxes, loose_answer);
}

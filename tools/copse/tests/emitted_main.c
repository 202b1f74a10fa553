/* SPDX-License-Identifier: MIT */
/*
 * The tool test of `copse bake -o x.c`: this program is compiled with the emitted baked_tree.c
 * (every warning an error, C99 and C11), views the const blob in place over the emitted mesh
 * arrays and answers a query file, printing what `copse query` prints for the .bin.
 */
#include <stdint.h>
#include <stdio.h>

#include "../bvh_query.h"
#include "baked_tree.h"

static int answer_on_tree(void *ctx, const bvh_query *q, FILE *out)
{
    return bvh_query_answer((const copse_bvh *)ctx, q, out);
}

int main(int argc, char **argv)
{
    copse_bvh bvh;
    copse_status st;
    if (argc != 2) {
        fprintf(stderr, "usage: emitted QUERIES\n");
        return 2;
    }
    if (((uintptr_t)baked_tree & 15u) != 0) {
        fprintf(stderr, "emitted: the blob is not 16-aligned\n");
        return 1;
    }
    if ((st = baked_tree_view(&bvh)) != COPSE_OK || (st = copse_bvh_check(&bvh)) != COPSE_OK) {
        fprintf(stderr, "emitted: %s\n", copse_status_str(st));
        return 1;
    }
    return bvh_query_run(argv[1], NULL, 0, answer_on_tree, &bvh);
}

/* SPDX-License-Identifier: MIT */
/*
 * copse — the host tool (docs/tool.md).
 *
 *   copse bake  INPUT [--tree bvh|bsp2|bsp3|octree|loose] [--builder sah|median|midpoint] [--leaf N]
 *                     [--bucket N] [--project none|xz|xy|yz] [--depth N] [--grid N] [--name IDENT]
 *                     -o OUT.bin|OUT.c
 *   copse stats FILE.bin [--mesh SOURCE]
 *   copse query FILE.bin --mesh SOURCE (QUERY... | --queries FILE)
 *   copse svg   FILE.bin [--mesh SOURCE] [--plane xz|xy|yz] [--levels N] -o OUT.svg
 *   copse robot bake|info|check|svg ...   (robot_cmd.c)
 *
 * Exit status 0 on success, 1 on any failure (with one line on stderr naming the file and the
 * problem), 2 for a command line it does not understand.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copse/blob.h"
#include "pointcloud_load.h"
#include "robot_tool.h"
#include "tool.h"

/* One row per tree kind. */
static const tool_kind *const kinds[] = {&tool_kind_bvh, &tool_kind_bsp2, &tool_kind_bsp3, &tool_kind_octree,
                                         &tool_kind_loose};
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

static int usage(void)
{
    fputs("usage:\n"
          "  copse bake  INPUT [--tree bvh] [--builder sah|median|midpoint] [--leaf N]\n"
          "              [--project none|xz|xy|yz] [--name IDENT] [-q] -o OUT.bin|OUT.c\n"
          "  copse bake  MAP.txt --tree bsp2 [--depth N] -o OUT.bin|OUT.c     (box map: docs/tool.md)\n"
          "  copse bake  MESH --tree bsp3 [--grid N] [--depth N] -o OUT.bin|OUT.c\n"
          "  copse bake  CLOUD.xyz|CLOUD.pcd --tree octree [--leaf N] [--bucket N] [--depth N] -o OUT.bin|OUT.c\n"
          "  copse bake  BOXES.txt --tree loose [--leaf N] [--depth N] -o OUT.bin|OUT.c  (3D box file: docs/tool.md)\n"
          "  copse stats FILE.bin [--mesh SOURCE]\n"
          "  copse query FILE.bin --mesh SOURCE (QUERY... | --queries FILE)\n"
          "  copse svg   FILE.bin [--mesh SOURCE] [--plane xz|xy|yz] [--levels N] -o OUT.svg\n"
          "  copse robot bake|info|check|svg ...   (copse robot --help)\n"
          "queries: ray ox oy oz dx dy dz [t_max] | box x0 y0 z0 x1 y1 z1 | sphere x y z r |\n"
          "         segment ax ay az bx by bz | nearest x y z [max] | vertex x y z [max] |\n"
          "         ray2 ox oy dx dy [t_max] | rect x0 y0 x1 y1 | circle x y r | segment2 ax ay bx by |\n"
          "         nearest2 x y [max]\n"
          "2D BSP:  point x y | rect x0 y0 x1 y1 | circle x y r | segment2 ax ay bx by\n"
          "3D BSP:  point x y z | box x0 y0 z0 x1 y1 z1 | ray ax ay az bx by bz | sphere ax ay az bx by bz r\n"
          "octree:  box x0 y0 z0 x1 y1 z1 | sphere x y z r | capsule ax ay az bx by bz r | knn x y z k [max] |\n"
          "         nearest x y z [max]\n"
          "loose:   box x0 y0 z0 x1 y1 z1 | sphere x y z r | ray ox oy oz dx dy dz [t_max]\n"
          "see docs/tool.md\n",
          stderr);
    return 2;
}

/* Options take one value each; anything else is the input, then query words. */
static int parse(int argc, char **argv, tool_opts *o)
{
    static const struct { const char *flag; size_t at; } valued[] = {
        {"-o", offsetof(tool_opts, output)},         {"--mesh", offsetof(tool_opts, mesh)},
        {"--name", offsetof(tool_opts, name)},       {"--tree", offsetof(tool_opts, tree)},
        {"--builder", offsetof(tool_opts, builder)}, {"--project", offsetof(tool_opts, project)},
        {"--plane", offsetof(tool_opts, plane)},     {"--queries", offsetof(tool_opts, queries)},
    };
    int i;
    unsigned k;
    for (i = 2; i < argc; i++) {
        const char *arg = argv[i];
        for (k = 0; k < sizeof valued / sizeof valued[0] && strcmp(arg, valued[k].flag) != 0; k++)
            ;
        if (k < sizeof valued / sizeof valued[0]) {
            if (i + 1 >= argc)
                return tool_fail("%s needs a value", arg) + 1;
            *(const char **)((char *)o + valued[k].at) = argv[++i];
        } else if (strcmp(arg, "--leaf") == 0 || strcmp(arg, "--levels") == 0 || strcmp(arg, "--depth") == 0 ||
                   strcmp(arg, "--grid") == 0 || strcmp(arg, "--bucket") == 0) {
            char *end;
            long v;
            if (i + 1 >= argc)
                return tool_fail("%s needs a number", arg) + 1;
            v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || v < 0 || v > 1000000)
                return tool_fail("%s %s: not a count", arg, argv[i]) + 1;
            if (strcmp(arg, "--leaf") == 0)
                o->leaf = (unsigned)v;
            else if (strcmp(arg, "--levels") == 0)
                o->max_level = (int)v;
            else if (strcmp(arg, "--depth") == 0)
                o->depth = (int)v;
            else if (strcmp(arg, "--bucket") == 0)
                o->bucket = (unsigned)v;
            else
                o->grid = (unsigned)v;
        } else if (strcmp(arg, "-q") == 0) {
            o->quiet = 1;
        } else if (o->input == NULL && (arg[0] != '-' || arg[1] == '\0')) {
            o->input = arg;
        } else if (o->input != NULL && o->word_count < TOOL_MAX_QUERY_WORDS &&
                   (arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.')) {
            o->words[o->word_count++] = arg; /* query words, negative numbers included */
        } else {
            return tool_fail("unknown option %s", arg) + 1;
        }
    }
    if (o->input == NULL)
        return tool_fail("%s: which file?", argv[1]) + 1;
    return 0;
}

static const tool_kind *kind_by_name(const char *name)
{
    unsigned k;
    for (k = 0; k < KIND_COUNT; k++)
        if (strcmp(kinds[k]->name, name) == 0)
            return kinds[k];
    return NULL;
}

/* stats, query, svg: the blob's kind picks the backend. */
static int on_blob(const char *command, const tool_opts *o)
{
    size_t len;
    void *blob = tool_read_file(o->input, &len);
    copse_blob_info info;
    copse_status st;
    const tool_kind *kind = NULL;
    unsigned k;
    int rc;
    if (blob == NULL)
        return 1;
    st = copse_blob_read(blob, len, &info);
    if (st != COPSE_OK) {
        free(blob);
        return tool_fail("%s: not a copse blob: %s", o->input, copse_status_str(st));
    }
    for (k = 0; k < KIND_COUNT; k++)
        if (kinds[k]->blob_kind == info.kind)
            kind = kinds[k];
    if (kind == NULL) {
        free(blob);
        return tool_fail("%s: a blob of tree kind %lu, which this tool does not read yet", o->input,
                         (unsigned long)info.kind);
    }
    rc = command[0] == 's' && command[1] == 't' ? kind->stats(o, blob, len)
         : command[0] == 'q'                    ? kind->query(o, blob, len)
                                                : kind->svg(o, blob, len);
    free(blob);
    return rc;
}

int main(int argc, char **argv)
{
    tool_opts o;
    const char *command;
    memset(&o, 0, sizeof o);
    o.tree = "bvh";
    o.builder = "sah";
    o.project = "none";
    o.plane = "xz";
    o.leaf = 4;
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
        return usage();
    command = argv[1];
    if (strcmp(command, "robot") == 0)
        return robot_main(argc, argv);
    if (strcmp(command, "bake") != 0 && strcmp(command, "stats") != 0 && strcmp(command, "query") != 0 &&
        strcmp(command, "svg") != 0) {
        tool_fail("unknown command '%s'", command);
        return usage();
    }
    if (parse(argc, argv, &o) != 0)
        return 2;
    if (strcmp(command, "bake") == 0) {
        const tool_kind *kind = kind_by_name(o.tree);
        if (kind == NULL)
            return tool_fail("--tree %s: this tool bakes bvh, bsp2, bsp3, octree and loose", o.tree);
        if (o.output == NULL || !(host_path_has_suffix(o.output, ".c") || host_path_has_suffix(o.output, ".bin")))
            return tool_fail("bake needs -o FILE.bin or -o FILE.c");
        return kind->bake(&o);
    }
    if (o.word_count > 0 && command[0] != 'q')
        return tool_fail("%s: unexpected argument %s", command, o.words[0]);
    return on_blob(command, &o);
}

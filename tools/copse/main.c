/* SPDX-License-Identifier: MIT */
/*
 * copse — the host tool (docs/tool.md).
 *
 *   copse bake  INPUT [--tree bvh|bsp2|bsp3|octree|loose] [--builder sah|median|midpoint] [--leaf N]
 *                     [--bucket N] [--project none|xz|xy|yz] [--depth N] [--grid N] [--name IDENT]
 *                     -o OUT.bin|OUT.c
 *   copse stats FILE.bin [--mesh SOURCE]
 *   copse query FILE.bin --mesh SOURCE (QUERY [QUERY ...] | --queries FILE)
 *   copse svg   FILE.bin [--mesh SOURCE] [--plane xz|xy|yz] [--levels N] -o OUT.svg
 *   copse robot bake|info|check|svg ...   (robot_cmd.c)
 *
 * Exit status (tool.h, docs/tool.md): 0 done; 1 the input or the work failed (one line on stderr
 * naming the file and the problem); 2 the command line is wrong. `copse help`, `--help` and `-h`
 * print the usage on stdout and exit 0.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copse/blob.h"
#include "emit_c.h"
#include "pointcloud_load.h"
#include "robot_tool.h"
#include "tool.h"

/* One row per tree kind. */
static const tool_kind *const kinds[] = {&tool_kind_bvh, &tool_kind_bsp2, &tool_kind_bsp3, &tool_kind_octree,
                                         &tool_kind_loose};
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

/* The usage text: on stdout for help (exit 0), on stderr after a wrong command line (exit 2). */
static int usage(FILE *out, int status)
{
    fputs("usage:\n"
          "  copse bake  INPUT [--tree bvh] [--builder sah|median|midpoint] [--leaf N]\n"
          "              [--project none|xz|xy|yz] [--up y|z] [--name IDENT] [-q] -o OUT.bin|OUT.c\n"
          "  copse bake  MAP.txt --tree bsp2 [--depth N] -o OUT.bin|OUT.c     (box map: docs/tool.md)\n"
          "  copse bake  MESH --tree bsp3 [--grid N] [--depth N] [--up y|z] -o OUT.bin|OUT.c\n"
          "  copse bake  CLOUD.xyz|CLOUD.pcd --tree octree [--leaf N] [--bucket N] [--depth N] -o OUT.bin|OUT.c\n"
          "  copse bake  BOXES.txt --tree loose [--leaf N] [--depth N] -o OUT.bin|OUT.c  (3D box file: docs/tool.md)\n"
          "  copse stats FILE.bin [--mesh SOURCE [--up y|z]]\n"
          "  copse query FILE.bin --mesh SOURCE [--up y|z] (QUERY [QUERY ...] | --queries FILE)\n"
          "  copse svg   FILE.bin [--mesh SOURCE [--up y|z]] [--plane xz|xy|yz] [--levels N] -o OUT.svg\n"
          "  --up y|z: turn a mesh that declares its up axis (COLLADA, glTF) to y or z up; without it the\n"
          "            file's own axes are kept\n"
          "  copse robot bake|info|check|svg ...   (copse robot --help)\n"
          "queries (each starts at a word that is not a number):\n"
          "         ray ox oy oz dx dy dz [t_max] | box x0 y0 z0 x1 y1 z1 | sphere x y z r |\n"
          "         segment ax ay az bx by bz | nearest x y z [max] | vertex x y z [max] |\n"
          "         ray2 ox oy dx dy [t_max] | rect x0 y0 x1 y1 | circle x y r | segment2 ax ay bx by |\n"
          "         nearest2 x y [max]\n"
          "2D BSP:  point x y | rect x0 y0 x1 y1 | circle x y r | segment2 ax ay bx by\n"
          "3D BSP:  point x y z | box x0 y0 z0 x1 y1 z1 | ray ax ay az bx by bz | sphere ax ay az bx by bz r\n"
          "octree:  box x0 y0 z0 x1 y1 z1 | sphere x y z r | capsule ax ay az bx by bz r | knn x y z k [max] |\n"
          "         nearest x y z [max]\n"
          "loose:   box x0 y0 z0 x1 y1 z1 | sphere x y z r | ray ox oy oz dx dy dz [t_max]\n"
          "exit status: 0 done, 1 the input or the work failed, 2 a wrong command line (docs/tool.md)\n"
          "see docs/tool.md\n",
          out);
    return status;
}

/* Options take one value each; anything else is the input, then query words (o->words has room
 * for argc of them). 0, or TOOL_USAGE after a message. */
static int parse(int argc, char **argv, tool_opts *o)
{
    static const struct { const char *flag; size_t at; } valued[] = {
        {"-o", offsetof(tool_opts, output)},         {"--mesh", offsetof(tool_opts, mesh)},
        {"--name", offsetof(tool_opts, name)},       {"--tree", offsetof(tool_opts, tree)},
        {"--builder", offsetof(tool_opts, builder)}, {"--project", offsetof(tool_opts, project)},
        {"--plane", offsetof(tool_opts, plane)},     {"--queries", offsetof(tool_opts, queries)},
        {"--up", offsetof(tool_opts, up)},
    };
    int i;
    unsigned k;
    for (i = 2; i < argc; i++) {
        const char *arg = argv[i];
        for (k = 0; k < sizeof valued / sizeof valued[0] && strcmp(arg, valued[k].flag) != 0; k++)
            ;
        if (k < sizeof valued / sizeof valued[0]) {
            if (i + 1 >= argc)
                return tool_usage("%s needs a value", arg);
            *(const char **)((char *)o + valued[k].at) = argv[++i];
        } else if (strcmp(arg, "--leaf") == 0 || strcmp(arg, "--levels") == 0 || strcmp(arg, "--depth") == 0 ||
                   strcmp(arg, "--grid") == 0 || strcmp(arg, "--bucket") == 0) {
            char *end;
            long v;
            if (i + 1 >= argc)
                return tool_usage("%s needs a number", arg);
            v = strtol(argv[++i], &end, 10);
            if (*end != '\0' || end == argv[i] || v < 0 || v > 1000000)
                return tool_usage("%s %s: not a count", arg, argv[i]);
            /* 0 is a value only for --leaf (a loose octree's node capacity): elsewhere it means "not given" */
            if (v == 0 && strcmp(arg, "--leaf") != 0)
                return tool_usage("%s 0: expected 1 or more", arg);
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
        } else if (o->input != NULL && (arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9') || arg[1] == '.')) {
            o->words[o->word_count++] = arg; /* query words, negative numbers included */
        } else {
            return tool_usage("unknown option %s", arg);
        }
    }
    if (o->input == NULL)
        return tool_usage("%s: which file?", argv[1]);
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

static int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "help") == 0;
}

static int run(int argc, char **argv, tool_opts *o)
{
    const char *command = argv[1];
    int i, rc;
    if (strcmp(command, "robot") == 0)
        return robot_main(argc, argv);
    if (strcmp(command, "bake") != 0 && strcmp(command, "stats") != 0 && strcmp(command, "query") != 0 &&
        strcmp(command, "svg") != 0) {
        tool_usage("unknown command '%s'", command);
        return usage(stderr, TOOL_USAGE);
    }
    for (i = 2; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return usage(stdout, TOOL_OK);
    if ((rc = parse(argc, argv, o)) != 0)
        return rc;
    if (o->up != NULL && strcmp(o->up, "y") != 0 && strcmp(o->up, "z") != 0)
        return tool_usage("--up %s: expected y or z", o->up);
    if (strcmp(command, "bake") == 0) {
        const tool_kind *kind = kind_by_name(o->tree);
        if (kind == NULL)
            return tool_usage("--tree %s: this tool bakes bvh, bsp2, bsp3, octree and loose", o->tree);
        if (o->up != NULL && strcmp(o->tree, "bvh") != 0 && strcmp(o->tree, "bsp3") != 0)
            return tool_usage("--up turns a mesh (--tree bvh or bsp3), not the input of --tree %s", o->tree);
        if (o->output == NULL || !(host_path_has_suffix(o->output, ".c") || host_path_has_suffix(o->output, ".bin")))
            return tool_usage("bake needs -o FILE.bin or -o FILE.c");
        if (o->word_count > 0)
            return tool_usage("bake: unexpected argument %s", o->words[0]);
        if (host_path_has_suffix(o->output, ".c")) { /* the generated names' prefix, checked first */
            static char prefix[EMIT_PREFIX_MAX + 1u];
            if ((rc = emit_prefix(o->output, o->name, prefix, sizeof prefix)) != 0)
                return rc;
            o->name = prefix;
        }
        return kind->bake(o);
    }
    if (o->word_count > 0 && command[0] != 'q')
        return tool_usage("%s: unexpected argument %s", command, o->words[0]);
    if (o->up != NULL && o->mesh == NULL)
        return tool_usage("%s: --up turns the --mesh file: give --mesh", command);
    return on_blob(command, o);
}

int main(int argc, char **argv)
{
    tool_opts o;
    int rc;
    memset(&o, 0, sizeof o);
    o.tree = "bvh";
    o.builder = "sah";
    o.project = "none";
    o.plane = "xz";
    o.leaf = 4;
    if (argc < 2)
        return usage(stderr, TOOL_USAGE);
    if (is_help(argv[1]))
        return usage(stdout, TOOL_OK);
    if ((o.words = (const char **)calloc((size_t)argc, sizeof *o.words)) == NULL)
        return tool_fail("out of memory");
    rc = run(argc, argv, &o);
    free((void *)o.words);
    return rc;
}

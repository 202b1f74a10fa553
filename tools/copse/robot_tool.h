/* SPDX-License-Identifier: MIT */
/*
 * `copse robot` (docs/tool.md, "copse robot"): a URDF robot baked into one robot blob or const C
 * arrays, checked against a world, drawn.
 *
 *   robot_model.c  URDF (robot_urdf.h) -> link meshes in double then float, primitives, fitted
 *                  spheres -> copse_robot_desc -> copse_robot_build; a .bin viewed instead
 *   robot_cmd.c    the commands: bake, info, check, svg; the world (meshes, a scan)
 */
#ifndef COPSE_TOOL_ROBOT_TOOL_H
#define COPSE_TOOL_ROBOT_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "copse/robot.h"
#include "robot_urdf.h"

#define ROBOT_MAX_WORLDS 32u
#define ROBOT_MAX_ALLOW 256u
#define ROBOT_CYLINDER_SEGMENTS 16u /* sides of the prism a URDF <cylinder> becomes */

typedef struct robot_opts {
    const char *command;
    const char *input;        /* ROBOT: a .urdf, or a robot .bin */
    const char *output;       /* -o */
    const char *name;         /* --name */
    const char *srdf;         /* --srdf */
    const char *q;            /* --q "v0 v1 ..." */
    const char *scan;         /* --scan */
    const char *plane;        /* svg --plane */
    const char *worlds[ROBOT_MAX_WORLDS];
    unsigned world_count;
    const char *allow[ROBOT_MAX_ALLOW];
    unsigned allow_count;
    unsigned spheres;         /* --spheres N: bounding spheres fitted per link (0: none) */
    unsigned never;           /* --never N: allow the pairs that touch in none of N random configurations */
    int capsule;              /* --capsule: one bounding capsule per mesh link */
    float padding;            /* --padding m */
    float scan_padding;       /* --scan-padding m */
    float max_distance;       /* --max-distance d */
    int quiet;
} robot_opts;

/* A link's collision geometry in its frame, in double (the bake's first stage; the oracle
 * rebuilds it independently). */
typedef struct robot_link_geometry {
    double *positions;        /* 3 per vertex */
    uint32_t vertex_count;
    uint32_t *indices;        /* 3 per triangle */
    uint32_t triangle_count;
    double (*spheres)[4];     /* URDF <sphere>s: centre, radius */
    uint32_t sphere_count;
} robot_link_geometry;

/* A robot ready for queries: built from a URDF, or viewed in a blob. */
typedef struct robot_loaded {
    copse_robot robot;
    void *memory;             /* the arena or the blob */
    size_t memory_bytes;
    int from_urdf;
    urdf_robot urdf;          /* when from_urdf */
} robot_loaded;

/* Where a mesh file named in the URDF is: "package://NAME/rest" and "package://rest" are tried as
 * DIR/rest, DIR/../rest, DIR/../../rest, then DIR/NAME/rest... (docs/tool.md); a relative path
 * against DIR (the URDF's folder); an absolute path as is; "file://" stripped. 0 and the path in
 * out, or -1 with the candidates tried in `tried`. */
int robot_resolve_mesh(const char *urdf_path, const char *filename, char *out, size_t cap, char *tried,
                       size_t tried_cap);

/* Every link's geometry (meshes loaded, origins and scales applied, boxes and cylinders
 * triangulated) in double. 0, or 1 after tool_fail. */
int robot_link_geometries(const char *urdf_path, const urdf_robot *u, robot_link_geometry **out);
void robot_link_geometries_free(robot_link_geometry *g, unsigned count);

/* Builds (from a .urdf: the options' spheres, padding, allowed pairs) or views (a .bin) the
 * robot. 0, or 1 after tool_fail. */
int robot_open(const robot_opts *o, robot_loaded *out);
void robot_close(robot_loaded *r);

int robot_main(int argc, char **argv);

#endif

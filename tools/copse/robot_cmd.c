/* SPDX-License-Identifier: MIT */
/*
 * `copse robot bake|info|check|svg` (docs/tool.md, "copse robot"): the command line, the world
 * (meshes with poses and scales, a scan in a point octree) and the four commands.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copse/blob.h"
#include "emit_c.h"
#include "mesh_load.h"
#include "pointcloud_load.h"
#include "robot_tool.h"
#include "svg.h"
#include "tool.h"

#define SVG_MAX_SCAN_POINTS 20000u
#define CONTACTS_MAX 256u

/* The usage text: on stdout for help (exit 0), on stderr after a wrong command line (exit 2). */
static int usage(FILE *out, int status)
{
    fputs("usage:\n"
          "  copse robot bake  ROBOT.urdf [--spheres N] [--padding m] [--srdf FILE] [--allow linkA,linkB]...\n"
          "                    [--never N] [--capsule] [--name IDENT] [-q] -o OUT.bin|OUT.c\n"
          "  copse robot info  ROBOT\n"
          "  copse robot check ROBOT [--world MESH[@x,y,z,r,p,y[,scale]]]... [--scan CLOUD] [--scan-padding m]\n"
          "                    [--q \"v0 v1 ...\"] [--max-distance d]\n"
          "  copse robot svg   ROBOT [--q \"...\"] [--world ...]... [--scan CLOUD] [--plane xz|xy|yz] -o OUT.svg\n"
          "ROBOT: a .urdf (built on the fly with the bake options) or a baked robot .bin\n"
          "exit status: 0 done, 1 the input or the work failed, 2 a wrong command line (docs/tool.md)\n"
          "see docs/tool.md\n",
          out);
    return status;
}

static int parse_count(const char *flag, const char *word, unsigned max, unsigned *out)
{
    char *end;
    long v = strtol(word, &end, 10);
    if (*end != '\0' || end == word || v < 0 || v > (long)max)
        return tool_usage("%s %s: expected a whole number from 0 to %u", flag, word, max);
    *out = (unsigned)v;
    return 0;
}

static int parse_length(const char *flag, const char *word, float *out)
{
    if (!tool_parse_float(word, out) || *out < 0.0f)
        return tool_usage("%s %s: expected a length >= 0", flag, word);
    return 0;
}

/* --allow linkA,linkB: two names around one comma. */
static int allow_form(const char *s)
{
    const char *comma = strchr(s, ',');
    return comma != NULL && comma != s && comma[1] != '\0' && strchr(comma + 1, ',') == NULL;
}

/* 0, or TOOL_USAGE after a message. */
static int parse(int argc, char **argv, robot_opts *o)
{
    int i, rc;
    for (i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "-q") != 0 && strcmp(a, "--capsule") != 0 && a[0] == '-' && a[1] != '\0';
        if (takes && v == NULL)
            return tool_usage("%s needs a value", a);
        if (strcmp(a, "-q") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--capsule") == 0)
            o->capsule = 1;
        else if (strcmp(a, "-o") == 0)
            o->output = v;
        else if (strcmp(a, "--name") == 0)
            o->name = v;
        else if (strcmp(a, "--srdf") == 0)
            o->srdf = v;
        else if (strcmp(a, "--q") == 0)
            o->q = v;
        else if (strcmp(a, "--scan") == 0)
            o->scan = v;
        else if (strcmp(a, "--plane") == 0)
            o->plane = v;
        else if (strcmp(a, "--world") == 0) {
            if (o->world_count >= ROBOT_MAX_WORLDS)
                return tool_usage("more than %u --world meshes", ROBOT_MAX_WORLDS);
            o->worlds[o->world_count++] = v;
        } else if (strcmp(a, "--allow") == 0) {
            if (o->allow_count >= ROBOT_MAX_ALLOW)
                return tool_usage("more than %u --allow pairs", ROBOT_MAX_ALLOW);
            if (!allow_form(v))
                return tool_usage("--allow %s: expected two link names, linkA,linkB", v);
            o->allow[o->allow_count++] = v;
        } else if (strcmp(a, "--spheres") == 0) {
            if ((rc = parse_count(a, v, COPSE_ROBOT_MAX_SHAPES, &o->spheres)) != 0)
                return rc;
        } else if (strcmp(a, "--never") == 0) {
            if ((rc = parse_count(a, v, 10000000u, &o->never)) != 0)
                return rc;
        } else if (strcmp(a, "--padding") == 0) {
            if ((rc = parse_length(a, v, &o->padding)) != 0)
                return rc;
        } else if (strcmp(a, "--scan-padding") == 0) {
            if ((rc = parse_length(a, v, &o->scan_padding)) != 0)
                return rc;
        } else if (strcmp(a, "--max-distance") == 0) {
            if ((rc = parse_length(a, v, &o->max_distance)) != 0)
                return rc;
        } else if (!takes && o->input == NULL) {
            o->input = a;
            continue;
        } else {
            return tool_usage("robot %s: unknown option or extra argument %s", o->command, a);
        }
        if (takes)
            i++;
    }
    if (o->input == NULL)
        return tool_usage("robot %s: which robot (a .urdf or a baked .bin)?", o->command);
    return 0;
}

/* ---- configurations ---------------------------------------------------------------------------- */

static void variable_name(const copse_robot *r, uint32_t v, char *buf, size_t cap)
{
    uint32_t joint = 0;
    float lo, hi;
    buf[0] = '\0';
    if (copse_robot_variable(r, v, &joint, &lo, &hi) == COPSE_OK)
        copse_robot_joint_name(r, joint, buf, cap);
}

/* --q: dof numbers within the limits; without it, 0 clamped into each variable's range. */
static int parse_q(const robot_opts *o, const copse_robot *r, float *q)
{
    uint32_t n = copse_robot_dof(r), k = 0;
    const char *p = o->q;
    for (k = 0; k < n; k++) {
        uint32_t joint;
        float lo, hi;
        copse_robot_variable(r, k, &joint, &lo, &hi);
        q[k] = 0.0f < lo ? lo : 0.0f > hi ? hi : 0.0f;
    }
    if (p == NULL)
        return 0;
    for (k = 0;; k++) {
        char word[64];
        size_t len;
        uint32_t joint;
        float lo, hi, v;
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        len = strcspn(p, " \t,");
        if (k >= n)
            return tool_fail("--q: more than the robot's %u variables", (unsigned)n);
        snprintf(word, sizeof word, "%.*s", (int)(len < 63u ? len : 63u), p);
        p += len;
        if (!tool_parse_float(word, &v))
            return tool_usage("--q: value %u '%s' is not a number", (unsigned)k, word);
        copse_robot_variable(r, k, &joint, &lo, &hi);
        if (v < lo || v > hi) {
            char name[COPSE_ROBOT_NAME_MAX + 1u];
            variable_name(r, k, name, sizeof name);
            return tool_fail("--q: value %u (%g) is outside joint '%s''s limits [%g, %g]", (unsigned)k, (double)v,
                             name, (double)lo, (double)hi);
        }
        q[k] = v;
    }
    if (k != n)
        return tool_fail("--q: %u values for the robot's %u variables", (unsigned)k, (unsigned)n);
    return 0;
}

/* ---- the world ----------------------------------------------------------------------------------- */

typedef struct world_store {
    host_mesh meshes[ROBOT_MAX_WORLDS];
    copse_bvh trees[ROBOT_MAX_WORLDS];
    void *tree_mem[ROBOT_MAX_WORLDS];
    copse_world_mesh placed[ROBOT_MAX_WORLDS];
    char files[ROBOT_MAX_WORLDS][512];
    unsigned count;
    host_points scan;
    copse_octree octree;
    void *octree_mem;
    copse_world world;
} world_store;

/* MESH[@x,y,z,r,p,y[,scale]]: the part after the last '@' when it is 6 or 7 numbers. */
static int world_spec(const char *spec, char *file, size_t cap, float *pose7)
{
    const char *at = strrchr(spec, '@');
    unsigned n = 0;
    pose7[0] = pose7[1] = pose7[2] = pose7[3] = pose7[4] = pose7[5] = 0.0f;
    pose7[6] = 1.0f;
    snprintf(file, cap, "%s", spec);
    if (at == NULL)
        return 0;
    {
        const char *p = at + 1;
        while (*p != '\0' && n < 7u) {
            char word[64];
            size_t len = strcspn(p, ",");
            snprintf(word, sizeof word, "%.*s", (int)(len < 63u ? len : 63u), p);
            if (!tool_parse_float(word, &pose7[n]))
                return tool_usage("--world %s: '%s' is not a number (MESH@x,y,z,roll,pitch,yaw[,scale])", spec, word);
            n++;
            p += len;
            if (*p == ',')
                p++;
        }
        if ((n != 6u && n != 7u) || *p != '\0')
            return tool_usage("--world %s: expected MESH@x,y,z,roll,pitch,yaw[,scale]", spec);
    }
    if (!(pose7[6] > 0.0f))
        return tool_usage("--world %s: the scale must be > 0", spec);
    snprintf(file, cap, "%.*s", (int)(at - spec), spec);
    return 0;
}

static int world_scan(const robot_opts *o, world_store *w)
{
    copse_octree_config cfg;
    copse_arena arena, scratch;
    uint32_t nodes = 0, buckets = 0, i;
    void *scratch_mem = NULL;
    char err[700];
    copse_status st = COPSE_OK;
    if (host_points_load(o->scan, &w->scan, err, sizeof err) != 0)
        return tool_fail("%s", err);
    memset(&cfg, 0, sizeof cfg);
    cfg.points = (const copse_vec3 *)(const void *)w->scan.xyz;
    cfg.point_capacity = w->scan.count;
    cfg.bounds = copse_box3_make(0, 0, 0, 1, 1, 1);
    cfg.max_nodes = 1;
    cfg.leaf_size = 8;
    cfg.bucket_size = 8;
    cfg.max_depth = 16;
    for (i = 0; i < 2u && st == COPSE_OK; i++) { /* measure, then build into exactly what it needs */
        size_t bytes = copse_octree_bytes(&cfg), sb;
        free(w->octree_mem);
        free(scratch_mem);
        scratch_mem = NULL;
        if (bytes == (size_t)-1 || (w->octree_mem = malloc(bytes)) == NULL)
            return tool_fail("%s: no memory for the scan's octree", o->scan);
        copse_arena_init(&arena, w->octree_mem, bytes);
        if ((st = copse_octree_init(&w->octree, &arena, &cfg)) != COPSE_OK)
            break;
        sb = copse_octree_build_scratch_bytes(&w->octree, w->scan.count);
        if ((scratch_mem = malloc(sb > 0 ? sb : 1u)) == NULL)
            return tool_fail("out of memory");
        copse_arena_init(&scratch, scratch_mem, sb);
        st = i == 0 ? copse_octree_measure(&w->octree, &scratch, w->scan.count, &nodes, &buckets)
                    : copse_octree_build(&w->octree, &scratch, w->scan.count);
        cfg.max_nodes = nodes > 0 ? nodes : 1;
        cfg.max_buckets = buckets;
    }
    free(scratch_mem);
    if (st != COPSE_OK)
        return tool_fail("%s: the scan's octree: %s", o->scan, copse_status_str(st));
    w->world.scan = &w->octree;
    w->world.scan_padding = o->scan_padding;
    return 0;
}

static int world_load(const robot_opts *o, world_store *w)
{
    unsigned i;
    int rc;
    memset(w, 0, sizeof *w);
    for (i = 0; i < o->world_count; i++) {
        float p[7];
        char err[700];
        copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
        copse_mesh mesh;
        copse_arena arena;
        copse_status st;
        size_t bytes;
        uint32_t k;
        if ((rc = world_spec(o->worlds[i], w->files[i], sizeof w->files[i], p)) != 0)
            return rc;
        if (host_mesh_load(w->files[i], &w->meshes[i], err, sizeof err) != 0)
            return tool_fail("--world: %s", err);
        w->count = i + 1u;
        for (k = 0; k < 3u * w->meshes[i].vertex_count; k++)
            w->meshes[i].positions[k] *= p[6];
        mesh = host_mesh_view(&w->meshes[i]);
        bytes = copse_bvh_build_bytes(mesh.triangle_count, 3u, &params);
        if (bytes == (size_t)-1 || (w->tree_mem[i] = malloc(bytes)) == NULL)
            return tool_fail("%s: no memory for its BVH", w->files[i]);
        copse_arena_init(&arena, w->tree_mem[i], bytes);
        if ((st = copse_bvh_build_mesh(&w->trees[i], &arena, &mesh, &params)) != COPSE_OK)
            return tool_fail("%s: BVH build: %s", w->files[i], copse_status_str(st));
        w->placed[i].tree = &w->trees[i];
        if ((st = copse_pose_from_xyz_rpy(&w->placed[i].pose, copse_v3(p[0], p[1], p[2]), copse_v3(p[3], p[4], p[5]))) !=
            COPSE_OK)
            return tool_fail("--world %s: pose: %s", o->worlds[i], copse_status_str(st));
    }
    w->world.meshes = w->placed;
    w->world.mesh_count = w->count;
    if (o->scan != NULL && world_scan(o, w) != 0)
        return 1;
    return 0;
}

static void world_free(world_store *w)
{
    unsigned i;
    for (i = 0; i < w->count; i++) {
        host_mesh_free(&w->meshes[i]);
        free(w->tree_mem[i]);
    }
    host_points_free(&w->scan);
    free(w->octree_mem);
}

/* ---- bake --------------------------------------------------------------------------------------- */

static int cmd_bake(const robot_opts *o, robot_loaded *r)
{
    size_t len = copse_robot_save_bytes(&r->robot);
    uint8_t *blob;
    copse_status st;
    int rc;
    if (len == 0 || (blob = (uint8_t *)malloc(len)) == NULL)
        return tool_fail("%s: cannot size the robot blob", o->input);
    if ((st = copse_robot_save(&r->robot, blob, len, NULL)) != COPSE_OK) {
        free(blob);
        return tool_fail("%s: saving the robot: %s", o->input, copse_status_str(st));
    }
    if (host_path_has_suffix(o->output, ".c")) {
        char name[128], guard[128], header[768], source[768], generator[1024];
        emit_spec spec;
        emit_names(o->output, o->name, name, guard, sizeof name);
        snprintf(header, sizeof header,
                 "\n#include \"copse/robot.h\"\n\n/* Points `robot` at the blob in place (validated first). */\n"
                 "copse_status %s_view(copse_robot *robot);\n",
                 name);
        snprintf(source, sizeof source,
                 "\ncopse_status %s_view(copse_robot *robot)\n{\n    return copse_robot_view(robot, %s, %s_BYTES);\n}\n",
                 name, name, guard);
        snprintf(generator, sizeof generator, "copse robot bake %s --spheres %u --padding %g -o %s", o->input,
                 o->spheres, (double)o->padding, o->output);
        emit_spec_init(&spec, o->output, name, generator, blob, len);
        spec.header_extra = header;
        spec.source_extra = source;
        rc = emit_c(&spec);
    } else {
        rc = tool_write_file(o->output, blob, len);
    }
    if (rc == 0 && !o->quiet) {
        uint32_t i, tris = 0;
        for (i = 0; i < r->robot.link_count; i++) {
            copse_bvh t;
            if (copse_robot_link_tree(&r->robot, i, &t) == COPSE_OK)
                tris += t.mesh.triangle_count;
        }
        printf("baked     %s: %u links, %u joints, %u variables, %u triangles, %lu bytes -> %s\n", o->input,
               (unsigned)r->robot.link_count, (unsigned)r->robot.joint_count, (unsigned)copse_robot_dof(&r->robot),
               (unsigned)tris, (unsigned long)len, o->output);
    }
    free(blob);
    return rc;
}

/* ---- info ---------------------------------------------------------------------------------------- */

static const char *const joint_type_names[] = {"fixed", "revolute", "continuous", "prismatic"};

static int cmd_info(const robot_opts *o, robot_loaded *r)
{
    const copse_robot *rb = &r->robot;
    uint32_t i, tris = 0, spheres = 0, capsules = 0;
    char name[COPSE_ROBOT_NAME_MAX + 1u], other[COPSE_ROBOT_NAME_MAX + 1u];
    printf("robot     %s: %s; %u links, %u joints, %u variables\n", o->input,
           r->from_urdf ? "URDF, built in memory" : "robot blob", (unsigned)rb->link_count,
           (unsigned)rb->joint_count, (unsigned)copse_robot_dof(rb));
    for (i = 0; i < rb->link_count; i++) {
        copse_bvh t;
        uint32_t nt = 0, ns = copse_robot_link_spheres(rb, i, NULL, 0), nc = copse_robot_link_capsules(rb, i, NULL, 0);
        if (copse_robot_link_tree(rb, i, &t) == COPSE_OK)
            nt = t.mesh.triangle_count;
        copse_robot_link_info li;
        copse_robot_link_info_get(rb, i, &li);
        copse_robot_link_name(rb, i, name, sizeof name);
        printf("link      %2u %-26s triangles %5u  spheres %3u  capsules %3u  padding %g%s\n", (unsigned)i, name,
               (unsigned)nt, (unsigned)ns, (unsigned)nc, (double)li.padding,
               li.shapes_bound ? "  (shapes bound the mesh)" : "");
        tris += nt, spheres += ns, capsules += nc;
    }
    for (i = 0; i < rb->joint_count; i++) {
        copse_robot_joint_info ji;
        copse_robot_joint_info_get(rb, i, &ji);
        copse_robot_joint_name(rb, i, name, sizeof name);
        printf("joint     %2u %-26s %-10s %u -> %u", (unsigned)i, name,
               (unsigned)ji.type < 4u ? joint_type_names[ji.type] : "?", (unsigned)ji.parent, (unsigned)ji.child);
        if (ji.mimic != COPSE_NONE) {
            copse_robot_joint_name(rb, ji.mimic, other, sizeof other);
            printf("  mimics %s (x %g %+g)", other, (double)ji.multiplier, (double)ji.offset);
        }
        putchar('\n');
    }
    for (i = 0; i < copse_robot_dof(rb); i++) {
        uint32_t joint;
        float lo, hi;
        copse_robot_variable(rb, i, &joint, &lo, &hi);
        copse_robot_joint_name(rb, joint, name, sizeof name);
        if (lo == -FLT_MAX && hi == FLT_MAX)
            printf("variable  %2u %-26s unlimited\n", (unsigned)i, name);
        else
            printf("variable  %2u %-26s [%g, %g]\n", (unsigned)i, name, (double)lo, (double)hi);
    }
    {
        uint32_t a, b, n = 0;
        for (a = 0; a < rb->link_count; a++)
            for (b = a + 1u; b < rb->link_count; b++)
                if (copse_robot_allowed(rb, a, b)) {
                    copse_robot_link_name(rb, a, name, sizeof name);
                    copse_robot_link_name(rb, b, other, sizeof other);
                    printf("allowed   %2u %-26s %2u %s\n", (unsigned)a, name, (unsigned)b, other);
                    n++;
                }
        printf("allowed   %u of %u pairs may touch\n", (unsigned)n, (unsigned)(rb->link_count * (rb->link_count - 1u) / 2u));
    }
    printf("triangles %u; spheres %u; capsules %u\n", (unsigned)tris, (unsigned)spheres, (unsigned)capsules);
    printf("bytes     %lu (blob)\n", (unsigned long)copse_robot_save_bytes(rb));
    return 0;
}

/* ---- check ----------------------------------------------------------------------------------------- */

static const char *const kind_names[] = {"none", "self", "mesh", "scan", "object"};

static void print_other(const copse_robot *r, const world_store *w, const copse_robot_contact *c)
{
    char name[COPSE_ROBOT_NAME_MAX + 1u];
    if (c->kind == COPSE_CONTACT_SELF) {
        copse_robot_link_name(r, c->other, name, sizeof name);
        printf("%s", name);
    } else if (c->kind == COPSE_CONTACT_MESH) {
        printf("world %u %s", (unsigned)c->other, c->other < w->count ? w->files[c->other] : "?");
    } else if (c->kind == COPSE_CONTACT_SCAN) {
        printf("scan");
    } else {
        printf("object %u", (unsigned)c->other);
    }
}

static void print_prim(uint32_t prim)
{
    if (prim == COPSE_NONE)
        printf(" #-");
    else
        printf(" #%u", (unsigned)prim);
}

static void print_contact(const char *label, const copse_robot *r, const world_store *w, const copse_robot_contact *c)
{
    char name[COPSE_ROBOT_NAME_MAX + 1u];
    copse_robot_link_name(r, c->link, name, sizeof name);
    printf("%-9s %s %s", label, c->kind <= 4u ? kind_names[c->kind] : "?", name);
    print_prim(c->prim);
    printf(" - ");
    print_other(r, w, c);
    print_prim(c->other_prim);
    printf(" at %.6g %.6g %.6g\n", (double)c->point.x, (double)c->point.y, (double)c->point.z);
}

/* Poses the robot at --q (printing it). */
static int pose_robot(const robot_opts *o, const copse_robot *r, copse_pose **poses)
{
    float *q = (float *)calloc(copse_robot_dof(r) + 1u, sizeof *q);
    copse_status st;
    int rc;
    *poses = (copse_pose *)calloc(r->link_count + 1u, sizeof **poses);
    if (q == NULL || *poses == NULL)
        rc = tool_fail("out of memory");
    else if ((rc = parse_q(o, r, q)) == 0 && (st = copse_robot_fk(r, q, NULL, *poses)) != COPSE_OK)
        rc = tool_fail("%s: forward kinematics: %s", o->input, copse_status_str(st));
    free(q);
    if (rc != 0) {
        free(*poses);
        *poses = NULL;
    }
    return rc;
}

static int cmd_check(const robot_opts *o, robot_loaded *r, world_store *w)
{
    const copse_robot *rb = &r->robot;
    copse_pose *poses;
    copse_robot_contact first, *contacts = NULL;
    copse_link_distance *dist = NULL;
    uint32_t count = 0, i;
    bool truncated = false;
    copse_status st;
    int rc = 1;
    char name[COPSE_ROBOT_NAME_MAX + 1u];
    float maxd = o->max_distance > 0.0f ? o->max_distance : FLT_MAX;
    if ((rc = pose_robot(o, rb, &poses)) != 0)
        return rc;
    rc = 1;
    contacts = (copse_robot_contact *)calloc(CONTACTS_MAX, sizeof *contacts);
    dist = (copse_link_distance *)calloc(rb->link_count + 1u, sizeof *dist);
    if (contacts == NULL || dist == NULL) {
        tool_fail("out of memory");
        goto done;
    }
    printf("robot     %s: %u links, %u variables\n", o->input, (unsigned)rb->link_count, (unsigned)copse_robot_dof(rb));
    printf("world     %u meshes; scan %u points (padding %g)\n", w->count, (unsigned)w->scan.count,
           (double)o->scan_padding);
    if ((st = copse_robot_collides(rb, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, &first)) != COPSE_OK) {
        tool_fail("%s: collides: %s", o->input, copse_status_str(st));
        goto done;
    }
    printf("collision: %s\n", first.kind != COPSE_CONTACT_NONE ? "yes" : "no");
    if (first.kind != COPSE_CONTACT_NONE)
        print_contact("first", rb, w, &first);
    if ((st = copse_robot_contacts(rb, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, contacts, CONTACTS_MAX, &count,
                                   &truncated)) != COPSE_OK) {
        tool_fail("%s: contacts: %s", o->input, copse_status_str(st));
        goto done;
    }
    printf("contacts  %u%s\n", (unsigned)count, truncated ? " (truncated)" : "");
    for (i = 0; i < count; i++)
        print_contact("contact", rb, w, &contacts[i]);
    if ((st = copse_robot_distances(rb, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, maxd, dist)) != COPSE_OK) {
        tool_fail("%s: distances: %s", o->input, copse_status_str(st));
        goto done;
    }
    for (i = 0; i < rb->link_count; i++) {
        const copse_link_distance *d = &dist[i];
        copse_robot_link_name(rb, i, name, sizeof name);
        printf("distance  %-26s world ", name);
        if (d->world == FLT_MAX)
            printf("-");
        else {
            printf("%.6g (", (double)d->world);
            print_other(rb, w, &d->world_nearest);
            printf(")");
        }
        printf("  self ");
        if (d->self == FLT_MAX)
            printf("-\n");
        else {
            copse_robot_link_name(rb, d->self_nearest.other, name, sizeof name);
            printf("%.6g (%s)\n", (double)d->self, name);
        }
    }
    rc = 0;
done:
    free(poses);
    free(contacts);
    free(dist);
    return rc;
}

/* ---- svg --------------------------------------------------------------------------------------------- */

/* Posed triangle t of a mesh, projected on the drawn axes. */
static void projected(const copse_mesh *m, uint32_t t, const copse_pose *pose, const unsigned *ax, float *xy)
{
    const uint32_t *idx = (const uint32_t *)m->indices;
    unsigned k;
    for (k = 0; k < 3u; k++) {
        uint32_t v = idx[3u * t + k];
        copse_vec3 p = copse_pose_apply(pose, copse_v3(m->positions[3u * v], m->positions[3u * v + 1u],
                                                       m->positions[3u * v + 2u]));
        float c[3];
        c[0] = p.x, c[1] = p.y, c[2] = p.z;
        xy[2u * k] = c[ax[0]];
        xy[2u * k + 1u] = c[ax[1]];
    }
}

static void grow_window(float *lo, float *hi, const float *xy, unsigned n)
{
    unsigned k;
    for (k = 0; k < n; k++) {
        unsigned a = k & 1u;
        lo[a] = xy[k] < lo[a] ? xy[k] : lo[a];
        hi[a] = xy[k] > hi[a] ? xy[k] : hi[a];
    }
}

/* Every link triangle (pass 0: window; pass 1: drawn, the links in contact in red). */
static void robot_triangles(svg_canvas *c, const copse_robot *r, const copse_pose *poses, const unsigned *ax,
                            const uint8_t *hit, int draw, float *lo, float *hi)
{
    uint32_t i, t;
    for (i = 0; i < r->link_count; i++) {
        copse_bvh tree;
        if (copse_robot_link_tree(r, i, &tree) != COPSE_OK || tree.mesh.triangle_count == 0)
            continue;
        if (draw)
            fprintf(c->f, "<g fill=\"%s\" stroke=\"%s\">\n", hit[i] ? "#e04040" : "#5080d0", hit[i] ? "#a00000" : "#204080");
        for (t = 0; t < tree.mesh.triangle_count; t++) {
            float xy[6];
            projected(&tree.mesh, t, &poses[i], ax, xy);
            if (draw)
                svg_polygon(c, xy, 3);
            else
                grow_window(lo, hi, xy, 6);
        }
        if (draw)
            fprintf(c->f, "</g>\n");
    }
}

static int cmd_svg(const robot_opts *o, robot_loaded *r, world_store *w)
{
    const copse_robot *rb = &r->robot;
    copse_pose *poses;
    copse_robot_contact *contacts;
    uint32_t count = 0, i, t, step = 1, points = 0, polygons = 0;
    uint8_t *hit;
    bool truncated;
    unsigned ax[2];
    float lo[2] = {FLT_MAX, FLT_MAX}, hi[2] = {-FLT_MAX, -FLT_MAX};
    svg_canvas c;
    char title[600], legend[300];
    tool_opts topts;
    int rc;
    memset(&topts, 0, sizeof topts);
    topts.plane = o->plane != NULL ? o->plane : "xz";
    topts.output = o->output;
    if ((rc = tool_svg_target(&topts)) != 0 || (rc = tool_plane_axes(&topts, ax)) != 0)
        return rc;
    if ((rc = pose_robot(o, rb, &poses)) != 0)
        return rc;
    rc = 1;
    contacts = (copse_robot_contact *)calloc(CONTACTS_MAX, sizeof *contacts);
    hit = (uint8_t *)calloc(rb->link_count + 1u, 1u);
    if (contacts == NULL || hit == NULL) {
        tool_fail("out of memory");
        goto done;
    }
    if (copse_robot_contacts(rb, &w->world, poses, COPSE_ROBOT_CHECK_DEFAULT, contacts, CONTACTS_MAX, &count,
                             &truncated) != COPSE_OK)
        count = 0;
    for (i = 0; i < count; i++) {
        hit[contacts[i].link] = 1;
        if (contacts[i].kind == COPSE_CONTACT_SELF && contacts[i].other < rb->link_count)
            hit[contacts[i].other] = 1;
    }
    /* the window: the posed robot, and the world around it (all of it) */
    robot_triangles(&c, rb, poses, ax, hit, 0, lo, hi);
    for (i = 0; i < w->count; i++) {
        copse_mesh m = host_mesh_view(&w->meshes[i]);
        for (t = 0; t < m.triangle_count; t++) {
            float xy[6];
            projected(&m, t, &w->placed[i].pose, ax, xy);
            grow_window(lo, hi, xy, 6);
        }
    }
    if (lo[0] > hi[0])
        lo[0] = lo[1] = -1.0f, hi[0] = hi[1] = 1.0f;
    snprintf(title, sizeof title, "copse robot: %s", o->input);
    if (svg_begin(&c, o->output, lo, hi, title, 0) != 0)
        goto done;
    for (i = 0; i < w->count; i++) { /* the world in the canvas's grey */
        copse_mesh m = host_mesh_view(&w->meshes[i]);
        for (t = 0; t < m.triangle_count; t++) {
            float xy[6];
            projected(&m, t, &w->placed[i].pose, ax, xy);
            svg_polygon(&c, xy, 3);
            polygons++;
        }
    }
    step = (w->scan.count + SVG_MAX_SCAN_POINTS - 1u) / SVG_MAX_SCAN_POINTS;
    for (i = 0; i < w->scan.count; i += step > 0 ? step : 1u) {
        const float *p = w->scan.xyz + 3u * i;
        float xy[2];
        xy[0] = p[ax[0]], xy[1] = p[ax[1]];
        if (xy[0] >= c.lo[0] && xy[0] <= c.hi[0] && xy[1] >= c.lo[1] && xy[1] <= c.hi[1]) {
            svg_point(&c, xy[0], xy[1]);
            points++;
        }
    }
    robot_triangles(&c, rb, poses, ax, hit, 1, lo, hi);
    for (i = 0; i < rb->link_count; i++) {
        copse_bvh tree;
        if (copse_robot_link_tree(rb, i, &tree) == COPSE_OK)
            polygons += tree.mesh.triangle_count;
    }
    fprintf(c.f, "<g fill=\"#ff0000\" stroke=\"none\">\n");
    for (i = 0; i < count; i++) {
        float p[3];
        p[0] = contacts[i].point.x, p[1] = contacts[i].point.y, p[2] = contacts[i].point.z;
        fprintf(c.f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n", ((double)p[ax[0]] - (double)c.lo[0]) * c.scale,
                ((double)c.hi[1] - (double)p[ax[1]]) * c.scale);
    }
    fprintf(c.f, "</g>\n");
    snprintf(legend, sizeof legend, "%s at q; plane %s; %u triangles, %u scan points drawn; %u contacts (red)",
             o->input, topts.plane, (unsigned)polygons, (unsigned)points, (unsigned)count);
    c.unit = "m"; /* URDF lengths */
    rc = svg_end(&c, legend);
    if (rc == 0 && !o->quiet)
        printf("svg       %s: %u polygons, %u circles (%u scan points, %u contacts)\n", o->output, (unsigned)polygons,
               (unsigned)(points + count), (unsigned)points, (unsigned)count);
done:
    free(poses);
    free(contacts);
    free(hit);
    return rc;
}

/* ---- dispatch ------------------------------------------------------------------------------------------ */

int robot_main(int argc, char **argv)
{
    robot_opts o;
    robot_loaded r;
    world_store *w = NULL;
    char prefix[EMIT_PREFIX_MAX + 1u];
    int rc, i, urdf;
    memset(&o, 0, sizeof o);
    if (argc < 3)
        return usage(stderr, TOOL_USAGE);
    for (i = 2; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 || (i == 2 && strcmp(argv[i], "help") == 0))
            return usage(stdout, TOOL_OK);
    o.command = argv[2];
    if (strcmp(o.command, "bake") != 0 && strcmp(o.command, "info") != 0 && strcmp(o.command, "check") != 0 &&
        strcmp(o.command, "svg") != 0) {
        tool_usage("unknown robot command '%s'", o.command);
        return usage(stderr, TOOL_USAGE);
    }
    if ((rc = parse(argc, argv, &o)) != 0)
        return rc;
    urdf = host_path_has_suffix(o.input, ".urdf") || host_path_has_suffix(o.input, ".xml");
    if (strcmp(o.command, "bake") == 0 &&
        (o.output == NULL || !(host_path_has_suffix(o.output, ".c") || host_path_has_suffix(o.output, ".bin"))))
        return tool_usage("robot bake needs -o FILE.bin or -o FILE.c");
    if (strcmp(o.command, "bake") == 0 && !urdf)
        return tool_usage("%s: robot bake reads a URDF (.urdf)", o.input);
    if (strcmp(o.command, "bake") == 0 && host_path_has_suffix(o.output, ".c")) { /* the C names' prefix */
        if ((rc = emit_prefix(o.output, o.name, prefix, sizeof prefix)) != 0)
            return rc;
        o.name = prefix;
    }
    if (strcmp(o.command, "svg") == 0 && (o.output == NULL || !host_path_has_suffix(o.output, ".svg")))
        return tool_usage("robot svg needs -o FILE.svg");
    if (!urdf && (o.srdf != NULL || o.allow_count > 0 || o.spheres > 0 || o.padding > 0.0f || o.never > 0 || o.capsule))
        return tool_usage("%s: a baked robot is read-only: --srdf, --allow, --never, --spheres, --capsule and --padding are bake "
                          "options (give the URDF)",
                          o.input);
    if ((rc = robot_open(&o, &r)) != 0) {
        robot_close(&r);
        return rc;
    }
    if (o.command[0] == 'b') {
        rc = cmd_bake(&o, &r);
    } else if (o.command[0] == 'i') {
        rc = cmd_info(&o, &r);
    } else {
        if ((w = (world_store *)calloc(1, sizeof *w)) == NULL)
            rc = tool_fail("out of memory");
        else if ((rc = world_load(&o, w)) == 0)
            rc = o.command[0] == 'c' ? cmd_check(&o, &r, w) : cmd_svg(&o, &r, w);
        if (w != NULL)
            world_free(w);
        free(w);
    }
    robot_close(&r);
    return rc;
}

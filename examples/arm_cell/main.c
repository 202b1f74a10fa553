/* SPDX-License-Identifier: MIT */
/*
 * copse demo: a 6-joint arm sweeping through a cluttered cell. No data file: cell.c makes it all.
 *
 *   1. build   the arm (links as prisms and boxes, each in a bounding sphere or capsule; a
 *              two-finger gripper on a prismatic joint and its mimic) with copse_robot_build,
 *              in the RAM the port leaves free; the cell's meshes (a table, pillars, a shelf)
 *              into BVHs, a scanned fence into a point octree, three moving objects;
 *   2. sweep   a joint-space trajectory through waypoints: at every configuration forward
 *              kinematics, in collision or not (with and without the sphere/capsule pre-test),
 *              every contact, and each link's distance to the world and to the other links;
 *   3. reach   straight from home to each waypoint as one motion: discrete (OMPL's rule), and
 *              certified against the world by conservative advancement: where does it touch?
 *   4. cost    instructions per call under QEMU -icount, stack per call on a board ('#' lines;
 *              nanoseconds on a PC).
 *
 * `make demo` runs this on mps2-an386 (Cortex-M4F) under QEMU and on the host and checks that
 * every answer line is identical: the hex after "bits" hashes every float of the answers (link
 * poses, distances, contact points), so the same bytes, not just the same rounded digits.
 * DEMO_SMALL=1 (the micro:bit: 16 KB of RAM, 4 KB of stack) is an arm of capsules in a smaller
 * cell, the first four legs of the trajectory.
 */
#include <float.h>
#include <string.h>

#include "cell.h"
#include "port.h"
#if !defined(COPSE_HOST) /* a board: the stack is painted and measured (port.h) */
#define DEMO_STACK_REPORT 1
#endif

/* Stack per kind of call, on a board: paint before it, read the deepest word touched after. */
enum { S_BUILD, S_FK, S_COLLIDES, S_CONTACTS, S_DISTANCES, S_MOTION, S_CERTIFIED, S_KINDS };
#ifdef DEMO_STACK_REPORT
static size_t g_stack[S_KINDS];
#define STACK_START() copse_port_stack_paint()
#define STACK_END(kind)                                   \
    do {                                                  \
        size_t used_ = copse_port_stack_used();           \
        g_stack[kind] = used_ > g_stack[kind] ? used_ : g_stack[kind]; \
    } while (0)
#else
#define STACK_START() ((void)0)
#define STACK_END(kind) ((void)0)
#endif

/* ---- knobs ------------------------------------------------------------------------------------ */
#define LEAF (DEMO_SMALL ? 8u : 4u) /* the cell's trees and the links' */
#define PER_LEG (DEMO_SMALL ? 2 : 4) /* configurations per leg between waypoints */
#define NEAR 0.30f                   /* distances sought up to this far (m) */
#define MAX_STEP 0.05f               /* discrete motion: checks at most this far apart (rad, m) */
#define CLEARANCE 0.01f             /* certified motion: closer than this counts as contact */
#define MAX_CHECKS 1000u
/* The certified motion checks the links against the world. Under SELF as well, pairs that stay a
 * few centimetres apart (the forearm and the flange across the wrist) bound every step, with the
 * whole arm's motion, to a few millimetres: 200 to 400 checks a motion instead of under 50, too
 * slow for this demo under QEMU. The discrete check covers self-collisions here. */
#define CERT_FLAGS COPSE_ROBOT_WORLD

/* Waypoints in joint space: pan, lift, elbow, wrist_pitch, wrist_roll, hand_pitch, opening. */
static const float g_waypoints[][ARM_DOF] = {
    { 0.00f, -0.20f, 1.40f, 0.80f, 0.00f, 0.00f, 0.020f },   /* home, folded up */
    { -0.45f, 0.45f, 1.05f, 1.60f, 0.00f, 0.00f, 0.050f },   /* above the tote, the gripper open */
    { -0.31f, 0.63f, 0.99f, 1.52f, 0.00f, 0.00f, 0.050f },   /* down round the tote */
    { 2.53f, 0.28f, 1.65f, -1.63f, 0.00f, 0.00f, 0.020f },    /* swung round, into the ball */
    { 2.20f, 1.30f, 0.20f, 0.00f, 0.00f, 0.00f, 0.030f },    /* stretched out to a pillar */
    { 2.90f, 0.53f, 1.42f, -0.38f, 0.00f, 0.00f, 0.030f },   /* into the shelf, between two boards */
    { 1.00f, -0.30f, 2.60f, 2.20f, 0.50f, 1.80f, 0.000f },   /* folded onto itself */
    { 1.57f, 1.10f, 0.40f, 0.30f, 0.00f, 0.00f, 0.050f },    /* towards the fence */
    { -1.49f, 1.06f, 1.48f, 0.60f, 0.00f, 0.00f, 0.040f },   /* down to the crate */
    { 0.00f, -0.20f, 1.40f, 0.80f, 0.00f, 0.00f, 0.020f },   /* home */
};
#define WAYPOINTS ((int)(sizeof g_waypoints / sizeof g_waypoints[0]))
#if DEMO_SMALL
#define LEGS 4 /* the first four legs */
#else
#define LEGS (WAYPOINTS - 1)
#endif
#define CONFIGS (LEGS * PER_LEG + 1)
#define REACHES (LEGS < WAYPOINTS - 2 ? LEGS : WAYPOINTS - 2) /* the last waypoint is home again */

/* ---- memory ---------------------------------------------------------------------------------------
 * One arena over the RAM the port leaves free (on a board: between .bss and the stack), carved
 * front to back: the robot (copse_robot_build_bytes, exact), then the cell (its vertex and index
 * arrays, its trees, the scan). The arm's description is needed only while copse_robot_build
 * copies it, so it sits at the far end of the same RAM and the cell's arrays overwrite it later. */
typedef struct arm_description {
    arm_storage s;
    float pos[3 * ARM_VERTS + 1]; /* + 1: the small arm has no mesh at all */
    uint16_t idx[3 * ARM_TRIS + 1];
} arm_description;

static copse_robot g_arm;
static copse_bvh g_trees[WORLD_TREES];
static copse_world_mesh g_meshes[WORLD_MESHES];
static copse_world_object g_objects[WORLD_OBJECTS];
static copse_world g_world;
#if SCAN_POINTS > 0
static copse_octree g_scan;
#endif
static copse_pose g_base;
static copse_pose g_poses[ARM_LINKS];
static copse_link_distance g_dist[ARM_LINKS];
#define MAX_CONTACTS 16u
static copse_robot_contact g_contacts[MAX_CONTACTS];
static char g_link_name[ARM_LINKS][16];

/* ---- cost: instructions under QEMU -icount, ns on the host ------------------------------------ */
static uint64_t g_cost_zero;

static uint64_t cost_since(uint64_t start)
{
    uint64_t d = copse_port_counter() - start;
    return d > g_cost_zero ? d - g_cost_zero : 0u;
}

static void cost_calibrate(void)
{
    uint64_t start = copse_port_counter();
    g_cost_zero = 0;
    g_cost_zero = cost_since(start);
}

static struct {
    uint64_t fk, collides, no_shapes, contacts, distances, motion, certified;
} g_total;

/* ---- the bytes of the answers: FNV-1a over every word ------------------------------------------ */
static uint32_t hash_word(uint32_t h, uint32_t w)
{
    int i;
    for (i = 0; i < 4; i++) {
        h ^= (w >> (8 * i)) & 0xFFu;
        h *= 16777619u;
    }
    return h;
}

static uint32_t hash_float(uint32_t h, float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return hash_word(h, w);
}

static uint32_t hash_vec(uint32_t h, copse_vec3 v)
{
    return hash_float(hash_float(hash_float(h, v.x), v.y), v.z);
}

static uint32_t hash_contact(uint32_t h, const copse_robot_contact *c)
{
    h = hash_word(h, c->kind);
    if (c->kind == COPSE_CONTACT_NONE)
        return h;
    h = hash_word(hash_word(hash_word(hash_word(h, c->link), c->other), c->prim), c->other_prim);
    return hash_vec(h, c->point);
}

/* ---- naming what touched ----------------------------------------------------------------------- */
static const char *kind_name(uint32_t kind)
{
    static const char *const names[] = { "none", "self", "mesh", "scan", "object" };
    return kind < 5u ? names[kind] : "?";
}

static void contact_text(char *buf, size_t cap, const copse_robot_contact *c)
{
    const char *other = "?";
    if (c->kind == COPSE_CONTACT_NONE) {
        copse_port_snprintf(buf, cap, "clear");
        return;
    }
    if (c->kind == COPSE_CONTACT_SELF && c->other < ARM_LINKS)
        other = g_link_name[c->other];
    else if (c->kind == COPSE_CONTACT_MESH)
        other = cell_mesh_name(c->other);
    else if (c->kind == COPSE_CONTACT_SCAN)
        other = "fence";
    else if (c->kind == COPSE_CONTACT_OBJECT)
        other = cell_object_name(c->other);
    copse_port_snprintf(buf, cap, "%s %s~%s", kind_name(c->kind), c->link < ARM_LINKS ? g_link_name[c->link] : "?",
                        other);
}

/* ---- 1. build ---------------------------------------------------------------------------------- */
static void *take(copse_arena *arena, size_t bytes, const char *what)
{
    void *p = copse_arena_alloc(arena, bytes);
    if (p == NULL)
        copse_port_printf("FAILED: no room for %s (%lu B more needed)\n", what,
                          (unsigned long)(arena->needed - arena->used));
    return p;
}

static int build_arm(copse_arena *arena, uint8_t *ram, size_t ram_size)
{
    arm_description *arm;
    copse_robot_desc desc;
    size_t need, top;
    uint32_t i, tris = 0;
    copse_status st;
    uint64_t t;

    if (ram_size < sizeof *arm + 64u) {
        copse_port_printf("FAILED: %lu B of free RAM\n", (unsigned long)ram_size);
        return 1;
    }
    top = (ram_size - sizeof *arm) & ~(size_t)7u; /* the description at the far end, 8-aligned */
    arm = (arm_description *)(void *)(ram + top);
    arm_describe(&arm->s, arm->pos, arm->idx, &desc);
    desc.tree_params.leaf_size = LEAF;
    for (i = 0; i < ARM_LINKS; i++)
        tris += arm->s.links[i].mesh != NULL ? arm->s.meshes[i].triangle_count : 0u;
    need = copse_robot_build_bytes(&desc);
    if (need == SIZE_MAX || need > top) {
        copse_port_printf("FAILED: the arm needs %lu B of arena, %lu B free\n", (unsigned long)need,
                          (unsigned long)top);
        return 1;
    }
    copse_arena_init(arena, ram, top);
    STACK_START();
    t = copse_port_counter();
    st = copse_robot_build(&g_arm, arena, &desc);
    t = cost_since(t);
    STACK_END(S_BUILD);
    if (st != COPSE_OK) {
        copse_port_printf("FAILED: copse_robot_build: %s\n", copse_status_str(st));
        return 1;
    }
    for (i = 0; i < ARM_LINKS; i++)
        (void)copse_robot_link_name(&g_arm, i, g_link_name[i], sizeof g_link_name[i]);
    copse_port_printf("arm     %lu links, %lu joints, %lu variables; the gripper's fingers on a prismatic joint\n"
                      "        and its mimic\n",
                      (unsigned long)g_arm.link_count, (unsigned long)g_arm.joint_count,
                      (unsigned long)copse_robot_dof(&g_arm));
#if ARM_MESHES
    copse_port_printf("        links: %lu triangles (%d-sided prisms and boxes), each in a bounding sphere or\n"
                      "        capsule\n",
                      (unsigned long)tris, PRISM_SIDES);
#else
    copse_port_printf("        links: a capsule each, no meshes (the small arm: a mesh against a mesh takes more\n"
                      "        stack than the micro:bit has)\n");
    (void)tris;
#endif
    copse_port_printf("memory  the robot: %lu B (copse_robot_build_bytes %lu B with its trees' build scratch);\n"
                      "        its description was scratch at the far end of free RAM\n",
                      (unsigned long)arena->used, (unsigned long)need);
    copse_port_printf("# the description: %lu B (pointers: their size differs between machines)\n",
                      (unsigned long)sizeof *arm);
    copse_port_printf("# arm build: %llu %s\n", (unsigned long long)t, copse_port_counter_unit());
    return 0;
}

static int build_cell(copse_arena *arena)
{
    copse_mesh meshes[WORLD_TREES];
    copse_pose poses[WORLD_MESHES];
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    float *pos = (float *)take(arena, sizeof(float) * 3u * WORLD_VERTS, "the cell's vertices");
    uint16_t *idx = (uint16_t *)take(arena, sizeof(uint16_t) * 3u * WORLD_TRIS, "the cell's triangles");
    uint32_t tree_of[WORLD_MESHES], i, tris = 0;
    size_t start = arena->used;
    copse_status st;

    if (pos == NULL || idx == NULL)
        return 1;
    cell_meshes(pos, idx, meshes);
    params.leaf_size = LEAF;
    for (i = 0; i < WORLD_TREES; i++) {
        if ((st = copse_bvh_build_mesh(&g_trees[i], arena, &meshes[i], &params)) != COPSE_OK) {
            copse_port_printf("FAILED: the cell's tree %lu: %s\n", (unsigned long)i, copse_status_str(st));
            return 1;
        }
        tris += meshes[i].triangle_count;
    }
    cell_placements(poses, tree_of);
    for (i = 0; i < WORLD_MESHES; i++) {
        g_meshes[i].tree = &g_trees[tree_of[i]];
        g_meshes[i].pose = poses[i];
    }
    copse_port_printf("cell    %d meshes from %d trees (%lu triangles, %lu B of mesh, trees %lu B), %d moving "
                      "objects",
                      WORLD_MESHES, WORLD_TREES, (unsigned long)tris,
                      (unsigned long)(sizeof(float) * 3u * WORLD_VERTS + sizeof(uint16_t) * 3u * WORLD_TRIS),
                      (unsigned long)(arena->used - start), WORLD_OBJECTS);
    g_world.meshes = g_meshes;
    g_world.mesh_count = WORLD_MESHES;
    g_world.scan = NULL;
    g_world.scan_padding = 0.0f;
    g_world.objects = g_objects;
    g_world.object_count = WORLD_OBJECTS;
    g_world.object_tree = NULL; /* three objects: test them all */
#if SCAN_POINTS > 0
    {
        copse_vec3 *points = (copse_vec3 *)take(arena, sizeof(copse_vec3) * SCAN_POINTS, "the scan");
        copse_octree_config cfg;
        if (points == NULL)
            return 1;
        cell_scan(points);
        cfg.points = points;
        cfg.ids = NULL;
        cfg.point_capacity = SCAN_POINTS;
        cfg.bounds = copse_box3_make(-1.0f, 0.0f, 0.0f, 1.0f, 2.0f, 2.0f);
        cfg.max_nodes = SCAN_POINTS / 2; /* enough for this fence; a quarter is too few (NOMEM) */
        cfg.max_buckets = SCAN_POINTS / 2;
        cfg.leaf_size = 8;
        cfg.bucket_size = 8;
        cfg.max_depth = 8;
        start = arena->used;
        /* the pools from the arena, the build's scratch after them (given back) */
        if ((st = copse_octree_init(&g_scan, arena, &cfg)) != COPSE_OK ||
            (st = copse_octree_build(&g_scan, arena, SCAN_POINTS)) != COPSE_OK) {
            copse_port_printf("\nFAILED: the scan's octree: %s\n", copse_status_str(st));
            return 1;
        }
        g_world.scan = &g_scan;
        g_world.scan_padding = 0.01f;
        copse_port_printf(",\n        a scanned fence of %d points (octree %lu B)", SCAN_POINTS,
                          (unsigned long)(arena->used - start));
    }
#endif
    copse_port_printf("\n");
    return 0;
}

static int build(void)
{
    size_t size;
    uint8_t *ram = (uint8_t *)copse_port_scratch(&size);
    copse_arena arena;

    if (build_arm(&arena, ram, size) != 0)
        return 1;
    /* the rest of free RAM, from where the robot ends: the description is dead now */
    copse_arena_init(&arena, ram + arena.used, size - arena.used);
    if (build_cell(&arena) != 0)
        return 1;
    copse_port_printf("memory  the cell: %lu B after the robot; the builds' peak %lu B\n", (unsigned long)arena.used,
                      (unsigned long)arena.high_water);
    g_base = copse_pose_identity(); /* the pedestal stands at the origin */
    return 0;
}

/* ---- 2. sweep ---------------------------------------------------------------------------------- */
static void waypoint_lerp(int leg, int step, int steps, float *q)
{
    float f = (float)step / (float)steps;
    int k;
    for (k = 0; k < ARM_DOF; k++)
        q[k] = g_waypoints[leg][k] + f * (g_waypoints[leg + 1][k] - g_waypoints[leg][k]);
}

static float min_of(float a, float b)
{
    return a < b ? a : b;
}

static void print_distance(const char *label, float d)
{
    if (d == FLT_MAX)
        copse_port_printf(" %s    -  ", label);
    else
        copse_port_printf(" %s %.4f", label, (double)d);
}

/* One configuration: returns how many of its answers disagree with each other. */
static int check_config(int c, const float *q, int *hits)
{
    copse_robot_contact first, first_ns;
    uint32_t count = 0, i, h = 2166136261u;
    bool truncated = false;
    float closest = FLT_MAX, self = FLT_MAX;
    char text[48];
    uint64_t t, fk, col, ns, con, dis;
    copse_status st;
    int bad = 0;

    STACK_START();
    t = copse_port_counter();
    st = copse_robot_fk(&g_arm, q, &g_base, g_poses);
    fk = cost_since(t);
    STACK_END(S_FK);
    if (st != COPSE_OK) {
        copse_port_printf("cfg %2d FAILED: copse_robot_fk: %s\n", c, copse_status_str(st));
        return 1;
    }
    STACK_START();
    t = copse_port_counter();
    st = copse_robot_collides(&g_arm, &g_world, g_poses, COPSE_ROBOT_CHECK_DEFAULT, &first);
    col = cost_since(t);
    STACK_END(S_COLLIDES);
    STACK_START();
    t = copse_port_counter();
    if (st == COPSE_OK)
        st = copse_robot_collides(&g_arm, &g_world, g_poses, COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES,
                                  &first_ns);
    ns = cost_since(t);
    STACK_END(S_COLLIDES);
    STACK_START();
    t = copse_port_counter();
    if (st == COPSE_OK)
        st = copse_robot_contacts(&g_arm, &g_world, g_poses, COPSE_ROBOT_CHECK_DEFAULT, g_contacts, MAX_CONTACTS,
                                  &count, &truncated);
    con = cost_since(t);
    STACK_END(S_CONTACTS);
    STACK_START();
    t = copse_port_counter();
    if (st == COPSE_OK)
        st = copse_robot_distances(&g_arm, &g_world, g_poses, COPSE_ROBOT_CHECK_DEFAULT, NEAR, g_dist);
    dis = cost_since(t);
    STACK_END(S_DISTANCES);
    if (st != COPSE_OK) {
        copse_port_printf("cfg %2d FAILED: %s\n", c, copse_status_str(st));
        return 1;
    }

    for (i = 0; i < ARM_LINKS; i++) {
        const copse_pose *p = &g_poses[i];
        int r, k;
        for (r = 0; r < 3; r++)
            for (k = 0; k < 3; k++)
                h = hash_float(h, p->rotation[r][k]);
        h = hash_vec(h, p->translation);
    }
    h = hash_contact(h, &first);
    for (i = 0; i < count; i++)
        h = hash_contact(h, &g_contacts[i]);
    for (i = 0; i < ARM_LINKS; i++) {
        const copse_link_distance *d = &g_dist[i];
        h = hash_float(h, d->world);
        if (d->world != FLT_MAX)
            h = hash_vec(hash_vec(hash_contact(h, &d->world_nearest), d->world_nearest.point), d->world_point);
        h = hash_float(h, d->self);
        if (d->self != FLT_MAX)
            h = hash_vec(hash_vec(hash_contact(h, &d->self_nearest), d->self_nearest.point), d->self_point);
        self = min_of(self, d->self);
        closest = min_of(closest, min_of(d->world, d->self));
    }

    contact_text(text, sizeof text, &first);
    copse_port_printf("cfg %2d %-28s %2lu%s", c, text, (unsigned long)count, truncated ? "+" : " ");
    print_distance("up", g_dist[L_UPPER].world);
    print_distance("fore", g_dist[L_FOREARM].world);
    print_distance("hand", g_dist[L_HAND].world);
    print_distance("grip", min_of(g_dist[L_FINGER_L].world, g_dist[L_FINGER_R].world));
    print_distance("self", self);
    copse_port_printf("  bits %08lx\n", (unsigned long)h);
    copse_port_printf("#   cfg %2d: fk %llu, collides %llu (without the shape pre-test %llu), contacts %llu, "
                      "distances %llu %s\n",
                      c, (unsigned long long)fk, (unsigned long long)col, (unsigned long long)ns,
                      (unsigned long long)con, (unsigned long long)dis, copse_port_counter_unit());
    g_total.fk += fk;
    g_total.collides += col;
    g_total.no_shapes += ns;
    g_total.contacts += con;
    g_total.distances += dis;

    /* one truth, four ways: the first contact, the pre-test's shortcut, the list, the distances */
    if ((first.kind != COPSE_CONTACT_NONE) != (first_ns.kind != COPSE_CONTACT_NONE))
        bad++;
    if ((first.kind != COPSE_CONTACT_NONE) != (count > 0u))
        bad++;
    if ((first.kind != COPSE_CONTACT_NONE) != (closest <= 0.0f))
        bad++;
    if (bad)
        copse_port_printf("cfg %2d DISAGREE: collides %d, without shapes %d, %lu contacts, closest %.6f\n", c,
                          first.kind != COPSE_CONTACT_NONE, first_ns.kind != COPSE_CONTACT_NONE,
                          (unsigned long)count, (double)closest);
    *hits += first.kind != COPSE_CONTACT_NONE;
    return bad;
}

static int sweep(void)
{
    float q[ARM_DOF];
    int leg, step, c = 0, hits = 0, bad = 0;

    copse_port_printf("\nsweep   %d configurations, %d legs between waypoints; distances to the world up to %.2f m\n",
                      CONFIGS, LEGS, (double)NEAR);
    copse_port_printf("        (first contact, contacts, per link: upper arm, forearm, hand, gripper; self: the\n"
                      "        closest pair of all; bits: a hash of every float of the answers)\n");
    for (leg = 0; leg < LEGS; leg++)
        for (step = 0; step < PER_LEG || (leg == LEGS - 1 && step == PER_LEG); step++, c++) {
            waypoint_lerp(leg, step, PER_LEG, q);
            cell_objects(((float)leg + (float)step / (float)PER_LEG) / (float)(WAYPOINTS - 1), g_objects);
            bad += check_config(c, q, &hits);
        }
    copse_port_printf("sweep   %d of %d configurations in collision; %s\n", hits, CONFIGS,
                      bad == 0 ? "first contact, contact list and distances agree at every one" : "answers DISAGREE");
    return bad;
}

/* ---- 3. reach ---------------------------------------------------------------------------------- */
static int reaches(void)
{
    int w, bad = 0;

    copse_port_printf("\nreach   straight from home to each waypoint (the objects where they are then): discrete,\n"
                      "        steps of %.2f; certified against the %s, clearance %.3f m. The fraction where\n"
                      "        it first touches, 1: clear\n",
                      (double)MAX_STEP, (CERT_FLAGS & COPSE_ROBOT_SELF) != 0u ? "world and itself" : "world",
                      (double)CLEARANCE);
    for (w = 1; w <= REACHES; w++) {
        const float *q0 = g_waypoints[0], *q1 = g_waypoints[w];
        copse_robot_contact hit, cert_hit;
        float f = 0.0f, fc = 0.0f;
        char text[48], cert_text[48];
        copse_status st, sc;
        uint64_t t, tm, tc;
        uint32_t h = 2166136261u;
        bool comparable;

        cell_objects((float)w / (float)(WAYPOINTS - 1), g_objects);
        STACK_START();
        t = copse_port_counter();
        st = copse_robot_motion(&g_arm, &g_world, q0, q1, &g_base, g_poses, MAX_STEP, COPSE_ROBOT_CHECK_DEFAULT, &f,
                                &hit);
        tm = cost_since(t);
        STACK_END(S_MOTION);
        STACK_START();
        t = copse_port_counter();
        sc = copse_robot_motion_continuous(&g_arm, &g_world, q0, q1, &g_base, g_poses, CLEARANCE, MAX_CHECKS,
                                           CERT_FLAGS, &fc, &cert_hit);
        tc = cost_since(t);
        STACK_END(S_CERTIFIED);
        if (st != COPSE_OK || (sc != COPSE_OK && sc != COPSE_ERR_LIMIT)) {
            copse_port_printf("reach %d FAILED: %s, %s\n", w, copse_status_str(st), copse_status_str(sc));
            bad++;
            continue;
        }
        h = hash_contact(hash_float(hash_contact(hash_float(h, f), &hit), fc), &cert_hit);
        contact_text(text, sizeof text, &hit);
        contact_text(cert_text, sizeof cert_text, &cert_hit);
        copse_port_printf("reach %d  discrete %.4f %-26s certified %.4f %-26s%s bits %08lx\n", w, (double)f, text,
                          (double)fc, cert_text, sc == COPSE_ERR_LIMIT ? " (limit)" : "", (unsigned long)h);
        copse_port_printf("#   reach %d: discrete %llu, certified %llu %s\n", w, (unsigned long long)tm,
                          (unsigned long long)tc,
                          copse_port_counter_unit());
        g_total.motion += tm;
        g_total.certified += tc;
        /* the certified check stops at or before any collision the discrete one found (that it
         * looks for: CERT_FLAGS) */
        comparable = (CERT_FLAGS & COPSE_ROBOT_SELF) != 0u || hit.kind != COPSE_CONTACT_SELF;
        if (hit.kind != COPSE_CONTACT_NONE && comparable && sc == COPSE_OK && fc > f) {
            copse_port_printf("reach %d DISAGREE: certified %.6f passes the discrete hit at %.6f\n", w, (double)fc,
                              (double)f);
            bad++;
        }
    }
    copse_port_printf("verdict %s\n", bad == 0 ? "every configuration and motion answered, the answers agree"
                                               : "answers DISAGREE");
    return bad;
}

/* ---- 4. cost ----------------------------------------------------------------------------------- */
static void print_costs(void)
{
    const char *unit = copse_port_counter_unit();
    copse_port_printf("# cost in %s (%s), mean per configuration of %d\n", unit,
                      unit[0] == 'i' ? "QEMU -icount: instructions, deterministic" : "wall clock", CONFIGS);
    copse_port_printf("#   fk          %9llu\n", (unsigned long long)(g_total.fk / CONFIGS));
    copse_port_printf("#   collides    %9llu  (%llu without the sphere/capsule pre-test)\n",
                      (unsigned long long)(g_total.collides / CONFIGS),
                      (unsigned long long)(g_total.no_shapes / CONFIGS));
    copse_port_printf("#   contacts    %9llu\n", (unsigned long long)(g_total.contacts / CONFIGS));
    copse_port_printf("#   distances   %9llu\n", (unsigned long long)(g_total.distances / CONFIGS));
    copse_port_printf("#   reach       %9llu discrete, %llu certified, mean per motion of %d\n",
                      (unsigned long long)(g_total.motion / REACHES), (unsigned long long)(g_total.certified / REACHES),
                      REACHES);
#ifdef DEMO_STACK_REPORT
    copse_port_printf("# stack (bytes from the top, main's frames included): build %lu, fk %lu, collides %lu,\n"
                      "#   contacts %lu, distances %lu, motion %lu, certified %lu\n",
                      (unsigned long)g_stack[S_BUILD], (unsigned long)g_stack[S_FK], (unsigned long)g_stack[S_COLLIDES],
                      (unsigned long)g_stack[S_CONTACTS], (unsigned long)g_stack[S_DISTANCES],
                      (unsigned long)g_stack[S_MOTION], (unsigned long)g_stack[S_CERTIFIED]);
#endif
}

int main(int argc, char **argv)
{
    int bad;

    copse_port_init(argc, argv);
    cost_calibrate();
    copse_port_printf("# copse demo: an arm in a cluttered cell, on %s\n", copse_port_name());
    if (build() != 0)
        return 1;
    bad = sweep();
    bad += reaches();
    print_costs();
    return bad == 0 ? 0 : 2;
}

/* SPDX-License-Identifier: MIT */
/*
 * copse demo: a robot in a warehouse.
 *
 *   1. build   a procedural warehouse (scene.c) into a BVH that lives in one static
 *              array, sized at compile time: no malloc, no heap, no surprises;
 *   2. lidar   a 360-degree scan in four rows from the robot's start pose;
 *   3. drive   along a path: at every pose a body-sphere check (overlap_sphere),
 *              the nearest obstacle (nearest) and a horizontal lidar ring;
 *   4. baked   the same scene baked on the host by `copse bake` (mk/demo.mk) into const
 *              arrays in flash, viewed in place: the same nodes, the same answer to every
 *              query above, and no RAM at all (no arena, no scene arrays);
 *   5. cost    instructions per build / ray / check under QEMU -icount
 *              (nanoseconds on a PC).
 *
 * `make demo` runs this on mps2-an386 (Cortex-M4F) under QEMU and on the host and
 * checks that every answer line is identical. Lines starting with '#' are
 * machine-specific (board name, costs) and are not compared.
 */
#include <math.h>
#include <string.h>

#include "copse/copse.h"
#include "port.h"
#include "scene.h"
#include "warehouse_tree.h" /* generated: the baked tree and its mesh as const arrays */
#if !defined(COPSE_HOST) /* a board: the start-up code painted the stack (port.h) */
#define DEMO_STACK_REPORT 1
#endif

/* ---- knobs ------------------------------------------------------------------------------------ */
#define LEAF (DEMO_SMALL ? 8u : 4u) /* bigger leaves: fewer nodes, less RAM on small parts */
#define LIDAR_Y 0.40f               /* sensor height */
#define LIDAR_RANGE 12.0f           /* metres */
#define BODY_Y 0.50f                /* the robot's body is a sphere ... */
#define BODY_R 0.45f                /* ... of this radius */
#define NEAR_RANGE 3.0f             /* nearest-obstacle search radius */
#define POSES 12

/* ---- memory: everything static, sized by the compiler ---------------------------------------- */
static scene g_scene;
/* The BVH over SCENE_TRIS triangles: tree plus the builder's scratch, a safe upper bound. */
static COPSE_ARENA_STORAGE(g_tree_mem, COPSE_BVH_BUILD_BYTES(SCENE_TRIS, LEAF));

/* ---- cost: instructions under QEMU -icount, ns on the host ------------------------------------ */
static uint64_t g_cost_zero; /* what reading the counter itself costs */

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

/* ---- sin/cos of whole degrees, without libm (libm's last digit differs between machines) ---- */
static float g_cos_deg[91]; /* cos(0..90 deg) */

static void trig_init(void)
{
    int d;
    for (d = 0; d <= 45; d++) { /* Taylor series, plenty for |x| <= pi/4 */
        float x = (float)d * (3.14159265f / 180.0f), x2 = x * x;
        float c = 1.0f - x2 / 2.0f * (1.0f - x2 / 12.0f * (1.0f - x2 / 30.0f * (1.0f - x2 / 56.0f)));
        float s = x * (1.0f - x2 / 6.0f * (1.0f - x2 / 20.0f * (1.0f - x2 / 42.0f * (1.0f - x2 / 72.0f))));
        g_cos_deg[d] = c;
        g_cos_deg[90 - d] = s; /* cos(90 - d) = sin(d) */
    }
}

static void sincos_deg(int deg, float *s, float *c)
{
    int d = ((deg % 360) + 360) % 360, r = d % 90;
    float cr = g_cos_deg[r], sr = g_cos_deg[90 - r];
    switch (d / 90) {
    case 0: *c = cr; *s = sr; break;
    case 1: *c = -sr; *s = cr; break;
    case 2: *c = -cr; *s = -sr; break;
    default: *c = sr; *s = -cr; break;
    }
}

/* ---- one lidar beam ----------------------------------------------------------------------------
 * Bearing 0 looks along +x, 90 along +z; elevation is up from horizontal. The BVH holds the
 * obstacles; the floor is the plane y = 0. Returns the range, or -1 for no return. */
enum { HIT_NONE, HIT_OBSTACLE, HIT_FLOOR };

static float lidar_beam(const copse_bvh *bvh, copse_vec3 eye, int bearing, int elevation, int *what)
{
    float sb, cb, se, ce, range = -1.0f;
    copse_ray3 ray;
    copse_hit hit;
    sincos_deg(bearing, &sb, &cb);
    sincos_deg(elevation, &se, &ce);
    ray.origin = eye;
    ray.dir = copse_v3(ce * cb, se, ce * sb); /* unit length: t is metres */
    ray.t_max = LIDAR_RANGE;
    *what = HIT_NONE;
    if (copse_bvh_raycast(bvh, &ray, &hit) == COPSE_OK && hit.id != COPSE_NONE) {
        range = hit.t;
        *what = HIT_OBSTACLE;
    }
    if (ray.dir.y < 0.0f) {
        float t_floor = -eye.y / ray.dir.y;
        if (t_floor <= LIDAR_RANGE && (range < 0.0f || t_floor < range)) {
            range = t_floor;
            *what = HIT_FLOOR;
        }
    }
    return range;
}

/* One 360-ray row: counts, nearest and farthest return, mean range. */
typedef struct scan {
    int returns, floor, nearest_bearing;
    float nearest, farthest, sum;
} scan;

/* every10, when not NULL, receives the ranges at bearings 0, 10, ..., 350 (-1: none). */
static void lidar_row(const copse_bvh *bvh, copse_vec3 eye, int elevation, scan *out, float *every10)
{
    int b, what;
    out->returns = out->floor = 0;
    out->nearest_bearing = -1;
    out->nearest = out->farthest = -1.0f;
    out->sum = 0.0f;
    for (b = 0; b < 360; b++) {
        float r = lidar_beam(bvh, eye, b, elevation, &what);
        if (every10 != NULL && b % 10 == 0)
            every10[b / 10] = r;
        if (what == HIT_NONE)
            continue;
        out->returns++;
        out->floor += what == HIT_FLOOR;
        out->sum += r;
        if (out->nearest < 0.0f || r < out->nearest) {
            out->nearest = r;
            out->nearest_bearing = b;
        }
        if (r > out->farthest)
            out->farthest = r;
    }
}

/* ---- the path ----------------------------------------------------------------------------------- */
#if DEMO_SMALL
static const float g_waypoints[][2] = { { 1.5f, 3.0f }, { 10.5f, 3.0f }, { 10.5f, 6.8f } };
#else
static const float g_waypoints[][2] = { { 1.5f, 6.0f }, { 15.0f, 6.0f }, { 15.0f, 10.0f }, { 22.5f, 10.0f } };
#endif
#define WAYPOINTS ((int)(sizeof g_waypoints / sizeof g_waypoints[0]))

/* POSES points evenly spaced along the polyline (x, z); y is left 0. */
static void path_poses(copse_vec3 *poses)
{
    float len[8], total = 0.0f;
    int i, seg = 0;
    for (i = 0; i + 1 < WAYPOINTS; i++) {
        float dx = g_waypoints[i + 1][0] - g_waypoints[i][0], dz = g_waypoints[i + 1][1] - g_waypoints[i][1];
        len[i] = fabsf(dx) + fabsf(dz); /* the legs are axis-aligned */
        total += len[i];
    }
    for (i = 0; i < POSES; i++) {
        float s = total * (float)i / (float)(POSES - 1), f;
        float start = 0.0f;
        for (seg = 0; seg + 2 < WAYPOINTS && s > start + len[seg]; seg++)
            start += len[seg];
        f = (s - start) / len[seg];
        f = f > 1.0f ? 1.0f : f;
        poses[i] = copse_v3(g_waypoints[seg][0] + f * (g_waypoints[seg + 1][0] - g_waypoints[seg][0]), 0.0f,
                            g_waypoints[seg][1] + f * (g_waypoints[seg + 1][1] - g_waypoints[seg][1]));
    }
}

/* ---- 1. build: the scene, then its BVH in the static arena ------------------------------------- */
static struct {
    uint64_t build, rays, sphere, nearest, flash_rays; /* instructions (QEMU -icount) or ns (host) */
    int nrays;
} g_cost;

static copse_status build_tree(copse_bvh *bvh)
{
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT; /* binned SAH, 3D */
    copse_arena arena;
    copse_bvh_stats stats;
    copse_mesh mesh;
    copse_status st;
    uint64_t t;

    scene_build(&g_scene);
    mesh = scene_mesh(&g_scene);
    params.leaf_size = LEAF;
    copse_arena_init(&arena, g_tree_mem, sizeof g_tree_mem);
    t = copse_port_counter();
    st = copse_bvh_build_mesh(bvh, &arena, &mesh, &params);
    g_cost.build = cost_since(t);
    if (st != COPSE_OK)
        return st;
    if ((st = copse_bvh_check(bvh)) != COPSE_OK || (st = copse_bvh_get_stats(bvh, &stats)) != COPSE_OK)
        return st;
    copse_port_printf("scene   %.0f x %.0f m warehouse: %lu triangles, %lu vertices, 16-bit indices\n",
                      (double)ROOM_X, (double)ROOM_Z, (unsigned long)g_scene.ntris, (unsigned long)g_scene.nverts);
    copse_port_printf("bvh     SAH, leaf %u: %lu nodes, %lu leaves, depth %lu, SAH cost %.2f, check OK\n",
                      LEAF, (unsigned long)stats.nodes, (unsigned long)stats.leaves, (unsigned long)stats.depth,
                      (double)stats.sah_cost);
    /* the arena's high-water mark is the builder's peak; afterwards it ends where the tree ends */
    copse_port_printf("memory  static %lu B (COPSE_BVH_BUILD_BYTES), build peak %lu B, tree keeps %lu B\n",
                      (unsigned long)sizeof g_tree_mem, (unsigned long)arena.high_water,
                      (unsigned long)copse_bvh_bytes(bvh));
    return COPSE_OK;
}

/* ---- 2. lidar: four rows of 360 beams from one pose ----------------------------------------------- */
static const int g_rows[4] = { 0, -3, -10, 10 }; /* elevations, degrees */

typedef struct lidar_result {
    scan rows[4];
    float every10[36]; /* row 0 at bearings 0, 10, ..., 350 */
} lidar_result;

static void lidar_measure(const copse_bvh *bvh, copse_vec3 eye, lidar_result *out)
{
    int r;
    for (r = 0; r < 4; r++)
        lidar_row(bvh, eye, g_rows[r], &out->rows[r], r == 0 ? out->every10 : NULL);
}

static void lidar_scan(const copse_bvh *bvh, copse_vec3 pose, lidar_result *res)
{
    copse_vec3 eye = copse_v3(pose.x, LIDAR_Y, pose.z);
    uint64_t t;
    int r, i;

    copse_port_printf("\nlidar   at (%.2f, %.2f, %.2f): 4 rows x 360 rays, range %.0f m\n", (double)eye.x,
                      (double)eye.y, (double)eye.z, (double)LIDAR_RANGE);
    t = copse_port_counter();
    lidar_measure(bvh, eye, res);
    g_cost.rays = cost_since(t);
    g_cost.nrays = 4 * 360;
    for (r = 0; r < 4; r++) {
        const scan *sc = &res->rows[r];
        copse_port_printf("  elev %3d: %3d returns (%3d floor), nearest %5.2f m @ %3d, mean %5.2f, far %5.2f\n",
                          g_rows[r], sc->returns, sc->floor, (double)sc->nearest, sc->nearest_bearing,
                          (double)(sc->returns > 0 ? sc->sum / (float)sc->returns : 0.0f), (double)sc->farthest);
    }
    copse_port_printf("  elev   0, every 10 deg (m, - = no return):\n");
    for (i = 0; i < 36; i++) {
        if (i % 12 == 0)
            copse_port_printf("    %3d-%3d", 10 * i, 10 * i + 110);
        if (res->every10[i] < 0.0f)
            copse_port_printf("     -");
        else
            copse_port_printf(" %5.2f", (double)res->every10[i]);
        if (i % 12 == 11)
            copse_port_printf("\n");
    }
}

/* ---- 3. drive: at each pose, is the body touching anything, and how far is the nearest obstacle? --- */
typedef struct pose_report {
    uint32_t touching; /* triangles inside the body sphere (up to the list's capacity) */
    bool more;         /* ... and more than the list could hold */
    uint32_t first_id; /* one of them, to name what we hit */
    copse_nearest3 near;
    scan ring;         /* the horizontal lidar ring */
} pose_report;

/* The three queries at each of n poses, into at[]; their costs into g_cost when `timed`. */
static void drive_measure(const copse_bvh *bvh, const copse_vec3 *poses, int n, pose_report *at, bool timed)
{
    uint64_t t, sphere, nearest;
    int i;

    t = copse_port_counter(); /* body sphere: array form, up to 8 ids */
    for (i = 0; i < n; i++) {
        uint32_t ids[8];
        copse_id_list list = copse_id_list_make(ids, 8);
        copse_sphere body;
        body.center = copse_v3(poses[i].x, BODY_Y, poses[i].z);
        body.radius = BODY_R;
        (void)copse_bvh_overlap_sphere(bvh, &body, COPSE_BVH_SELECT_PRIMS, &list);
        at[i].touching = list.count;
        at[i].more = list.truncated;
        at[i].first_id = list.count > 0 ? ids[0] : COPSE_NONE;
    }
    sphere = cost_since(t);
    t = copse_port_counter(); /* nearest obstacle within NEAR_RANGE */
    for (i = 0; i < n; i++)
        (void)copse_bvh_nearest(bvh, copse_v3(poses[i].x, BODY_Y, poses[i].z), NEAR_RANGE, &at[i].near);
    nearest = cost_since(t);
    for (i = 0; i < n; i++)
        lidar_row(bvh, copse_v3(poses[i].x, LIDAR_Y, poses[i].z), 0, &at[i].ring, NULL);
    if (timed) {
        g_cost.sphere = sphere;
        g_cost.nearest = nearest;
    }
}

/* Returns how many poses the two queries disagree on (0: they tell one truth). */
static int drive(const copse_bvh *bvh, const copse_vec3 *poses, pose_report *at)
{
    int i, contacts = 0, disagree = 0;

    drive_measure(bvh, poses, POSES, at, true);

    copse_port_printf("\npath    %d poses; body: sphere r %.2f m at y %.2f; nearest within %.0f m\n", POSES,
                      (double)BODY_R, (double)BODY_Y, (double)NEAR_RANGE);
    copse_port_printf("  pose      x      z  body sphere    nearest obstacle   lidar nearest\n");
    for (i = 0; i < POSES; i++) {
        const pose_report *p = &at[i];
        char body[24], near[24], ring[24];
        float d = p->near.id != COPSE_NONE ? sqrtf(p->near.distance_sq) : -1.0f;
        if (p->touching == 0)
            copse_port_snprintf(body, sizeof body, "clear");
        else
            copse_port_snprintf(body, sizeof body, "HIT %lu%s %s", (unsigned long)p->touching, p->more ? "+" : "",
                                scene_kind_name((scene_kind)g_scene.kind[p->first_id]));
        if (d < 0.0f)
            copse_port_snprintf(near, sizeof near, "none");
        else
            copse_port_snprintf(near, sizeof near, "%.2f m %s", (double)d,
                                scene_kind_name((scene_kind)g_scene.kind[p->near.id]));
        if (p->ring.returns == 0)
            copse_port_snprintf(ring, sizeof ring, "none");
        else
            copse_port_snprintf(ring, sizeof ring, "%5.2f m @ %3d", (double)p->ring.nearest, p->ring.nearest_bearing);
        copse_port_printf("  %4d %6.2f %6.2f  %-13s  %-17s  %s\n", i, (double)poses[i].x, (double)poses[i].z, body,
                          near, ring);
        contacts += p->touching > 0;
        /* two queries, one truth: touching <=> the nearest obstacle is within the radius */
        disagree += (p->touching > 0) != (d >= 0.0f && d <= BODY_R);
    }
    copse_port_printf("verdict %d of %d poses touch something; sphere and nearest %s\n", contacts, POSES,
                      disagree == 0 ? "agree at every pose" : "DISAGREE");
    return disagree;
}

/* ---- 4. baked: the tool's const tree in flash against the run-time build ------------------------- */
static bool same_scan(const scan *a, const scan *b)
{
    return a->returns == b->returns && a->floor == b->floor && a->nearest_bearing == b->nearest_bearing &&
           a->nearest == b->nearest && a->farthest == b->farthest && a->sum == b->sum;
}

static bool same_pose(const pose_report *a, const pose_report *b)
{
    return a->touching == b->touching && a->more == b->more && a->first_id == b->first_id &&
           a->near.id == b->near.id && a->near.distance_sq == b->near.distance_sq &&
           a->near.point.x == b->near.point.x && a->near.point.y == b->near.point.y &&
           a->near.point.z == b->near.point.z && same_scan(&a->ring, &b->ring);
}

/* Views the baked tree where it lies, compares it with the run-time tree node for node, asks it
 * every question of sections 2 and 3 again and compares each answer. Returns how many differ. */
static int baked(const copse_bvh *built, copse_vec3 pose0, const lidar_result *lidar, const copse_vec3 *poses,
                 const pose_report *at)
{
    const unsigned long mesh_bytes = (unsigned long)(sizeof(float) * WAREHOUSE_TREE_POSITIONS_COUNT +
                                                     sizeof warehouse_tree_indices[0] * WAREHOUSE_TREE_INDICES_COUNT);
    copse_bvh flash;
    copse_status st = warehouse_tree_view(&flash);
    uint64_t t;
    bool same_tree;
    int i, r, differ = 0;

    if (st != COPSE_OK) {
        copse_port_printf("\nbaked   FAILED: viewing the flash tree: %s\n", copse_status_str(st));
        return 1;
    }
    same_tree = flash.node_count == built->node_count && flash.prim_count == built->prim_count &&
                flash.depth == built->depth && flash.dim == built->dim &&
                memcmp(flash.nodes, built->nodes,
                       (size_t)built->node_count * (built->dim == 3 ? COPSE_BVH_NODE3_BYTES : COPSE_BVH_NODE2_BYTES)) == 0 &&
                memcmp(flash.prims, built->prims, sizeof(uint32_t) * built->prim_count) == 0;
    /* one row and one pose at a time: the micro:bit has no RAM for a second set of answers */
    t = copse_port_counter();
    for (r = 0; r < 4; r++) {
        float every10[36];
        scan row;
        lidar_row(&flash, copse_v3(pose0.x, LIDAR_Y, pose0.z), g_rows[r], &row, r == 0 ? every10 : NULL);
        differ += !same_scan(&lidar->rows[r], &row);
        for (i = 0; r == 0 && i < 36; i++)
            differ += lidar->every10[i] != every10[i];
    }
    g_cost.flash_rays = cost_since(t);
    for (i = 0; i < POSES; i++) {
        pose_report one;
        drive_measure(&flash, &poses[i], 1, &one, false);
        differ += !same_pose(&at[i], &one);
    }

    copse_port_printf("\nbaked   by `copse bake` on the host: a %lu B blob and %lu B of mesh, const arrays in flash\n",
                      (unsigned long)WAREHOUSE_TREE_BYTES, mesh_bytes);
    copse_port_printf("  tree    viewed in place: %s the run-time build (%lu nodes, depth %u)\n",
                      same_tree ? "node for node the same as" : "DIFFERENT from", (unsigned long)flash.node_count,
                      (unsigned)flash.depth);
    copse_port_printf("  answers the lidar scan and the %d poses again: %s\n", POSES,
                      differ == 0 ? "every answer equal to the run-time tree's" : "some DIFFER");
    copse_port_printf("  RAM     0 B for the flash tree; the run-time build needs the %lu B arena (the tree keeps %lu B)\n"
                      "          and the scene's %lu B of vertex and index arrays in RAM\n",
                      (unsigned long)sizeof g_tree_mem, (unsigned long)copse_bvh_bytes(built),
                      (unsigned long)(sizeof g_scene.pos + sizeof g_scene.idx));
    copse_port_printf("# flash tree blob at 0x%08lx, the run-time tree's arena at 0x%08lx\n",
                      (unsigned long)(uintptr_t)warehouse_tree, (unsigned long)(uintptr_t)g_tree_mem);
    return differ + !same_tree;
}

/* ---- 5. cost: '#' lines, machine-specific, not compared ------------------------------------------ */
static void print_costs(void)
{
    const char *unit = copse_port_counter_unit();
    copse_port_printf("# cost in %s (%s)\n", unit,
                      unit[0] == 'i' ? "QEMU -icount: instructions, deterministic" : "wall clock");
    copse_port_printf("#   build         %9lu  (%lu per triangle)\n", (unsigned long)g_cost.build,
                      (unsigned long)(g_cost.build / g_scene.ntris));
    copse_port_printf("#   lidar ray     %9lu  mean of %d rays, with the floor test\n",
                      (unsigned long)(g_cost.rays / (uint64_t)g_cost.nrays), g_cost.nrays);
    copse_port_printf("#   flash ray     %9lu  the same rays on the baked tree in flash\n",
                      (unsigned long)(g_cost.flash_rays / (uint64_t)g_cost.nrays));
    copse_port_printf("#   sphere check  %9lu  mean of %d\n", (unsigned long)(g_cost.sphere / POSES), POSES);
    copse_port_printf("#   nearest       %9lu  mean of %d\n", (unsigned long)(g_cost.nearest / POSES), POSES);
#ifdef DEMO_STACK_REPORT
    copse_port_printf("# stack high-water mark of the whole run: %lu bytes\n", (unsigned long)copse_port_stack_used());
#endif
}

int main(int argc, char **argv)
{
    static lidar_result lidar;
    static pose_report at[POSES];
    copse_bvh bvh;
    copse_vec3 poses[POSES];
    copse_status st;
    int disagree, differ;

    copse_port_init(argc, argv);
    cost_calibrate();
    trig_init();
    copse_port_printf("# copse demo: a robot in a warehouse, on %s\n", copse_port_name());

    if ((st = build_tree(&bvh)) != COPSE_OK) {
        copse_port_printf("FAILED: building the tree: %s\n", copse_status_str(st));
        return 1;
    }
    path_poses(poses);
    lidar_scan(&bvh, poses[0], &lidar);
    disagree = drive(&bvh, poses, at);
    differ = baked(&bvh, poses[0], &lidar, poses, at);
    print_costs();
    return disagree == 0 && differ == 0 ? 0 : 2;
}

/* SPDX-License-Identifier: MIT */
/*
 * robot_fw: the robot checks on a board, everything in flash. The Panda baked on the host by
 * `copse robot bake ... -o robot_panda.c` and the table and box (bench/robot_scene.c) baked by
 * `copse bake ... -o robot_world.c` are const arrays, viewed in place (copse_robot_view,
 * copse_bvh_view_mesh): the robot, the world, the link poses and the answers live in flash or
 * on the stack, and neither the robot nor the world takes a byte of .data or .bss (mk/robot-fw.mk
 * reads that from the link map). Under `qemu-run <board> <elf> --icount` the port's counter
 * counts instructions exactly (docs/boards.md: counting instructions); on the host it is nanoseconds.
 *
 * The same random configurations as make bench-robot's host program draws (uniform within the
 * limits, bench_rng), a different world (the table and box only, no shared meshes). One record a
 * line; '#' lines are machine-specific (counts, stack), the rest must be the same on every machine:
 *   robot <links> <variables> <triangles> <blob bytes>
 *   world <triangles> <tree bytes>
 *   answer <query> <found> / <configurations> <hash of every answer>
 *   # count <query> <counter per configuration> <unit>
 *   # stack <query> <bytes>   (the high-water mark from the stack's top; `harness`: main's own)
 */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"
#include "copse/copse.h"
#include "copse/robot.h"
#include "port.h"
#include "robot_panda.h" /* generated: the baked Panda */
#include "robot_world.h" /* generated: the baked table and box */
#if !defined(COPSE_HOST) /* a board: the stack is painted and measured (port.h) */
#define RF_STACK 1
#endif

#define CONFIGS 48u
#define MAX_LINKS 16u
#define MAX_DOF 12u
#define CUTOFF 0.05f
#define SEED 101u /* the host bench's first robot */

typedef struct rf_state {
    copse_robot robot;
    copse_world world;
    float q[CONFIGS][MAX_DOF];
} rf_state;

enum { Q_FK, Q_COLLIDES, Q_COLLIDES_NO_SHAPES, Q_COLLIDES_WORLD, Q_COLLIDES_SELF, Q_DISTANCES, Q_COUNT };
static const char *const q_name[Q_COUNT] = { "fk",           "fk_collides",      "fk_collides_no_shapes",
                                             "fk_collides_world", "fk_collides_self", "fk_distances_5cm" };
static const uint32_t q_flags[Q_COUNT] = { 0u,
                                           COPSE_ROBOT_CHECK_DEFAULT,
                                           COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES,
                                           COPSE_ROBOT_WORLD,
                                           COPSE_ROBOT_SELF,
                                           COPSE_ROBOT_CHECK_DEFAULT };

static uint32_t fnv(uint32_t h, uint32_t w)
{
    uint32_t k;
    for (k = 0; k < 4u; k++) {
        h ^= (w >> (8u * k)) & 0xFFu;
        h *= 16777619u;
    }
    return h;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int fail(const char *what, copse_status st)
{
    copse_port_printf("error %s %s\n", what, copse_status_str(st));
    return 1;
}

/* One query over every configuration: found (colliding, or something within the cut-off) and a
 * hash of every answer; returns nonzero on an error. */
static int run(const rf_state *s, int q, uint32_t *found, uint32_t *hash)
{
    copse_pose poses[MAX_LINKS];
    copse_link_distance dist[MAX_LINKS];
    uint32_t c, l;
    *found = 0;
    *hash = 2166136261u;
    for (c = 0; c < CONFIGS; c++) {
        copse_robot_contact first;
        copse_status st = copse_robot_fk(&s->robot, s->q[c], NULL, poses);
        if (st != COPSE_OK)
            return fail("fk", st);
        if (q == Q_FK) {
            *hash = fnv(*hash, float_bits(poses[s->robot.link_count - 1u].translation.x));
            continue;
        }
        if (q == Q_DISTANCES) {
            uint32_t any = 0;
            st = copse_robot_distances(&s->robot, &s->world, poses, q_flags[q], CUTOFF, dist);
            if (st != COPSE_OK)
                return fail("distances", st);
            for (l = 0; l < s->robot.link_count; l++) {
                *hash = fnv(fnv(*hash, float_bits(dist[l].world)), float_bits(dist[l].self));
                any |= dist[l].world <= CUTOFF || dist[l].self <= CUTOFF;
            }
            *found += any;
            continue;
        }
        st = copse_robot_collides(&s->robot, &s->world, poses, q_flags[q], &first);
        if (st != COPSE_OK)
            return fail("collides", st);
        *found += first.kind != COPSE_CONTACT_NONE;
        *hash = fnv(*hash, first.kind != COPSE_CONTACT_NONE);
    }
    return 0;
}

int main(int argc, char **argv)
{
    rf_state s;
    copse_bvh tree;
    copse_world_mesh wm;
    bench_rng rng;
    uint32_t i, c, tris = 0, dof;
    int q, failures = 0;
    copse_status st;
    copse_port_init(argc, argv);

    if ((st = robot_panda_view(&s.robot)) != COPSE_OK)
        copse_port_exit(fail("robot view", st));
    if ((st = robot_world_view(&tree)) != COPSE_OK)
        copse_port_exit(fail("world view", st));
    dof = copse_robot_dof(&s.robot);
    if (s.robot.link_count > MAX_LINKS || dof > MAX_DOF)
        copse_port_exit(fail("robot too big for the bench", COPSE_ERR_PARAM));
    memset(&s.world, 0, sizeof s.world);
    wm.tree = &tree;
    memset(&wm.pose, 0, sizeof wm.pose);
    wm.pose.rotation[0][0] = wm.pose.rotation[1][1] = wm.pose.rotation[2][2] = 1.0f;
    s.world.meshes = &wm;
    s.world.mesh_count = 1;

    /* the host bench's draw: uniform within the limits (continuous joints within +-pi) */
    bench_rng_seed(&rng, SEED);
    for (c = 0; c < CONFIGS; c++)
        for (i = 0; i < dof; i++) {
            uint32_t joint;
            float lo, hi;
            if ((st = copse_robot_variable(&s.robot, i, &joint, &lo, &hi)) != COPSE_OK)
                copse_port_exit(fail("variable", st));
            if (lo < -3.14159265f)
                lo = -3.14159265f;
            if (hi > 3.14159265f)
                hi = 3.14159265f;
            s.q[c][i] = bench_rng_float(&rng, lo, hi);
        }
    for (i = 0; i < s.robot.link_count; i++) {
        copse_bvh t;
        if (copse_robot_link_tree(&s.robot, i, &t) == COPSE_OK)
            tris += t.mesh.triangle_count;
    }
    copse_port_printf("robot %u %u %u %u\n", (unsigned)s.robot.link_count, (unsigned)dof, (unsigned)tris,
                      (unsigned)s.robot.bytes);
    copse_port_printf("world %u %u\n", (unsigned)tree.mesh.triangle_count, (unsigned)copse_bvh_bytes(&tree));

#ifdef RF_STACK
    copse_port_stack_paint();
    copse_port_printf("# stack harness %lu\n", (unsigned long)copse_port_stack_used()); /* main's own frame */
#endif
    for (q = 0; q < Q_COUNT; q++) {
        uint32_t found, hash;
        uint64_t t0, t1, zero;
        t0 = copse_port_counter();
        zero = copse_port_counter() - t0; /* reading the counter itself */
#ifdef RF_STACK
        copse_port_stack_paint();
#endif
        t0 = copse_port_counter();
        failures |= run(&s, q, &found, &hash);
        t1 = copse_port_counter();
        copse_port_printf("answer %s %u / %u %x\n", q_name[q], (unsigned)found, (unsigned)CONFIGS, (unsigned)hash);
        copse_port_printf("# count %s %lu %s\n", q_name[q],
                          (unsigned long)((t1 - t0 - (t1 - t0 > zero ? zero : 0u)) / CONFIGS),
                          copse_port_counter_unit());
#ifdef RF_STACK
        copse_port_printf("# stack %s %lu\n", q_name[q], (unsigned long)copse_port_stack_used());
#endif
    }
    copse_port_exit(failures ? 1 : 0);
    return 0;
}

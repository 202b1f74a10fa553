/* SPDX-License-Identifier: MIT */
/*
 * What the copse benchmarks share (host program, QEMU firmware, peers program):
 * a seeded RNG, query sets generated from a mesh, brute-force answers over all
 * triangles, and a small procedural scene for boards without data files.
 *
 * Plain C99 with no I/O and no allocation, so the same file builds for the
 * host and for every board. The brute-force routines are what a user writes
 * without a tree (Moeller-Trumbore, Ericson's closest point, Akenine-Moeller's
 * triangle/box SAT); they are the baseline of the speed-up columns and an
 * independent check of copse's answers.
 */
#ifndef COPSE_BENCH_H
#define COPSE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/bvh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- random numbers (PCG32): the same query sets on every machine ----------------------- */

typedef struct bench_rng {
    uint64_t state;
} bench_rng;

void bench_rng_seed(bench_rng *rng, uint64_t seed);
uint32_t bench_rng_u32(bench_rng *rng);
float bench_rng_float(bench_rng *rng, float lo, float hi); /* [lo, hi) */

/* ---- the scene a query set is generated for ----------------------------------------------- */

typedef struct bench_scene {
    copse_mesh mesh;
    float min[3], max[3]; /* bounds of the vertices the triangles use */
    float diag;           /* length of the bounds' diagonal: the unit of every query size */
} bench_scene;

void bench_scene_init(bench_scene *scene, const copse_mesh *mesh);

/* Corner k of triangle t. */
void bench_triangle(const copse_mesh *mesh, uint32_t t, const float *v[3]);

/* ---- query sets (sizes relative to the scene diagonal; see bench/method.md) ------------- */

/* Rays from a point in the bounds grown by 10% towards a random surface point; unit
 * direction, t_max = 2 * diagonal (every hit lies well inside it). */
void bench_gen_rays(const bench_scene *s, uint64_t seed, copse_ray3 *out, uint32_t n);
/* Boxes around surface points, half extents 0.5..1.5% of the diagonal per axis. */
void bench_gen_boxes(const bench_scene *s, uint64_t seed, copse_box3 *out, uint32_t n);
/* Spheres around surface points, radius 0.5..1.5% of the diagonal. */
void bench_gen_spheres(const bench_scene *s, uint64_t seed, copse_sphere *out, uint32_t n);
/* Segments from near a surface point (within 5% of the diagonal), random direction, length up to
 * 10% of the diagonal. The XZ segments start within 2%. */
void bench_gen_segments(const bench_scene *s, uint64_t seed, copse_segment3 *out, uint32_t n);
/* Points: half near the surface (within 2% of the diagonal), half anywhere in the grown bounds. */
void bench_gen_points(const bench_scene *s, uint64_t seed, copse_vec3 *out, uint32_t n);
/* The XZ-plane versions (Recast style, y up): rects and segments in (x, z). */
void bench_gen_rects_xz(const bench_scene *s, uint64_t seed, copse_box2 *out, uint32_t n);
void bench_gen_segments_xz(const bench_scene *s, uint64_t seed, copse_segment2 *out, uint32_t n);

/* ---- brute force over every triangle -------------------------------------------------------
 * Same semantics as the copse queries (closed sets, two-sided triangles, ties to the lower
 * index), single precision, one loop over the mesh. */

/* First hit: the triangle id or COPSE_NONE, and t. */
uint32_t bench_brute_raycast(const copse_mesh *m, const copse_ray3 *ray, float *t);
/* Hits anywhere in [0, t_max]. */
uint32_t bench_brute_raycast_count(const copse_mesh *m, const copse_ray3 *ray);
uint32_t bench_brute_box_count(const copse_mesh *m, const copse_box3 *box);
uint32_t bench_brute_sphere_count(const copse_mesh *m, const copse_sphere *sphere);
uint32_t bench_brute_segment_count(const copse_mesh *m, const copse_segment3 *seg);
/* Nearest triangle (id) and its squared distance. */
uint32_t bench_brute_nearest(const copse_mesh *m, const float *p, float *d2);
/* Nearest vertex used by some triangle (vertex index) and its squared distance. */
uint32_t bench_brute_nearest_vertex(const copse_mesh *m, const float *p, float *d2);
/* XZ projection: triangles whose (x, z) shadow meets the rect / the segment. */
uint32_t bench_brute_rect_xz_count(const copse_mesh *m, const copse_box2 *rect);
uint32_t bench_brute_segment_xz_count(const copse_mesh *m, const copse_segment2 *seg);

/* The primitive tests themselves, for peers' callbacks that need an exact answer. */
bool bench_ray_triangle(const float *o, const float *d, const float *a, const float *b, const float *c,
                        float t_max, float *t);
bool bench_triangle_box(const float *bmin, const float *bmax, const float *a, const float *b, const float *c);
float bench_triangle_closest(float *out, const float *p, const float *a, const float *b, const float *c);

/* ---- a procedural scene for the boards ------------------------------------------------------
 * A room: an uneven floor of grid x grid quads and `boxes` crates and shelves (12 triangles
 * each), some turned about y. Vertices: (grid+1)^2 + 8*boxes; triangles: 2*grid^2 + 12*boxes. */

#define BENCH_SCENE_VERTICES(grid, boxes) (((grid) + 1u) * ((grid) + 1u) + 8u * (boxes))
#define BENCH_SCENE_TRIANGLES(grid, boxes) (2u * (grid) * (grid) + 12u * (boxes))

/* Fills pos (xyz per vertex) and idx (3 per triangle); returns the mesh view (16-bit indices). */
copse_mesh bench_scene_room(float *pos, uint16_t *idx, uint32_t grid, uint32_t boxes, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif

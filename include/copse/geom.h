/*
 * copse — the geometry the trees are built over and queried with.
 *
 * Plain structs of floats, no padding, no hidden members: they can sit in
 * flash and be shared with other libraries' vector types by layout.
 */
#ifndef COPSE_GEOM_H
#define COPSE_GEOM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct copse_vec2 { float x, y; } copse_vec2;
typedef struct copse_vec3 { float x, y, z; } copse_vec3;

/* Axis-aligned boxes; min <= max on every axis for a valid box. */
typedef struct copse_box2 { copse_vec2 min, max; } copse_box2;
typedef struct copse_box3 { copse_vec3 min, max; } copse_box3;

/* Points origin + t*dir for t in [0, t_max]; dir need not be unit length
 * (t is then in units of |dir|; with a unit dir, t is a distance). */
typedef struct copse_ray2 { copse_vec2 origin, dir; float t_max; } copse_ray2;
typedef struct copse_ray3 { copse_vec3 origin, dir; float t_max; } copse_ray3;

/* The closed segment from a to b. */
typedef struct copse_segment2 { copse_vec2 a, b; } copse_segment2;
typedef struct copse_segment3 { copse_vec3 a, b; } copse_segment3;

typedef struct copse_circle { copse_vec2 center; float radius; } copse_circle;
typedef struct copse_sphere { copse_vec3 center; float radius; } copse_sphere;

/* The plane dot(normal, x) = dist. The points with dot(normal, x) <= dist are behind it; a
 * convex region (a BSP brush, a view frustum) is the set of points behind all of its planes,
 * so its normals point out. Normals need not be unit length. */
typedef struct copse_plane { copse_vec3 normal; float dist; } copse_plane;

/* Every point within `radius` of the closed segment: a robot link, a swept sphere. */
typedef struct copse_capsule { copse_segment3 segment; float radius; } copse_capsule;

static inline copse_vec2 copse_v2(float x, float y)
{
    copse_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

static inline copse_vec3 copse_v3(float x, float y, float z)
{
    copse_vec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static inline copse_box2 copse_box2_make(float x0, float y0, float x1, float y1)
{
    copse_box2 b;
    b.min = copse_v2(x0, y0);
    b.max = copse_v2(x1, y1);
    return b;
}

static inline copse_box3 copse_box3_make(float x0, float y0, float z0, float x1, float y1, float z1)
{
    copse_box3 b;
    b.min = copse_v3(x0, y0, z0);
    b.max = copse_v3(x1, y1, z1);
    return b;
}

/* The ray through a segment: t in [0,1] spans a..b. */
static inline copse_ray3 copse_ray3_from_segment(copse_segment3 s)
{
    copse_ray3 r;
    r.origin = s.a;
    r.dir = copse_v3(s.b.x - s.a.x, s.b.y - s.a.y, s.b.z - s.a.z);
    r.t_max = 1.0f;
    return r;
}

static inline copse_ray2 copse_ray2_from_segment(copse_segment2 s)
{
    copse_ray2 r;
    r.origin = s.a;
    r.dir = copse_v2(s.b.x - s.a.x, s.b.y - s.a.y);
    r.t_max = 1.0f;
    return r;
}

#ifdef __cplusplus
}
#endif

#endif /* COPSE_GEOM_H */

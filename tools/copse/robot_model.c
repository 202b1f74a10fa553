/* SPDX-License-Identifier: MIT */
/*
 * From a URDF to a built copse robot (robot_tool.h). Each link's <collision> elements are merged
 * into one mesh in the link frame: the mesh file's vertices (assimp, float) are scaled, rotated by
 * the element's origin quaternion and moved by its xyz in double, then rounded to float once.
 * Boxes become 12 triangles; cylinders a ROBOT_CYLINDER_SEGMENTS-sided prism that circumscribes
 * them (never smaller than the cylinder); spheres are copse spheres, not meshes. --spheres N fits
 * up to N spheres per link that bound its mesh (every triangle inside one), so the core may prune
 * the mesh with them (ROBOT_LINK_SHAPES_BOUND).
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mesh_load.h"
#include "pointcloud_load.h"
#include "robot_tool.h"
#include "tool.h"

#define PI 3.14159265358979323846

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The URDF's folder, with a trailing '/' ("" for the working directory). */
static void folder_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash != NULL ? (size_t)(slash - path) + 1u : 0u;
    if (n >= cap)
        n = cap - 1u;
    memcpy(dir, path, n);
    dir[n] = '\0';
}

int robot_resolve_mesh(const char *urdf_path, const char *filename, char *out, size_t cap, char *tried,
                       size_t tried_cap)
{
    static const char *const ups[] = {"", "../", "../../", "../../../"};
    char dir[1024];
    const char *p = filename, *r;
    size_t used = 0;
    unsigned k, which;
    tried[0] = '\0';
    if (strncmp(p, "file://", 7) == 0)
        p += 7;
    folder_of(urdf_path, dir, sizeof dir);
    if (strncmp(p, "package://", 10) != 0) {
        if (p[0] == '/')
            snprintf(out, cap, "%s", p);
        else
            snprintf(out, cap, "%s%s", dir, p);
        snprintf(tried, tried_cap, "%s", out);
        return file_exists(out) ? 0 : -1;
    }
    p += 10;
    r = strchr(p, '/'); /* the path without its package name */
    r = r != NULL ? r + 1 : p;
    for (k = 0; k < sizeof ups / sizeof ups[0]; k++)
        for (which = 0; which < 2; which++) {
            /* DIR/P first (the package's root is the URDF's folder), then DIR/R, then one level up... */
            const char *rest = which == 0 ? p : r;
            if (which == 1 && r == p)
                continue;
            snprintf(out, cap, "%s%s%s", dir, ups[k], rest);
            if (file_exists(out))
                return 0;
            if (used + strlen(out) + 3u < tried_cap)
                used += (size_t)snprintf(tried + used, tried_cap - used, "%s%s", used > 0 ? ", " : "", out);
        }
    return -1;
}

/* ---- geometry in double ----------------------------------------------------------------------- */

static void quat_matrix(const double *q, double m[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3], n = sqrt(x * x + y * y + z * z + w * w);
    if (n > 0.0)
        x /= n, y /= n, z /= n, w /= n;
    m[0][0] = 1.0 - 2.0 * (y * y + z * z);
    m[0][1] = 2.0 * (x * y - z * w);
    m[0][2] = 2.0 * (x * z + y * w);
    m[1][0] = 2.0 * (x * y + z * w);
    m[1][1] = 1.0 - 2.0 * (x * x + z * z);
    m[1][2] = 2.0 * (y * z - x * w);
    m[2][0] = 2.0 * (x * z - y * w);
    m[2][1] = 2.0 * (y * z + x * w);
    m[2][2] = 1.0 - 2.0 * (x * x + y * y);
}

typedef struct geo_builder {
    robot_link_geometry *g;
    uint32_t vcap, tcap, scap;
} geo_builder;

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    void *n;
    uint32_t c = *cap;
    if (need <= c)
        return 0;
    while (c < need)
        c = c < 64u ? 64u : c * 2u;
    if ((n = realloc(*p, (size_t)c * elem)) == NULL)
        return -1;
    *p = n;
    *cap = c;
    return 0;
}

/* Appends vertices (scaled, then placed by the origin) and triangles (indices local to them). */
static int add_part(geo_builder *b, const urdf_origin *o, const double *scale, const float *fpos, const double *dpos,
                    uint32_t nv, const uint32_t *idx, uint32_t nt)
{
    robot_link_geometry *g = b->g;
    double m[3][3];
    uint32_t i, base = g->vertex_count;
    if (grow((void **)&g->positions, &b->vcap, g->vertex_count + nv, 3u * sizeof(double)) != 0 ||
        grow((void **)&g->indices, &b->tcap, g->triangle_count + nt, 3u * sizeof(uint32_t)) != 0)
        return -1;
    quat_matrix(o->quat, m);
    for (i = 0; i < nv; i++) {
        double v[3], *dst = g->positions + (size_t)(base + i) * 3u;
        unsigned a;
        for (a = 0; a < 3; a++)
            v[a] = (fpos != NULL ? (double)fpos[3u * i + a] : dpos[3u * i + a]) * scale[a];
        for (a = 0; a < 3; a++)
            dst[a] = m[a][0] * v[0] + m[a][1] * v[1] + m[a][2] * v[2] + o->xyz[a];
    }
    for (i = 0; i < 3u * nt; i++)
        g->indices[(size_t)g->triangle_count * 3u + i] = base + idx[i];
    g->vertex_count += nv;
    g->triangle_count += nt;
    return 0;
}

static int add_box(geo_builder *b, const urdf_geom *geom)
{
    static const uint32_t tri[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                     2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    static const double one[3] = {1.0, 1.0, 1.0};
    double v[24];
    unsigned i, a;
    for (i = 0; i < 8u; i++)
        for (a = 0; a < 3u; a++)
            v[3u * i + a] = ((i >> a) & 1u ? 0.5 : -0.5) * geom->size[a];
    return add_part(b, &geom->origin, one, NULL, v, 8u, tri, 12u);
}

/* A prism of ROBOT_CYLINDER_SEGMENTS sides around the z axis whose faces touch the cylinder:
 * corners at radius r / cos(pi / N), so it contains the cylinder. */
static int add_cylinder(geo_builder *b, const urdf_geom *geom)
{
    static const double one[3] = {1.0, 1.0, 1.0};
    enum { N = ROBOT_CYLINDER_SEGMENTS };
    double v[3u * (2u * N + 2u)], r = geom->size[0] / cos(PI / N), h = 0.5 * geom->size[1];
    uint32_t t[3u * 4u * N], i, nt = 0;
    for (i = 0; i < N; i++) {
        double ang = 2.0 * PI * (double)i / N;
        v[6u * i] = v[6u * i + 3u] = r * cos(ang);
        v[6u * i + 1u] = v[6u * i + 4u] = r * sin(ang);
        v[6u * i + 2u] = -h;
        v[6u * i + 5u] = h;
    }
    v[6u * N] = v[6u * N + 1u] = v[6u * N + 3u] = v[6u * N + 4u] = 0.0;
    v[6u * N + 2u] = -h;
    v[6u * N + 5u] = h;
    for (i = 0; i < N; i++) {
        uint32_t j = (i + 1u) % N, q[12];
        unsigned k;
        q[0] = 2u * i, q[1] = 2u * j, q[2] = 2u * i + 1u;          /* side */
        q[3] = 2u * j, q[4] = 2u * j + 1u, q[5] = 2u * i + 1u;
        q[6] = 2u * N, q[7] = 2u * j, q[8] = 2u * i;                /* bottom cap */
        q[9] = 2u * N + 1u, q[10] = 2u * i + 1u, q[11] = 2u * j + 1u;/* top cap */
        for (k = 0; k < 12u; k++)
            t[nt * 3u + k] = q[k];
        nt += 4u;
    }
    return add_part(b, &geom->origin, one, NULL, v, 2u * N + 2u, t, nt);
}

static const char *geom_kind_name(int kind)
{
    return kind == URDF_MESH ? "mesh" : kind == URDF_BOX ? "box" : kind == URDF_CYLINDER ? "cylinder" : "sphere";
}

static int link_geometry(const char *urdf_path, const urdf_link *l, robot_link_geometry *g)
{
    geo_builder b;
    unsigned k;
    memset(&b, 0, sizeof b);
    b.g = g;
    for (k = 0; k < l->geom_count; k++) {
        const urdf_geom *geom = &l->geoms[k];
        int bad = 0;
        if (!(isfinite(geom->size[0]) && isfinite(geom->size[1]) && isfinite(geom->size[2])) ||
            geom->size[0] < 0.0 || geom->size[1] < 0.0 || geom->size[2] < 0.0)
            return tool_fail("%s: link '%s': collision %u: a %s with a negative or non-finite size", urdf_path,
                             l->name, k, geom_kind_name(geom->kind));
        if (geom->kind == URDF_MESH) {
            char path[2048], tried[4096], err[2600];
            host_mesh hm;
            if (robot_resolve_mesh(urdf_path, geom->filename, path, sizeof path, tried, sizeof tried) != 0)
                return tool_fail("%s: link '%s': collision mesh '%s' not found (tried %s)", urdf_path, l->name,
                                 geom->filename, tried);
            if (host_mesh_load(path, &hm, err, sizeof err) != 0)
                return tool_fail("%s: link '%s': collision mesh '%s': %s", urdf_path, l->name, geom->filename, err);
            bad = add_part(&b, &geom->origin, geom->scale, hm.positions, NULL, hm.vertex_count, hm.indices,
                           hm.triangle_count);
            host_mesh_free(&hm);
        } else if (geom->kind == URDF_BOX) {
            bad = add_box(&b, geom);
        } else if (geom->kind == URDF_CYLINDER) {
            bad = add_cylinder(&b, geom);
        } else {
            if (grow((void **)&g->spheres, &b.scap, g->sphere_count + 1u, sizeof *g->spheres) != 0)
                bad = 1;
            else {
                memcpy(g->spheres[g->sphere_count], geom->origin.xyz, sizeof geom->origin.xyz);
                g->spheres[g->sphere_count++][3] = geom->size[0];
            }
        }
        if (bad)
            return tool_fail("out of memory");
    }
    return 0;
}

int robot_link_geometries(const char *urdf_path, const urdf_robot *u, robot_link_geometry **out)
{
    robot_link_geometry *g = (robot_link_geometry *)calloc(u->link_count + 1u, sizeof *g);
    unsigned i;
    *out = g;
    if (g == NULL)
        return tool_fail("out of memory");
    for (i = 0; i < u->link_count; i++)
        if (link_geometry(urdf_path, &u->links[i], &g[i]) != 0)
            return 1;
    return 0;
}

void robot_link_geometries_free(robot_link_geometry *g, unsigned count)
{
    unsigned i;
    for (i = 0; g != NULL && i < count; i++) {
        free(g[i].positions);
        free(g[i].indices);
        free(g[i].spheres);
    }
    free(g);
}

/* ---- bounding spheres --------------------------------------------------------------------------- */

typedef struct sort_key {
    double c;
    uint32_t t;
} sort_key;

static int by_key(const void *a, const void *b)
{
    const sort_key *x = (const sort_key *)a, *y = (const sort_key *)b;
    return x->c < y->c ? -1 : x->c > y->c ? 1 : (x->t > y->t) - (x->t < y->t);
}

/* A float radius that holds every point at double distance d from the float centre, with room for
 * a float containment test (a few ulps of the coordinates' size). */
static float round_radius_up(double d, double reach)
{
    double eps = 16.0 * (double)FLT_EPSILON, want = d * (1.0 + eps) + eps * reach;
    float r = (float)want;
    while ((double)r < want)
        r = nextafterf(r, FLT_MAX);
    return r;
}

/* The sum of triangle t's corners along axis a, in double. */
static double corner_sum(const float *pos, const uint32_t *idx, uint32_t t, unsigned a)
{
    return (double)pos[3u * idx[3u * t] + a] + (double)pos[3u * idx[3u * t + 1u] + a] +
           (double)pos[3u * idx[3u * t + 2u] + a];
}

/* Up to n spheres over the float mesh: triangles sorted by centroid along the longest axis of the
 * centroids' bounds, cut into n runs of equal count; each run's sphere is centred on its vertices'
 * box and reaches its farthest vertex. Returns the count. */
static uint32_t fit_spheres(const float *pos, const uint32_t *idx, uint32_t nt, uint32_t n, copse_sphere *out)
{
    sort_key *keys;
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    uint32_t t, k, axis = 0, groups = n < nt ? n : nt;
    unsigned a;
    if (groups == 0 || (keys = (sort_key *)malloc(sizeof *keys * nt)) == NULL)
        return 0;
    for (t = 0; t < nt; t++)
        for (a = 0; a < 3u; a++) {
            double c = corner_sum(pos, idx, t, a) / 3.0;
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    for (a = 1; a < 3u; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis])
            axis = a;
    for (t = 0; t < nt; t++) {
        keys[t].t = t;
        keys[t].c = corner_sum(pos, idx, t, axis);
    }
    qsort(keys, nt, sizeof *keys, by_key);
    for (k = 0; k < groups; k++) {
        uint32_t first = (uint32_t)((uint64_t)nt * k / groups), end = (uint32_t)((uint64_t)nt * (k + 1u) / groups), i;
        double blo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, bhi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX}, far = 0.0, reach = 0.0;
        float c[3];
        for (i = first; i < end; i++)
            for (a = 0; a < 9u; a++) {
                double v = pos[3u * idx[3u * keys[i].t + a / 3u] + a % 3u];
                blo[a % 3u] = v < blo[a % 3u] ? v : blo[a % 3u];
                bhi[a % 3u] = v > bhi[a % 3u] ? v : bhi[a % 3u];
            }
        for (a = 0; a < 3u; a++) {
            c[a] = (float)(0.5 * (blo[a] + bhi[a]));
            reach = fmax(reach, fmax(fabs(blo[a]), fabs(bhi[a])));
        }
        for (i = first; i < end; i++)
            for (a = 0; a < 3u; a++) {
                const float *v = pos + 3u * idx[3u * keys[i].t + a];
                double dx = (double)v[0] - (double)c[0], dy = (double)v[1] - (double)c[1], dz = (double)v[2] - (double)c[2];
                far = fmax(far, sqrt(dx * dx + dy * dy + dz * dz));
            }
        out[k].center = copse_v3(c[0], c[1], c[2]);
        out[k].radius = round_radius_up(far, reach);
    }
    free(keys);
    return groups;
}

/* One capsule that holds the float mesh's every vertex (so every triangle: a capsule is convex),
 * along its vertices' principal axis: the axis of the covariance's largest eigenvalue (power
 * iteration, in double), the radius the farthest vertex from that line, the segment as short
 * as the caps allow. The radius is rounded up as the spheres' are. Returns 0 (no vertices) or 1. */
static uint32_t fit_capsule(const float *pos, uint32_t nv, copse_capsule *out)
{
    double m[3] = {0.0, 0.0, 0.0}, cov[3][3] = {{0.0}}, d[3] = {0.57735, 0.57735, 0.57735}, lo = DBL_MAX,
           hi = -DBL_MAX, r2 = 0.0, reach = 0.0, len;
    uint32_t v, it;
    unsigned i, k;
    if (nv == 0)
        return 0;
    for (v = 0; v < nv; v++)
        for (k = 0; k < 3u; k++)
            m[k] += (double)pos[3u * v + k] / (double)nv;
    for (v = 0; v < nv; v++)
        for (i = 0; i < 3u; i++)
            for (k = 0; k < 3u; k++)
                cov[i][k] += ((double)pos[3u * v + i] - m[i]) * ((double)pos[3u * v + k] - m[k]);
    for (it = 0; it < 64u; it++) {
        double e[3] = {0.0, 0.0, 0.0};
        for (i = 0; i < 3u; i++)
            for (k = 0; k < 3u; k++)
                e[i] += cov[i][k] * d[k];
        len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (!(len > 0.0))
            break; /* a single point: any axis */
        for (i = 0; i < 3u; i++)
            d[i] = e[i] / len;
    }
    for (v = 0; v < nv; v++) { /* the radius: the farthest vertex from the axis line */
        double w[3], s = 0.0, q2 = 0.0;
        for (k = 0; k < 3u; k++)
            w[k] = (double)pos[3u * v + k] - m[k], s += w[k] * d[k];
        for (k = 0; k < 3u; k++)
            q2 += (w[k] - s * d[k]) * (w[k] - s * d[k]);
        r2 = fmax(r2, q2);
        for (k = 0; k < 3u; k++)
            reach = fmax(reach, fabs((double)pos[3u * v + k]));
    }
    for (v = 0; v < nv; v++) { /* the segment: each vertex within the radius of its end caps */
        double w[3], s = 0.0, q2 = 0.0, h;
        for (k = 0; k < 3u; k++)
            w[k] = (double)pos[3u * v + k] - m[k], s += w[k] * d[k];
        for (k = 0; k < 3u; k++)
            q2 += (w[k] - s * d[k]) * (w[k] - s * d[k]);
        h = sqrt(fmax(r2 - q2, 0.0));
        hi = fmax(hi, s - h);
        lo = fmin(lo, s + h);
    }
    if (lo > hi)
        lo = hi = 0.5 * (lo + hi);
    out->segment.a = copse_v3((float)(m[0] + lo * d[0]), (float)(m[1] + lo * d[1]), (float)(m[2] + lo * d[2]));
    out->segment.b = copse_v3((float)(m[0] + hi * d[0]), (float)(m[1] + hi * d[1]), (float)(m[2] + hi * d[2]));
    {
        /* the farthest vertex from the float segment, in double: the radius that holds them all */
        double ax = (double)out->segment.a.x, ay = (double)out->segment.a.y, az = (double)out->segment.a.z,
               ex = (double)out->segment.b.x - ax, ey = (double)out->segment.b.y - ay, ez = (double)out->segment.b.z - az,
               ee = ex * ex + ey * ey + ez * ez, far = 0.0;
        for (v = 0; v < nv; v++) {
            double px = (double)pos[3u * v] - ax, py = (double)pos[3u * v + 1u] - ay, pz = (double)pos[3u * v + 2u] - az,
                   t = ee > 0.0 ? fmin(fmax((px * ex + py * ey + pz * ez) / ee, 0.0), 1.0) : 0.0;
            px -= t * ex, py -= t * ey, pz -= t * ez;
            far = fmax(far, sqrt(px * px + py * py + pz * pz));
        }
        out->radius = round_radius_up(far, reach);
    }
    return 1;
}

/* ---- the robot ----------------------------------------------------------------------------------- */

static const char *joint_kind_name(int kind)
{
    static const char *const names[] = {"fixed", "revolute", "continuous", "prismatic", "floating", "planar", "unknown"};
    return kind >= 0 && kind <= URDF_UNKNOWN ? names[kind] : "unknown";
}

static uint32_t link_by_name(const urdf_robot *u, const char *name, size_t len)
{
    uint32_t i;
    for (i = 0; i < u->link_count; i++)
        if (strlen(u->links[i].name) == len && strncmp(u->links[i].name, name, len) == 0)
            return i;
    return COPSE_NONE;
}

/* The joints the core takes, or an error naming the joint, its link and what is supported. */
static int check_joints(const char *path, const urdf_robot *u)
{
    unsigned j;
    for (j = 0; j < u->joint_count; j++) {
        const urdf_joint *jt = &u->joints[j];
        if (jt->kind != URDF_FIXED && jt->kind != URDF_REVOLUTE && jt->kind != URDF_CONTINUOUS &&
            jt->kind != URDF_PRISMATIC)
            return tool_fail("%s: joint '%s' (parent link '%s', child link '%s') is %s: copse robots take fixed, "
                             "revolute, continuous and prismatic joints, and mimic joints of those that move",
                             path, jt->name, u->links[jt->parent].name, u->links[jt->child].name,
                             joint_kind_name(jt->kind));
        if (jt->mimic >= 0) {
            const urdf_joint *m = &u->joints[jt->mimic];
            if (jt->kind == URDF_FIXED || m->kind == URDF_FIXED || m->mimic >= 0 || jt->mimic == (int)j)
                return tool_fail("%s: joint '%s' (child link '%s') mimics '%s', a %s%s joint: a mimic joint must "
                                 "move (revolute, continuous, prismatic) and follow a moving joint that mimics none",
                                 path, jt->name, u->links[jt->child].name, m->name, m->mimic >= 0 ? "mimic " : "",
                                 joint_kind_name(m->kind));
        }
    }
    return 0;
}

/* Allowed pairs from --allow a,b and --srdf. */
static int allowed_pairs(const robot_opts *o, const urdf_robot *u, copse_link_pair **out, uint32_t *count)
{
    char *names = NULL, err[1200];
    unsigned n = 0, i;
    const char *p;
    *out = NULL;
    *count = 0;
    if (o->srdf != NULL && urdf_srdf_pairs(o->srdf, &names, &n, err, sizeof err) != 0)
        return tool_fail("%s", err);
    if ((*out = (copse_link_pair *)calloc(n + o->allow_count + 1u, sizeof **out)) == NULL) {
        free(names);
        return tool_fail("out of memory");
    }
    for (i = 0, p = names; i < n; i++) {
        const char *b = p + strlen(p) + 1u;
        copse_link_pair pair;
        pair.a = link_by_name(u, p, strlen(p));
        pair.b = link_by_name(u, b, strlen(b));
        if (pair.a == COPSE_NONE || pair.b == COPSE_NONE) {
            tool_fail("%s: <disable_collisions link1=\"%s\" link2=\"%s\">: '%s' is not a link of %s", o->srdf, p, b,
                      pair.a == COPSE_NONE ? p : b, o->input);
            free(names);
            return 1;
        }
        (*out)[(*count)++] = pair;
        p = b + strlen(b) + 1u;
    }
    free(names);
    for (i = 0; i < o->allow_count; i++) {
        const char *s = o->allow[i], *comma = strchr(s, ',');
        copse_link_pair pair;
        if (comma == NULL)
            return tool_fail("--allow %s: expected two link names, linkA,linkB", s);
        pair.a = link_by_name(u, s, (size_t)(comma - s));
        pair.b = link_by_name(u, comma + 1, strlen(comma + 1));
        if (pair.a == COPSE_NONE || pair.b == COPSE_NONE)
            return tool_fail("--allow %s: '%.*s' is not a link of %s", s,
                             pair.a == COPSE_NONE ? (int)(comma - s) : (int)strlen(comma + 1),
                             pair.a == COPSE_NONE ? s : comma + 1, o->input);
        (*out)[(*count)++] = pair;
    }
    return 0;
}

/* One link's float mesh, spheres and what --spheres printed. */
typedef struct link_build {
    float *positions;
    copse_mesh mesh;
    copse_sphere *spheres;
    uint32_t sphere_count;
    copse_capsule capsule; /* --capsule: one that holds the mesh */
    uint32_t capsule_count;
} link_build;

/* ---- --never N: MoveIt Setup Assistant's "never in collision" ----------------------------------- */

/* splitmix64: the same samples on every host */
static uint64_t never_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Allows every pair of links not allowed yet that touches in none of n configurations drawn
 * uniformly within the joint limits (continuous joints: a full turn), as MoveIt's setup
 * assistant disables its "Never" pairs; prints them unless quiet. */
static int allow_never(const robot_opts *o, const urdf_robot *u, copse_robot *r)
{
    const uint32_t links = r->link_count, dof = copse_robot_dof(r), cap = links * (links - 1u) / 2u + 1u;
    float *q = (float *)calloc(dof + 1u, sizeof *q), *lo = (float *)calloc(dof + 1u, sizeof *lo),
          *hi = (float *)calloc(dof + 1u, sizeof *hi);
    copse_pose *poses = (copse_pose *)calloc(links, sizeof *poses);
    copse_robot_contact *contacts = (copse_robot_contact *)calloc(cap, sizeof *contacts);
    uint8_t *seen = (uint8_t *)calloc((size_t)links * links, 1);
    uint64_t state = 0x636F707365ull; /* "copse" */
    uint32_t i, k, a, b, allowed = 0;
    int rc = 1;
    if (q == NULL || lo == NULL || hi == NULL || poses == NULL || contacts == NULL || seen == NULL) {
        tool_fail("out of memory");
        goto done;
    }
    for (k = 0; k < dof; k++) {
        if (copse_robot_variable(r, k, NULL, &lo[k], &hi[k]) != COPSE_OK) {
            tool_fail("%s: variable %u has no joint", o->input, (unsigned)k);
            goto done;
        }
        if (lo[k] < -3.14159265f)
            lo[k] = -3.14159265f;
        if (hi[k] > 3.14159265f)
            hi[k] = 3.14159265f;
    }
    for (i = 0; i < o->never; i++) {
        uint32_t count = 0;
        bool truncated = false;
        for (k = 0; k < dof; k++)
            q[k] = lo[k] + (hi[k] - lo[k]) * (float)((double)(never_next(&state) >> 11) * 0x1p-53);
        if (copse_robot_fk(r, q, NULL, poses) != COPSE_OK ||
            copse_robot_contacts(r, NULL, poses, COPSE_ROBOT_SELF, contacts, cap, &count, &truncated) != COPSE_OK) {
            tool_fail("%s: --never: configuration %u could not be checked", o->input, (unsigned)i);
            goto done;
        }
        for (k = 0; k < count; k++)
            seen[contacts[k].link * links + contacts[k].other] = 1;
    }
    for (a = 0; a < links; a++)
        for (b = a + 1u; b < links; b++) {
            copse_bvh ta, tb;
            if (copse_robot_allowed(r, a, b) || seen[a * links + b] || seen[b * links + a])
                continue;
            /* links with nothing to touch stay as they are */
            if ((copse_robot_link_tree(r, a, &ta) != COPSE_OK || ta.prim_count == 0) &&
                copse_robot_link_spheres(r, a, NULL, 0) + copse_robot_link_capsules(r, a, NULL, 0) == 0)
                continue;
            if ((copse_robot_link_tree(r, b, &tb) != COPSE_OK || tb.prim_count == 0) &&
                copse_robot_link_spheres(r, b, NULL, 0) + copse_robot_link_capsules(r, b, NULL, 0) == 0)
                continue;
            if (copse_robot_allow(r, a, b, true) != COPSE_OK) {
                tool_fail("%s: --never: allowing %s and %s failed", o->input, u->links[a].name, u->links[b].name);
                goto done;
            }
            if (!o->quiet)
                printf("never     %-24s %-24s no contact in %u configurations: allowed\n", u->links[a].name,
                       u->links[b].name, o->never);
            allowed++;
        }
    if (!o->quiet)
        printf("never     %u pairs allowed (MoveIt Setup Assistant's \"Never\" rule, %u samples)\n", (unsigned)allowed,
               o->never);
    rc = 0;
done:
    free(q);
    free(lo);
    free(hi);
    free(poses);
    free(contacts);
    free(seen);
    return rc;
}

static int build_from_urdf(const robot_opts *o, robot_loaded *out)
{
    const urdf_robot *u = &out->urdf;
    robot_link_geometry *geo = NULL;
    link_build *lb = NULL;
    copse_link_desc *links = NULL;
    copse_joint_desc *joints = NULL;
    copse_link_pair *pairs = NULL;
    copse_robot_desc desc;
    copse_arena arena;
    copse_status st;
    uint32_t pair_count = 0, i, k;
    size_t bytes;
    int rc = 1;
    if (u->link_count > COPSE_ROBOT_MAX_LINKS)
        return tool_fail("%s: %u links: a copse robot has at most %u", o->input, u->link_count, COPSE_ROBOT_MAX_LINKS);
    if (check_joints(o->input, u) != 0 || allowed_pairs(o, u, &pairs, &pair_count) != 0)
        goto done;
    if (robot_link_geometries(o->input, u, &geo) != 0)
        goto done;
    lb = (link_build *)calloc(u->link_count, sizeof *lb);
    links = (copse_link_desc *)calloc(u->link_count, sizeof *links);
    joints = (copse_joint_desc *)calloc(u->joint_count + 1u, sizeof *joints);
    if (lb == NULL || links == NULL || joints == NULL) {
        tool_fail("out of memory");
        goto done;
    }
    for (i = 0; i < u->link_count; i++) {
        const robot_link_geometry *g = &geo[i];
        link_build *b = &lb[i];
        uint32_t fit = g->sphere_count == 0 && g->triangle_count > 0 ? o->spheres : 0u;
        b->positions = (float *)malloc(sizeof(float) * 3u * (g->vertex_count + 1u));
        b->spheres = (copse_sphere *)malloc(sizeof(copse_sphere) * (g->sphere_count + fit + 1u));
        if (b->positions == NULL || b->spheres == NULL) {
            tool_fail("out of memory");
            goto done;
        }
        for (k = 0; k < 3u * g->vertex_count; k++) {
            if (!isfinite(g->positions[k]) || fabs(g->positions[k]) > 1e30) {
                const double *v = g->positions + k - k % 3u;
                tool_fail("%s: link '%s': vertex %u of its collision mesh (%g %g %g) is not finite (or past 1e30) "
                          "after its origin and scale",
                          o->input, u->links[i].name, (unsigned)(k / 3u), v[0], v[1], v[2]);
                goto done;
            }
            b->positions[k] = (float)g->positions[k];
        }
        for (k = 0; k < g->sphere_count; k++) {
            b->spheres[k].center = copse_v3((float)g->spheres[k][0], (float)g->spheres[k][1], (float)g->spheres[k][2]);
            b->spheres[k].radius = (float)g->spheres[k][3];
        }
        b->sphere_count = g->sphere_count;
        b->mesh.positions = b->positions;
        b->mesh.vertex_count = g->vertex_count;
        b->mesh.indices = g->indices;
        b->mesh.index_type = COPSE_MESH_INDEX_U32;
        b->mesh.triangle_count = g->triangle_count;
        if (fit > 0) {
            double box = 1.0, balls = 0.0, lo, hi;
            unsigned a;
            b->sphere_count = fit_spheres(b->positions, g->indices, g->triangle_count, fit, b->spheres);
            for (a = 0; a < 3u; a++) {
                lo = DBL_MAX, hi = -DBL_MAX;
                for (k = 0; k < g->vertex_count; k++)
                    lo = fmin(lo, b->positions[3u * k + a]), hi = fmax(hi, b->positions[3u * k + a]);
                box *= hi - lo;
            }
            for (k = 0; k < b->sphere_count; k++)
                balls += 4.0 / 3.0 * PI * pow((double)b->spheres[k].radius, 3.0);
            if (strcmp(o->command, "bake") == 0 && !o->quiet)
                printf("spheres   %-24s %3u over %5u triangles: %.2fx the volume of the mesh's box\n", u->links[i].name,
                       (unsigned)b->sphere_count, (unsigned)g->triangle_count, box > 0.0 ? balls / box : 0.0);
        } else if (o->spheres > 0 && g->sphere_count > 0 && g->triangle_count > 0 && !o->quiet) {
            printf("spheres   %-24s none fitted: its URDF spheres are part of its geometry\n", u->links[i].name);
        }
        if (o->capsule && g->triangle_count > 0 && g->sphere_count == 0) {
            b->capsule_count = fit_capsule(b->positions, g->vertex_count, &b->capsule);
            if (b->capsule_count > 0 && strcmp(o->command, "bake") == 0 && !o->quiet) {
                double box = 1.0, lo, hi, ex = (double)b->capsule.segment.b.x - (double)b->capsule.segment.a.x,
                       ey = (double)b->capsule.segment.b.y - (double)b->capsule.segment.a.y,
                       ez = (double)b->capsule.segment.b.z - (double)b->capsule.segment.a.z,
                       r = (double)b->capsule.radius;
                unsigned a;
                for (a = 0; a < 3u; a++) {
                    lo = DBL_MAX, hi = -DBL_MAX;
                    for (k = 0; k < g->vertex_count; k++)
                        lo = fmin(lo, b->positions[3u * k + a]), hi = fmax(hi, b->positions[3u * k + a]);
                    box *= hi - lo;
                }
                printf("capsule   %-24s radius %.4f, length %.4f: %.2fx the volume of the mesh's box\n", u->links[i].name,
                       r, sqrt(ex * ex + ey * ey + ez * ez),
                       box > 0.0 ? (PI * r * r * sqrt(ex * ex + ey * ey + ez * ez) + 4.0 / 3.0 * PI * r * r * r) / box : 0.0);
            }
        }
        links[i].name = u->links[i].name;
        links[i].mesh = g->triangle_count > 0 ? &b->mesh : NULL;
        links[i].spheres = b->sphere_count > 0 ? b->spheres : NULL;
        links[i].sphere_count = b->sphere_count;
        links[i].capsules = b->capsule_count > 0 ? &b->capsule : NULL;
        links[i].capsule_count = b->capsule_count;
        links[i].padding = o->padding;
    }
    for (i = 0; i < u->joint_count; i++) {
        const urdf_joint *j = &u->joints[i];
        copse_joint_desc *d = &joints[i];
        d->name = j->name;
        d->type = j->kind == URDF_REVOLUTE    ? COPSE_JOINT_REVOLUTE
                  : j->kind == URDF_CONTINUOUS ? COPSE_JOINT_CONTINUOUS
                  : j->kind == URDF_PRISMATIC  ? COPSE_JOINT_PRISMATIC
                                               : COPSE_JOINT_FIXED;
        d->parent = j->parent;
        d->child = j->child;
        d->xyz = copse_v3((float)j->origin.xyz[0], (float)j->origin.xyz[1], (float)j->origin.xyz[2]);
        d->rpy = copse_v3((float)j->origin.rpy[0], (float)j->origin.rpy[1], (float)j->origin.rpy[2]);
        d->axis = copse_v3((float)j->axis[0], (float)j->axis[1], (float)j->axis[2]);
        if (d->type == COPSE_JOINT_FIXED)
            d->axis = copse_v3(0.0f, 0.0f, 1.0f);
        d->lower = (float)j->lower;
        d->upper = (float)j->upper;
        d->mimic = j->mimic;
        d->multiplier = (float)j->multiplier;
        d->offset = (float)j->offset;
    }
    /* Links joined through links without geometry (the Panda's link8 between link7 and its hand)
     * are adjacent too, as MoveIt's setup assistant counts them. */
    for (i = 1; i < u->link_count; i++) {
        uint32_t p = u->joints[i - 1u].parent;
        if (links[i].mesh == NULL && links[i].sphere_count == 0)
            continue;
        while (p != 0 && links[p].mesh == NULL && links[p].sphere_count == 0)
            p = u->joints[p - 1u].parent;
        if (p != u->joints[i - 1u].parent && (links[p].mesh != NULL || links[p].sphere_count > 0)) {
            copse_link_pair *grown = (copse_link_pair *)realloc(pairs, sizeof *pairs * (pair_count + 1u));
            if (grown == NULL) {
                tool_fail("out of memory");
                goto done;
            }
            pairs = grown;
            pairs[pair_count].a = p;
            pairs[pair_count++].b = i;
        }
    }
    memset(&desc, 0, sizeof desc);
    desc.links = links;
    desc.link_count = u->link_count;
    desc.joints = joints;
    desc.joint_count = u->joint_count;
    desc.allowed = pairs;
    desc.allowed_count = pair_count;
    {
        copse_bvh_params def = COPSE_BVH_PARAMS_DEFAULT;
        desc.tree_params = def;
    }
    bytes = copse_robot_build_bytes(&desc);
    if (bytes == (size_t)-1) {
        copse_robot probe;
        copse_arena_init(&arena, NULL, 0);
        st = copse_robot_build(&probe, &arena, &desc);
        tool_fail("%s: copse refuses this robot: %s", o->input, copse_status_str(st != COPSE_OK ? st : COPSE_ERR_PARAM));
        goto done;
    }
    if (posix_memalign(&out->memory, 16, bytes > 0 ? bytes : 16) != 0) {
        out->memory = NULL;
        tool_fail("out of memory for the robot's %lu bytes", (unsigned long)bytes);
        goto done;
    }
    out->memory_bytes = bytes;
    copse_arena_init(&arena, out->memory, bytes);
    if ((st = copse_robot_build(&out->robot, &arena, &desc)) != COPSE_OK) {
        tool_fail("%s: building the robot: %s", o->input, copse_status_str(st));
        goto done;
    }
    if (o->never > 0 && allow_never(o, u, &out->robot) != 0)
        goto done;
    rc = 0;
done:
    for (i = 0; lb != NULL && i < u->link_count; i++) {
        free(lb[i].positions);
        free(lb[i].spheres);
    }
    free(lb);
    free(links);
    free(joints);
    free(pairs);
    robot_link_geometries_free(geo, u->link_count);
    return rc;
}

int robot_open(const robot_opts *o, robot_loaded *out)
{
    memset(out, 0, sizeof *out);
    if (host_path_has_suffix(o->input, ".urdf") || host_path_has_suffix(o->input, ".xml")) {
        char err[2048];
        if (urdf_load(o->input, &out->urdf, err, sizeof err) != 0)
            return tool_fail("%s", err);
        out->from_urdf = 1;
        return build_from_urdf(o, out);
    } else {
        size_t len;
        copse_status st;
        if ((out->memory = tool_read_file(o->input, &len)) == NULL)
            return 1;
        out->memory_bytes = len;
        if ((st = copse_robot_view(&out->robot, out->memory, len)) != COPSE_OK)
            return tool_fail("%s: not a valid robot blob (or a URDF without .urdf): %s", o->input,
                             copse_status_str(st));
    }
    return 0;
}

void robot_close(robot_loaded *r)
{
    free(r->memory);
    if (r->from_urdf)
        urdf_free(&r->urdf);
    memset(r, 0, sizeof *r);
}

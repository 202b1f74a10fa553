/* SPDX-License-Identifier: MIT */
/*
 * Posed shapes in the tree's frame, the box-against-oriented-box tests, and the state of the
 * distance walks: what every collision query shares.
 */
#include "collide_internal.h"

/* ---- frames ------------------------------------------------------------------------------------ */

static void identity_frame(cl_frame *f)
{
    unsigned k;
    for (k = 0; k < 9; k++)
        f->r[k] = (k % 4u) == 0u ? 1.0f : 0.0f;
    f->t[0] = f->t[1] = f->t[2] = 0.0f;
}

/* Rows 0 and 1 by Gram–Schmidt, row 2 their cross product: a rotation to float rounding, and
 * bit for bit the input when that is already orthonormal in float (x / 1 = x, y - 0 * x = y). */
static void orthonormalize(float *r)
{
    float n, d;
    unsigned k;
    n = copse_sqrtf(geo_dot3(r, r));
    for (k = 0; k < 3; k++)
        r[k] = r[k] / n;
    d = geo_dot3(r + 3, r);
    for (k = 0; k < 3; k++)
        r[3 + k] = r[3 + k] - d * r[k];
    n = copse_sqrtf(geo_dot3(r + 3, r + 3));
    for (k = 0; k < 3; k++)
        r[3 + k] = r[3 + k] / n;
    geo_cross3(r + 6, r, r + 3);
}

copse_status copse__collide_frame(const copse_pose *pose, cl_frame *f)
{
    copse_status st;
    unsigned i, j;
    identity_frame(f);
    if (pose == NULL)
        return COPSE_OK;
    st = copse_pose_check(pose);
    if (st != COPSE_OK)
        return st;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            f->r[3 * i + j] = pose->rotation[i][j];
    orthonormalize(f->r);
    cl_vec3_in(f->t, pose->translation);
    return COPSE_OK;
}

/* ---- shapes ------------------------------------------------------------------------------------ */

static bool finite3(const float *v)
{
    return geo_finite(v[0]) && geo_finite(v[1]) && geo_finite(v[2]);
}

/* Bounds of the points v[0..n) grown by `grow` plus the slack of `mag`; sets mag and slack. */
static void set_bounds(cl_shape *s, const float (*v)[3], unsigned n, float grow, float tree_mag)
{
    unsigned k, i;
    float mag = tree_mag;
    for (k = 0; k < 3; k++) {
        s->lo[k] = s->hi[k] = v[0][k];
        for (i = 1; i < n; i++) {
            s->lo[k] = geo_min(s->lo[k], v[i][k]);
            s->hi[k] = geo_max(s->hi[k], v[i][k]);
        }
        mag = geo_max(mag, geo_max(copse_fabsf(s->lo[k]), copse_fabsf(s->hi[k])) + grow);
    }
    s->mag = mag;
    s->slack = cl_slack(mag);
    for (k = 0; k < 3; k++) {
        s->lo[k] -= grow + s->slack;
        s->hi[k] += grow + s->slack;
    }
}

static void clear_shape(cl_shape *s)
{
    __builtin_memset(s, 0, sizeof *s);
}

copse_status copse__collide_sphere(cl_shape *s, const copse_sphere *sphere, const copse_pose *pose, float tree_mag)
{
    float c[3];
    copse_status st;
    clear_shape(s);
    if (sphere == NULL)
        return COPSE_ERR_NULL;
    if ((st = copse__collide_frame(pose, &s->frame)) != COPSE_OK)
        return st;
    cl_vec3_in(c, sphere->center);
    if (!finite3(c) || !geo_finite(sphere->radius))
        return COPSE_ERR_NONFINITE;
    if (sphere->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    cl_apply(&s->frame, c, s->v[0]);
    s->radius = sphere->radius;
    set_bounds(s, (const float(*)[3])s->v, 1, s->radius, tree_mag);
    return COPSE_OK;
}

copse_status copse__collide_capsule(cl_shape *s, const copse_capsule *capsule, const copse_pose *pose,
                                    float tree_mag)
{
    float a[3], b[3], d[3];
    copse_status st;
    clear_shape(s);
    if (capsule == NULL)
        return COPSE_ERR_NULL;
    if ((st = copse__collide_frame(pose, &s->frame)) != COPSE_OK)
        return st;
    cl_vec3_in(a, capsule->segment.a);
    cl_vec3_in(b, capsule->segment.b);
    if (!finite3(a) || !finite3(b) || !geo_finite(capsule->radius))
        return COPSE_ERR_NONFINITE;
    if (capsule->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    cl_apply(&s->frame, a, s->v[0]);
    cl_apply(&s->frame, b, s->v[1]);
    s->radius = capsule->radius;
    geo_sub3(d, s->v[1], s->v[0]);
    geo_ray_init(&s->ray, s->v[0], d, 1.0f, 3);
    set_bounds(s, (const float(*)[3])s->v, 2, s->radius, tree_mag);
    return COPSE_OK;
}

/* |r| plus four ulps: keeps the edge axes of nearly parallel edges from separating boxes by
 * rounding alone (their cross product is then close to zero). */
static void abs_rotation(float *ar, const float *r)
{
    unsigned k;
    for (k = 0; k < 9; k++)
        ar[k] = copse_fabsf(r[k]) + 4.0f * FLT_EPSILON;
}

copse_status copse__collide_obb(cl_shape *s, const copse_obb *obb, const copse_pose *pose, float tree_mag)
{
    float c[3], own[9], ext[3];
    copse_status st;
    unsigned i, j, k;
    clear_shape(s);
    if (obb == NULL)
        return COPSE_ERR_NULL;
    if ((st = copse__collide_frame(pose, &s->frame)) != COPSE_OK)
        return st;
    if ((st = copse_obb_check(obb)) != COPSE_OK)
        return st;
    cl_vec3_in(c, obb->center);
    cl_vec3_in(s->h, obb->half);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            own[3 * i + j] = obb->rotation[i][j];
    /* the box's axes in the tree's frame: the pose's rotation after the box's own */
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            s->r[3 * i + j] = s->frame.r[3 * i] * own[j] + s->frame.r[3 * i + 1] * own[3 + j] +
                              s->frame.r[3 * i + 2] * own[6 + j];
    orthonormalize(s->r);
    abs_rotation(s->ar, s->r);
    cl_apply(&s->frame, c, s->c);
    s->mag = tree_mag;
    for (k = 0; k < 3; k++) {
        ext[k] = s->ar[3 * k] * s->h[0] + s->ar[3 * k + 1] * s->h[1] + s->ar[3 * k + 2] * s->h[2];
        s->mag = geo_max(s->mag, copse_fabsf(s->c[k]) + ext[k]);
    }
    s->slack = cl_slack(s->mag);
    for (k = 0; k < 3; k++) {
        s->lo[k] = s->c[k] - (ext[k] + s->slack);
        s->hi[k] = s->c[k] + (ext[k] + s->slack);
    }
    return COPSE_OK;
}

copse_status copse__collide_triangle(cl_shape *s, const copse_triangle *triangle, const copse_pose *pose,
                                     float tree_mag)
{
    float p[3];
    copse_status st;
    clear_shape(s);
    if (triangle == NULL)
        return COPSE_ERR_NULL;
    if ((st = copse__collide_frame(pose, &s->frame)) != COPSE_OK)
        return st;
    cl_vec3_in(p, triangle->a);
    cl_vec3_in(s->v[1], triangle->b);
    cl_vec3_in(s->v[2], triangle->c);
    if (!finite3(p) || !finite3(s->v[1]) || !finite3(s->v[2]))
        return COPSE_ERR_NONFINITE;
    cl_apply(&s->frame, p, s->v[0]);
    cl_vec3_in(p, triangle->b);
    cl_apply(&s->frame, p, s->v[1]);
    cl_vec3_in(p, triangle->c);
    cl_apply(&s->frame, p, s->v[2]);
    set_bounds(s, (const float(*)[3])s->v, 3, 0.0f, tree_mag);
    return COPSE_OK;
}

copse_status copse__collide_convex(cl_shape *s, const copse_convex *convex, const copse_pose *pose, float tree_mag)
{
    copse_status st;
    uint32_t i;
    unsigned k;
    float mag = tree_mag, own = 0.0f;
    clear_shape(s);
    if (convex == NULL || (convex->points == NULL && convex->count > 0u))
        return COPSE_ERR_NULL;
    if ((st = copse__collide_frame(pose, &s->frame)) != COPSE_OK)
        return st;
    if (convex->count == 0u || convex->count > COPSE_CONVEX_MAX_POINTS)
        return COPSE_ERR_PARAM;
    for (i = 0; i < convex->count; i++) {
        float p[3], q[3];
        cl_vec3_in(p, convex->points[i]);
        if (!finite3(p))
            return COPSE_ERR_NONFINITE;
        cl_apply(&s->frame, p, q);
        for (k = 0; k < 3; k++) {
            s->lo[k] = i == 0u ? q[k] : geo_min(s->lo[k], q[k]);
            s->hi[k] = i == 0u ? q[k] : geo_max(s->hi[k], q[k]);
            own = geo_max(own, copse_fabsf(q[k]));
        }
    }
    s->own_mag = own + cl_max_abs3(s->frame.t); /* bounds |R p| and |t| in the local move */
    s->mag = geo_max(mag, own);
    s->slack = cl_slack(mag);
    for (k = 0; k < 3; k++) {
        s->lo[k] -= s->slack;
        s->hi[k] += s->slack;
    }
    s->hull.points = convex->points;
    s->hull.count = convex->count;
    s->hull.rot = s->frame.r;
    s->hull.trans = s->frame.t;
    s->hull.radius = 0.0f;
    return COPSE_OK;
}

/* ---- an axis-aligned box against an oriented box ----------------------------------------------- */

bool copse__collide_sat(const float *m, const float *e, const float *c, const float *h, const float *r,
                        const float *ar, float slack)
{
    float t[3];
    unsigned i, j;
    geo_sub3(t, c, m);
    /* the tree's axes: the cheapest, and they reject most pairs */
    for (j = 0; j < 3; j++)
        if (copse_fabsf(t[j]) > e[j] + (ar[3 * j] * h[0] + ar[3 * j + 1] * h[1] + ar[3 * j + 2] * h[2]) + slack)
            return false;
    /* the oriented box's axes (the columns of r) */
    for (i = 0; i < 3; i++) {
        float ti = r[i] * t[0] + r[3 + i] * t[1] + r[6 + i] * t[2];
        if (copse_fabsf(ti) > h[i] + (ar[i] * e[0] + ar[3 + i] * e[1] + ar[6 + i] * e[2]) + slack)
            return false;
    }
    /* the nine cross products of an axis of each */
    for (j = 0; j < 3; j++) {
        unsigned j1 = j == 2u ? 0u : j + 1u, j2 = j1 == 2u ? 0u : j1 + 1u;
        for (i = 0; i < 3; i++) {
            unsigned i1 = i == 2u ? 0u : i + 1u, i2 = i1 == 2u ? 0u : i1 + 1u;
            float ra = e[j1] * ar[3 * j2 + i] + e[j2] * ar[3 * j1 + i];
            float rb = h[i1] * ar[3 * j + i2] + h[i2] * ar[3 * j + i1];
            if (copse_fabsf(t[j2] * r[3 * j1 + i] - t[j1] * r[3 * j2 + i]) > ra + rb + slack)
                return false;
        }
    }
    return true;
}

COPSE_INLINE bool face_apart(const float *t, const float *e, const float *ext, float slack, unsigned j)
{
    return copse_fabsf(t[j]) > e[j] + ext[j] + slack;
}

COPSE_INLINE bool box_face_apart(const float *t, const float *h, const float *ext, const float *r, float slack,
                                 unsigned i)
{
    return copse_fabsf(r[i] * t[0] + r[3 + i] * t[1] + r[6 + i] * t[2]) > h[i] + ext[i] + slack;
}

bool copse__collide_face_axes(const float *t, const float *e, const float *h, const float *ext_t, const float *ext_o,
                               const float *r, const float *ar, float slack)
{
    float eo[3];
    if (face_apart(t, e, ext_t, slack, 0) || face_apart(t, e, ext_t, slack, 1) || face_apart(t, e, ext_t, slack, 2))
        return false;
    if (ext_o == NULL) {
        cl_ext_oriented(ar, e, eo);
        ext_o = eo;
    }
    return !(box_face_apart(t, h, ext_o, r, slack, 0) || box_face_apart(t, h, ext_o, r, slack, 1) ||
             box_face_apart(t, h, ext_o, r, slack, 2));
}

float copse__collide_box_gap2(const float *m, const float *e, const float *c, const float *h, const float *r,
                              const float *ar)
{
    float t[3], g2a = 0.0f, g2b = 0.0f;
    unsigned i, j;
    geo_sub3(t, c, m);
    for (j = 0; j < 3; j++) {
        float ext = ar[3 * j] * h[0] + ar[3 * j + 1] * h[1] + ar[3 * j + 2] * h[2];
        float g = geo_max(copse_fabsf(t[j]) - e[j] - ext, 0.0f);
        g2a += g * g;
    }
    for (i = 0; i < 3; i++) {
        float ti = r[i] * t[0] + r[3 + i] * t[1] + r[6 + i] * t[2];
        float ext = ar[i] * e[0] + ar[3 + i] * e[1] + ar[6 + i] * e[2];
        float g = geo_max(copse_fabsf(ti) - h[i] - ext, 0.0f);
        g2b += g * g;
    }
    return geo_max(g2a, g2b);
}

/* ---- the distance walks' state ------------------------------------------------------------------- */

static bool found(const cl_best *b)
{
    return b->tree_id != COPSE_NONE || b->shape_id != COPSE_NONE;
}

/* The cut-off from the best so far (or max_distance): a node nearer than this may still hold a
 * better pair, given the errors the query allows. */
static void recompute_cut(cl_best *b)
{
    float s = b->max_distance, allowed, cut;
    if (found(b))
        s = geo_min(s, geo_max(copse_sqrtf(b->d2) - b->radius, 0.0f));
    if (s >= FLT_MAX) {
        b->cut2 = FLT_MAX * 2.0f; /* +inf: nothing is pruned */
        return;
    }
    allowed = geo_max((s - b->abs_err) / (1.0f + b->rel_err), 0.0f);
    cut = allowed + b->radius + b->slack;
    b->cut2 = cut * cut;
}

void copse__collide_distance_empty(copse_distance *out)
{
    if (out == NULL)
        return;
    out->distance = FLT_MAX;
    out->depth = 0.0f;
    out->tree_id = COPSE_NONE;
    out->shape_id = COPSE_NONE;
    out->tree_point = copse_v3(0.0f, 0.0f, 0.0f);
    out->shape_point = out->tree_point;
    out->normal = out->tree_point;
}

copse_status copse__collide_best_init(cl_best *b, const copse_distance_query *query, float radius, float slack)
{
    __builtin_memset(b, 0, sizeof *b);
    b->d2 = FLT_MAX;
    b->tree_id = b->shape_id = COPSE_NONE;
    b->radius = radius;
    b->slack = slack;
    b->max_distance = FLT_MAX;
    if (query != NULL) {
        if (query->max_distance != query->max_distance || query->abs_err != query->abs_err ||
            query->rel_err != query->rel_err)
            return COPSE_ERR_NONFINITE;
        if (query->max_distance < 0.0f)
            return COPSE_ERR_EMPTY_RANGE;
        if (query->abs_err < 0.0f || query->rel_err < 0.0f)
            return COPSE_ERR_PARAM;
        b->max_distance = query->max_distance;
        b->abs_err = query->abs_err;
        b->rel_err = query->rel_err;
        b->first_within = query->first_within;
    }
    recompute_cut(b);
    return COPSE_OK;
}

void copse__collide_best_offer(cl_best *b, float d2, uint32_t tree_id, uint32_t shape_id, const float *ps,
                               const float *pt)
{
    unsigned k;
    if (b->max_distance < FLT_MAX && geo_max(copse_sqrtf(d2) - b->radius, 0.0f) > b->max_distance)
        return;
    if (found(b) && (d2 > b->d2 || (d2 == b->d2 && (tree_id > b->tree_id ||
                                                     (tree_id == b->tree_id && shape_id >= b->shape_id)))))
        return;
    b->d2 = d2;
    b->tree_id = tree_id;
    b->shape_id = shape_id;
    for (k = 0; k < 3; k++) {
        b->ps[k] = ps[k];
        b->pt[k] = pt[k];
    }
    recompute_cut(b);
    /* touching (for spheres and capsules: the core itself) is as near as it gets: the first
     * such pair ends the walk, as a collision check would */
    if (b->first_within || d2 == 0.0f)
        b->done = true;
}

/* The triangle's corners rotated so that the least (by x, then y, then z) comes first: the
 * same winding, and the same arithmetic below for every rotation of the caller's corners. */
static void canonical_rotation(const float *const tri[3], const float *out[3])
{
    unsigned first = 0, k;
    for (k = 1; k < 3; k++) {
        const float *a = tri[k], *b = tri[first];
        if (a[0] < b[0] || (a[0] == b[0] && (a[1] < b[1] || (a[1] == b[1] && a[2] < b[2]))))
            first = k;
    }
    for (k = 0; k < 3; k++)
        out[k] = tri[(first + k) % 3u];
}

/* The unit normal of the triangle's plane (its winding's side), or false for no area. */
static bool face_normal(const float *const tri[3], float *n)
{
    float e1[3], e2[3], len;
    geo_sub3(e1, tri[1], tri[0]);
    geo_sub3(e2, tri[2], tri[0]);
    geo_cross3(n, e1, e2);
    len = copse_sqrtf(geo_dot3(n, n));
    if (!(len > 0.0f) || !geo_finite(len))
        return false;
    n[0] /= len;
    n[1] /= len;
    n[2] /= len;
    return true;
}

/* The penetration depth of the segment [a, b] and a triangle it meets: the least translation
 * that parts them, over the separating axes of the two (the triangle's normal, and the segment
 * crossed with each edge), and in *n (on entry the unit face normal) the direction to move the
 * segment. Ties keep the face normal. */
static float core_depth(const float *a, const float *b, const float *const tri[3], float *n)
{
    float axis[4][3], s[3], best = FLT_MAX, dir[3];
    unsigned i, k, count = 1;
    for (k = 0; k < 3; k++)
        axis[0][k] = dir[k] = n[k];
    geo_sub3(s, b, a);
    for (i = 0; i < 3; i++) {
        float e[3], len;
        geo_sub3(e, tri[i == 2u ? 0u : i + 1u], tri[i]);
        geo_cross3(axis[count], s, e);
        len = copse_sqrtf(geo_dot3(axis[count], axis[count]));
        if (len > 0.0f && geo_finite(len)) {
            for (k = 0; k < 3; k++)
                axis[count][k] /= len;
            count++;
        }
    }
    for (i = 0; i < count; i++) {
        const float *u = axis[i];
        float sa = geo_dot3(a, u), sb = geo_dot3(b, u), t0 = geo_dot3(tri[0], u);
        float t1 = geo_dot3(tri[1], u), t2 = geo_dot3(tri[2], u);
        float s_lo = geo_min(sa, sb), s_hi = geo_max(sa, sb);
        float t_lo = geo_min(t0, geo_min(t1, t2)), t_hi = geo_max(t0, geo_max(t1, t2));
        float up = t_hi - s_lo, down = s_hi - t_lo; /* move along +u, along -u */
        if (up < best) {
            best = up;
            for (k = 0; k < 3; k++)
                dir[k] = u[k];
        }
        if (down < best) {
            best = down;
            for (k = 0; k < 3; k++)
                dir[k] = -u[k];
        }
    }
    for (k = 0; k < 3; k++)
        n[k] = dir[k];
    return geo_max(best, 0.0f);
}

void copse__collide_best_finish(const cl_best *b, const cl_shape *s, cl_kind kind, const float *const tri[3],
                                copse_distance *out)
{
    float d, n[3] = { 0.0f, 0.0f, 0.0f }, sp[3];
    unsigned k;
    copse__collide_distance_empty(out);
    if (!found(b))
        return;
    d = copse_sqrtf(b->d2);
    out->tree_id = b->tree_id;
    out->shape_id = b->shape_id;
    out->tree_point = cl_vec3_out(b->pt);
    if (d > 0.0f)
        for (k = 0; k < 3; k++)
            n[k] = (b->ps[k] - b->pt[k]) / d;
    if (kind == CL_SPHERE || kind == CL_CAPSULE) {
        float depth = geo_max(s->radius - d, 0.0f);
        const float *ct[3];
        if (tri != NULL)
            canonical_rotation(tri, ct);
        if (d == 0.0f && tri != NULL && face_normal(ct, n)) {
            /* the core touches the triangle: the least translation that parts the core from it
             * (its penetration depth) plus the radius; continuous with radius - d as d -> 0 */
            const float *deepest = s->v[0];
            float pd = 0.0f;
            if (kind == CL_CAPSULE) {
                pd = core_depth(s->v[0], s->v[1], ct, n);
                deepest = geo_dot3(s->v[0], n) <= geo_dot3(s->v[1], n) ? s->v[0] : s->v[1];
            } else {
                float rel[3]; /* a centre on the plane: the winding's side */
                geo_sub3(rel, s->v[0], b->pt);
                if (geo_dot3(rel, n) < 0.0f)
                    for (k = 0; k < 3; k++)
                        n[k] = -n[k];
            }
            depth = s->radius + pd;
            for (k = 0; k < 3; k++)
                sp[k] = deepest[k] - n[k] * s->radius;
        } else {
            for (k = 0; k < 3; k++)
                sp[k] = b->ps[k] - n[k] * s->radius;
        }
        out->distance = geo_max(d - s->radius, 0.0f);
        out->depth = depth;
        out->shape_point = cl_vec3_out(sp);
    } else {
        out->distance = d;
        out->shape_point = cl_vec3_out(b->ps);
    }
    out->normal = cl_vec3_out(n);
}

/* ---- trees ------------------------------------------------------------------------------------------ */

copse_status copse__collide_mesh_tree(const copse_bvh *tree)
{
    if (tree == NULL)
        return COPSE_ERR_NULL;
    if (tree->dim == 0u || tree->node_count == 0u)
        return COPSE_OK; /* empty: nothing to find */
    if (tree->dim != 3u)
        return COPSE_ERR_DIMENSION;
    if (tree->kind != COPSE_BVH_PRIM_TRIANGLES)
        return COPSE_ERR_KIND;
    if (tree->depth > COPSE_BVH_MAX_DEPTH)
        return COPSE_ERR_TOO_DEEP;
    return COPSE_OK;
}

float copse__collide_bvh_mag(const copse_bvh *tree)
{
    if (tree == NULL || tree->node_count == 0u || tree->dim != 3u)
        return 0.0f;
    return geo_max(cl_max_abs3(bvh_node_min(tree->nodes, 0, 3)), cl_max_abs3(bvh_node_max(tree->nodes, 0, 3)));
}

float copse__collide_octree_mag(const copse_octree *tree)
{
    if (tree == NULL || tree->nodes == NULL || tree->size == 0u)
        return 0.0f;
    return geo_max(cl_max_abs3(tree->nodes[0].min), cl_max_abs3(tree->nodes[0].max));
}

bool copse__collide_keep_first(void *user, uint32_t id)
{
    *(uint32_t *)user = id;
    return false;
}

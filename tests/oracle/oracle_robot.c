/* SPDX-License-Identifier: MIT */
/* Brute force for robots (oracle_robot.h): double FK and every primitive pair. */
#include "oracle/oracle_robot.h"

#include <math.h>

#include "oracle/oracle_closest.h"

/* ---- kinematics -------------------------------------------------------------------------------- */

static bool moving(const orb_joint *j)
{
    return j->type != 0u;
}

int orb_joint_variable(const orb_robot *r, unsigned j)
{
    unsigned i;
    int v = 0;
    for (i = 0; i < r->joint_count; i++) {
        bool var = moving(&r->joints[i]) && r->joints[i].mimic < 0;
        if (i == j)
            return var ? v : -1;
        if (var)
            v++;
    }
    return -1;
}

unsigned orb_dof(const orb_robot *r)
{
    unsigned i, n = 0;
    for (i = 0; i < r->joint_count; i++)
        if (moving(&r->joints[i]) && r->joints[i].mimic < 0)
            n++;
    return n;
}

double orb_joint_value(const orb_robot *r, const double *q, unsigned j)
{
    const orb_joint *jt = &r->joints[j];
    int v;
    if (!moving(jt))
        return 0.0;
    if (jt->mimic >= 0) {
        v = orb_joint_variable(r, (unsigned)jt->mimic);
        return jt->multiplier * (v >= 0 ? q[v] : 0.0) + jt->offset;
    }
    v = orb_joint_variable(r, j);
    return v >= 0 ? q[v] : 0.0;
}

unsigned orb_root(const orb_robot *r)
{
    unsigned l, j;
    for (l = 0; l < r->link_count; l++) {
        bool child = false;
        for (j = 0; j < r->joint_count; j++)
            if (r->joints[j].child == l)
                child = true;
        if (!child)
            return l;
    }
    return r->link_count;
}

static void rot_rpy(double m[3][3], const double *rpy)
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    m[0][0] = cy * cp;
    m[0][1] = cy * sp * sr - sy * cr;
    m[0][2] = cy * sp * cr + sy * sr;
    m[1][0] = sy * cp;
    m[1][1] = sy * sp * sr + cy * cr;
    m[1][2] = sy * sp * cr - cy * sr;
    m[2][0] = -sp;
    m[2][1] = cp * sr;
    m[2][2] = cp * cr;
}

static void unit(double *u, const double *a)
{
    double l = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    u[0] = a[0] / l;
    u[1] = a[1] / l;
    u[2] = a[2] / l;
}

static void rot_axis(double m[3][3], const double *axis, double a)
{
    double u[3], c = cos(a), s = sin(a), t;
    unit(u, axis);
    t = 1.0 - c;
    m[0][0] = t * u[0] * u[0] + c;
    m[0][1] = t * u[0] * u[1] - s * u[2];
    m[0][2] = t * u[0] * u[2] + s * u[1];
    m[1][0] = t * u[0] * u[1] + s * u[2];
    m[1][1] = t * u[1] * u[1] + c;
    m[1][2] = t * u[1] * u[2] - s * u[0];
    m[2][0] = t * u[0] * u[2] - s * u[1];
    m[2][1] = t * u[1] * u[2] + s * u[0];
    m[2][2] = t * u[2] * u[2] + c;
}

bool orb_fk(const orb_robot *r, const double *q, const orcc_pose *base, orcc_pose *poses)
{
    uint64_t placed = 0;
    unsigned root = orb_root(r), pass, j, k;
    if (root >= r->link_count || r->link_count > ORB_MAX_LINKS)
        return false;
    if (base)
        poses[root] = *base;
    else
        orcc_pose_identity(&poses[root]);
    placed = (uint64_t)1u << root;
    for (pass = 0; pass < r->joint_count; pass++) {
        bool progress = false;
        for (j = 0; j < r->joint_count; j++) {
            const orb_joint *jt = &r->joints[j];
            orcc_pose origin, motion;
            double v;
            if (!((placed >> jt->parent) & 1u) || ((placed >> jt->child) & 1u))
                continue;
            rot_rpy(origin.r, jt->rpy);
            for (k = 0; k < 3; k++)
                origin.t[k] = jt->xyz[k];
            orcc_pose_identity(&motion);
            v = orb_joint_value(r, q, j);
            if (jt->type == 1u || jt->type == 2u)
                rot_axis(motion.r, jt->axis, v);
            else if (jt->type == 3u) {
                double u[3];
                unit(u, jt->axis);
                for (k = 0; k < 3; k++)
                    motion.t[k] = u[k] * v;
            }
            orcc_pose_compose(&origin, &origin, &motion);
            orcc_pose_compose(&poses[jt->child], &poses[jt->parent], &origin);
            placed |= (uint64_t)1u << jt->child;
            progress = true;
        }
        if (!progress)
            break;
    }
    for (k = 0; k < r->link_count; k++)
        if (!((placed >> k) & 1u))
            return false;
    return true;
}

void orb_acm(const orb_robot *r, const unsigned (*pairs)[2], unsigned pair_count, bool check_adjacent,
             uint8_t *allowed)
{
    unsigned n = r->link_count, i;
    for (i = 0; i < n * n; i++)
        allowed[i] = 0;
    for (i = 0; i < n; i++)
        allowed[i * n + i] = 1;
    for (i = 0; i < pair_count; i++) {
        allowed[pairs[i][0] * n + pairs[i][1]] = 1;
        allowed[pairs[i][1] * n + pairs[i][0]] = 1;
    }
    if (!check_adjacent)
        for (i = 0; i < r->joint_count; i++) {
            allowed[r->joints[i].parent * n + r->joints[i].child] = 1;
            allowed[r->joints[i].child * n + r->joints[i].parent] = 1;
        }
}

/* ---- primitives ---------------------------------------------------------------------------------- */

/* n = 1 point, 2 segment, 3 triangle (each grown by r), 4 an oriented box (centre p[0]). */
typedef struct prim {
    unsigned n;
    double p[3][3];
    double r;
    double half[3], rot[3][3];
    double c[3], br; /* a ball that holds it */
    unsigned id, shape;
} prim;

static void set3(double *o, const double *a)
{
    o[0] = a[0];
    o[1] = a[1];
    o[2] = a[2];
}

static void ball(prim *p)
{
    unsigned i;
    double m = 0.0;
    if (p->n == 4u) {
        set3(p->c, p->p[0]);
        p->br = orc_len(p->half);
        return;
    }
    p->c[0] = p->c[1] = p->c[2] = 0.0;
    for (i = 0; i < p->n; i++) {
        p->c[0] += p->p[i][0] / p->n;
        p->c[1] += p->p[i][1] / p->n;
        p->c[2] += p->p[i][2] / p->n;
    }
    for (i = 0; i < p->n; i++) {
        double d = orc_dist(p->c, p->p[i]);
        if (d > m)
            m = d;
    }
    p->br = m * (1.0 + 1e-12) + p->r;
}

static void float_vertex(double *out, const float *pos, const uint32_t *idx, unsigned t, unsigned k)
{
    uint32_t v = idx ? idx[3u * t + k] : 3u * t + k;
    out[0] = (double)pos[3u * v];
    out[1] = (double)pos[3u * v + 1u];
    out[2] = (double)pos[3u * v + 2u];
}

static void posed_triangle(prim *p, const float *pos, const uint32_t *idx, unsigned t, const orcc_pose *pose)
{
    unsigned k;
    double v[3];
    p->n = 3u;
    p->r = 0.0;
    for (k = 0; k < 3; k++) {
        float_vertex(v, pos, idx, t, k);
        orcc_pose_apply(pose, v, p->p[k]);
    }
}

unsigned orb_prim_count(const orb_scene *s, const orb_side *side)
{
    switch (side->kind) {
    case ORB_LINK: {
        const orb_link *l = &s->robot->links[side->index];
        return l->triangle_count + l->sphere_count + l->capsule_count;
    }
    case ORB_MESH:
        return s->world->meshes[side->index].triangle_count;
    case ORB_SCAN:
        return s->world->point_count;
    default:
        return 1u;
    }
}

/* The side's primitive i, false when the side does not include it. */
static bool side_prim(const orb_scene *s, const orb_side *side, unsigned i, prim *p)
{
    unsigned k;
    p->shape = 0u;
    switch (side->kind) {
    case ORB_LINK: {
        const orb_link *l = &s->robot->links[side->index];
        const orcc_pose *pose = &s->poses[side->index];
        bool tri = i < l->triangle_count;
        if (side->prim == ORB_ANY) {
            if (s->robot->geometry == ORB_GEOM_MESH_ELSE_SHAPES && !tri && l->triangle_count > 0u)
                return false;
        } else if (side->prim == ORB_SHAPES) {
            if (tri)
                return false;
        } else if (i != side->prim)
            return false;
        if (tri) {
            posed_triangle(p, l->positions, l->indices, i, pose);
            p->id = i;
        } else {
            unsigned j = i - l->triangle_count;
            p->id = ORB_SHAPES;
            p->shape = j;
            if (j < l->sphere_count) {
                p->n = 1u;
                orcc_pose_apply(pose, l->spheres + 4u * j, p->p[0]);
                p->r = l->spheres[4u * j + 3u];
            } else {
                j -= l->sphere_count;
                p->n = 2u;
                orcc_pose_apply(pose, l->capsules + 7u * j, p->p[0]);
                orcc_pose_apply(pose, l->capsules + 7u * j + 3u, p->p[1]);
                p->r = l->capsules[7u * j + 6u];
            }
        }
        break;
    }
    case ORB_MESH: {
        const orb_mesh *m = &s->world->meshes[side->index];
        if (side->prim != ORB_ANY && side->prim != i)
            return false;
        posed_triangle(p, m->positions, m->indices, i, &m->pose);
        p->id = i;
        break;
    }
    case ORB_SCAN:
        if (side->prim != ORB_ANY && side->prim != i)
            return false;
        p->n = 1u;
        p->r = 0.0;
        for (k = 0; k < 3; k++)
            p->p[0][k] = (double)s->world->points[3u * i + k];
        p->id = i;
        break;
    case ORB_OBJECT: {
        const orb_object *o = &s->world->objects[side->index];
        set3(p->p[0], o->center);
        p->id = ORB_SHAPES;
        if (o->kind == 1u) {
            p->n = 1u;
            p->r = o->radius;
        } else {
            p->n = 4u;
            p->r = 0.0;
            set3(p->half, o->half);
            for (k = 0; k < 3; k++)
                set3(p->rot[k], o->rotation[k]);
        }
        break;
    }
    default:
        p->n = 1u;
        p->r = 0.0;
        set3(p->p[0], side->point);
        p->id = ORB_SHAPES;
        break;
    }
    ball(p);
    return true;
}

bool orb_side_empty(const orb_scene *s, const orb_side *side)
{
    unsigned i, n = orb_prim_count(s, side);
    prim p;
    for (i = 0; i < n; i++)
        if (side_prim(s, side, i, &p))
            return false;
    return true;
}

/* into / out of a box's frame */
static void to_box(const prim *b, const double *x, double *out)
{
    double d[3];
    unsigned k;
    orc_sub(d, x, b->p[0]);
    for (k = 0; k < 3; k++)
        out[k] = b->rot[0][k] * d[0] + b->rot[1][k] * d[1] + b->rot[2][k] * d[2];
}

static void from_box(const prim *b, const double *x, double *out)
{
    unsigned k;
    double y[3];
    for (k = 0; k < 3; k++)
        y[k] = b->p[0][k] + b->rot[k][0] * x[0] + b->rot[k][1] * x[1] + b->rot[k][2] * x[2];
    set3(out, y);
}

/* core distance of a box and a point, segment or triangle (in the box's frame inside) */
static double box_core(const prim *b, const prim *o, double *pb, double *po)
{
    double q[3][3], x[3], y[3], best = ORB_INF;
    unsigned i;
    for (i = 0; i < o->n; i++)
        to_box(b, o->p[i], q[i]);
    if (o->n == 3u) {
        best = orcc_box_triangle(b->half, (const double (*)[3])q, x, y);
    } else if (o->n == 1u) {
        best = ocl_point_box(q[0], b->half, x);
        set3(y, q[0]);
    } else {
        /* a segment: an end inside, or its distance to the box's faces (two triangles each) */
        unsigned f;
        for (i = 0; i < 2u; i++)
            if (ocl_point_box(q[i], b->half, x) == 0.0) {
                set3(x, q[i]);
                set3(y, q[i]);
                best = 0.0;
                break;
            }
        for (f = 0; f < 12u && best > 0.0; f++) {
            double tri[3][3], a[3], c[3], d;
            static const double cu[4] = {-1.0, 1.0, 1.0, -1.0}, cv[4] = {-1.0, -1.0, 1.0, 1.0};
            static const unsigned corner[2][3] = {{0u, 1u, 2u}, {0u, 2u, 3u}};
            unsigned axis = f / 4u, side = (f / 2u) & 1u, half = f & 1u, k, u = (axis + 1u) % 3u,
                     v = (axis + 2u) % 3u;
            for (k = 0; k < 3; k++) {
                tri[k][axis] = side ? b->half[axis] : -b->half[axis];
                tri[k][u] = cu[corner[half][k]] * b->half[u];
                tri[k][v] = cv[corner[half][k]] * b->half[v];
            }
            d = orcc_segment_triangle(q[0], q[1], (const double (*)[3])tri, a, c);
            if (d < best) {
                best = d;
                set3(y, a);
                set3(x, c);
            }
        }
    }
    from_box(b, x, pb);
    from_box(b, y, po);
    return best;
}

static double core(const prim *a, const prim *b, double *pa, double *pb)
{
    const double(*ta)[3] = (const double(*)[3])a->p;
    const double(*tb)[3] = (const double(*)[3])b->p;
    if (a->n == 4u)
        return box_core(a, b, pa, pb);
    if (b->n == 4u)
        return box_core(b, a, pb, pa);
    if (a->n > b->n)
        return core(b, a, pb, pa);
    if (a->n == 1u) {
        set3(pa, a->p[0]);
        if (b->n == 1u) {
            set3(pb, b->p[0]);
            return orc_dist(pa, pb);
        }
        if (b->n == 2u)
            return orc_closest_segment(a->p[0], b->p[0], b->p[1], pb);
        return orc_closest_triangle(a->p[0], b->p[0], b->p[1], b->p[2], pb);
    }
    if (a->n == 2u) {
        if (b->n == 2u)
            return orcc_segment_segment(a->p[0], a->p[1], b->p[0], b->p[1], pa, pb);
        return orcc_segment_triangle(a->p[0], a->p[1], tb, pa, pb);
    }
    return orcc_triangle_triangle(ta, tb, pa, pb);
}

/* distance of the grown primitives, points on their surfaces (a shared one when they meet) */
static double prim_distance(const prim *a, const prim *b, double *pa, double *pb)
{
    double x[3], y[3], c = core(a, b, x, y), rs = a->r + b->r, d[3];
    unsigned k;
    orc_sub(d, y, x);
    if (c > rs) {
        for (k = 0; k < 3; k++) {
            pa[k] = x[k] + d[k] * (a->r / c);
            pb[k] = y[k] - d[k] * (b->r / c);
        }
        return c - rs;
    }
    for (k = 0; k < 3; k++)
        pa[k] = pb[k] = rs > 0.0 ? x[k] + d[k] * (a->r / rs) : x[k];
    return 0.0;
}

double orb_distance(const orb_scene *s, const orb_side *a, const orb_side *b, double cutoff, orb_near *near)
{
    unsigned na = orb_prim_count(s, a), nb = orb_prim_count(s, b), i, j;
    double best = cutoff;
    bool found = false;
    double bc[3] = {0.0, 0.0, 0.0}, br = 0.0, lo[3], hi[3];
    unsigned k, used = 0;
    prim pa, pb;
    /* a ball around all of b: a's primitives far from it skip the inner loop */
    for (j = 0; j < nb; j++) {
        if (!side_prim(s, b, j, &pb))
            continue;
        for (k = 0; k < 3; k++) {
            if (used == 0u || pb.c[k] - pb.br < lo[k])
                lo[k] = pb.c[k] - pb.br;
            if (used == 0u || pb.c[k] + pb.br > hi[k])
                hi[k] = pb.c[k] + pb.br;
        }
        used++;
    }
    if (used == 0u)
        return ORB_INF;
    for (k = 0; k < 3; k++) {
        bc[k] = 0.5 * (lo[k] + hi[k]);
        br += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    br = 0.5 * sqrt(br) * (1.0 + 1e-12);
    for (i = 0; i < na; i++) {
        if (!side_prim(s, a, i, &pa))
            continue;
        if (orc_dist(pa.c, bc) - pa.br - br > best * (1.0 + 1e-9) + 1e-300)
            continue;
        for (j = 0; j < nb; j++) {
            double x[3], y[3], d;
            if (!side_prim(s, b, j, &pb))
                continue;
            if (orc_dist(pa.c, pb.c) - pa.br - pb.br > best * (1.0 + 1e-9) + 1e-300)
                continue;
            d = prim_distance(&pa, &pb, x, y);
            if (found ? d < best : d <= best) {
                found = true;
                best = d;
                if (near) {
                    near->distance = d;
                    near->a_prim = pa.id;
                    near->b_prim = pb.id;
                    near->a_shape = pa.shape;
                    near->b_shape = pb.shape;
                    set3(near->a_point, x);
                    set3(near->b_point, y);
                }
            }
        }
    }
    return found ? best : ORB_INF;
}

double orb_padding(const orb_scene *s, const orb_side *side)
{
    if (side->kind == ORB_LINK)
        return s->robot->links[side->index].padding;
    if (side->kind == ORB_SCAN)
        return s->world->scan_padding;
    return 0.0;
}

/* ---- the robot's checks -------------------------------------------------------------------------- */

static bool link_empty(const orb_scene *s, unsigned l)
{
    orb_side side = orb_side_make(ORB_LINK, l, ORB_ANY);
    return orb_side_empty(s, &side);
}

unsigned orb_pairs(const orb_scene *s, unsigned flags, orb_pair *out, unsigned cap)
{
    unsigned n = 0, l, k, nl = s->robot->link_count;
    for (l = 0; l < nl; l++) {
        if (link_empty(s, l))
            continue;
        if (flags & ORB_WORLD) {
            for (k = 0; k < s->world->mesh_count; k++, n++)
                if (n < cap)
                    out[n].link = l, out[n].kind = ORB_MESH, out[n].other = k;
            for (k = 0; k < s->world->object_count; k++, n++)
                if (n < cap)
                    out[n].link = l, out[n].kind = ORB_OBJECT, out[n].other = k;
            if (s->world->point_count > 0u) {
                if (n < cap)
                    out[n].link = l, out[n].kind = ORB_SCAN, out[n].other = 0;
                n++;
            }
        }
    }
    if (flags & ORB_SELF)
        for (l = 0; l < nl; l++) {
            if (link_empty(s, l))
                continue;
            for (k = l + 1u; k < nl; k++) {
                if (s->robot->allowed[l * nl + k] || link_empty(s, k))
                    continue;
                if (n < cap)
                    out[n].link = l, out[n].kind = ORB_LINK, out[n].other = k;
                n++;
            }
        }
    return n;
}

static double pair_pads(const orb_scene *s, const orb_pair *p, orb_side *a, orb_side *b)
{
    *a = orb_side_make(ORB_LINK, p->link, ORB_ANY);
    *b = orb_side_make(p->kind, p->other, ORB_ANY);
    return orb_padding(s, a) + orb_padding(s, b);
}

double orb_pair_distance(const orb_scene *s, const orb_pair *p, double cutoff, orb_near *near)
{
    orb_side a, b;
    double pads = pair_pads(s, p, &a, &b), d = orb_distance(s, &a, &b, cutoff + pads, near);
    return d == ORB_INF ? d : d - pads;
}

orc_verdict orb_pair_verdict(const orb_scene *s, const orb_pair *p, double band)
{
    double d = orb_pair_distance(s, p, band, (orb_near *)0);
    if (d == ORB_INF)
        return ORC_NO;
    if (d <= -band)
        return ORC_YES;
    return d <= 0.0 ? ORC_EDGE_YES : ORC_EDGE_NO;
}

void orb_link_distances(const orb_scene *s, unsigned link, unsigned flags, double cutoff, orb_link_near *out)
{
    orb_pair p;
    orb_near nr;
    unsigned k, nl = s->robot->link_count;
    out->world = out->self = ORB_INF;
    out->world_kind = 0u;
    out->world_other = out->self_other = 0xFFFFFFFFu;
    if (link_empty(s, link))
        return;
    p.link = link;
    if (flags & ORB_WORLD) {
        unsigned kinds[3] = {ORB_MESH, ORB_OBJECT, ORB_SCAN}, ki;
        for (ki = 0; ki < 3u; ki++) {
            unsigned count = kinds[ki] == ORB_MESH ? s->world->mesh_count
                             : kinds[ki] == ORB_SCAN ? (s->world->point_count > 0u ? 1u : 0u)
                                                     : s->world->object_count;
            for (k = 0; k < count; k++) {
                double d;
                p.kind = kinds[ki];
                p.other = k;
                d = orb_pair_distance(s, &p, out->world < cutoff ? out->world : cutoff, &nr);
                if (d < out->world || (d == out->world && d != ORB_INF && out->world_other == 0xFFFFFFFFu)) {
                    out->world = d;
                    out->world_kind = p.kind;
                    out->world_other = k;
                    out->world_near = nr;
                }
            }
        }
    }
    if (flags & ORB_SELF)
        for (k = 0; k < nl; k++) {
            double d;
            if (k == link || s->robot->allowed[link * nl + k] || link_empty(s, k))
                continue;
            p.kind = ORB_LINK;
            p.other = k;
            d = orb_pair_distance(s, &p, out->self < cutoff ? out->self : cutoff, &nr);
            if (d < out->self || (d == out->self && d != ORB_INF && out->self_other == 0xFFFFFFFFu)) {
                out->self = d;
                out->self_other = k;
                out->self_near = nr;
            }
        }
}

double orb_scene_magnitude(const orb_scene *s)
{
    double m = 0.0, x;
    unsigned i, j, k, l;
    prim p;
    for (l = 0; l < s->robot->link_count; l++) {
        orb_side side = orb_side_make(ORB_LINK, l, ORB_ANY);
        unsigned n = orb_prim_count(s, &side);
        for (i = 0; i < n; i++) {
            side.prim = ORB_ANY;
            if (!side_prim(s, &side, i, &p)) {
                side.prim = i; /* shapes too: they are posed coordinates the library sees */
                (void)side_prim(s, &side, i, &p);
            }
            x = orc_max_abs(p.c) + p.br;
            if (x > m)
                m = x;
        }
    }
    for (j = 0; j < s->world->mesh_count; j++)
        for (k = 0; k < s->world->meshes[j].triangle_count; k++) {
            orb_side side = orb_side_make(ORB_MESH, j, ORB_ANY);
            (void)side_prim(s, &side, k, &p);
            x = orc_max_abs(p.c) + p.br;
            if (x > m)
                m = x;
        }
    for (k = 0; k < s->world->point_count; k++)
        for (j = 0; j < 3; j++) {
            x = fabs((double)s->world->points[3u * k + j]);
            if (x > m)
                m = x;
        }
    for (k = 0; k < s->world->object_count; k++) {
        const orb_object *o = &s->world->objects[k];
        x = orc_max_abs(o->center) + (o->kind == 1u ? o->radius : orc_len(o->half));
        if (x > m)
            m = x;
    }
    return m;
}

/* SPDX-License-Identifier: MIT */
/*
 * Brushes: the helpers that make them, and what the 3D builder learns about each one before
 * it cuts anything (unit planes, corners, bevels, how far an expanded brush reaches).
 *
 * A brush that encloses no finite region is found first, from its normals alone (bounded()).
 * Corners then come from every triple of planes, intersected in double and kept when they lie
 * behind every plane. A convex polyhedron with F faces has at most 2F - 4 corners, which sizes
 * their storage from the plane counts alone.
 */
#include "bsp3_internal.h"

copse_status copse_brush_from_box(const copse_box3 *box, copse_plane planes[6])
{
    unsigned a;
    if (box == NULL || planes == NULL)
        return COPSE_ERR_NULL;
    if (!bsp_finite3(&box->min) || !bsp_finite3(&box->max))
        return COPSE_ERR_NONFINITE;
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
        return COPSE_ERR_PARAM;
    if (box->min.x == box->max.x || box->min.y == box->max.y || box->min.z == box->max.z)
        return COPSE_ERR_DEGENERATE;
    for (a = 0; a < 3; a++) {
        const float lo = a == 0 ? box->min.x : (a == 1 ? box->min.y : box->min.z);
        const float hi = a == 0 ? box->max.x : (a == 1 ? box->max.y : box->max.z);
        copse_plane *neg = &planes[2u * a], *pos = &planes[2u * a + 1u];
        neg->normal = copse_v3(a == 0 ? -1.0f : 0.0f, a == 1 ? -1.0f : 0.0f, a == 2 ? -1.0f : 0.0f);
        neg->dist = -lo;
        pos->normal = copse_v3(a == 0 ? 1.0f : 0.0f, a == 1 ? 1.0f : 0.0f, a == 2 ? 1.0f : 0.0f);
        pos->dist = hi;
    }
    return COPSE_OK;
}

copse_status copse_brush_from_polygon(const copse_vec2 *corners, uint32_t count, float z0, float z1,
                                      copse_plane *planes, uint32_t capacity, uint32_t *plane_count)
{
    uint32_t i;
    int winding = 0;
    if (plane_count != NULL)
        *plane_count = 0;
    if (corners == NULL || planes == NULL || plane_count == NULL)
        return COPSE_ERR_NULL;
    if (count < 3u || count > COPSE_BSP3_MAX_SIDES - 2u)
        return count < 3u ? COPSE_ERR_PARAM : COPSE_ERR_TOO_LARGE;
    if (!geo_finite(z0) || !geo_finite(z1))
        return COPSE_ERR_NONFINITE;
    for (i = 0; i < count; i++)
        if (!bsp_finite2(&corners[i]))
            return COPSE_ERR_NONFINITE;
    if (!(z0 < z1))
        return z0 == z1 ? COPSE_ERR_DEGENERATE : COPSE_ERR_PARAM;
    /* convex: every turn the same way (in double: the sign is exact for float inputs) */
    for (i = 0; i < count; i++) {
        const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count], *r = &corners[(i + 2u) % count];
        double cross = ((double)q->x - (double)p->x) * ((double)r->y - (double)q->y) -
                       ((double)q->y - (double)p->y) * ((double)r->x - (double)q->x);
        int s = cross > 0.0 ? 1 : (cross < 0.0 ? -1 : 0);
        if (s == 0)
            return COPSE_ERR_DEGENERATE; /* a repeated or collinear corner */
        if (winding != 0 && s != winding)
            return COPSE_ERR_NONCONVEX;
        winding = s;
    }
    /* a star polygon turns one way at every corner but winds round twice: the edges' y
     * direction then changes sign four times instead of twice */
    {
        uint32_t changes = 0;
        int first = 0, last = 0;
        for (i = 0; i < count; i++) {
            const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count];
            int s = q->y > p->y ? 1 : (q->y < p->y ? -1 : 0);
            if (s == 0)
                continue;
            if (last != 0 && s != last)
                changes++;
            first = first == 0 ? s : first;
            last = s;
        }
        changes += last != first;
        if (changes != 2u)
            return COPSE_ERR_NONCONVEX;
    }
    if (capacity < count + 2u)
        return COPSE_ERR_NOMEM;
    for (i = 0; i < count; i++) {
        const copse_vec2 *p = &corners[i], *q = &corners[(i + 1u) % count];
        /* outward normal of edge p -> q: right of the edge for counter-clockwise corners */
        float nx = winding > 0 ? q->y - p->y : p->y - q->y;
        float ny = winding > 0 ? p->x - q->x : q->x - p->x;
        planes[i].normal = copse_v3(nx, ny, 0.0f);
        planes[i].dist = nx * p->x + ny * p->y;
        if (!geo_finite(planes[i].dist) || !geo_finite(nx) || !geo_finite(ny))
            return COPSE_ERR_NONFINITE; /* corners too far apart for float */
    }
    planes[count].normal = copse_v3(0.0f, 0.0f, -1.0f);
    planes[count].dist = -z0;
    planes[count + 1u].normal = copse_v3(0.0f, 0.0f, 1.0f);
    planes[count + 1u].dist = z1;
    *plane_count = count + 2u;
    return COPSE_OK;
}

/* ---- what the builder learns about a brush -------------------------------------------------- */

bool copse_bsp3_needs_bevel(const copse_brush *in, unsigned k)
{
    const unsigned axis = k / 2u;
    const float sign = (k & 1u) ? -1.0f : 1.0f;
    uint32_t j;
    for (j = 0; j < in->plane_count; j++) {
        const copse_vec3 *n = &in->planes[j].normal;
        if (bsp3_at(n, axis) * sign > 0.0f && bsp3_at(n, (axis + 1u) % 3u) == 0.0f &&
            bsp3_at(n, (axis + 2u) % 3u) == 0.0f)
            return false;
    }
    return true;
}

uint32_t copse_bsp3_bevel_count(const copse_brush *in)
{
    uint32_t k, count = 0;
    for (k = 0; k < 6; k++)
        count += copse_bsp3_needs_bevel(in, k);
    return count;
}

copse_status copse_bsp3_check_input(const copse_brush *brushes, uint32_t count, const copse_bsp3_params *params)
{
    uint32_t i, k;
    if (params == NULL || (brushes == NULL && count > 0))
        return COPSE_ERR_NULL;
    if (params->max_depth < 1u || params->max_depth > COPSE_BSP_MAX_DEPTH || params->split_weight > 1000u)
        return COPSE_ERR_PARAM;
    if (count > COPSE_BSP_MAX_OBJECTS)
        return COPSE_ERR_TOO_LARGE;
    for (i = 0; i < count; i++) {
        const copse_brush *b = &brushes[i];
        if (b->planes == NULL && b->plane_count > 0)
            return COPSE_ERR_NULL;
        if (b->plane_count > COPSE_BSP3_MAX_SIDES)
            return COPSE_ERR_TOO_LARGE;
        if (b->plane_count < 4u)
            return COPSE_ERR_UNBOUNDED; /* fewer than four half-spaces never enclose a volume */
        for (k = 0; k < b->plane_count; k++) {
            const copse_plane *p = &b->planes[k];
            if (!bsp_finite3(&p->normal) || !geo_finite(p->dist))
                return COPSE_ERR_NONFINITE;
            if (p->normal.x == 0.0f && p->normal.y == 0.0f && p->normal.z == 0.0f)
                return COPSE_ERR_PARAM;
        }
    }
    return COPSE_OK;
}

/* A unit plane from the caller's: normal and distance divided by the normal's length, in
 * double and rounded once (the same bytes on every target). Axial normals stay exactly axial. */
void copse_bsp3_unit_plane(const copse_plane *in, copse_plane *out)
{
    double n[3], m = 0.0, len2 = 0.0, r, s;
    unsigned k, zeros = 0;
    n[0] = (double)in->normal.x;
    n[1] = (double)in->normal.y;
    n[2] = (double)in->normal.z;
    for (k = 0; k < 3; k++) {
        double a = n[k] < 0.0 ? -n[k] : n[k];
        m = a > m ? a : m;
        zeros += n[k] == 0.0;
    }
    for (k = 0; k < 3; k++)
        len2 += (n[k] / m) * (n[k] / m); /* in [1, 3]: no overflow for any float normal */
    r = (double)copse_sqrtf((float)len2);
    r = 0.5 * (r + len2 / r); /* one Newton step: double precision */
    s = 1.0 / (r * m);
    if (zeros == 2u)
        s = 1.0 / m; /* exactly axial */
    out->normal.x = (float)(n[0] * s);
    out->normal.y = (float)(n[1] * s);
    out->normal.z = (float)(n[2] * s);
    out->dist = (float)((double)in->dist * s);
}

COPSE_INLINE double dot_pd(const copse_plane *p, const double *v)
{
    return (double)p->normal.x * v[0] + (double)p->normal.y * v[1] + (double)p->normal.z * v[2];
}

/* The corner of planes a, b, c (unit normals), or false when they meet in no single point. */
static bool corner(const copse_plane *a, const copse_plane *b, const copse_plane *c, double *v)
{
    double na[3], nb[3], nc[3], bc[3], ca[3], ab[3], det;
    unsigned k;
    na[0] = (double)a->normal.x, na[1] = (double)a->normal.y, na[2] = (double)a->normal.z;
    nb[0] = (double)b->normal.x, nb[1] = (double)b->normal.y, nb[2] = (double)b->normal.z;
    nc[0] = (double)c->normal.x, nc[1] = (double)c->normal.y, nc[2] = (double)c->normal.z;
    bc[0] = nb[1] * nc[2] - nb[2] * nc[1];
    bc[1] = nb[2] * nc[0] - nb[0] * nc[2];
    bc[2] = nb[0] * nc[1] - nb[1] * nc[0];
    ca[0] = nc[1] * na[2] - nc[2] * na[1];
    ca[1] = nc[2] * na[0] - nc[0] * na[2];
    ca[2] = nc[0] * na[1] - nc[1] * na[0];
    ab[0] = na[1] * nb[2] - na[2] * nb[1];
    ab[1] = na[2] * nb[0] - na[0] * nb[2];
    ab[2] = na[0] * nb[1] - na[1] * nb[0];
    det = na[0] * bc[0] + na[1] * bc[1] + na[2] * bc[2];
    if (det < 1e-9 && det > -1e-9)
        return false;
    for (k = 0; k < 3; k++)
        v[k] = ((double)a->dist * bc[k] + (double)b->dist * ca[k] + (double)c->dist * ab[k]) / det;
    return true;
}

/* Do the planes enclose a bounded region? Not when some direction u != 0 has n . u <= 0 for
 * every normal (the region recedes along it). Such a cone, when it is not {0}, has an edge
 * along the cross product of two normals (or, when the normals span less than 3D, every cross
 * product lies on its line), so the pairs decide: O(n^3), no LP. */
static bool bounded(const copse_plane *unit, uint32_t n)
{
    uint32_t i, j, k;
    bool any = false;
    for (i = 0; i < n; i++)
        for (j = i + 1u; j < n; j++) {
            const copse_vec3 *a = &unit[i].normal, *b = &unit[j].normal;
            double u[3], len2;
            bool all_le = true, all_ge = true;
            u[0] = (double)a->y * (double)b->z - (double)a->z * (double)b->y;
            u[1] = (double)a->z * (double)b->x - (double)a->x * (double)b->z;
            u[2] = (double)a->x * (double)b->y - (double)a->y * (double)b->x;
            len2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
            if (len2 < 1e-18)
                continue; /* parallel normals */
            any = true;
            for (k = 0; k < n && (all_le || all_ge); k++) {
                double d = (double)unit[k].normal.x * u[0] + (double)unit[k].normal.y * u[1] +
                           (double)unit[k].normal.z * u[2];
                double eps = 1e-9 * (len2 < 1.0 ? 1.0 : len2);
                all_le = all_le && d <= eps;
                all_ge = all_ge && d >= -eps;
            }
            if (all_le || all_ge)
                return false;
        }
    return any; /* all normals parallel: a slab at best */
}

copse_status copse_bsp3_corners(const copse_plane *unit, uint32_t n, float *verts, uint32_t cap, uint32_t *count,
                                float *tol_out)
{
    uint32_t i, j, k, l, nv = 0;
    double scale = 1.0, tol;
    *count = 0;
    *tol_out = 0.0f;
    if (!bounded(unit, n))
        return COPSE_ERR_UNBOUNDED;
    for (i = 0; i < n; i++) {
        double d = unit[i].dist < 0.0f ? -(double)unit[i].dist : (double)unit[i].dist;
        scale = d > scale ? d : scale;
    }
    tol = scale * 1e-6;
    for (i = 0; i < n; i++) {
        for (j = i + 1u; j < n; j++) {
            for (k = j + 1u; k < n; k++) {
                double v[3];
                bool inside = true;
                if (!corner(&unit[i], &unit[j], &unit[k], v))
                    continue;
                for (l = 0; l < n && inside; l++)
                    inside = dot_pd(&unit[l], v) - (double)unit[l].dist <= tol;
                if (!inside)
                    continue;
                {
                    float f[3];
                    uint32_t m;
                    bool dup = false;
                    f[0] = (float)v[0];
                    f[1] = (float)v[1];
                    f[2] = (float)v[2];
                    for (m = 0; m < nv && !dup; m++) {
                        const float *w = verts + 3u * m;
                        double dx = (double)w[0] - v[0], dy = (double)w[1] - v[1], dz = (double)w[2] - v[2];
                        dup = (dx < 0 ? -dx : dx) <= tol && (dy < 0 ? -dy : dy) <= tol && (dz < 0 ? -dz : dz) <= tol;
                    }
                    if (dup)
                        continue;
                    if (!geo_finite(f[0]) || !geo_finite(f[1]) || !geo_finite(f[2]))
                        return COPSE_ERR_UNBOUNDED;
                    if (nv >= cap)
                        return COPSE_ERR_DEGENERATE; /* more corners than a polyhedron has: numerically flat */
                    __builtin_memcpy(verts + 3u * nv, f, sizeof f);
                    nv++;
                }
            }
        }
    }
    *count = nv;
    *tol_out = (float)tol;
    if (nv < 4u)
        return COPSE_ERR_DEGENERATE; /* empty, or a point, a segment or a polygon */
    /* flat: some plane has every corner on it (its opposite side has no room) */
    for (i = 0; i < n; i++) {
        double deepest = 0.0;
        for (j = 0; j < nv; j++) {
            double v[3], d;
            v[0] = (double)verts[3u * j];
            v[1] = (double)verts[3u * j + 1u];
            v[2] = (double)verts[3u * j + 2u];
            d = (double)unit[i].dist - dot_pd(&unit[i], v);
            deepest = d > deepest ? d : deepest;
        }
        if (deepest <= 4.0 * tol)
            return COPSE_ERR_DEGENERATE;
    }
    return COPSE_OK;
}

float copse_bsp3_inflation(const copse_plane *planes, uint32_t n, const float *verts, uint32_t nv, float tol)
{
    double worst = 1.0;
    uint32_t v, i, j, k, l;
    for (v = 0; v < nv; v++) {
        double p[3];
        uint32_t active[COPSE_BSP3_MAX_SIDES + 6u], na = 0;
        p[0] = (double)verts[3u * v];
        p[1] = (double)verts[3u * v + 1u];
        p[2] = (double)verts[3u * v + 2u];
        for (i = 0; i < n; i++) {
            double d = dot_pd(&planes[i], p) - (double)planes[i].dist;
            if (d <= 16.0 * (double)tol && d >= -16.0 * (double)tol)
                active[na++] = i;
        }
        /* the corners of {delta : n . delta <= 1 for the planes at v}: how far v moves when
         * every plane moves out by 1 */
        for (i = 0; i < na; i++)
            for (j = i + 1u; j < na; j++)
                for (k = j + 1u; k < na; k++) {
                    copse_plane a = planes[active[i]], b = planes[active[j]], c = planes[active[k]];
                    double dl[3], len2;
                    bool ok = true;
                    a.dist = b.dist = c.dist = 1.0f;
                    if (!corner(&a, &b, &c, dl))
                        continue;
                    for (l = 0; l < na && ok; l++)
                        ok = dot_pd(&planes[active[l]], dl) <= 1.0 + 1e-6;
                    len2 = dl[0] * dl[0] + dl[1] * dl[1] + dl[2] * dl[2];
                    if (ok && len2 > worst * worst) {
                        float f = copse_sqrtf((float)len2);
                        worst = (double)f * (1.0 + 1e-6);
                    }
                }
    }
    return (float)worst * 1.001f;
}

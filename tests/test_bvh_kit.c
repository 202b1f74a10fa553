/* SPDX-License-Identifier: MIT */
/* The BVH test kit (see test_bvh.h): memory, scenes, query adapters, judges. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "test_bvh.h"

/* ---- memory ---------------------------------------------------------------------------------- */

static uint8_t *g_pool;
static size_t g_pool_cap, g_pool_used;

void tk_pool_reset(void)
{
    size_t bytes;
    uint8_t *p = (uint8_t *)test_memory(&bytes);
    size_t skip = (size_t)((8u - ((uintptr_t)p & 7u)) & 7u);
    g_pool = p + skip;
    g_pool_cap = bytes > skip ? bytes - skip : 0;
    g_pool_used = 0;
}

void *tk_alloc(size_t bytes)
{
    size_t rounded = (bytes + 7u) & ~(size_t)7u;
    void *p;
    if (g_pool == NULL)
        tk_pool_reset();
    if (rounded < bytes || rounded > g_pool_cap - g_pool_used) {
        CHECKF(false, "%s: test memory exhausted (%lu bytes wanted, %lu free)", tk_ctx(), (unsigned long)bytes,
               (unsigned long)(g_pool_cap - g_pool_used));
        return NULL;
    }
    p = g_pool + g_pool_used;
    g_pool_used += rounded;
    return p;
}

size_t tk_mark(void)
{
    return g_pool_used;
}

void tk_rewind(size_t mark)
{
    if (mark <= g_pool_used)
        g_pool_used = mark;
}

size_t tk_free_bytes(void)
{
    if (g_pool == NULL)
        tk_pool_reset();
    return g_pool_cap - g_pool_used;
}

uint32_t tk_large_count(size_t bytes_per_prim, uint32_t host_cap)
{
    const size_t reserve = 1024u; /* the judges' fixed-size buffers */
    size_t free_bytes = tk_free_bytes();
    size_t cap = test_memory_bytes() >= ((size_t)32u << 20) ? host_cap : host_cap / 10u;
    size_t n = free_bytes > reserve ? (free_bytes - reserve) / bytes_per_prim : 0;
    if (n > cap)
        n = cap;
    return (uint32_t)(n < 9u ? 9u : n); /* never smaller than the "small" sizes */
}

/* ---- context and tallies ------------------------------------------------------------------- */

static char g_ctx[80];
static unsigned g_query;     /* the battery's query number, for reproducing a failure */
static unsigned g_described; /* query descriptions printed in this test */
tk_tally tk_tally_now;
static tk_tally g_tally_total;

void tk_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)copse_port_vsnprintf(g_ctx, sizeof g_ctx, fmt, ap);
    va_end(ap);
}

const char *tk_ctx(void)
{
    return g_ctx;
}

void tk_tally_begin(void)
{
    g_described = 0;
    tk_tally_now.comparisons = 0;
    tk_tally_now.excused = 0;
    tk_tally_now.edge_excused = 0;
}

void tk_tally_end(void)
{
    CHECKF(tk_tally_now.excused <= 3u || tk_tally_now.excused * 64u <= tk_tally_now.comparisons,
           "%s: %lu of %lu comparisons needed the boundary band: too many to be rounding", tk_ctx(),
           tk_tally_now.excused, tk_tally_now.comparisons);
    g_tally_total.comparisons += tk_tally_now.comparisons;
    g_tally_total.excused += tk_tally_now.excused;
    g_tally_total.edge_excused += tk_tally_now.edge_excused;
}

void tk_tally_report(const char *suite)
{
    copse_port_printf("info %s: %lu oracle comparisons, %lu boundary cases excused (and %lu on queries "
                      "built on a boundary)\n",
                      suite, g_tally_total.comparisons, g_tally_total.excused, g_tally_total.edge_excused);
    g_tally_total.comparisons = 0;
    g_tally_total.excused = 0;
    g_tally_total.edge_excused = 0;
}

/* After a failed check: the query itself, exactly, so the failure can be replayed. */
static void describe_ray(const tk_ray *r)
{
    if (g_described++ < 4u)
        copse_port_printf("    ray o=(%.9g, %.9g, %.9g) d=(%.9g, %.9g, %.9g) t_max=%.9g\n", (double)r->o[0],
                          (double)r->o[1], (double)r->o[2], (double)r->d[0], (double)r->d[1], (double)r->d[2],
                          (double)r->t_max);
}

static void describe_query(const tk_query *q)
{
    if (g_described++ < 4u)
        copse_port_printf("    query a=(%.9g, %.9g, %.9g) b=(%.9g, %.9g, %.9g) r=%.9g\n", (double)q->a[0],
                          (double)q->a[1], (double)q->a[2], (double)q->b[0], (double)q->b[1], (double)q->b[2],
                          (double)q->r);
}

static void describe_point(const float *p, float max_distance)
{
    if (g_described++ < 4u)
        copse_port_printf("    point (%.9g, %.9g, %.9g) max_distance %.9g\n", (double)p[0], (double)p[1], (double)p[2],
                          (double)max_distance);
}

static void tally(bool excused, bool edge)
{
    tk_tally_now.comparisons++;
    if (excused && edge)
        tk_tally_now.edge_excused++;
    else if (excused)
        tk_tally_now.excused++;
}

/* ---- small helpers ------------------------------------------------------------------------- */

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

static double dabs(double a)
{
    return a < 0.0 ? -a : a;
}

static void to_double3(double *out, const float *in, unsigned dim)
{
    out[0] = (double)in[0];
    out[1] = (double)in[1];
    out[2] = dim == 3 ? (double)in[2] : 0.0;
}

static double mag3(const float *v, unsigned dim)
{
    double d[3];
    to_double3(d, v, dim);
    return orc_max_abs(d);
}

static float rnd(test_rng *rng, double lo, double hi)
{
    return test_rng_float(rng, (float)lo, (float)hi);
}

const char *tk_split_name(copse_bvh_split split)
{
    return split == COPSE_BVH_SPLIT_SAH ? "sah" : split == COPSE_BVH_SPLIT_MEDIAN ? "median" : "midpoint";
}

/* ---- scenes --------------------------------------------------------------------------------- */

static const uint8_t k_axes[4][3] = {{0, 1, 2}, {0, 2, 1}, {0, 1, 2}, {1, 2, 0}};

#define TK_ID_MUL 0x9E3779B1u
#define TK_ID_XOR 0x5A5A5A5Au

uint32_t tk_box_id(uint32_t index)
{
    return (index * TK_ID_MUL) ^ TK_ID_XOR;
}

static uint32_t id_mul_inverse(void)
{
    uint32_t inv = TK_ID_MUL; /* Newton's iteration for the inverse of an odd number mod 2^32 */
    int i;
    for (i = 0; i < 5; i++)
        inv *= 2u - TK_ID_MUL * inv;
    return inv;
}

uint32_t tk_prim_of_id(const tk_scene *sc, uint32_t id)
{
    uint32_t i;
    if (sc->kind != COPSE_BVH_PRIM_BOXES || sc->ids == NULL)
        return id < sc->n ? id : COPSE_NONE;
    i = (id ^ TK_ID_XOR) * id_mul_inverse();
    return (i < sc->n && sc->ids[i] == id) ? i : COPSE_NONE;
}

uint32_t tk_prim_id(const tk_scene *sc, uint32_t prim)
{
    return (sc->kind == COPSE_BVH_PRIM_BOXES && sc->ids != NULL) ? sc->ids[prim] : prim;
}

uint32_t tk_corner(const tk_scene *sc, uint32_t tri, unsigned k)
{
    const copse_mesh *m = &sc->mesh;
    if (m->index_type == COPSE_MESH_INDEX_U16)
        return ((const uint16_t *)m->indices)[(size_t)tri * 3u + k];
    if (m->index_type == COPSE_MESH_INDEX_U32)
        return ((const uint32_t *)m->indices)[(size_t)tri * 3u + k];
    return tri * 3u + k;
}

static const float *vertex_ptr(const tk_scene *sc, uint32_t v)
{
    return (const float *)(const void *)((const uint8_t *)sc->mesh.positions + (size_t)v * sc->mesh.vertex_stride);
}

void tk_vertex(const tk_scene *sc, uint32_t vertex, double *out)
{
    const float *p = vertex_ptr(sc, vertex);
    out[0] = (double)p[sc->axis[0]];
    out[1] = (double)p[sc->axis[1]];
    out[2] = sc->dim == 3 ? (double)p[sc->axis[2]] : 0.0;
}

void tk_get_prim(const tk_scene *sc, uint32_t prim, tk_prim *p)
{
    unsigned k;
    memset(p, 0, sizeof *p);
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES) {
        for (k = 0; k < 3; k++)
            tk_vertex(sc, tk_corner(sc, prim, k), p->v[k]);
    } else {
        const float *b = sc->boxes + (size_t)prim * 2u * sc->dim;
        for (k = 0; k < sc->dim; k++) {
            p->v[0][k] = (double)b[k];
            p->v[1][k] = (double)b[sc->dim + k];
        }
    }
}

void tk_prim_bounds(const tk_scene *sc, uint32_t prim, float *mn, float *mx)
{
    unsigned a, k;
    for (a = 0; a < sc->dim; a++) {
        if (sc->kind == COPSE_BVH_PRIM_TRIANGLES) {
            for (k = 0; k < 3; k++) {
                float x = vertex_ptr(sc, tk_corner(sc, prim, k))[sc->axis[a]];
                mn[a] = (k == 0 || x < mn[a]) ? x : mn[a];
                mx[a] = (k == 0 || x > mx[a]) ? x : mx[a];
            }
        } else {
            const float *b = sc->boxes + (size_t)prim * 2u * sc->dim;
            mn[a] = b[a];
            mx[a] = b[sc->dim + a];
        }
    }
}

bool tk_prim_same(const tk_scene *sc, uint32_t a, uint32_t b)
{
    unsigned k, x;
    if (sc->kind == COPSE_BVH_PRIM_BOXES) {
        const float *ba = sc->boxes + (size_t)a * 2u * sc->dim, *bb = sc->boxes + (size_t)b * 2u * sc->dim;
        for (k = 0; k < 2u * sc->dim; k++)
            if (ba[k] != bb[k])
                return false;
        return true;
    }
    for (k = 0; k < 3; k++) {
        const float *pa = vertex_ptr(sc, tk_corner(sc, a, k)), *pb = vertex_ptr(sc, tk_corner(sc, b, k));
        for (x = 0; x < sc->dim; x++)
            if (pa[sc->axis[x]] != pb[sc->axis[x]])
                return false;
    }
    return true;
}

/* Bounds, diagonal and magnitude from the primitives themselves. */
static void scene_measure(tk_scene *sc)
{
    uint32_t i;
    unsigned a;
    double d2 = 0.0;
    for (a = 0; a < 3; a++)
        sc->lo[a] = sc->hi[a] = 0.0;
    for (i = 0; i < sc->n; i++) {
        float mn[3], mx[3];
        tk_prim_bounds(sc, i, mn, mx);
        for (a = 0; a < sc->dim; a++) {
            if (i == 0 || (double)mn[a] < sc->lo[a])
                sc->lo[a] = (double)mn[a];
            if (i == 0 || (double)mx[a] > sc->hi[a])
                sc->hi[a] = (double)mx[a];
        }
    }
    for (a = 0; a < 3; a++)
        d2 += (sc->hi[a] - sc->lo[a]) * (sc->hi[a] - sc->lo[a]);
    sc->diag = sqrt(d2);
    sc->mag = dmax(orc_max_abs(sc->lo), orc_max_abs(sc->hi));
}

static bool zero_area3(const tk_scene *sc, uint32_t tri)
{
    double p[3][3], e1[3], e2[3], n[3];
    unsigned k, a;
    for (k = 0; k < 3; k++) {
        const float *v = vertex_ptr(sc, tk_corner(sc, tri, k));
        for (a = 0; a < 3; a++)
            p[k][a] = (double)v[a];
    }
    orc_sub(e1, p[1], p[0]);
    orc_sub(e2, p[2], p[0]);
    orc_cross(n, e1, e2);
    return n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0;
}

void tk_scene_from_mesh(tk_scene *sc, const copse_mesh *mesh, copse_bvh_projection projection)
{
    uint32_t i;
    memset(sc, 0, sizeof *sc);
    sc->kind = COPSE_BVH_PRIM_TRIANGLES;
    sc->projection = projection;
    sc->dim = projection == COPSE_BVH_PROJECT_NONE ? 3u : 2u;
    memcpy(sc->axis, k_axes[projection], 3);
    sc->mesh = *mesh;
    if (sc->mesh.vertex_stride == 0)
        sc->mesh.vertex_stride = 12u;
    sc->n = mesh->triangle_count;
    for (i = 0; i < sc->n; i++)
        if (zero_area3(sc, i))
            sc->degenerate++;
    scene_measure(sc);
}

void tk_mesh_spec_init(tk_mesh_spec *spec, uint32_t triangles, tk_layout layout)
{
    memset(spec, 0, sizeof *spec);
    spec->triangles = triangles;
    spec->layout = layout;
    spec->stride = 12u;
    spec->projection = COPSE_BVH_PROJECT_NONE;
    spec->origin = 0.0f;
    spec->extent = 100.0f;
}

void tk_box_spec_init(tk_box_spec *spec, uint32_t count, unsigned dim, bool ids)
{
    memset(spec, 0, sizeof *spec);
    spec->count = count;
    spec->dim = dim;
    spec->ids = ids;
    spec->extent = 100.0f;
    spec->dup_pct = 4;
    spec->point_pct = 4;
}

/* A typical primitive size: about 1.5 cells of an n-cell grid over the extent. */
static float typical_size(float extent, uint32_t n)
{
    double e = (double)extent, size = e;
    while (n > 1u && size * size * size * (double)n > e * e * e * 3.375)
        size *= 0.9;
    return (float)size;
}

static void put_vertex(float *pos, uint32_t stride_f, uint32_t v, const float *xyz)
{
    pos[(size_t)v * stride_f] = xyz[0];
    pos[(size_t)v * stride_f + 1u] = xyz[1];
    pos[(size_t)v * stride_f + 2u] = xyz[2];
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Indexed meshes are strips along a random walk (shared corners, like real meshes); every
 * ninth vertex slot is left out of the strip: unused vertices that nearest_vertex must ignore. */
static uint32_t strip_slot(uint32_t k)
{
    return k + k / 8u;
}

bool tk_make_mesh(tk_scene *sc, const tk_mesh_spec *s, test_rng *rng)
{
    const uint32_t n = s->triangles, stride_f = s->stride / 4u;
    const float lo = s->origin, hi = s->origin + s->extent;
    const float size = s->size > 0.0f ? s->size : typical_size(s->extent, n);
    uint32_t vcount, t, k, v, *corners;
    float *pos, p[3];
    copse_mesh mesh;
    size_t i;

    vcount = s->layout == TK_FLAT ? 3u * n : strip_slot(n + 1u) + 2u;
    pos = (float *)tk_alloc((size_t)vcount * s->stride + 4u);
    corners = (uint32_t *)tk_alloc((size_t)n * 12u + 4u);
    if (pos == NULL || corners == NULL)
        return false;
    for (i = 0; i < (size_t)vcount * stride_f; i++)
        pos[i] = NAN; /* interleaved attributes: a tree that reads them fails loudly */

    if (s->layout == TK_FLAT) {
        for (t = 0; t < n; t++) {
            float c[3];
            for (k = 0; k < 3; k++)
                c[k] = rnd(rng, (double)lo, (double)hi);
            for (k = 0; k < 3; k++) {
                for (v = 0; v < 3; v++)
                    p[v] = clampf(c[v] + rnd(rng, -0.5 * (double)size, 0.5 * (double)size), lo, hi);
                put_vertex(pos, stride_f, 3u * t + k, p);
                corners[3u * t + k] = 3u * t + k;
            }
        }
    } else {
        for (k = 0; k < 3; k++)
            p[k] = rnd(rng, (double)lo, (double)hi);
        for (v = 0; v < vcount; v++) { /* the walk; unused slots land near it too */
            if (test_rng_below(rng, 16) == 0)
                for (k = 0; k < 3; k++)
                    p[k] = rnd(rng, (double)lo, (double)hi);
            for (k = 0; k < 3; k++)
                p[k] = clampf(p[k] + rnd(rng, -(double)size, (double)size), lo, hi);
            put_vertex(pos, stride_f, v, p);
        }
        for (t = 0; t < n; t++) {
            uint32_t rot = test_rng_below(rng, 3), flip = test_rng_below(rng, 2);
            for (k = 0; k < 3; k++) {
                uint32_t kk = (k + rot) % 3u;
                corners[3u * t + k] = strip_slot(t + (flip ? 2u - kk : kk));
            }
        }
    }
    /* duplicates, coincident (rotated) copies and degenerate triangles, by index */
    for (t = 1; t < n; t++) {
        uint32_t r = test_rng_below(rng, 100), j = test_rng_below(rng, t), *c = corners + 3u * t;
        if (r < s->dup_pct) {
            memcpy(c, corners + 3u * j, 12);
        } else if (r < s->dup_pct + s->coplanar_pct) {
            c[0] = corners[3u * j + 1u];
            c[1] = corners[3u * j + 2u];
            c[2] = corners[3u * j];
        } else if (r < s->dup_pct + s->coplanar_pct + s->degen_pct) {
            uint32_t kind = test_rng_below(rng, 3);
            if (kind == 0)
                c[1] = c[0]; /* a segment */
            else if (kind == 1)
                c[1] = c[2] = c[0];          /* a point */
            else if (s->layout == TK_FLAT) { /* collinear, exactly: integer steps from an integer corner */
                float *a = pos + (size_t)c[0] * stride_f, *b = pos + (size_t)c[1] * stride_f,
                      *e = pos + (size_t)c[2] * stride_f;
                for (k = 0; k < 3; k++) {
                    float step = (float)(int)test_rng_below(rng, 5) - 2.0f;
                    a[k] = (float)(int)a[k];
                    b[k] = a[k] + step;
                    e[k] = a[k] + 2.0f * step;
                }
            } else {
                c[2] = c[1];
            }
        }
    }
    if (s->one_point) {
        for (k = 0; k < 3; k++)
            p[k] = lo * 0.5f + hi * 0.5f;
        for (v = 0; v < vcount; v++)
            put_vertex(pos, stride_f, v, p);
    }

    memset(&mesh, 0, sizeof mesh);
    mesh.positions = pos;
    mesh.vertex_count = vcount;
    mesh.vertex_stride = s->stride;
    mesh.triangle_count = n;
    if (s->layout == TK_FLAT) {
        mesh.index_type = COPSE_MESH_INDEX_NONE;
        for (t = 0; t < n; t++) { /* apply index-level copies to the flat vertices */
            for (k = 0; k < 3; k++) {
                uint32_t src = corners[3u * t + k];
                if (src != 3u * t + k) {
                    const float *q = pos + (size_t)src * stride_f;
                    float tmp[3];
                    tmp[0] = q[0];
                    tmp[1] = q[1];
                    tmp[2] = q[2];
                    put_vertex(pos, stride_f, 3u * t + k, tmp);
                }
            }
        }
    } else if (s->layout == TK_U16) {
        uint16_t *ix = (uint16_t *)tk_alloc((size_t)n * 6u + 2u);
        if (ix == NULL || vcount > 65535u)
            return false;
        for (i = 0; i < (size_t)n * 3u; i++)
            ix[i] = (uint16_t)corners[i];
        mesh.indices = ix;
        mesh.index_type = COPSE_MESH_INDEX_U16;
    } else {
        mesh.indices = corners;
        mesh.index_type = COPSE_MESH_INDEX_U32;
    }
    tk_scene_from_mesh(sc, &mesh, s->projection);
    sc->mesh.vertex_stride = s->stride;
    return true;
}

bool tk_make_boxes(tk_scene *sc, const tk_box_spec *s, test_rng *rng)
{
    const unsigned dim = s->dim;
    const float lo = s->origin, hi = s->origin + s->extent;
    const float size = s->size > 0.0f ? s->size : typical_size(s->extent, s->count);
    float *boxes = (float *)tk_alloc((size_t)s->count * 2u * dim * sizeof(float) + 4u);
    uint32_t *ids = s->ids ? (uint32_t *)tk_alloc((size_t)s->count * 4u + 4u) : NULL;
    uint32_t i;
    unsigned a;

    if (boxes == NULL || (s->ids && ids == NULL))
        return false;
    for (i = 0; i < s->count; i++) {
        float *b = boxes + (size_t)i * 2u * dim;
        uint32_t r = test_rng_below(rng, 100), j = i > 0 ? test_rng_below(rng, i) : 0;
        if (ids != NULL)
            ids[i] = tk_box_id(i);
        if (s->one_point) {
            for (a = 0; a < dim; a++)
                b[a] = b[dim + a] = lo * 0.5f + hi * 0.5f;
        } else if (i > 0 && r < s->dup_pct) {
            memcpy(b, boxes + (size_t)j * 2u * dim, 2u * dim * sizeof(float));
        } else if (r < s->dup_pct + s->point_pct) {
            for (a = 0; a < dim; a++)
                b[a] = b[dim + a] = rnd(rng, (double)lo, (double)hi);
        } else {
            for (a = 0; a < dim; a++) {
                float c = rnd(rng, (double)lo, (double)hi), h = rnd(rng, 0.0, 0.5 * (double)size);
                b[a] = clampf(c - h, lo, hi);
                b[dim + a] = clampf(c + h, lo, hi);
            }
            if (i > 0 && r >= 90u) { /* touching an earlier box face to face */
                const float *o = boxes + (size_t)j * 2u * dim;
                float w;
                a = test_rng_below(rng, dim);
                w = b[dim + a] - b[a];
                b[a] = o[dim + a];
                b[dim + a] = b[a] + w;
            }
        }
    }
    memset(sc, 0, sizeof *sc);
    sc->kind = COPSE_BVH_PRIM_BOXES;
    sc->dim = dim;
    memcpy(sc->axis, k_axes[0], 3);
    sc->boxes = boxes;
    sc->ids = ids;
    sc->n = s->count;
    scene_measure(sc);
    return true;
}

/* ---- queries -------------------------------------------------------------------------------- */

static double scale_of(const tk_scene *sc)
{
    return sc->diag > 0.0 ? sc->diag : 1.0 + 1e-3 * sc->mag;
}

/* A point of the inflated scene bounds. */
static void point_around(const tk_scene *sc, test_rng *rng, float *p, double grow)
{
    double m = grow * scale_of(sc);
    unsigned a;
    for (a = 0; a < 3; a++)
        p[a] = a < sc->dim ? rnd(rng, sc->lo[a] - m, sc->hi[a] + m) : 0.0f;
}

/* A random point of a random primitive (uniform barycentrics, or inside the box). True when
 * the point is necessarily on the boundary: a box that is a point or (in 3D) a segment. */
static bool point_on_prim(const tk_scene *sc, test_rng *rng, float *p)
{
    tk_prim g;
    unsigned a, thin = 0;
    tk_get_prim(sc, test_rng_below(rng, sc->n), &g);
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES) {
        double u = (double)test_rng_float(rng, 0.0f, 1.0f), v = (double)test_rng_float(rng, 0.0f, 1.0f);
        if (u + v > 1.0) {
            u = 1.0 - u;
            v = 1.0 - v;
        }
        for (a = 0; a < 3; a++)
            p[a] = (float)(g.v[0][a] + u * (g.v[1][a] - g.v[0][a]) + v * (g.v[2][a] - g.v[0][a]));
        return false;
    }
    for (a = 0; a < 3; a++) {
        p[a] = a < sc->dim ? rnd(rng, g.v[0][a], g.v[1][a]) : 0.0f;
        thin += a < sc->dim && g.v[0][a] == g.v[1][a];
    }
    return thin >= 2u;
}

static void corner_of_prim(const tk_scene *sc, test_rng *rng, float *p)
{
    tk_prim g;
    unsigned a, k = test_rng_below(rng, sc->kind == COPSE_BVH_PRIM_TRIANGLES ? 3u : 2u);
    tk_get_prim(sc, test_rng_below(rng, sc->n), &g);
    for (a = 0; a < 3; a++)
        p[a] = (float)g.v[k][a];
}

static void random_dir(const tk_scene *sc, test_rng *rng, float *d)
{
    unsigned a;
    do {
        for (a = 0; a < 3; a++)
            d[a] = a < sc->dim ? test_rng_float(rng, -1.0f, 1.0f) : 0.0f;
    } while (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f);
}

void tk_random_point(const tk_scene *sc, test_rng *rng, float *p)
{
    uint32_t pick = test_rng_below(rng, 8);
    if (sc->n > 0 && pick < 2)
        (void)point_on_prim(sc, rng, p);
    else if (sc->n > 0 && pick == 2)
        corner_of_prim(sc, rng, p);
    else if (pick == 3)
        point_around(sc, rng, p, 5.0);
    else
        point_around(sc, rng, p, 0.2);
}

void tk_random_query(const tk_scene *sc, tk_shape shape, test_rng *rng, tk_query *q)
{
    const double s = scale_of(sc);
    uint32_t pick = test_rng_below(rng, 8);
    unsigned a;
    memset(q, 0, sizeof *q);
    q->shape = shape;
    if (sc->n > 0 && pick < 2)
        (void)point_on_prim(sc, rng, q->a);
    else
        point_around(sc, rng, q->a, 0.2);
    switch (shape) {
    case TK_BOX: {
        double h = pick == 2 ? 0.0 : pick < 5 ? 0.05 * s : pick < 7 ? 0.25 * s : 0.8 * s;
        unsigned flat = pick == 7 ? test_rng_below(rng, sc->dim) : 3u;
        for (a = 0; a < sc->dim; a++) {
            float lo = q->a[a] - rnd(rng, 0.0, h), hi = q->a[a] + rnd(rng, 0.0, h);
            q->a[a] = lo;
            q->b[a] = a == flat ? lo : hi;
        }
        break;
    }
    case TK_SPHERE:
        q->r = pick == 2 ? 0.0f : rnd(rng, 0.0, pick < 5 ? 0.05 * s : pick < 7 ? 0.2 * s : 0.6 * s);
        break;
    case TK_SEGMENT: {
        double len = pick == 2 ? 0.0 : pick < 5 ? 0.1 * s : 0.6 * s;
        float d[3];
        random_dir(sc, rng, d);
        q->edge = sc->n > 0 && pick < 2;          /* starting on a primitive */
        if (sc->n > 0 && pick >= 5 && pick < 7) { /* through a primitive */
            float target[3];
            if (point_on_prim(sc, rng, target))
                q->edge = true;
            for (a = 0; a < sc->dim; a++)
                q->b[a] = q->a[a] + 1.5f * (target[a] - q->a[a]);
        } else {
            for (a = 0; a < sc->dim; a++)
                q->b[a] = q->a[a] + (float)len * d[a];
        }
        break;
    }
    }
}

void tk_random_ray(const tk_scene *sc, test_rng *rng, tk_ray *r)
{
    uint32_t pick = test_rng_below(rng, 10), lim = test_rng_below(rng, 6);
    unsigned a;
    memset(r, 0, sizeof *r);
    point_around(sc, rng, r->o, 0.3);
    random_dir(sc, rng, r->d);
    if (sc->n > 0 && pick < 4) { /* aimed at a point of a primitive, or at a corner */
        float target[3];
        r->edge = pick == 3 || lim == 2; /* at a corner, or ending on the primitive */
        if (pick == 3)
            corner_of_prim(sc, rng, target);
        else if (point_on_prim(sc, rng, target))
            r->edge = true;
        for (a = 0; a < sc->dim; a++)
            r->d[a] = target[a] - r->o[a];
        if (r->d[0] == 0.0f && r->d[1] == 0.0f && r->d[2] == 0.0f)
            r->d[0] = 1.0f;
    } else if (pick == 4) { /* axis-aligned, sometimes on a primitive's bounding plane */
        float mn[3], mx[3];
        a = test_rng_below(rng, sc->dim);
        memset(r->d, 0, sizeof r->d);
        r->d[a] = test_rng_below(rng, 2) ? 1.0f : -1.0f;
        if (sc->n > 0 && test_rng_below(rng, 2)) {
            uint32_t prim = test_rng_below(rng, sc->n), b = (a + 1u) % sc->dim;
            tk_prim_bounds(sc, prim, mn, mx);
            r->o[b] = test_rng_below(rng, 2) ? mn[b] : mx[b];
            r->edge = true;
        }
    } else if (sc->n > 0 && pick == 5) { /* from a point on a primitive */
        (void)point_on_prim(sc, rng, r->o);
        r->edge = true;
    }
    if (test_rng_below(rng, 4) == 0) { /* t is in units of |dir| */
        float k = test_rng_below(rng, 2) ? 1e-3f : 1e3f;
        for (a = 0; a < 3; a++)
            r->d[a] *= k;
    }
    r->t_max = lim == 0 ? INFINITY : lim == 1 ? FLT_MAX : lim == 2 && pick < 3 ? 1.0f : FLT_MAX;
    if (lim == 3) { /* a finite reach, about the scene's size */
        double dl = sqrt((double)r->d[0] * (double)r->d[0] + (double)r->d[1] * (double)r->d[1] +
                         (double)r->d[2] * (double)r->d[2]);
        r->t_max = rnd(rng, 0.0, scale_of(sc) / dl);
    }
}

/* ---- adapters ------------------------------------------------------------------------------- */

copse_status tk_overlap(const copse_bvh *bvh, unsigned dim, const tk_query *q, copse_bvh_select sel, copse_id_list *out)
{
    if (dim == 3) {
        copse_box3 box = copse_box3_make(q->a[0], q->a[1], q->a[2], q->b[0], q->b[1], q->b[2]);
        copse_sphere s;
        copse_segment3 seg;
        s.center = copse_v3(q->a[0], q->a[1], q->a[2]);
        s.radius = q->r;
        seg.a = s.center;
        seg.b = copse_v3(q->b[0], q->b[1], q->b[2]);
        return q->shape == TK_BOX      ? copse_bvh_overlap_box(bvh, &box, sel, out)
               : q->shape == TK_SPHERE ? copse_bvh_overlap_sphere(bvh, &s, sel, out)
                                       : copse_bvh_overlap_segment(bvh, &seg, sel, out);
    } else {
        copse_box2 rect = copse_box2_make(q->a[0], q->a[1], q->b[0], q->b[1]);
        copse_circle c;
        copse_segment2 seg;
        c.center = copse_v2(q->a[0], q->a[1]);
        c.radius = q->r;
        seg.a = c.center;
        seg.b = copse_v2(q->b[0], q->b[1]);
        return q->shape == TK_BOX      ? copse_bvh_overlap_rect(bvh, &rect, sel, out)
               : q->shape == TK_SPHERE ? copse_bvh_overlap_circle(bvh, &c, sel, out)
                                       : copse_bvh_overlap_segment2(bvh, &seg, sel, out);
    }
}

copse_status tk_visit(const copse_bvh *bvh, unsigned dim, const tk_query *q, copse_bvh_select sel, copse_id_visitor visit,
                      void *user)
{
    if (dim == 3) {
        copse_box3 box = copse_box3_make(q->a[0], q->a[1], q->a[2], q->b[0], q->b[1], q->b[2]);
        copse_sphere s;
        copse_segment3 seg;
        s.center = copse_v3(q->a[0], q->a[1], q->a[2]);
        s.radius = q->r;
        seg.a = s.center;
        seg.b = copse_v3(q->b[0], q->b[1], q->b[2]);
        return q->shape == TK_BOX      ? copse_bvh_visit_box(bvh, &box, sel, visit, user)
               : q->shape == TK_SPHERE ? copse_bvh_visit_sphere(bvh, &s, sel, visit, user)
                                       : copse_bvh_visit_segment(bvh, &seg, sel, visit, user);
    } else {
        copse_box2 rect = copse_box2_make(q->a[0], q->a[1], q->b[0], q->b[1]);
        copse_circle c;
        copse_segment2 seg;
        c.center = copse_v2(q->a[0], q->a[1]);
        c.radius = q->r;
        seg.a = c.center;
        seg.b = copse_v2(q->b[0], q->b[1]);
        return q->shape == TK_BOX      ? copse_bvh_visit_rect(bvh, &rect, sel, visit, user)
               : q->shape == TK_SPHERE ? copse_bvh_visit_circle(bvh, &c, sel, visit, user)
                                       : copse_bvh_visit_segment2(bvh, &seg, sel, visit, user);
    }
}

static copse_ray3 ray3_of(const tk_ray *r)
{
    copse_ray3 x;
    x.origin = copse_v3(r->o[0], r->o[1], r->o[2]);
    x.dir = copse_v3(r->d[0], r->d[1], r->d[2]);
    x.t_max = r->t_max;
    return x;
}

static copse_ray2 ray2_of(const tk_ray *r)
{
    copse_ray2 x;
    x.origin = copse_v2(r->o[0], r->o[1]);
    x.dir = copse_v2(r->d[0], r->d[1]);
    x.t_max = r->t_max;
    return x;
}

copse_status tk_raycast(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit *hit)
{
    copse_ray3 r3 = ray3_of(r);
    copse_ray2 r2 = ray2_of(r);
    return dim == 3 ? copse_bvh_raycast(bvh, &r3, hit) : copse_bvh_raycast2(bvh, &r2, hit);
}

copse_status tk_raycast_all(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit_list *out)
{
    copse_ray3 r3 = ray3_of(r);
    copse_ray2 r2 = ray2_of(r);
    return dim == 3 ? copse_bvh_raycast_all(bvh, &r3, out) : copse_bvh_raycast2_all(bvh, &r2, out);
}

copse_status tk_visit_ray(const copse_bvh *bvh, unsigned dim, const tk_ray *r, copse_hit_visitor visit, void *user)
{
    copse_ray3 r3 = ray3_of(r);
    copse_ray2 r2 = ray2_of(r);
    return dim == 3 ? copse_bvh_visit_ray(bvh, &r3, visit, user) : copse_bvh_visit_ray2(bvh, &r2, visit, user);
}

copse_status tk_nearest(const copse_bvh *bvh, unsigned dim, const float *p, float max_distance, copse_nearest3 *out)
{
    copse_nearest2 n2;
    copse_status st;
    if (dim == 3)
        return copse_bvh_nearest(bvh, copse_v3(p[0], p[1], p[2]), max_distance, out);
    st = copse_bvh_nearest2(bvh, copse_v2(p[0], p[1]), max_distance, &n2);
    out->distance_sq = n2.distance_sq;
    out->id = n2.id;
    out->point = copse_v3(n2.point.x, n2.point.y, 0.0f);
    return st;
}

/* ---- oracles over a scene ------------------------------------------------------------------ */

/* The band of a test: a few dozen float roundings of the largest magnitude involved. */
static double band_of(const tk_scene *sc, double query_mag)
{
    return 32.0 * ORC_FLT_EPS * dmax(dmax(sc->mag, query_mag), sc->diag);
}

static double query_mag(const tk_scene *sc, const tk_query *q)
{
    return dmax(mag3(q->a, sc->dim), dmax(mag3(q->b, sc->dim), (double)q->r));
}

/* A shape against a box (a box primitive, or a node's bounds). */
static orc_verdict shape_vs_box(const tk_query *q, unsigned dim, const double *mn, const double *mx, double band)
{
    double a[3], b[3], tmp[3], d[3];
    to_double3(a, q->a, dim);
    to_double3(b, q->b, dim);
    if (q->shape == TK_BOX)
        return orc_box_box(a, b, mn, mx, dim) ? ORC_YES : ORC_NO;
    if (q->shape == TK_SPHERE)
        return orc_ball(orc_closest_box(a, mn, mx, dim, tmp), (double)q->r, band);
    orc_sub(d, b, a);
    return orc_ray_box(a, d, 1.0, mn, mx, dim, band).verdict;
}

static orc_verdict shape_vs_prim(const tk_scene *sc, const tk_query *q, const tk_prim *g, double band)
{
    const unsigned dim = sc->dim;
    double a[3], b[3], d[3], tmp[3];
    if (sc->kind == COPSE_BVH_PRIM_BOXES)
        return shape_vs_box(q, dim, g->v[0], g->v[1], band);
    to_double3(a, q->a, dim);
    to_double3(b, q->b, dim);
    switch (q->shape) {
    case TK_BOX:
        if (dim == 2) { /* a rect is a slab through the plane of the 2D triangles */
            a[2] = -1.0;
            b[2] = 1.0;
        }
        return orc_triangle_box(a, b, g->v[0], g->v[1], g->v[2], band);
    case TK_SPHERE:
        if (dim == 2) /* in the plane a centre can be inside: by how much decides */
            return orc_ball(orc_signed_distance2(a, g->v[0], g->v[1], g->v[2]), (double)q->r, band);
        return orc_ball(orc_closest_triangle(a, g->v[0], g->v[1], g->v[2], tmp), (double)q->r,
                        band * orc_triangle_condition(g->v[0], g->v[1], g->v[2]));
    case TK_SEGMENT:
        orc_sub(d, b, a);
        if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) { /* a point: is it on the triangle? */
            if (dim == 2)
                return orc_ball(orc_signed_distance2(a, g->v[0], g->v[1], g->v[2]), 0.0, band);
            return orc_ball(orc_closest_triangle(a, g->v[0], g->v[1], g->v[2], tmp), 0.0, band);
        }
        if (dim == 3)
            return orc_ray_triangle3(a, d, 1.0, g->v[0], g->v[1], g->v[2]).verdict;
        return orc_ray_triangle2(a, d, 1.0, g->v[0], g->v[1], g->v[2], band).verdict;
    }
    return ORC_NO;
}

static void oracle_overlap(const tk_scene *sc, const tk_query *q, uint8_t *verdict)
{
    double band = band_of(sc, query_mag(sc, q));
    uint32_t i;
    tk_prim g;
    for (i = 0; i < sc->n; i++) {
        tk_get_prim(sc, i, &g);
        verdict[i] = (uint8_t)shape_vs_prim(sc, q, &g, band);
    }
}

static double ray_dir_len(const tk_ray *r)
{
    double d[3];
    to_double3(d, r->d, 3);
    return orc_len(d);
}

/* t_max as the oracle sees it: "no limit" for infinity and FLT_MAX alike. */
static double ray_t_max(const tk_ray *r)
{
    return r->t_max >= FLT_MAX ? 1e301 : (double)r->t_max;
}

static double ray_band(const tk_scene *sc, const tk_ray *r)
{
    double m = mag3(r->o, sc->dim);
    if (r->t_max < FLT_MAX)
        m += (double)r->t_max * ray_dir_len(r);
    return band_of(sc, m);
}

static void oracle_ray(const tk_scene *sc, const tk_ray *r, orc_hit *hits)
{
    double o[3], d[3], band = ray_band(sc, r), t_max = ray_t_max(r);
    uint32_t i;
    tk_prim g;
    to_double3(o, r->o, sc->dim);
    to_double3(d, r->d, sc->dim);
    for (i = 0; i < sc->n; i++) {
        tk_get_prim(sc, i, &g);
        if (sc->kind == COPSE_BVH_PRIM_BOXES)
            hits[i] = orc_ray_box(o, d, t_max, g.v[0], g.v[1], sc->dim, band);
        else if (sc->dim == 3)
            hits[i] = orc_ray_triangle3(o, d, t_max, g.v[0], g.v[1], g.v[2]);
        else
            hits[i] = orc_ray_triangle2(o, d, t_max, g.v[0], g.v[1], g.v[2], band);
    }
}

static double prim_dist(const tk_scene *sc, const tk_prim *g, const double *p, double *closest)
{
    if (sc->kind == COPSE_BVH_PRIM_BOXES)
        return orc_closest_box(p, g->v[0], g->v[1], sc->dim, closest);
    return orc_closest_triangle(p, g->v[0], g->v[1], g->v[2], closest);
}

/* Distances to every primitive; returns the first 2D triangle that clearly contains p (copse
 * must then answer it, or a lower id, at distance 0), or COPSE_NONE. */
static uint32_t oracle_nearest(const tk_scene *sc, const float *p, double *dist)
{
    const bool planar = sc->kind == COPSE_BVH_PRIM_TRIANGLES && sc->dim == 2;
    double pd[3], tmp[3], band = band_of(sc, mag3(p, sc->dim));
    uint32_t i, inside = COPSE_NONE;
    tk_prim g;
    to_double3(pd, p, sc->dim);
    for (i = 0; i < sc->n; i++) {
        tk_get_prim(sc, i, &g);
        if (planar) {
            double sd = orc_signed_distance2(pd, g.v[0], g.v[1], g.v[2]);
            dist[i] = sd > 0.0 ? sd : 0.0;
            if (sd < -band && inside == COPSE_NONE)
                inside = i;
        } else {
            dist[i] = prim_dist(sc, &g, pd, tmp);
        }
    }
    return inside;
}

/* |dt| allowed: 1e-4 of the scene diagonal (the rule), never below a few roundings. */
static double t_tol(const tk_scene *sc, const tk_ray *r)
{
    return dmax(1e-4 * sc->diag, 8.0 * ORC_FLT_EPS * (sc->mag + mag3(r->o, sc->dim))) / ray_dir_len(r);
}

static double dist_tol(const tk_scene *sc, const float *p)
{
    return dmax(1e-5 * sc->diag, 32.0 * ORC_FLT_EPS * (sc->mag + mag3(p, sc->dim)));
}

/* "mesh3-u16 n=5 [sah/4] q12": which scene, tree and query failed. */
static const char *tag_params(const copse_bvh_params *p, bool with_query)
{
    static char tag[112];
    if (with_query)
        copse_port_snprintf(tag, sizeof tag, "%s [%s/%u] q%u", g_ctx, tk_split_name(p->split), (unsigned)p->leaf_size,
                            (unsigned)g_query);
    else
        copse_port_snprintf(tag, sizeof tag, "%s [%s/%u]", g_ctx, tk_split_name(p->split), (unsigned)p->leaf_size);
    return tag;
}

static const char *tag(const tk_tree *tree)
{
    return tag_params(&tree->params, true);
}

/* ---- judges: overlap ----------------------------------------------------------------------- */

static const char *shape_name(tk_shape s)
{
    return s == TK_BOX ? "box" : s == TK_SPHERE ? "sphere" : "segment";
}

typedef struct id_sink {
    uint32_t *ids;
    uint32_t cap, count, stop_after;
} id_sink;

static bool sink_id(void *user, uint32_t id)
{
    id_sink *s = (id_sink *)user;
    if (s->count < s->cap)
        s->ids[s->count] = id;
    s->count++;
    return s->count < s->stop_after;
}

/* The visitor form (whole, and stopped early) and the array form at small capacities must
 * give the same sequence as the full array. */
static void judge_id_forms(const tk_scene *sc, const tk_tree *tree, const tk_query *q, copse_bvh_select sel,
                           const uint32_t *full, uint32_t count, test_rng *rng)
{
    bool ok = true;
    const copse_bvh *bvh = &tree->bvh;
    size_t mark = tk_mark();
    uint32_t *buf = (uint32_t *)tk_alloc(((size_t)count + 1u) * 4u), caps[3], c;
    const char *what = sel == COPSE_BVH_SELECT_PRIMS ? "prims" : "leaves";
    id_sink s;
    copse_status st;
    if (buf == NULL)
        goto done;
    s.ids = buf;
    s.cap = count + 1u;
    s.count = 0;
    s.stop_after = 0xFFFFFFFFu;
    st = tk_visit(bvh, sc->dim, q, sel, sink_id, &s);
    ok &= CHECKF(st == COPSE_OK && s.count == count && memcmp(buf, full, (size_t)count * 4u) == 0,
                 "%s: %s visitor (%s) gave %u ids, the array %u", tag(tree), shape_name(q->shape), what,
                 (unsigned)s.count, (unsigned)count);
    if (count > 0) {
        s.count = 0;
        s.stop_after = 1u + test_rng_below(rng, count);
        st = tk_visit(bvh, sc->dim, q, sel, sink_id, &s);
        ok &= CHECKF(st == COPSE_OK && s.count == s.stop_after && memcmp(buf, full, (size_t)s.count * 4u) == 0,
                     "%s: %s visitor (%s) stopping after %u was called %u times", tag(tree), shape_name(q->shape), what,
                     (unsigned)s.stop_after, (unsigned)s.count);
    }
    caps[0] = 0;
    caps[1] = 1;
    caps[2] = test_rng_below(rng, count + 2u);
    for (c = 0; c < 3; c++) {
        copse_id_list list = copse_id_list_make(caps[c] > 0 ? buf : NULL, caps[c]);
        uint32_t expect = count < caps[c] ? count : caps[c];
        st = tk_overlap(bvh, sc->dim, q, sel, &list);
        ok &= CHECKF(st == COPSE_OK && list.count == expect && list.truncated == (count > caps[c]) &&
                         memcmp(buf, full, (size_t)expect * 4u) == 0,
                     "%s: %s (%s) at capacity %u: count %u truncated %d, of %u", tag(tree), shape_name(q->shape), what,
                     (unsigned)caps[c], (unsigned)list.count, (int)list.truncated, (unsigned)count);
    }
done:
    tk_rewind(mark);
    if (!ok)
        describe_query(q);
}

static void node_box(const copse_bvh *bvh, uint32_t i, double *mn, double *mx, int32_t *index, uint32_t *count)
{
    const float *fmn, *fmx;
    if (bvh->dim == 3) {
        const copse_bvh_node3 *nd = (const copse_bvh_node3 *)bvh->nodes + i;
        fmn = nd->min;
        fmx = nd->max;
        *index = nd->index;
        *count = nd->count;
    } else {
        const copse_bvh_node2 *nd = (const copse_bvh_node2 *)bvh->nodes + i;
        fmn = nd->min;
        fmx = nd->max;
        *index = nd->index;
        *count = nd->count;
    }
    to_double3(mn, fmn, bvh->dim);
    to_double3(mx, fmx, bvh->dim);
}

/* COPSE_BVH_SELECT_LEAVES: exactly the leaves whose bounds meet the shape, and together they hold
 * every primitive the PRIMS query reported. */
static void judge_leaves(const tk_scene *sc, const tk_tree *tree, const tk_query *q, const uint32_t *prim_ids,
                         uint32_t prim_count, test_rng *rng)
{
    bool ok = true;
    const copse_bvh *bvh = &tree->bvh;
    const uint32_t nn = bvh->node_count;
    size_t mark = tk_mark();
    uint32_t *leaves = (uint32_t *)tk_alloc(((size_t)nn + 1u) * 4u);
    uint8_t *flag = (uint8_t *)tk_alloc((size_t)nn + 1u), *covered = (uint8_t *)tk_alloc((size_t)sc->n + 1u);
    uint32_t i, bad = 0, wrong = 0, wrong_node = 0, uncovered = 0;
    bool excused = false;
    double band = band_of(sc, query_mag(sc, q));
    copse_id_list list;
    copse_status st;
    if (leaves == NULL || flag == NULL || covered == NULL)
        goto done;
    memset(flag, 0, (size_t)nn + 1u);
    memset(covered, 0, (size_t)sc->n + 1u);
    list = copse_id_list_make(leaves, nn + 1u);
    st = tk_overlap(bvh, sc->dim, q, COPSE_BVH_SELECT_LEAVES, &list);
    ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= nn, "%s: leaves query failed", tag(tree));
    for (i = 0; i < list.count; i++) {
        const uint32_t *prims;
        uint32_t count, k;
        if (leaves[i] >= nn || flag[leaves[i]] || copse_bvh_leaf_prims(bvh, leaves[i], &prims, &count) != COPSE_OK) {
            bad++;
            continue;
        }
        flag[leaves[i]] = 1;
        for (k = 0; k < count; k++)
            covered[prims[k]] = 1;
    }
    ok &= CHECKF(bad == 0, "%s: %u reported leaves are not leaves, or repeat", tag(tree), (unsigned)bad);
    for (i = 0; i < nn; i++) {
        double mn[3], mx[3];
        int32_t index;
        uint32_t count;
        orc_verdict v;
        node_box(bvh, i, mn, mx, &index, &count);
        if (index < 0)
            continue;
        v = shape_vs_box(q, sc->dim, mn, mx, band);
        if ((flag[i] != 0) != orc_exact(v)) {
            if (orc_fragile(v)) {
                excused = true;
            } else {
                wrong++;
                wrong_node = i;
            }
        }
    }
    tally(excused, q->edge);
    ok &=
        CHECKF(wrong == 0, "%s: %s leaves: %u wrong, e.g. node %u %s", tag(tree), shape_name(q->shape), (unsigned)wrong,
               (unsigned)wrong_node, flag[wrong_node] ? "reported but apart" : "overlaps but missing");
    for (i = 0; i < prim_count; i++) {
        uint32_t prim = tk_prim_of_id(sc, prim_ids[i]);
        if (prim == COPSE_NONE || !covered[prim])
            uncovered++;
    }
    ok &= CHECKF(uncovered == 0, "%s: %u overlapping prims lie outside the reported leaves", tag(tree),
                 (unsigned)uncovered);
    judge_id_forms(sc, tree, q, COPSE_BVH_SELECT_LEAVES, leaves, list.count, rng);
done:
    tk_rewind(mark);
    if (!ok)
        describe_query(q);
}

static void judge_overlap(const tk_scene *sc, const tk_tree *tree, const tk_query *q, const uint8_t *verdict,
                          test_rng *rng)
{
    bool ok = true;
    const uint32_t n = sc->n;
    size_t mark = tk_mark();
    uint32_t *ids = (uint32_t *)tk_alloc(((size_t)n + 1u) * 4u), i, bad = 0, wrong = 0, wrong_prim = 0;
    uint8_t *seen = (uint8_t *)tk_alloc((size_t)n + 1u);
    bool excused = false;
    copse_id_list list;
    copse_status st;
    if (ids == NULL || seen == NULL)
        goto done;
    memset(seen, 0, (size_t)n + 1u);
    list = copse_id_list_make(ids, n + 1u);
    st = tk_overlap(&tree->bvh, sc->dim, q, COPSE_BVH_SELECT_PRIMS, &list);
    ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= n, "%s: %s query: %s, %u ids", tag(tree),
                 shape_name(q->shape), copse_status_str(st), (unsigned)list.count);
    for (i = 0; i < list.count && i < n; i++) {
        uint32_t prim = tk_prim_of_id(sc, ids[i]);
        if (prim == COPSE_NONE || seen[prim])
            bad++;
        else
            seen[prim] = 1;
    }
    ok &= CHECKF(bad == 0, "%s: %s query reported %u unknown or repeated ids", tag(tree), shape_name(q->shape),
                 (unsigned)bad);
    for (i = 0; i < n; i++) {
        if ((seen[i] != 0) != orc_exact((orc_verdict)verdict[i])) {
            if (orc_fragile((orc_verdict)verdict[i])) {
                excused = true;
            } else {
                wrong++;
                wrong_prim = i;
            }
        }
    }
    tally(excused, q->edge);
    ok &= CHECKF(wrong == 0, "%s: %s query: %u prims wrong, e.g. %u %s", tag(tree), shape_name(q->shape),
                 (unsigned)wrong, (unsigned)wrong_prim,
                 seen[wrong_prim] ? "reported, the oracle says apart" : "missing, the oracle says overlaps");
    judge_id_forms(sc, tree, q, COPSE_BVH_SELECT_PRIMS, ids, list.count, rng);
    judge_leaves(sc, tree, q, ids, list.count, rng);
done:
    tk_rewind(mark);
    if (!ok)
        describe_query(q);
}

/* ---- judges: rays -------------------------------------------------------------------------- */

static bool hit_before(const copse_hit *a, const copse_hit *b)
{
    return a->t < b->t || (a->t == b->t && a->id < b->id);
}

typedef struct hit_sink {
    copse_hit *hits;
    uint32_t cap, count, stop_after;
} hit_sink;

static bool sink_hit(void *user, const copse_hit *h)
{
    hit_sink *s = (hit_sink *)user;
    if (s->count < s->cap)
        s->hits[s->count] = *h;
    s->count++;
    return s->count < s->stop_after;
}

static bool same_hit(const copse_hit *a, const copse_hit *b)
{
    return a->id == b->id && a->t == b->t;
}

/* The hit's barycentrics name a point of the triangle on the ray. */
static void judge_barycentrics(const tk_scene *sc, const tk_tree *tree, const tk_ray *r, const copse_hit *h,
                               uint32_t prim, double tol_len)
{
    tk_prim g;
    double o[3], d[3], on_ray[3], at[3], tmp[3], area[3], e1[3], e2[3];
    double u = (double)h->u, v = (double)h->v, t = (double)h->t;
    unsigned a;
    tk_get_prim(sc, prim, &g);
    orc_sub(e1, g.v[1], g.v[0]);
    orc_sub(e2, g.v[2], g.v[0]);
    orc_cross(area, e1, e2);
    if (area[0] == 0.0 && area[1] == 0.0 && area[2] == 0.0)
        return; /* a 2D segment-like triangle: no barycentrics to speak of */
    to_double3(o, r->o, sc->dim);
    to_double3(d, r->d, sc->dim);
    for (a = 0; a < 3; a++) {
        on_ray[a] = o[a] + t * d[a];
        at[a] = g.v[0][a] + u * e1[a] + v * e2[a];
    }
    CHECKF(orc_dist(on_ray, at) <= tol_len && orc_closest_triangle(at, g.v[0], g.v[1], g.v[2], tmp) <= tol_len,
           "%s: hit on prim %u: u=%g v=%g name a point %g away from the ray", tag(tree), (unsigned)prim, u, v,
           orc_dist(on_ray, at));
}

static void judge_first_hit(const tk_scene *sc, const tk_tree *tree, const tk_ray *r, const orc_hit *orc,
                            const copse_hit *h)
{
    bool ok = true;
    const uint32_t n = sc->n;
    const double tol = t_tol(sc, r);
    uint32_t i, prim, nearest_def = COPSE_NONE;
    bool excused = false, fragile_hit = false;
    for (i = 0; i < n; i++) {
        if (orc[i].verdict == ORC_YES && (nearest_def == COPSE_NONE || orc[i].t < orc[nearest_def].t))
            nearest_def = i;
        if (orc[i].verdict == ORC_EDGE_YES)
            fragile_hit = true;
    }
    if (h->id == COPSE_NONE) {
        ok &= CHECKF(nearest_def == COPSE_NONE, "%s: ray missed, but prim %u is hit at t=%g", tag(tree),
                     (unsigned)nearest_def, nearest_def != COPSE_NONE ? orc[nearest_def].t : 0.0);
        tally(fragile_hit, r->edge);
        goto done;
    }
    prim = tk_prim_of_id(sc, h->id);
    if (!CHECKF(prim != COPSE_NONE && h->t >= 0.0f && h->t <= r->t_max, "%s: ray hit id %u at t=%g: invalid", tag(tree),
                (unsigned)h->id, (double)h->t)) {
        ok = false;
        goto done;
    }
    ok &= CHECKF(orc[prim].verdict != ORC_NO, "%s: ray hit prim %u at t=%g, which the oracle says it misses", tag(tree),
                 (unsigned)prim, (double)h->t);
    excused = orc[prim].verdict == ORC_EDGE_NO;
    if (orc[prim].t != ORC_NO_T)
        ok &= CHECKF(dabs((double)h->t - orc[prim].t) <= tol, "%s: prim %u hit at t=%.9g, oracle t=%.9g", tag(tree),
                     (unsigned)prim, (double)h->t, orc[prim].t);
    if (nearest_def != COPSE_NONE)
        ok &= CHECKF((double)h->t <= orc[nearest_def].t + tol,
                     "%s: first hit prim %u at t=%.9g, but prim %u is hit at t=%.9g", tag(tree), (unsigned)prim,
                     (double)h->t, (unsigned)nearest_def, orc[nearest_def].t);
    for (i = 0; i < n; i++) { /* exact ties go to the lower id */
        /* bitwise equal primitives; or both contain the origin (boxes, 2D triangles: t = 0) */
        bool tie = tk_prim_same(sc, i, prim) ||
                   (h->t == 0.0f && orc[i].t == 0.0 &&
                    (sc->kind == COPSE_BVH_PRIM_BOXES || (sc->dim == 2 && orc[i].verdict == ORC_YES)));
        if (i != prim && tk_prim_id(sc, i) < h->id && orc_exact(orc[i].verdict) && tie)
            break;
    }
    ok &= CHECKF(i == n, "%s: first hit is id %u, but id %u ties it exactly", tag(tree), (unsigned)h->id,
                 (unsigned)(i < n ? tk_prim_id(sc, i) : 0u));
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES)
        judge_barycentrics(sc, tree, r, h, prim, tol * ray_dir_len(r));
    tally(excused, r->edge);
done:
    if (!ok)
        describe_ray(r);
}

static void judge_ray(const tk_scene *sc, const tk_tree *tree, const tk_ray *r, const orc_hit *orc, test_rng *rng)
{
    bool ok = true;
    const copse_bvh *bvh = &tree->bvh;
    const uint32_t n = sc->n;
    const double tol = t_tol(sc, r);
    size_t mark = tk_mark();
    copse_hit first, *hits = (copse_hit *)tk_alloc(((size_t)n + 1u) * sizeof(copse_hit));
    copse_hit *buf = (copse_hit *)tk_alloc(((size_t)n + 1u) * sizeof(copse_hit));
    uint8_t *seen = (uint8_t *)tk_alloc((size_t)n + 1u);
    uint32_t i, k, bad = 0, wrong = 0, wrong_prim = 0, caps[3];
    bool excused = false;
    copse_hit_list list;
    hit_sink s;
    copse_status st;
    if (hits == NULL || buf == NULL || seen == NULL)
        goto done;

    st = tk_raycast(bvh, sc->dim, r, &first);
    ok &= CHECKF(st == COPSE_OK, "%s: raycast: %s", tag(tree), copse_status_str(st));
    judge_first_hit(sc, tree, r, orc, &first);

    /* every hit, sorted, against the oracle */
    memset(seen, 0, (size_t)n + 1u);
    list = copse_hit_list_make(hits, n + 1u);
    st = tk_raycast_all(bvh, sc->dim, r, &list);
    ok &= CHECKF(st == COPSE_OK && !list.truncated && list.count <= n, "%s: raycast_all: %s", tag(tree),
                 copse_status_str(st));
    for (i = 0; i < list.count && i < n; i++) {
        uint32_t prim = tk_prim_of_id(sc, hits[i].id);
        if (prim == COPSE_NONE || seen[prim] || !(hits[i].t >= 0.0f && hits[i].t <= r->t_max) ||
            (i > 0 && !hit_before(&hits[i - 1u], &hits[i]))) {
            bad++;
            continue;
        }
        seen[prim] = 1;
        if (orc[prim].t != ORC_NO_T && dabs((double)hits[i].t - orc[prim].t) > tol) {
            wrong++;
            wrong_prim = prim;
        }
    }
    ok &= CHECKF(bad == 0, "%s: raycast_all: %u hits unknown, repeated, out of range or out of order", tag(tree),
                 (unsigned)bad);
    for (i = 0; i < n; i++) {
        if ((seen[i] != 0) != orc_exact(orc[i].verdict)) {
            if (orc_fragile(orc[i].verdict)) {
                excused = true;
            } else {
                wrong++;
                wrong_prim = i;
            }
        }
    }
    tally(excused, r->edge);
    ok &= CHECKF(wrong == 0, "%s: raycast_all: %u prims wrong, e.g. %u (%s, oracle t=%g)", tag(tree), (unsigned)wrong,
                 (unsigned)wrong_prim, seen[wrong_prim] ? "reported" : "not reported", orc[wrong_prim].t);
    ok &= CHECKF(list.count > 0 ? same_hit(&hits[0], &first) : first.id == COPSE_NONE,
                 "%s: raycast says id %u t=%.9g, raycast_all starts with id %u t=%.9g", tag(tree), (unsigned)first.id,
                 (double)first.t, (unsigned)(list.count > 0 ? hits[0].id : COPSE_NONE),
                 list.count > 0 ? (double)hits[0].t : 0.0);

    /* truncated: the nearest `capacity` hits, in order */
    caps[0] = 0;
    caps[1] = 1;
    caps[2] = test_rng_below(rng, list.count + 2u);
    for (k = 0; k < 3; k++) {
        copse_hit_list part = copse_hit_list_make(caps[k] > 0 ? buf : NULL, caps[k]);
        uint32_t expect = list.count < caps[k] ? list.count : caps[k];
        st = tk_raycast_all(bvh, sc->dim, r, &part);
        for (i = 0; i < expect && i < part.count; i++)
            if (!same_hit(&buf[i], &hits[i]))
                break;
        ok &= CHECKF(st == COPSE_OK && part.count == expect && part.truncated == (list.count > caps[k]) && i == expect,
                     "%s: raycast_all at capacity %u: %u hits, truncated %d, hit %u differs (of %u)", tag(tree),
                     (unsigned)caps[k], (unsigned)part.count, (int)part.truncated, (unsigned)i, (unsigned)list.count);
    }

    /* the visitor sees the same hits (in its own order), and stops when told */
    s.hits = buf;
    s.cap = n + 1u;
    s.count = 0;
    s.stop_after = 0xFFFFFFFFu;
    st = tk_visit_ray(bvh, sc->dim, r, sink_hit, &s);
    for (i = 1; i < s.count && i < s.cap; i++) { /* insertion sort by (t, id) */
        copse_hit x = buf[i];
        for (k = i; k > 0 && hit_before(&x, &buf[k - 1u]); k--)
            buf[k] = buf[k - 1u];
        buf[k] = x;
    }
    for (i = 0; i < list.count && i < s.count; i++)
        if (!same_hit(&buf[i], &hits[i]))
            break;
    ok &= CHECKF(st == COPSE_OK && s.count == list.count && i == list.count,
                 "%s: ray visitor saw %u hits, raycast_all %u (first difference at %u)", tag(tree), (unsigned)s.count,
                 (unsigned)list.count, (unsigned)i);
    if (list.count > 0) {
        s.count = 0;
        s.stop_after = 1u + test_rng_below(rng, list.count);
        st = tk_visit_ray(bvh, sc->dim, r, sink_hit, &s);
        ok &= CHECKF(st == COPSE_OK && s.count == s.stop_after, "%s: ray visitor stopping after %u was called %u times",
                     tag(tree), (unsigned)s.stop_after, (unsigned)s.count);
    }
done:
    tk_rewind(mark);
    if (!ok)
        describe_ray(r);
}

/* ---- judges: nearest ------------------------------------------------------------------------ */

static bool point_is_corner(const tk_scene *sc, uint32_t prim, const float *p)
{
    tk_prim g;
    double pd[3];
    unsigned k;
    tk_get_prim(sc, prim, &g);
    to_double3(pd, p, sc->dim);
    for (k = 0; k < 3; k++)
        if (g.v[k][0] == pd[0] && g.v[k][1] == pd[1] && g.v[k][2] == pd[2])
            return true;
    return false;
}

static void judge_nearest(const tk_scene *sc, const tk_tree *tree, const float *p, float max_distance,
                          const double *dist, uint32_t inside)
{
    bool ok = true;
    const double tol = dist_tol(sc, p), limit = (double)max_distance;
    uint32_t i, best = COPSE_NONE, prim;
    double pd[3], at[3], tmp[3], dc;
    copse_nearest3 out;
    copse_status st;
    tk_prim g;

    for (i = 0; i < sc->n; i++)
        if (best == COPSE_NONE || dist[i] < dist[best])
            best = i;
    st = tk_nearest(&tree->bvh, sc->dim, p, max_distance, &out);
    ok &= CHECKF(st == COPSE_OK, "%s: nearest: %s", tag(tree), copse_status_str(st));
    if (out.id == COPSE_NONE) {
        ok &= CHECKF(best == COPSE_NONE || dist[best] > limit - tol,
                     "%s: nearest found nothing within %g, but prim %u is %g away", tag(tree), limit, (unsigned)best,
                     best != COPSE_NONE ? dist[best] : 0.0);
        tally(best != COPSE_NONE && dist[best] <= limit, false);
        goto done;
    }
    prim = tk_prim_of_id(sc, out.id);
    if (!CHECKF(prim != COPSE_NONE && best != COPSE_NONE, "%s: nearest reported unknown id %u", tag(tree),
                (unsigned)out.id)) {
        ok = false;
        goto done;
    }
    dc = sqrt((double)out.distance_sq);
    to_double3(pd, p, sc->dim);
    to_double3(at, &out.point.x, sc->dim);
    ok &= CHECKF(inside == COPSE_NONE || (out.distance_sq == 0.0f && out.id <= inside),
                 "%s: the point is inside triangle %u, nearest2 says id %u at distance^2 %g", tag(tree),
                 (unsigned)inside, (unsigned)out.id, (double)out.distance_sq);
    tk_get_prim(sc, prim, &g);
    ok &= CHECKF(dabs(dc - dist[best]) <= tol && dist[prim] <= dist[best] + tol && dc <= limit + tol,
                 "%s: nearest is prim %u at %.9g (oracle: it is %.9g away; prim %u at %.9g)", tag(tree), (unsigned)prim,
                 dc, dist[prim], (unsigned)best, dist[best]);
    ok &= CHECKF(prim_dist(sc, &g, at, tmp) <= tol && dabs(orc_dist(at, pd) - dc) <= tol,
                 "%s: nearest point (%g %g %g) is %g off prim %u, %g from the query (distance %g)", tag(tree), at[0],
                 at[1], at[2], prim_dist(sc, &g, at, tmp), (unsigned)prim, orc_dist(at, pd), dc);
    for (i = 0; i < sc->n; i++) { /* exact ties go to the lower id */
        bool tie = tk_prim_same(sc, i, prim) || (out.distance_sq == 0.0f && dist[i] == 0.0 &&
                                                 (sc->kind == COPSE_BVH_PRIM_BOXES || point_is_corner(sc, i, p)));
        if (i != prim && tk_prim_id(sc, i) < out.id && tie)
            break;
    }
    ok &= CHECKF(i == sc->n, "%s: nearest is id %u, but id %u ties it exactly", tag(tree), (unsigned)out.id,
                 (unsigned)(i < sc->n ? tk_prim_id(sc, i) : 0u));
    tally(false, false);
done:
    if (!ok)
        describe_point(p, max_distance);
}

static bool same_vertex(const tk_scene *sc, uint32_t a, uint32_t b)
{
    const float *pa = vertex_ptr(sc, a), *pb = vertex_ptr(sc, b);
    return pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2];
}

void tk_check_nearest_vertex(const tk_scene *sc, const tk_tree *tree, const float *p, float max_distance)
{
    bool ok = true;
    const double tol = dist_tol(sc, p), limit = (double)max_distance;
    uint32_t t, k, best = COPSE_NONE, lower_twin = COPSE_NONE;
    double pd[3], best_d = 0.0, vd[3];
    bool used = false;
    copse_nearest3 out;
    copse_status st = copse_bvh_nearest_vertex(&tree->bvh, copse_v3(p[0], p[1], p[2]), max_distance, &out);

    ok &= CHECKF(st == COPSE_OK, "%s: nearest_vertex: %s", tag(tree), copse_status_str(st));
    to_double3(pd, p, 3);
    for (t = 0; t < sc->n; t++) {
        for (k = 0; k < 3; k++) {
            uint32_t v = tk_corner(sc, t, k);
            double d;
            tk_vertex(sc, v, vd);
            d = orc_dist(vd, pd);
            if (best == COPSE_NONE || d < best_d || (d == best_d && v < best)) {
                best = v;
                best_d = d;
            }
            if (v == out.id)
                used = true;
            else if (out.id != COPSE_NONE && out.id < sc->mesh.vertex_count && v < out.id && same_vertex(sc, v, out.id))
                lower_twin = v;
        }
    }
    if (out.id == COPSE_NONE) {
        ok &= CHECKF(best == COPSE_NONE || best_d > limit - tol,
                     "%s: nearest_vertex found nothing within %g, but vertex %u is %g away", tag(tree), limit,
                     (unsigned)best, best_d);
        tally(best != COPSE_NONE && best_d <= limit, false);
        goto done;
    }
    if (!CHECKF(used, "%s: nearest_vertex %u is no triangle's corner", tag(tree), (unsigned)out.id)) {
        ok = false;
        goto done;
    }
    tk_vertex(sc, out.id, vd);
    ok &= CHECKF(dabs(orc_dist(vd, pd) - best_d) <= tol &&
                     dabs(sqrt((double)out.distance_sq) - orc_dist(vd, pd)) <= tol && orc_dist(vd, pd) <= limit + tol,
                 "%s: nearest_vertex %u at %.9g (reported %.9g), the oracle's %u at %.9g", tag(tree), (unsigned)out.id,
                 orc_dist(vd, pd), sqrt((double)out.distance_sq), (unsigned)best, best_d);
    ok &= CHECKF((double)out.point.x == vd[0] && (double)out.point.y == vd[1] && (double)out.point.z == vd[2],
                 "%s: nearest_vertex point is not vertex %u", tag(tree), (unsigned)out.id);
    ok &= CHECKF(lower_twin == COPSE_NONE, "%s: nearest_vertex %u, but vertex %u is at the same place", tag(tree),
                 (unsigned)out.id, (unsigned)lower_twin);
    tally(false, false);
done:
    if (!ok)
        describe_point(p, max_distance);
}

/* ---- judges: walk ---------------------------------------------------------------------------- */

typedef struct walker {
    const tk_scene *sc;
    uint8_t *count; /* visits per primitive, saturating */
    uint32_t calls, stop_after, unknown;
    const tk_query *prune; /* a box: descend only into nodes that meet it */
} walker;

static bool walk_enter(void *user, const float *mn, const float *mx)
{
    const walker *w = (const walker *)user;
    unsigned a;
    for (a = 0; a < w->sc->dim; a++)
        if (mn[a] > w->prune->b[a] || w->prune->a[a] > mx[a])
            return false;
    return true;
}

static bool walk_visit(void *user, uint32_t id)
{
    walker *w = (walker *)user;
    uint32_t prim = tk_prim_of_id(w->sc, id);
    if (prim == COPSE_NONE)
        w->unknown++;
    else if (w->count[prim] < 255u)
        w->count[prim]++;
    w->calls++;
    return w->calls < w->stop_after;
}

void tk_check_walk(const tk_scene *sc, const tk_tree *tree, test_rng *rng)
{
    const uint32_t n = sc->n;
    size_t mark = tk_mark();
    uint8_t *count = (uint8_t *)tk_alloc((size_t)n + 1u);
    uint32_t *ids = (uint32_t *)tk_alloc(((size_t)n + 1u) * 4u), i, off = 0;
    walker w;
    tk_query q;
    copse_id_list list;
    copse_status st;
    if (count == NULL || ids == NULL)
        return;
    memset(&w, 0, sizeof w);
    w.sc = sc;
    w.count = count;
    w.stop_after = 0xFFFFFFFFu;
    memset(count, 0, (size_t)n + 1u);
    st = copse_bvh_walk(&tree->bvh, NULL, walk_visit, &w);
    for (i = 0; i < n; i++)
        off += count[i] != 1u;
    CHECKF(st == COPSE_OK && w.calls == n && w.unknown == 0 && off == 0,
           "%s: walk visited %u ids for %u prims (%u not exactly once)", tag(tree), (unsigned)w.calls, (unsigned)n,
           (unsigned)off);
    if (n > 0) {
        w.calls = 0;
        w.stop_after = 1u + test_rng_below(rng, n);
        st = copse_bvh_walk(&tree->bvh, NULL, walk_visit, &w);
        CHECKF(st == COPSE_OK && w.calls == w.stop_after, "%s: walk told to stop after %u went on to %u", tk_ctx(),
               (unsigned)w.stop_after, (unsigned)w.calls);
    }
    /* pruned by a box: at least the primitives the box query finds */
    tk_random_query(sc, TK_BOX, rng, &q);
    memset(count, 0, (size_t)n + 1u);
    w.calls = 0;
    w.stop_after = 0xFFFFFFFFu;
    w.prune = &q;
    st = copse_bvh_walk(&tree->bvh, walk_enter, walk_visit, &w);
    list = copse_id_list_make(ids, n + 1u);
    (void)tk_overlap(&tree->bvh, sc->dim, &q, COPSE_BVH_SELECT_PRIMS, &list);
    for (i = 0, off = 0; i < list.count; i++) {
        uint32_t prim = tk_prim_of_id(sc, ids[i]);
        off += prim == COPSE_NONE || count[prim] != 1u;
    }
    CHECKF(st == COPSE_OK && w.calls <= n && off == 0, "%s: pruned walk visited %u ids and missed %u of the box's %u",
           tag(tree), (unsigned)w.calls, (unsigned)off, (unsigned)list.count);
    tk_rewind(mark);
}

/* ---- single judged queries and the battery ---------------------------------------------------- */

void tk_check_overlap(const tk_scene *sc, const tk_tree *tree, const tk_query *q, test_rng *rng)
{
    size_t mark = tk_mark();
    uint8_t *verdict = (uint8_t *)tk_alloc((size_t)sc->n + 1u);
    if (verdict == NULL)
        return;
    oracle_overlap(sc, q, verdict);
    judge_overlap(sc, tree, q, verdict, rng);
    tk_rewind(mark);
}

void tk_check_ray(const tk_scene *sc, const tk_tree *tree, const tk_ray *r, test_rng *rng)
{
    size_t mark = tk_mark();
    orc_hit *hits = (orc_hit *)tk_alloc(((size_t)sc->n + 1u) * sizeof(orc_hit));
    if (hits == NULL)
        return;
    oracle_ray(sc, r, hits);
    judge_ray(sc, tree, r, hits, rng);
    tk_rewind(mark);
}

void tk_check_nearest(const tk_scene *sc, const tk_tree *tree, const float *p, float max_distance)
{
    size_t mark = tk_mark();
    double *dist = (double *)tk_alloc(((size_t)sc->n + 1u) * sizeof(double));
    if (dist == NULL)
        return;
    judge_nearest(sc, tree, p, max_distance, dist, oracle_nearest(sc, p, dist));
    tk_rewind(mark);
}

static float random_limit(const tk_scene *sc, test_rng *rng)
{
    uint32_t pick = test_rng_below(rng, 4);
    return pick == 0 ? INFINITY : pick == 1 ? rnd(rng, 0.0, 0.3 * scale_of(sc)) : FLT_MAX;
}

void tk_run_queries(const tk_scene *sc, const tk_tree *trees, unsigned ntrees, uint64_t seed, const tk_mix *mix)
{
    const uint32_t n = sc->n;
    size_t mark = tk_mark();
    uint8_t *verdict = (uint8_t *)tk_alloc((size_t)n + 1u);
    orc_hit *hits = (orc_hit *)tk_alloc(((size_t)n + 1u) * sizeof(orc_hit));
    double *dist = (double *)tk_alloc(((size_t)n + 1u) * sizeof(double));
    unsigned i, t, s;
    test_rng rng;
    if (verdict == NULL || hits == NULL || dist == NULL)
        return;
    test_rng_seed(&rng, seed);
    g_query = 0;
    for (i = 0;; i++) {
        const unsigned counts[3] = {mix->boxes, mix->spheres, mix->segments};
        bool any = false;
        for (s = 0; s < 3; s++) {
            tk_query q;
            if (i >= counts[s])
                continue;
            any = true;
            tk_random_query(sc, (tk_shape)s, &rng, &q);
            oracle_overlap(sc, &q, verdict);
            for (t = 0; t < ntrees; t++)
                judge_overlap(sc, &trees[t], &q, verdict, &rng);
            g_query++;
        }
        if (i < mix->rays) {
            tk_ray r;
            any = true;
            tk_random_ray(sc, &rng, &r);
            oracle_ray(sc, &r, hits);
            for (t = 0; t < ntrees; t++)
                judge_ray(sc, &trees[t], &r, hits, &rng);
            g_query++;
        }
        if (i < mix->nearest) {
            float p[3], lim;
            uint32_t inside;
            any = true;
            tk_random_point(sc, &rng, p);
            lim = random_limit(sc, &rng);
            inside = oracle_nearest(sc, p, dist);
            for (t = 0; t < ntrees; t++)
                judge_nearest(sc, &trees[t], p, lim, dist, inside);
            g_query++;
        }
        if (i < mix->vertices && sc->kind == COPSE_BVH_PRIM_TRIANGLES && sc->dim == 3) {
            float p[3], lim;
            any = true;
            tk_random_point(sc, &rng, p);
            lim = random_limit(sc, &rng);
            for (t = 0; t < ntrees; t++)
                tk_check_nearest_vertex(sc, &trees[t], p, lim);
            g_query++;
        }
        if (!any)
            break;
    }
    for (t = 0; t < ntrees; t++)
        tk_check_walk(sc, &trees[t], &rng);
    tk_rewind(mark);
}

/* ---- building and verifying ------------------------------------------------------------------- */

static copse_status build_scene(copse_bvh *bvh, copse_arena *arena, const tk_scene *sc, const copse_bvh_params *params)
{
    copse_bvh_params p = *params;
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES) {
        p.projection = sc->projection;
        return copse_bvh_build_mesh(bvh, arena, &sc->mesh, &p);
    }
    if (sc->dim == 3)
        return copse_bvh_build_boxes3(bvh, arena, (const copse_box3 *)(const void *)sc->boxes, sc->ids, sc->n, &p);
    return copse_bvh_build_boxes2(bvh, arena, (const copse_box2 *)(const void *)sc->boxes, sc->ids, sc->n, &p);
}

bool tk_build(tk_tree *tree, const tk_scene *sc, const copse_bvh_params *params)
{
    copse_bvh_params p = *params;
    size_t mark = tk_mark(), exact;
    copse_arena arena;
    copse_status st;
    void *buf;

    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES)
        p.projection = sc->projection;
    tree->params = p;
    memset(&tree->bvh, 0, sizeof tree->bvh);
    exact = copse_bvh_build_bytes(sc->n, sc->dim, &p);
    CHECKF(exact <= COPSE_BVH_BUILD_BYTES(sc->n, p.leaf_size), "%s: build bytes %lu above the macro's %lu",
           tag_params(&p, false), (unsigned long)exact, (unsigned long)COPSE_BVH_BUILD_BYTES(sc->n, p.leaf_size));
    buf = tk_alloc(exact);
    if (buf == NULL)
        return false;
    copse_arena_init(&arena, buf, exact);
    st = build_scene(&tree->bvh, &arena, sc, &p);
    if (!CHECKF(st == COPSE_OK, "%s: build: %s", tag_params(&p, false), copse_status_str(st))) {
        tk_rewind(mark);
        return false;
    }
    CHECKF(arena.used == copse_bvh_bytes(&tree->bvh) && arena.high_water == exact &&
               arena.used <= COPSE_BVH_TREE_BYTES(sc->n, p.leaf_size),
           "%s: arena used %lu (tree %lu), high water %lu (exact %lu)", tag_params(&p, false),
           (unsigned long)arena.used, (unsigned long)copse_bvh_bytes(&tree->bvh), (unsigned long)arena.high_water,
           (unsigned long)exact);
    tk_rewind(mark + arena.used); /* keep the tree, give back its scratch */
    tk_verify_tree(&tree->bvh, sc, &p);
    return true;
}

static bool bounds_equal(const float *amin, const float *amax, const float *bmin, const float *bmax, unsigned dim)
{
    unsigned a;
    for (a = 0; a < dim; a++)
        if (amin[a] != bmin[a] || amax[a] != bmax[a])
            return false;
    return true;
}

static void node_floats(const copse_bvh *bvh, uint32_t i, const float **mn, const float **mx, int32_t *index,
                        uint32_t *count)
{
    if (bvh->dim == 3) {
        const copse_bvh_node3 *nd = (const copse_bvh_node3 *)bvh->nodes + i;
        *mn = nd->min;
        *mx = nd->max;
        *index = nd->index;
        *count = nd->count;
    } else {
        const copse_bvh_node2 *nd = (const copse_bvh_node2 *)bvh->nodes + i;
        *mn = nd->min;
        *mx = nd->max;
        *index = nd->index;
        *count = nd->count;
    }
}

void tk_verify_tree(const copse_bvh *bvh, const tk_scene *sc, const copse_bvh_params *params)
{
    const uint32_t n = sc->n, nn = bvh->node_count, leaf = params->leaf_size, min_child = (leaf + 1u) / 2u;
    size_t mark = tk_mark();
    uint32_t *first, i, bad_span = 0, bad_leaf = 0, bad_bounds = 0, bad_split = 0, dup = 0, leaves = 0;
    uint32_t max_depth = 0, max_leaf = 0;
    uint8_t *seen, *depth;
    copse_bvh_stats stats;
    copse_status st = copse_bvh_check(bvh);

    CHECKF(st == COPSE_OK, "%s: copse_bvh_check: %s", tag_params(params, false), copse_status_str(st));
    CHECKF(bvh->dim == sc->dim && bvh->kind == (uint8_t)sc->kind && bvh->prim_count == n &&
               bvh->degenerate_count == (sc->kind == COPSE_BVH_PRIM_TRIANGLES ? sc->degenerate : 0u),
           "%s: tree dim %u kind %u prims %u degenerate %u; scene %u %u %u %u", tk_ctx(), (unsigned)bvh->dim,
           (unsigned)bvh->kind, (unsigned)bvh->prim_count, (unsigned)bvh->degenerate_count, (unsigned)sc->dim,
           (unsigned)sc->kind, (unsigned)n, (unsigned)sc->degenerate);
    CHECKF(nn <= COPSE_BVH_NODE_BUDGET(n, leaf) && bvh->depth <= COPSE_BVH_MAX_DEPTH && (n == 0) == (nn == 0),
           "%s: %u nodes (budget %lu), depth %u", tag_params(params, false), (unsigned)nn,
           (unsigned long)COPSE_BVH_NODE_BUDGET(n, leaf), (unsigned)bvh->depth);
    if (nn == 0 || st != COPSE_OK)
        return;
    first = (uint32_t *)tk_alloc(((size_t)nn + 1u) * 4u);
    depth = (uint8_t *)tk_alloc((size_t)nn + 1u);
    seen = (uint8_t *)tk_alloc((size_t)n + 1u);
    if (first == NULL || depth == NULL || seen == NULL)
        return;
    memset(seen, 0, (size_t)n + 1u);

    /* first[i]: the first leaf slot of i's subtree; first[nn] = n. Children follow parents. */
    first[nn] = n;
    for (i = nn; i-- > 0;) {
        const float *mn, *mx;
        int32_t index;
        uint32_t count;
        node_floats(bvh, i, &mn, &mx, &index, &count);
        first[i] = index >= 0 ? (uint32_t)index : first[i + 1u];
    }
    depth[0] = 1;
    for (i = 0; i < nn; i++) {
        const float *mn, *mx;
        int32_t index;
        uint32_t count, k;
        node_floats(bvh, i, &mn, &mx, &index, &count);
        if (depth[i] > max_depth)
            max_depth = depth[i];
        if (index >= 0) { /* a leaf: its primitives, exactly bounded */
            float pmn[3], pmx[3], umn[3], umx[3];
            unsigned a;
            leaves++;
            max_leaf = count > max_leaf ? count : max_leaf;
            if (count == 0 || count > leaf || (uint64_t)index + count > n) {
                bad_leaf++;
                continue;
            }
            for (k = 0; k < count; k++) {
                uint32_t prim = bvh->prims[(uint32_t)index + k];
                if (prim >= n || seen[prim]) {
                    dup++;
                    continue;
                }
                seen[prim] = 1;
                tk_prim_bounds(sc, prim, pmn, pmx);
                for (a = 0; a < sc->dim; a++) {
                    umn[a] = (k == 0 || pmn[a] < umn[a]) ? pmn[a] : umn[a];
                    umx[a] = (k == 0 || pmx[a] > umx[a]) ? pmx[a] : umx[a];
                }
            }
            if (!bounds_equal(mn, mx, umn, umx, sc->dim))
                bad_bounds++;
        } else { /* internal: two children tiling its span, bounds their union */
            uint32_t span = (uint32_t)(-(int64_t)index), left = i + 1u, right, lspan, rspan, lp, rp;
            const float *lmn, *lmx, *rmn, *rmx;
            int32_t lidx, ridx;
            uint32_t lc, rc;
            float umn[3], umx[3];
            unsigned a;
            if (span < 3u || span > nn - i) {
                bad_span++;
                break;
            }
            node_floats(bvh, left, &lmn, &lmx, &lidx, &lc);
            lspan = lidx < 0 ? (uint32_t)(-(int64_t)lidx) : 1u;
            right = left + lspan;
            if (right >= i + span) {
                bad_span++;
                break;
            }
            node_floats(bvh, right, &rmn, &rmx, &ridx, &rc);
            rspan = ridx < 0 ? (uint32_t)(-(int64_t)ridx) : 1u;
            if (1u + lspan + rspan != span) {
                bad_span++;
                break;
            }
            depth[left] = depth[right] = (uint8_t)(depth[i] + 1u);
            for (a = 0; a < sc->dim; a++) {
                umn[a] = lmn[a] < rmn[a] ? lmn[a] : rmn[a];
                umx[a] = lmx[a] > rmx[a] ? lmx[a] : rmx[a];
            }
            if (!bounds_equal(mn, mx, umn, umx, sc->dim))
                bad_bounds++;
            lp = first[right] - first[left];
            rp = first[i + span] - first[right];
            if (lp + rp <= leaf || lp < min_child || rp < min_child)
                bad_split++;
        }
    }
    for (i = 0; i < n; i++)
        dup += seen[i] == 0;
    CHECKF(bad_span == 0 && bad_leaf == 0 && dup == 0,
           "%s: %u bad escape counts, %u bad leaves, %u prims missing or repeated", tag_params(params, false),
           (unsigned)bad_span, (unsigned)bad_leaf, (unsigned)dup);
    CHECKF(bad_bounds == 0, "%s: %u nodes whose bounds are not exactly their contents'", tag_params(params, false),
           (unsigned)bad_bounds);
    CHECKF(bad_split == 0, "%s: %u splits with a child under ceil(leaf/2) = %u prims", tag_params(params, false),
           (unsigned)bad_split, (unsigned)min_child);
    CHECKF(max_depth == bvh->depth, "%s: depth %u, recorded %u", tag_params(params, false), (unsigned)max_depth,
           (unsigned)bvh->depth);
    st = copse_bvh_get_stats(bvh, &stats);
    {
        uint32_t sum = 0, b;
        for (b = 0; b < 9u; b++)
            sum += stats.leaf_histogram[b];
        CHECKF(st == COPSE_OK && stats.nodes == nn && stats.leaves == leaves && stats.depth == max_depth &&
                   stats.max_leaf_prims == max_leaf && sum == leaves && stats.sah_cost >= 1.0f &&
                   stats.sah_cost <= FLT_MAX,
               "%s: stats nodes %u leaves %u depth %u max leaf %u histogram %u cost %g", tag_params(params, false),
               (unsigned)stats.nodes, (unsigned)stats.leaves, (unsigned)stats.depth, (unsigned)stats.max_leaf_prims,
               (unsigned)sum, (double)stats.sah_cost);
    }
    for (i = 0; i < n; i++)
        if (copse_bvh_prim_id(bvh, i) != tk_prim_id(sc, i))
            break;
    CHECKF(i == n, "%s: copse_bvh_prim_id(%u) = %u, expected %u", tk_ctx(), (unsigned)i,
           (unsigned)(copse_bvh_prim_id(bvh, i)), (unsigned)(i < n ? tk_prim_id(sc, i) : 0u));
    tk_rewind(mark);
}

uint32_t tk_tree_hash(const copse_bvh *bvh)
{
    uint32_t h = 2166136261u;
    size_t i,
        node_bytes = (size_t)bvh->node_count * (bvh->dim == 3 ? sizeof(copse_bvh_node3) : sizeof(copse_bvh_node2));
    const uint8_t *p = (const uint8_t *)bvh->nodes;
    for (i = 0; i < node_bytes; i++)
        h = (h ^ p[i]) * 16777619u;
    p = (const uint8_t *)bvh->prims;
    for (i = 0; i < (size_t)bvh->prim_count * 4u; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* SPDX-License-Identifier: MIT */
/*
 * collide_peers: copse's collision queries (include/copse/collide.h) against FCL 0.7 (Debian's
 * libfcl-dev, the library MoveIt uses), in one process, on the same poses.
 *
 *   1. link against link: the Franka Panda's and the KUKA iiwa's collision meshes, pairs of links
 *      of one robot at random relative poses (random rotation, the centres a random fraction of
 *      the sum of the bounding radii apart), boolean and distance;
 *   2. a link against dungeon.obj scaled to a room (0.1: 7.4 m x 4.0 m x 9.9 m), boolean and distance;
 *   3. sphere, capsule and box against the room, boolean and distance;
 *   4. a link against the laser scan (88k points): distance, points within 5 cm, any point within 5 cm.
 *
 * Timing: the thread's CPU time; every contender runs the whole query set once per round, the
 * contenders take turns (the first one moves on by one each round), round 0 warms up, and the
 * medians of the rounds are printed. Answers are compared query by query; disagreements are
 * counted, and the first few are refereed by a brute force in double over all primitive pairs
 * (textbook closest-point formulas, written here), printed with the case.
 *
 * FCL is used through its geometry-level collide() / distance() (no CollisionObject, no broad
 * phase), with float types (OBBRSSf, AABBf, Spheref, ...) and OBBRSSd for reference; FCL's
 * defaults otherwise (libccd GJK for shapes, exact distance: rel_err = abs_err = 0).
 *
 * Prints markdown on stdout (make bench-collide -> docs/benchmarks-collide.md).
 * --quick: fewer queries and rounds. --profile FAMILY: runs copse's side of one family for a few
 * seconds and nothing else (for perf record); FAMILY is one of the row keys printed with --list.
 */
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fcl/fcl.h>
#include <fcl/geometry/octree/octree.h>
#include <octomap/octomap.h>

#include "bench.h"
#include "collide_count.h"
#include "copse/collide.h"
#include "copse/octree.h"
#include "host_clock.h"
#include "turns.h"
extern "C" {
#include "mesh_load.h" /* no C++ guard of its own */
}
#include "octree_scan.h"

namespace {

/* ---- settings ------------------------------------------------------------------------------ */

unsigned g_rounds = 7;
uint32_t g_pairs = 2000;      /* link pairs per robot */
uint32_t g_env = 1000;        /* links and shapes in the room */
uint32_t g_scan = 300;        /* links against the scan */
const float ROOM_SCALE = 0.1f;
const float SCAN_D = 0.05f;   /* "points within d" */
const double OCTOMAP_RES = 0.02; /* FCL OcTree voxel side, metres */
volatile uint64_t g_sink;
const char *g_profile = nullptr;
uint32_t g_leaf = 4; /* copse's leaf size (--leaf; the default params' 4) */

typedef fcl::BVHModel<fcl::OBBRSSf> ModelOf;
typedef fcl::BVHModel<fcl::AABBf> ModelAf;
typedef fcl::BVHModel<fcl::OBBRSSd> ModelOd;

/* ---- meshes: copse's tree and FCL's three models ------------------------------------------- */

struct Mesh {
    std::string name;
    std::vector<float> pos; /* xyz per vertex */
    std::vector<uint32_t> idx;
    copse_mesh view;
    copse_bvh bvh;
    void *mem = nullptr;
    double center[3], radius; /* bounds' centre; farthest vertex from it */
    std::shared_ptr<ModelOf> of;
    std::shared_ptr<ModelAf> af;
    std::shared_ptr<ModelOd> od;
    uint32_t ntri() const { return (uint32_t)(idx.size() / 3); }
    const float *v(uint32_t t, int k) const { return &pos[3 * (size_t)idx[3 * (size_t)t + k]]; }
};

template <class BV>
std::shared_ptr<fcl::BVHModel<BV>> fcl_model(const Mesh &m)
{
    typedef typename BV::S S;
    std::vector<fcl::Vector3<S>> verts(m.pos.size() / 3);
    std::vector<fcl::Triangle> tris(m.ntri());
    for (size_t i = 0; i < verts.size(); i++)
        verts[i] = fcl::Vector3<S>(m.pos[3 * i], m.pos[3 * i + 1], m.pos[3 * i + 2]);
    for (size_t t = 0; t < tris.size(); t++)
        tris[t] = fcl::Triangle(m.idx[3 * t], m.idx[3 * t + 1], m.idx[3 * t + 2]);
    auto model = std::make_shared<fcl::BVHModel<BV>>();
    model->beginModel((int)tris.size(), (int)verts.size());
    model->addSubModel(verts, tris);
    model->endModel();
    return model;
}

/* What FCL's model keeps, counted from its arrays (memUsage() in 0.7 prints and returns 0):
 * the BVNode array (getNumBVs() nodes) and primitive_indices (one unsigned a triangle); with the
 * mesh, its own copy of the vertices (Vector3<S>) and triangles (fcl::Triangle, 3 size_t). */
template <class BV>
size_t fcl_tree_bytes(const fcl::BVHModel<BV> &m)
{
    return (size_t)m.getNumBVs() * sizeof(fcl::BVNode<BV>) + (size_t)m.num_tris * sizeof(unsigned);
}
template <class BV>
size_t fcl_mesh_bytes(const fcl::BVHModel<BV> &m)
{
    return (size_t)m.num_vertices * sizeof(fcl::Vector3<typename BV::S>) + (size_t)m.num_tris * sizeof(fcl::Triangle);
}

bool build_copse(Mesh &m)
{
    m.view.positions = m.pos.data();
    m.view.vertex_count = (uint32_t)(m.pos.size() / 3);
    m.view.vertex_stride = 0;
    m.view.indices = m.idx.data();
    m.view.index_type = COPSE_MESH_INDEX_U32;
    m.view.triangle_count = m.ntri();
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    p.leaf_size = g_leaf;
    size_t bytes = copse_bvh_build_bytes(m.view.triangle_count, 3, &p);
    m.mem = std::aligned_alloc(16, (bytes + 15) & ~(size_t)15);
    copse_arena arena;
    copse_arena_init(&arena, m.mem, bytes);
    copse_status st = copse_bvh_build_mesh(&m.bvh, &arena, &m.view, &p);
    if (st != COPSE_OK) {
        std::fprintf(stderr, "collide_peers: %s: copse_bvh_build_mesh failed (%d)\n", m.name.c_str(), (int)st);
        return false;
    }
    return true;
}

void finish_mesh(Mesh &m, bool fcl_models = true)
{
    double mn[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, mx[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (size_t i = 0; i < m.pos.size(); i += 3)
        for (int a = 0; a < 3; a++) {
            mn[a] = std::min(mn[a], (double)m.pos[i + a]);
            mx[a] = std::max(mx[a], (double)m.pos[i + a]);
        }
    m.radius = 0;
    for (int a = 0; a < 3; a++)
        m.center[a] = 0.5 * (mn[a] + mx[a]);
    for (size_t i = 0; i < m.pos.size(); i += 3) {
        double d2 = 0;
        for (int a = 0; a < 3; a++)
            d2 += (m.pos[i + a] - m.center[a]) * (m.pos[i + a] - m.center[a]);
        m.radius = std::max(m.radius, std::sqrt(d2));
    }
    if (fcl_models) {
        m.of = fcl_model<fcl::OBBRSSf>(m);
        m.af = fcl_model<fcl::AABBf>(m);
        m.od = fcl_model<fcl::OBBRSSd>(m);
    }
}

bool load_mesh(Mesh &m, const std::string &path, const std::string &name, float scale)
{
    host_mesh hm;
    char err[512];
    if (host_mesh_load(path.c_str(), &hm, err, sizeof err) != 0) {
        std::fprintf(stderr, "collide_peers: %s\n", err);
        return false;
    }
    m.name = name;
    m.pos.assign(hm.positions, hm.positions + 3 * (size_t)hm.vertex_count);
    m.idx.assign(hm.indices, hm.indices + 3 * (size_t)hm.triangle_count);
    host_mesh_free(&hm);
    for (float &x : m.pos)
        x *= scale;
    if (!build_copse(m))
        return false;
    finish_mesh(m);
    return true;
}

/* ---- poses ---------------------------------------------------------------------------------- */

struct Pose {
    copse_pose c;  /* what copse is given */
    fcl::Transform3f f;
    fcl::Transform3d d; /* the same float numbers, widened */
};

void random_rotation(bench_rng *rng, float r[3][3])
{
    /* Shoemake's uniform quaternion, in double, rounded once */
    double u1 = bench_rng_float(rng, 0.0f, 1.0f), u2 = bench_rng_float(rng, 0.0f, 1.0f),
           u3 = bench_rng_float(rng, 0.0f, 1.0f);
    double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    double x = a * std::sin(2 * M_PI * u2), y = a * std::cos(2 * M_PI * u2), z = b * std::sin(2 * M_PI * u3),
           w = b * std::cos(2 * M_PI * u3);
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = (float)m[i][j];
}

void random_direction(bench_rng *rng, double d[3])
{
    for (;;) {
        double n2 = 0;
        for (int a = 0; a < 3; a++) {
            d[a] = bench_rng_float(rng, -1.0f, 1.0f);
            n2 += d[a] * d[a];
        }
        if (n2 > 1e-4 && n2 <= 1) {
            for (int a = 0; a < 3; a++)
                d[a] /= std::sqrt(n2);
            return;
        }
    }
}

Pose make_pose(const float r[3][3], const float t[3])
{
    Pose p;
    p.f.setIdentity();
    p.d.setIdentity();
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            p.c.rotation[i][j] = r[i][j];
            p.f.linear()(i, j) = r[i][j];
            p.d.linear()(i, j) = r[i][j];
        }
        p.f.translation()(i) = t[i];
        p.d.translation()(i) = t[i];
    }
    p.c.translation = copse_v3(t[0], t[1], t[2]);
    return p;
}

/* The pose that puts `m`'s bounds centre, turned by r, at `at`. */
Pose pose_centred(const Mesh &m, const float r[3][3], const double at[3])
{
    float t[3];
    for (int i = 0; i < 3; i++) {
        double rc = 0;
        for (int j = 0; j < 3; j++)
            rc += (double)r[i][j] * m.center[j];
        t[i] = (float)(at[i] - rc);
    }
    return make_pose(r, t);
}

/* ---- the referee: brute force in double -------------------------------------------------------- */

typedef double V3[3];
inline void sub(const double *a, const double *b, double *o) { o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2]; }
inline double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline void cross(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
inline double dist2(const double *a, const double *b)
{
    double d[3];
    sub(a, b, d);
    return dot(d, d);
}

/* Ericson, Real-Time Collision Detection 5.1.5: closest point on triangle abc to p. */
double ref_point_tri(const double *p, const double *a, const double *b, const double *c)
{
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3];
    sub(b, a, ab), sub(c, a, ac), sub(p, a, ap);
    double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0)
        return dist2(p, a);
    sub(p, b, bp);
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3)
        return dist2(p, b);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        for (int k = 0; k < 3; k++)
            q[k] = a[k] + v * ab[k];
        return dist2(p, q);
    }
    sub(p, c, cp);
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6)
        return dist2(p, c);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        for (int k = 0; k < 3; k++)
            q[k] = a[k] + w * ac[k];
        return dist2(p, q);
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; k++)
            q[k] = b[k] + w * (c[k] - b[k]);
        return dist2(p, q);
    }
    double den = va + vb + vc;
    if (!(den > 0)) { /* degenerate triangle: its three edges */
        double best = DBL_MAX;
        const double *e[3][2] = {{a, b}, {b, c}, {c, a}};
        for (auto &s : e) {
            double d[3], t;
            sub(s[1], s[0], d);
            double l2 = dot(d, d);
            double ps[3];
            sub(p, s[0], ps);
            t = l2 > 0 ? std::min(1.0, std::max(0.0, dot(ps, d) / l2)) : 0;
            for (int k = 0; k < 3; k++)
                q[k] = s[0][k] + t * d[k];
            best = std::min(best, dist2(p, q));
        }
        return best;
    }
    double v = vb / den, w = vc / den;
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + ab[k] * v + ac[k] * w;
    return dist2(p, q);
}

/* Ericson 5.1.9: closest points of segments p1q1 and p2q2, squared distance. */
double ref_seg_seg(const double *p1, const double *q1, const double *p2, const double *q2)
{
    double d1[3], d2[3], r[3];
    sub(q1, p1, d1), sub(q2, p2, d2), sub(p1, p2, r);
    double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r), s, t;
    if (a <= 0 && e <= 0)
        return dot(r, r);
    if (a <= 0) {
        s = 0;
        t = std::min(1.0, std::max(0.0, f / e));
    } else {
        double c = dot(d1, r);
        if (e <= 0) {
            t = 0;
            s = std::min(1.0, std::max(0.0, -c / a));
        } else {
            double b = dot(d1, d2), den = a * e - b * b;
            s = den > 0 ? std::min(1.0, std::max(0.0, (b * f - c * e) / den)) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = std::min(1.0, std::max(0.0, -c / a));
            } else if (t > 1) {
                t = 1;
                s = std::min(1.0, std::max(0.0, (b - c) / a));
            }
        }
    }
    double c1[3], c2[3];
    for (int k = 0; k < 3; k++)
        c1[k] = p1[k] + d1[k] * s, c2[k] = p2[k] + d2[k] * t;
    return dist2(c1, c2);
}

/* Does segment pq pierce triangle abc (not coplanar)? Signed volumes in double. */
bool ref_seg_pierces(const double *p, const double *q, const double *a, const double *b, const double *c)
{
    auto vol = [](const double *o, const double *x, const double *y, const double *z) {
        double u[3], v[3], w[3], n[3];
        sub(x, o, u), sub(y, o, v), sub(z, o, w);
        cross(u, v, n);
        return dot(n, w);
    };
    double sp = vol(a, b, c, p), sq = vol(a, b, c, q);
    if ((sp > 0 && sq > 0) || (sp < 0 && sq < 0) || (sp == 0 && sq == 0))
        return false;
    double s1 = vol(p, q, a, b), s2 = vol(p, q, b, c), s3 = vol(p, q, c, a);
    return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

double ref_seg_tri(const double *p, const double *q, const double *const t[3])
{
    if (ref_seg_pierces(p, q, t[0], t[1], t[2]))
        return 0;
    double best = std::min(ref_point_tri(p, t[0], t[1], t[2]), ref_point_tri(q, t[0], t[1], t[2]));
    for (int e = 0; e < 3; e++)
        best = std::min(best, ref_seg_seg(p, q, t[e], t[(e + 1) % 3]));
    return best;
}

double ref_tri_tri(const double *const s[3], const double *const t[3])
{
    double best = DBL_MAX;
    for (int e = 0; e < 3; e++) {
        best = std::min(best, ref_seg_tri(s[e], s[(e + 1) % 3], t));
        best = std::min(best, ref_seg_tri(t[e], t[(e + 1) % 3], s));
        if (best == 0)
            return 0;
    }
    return best;
}

/* A mesh's triangles in double, placed by a pose (or as they are). */
struct RefTris {
    std::vector<double> v; /* 9 per triangle */
    std::vector<double> box; /* 6 per triangle: min, max */
    size_t n() const { return v.size() / 9; }
};

RefTris ref_tris(const Mesh &m, const copse_pose *pose)
{
    RefTris r;
    r.v.resize(9 * (size_t)m.ntri());
    r.box.resize(6 * (size_t)m.ntri());
    for (uint32_t t = 0; t < m.ntri(); t++) {
        for (int k = 0; k < 3; k++) {
            const float *p = m.v(t, k);
            for (int i = 0; i < 3; i++) {
                double x = p[i];
                if (pose) {
                    x = pose->translation.x * (i == 0) + pose->translation.y * (i == 1) + pose->translation.z * (i == 2);
                    for (int j = 0; j < 3; j++)
                        x += (double)pose->rotation[i][j] * p[j];
                }
                r.v[9 * t + 3 * k + i] = x;
            }
        }
        for (int i = 0; i < 3; i++) {
            double *b = &r.box[6 * t];
            const double *c = &r.v[9 * t];
            b[i] = std::min({c[i], c[3 + i], c[6 + i]});
            b[3 + i] = std::max({c[i], c[3 + i], c[6 + i]});
        }
    }
    return r;
}

double box_gap2(const double *a, const double *b)
{
    double g = 0;
    for (int i = 0; i < 3; i++) {
        double d = std::max({0.0, a[i] - b[3 + i], b[i] - a[3 + i]});
        g += d * d;
    }
    return g;
}

/* Exact-in-double distance between two triangle sets (surfaces). */
double ref_sets(const RefTris &A, const RefTris &B)
{
    double best = DBL_MAX;
    for (size_t i = 0; i < A.n(); i++)
        for (size_t j = 0; j < B.n(); j++) {
            if (box_gap2(&A.box[6 * i], &B.box[6 * j]) > best)
                continue;
            const double *s[3] = {&A.v[9 * i], &A.v[9 * i + 3], &A.v[9 * i + 6]};
            const double *t[3] = {&B.v[9 * j], &B.v[9 * j + 3], &B.v[9 * j + 6]};
            best = std::min(best, ref_tri_tri(s, t));
            if (best == 0)
                return 0;
        }
    return std::sqrt(best);
}

/* ---- families: one query set, its contenders, its answers ---------------------------------- */

enum Kind { BOOL, DIST, COUNT };

struct Answer {
    bool hit = false;
    double d = 0; /* a distance, or a count */
};

struct Contender {
    std::string name;
    std::function<uint64_t()> run;          /* the whole query set once, timed */
    std::function<Answer(uint32_t)> answer; /* one query, for the comparison */
    double tol_extra = 0;                   /* a difference this contender's model allows (voxels) */
};

template <class F>
Contender make_c(const std::string &name, uint32_t n, F f)
{
    Contender c;
    c.name = name;
    c.run = [f, n]() {
        uint64_t s = 0;
        for (uint32_t i = 0; i < n; i++) {
            Answer a = f(i);
            s += (uint64_t)a.hit + (uint64_t)(a.d > 0);
        }
        return s;
    };
    c.answer = f;
    return c;
}

struct Family {
    std::string key, part, title;
    Kind kind = BOOL;
    uint32_t n = 0;
    double scale = 1; /* the coordinates' magnitude (m), for the tolerance */
    std::vector<Contender> cs;
    std::function<double(uint32_t)> referee;       /* double brute force: distance or count */
    std::function<std::string(uint32_t)> describe; /* the case, to reproduce it */
    std::vector<double> ns;
    std::vector<std::vector<Answer>> ans;
    const Family *parts[2] = {nullptr, nullptr}; /* a row derived from two measured ones */
};

/* ---- timing -------------------------------------------------------------------------------- */

std::vector<double> time_turns(const std::vector<Contender> &cs, uint32_t n)
{
    return bench_time_turns(cs, n, g_rounds, g_sink);
}

std::string fmt_us(double ns)
{
    char b[32];
    if (ns >= 1e6)
        std::snprintf(b, sizeof b, "%.0f", ns / 1e3);
    else if (ns >= 1e5)
        std::snprintf(b, sizeof b, "%.1f", ns / 1e3);
    else
        std::snprintf(b, sizeof b, "%.2f", ns / 1e3);
    return b;
}

std::string pose_text(const copse_pose &p)
{
    char b[400];
    std::snprintf(b, sizeof b, "R = [%.9g %.9g %.9g; %.9g %.9g %.9g; %.9g %.9g %.9g], t = (%.9g, %.9g, %.9g)",
                  (double)p.rotation[0][0], (double)p.rotation[0][1], (double)p.rotation[0][2],
                  (double)p.rotation[1][0], (double)p.rotation[1][1], (double)p.rotation[1][2],
                  (double)p.rotation[2][0], (double)p.rotation[2][1], (double)p.rotation[2][2],
                  (double)p.translation.x, (double)p.translation.y, (double)p.translation.z);
    return b;
}

/* How far two float answers may differ: a few float ulps of the coordinates' magnitude and of the
 * distance itself (both sides round; FCL's triangle distance, copse's bounds in docs/collide.md). */
double dist_tol(double scale, double d)
{
    return 4e-6 * scale + 1e-5 * d;
}

/* ---- part 1 and 2: a mesh against a mesh ---------------------------------------------------- */

struct PairQ {
    const Mesh *tree, *mesh; /* the tree at the identity, the mesh placed by pose */
    Pose pose;
};

/* Pairs of links at random relative poses: a random rotation, the centres a random fraction
 * (0.2..1.0) of the sum of the bounding radii apart in a random direction. */
std::vector<PairQ> link_pairs(const std::vector<const Mesh *> &links, uint32_t n, uint64_t seed)
{
    bench_rng rng;
    bench_rng_seed(&rng, seed);
    std::vector<PairQ> q;
    for (uint32_t i = 0; i < n; i++) {
        const Mesh &a = *links[bench_rng_u32(&rng) % links.size()];
        const Mesh &b = *links[bench_rng_u32(&rng) % links.size()];
        float r[3][3];
        random_rotation(&rng, r);
        double dir[3], at[3];
        random_direction(&rng, dir);
        double f = bench_rng_float(&rng, 0.2f, 1.0f) * (a.radius + b.radius);
        for (int k = 0; k < 3; k++)
            at[k] = a.center[k] + f * dir[k];
        q.push_back({&a, &b, pose_centred(b, r, at)});
    }
    return q;
}

std::vector<double> area_cdf(const Mesh &m)
{
    std::vector<double> cdf;
    double acc = 0;
    for (uint32_t t = 0; t < m.ntri(); t++) {
        double a[3], b[3], c[3], u[3], v[3], nrm[3];
        for (int k = 0; k < 3; k++)
            a[k] = m.v(t, 0)[k], b[k] = m.v(t, 1)[k], c[k] = m.v(t, 2)[k];
        sub(b, a, u), sub(c, a, v);
        cross(u, v, nrm);
        acc += 0.5 * std::sqrt(dot(nrm, nrm));
        cdf.push_back(acc);
    }
    return cdf;
}

/* A random point of the surface (area-weighted), moved by up to `off` in a random direction. */
void near_surface(const Mesh &room, const std::vector<double> &cdf, bench_rng *rng, double off, double at[3])
{
    double u = bench_rng_float(rng, 0.0f, 1.0f) * cdf.back();
    uint32_t t = (uint32_t)(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    t = std::min(t, room.ntri() - 1);
    double s = bench_rng_float(rng, 0.0f, 1.0f), w = bench_rng_float(rng, 0.0f, 1.0f);
    if (s + w > 1)
        s = 1 - s, w = 1 - w;
    double dir[3];
    random_direction(rng, dir);
    double o = bench_rng_float(rng, 0.0f, 1.0f) * off;
    for (int k = 0; k < 3; k++)
        at[k] = room.v(t, 0)[k] + s * (room.v(t, 1)[k] - room.v(t, 0)[k]) + w * (room.v(t, 2)[k] - room.v(t, 0)[k]) +
                o * dir[k];
}

/* Links in the room: each link's centre near a random surface point (within 3 radii). */
std::vector<PairQ> room_links(const Mesh &room, const std::vector<const Mesh *> &links, uint32_t n, uint64_t seed)
{
    bench_rng rng;
    bench_rng_seed(&rng, seed);
    std::vector<double> cdf = area_cdf(room);
    std::vector<PairQ> q;
    for (uint32_t i = 0; i < n; i++) {
        const Mesh &b = *links[i % links.size()];
        float r[3][3];
        random_rotation(&rng, r);
        double at[3];
        near_surface(room, cdf, &rng, 3.0 * b.radius, at);
        q.push_back({&room, &b, pose_centred(b, r, at)});
    }
    return q;
}

std::string pair_case(const PairQ &p)
{
    return p.mesh->name + " placed by " + pose_text(p.pose.c) + " against " + p.tree->name + " at the identity";
}

void fam_mesh_bool(Family &F, const std::vector<PairQ> &q, bool aabb)
{
    F.kind = BOOL;
    F.n = (uint32_t)q.size();
    F.cs.push_back(make_c("copse", F.n, [&q](uint32_t i) {
        copse_pair w;
        copse_bvh_any_bvh(&q[i].tree->bvh, &q[i].mesh->bvh, &q[i].pose.c, &w, nullptr);
        Answer a;
        a.hit = w.tree_id != COPSE_NONE;
        return a;
    }));
    F.cs.push_back(make_c("FCL OBBRSSf", F.n, [&q](uint32_t i) {
        fcl::CollisionRequestf req(1, false);
        fcl::CollisionResultf res;
        Answer a;
        a.hit = fcl::collide(q[i].tree->of.get(), fcl::Transform3f::Identity(), q[i].mesh->of.get(), q[i].pose.f, req,
                             res) > 0;
        return a;
    }));
    if (aabb)
        F.cs.push_back(make_c("FCL AABBf", F.n, [&q](uint32_t i) {
            fcl::CollisionRequestf req(1, false);
            fcl::CollisionResultf res;
            Answer a;
            a.hit = fcl::collide(q[i].tree->af.get(), fcl::Transform3f::Identity(), q[i].mesh->af.get(), q[i].pose.f,
                                 req, res) > 0;
            return a;
        }));
    F.cs.push_back(make_c("FCL OBBRSSd", F.n, [&q](uint32_t i) {
        fcl::CollisionRequestd req(1, false);
        fcl::CollisionResultd res;
        Answer a;
        a.hit = fcl::collide(q[i].tree->od.get(), fcl::Transform3d::Identity(), q[i].mesh->od.get(), q[i].pose.d, req,
                             res) > 0;
        return a;
    }));
    F.referee = [&q](uint32_t i) {
        return ref_sets(ref_tris(*q[i].tree, nullptr), ref_tris(*q[i].mesh, &q[i].pose.c));
    };
    F.describe = [&q](uint32_t i) { return pair_case(q[i]); };
}

void fam_mesh_dist(Family &F, const std::vector<PairQ> &q)
{
    F.kind = DIST;
    F.n = (uint32_t)q.size();
    F.cs.push_back(make_c("copse", F.n, [&q](uint32_t i) {
        copse_distance d;
        copse_distance_bvh_bvh(&q[i].mesh->bvh, &q[i].pose.c, &q[i].tree->bvh, nullptr, &d);
        Answer a;
        a.d = d.distance;
        return a;
    }));
    F.cs.push_back(make_c("FCL OBBRSSf", F.n, [&q](uint32_t i) {
        fcl::DistanceRequestf req(true);
        fcl::DistanceResultf res;
        fcl::distance(q[i].tree->of.get(), fcl::Transform3f::Identity(), q[i].mesh->of.get(), q[i].pose.f, req, res);
        Answer a;
        a.d = std::max(0.0f, res.min_distance);
        return a;
    }));
    F.cs.push_back(make_c("FCL OBBRSSd", F.n, [&q](uint32_t i) {
        fcl::DistanceRequestd req(true);
        fcl::DistanceResultd res;
        fcl::distance(q[i].tree->od.get(), fcl::Transform3d::Identity(), q[i].mesh->od.get(), q[i].pose.d, req, res);
        Answer a;
        a.d = std::max(0.0, res.min_distance);
        return a;
    }));
    F.referee = [&q](uint32_t i) {
        return ref_sets(ref_tris(*q[i].tree, nullptr), ref_tris(*q[i].mesh, &q[i].pose.c));
    };
    F.describe = [&q](uint32_t i) { return pair_case(q[i]); };
}

/* ---- part 3: shapes against the room ---------------------------------------------------------- */

enum ShapeKind { SPHERE, CAPSULE, BOX };

struct ShapeQ {
    ShapeKind kind;
    float r, h;    /* sphere, capsule: radius; capsule: half length along its z */
    float half[3]; /* box */
    Pose pose;
    std::shared_ptr<fcl::CollisionGeometryf> gf;
};

/* Radii 3..20 cm, capsule half lengths 5..30 cm, box half extents 3..25 cm; centres near the
 * room's surface (within 4 times the shape's reach). */
std::vector<ShapeQ> room_shapes(const Mesh &room, ShapeKind kind, uint32_t n, uint64_t seed)
{
    bench_rng rng;
    bench_rng_seed(&rng, seed);
    std::vector<double> cdf = area_cdf(room);
    std::vector<ShapeQ> q;
    for (uint32_t i = 0; i < n; i++) {
        ShapeQ s;
        s.kind = kind;
        s.r = bench_rng_float(&rng, 0.03f, 0.2f);
        s.h = bench_rng_float(&rng, 0.05f, 0.3f);
        for (float &x : s.half)
            x = bench_rng_float(&rng, 0.03f, 0.25f);
        float r[3][3];
        random_rotation(&rng, r);
        double at[3];
        double reach = kind == SPHERE    ? s.r
                       : kind == CAPSULE ? s.r + s.h
                                         : std::sqrt(s.half[0] * s.half[0] + s.half[1] * s.half[1] +
                                                     s.half[2] * s.half[2]);
        near_surface(room, cdf, &rng, 4.0 * reach, at);
        float t[3] = {(float)at[0], (float)at[1], (float)at[2]};
        s.pose = make_pose(r, t);
        if (kind == SPHERE)
            s.gf = std::make_shared<fcl::Spheref>(s.r);
        else if (kind == CAPSULE)
            s.gf = std::make_shared<fcl::Capsulef>(s.r, 2 * s.h);
        else
            s.gf = std::make_shared<fcl::Boxf>(2 * s.half[0], 2 * s.half[1], 2 * s.half[2]);
        q.push_back(s);
    }
    return q;
}

/* copse's view of the shape: the sphere by its centre (no pose), the capsule along its own z and
 * the box at its own origin, both placed by the pose, as FCL places its Capsule and Box. */
copse_capsule shape_capsule(const ShapeQ &s)
{
    copse_capsule c;
    c.segment.a = copse_v3(0, 0, -s.h);
    c.segment.b = copse_v3(0, 0, s.h);
    c.radius = s.r;
    return c;
}

copse_obb shape_obb(const ShapeQ &s)
{
    copse_obb b;
    b.center = copse_v3(0, 0, 0);
    b.half = copse_v3(s.half[0], s.half[1], s.half[2]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            b.rotation[i][j] = i == j ? 1.0f : 0.0f;
    return b;
}

copse_sphere shape_sphere(const ShapeQ &s)
{
    copse_sphere sp;
    sp.center = s.pose.c.translation;
    sp.radius = s.r;
    return sp;
}

const char *shape_name(ShapeKind k)
{
    return k == SPHERE ? "sphere" : k == CAPSULE ? "capsule" : "box";
}

std::string shape_case(const ShapeQ &s, const Mesh &room)
{
    char b[160];
    if (s.kind == SPHERE)
        std::snprintf(b, sizeof b, "sphere r = %.9g", (double)s.r);
    else if (s.kind == CAPSULE)
        std::snprintf(b, sizeof b, "capsule (0,0,-%.9g)-(0,0,%.9g) r = %.9g", (double)s.h, (double)s.h, (double)s.r);
    else
        std::snprintf(b, sizeof b, "box half (%.9g, %.9g, %.9g)", (double)s.half[0], (double)s.half[1],
                      (double)s.half[2]);
    return std::string(b) + " placed by " + pose_text(s.pose.c) + " against " + room.name;
}

/* The referee: the shape's core (centre, segment) or surface (the box's 12 triangles, 0 when a
 * room corner lies inside it) against every room triangle, in double. */
double ref_shape(const RefTris &R, const ShapeQ &s)
{
    const copse_pose &p = s.pose.c;
    auto place = [&p](double x, double y, double z, double *o) {
        double in[3] = {x, y, z}, t[3] = {p.translation.x, p.translation.y, p.translation.z};
        for (int i = 0; i < 3; i++) {
            o[i] = t[i];
            for (int j = 0; j < 3; j++)
                o[i] += (double)p.rotation[i][j] * in[j];
        }
    };
    if (s.kind == SPHERE || s.kind == CAPSULE) {
        double a[3], b[3], best = DBL_MAX;
        if (s.kind == SPHERE) {
            a[0] = b[0] = p.translation.x;
            a[1] = b[1] = p.translation.y;
            a[2] = b[2] = p.translation.z;
        } else {
            place(0, 0, -s.h, a);
            place(0, 0, s.h, b);
        }
        for (size_t t = 0; t < R.n(); t++) {
            const double *tri[3] = {&R.v[9 * t], &R.v[9 * t + 3], &R.v[9 * t + 6]};
            best = std::min(best, ref_seg_tri(a, b, tri));
        }
        return std::max(0.0, std::sqrt(best) - s.r);
    }
    double c[8][3];
    for (int k = 0; k < 8; k++)
        place(k & 1 ? s.half[0] : -s.half[0], k & 2 ? s.half[1] : -s.half[1], k & 4 ? s.half[2] : -s.half[2], c[k]);
    static const int F[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                                 {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 3, 7}, {1, 7, 5}};
    RefTris B;
    B.v.resize(108);
    B.box.resize(72);
    for (int t = 0; t < 12; t++)
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                B.v[9 * t + 3 * k + i] = c[F[t][k]][i];
    for (int t = 0; t < 12; t++)
        for (int i = 0; i < 3; i++) {
            const double *v = &B.v[9 * t];
            B.box[6 * t + i] = std::min({v[i], v[3 + i], v[6 + i]});
            B.box[6 * t + 3 + i] = std::max({v[i], v[3 + i], v[6 + i]});
        }
    for (size_t t = 0; t < R.v.size(); t += 3) {
        const double *v = &R.v[t];
        double d[3] = {v[0] - p.translation.x, v[1] - p.translation.y, v[2] - p.translation.z};
        bool inside = true;
        for (int j = 0; j < 3 && inside; j++) {
            double q = 0;
            for (int i = 0; i < 3; i++)
                q += (double)p.rotation[i][j] * d[i];
            inside = std::fabs(q) <= s.half[j];
        }
        if (inside)
            return 0;
    }
    return ref_sets(B, R);
}

void fam_shape(Family &F, const Mesh &room, const RefTris &R, const std::vector<ShapeQ> &q, bool dist)
{
    F.kind = dist ? DIST : BOOL;
    F.n = (uint32_t)q.size();
    if (dist)
        F.cs.push_back(make_c("copse", F.n, [&q, &room](uint32_t i) {
            const ShapeQ &s = q[i];
            copse_distance d;
            if (s.kind == SPHERE) {
                copse_sphere sp = shape_sphere(s);
                copse_distance_sphere_bvh(&sp, nullptr, &room.bvh, nullptr, &d);
            } else if (s.kind == CAPSULE) {
                copse_capsule c = shape_capsule(s);
                copse_distance_capsule_bvh(&c, &s.pose.c, &room.bvh, nullptr, &d);
            } else {
                copse_obb b = shape_obb(s);
                copse_distance_obb_bvh(&b, &s.pose.c, &room.bvh, nullptr, &d);
            }
            Answer a;
            a.d = d.distance;
            return a;
        }));
    else
        F.cs.push_back(make_c("copse", F.n, [&q, &room](uint32_t i) {
            const ShapeQ &s = q[i];
            uint32_t id = COPSE_NONE;
            if (s.kind == SPHERE) {
                copse_sphere sp = shape_sphere(s);
                copse_bvh_any_sphere(&room.bvh, &sp, nullptr, &id);
            } else if (s.kind == CAPSULE) {
                copse_capsule c = shape_capsule(s);
                copse_bvh_any_capsule(&room.bvh, &c, &s.pose.c, &id);
            } else {
                copse_obb b = shape_obb(s);
                copse_bvh_any_obb(&room.bvh, &b, &s.pose.c, &id);
            }
            Answer a;
            a.hit = id != COPSE_NONE;
            return a;
        }));
    if (dist)
        F.cs.push_back(make_c("FCL OBBRSSf", F.n, [&q, &room](uint32_t i) {
            fcl::DistanceRequestf req(true);
            fcl::DistanceResultf res;
            fcl::distance(q[i].gf.get(), q[i].pose.f, room.of.get(), fcl::Transform3f::Identity(), req, res);
            Answer a;
            a.d = std::max(0.0f, res.min_distance);
            return a;
        }));
    else
        F.cs.push_back(make_c("FCL OBBRSSf", F.n, [&q, &room](uint32_t i) {
            fcl::CollisionRequestf req(1, false);
            fcl::CollisionResultf res;
            Answer a;
            a.hit = fcl::collide(q[i].gf.get(), q[i].pose.f, room.of.get(), fcl::Transform3f::Identity(), req, res) > 0;
            return a;
        }));
    F.referee = [&q, &R](uint32_t i) { return ref_shape(R, q[i]); };
    F.describe = [&q, &room](uint32_t i) { return shape_case(q[i], room); };
}

/* ---- part 4: a link against the scan ---------------------------------------------------------- */

struct ScanQ {
    const Mesh *link;
    Pose pose;
};

struct ScanSide {
    const scan *s = nullptr;
    copse_octree tree;
    void *mem = nullptr;
    std::vector<float> tri_pos;        /* the points as degenerate triangles (p, p, p) for FCL */
    std::shared_ptr<ModelOf> pts;
    std::shared_ptr<octomap::OcTree> omap;
    std::shared_ptr<fcl::OcTreef> otree;
    std::shared_ptr<fcl::Spheref> ball;
    std::vector<std::unique_ptr<fcl::CollisionObjectf>> balls;
    fcl::DynamicAABBTreeCollisionManagerf mgr;
    std::vector<uint32_t> ids;
};

/* Links near the scan: the centre within 3 radii of a random scan point. */
std::vector<ScanQ> scan_links(const scan &s, const std::vector<const Mesh *> &links, uint32_t n, uint64_t seed)
{
    bench_rng rng;
    bench_rng_seed(&rng, seed);
    std::vector<ScanQ> q;
    for (uint32_t i = 0; i < n; i++) {
        const Mesh &b = *links[i % links.size()];
        float r[3][3];
        random_rotation(&rng, r);
        const copse_vec3 &p = s.points[bench_rng_u32(&rng) % s.count];
        double dir[3], at[3], o = bench_rng_float(&rng, 0.0f, 3.0f) * b.radius;
        random_direction(&rng, dir);
        at[0] = p.x + o * dir[0];
        at[1] = p.y + o * dir[1];
        at[2] = p.z + o * dir[2];
        q.push_back({&b, pose_centred(b, r, at)});
    }
    return q;
}

struct WithinData {
    uint64_t count = 0;
    bool first_only = false;
};

bool within_cb(fcl::CollisionObjectf *o1, fcl::CollisionObjectf *o2, void *user)
{
    WithinData *w = static_cast<WithinData *>(user);
    fcl::CollisionRequestf req(1, false);
    fcl::CollisionResultf res;
    if (fcl::collide(o1, o2, req, res) > 0) {
        w->count++;
        return w->first_only; /* true stops the manager */
    }
    return false;
}

bool stop_first(void *user, uint32_t)
{
    *static_cast<bool *>(user) = true;
    return false;
}

/* The referee: each scan point near the posed link against every link triangle, in double;
 * the nearest distance, or (count) the points within SCAN_D. */
double ref_scan(const scan &s, const ScanQ &q, bool count, double reach)
{
    RefTris T = ref_tris(*q.link, &q.pose.c);
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (size_t t = 0; t < T.n(); t++)
        for (int i = 0; i < 3; i++) {
            lo[i] = std::min(lo[i], T.box[6 * t + i]);
            hi[i] = std::max(hi[i], T.box[6 * t + 3 + i]);
        }
    double best = DBL_MAX;
    uint64_t n = 0;
    for (uint32_t k = 0; k < s.count; k++) {
        double p[3] = {s.points[k].x, s.points[k].y, s.points[k].z};
        double g = 0;
        for (int i = 0; i < 3; i++) {
            double d = std::max({0.0, lo[i] - p[i], p[i] - hi[i]});
            g += d * d;
        }
        double lim = count ? reach * reach : std::min(best, reach * reach);
        if (g > lim)
            continue;
        double pb[6] = {p[0], p[1], p[2], p[0], p[1], p[2]}, m = DBL_MAX;
        for (size_t t = 0; t < T.n(); t++) {
            if (box_gap2(pb, &T.box[6 * t]) > std::min(m, lim))
                continue;
            m = std::min(m, ref_point_tri(p, &T.v[9 * t], &T.v[9 * t + 3], &T.v[9 * t + 6]));
        }
        best = std::min(best, m);
        n += m <= (double)SCAN_D * (double)SCAN_D;
    }
    return count ? (double)n : std::sqrt(best);
}

std::string scan_case(const ScanQ &q)
{
    return q.link->name + " placed by " + pose_text(q.pose.c) + " against the scan";
}

/* ---- printing -------------------------------------------------------------------------------- */

struct Refereed {
    std::string family, contender, text;
    bool copse_wrong;
};
std::vector<Refereed> g_refereed;
const unsigned MAX_REFEREED = 4; /* per family and contender */

/* Disagreements of contender c with copse: counted, the first few refereed. */
std::string compare(Family &F, size_t c, double *max_diff)
{
    uint32_t dis = 0, refd = 0;
    *max_diff = 0;
    const Contender &C = F.cs[c];
    for (uint32_t i = 0; i < F.n; i++) {
        const Answer &a = F.ans[0][i], &b = F.ans[c][i];
        bool differ;
        if (F.kind == BOOL)
            differ = a.hit != b.hit;
        else if (F.kind == COUNT)
            differ = a.d != b.d;
        else {
            double diff = std::fabs(a.d - b.d);
            differ = diff > dist_tol(F.scale, std::max(a.d, b.d)) + C.tol_extra;
            if (C.tol_extra == 0)
                *max_diff = std::max(*max_diff, diff);
        }
        if (!differ)
            continue;
        dis++;
        if (refd >= MAX_REFEREED || C.tol_extra > 0 || !F.referee)
            continue;
        refd++;
        double ref = F.referee(i);
        char b2[600];
        bool copse_wrong;
        if (F.kind == BOOL) {
            double tol = dist_tol(F.scale, 0);
            bool truth = ref == 0;
            bool grazing = ref <= tol;
            copse_wrong = !grazing && a.hit != truth;
            std::snprintf(b2, sizeof b2, "copse %s, %s %s; referee (double): %s (distance %.3g m)%s",
                          a.hit ? "touch" : "apart", C.name.c_str(), b.hit ? "touch" : "apart",
                          truth ? "touch" : "apart", ref, grazing ? ", grazing: within float rounding" : "");
        } else if (F.kind == COUNT) {
            copse_wrong = a.d != ref;
            std::snprintf(b2, sizeof b2, "copse %.0f points, %s %.0f; referee (double) %.0f", a.d, C.name.c_str(), b.d,
                          ref);
        } else {
            double tol = dist_tol(F.scale, ref);
            copse_wrong = std::fabs(a.d - ref) > tol;
            std::snprintf(b2, sizeof b2, "copse %.9g m, %s %.9g m; referee (double) %.9g m (copse off by %.2g, %s by %.2g)",
                          a.d, C.name.c_str(), b.d, ref, a.d - ref, C.name.c_str(), b.d - ref);
        }
        g_refereed.push_back({F.title, C.name, std::string(b2) + ". Case: " + F.describe(i), copse_wrong});
    }
    char out[64];
    std::snprintf(out, sizeof out, "%u", dis);
    return out;
}

/* The columns of a part: every contender name, in order of first appearance. */
std::vector<std::string> column_names(const std::vector<Family *> &fs)
{
    std::vector<std::string> names;
    for (Family *F : fs)
        for (auto &c : F->cs)
            if (std::find(names.begin(), names.end(), c.name) == names.end())
                names.push_back(c.name);
    return names;
}

int contender_of(const Family &F, const std::string &name)
{
    for (size_t j = 0; j < F.cs.size(); j++)
        if (F.cs[j].name == name)
            return (int)j;
    return -1;
}

uint32_t touching(const Family &F)
{
    if (F.parts[0] != nullptr)
        return touching(*F.parts[0]) + touching(*F.parts[1]);
    uint32_t hits = 0;
    for (auto &a : F.ans[0])
        hits += F.kind == BOOL ? a.hit : F.kind == COUNT ? a.d > 0 : a.d == 0;
    return hits;
}

void print_part(const std::vector<Family *> &fs, const char *note)
{
    if (fs.empty())
        return;
    std::vector<std::string> names = column_names(fs);
    std::printf("| query | n | touching | copse (us) |");
    for (size_t k = 1; k < names.size(); k++)
        std::printf(" %s (us) | copse faster |", names[k].c_str());
    std::printf(" disagreements with copse |\n|---|---:|---:|---:|");
    for (size_t k = 1; k < names.size(); k++)
        std::printf("---:|---:|");
    std::printf("---|\n");
    for (Family *F : fs) {
        if (F->parts[0] != nullptr && (F->parts[0]->n == 0 || F->parts[1]->n == 0))
            continue;
        if (F->n == 0 && F->parts[0] == nullptr)
            continue;
        if (F->parts[0] != nullptr) { /* n-weighted mean of two measured rows */
            const Family &A = *F->parts[0], &B = *F->parts[1];
            F->n = A.n + B.n;
            F->cs = A.cs;
            F->ns.assign(A.ns.size(), 0.0);
            for (size_t c = 0; c < A.ns.size(); c++)
                F->ns[c] = (A.n * A.ns[c] + B.n * B.ns[c]) / F->n;
        }
        std::printf("| %s | %u | %.0f%% | %s |", F->title.c_str(), F->n, 100.0 * touching(*F) / F->n,
                    fmt_us(F->ns[0]).c_str());
        std::string dis;
        for (size_t k = 1; k < names.size(); k++) {
            int c = contender_of(*F, names[k]);
            if (c <= 0) {
                std::printf(" | |");
                continue;
            }
            std::printf(" %s | %.2f |", fmt_us(F->ns[c]).c_str(), F->ns[c] / F->ns[0]);
            if (F->parts[0] != nullptr)
                continue;
            double md;
            std::string d = compare(*F, c, &md);
            char b[160];
            if (F->kind == DIST && F->cs[c].tol_extra == 0)
                std::snprintf(b, sizeof b, "%s%s %s (max diff %.1e m)", dis.empty() ? "" : ", ", F->cs[c].name.c_str(),
                              d.c_str(), md);
            else
                std::snprintf(b, sizeof b, "%s%s %s", dis.empty() ? "" : ", ", F->cs[c].name.c_str(), d.c_str());
            dis += b;
        }
        std::printf(" %s |\n", F->parts[0] != nullptr ? "(the two rows above)" : dis.c_str());
    }
    std::printf("\n%s\n\n", note);
}

/* Every contender against the referee on the first `sample` queries of each measured row. */
void print_accuracy(std::vector<Family> &fams, uint32_t sample)
{
    std::printf("## Accuracy against a double brute force\n\n");
    std::printf("The first %u queries of every row, each answer against the referee (below): for distances the largest "
                "error in metres, for booleans and counts the number of wrong answers (a boolean within float rounding "
                "of touching, \"grazing\", is right either way).\n\n",
                sample);
    std::printf("| query | queries | copse | peers |\n|---|---:|---|---|\n");
    for (Family &F : fams) {
        if (F.parts[0] != nullptr || !F.referee || F.n == 0)
            continue;
        uint32_t n = std::min(sample, F.n);
        std::vector<double> err(F.cs.size(), 0.0);
        for (uint32_t i = 0; i < n; i++) {
            double ref = F.referee(i);
            for (size_t c = 0; c < F.cs.size(); c++) {
                const Answer &a = F.ans[c][i];
                if (F.kind == DIST)
                    err[c] = std::max(err[c], std::fabs(a.d - ref));
                else if (F.kind == COUNT)
                    err[c] += a.d != ref;
                else
                    err[c] += ref > dist_tol(F.scale, 0) && a.hit != (ref == 0);
            }
        }
        auto txt = [&F](double e) {
            char b[32];
            if (F.kind == DIST)
                std::snprintf(b, sizeof b, "%.1e m", e);
            else
                std::snprintf(b, sizeof b, "%.0f wrong", e);
            return std::string(b);
        };
        std::string peers;
        for (size_t c = 1; c < F.cs.size(); c++)
            peers += (c > 1 ? ", " : "") + F.cs[c].name + " " + txt(err[c]);
        std::printf("| %s | %u | %s | %s |\n", F.title.c_str(), n, txt(err[0]).c_str(), peers.c_str());
    }
    std::printf("\n");
}

/* ---- work per query (the counting build, collide_work) ------------------------------------ */

struct Work {
    double node = 0, prim = 0; /* node pair tests, primitive pair tests */
};

/* FCL's own statistics: what fcl::collide / fcl::distance do for two BVHModel<OBBRSSf>, with the
 * traversal node's counters switched on. */
Work fcl_work(const ModelOf &tree, const ModelOf &mesh, const fcl::Transform3f &tf, bool dist)
{
    Work w;
    if (dist) {
        fcl::detail::MeshDistanceTraversalNodeOBBRSS<float> node;
        fcl::DistanceRequestf req(true);
        fcl::DistanceResultf res;
        fcl::detail::initialize(node, tree, fcl::Transform3f::Identity(), mesh, tf, req, res);
        node.enable_statistics = true;
        fcl::detail::distance(&node);
        w.node = node.num_bv_tests;
        w.prim = node.num_leaf_tests;
    } else {
        fcl::detail::MeshCollisionTraversalNodeOBBRSS<float> node;
        fcl::CollisionRequestf req(1, false);
        fcl::CollisionResultf res;
        fcl::detail::initialize(node, tree, fcl::Transform3f::Identity(), mesh, tf, req, res);
        node.enable_statistics = true;
        fcl::detail::collide(&node);
        w.node = node.num_bv_tests;
        w.prim = node.num_leaf_tests;
    }
    return w;
}

/* copse's calls across objects, counted by the wrappers of bench/collide_count.c. */
Work copse_work(const Contender &c, uint32_t n)
{
    uint64_t *k = collide_counts();
    for (int i = 0; i < COLLIDE_COUNT_KINDS; i++)
        k[i] = 0;
    for (uint32_t i = 0; i < n; i++)
        c.answer(i);
    Work w;
    w.node = (double)(k[COLLIDE_COUNT_NODE_SAT] + k[COLLIDE_COUNT_NODE_GAP]) / n;
    w.prim = (double)(k[COLLIDE_COUNT_TRI_OVERLAP] + k[COLLIDE_COUNT_TRI_DISTANCE] + k[COLLIDE_COUNT_POINT_TRI]) / n;
    return w;
}

double per_tri(size_t bytes, size_t tris)
{
    return (double)bytes / (double)tris;
}

}  // namespace

int main(int argc, char **argv)
{
    const char *data = "../shared/data";
    bool quick = false, work = false;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (std::strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            g_profile = argv[++i];
        else if (std::strcmp(argv[i], "--work") == 0)
            work = true;
        else if (std::strcmp(argv[i], "--leaf") == 0 && i + 1 < argc)
            g_leaf = (uint32_t)std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: collide_peers [--data DIR] [--quick] [--leaf N] [--profile FAMILY | --work]\n"
                                 "FAMILY: {panda,iiwa,room,sphere,capsule,box}-{bool,dist-apart,dist-touch},\n"
                                 "        scan-dist, scan-within, scan-any\n");
            return 2;
        }
    }
    if (quick) {
        g_rounds = 3;
        g_pairs = 300;
        g_env = 150;
        g_scan = 40;
    }
    std::string dir = data;

    /* ---- the data */
    static const char *pnames[] = {"link0", "link1", "link2", "link3", "link4",
                                   "link5", "link6", "link7", "hand",  "finger"};
    std::vector<Mesh> meshes(19); /* 10 Panda links, 8 iiwa links, the room: never resized */
    std::vector<const Mesh *> panda, iiwa, links;
    for (int i = 0; i < 10; i++) {
        if (!load_mesh(meshes[i], dir + "/robots/panda/meshes/collision/" + pnames[i] + ".obj",
                       std::string("panda/") + pnames[i], 1.0f))
            return 1;
        panda.push_back(&meshes[i]);
    }
    for (int i = 0; i < 8; i++) {
        char n[32];
        std::snprintf(n, sizeof n, "link_%d", i);
        if (!load_mesh(meshes[10 + i], dir + "/robots/kuka_iiwa/meshes/" + n + ".stl", std::string("iiwa/") + n, 1.0f))
            return 1;
        iiwa.push_back(&meshes[10 + i]);
    }
    links = panda;
    links.insert(links.end(), iiwa.begin(), iiwa.end());
    Mesh &room = meshes[18];
    if (!load_mesh(room, dir + "/meshes/dungeon.obj", "dungeon.obj (x 0.1)", ROOM_SCALE))
        return 1;
    RefTris room_ref = ref_tris(room, nullptr);

    scan sc;
    if (scan_load(&sc, data) != 0) {
        std::fprintf(stderr, "collide_peers: cannot read %s/pointclouds/octomap-scan.xyz\n", data);
        return 1;
    }
    ScanSide ss;
    ss.s = &sc;
    double octree_build_ns;
    if (scan_octree(&sc, 32, 8, 16, &ss.tree, &ss.mem, &octree_build_ns) != 0) {
        std::fprintf(stderr, "collide_peers: scan octree build failed\n");
        return 1;
    }
    ss.ids.resize(sc.count);
    {
        /* FCL: the points as degenerate triangles (p, p, p) in a BVHModel<OBBRSSf> */
        Mesh pm;
        pm.name = "scan points as triangles";
        for (uint32_t i = 0; i < sc.count; i++) {
            pm.pos.insert(pm.pos.end(), {sc.points[i].x, sc.points[i].y, sc.points[i].z});
            pm.idx.insert(pm.idx.end(), {i, i, i});
        }
        ss.pts = fcl_model<fcl::OBBRSSf>(pm);
        /* FCL: an octomap with each scan point's voxel occupied (no ray casting: only the points) */
        ss.omap = std::make_shared<octomap::OcTree>(OCTOMAP_RES);
        for (uint32_t i = 0; i < sc.count; i++)
            ss.omap->updateNode(octomap::point3d(sc.points[i].x, sc.points[i].y, sc.points[i].z), true, true);
        ss.omap->updateInnerOccupancy();
        ss.otree = std::make_shared<fcl::OcTreef>(ss.omap);
        /* FCL: each point a Sphere(d) in a dynamic AABB tree, for "points within d" */
        ss.ball = std::make_shared<fcl::Spheref>(SCAN_D);
        std::vector<fcl::CollisionObjectf *> objs;
        for (uint32_t i = 0; i < sc.count; i++) {
            fcl::Transform3f tf = fcl::Transform3f::Identity();
            tf.translation() = fcl::Vector3f(sc.points[i].x, sc.points[i].y, sc.points[i].z);
            ss.balls.emplace_back(new fcl::CollisionObjectf(ss.ball, tf));
            objs.push_back(ss.balls.back().get());
        }
        ss.mgr.registerObjects(objs);
        ss.mgr.setup();
    }
    /* one CollisionObject per link for the manager: its local AABB computed once */
    std::vector<std::unique_ptr<fcl::CollisionObjectf>> link_obj(meshes.size());
    for (size_t i = 0; i < 18; i++)
        link_obj[i].reset(new fcl::CollisionObjectf(meshes[i].of));

    /* ---- the query sets (they outlive the families, whose contenders refer to them) */
    std::vector<PairQ> q_panda = link_pairs(panda, g_pairs, 11), q_iiwa = link_pairs(iiwa, g_pairs, 12),
                       q_room = room_links(room, links, g_env, 13);
    std::vector<ShapeQ> q_shape[3] = {room_shapes(room, SPHERE, g_env, 21), room_shapes(room, CAPSULE, g_env, 22),
                                      room_shapes(room, BOX, g_env, 23)};
    std::vector<ScanQ> q_scan = scan_links(sc, links, g_scan, 31);

    std::vector<Family> fams;
    fams.reserve(64); /* never reallocated: rows refer to each other */
    auto fam = [&fams](const char *key, const char *part, const std::string &title, double scale) -> Family & {
        fams.emplace_back();
        Family &F = fams.back();
        F.key = key;
        F.part = part;
        F.title = title;
        F.scale = scale;
        return F;
    };
    /* distance rows: the pairs apart and the pairs touching timed apart (they cost very
     * differently), then their n-weighted mean; the split is by FCL's boolean (OBBRSSd, Spheref...) */
    auto split_pairs = [](const std::vector<PairQ> &q, std::vector<PairQ> *apart, std::vector<PairQ> *touch) {
        for (const PairQ &p : q) {
            fcl::CollisionRequestd req(1, false);
            fcl::CollisionResultd res;
            bool t = fcl::collide(p.tree->od.get(), fcl::Transform3d::Identity(), p.mesh->od.get(), p.pose.d, req, res) > 0;
            (t ? touch : apart)->push_back(p);
        }
    };
    std::vector<PairQ> q_split[3][2]; /* panda, iiwa, room; apart, touching */
    split_pairs(q_panda, &q_split[0][0], &q_split[0][1]);
    split_pairs(q_iiwa, &q_split[1][0], &q_split[1][1]);
    split_pairs(q_room, &q_split[2][0], &q_split[2][1]);
    std::vector<ShapeQ> q_shape_split[3][2];
    for (int k = 0; k < 3; k++)
        for (const ShapeQ &x : q_shape[k]) {
            fcl::CollisionRequestf req(1, false);
            fcl::CollisionResultf res;
            bool t = fcl::collide(x.gf.get(), x.pose.f, room.of.get(), fcl::Transform3f::Identity(), req, res) > 0;
            q_shape_split[k][t].push_back(x);
        }
    auto derived = [&fam](const char *key, const char *part, const std::string &title) {
        Family &D = fam(key, part, title, 1);
        D.kind = DIST;
        Family *p = &D;
        p->parts[0] = p - 2;
        p->parts[1] = p - 1;
    };
    static const char *mk[3] = {"panda", "iiwa", "room"};
    static const char *mt[3] = {"Panda link pairs", "iiwa link pairs", "link in the room"};
    std::vector<PairQ> *mq[3] = {&q_panda, &q_iiwa, &q_room};
    for (int m = 0; m < 3; m++) {
        const char *part = m < 2 ? "links" : "room";
        double scale = m < 2 ? 0.5 : 10;
        std::string k = mk[m], t = mt[m];
        fam_mesh_bool(fam((k + "-bool").c_str(), part, t + ", boolean", scale), *mq[m], true);
        fam_mesh_dist(fam((k + "-dist-apart").c_str(), part, t + ", distance, apart", scale), q_split[m][0]);
        fam_mesh_dist(fam((k + "-dist-touch").c_str(), part, t + ", distance, touching", scale), q_split[m][1]);
        derived((k + "-dist").c_str(), part, t + ", distance, all");
    }
    for (int k = 0; k < 3; k++) {
        std::string n = shape_name((ShapeKind)k);
        fam_shape(fam((n + "-bool").c_str(), "shapes", n + ", boolean", 10), room, room_ref, q_shape[k], false);
        fam_shape(fam((n + "-dist-apart").c_str(), "shapes", n + ", distance, apart", 10), room, room_ref,
                  q_shape_split[k][0], true);
        fam_shape(fam((n + "-dist-touch").c_str(), "shapes", n + ", distance, touching", 10), room, room_ref,
                  q_shape_split[k][1], true);
        derived((n + "-dist").c_str(), "shapes", n + ", distance, all");
    }
    {
        Family &F = fam("scan-dist", "scan", "link to the scan, distance", 10);
        F.kind = DIST;
        F.n = (uint32_t)q_scan.size();
        const std::vector<ScanQ> &q = q_scan;
        F.cs.push_back(make_c("copse", F.n, [&q, &ss](uint32_t i) {
            copse_distance d;
            copse_distance_bvh_octree(&q[i].link->bvh, &q[i].pose.c, &ss.tree, nullptr, &d);
            Answer a;
            a.d = d.distance;
            return a;
        }));
        F.cs.push_back(make_c("FCL points as triangles", F.n, [&q, &ss](uint32_t i) {
            fcl::DistanceRequestf req(true);
            fcl::DistanceResultf res;
            fcl::distance(ss.pts.get(), fcl::Transform3f::Identity(), q[i].link->of.get(), q[i].pose.f, req, res);
            Answer a;
            a.d = std::max(0.0f, res.min_distance);
            return a;
        }));
        Contender oc = make_c("FCL OcTree 2 cm", F.n, [&q, &ss](uint32_t i) {
            fcl::DistanceRequestf req(true);
            fcl::DistanceResultf res;
            fcl::distance(ss.otree.get(), fcl::Transform3f::Identity(), q[i].link->of.get(), q[i].pose.f, req, res);
            Answer a;
            a.d = std::max(0.0f, res.min_distance);
            return a;
        });
        oc.tol_extra = OCTOMAP_RES * std::sqrt(3.0); /* a point is somewhere in its voxel */
        F.cs.push_back(oc);
        F.referee = [&q, &sc](uint32_t i) { return ref_scan(sc, q[i], false, 1e9); };
        F.describe = [&q](uint32_t i) { return scan_case(q[i]); };
    }
    {
        Family &F = fam("scan-within", "scan", "points within 5 cm of a link (count)", 10);
        F.kind = COUNT;
        F.n = (uint32_t)q_scan.size();
        const std::vector<ScanQ> &q = q_scan;
        F.cs.push_back(make_c("copse", F.n, [&q, &ss](uint32_t i) {
            copse_id_list l = copse_id_list_make(ss.ids.data(), (uint32_t)ss.ids.size());
            copse_octree_overlap_bvh(&ss.tree, &q[i].link->bvh, &q[i].pose.c, SCAN_D, &l);
            Answer a;
            a.d = l.count;
            return a;
        }));
        F.cs.push_back(make_c("FCL spheres in a DynamicAABBTree", F.n, [&q, &ss, &link_obj, &meshes](uint32_t i) {
            fcl::CollisionObjectf *o = link_obj[(size_t)(q[i].link - meshes.data())].get();
            o->setTransform(q[i].pose.f);
            o->computeAABB();
            WithinData w;
            ss.mgr.collide(o, &w, within_cb);
            Answer a;
            a.d = (double)w.count;
            return a;
        }));
        F.referee = [&q, &sc](uint32_t i) { return ref_scan(sc, q[i], true, SCAN_D); };
        F.describe = [&q](uint32_t i) { return scan_case(q[i]); };
    }
    {
        Family &F = fam("scan-any", "scan", "any point within 5 cm of a link", 10);
        F.kind = BOOL;
        F.n = (uint32_t)q_scan.size();
        const std::vector<ScanQ> &q = q_scan;
        F.cs.push_back(make_c("copse", F.n, [&q, &ss](uint32_t i) {
            bool found = false;
            copse_octree_visit_bvh(&ss.tree, &q[i].link->bvh, &q[i].pose.c, SCAN_D, stop_first, &found);
            Answer a;
            a.hit = found;
            return a;
        }));
        F.cs.push_back(make_c("FCL spheres in a DynamicAABBTree", F.n, [&q, &ss, &link_obj, &meshes](uint32_t i) {
            fcl::CollisionObjectf *o = link_obj[(size_t)(q[i].link - meshes.data())].get();
            o->setTransform(q[i].pose.f);
            o->computeAABB();
            WithinData w;
            w.first_only = true;
            ss.mgr.collide(o, &w, within_cb);
            Answer a;
            a.hit = w.count > 0;
            return a;
        }));
        F.referee = [&q, &sc](uint32_t i) { return ref_scan(sc, q[i], true, SCAN_D) > 0 ? 0.0 : 1.0; };
        F.describe = [&q](uint32_t i) { return scan_case(q[i]); };
    }

    /* ---- --work: node and primitive tests per query, copse and FCL (the counting build) */
    if (work) {
        if (!collide_counts) {
            std::fprintf(stderr, "collide_peers: --work needs the counting build (collide_work)\n");
            return 2;
        }
        std::printf("## Work per query\n\n");
        std::printf("Mean tests per query. copse: node pairs (separating-axis tests in the boolean walk, distance bounds "
                    "in the distance walks) and primitive pairs that reach an exact kernel (triangle-triangle overlap, "
                    "triangle-triangle distance, point-triangle distance; pairs the inline float filters settle before "
                    "that are not counted), counted by wrapping those library functions at link time in a separate "
                    "build; FCL: its traversal node's own counters (num_bv_tests, num_leaf_tests) for the same "
                    "`BVHModel<OBBRSSf>` queries. FCL's leaves hold 1 triangle, copse's up to %u.\n\n",
                    (unsigned)g_leaf);
        std::printf("| query | copse node pairs | FCL BV pairs | copse exact primitive pairs | FCL leaf pairs |\n"
                    "|---|---:|---:|---:|---:|\n");
        for (Family &F : fams) {
            if (F.parts[0] != nullptr || F.n == 0 || F.part == "shapes" || F.key == "scan-within" || F.key == "scan-any")
                continue;
            const std::vector<PairQ> *q = nullptr;
            bool dist = F.kind == DIST;
            for (int m = 0; m < 3; m++) {
                std::string k = mk[m];
                if (F.key == k + "-bool")
                    q = mq[m];
                else if (F.key == k + "-dist-apart")
                    q = &q_split[m][0];
                else if (F.key == k + "-dist-touch")
                    q = &q_split[m][1];
            }
            Work c = copse_work(F.cs[0], F.n), f;
            for (uint32_t i = 0; i < F.n; i++) {
                Work x = q != nullptr ? fcl_work(*(*q)[i].tree->of, *(*q)[i].mesh->of, (*q)[i].pose.f, dist)
                                      : fcl_work(*ss.pts, *q_scan[i].link->of, q_scan[i].pose.f, true);
                f.node += x.node / F.n;
                f.prim += x.prim / F.n;
            }
            std::printf("| %s%s | %.0f | %.0f | %.0f | %.0f |\n", F.title.c_str(),
                        q == nullptr ? " (FCL: points as triangles)" : "", c.node, f.node, c.prim, f.prim);
        }
        std::printf("\n");
        return 0;
    }

    /* ---- --profile: copse's side of one family, nothing else */
    if (g_profile != nullptr) {
        for (Family &F : fams)
            if (F.key == g_profile && !F.cs.empty()) {
                double a = bench_cpu_ns();
                unsigned runs = 0;
                while (bench_cpu_ns() - a < 5e9) {
                    g_sink = g_sink + F.cs[0].run();
                    runs++;
                }
                std::fprintf(stderr, "collide_peers: %s, copse, %u runs of %u queries\n", g_profile, runs, F.n);
                return 0;
            }
        std::fprintf(stderr, "collide_peers: no family %s\n", g_profile);
        return 2;
    }

    /* ---- measure, then collect every contender's answers */
    for (Family &F : fams) {
        if (F.parts[0] != nullptr || F.n == 0)
            continue;
        std::fprintf(stderr, "collide_peers: %s (%u queries, %zu contenders)\n", F.title.c_str(), F.n, F.cs.size());
        F.ns = time_turns(F.cs, F.n);
        F.ans.assign(F.cs.size(), std::vector<Answer>(F.n));
        for (size_t c = 0; c < F.cs.size(); c++)
            for (uint32_t i = 0; i < F.n; i++)
                F.ans[c][i] = F.cs[c].answer(i);
    }

    /* ---- the page */
    std::printf("Each row: every contender runs the whole query set once per round, %u rounds after a warm-up round, "
                "the first contender moving on by one each round; the table gives the medians. copse's trees: "
                "`COPSE_BVH_PARAMS_DEFAULT` (binned SAH, leaves of up to %u triangles).\n\n",
                g_rounds, (unsigned)g_leaf);
    std::printf("## Data\n\n");
    std::printf("| mesh set | meshes | triangles | bounding radius (m) |\n|---|---:|---:|---:|\n");
    auto set_row = [](const char *name, const std::vector<const Mesh *> &ms) {
        size_t t = 0;
        double rmin = DBL_MAX, rmax = 0;
        for (const Mesh *m : ms) {
            t += m->ntri();
            rmin = std::min(rmin, m->radius);
            rmax = std::max(rmax, m->radius);
        }
        std::printf("| %s | %zu | %zu (%u..%u each) | %.3f..%.3f |\n", name, ms.size(), t,
                    (unsigned)(*std::min_element(ms.begin(), ms.end(), [](const Mesh *a, const Mesh *b) { return a->ntri() < b->ntri(); }))->ntri(),
                    (unsigned)(*std::max_element(ms.begin(), ms.end(), [](const Mesh *a, const Mesh *b) { return a->ntri() < b->ntri(); }))->ntri(),
                    rmin, rmax);
    };
    set_row("Panda collision links (OBJ)", panda);
    set_row("iiwa collision links (STL)", iiwa);
    set_row("dungeon.obj scaled by 0.1 (7.4 x 4.0 x 9.9 m)", {&room});
    std::printf("| octomap-scan.xyz | %u points | | bounds %.1f x %.1f x %.1f m |\n\n", sc.count,
                (double)(sc.max[0] - sc.min[0]), (double)(sc.max[1] - sc.min[1]), (double)(sc.max[2] - sc.min[2]));

    std::vector<Family *> part;
    auto part_of = [&fams](const char *p) {
        std::vector<Family *> v;
        for (Family &F : fams)
            if (F.part == p)
                v.push_back(&F);
        return v;
    };
    std::printf("## 1. Link against link\n\n");
    print_part(part_of("links"),
               "Pairs of links of one robot (either may be the same link), a uniformly random relative rotation, the "
               "bounds' centres 0.2 to 1.0 times the sum of the two bounding radii apart. The first link is the tree "
               "(identity pose), the second is placed by the pose. copse: `copse_bvh_any_bvh` and "
               "`copse_distance_bvh_bvh` (default exact distance); FCL: `fcl::collide` (num_max_contacts 1, no contact "
               "points) and `fcl::distance` (rel_err = abs_err = 0, nearest points on) on the two `BVHModel`s. "
               "Time per query in microseconds; \"copse faster\" is FCL's time over copse's. Distance rows are timed "
               "separately on the pairs FCL's boolean (OBBRSSd) finds apart and touching; \"all\" is their n-weighted "
               "mean. AABBf has no distance in FCL (its BVH distance needs RSS, kIOS or OBBRSS).");
    std::printf("## 2. A link in the room\n\n");
    print_part(part_of("room"),
               "Each of the 18 links in turn, a random rotation, its centre within 3 bounding radii of a random "
               "(area-weighted) point of the room's surface; the room is the tree, the link the posed mesh.");
    std::printf("## 3. Shapes in the room\n\n");
    print_part(part_of("shapes"),
               "Spheres of radius 3..20 cm, capsules of radius 3..20 cm and half length 5..30 cm, boxes of half "
               "extents 3..25 cm, randomly turned, centred within 4 times their reach of a random surface point. copse: "
               "`copse_bvh_any_sphere` (the centre given, no pose), `_any_capsule`, `_any_obb` (placed by the pose) and "
               "the `copse_distance_*_bvh` functions; FCL: `fcl::Spheref`, `fcl::Capsulef`, `fcl::Boxf` against the "
               "room's `BVHModel<OBBRSSf>` with FCL's default narrow phase (libccd GJK; FCL's own sphere-triangle "
               "routines for spheres).");
    std::printf("## 4. A link against the laser scan\n\n");
    print_part(part_of("scan"),
               "Each link in turn, randomly turned, its centre within 3 bounding radii of a random scan point (\"touching\": at "
               "least one point within 5 cm). copse: "
               "the scan's point octree (leaf 32, bucket 8) with `copse_distance_bvh_octree`, "
               "`copse_octree_overlap_bvh` (d = 5 cm, every point) and `copse_octree_visit_bvh` stopped at the first "
               "point. FCL 0.7 as Debian builds it has octomap support (FCL_HAVE_OCTOMAP), so it is compared twice: "
               "the points as degenerate triangles (p, p, p) in a `BVHModel<OBBRSSf>` (the same question: the distance "
               "to the nearest point), and an `fcl::OcTreef` over an octomap of 2 cm voxels with each scan point's voxel "
               "occupied (what MoveIt does: FCL measures to the voxel boxes, so its distance may be up to one voxel "
               "diagonal, 3.5 cm, shorter: differences within that are not counted). FCL has no \"points within d\" "
               "query: its counterpart is each point as a `Spheref(0.05)` in a `DynamicAABBTreeCollisionManagerf`, "
               "the link's `CollisionObjectf` collided against it with a callback that runs `fcl::collide` on each "
               "candidate and counts (or stops at the first).");

    print_accuracy(fams, quick ? 6 : 20);

    /* memory */
    std::printf("## Memory\n\n");
    std::printf("Bytes per triangle. \"tree\": what the index adds to the mesh (copse: `copse_bvh_bytes`, nodes and leaf "
                "slots; FCL: its `BVNode` array, getNumBVs() x sizeof(BVNode), and primitive_indices, 4 bytes a "
                "triangle; FCL 0.7's memUsage() prints and returns 0, so the arrays are counted). \"with mesh\": plus "
                "the vertices and triangles (copse refers to the caller's packed floats and uint32 indices, 12 + 12 "
                "bytes; FCL keeps its own copy, Vector3 and fcl::Triangle of three size_t).\n\n");
    std::printf("| mesh set | copse tree | FCL OBBRSSf tree | copse / FCL | FCL AABBf tree | FCL OBBRSSd tree | copse with "
                "mesh | FCL OBBRSSf with mesh |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    auto mem_row = [](const char *name, const std::vector<const Mesh *> &ms) {
        size_t t = 0, v = 0, cb = 0, fo = 0, fa = 0, fd = 0, fom = 0;
        for (const Mesh *m : ms) {
            t += m->ntri();
            v += m->pos.size() / 3;
            cb += copse_bvh_bytes(&m->bvh);
            fo += fcl_tree_bytes(*m->of);
            fa += fcl_tree_bytes(*m->af);
            fd += fcl_tree_bytes(*m->od);
            fom += fcl_mesh_bytes(*m->of);
        }
        std::printf("| %s | %.1f | %.1f | 1/%.1f | %.1f | %.1f | %.1f | %.1f |\n", name, per_tri(cb, t), per_tri(fo, t),
                    (double)fo / cb, per_tri(fa, t), per_tri(fd, t), per_tri(cb + 12 * v + 12 * t, t),
                    per_tri(fo + fom, t));
    };
    mem_row("Panda links", panda);
    mem_row("iiwa links", iiwa);
    mem_row("room", {&room});
    copse_octree_stats ost;
    copse_octree_get_stats(&ss.tree, &ost);
    std::printf("\nsizeof(BVNode): OBBRSSf %zu, AABBf %zu, OBBRSSd %zu bytes; copse's node 32 bytes, leaves of up to %u "
                "triangles (FCL: 1).\n\n",
                sizeof(fcl::BVNode<fcl::OBBRSSf>), sizeof(fcl::BVNode<fcl::AABBf>), sizeof(fcl::BVNode<fcl::OBBRSSd>),
                (unsigned)g_leaf);
    std::printf("The scan, bytes per point beyond the points themselves: copse's octree %.1f; FCL's points-as-triangles "
                "tree %.1f (%.1f with its vertex and triangle copies); the 2 cm octomap %.1f (its memoryUsage()).\n\n",
                (double)ost.bytes_used / sc.count, per_tri(fcl_tree_bytes(*ss.pts), sc.count),
                per_tri(fcl_tree_bytes(*ss.pts) + fcl_mesh_bytes(*ss.pts), sc.count),
                (double)ss.omap->memoryUsage() / sc.count);

    /* refereed disagreements */
    std::printf("## Disagreements, refereed\n\n");
    std::printf("Up to %u disagreements per row and peer are recomputed by a brute force in double over every pair of "
                "primitives (textbook closest points: Ericson's point-triangle and segment-segment, segment-triangle "
                "crossings by signed volumes); \"grazing\" means the double distance is within float rounding of the "
                "coordinates (4e-6 x their magnitude), where either answer is right. FCL OcTree differences are not "
                "refereed (voxels, not points).\n\n",
                MAX_REFEREED);
    if (g_refereed.empty())
        std::printf("None.\n\n");
    unsigned copse_wrong = 0;
    for (const Refereed &r : g_refereed) {
        std::printf("- %s, against %s: %s%s\n", r.family.c_str(), r.contender.c_str(), r.copse_wrong ? "**copse wrong** " : "",
                    r.text.c_str());
        copse_wrong += r.copse_wrong;
    }
    std::printf("\n%u refereed case(s) where copse's answer is wrong.\n\n", copse_wrong);
    if (g_sink == 1)
        std::printf(" ");
    std::free(ss.mem);
    for (Mesh &m : meshes)
        std::free(m.mem);
    scan_free(&sc);
    return 0;
}

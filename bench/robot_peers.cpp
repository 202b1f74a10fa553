/* SPDX-License-Identifier: MIT */
/*
 * robot_peers: copse's robot checks (include/copse/robot.h) against FCL 0.7 (Debian's libfcl-dev)
 * set up the way MoveIt's FCL plugin sets it up, in one process, on the same meshes and the same
 * configurations.
 *
 * The robots are the blobs `copse robot bake` made from the URDFs in ../shared/data/robots (one
 * with --spheres N, one without), viewed in place. FCL gets each link's mesh read back from the
 * copse robot (copse_robot_link_tree: the same triangles, the same floats widened to double) as a
 * BVHModel<OBBRSSd> in a CollisionObjectd, all of them in a DynamicAABBTreeCollisionManagerd; the
 * world's meshes likewise in a second manager. The allowed-collision matrix is copse's
 * (copse_robot_allowed), paddings 0 on both sides.
 *
 * Per configuration, copse: copse_robot_fk + copse_robot_collides (or copse_robot_distances with a
 * cut-off). FCL: each link's transform set from copse's link poses (converted to double, as
 * MoveIt copies its own FK's poses; the conversion, setTransform, computeAABB and the manager's
 * update() are FCL's time, copse's FK is not), then world_manager->collide(robot_manager) and,
 * when clear, robot_manager->collide() for self (MoveIt's order), each candidate pair through
 * fcl::collide with one contact and the ACM in the callback, stopping at the first contact.
 * Distances: per link, its nearest world mesh (world_manager->distance(link object), the callback
 * pruning with the cut-off) and its nearest other link not allowed to touch (the robot's pairs
 * whose AABBs are within the cut-off), fcl::distance with nearest points.
 *
 * Timing: the thread's CPU time; every contender runs the whole configuration set once per round,
 * the contenders take turns (the first one moves on by one each round), round 0 warms up, medians
 * of the rounds. Every configuration's answer is compared between all contenders.
 *
 * Prints markdown on stdout (make bench-robot -> docs/benchmarks-robot.md).
 * usage: robot_peers --data DIR --robot NAME SPHERES.bin PLAIN.bin [--robot ...] [--quick]
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

#include "bench.h"
#include "copse/robot.h"
#include "host_clock.h"
#include "turns.h"
#include "robot_scene.h"
extern "C" {
#include "mesh_load.h" /* no C++ guard of its own */
}

namespace {

unsigned g_rounds = 7;
uint32_t g_configs = 1000;
const float CUTOFF = 0.05f; /* the distance query's max_distance, metres */
volatile uint64_t g_sink;

typedef fcl::BVHModel<fcl::OBBRSSd> Model;

void die(const std::string &what)
{
    std::fprintf(stderr, "robot_peers: %s\n", what.c_str());
    std::exit(1);
}

std::string status_text(copse_status st)
{
    return copse_status_str(st);
}

/* ---- FCL models from triangles -------------------------------------------------------------- */

struct Tris {
    std::vector<double> pos; /* xyz per vertex */
    std::vector<uint32_t> idx;
};

Tris tris_of(const copse_mesh &m)
{
    Tris t;
    size_t stride = m.vertex_stride ? m.vertex_stride : 12;
    for (uint32_t v = 0; v < m.vertex_count; v++) {
        const float *p = (const float *)((const char *)m.positions + stride * v);
        t.pos.insert(t.pos.end(), {(double)p[0], (double)p[1], (double)p[2]});
    }
    for (uint32_t i = 0; i < 3 * m.triangle_count; i++) {
        uint32_t k = i;
        if (m.index_type == COPSE_MESH_INDEX_U16)
            k = ((const uint16_t *)m.indices)[i];
        else if (m.index_type == COPSE_MESH_INDEX_U32)
            k = ((const uint32_t *)m.indices)[i];
        t.idx.push_back(k);
    }
    return t;
}

std::shared_ptr<Model> fcl_model(const Tris &t)
{
    std::vector<fcl::Vector3d> verts(t.pos.size() / 3);
    std::vector<fcl::Triangle> tris(t.idx.size() / 3);
    for (size_t i = 0; i < verts.size(); i++)
        verts[i] = fcl::Vector3d(t.pos[3 * i], t.pos[3 * i + 1], t.pos[3 * i + 2]);
    for (size_t i = 0; i < tris.size(); i++)
        tris[i] = fcl::Triangle(t.idx[3 * i], t.idx[3 * i + 1], t.idx[3 * i + 2]);
    auto model = std::make_shared<Model>();
    model->beginModel((int)tris.size(), (int)verts.size());
    model->addSubModel(verts, tris);
    model->endModel();
    return model;
}

/* What FCL's model keeps (memUsage() in 0.7 prints and returns 0): its BVNodes and primitive
 * indices, and its own copy of the vertices and triangles (fcl::Triangle: three size_t). */
size_t fcl_bytes(const Model &m)
{
    return (size_t)m.getNumBVs() * sizeof(fcl::BVNode<fcl::OBBRSSd>) + (size_t)m.num_tris * sizeof(unsigned) +
           (size_t)m.num_vertices * sizeof(fcl::Vector3d) + (size_t)m.num_tris * sizeof(fcl::Triangle);
}

fcl::Transform3d to_fcl(const copse_pose &p)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r(i, j) = (double)p.rotation[i][j];
    tf.linear() = r;
    tf.translation() = fcl::Vector3d((double)p.translation.x, (double)p.translation.y, (double)p.translation.z);
    return tf;
}

/* ---- the world -------------------------------------------------------------------------------- */

struct WorldMesh {
    std::string name;
    std::vector<float> pos;
    std::vector<uint32_t> idx;
    copse_mesh view;
    copse_bvh bvh;
    void *mem = nullptr;
    copse_pose pose;
    std::shared_ptr<Model> model;
    std::unique_ptr<fcl::CollisionObjectd> obj;
};

struct World {
    std::vector<std::unique_ptr<WorldMesh>> meshes;
    std::vector<copse_world_mesh> cw;
    copse_world w;
    fcl::DynamicAABBTreeCollisionManagerd mgr;
    size_t copse_bytes = 0, fcl_bytes_ = 0, triangles = 0;
};

void build_world_mesh(WorldMesh &m)
{
    m.view.positions = m.pos.data();
    m.view.vertex_count = (uint32_t)(m.pos.size() / 3);
    m.view.vertex_stride = 0;
    m.view.indices = m.idx.data();
    m.view.index_type = COPSE_MESH_INDEX_U32;
    m.view.triangle_count = (uint32_t)(m.idx.size() / 3);
    copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
    size_t bytes = copse_bvh_build_bytes(m.view.triangle_count, 3, &p);
    m.mem = std::aligned_alloc(16, (bytes + 15) & ~(size_t)15);
    copse_arena arena;
    copse_arena_init(&arena, m.mem, bytes);
    copse_status st = copse_bvh_build_mesh(&m.bvh, &arena, &m.view, &p);
    if (st != COPSE_OK)
        die(m.name + ": copse_bvh_build_mesh: " + status_text(st));
    Tris t;
    for (float x : m.pos)
        t.pos.push_back(x);
    t.idx = m.idx;
    m.model = fcl_model(t);
    m.obj.reset(new fcl::CollisionObjectd(m.model, to_fcl(m.pose)));
}

/* A shared mesh scaled to `size` (its largest extent), turned from y up to z up, its bounds'
 * bottom centre put at `at`. The scale is applied to the vertices, the rest is the pose. */
void add_shared(World &w, const std::string &path, const std::string &name, float size, const float at[3])
{
    host_mesh hm;
    char err[512];
    if (host_mesh_load(path.c_str(), &hm, err, sizeof err) != 0)
        die(err);
    auto m = std::make_unique<WorldMesh>();
    m->name = name;
    m->pos.assign(hm.positions, hm.positions + 3 * (size_t)hm.vertex_count);
    m->idx.assign(hm.indices, hm.indices + 3 * (size_t)hm.triangle_count);
    host_mesh_free(&hm);
    float mn[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, mx[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < m->pos.size(); i += 3)
        for (int a = 0; a < 3; a++) {
            mn[a] = std::min(mn[a], m->pos[i + a]);
            mx[a] = std::max(mx[a], m->pos[i + a]);
        }
    float ext = std::max(mx[0] - mn[0], std::max(mx[1] - mn[1], mx[2] - mn[2]));
    float s = size / ext;
    float c[3] = {0.5f * (mn[0] + mx[0]), mn[1], 0.5f * (mn[2] + mx[2])};
    for (size_t i = 0; i < m->pos.size(); i += 3)
        for (int a = 0; a < 3; a++)
            m->pos[i + a] = (m->pos[i + a] - c[a]) * s;
    /* x -> x, y -> z, z -> -y: a rotation of +90 degrees about x */
    copse_pose p;
    std::memset(&p, 0, sizeof p);
    p.rotation[0][0] = 1.0f;
    p.rotation[1][2] = -1.0f;
    p.rotation[2][1] = 1.0f;
    p.translation.x = at[0], p.translation.y = at[1], p.translation.z = at[2];
    m->pose = p;
    w.meshes.push_back(std::move(m));
}

void finish_world(World &w)
{
    std::vector<fcl::CollisionObjectd *> objs;
    for (auto &m : w.meshes) {
        build_world_mesh(*m);
        copse_world_mesh cm;
        cm.tree = &m->bvh;
        cm.pose = m->pose;
        w.cw.push_back(cm);
        w.copse_bytes += copse_bvh_bytes(&m->bvh) + m->pos.size() * sizeof(float) + m->idx.size() * sizeof(uint32_t);
        w.fcl_bytes_ += fcl_bytes(*m->model);
        w.triangles += m->idx.size() / 3;
        m->obj->setUserData(nullptr); /* not a link */
        objs.push_back(m->obj.get());
    }
    std::memset(&w.w, 0, sizeof w.w);
    w.w.meshes = w.cw.data();
    w.w.mesh_count = (uint32_t)w.cw.size();
    w.mgr.registerObjects(objs);
    w.mgr.setup();
}

/* ---- robots --------------------------------------------------------------------------------- */

struct Blob {
    std::string path;
    void *mem = nullptr;
    size_t bytes = 0;
    copse_robot r;
    uint32_t spheres = 0, capsules = 0;
};

void load_blob(Blob &b, const std::string &path)
{
    b.path = path;
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        die("cannot open " + path);
    std::fseek(f, 0, SEEK_END);
    long n = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    b.bytes = (size_t)n;
    b.mem = std::aligned_alloc(16, ((size_t)n + 15) & ~(size_t)15);
    if (std::fread(b.mem, 1, (size_t)n, f) != (size_t)n)
        die("cannot read " + path);
    std::fclose(f);
    copse_status st = copse_robot_view(&b.r, b.mem, b.bytes);
    if (st != COPSE_OK)
        die(path + ": copse_robot_view: " + status_text(st));
    for (uint32_t l = 0; l < b.r.link_count; l++) {
        b.spheres += copse_robot_link_spheres(&b.r, l, nullptr, 0);
        b.capsules += copse_robot_link_capsules(&b.r, l, nullptr, 0);
    }
}

struct Robot {
    std::string name;
    Blob shapes, plain;
    const copse_robot *r = nullptr; /* the shapes blob: FK, names, ACM */
    uint32_t dof = 0, links = 0, mesh_links = 0, triangles = 0, allowed = 0;
    std::vector<float> lo, hi;
    /* FCL */
    std::vector<std::shared_ptr<Model>> model;        /* per link, null without a mesh */
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> obj;
    std::vector<uint32_t> id;                         /* user data: the link index */
    std::vector<std::vector<bool>> allow;
    fcl::DynamicAABBTreeCollisionManagerd mgr;
    size_t fcl_bytes_ = 0;
    /* configurations and copse's link poses for each */
    std::vector<std::vector<float>> q;
    std::vector<std::vector<copse_pose>> poses;
};

void setup_robot(Robot &R, uint64_t seed)
{
    const copse_robot *r = &R.shapes.r;
    R.r = r;
    R.links = r->link_count;
    R.dof = copse_robot_dof(r);
    if (R.plain.r.link_count != R.links || copse_robot_dof(&R.plain.r) != R.dof)
        die(R.name + ": the two blobs are not the same robot");
    for (uint32_t i = 0; i < R.dof; i++) {
        uint32_t j;
        float lo, hi;
        if (copse_robot_variable(r, i, &j, &lo, &hi) != COPSE_OK)
            die(R.name + ": copse_robot_variable");
        if (lo < -3.14159265f)
            lo = -3.14159265f; /* continuous */
        if (hi > 3.14159265f)
            hi = 3.14159265f;
        R.lo.push_back(lo);
        R.hi.push_back(hi);
    }
    R.model.resize(R.links);
    R.obj.resize(R.links);
    R.id.resize(R.links);
    R.allow.assign(R.links, std::vector<bool>(R.links, false));
    std::vector<fcl::CollisionObjectd *> objs;
    for (uint32_t l = 0; l < R.links; l++) {
        R.id[l] = l;
        for (uint32_t k = 0; k < R.links; k++) {
            R.allow[l][k] = copse_robot_allowed(r, l, k);
            if (k > l && R.allow[l][k])
                R.allowed++;
        }
        copse_bvh t;
        if (copse_robot_link_tree(r, l, &t) != COPSE_OK || t.prim_count == 0)
            continue;
        R.mesh_links++;
        R.triangles += t.mesh.triangle_count;
        R.model[l] = fcl_model(tris_of(t.mesh));
        R.fcl_bytes_ += fcl_bytes(*R.model[l]);
        R.obj[l].reset(new fcl::CollisionObjectd(R.model[l]));
        R.obj[l]->setUserData(&R.id[l]);
        objs.push_back(R.obj[l].get());
    }
    R.mgr.registerObjects(objs);
    R.mgr.setup();
    /* configurations: uniform within the limits, a fixed seed */
    bench_rng rng;
    bench_rng_seed(&rng, seed);
    for (uint32_t c = 0; c < g_configs; c++) {
        std::vector<float> q(R.dof);
        for (uint32_t i = 0; i < R.dof; i++)
            q[i] = bench_rng_float(&rng, R.lo[i], R.hi[i]);
        std::vector<copse_pose> p(R.links);
        copse_status st = copse_robot_fk(r, q.data(), nullptr, p.data());
        if (st != COPSE_OK)
            die(R.name + ": copse_robot_fk: " + status_text(st));
        R.q.push_back(q);
        R.poses.push_back(p);
    }
}

/* ---- FCL's check, MoveIt's way ---------------------------------------------------------------- */

struct CollData {
    const Robot *R;
    bool hit;
};

bool coll_cb(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *data)
{
    CollData *d = (CollData *)data;
    if (d->hit)
        return true;
    const uint32_t *a = (const uint32_t *)o1->getUserData(), *b = (const uint32_t *)o2->getUserData();
    if (a && b && (*a == *b || d->R->allow[*a][*b]))
        return false;
    fcl::CollisionRequestd req(1, false);
    fcl::CollisionResultd res;
    if (fcl::collide(o1, o2, req, res) > 0)
        d->hit = true;
    return d->hit;
}

void fcl_update(Robot &R, uint32_t c)
{
    const std::vector<copse_pose> &p = R.poses[c];
    for (uint32_t l = 0; l < R.links; l++)
        if (R.obj[l]) {
            R.obj[l]->setTransform(to_fcl(p[l]));
            R.obj[l]->computeAABB();
        }
    R.mgr.update();
}

bool fcl_collides(Robot &R, World &W, uint32_t c)
{
    fcl_update(R, c);
    CollData d{&R, false};
    W.mgr.collide(&R.mgr, &d, coll_cb);
    if (!d.hit)
        R.mgr.collide(&d, coll_cb);
    return d.hit;
}

struct DistData {
    double best, cutoff;
};

bool dist_cb(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *data, double &dist)
{
    DistData *d = (DistData *)data;
    double ab = o1->getAABB().distance(o2->getAABB());
    if (ab < d->best && ab < d->cutoff) {
        fcl::DistanceRequestd req(true);
        fcl::DistanceResultd res;
        fcl::distance(o1, o2, req, res);
        d->best = std::min(d->best, std::max(0.0, res.min_distance));
    }
    dist = std::min(d->best, d->cutoff);
    return d->best <= 0;
}

/* Per link: world and self distance, FLT_MAX when nothing is within the cut-off. */
void fcl_distances(Robot &R, World &W, uint32_t c, std::vector<double> &world, std::vector<double> &self)
{
    fcl_update(R, c);
    world.assign(R.links, DBL_MAX);
    self.assign(R.links, DBL_MAX);
    for (uint32_t l = 0; l < R.links; l++)
        if (R.obj[l]) {
            DistData d{DBL_MAX, CUTOFF};
            W.mgr.distance(R.obj[l].get(), &d, dist_cb);
            if (d.best <= CUTOFF)
                world[l] = d.best;
        }
    for (uint32_t a = 0; a < R.links; a++)
        for (uint32_t b = a + 1; b < R.links; b++) {
            if (!R.obj[a] || !R.obj[b] || R.allow[a][b])
                continue;
            double need = std::min((double)CUTOFF, std::max(self[a], self[b]));
            if (R.obj[a]->getAABB().distance(R.obj[b]->getAABB()) > need)
                continue;
            fcl::DistanceRequestd req(true);
            fcl::DistanceResultd res;
            fcl::distance(R.obj[a].get(), R.obj[b].get(), req, res);
            double dd = std::max(0.0, res.min_distance);
            if (dd <= CUTOFF) {
                self[a] = std::min(self[a], dd);
                self[b] = std::min(self[b], dd);
            }
        }
}

/* ---- copse's check ------------------------------------------------------------------------------ */

struct CopseAnswer {
    bool hit;
    uint32_t kind;
};

CopseAnswer copse_collides(const copse_robot *r, const World &W, const float *q, uint32_t flags, copse_pose *poses)
{
    copse_robot_contact first;
    copse_status st = copse_robot_fk(r, q, nullptr, poses);
    if (st == COPSE_OK)
        st = copse_robot_collides(r, &W.w, poses, flags, &first);
    if (st != COPSE_OK)
        die(std::string("copse_robot_collides: ") + status_text(st));
    return CopseAnswer{first.kind != COPSE_CONTACT_NONE, first.kind};
}

void copse_dist(const copse_robot *r, const World &W, const float *q, uint32_t flags, copse_pose *poses,
                copse_link_distance *out)
{
    copse_status st = copse_robot_fk(r, q, nullptr, poses);
    if (st == COPSE_OK)
        st = copse_robot_distances(r, &W.w, poses, flags, CUTOFF, out);
    if (st != COPSE_OK)
        die(std::string("copse_robot_distances: ") + status_text(st));
}

/* ---- timing ------------------------------------------------------------------------------------- */

struct Contender {
    std::string name;
    std::function<uint64_t()> run; /* every configuration once */
};

std::vector<double> time_turns(const std::vector<Contender> &cs, uint32_t n)
{
    return bench_time_turns(cs, n, g_rounds, g_sink);
}

std::string us(double ns)
{
    char b[32];
    std::snprintf(b, sizeof b, ns >= 1e5 ? "%.0f" : ns >= 1e4 ? "%.1f" : "%.2f", ns / 1e3);
    return b;
}

std::string rate(double ns)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.0f", 1e9 / ns);
    return b;
}

std::string ratio(double a, double b)
{
    char s[32];
    std::snprintf(s, sizeof s, "%.2f", a / b);
    return s;
}

/* ---- the rows ------------------------------------------------------------------------------------ */

struct Row {
    std::string robot;
    uint32_t n = 0, colliding = 0, self = 0, world = 0;
    double fk_ns = 0, shapes_ns = 0, noshapes_ns = 0, plain_ns = 0, fcl_ns = 0;
    std::vector<std::string> disagree; /* described */
    uint32_t disagreements = 0;
    double max_diff = 0;      /* distances */
    uint32_t within = 0;      /* distances: configurations with something within the cut-off */
};

std::string config_text(const Robot &R, uint32_t c)
{
    std::string s = "q = (";
    char b[32];
    for (uint32_t i = 0; i < R.dof; i++) {
        std::snprintf(b, sizeof b, "%s%.9g", i ? ", " : "", (double)R.q[c][i]);
        s += b;
    }
    return s + ")";
}

std::string link_name(const Robot &R, uint32_t l)
{
    char b[80];
    if (copse_robot_link_name(R.r, l, b, sizeof b) != COPSE_OK || !b[0])
        std::snprintf(b, sizeof b, "link %u", (unsigned)l);
    return b;
}

/* Which pairs touch at configuration c, by FCL pair by pair and by copse's contacts list. */
std::string explain(Robot &R, World &W, uint32_t c)
{
    std::string s;
    fcl_update(R, c);
    std::vector<copse_robot_contact> ct(256);
    uint32_t count = 0;
    bool trunc = false;
    copse_robot_contacts(R.r, &W.w, R.poses[c].data(), COPSE_ROBOT_CHECK_DEFAULT, ct.data(), (uint32_t)ct.size(),
                         &count, &trunc);
    s += "copse contacts:";
    for (uint32_t i = 0; i < count; i++)
        s += " " + link_name(R, ct[i].link) + "/" +
             (ct[i].kind == COPSE_CONTACT_SELF ? link_name(R, ct[i].other) : W.meshes[ct[i].other]->name);
    s += "; FCL pairs:";
    for (uint32_t a = 0; a < R.links; a++) {
        if (!R.obj[a])
            continue;
        for (uint32_t b = a + 1; b < R.links; b++) {
            if (!R.obj[b] || R.allow[a][b])
                continue;
            fcl::CollisionRequestd req(1, false);
            fcl::CollisionResultd res;
            if (fcl::collide(R.obj[a].get(), R.obj[b].get(), req, res) > 0)
                s += " " + link_name(R, a) + "/" + link_name(R, b);
        }
        for (auto &m : W.meshes) {
            fcl::CollisionRequestd req(1, false);
            fcl::CollisionResultd res;
            if (fcl::collide(R.obj[a].get(), m->obj.get(), req, res) > 0)
                s += " " + link_name(R, a) + "/" + m->name;
        }
    }
    return s;
}

Row collide_row(Robot &R, World &W)
{
    Row row;
    row.robot = R.name;
    row.n = g_configs;
    std::vector<copse_pose> scratch(R.links);
    const uint32_t n = g_configs;
    /* answers */
    for (uint32_t c = 0; c < n; c++) {
        CopseAnswer a = copse_collides(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT, scratch.data());
        CopseAnswer b = copse_collides(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES,
                                       scratch.data());
        CopseAnswer p = copse_collides(&R.plain.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT, scratch.data());
        bool f = fcl_collides(R, W, c);
        row.colliding += a.hit;
        /* which kind: world first as FCL and MoveIt ask */
        CopseAnswer wa = copse_collides(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_WORLD, scratch.data());
        CopseAnswer sa = copse_collides(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_SELF, scratch.data());
        row.world += wa.hit;
        row.self += sa.hit;
        if (a.hit != f || b.hit != f || p.hit != f) {
            row.disagreements++;
            if (row.disagree.size() < 4) {
                char h[160];
                std::snprintf(h, sizeof h, "config %u: copse %d, NO_SHAPES %d, no shapes %d, FCL %d; ", (unsigned)c,
                              (int)a.hit, (int)b.hit, (int)p.hit, (int)f);
                row.disagree.push_back(h + config_text(R, c) + "; " + explain(R, W, c));
            }
        }
    }
    /* time */
    std::vector<Contender> cs;
    Robot *Rp = &R;
    World *Wp = &W;
    auto copse_run = [Rp, Wp, n](const copse_robot *r, uint32_t flags) {
        return [Rp, Wp, n, r, flags]() {
            std::vector<copse_pose> p(Rp->links);
            uint64_t s = 0;
            for (uint32_t c = 0; c < n; c++)
                s += copse_collides(r, *Wp, Rp->q[c].data(), flags, p.data()).hit;
            return s;
        };
    };
    cs.push_back({"copse", copse_run(&R.shapes.r, COPSE_ROBOT_CHECK_DEFAULT)});
    cs.push_back({"copse NO_SHAPES", copse_run(&R.shapes.r, COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES)});
    cs.push_back({"copse no shapes", copse_run(&R.plain.r, COPSE_ROBOT_CHECK_DEFAULT)});
    cs.push_back({"FCL", [Rp, Wp, n]() {
                      uint64_t s = 0;
                      for (uint32_t c = 0; c < n; c++)
                          s += fcl_collides(*Rp, *Wp, c);
                      return s;
                  }});
    cs.push_back({"copse FK", [Rp, n]() {
                      std::vector<copse_pose> p(Rp->links);
                      uint64_t s = 0;
                      for (uint32_t c = 0; c < n; c++)
                          s += copse_robot_fk(Rp->r, Rp->q[c].data(), nullptr, p.data()) == COPSE_OK;
                      return s;
                  }});
    std::vector<double> t = time_turns(cs, n);
    row.shapes_ns = t[0], row.noshapes_ns = t[1], row.plain_ns = t[2], row.fcl_ns = t[3], row.fk_ns = t[4];
    return row;
}

Row dist_row(Robot &R, World &W)
{
    Row row;
    row.robot = R.name;
    row.n = g_configs;
    const uint32_t n = g_configs;
    std::vector<copse_pose> scratch(R.links);
    std::vector<copse_link_distance> d[3];
    for (auto &v : d)
        v.resize(R.links);
    std::vector<double> fw, fs;
    const double tol = 2e-5;
    for (uint32_t c = 0; c < n; c++) {
        copse_dist(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT, scratch.data(), d[0].data());
        copse_dist(&R.shapes.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES, scratch.data(),
                   d[1].data());
        copse_dist(&R.plain.r, W, R.q[c].data(), COPSE_ROBOT_CHECK_DEFAULT, scratch.data(), d[2].data());
        fcl_distances(R, W, c, fw, fs);
        bool any = false, bad = false;
        std::string why;
        for (uint32_t l = 0; l < R.links; l++) {
            if (!R.obj[l])
                continue;
            for (int k = 0; k < 2; k++) {
                double f = k == 0 ? fw[l] : fs[l];
                bool fin = f <= CUTOFF;
                any |= fin;
                for (int v = 0; v < 3; v++) {
                    double x = k == 0 ? d[v][l].world : d[v][l].self;
                    bool xin = x <= CUTOFF;
                    /* both beyond the cut-off, or both within and equal to the tolerance; a value
                     * within tol of the cut-off may fall on either side */
                    if (fin && xin) {
                        row.max_diff = std::max(row.max_diff, std::fabs(x - f));
                        if (std::fabs(x - f) > tol)
                            bad = true;
                    } else if (fin != xin && std::fabs((fin ? f : x) - CUTOFF) > tol) {
                        bad = true;
                    }
                    if (bad && why.empty()) {
                        char b[200];
                        std::snprintf(b, sizeof b, "%s %s: %s %.9g, FCL %.9g", link_name(R, l).c_str(),
                                      k == 0 ? "world" : "self",
                                      v == 0 ? "copse" : v == 1 ? "NO_SHAPES" : "no shapes", xin ? x : -1.0,
                                      fin ? f : -1.0);
                        why = b;
                    }
                }
            }
        }
        row.within += any;
        if (bad) {
            row.disagreements++;
            if (row.disagree.size() < 4) {
                char h[40];
                std::snprintf(h, sizeof h, "config %u: ", (unsigned)c);
                row.disagree.push_back(h + why + " (-1: beyond the cut-off); " + config_text(R, c));
            }
        }
    }
    std::vector<Contender> cs;
    Robot *Rp = &R;
    World *Wp = &W;
    auto copse_run = [Rp, Wp, n](const copse_robot *r, uint32_t flags) {
        return [Rp, Wp, n, r, flags]() {
            std::vector<copse_pose> p(Rp->links);
            std::vector<copse_link_distance> out(Rp->links);
            uint64_t s = 0;
            for (uint32_t c = 0; c < n; c++) {
                copse_dist(r, *Wp, Rp->q[c].data(), flags, p.data(), out.data());
                s += out[Rp->links - 1].world < CUTOFF;
            }
            return s;
        };
    };
    cs.push_back({"copse", copse_run(&R.shapes.r, COPSE_ROBOT_CHECK_DEFAULT)});
    cs.push_back({"copse NO_SHAPES", copse_run(&R.shapes.r, COPSE_ROBOT_CHECK_DEFAULT | COPSE_ROBOT_NO_SHAPES)});
    cs.push_back({"copse no shapes", copse_run(&R.plain.r, COPSE_ROBOT_CHECK_DEFAULT)});
    cs.push_back({"FCL", [Rp, Wp, n]() {
                      std::vector<double> a, b;
                      uint64_t s = 0;
                      for (uint32_t c = 0; c < n; c++) {
                          fcl_distances(*Rp, *Wp, c, a, b);
                          s += a.back() < CUTOFF;
                      }
                      return s;
                  }});
    std::vector<double> t = time_turns(cs, n);
    row.shapes_ns = t[0], row.noshapes_ns = t[1], row.plain_ns = t[2], row.fcl_ns = t[3];
    return row;
}

/* --walks: the mesh-against-mesh walks the check still runs once its ball tests have passed (a
 * link's ball against the other's ball, then against the other's tree), per world mesh and per
 * pair of links: how many a configuration, how many touch, what they cost (time-stamp counter
 * ticks on x86-64, else CPU nanoseconds). Where the next speed-up is to be found. */
static inline uint64_t walk_clock()
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return (uint64_t)bench_cpu_ns();
#endif
}

static copse_sphere root_ball(const copse_bvh &t)
{
    const copse_bvh_node3 *root = (const copse_bvh_node3 *)t.nodes;
    copse_sphere s;
    s.center = copse_v3(0.5f * root->min[0] + 0.5f * root->max[0], 0.5f * root->min[1] + 0.5f * root->max[1],
                        0.5f * root->min[2] + 0.5f * root->max[2]);
    s.radius = 0.5f * std::sqrt((root->max[0] - root->min[0]) * (root->max[0] - root->min[0]) +
                                (root->max[1] - root->min[1]) * (root->max[1] - root->min[1]) +
                                (root->max[2] - root->min[2]) * (root->max[2] - root->min[2]));
    return s;
}

static bool ball_clear(const copse_bvh &t, const copse_pose &frame, copse_vec3 c, float r)
{
    copse_sphere s;
    s.center = copse_pose_apply_inverse(&frame, c);
    s.radius = r;
    uint32_t id = COPSE_NONE;
    copse_bvh_any_sphere(&t, &s, nullptr, &id);
    return id == COPSE_NONE;
}

void walk_stats(Robot &R, World &W)
{
    const copse_robot *r = &R.plain.r;
    std::vector<copse_pose> poses(R.links);
    struct Acc {
        double n = 0, touch = 0, ticks = 0;
    };
    std::vector<Acc> world(W.meshes.size()), self(R.links * R.links);
    for (uint32_t c = 0; c < g_configs; c++) {
        copse_robot_fk(r, R.q[c].data(), nullptr, poses.data());
        for (uint32_t a = 0; a < R.links; a++) {
            copse_bvh ta;
            if (copse_robot_link_tree(r, a, &ta) != COPSE_OK || ta.prim_count == 0)
                continue;
            copse_sphere la = root_ball(ta);
            copse_vec3 ca = copse_pose_apply(&poses[a], la.center);
            for (size_t mi = 0; mi < W.meshes.size(); mi++) {
                auto &m = W.meshes[mi];
                copse_sphere mb = root_ball(m->bvh);
                copse_vec3 cm = copse_pose_apply(&m->pose, mb.center);
                float dx = ca.x - cm.x, dy = ca.y - cm.y, dz = ca.z - cm.z;
                if (std::sqrt(dx * dx + dy * dy + dz * dz) > la.radius + mb.radius || ball_clear(m->bvh, m->pose, ca, la.radius))
                    continue;
                copse_pose inv, rel;
                copse_pose_invert(&inv, &m->pose);
                copse_pose_compose(&rel, &inv, &poses[a]);
                copse_pair w;
                uint64_t t0 = walk_clock();
                copse_bvh_any_bvh(&m->bvh, &ta, &rel, &w, nullptr);
                uint64_t t1 = walk_clock();
                Acc &A = world[mi];
                A.n++;
                A.touch += w.tree_id != COPSE_NONE;
                A.ticks += (double)(t1 - t0);
            }
            for (uint32_t b = a + 1; b < R.links; b++) {
                copse_bvh tb;
                if (copse_robot_allowed(r, a, b) || copse_robot_link_tree(r, b, &tb) != COPSE_OK || tb.prim_count == 0)
                    continue;
                copse_sphere lb = root_ball(tb);
                copse_vec3 cb = copse_pose_apply(&poses[b], lb.center);
                float dx = ca.x - cb.x, dy = ca.y - cb.y, dz = ca.z - cb.z;
                if (std::sqrt(dx * dx + dy * dy + dz * dz) > la.radius + lb.radius || ball_clear(ta, poses[a], cb, lb.radius) ||
                    ball_clear(tb, poses[b], ca, la.radius))
                    continue;
                copse_pose inv, rel;
                copse_pose_invert(&inv, &poses[a]);
                copse_pose_compose(&rel, &inv, &poses[b]);
                copse_pair w;
                uint64_t t0 = walk_clock();
                copse_bvh_any_bvh(&ta, &tb, &rel, &w, nullptr);
                uint64_t t1 = walk_clock();
                Acc &A = self[a * R.links + b];
                A.n++;
                A.touch += w.tree_id != COPSE_NONE;
                A.ticks += (double)(t1 - t0);
            }
        }
    }
    std::printf("%s, %u configurations: mesh walks past the ball tests (per configuration; ticks: %s)\n", R.name.c_str(),
                (unsigned)g_configs,
#if defined(__x86_64__)
                "time-stamp counter"
#else
                "CPU ns"
#endif
    );
    for (size_t mi = 0; mi < W.meshes.size(); mi++) {
        const Acc &A = world[mi];
        std::printf("  world %-8s %5.2f walks, %5.2f touching, %7.0f ticks (%6.0f a walk)\n", W.meshes[mi]->name.c_str(),
                    A.n / g_configs, A.touch / g_configs, A.ticks / g_configs, A.n ? A.ticks / A.n : 0.0);
    }
    for (uint32_t k = 0; k < R.links * R.links; k++) {
        const Acc &A = self[k];
        if (A.n > 0)
            std::printf("  self  %2u-%-2u    %5.2f walks, %5.2f touching, %7.0f ticks (%6.0f a walk)\n", k / R.links,
                        k % R.links, A.n / g_configs, A.touch / g_configs, A.ticks / g_configs, A.ticks / A.n);
    }
}

/* --clearance G: an experiment for the next speed-up (no library code uses it yet). A self pair
 * whose relative pose depends on one or two revolute joints could carry a bake-time table over
 * those joints' G x G cells: a cell is "clear" when the meshes' distance at its centre exceeds
 * how far any point of the child link can move within the cell (half a cell's angle times its
 * reach from each joint) plus both paddings. Prints, per such pair, how many configurations
 * land in a clear cell, of all and of those whose meshes are within 5 cm. */
static float mesh_reach(const copse_bvh &t)
{
    float r = 0.0f;
    uint32_t stride = t.mesh.vertex_stride ? t.mesh.vertex_stride : 12u;
    for (uint32_t v = 0; v < t.mesh.vertex_count; v++) {
        const float *p = (const float *)((const char *)t.mesh.positions + (size_t)v * stride);
        r = std::max(r, std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    }
    return r;
}

void clearance_stats(Robot &R, uint32_t G)
{
    const copse_robot *r = &R.plain.r;
    std::vector<copse_pose> poses(R.links);
    std::printf("%s, %u configurations, %u x %u cells a pair\n", R.name.c_str(), (unsigned)g_configs, (unsigned)G,
                (unsigned)G);
    for (uint32_t a = 0; a < R.links; a++) {
        copse_bvh ta;
        if (copse_robot_link_tree(r, a, &ta) != COPSE_OK || ta.prim_count == 0)
            continue;
        for (uint32_t b = a + 1; b < R.links; b++) {
            copse_bvh tb;
            if (copse_robot_allowed(r, a, b) || copse_robot_link_tree(r, b, &tb) != COPSE_OK || tb.prim_count == 0)
                continue;
            /* b's chain up to a: its movable joints (variables) and their reach */
            std::vector<uint32_t> var;
            std::vector<float> reach;
            float tail = mesh_reach(tb);
            uint32_t l = b;
            bool ok = true;
            while (l != a) {
                copse_robot_link_info li;
                copse_robot_joint_info ji;
                copse_robot_link_info_get(r, l, &li);
                if (li.parent_joint == COPSE_NONE) {
                    ok = false;
                    break;
                }
                copse_robot_joint_info_get(r, li.parent_joint, &ji);
                if (ji.type != COPSE_JOINT_FIXED) {
                    if (ji.type != COPSE_JOINT_REVOLUTE || ji.variable == COPSE_NONE) {
                        ok = false;
                        break;
                    }
                    var.push_back(ji.variable);
                    reach.push_back(tail);
                }
                tail += std::sqrt(ji.origin.translation.x * ji.origin.translation.x +
                                  ji.origin.translation.y * ji.origin.translation.y +
                                  ji.origin.translation.z * ji.origin.translation.z);
                l = ji.parent;
            }
            if (!ok || var.empty() || var.size() > 2)
                continue;
            copse_robot_link_info ia, ib;
            copse_robot_link_info_get(r, a, &ia);
            copse_robot_link_info_get(r, b, &ib);
            std::vector<int8_t> table((size_t)G * G, -1);
            uint32_t clear = 0, near = 0, near_clear = 0;
            std::vector<float> qc(R.dof);
            for (uint32_t c = 0; c < g_configs; c++) {
                const float *q = R.q[c].data();
                uint32_t cell[2] = { 0, 0 };
                float bound = ia.padding + ib.padding + 1e-5f;
                for (size_t k = 0; k < var.size(); k++) {
                    float lo = R.lo[var[k]], hi = R.hi[var[k]], w = (hi - lo) / (float)G;
                    cell[k] = std::min(G - 1u, (uint32_t)((q[var[k]] - lo) / w));
                    bound += 0.5f * w * reach[k];
                }
                size_t key = (size_t)cell[0] * G + cell[1];
                if (table[key] < 0) {
                    qc.assign(q, q + R.dof);
                    for (size_t k = 0; k < var.size(); k++) {
                        float lo = R.lo[var[k]], hi = R.hi[var[k]], w = (hi - lo) / (float)G;
                        qc[var[k]] = lo + ((float)cell[k] + 0.5f) * w;
                    }
                    copse_robot_fk(r, qc.data(), nullptr, poses.data());
                    copse_pose inv, rel;
                    copse_pose_invert(&inv, &poses[a]);
                    copse_pose_compose(&rel, &inv, &poses[b]);
                    copse_distance_query dq = {};
                    dq.max_distance = bound;
                    dq.first_within = true;
                    copse_distance d;
                    copse_distance_bvh_bvh(&tb, &rel, &ta, &dq, &d);
                    table[key] = d.distance == FLT_MAX;
                }
                copse_pose inv, rel;
                copse_pose_invert(&inv, &R.poses[c][a]);
                copse_pose_compose(&rel, &inv, &R.poses[c][b]);
                copse_distance_query dq = {};
                dq.max_distance = 0.05f;
                dq.first_within = true;
                copse_distance d;
                copse_distance_bvh_bvh(&tb, &rel, &ta, &dq, &d);
                bool is_near = d.distance != FLT_MAX;
                clear += table[key];
                near += is_near;
                near_clear += is_near && table[key];
                if (table[key] && d.distance == 0.0f)
                    die("clearance: a clear cell holds a touching configuration");
            }
            std::printf("  %2u-%-2u joints %zu: clear cell %5.1f%% of configurations; within 5 cm %5.1f%%, of those clear %5.1f%%\n",
                        (unsigned)a, (unsigned)b, var.size(), 100.0 * clear / g_configs, 100.0 * near / g_configs,
                        near ? 100.0 * near_clear / near : 0.0);
        }
    }
}

/* --pairs: how often each pair of links not allowed to touch touches over the configurations, and
 * whether it does at the middle of the limits (MoveIt Setup Assistant's "Always" and "Default"). */
void pair_stats(Robot &R, World &W)
{
    std::vector<uint32_t> hits(R.links * R.links, 0);
    std::vector<copse_robot_contact> ct(256);
    std::vector<float> mid(R.dof);
    for (uint32_t i = 0; i < R.dof; i++)
        mid[i] = 0.5f * (R.lo[i] + R.hi[i]);
    std::vector<copse_pose> p(R.links);
    auto touching = [&](const copse_pose *poses, std::vector<bool> &out) {
        uint32_t count = 0;
        bool trunc = false;
        out.assign(R.links * R.links, false);
        copse_robot_contacts(R.r, &W.w, poses, COPSE_ROBOT_SELF, ct.data(), (uint32_t)ct.size(), &count, &trunc);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t a = std::min(ct[i].link, ct[i].other), b = std::max(ct[i].link, ct[i].other);
            out[a * R.links + b] = true;
        }
    };
    std::vector<bool> t, at_mid;
    copse_robot_fk(R.r, mid.data(), nullptr, p.data());
    touching(p.data(), at_mid);
    for (uint32_t c = 0; c < g_configs; c++) {
        touching(R.poses[c].data(), t);
        for (size_t k = 0; k < t.size(); k++)
            hits[k] += t[k];
    }
    std::printf("%s: pairs not allowed that touch (of %u configurations; * touching at mid-limits)\n", R.name.c_str(),
                (unsigned)g_configs);
    for (uint32_t a = 0; a < R.links; a++)
        for (uint32_t b = a + 1; b < R.links; b++)
            if (hits[a * R.links + b] || at_mid[a * R.links + b])
                std::printf("  %-20s %-20s %5.1f%%%s\n", link_name(R, a).c_str(), link_name(R, b).c_str(),
                            100.0 * hits[a * R.links + b] / g_configs, at_mid[a * R.links + b] ? " *" : "");
}

std::string pct(uint32_t a, uint32_t n)
{
    char b[16];
    std::snprintf(b, sizeof b, "%.0f%%", 100.0 * a / n);
    return b;
}

}  // namespace

int main(int argc, char **argv)
{
    std::string data = "../shared/data";
    std::vector<std::unique_ptr<Robot>> robots;
    bool quick = false, pairs = false, walks = false;
    uint32_t clearance = 0;
    const char *profile = nullptr;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (std::strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
            profile = argv[++i];
        else if (std::strcmp(argv[i], "--pairs") == 0)
            pairs = true;
        else if (std::strcmp(argv[i], "--walks") == 0)
            walks = true;
        else if (std::strcmp(argv[i], "--clearance") == 0 && i + 1 < argc)
            clearance = (uint32_t)std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--configs") == 0 && i + 1 < argc)
            g_configs = (uint32_t)std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--robot") == 0 && i + 3 < argc) {
            robots.emplace_back(new Robot);
            robots.back()->name = argv[i + 1];
            load_blob(robots.back()->shapes, argv[i + 2]);
            load_blob(robots.back()->plain, argv[i + 3]);
            i += 3;
        } else {
            std::fprintf(stderr, "usage: robot_peers [--data DIR] [--quick] [--configs N] [--pairs] [--walks] [--clearance G] [--profile collides|collides-noshapes|distances[-self|-world][-once]] "
                                 "--robot NAME SPHERES.bin PLAIN.bin [--robot ...]\n");
            return 2;
        }
    }
    if (robots.empty())
        die("no --robot given");
    if (quick) {
        g_rounds = 3;
        g_configs = 200;
    }

    /* the world: the table and box, and three shared meshes on and around it */
    World W;
    {
        auto t = std::make_unique<WorldMesh>();
        t->name = "table";
        t->pos.resize(3 * ROBOT_SCENE_VERTICES);
        t->idx.resize(3 * ROBOT_SCENE_TRIANGLES);
        robot_scene_table(t->pos.data(), t->idx.data());
        std::memset(&t->pose, 0, sizeof t->pose);
        t->pose.rotation[0][0] = t->pose.rotation[1][1] = t->pose.rotation[2][2] = 1.0f;
        W.meshes.push_back(std::move(t));
        const float teapot_at[3] = {0.60f, -0.30f, 0.12f}, suzanne_at[3] = {0.55f, 0.05f, 0.45f},
                    bunny_at[3] = {-0.35f, 0.45f, 0.20f};
        add_shared(W, data + "/meshes/teapot.obj", "teapot", 0.30f, teapot_at);
        add_shared(W, data + "/meshes/suzanne.obj", "suzanne", 0.25f, suzanne_at);
        add_shared(W, data + "/meshes/stanford-bunny.obj", "bunny", 0.30f, bunny_at);
        finish_world(W);
    }
    /* the same configurations for the variants of one robot (NAME, NAME+never) */
    std::vector<std::string> bases;
    for (auto &R : robots) {
        std::string base = R->name.substr(0, R->name.find('+'));
        size_t k = std::find(bases.begin(), bases.end(), base) - bases.begin();
        if (k == bases.size())
            bases.push_back(base);
        setup_robot(*R, 101 + k);
    }

    if (profile) {
        /* copse's side of one row alone, about 3 s a robot (for perf record) */
        bool dist = std::strstr(profile, "dist") != nullptr;
        uint32_t flags = std::strstr(profile, "self")    ? COPSE_ROBOT_SELF
                         : std::strstr(profile, "world") ? COPSE_ROBOT_WORLD
                                                         : COPSE_ROBOT_CHECK_DEFAULT;
        flags |= std::strstr(profile, "noshapes") ? COPSE_ROBOT_NO_SHAPES : 0u;
        for (auto &R : robots) {
            std::vector<copse_pose> p(R->links);
            std::vector<copse_link_distance> out(R->links);
            /* "-once": every configuration once, for an exact count under callgrind
             * (--toggle-collect=copse_robot_collides), instructions per configuration = total / --configs */
            const bool once = std::strstr(profile, "once") != nullptr;
            double t0 = bench_cpu_ns();
            for (bool first = true; first || (!once && bench_cpu_ns() - t0 < 3e9); first = false)
                for (uint32_t c = 0; c < g_configs; c++)
                    if (dist)
                        copse_dist(&R->shapes.r, W, R->q[c].data(), flags, p.data(), out.data());
                    else
                        g_sink = g_sink + copse_collides(&R->shapes.r, W, R->q[c].data(), flags, p.data()).hit;
        }
        return 0;
    }
    if (pairs) {
        for (auto &R : robots)
            pair_stats(*R, W);
        return 0;
    }
    if (walks) {
        for (auto &R : robots)
            walk_stats(*R, W);
        return 0;
    }
    if (clearance > 0) {
        for (auto &R : robots)
            clearance_stats(*R, clearance);
        return 0;
    }
    std::vector<Row> crow, drow;
    for (auto &R : robots)
        crow.push_back(collide_row(*R, W));
    for (auto &R : robots)
        drow.push_back(dist_row(*R, W));

    /* ---- print */
    std::printf("## Data\n\n");
    std::printf("| robot | links (with a mesh) | variables | triangles | allowed pairs (ACM) | spheres + capsules (shapes blob) |"
                " blob bytes, with shapes | blob bytes, without | FCL BVHModel<OBBRSSd> bytes (tree + mesh) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto &R : robots)
        std::printf("| %s | %u (%u) | %u | %u | %u of %u | %u | %zu | %zu | %zu |\n", R->name.c_str(),
                    (unsigned)R->links, (unsigned)R->mesh_links, (unsigned)R->dof, (unsigned)R->triangles,
                    (unsigned)R->allowed, (unsigned)(R->links * (R->links - 1) / 2), (unsigned)(R->shapes.spheres + R->shapes.capsules),
                    R->shapes.bytes, R->plain.bytes, R->fcl_bytes_);
    std::printf("\nThe world: ");
    for (size_t i = 0; i < W.meshes.size(); i++)
        std::printf("%s%s (%zu triangles)", i ? ", " : "", W.meshes[i]->name.c_str(), W.meshes[i]->idx.size() / 3);
    std::printf("; %zu triangles, copse %zu bytes (trees and meshes), FCL %zu bytes.\n\n", W.triangles,
                W.copse_bytes, W.fcl_bytes_);

    std::printf("## 1. In collision? (FK + check, per configuration)\n\n");
    std::printf("| robot | configurations | in collision (world / self) | copse (us) | configs/s | copse NO_SHAPES (us) |"
                " copse, blob without shapes (us) | FCL (us) | configs/s | FCL / copse | FCL / NO_SHAPES |"
                " FCL / no shapes | copse FK alone (us) | disagreements |\n");
    std::printf("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto &r : crow)
        std::printf("| %s | %u | %s (%s / %s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %u |\n",
                    r.robot.c_str(), (unsigned)r.n, pct(r.colliding, r.n).c_str(), pct(r.world, r.n).c_str(),
                    pct(r.self, r.n).c_str(), us(r.shapes_ns).c_str(), rate(r.shapes_ns).c_str(),
                    us(r.noshapes_ns).c_str(), us(r.plain_ns).c_str(), us(r.fcl_ns).c_str(), rate(r.fcl_ns).c_str(),
                    ratio(r.fcl_ns, r.shapes_ns).c_str(), ratio(r.fcl_ns, r.noshapes_ns).c_str(),
                    ratio(r.fcl_ns, r.plain_ns).c_str(), us(r.fk_ns).c_str(), (unsigned)r.disagreements);
    std::printf("\n");
    for (auto &r : crow)
        for (auto &s : r.disagree)
            std::printf("- %s, disagreement: %s\n", r.robot.c_str(), s.c_str());
    std::printf("\ncopse: `copse_robot_fk` then `copse_robot_collides(SELF | WORLD)` (first contact ends it); "
                "\"NO_SHAPES\" is the same blob with `COPSE_ROBOT_NO_SHAPES` (no shape pre-test); \"blob without "
                "shapes\" is the robot baked without `--capsule` / `--spheres`. FCL: the link poses copse's FK gave, converted to "
                "double and set on each link's `CollisionObjectd` (`setTransform`, `computeAABB`), the robot "
                "manager's `update()`, then `world_manager->collide(robot_manager)` and, when clear, "
                "`robot_manager->collide()`; FCL's time does not include an FK (copse's does: its FK alone is the "
                "last time column). \"in collision\" is copse's answer; world / self: each checked alone.\n\n");

    std::printf("## 2. Distances within %.0f cm (FK + per-link distances, per configuration)\n\n", CUTOFF * 100.0f);
    std::printf("| robot | configurations | something within %.0f cm | copse (us) | configs/s | copse NO_SHAPES (us) |"
                " copse, blob without shapes (us) | FCL (us) | configs/s | FCL / copse | FCL / NO_SHAPES |"
                " FCL / no shapes | max difference (m) | disagreements |\n", CUTOFF * 100.0f);
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto &r : drow)
        std::printf("| %s | %u | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1e | %u |\n", r.robot.c_str(),
                    (unsigned)r.n, pct(r.within, r.n).c_str(), us(r.shapes_ns).c_str(), rate(r.shapes_ns).c_str(),
                    us(r.noshapes_ns).c_str(), us(r.plain_ns).c_str(), us(r.fcl_ns).c_str(), rate(r.fcl_ns).c_str(),
                    ratio(r.fcl_ns, r.shapes_ns).c_str(), ratio(r.fcl_ns, r.noshapes_ns).c_str(),
                    ratio(r.fcl_ns, r.plain_ns).c_str(), r.max_diff, (unsigned)r.disagreements);
    std::printf("\n");
    for (auto &r : drow)
        for (auto &s : r.disagree)
            std::printf("- %s, disagreement: %s\n", r.robot.c_str(), s.c_str());
    std::printf("\ncopse: `copse_robot_fk` then `copse_robot_distances(SELF | WORLD, max_distance %.2f m)`: for every "
                "link its nearest world mesh and its nearest other link it may not touch. FCL, per link with a mesh: "
                "`world_manager->distance(link object)` with a callback that skips candidates whose AABBs are "
                "farther than the cut-off or than the best so far and runs `fcl::distance` (nearest points on) on "
                "the rest; for self, every pair of links not allowed to touch whose AABBs are within the cut-off. "
                "Distances are compared link by link (world and self); both beyond the cut-off agree, and a value "
                "within 2e-5 m of the cut-off may fall on either side.\n\n",
                (double)CUTOFF);
    return 0;
}

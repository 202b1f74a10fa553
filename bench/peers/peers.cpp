/* SPDX-License-Identifier: MIT */
/*
 * bench_peers: copse's static BVH next to Embree 3, Bullet and CGAL, in one process,
 * on the same meshes and the same query sets (bench_gen_* with the host bench's seeds).
 *
 *   ray first hit   copse_bvh_raycast | rtcIntersect1 | btBvhTriangleMeshShape::performRaycast
 *                   with a btTriangleRaycastCallback that keeps the nearest hit | CGAL
 *                   AABB_tree::first_intersected_primitive(Ray_3) (first_intersection's traversal)
 *   box overlap     copse_bvh_overlap_box (triangles that meet the box: exact SAT) | Bullet
 *                   processAllTriangles + copse's own triangle/box test (copse_geo_triangle_box,
 *                   the box prepared once per query) in the callback | CGAL
 *                   number_of_intersected_primitives(Bbox_3) (exact do_intersect)
 *   box candidates  Bullet's processAllTriangles alone reports every triangle whose quantized AABB
 *                   meets the box; next to it, copse_bvh_overlap_box(COPSE_BVH_SELECT_LEAVES) with the
 *                   triangles of those leaves counted (both are supersets of the exact answer)
 *   nearest point   copse_bvh_nearest | rtcPointQuery with a closest-point callback (Embree's
 *                   closest_point tutorial) | CGAL closest_point_and_primitive (KD-tree hint on)
 *
 * Every library runs single-threaded (Embree: device "threads=1"). Rays have unit directions
 * and t_max = 2 * diagonal for everyone (Bullet: the segment origin .. origin + 2*diag*dir;
 * CGAL: the infinite ray, whose hits all lie inside that range here). Agreement: hit/miss
 * equal and |t or distance difference| <= 1e-4 * diagonal; overlap counts equal.
 * Memory: copse_bvh_bytes; Embree's device memory monitor; for Bullet and CGAL the growth of
 * glibc's heap (mallinfo2: in-use arena + mmapped blocks) across the build.
 */
#include <malloc.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <embree3/rtcore.h>

#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <CGAL/AABB_traits.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive.h>
#include <CGAL/Simple_cartesian.h>

#include "bench.h"
#include "copse/copse.h"
extern "C" {
#include "mesh_load.h"
// copse's own triangle/box test, prepared once per box: Bullet's candidates get the very
// test copse runs on its own, so the box overlap rows differ only by the tree.
#include "../src/geom/geom_internal.h"
}

namespace {

// ---- options, time, memory -------------------------------------------------------------------

struct Options {
    std::string data = "../shared/data";
    std::vector<std::string> meshes;
    unsigned queries = 4096, runs = 5;
    bool copse_only = false; // just copse's rates (for a second build of copse with other flags)
    std::string kv;
};
Options opt;
FILE *kv_out;

double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Interleaved timing. Every task (one library answering one query set) runs once as a warm-up
// (which also records its answers), then once per round for opt.runs rounds, and its rate is the
// median over the rounds: load from other processes on this shared machine hits every library
// alike instead of whichever happened to be measuring. A round repeats a task until it lasts
// about 10 ms, so one scheduler tick cannot dominate it.
struct Timer {
    struct Task {
        double *out;
        unsigned n;
        std::function<void()> fn;
        unsigned reps;
        std::vector<double> t;
    };
    std::vector<Task> tasks;

    void add(double *out, unsigned n, std::function<void()> fn) { tasks.push_back({ out, n, std::move(fn), 1, {} }); }

    void run()
    {
        for (Task &k : tasks) {
            double t0 = now_s();
            k.fn();
            double warm = now_s() - t0;
            k.reps = warm < 0.01 ? (unsigned)(0.01 / std::max(warm, 1e-6)) + 1 : 1;
        }
        for (unsigned r = 0; r < opt.runs; r++)
            for (Task &k : tasks) {
                double t0 = now_s();
                for (unsigned i = 0; i < k.reps; i++)
                    k.fn();
                k.t.push_back((now_s() - t0) / k.reps);
            }
        for (Task &k : tasks) {
            std::sort(k.t.begin(), k.t.end());
            size_t m = k.t.size();
            double med = m % 2 ? k.t[m / 2] : 0.5 * (k.t[m / 2 - 1] + k.t[m / 2]);
            *k.out = k.n / med;
        }
        tasks.clear();
    }
};

// Bytes glibc's malloc has handed out (arena in use + mmapped chunks).
size_t heap_bytes()
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

std::string rate_str(double qps)
{
    char buf[32];
    if (qps <= 0.0)
        return "-";
    if (qps >= 1e6)
        snprintf(buf, sizeof buf, "%.2fM", qps * 1e-6);
    else if (qps >= 1e3)
        snprintf(buf, sizeof buf, "%.1fk", qps * 1e-3);
    else
        snprintf(buf, sizeof buf, "%.0f", qps);
    return buf;
}

std::string ratio_str(double a, double b)
{
    char buf[32];
    if (a <= 0.0 || b <= 0.0)
        return "-";
    snprintf(buf, sizeof buf, a / b >= 10.0 ? "%.0fx" : "%.2fx", a / b);
    return buf;
}

std::string bytes_str(double b)
{
    char buf[32];
    if (b >= 1048576.0)
        snprintf(buf, sizeof buf, "%.2f MiB", b / 1048576.0);
    else
        snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    return buf;
}

void kv(const std::string &mesh, const char *what, const char *who, double v)
{
    if (kv_out)
        fprintf(kv_out, "%s %s %s %.6g\n", mesh.c_str(), what, who, v);
}

// One answer per query: a hit (id, t), a nearest (id, distance) or an overlap count (id).
struct Answer {
    uint32_t id = COPSE_NONE;
    float value = 0.0f;
};

enum Family { RAY, BOX, NEAREST, FAMILIES };
const char *const family_name[FAMILIES] = { "ray first hit", "box overlap", "nearest point" };
const char *const family_key[FAMILIES] = { "raycast", "overlap_box", "nearest" };

bool agree(Family f, const Answer &a, const Answer &b, float tol)
{
    if (f == BOX)
        return a.id == b.id;
    if (f == RAY && ((a.id == COPSE_NONE) != (b.id == COPSE_NONE)))
        return false;
    if (f == RAY && a.id == COPSE_NONE)
        return true;
    return std::fabs(a.value - b.value) <= tol;
}

struct Result {
    double qps[FAMILIES] = { 0, 0, 0 };
    std::vector<Answer> ans[FAMILIES];
    double build_s = 0.0;
    double bytes = 0.0;
    std::string bytes_note;
};

// ---- Embree ----------------------------------------------------------------------------------

struct EmbreeMem {
    long long now = 0, peak = 0;
};

bool embree_monitor(void *user, ssize_t bytes, bool post)
{
    auto *m = static_cast<EmbreeMem *>(user);
    (void)post;
    m->now += bytes;
    m->peak = std::max(m->peak, m->now);
    return true;
}

struct ClosestQuery {
    const copse_mesh *mesh;
    float d2 = FLT_MAX;
    uint32_t prim = COPSE_NONE;
};

// The closest_point tutorial's callback: test the triangle, shrink the query radius on success.
bool embree_closest(RTCPointQueryFunctionArguments *args)
{
    auto *q = static_cast<ClosestQuery *>(args->userPtr);
    const float *v[3];
    float p[3] = { args->query->x, args->query->y, args->query->z }, c[3];
    bench_triangle(q->mesh, args->primID, v);
    float d2 = bench_triangle_closest(c, p, v[0], v[1], v[2]);
    float d = std::sqrt(d2);
    if (d < args->query->radius) {
        args->query->radius = d;
        q->d2 = d2;
        q->prim = args->primID;
        return true;
    }
    return false;
}

// ---- Bullet ----------------------------------------------------------------------------------

struct BulletRay : public btTriangleRaycastCallback {
    uint32_t id = COPSE_NONE;
    btScalar frac = 1.0f;
    BulletRay(const btVector3 &from, const btVector3 &to) : btTriangleRaycastCallback(from, to, kF_None) {}
    // Called only for hits nearer than m_hitFraction; returning the fraction clips later tests.
    btScalar reportHit(const btVector3 &, btScalar hit_fraction, int, int triangle_index) override
    {
        if (hit_fraction < frac || (hit_fraction == frac && (uint32_t)triangle_index < id)) {
            frac = hit_fraction;
            id = (uint32_t)triangle_index;
        }
        return hit_fraction;
    }
};

struct BulletBox : public btTriangleCallback {
    geo_tri_box box; // prepared once per query, as copse_bvh_overlap_box does
    bool exact;
    uint32_t count = 0;
    BulletBox(const float *mn, const float *mx, bool exact_test) : exact(exact_test) { geo_tri_box_init(&box, mn, mx); }
    void processTriangle(btVector3 *tri, int, int) override
    {
        if (!exact) {
            count++;
            return;
        }
        float v[3][3];
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                v[k][a] = tri[k][a];
        count += copse_geo_triangle_box(&box, v[0], v[1], v[2]);
    }
};

// ---- CGAL ------------------------------------------------------------------------------------

using K = CGAL::Simple_cartesian<double>;
using CTriangle = K::Triangle_3;
using CIter = std::vector<CTriangle>::const_iterator;
using CPrimitive = CGAL::AABB_triangle_primitive<K, CIter>;
using CTree = CGAL::AABB_tree<CGAL::AABB_traits<K, CPrimitive>>;

// ---- one mesh --------------------------------------------------------------------------------

struct Queries {
    std::vector<copse_ray3> rays;
    std::vector<copse_box3> boxes;
    std::vector<copse_vec3> points;
};

void print_row(const char *query, const char *peer, double copse_qps, double peer_qps, const std::vector<Answer> &a,
               const std::vector<Answer> &b, Family f, float tol, const char *target)
{
    std::string agreement = "-";
    if (!b.empty()) {
        size_t ok = 0;
        for (size_t i = 0; i < a.size(); i++)
            ok += agree(f, a[i], b[i], tol);
        char buf[48];
        snprintf(buf, sizeof buf, "%.2f%% (%zu/%zu)", 100.0 * ok / a.size(), ok, a.size());
        agreement = buf;
    }
    printf("| %s | %s | %s | %s | %s | %s | %s |\n", query, peer, rate_str(copse_qps).c_str(),
           rate_str(peer_qps).c_str(), ratio_str(copse_qps, peer_qps).c_str(), target, agreement.c_str());
}

double mean_id(const std::vector<Answer> &a)
{
    double sum = 0.0;
    for (const Answer &x : a)
        sum += x.id;
    return a.empty() ? 0.0 : sum / a.size();
}

// "met" / "missed" against a minimum copse/peer ratio.
std::string target_str(double copse_qps, double peer_qps, double minimum)
{
    char buf[48];
    if (copse_qps <= 0.0 || peer_qps <= 0.0)
        return "-";
    snprintf(buf, sizeof buf, ">= %gx: %s", minimum,
             copse_qps / peer_qps >= minimum ? "**met**" : "**missed**");
    return buf;
}

int bench_mesh(const std::string &name)
{
    std::string path = opt.data + "/meshes/" + name;
    host_mesh hm;
    char err[512];
    if (host_mesh_load(path.c_str(), &hm, err, sizeof err) != 0) {
        fprintf(stderr, "bench_peers: %s\n", err);
        return -1;
    }
    const copse_mesh mesh = host_mesh_view(&hm);
    bench_scene scene;
    bench_scene_init(&scene, &mesh);
    const unsigned n = opt.queries;
    const float tol = 1e-4f * scene.diag;
    const float t_max = 2.0f * scene.diag;
    double t0 = now_s();

    Queries q;
    q.rays.resize(n);
    q.boxes.resize(n);
    q.points.resize(n);
    bench_gen_rays(&scene, 1, q.rays.data(), n); // the host bench's seeds: the same sets
    bench_gen_boxes(&scene, 2, q.boxes.data(), n);
    bench_gen_points(&scene, 5, q.points.data(), n);

    Timer timer;

    // ---- copse: SAH, leaf 4
    Result cp;
    copse_bvh_params params = COPSE_BVH_PARAMS_DEFAULT;
    size_t need = copse_bvh_build_bytes(mesh.triangle_count, 3, &params);
    std::vector<uint64_t> mem(need / 8 + 1);
    copse_bvh bvh;
    {
        copse_arena arena;
        copse_arena_init(&arena, mem.data(), mem.size() * 8);
        double b0 = now_s();
        copse_status st = copse_bvh_build_mesh(&bvh, &arena, &mesh, &params);
        cp.build_s = now_s() - b0;
        if (st != COPSE_OK) {
            fprintf(stderr, "bench_peers: copse build: %s\n", copse_status_str(st));
            return -1;
        }
        cp.bytes = (double)copse_bvh_bytes(&bvh);
        cp.bytes_note = "copse_bvh_bytes";
    }
    for (auto &a : cp.ans)
        a.resize(n);
    std::vector<uint32_t> ids(mesh.triangle_count);
    timer.add(&cp.qps[RAY], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            copse_ray3 r = q.rays[i];
            r.t_max = t_max;
            copse_hit h;
            copse_bvh_raycast(&bvh, &r, &h);
            cp.ans[RAY][i].id = h.id;
            cp.ans[RAY][i].value = h.t;
        }
    });
    timer.add(&cp.qps[BOX], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            copse_id_list l = copse_id_list_make(ids.data(), (uint32_t)ids.size());
            copse_bvh_overlap_box(&bvh, &q.boxes[i], COPSE_BVH_SELECT_PRIMS, &l);
            cp.ans[BOX][i].id = l.count;
        }
    });
    // Bullet's own box query reports AABB candidates; copse's nearest equivalent is the
    // triangles of the leaves whose box meets the query box (COPSE_BVH_SELECT_LEAVES).
    std::vector<Answer> cp_candidates(n);
    double cp_candidates_qps = 0.0;
    timer.add(&cp_candidates_qps, n, [&] {
        for (unsigned i = 0; i < n; i++) {
            copse_id_list l = copse_id_list_make(ids.data(), (uint32_t)ids.size());
            copse_bvh_overlap_box(&bvh, &q.boxes[i], COPSE_BVH_SELECT_LEAVES, &l);
            uint32_t count = 0;
            for (uint32_t k = 0; k < l.count; k++) {
                const uint32_t *prims;
                uint32_t np;
                copse_bvh_leaf_prims(&bvh, l.ids[k], &prims, &np);
                count += np;
            }
            cp_candidates[i].id = count;
        }
    });
    timer.add(&cp.qps[NEAREST], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            copse_nearest3 r;
            copse_bvh_nearest(&bvh, q.points[i], FLT_MAX, &r);
            cp.ans[NEAREST][i].id = r.id;
            cp.ans[NEAREST][i].value = std::sqrt(r.distance_sq);
        }
    });
    if (opt.copse_only) {
        timer.run();
        for (int f = 0; f < FAMILIES; f++)
            kv(name, family_key[f], "copse", cp.qps[f]);
        kv(name, "overlap_box_candidates", "copse", cp_candidates_qps);
        host_mesh_free(&hm);
        return 0;
    }

    // ---- Embree: one triangle geometry over the caller's arrays (shared, not copied)
    Result em;
    EmbreeMem em_mem;
    RTCDevice device = rtcNewDevice("threads=1,verbose=0");
    rtcSetDeviceMemoryMonitorFunction(device, embree_monitor, &em_mem);
    // Embree reads vertex buffers with 16-byte loads: one float of padding after the last.
    std::vector<float> epos(hm.positions, hm.positions + (size_t)mesh.vertex_count * 3);
    epos.push_back(0.0f);
    RTCScene escene;
    {
        double b0 = now_s();
        escene = rtcNewScene(device);
        RTCGeometry g = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
        rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, epos.data(), 0, 3 * sizeof(float),
                                   mesh.vertex_count);
        rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, hm.indices, 0,
                                   3 * sizeof(uint32_t), mesh.triangle_count);
        rtcCommitGeometry(g);
        rtcAttachGeometry(escene, g);
        rtcReleaseGeometry(g);
        rtcCommitScene(escene);
        em.build_s = now_s() - b0;
    }
    if (rtcGetDeviceError(device) != RTC_ERROR_NONE) {
        fprintf(stderr, "bench_peers: Embree error %d\n", (int)rtcGetDeviceError(device));
        return -1;
    }
    em.bytes = (double)em_mem.now;
    {
        char buf[96];
        snprintf(buf, sizeof buf, "memory monitor, net (peak %s)", bytes_str((double)em_mem.peak).c_str());
        em.bytes_note = buf;
    }
    em.ans[RAY].resize(n);
    em.ans[NEAREST].resize(n);
    timer.add(&em.qps[RAY], n, [&] {
        RTCIntersectContext ctx;
        for (unsigned i = 0; i < n; i++) {
            const copse_ray3 &r = q.rays[i];
            RTCRayHit rh;
            rtcInitIntersectContext(&ctx);
            rh.ray.org_x = r.origin.x;
            rh.ray.org_y = r.origin.y;
            rh.ray.org_z = r.origin.z;
            rh.ray.dir_x = r.dir.x;
            rh.ray.dir_y = r.dir.y;
            rh.ray.dir_z = r.dir.z;
            rh.ray.tnear = 0.0f;
            rh.ray.tfar = t_max;
            rh.ray.time = 0.0f;
            rh.ray.mask = ~0u;
            rh.ray.id = i;
            rh.ray.flags = 0;
            rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
            rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
            rtcIntersect1(escene, &ctx, &rh);
            bool hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
            em.ans[RAY][i].id = hit ? rh.hit.primID : COPSE_NONE;
            em.ans[RAY][i].value = hit ? rh.ray.tfar : FLT_MAX;
        }
    });
    timer.add(&em.qps[NEAREST], n, [&] {
        RTCPointQueryContext ctx;
        for (unsigned i = 0; i < n; i++) {
            RTC_ALIGN(16) RTCPointQuery pq;
            ClosestQuery cq;
            cq.mesh = &mesh;
            pq.x = q.points[i].x;
            pq.y = q.points[i].y;
            pq.z = q.points[i].z;
            pq.time = 0.0f;
            pq.radius = INFINITY;
            rtcInitPointQueryContext(&ctx);
            rtcPointQuery(escene, &pq, &ctx, embree_closest, &cq);
            em.ans[NEAREST][i].id = cq.prim;
            em.ans[NEAREST][i].value = std::sqrt(cq.d2);
        }
    });

    // ---- Bullet: btBvhTriangleMeshShape (quantized AABB tree) over the caller's arrays
    Result bt;
    size_t h0 = heap_bytes();
    double b0 = now_s();
    auto *tiva = new btTriangleIndexVertexArray((int)mesh.triangle_count, reinterpret_cast<int *>(hm.indices),
                                                3 * sizeof(int), (int)mesh.vertex_count, hm.positions,
                                                3 * sizeof(float));
    auto *shape = new btBvhTriangleMeshShape(tiva, true, true);
    bt.build_s = now_s() - b0;
    bt.bytes = (double)(heap_bytes() - h0);
    bt.bytes_note = "heap growth over the build (mallinfo2)";
    bt.ans[RAY].resize(n);
    bt.ans[BOX].resize(n);
    double bt_candidates_qps = 0.0;
    std::vector<Answer> bt_candidates(n);
    timer.add(&bt.qps[RAY], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            const copse_ray3 &r = q.rays[i];
            btVector3 from(r.origin.x, r.origin.y, r.origin.z);
            btVector3 to = from + btVector3(r.dir.x, r.dir.y, r.dir.z) * t_max;
            BulletRay cb(from, to);
            shape->performRaycast(&cb, from, to);
            bt.ans[RAY][i].id = cb.id;
            bt.ans[RAY][i].value = cb.id != COPSE_NONE ? cb.frac * t_max : FLT_MAX;
        }
    });
    timer.add(&bt.qps[BOX], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            const copse_box3 &b = q.boxes[i];
            BulletBox cb(&b.min.x, &b.max.x, true);
            shape->processAllTriangles(&cb, btVector3(b.min.x, b.min.y, b.min.z), btVector3(b.max.x, b.max.y, b.max.z));
            bt.ans[BOX][i].id = cb.count;
        }
    });
    timer.add(&bt_candidates_qps, n, [&] {
        for (unsigned i = 0; i < n; i++) {
            const copse_box3 &b = q.boxes[i];
            BulletBox cb(&b.min.x, &b.max.x, false);
            shape->processAllTriangles(&cb, btVector3(b.min.x, b.min.y, b.min.z), btVector3(b.max.x, b.max.y, b.max.z));
            bt_candidates[i].id = cb.count;
        }
    });

    // ---- CGAL: AABB_tree over a Triangle_3 soup (double), KD-tree for distance queries
    Result cg;
    h0 = heap_bytes();
    b0 = now_s();
    std::vector<CTriangle> soup;
    soup.reserve(mesh.triangle_count);
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        const float *v[3];
        bench_triangle(&mesh, t, v);
        soup.emplace_back(K::Point_3(v[0][0], v[0][1], v[0][2]), K::Point_3(v[1][0], v[1][1], v[1][2]),
                          K::Point_3(v[2][0], v[2][1], v[2][2]));
    }
    CTree ctree(soup.cbegin(), soup.cend());
    ctree.build();
    ctree.accelerate_distance_queries();
    cg.build_s = now_s() - b0;
    cg.bytes = (double)(heap_bytes() - h0);
    {
        char buf[128];
        snprintf(buf, sizeof buf, "heap growth (mallinfo2), of which %s is the Triangle_3 soup",
                 bytes_str((double)soup.capacity() * sizeof(CTriangle)).c_str());
        cg.bytes_note = buf;
    }
    for (auto &a : cg.ans)
        a.resize(n);
    timer.add(&cg.qps[RAY], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            const copse_ray3 &r = q.rays[i];
            K::Point_3 o(r.origin.x, r.origin.y, r.origin.z);
            K::Ray_3 ray(o, K::Vector_3(r.dir.x, r.dir.y, r.dir.z));
            // first_intersected_primitive is first_intersection without the intersection object
            // (a boost::variant); t comes from that one triangle.
            auto hit = ctree.first_intersected_primitive(ray);
            Answer a;
            if (hit) {
                const float *v[3];
                float th;
                a.id = (uint32_t)(*hit - soup.cbegin());
                bench_triangle(&mesh, a.id, v);
                a.value = bench_ray_triangle(&r.origin.x, &r.dir.x, v[0], v[1], v[2], FLT_MAX, &th) ? th : 0.0f;
            }
            cg.ans[RAY][i] = a;
        }
    });
    timer.add(&cg.qps[BOX], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            const copse_box3 &b = q.boxes[i];
            CGAL::Bbox_3 box(b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
            cg.ans[BOX][i].id = (uint32_t)ctree.number_of_intersected_primitives(box);
        }
    });
    timer.add(&cg.qps[NEAREST], n, [&] {
        for (unsigned i = 0; i < n; i++) {
            K::Point_3 p(q.points[i].x, q.points[i].y, q.points[i].z);
            auto cp_ = ctree.closest_point_and_primitive(p);
            cg.ans[NEAREST][i].id = (uint32_t)(cp_.second - soup.cbegin());
            cg.ans[NEAREST][i].value = (float)std::sqrt(CGAL::squared_distance(p, cp_.first));
        }
    });

    // ---- measure everything, interleaved, then report
    timer.run();
    for (int f = 0; f < FAMILIES; f++)
        kv(name, family_key[f], "copse", cp.qps[f]);
    kv(name, "overlap_box_candidates", "copse", cp_candidates_qps);
    double hits = 0, boxes = 0;
    for (unsigned i = 0; i < n; i++) {
        hits += cp.ans[RAY][i].id != COPSE_NONE;
        boxes += cp.ans[BOX][i].id;
    }
    printf("\n### %s (%u triangles, diagonal %.4g)\n\n", name.c_str(), (unsigned)mesh.triangle_count,
           (double)scene.diag);
    printf("%u rays (%.0f%% hit), %u boxes (%.1f triangles each on average), %u points.\n\n", n, 100.0 * hits / n, n,
           boxes / n, n);
    printf("Candidates per box: copse (triangles of the leaves met) %.1f, Bullet (triangles whose quantized "
           "AABB is met) %.1f, exact %.1f.\n\n",
           mean_id(cp_candidates), mean_id(bt_candidates), boxes / n);
    kv(name, "overlap_box_candidates", "bullet", bt_candidates_qps);
    printf("| query | peer | copse q/s | peer q/s | copse/peer | issue target | agreement with copse |\n");
    printf("|---|---|---:|---:|---:|---|---:|\n");
    print_row(family_name[RAY], "Embree rtcIntersect1", cp.qps[RAY], em.qps[RAY], cp.ans[RAY], em.ans[RAY], RAY, tol,
              target_str(cp.qps[RAY], em.qps[RAY], 0.5).c_str());
    print_row(family_name[RAY], "Bullet performRaycast", cp.qps[RAY], bt.qps[RAY], cp.ans[RAY], bt.ans[RAY], RAY, tol,
              target_str(cp.qps[RAY], bt.qps[RAY], 10.0).c_str());
    print_row(family_name[RAY], "CGAL first_intersected_primitive", cp.qps[RAY], cg.qps[RAY], cp.ans[RAY], cg.ans[RAY], RAY,
              tol, "-");
    print_row(family_name[BOX], "Bullet processAllTriangles + SAT", cp.qps[BOX], bt.qps[BOX], cp.ans[BOX],
              bt.ans[BOX], BOX, tol, target_str(cp.qps[BOX], bt.qps[BOX], 3.0).c_str());
    print_row("box candidates", "Bullet processAllTriangles, no exact test", cp_candidates_qps, bt_candidates_qps,
              cp.ans[BOX], std::vector<Answer>(), BOX, tol, target_str(cp_candidates_qps, bt_candidates_qps, 3.0).c_str());
    print_row(family_name[BOX], "CGAL number_of_intersected_primitives", cp.qps[BOX], cg.qps[BOX], cp.ans[BOX],
              cg.ans[BOX], BOX, tol, "-");
    print_row(family_name[NEAREST], "Embree rtcPointQuery", cp.qps[NEAREST], em.qps[NEAREST], cp.ans[NEAREST],
              em.ans[NEAREST], NEAREST, tol, target_str(cp.qps[NEAREST], em.qps[NEAREST], 1.0).c_str());
    print_row(family_name[NEAREST], "CGAL closest_point_and_primitive", cp.qps[NEAREST], cg.qps[NEAREST],
              cp.ans[NEAREST], cg.ans[NEAREST], NEAREST, tol, "-");

    printf("\n| library | build ms | memory | bytes/triangle | how measured |\n|---|---:|---:|---:|---|\n");
    const Result *libs[4] = { &cp, &em, &bt, &cg };
    const char *lib_names[4] = { "copse (SAH, leaf 4)", "Embree 3 (default build quality)",
                                 "Bullet btBvhTriangleMeshShape (quantized)", "CGAL AABB_tree + KD-tree" };
    const char *lib_keys[4] = { "copse", "embree", "bullet", "cgal" };
    for (int l = 0; l < 4; l++) {
        printf("| %s | %.2f | %s | %.1f | %s |\n", lib_names[l], libs[l]->build_s * 1e3,
               bytes_str(libs[l]->bytes).c_str(), libs[l]->bytes / mesh.triangle_count, libs[l]->bytes_note.c_str());
        kv(name, "bytes", lib_keys[l], libs[l]->bytes);
        kv(name, "build_ms", lib_keys[l], libs[l]->build_s * 1e3);
    }
    for (int f = 0; f < FAMILIES; f++) {
        kv(name, family_key[f], "embree", em.qps[f]);
        kv(name, family_key[f], "bullet", bt.qps[f]);
        kv(name, family_key[f], "cgal", cg.qps[f]);
    }

    delete shape;
    delete tiva;
    rtcReleaseScene(escene);
    rtcReleaseDevice(device);
    host_mesh_free(&hm);
    fprintf(stderr, "bench_peers: %s done in %.1f s\n", name.c_str(), now_s() - t0);
    return 0;
}

void usage()
{
    fprintf(stderr, "usage: bench_peers [--data DIR] [--mesh FILE]... [--queries N] [--runs N] [--copse-only]\n"
                    "                   [--kv FILE] [--quick]\n");
    exit(2);
}

} // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--quick") {
            opt.queries = 512;
            opt.runs = 3;
        } else if (a == "--copse-only") {
            opt.copse_only = true;
        } else if (i + 1 < argc && a == "--data") {
            opt.data = argv[++i];
        } else if (i + 1 < argc && a == "--mesh") {
            opt.meshes.push_back(argv[++i]);
        } else if (i + 1 < argc && a == "--queries") {
            opt.queries = (unsigned)std::strtoul(argv[++i], nullptr, 10);
        } else if (i + 1 < argc && a == "--runs") {
            opt.runs = (unsigned)std::strtoul(argv[++i], nullptr, 10);
        } else if (i + 1 < argc && a == "--kv") {
            opt.kv = argv[++i];
        } else {
            usage();
        }
    }
    if (opt.queries == 0 || opt.runs == 0)
        usage();
    if (opt.meshes.empty())
        opt.meshes = { "dungeon.obj", "stanford-bunny.obj" };
    if (!opt.kv.empty() && !(kv_out = fopen(opt.kv.c_str(), "w"))) {
        fprintf(stderr, "bench_peers: cannot write %s\n", opt.kv.c_str());
        return 1;
    }
    std::string probe = opt.data + "/meshes/" + opt.meshes[0];
    if (FILE *f = fopen(probe.c_str(), "r")) {
        fclose(f);
    } else {
        printf("\n_No meshes: %s is missing (set DATA=path/to/shared/data). Nothing was measured._\n", probe.c_str());
        fprintf(stderr, "bench_peers: %s missing: skipping\n", probe.c_str());
        return 0;
    }
    printf("\n%u queries of each kind per mesh; one thread. Each library's rate is the median of %u rounds "
           "after a warm-up, the rounds interleaving all libraries and queries.\n",
           opt.queries, opt.runs);
    int rc = 0;
    for (const auto &m : opt.meshes)
        rc |= bench_mesh(m) != 0;
    if (kv_out)
        fclose(kv_out);
    return rc;
}

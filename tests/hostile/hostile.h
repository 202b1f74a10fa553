/* SPDX-License-Identifier: MIT */
/*
 * The hostile-API suite (docs/hostile.md): every public function of the headers (include/copse)
 * driven with NULLs, zeroed and garbage structures, capacity 0, limits +-1, overflowing and
 * denormal numbers, re-entrant callbacks, misaligned buffers, guard bytes after every caller
 * buffer, and the deepest queries on a small thread stack. Host only (it mallocs its guarded
 * buffers); built with ASan and UBSan, 64-bit and -m32 (mk/hostile.mk).
 *
 * A case is one call of a public function under attack (hz_case names it). The list of public
 * functions is generated from the headers (tools/list-api --c): the last test fails for every
 * function without a case, and for every case naming no public function.
 *
 * What is not attacked: a tree struct's pointers. A copse_bvh, copse_octree ... comes from a build
 * or a view, and a struct whose pointers are garbage cannot be told from a valid one; zeroed trees,
 * trees of the wrong dimension or kind, read-only views and damaged copies (through the check
 * functions) are attacked instead.
 */
#ifndef COPSE_HOSTILE_H
#define COPSE_HOSTILE_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "copse/copse.h"
#include "test.h"

/* ---- cases ------------------------------------------------------------------------------------ */

/* One call of `fn` under attack: counts it and marks fn covered. */
void hz_case(const char *fn);
#define HZ(fn) hz_case(#fn)
const char *hz_fn(void);        /* the function of the current case */
unsigned long hz_cases(void);
bool hz_covered(const char *fn);
unsigned hz_covered_count(void);
const char *hz_covered_name(unsigned i);
/* The statuses fn's cases returned (through HZ_EXPECT and HZ_IS): a bit per -status. */
uint64_t hz_seen(const char *fn);

/* ---- statuses ------------------------------------------------------------------------------- */

#define HZ_S(s) ((uint64_t)1 << (unsigned)(-(int)(COPSE_##s)))
#define HZ_OKS HZ_S(OK)
/* what a query documents for bad input */
#define HZ_QUERY (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_EMPTY_RANGE) | HZ_S(ERR_PARAM) | \
                  HZ_S(ERR_DIMENSION) | HZ_S(ERR_KIND) | HZ_S(ERR_TOO_DEEP))
bool hz_in(copse_status st, uint64_t mask);
/* Each evaluates its status once. */
bool hz_expect_at(copse_status st, uint64_t mask, const char *file, int line);
bool hz_is_at(copse_status st, copse_status want, const char *file, int line);
#define HZ_EXPECT(st, mask) hz_expect_at((st), (mask), __FILE__, __LINE__)
#define HZ_IS(st, want) hz_is_at((st), (want), __FILE__, __LINE__)
#define HZ_CHECK(cond) test_checkf_at((cond), __FILE__, __LINE__, "%s: %s", hz_fn(), #cond)

/* ---- guarded buffers ------------------------------------------------------------------------ */

/* `bytes` at an address `misalign` bytes past a 16-byte boundary, filled with HZ_FILL, with
 * HZ_GUARD guard bytes after them; hz_guards() checks every guard handed out since its last call
 * (a CHECK each) and frees the buffers. */
#define HZ_GUARD 64u
#define HZ_FILL 0xC3u
void *hz_buf(size_t bytes, unsigned misalign);
void hz_guards(void);

/* ---- hostile numbers ------------------------------------------------------------------------ */

/* NaN, +-inf, +-FLT_MAX, 3e38, 1e19 (squares overflow), -0, FLT_MIN, denormals, -1, 0 */
extern const float hz_floats[];
extern const unsigned hz_nfloats;

/* For every float slot of the struct at base (bytes / 4 slots; the struct must hold only floats
 * in its first `bytes`) and every hostile value: a copy with that slot set, passed to fn. */
typedef void (*hz_mutant_fn)(void *ctx, const void *mutant);
void hz_mutate(const void *base, size_t bytes, hz_mutant_fn fn, void *ctx);

/* The same struct filled with one byte value (0x00, 0xFF, 0xA5, 0x7F...: garbage). */
void hz_garbage(void *dst, size_t bytes, unsigned which);
#define HZ_NGARBAGE 5u

/* ---- outputs -------------------------------------------------------------------------------- */

/* A list whose storage is a guarded buffer, count and truncated preset to garbage. */
copse_id_list hz_ids(uint32_t capacity);
copse_hit_list hz_hits(uint32_t capacity);
copse_neighbor_list hz_neighbors(uint32_t capacity);
copse_pair_list hz_pairs(uint32_t capacity);
/* On an error the list is empty; on OK it holds at most its capacity. */
void hz_ids_ok_at(const copse_id_list *l, copse_status st, const char *file, int line);
void hz_hits_ok_at(const copse_hit_list *l, copse_status st, const char *file, int line);
void hz_pairs_ok_at(const copse_pair_list *l, copse_status st, const char *file, int line);
void hz_neighbors_ok_at(const copse_neighbor_list *l, copse_status st, const char *file, int line);
#define hz_ids_ok(l, st) hz_ids_ok_at((l), (st), __FILE__, __LINE__)
#define hz_hits_ok(l, st) hz_hits_ok_at((l), (st), __FILE__, __LINE__)
#define hz_pairs_ok(l, st) hz_pairs_ok_at((l), (st), __FILE__, __LINE__)
#define hz_neighbors_ok(l, st) hz_neighbors_ok_at((l), (st), __FILE__, __LINE__)

/* ---- re-entrant visitors -------------------------------------------------------------------- */

/* `call` runs the function under attack with one of the hz_re_* visitors and r as user. The
 * visitor, on its first visit, calls `call` again from inside the callback; hz_reenter checks
 * that the nested call returns OK with every visit a plain call makes, and that the outer call
 * still makes all of its own. */
typedef struct hz_re hz_re;
struct hz_re {
    copse_status (*call)(hz_re *r);
    const void *a, *b, *c;
    float f;
    uint32_t u;
    unsigned depth, visits;
    unsigned nested_visits;
    copse_status nested_st;
    bool nested_done;
    copse_neighbor scratch[2][4]; /* visit_nearest: one scratch per level */
};
bool hz_re_id(void *user, uint32_t id);
bool hz_re_hit(void *user, const copse_hit *hit);
bool hz_re_neighbor(void *user, const copse_neighbor *n);
bool hz_re_pair(void *user, const copse_pair *p);
bool hz_re_bsp_pair(void *user, uint32_t a, uint32_t b);
bool hz_re_bounds(void *user, const float *mn, const float *mx);
void hz_reenter(hz_re *r);

/* Visitors that stop at once / count. */
bool hz_stop_id(void *user, uint32_t id);
bool hz_count_id(void *user, uint32_t id);
bool hz_true_id(void *user, uint32_t id); /* does nothing, goes on */

/* ---- families of queries ------------------------------------------------------------------ */

/* An id query in its list and visitor forms behind one signature; HZ_IDQ makes the wrappers
 * (each names its function) and the pair q_<list>. */
typedef copse_status (*hz_list_fn)(const void *tree, const void *shape, copse_id_list *out);
typedef copse_status (*hz_visit_fn)(const void *tree, const void *shape, copse_id_visitor visit, void *user);
typedef struct hz_idq {
    hz_list_fn list;
    hz_visit_fn visit;
} hz_idq;
#define HZ_IDQ(list_name, visit_name, TREE, SHAPE)                                                     \
    static copse_status w_##list_name(const void *t, const void *s, copse_id_list *out)                \
    {                                                                                                \
        HZ(list_name);                                                                               \
        return list_name((const TREE *)t, (const SHAPE *)s, out);                                    \
    }                                                                                                \
    static copse_status w_##visit_name(const void *t, const void *s, copse_id_visitor v, void *u)      \
    {                                                                                                \
        HZ(visit_name);                                                                              \
        return visit_name((const TREE *)t, (const SHAPE *)s, v, u);                                  \
    }                                                                                                \
    static const hz_idq q_##list_name = {w_##list_name, w_##visit_name};

/* NULL tree, shape, list, list storage with a capacity, visitor: NULL, and the list emptied. */
void hz_idq_nulls(const hz_idq *q, const void *tree, const void *shape);
/* Both forms once: a status in mask, lists of capacity 64 and 0 within themselves and emptied on
 * an error, the visitor's count the full list's. */
void hz_idq_one(const hz_idq *q, const void *tree, const void *shape, uint64_t mask);
/* hz_idq_one for every hostile value in every float of the shape (`bytes` of floats). */
void hz_idq_mutate(const hz_idq *q, const void *tree, const void *shape, size_t bytes, uint64_t mask);
/* A visitor that stops at once (one visit at most), and one that calls the query again. */
void hz_idq_visitors(const hz_idq *q, const void *tree, const void *shape);

/* Saving and viewing a tree kind: save_bytes and save of NULL, of a zeroed tree (0 bytes, and
 * `zero_save` from save), into a buffer one byte short (NOMEM, written = the size, nothing
 * written) and at an odd address (OK); view of NULL, of a misaligned copy (ALIGN), of every
 * shorter length (refused, the tree left empty: `empty`), of another kind's blob (BLOB_KIND). */
typedef struct hz_blob_ops {
    const char *save_bytes_name, *save_name, *view_name;
    size_t (*save_bytes)(const void *tree);
    copse_status (*save)(const void *tree, void *buf, size_t cap, size_t *written);
    copse_status (*view)(void *tree, const void *blob, size_t len);
    bool (*empty)(const void *tree);
    size_t tree_bytes;
    copse_status zero_save;
} hz_blob_ops;
void hz_blob_family(const hz_blob_ops *o, const void *tree, const void *blob, size_t n, const void *other,
                    size_t other_n);
/* The wrappers of copse_<pre>_save_bytes, _save and _view for a tree type T, `empty` an expression
 * of `x` (a const T *) that says a failed view left it empty, and the ops, ops_<pre>. */
#define HZ_BLOB_OPS(T, pre, empty)                                                                  \
    static size_t w_##pre##_save_bytes(const void *t)                                               \
    {                                                                                               \
        return copse_##pre##_save_bytes((const T *)t);                                              \
    }                                                                                               \
    static copse_status w_##pre##_save(const void *t, void *buf, size_t cap, size_t *written)       \
    {                                                                                               \
        return copse_##pre##_save((const T *)t, buf, cap, written);                                 \
    }                                                                                               \
    static copse_status w_##pre##_view(void *t, const void *blob, size_t len)                       \
    {                                                                                               \
        return copse_##pre##_view((T *)t, blob, len);                                               \
    }                                                                                               \
    static bool w_##pre##_empty(const void *t)                                                      \
    {                                                                                               \
        const T *x = (const T *)t;                                                                  \
        return (empty);                                                                             \
    }                                                                                               \
    static const hz_blob_ops ops_##pre = {"copse_" #pre "_save_bytes", "copse_" #pre "_save",         \
                                          "copse_" #pre "_view", w_##pre##_save_bytes, w_##pre##_save, \
                                          w_##pre##_view, w_##pre##_empty, sizeof(T), COPSE_ERR_PARAM};

/* ---- the scene every case attacks ----------------------------------------------------------- */

#define HZ_TRIS 24u
#define HZ_BOXES 12u
#define HZ_POINTS 40u
#define HZ_BRUSHES 3u

typedef struct hz_fix {
    float tri[9u * HZ_TRIS];
    copse_mesh mesh;
    copse_bvh mesh3, mesh2, boxes3, boxes2; /* mesh3: the link; mesh2: projected on XZ */
    copse_box3 b3[HZ_BOXES];
    copse_box2 b2[HZ_BOXES];
    uint32_t ids[HZ_BOXES];
    copse_vec3 pts[HZ_POINTS];
    copse_octree oct;
    copse_loose loose;
    copse_box2 scene, objs[HZ_BOXES];
    copse_bsp2 bsp2;
    copse_plane planes[HZ_BRUSHES][6];
    copse_brush brushes[HZ_BRUSHES];
    copse_bsp3 bsp3;
    copse_robot robot;       /* two links with meshes and shapes, a revolute joint */
    copse_world_mesh wmesh;
    copse_world_object objects[2];
    copse_world world;
    /* blobs, each in its own 16-aligned malloc'd copy */
    void *blob_bvh, *blob_oct, *blob_loose, *blob_bsp2, *blob_bsp3, *blob_robot;
    size_t n_bvh, n_oct, n_loose, n_bsp2, n_bsp3, n_robot;
    /* the deepest trees (the small-stack test) */
    copse_bvh deep;
    copse_bsp3 deep3;
} hz_fix;

/* Built once (every build checked OK); never changed by the cases. */
const hz_fix *hz_fixture(void);
void hz_fixture_free(void);
/* The configurations the scene's octrees were made with. */
copse_octree_config hz_octree_config(const hz_fix *f);
copse_loose_config hz_loose_config(void);

/* A test of the suite: fn(hz_fixture()), then every guard checked. */
#define HZ_TEST(name, fn)                 \
    static void test_##fn(void)           \
    {                                     \
        fn(hz_fixture());                 \
        hz_guards();                      \
    }
#define HZ_RUN(name, fn) test_run("hostile_api/" name, test_##fn)

/* The modules' cases (tests/hostile/hostile_<module>.c), each a few tests. */
void hz_core(void);
void hz_geom(void);
void hz_bvh(void);
void hz_collide(void);
void hz_octree(void);
void hz_loose(void);
void hz_bsp(void);
void hz_robot(void);
/* The deepest calls, run on a small thread stack by the runner. */
void hz_deep_calls(void);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Blobs (docs/format.md): the CRC-32; BVH round trips for every layout and split, where the
 * viewed tree answers a batch of random queries exactly as the built one; every truncation
 * and every single-byte corruption of small blobs (raw: refused; with the CRC fixed up:
 * refused, or a tree that queries safely); a guard after the save buffer for every capacity;
 * each hand-made way to be wrong with its own status; bad arguments.
 */
#include <string.h>
#if defined(COPSE_HOST)
#include <stdlib.h> /* exact-size copies, so the sanitizers see reads past a truncated blob */
#endif

#include "suites.h"
#include "test_blob.h"
#include "test_bvh.h"

static const copse_bvh_split k_splits[3] = {COPSE_BVH_SPLIT_SAH, COPSE_BVH_SPLIT_MEDIAN, COPSE_BVH_SPLIT_MIDPOINT};

typedef enum scene_kind { MESH3_U16, MESH3_FLAT, MESH2_XZ_U32, BOXES3_IDS, BOXES2, SCENE_KINDS } scene_kind;
static const char *const k_names[SCENE_KINDS] = {"mesh3-u16", "mesh3-flat-stride16", "mesh2-xz-u32-stride20",
                                                 "boxes3-ids", "boxes2"};

static bool make_scene(tk_scene *sc, scene_kind kind, uint32_t n, test_rng *rng)
{
    tk_mesh_spec m;
    tk_box_spec b;
    if (kind >= BOXES3_IDS) {
        tk_box_spec_init(&b, n, kind == BOXES3_IDS ? 3u : 2u, kind == BOXES3_IDS);
        return tk_make_boxes(sc, &b, rng);
    }
    tk_mesh_spec_init(&m, n, kind == MESH3_U16 ? TK_U16 : kind == MESH3_FLAT ? TK_FLAT : TK_U32);
    m.stride = kind == MESH3_FLAT ? 16u : kind == MESH2_XZ_U32 ? 20u : 12u;
    m.projection = kind == MESH2_XZ_U32 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
    m.degen_pct = 3;
    return tk_make_mesh(sc, &m, rng);
}

bool host_big_endian(void)
{
    const uint32_t one = 1u;
    uint8_t b[4];
    memcpy(b, &one, sizeof b);
    return b[0] == 0u;
}

static copse_status view_in_place(copse_bvh *out, const void *blob, size_t len, const tk_scene *sc)
{
    if (sc->kind == COPSE_BVH_PRIM_TRIANGLES)
        return copse_bvh_view_mesh(out, blob, len, &sc->mesh);
    if (sc->dim == 3)
        return copse_bvh_view_boxes3(out, blob, len, (const copse_box3 *)(const void *)sc->boxes, sc->ids, sc->n);
    return copse_bvh_view_boxes2(out, blob, len, (const copse_box2 *)(const void *)sc->boxes, sc->ids, sc->n);
}

/* The bytes the last view_scene() viewed: the caller's blob, or on a big-endian host its
 * conversion (a saved blob is little endian and gets HOST_ORDER there). */
static const uint8_t *g_viewed;

#if defined(COPSE_HOST)
static uint8_t *g_converted; /* malloc'd: the sanitizers see reads past it */
#endif

/* Views the blob as this host can: in place, or on a big-endian host through
 * copse_blob_to_host, so every check below holds (and exercises the conversion) there too. */
static copse_status view_scene(copse_bvh *out, const void *blob, size_t len, const tk_scene *sc)
{
    copse_status st = view_in_place(out, blob, len, sc);
    g_viewed = (const uint8_t *)blob;
#if defined(COPSE_HOST)
    if (st == COPSE_ERR_HOST_ORDER && host_big_endian()) {
        size_t need = 0;
        CHECK_STATUS(copse_blob_to_host(blob, len, NULL, 0, &need), COPSE_ERR_NOMEM);
        free(g_converted);
        g_converted = (uint8_t *)malloc(need > 0 ? need : 1u);
        if (g_converted == NULL || copse_blob_to_host(blob, len, g_converted, need, NULL) != COPSE_OK)
            return st;
        g_viewed = g_converted;
        return view_in_place(out, g_converted, need, sc);
    }
#endif
    return st;
}

/* Saves into a fresh pool buffer; NULL after failed checks. */
static uint8_t *save(const copse_bvh *bvh, size_t *size)
{
    size_t need = copse_bvh_save_bytes(bvh), written = 1;
    uint8_t *buf = (uint8_t *)tk_alloc(need);
    *size = need;
    if (buf == NULL)
        return NULL;
    CHECK_STATUS(copse_bvh_save(bvh, buf, need, &written), COPSE_OK);
    CHECK_EQ_INT(written, need);
    return buf;
}

void blob_reseal(uint8_t *b, size_t total)
{
    static const uint8_t zero[4] = {0, 0, 0, 0};
    uint32_t crc = copse_crc32(copse_crc32(copse_crc32(0, b, 12), zero, 4), b + 16, total - 16);
    b[12] = (uint8_t)crc;
    b[13] = (uint8_t)(crc >> 8);
    b[14] = (uint8_t)(crc >> 16);
    b[15] = (uint8_t)(crc >> 24);
}

copse_status blob_to_host_in_place(uint8_t *blob, size_t size)
{
    return copse_blob_to_host(blob, size, blob, size, NULL);
}

/* Whether the word at `at` is a section word stored big endian: past the header and table
 * (sections start at the first one's offset, table entry 0 at 96) in a blob marked 01 02 03 04. */
static bool word_big_endian(const uint8_t *blob, size_t at)
{
    const size_t first_section = (size_t)blob[100] | ((size_t)blob[101] << 8) | ((size_t)blob[102] << 16) |
                                 ((size_t)blob[103] << 24);
    return blob[8] == 1u && blob[9] == 2u && blob[10] == 3u && blob[11] == 4u && at >= first_section;
}

uint32_t blob_get_word(const uint8_t *blob, size_t at)
{
    const uint8_t *p = blob + at;
    if (word_big_endian(blob, at))
        return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void blob_put_word(uint8_t *blob, size_t at, uint32_t v)
{
    const bool big = word_big_endian(blob, at);
    unsigned i;
    for (i = 0; i < 4u; i++)
        blob[at + i] = (uint8_t)(v >> (big ? 24u - 8u * i : 8u * i));
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- CRC ------------------------------------------------------------------------------------ */

static void test_crc32(void)
{
    static const char digits[] = "123456789";
    CHECK(copse_crc32(0, digits, 9) == 0xCBF43926u); /* the CRC-32/ISO-HDLC check value */
    CHECK(copse_crc32(copse_crc32(0, digits, 4), digits + 4, 5) == 0xCBF43926u);
    CHECK(copse_crc32(0, digits, 0) == 0u);
    CHECK(copse_crc32(7u, NULL, 3) == 7u);
}

/* ---- round trips ---------------------------------------------------------------------------- */

/* The viewed tree answers every query exactly as the built one (same tree, same bits). */
static void compare_queries(const tk_scene *sc, const copse_bvh *a, const copse_bvh *b, uint64_t seed)
{
    const uint32_t cap = a->node_count + 1u, hcap = a->prim_count + 1u; /* nodes >= prims */
    uint32_t *ids_a = (uint32_t *)tk_alloc(cap * 4u), *ids_b = (uint32_t *)tk_alloc(cap * 4u);
    copse_hit *hits_a = (copse_hit *)tk_alloc(hcap * sizeof(copse_hit));
    copse_hit *hits_b = (copse_hit *)tk_alloc(hcap * sizeof(copse_hit));
    test_rng rng;
    unsigned q, k;
    if (ids_a == NULL || ids_b == NULL || hits_a == NULL || hits_b == NULL)
        return;
    test_rng_seed(&rng, seed);
    for (q = 0; q < 24u; q++) {
        tk_query query;
        tk_ray ray;
        copse_id_list la = copse_id_list_make(ids_a, cap), lb = copse_id_list_make(ids_b, cap);
        copse_hit_list ha = copse_hit_list_make(hits_a, hcap), hb = copse_hit_list_make(hits_b, hcap);
        copse_hit ra, rb;
        copse_nearest3 na, nb;
        float p[3];
        const copse_bvh_select sel = (q & 1u) ? COPSE_BVH_SELECT_LEAVES : COPSE_BVH_SELECT_PRIMS;
        bool same;
        tk_random_query(sc, (tk_shape)(q % 3u), &rng, &query);
        CHECK(tk_overlap(a, sc->dim, &query, sel, &la) == tk_overlap(b, sc->dim, &query, sel, &lb));
        same = la.count == lb.count && la.truncated == lb.truncated && memcmp(ids_a, ids_b, la.count * 4u) == 0;
        CHECKF(same, "%s: overlap %u: %u vs %u ids", tk_ctx(), q, (unsigned)la.count, (unsigned)lb.count);

        tk_random_ray(sc, &rng, &ray);
        CHECK(tk_raycast(a, sc->dim, &ray, &ra) == tk_raycast(b, sc->dim, &ray, &rb));
        CHECKF(ra.id == rb.id && bits(ra.t) == bits(rb.t) && bits(ra.u) == bits(rb.u) && bits(ra.v) == bits(rb.v),
               "%s: raycast %u", tk_ctx(), q);
        CHECK(tk_raycast_all(a, sc->dim, &ray, &ha) == tk_raycast_all(b, sc->dim, &ray, &hb));
        same = ha.count == hb.count;
        for (k = 0; same && k < ha.count; k++)
            same = hits_a[k].id == hits_b[k].id && bits(hits_a[k].t) == bits(hits_b[k].t);
        CHECKF(same, "%s: raycast_all %u: %u vs %u hits", tk_ctx(), q, (unsigned)ha.count, (unsigned)hb.count);

        tk_random_point(sc, &rng, p);
        CHECK(tk_nearest(a, sc->dim, p, 1e30f, &na) == tk_nearest(b, sc->dim, p, 1e30f, &nb));
        CHECKF(na.id == nb.id && bits(na.distance_sq) == bits(nb.distance_sq) && bits(na.point.x) == bits(nb.point.x) &&
                   bits(na.point.y) == bits(nb.point.y) && bits(na.point.z) == bits(nb.point.z),
               "%s: nearest %u", tk_ctx(), q);
    }
}

static void round_trip(scene_kind kind, uint32_t n, copse_bvh_split split, uint32_t leaf, uint64_t seed)
{
    size_t mark = tk_mark(), size = 0;
    test_rng rng;
    tk_scene sc;
    tk_tree tree;
    copse_bvh view;
    uint8_t *blob;
    test_rng_seed(&rng, seed);
    tk_context("%s n=%u %s leaf %u", k_names[kind], (unsigned)n, tk_split_name(split), (unsigned)leaf);
    tree.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    tree.params.split = split;
    tree.params.leaf_size = leaf;
    tree.params.projection = kind == MESH2_XZ_U32 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
    if (make_scene(&sc, kind, n, &rng) && tk_build(&tree, &sc, &tree.params) && (blob = save(&tree.bvh, &size)) != NULL) {
        copse_status st = view_scene(&view, blob, size, &sc);
        CHECKF(st == COPSE_OK, "%s: view: %s", tk_ctx(), copse_status_str(st));
        if (st == COPSE_OK) {
            CHECK_STATUS(copse_bvh_check(&view), COPSE_OK);
            CHECKF(view.nodes == (const void *)(g_viewed + 128) && tk_tree_hash(&view) == tk_tree_hash(&tree.bvh) &&
                       view.depth == tree.bvh.depth && view.degenerate_count == tree.bvh.degenerate_count &&
                       memcmp(view.axis, tree.bvh.axis, 3) == 0 && view.mesh.vertex_stride == tree.bvh.mesh.vertex_stride,
                   "%s: viewed tree differs", tk_ctx());
            compare_queries(&sc, &tree.bvh, &view, seed + 1u);
            CHECK_STATUS(view_scene(&view, blob, size + 16u, &sc), COPSE_OK); /* len past the blob */
        }
    }
    tk_rewind(mark);
}

static void test_round_trip(void)
{
    uint32_t sizes[4] = {0, 1, 5, 60};
    unsigned kind, s, z;
    tk_pool_reset();
    if (tk_free_bytes() < 64u * 1024u)
        sizes[3] = 24; /* the micro:bit */
    for (kind = 0; kind < SCENE_KINDS; kind++)
        for (s = 0; s < 3u; s++)
            for (z = 0; z < 4u; z++)
                round_trip((scene_kind)kind, sizes[z], k_splits[s], z == 3u ? 1u + s * 3u : 2u,
                           0xB10B0000u + kind * 64u + s * 8u + z);
}

/* ---- byte order ------------------------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* The big-endian form of a saved blob, made from format.md alone: every 4-byte word of every
 * section reversed, the marker bytes 01 02 03 04, the CRC over the result. */
static void to_big_endian(uint8_t *b, size_t total)
{
    uint32_t s, count = (uint32_t)b[26] | ((uint32_t)b[27] << 8), i;
    for (s = 0; s < count; s++) {
        const uint8_t *e = b + 96u + 16u * s;
        uint8_t *sec = b + le32(e + 4);
        for (i = 0; i + 4u <= le32(e + 8); i += 4u) {
            uint8_t w[4];
            memcpy(w, sec + i, 4);
            sec[i] = w[3];
            sec[i + 1u] = w[2];
            sec[i + 2u] = w[1];
            sec[i + 3u] = w[0];
        }
    }
    for (i = 0; i < 4u; i++)
        b[8u + i] = (uint8_t)(1u + i);
    blob_reseal(b, total);
}

/* A saved blob and its big-endian form: the one in the host's order views in place, the other
 * gets HOST_ORDER; copse_blob_to_host turns either into exactly the host's bytes (copied or in
 * place), and the converted tree answers as the built one. Then each way to misuse it. */
static void byte_order(scene_kind kind, uint32_t n)
{
    enum { GUARD = 32 };
    size_t mark = tk_mark(), size = 0, written = 0, i;
    test_rng rng;
    tk_scene sc;
    tk_tree tree;
    copse_bvh view;
    copse_blob_info info;
    uint8_t *le, *be, *out;
    const uint8_t *native, *foreign;
    bool intact = true;
    test_rng_seed(&rng, 0xE0D1u + kind);
    tk_context("%s n=%u byte order", k_names[kind], (unsigned)n);
    tree.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    tree.params.leaf_size = 2;
    tree.params.projection = kind == MESH2_XZ_U32 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
    if (!make_scene(&sc, kind, n, &rng) || !tk_build(&tree, &sc, &tree.params) || (le = save(&tree.bvh, &size)) == NULL ||
        (be = (uint8_t *)tk_alloc(size)) == NULL || (out = (uint8_t *)tk_alloc(size + GUARD)) == NULL)
        return;
    memcpy(be, le, size);
    to_big_endian(be, size);
    CHECK(n == 0 || memcmp(be, le, size) != 0);
    CHECK_STATUS(copse_blob_read(le, size, &info), COPSE_OK);
    CHECK(info.big_endian == 0u);
    CHECK_STATUS(copse_blob_read(be, size, &info), COPSE_OK);
    CHECK(info.big_endian == 1u);
    native = host_big_endian() ? be : le;
    foreign = host_big_endian() ? le : be;

    CHECK_STATUS(view_in_place(&view, foreign, size, &sc), COPSE_ERR_HOST_ORDER);
    CHECK(view.node_count == 0 && view.nodes == NULL);
    memset(out, 0xA5, size + GUARD);
    CHECK_STATUS(copse_blob_to_host(foreign, size + 8u, out, size + GUARD, &written), COPSE_OK);
    CHECK_EQ_INT(written, size);
    CHECKF(memcmp(out, native, size) == 0, "%s: converted bytes differ from the host-order form", tk_ctx());
    for (i = size; i < size + GUARD; i++)
        intact = intact && out[i] == 0xA5;
    CHECKF(intact, "%s: written past the blob's size", tk_ctx());
    CHECK_STATUS(view_in_place(&view, out, size, &sc), COPSE_OK);
    if (view.node_count == tree.bvh.node_count) {
        CHECK(tk_tree_hash(&view) == tk_tree_hash(&tree.bvh));
        CHECK_STATUS(copse_bvh_check(&view), COPSE_OK);
        compare_queries(&sc, &tree.bvh, &view, 0xE0D1u + kind);
    }
    CHECK_STATUS(copse_blob_to_host(native, size, out, size, NULL), COPSE_OK); /* already host order */
    CHECK(memcmp(out, native, size) == 0);
    memcpy(out, foreign, size); /* in place */
    CHECK_STATUS(copse_blob_to_host(out, size, out, size, NULL), COPSE_OK);
    CHECK(memcmp(out, native, size) == 0);

    /* misuse: nothing written, specific statuses, the needed size reported when short */
    memset(out, 0xA5, size + GUARD);
    for (i = 0; i < size; i += size / 7u + 1u) {
        written = 0;
        CHECK_STATUS(copse_blob_to_host(foreign, size, out, i, &written), COPSE_ERR_NOMEM);
        CHECK_EQ_INT(written, size);
    }
    CHECK_STATUS(copse_blob_to_host(foreign, size, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_STATUS(copse_blob_to_host(foreign, size, NULL, size, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_blob_to_host(NULL, size, out, size, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_blob_to_host(foreign, size, out + 2, size, &written), COPSE_ERR_ALIGN);
    CHECK_STATUS(copse_blob_to_host(foreign, size - 1u, out, size, &written), COPSE_ERR_BLOB_TRUNCATED);
    CHECK_EQ_INT(written, 0);
    intact = true;
    for (i = 0; i < size + GUARD; i++)
        intact = intact && out[i] == 0xA5;
    CHECKF(intact, "%s: a failed conversion wrote", tk_ctx());
    memcpy(out, foreign, size); /* overlapping but not the same bytes */
    CHECK_STATUS(copse_blob_to_host(out, size, out + 4, size, &written), COPSE_ERR_PARAM);
    CHECK(memcmp(out, foreign, size) == 0);
    out[size - 1u] ^= 0x40u; /* a section byte: the CRC no longer matches */
    CHECK_STATUS(copse_blob_to_host(out, size, out, size, &written), COPSE_ERR_BLOB_CRC);
    out[size - 1u] ^= 0x40u;
    out[9] ^= 0x01u; /* neither marker */
    blob_reseal(out, size);
    CHECK_STATUS(copse_blob_to_host(out, size, out, size, &written), COPSE_ERR_BLOB_BYTE_ORDER);
    if (n > 0) { /* a last section that is not whole 4-byte words */
        memcpy(out, foreign, size);
        out[16] = (uint8_t)(out[16] - 2u);
        out[96 + 16 + 8] = (uint8_t)(out[96 + 16 + 8] - 2u);
        blob_reseal(out, size - 2u);
        CHECK_STATUS(copse_blob_read(out, size, &info), COPSE_ERR_BLOB_SECTION);
    }
    tk_rewind(mark);
}

static void test_byte_order(void)
{
    unsigned kind;
    tk_pool_reset();
    for (kind = 0; kind < SCENE_KINDS; kind++) {
        byte_order((scene_kind)kind, 0);
        byte_order((scene_kind)kind, 1);
        byte_order((scene_kind)kind, 9);
    }
}

/* ---- hostile blobs -------------------------------------------------------------------------- */

/* A copy of blob[0, len): on the host in a block of exactly len bytes from malloc. */
static uint8_t *exact_copy(const uint8_t *blob, size_t len, uint8_t *work)
{
#if defined(COPSE_HOST)
    uint8_t *p = (uint8_t *)malloc(len > 0 ? len : 1u);
    CHECK(p != NULL);
    (void)work;
#else
    uint8_t *p = work;
#endif
    if (p != NULL && len > 0)
        memcpy(p, blob, len);
    return p;
}

static void free_copy(uint8_t *p)
{
#if defined(COPSE_HOST)
    free(p);
#else
    (void)p; /* the caller's work buffer */
#endif
}

void blob_hostile(const blob_victim *v, const uint8_t *blob, size_t size, const char *name)
{
    static const uint8_t patterns[4] = {0x01, 0x80, 0xFF, 0x5A};
    size_t i, len;
    unsigned pat, refused = 0, accepted = 0;
    uint8_t *copy;
    bool empty;
    for (len = 0; len < size; len++) {
        copy = exact_copy(blob, len, v->work);
        if (copy != NULL) {
            copse_status st = v->view(v->ctx, copy, len, &empty);
            CHECKF(st == COPSE_ERR_BLOB_TRUNCATED && empty, "%s: %lu of %lu bytes: %s", name, (unsigned long)len,
                   (unsigned long)size, copse_status_str(st));
        }
        free_copy(copy);
    }
    copy = exact_copy(blob, size, v->work);
    if (copy == NULL)
        return;
    for (i = 0; i < size; i++)
        for (pat = 0; pat < 4u; pat++) {
            copse_status st;
            copy[i] = (uint8_t)(blob[i] ^ patterns[pat]);
            st = v->view(v->ctx, copy, size, &empty);
            CHECKF(st != COPSE_OK && empty, "%s: byte %lu ^ %02x accepted", name, (unsigned long)i, patterns[pat]);
            if (i < 12u || i >= 16u) { /* the same change with a CRC that matches it */
                blob_reseal(copy, size);
                st = v->view(v->ctx, copy, size, &empty);
                if (st == COPSE_OK) {
                    accepted++;
                    v->poke(v->ctx);
                } else {
                    refused++;
                    CHECKF(empty, "%s: byte %lu ^ %02x refused (%s) with a tree left", name, (unsigned long)i,
                           patterns[pat], copse_status_str(st));
                }
            }
            memcpy(copy, blob, size);
        }
    copse_port_printf("info blob %s: %lu bytes, %lu truncations refused; resealed corruptions: %u refused, %u "
                      "accepted\n",
                      name, (unsigned long)size, (unsigned long)size, refused, accepted);
    free_copy(copy);
}

/* A tree a view accepted: it must query without harm (the sanitizers watch) and pass its check
 * when the bytes are the saved ones. */
typedef struct bvh_victim {
    const tk_scene *sc;
    copse_bvh view;
} bvh_victim;

static copse_status bvh_victim_view(void *ctx, const uint8_t *blob, size_t len, bool *empty)
{
    bvh_victim *v = (bvh_victim *)ctx;
    copse_status st = view_scene(&v->view, blob, len, v->sc);
    *empty = v->view.node_count == 0 && v->view.nodes == NULL;
    return st;
}

static void bvh_victim_poke(void *ctx)
{
    const bvh_victim *v = (const bvh_victim *)ctx;
    const tk_scene *sc = v->sc;
    test_rng rng;
    tk_query q;
    tk_ray r;
    copse_hit hit;
    copse_nearest3 near;
    uint32_t ids[8];
    copse_id_list list = copse_id_list_make(ids, 8);
    float p[3];
    test_rng_seed(&rng, 5);
    tk_random_query(sc, TK_BOX, &rng, &q);
    (void)tk_overlap(&v->view, sc->dim, &q, COPSE_BVH_SELECT_PRIMS, &list);
    tk_random_ray(sc, &rng, &r);
    (void)tk_raycast(&v->view, sc->dim, &r, &hit);
    tk_random_point(sc, &rng, p);
    (void)tk_nearest(&v->view, sc->dim, p, 1e30f, &near);
    (void)copse_bvh_check(&v->view);
}

static void hostile(scene_kind kind, uint32_t n, uint32_t leaf)
{
    size_t mark = tk_mark(), size = 0;
    test_rng rng;
    tk_scene sc;
    tk_tree tree;
    bvh_victim bv;
    blob_victim v;
    uint8_t *blob;
    test_rng_seed(&rng, 77u + kind);
    tk_context("%s n=%u leaf %u", k_names[kind], (unsigned)n, (unsigned)leaf);
    tree.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    tree.params.leaf_size = leaf;
    tree.params.projection = kind == MESH2_XZ_U32 ? COPSE_BVH_PROJECT_XZ : COPSE_BVH_PROJECT_NONE;
    if (!make_scene(&sc, kind, n, &rng) || !tk_build(&tree, &sc, &tree.params) || (blob = save(&tree.bvh, &size)) == NULL)
        return;
    bv.sc = &sc;
    v.view = bvh_victim_view;
    v.poke = bvh_victim_poke;
    v.ctx = &bv;
    v.work = (uint8_t *)tk_alloc(size);
    if (v.work != NULL)
        blob_hostile(&v, blob, size, tk_ctx());
    tk_rewind(mark);
}

static void test_truncation_and_corruption(void)
{
    tk_pool_reset();
    hostile(BOXES3_IDS, 6, 2);
    hostile(MESH2_XZ_U32, 5, 1);
}

/* Each way to be wrong, made by hand (CRC fixed up where it is checked after the change). */
static void test_specific_statuses(void)
{
    size_t size = 0, mark;
    test_rng rng;
    tk_scene sc;
    tk_tree tree;
    copse_bvh view;
    uint8_t *blob, *b;
    struct {
        uint32_t at;
        uint8_t xor_with;
        bool reseal;
        copse_status want;
    } cases[] = {
        {0, 0x20, false, COPSE_ERR_BLOB_MAGIC},        {8, 0x07, false, COPSE_ERR_BLOB_BYTE_ORDER},
        {4, 0x03, false, COPSE_ERR_BLOB_VERSION},      {6, 0x03, true, COPSE_ERR_BLOB_KIND},
        {13, 0x10, false, COPSE_ERR_BLOB_CRC},         {20, 0x01, true, COPSE_ERR_BLOB_HEADER},
        {24, 0x10, true, COPSE_ERR_BLOB_HEADER},       {26, 0x08, true, COPSE_ERR_BLOB_HEADER},
        {90, 0x01, true, COPSE_ERR_BLOB_HEADER},       {44, 0x04, true, COPSE_ERR_BLOB_HEADER},
        {45, 0x04, true, COPSE_ERR_BLOB_HEADER},       {47, 0x02, true, COPSE_ERR_BLOB_HEADER},
        {60, 0x01, true, COPSE_ERR_BLOB_HEADER},       {96, 0x04, true, COPSE_ERR_BLOB_SECTION},
        {100, 0x10, true, COPSE_ERR_BLOB_SECTION},     {104, 0x20, true, COPSE_ERR_BLOB_SECTION},
        {108, 0x01, true, COPSE_ERR_BLOB_SECTION},     {32, 0x02, true, COPSE_ERR_BLOB_SECTION},
        {46, 0x01, true, COPSE_ERR_BLOB_DEPTH},        {46, 0xC0, true, COPSE_ERR_TOO_DEEP},
        {64, 0x01, true, COPSE_ERR_BLOB_BOUNDS},       {128 + 3, 0x7F, true, COPSE_ERR_BLOB_BOUNDS},
        {128 + 24, 0x01, true, COPSE_ERR_BLOB_NODE},   {128 + 32 + 28, 0x01, true, COPSE_ERR_BLOB_NODE},
    };
    unsigned c;
    tk_pool_reset();
    test_rng_seed(&rng, 3);
    tree.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    tree.params.leaf_size = 2;
    if (!make_scene(&sc, BOXES3_IDS, 6, &rng) || !tk_build(&tree, &sc, &tree.params) ||
        (blob = save(&tree.bvh, &size)) == NULL)
        return;
    mark = tk_mark();
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (cases[c].want == COPSE_ERR_TOO_DEEP && COPSE_BVH_MAX_DEPTH >= 0xC0u)
            continue;
        b = (uint8_t *)tk_alloc(size);
        if (b == NULL)
            return;
        memcpy(b, blob, size);
        b[cases[c].at] ^= cases[c].xor_with;
        if (cases[c].reseal)
            blob_reseal(b, size);
        CHECKF(view_scene(&view, b, size, &sc) == cases[c].want, "byte %u ^ %02x: %s, expected %s", (unsigned)cases[c].at,
               (unsigned)cases[c].xor_with, copse_status_str(view_scene(&view, b, size, &sc)), copse_status_str(cases[c].want));
        tk_rewind(mark);
    }
    /* a primitive twice (and another never): swap in the first slot's value at the second */
    b = (uint8_t *)tk_alloc(size);
    if (b == NULL)
        return;
    memcpy(b, blob, size);
    memcpy(b + size - 20u, b + size - 24u, 4);
    blob_reseal(b, size);
    CHECK_STATUS(view_scene(&view, b, size, &sc), COPSE_ERR_BLOB_PRIM);
    b[size - 20u] = 6; /* out of range */
    blob_reseal(b, size);
    CHECK_STATUS(view_scene(&view, b, size, &sc), COPSE_ERR_BLOB_PRIM);
    /* the total size past the end of `len`, or past the sections */
    memcpy(b, blob, size);
    b[17] ^= 0x10;
    CHECK_STATUS(view_scene(&view, b, size, &sc), COPSE_ERR_BLOB_TRUNCATED);
    blob_reseal(b, size);
    CHECK_STATUS(view_scene(&view, b, size, &sc), COPSE_ERR_BLOB_TRUNCATED);
    b[17] ^= 0x10;
    b[16] = (uint8_t)(b[16] - 4u); /* 6 prims: the size is 8 + a multiple of 16 */
    blob_reseal(b, size - 4u);
    CHECK_STATUS(view_scene(&view, b, size, &sc), COPSE_ERR_BLOB_SECTION);
}

/* ---- saving ----------------------------------------------------------------------------------- */

static void test_save_guard(void)
{
    size_t size = 0, cap, i, written;
    test_rng rng;
    tk_scene sc;
    tk_tree tree;
    uint8_t *blob, *buf;
    bool intact;
    tk_pool_reset();
    test_rng_seed(&rng, 9);
    tree.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    if (!make_scene(&sc, MESH3_U16, 9, &rng) || !tk_build(&tree, &sc, &tree.params) ||
        (blob = save(&tree.bvh, &size)) == NULL || (buf = (uint8_t *)tk_alloc(size + 32u)) == NULL)
        return;
    for (cap = 0; cap <= size; cap++) {
        memset(buf, 0xA5, size + 32u);
        written = 0;
        CHECK_STATUS(copse_bvh_save(&tree.bvh, buf, cap, &written), cap < size ? COPSE_ERR_NOMEM : COPSE_OK);
        CHECK_EQ_INT(written, size);
        intact = true;
        for (i = cap < size ? 0 : size; i < size + 32u; i++)
            intact = intact && buf[i] == 0xA5;
        CHECKF(intact, "cap %lu: bytes written outside the blob or when short", (unsigned long)cap);
    }
    CHECK(memcmp(buf, blob, size) == 0); /* the same tree, the same bytes */
    CHECK_EQ_INT(size, ((128u + 32u * tree.bvh.node_count + 15u) & ~15u) + 4u * tree.bvh.prim_count);
}

static void test_bad_args(void)
{
    size_t size = 0, written = 7;
    test_rng rng;
    tk_scene mesh, boxes;
    tk_tree tm, tb;
    copse_bvh view, zero;
    copse_mesh m;
    uint8_t *bm, *bb, *shifted;
    tk_pool_reset();
    test_rng_seed(&rng, 11);
    tm.params = (copse_bvh_params)COPSE_BVH_PARAMS_DEFAULT;
    tb.params = tm.params;
    if (!make_scene(&mesh, MESH3_U16, 8, &rng) || !tk_build(&tm, &mesh, &tm.params) ||
        !make_scene(&boxes, BOXES3_IDS, 8, &rng) || !tk_build(&tb, &boxes, &tb.params) ||
        (bb = save(&tb.bvh, &size)) == NULL || (bm = save(&tm.bvh, &size)) == NULL ||
        (shifted = (uint8_t *)tk_alloc(size + 4u)) == NULL)
        return;
    /* in this host's order, in place (a big-endian host's views refuse the saved bytes) */
    CHECK_STATUS(copse_blob_to_host(bb, copse_bvh_save_bytes(&tb.bvh), bb, copse_bvh_save_bytes(&tb.bvh), NULL), COPSE_OK);
    CHECK_STATUS(copse_blob_to_host(bm, size, bm, size, NULL), COPSE_OK);
    memset(&zero, 0, sizeof zero);
    CHECK_EQ_INT(copse_bvh_save_bytes(NULL), 0);
    CHECK_EQ_INT(copse_bvh_save_bytes(&zero), 0);
    CHECK_STATUS(copse_bvh_save(NULL, bm, size, &written), COPSE_ERR_NULL);
    CHECK_EQ_INT(written, 0);
    CHECK_STATUS(copse_bvh_save(&tm.bvh, NULL, 8, &written), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_save(&tm.bvh, NULL, 0, &written), COPSE_ERR_NOMEM);
    CHECK_EQ_INT(written, size);
    CHECK_STATUS(copse_bvh_save(&tm.bvh, shifted, size, NULL), COPSE_OK);
    CHECK_STATUS(copse_bvh_save(&zero, shifted, size, &written), COPSE_ERR_PARAM);

    CHECK_STATUS(copse_bvh_view_mesh(NULL, bm, size, &mesh.mesh), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_view_mesh(&view, NULL, size, &mesh.mesh), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, NULL), COPSE_ERR_NULL);
    memcpy(shifted + 1, bm, size);
    CHECK_STATUS(copse_bvh_view_mesh(&view, shifted + 1, size, &mesh.mesh), COPSE_ERR_ALIGN);
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &mesh.mesh), COPSE_OK);
    CHECK_STATUS(copse_bvh_view_mesh(&view, bb, copse_bvh_save_bytes(&tb.bvh), &mesh.mesh), COPSE_ERR_BLOB_SOURCE);
    CHECK(view.node_count == 0 && view.nodes == NULL);
    m = mesh.mesh;
    m.triangle_count--;
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &m), COPSE_ERR_BLOB_SOURCE);
    m = mesh.mesh;
    m.vertex_count = 1;
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &m), COPSE_ERR_INDEX);
    m = mesh.mesh;
    m.indices = NULL;
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &m), COPSE_ERR_NULL);
    m = mesh.mesh;
    m.vertex_stride = 13;
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &m), COPSE_ERR_ALIGN);
    m.index_type = (copse_mesh_index_type)3;
    CHECK_STATUS(copse_bvh_view_mesh(&view, bm, size, &m), COPSE_ERR_PARAM);

    size = copse_bvh_save_bytes(&tb.bvh);
    CHECK_STATUS(view_scene(&view, bb, size, &boxes), COPSE_OK);
    CHECK_STATUS(copse_bvh_view_boxes2(&view, bb, size, (const copse_box2 *)(const void *)boxes.boxes, NULL, 8),
                 COPSE_ERR_BLOB_SOURCE);
    CHECK_STATUS(copse_bvh_view_boxes3(&view, bb, size, (const copse_box3 *)(const void *)boxes.boxes, NULL, 7),
                 COPSE_ERR_BLOB_SOURCE);
    CHECK_STATUS(copse_bvh_view_boxes3(&view, bb, size, NULL, NULL, 8), COPSE_ERR_NULL);
    CHECK_STATUS(copse_bvh_view_boxes3(&view, bb, size, (const copse_box3 *)(const void *)(bb + 1), NULL, 8),
                 COPSE_ERR_ALIGN);
    CHECK_STATUS(copse_bvh_view_mesh(&view, bb, size, &mesh.mesh), COPSE_ERR_BLOB_SOURCE);
    {
        copse_blob_info info;
        CHECK_STATUS(copse_blob_read(bb, size, &info), COPSE_OK);
        CHECK(info.kind == COPSE_BLOB_BVH && info.version == 1u && info.total_bytes == size && info.section_count == 2u &&
              info.sections[0].offset == 128u && info.sections[1].offset % 16u == 0u);
        CHECK_STATUS(copse_blob_read(bb, size, NULL), COPSE_ERR_NULL);
        CHECK_STATUS(copse_blob_read(NULL, size, &info), COPSE_ERR_NULL);
    }
}

void suite_blob(void)
{
    test_run("blob/crc32", test_crc32);
    test_run("blob/round_trip", test_round_trip);
    test_run("blob/byte_order", test_byte_order);
    test_run("blob/truncation_and_corruption", test_truncation_and_corruption);
    test_run("blob/specific_statuses", test_specific_statuses);
    test_run("blob/save_guard", test_save_guard);
    test_run("blob/bad_args", test_bad_args);
}

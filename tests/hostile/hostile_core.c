/* SPDX-License-Identifier: MIT */
/* Hostile cases: arena.h, blob.h, status.h and the list makers of query.h, collide.h, octree.h. */
#include <string.h>

#include "hostile/hostile.h"

/* ---- arena.h -------------------------------------------------------------------------------- */

static bool aligned8(const void *p)
{
    return ((uintptr_t)p & (COPSE_ARENA_ALIGN - 1u)) == 0u;
}

static void arena_cases(const hz_fix *f)
{
    (void)f;
    copse_arena a;
    unsigned mis;
    size_t size, i;
    /* NULL arenas: nothing happens, nothing is handed out */
    HZ(copse_arena_init);
    copse_arena_init(NULL, hz_buf(64, 0), 64);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(NULL, 8) == NULL);
    HZ(copse_arena_remaining);
    HZ_CHECK(copse_arena_remaining(NULL) == 0u);
    HZ(copse_arena_reserve_check);
    HZ_CHECK(copse_arena_reserve_check(NULL, 0) == 0);
    HZ(copse_arena_mark);
    HZ_CHECK(copse_arena_mark(NULL) == 0u);
    HZ(copse_arena_rewind);
    copse_arena_rewind(NULL, 0);
    hz_guards();
    /* any settings word is recorded as given; a builder refuses all but the library's and 0 */
    HZ(copse_arena_init_config);
    copse_arena_init_config(NULL, hz_buf(64, 0), 64, 0u);
    HZ(copse_arena_init_config);
    copse_arena_init_config(&a, hz_buf(4096, 0), 4096, 0xFFFFFFFFu);
    HZ_CHECK(a.config == 0xFFFFFFFFu && a.used == 0u && a.capacity == 4096u);
    {
        const copse_bvh_params p = COPSE_BVH_PARAMS_DEFAULT;
        const copse_box3 b = copse_box3_make(0, 0, 0, 1, 1, 1);
        copse_bvh t;
        HZ(copse_bvh_build_boxes3);
        HZ_CHECK(copse_bvh_build_boxes3(&t, &a, &b, NULL, 1u, &p) == COPSE_ERR_CONFIG && a.used == 0u &&
                 t.node_count == 0u);
        a.config = (uint32_t)COPSE_CONFIG_SIGNATURE ^ 0x100u; /* another BSP depth */
        HZ_CHECK(copse_bvh_build_boxes3(&t, &a, &b, NULL, 1u, &p) == COPSE_ERR_CONFIG && a.used == 0u);
        a.config = 0u; /* set up by hand: not checked */
        HZ_CHECK(copse_bvh_build_boxes3(&t, &a, &b, NULL, 1u, &p) == COPSE_OK);
    }
    hz_guards();
    /* every misalignment and every small size: what is handed out is aligned and inside */
    for (mis = 0; mis < 8u; mis++)
        for (size = 0; size <= 40u; size += 3u) {
            uint8_t *buf = (uint8_t *)hz_buf(size, mis);
            void *p;
            HZ(copse_arena_init);
            copse_arena_init(&a, buf, size);
            HZ_CHECK(a.capacity <= size && a.used == 0u && (a.base == NULL || aligned8(a.base)));
            for (i = 0; i <= 3u; i++) {
                HZ(copse_arena_alloc);
                p = copse_arena_alloc(&a, i * 5u);
                if (p != NULL) {
                    HZ_CHECK(aligned8(p) && (uint8_t *)p >= buf && (uint8_t *)p + i * 5u <= buf + size);
                    memset(p, 0x11, i * 5u);
                }
            }
            HZ(copse_arena_remaining);
            HZ_CHECK(copse_arena_remaining(&a) <= a.capacity);
            hz_guards();
        }
    /* limits: exactly full, one over, SIZE_MAX, rewinds to non-marks */
    copse_arena_init(&a, hz_buf(64, 0), 64);
    HZ(copse_arena_reserve_check);
    HZ_CHECK(copse_arena_reserve_check(&a, 64) == 1 && copse_arena_reserve_check(&a, 65) == 0 && a.needed == 72u);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(&a, SIZE_MAX) == NULL && a.needed == SIZE_MAX);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(&a, SIZE_MAX - 6u) == NULL);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(&a, 64) != NULL && copse_arena_remaining(&a) == 0u);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(&a, 1) == NULL);
    HZ(copse_arena_alloc);
    HZ_CHECK(copse_arena_alloc(&a, 0) == NULL || aligned8(copse_arena_alloc(&a, 0)));
    HZ(copse_arena_mark);
    HZ_CHECK(copse_arena_mark(&a) == 64u);
    for (i = 0; i < 4u; i++) {
        static const size_t marks[4] = {65u, 3u, SIZE_MAX, 7u};
        HZ(copse_arena_rewind);
        copse_arena_rewind(&a, marks[i]);
        HZ_CHECK(a.used == 64u);
    }
    HZ(copse_arena_rewind);
    copse_arena_rewind(&a, 8u);
    HZ_CHECK(a.used == 8u);
    hz_guards();
    /* a size past the end of the address space */
    HZ(copse_arena_init);
    copse_arena_init(&a, hz_buf(16, 3), SIZE_MAX);
    HZ_CHECK(a.base != NULL && a.capacity <= (size_t)(UINTPTR_MAX - (uintptr_t)a.base));
    HZ(copse_arena_init);
    copse_arena_init(&a, NULL, 100);
    HZ_CHECK(a.base == NULL && a.capacity == 0u && copse_arena_alloc(&a, 0) == NULL);
    hz_guards();
}

/* ---- blob.h --------------------------------------------------------------------------------- */

static void blob_cases(const hz_fix *f)
{
    const void *blobs[6];
    size_t sizes[6], len;
    copse_blob_info info;
    unsigned b, mis;
    blobs[0] = f->blob_bvh, sizes[0] = f->n_bvh;
    blobs[1] = f->blob_oct, sizes[1] = f->n_oct;
    blobs[2] = f->blob_loose, sizes[2] = f->n_loose;
    blobs[3] = f->blob_bsp2, sizes[3] = f->n_bsp2;
    blobs[4] = f->blob_bsp3, sizes[4] = f->n_bsp3;
    blobs[5] = f->blob_robot, sizes[5] = f->n_robot;
    /* crc32: NULL with length 0, misaligned data, chaining */
    HZ(copse_crc32);
    HZ_CHECK(copse_crc32(0, NULL, 0) == 0u);
    HZ(copse_crc32);
    HZ_CHECK(copse_crc32(0x12345678u, NULL, 0) == 0x12345678u);
    for (mis = 0; mis < 4u; mis++) {
        uint8_t *p = (uint8_t *)hz_buf(9, mis);
        memcpy(p, "123456789", 9);
        HZ(copse_crc32);
        HZ_CHECK(copse_crc32(0, p, 9) == 0xCBF43926u); /* the CRC-32 check value */
        HZ(copse_crc32);
        HZ_CHECK(copse_crc32(copse_crc32(0, p, 4), p + 4, 5) == 0xCBF43926u);
    }
    hz_guards();
    /* blob_read: NULL, every length short of the blob, misaligned copies, any bytes */
    HZ(copse_blob_read);
    HZ_IS(copse_blob_read(NULL, 100, &info), COPSE_ERR_NULL);
    HZ(copse_blob_read);
    HZ_IS(copse_blob_read(blobs[0], sizes[0], NULL), COPSE_ERR_NULL);
    for (b = 0; b < 6u; b++) {
        HZ(copse_blob_read);
        HZ_IS(copse_blob_read(blobs[b], sizes[b], &info), COPSE_OK);
        for (len = 0; len < sizes[b]; len += len < 100u ? 1u : 37u) {
            copse_status st;
            HZ(copse_blob_read);
            memset(&info, 0x5A, sizeof info);
            st = copse_blob_read(blobs[b], len, &info);
            HZ_CHECK(st != COPSE_OK);
            HZ_CHECK(info.kind == 0u && info.total_bytes == 0u && info.section_count == 0u);
        }
        for (mis = 1; mis < 4u; mis++) {
            uint8_t *p = (uint8_t *)hz_buf(sizes[b], mis);
            memcpy(p, blobs[b], sizes[b]);
            HZ(copse_blob_read);
            HZ_IS(copse_blob_read(p, sizes[b], &info), COPSE_ERR_ALIGN);
        }
        {
            unsigned g;
            for (g = 0; g < HZ_NGARBAGE; g++) {
                uint8_t *p = (uint8_t *)hz_buf(sizes[b], 0);
                copse_status st;
                hz_garbage(p, sizes[b], g);
                HZ(copse_blob_read);
                st = copse_blob_read(p, sizes[b], &info);
                HZ_CHECK(st != COPSE_OK);
            }
        }
        hz_guards();
    }
    /* blob_to_host: NULL, overlapping and misaligned outputs, short and exact capacities */
    for (b = 0; b < 6u; b++) {
        size_t n = sizes[b], written = 77;
        uint8_t *out = (uint8_t *)hz_buf(n, 0), *in = (uint8_t *)hz_buf(n + 8u, 0);
        memcpy(in, blobs[b], n);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(NULL, n, out, n, &written), COPSE_ERR_NULL);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(blobs[b], n, NULL, n, &written), COPSE_ERR_NULL);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(blobs[b], n, out, n - 1u, &written), COPSE_ERR_NOMEM);
        HZ_CHECK(written == n && out[0] == HZ_FILL);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(blobs[b], n, out, 0, NULL), COPSE_ERR_NOMEM);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(blobs[b], n, out, n, &written), COPSE_OK);
        HZ_CHECK(written == n && memcmp(out, blobs[b], n) == 0);
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(in, n, in + 4, n + 4u, &written), COPSE_ERR_PARAM); /* overlapping */
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(in, n, in, n, &written), COPSE_OK); /* in place */
        HZ(copse_blob_to_host);
        HZ_IS(copse_blob_to_host(blobs[b], n, (uint8_t *)hz_buf(n, 2), n, &written), COPSE_ERR_ALIGN);
        HZ(copse_blob_to_host);
        HZ_CHECK(copse_blob_to_host(blobs[b], n - 1u, out, n, &written) != COPSE_OK);
        hz_guards();
    }
}

/* ---- status.h ------------------------------------------------------------------------------- */

static void status_cases(const hz_fix *f)
{
    (void)f;
    int s;
    for (s = -40; s <= 8; s++) {
        const char *text;
        HZ(copse_status_str);
        text = copse_status_str((copse_status)s);
        HZ_CHECK(text != NULL && text[0] != '\0');
    }
    HZ(copse_status_str);
    HZ_CHECK(copse_status_str((copse_status)(-2147483647 - 1)) != NULL);
    HZ(copse_status_str);
    HZ_CHECK(copse_status_str((copse_status)2147483647) != NULL);
}

/* ---- the list makers ------------------------------------------------------------------------ */

static void list_cases(const hz_fix *f)
{
    (void)f;
    static const uint32_t caps[3] = {0u, 1u, 0xFFFFFFFFu};
    unsigned i;
    for (i = 0; i < 3u; i++) {
        copse_id_list il;
        copse_hit_list hl;
        copse_pair_list pl;
        copse_neighbor_list nl;
        HZ(copse_id_list_make);
        il = copse_id_list_make(NULL, caps[i]);
        HZ_CHECK(il.ids == NULL && il.capacity == caps[i] && il.count == 0u && !il.truncated);
        HZ(copse_hit_list_make);
        hl = copse_hit_list_make(NULL, caps[i]);
        HZ_CHECK(hl.hits == NULL && hl.capacity == caps[i] && hl.count == 0u && !hl.truncated);
        HZ(copse_pair_list_make);
        pl = copse_pair_list_make(NULL, caps[i]);
        HZ_CHECK(pl.pairs == NULL && pl.capacity == caps[i] && pl.count == 0u && !pl.truncated);
        HZ(copse_neighbor_list_make);
        nl = copse_neighbor_list_make(NULL, caps[i]);
        HZ_CHECK(nl.items == NULL && nl.capacity == caps[i] && nl.count == 0u);
    }
}

HZ_TEST("core/arena", arena_cases)
HZ_TEST("core/blob", blob_cases)
HZ_TEST("core/status", status_cases)
HZ_TEST("core/lists", list_cases)

void hz_core(void)
{
    HZ_RUN("core/arena", arena_cases);
    HZ_RUN("core/blob", blob_cases);
    HZ_RUN("core/status", status_cases);
    HZ_RUN("core/lists", list_cases);
}

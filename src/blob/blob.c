/* SPDX-License-Identifier: MIT */
/* The blob container: CRC-32, header and section table (docs/format.md). */
#include "blob_internal.h"

/* CRC-32 (zlib) a nibble at a time: a 64-byte const table instead of 1 KiB. */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu
};

uint32_t copse_crc32(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = (const uint8_t *)data;
    size_t i;
    if (p == NULL)
        return crc;
    crc = ~crc;
    for (i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ crc_nibble[crc & 15u];
        crc = (crc >> 4) ^ crc_nibble[crc & 15u];
    }
    return ~crc;
}

static bool host_big_endian(void)
{
    const uint32_t one = 1u;
    uint8_t b[4];
    __builtin_memcpy(b, &one, sizeof b);
    return b[0] == 0u;
}

static bool host_float_ieee(void)
{
    const float f = 1.0f;
    uint32_t bits;
    __builtin_memcpy(&bits, &f, sizeof bits);
    return sizeof(float) == 4u && bits == 0x3F800000u;
}

static uint32_t table_end(uint32_t count)
{
    return COPSE_BLOB_HEADER_BYTES + count * COPSE_BLOB_SECTION_ENTRY_BYTES;
}

static uint64_t align_up(uint64_t v)
{
    return (v + (COPSE_BLOB_SECTION_ALIGN - 1u)) & ~(uint64_t)(COPSE_BLOB_SECTION_ALIGN - 1u);
}

uint32_t copse__blob_layout(uint32_t count, const size_t *sizes, uint32_t *offsets)
{
    uint64_t at = table_end(count);
    uint32_t s;
    for (s = 0; s < count; s++) {
        at = align_up(at);
        if ((uint64_t)sizes[s] > 0xFFFFFFFFu - at)
            return 0;
        offsets[s] = (uint32_t)at;
        at += sizes[s];
    }
    return (uint32_t)at;
}

void copse__blob_write_header(uint8_t *out, uint32_t kind, uint32_t flags, uint32_t total, uint32_t count,
                       const uint32_t *ids, const uint32_t *offsets, const size_t *sizes,
                       const uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES], const float bounds[6])
{
    uint32_t s;
    __builtin_memset(out, 0, total);
    out[0] = COPSE_BLOB_MAGIC_0;
    out[1] = COPSE_BLOB_MAGIC_1;
    out[2] = COPSE_BLOB_MAGIC_2;
    out[3] = COPSE_BLOB_MAGIC_3;
    blob_put_u16(out + BLOB_OFF_VERSION, COPSE_BLOB_VERSION);
    blob_put_u16(out + BLOB_OFF_KIND, kind);
    blob_put_u32(out + BLOB_OFF_ORDER, COPSE_BLOB_BYTE_ORDER);
    blob_put_u32(out + BLOB_OFF_TOTAL, total);
    blob_put_u32(out + BLOB_OFF_FLAGS, flags);
    blob_put_u16(out + BLOB_OFF_HEADER_BYTES, COPSE_BLOB_HEADER_BYTES);
    blob_put_u16(out + BLOB_OFF_SECTION_COUNT, count);
    __builtin_memcpy(out + BLOB_OFF_TREE, tree, COPSE_BLOB_TREE_INFO_BYTES);
    for (s = 0; s < 6u; s++)
        blob_put_f32(out + BLOB_OFF_BOUNDS + 4u * s, bounds[s]);
    for (s = 0; s < count; s++) {
        uint8_t *e = out + COPSE_BLOB_HEADER_BYTES + s * COPSE_BLOB_SECTION_ENTRY_BYTES;
        blob_put_u32(e, ids[s]);
        blob_put_u32(e + 4, offsets[s]);
        blob_put_u32(e + 8, (uint32_t)sizes[s]);
    }
}

/* The CRC of blob[0, total) with the CRC field (offset 12..15) read as zero. */
static uint32_t blob_crc(const uint8_t *blob, uint32_t total)
{
    static const uint8_t zero[4] = { 0, 0, 0, 0 };
    uint32_t crc = copse_crc32(0u, blob, BLOB_OFF_CRC);
    crc = copse_crc32(crc, zero, sizeof zero);
    return copse_crc32(crc, blob + BLOB_OFF_CRC + 4u, total - (BLOB_OFF_CRC + 4u));
}

void copse__blob_seal(uint8_t *out, uint32_t total)
{
    blob_put_u32(out + BLOB_OFF_CRC, blob_crc(out, total));
}

static bool all_zero(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (p[i] != 0u)
            return false;
    return true;
}

static copse_status read_header(const uint8_t *b, size_t len, copse_blob_info *info)
{
    uint32_t s, count, total, at;
    if (len < COPSE_BLOB_HEADER_BYTES)
        return COPSE_ERR_BLOB_TRUNCATED;
    if (b[0] != COPSE_BLOB_MAGIC_0 || b[1] != COPSE_BLOB_MAGIC_1 || b[2] != COPSE_BLOB_MAGIC_2 ||
        b[3] != COPSE_BLOB_MAGIC_3)
        return COPSE_ERR_BLOB_MAGIC;
    /* the marker in the order of the section words: little endian as saved, big endian after
     * copse_blob_to_host on a big-endian host; the header itself is always little endian */
    if (blob_get_u32(b + BLOB_OFF_ORDER) == COPSE_BLOB_BYTE_ORDER)
        info->big_endian = 0u;
    else if (blob_get_u32(b + BLOB_OFF_ORDER) == BLOB_BYTE_ORDER_SWAPPED)
        info->big_endian = 1u;
    else
        return COPSE_ERR_BLOB_BYTE_ORDER;
    info->version = blob_get_u16(b + BLOB_OFF_VERSION);
    if (info->version != COPSE_BLOB_VERSION)
        return COPSE_ERR_BLOB_VERSION;
    info->kind = blob_get_u16(b + BLOB_OFF_KIND);
    info->flags = blob_get_u32(b + BLOB_OFF_FLAGS);
    info->total_bytes = total = blob_get_u32(b + BLOB_OFF_TOTAL);
    info->crc = blob_get_u32(b + BLOB_OFF_CRC);
    info->section_count = count = blob_get_u16(b + BLOB_OFF_SECTION_COUNT);
    if (blob_get_u16(b + BLOB_OFF_HEADER_BYTES) != COPSE_BLOB_HEADER_BYTES || count == 0 ||
        count > COPSE_BLOB_MAX_SECTIONS || !all_zero(b + BLOB_OFF_RESERVED0, 4) ||
        !all_zero(b + BLOB_OFF_RESERVED1, COPSE_BLOB_HEADER_BYTES - BLOB_OFF_RESERVED1) ||
        total < table_end(count))
        return COPSE_ERR_BLOB_HEADER;
    if (total > len)
        return COPSE_ERR_BLOB_TRUNCATED;
    if (blob_crc(b, total) != info->crc)
        return COPSE_ERR_BLOB_CRC;
    __builtin_memcpy(info->tree, b + BLOB_OFF_TREE, COPSE_BLOB_TREE_INFO_BYTES);
    for (s = 0; s < 6u; s++)
        info->bounds[s] = blob_get_f32(b + BLOB_OFF_BOUNDS + 4u * s);
    /* Sections follow the table in order, each at the next multiple of 16 after zero padding,
     * the last ending the blob: every byte is accounted for and nothing overlaps. */
    at = table_end(count);
    for (s = 0; s < count; s++) {
        const uint8_t *e = b + COPSE_BLOB_HEADER_BYTES + s * COPSE_BLOB_SECTION_ENTRY_BYTES;
        copse_blob_section *sec = &info->sections[s];
        sec->id = blob_get_u32(e);
        sec->offset = blob_get_u32(e + 4);
        sec->size = blob_get_u32(e + 8);
        if (blob_get_u32(e + 12) != 0u || (uint64_t)sec->offset != align_up(at) || sec->offset > total ||
            sec->size > total - sec->offset || sec->size % 4u != 0u || !all_zero(b + at, sec->offset - at))
            return COPSE_ERR_BLOB_SECTION; /* the padding before a section is zero; words of 4 bytes */
        at = sec->offset + sec->size;
    }
    if (at != total)
        return COPSE_ERR_BLOB_SECTION;
    return COPSE_OK;
}

copse_status copse_blob_read(const void *blob, size_t len, copse_blob_info *info)
{
    copse_status st;
    if (info == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(info, 0, sizeof *info);
    if (blob == NULL)
        return COPSE_ERR_NULL;
    if (((uintptr_t)blob % COPSE_BLOB_ALIGN) != 0u)
        return COPSE_ERR_ALIGN;
    st = read_header((const uint8_t *)blob, len, info);
    if (st != COPSE_OK)
        __builtin_memset(info, 0, sizeof *info);
    return st;
}

copse_status copse__blob_read_in_place(const void *blob, size_t len, copse_blob_info *info)
{
    copse_status st = copse_blob_read(blob, len, info);
    if (st == COPSE_OK && (!host_float_ieee() || (info->big_endian != 0u) != host_big_endian())) {
        __builtin_memset(info, 0, sizeof *info);
        return COPSE_ERR_HOST_ORDER;
    }
    return st;
}

static void swap_words(uint8_t *p, uint32_t size)
{
    uint32_t i;
    for (i = 0; i + 4u <= size; i += 4u) {
        uint8_t t = p[i];
        p[i] = p[i + 3u];
        p[i + 3u] = t;
        t = p[i + 1u];
        p[i + 1u] = p[i + 2u];
        p[i + 2u] = t;
    }
}

copse_status copse_blob_to_host(const void *blob, size_t len, void *out, size_t cap, size_t *written)
{
    const uint8_t *src = (const uint8_t *)blob;
    uint8_t *dst = (uint8_t *)out;
    copse_blob_info info;
    copse_status st;
    uint32_t s;
    if (written != NULL)
        *written = 0;
    if (out == NULL && cap > 0)
        return COPSE_ERR_NULL;
    st = copse_blob_read(blob, len, &info);
    if (st != COPSE_OK)
        return st;
    if (written != NULL)
        *written = info.total_bytes;
    if (cap < info.total_bytes)
        return COPSE_ERR_NOMEM;
    if (((uintptr_t)out % COPSE_BLOB_ALIGN) != 0u)
        return COPSE_ERR_ALIGN;
    if (dst != src && dst < src + info.total_bytes && src < dst + info.total_bytes)
        return COPSE_ERR_PARAM;
    if (!host_float_ieee())
        return COPSE_ERR_HOST_ORDER;
    if (dst != src)
        __builtin_memcpy(dst, src, info.total_bytes);
    if ((info.big_endian != 0u) == host_big_endian())
        return COPSE_OK; /* already this host's order: the copy is the blob */
    for (s = 0; s < info.section_count; s++)
        swap_words(dst + info.sections[s].offset, info.sections[s].size);
    blob_put_u32(dst + BLOB_OFF_ORDER, host_big_endian() ? BLOB_BYTE_ORDER_SWAPPED : COPSE_BLOB_BYTE_ORDER);
    copse__blob_seal(dst, info.total_bytes);
    return COPSE_OK;
}

/* ---- shared by the trees' save and view ------------------------------------------------------ */

static bool words_sizes(uint32_t count, const blob_words *secs, size_t *sizes)
{
    uint32_t s;
    for (s = 0; s < count; s++) {
        if (secs[s].bytes > 0xFFFFFFFFu - 256u)
            return false;
        sizes[s] = (size_t)secs[s].bytes;
    }
    return true;
}

uint32_t copse__blob_words_size(uint32_t count, const blob_words *secs)
{
    size_t sizes[COPSE_BLOB_MAX_SECTIONS];
    uint32_t offsets[COPSE_BLOB_MAX_SECTIONS];
    if (count == 0 || count > COPSE_BLOB_MAX_SECTIONS || !words_sizes(count, secs, sizes))
        return 0;
    return copse__blob_layout(count, sizes, offsets);
}

copse_status copse__blob_save_words(uint32_t kind, const uint8_t tree[COPSE_BLOB_TREE_INFO_BYTES], const float bounds[6],
                             uint32_t count, const blob_words *secs, void *buf, size_t cap, size_t *written)
{
    size_t sizes[COPSE_BLOB_MAX_SECTIONS];
    uint32_t offsets[COPSE_BLOB_MAX_SECTIONS], ids[COPSE_BLOB_MAX_SECTIONS], total, s;
    uint8_t *out = (uint8_t *)buf;
    if (count == 0 || count > COPSE_BLOB_MAX_SECTIONS || !words_sizes(count, secs, sizes))
        return COPSE_ERR_TOO_LARGE;
    total = copse__blob_layout(count, sizes, offsets);
    if (total == 0)
        return COPSE_ERR_TOO_LARGE;
    if (written != NULL)
        *written = total;
    if (cap < total)
        return COPSE_ERR_NOMEM;
    for (s = 0; s < count; s++)
        ids[s] = s + 1u;
    copse__blob_write_header(out, kind, 0u, total, count, ids, offsets, sizes, tree, bounds);
    for (s = 0; s < count; s++) {
        const uint8_t *src = (const uint8_t *)secs[s].data;
        size_t i;
        for (i = 0; i + 4u <= sizes[s]; i += 4u) {
            uint32_t v;
            __builtin_memcpy(&v, src + i, sizeof v); /* a host-order field, stored little endian */
            blob_put_u32(out + offsets[s] + i, v);
        }
    }
    copse__blob_seal(out, total);
    return COPSE_OK;
}

copse_status copse__blob_view_open(const void *blob, size_t len, uint32_t kind, copse_blob_info *info)
{
    copse_status st;
    if (blob == NULL)
        return COPSE_ERR_NULL;
    st = copse__blob_read_in_place(blob, len, info);
    if (st == COPSE_OK && info->kind != kind)
        st = COPSE_ERR_BLOB_KIND;
    return st;
}

copse_status copse__blob_view_sections(const copse_blob_info *info, uint32_t count, const uint64_t *sizes)
{
    uint32_t s;
    if (info->section_count != count)
        return COPSE_ERR_BLOB_SECTION;
    for (s = 0; s < count; s++)
        if (info->sections[s].id != s + 1u || info->sections[s].size != sizes[s])
            return COPSE_ERR_BLOB_SECTION;
    return COPSE_OK;
}

/* SPDX-License-Identifier: MIT */
/* Fuzz target: the blob container. copse_blob_read on any bytes either fails with a specific
 * status or describes sections that lie inside the blob; copse_blob_to_host succeeds exactly
 * when the container is valid, writes nothing past the blob's size, and its output reads as
 * valid, in this host's order, and converts to itself. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static bool container_status(copse_status st)
{
    return st == COPSE_ERR_BLOB_TRUNCATED || st == COPSE_ERR_BLOB_MAGIC || st == COPSE_ERR_BLOB_BYTE_ORDER ||
           st == COPSE_ERR_BLOB_VERSION || st == COPSE_ERR_BLOB_HEADER || st == COPSE_ERR_BLOB_CRC ||
           st == COPSE_ERR_BLOB_SECTION;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *blob = (uint8_t *)malloc(size + 1u), *out, *again;
    copse_blob_info info, conv;
    copse_status st, st_conv;
    size_t written = 0;
    uint32_t s;
    const uint32_t one = 1u;
    if (blob == NULL)
        return 0;
    memcpy(blob, data, size);
    st = copse_blob_read(blob, size, &info);
    FUZZ_ASSERT(st == COPSE_OK || container_status(st), "blob_read: %s", copse_status_str(st));
    if (st == COPSE_OK) {
        FUZZ_ASSERT(info.total_bytes <= size && info.section_count >= 1u && info.section_count <= COPSE_BLOB_MAX_SECTIONS,
                    "total %u of %u", (unsigned)info.total_bytes, (unsigned)size);
        for (s = 0; s < info.section_count; s++)
            FUZZ_ASSERT(info.sections[s].offset % 16u == 0u && info.sections[s].size % 4u == 0u &&
                            info.sections[s].offset <= info.total_bytes &&
                            info.sections[s].size <= info.total_bytes - info.sections[s].offset,
                        "section %u", (unsigned)s);
    }
    st_conv = copse_blob_to_host(blob, size, NULL, 0, &written);
    FUZZ_ASSERT(st == COPSE_OK ? st_conv == COPSE_ERR_NOMEM && written == info.total_bytes : st_conv == st,
                "to_host %s after read %s", copse_status_str(st_conv), copse_status_str(st));
    if (st != COPSE_OK) {
        free(blob);
        return 0;
    }
    out = (uint8_t *)malloc(info.total_bytes + 1u); /* exact: ASan sees a write past it */
    again = (uint8_t *)malloc(info.total_bytes + 1u);
    if (out != NULL && again != NULL) {
        FUZZ_ASSERT(copse_blob_to_host(blob, size, out, info.total_bytes, NULL) == COPSE_OK, "to_host failed");
        FUZZ_ASSERT(copse_blob_read(out, info.total_bytes, &conv) == COPSE_OK, "converted blob does not read");
        FUZZ_ASSERT(conv.big_endian == (*(const uint8_t *)&one == 0u), "converted blob not in host order");
        FUZZ_ASSERT(conv.kind == info.kind && conv.section_count == info.section_count &&
                        memcmp(conv.tree, info.tree, sizeof conv.tree) == 0,
                    "conversion changed the header");
        FUZZ_ASSERT(info.big_endian != conv.big_endian || memcmp(out, blob, info.total_bytes) == 0,
                    "a blob already in host order changed");
        FUZZ_ASSERT(copse_blob_to_host(out, info.total_bytes, again, info.total_bytes, NULL) == COPSE_OK &&
                        memcmp(out, again, info.total_bytes) == 0,
                    "converting twice differs");
        FUZZ_ASSERT(copse_blob_to_host(blob, size, blob, size, NULL) == COPSE_OK &&
                        memcmp(blob, out, info.total_bytes) == 0,
                    "in-place conversion differs");
    }
    free(again);
    free(out);
    free(blob);
    return 0;
}

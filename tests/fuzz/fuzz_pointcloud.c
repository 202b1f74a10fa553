/* SPDX-License-Identifier: MIT */
/* Fuzz target: the host's point-cloud readers (tools/lib/pointcloud_load.h), which read files
 * the tool is handed. Input: a byte choosing the reader (bit 0: PCD, else XYZ text), a byte
 * choosing the message buffer's size, then the file's bytes (an exact malloc, not
 * NUL-terminated, as a mapped file would be). A reader returns -1 with no points and a
 * NUL-terminated message naming the file within the buffer, or 0 with finite points, no more
 * than the bytes could hold (every point takes at least 3 bytes in either format). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/pointcloud_load.h"
#include "fuzz.h"

static const char k_name[] = "fuzz.in";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const bool pcd = size > 0u && (data[0] & 1u) != 0u;
    const size_t err_cap = size > 1u && data[1] < 128u ? 1u + data[1] : 256u;
    const size_t len = size > 2u ? size - 2u : 0u;
    uint8_t *file = fuzz_blob_copy(data + (size - len), len);
    char *err = (char *)malloc(err_cap);
    host_points pts;
    uint32_t i;
    int rc;
    if (file == NULL || err == NULL) {
        free(file);
        free(err);
        return 0;
    }
    memset(err, 'x', err_cap);
    rc = pcd ? host_points_read_pcd(file, len, k_name, &pts, err, err_cap)
             : host_points_read_xyz(file, len, k_name, &pts, err, err_cap);
    FUZZ_ASSERT(rc == 0 || rc == -1, "reader returned %d", rc);
    if (rc != 0) {
        const size_t shown = fuzz_text_len(err, err_cap);
        FUZZ_ASSERT(pts.xyz == NULL && pts.count == 0, "failed read left %u points", (unsigned)pts.count);
        FUZZ_ASSERT(shown < err_cap, "message not NUL-terminated within %zu bytes", err_cap);
        FUZZ_ASSERT(err_cap == 1u || (shown > 0u && strncmp(err, k_name, shown < sizeof k_name - 1u ? shown : sizeof k_name - 1u) == 0),
                    "message does not name the file: \"%s\"", err);
    } else {
        FUZZ_ASSERT(pts.count <= HOST_POINTS_MAX && (size_t)pts.count * 3u <= len && (pts.count == 0 || pts.xyz != NULL),
                    "%u points from %zu bytes", (unsigned)pts.count, len);
        for (i = 0; i < 3u * pts.count; i++)
            FUZZ_ASSERT(isfinite(pts.xyz[i]), "coordinate %u of %u points is %g", (unsigned)i, (unsigned)pts.count,
                        (double)pts.xyz[i]);
    }
    host_points_free(&pts);
    free(err);
    free(file);
    return 0;
}

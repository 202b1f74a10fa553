/* SPDX-License-Identifier: MIT */
/*
 * Host-side point-cloud reading for the tool, tests and fuzz targets: XYZ text (one point a
 * line, x y z and optional further columns) and PCD (the Point Cloud Library's format, DATA
 * ascii or binary; binary_compressed is refused). The core never sees this.
 *
 * Every reader takes a memory buffer (not NUL-terminated) and a name used in messages, so a
 * fuzzer can feed it bytes; host_points_load reads a file and picks the reader by extension.
 * On failure the functions return -1, leave `out` empty and write one line to err naming the
 * file and the problem: "scan.xyz:12: non-finite coordinate", "a.pcd: SIZE has 2 entries,
 * FIELDS has 3", "a.pcd: short binary data: 36 bytes for 4 points of 12 bytes".
 */
#ifndef COPSE_POINTCLOUD_LOAD_H
#define COPSE_POINTCLOUD_LOAD_H

#include <stddef.h>
#include <stdint.h>

#define HOST_POINTS_MAX 0x40000000u /* points per cloud: what the trees can index */

typedef struct host_points {
    float *xyz;     /* x, y, z per point, packed */
    uint32_t count;
} host_points;

int host_points_read_xyz(const void *buf, size_t len, const char *name, host_points *out, char *err,
                         size_t err_cap);
int host_points_read_pcd(const void *buf, size_t len, const char *name, host_points *out, char *err,
                         size_t err_cap);

/* By extension: .pcd is PCD, anything else XYZ text. */
int host_points_load(const char *path, host_points *out, char *err, size_t err_cap);

/* Whether a path names a point cloud (.xyz, .pcd, .pts, .txt) rather than a mesh. */
int host_points_is_cloud_path(const char *path);

/* Whether path ends with suffix (lower case, compared ignoring ASCII case). */
int host_path_has_suffix(const char *path, const char *suffix);

void host_points_free(host_points *points);

#endif

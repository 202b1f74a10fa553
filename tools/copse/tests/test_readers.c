/* SPDX-License-Identifier: MIT */
/*
 * The point-cloud readers (tools/lib/pointcloud_load.h): XYZ and PCD files written here into
 * DIR, good and malformed, read from the file and from an exact-length buffer (no terminator,
 * so ASan sees any read past it); every error message checked. With DATA, the real scan
 * <DATA>/pointclouds/octomap-scan.xyz: its point count against its own line count, and a
 * round trip through binary and ASCII PCD, bit for bit.
 *
 *   test_readers DIR [DATA]     prints "ok   ..." / "FAIL ..." lines and "N passed, M failed"
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pointcloud_load.h"

static unsigned g_pass, g_fail;
static char g_dir[512];

static void verdict(int ok, const char *name, const char *detail)
{
    if (ok) {
        g_pass++;
        printf("ok   readers: %s\n", name);
    } else {
        g_fail++;
        printf("FAIL readers: %s: %s\n", name, detail);
    }
}

static const char *path_of(const char *file)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", g_dir, file);
    return path;
}

static void write_bytes(const char *file, const void *data, size_t len)
{
    FILE *f = fopen(path_of(file), "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "cannot write %s\n", path_of(file));
        exit(1);
    }
    fclose(f);
}

static int read_any(const char *file, const void *data, size_t len, host_points *pts, char *err, size_t cap,
                    int from_buffer)
{
    int pcd = strstr(file, ".pcd") != NULL;
    if (!from_buffer)
        return host_points_load(path_of(file), pts, err, cap);
    return pcd ? host_points_read_pcd(data, len, path_of(file), pts, err, cap)
               : host_points_read_xyz(data, len, path_of(file), pts, err, cap);
}

/* Writes the file, reads it from disk and from an exact-size heap copy; both must give
 * `expect_error` (a message ending, after the path) or, when NULL, `count` points equal to
 * expect_xyz (when given). */
static void check_case(const char *name, const char *file, const void *data, size_t len, const char *expect_error,
                       uint32_t count, const float *expect_xyz)
{
    int way;
    write_bytes(file, data, len);
    for (way = 0; way < 2; way++) {
        char err[400], label[200], detail[1200], want[700];
        void *copy = malloc(len > 0 ? len : 1);
        host_points pts;
        int rc;
        memcpy(copy, data, len);
        err[0] = '\0';
        rc = read_any(file, copy, len, &pts, err, sizeof err, way);
        free(copy);
        snprintf(label, sizeof label, "%s (%s)", name, way ? "buffer" : "file");
        if (expect_error != NULL) {
            snprintf(want, sizeof want, "%s%s", path_of(file), expect_error);
            snprintf(detail, sizeof detail, "got rc %d \"%s\", want \"%s\"", rc, err, want);
            verdict(rc == -1 && strcmp(err, want) == 0 && pts.xyz == NULL && pts.count == 0, label, detail);
        } else {
            snprintf(detail, sizeof detail, "rc %d \"%s\", %u points, want %u", rc, err, (unsigned)pts.count,
                     (unsigned)count);
            verdict(rc == 0 && pts.count == count &&
                        (expect_xyz == NULL || memcmp(pts.xyz, expect_xyz, sizeof(float) * 3u * count) == 0),
                    label, detail);
        }
        host_points_free(&pts);
    }
}

static void check_text(const char *name, const char *file, const char *text, const char *expect_error,
                       uint32_t count, const float *expect_xyz)
{
    check_case(name, file, text, strlen(text), expect_error, count, expect_xyz);
}

/* A PCD header, then binary xyz floats plus a 4-byte rgb of each point. */
static size_t binary_pcd(unsigned char *out, const char *header, const float *xyz, unsigned n)
{
    size_t at = strlen(header);
    unsigned i;
    memcpy(out, header, at);
    for (i = 0; i < n; i++) {
        uint32_t rgb = 0x00ff8000u + i;
        memcpy(out + at, xyz + 3u * i, 12);
        memcpy(out + at + 12, &rgb, 4);
        at += 16;
    }
    return at;
}

static void xyz_cases(void)
{
    static const float three[9] = {1, 2, 3, 4, 5, 6, -1000.0f, 0.5f, 0};
    check_text("xyz: comments, blank lines, extra column, CRLF, no final newline", "good.xyz",
               "# a scan\n1 2 3\n\n4 5 6 7\r\n  -1e3\t.5 0", NULL, 3, three);
}

#define PCD_ASCII_HEAD "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z intensity\nSIZE 4 4 4 4\nTYPE F F F F\nCOUNT 1 1 1 1\n"
#define PCD_BIN_HEAD "VERSION 0.7\nFIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\nWIDTH 4\nHEIGHT 1\n" \
                     "VIEWPOINT 0 0 0 1 0 0 0\nPOINTS 4\nDATA binary\n"
#define XYZ_F "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\n" /* the shortest PCD header start */

static void pcd_cases(void)
{
    static const float three[9] = {1, 2, 3, 4, 5, 6, 0.25f, -8, 9};
    static const float four[12] = {0.1f, 0.2f, 0.3f, -1, -2, -3, 1e-20f, 3e30f, 0, 7, 8, 9};
    static const uint32_t quiet_nan = 0x7fc00000u;
    unsigned char bin[1024];
    size_t len;
    float bad[12];
    check_text("pcd ascii: extra field", "good.pcd",
               PCD_ASCII_HEAD "WIDTH 3\nHEIGHT 1\nPOINTS 3\nDATA ascii\n1 2 3 10\n4 5 6 11\n0.25 -8 9 12\n", NULL, 3,
               three);
    check_text("pcd ascii: doubles and counts", "wide.pcd",
               "FIELDS normal x y z\nSIZE 4 8 8 8\nTYPE F F F F\nCOUNT 3 1 1 1\nWIDTH 1\nDATA ascii\n0 0 1 1 2 3\n",
               NULL, 1, three);
    len = binary_pcd(bin, PCD_BIN_HEAD, four, 4);
    check_case("pcd binary: rgb after xyz", "good-bin.pcd", bin, len, NULL, 4, four);
    check_case("pcd binary: cut short", "cut.pcd", bin, len - 4,
               ": short binary data: 60 bytes for 4 points of 16 bytes", 0, NULL);
    memcpy(bad, four, sizeof bad);
    memcpy(&bad[7], &quiet_nan, 4); /* point 2's y */
    len = binary_pcd(bin, PCD_BIN_HEAD, bad, 4);
    check_case("pcd binary: NaN", "nan-bin.pcd", bin, len, ": point 2: non-finite coordinate", 0, NULL);
}

/* Malformed files: each must fail with this message after its path. */
typedef struct bad_case { const char *name, *file, *text, *error; } bad_case;

static const bad_case bad_cases[] = {
    {"xyz: NaN", "nan.xyz", "1 2 3\n4 nan 6\n", ":2: non-finite coordinate (nan)"},
    {"xyz: beyond float", "huge.xyz", "1e39 0 0\n", ":1: non-finite coordinate (1e39)"},
    {"xyz: infinity", "inf.xyz", "0 0 0\n0 0 0\n0 -inf 0\n", ":3: non-finite coordinate (-inf)"},
    {"xyz: two columns", "short.xyz", "1 2 3\n1 2\n", ":2: expected x y z, found fewer than 3 columns"},
    {"xyz: not a number", "word.xyz", "1 2 abc\n", ":1: expected x y z, found a column that is not a number"},
    {"xyz: empty", "empty.xyz", "", ": no points"},
    {"xyz: only comments", "comments.xyz", "# nothing\n\n", ": no points"},
    {"pcd: SIZE count", "size.pcd", "FIELDS x y z\nSIZE 4 4\nTYPE F F F\nWIDTH 1\nDATA ascii\n1 2 3\n",
     ":5: SIZE has 2 entries, FIELDS has 3"},
    {"pcd: no z", "noz.pcd", "FIELDS x y w\nSIZE 4 4 4\nTYPE F F F\nWIDTH 1\nDATA ascii\n1 2 3\n",
     ":5: no z field in FIELDS"},
    {"pcd: POINTS vs WIDTH x HEIGHT", "points.pcd", XYZ_F "WIDTH 4\nHEIGHT 1\nPOINTS 5\nDATA ascii\n",
     ":7: POINTS 5 is not WIDTH x HEIGHT (4 x 1)"},
    {"pcd: compressed", "lzf.pcd", XYZ_F "WIDTH 1\nDATA binary_compressed\n",
     ":5: DATA binary_compressed is not supported (ascii or binary)"},
    {"pcd: bad TYPE", "type.pcd", "FIELDS x y z\nSIZE 4 4 4\nTYPE F F X\nWIDTH 1\nDATA ascii\n1 2 3\n",
     ":5: field z: TYPE X with SIZE 4 is not a PCD type"},
    {"pcd: integer x", "intx.pcd", "FIELDS x y z\nSIZE 4 4 4\nTYPE I F F\nWIDTH 1\nDATA ascii\n1 2 3\n",
     ":5: field x must be TYPE F with COUNT 1"},
    {"pcd: unknown field", "foo.pcd", "FIELDS x y z\nFOO 1\n", ":2: unknown header field 'FOO'"},
    {"pcd: bad WIDTH", "width.pcd", "FIELDS x y z\nWIDTH -3\n", ":2: WIDTH: bad value '-3'"},
    {"pcd: no DATA", "nodata.pcd", XYZ_F "WIDTH 1\n", ":4: no DATA line: not a PCD file or the header is cut short"},
    {"pcd ascii: NaN", "nan.pcd", XYZ_F "WIDTH 2\nDATA ascii\n1 2 3\nnan 2 3\n", ":7: non-finite coordinate (nan)"},
    {"pcd ascii: missing lines", "few.pcd", XYZ_F "WIDTH 3\nDATA ascii\n1 2 3\n", ": 3 points declared, 1 data lines"},
    {"pcd ascii: too many lines", "many.pcd", XYZ_F "WIDTH 1\nDATA ascii\n1 2 3\n4 5 6\n",
     ":7: more data lines than POINTS 1"},
    {"pcd ascii: short line", "cols.pcd", XYZ_F "WIDTH 1\nDATA ascii\n1 2\n", ":6: 2 values, the header declares 3"},
};

static void bad_file_cases(void)
{
    static char long_line[5000];
    size_t i;
    for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
        check_text(bad_cases[i].name, bad_cases[i].file, bad_cases[i].text, bad_cases[i].error, 0, NULL);
    memset(long_line, '1', sizeof long_line - 1u);
    check_text("xyz: a line of 4999 characters", "long.xyz", long_line, ":1: line longer than 4096 characters", 0, NULL);
}

static void missing_file(void)
{
    host_points pts;
    char err[400], want[700];
    int rc = host_points_load(path_of("does-not-exist.xyz"), &pts, err, sizeof err);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path_of("does-not-exist.xyz"));
    verdict(rc == -1 && strcmp(err, want) == 0, "missing file", err);
}

/* The real scan: its count against its own lines, then through binary and ASCII PCD. */
static void real_scan(const char *data)
{
    char path[700], err[400], detail[600], *line = NULL;
    host_points pts, back;
    unsigned long lines = 0;
    size_t cap = 0, at, i;
    unsigned char *pcd;
    FILE *f;
    snprintf(path, sizeof path, "%s/pointclouds/octomap-scan.xyz", data);
    f = fopen(path, "r");
    if (f == NULL) {
        printf("skip readers: %s not found: the real-scan round trip did not run\n", path);
        return;
    }
    while (getline(&line, &cap, f) > 0)
        lines += line[0] != '\n' && line[0] != '#';
    free(line);
    fclose(f);
    if (host_points_load(path, &pts, err, sizeof err) != 0) {
        verdict(0, "octomap-scan.xyz", err);
        return;
    }
    snprintf(detail, sizeof detail, "%u points, the file has %lu lines", (unsigned)pts.count, lines);
    verdict(pts.count == lines && pts.count == 88206u, "octomap-scan.xyz: every line a point", detail);
    pcd = (unsigned char *)malloc(256 + (size_t)pts.count * 12u);
    at = (size_t)sprintf((char *)pcd, "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nWIDTH %u\nDATA binary\n",
                         (unsigned)pts.count);
    memcpy(pcd + at, pts.xyz, (size_t)pts.count * 12u);
    check_case("octomap-scan as binary PCD, bit for bit", "scan-bin.pcd", pcd, at + (size_t)pts.count * 12u, NULL,
               pts.count, pts.xyz);
    free(pcd);
    f = fopen(path_of("scan-ascii.pcd"), "w");
    fprintf(f, "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nWIDTH %u\nDATA ascii\n", (unsigned)pts.count);
    for (i = 0; i < pts.count; i++)
        fprintf(f, "%.9g %.9g %.9g\n", (double)pts.xyz[3 * i], (double)pts.xyz[3 * i + 1], (double)pts.xyz[3 * i + 2]);
    fclose(f);
    if (host_points_load(path_of("scan-ascii.pcd"), &back, err, sizeof err) != 0) {
        verdict(0, "octomap-scan as ASCII PCD", err);
    } else {
        verdict(back.count == pts.count && memcmp(back.xyz, pts.xyz, (size_t)pts.count * 12u) == 0,
                "octomap-scan as ASCII PCD (9 digits), bit for bit", "points differ");
        host_points_free(&back);
    }
    host_points_free(&pts);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: test_readers DIR [DATA]\n");
        return 2;
    }
    snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
    xyz_cases();
    pcd_cases();
    bad_file_cases();
    missing_file();
    if (argc == 3)
        real_scan(argv[2]);
    printf("%u passed, %u failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}

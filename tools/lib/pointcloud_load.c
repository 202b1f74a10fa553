/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "pointcloud_load.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 4096u /* longer lines are refused: no reader needs them */
#define PCD_MAX_FIELDS 64u

/* ---- small helpers ---------------------------------------------------------------------------- */

static int fail(host_points *out, char *err, size_t err_cap, const char *fmt, ...)
{
    va_list ap;
    host_points_free(out);
    va_start(ap, fmt);
    vsnprintf(err, err_cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* Walks a buffer line by line; each line is copied NUL-terminated (the buffer need not be). */
typedef struct line_reader {
    const char *buf;
    size_t len, pos;
    unsigned long number; /* 1-based number of the line last read */
    char line[LINE_MAX_CHARS + 1u];
} line_reader;

/* 1 with a line, 0 at the end, -1 when the line is too long. */
static int next_line(line_reader *r)
{
    size_t start = r->pos, end;
    if (r->pos >= r->len)
        return 0;
    while (r->pos < r->len && r->buf[r->pos] != '\n')
        r->pos++;
    end = r->pos;
    if (r->pos < r->len)
        r->pos++; /* the '\n' */
    if (end > start && r->buf[end - 1u] == '\r')
        end--;
    r->number++;
    if (end - start > LINE_MAX_CHARS)
        return -1;
    memcpy(r->line, r->buf + start, end - start);
    r->line[end - start] = '\0';
    return 1;
}

static int blank_or_comment(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0' || *s == '#';
}

/* The next line that is neither blank nor a comment: 1, 0 at the end, -1 when too long. */
static int next_content_line(line_reader *r)
{
    int got;
    while ((got = next_line(r)) > 0 && blank_or_comment(r->line))
        ;
    return got;
}

static int line_too_long(host_points *out, char *err, size_t err_cap, const char *name, const line_reader *r)
{
    return fail(out, err, err_cap, "%s:%lu: line longer than %u characters", name, r->number, LINE_MAX_CHARS);
}

/* Splits s in place at blanks; returns the number of tokens (at most cap). */
static unsigned split(char *s, char **tok, unsigned cap)
{
    unsigned n = 0;
    char *save = NULL, *t;
    for (t = strtok_r(s, " \t", &save); t != NULL && n < cap; t = strtok_r(NULL, " \t", &save))
        tok[n++] = t;
    return n;
}

/* 1 for a whole token that is a number (finite or not), 0 otherwise. */
static int parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0';
}

static int finite_float(double v)
{
    return isfinite(v) && fabs(v) <= (double)3.40282347e38f;
}

/* Room for one more point; doubles the array. 0 when memory runs out. */
static int grow(host_points *out, uint32_t *cap)
{
    float *bigger;
    uint32_t want;
    if (out->count < *cap)
        return 1;
    want = *cap == 0 ? 1024u : *cap * 2u;
    bigger = (float *)realloc(out->xyz, (size_t)want * 3u * sizeof(float));
    if (bigger == NULL)
        return 0;
    out->xyz = bigger;
    *cap = want;
    return 1;
}

/* ---- XYZ text ----------------------------------------------------------------------------------- */

int host_points_read_xyz(const void *buf, size_t len, const char *name, host_points *out, char *err,
                         size_t err_cap)
{
    line_reader *r = (line_reader *)calloc(1, sizeof *r);
    uint32_t cap = 0;
    int got = 0, rc = 0;
    memset(out, 0, sizeof *out);
    if (r == NULL)
        return fail(out, err, err_cap, "%s: out of memory", name);
    r->buf = (const char *)buf;
    r->len = buf != NULL ? len : 0u;
    while (rc == 0 && (got = next_content_line(r)) > 0) {
        char *tok[4];
        double v[3];
        unsigned k, n;
        n = split(r->line, tok, 4);
        for (k = 0; rc == 0 && k < 3; k++)
            if (k >= n || !parse_number(tok[k], &v[k]))
                rc = fail(out, err, err_cap, "%s:%lu: expected x y z, found %s", name, r->number,
                          k >= n ? "fewer than 3 columns" : "a column that is not a number");
            else if (!finite_float(v[k]))
                rc = fail(out, err, err_cap, "%s:%lu: non-finite coordinate (%s)", name, r->number, tok[k]);
        if (rc == 0 && (out->count >= HOST_POINTS_MAX || !grow(out, &cap)))
            rc = fail(out, err, err_cap, "%s: more points than fit (%u read)", name, (unsigned)out->count);
        for (k = 0; rc == 0 && k < 3; k++)
            out->xyz[3u * out->count + k] = (float)v[k];
        out->count += rc == 0;
    }
    if (rc == 0 && got < 0)
        rc = line_too_long(out, err, err_cap, name, r);
    free(r);
    if (rc == 0 && out->count == 0)
        rc = fail(out, err, err_cap, "%s: no points", name);
    return rc;
}

/* ---- PCD ---------------------------------------------------------------------------------------- */

typedef struct pcd_header {
    unsigned fields, sizes, types, counts;
    char name[PCD_MAX_FIELDS][32];
    unsigned size[PCD_MAX_FIELDS], count[PCD_MAX_FIELDS];
    char type[PCD_MAX_FIELDS];
    unsigned long width, height, points;
    int have_width, have_points, binary;
    int column[3];      /* x, y, z: index of the field */
    size_t offset[3];   /* x, y, z: byte offset in a binary point */
    unsigned token[3];  /* x, y, z: token index in an ascii line */
    size_t stride;      /* bytes per binary point */
    unsigned tokens;    /* values per ascii line */
} pcd_header;

static int parse_ulong(const char *s, unsigned long *v)
{
    char *end;
    if (*s == '-' || *s == '+')
        return 0;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return end != s && *end == '\0' && errno == 0;
}

/* Checks what the header declared and locates x, y, z. NULL when fine, else the problem. */
static const char *pcd_layout(pcd_header *h, char *why, size_t why_cap)
{
    static const char *const axis[3] = {"x", "y", "z"};
    unsigned f, a;
    if (h->fields == 0)
        return "no FIELDS line before DATA";
    if (h->sizes != h->fields || h->types != h->fields || (h->counts != 0 && h->counts != h->fields)) {
        snprintf(why, why_cap, "%s has %u entries, FIELDS has %u",
                 h->sizes != h->fields ? "SIZE" : h->types != h->fields ? "TYPE" : "COUNT",
                 h->sizes != h->fields ? h->sizes : h->types != h->fields ? h->types : h->counts, h->fields);
        return why;
    }
    if (!h->have_width)
        return "no WIDTH line before DATA";
    if (!h->have_points)
        h->points = h->width * h->height;
    if (h->points != h->width * h->height) {
        snprintf(why, why_cap, "POINTS %lu is not WIDTH x HEIGHT (%lu x %lu)", h->points, h->width, h->height);
        return why;
    }
    if (h->points > HOST_POINTS_MAX) {
        snprintf(why, why_cap, "POINTS %lu is more than %u", h->points, HOST_POINTS_MAX);
        return why;
    }
    for (a = 0; a < 3; a++)
        h->column[a] = -1;
    h->stride = 0;
    h->tokens = 0;
    for (f = 0; f < h->fields; f++) {
        unsigned s = h->size[f];
        char t = h->type[f];
        if (h->counts == 0)
            h->count[f] = 1;
        if ((t != 'F' && t != 'I' && t != 'U') || (s != 1 && s != 2 && s != 4 && s != 8) || (t == 'F' && s < 4)) {
            snprintf(why, why_cap, "field %s: TYPE %c with SIZE %u is not a PCD type", h->name[f], t, s);
            return why;
        }
        if (h->count[f] == 0 || h->count[f] > 4096u) {
            snprintf(why, why_cap, "field %s: COUNT %u out of range", h->name[f], h->count[f]);
            return why;
        }
        for (a = 0; a < 3; a++)
            if (strcmp(h->name[f], axis[a]) == 0) {
                if (t != 'F' || h->count[f] != 1) {
                    snprintf(why, why_cap, "field %s must be TYPE F with COUNT 1", axis[a]);
                    return why;
                }
                h->column[a] = (int)f;
                h->offset[a] = h->stride;
                h->token[a] = h->tokens;
            }
        h->stride += (size_t)s * h->count[f];
        h->tokens += h->count[f];
    }
    for (a = 0; a < 3; a++)
        if (h->column[a] < 0) {
            snprintf(why, why_cap, "no %s field in FIELDS", axis[a]);
            return why;
        }
    return NULL;
}

/* Reads one header line (keyword and values) into h. NULL when fine, else the problem. */
static const char *pcd_header_line(pcd_header *h, char *line, int *data, char *why, size_t why_cap)
{
    char *tok[PCD_MAX_FIELDS + 1u];
    unsigned n = split(line, tok, PCD_MAX_FIELDS + 1u), i;
    unsigned long v;
    if (n == 0)
        return NULL;
    if (n > PCD_MAX_FIELDS) {
        snprintf(why, why_cap, "%s: more than %u entries", tok[0], PCD_MAX_FIELDS);
        return why;
    }
    if (strcmp(tok[0], "FIELDS") == 0) {
        for (i = 1; i < n; i++)
            snprintf(h->name[i - 1u], sizeof h->name[0], "%s", tok[i]);
        h->fields = n - 1u;
    } else if (strcmp(tok[0], "SIZE") == 0 || strcmp(tok[0], "COUNT") == 0) {
        unsigned *dst = tok[0][0] == 'S' ? h->size : h->count;
        for (i = 1; i < n; i++) {
            if (!parse_ulong(tok[i], &v) || v > 4096u) {
                snprintf(why, why_cap, "%s: bad value '%s'", tok[0], tok[i]);
                return why;
            }
            dst[i - 1u] = (unsigned)v;
        }
        *(tok[0][0] == 'S' ? &h->sizes : &h->counts) = n - 1u;
    } else if (strcmp(tok[0], "TYPE") == 0) {
        for (i = 1; i < n; i++)
            h->type[i - 1u] = tok[i][1] == '\0' ? tok[i][0] : '?';
        h->types = n - 1u;
    } else if (strcmp(tok[0], "WIDTH") == 0 || strcmp(tok[0], "HEIGHT") == 0 || strcmp(tok[0], "POINTS") == 0) {
        if (n != 2 || !parse_ulong(tok[1], &v) || v > HOST_POINTS_MAX) {
            snprintf(why, why_cap, "%s: bad value '%s'", tok[0], n > 1 ? tok[1] : "");
            return why;
        }
        if (tok[0][0] == 'W') {
            h->width = v;
            h->have_width = 1;
        } else if (tok[0][0] == 'H') {
            h->height = v;
        } else {
            h->points = v;
            h->have_points = 1;
        }
    } else if (strcmp(tok[0], "DATA") == 0) {
        if (n != 2 || (strcmp(tok[1], "ascii") != 0 && strcmp(tok[1], "binary") != 0)) {
            snprintf(why, why_cap, "DATA %s is not supported (ascii or binary)", n > 1 ? tok[1] : "(missing)");
            return why;
        }
        h->binary = tok[1][0] == 'b';
        *data = 1;
    } else if (strcmp(tok[0], "VERSION") != 0 && strcmp(tok[0], "VIEWPOINT") != 0) {
        snprintf(why, why_cap, "unknown header field '%s'", tok[0]);
        return why;
    }
    return NULL;
}

static double read_float_le(const unsigned char *p, unsigned size)
{
    if (size == 8) {
        double d;
        memcpy(&d, p, 8);
        return d;
    } else {
        float f;
        memcpy(&f, p, 4);
        return (double)f;
    }
}

int host_points_read_pcd(const void *buf, size_t len, const char *name, host_points *out, char *err,
                         size_t err_cap)
{
    line_reader *r = (line_reader *)calloc(1, sizeof *r);
    pcd_header *h = (pcd_header *)calloc(1, sizeof *h);
    char why[160];
    const char *problem = NULL;
    int data = 0, got = 0, rc;
    size_t have, room;
    memset(out, 0, sizeof *out);
    if (r == NULL || h == NULL) {
        free(r);
        free(h);
        return fail(out, err, err_cap, "%s: out of memory", name);
    }
    r->buf = (const char *)buf;
    r->len = buf != NULL ? len : 0u;
    h->height = 1;
    while (!data && problem == NULL && (got = next_content_line(r)) > 0)
        problem = pcd_header_line(h, r->line, &data, why, sizeof why);
    if (problem == NULL && got < 0)
        problem = "header line too long";
    if (problem == NULL && !data)
        problem = "no DATA line: not a PCD file or the header is cut short";
    if (problem == NULL)
        problem = pcd_layout(h, why, sizeof why);
    /* Room for no more points than the data can hold (a binary point is `stride` bytes, an ascii
     * line of n values at least 2n, the last one's newline aside): POINTS alone must not make
     * the reader allocate (fuzz_pointcloud: 150 bytes declaring 1e9 points asked for 12 GB). */
    have = problem == NULL ? r->len - r->pos : 0u;
    room = h->binary ? (h->stride > 0u ? have / h->stride : 0u) : (have + 1u) / (2u * (h->tokens > 0u ? h->tokens : 1u));
    room = room < h->points ? room : h->points;
    if (problem != NULL) {
        rc = fail(out, err, err_cap, "%s:%lu: %s", name, r->number, problem);
    } else if (h->binary && room < h->points) {
        rc = fail(out, err, err_cap, "%s: short binary data: %lu bytes for %lu points of %lu bytes", name,
                  (unsigned long)have, h->points, (unsigned long)h->stride);
    } else if (room > 0 && (out->xyz = (float *)malloc(room * 3u * sizeof(float))) == NULL) {
        rc = fail(out, err, err_cap, "%s: out of memory for %lu points", name, h->points);
    } else if (h->binary) {
        const unsigned char *p = (const unsigned char *)buf + r->pos;
        unsigned long i;
        unsigned a;
        rc = 0;
        for (i = 0; rc == 0 && i < h->points; i++)
            for (a = 0; rc == 0 && a < 3; a++) {
                double v = read_float_le(p + i * h->stride + h->offset[a], h->size[h->column[a]]);
                if (!finite_float(v))
                    rc = fail(out, err, err_cap, "%s: point %lu: non-finite coordinate", name, i);
                else
                    out->xyz[3u * i + a] = (float)v;
            }
        if (rc == 0)
            out->count = (uint32_t)h->points;
    } else {
        rc = 0;
        while (rc == 0 && (got = next_content_line(r)) > 0) {
            char *tok[PCD_MAX_FIELDS * 4u];
            unsigned n, a;
            if (out->count >= h->points) {
                rc = fail(out, err, err_cap, "%s:%lu: more data lines than POINTS %lu", name, r->number, h->points);
                break;
            }
            n = split(r->line, tok, PCD_MAX_FIELDS * 4u);
            if (n != h->tokens) {
                rc = fail(out, err, err_cap, "%s:%lu: %u values, the header declares %u", name, r->number, n,
                          h->tokens);
                break;
            }
            if (out->count >= room) { /* not reached: `room` counts the shortest full lines there can be */
                rc = fail(out, err, err_cap, "%s:%lu: more data lines than the bytes can hold", name, r->number);
                break;
            }
            for (a = 0; rc == 0 && a < 3; a++) {
                double v;
                if (!parse_number(tok[h->token[a]], &v))
                    rc = fail(out, err, err_cap, "%s:%lu: %s is not a number", name, r->number, tok[h->token[a]]);
                else if (!finite_float(v))
                    rc = fail(out, err, err_cap, "%s:%lu: non-finite coordinate (%s)", name, r->number,
                              tok[h->token[a]]);
                else
                    out->xyz[3u * out->count + a] = (float)v;
            }
            if (rc == 0)
                out->count++;
        }
        if (rc == 0 && got < 0)
            rc = line_too_long(out, err, err_cap, name, r);
        if (rc == 0 && out->count < h->points)
            rc = fail(out, err, err_cap, "%s: %lu points declared, %u data lines", name, h->points,
                      (unsigned)out->count);
    }
    free(r);
    free(h);
    if (rc == 0 && out->count == 0)
        rc = fail(out, err, err_cap, "%s: no points", name);
    return rc;
}

/* ---- files ---------------------------------------------------------------------------------------- */

int host_path_has_suffix(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix), i;
    if (n < k)
        return 0;
    for (i = 0; i < k; i++) {
        char c = path[n - k + i];
        if ((c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) != suffix[i])
            return 0;
    }
    return 1;
}

int host_points_is_cloud_path(const char *path)
{
    return host_path_has_suffix(path, ".xyz") || host_path_has_suffix(path, ".pcd") || host_path_has_suffix(path, ".pts") ||
           host_path_has_suffix(path, ".txt");
}

int host_points_load(const char *path, host_points *out, char *err, size_t err_cap)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    size_t len = 0, cap = 0, got;
    int rc;
    memset(out, 0, sizeof *out);
    if (f == NULL)
        return fail(out, err, err_cap, "%s: cannot open: %s", path, strerror(errno));
    do {
        if (len == cap) {
            char *bigger = (char *)realloc(data, cap = cap == 0 ? 65536u : cap * 2u);
            if (bigger == NULL) {
                free(data);
                fclose(f);
                return fail(out, err, err_cap, "%s: out of memory", path);
            }
            data = bigger;
        }
        got = fread(data + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) {
        free(data);
        fclose(f);
        return fail(out, err, err_cap, "%s: read error", path);
    }
    fclose(f);
    rc = host_path_has_suffix(path, ".pcd") ? host_points_read_pcd(data, len, path, out, err, err_cap)
                                  : host_points_read_xyz(data, len, path, out, err, err_cap);
    free(data);
    return rc;
}

void host_points_free(host_points *points)
{
    free(points->xyz);
    points->xyz = NULL;
    points->count = 0;
}

/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "tool.h"

#include "copse/blob.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void vmessage(const char *fmt, va_list ap)
{
    fputs("copse: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int tool_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    return TOOL_FAILED;
}

int tool_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    return TOOL_USAGE;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tool_progress(const tool_opts *opts, const char *fmt, ...)
{
    static double start = -1.0;
    va_list ap;
    if (start < 0.0)
        start = seconds_now();
    if (opts->quiet)
        return;
    fprintf(stderr, "copse: [%6.2f s] ", seconds_now() - start);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void *tool_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    void *data = NULL;
    long size;
    *len = 0;
    if (f == NULL) {
        tool_fail("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        tool_fail("%s: cannot read (not a regular file?)", path);
        return NULL;
    }
    /* 16-aligned, as flash would hold it; one spare byte so an empty file is not a NULL buffer */
    if (posix_memalign(&data, 16, (size_t)size + 1u) != 0) {
        fclose(f);
        tool_fail("%s: out of memory for %ld bytes", path, size);
        return NULL;
    }
    if (fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        fclose(f);
        tool_fail("%s: read error", path);
        return NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return data;
}

int tool_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return tool_fail("%s: cannot write: %s", path, strerror(errno));
    if (fwrite(data, 1, len, f) != len) {
        fclose(f);
        return tool_fail("%s: write error", path);
    }
    if (fclose(f) != 0)
        return tool_fail("%s: write error", path);
    return 0;
}

void tool_bounds_line(const void *blob, size_t len, unsigned dim, const uint8_t *axis)
{
    copse_blob_info info;
    unsigned a;
    if (copse_blob_read(blob, len, &info) != COPSE_OK)
        return;
    printf("bounds   ");
    for (a = 0; a < dim; a++)
        printf("%s %c %.9g to %.9g", a ? "," : "", "xyz"[axis != NULL ? axis[a] % 3u : a], (double)info.bounds[a],
               (double)info.bounds[3 + a]);
    printf("\n");
}

char tool_up(const tool_opts *opts)
{
    return opts->up != NULL ? opts->up[0] : 0;
}

int tool_parse_float(const char *word, float *v)
{
    char *end;
    double d = strtod(word, &end);
    if (end == word || *end != '\0' || !isfinite(d) || fabs(d) > 3.4e38)
        return 0;
    *v = (float)d;
    return 1;
}

int tool_viewed(const tool_opts *opts, copse_status st, const char *what)
{
    return st == COPSE_OK ? 0 : tool_fail("%s: not a valid %s: %s", opts->input, what, copse_status_str(st));
}

int tool_check_line(const tool_opts *opts, copse_status st)
{
    printf("check     %s\n", st == COPSE_OK ? "OK" : copse_status_str(st));
    return st == COPSE_OK ? 0 : tool_fail("%s: check: %s", opts->input, copse_status_str(st));
}

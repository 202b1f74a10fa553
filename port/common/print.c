/* SPDX-License-Identifier: MIT */
/*
 * A small printf for the port contract. Tests and the demo compare host output
 * with QEMU output character for character, so float digits must not depend on
 * the C library: they are produced here from IEEE doubles, which every target has.
 */
#include "port.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct sink {
    char *buf;
    size_t cap;
    size_t len;
} sink;

static void put_char(sink *s, char c)
{
    if (s->len + 1 < s->cap)
        s->buf[s->len] = c;
    s->len++;
}

static void put_str(sink *s, const char *str, int width, int left)
{
    int n = (int)strlen(str);
    int pad = width > n ? width - n : 0;
    if (!left)
        while (pad-- > 0)
            put_char(s, ' ');
    while (*str)
        put_char(s, *str++);
    if (left)
        while (pad-- > 0)
            put_char(s, ' ');
}

/* Unsigned to text in `base`; returns the start of the digits inside tmp. */
static char *utoa_base(uint64_t v, unsigned base, char *tmp_end)
{
    char *p = tmp_end;
    *--p = '\0';
    do {
        unsigned d = (unsigned)(v % base);
        *--p = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v != 0);
    return p;
}

/* x in [0, 1e9), prec <= 9: the rounded value fits a uint64 with room to spare. */
static void put_fixed(char *out, double x, int prec)
{
    static const double pow10[10] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
    double scaled = x * pow10[prec] + 0.5;
    uint64_t all = (uint64_t)scaled;
    uint64_t ip = all / (uint64_t)pow10[prec];
    uint64_t fp = all % (uint64_t)pow10[prec];
    char tmp[32];
    char *digits = utoa_base(ip, 10, tmp + sizeof tmp);
    size_t n = strlen(digits);
    memcpy(out, digits, n);
    if (prec > 0) {
        int i;
        out[n++] = '.';
        for (i = prec - 1; i >= 0; i--) {
            out[n + (size_t)i] = (char)('0' + fp % 10);
            fp /= 10;
        }
        n += (size_t)prec;
    }
    out[n] = '\0';
}

static void put_double(sink *s, double x, char conv, int prec, int width, int left)
{
    char text[48];
    char *p = text;
    if (prec < 0)
        prec = 6;
    if (prec > 9)
        prec = 9;
    if (x != x) {
        put_str(s, "nan", width, left);
        return;
    }
    if (x < 0) {
        *p++ = '-';
        x = -x;
    }
    if (x > 1.7976931348623157e308) {
        strcpy(p, "inf");
    } else if (conv == 'e' || (conv == 'g' && x != 0 && (x >= 1e9 || x < 1e-4)) || x >= 1e9) {
        int exp10 = 0;
        char digits[32];
        size_t n;
        while (x >= 10.0) {
            x /= 10.0;
            exp10++;
        }
        while (x != 0 && x < 1.0) {
            x *= 10.0;
            exp10--;
        }
        put_fixed(digits, x, prec);
        if (digits[0] == '1' && digits[1] == '0') { /* 9.99.. rounded up to 10.0 */
            put_fixed(digits, x / 10.0, prec);
            exp10++;
        }
        n = strlen(digits);
        memcpy(p, digits, n);
        p += n;
        *p++ = 'e';
        *p++ = exp10 < 0 ? '-' : '+';
        if (exp10 < 0)
            exp10 = -exp10;
        if (exp10 >= 100)
            *p++ = (char)('0' + (exp10 / 100) % 10);
        *p++ = (char)('0' + (exp10 / 10) % 10);
        *p++ = (char)('0' + exp10 % 10);
        *p = '\0';
    } else {
        put_fixed(p, x, prec);
    }
    put_str(s, text, width, left);
}

static void format(sink *s, const char *fmt, va_list ap)
{
    char tmp[32];
    while (*fmt) {
        int left = 0, zero = 0, width = 0, prec = -1, lng = 0;
        char c = *fmt++;
        if (c != '%') {
            put_char(s, c);
            continue;
        }
        for (;; fmt++) {
            if (*fmt == '-')
                left = 1;
            else if (*fmt == '0')
                zero = 1;
            else
                break;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        if (*fmt == '.') {
            prec = 0;
            fmt++;
            while (*fmt >= '0' && *fmt <= '9')
                prec = prec * 10 + (*fmt++ - '0');
        }
        while (*fmt == 'l')
            lng++, fmt++;
        if (*fmt == 'z')
            lng = 3, fmt++; /* size_t */
        c = *fmt ? *fmt++ : '\0';
        switch (c) {
        case 'd':
        case 'i': {
            int64_t v = lng == 3   ? (int64_t)va_arg(ap, ptrdiff_t)
                        : lng == 2 ? (int64_t)va_arg(ap, long long)
                        : lng == 1 ? (int64_t)va_arg(ap, long)
                                   : (int64_t)va_arg(ap, int);
            uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            char *d = utoa_base(mag, 10, tmp + sizeof tmp);
            if (v < 0)
                *--d = '-';
            if (zero && !left)
                while ((int)strlen(d) < width)
                    *--d = '0';
            put_str(s, d, width, left);
            break;
        }
        case 'u':
        case 'x': {
            uint64_t v = lng == 3   ? (uint64_t)va_arg(ap, size_t)
                         : lng == 2 ? (uint64_t)va_arg(ap, unsigned long long)
                         : lng == 1 ? (uint64_t)va_arg(ap, unsigned long)
                                    : (uint64_t)va_arg(ap, unsigned);
            char *d = utoa_base(v, c == 'x' ? 16u : 10u, tmp + sizeof tmp);
            if (zero && !left)
                while ((int)strlen(d) < width && d > tmp)
                    *--d = '0';
            put_str(s, d, width, left);
            break;
        }
        case 'p': {
            char *d = utoa_base((uint64_t)(uintptr_t)va_arg(ap, void *), 16u, tmp + sizeof tmp);
            *--d = 'x';
            *--d = '0';
            put_str(s, d, width, left);
            break;
        }
        case 'c':
            tmp[0] = (char)va_arg(ap, int);
            tmp[1] = '\0';
            put_str(s, tmp, width, left);
            break;
        case 's': {
            const char *str = va_arg(ap, const char *);
            put_str(s, str ? str : "(null)", width, left);
            break;
        }
        case 'f':
        case 'e':
        case 'g':
            put_double(s, va_arg(ap, double), c, prec, width, left);
            break;
        case '%':
            put_char(s, '%');
            break;
        default:
            put_char(s, '%');
            if (c)
                put_char(s, c);
            break;
        }
    }
}

int copse_port_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
    sink s;
    s.buf = buf;
    s.cap = cap;
    s.len = 0;
    format(&s, fmt, ap);
    if (cap > 0)
        buf[s.len < cap ? s.len : cap - 1] = '\0';
    return (int)s.len;
}

int copse_port_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
    int n;
    va_list ap;
    va_start(ap, fmt);
    n = copse_port_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

void copse_port_printf(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    (void)copse_port_vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    copse_port_write(line);
}

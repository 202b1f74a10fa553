/* SPDX-License-Identifier: MIT */
/* Exact integer references: see oracle_exact.h. */
#include "oracle/oracle_exact.h"

#include <math.h>
#include <string.h>

static int oex_sign64(int64_t v)
{
    return (v > 0) - (v < 0);
}

static void oex_sub_i(int64_t *out, const int64_t *a, const int64_t *b)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static void oex_cross_i(int64_t *out, const int64_t *a, const int64_t *b)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static int64_t oex_dot_i(const int64_t *a, const int64_t *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static int64_t oex_det_i(const int64_t *a, const int64_t *b, const int64_t *c, const int64_t *d)
{
    int64_t u[3], v[3], w[3], n[3];
    oex_sub_i(u, b, a);
    oex_sub_i(v, c, a);
    oex_sub_i(w, d, a);
    oex_cross_i(n, u, v);
    return oex_dot_i(n, w);
}

int oex_orient3d_i(const int64_t *a, const int64_t *b, const int64_t *c, const int64_t *d)
{
    return oex_sign64(oex_det_i(a, b, c, d));
}

int oex_orient2d_i(const int64_t *a, const int64_t *b, const int64_t *c, unsigned k)
{
    int64_t u[3], v[3], n[3];
    oex_sub_i(u, b, a);
    oex_sub_i(v, c, a);
    oex_cross_i(n, u, v);
    return oex_sign64(n[k]);
}

/* ---- big integers ------------------------------------------------------------------------------ */

#define OEX_WORDS 30      /* 960 bits, two's complement, least significant word first */
#define OEX_BASE (-447) /* bit 0 of the accumulator weighs 2^-447 = (2^-149)^3 */

typedef struct oex_big {
    uint32_t w[OEX_WORDS];
} oex_big;

/* x = m * 2^e, m an odd integer (or 0), |m| < 2^24, e >= -149. */
static void oex_decompose(float x, int64_t *m, int *e)
{
    int ex;
    float f = frexpf(x, &ex);
    int64_t mm = (int64_t)ldexpf(f, 24);
    ex -= 24;
    while (mm != 0 && (mm & 1) == 0) {
        mm /= 2;
        ex++;
    }
    *m = mm;
    *e = mm == 0 ? 0 : ex;
}

/* acc += sign * prod(f[0..n)) exactly. */
static void oex_add_product(oex_big *acc, const float *f, unsigned n, int sign)
{
    uint32_t mag[4] = { 1, 0, 0, 0 }; /* |m_0 m_1 ...| as 32-bit words */
    int exp = 0, neg = sign < 0;
    unsigned i, j, word, bit;
    oex_big t;
    for (i = 0; i < n; i++) {
        int64_t m;
        int e;
        uint64_t carry = 0;
        oex_decompose(f[i], &m, &e);
        if (m == 0)
            return;
        if (m < 0) {
            neg = !neg;
            m = -m;
        }
        exp += e;
        for (j = 0; j < 4; j++) {
            uint64_t v = (uint64_t)mag[j] * (uint64_t)m + carry;
            mag[j] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    /* 3 factors: exp >= -447, and exp + 72 <= 3 * 128 + 72 bits above 2^0 */
    exp -= OEX_BASE;
    memset(&t, 0, sizeof t);
    word = (unsigned)exp / 32u;
    bit = (unsigned)exp % 32u;
    for (j = 0; j < 4; j++) {
        uint64_t v = (uint64_t)mag[j] << bit;
        if (word + j < OEX_WORDS)
            t.w[word + j] |= (uint32_t)v;
        if (word + j + 1 < OEX_WORDS)
            t.w[word + j + 1] |= (uint32_t)(v >> 32);
    }
    if (neg) { /* two's complement negation */
        uint64_t carry = 1;
        for (j = 0; j < OEX_WORDS; j++) {
            uint64_t v = (uint64_t)(uint32_t)~t.w[j] + carry;
            t.w[j] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    {
        uint64_t carry = 0;
        for (j = 0; j < OEX_WORDS; j++) {
            uint64_t v = (uint64_t)acc->w[j] + t.w[j] + carry;
            acc->w[j] = (uint32_t)v;
            carry = v >> 32;
        }
    }
}

static int oex_big_sign(const oex_big *a)
{
    unsigned j;
    if (a->w[OEX_WORDS - 1] & 0x80000000u)
        return -1;
    for (j = 0; j < OEX_WORDS; j++)
        if (a->w[j] != 0)
            return 1;
    return 0;
}

/* Parity of a permutation of 0..n-1. */
static int oex_parity(const unsigned *perm, unsigned n)
{
    unsigned i, j, inv = 0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            inv += perm[i] > perm[j];
    return inv % 2 ? -1 : 1;
}

/* det of the n x n matrix whose rows are (rows[i][0..n-2], 1), by Leibniz's formula. */
static int oex_det_rows(float rows[4][3], unsigned n)
{
    oex_big acc;
    unsigned perm[4], i;
    memset(&acc, 0, sizeof acc);
    for (perm[0] = 0; perm[0] < n; perm[0]++)
        for (perm[1] = 0; perm[1] < n; perm[1]++)
            for (perm[2] = 0; perm[2] < n; perm[2]++)
                for (perm[3] = 0; perm[3] < (n == 4 ? 4u : 1u); perm[3]++) {
                    float f[3];
                    unsigned nf = 0, used = 0;
                    bool ok = true;
                    for (i = 0; i < n; i++) {
                        ok = ok && !(used >> perm[i] & 1u);
                        used |= 1u << perm[i];
                    }
                    if (!ok)
                        continue;
                    /* row i contributes column perm[i]; the last column is all ones */
                    for (i = 0; i < n; i++)
                        if (perm[i] != n - 1)
                            f[nf++] = rows[i][perm[i]];
                    oex_add_product(&acc, f, nf, oex_parity(perm, n));
                }
    return oex_big_sign(&acc);
}

int oex_orient3d(const float *a, const float *b, const float *c, const float *d)
{
    /* ((b - a) x (c - a)) . (d - a) = -det [(a,1); (b,1); (c,1); (d,1)] */
    float rows[4][3];
    const float *p[4];
    unsigned i, k;
    p[0] = a;
    p[1] = b;
    p[2] = c;
    p[3] = d;
    for (i = 0; i < 4; i++)
        for (k = 0; k < 3; k++)
            rows[i][k] = p[i][k];
    return -oex_det_rows(rows, 4);
}

int oex_orient2d(const float *a, const float *b, const float *c, unsigned k)
{
    /* component k of (b - a) x (c - a) = det [(a_u, a_w, 1); ...] with u, w = k+1, k+2 (mod 3) */
    float rows[4][3];
    const float *p[3];
    unsigned i, u = (k + 1) % 3, w = (k + 2) % 3;
    p[0] = a;
    p[1] = b;
    p[2] = c;
    memset(rows, 0, sizeof rows);
    for (i = 0; i < 3; i++) {
        rows[i][0] = p[i][u];
        rows[i][1] = p[i][w];
    }
    return oex_det_rows(rows, 3);
}

/* ---- hulls ----------------------------------------------------------------------------------------- */

static bool oex_is_zero(const int64_t *a)
{
    return a[0] == 0 && a[1] == 0 && a[2] == 0;
}

/* Is 0 in the closed hull of the affinely independent points s[0..n)? */
static bool oex_origin_in_simplex(const int64_t (*s)[3], unsigned n)
{
    static const int64_t zero[3] = { 0, 0, 0 };
    int64_t x[3], y[3], nrm[3], c[3];
    if (n == 1)
        return oex_is_zero(s[0]);
    if (n == 2) { /* 0, s0, s1 collinear and 0 between */
        oex_cross_i(c, s[0], s[1]);
        return oex_is_zero(c) && oex_dot_i(s[0], s[1]) <= 0;
    }
    if (n == 3) { /* 0 on the plane, barycentric weights (areas along the normal) >= 0 */
        oex_sub_i(x, s[1], s[0]);
        oex_sub_i(y, s[2], s[0]);
        oex_cross_i(nrm, x, y);
        if (oex_dot_i(nrm, s[0]) != 0)
            return false;
        oex_cross_i(c, s[1], s[2]);
        if (oex_dot_i(nrm, c) < 0)
            return false;
        oex_cross_i(c, s[2], s[0]);
        if (oex_dot_i(nrm, c) < 0)
            return false;
        oex_cross_i(c, s[0], s[1]);
        return oex_dot_i(nrm, c) >= 0;
    }
    { /* tetrahedron: each barycentric weight has the volume's sign, or is 0 */
        const int v = oex_sign64(oex_det_i(s[0], s[1], s[2], s[3]));
        return oex_sign64(oex_det_i(zero, s[1], s[2], s[3])) * v >= 0 &&
               oex_sign64(oex_det_i(s[0], zero, s[2], s[3])) * v >= 0 &&
               oex_sign64(oex_det_i(s[0], s[1], zero, s[3])) * v >= 0 &&
               oex_sign64(oex_det_i(s[0], s[1], s[2], zero)) * v >= 0;
    }
}

/* Are s[0..n) affinely independent? */
static bool oex_independent(const int64_t (*s)[3], unsigned n)
{
    int64_t x[3], y[3], c[3];
    if (n == 1)
        return true;
    oex_sub_i(x, s[1], s[0]);
    if (n == 2)
        return !oex_is_zero(x);
    oex_sub_i(y, s[2], s[0]);
    oex_cross_i(c, x, y);
    if (n == 3)
        return !oex_is_zero(c);
    return oex_det_i(s[0], s[1], s[2], s[3]) != 0;
}

bool oex_hulls_meet(const int32_t (*p)[3], unsigned np, const int32_t (*q)[3], unsigned nq)
{
    int64_t d[9][3], s[4][3];
    unsigned n = 0, i, j, k, size, idx[4];
    for (i = 0; i < np; i++)
        for (j = 0; j < nq; j++, n++)
            for (k = 0; k < 3; k++)
                d[n][k] = (int64_t)p[i][k] - q[j][k];
    /* every subset of 1 to 4 of the n points, as increasing index tuples */
    for (size = 1; size <= 4 && size <= n; size++) {
        for (i = 0; i < size; i++)
            idx[i] = i;
        for (;;) {
            for (i = 0; i < size; i++)
                for (k = 0; k < 3; k++)
                    s[i][k] = d[idx[i]][k];
            if (oex_independent((const int64_t(*)[3])s, size) && oex_origin_in_simplex((const int64_t(*)[3])s, size))
                return true;
            /* next combination */
            i = size;
            while (i > 0 && idx[i - 1] == n - size + i - 1)
                i--;
            if (i == 0)
                break;
            idx[i - 1]++;
            for (j = i; j < size; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    return false;
}

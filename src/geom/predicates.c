/* SPDX-License-Identifier: MIT */
/*
 * Exact orientation predicates on float inputs, in float arithmetic only (DESIGN 8).
 *
 * Filter: the determinant in float with Shewchuk's forward error bound (stage A of "Adaptive
 * precision floating-point arithmetic and fast robust geometric predicates", 1997, with
 * eps = 2^-24; the bound covers the rounded coordinate differences), plus an absolute term for
 * products that underflow. Overflow gives inf or NaN, which never passes the test. The filter
 * decides every call whose answer is not within a few ulps of 0.
 *
 * Exact path: the determinant over the original coordinates (no rounded differences), as a sum
 * of exact products: Dekker's two-product with Veltkamp's split (splitter 4097 = 2^12 + 1; no
 * fma), and two-diff for the differences of z. The terms (up to 96 for orient3d, 12 for
 * orient2d) are summed exactly in a fixed-point accumulator of 16 float slots, slot k holding
 * multiples of 2^(16k - 149) with 8 bits of headroom; each term is cut into slot-aligned pieces
 * by error-free extraction ((t + 1.5*2^(j+23)) - 1.5*2^(j+23) is t rounded to a multiple of
 * 2^j). That bounds the exact path's storage at 64 bytes for any input (an expansion summed
 * with zero elimination can reach 96 components), and costs O(1) per term.
 *
 * Range: each axis is first scaled by its own power of two (exact, and a positive factor on an
 * axis keeps the determinant's sign) so that its largest magnitude lies just below 2^35
 * (orient3d) or 2^53 (orient2d). Every term, a product of one coordinate per axis, is then
 * below 2^107; it is a multiple of 2^-149 when the axes' smallest ulps multiply to at least
 * that.
 *
 * The accumulator holds every input with D_x + D_y + D_z <= 182 (orient3d) or D_u + D_w <= 207
 * (orient2d, the two projected axes), where D_k is the spread of axis k: floor(log2 |x|) of its
 * largest minus that of its smallest nonzero coordinate over the points involved, subnormals
 * counted as -126 (0 for an axis without nonzero coordinates); any ratio of largest to smallest
 * nonzero coordinate below 2^60 (about 1e18) qualifies. Beyond it (an axis holding both 1e30 and
 * 1e-30, say) the same sum is taken over the original coordinates in a wide integer (pr_wide:
 * 28 words, every product of three floats at its own bit): slower, and as exact.
 *
 * Guarantee: the sign is exact for all finite inputs. Exactly 0: coincident points, and four
 * points sharing one coordinate. NaN or infinite inputs give 0 or a sign, never undefined
 * behaviour.
 *
 * copse_geo_exact_cross (a * b - c * d, the ray/triangle test's edge weights) needs a value as
 * well as a sign, for any finite inputs: it multiplies the 24-bit mantissas in 64-bit integers
 * instead, which is exact without a range.
 */
#include "geom_collide.h"

/* Shewchuk's stage-A constants for float: (3 + 16 eps) eps and (7 + 56 eps) eps, eps = 2^-24,
 * both exactly representable. */
#define PR_CCW_BOUND ((3.0f + 16.0f * 0x1p-24f) * 0x1p-24f)
#define PR_O3D_BOUND ((7.0f + 56.0f * 0x1p-24f) * 0x1p-24f)
/* Covers twice the largest absolute error of one float product that underflows (2^-150): the
 * smallest normal float, 2^-126, not 2^-148. A subnormal operand costs x86 a microcode assist of
 * about 100 cycles on every call (measured: 2.4x on a mesh-against-mesh check); the larger bound
 * is as valid and only hands a few more determinants of tiny inputs to the exact stage. */
#define PR_UNDERFLOW 0x1p-126f

#define PR_SLOTS 16
typedef struct pr_acc {
    float slot[PR_SLOTS];
} pr_acc;

typedef union pr_bits {
    float f;
    uint32_t u;
} pr_bits;

COPSE_INLINE uint32_t pr_to_bits(float x)
{
    pr_bits b;
    b.f = x;
    return b.u;
}

COPSE_INLINE float pr_from_bits(uint32_t u)
{
    pr_bits b;
    b.u = u;
    return b.f;
}

/* 2^e for -126 <= e <= 127. */
COPSE_INLINE float pr_pow2(int e)
{
    return pr_from_bits((uint32_t)(e + 127) << 23);
}

/* The biased exponent, 1 for subnormals (and zero), 255 for inf and NaN: |x| < 2^(be - 126). */
COPSE_INLINE unsigned pr_biased_exp(float x)
{
    unsigned be = (unsigned)(pr_to_bits(x) >> 23) & 0xffu;
    return be == 0u ? 1u : be;
}

/* ---- error-free transformations (every step rounds into a float variable) ------------------- */

/* x = hi + lo, hi with at most 12 significant bits, lo with at most 11. */
COPSE_INLINE void pr_split(float x, float *hi, float *lo)
{
    const float c = 4097.0f * x;
    const float big = c - x;
    const float h = c - big;
    *hi = h;
    *lo = x - h;
}

/* The rounding error of x = fl(a * b), with a and b given split. */
COPSE_INLINE float pr_product_tail(float x, float ahi, float alo, float bhi, float blo)
{
    const float p1 = ahi * bhi, p2 = alo * bhi, p3 = ahi * blo, p4 = alo * blo;
    const float e1 = x - p1;
    const float e2 = e1 - p2;
    const float e3 = e2 - p3;
    return p4 - e3;
}

/* a * b = *hi + *lo exactly. */
COPSE_INLINE void pr_two_product(float a, float b, float *hi, float *lo)
{
    float ahi, alo, bhi, blo;
    const float x = a * b;
    pr_split(a, &ahi, &alo);
    pr_split(b, &bhi, &blo);
    *hi = x;
    *lo = pr_product_tail(x, ahi, alo, bhi, blo);
}

/* a - b = *hi + *lo exactly. */
COPSE_INLINE void pr_two_diff(float a, float b, float *hi, float *lo)
{
    const float x = a - b;
    const float bvirt = a - x;
    const float avirt = x + bvirt;
    const float bround = bvirt - b;
    const float around = a - avirt;
    *hi = x;
    *lo = around + bround;
}

/* ---- the fixed-point accumulator --------------------------------------------------------------
 * Slot k holds a multiple of 2^(16k - 149) below 2^(16k - 125) in magnitude: exact while fewer
 * than 128 pieces are added to it (each below 2^(16k - 133)). A term below 2^107 that is a
 * multiple of 2^-149 goes to slots k, k-1, ... (three at most), starting at the lowest k whose
 * pieces may be as large as the term. */

/* 1.5 * 2^(16k - 126): adding and subtracting it rounds to a multiple of 2^(16k - 149). */
COPSE_INLINE float pr_sigma(unsigned k)
{
    return pr_from_bits(((1u + 16u * k) << 23) | 0x400000u);
}

static void pr_deposit(pr_acc *acc, float t)
{
    int k = (int)((pr_biased_exp(t) + 22u) >> 4);
    k = k < PR_SLOTS ? k : PR_SLOTS - 1; /* only for terms out of range: no overrun */
    for (; k >= 0 && t != 0.0f; k--) {
        const float sigma = pr_sigma((unsigned)k);
        const float r = t + sigma;
        const float piece = r - sigma;
        acc->slot[k] += piece;
        t -= piece;
    }
}

/* The sign of the sum: carries move up until each slot below the top is at most half the next
 * slot's unit; then the highest nonzero slot outweighs everything under it. */
static int pr_acc_sign(pr_acc *acc)
{
    unsigned k;
    for (k = 0; k + 1u < PR_SLOTS; k++) {
        const float sigma = pr_sigma(k + 1u);
        const float r = acc->slot[k] + sigma;
        const float carry = r - sigma;
        acc->slot[k] -= carry;
        acc->slot[k + 1u] += carry;
    }
    for (k = PR_SLOTS; k-- > 0u;)
        if (acc->slot[k] != 0.0f)
            return acc->slot[k] > 0.0f ? 1 : -1;
    return 0;
}

/* acc += a * b exactly: Dekker's product, both parts deposited (a * b must be a multiple of
 * 2^-149 below 2^107). */
static void pr_deposit_product(pr_acc *acc, float a, float b)
{
    float ahi, alo, bhi, blo;
    const float x = a * b;
    pr_split(a, &ahi, &alo);
    pr_split(b, &bhi, &blo);
    pr_deposit(acc, x);
    pr_deposit(acc, pr_product_tail(x, ahi, alo, bhi, blo));
}

COPSE_INLINE void pr_acc_clear(pr_acc *acc)
{
    unsigned k;
    for (k = 0; k < PR_SLOTS; k++)
        acc->slot[k] = 0.0f;
}

/* Scales v[0], v[stride], ... (n values: one axis) by one power of two so that the largest
 * magnitude is below 2^top, and returns the exponent of the smallest nonzero value's ulp after
 * that (PR_ALL_ZERO when there is none; PR_BAD for inf or NaN). Each axis is scaled on its own:
 * a positive factor on one axis scales the determinant and keeps its sign. */
#define PR_ALL_ZERO 1000
#define PR_BAD (-1000)
static int pr_scale_axis(float *v, unsigned n, unsigned stride, int top)
{
    unsigned i, emax = 0u, emin = 255u;
    int s, s1;
    float f1, f2;
    for (i = 0; i < n * stride; i += stride) {
        unsigned be;
        if (v[i] == 0.0f)
            continue;
        be = pr_biased_exp(v[i]);
        if (be == 255u)
            return PR_BAD;
        emax = be > emax ? be : emax;
        emin = be < emin ? be : emin;
    }
    if (emax == 0u)
        return PR_ALL_ZERO;
    s = top + 126 - (int)emax; /* |v| < 2^(emax - 126) */
    s1 = s / 2;                /* two steps: |s| may exceed 127 */
    f1 = pr_pow2(s1);
    f2 = pr_pow2(s - s1);
    for (i = 0; i < n * stride; i += stride) {
        const float t = v[i] * f1;
        v[i] = t * f2;
    }
    return (int)emin - 150 + s; /* the ulp of the smallest was 2^(emin - 150) */
}

/* Scales each of the `axes` axes of v (point-major, `axes` floats a point, n points) below
 * 2^top. False when some product of one coordinate per axis could have bits below 2^-149 (the
 * sum of the axes' smallest ulps is lower), or for inf or NaN: the exact path cannot hold it. */
COPSE_INLINE bool pr_scale(float *v, unsigned n, unsigned axes, int top)
{
    int sum = 0, q;
    unsigned k;
    for (k = 0; k < axes; k++) {
        q = pr_scale_axis(v + k, n, axes, top);
        if (q == PR_BAD)
            return false;
        sum += q;
    }
    return sum >= -149;
}

COPSE_INLINE bool pr_same2(const float *a, const float *b, unsigned u, unsigned w)
{
    return a[u] == b[u] && a[w] == b[w];
}

/* What an exact stage returns when its input is beyond the float accumulator's range. */
#define PR_WIDE 2

/* orient3d = sum of minor(p, q) * (z_r - z_s) over these rows {p, q, r, s} (offsets 3 * row) */
static const unsigned char k_pair[6][4] = { { 0, 3, 9, 6 }, { 0, 6, 3, 9 }, { 0, 9, 6, 3 },
                                            { 3, 6, 9, 0 }, { 3, 9, 0, 6 }, { 6, 9, 3, 0 } };

/* ---- beyond the range: a wide integer ---------------------------------------------------------
 * An input the scaled float accumulator cannot hold (the axes' spreads of magnitude too wide:
 * 1e30 beside 1e-30) is summed exactly as integers instead. A finite float is m * 2^e with an
 * integer m < 2^24 and -149 <= e <= 104; a product of three is below 2^72 * 2^(3e), with 3e in
 * [-447, 312]. Terms land at bit e + 447 of a two's complement integer of PR_WIDE_WORDS words,
 * which holds the 831 bits of that span, the 72 of a product and the carries of 96 terms. */
#define PR_WIDE_BIAS 447
#define PR_WIDE_WORDS 28u

typedef struct pr_wide {
    uint32_t w[PR_WIDE_WORDS];
} pr_wide;

/* acc += sign * (m1 * m2 * m3) * 2^(e + PR_WIDE_BIAS), the product given as (hi, lo): value =
 * hi * 2^32 + lo, below 2^72. Two's complement: a negative term adds the complement and 1. */
static void pr_wide_add(pr_wide *acc, uint64_t hi, uint64_t lo, int e, bool negative)
{
    uint32_t piece[5] = { 0u, 0u, 0u, 0u, 0u };
    const unsigned bit = (unsigned)(e + PR_WIDE_BIAS), word = bit / 32u, shift = bit % 32u;
    uint64_t carry;
    unsigned i;
    /* the 72-bit value in three words, then shifted into five */
    const uint64_t mid = (hi & 0xFFFFFFFFu) + (lo >> 32);
    const uint32_t v[3] = { (uint32_t)lo, (uint32_t)mid, (uint32_t)((hi >> 32) + (mid >> 32)) };
    for (i = 0; i < 3u; i++) {
        piece[i] |= v[i] << shift;
        if (shift != 0u)
            piece[i + 1u] |= v[i] >> (32u - shift);
    }
    carry = negative ? 1u : 0u;
    for (i = word; i < PR_WIDE_WORDS; i++) {
        const uint32_t add = i - word < 5u ? piece[i - word] : 0u;
        const uint64_t sum = (uint64_t)acc->w[i] + (negative ? (uint32_t)~add : add) + carry;
        acc->w[i] = (uint32_t)sum;
        carry = sum >> 32;
        if (i - word >= 4u && carry == (negative ? 1u : 0u))
            break; /* past the pieces and no carry or borrow moving: the words above stay */
    }
}

/* A float as m * 2^e (m < 2^24), its sign apart. */
COPSE_INLINE uint32_t pr_parts(float x, int *e, bool *neg)
{
    const uint32_t b = pr_to_bits(x);
    const unsigned be = (b >> 23) & 0xFFu;
    *neg = (b >> 31) != 0u;
    *e = (be == 0u ? 1 : (int)be) - 150;
    return (b & 0x7FFFFFu) | (be != 0u ? 0x800000u : 0u);
}

/* acc += sign * x * y * z exactly (z = 1 for a product of two). */
static void pr_wide_product(pr_wide *acc, float x, float y, float z, bool negate)
{
    int ex, ey, ez;
    bool nx, ny, nz;
    const uint32_t mx = pr_parts(x, &ex, &nx), my = pr_parts(y, &ey, &ny), mz = pr_parts(z, &ez, &nz);
    const uint64_t xy = (uint64_t)mx * my;
    if (xy == 0u || mz == 0u)
        return;
    pr_wide_add(acc, (xy >> 32) * mz, (xy & 0xFFFFFFFFu) * mz, ex + ey + ez, (nx != ny) != (nz != negate));
}

static int pr_wide_sign(const pr_wide *acc)
{
    unsigned i;
    if ((acc->w[PR_WIDE_WORDS - 1u] >> 31) != 0u)
        return -1;
    for (i = 0; i < PR_WIDE_WORDS; i++)
        if (acc->w[i] != 0u)
            return 1;
    return 0;
}

/* Clears the accumulator for the points pt[0..n) (3 coordinates each); false when one of them
 * is not finite (inf and NaN have no mantissa to multiply: the caller answers 0). */
static bool pr_wide_begin(pr_wide *acc, const float *const *pt, unsigned n)
{
    unsigned i, k;
    for (i = 0; i < n; i++)
        for (k = 0; k < 3u; k++)
            if (!geo_finite(pt[i][k]))
                return false;
    __builtin_memset(acc, 0, sizeof *acc);
    return true;
}

/* ---- orient2d ----------------------------------------------------------------------------------- */

/* The same sum as integers (beyond the accumulator's range). */
static COPSE_NOINLINE int pr_orient2d_wide(const float *a, const float *b, const float *c, unsigned u, unsigned w)
{
    const float *const pt[3] = { a, b, c };
    pr_wide acc;
    unsigned i;
    if (!pr_wide_begin(&acc, pt, 3u))
        return 0;
    for (i = 0; i < 3u; i++) {
        const float *p = pt[i], *q = pt[i == 2u ? 0u : i + 1u];
        pr_wide_product(&acc, p[u], q[w], 1.0f, false);
        pr_wide_product(&acc, p[w], q[u], 1.0f, true);
    }
    return pr_wide_sign(&acc);
}

/* a_u b_w - a_w b_u + b_u c_w - b_w c_u + c_u a_w - c_w a_u: six products, twelve terms; PR_WIDE
 * when the input is beyond the accumulator. */
static COPSE_NOINLINE int pr_orient2d_exact(const float *a, const float *b, const float *c, unsigned k)
{
    const unsigned u = k >= 2u ? 0u : k + 1u, w = u == 2u ? 0u : u + 1u;
    float v[6];
    pr_acc acc;
    unsigned i;
    if (pr_same2(a, b, u, w) || pr_same2(b, c, u, w) || pr_same2(c, a, u, w))
        return 0;
    v[0] = a[u];
    v[1] = a[w];
    v[2] = b[u];
    v[3] = b[w];
    v[4] = c[u];
    v[5] = c[w];
    if (!pr_scale(v, 3u, 2u, 53))
        return PR_WIDE; /* the caller sums it wide, this frame gone */
    pr_acc_clear(&acc);
    for (i = 0; i < 6u; i += 2u) {
        const unsigned j = i == 4u ? 0u : i + 2u;
        pr_deposit_product(&acc, v[i], v[j + 1u]);
        pr_deposit_product(&acc, -v[i + 1u], v[j]);
    }
    return pr_acc_sign(&acc);
}

int copse_geo_orient2d(const float *a, const float *b, const float *c, unsigned k)
{
    const unsigned u = k >= 2u ? 0u : k + 1u, w = u == 2u ? 0u : u + 1u;
    const float l = (b[u] - a[u]) * (c[w] - a[w]);
    const float r = (b[w] - a[w]) * (c[u] - a[u]);
    const float det = l - r;
    const float err = PR_CCW_BOUND * (copse_fabsf(l) + copse_fabsf(r)) + PR_UNDERFLOW;
    if (det > err)
        return 1;
    if (-det > err)
        return -1;
    {
        const int s = pr_orient2d_exact(a, b, c, k);
        return s != PR_WIDE ? s : pr_orient2d_wide(a, b, c, u, w);
    }
}

/* ---- a * b - c * d (the watertight ray/triangle test's edges) ------------------------------- */

/* A product of two floats as m * 2^e exactly: m < 2^48, with bit 47 set unless m = 0. */
typedef struct pr_product {
    uint64_t m;
    int e;
    bool neg;
} pr_product;

static pr_product pr_exact_product(float a, float b, bool negate)
{
    pr_product p;
    const uint32_t ba = pr_to_bits(a), bb = pr_to_bits(b);
    uint32_t ma, mb;
    int ea, eb;
    ma = ba & 0x7FFFFFu;
    mb = bb & 0x7FFFFFu;
    ea = (int)((ba >> 23) & 0xFFu);
    eb = (int)((bb >> 23) & 0xFFu);
    /* a normal float is (2^23 + mantissa) * 2^(exponent - 150); a subnormal mantissa * 2^-149 */
    if (ea != 0)
        ma |= 0x800000u;
    else
        ea = 1;
    if (eb != 0)
        mb |= 0x800000u;
    else
        eb = 1;
    p.m = (uint64_t)ma * mb;
    p.e = ea + eb - 300;
    p.neg = (((ba ^ bb) >> 31) != 0u) != negate;
    if (p.m != 0u)
        while ((p.m >> 47) == 0u) { /* at most 47 steps: subnormal factors */
            p.m <<= 1;
            p.e--;
        }
    return p;
}

float copse_geo_exact_cross(float a, float b, float c, float d)
{
    pr_product big = pr_exact_product(a, b, false), small = pr_exact_product(c, d, true);
    uint64_t hi, lo, sum;
    int e, shift;
    bool neg;
    float r;
    if (big.m == 0u || (small.m != 0u && small.e > big.e)) {
        pr_product t = big;
        big = small;
        small = t;
    }
    if (big.m == 0u)
        return 0.0f;
    /* Align the smaller product to the larger one in 64 bits. Up to 15 places apart both fit
     * exactly; further apart the larger has 15 bits of headroom over the smaller's leading bit,
     * so the bits shifted out can change neither the sign nor a float's worth of the value. */
    shift = big.e - small.e;
    if (small.m == 0u) {
        hi = big.m;
        lo = 0u;
        e = big.e;
    } else if (shift <= 15) {
        hi = big.m << shift;
        lo = small.m;
        e = small.e;
    } else {
        hi = big.m << 15;
        lo = shift - 15 < 64 ? small.m >> (shift - 15) : 0u;
        e = big.e - 15;
    }
    if (big.neg == small.neg || lo == 0u) {
        sum = hi + lo; /* both below 2^63: no carry out */
        neg = big.neg;
    } else if (hi >= lo) {
        sum = hi - lo;
        neg = big.neg;
    } else {
        sum = lo - hi;
        neg = small.neg;
    }
    if (sum == 0u)
        return 0.0f;
    /* to float through 32 bits (a 64-bit conversion would link a soft-float helper): the bits
     * shifted out are kept as one sticky bit, below the rounding point, so that the conversion
     * still rounds to nearest */
    while ((sum >> 32) != 0u) {
        sum = (sum >> 1) | (sum & 1u);
        e++;
    }
    r = (float)(uint32_t)sum;
    /* times 2^e in steps of normal powers of two; every intermediate lies between r and the
     * result, so only a result beyond float's range is lost (to inf, or to 0 and subnormals) */
    while (e > 0) {
        shift = e > 64 ? 64 : e;
        r *= pr_pow2(shift);
        e -= shift;
    }
    while (e < 0) {
        shift = e < -64 ? -64 : e;
        r *= pr_pow2(shift);
        e -= shift;
    }
    return neg ? -r : r;
}

/* ---- orient3d ----------------------------------------------------------------------------------- */

/* acc += t * (dh + dl). */
static void pr_deposit_times(pr_acc *acc, float t, float dh, float dl)
{
    if (t == 0.0f)
        return;
    pr_deposit_product(acc, t, dh);
    if (dl != 0.0f)
        pr_deposit_product(acc, t, dl);
}

/* The sum of pr_orient3d_exact below as integers (beyond the accumulator's range): each
 * minor(p, q) * (z_r - z_s) as four products of three coordinates. */
static COPSE_NOINLINE int pr_orient3d_wide(const float *a, const float *b, const float *c, const float *d)
{
    const unsigned char (*pair)[4] = k_pair;
    const unsigned xk = 0u, yk = 1u, zk = 2u; /* exact: any axis serves as z */
    const float *const pt[4] = { a, b, c, d };
    pr_wide acc;
    unsigned i;
    if (!pr_wide_begin(&acc, pt, 4u))
        return 0;
    for (i = 0; i < 6u; i++) {
        const float *p = pt[pair[i][0] / 3u], *q = pt[pair[i][1] / 3u];
        const float zr = pt[pair[i][2] / 3u][zk], zs = pt[pair[i][3] / 3u][zk];
        pr_wide_product(&acc, p[xk], q[yk], zr, false);
        pr_wide_product(&acc, p[xk], q[yk], zs, true);
        pr_wide_product(&acc, p[yk], q[xk], zr, true);
        pr_wide_product(&acc, p[yk], q[xk], zs, false);
    }
    return pr_wide_sign(&acc);
}

/* -det of the 4x4 matrix with rows (a,1) (b,1) (c,1) (d,1), expanded as the sum over the six pairs
 * (p, q) of minor(p, q) * (z_r - z_s), minor(p, q) = p_x q_y - p_y q_x in the two other axes:
 * 6 pairs x 4 minor terms x 2 difference terms x 2 product terms = 96 terms at most. The axis z
 * is the one with the most equal pairs: each equal pair drops 16 terms. PR_WIDE when the input is
 * beyond the accumulator. */
static COPSE_NOINLINE int pr_orient3d_exact(const float *a, const float *b, const float *c, const float *d)
{
    /* orient3d = sum of minor(p, q) * (z_r - z_s) for the rows {p, q, r, s} of k_pair */
    float v[12]; /* point i, axis k at v[3i + k] */
    pr_acc acc;
    unsigned i, j, k, best = 0u, zk = 2u, xk, yk;
    for (k = 0; k < 3u; k++) {
        v[k] = a[k];
        v[3u + k] = b[k];
        v[6u + k] = c[k];
        v[9u + k] = d[k];
    }
    for (i = 0; i < 12u; i += 3u)
        for (j = i + 3u; j < 12u; j += 3u)
            if (v[i] == v[j] && v[i + 1u] == v[j + 1u] && v[i + 2u] == v[j + 2u])
                return 0;
    for (k = 3u; k-- > 0u;) { /* axes 2, 1, 0 */
        unsigned same = 0u;
        for (i = 0; i < 12u; i += 3u)
            for (j = i + 3u; j < 12u; j += 3u)
                same += v[i + k] == v[j + k];
        if (same == 6u) /* all four on a plane x_k = const */
            return 0;
        if (same > best) {
            best = same;
            zk = k;
        }
    }
    xk = zk == 2u ? 0u : zk + 1u;
    yk = xk == 2u ? 0u : xk + 1u;
    if (!pr_scale(v, 4u, 3u, 35))
        return PR_WIDE;
    pr_acc_clear(&acc);
    for (i = 0; i < 6u; i++) {
        const float *p = v + k_pair[i][0], *q = v + k_pair[i][1];
        float dh, dl, h, l;
        pr_two_diff(v[k_pair[i][2] + zk], v[k_pair[i][3] + zk], &dh, &dl);
        if (dh == 0.0f)
            continue;
        pr_two_product(p[xk], q[yk], &h, &l);
        pr_deposit_times(&acc, h, dh, dl);
        pr_deposit_times(&acc, l, dh, dl);
        pr_two_product(p[yk], q[xk], &h, &l);
        pr_deposit_times(&acc, -h, dh, dl);
        pr_deposit_times(&acc, -l, dh, dl);
    }
    return pr_acc_sign(&acc);
}

int copse_geo_orient3d(const float *a, const float *b, const float *c, const float *d)
{
    /* det [b - a, c - a, d - a] = (d - a) . ((b - a) x (c - a)): Shewchuk's evaluation (one
     * difference times a difference of two products, three times) with the rows renamed */
    const float ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    const float vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    const float wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
    const float uyvz = uy * vz, uzvy = uz * vy;
    const float uzvx = uz * vx, uxvz = ux * vz;
    const float uxvy = ux * vy, uyvx = uy * vx;
    const float det = wx * (uyvz - uzvy) + wy * (uzvx - uxvz) + wz * (uxvy - uyvx);
    const float awx = copse_fabsf(wx), awy = copse_fabsf(wy), awz = copse_fabsf(wz);
    const float perm = (copse_fabsf(uyvz) + copse_fabsf(uzvy)) * awx + (copse_fabsf(uzvx) + copse_fabsf(uxvz)) * awy +
                       (copse_fabsf(uxvy) + copse_fabsf(uyvx)) * awz;
    /* an underflowing inner product errs by up to 2^-150 absolute, then scaled by |w_i| */
    const float err = PR_O3D_BOUND * perm + (awx + awy + awz + 2.0f) * PR_UNDERFLOW;
    if (det > err)
        return 1;
    if (-det > err)
        return -1;
    {
        const int s = pr_orient3d_exact(a, b, c, d);
        return s != PR_WIDE ? s : pr_orient3d_wide(a, b, c, d); /* this frame gone: less stack */
    }
}

/* SPDX-License-Identifier: MIT */
/*
 * Poses and oriented boxes (src/geom/pose.c) against double-precision oracles written here from
 * the textbook definitions (elementary rotations multiplied out, the quaternion's q v q*, Rodrigues'
 * formula, matrix products): random angles, quaternions and axes (fixed seeds), gimbal lock, angles
 * near +-COPSE_MAX_ANGLE and at multiples of pi/2; compose / invert / apply round trips, aliasing,
 * associativity and long chains; copse_pose_check and copse_obb_check on every way a matrix can fail
 * to be a rotation; every NULL. copse's own sine and cosine: the error in ulps over many angles
 * and the hardest ones (the float angles nearest multiples of pi/2), and fixed bit patterns
 * computed once on the host, which every board must reproduce (docs/design.md rule 6).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../src/geom/pose_internal.h" /* copse_geo_sincos, _pose_status, _pose_arrays */
#include "suites.h"
#include "test.h"

#define EPS ((double)FLT_EPSILON)

typedef struct dmat {
    double m[3][3];
} dmat;

/* The host does the full counts; boards run the oracles in software double, the micro:bit most
 * slowly of all. */
static unsigned scaled(unsigned host, unsigned board, unsigned micro)
{
    size_t m = test_memory_bytes();
    return m >= ((size_t)32u << 20) ? host : (m >= ((size_t)256u << 10) ? board : micro);
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static bool is_nan(float f)
{
    return f != f;
}

/* n random floats in [lo, hi), drawn in order (never as several arguments of one call, whose
 * order of evaluation differs between compilers). */
static void rng_fill(test_rng *rng, float *v, unsigned n, float lo, float hi)
{
    unsigned i;
    for (i = 0; i < n; i++)
        v[i] = test_rng_float(rng, lo, hi);
}

static copse_vec3 rng_vec(test_rng *rng, float lo, float hi)
{
    float v[3];
    rng_fill(rng, v, 3u, lo, hi);
    return copse_v3(v[0], v[1], v[2]);
}

/* ---- oracles (double) ------------------------------------------------------------------------ */

static void d_mul(dmat *out, const dmat *a, const dmat *b)
{
    dmat o;
    int i, j, k;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            o.m[i][j] = 0.0;
            for (k = 0; k < 3; k++)
                o.m[i][j] += a->m[i][k] * b->m[k][j];
        }
    *out = o;
}

/* The rotation by `angle` about coordinate axis `axis`. */
static void d_axis_rot(dmat *out, int axis, double angle)
{
    int a = (axis + 1) % 3, b = (axis + 2) % 3, i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->m[i][j] = i == j ? 1.0 : 0.0;
    out->m[a][a] = cos(angle);
    out->m[b][b] = cos(angle);
    out->m[a][b] = -sin(angle);
    out->m[b][a] = sin(angle);
}

/* URDF: Rz(yaw) Ry(pitch) Rx(roll). */
static void d_rpy(dmat *out, double roll, double pitch, double yaw)
{
    dmat x, y, z;
    d_axis_rot(&x, 0, roll);
    d_axis_rot(&y, 1, pitch);
    d_axis_rot(&z, 2, yaw);
    d_mul(out, &y, &x);
    d_mul(out, &z, out);
}

/* Hamilton product, (x, y, z, w). */
static void d_qmul(double o[4], const double a[4], const double b[4])
{
    double r[4];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    r[0] = a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2];
    r[2] = a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0];
    memcpy(o, r, sizeof r);
}

/* Column j is q e_j q* for the normalised q. */
static void d_quat(dmat *out, double x, double y, double z, double w)
{
    double n = sqrt(x * x + y * y + z * z + w * w), q[4], qc[4], v[4];
    int i, j;
    q[0] = x / n;
    q[1] = y / n;
    q[2] = z / n;
    q[3] = w / n;
    qc[0] = -q[0];
    qc[1] = -q[1];
    qc[2] = -q[2];
    qc[3] = q[3];
    for (j = 0; j < 3; j++) {
        for (i = 0; i < 4; i++)
            v[i] = i == j ? 1.0 : 0.0;
        d_qmul(v, q, v);
        d_qmul(v, v, qc);
        for (i = 0; i < 3; i++)
            out->m[i][j] = v[i];
    }
}

/* Rodrigues: cos I + sin [u]x + (1 - cos) u u^T. */
static void d_axis_angle(dmat *out, double ax, double ay, double az, double angle)
{
    double n = sqrt(ax * ax + ay * ay + az * az), u[3], c = cos(angle), s = sin(angle);
    int i, j;
    u[0] = ax / n;
    u[1] = ay / n;
    u[2] = az / n;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->m[i][j] = (i == j ? c : 0.0) + (1.0 - c) * u[i] * u[j];
    out->m[0][1] -= s * u[2];
    out->m[1][0] += s * u[2];
    out->m[0][2] += s * u[1];
    out->m[2][0] -= s * u[1];
    out->m[1][2] -= s * u[0];
    out->m[2][1] += s * u[0];
}

static void d_of_pose(dmat *out, const copse_pose *p)
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out->m[i][j] = (double)p->rotation[i][j];
}

static double d_max_diff(const copse_pose *p, const dmat *m)
{
    double worst = 0.0;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            double d = fabs((double)p->rotation[i][j] - m->m[i][j]);
            worst = d > worst ? d : worst;
        }
    return worst;
}

/* R p + t in double from the float pose. */
static void d_apply(double out[3], const copse_pose *pose, const double p[3])
{
    double t[3], o[3];
    int i;
    t[0] = (double)pose->translation.x;
    t[1] = (double)pose->translation.y;
    t[2] = (double)pose->translation.z;
    for (i = 0; i < 3; i++)
        o[i] = (double)pose->rotation[i][0] * p[0] + (double)pose->rotation[i][1] * p[1] +
               (double)pose->rotation[i][2] * p[2] + t[i];
    memcpy(out, o, sizeof o);
}

static bool same_pose_bits(const copse_pose *a, const copse_pose *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static bool is_identity(const copse_pose *p)
{
    copse_pose id = copse_pose_identity();
    return same_pose_bits(p, &id);
}

static void garbage(void *p, size_t n)
{
    memset(p, 0x5a, n);
}

/* A random rotation (angles in [-pi, pi]) and a translation within `reach`. */
static copse_pose random_pose(test_rng *rng, float reach)
{
    copse_pose p;
    copse_vec3 rpy = rng_vec(rng, -3.1415926f, 3.1415926f);
    copse_vec3 xyz = rng_vec(rng, -reach, reach);
    CHECK_STATUS(copse_pose_from_xyz_rpy(&p, xyz, rpy), COPSE_OK);
    return p;
}

/* Rotations built from angles or quaternions are within this of the exact rotation of the same
 * float inputs, per entry: 6 ulps of 1 (measured: up to 4.0e-7, 3.4 ulps; the tests print it). */
#define ROT_TOL (6.0 * EPS)

/* ---- sine and cosine ---------------------------------------------------------------------------- */

/* |got - want| in ulps of the float nearest to want. */
static double ulp_error(float got, double want)
{
    double w = (double)(float)want, ulp;
    int e;
    if (fabs(w) < 0x1p-126)
        ulp = 0x1p-149;
    else {
        (void)frexp(w, &e); /* w = m 2^e, m in [0.5, 1) */
        ulp = ldexp(1.0, e - 24);
    }
    return fabs((double)got - want) / ulp;
}

/* The float angles in (0, 1e5] nearest to multiples of pi/2 (found by a search over every k with
 * 128-bit arithmetic): their remainders are as small as 4.2e-9, where a reduction with too short a
 * pi/2 loses every bit of the smaller of sine and cosine. Then the angles where the error peaked
 * over every float in [0, 1e5] (0.88 ulp) and the ends and midpoints of the range. */
static const float k_hard[] = {
    0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f, 0x1.2d97c8p+2f, 0x1.9a48dep+15f, 0x1.f9cbe2p+9f, 0x1.2d97c8p+3f,
    0x1.f9cbe2p+10f, 0x1.c463acp+3f, 0x1.921fb6p+0f, 0x1.921fb4p+0f, 0x1.17cc5p+11f, 0x1.78fdbap+4f,
    0x1.f9cbe2p+11f, 0x1.ae65fp+7f, 0x1.bd4268p+15f, 0x1.2298eap+8f, 0x1.a2d9bcp+14f, 0x1.95daa8p+10f,
    0x1.921fb6p-1f, 0x1.921fb4p-1f, 0x1.2d97c8p+1f, 1.0e5f, 0x1.869fep+16f, 0x1p-126f, 0x1p-149f, 1.0e-20f,
    0.0f, 1.0f, 0x1.fffffep-1f, 3.0f, 1000.0f,
};

static void sincos_check(float a, double *worst_s, double *worst_c, float *at_s, float *at_c)
{
    float s, c, s2, c2;
    double es, ec;
    copse_geo_sincos(a, &s, &c);
    es = ulp_error(s, sin((double)a));
    ec = ulp_error(c, cos((double)a));
    if (es > *worst_s) {
        *worst_s = es;
        *at_s = a;
    }
    if (ec > *worst_c) {
        *worst_c = ec;
        *at_c = a;
    }
    /* odd and even, to the bit (zero aside: sin(-0) may be +0) */
    copse_geo_sincos(-a, &s2, &c2);
    CHECKF((s == 0.0f || bits_of(s2) == (bits_of(s) ^ 0x80000000u)) && bits_of(c2) == bits_of(c),
           "sincos(+-%08x) is not odd / even: sin %08x %08x, cos %08x %08x", (unsigned)bits_of(a),
           (unsigned)bits_of(s), (unsigned)bits_of(s2), (unsigned)bits_of(c), (unsigned)bits_of(c2));
}

static void test_sincos_ulps(void)
{
    unsigned n = scaled(200000u, 50000u, 5000u), i, k;
    double ws = 0.0, wc = 0.0;
    float as = 0.0f, ac = 0.0f;
    test_rng rng;
    test_rng_seed(&rng, 4242u);
    for (i = 0; i < sizeof k_hard / sizeof k_hard[0]; i++) {
        sincos_check(k_hard[i], &ws, &wc, &as, &ac);
        sincos_check(nextafterf(k_hard[i], 0.0f), &ws, &wc, &as, &ac);
    }
    for (k = 0; k <= 64u; k++) { /* the floats nearest k pi/2, small k and at the top of the range */
        float a = (float)((double)k * 1.5707963267948966), b = (float)((double)(63661u - k) * 1.5707963267948966);
        sincos_check(a, &ws, &wc, &as, &ac);
        sincos_check(nextafterf(a, FLT_MAX), &ws, &wc, &as, &ac);
        sincos_check(b, &ws, &wc, &as, &ac);
        sincos_check(nextafterf(b, 0.0f), &ws, &wc, &as, &ac);
    }
    for (i = 0; i < n; i++) {
        float a;
        switch (i % 4u) {
        case 0: a = test_rng_float(&rng, -COPSE_MAX_ANGLE, COPSE_MAX_ANGLE); break;
        case 1: a = test_rng_float(&rng, -8.0f, 8.0f); break;
        case 2: a = COPSE_MAX_ANGLE - test_rng_float(&rng, 0.0f, 200.0f); break;
        default: /* log-uniform magnitudes from 2^-40 to 2^16 */
            a = ldexpf(test_rng_float(&rng, 1.0f, 2.0f), (int)test_rng_below(&rng, 56u) - 40);
            break;
        }
        sincos_check(a, &ws, &wc, &as, &ac);
    }
    CHECKF(ws <= 1.0, "sin: %.4f ulp at %.9g (%08x)", ws, (double)as, (unsigned)bits_of(as));
    CHECKF(wc <= 1.0, "cos: %.4f ulp at %.9g (%08x)", wc, (double)ac, (unsigned)bits_of(ac));
    copse_port_printf("info geom_pose sincos over %u random and %u chosen angles: max %.3f ulp (sin, at %08x), "
                      "%.3f ulp (cos, at %08x)\n", n, (unsigned)(2u * (sizeof k_hard / sizeof k_hard[0]) + 4u * 65u),
                      ws, (unsigned)bits_of(as), wc, (unsigned)bits_of(ac));
}

static void test_sincos_edges(void)
{
    static const float bad[] = { 1.0000001e5f, -1.0000001e5f, 1.0e6f, FLT_MAX, -FLT_MAX };
    float s = 0.0f, c = 0.0f, s2, c2;
    unsigned i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        copse_geo_sincos(bad[i], &s, &c);
        CHECKF(is_nan(s) && is_nan(c), "sincos(%g) out of range gave %g %g", (double)bad[i], (double)s, (double)c);
    }
    copse_geo_sincos(float_of(0x7f800000u), &s, &c);
    CHECK(is_nan(s) && is_nan(c));
    copse_geo_sincos(float_of(0xff800000u), &s, &c);
    CHECK(is_nan(s) && is_nan(c));
    copse_geo_sincos(float_of(0x7fc00000u), &s, &c);
    CHECK(is_nan(s) && is_nan(c));
    /* the ends of the range are in it */
    copse_geo_sincos(COPSE_MAX_ANGLE, &s, &c);
    CHECK(!is_nan(s) && !is_nan(c));
    copse_geo_sincos(-COPSE_MAX_ANGLE, &s2, &c2);
    CHECK(s2 == -s && c2 == c);
    /* either output may be left out, and the other is unchanged */
    copse_geo_sincos(0.75f, &s, NULL);
    copse_geo_sincos(0.75f, NULL, &c);
    copse_geo_sincos(0.75f, &s2, &c2);
    copse_geo_sincos(0.75f, NULL, NULL);
    CHECK(bits_of(s) == bits_of(s2) && bits_of(c) == bits_of(c2));
    /* exact values */
    copse_geo_sincos(0.0f, &s, &c);
    CHECK(s == 0.0f && c == 1.0f);
    copse_geo_sincos(1.0e-20f, &s, &c);
    CHECK(s == 1.0e-20f && c == 1.0f);
    copse_geo_sincos(0x1p-149f, &s, &c);
    CHECK(s == 0x1p-149f && c == 1.0f);
}

/* ---- the same bits on every target ------------------------------------------------------------ */

static uint32_t fnv(uint32_t h, float f)
{
    uint32_t u = bits_of(f);
    unsigned i;
    for (i = 0; i < 4u; i++) {
        h ^= (u >> (8u * i)) & 0xffu;
        h *= 16777619u;
    }
    return h;
}

static uint32_t fnv_pose(uint32_t h, const copse_pose *p)
{
    unsigned i, j;
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            h = fnv(h, p->rotation[i][j]);
    h = fnv(h, p->translation.x);
    h = fnv(h, p->translation.y);
    return fnv(h, p->translation.z);
}

/* Computed once on the host (x86-64, gcc); the M0's soft float and the M4F's FPU must agree. */
static const struct {
    float angle;
    uint32_t sin_bits, cos_bits;
} k_sincos_bits[] = {
    { 0x1p-1f, 0x3ef57744u, 0x3f60a940u },
    { 0x1p+0f, 0x3f576aa4u, 0x3f0a5141u },
    { -0x1.4p+1f, 0xbf193578u, 0xbf4d17bfu },
    { 0x1.921fb6p+0f, 0x3f800000u, 0xb33bbd2eu },
    { 0x1.f9cbe2p+7f, 0x3f800000u, 0xb18fd1deu },
    { 0x1.81cd6cp+13f, 0xbf344b08u, 0x3f35be20u },
    { 0x1.86ap+16f, 0x3d126d55u, 0xbf7fd61cu },
    { -0x1.869fep+16f, 0xbe23e80fu, 0xbf7cb303u },
    { 0x1.a2d9bcp+14f, 0x3f3367acu, 0xbf369e92u },
    { 0x1.0624dep-10f, 0x3a83126eu, 0x3f7ffff8u },
};

/* rpy (0.1, -0.7, 2.9); quaternion (1, 2, 3, 4); axis (1, 1, 1), angle 2 */
static const uint32_t k_pose_bits[3][9] = {
    { 0xbf3e1cfau, 0xbe33d26bu, 0x3f2571dcu, 0x3e3b612fu, 0xbf7b433cu, 0xbd671d69u, 0x3f24eb73u, 0x3d9c60f4u,
      0x3f42d248u },
    { 0x3e088884u, 0xbf2aaaabu, 0x3f3bbbbcu, 0x3f6eeef0u, 0x3eaaaaaau, 0x3e088889u, 0xbeaaaaabu, 0x3f2aaaabu,
      0x3f2aaaaau },
    { 0x3d64f9a0u, 0xbd58d180u, 0x3f7f3d7eu, 0x3f7f3d7eu, 0x3d64f9a0u, 0xbd58d180u, 0xbd58d180u, 0x3f7f3d7eu,
      0x3d64f9a0u },
};

/* FNV-1a over the results of test_same_bits' loop (2000 angles, 3 x 100 poses, compositions and
 * inverses), computed once on the host. */
#define K_SAME_BITS_HASH 0x80af864cu

static void test_same_bits(void)
{
    copse_pose p[3], q, acc = copse_pose_identity();
    uint32_t h = 2166136261u;
    unsigned i, j;
    test_rng rng;
    for (i = 0; i < sizeof k_sincos_bits / sizeof k_sincos_bits[0]; i++) {
        float s, c;
        copse_geo_sincos(k_sincos_bits[i].angle, &s, &c);
        CHECKF(bits_of(s) == k_sincos_bits[i].sin_bits && bits_of(c) == k_sincos_bits[i].cos_bits,
               "sincos(%.9g): %08x %08x, the host gave %08x %08x", (double)k_sincos_bits[i].angle,
               (unsigned)bits_of(s), (unsigned)bits_of(c), (unsigned)k_sincos_bits[i].sin_bits,
               (unsigned)k_sincos_bits[i].cos_bits);
    }
    CHECK_STATUS(copse_pose_from_xyz_rpy(&p[0], copse_v3(1, 2, 3), copse_v3(0.1f, -0.7f, 2.9f)), COPSE_OK);
    {
        copse_quat qq;
        qq.x = 1.0f;
        qq.y = 2.0f;
        qq.z = 3.0f;
        qq.w = 4.0f;
        CHECK_STATUS(copse_pose_from_quat(&p[1], qq, copse_v3(1, 2, 3)), COPSE_OK);
    }
    CHECK_STATUS(copse_pose_from_axis_angle(&p[2], copse_v3(1, 1, 1), 2.0f, copse_v3(1, 2, 3)), COPSE_OK);
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 9u; j++)
            CHECKF(bits_of(p[i].rotation[j / 3u][j % 3u]) == k_pose_bits[i][j],
                   "pose %u entry %u: %08x, the host gave %08x", i, j,
                   (unsigned)bits_of(p[i].rotation[j / 3u][j % 3u]), (unsigned)k_pose_bits[i][j]);
    test_rng_seed(&rng, 777u);
    for (i = 0; i < 2000u; i++) {
        float s, c;
        copse_geo_sincos(test_rng_float(&rng, -COPSE_MAX_ANGLE, COPSE_MAX_ANGLE) * (i % 2u ? 1.0f : 1.0e-4f), &s, &c);
        h = fnv(fnv(h, s), c);
    }
    for (i = 0; i < 100u; i++) {
        copse_quat qq;
        copse_vec3 t = rng_vec(&rng, -9, 9);
        qq.x = test_rng_float(&rng, -1, 1);
        qq.y = test_rng_float(&rng, -1, 1);
        qq.z = test_rng_float(&rng, -1, 1);
        qq.w = test_rng_float(&rng, -1, 1);
        (void)copse_pose_from_quat(&p[0], qq, t);
        (void)copse_pose_from_xyz_rpy(&p[1], t, copse_v3(qq.x * 4.0f, qq.y * 4.0f, qq.z * 4.0f));
        (void)copse_pose_from_axis_angle(&p[2], copse_v3(qq.x, qq.y, qq.z), qq.w * 7.0f, t);
        for (j = 0; j < 3u; j++) {
            h = fnv_pose(h, &p[j]);
            (void)copse_pose_compose(&acc, &acc, &p[j]);
        }
        (void)copse_pose_invert(&q, &acc);
        h = fnv_pose(fnv_pose(h, &acc), &q);
        {
            copse_vec3 a = copse_pose_apply(&q, t), b = copse_pose_apply_inverse(&acc, t);
            h = fnv(fnv(fnv(fnv(fnv(fnv(h, a.x), a.y), a.z), b.x), b.y), b.z);
        }
    }
    CHECKF(h == K_SAME_BITS_HASH, "hash %08x, the host gave %08x", (unsigned)h, (unsigned)K_SAME_BITS_HASH);
    copse_port_printf("info geom_pose same-bits hash %08x\n", (unsigned)h);
}

/* ---- constructors against the oracles ---------------------------------------------------------- */

static double g_worst_rot; /* the largest entry error seen, for the report */

static void judge_rotation(const copse_pose *p, const dmat *want, const char *what, double a, double b, double c)
{
    double d = d_max_diff(p, want);
    g_worst_rot = d > g_worst_rot ? d : g_worst_rot;
    CHECKF(d <= ROT_TOL, "%s(%.9g, %.9g, %.9g): entry off by %.3g", what, a, b, c, d);
    CHECK_STATUS(copse_pose_check(p), COPSE_OK);
}

static void judge_rpy(float r, float p, float y)
{
    copse_pose pose;
    copse_vec3 t = copse_v3(r * 3.0f, -p, y + 1.0f);
    dmat want;
    CHECK_STATUS(copse_pose_from_xyz_rpy(&pose, t, copse_v3(r, p, y)), COPSE_OK);
    d_rpy(&want, (double)r, (double)p, (double)y);
    judge_rotation(&pose, &want, "rpy", (double)r, (double)p, (double)y);
    CHECK(memcmp(&pose.translation, &t, sizeof t) == 0);
}

static void test_rpy(void)
{
    const float half_pi = 1.57079637f; /* the float nearest pi/2 */
    unsigned n = scaled(20000u, 5000u, 500u), i;
    int k;
    test_rng rng;
    test_rng_seed(&rng, 31337u);
    g_worst_rot = 0.0;
    for (i = 0; i < n; i++) {
        float lim = i % 8u == 7u ? COPSE_MAX_ANGLE : 3.2f;
        float v[3];
        rng_fill(&rng, v, 3u, -lim, lim);
        judge_rpy(v[0], v[1], v[2]);
    }
    /* gimbal lock: pitch +-pi/2, where roll and yaw turn about the same axis */
    for (i = 0; i < 64u; i++) {
        float r = test_rng_float(&rng, -3.2f, 3.2f), y = test_rng_float(&rng, -3.2f, 3.2f);
        judge_rpy(r, half_pi, y);
        judge_rpy(r, -half_pi, y);
        judge_rpy(r, nextafterf(half_pi, 0.0f), y);
    }
    /* multiples of pi/2 on every axis, and angles at the ends of the range */
    for (k = -6; k <= 6; k++) {
        float a = (float)k * half_pi;
        judge_rpy(a, 0.0f, 0.0f);
        judge_rpy(0.0f, a, 0.0f);
        judge_rpy(0.0f, 0.0f, a);
        judge_rpy(a, a, -a);
    }
    judge_rpy(COPSE_MAX_ANGLE, -COPSE_MAX_ANGLE, COPSE_MAX_ANGLE);
    judge_rpy(nextafterf(COPSE_MAX_ANGLE, 0.0f), 99999.5f, -99998.25f);
    {
        copse_pose pose;
        CHECK_STATUS(copse_pose_from_xyz_rpy(&pose, copse_v3(0, 0, 0), copse_v3(0, 0, 0)), COPSE_OK);
        CHECK(is_identity(&pose));
    }
    copse_port_printf("info geom_pose rpy: %u poses, largest entry error %.3g\n", n, g_worst_rot);
}

static void judge_quat(float x, float y, float z, float w)
{
    copse_pose pose;
    copse_quat q;
    dmat want;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    CHECK_STATUS(copse_pose_from_quat(&pose, q, copse_v3(x, 5.0f, -w)), COPSE_OK);
    d_quat(&want, (double)x, (double)y, (double)z, (double)w);
    judge_rotation(&pose, &want, "quat xyz", (double)x, (double)y, (double)z);
    CHECK(pose.translation.x == x && pose.translation.y == 5.0f && pose.translation.z == -w);
}

static void test_quat(void)
{
    static const float scales[] = { 1.0f, 1.0e-30f, 1.0e30f, 3.0e38f, 1.0e-40f, 0x1p-149f };
    unsigned n = scaled(20000u, 5000u, 500u), i, k;
    test_rng rng;
    test_rng_seed(&rng, 4711u);
    g_worst_rot = 0.0;
    for (i = 0; i < n; i++) {
        float s = scales[i % (sizeof scales / sizeof scales[0] - 1u)];
        float v[4];
        rng_fill(&rng, v, 4u, -1, 1);
        judge_quat(v[0] * s, v[1] * s, v[2] * s, v[3] * s);
    }
    /* one component only, of any size, either sign: the half turns and the identity */
    for (k = 0; k < 4u; k++)
        for (i = 0; i < sizeof scales / sizeof scales[0]; i++) {
            float v[4] = { 0, 0, 0, 0 };
            v[k] = i % 2u ? -scales[i] : scales[i];
            judge_quat(v[0], v[1], v[2], v[3]);
        }
    /* components of very different sizes */
    judge_quat(FLT_MAX, 1.0f, 0x1p-149f, -FLT_MAX);
    judge_quat(1.0e-38f, 3.0e-39f, 0.0f, 0x1p-149f);
    copse_port_printf("info geom_pose quat: %u poses, largest entry error %.3g\n", n, g_worst_rot);
}

static void judge_axis_angle(float x, float y, float z, float angle)
{
    copse_pose pose;
    copse_vec3 t = copse_v3(-1.0f, angle, 2.0f);
    dmat want;
    CHECK_STATUS(copse_pose_from_axis_angle(&pose, copse_v3(x, y, z), angle, t), COPSE_OK);
    d_axis_angle(&want, (double)x, (double)y, (double)z, (double)angle);
    judge_rotation(&pose, &want, "axis", (double)x, (double)y, (double)z);
    CHECK(memcmp(&pose.translation, &t, sizeof t) == 0);
}

static void test_axis_angle(void)
{
    static const float scales[] = { 1.0f, 1.0e-30f, 1.0e30f, 3.0e38f, 1.0e-40f };
    unsigned n = scaled(20000u, 5000u, 500u), i;
    int k;
    test_rng rng;
    test_rng_seed(&rng, 90210u);
    g_worst_rot = 0.0;
    for (i = 0; i < n; i++) {
        float s = scales[i % (sizeof scales / sizeof scales[0])], lim = i % 8u == 7u ? COPSE_MAX_ANGLE : 7.0f;
        float v[4];
        rng_fill(&rng, v, 3u, -1, 1);
        v[3] = test_rng_float(&rng, -lim, lim);
        judge_axis_angle(v[0] * s, v[1] * s, v[2] * s, v[3]);
    }
    for (k = -8; k <= 8; k++) { /* multiples of pi/2 about each coordinate axis and a diagonal */
        float a = (float)k * 1.57079637f;
        judge_axis_angle(1, 0, 0, a);
        judge_axis_angle(0, -2, 0, a);
        judge_axis_angle(0, 0, 1e-20f, a);
        judge_axis_angle(1, 1, 1, a);
    }
    judge_axis_angle(0x1p-149f, 0, 0, 1.0f);
    judge_axis_angle(FLT_MAX, FLT_MAX, -FLT_MAX, 1.0f);
    judge_axis_angle(0, 1, 0, COPSE_MAX_ANGLE);
    judge_axis_angle(0, 1, 0, -COPSE_MAX_ANGLE);
    { /* about z, the same rotation as a yaw */
        copse_pose a, b;
        dmat want;
        CHECK_STATUS(copse_pose_from_axis_angle(&a, copse_v3(0, 0, 3), 0.6f, copse_v3(0, 0, 0)), COPSE_OK);
        CHECK_STATUS(copse_pose_from_xyz_rpy(&b, copse_v3(0, 0, 0), copse_v3(0, 0, 0.6f)), COPSE_OK);
        d_of_pose(&want, &b);
        CHECK(d_max_diff(&a, &want) <= ROT_TOL);
    }
    copse_port_printf("info geom_pose axis-angle: %u poses, largest entry error %.3g\n", n, g_worst_rot);
}

/* Errors: the status, and *out the identity whatever it held. */
static void test_constructor_errors(void)
{
    const float nan = float_of(0x7fc00000u), inf = float_of(0x7f800000u);
    copse_pose p;
    copse_quat q;
    unsigned k;
    q.x = q.y = q.z = q.w = 0.0f;
    garbage(&p, sizeof p);
    CHECK_STATUS(copse_pose_from_quat(&p, q, copse_v3(1, 2, 3)), COPSE_ERR_PARAM);
    CHECK(is_identity(&p));
    q.x = -0.0f;
    q.w = -0.0f;
    garbage(&p, sizeof p);
    CHECK_STATUS(copse_pose_from_quat(&p, q, copse_v3(1, 2, 3)), COPSE_ERR_PARAM);
    CHECK(is_identity(&p));
    for (k = 0; k < 7u; k++) { /* NaN or infinity in each input of each constructor */
        float v[7] = { 0.5f, 0.25f, -0.5f, 1.0f, 1.0f, 2.0f, 3.0f };
        v[k] = k % 2u ? nan : (k % 4u ? inf : -inf);
        q.x = v[0];
        q.y = v[1];
        q.z = v[2];
        q.w = v[3];
        garbage(&p, sizeof p);
        CHECK_STATUS(copse_pose_from_quat(&p, q, copse_v3(v[4], v[5], v[6])), COPSE_ERR_NONFINITE);
        CHECK(is_identity(&p));
        garbage(&p, sizeof p);
        CHECK_STATUS(copse_pose_from_axis_angle(&p, copse_v3(v[0], v[1], v[2]), v[3], copse_v3(v[4], v[5], v[6])),
                     COPSE_ERR_NONFINITE);
        CHECK(is_identity(&p));
        if (k != 3u) {
            garbage(&p, sizeof p);
            CHECK_STATUS(copse_pose_from_xyz_rpy(&p, copse_v3(v[4], v[5], v[6]), copse_v3(v[0], v[1], v[2])),
                         COPSE_ERR_NONFINITE);
            CHECK(is_identity(&p));
        }
    }
    for (k = 0; k < 3u; k++) { /* each angle out of range */
        float v[3] = { 0.5f, 0.25f, -0.5f };
        v[k] = k == 1u ? -nextafterf(COPSE_MAX_ANGLE, FLT_MAX) : 1.0e30f;
        garbage(&p, sizeof p);
        CHECK_STATUS(copse_pose_from_xyz_rpy(&p, copse_v3(1, 2, 3), copse_v3(v[0], v[1], v[2])), COPSE_ERR_PARAM);
        CHECK(is_identity(&p));
    }
    garbage(&p, sizeof p);
    CHECK_STATUS(copse_pose_from_axis_angle(&p, copse_v3(1, 0, 0), nextafterf(COPSE_MAX_ANGLE, FLT_MAX),
                                            copse_v3(1, 2, 3)),
                 COPSE_ERR_PARAM);
    CHECK(is_identity(&p));
    garbage(&p, sizeof p);
    CHECK_STATUS(copse_pose_from_axis_angle(&p, copse_v3(0, -0.0f, 0), 1.0f, copse_v3(1, 2, 3)), COPSE_ERR_PARAM);
    CHECK(is_identity(&p));
    /* NONFINITE before PARAM */
    CHECK_STATUS(copse_pose_from_axis_angle(&p, copse_v3(0, 0, 0), 1.0f, copse_v3(nan, 2, 3)), COPSE_ERR_NONFINITE);
    CHECK_STATUS(copse_pose_from_xyz_rpy(&p, copse_v3(inf, 0, 0), copse_v3(1.0e6f, 0, 0)), COPSE_ERR_NONFINITE);
    /* NULL out */
    q.x = 1.0f;
    CHECK_STATUS(copse_pose_from_quat(NULL, q, copse_v3(0, 0, 0)), COPSE_ERR_NULL);
    CHECK_STATUS(copse_pose_from_xyz_rpy(NULL, copse_v3(0, 0, 0), copse_v3(0, 0, 0)), COPSE_ERR_NULL);
    CHECK_STATUS(copse_pose_from_axis_angle(NULL, copse_v3(1, 0, 0), 1.0f, copse_v3(0, 0, 0)), COPSE_ERR_NULL);
}

/* ---- compose, invert, apply ---------------------------------------------------------------------- */

static double vmax3(const double v[3])
{
    double m = fabs(v[0]);
    m = fabs(v[1]) > m ? fabs(v[1]) : m;
    return fabs(v[2]) > m ? fabs(v[2]) : m;
}

static void to_d(double out[3], copse_vec3 v)
{
    out[0] = (double)v.x;
    out[1] = (double)v.y;
    out[2] = (double)v.z;
}

static double dist_inf(copse_vec3 a, const double b[3])
{
    double d[3];
    to_d(d, a);
    d[0] -= b[0];
    d[1] -= b[1];
    d[2] -= b[2];
    return vmax3(d);
}

static void test_compose_invert(void)
{
    unsigned n = scaled(5000u, 1000u, 150u), i, j, k;
    double worst_trip = 0.0, worst_assoc = 0.0, worst_id = 0.0;
    test_rng rng;
    test_rng_seed(&rng, 2024u);
    for (i = 0; i < n; i++) {
        float reach = i % 4u == 3u ? 1.0e6f : 50.0f;
        copse_pose a = random_pose(&rng, reach), b = random_pose(&rng, reach), c = random_pose(&rng, reach);
        copse_pose ab, bc, ab_c, a_bc, inv, back, o;
        copse_vec3 x = rng_vec(&rng, -reach, reach);
        double xd[3], y[3], z[3], w[3], scale, tmax;
        dmat ra, rb, rab;
        to_d(xd, x);

        /* compose: against the double product of the float inputs (gamma_3 bound per entry) */
        CHECK_STATUS(copse_pose_compose(&ab, &a, &b), COPSE_OK);
        d_of_pose(&ra, &a);
        d_of_pose(&rb, &b);
        d_mul(&rab, &ra, &rb);
        CHECK(d_max_diff(&ab, &rab) <= 3.0 * 3.0 * EPS);
        d_apply(y, &b, xd);
        d_apply(z, &a, y); /* a(b(x)) in double */
        d_apply(w, &ab, xd);
        tmax = vmax3(xd) + (double)fabsf(a.translation.x) + (double)fabsf(a.translation.y) +
               (double)fabsf(a.translation.z) + (double)fabsf(b.translation.x) + (double)fabsf(b.translation.y) +
               (double)fabsf(b.translation.z);
        CHECKF(fabs(w[0] - z[0]) + fabs(w[1] - z[1]) + fabs(w[2] - z[2]) <= 16.0 * EPS * tmax,
               "compose(a, b) x vs a(b(x)): %.3g of %.3g", fabs(w[0] - z[0]) + fabs(w[1] - z[1]) + fabs(w[2] - z[2]),
               tmax);
        CHECK_STATUS(copse_pose_check(&ab), COPSE_OK);

        /* associativity within tolerance */
        CHECK_STATUS(copse_pose_compose(&bc, &b, &c), COPSE_OK);
        CHECK_STATUS(copse_pose_compose(&ab_c, &ab, &c), COPSE_OK);
        CHECK_STATUS(copse_pose_compose(&a_bc, &a, &bc), COPSE_OK);
        {
            double d = 0.0, ts = 3.0 * (double)reach;
            dmat m;
            d_of_pose(&m, &a_bc);
            d = d_max_diff(&ab_c, &m);
            worst_assoc = d > worst_assoc ? d : worst_assoc;
            CHECKF(d <= 8.0 * EPS, "(ab)c vs a(bc): rotation entry off by %.3g", d);
            y[0] = (double)a_bc.translation.x;
            y[1] = (double)a_bc.translation.y;
            y[2] = (double)a_bc.translation.z;
            CHECK(dist_inf(ab_c.translation, y) <= 16.0 * EPS * ts);
        }

        /* invert: R^T, -R^T t; round trips within a few ulps of |x| + |t| */
        CHECK_STATUS(copse_pose_invert(&inv, &a), COPSE_OK);
        for (j = 0; j < 3u; j++)
            for (k = 0; k < 3u; k++)
                CHECK(inv.rotation[j][k] == a.rotation[k][j]);
        CHECK_STATUS(copse_pose_check(&inv), COPSE_OK);
        scale = vmax3(xd) + (double)fabsf(a.translation.x) + (double)fabsf(a.translation.y) +
                (double)fabsf(a.translation.z);
        {
            copse_vec3 fx = copse_pose_apply(&a, x), r1 = copse_pose_apply(&inv, fx),
                       r2 = copse_pose_apply_inverse(&a, fx);
            double e1 = dist_inf(r1, xd), e2 = dist_inf(r2, xd);
            worst_trip = e1 / scale > worst_trip ? e1 / scale : worst_trip;
            worst_trip = e2 / scale > worst_trip ? e2 / scale : worst_trip;
            CHECKF(e1 <= 8.0 * EPS * scale && e2 <= 8.0 * EPS * scale,
                   "round trip off by %.3g, %.3g of %.3g", e1, e2, scale);
            /* apply against the double oracle, apply_dir is apply without the translation */
            d_apply(y, &a, xd);
            CHECK(dist_inf(fx, y) <= 4.0 * EPS * scale);
            fx = copse_pose_apply_dir(&a, x);
            y[0] -= (double)a.translation.x;
            y[1] -= (double)a.translation.y;
            y[2] -= (double)a.translation.z;
            CHECK(dist_inf(fx, y) <= 4.0 * EPS * scale);
        }
        CHECK_STATUS(copse_pose_compose(&back, &inv, &a), COPSE_OK); /* inv(a) a = identity */
        {
            dmat id;
            for (j = 0; j < 3u; j++)
                for (k = 0; k < 3u; k++)
                    id.m[j][k] = j == k ? 1.0 : 0.0;
            double d = d_max_diff(&back, &id);
            worst_id = d > worst_id ? d : worst_id;
            CHECKF(d <= 2.0 * ROT_TOL + 3.0 * EPS, "inv(a) a: %.3g from the identity", d);
            y[0] = y[1] = y[2] = 0.0;
            CHECK(dist_inf(back.translation, y) <= 8.0 * EPS * scale);
        }

        /* out may be either input: the same bits as into a separate pose */
        o = a;
        CHECK_STATUS(copse_pose_compose(&o, &o, &b), COPSE_OK);
        CHECK(same_pose_bits(&o, &ab));
        o = b;
        CHECK_STATUS(copse_pose_compose(&o, &a, &o), COPSE_OK);
        CHECK(same_pose_bits(&o, &ab));
        o = a;
        CHECK_STATUS(copse_pose_compose(&o, &o, &o), COPSE_OK);
        CHECK_STATUS(copse_pose_compose(&back, &a, &a), COPSE_OK);
        CHECK(same_pose_bits(&o, &back));
        o = a;
        CHECK_STATUS(copse_pose_invert(&o, &o), COPSE_OK);
        CHECK(same_pose_bits(&o, &inv));
    }
    { /* chains of 10 compositions stay rotations; so do 1000 */
        copse_pose acc = copse_pose_identity(), p;
        for (i = 0; i < 1000u; i++) {
            p = random_pose(&rng, 10.0f);
            CHECK_STATUS(copse_pose_compose(&acc, &acc, &p), COPSE_OK);
            if (i == 9u || i == 999u)
                CHECK_STATUS(copse_pose_check(&acc), COPSE_OK);
        }
        CHECK_STATUS(copse_pose_invert(&p, &acc), COPSE_OK);
        CHECK_STATUS(copse_pose_check(&p), COPSE_OK);
    }
    { /* a NULL pose is the identity, to the bit */
        copse_vec3 v = copse_v3(-0.0f, 3.5f, -1.0e30f), r;
        r = copse_pose_apply(NULL, v);
        CHECK(memcmp(&r, &v, sizeof v) == 0);
        r = copse_pose_apply_dir(NULL, v);
        CHECK(memcmp(&r, &v, sizeof v) == 0);
        r = copse_pose_apply_inverse(NULL, v);
        CHECK(memcmp(&r, &v, sizeof v) == 0);
    }
    { /* hand-built: a quarter turn about z and a translation */
        copse_pose p, inv;
        copse_vec3 r;
        CHECK_STATUS(copse_pose_from_axis_angle(&p, copse_v3(0, 0, 1), 1.57079637f, copse_v3(10, 0, 0)), COPSE_OK);
        r = copse_pose_apply(&p, copse_v3(1, 0, 0));
        CHECK(fabsf(r.x - 10.0f) <= 1e-6f && fabsf(r.y - 1.0f) <= 1e-6f && r.z == 0.0f);
        r = copse_pose_apply_dir(&p, copse_v3(1, 0, 0));
        CHECK(fabsf(r.x) <= 1e-6f && fabsf(r.y - 1.0f) <= 1e-6f && r.z == 0.0f);
        r = copse_pose_apply_inverse(&p, copse_v3(10, 1, 0));
        CHECK(fabsf(r.x - 1.0f) <= 1e-6f && fabsf(r.y) <= 1e-6f && r.z == 0.0f);
        CHECK_STATUS(copse_pose_invert(&inv, &p), COPSE_OK);
        CHECK(fabsf(inv.translation.x) <= 1e-5f && fabsf(inv.translation.y - 10.0f) <= 1e-5f);
    }
    copse_port_printf("info geom_pose compose/invert: %u triples, round trip %.2f ulps of |x| + |t|, "
                      "associativity %.3g, inv(a) a - I %.3g\n", n, worst_trip / EPS, worst_assoc, worst_id);
}

static void test_compose_errors(void)
{
    const float nan = float_of(0x7fc00000u);
    copse_pose a = copse_pose_translation(copse_v3(1, 2, 3)), o;
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_pose_compose(&o, NULL, &a), COPSE_ERR_NULL);
    CHECK(is_identity(&o));
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_pose_compose(&o, &a, NULL), COPSE_ERR_NULL);
    CHECK(is_identity(&o));
    CHECK_STATUS(copse_pose_compose(NULL, &a, &a), COPSE_ERR_NULL);
    CHECK_STATUS(copse_pose_compose(NULL, NULL, NULL), COPSE_ERR_NULL);
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_pose_invert(&o, NULL), COPSE_ERR_NULL);
    CHECK(is_identity(&o));
    CHECK_STATUS(copse_pose_invert(NULL, &a), COPSE_ERR_NULL);
    /* invert needs a rotation */
    a.rotation[0][0] = 2.0f;
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_pose_invert(&o, &a), COPSE_ERR_PARAM);
    CHECK(is_identity(&o));
    a.rotation[0][0] = 1.0f;
    a.translation.y = nan;
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_pose_invert(&o, &a), COPSE_ERR_NONFINITE);
    CHECK(is_identity(&o));
    a.translation.y = 2.0f;
    CHECK_STATUS(copse_pose_invert(&a, &a), COPSE_OK);
    CHECK(a.translation.x == -1.0f && a.translation.y == -2.0f && a.translation.z == -3.0f);
}

/* ---- checks ---------------------------------------------------------------------------------------- */

static void test_check(void)
{
    const float tol = COPSE_POSE_TOLERANCE, nan = float_of(0x7fc00000u), inf = float_of(0x7f800000u);
    test_rng rng;
    copse_pose base, p;
    unsigned i, j, k;
    test_rng_seed(&rng, 99u);
    base = random_pose(&rng, 10.0f);
    CHECK_STATUS(copse_pose_check(&base), COPSE_OK);
    CHECK_STATUS(copse_pose_check(NULL), COPSE_ERR_NULL);
    CHECK_STATUS(copse_geo_pose_status(NULL), COPSE_OK);
    CHECK_STATUS(copse_geo_pose_status(&base), COPSE_OK);
    for (i = 0; i < 3u; i++) {
        /* a column scaled by 1 + 2 tol (its squared length is off by 4 tol): not a rotation; by
         * 1 + tol / 4 (off by tol / 2): within tolerance */
        p = base;
        for (j = 0; j < 3u; j++)
            p.rotation[j][i] *= 1.0f + 2.0f * tol;
        CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
        CHECK_STATUS(copse_geo_pose_status(&p), COPSE_ERR_PARAM);
        p = base;
        for (j = 0; j < 3u; j++)
            p.rotation[j][i] *= 1.0f - 2.0f * tol;
        CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
        p = base;
        for (j = 0; j < 3u; j++)
            p.rotation[j][i] *= 1.0f + 0.25f * tol;
        CHECK_STATUS(copse_pose_check(&p), COPSE_OK);
        /* a mirror: one column negated (det -1), still orthonormal */
        p = base;
        for (j = 0; j < 3u; j++)
            p.rotation[j][i] = -p.rotation[j][i];
        CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
        /* a shear: column i plus 3 tol times column (i + 1) */
        p = base;
        for (j = 0; j < 3u; j++)
            p.rotation[j][i] += 3.0f * tol * p.rotation[j][(i + 1u) % 3u];
        CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
    }
    /* the whole matrix scaled, and the pure mirrors and half turns of the axes */
    p = base;
    for (i = 0; i < 9u; i++)
        p.rotation[i / 3u][i % 3u] *= 1.0f + 2.0f * tol;
    CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
    for (k = 0; k < 8u; k++) {
        p = copse_pose_identity();
        for (i = 0; i < 3u; i++)
            p.rotation[i][i] = (k >> i) & 1u ? -1.0f : 1.0f;
        CHECK_STATUS(copse_pose_check(&p), k == 0u || k == 3u || k == 5u || k == 6u ? COPSE_OK : COPSE_ERR_PARAM);
    }
    p = copse_pose_identity(); /* a zero matrix, and a permutation with det -1 */
    for (i = 0; i < 9u; i++)
        p.rotation[i / 3u][i % 3u] = 0.0f;
    CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
    p = copse_pose_identity();
    p.rotation[0][0] = p.rotation[1][1] = 0.0f;
    p.rotation[0][1] = p.rotation[1][0] = 1.0f;
    CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_PARAM);
    /* NaN and both infinities in each of the 12 entries; a huge finite entry is PARAM */
    for (i = 0; i < 12u; i++) {
        static const uint32_t bad[4] = { 0x7fc00000u, 0x7f800000u, 0xff800000u, 0x7f7fffffu };
        for (k = 0; k < 4u; k++) {
            float v = float_of(bad[k]);
            p = base;
            if (i < 9u)
                p.rotation[i / 3u][i % 3u] = v;
            else if (i == 9u)
                p.translation.x = v;
            else if (i == 10u)
                p.translation.y = v;
            else
                p.translation.z = v;
            CHECK_STATUS(copse_pose_check(&p), k == 3u ? (i < 9u ? COPSE_ERR_PARAM : COPSE_OK) : COPSE_ERR_NONFINITE);
        }
    }
    /* NONFINITE wins over PARAM */
    p = base;
    p.rotation[0][0] = 5.0f;
    p.translation.z = nan;
    CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_NONFINITE);
    p.translation.z = 0.0f;
    p.rotation[2][2] = -inf;
    CHECK_STATUS(copse_pose_check(&p), COPSE_ERR_NONFINITE);
}

/* An obb as copse_obb_from_box leaves it on an error. */
#define OBB_ZEROED(o)                                                                                           \
    ((o).center.x == 0.0f && (o).center.y == 0.0f && (o).center.z == 0.0f && (o).half.x == 0.0f &&          \
     (o).half.y == 0.0f && (o).half.z == 0.0f && (o).rotation[0][0] == 1.0f && (o).rotation[1][1] == 1.0f && \
     (o).rotation[2][2] == 1.0f && (o).rotation[0][1] == 0.0f && (o).rotation[0][2] == 0.0f &&               \
     (o).rotation[1][0] == 0.0f && (o).rotation[1][2] == 0.0f && (o).rotation[2][0] == 0.0f &&               \
     (o).rotation[2][1] == 0.0f)

static void test_obb(void)
{
    const float nan = float_of(0x7fc00000u), inf = float_of(0x7f800000u);
    unsigned n = scaled(5000u, 1000u, 150u), i, j, k;
    test_rng rng;
    copse_obb o;
    copse_box3 box;
    copse_pose p;
    double worst = 0.0;
    test_rng_seed(&rng, 5150u);
    for (i = 0; i < n; i++) {
        float reach = i % 3u == 2u ? 1.0e5f : 20.0f;
        double c[3], want[3], scale;
        p = random_pose(&rng, reach);
        for (k = 0; k < 3u; k++) {
            float a = test_rng_float(&rng, -reach, reach), b = test_rng_float(&rng, -reach, reach);
            float lo = a < b ? a : b, hi = a < b ? b : a;
            if (k == 0u)
                box.min.x = lo, box.max.x = hi;
            else if (k == 1u)
                box.min.y = lo, box.max.y = hi;
            else
                box.min.z = i % 5u == 0u ? hi : lo, box.max.z = hi; /* flat boxes too */
        }
        garbage(&o, sizeof o);
        CHECK_STATUS(copse_obb_from_box(&o, &box, i % 7u == 0u ? NULL : &p), COPSE_OK);
        c[0] = ((double)box.min.x + (double)box.max.x) / 2.0;
        c[1] = ((double)box.min.y + (double)box.max.y) / 2.0;
        c[2] = ((double)box.min.z + (double)box.max.z) / 2.0;
        if (i % 7u == 0u) {
            memcpy(want, c, sizeof c); /* no pose: the identity */
            for (j = 0; j < 9u; j++)
                CHECK(o.rotation[j / 3u][j % 3u] == (j % 4u == 0u ? 1.0f : 0.0f));
        } else {
            d_apply(want, &p, c);
            for (j = 0; j < 9u; j++)
                CHECK(o.rotation[j / 3u][j % 3u] == p.rotation[j / 3u][j % 3u]);
        }
        scale = vmax3(c) + (i % 7u == 0u ? 0.0 : (double)reach * 3.0);
        {
            double e = dist_inf(o.center, want);
            worst = e / scale > worst ? e / scale : worst;
            CHECKF(e <= 4.0 * EPS * scale, "obb centre off by %.3g of %.3g", e, scale);
        }
        /* half extents: (max - min) / 2 within half an ulp (one rounding) */
        CHECK(fabs((double)o.half.x - ((double)box.max.x - (double)box.min.x) / 2.0) <= 0.5 * EPS * (double)o.half.x);
        CHECK(fabs((double)o.half.y - ((double)box.max.y - (double)box.min.y) / 2.0) <= 0.5 * EPS * (double)o.half.y);
        CHECK(fabs((double)o.half.z - ((double)box.max.z - (double)box.min.z) / 2.0) <= 0.5 * EPS * (double)o.half.z);
        CHECK(o.half.x >= 0.0f && o.half.y >= 0.0f && o.half.z >= 0.0f);
        CHECK_STATUS(copse_obb_check(&o), COPSE_OK);
    }
    /* the whole float range: no overflow in the centre or the half extents */
    box = copse_box3_make(-FLT_MAX, -FLT_MAX, 0.0f, FLT_MAX, FLT_MAX, FLT_MAX);
    CHECK_STATUS(copse_obb_from_box(&o, &box, NULL), COPSE_OK);
    CHECK(o.center.x == 0.0f && o.center.y == 0.0f && o.center.z == FLT_MAX * 0.5f);
    CHECK(o.half.x == FLT_MAX && o.half.y == FLT_MAX && o.half.z == FLT_MAX * 0.5f);
    /* a pose that carries the centre past FLT_MAX: NONFINITE, *out zeroed */
    p = copse_pose_translation(copse_v3(FLT_MAX, 0, 0));
    box = copse_box3_make(FLT_MAX, 0, 0, FLT_MAX, 1, 1);
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_ERR_NONFINITE);
    CHECK(OBB_ZEROED(o));
    /* errors, each with *out zeroed */
    p = random_pose(&rng, 1.0f);
    for (k = 0; k < 6u; k++) { /* min > max on one axis (by one ulp), NaN, infinity */
        float v[6] = { -1, -2, -3, 1, 2, 3 };
        v[k] = k < 3u ? nextafterf(v[k + 3u], FLT_MAX) : nextafterf(v[k - 3u], -FLT_MAX);
        box = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
        garbage(&o, sizeof o);
        CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_ERR_EMPTY_RANGE);
        CHECK(OBB_ZEROED(o));
        v[k] = k % 2u ? nan : (k < 3u ? -inf : inf);
        box = copse_box3_make(v[0], v[1], v[2], v[3], v[4], v[5]);
        garbage(&o, sizeof o);
        CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_ERR_NONFINITE);
        CHECK(OBB_ZEROED(o));
    }
    box = copse_box3_make(-1, -1, -1, 1, 1, 1);
    CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_OK);
    p.rotation[1][1] *= 1.01f;
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_ERR_PARAM);
    CHECK(OBB_ZEROED(o));
    p.rotation[1][1] = nan;
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_obb_from_box(&o, &box, &p), COPSE_ERR_NONFINITE);
    CHECK(OBB_ZEROED(o));
    garbage(&o, sizeof o);
    CHECK_STATUS(copse_obb_from_box(&o, NULL, NULL), COPSE_ERR_NULL);
    CHECK(OBB_ZEROED(o));
    CHECK_STATUS(copse_obb_from_box(NULL, &box, NULL), COPSE_ERR_NULL);
    /* a point box is an obb with zero half extents */
    box = copse_box3_make(2, 3, 4, 2, 3, 4);
    CHECK_STATUS(copse_obb_from_box(&o, &box, NULL), COPSE_OK);
    CHECK(o.center.x == 2.0f && o.center.y == 3.0f && o.center.z == 4.0f && o.half.x == 0.0f);
    copse_port_printf("info geom_pose obb: %u boxes, centre %.2f ulps of the scale\n", n, worst / (double)EPS);
}

static void test_obb_check(void)
{
    static const uint32_t bad[3] = { 0x7fc00000u, 0x7f800000u, 0xff800000u };
    test_rng rng;
    copse_obb base, o;
    copse_box3 box = copse_box3_make(-1, -2, -3, 4, 5, 6);
    copse_pose p;
    unsigned i, k;
    test_rng_seed(&rng, 8u);
    p = random_pose(&rng, 5.0f);
    CHECK_STATUS(copse_obb_from_box(&base, &box, &p), COPSE_OK);
    CHECK_STATUS(copse_obb_check(&base), COPSE_OK);
    CHECK_STATUS(copse_obb_check(NULL), COPSE_ERR_NULL);
    for (i = 0; i < 15u; i++) /* NaN and infinities in each entry */
        for (k = 0; k < 3u; k++) {
            float v = float_of(bad[k]);
            o = base;
            if (i < 9u)
                o.rotation[i / 3u][i % 3u] = v;
            else if (i == 9u)
                o.center.x = v;
            else if (i == 10u)
                o.center.y = v;
            else if (i == 11u)
                o.center.z = v;
            else if (i == 12u)
                o.half.x = v;
            else if (i == 13u)
                o.half.y = v;
            else
                o.half.z = v;
            CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_NONFINITE);
        }
    o = base; /* negative half extents; zero and -0 are allowed */
    o.half.y = -1.0e-30f;
    CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_EMPTY_RANGE);
    o.half.y = -0.0f;
    o.half.x = 0.0f;
    CHECK_STATUS(copse_obb_check(&o), COPSE_OK);
    o.half.z = -5.0f;
    o.rotation[0][0] = 3.0f;
    CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_EMPTY_RANGE);
    o.half.z = 5.0f;
    CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_PARAM);
    o = base;
    for (i = 0; i < 3u; i++)
        o.rotation[i][1] = -o.rotation[i][1]; /* a mirror */
    CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_PARAM);
    o.half.x = float_of(0x7fc00000u);
    CHECK_STATUS(copse_obb_check(&o), COPSE_ERR_NONFINITE);
}

/* copse_geo_pose_arrays: row-major, the identity for NULL. */
static void test_pose_arrays(void)
{
    test_rng rng;
    copse_pose p;
    float r[9], t[3];
    unsigned i;
    test_rng_seed(&rng, 6u);
    p = random_pose(&rng, 100.0f);
    copse_geo_pose_arrays(&p, r, t);
    for (i = 0; i < 9u; i++)
        CHECK(r[i] == p.rotation[i / 3u][i % 3u]);
    CHECK(t[0] == p.translation.x && t[1] == p.translation.y && t[2] == p.translation.z);
    copse_geo_pose_arrays(NULL, r, t);
    for (i = 0; i < 9u; i++)
        CHECK(r[i] == (i % 4u == 0u ? 1.0f : 0.0f));
    CHECK(t[0] == 0.0f && t[1] == 0.0f && t[2] == 0.0f);
}

void suite_geom_pose(void)
{
    test_run("geom_pose/sincos_ulps", test_sincos_ulps);
    test_run("geom_pose/sincos_edges", test_sincos_edges);
    test_run("geom_pose/same_bits", test_same_bits);
    test_run("geom_pose/rpy", test_rpy);
    test_run("geom_pose/quat", test_quat);
    test_run("geom_pose/axis_angle", test_axis_angle);
    test_run("geom_pose/constructor_errors", test_constructor_errors);
    test_run("geom_pose/compose_invert", test_compose_invert);
    test_run("geom_pose/compose_errors", test_compose_errors);
    test_run("geom_pose/check", test_check);
    test_run("geom_pose/obb_from_box", test_obb);
    test_run("geom_pose/obb_check", test_obb_check);
    test_run("geom_pose/pose_arrays", test_pose_arrays);
}

/* SPDX-License-Identifier: MIT */
/* Poses and oriented boxes (copse/geom.h), and copse's own float sine and cosine. */
#include "pose_internal.h"

/* ---- sine and cosine ------------------------------------------------------------------------ */

/* pi/2 as a sum of floats, largest first (Cody-Waite). The first six have 8 significant bits, so
 * k times each is exact for |k| < 2^16 (|angle| <= COPSE_MAX_ANGLE gives |k| <= 63662), and
 * subtracting a product from the remainder it nearly cancels is exact (Sterbenz). The 82 bits
 * leave an error below 2^-66 at the largest k, far under an ulp of the smallest remainder a float
 * angle in that range has: 4.2e-9 (2^-27.8), at 0x1.f9cbe2p+7 = 253.2 ~ 161 pi/2. */
static const float k_pio2[7] = {
    0x1.92p+0f, 0x1.fcp-12f, -0x1.58p-21f, 0x1.1p-30f, 0x1.68p-39f, 0x1.84p-48f, 0x1.a62634p-58f,
};

/* Taylor coefficients on |r| <= pi/4, highest first: sin r = r + r z S(z), cos r = 1 - z/2 +
 * z^2 C(z), z = r^2. The first term left out is below 0.03 ulp (sin) and 0.002 ulp (cos). */
static const float k_sin[4] = { 1.0f / 362880.0f, -1.0f / 5040.0f, 1.0f / 120.0f, -1.0f / 6.0f };
static const float k_cos[4] = { -1.0f / 3628800.0f, 1.0f / 40320.0f, -1.0f / 720.0f, 1.0f / 24.0f };

void copse_geo_sincos(float angle, float *s, float *c)
{
    float r = angle, lo = 0.0f, z, d, ps = 0.0f, pc = 0.0f, t;
    int32_t n = 0;
    unsigned i;
    if (copse_fabsf(angle) <= COPSE_MAX_ANGLE) {
        /* n = the nearest multiple of pi/2 (give or take one near the midpoints, which only moves
         * |r| a little past pi/4); the conversion is in range: |n| <= 63662 */
        n = (int32_t)(angle * 0.636619772f + (angle < 0.0f ? -0.5f : 0.5f));
        t = (float)n;
        for (i = 0; i < 7u; i++) {
            /* r + lo -= t * pio2[i]; lo gathers each subtraction's rounding error exactly
             * (Knuth's two-sum), which a plain r -= ... would add to r, up to 3 ulps in all */
            float p = t * k_pio2[i], b;
            d = r - p;
            b = d - r;
            lo += (r - (d - b)) - (p + b);
            r = d;
        }
        d = r + lo; /* the remainder, and what rounding it lost (Fast2Sum: |lo| is a few ulps of r) */
        lo = (r - d) + lo;
        r = d;
        z = r * r;
        for (i = 0; i < 4u; i++) {
            ps = ps * z + k_sin[i];
            pc = pc * z + k_cos[i];
        }
        /* sin(r + lo) = sin r + lo cos r (cos r = 1 - O(r^2)), cos(r + lo) = cos r - lo sin r;
         * 1 - z/2 keeps what its rounding lost (Fast2Sum: exact, as z/2 < 1) */
        ps = r + (r * z * ps + lo);
        t = 1.0f - 0.5f * z;
        pc = t + (((1.0f - t) - 0.5f * z) + (z * z * pc - r * lo));
        if ((uint32_t)n & 1u) { /* sin(r + pi/2) = cos r, cos(r + pi/2) = -sin r */
            t = ps;
            ps = pc;
            pc = -t;
        }
        if ((uint32_t)n & 2u) {
            ps = -ps;
            pc = -pc;
        }
    } else { /* out of range or NaN: NaN, which every pose check rejects */
        union { uint32_t u; float f; } nan;
        nan.u = 0x7fc00000u;
        ps = pc = nan.f;
    }
    if (s != NULL)
        *s = ps;
    if (c != NULL)
        *c = pc;
}

/* ---- checks --------------------------------------------------------------------------------- */

/* NaN and infinity make the sum NaN; finite values give exact zeros. */
static bool all_finite(const float *v, unsigned n)
{
    float sum = 0.0f;
    unsigned i;
    for (i = 0; i < n; i++)
        sum += v[i] - v[i];
    return sum == 0.0f;
}

/* A rotation and translation as copse_pose_check judges them. The common case (OK) costs the 6
 * distinct entries of R^T R (18 products, 12 sums), their differences from I, magnitudes and
 * comparisons (up to 18), the determinant (9 products, 6 sums, 1 comparison) and the translation
 * (3 differences, 3 sums, 1 comparison): about 70 float operations. A NaN or infinity in the
 * rotation fails a comparison there; only then are the entries looked at one by one. */
static copse_status rotation_check(const float m[3][3], copse_vec3 t)
{
    /* straight-line (the robot checks judge every link's pose a call): columns' dot products */
    const float e00 = m[0][0] * m[0][0] + m[1][0] * m[1][0] + m[2][0] * m[2][0] - 1.0f;
    const float e11 = m[0][1] * m[0][1] + m[1][1] * m[1][1] + m[2][1] * m[2][1] - 1.0f;
    const float e22 = m[0][2] * m[0][2] + m[1][2] * m[1][2] + m[2][2] * m[2][2] - 1.0f;
    const float e01 = m[0][0] * m[0][1] + m[1][0] * m[1][1] + m[2][0] * m[2][1];
    const float e02 = m[0][0] * m[0][2] + m[1][0] * m[1][2] + m[2][0] * m[2][2];
    const float e12 = m[0][1] * m[0][2] + m[1][1] * m[1][2] + m[2][1] * m[2][2];
    const float det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) +
                      m[0][1] * (m[1][2] * m[2][0] - m[1][0] * m[2][2]) +
                      m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    const float tsum = (t.x - t.x) + (t.y - t.y) + (t.z - t.z); /* NaN unless finite */
    const float tol = COPSE_POSE_TOLERANCE;
    float tv[3];
    unsigned i;
    /* a NaN fails its own comparison */
    if ((copse_fabsf(e00) <= tol) & (copse_fabsf(e11) <= tol) & (copse_fabsf(e22) <= tol) &
        (copse_fabsf(e01) <= tol) & (copse_fabsf(e02) <= tol) & (copse_fabsf(e12) <= tol) & (det > 0.0f) &
        (tsum == 0.0f))
        return COPSE_OK;
    tv[0] = t.x;
    tv[1] = t.y;
    tv[2] = t.z;
    for (i = 0; i < 3u; i++)
        if (!all_finite(m[i], 3u))
            return COPSE_ERR_NONFINITE;
    return all_finite(tv, 3u) ? COPSE_ERR_PARAM : COPSE_ERR_NONFINITE;
}

copse_status copse_pose_check(const copse_pose *pose)
{
    if (pose == NULL)
        return COPSE_ERR_NULL;
    return rotation_check(pose->rotation, pose->translation);
}

copse_status copse_obb_check(const copse_obb *obb)
{
    float h[3];
    copse_status st;
    if (obb == NULL)
        return COPSE_ERR_NULL;
    h[0] = obb->half.x;
    h[1] = obb->half.y;
    h[2] = obb->half.z;
    st = rotation_check(obb->rotation, obb->center);
    if (st == COPSE_ERR_NONFINITE || !all_finite(h, 3u))
        return COPSE_ERR_NONFINITE;
    if (h[0] < 0.0f || h[1] < 0.0f || h[2] < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    return st;
}

/* ---- constructors --------------------------------------------------------------------------- */

/* Every constructor's start: *out the identity, then NONFINITE unless the n inputs are finite. */
static copse_status start(copse_pose *out, const float *v, unsigned n)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    *out = copse_pose_identity();
    return all_finite(v, n) ? COPSE_OK : COPSE_ERR_NONFINITE;
}

/* The rotation of the finite quaternion q[0..3] = x, y, z, w of any length, and the translation
 * q[4..6]; q is overwritten. PARAM for a zero quaternion (out untouched). */
static copse_status quat_pose(copse_pose *out, float q[7])
{
    float m = 0.0f, s, x, y, z, w;
    unsigned i;
    for (i = 0; i < 4u; i++)
        m = geo_max(m, copse_fabsf(q[i]));
    if (m == 0.0f)
        return COPSE_ERR_PARAM;
    /* largest component 1: the squared length neither overflows nor underflows */
    for (i = 0; i < 4u; i++)
        q[i] /= m;
    x = q[0];
    y = q[1];
    z = q[2];
    w = q[3];
    s = 2.0f / (x * x + y * y + z * z + w * w);
    out->rotation[0][0] = 1.0f - s * (y * y + z * z);
    out->rotation[0][1] = s * (x * y - z * w);
    out->rotation[0][2] = s * (x * z + y * w);
    out->rotation[1][0] = s * (x * y + z * w);
    out->rotation[1][1] = 1.0f - s * (x * x + z * z);
    out->rotation[1][2] = s * (y * z - x * w);
    out->rotation[2][0] = s * (x * z - y * w);
    out->rotation[2][1] = s * (y * z + x * w);
    out->rotation[2][2] = 1.0f - s * (x * x + y * y);
    out->translation = copse_v3(q[4], q[5], q[6]);
    return COPSE_OK;
}

copse_status copse_pose_from_quat(copse_pose *out, copse_quat q, copse_vec3 translation)
{
    float v[7];
    copse_status st;
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
    v[4] = translation.x;
    v[5] = translation.y;
    v[6] = translation.z;
    st = start(out, v, 7u);
    return st != COPSE_OK ? st : quat_pose(out, v);
}

/* Through the quaternion qz qy qx of the three half-angle rotations: Rz(yaw) Ry(pitch) Rx(roll). */
copse_status copse_pose_from_xyz_rpy(copse_pose *out, copse_vec3 xyz, copse_vec3 rpy)
{
    float v[7], sc[6], a, b, c, d;
    copse_status st;
    unsigned i;
    v[0] = rpy.x;
    v[1] = rpy.y;
    v[2] = rpy.z;
    v[3] = 0.0f;
    v[4] = xyz.x;
    v[5] = xyz.y;
    v[6] = xyz.z;
    st = start(out, v, 7u);
    if (st != COPSE_OK)
        return st;
    for (i = 0; i < 3u; i++) {
        if (!(copse_fabsf(v[i]) <= COPSE_MAX_ANGLE))
            return COPSE_ERR_PARAM;
        copse_geo_sincos(v[i] * 0.5f, &sc[2u * i], &sc[2u * i + 1u]);
    }
    /* sc = sin, cos of roll/2, pitch/2, yaw/2 */
    a = sc[1] * sc[3];
    b = sc[0] * sc[2];
    c = sc[0] * sc[3];
    d = sc[1] * sc[2];
    v[0] = c * sc[5] + -d * sc[4];
    v[1] = d * sc[5] + c * sc[4];
    v[2] = a * sc[4] + -b * sc[5];
    v[3] = a * sc[5] + b * sc[4];
    return quat_pose(out, v);
}

/* Through the quaternion (sin(angle/2) u, cos(angle/2)) of the unit axis u: the Euler-Rodrigues
 * form of Rodrigues' rotation. */
copse_status copse_pose_from_axis_angle(copse_pose *out, copse_vec3 axis, float angle, copse_vec3 translation)
{
    float v[7], m = 0.0f, n, sh, ch;
    copse_status st;
    unsigned i;
    v[0] = axis.x;
    v[1] = axis.y;
    v[2] = axis.z;
    v[3] = angle;
    v[4] = translation.x;
    v[5] = translation.y;
    v[6] = translation.z;
    st = start(out, v, 7u);
    if (st != COPSE_OK)
        return st;
    for (i = 0; i < 3u; i++)
        m = geo_max(m, copse_fabsf(v[i]));
    if (m == 0.0f || !(copse_fabsf(angle) <= COPSE_MAX_ANGLE))
        return COPSE_ERR_PARAM;
    for (i = 0; i < 3u; i++)
        v[i] /= m;
    n = copse_sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    copse_geo_sincos(angle * 0.5f, &sh, &ch);
    for (i = 0; i < 3u; i++)
        v[i] *= sh;
    v[3] = ch * n;
    return quat_pose(out, v);
}

/* ---- composing and applying ----------------------------------------------------------------- */

/* R p, the products summed left to right as every target does (no contraction). Straight-line:
 * this is the robot check's and the collision queries' most called helper. */
COPSE_INLINE copse_vec3 rotate(const copse_pose *pose, float x, float y, float z)
{
    const float(*r)[3] = pose->rotation;
    return copse_v3(r[0][0] * x + r[0][1] * y + r[0][2] * z, r[1][0] * x + r[1][1] * y + r[1][2] * z,
                    r[2][0] * x + r[2][1] * y + r[2][2] * z);
}

/* R p + t. NULL is the identity. */
static copse_vec3 transform_point(const copse_pose *pose, copse_vec3 p)
{
    copse_vec3 o;
    if (pose == NULL)
        return p;
    o = rotate(pose, p.x, p.y, p.z);
    return copse_v3(o.x + pose->translation.x, o.y + pose->translation.y, o.z + pose->translation.z);
}

copse_vec3 copse_pose_apply(const copse_pose *pose, copse_vec3 p)
{
    return transform_point(pose, p);
}

copse_vec3 copse_pose_apply_dir(const copse_pose *pose, copse_vec3 d)
{
    return pose == NULL ? d : rotate(pose, d.x, d.y, d.z);
}

/* R^T (p - t). */
static copse_vec3 transform_inverse(const copse_pose *pose, copse_vec3 p)
{
    const float(*r)[3];
    float x, y, z;
    if (pose == NULL)
        return p;
    r = pose->rotation;
    x = p.x - pose->translation.x;
    y = p.y - pose->translation.y;
    z = p.z - pose->translation.z;
    return copse_v3(r[0][0] * x + r[1][0] * y + r[2][0] * z, r[0][1] * x + r[1][1] * y + r[2][1] * z,
                    r[0][2] * x + r[1][2] * y + r[2][2] * z);
}

copse_vec3 copse_pose_apply_inverse(const copse_pose *pose, copse_vec3 p)
{
    return transform_inverse(pose, p);
}

copse_status copse_pose_compose(copse_pose *out, const copse_pose *a, const copse_pose *b)
{
    copse_pose o;
    unsigned j;
    if (out == NULL)
        return COPSE_ERR_NULL;
    if (a == NULL || b == NULL) {
        *out = copse_pose_identity();
        return COPSE_ERR_NULL;
    }
    for (j = 0; j < 3u; j++) { /* column j of Ra Rb is Ra times column j of Rb */
        copse_vec3 col = rotate(a, b->rotation[0][j], b->rotation[1][j], b->rotation[2][j]);
        o.rotation[0][j] = col.x;
        o.rotation[1][j] = col.y;
        o.rotation[2][j] = col.z;
    }
    o.translation = transform_point(a, b->translation);
    *out = o;
    return COPSE_OK;
}

copse_status copse_pose_invert(copse_pose *out, const copse_pose *pose)
{
    copse_pose o;
    copse_status st;
    unsigned i, j;
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = copse_pose_check(pose);
    if (st != COPSE_OK) {
        *out = copse_pose_identity();
        return st;
    }
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            o.rotation[i][j] = pose->rotation[j][i];
    o.translation = transform_inverse(pose, copse_v3(0.0f, 0.0f, 0.0f)); /* -R^T t */
    *out = o;
    return COPSE_OK;
}

/* ---- oriented boxes and kernel arrays ------------------------------------------------------- */

copse_status copse_obb_from_box(copse_obb *out, const copse_box3 *box, const copse_pose *pose)
{
    copse_status st = COPSE_ERR_NULL;
    float v[6], c[3];
    unsigned i, j;
    if (out == NULL)
        return st;
    if (box != NULL) {
        v[0] = box->min.x;
        v[1] = box->min.y;
        v[2] = box->min.z;
        v[3] = box->max.x;
        v[4] = box->max.y;
        v[5] = box->max.z;
        st = all_finite(v, 6u) ? copse_geo_pose_status(pose) : COPSE_ERR_NONFINITE;
    }
    if (st == COPSE_OK) {
        for (i = 0; i < 3u; i++) {
            if (v[i] > v[i + 3u])
                st = COPSE_ERR_EMPTY_RANGE;
            c[i] = v[i] * 0.5f + v[i + 3u] * 0.5f; /* halves first: no overflow near FLT_MAX */
            v[i + 3u] = v[i + 3u] * 0.5f - v[i] * 0.5f;
        }
        out->center = transform_point(pose, copse_v3(c[0], c[1], c[2]));
        out->half = copse_v3(v[3], v[4], v[5]);
        c[0] = out->center.x;
        c[1] = out->center.y;
        c[2] = out->center.z;
        if (st == COPSE_OK && !all_finite(c, 3u)) /* the pose moved the centre past FLT_MAX */
            st = COPSE_ERR_NONFINITE;
    }
    if (st != COPSE_OK) {
        pose = NULL;
        out->center = out->half = copse_v3(0.0f, 0.0f, 0.0f);
    }
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            out->rotation[i][j] = pose != NULL ? pose->rotation[i][j] : (i == j ? 1.0f : 0.0f);
    return st;
}

void copse_geo_pose_arrays(const copse_pose *pose, float r[9], float t[3])
{
    copse_pose id = copse_pose_identity();
    unsigned i, j;
    if (pose == NULL)
        pose = &id;
    for (i = 0; i < 3u; i++)
        for (j = 0; j < 3u; j++)
            r[3u * i + j] = pose->rotation[i][j];
    t[0] = pose->translation.x;
    t[1] = pose->translation.y;
    t[2] = pose->translation.z;
}

/* SPDX-License-Identifier: MIT */
/* Hostile cases: geom.h (vectors, boxes, rays, poses, oriented boxes). */
#include <math.h>
#include <string.h>

#include "hostile/hostile.h"

#define POSE_STATUS (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_PARAM))

static bool finite3(copse_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool is_identity(const copse_pose *p)
{
    const copse_pose id = copse_pose_identity();
    return memcmp(p, &id, sizeof id) == 0;
}

/* ---- constructors: every hostile value passes through as it is --------------------------------- */

static void make_cases(const hz_fix *f)
{
    (void)f;
    unsigned i;
    for (i = 0; i < hz_nfloats; i++) {
        const float v = hz_floats[i];
        copse_vec2 a;
        copse_vec3 b;
        copse_box2 r;
        copse_box3 x;
        copse_segment3 s3;
        copse_segment2 s2;
        copse_ray3 r3;
        copse_ray2 r2;
        copse_pose p;
        HZ(copse_v2);
        a = copse_v2(v, -v);
        HZ_CHECK(memcmp(&a.x, &v, sizeof v) == 0);
        HZ(copse_v3);
        b = copse_v3(1.0f, v, 2.0f);
        HZ_CHECK(memcmp(&b.y, &v, sizeof v) == 0 && b.x == 1.0f && b.z == 2.0f);
        HZ(copse_box2_make);
        r = copse_box2_make(v, 0.0f, 1.0f, v);
        HZ_CHECK(memcmp(&r.min.x, &v, sizeof v) == 0 && memcmp(&r.max.y, &v, sizeof v) == 0);
        HZ(copse_box3_make);
        x = copse_box3_make(0.0f, 0.0f, v, v, 1.0f, 1.0f);
        HZ_CHECK(memcmp(&x.min.z, &v, sizeof v) == 0 && memcmp(&x.max.x, &v, sizeof v) == 0);
        /* the difference of the ends may overflow: an infinite direction, no UB */
        s3.a = copse_v3(-v, 0.0f, 0.0f);
        s3.b = copse_v3(v, 1.0f, 0.0f);
        HZ(copse_ray3_from_segment);
        r3 = copse_ray3_from_segment(s3);
        HZ_CHECK(r3.t_max == 1.0f && r3.dir.y == 1.0f);
        s2.a = copse_v2(-v, v);
        s2.b = copse_v2(v, -v);
        HZ(copse_ray2_from_segment);
        r2 = copse_ray2_from_segment(s2);
        HZ_CHECK(r2.t_max == 1.0f);
        HZ(copse_pose_translation);
        p = copse_pose_translation(copse_v3(v, v, v));
        HZ_CHECK(p.rotation[0][0] == 1.0f && p.rotation[0][1] == 0.0f && memcmp(&p.translation.z, &v, sizeof v) == 0);
    }
    {
        copse_pose p;
        HZ(copse_pose_identity);
        p = copse_pose_identity();
        HZ_CHECK(p.rotation[1][1] == 1.0f && p.rotation[2][0] == 0.0f && p.translation.x == 0.0f);
        HZ(copse_pose_check);
        HZ_IS(copse_pose_check(&p), COPSE_OK);
    }
}

/* ---- poses ------------------------------------------------------------------------------------ */

static void pose_check_mutant(void *ctx, const void *m)
{
    copse_status st;
    (void)ctx;
    HZ(copse_pose_check);
    st = copse_pose_check((const copse_pose *)m);
    HZ_EXPECT(st, POSE_STATUS);
}

/* a quaternion and a translation as 7 floats */
typedef struct quat_t {
    copse_quat q;
    copse_vec3 t;
} quat_t;

static void quat_mutant(void *ctx, const void *m)
{
    const quat_t *x = (const quat_t *)m;
    copse_pose p;
    copse_status st;
    (void)ctx;
    memset(&p, 0x5A, sizeof p);
    HZ(copse_pose_from_quat);
    st = copse_pose_from_quat(&p, x->q, x->t);
    HZ_EXPECT(st, POSE_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(is_identity(&p));
    else
        HZ_IS(copse_pose_check(&p), COPSE_OK);
}

typedef struct rpy_t {
    copse_vec3 xyz, rpy;
} rpy_t;

static void rpy_mutant(void *ctx, const void *m)
{
    const rpy_t *x = (const rpy_t *)m;
    copse_pose p;
    copse_status st;
    (void)ctx;
    memset(&p, 0x5A, sizeof p);
    HZ(copse_pose_from_xyz_rpy);
    st = copse_pose_from_xyz_rpy(&p, x->xyz, x->rpy);
    HZ_EXPECT(st, POSE_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(is_identity(&p));
    else
        HZ_IS(copse_pose_check(&p), COPSE_OK);
}

typedef struct aa_t {
    copse_vec3 axis;
    float angle;
    copse_vec3 t;
} aa_t;

static void aa_mutant(void *ctx, const void *m)
{
    const aa_t *x = (const aa_t *)m;
    copse_pose p;
    copse_status st;
    (void)ctx;
    memset(&p, 0x5A, sizeof p);
    HZ(copse_pose_from_axis_angle);
    st = copse_pose_from_axis_angle(&p, x->axis, x->angle, x->t);
    HZ_EXPECT(st, POSE_STATUS);
    if (st != COPSE_OK)
        HZ_CHECK(is_identity(&p));
    else
        HZ_IS(copse_pose_check(&p), COPSE_OK);
}

typedef struct two_poses {
    copse_pose a, b;
} two_poses;

static void compose_mutant(void *ctx, const void *m)
{
    const two_poses *x = (const two_poses *)m;
    copse_pose out, alias;
    copse_status st, st2;
    (void)ctx;
    HZ(copse_pose_compose);
    st = copse_pose_compose(&out, &x->a, &x->b);
    HZ_EXPECT(st, POSE_STATUS);
    alias = x->a; /* out may be a */
    HZ(copse_pose_compose);
    st2 = copse_pose_compose(&alias, &alias, &x->b);
    HZ_CHECK(st2 == st && (st != COPSE_OK || memcmp(&alias, &out, sizeof out) == 0));
    HZ(copse_pose_invert);
    st = copse_pose_invert(&out, &x->a);
    HZ_EXPECT(st, POSE_STATUS);
    alias = x->a;
    HZ(copse_pose_invert);
    st2 = copse_pose_invert(&alias, &alias);
    HZ_CHECK(st2 == st && (st != COPSE_OK || memcmp(&alias, &out, sizeof out) == 0));
}

typedef struct apply_t {
    copse_pose p;
    copse_vec3 v;
} apply_t;

static void apply_mutant(void *ctx, const void *m)
{
    const apply_t *x = (const apply_t *)m;
    copse_vec3 r;
    (void)ctx;
    /* no status: the maps are arithmetic; they must not trap or read past the pose */
    HZ(copse_pose_apply);
    r = copse_pose_apply(&x->p, x->v);
    HZ(copse_pose_apply_dir);
    r = copse_pose_apply_dir(&x->p, r);
    HZ(copse_pose_apply_inverse);
    r = copse_pose_apply_inverse(&x->p, r);
    (void)r;
}

static void pose_cases(const hz_fix *f)
{
    (void)f;
    const copse_pose id = copse_pose_identity();
    copse_pose p, q;
    quat_t qt;
    rpy_t rt;
    aa_t at;
    two_poses tp;
    apply_t ap;
    copse_vec3 r;
    unsigned g;
    HZ(copse_pose_check);
    HZ_IS(copse_pose_check(NULL), COPSE_ERR_NULL);
    hz_mutate(&id, sizeof id, pose_check_mutant, NULL);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        hz_garbage(&p, sizeof p, g);
        pose_check_mutant(NULL, &p);
    }
    /* a mirror (det -1) and a scale: PARAM */
    p = id;
    p.rotation[2][2] = -1.0f;
    HZ(copse_pose_check);
    HZ_IS(copse_pose_check(&p), COPSE_ERR_PARAM);
    p = id;
    p.rotation[0][0] = 1.0f + 2.0f * COPSE_POSE_TOLERANCE;
    HZ(copse_pose_check);
    HZ_IS(copse_pose_check(&p), COPSE_ERR_PARAM);
    /* quaternions: NULL, zero, denormal, huge (their squares overflow) */
    HZ(copse_pose_from_quat);
    qt.q.x = 0, qt.q.y = 0, qt.q.z = 0, qt.q.w = 1, qt.t = copse_v3(1, 2, 3);
    HZ_IS(copse_pose_from_quat(NULL, qt.q, qt.t), COPSE_ERR_NULL);
    hz_mutate(&qt, sizeof qt, quat_mutant, NULL);
    qt.q.w = 0.0f;
    HZ(copse_pose_from_quat);
    HZ_IS(copse_pose_from_quat(&p, qt.q, qt.t), COPSE_ERR_PARAM);
    qt.q.w = 1e-45f;
    quat_mutant(NULL, &qt);
    qt.q.x = qt.q.y = qt.q.z = qt.q.w = 3e38f;
    quat_mutant(NULL, &qt);
    qt.q.x = qt.q.y = qt.q.z = qt.q.w = 1e-30f; /* squares underflow to 0 */
    quat_mutant(NULL, &qt);
    /* xyz/rpy: angles at the limit and one ulp past it */
    rt.xyz = copse_v3(1, 2, 3);
    rt.rpy = copse_v3(0.5f, -0.25f, 3.0f);
    HZ(copse_pose_from_xyz_rpy);
    HZ_IS(copse_pose_from_xyz_rpy(NULL, rt.xyz, rt.rpy), COPSE_ERR_NULL);
    hz_mutate(&rt, sizeof rt, rpy_mutant, NULL);
    rt.rpy = copse_v3(COPSE_MAX_ANGLE, -COPSE_MAX_ANGLE, COPSE_MAX_ANGLE);
    HZ(copse_pose_from_xyz_rpy);
    HZ_IS(copse_pose_from_xyz_rpy(&p, rt.xyz, rt.rpy), COPSE_OK);
    rt.rpy.y = -nextafterf(COPSE_MAX_ANGLE, INFINITY);
    HZ(copse_pose_from_xyz_rpy);
    HZ_IS(copse_pose_from_xyz_rpy(&p, rt.xyz, rt.rpy), COPSE_ERR_PARAM);
    HZ_CHECK(is_identity(&p));
    /* axis-angle: zero, denormal and huge axes, the angle limit */
    at.axis = copse_v3(0, 0, 1);
    at.angle = 1.0f;
    at.t = copse_v3(0, 0, 0);
    HZ(copse_pose_from_axis_angle);
    HZ_IS(copse_pose_from_axis_angle(NULL, at.axis, at.angle, at.t), COPSE_ERR_NULL);
    hz_mutate(&at, sizeof at, aa_mutant, NULL);
    at.axis = copse_v3(0, 0, 0);
    HZ(copse_pose_from_axis_angle);
    HZ_IS(copse_pose_from_axis_angle(&p, at.axis, at.angle, at.t), COPSE_ERR_PARAM);
    at.axis = copse_v3(1e-45f, 0, 1e-45f);
    aa_mutant(NULL, &at);
    at.axis = copse_v3(3e38f, 3e38f, -3e38f);
    aa_mutant(NULL, &at);
    at.axis = copse_v3(0, 1, 0);
    at.angle = nextafterf(COPSE_MAX_ANGLE, INFINITY);
    HZ(copse_pose_from_axis_angle);
    HZ_IS(copse_pose_from_axis_angle(&p, at.axis, at.angle, at.t), COPSE_ERR_PARAM);
    /* compose and invert: NULLs, aliasing, hostile entries in either pose */
    HZ(copse_pose_compose);
    HZ_IS(copse_pose_compose(NULL, &id, &id), COPSE_ERR_NULL);
    HZ(copse_pose_compose);
    HZ_IS(copse_pose_compose(&p, NULL, &id), COPSE_ERR_NULL);
    HZ(copse_pose_compose);
    HZ_IS(copse_pose_compose(&p, &id, NULL), COPSE_ERR_NULL);
    HZ(copse_pose_invert);
    HZ_IS(copse_pose_invert(NULL, &id), COPSE_ERR_NULL);
    HZ(copse_pose_invert);
    HZ_IS(copse_pose_invert(&p, NULL), COPSE_ERR_NULL);
    (void)copse_pose_from_xyz_rpy(&tp.b, copse_v3(1, 2, 3), copse_v3(0.1f, 0.2f, 0.3f));
    tp.a = id;
    hz_mutate(&tp, sizeof tp, compose_mutant, NULL);
    /* a translation whose inverse or composition overflows */
    (void)copse_pose_from_xyz_rpy(&p, copse_v3(3e38f, 3e38f, 3e38f), copse_v3(0.7f, 0.7f, 0.7f));
    HZ(copse_pose_invert);
    HZ_EXPECT(copse_pose_invert(&q, &p), POSE_STATUS);
    HZ(copse_pose_compose);
    HZ_EXPECT(copse_pose_compose(&q, &p, &p), POSE_STATUS);
    /* the maps: NULL is the identity; hostile entries */
    HZ(copse_pose_apply);
    r = copse_pose_apply(NULL, copse_v3(1, 2, 3));
    HZ_CHECK(r.x == 1.0f && r.y == 2.0f && r.z == 3.0f);
    HZ(copse_pose_apply_dir);
    r = copse_pose_apply_dir(NULL, copse_v3(1, 2, 3));
    HZ_CHECK(r.x == 1.0f && r.y == 2.0f && r.z == 3.0f);
    HZ(copse_pose_apply_inverse);
    r = copse_pose_apply_inverse(NULL, copse_v3(1, 2, 3));
    HZ_CHECK(r.x == 1.0f && r.y == 2.0f && r.z == 3.0f);
    ap.p = tp.b;
    ap.v = copse_v3(1, 1, 1);
    hz_mutate(&ap, sizeof ap, apply_mutant, NULL);
    r = copse_pose_apply(&ap.p, copse_v3(1, 1, 1));
    HZ_CHECK(finite3(r));
}

/* ---- oriented boxes --------------------------------------------------------------------------- */

#define OBB_STATUS (HZ_S(OK) | HZ_S(ERR_NULL) | HZ_S(ERR_NONFINITE) | HZ_S(ERR_PARAM) | HZ_S(ERR_EMPTY_RANGE))

static void obb_check_mutant(void *ctx, const void *m)
{
    (void)ctx;
    HZ(copse_obb_check);
    HZ_EXPECT(copse_obb_check((const copse_obb *)m), OBB_STATUS);
}

typedef struct obb_from_t {
    copse_box3 box;
    copse_pose pose;
} obb_from_t;

static void obb_from_mutant(void *ctx, const void *m)
{
    const obb_from_t *x = (const obb_from_t *)m;
    copse_obb o;
    copse_status st;
    (void)ctx;
    HZ(copse_obb_from_box);
    st = copse_obb_from_box(&o, &x->box, &x->pose);
    HZ_EXPECT(st, OBB_STATUS);
    if (st == COPSE_OK) {
        HZ(copse_obb_check);
        HZ_EXPECT(copse_obb_check(&o), OBB_STATUS);
    }
}

static void obb_cases(const hz_fix *f)
{
    (void)f;
    copse_obb o;
    obb_from_t x;
    unsigned g;
    HZ(copse_obb_check);
    HZ_IS(copse_obb_check(NULL), COPSE_ERR_NULL);
    x.box = copse_box3_make(-1, -2, -3, 1, 2, 3);
    x.pose = copse_pose_identity();
    HZ(copse_obb_from_box);
    HZ_IS(copse_obb_from_box(NULL, &x.box, &x.pose), COPSE_ERR_NULL);
    HZ(copse_obb_from_box);
    HZ_IS(copse_obb_from_box(&o, NULL, &x.pose), COPSE_ERR_NULL);
    HZ(copse_obb_from_box);
    HZ_EXPECT(copse_obb_from_box(&o, &x.box, NULL), OBB_STATUS); /* NULL: the identity, as everywhere */
    HZ(copse_obb_from_box);
    HZ_IS(copse_obb_from_box(&o, &x.box, &x.pose), COPSE_OK);
    hz_mutate(&o, sizeof o, obb_check_mutant, NULL);
    for (g = 0; g < HZ_NGARBAGE; g++) {
        copse_obb gb;
        hz_garbage(&gb, sizeof gb, g);
        obb_check_mutant(NULL, &gb);
    }
    hz_mutate(&x, sizeof x, obb_from_mutant, NULL);
    x.box = copse_box3_make(1, 0, 0, -1, 1, 1); /* inverted */
    obb_from_mutant(NULL, &x);
}

HZ_TEST("geom/make", make_cases)
HZ_TEST("geom/pose", pose_cases)
HZ_TEST("geom/obb", obb_cases)

void hz_geom(void)
{
    HZ_RUN("geom/make", make_cases);
    HZ_RUN("geom/pose", pose_cases);
    HZ_RUN("geom/obb", obb_cases);
}

/* SPDX-License-Identifier: MIT */
/*
 * A motion from q0 to q1, straight in joint space: checked at discrete steps
 * (copse_robot_motion) or certified by conservative advancement (copse_robot_motion_continuous).
 *
 * Both compute the link poses into the caller's link_poses (link_count poses: too big for a
 * small stack) and keep one configuration of at most COPSE_ROBOT_MAX_LINKS floats on theirs.
 */
#include "robot_internal.h"

/* ---- shared ----------------------------------------------------------------------------------- */


/* The arguments both motions share: NULL, PARAM (flags), NONFINITE (q0, q1). */
static copse_status rm_begin(const copse_robot *robot, const copse_world *world, const float *q0, const float *q1,
                             const copse_pose *link_poses, uint32_t flags)
{
    uint32_t i;
    if (robot == NULL || link_poses == NULL || ((q0 == NULL || q1 == NULL) && robot->dof > 0u))
        return COPSE_ERR_NULL;
    if ((flags & ~(COPSE_ROBOT_SELF | COPSE_ROBOT_WORLD | COPSE_ROBOT_NO_SHAPES)) != 0u)
        return COPSE_ERR_PARAM;
    if ((flags & COPSE_ROBOT_WORLD) != 0u && world == NULL)
        return COPSE_ERR_NULL;
    if (robot->dof > COPSE_ROBOT_MAX_LINKS)
        return COPSE_ERR_PARAM;
    for (i = 0; i < robot->dof; i++)
        if (!geo_finite(q0[i]) || !geo_finite(q1[i]) || !geo_finite(q1[i] - q0[i]))
            return COPSE_ERR_NONFINITE;
    return COPSE_OK;
}

/* The link poses at fraction s: q0 + s (q1 - q0), kept between q0 and q1 (so within the limits
 * when they are), exactly q0 at 0 and q1 at 1. */
static copse_status rm_fk(const copse_robot *robot, const float *q0, const float *q1, float s, const copse_pose *base,
                          copse_pose *link_poses)
{
    float q[COPSE_ROBOT_MAX_LINKS];
    uint32_t i;
    for (i = 0; i < robot->dof; i++) {
        float v = q0[i] + s * (q1[i] - q0[i]);
        float lo = geo_min(q0[i], q1[i]), hi = geo_max(q0[i], q1[i]);
        q[i] = s == 0.0f ? q0[i] : s == 1.0f ? q1[i] : geo_min(geo_max(v, lo), hi);
    }
    return copse_robot_fk(robot, q, base, link_poses);
}

/* ---- discrete ---------------------------------------------------------------------------------- */

copse_status copse_robot_motion(const copse_robot *robot, const copse_world *world, const float *q0, const float *q1,
                                const copse_pose *base, copse_pose *link_poses, float max_step, uint32_t flags,
                                float *t, copse_robot_contact *contact)
{
    float longest = 0.0f, ratio;
    uint32_t n, k, i;
    copse_status st;
    if (t == NULL || contact == NULL)
        return COPSE_ERR_NULL;
    *t = 0.0f;
    robot_contact_empty(contact);
    if ((st = rm_begin(robot, world, q0, q1, link_poses, flags)) != COPSE_OK)
        return st;
    if (!(max_step > 0.0f) || !geo_finite(max_step))
        return COPSE_ERR_PARAM;
    for (i = 0; i < robot->dof; i++)
        longest = geo_max(longest, copse_fabsf(q1[i] - q0[i]));
    /* n segments, each at most max_step in every variable: q0, then k/n for k = 1..n */
    ratio = longest / max_step;
    if (!(ratio <= (float)COPSE_ROBOT_MAX_CHECKS))
        return COPSE_ERR_PARAM;
    n = (uint32_t)ratio;
    if ((float)n < ratio)
        n++;
    for (k = 0; k <= n; k++) {
        float s = k == n ? 1.0f : (float)k / (float)n;
        if (n == 0u)
            s = 0.0f;
        if ((st = rm_fk(robot, q0, q1, s, base, link_poses)) != COPSE_OK)
            return st;
        if ((st = copse_robot_collides(robot, world, link_poses, flags, contact)) != COPSE_OK)
            return st;
        if (contact->kind != COPSE_CONTACT_NONE) {
            *t = s;
            return COPSE_OK;
        }
    }
    *t = 1.0f;
    return COPSE_OK;
}

/* ---- continuous: conservative advancement --------------------------------------------------------
 *
 * The bound. Let the configuration move from q(s) to q(s + t), each joint j at the rate
 * w_j = |dvalue_j/ds| (|q1 - q0| of its variable; a mimic joint |multiplier| times its
 * mimicked variable's). A point x of link L moves at speed at most
 *     |v(x)| <= sum over revolute j on L's chain of w_j dist(x, axis_j) + sum over prismatic w_j
 * and dist(x, axis_j) <= |x - o_j|, o_j the joint's origin (its child link's frame origin, on
 * its axis). Let M(s) = the largest |x - o_j| over x in L and the revolute j on the chain,
 * W = the sum of their w_j, P = the prismatic sum. Joints above j move x and o_j together and
 * j's own turn keeps |x - o_j|, so |x - o_j| changes only through the joints below j:
 * dM/ds <= W M + P, and |v| <= W M + P. Hence (Gronwall) M(s + t) <= (M0 + P/W) e^{Wt} - P/W,
 * and every point of L moves at most
 *     disp(t) <= (M0 W + P) (e^{Wt} - 1) / W <= K t (1 + W t)    for W t <= 1,  K = M0 W + P,
 * since (e^u - 1)/u <= 1 + u on [0, 1]. M0 is bounded at s from the current poses by L's
 * bounding sphere: |c_L - o_j| + r_L. Two links move at most disp_A + disp_B apart, within
 * (K_A + K_B) t (1 + max(W_A, W_B) t); the world holds still. The joints above two links'
 * lowest common ancestor move both rigidly and cannot change their distance: measured in that
 * ancestor's frame, only the joints below it count (the same bound, chains cut there).
 *
 * The step. At s a pair's distance d (paddings off; >= min_clearance, else s is a collision)
 * allows t with K t (1 + W t) <= d - min_clearance / 2: t1 = allow / K, t = t1 / (1 + W t1)
 * (then W t < 1 and K t (1 + W t) <= K t1 = allow). The pair stays min_clearance / 2 apart
 * over [s, s + t], and the next configuration is at least that far: every step covers a
 * displacement of at least min_clearance / 2, so the number of checks is bounded by the motion's
 * length over min_clearance. A pair farther than the whole remaining bound plus min_clearance
 * limits nothing and is not sought (the distance queries' cut-off). K is taken 0.1% large for
 * float rounding in the bound; the min_clearance / 2 margin absorbs the distances' own rounding. */

#define RM_SAFETY 1.001f

/* Link L's rates relative to link `above` (an ancestor, or COPSE_NONE: the world): K (of the
 * bound's linear term) and W (the revolute rate sum), over the joints between them. */
static void rm_rates(const copse_robot *r, const float *q0, const float *q1, const copse_pose *poses,
                     uint32_t link, uint32_t above, float *k_out, float *w_out)
{
    float lc[3], radius, w = 0.0f, p = 0.0f, m = 0.0f;
    copse_vec3 c;
    uint32_t j = robot_link_at(r, link)->parent_joint, steps;
    copse__robot_link_sphere(r, link, lc, &radius);
    *k_out = 0.0f;
    *w_out = 0.0f;
    if (radius < 0.0f || link == above)
        return;
    c = copse_pose_apply(&poses[link], copse_v3(lc[0], lc[1], lc[2]));
    for (steps = 0; j != COPSE_NONE && steps < r->joint_count; steps++) {
        const robot_joint *jt = robot_joint_at(r, j);
        uint32_t var = jt->var;
        float rate, mul = 1.0f;
        if (jt->type != COPSE_JOINT_FIXED) {
            if (var == COPSE_NONE) { /* a mimic */
                var = robot_joint_at(r, jt->mimic)->var;
                mul = copse_fabsf(jt->multiplier);
            }
            rate = mul * copse_fabsf(q1[var] - q0[var]);
            if (jt->type == COPSE_JOINT_PRISMATIC) {
                p += rate;
            } else {
                copse_vec3 o = poses[jt->child].translation;
                float dx = c.x - o.x, dy = c.y - o.y, dz = c.z - o.z;
                w += rate;
                m = geo_max(m, copse_sqrtf(dx * dx + dy * dy + dz * dz) + radius);
            }
        }
        if (jt->parent == above)
            break;
        j = robot_link_at(r, jt->parent)->parent_joint;
    }
    *k_out = RM_SAFETY * (m * w + p);
    *w_out = w;
}

/* The lowest common ancestor of links a and b (both on one tree rooted at link_count's root). */
static uint32_t rm_common_ancestor(const copse_robot *r, uint32_t a, uint32_t b)
{
    uint32_t above_a[(COPSE_ROBOT_MAX_LINKS + 31u) / 32u] = {0}, l, steps;
    for (l = a, steps = 0; steps <= r->link_count; steps++) {
        uint32_t j = robot_link_at(r, l)->parent_joint;
        above_a[l >> 5] |= 1u << (l & 31u);
        if (j == COPSE_NONE)
            break;
        l = robot_joint_at(r, j)->parent;
    }
    for (l = b, steps = 0; steps <= r->link_count; steps++) {
        uint32_t j;
        if ((above_a[l >> 5] >> (l & 31u)) & 1u)
            return l;
        j = robot_link_at(r, l)->parent_joint;
        if (j == COPSE_NONE)
            break;
        l = robot_joint_at(r, j)->parent;
    }
    return COPSE_NONE; /* not reached on a valid robot: one root */
}

/* The bound's displacement over t. */
COPSE_INLINE float rm_disp(float k, float w, float t)
{
    return k * t * (1.0f + w * t);
}

/* The step a pair at distance d allows (at most rem). */
static float rm_step(float d, float clearance, float k, float w, float rem)
{
    float allow = d - 0.5f * clearance, t1;
    if (!(rm_disp(k, w, rem) > allow))
        return rem;
    t1 = allow / k;
    return t1 / (1.0f + w * t1);
}

/* The cut-off beyond which a pair limits nothing. */
COPSE_INLINE float rm_cut(float k, float w, float rem, float clearance)
{
    float c = rm_disp(k, w, rem) + clearance;
    return c < FLT_MAX ? c : FLT_MAX;
}

/* A pair's nearest at this configuration: the nearest so far, and the step it allows. */
static void rm_take(const robot_near *n, float clearance, float k, float w, float rem, float *nearest,
                    copse_robot_contact *contact, float *t)
{
    if (n->distance < *nearest) {
        *nearest = n->distance;
        *contact = n->contact;
    }
    if (n->distance != FLT_MAX)
        *t = geo_min(*t, rm_step(n->distance, clearance, k, w, rem));
}

copse_status copse_robot_motion_continuous(const copse_robot *robot, const copse_world *world, const float *q0,
                                           const float *q1, const copse_pose *base, copse_pose *link_poses,
                                           float min_clearance, uint32_t max_checks, uint32_t flags,
                                           float *t, copse_robot_contact *contact)
{
    float s = 0.0f;
    uint32_t checks, a, b;
    copse_status st;
    if (t == NULL || contact == NULL)
        return COPSE_ERR_NULL;
    *t = 0.0f;
    robot_contact_empty(contact);
    if ((st = rm_begin(robot, world, q0, q1, link_poses, flags)) != COPSE_OK)
        return st;
    if (!(min_clearance > 0.0f) || !geo_finite(min_clearance) || max_checks == 0u)
        return COPSE_ERR_PARAM;
    for (checks = 0; checks < max_checks; checks++) {
        float rem = 1.0f - s, step = rem, nearest = FLT_MAX;
        robot_near n;
        if ((st = rm_fk(robot, q0, q1, s, base, link_poses)) != COPSE_OK)
            goto fail;
        if ((st = copse__robot_check_begin(robot, world, link_poses, flags)) != COPSE_OK)
            goto fail;
        for (a = 0; a < robot->link_count; a++) {
            float ka, wa;
            rm_rates(robot, q0, q1, link_poses, a, COPSE_NONE, &ka, &wa);
            if ((flags & COPSE_ROBOT_WORLD) != 0u) {
                st = copse__robot_world_nearest(robot, world, link_poses, flags, a, rm_cut(ka, wa, rem, min_clearance), &n);
                if (st != COPSE_OK)
                    goto fail;
                rm_take(&n, min_clearance, ka, wa, rem, &nearest, contact, &step);
            }
            if ((flags & COPSE_ROBOT_SELF) == 0u)
                continue;
            for (b = a + 1u; b < robot->link_count; b++) {
                float kpa, wpa, kb, wb, k, w;
                uint32_t lca;
                if (robot_acm_get(robot, a, b))
                    continue;
                lca = rm_common_ancestor(robot, a, b);
                rm_rates(robot, q0, q1, link_poses, a, lca, &kpa, &wpa);
                rm_rates(robot, q0, q1, link_poses, b, lca, &kb, &wb);
                k = kpa + kb;
                w = geo_max(wpa, wb);
                st = copse__robot_pair_nearest(robot, link_poses, flags, a, b, rm_cut(k, w, rem, min_clearance), &n);
                if (st != COPSE_OK)
                    goto fail;
                rm_take(&n, min_clearance, k, w, rem, &nearest, contact, &step);
            }
        }
        if (nearest < min_clearance) {
            *t = s;
            return COPSE_OK;
        }
        robot_contact_empty(contact);
        if (s == 1.0f) {
            *t = 1.0f;
            return COPSE_OK;
        }
        /* certified through s + step; the end itself is checked as a configuration too */
        s = step >= rem ? 1.0f : geo_min(s + step, 1.0f);
        *t = s;
    }
    /* [0, *t] certified, its end not checked: the certified prefix */
    return COPSE_ERR_LIMIT;
fail:
    *t = 0.0f;
    robot_contact_empty(contact);
    return st;
}

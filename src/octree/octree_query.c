/*
 * Point octree queries.
 *
 *  - Region queries (box, sphere, capsule): depth-first over the exact node bounds with a stack
 *    of pending siblings (one entry per level). A node wholly inside the region reports its
 *    points without testing them (the tests would all pass: see geo_box_far_dist_sq).
 *  - k nearest: straight down into the nearest child; the other children wait on a stack with their box
 *    distance and are dropped when popped if they can no longer hold a better neighbour.
 */
#include "octree_internal.h"

/* ---- region walk ----------------------------------------------------------------------------- */

typedef enum region_kind { REGION_BOX, REGION_SPHERE, REGION_CAPSULE } region_kind;

typedef struct region {
    float min[3], max[3]; /* box; for a capsule: the segment's box grown by the margin */
    float c[3], r2;       /* sphere */
    float a[3], b[3];     /* capsule segment */
    geo_ray ray;          /* capsule: a to b, t in [0, 1] */
    float margin;         /* capsule: radius plus rounding slack, for node culling */
} region;

/* 0: the node misses, 1: it may hold points, 2: every point below it is inside. */
COPSE_INLINE unsigned region_vs_node(const region *q, region_kind kind, const copse_octree_node *n)
{
    if (kind == REGION_BOX) {
        if (!geo_box_overlap(q->min, q->max, n->min, n->max, 3))
            return 0;
        return geo_box_inside(n->min, n->max, q->min, q->max) ? 2u : 1u;
    }
    if (kind == REGION_SPHERE) {
        if (geo_box_dist_sq(q->c, n->min, n->max, 3) > q->r2)
            return 0;
        return geo_box_far_dist_sq(q->c, n->min, n->max) <= q->r2 ? 2u : 1u;
    }
    {
        /* the segment against the node grown by the capsule's radius (and slack) */
        float mn[3], mx[3], t;
        unsigned a;
        if (!geo_box_overlap(q->min, q->max, n->min, n->max, 3))
            return 0;
        for (a = 0; a < 3; a++) {
            mn[a] = n->min[a] - q->margin;
            mx[a] = n->max[a] + q->margin;
        }
        return geo_ray_box(&q->ray, mn, mx, 0.0f, 1.0f, 3, true, &t) ? 1u : 0u;
    }
}

COPSE_INLINE bool region_vs_point(const region *q, region_kind kind, const float *p)
{
    if (kind == REGION_BOX)
        return p[0] >= q->min[0] && p[0] <= q->max[0] && p[1] >= q->min[1] && p[1] <= q->max[1] &&
               p[2] >= q->min[2] && p[2] <= q->max[2];
    if (kind == REGION_SPHERE)
        return geo_dist_sq3(p, q->c) <= q->r2;
    {
        float s[3];
        geo_segment_closest(s, p, q->a, q->b);
        return geo_dist_sq3(p, s) <= q->r2;
    }
}

#define WALK_INSIDE 0x80000000u /* stack entry flag: the node lies wholly inside the region */

/* Node indices stay below COPSE_OCTREE_MAX_POINTS = 2^28: bit 31 is free for the flag. */
COPSE_INLINE void region_walk(const copse_octree *t, const region *q, region_kind kind, id_emitter *e)
{
    uint32_t stack[COPSE_OCTREE_MAX_DEPTH + 1u], sp = 0, n = 0;
    bool inside = false;
    if (t->nodes == NULL || t->size == 0u)
        return;
    for (;;) {
        const copse_octree_node *node = &t->nodes[n];
        unsigned v = inside ? 2u : region_vs_node(q, kind, node);
        if (v != 0u) {
            if (oct_is_leaf(node)) {
                oct_leaf_iter it = oct_leaf_begin(node->first, oct_count(node));
                uint32_t k;
                while (oct_leaf_next(t, &it)) {
                    for (k = 0; k < it.count; k++) {
                        uint32_t idx = it.slots[k];
                        if ((v == 2u || region_vs_point(q, kind, &t->points[idx].x)) &&
                            !id_emit(e, oct_point_id(t, idx)))
                            return;
                    }
                }
            } else {
                if (node->next != OCT_NONE && sp <= COPSE_OCTREE_MAX_DEPTH)
                    stack[sp++] = node->next | (inside ? WALK_INSIDE : 0u);
                n = node->first;
                inside = v == 2u;
                continue;
            }
        }
        n = node->next;
        if (n == OCT_NONE) {
            if (sp == 0u)
                return;
            n = stack[--sp];
            inside = (n & WALK_INSIDE) != 0u;
            n &= ~WALK_INSIDE;
        }
    }
}

static void walk_box(const copse_octree *t, const region *q, id_emitter *e)
{
    region_walk(t, q, REGION_BOX, e);
}

static void walk_sphere(const copse_octree *t, const region *q, id_emitter *e)
{
    region_walk(t, q, REGION_SPHERE, e);
}

static void walk_capsule(const copse_octree *t, const region *q, id_emitter *e)
{
    region_walk(t, q, REGION_CAPSULE, e);
}

typedef void (*walk_fn)(const copse_octree *t, const region *q, id_emitter *e);

static copse_status run_region(const copse_octree *t, copse_status shape_status, const region *q, copse_id_list *out,
                               copse_id_visitor visit, void *user, walk_fn walk)
{
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st == COPSE_OK && t == NULL)
        st = COPSE_ERR_NULL;
    if (st == COPSE_OK)
        st = shape_status;
    if (st != COPSE_OK)
        return st;
    walk(t, q, &e);
    return COPSE_OK;
}

static copse_status box_region(region *q, const copse_box3 *box)
{
    unsigned a;
    if (box == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite3(&box->min.x) || !oct_finite3(&box->max.x))
        return COPSE_ERR_NONFINITE;
    for (a = 0; a < 3; a++) {
        q->min[a] = (&box->min.x)[a];
        q->max[a] = (&box->max.x)[a];
        if (q->min[a] > q->max[a])
            return COPSE_ERR_EMPTY_RANGE;
    }
    return COPSE_OK;
}

static copse_status sphere_region(region *q, const copse_sphere *s)
{
    if (s == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite3(&s->center.x) || !geo_finite(s->radius))
        return COPSE_ERR_NONFINITE;
    if (s->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    q->c[0] = s->center.x;
    q->c[1] = s->center.y;
    q->c[2] = s->center.z;
    q->r2 = s->radius * s->radius;
    return COPSE_OK;
}

static copse_status capsule_region(region *q, const copse_octree *t, const copse_capsule *cap)
{
    float d[3], mag;
    unsigned a;
    if (cap == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite3(&cap->segment.a.x) || !oct_finite3(&cap->segment.b.x) || !geo_finite(cap->radius))
        return COPSE_ERR_NONFINITE;
    if (cap->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    mag = cap->radius;
    for (a = 0; a < 3; a++) {
        q->a[a] = (&cap->segment.a.x)[a];
        q->b[a] = (&cap->segment.b.x)[a];
        d[a] = q->b[a] - q->a[a];
        mag = geo_max(mag, geo_max(copse_fabsf(q->a[a]), copse_fabsf(q->b[a])));
        if (t != NULL && t->nodes != NULL && t->size > 0u)
            mag = geo_max(mag, geo_max(copse_fabsf(t->nodes[0].min[a]), copse_fabsf(t->nodes[0].max[a])));
    }
    /* the point test rounds the closest point and the distance: a few ulps of the largest
     * coordinate involved; nodes are culled against a margin well beyond that */
    q->margin = cap->radius + mag * (64.0f * FLT_EPSILON);
    q->r2 = cap->radius * cap->radius;
    for (a = 0; a < 3; a++) {
        q->min[a] = geo_min(q->a[a], q->b[a]) - q->margin;
        q->max[a] = geo_max(q->a[a], q->b[a]) + q->margin;
    }
    geo_ray_init(&q->ray, q->a, d, 1.0f, 3);
    return COPSE_OK;
}

copse_status copse_octree_in_box(const copse_octree *tree, const copse_box3 *box, copse_id_list *out)
{
    region q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_region(tree, box_region(&q, box), &q, out, NULL, NULL, walk_box);
}

copse_status copse_octree_visit_box(const copse_octree *tree, const copse_box3 *box, copse_id_visitor visit,
                                    void *user)
{
    region q;
    return run_region(tree, box_region(&q, box), &q, NULL, visit, user, walk_box);
}

copse_status copse_octree_in_sphere(const copse_octree *tree, const copse_sphere *sphere, copse_id_list *out)
{
    region q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_region(tree, sphere_region(&q, sphere), &q, out, NULL, NULL, walk_sphere);
}

copse_status copse_octree_visit_sphere(const copse_octree *tree, const copse_sphere *sphere,
                                       copse_id_visitor visit, void *user)
{
    region q;
    return run_region(tree, sphere_region(&q, sphere), &q, NULL, visit, user, walk_sphere);
}

copse_status copse_octree_in_capsule(const copse_octree *tree, const copse_capsule *capsule, copse_id_list *out)
{
    region q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_region(tree, capsule_region(&q, tree, capsule), &q, out, NULL, NULL, walk_capsule);
}

copse_status copse_octree_visit_capsule(const copse_octree *tree, const copse_capsule *capsule,
                                        copse_id_visitor visit, void *user)
{
    region q;
    return run_region(tree, capsule_region(&q, tree, capsule), &q, NULL, visit, user, walk_capsule);
}

static bool keep_first(void *user, uint32_t id)
{
    *(uint32_t *)user = id;
    return false;
}

copse_status copse_octree_capsule_any(const copse_octree *tree, const copse_capsule *capsule, uint32_t *id)
{
    region q;
    if (id == NULL)
        return COPSE_ERR_NULL;
    *id = COPSE_NONE;
    return run_region(tree, capsule_region(&q, tree, capsule), &q, NULL, keep_first, id, walk_capsule);
}

/* ---- k nearest ------------------------------------------------------------------------------- */

typedef struct knn_entry {
    uint32_t node;
    float d2; /* the node's box distance */
} knn_entry;

#define KNN_STACK (7u * COPSE_OCTREE_MAX_DEPTH + 8u)

COPSE_INLINE bool neighbor_before(float d2, uint32_t id, const copse_neighbor *b)
{
    return d2 < b->distance_sq || (d2 == b->distance_sq && id < b->id);
}

/* Keeps the list sorted; returns the squared distance a node must not exceed from now on. */
static float knn_offer(copse_neighbor_list *l, float d2, uint32_t id, uint32_t index, float bound)
{
    uint32_t i;
    if (l->count == l->capacity) {
        if (!neighbor_before(d2, id, &l->items[l->count - 1u]))
            return bound;
        l->count--;
    }
    for (i = l->count; i > 0u && neighbor_before(d2, id, &l->items[i - 1u]); i--)
        l->items[i] = l->items[i - 1u];
    l->items[i].distance_sq = d2;
    l->items[i].id = id;
    l->items[i].index = index;
    l->count++;
    return l->count == l->capacity ? l->items[l->count - 1u].distance_sq : bound;
}

/* Is (d2, id) after the neighbour `a`? */
COPSE_INLINE bool neighbor_after(float d2, uint32_t id, const copse_neighbor *a)
{
    return d2 > a->distance_sq || (d2 == a->distance_sq && id > a->id);
}

/* A leaf's points against the list: the distance first, the id only for a candidate. */
COPSE_INLINE float knn_leaf(const copse_octree *t, const copse_octree_node *node, const float *p, float bound,
                            copse_neighbor_list *l, const copse_neighbor *after)
{
    const copse_vec3 *pts = t->points;
    const uint32_t bs = t->bucket_size;
    uint32_t left = oct_count(node), b = node->first;
    while (left > 0u && b != OCT_NONE) {
        const uint32_t *bk = oct_bucket(t, b);
        uint32_t n = left < bs ? left : bs, k;
        for (k = 0; k < n; k++) {
            uint32_t idx = bk[1u + k];
            float d2 = geo_dist_sq3(&pts[idx].x, p);
            if (d2 <= bound) {
                uint32_t id = oct_point_id(t, idx);
                if (after == NULL || neighbor_after(d2, id, after))
                    bound = knn_offer(l, d2, id, idx, bound);
            }
        }
        left -= n;
        /* a build fills a leaf's buckets one after the other: guess it, as for siblings */
        if (bk[0] == b + 1u)
            b++;
        else
            b = bk[0];
    }
    return bound;
}

/* The k nearest within `bound` (squared) that come after `after` (NULL: all of them). The walk
 * goes straight down into the nearest child; the others wait on the stack, farthest deepest,
 * and are dropped when popped if they can no longer hold a better neighbour. */
static void knn_walk(const copse_octree *t, const float *p, float bound, copse_neighbor_list *l,
                     const copse_neighbor *after)
{
    knn_entry stack[KNN_STACK];
    uint32_t sp = 0, cur = 0;
    const copse_octree_node *nodes = t->nodes;
    if (geo_box_dist_sq(p, nodes[0].min, nodes[0].max, 3) > bound)
        return;
    for (;;) {
        const copse_octree_node *node = &nodes[cur];
        bool descend = false;
        /* everything in it came before `after`: reported by an earlier batch */
        if (after != NULL && geo_box_far_dist_sq(p, node->min, node->max) < after->distance_sq) {
            /* skip */
        } else if (oct_is_leaf(node)) {
            bound = knn_leaf(t, node, p, bound, l, after);
        } else {
            knn_entry kids[8];
            uint32_t c = node->first, nk = 0, i;
            while (c != OCT_NONE) {
                const copse_octree_node *kid = &nodes[c];
                float d2 = geo_box_dist_sq(p, kid->min, kid->max, 3);
                uint32_t next = kid->next;
                if (d2 <= bound) { /* ties must be visited: an equal distance may bring a lower id */
                    /* insertion by decreasing distance: the nearest ends up last */
                    for (i = nk; i > 0u && kids[i - 1u].d2 < d2; i--)
                        kids[i] = kids[i - 1u];
                    kids[i].node = c;
                    kids[i].d2 = d2;
                    nk++;
                }
                /* a build allocates siblings one after the other: guess it, so the next
                 * child's load need not wait for this one's link */
                if (next == c + 1u)
                    c++;
                else
                    c = next;
            }
            if (nk > 0u) {
                for (i = 0; i + 1u < nk && sp < KNN_STACK; i++)
                    stack[sp++] = kids[i];
                cur = kids[nk - 1u].node;
                descend = true;
#if defined(__GNUC__)
                {
                    const copse_octree_node *nx = &nodes[cur];
                    if (nx->first != OCT_NONE) {
                        if (oct_is_leaf(nx)) {
                            const uint32_t *bk = oct_bucket(t, nx->first);
                            __builtin_prefetch(bk);
                        } else { /* its children, one after the other: 8 x 36 bytes at most */
                            uint32_t f = nx->first, j;
                            for (j = 0; j < 8u && f + j < t->node_top; j += 2u)
                                __builtin_prefetch(&nodes[f + j]);
                        }
                    }
                }
#endif
            }
        }
        if (!descend) {
            for (;;) {
                if (sp == 0u)
                    return;
                sp--;
                if (stack[sp].d2 <= bound) /* ties must be visited, as above */
                    break;
            }
            cur = stack[sp].node;
        }
    }
}

copse_status copse_octree_knn(const copse_octree *tree, copse_vec3 point, float max_distance,
                              copse_neighbor_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->count = 0;
    if (tree == NULL || (out->items == NULL && out->capacity > 0u))
        return COPSE_ERR_NULL;
    if (!oct_finite3(&point.x) || max_distance != max_distance)
        return COPSE_ERR_NONFINITE;
    if (max_distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (tree->nodes == NULL || tree->size == 0u || out->capacity == 0u)
        return COPSE_OK;
    /* FLT_MAX squared is +infinity: every finite distance is in range */
    knn_walk(tree, &point.x, max_distance * max_distance, out, NULL);
    return COPSE_OK;
}

copse_status copse_octree_visit_nearest(const copse_octree *tree, copse_vec3 point, float max_distance,
                                        copse_neighbor *scratch, uint32_t scratch_capacity,
                                        copse_neighbor_visitor visit, void *user)
{
    copse_neighbor after;
    bool first = true;
    if (tree == NULL || scratch == NULL || visit == NULL)
        return COPSE_ERR_NULL;
    if (scratch_capacity == 0u)
        return COPSE_ERR_PARAM;
    if (!oct_finite3(&point.x) || max_distance != max_distance)
        return COPSE_ERR_NONFINITE;
    if (max_distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (tree->nodes == NULL || tree->size == 0u)
        return COPSE_OK;
    for (;;) {
        copse_neighbor_list batch = copse_neighbor_list_make(scratch, scratch_capacity);
        uint32_t i;
        knn_walk(tree, &point.x, max_distance * max_distance, &batch, first ? NULL : &after);
        for (i = 0; i < batch.count; i++)
            if (!visit(user, &scratch[i]))
                return COPSE_OK;
        if (batch.count < scratch_capacity)
            return COPSE_OK;
        after = scratch[batch.count - 1u];
        first = false;
    }
}

copse_status copse_octree_nearest(const copse_octree *tree, copse_vec3 point, float max_distance,
                                  copse_nearest3 *out)
{
    copse_neighbor best;
    copse_neighbor_list l = copse_neighbor_list_make(&best, 1);
    copse_status st;
    if (out == NULL)
        return COPSE_ERR_NULL;
    st = copse_octree_knn(tree, point, max_distance, &l);
    out->distance_sq = l.count > 0u ? best.distance_sq : FLT_MAX;
    out->id = l.count > 0u ? best.id : COPSE_NONE;
    out->point = l.count > 0u ? tree->points[best.index] : point;
    return st;
}

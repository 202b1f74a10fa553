/* SPDX-License-Identifier: MIT */
/*
 * Point octree queries.
 *
 *  - Region queries (box, sphere, capsule): depth-first over the exact node bounds with a stack
 *    of pending siblings (one entry per level). A node wholly inside the region reports its
 *    points without testing them (the tests would all pass: see geo_box_far_dist_sq).
 *  - k nearest: straight down into the child that holds the query (or the nearest child), the
 *    others waiting on a stack with a lower bound of their distance, dropped when popped if they
 *    can no longer hold a better neighbour. While the query lies in a node's bounds its siblings
 *    wait as one entry bounded by the cell's split planes, so they cost one test until needed.
 */

#include "octree_internal.h"

/* ---- region walk ----------------------------------------------------------------------------- */

typedef enum region_kind { REGION_BOX, REGION_SPHERE, REGION_CAPSULE } region_kind;

typedef struct region {
    float min[3], max[3]; /* box; for a capsule: the segment's box grown by the margin */
    float c[3], r2;       /* sphere */
    float radius;         /* sphere, capsule (r2 its square) */
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
        /* wholly inside only while the squares are finite (geo_within) */
        return q->r2 <= FLT_MAX && geo_box_far_dist_sq(q->c, n->min, n->max) <= q->r2 ? 2u : 1u;
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
        return geo_within(p, q->c, q->radius, q->r2);
    {
        float s[3];
        geo_segment_closest(s, p, q->a, q->b);
        return geo_within(p, s, q->radius, q->r2);
    }
}

#define WALK_INSIDE 0x80000000u /* stack entry flag: the node lies wholly inside the region */

/* Node indices stay below COPSE_OCTREE_MAX_POINTS < 2^28: bit 31 is free for the flag. */
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
                        float p[3];
                        if ((v == 2u || region_vs_point(q, kind, geo_v3_array(p, t->points[idx]))) &&
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
    if (!oct_finite_v3(box->min) || !oct_finite_v3(box->max))
        return COPSE_ERR_NONFINITE;
    geo_v3_array(q->min, box->min);
    geo_v3_array(q->max, box->max);
    for (a = 0; a < 3; a++) {
        if (q->min[a] > q->max[a])
            return COPSE_ERR_EMPTY_RANGE;
    }
    return COPSE_OK;
}

static copse_status sphere_region(region *q, const copse_sphere *s)
{
    if (s == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(s->center) || !geo_finite(s->radius))
        return COPSE_ERR_NONFINITE;
    if (s->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    q->c[0] = s->center.x;
    q->c[1] = s->center.y;
    q->c[2] = s->center.z;
    q->radius = s->radius;
    q->r2 = s->radius * s->radius;
    return COPSE_OK;
}

static copse_status capsule_region(region *q, const copse_octree *t, const copse_capsule *cap)
{
    float d[3], mag;
    unsigned a;
    if (cap == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(cap->segment.a) || !oct_finite_v3(cap->segment.b) || !geo_finite(cap->radius))
        return COPSE_ERR_NONFINITE;
    if (cap->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    mag = cap->radius;
    geo_v3_array(q->a, cap->segment.a);
    geo_v3_array(q->b, cap->segment.b);
    for (a = 0; a < 3; a++) {
        d[a] = q->b[a] - q->a[a];
        mag = geo_max(mag, geo_max(copse_fabsf(q->a[a]), copse_fabsf(q->b[a])));
        if (t != NULL && t->nodes != NULL && t->size > 0u)
            mag = geo_max(mag, geo_max(copse_fabsf(t->nodes[0].min[a]), copse_fabsf(t->nodes[0].max[a])));
    }
    /* the point test rounds the closest point and the distance: a few ulps of the largest
     * coordinate involved; nodes are culled against a margin well beyond that */
    q->margin = cap->radius + mag * (64.0f * FLT_EPSILON);
    q->radius = cap->radius;
    q->r2 = cap->radius * cap->radius;
    for (a = 0; a < 3; a++) {
        q->min[a] = geo_min(q->a[a], q->b[a]) - q->margin;
        q->max[a] = geo_max(q->a[a], q->b[a]) + q->margin;
    }
    geo_ray_init(&q->ray, q->a, d, 1.0f, 3);
    return COPSE_OK;
}

copse_status copse_octree_overlap_box(const copse_octree *tree, const copse_box3 *box, copse_id_list *out)
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

copse_status copse_octree_overlap_sphere(const copse_octree *tree, const copse_sphere *sphere, copse_id_list *out)
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

copse_status copse_octree_overlap_capsule(const copse_octree *tree, const copse_capsule *capsule, copse_id_list *out)
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

/* ---- k nearest ------------------------------------------------------------------------------- */

/* A stack entry: a node to visit, or (KNN_REST) the children of a node but the one in the
 * query's octant, with a lower bound of the distance of every point below them. */
typedef struct knn_entry {
    uint32_t node;
    float d2;
} knn_entry;

#define KNN_STACK (7u * COPSE_OCTREE_MAX_DEPTH + 8u)
#define KNN_REST 0x80000000u /* node indices stay below 2^28 */

/* A k-nearest walk: its stack, and the cells of the nodes on the current path that contain the
 * query in their bounds (a cell is derived from the parent's with the arithmetic that placed the
 * points, as insert and check do, so every point lies in its octant of it). An entry's parent
 * is on the path until the entry is popped, so its cell is still there when it is needed. */
typedef struct knn_walker {
    const copse_octree *t;
    const float *p;
    knn_entry stack[KNN_STACK];
    uint8_t level[KNN_STACK];  /* the level of each entry's node (root 0) */
    float c[COPSE_OCTREE_MAX_DEPTH + 1u][3], h[COPSE_OCTREE_MAX_DEPTH + 1u];
    uint32_t sp;
    bool inside;               /* the node entered last holds the query in its bounds; cell known */
} knn_walker;

/* The order of neighbours: (distance_sq, id, index). The index, unique in a tree, makes it
 * total even when callers' ids repeat, so the visitor's batches can resume after any point. */
COPSE_INLINE bool neighbor_before(float d2, uint32_t id, uint32_t index, const copse_neighbor *b)
{
    return d2 < b->distance_sq || (d2 == b->distance_sq && (id < b->id || (id == b->id && index < b->index)));
}

/* Inserts items[n] into the sorted items[0..n) (by distance first: equal distances are rare). */
COPSE_INLINE void knn_insert(copse_neighbor *items, uint32_t n, copse_neighbor v)
{
    uint32_t i = n;
    for (; i > 0u && v.distance_sq < items[i - 1u].distance_sq; i--)
        items[i] = items[i - 1u];
    for (; i > 0u && neighbor_before(v.distance_sq, v.id, v.index, &items[i - 1u]); i--)
        items[i] = items[i - 1u];
    items[i] = v;
}

/* Sorts a list that did not fill up (knn_offer leaves it in arrival order until it is full). */
static void knn_finish(copse_neighbor_list *l)
{
    uint32_t i;
    if (l->count < l->capacity)
        for (i = 1; i < l->count; i++)
            knn_insert(l->items, i, l->items[i]);
}

/* Adds a point the caller found within `bound`; returns the squared distance a node must not
 * exceed from now on. Until the list is full, the bound does not move, so the points are only
 * appended, and sorted once when the list fills (or by knn_finish). */
COPSE_INLINE float knn_offer(copse_neighbor_list *l, float d2, uint32_t id, uint32_t index, float bound)
{
    copse_neighbor v;
    uint32_t n = l->count;
    v.distance_sq = d2;
    v.id = id;
    v.index = index;
    if (n < l->capacity) {
        l->items[n] = v;
        l->count = ++n;
        if (n < l->capacity)
            return bound;
        for (n = 1; n < l->count; n++)
            knn_insert(l->items, n, l->items[n]);
    } else if (neighbor_before(d2, id, index, &l->items[n - 1u])) {
        knn_insert(l->items, n - 1u, v);
    }
    return l->items[l->count - 1u].distance_sq;
}

/* Is (d2, id, index) after the neighbour `a`? */
COPSE_INLINE bool neighbor_after(float d2, uint32_t id, uint32_t index, const copse_neighbor *a)
{
    return d2 > a->distance_sq || (d2 == a->distance_sq && (id > a->id || (id == a->id && index > a->index)));
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
            float at[3], d2 = geo_dist_sq3(geo_v3_array(at, pts[idx]), p);
            if (d2 <= bound) {
                uint32_t id = oct_point_id(t, idx);
                if (after == NULL || neighbor_after(d2, id, idx, after))
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

COPSE_INLINE void knn_push(knn_walker *w, uint32_t node, float d2, unsigned level)
{
    if (w->sp < KNN_STACK) {
        w->stack[w->sp].node = node;
        w->stack[w->sp].d2 = d2;
        w->level[w->sp] = (uint8_t)level;
        w->sp++;
    }
}

/* Child `kid` of the node at `level`, at box distance d2, becomes the node at level + 1. Its
 * cell is needed only while the query lies in its bounds (see knn_internal); a parent's box
 * contains its children's, so a child at distance 0 has a parent at distance 0, whose cell is
 * known. */
COPSE_INLINE uint32_t knn_enter(knn_walker *w, uint32_t kid, unsigned level, float d2)
{
    w->inside = d2 == 0.0f && level < COPSE_OCTREE_MAX_DEPTH;
    if (w->inside)
        oct_child_cell(w->c[level], w->h[level], oct_octant(&w->t->nodes[kid]), w->c[level + 1u],
                       &w->h[level + 1u]);
#if defined(__GNUC__)
    { /* its children (one after the other, 8 x 36 bytes at most) or its first bucket */
        const copse_octree *t = w->t;
        const copse_octree_node *nx = &t->nodes[kid];
        if (nx->first != OCT_NONE) {
            if (oct_is_leaf(nx)) {
                __builtin_prefetch(oct_bucket(t, nx->first));
            } else {
                uint32_t f = nx->first, j;
                for (j = 0; j < 8u && f + j < t->node_top; j += 2u)
                    __builtin_prefetch(&t->nodes[f + j]);
            }
        }
    }
#endif
    return kid;
}

/* The children of node n (at `level`) but the one in octant `skip` (8: none) that may hold a
 * point within `bound`: the nearest is returned (OCT_NONE: none), the others pushed, farthest
 * deepest. */
COPSE_INLINE uint32_t knn_children(knn_walker *w, uint32_t n, unsigned level, unsigned skip, float bound)
{
    const copse_octree_node *nodes = w->t->nodes;
    knn_entry kids[8];
    uint32_t c = nodes[n].first, nk = 0, i;
    while (c != OCT_NONE) {
        const copse_octree_node *kid = &nodes[c];
        uint32_t next = kid->next;
        if (oct_octant(kid) != skip) {
            float d2 = geo_box_dist_sq(w->p, kid->min, kid->max, 3);
            if (d2 <= bound) { /* ties must be visited, as below */
                /* insertion by decreasing distance: the nearest ends up last */
                for (i = nk; i > 0u && kids[i - 1u].d2 < d2; i--)
                    kids[i] = kids[i - 1u];
                kids[i].node = c;
                kids[i].d2 = d2;
                nk++;
            }
        }
        /* a build allocates siblings one after the other: guess it, so the next child's load
         * need not wait for this one's link */
        if (next == c + 1u)
            c++;
        else
            c = next;
    }
    if (nk == 0u)
        return OCT_NONE;
    for (i = 0; i + 1u < nk; i++)
        knn_push(w, kids[i].node, kids[i].d2, level + 1u);
    return knn_enter(w, kids[nk - 1u].node, level, kids[nk - 1u].d2);
}

/* Internal node n at `level`: when the query lies in the bounds of the child in its octant, the
 * walk goes straight into that child, and its siblings wait on the stack as one entry, bounded
 * by the query's distance to the nearest of the cell's three split planes: a point in another
 * octant lies across one of them, so its distance on that axis is at least the plane's (rounding
 * is monotonic). Returns that child, or OCT_NONE when the children must be judged by box
 * distance (knn_children). */
COPSE_INLINE uint32_t knn_octant_child(knn_walker *w, uint32_t n, unsigned level, float bound)
{
    const copse_octree_node *nodes = w->t->nodes;
    const float *p = w->p, *c = w->c[level];
    unsigned o;
    uint32_t kid = nodes[n].first;
    if (!w->inside) /* outside n's bounds: outside every child's */
        return OCT_NONE;
    o = oct_octant_of(p, c);
    while (kid != OCT_NONE && oct_octant(&nodes[kid]) != o)
        kid = nodes[kid].next == kid + 1u ? kid + 1u : nodes[kid].next;
    if (kid == OCT_NONE || geo_box_dist_sq(p, nodes[kid].min, nodes[kid].max, 3) > 0.0f)
        return OCT_NONE;
    if (nodes[n].first != kid || nodes[kid].next != OCT_NONE) {
        float dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
        float plane = geo_min(geo_min(dx * dx, dy * dy), dz * dz);
        if (plane <= bound)
            knn_push(w, n | KNN_REST, plane, level);
    }
    return knn_enter(w, kid, level, 0.0f);
}

/* copse_octree_knn_in's promise (octree.h): the walker fits the bytes the header asks for. */
typedef char knn_work_fits[sizeof(knn_walker) <= COPSE_OCTREE_KNN_WORK_BYTES ? 1 : -1];

/* The k nearest within `bound` (squared) that come after `after` (NULL: all of them). Pending
 * nodes wait on the stack with a lower bound of their distance and are dropped when popped if
 * they can no longer hold a better neighbour. Each step visits node `cur` at `level`, or, when
 * `expand`, judges its children but the one in octant `skip` (8: none) by box distance. */
static void knn_walk(knn_walker *w, const copse_octree *t, const float *p, float bound, copse_neighbor_list *l,
                     const copse_neighbor *after)
{
    uint32_t cur = 0;
    unsigned level = 0, skip = 8u;
    bool expand = false;
    const copse_octree_node *nodes = t->nodes;
    float d2 = geo_box_dist_sq(p, nodes[0].min, nodes[0].max, 3);
    if (d2 > bound)
        return;
    w->inside = d2 == 0.0f;
    w->t = t;
    w->p = p;
    w->sp = 0;
    __builtin_memcpy(w->c[0], t->center, sizeof w->c[0]);
    w->h[0] = t->half;
    for (;;) {
        knn_entry e;
        if (expand) {
            cur = knn_children(w, cur, level, skip, bound);
            expand = false;
            if (cur != OCT_NONE) {
                level++;
                continue;
            }
        } else if (after != NULL && geo_box_far_dist_sq(p, nodes[cur].min, nodes[cur].max) < after->distance_sq) {
            /* everything in it came before `after`: reported by an earlier batch */
        } else if (oct_is_leaf(&nodes[cur])) {
            bound = knn_leaf(t, &nodes[cur], p, bound, l, after);
        } else {
            uint32_t kid = knn_octant_child(w, cur, level, bound);
            expand = kid == OCT_NONE;
            skip = 8u;
            if (!expand) {
                cur = kid;
                level++;
            }
            continue;
        }
        do {
            if (w->sp == 0u)
                return;
            e = w->stack[--w->sp];
        } while (e.d2 > bound); /* ties must be visited: an equal distance may bring a lower id */
        level = w->level[w->sp];
        if ((e.node & KNN_REST) != 0u) {
            cur = e.node & ~KNN_REST;
            skip = oct_octant_of(p, w->c[level]);
            expand = true;
        } else {
            cur = knn_enter(w, e.node, level - 1u, e.d2);
        }
    }
}

/* k nearest with the walk's state in w. */
COPSE_INLINE copse_status knn_run(knn_walker *w, const copse_octree *tree, copse_vec3 point, float max_distance,
                                 copse_neighbor_list *out)
{
    out->count = 0;
    if (tree == NULL || (out->items == NULL && out->capacity > 0u))
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(point) || max_distance != max_distance)
        return COPSE_ERR_NONFINITE;
    if (max_distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (tree->nodes == NULL || tree->size == 0u || out->capacity == 0u)
        return COPSE_OK;
    /* FLT_MAX squared is +infinity: every finite distance is in range */
    {
        float p[3];
        knn_walk(w, tree, geo_v3_array(p, point), max_distance * max_distance, out, NULL);
    }
    knn_finish(out);
    return COPSE_OK;
}

copse_status copse_octree_knn(const copse_octree *tree, copse_vec3 point, float max_distance,
                              copse_neighbor_list *out)
{
    knn_walker w;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return knn_run(&w, tree, point, max_distance, out);
}

copse_status copse_octree_knn_in(const copse_octree *tree, copse_vec3 point, float max_distance, void *work,
                                 size_t work_bytes, copse_neighbor_list *out)
{
    if (out == NULL)
        return COPSE_ERR_NULL;
    out->count = 0;
    if (work == NULL)
        return COPSE_ERR_NULL;
    if (((uintptr_t)work & (COPSE_ARENA_ALIGN - 1u)) != 0u)
        return COPSE_ERR_ALIGN;
    if (work_bytes < COPSE_OCTREE_KNN_WORK_BYTES)
        return COPSE_ERR_NOMEM;
    return knn_run((knn_walker *)work, tree, point, max_distance, out);
}

copse_status copse_octree_visit_nearest(const copse_octree *tree, copse_vec3 point, float max_distance,
                                        copse_neighbor *scratch, uint32_t scratch_capacity,
                                        copse_neighbor_visitor visit, void *user)
{
    knn_walker w;
    copse_neighbor after;
    bool first = true;
    float p[3];
    if (tree == NULL || scratch == NULL || visit == NULL)
        return COPSE_ERR_NULL;
    if (scratch_capacity == 0u)
        return COPSE_ERR_PARAM;
    if (!oct_finite_v3(point) || max_distance != max_distance)
        return COPSE_ERR_NONFINITE;
    if (max_distance < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (tree->nodes == NULL || tree->size == 0u)
        return COPSE_OK;
    for (;;) {
        copse_neighbor_list batch = copse_neighbor_list_make(scratch, scratch_capacity);
        uint32_t i;
        knn_walk(&w, tree, geo_v3_array(p, point), max_distance * max_distance, &batch, first ? NULL : &after);
        knn_finish(&batch);
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

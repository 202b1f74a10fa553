/* SPDX-License-Identifier: MIT */
/*
 * The loose object octree: boxes with ids in a fixed pool of sparse nodes.
 *
 * A node's cell is never stored: every walk derives it from the world cube with the same
 * arithmetic (oct_child_cell), so an insertion and a query agree on it bit for bit. An object
 * descends while it is no larger than the child cell and its box lies inside the child's loose
 * cell [c - 2h, c + 2h] as computed; so every object lies inside the loose cell of its node,
 * exactly in float, and culling a node culls nothing visible. The root also keeps the objects
 * that stick out of the world; they are always tested.
 */

#include "../core/arena_internal.h"
#include "octree_internal.h"

/* ---- nodes and pool ----------------------------------------------------------------------------- */

/* meta: octant in the parent's cell (bits 0..2), split (bit 3: objects that fit deeper go to a
 * child), object count (bits 4..31); OCT_NONE marks a free node. */
#define LN_SPLIT 8u
#define LN_COUNT_SHIFT 4u

COPSE_INLINE unsigned ln_octant(const copse_loose_node *n)
{
    return n->meta & 7u;
}

COPSE_INLINE uint32_t ln_count(const copse_loose_node *n)
{
    return n->meta >> LN_COUNT_SHIFT;
}

/* With node_capacity 0 every node is split: objects always go as deep as they fit. */
COPSE_INLINE bool ln_split(const copse_loose *t, const copse_loose_node *n)
{
    return t->node_capacity == 0u || (n->meta & LN_SPLIT) != 0u;
}

static void ln_link(copse_loose *t, uint32_t n, uint32_t id)
{
    t->objects[id].node = n;
    t->objects[id].next = t->nodes[n].first_object;
    t->nodes[n].first_object = id;
    t->nodes[n].meta += 1u << LN_COUNT_SHIFT;
}

static void ln_unlink(copse_loose *t, uint32_t id)
{
    uint32_t n = t->objects[id].node, *link = &t->nodes[n].first_object;
    while (*link != id)
        link = &t->objects[*link].next;
    *link = t->objects[id].next;
    t->nodes[n].meta -= 1u << LN_COUNT_SHIFT;
    t->objects[id].node = OCT_NONE;
    t->objects[id].next = OCT_NONE;
}

static uint32_t lnode_alloc(copse_loose *t, unsigned octant)
{
    uint32_t n = t->node_free;
    copse_loose_node *node;
    if (n != OCT_NONE)
        t->node_free = t->nodes[n].next;
    else
        n = t->node_top++;
    t->nodes_used++;
    node = &t->nodes[n];
    node->first_child = node->next = node->first_object = OCT_NONE;
    node->meta = octant;
    return n;
}

static void lnode_release(copse_loose *t, uint32_t n)
{
    t->nodes[n].next = t->node_free;
    t->nodes[n].first_child = t->nodes[n].first_object = OCT_NONE;
    t->nodes[n].meta = OCT_NONE;
    t->node_free = n;
    t->nodes_used--;
}

static uint32_t lfind_child(const copse_loose *t, uint32_t n, unsigned octant)
{
    uint32_t c;
    for (c = t->nodes[n].first_child; c != OCT_NONE; c = t->nodes[c].next)
        if (ln_octant(&t->nodes[c]) == octant)
            return c;
    return OCT_NONE;
}

COPSE_INLINE void loose_box_of(const float *c, float h, float *mn, float *mx)
{
    float g = 2.0f * h;
    mn[0] = c[0] - g;
    mn[1] = c[1] - g;
    mn[2] = c[2] - g;
    mx[0] = c[0] + g;
    mx[1] = c[1] + g;
    mx[2] = c[2] + g;
}

/* ---- where a box lives ------------------------------------------------------------------------ */

typedef struct descent {
    uint32_t depth;                               /* levels below the root */
    uint8_t octant[COPSE_LOOSE_MAX_DEPTH];        /* octant taken at each level */
    uint32_t node[COPSE_LOOSE_MAX_DEPTH + 1u];    /* existing nodes on the path, OCT_NONE from the first missing */
    uint32_t missing;                             /* nodes to create */
} descent;

static void descend(const copse_loose *t, const copse_box3 *box, descent *d)
{
    float bmin[3], bmax[3], c[3], h, m[3], ext = 0.0f;
    uint32_t n = 0;
    unsigned a;
    geo_v3_array(bmin, box->min);
    geo_v3_array(bmax, box->max);
    __builtin_memcpy(c, t->center, sizeof c);
    h = t->half;
    for (a = 0; a < 3; a++) {
        float e = bmax[a] * 0.5f - bmin[a] * 0.5f;
        m[a] = bmin[a] * 0.5f + bmax[a] * 0.5f;
        ext = e > ext ? e : ext;
    }
    d->depth = 0;
    d->missing = 0;
    d->node[0] = 0;
    while (d->depth < t->max_depth) {
        float cc[3], ch, lmin[3], lmax[3];
        unsigned o = oct_octant_of(m, c);
        oct_child_cell(c, h, o, cc, &ch);
        loose_box_of(cc, ch, lmin, lmax);
        if (ext > ch || !geo_box_inside(bmin, bmax, lmin, lmax))
            break;
        d->octant[d->depth] = (uint8_t)o;
        n = n == OCT_NONE ? OCT_NONE : lfind_child(t, n, o);
        d->missing += n == OCT_NONE;
        d->node[++d->depth] = n;
        __builtin_memcpy(c, cc, sizeof c);
        h = ch;
    }
}

static copse_status check_box(const copse_box3 *box)
{
    if (box == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(box->min) || !oct_finite_v3(box->max))
        return COPSE_ERR_NONFINITE;
    if (box->min.x > box->max.x || box->min.y > box->max.y || box->min.z > box->max.z)
        return COPSE_ERR_EMPTY_RANGE;
    return COPSE_OK;
}

/* ---- init ------------------------------------------------------------------------------------ */

size_t copse_loose_bytes(const copse_loose_config *config)
{
    if (config == NULL || config->max_nodes < 1u || config->max_nodes > COPSE_LOOSE_MAX_OBJECTS ||
        config->max_objects > COPSE_LOOSE_MAX_OBJECTS || config->max_depth > COPSE_LOOSE_MAX_DEPTH ||
        !oct_array_fits(config->max_nodes, COPSE_LOOSE_NODE_BYTES) ||
        !oct_array_fits(config->max_objects, COPSE_LOOSE_OBJECT_BYTES))
        return (size_t)-1;
    return COPSE_LOOSE_BYTES(config->max_nodes, config->max_objects);
}

void copse_loose_clear(copse_loose *t)
{
    uint32_t i;
    if (t == NULL || t->nodes == NULL || t->read_only)
        return;
    t->node_top = 0;
    t->node_free = OCT_NONE;
    t->nodes_used = 0;
    t->size = 0;
    (void)lnode_alloc(t, 0);
    for (i = 0; i < t->max_objects; i++) {
        __builtin_memset(&t->objects[i].box, 0, sizeof t->objects[i].box);
        t->objects[i].node = OCT_NONE;
        t->objects[i].next = OCT_NONE;
    }
}

copse_status copse_loose_init(copse_loose *t, copse_arena *arena, const copse_loose_config *config)
{
    size_t bytes;
    if (t == NULL)
        return COPSE_ERR_NULL;
    __builtin_memset(t, 0, sizeof *t);
    if (arena == NULL || config == NULL)
        return COPSE_ERR_NULL;
    if (!copse__arena_config_ok(arena))
        return COPSE_ERR_CONFIG;
    bytes = copse_loose_bytes(config);
    if (bytes == (size_t)-1)
        return COPSE_ERR_PARAM;
    {
        copse_status st = check_box(&config->world);
        if (st != COPSE_OK)
            return st;
    }
    if (!copse_arena_reserve_check(arena, bytes))
        return COPSE_ERR_NOMEM;
    t->nodes = (copse_loose_node *)copse_arena_alloc(arena, COPSE_LOOSE_NODE_BYTES * (size_t)config->max_nodes);
    t->objects =
        (copse_loose_object *)copse_arena_alloc(arena, COPSE_LOOSE_OBJECT_BYTES * (size_t)config->max_objects);
    oct_cube_around_box(&config->world, t->center, &t->half);
    t->max_nodes = config->max_nodes;
    t->max_objects = config->max_objects;
    t->max_depth = config->max_depth;
    t->node_capacity = config->node_capacity;
    copse_loose_clear(t);
    return COPSE_OK;
}

/* ---- insert, remove, move -------------------------------------------------------------------- */

static copse_status check_id(const copse_loose *t, uint32_t id)
{
    if (t == NULL)
        return COPSE_ERR_NULL;
    if (t->read_only)
        return COPSE_ERR_READ_ONLY;
    if (t->nodes == NULL)
        return COPSE_ERR_PARAM;
    return id < t->max_objects ? COPSE_OK : COPSE_ERR_INDEX;
}

/* Where an object on descent d lands: down its path through split nodes, to the first node that
 * is not split (a node made on the way is not) or the end of the path. The level; *missing: the
 * nodes to make on the way. */
static uint32_t landing(const copse_loose *t, const descent *d, uint32_t *missing)
{
    uint32_t level = 0;
    *missing = 0;
    while (level < d->depth) {
        uint32_t n = d->node[level];
        if (n == OCT_NONE ? t->node_capacity > 0u : !ln_split(t, &t->nodes[n]))
            break;
        level++;
        *missing += d->node[level] == OCT_NONE;
    }
    return level;
}

/* Does the box's path go below `level`? Then *octant is the one it takes there. */
static bool goes_below(const copse_loose *t, const copse_box3 *box, uint32_t level, unsigned *octant)
{
    descent d;
    descend(t, box, &d);
    if (d.depth <= level)
        return false;
    *octant = d.octant[level];
    return true;
}

/* A node at `level`, not split, holding more than node_capacity objects splits: the objects that
 * fit deeper go to the children of their octants. A child that receives them all holds more than
 * node_capacity in turn and splits too, and so on down. Counts the nodes this makes (apply =
 * false; `extra`: an object about to be added to n, not linked yet), or does it (apply = true). */
static uint32_t push_down(copse_loose *t, uint32_t n, uint32_t level, const copse_box3 *extra, bool apply)
{
    uint32_t made = 0;
    for (;;) {
        uint32_t o, next, stay = 0, moved = 0, kids = 0;
        unsigned seen = 0, oct = 0;
        if (apply)
            t->nodes[n].meta |= LN_SPLIT;
        for (o = t->nodes[n].first_object; o != OCT_NONE; o = next) {
            next = t->objects[o].next;
            if (!goes_below(t, &t->objects[o].box, level, &oct)) {
                stay++;
                continue;
            }
            moved++;
            kids += (seen >> oct & 1u) == 0u;
            seen |= 1u << oct;
            if (apply) {
                uint32_t child = lfind_child(t, n, oct);
                if (child == OCT_NONE) {
                    child = lnode_alloc(t, oct);
                    t->nodes[child].next = t->nodes[n].first_child;
                    t->nodes[n].first_child = child;
                }
                ln_unlink(t, o);
                ln_link(t, child, o);
            }
        }
        if (extra != NULL) {
            if (goes_below(t, extra, level, &oct)) {
                moved++;
                kids += (seen >> oct & 1u) == 0u;
                seen |= 1u << oct;
            } else {
                stay++;
            }
        }
        made += kids;
        if (kids != 1u || stay != 0u || moved <= t->node_capacity || level + 1u >= t->max_depth)
            return made;
        level++; /* one child took them all: it splits next (counting: the same objects again) */
        if (apply)
            n = t->nodes[n].first_child;
    }
}

static bool loose_nodes_free(copse_loose *t, uint32_t need)
{
    uint32_t free_nodes = t->max_nodes - t->nodes_used;
    t->nodes_short = need > free_nodes ? need - free_nodes : 0u;
    return t->nodes_short == 0u;
}

/* Nodes an insertion of `box` takes, splits included. */
static uint32_t place_needs(copse_loose *t, const copse_box3 *box)
{
    descent d;
    uint32_t missing, level, n;
    descend(t, box, &d);
    level = landing(t, &d, &missing);
    n = d.node[level];
    if (t->node_capacity > 0u && level < t->max_depth && (n == OCT_NONE || !ln_split(t, &t->nodes[n])) &&
        (n == OCT_NONE ? 0u : ln_count(&t->nodes[n])) + 1u > t->node_capacity)
        missing += push_down(t, n, level, box, false);
    return missing;
}

/* Makes the missing nodes, links the object, splits its node if it overflows. */
static void place(copse_loose *t, uint32_t id, const copse_box3 *box)
{
    descent d;
    uint32_t missing, level, k, n;
    descend(t, box, &d);
    level = landing(t, &d, &missing);
    for (k = 1; k <= level; k++) {
        if (d.node[k] == OCT_NONE) {
            uint32_t parent = d.node[k - 1u];
            n = lnode_alloc(t, d.octant[k - 1u]);
            t->nodes[n].next = t->nodes[parent].first_child;
            t->nodes[parent].first_child = n;
            d.node[k] = n;
        }
    }
    n = d.node[level];
    t->objects[id].box = *box;
    ln_link(t, n, id);
    t->size++;
    if (t->node_capacity > 0u && level < t->max_depth && !ln_split(t, &t->nodes[n]) &&
        ln_count(&t->nodes[n]) > t->node_capacity)
        (void)push_down(t, n, level, NULL, true);
}

bool copse__loose_object_placed(const copse_loose *t, uint32_t id)
{
    const copse_loose_object *o = &t->objects[id];
    descent d;
    uint32_t missing, level;
    descend(t, &o->box, &d);
    level = landing(t, &d, &missing);
    return missing == 0u && d.node[level] == o->node;
}

/* Unlinks the object and frees the nodes its leaving emptied (deepest first). The object's node
 * lies on its descent path. */
static void unplace(copse_loose *t, uint32_t id)
{
    copse_loose_object *o = &t->objects[id];
    descent d;
    uint32_t node = o->node, level = 0;
    ln_unlink(t, id);
    descend(t, &o->box, &d);
    while (level < d.depth && d.node[level] != node)
        level++;
    while (level > 0u) {
        uint32_t m = d.node[level], parent = d.node[level - 1u], *clink;
        if (t->nodes[m].first_object != OCT_NONE || t->nodes[m].first_child != OCT_NONE)
            break;
        clink = &t->nodes[parent].first_child;
        while (*clink != m)
            clink = &t->nodes[*clink].next;
        *clink = t->nodes[m].next;
        lnode_release(t, m);
        level--;
    }
    t->size--;
}

copse_status copse_loose_insert(copse_loose *t, uint32_t id, const copse_box3 *box)
{
    copse_status st = check_id(t, id);
    if (st == COPSE_OK)
        st = check_box(box);
    if (st != COPSE_OK)
        return st;
    if (t->objects[id].node != OCT_NONE)
        return COPSE_ERR_INDEX;
    if (!loose_nodes_free(t, place_needs(t, box)))
        return COPSE_ERR_NOMEM;
    place(t, id, box);
    return COPSE_OK;
}

copse_status copse_loose_remove(copse_loose *t, uint32_t id)
{
    copse_status st = check_id(t, id);
    if (st != COPSE_OK)
        return st;
    if (t->objects[id].node == OCT_NONE)
        return COPSE_ERR_INDEX;
    unplace(t, id);
    return COPSE_OK;
}

copse_status copse_loose_move(copse_loose *t, uint32_t id, const copse_box3 *box)
{
    descent d;
    uint32_t missing, level;
    copse_status st = check_id(t, id);
    if (st == COPSE_OK)
        st = check_box(box);
    if (st != COPSE_OK)
        return st;
    if (t->objects[id].node == OCT_NONE)
        return COPSE_ERR_INDEX;
    descend(t, box, &d);
    level = landing(t, &d, &missing);
    if (missing == 0u && d.node[level] == t->objects[id].node) {
        t->objects[id].box = *box; /* it lands where it is: nothing moves */
        return COPSE_OK;
    }
    /* Removing first only frees nodes, at least as many as the new place then lacks more. */
    if (!loose_nodes_free(t, place_needs(t, box)))
        return COPSE_ERR_NOMEM;
    unplace(t, id);
    place(t, id, box);
    return COPSE_OK;
}

/* ---- queries --------------------------------------------------------------------------------- */

typedef enum lquery_kind { LQ_BOX, LQ_SPHERE, LQ_FRUSTUM, LQ_RAY } lquery_kind;

typedef struct lquery {
    float min[3], max[3];  /* box */
    float c[3], r2;        /* sphere */
    float n[6][3], d[6];   /* frustum planes */
    geo_ray ray;           /* ray, t in [0, t_max] */
    float t_max;
    copse_hit best;        /* first hit */
    copse_hit_visitor hit_visit;
    void *user;
    bool first_only, stop;
} lquery;

#define LQ_ALL 0x3Fu /* every plane still to test; for the other queries: "not known inside" */

/* A node's loose box under the parent's state `mask`: OCT_NONE when it misses, else the state for
 * what it holds (0: wholly inside). */
COPSE_INLINE uint32_t lq_node(const lquery *q, lquery_kind kind, const float *mn, const float *mx, uint32_t mask)
{
    float t;
    if (mask == 0u)
        return 0u;
    switch (kind) {
    case LQ_BOX:
        if (!geo_box_overlap(q->min, q->max, mn, mx, 3))
            return OCT_NONE;
        return geo_box_inside(mn, mx, q->min, q->max) ? 0u : LQ_ALL;
    case LQ_SPHERE:
        if (geo_box_dist_sq(q->c, mn, mx, 3) > q->r2)
            return OCT_NONE;
        return geo_box_far_dist_sq(q->c, mn, mx) <= q->r2 ? 0u : LQ_ALL;
    case LQ_FRUSTUM: {
        unsigned k;
        for (k = 0; k < 6u; k++) {
            float lo, hi;
            if (!(mask & (1u << k)))
                continue;
            geo_plane_box(q->n[k], q->d[k], mn, mx, &lo, &hi);
            if (hi < 0.0f)
                return OCT_NONE;
            if (lo >= 0.0f)
                mask &= ~(1u << k);
        }
        return mask;
    }
    case LQ_RAY:
        return geo_ray_box(&q->ray, mn, mx, 0.0f, q->t_max, 3, true, &t) ? LQ_ALL : OCT_NONE;
    }
    return OCT_NONE;
}

/* A box against the planes its node still straddles: visible unless wholly outside one (q->n points in). */
COPSE_INLINE bool lq_frustum_box(const lquery *q, const float *mn, const float *mx, uint32_t mask)
{
    unsigned k;
    for (k = 0; k < 6u; k++) {
        const float *n = q->n[k];
        float pv[3];
        if (!(mask & (1u << k)))
            continue;
        pv[0] = n[0] >= 0.0f ? mx[0] : mn[0];
        pv[1] = n[1] >= 0.0f ? mx[1] : mn[1];
        pv[2] = n[2] >= 0.0f ? mx[2] : mn[2];
        if (geo_dot3(n, pv) + q->d[k] < 0.0f)
            return false;
    }
    return true;
}

/* The object's own test under its node's state (a ray reports its hit itself). */
COPSE_INLINE bool lq_object(lquery *q, lquery_kind kind, const copse_box3 *box, uint32_t id, uint32_t mask)
{
    float mn[3], mx[3];
    geo_v3_array(mn, box->min);
    geo_v3_array(mx, box->max);
    if (mask == 0u)
        return true; /* the node is wholly inside: so is everything in it */
    if (kind == LQ_FRUSTUM)
        return lq_frustum_box(q, mn, mx, mask);
    if (kind == LQ_RAY) {
        copse_hit h;
        if (!geo_ray_box(&q->ray, mn, mx, 0.0f, q->t_max, 3, false, &h.t))
            return false;
        h.id = id;
        h.u = h.v = 0.0f;
        if (q->first_only) {
            if (h.t < q->best.t || (h.t == q->best.t && id < q->best.id)) {
                q->best = h;
                q->t_max = h.t; /* nodes entered later cannot hold a nearer box */
            }
        } else if (!q->hit_visit(q->user, &h)) {
            q->stop = true;
        }
        return false;
    }
    return lq_node(q, kind, mn, mx, mask) != OCT_NONE;
}

typedef struct lwalk_entry {
    uint32_t node, mask;
    float c[3], h; /* the parent's cell */
} lwalk_entry;

/* Tests the objects of node n under `mask`; false when the walk must stop. */
COPSE_INLINE bool lq_objects(const copse_loose *t, lquery *q, lquery_kind kind, uint32_t n, uint32_t mask,
                             id_emitter *e)
{
    uint32_t o;
    for (o = t->nodes[n].first_object; o != OCT_NONE; o = t->objects[o].next) {
        if (lq_object(q, kind, &t->objects[o].box, o, mask) && !id_emit(e, o))
            return false;
        if (q->stop)
            return false;
    }
    return true;
}

COPSE_INLINE void loose_walk(const copse_loose *t, lquery *q, lquery_kind kind, id_emitter *e)
{
    lwalk_entry stack[COPSE_LOOSE_MAX_DEPTH + 1u];
    uint32_t sp = 0, n, pmask, mask;
    float pc[3], ph, c[3], h, mn[3], mx[3];
    if (t->nodes == NULL || t->size == 0u)
        return;
    /* the root's objects may stick out of the world: always tested in full */
    if (!lq_objects(t, q, kind, 0, LQ_ALL, e))
        return;
    loose_box_of(t->center, t->half, mn, mx);
    pmask = lq_node(q, kind, mn, mx, LQ_ALL);
    if (pmask == OCT_NONE)
        return;
    __builtin_memcpy(pc, t->center, sizeof pc);
    ph = t->half;
    n = t->nodes[0].first_child;
    while (n != OCT_NONE) {
        const copse_loose_node *node = &t->nodes[n];
        oct_child_cell(pc, ph, ln_octant(node), c, &h);
        loose_box_of(c, h, mn, mx);
        mask = lq_node(q, kind, mn, mx, pmask);
        if (mask != OCT_NONE) {
            if (!lq_objects(t, q, kind, n, mask, e))
                return;
            if (node->first_child != OCT_NONE) {
                if (node->next != OCT_NONE && sp <= COPSE_LOOSE_MAX_DEPTH) {
                    stack[sp].node = node->next;
                    stack[sp].mask = pmask;
                    __builtin_memcpy(stack[sp].c, pc, sizeof pc);
                    stack[sp].h = ph;
                    sp++;
                }
                __builtin_memcpy(pc, c, sizeof pc);
                ph = h;
                pmask = mask;
                n = node->first_child;
                continue;
            }
        }
        n = node->next;
        if (n == OCT_NONE && sp > 0u) {
            sp--;
            n = stack[sp].node;
            pmask = stack[sp].mask;
            __builtin_memcpy(pc, stack[sp].c, sizeof pc);
            ph = stack[sp].h;
        }
    }
}

static void lwalk_box(const copse_loose *t, lquery *q, id_emitter *e)
{
    loose_walk(t, q, LQ_BOX, e);
}

static void lwalk_sphere(const copse_loose *t, lquery *q, id_emitter *e)
{
    loose_walk(t, q, LQ_SPHERE, e);
}

static void lwalk_frustum(const copse_loose *t, lquery *q, id_emitter *e)
{
    loose_walk(t, q, LQ_FRUSTUM, e);
}

static void lwalk_ray(const copse_loose *t, lquery *q, id_emitter *e)
{
    loose_walk(t, q, LQ_RAY, e);
}

typedef void (*lwalk_fn)(const copse_loose *t, lquery *q, id_emitter *e);

static copse_status run_loose(const copse_loose *t, copse_status shape_status, lquery *q, copse_id_list *out,
                              copse_id_visitor visit, void *user, lwalk_fn walk)
{
    id_emitter e;
    copse_status st = id_emitter_init(&e, out, visit, user);
    if (st == COPSE_OK && t == NULL)
        st = COPSE_ERR_NULL;
    if (st == COPSE_OK)
        st = shape_status;
    if (st != COPSE_OK)
        return st;
    q->stop = false;
    walk(t, q, &e);
    return COPSE_OK;
}

static copse_status lbox_query(lquery *q, const copse_box3 *box)
{
    copse_status st = check_box(box);
    if (st == COPSE_OK) {
        geo_v3_array(q->min, box->min);
        geo_v3_array(q->max, box->max);
    }
    return st;
}

static copse_status lsphere_query(lquery *q, const copse_sphere *s)
{
    if (s == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(s->center) || !geo_finite(s->radius))
        return COPSE_ERR_NONFINITE;
    if (s->radius < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    geo_v3_array(q->c, s->center);
    q->r2 = s->radius * s->radius;
    return COPSE_OK;
}

static copse_status lfrustum_query(lquery *q, const copse_frustum *f)
{
    unsigned k;
    if (f == NULL)
        return COPSE_ERR_NULL;
    for (k = 0; k < 6u; k++) {
        const copse_plane *p = &f->planes[k];
        if (!oct_finite_v3(p->normal) || !geo_finite(p->dist))
            return COPSE_ERR_NONFINITE;
        /* kept as n.x + d >= 0 inside: n = -normal, d = dist (negation is exact) */
        q->n[k][0] = -p->normal.x;
        q->n[k][1] = -p->normal.y;
        q->n[k][2] = -p->normal.z;
        q->d[k] = p->dist;
    }
    return COPSE_OK;
}

static copse_status lray_query(lquery *q, const copse_ray3 *ray)
{
    if (ray == NULL)
        return COPSE_ERR_NULL;
    if (!oct_finite_v3(ray->origin) || !oct_finite_v3(ray->dir) || ray->t_max != ray->t_max)
        return COPSE_ERR_NONFINITE;
    if (ray->t_max < 0.0f)
        return COPSE_ERR_EMPTY_RANGE;
    if (ray->dir.x == 0.0f && ray->dir.y == 0.0f && ray->dir.z == 0.0f)
        return COPSE_ERR_PARAM;
    {
        float org[3], dir[3];
        geo_ray_init(&q->ray, geo_v3_array(org, ray->origin), geo_v3_array(dir, ray->dir), ray->t_max, 3);
    }
    q->t_max = ray->t_max;
    return COPSE_OK;
}

copse_status copse_loose_overlap_box(const copse_loose *tree, const copse_box3 *box, copse_id_list *out)
{
    lquery q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_loose(tree, lbox_query(&q, box), &q, out, NULL, NULL, lwalk_box);
}

copse_status copse_loose_visit_box(const copse_loose *tree, const copse_box3 *box, copse_id_visitor visit,
                                   void *user)
{
    lquery q;
    return run_loose(tree, lbox_query(&q, box), &q, NULL, visit, user, lwalk_box);
}

copse_status copse_loose_overlap_sphere(const copse_loose *tree, const copse_sphere *sphere, copse_id_list *out)
{
    lquery q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_loose(tree, lsphere_query(&q, sphere), &q, out, NULL, NULL, lwalk_sphere);
}

copse_status copse_loose_visit_sphere(const copse_loose *tree, const copse_sphere *sphere, copse_id_visitor visit,
                                      void *user)
{
    lquery q;
    return run_loose(tree, lsphere_query(&q, sphere), &q, NULL, visit, user, lwalk_sphere);
}

copse_status copse_loose_cull(const copse_loose *tree, const copse_frustum *frustum, copse_id_list *out)
{
    lquery q;
    if (out == NULL)
        return COPSE_ERR_NULL;
    return run_loose(tree, lfrustum_query(&q, frustum), &q, out, NULL, NULL, lwalk_frustum);
}

copse_status copse_loose_visit_frustum(const copse_loose *tree, const copse_frustum *frustum,
                                       copse_id_visitor visit, void *user)
{
    lquery q;
    return run_loose(tree, lfrustum_query(&q, frustum), &q, NULL, visit, user, lwalk_frustum);
}

static bool no_ids(void *user, uint32_t id)
{
    (void)user;
    (void)id;
    return true;
}

copse_status copse_loose_raycast(const copse_loose *tree, const copse_ray3 *ray, copse_hit *hit)
{
    lquery q;
    copse_status st;
    if (hit == NULL)
        return COPSE_ERR_NULL;
    q.first_only = true;
    q.best.t = FLT_MAX;
    q.best.id = COPSE_NONE;
    q.best.u = q.best.v = 0.0f;
    st = run_loose(tree, lray_query(&q, ray), &q, NULL, no_ids, NULL, lwalk_ray);
    *hit = q.best;
    if (st != COPSE_OK)
        hit->id = COPSE_NONE;
    if (hit->id == COPSE_NONE)
        hit->t = FLT_MAX;
    return st;
}

copse_status copse_loose_visit_ray(const copse_loose *tree, const copse_ray3 *ray, copse_hit_visitor visit,
                                   void *user)
{
    lquery q;
    if (visit == NULL)
        return COPSE_ERR_NULL;
    q.first_only = false;
    q.hit_visit = visit;
    q.user = user;
    return run_loose(tree, lray_query(&q, ray), &q, NULL, no_ids, NULL, lwalk_ray);
}

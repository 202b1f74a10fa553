/* SPDX-License-Identifier: MIT */
/*
 * Text dumps of both BSP trees: a writer that never passes the caller's capacity and
 * the pre-order and level-order walks, on a fixed stack.
 */
#include "bsp_internal.h"

void copse_bsp_text_char(bsp_text *t, char c)
{
    if (t->len + 1u < t->cap)
        t->buf[t->len] = c;
    t->len++;
}

void copse_bsp_text_str(bsp_text *t, const char *s)
{
    while (*s != '\0')
        copse_bsp_text_char(t, *s++);
}

void copse_bsp_text_u32(bsp_text *t, uint32_t v)
{
    char digits[10];
    unsigned n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    while (n > 0)
        copse_bsp_text_char(t, digits[--n]);
}

void copse_bsp_text_float(bsp_text *t, float v)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t bits, mant;
    int exp;
    __builtin_memcpy(&bits, &v, sizeof bits);
    if (v > -16777216.0f && v < 16777216.0f && (float)(int32_t)v == v) {
        int32_t i = (int32_t)v;
        if (i < 0)
            copse_bsp_text_char(t, '-');
        copse_bsp_text_u32(t, i < 0 ? (uint32_t)(-(int64_t)i) : (uint32_t)i);
        return;
    }
    if (bits >> 31)
        copse_bsp_text_char(t, '-');
    exp = (int)((bits >> 23) & 0xFFu);
    mant = bits & 0x7FFFFFu;
    if (exp == 0xFF) { /* trees never hold these; the dump still says what it saw */
        copse_bsp_text_str(t, mant != 0 ? "nan" : "inf");
        return;
    }
    copse_bsp_text_str(t, exp == 0 ? "0x0" : "0x1");
    mant <<= 1; /* 24 bits: six hex digits */
    if (mant != 0) {
        int shift = 20;
        copse_bsp_text_char(t, '.');
        while (mant != 0) {
            copse_bsp_text_char(t, hex[(mant >> shift) & 0xFu]);
            mant &= ((uint32_t)1u << shift) - 1u;
            shift -= 4;
        }
    }
    copse_bsp_text_char(t, 'p');
    exp = exp == 0 ? -126 : exp - 127;
    if (exp < 0) {
        copse_bsp_text_char(t, '-');
        exp = -exp;
    } else {
        copse_bsp_text_char(t, '+');
    }
    copse_bsp_text_u32(t, (uint32_t)exp);
}

void copse_bsp_text_leaf(bsp_text *t, char kind, const uint32_t *ids, uint32_t count)
{
    uint32_t i;
    copse_bsp_text_char(t, kind);
    for (i = 0; i < count; i++) {
        if (i > 0)
            copse_bsp_text_char(t, ',');
        copse_bsp_text_u32(t, ids[i]);
    }
}

typedef struct dump_entry {
    uint32_t node, depth;
} dump_entry;

/* Pre-order over the whole tree; with `level` < 0 every node on its own indented line,
 * otherwise only the nodes of that level, separated by spaces. Returns the deepest level. */
static bool dump_children(const void *tree, unsigned dim, uint32_t node, uint32_t child[2])
{
    return dim == 2u ? copse_bsp2_dump_children(tree, node, child) : copse_bsp3_dump_children(tree, node, child);
}

static void dump_token(const void *tree, unsigned dim, uint32_t node, bsp_text *t)
{
    if (dim == 2u)
        copse_bsp2_dump_token(tree, node, t);
    else
        copse_bsp3_dump_token(tree, node, t);
}

static uint32_t dump_walk(const void *tree, unsigned dim, bsp_text *t, int64_t level)
{
    dump_entry stack[BSP_STACK];
    uint32_t sp = 0, deepest = 0, written = 0;
    stack[sp].node = 0;
    stack[sp++].depth = 0;
    while (sp > 0) {
        dump_entry e = stack[--sp];
        uint32_t child[2], d;
        bool internal = dump_children(tree, dim, e.node, child);
        deepest = e.depth > deepest ? e.depth : deepest;
        if (level < 0) {
            for (d = 0; d < e.depth; d++)
                copse_bsp_text_str(t, "  ");
            dump_token(tree, dim, e.node, t);
            copse_bsp_text_char(t, '\n');
        } else if ((int64_t)e.depth == level) {
            if (written++ > 0)
                copse_bsp_text_char(t, ' ');
            dump_token(tree, dim, e.node, t);
        }
        if (internal && sp + 2u <= BSP_STACK && ((int64_t)e.depth < level || level < 0)) {
            stack[sp].node = child[1];
            stack[sp++].depth = e.depth + 1u;
            stack[sp].node = child[0];
            stack[sp++].depth = e.depth + 1u;
        }
    }
    return deepest;
}

copse_status copse_bsp_dump_tree(const void *tree, unsigned dim, uint32_t node_count, copse_bsp_order order,
                                 char *buf, size_t cap, size_t *length)
{
    bsp_text t;
    if (length != NULL)
        *length = 0;
    if (buf == NULL && cap > 0)
        return COPSE_ERR_NULL;
    if (order != COPSE_BSP_PREORDER && order != COPSE_BSP_LEVELORDER)
        return COPSE_ERR_PARAM;
    t.buf = buf;
    t.cap = cap;
    t.len = 0;
    if (node_count > 0) {
        if (order == COPSE_BSP_PREORDER) {
            (void)dump_walk(tree, dim, &t, -1);
        } else {
            bsp_text none = {NULL, 0, 0}; /* a walk that writes nothing: the depth */
            uint32_t level, deepest = dump_walk(tree, dim, &none, INT64_MAX);
            for (level = 0; level <= deepest; level++) {
                copse_bsp_text_u32(&t, level);
                copse_bsp_text_str(&t, ": ");
                (void)dump_walk(tree, dim, &t, level);
                copse_bsp_text_char(&t, '\n');
            }
        }
    }
    if (cap > 0)
        buf[t.len < cap ? t.len : cap - 1u] = '\0';
    if (length != NULL)
        *length = t.len;
    return t.len < cap ? COPSE_OK : COPSE_ERR_NOMEM;
}

/* SPDX-License-Identifier: MIT */
/*
 * copse internal: the two result forms every id query offers, behind one call. A walk reports
 * ids with id_emit(); the entry point decides whether they fill the caller's copse_id_list
 * (array form: capacity, then `truncated`) or go to the caller's visitor (visitor form).
 */
#ifndef COPSE_EMIT_INTERNAL_H
#define COPSE_EMIT_INTERNAL_H

#include "copse/query.h"
#include "copse/status.h"
#include "../geom/geom_internal.h" /* COPSE_INLINE */

typedef struct id_emitter {
    copse_id_list *list; /* the array form, or NULL */
    copse_id_visitor visit;
    void *user;
} id_emitter;

/* Reports one id; false stops the walk (a full list, or the visitor said so). */
COPSE_INLINE bool id_emit(id_emitter *e, uint32_t id)
{
    if (e->list != NULL) {
        copse_id_list *l = e->list;
        if (l->count < l->capacity) {
            l->ids[l->count++] = id;
            return true;
        }
        l->truncated = true;
        return false;
    }
    return e->visit(e->user, id);
}

/* Checks the result arguments and starts the emitter: a list (emptied first, so a refused
 * query leaves it empty) or else a visitor. COPSE_ERR_NULL when neither can be used. */
COPSE_INLINE copse_status id_emitter_init(id_emitter *e, copse_id_list *list, copse_id_visitor visit, void *user)
{
    e->list = list;
    e->visit = visit;
    e->user = user;
    if (list != NULL) {
        list->count = 0;
        list->truncated = false;
        return list->ids == NULL && list->capacity > 0 ? COPSE_ERR_NULL : COPSE_OK;
    }
    return visit == NULL ? COPSE_ERR_NULL : COPSE_OK;
}

/* A list form refused before its emitter starts (a NULL shape): the list, when there is one,
 * still comes back empty. */
COPSE_INLINE copse_status id_list_refuse(copse_id_list *list)
{
    if (list != NULL) {
        list->count = 0;
        list->truncated = false;
    }
    return COPSE_ERR_NULL;
}

#endif /* COPSE_EMIT_INTERNAL_H */

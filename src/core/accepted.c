/*
 * accepted.c — the list of accepted steps: append a copy, release, find the
 * acceptance of a metric that names one of a point's runs. See accepted.h.
 */
#include "core/accepted.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "util/alloc.h"

int pl_accepted_list_push(struct pl_accepted_list *list, long long run_id, int metric,
                          const char *reason, const char *accepted_at,
                          const char *accepted_by)
{
	struct pl_accepted_step *e;

	if (PL_ALLOC_GROW(list->v, list->n + 1, list->cap))
		return PL_ENOMEM;
	e = &list->v[list->n];
	e->run_id = run_id;
	e->metric = metric;
	e->reason = strdup(reason ? reason : "");
	e->accepted_at = strdup(accepted_at ? accepted_at : "");
	e->accepted_by = strdup(accepted_by ? accepted_by : "");
	e->revoked_at = NULL;
	e->revoked_by = NULL;
	if (!e->reason || !e->accepted_at || !e->accepted_by) {
		free(e->reason);
		free(e->accepted_at);
		free(e->accepted_by);
		return PL_ENOMEM;
	}
	list->n++;
	return 0;
}

int pl_accepted_list_revoke_last(struct pl_accepted_list *list, const char *revoked_at,
                                 const char *revoked_by)
{
	struct pl_accepted_step *e;
	char *at, *by;

	if (!list->n)
		return PL_EUSAGE;
	e = &list->v[list->n - 1];
	at = strdup(revoked_at ? revoked_at : "");
	by = strdup(revoked_by ? revoked_by : "");
	if (!at || !by) {
		free(at);
		free(by);
		return PL_ENOMEM;
	}
	free(e->revoked_at);
	free(e->revoked_by);
	e->revoked_at = at;
	e->revoked_by = by;
	return 0;
}

void pl_accepted_list_release(struct pl_accepted_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->n; i++) {
		free(list->v[i].reason);
		free(list->v[i].accepted_at);
		free(list->v[i].accepted_by);
		free(list->v[i].revoked_at);
		free(list->v[i].revoked_by);
	}
	free(list->v);
	memset(list, 0, sizeof(*list));
}

const struct pl_accepted_step *pl_accepted_find(const struct pl_accepted_list *list, int metric,
                                                const long long *ids, size_t n)
{
	if (!list)
		return NULL;
	for (size_t i = 0; i < list->n; i++) {
		if (list->v[i].metric != metric || list->v[i].revoked_at)
			continue;
		for (size_t k = 0; k < n; k++)
			if (ids[k] == list->v[i].run_id)
				return &list->v[i];
	}
	return NULL;
}

/*
 * carried.c — the accepted steps, revisions and retractions a ledger
 * record carries with its run (see carried.h).
 */
#include "core/carried.h"

#include <stdlib.h>

struct pl_carried *pl_carried_new(void)
{
	return calloc(1, sizeof(struct pl_carried));
}

void pl_carried_free(struct pl_carried *c)
{
	if (!c)
		return;
	pl_accepted_list_release(&c->accepted);
	pl_revision_list_release(&c->revisions);
	pl_retraction_list_release(&c->retractions);
	free(c);
}

int pl_carried_copy(struct pl_carried **dst, const struct pl_carried *src)
{
	struct pl_carried *c;

	*dst = NULL;
	if (!src)
		return 0;
	if (!(c = pl_carried_new()))
		return PL_ENOMEM;
	for (size_t i = 0; i < src->accepted.n; i++) {
		const struct pl_accepted_step *a = &src->accepted.v[i];
		if (pl_accepted_list_push(&c->accepted, a->run_id, a->metric, a->reason, a->accepted_at,
		                          a->accepted_by) ||
		    (a->revoked_at && pl_accepted_list_revoke_last(&c->accepted, a->revoked_at,
		                                                   a->revoked_by)))
			goto oom;
	}
	for (size_t i = 0; i < src->revisions.n; i++)
		if (pl_revision_list_push(&c->revisions, &src->revisions.v[i]))
			goto oom;
	for (size_t i = 0; i < src->retractions.n; i++)
		if (pl_retraction_list_push(&c->retractions, &src->retractions.v[i]))
			goto oom;
	*dst = c;
	return 0;
oom:
	pl_carried_free(c);
	return PL_ENOMEM;
}

int pl_carried_empty(const struct pl_carried *c)
{
	return !c || (c->accepted.n == 0 && c->revisions.n == 0 && c->retractions.n == 0);
}

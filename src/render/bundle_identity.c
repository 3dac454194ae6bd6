/*
 * bundle_identity.c — the parts of a bundle's template context that say
 * where its figures come from (pl_bundle_context in bundle_context.c
 * calls them): the bundle id and how to check it, the errata since an
 * earlier bundle, and the runs with their publication checklist, sources
 * and hashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/amend.h"
#include "render/bundle_impl.h"
#include "render/words.h"
#include "render/template.h"

int pl_bundle_ctx_runs(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	int rc = 0;

	rc |= pl_tpl_set_list(c, "checklist_items");
	for (int k = 0; k < PL_CHK_COUNT; k++) {
		struct pl_tpl_ctx *it = pl_tpl_add_item(c, "checklist_items");
		rc |= it ? pl_tpl_set(it, "name", b->w->checklist[k]) : PL_ENOMEM;
	}
	rc |= pl_tpl_set_list(c, "runs");
	for (size_t i = 0; b->runs && i < b->runs->n; i++) {
		const struct pl_run *run = &b->runs->v[i];
		struct pl_tpl_ctx *it;
		if (!pl_bundle_run_in_cmp(b->cmp, run->id))
			continue;
		it = pl_tpl_add_item(c, "runs");
		if (!it)
			return PL_ENOMEM;
		rc |= pl_tpl_setf(it, "id", "%lld", run->id);
		rc |= pl_tpl_set(it, "source", run->source ? run->source : "-");
		rc |= pl_tpl_set(it, "sha256", run->sha256);
		rc |= pl_tpl_set_bool(it, "reference_only", run->checklist_missing != 0);
		rc |= pl_tpl_set_list(it, "marks");
		for (int k = 0; k < PL_CHK_COUNT; k++) {
			struct pl_tpl_ctx *m = pl_tpl_add_item(it, "marks");
			rc |= m ? pl_tpl_set(m, "mark", run->checklist_missing & (1u << k) ? "✗" : "✓")
			        : PL_ENOMEM;
		}
	}
	return rc ? PL_ENOMEM : 0;
}

/* A run as the errata name it: its source as shown, sha256 and record. */
static void erratum_run(const struct pl_run *r, char *buf, size_t n)
{
	char id[64];

	pl_bundle_run_short(r->sha256, r->record, id, sizeof(id));
	snprintf(buf, n, "%s (%s)", r->source ? r->source : "-", id);
}

/* One erratum worded in the bundle's language. */
static char *word_erratum(const struct bundle *b, const struct pl_bundle_erratum *e)
{
	struct pl_msg m;
	char run[1200];
	char *t;

	erratum_run(e->run, run, sizeof(run));
	switch (e->kind) {
	case PL_ERRATUM_AMENDED:
		pl_msg_init(&m, PL_MSG_BUNDLE_ERRATUM_AMENDED);
		pl_msg_text(&m, run);
		pl_msg_field(&m, e->rev->field);
		pl_msg_text(&m, e->rev->old_value ? e->rev->old_value : "(missing)");
		pl_msg_text(&m, e->rev->new_value ? e->rev->new_value : "(missing)");
		pl_msg_text(&m, e->rev->reason);
		pl_msg_text(&m, e->rev->author);
		pl_msg_text(&m, e->at);
		break;
	case PL_ERRATUM_RETRACTED:
	case PL_ERRATUM_RESTORED: {
		int ret = e->kind == PL_ERRATUM_RETRACTED;
		pl_msg_init(&m, ret ? PL_MSG_BUNDLE_ERRATUM_RETRACTED : PL_MSG_BUNDLE_ERRATUM_RESTORED);
		pl_msg_text(&m, run);
		pl_msg_text(&m, ret ? e->ret->reason : e->ret->restore_reason);
		pl_msg_text(&m, ret ? e->ret->author : e->ret->restored_by);
		pl_msg_text(&m, e->at);
		break;
	}
	default:
		pl_msg_init(&m, PL_MSG_BUNDLE_ERRATUM_ADDED);
		pl_msg_text(&m, run);
		pl_msg_text(&m, e->at);
	}
	t = m.oom ? NULL : pl_words_msg(&m, pl_words_lang(b->w->lang));
	pl_msg_release(&m);
	return t;
}

/* The bundle id with the "how to check this report" paragraph and, with
 * the definition's "since", the errata since the earlier bundle. */
int pl_bundle_ctx_identity(struct bundle *b)
{
	struct pl_tpl_ctx *c = b->ctx;
	const struct pl_report_spec *s = b->o->spec;
	enum pl_lang lang = pl_words_lang(b->w->lang);
	struct pl_msg m;
	int rc = 0;

	rc |= pl_tpl_set(c, "bundle_id", b->bundle_id);
	rc |= pl_tpl_set(c, "as_of", b->as_of);
	pl_msg_init(&m, PL_MSG_BUNDLE_HOW_TO_CHECK);
	pl_msg_text(&m, b->bundle_id);
	free(b->how_to_check);
	b->how_to_check = m.oom ? NULL : pl_words_msg(&m, lang);
	pl_msg_release(&m);
	rc |= b->how_to_check ? pl_tpl_set(c, "how_to_check", b->how_to_check) : PL_ENOMEM;
	if (s->since_bundle && s->since_at) {
		char *head;
		pl_msg_init(&m, b->o->nerrata ? PL_MSG_BUNDLE_ERRATA_SINCE : PL_MSG_BUNDLE_ERRATA_NONE);
		pl_msg_text(&m, s->since_bundle);
		pl_msg_text(&m, s->since_at);
		head = m.oom ? NULL : pl_words_msg(&m, lang);
		pl_msg_release(&m);
		rc |= head ? pl_tpl_set(c, "errata_head", head) : PL_ENOMEM;
		free(head);
		rc |= pl_tpl_set_list(c, "errata");
		for (size_t i = 0; i < b->o->nerrata && rc == 0; i++) {
			struct pl_tpl_ctx *it = pl_tpl_add_item(c, "errata");
			char *t = word_erratum(b, &b->o->errata[i]);
			rc |= it && t ? pl_tpl_set(it, "text", t) : PL_ENOMEM;
			free(t);
		}
	}
	return rc ? PL_ENOMEM : 0;
}

/*
 * carried.c — the accepted steps, revisions and retractions a ledger
 * record carries with its run (see carried.h).
 */
#include "core/carried.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------------ the checks */

static int digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

int pl_carried_time_valid(const char *s)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, mo, d, h, mi, se, leap;

	if (!s || strlen(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != 'Z' || !digits(s, 4, &y) || !digits(s + 5, 2, &mo) ||
	    !digits(s + 8, 2, &d) || !digits(s + 11, 2, &h) || !digits(s + 14, 2, &mi) ||
	    !digits(s + 17, 2, &se))
		return 0;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return mo >= 1 && mo <= 12 && d >= 1 && d <= mdays[mo - 1] + (mo == 2 && leap) && h <= 23 &&
	       mi <= 59 && se <= 59;
}

/* The refusal of a carried entry: "<what>: <why>" with err->field. */
static int bad(struct pl_error *err, const char *field, const char *what, const char *why,
               const char *value)
{
	pl_error_field(err, field);
	if (value)
		return pl_error_set(err, PL_EINVALID, "%s: %s, got \"%.80s\"", what, why, value);
	return pl_error_set(err, PL_EINVALID, "%s: %s", what, why);
}

static int need_time(struct pl_error *err, const char *field, const char *what, const char *v)
{
	if (pl_carried_time_valid(v))
		return 0;
	return bad(err, field, what, "must be a time YYYY-MM-DDTHH:MM:SSZ (UTC)", v ? v : "");
}

static int need_text(struct pl_error *err, const char *field, const char *what, const char *v)
{
	if (v && *v)
		return 0;
	return bad(err, field, what, "must not be empty (the command that records it refuses that)",
	           NULL);
}

static int check_accepted(const struct pl_accepted_list *l, struct pl_error *err)
{
	char what[120];
	int rc;

	for (size_t i = 0; i < l->n; i++) {
		const struct pl_accepted_step *a = &l->v[i];
		const char *m = a->metric >= 0 && a->metric < PL_METRIC_COUNT
		                    ? pl_metric_info[a->metric].name : "?";

		snprintf(what, sizeof(what), "accepted step of '%s'", m);
		if (a->metric < 0 || a->metric >= PL_METRIC_COUNT)
			return bad(err, "metric", what, "unknown metric", NULL);
		for (size_t k = 0; k < i; k++)
			if (l->v[k].metric == a->metric)
				return bad(err, "metric", what, "given twice (a run has one per metric)", NULL);
		if ((rc = need_text(err, "reason", what, a->reason)) ||
		    (rc = need_time(err, "accepted_at", what, a->accepted_at)))
			return rc;
		if (a->revoked_at) {
			if ((rc = need_time(err, "revoked_at", what, a->revoked_at)) ||
			    (rc = need_text(err, "revoked_by", what, a->revoked_by)))
				return rc;
			if (strcmp(a->revoked_at, a->accepted_at) < 0)
				return bad(err, "revoked_at", what, "revoked before it was accepted",
				           a->revoked_at);
		}
	}
	return 0;
}

static int check_retractions(const struct pl_retraction_list *l, struct pl_error *err)
{
	const char *last = NULL; /* the latest time so far */
	char what[80];
	int rc;

	for (size_t i = 0; i < l->n; i++) {
		const struct pl_retraction *r = &l->v[i];

		snprintf(what, sizeof(what), "retraction %zu", i + 1);
		if ((rc = need_time(err, "retracted_at", what, r->retracted_at)) ||
		    (rc = need_text(err, "reason", what, r->reason)) ||
		    (rc = need_text(err, "author", what, r->author)))
			return rc;
		if (i > 0 && !l->v[i - 1].restored_at)
			return bad(err, "retracted_at", what,
			           "the run is retracted already (the one before is not restored)", NULL);
		if (last && strcmp(r->retracted_at, last) < 0)
			return bad(err, "retracted_at", what, "earlier than the entry before it",
			           r->retracted_at);
		last = r->retracted_at;
		if (r->restored_at) {
			if ((rc = need_time(err, "restored_at", what, r->restored_at)) ||
			    (rc = need_text(err, "restore_reason", what, r->restore_reason)) ||
			    (rc = need_text(err, "restored_by", what, r->restored_by)))
				return rc;
			if (strcmp(r->restored_at, r->retracted_at) < 0)
				return bad(err, "restored_at", what, "restored before it was retracted",
				           r->restored_at);
			last = r->restored_at;
		}
	}
	return 0;
}

/* 1 when two optional texts are equal. */
static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The value of field in run now (condition, build field, metric or
 * extra), as text a revision records; *numeric set for a metric (then
 * *num is its value, NaN when missing). *known 0 for a field that is none
 * of these. */
static const char *value_now(const struct pl_run *run, const char *field, int *known, int *numeric,
                             double *num)
{
	int c = pl_cond_lookup(field), b = pl_build_lookup(field), m = pl_metric_lookup(field);

	*known = 1;
	*numeric = 0;
	if (c != PL_C_NONE)
		return run->cond[c].set ? run->cond[c].text : NULL;
	if (b >= 0)
		return run->build[b];
	if (m >= 0) {
		*numeric = 1;
		*num = run->has_metric[m] ? run->metric[m] : NAN;
		return NULL;
	}
	if (strchr(field, '.') && field[0] != '.')
		return pl_run_extra(run, field);
	*known = 0;
	return NULL;
}

/* 1 when text (NULL: missing) is num (NaN: missing). */
static int same_number(const char *text, double num)
{
	char *end;
	double v;

	if (!text)
		return isnan(num);
	v = strtod(text, &end);
	return end != text && !*end && v == num;
}

static int check_revisions(const struct pl_run *run, const struct pl_revision_list *l,
                           struct pl_error *err)
{
	char what[160];
	int rc;

	for (size_t i = 0; i < l->n; i++) {
		const struct pl_revision *r = &l->v[i], *p = i ? &l->v[i - 1] : NULL;
		const char *now;
		int c, known, numeric;
		double num = NAN;

		snprintf(what, sizeof(what), "revision %d of field '%.80s'", r->revision,
		         r->field ? r->field : "");
		if (r->revision < 2 || (p ? (r->revision != p->revision && r->revision != p->revision + 1)
		                          : r->revision != 2))
			return bad(err, "revision", what,
			           p ? "revisions must follow in order, without a gap"
			             : "the first revision is number 2 (1 is the run as imported)", NULL);
		if ((rc = need_time(err, "changed_at", what, r->changed_at)) ||
		    (rc = need_text(err, "reason", what, r->reason)) ||
		    (rc = need_text(err, "author", what, r->author)))
			return rc;
		if (p && p->revision == r->revision &&
		    (strcmp(p->changed_at, r->changed_at) || strcmp(p->reason, r->reason) ||
		     strcmp(p->author, r->author)))
			return bad(err, "changed_at", what,
			           "the records of one revision share its time, reason and author", NULL);
		if (p && strcmp(r->changed_at, p->changed_at) < 0)
			return bad(err, "changed_at", what, "earlier than the revision before it",
			           r->changed_at);
		now = value_now(run, r->field, &known, &numeric, &num);
		if (!known)
			return bad(err, "field", what, "no such field (a condition, build identity field, "
			                               "metric or FORMAT.key extra)", NULL);
		if (same_text(r->old_value, r->new_value))
			return bad(err, "new_value", what, "old and new value are the same", NULL);
		if ((c = pl_cond_lookup(r->field)) != PL_C_NONE) {
			for (int k = 0; k < 2; k++) {
				const char *v = k ? r->new_value : r->old_value;
				struct pl_run scratch;
				struct pl_error e;

				if (!v)
					continue;
				pl_run_init(&scratch);
				pl_error_init(&e);
				rc = pl_run_set_cond(&scratch, c, v, &e);
				pl_run_release(&scratch);
				if (rc == PL_ENOMEM)
					return pl_error_set(err, PL_ENOMEM, "out of memory");
				if (rc)
					return bad(err, k ? "new_value" : "old_value", what, e.message, NULL);
			}
		}
		/* the same field earlier: its new value is this one's old value;
		 * later: this is not its last value */
		for (size_t k = i; k-- > 0;)
			if (strcmp(l->v[k].field, r->field) == 0) {
				if (l->v[k].revision == r->revision)
					return bad(err, "field", what, "given twice in one revision", NULL);
				if (!same_text(l->v[k].new_value, r->old_value))
					return bad(err, "old_value", what,
					           "is not the value the revision before gave it",
					           r->old_value ? r->old_value : "(missing)");
				break;
			}
		{
			int later = 0;
			for (size_t k = i + 1; k < l->n && !later; k++)
				later = strcmp(l->v[k].field, r->field) == 0;
			if (!later && (numeric ? !same_number(r->new_value, num)
			                       : !same_text(r->new_value, now)))
				return bad(err, "new_value", what, "is not the run's value now",
				           r->new_value ? r->new_value : "(missing)");
		}
	}
	return 0;
}

int pl_carried_check(const struct pl_run *run, struct pl_error *err)
{
	const struct pl_carried *c = run->carried;
	int rc;

	if (pl_carried_empty(c))
		return 0;
	if ((rc = check_accepted(&c->accepted, err)) || (rc = check_revisions(run, &c->revisions, err)))
		return rc;
	return check_retractions(&c->retractions, err);
}

/*
 * trail.c — a run shown whole with its audit trail (`perfledger show ID`)
 * and the trail of listed runs (`list --history`): conditions with extras,
 * metrics with their units, provenance, then the events in order: imported
 * (revision 1), each amend (its revision, time, author, reason and the
 * fields it changed, old -> new), each retraction and restore. Text for
 * the terminal (every stored string made inert) or JSON (the `list
 * --format json` object plus "revision", "retracted" and "trail").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_impl.h"

/* One event of a run's trail. */
struct event {
	const char *at;                  /* ISO 8601 UTC */
	int group;                       /* 0 imported, 1 amend, 2 retraction or restore */
	long seq;                        /* order inside the group */
	int kind;                        /* EV_* */
	int revision;                    /* EV_IMPORTED / EV_AMENDED */
	const struct pl_revision *first; /* EV_AMENDED: its first field record */
	size_t nfields;                  /* EV_AMENDED: its records */
	const struct pl_retraction *ret; /* EV_RETRACTED / EV_RESTORED */
};

enum { EV_IMPORTED, EV_AMENDED, EV_RETRACTED, EV_RESTORED };

static int event_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	int c = strcmp(x->at, y->at);

	if (c)
		return c;
	if (x->group != y->group)
		return x->group - y->group;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The events of run (its records in revs and rets, which are ordered by
 * run id) into *ev, sorted by time; *n gets their number. Returns 0 or
 * PL_ENOMEM. */
static int collect(const struct pl_run *run, const struct pl_revision_list *revs,
                   const struct pl_retraction_list *rets, struct event **ev, size_t *n)
{
	size_t cap = 1 + (revs ? revs->n : 0) + 2 * (rets ? rets->n : 0), k = 0;
	struct event *v = calloc(cap, sizeof(*v));

	*ev = NULL;
	*n = 0;
	if (!v)
		return PL_ENOMEM;
	v[k++] = (struct event){run->imported_at ? run->imported_at : "", 0, 0, EV_IMPORTED, 1,
	                        NULL, 0, NULL};
	for (size_t i = 0; revs && i < revs->n; i++) {
		const struct pl_revision *r = &revs->v[i];

		if (r->run_id != run->id)
			continue;
		if (k > 1 && v[k - 1].kind == EV_AMENDED && v[k - 1].revision == r->revision) {
			v[k - 1].nfields++;
			continue;
		}
		v[k++] = (struct event){r->changed_at, 1, r->revision, EV_AMENDED, r->revision, r, 1, NULL};
	}
	for (size_t i = 0; rets && i < rets->n; i++) {
		const struct pl_retraction *r = &rets->v[i];

		if (r->run_id != run->id)
			continue;
		v[k++] = (struct event){r->retracted_at, 2, (long)(2 * i), EV_RETRACTED, 0, NULL, 0, r};
		if (r->restored_at)
			v[k++] = (struct event){r->restored_at, 2, (long)(2 * i + 1), EV_RESTORED, 0, NULL, 0,
			                        r};
	}
	qsort(v, k, sizeof(*v), event_cmp);
	*ev = v;
	*n = k;
	return 0;
}

/* ------------------------------------------------------------------ text */

/* Writes a stored string inert, or "(missing)" for NULL, quoted. */
static int text_value(FILE *out, const char *s)
{
	int rc;

	if (!s) {
		fputs("(missing)", out);
		return 0;
	}
	fputc('\'', out);
	rc = pl_render_write_input(out, s, PL_FMT_TEXT);
	fputc('\'', out);
	return rc;
}

/* "  name<pad>  " for a name column of width w. */
static void text_name(FILE *out, const char *name, int w)
{
	fprintf(out, "  %-*s  ", w, name);
}

static int text_trail(FILE *out, const struct pl_run *run, const struct event *ev, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct event *e = &ev[i];

		fputs("  ", out);
		if ((rc = pl_render_write_input(out, e->at, PL_FMT_TEXT)))
			break;
		switch (e->kind) {
		case EV_IMPORTED:
			fputs("  revision 1  imported from ", out);
			rc = pl_render_write_input(out, run->source, PL_FMT_TEXT);
			fputc('\n', out);
			break;
		case EV_AMENDED:
			fprintf(out, "  revision %d  amended by ", e->revision);
			if (!(rc = pl_render_write_input(out, e->first->author, PL_FMT_TEXT))) {
				fputs(": ", out);
				rc = pl_render_write_input(out, e->first->reason, PL_FMT_TEXT);
			}
			fputc('\n', out);
			for (size_t f = 0; f < e->nfields && !rc; f++) {
				const struct pl_revision *r = &e->first[f];

				fputs("      ", out);
				if (!(rc = pl_render_write_input(out, r->field, PL_FMT_TEXT))) {
					fputs(": ", out);
					rc = text_value(out, r->old_value);
				}
				if (!rc) {
					fputs(" -> ", out);
					rc = text_value(out, r->new_value);
				}
				fputc('\n', out);
			}
			break;
		case EV_RETRACTED:
		case EV_RESTORED:
			fputs(e->kind == EV_RETRACTED ? "  retracted by " : "  restored by ", out);
			rc = pl_render_write_input(out, e->kind == EV_RETRACTED ? e->ret->author
			                                                        : e->ret->restored_by,
			                           PL_FMT_TEXT);
			if (!rc) {
				fputs(": ", out);
				rc = pl_render_write_input(out, e->kind == EV_RETRACTED ? e->ret->reason
				                                                        : e->ret->restore_reason,
				                           PL_FMT_TEXT);
			}
			fputc('\n', out);
			break;
		}
	}
	return rc;
}

static int text_show(FILE *out, const struct pl_run *run, const struct event *ev, size_t n)
{
	char num[32];
	int w = 16, rc = 0;

	for (int i = 0; i < PL_COND_COUNT; i++)
		if (run->cond[i].set && (int)strlen(pl_cond_info[i].name) > w)
			w = (int)strlen(pl_cond_info[i].name);
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (run->has_metric[m] && (int)strlen(pl_metric_info[m].name) > w)
			w = (int)strlen(pl_metric_info[m].name);
	for (size_t i = 0; i < run->nextra; i++)
		if ((int)pl_text_width(run->extra[i].name) > w && pl_text_width(run->extra[i].name) < 60)
			w = (int)pl_text_width(run->extra[i].name);
	for (size_t i = 0; i < run->nmeasure; i++)
		if ((int)pl_text_width(run->measure[i].name) > w && pl_text_width(run->measure[i].name) < 60)
			w = (int)pl_text_width(run->measure[i].name);
	fprintf(out, "run %lld  revision %d%s%s\nconditions:\n", run->id, run->revision,
	        pl_run_failed(run) ? "  failed (no request completed; never pooled)" : "",
	        run->retracted ? "  retracted" : "");
	for (int i = 0; i < PL_COND_COUNT && !rc; i++) {
		if (!run->cond[i].set)
			continue;
		text_name(out, pl_cond_info[i].name, w);
		rc = pl_render_write_input(out, run->cond[i].text, PL_FMT_TEXT);
		fputc('\n', out);
	}
	if (run->nextra)
		fputs("extras:\n", out);
	for (size_t i = 0; i < run->nextra && !rc; i++) {
		fputs("  ", out);
		rc = pl_render_write_input(out, run->extra[i].name, PL_FMT_TEXT);
		fprintf(out, "%*s  ", (int)(w > (int)pl_text_width(run->extra[i].name)
		                                ? w - (int)pl_text_width(run->extra[i].name) : 0), "");
		if (!rc)
			rc = pl_render_write_input(out, run->extra[i].value, PL_FMT_TEXT);
		fputc('\n', out);
	}
	fputs("metrics:\n", out);
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		if (!run->has_metric[m] || isnan(run->metric[m]))
			continue;
		text_name(out, pl_metric_info[m].name, w);
		fprintf(out, "%s %s\n", pl_fmt_num(num, sizeof(num), run->metric[m]),
		        pl_unit_label(pl_metric_info[m].unit));
	}
	if (run->nmeasure) /* result values no canonical metric holds: never conditions */
		fputs("unplaced measurements:\n", out);
	for (size_t i = 0; i < run->nmeasure && !rc; i++) {
		const struct pl_measure *me = &run->measure[i];
		int nw = (int)pl_text_width(me->name);
		fputs("  ", out);
		rc = pl_render_write_input(out, me->name, PL_FMT_TEXT);
		fprintf(out, "%*s  ", w > nw ? w - nw : 0, "");
		if (!rc)
			rc = pl_render_write_input(out, me->json ? me->json
			                                         : pl_fmt_num(num, sizeof(num), me->num),
			                           PL_FMT_TEXT);
		fputc('\n', out);
	}
	fputs("provenance:\n", out);
	text_name(out, "source", w);
	if (!rc)
		rc = pl_render_write_input(out, run->source, PL_FMT_TEXT);
	fputc('\n', out);
	text_name(out, "sha256", w);
	fprintf(out, "%s\n", run->sha256);
	text_name(out, "record", w);
	fprintf(out, "%ld\n", run->record);
	text_name(out, "adapter", w);
	if (!rc)
		rc = pl_render_write_input(out, run->adapter, PL_FMT_TEXT);
	fputc('\n', out);
	if (run->format_version) {
		text_name(out, "format_version", w);
		if (!rc)
			rc = pl_render_write_input(out, run->format_version, PL_FMT_TEXT);
		fputc('\n', out);
	}
	text_name(out, "imported_at", w);
	if (!rc)
		rc = pl_render_write_input(out, run->imported_at, PL_FMT_TEXT);
	fputc('\n', out);
	for (int f = 0; f < PL_BUILD_COUNT; f++) { /* build identity, when known */
		if (!run->build[f])
			continue;
		text_name(out, pl_build_name(f), w);
		if (!rc)
			rc = pl_render_write_input(out, run->build[f], PL_FMT_TEXT);
		fputc('\n', out);
	}
	text_name(out, "reference_only", w);
	if (!run->checklist_missing) {
		fputs("no\n", out);
	} else {
		const char *sep = "yes, missing: ";
		for (int i = 0; i < PL_CHK_COUNT; i++) {
			if (!(run->checklist_missing & (1u << i)))
				continue;
			fprintf(out, "%s%s", sep, pl_checklist_item(i));
			sep = ", ";
		}
		fputc('\n', out);
	}
	fputs("trail:\n", out);
	return rc ? rc : text_trail(out, run, ev, n);
}

/* ------------------------------------------------------------------ JSON */

static void json_opt_string(FILE *out, const char *s)
{
	if (s)
		pl_json_write_string(out, s);
	else
		fputs("null", out);
}

static void json_show(FILE *out, const struct pl_run *run, const struct event *ev, size_t n)
{
	int first = 1;

	fputc('{', out);
	pl_render_json_run_fields(out, run, &first);
	pl_json_write_key(out, &first, "revision");
	fprintf(out, "%d", run->revision);
	pl_json_write_key(out, &first, "retracted");
	fputs(run->retracted ? "true" : "false", out);
	pl_json_write_key(out, &first, "trail");
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		const struct event *e = &ev[i];
		int f = 1;

		fputs(i ? ", {" : "{", out);
		pl_json_write_key(out, &f, "event");
		switch (e->kind) {
		case EV_IMPORTED:
			fputs("\"imported\"", out);
			pl_json_write_key(out, &f, "revision");
			fputs("1", out);
			pl_json_write_key(out, &f, "at");
			pl_json_write_string(out, e->at);
			break;
		case EV_AMENDED:
			fputs("\"amended\"", out);
			pl_json_write_key(out, &f, "revision");
			fprintf(out, "%d", e->revision);
			pl_json_write_key(out, &f, "at");
			pl_json_write_string(out, e->at);
			pl_json_write_key(out, &f, "by");
			pl_json_write_string(out, e->first->author);
			pl_json_write_key(out, &f, "reason");
			pl_json_write_string(out, e->first->reason);
			pl_json_write_key(out, &f, "changes");
			fputc('[', out);
			for (size_t k = 0; k < e->nfields; k++) {
				int fc = 1;

				fputs(k ? ", {" : "{", out);
				pl_json_write_key(out, &fc, "field");
				pl_json_write_string(out, e->first[k].field);
				pl_json_write_key(out, &fc, "old");
				json_opt_string(out, e->first[k].old_value);
				pl_json_write_key(out, &fc, "new");
				json_opt_string(out, e->first[k].new_value);
				fputc('}', out);
			}
			fputc(']', out);
			break;
		case EV_RETRACTED:
		case EV_RESTORED:
			fputs(e->kind == EV_RETRACTED ? "\"retracted\"" : "\"restored\"", out);
			pl_json_write_key(out, &f, "at");
			pl_json_write_string(out, e->at);
			pl_json_write_key(out, &f, "by");
			pl_json_write_string(out, e->kind == EV_RETRACTED ? e->ret->author
			                                                   : e->ret->restored_by);
			pl_json_write_key(out, &f, "reason");
			pl_json_write_string(out, e->kind == EV_RETRACTED ? e->ret->reason
			                                                   : e->ret->restore_reason);
			break;
		}
		fputc('}', out);
	}
	fputs("]}", out);
}

static int finish_out(FILE *out, int rc, struct pl_error *err)
{
	if (rc == PL_ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc || ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the output");
	return 0;
}

int pl_render_run_show(FILE *out, const struct pl_run *run, const struct pl_revision_list *revs,
                       const struct pl_retraction_list *rets, enum pl_table_format fmt,
                       struct pl_error *err)
{
	struct event *ev;
	size_t n;
	int rc;

	if (fmt != PL_FMT_TEXT && fmt != PL_FMT_JSON)
		return pl_error_set(err, PL_EUSAGE, "a run is shown as text or json");
	if (collect(run, revs, rets, &ev, &n))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = 0;
	if (fmt == PL_FMT_JSON) {
		json_show(out, run, ev, n);
		fputc('\n', out);
	} else {
		rc = text_show(out, run, ev, n);
	}
	free(ev);
	return finish_out(out, rc, err);
}

int pl_render_runs_history(FILE *out, const struct pl_run_list *runs,
                           const struct pl_revision_list *revs,
                           const struct pl_retraction_list *rets, enum pl_table_format fmt,
                           struct pl_error *err)
{
	int rc = 0, any = 0;

	if (fmt != PL_FMT_TEXT && fmt != PL_FMT_JSON)
		return pl_error_set(err, PL_EUSAGE, "list --history prints text or json");
	if (fmt == PL_FMT_TEXT && (rc = pl_render_runs(out, runs, fmt, err)))
		return rc;
	if (fmt == PL_FMT_JSON)
		fputc('[', out);
	for (size_t i = 0; i < runs->n && !rc; i++) {
		struct event *ev;
		size_t n;

		if (collect(&runs->v[i], revs, rets, &ev, &n))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		if (fmt == PL_FMT_JSON) {
			fputs(i ? ",\n  " : "\n  ", out);
			json_show(out, &runs->v[i], ev, n);
		} else if (n > 1) { /* a trail beyond the import */
			fprintf(out, "%srun %lld  revision %d%s\n", any ? "" : "\n", runs->v[i].id,
			        runs->v[i].revision, runs->v[i].retracted ? "  retracted" : "");
			rc = text_trail(out, &runs->v[i], ev, n);
			any = 1;
		}
		free(ev);
	}
	if (fmt == PL_FMT_JSON)
		fputs(runs->n ? "\n]\n" : "]\n", out);
	else if (!any && !rc)
		fputs("\nno run listed has been amended, retracted or restored\n", out);
	return finish_out(out, rc, err);
}

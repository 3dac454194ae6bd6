/*
 * gate_report.c — the nightly gate's night as text, Markdown, JSON, JUnit
 * and GitHub annotations (see gate_report.h). Sentences are message codes
 * (core/msg.h) worded in English (render/words.h); numbers in the C locale.
 */
#include "render/gate_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/exit.h"
#include "core/msg.h"
#include "render/ci_format.h"
#include "render/render_impl.h"
#include "render/words.h"

int pl_gate_exit_status(const struct pl_gate_night *night)
{
	if (night->nred || night->nfailed_series)
		return PL_EXIT_REGRESSION;
	if (night->ndecidable == 0)
		return PL_EXIT_TOO_FEW;
	return PL_EXIT_OK;
}

static int done(FILE *out, int rc, struct pl_error *err)
{
	if (rc == PL_ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc || ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the report");
	return 0;
}

/* Writes message m worded in English; 0 or PL_ENOMEM (m released). */
static int say(FILE *out, struct pl_msg *m)
{
	char *t = m->oom ? NULL : pl_words_msg(m, PL_LANG_EN);

	pl_msg_release(m);
	if (!t)
		return PL_ENOMEM;
	fputs(t, out);
	free(t);
	return 0;
}

/* The item needs attention (listed on its own line). */
static int loud(const struct pl_gate_item *it)
{
	return it->verdict == PL_V_REGRESSION || it->verdict == PL_V_ACCEPTED ||
	       it->verdict == PL_V_IMPROVEMENT;
}

/* "tpot_p50 0.01030 against 0.009500 (20 points), +8.4% worse, p 0.0004":
 * one check's numbers, into buf. */
static void item_numbers(char *buf, size_t n, const struct pl_gate_item *it)
{
	char a[32], b[32], ch[32], p[32];
	int dir = pl_metric_info[it->metric].direction;

	if (!it->g.decidable) {
		snprintf(buf, n, "%s %s", pl_metric_info[it->metric].name,
		         pl_fmt_sig4(a, sizeof(a), it->latest));
		return;
	}
	snprintf(buf, n, "%s %s against %s (%zu points), %s, p %s", pl_metric_info[it->metric].name,
	         pl_fmt_sig4(a, sizeof(a), it->latest),
	         pl_fmt_sig4(b, sizeof(b), it->latest / (1.0 + it->g.rel_change)), it->nbase,
	         pl_fmt_change(ch, sizeof(ch), it->g.rel_change, (enum pl_direction)dir),
	         pl_fmt_sig4(p, sizeof(p), it->verdict == PL_V_IMPROVEMENT ? it->g.p_better_adjusted
	                                   : it->g.by == PL_GATE_BY_FAMILY ? it->g.family_p_adjusted
	                                                                  : it->g.p_adjusted));
}

/* The notes of an item after its numbers: family, open regression, across a
 * change, accepted. */
static int item_notes(FILE *out, const struct pl_gate_night *night, const struct pl_gate_item *it)
{
	struct pl_msg m;
	int rc = 0;

	(void)night;
	if (it->g.by == PL_GATE_BY_FAMILY) {
		pl_msg_init(&m, PL_MSG_GATE_BY_FAMILY);
		pl_msg_int(&m, (long long)it->g.family_n);
		pl_msg_num(&m, it->g.family_z);
		fputs("; ", out);
		if ((rc = say(out, &m)))
			return rc;
	}
	if (it->open_since) {
		pl_msg_init(&m, PL_MSG_GATE_OPEN_SINCE);
		pl_msg_text(&m, it->open_since);
		fputs("; ", out);
		if ((rc = say(out, &m)))
			return rc;
	}
	if (it->across) {
		pl_msg_init(&m, PL_MSG_GATE_ACROSS);
		pl_msg_text(&m, night->series[it->series].change);
		fputs("; ", out);
		if ((rc = say(out, &m)))
			return rc;
	}
	if (it->accepted) {
		fprintf(out, "; accepted at run %lld: ", it->accepted->run_id);
		rc = pl_render_write_input(out, it->accepted->reason, PL_FMT_TEXT);
	}
	return rc;
}

/* The series' heading: label (or "the series") and its latest point. */
static int series_head(FILE *out, const struct pl_gate_series *se, enum pl_table_format fmt)
{
	struct pl_msg m;
	char *t;
	int rc;

	pl_msg_init(&m, PL_MSG_GATE_SERIES);
	pl_msg_text(&m, *se->label ? se->label : "series");
	pl_msg_text(&m, se->latest ? se->latest : "");
	t = m.oom ? NULL : pl_words_msg(&m, PL_LANG_EN);
	pl_msg_release(&m);
	if (!t)
		return PL_ENOMEM;
	rc = pl_render_write_input(out, t, fmt);
	free(t);
	return rc;
}

static void str_or_null(FILE *out, const char *s)
{
	if (s)
		pl_json_write_string(out, s);
	else
		fputs("null", out);
}

static int write_json(FILE *out, const struct pl_gate_night *night, struct pl_error *err)
{
	fprintf(out, "{\"gate\": {\"series\": %zu, \"checks\": %zu, \"window\": %zu, \"alpha\": ",
	        night->nseries, night->nitems, night->window);
	pl_json_write_num(out, night->gate.alpha);
	fputs(", \"member_alpha\": ", out);
	pl_json_write_num(out, night->gate.member_alpha);
	fputs(", \"threshold_pct\": ", out);
	pl_json_write_num(out, 100.0 * night->gate.threshold);
	fputs("},\n \"series\": [", out);
	for (size_t s = 0; s < night->nseries; s++) {
		const struct pl_gate_series *se = &night->series[s];
		fprintf(out, "%s\n  {\"label\": ", s ? "," : "");
		pl_json_write_string(out, se->label);
		fputs(", \"latest\": ", out);
		pl_json_write_string(out, se->latest ? se->latest : "");
		fprintf(out, ", \"first_run\": %lld, \"family\": %zu, \"points\": %zu, \"started\": %s, "
		             "\"superseded\": %s, \"change\": ",
		        se->first_run, se->family, se->npoints, se->started ? "true" : "false",
		        se->superseded ? "true" : "false");
		if (se->change)
			pl_json_write_string(out, se->change);
		else
			fputs("null", out);
		fputs(", \"failed_run_ids\": [", out);
		for (size_t k = 0; k < se->nfailed; k++)
			fprintf(out, "%s%lld", k ? ", " : "", se->failed_ids[k]);
		fputs("]}", out);
	}
	fputs("],\n \"checks\": [", out);
	for (size_t i = 0; i < night->nitems; i++) {
		const struct pl_gate_item *it = &night->items[i];
		fprintf(out, "%s\n  {\"series\": %zu, \"metric\": \"%s\", \"verdict\": \"%s\", "
		             "\"decidable\": %s, \"median\": ",
		        i ? "," : "", it->series, pl_metric_info[it->metric].name,
		        pl_verdict_name(it->verdict), it->g.decidable ? "true" : "false");
		pl_json_write_num(out, it->latest);
		fprintf(out, ", \"baseline_points\": %zu", it->nbase);
		if (it->g.decidable) {
			fputs(", \"level\": ", out);
			pl_json_write_num(out, it->latest / (1.0 + it->g.rel_change));
			fputs(", \"change_pct\": ", out);
			pl_json_write_num(out, 100.0 * it->g.rel_change);
			fputs(", \"p\": ", out);
			pl_json_write_num(out, it->g.p);
			fputs(", \"p_adjusted\": ", out);
			pl_json_write_num(out, it->g.p_adjusted);
			fprintf(out, ", \"family_n\": %zu, \"family_z\": ", it->g.family_n);
			pl_json_write_num(out, it->g.family_z);
			fputs(", \"family_p_adjusted\": ", out);
			pl_json_write_num(out, it->g.family_p_adjusted);
			fprintf(out, ", \"by\": \"%s\"",
			        it->g.by == PL_GATE_BY_SELF     ? "self"
			        : it->g.by == PL_GATE_BY_FAMILY ? "family"
			                                        : "none");
		}
		fputs(", \"baseline_first\": ", out);
		str_or_null(out, it->base_first);
		fputs(", \"baseline_last\": ", out);
		str_or_null(out, it->base_last);
		fputs(", \"open_since\": ", out);
		str_or_null(out, it->open_since);
		fprintf(out, ", \"across_change\": %s}", it->across ? "true" : "false");
	}
	fprintf(out, "],\n \"regressions\": %zu, \"accepted\": %zu, \"improvements\": %zu, "
	             "\"decidable\": %zu, \"failed_series\": %zu, \"started\": %zu, "
	             "\"exit_code\": %d}\n",
	        night->nred, night->naccepted, night->nimprovements, night->ndecidable,
	        night->nfailed_series, night->nstarted, pl_gate_exit_status(night));
	return done(out, 0, err);
}

/* The series with nothing to report ("quiet" of them): one line each in
 * text, collapsed under a <details> in Markdown. Returns 0 or the PL_E*
 * code of a write (not yet turned into err: the caller's done() does). */
static int put_quiet(FILE *out, const struct pl_gate_night *night, size_t quiet, int md)
{
	enum pl_table_format fmt = md ? PL_FMT_MARKDOWN : PL_FMT_TEXT;
	struct pl_msg m;
	int rc;

	pl_msg_init(&m, PL_MSG_GATE_QUIET);
	pl_msg_int(&m, (long long)quiet);
	if (md) {
		fputs("\n<details><summary>", out);
		if ((rc = say(out, &m)))
			return rc;
		fputs("</summary>\n\n", out);
	} else {
		if ((rc = say(out, &m)))
			return rc;
		fputs(":\n", out);
	}
	for (size_t s = 0; s < night->nseries; s++) {
		const struct pl_gate_series *se = &night->series[s];
		int headed = 0;
		if (se->started || se->superseded)
			continue;
		for (size_t i = 0; i < night->nitems; i++) {
			const struct pl_gate_item *it = &night->items[i];
			char ch[32];
			if (it->series != s || loud(it))
				continue;
			if (!headed) {
				fputs(md ? "- " : "  ", out);
				if ((rc = series_head(out, se, fmt)))
					return rc;
				fputs(":", out);
				headed = 1;
			}
			fprintf(out, "%s %s %s", headed++ > 1 ? "," : "", pl_metric_info[it->metric].name,
			        it->g.decidable
			            ? pl_fmt_change(ch, sizeof(ch), it->g.rel_change,
			                            (enum pl_direction)pl_metric_info[it->metric].direction)
			            : pl_verdict_name(it->verdict));
		}
		if (headed)
			fputc('\n', out);
	}
	if (md)
		fputs("\n</details>\n", out);
	return 0;
}

int pl_render_gate(FILE *out, const struct pl_gate_night *night, enum pl_table_format fmt,
                   struct pl_error *err)
{
	struct pl_msg m;
	char line[512];
	size_t quiet = 0;
	int md = fmt == PL_FMT_MARKDOWN, rc = 0;

	if (fmt == PL_FMT_JSON)
		return write_json(out, night, err);
	if (fmt != PL_FMT_TEXT && !md)
		return pl_error_set(err, PL_EUSAGE, "check: the gate has no csv format");
	pl_msg_init(&m, PL_MSG_GATE_HEAD);
	pl_msg_int(&m, (long long)night->nseries);
	pl_msg_int(&m, (long long)night->nitems);
	pl_msg_int(&m, (long long)night->window);
	pl_msg_num(&m, night->gate.alpha);
	pl_msg_num(&m, pl_round_sig(100.0 * night->gate.threshold, 12));
	fputs(md ? "### " : "", out);
	if ((rc = say(out, &m)))
		return done(out, rc, err);
	fputs(md ? "\n\n" : "\n", out);
	/* what needs attention, series by series */
	for (size_t s = 0; s < night->nseries; s++) {
		const struct pl_gate_series *se = &night->series[s];
		int headed = 0;
		for (size_t i = 0; i < night->nitems; i++) {
			const struct pl_gate_item *it = &night->items[i];
			if (it->series != s)
				continue;
			if (!loud(it)) {
				quiet += !se->started;
				continue;
			}
			if (!headed) {
				fputs(md ? "- **" : "", out);
				if ((rc = series_head(out, se, fmt)))
					return done(out, rc, err);
				fputs(md ? "**\n" : "\n", out);
				headed = 1;
			}
			item_numbers(line, sizeof(line), it);
			fprintf(out, "%s%s: ", md ? "  - " : "  ",
			        it->verdict == PL_V_REGRESSION ? (md ? "**regression**" : "regression")
			                                       : pl_verdict_name(it->verdict));
			if ((rc = pl_render_write_input(out, line, fmt)) || (rc = item_notes(out, night, it)))
				return done(out, rc, err);
			fputc('\n', out);
		}
		if (se->nfailed || se->started) {
			if (!headed) {
				fputs(md ? "- **" : "", out);
				if ((rc = series_head(out, se, fmt)))
					return done(out, rc, err);
				fputs(md ? "**\n" : "\n", out);
			}
			if (se->nfailed) {
				pl_msg_init(&m, PL_MSG_GATE_FAILED_RUNS);
				pl_msg_runs(&m, se->failed_ids, se->nfailed);
				fputs(md ? "  - " : "  ", out);
				if ((rc = say(out, &m)))
					return done(out, rc, err);
				fputc('\n', out);
			}
			if (se->started) {
				pl_msg_init(&m, PL_MSG_GATE_STARTED);
				pl_msg_int(&m, (long long)se->npoints);
				pl_msg_int(&m, (long long)PL_GATE_MIN_WINDOW + 1);
				fputs(md ? "  - " : "  ", out);
				if ((rc = say(out, &m)))
					return done(out, rc, err);
				fputc('\n', out);
			}
		}
	}
	/* the rest: one line per series in text, collapsed in Markdown */
	if (quiet && (rc = put_quiet(out, night, quiet, md)))
		return done(out, rc, err);
	/* the caveats of every series' points, each distinct one once */
	if (night->caveats.n) {
		fputs(md ? "\n" : "", out);
		if ((rc = pl_render_put_caveats(out, &night->caveats, fmt)))
			return done(out, rc, err);
	}
	pl_msg_init(&m, PL_MSG_GATE_RESULT);
	pl_msg_int(&m, (long long)night->nred);
	pl_msg_int(&m, (long long)night->nimprovements);
	pl_msg_int(&m, (long long)night->naccepted);
	pl_msg_int(&m, (long long)night->nfailed_series);
	pl_msg_int(&m, (long long)night->nstarted);
	fputs(md ? "\n**" : "result: ", out);
	if ((rc = say(out, &m)))
		return done(out, rc, err);
	fprintf(out, "%s (exit %d)\n", md ? "**" : "", pl_gate_exit_status(night));
	return done(out, 0, err);
}

static int xml_attr_label(FILE *out, const char *metric, const struct pl_gate_series *se)
{
	fprintf(out, "    <testcase classname=\"perfledger.check\" name=\"%s [", metric);
	if (pl_html_write_text(out, *se->label ? se->label : "series"))
		return PL_EIO;
	fputs("]\">\n", out);
	return 0;
}

/* Writes message m worded in English, escaped for XML; 0 or PL_ENOMEM /
 * PL_EIO (m released). */
static int say_xml(FILE *out, struct pl_msg *m)
{
	char *t = m->oom ? NULL : pl_words_msg(m, PL_LANG_EN);
	int rc;

	pl_msg_release(m);
	if (!t)
		return PL_ENOMEM;
	rc = pl_html_write_text(out, t) ? PL_EIO : 0;
	free(t);
	return rc;
}

/* What the gate decided for item it and why, one note a line, escaped for
 * XML: the decision (its own test, its family's, not significant, within
 * the threshold, an improvement, not judged), the acceptance, the baseline
 * and where it comes from (an open regression, across a change). */
static int junit_why(FILE *out, const struct pl_gate_night *night, const struct pl_gate_item *it)
{
	const struct pl_gate_series *se = &night->series[it->series];
	const struct pl_gate_opts *o = &night->gate;
	int dir = pl_metric_info[it->metric].direction, rc;
	char ch[32];
	struct pl_msg m;

	if (it->verdict == PL_V_TOO_FEW) {
		if (se->started) {
			pl_msg_init(&m, PL_MSG_GATE_STARTED);
			pl_msg_int(&m, (long long)se->npoints);
			pl_msg_int(&m, PL_GATE_OWN_MIN);
		} else {
			pl_msg_init(&m, PL_MSG_GATE_WHY_TOO_FEW);
			pl_msg_int(&m, PL_GATE_MIN_WINDOW);
		}
	} else if (it->verdict == PL_V_IMPROVEMENT) {
		pl_msg_init(&m, PL_MSG_GATE_WHY_BETTER);
		pl_msg_num(&m, it->g.p_better_adjusted);
		pl_msg_num(&m, o->alpha);
		pl_msg_text(&m, pl_fmt_change(ch, sizeof(ch), it->g.rel_change, (enum pl_direction)dir));
		pl_msg_num(&m, 100.0 * o->threshold);
	} else if (it->g.by == PL_GATE_BY_FAMILY) {
		pl_msg_init(&m, PL_MSG_GATE_WHY_FAMILY);
		pl_msg_int(&m, (long long)it->g.family_n);
		pl_msg_num(&m, it->g.family_z);
		pl_msg_num(&m, it->g.family_p_adjusted);
		pl_msg_num(&m, o->alpha);
		pl_msg_text(&m, pl_fmt_change(ch, sizeof(ch), it->g.family_change, (enum pl_direction)dir));
		pl_msg_num(&m, 100.0 * o->threshold);
		pl_msg_num(&m, it->g.p);
		pl_msg_num(&m, o->member_alpha);
	} else if (it->g.by == PL_GATE_BY_SELF) {
		pl_msg_init(&m, PL_MSG_GATE_WHY_SELF);
		pl_msg_num(&m, it->g.p_adjusted);
		pl_msg_num(&m, o->alpha);
		pl_msg_text(&m, pl_fmt_change(ch, sizeof(ch), it->g.rel_change, (enum pl_direction)dir));
		pl_msg_num(&m, 100.0 * o->threshold);
	} else {
		int sig = it->g.p_adjusted <= o->alpha;
		pl_msg_init(&m, sig ? PL_MSG_GATE_WHY_WITHIN : PL_MSG_GATE_WHY_NOT_SIGNIFICANT);
		pl_msg_num(&m, it->g.p_adjusted);
		pl_msg_num(&m, o->alpha);
		if (sig) {
			pl_msg_text(&m, pl_fmt_change(ch, sizeof(ch), it->g.rel_change, (enum pl_direction)dir));
			pl_msg_num(&m, 100.0 * o->threshold);
		}
	}
	if ((rc = say_xml(out, &m)))
		return rc;
	if (it->accepted) {
		pl_msg_init(&m, PL_MSG_GATE_WHY_ACCEPTED);
		pl_msg_int(&m, it->accepted->run_id);
		pl_msg_text(&m, it->accepted->reason ? it->accepted->reason : "");
		fputc('\n', out);
		if ((rc = say_xml(out, &m)))
			return rc;
	}
	if (it->base_first && it->base_last) {
		pl_msg_init(&m, PL_MSG_GATE_WHY_BASELINE);
		pl_msg_int(&m, (long long)it->nbase);
		pl_msg_text(&m, it->base_first);
		pl_msg_text(&m, it->base_last);
		fputc('\n', out);
		if ((rc = say_xml(out, &m)))
			return rc;
	}
	if (it->open_since) {
		pl_msg_init(&m, PL_MSG_GATE_OPEN_SINCE);
		pl_msg_text(&m, it->open_since);
		fputc('\n', out);
		if ((rc = say_xml(out, &m)))
			return rc;
	}
	if (it->across && se->change) {
		pl_msg_init(&m, PL_MSG_GATE_ACROSS);
		pl_msg_text(&m, se->change);
		fputc('\n', out);
		if ((rc = say_xml(out, &m)))
			return rc;
	}
	return 0;
}

int pl_render_gate_junit(FILE *out, const struct pl_gate_night *night, struct pl_error *err)
{
	size_t tests = night->nitems, failures = night->nred, skipped = 0;
	char line[512];
	int rc;

	for (size_t s = 0; s < night->nseries; s++)
		if (night->series[s].nfailed && !night->series[s].superseded) {
			tests++;
			failures++;
		}
	for (size_t i = 0; i < night->nitems; i++)
		skipped += night->items[i].verdict == PL_V_TOO_FEW;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"perfledger check\" tests=\"%zu\" failures=\"%zu\" "
	             "errors=\"0\">\n",
	        tests, failures);
	fprintf(out, "  <testsuite name=\"perfledger gate: window:%zu\" tests=\"%zu\" failures=\"%zu\" "
	             "errors=\"0\" skipped=\"%zu\">\n",
	        night->window, tests, failures, skipped);
	for (size_t i = 0; i < night->nitems; i++) {
		const struct pl_gate_item *it = &night->items[i];
		const struct pl_gate_series *se = &night->series[it->series];
		if (xml_attr_label(out, pl_metric_info[it->metric].name, se))
			return done(out, PL_EIO, err);
		item_numbers(line, sizeof(line), it);
		if (it->verdict == PL_V_TOO_FEW) {
			fputs("      <skipped message=\"too few samples: ", out);
			pl_html_write_text(out, line);
			fputs("\"/>\n      <system-out>", out);
		} else if (it->verdict == PL_V_REGRESSION) {
			fputs("      <failure type=\"regression\" message=\"regression: ", out);
			pl_html_write_text(out, line);
			fputs("\">", out);
			pl_html_write_text(out, line);
			fputs("</failure>\n      <system-out>", out);
		} else {
			fprintf(out, "      <system-out>%s: ", pl_verdict_name(it->verdict));
			pl_html_write_text(out, line);
			fputc('\n', out);
		}
		/* what the gate decided and why, one note a line */
		if ((rc = junit_why(out, night, it)))
			return done(out, rc, err);
		fputs("</system-out>\n    </testcase>\n", out);
	}
	for (size_t s = 0; s < night->nseries; s++) {
		const struct pl_gate_series *se = &night->series[s];
		if (!se->nfailed || se->superseded)
			continue;
		if (xml_attr_label(out, "failed runs", se))
			return done(out, PL_EIO, err);
		fputs("      <failure type=\"failed-run\" message=\"failed runs:", out);
		for (size_t k = 0; k < se->nfailed; k++)
			fprintf(out, " %lld", se->failed_ids[k]);
		fputs("\"/>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return done(out, 0, err);
}

int pl_render_gate_github(FILE *out, FILE *summary, const struct pl_gate_night *night,
                          struct pl_error *err)
{
	char line[512], title[512];
	int rc = 0;

	for (size_t i = 0; i < night->nitems && !rc; i++) {
		const struct pl_gate_item *it = &night->items[i];
		const struct pl_gate_series *se = &night->series[it->series];
		const char *cmd = it->verdict == PL_V_REGRESSION ? "error" : "notice";
		if (!loud(it))
			continue;
		snprintf(title, sizeof(title), "perfledger check: %s %s [%s]",
		         pl_metric_info[it->metric].name, pl_verdict_name(it->verdict),
		         *se->label ? se->label : "series");
		item_numbers(line, sizeof(line), it);
		fprintf(out, "::%s title=", cmd);
		if ((rc = pl_gh_write_escaped(out, title, 1)))
			break;
		fputs("::", out);
		if ((rc = pl_gh_write_escaped(out, line, 0)))
			break;
		fputc('\n', out);
	}
	for (size_t s = 0; s < night->nseries && !rc; s++) {
		const struct pl_gate_series *se = &night->series[s];
		if (!se->nfailed || se->superseded)
			continue;
		snprintf(title, sizeof(title), "perfledger check: failed runs [%s]",
		         *se->label ? se->label : "series");
		fputs("::error title=", out);
		if ((rc = pl_gh_write_escaped(out, title, 1)))
			break;
		fputs("::failed runs", out);
		for (size_t k = 0; k < se->nfailed; k++)
			fprintf(out, " %lld", se->failed_ids[k]);
		fputc('\n', out);
	}
	if (rc)
		return done(out, rc, err);
	if (summary)
		return pl_render_gate(summary, night, PL_FMT_MARKDOWN, err);
	return done(out, 0, err);
}

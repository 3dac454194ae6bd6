/*
 * ci_format.c — `check` and `history` as JUnit XML and as GitHub Actions
 * workflow commands with a Markdown step summary (see ci_format.h).
 *
 * The messages are the lines the text format prints ("regression: ttft_p50
 * +10.2% worse (...)"), so a CI log, a JUnit report and a terminal say the
 * same thing. Our own text goes into fixed buffers; input text (condition
 * values in the series label, reasons of accepted steps, mismatched values)
 * is written by the escaping writers only.
 */
#include "render/ci_format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/refusal.h"
#include "render/regress.h"
#include "render/render_impl.h"
#include "core/series_label.h"
#include "util/utf8.h"
#include "render/words.h"

/* ------------------------------------------------------------- pieces */

static int finish(FILE *out, int rc, struct pl_error *err)
{
	if (rc == PL_ENOMEM)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (rc)
		return pl_error_set(err, PL_EIO, "cannot write the report");
	if (ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the report");
	return 0;
}

int pl_gh_write_escaped(FILE *out, const char *s, int property)
{
	char *clean = pl_text_sanitize(s);

	if (!clean)
		return PL_ENOMEM;
	for (const char *p = clean; *p; p++) {
		switch (*p) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':':
			fputs(property ? "%3A" : ":", out);
			break;
		case ',':
			fputs(property ? "%2C" : ",", out);
			break;
		default: fputc(*p, out); break;
		}
	}
	free(clean);
	return ferror(out) ? PL_EIO : 0;
}

/* The short label of a condition key (core/series_label.h), from the
 * values every run shares, leaving out the field skip (PL_C_NONE: none):
 * its identity, and the conditions the selection fixed (cmp->named, set by
 * the caller from --where) that tell it from its siblings. Raw input text. */
static void series_label(char *buf, size_t n, const struct pl_comparison *cmp, int skip)
{
	struct pl_label_src src = {cmp->shared, cmp->varies, cmp->shared_extra, cmp->nshared_extra};
	struct pl_label_siblings sb;

	memcpy(sb.differs, cmp->named, sizeof(sb.differs));
	sb.extras = cmp->named_extras;
	pl_series_label(buf, n, &src, &sb, skip, "all runs");
}

/* --------------------------------------------------------------- JUnit */

/* 1 for a Unicode noncharacter: U+FDD0..U+FDEF and the last two code
 * points of every plane (U+FFFE, U+FFFF, U+1FFFE, ...). XML 1.0 (section
 * 2.2, Char) excludes U+FFFE and U+FFFF, and a JUnit reader built on expat
 * rejects the whole report for one of them. */
static int noncharacter(unsigned long cp)
{
	return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

/* s as XML character data or attribute text: noncharacters become U+FFFD,
 * the rest is escaped as HTML text (which already makes controls inert). */
static int xml(FILE *out, const char *s)
{
	size_t n = s ? strlen(s) : 0, len = 0;
	char *copy;
	int rc;

	if (!(copy = malloc(n + 1))) /* a replacement is never longer than what it replaces */
		return PL_ENOMEM;
	for (size_t i = 0; i < n;) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s + i, n - i, &cp);
		if (k > 0 && noncharacter(cp)) {
			memcpy(copy + len, "\xEF\xBF\xBD", 3);
			len += 3;
		} else {
			if (k == 0)
				k = 1;
			memcpy(copy + len, s + i, k);
			len += k;
		}
		i += k;
	}
	copy[len] = 0;
	rc = pl_html_write_text(out, copy);
	free(copy);
	return rc;
}

static void junit_head(FILE *out, const char *suites, size_t tests, size_t failures,
                       size_t errors)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
	        suites, tests, failures, errors);
}

/* The <property> elements of the conditions every run of cmp shares
 * ("condition.FIELD", extra conditions by their "FORMAT.key" names) and of
 * its caveats ("caveat.N"). */
static int junit_props(FILE *out, const struct pl_comparison *cmp)
{
	int rc;

	for (int id = 0; id < PL_COND_COUNT; id++) {
		const struct pl_value *v = &cmp->shared[id];
		if (!v->set || !v->text || cmp->varies[id])
			continue;
		fprintf(out, "      <property name=\"condition.%s\" value=\"", pl_cond_info[id].name);
		if ((rc = xml(out, v->text)))
			return rc;
		fputs("\"/>\n", out);
	}
	for (size_t i = 0; i < cmp->nshared_extra; i++) {
		fputs("      <property name=\"condition.", out);
		if ((rc = xml(out, cmp->shared_extra[i].name)))
			return rc;
		fputs("\" value=\"", out);
		if ((rc = xml(out, cmp->shared_extra[i].value)))
			return rc;
		fputs("\"/>\n", out);
	}
	for (size_t i = 0; i < cmp->caveats.n; i++) {
		char *t = pl_words_msg(&cmp->caveats.v[i], PL_LANG_EN);
		if (!t)
			return PL_ENOMEM;
		fprintf(out, "      <property name=\"caveat.%zu\" value=\"", i + 1);
		rc = xml(out, t);
		free(t);
		if (rc)
			return rc;
		fputs("\"/>\n", out);
	}
	return 0;
}

/* <testsuite name="NAME" ...> with NAME = prefix + input label, then the
 * <properties> of cmp (junit_props). */
static int junit_suite(FILE *out, const char *prefix, const char *label, size_t tests,
                       size_t failures, size_t errors, size_t skipped,
                       const struct pl_comparison *cmp)
{
	int rc;

	fputs("  <testsuite name=\"", out);
	if ((rc = xml(out, prefix)) || (rc = xml(out, label)))
		return rc;
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\">\n", tests,
	        failures, errors, skipped);
	fputs("    <properties>\n", out);
	if ((rc = junit_props(out, cmp)))
		return rc;
	fputs("    </properties>\n", out);
	return 0;
}

/* <testcase classname="CLS" name="METRIC [LABEL]"> */
static int junit_case_open(FILE *out, const char *cls, const char *metric, const char *label)
{
	int rc;

	fprintf(out, "    <testcase classname=\"%s\" name=\"%s [", cls, metric);
	if ((rc = xml(out, label)))
		return rc;
	fputs("]\">\n", out);
	return 0;
}

/* Why metric cm cannot be decided (regress.c's words, kept in step with its
 * why_too_few()). */
static void why_too_few(char *buf, size_t n, const struct pl_check *chk,
                        const struct pl_check_metric *cm)
{
	char p[32], a[32];

	pl_fmt_num(p, sizeof(p), pl_round_sig(cm->min_p, 2));
	pl_fmt_num(a, sizeof(a), chk->alpha);
	if (cm->base.n == 0 || cm->cand.n == 0)
		snprintf(buf, n, "no values on the %s side",
		         cm->base.n == 0 ? "baseline" : "candidate");
	else if (chk->series && chk->baseline_kind == PL_BASELINE_WINDOW)
		snprintf(buf, n, "%zu baseline point%s: the prediction interval needs %d", cm->base.n,
		         cm->base.n == 1 ? "" : "s", PL_STATS_PREDICTION_MIN);
	else if (cm->base.n < PL_STATS_PREDICTION_MIN)
		snprintf(buf, n,
		         "n = %zu and %zu: the smallest attainable p is %s > alpha %s, and the "
		         "prediction interval needs %d baseline values",
		         cm->base.n, cm->cand.n, p, a, PL_STATS_PREDICTION_MIN);
	else
		snprintf(buf, n, "n = %zu and %zu: the smallest attainable p is %s > alpha %s",
		         cm->base.n, cm->cand.n, p, a);
}

/* The text line of a decided metric: "ttft_p50 +10.2% worse (0.09513 ->
 * 0.1048 s), p = 3.6e-05, n = 12 and 12" (without the verdict). */
static void metric_line(char *buf, size_t n, const struct pl_check_metric *cm)
{
	const struct pl_metric_info *mi = &pl_metric_info[cm->metric];
	char ch[64], a[32], b[32], p[32];

	snprintf(buf, n, "%s %s (%s -> %s %s), p = %s, n = %zu and %zu", mi->name,
	         pl_fmt_change(ch, sizeof(ch), cm->change.rel_change, mi->direction),
	         pl_fmt_sig4(a, sizeof(a), cm->base.median), pl_fmt_sig4(b, sizeof(b), cm->cand.median),
	         pl_unit_label(mi->unit), pl_fmt_num(p, sizeof(p), pl_round_sig(cm->change.p_value, 2)),
	         cm->base.n, cm->cand.n);
}

int pl_render_check_junit(FILE *out, const struct pl_check *chk, struct pl_error *err)
{
	char label[256], prefix[160];
	size_t skipped = chk->nm - chk->ndecidable;
	int rc;

	series_label(label, sizeof(label), &chk->cmp, chk->axis);
	snprintf(prefix, sizeof(prefix), "check %s: ", pl_cond_info[chk->axis].name);
	/* one failing testcase per failed candidate run, after the metrics */
	junit_head(out, "perfledger check", chk->nm + chk->n_failed,
	           chk->nregressions + chk->n_failed, 0);
	/* the suite name: "check engine_version: BASE -> CAND: LABEL" */
	fputs("  <testsuite name=\"", out);
	if ((rc = xml(out, prefix)) || (rc = xml(out, chk->baseline)) || (rc = xml(out, " -> ")) ||
	    (rc = xml(out, chk->candidate)) || (rc = xml(out, ": ")) || (rc = xml(out, label)))
		return finish(out, rc, err);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
	        chk->nm + chk->n_failed, chk->nregressions + chk->n_failed, skipped);
	fputs("    <properties>\n", out);
	fprintf(out, "      <property name=\"axis\" value=\"%s\"/>\n", pl_cond_info[chk->axis].name);
	fputs("      <property name=\"baseline\" value=\"", out);
	if ((rc = xml(out, chk->baseline)))
		return finish(out, rc, err);
	fprintf(out, "\"/>\n      <property name=\"baseline.runs\" value=\"%zu\"/>\n", chk->n_base);
	fputs("      <property name=\"candidate\" value=\"", out);
	if ((rc = xml(out, chk->candidate)))
		return finish(out, rc, err);
	fprintf(out, "\"/>\n      <property name=\"candidate.runs\" value=\"%zu\"/>\n", chk->n_cand);
	{
		char thr[32], al[32];
		fprintf(out, "      <property name=\"threshold_pct\" value=\"%s\"/>\n",
		        pl_fmt_num(thr, sizeof(thr), pl_round_sig(100.0 * chk->threshold, 12)));
		fprintf(out, "      <property name=\"alpha\" value=\"%s\"/>\n",
		        pl_fmt_num(al, sizeof(al), chk->alpha));
	}
	if ((rc = junit_props(out, &chk->cmp)))
		return finish(out, rc, err);
	fputs("    </properties>\n", out);
	for (size_t i = 0; i < chk->nm; i++) {
		const struct pl_check_metric *cm = &chk->m[i];
		char line[512];

		if ((rc = junit_case_open(out, "perfledger.check", pl_metric_info[cm->metric].name,
		                          label)))
			return finish(out, rc, err);
		if (cm->verdict == PL_V_TOO_FEW) {
			char why[256];
			why_too_few(why, sizeof(why), chk, cm);
			fprintf(out, "      <skipped message=\"too few samples: ");
			if ((rc = xml(out, why)))
				return finish(out, rc, err);
			fputs("\"/>\n", out);
		} else {
			metric_line(line, sizeof(line), cm);
			if (cm->verdict == PL_V_REGRESSION) {
				fputs("      <failure type=\"regression\" message=\"regression: ", out);
				if ((rc = xml(out, line)))
					return finish(out, rc, err);
				fputs("\">", out);
				if ((rc = xml(out, line)))
					return finish(out, rc, err);
				fputs("</failure>\n", out);
			} else {
				fprintf(out, "      <system-out>%s: ", pl_verdict_name(cm->verdict));
				if ((rc = xml(out, line)))
					return finish(out, rc, err);
				if (cm->accepted) {
					fprintf(out, "; step accepted at run %lld: ", cm->accepted->run_id);
					if ((rc = xml(out, cm->accepted->reason)))
						return finish(out, rc, err);
				}
				fputs("</system-out>\n", out);
			}
		}
		fputs("    </testcase>\n", out);
	}
	for (size_t i = 0; i < chk->n_failed; i++) {
		char name[64];
		snprintf(name, sizeof(name), "run %lld", chk->failed_ids[i]);
		if ((rc = junit_case_open(out, "perfledger.check.failed_run", name, label)))
			return finish(out, rc, err);
		fprintf(out, "      <failure type=\"failed_run\" message=\"failed: candidate run %lld "
		             "completed no request (or every request failed): the gate fails\"/>\n",
		        chk->failed_ids[i]);
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return finish(out, 0, err);
}

/* What the points of h are named by, as regress.c prints it: the --by
 * field for run and version groups, else the group ("day", "build"). */
static const char *by_name(const struct pl_history *h)
{
	return h->group == PL_G_RUN || h->group == PL_G_ENGINE_VERSION ||
	               h->group == PL_G_DRIVER_VERSION
	           ? pl_cond_info[h->by].name
	           : pl_group_name(h->group);
}

/* "step at point 20 (run_started_at VALUE): 0.05982 -> 0.06662 s (+11.4%
 * worse), first run after: 51" with the input VALUE escaped by put. */
static int step_line(FILE *out, const struct pl_history *h, const struct pl_history_step *s,
                     int (*put)(FILE *, const char *, int), int arg)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	char buf[256], a[32], b[32], ch[64];
	int rc;

	snprintf(buf, sizeof(buf), "step at point %zu (%s ", s->index, by_name(h));
	if ((rc = put(out, buf, arg)) || (rc = put(out, h->points[s->index].value.text, arg)))
		return rc;
	snprintf(buf, sizeof(buf), "): %s -> %s %s (%s), first run after: %lld",
	         pl_fmt_sig4(a, sizeof(a), s->before), pl_fmt_sig4(b, sizeof(b), s->after),
	         pl_unit_label(mi->unit), pl_fmt_change(ch, sizeof(ch), s->rel_change, mi->direction),
	         s->first_run);
	if ((rc = put(out, buf, arg)))
		return rc;
	if (s->accepted) {
		snprintf(buf, sizeof(buf), "; accepted at run %lld: ", s->accepted->run_id);
		if ((rc = put(out, buf, arg)) || (rc = put(out, s->accepted->reason, arg)))
			return rc;
	}
	return 0;
}

/* "latest point 29 (run_started_at VALUE): 0.07210 s against the 20 points
 * before it (95% prediction interval [0.05700, 0.06300]): +20.5% worse, p =
 * 0.0001: regression" — the latest point's verdict, as regress.c words it. */
static int latest_line(FILE *out, const struct pl_history *h,
                       int (*put)(FILE *, const char *, int), int arg)
{
	const struct pl_metric_info *mi = &pl_metric_info[h->metric];
	char buf[400], a[32], lo[32], hi[32], ch[64], p[32];
	int rc;

	snprintf(buf, sizeof(buf), "latest point %zu (%s ", h->latest_point, by_name(h));
	if ((rc = put(out, buf, arg)) || (rc = put(out, h->points[h->latest_point].value.text, arg)))
		return rc;
	snprintf(buf, sizeof(buf),
	         "): %s %s against the %zu points before it (95%% prediction interval [%s, %s]): "
	         "%s, p = %s: %s",
	         pl_fmt_sig4(a, sizeof(a), h->latest.new_median), pl_unit_label(mi->unit),
	         h->latest.n_old, pl_fmt_sig4(lo, sizeof(lo), h->latest.bound_low),
	         pl_fmt_sig4(hi, sizeof(hi), h->latest.bound_high),
	         pl_fmt_change(ch, sizeof(ch), h->latest.rel_change, mi->direction),
	         pl_fmt_num(p, sizeof(p), pl_round_sig(h->latest.p_value, 2)),
	         pl_verdict_name(h->latest_verdict));
	if ((rc = put(out, buf, arg)))
		return rc;
	if (h->latest_accepted) {
		snprintf(buf, sizeof(buf), " at run %lld: ", h->latest_accepted->run_id);
		if ((rc = put(out, buf, arg)) || (rc = put(out, h->latest_accepted->reason, arg)))
			return rc;
	}
	return 0;
}

/* "last point 41 (day 2026-11-11): failed runs 165, 166 (no request
 * completed): the gate fails" — a last point with failed runs. */
static int failed_line(FILE *out, const struct pl_history *h,
                       int (*put)(FILE *, const char *, int), int arg)
{
	const struct pl_history_point *p = &h->points[h->npoints - 1];
	char buf[96];
	int rc;

	snprintf(buf, sizeof(buf), "last point %zu (%s ", h->npoints - 1, by_name(h));
	if ((rc = put(out, buf, arg)) || (rc = put(out, p->value.text, arg)) ||
	    (rc = put(out, p->nfailed == 1 ? "): failed run " : "): failed runs ", arg)))
		return rc;
	for (size_t k = 0; k < p->nfailed; k++) {
		snprintf(buf, sizeof(buf), "%s%lld", k ? ", " : "", p->failed_ids[k]);
		if ((rc = put(out, buf, arg)))
			return rc;
	}
	return put(out, " (no request completed): the gate fails", arg);
}

static int put_xml(FILE *out, const char *s, int unused)
{
	(void)unused;
	return pl_html_write_text(out, s);
}

static int put_gh(FILE *out, const char *s, int property)
{
	return pl_gh_write_escaped(out, s, property);
}

/* 1 if step s fails --fail-on-step (history.h: step.fails). */
static int step_fails(const struct pl_history *h, const struct pl_history_step *s)
{
	(void)h;
	return s->fails;
}

int pl_render_history_junit(FILE *out, const struct pl_history *hs, size_t nh,
                            struct pl_error *err)
{
	size_t failures = 0;
	int rc;

	for (size_t m = 0; m < nh; m++)
		failures += hs[m].nfailing ? 1 : 0;
	junit_head(out, "perfledger history", nh, failures, 0);
	for (size_t m = 0; m < nh; m++) {
		const struct pl_history *h = &hs[m];
		const char *metric = pl_metric_info[h->metric].name;
		char label[256], prefix[160];

		series_label(label, sizeof(label), &h->cmp, h->by);
		snprintf(prefix, sizeof(prefix), "history %s by %s: ", metric, by_name(h));
		if ((rc = junit_suite(out, prefix, label, 1, h->nfailing ? 1 : 0, 0, 0, &h->cmp)) ||
		    (rc = junit_case_open(out, "perfledger.history", metric, label)))
			return finish(out, rc, err);
		for (size_t k = 0; k < h->nsteps; k++) {
			const struct pl_history_step *s = &h->steps[k];
			if (!step_fails(h, s))
				continue;
			fputs("      <failure type=\"step\" message=\"", out);
			if ((rc = step_line(out, h, s, put_xml, 0)))
				return finish(out, rc, err);
			fputs("\">", out);
			if ((rc = step_line(out, h, s, put_xml, 0)))
				return finish(out, rc, err);
			fputs("</failure>\n", out);
		}
		if (h->latest_failed) {
			fputs("      <failure type=\"failed_run\" message=\"", out);
			if ((rc = failed_line(out, h, put_xml, 0)))
				return finish(out, rc, err);
			fputs("\">", out);
			if ((rc = failed_line(out, h, put_xml, 0)))
				return finish(out, rc, err);
			fputs("</failure>\n", out);
		}
		if (h->latest_verdict == PL_V_REGRESSION) {
			fputs("      <failure type=\"regression\" message=\"", out);
			if ((rc = latest_line(out, h, put_xml, 0)))
				return finish(out, rc, err);
			fputs("\">", out);
			if ((rc = latest_line(out, h, put_xml, 0)))
				return finish(out, rc, err);
			fputs("</failure>\n", out);
		}
		fprintf(out, "      <system-out>%zu point%s from %zu run%s; %zu step%s, %zu failing",
		        h->npoints, h->npoints == 1 ? "" : "s", h->nruns, h->nruns == 1 ? "" : "s",
		        h->nsteps, h->nsteps == 1 ? "" : "s", h->nfailing);
		for (size_t k = 0; k < h->nsteps; k++) {
			if (step_fails(h, &h->steps[k]))
				continue;
			fputs("\n", out);
			if ((rc = step_line(out, h, &h->steps[k], put_xml, 0)))
				return finish(out, rc, err);
		}
		if (h->latest_verdict != PL_V_TOO_FEW && h->latest_verdict != PL_V_REGRESSION) {
			fputs("\n", out);
			if ((rc = latest_line(out, h, put_xml, 0)))
				return finish(out, rc, err);
		}
		fputs("</system-out>\n    </testcase>\n  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
	return finish(out, 0, err);
}

/* Writes the mismatches of cmp as "FIELD: 'a' (run 1) vs 'b' (run 2); ..."
 * (render/refusal.h) through put. */
static int mismatch_text(FILE *out, const struct pl_comparison *cmp,
                         int (*put)(FILE *, const char *, int), int arg)
{
	int rc;

	for (size_t i = 0; i < cmp->nmismatches; i++) {
		char *line = pl_refusal_field_line(&cmp->mismatches[i], 0, 0, PL_LANG_EN);
		if (!line)
			return PL_ENOMEM;
		rc = i ? put(out, "; ", arg) : 0;
		if (!rc)
			rc = put(out, line, arg);
		free(line);
		if (rc)
			return rc;
	}
	return 0;
}

/* Writes the comparable subsets of cmp (pl_refusal_subsets_text(), one
 * per line), each line through put and after the raw line break nl ("\n"
 * in XML text, "%0A" in a GitHub annotation), or nothing when none was
 * sought: the refusal says what would compare, in every format. */
static int subsets_text(FILE *out, const struct pl_comparison *cmp,
                        int (*put)(FILE *, const char *, int), const char *nl)
{
	char *text = pl_refusal_subsets_text(cmp, "\n  ", 0, PL_LANG_EN);
	int rc = 0;

	if (!text)
		return PL_ENOMEM;
	for (char *line = text[0] ? text : NULL, *end; line && !rc; line = end ? end + 1 : NULL) {
		if ((end = strchr(line, '\n')))
			*end = '\0';
		fputs(nl, out);
		rc = put(out, line, 0);
	}
	free(text);
	return rc;
}

int pl_render_refusal_junit(FILE *out, const char *cmd, const struct pl_comparison *cmp,
                            struct pl_error *err)
{
	char suites[64], prefix[64];
	int rc;

	snprintf(suites, sizeof(suites), "perfledger %s", cmd);
	snprintf(prefix, sizeof(prefix), "%s: ", cmd);
	junit_head(out, suites, 1, 0, 1);
	if ((rc = junit_suite(out, prefix, "comparison refused", 1, 0, 1, 0, cmp)))
		return finish(out, rc, err);
	fprintf(out, "    <testcase classname=\"perfledger.%s\" name=\"conditions\">\n", cmd);
	fputs("      <error type=\"refused\" message=\"comparison refused: conditions differ: ", out);
	if ((rc = mismatch_text(out, cmp, put_xml, 0)))
		return finish(out, rc, err);
	fputs("\">", out);
	if ((rc = mismatch_text(out, cmp, put_xml, 0)) || (rc = subsets_text(out, cmp, put_xml, "\n")))
		return finish(out, rc, err);
	fputs("</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n", out);
	return finish(out, 0, err);
}

/* -------------------------------------------------------------- GitHub */

/* "::LEVEL title=perfledger CMD: SUBJECT [LABEL]::" */
static int gh_open(FILE *out, const char *level, const char *cmd, const char *subject,
                   const char *label)
{
	int rc;

	fprintf(out, "::%s title=", level);
	if ((rc = pl_gh_write_escaped(out, "perfledger ", 1)) ||
	    (rc = pl_gh_write_escaped(out, cmd, 1)) || (rc = pl_gh_write_escaped(out, " ", 1)) ||
	    (rc = pl_gh_write_escaped(out, subject, 1)) || (rc = pl_gh_write_escaped(out, " [", 1)) ||
	    (rc = pl_gh_write_escaped(out, label, 1)) || (rc = pl_gh_write_escaped(out, "]", 1)))
		return rc;
	fputs("::", out);
	return 0;
}

int pl_render_check_github(FILE *out, FILE *summary, const struct pl_check *chk,
                           struct pl_error *err)
{
	char label[256];
	int rc;

	series_label(label, sizeof(label), &chk->cmp, chk->axis);
	for (size_t i = 0; i < chk->nm; i++) {
		const struct pl_check_metric *cm = &chk->m[i];
		const char *name = pl_metric_info[cm->metric].name, *level;
		char line[512], subject[96];

		switch (cm->verdict) {
		case PL_V_REGRESSION: level = "error"; break;
		case PL_V_TOO_FEW: level = "warning"; break;
		case PL_V_ACCEPTED:
		case PL_V_IMPROVEMENT: level = "notice"; break;
		default: continue;
		}
		snprintf(subject, sizeof(subject), "%s %s", name, pl_verdict_name(cm->verdict));
		if ((rc = gh_open(out, level, "check", subject, label)))
			return finish(out, rc, err);
		if (cm->verdict == PL_V_TOO_FEW) {
			why_too_few(line, sizeof(line), chk, cm);
			if ((rc = pl_gh_write_escaped(out, "too few samples: ", 0)) ||
			    (rc = pl_gh_write_escaped(out, name, 0)) ||
			    (rc = pl_gh_write_escaped(out, ": ", 0)) ||
			    (rc = pl_gh_write_escaped(out, line, 0)))
				return finish(out, rc, err);
		} else {
			metric_line(line, sizeof(line), cm);
			if ((rc = pl_gh_write_escaped(out, pl_verdict_name(cm->verdict), 0)) ||
			    (rc = pl_gh_write_escaped(out, ": ", 0)) ||
			    (rc = pl_gh_write_escaped(out, line, 0)))
				return finish(out, rc, err);
			if (cm->accepted) {
				char buf[64];
				snprintf(buf, sizeof(buf), "; step accepted at run %lld: ",
				         cm->accepted->run_id);
				if ((rc = pl_gh_write_escaped(out, buf, 0)) ||
				    (rc = pl_gh_write_escaped(out, cm->accepted->reason, 0)))
					return finish(out, rc, err);
			}
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < chk->n_failed; i++) {
		char subject[64], line[160];
		snprintf(subject, sizeof(subject), "failed run %lld", chk->failed_ids[i]);
		snprintf(line, sizeof(line), "failed: candidate run %lld completed no request (or every "
		         "request failed): the gate fails", chk->failed_ids[i]);
		if ((rc = gh_open(out, "error", "check", subject, label)) ||
		    (rc = pl_gh_write_escaped(out, line, 0)))
			return finish(out, rc, err);
		fputc('\n', out);
	}
	if ((rc = finish(out, 0, err)))
		return rc;
	if (summary) {
		if ((rc = pl_render_check(summary, chk, PL_FMT_MARKDOWN, err)))
			return rc;
		return finish(summary, 0, err);
	}
	return 0;
}

int pl_render_history_github(FILE *out, FILE *summary, const struct pl_history *hs, size_t nh,
                             struct pl_error *err)
{
	int rc;

	for (size_t m = 0; m < nh; m++) {
		const struct pl_history *h = &hs[m];
		const char *metric = pl_metric_info[h->metric].name;
		char label[256], subject[96];

		series_label(label, sizeof(label), &h->cmp, h->by);
		for (size_t k = 0; k < h->nsteps; k++) {
			const struct pl_history_step *s = &h->steps[k];
			int fails = step_fails(h, s);

			if (!fails && !s->accepted && !s->better)
				continue;
			snprintf(subject, sizeof(subject), "%s %s", metric,
			         fails ? "step" : s->accepted ? "accepted step" : "step (better)");
			if ((rc = gh_open(out, fails ? "error" : "notice", "history", subject, label)) ||
			    (rc = step_line(out, h, s, put_gh, 0)))
				return finish(out, rc, err);
			fputc('\n', out);
		}
		if (h->latest_failed) {
			snprintf(subject, sizeof(subject), "%s failed runs", metric);
			if ((rc = gh_open(out, "error", "history", subject, label)) ||
			    (rc = failed_line(out, h, put_gh, 0)))
				return finish(out, rc, err);
			fputc('\n', out);
		}
		if (h->latest_verdict == PL_V_REGRESSION || h->latest_verdict == PL_V_ACCEPTED ||
		    h->latest_verdict == PL_V_IMPROVEMENT) {
			snprintf(subject, sizeof(subject), "%s latest point %s", metric,
			         pl_verdict_name(h->latest_verdict));
			if ((rc = gh_open(out, h->latest_verdict == PL_V_REGRESSION ? "error" : "notice",
			                  "history", subject, label)) ||
			    (rc = latest_line(out, h, put_gh, 0)))
				return finish(out, rc, err);
			fputc('\n', out);
		}
	}
	if ((rc = finish(out, 0, err)))
		return rc;
	if (summary) {
		for (size_t m = 0; m < nh; m++) {
			if (m)
				fputc('\n', summary);
			if ((rc = pl_render_history(summary, &hs[m], PL_FMT_MARKDOWN, err)))
				return rc;
		}
		return finish(summary, 0, err);
	}
	return 0;
}

/* Writes text line by line, each escaped as Markdown table-cell text
 * (pl_markdown_write_cell()), keeping its newlines and a leading "- ". */
static int md_lines(FILE *out, char *text)
{
	for (char *line = text, *nl; line; line = nl ? nl + 1 : NULL) {
		int rc;

		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (strncmp(line, "- ", 2) == 0) {
			fputs("- ", out);
			line += 2;
		}
		if ((rc = pl_markdown_write_cell(out, line)))
			return rc;
		if (nl)
			fputc('\n', out);
	}
	return 0;
}

int pl_render_refusal_github(FILE *out, FILE *summary, const char *cmd,
                             const struct pl_comparison *cmp, struct pl_error *err)
{
	int rc;

	if ((rc = gh_open(out, "error", cmd, "comparison refused", "conditions differ")) ||
	    (rc = pl_gh_write_escaped(out, "comparison refused: conditions differ: ", 0)) ||
	    (rc = mismatch_text(out, cmp, put_gh, 0)) || (rc = subsets_text(out, cmp, put_gh, "%0A")))
		return finish(out, rc, err);
	fputc('\n', out);
	if ((rc = finish(out, 0, err)))
		return rc;
	if (summary) {
		char *text;

		fprintf(summary, "## %s: comparison refused\n\nconditions differ: ", cmd);
		for (size_t i = 0; i < cmp->nmismatches; i++) {
			const struct pl_mismatch *m = &cmp->mismatches[i];
			fputs(i ? ", " : "", summary);
			if ((rc = pl_markdown_write_cell(summary, pl_refusal_field_name(m))))
				return finish(summary, rc, err);
		}
		/* the subsets as a list: "- --where F=V  (4 runs)" */
		if (!(text = pl_refusal_subsets_text(cmp, "\n- ", 0, PL_LANG_EN)))
			return finish(summary, PL_ENOMEM, err);
		if (text[0]) {
			fputs("\n\n", summary);
			rc = md_lines(summary, text);
		}
		free(text);
		if (rc)
			return finish(summary, rc, err);
		fputs("\n\nresult: refused (exit 3)\n", summary);
		return finish(summary, 0, err);
	}
	return 0;
}

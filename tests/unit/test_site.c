/* test_site.c — the CI formats (GitHub workflow-command escaping, JUnit and
 * annotations of a check and a history) and the static site (files, index
 * rows, hostile text escaped, byte-reproducible, atomic replacement and
 * refusal of a foreign directory), on synthetic runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/check.h"
#include "core/history.h"
#include "core/normalize.h"
#include "render/ci_format.h"
#include "render/site.h"
#include "util/file.h"

#define TMP PL_TEST_TMP "/site"

/* The text fn writes for its arguments, via a memory stream; caller frees. */
static char *capture_gh(const char *s, int property)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pl_gh_write_escaped(f, s, property), 0);
	fclose(f);
	return buf;
}

static void gh_escaping(void **state)
{
	char *s;
	(void)state;

	/* data: % CR LF escaped, : and , kept */
	s = capture_gh("50% worse: a, b", 0);
	assert_string_equal(s, "50%25 worse: a, b");
	free(s);
	/* property: also : and , */
	s = capture_gh("50% worse: a, b", 1);
	assert_string_equal(s, "50%25 worse%3A a%2C b");
	free(s);
	/* input text cannot start a command: line breaks and ESC are made inert
	 * first (the terminal rule), the literal "%0A" is escaped to "%250A" */
	s = capture_gh("x\n::error::pwn\r%0A\x1b[2J", 0);
	assert_string_equal(s, "x?::error::pwn?%250A?[2J");
	free(s);
	s = capture_gh("x\n::error::pwn", 1);
	assert_string_equal(s, "x?%3A%3Aerror%3A%3Apwn");
	free(s);
	s = capture_gh(NULL, 0);
	assert_string_equal(s, "");
	free(s);
}

/* A run of model "m" on hardware hw, engine version ver, at time when. */
static void add_run(struct pl_run_list *l, long long id, const char *hw, const char *ver,
                    const char *when, double ttft)
{
	struct pl_run *r = pl_run_list_push(l);
	assert_non_null(r);
	r->id = id;
	assert_int_equal(pl_strset(&r->source, "nightly.json"), 0);
	assert_int_equal(pl_strset(&r->adapter, "descriptor"), 0);
	snprintf(r->sha256, sizeof(r->sha256), "%064d", 0);
	pl_run_set_cond(r, PL_C_MODEL, "m", NULL);
	pl_run_set_cond(r, PL_C_PRECISION, "bf16", NULL);
	pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, ver, NULL);
	pl_run_set_cond(r, PL_C_HARDWARE, hw, NULL);
	pl_run_set_cond(r, PL_C_CONCURRENCY, "8", NULL);
	if (when)
		pl_run_set_cond(r, PL_C_RUN_STARTED_AT, when, NULL);
	assert_int_equal(pl_normalize_run(r, NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, ttft);
}

static char *render_check(int junit, const char *hw)
{
	struct pl_run_list runs = {0};
	struct pl_check_opts o;
	struct pl_check chk;
	struct pl_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* 5 runs at 0.100-0.104 s, 5 at 0.120-0.124 s (medians 0.102, 0.122: +19.6%):
	 * a regression, p = 0.0079 (every candidate above every baseline run) */
	for (int i = 0; i < 10; i++)
		add_run(&runs, i + 1, hw, i < 5 ? "1.0" : "1.1", NULL,
		        (i < 5 ? 0.100 : 0.120) + 0.001 * (i % 5));
	memset(&o, 0, sizeof(o));
	o.axis = PL_C_ENGINE_VERSION;
	o.baseline = "1.0";
	o.candidate = "1.1";
	o.metrics[0] = PL_M_TTFT_P50;
	o.nmetrics = 1;
	o.threshold = PL_CHECK_THRESHOLD_DEFAULT;
	o.alpha = PL_CHECK_ALPHA;
	pl_error_init(&err);
	assert_int_equal(pl_check_build(&runs, &o, NULL, &chk, &err), 0);
	assert_int_equal(chk.nregressions, 1);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (junit)
		assert_int_equal(pl_render_check_junit(f, &chk, &err), 0);
	else
		assert_int_equal(pl_render_check_github(f, NULL, &chk, &err), 0);
	fclose(f);
	pl_check_release(&chk);
	pl_run_list_release(&runs);
	return buf;
}

static void check_junit_and_github(void **state)
{
	char *s;
	(void)state;

	s = render_check(1, "1x H100");
	assert_non_null(strstr(s, "<testsuites name=\"perfledger check\" tests=\"1\" failures=\"1\" "
	                          "errors=\"0\">\n"));
	assert_non_null(strstr(s, "skipped=\"0\">\n"));
	assert_non_null(strstr(s, "<testcase classname=\"perfledger.check\" name=\"ttft_p50 [m / 1x "
	                          "H100 / vllm / c=8]\">\n      <failure type=\"regression\" "
	                          "message=\"regression: ttft_p50 +19.6% worse (0.1020 -&gt; 0.1220 s), "
	                          "p = 0.0079, n = 5 and 5\">"));
	free(s);
	s = render_check(0, "1x H100");
	assert_string_equal(s, "::error title=perfledger check ttft_p50 regression [m / 1x H100 / "
	                       "vllm / c=8]::regression: ttft_p50 +19.6%25 worse (0.1020 -> 0.1220 "
	                       "s), p = 0.0079, n = 5 and 5\n");
	free(s);
}

/* Unicode noncharacters in a condition (U+FFFE, U+1FFFF, U+FDD0) pass
 * import, but XML 1.0 excludes U+FFFE and U+FFFF and expat rejects the
 * whole JUnit report for one: each becomes U+FFFD; markup is escaped. */
static void junit_noncharacters(void **state)
{
	char *s;
	(void)state;

	s = render_check(1, "1x H100 \xEF\xBF\xBE\xF0\x9F\xBF\xBF\xEF\xB7\x90<x>");
	assert_non_null(strstr(s, "name=\"ttft_p50 [m / 1x H100 \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
	                          "&lt;x&gt; / vllm / c=8]\">"));
	assert_null(strstr(s, "\xEF\xBF\xBE"));
	assert_null(strstr(s, "\xF0\x9F\xBF\xBF"));
	assert_null(strstr(s, "\xEF\xB7\x90"));
	free(s);
}

/* ------------------------------------------------------------------ site */

/* Two series: hostile hardware with 12 nights and a step at night 8, and a
 * plain one with 2 nights (too few points); a third without dates. */
static void site_runs(struct pl_run_list *a, struct pl_run_list *b, struct pl_run_list *c)
{
	char when[32];

	for (int i = 0; i < 12; i++) {
		snprintf(when, sizeof(when), "2026-03-%02dT02:00:00Z", i + 1);
		add_run(a, i + 1, "<script>alert(1)</script> \"x\" & y", "2.0", when,
		        (i < 8 ? 0.100 : 0.130) + 0.0005 * (i % 3));
	}
	add_run(b, 13, "1x L4", "2.0", "2026-03-01T02:00:00Z", 0.2);
	add_run(b, 14, "1x L4", "2.0", "2026-03-02T02:00:00Z", 0.21);
	add_run(c, 15, "1x A10", "2.0", NULL, 0.3);
}

struct walk {
	struct pl_run_list *lists[3];
	size_t n;
};

static int walk(void *ctx, pl_site_add_fn add, void *site, struct pl_error *err)
{
	struct walk *w = ctx;
	int rc;

	for (size_t i = 0; i < w->n; i++)
		if ((rc = add(site, w->lists[i], err)))
			return rc;
	return 0;
}

static char *slurp(const char *dir, const char *name)
{
	char path[512], *data = NULL;
	size_t len = 0;
	struct pl_error err;

	pl_error_init(&err);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pl_file_read(path, (size_t)1 << 26, &data, &len, &err))
		return NULL;
	return data;
}

static void site_files(void **state)
{
	struct pl_run_list a = {0}, b = {0}, c = {0};
	struct walk w = {{&a, &b, &c}, 3};
	struct pl_site_opts o;
	struct pl_error err;
	char *csv, *html, *again, *page;
	FILE *f;
	(void)state;

	mkdir(PL_TEST_TMP, 0777);
	site_runs(&a, &b, &c);
	memset(&o, 0, sizeof(o));
	o.epoch = 1790000000;
	o.tool_version = "test";
	o.selection = "";
	pl_error_init(&err);
	assert_int_equal(pl_site_write(TMP, &o, walk, &w, &err), 0);

	csv = slurp(TMP, "index.csv");
	assert_non_null(csv);
	/* one row per series and metric that has dated values: ttft_p50 only */
	assert_non_null(strstr(csv, "series,label,metric,unit,points,latest,latest_at,verdict,steps,"
	                            "failing_steps\r\n"));
	assert_non_null(strstr(csv, ",\"m / <script>alert(1)</script> \"\"x\"\" & y / vllm 2.0 / "
	                            "c=8\",ttft_p50,s,12,0.131,2026-03-12T02:00:00Z,regression,1,2\r\n"));
	assert_non_null(strstr(csv, ",m / 1x L4 / vllm 2.0 / c=8,ttft_p50,s,2,0.21,"
	                            "2026-03-02T02:00:00Z,too few points,0,0\r\n"));
	assert_null(strstr(csv, "A10"));

	html = slurp(TMP, "index.html");
	assert_non_null(html);
	assert_null(strstr(html, "<script>alert"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt; &quot;x&quot; &amp; y"));
	assert_non_null(strstr(html, "2 series, 2 rows, 1 with a regression; 1 series left out"));
	/* the filter searches every condition of a row, escaped like the rest */
	assert_non_null(strstr(html, "data-conds=\"model=m; "));
	assert_non_null(strstr(html, "hardware=1x L4; "));
	assert_non_null(strstr(html, "r.getAttribute('data-conds')"));
	assert_non_null(strstr(html, "generated 2026-09-21T14:13:20Z"));
	{
		/* the page the first row links to exists and holds the chart */
		char *href = strstr(html, "<td class=\"series\"><a href=\"");
		char name[64];
		assert_non_null(href);
		href += strlen("<td class=\"series\"><a href=\"");
		snprintf(name, sizeof(name), "%.*s", (int)(strchr(href, '#') - href), href);
		page = slurp(TMP, name);
		assert_non_null(page);
		assert_non_null(strstr(page, "<svg class=\"chart\""));
		/* levels: medians 0.1005 of nights 1-8 and 0.13075 of 9-12 */
		assert_non_null(strstr(page, "<li>step at 2026-03-09T02:00:00Z: 0.1005 &rarr; 0.1308 s "
		                            "(+30.1% worse), first run after: 9</li>"));
		assert_null(strstr(page, "<script>alert"));
		/* each point's label, median and n on hover; date ticks along the
		 * 12-day axis (5: the first, middle ones and the last) */
		assert_non_null(strstr(page, "<g><title>2026-03-01T02:00:00Z: "));
		assert_non_null(strstr(page, ">2026-03-01</text>"));
		assert_non_null(strstr(page, " text-anchor=\"end\">2026-03-12</text>"));
		assert_non_null(strstr(page, "<title>prediction band of the window: "));
		free(page);
	}
	/* byte-reproducible: a second render gives the same index */
	assert_int_equal(pl_site_write(TMP, &o, walk, &w, &err), 0);
	again = slurp(TMP, "index.html");
	assert_string_equal(again, html);
	free(again);
	free(html);
	free(csv);

	/* nothing to show: PL_EEMPTY, and the old site is left whole */
	w.lists[0] = &c;
	w.n = 1;
	assert_int_equal(pl_site_write(TMP, &o, walk, &w, &err), PL_EEMPTY);
	assert_string_equal(err.message, "no series to show: no selected run has run_started_at and "
	                                 "one of the metrics");
	html = slurp(TMP, "index.html");
	assert_non_null(html);
	free(html);

	/* a directory that is not perfledger's is refused, and kept */
	mkdir(TMP "-foreign", 0777);
	f = fopen(TMP "-foreign/notes.txt", "w");
	assert_non_null(f);
	fputs("mine\n", f);
	fclose(f);
	w.lists[0] = &a;
	pl_error_init(&err);
	assert_int_not_equal(pl_site_write(TMP "-foreign", &o, walk, &w, &err), 0);
	assert_non_null(strstr(err.message, "notes.txt"));
	html = slurp(TMP "-foreign", "notes.txt");
	assert_string_equal(html, "mine\n");
	free(html);

	pl_run_list_release(&a);
	pl_run_list_release(&b);
	pl_run_list_release(&c);
}

/* Finding 8: a series whose last night failed (every run) and whose steps
 * lie close together near the right edge. The failed night is a failure
 * mark, never "nan" or a point at y 0 off the plot; the latest value is the
 * last night with a median; step labels neither overlap nor leave the plot. */
static void site_failed_and_labels(void **state)
{
	struct pl_run_list a = {0};
	struct walk w = {{&a, NULL, NULL}, 1};
	struct pl_site_opts o;
	struct pl_error err;
	char when[32], name[64], *html, *json, *page, *href, *p;
	(void)state;
	for (int i = 0; i < 16; i++) { /* +25% on nights 12-13, back on 14-15 */
		snprintf(when, sizeof(when), "2026-03-%02dT02:00:00Z", i + 1);
		add_run(&a, i + 1, "1x H100", "2.0", when,
		        (i == 12 || i == 13 ? 0.125 : 0.100) + 0.0005 * (i % 3));
	}
	snprintf(when, sizeof(when), "2026-03-17T02:00:00Z");
	add_run(&a, 17, "1x H100", "2.0", when, 0);
	a.v[16].has_metric[PL_M_TTFT_P50] = 0;
	pl_run_set_metric(&a.v[16], PL_M_REQUESTS_COMPLETED, 0);
	memset(&o, 0, sizeof(o));
	o.epoch = 1790000000;
	o.tool_version = "test";
	o.selection = "";
	pl_error_init(&err);
	assert_int_equal(pl_site_write(TMP "-failed", &o, walk, &w, &err), 0);
	html = slurp(TMP "-failed", "index.html");
	json = slurp(TMP "-failed", "index.json");
	assert_non_null(html);
	assert_non_null(json);
	assert_null(strstr(html, "nan"));
	assert_non_null(strstr(html, "<tr data-verdict=\"failed\" data-conds="));
	assert_non_null(strstr(html, "<td class=\"num v-failed\">1 failed</td><td>2026-03-17T02:00:00Z"
	                             "<br>last value 0.1000 at 2026-03-16T02:00:00Z</td>"));
	assert_null(strstr(json, "\"latest\": null"));
	assert_null(strstr(html, "tpot_p50")); /* failed runs alone make no row */
	assert_non_null(strstr(json, "\"latest\": 0.1, \"latest_at\": \"2026-03-16T02:00:00Z\", "
	                             "\"failed_at\": \"2026-03-17T02:00:00Z\", \"failed_run_ids\": [17]"));
	/* the sparkline: a red cross at the bottom right, no point there */
	assert_non_null(strstr(html, "<path d=\"M116.0 27 l4 -4 m-4 0 l4 4\" stroke=\"#c62828\""));
	href = strstr(html, "<td class=\"series\"><a href=\"") + strlen("<td class=\"series\"><a href=\"");
	snprintf(name, sizeof(name), "%.*s", (int)(strchr(href, '#') - href), href);
	page = slurp(TMP "-failed", name);
	assert_non_null(page);
	assert_null(strstr(page, "nan"));
	assert_null(strstr(page, ",0.0 ")); /* no median drawn at y 0 */
	assert_non_null(strstr(page, "<td class=\"num v-failed\">failed</td>"));
	assert_non_null(strstr(page, "<title>1 failed run (no request completed)</title>"));
	assert_non_null(strstr(page, "Failed: last point (2026-03-17T02:00:00Z): run <a "
	                             "href=\"#run-17\">17</a> completed no request"));
	/* the two step labels: the second on the next row, anchored at its end
	 * when it would pass the right edge (x + 3 + width > 704) */
	p = strstr(page, "<text x=\"");
	/* reverted on night 14: the step no longer fails (the gate's rule, as
	 * check), so its label is grey, not red */
	assert_non_null(strstr(page, "<text x=\"528.7\" y=\"28\" font-size=\"11\" fill=\"#555\">"
	                             "+24.6% worse</text>"));
	assert_non_null(strstr(page, "<text x=\"607.9\" y=\"41\" font-size=\"11\" fill=\"#555\">"
	                             "-19.8% better</text>"));
	(void)p;
	free(page);
	free(html);
	free(json);
	pl_run_list_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gh_escaping),
		cmocka_unit_test(check_junit_and_github),
		cmocka_unit_test(junit_noncharacters),
		cmocka_unit_test(site_files),
		cmocka_unit_test(site_failed_and_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_report_verdict.c — the decision of a procurement report (issue 15):
 * the procurement view of an open-loop (request-rate) sweep, the lower-bound
 * and single-point flags, the definition's prices winning over the runs',
 * the price-key rules, and, rendered, the verdict table first, ranked by
 * cost, and the caveats collapsed to one box per distinct caveat.
 *
 * tests/fixtures/procurement-open-loop/rates.jsonl, SLO ttft_p95 <= 0.5 s and
 * tpot_p95 <= 0.05 s, one accelerator each:
 *   L40S (runs: 2.5/h): rates 1 2 4 8 meet, 16 fails (ttft 0.40 -> 0.90):
 *       t = (0.5-0.4)/(0.9-0.4) = 0.2, rate* = 8 + 0.2*8 = 9.6,
 *       X* = 760 + 0.2*(1100-760) = 828 tok/s;
 *       at the table's 2.0/h: 2/(828*3600)*1e6 = 0.67096081588
 *   L4 (0.8/h): rates 1 2 4 all meet: measured at 4, 300 tok/s, a lower
 *       bound (the sweep ends before the SLO is violated);
 *       0.8/(300*3600)*1e6 = 0.74074074074
 *   T4 (0.35/h): one point, rate 1, 50 tok/s: lower bound, single point;
 *       0.35/(50*3600)*1e6 = 1.94444444444
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "adapters/adapters.h"
#include "core/compare.h"
#include "core/procure.h"
#include "import/import.h"
#include "render/bundle.h"
#include "render/spec.h"
#include "store/db.h"

/* Everything one test needs, from the fixture or the samples. */
struct fixture {
	struct pl_store *st;
	struct pl_run_list runs;
	struct pl_comparison cmp;
};

static void load(struct fixture *f, const char *db, const char *const *paths, size_t npaths,
                 const char *axis)
{
	struct pl_import_opts iopts = {0};
	struct pl_compare_opts copts;
	struct pl_error err;

	mkdir(PL_TEST_TMP, 0777);
	unlink(db);
	pl_error_init(&err);
	pl_run_list_init(&f->runs);
	assert_int_equal(pl_store_open(db, &f->st, &err), 0);
	assert_int_equal(pl_import_paths(f->st, paths, npaths, &iopts, NULL, NULL, NULL, &err), 0);
	assert_int_equal(pl_store_query(f->st, NULL, 0, &f->runs, &err), 0);
	memset(&copts, 0, sizeof(copts));
	assert_int_equal(pl_compare_parse_axis(&copts, axis, &err), 0);
	assert_int_equal(pl_compare_build(&f->runs, &copts, &f->cmp, &err), 0);
}

static void unload(struct fixture *f)
{
	pl_comparison_release(&f->cmp);
	pl_run_list_release(&f->runs);
	pl_store_close(f->st);
}

static const struct pl_procure_group *group(const struct pl_procurement *p, const char *label)
{
	for (size_t i = 0; i < p->ngroups; i++)
		if (strcmp(p->groups[i].label, label) == 0)
			return &p->groups[i];
	fail_msg("no group '%s'", label);
	return NULL;
}

static const char *const open_loop[] = {PL_FIXTURES_DIR "/procurement-open-loop"};

static struct pl_slo two_limits(void)
{
	struct pl_slo slo = {{PL_M_TTFT_P95, PL_M_TPOT_P95}, {0.5, 0.05}, 2};
	return slo;
}

static void test_open_loop(void **state)
{
	struct fixture f;
	struct pl_procurement p;
	struct pl_slo slo = two_limits();
	struct pl_price table[3] = {{"1x NVIDIA L40S", 2.0, 0, 0, 0}, {"1x NVIDIA L4", 0.8, 0, 0, 0},
	                            {"1x NVIDIA T4", 0.35, 0, 0, 0}};
	struct pl_error err;
	const struct pl_procure_group *g;

	(void)state;
	pl_error_init(&err);
	load(&f, PL_TEST_TMP "/verdict-ol.db", open_loop, 1, "hardware,request_rate");
	assert_int_equal(f.cmp.nrows, 9);
	assert_int_equal(pl_procure_build(&f.cmp, &f.runs, &slo, table, 3, &p, &err), 0);
	assert_int_equal(p.load, PL_C_REQUEST_RATE);
	assert_int_equal(p.sweep, 1);
	assert_int_equal(p.ngroups, 3);
	assert_int_equal(p.nunused_prices, 0);

	g = group(&p, "1x NVIDIA L40S");
	assert_int_equal(g->npoints, 5);
	assert_int_equal(g->usable, 5);
	assert_int_equal(g->nruns, 5);
	assert_int_equal(g->slo.status, PL_SLO_INTERPOLATED);
	assert_true(fabs(g->slo.concurrency - 9.6) < 1e-9);   /* the request rate */
	assert_true(fabs(g->slo.lo_concurrency - 8) < 1e-12);
	assert_true(fabs(g->slo.hi_concurrency - 16) < 1e-12);
	assert_true(fabs(g->slo.throughput - 828) < 1e-9);
	assert_true(fabs(g->slo_cost_per_mtok - 0.67096081588) < 1e-9);
	assert_int_equal(g->lower_bound, 0);
	assert_int_equal(g->single_point, 0);
	/* the table's 2.0 wins over the runs' 2.5, which is kept */
	assert_int_equal(g->price_source, 3);
	assert_true(fabs(g->price_per_hour - 2.0) < 1e-12);
	assert_true(fabs(g->runs_price_per_hour - 2.5) < 1e-12);

	g = group(&p, "1x NVIDIA L4");
	assert_int_equal(g->slo.status, PL_SLO_MEASURED);
	assert_true(fabs(g->slo.concurrency - 4) < 1e-12);
	assert_true(fabs(g->slo.throughput - 300) < 1e-12);
	assert_int_equal(g->lower_bound, 1); /* rate 4, the highest, still meets */
	assert_int_equal(g->single_point, 0);
	assert_true(fabs(g->slo_cost_per_mtok - 0.74074074074) < 1e-9);

	g = group(&p, "1x NVIDIA T4");
	assert_int_equal(g->npoints, 1);
	assert_int_equal(g->usable, 1);
	assert_int_equal(g->lower_bound, 1);
	assert_int_equal(g->single_point, 1);
	assert_true(fabs(g->slo_cost_per_mtok - 1.94444444444) < 1e-9);
	pl_procurement_release(&p);
	unload(&f);
}

static void test_price_keys(void **state)
{
	struct fixture f;
	struct pl_procurement p;
	struct pl_slo slo = two_limits();
	struct pl_price typo[1] = {{"1x NVIDA L40S", 2.0, 0, 0, 0}};
	struct pl_price far[1] = {{"8x AMD MI355X", 30, 0, 0, 0}};
	struct pl_error err;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-keys.db", open_loop, 1, "hardware,request_rate");
	/* one edit from a row's hardware: a typo, an error naming it */
	pl_error_init(&err);
	assert_int_equal(pl_procure_build(&f.cmp, &f.runs, &slo, typo, 1, &p, &err), PL_EINVALID);
	assert_string_equal(err.message, "'prices' entry '1x NVIDA L40S' matches the hardware of no "
	                                 "row; the closest is '1x NVIDIA L40S'");
	assert_string_equal(err.field, "prices");
	pl_procurement_release(&p);
	/* hardware outside the selection, every row priced by its runs: kept
	 * for the report to name */
	pl_error_init(&err);
	assert_int_equal(pl_procure_build(&f.cmp, &f.runs, &slo, far, 1, &p, &err), 0);
	assert_int_equal(p.nunused_prices, 1);
	assert_string_equal(p.unused_prices[0], "8x AMD MI355X");
	assert_int_equal(group(&p, "1x NVIDIA L4")->price_source, 1);
	pl_procurement_release(&p);
	unload(&f);
}

static void test_price_key_unpriced_row(void **state)
{
	/* A row without any price and a key that matches no row: an error,
	 * however far the key is from the row's hardware. */
	struct pl_comparison cmp;
	struct pl_compare_row rows[1];
	struct pl_run_list runs;
	struct pl_price table[1] = {{"Groq LPU", 1.0, 0, 0, 0}};
	struct pl_procurement p;
	struct pl_error err;
	struct pl_run *r;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	pl_run_list_init(&runs);
	pl_error_init(&err);
	r = pl_run_list_push(&runs);
	r->id = 7;
	cmp.axis[0] = PL_C_HARDWARE;
	cmp.naxis = 1;
	cmp.rows = rows;
	cmp.nrows = 1;
	rows[0].axis[PL_C_HARDWARE].set = 1;
	rows[0].axis[PL_C_HARDWARE].text = (char *)"8x NVIDIA B200";
	rows[0].n = 1;
	rows[0].run_ids = &r->id;
	assert_int_equal(pl_procure_build(&cmp, &runs, NULL, table, 1, &p, &err), PL_EINVALID);
	assert_string_equal(err.message, "'prices' entry 'Groq LPU' matches the hardware of no row; "
	                                 "the closest is '8x NVIDIA B200'");
	pl_procurement_release(&p);
	pl_run_list_release(&runs);
}

/* The whole of file (heap, NUL-terminated). */
static char *slurp(const char *file)
{
	FILE *fp = fopen(file, "rb");
	char *text;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)n, fp), (size_t)n);
	text[n] = '\0';
	fclose(fp);
	return text;
}

/* Renders spec_json over f into a new directory under PL_TEST_TMP (its
 * path into dir, size 512) and returns its report.md (heap). */
static char *render_in(struct fixture *f, const char *spec_json, const char *lang, const char *name,
                       char *dir)
{
	char path[1024];
	struct pl_report_spec spec;
	struct pl_procurement p;
	struct pl_bundle_opts opts = {0}; /* errata, as_of: none */
	struct pl_error err;
	FILE *fp;

	pl_error_init(&err);
	snprintf(path, sizeof(path), "%s/%s.json", PL_TEST_TMP, name);
	snprintf(dir, 512, "%s/%s-%s-XXXXXX", PL_TEST_TMP, name, lang);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(spec_json, fp);
	fclose(fp);
	if (pl_spec_load(path, &spec, &err) != 0)
		fail_msg("%s", err.message);
	assert_int_equal(pl_procure_build(&f->cmp, &f->runs, &spec.slo, spec.prices, spec.nprices, &p,
	                                  &err),
	                 0);
	assert_non_null(mkdtemp(dir)); /* an empty directory of its own */
	opts.spec = &spec;
	opts.lang = lang;
	opts.epoch = 1790000000;
	opts.tool_version = "test";
	assert_int_equal(pl_bundle_write_fresh(dir, &f->cmp, &f->runs, &p, &opts, &err), 0);
	pl_procurement_release(&p);
	pl_spec_release(&spec);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	return slurp(path);
}

static char *render(struct fixture *f, const char *spec_json, const char *lang, const char *name)
{
	char dir[512];

	return render_in(f, spec_json, lang, name, dir);
}

/* File name of the bundle in dir (heap). */
static char *bundle_file(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path);
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;

	for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
		k++;
	return k;
}

static void test_verdict_first(void **state)
{
	static const char spec[] =
		"{\"name\": \"ol\", \"axis\": \"hardware,request_rate\", \"slo\": {\"ttft_p95\": 0.5, "
		"\"tpot_p95\": 0.05}, \"currency\": \"EUR\", \"prices\": {\"1x NVIDIA L40S\": 2.0}, "
		"\"charts\": []}";
	struct fixture f;
	char *md;
	const char *verdict, *conditions, *details, *caveats, *a, *b, *c;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-md.db", open_loop, 1, "hardware,request_rate");
	md = render(&f, spec, "en", "verdict-md");
	verdict = strstr(md, "## Verdict (derived)");
	conditions = strstr(md, "## Conditions");
	details = strstr(md, "## Details");
	caveats = strstr(md, "## Caveats");
	assert_non_null(verdict);
	assert_non_null(conditions);
	assert_non_null(details);
	assert_non_null(caveats);
	/* decision, conditions, details, caveats: in that order */
	assert_true(verdict < conditions && conditions < details && details < caveats);
	/* ranked by cost: L40S 0.6710 (the table's 2.0), L4 0.7407 and T4
	 * 1.944 (the runs' prices, no currency of their own) */
	a = strstr(md, "| 1 | 1x NVIDIA L40S | **0.6710** | interpolated | 828.0 | 828.0 | 1100 | 5 | "
	               "interpolated between request rate 8 and 16 req/s (at 9.600); price EUR 2/h from "
	               "the definition replaces EUR 2.5/h stored with the runs |");
	b = strstr(md, "| 2 | 1x NVIDIA L4 | **≤ 0.7407** | lower bound; cost at most | ≥ 300.0 | ≥ 300.0 | "
	               "300.0 | 3 | measured at request rate 4 req/s; lower bound: the highest request "
	               "rate measured (4) still meets the SLO; cost at most 0.7407 EUR per 1M output tokens: it "
	               "rests on a lower-bound throughput (more load may still meet the SLO, at a lower "
	               "cost) |");
	c = strstr(md, "| 3 | 1x NVIDIA T4 | **≤ 1.944** | lower bound; cost at most; single point | ≥ 50.00 | "
	               "≥ 50.00 | 50.00 | 1 | measured at request rate 1 req/s; lower bound: the SLO "
	               "figure rests on one usable point; cost at most 1.944 EUR per 1M output tokens: it rests "
	               "on a lower-bound throughput (more load may still meet the SLO, at a lower cost) |");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(verdict < a && a < b && b < c && c < conditions);
	assert_non_null(strstr(md, "Prices and costs in **EUR**."));
	/* no chart asked for: nothing said about charts */
	assert_null(strstr(md, "sweep chart"));
	assert_non_null(strstr(caveats, "## Caveats\n\nNone.\n"));
	free(md);
	unload(&f);
}

static void test_caveats_collapsed(void **state)
{
	/* The cloud API's four rows are reference-only for the same missing
	 * items: one box listing the four rows, not four boxes. */
	static const char spec[] =
		"{\"name\": \"api\", \"axis\": \"hardware,deployment,engine,concurrency\", \"slo\": "
		"{\"ttft_p95\": 0.5, \"tpot_p95\": 0.05}, \"charts\": []}";
	static const char *const paths[] = {PL_SAMPLES_DIR "/procurement-sweep",
	                                    PL_SAMPLES_DIR "/procurement-api"};
	struct fixture f;
	char *md, *zh;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-cav.db", paths, 2, "hardware,deployment,engine,concurrency");
	md = render(&f, spec, "en", "verdict-cav");
	assert_int_equal(count(md, "> **Caveat:**"), 1);
	assert_non_null(strstr(md, "> **Caveat:** reference-only: the runs lack engine version, "
	                           "launch parameters, driver/CUDA\n>\n> Applies to:\n"
	                           "> - ExampleCloud serverless API / cloud-api / examplecloud / 1 (1 of 1 runs)\n"
	                           "> - ExampleCloud serverless API / cloud-api / examplecloud / 4 (1 of 1 runs)\n"
	                           "> - ExampleCloud serverless API / cloud-api / examplecloud / 16 (1 of 1 runs)\n"
	                           "> - ExampleCloud serverless API / cloud-api / examplecloud / 64 (1 of 1 runs)\n"));
	/* the flag in the verdict */
	assert_non_null(strstr(md, "| 4 | ExampleCloud serverless API / cloud-api / examplecloud | "
	                           "**3.200** | interpolated; reference-only | - | 603.3 | 2900 | 4 |"));
	zh = render(&f, spec, "zh-CN", "verdict-cav");
	assert_int_equal(count(zh, "> **注意：**"), 1);
	assert_non_null(strstr(zh, "> **注意：**仅供参考：运行记录缺少引擎版本、启动参数、驱动/CUDA\n"));
	assert_non_null(strstr(zh, "| 插值; 仅供参考 |"));
	assert_null(strstr(zh, "reference-only"));
	free(md);
	free(zh);
	unload(&f);
}


/* member of dir/comparison.xlsx (heap), by unzip(1). */
static char *xlsx_member(const char *dir, const char *member)
{
	char cmd[1024], *text = NULL;
	size_t len = 0, cap = 0, got;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "unzip -p '%s/comparison.xlsx' '%s'", dir, member);
	p = popen(cmd, "r");
	assert_non_null(p);
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			text = realloc(text, cap);
			assert_non_null(text);
		}
		got = fread(text + len, 1, 4096, p);
		len += got;
	} while (got > 0);
	text[len] = '\0';
	assert_int_equal(pclose(p), 0);
	return text;
}

/* The text of cell ref ("C1") of the first sheet: a shared string's text
 * or a number's digits, into out (size n); "" when there is no cell. */
static void xlsx_cell(const char *sheet, const char *sst, const char *ref, char *out, size_t n)
{
	char key[32];
	const char *c, *v, *end;
	size_t len;

	out[0] = '\0';
	snprintf(key, sizeof(key), "<c r=\"%s\"", ref);
	c = strstr(sheet, key);
	if (!c)
		return;
	v = strstr(c, "<v>");
	end = strchr(c, '/');
	assert_non_null(v);
	assert_true(end == NULL || v < strstr(c, "</c>"));
	if (strstr(c, " t=\"s\"") && strstr(c, " t=\"s\"") < v) {
		long idx = strtol(v + 3, NULL, 10);
		const char *si = sst;
		for (long i = 0; i <= idx; i++) {
			si = strstr(si + 1, "<si>");
			assert_non_null(si);
		}
		v = strchr(strstr(si, "<t"), '>') + 1;
		end = strstr(v, "</t>");
	} else {
		v += 3;
		end = strstr(v, "</v>");
	}
	assert_non_null(end);
	len = (size_t)(end - v) < n - 1 ? (size_t)(end - v) : n - 1;
	memcpy(out, v, len);
	out[len] = '\0';
}

static void assert_cell(const char *sheet, const char *sst, const char *ref, const char *want)
{
	char got[1024];

	xlsx_cell(sheet, sst, ref, got, sizeof(got));
	if (strcmp(got, want) != 0)
		fail_msg("cell %s: '%s', expected '%s'", ref, got, want);
}

#define OL_SPEC(cur)                                                                              \
	"{\"name\": \"ol\", \"axis\": \"hardware,request_rate\", \"slo\": {\"ttft_p95\": 0.5, "     \
	"\"tpot_p95\": 0.05}, " cur                                                                 \
	"\"charts\": [\"sweep\", \"pareto\"], \"sheets\": [\"procurement\"]}"

#define OL_EUR OL_SPEC("\"currency\": \"EUR\", \"prices\": {\"1x NVIDIA L40S\": 2.0}, ")

/* An open-loop sweep's charts label their points by the request rate
 * ("r=8"), never "c=", and their titles say so; the cost axis names the
 * definition's currency, or says none is named. Both languages. */
static void test_open_loop_charts(void **state)
{
	struct fixture f;
	char dir[512], *md, *lat, *par, *cost;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-charts.db", open_loop, 1, "hardware,request_rate");
	md = render_in(&f, OL_EUR, "en", "ol-charts", dir);
	lat = bundle_file(dir, "latency_ttft_p95.svg");
	par = bundle_file(dir, "pareto.svg");
	cost = bundle_file(dir, "cost.svg");
	/* L40S at 1 2 4 8 16 req/s, L4 at 1 2 4, T4 at 1 */
	assert_int_equal(count(lat, ">r=1<"), 3);
	assert_int_equal(count(lat, ">r=4<"), 2);
	assert_int_equal(count(lat, ">r=8<"), 1);
	assert_int_equal(count(lat, ">r=16<"), 1);
	assert_int_equal(count(lat, ">c="), 0);
	assert_int_equal(count(par, ">r=16<"), 1);
	assert_int_equal(count(par, ">c="), 0);
	assert_non_null(strstr(lat, ">TTFT p95 vs output throughput per offer (labels: request rate "
	                            "in req/s; dashed: SLO limit)<"));
	assert_non_null(strstr(par, ">Interactivity vs throughput per accelerator (labels: request "
	                            "rate in req/s; rings: Pareto front)<"));
	assert_non_null(strstr(cost, ">cost per 1M output tokens at the SLO (EUR)<"));
	assert_non_null(strstr(md, "| # | offer | cost per 1M output tokens at SLO (EUR) | "));
	free(md);
	/* nine rows: the conditions that differ between them are collapsed */
	md = bundle_file(dir, "report.html");
	assert_non_null(strstr(md, "<details><summary>Conditions that differ between rows</summary>"));
	free(md);
	free(lat);
	free(par);
	free(cost);

	md = render_in(&f, OL_EUR, "zh-CN", "ol-charts", dir);
	lat = bundle_file(dir, "latency_ttft_p95.svg");
	par = bundle_file(dir, "pareto.svg");
	cost = bundle_file(dir, "cost.svg");
	assert_int_equal(count(lat, ">r=8<"), 1);
	assert_int_equal(count(lat, ">c="), 0);
	assert_non_null(strstr(lat, ">各方案的 TTFT p95 与输出吞吐量（标注：请求速率 req/s；虚线：SLO 上限）<"));
	assert_non_null(strstr(par, ">交互性与单卡吞吐量（标注：请求速率 req/s；圆环：帕累托前沿）<"));
	assert_non_null(strstr(cost, ">满足 SLO 时每百万输出 token 的成本（EUR）<"));
	free(md);
	free(lat);
	free(par);
	free(cost);

	/* no "currency" (and no "prices"): priced by the runs, which name none */
	md = render_in(&f, OL_SPEC(""), "en", "ol-nocur", dir);
	cost = bundle_file(dir, "cost.svg");
	assert_non_null(strstr(cost, ">cost per 1M output tokens at the SLO (currency not named)<"));
	assert_non_null(strstr(md, "| # | offer | cost per 1M output tokens at SLO (currency not named) | "
	                           "flags | SLO tok/s per accelerator |"));
	free(md);
	free(cost);
	md = render_in(&f, OL_SPEC(""), "zh-CN", "ol-nocur", dir);
	cost = bundle_file(dir, "cost.svg");
	assert_non_null(strstr(cost, ">满足 SLO 时每百万输出 token 的成本（未注明货币）<"));
	assert_non_null(strstr(md, "| # | 方案 | SLO 下每百万输出 token 成本（未注明货币） | 标记 | SLO 单卡 tok/s |"));
	free(md);
	free(cost);
	unload(&f);
}

/* The workbook's first sheet is the verdict: the HTML's columns, ranks,
 * flags and notes, the currency in the cost header, and the sweep points
 * under it by request rate (not concurrency). */
static void test_workbook_verdict(void **state)
{
	struct fixture f;
	char dir[512], *md, *wbx, *sheet, *sst;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-xlsx.db", open_loop, 1, "hardware,request_rate");
	md = render_in(&f, OL_EUR, "en", "ol-xlsx", dir);
	wbx = xlsx_member(dir, "xl/workbook.xml");
	sheet = xlsx_member(dir, "xl/worksheets/sheet1.xml");
	sst = xlsx_member(dir, "xl/sharedStrings.xml");
	assert_non_null(strstr(wbx, "<sheets><sheet name=\"Procurement\""));
	assert_cell(sheet, sst, "A1", "rank");
	assert_cell(sheet, sst, "B1", "offer");
	assert_cell(sheet, sst, "C1", "cost per 1M output tokens at SLO (EUR, derived)");
	assert_cell(sheet, sst, "D1", "SLO tok/s per accelerator (derived)");
	assert_cell(sheet, sst, "E1", "SLO tok/s (derived)");
	assert_cell(sheet, sst, "F1", "peak tok/s");
	assert_cell(sheet, sst, "G1", "n");
	assert_cell(sheet, sst, "H1", "flags");
	assert_cell(sheet, sst, "I1", "notes");
	assert_cell(sheet, sst, "K1", "price per hour (EUR)");
	/* ranked by cost as in report.md: L40S 0.6710, L4 0.7407, T4 1.944 */
	assert_cell(sheet, sst, "A2", "1");
	assert_cell(sheet, sst, "B2", "1x NVIDIA L40S");
	assert_cell(sheet, sst, "D2", "828");
	assert_cell(sheet, sst, "G2", "5");
	assert_cell(sheet, sst, "H2", "interpolated");
	assert_cell(sheet, sst, "I2", "interpolated between request rate 8 and 16 req/s (at 9.600); "
	                              "price EUR 2/h from the definition replaces EUR 2.5/h stored "
	                              "with the runs");
	assert_cell(sheet, sst, "K2", "2");
	assert_cell(sheet, sst, "B3", "1x NVIDIA L4");
	assert_cell(sheet, sst, "H3", "lower bound; cost at most");
	assert_cell(sheet, sst, "I3", "measured at request rate 4 req/s; lower bound: the highest "
	                              "request rate measured (4) still meets the SLO; cost at most "
	                              "0.7407 EUR per 1M output tokens: it rests on a lower-bound "
	                              "throughput (more load may still meet the SLO, at a lower cost)");
	assert_cell(sheet, sst, "A4", "3");
	assert_cell(sheet, sst, "B4", "1x NVIDIA T4");
	assert_cell(sheet, sst, "G4", "1");
	assert_cell(sheet, sst, "H4", "lower bound; cost at most; single point");
	/* the same texts as the verdict table of report.md */
	assert_non_null(strstr(md, "| 3 | 1x NVIDIA T4 | **≤ 1.944** | lower bound; cost at most; single point | "
	                           "≥ 50.00 | ≥ 50.00 | 50.00 | 1 |"));
	/* the points: 3 offers, a blank row, the formulas, then the header */
	assert_cell(sheet, sst, "A7", "rank");
	assert_cell(sheet, sst, "B7", "offer");
	assert_cell(sheet, sst, "C7", "request rate (req/s)");
	assert_cell(sheet, sst, "G7", "cost per 1M output tokens (EUR, derived)");
	/* the first point: L4 (ranked 2nd) at 1 req/s, 100 tok/s */
	assert_cell(sheet, sst, "A8", "2");
	assert_cell(sheet, sst, "B8", "1x NVIDIA L4");
	assert_cell(sheet, sst, "C8", "1");
	assert_cell(sheet, sst, "D8", "100");
	assert_null(strstr(sst, "concurrency<"));
	free(md);
	free(wbx);
	free(sheet);
	free(sst);

	md = render_in(&f, OL_SPEC(""), "zh-CN", "ol-xlsx", dir);
	sheet = xlsx_member(dir, "xl/worksheets/sheet1.xml");
	sst = xlsx_member(dir, "xl/sharedStrings.xml");
	assert_cell(sheet, sst, "C1", "SLO 下每百万输出 token 成本（未注明货币，推导值）");
	assert_cell(sheet, sst, "H1", "标记");
	/* no price table: the runs' 2.5/h for L40S puts L4 first (0.7407 <
	 * 0.8387) */
	assert_cell(sheet, sst, "B2", "1x NVIDIA L4");
	assert_cell(sheet, sst, "B3", "1x NVIDIA L40S");
	assert_cell(sheet, sst, "H4", "下限; 成本最多; 单点");
	assert_cell(sheet, sst, "C7", "请求速率（req/s）");
	assert_cell(sheet, sst, "G7", "每百万输出 token 成本（未注明货币，推导值）");
	assert_cell(sheet, sst, "A8", "1"); /* L4 ranks first here */
	free(md);
	free(sheet);
	free(sst);
	unload(&f);
}

/* Without a verdict (no SLO, no prices: a regression watch) the comparison
 * is the answer and opens report.html; with one it is a collapsed detail. */
static void test_comparison_first_without_verdict(void **state)
{
	static const char watch[] = "{\"name\": \"w\", \"axis\": \"hardware,request_rate\", "
	                            "\"charts\": []}";
	struct fixture f;
	char dir[512], *md, *html;
	const char *cmp, *cond;

	(void)state;
	load(&f, PL_TEST_TMP "/verdict-watch.db", open_loop, 1, "hardware,request_rate");
	md = render_in(&f, watch, "en", "watch", dir);
	html = bundle_file(dir, "report.html");
	assert_null(strstr(html, "id=\"verdict-table\""));
	cmp = strstr(html, "<h2>Comparison: medians of the runs</h2>");
	cond = strstr(html, "<h2>Conditions</h2>");
	assert_non_null(cmp);
	assert_non_null(cond);
	assert_true(cmp < cond);
	assert_null(strstr(html, "<summary>Comparison: medians of the runs</summary>"));
	free(md);
	free(html);
	md = render_in(&f, watch, "zh-CN", "watch", dir);
	html = bundle_file(dir, "report.html");
	cmp = strstr(html, "<h2>比较：各运行的中位数</h2>");
	cond = strstr(html, "<h2>条件</h2>");
	assert_non_null(cmp);
	assert_non_null(cond);
	assert_true(cmp < cond);
	free(md);
	free(html);

	md = render_in(&f, OL_EUR, "en", "watch-verdict", dir);
	html = bundle_file(dir, "report.html");
	assert_null(strstr(html, "<h2>Comparison: medians of the runs</h2>"));
	cmp = strstr(html, "<details><summary>Comparison: medians of the runs</summary>");
	assert_non_null(cmp);
	assert_true(strstr(html, "id=\"verdict-table\"") < cmp);
	free(md);
	free(html);
	unload(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_loop),
		cmocka_unit_test(test_price_keys),
		cmocka_unit_test(test_price_key_unpriced_row),
		cmocka_unit_test(test_verdict_first),
		cmocka_unit_test(test_caveats_collapsed),
		cmocka_unit_test(test_open_loop_charts),
		cmocka_unit_test(test_workbook_verdict),
		cmocka_unit_test(test_comparison_first_without_verdict),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_compare.c — refusal field by field, travelling fields, rows of
 * medians, deltas, caveats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "refusal_text.h"
#include "core/compare.h"
#include "core/normalize.h"
#include "core/stats.h"
#include "caveat_text.h"

static struct pl_run *add(struct pl_run_list *l, long long id, const char *hw, const char *drv,
                          const char *prec, const char *conc, double ttft, double thr)
{
	struct pl_run *r = pl_run_list_push(l);
	assert_non_null(r);
	r->id = id;
	pl_run_set_cond(r, PL_C_MODEL, "gemma-4-31b", NULL);
	pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, "0.6.3", NULL);
	pl_run_set_cond(r, PL_C_HARDWARE, hw, NULL);
	pl_run_set_cond(r, PL_C_DRIVER_VERSION, drv, NULL);
	pl_run_set_cond(r, PL_C_PRECISION, prec, NULL);
	pl_run_set_cond(r, PL_C_CONCURRENCY, conc, NULL);
	assert_int_equal(pl_normalize_run(r, NULL), 0);
	pl_run_set_metric(r, PL_M_TTFT_P50, ttft);
	pl_run_set_metric(r, PL_M_OUTPUT_THROUGHPUT, thr);
	pl_run_update_checklist(r);
	return r;
}

static void axis_parsing(void **state)
{
	struct pl_compare_opts o;
	struct pl_error e;
	(void)state;
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware,engine", &e), 0);
	assert_int_equal(o.naxis, 2);
	assert_int_equal(o.axis[0], PL_C_HARDWARE);
	assert_int_equal(o.axis[1], PL_C_ENGINE);
	assert_int_equal(pl_compare_parse_axis(&o, "hardwares", &e), PL_EUSAGE);
	assert_string_equal(e.message,
	                    "unknown condition 'hardwares' in --axis; did you mean 'hardware'? (see "
	                    "'perfledger list --help')");
	assert_int_equal(pl_compare_parse_axis(&o, "model,model", &e), PL_EUSAGE);
	assert_int_equal(pl_compare_parse_axis(&o, "", &e), PL_EUSAGE);
}

static void rows_medians_and_deltas(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	char label[128];
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	/* H100 first by id, but rows sort by axis value: "1x..." < "2x..." */
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bf16", "8", 0.40, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.20, 300);
	add(&l, 3, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.30, 140);
	add(&l, 4, "2x NVIDIA A100 80G", "550.54", "BF16", "8", 0.35, 120);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.nruns, 4);
	assert_string_equal(pl_compare_row_label(&c, 0, label, sizeof(label)), "1x NVIDIA H100 80G");
	assert_string_equal(pl_compare_row_label(&c, 1, label, sizeof(label)), "2x NVIDIA A100 80G");
	assert_int_equal(c.rows[1].n, 3);
	assert_int_equal(c.rows[1].run_ids[0], 1);
	assert_int_equal(c.rows[1].run_ids[2], 4);
	assert_true(c.rows[1].metric[PL_M_TTFT_P50] == 0.35);
	assert_true(c.rows[1].metric[PL_M_OUTPUT_THROUGHPUT] == 120);
	assert_int_equal(c.rows[1].n_metric[PL_M_TTFT_P50], 3);
	/* the spread of the A100 row: ttft 0.40, 0.30, 0.35; throughput 100, 140, 120 */
	assert_true(c.rows[1].min[PL_M_TTFT_P50] == 0.30);
	assert_true(c.rows[1].max[PL_M_TTFT_P50] == 0.40);
	assert_true(c.rows[1].min[PL_M_OUTPUT_THROUGHPUT] == 100);
	assert_true(c.rows[1].max[PL_M_OUTPUT_THROUGHPUT] == 140);
	assert_true(c.rows[0].min[PL_M_TTFT_P50] == 0.20); /* one run: min = max = it */
	assert_true(c.rows[0].max[PL_M_TTFT_P50] == 0.20);
	assert_int_equal(c.nshared_extra, 0);
	assert_int_equal(c.rows[0].has_delta[PL_M_TTFT_P50], 1);
	assert_true(c.rows[0].delta_pct[PL_M_TTFT_P50] == 0);
	assert_true(fabs(c.rows[1].delta_pct[PL_M_TTFT_P50] - 75.0) < 1e-9);
	assert_true(fabs(c.rows[1].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (-60.0)) < 1e-9);
	/* driver travels with hardware: it varies and is on the row */
	assert_int_equal(c.varies[PL_C_DRIVER_VERSION], 1);
	assert_string_equal(c.rows[0].axis[PL_C_DRIVER_VERSION].text, "550.90");
	/* bf16 / BF16 / bfloat16 are one precision: shared */
	assert_string_equal(c.shared[PL_C_PRECISION].text, "bfloat16");
	assert_false(c.shared[PL_C_HARDWARE].set);
	/* every run lacks checklist items -> a caveat per row */
	assert_int_equal(c.caveats.n, 2);
	assert_string_equal(cav_en(&c, 0),
	                    "1x NVIDIA H100 80G: 1 of 1 run is reference-only (missing: weights "
	                    "source, engine launch parameters, driver and CUDA versions, "
	                    "input/output lengths, warm-up, TPOT, p95 latency)");
	size_t nd;
	pl_compare_default_metrics(&nd);
	assert_int_equal(c.nmetrics, nd);
	pl_comparison_release(&c);
	pl_comparison_release(NULL);
	pl_run_list_release(&l);
}

static void refusal_lists_every_field(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "fp8", "16", 0.2, 300);
	struct pl_run *r = add(&l, 3, "1x NVIDIA H100 80G", "550.90", "fp8", "16", 0.2, 300);
	pl_run_set_cond(r, PL_C_DATASET, "sharegpt", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 3);
	assert_int_equal(c.mismatches[0].cond, PL_C_PRECISION);
	assert_string_equal(c.mismatches[0].values[0], "bfloat16");
	assert_string_equal(c.mismatches[0].values[1], "fp8");
	assert_int_equal(c.mismatches[1].cond, PL_C_CONCURRENCY);
	assert_string_equal(c.mismatches[1].values[0], "8");
	assert_string_equal(c.mismatches[1].values[1], "16");
	/* missing is not equal to known, and is listed as such */
	assert_int_equal(c.mismatches[2].cond, PL_C_DATASET);
	assert_string_equal(c.mismatches[2].values[0], "sharegpt");
	assert_string_equal(c.mismatches[2].values[1], "(missing)");
	assert_string_equal(refusal_en(&e, &c),
	                    "comparison refused: 3 conditions differ off the axis 'hardware': precision: "
	                    "'bfloat16' (run 1) vs 'fp8' (runs 2, 3); concurrency: '8' (run 1) vs '16' (runs "
	                    "2, 3); dataset: 'sharegpt' (run 3) vs '(missing)' (runs 1, 2)");
	pl_comparison_release(&c);

	/* allowing the fields turns the refusal into caveats */
	o.allow_mismatch[PL_C_PRECISION] = 1;
	o.allow_mismatch[PL_C_CONCURRENCY] = 1;
	o.allow_mismatch[PL_C_DATASET] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_string_equal(cav_en(&c, 0),
	                    "conditions differ in precision: bfloat16 vs fp8 (allowed by "
	                    "--allow-mismatch)");
	pl_comparison_release(&c);

	/* engine_version does not travel with hardware: refused */
	memset(&o, 0, sizeof(o));
	pl_run_list_release(&l);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	r = add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.2, 300);
	pl_run_set_cond(r, PL_C_ENGINE_VERSION, "0.10.1", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_ENGINE_VERSION);
	assert_string_equal(c.mismatches[0].values[0], "0.6.3");
	assert_string_equal(c.mismatches[0].values[1], "0.10.1");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Extra conditions ("FORMAT.key"): those every run shares with one value
 * are listed in shared_extra (name order); one that differs, or that some
 * runs lack, is refused by name, or a caveat when allowed. */
static void extras_shared_refused_allowed(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	struct pl_run *r;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.2, 300);
	add(&l, 3, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.3, 200);
	r = l.v; /* stable now that every run is pushed */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(pl_run_set_extra(&r[i], "vllm-serving.label", "nightly", &e), 0);
		assert_int_equal(pl_run_set_extra(&r[i], "descriptor.x_pool", "a", &e), 0);
	}
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nshared_extra, 2);
	assert_string_equal(c.shared_extra[0].name, "descriptor.x_pool");
	assert_string_equal(c.shared_extra[0].value, "a");
	assert_string_equal(c.shared_extra[1].name, "vllm-serving.label");
	assert_string_equal(c.shared_extra[1].value, "nightly");
	assert_int_equal(c.nmismatches, 0);
	/* the H100 row pools runs 2 and 3: 0.2 and 0.3 */
	assert_true(c.rows[0].min[PL_M_TTFT_P50] == 0.2);
	assert_true(c.rows[0].max[PL_M_TTFT_P50] == 0.3);
	pl_comparison_release(&c);

	/* run 3 in another pool, run 2 without one: refused, naming the extra */
	assert_int_equal(pl_run_set_extra(&r[2], "descriptor.x_pool", "b", &e), 0);
	assert_int_equal(pl_run_set_extra(&r[1], "descriptor.x_pool", NULL, &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_NONE);
	assert_string_equal(c.mismatches[0].extra, "descriptor.x_pool");
	assert_null(c.mismatches[0].within);
	assert_int_equal(c.mismatches[0].nvalues, 3);
	assert_string_equal(c.mismatches[0].values[0], "a");
	assert_string_equal(c.mismatches[0].values[1], "b");
	assert_string_equal(c.mismatches[0].values[2], "(missing)");
	assert_string_equal(refusal_en(&e, &c), "comparison refused: 1 condition differs off the axis 'hardware': "
	                    "descriptor.x_pool: 'a' (run 1) vs 'b' (run 3) vs '(missing)' (run 2)");
	assert_int_equal(c.nshared_extra, 1); /* the label is still shared */
	pl_comparison_release(&c);

	/* allowed by name: a caveat, and the extra is not shared */
	o.allow_extra[0] = "descriptor.x_pool";
	o.nallow_extra = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.caveats.n, 3); /* + one reference-only caveat per row (2) */
	assert_string_equal(cav_en(&c, 0), "conditions differ in descriptor.x_pool: a vs b vs "
	                                  "(missing) (allowed by --allow-mismatch)");
	assert_int_equal(c.nshared_extra, 1);
	assert_string_equal(c.shared_extra[0].name, "vllm-serving.label");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

static void engine_axis_orders_versions_naturally(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	const char *versions[] = {"0.10.1", "0.6.3", "0.8.5"};
	for (int i = 0; i < 3; i++) {
		struct pl_run *r = add(&l, i + 1, "1x NVIDIA H100 80G", "550.90", "bf16", "8", 0.1 * (i + 1), 100);
		pl_run_set_cond(r, PL_C_ENGINE_VERSION, versions[i], NULL);
	}
	assert_int_equal(pl_compare_parse_axis(&o, "engine_version", &e), 0);
	o.metrics[0] = PL_M_TTFT_P50;
	o.nmetrics = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 3);
	assert_string_equal(c.rows[0].axis[PL_C_ENGINE_VERSION].text, "0.6.3");
	assert_string_equal(c.rows[1].axis[PL_C_ENGINE_VERSION].text, "0.8.5");
	assert_string_equal(c.rows[2].axis[PL_C_ENGINE_VERSION].text, "0.10.1");
	assert_int_equal(c.nmetrics, 1);
	pl_comparison_release(&c);
	pl_run_list_release(&l);

	/* empty selection */
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EEMPTY);
	pl_comparison_release(&c);
}

/* With two axis fields, deltas are against the first hardware at the same
 * concurrency: equal load, not the first row's lowest concurrency. */
static void deltas_at_equal_tail(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550", "bfloat16", "1", 0.10, 100);
	add(&l, 2, "2x NVIDIA A100 80G", "550", "bfloat16", "16", 0.20, 1000);
	add(&l, 3, "1x NVIDIA H100 80G", "550", "bfloat16", "1", 0.05, 150);
	add(&l, 4, "1x NVIDIA H100 80G", "550", "bfloat16", "16", 0.10, 2000);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware,concurrency", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 4);
	/* rows: H100@1, H100@16, A100@1, A100@16 (hardware text order) */
	assert_string_equal(c.rows[0].axis[PL_C_HARDWARE].text, "1x NVIDIA H100 80G");
	assert_int_equal(c.rows[0].base, 0);
	assert_int_equal(c.rows[1].base, 1); /* first at concurrency 16 */
	assert_int_equal(c.rows[2].base, 0);
	assert_int_equal(c.rows[3].base, 1);
	assert_true(fabs(c.rows[2].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (100.0 / 150 - 1) * 100) < 1e-9);
	assert_true(fabs(c.rows[3].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (1000.0 / 2000 - 1) * 100) < 1e-9);
	/* rows that are their own baseline have no delta, not a 0% change */
	assert_false(c.rows[0].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	assert_false(c.rows[1].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	assert_true(c.rows[3].has_delta[PL_M_OUTPUT_THROUGHPUT]);
	pl_comparison_release(&c);
	/* one axis field: every row against the first */
	assert_int_equal(pl_compare_parse_axis(&o, "concurrency", &e), 0);
	o.allow_mismatch[PL_C_HARDWARE] = o.allow_mismatch[PL_C_ACCELERATOR_COUNT] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.rows[1].base, 0);
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Versions that order equal but are written differently are listed in the
 * order the runs bring them, not by their text. */
static void equal_versions_in_run_order(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	pl_run_set_cond(add(&l, 1, "1x NVIDIA H100 80G", "550", "bfloat16", "8", 0.1, 100),
	                PL_C_ENGINE_VERSION, "1.00", NULL);
	pl_run_set_cond(add(&l, 2, "2x NVIDIA A100 80G", "550", "bfloat16", "8", 0.1, 100),
	                PL_C_ENGINE_VERSION, "1.0", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_ENGINE_VERSION);
	assert_string_equal(c.mismatches[0].values[0], "1.00");
	assert_string_equal(c.mismatches[0].values[1], "1.0");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}


/* The first caveat of c that starts with prefix, or NULL. */
static const char *find_caveat(const struct pl_comparison *c, const char *prefix)
{
	for (size_t i = 0; i < c->caveats.n; i++)
		if (strncmp(cav_en(c, i), prefix, strlen(prefix)) == 0)
			return cav_en(c, i);
	return NULL;
}

/* compare --slo's pooling (pl_compare_grade_slo): the A100 row of runs
 * 1, 3, 4 and the H100 row of run 2. Run 1: attainment 0.5, goodput 1.5
 * req/s, 4 tok/s; run 3: 0.8, 2, 6; run 4: no stored requests; run 2:
 * attainment 0.9 with no duration (goodput NaN). A100: medians of runs 1
 * and 3, 0.65 (0.5-0.8), 1.75, 5, n 2. H100 (row 0, the baseline):
 * attainment 0.9, goodput n/a; so A100's attainment delta is 100 (0.65 /
 * 0.9 - 1) = -27.78 %, and its goodputs have none. Caveats name run 4
 * (no requests) and run 2 (no duration). */
static void slo_rows_pool_run_grades(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	struct pl_rq_slo slo = {0.2, 0.05, NAN, NAN};
	struct pl_run_grade g[] = {
		{4, 0, {0, 0, 0, 0}},
		{3, 1, {8, 0.8, 2.0, 6.0}},
		{2, 1, {9, 0.9, NAN, NAN}},
		{1, 1, {3, 0.5, 1.5, 4.0}},
	};
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bf16", "8", 0.40, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.20, 300);
	add(&l, 3, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.30, 140);
	add(&l, 4, "2x NVIDIA A100 80G", "550.54", "BF16", "8", 0.35, 120);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(pl_compare_grade_slo(&c, &slo, g, 4, &e), 0);
	assert_int_equal(c.has_slo, 1);
	assert_true(c.slo.ttft == 0.2 && isnan(c.slo.e2el));
	const struct pl_row_slo *h = &c.rows[0].slo, *a = &c.rows[1].slo;
	assert_int_equal(a->n[PL_SLO_ATTAINMENT], 2);
	assert_true(a->value[PL_SLO_ATTAINMENT] == 0.65);
	assert_true(a->min[PL_SLO_ATTAINMENT] == 0.5 && a->max[PL_SLO_ATTAINMENT] == 0.8);
	assert_true(a->value[PL_SLO_GOODPUT] == 1.75);
	assert_true(a->value[PL_SLO_GOODPUT_TOKENS] == 5);
	assert_int_equal(h->n[PL_SLO_ATTAINMENT], 1);
	assert_true(h->value[PL_SLO_ATTAINMENT] == 0.9);
	assert_int_equal(h->n[PL_SLO_GOODPUT], 0);
	assert_true(isnan(h->value[PL_SLO_GOODPUT]));
	assert_int_equal(h->has_delta[PL_SLO_ATTAINMENT], 1);
	assert_true(h->delta_pct[PL_SLO_ATTAINMENT] == 0);
	assert_int_equal(a->has_delta[PL_SLO_ATTAINMENT], 1);
	assert_true(fabs(a->delta_pct[PL_SLO_ATTAINMENT] - 100.0 * (0.65 / 0.9 - 1)) < 1e-12);
	assert_int_equal(a->has_delta[PL_SLO_GOODPUT], 0); /* baseline n/a */
	assert_string_equal(find_caveat(&c, "slo_attainment and goodput are n/a"),
	                    "slo_attainment and goodput are n/a for run 4: no stored requests (the "
	                    "file gave summary statistics only); a row pools its other runs, n/a "
	                    "where none has requests");
	assert_string_equal(find_caveat(&c, "goodput is n/a for"),
	                    "goodput is n/a for run 2: the file records no duration (slo_attainment "
	                    "is counted)");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* A value valid for condition id's type, distinct per k (0 or 1). */
static const char *cond_value(int id, int k)
{
	switch (pl_cond_info[id].type) {
	case PL_CT_BOOL: return k ? "true" : "false";
	case PL_CT_INT: return k ? "8" : "4";
	case PL_CT_REAL: return k ? "2.5" : "1.5";
	case PL_CT_VERSION: return k ? "0.10.1" : "0.6.3";
	case PL_CT_TIME: return k ? "2026-01-02T00:00:00Z" : "2026-01-01T00:00:00Z";
	case PL_CT_TEXT: break;
	}
	return k ? "value-b" : "value-a";
}

/* Row integrity, for every condition column: two runs that differ only in
 * it never pool into one row. Off the axis they are refused naming the
 * field; travelling with the axis field they are refused as differing
 * within the row; allowed by name, they pool with a caveat naming it. The
 * per-run time (run_started_at) is the one field that pools. */
static void no_condition_pools_silently(void **state)
{
	(void)state;
	for (int id = 0; id < PL_COND_COUNT; id++) {
		int axis = id == PL_C_MODEL ? PL_C_PRECISION : PL_C_MODEL;
		struct pl_run_list l;
		struct pl_compare_opts o;
		struct pl_comparison c;
		struct pl_error e;

		pl_run_list_init(&l);
		memset(&o, 0, sizeof(o));
		pl_error_init(&e);
		for (int k = 0; k < 2; k++) {
			struct pl_run *r = add(&l, k + 1, "1x NVIDIA H100 80G", "550.90", "bf16", "8", 0.2, 100);
			assert_int_equal(pl_run_set_cond(r, id, cond_value(id, k), NULL), 0);
			/* for a field that travels with hardware, hardware is the axis
			 * and both runs share one hardware value: one row */
		}
		if (pl_cond_info[id].travels_with == PL_C_HARDWARE ||
		    pl_cond_info[id].travels_with2 == PL_C_HARDWARE)
			axis = PL_C_HARDWARE;
		else if (pl_cond_info[id].travels_with == PL_C_ENGINE)
			axis = PL_C_ENGINE;
		else if (pl_cond_info[id].travels_with == PL_C_BENCHMARK_TOOL)
			axis = PL_C_BENCHMARK_TOOL;
		if (id == axis)
			axis = PL_C_MODEL;
		o.axis[0] = axis;
		o.naxis = 1;
		if (id == PL_C_RUN_STARTED_AT) {
			assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
			assert_int_equal(c.nrows, 1);
			assert_int_equal(c.rows[0].n, 2);
			pl_comparison_release(&c);
			pl_run_list_release(&l);
			continue;
		}
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
		assert_int_equal(c.nmismatches, 1);
		assert_int_equal(c.mismatches[0].cond, id);
		assert_int_equal(c.mismatches[0].nvalues, 2);
		assert_non_null(strstr(refusal_en(&e, &c), pl_cond_info[id].name));
		pl_comparison_release(&c);
		o.allow_mismatch[id] = 1;
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
		assert_int_equal(c.nrows, 1);
		assert_non_null(find_caveat(&c, "conditions differ in "));
		assert_non_null(strstr(find_caveat(&c, "conditions differ in "), pl_cond_info[id].name));
		pl_comparison_release(&c);
		pl_run_list_release(&l);
	}
}

/* A travelling field may differ between rows (tensor parallel 4 on one
 * accelerator, 8 on another) but not inside one: then the refusal names
 * the row. Spread: a row keeps each metric's min and max. */
static void travellers_one_value_per_row(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	pl_run_set_cond(add(&l, 1, "8x NVIDIA B200", "570.1", "fp4", "16", 0.66, 500),
	                PL_C_TENSOR_PARALLEL_SIZE, "8", NULL);
	pl_run_set_cond(add(&l, 2, "8x NVIDIA H200", "570.1", "fp4", "16", 0.90, 400),
	                PL_C_TENSOR_PARALLEL_SIZE, "4", NULL);
	pl_run_set_cond(add(&l, 3, "8x NVIDIA H200", "570.1", "fp4", "16", 0.80, 420),
	                PL_C_TENSOR_PARALLEL_SIZE, "4", NULL);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_string_equal(c.rows[0].axis[PL_C_TENSOR_PARALLEL_SIZE].text, "8");
	assert_string_equal(c.rows[1].axis[PL_C_TENSOR_PARALLEL_SIZE].text, "4");
	assert_true(c.rows[1].min[PL_M_TTFT_P50] == 0.80);
	assert_true(c.rows[1].max[PL_M_TTFT_P50] == 0.90);
	assert_true(c.rows[1].metric[PL_M_TTFT_P50] == 0.85);
	pl_comparison_release(&c);

	/* B200 at tensor parallel 4 too: one B200 row would pool 4 and 8 */
	pl_run_set_cond(add(&l, 4, "8x NVIDIA B200", "570.1", "fp4", "16", 81.0, 20),
	                PL_C_TENSOR_PARALLEL_SIZE, "4", NULL);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_TENSOR_PARALLEL_SIZE);
	assert_string_equal(c.mismatches[0].within, "hardware 8x NVIDIA B200");
	assert_string_equal(c.mismatches[0].values[0], "4");
	assert_string_equal(c.mismatches[0].values[1], "8");
	assert_string_equal(refusal_en(&e, &c),
	                    "comparison refused: 1 condition differs off the axis 'hardware': "
	                    "tensor_parallel_size (within hardware 8x NVIDIA B200): '4' (run 4) vs '8' "
	                    "(run 1)"); /* runs 2 and 3 are in the H200 row */
	pl_comparison_release(&c);
	o.allow_mismatch[PL_C_TENSOR_PARALLEL_SIZE] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 2);
	assert_int_equal(c.rows[0].n, 2);
	assert_string_equal(find_caveat(&c, "conditions differ in "), "conditions differ in tensor_parallel_size (within hardware "
	                                  "8x NVIDIA B200): 4 vs 8 (allowed by --allow-mismatch)");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Extra conditions (FORMAT.key) compare like any condition: missing is
 * not equal to known, and an allowed extra becomes a caveat. */
static void extras_are_conditions(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	struct pl_run *r;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	r = add(&l, 1, "1x NVIDIA H100 80G", "550.90", "bf16", "8", 0.2, 100);
	assert_int_equal(pl_run_set_extra(r, "vllm-serving.label", "nightly", &e), 0);
	assert_int_equal(pl_run_set_extra(r, "vllm-serving.a", "1", &e), 0);
	r = add(&l, 2, "2x NVIDIA A100 80G", "550.54", "bf16", "8", 0.3, 90);
	assert_int_equal(pl_run_set_extra(r, "vllm-serving.label", "patched", &e), 0);
	assert_int_equal(pl_run_set_extra(r, "vllm-serving.a", "1", &e), 0);
	r = add(&l, 3, "2x NVIDIA A100 80G", "550.54", "bf16", "8", 0.3, 90);
	assert_int_equal(pl_run_set_extra(r, "vllm-serving.a", "1", &e), 0);
	assert_int_equal(pl_run_set_extra(r, "bad", "1", &e), PL_EINVALID);
	assert_string_equal(pl_run_extra(r, "vllm-serving.a"), "1");
	assert_null(pl_run_extra(r, "vllm-serving.label"));
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_NONE);
	assert_string_equal(c.mismatches[0].extra, "vllm-serving.label");
	assert_int_equal(c.mismatches[0].nvalues, 3);
	assert_string_equal(c.mismatches[0].values[0], "nightly");
	assert_string_equal(c.mismatches[0].values[1], "patched");
	assert_string_equal(c.mismatches[0].values[2], "(missing)");
	pl_comparison_release(&c);
	o.allow_extra[0] = "vllm-serving.label";
	o.nallow_extra = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_string_equal(find_caveat(&c, "conditions differ in "), "conditions differ in vllm-serving.label: nightly vs patched "
	                                  "vs (missing) (allowed by --allow-mismatch)");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

static void median_even_and_odd(void **state)
{
	double a[] = {3, 1, 2};
	double b[] = {4, 1, 3, 2};
	(void)state;
	assert_true(pl_median(a, 3) == 2);
	assert_true(pl_median(b, 4) == 2.5);
	double c[] = {0.09, 0.08};
	assert_true((0.08 + 0.09) / 2 != 0.085);
	assert_true(pl_median(c, 2) == 0.085);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The selection in pl_median against a sort, on sizes 1..300 of random
 * values, few distinct values (many ties), sorted and reversed input. */
static void median_is_the_sorted_middle(void **state)
{
	static double v[300], sorted[300];
	unsigned seed = 12345;
	(void)state;
	for (int shape = 0; shape < 4; shape++)
		for (size_t n = 1; n <= 300; n++) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				v[i] = shape == 0 ? (double)(seed >> 8) / 1e3 /* random */
				     : shape == 1 ? (double)((seed >> 16) % 3) /* ties */
				     : shape == 2 ? (double)i                   /* sorted */
				                  : (double)(n - i);            /* reversed */
			}
			memcpy(sorted, v, n * sizeof(double));
			qsort(sorted, n, sizeof(double), cmp_double);
			double want = n % 2 ? sorted[n / 2]
			                    : pl_round_sig((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0, 15);
			double got = pl_median(v, n);
			if (got != want)
				fail_msg("shape %d n %zu: median %.17g, sorted middle %.17g", shape, n, got, want);
		}
}

/* The 10% workload rule at its edges, by hand: 10% of 256 requested output
 * tokens is 25.6. 230.5 (25.5 below, 9.96%) and 281.5 (25.5 above) pass;
 * 230 (26 below, 10.16%) and 281.7 (25.7 above, 10.04%) refuse, naming
 * max_output_tokens with both values. */
static void workload_rule_boundaries(void **state)
{
	static const struct {
		double mean;     /* measured output tokens per request of run 2 */
		int refused;     /* expected outcome */
		const char *msg; /* expected refusal message, or NULL */
	} cases[] = {
		{256, 0, NULL},
		{230.5, 0, NULL},
		{281.5, 0, NULL},
		{230, 1,
		 "comparison refused: 1 condition differs off the axis 'hardware': "
		 "max_output_tokens: '256 requested' vs '230 measured mean (run 2)'"},
		{281.7, 1,
		 "comparison refused: 1 condition differs off the axis 'hardware': "
		 "max_output_tokens: '256 requested' vs '281.7 measured mean (run 2)'"},
	};
	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pl_run_list l;
		struct pl_compare_opts o;
		struct pl_comparison c;
		struct pl_error e;
		struct pl_run *r;

		pl_run_list_init(&l);
		memset(&o, 0, sizeof(o));
		pl_error_init(&e);
		r = add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
		pl_run_set_cond(r, PL_C_MAX_OUTPUT_TOKENS, "256", NULL);
		pl_run_set_metric(r, PL_M_OUTPUT_TOKENS_MEAN, 256);
		r = add(&l, 2, "1x NVIDIA H100 80G", "550.54", "bfloat16", "8", 0.2, 300);
		pl_run_set_cond(r, PL_C_MAX_OUTPUT_TOKENS, "256", NULL);
		pl_run_set_metric(r, PL_M_OUTPUT_TOKENS_MEAN, cases[k].mean);
		assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
		if (!cases[k].refused) {
			if (pl_compare_build(&l, &o, &c, &e) != 0)
				fail_msg("mean %g: refused: %s", cases[k].mean, e.message);
			pl_comparison_release(&c);
			pl_run_list_release(&l);
			continue;
		}
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
		assert_int_equal(c.nmismatches, 1);
		assert_int_equal(c.mismatches[0].cond, PL_C_MAX_OUTPUT_TOKENS);
		assert_string_equal(c.mismatches[0].values[0], "256");
		assert_string_equal(refusal_en(&e, &c), cases[k].msg);
		pl_comparison_release(&c);
		pl_run_list_release(&l);
	}
}

/* The rate shortfall rule at its edges, by hand: 10% of a requested
 * request_rate of 222.83 req/s (inference-perf's stage 6) is 22.283, so the
 * floor is 200.547 req/s. 200.6 (22.23 below, 9.976%) and 260 (above: no
 * shortfall) pass; 200.5 (22.33 below, 10.02%) and the stage's own 113.66
 * refuse naming request_rate with both values; --allow-mismatch
 * request_rate turns the refusal into a caveat; request_rate inf (all at
 * once) is never short. */
static void rate_shortfall_boundaries(void **state)
{
	static const struct {
		const char *rate; /* requested request_rate of run 2 */
		double got;       /* its request_throughput */
		const char *msg;  /* expected refusal message, or NULL */
	} cases[] = {
		{"222.83", 222.83, NULL},
		{"222.83", 200.6, NULL},
		{"222.83", 260, NULL},
		{"inf", 3, NULL},
		{"222.83", 200.5,
		 "comparison refused: 1 condition differs off the axis 'hardware': "
		 "request_rate: '222.83 requested' vs '200.5 req/s achieved (run 2)'"},
		{"222.83", 113.66007597058318,
		 "comparison refused: 1 condition differs off the axis 'hardware': "
		 "request_rate: '222.83 requested' vs '113.66 req/s achieved (run 2)'"},
	};
	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pl_run_list l;
		struct pl_compare_opts o;
		struct pl_comparison c;
		struct pl_error e;
		struct pl_run *r;

		pl_run_list_init(&l);
		memset(&o, 0, sizeof(o));
		pl_error_init(&e);
		r = add(&l, 1, "2x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.4, 100);
		pl_run_set_cond(r, PL_C_REQUEST_RATE, cases[k].rate, NULL);
		pl_run_set_metric(r, PL_M_REQUEST_THROUGHPUT, cases[k].rate[0] == 'i' ? 3 : 222.83);
		r = add(&l, 2, "1x NVIDIA H100 80G", "550.54", "bfloat16", "8", 0.2, 300);
		pl_run_set_cond(r, PL_C_REQUEST_RATE, cases[k].rate, NULL);
		pl_run_set_metric(r, PL_M_REQUEST_THROUGHPUT, cases[k].got);
		assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
		if (!cases[k].msg) {
			if (pl_compare_build(&l, &o, &c, &e) != 0)
				fail_msg("rate %s got %g: refused: %s", cases[k].rate, cases[k].got, e.message);
			pl_comparison_release(&c);
			pl_run_list_release(&l);
			continue;
		}
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
		assert_int_equal(c.nmismatches, 1);
		assert_int_equal(c.mismatches[0].cond, PL_C_REQUEST_RATE);
		assert_string_equal(c.mismatches[0].values[0], "222.83");
		assert_string_equal(refusal_en(&e, &c), cases[k].msg);
		pl_comparison_release(&c);
		o.allow_mismatch[PL_C_REQUEST_RATE] = 1;
		assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
		if (cases[k].got < 200)
			assert_string_equal(find_caveat(&c, "run 2 did not run"),
			                    "run 2 did not run the requested workload: request_rate 222.83 "
			                    "requested vs 113.66 req/s achieved (run 2) (more than 10% apart; "
			                    "allowed by --allow-mismatch)");
		pl_comparison_release(&c);
		pl_run_list_release(&l);
	}
}

/* A value outside its plausible range (schema/ranges.tsv: a TTFT of 0 to
 * 86400 s, inclusive) is shown, marked, and never the ground of a delta:
 * neither its row's nor that of a row whose baseline it is. 86400 itself
 * is plausible and gets its delta. */
static void implausible_values_get_no_delta(void **state)
{
	struct pl_run_list l;
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	pl_run_list_init(&l);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	add(&l, 1, "1x NVIDIA A100 80G", "550.54", "bfloat16", "8", 0.25, 100);
	add(&l, 2, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 1e308, 300);
	add(&l, 3, "1x NVIDIA L40S 48G", "550.90", "bfloat16", "8", 86400, 50);
	add(&l, 4, "1x NVIDIA H100 80G", "550.90", "bfloat16", "8", 0.20, 310);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_int_equal(c.nrows, 3);
	/* the H100 row: median of 0.20 and 1e308, its spread the value itself */
	assert_int_equal(c.rows[1].implausible[PL_M_TTFT_P50], 1);
	assert_true(c.rows[1].max[PL_M_TTFT_P50] == 1e308);
	assert_int_equal(c.rows[1].has_delta[PL_M_TTFT_P50], 0);
	assert_int_equal(c.rows[1].implausible[PL_M_OUTPUT_THROUGHPUT], 0);
	assert_int_equal(c.rows[1].has_delta[PL_M_OUTPUT_THROUGHPUT], 1);
	assert_true(fabs(c.rows[1].delta_pct[PL_M_OUTPUT_THROUGHPUT] - 205.0) < 1e-9);
	/* 86400 s is at the range's top: plausible, with its delta */
	assert_int_equal(c.rows[2].implausible[PL_M_TTFT_P50], 0);
	assert_int_equal(c.rows[2].has_delta[PL_M_TTFT_P50], 1);
	assert_true(fabs(c.rows[2].delta_pct[PL_M_TTFT_P50] - 34559900.0) < 1e-6);
	assert_string_equal(find_caveat(&c, "ttft_p50 outside"),
	                    "ttft_p50 outside its plausible range (schema/ranges.tsv) in 1 run, "
	                    "marked '!', no delta computed from it: run 2");
	pl_comparison_release(&c);

	/* the baseline implausible (just above the top): no row has a TTFT delta */
	l.v[0].metric[PL_M_TTFT_P50] = 86400.001;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	for (size_t r = 0; r < c.nrows; r++)
		assert_int_equal(c.rows[r].has_delta[PL_M_TTFT_P50], 0);
	assert_int_equal(c.rows[0].implausible[PL_M_TTFT_P50], 1);
	assert_int_equal(c.rows[2].implausible[PL_M_TTFT_P50], 0);
	assert_int_equal(c.rows[2].has_delta[PL_M_OUTPUT_THROUGHPUT], 1);
	assert_true(fabs(c.rows[2].delta_pct[PL_M_OUTPUT_THROUGHPUT] - (-50.0)) < 1e-9);
	assert_string_equal(find_caveat(&c, "ttft_p50 outside"),
	                    "ttft_p50 outside its plausible range (schema/ranges.tsv) in 2 runs, "
	                    "marked '!', no delta computed from it: run 1, run 2");
	pl_comparison_release(&c);

	/* history marks them without the caveat (it leaves them out itself) */
	o.implausible_quiet = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_null(find_caveat(&c, "ttft_p50 outside"));
	assert_int_equal(c.rows[0].has_delta[PL_M_TTFT_P50], 0);
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(axis_parsing),
		cmocka_unit_test(rows_medians_and_deltas),
		cmocka_unit_test(refusal_lists_every_field),
		cmocka_unit_test(extras_shared_refused_allowed),
		cmocka_unit_test(engine_axis_orders_versions_naturally),
		cmocka_unit_test(deltas_at_equal_tail),
		cmocka_unit_test(equal_versions_in_run_order),
		cmocka_unit_test(no_condition_pools_silently),
		cmocka_unit_test(travellers_one_value_per_row),
		cmocka_unit_test(extras_are_conditions),
		cmocka_unit_test(median_even_and_odd),
		cmocka_unit_test(median_is_the_sorted_middle),
		cmocka_unit_test(workload_rule_boundaries),
		cmocka_unit_test(rate_shortfall_boundaries),
		cmocka_unit_test(implausible_values_get_no_delta),
		cmocka_unit_test(slo_rows_pool_run_grades),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

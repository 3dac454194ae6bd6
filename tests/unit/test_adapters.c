/*
 * test_adapters.c — the descriptor and vllm-serving adapters, the registry
 * and the JSON rules (positions, duplicates, bare tokens, units).
 *
 * Corpus files are read in place from PL_CORPUS_DIR; every expected value
 * below was worked out by hand from the file (vLLM milliseconds / 1000 =
 * seconds) and is compared with a relative tolerance of 1e-12.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refusal_text.h"
#include "adapters/adapters.h"
#include "adapters/jsonread.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

#include "shared_fixture.h"
#include "caveat_text.h"

struct exp_metric {
	const char *name;
	double value;
};

struct exp_cond {
	const char *name;
	const char *text;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (shared_path(path))
		need_shared(path);
	f = fopen(path, "rb");
	assert_non_null(f);
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Parses corpus file vllm_serving/name; returns the adapter's code. */
static int parse_corpus(const char *name, struct pl_run_list *out, struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/vllm_serving/%s", PL_CORPUS_DIR, name);
	buf = slurp(path, &len);
	pl_error_init(err);
	rc = pl_adapters_parse(path, buf, len, NULL, out, err);
	free(buf);
	return rc;
}

/* Parses an in-memory text as if it were the file path. */
static int parse_text(const char *path, const char *text, struct pl_run_list *out,
                      struct pl_error *err)
{
	pl_error_init(err);
	return pl_adapters_parse(path, text, strlen(text), NULL, out, err);
}

static void expect_close(const char *what, double got, double want)
{
	double tol = fabs(want) * 1e-12;
	if (fabs(got - want) > tol) {
		print_error("%s: got %.17g, want %.17g\n", what, got, want);
		fail();
	}
}

/* The run has exactly the metrics of want, with those values. */
static void expect_metrics(const struct pl_run *r, const struct exp_metric *want)
{
	size_t nwant = 0, nhave = 0;

	for (; want[nwant].name; nwant++) {
		int id = pl_metric_lookup(want[nwant].name);
		assert_true(id >= 0);
		if (!r->has_metric[id]) {
			print_error("metric %s missing\n", want[nwant].name);
			fail();
		}
		expect_close(want[nwant].name, r->metric[id], want[nwant].value);
	}
	for (int i = 0; i < PL_METRIC_COUNT; i++)
		if (r->has_metric[i])
			nhave++;
	assert_int_equal(nhave, nwant);
}

/* The run has exactly the conditions of want, with those texts. */
static void expect_conds(const struct pl_run *r, const struct exp_cond *want)
{
	size_t nwant = 0, nhave = 0;

	for (; want[nwant].name; nwant++) {
		int id = pl_cond_lookup(want[nwant].name);
		assert_true(id >= 0);
		if (!r->cond[id].set) {
			print_error("condition %s missing\n", want[nwant].name);
			fail();
		}
		assert_string_equal(r->cond[id].text, want[nwant].text);
	}
	for (int i = 0; i < PL_COND_COUNT; i++)
		if (r->cond[i].set)
			nhave++;
	assert_int_equal(nhave, nwant);
}

/* ascend_llama3_8b_rr1_partial.json, record 0: expected by hand from the file */
static const struct exp_metric ascend_llama3_8b_rr1_partial_0_m[] = {
	{"itl_mean", 40.20369931525192 / 1000.0},
	{"itl_p50", 38.4669154882431 / 1000.0},
	{"itl_p99", 83.89740884304047 / 1000.0},
	{"itl_std", 13.03413605547094 / 1000.0},
	{"tpot_mean", 40.48013234569434 / 1000.0},
	{"tpot_p50", 40.27887061310954 / 1000.0},
	{"tpot_p99", 50.32315672169644 / 1000.0},
	{"tpot_std", 2.399496295236551 / 1000.0},
	{"ttft_mean", 111.23647520318627 / 1000.0},
	{"ttft_p50", 103.90021465718746 / 1000.0},
	{"ttft_p99", 165.47399744391114 / 1000.0},
	{"ttft_std", 45.17258903771878 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond ascend_llama3_8b_rr1_partial_0_c[] = {
	{"burstiness", "1"},
	{"api_backend", "vllm"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"model", "/root/wl/cache/modelscope/models/Meta-Llama-3-8B-Instruct"},
	{"num_prompts", "200"},
	{"request_rate", "1"},
	{"run_started_at", "2025-03-04T01:41:41"},
	{NULL, NULL},
};

/* er0080_vllm0251_bench_serve_opt125m.json, record 0: expected by hand from the file */
static const struct exp_metric er0080_vllm0251_bench_serve_opt125m_0_m[] = {
	{"duration", 1.5441598830002476},
	{"error_rate", 0.0 / 8.0},
	{"itl_mean", 11.265836941667354 / 1000.0},
	{"itl_p50", 10.492878499917424 / 1000.0},
	{"itl_p99", 29.815922519960626 / 1000.0},
	{"itl_std", 3.5142929948720183 / 1000.0},
	{"output_throughput", 82.89297074037474},
	{"request_throughput", 5.180810671273421},
	{"requests_completed", 8},
	{"requests_failed", 0},
	{"total_input_tokens", 256},
	{"total_output_tokens", 128},
	{"total_token_throughput", 248.6789122211242},
	{"tpot_mean", 11.265828258331112 / 1000.0},
	{"tpot_p50", 11.20450286665194 / 1000.0},
	{"tpot_p99", 11.979541883350674 / 1000.0},
	{"tpot_std", 0.6175290686013256 / 1000.0},
	{"ttft_mean", 215.53594200008774 / 1000.0},
	{"ttft_p50", 55.68139649994919 / 1000.0},
	{"ttft_p99", 734.4049174101428 / 1000.0},
	{"ttft_std", 292.06819504885306 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond er0080_vllm0251_bench_serve_opt125m_0_c[] = {
	{"burstiness", "1"},
	{"api_backend", "vllm"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "2"},
	{"model", "facebook/opt-125m"},
	{"num_prompts", "8"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-08-16T16:08:53"},
	{NULL, NULL},
};

/* er0080_vllm0251_sweep_run0.json, record 0: expected by hand from the file */
static const struct exp_metric er0080_vllm0251_sweep_run0_0_m[] = {
	{"duration", 1.3653671270003542},
	{"e2el_mean", 340.3411977451469 / 1000.0},
	{"e2el_p50", 166.47808399284258 / 1000.0},
	{"e2el_p99", 876.8009717071254 / 1000.0},
	{"e2el_std", 307.5698400693424 / 1000.0},
	{"error_rate", 0.0 / 8.0},
	{"itl_mean", 8.204563008257537 / 1000.0},
	{"itl_p50", 7.372754000243731 / 1000.0},
	{"itl_p99", 22.26501848665066 / 1000.0},
	{"itl_std", 2.8521622338226233 / 1000.0},
	{"output_throughput", 93.74767963046673},
	{"request_throughput", 5.859229976904171},
	{"requests_completed", 8},
	{"requests_failed", 0},
	{"total_input_tokens", 256},
	{"total_output_tokens", 128},
	{"total_token_throughput", 281.2430388914002},
	{"tpot_mean", 8.204553624697533 / 1000.0},
	{"tpot_p50", 8.323490332986694 / 1000.0},
	{"tpot_p99", 9.394318119331729 / 1000.0},
	{"tpot_std", 0.6677548321718587 / 1000.0},
	{"ttft_mean", 217.27289337468392 / 1000.0},
	{"ttft_p50", 44.92285849846667 / 1000.0},
	{"ttft_p99", 762.4942294094944 / 1000.0},
	{"ttft_std", 309.1373405846827 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond er0080_vllm0251_sweep_run0_0_c[] = {
	{"max_num_seqs", "4"},
	{"burstiness", "1"},
	{"api_backend", "openai"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "2"},
	{"model", "facebook/opt-125m"},
	{"num_prompts", "8"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-08-18T02:13:33"},
	{NULL, NULL},
};

/* er0080_vllm0251_sweep_summary.json, record 0: expected by hand from the file */
static const struct exp_metric er0080_vllm0251_sweep_summary_0_m[] = {
	{"duration", 1.3653671270003542},
	{"e2el_mean", 340.3411977451469 / 1000.0},
	{"e2el_p50", 166.47808399284258 / 1000.0},
	{"e2el_p99", 876.8009717071254 / 1000.0},
	{"e2el_std", 307.5698400693424 / 1000.0},
	{"error_rate", 0.0 / 8.0},
	{"itl_mean", 8.204563008257537 / 1000.0},
	{"itl_p50", 7.372754000243731 / 1000.0},
	{"itl_p99", 22.26501848665066 / 1000.0},
	{"itl_std", 2.8521622338226233 / 1000.0},
	{"output_throughput", 93.74767963046673},
	{"request_throughput", 5.859229976904171},
	{"requests_completed", 8},
	{"requests_failed", 0},
	{"total_input_tokens", 256},
	{"total_output_tokens", 128},
	{"total_token_throughput", 281.2430388914002},
	{"tpot_mean", 8.204553624697533 / 1000.0},
	{"tpot_p50", 8.323490332986694 / 1000.0},
	{"tpot_p99", 9.394318119331729 / 1000.0},
	{"tpot_std", 0.6677548321718587 / 1000.0},
	{"ttft_mean", 217.27289337468392 / 1000.0},
	{"ttft_p50", 44.92285849846667 / 1000.0},
	{"ttft_p99", 762.4942294094944 / 1000.0},
	{"ttft_std", 309.1373405846827 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond er0080_vllm0251_sweep_summary_0_c[] = {
	{"max_num_seqs", "4"},
	{"burstiness", "1"},
	{"api_backend", "openai"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "2"},
	{"model", "facebook/opt-125m"},
	{"num_prompts", "8"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-08-18T02:13:33"},
	{NULL, NULL},
};

/* er0080_vllm0251_sweep_summary.json, record 1: expected by hand from the file */
static const struct exp_metric er0080_vllm0251_sweep_summary_1_m[] = {
	{"duration", 0.6420253609976498},
	{"e2el_mean", 159.49398987686436 / 1000.0},
	{"e2el_p50", 157.98742300103186 / 1000.0},
	{"e2el_p99", 169.63662419613684 / 1000.0},
	{"e2el_std", 4.391646610956886 / 1000.0},
	{"error_rate", 0.0 / 8.0},
	{"itl_mean", 8.012454975081104 / 1000.0},
	{"itl_p50", 7.37574999948265 / 1000.0},
	{"itl_p99", 23.304498707439055 / 1000.0},
	{"itl_std", 3.313539293021173 / 1000.0},
	{"output_throughput", 199.36907134182283},
	{"request_throughput", 12.460566958863927},
	{"requests_completed", 8},
	{"requests_failed", 0},
	{"total_input_tokens", 256},
	{"total_output_tokens", 128},
	{"total_token_throughput", 598.1072140254685},
	{"tpot_mean", 8.012444900062594 / 1000.0},
	{"tpot_p50", 7.929104699966653 / 1000.0},
	{"tpot_p99", 9.040313850321885 / 1000.0},
	{"tpot_std", 0.6070218873414794 / 1000.0},
	{"ttft_mean", 39.30731637592544 / 1000.0},
	{"ttft_p50", 38.187976999324746 / 1000.0},
	{"ttft_p99", 57.58295443694805 / 1000.0},
	{"ttft_std", 10.40175865759538 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond er0080_vllm0251_sweep_summary_1_c[] = {
	{"max_num_seqs", "4"},
	{"burstiness", "1"},
	{"api_backend", "openai"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "2"},
	{"model", "facebook/opt-125m"},
	{"num_prompts", "8"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-08-18T02:13:38"},
	{NULL, NULL},
};

/* ix_gptoss120b_multinode_c16.json, record 0: expected by hand from the file */
static const struct exp_metric ix_gptoss120b_multinode_c16_0_m[] = {
	{"duration", 94.94771882798523},
	{"e2el_mean", 9436.768365876924 / 1000.0},
	{"e2el_p50", 9359.918448608369 / 1000.0},
	{"e2el_p90", 9920.965689211152 / 1000.0},
	{"e2el_p99", 9977.636895296164 / 1000.0},
	{"e2el_p99_9", 9977.824207578553 / 1000.0},
	{"e2el_std", 203.51181544144868 / 1000.0},
	{"error_rate", (160.0 - 160.0) / 160.0},
	{"itl_mean", 9.043755927185433 / 1000.0},
	{"itl_p50", 9.067311882972717 / 1000.0},
	{"itl_p90", 9.187642950564623 / 1000.0},
	{"itl_p99", 9.348576478660105 / 1000.0},
	{"itl_p99_9", 11.5778636110482 / 1000.0},
	{"itl_std", 0.49330033887680946 / 1000.0},
	{"output_throughput", 1725.5812148243967},
	{"request_throughput", 1.68513790510195},
	{"requests_completed", 160},
	{"total_input_tokens", 163840},
	{"total_output_tokens", 163840},
	{"total_token_throughput", 3451.1624296487935},
	{"tpot_mean", 9.043755853690438 / 1000.0},
	{"tpot_p50", 9.03941193840877 / 1000.0},
	{"tpot_p90", 9.08699567049181 / 1000.0},
	{"tpot_p99", 9.092274875981406 / 1000.0},
	{"tpot_p99_9", 9.094480784422148 / 1000.0},
	{"tpot_std", 0.032097259503204134 / 1000.0},
	{"ttft_mean", 185.00612755160546 / 1000.0},
	{"ttft_p50", 104.43462803959846 / 1000.0},
	{"ttft_p90", 668.5733429389074 / 1000.0},
	{"ttft_p99", 687.9313375009224 / 1000.0},
	{"ttft_p99_9", 698.2081180762034 / 1000.0},
	{"ttft_std", 193.8479555106311 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond ix_gptoss120b_multinode_c16_0_c[] = {
	{"burstiness", "1"},
	{"api_backend", "openai"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "16"},
	{"model", "/models/models--openai--gpt-oss-120b/snapshots/b5c939de8f754692c1647ca79fbf85e8c1e70f8a/"},
	{"num_prompts", "160"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-04-28T11:01:59"},
	{NULL, NULL},
};

/* ix_kimik25_int4_mi355x_c4_raw.json, record 0: expected by hand from the file */
static const struct exp_metric ix_kimik25_int4_mi355x_c4_raw_0_m[] = {
	{"duration", 165.7859344901517},
	{"e2el_mean", 16175.88243483915 / 1000.0},
	{"e2el_p50", 16261.2041993998 / 1000.0},
	{"e2el_p90", 17897.407873393968 / 1000.0},
	{"e2el_p99", 18323.80557443248 / 1000.0},
	{"e2el_p99_9", 18445.460162415406 / 1000.0},
	{"e2el_std", 1311.820483148969 / 1000.0},
	{"error_rate", (40.0 - 40.0) / 40.0},
	{"itl_mean", 48.69889880906398 / 1000.0},
	{"itl_p50", 44.25954492762685 / 1000.0},
	{"itl_p90", 66.82122603524476 / 1000.0},
	{"itl_p99", 170.26271915528923 / 1000.0},
	{"itl_p99_9", 251.6422391461674 / 1000.0},
	{"itl_std", 19.56802874721226 / 1000.0},
	{"output_throughput", 221.42409193453412},
	{"request_throughput", 0.2412749918924886},
	{"requests_completed", 40},
	{"total_input_tokens", 37068},
	{"total_output_tokens", 36709},
	{"total_token_throughput", 445.0136269213033},
	{"tpot_mean", 17.294128568510715 / 1000.0},
	{"tpot_p50", 17.393898241078155 / 1000.0},
	{"tpot_p90", 18.132639238317854 / 1000.0},
	{"tpot_p99", 18.459965544077445 / 1000.0},
	{"tpot_p99_9", 18.499183218996773 / 1000.0},
	{"tpot_std", 0.7068954562863091 / 1000.0},
	{"ttft_mean", 317.0863160688896 / 1000.0},
	{"ttft_p50", 296.9768075272441 / 1000.0},
	{"ttft_p90", 353.86848766356724 / 1000.0},
	{"ttft_p99", 585.9901384473777 / 1000.0},
	{"ttft_p99_9", 659.1278487213433 / 1000.0},
	{"ttft_std", 72.5235775538713 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond ix_kimik25_int4_mi355x_c4_raw_0_c[] = {
	{"burstiness", "1"},
	{"api_backend", "vllm"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"concurrency", "4"},
	{"model", "moonshotai/Kimi-K2.5"},
	{"num_prompts", "40"},
	{"request_rate", "inf"},
	{"run_started_at", "2026-05-27T07:50:26"},
	{NULL, NULL},
};

/* llmk8s_dsv25_tp8pp2_qps_inf_full.json, record 0: expected by hand from the file */
static const struct exp_metric llmk8s_dsv25_tp8pp2_qps_inf_full_0_m[] = {
	{"duration", 126.71747349099996},
	{"error_rate", (200.0 - 200.0) / 200.0},
	{"itl_mean", 144.6180005657716 / 1000.0},
	{"itl_p50", 142.73341299985987 / 1000.0},
	{"itl_p99", 175.87617270005467 / 1000.0},
	{"itl_std", 53.07903903932668 / 1000.0},
	{"output_throughput", 332.795460943239},
	{"request_throughput", 1.5783142962853098},
	{"requests_completed", 200},
	{"total_input_tokens", 47195},
	{"total_output_tokens", 42171},
	{"total_token_throughput", 705.2381770091649},
	{"tpot_mean", 165.24337870132945 / 1000.0},
	{"tpot_p50", 148.69220395241942 / 1000.0},
	{"tpot_p99", 378.55161128501345 / 1000.0},
	{"tpot_std", 48.15855756316357 / 1000.0},
	{"ttft_mean", 1746.9318987299926 / 1000.0},
	{"ttft_p50", 1643.2945829999426 / 1000.0},
	{"ttft_p99", 2415.798339080029 / 1000.0},
	{"ttft_std", 480.5360957530944 / 1000.0},
	{NULL, 0},
};
static const struct exp_cond llmk8s_dsv25_tp8pp2_qps_inf_full_0_c[] = {
	{"burstiness", "1"},
	{"api_backend", "vllm"},
	{"benchmark_tool", "vllm-bench-serve"},
	{"model", "deepseek-ai/DeepSeek-V2.5"},
	{"num_prompts", "200"},
	{"request_rate", "inf"},
	{"run_started_at", "2025-04-20T19:02:07"},
	{NULL, NULL},
};


/* ------------------------------------------------------------ vllm corpus */

static void check_vllm_file(const char *name, size_t nruns, const struct exp_metric *const *m,
                            const struct exp_cond *const *c)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_corpus(name, &l, &err);

	if (rc) {
		print_error("%s: %s\n", name, err.message);
		fail();
	}
	assert_int_equal(l.n, nruns);
	for (size_t i = 0; i < nruns; i++) {
		const struct pl_run *r = &l.v[i];
		assert_string_equal(r->adapter, "vllm-serving");
		assert_null(r->format_version);
		assert_int_equal(r->record, (long)i);
		assert_non_null(strstr(r->source, name));
		assert_string_equal(r->sha256, "");
		expect_metrics(r, m[i]);
		expect_conds(r, c[i]);
		/* the file never says which engine served: it stays missing */
		assert_int_equal(r->cond[PL_C_ENGINE].set, 0);
	}
	pl_run_list_release(&l);
}

#define ONE(stem) \
	(const struct exp_metric *const[]){stem##_0_m}, (const struct exp_cond *const[]){stem##_0_c}

static void test_vllm_ascend_partial(void **state)
{
	(void)state;
	check_vllm_file("ascend_llama3_8b_rr1_partial.json", 1, ONE(ascend_llama3_8b_rr1_partial));
}

static void test_vllm_bench_serve_opt125m(void **state)
{
	(void)state;
	check_vllm_file("er0080_vllm0251_bench_serve_opt125m.json", 1,
	                ONE(er0080_vllm0251_bench_serve_opt125m));
}

static void test_vllm_sweep_run0(void **state)
{
	(void)state;
	check_vllm_file("er0080_vllm0251_sweep_run0.json", 1, ONE(er0080_vllm0251_sweep_run0));
}

static void test_vllm_sweep_summary(void **state)
{
	(void)state;
	check_vllm_file("er0080_vllm0251_sweep_summary.json", 2,
	                (const struct exp_metric *const[]){er0080_vllm0251_sweep_summary_0_m,
	                                                   er0080_vllm0251_sweep_summary_1_m},
	                (const struct exp_cond *const[]){er0080_vllm0251_sweep_summary_0_c,
	                                                 er0080_vllm0251_sweep_summary_1_c});
}

static void test_vllm_ix_gptoss(void **state)
{
	(void)state;
	check_vllm_file("ix_gptoss120b_multinode_c16.json", 1, ONE(ix_gptoss120b_multinode_c16));
}

static void test_vllm_ix_kimi(void **state)
{
	(void)state;
	check_vllm_file("ix_kimik25_int4_mi355x_c4_raw.json", 1, ONE(ix_kimik25_int4_mi355x_c4_raw));
}

static void test_vllm_llmk8s_full(void **state)
{
	(void)state;
	check_vllm_file("llmk8s_dsv25_tp8pp2_qps_inf_full.json", 1,
	                ONE(llmk8s_dsv25_tp8pp2_qps_inf_full));
}

/* A run where every request failed is a failed run (issue 13): read, with
 * its counts, and flagged. */
static void test_vllm_all_failed_stored(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_corpus("er0080_vllm0251_all_requests_failed.json", &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.v[0].has_metric[PL_M_REQUESTS_COMPLETED]);
	assert_true(l.v[0].metric[PL_M_REQUESTS_COMPLETED] == 0);
	assert_true(l.v[0].metric[PL_M_REQUESTS_FAILED] == 8);
	assert_true(l.v[0].metric[PL_M_ERROR_RATE] == 1);
	assert_int_equal(pl_run_failed(&l.v[0]), 1);
	pl_run_list_release(&l);
}

/* "descriptor, vllm-serving, ..." from the adapter list, as messages say it. */
static const char *known_list(void)
{
	static char buf[512];
	size_t n = 0;
	const struct pl_adapter_info *a = pl_adapters_list(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "", a[i].name);
	}
	return buf;
}

static void test_vllm_nightly_table_not_read(void **state)
{
	char want[1024];
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_corpus("llmk8s_dsv25_nightly_table.json", &l, &err), PL_EFORMAT);
	snprintf(want, sizeof(want),
	         "this looks like a vLLM nightly-benchmarks table (rows with display keys "
	         "like \"Mean TTFT (ms)\"), which no adapter reads yet (known: %s)",
	         known_list());
	assert_string_equal(err.message, want);
	assert_int_equal(l.n, 0);
}

/* Every corpus file passes validation once the missing conditions are given. */
static void test_vllm_corpus_validates(void **state)
{
	static const char *const files[] = {
		"ascend_llama3_8b_rr1_partial.json", "er0080_vllm0251_bench_serve_opt125m.json",
		"er0080_vllm0251_sweep_run0.json", "er0080_vllm0251_sweep_summary.json",
		"ix_gptoss120b_multinode_c16.json", "ix_kimik25_int4_mi355x_c4_raw.json",
		"llmk8s_dsv25_tp8pp2_qps_inf_full.json",
	};
	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct pl_run_list l = {0};
		struct pl_error err;
		assert_int_equal(parse_corpus(files[f], &l, &err), 0);
		for (size_t i = 0; i < l.n; i++) {
			pl_error_init(&err);
			assert_int_equal(pl_validate_run(&l.v[i], &err), PL_EINVALID);
			assert_string_equal(err.field, "precision");
			pl_run_set_cond(&l.v[i], PL_C_PRECISION, "bf16", NULL);
			pl_run_set_cond(&l.v[i], PL_C_ENGINE, "vllm", NULL);
			pl_run_set_cond(&l.v[i], PL_C_HARDWARE, "1x GPU", NULL);
			if (pl_validate_run(&l.v[i], &err) != 0) {
				print_error("%s: %s\n", files[f], err.message);
				fail();
			}
		}
		pl_run_list_release(&l);
	}
}

/* ------------------------------------------- field cases (../shared/cases) */

/* Reads case file dir/name and its sidecar dir/NAME.conditions.json (as the
 * importer does), then normalizes and validates; the run gets id. Returns 0,
 * or 1 when the cases folder is absent (the caller skips, visibly). */
static int load_case(const char *dir, const char *name, long long id, struct pl_run_list *l)
{
	char path[4096], side[4096];
	size_t len, slen;
	char *buf, *sbuf;
	struct pl_error err;
	size_t at = l->n;

	snprintf(path, sizeof(path), "%s/%s/%s.json", PL_CASES_DIR, dir, name);
	snprintf(side, sizeof(side), "%s/%s/%s.conditions.json", PL_CASES_DIR, dir, name);
	need_shared(path);
	buf = slurp(path, &len);
	sbuf = slurp(side, &slen);
	pl_error_init(&err);
	if (pl_adapters_parse(path, buf, len, NULL, l, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	assert_int_equal(l->n, at + 1);
	if (pl_adapters_parse_conditions(side, sbuf, slen, &l->v[at], &err) != 0 ||
	    pl_normalize_run(&l->v[at], &err) != 0 || pl_validate_run(&l->v[at], &err) != 0)
		fail_msg("%s: %s", path, err.message);
	l->v[at].id = id;
	free(buf);
	free(sbuf);
	return 0;
}

/* 01-vllm-ramp-up: a --ramp-up-strategy run writes "request_rate": "inf";
 * it is stored with its ramp and no request_rate, and compare with the
 * true burst is refused naming the load fields. */
static void test_vllm_case_ramp_up(void **state)
{
	static const struct exp_cond burst_c[] = {
		{"model", "org-a/model-8b"}, {"precision", "bfloat16"}, {"engine", "vllm"},
		{"engine_version", "0.11.0"}, {"hardware", "1x NVIDIA A100 80GB"},
		{"accelerator_count", "1"}, {"input_tokens", "1024"}, {"max_output_tokens", "128"},
		{"warmup_requests", "0"}, {"dataset", "random"}, {"num_prompts", "200"},
		{"request_rate", "inf"}, {"burstiness", "1"}, {"api_backend", "openai"},
		{"benchmark_tool", "vllm-bench-serve"}, {"run_started_at", "2026-09-10T10:30:00"},
		{NULL, NULL}};
	static const struct exp_cond ramp_c[] = {
		{"model", "org-a/model-8b"}, {"precision", "bfloat16"}, {"engine", "vllm"},
		{"engine_version", "0.11.0"}, {"hardware", "1x NVIDIA H100 80GB"},
		{"accelerator_count", "1"}, {"input_tokens", "1024"}, {"max_output_tokens", "128"},
		{"warmup_requests", "0"}, {"dataset", "random"}, {"num_prompts", "200"},
		{"burstiness", "1"}, {"ramp_up_strategy", "linear"}, {"ramp_up_start_rps", "1"},
		{"ramp_up_end_rps", "20"}, {"api_backend", "openai"},
		{"benchmark_tool", "vllm-bench-serve"}, {"run_started_at", "2026-09-10T10:15:00"},
		{NULL, NULL}};
	struct pl_run_list l = {0};
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	if (load_case("01-vllm-ramp-up", "burst-all-at-once", 1, &l) ||
	    load_case("01-vllm-ramp-up", "ramp-1-to-20", 2, &l)) {
		pl_run_list_release(&l);
		skip();
	}
	expect_conds(&l.v[0], burst_c);
	expect_conds(&l.v[1], ramp_c);
	/* the realized workload: 204800 / 200 = 1024 in, 25600 / 200 = 128 out */
	expect_close("input_tokens_mean", l.v[1].metric[PL_M_INPUT_TOKENS_MEAN], 1024);
	expect_close("output_tokens_mean", l.v[1].metric[PL_M_OUTPUT_TOKENS_MEAN], 128);

	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_string_equal(refusal_en(&e, &c),
	                    "comparison refused: 4 conditions differ off the axis 'hardware': request_rate: "
	                    "'inf' (run 1) vs '(missing)' (run 2); ramp_up_strategy: 'linear' (run 2) vs "
	                    "'(missing)' (run 1); ramp_up_start_rps: '1' (run 2) vs '(missing)' (run 1); "
	                    "ramp_up_end_rps: '20' (run 2) vs '(missing)' (run 1)");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* 12-vllm-completions-vs-chat: api_backend openai vs openai-chat is in the
 * key, so an engine_version comparison of the two is refused. */
static void test_vllm_case_completions_vs_chat(void **state)
{
	struct pl_run_list l = {0};
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error e;
	(void)state;
	if (load_case("12-vllm-completions-vs-chat", "completions", 1, &l) ||
	    load_case("12-vllm-completions-vs-chat", "chat", 2, &l)) {
		pl_run_list_release(&l);
		skip();
	}
	assert_string_equal(l.v[0].cond[PL_C_API_BACKEND].text, "openai");
	assert_string_equal(l.v[1].cond[PL_C_API_BACKEND].text, "openai-chat");
	/* endpoint_type == backend: nothing extra for it; the tokenizer is kept */
	assert_null(pl_run_extra(&l.v[1], "vllm-serving.endpoint_type"));
	assert_int_equal(l.v[1].nextra, 1);
	assert_string_equal(pl_run_extra(&l.v[1], "vllm-serving.tokenizer_id"), "org-a/model-8b");
	/* 102400 / 200 = 512 in, 51200 / 200 = 256 out: the workload ran */
	expect_close("input_tokens_mean", l.v[1].metric[PL_M_INPUT_TOKENS_MEAN], 512);
	expect_close("output_tokens_mean", l.v[1].metric[PL_M_OUTPUT_TOKENS_MEAN], 256);
	memset(&o, 0, sizeof(o));
	pl_error_init(&e);
	assert_int_equal(pl_compare_parse_axis(&o, "engine_version", &e), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), PL_EMISMATCH);
	assert_int_equal(c.nmismatches, 1);
	assert_int_equal(c.mismatches[0].cond, PL_C_API_BACKEND);
	assert_string_equal(refusal_en(&e, &c),
	                    "comparison refused: 1 condition differs off the axis 'engine_version': "
	                    "api_backend: 'openai' (run 1) vs 'openai-chat' (run 2)");
	pl_comparison_release(&c);
	/* allowed by name, it is a caveat */
	o.allow_mismatch[PL_C_API_BACKEND] = 1;
	assert_int_equal(pl_compare_build(&l, &o, &c, &e), 0);
	assert_string_equal(cav_en(&c, 0), "conditions differ in api_backend: openai vs openai-chat "
	                                  "(allowed by --allow-mismatch)");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* A minimal vLLM result: backend/endpoint_type and output totals vary. */
static void vllm_text(char *buf, size_t n, const char *backend, const char *endpoint,
                      const char *total_out)
{
	snprintf(buf, n,
	         "{\"date\": \"20260915-090000\", \"backend\": \"%s\", \"endpoint_type\": \"%s\",\n"
	         " \"model_id\": \"m\", \"num_prompts\": 200, \"request_rate\": \"inf\",\n"
	         " \"burstiness\": 0.5, \"max_concurrency\": 8, \"completed\": 200, \"failed\": 0,\n"
	         " \"total_input_tokens\": 102400, \"total_output_tokens\": %s,\n"
	         " \"median_ttft_ms\": 58.0}\n",
	         backend, endpoint, total_out);
}

/* endpoint_type that disagrees with backend is kept (an extra condition). */
static void test_vllm_endpoint_type(void **state)
{
	char text[1024];
	struct pl_run_list l = {0};
	struct pl_error err;
	(void)state;
	vllm_text(text, sizeof(text), "openai", "openai-chat", "51200");
	assert_int_equal(parse_text("r.json", text, &l, &err), 0);
	assert_string_equal(l.v[0].cond[PL_C_API_BACKEND].text, "openai");
	assert_string_equal(l.v[0].cond[PL_C_BURSTINESS].text, "0.5");
	assert_int_equal(l.v[0].nextra, 1);
	assert_string_equal(l.v[0].extra[0].name, "vllm-serving.endpoint_type");
	assert_string_equal(l.v[0].extra[0].value, "openai-chat");
	pl_run_list_release(&l);
	/* no backend: endpoint_type is the endpoint */
	assert_int_equal(parse_text("r.json",
	                            "{\"date\": \"20260915-090000\", \"endpoint_type\": \"openai-chat\","
	                            " \"num_prompts\": 1, \"median_ttft_ms\": 1}",
	                            &l, &err),
	                 0);
	assert_string_equal(l.v[0].cond[PL_C_API_BACKEND].text, "openai-chat");
	assert_int_equal(l.v[0].nextra, 0);
	pl_run_list_release(&l);
	/* a ramp with a finite request_rate keeps it (vLLM never writes that) */
	assert_int_equal(parse_text("r.json",
	                            "{\"date\": \"20260915-090000\", \"backend\": \"openai\","
	                            " \"num_prompts\": 1, \"request_rate\": 4, \"ramp_up_strategy\":"
	                            " \"exponential\", \"median_ttft_ms\": 1}",
	                            &l, &err),
	                 0);
	assert_string_equal(l.v[0].cond[PL_C_REQUEST_RATE].text, "4");
	assert_string_equal(l.v[0].cond[PL_C_RAMP_UP_STRATEGY].text, "exponential");
	pl_run_list_release(&l);
}

/* The field report: 98.7 output tokens per request where 256 were
 * requested (19740 / 200 = 98.7). The mean is derived on validation and
 * the 10% rule refuses the comparison naming max_output_tokens. */
static void test_vllm_short_output_refused(void **state)
{
	char text[1024];
	struct pl_run_list l = {0};
	struct pl_compare_opts o;
	struct pl_comparison c;
	struct pl_error err;
	(void)state;
	vllm_text(text, sizeof(text), "openai", "openai", "51200");
	assert_int_equal(parse_text("a.json", text, &l, &err), 0);
	vllm_text(text, sizeof(text), "openai", "openai", "19740");
	assert_int_equal(parse_text("b.json", text, &l, &err), 0);
	assert_int_equal(l.n, 2);
	for (size_t i = 0; i < 2; i++) {
		struct pl_run *r = &l.v[i];
		r->id = (long long)i + 1;
		pl_run_set_cond(r, PL_C_PRECISION, "bf16", NULL);
		pl_run_set_cond(r, PL_C_ENGINE, "vllm", NULL);
		pl_run_set_cond(r, PL_C_HARDWARE, i ? "1x H100" : "1x A100", NULL);
		pl_run_set_cond(r, PL_C_INPUT_TOKENS, "512", NULL);
		pl_run_set_cond(r, PL_C_MAX_OUTPUT_TOKENS, "256", NULL);
		assert_int_equal(r->has_metric[PL_M_OUTPUT_TOKENS_MEAN], 0); /* not yet */
		assert_int_equal(pl_normalize_run(r, &err), 0);
		assert_int_equal(pl_validate_run(r, &err), 0);
	}
	expect_close("output_tokens_mean", l.v[0].metric[PL_M_OUTPUT_TOKENS_MEAN], 256);
	expect_close("output_tokens_mean", l.v[1].metric[PL_M_OUTPUT_TOKENS_MEAN], 98.7);
	expect_close("input_tokens_mean", l.v[1].metric[PL_M_INPUT_TOKENS_MEAN], 512);
	memset(&o, 0, sizeof(o));
	pl_error_init(&err);
	assert_int_equal(pl_compare_parse_axis(&o, "hardware", &err), 0);
	assert_int_equal(pl_compare_build(&l, &o, &c, &err), PL_EMISMATCH);
	assert_string_equal(refusal_en(&err, &c),
	                    "comparison refused: 1 condition differs off the axis 'hardware': "
	                    "max_output_tokens: '256 requested' vs '98.7 measured mean (run 2)'");
	pl_comparison_release(&c);
	pl_run_list_release(&l);
}

/* Python's json writes bare Infinity for request_rate. */
static void test_vllm_bare_infinity(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	const char *text = "{\"date\": \"20250101-000000\", \"backend\": \"vllm\", \"model_id\": \"m\",\n"
	                   " \"num_prompts\": 10, \"request_rate\": Infinity, \"completed\": 9,\n"
	                   " \"mean_ttft_ms\": 12.5, \"p25_ttft_ms\": 1.0}";

	(void)state;
	assert_int_equal(parse_text("x.json", text, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].cond[PL_C_REQUEST_RATE].text, "inf");
	assert_true(isinf(l.v[0].cond[PL_C_REQUEST_RATE].num));
	expect_close("ttft_mean", l.v[0].metric[PL_M_TTFT_MEAN], 0.0125);
	expect_close("error_rate", l.v[0].metric[PL_M_ERROR_RATE], 0.1);
	pl_run_list_release(&l);
}

/* ----------------------------------------------------------- descriptor */

static const char seed[] =
	"{ \"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\",\n"
	"  \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"hardware\": \"2x NVIDIA A100 80G\",\n"
	"  \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\",\n"
	"  \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8,\n"
	"  \"warmup_requests\": 3,\n"
	"  \"metric\": { \"ttft_p50\": 0.32, \"tokens_per_second_p50\": 45.2, \"error_rate\": 0 } }\n";

static void test_descriptor_seed(void **state)
{
	static const struct exp_metric m[] = {
		{"ttft_p50", 0.32}, {"tokens_per_second_p50", 45.2}, {"error_rate", 0}, {NULL, 0}};
	static const struct exp_cond c[] = {
		{"model", "gemma-4-31b"},      {"model_source", "huggingface"},
		{"precision", "bfloat16"},     {"engine", "vllm"},
		{"engine_version", "0.6.3"},   {"hardware", "2x NVIDIA A100 80G"},
		{"driver_version", "550.54"},  {"cuda_version", "12.4"},
		{"input_tokens", "512"},       {"max_output_tokens", "256"},
		{"concurrency", "8"},          {"warmup_requests", "3"},
		{NULL, NULL}};
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_text("seed.json", seed, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].adapter, "descriptor");
	assert_string_equal(l.v[0].format_version, "1");
	assert_string_equal(l.v[0].source, "seed.json");
	assert_int_equal(l.v[0].record, 0);
	expect_metrics(&l.v[0], m);
	expect_conds(&l.v[0], c);
	assert_true(l.v[0].cond[PL_C_CONCURRENCY].num == 8);
	assert_int_equal(pl_validate_run(&l.v[0], &err), 0);
	/* engine_args, TPOT, output throughput/p95 are missing: reference-only */
	assert_int_equal(l.v[0].checklist_missing,
	                 PL_CHK_ENGINE_ARGS | PL_CHK_TPOT | PL_CHK_P95);
	pl_run_list_release(&l);
}

static void test_descriptor_units(void **state)
{
	static const struct exp_metric m[] = {
		{"ttft_p50", 0.32},       {"ttft_p90", 0.5},         {"tpot_mean", 0.02},
		{"itl_p99_9", 0.0417},    {"e2el_p99_9", 2.5},       {"duration", 1.5},
		{"tokens_per_second_max", 50}, {"output_throughput", 1000}, {"itl_min", 0.001},
		{NULL, 0}};
	struct pl_run_list l = {0};
	struct pl_error err;
	const char *text = "{\"model\": \"m\", \"engine\": \"e\", \"metrics\": {\n"
	                   "  \"ttft_median_ms\": 320, \"ttft_p90\": 0.5, \"tpot_mean_s\": 0.02,\n"
	                   "  \"itl_p99.9_ms\": 41.7, \"e2el_p99_9_s\": 2.5, \"duration_ms\": 1500,\n"
	                   "  \"tokens_per_second_max\": 50, \"output_throughput\": 1000,\n"
	                   "  \"itl_min_ms\": 1, \"goodput\": null},\n"
	                   " \"x_note\": \"ignored\", \"_comment\": [1, 2]}";

	(void)state;
	assert_int_equal(parse_text("u.json", text, &l, &err), 0);
	expect_metrics(&l.v[0], m);
	pl_run_list_release(&l);
}

/* Parses text expecting code and the exact message (and field, line, col). */
static void expect_reject(const char *path, const char *text, int code, const char *message,
                          const char *field, long line, long col)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_text(path, text, &l, &err);

	if (rc != code || strcmp(err.message, message) != 0) {
		print_error("got %d '%s'\nwant %d '%s'\n", rc, err.message, code, message);
		fail();
	}
	assert_string_equal(err.file, path);
	if (field)
		assert_string_equal(err.field, field);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
	assert_int_equal(l.n, 0);
}

static void test_descriptor_syntax_error_position(void **state)
{
	(void)state;
	expect_reject("s.json", "{\n  \"model\": \"m\",\n  \"engine\": ,\n  \"metric\": {}\n}",
	              PL_ESYNTAX, "invalid JSON: unexpected ','", NULL, 3, 13);
	expect_reject("s.json", "{\"model\": \"m\",\n \"metric\": {\"ttft_p50\": 1}",
	              PL_ESYNTAX, "invalid JSON: unexpected end of input", NULL, 2, 27);
	/* "" holds no record: 0 runs, no error (test_descriptor_array) */
	expect_reject("s.json", "[", PL_ESYNTAX, "invalid JSON: unexpected end of input", NULL, 1, 2);
}

static void test_descriptor_version_as_number(void **state)
{
	(void)state;
	expect_reject("v.json",
	              "{\"model\": \"m\", \"engine\": \"vllm\", \"engine_version\": 0.10,"
	              " \"metric\": {\"ttft_p50\": 1}}",
	              PL_EINVALID,
	              "'engine_version' must be a string (a JSON number would lose digits: 0.10 "
	              "reads as 0.1)",
	              "engine_version", 0, 0);
}

static void test_descriptor_nan(void **state)
{
	(void)state;
	expect_reject("n.json", "{\"model\": \"m\", \"engine\": \"e\",\n \"metric\": {\"ttft_p50\": NaN}}",
	              PL_EINVALID, "'ttft_p50' is NaN (not a number); give a number, or null if unknown",
	              "ttft_p50", 2, 25);
	expect_reject("n.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": -Infinity}}",
	              PL_EINVALID, "'ttft_p50' is -Infinity; no value may be negative", "ttft_p50", 1,
	              54);
	expect_reject("n.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": Infinity}}",
	              PL_EINVALID, "metric 'ttft_p50' must be a finite number, got Infinity",
	              "ttft_p50", 0, 0);
}

static void test_descriptor_nan_in_string_is_text(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_text("t.json",
	                            "{\"model\": \"NaN Infinity\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}",
	                            &l, &err),
	                 0);
	assert_string_equal(l.v[0].cond[PL_C_MODEL].text, "NaN Infinity");
	pl_run_list_release(&l);
}

static void test_descriptor_unknown_unit_and_metric(void **state)
{
	(void)state;
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50_us\": 1}}",
	              PL_EINVALID,
	              "unknown unit 'us' in metric 'ttft_p50_us' (use no suffix or _s for seconds, _ms "
	              "for milliseconds)",
	              "ttft_p50_us", 0, 0);
	expect_reject("u.json",
	              "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"tokens_per_second_p50_ms\": 1}}",
	              PL_EINVALID,
	              "unknown unit 'ms' in metric 'tokens_per_second_p50_ms' (this metric takes no unit "
	              "suffix)",
	              "tokens_per_second_p50_ms", 0, 0);
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p42\": 1}}",
	              PL_EINVALID, "unknown metric 'ttft_p42' (see schema/descriptor.md for metric names)",
	              "ttft_p42", 0, 0);
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"latency\": 1}}",
	              PL_EINVALID, "unknown metric 'latency' (see schema/descriptor.md for metric names)",
	              "latency", 0, 0);
	expect_reject("u.json",
	              "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1, \"ttft_median_ms\": 2}}",
	              PL_EINVALID, "metrics 'ttft_p50' and 'ttft_median_ms' both give 'ttft_p50'",
	              "ttft_median_ms", 0, 0);
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": \"1\"}}",
	              PL_EINVALID, "metric 'ttft_p50' must be a JSON number, got the string \"1\"",
	              "ttft_p50", 0, 0);
}

/* Metric keys are remembered once accepted (descriptor.c, metric_key):
 * the second record must get the same units, a key that only looks like a
 * remembered one must still be refused, and "" never matches an empty slot. */
static void test_descriptor_metric_keys_remembered(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_text("k.jsonl",
	                            "{\"model\": \"m\", \"engine\": \"e\", \"metric\": "
	                            "{\"ttft_p50_ms\": 250, \"ttft_p90\": 0.5}}\n"
	                            "{\"model\": \"m\", \"engine\": \"e\", \"metric\": "
	                            "{\"ttft_p50_ms\": 125, \"ttft_p90_ms\": 500}}\n",
	                            &l, &err),
	                 0);
	assert_int_equal(l.n, 2);
	assert_true(l.v[0].metric[PL_M_TTFT_P50] == 0.25);
	assert_true(l.v[0].metric[PL_M_TTFT_P90] == 0.5);
	assert_true(l.v[1].metric[PL_M_TTFT_P50] == 0.125);
	assert_true(l.v[1].metric[PL_M_TTFT_P90] == 0.5);
	pl_run_list_release(&l);
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50_msx\": 1}}",
	              PL_EINVALID,
	              "unknown unit 'msx' in metric 'ttft_p50_msx' (use no suffix or _s for seconds, "
	              "_ms for milliseconds)",
	              "ttft_p50_msx", 0, 0);
	expect_reject("u.json", "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"\": 1}}",
	              PL_EINVALID, "unknown metric '' (see schema/descriptor.md for metric names)", "",
	              0, 0);
}

/* A number given for a text condition is kept as its digits only below
 * 2^53: 2^53 + 1 reads as 2^53, so from 2^53 on a digit may be lost. */
static void test_descriptor_text_number_2_53(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;

	(void)state;
	assert_int_equal(parse_text("n.json",
	                            "{\"model\": 9007199254740991, \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}",
	                            &l, &err),
	                 0);
	assert_string_equal(l.v[0].cond[PL_C_MODEL].text, "9007199254740991");
	pl_run_list_release(&l);
	expect_reject("n.json",
	              "{\"model\": 9007199254740993, \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}",
	              PL_EINVALID, "'model' must be a string (a JSON number would lose digits)", "model",
	              0, 0);
}

static void test_descriptor_unknown_field(void **state)
{
	(void)state;
	expect_reject("f.json", "{\"model\": \"m\", \"engine\": \"e\", \"precison\": \"bf16\", \"metric\": {}}",
	              PL_EINVALID, "unknown field 'precison'", "precison", 0, 0);
	expect_reject("f.json", "{\"model\": \"m\", \"engine\": \"e\", \"ttft_p50\": 1}", PL_EINVALID,
	              "unknown field 'ttft_p50' (metrics go inside the \"metric\" object)", "ttft_p50",
	              0, 0);
	expect_reject("f.json", "{\"model\": \"m\", \"engine\": \"e\", \"concurrency\": 2.5}", PL_EINVALID,
	              "'concurrency' must be a non-negative whole number or inf, got '2.5'",
	              "concurrency", 0, 0);
}

static void test_descriptor_duplicate_key(void **state)
{
	(void)state;
	expect_reject("d.json",
	              "{\"model\": \"m\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1, \"ttft_p50\": 2}}",
	              PL_EINVALID, "duplicate key 'ttft_p50' (JSON readers disagree on which one wins)",
	              "ttft_p50", 1, 57); /* at the second "ttft_p50" (byte 56, column 57) */
}

static void test_descriptor_bom(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	char text[2048];

	(void)state;
	snprintf(text, sizeof(text), "\xEF\xBB\xBF%s", seed);
	assert_int_equal(parse_text("bom.json", text, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].cond[PL_C_MODEL].text, "gemma-4-31b");
	pl_run_list_release(&l);
}

static void test_descriptor_jsonl(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	const char *good = "{\"model\": \"a\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}\n"
	                   "\n"
	                   "{\"model\": \"b\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 2}}\n";
	const char *bad = "{\"model\": \"a\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}\n"
	                  "{\"model\": \"b\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 2}}\n"
	                  "{\"model\": \"c\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 3}\n"
	                  "{\"model\": \"d\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 4}}\n";

	(void)state;
	assert_int_equal(parse_text("g.jsonl", good, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[1].record, 1);
	assert_string_equal(l.v[1].cond[PL_C_MODEL].text, "b");
	expect_close("ttft_p50", l.v[1].metric[PL_M_TTFT_P50], 2);
	pl_run_list_release(&l);
	/* detected by content too */
	assert_int_equal(parse_text("g.json", good, &l, &err), 0);
	assert_int_equal(l.n, 2);
	pl_run_list_release(&l);
	expect_reject("b.jsonl", bad, PL_ESYNTAX, "invalid JSON: unexpected end of line", NULL, 3, 56);
	expect_reject("b.json", bad, PL_ESYNTAX, "invalid JSON: unexpected '{'", NULL, 4, 1);
	/* a rule broken on line 2 of JSONL is reported at line 2 */
	expect_reject("c.jsonl",
	              "{\"model\": \"a\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}}\n"
	              "{\"model\": \"b\", \"engine\": \"e\", \"metric\": {\"ttft_p5\": 2}}\n",
	              PL_EINVALID, "unknown metric 'ttft_p5' (see schema/descriptor.md for metric names)",
	              "ttft_p5", 2, 0);
}

static void test_descriptor_array(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	const char *text = "[{\"model\": \"a\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 1}},\n"
	                   " {\"model\": \"b\", \"engine\": \"e\", \"metric\": {\"ttft_p50\": 2}}]";

	(void)state;
	assert_int_equal(parse_text("arr.json", text, &l, &err), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].record, 0);
	assert_int_equal(l.v[1].record, 1);
	pl_run_list_release(&l);
	expect_reject("arr.json",
	              "[{\"model\": \"a\", \"engine\": \"e\", \"metric\": {}},\n"
	              " {\"model\": \"b\", \"engine\": \"e\", \"metric\": {\"ttft\": 2}}]",
	              PL_EINVALID,
	              "record 1: unknown metric 'ttft' (see schema/descriptor.md for metric names)",
	              "ttft", 0, 0);
	/* a file of no record is no error: 0 runs, as a CSV of a header alone
	 * (finding 15: the export of an empty ledger imports) */
	{
		static const char *const empty[] = {"[]", " [ \n ]\n", "", "\n\n", "\xEF\xBB\xBF"};
		for (size_t i = 0; i < 5; i++) {
			assert_int_equal(parse_text(i < 2 ? "arr.json" : "e.jsonl", empty[i], &l, &err), 0);
			assert_int_equal(l.n, 0);
		}
	}
	expect_reject("arr.json", "[] x", PL_ESYNTAX, "invalid JSON: unexpected 'x'", NULL, 1, 4);
}

/* Rules that the validator applies to descriptor values. */
static void expect_invalid_run(const char *metric_json, const char *message, const char *field)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	char text[1024];

	snprintf(text, sizeof(text),
	         "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"e\", \"hardware\": \"h\","
	         " \"metric\": %s}",
	         metric_json);
	assert_int_equal(parse_text("r.json", text, &l, &err), 0);
	pl_error_init(&err);
	assert_int_equal(pl_validate_run(&l.v[0], &err), PL_EINVALID);
	assert_string_equal(err.message, message);
	assert_string_equal(err.field, field);
	pl_run_list_release(&l);
}

static void test_descriptor_rules(void **state)
{
	(void)state;
	{
		/* a key in another unit is refused as written (the converted value beside it) */
		struct pl_run_list l = {0};
		struct pl_error err;
		assert_int_equal(parse_text("r.json",
		                            "{\"model\": \"m\", \"precision\": \"bf16\", \"engine\": \"e\","
		                            " \"hardware\": \"h\", \"metric\": {\"ttft_p50_ms\": -5}}",
		                            &l, &err),
		                 PL_EINVALID);
		assert_string_equal(err.message,
		                    "'ttft_p50_ms' = -5 (metric 'ttft_p50' = -0.005 seconds) is outside the "
		                    "plausible range of ttft for seconds, 0 to 86400 (a first token a day later "
		                    "is no measurement; schema/ranges.tsv)");
		assert_string_equal(err.field, "ttft_p50");
		pl_run_list_release(&l);
	}
	expect_invalid_run("{\"error_rate\": 1.5}",
	                   "metric 'error_rate' must be a fraction from 0 to 1, got 1.5", "error_rate");
	expect_invalid_run("{\"ttft_p50\": 0.5, \"ttft_p90\": 0.4}",
	                   "percentiles out of order: 'ttft_p90' = 0.4 is less than 'ttft_p50' = 0.5",
	                   "ttft_p90");
	expect_invalid_run("{}", "the run has no metric (give at least one under \"metric\")", "metric");
}

static void test_forced_format(void **state)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	char want[1024];

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("s.json", seed, strlen(seed), "csv", &l, &err), PL_EUSAGE);
	snprintf(want, sizeof(want), "unknown format 'csv' (known: %s)", known_list());
	assert_string_equal(err.message, want);
	assert_int_equal(strncmp(known_list(), "descriptor, vllm-serving, ", 26), 0);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("s.json", seed, strlen(seed), "descriptor", &l, &err), 0);
	assert_int_equal(l.n, 1);
	pl_run_list_release(&l);
	/* forced vllm-serving on a descriptor: no vLLM keys, no metrics at all,
	 * so no run (the descriptor's metrics are unplaced measurements to it) */
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse("s.json", seed, strlen(seed), "vllm-serving", &l, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "no TTFT/TPOT/ITL/E2EL/throughput found in this vllm-serving "
	                                 "file; result keys seen: metric.error_rate, "
	                                 "metric.tokens_per_second_p50, metric.ttft_p50");
	assert_int_equal(l.n, 0);
	snprintf(want, sizeof(want),
	         "no input format recognises this file (known: %s; force one with --format)",
	         known_list());
	expect_reject("o.json", "{\"hello\": 1}", PL_EFORMAT, want, NULL, 0, 0);
}

static void test_parse_conditions(void **state)
{
	struct pl_run run;
	struct pl_error err;
	const char *side = "{\"precision\": \"fp8\", \"engine\": \"vllm\", \"engine_version\": \"0.10\","
	                   " \"streaming\": true, \"request_rate\": \"inf\", \"temperature\": 0.7,"
	                   " \"concurrency\": null, \"_comment\": \"x\"}";

	(void)state;
	pl_run_init(&run);
	pl_run_set_cond(&run, PL_C_CONCURRENCY, "8", NULL);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse_conditions("s.conditions.json", side, strlen(side), &run, &err),
	                 0);
	assert_string_equal(run.cond[PL_C_PRECISION].text, "fp8");
	assert_string_equal(run.cond[PL_C_ENGINE_VERSION].text, "0.10");
	assert_string_equal(run.cond[PL_C_STREAMING].text, "true");
	assert_string_equal(run.cond[PL_C_REQUEST_RATE].text, "inf");
	assert_string_equal(run.cond[PL_C_TEMPERATURE].text, "0.7");
	assert_int_equal(run.cond[PL_C_CONCURRENCY].set, 0);
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse_conditions("s.conditions.json", "{\"gpu\": \"a100\"}", 15,
	                                              &run, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "unknown field 'gpu'");
	assert_string_equal(err.file, "s.conditions.json");
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse_conditions("s.conditions.json", "[1]", 3, &run, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message, "a conditions file must hold one JSON object, got an array");
	pl_error_init(&err);
	assert_int_equal(pl_adapters_parse_conditions("s.conditions.json", "{\"model\": \"a\"} x", 16,
	                                              &run, &err),
	                 PL_ESYNTAX);
	assert_string_equal(err.message, "invalid JSON: unexpected 'x' after the value");
	assert_int_equal(err.column, 16);
	pl_run_release(&run);
}

/* The checked JSON reader of the render layer (adapters/jsonread.h):
 * the input readers' positions and duplicate-key refusal, and typed
 * getters answering 0 (there, right type), 1 (absent or null) or
 * PL_EINVALID (another type). */
static void test_jsonread(void **state)
{
	static const char text[] = "{\"s\": \"x\", \"n\": 2.5, \"b\": true, \"z\": null,\n"
	                           " \"a\": [1, \"two\", 3], \"o\": {\"k2\": 1, \"k1\": 2}}";
	struct pl_jsonread *doc = NULL;
	const struct pl_jsonval *root, *v, *e;
	struct pl_jsonread_iter it;
	struct pl_error err;
	const char *str, *key;
	double num;
	int b;
	size_t n;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_jsonread_parse("t.json", text, strlen(text), &doc, &err), 0);
	root = pl_jsonread_root(doc);
	assert_int_equal(pl_jsonread_type(root), PL_JT_OBJECT);

	assert_int_equal(pl_jsonread_member(root, "s", &v, &err), 0);
	assert_int_equal(pl_jsonread_string(v, &str, &err), 0);
	assert_string_equal(str, "x");
	assert_int_equal(pl_jsonread_number(v, &num, &err), PL_EINVALID);
	assert_string_equal(err.message, "a number was expected, got a string");
	assert_int_equal(pl_jsonread_member(root, "n", &v, &err), 0);
	assert_int_equal(pl_jsonread_number(v, &num, &err), 0);
	assert_true(num == 2.5);
	assert_int_equal(pl_jsonread_member(root, "b", &v, &err), 0);
	assert_int_equal(pl_jsonread_bool(v, &b, &err), 0);
	assert_int_equal(b, 1);
	/* null and a missing member are both absent */
	assert_int_equal(pl_jsonread_member(root, "z", &v, &err), 0);
	assert_int_equal(pl_jsonread_type(v), PL_JT_NULL);
	assert_int_equal(pl_jsonread_string(v, &str, &err), 1);
	assert_int_equal(pl_jsonread_member(root, "S", &v, &err), 1); /* case-sensitive */
	assert_null(v);
	assert_int_equal(pl_jsonread_type(v), PL_JT_ABSENT);
	assert_int_equal(pl_jsonread_number(v, &num, &err), 1);

	/* arrays: length, element, iteration without keys */
	assert_int_equal(pl_jsonread_member(root, "a", &v, &err), 0);
	assert_int_equal(pl_jsonread_length(v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(pl_jsonread_element(v, 1, &e, &err), 0);
	assert_int_equal(pl_jsonread_string(e, &str, &err), 0);
	assert_string_equal(str, "two");
	assert_int_equal(pl_jsonread_element(v, 3, &e, &err), 1);
	assert_int_equal(pl_jsonread_member(v, "x", &e, &err), PL_EINVALID);
	assert_int_equal(pl_jsonread_iter(v, &it, &err), 0);
	n = 0;
	while (pl_jsonread_next(&it, &key, &e)) {
		assert_null(key);
		n++;
	}
	assert_int_equal(n, 3);

	/* objects: members in file order, with their keys */
	assert_int_equal(pl_jsonread_member(root, "o", &v, &err), 0);
	assert_int_equal(pl_jsonread_element(v, 0, &e, &err), PL_EINVALID);
	assert_int_equal(pl_jsonread_iter(v, &it, &err), 0);
	assert_int_equal(pl_jsonread_next(&it, &key, &e), 1);
	assert_string_equal(key, "k2");
	assert_int_equal(pl_jsonread_next(&it, &key, &e), 1);
	assert_string_equal(key, "k1");
	assert_int_equal(pl_jsonread_number(e, &num, &err), 0);
	assert_true(num == 2);
	assert_int_equal(pl_jsonread_next(&it, &key, &e), 0);
	assert_int_equal(pl_jsonread_member(root, "s", &v, &err), 0);
	assert_int_equal(pl_jsonread_iter(v, &it, &err), PL_EINVALID);
	assert_int_equal(pl_jsonread_next(&it, &key, &e), 0);
	pl_jsonread_free(doc);
	pl_jsonread_free(NULL);

	/* errors: line and column, duplicate keys, bare NaN */
	pl_error_init(&err);
	assert_int_equal(pl_jsonread_parse("t.json", "{\"a\": 1,\n  \"b\" 2}", 17, &doc, &err),
	                 PL_ESYNTAX);
	assert_null(doc);
	assert_string_equal(err.file, "t.json");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 7);
	pl_error_init(&err);
	assert_int_equal(pl_jsonread_parse("t.json", "{\"a\": {\"b\": 1, \"b\": 2}}", 23, &doc, &err),
	                 PL_EINVALID);
	assert_string_equal(err.message,
	                    "duplicate key 'b' (JSON readers disagree on which one wins)");
	assert_int_equal(err.column, 16);
	pl_error_init(&err);
	assert_int_equal(pl_jsonread_parse("t.json", "{\"a\": NaN}", 10, &doc, &err), PL_EINVALID);
	assert_string_equal(err.field, "a");
}

static void test_adapters_list(void **state)
{
	size_t n = 0;
	const struct pl_adapter_info *a = pl_adapters_list(&n);

	(void)state;
	assert_true(n >= 2); /* test_tool_results.c checks the tool adapters */
	assert_string_equal(a[0].name, "descriptor");
	assert_string_equal(a[0].versions, "1");
	assert_string_equal(a[1].name, "vllm-serving");
	for (size_t i = 0; i < n; i++) {
		assert_non_null(a[i].description);
		assert_non_null(a[i].mapping);
		assert_non_null(a[i].mapping[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_ascend_partial),
		cmocka_unit_test(test_vllm_bench_serve_opt125m),
		cmocka_unit_test(test_vllm_sweep_run0),
		cmocka_unit_test(test_vllm_sweep_summary),
		cmocka_unit_test(test_vllm_ix_gptoss),
		cmocka_unit_test(test_vllm_ix_kimi),
		cmocka_unit_test(test_vllm_llmk8s_full),
		cmocka_unit_test(test_vllm_all_failed_stored),
		cmocka_unit_test(test_vllm_nightly_table_not_read),
		cmocka_unit_test(test_vllm_corpus_validates),
		cmocka_unit_test(test_vllm_bare_infinity),
		cmocka_unit_test(test_vllm_case_ramp_up),
		cmocka_unit_test(test_vllm_case_completions_vs_chat),
		cmocka_unit_test(test_vllm_endpoint_type),
		cmocka_unit_test(test_vllm_short_output_refused),
		cmocka_unit_test(test_descriptor_seed),
		cmocka_unit_test(test_descriptor_units),
		cmocka_unit_test(test_descriptor_syntax_error_position),
		cmocka_unit_test(test_descriptor_version_as_number),
		cmocka_unit_test(test_descriptor_nan),
		cmocka_unit_test(test_descriptor_nan_in_string_is_text),
		cmocka_unit_test(test_descriptor_unknown_unit_and_metric),
		cmocka_unit_test(test_descriptor_metric_keys_remembered),
		cmocka_unit_test(test_descriptor_text_number_2_53),
		cmocka_unit_test(test_descriptor_unknown_field),
		cmocka_unit_test(test_descriptor_duplicate_key),
		cmocka_unit_test(test_descriptor_bom),
		cmocka_unit_test(test_descriptor_jsonl),
		cmocka_unit_test(test_descriptor_array),
		cmocka_unit_test(test_descriptor_rules),
		cmocka_unit_test(test_forced_format),
		cmocka_unit_test(test_parse_conditions),
		cmocka_unit_test(test_adapters_list),
		cmocka_unit_test(test_jsonread),
	};
	pl_adapters_init(); /* cJSON's allocator hooks, as main() does */
	return shared_exit(cmocka_run_group_tests(tests, NULL, NULL));
}

/*
 * test_render.c — tables and escapers: exact output for a hand-built
 * comparison (text, Markdown, CSV, JSON), hostile strings, the C locale
 * and write errors.
 */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/render.h"
#include "render/render_impl.h"

#include "render_fixture.h"

/* Runs fn into a memory stream and returns what it wrote (caller frees). */
#define CAPTURE(buf, call)                                  \
	do {                                                    \
		size_t cap_len_ = 0;                                \
		FILE *out = open_memstream(&(buf), &cap_len_);      \
		assert_non_null(out);                               \
		assert_int_equal((call), 0);                        \
		assert_int_equal(fclose(out), 0);                   \
	} while (0)

static const char golden_text[] =
	"axis: hardware\n"
	"shared: model=gemma-4-31b, precision=bfloat16, engine=vllm, engine_version=0.6.3, driver_version=550.54, input_tokens=512, max_output_tokens=256, concurrency=8, request_rate=inf, streaming=true\n"
	"hardware                           accelerator_count  n            ttft_p50 (s)   delta            ttft_p95 (s)   delta  tpot_p50 (s)   delta  output_throughput (tok/s)   delta  error_rate (fraction)  delta\n"
	"---------------------------------  -----------------  -  ----------------------  ------  ----------------------  ------  ------------  ------  -------------------------  ------  ---------------------  -----\n"
	"2x NVIDIA A100 80G                 2                  3  0.3200 (0.3000\u20130.3500)       -  0.4100 (0.4000\u20130.4500)       -       0.02100       -           1234 (1200\u20131250)       -                      0      -\n"
	"1x NVIDIA H100 80G *               1                  1                  0.2500  -21.9%                       -       -       0.01800  -14.3%                       1500  +21.5%                0.01000      -\n"
	"evil\"`system('rm')`?|<script>=1+1  -                  1                  0.5000  +56.2%                  0.7500  +82.9%             -       -                          -       -                      -      -\n"
	"* includes reference-only runs (publication checklist items missing)\n"
	"caveat: 1x NVIDIA H100 80G: 1 of 1 runs is reference-only\n"
	"caveat: driver_version differs ?[31m(allowed)\n";

static const char golden_markdown[] =
	"axis: hardware\n"
	"\n"
	"shared: model=gemma-4-31b, precision=bfloat16, engine=vllm, engine_version=0.6.3, driver_version=550.54, input_tokens=512, max_output_tokens=256, concurrency=8, request_rate=inf, streaming=true\n"
	"\n"
	"| hardware | accelerator_count | n | ttft_p50 (s) | delta | ttft_p95 (s) | delta | tpot_p50 (s) | delta | output_throughput (tok/s) | delta | error_rate (fraction) | delta |\n"
	"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	"| 2x NVIDIA A100 80G | 2 | 3 | 0.3200 (0.3000\u20130.3500) | - | 0.4100 (0.4000\u20130.4500) | - | 0.02100 | - | 1234 (1200\u20131250) | - | 0 | - |\n"
	"| 1x NVIDIA H100 80G \\* | 1 | 1 | 0.2500 | -21.9% | - | - | 0.01800 | -14.3% | 1500 | +21.5% | 0.01000 | - |\n"
	"| evil\"\\`system('rm')\\` \\|\\<script\\>=1+1 | - | 1 | 0.5000 | +56.2% | 0.7500 | +82.9% | - | - | - | - | - | - |\n"
	"\n"
	"\\* includes reference-only runs (publication checklist items missing)\n"
	"\n"
	"- caveat: 1x NVIDIA H100 80G: 1 of 1 runs is reference-only\n"
	"- caveat: driver\\_version differs ?\\[31m(allowed)\n";

static const char golden_csv[] =
	"hardware,accelerator_count,n,reference_only,ttft_p50 (s),ttft_p95 (s),tpot_p50 (s),output_throughput (tok/s),error_rate (fraction),ttft_p50 delta_pct,ttft_p95 delta_pct,tpot_p50 delta_pct,output_throughput delta_pct,error_rate delta_pct\r\n"
	"2x NVIDIA A100 80G,2,3,0,0.32,0.41,0.021,1234.5,0,,,,,\r\n"
	"1x NVIDIA H100 80G,1,1,1,0.25,,0.018,1500,0.01,-21.875,,-14.286,21.507,\r\n"
	"\"evil\"\"`system('rm')`\n"
	"|<script>=1+1\",,1,0,0.5,0.75,,,,56.25,82.927,,,\r\n";

static const char golden_json[] =
	"{\n"
	"  \"axis\": [\"hardware\"],\n"
	"  \"shared_conditions\": {\"model\": \"gemma-4-31b\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"driver_version\": \"550.54\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"request_rate\": \"inf\", \"streaming\": true},\n"
	"  \"rows\": [\n"
	"    {\"axis\": {\"hardware\": \"2x NVIDIA A100 80G\", \"accelerator_count\": 2, \"driver_version\": \"550.54\"}, \"baseline_row\": 0, \"n\": 3, \"run_ids\": [1, 2, 3], \"reference_only\": 0, \"metrics\": {\"ttft_p50\": 0.32, \"ttft_p95\": 0.41, \"tpot_p50\": 0.021, \"output_throughput\": 1234.5, \"error_rate\": 0}, \"min\": {\"ttft_p50\": 0.3, \"ttft_p95\": 0.4, \"tpot_p50\": 0.021, \"output_throughput\": 1200, \"error_rate\": 0}, \"max\": {\"ttft_p50\": 0.35, \"ttft_p95\": 0.45, \"tpot_p50\": 0.021, \"output_throughput\": 1250.5, \"error_rate\": 0}, \"delta_pct\": {}},\n"
	"    {\"axis\": {\"hardware\": \"1x NVIDIA H100 80G\", \"accelerator_count\": 1, \"driver_version\": \"550.54\"}, \"baseline_row\": 0, \"n\": 1, \"run_ids\": [4], \"reference_only\": 1, \"metrics\": {\"ttft_p50\": 0.25, \"tpot_p50\": 0.018, \"output_throughput\": 1500, \"error_rate\": 0.01}, \"min\": {\"ttft_p50\": 0.25, \"tpot_p50\": 0.018, \"output_throughput\": 1500, \"error_rate\": 0.01}, \"max\": {\"ttft_p50\": 0.25, \"tpot_p50\": 0.018, \"output_throughput\": 1500, \"error_rate\": 0.01}, \"delta_pct\": {\"ttft_p50\": -21.875, \"tpot_p50\": -14.286, \"output_throughput\": 21.507}},\n"
	"    {\"axis\": {\"hardware\": \"evil\\\"`system('rm')`\\n|<script>=1+1\", \"driver_version\": \"550.54\"}, \"baseline_row\": 0, \"n\": 1, \"run_ids\": [5], \"reference_only\": 0, \"metrics\": {\"ttft_p50\": 0.5, \"ttft_p95\": 0.75}, \"min\": {\"ttft_p50\": 0.5, \"ttft_p95\": 0.75}, \"max\": {\"ttft_p50\": 0.5, \"ttft_p95\": 0.75}, \"delta_pct\": {\"ttft_p50\": 56.25, \"ttft_p95\": 82.927}}\n"
	"  ],\n"
	"  \"caveats\": [\"1x NVIDIA H100 80G: 1 of 1 runs is reference-only\", \"driver_version differs \\u001b[31m(allowed)\"]\n"
	"}\n";

static const char golden_runs_text[] =
	"id  model        precision  engine  engine_version  hardware                           concurrency  input_tokens  max_output_tokens  ttft_p50 (s)  tpot_p50 (s)  output_throughput (tok/s)  ref  source\n"
	"--  -----------  ---------  ------  --------------  ---------------------------------  -----------  ------------  -----------------  ------------  ------------  -------------------------  ---  -----------------------\n"
	" 1  gemma-4-31b  bfloat16   vllm    0.6.3           2x NVIDIA A100 80G                 8            512           256                      0.3100       0.02000                       1200       a100-1.json\n"
	" 2  gemma-4-31b  bfloat16   vllm    0.6.3           2x NVIDIA A100 80G                 8            512           256                      0.3200       0.02000                       1234       a100-2.json\n"
	" 3  gemma-4-31b  bfloat16   vllm    0.6.3           2x NVIDIA A100 80G                 8            512           256                      0.3300       0.02000                       1250       a100-3.json\n"
	" 4  gemma-4-31b  bfloat16   vllm    0.6.3           1x NVIDIA H100 80G                 8            512           256                      0.2500       0.02000                       1500  *    h100.json\n"
	" 5  gemma-4-31b  bfloat16   vllm    0.6.3           evil\"`system('rm')`?|<script>=1+1  8            512           256                      0.5000       0.02000                          -  *    =cmd|' /C calc'!A0.json\n"
	"99  gemma-4-31b  bfloat16   vllm    0.6.3           not in the comparison              8            512           256                       1.000       0.02000                      1.000       other.json\n"
	"* reference-only: publication checklist items missing\n";

static const char golden_runs_markdown[] =
	"| id | model | precision | engine | engine_version | hardware | concurrency | input_tokens | max_output_tokens | ttft_p50 (s) | tpot_p50 (s) | output_throughput (tok/s) | ref | source |\n"
	"|---:|---|---|---|---|---|---|---|---|---:|---:|---:|---|---|\n"
	"| 1 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | 2x NVIDIA A100 80G | 8 | 512 | 256 | 0.3100 | 0.02000 | 1200 |  | a100-1.json |\n"
	"| 2 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | 2x NVIDIA A100 80G | 8 | 512 | 256 | 0.3200 | 0.02000 | 1234 |  | a100-2.json |\n"
	"| 3 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | 2x NVIDIA A100 80G | 8 | 512 | 256 | 0.3300 | 0.02000 | 1250 |  | a100-3.json |\n"
	"| 4 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | 1x NVIDIA H100 80G | 8 | 512 | 256 | 0.2500 | 0.02000 | 1500 | \\* | h100.json |\n"
	"| 5 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | evil\"\\`system('rm')\\` \\|\\<script\\>=1+1 | 8 | 512 | 256 | 0.5000 | 0.02000 | - | \\* | =cmd\\|' /C calc'!A0.json |\n"
	"| 99 | gemma-4-31b | bfloat16 | vllm | 0.6.3 | not in the comparison | 8 | 512 | 256 | 1.000 | 0.02000 | 1.000 |  | other.json |\n"
	"\n"
	"\\* reference-only: publication checklist items missing\n";

static const char golden_runs_csv[] =
	"id,model,precision,engine,engine_version,hardware,concurrency,input_tokens,max_output_tokens,ttft_p50 (s),tpot_p50 (s),output_throughput (tok/s),reference_only,source\r\n"
	"1,gemma-4-31b,bfloat16,vllm,0.6.3,2x NVIDIA A100 80G,8,512,256,0.31,0.02,1200,false,a100-1.json\r\n"
	"2,gemma-4-31b,bfloat16,vllm,0.6.3,2x NVIDIA A100 80G,8,512,256,0.32,0.02,1234.5,false,a100-2.json\r\n"
	"3,gemma-4-31b,bfloat16,vllm,0.6.3,2x NVIDIA A100 80G,8,512,256,0.33,0.02,1250,false,a100-3.json\r\n"
	"4,gemma-4-31b,bfloat16,vllm,0.6.3,1x NVIDIA H100 80G,8,512,256,0.25,0.02,1500,true,h100.json\r\n"
	"5,gemma-4-31b,bfloat16,vllm,0.6.3,\"evil\"\"`system('rm')`\n"
	"|<script>=1+1\",8,512,256,0.5,0.02,,true,'=cmd|' /C calc'!A0.json\r\n"
	"99,gemma-4-31b,bfloat16,vllm,0.6.3,not in the comparison,8,512,256,1,0.02,1,false,other.json\r\n";

static const char golden_runs_json[] =
	"[\n"
	"  {\"id\": 1, \"source\": \"a100-1.json\", \"sha256\": \"123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": false, \"checklist_missing\": [], \"conditions\": {\"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"2x NVIDIA A100 80G\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"warmup_requests\": 3}, \"metrics\": {\"ttft_p50\": 0.31, \"ttft_p95\": 0.3875, \"tpot_p50\": 0.02, \"output_throughput\": 1200}},\n"
	"  {\"id\": 2, \"source\": \"a100-2.json\", \"sha256\": \"23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef01\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": false, \"checklist_missing\": [], \"conditions\": {\"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"2x NVIDIA A100 80G\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"warmup_requests\": 3}, \"metrics\": {\"ttft_p50\": 0.32, \"ttft_p95\": 0.4, \"tpot_p50\": 0.02, \"output_throughput\": 1234.5}},\n"
	"  {\"id\": 3, \"source\": \"a100-3.json\", \"sha256\": \"3456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef012\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": false, \"checklist_missing\": [], \"conditions\": {\"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"2x NVIDIA A100 80G\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"warmup_requests\": 3}, \"metrics\": {\"ttft_p50\": 0.33, \"ttft_p95\": 0.41250000000000003, \"tpot_p50\": 0.02, \"output_throughput\": 1250}},\n"
	"  {\"id\": 4, \"source\": \"h100.json\", \"sha256\": \"456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": true, \"checklist_missing\": [\"weights source\", \"warm-up\"], \"conditions\": {\"model\": \"gemma-4-31b\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"1x NVIDIA H100 80G\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8}, \"metrics\": {\"ttft_p50\": 0.25, \"ttft_p95\": 0.3125, \"tpot_p50\": 0.02, \"output_throughput\": 1500}},\n"
	"  {\"id\": 5, \"source\": \"=cmd|' /C calc'!A0.json\", \"sha256\": \"56789abcdef0123456789abcdef0123456789abcdef0123456789abcdef01234\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": true, \"checklist_missing\": [\"throughput\"], \"conditions\": {\"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"evil\\\"`system('rm')`\\n|<script>=1+1\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"warmup_requests\": 3}, \"metrics\": {\"ttft_p50\": 0.5, \"ttft_p95\": 0.625, \"tpot_p50\": 0.02}},\n"
	"  {\"id\": 99, \"source\": \"other.json\", \"sha256\": \"3456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef012\", \"record\": 0, \"adapter\": \"descriptor\", \"imported_at\": \"2026-01-02T03:04:05Z\", \"reference_only\": false, \"checklist_missing\": [], \"conditions\": {\"model\": \"gemma-4-31b\", \"model_source\": \"huggingface\", \"precision\": \"bfloat16\", \"engine\": \"vllm\", \"engine_version\": \"0.6.3\", \"engine_args\": \"--tp 2\", \"hardware\": \"not in the comparison\", \"driver_version\": \"550.54\", \"cuda_version\": \"12.4\", \"input_tokens\": 512, \"max_output_tokens\": 256, \"concurrency\": 8, \"warmup_requests\": 3}, \"metrics\": {\"ttft_p50\": 1, \"ttft_p95\": 1.25, \"tpot_p50\": 0.02, \"output_throughput\": 1}}\n"
	"]\n";

static void check_comparison(enum pl_table_format fmt, const char *expected)
{
	struct pl_comparison cmp;
	struct pl_error err;
	char *buf = NULL;

	pl_error_init(&err);
	fixture_comparison(&cmp);
	CAPTURE(buf, pl_render_comparison(out, &cmp, fmt, &err));
	assert_string_equal(buf, expected);
	free(buf);
}

static void check_runs(enum pl_table_format fmt, const char *expected)
{
	struct pl_run_list runs;
	struct pl_error err;
	char *buf = NULL;

	pl_error_init(&err);
	fixture_runs(&runs);
	CAPTURE(buf, pl_render_runs(out, &runs, fmt, &err));
	assert_string_equal(buf, expected);
	free(buf);
	pl_run_list_release(&runs);
}

static void test_comparison_text(void **state)
{
	(void)state;
	check_comparison(PL_FMT_TEXT, golden_text);
}

static void test_comparison_markdown(void **state)
{
	(void)state;
	check_comparison(PL_FMT_MARKDOWN, golden_markdown);
}

static void test_comparison_csv(void **state)
{
	(void)state;
	check_comparison(PL_FMT_CSV, golden_csv);
}

static void test_comparison_json(void **state)
{
	(void)state;
	check_comparison(PL_FMT_JSON, golden_json);
}

static void test_runs_text(void **state)
{
	(void)state;
	check_runs(PL_FMT_TEXT, golden_runs_text);
}

static void test_runs_markdown(void **state)
{
	(void)state;
	check_runs(PL_FMT_MARKDOWN, golden_runs_markdown);
}

static void test_runs_csv(void **state)
{
	(void)state;
	check_runs(PL_FMT_CSV, golden_runs_csv);
}

static void test_runs_json(void **state)
{
	(void)state;
	check_runs(PL_FMT_JSON, golden_runs_json);
}

static void test_runs_empty(void **state)
{
	struct pl_run_list runs = {0};
	struct pl_error err;
	char *buf = NULL;

	(void)state;
	pl_error_init(&err);
	CAPTURE(buf, pl_render_runs(out, &runs, PL_FMT_JSON, &err));
	assert_string_equal(buf, "[]\n");
	free(buf);
	CAPTURE(buf, pl_render_runs(out, &runs, PL_FMT_CSV, &err));
	assert_string_equal(buf, "id,model,precision,engine,engine_version,hardware,concurrency,"
	                         "input_tokens,max_output_tokens,ttft_p50 (s),tpot_p50 (s),"
	                         "output_throughput (tok/s),reference_only,source\r\n");
	free(buf);
}

/* Extra conditions every run shares follow the canonical ones on the
 * "shared:" line and in shared_conditions; their names and values come from
 * input files and are escaped like any value. */
static void test_shared_extras(void **state)
{
	static struct pl_extra extras[] = {
		{(char *)"descriptor.x_pool", (char *)"a|b"},
		{(char *)"vllm-serving.\x1b[2Jlabel", (char *)"\"night`ly\""},
	};
	struct pl_comparison cmp;
	struct pl_error err;
	char *buf = NULL;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	cmp.shared_extra = extras;
	cmp.nshared_extra = 2;
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_TEXT, &err));
	assert_non_null(strstr(buf, "request_rate=inf, streaming=true, descriptor.x_pool=a|b, "
	                            "vllm-serving.?[2Jlabel=\"night`ly\"\n"));
	free(buf);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_MARKDOWN, &err));
	assert_non_null(strstr(buf, "streaming=true, descriptor.x\\_pool=a\\|b, "
	                            "vllm-serving.?\\[2Jlabel=\"night\\`ly\"\n"));
	free(buf);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_JSON, &err));
	assert_non_null(strstr(buf, "\"streaming\": true, \"descriptor.x_pool\": \"a|b\", "
	                            "\"vllm-serving.\\u001b[2Jlabel\": \"\\\"night`ly\\\"\"},\n"));
	free(buf);
}

/* The whole text of path, or NULL when it cannot be read. Caller frees. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long len = ftell(f);
		if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)len + 1)))
			n = fread(buf, 1, (size_t)len, f);
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* The documented table of condition fields (compared or per run, and what
 * travels with which axis field) is the model's: docs/compare.md and
 * schema/descriptor.md hold exactly pl_render_condition_table()'s text. On
 * a mismatch the table is left in test-tmp/conditions.md to paste. */
static void test_condition_table_documented(void **state)
{
	static const char *const docs[] = {PL_SOURCE_DIR "/docs/compare.md",
	                                   PL_SOURCE_DIR "/schema/descriptor.md"};
	struct pl_error err;
	char *table = NULL;
	FILE *keep;

	(void)state;
	pl_error_init(&err);
	CAPTURE(table, pl_render_condition_table(out, &err));
	/* spot checks against model.h, by hand */
	assert_non_null(strstr(table, "| name | value | flags | travels with | meaning |\n"
	                              "|---|---|---|---|---|\n"
	                              "| `model` | string | required, key | \u2014 | model name as served |\n"));
	assert_non_null(strstr(table, "\n| `engine_args` | string | key, checklist | `engine`, "
	                              "`hardware` | engine launch parameters as given |\n"));
	assert_non_null(strstr(table, "\n| `tensor_parallel_size` | integer or \"inf\" | key | "
	                              "`hardware` | tensor parallel size |\n"));
	assert_non_null(strstr(table, "\n| `run_started_at` | string (ISO 8601) | per run | \u2014 | "
	                              "when the run started, UTC |\n"));
	assert_non_null(strstr(table, "\n| `ramp_up_strategy` | string | key | \u2014 | "));
	assert_null(strchr(strstr(table, "| `model`"), '\r'));
	(void)mkdir(PL_TEST_TMP, 0777);
	keep = fopen(PL_TEST_TMP "/conditions.md", "w");
	if (keep) {
		fputs(table, keep);
		fclose(keep);
	}
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		char *doc = read_file(docs[i]);
		assert_non_null(doc);
		if (!strstr(doc, table))
			fail_msg("%s does not hold the condition table of src/core/model.h; "
			         "paste " PL_TEST_TMP "/conditions.md over it",
			         docs[i]);
		free(doc);
	}
	free(table);
}

/* schema/descriptor.schema.json names every condition field with the
 * model's description (its run object has additionalProperties false: a
 * field missing there would fail a schema check of a valid descriptor). */
static void test_condition_schema_documented(void **state)
{
	char *schema = read_file(PL_SOURCE_DIR "/schema/descriptor.schema.json");
	char want[512];

	(void)state;
	assert_non_null(schema);
	for (int id = 0; id < PL_COND_COUNT; id++) {
		const char *at;
		snprintf(want, sizeof(want), "\n        \"%s\": {", pl_cond_info[id].name);
		at = strstr(schema, want);
		if (!at)
			fail_msg("schema/descriptor.schema.json lacks condition '%s'", pl_cond_info[id].name);
		snprintf(want, sizeof(want), "\"description\": \"%s\"\n        }",
		         pl_cond_info[id].description);
		const char *desc = strstr(at, want), *next = strstr(at + 1, "\n        \"");
		if (!desc || (next && desc > next)) /* within this field's object */
			fail_msg("schema/descriptor.schema.json: '%s' is not described as in model.h",
			         pl_cond_info[id].name);
	}
	free(schema);
}

/* Chinese names are two columns wide per character: the table still lines up. */
static void test_text_wide_chars(void **state)
{
	static struct pl_compare_row rows[2];
	static long long a[] = {1}, b[] = {2};
	struct pl_comparison cmp;
	struct pl_error err;
	char *buf = NULL;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	cmp.axis[0] = PL_C_HARDWARE;
	cmp.naxis = 1;
	cmp.metrics[0] = PL_M_TTFT_P50;
	cmp.nmetrics = 1;
	cmp.varies[PL_C_HARDWARE] = 1;
	fx_set(&rows[0].axis[PL_C_HARDWARE], "2x NVIDIA A100 80G", 0);
	rows[0].n = 1;
	rows[0].run_ids = a;
	fx_metric(&rows[0], PL_M_TTFT_P50, 0.32);
	fx_set(&rows[1].axis[PL_C_HARDWARE], "华为 昇腾 910B", 0);
	rows[1].n = 1;
	rows[1].run_ids = b;
	fx_metric(&rows[1], PL_M_TTFT_P50, 0.0123456);
	fx_delta(&rows[1], PL_M_TTFT_P50, -96.142);
	cmp.rows = rows;
	cmp.nrows = 2;
	pl_error_init(&err);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_TEXT, &err));
	assert_string_equal(buf, "axis: hardware\n"
	                         "shared: (none)\n"
	                         "hardware            n  ttft_p50 (s)   delta\n"
	                         "------------------  -  ------------  ------\n"
	                         "2x NVIDIA A100 80G  1        0.3200       -\n"
	                         "华为 昇腾 910B      1       0.01235  -96.1%\n");
	free(buf);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_JSON, &err));
	assert_non_null(strstr(buf, "\"hardware\": \"华为 昇腾 910B\""));
	free(buf);
}

static void test_json_escape(void **state)
{
	char *buf = NULL;

	(void)state;
	CAPTURE(buf, pl_json_write_string(out, "a\"b\\c\n\r\t\b\f\x01\x1b\x7f" "中\xe2\x80\xa8/"));
	assert_string_equal(buf, "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001b\\u007f中\\u2028/\"");
	free(buf);
	/* invalid UTF-8: stray byte, overlong, truncated, surrogate, > U+10FFFF */
	CAPTURE(buf, pl_json_write_string(out, "x\xff" "y\xc0\xaf" "z\xed\xa0\x80" "w\xf4\x90\x80\x80" "v\xe4\xb8"));
	assert_string_equal(buf, "\"x\xef\xbf\xbdy\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd"
	                         "\xef\xbf\xbdw\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	                         "v\xef\xbf\xbd\xef\xbf\xbd\"");
	free(buf);
	CAPTURE(buf, pl_json_write_string(out, NULL));
	assert_string_equal(buf, "\"\"");
	free(buf);
	CAPTURE(buf, pl_json_write_string(out, HOSTILE));
	assert_string_equal(buf, "\"evil\\\"`system('rm')`\\n|<script>=1+1\"");
	free(buf);
}

static void test_markdown_escape(void **state)
{
	char *buf = NULL;

	(void)state;
	CAPTURE(buf, pl_markdown_write_cell(out, "a|b\\c`d*e_f<g>h[i]j#k\nl\rm\tn\x1bo 中文 ![x](y)"));
	assert_string_equal(buf, "a\\|b\\\\c\\`d\\*e\\_f\\<g\\>h\\[i\\]j\\#k l m n?o 中文 !\\[x\\](y)");
	free(buf);
	CAPTURE(buf, pl_markdown_write_cell(out, HOSTILE));
	assert_string_equal(buf, "evil\"\\`system('rm')\\` \\|\\<script\\>=1+1");
	free(buf);
	CAPTURE(buf, pl_markdown_write_cell(out, "&amp;&lt;"));
	assert_string_equal(buf, "\\&amp;\\&lt;"); /* shown as typed, not as "&<" */
	free(buf);
	CAPTURE(buf, pl_markdown_write_cell(out, "bad\xff\x9b" "c\xc2\x9b" "d\xe2\x81\xa6" "e\x7f"));
	assert_string_equal(buf, "bad??c?d?e?"); /* the terminal rule, as in text tables */
	free(buf);
}

static void test_csv_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "plain"},
		{"", ""},
		{"=1+1", "'=1+1"},
		{"+1", "'+1"},
		{"-1", "'-1"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "\"'?x\""},
		{"\x1b[31mred\x07", "?[31mred?"},
		{"c1\xc2\x9b", "c1?"},
		{"bidi\xe2\x80\xae", "bidi?"},
		{"a,b", "\"a,b\""},
		{"say \"hi\"", "\"say \"\"hi\"\"\""},
		{"=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""},
		{"line1\nline2", "\"line1\nline2\""},
		{"a=1", "a=1"},
		{"中文,名", "\"中文,名\""},
		{HOSTILE, "\"evil\"\"`system('rm')`\n|<script>=1+1\""},
		{"bad\xff", "bad\xef\xbf\xbd"},
	};
	char *buf = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CAPTURE(buf, pl_csv_write_field(out, cases[i].in));
		assert_string_equal(buf, cases[i].out);
		free(buf);
		buf = NULL;
	}
}

static void test_text_sanitize(void **state)
{
	char *s;

	(void)state;
	s = pl_text_sanitize("a\x1b[31mb\x9b" "c\xc2\x9b" "d\xe2\x80\xae" "e\x7f" "f\n中");
	assert_non_null(s);
	assert_string_equal(s, "a?[31mb?c?d?e?f?中");
	free(s);
	assert_int_equal(pl_text_width("中文ab"), 6);
	assert_int_equal(pl_text_width("e\xcc\x81"), 1);
	assert_int_equal(pl_text_width(""), 0);
	/* cut to a width: the last column is an ellipsis; what fits is kept */
	s = pl_text_sanitize_cut("abcdefgh", 5);
	assert_string_equal(s, "abcd\xe2\x80\xa6");
	free(s);
	s = pl_text_sanitize_cut("abcde", 5);
	assert_string_equal(s, "abcde");
	free(s);
	s = pl_text_sanitize_cut("中文中文", 5); /* wide characters: 2 columns each */
	assert_string_equal(s, "中文\xe2\x80\xa6");
	free(s);
	s = pl_text_sanitize_cut("\x1b[2Jxyz", 4);
	assert_string_equal(s, "?[2\xe2\x80\xa6");
	free(s);
}

static void test_number_formats(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 0.32), "0.3200");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 45.2), "45.20");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 12345.0), "12345");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 9.99996), "10.00");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 0.0123456), "0.01235");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 0), "0");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), INFINITY), "inf");
	assert_string_equal(pl_fmt_sig4(buf, sizeof(buf), 1.5e-9), "1.500e-09");
	assert_string_equal(pl_fmt_delta(buf, sizeof(buf), 12.34), "+12.3%");
	assert_string_equal(pl_fmt_delta(buf, sizeof(buf), -4.0), "-4.0%");
	assert_string_equal(pl_fmt_delta(buf, sizeof(buf), -0.01), "+0.0%");
	assert_string_equal(pl_fmt_delta(buf, sizeof(buf), 2.06028e129), "+2.06e+129%");
	assert_string_equal(pl_fmt_delta(buf, sizeof(buf), 999999.94), "+999999.9%");
}

static void test_row_label(void **state)
{
	struct pl_comparison cmp;
	char buf[64], small[8];

	(void)state;
	fixture_comparison(&cmp);
	assert_string_equal(pl_render_row_label(&cmp, 0, buf, sizeof(buf)), "2x NVIDIA A100 80G");
	cmp.axis[1] = PL_C_ACCELERATOR_COUNT;
	cmp.naxis = 2;
	assert_string_equal(pl_render_row_label(&cmp, 1, buf, sizeof(buf)), "1x NVIDIA H100 80G / 1");
	assert_string_equal(pl_render_row_label(&cmp, 2, buf, sizeof(buf)), HOSTILE " / (missing)");
	assert_string_equal(pl_render_row_label(&cmp, 0, small, sizeof(small)), "2x NVID");
}

/* Numbers stay in the C locale whatever LC_NUMERIC says. */
static void test_c_locale(void **state)
{
	struct pl_comparison cmp;
	struct pl_error err;
	char *buf = NULL;
	char num[32];
	const char *loc;

	(void)state;
	loc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
	if (!loc)
		loc = setlocale(LC_NUMERIC, "de_DE");
	if (!loc)
		print_message("note: locale de_DE.UTF-8 is not installed; checking the C locale only\n");
	else
		assert_string_equal(localeconv()->decimal_point, ",");
	pl_error_init(&err);
	fixture_comparison(&cmp);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_JSON, &err));
	assert_string_equal(buf, golden_json);
	free(buf);
	CAPTURE(buf, pl_render_comparison(out, &cmp, PL_FMT_TEXT, &err));
	assert_string_equal(buf, golden_text);
	free(buf);
	assert_string_equal(pl_fmt_sig4(num, sizeof(num), 0.32), "0.3200");
	assert_string_equal(pl_fmt_delta(num, sizeof(num), -21.875), "-21.9%");
	setlocale(LC_NUMERIC, "C");
}

static void test_write_error(void **state)
{
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	FILE *full = fopen("/dev/full", "w");

	(void)state;
	if (!full)
		skip();
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	for (int f = PL_FMT_TEXT; f <= PL_FMT_JSON; f++) {
		pl_error_init(&err);
		assert_int_equal(pl_render_comparison(full, &cmp, (enum pl_table_format)f, &err), PL_EIO);
		assert_int_equal(err.code, PL_EIO);
		clearerr(full);
		assert_int_equal(pl_render_runs(full, &runs, (enum pl_table_format)f, &err), PL_EIO);
		clearerr(full);
	}
	setvbuf(full, NULL, _IONBF, 0);
	assert_int_equal(pl_json_write_string(full, "x"), PL_EIO);
	assert_int_equal(pl_markdown_write_cell(full, "x"), PL_EIO);
	assert_int_equal(pl_csv_write_field(full, "x"), PL_EIO);
	fclose(full);
	pl_run_list_release(&runs);
}

/* A body that fails as a write on a full disk does (ENOSPC in errno). */
static int write_enospc(FILE *fp, void *ctx, struct pl_error *err)
{
	FILE *full = fopen("/dev/full", "w");
	int rc = PL_EIO;

	(void)fp;
	(void)ctx;
	(void)err;
	if (!full)
		return -1;
	setvbuf(full, NULL, _IONBF, 0);
	if (fputs("x", full) != EOF)
		rc = -1;
	fclose(full);
	errno = ENOSPC; /* fclose may have reset it */
	return rc;
}

/* The message of a failed report file says why (a full disk was "cannot
 * write 'x.tmp'" alone), the old file is kept and no temporary is left. */
static void test_write_file_says_why(void **state)
{
	const char *path = PL_TEST_TMP "/says_why.txt";
	struct pl_error err;
	FILE *f;
	char buf[16] = "";

	(void)state;
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old", f);
	fclose(f);
	pl_error_init(&err);
	assert_int_equal(pl_fs_write_atomic(path, write_enospc, NULL, &err), PL_EIO);
	assert_string_equal(err.message,
	                    "cannot write '" PL_TEST_TMP "/says_why.txt.tmp': No space left on device");
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old");
	assert_int_equal(access(PL_TEST_TMP "/says_why.txt.tmp", F_OK), -1);
}

static void test_format_parse(void **state)
{
	enum pl_table_format f = PL_FMT_TEXT;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_table_format_parse("markdown", &f, &err), 0);
	assert_int_equal(f, PL_FMT_MARKDOWN);
	assert_int_equal(pl_table_format_parse("csv", &f, &err), 0);
	assert_int_equal(f, PL_FMT_CSV);
	assert_int_equal(pl_table_format_parse("json", &f, &err), 0);
	assert_int_equal(f, PL_FMT_JSON);
	assert_int_equal(pl_table_format_parse("text", &f, &err), 0);
	assert_int_equal(f, PL_FMT_TEXT);
	assert_int_equal(pl_table_format_parse("html", &f, &err), PL_EUSAGE);
	assert_string_equal(err.message, "unknown format 'html' (expected text, markdown, csv or json)");
	assert_int_equal(pl_table_format_parse("JSON", &f, &err), PL_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comparison_text),
		cmocka_unit_test(test_comparison_markdown),
		cmocka_unit_test(test_comparison_csv),
		cmocka_unit_test(test_comparison_json),
		cmocka_unit_test(test_shared_extras),
		cmocka_unit_test(test_condition_table_documented),
		cmocka_unit_test(test_condition_schema_documented),
		cmocka_unit_test(test_runs_text),
		cmocka_unit_test(test_runs_markdown),
		cmocka_unit_test(test_runs_csv),
		cmocka_unit_test(test_runs_json),
		cmocka_unit_test(test_runs_empty),
		cmocka_unit_test(test_text_wide_chars),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_markdown_escape),
		cmocka_unit_test(test_csv_escape),
		cmocka_unit_test(test_text_sanitize),
		cmocka_unit_test(test_number_formats),
		cmocka_unit_test(test_row_label),
		cmocka_unit_test(test_c_locale),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_write_file_says_why),
		cmocka_unit_test(test_format_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

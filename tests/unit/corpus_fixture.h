/*
 * corpus_fixture.h — what the adapter tests share: reading a corpus file in
 * place (PL_CORPUS_DIR), parsing it, and asserting canonical values.
 *
 * Expected metrics are {name, value} lists ended by {NULL}; a value of
 * MISSING (NAN) asserts that the metric is absent. Values compare with a
 * relative tolerance of 1e-12. Expected conditions are {name, text} lists;
 * a NULL text asserts absence. Include after <cmocka.h>.
 */
#ifndef PL_CORPUS_FIXTURE_H
#define PL_CORPUS_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapters.h"
#include "core/error.h"
#include "core/model.h"
#include "core/normalize.h"
#include "core/validate.h"

#include "shared_fixture.h"

#if defined(__GNUC__)
#define CORPUS_UNUSED __attribute__((unused))
#else
#define CORPUS_UNUSED
#endif

struct kv {
	const char *name;
	double value;
};

struct kt {
	const char *name;
	const char *text;
};

CORPUS_UNUSED static char *slurp(const char *path, size_t *len)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (shared_path(path))
		need_shared(path);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
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

/* Parses corpus file rel (e.g. "llmperf/x.json"). */
CORPUS_UNUSED static int parse_file(const char *rel, const char *format, struct pl_run_list *out,
                      struct pl_error *err)
{
	char path[4096];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", PL_CORPUS_DIR, rel);
	buf = slurp(path, &len);
	pl_error_init(err);
	rc = pl_adapters_parse(path, buf, len, format, out, err);
	free(buf);
	return rc;
}

CORPUS_UNUSED static int parse_str(const char *path, const char *text, struct pl_run_list *out,
                     struct pl_error *err)
{
	pl_error_init(err);
	return pl_adapters_parse(path, text, strlen(text), NULL, out, err);
}

/* Fills the required conditions a file lacks (as --set would), normalizes
 * and validates every run; all must pass. */
CORPUS_UNUSED static void validate_all(struct pl_run_list *l)
{
	static const struct kt fill[] = {
		{"model", "m"}, {"precision", "bf16"}, {"engine", "e"}, {"hardware", "1x H"}, {NULL, NULL},
	};
	for (size_t i = 0; i < l->n; i++) {
		struct pl_error err;
		pl_error_init(&err);
		for (int k = 0; fill[k].name; k++) {
			int id = pl_cond_lookup(fill[k].name);
			if (!l->v[i].cond[id].set)
				assert_int_equal(pl_run_set_cond(&l->v[i], id, fill[k].text, &err), 0);
		}
		if (pl_normalize_run(&l->v[i], &err) || pl_validate_run(&l->v[i], &err))
			fail_msg("run %zu: %s", i, err.message);
	}
}

CORPUS_UNUSED static void expect_close(const char *what, double got, double want)
{
	double tol = fabs(want) * 1e-12;
	if (isinf(want) ? got != want : fabs(got - want) > tol)
		fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

CORPUS_UNUSED static void expect_metrics(const struct pl_run *r, const struct kv *want)
{
	for (int i = 0; want[i].name; i++) {
		int id = pl_metric_lookup(want[i].name);
		if (id < 0)
			fail_msg("no metric %s", want[i].name);
		if (isnan(want[i].value)) {
			if (r->has_metric[id])
				fail_msg("%s should be missing, is %.17g", want[i].name, r->metric[id]);
			continue;
		}
		if (!r->has_metric[id])
			fail_msg("metric %s missing", want[i].name);
		expect_close(want[i].name, r->metric[id], want[i].value);
	}
}

CORPUS_UNUSED static void expect_conds(const struct pl_run *r, const struct kt *want)
{
	for (int i = 0; want[i].name; i++) {
		int id = pl_cond_lookup(want[i].name);
		if (id < 0)
			fail_msg("no condition %s", want[i].name);
		if (!want[i].text) {
			if (r->cond[id].set)
				fail_msg("%s should be missing, is '%s'", want[i].name, r->cond[id].text);
			continue;
		}
		if (!r->cond[id].set)
			fail_msg("condition %s missing", want[i].name);
		assert_string_equal(r->cond[id].text, want[i].text);
	}
}

/* Counts the metrics a run has. */
/* Asserts run r's extra condition name: value, or absent when value is NULL. */
CORPUS_UNUSED static void expect_extra(const struct pl_run *r, const char *name, const char *value)
{
	const char *got = pl_run_extra(r, name);

	if (!value) {
		if (got)
			fail_msg("extra %s should be missing, is '%s'", name, got);
		return;
	}
	if (!got)
		fail_msg("extra %s missing", name);
	assert_string_equal(got, value);
}

/* Asserts run r's warnings are exactly want (NULL: none). */
CORPUS_UNUSED static void expect_warnings(const struct pl_run *r, const char *want)
{
	if (!want) {
		if (r->warnings)
			fail_msg("no warning expected, got: %s", r->warnings);
		return;
	}
	assert_non_null(r->warnings);
	assert_string_equal(r->warnings, want);
}

CORPUS_UNUSED static int nmetrics(const struct pl_run *r)
{
	int n = 0;
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		n += r->has_metric[m];
	return n;
}

CORPUS_UNUSED static void expect_rejected(const char *rel, int code, const char *message)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_file(rel, NULL, &l, &err);

	if (rc != code)
		fail_msg("%s: rc %d (%s), want %d", rel, rc, err.message, code);
	assert_string_equal(err.message, message);
	assert_int_equal(l.n, 0);
	pl_run_list_release(&l);
}

/* Asserts run r is a failed run (issue 13): no request completed
 * (requests_completed 0), requests_failed == failed (MISSING: not given),
 * error_rate 1 when any failed. */
CORPUS_UNUSED static void expect_failed_run(const struct pl_run *r, double failed)
{
	assert_int_equal(pl_run_failed(r), 1);
	assert_true(r->has_metric[PL_M_REQUESTS_COMPLETED]);
	assert_true(r->metric[PL_M_REQUESTS_COMPLETED] == 0);
	if (isnan(failed)) {
		assert_false(r->has_metric[PL_M_REQUESTS_FAILED]);
		return;
	}
	assert_true(r->has_metric[PL_M_REQUESTS_FAILED]);
	assert_true(r->metric[PL_M_REQUESTS_FAILED] == failed);
	if (failed > 0)
		assert_true(r->metric[PL_M_ERROR_RATE] == 1);
}

/* expect_rejected() for a file whose run `record` failed: parsed (rc 0),
 * the run flagged by expect_failed_run(). */
CORPUS_UNUSED static void expect_failed_file(const char *rel, size_t record, double failed)
{
	struct pl_run_list l = {0};
	struct pl_error err;
	int rc = parse_file(rel, NULL, &l, &err);

	if (rc != 0)
		fail_msg("%s: rc %d (%s), want 0 (a failed run is stored)", rel, rc, err.message);
	assert_true(l.n > record);
	expect_failed_run(&l.v[record], failed);
	pl_run_list_release(&l);
}

#define MISSING NAN

#endif

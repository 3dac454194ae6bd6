/*
 * requests_vllm.c — the per-request arrays of a vLLM `--save-detailed`
 * result (benchmark_serving.py, `vllm bench serve`) and of SGLang's
 * `bench_serving --output-details`, which writes the same arrays: ttfts
 * (s), itls (a list of gaps per request, s), input_lens, output_lens and
 * errors (""  when the request completed), one entry per request in the
 * order sent. The file has no per-request end-to-end latency: E2EL is
 * TTFT + the sum of the gaps (core/requests.h). A failed request keeps its
 * error text and token counts; its placeholder TTFT (0) is not a latency
 * and is not kept.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/json_util.h"
#include "adapters/requests_impl.h"
#include "core/requests.h"
#include "util/base64.h"

static int arr_len(const cJSON *obj, const char *key, const cJSON **arr, int *n,
                   struct pl_error *err)
{
	const cJSON *a = pl_json_get(obj, key);

	*arr = NULL;
	*n = -1;
	if (!a || cJSON_IsNull(a))
		return 0;
	if (!cJSON_IsArray(a)) {
		pl_error_field(err, key);
		return pl_error_set(err, PL_EINVALID, "'%s' must be an array of per-request values, got %s",
		                    key, pl_json_type_name(a));
	}
	*arr = a;
	*n = cJSON_GetArraySize(a);
	return 0;
}

/* The number at element i (NaN for null or absent); PL_EINVALID otherwise. */
static int num_at(const cJSON *item, const char *key, size_t i, double *out, struct pl_error *err)
{
	char field[64];

	if (!item || cJSON_IsNull(item)) {
		*out = NAN;
		return 0;
	}
	if (cJSON_IsNumber(item)) {
		*out = item->valuedouble;
		return 0;
	}
	snprintf(field, sizeof(field), "%s[%zu]", key, i);
	pl_error_field(err, field);
	return pl_error_set(err, PL_EINVALID, "request %zu: '%s' must be a number, got %s", i, key,
	                    pl_json_type_name(item));
}

static int count_at(const cJSON *item, const char *key, size_t i, int64_t *out,
                    struct pl_error *err)
{
	double v = NAN;
	int rc = num_at(item, key, i, &v, err);

	if (rc)
		return rc;
	if (isnan(v)) {
		*out = -1;
		return 0;
	}
	if (v < 0 || v != floor(v) || v > 9e15) {
		char field[64];
		snprintf(field, sizeof(field), "%s[%zu]", key, i);
		pl_error_field(err, field);
		return pl_error_set(err, PL_EINVALID,
		                    "request %zu: '%s' must be a whole number of tokens >= 0, got %.17g",
		                    i, key, v);
	}
	*out = (int64_t)v;
	return 0;
}

int pl_requests_from_vllm(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	static const char *const keys[] = {"ttfts", "itls", "input_lens", "output_lens", "errors"};
	const cJSON *arr[5], *it[5];
	int len[5], n = -1, rc;
	struct pl_requests *rq;

	for (int k = 0; k < 5; k++)
		if ((rc = arr_len(obj, keys[k], &arr[k], &len[k], err)))
			return rc;
	if (!arr[0])
		return 0; /* no per-request data (a summary alone) */
	n = len[0];
	for (int k = 1; k < 5; k++)
		if (arr[k] && len[k] != n) {
			pl_error_field(err, keys[k]);
			return pl_error_set(err, PL_EINVALID,
			                    "per-request arrays of different lengths: '%s' has %d entries, "
			                    "'ttfts' %d",
			                    keys[k], len[k], n);
		}
	if (!(rq = pl_requests_new()))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (int k = 0; k < 5; k++)
		it[k] = arr[k] ? arr[k]->child : NULL;
	for (size_t i = 0; i < (size_t)n; i++) {
		const char *error = NULL;
		int64_t in = -1, out = -1;
		double ttft = NAN;

		if (it[4] && !cJSON_IsNull(it[4])) {
			if (!cJSON_IsString(it[4])) {
				char field[32];
				snprintf(field, sizeof(field), "errors[%zu]", i);
				pl_error_field(err, field);
				rc = pl_error_set(err, PL_EINVALID, "request %zu: 'errors' must be a string, got %s",
				                  i, pl_json_type_name(it[4]));
				goto fail;
			}
			error = it[4]->valuestring;
		}
		if ((rc = num_at(it[0], "ttfts", i, &ttft, err)) ||
		    (rc = count_at(it[2], "input_lens", i, &in, err)) ||
		    (rc = count_at(it[3], "output_lens", i, &out, err)))
			goto fail;
		if (error && *error)
			ttft = NAN;
		if ((rc = pl_requests_push(rq, error, in, out, ttft, NAN))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto fail;
		}
		if (it[1] && !(error && *error)) {
			const cJSON *g;
			if (!cJSON_IsArray(it[1]) && !cJSON_IsNull(it[1])) {
				char field[32];
				snprintf(field, sizeof(field), "itls[%zu]", i);
				pl_error_field(err, field);
				rc = pl_error_set(err, PL_EINVALID,
				                  "request %zu: 'itls' must hold a list of gaps, got %s", i,
				                  pl_json_type_name(it[1]));
				goto fail;
			}
			cJSON_ArrayForEach(g, it[1])
			{
				double v = NAN;
				if ((rc = num_at(g, "itls", i, &v, err)))
					goto fail;
				if ((rc = pl_requests_add_gap(rq, v))) {
					rc = pl_error_set(err, PL_ENOMEM, "out of memory");
					goto fail;
				}
			}
		}
		for (int k = 0; k < 5; k++)
			if (it[k])
				it[k] = it[k]->next;
	}
	if (arr[1])
		rq->columns |= PL_RQ_GAPS;
	if ((rc = pl_requests_check(rq, err)))
		goto fail;
	pl_requests_free(run->requests);
	run->requests = rq;
	return 0;
fail:
	pl_requests_free(rq);
	return rc;
}

int pl_requests_from_export(const cJSON *obj, struct pl_run *run, struct pl_error *err)
{
	const cJSON *v = pl_json_get(obj, "requests");
	struct pl_requests *rq;
	int rc;

	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v)) {
		pl_error_field(err, "requests");
		return pl_error_set(err, PL_EINVALID, "'requests' must be a base64 string, got %s",
		                    pl_json_type_name(v));
	}
	if (!(rq = pl_requests_new()))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_base64_decode(v->valuestring, &rq->blob, &rq->nblob);
	if (rc) {
		pl_requests_free(rq);
		if (rc == -2)
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		pl_error_field(err, "requests");
		return pl_error_set(err, PL_EINVALID, "'requests' is not base64");
	}
	pl_requests_free(run->requests);
	run->requests = rq;
	return 0;
}

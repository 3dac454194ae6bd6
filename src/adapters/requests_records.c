/*
 * requests_records.c — per-request records that a tool writes in a file of
 * their own beside its summary, read into the summary's run:
 *
 *   AIPerf profile_export.jsonl (beside profile_export_aiperf.json): one
 *   record per line, {metadata, metrics, error}. Each metric is {value,
 *   unit} in display units (ms): time_to_first_token, request_latency
 *   (E2EL), inter_chunk_latency (the list of gaps between streamed chunks,
 *   after the first), input_sequence_length (error_isl for a failed
 *   request), output_sequence_length (output + reasoning tokens, the count
 *   AIPerf's own per-request TPOT divides by). A record whose
 *   metadata.benchmark_phase is not "profiling" (a warm-up) is not a
 *   request of the run. A failed record's error {code, type, message} is
 *   kept as "CODE TYPE: MESSAGE".
 *
 *   llmperf *_individual_responses.json (beside *_summary.json): a JSON
 *   array, one object per request: ttft_s, end_to_end_latency_s,
 *   number_input_tokens, number_output_tokens, error_code, error_msg. Its
 *   inter_token_latency_s is the request's E2EL / output tokens (TTFT
 *   included): neither a gap nor TPOT, so it is not kept (ITL is then not
 *   recorded; TPOT is recomputed from E2EL, TTFT and the output tokens).
 *
 * A failed request keeps its error text and token counts; its latencies
 * (a failed request's are not latencies of an answer) are not kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/adapter_impl.h"
#include "adapters/adapters.h"
#include "adapters/json_util.h"
#include "core/requests.h"

/* Which summary file a records file belongs to, per tool: a summary named
 * STEM + summary is paired with STEM + records in its directory. The
 * tools' own names come first; the second name of each is the shortened
 * form of collected files (NAME.json with NAME_records.jsonl, an llmperf
 * NAME_individual.json). */
static const struct pairing {
	const char *adapter;
	const char *summary;
	const char *records;
} pairings[] = {
	{"aiperf", "_aiperf.json", ".jsonl"},
	{"aiperf", ".json", "_records.jsonl"},
	{"llmperf", "_summary.json", "_individual_responses.json"},
	{"llmperf", "_summary.json", "_individual.json"},
};

#define NPAIRINGS (sizeof(pairings) / sizeof(pairings[0]))

static int ends_with(const char *s, const char *tail, size_t *stem)
{
	size_t n = strlen(s), m = strlen(tail);

	if (n <= m || strcmp(s + n - m, tail) != 0)
		return 0;
	*stem = n - m;
	return 1;
}

/* STEM + tail, or NULL on out of memory. */
static char *with_tail(const char *name, size_t stem, const char *tail)
{
	size_t m = strlen(tail);
	char *s = malloc(stem + m + 1);

	if (s) {
		memcpy(s, name, stem);
		memcpy(s + stem, tail, m + 1);
	}
	return s;
}

int pl_adapters_records_name(const char *adapter, const char *name, size_t k, char **out)
{
	size_t seen = 0, stem;

	*out = NULL;
	for (size_t i = 0; i < NPAIRINGS; i++) {
		if (strcmp(pairings[i].adapter, adapter) != 0 || !ends_with(name, pairings[i].summary, &stem))
			continue;
		if (seen++ == k)
			return (*out = with_tail(name, stem, pairings[i].records)) ? 1 : -1;
	}
	return 0;
}

int pl_adapters_summary_name(const char *name, size_t k, char **out)
{
	size_t seen = 0, stem;

	*out = NULL;
	for (size_t i = 0; i < NPAIRINGS; i++) {
		if (!ends_with(name, pairings[i].records, &stem))
			continue;
		if (seen++ == k)
			return (*out = with_tail(name, stem, pairings[i].summary)) ? 1 : -1;
	}
	return 0;
}

/* Locates err at request i's field. Returns PL_EINVALID. */
static int bad(struct pl_error *err, size_t i, const char *key, const char *what, const cJSON *v)
{
	char field[96];

	snprintf(field, sizeof(field), "requests[%zu].%s", i, key);
	pl_error_field(err, field);
	return pl_error_set(err, PL_EINVALID, "request %zu: '%s' must be %s, got %s", i, key, what,
	                    pl_json_type_name(v));
}

/* A number member (NaN when absent or null). */
static int num(const cJSON *obj, const char *key, size_t i, double *out, struct pl_error *err)
{
	const cJSON *v = pl_json_get(obj, key);

	*out = NAN;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v))
		return bad(err, i, key, "a number", v);
	*out = v->valuedouble;
	return 0;
}

/* A whole number of tokens >= 0 (-1 when absent or null). */
static int tokens(double v, const char *key, size_t i, int64_t *out, struct pl_error *err)
{
	char field[96];

	*out = -1;
	if (isnan(v))
		return 0;
	if (v >= 0 && v == floor(v) && v <= 9e15) {
		*out = (int64_t)v;
		return 0;
	}
	snprintf(field, sizeof(field), "requests[%zu].%s", i, key);
	pl_error_field(err, field);
	return pl_error_set(err, PL_EINVALID,
	                    "request %zu: '%s' must be a whole number of tokens >= 0, got %.17g", i, key,
	                    v);
}

/* AIPerf metric key of record i: its {value, unit}; *v NULL when absent.
 * time: the unit is a time unit (*exp10 set), else "tokens". */
static int aiperf_metric(const cJSON *metrics, const char *key, size_t i, int time,
                         const cJSON **v, int *exp10, struct pl_error *err)
{
	const cJSON *m = pl_json_get(metrics, key), *u;
	char field[96];

	*v = NULL;
	*exp10 = 0;
	if (!m || cJSON_IsNull(m))
		return 0;
	u = pl_json_get(m, "unit");
	if (!cJSON_IsObject(m) || !cJSON_IsString(u))
		return bad(err, i, key, "an object {value, unit}", m);
	if (time ? pl_aiperf_time_exp(u->valuestring, exp10) != 0 : strcmp(u->valuestring, "tokens") != 0) {
		snprintf(field, sizeof(field), "requests[%zu].%s", i, key);
		pl_error_field(err, field);
		return pl_error_set(err, PL_EINVALID, "request %zu: unknown unit '%.20s' in '%s' (expected %s)",
		                    i, u->valuestring, key, time ? "ns, us, ms or sec" : "tokens");
	}
	*v = pl_json_get(m, "value");
	return 0;
}

/* A scalar AIPerf metric in seconds (time) or tokens; NaN when absent. */
static int aiperf_scalar(const cJSON *metrics, const char *key, size_t i, int time, double *out,
                         struct pl_error *err)
{
	const cJSON *v;
	int exp10, rc;

	*out = NAN;
	if ((rc = aiperf_metric(metrics, key, i, time, &v, &exp10, err)) || !v || cJSON_IsNull(v))
		return rc;
	if (!cJSON_IsNumber(v))
		return bad(err, i, key, "a number", v);
	*out = pl_scale_pow10(v->valuedouble, exp10);
	return 0;
}

/* The error text of an AIPerf error object: "CODE TYPE: MESSAGE" (the
 * parts it has). */
static void aiperf_error_text(const cJSON *e, char *buf, size_t cap)
{
	const cJSON *code = pl_json_get(e, "code"), *type = pl_json_get(e, "type");
	const cJSON *msg = pl_json_get(e, "message");
	size_t n = 0;

	buf[0] = '\0';
	if (cJSON_IsNumber(code))
		n += (size_t)snprintf(buf + n, cap - n, "%.0f", code->valuedouble);
	if (cJSON_IsString(type) && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", type->valuestring);
	if (cJSON_IsString(msg) && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ": " : "", msg->valuestring);
	if (!buf[0])
		snprintf(buf, cap, "error");
}

/* One AIPerf record (index i among the run's requests) into rq. */
static int aiperf_request(const cJSON *rec, size_t i, struct pl_requests *rq, struct pl_error *err)
{
	const cJSON *metrics = pl_json_get(rec, "metrics"), *e = pl_json_get(rec, "error");
	const cJSON *gaps;
	double ttft, e2el, in, out;
	int64_t nin, nout;
	char text[1024];
	int failed = e && !cJSON_IsNull(e), exp10, rc;

	if (metrics && !cJSON_IsNull(metrics) && !cJSON_IsObject(metrics))
		return bad(err, i, "metrics", "an object", metrics);
	if (failed && !cJSON_IsObject(e))
		return bad(err, i, "error", "an object {code, type, message}", e);
	if ((rc = aiperf_scalar(metrics, "time_to_first_token", i, 1, &ttft, err)) ||
	    (rc = aiperf_scalar(metrics, "request_latency", i, 1, &e2el, err)) ||
	    (rc = aiperf_scalar(metrics, failed ? "error_isl" : "input_sequence_length", i, 0, &in, err)) ||
	    (rc = aiperf_scalar(metrics, "output_sequence_length", i, 0, &out, err)) ||
	    (rc = tokens(in, failed ? "error_isl" : "input_sequence_length", i, &nin, err)) ||
	    (rc = tokens(out, "output_sequence_length", i, &nout, err)))
		return rc;
	if (failed)
		aiperf_error_text(e, text, sizeof(text));
	if (pl_requests_push(rq, failed ? text : NULL, nin, nout, failed ? NAN : ttft,
	                     failed ? NAN : e2el))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (failed)
		return 0;
	if ((rc = aiperf_metric(metrics, "inter_chunk_latency", i, 1, &gaps, &exp10, err)) || !gaps ||
	    cJSON_IsNull(gaps))
		return rc;
	if (!cJSON_IsArray(gaps))
		return bad(err, i, "inter_chunk_latency", "a list of gaps", gaps);
	for (const cJSON *g = gaps->child; g; g = g->next) {
		if (!cJSON_IsNumber(g))
			return bad(err, i, "inter_chunk_latency", "a list of numbers", g);
		if (pl_requests_add_gap(rq, pl_scale_pow10(g->valuedouble, exp10)))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
	}
	return 0;
}

/* One llmperf response (index i) into rq. */
static int llmperf_request(const cJSON *rec, size_t i, struct pl_requests *rq, struct pl_error *err)
{
	const cJSON *code = pl_json_get(rec, "error_code"), *msg = pl_json_get(rec, "error_msg");
	double ttft, e2el, in, out;
	int64_t nin, nout;
	char text[1024];
	int rc, failed;

	if (code && !cJSON_IsNull(code) && !cJSON_IsNumber(code))
		return bad(err, i, "error_code", "a number or null", code);
	if (msg && !cJSON_IsNull(msg) && !cJSON_IsString(msg))
		return bad(err, i, "error_msg", "a string or null", msg);
	failed = (code && cJSON_IsNumber(code)) || (cJSON_IsString(msg) && msg->valuestring[0]);
	if ((rc = num(rec, "ttft_s", i, &ttft, err)) ||
	    (rc = num(rec, "end_to_end_latency_s", i, &e2el, err)) ||
	    (rc = num(rec, "number_input_tokens", i, &in, err)) ||
	    (rc = num(rec, "number_output_tokens", i, &out, err)) ||
	    (rc = tokens(in, "number_input_tokens", i, &nin, err)) ||
	    (rc = tokens(out, "number_output_tokens", i, &nout, err)))
		return rc;
	if (failed) {
		int has_msg = cJSON_IsString(msg) && msg->valuestring[0];
		if (cJSON_IsNumber(code))
			snprintf(text, sizeof(text), "error code %.0f%s%s", code->valuedouble,
			         has_msg ? ": " : "", has_msg ? msg->valuestring : "");
		else
			snprintf(text, sizeof(text), "%s", msg->valuestring);
	}
	if (pl_requests_push(rq, failed ? text : NULL, nin, nout, failed ? NAN : ttft,
	                     failed ? NAN : e2el))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	return 0;
}

/* The summary's count of metric id, or -1 when it records none. */
static double summary_count(const struct pl_run *run, int id)
{
	return run->has_metric[id] ? run->metric[id] : -1;
}

/* The records agree with the summary: as many completed and failed
 * requests as it counts (where it counts them). */
static int agrees(const char *path, const struct pl_run *run, const struct pl_requests *rq,
                  struct pl_error *err)
{
	double done = summary_count(run, PL_M_REQUESTS_COMPLETED);
	double failed = summary_count(run, PL_M_REQUESTS_FAILED);
	size_t nf = pl_requests_failed(rq);

	if ((done < 0 || done == (double)(rq->n - nf)) && (failed < 0 || failed == (double)nf))
		return 0;
	pl_error_at(err, path, 0, 0);
	return pl_error_set(err, PL_EINVALID,
	                    "the per-request records in '%s' are not those of its summary '%s': %zu "
	                    "completed and %zu failed requests, the summary counts %.0f and %.0f",
	                    path, run->source ? run->source : "?", rq->n - nf, nf,
	                    done < 0 ? 0 : done, failed < 0 ? 0 : failed);
}

int pl_adapters_parse_requests(const char *path, const char *buf, size_t len, struct pl_run *run,
                               struct pl_error *err)
{
	struct pl_json_doc doc = {0};
	struct pl_requests *rq = NULL;
	int aiperf = run->adapter && strcmp(run->adapter, "aiperf") == 0;
	int rc;

	pl_adapters_init();
	if (!aiperf && !(run->adapter && strcmp(run->adapter, "llmperf") == 0))
		return pl_error_set(err, PL_EUSAGE, "no per-request records for format '%s'",
		                    run->adapter ? run->adapter : "?");
	if ((rc = pl_json_parse_records(path, buf, len, &doc, err)))
		return rc;
	if (!(rq = pl_requests_new())) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t r = 0; r < doc.nrecords && !rc; r++) {
		const cJSON *rec = doc.records[r].obj;
		const cJSON *phase = pl_json_get(pl_json_get(rec, "metadata"), "benchmark_phase");
		int ok = cJSON_IsObject(rec) &&
		         (aiperf ? cJSON_IsObject(pl_json_get(rec, "metadata"))
		                 : pl_json_get(rec, "ttft_s") != NULL);

		if (!ok) {
			pl_error_at(err, path, doc.records[r].line, 0);
			rc = pl_error_set(err, PL_EFORMAT, "record %zu of '%s' is not %s", r, path,
			                  aiperf ? "an AIPerf per-request record ({metadata, metrics, error})"
			                         : "an llmperf per-request response (ttft_s, error_code, ...)");
			break;
		}
		if (aiperf && cJSON_IsString(phase) && strcmp(phase->valuestring, "profiling") != 0)
			continue; /* a warm-up request: not measured */
		rc = aiperf ? aiperf_request(rec, rq->n, rq, err) : llmperf_request(rec, rq->n, rq, err);
		if (rc && !err->file[0])
			pl_error_at(err, path, doc.records[r].line, 0);
	}
	if (!rc && (rc = pl_requests_check(rq, err)) && !err->file[0])
		pl_error_at(err, path, 0, 0);
	if (!rc)
		rc = agrees(path, run, rq, err);
	if (!rc) {
		pl_requests_free(run->requests);
		run->requests = rq;
		rq = NULL;
	}
out:
	pl_requests_free(rq);
	pl_json_doc_release(&doc);
	return rc;
}

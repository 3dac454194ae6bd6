/*
 * requests.h — the requests of a run, and the one definition of each
 * latency computed from them.
 *
 * Where a file carries per-request data (vLLM --save-detailed, AIPerf
 * profile_export.jsonl records, llmperf individual responses), the import
 * keeps every request: its outcome (ok, or failed with an error text kept
 * once per distinct text), its input and output token counts, TTFT, E2EL
 * and the inter-token gaps where the tool records them (or, where it gives
 * only a per-request mean gap, that mean; llmperf gives neither). From
 * them this module derives, the same way for
 * every tool (schema/requests.md):
 *
 *   TTFT and E2EL of a request as recorded;
 *   TPOT = (E2EL - TTFT) / (output tokens - 1), undefined for one token;
 *   ITL  = the gaps after the first token, all requests' gaps pooled;
 *   percentile q = linear interpolation between order statistics, at
 *   rank (n - 1) q / 100 (numpy's default, the method vLLM uses);
 *   mean = the sum in numpy's pairwise order, divided by n.
 *
 * Only completed requests enter the latency statistics; a failed request
 * counts against attainment. Pure: no I/O, no printing. All times are
 * seconds, token counts whole numbers.
 */
#ifndef PL_CORE_REQUESTS_H
#define PL_CORE_REQUESTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* Columns a request set carries (bits of pl_requests.columns). */
#define PL_RQ_INPUT 0x01u   /* input token counts */
#define PL_RQ_OUTPUT 0x02u  /* output token counts */
#define PL_RQ_TTFT 0x04u    /* time to first token */
#define PL_RQ_E2EL 0x08u    /* end-to-end latency */
#define PL_RQ_GAPS 0x10u    /* every inter-token gap */
#define PL_RQ_ITLMEAN 0x20u /* only a per-request mean gap */

/* The requests of one run, in columns of n entries each. A value not
 * recorded for one request is NaN (times) or -1 (token counts). Initialise
 * with pl_requests_init(), release with pl_requests_release(). */
struct pl_requests {
	size_t n;               /* requests */
	unsigned columns;       /* PL_RQ_* bits: the columns recorded */
	uint32_t *error;        /* n: 0 = ok, else 1 + index into errors */
	char **errors;          /* distinct error texts (UTF-8), owned */
	size_t nerrors;         /* entries in errors */
	int64_t *input_tokens;  /* n input token counts, -1 unknown */
	int64_t *output_tokens; /* n output token counts, -1 unknown */
	double *ttft;           /* n seconds, NaN unknown */
	double *e2el;           /* n seconds, NaN unknown */
	double *itl_mean;       /* n per-request mean gaps (PL_RQ_ITLMEAN), else NULL */
	size_t *gap_off;        /* n + 1 offsets into gaps (PL_RQ_GAPS), else NULL */
	double *gaps;           /* the gaps, request by request, seconds */
	size_t ngaps;           /* entries in gaps */
	size_t cap, gap_cap;    /* allocated entries (n side, gaps side) */
	unsigned char *blob;    /* the encoded form as stored or exported, or NULL;
	                           owned (the store's codec makes and reads it) */
	size_t nblob;           /* bytes in blob */
};

void pl_requests_init(struct pl_requests *rq);

/* Frees everything rq owns and re-initialises it. NULL is a no-op. */
void pl_requests_release(struct pl_requests *rq);

/* A new empty set (heap), or NULL on out of memory; free with
 * pl_requests_free() (NULL ok). */
struct pl_requests *pl_requests_new(void);
void pl_requests_free(struct pl_requests *rq);

/* Deep copy; returns a new set or NULL on out of memory. */
struct pl_requests *pl_requests_dup(const struct pl_requests *src);

/* Appends one request: error NULL (or "") = ok, else the error text (kept
 * once per distinct text); input/output -1 unknown; ttft/e2el NaN unknown.
 * Its gaps (if any) follow with pl_requests_add_gap() before the next
 * push. Returns 0 or PL_ENOMEM. */
int pl_requests_push(struct pl_requests *rq, const char *error, int64_t input, int64_t output,
                     double ttft, double e2el);

/* Appends a gap (seconds) to the last pushed request; sets PL_RQ_GAPS.
 * Returns 0, PL_ENOMEM, or PL_EUSAGE when no request was pushed. */
int pl_requests_add_gap(struct pl_requests *rq, double gap);

/* Sets the per-request mean gap (seconds, NaN unknown) of the last pushed
 * request, for tools that give no gaps; sets PL_RQ_ITLMEAN when not NaN.
 * Returns 0 or PL_EUSAGE when no request was pushed. */
int pl_requests_set_itl_mean(struct pl_requests *rq, double mean);

/* Number of failed requests. */
size_t pl_requests_failed(const struct pl_requests *rq);

/* The error text of request i, or NULL when it completed. */
const char *pl_requests_error(const struct pl_requests *rq, size_t i);

/* Gaps of request i: *n gets their count (0 without PL_RQ_GAPS). */
const double *pl_requests_gaps(const struct pl_requests *rq, size_t i, size_t *n);

/*
 * Checks the set (the bad inputs of docs/requests.md), naming the first
 * bad request by its 0-based index in err (field "requests[i].<column>"):
 * a negative or non-finite latency or gap, a negative token count, a
 * completed request whose TTFT exceeds its E2EL, a gap sum that differs
 * from E2EL - TTFT by more than 1% of E2EL plus 1 ms, gaps whose number
 * disagrees with output tokens - 1 (when both are recorded — a streamed
 * chunk may carry several tokens, so fewer gaps than tokens - 1 are
 * allowed, more are not; a completed request of one token or none has
 * none, a failed one of one token or none is not held to it). Returns 0
 * or PL_EINVALID.
 */
int pl_requests_check(const struct pl_requests *rq, struct pl_error *err);

/* The percentiles of a latency: p50, p90, p95, p99, p99.9 (the order of
 * pl_rq_dist's ci_low / ci_high, and of pl_rq_pct). */
#define PL_RQ_NPCT 5

/* The percentiles, in that order (50, 90, 95, 99, 99.9). */
extern const double pl_rq_pct[PL_RQ_NPCT];

/* The confidence level of the percentiles' intervals. */
#define PL_RQ_CI_LEVEL 0.95

/* Statistics of one latency over a request set. */
struct pl_rq_dist {
	size_t n;      /* values (0: no statistic; the fields below are NaN) */
	double mean;   /* pairwise-summed mean */
	double std;    /* population standard deviation (numpy.std, ddof 0: the
	                  square root of the pairwise-summed mean squared
	                  deviation from mean), as vLLM reports std_* */
	double p50, p90, p95, p99, p999; /* linear-interpolation percentiles */
	double min, max;
	double ci_low[PL_RQ_NPCT];  /* 95% interval of each percentile: x_(l) ... */
	double ci_high[PL_RQ_NPCT]; /* ... and x_(u) (pl_stats_quantile_ci_ranks);
	                               NaN when n is too small for 95% */
};

/* Linear-interpolation percentile q (0..100) of the sorted v[0..n) (n >= 1),
 * exactly as numpy.percentile(v, q) computes it (including its rounding:
 * a + (b - a) t below t = 0.5, b - (b - a)(1 - t) from 0.5). */
double pl_rq_percentile(const double *sorted, size_t n, double q);

/* numpy's median of the sorted v[0..n): the middle value, or the mean of
 * the two middle values ((a + b) / 2). */
double pl_rq_median(const double *sorted, size_t n);

/* Sum of v[0..n) in numpy's pairwise order (blocks of 8 partial sums up
 * to 128 values, halves above), so means agree with numpy's to the bit. */
double pl_rq_pairwise_sum(const double *v, size_t n);

/* The latencies of a request set, and its counts. */
struct pl_rq_stats {
	size_t requests;        /* all requests */
	size_t failed;          /* failed requests */
	int64_t output_tokens;  /* output tokens of the completed requests (-1 unknown) */
	struct pl_rq_dist ttft; /* completed requests' TTFT */
	struct pl_rq_dist tpot; /* completed requests with > 1 output token */
	struct pl_rq_dist itl;  /* pooled gaps (or per-request means, PL_RQ_ITLMEAN) */
	struct pl_rq_dist e2el; /* completed requests' E2EL */
};

/* Computes stats from rq. The percentile p50 is numpy's median. Each
 * percentile q of each latency gets its within-run 95% confidence
 * interval, distribution-free, from order statistics (schema/requests.md):
 * [x_(l), x_(u)] of the latency's n values sorted, l and u chosen from
 * Binomial(n, q / 100) so that each end misses the population percentile
 * with probability at most 2.5% (core/stats.h pl_stats_quantile_ci_ranks;
 * GSL's binomial CDF), coverage >= 95%; NaN (n/a) when n is too small
 * (the median n < 6, p90 n < 36, p95 n < 72, p99 n < 368, p99.9
 * n < 3688). It is the uncertainty of one run's figure from its requests
 * treated as independent draws, not run-to-run noise: check and the gate
 * decide over runs, never from it. The ITL values are the pooled gaps. E2EL of a
 * request without one recorded is TTFT + the sum of its gaps when both are
 * recorded (vLLM's detailed file has no E2EL column). Returns 0 or PL_ENOMEM. */
int pl_requests_stats(const struct pl_requests *rq, struct pl_rq_stats *out);

/* pl_requests_stats() without copying the gaps: the pooled ITL is selected
 * in rq's own gap array (2.3 million gaps: 18.6 MB not copied), which is
 * then dropped (rq keeps no gaps afterwards: grade it first). Same figures
 * to the last bit. Returns 0 or PL_ENOMEM. */
int pl_requests_stats_consume(struct pl_requests *rq, struct pl_rq_stats *out);

/* pl_requests_stats() selecting the pooled ITL in rq's own gap array,
 * which is left reordered (no longer any request's gaps: for a set whose
 * gaps are in its blob already, before they are freed). Same figures to
 * the last bit. Returns 0 or PL_ENOMEM. */
int pl_requests_stats_reorder(struct pl_requests *rq, struct pl_rq_stats *out);

/* A per-request SLO: each limit in seconds, NaN = no limit. A request
 * meets it when it completed and each limited value is at most its limit.
 * A request of one output token meets any TPOT and ITL limit (nothing is
 * timed after its first token; vLLM's goodput counts it so too); a limit
 * on a value a request lacks otherwise (a column not recorded) is missed. */
struct pl_rq_slo {
	double ttft, tpot, e2el, itl; /* limits, s; NaN = none */
};

/* Result of grading a set against an SLO. */
struct pl_rq_grade {
	size_t met;                 /* requests meeting every limit */
	double attainment;          /* met / all requests (failed ones missed); NaN if none */
	double goodput;             /* met / duration, req/s; NaN without a duration */
	double goodput_tokens;      /* their output tokens / duration, tok/s; NaN if unknown */
};

/* The ITL of a request judged against slo.itl: its largest gap (every gap
 * must meet the limit) or, with PL_RQ_ITLMEAN only, its mean gap. */
int pl_requests_grade(const struct pl_requests *rq, const struct pl_rq_slo *slo,
                      double duration, struct pl_rq_grade *out);

/* Parses "ttft=S,tpot=S,e2el=S,itl=S" (any subset, any order, each once,
 * S a finite number of seconds >= 0) into slo (absent limits NaN).
 * Returns 0 or PL_EUSAGE naming the bad part. */
int pl_rq_slo_parse(const char *text, struct pl_rq_slo *slo, struct pl_error *err);

/* Sets every limit of slo to none (NaN). */
void pl_rq_slo_init(struct pl_rq_slo *slo);

/* Adds the limits of text (as pl_rq_slo_parse reads it) to slo, so that
 * `--slo ttft=1 --slo tpot=0.05` means both: a limit slo holds already is
 * PL_EUSAGE ("--slo: 'ttft' given twice"), as within one text. Returns 0
 * or PL_EUSAGE naming the bad part (slo unchanged). */
int pl_rq_slo_add(const char *text, struct pl_rq_slo *slo, struct pl_error *err);

/* The extra condition a run whose latencies were recomputed from its
 * requests carries, with the value "requests" (pl_requests_derive). */
#define PL_RQ_SOURCE_EXTRA "perfledger.latencies"

/* How far, in percent of the tool's figure, a recomputed statistic may
 * differ from the tool's own before the import says so. */
#define PL_RQ_AGREE_PCT 1.0

struct pl_run;

/* Where run->requests holds requests: sets the run's TTFT, TPOT, E2EL and
 * (where the gaps are recorded) ITL statistics — mean, std, min, max,
 * p50, p90, p95, p99, p99_9, seconds — to those pl_requests_stats()
 * computes, the one definition for every tool (schema/requests.md). Each
 * tool figure replaced is kept as the unplaced measurement
 * "tool_summary.<metric>" (seconds); a recomputed figure that differs from
 * it by more than PL_RQ_AGREE_PCT percent is named in a warning on the
 * run (pl_run_warn) with its likely reason. A statistic the requests
 * cannot give (ITL from per-request means, or with no gaps) keeps the
 * tool's figure. Marks the run with the extra condition
 * PL_RQ_SOURCE_EXTRA = "requests", so recomputed and tool figures never
 * share a series or pool. A run without requests is left as it is.
 * Where the set is encoded already (its blob set: the gaps are in it), the
 * gaps are not copied: the pooled ITL is selected in the gap array itself,
 * which is then freed (their count kept, as pl_store_requests_seal leaves
 * it), so a 2.3-million-gap import holds no second 18.6 MB; the set can
 * still be stored, counted and exported, not graded. Else the set is left
 * whole. Returns 0, or PL_ENOMEM (err set). */
int pl_requests_derive(struct pl_run *run, struct pl_error *err);

#endif

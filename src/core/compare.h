/*
 * compare.h — like with like: selection, axis, refusal, comparison rows.
 *
 * A comparison names its axis: the condition fields that are meant to differ
 * (e.g. hardware). Fields that travel with an axis field (pl_cond_info
 * travels_with: with hardware its accelerator count, parallelism, driver and
 * CUDA versions and prices; with engine its version and launch parameters)
 * may differ from row to row, but never inside one row. Every other
 * condition (every PL_CF_KEY field: all but run_started_at) and every extra
 * condition ("FORMAT.key") must have one value across all selected runs,
 * after normalization, with missing not equal to known — else the
 * comparison is refused (PL_EMISMATCH) and the mismatches are listed field
 * by field with their values. A field named in allow_mismatch (or
 * allow_extra) is exempt and becomes a caveat printed by every renderer.
 * So a row's median never pools runs that differ in a recorded condition
 * unless that difference was allowed by name.
 *
 * Runs with the same axis values form one row; each metric of a row is the
 * median of its runs' values, with their min and max (runs that lack
 * the metric are left out of that median; n_metric says how many had it).
 * Goodput is a number only with its SLO (the metrics goodput_slo_ttft,
 * _tpot, _e2el, kept with it): when goodput is shown and the runs that
 * have it were not all counted against one recorded SLO, goodput is n/a in
 * every row (n_metric 0) with a caveat (GOODPUT_SLO_MISSING naming the
 * runs without one, or GOODPUT_SLO_DIFFERS naming the SLOs); when goodput
 * is the only metric, the comparison is refused (PL_EMISMATCH with no
 * mismatched condition; err names the SLOs). Load the SLO metrics with
 * goodput. Limits (PL_S_LIMIT) never get a delta.
 * Rows are ordered by their axis values (numbers numerically, versions in
 * natural order). delta_pct is relative to the row's baseline:
 * 100 * (value / baseline - 1). The baseline is the first row with the same
 * values in every axis field but the first: the first row for one axis
 * field; for --axis hardware,concurrency the first hardware at the same
 * concurrency, so that a sweep compares accelerators at equal load, not
 * every point with the first accelerator's lowest concurrency. With several
 * axis fields a row that is its own baseline has no deltas (the first row
 * of a single axis field has deltas of 0).
 */
#ifndef PL_COMPARE_H
#define PL_COMPARE_H

#include <stddef.h>

#include "core/error.h"
#include "core/model.h"
#include "core/msg.h"
#include "core/requests.h"

/* Extra conditions one --allow-mismatch list may name. */
#define PL_ALLOW_EXTRA_MAX 16

/* What to compare. */
struct pl_compare_opts {
	int axis[PL_COND_COUNT];          /* axis condition ids */
	size_t naxis;                     /* >= 1 */
	int metrics[PL_METRIC_COUNT];     /* metrics to show, in order */
	size_t nmetrics;                  /* 0 = the default headline set */
	unsigned char allow_mismatch[PL_COND_COUNT]; /* 1 = may differ, with a caveat */
	unsigned char allow_errors;       /* 1 = runs with and without errors may be
	                                     compared, with a caveat (--allow-mismatch error_rate) */
	const char *allow_extra[PL_ALLOW_EXTRA_MAX]; /* extra conditions ("FORMAT.key")
	                                     that may differ, with a caveat; borrowed */
	size_t nallow_extra;              /* entries in allow_extra */
	unsigned char failed_quiet;       /* 1 = leave failed runs out without the
	                                     caveat (history draws them itself) */
	unsigned char implausible_quiet;  /* 1 = mark implausible values without the
	                                     caveat (history leaves them out itself) */
	struct pl_rq_slo slo;             /* a per-request SLO to grade each row
	                                     at (compare --slo), when has_slo */
	unsigned char has_slo;            /* 1 = add the request-SLO columns
	                                     (pl_compare_grade_slo) */
	size_t subsets_min_rows;          /* > 0: a refused pl_compare_build*() also
	                                     seeks the subsets that compare
	                                     (pl_compare_subsets), each with at least
	                                     this many rows: 1 for compare and
	                                     report, 2 for check (both sides) and
	                                     history (two run times); 0 = not
	                                     sought */
};

/* The values of a mismatch that carry the runs holding them (the rest,
 * past it, are listed without runs). */
#define PL_MISMATCH_RUN_VALUES 20

/* One mismatched field of a refused comparison: data, worded by
 * render/refusal.c (render.h: pl_refusal_*) through the word tables. */
struct pl_mismatch {
	int cond;       /* enum pl_cond_id, or PL_C_NONE for the errors rule
	                   (values are the error rates, "(missing)" for
	                   unknown) and for an extra condition (then extra is set) */
	char *extra;    /* the extra condition's name ("FORMAT.key"), or NULL; owned */
	char *within;   /* for a field that travels with the axis and differs
	                   inside one row: that row's axis fields and values
	                   ("hardware B200"), else NULL; owned */
	char **values;  /* distinct values, canonical text, "(missing)" for missing */
	size_t nvalues; /* >= 2 */
	long long **runs; /* per value (the first PL_MISMATCH_RUN_VALUES): the ids
	                     of the runs holding it, ascending; NULL (nruns 0)
	                     where the value names its run itself (the workload
	                     rule) or lies past them; owned */
	size_t *nruns;    /* entries of runs[k]; nvalues entries, or NULL */
	int measured;     /* the workload rule: values[0] is the requested value,
	                     values[1] what run runs[1][0] measured, and this the
	                     word for what that is (PL_MSG_W_MEASURED_MEAN or
	                     PL_MSG_W_REQS_ACHIEVED); 0 for any other rule */
	size_t open_loop; /* 1 + the index of the "(missing)" concurrency that is
	                     an open-loop run's (worded PL_MSG_W_OPEN_LOOP_MISSING),
	                     or 0 */
};

/* A subset of a refused comparison's runs that compares (pl_compare_subsets). */
struct pl_subset {
	size_t nruns;         /* runs in it (failed runs among them are left out
	                         of its comparison, as always) */
	long long first_run;  /* its lowest run id */
	char **where;         /* the filters that select it from the selection,
	                         "FIELD=VALUE" in the order of the refusal's
	                         fields ("FIELD=" where it is missing: a --where
	                         that selects the missing value); owned */
	size_t nwhere;        /* entries in where */
};

/* Subsets named at most (the largest that compare). */
#define PL_SUBSETS_MAX 3

/* The columns a per-request SLO adds to a comparison (compare --slo), in
 * their order; pl_slo_col_name gives their canonical names. */
enum pl_slo_col {
	PL_SLO_ATTAINMENT,     /* slo_attainment: fraction of all requests */
	PL_SLO_GOODPUT,        /* goodput: requests meeting it per second */
	PL_SLO_GOODPUT_TOKENS, /* goodput_output_throughput: their output tok/s */
	PL_SLO_COLS
};

/* "slo_attainment", "goodput", "goodput_output_throughput". */
extern const char *const pl_slo_col_name[PL_SLO_COLS];

/* A row's grading at the comparison's per-request SLO: each column pooled
 * over the row's runs as the metrics are (the median of the runs' values,
 * with their min and max), each run graded from its stored requests. */
struct pl_row_slo {
	double value[PL_SLO_COLS];     /* median over the runs that have it; NaN = n/a */
	double min[PL_SLO_COLS];       /* smallest run value */
	double max[PL_SLO_COLS];       /* largest run value */
	size_t n[PL_SLO_COLS];         /* runs that have it (0 = n/a) */
	double delta_pct[PL_SLO_COLS]; /* vs the baseline row; valid where has_delta */
	unsigned char has_delta[PL_SLO_COLS];
};

/* One row: the runs sharing one set of axis values. */
struct pl_compare_row {
	struct pl_value axis[PL_COND_COUNT]; /* values of the axis fields and the
	                                        fields travelling with them; others unset.
	                                        A traveller that differs inside the row
	                                        (allowed, with a caveat) holds its values
	                                        joined, "4; 8", with num NaN */
	size_t n;                            /* runs in the row */
	long long *run_ids;                  /* their ids, ascending; n entries */
	size_t reference_only;               /* how many of them are reference-only */
	double metric[PL_METRIC_COUNT];      /* median per metric */
	double min[PL_METRIC_COUNT];         /* smallest value per metric (the spread
	                                        of rows with n_metric > 1) */
	double max[PL_METRIC_COUNT];         /* largest value per metric */
	unsigned char n_metric[PL_METRIC_COUNT]; /* runs that had it (capped at 255); 0 = missing */
	size_t base;                         /* index of its baseline row (itself for the
	                                        first of its kind) */
	double delta_pct[PL_METRIC_COUNT];   /* vs the baseline; valid where has_delta */
	unsigned char has_delta[PL_METRIC_COUNT];
	unsigned char implausible[PL_METRIC_COUNT]; /* 1 = a run of the row holds a value
	                                        outside the metric's plausible range
	                                        (schema/ranges.tsv): shown marked, and
	                                        neither this row nor a row whose
	                                        baseline it is has a delta of it */
	struct pl_row_slo slo;               /* graded at cmp->slo when cmp->has_slo */
};

/* A comparison (or a refusal). Release with pl_comparison_release(). */
struct pl_comparison {
	int axis[PL_COND_COUNT];          /* copied from the options */
	size_t naxis;
	int metrics[PL_METRIC_COUNT];     /* metrics shown (defaults resolved) */
	size_t nmetrics;
	unsigned char varies[PL_COND_COUNT]; /* 1 for axis fields and their travellers */
	struct pl_value shared[PL_COND_COUNT]; /* the value every run shares, for
	                                          key and non-key fields alike where
	                                          all runs agree; unset otherwise */
	struct pl_extra *shared_extra;    /* the extra conditions ("FORMAT.key")
	                                     every run has, with the one value they
	                                     share, sorted by name; owned */
	size_t nshared_extra;             /* entries in shared_extra */
	size_t shared_extra_cap;          /* allocated entries of shared_extra
	                                     (PL_ALLOC_GROW) */
	unsigned char named[PL_COND_COUNT]; /* conditions the selection fixed (--where)
	                                     that a series label names besides its
	                                     identity (core/series_label.h): 0 from
	                                     the builders, set by the caller */
	int named_extras;                 /* 1: the label names the extra conditions too */
	struct pl_compare_row *rows;      /* ordered rows */
	size_t nrows;
	struct pl_msgs caveats;           /* one message per allowed mismatch,
	                                     reference-only row or left-out run
	                                     (core/msg.h; worded by
	                                     render/words.h) */
	struct pl_mismatch *mismatches;   /* filled when refused */
	size_t nmismatches;
	size_t cap_mismatches;            /* allocated entries of mismatches */
	struct pl_subset *subsets;        /* when refused and pl_compare_subsets()
	                                     ran: the largest subsets that compare,
	                                     largest first; owned */
	size_t nsubsets;                  /* entries in subsets (<= PL_SUBSETS_MAX) */
	int subsets_sought;               /* 1 once pl_compare_subsets() looked */
	unsigned char subsets_in_definition; /* 1: the selection is a report
	                                     definition's "where" list, so a subset
	                                     is named by the entries to add there
	                                     and the hint names the definition's
	                                     keys (set by the caller) */
	int has_slo;                      /* 1: rows carry slo columns graded at slo
	                                     (pl_compare_grade_slo) */
	struct pl_rq_slo slo;             /* the per-request SLO (limits, NaN = none) */
	size_t nruns;                     /* runs considered */
	size_t nfailed;                   /* failed runs (pl_run_failed) left out:
	                                     never pooled; named in a caveat */
};

/* The default metrics when none are named: ttft_p50, ttft_p95, tpot_p50,
 * tpot_p95, itl_p50, e2el_p50, output_throughput, tokens_per_second_p50,
 * request_throughput, error_rate. *count receives the number. */
const int *pl_compare_default_metrics(size_t *count);

/* Parses "hardware,engine" into opts->axis (canonical names). Returns 0 or
 * PL_EUSAGE naming the unknown field. */
int pl_compare_parse_axis(struct pl_compare_opts *opts, const char *list, struct pl_error *err);

/* pl_compare_parse_axis() with the text's origin named in its messages as
 * what ("--axis", or "the definition's 'axis' entry" for a report
 * definition). */
int pl_compare_parse_axis_named(struct pl_compare_opts *opts, const char *list, const char *what,
                                struct pl_error *err);

/*
 * Builds the comparison of runs under opts into *out (initialised here).
 * Every condition set of runs must be used by at least one run; runs are
 * taken in their order (ids ascending, as the store gives them, make the
 * ranges of run ids in messages). Only the loaded metrics get medians.
 * Failed runs (no request completed: requests_completed 0 or error_rate 1,
 * read from the loaded columns, so load requests_completed) are never
 * pooled: they are left out before anything else, named in a caveat
 * (unless opts->failed_quiet) and counted in out->nfailed.
 * A stored value outside its metric's plausible range (schema/ranges.tsv:
 * a ledger written before import checked it, or edited outside perfledger)
 * is never the ground of a delta: its row's cell is marked implausible,
 * that row and every row with it as baseline get no delta of the metric
 * (has_delta 0), and a caveat per metric names the runs
 * (CAV_IMPLAUSIBLE_NO_DELTA; unless opts->implausible_quiet).
 * Returns 0; PL_EEMPTY if there are no runs, or every run failed; PL_EMISMATCH if conditions
 * differ (out->mismatches lists every field with its values and the runs
 * holding each; err->message only counts them: render.h's pl_refusal_*
 * word the fields); PL_ENOMEM. On any return, release *out with pl_comparison_release().
 * Cost: O(sets log sets + runs) plus a median per row and metric, so a
 * million runs of a few thousand condition sets take well under a second.
 */
int pl_compare_build_columns(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                             struct pl_comparison *out, struct pl_error *err);

/* pl_compare_build_columns() on the runs of a list, each its own condition
 * set, with every metric. Same returns. */
int pl_compare_build(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                     struct pl_comparison *out, struct pl_error *err);

/* After a refusal (PL_EMISMATCH) of runs by pl_compare_build_columns() with
 * opts: fills cmp->subsets with the largest subsets of runs (at most
 * PL_SUBSETS_MAX, each of 2 runs or more) that agree on every condition
 * and extra condition the refusal lists and whose own comparison with
 * opts succeeds with at least opts->subsets_min_rows rows (1 when 0) —
 * largest first, equal sizes by their lowest run id. pl_compare_build*()
 * call it themselves when opts->subsets_min_rows > 0. Each
 * is named by FIELD=VALUE filters over the listed fields (a run's stored
 * canonical text, which --where reads back to the same value). A field
 * of the workload or errors rule selects nothing: subsets refused over it
 * are passed over. O(runs log runs) to group, then each candidate's runs
 * compared once (O(runs) in all) until PL_SUBSETS_MAX compare.
 * Returns 0 (nsubsets may be 0: nothing compares) or PL_ENOMEM (none
 * kept). runs and opts are borrowed. */
int pl_compare_subsets(const struct pl_run_columns *runs, const struct pl_compare_opts *opts,
                       struct pl_comparison *cmp);

/* One run's grade at a per-request SLO, for pl_compare_grade_slo(): what
 * pl_requests_grade() gave on its stored requests (and its duration). */
struct pl_run_grade {
	long long run;          /* run id */
	int has_requests;       /* 0: the run has no stored requests (grade unset) */
	struct pl_rq_grade grade; /* attainment, goodput (NaN without a duration) */
};

/*
 * Adds the per-request SLO columns to a built comparison (compare --slo):
 * sets cmp->has_slo and cmp->slo, and for each row and column the median
 * over the row's runs that have a value (a run without stored requests has
 * none of the three; a run with requests but no duration has an
 * attainment and no goodput), with min, max and n, and the change in
 * percent against the row's baseline (as for metrics: 100 (v / b - 1),
 * none where b is 0 or n/a). grades[0..n) are the runs' grades, in any
 * order; a row's run missing from them counts as without requests. Runs
 * without requests are named in one caveat (CAV_SLO_NO_REQUESTS), runs
 * with requests but no duration in another (CAV_SLO_NO_DURATION). Pure.
 * Returns 0 or PL_ENOMEM (err set).
 */
int pl_compare_grade_slo(struct pl_comparison *cmp, const struct pl_rq_slo *slo,
                         const struct pl_run_grade *grades, size_t n, struct pl_error *err);

/* Frees what s owns and zeroes it. */
void pl_subset_release(struct pl_subset *s);

/* Frees cmp's subsets (nsubsets 0 afterwards). */
void pl_subsets_release(struct pl_comparison *cmp);

/* Frees everything in cmp. NULL is a no-op. */
void pl_comparison_release(struct pl_comparison *cmp);

/* Label of a row: axis values joined with " / " (e.g. "2x NVIDIA A100 80G").
 * Writes into buf (size n, truncated, NUL-terminated). Returns buf. */
char *pl_compare_row_label(const struct pl_comparison *cmp, size_t row, char *buf, size_t n);

#endif

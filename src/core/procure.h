/*
 * procure.h — procurement arithmetic: price, cost per million output tokens,
 * throughput per accelerator, and the throughput that meets a service-level
 * objective (SLO) along a concurrency sweep.
 *
 * A procurement review compares accelerators at an equal service level, not
 * at their peak. The comparison (compare.h) is built with the axis fields
 * plus `concurrency`; this module groups its rows by the axis fields other
 * than concurrency (one group per accelerator, say) and, per group, walks the
 * sweep in order of concurrency. Every figure here is DERIVED and reports
 * label it so, with the formula below.
 *
 * Formulas (all throughputs are output tokens/s, medians of the row's runs):
 *
 *   throughput per accelerator  = output_throughput / accelerator_count
 *   price per accelerator-hour  = price_per_hour / accelerator_count
 *   cost per 1M output tokens   = price_per_hour / (output_throughput * 3600) * 1e6
 *        (price_per_hour is per instance-hour, i.e. for all accelerators of
 *         the row together, at the throughput of the whole instance)
 *   interactivity               = 1 / tpot_p50   (tokens/s seen by one request)
 *
 * API deployments (deployment = cloud-api) billed per token, with
 * price_per_million_input_tokens (P_in) and price_per_million_output_tokens
 * (P_out) from the runs or the price table:
 *
 *   cost per 1M output tokens   = P_out + P_in * input_tokens / max_output_tokens
 *
 *   Every request pays for its prompt as well as for what it generates; the
 *   prompt's cost is attributed to the tokens it generates, so the figure
 *   means what the hourly one means (an instance-hour also pays for prefill
 *   and decode together) and the two can stand in one column. The ratio is
 *   the workload of the condition key (input_tokens and max_output_tokens,
 *   equal in every row of a comparison), not a measurement: it assumes each
 *   request generated max_output_tokens (fixed-length benchmarks, e.g. the
 *   random dataset with ignore_eos); a request that stops early makes the
 *   real cost per output token higher. The figure does not depend on
 *   throughput or concurrency. At the SLO it is shown only when some point
 *   of the sweep meets the SLO (the API was measured to deliver that service
 *   level); there is no price per accelerator (the accelerators are unknown).
 *   A cloud-api row without both token prices falls back to price_per_hour
 *   (a dedicated endpoint billed by the hour).
 *
 * SLO-constrained throughput. An SLO is a set of upper limits on latency
 * metrics, e.g. ttft_p95 <= 0.5 s and tpot_p95 <= 0.05 s. A sweep point
 * meets it when every limited metric is known and <= its limit. With the
 * points sorted by concurrency c_0 < c_1 < ..., for each neighbouring pair
 * where point i meets the SLO and point i+1 does not, each violated metric
 * L is assumed linear in concurrency between the two points, and crosses its
 * limit at
 *
 *   t_L = (limit_L - L_i) / (L_{i+1} - L_i)          (0 <= t_L < 1)
 *   t   = min over the metrics violated at i+1 of t_L
 *   c*  = c_i + t * (c_{i+1} - c_i)                  (interpolated concurrency)
 *   X*  = X_i + t * (X_{i+1} - X_i)                  (interpolated throughput)
 *
 * The SLO throughput is the largest of the measured throughputs of meeting
 * points and the interpolated X* values; the result says whether it was
 * measured or interpolated and between which concurrencies. Nothing is
 * extrapolated: if the lowest concurrency already fails, no throughput
 * meets the SLO. Points lacking a limited metric are skipped (counted in
 * `skipped`); so is a point without a known concurrency, unless it is the
 * only point (one point needs no order).
 *
 * One verdict per kind of sweep: with both concurrency and request_rate on
 * the axis, a row with a concurrency belongs to a closed-loop sweep and a
 * row with only a request_rate to an open-loop one; an offer (the other
 * axis values) measured both ways is two groups, one per kind, each with
 * its own load, never one sweep over two loads.
 *
 * Open-loop sweeps: when request_rate (arrival rate, req/s) is on the axis
 * and concurrency is not, the sweep's load is the request rate and
 * everything above reads "request rate" for "concurrency" (a rate of inf,
 * all requests at once, is the last point; nothing is interpolated towards
 * it). A group's SLO throughput is a lower bound when it rests on one usable
 * point, or when the highest load measured still meets the SLO: the sweep
 * ended before the SLO was violated, so more load may still meet it. Its
 * cost (billed by the hour) is then an upper bound ("at most").
 *
 * Judged, bounded or not evaluable. A point that lacks a limited metric
 * (InferenceMAX records ttft p50/p90/p99 and no p95) is judged through the
 * nearest recorded higher percentile of the same family when that one
 * meets the limit (p99 0.59 s <= 1 s bounds p95: the point meets); a
 * higher percentile over the limit decides nothing and the point is not
 * evaluable (`lack` says what it lacks). A group with no evaluable point
 * has no SLO figure: it is not evaluable, which is not failing.
 *
 * Failed runs (pl_run_failed) are left out of the comparison but remain
 * part of their offer: each failed run whose axis values (other than the
 * load) name a group adds its load to the group's failed_loads. A lower
 * bound is never claimed for a sweep with a failed load (more load is not
 * known to meet the SLO where some measured load failed outright), and a
 * group with a failed load below its SLO load is flagged (fails_below_slo).
 *
 * Energy at the SLO, only where the runs record power_watts (mean power
 * draw of the run's accelerators together, W): at a measured SLO point its
 * median power P, at an interpolated one P_i + t * (P_{i+1} - P_i) with the
 * throughput's t (both neighbours must record it); then
 *
 *   J per output token          = P / X
 *   kWh per 1M output tokens    = P / X * 1e6 / 3.6e6
 *
 * None is invented where power is missing. With a lower-bound throughput
 * both are upper bounds, as the cost is.
 *
 * Pareto front (latency vs throughput chart): over all points of all
 * groups, a point is on the front when no other point has both a higher or
 * equal throughput per accelerator and a higher or equal interactivity, with
 * at least one strictly higher.
 */
#ifndef PL_PROCURE_H
#define PL_PROCURE_H

#include <stddef.h>

#include "core/compare.h"
#include "core/error.h"
#include "core/model.h"

#define PL_SLO_MAX 8

/* Upper limits on latency metrics. Initialise with {0}. */
struct pl_slo {
	int metric[PL_SLO_MAX];    /* enum pl_metric_id of each limited metric */
	double limit[PL_SLO_MAX];  /* its upper limit, canonical unit (seconds) */
	size_t n;                  /* limits in use; 0 = no SLO */
};

/* One point of a sweep, as given to pl_procure_slo_throughput(). */
struct pl_sweep_point {
	double concurrency;         /* x: concurrency of the point */
	double throughput;          /* output tokens/s (or per accelerator) */
	double latency[PL_SLO_MAX]; /* value of slo->metric[k] */
	unsigned char has[PL_SLO_MAX]; /* 1 where latency[k] is known */
};

/* How the SLO throughput was found. */
enum pl_slo_status {
	PL_SLO_NONE_MEETS = 0, /* no point meets the SLO (or no usable point) */
	PL_SLO_MEASURED,       /* a measured point is the best */
	PL_SLO_INTERPOLATED    /* interpolated between two neighbouring points */
};

/* Result of pl_procure_slo_throughput(). */
struct pl_slo_result {
	enum pl_slo_status status; /* see above */
	double throughput;         /* X or X*; valid unless NONE_MEETS */
	double concurrency;        /* c or c*; valid unless NONE_MEETS */
	double lo_concurrency;     /* INTERPOLATED: c_i */
	double hi_concurrency;     /* INTERPOLATED: c_{i+1} */
	size_t skipped;            /* points lacking a limited metric */
};

/* Cost per million output tokens (formula above); NAN when the throughput
 * is not positive and finite or the price is negative or not finite. */
double pl_procure_cost_per_mtok(double price_per_hour, double output_throughput);

/* Cost per million output tokens of an API billed per token (formula
 * above); NAN when a price is negative or not finite, input_tokens is
 * negative or not finite, or max_output_tokens is not positive and finite. */
double pl_procure_api_cost_per_mtok(double price_in_per_mtok, double price_out_per_mtok,
                                    double input_tokens, double max_output_tokens);

/* The SLO throughput of pts[0..n) (any order; the function sorts a copy by
 * concurrency). slo->n must be >= 1. Returns 0, PL_EUSAGE (no SLO) or
 * PL_ENOMEM; fills *res. */
int pl_procure_slo_throughput(const struct pl_sweep_point *pts, size_t n, const struct pl_slo *slo,
                              struct pl_slo_result *res, struct pl_error *err);

/* A price table entry for a hardware text (compared after normalization),
 * used for rows whose runs carry no price: a price per instance-hour, or
 * (per_token = 1) an API's prices per million input and output tokens. */
struct pl_price {
	const char *hardware;  /* as written in the table */
	double price_per_hour; /* used when per_token == 0 */
	int per_token;         /* 1: the two token prices below, not price_per_hour */
	double per_m_input;    /* price per million input tokens */
	double per_m_output;   /* price per million output tokens */
};

/* One point of a group (one comparison row). */
struct pl_procure_point {
	size_t row;                /* index into cmp->rows */
	double concurrency;        /* the load of the point: its concurrency, or its
	                              request_rate (req/s, may be +inf) in an
	                              open-loop sweep (pl_procurement.load); NAN if
	                              unknown */
	double throughput;         /* output_throughput median; NAN if missing */
	double throughput_per_acc; /* throughput / accelerators; NAN if unknown */
	double interactivity;      /* 1 / tpot_p50; NAN if missing */
	double cost_per_mtok;      /* at this point's throughput; NAN if unknown */
	int meets_slo;             /* 1 meets, 0 fails, -1 unknown or no SLO */
	int pareto;                /* 1 if on the Pareto front */
};

/* One group: the rows sharing the axis values other than concurrency. */
struct pl_procure_group {
	char *label;               /* row label without concurrency; owned */
	struct pl_procure_point *points; /* by ascending concurrency; owned */
	size_t npoints;
	size_t points_cap;         /* allocated entries of points (PL_ALLOC_GROW) */
	double accelerators;       /* accelerator_count; NAN if unknown */
	double price_per_hour;     /* NAN if unknown */
	int price_source;          /* 0 none, 1 from the runs, 2 from the price table,
	                              3 from the price table overriding a price the
	                              runs carry (runs_price_* hold it) */
	double runs_price_per_hour; /* price_source 3: the runs' price per hour, else NAN */
	double runs_price_in, runs_price_out; /* price_source 3: the runs' token prices, else NAN */
	int price_conflict;        /* 1 if the runs disagree (price left unknown) */
	int token_priced;          /* 1: cloud-api billed per token (costs from the two below) */
	double price_in_per_mtok;  /* per 1M input tokens; NAN unless token_priced */
	double price_out_per_mtok; /* per 1M output tokens; NAN unless token_priced */
	double peak_throughput;    /* highest measured throughput; NAN if none */
	double peak_concurrency;
	struct pl_slo_result slo;  /* of the throughput (not per accelerator) */
	double slo_throughput_per_acc; /* slo.throughput / accelerators; NAN if unknown */
	double slo_cost_per_mtok;  /* cost at slo.throughput; NAN if unknown */
	double price_per_acc_hour; /* price / accelerators; NAN if unknown */
	double goodput;            /* highest goodput metric of a meeting point; NAN if none */
	size_t nruns;              /* runs in the group's rows */
	int reference_only;        /* 1 if a row of the group has reference-only runs */
	int single_point;          /* 1 if the group has one point (no sweep) */
	int lower_bound;           /* 1 if the SLO figure is a lower bound: one usable
	                              point, or the sweep's highest load still meets
	                              the SLO (the limit lies beyond what was measured) */
	size_t usable;             /* points with the throughput, the load and every
	                              limited metric (the SLO search's input) */
	/* what the figures rest on (judged, bounded or not evaluable) */
	int cost_upper_bound;      /* 1 if slo_cost_per_mtok is an upper bound: billed
	                              by the hour at a lower-bound throughput ("at most") */
	unsigned lack;             /* why points were not evaluable: bit k (k < PL_SLO_MAX)
	                              a point lacks limit k's metric (and no recorded
	                              higher percentile meets the limit);
	                              PL_LACK_THROUGHPUT, PL_LACK_LOAD */
	int bound_metric[PL_SLO_MAX]; /* limit k judged at some meeting point through a
	                                 recorded higher percentile (its metric id) because
	                                 the point lacks slo.metric[k]; PL_M_NONE if never */
	double bound_value[PL_SLO_MAX]; /* that percentile's value (seconds) at bound_load */
	double bound_load[PL_SLO_MAX];  /* the highest load where it decided; may be NAN */
	/* failed runs (pl_run_failed) of the offer: part of it, never a sample */
	double *failed_loads;      /* their loads, ascending, distinct (NAN last); owned */
	size_t nfailed_loads;
	size_t nfailed_runs;       /* failed runs of the offer */
	int fails_below_slo;       /* 1 if a failed load lies below the SLO load */
	/* energy at the SLO, where the runs record power (power_watts) */
	double energy_j_per_tok;   /* J per output token = power / throughput; NAN if
	                              the SLO point's runs record no power */
	double energy_kwh_per_mtok; /* kWh per 1M output tokens = J/tok * 1e6 / 3.6e6 */
	double power_watts;        /* the power used (W): the SLO point's median, or
	                              interpolated as the throughput is; NAN if none */
	size_t power_runs;         /* runs whose power it rests on */
	/* the kind of sweep and the offer (one verdict per kind of sweep) */
	int load;                  /* the group's load field: PL_C_CONCURRENCY (closed
	                              loop) or PL_C_REQUEST_RATE (open loop); as
	                              pl_procurement.load unless the report is mixed */
	size_t offer;              /* index of the offer (the label) among the distinct
	                              labels, in order of first appearance: one colour
	                              and marker per offer in every chart and table,
	                              the same offer in both kinds of sweep alike */
};

/* Bits of pl_procure_group.lack past the limits' bits. */
#define PL_LACK_THROUGHPUT (1u << PL_SLO_MAX) /* output_throughput not recorded */
#define PL_LACK_LOAD (1u << (PL_SLO_MAX + 1))  /* the load (concurrency/request_rate) unknown */

/* The metric that bounds metric m from above when m is not recorded: the
 * next higher percentile of its family after `after` (PL_M_NONE: the
 * * first), up to p99_9, then its maximum ("ttft_p95" -> ttft_p99,
 * ttft_p99_9, ttft_max); PL_M_NONE when there is none (m is not a
 * percentile, or the list is exhausted). A higher percentile
 * is never below a lower one of the same requests, nor is a median of
 * higher percentiles below the median of the lower, so the bound is
 * conservative: it meets a limit only where m does. */
int pl_procure_bounding_metric(int m, int after);

/* The procurement view of a comparison. Release with pl_procurement_release(). */
struct pl_procurement {
	struct pl_slo slo;              /* copied */
	int sweep;                      /* 1 if concurrency or request_rate is on the axis */
	int load;                       /* the sweep's load field: PL_C_CONCURRENCY (closed
	                                   loop), PL_C_REQUEST_RATE (open loop: an axis with
	                                   request_rate and without concurrency) or -1 (no
	                                   sweep: a point's load is the concurrency the rows
	                                   share, else their request_rate) */
	int mixed;                      /* 1 when concurrency and request_rate are both on
	                                   the axis and both kinds of sweep have groups: a
	                                   row with a concurrency is closed loop, one with
	                                   only a request_rate open loop; each group's
	                                   `load` says which, the labels name neither
	                                   field, and the Pareto front is per kind */
	size_t noffers;                 /* distinct labels (pl_procure_group.offer) */
	struct pl_procure_group *groups; /* in the order of their first row */
	size_t ngroups;
	char **unused_prices;           /* price table keys naming no row's hardware
	                                   (tolerated: see pl_procure_build); owned */
	size_t nunused_prices;
	size_t unused_prices_cap;       /* allocated entries of unused_prices
	                                   (PL_ALLOC_GROW) */
};

/*
 * Builds the procurement view of cmp (whose runs are in runs) under slo
 * (may have n == 0) and the optional price table (prices may be NULL).
 * The table's entry for a row's hardware (compared after normalization)
 * wins over a price its runs carry (price_source 3 keeps what it
 * replaced); without an entry, the price_per_hour its runs carry when
 * they all agree. A deployment = cloud-api row whose table entry or runs
 * (all agreeing) give both token prices is priced per token instead
 * (formula above); a per-token entry does not price a local row.
 * A table entry naming the hardware of no row is PL_EINVALID, field
 * "prices", "'prices' entry 'K' matches the hardware of no row; the
 * closest is 'H'" (H: the row hardware nearest K by edit distance,
 * ignoring case) when it looks mistyped (K within 2 edits of H, or within
 * a fifth of K's length) or when some group is left without a price;
 * otherwise (hardware outside this selection) it is kept in
 * out->unused_prices, which the report names. Returns 0, PL_EINVALID or PL_ENOMEM; release *out with
 * pl_procurement_release() in any case.
 */
int pl_procure_build(const struct pl_comparison *cmp, const struct pl_run_list *runs,
                     const struct pl_slo *slo, const struct pl_price *prices, size_t nprices,
                     struct pl_procurement *out, struct pl_error *err);

/* Frees everything p owns. NULL is a no-op. */
void pl_procurement_release(struct pl_procurement *p);

#endif

/*
 * bundle_impl.h — private to the bundle writer (src/render/bundle*.c).
 *
 * A bundle is written in four concerns, one file each: bundle.c (the
 * language tables and the order of the files written), bundle_context.c
 * (the template context built from the comparison and the procurement
 * figures), bundle_charts.c (which charts: the sweep and Pareto SVGs and
 * the chart entries of the context), bundle_manifest.c (the sha256
 * manifest, the database hash and the directory rules) and
 * bundle_verify.c (comparing a bundle with a re-render). This header holds
 * what they share: the words the C code produces, the state of one render
 * and the functions one file calls in another.
 */
#ifndef PL_BUNDLE_IMPL_H
#define PL_BUNDLE_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "core/msg.h"
#include "core/procure.h"
#include "render/bundle.h"
#include "render/plot.h"
#include "render/template.h"
#include "render/words.h"

/* Words the C code produces, per language. */
struct words {
	const char *lang;
	const char *sweep_title, *sweep_x, *sweep_y;
	const char *pareto_title, *pareto_x, *pareto_y, *pareto_mark;
	const char *pareto_no_acc, *pareto_no_tpot; /* legend notes of a group not drawn */
	const char *measured;     /* "measured at concurrency %s" */
	const char *interpolated; /* "interpolated between concurrency %s and %s (at %s)" */
	const char *none;         /* no point meets */
	const char *no_slo;
	const char *price_runs, *price_table, *price_none, *price_conflict;
	const char *price_tokens; /* "%s in / %s out per 1M tokens" */
	const char *checklist[PL_CHK_COUNT];
	/* open-loop sweeps (request rate): the sweep chart and how an SLO figure was found */
	const char *sweep_title_rate, *sweep_x_rate;
	const char *measured_rate, *interpolated_rate, *none_rate;
	const char *load_concurrency, *load_rate; /* the load column's name */
	const char *load_word_concurrency, *load_word_rate; /* the load in a sentence */
	/* the verdict: flags of an offer and what could not be computed */
	const char *flag_lower_bound, *flag_single, *flag_interpolated, *flag_reference;
	const char *note_lower_bound_one;  /* the SLO figure rests on one usable point */
	const char *note_lower_bound_top;  /* "the highest %s measured (%s) still meets the SLO" */
	const char *note_skipped;          /* "%s of %s points lack a limited metric or the throughput" */
	const char *note_no_acc;           /* no accelerator count: no per-accelerator figure */
	const char *note_no_price;         /* no price: no cost */
	const char *note_price_conflict;   /* the runs' prices disagree: no cost */
	const char *note_price_override;   /* "%s from the definition replaces %s stored with the runs" */
	const char *note_price_same;       /* "price %s from the definition (the runs store the same)" */
	const char *price_override;        /* price source: the definition over the runs */
	const char *ref_caveat;            /* "reference-only: the runs lack %s" */
	const char *ref_rows;              /* "%s of %s runs" */
	const char *per_hour, *per_mtok;   /* "%s %s/h" and "%s %s in / %s out per 1M tokens" */
	const char *price_unused;          /* "the definition's price for '%s' names the hardware of no row: not used" */
	const char *list_sep;              /* between the items of a list in a sentence */
	const char *no_currency;           /* costs from the runs' prices, no currency named */
	const char *sweep_not_drawn;       /* the definition asks for a sweep chart; no load on the axis */
	const char *sweep_points_not_drawn; /* "%s: %s points not drawn (load infinite or unknown)" */
	/* charts (bundle_charts.c, plot.c): "%s" is filled as each says */
	const char *point_label;     /* "c=%s": a sweep point's concurrency */
	const char *latency_title;   /* "%s vs output throughput per offer": metric */
	const char *latency_x;       /* output throughput axis */
	const char *slo_line;        /* "SLO: %s <= %s s": metric, limit */
	const char *cost_title, *cost_x; /* cost per 1M output tokens at the SLO */
	const char *cost_no_price, *cost_no_slo; /* why an offer has no cost bar */
	const char *bars_title;      /* "%s (%s), lower is better" etc.: metrics, unit */
	const char *better_lower, *better_higher; /* appended to a bar chart's title */
	const char *unit_s, *unit_toks; /* value axis labels: seconds, tokens/s */
	/* open-loop sweeps: the point labels and the titles that explain them */
	const char *point_label_rate;     /* "r=%s": a sweep point's request rate */
	const char *latency_title_rate;   /* latency_title with "labels: request rate" */
	const char *pareto_title_rate;    /* pareto_title with "labels: request rate" */
	/* the currency of the cost axis: "%s (%s)": axis words, currency */
	const char *with_currency;
	const char *currency_unnamed;     /* in place of the currency when none is named */
};

/* One SVG chart of a bundle (bundle_charts.c). */
struct bundle_svg {
	char file[64]; /* file name in the bundle, e.g. "cost.svg" */
	char *title;   /* heap */
	char *svg;     /* heap */
};

#define BUNDLE_MAX_SVG 24 /* (1 + PL_SLO_MAX + 2) charts per kind of sweep */

/* Everything the writers need. */
struct bundle {
	const struct pl_comparison *cmp;
	const struct pl_run_list *runs;
	const struct pl_procurement *proc;
	const struct pl_bundle_opts *o;
	const struct words *w;
	/* the words of each kind of sweep (a closed-loop group's load is the
	 * concurrency, an open-loop one's the request rate): bundle_words() */
	const struct words *w_closed, *w_open;
	struct pl_tpl_ctx *ctx;
	struct bundle_svg svg[BUNDLE_MAX_SVG]; /* the charts drawn by bundle_charts.c, in report order */
	size_t nsvg;
	char db_hash[65];
	char bundle_id[PL_BUNDLE_ID_SIZE]; /* pl_bundle_id_compute over the render's inputs */
	char *how_to_check; /* the "how to check this report" paragraph in the
	                       bundle's language (pl_bundle_context); heap */
	char as_of[32];    /* the runs' as-of time: the definition's "as_of", else the epoch */
	char gnuplot[128]; /* `gnuplot --version` when gnuplot drew charts, else "" */
	/* the verdict as its table says it (bundle_verdict.c), for the
	 * workbook's first sheet: noffers group indexes in rank order and
	 * each rank's flags and notes joined by "; " (heap; freed by
	 * pl_bundle_free_verdict) */
	size_t *offer_order;
	size_t *offer_rank; /* each one's rank within its kind of sweep */
	char **offer_flags, **offer_notes;
	size_t noffers;
};

/* The words for group g of b's procurement: its kind of sweep's. */
static inline const struct words *bundle_words(const struct bundle *b,
                                               const struct pl_procure_group *g)
{
	if (!b->proc || !b->proc->mixed || !b->w_closed || !b->w_open)
		return b->w;
	return g->load == PL_C_REQUEST_RATE ? b->w_open : b->w_closed;
}

/* The context's bundle id, "how to check" paragraph (b->how_to_check,
 * heap) and errata; and its runs with their checklist marks, sources and
 * hashes (bundle_identity.c). Return 0 or PL_ENOMEM. */
int pl_bundle_ctx_identity(struct bundle *b);
int pl_bundle_ctx_runs(struct bundle *b);

/* Fills b->ctx's verdict section (verdict, currency, cost_unit, has_slo,
 * verdicts, chart_notes, verdict_notes) and b's verdict arrays (offer_*,
 * freed first). Returns 0 or PL_ENOMEM. Defined in bundle_verdict.c. */
int pl_bundle_ctx_verdict(struct bundle *b);

/* Frees the verdict arrays of b. Defined in bundle_verdict.c. */
void pl_bundle_free_verdict(struct bundle *b);

/* The number formats of a bundle's context, defined in bundle_context.c:
 * out (size n) = fmt with each "%s" replaced by the next of a, b, c
 * (NULL: nothing), cut to fit; */
void pl_bundle_subst(char *out, size_t n, const char *fmt, const char *a, const char *b,
                     const char *c);
/* v with 4 significant digits into buf (size n), "-" when NaN; returns buf; */
char *pl_bundle_num(char *buf, size_t n, double v);
/* v in full (pl_fmt_num) into buf (size n), "" when NaN; returns buf. */
char *pl_bundle_full(char *buf, size_t n, double v);

/* A price with the definition's currency into dst (size n): "USD 8/h" or
 * "USD 0.6 in / 0.8 out per 1M tokens" (per_token: in and out per 1M
 * tokens, else hour per hour); "-" when unknown. Defined in
 * bundle_context.c. */
void pl_bundle_price_text(const struct bundle *b, int per_token, double hour, double in,
                          double out, char *dst, size_t n);

/* Sets key of it to the figure v, "≤ 1.080" / "≥ 540.0" when it is a bound
 * (bound PL_MSG_VERDICT_AT_MOST / AT_LEAST, worded in lang; PL_MSG_NONE:
 * as it is), "-" when unknown, and key_sort (key under 59 bytes) to v in
 * full, "" when unknown, for sorting. Returns 0 or nonzero (out of
 * memory). Defined in bundle_context.c. */
int pl_bundle_set_bounded(struct pl_tpl_ctx *it, const char *key, double v,
                          enum pl_msg_code bound, enum pl_lang lang);

/* 1 if run id is one of cmp's runs. Defined in bundle_context.c. */
int pl_bundle_run_in_cmp(const struct pl_comparison *cmp, long long id);

/* Fills b->ctx with the header, selection, comparison, procurement and
 * runs sections (everything but the charts). Returns 0 or PL_ENOMEM.
 * Defined in bundle_context.c. */
int pl_bundle_context(struct bundle *b);

/* Fills b->ctx for report.axis.md, the template of the built-in default
 * definition (`report --axis`), with charts (ncharts) the gnuplot charts
 * written. Returns 0, PL_ENOMEM or PL_EIO (err set). Defined in
 * bundle_context.c. */
int pl_bundle_axis_context(struct bundle *b, const struct pl_chart *charts, size_t ncharts,
                           struct pl_error *err);

/* Draws the procurement charts the definition asks for into b->svg (in
 * report order: cost per 1M output tokens at the SLO, latency vs
 * throughput per SLO metric, throughput vs concurrency — these with
 * "sweep" —, the Pareto chart with "pareto"). Returns 0 or PL_ENOMEM.
 * Defined in bundle_charts.c. */
int pl_bundle_make_charts(struct bundle *b);

/* Writes every chart of b->svg into dir as its file. Returns 0 or PL_EIO /
 * PL_ENOMEM with err set. Defined in bundle_charts.c. */
int pl_bundle_write_charts(struct bundle *b, const char *dir, struct pl_error *err);

/* Frees b->svg. Defined in bundle_charts.c. */
void pl_bundle_free_charts(struct bundle *b);

/* Adds the "charts" list to b->ctx: the sweep and Pareto SVGs, then each
 * gnuplot chart of charts (ncharts) with an inline SVG bar chart of its
 * data for the HTML. Returns 0 or PL_ENOMEM. Defined in bundle_charts.c. */
int pl_bundle_ctx_charts(struct bundle *b, const struct pl_chart *charts, size_t ncharts);

/* Sorted names of the regular files of dir into *names (*n of them; free
 * with pl_bundle_free_names). Returns 0, PL_EIO or PL_ENOMEM. Defined in
 * bundle_manifest.c. */
int pl_bundle_list_dir(const char *dir, char ***names, size_t *n, struct pl_error *err);

/* Frees n names and the array v. */
void pl_bundle_free_names(char **v, size_t n);

/* Renders into dir, an empty directory. Returns 0, PL_ETOOL (only gnuplot
 * failed: the rest is written) or another PL_E* code with err set. */
typedef int (*pl_bundle_render_fn)(const char *dir, void *ctx, struct pl_error *err);

/* Under a lock beside dir, checks dir (pl_bundle_dir_check), renders with
 * fn into a new sibling temporary directory and swaps it in place of dir,
 * removing the old bundle and any leftovers of interrupted renders.
 * Returns fn's code (PL_ETOOL: swapped in all the same) or PL_EIO /
 * PL_ENOMEM. Defined in bundle_dir.c. */
int pl_bundle_publish(const char *dir, pl_bundle_render_fn fn, void *ctx, struct pl_error *err);

/* Sets b->db_hash: the sha256 of the selected runs as `list --format json`
 * renders them. Returns 0 or PL_ENOMEM. */
int pl_bundle_db_hash(struct bundle *b, struct pl_error *err);

/* Sets b->bundle_id (pl_bundle_id_compute over the definition's bytes,
 * the language, the epoch, the tool version and the content identity of
 * every run of the comparison at its revision) and b->as_of. Returns 0 or
 * PL_ENOMEM. Defined in bundle_manifest.c. */
int pl_bundle_compute_id(struct bundle *b, struct pl_error *err);

/* A pl_fs_write_atomic body (v: struct bundle): runs.jsonl, the export
 * line (render/export.c) of every run of the comparison with its trail,
 * in the bundle's run order. Defined in bundle_manifest.c. */
int pl_bundle_write_runs(FILE *fp, void *v, struct pl_error *err);

/* A pl_fs_write_atomic body (v: struct bundle): CITATION.cff, the
 * bundle's citation (title, date, bundle id, tool and version). Defined
 * in bundle_manifest.c. */
int pl_bundle_write_citation(FILE *fp, void *v, struct pl_error *err);

/* What pl_bundle_write_manifest needs: the render and its directory. */
struct manifest_job {
	struct bundle *b;     /* the render */
	const char *dir;      /* the bundle directory, every output written */
	struct pl_error *err; /* unused; errors go to the writer's err */
};

/* A pl_fs_write_atomic body (v: struct manifest_job): manifest.json with
 * the inputs and the sha256 of every file already in the directory.
 * Returns 0, PL_EIO or PL_ENOMEM. */
int pl_bundle_write_manifest(FILE *fp, void *v, struct pl_error *err);

#endif

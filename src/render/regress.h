/*
 * regress.h — the tables of regression tracking: the verdicts of `check`
 * and the series of `history`, as terminal text, Markdown or JSON.
 *
 * Same conventions as render.h: the caller owns the stream, numbers are in
 * the C locale (4 significant digits for people, shortest round-trip text in
 * JSON), strings from input files are sanitised for the terminal, escaped
 * for Markdown and JSON-escaped. Returns 0 or PL_EIO when the stream fails.
 *
 * JSON shapes (canonical names and units; infinity is "inf"):
 *   check:   {"axis", ["group_by", "baseline_kind": "window"|"previous"|"values",
 *             ["window"]] (series checks only), "baseline": {"value", "n",
 *             "run_ids"}, "candidate": {...},
 *             "alpha", "threshold_pct", "shared_conditions": {...},
 *             "metrics": [{"metric", "unit", "direction", "verdict",
 *                          "baseline": SUMMARY, "candidate": SUMMARY,
 *                          "change_pct", "p_value",
 *                          "test": "mann-whitney"|"prediction",
 *                          ["bound_low", "bound_high"] (prediction, decided),
 *                          ["baseline_points"] (series checks), "min_p", "decidable",
 *                          "accepted": null | {"run_id", "reason", "accepted_at"}}],
 *             "regressions", "accepted", "improvements", "decidable",
 *             "exit_code", "caveats": [...]}
 *   history: {"metric", "unit", "direction", "by", "group_by", "time_axis",
 *             "shared_conditions": {...},
 *             "points": [{"index", "value", "n", "run_ids", ...SUMMARY, "level",
 *                         ["time"] (earliest run_started_at, seconds since the epoch)}],
 *             "step_detection": {"ran", "method", "penalty_scale", "sigma"},
 *             "steps": [{"index", "value", "before", "after", "change_pct",
 *                        "direction", "first_run", "accepted": null | {...}}],
 *             "failing_steps", "skipped_no_value", "skipped_no_metric",
 *             "latest": {"verdict", ["point", "window", "median", "window_mean",
 *                        "window_sd", "window_median", "window_sigma" (the robust
 *                        interval's centre and sigma), "bound_low", "bound_high",
 *                        "change_pct", "p_value"] (unless "too few samples"),
 *                        "accepted", ["last_point_failed_run_ids"] (the last
 *                        point's failed runs, when it has some)},
 *             "caveats": [...]}
 *             The shape follows the command line, never the data: one
 *             --metric NAME gives this object; a list (--metric A,B or
 *             --metric A --metric B) gives a JSON array of these, in order
 *             (kept as it was: scripts read the single object).
 *   SUMMARY = "n", "median", "min", "max", "ci_low", "ci_high", "ci_level",
 *             "ci_valid" (ci_low/ci_high are null when the interval is not
 *             valid: fewer than 6 samples at 95%).
 */
#ifndef PL_REGRESS_H
#define PL_REGRESS_H

#include <stdio.h>

#include "core/check.h"
#include "core/error.h"
#include "core/exit.h"
#include "core/history.h"
#include "render/render.h"

/* Exit status a check gives (core/exit.h): PL_EXIT_REGRESSION if any
 * regression, else PL_EXIT_TOO_FEW if no metric was decidable, else
 * PL_EXIT_OK. */
int pl_check_exit_status(const struct pl_check *chk);

/* Writes chk in fmt (text, markdown or json; csv is PL_EUSAGE): a header
 * with the two sides and the shared conditions, one row per metric (n, both
 * medians with their 95% interval, change, p, verdict), then one line per
 * regression, improvement, accepted regression and undecidable metric (with
 * why), and the result. Returns 0, PL_EUSAGE, PL_ENOMEM or PL_EIO. */
int pl_render_check(FILE *out, const struct pl_check *chk, enum pl_table_format fmt,
                    struct pl_error *err);

/* Writes h in fmt (text, markdown or json; csv is PL_EUSAGE): a header, one
 * row per point (value, n, median, interval, fitted level, step mark), the
 * steps with their levels, change, first run and acceptance, and notes.
 * Returns 0, PL_EUSAGE, PL_ENOMEM or PL_EIO. */
int pl_render_history(FILE *out, const struct pl_history *h, enum pl_table_format fmt,
                      struct pl_error *err);

#endif

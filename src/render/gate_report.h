/*
 * gate_report.h — the night of the nightly gate (core/gate_night.h) as
 * text, Markdown, JUnit XML and GitHub annotations: what `check --baseline
 * window:N --candidate latest` prints when its selection holds several
 * series.
 *
 * Text and Markdown: a header (series, checks, window, family-wise alpha,
 * threshold), then what needs attention — each regression, accepted
 * regression, improvement, series with failed runs and started series, one
 * line each, under its series' label — then the other checks: in text one
 * line per series with the checks' changes, in Markdown collapsed in a
 * <details> block (a sticky pull-request comment stays short), then the
 * result line. JUnit: one <testsuites> with one <testsuite> "perfledger
 * gate", one <testcase> per series x metric named "METRIC [LABEL]" (a
 * regression is a <failure type="regression">, too few a <skipped>), one
 * per series with failed runs. GitHub: one ::error per failing check
 * (title "perfledger check: METRIC regression [LABEL]"), one ::notice per
 * improvement or accepted regression, then the Markdown as the summary.
 * Returns 0, PL_EUSAGE (csv), PL_ENOMEM or PL_EIO (err set).
 */
#ifndef PL_GATE_REPORT_H
#define PL_GATE_REPORT_H

#include <stdio.h>

#include "core/error.h"
#include "core/gate_night.h"
#include "render/render.h"

/* Exit status of a night (core/exit.h): PL_EXIT_REGRESSION if any check is
 * red or any series' latest point has failed runs, else PL_EXIT_TOO_FEW if
 * no check was decidable (every series lacks points), else PL_EXIT_OK. */
int pl_gate_exit_status(const struct pl_gate_night *night);

/* Writes night in fmt: text, markdown or json. */
int pl_render_gate(FILE *out, const struct pl_gate_night *night, enum pl_table_format fmt,
                   struct pl_error *err);

/* Writes night as one JUnit XML document. */
int pl_render_gate_junit(FILE *out, const struct pl_gate_night *night, struct pl_error *err);

/* Writes night as GitHub workflow annotations to out, then its Markdown
 * (pl_render_gate) to summary (may be out; NULL: none). */
int pl_render_gate_github(FILE *out, FILE *summary, const struct pl_gate_night *night,
                          struct pl_error *err);

#endif

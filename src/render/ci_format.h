/*
 * ci_format.h — `check` and `history` for CI systems: JUnit XML (read by
 * GitLab, Jenkins, Buildkite and most CI test-report views) and GitHub
 * Actions workflow commands (annotations) plus a Markdown step summary.
 *
 * JUnit: one <testsuites> holding one <testsuite> for the condition key
 * checked (its shared conditions as <property name="condition.FIELD">), with
 * one <testcase> per metric (classname "perfledger.check" or
 * "perfledger.history", name "METRIC [KEY]" where KEY is the series label
 * of core/series_label.h: model, hardware, engine, concurrency / request
 * rate, input/output tokens where known, then the conditions the selection
 * fixed with --where, comparison.named). A regression (or, for history, a
 * failing step) is a <failure type="regression"> whose message is the line
 * the text format prints; too few samples is <skipped>; a refused
 * comparison is one <testcase name="conditions"> with an <error
 * type="refused"> listing every differing field. The document validates
 * against tests/fixtures/ci/junit.xsd, a schema written after the Jenkins
 * xunit-plugin's junit-10.xsd (the Apache Ant JUnit report format as
 * Jenkins reads it): <testsuites> carries name, tests, failures, errors
 * (no skipped attribute there); <testsuite> name, tests, failures, errors,
 * skipped. No time stamps and no durations, so the output is
 * byte-reproducible. Every input string is XML-escaped
 * (pl_html_write_text: & < > " ', controls and bidi as '?', invalid UTF-8
 * as U+FFFD; XML 1.0 cannot carry most controls at all).
 *
 * GitHub: one workflow command per verdict that needs attention, as GitHub
 * documents them ("Workflow commands for GitHub Actions"):
 * `::error title=T::MESSAGE` for a regression / failing step / refusal,
 * `::warning title=T::MESSAGE` for too few samples, `::notice title=T::
 * MESSAGE` for an accepted regression or step and for an improvement. Data
 * is escaped as the actions/toolkit does (% -> %25, CR -> %0D, LF -> %0A),
 * properties additionally (: -> %3A, , -> %2C), after input text has been
 * made inert for a terminal (pl_text_sanitize), so that no value from an
 * input file can start a second command. The Markdown step summary is the
 * markdown format of the same result.
 */
#ifndef PL_CI_FORMAT_H
#define PL_CI_FORMAT_H

#include <stdio.h>

#include "core/check.h"
#include "core/compare.h"
#include "core/error.h"
#include "core/history.h"

/* Writes s (NULL = "") escaped as GitHub workflow command data (property
 * 0: % CR LF) or as a property value (property 1: also : and ,), after
 * sanitising it for the terminal (controls and bidi as '?', invalid UTF-8
 * as '?'; CR and LF are controls, so from input text they become '?'; the
 * percent escapes matter for our own text). Returns 0, PL_ENOMEM or PL_EIO. */
int pl_gh_write_escaped(FILE *out, const char *s, int property);

/* Writes chk as a JUnit XML document (see the file comment). Returns 0,
 * PL_ENOMEM or PL_EIO (err set). */
int pl_render_check_junit(FILE *out, const struct pl_check *chk, struct pl_error *err);

/* Writes chk as GitHub workflow annotations to out, then its Markdown
 * summary (pl_render_check in markdown) to summary (may be out; NULL: no
 * summary). Returns 0, PL_ENOMEM or PL_EIO (err set). */
int pl_render_check_github(FILE *out, FILE *summary, const struct pl_check *chk,
                           struct pl_error *err);

/* Writes the histories hs[0..nh) (one per metric) as one JUnit XML
 * document: a testsuite and one testcase per metric's series, a <failure
 * type="step"> per failing step (not accepted, worse; any step for a metric
 * without a direction) with the message "step at point I (BY VALUE): before
 * -> after UNIT (+x% worse), first run after: ID", and a <failure
 * type="regression"> when the latest point is a regression against the
 * points before it ("latest point I (BY VALUE): ... : regression"). Returns
 * 0, PL_ENOMEM or PL_EIO (err set). */
int pl_render_history_junit(FILE *out, const struct pl_history *hs, size_t nh,
                            struct pl_error *err);

/* Writes the histories hs[0..nh) as GitHub annotations (::error per
 * failing step and for a latest point that is a regression, ::notice per
 * accepted or better step and for an accepted or improved latest point) to
 * out, then their Markdown summary (pl_render_history in markdown) to
 * summary (NULL: none). Returns 0, PL_ENOMEM or PL_EIO (err set). */
int pl_render_history_github(FILE *out, FILE *summary, const struct pl_history *hs, size_t nh,
                             struct pl_error *err);

/* A refused comparison (cmp->mismatches) of command cmd ("check" or
 * "history") in JUnit: one testcase "conditions" in error, the message
 * naming every differing field with its values. Returns 0 or PL_EIO. */
int pl_render_refusal_junit(FILE *out, const char *cmd, const struct pl_comparison *cmp,
                            struct pl_error *err);

/* The same refusal as one `::error title=perfledger CMD: comparison
 * refused::...` annotation, and the summary line to summary (NULL: none).
 * Returns 0, PL_ENOMEM or PL_EIO. */
int pl_render_refusal_github(FILE *out, FILE *summary, const char *cmd,
                             const struct pl_comparison *cmp, struct pl_error *err);

#endif

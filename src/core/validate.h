/*
 * validate.h — the rules every canonical run must meet before it is stored.
 *
 * Adapters convert, normalize.c canonicalizes, and this module decides: a run
 * that breaks a rule is rejected with an error naming the field and what was
 * expected. Rules: required conditions present (model, precision, engine,
 * hardware), at least one metric, no negative latency or throughput, error
 * rate in [0, 1], every metric finite, percentiles in order within each
 * family (p50 <= p90 <= p95 <= p99 <= p99_9, min <= p50 <= max), counts whole
 * and non-negative. Syntax-level rules (JSON numbers for versions, NaN,
 * duplicate keys, unknown units) are enforced by the adapters, which see the
 * raw input.
 */
#ifndef PL_VALIDATE_H
#define PL_VALIDATE_H

#include "core/error.h"
#include "core/model.h"

/* Checks run against the rules above. Also recomputes the checklist
 * (pl_run_update_checklist) and derives, where the run lacks them, the
 * per-accelerator throughputs (from accelerator_count) and the realized
 * workload: input_tokens_mean = total_input_tokens / requests_completed and
 * output_tokens_mean = total_output_tokens / requests_completed (tokens per
 * request), which the 10% workload rule of compare reads. Returns 0 or
 * PL_EINVALID with err naming the field (err->field) and the expected value
 * range; err->file is left for the caller to set. */
int pl_validate_run(struct pl_run *run, struct pl_error *err);

/* The first rule alone: every required condition (model, precision,
 * engine, hardware) present in run. Returns 0, or PL_EINVALID with err
 * naming every missing one at once (err->field the first), worded as
 * import words it. Merge checks each run of another ledger with it. */
int pl_validate_required(const struct pl_run *run, struct pl_error *err);

#endif

-- 007_conditions.sql — every condition a result file records is kept and keyed (issue 11).
--
-- Conditions that move the numbers and were dropped or kept out of the key
-- before: parallelism (pipeline, data, expert; tensor was there), KV offload,
-- prefix caching, speculative decoding, the engine's batch limits, the
-- arrival process (burstiness, ramp-up, trace replay), the MLPerf scenario
-- and its latency limits, and whether output counts include reasoning
-- tokens. Existing rows get NULL (missing), which keeps their key_text valid.
--
-- condition_extras: what a source file records that no canonical column
-- holds, as "FORMAT.key" = text; part of the condition set (key_text ends
-- with them, so two sets that differ only in an extra are two rows) and
-- compared like any condition. run_flat gets the new columns and an
-- `extras` column (a JSON object, NULL when the set has none).

ALTER TABLE conditions ADD COLUMN pipeline_parallel_size REAL; -- count
ALTER TABLE conditions ADD COLUMN data_parallel_size REAL; -- count
ALTER TABLE conditions ADD COLUMN expert_parallel_size REAL; -- count
ALTER TABLE conditions ADD COLUMN kv_offload TEXT; -- none, cpu, lmcache, ...
ALTER TABLE conditions ADD COLUMN prefix_caching INTEGER CHECK (prefix_caching IN (0, 1)); -- 0/1
ALTER TABLE conditions ADD COLUMN speculative_method TEXT; -- none, eagle, mtp, ngram, ...
ALTER TABLE conditions ADD COLUMN speculative_draft_tokens REAL; -- tokens per step
ALTER TABLE conditions ADD COLUMN max_num_seqs REAL; -- sequences
ALTER TABLE conditions ADD COLUMN max_num_batched_tokens REAL; -- tokens
ALTER TABLE conditions ADD COLUMN burstiness REAL; -- gamma shape; 1 = Poisson
ALTER TABLE conditions ADD COLUMN ramp_up_strategy TEXT; -- linear, exponential
ALTER TABLE conditions ADD COLUMN ramp_up_start_rps REAL; -- requests/s
ALTER TABLE conditions ADD COLUMN ramp_up_end_rps REAL; -- requests/s
ALTER TABLE conditions ADD COLUMN trace TEXT; -- trace replayed
ALTER TABLE conditions ADD COLUMN trace_time_scale REAL; -- factor
ALTER TABLE conditions ADD COLUMN scenario TEXT; -- MLPerf scenario
ALTER TABLE conditions ADD COLUMN ttft_limit REAL; -- seconds
ALTER TABLE conditions ADD COLUMN tpot_limit REAL; -- seconds
ALTER TABLE conditions ADD COLUMN output_includes_reasoning INTEGER CHECK (output_includes_reasoning IN (0, 1)); -- 0/1

CREATE TABLE condition_extras (
	condition_id INTEGER NOT NULL REFERENCES conditions (id),
	name TEXT NOT NULL,  -- "FORMAT.key", e.g. "vllm-serving.max_concurrent_requests"
	value TEXT NOT NULL, -- the file's value as text
	PRIMARY KEY (condition_id, name)
) WITHOUT ROWID;

DROP VIEW run_flat;

-- Every condition, every metric and the provenance of a run in one row.
CREATE VIEW run_flat AS
SELECT
	runs.id,
	conditions.model,
	conditions.model_source,
	conditions.weights_hash,
	conditions.precision,
	conditions.quantization,
	conditions.engine,
	conditions.engine_version,
	conditions.engine_args,
	conditions.hardware,
	conditions.accelerator_count,
	conditions.driver_version,
	conditions.cuda_version,
	conditions.tensor_parallel_size,
	conditions.max_model_len,
	conditions.kv_cache_dtype,
	conditions.input_tokens,
	conditions.max_output_tokens,
	conditions.concurrency,
	conditions.request_rate,
	conditions.warmup_requests,
	conditions.dataset,
	conditions.num_prompts,
	conditions.temperature,
	conditions.streaming,
	conditions.deployment,
	conditions.benchmark_tool,
	conditions.benchmark_tool_version,
	conditions.api_backend,
	conditions.repetitions,
	conditions.price_per_hour,
	conditions.price_per_million_input_tokens,
	conditions.price_per_million_output_tokens,
	conditions.pipeline_parallel_size,
	conditions.data_parallel_size,
	conditions.expert_parallel_size,
	conditions.kv_offload,
	conditions.prefix_caching,
	conditions.speculative_method,
	conditions.speculative_draft_tokens,
	conditions.max_num_seqs,
	conditions.max_num_batched_tokens,
	conditions.burstiness,
	conditions.ramp_up_strategy,
	conditions.ramp_up_start_rps,
	conditions.ramp_up_end_rps,
	conditions.trace,
	conditions.trace_time_scale,
	conditions.scenario,
	conditions.ttft_limit,
	conditions.tpot_limit,
	conditions.output_includes_reasoning,
	NULLIF((SELECT json_group_object(e.name, e.value) FROM condition_extras AS e
	 WHERE e.condition_id = conditions.id), '{}') AS extras,
	runs.run_started_at,
	runs.ttft_mean,
	runs.ttft_std,
	runs.ttft_min,
	runs.ttft_max,
	runs.ttft_p50,
	runs.ttft_p90,
	runs.ttft_p95,
	runs.ttft_p99,
	runs.ttft_p99_9,
	runs.tpot_mean,
	runs.tpot_std,
	runs.tpot_min,
	runs.tpot_max,
	runs.tpot_p50,
	runs.tpot_p90,
	runs.tpot_p95,
	runs.tpot_p99,
	runs.tpot_p99_9,
	runs.itl_mean,
	runs.itl_std,
	runs.itl_min,
	runs.itl_max,
	runs.itl_p50,
	runs.itl_p90,
	runs.itl_p95,
	runs.itl_p99,
	runs.itl_p99_9,
	runs.e2el_mean,
	runs.e2el_std,
	runs.e2el_min,
	runs.e2el_max,
	runs.e2el_p50,
	runs.e2el_p90,
	runs.e2el_p95,
	runs.e2el_p99,
	runs.e2el_p99_9,
	runs.tokens_per_second_mean,
	runs.tokens_per_second_std,
	runs.tokens_per_second_min,
	runs.tokens_per_second_max,
	runs.tokens_per_second_p50,
	runs.tokens_per_second_p90,
	runs.tokens_per_second_p95,
	runs.tokens_per_second_p99,
	runs.tokens_per_second_p99_9,
	runs.output_throughput,
	runs.total_token_throughput,
	runs.request_throughput,
	runs.goodput,
	runs.error_rate,
	runs.requests_completed,
	runs.requests_failed,
	runs.total_input_tokens,
	runs.total_output_tokens,
	runs.duration,
	runs.gpu_memory_bytes,
	runs.power_watts,
	runs.input_tokens_mean,
	runs.output_tokens_mean,
	runs.concurrency_mean,
	runs.output_throughput_per_accelerator,
	runs.total_token_throughput_per_accelerator,
	runs.prefill_tokens_per_second,
	runs.prefill_tokens_per_second_std,
	runs.source_path,
	runs.source_sha256,
	runs.record,
	runs.adapter,
	runs.format_version,
	runs.imported_at,
	runs.checklist_missing,
	runs.reference_only,
	runs.condition_id
FROM runs JOIN conditions ON conditions.id = runs.condition_id;

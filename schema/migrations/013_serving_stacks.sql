-- 013_serving_stacks.sql — the conditions of today's serving stacks (issue 22).
--
-- Conditions that change what a run measures and had no canonical field:
-- multi-turn workloads (conversations, turns per conversation, the kind of
-- dataset), the share of requests asking for structured output, and
-- disaggregated serving (the prefill and the decode pool, each with its
-- accelerators, their count and its tensor parallel size). Existing rows
-- get NULL (missing), which keeps their key_text valid; `reimport` adds
-- the new conditions from the kept source bytes as revisions.
--
-- Metrics: speculative decoding's acceptance rate (a fraction) and length,
-- structured output's correct rate, and the SLO goodput was counted
-- against (TTFT, TPOT, E2EL limits in seconds). The SLO is stored with the
-- goodput value on `runs`, not as a condition: it does not change how the
-- run was measured, so every other metric still compares; two goodput
-- values compare only when their SLOs are equal.

ALTER TABLE conditions ADD COLUMN conversation_count REAL; -- conversations
ALTER TABLE conditions ADD COLUMN turns_per_conversation REAL; -- turns, mean
ALTER TABLE conditions ADD COLUMN dataset_type TEXT; -- single_turn, multi_turn, trace, ...
ALTER TABLE conditions ADD COLUMN structured_output_ratio REAL; -- fraction 0..1
ALTER TABLE conditions ADD COLUMN prefill_hardware TEXT; -- prefill pool accelerators
ALTER TABLE conditions ADD COLUMN prefill_accelerator_count REAL; -- count
ALTER TABLE conditions ADD COLUMN prefill_tensor_parallel_size REAL; -- count
ALTER TABLE conditions ADD COLUMN decode_hardware TEXT; -- decode pool accelerators
ALTER TABLE conditions ADD COLUMN decode_accelerator_count REAL; -- count
ALTER TABLE conditions ADD COLUMN decode_tensor_parallel_size REAL; -- count

ALTER TABLE runs ADD COLUMN spec_acceptance_rate REAL; -- fraction 0..1
ALTER TABLE runs ADD COLUMN spec_acceptance_length REAL; -- tokens per step
ALTER TABLE runs ADD COLUMN correct_rate REAL; -- fraction 0..1
ALTER TABLE runs ADD COLUMN goodput_slo_ttft REAL; -- seconds
ALTER TABLE runs ADD COLUMN goodput_slo_tpot REAL; -- seconds
ALTER TABLE runs ADD COLUMN goodput_slo_e2el REAL; -- seconds

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
	conditions.conversation_count,
	conditions.turns_per_conversation,
	conditions.dataset_type,
	conditions.structured_output_ratio,
	conditions.prefill_hardware,
	conditions.prefill_accelerator_count,
	conditions.prefill_tensor_parallel_size,
	conditions.decode_hardware,
	conditions.decode_accelerator_count,
	conditions.decode_tensor_parallel_size,
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
	runs.spec_acceptance_rate,
	runs.spec_acceptance_length,
	runs.correct_rate,
	runs.goodput_slo_ttft,
	runs.goodput_slo_tpot,
	runs.goodput_slo_e2el,
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

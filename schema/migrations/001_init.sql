-- 001_init.sql — the first perfledger schema.
--
-- conditions: one row per distinct full set of condition values (shared by
-- every run measured under them); runs: provenance and metrics, one REAL
-- column per canonical metric in canonical units; run_flat: both joined, for
-- the sqlite3 shell. Column names are the canonical names of src/core/model.h
-- (PL_CONDITIONS, PL_METRICS); a unit test keeps the two in sync. Missing
-- values are NULL. Documented in schema/README.md.
--
-- Applied by pl_store_open() inside one BEGIN IMMEDIATE transaction, which
-- then sets PRAGMA user_version = 1. Never edit a released migration: add
-- 002_*.sql instead.

CREATE TABLE conditions (
	id INTEGER PRIMARY KEY,
	key_text TEXT NOT NULL UNIQUE, -- canonical serialization of every value below
	model TEXT,
	model_source TEXT,
	weights_hash TEXT,
	precision TEXT,
	quantization TEXT,
	engine TEXT,
	engine_version TEXT, -- version text, never a number
	engine_args TEXT,
	hardware TEXT,
	accelerator_count REAL, -- count
	driver_version TEXT, -- version text
	cuda_version TEXT, -- version text
	tensor_parallel_size REAL, -- count
	max_model_len REAL, -- tokens
	kv_cache_dtype TEXT,
	input_tokens REAL, -- tokens
	max_output_tokens REAL, -- tokens
	concurrency REAL, -- requests in flight; +Inf = unbounded
	request_rate REAL, -- requests/s; +Inf = all at once
	warmup_requests REAL, -- requests; 0 = cold start
	dataset TEXT,
	num_prompts REAL, -- requests
	temperature REAL, -- sampling temperature
	streaming INTEGER CHECK (streaming IN (0, 1)), -- 0/1
	deployment TEXT,
	benchmark_tool TEXT,
	benchmark_tool_version TEXT, -- version text
	api_backend TEXT,
	repetitions REAL, -- count
	price_per_hour REAL -- user's currency per instance-hour
);

-- The leading fields of the condition key (DESIGN.md), then the fields that
-- `--where` selects on alone most (engine_version for regression checks,
-- hardware for procurement reviews).
CREATE INDEX conditions_key ON conditions (model, precision, engine, driver_version, concurrency);
CREATE INDEX conditions_engine_version ON conditions (engine_version);
CREATE INDEX conditions_hardware ON conditions (hardware);

CREATE TABLE runs (
	id INTEGER PRIMARY KEY,
	condition_id INTEGER NOT NULL REFERENCES conditions (id),
	source_path TEXT NOT NULL,           -- input path as given ('-' for stdin)
	source_sha256 TEXT NOT NULL,         -- lowercase hex sha256 of the input file's bytes
	record INTEGER NOT NULL DEFAULT 0,   -- index of the run inside its file, 0-based
	adapter TEXT NOT NULL,               -- input adapter that read it
	format_version TEXT,                 -- version of the input format, if known
	imported_at TEXT NOT NULL,           -- ISO 8601 UTC, e.g. 2026-11-29T18:34:30Z
	run_started_at TEXT,                 -- ISO 8601 UTC, when the run started
	checklist_missing INTEGER NOT NULL DEFAULT 0, -- PL_CHK_* bits of missing checklist items
	reference_only INTEGER GENERATED ALWAYS AS (checklist_missing != 0) VIRTUAL,
	ttft_mean REAL, -- seconds
	ttft_std REAL, -- seconds
	ttft_min REAL, -- seconds
	ttft_max REAL, -- seconds
	ttft_p50 REAL, -- seconds
	ttft_p90 REAL, -- seconds
	ttft_p95 REAL, -- seconds
	ttft_p99 REAL, -- seconds
	ttft_p99_9 REAL, -- seconds
	tpot_mean REAL, -- seconds
	tpot_std REAL, -- seconds
	tpot_min REAL, -- seconds
	tpot_max REAL, -- seconds
	tpot_p50 REAL, -- seconds
	tpot_p90 REAL, -- seconds
	tpot_p95 REAL, -- seconds
	tpot_p99 REAL, -- seconds
	tpot_p99_9 REAL, -- seconds
	itl_mean REAL, -- seconds
	itl_std REAL, -- seconds
	itl_min REAL, -- seconds
	itl_max REAL, -- seconds
	itl_p50 REAL, -- seconds
	itl_p90 REAL, -- seconds
	itl_p95 REAL, -- seconds
	itl_p99 REAL, -- seconds
	itl_p99_9 REAL, -- seconds
	e2el_mean REAL, -- seconds
	e2el_std REAL, -- seconds
	e2el_min REAL, -- seconds
	e2el_max REAL, -- seconds
	e2el_p50 REAL, -- seconds
	e2el_p90 REAL, -- seconds
	e2el_p95 REAL, -- seconds
	e2el_p99 REAL, -- seconds
	e2el_p99_9 REAL, -- seconds
	tokens_per_second_mean REAL, -- tokens/s
	tokens_per_second_std REAL, -- tokens/s
	tokens_per_second_min REAL, -- tokens/s
	tokens_per_second_max REAL, -- tokens/s
	tokens_per_second_p50 REAL, -- tokens/s
	tokens_per_second_p90 REAL, -- tokens/s
	tokens_per_second_p95 REAL, -- tokens/s
	tokens_per_second_p99 REAL, -- tokens/s
	tokens_per_second_p99_9 REAL, -- tokens/s
	output_throughput REAL, -- tokens/s
	total_token_throughput REAL, -- tokens/s
	request_throughput REAL, -- requests/s
	goodput REAL, -- requests/s
	error_rate REAL, -- fraction 0..1
	requests_completed REAL, -- count
	requests_failed REAL, -- count
	total_input_tokens REAL, -- count
	total_output_tokens REAL, -- count
	duration REAL, -- seconds
	gpu_memory_bytes REAL, -- bytes
	power_watts REAL, -- watts
	UNIQUE (source_sha256, record)
);

CREATE INDEX runs_condition_id ON runs (condition_id);

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

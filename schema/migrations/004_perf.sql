-- 004_perf.sql — conditions rows found by a 64-bit hash (issue 6).
--
-- Until now `conditions.key_text` was UNIQUE: every new condition set added
-- its ~400-byte key to a b-tree index as large as the table, and an import
-- of many distinct condition sets spent most of its writer time there. Now
-- the row is found by `key_hash`, the 64-bit FNV-1a of key_text
-- (pl_hash64() in src/core/hash.c, exposed to this script as the SQL
-- function pl_key_hash()), through a small non-unique index; the store
-- compares key_text of the (almost always one) candidate, so two keys with
-- the same hash stay two rows. key_text keeps its meaning and its values;
-- its uniqueness is kept by the store, which looks a key up before it
-- inserts and does both under the write lock.
--
-- SQLite cannot drop a UNIQUE constraint, so the table is rebuilt (ids kept,
-- so runs.condition_id stays valid) and run_flat is recreated unchanged. The
-- store runs migrations with foreign keys off and checks
-- PRAGMA foreign_key_check before committing, as SQLite's ALTER TABLE
-- procedure prescribes. Needs pl_key_hash(): run it through perfledger, not
-- the sqlite3 shell.

DROP VIEW run_flat;

CREATE TABLE conditions_v4 (
	id INTEGER PRIMARY KEY,
	key_hash INTEGER NOT NULL, -- pl_hash64(key_text) as a signed 64-bit integer
	key_text TEXT NOT NULL, -- canonical serialization of every value below (unique; kept by the store)
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

INSERT INTO conditions_v4
SELECT id, pl_key_hash(key_text), key_text,
	model, model_source, weights_hash, precision, quantization, engine, engine_version,
	engine_args, hardware, accelerator_count, driver_version, cuda_version,
	tensor_parallel_size, max_model_len, kv_cache_dtype, input_tokens, max_output_tokens,
	concurrency, request_rate, warmup_requests, dataset, num_prompts, temperature, streaming,
	deployment, benchmark_tool, benchmark_tool_version, api_backend, repetitions,
	price_per_hour
FROM conditions ORDER BY id;

DROP TABLE conditions;
ALTER TABLE conditions_v4 RENAME TO conditions;

CREATE INDEX conditions_hash ON conditions (key_hash);
-- as in 001: the leading key fields, then the fields --where selects on alone most
CREATE INDEX conditions_key ON conditions (model, precision, engine, driver_version, concurrency);
CREATE INDEX conditions_engine_version ON conditions (engine_version);
CREATE INDEX conditions_hardware ON conditions (hardware);

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

-- 003_history.sql — accepted steps of regression tracking (issue 4).
--
-- A step in a metric's history (or a regression that `check` finds) can be
-- marked as expected: `perfledger accept --run ID --metric NAME --reason
-- TEXT`. The step is named by the first run after it and the metric; one
-- acceptance per (run, metric), a second `accept` replaces the reason.
-- `check` does not fail on a regression of a metric when an acceptance of
-- that metric names one of the candidate's runs; `history --fail-on-step`
-- does not fail on a step whose first point holds an accepted run. Accepted
-- steps stay on the chart, annotated with the reason.
--
-- Like every migration this runs once (PRAGMA user_version counts them);
-- IF NOT EXISTS keeps it harmless should it ever meet a database that
-- already has the table.

CREATE TABLE IF NOT EXISTS accepted_steps (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES runs (id), -- the first run after the step
	metric TEXT NOT NULL,      -- canonical metric name, e.g. ttft_p50
	reason TEXT NOT NULL,      -- why the change is expected, as the user gave it
	accepted_at TEXT NOT NULL, -- ISO 8601 UTC ($SOURCE_DATE_EPOCH when set)
	UNIQUE (run_id, metric)
);

CREATE INDEX IF NOT EXISTS accepted_steps_metric ON accepted_steps (metric);

-- 008_records.sql — record identity and failed runs (issue 13, items 4 and 5).
--
-- record_id: the sha256 of a run's content as read (adapter, format version,
-- condition key, run_started_at, metrics; src/core/condkey.c
-- pl_run_record_id), so that a multi-record file that was fixed and is
-- imported again (new bytes, new source_sha256) stores only the records
-- that are missing: a record whose record_id is stored already from other
-- bytes is not stored again. NULL for runs stored before this migration
-- (their files are recognised by source_sha256 alone).
--
-- failed: a run where no request completed or every request failed. It is
-- stored and listed, drawn as a failure in history, and never pooled into
-- a median (compare, check, report). Derived from the stored metrics, so
-- it cannot disagree with them.

ALTER TABLE runs ADD COLUMN record_id BLOB; -- 16 bytes: the first 128 bits of the sha256 of the run's content

CREATE INDEX runs_record_id ON runs (record_id) WHERE record_id IS NOT NULL;

ALTER TABLE runs ADD COLUMN failed INTEGER GENERATED ALWAYS AS
	(coalesce(requests_completed = 0, 0) OR coalesce(error_rate >= 1, 0)) VIRTUAL; -- 0/1

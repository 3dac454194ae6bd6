-- 006_deferred_indexes.sql — selection indexes built once after a bulk import (issue 6).
--
-- An import into a database that holds no runs yet drops the indexes that
-- only selections read (conditions_key, conditions_engine_version,
-- conditions_hardware, runs_condition_id) and builds them again when it
-- ends: one sort per index instead of a b-tree insert per row (a 100k-run
-- JSONL import: 1.43 s with them maintained, 1.04 s + 0.18 s to build).
-- Their CREATE statements wait here meanwhile, written in the same
-- transaction as the DROP, so an import killed before the end leaves them
-- recorded: the next import builds them. Queries are correct without them,
-- only slower. Empty whenever no import is running.
CREATE TABLE deferred_indexes (
	name TEXT PRIMARY KEY, -- index name, as in sqlite_master
	sql TEXT NOT NULL      -- its CREATE INDEX statement, as in sqlite_master
);

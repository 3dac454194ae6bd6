-- 009_ledger.sql — corrections and removals with an audit trail (issue 13).
--
-- Nothing stored is rewritten in place without a trace:
--
-- revisions: `perfledger amend` corrects a run's conditions. The run then
-- points at the conditions row of its new values (found or created, like
-- an import's; the old row stays) and every field it changed gets one row
-- here with the old and the new value as text (the canonical text `list`
-- prints; NULL = missing). A run as imported is revision 1; the first amend
-- makes revision 2, and so on: a run's current revision is
-- max(revisions.revision) or 1. Metrics are never amended.
--
-- retractions: `perfledger retract` takes a run out of every comparison,
-- check, history, accept and report without deleting it; `restore` puts it
-- back by filling restored_at, restore_reason and restored_by of the open
-- row. At most one open row (restored_at IS NULL) per run: that run is
-- retracted. Only `perfledger purge` deletes a (retracted) run, with its
-- rows here and in accepted_steps.
--
-- ledger_generation: one row, incremented in the same transaction by every
-- command that changes or deletes stored runs (amend, retract, restore,
-- purge), so that readers on several connections can tell whether they read
-- the same state.
--
-- Times are ISO 8601 UTC ($SOURCE_DATE_EPOCH when set), authors as given
-- by --by, else $USER.

CREATE TABLE revisions (
	run_id INTEGER NOT NULL REFERENCES runs (id),
	revision INTEGER NOT NULL CHECK (revision >= 2), -- the revision this change made (1 = as imported)
	field TEXT NOT NULL,     -- condition name, or "FORMAT.key" of an extra condition
	old_value TEXT,          -- canonical text before; NULL = missing
	new_value TEXT,          -- canonical text after; NULL = missing
	changed_at TEXT NOT NULL, -- ISO 8601 UTC
	reason TEXT NOT NULL,    -- why, as the user gave it
	author TEXT NOT NULL,    -- --by, else $USER
	PRIMARY KEY (run_id, revision, field)
) WITHOUT ROWID;

CREATE TABLE retractions (
	id INTEGER PRIMARY KEY,
	run_id INTEGER NOT NULL REFERENCES runs (id),
	retracted_at TEXT NOT NULL, -- ISO 8601 UTC
	reason TEXT NOT NULL,       -- why, as the user gave it
	author TEXT NOT NULL,       -- --by, else $USER
	restored_at TEXT,           -- ISO 8601 UTC; NULL while retracted
	restore_reason TEXT,        -- why it was restored
	restored_by TEXT,           -- who restored it
	CHECK ((restored_at IS NULL) = (restore_reason IS NULL)
	       AND (restored_at IS NULL) = (restored_by IS NULL))
);

-- the runs retracted now, one row each; and every row of a run (purge, show)
CREATE UNIQUE INDEX retractions_open ON retractions (run_id) WHERE restored_at IS NULL;
CREATE INDEX retractions_run ON retractions (run_id);

CREATE TABLE ledger_generation (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	generation INTEGER NOT NULL -- changes of stored runs so far
);
INSERT INTO ledger_generation (id, generation) VALUES (1, 0);

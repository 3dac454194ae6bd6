-- 012_measurements.sql — unplaced measurements (schema/formats.md, "Keys
-- an inventory does not know"): a result value a source file records that
-- no canonical metric holds (vLLM spec_decode_acceptance_rate, SGLang
-- accept_length, an array of per-position rates). Kept per run, as the
-- file wrote it, and never part of the condition key: two runs that
-- differ only in one still compare.
--
-- name is "FORMAT.path" with the key path as the file wrote it; a number
-- is stored in value, anything else (an array, a string) as its JSON text
-- in json: exactly one of the two is set. Existing runs get none (a
-- `reimport` moves an extra condition that the rule now classifies as a
-- measurement into this table, as a revision of the run).

CREATE TABLE run_measurements (
    run_id INTEGER NOT NULL REFERENCES runs(id), -- the run
    name TEXT NOT NULL,                          -- "FORMAT.path"
    value REAL,                                  -- the number, or NULL
    json TEXT,                                   -- otherwise its JSON text
    PRIMARY KEY (run_id, name),
    CHECK ((value IS NULL) <> (json IS NULL))
) WITHOUT ROWID;

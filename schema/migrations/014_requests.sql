-- 014_requests.sql — every request of a run, where its file carries them
-- (vLLM --save-detailed, AIPerf profile_export.jsonl records, llmperf
-- individual responses): one row per run, the requests in one columnar,
-- compressed blob (src/store/requests.h, docs/requests.md) so that any SLO
-- can grade the run later. The counts are kept beside the blob so `show`
-- and `list` need not decode it. Existing runs get none.

CREATE TABLE run_requests (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id), -- the run
    requests INTEGER NOT NULL,                      -- requests recorded
    failed INTEGER NOT NULL,                        -- of which failed
    gaps INTEGER NOT NULL,                          -- inter-token gaps recorded
    blob BLOB NOT NULL                              -- "PLRQ" 1 ... (the encoding)
);

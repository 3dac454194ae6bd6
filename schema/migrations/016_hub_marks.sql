-- 016_hub_marks.sql — where this ledger's pulls from each team hub stand
-- (perfledger pull, docs/hub.md): one row per hub, named HOST:PORT/DB and,
-- for a pull with --where, the selection after it; never a user or a
-- password. The snapshot is the PostgreSQL snapshot the last complete pull
-- read under (pg_current_snapshot() as text): the next pull reads the lines
-- that snapshot did not see, so a push that committed out of order is not
-- missed. Local state of this ledger: merge and export never carry it.
-- An earlier perfledger kept these rows in the file LEDGER.hub-marks beside
-- the ledger; pull moves that file's rows here and deletes it.
CREATE TABLE hub_marks (
  hub      TEXT PRIMARY KEY, -- HOST:PORT/DB, then " --where ..." for a selection
  snapshot TEXT NOT NULL     -- pg_snapshot text of the last complete pull
) WITHOUT ROWID;

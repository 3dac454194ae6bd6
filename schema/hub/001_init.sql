-- 001_init.sql — the hub's tables (PostgreSQL), in the schema "perfledger".
--
-- A hub keeps what `perfledger push` sent: every version of every run as
-- its `export` line (the run with its conditions, extras, measurements,
-- metrics, provenance, build identity and trail), the kept source bytes,
-- and, per record identity (sha256 of the source bytes, record index), the
-- condition keys pushed for it, against which a conflicting push is
-- refused. Rows are only ever added: an accept or amend pushed later is a
-- new version (a new line) of the same record identity.
--
-- perfledger.hub_schema (one row: the number of the last file applied) is
-- created by the program before this file, under an advisory lock.

-- The first push of a record identity claims it: a concurrent push of the
-- same identity waits on this primary key until the first commits, then
-- sees its keys.
CREATE TABLE perfledger.records (
  sha256 text NOT NULL,      -- source bytes' sha256, 64 lowercase hex digits
  record bigint NOT NULL,    -- record index in the source file
  key text NOT NULL,         -- the condition key first pushed for it, as imported
  PRIMARY KEY (sha256, record)
);

-- Every condition key pushed for a record identity (as imported and as
-- amended), by sha256 of the key text and run_started_at.
CREATE TABLE perfledger.record_keys (
  sha256 text NOT NULL,
  record bigint NOT NULL,
  key_sha256 text NOT NULL,  -- sha256 hex of key_text, NUL, run_started_at
  PRIMARY KEY (sha256, record, key_sha256)
);

-- One row per distinct export line of a run. xid is the pushing
-- transaction's id: a pull reads the rows whose transaction its last
-- snapshot did not see (docs/hub.md, "The watermark").
CREATE TABLE perfledger.lines (
  id bigserial PRIMARY KEY,
  sha256 text NOT NULL,
  record bigint NOT NULL,
  line_sha256 text NOT NULL, -- sha256 hex of line
  line text NOT NULL,        -- the run's `export` line, without its newline
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  pushed_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (sha256, record, line_sha256)
);
CREATE INDEX lines_xid ON perfledger.lines (xid);

-- The kept source bytes, as the ledger keeps them (zlib chunks).
CREATE TABLE perfledger.sources (
  sha256 text NOT NULL,
  seq bigint NOT NULL,       -- chunk number, from 0
  size bigint NOT NULL,      -- uncompressed bytes in the chunk
  z bytea NOT NULL,          -- zlib stream (RFC 1950)
  PRIMARY KEY (sha256, seq)
);

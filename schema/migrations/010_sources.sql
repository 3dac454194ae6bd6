-- 010_sources.sql — the source bytes of every imported file (issue 13).
--
-- source_chunks keeps the bytes an import read, compressed, once per
-- sha256 (the same bytes imported from two paths, or merged in from
-- another ledger, are stored once), so that `perfledger reimport` can
-- re-derive stored runs with today's adapters and `merge` can carry them
-- to another ledger. A file is split into chunks of at most 1 MiB of its
-- bytes (a streamed JSONL file is compressed chunk by chunk in constant
-- memory; a file read whole is one chunk), each an independent zlib
-- stream (RFC 1950, compression level 6). Concatenating the inflated
-- chunks in seq order gives back the file; its sha256 is checked on
-- reading. Written in the same transaction as the file's runs.
-- Documented in schema/README.md.

CREATE TABLE source_chunks (
	sha256 TEXT NOT NULL,        -- lowercase hex sha256 of the whole file (runs.source_sha256)
	seq INTEGER NOT NULL,        -- 0-based chunk number
	size INTEGER NOT NULL,       -- bytes of the file in this chunk, uncompressed
	compression TEXT NOT NULL,   -- 'zlib'
	bytes BLOB NOT NULL,         -- the compressed chunk
	PRIMARY KEY (sha256, seq)
);

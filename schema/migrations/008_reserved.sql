-- 008_reserved.sql — PLACEHOLDER on branch i13-export only, never to be merged.
--
-- Migration 008 belongs to another helper's branch (issue 13); the build
-- numbers migrations by their position, so this empty file holds the
-- place until that branch is merged, and is dropped then (it is replaced by
-- the real 008_*.sql). 010_sources.sql does not depend on it.
SELECT 1;

-- 011_nightly.sql — nightly regression tracking (issue 14): build identity on
-- every run, and who accepted a step and whether it was revoked.
--
-- Build identity (commit, branch, build id or tag, CI run URL) is
-- provenance, not a condition: it lives on `runs`, not on `conditions`, so
-- runs that differ only in it share one conditions row and pool together.
-- history and check may group a series' points by build_id or build_commit.
-- Existing runs get NULL (not known).

ALTER TABLE runs ADD COLUMN build_commit TEXT; -- VCS revision, e.g. a git sha
ALTER TABLE runs ADD COLUMN build_branch TEXT; -- branch or tag ref of the build
ALTER TABLE runs ADD COLUMN build_id TEXT;     -- CI build number, image tag, any build name
ALTER TABLE runs ADD COLUMN ci_run_url TEXT;   -- http(s) link to the CI run that measured it

-- An acceptance records who gave it; a revocation keeps the row (the
-- judgement and its withdrawal are both history) and only stops it from
-- forgiving steps. Rows stored before this migration have accepted_by ''.
ALTER TABLE accepted_steps ADD COLUMN accepted_by TEXT NOT NULL DEFAULT ''; -- accept --by, else $USER
ALTER TABLE accepted_steps ADD COLUMN revoked_at TEXT; -- ISO 8601 UTC; NULL = active
ALTER TABLE accepted_steps ADD COLUMN revoked_by TEXT; -- who revoked it

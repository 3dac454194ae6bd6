-- 012_reserved.sql — a placeholder on the h22b branch only: migration 012
-- belongs to another branch (unplaced measurements). Merging replaces this
-- file (and its CMakeLists.txt line) with that branch's 012.
SELECT 1;

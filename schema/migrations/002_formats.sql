-- 002: reserved for issue 3 (more input formats): new conditions/metrics.
-- Filled by the change that needs it; a no-op until then.
SELECT 1;

-- 003: reserved for issue 4 (regression tracking): accepted steps.
-- Filled by the change that needs it; a no-op until then.
SELECT 1;

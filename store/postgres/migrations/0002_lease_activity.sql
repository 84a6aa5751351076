-- What the lease's holder says it is doing (a compaction, a hosted run),
-- so that another process can tell a long operation it should not wait
-- for from a short one it should. Set under the lease, cleared with it,
-- and meaningless once the lease has expired.
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS lease_activity text;

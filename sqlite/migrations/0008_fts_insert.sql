-- New memories are indexed by the statement after their INSERT (see
-- insertMemory), not by a trigger. A statement that fires a trigger writing
-- to FTS5 opens a statement journal, and FTS5 flushes its pending terms to
-- a new segment at every statement savepoint: a batch of 1,000 puts wrote
-- 1,000 one-row segments and spent a third of ingest merging them. Without
-- the trigger the terms of a whole transaction are flushed once, at commit.
-- Updates and deletes keep their triggers: they are one row at a time.
DROP TRIGGER memories_ai;

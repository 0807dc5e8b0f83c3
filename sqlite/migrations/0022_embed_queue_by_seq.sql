-- The embedding queue is keyed by its memory's seq instead of its id, as
-- the vectors are since 0011: ids are random, so a batch of 1,000 queued
-- memories wrote into most pages of the queue's key (at 100,000 queued, a
-- third of the random pages an import batch dirtied, each written to the
-- WAL and checkpointed again). A new memory's seq is the largest yet, so
-- its queue row is appended. The foreign key's ON DELETE CASCADE becomes a
-- trigger on memories, which also spares each enqueue the parent check.
CREATE TABLE embed_queue_by_seq (
	memory_seq INTEGER PRIMARY KEY, -- memories.seq
	version    INTEGER NOT NULL,
	queued_at  INTEGER NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0,
	last_error TEXT    NOT NULL DEFAULT ''
);
INSERT INTO embed_queue_by_seq (memory_seq, version, queued_at, attempts, last_error)
	SELECT m.seq, q.version, q.queued_at, q.attempts, q.last_error
	FROM embed_queue q JOIN memories m ON m.id = q.memory_id ORDER BY m.seq;
DROP TABLE embed_queue;
ALTER TABLE embed_queue_by_seq RENAME TO embed_queue;
CREATE TRIGGER memories_queue_ad AFTER DELETE ON memories BEGIN
	DELETE FROM embed_queue WHERE memory_seq = old.seq;
END;

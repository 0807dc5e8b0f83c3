-- Vectors per memory passage, and the queue of memories waiting to be
-- embedded. Vectors are derived data: deleting a memory deletes them
-- (ON DELETE CASCADE), and `recall reindex` can always rebuild them.

CREATE TABLE memory_vectors (
	-- AUTOINCREMENT so that a seq is never reused: an in-memory index
	-- refreshes incrementally by loading seq > the last it saw.
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	memory_id  TEXT    NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
	chunk      INTEGER NOT NULL,  -- passage index within the memory
	version    INTEGER NOT NULL,  -- the memory version that was embedded
	hash       TEXT    NOT NULL,  -- of the embedded text, to skip re-embedding unchanged text
	model      TEXT    NOT NULL,
	dim        INTEGER NOT NULL,
	span_start INTEGER NOT NULL,  -- byte offsets of the passage in that version's content
	span_end   INTEGER NOT NULL,
	vec        BLOB    NOT NULL,  -- dim little-endian float32, L2-normalised
	UNIQUE (memory_id, chunk)
);

-- Every deleted vector leaves a tombstone so that other processes can drop
-- it from their in-memory index without reloading everything.
CREATE TABLE vector_tombstones (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	vec_seq INTEGER NOT NULL
);
CREATE TRIGGER memory_vectors_ad AFTER DELETE ON memory_vectors BEGIN
	INSERT INTO vector_tombstones (vec_seq) VALUES (old.seq);
END;

-- One row per memory whose current version has not been embedded yet.
-- Filled in the same transaction as the write, so no write is ever missed.
CREATE TABLE embed_queue (
	memory_id  TEXT    PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
	version    INTEGER NOT NULL,
	queued_at  INTEGER NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0,
	last_error TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- Memories written before this migration wait for their first embedding.
INSERT INTO embed_queue (memory_id, version, queued_at)
	SELECT id, version, updated_at FROM memories;

-- Names this store's vectors, so a cached index file (recall.db-vectors)
-- copied from or left by another store is never mistaken for this one's.
INSERT INTO store_meta (key, value) VALUES ('vector_epoch', lower(hex(randomblob(8))))
	ON CONFLICT (key) DO NOTHING;

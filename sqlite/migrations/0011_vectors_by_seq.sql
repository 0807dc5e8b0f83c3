-- Vectors are keyed by their memory's seq instead of its id: the unique
-- (memory_id, chunk) index took one random-key insert per passage, and at
-- 100,000 memories a batch of 1,000 dirtied most of that index's pages
-- (about a sixth of ingest time). A new memory's seq is the largest yet,
-- so its vectors' index entries are appended. memory_id stays, for reads.
-- The foreign key's ON DELETE CASCADE becomes a trigger on memories.
CREATE TABLE memory_vectors_by_seq (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	memory_seq INTEGER NOT NULL,  -- memories.seq
	memory_id  TEXT    NOT NULL,
	chunk      INTEGER NOT NULL,
	version    INTEGER NOT NULL,
	hash       TEXT    NOT NULL,
	model      TEXT    NOT NULL,
	dim        INTEGER NOT NULL,
	span_start INTEGER NOT NULL,
	span_end   INTEGER NOT NULL,
	vec        BLOB    NOT NULL,  -- dim little-endian float16 (float32 in older rows)
	UNIQUE (memory_seq, chunk)
);
INSERT INTO memory_vectors_by_seq (seq, memory_seq, memory_id, chunk, version, hash, model, dim, span_start, span_end, vec)
	SELECT v.seq, m.seq, v.memory_id, v.chunk, v.version, v.hash, v.model, v.dim, v.span_start, v.span_end, v.vec
	FROM memory_vectors v JOIN memories m ON m.id = v.memory_id ORDER BY v.seq;
-- A vector seq is never reused (in-memory indexes load seq > the last they
-- saw): the new table continues the old one's sequence.
CREATE TABLE memory_vectors_last_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'memory_vectors';
DROP TABLE memory_vectors;
ALTER TABLE memory_vectors_by_seq RENAME TO memory_vectors;
UPDATE sqlite_sequence SET seq = max(seq, COALESCE((SELECT seq FROM memory_vectors_last_seq), 0)) WHERE name = 'memory_vectors';
INSERT INTO sqlite_sequence (name, seq) SELECT 'memory_vectors', seq FROM memory_vectors_last_seq
	WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'memory_vectors');
DROP TABLE memory_vectors_last_seq;
CREATE INDEX memory_vectors_model ON memory_vectors(model, dim);
CREATE TRIGGER memory_vectors_ad AFTER DELETE ON memory_vectors BEGIN
	INSERT INTO vector_tombstones (vec_seq) VALUES (old.seq);
END;
CREATE TRIGGER memories_vectors_ad AFTER DELETE ON memories BEGIN
	DELETE FROM memory_vectors WHERE memory_seq = old.seq;
END;

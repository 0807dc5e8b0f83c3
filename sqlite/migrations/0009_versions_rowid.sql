-- memory_versions becomes a rowid table, appended in write order, with
-- (memory_id, version) as a unique index. As a WITHOUT ROWID table its rows
-- (each a whole JSON snapshot) were stored in memory id order, and ids are
-- random: every batch of writes dirtied pages all over the table, so at
-- 100,000 memories a batch of 1,000 rewrote most of it into the WAL. Now
-- the snapshots are appended and only the small index entries land at
-- random.
CREATE TABLE memory_versions_rowid (
	seq        INTEGER PRIMARY KEY,
	memory_id  TEXT    NOT NULL,
	version    INTEGER NOT NULL,
	op         TEXT    NOT NULL,
	changed_at INTEGER NOT NULL,
	snapshot   TEXT    NOT NULL,
	UNIQUE (memory_id, version)
);
INSERT INTO memory_versions_rowid (memory_id, version, op, changed_at, snapshot)
	SELECT memory_id, version, op, changed_at, snapshot FROM memory_versions ORDER BY changed_at, memory_id, version;
DROP TABLE memory_versions;
ALTER TABLE memory_versions_rowid RENAME TO memory_versions;
CREATE INDEX memory_versions_changed ON memory_versions(changed_at);

-- Time-tier rollups (seed 004): one row per closed bucket, memory type and
-- key. Bucket and row times are ISO 8601 TEXT in UTC with a fixed width
-- ("2006-01-02T15:04:05Z"), as the seed specifies, so they sort as text.
CREATE TABLE memory_rollups (
	seq          INTEGER PRIMARY KEY, -- stable rowid for the external-content FTS index
	id           TEXT    NOT NULL UNIQUE, -- name-based UUID of bucket_type, bucket_start, memory_type, key
	bucket_type  TEXT    NOT NULL CHECK (bucket_type IN ('4h', 'daily', 'weekly', 'monthly')),
	bucket_start TEXT    NOT NULL,
	bucket_end   TEXT    NOT NULL,
	memory_type  TEXT    NOT NULL,
	key          TEXT    NOT NULL DEFAULT '',
	summary      TEXT    NOT NULL,
	value        TEXT    NOT NULL DEFAULT '', -- normalised latest value of a keyed group
	tally        TEXT    NOT NULL DEFAULT '[]', -- JSON: distinct values with counts, last time, confidence
	confidence   REAL    NOT NULL,
	source_count INTEGER NOT NULL,
	entries      INTEGER NOT NULL DEFAULT 0, -- raw entries represented through every tier
	latest_at    TEXT    NOT NULL, -- newest raw entry represented
	rolled_at    TEXT, -- when the next tier took it in; NULL means pending
	status       TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
	created_at   TEXT    NOT NULL,
	updated_at   TEXT    NOT NULL
);
-- The seed's (bucket_type, bucket_start) index, made unique per group so
-- a rerun updates a bucket's rollup instead of adding a second one.
CREATE UNIQUE INDEX memory_rollups_bucket ON memory_rollups(bucket_type, bucket_start, memory_type, key);
-- The seed's (memory_type) index, extended to find the rollups of one key
-- (contradictions) newest first.
CREATE INDEX memory_rollups_type ON memory_rollups(memory_type, key, latest_at);
CREATE INDEX memory_rollups_pending ON memory_rollups(bucket_type, bucket_start) WHERE rolled_at IS NULL;

CREATE VIRTUAL TABLE memory_rollups_fts USING fts5(
	summary,
	content = 'memory_rollups', content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memory_rollups_ai AFTER INSERT ON memory_rollups BEGIN
	INSERT INTO memory_rollups_fts(rowid, summary) VALUES (new.seq, new.summary);
END;
CREATE TRIGGER memory_rollups_ad AFTER DELETE ON memory_rollups BEGIN
	INSERT INTO memory_rollups_fts(memory_rollups_fts, rowid, summary) VALUES ('delete', old.seq, old.summary);
END;
CREATE TRIGGER memory_rollups_au AFTER UPDATE OF summary ON memory_rollups BEGIN
	INSERT INTO memory_rollups_fts(memory_rollups_fts, rowid, summary) VALUES ('delete', old.seq, old.summary);
	INSERT INTO memory_rollups_fts(rowid, summary) VALUES (new.seq, new.summary);
END;

-- What each rollup was built from. No foreign key on the source: a swept
-- raw entry leaves its link behind as history. Sweeps look sources up by
-- (source_kind, source_id) to protect them.
CREATE TABLE memory_rollup_sources (
	rollup_id   TEXT NOT NULL REFERENCES memory_rollups(id) ON DELETE CASCADE,
	source_kind TEXT NOT NULL CHECK (source_kind IN ('memory', 'observation', 'rollup')),
	source_id   TEXT NOT NULL,
	PRIMARY KEY (rollup_id, source_kind, source_id)
) WITHOUT ROWID;
CREATE INDEX memory_rollup_sources_source ON memory_rollup_sources(source_kind, source_id);

-- The rollup job scans raw entries not yet compacted in time order.
CREATE INDEX observations_active_at ON observations(at) WHERE status = 'active';
CREATE INDEX memories_active_occurred ON memories(occurred_at) WHERE status = 'active' AND key IS NULL;

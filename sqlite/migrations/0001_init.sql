-- Core schema: memories with versions and an FTS5 index, observations with
-- their own FTS5 index, sessions, and a key/value table for store facts.
-- Times are INTEGER milliseconds since the Unix epoch, UTC.

CREATE TABLE memories (
	seq           INTEGER PRIMARY KEY, -- stable rowid for the external-content FTS index
	id            TEXT    NOT NULL UNIQUE,
	key           TEXT,
	collection    TEXT    NOT NULL,
	type          TEXT    NOT NULL DEFAULT '',
	title         TEXT    NOT NULL DEFAULT '',
	content       TEXT    NOT NULL,
	tags          TEXT    NOT NULL DEFAULT '[]',
	category      TEXT    NOT NULL DEFAULT '',
	context       TEXT    NOT NULL DEFAULT '',
	related       TEXT    NOT NULL DEFAULT '[]',
	project       TEXT    NOT NULL DEFAULT '',
	priority      TEXT    NOT NULL DEFAULT '',
	created_by    TEXT    NOT NULL DEFAULT '',
	confidence    REAL    NOT NULL DEFAULT 1,
	tier          TEXT    NOT NULL DEFAULT 'register',
	pinned        INTEGER NOT NULL DEFAULT 0,
	status        TEXT    NOT NULL DEFAULT 'active',
	anchors       TEXT    NOT NULL DEFAULT '[]',
	metadata      TEXT    NOT NULL DEFAULT '{}',
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	reviewed_at   INTEGER,
	occurred_at   INTEGER NOT NULL,
	snoozed_until INTEGER,
	version       INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX memories_collection_key ON memories(collection, key) WHERE key IS NOT NULL;
CREATE INDEX memories_updated ON memories(updated_at);
CREATE INDEX memories_occurred ON memories(occurred_at);
CREATE INDEX memories_tier ON memories(tier, status);

CREATE VIRTUAL TABLE memories_fts USING fts5(
	title, content, tags,
	content = 'memories', content_rowid = 'seq',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
	INSERT INTO memories_fts(rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
	INSERT INTO memories_fts(memories_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
END;
CREATE TRIGGER memories_au AFTER UPDATE OF title, content, tags ON memories BEGIN
	INSERT INTO memories_fts(memories_fts, rowid, title, content, tags) VALUES ('delete', old.seq, old.title, old.content, old.tags);
	INSERT INTO memories_fts(rowid, title, content, tags) VALUES (new.seq, new.title, new.content, new.tags);
END;

-- Every state a memory has had, as a JSON snapshot. No foreign key: the
-- history of a deleted memory stays restorable until purged.
CREATE TABLE memory_versions (
	memory_id  TEXT    NOT NULL,
	version    INTEGER NOT NULL,
	op         TEXT    NOT NULL,
	changed_at INTEGER NOT NULL,
	snapshot   TEXT    NOT NULL,
	PRIMARY KEY (memory_id, version)
) WITHOUT ROWID;
CREATE INDEX memory_versions_changed ON memory_versions(changed_at);

CREATE TABLE observations (
	id       INTEGER PRIMARY KEY,
	at       INTEGER NOT NULL,
	type     TEXT    NOT NULL,
	key      TEXT    NOT NULL DEFAULT '',
	session  TEXT    NOT NULL DEFAULT '',
	project  TEXT    NOT NULL DEFAULT '',
	tool     TEXT    NOT NULL DEFAULT '',
	file     TEXT    NOT NULL DEFAULT '',
	content  TEXT    NOT NULL,
	metadata TEXT    NOT NULL DEFAULT '{}',
	status   TEXT    NOT NULL DEFAULT 'active',
	pinned   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX observations_at ON observations(at);
CREATE INDEX observations_session ON observations(session, at);
CREATE INDEX observations_project ON observations(project, at);
CREATE INDEX observations_type ON observations(type, at);
CREATE INDEX observations_key ON observations(key) WHERE key != '';

CREATE VIRTUAL TABLE observations_fts USING fts5(
	content,
	content = 'observations', content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
	INSERT INTO observations_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN
	INSERT INTO observations_fts(observations_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER observations_au AFTER UPDATE OF content ON observations BEGIN
	INSERT INTO observations_fts(observations_fts, rowid, content) VALUES ('delete', old.id, old.content);
	INSERT INTO observations_fts(rowid, content) VALUES (new.id, new.content);
END;

CREATE TABLE sessions (
	id         TEXT    PRIMARY KEY,
	project    TEXT    NOT NULL DEFAULT '',
	agent      TEXT    NOT NULL DEFAULT '',
	started_at INTEGER NOT NULL,
	ended_at   INTEGER,
	summary    TEXT    NOT NULL DEFAULT '',
	learned    TEXT    NOT NULL DEFAULT '',
	state      TEXT    NOT NULL DEFAULT 'hot'
);
CREATE INDEX sessions_started ON sessions(started_at);

CREATE TABLE store_meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

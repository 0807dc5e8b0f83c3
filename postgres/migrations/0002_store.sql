-- The rest of the store seam: sessions, store facts and sync records of
-- the managed markdown files, time-tier rollups with their sources and
-- full text, and the audit log of purges and sweeps. Every row carries
-- its namespace, as in 0001.

CREATE TABLE sessions (
	namespace  text        NOT NULL,
	id         text        NOT NULL,
	project    text        NOT NULL DEFAULT '',
	agent      text        NOT NULL DEFAULT '',
	started_at timestamptz NOT NULL,
	ended_at   timestamptz,
	summary    text        NOT NULL DEFAULT '',
	learned    text        NOT NULL DEFAULT '',
	state      text        NOT NULL DEFAULT 'hot',
	PRIMARY KEY (namespace, id)
);
CREATE INDEX sessions_started ON sessions (namespace, started_at DESC, id DESC);

CREATE TABLE store_meta (
	namespace text NOT NULL,
	key       text NOT NULL,
	value     text NOT NULL,
	PRIMARY KEY (namespace, key)
);

CREATE TABLE sync_records (
	namespace text        NOT NULL,
	id        text        NOT NULL,
	file      text        NOT NULL,
	text      text        NOT NULL,
	tier      text        NOT NULL,
	synced_at timestamptz NOT NULL,
	PRIMARY KEY (namespace, id)
);

-- One row per closed bucket, memory type and key (see the rollup package).
CREATE TABLE memory_rollups (
	namespace    text        NOT NULL,
	id           text        NOT NULL,
	bucket_type  text        NOT NULL CHECK (bucket_type IN ('4h', 'daily', 'weekly', 'monthly')),
	bucket_start timestamptz NOT NULL,
	bucket_end   timestamptz NOT NULL,
	memory_type  text        NOT NULL,
	key          text        NOT NULL DEFAULT '',
	summary      text        NOT NULL,
	value        text        NOT NULL DEFAULT '',
	tally        jsonb       NOT NULL DEFAULT '[]',
	confidence   double precision NOT NULL,
	source_count integer     NOT NULL,
	entries      integer     NOT NULL DEFAULT 0,
	latest_at    timestamptz NOT NULL,
	rolled_at    timestamptz,
	status       text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
	created_at   timestamptz NOT NULL,
	updated_at   timestamptz NOT NULL,
	fts tsvector GENERATED ALWAYS AS (to_tsvector('recall', coalesce(recall_words(summary), ''))) STORED,
	PRIMARY KEY (namespace, id)
);
CREATE UNIQUE INDEX memory_rollups_bucket ON memory_rollups (namespace, bucket_type, bucket_start, memory_type, key);
CREATE INDEX memory_rollups_type ON memory_rollups (namespace, memory_type, key, latest_at);
CREATE INDEX memory_rollups_pending ON memory_rollups (namespace, bucket_type, bucket_start) WHERE rolled_at IS NULL;
CREATE INDEX memory_rollups_fts ON memory_rollups USING gin (namespace, fts);

-- What each rollup was built from. No foreign key on the source: a swept
-- raw entry leaves its link behind as history.
CREATE TABLE memory_rollup_sources (
	namespace   text NOT NULL,
	rollup_id   text NOT NULL,
	source_kind text NOT NULL CHECK (source_kind IN ('memory', 'observation', 'rollup')),
	source_id   text NOT NULL,
	PRIMARY KEY (namespace, rollup_id, source_kind, source_id),
	FOREIGN KEY (namespace, rollup_id) REFERENCES memory_rollups (namespace, id) ON DELETE CASCADE
);
CREATE INDEX memory_rollup_sources_source ON memory_rollup_sources (namespace, source_kind, source_id);

-- Purges and sweeps, without content: what ran, when, and how much went.
CREATE TABLE forget_log (
	namespace text        NOT NULL,
	id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at        timestamptz NOT NULL,
	kind      text        NOT NULL,
	criteria  text        NOT NULL,
	counts    jsonb       NOT NULL
);
CREATE INDEX forget_log_kind ON forget_log (namespace, kind, at);

-- Core schema: memories with versions, observations, and full-text search
-- over both. Every row belongs to a namespace (a project, or a team's
-- share of one database); every query of the store names it.

CREATE EXTENSION IF NOT EXISTS vector;   -- needs a superuser the first time
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- The text search configuration matches SQLite's porter unicode61
-- remove_diacritics tokenizer: accents removed, English stems, and no
-- stopwords in the index (queries drop them, as on SQLite).
CREATE TEXT SEARCH DICTIONARY recall_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION recall (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION recall
	ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
	WITH unaccent, recall_stem;

-- recall_words splits text into words of letters and digits, as SQLite's
-- unicode61 tokenizer does: Postgres's own parser would keep "main.go" or
-- "a/b/c" as one token, and a query for "main" would not find it.
CREATE FUNCTION recall_words(t text) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN regexp_replace(lower(t), '[^[:alnum:]]+', ' ', 'g');

CREATE TABLE memories (
	namespace     text        NOT NULL,
	id            text        NOT NULL,
	seq           bigint      GENERATED ALWAYS AS IDENTITY,
	key           text,
	collection    text        NOT NULL,
	type          text        NOT NULL DEFAULT '',
	title         text        NOT NULL DEFAULT '',
	content       text        NOT NULL,
	tags          jsonb       NOT NULL DEFAULT '[]',
	category      text        NOT NULL DEFAULT '',
	context       text        NOT NULL DEFAULT '',
	related       jsonb       NOT NULL DEFAULT '[]',
	project       text        NOT NULL DEFAULT '',
	priority      text        NOT NULL DEFAULT '',
	created_by    text        NOT NULL DEFAULT '',
	confidence    double precision NOT NULL DEFAULT 1,
	tier          text        NOT NULL DEFAULT 'register',
	pinned        boolean     NOT NULL DEFAULT false,
	status        text        NOT NULL DEFAULT 'active',
	anchors       jsonb       NOT NULL DEFAULT '[]',
	metadata      json        NOT NULL DEFAULT '{}', -- json, not jsonb: kept byte for byte
	created_at    timestamptz NOT NULL,
	updated_at    timestamptz NOT NULL,
	reviewed_at   timestamptz,
	occurred_at   timestamptz NOT NULL,
	snoozed_until timestamptz,
	version       integer     NOT NULL DEFAULT 1,
	-- What is embedded of the memory, hashed: a vector made from another
	-- text is stale (see vector.go).
	text_hash     text        GENERATED ALWAYS AS (md5(title || chr(10) || content)) STORED,
	-- Weights A, B and D are scored 1.0, 0.4 and 0.1 (see search.go): the
	-- 10 : 4 : 1 of SQLite's bm25 weights for title, tags and content.
	fts tsvector GENERATED ALWAYS AS (
		setweight(to_tsvector('recall', coalesce(recall_words(title), '')), 'A') ||
		setweight(to_tsvector('recall', coalesce(recall_words(tags::text), '')), 'B') ||
		setweight(to_tsvector('recall', coalesce(recall_words(content), '')), 'D')) STORED,
	PRIMARY KEY (namespace, id)
);
CREATE UNIQUE INDEX memories_key ON memories (namespace, collection, key) WHERE key IS NOT NULL;
CREATE INDEX memories_updated ON memories (namespace, updated_at DESC, seq DESC);
CREATE INDEX memories_occurred ON memories (namespace, occurred_at DESC, seq DESC);
CREATE INDEX memories_fts ON memories USING gin (namespace, fts);
CREATE INDEX memories_seq ON memories (namespace, seq); -- the newest matches of a common word

-- Every state a memory has had. No foreign key: the history of a deleted
-- memory stays restorable until purged.
CREATE TABLE memory_versions (
	namespace  text        NOT NULL,
	memory_id  text        NOT NULL,
	version    integer     NOT NULL,
	op         text        NOT NULL,
	changed_at timestamptz NOT NULL,
	snapshot   jsonb       NOT NULL,
	PRIMARY KEY (namespace, memory_id, version)
);
CREATE INDEX memory_versions_changed ON memory_versions (namespace, changed_at);

CREATE TABLE observations (
	namespace text        NOT NULL,
	id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at        timestamptz NOT NULL,
	type      text        NOT NULL,
	key       text        NOT NULL DEFAULT '',
	session   text        NOT NULL DEFAULT '',
	project   text        NOT NULL DEFAULT '',
	tool      text        NOT NULL DEFAULT '',
	file      text        NOT NULL DEFAULT '',
	content   text        NOT NULL,
	metadata  json        NOT NULL DEFAULT '{}',
	status    text        NOT NULL DEFAULT 'active',
	pinned    boolean     NOT NULL DEFAULT false,
	fts tsvector GENERATED ALWAYS AS (to_tsvector('recall', coalesce(recall_words(content), ''))) STORED
);
CREATE INDEX observations_at ON observations (namespace, at, id);
CREATE INDEX observations_session ON observations (namespace, session, at);
CREATE INDEX observations_fts ON observations USING gin (namespace, fts);

-- Passages of memories and their embeddings. The column has no fixed
-- dimension, so one table serves every embedder; the HNSW index is built
-- per dimension on a cast (see vector.go), as pgvector advises for mixed
-- dimensions.
CREATE TABLE memory_vectors (
	namespace text    NOT NULL,
	memory_id text    NOT NULL,
	chunk     integer NOT NULL,
	start_at  integer NOT NULL,
	end_at    integer NOT NULL,
	model     text    NOT NULL,
	dim       integer NOT NULL,
	text_hash text    NOT NULL, -- md5 of the title and content embedded; see vector.go
	embedding vector  NOT NULL,
	PRIMARY KEY (namespace, memory_id, chunk),
	FOREIGN KEY (namespace, memory_id) REFERENCES memories (namespace, id) ON DELETE CASCADE
);
CREATE INDEX memory_vectors_model ON memory_vectors (namespace, model, memory_id, text_hash);

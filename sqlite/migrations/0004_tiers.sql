-- Sync records for the managed markdown files (seed 000): what the last
-- sync wrote for each entry, so that a later sync can tell whether the file
-- or the store changed since.
CREATE TABLE sync_records (
	id        TEXT    PRIMARY KEY,
	file      TEXT    NOT NULL,
	text      TEXT    NOT NULL,
	tier      TEXT    NOT NULL,
	synced_at INTEGER NOT NULL
) WITHOUT ROWID;

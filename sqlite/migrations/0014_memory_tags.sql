-- A tag filter read every memory's tags as JSON (json_each over the tags
-- column of each row: 130 to 200 ms for the web UI's tag filter at 100,000
-- memories). memory_tags holds one row per (tag, memory) so a filter looks
-- its memories up by tag; the tags column stays the record. A new memory's
-- tags are listed by the statement after its INSERT (insertMemory, the one
-- place a memory is inserted), not by a trigger, for the reason of 0008:
-- a trigger on insert halved the import rate. Updates and deletes, one row
-- at a time whatever their path (update, redaction, purge, sweep), keep it
-- in step by trigger.
-- Only text values are tags (a tags column is a JSON array of strings);
-- a repeated tag is one row.
CREATE TABLE memory_tags (
	tag TEXT    NOT NULL,
	seq INTEGER NOT NULL, -- memories.seq
	PRIMARY KEY (tag, seq)
) WITHOUT ROWID;
INSERT OR IGNORE INTO memory_tags (tag, seq)
	SELECT j.value, m.seq FROM memories m, json_each(m.tags) j WHERE j.type = 'text';
CREATE TRIGGER memory_tags_au AFTER UPDATE OF tags ON memories WHEN old.tags IS NOT new.tags BEGIN
	DELETE FROM memory_tags WHERE seq = old.seq AND tag IN (SELECT value FROM json_each(old.tags) WHERE type = 'text');
	INSERT OR IGNORE INTO memory_tags (tag, seq)
		SELECT value, new.seq FROM json_each(new.tags) WHERE type = 'text';
END;
CREATE TRIGGER memory_tags_ad AFTER DELETE ON memories BEGIN
	DELETE FROM memory_tags WHERE seq = old.seq AND tag IN (SELECT value FROM json_each(old.tags) WHERE type = 'text');
END;

-- memory_versions stops holding a second copy of every live memory's text
-- (at 100,000 memories the versions table was a quarter of the file, most
-- of it the current version's content again). A version's content leaves
-- its JSON snapshot for a column of its own, NULL while it is the same as
-- the live memory's (memories.content of the row with that id). Before a
-- memory's content changes, or the memory is deleted, the triggers below
-- move the text into the version rows that share it, in the same
-- statement's transaction, so no path that writes memories can leave a
-- version pointing at text it never had. Readers rebuild the whole
-- snapshot with versionSnapshotSQL.
ALTER TABLE memory_versions ADD COLUMN content TEXT;
-- A snapshot without a content key (hand-written ones) read as "" before.
UPDATE memory_versions SET content = COALESCE(json_extract(snapshot, '$.content'), ''),
	snapshot = json_remove(snapshot, '$.content');
UPDATE memory_versions SET content = NULL
	WHERE content = (SELECT m.content FROM memories m WHERE m.id = memory_versions.memory_id);
CREATE TRIGGER memories_versions_au AFTER UPDATE OF id, content ON memories
	WHEN old.content IS NOT new.content OR old.id IS NOT new.id BEGIN
	UPDATE memory_versions SET content = old.content WHERE memory_id = old.id AND content IS NULL;
END;
CREATE TRIGGER memories_versions_ad AFTER DELETE ON memories BEGIN
	UPDATE memory_versions SET content = old.content WHERE memory_id = old.id AND content IS NULL;
END;

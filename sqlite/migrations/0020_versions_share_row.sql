-- A version no longer stores its snapshot while it is its memory's
-- current one and the live row holds that very state (most memories are
-- written once and never changed): its snapshot is empty and readers
-- rebuild it from the row (versionSnapshotSQL, through the Go function
-- recall_memory_snapshot, so the JSON is the one saveVersion writes, byte
-- for byte). Only a version whose stored snapshot is exactly that JSON is
-- emptied: older snapshots with times finer than the row's milliseconds
-- keep theirs. Before any column a snapshot holds changes, or the row is
-- deleted, the triggers below write the old state into the versions that
-- share it, in the same statement's transaction (the text goes on moving
-- as in migration 0015), so no path that writes memories (update,
-- restore, import, tier moves, compaction, delete, sweep) can leave a
-- version pointing at a state it never had. They run before the change,
-- while the row still holds the state, and read it through the view
-- memory_snapshots, which names the columns once. That view calls a function
-- only recall registers: another program (an older recall, the sqlite3
-- shell) can read the store and add memories, but its updates and
-- deletes of memories fail, rolled back whole, instead of losing history.
CREATE VIEW memory_snapshots AS SELECT m.id AS memory_id, recall_memory_snapshot(m.id, m.key, m.collection, m.type,
	m.title, m.tags, m.category, m.context, m.related, m.project, m.priority, m.created_by, m.confidence, m.tier,
	m.pinned, m.status, m.anchors, m.metadata, m.created_at, m.updated_at, m.reviewed_at, m.occurred_at,
	m.snoozed_until, m.version) AS snapshot FROM memories m;
UPDATE memory_versions SET snapshot = ''
	WHERE snapshot = (SELECT s.snapshot FROM memory_snapshots s JOIN memories m ON m.id = s.memory_id
		WHERE s.memory_id = memory_versions.memory_id AND m.version = memory_versions.version);
CREATE TRIGGER memories_snapshots_bu BEFORE UPDATE ON memories
	WHEN old.id IS NOT new.id OR old.key IS NOT new.key OR old.collection IS NOT new.collection OR old.type IS NOT new.type OR
		old.title IS NOT new.title OR old.tags IS NOT new.tags OR old.category IS NOT new.category OR old.context IS NOT new.context OR
		old.related IS NOT new.related OR old.project IS NOT new.project OR old.priority IS NOT new.priority OR old.created_by IS NOT new.created_by OR
		old.confidence IS NOT new.confidence OR old.tier IS NOT new.tier OR old.pinned IS NOT new.pinned OR old.status IS NOT new.status OR
		old.anchors IS NOT new.anchors OR old.metadata IS NOT new.metadata OR old.created_at IS NOT new.created_at OR old.updated_at IS NOT new.updated_at OR
		old.reviewed_at IS NOT new.reviewed_at OR old.occurred_at IS NOT new.occurred_at OR old.snoozed_until IS NOT new.snoozed_until OR old.version IS NOT new.version BEGIN
	UPDATE memory_versions SET snapshot = (SELECT s.snapshot FROM memory_snapshots s WHERE s.memory_id = old.id)
		WHERE memory_id = old.id AND snapshot = '';
END;
CREATE TRIGGER memories_snapshots_bd BEFORE DELETE ON memories BEGIN
	UPDATE memory_versions SET snapshot = (SELECT s.snapshot FROM memory_snapshots s WHERE s.memory_id = old.id)
		WHERE memory_id = old.id AND snapshot = '';
END;

-- The maintain plan (and so the web UI's maintenance page and overview)
-- reads the active memories that have anchors. Without an index SQLite read
-- every memory to find the few with anchors (almost all of the maintenance
-- page's 680 ms at 100,000 memories). This partial index holds only those
-- rows, in id order, so the read is proportional to the anchored few. Its
-- condition must stay word for word the one in AnchoredMemories: SQLite
-- uses a partial index only when the query's WHERE names its terms.
CREATE INDEX memories_anchored ON memories(id)
	WHERE status = 'active' AND anchors NOT IN ('', '[]', 'null');

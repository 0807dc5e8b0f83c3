-- The web UI's overview sums the compacted raw entries on every view, to
-- show how much rollups compress. These partial indexes hold only the
-- compacted rows, so the sums read those rows and not every memory and
-- observation of the namespace. Rows of any other status never enter them.
CREATE INDEX memories_compacted ON memories (namespace) WHERE status = 'compacted';
CREATE INDEX observations_compacted ON observations (namespace) WHERE status = 'compacted';

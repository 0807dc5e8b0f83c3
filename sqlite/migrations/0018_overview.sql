-- Indexes for the web UI's overview, which reads the store statistics and
-- the compression of rollups on every view.
--
-- The store statistics count the memories created in the last 30 days.
-- Without an index on created_at SQLite read every memory to find them;
-- with it the count is a range of the index.
CREATE INDEX memories_created ON memories(created_at);

-- The compression plot sums the characters of the compacted raw entries
-- and of the rollups' summaries. These indexes hold those sums' terms, so
-- that SQLite reads only the indexes, never the rows' text, and for raw
-- entries only the compacted ones (partial indexes). They lead with the
-- time, as observations_compacted did, so that the sweep and the purge,
-- which look for compacted entries in a time range, still read a range;
-- an index led by status took their plans and read every compacted entry.
-- SQLite reads a partial index alone only when it holds the column of its
-- condition, hence status. The expressions must stay word for word the
-- ones in sqlite/compression_stats.go.
CREATE INDEX memories_compacted_chars ON memories(occurred_at, status, length(title) + length(content))
	WHERE status = 'compacted';
CREATE INDEX observations_compacted_chars ON observations(at, status, length(content))
	WHERE status = 'compacted';
-- The new index on observations serves every query observations_compacted
-- did, by the same leading column.
DROP INDEX observations_compacted;
CREATE INDEX memory_rollups_chars ON memory_rollups(bucket_type, status, length(summary), entries);

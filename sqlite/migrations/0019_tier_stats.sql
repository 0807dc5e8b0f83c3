-- Indexes for the tier statistics (`recall tiers`, the web UI's rollups
-- page): per tier and status, the count, the time range, the characters an
-- agent would read and the bytes of the stored rows. Without them each
-- view read every row of memories, observations and rollups, text and all
-- (about 200 ms at 100,000 memories). Each index holds the figures of one
-- row as small integers, so the statistics are a pass over an index.
--
-- The indexes lead with `status || ''` (and `bucket_type || ''`), not the
-- column: SQLite uses an indexed expression only for a query that names it
-- word for word, so no other query can take these indexes for its
-- `status = 'active'` (an index led by status took the listing's and the
-- anchored memories' plans: TestQueryPlans). Every expression must stay
-- written as in sqlite/tier_stats.go (TestTierStatsPlans).
CREATE INDEX memories_tier_stats ON memories(status || '', occurred_at, length(title) + length(content),
	length(CAST(id AS BLOB)) + length(CAST(IFNULL(key, '') AS BLOB)) + length(CAST(collection AS BLOB))
	+ length(CAST(type AS BLOB)) + length(CAST(title AS BLOB)) + length(CAST(content AS BLOB)) + length(CAST(tags AS BLOB))
	+ length(CAST(category AS BLOB)) + length(CAST(context AS BLOB)) + length(CAST(related AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(priority AS BLOB)) + length(CAST(created_by AS BLOB))
	+ length(CAST(tier AS BLOB)) + length(CAST(status AS BLOB)) + length(CAST(anchors AS BLOB))
	+ length(CAST(metadata AS BLOB)));
CREATE INDEX observations_tier_stats ON observations(status || '', at, length(content),
	length(CAST(type AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(session AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(tool AS BLOB)) + length(CAST(file AS BLOB))
	+ length(CAST(content AS BLOB)) + length(CAST(metadata AS BLOB)) + length(CAST(status AS BLOB)));
CREATE INDEX memory_rollups_tier_stats ON memory_rollups(bucket_type || '', status || '', bucket_start, bucket_end,
	length(summary), entries,
	length(CAST(id AS BLOB)) + length(CAST(bucket_type AS BLOB)) + length(CAST(bucket_start AS BLOB))
	+ length(CAST(bucket_end AS BLOB)) + length(CAST(memory_type AS BLOB)) + length(CAST(key AS BLOB))
	+ length(CAST(summary AS BLOB)) + length(CAST(value AS BLOB)) + length(CAST(tally AS BLOB))
	+ length(CAST(latest_at AS BLOB)) + length(CAST(IFNULL(rolled_at, '') AS BLOB)) + length(CAST(status AS BLOB))
	+ length(CAST(created_at AS BLOB)) + length(CAST(updated_at AS BLOB)));

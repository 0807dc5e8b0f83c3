-- Indexes for the tier statistics (`recall tiers`, the web UI's rollups
-- page): per tier and status, the count, the time range, the characters an
-- agent would read and the bytes of the stored rows. Without them each
-- view read every row of memories, observations and rollups, text and all
-- (about 200 ms at 100,000 memories). Indexes now hold each row's figures
-- as small integers, so the statistics are a pass over indexes. Each is
-- an index the rows enter already, widened, or one that ordinary rows
-- never enter, so writing costs little more.
-- Every expression must stay written as in sqlite/tier_stats.go: SQLite
-- uses an indexed expression only for a query that names it word for word
-- (TestTierStatsPlans).
--
-- The memories' figures widen the index of the tier listings, which leads
-- with tier and status already: an index of their own cost the batched
-- import about 8% of its time, wider entries in an index it writes anyway
-- far less. seq (the rowid, implied at the end before) follows updated_at
-- so that the listing still reads the index in its order of updated_at,
-- seq. An index led by status would have served as well, but SQLite,
-- without table statistics, took it for the listing's and the anchored
-- memories' status = 'active' (TestQueryPlans).
DROP INDEX memories_tier_updated;
CREATE INDEX memories_tier_updated ON memories(tier, status, updated_at, seq, occurred_at, length(title) + length(content),
	length(CAST(id AS BLOB)) + length(CAST(IFNULL(key, '') AS BLOB)) + length(CAST(collection AS BLOB))
	+ length(CAST(type AS BLOB)) + length(CAST(title AS BLOB)) + length(CAST(content AS BLOB)) + length(CAST(tags AS BLOB))
	+ length(CAST(category AS BLOB)) + length(CAST(context AS BLOB)) + length(CAST(related AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(priority AS BLOB)) + length(CAST(created_by AS BLOB))
	+ length(CAST(tier AS BLOB)) + length(CAST(status AS BLOB)) + length(CAST(anchors AS BLOB))
	+ length(CAST(metadata AS BLOB)));
-- The observations' figures likewise widen the partial indexes that every
-- active and every compacted observation enters anyway (a new index on
-- all of them cost recording 11%). They still lead with the time, so the
-- rollup job, the sweep and the purge read the same ranges of them
-- (TestCompactedPlans). A status other than those two (the store does not
-- forbid one) has a partial index of its own, which ordinary rows never
-- enter; its condition, like the others', must stay word for word the one
-- in sqlite/tier_stats.go, and no other query names it.
DROP INDEX observations_active_at;
CREATE INDEX observations_active_at ON observations(at, status, length(content),
	length(CAST(type AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(session AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(tool AS BLOB)) + length(CAST(file AS BLOB))
	+ length(CAST(content AS BLOB)) + length(CAST(metadata AS BLOB)) + length(CAST(status AS BLOB)))
	WHERE status = 'active';
DROP INDEX observations_compacted_chars;
CREATE INDEX observations_compacted_chars ON observations(at, status, length(content),
	length(CAST(type AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(session AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(tool AS BLOB)) + length(CAST(file AS BLOB))
	+ length(CAST(content AS BLOB)) + length(CAST(metadata AS BLOB)) + length(CAST(status AS BLOB)))
	WHERE status = 'compacted';
CREATE INDEX observations_other_status ON observations(status, at, length(content),
	length(CAST(type AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(session AS BLOB))
	+ length(CAST(project AS BLOB)) + length(CAST(tool AS BLOB)) + length(CAST(file AS BLOB))
	+ length(CAST(content AS BLOB)) + length(CAST(metadata AS BLOB)) + length(CAST(status AS BLOB)))
	WHERE status NOT IN ('active', 'compacted');
-- The rollups' figures widen the index the compression plot reads.
DROP INDEX memory_rollups_chars;
CREATE INDEX memory_rollups_chars ON memory_rollups(bucket_type, status, length(summary), entries, bucket_start, bucket_end,
	length(CAST(id AS BLOB)) + length(CAST(bucket_type AS BLOB)) + length(CAST(bucket_start AS BLOB))
	+ length(CAST(bucket_end AS BLOB)) + length(CAST(memory_type AS BLOB)) + length(CAST(key AS BLOB))
	+ length(CAST(summary AS BLOB)) + length(CAST(value AS BLOB)) + length(CAST(tally AS BLOB))
	+ length(CAST(latest_at AS BLOB)) + length(CAST(IFNULL(rolled_at, '') AS BLOB)) + length(CAST(status AS BLOB))
	+ length(CAST(created_at AS BLOB)) + length(CAST(updated_at AS BLOB)));

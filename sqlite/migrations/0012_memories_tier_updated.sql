-- A tier's listing (`recall list --tier`, the web UI's tier filter) is
-- ordered by last update: with the index on (tier, status) alone SQLite
-- read every memory of the tier and sorted them all in a temporary B-tree
-- to keep a page of fifty (150 ms at 100,000 memories). With updated_at in
-- the index (and seq, the rowid, implied after it) it walks the tier's
-- rows already in order and stops after the page. The new index serves
-- every query the old one did, so the old one goes.
CREATE INDEX memories_tier_updated ON memories(tier, status, updated_at);
DROP INDEX memories_tier;

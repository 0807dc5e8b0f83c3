-- Indexes for the store statistics, which the web UI's overview reads on
-- every view. Without them PostgreSQL read every memory of the namespace
-- to group the memories by tier and to find the ones created in the last
-- 30 days, and every observation to group them by type. With them each
-- count is an index-only scan (TestStoreStatsPlans): a range of small
-- index entries, not the rows with their text and full-text vectors.
CREATE INDEX memories_tier ON memories (namespace, tier);
CREATE INDEX memories_created ON memories (namespace, created_at);
CREATE INDEX observations_type ON observations (namespace, type);

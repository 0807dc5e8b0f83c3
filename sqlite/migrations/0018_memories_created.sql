-- The store statistics (`recall stats`, the web UI's overview on every
-- view) count the memories created in the last 30 days. Without an index on
-- created_at SQLite read every memory to find them; with it the count is a
-- range of the index.
CREATE INDEX memories_created ON memories(created_at);

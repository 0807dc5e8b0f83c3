-- Context packs read the pinned core on every session start; without an
-- index that is a scan of every memory.
CREATE INDEX memories_pinned ON memories(pinned, updated_at);

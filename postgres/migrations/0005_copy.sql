-- What moving a store between backends (recall migrate) needs.
--
-- An observation's id is kept when it is copied in, as rollups name their
-- sources by it; copies from several stores into namespaces of one
-- database bring the same numbers, so an id is unique per namespace. New
-- observations still draw from the one identity sequence, which a copy
-- moves past the ids it brings.
ALTER TABLE observations DROP CONSTRAINT observations_pkey;
ALTER TABLE observations ADD PRIMARY KEY (namespace, id);

-- A version's snapshot is kept byte for byte, as the memory's metadata
-- is (json, not jsonb): jsonb reorders the keys of the metadata inside
-- it, and a store copied here and back would show other history.
ALTER TABLE memory_versions ALTER COLUMN snapshot TYPE json USING snapshot::json;

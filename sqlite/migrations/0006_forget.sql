-- Forgetting (seed 003): an audit trail of purges and sweeps, holding the
-- time, the criteria and the counts but never the content removed, and an
-- index for sweeping rolled-up observations past raw retention.

CREATE TABLE forget_log (
	id       INTEGER PRIMARY KEY,
	at       INTEGER NOT NULL,
	kind     TEXT    NOT NULL, -- purge or sweep
	criteria TEXT    NOT NULL, -- flags, with any search text withheld
	counts   TEXT    NOT NULL  -- JSON object of counts
);
CREATE INDEX forget_log_kind ON forget_log(kind, at);

CREATE INDEX observations_compacted ON observations(at) WHERE status = 'compacted';

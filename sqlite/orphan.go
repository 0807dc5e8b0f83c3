package sqlite

import (
	"context"
	"fmt"

	"github.com/recall-mem/recall"
)

// OrphanObservations is the Orphans kind of observations whose session
// was never started.
const OrphanObservations = recall.OrphanObservations

// Orphans counts rows that point at something missing, by kind. Every
// count is zero in a healthy store. The FTS indexes are checked by Check.
func (db *DB) Orphans(ctx context.Context) (map[string]int, error) {
	queries := map[string]string{
		// A hook records observations before its session row only when a
		// write failed midway; the session list would then miss them.
		OrphanObservations: `SELECT COUNT(*) FROM observations o WHERE o.session != ''
			AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = o.session)`,
		// Every live memory has its current state in the versions table.
		"memories without their current version": `SELECT COUNT(*) FROM memories m
			WHERE NOT EXISTS (SELECT 1 FROM memory_versions v WHERE v.memory_id = m.id AND v.version = m.version)`,
		// A version shares its memory's text until the memory changes
		// (migration 0015), and its whole state while it is the current
		// one (0020); one whose memory is gone has lost what it shared.
		"versions whose shared text is gone": `SELECT COUNT(*) FROM memory_versions v
			WHERE v.content IS NULL AND json_type(NULLIF(v.snapshot, ''), '$.content') IS NULL
			AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = v.memory_id)`,
		"versions whose shared state is gone": `SELECT COUNT(*) FROM memory_versions v
			WHERE v.snapshot = '' AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = v.memory_id AND m.version = v.version)`,
	}
	out := map[string]int{}
	for kind, q := range queries {
		var n int
		if err := db.read.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return nil, fmt.Errorf("orphans: %w", err)
		}
		out[kind] = n
	}
	return out, nil
}

// QuickCheck is the heartbeat's integrity probe, cheap at any store size:
// SQLite's quick_check limited to the small session and version tables
// (a full integrity_check reads every page and belongs to `recall doctor`).
// It returns an error describing the first problems found.
func (db *DB) QuickCheck(ctx context.Context) error {
	for _, table := range []string{"sessions", "migrations"} {
		var line string
		if err := db.read.QueryRowContext(ctx, `PRAGMA quick_check(`+table+`)`).Scan(&line); err != nil {
			return fmt.Errorf("quick_check %s: %w", table, err)
		}
		if line != "ok" {
			return fmt.Errorf("quick_check %s: %s", table, line)
		}
	}
	return nil
}

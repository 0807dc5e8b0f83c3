package sqlite

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// TestMigrate_TierStats opens a store written before migration 0019: the
// widened indexes are built from the rows already there, so the tier
// statistics read from them are the rows' own.
func TestMigrate_TierStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0019")
	for i, status := range []string{"active", "active", "archived", "compacted", "superseded"} {
		exec(`INSERT INTO memories (id, collection, tier, status, title, content, created_at, updated_at, occurred_at)
			VALUES (?, 'default', ?, ?, 'Größe', 'naïve text', 1, 1, ?)`, "tr0000000"+string(rune('a'+i)), []string{"register", "archive"}[i%2], status, 1000*(i+1))
	}
	for i, status := range []string{"active", "compacted", "compacted", "odd"} {
		exec(`INSERT INTO observations (at, type, content, status) VALUES (?, 'command', 'go test ./…', ?)`, 500*(i+1), status)
	}
	exec(`INSERT INTO memory_rollups (id, bucket_type, bucket_start, bucket_end, memory_type, summary, confidence, source_count,
		entries, latest_at, created_at, updated_at) VALUES ('ru1', 'daily', '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z',
		'command', 'ran the tests', 1, 2, 2, '2026-03-02T11:00:00Z', '2026-03-04T00:00:00Z', '2026-03-04T00:00:00Z')`)
	rs := NewRollupService(migrated(t, old, path), nil)
	got, err := rs.TierStats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := rs.TierStatsByRows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 4+3+1 {
		t.Fatalf("%d groups, want 8: %+v", len(want), want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("from indexes:\n%+v\nfrom rows:\n%+v", got, want)
	}
}

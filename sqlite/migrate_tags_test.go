package sqlite

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"sort"
	"testing"

	"github.com/recall-mem/recall"
)

// TestMigrate_MemoryTags opens a store written before migration 0014
// (tags read from the JSON column only): the tag filter finds the old
// memories through the filled memory_tags.
func TestMigrate_MemoryTags(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	sort.Strings(names)
	exec(`CREATE TABLE migrations (name TEXT PRIMARY KEY) WITHOUT ROWID`)
	for _, name := range names {
		if name >= "migrations/0014" {
			break
		}
		buf, _ := fs.ReadFile(migrationFS, name)
		exec(string(buf))
		exec(`INSERT INTO migrations (name) VALUES (?)`, name)
	}
	for id, tags := range map[string]string{"tr00000000a1": `["red","blue","red"]`, "tr00000000b2": `["blue"]`, "tr00000000c3": `[]`} {
		exec(`INSERT INTO memories (id, collection, title, content, tags, created_at, updated_at, occurred_at)
			VALUES (?, 'default', ?, 'text', ?, 1, 1, 1)`, id, "note "+id, tags)
	}
	old.Close()

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	for tag, want := range map[string]int{"red": 1, "blue": 2, "green": 0} {
		ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {tag}}})
		if err != nil || len(ms) != want {
			t.Errorf("tag %q after migration: %d memories, %v; want %d", tag, len(ms), err, want)
		}
	}
}

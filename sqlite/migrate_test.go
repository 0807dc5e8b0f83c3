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

// TestMigrate_IndexAndVersions opens a store written before migrations
// 0008 (memories indexed by a trigger) and 0009 (versions keyed by memory
// id): its memories, versions and full-text index come through, and new
// writes are indexed.
func TestMigrate_IndexAndVersions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	sort.Strings(names)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE migrations (name TEXT PRIMARY KEY) WITHOUT ROWID`)
	for _, name := range names {
		if name >= "migrations/0008" {
			break
		}
		buf, _ := fs.ReadFile(migrationFS, name)
		exec(string(buf))
		exec(`INSERT INTO migrations (name) VALUES (?)`, name)
	}
	for i, id := range []string{"tr00000000b2", "tr00000000a1"} {
		exec(`INSERT INTO memories (id, collection, title, content, created_at, updated_at, occurred_at, version)
			VALUES (?, 'default', ?, 'the old lighthouse keeper', 1, 1, 1, 2)`, id, "note "+id)
		for v := 1; v <= 2; v++ {
			exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES (?, ?, 'put', ?, ?)`,
				id, v, i*10+v, `{"id":"`+id+`"}`)
		}
	}
	old.Close()

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := NewMemoryService(db)
	vs, err := s.MemoryVersions(ctx, "tr00000000a1")
	if err != nil || len(vs) != 2 || vs[1].Version != 2 {
		t.Fatalf("versions after migration: %v %v", vs, err)
	}
	if _, err := s.PutMemory(ctx, &recall.Memory{Title: "new", Content: "a lighthouse on the cliff"}); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "lighthouse", Limit: 10})
	if err != nil || len(hits) != 3 {
		t.Fatalf("search after migration: %d hits, %v", len(hits), err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_NewFileSettings: a new store gets the page size, incremental
// auto-vacuum and WAL mode, whatever order the driver runs DSN pragmas in.
func TestOpen_NewFileSettings(t *testing.T) {
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var size, vacuum int
	var mode string
	if err := db.write.QueryRow(`SELECT page_size, auto_vacuum, journal_mode FROM pragma_page_size, pragma_auto_vacuum, pragma_journal_mode`).Scan(&size, &vacuum, &mode); err != nil {
		t.Fatal(err)
	}
	if size != pageSize || vacuum != 2 || mode != "wal" {
		t.Fatalf("page_size %d, auto_vacuum %d, journal_mode %s", size, vacuum, mode)
	}
}

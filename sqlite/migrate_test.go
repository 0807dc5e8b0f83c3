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
	old, exec := oldStore(t, path, "migrations/0008")
	for i, id := range []string{"tr00000000b2", "tr00000000a1"} {
		exec(`INSERT INTO memories (id, collection, title, content, created_at, updated_at, occurred_at, version)
			VALUES (?, 'default', ?, 'the old lighthouse keeper', 1, 1, 1, 2)`, id, "note "+id)
		for v := 1; v <= 2; v++ {
			exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES (?, ?, 'put', ?, ?)`,
				id, v, i*10+v, `{"id":"`+id+`"}`)
		}
	}
	// A vector of the first memory, and a later one since deleted: the
	// sequence must not go back to reuse its seq.
	exec(`INSERT INTO memory_vectors (seq, memory_id, chunk, version, hash, model, dim, span_start, span_end, vec)
		VALUES (5, 'tr00000000b2', 0, 2, 'h', 'm', 2, 0, 4, x'0000803f00000000'), (9, 'tr00000000a1', 0, 2, 'h', 'm', 2, 0, 4, x'0000803f00000000')`)
	exec(`DELETE FROM memory_vectors WHERE seq = 9`)
	db := migrated(t, old, path)
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
	var seq, memSeq, next int64
	if err := db.read.QueryRowContext(ctx, `SELECT v.seq, v.memory_seq = m.seq, (SELECT seq FROM sqlite_sequence WHERE name = 'memory_vectors')
		FROM memory_vectors v JOIN memories m ON m.id = v.memory_id`).Scan(&seq, &memSeq, &next); err != nil || seq != 5 || memSeq != 1 || next < 9 {
		t.Fatalf("vectors after migration: seq %d, keyed %d, sequence %d, %v", seq, memSeq, next, err)
	}
	if err := s.DeleteMemory(ctx, "tr00000000b2"); err != nil {
		t.Fatal(err)
	}
	var left, tombs int
	if err := db.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM memory_vectors), (SELECT COUNT(*) FROM vector_tombstones WHERE vec_seq = 5)`).Scan(&left, &tombs); err != nil || left != 0 || tombs != 1 {
		t.Fatalf("after delete: %d vectors, %d tombstones, %v", left, tombs, err)
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

// TestMigrate_MemoryTags opens a store written before migration 0014
// (tags read from the JSON column only): the tag filter finds the old
// memories through the filled memory_tags.
func TestMigrate_MemoryTags(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0014")
	for id, tags := range map[string]string{"tr00000000a1": `["red","blue","red"]`, "tr00000000b2": `["blue"]`, "tr00000000c3": `[]`} {
		exec(`INSERT INTO memories (id, collection, title, content, tags, created_at, updated_at, occurred_at)
			VALUES (?, 'default', ?, 'text', ?, 1, 1, 1)`, id, "note "+id, tags)
	}
	db := migrated(t, old, path)
	s := NewMemoryService(db)
	for tag, want := range map[string]int{"red": 1, "blue": 2, "green": 0} {
		ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {tag}}})
		if err != nil || len(ms) != want {
			t.Errorf("tag %q after migration: %d memories, %v; want %d", tag, len(ms), err, want)
		}
	}
}

// oldStore writes a store at path as it was before the migration named
// before: every migration earlier in name order applied and recorded. It
// returns the open database and a helper that runs a statement or fails.
func oldStore(t *testing.T, path, before string) (*sql.DB, func(q string, args ...any)) {
	t.Helper()
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := old.ExecContext(context.Background(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	sort.Strings(names)
	exec(`CREATE TABLE migrations (name TEXT PRIMARY KEY) WITHOUT ROWID`)
	for _, name := range names {
		if name >= before {
			break
		}
		buf, _ := fs.ReadFile(migrationFS, name)
		exec(string(buf))
		exec(`INSERT INTO migrations (name) VALUES (?)`, name)
	}
	return old, exec
}

// migrated closes the old store and opens it again as a DB, which applies
// the migrations it lacks.
func migrated(t *testing.T, old *sql.DB, path string) *DB {
	t.Helper()
	old.Close()
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

package sqlite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// versionRow is what the versions table holds for one version: its op and
// the content column (nil when shared with the live memory).
type versionRow struct {
	op      string
	content *string
}

// openTemp opens a new store in a temporary directory, closed when the
// test ends; now, when set, is its clock.
func openTemp(t *testing.T, now func() time.Time) *DB {
	t.Helper()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if now != nil {
		db.Now = now
	}
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// putContent puts a memory of that content and returns its id.
func putContent(t *testing.T, s *MemoryService, content string) string {
	t.Helper()
	res, err := s.PutMemory(context.Background(), &recall.Memory{Content: content})
	if err != nil {
		t.Fatal(err)
	}
	return res.Memory.ID
}

func versionRows(t *testing.T, db *DB, id string) []versionRow {
	t.Helper()
	rows, err := db.read.Query(`SELECT op, content FROM memory_versions WHERE memory_id = ? ORDER BY version`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []versionRow
	for rows.Next() {
		var r versionRow
		if err := rows.Scan(&r.op, &r.content); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// wantRows checks the content column of each of id's versions: "" stands
// for NULL (shared with the live memory).
func wantRows(t *testing.T, db *DB, id string, want ...string) {
	t.Helper()
	got := versionRows(t, db, id)
	if len(got) != len(want) {
		t.Fatalf("%s: %d versions, want %d", id, len(got), len(want))
	}
	for i, r := range got {
		switch {
		case want[i] == "" && r.content != nil:
			t.Errorf("%s version %d holds its content %q: want it shared with the live memory", id, i+1, *r.content)
		case want[i] != "" && (r.content == nil || *r.content != want[i]):
			t.Errorf("%s version %d content %v, want %q", id, i+1, r.content, want[i])
		}
	}
}

func contents(t *testing.T, s *MemoryService, id string) []string {
	t.Helper()
	vs, err := s.MemoryVersions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Memory.Content
	}
	return out
}

func noSnapshotContent(t *testing.T, db *DB) {
	t.Helper()
	var n int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM memory_versions WHERE json_type(NULLIF(snapshot, ''), '$.content') IS NOT NULL`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d snapshots hold their content, %v", n, err)
	}
}

// TestVersions_ShareLiveContent: the versions table holds no copy of a
// live memory's text. A version keeps its content NULL while the memory
// has that text; the text moves into the version rows when the memory's
// content changes or the memory is deleted, and every reader sees each
// version's own text throughout.
func TestVersions_ShareLiveContent(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	db := openTemp(t, func() time.Time { return clock })
	s := NewMemoryService(db)
	tick := func() { clock = clock.Add(time.Minute) }
	put := func(m *recall.Memory) string {
		t.Helper()
		tick()
		res, err := s.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		return res.Memory.ID
	}
	update := func(id string, u recall.MemoryUpdate) {
		t.Helper()
		tick()
		if _, err := s.UpdateMemory(ctx, id, u); err != nil {
			t.Fatal(err)
		}
	}

	edited := put(&recall.Memory{Title: "first", Content: "the ferry leaves at nine"})
	kept := put(&recall.Memory{Content: "the lighthouse is white"})
	gone := put(&recall.Memory{Content: "the harbour master is Ines"})
	wantRows(t, db, edited, "")
	update(edited, recall.MemoryUpdate{Title: new("second")}) // same text: both versions share it
	wantRows(t, db, edited, "", "")
	beforeEdit := clock
	update(edited, recall.MemoryUpdate{Content: new("the ferry leaves at ten")})
	wantRows(t, db, edited, "the ferry leaves at nine", "the ferry leaves at nine", "")
	tick()
	if err := s.DeleteMemory(ctx, gone); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, gone, "the harbour master is Ines", "the harbour master is Ines")
	wantRows(t, db, kept, "")
	noSnapshotContent(t, db)

	if got, want := contents(t, s, edited), []string{"the ferry leaves at nine", "the ferry leaves at nine", "the ferry leaves at ten"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("versions %q, want %q", got, want)
	}
	if got, want := contents(t, s, gone), []string{"the harbour master is Ines", "the harbour master is Ines"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("versions of the deleted memory %q, want %q", got, want)
	}
	vs, _ := s.MemoryVersions(ctx, edited)
	if vs[0].Memory.Title != "first" || vs[1].Memory.Title != "second" || vs[2].Memory.Version != 3 {
		t.Fatalf("snapshots lost their other fields: %+v %+v %+v", vs[0].Memory, vs[1].Memory, vs[2].Memory)
	}
	asOf, err := s.MemoriesAsOf(ctx, beforeEdit)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, m := range asOf {
		byID[m.ID] = m.Content
	}
	if want := map[string]string{edited: "the ferry leaves at nine", kept: "the lighthouse is white", gone: "the harbour master is Ines"}; !reflect.DeepEqual(byID, want) {
		t.Fatalf("as of before the edit: %q, want %q", byID, want)
	}

	// A restore writes the old text back: the version it replaced gets
	// its own copy, the new one shares.
	tick()
	if _, err := s.RestoreMemory(ctx, edited, 1); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, edited, "the ferry leaves at nine", "the ferry leaves at nine", "the ferry leaves at ten", "")
	// Restoring the deleted memory makes it live again, sharing once more.
	tick()
	if _, err := s.RestoreMemory(ctx, gone, 1); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, gone, "the harbour master is Ines", "the harbour master is Ines", "")
	if got := contents(t, s, gone); got[2] != "the harbour master is Ines" {
		t.Fatalf("restored version %q", got[2])
	}
	storeSound(t, db)
}

// TestOrphans_SharedTextGone: a version that claims to share the text of
// a memory that no longer exists has lost its content, and doctor says so.
func TestOrphans_SharedTextGone(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	id := putContent(t, s, "short-lived")
	if err := s.DeleteMemory(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.Exec(`UPDATE memory_versions SET content = NULL WHERE memory_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	orphans, err := db.Orphans(ctx)
	if err != nil || orphans["versions whose shared text is gone"] != 2 {
		t.Fatalf("orphans %v, %v: want the deleted memory's 2 versions", orphans, err)
	}
}

// TestMigrate_VersionsShareContent opens a store written before migration
// 0015, whose versions hold whole snapshots: every version reads back as
// it did, the live memories' text is no longer copied, and later changes
// move the text into the versions as for a new store.
func TestMigrate_VersionsShareContent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0015")
	at := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	live := func(id, content string, version int) {
		exec(`INSERT INTO memories (id, collection, title, content, created_at, updated_at, occurred_at, version)
			VALUES (?, 'default', '', ?, 1, 1, 1, ?)`, id, content, version)
		exec(`INSERT INTO memories_fts (rowid, title, content, tags) SELECT seq, title, content, tags FROM memories WHERE id = ?`, id)
	}
	snap := func(id string, version int, op, content string) {
		b, _ := json.Marshal(&recall.Memory{ID: id, Collection: "default", Title: "t" + op, Content: content,
			Metadata: json.RawMessage(`{"n":1.50,"s":"<&>"}`), Tier: "register", Status: "active", CreatedAt: at, UpdatedAt: at, OccurredAt: at, Version: version})
		exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES (?, ?, ?, ?, ?)`, id, version, op, version, string(b))
	}
	const edited, kept, gone, bare = "tr00000000e1", "tr00000000c1", "tr00000000d1", "tr00000000b1"
	live(edited, "now <b>bold</b> & \"quoted\"", 2)
	snap(edited, 1, "put", "was plain")
	snap(edited, 2, "update", "now <b>bold</b> & \"quoted\"")
	live(kept, "unchanged", 1)
	snap(kept, 1, "put", "unchanged")
	snap(gone, 1, "put", "deleted text")
	snap(gone, 2, "delete", "deleted text")
	live(bare, "the row's text", 1)
	exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES (?, 1, 'put', 1, ?)`, bare, `{"id":"`+bare+`"}`)

	// What the old reader saw: each snapshot decoded as it was.
	before := map[string][]recall.Memory{}
	rows, err := old.Query(`SELECT memory_id, snapshot FROM memory_versions ORDER BY memory_id, version`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, s string
		var m recall.Memory
		if err := rows.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		before[id] = append(before[id], m)
	}
	rows.Close()

	db := migrated(t, old, path)
	s := NewMemoryService(db)
	for id, want := range before {
		vs, err := s.MemoryVersions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]recall.Memory, len(vs))
		for i, v := range vs {
			got[i] = *v.Memory
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s after migration:\n%+v\nwant\n%+v", id, got, want)
		}
	}
	wantRows(t, db, edited, "was plain", "")
	wantRows(t, db, kept, "")
	wantRows(t, db, gone, "deleted text", "deleted text")
	noSnapshotContent(t, db)

	// The triggers came with the migration.
	if _, err := s.UpdateMemory(ctx, edited, recall.MemoryUpdate{Content: new("third")}); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, edited, "was plain", "now <b>bold</b> & \"quoted\"", "")
	if err := s.DeleteMemory(ctx, kept); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, kept, "unchanged", "unchanged")
	if got := contents(t, s, edited); !reflect.DeepEqual(got, []string{"was plain", "now <b>bold</b> & \"quoted\"", "third"}) {
		t.Fatalf("versions after the edit %q", got)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestVersions_WrittenByOlderRecall: during an upgrade an older recall can
// write to a migrated store, with the text in the snapshot and no content
// column. Once its memory is deleted (the older recall records the
// deletion the same way) the versions still read their own text, and
// doctor finds nothing lost.
func TestVersions_WrittenByOlderRecall(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	id := putContent(t, s, "the old way")
	// What an older recall's DeleteMemory writes: the row goes, then a
	// version whose snapshot holds the text.
	if _, err := db.write.Exec(`DELETE FROM memories WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.Exec(`INSERT INTO memory_versions (memory_id, version, op, changed_at, snapshot) VALUES (?, 2, 'delete', 2, ?)`,
		id, `{"id":"`+id+`","collection":"default","content":"the old way","version":2}`); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, s, id); !reflect.DeepEqual(got, []string{"the old way", "the old way"}) {
		t.Fatalf("versions %q", got)
	}
	if orphans, err := db.Orphans(ctx); err != nil || orphans["versions whose shared text is gone"] != 0 {
		t.Fatalf("orphans %v, %v", orphans, err)
	}
}

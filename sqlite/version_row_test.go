package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// preRowSnapshotSQL is versionSnapshotSQL as it was before migration
// 0020: every version held its snapshot, and only the text was shared.
const preRowSnapshotSQL = `json_set(v.snapshot, '$.content', COALESCE(v.content, (SELECT m.content FROM memories m WHERE m.id = v.memory_id),
	json_extract(v.snapshot, '$.content'), ''))`

// versionView is every version of every memory as a reader decodes it.
type versionView map[string][]recall.MemoryVersion

func readVersions(t *testing.T, q *sql.DB, snapshotSQL string) versionView {
	t.Helper()
	rows, err := q.Query(`SELECT v.memory_id, v.version, v.op, v.changed_at, ` + snapshotSQL + ` FROM memory_versions v ORDER BY v.memory_id, v.version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := versionView{}
	for rows.Next() {
		var v recall.MemoryVersion
		var at int64
		var snap string
		if err := rows.Scan(&v.MemoryID, &v.Version, &v.Op, &at, &snap); err != nil {
			t.Fatal(err)
		}
		v.ChangedAt = fromMS(at)
		if err := json.Unmarshal([]byte(snap), &v.Memory); err != nil {
			t.Fatalf("%s version %d: %v", v.MemoryID, v.Version, err)
		}
		out[v.MemoryID] = append(out[v.MemoryID], v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameVersions compares two views version by version and field by field.
func sameVersions(t *testing.T, label string, got, want versionView) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: versions of %d memories, want %d", label, len(got), len(want))
	}
	for id, wvs := range want {
		gvs := got[id]
		if len(gvs) != len(wvs) {
			t.Errorf("%s: %s has %d versions, want %d", label, id, len(gvs), len(wvs))
			continue
		}
		for i := range wvs {
			g, w := gvs[i], wvs[i]
			if g.Version != w.Version || g.Op != w.Op || !g.ChangedAt.Equal(w.ChangedAt) {
				t.Errorf("%s: %s version %d/%s at %v, want %d/%s at %v", label, id, g.Version, g.Op, g.ChangedAt, w.Version, w.Op, w.ChangedAt)
			}
			sameMemoryFields(t, label+": "+id, w.Version, g.Memory, w.Memory)
		}
	}
}

func sameMemoryFields(t *testing.T, label string, version int, got, want *recall.Memory) {
	t.Helper()
	gv, wv := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for f := 0; f < wv.NumField(); f++ {
		if g, w := gv.Field(f).Interface(), wv.Field(f).Interface(); !reflect.DeepEqual(g, w) {
			t.Errorf("%s version %d: %s = %#v, want %#v", label, version, wv.Type().Field(f).Name, g, w)
		}
	}
}

func sharedSnapshots(t *testing.T, q *sql.DB) int {
	t.Helper()
	var n int
	if err := q.QueryRow(`SELECT COUNT(*) FROM memory_versions WHERE snapshot = ''`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// historyStore writes a store whose memories went through every path
// that writes versions or changes a live row, and returns the state each
// write reported, by memory id and version.
func historyStore(t *testing.T, db *DB) map[string]map[int]*recall.Memory {
	ctx := context.Background()
	s, tiers, forget := NewMemoryService(db), NewTierService(db), NewForgetService(db)
	wrote := map[string]map[int]*recall.Memory{}
	note := func(m *recall.Memory, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		c := *m
		if wrote[m.ID] == nil {
			wrote[m.ID] = map[int]*recall.Memory{}
		}
		wrote[m.ID][m.Version] = &c
		return m.ID
	}
	put := func(m *recall.Memory) string {
		t.Helper()
		res, err := s.PutMemory(ctx, m)
		return note(res.Memory, err)
	}
	update := func(id string, u recall.MemoryUpdate) {
		t.Helper()
		note(s.UpdateMemory(ctx, id, u))
	}
	restore := func(id string, n int) {
		t.Helper()
		note(s.RestoreMemory(ctx, id, n))
	}

	edited := put(&recall.Memory{Title: "ferry", Content: "the ferry leaves at nine", Tags: []string{"travel"},
		Metadata: json.RawMessage(`{"n": 1.50, "s": "<&>"}`), Confidence: 0.7, Project: "harbour"})
	update(edited, recall.MemoryUpdate{Title: new("ferry <times>")})
	update(edited, recall.MemoryUpdate{Content: new("the ferry leaves at ten")})
	restored := put(&recall.Memory{Key: "light", Content: "the lighthouse is white", Category: "fact"})
	update(restored, recall.MemoryUpdate{Content: new("the lighthouse is red")})
	restore(restored, 1)
	gone := put(&recall.Memory{Content: "the harbour master is Ines"})
	if err := s.DeleteMemory(ctx, gone); err != nil {
		t.Fatal(err)
	}
	back := put(&recall.Memory{Content: "the pier closes at dusk", Pinned: true, Title: "pier"})
	if err := s.DeleteMemory(ctx, back); err != nil {
		t.Fatal(err)
	}
	restore(back, 1)
	purged := put(&recall.Memory{Content: "the safe code is 4711"})
	update(purged, recall.MemoryUpdate{Content: new("the safe code is 4712")})
	if _, err := forget.Purge(ctx, recall.PurgeCriteria{Memories: true, MemoryID: purged}); err != nil {
		t.Fatal(err)
	}
	synced := "tr00000000a1"
	if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Insert: []*recall.Memory{{ID: synced, Content: "synced from a file", Tier: recall.TierRegister}}}); err != nil {
		t.Fatal(err)
	}
	if err := tiers.ApplyTierChanges(ctx, recall.TierChanges{Op: "maintain", Update: []recall.MemoryChange{{ID: synced, Update: recall.MemoryUpdate{Content: new("synced again")}}}}); err != nil {
		t.Fatal(err)
	}
	// Imported with times finer than milliseconds and in another zone:
	// the row cannot hold those, so the version keeps its own snapshot.
	zone := time.FixedZone("", 2*3600)
	fine := time.Date(2025, 4, 1, 9, 30, 0, 123456789, zone)
	reviewed := time.Date(2025, 4, 2, 0, 0, 0, 0, time.UTC)
	imported := []*recall.Memory{
		{ID: "tr00000000b1", Content: "imported finely", CreatedAt: fine, OccurredAt: fine, Related: []string{edited}},
		{ID: "tr00000000b2", Content: "imported plainly", CreatedAt: reviewed, ReviewedAt: &reviewed, SnoozedUntil: &reviewed,
			Anchors: []recall.Anchor{{Path: "notes.md", Hash: "ab12"}}, Metadata: json.RawMessage(`{"b":[1, 2]}`)},
		{ID: edited, Content: "the ferry leaves at ten"}, // unchanged fields aside from these: a new version
	}
	res, err := s.ImportMemories(ctx, imported)
	if err != nil || res.Added != 2 {
		t.Fatalf("import %+v, %v", res, err)
	}
	// A row that changes without a new version, as rollups compact one.
	compacted := put(&recall.Memory{Content: "said on a Tuesday"})
	if _, err := db.write.Exec(`UPDATE memories SET status = 'compacted' WHERE id = ?`, compacted); err != nil {
		t.Fatal(err)
	}
	put(&recall.Memory{Content: "never changed"})
	return wrote
}

// TestVersions_ShareLiveRow: a version stores no snapshot while it is its
// memory's current one and the row holds that state, yet every version
// reads back as the write that made it reported it; the state moves into
// the version row when any field of the row changes or the row goes.
func TestVersions_ShareLiveRow(t *testing.T) {
	clock := time.Date(2026, 3, 1, 0, 0, 0, 987654321, time.UTC)
	db := openTemp(t, func() time.Time { clock = clock.Add(time.Minute + time.Microsecond); return clock })
	wrote := historyStore(t, db)
	view := readVersions(t, db.read, versionSnapshotSQL)

	for id, byVersion := range wrote {
		for n, m := range byVersion {
			i := slices.IndexFunc(view[id], func(v recall.MemoryVersion) bool { return v.Version == n })
			if i < 0 {
				if len(view[id]) > 0 { // a purged memory has none
					t.Errorf("%s version %d missing", id, n)
				}
				continue
			}
			got, _ := json.Marshal(view[id][i].Memory)
			want, _ := json.Marshal(m)
			if string(got) != string(want) {
				t.Errorf("%s version %d reads\n%s\nwant what the write returned\n%s", id, n, got, want)
			}
		}
	}
	// Shared: the current version of every live memory written here
	// except the finely timed import and the compacted one.
	var live, own int
	if err := db.read.QueryRow(`SELECT COUNT(*), SUM(v.snapshot != '') FROM memories m JOIN memory_versions v ON v.memory_id = m.id AND v.version = m.version`).Scan(&live, &own); err != nil {
		t.Fatal(err)
	}
	if own != 2 || sharedSnapshots(t, db.read) != live-2 {
		t.Fatalf("%d live memories, %d current versions with their own snapshot, %d shared: want 2 own", live, own, sharedSnapshots(t, db.read))
	}
	var status string
	if err := db.read.QueryRow(`SELECT json_extract(v.snapshot, '$.status') FROM memory_versions v JOIN memories m ON m.id = v.memory_id
		WHERE m.status = 'compacted'`).Scan(&status); err != nil || status != recall.StatusActive {
		t.Fatalf("compacted memory's version keeps status %q, %v", status, err)
	}
	storeSound(t, db)
}

// TestMigrate_VersionsShareRow opens a store written before migration
// 0020, whose versions all hold their snapshots: every version of every
// memory (updated, restored, deleted, purged, synced, imported,
// compacted) reads back field by field as it did, the current versions
// whose row holds their state stop storing it, and the triggers came
// with the migration.
func TestMigrate_VersionsShareRow(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	clock := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	db := NewDB(path)
	db.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	historyStore(t, db)
	written := readVersions(t, db.read, versionSnapshotSQL)
	shared := sharedSnapshots(t, db.read)
	db.Close()

	// The same store as recall wrote it before 0020: every snapshot
	// stored, no triggers, the migration not applied.
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE memory_versions AS v SET snapshot = (SELECT s.snapshot FROM memory_snapshots s WHERE s.memory_id = v.memory_id) WHERE snapshot = ''`,
		`DROP TRIGGER memories_snapshots_bu`, `DROP TRIGGER memories_snapshots_bd`, `DROP VIEW memory_snapshots`,
		`DELETE FROM migrations WHERE name = 'migrations/0020_versions_share_row.sql'`,
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if shared == 0 || sharedSnapshots(t, old) != 0 {
		t.Fatalf("%d shared before, %d after the rewind", shared, sharedSnapshots(t, old))
	}
	before := readVersions(t, old, preRowSnapshotSQL)
	sameVersions(t, "old reader", before, written)
	asOf := time.Date(2026, 3, 1, 0, 10, 0, 0, time.UTC)

	db = migrated(t, old, path)
	s := NewMemoryService(db)
	sameVersions(t, "after migration", readVersions(t, db.read, versionSnapshotSQL), before)
	if got := sharedSnapshots(t, db.read); got != shared {
		t.Fatalf("%d versions share their row after the migration, want %d", got, shared)
	}
	for id, vs := range before {
		got, err := s.MemoryVersions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			sameMemoryFields(t, "MemoryVersions "+id, v.Version, v.Memory, vs[i].Memory)
		}
	}
	if _, err := s.MemoriesAsOf(ctx, asOf); err != nil {
		t.Fatal(err)
	}

	// The triggers: changing any field, or deleting, keeps the state.
	live, _, err := s.FindMemories(ctx, recall.MemoryFilter{})
	if err != nil || len(live) == 0 {
		t.Fatalf("%d live memories, %v", len(live), err)
	}
	for i, m := range live {
		switch i % 3 {
		case 0:
			_, err = db.write.Exec(`UPDATE memories SET tier = 'archive' WHERE id = ?`, m.ID)
		case 1:
			_, err = s.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Title: new("retitled")})
		default:
			err = s.DeleteMemory(ctx, m.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	after := readVersions(t, db.read, versionSnapshotSQL)
	for id, vs := range before {
		sameVersions(t, "after changes", versionView{id: after[id][:len(vs)]}, versionView{id: vs})
	}
	storeSound(t, db)
}

// TestVersions_SharedEveryField: a shared version reads every field of
// the memory, each from its own column (the view passes them to
// recall_memory_snapshot in scanMemory's order).
func TestVersions_SharedEveryField(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	at := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	at2, at3 := at.Add(time.Hour), at.Add(2*time.Hour)
	m := &recall.Memory{ID: "tr00000000f1", Key: "every", Collection: "fields", Type: "note", Title: "All of them", Content: "every field set",
		Tags: []string{"a", "b"}, Category: "cat", Context: "ctx", Related: []string{"tr00000000f2"}, Project: "proj", Priority: "high",
		CreatedBy: "tester", Confidence: 0.25, Tier: recall.TierRegister, Pinned: true, Status: recall.StatusActive,
		Anchors: []recall.Anchor{{Path: "a.md", Hash: "ff"}}, Metadata: json.RawMessage(`{"k":"v"}`),
		CreatedAt: at, ReviewedAt: &at2, OccurredAt: at3, SnoozedUntil: &at3}
	if _, err := s.ImportMemories(ctx, []*recall.Memory{m}); err != nil {
		t.Fatal(err)
	}
	if got := sharedSnapshots(t, db.read); got != 1 {
		t.Fatalf("%d shared versions, want 1", got)
	}
	live, err := s.FindMemory(ctx, m.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := s.MemoryVersions(ctx, m.ID)
	if err != nil || len(vs) != 1 {
		t.Fatalf("%d versions, %v", len(vs), err)
	}
	sameMemoryFields(t, "shared version", 1, vs[0].Memory, live)
	for f, v := 0, reflect.ValueOf(*live); f < v.NumField(); f++ {
		if v.Field(f).IsZero() {
			t.Errorf("field %s is not set: the test should set every field", v.Type().Field(f).Name)
		}
	}
}

// storeSound checks that doctor finds no orphans of any kind and the
// indexes agree with the tables.
func storeSound(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	orphans, err := db.Orphans(ctx)
	if err != nil || slices.ContainsFunc(slices.Collect(maps.Values(orphans)), func(n int) bool { return n != 0 }) {
		t.Fatalf("orphans %v, %v", orphans, err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

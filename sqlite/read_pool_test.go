package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// Readers put back into the pool stay open: a closed reader takes its
// page cache and prepared statements with it, and concurrent searches
// closed and reopened them all the time when the pool kept only two.
func TestReadPool_ReadersStayOpenWhenIdle(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	n := db.read.Stats().MaxOpenConnections
	conns := make([]*sql.Conn, n)
	for i := range conns {
		c, err := db.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns[i] = c
	}
	for _, c := range conns {
		c.Close()
	}
	if st := db.read.Stats(); st.MaxIdleClosed != 0 || st.Idle != n {
		t.Errorf("after %d readers were used at once: %d closed as idle, %d kept; want 0 closed, %d kept", n, st.MaxIdleClosed, st.Idle, n)
	}
}

// Loading memories by id, as the ranker does for its vector candidates on
// every search, uses one statement prepared once whatever the number of
// ids, and counts nothing beyond the page.
func TestFindMemories_ByIDsPreparedOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	s := NewMemoryService(db)
	var ids []string
	for i := range 5 {
		res, err := s.PutMemory(ctx, &recall.Memory{Content: "note " + string(rune('a'+i))})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
	}
	kept := func() int { return keptStmts(db) }
	before := kept()
	for n := 1; n <= len(ids); n++ {
		got, total, err := s.FindMemories(ctx, recall.MemoryFilter{IDs: ids[:n], Limit: n})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n || total != n {
			t.Fatalf("%d ids: got %d memories, total %d", n, len(got), total)
		}
	}
	if added := kept() - before; added != 1 {
		t.Errorf("loading 1 to %d ids kept %d statements, want 1 (one text for any number of ids, no count)", len(ids), added)
	}
}

// The search's observation lookup (first page, fixed limit) also runs one
// statement prepared once and counts nothing beyond a page that holds
// every match; later pages still count.
func TestFindObservations_FirstPagePreparedOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	s := NewObservationService(db)
	recordCommands(t, db)
	kept := func() int { return keptStmts(db) }
	before := kept()
	for range 3 {
		got, total, err := s.FindObservations(ctx, recall.ObservationFilter{Desc: true, Limit: 5})
		if err != nil || len(got) != 3 || total != 3 {
			t.Fatalf("got %d, total %d, %v; want 3 and 3", len(got), total, err)
		}
	}
	if added := kept() - before; added != 1 {
		t.Errorf("three searches kept %d statements, want 1", added)
	}
	if got, total, err := s.FindObservations(ctx, recall.ObservationFilter{Limit: 1, Offset: 1}); err != nil || len(got) != 1 || total != 3 {
		t.Fatalf("second page: got %d, total %d, %v; want 1 and 3", len(got), total, err)
	}
}

// recordCommands records three commands a minute apart in db.
func recordCommands(t *testing.T, db *DB) []*recall.Observation {
	t.Helper()
	at := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)
	var obs []*recall.Observation
	for i := range 3 {
		obs = append(obs, &recall.Observation{Type: recall.ObsCommand, Session: "s", Content: "make build", At: at.Add(time.Duration(i) * time.Minute)})
	}
	if err := NewObservationService(db).RecordObservations(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	return obs
}

// openDB opens a new store's database for the test.
func openDB(t *testing.T) *DB {
	t.Helper()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// keptStmts is how many statements the reader pool keeps prepared.
func keptStmts(db *DB) int {
	db.rstmts.mu.Lock()
	defer db.rstmts.mu.Unlock()
	return len(db.rstmts.m)
}

// The statuses of the partial indexes' conditions are written into the
// observation query, not bound: with a bound status SQLite compares its
// value with each partial index's condition when it plans, and so plans
// the statement again at every run. Other statuses stay bound, and every
// status still finds its observations.
func TestFindObservations_PartialIndexStatusWritten(t *testing.T) {
	for _, status := range []string{recall.StatusActive, recall.StatusCompacted} {
		where, args := whereObservations(recall.ObservationFilter{Status: &status})
		if len(args) != 0 || !strings.Contains(where, "o.status = '"+status+"'") {
			t.Errorf("status %s: %q %v, want the status written, nothing bound", status, where, args)
		}
	}
	odd := "it's"
	if where, args := whereObservations(recall.ObservationFilter{Status: &odd}); len(args) != 1 || strings.Contains(where, odd) {
		t.Errorf("status %q: %q %v, want it bound", odd, where, args)
	}
	db := openDB(t)
	ctx := context.Background()
	s, obs := NewObservationService(db), recordCommands(t, db)
	if _, err := db.write.ExecContext(ctx, `UPDATE observations SET status = CASE id WHEN ? THEN 'compacted' WHEN ? THEN 'it''s' ELSE status END`, obs[1].ID, obs[2].ID); err != nil {
		t.Fatal(err)
	}
	for status, want := range map[string]int64{recall.StatusActive: obs[0].ID, recall.StatusCompacted: obs[1].ID, odd: obs[2].ID} {
		got, _, err := s.FindObservations(ctx, recall.ObservationFilter{Status: &status, Limit: 5})
		if err != nil || len(got) != 1 || got[0].ID != want {
			t.Errorf("status %q: %v (%v), want observation %d alone", status, got, err, want)
		}
	}
}

// A session start reads the views' sessions twice, with and without
// evicted sessions to add: one statement, prepared once, serves every
// read.
func TestFindViewSessions_PreparedOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	s := NewSessionService(db)
	for _, id := range []string{"s1", "s2"} {
		if _, err := s.StartSession(ctx, &recall.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	before := keptStmts(db)
	for _, also := range [][]string{nil, {"s1"}, {"s1", "s2"}} {
		got, err := s.FindViewSessions(ctx, 50, also)
		if err != nil || len(got) != 2 {
			t.Fatalf("FindViewSessions(50, %v): %d sessions, %v; want 2", also, len(got), err)
		}
	}
	if added := keptStmts(db) - before; added != 1 {
		t.Errorf("three reads of the views' sessions kept %d statements, want 1", added)
	}
}

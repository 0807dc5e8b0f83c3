package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// BeforeWrite is called before each write transaction and its done after
// the commit (what the transaction wrote is visible to others by then);
// its error fails the write, which writes nothing. The writer leaves the
// automatic checkpoint (which ran inside a commit, so before done) and
// checkpoints every gatedCheckpointEvery transactions after done.
func TestUpdate_BeforeWriteAroundEachTransaction(t *testing.T) {
	ctx := context.Background()
	db, other, path := openWithOther(t)
	count := func() int {
		t.Helper()
		var n int
		if err := other.QueryRow(`SELECT COUNT(*) FROM observations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var calls, dones int
	var refuse error
	db.BeforeWrite = func(context.Context) (func(), error) {
		if refuse != nil {
			return nil, refuse
		}
		calls++
		before := count()
		return func() {
			dones++
			if got := count(); got != before+1 {
				t.Errorf("done ran before the commit: %d observations, want %d", got, before+1)
			}
		}, nil
	}
	obs := NewObservationService(db)
	for i := range gatedCheckpointEvery {
		if err := obs.RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s", Content: "make " + string(rune('a'+i))}}); err != nil {
			t.Fatal(err)
		}
	}
	if calls != gatedCheckpointEvery || dones != gatedCheckpointEvery {
		t.Fatalf("BeforeWrite called %d times, done %d, want %d each", calls, dones, gatedCheckpointEvery)
	}
	var auto int
	if err := db.write.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("the gated writer's wal_autocheckpoint is %d (%v), want 0", auto, err)
	}
	// The database file alone (the WAL ignored) holds every commit: the
	// last done was followed by a checkpoint.
	file, err := sql.Open("sqlite", fileURI(path)+"?immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var inFile int
	if err := file.QueryRow(`SELECT COUNT(*) FROM observations`).Scan(&inFile); err != nil || inFile != gatedCheckpointEvery {
		t.Fatalf("the database file holds %d observations (%v), want %d checkpointed", inFile, err, gatedCheckpointEvery)
	}

	refuse = errors.New("the gate says no")
	err = obs.RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s", Content: "refused"}})
	if !errors.Is(err, refuse) {
		t.Fatalf("a write the gate refused returned %v", err)
	}
	if got := count(); got != gatedCheckpointEvery {
		t.Fatalf("a refused write left %d observations, want %d", got, gatedCheckpointEvery)
	}
}

// openWithOther opens a store in a temporary directory and a second
// connection pool on its file, as another process would (both closed at
// the end of the test).
func openWithOther(t *testing.T) (db *DB, other *sql.DB, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "recall.db")
	db = NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	other, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return db, other, path
}

// A BeforeWrite that has nothing to let go of may return no done: the
// write goes ahead.
func TestUpdate_BeforeWriteWithoutDone(t *testing.T) {
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.BeforeWrite = func(context.Context) (func(), error) { return nil, nil }
	obs := NewObservationService(db)
	if err := obs.RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s", Content: "make nil-done"}}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.write.QueryRow(`SELECT COUNT(*) FROM observations`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d observations (%v), want 1", n, err)
	}
}

// While another process that does not go through the gate (a server, an
// import) holds SQLite's write lock, the gated writer does not hold its
// turn: it gives it back after each refused begin and takes it again, so
// the hooks waiting for its turn never wait for the other's transaction
// too. Once the lock is free it writes as usual.
func TestUpdate_GatedWriterDoesNotHoldItsTurnWhileAnotherWrites(t *testing.T) {
	ctx := context.Background()
	db, other, _ := openWithOther(t)
	other.SetMaxOpenConns(1)
	var calls, dones atomic.Int64
	db.BeforeWrite = func(context.Context) (func(), error) {
		calls.Add(1)
		return func() { dones.Add(1) }, nil
	}
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		wrote <- NewObservationService(db).RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s", Content: "make after"}})
	}()
	// The other writer holds the lock until the gated one has given its
	// turn back twice (or, on a writer that waits in its turn, for good).
	deadline := time.Now().Add(5 * time.Second)
	for dones.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	gaveBack := dones.Load()
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if gaveBack < 2 {
		t.Errorf("the gated writer gave its turn back %d times while another held the lock; want it to wait outside its turn", gaveBack)
	}
	if c, d := calls.Load(), dones.Load(); c != d {
		t.Errorf("BeforeWrite called %d times, done %d; want every turn ended", c, d)
	}
	var n int
	if err := other.QueryRow(`SELECT COUNT(*) FROM observations`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d observations (%v), want 1", n, err)
	}
	var timeout int
	if err := db.write.QueryRow(`PRAGMA busy_timeout`).Scan(&timeout); err != nil || timeout != int(busyTimeout.Milliseconds()) {
		t.Fatalf("the writer's busy_timeout is %d (%v), want %d restored", timeout, err, busyTimeout.Milliseconds())
	}
}

// A gated writer's sweep truncates the WAL in a turn of its own, after
// the sweep's transaction: the checkpoint takes SQLite's write lock, and
// hooks wait for the end of the turn rather than poll for that lock.
func TestSweep_GatedCheckpointInItsTurn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	if err := NewObservationService(db).RecordObservations(ctx, []*recall.Observation{
		{At: now.AddDate(0, 0, -100), Type: recall.ObsCommand, Session: "s", Content: "make old"},
		{At: now.AddDate(0, 0, -1), Type: recall.ObsCommand, Session: "s", Content: "make new"},
	}); err != nil {
		t.Fatal(err)
	}
	walSize := func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			return -1
		}
		return fi.Size()
	}
	type turn struct{ walBefore, walAfter int64 }
	var turns []*turn
	db.BeforeWrite = func(context.Context) (func(), error) {
		tr := &turn{walBefore: walSize()}
		turns = append(turns, tr)
		return func() { tr.walAfter = walSize() }, nil
	}
	rep, err := NewForgetService(db).Sweep(ctx, recall.RetentionPolicy{Enabled: true, Days: map[string]int{recall.ObsCommand: 30}}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Deleted != 1 || rep.Upkeep == nil || !rep.Upkeep.WALTruncated {
		t.Fatalf("sweep report %+v (upkeep %+v); want one deletion and the WAL truncated", rep, rep.Upkeep)
	}
	if len(turns) != 2 {
		t.Fatalf("%d turns; want 2: the sweep's transaction and its checkpoint", len(turns))
	}
	if last := turns[1]; last.walBefore <= 0 || last.walAfter != 0 {
		t.Errorf("the second turn began with a WAL of %d bytes and ended with %d; want the truncation inside it", last.walBefore, last.walAfter)
	}
}

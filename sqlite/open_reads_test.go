package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// A store opened for a hook (ForWrite and ReadsOnWriter) reads on the
// writer's connection: a session start's reads and writes in turn
// connect to the database once, where a reader connected beside the
// writer (parsing the schema again) for a few small reads.
func TestOpen_ReadsOnWriterConnectsOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	first := NewDB(path)
	if err := first.Open(); err != nil {
		t.Fatal(err)
	}
	first.Close()

	st, err := OpenStore(path, recall.StoreOptions{ForWrite: true, ReadsOnWriter: true})
	if err != nil {
		t.Fatal(err)
	}
	db := st.DB
	defer db.Close()
	sessions, obs := NewSessionService(db), NewObservationService(db)
	if _, err := sessions.FindViewSessions(ctx, 50, nil); err != nil {
		t.Fatal(err)
	}
	if err := obs.RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s1", Content: "go test ./..."}}); err != nil {
		t.Fatal(err)
	}
	if _, err := sessions.StartSession(ctx, &recall.Session{ID: "s1", StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	got, err := sessions.FindSessions(ctx, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("read %d sessions back (%v), want 1", len(got), err)
	}
	found, _, err := obs.FindObservations(ctx, recall.ObservationFilter{Limit: 10})
	if err != nil || len(found) != 1 {
		t.Fatalf("read %d observations back (%v), want 1", len(found), err)
	}
	open := db.write.Stats().OpenConnections
	if db.read != db.write {
		open += db.read.Stats().OpenConnections
	}
	if open != 1 {
		t.Fatalf("a hook's reads and writes connected %d times, want once", open)
	}
}

// A read while a write is under way, or inside another read, still runs:
// the writer's pool has a second connection for it (one alone would wait
// for itself), and the read sees what was committed, as a reader did.
func TestOpen_ReadsOnWriterReadDuringAWrite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	db.ForWrite, db.ReadsOnWriter = true, true
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "committed"}); err != nil {
		t.Fatal(err)
	}
	err := db.update(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET title = 'uncommitted'`); err != nil {
			return err
		}
		rows, err := db.read.QueryContext(ctx, `SELECT title FROM memories`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var title string
			if err := rows.Scan(&title); err != nil {
				return err
			}
			if title == "uncommitted" {
				t.Errorf("a read during the write saw its uncommitted change")
			}
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.read.QueryContext(ctx, `SELECT id FROM memories`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM memories WHERE title = 'uncommitted'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("a read inside another counted %d updated memories (%v), want 1", n, err)
	}
}

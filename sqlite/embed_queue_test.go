package sqlite

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/recall-mem/recall"
)

// queueRow is one row of embed_queue, named by its memory's id.
type queueRow struct {
	ID                string
	Version, QueuedAt int64
	Attempts          int
	LastError         string
	Seq               int64 // the memory's
}

// TestMigrate_EmbedQueueBySeq: migration 0022 keeps every queued memory,
// with its version, time, attempts and error, now keyed by the memory's
// seq; deleting a memory still takes it off the queue.
func TestMigrate_EmbedQueueBySeq(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0022")
	for _, id := range []string{"tr00000000c3", "tr00000000a1", "tr00000000b2"} {
		exec(`INSERT INTO memories (id, collection, title, content, created_at, updated_at, occurred_at) VALUES (?, 'default', ?, 'text', 1, 1, 1)`, id, "note "+id)
	}
	exec(`INSERT INTO memories_fts (rowid, title, content, tags) SELECT seq, title, content, tags FROM memories`)
	exec(`DELETE FROM embed_queue`)
	exec(`INSERT INTO embed_queue (memory_id, version, queued_at, attempts, last_error) VALUES ('tr00000000a1', 3, 50, 2, 'boom'), ('tr00000000c3', 1, 40, 0, '')`)
	db := migrated(t, old, path)
	want := []queueRow{{ID: "tr00000000c3", Version: 1, QueuedAt: 40, Seq: 1}, {ID: "tr00000000a1", Version: 3, QueuedAt: 50, Attempts: 2, LastError: "boom", Seq: 2}}
	if got := queueRows(t, db); !reflect.DeepEqual(got, want) {
		t.Fatalf("queue after migration:\n%+v\nwant\n%+v", got, want)
	}
	if err := NewMemoryService(db).DeleteMemory(ctx, "tr00000000c3"); err != nil {
		t.Fatal(err)
	}
	if got := queueRows(t, db); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("queue after deleting a queued memory: %+v, want %+v", got, want[1:])
	}
}

// TestEnqueue_KeyedBySeq: a write queues its memory under the row's seq,
// so an import's queue rows are appended in the order of its memories,
// and a new version requeues the same row as untried.
func TestEnqueue_KeyedBySeq(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t, nil)
	s := NewMemoryService(db)
	var ms []*recall.Memory
	for _, title := range []string{"one", "two", "three"} {
		ms = append(ms, &recall.Memory{Title: title, Content: "text of " + title})
	}
	if _, err := s.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	rows := queueRows(t, db)
	if len(rows) != 3 {
		t.Fatalf("%d queued, want 3", len(rows))
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		if err := db.read.QueryRow(`SELECT id FROM memories WHERE title = ?`, m.Title).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range rows {
		if r.ID != ids[i] || r.Version != 1 || (i > 0 && r.Seq <= rows[i-1].Seq) {
			t.Errorf("queue row %d: %+v, want memory %s, seqs rising", i, r, ids[i])
		}
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE embed_queue SET attempts = 4, last_error = 'down'`); err != nil {
		t.Fatal(err)
	}
	newText := "new text"
	if _, err := s.UpdateMemory(ctx, ids[1], recall.MemoryUpdate{Content: &newText}); err != nil {
		t.Fatal(err)
	}
	got := queueRows(t, db)[1]
	if got.ID != ids[1] || got.Version != 2 || got.Attempts != 0 || got.LastError != "" {
		t.Errorf("requeued after an update: %+v, want version 2 untried", got)
	}
}

func queueRows(t *testing.T, db *DB) []queueRow {
	t.Helper()
	rows, err := db.read.Query(`SELECT m.id, q.version, q.queued_at, q.attempts, q.last_error, m.seq
		FROM embed_queue q JOIN memories m ON m.seq = q.memory_seq ORDER BY q.rowid`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := collect(rows, func(row scanner) (r queueRow, err error) {
		err = row.Scan(&r.ID, &r.Version, &r.QueuedAt, &r.Attempts, &r.LastError, &r.Seq)
		return r, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// walSize returns the size of the store's WAL file, -1 when there is none.
func walSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if os.IsNotExist(err) {
		return -1
	}
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A store closed with LeaveCheckpoint keeps its WAL (nothing checkpointed
// it into the database); what was written is all there when the store is
// opened again, and that store's own close checkpoints as before.
func TestClose_LeaveCheckpointKeepsTheWAL(t *testing.T) {
	ctx := context.Background()
	for _, forWrite := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "recall.db")
		// A store closed the ordinary way checkpoints and deletes the WAL.
		first := NewDB(path)
		if err := first.Open(); err != nil {
			t.Fatal(err)
		}
		if _, err := NewMemoryService(first).PutMemory(ctx, &recall.Memory{Content: "written before"}); err != nil {
			t.Fatal(err)
		}
		first.Close()
		if n := walSize(t, path); n != -1 {
			t.Fatalf("an ordinary close left a WAL of %d bytes", n)
		}

		db := NewDB(path)
		db.ForWrite = forWrite
		db.LeaveCheckpoint = true
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, c := range []string{"a hook's write", "and another one"} {
			m, err := NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: c})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.Memory.ID)
		}
		// Readers open too: every connection must leave the checkpoint.
		if _, _, err := NewMemoryService(db).FindMemories(ctx, recall.MemoryFilter{Limit: 10}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if n := walSize(t, path); n <= 0 {
			t.Fatalf("forWrite %v: closed with LeaveCheckpoint, the WAL is %d bytes: it was checkpointed", forWrite, n)
		}

		again := NewDB(path)
		if err := again.Open(); err != nil {
			t.Fatal(err)
		}
		got, total, err := NewMemoryService(again).FindMemories(ctx, recall.MemoryFilter{Limit: 10})
		if err != nil || total != 3 {
			t.Fatalf("reopened: %d memories (%v), want 3", total, err)
		}
		seen := map[string]bool{}
		for _, m := range got {
			seen[m.ID] = true
		}
		for _, id := range ids {
			if !seen[id] {
				t.Fatalf("memory %s written before the close is missing after it", id)
			}
		}
		if err := again.QuickCheck(ctx); err != nil {
			t.Fatal(err)
		}
		again.Close()
		if n := walSize(t, path); n != -1 {
			t.Fatalf("the next ordinary close left a WAL of %d bytes", n)
		}
	}
}

// A process that leaves the checkpoint still checkpoints, as it closes,
// a WAL past leftWALBytes: the next process would rebuild the WAL's index
// from every frame in it.
func TestClose_LeaveCheckpointBoundsTheWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	db := NewDB(path)
	db.ForWrite, db.LeaveCheckpoint = true, true
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("a long observation about the build ", 3000) // ~100 KB
	for i := 0; walSize(t, path) <= leftWALBytes; i++ {
		if err := NewObservationService(db).RecordObservations(ctx, []*recall.Observation{{Type: recall.ObsCommand, Session: "s", Content: fmt.Sprint(i) + big}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := walSize(t, path); n != -1 {
		t.Fatalf("a WAL past the bound was left at close (%d bytes)", n)
	}
	again := NewDB(path)
	if err := again.Open(); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, total, err := NewObservationService(again).FindObservations(ctx, recall.ObservationFilter{Limit: 1}); err != nil || total == 0 {
		t.Fatalf("after the checkpoint: %d observations (%v)", total, err)
	}
}

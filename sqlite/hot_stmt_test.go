package sqlite

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
)

// Opening the store prepares no write statement: a search or a hook,
// which write no memory, never pays for compiling the FTS triggers. The
// statements a memory write runs are kept from the write after the first
// on, and writes go through either way.
func TestHotStatements_PreparedWhenAWriteNeedsThem(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	if n := db.hot.prepared(); n != 0 {
		t.Fatalf("opening prepared %d write statements, want none", n)
	}
	s := NewMemoryService(db)
	if _, _, err := s.FindMemories(ctx, recall.MemoryFilter{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if n := db.hot.prepared(); n != 0 {
		t.Fatalf("a read prepared %d write statements", n)
	}
	var ids []string
	for i := range 3 {
		res, err := s.PutMemory(ctx, &recall.Memory{Content: "note " + string(rune('a'+i))})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
		if i == 0 && db.hot.prepared() != 0 {
			t.Fatal("the first write's statements were kept before the next write")
		}
	}
	if n := db.hot.prepared(); n == 0 || n > len(hotStatements) {
		t.Fatalf("after three writes %d statements are kept, want 1..%d", n, len(hotStatements))
	}
	got, _, err := s.FindMemories(ctx, recall.MemoryFilter{IDs: ids, Limit: 10})
	if err != nil || len(got) != 3 {
		t.Fatalf("found %d of 3 memories written (%v)", len(got), err)
	}
	changed := "changed"
	if m, err := s.UpdateMemory(ctx, ids[0], recall.MemoryUpdate{Content: &changed}); err != nil || m.Content != changed {
		t.Fatalf("update through a kept statement: %v", err)
	}
}

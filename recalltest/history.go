package recalltest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// testHistoryKept: a memory written again under the id of a deleted one
// (an import keeping ids, a put naming it) continues that memory's
// history after its last version; no earlier version row is replaced.
func testHistoryKept(t *testing.T, open func(t *testing.T) recall.MemoryService) {
	ctx := context.Background()
	deleted := func(t *testing.T, s recall.MemoryService) string {
		t.Helper()
		m := mustPut(t, s, &recall.Memory{Content: "the first memory"})
		if err := s.DeleteMemory(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	const first = "1 put the first memory; 2 delete the first memory"
	t.Run("Import", func(t *testing.T) {
		s := open(t)
		id := deleted(t, s)
		res, err := s.ImportMemories(ctx, []*recall.Memory{
			{ID: id, Content: "imported again"},
			{ID: id, Content: "imported twice"},
		})
		if err != nil || res.Added != 1 || res.Updated != 1 {
			t.Fatalf("import: %+v, %v", res, err)
		}
		if _, err := s.UpdateMemory(ctx, id, recall.MemoryUpdate{Content: ptr("updated")}); err != nil {
			t.Fatal(err)
		}
		want := first + "; 3 import imported again; 4 import imported twice; 5 update updated"
		if h := History(t, s, id); h != want {
			t.Fatalf("history: %s; want %s", h, want)
		}
		if m, err := s.FindMemory(ctx, id, ""); err != nil || m.Version != 5 {
			t.Fatalf("memory %+v, %v; want version 5", m, err)
		}
	})
	t.Run("ImportLaterVersion", func(t *testing.T) {
		s := open(t)
		id := deleted(t, s)
		if _, err := s.ImportMemories(ctx, []*recall.Memory{{ID: id, Content: "at seven", Version: 7}}); err != nil {
			t.Fatal(err)
		}
		if h := History(t, s, id); h != first+"; 7 import at seven" {
			t.Fatalf("history: %s", h)
		}
	})
	// A version asked for that is free but not after the history's last
	// (a gap the kept later versions left, or below the first kept one)
	// still goes after it: the history never ends in a deletion while the
	// memory lives.
	t.Run("ImportIntoAGap", func(t *testing.T) {
		s := open(t)
		id := deleted(t, s)
		if _, err := s.ImportMemories(ctx, []*recall.Memory{{ID: id, Content: "at seven", Version: 7}}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteMemory(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportMemories(ctx, []*recall.Memory{{ID: id, Content: "an older backup", Version: 5}}); err != nil {
			t.Fatal(err)
		}
		want := first + "; 7 import at seven; 8 delete at seven; 9 import an older backup"
		if h := History(t, s, id); h != want {
			t.Fatalf("history: %s; want %s", h, want)
		}
		if m, err := s.FindMemory(ctx, id, ""); err != nil || m.Version != 9 {
			t.Fatalf("memory %+v, %v; want version 9", m, err)
		}
	})
	t.Run("PutBelowTheFirstKept", func(t *testing.T) {
		s := open(t)
		id := recall.NewID()
		if _, err := s.ImportMemories(ctx, []*recall.Memory{{ID: id, Content: "at seven", Version: 7}}); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteMemory(ctx, id); err != nil {
			t.Fatal(err)
		}
		res, err := s.PutMemory(ctx, &recall.Memory{ID: id, Content: "put again"})
		if err != nil || !res.Created || res.Memory.Version != 9 {
			t.Fatalf("put: %+v, %v; want version 9", res, err)
		}
		if h := History(t, s, id); h != "7 import at seven; 8 delete at seven; 9 put put again" {
			t.Fatalf("history: %s", h)
		}
	})
	t.Run("Put", func(t *testing.T) {
		s := open(t)
		id := deleted(t, s)
		res, err := s.PutMemory(ctx, &recall.Memory{ID: id, Content: "put again"})
		if err != nil || !res.Created || res.Memory.Version != 3 {
			t.Fatalf("put: %+v, %v; want version 3", res, err)
		}
		if err := s.DeleteMemory(ctx, id); err != nil {
			t.Fatal(err)
		}
		if m, err := s.RestoreMemory(ctx, id, 1); err != nil || m.Version != 5 {
			t.Fatalf("restore: %+v, %v; want version 5", m, err)
		}
		want := first + "; 3 put put again; 4 delete put again; 5 restore the first memory"
		if h := History(t, s, id); h != want {
			t.Fatalf("history: %s; want %s", h, want)
		}
	})
}

// History is a memory's history as "version op content", oldest first,
// joined by "; ".
func History(t *testing.T, s recall.MemoryService, id string) string {
	t.Helper()
	vs, err := s.MemoryVersions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%d %s %s", v.Version, v.Op, v.Memory.Content))
	}
	return strings.Join(out, "; ")
}

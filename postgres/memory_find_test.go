package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/recall-mem/recall"
)

// TestFindMemories_UnpagedIsOneStatement: loading memories by id without
// a page, as the searcher loads its candidates on every hybrid search,
// is one statement, its rows being the total; a page still counts every
// match.
func TestFindMemories_UnpagedIsOneStatement(t *testing.T) {
	ctx := context.Background()
	db, st := traced(t)
	s := NewMemoryService(db)
	ms := newMemories(0, 5)
	for i, m := range ms {
		m.ID = fmt.Sprintf("tr%010x", i+1)
	}
	if _, err := s.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	ids := []string{ms[0].ID, ms[2].ID, ms[4].ID}
	st.take()
	ms, total, err := s.FindMemories(ctx, recall.MemoryFilter{IDs: append(ids, "no-such-id")})
	if err != nil || len(ms) != 3 || total != 3 {
		t.Fatalf("FindMemories by 3 ids and a missing one: %d memories, total %d, %v; want 3, 3", len(ms), total, err)
	}
	if got := st.take(); len(got) != 1 {
		t.Fatalf("FindMemories by id sent %d statements: want 1\n%q", len(got), got)
	}
	for _, f := range []recall.MemoryFilter{{Limit: 2}, {Offset: 1}, {IDs: ids, Limit: 1}} {
		ms, total, err := s.FindMemories(ctx, f)
		want := 5
		if f.IDs != nil {
			want = 3
		}
		rows := want - f.Offset
		if f.Limit > 0 {
			rows = min(rows, f.Limit)
		}
		if err != nil || total != want || len(ms) != rows {
			t.Fatalf("FindMemories(%+v): %d memories, total %d, %v; want total %d", f, len(ms), total, err, want)
		}
	}
}

package sqlite_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// TestVectorService_InlineImport: with a local embedder a batch stores its
// vectors in its own transaction, nothing is queued, and a memory inserted
// then rewritten in the same batch is found by its last text only, by
// vector and by full text (the store's FTS5 check runs on cleanup).
func TestVectorService_InlineImport(t *testing.T) {
	ctx := context.Background()
	e := newWordEmbedder("local")
	mem, vs := openInline(t, e, paragraphChunker{})
	var batch []*recall.Memory
	for i := 0; i < 40; i++ {
		batch = append(batch, &recall.Memory{ID: fmt.Sprintf("tr%010x", i+1), Content: fmt.Sprintf("note %d about pebble%d\n\nsecond paragraph", i, i)})
	}
	batch = append(batch, &recall.Memory{ID: "tr0000000001", Content: "rewritten about marigold"})
	res, err := mem.ImportMemories(ctx, batch)
	if err != nil || res.Added != 40 || res.Updated != 1 {
		t.Fatalf("import = %+v, %v", res, err)
	}
	st, err := vs.Stats(ctx)
	if err != nil || st.Queued != 0 || st.Embedded != 40 {
		t.Fatalf("stats = %+v, %v", st, err)
	}
	if got := topID(t, vs, "marigold"); got != "tr0000000001" {
		t.Fatalf("vector top for the new text = %q", got)
	}
	for q, want := range map[string]int{"marigold": 1, "pebble0": 0, "pebble7": 1} {
		hits, err := mem.Search(ctx, recall.SearchQuery{Text: q})
		if err != nil || len(hits) != want {
			t.Fatalf("search %q: %d hits, want %d (%v)", q, len(hits), want, err)
		}
	}
	// A later write of the same text keeps its vectors; new text replaces them.
	m, err := mem.UpdateMemory(ctx, "tr0000000002", recall.MemoryUpdate{Tier: ptr(recall.TierWorking)})
	if err != nil || m.Version != 2 {
		t.Fatalf("update = %+v, %v", m, err)
	}
	calls := e.calls.Load()
	if _, err := mem.UpdateMemory(ctx, "tr0000000002", recall.MemoryUpdate{Pinned: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if e.calls.Load() != calls {
		t.Fatal("unchanged text was embedded again")
	}
	st, _ = vs.Stats(ctx)
	if st.Queued != 0 || st.Embedded != 40 {
		t.Fatalf("stats after updates = %+v", st)
	}
}

// TestVectorService_InlineFallsBackToQueue: a local embedder that fails
// never fails the write; the memories wait in the queue.
func TestVectorService_InlineFallsBackToQueue(t *testing.T) {
	ctx := context.Background()
	e := newWordEmbedder("local")
	mem, vs := openInline(t, e, nil)
	e.down.Store(true)
	if _, err := mem.ImportMemories(ctx, []*recall.Memory{{Content: "red apple"}, {Content: "green pear"}}); err != nil {
		t.Fatal(err)
	}
	m := put(t, mem, "", "blue plum")
	if n := e.calls.Load(); n != 3 {
		t.Fatalf("the failing embedder was called %d times for 3 memories, want once each", n)
	}
	st, _ := vs.Stats(ctx)
	if st.Queued != 3 || st.Embedded != 0 {
		t.Fatalf("stats while failing = %+v", st)
	}
	e.down.Store(false)
	if err := vs.DrainQueue(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if got := topID(t, vs, "blue plum"); got != m.ID {
		t.Fatalf("top = %q, want %s", got, m.ID)
	}
}

// TestVectorService_InlineOtherModel: when the store holds vectors of
// another model, inline writes queue instead of mixing models.
func TestVectorService_InlineOtherModel(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	mem := sqlite.NewMemoryService(db)
	first := sqlite.NewVectorService(db, newWordEmbedder("model-a"), nil)
	first.Inline = true
	put(t, mem, "", "red apple")
	second := sqlite.NewVectorService(db, newWordEmbedder("model-b"), nil)
	second.Inline = true
	if _, err := mem.ImportMemories(ctx, []*recall.Memory{{Content: "green pear"}, {Content: "blue plum"}}); err != nil {
		t.Fatal(err)
	}
	st, _ := second.Stats(ctx)
	if st.Queued != 2 {
		t.Fatalf("stats = %+v", st)
	}
}

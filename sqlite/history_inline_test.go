package sqlite_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/recalltest"
)

// TestImportMemories_InlineGivenIDWithHistory: an import that embeds in
// its transaction and brings back a deleted memory, in the middle of a
// batch that fills the versions' multi-row statement: the memory's first
// row is taken back with its vectors and written again as version 3, so
// every memory's current version has vectors and no passage is left of
// the row taken back (the store's FTS5 check runs on cleanup).
func TestImportMemories_InlineGivenIDWithHistory(t *testing.T) {
	ctx := context.Background()
	mem, vs := openInline(t, newWordEmbedder("local"), paragraphChunker{})
	gone := put(t, mem, "", "the first memory").ID
	if err := mem.DeleteMemory(ctx, gone); err != nil {
		t.Fatal(err)
	}
	const n = 70
	var batch []*recall.Memory
	for i := range n {
		batch = append(batch, &recall.Memory{Content: fmt.Sprintf("note %d about pebble%d\n\nsecond paragraph", i, i)})
	}
	batch[30] = &recall.Memory{ID: gone, Content: "back about marigold"}
	if res, err := mem.ImportMemories(ctx, batch); err != nil || res.Added != n {
		t.Fatalf("import = %+v, %v", res, err)
	}
	want := "1 put the first memory; 2 delete the first memory; 3 import back about marigold"
	if h := recalltest.History(t, mem, gone); h != want {
		t.Fatalf("history: %s; want %s", h, want)
	}
	st, err := vs.Stats(ctx)
	if err != nil || st.Memories != n || st.Embedded != n || st.Queued != 0 || st.Vectors != 2*(n-1)+1 {
		t.Fatalf("stats = %+v, %v; want %d memories embedded, %d passages", st, err, n, 2*(n-1)+1)
	}
	if got := topID(t, vs, "marigold"); got != gone {
		t.Fatalf("vector top for marigold = %q, want %s", got, gone)
	}
}

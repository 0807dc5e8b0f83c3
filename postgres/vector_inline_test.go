package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/recalltest"
)

// TestInlineEmbedding_NoReadBack: with an inline embedder, the memories a
// put, an update or an import writes are embedded from what was written,
// without a query for the memories lacking vectors, and all of them end
// up with a current vector.
func TestInlineEmbedding_NoReadBack(t *testing.T) {
	ctx := context.Background()
	db, st := traced(t)
	vs := NewVectorService(db, &recalltest.WordEmbedder{}, nil)
	vs.Inline, vs.BatchSize = true, 16
	db.onWrite, db.onWriteMemories = vs.wrote, vs.wroteMemories
	s := NewMemoryService(db)
	res, err := s.PutMemory(ctx, &recall.Memory{Title: "deploys", Content: "go through staging first"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateMemory(ctx, res.Memory.ID, recall.MemoryUpdate{Content: ptr("go through the canary first")}); err != nil {
		t.Fatal(err)
	}
	ms := newMemories(0, 100)
	ms = append(ms, &recall.Memory{ID: res.Memory.ID, Title: "deploys", Content: "go through both"})
	if _, err := s.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for _, q := range st.take() {
		if strings.Contains(q, "NOT EXISTS (SELECT 1 FROM memory_vectors") {
			t.Fatalf("statement %q: want no read-back of the memories written", q)
		}
	}
	stats, err := vs.VectorStats(ctx)
	if err != nil || stats.Memories != 101 || stats.Embedded != 101 || stats.Queued != 0 || stats.Vectors != 101 {
		t.Fatalf("VectorStats = %+v, %v: want all 101 memories embedded once", stats, err)
	}
	hits, err := vs.SearchVectors(ctx, "deploys go through both", 1)
	if err != nil || len(hits) != 1 || hits[0].MemoryID != res.Memory.ID || hits[0].Score < 0.99 {
		t.Fatalf("SearchVectors = %+v, %v: want the imported text of %s", hits, err, res.Memory.ID)
	}
}

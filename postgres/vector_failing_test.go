package postgres_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/recalltest"
)

// TestVectorStats_FailingAfterFailedDrain: a drain the provider fails
// counts the memories it tried as failing, as SQLite's queue does, and a
// drain that succeeds clears them.
func TestVectorStats_FailingAfterFailedDrain(t *testing.T) {
	ctx := context.Background()
	e := &recalltest.WordEmbedder{}
	st, err := postgres.OpenStore(ctx, pgtest.NewDatabase(t), recall.StoreOptions{Embedding: &recall.EmbeddingOptions{Embedder: e}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, c := range []string{"one fish", "two fish", "red fish"} {
		if _, err := st.Memories().PutMemory(ctx, &recall.Memory{Content: c}); err != nil {
			t.Fatal(err)
		}
	}
	v := st.Vectors()
	e.Down.Store(true)
	if err := v.DrainQueue(ctx, 0); recall.ErrorCode(err) != recall.EUNAVAILABLE {
		t.Fatalf("DrainQueue with the provider down: %v", err)
	}
	if s, err := v.VectorStats(ctx); err != nil || s.Queued != 3 || s.Failing != 3 || s.LastError == "" {
		t.Fatalf("VectorStats after a failed drain = %+v, %v: want 3 queued, 3 failing", s, err)
	}
	e.Down.Store(false)
	if err := v.DrainQueue(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if s, err := v.VectorStats(ctx); err != nil || s.Queued != 0 || s.Failing != 0 || s.LastError != "" {
		t.Fatalf("VectorStats after a drain = %+v, %v: want none queued or failing", s, err)
	}
}

package postgres_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
)

// TestCopier_FinishLoadBuildsTheVectorIndex checks that loading vectors
// leaves the HNSW index for FinishLoad: updated vector by vector, it made
// a copy four times slower than building it once at the end.
func TestCopier_FinishLoadBuildsTheVectorIndex(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	st := openStoreAt(t, dbURL, recall.StoreOptions{})
	m, err := st.Memories().PutMemory(ctx, &recall.Memory{Content: "alpha beta"})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Copier().LoadRows(ctx, &recall.CopyBatch{Vectors: []*recall.VectorRow{
		{MemoryID: m.Memory.ID, End: 10, Model: "m", Dim: 3, Vec: []float32{0.6, 0.8, 0}}}})
	if err != nil {
		t.Fatal(err)
	}
	indexed := func() bool {
		var ok bool
		if err := connect(t, dbURL).QueryRow(ctx, `SELECT to_regclass('memory_vectors_hnsw_3') IS NOT NULL`).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if indexed() {
		t.Fatal("LoadRows built the vector index")
	}
	if err := st.Copier().FinishLoad(ctx); err != nil {
		t.Fatal(err)
	}
	if !indexed() {
		t.Fatal("FinishLoad did not build the vector index")
	}
	if n, err := st.Copier().CountRows(ctx, recall.CopyVectors); err != nil || n != 1 {
		t.Fatalf("CountRows(vectors) = %d, %v", n, err)
	}
}

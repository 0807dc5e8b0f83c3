package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/recalltest"
	"github.com/recall-mem/recall/sqlite"
)

// TestMemoryService_Contract runs the shared MemoryService contract against
// the SQLite store; the HTTP client runs the same suite.
func TestMemoryService_Contract(t *testing.T) {
	recalltest.TestMemoryService(t, func(t *testing.T) recall.MemoryService {
		return sqlite.NewMemoryService(MustOpenDB(t))
	})
}

// TestObservationService_Contract runs the shared ObservationService
// contract against the SQLite store.
func TestObservationService_Contract(t *testing.T) {
	recalltest.TestObservationService(t, func(t *testing.T) recall.ObservationService {
		return sqlite.NewObservationService(MustOpenDB(t))
	})
}

// openStore opens a store in a temporary directory and checks its
// integrity when the test ends.
func openStore(t *testing.T, o recall.StoreOptions) recall.Store {
	st, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "recall.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Upkeep().Check(context.Background()); err != nil {
			t.Errorf("integrity: %v", err)
		}
		st.Close()
	})
	return st
}

// TestStore_Contract runs the store seam's contract against SQLite: every
// part the engine uses.
func TestStore_Contract(t *testing.T) {
	recalltest.TestStore(t, func(t *testing.T) recall.Store { return openStore(t, recall.StoreOptions{}) })
}

// TestVectorStore_Contract runs the vectors' contract against SQLite with
// an inline embedder.
func TestVectorStore_Contract(t *testing.T) {
	recalltest.TestVectorStore(t, func(t *testing.T) recall.Store {
		return openStore(t, recall.StoreOptions{
			Embedding: &recall.EmbeddingOptions{Embedder: newWordEmbedder("words"), Chunker: chunk.Splitter{}, Inline: true},
		})
	})
}

// TestVectors_Contract runs the full vector contract against SQLite,
// inline and through the queue.
func TestVectors_Contract(t *testing.T) {
	recalltest.TestVectors(t, openStore)
}

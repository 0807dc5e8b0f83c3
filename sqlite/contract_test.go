package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
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

// TestStore_Contract runs the store seam's contract against SQLite: every
// part the engine uses.
func TestStore_Contract(t *testing.T) {
	recalltest.TestStore(t, func(t *testing.T) recall.Store {
		st, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "recall.db"), recall.StoreOptions{})
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
	})
}

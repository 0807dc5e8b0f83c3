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

// openStore opens a store in a temporary directory and, when the test
// ends, checks its integrity and that no row points at something missing.
func openStore(t *testing.T, o recall.StoreOptions) recall.Store {
	st, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "recall.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if err := st.Upkeep().Check(ctx); err != nil {
			t.Errorf("integrity: %v", err)
		}
		orphans, err := st.Upkeep().Orphans(ctx)
		if err != nil {
			t.Errorf("orphans: %v", err)
		}
		for kind, n := range orphans {
			if n != 0 && kind != recall.OrphanObservations {
				t.Errorf("%d %s", n, kind)
			}
		}
		st.Close()
	})
	return st
}

// TestStore_Contract runs the store seam's whole contract against SQLite:
// every part the engine uses, vectors included.
func TestStore_Contract(t *testing.T) {
	recalltest.TestStore(t, openStore)
}

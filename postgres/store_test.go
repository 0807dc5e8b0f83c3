package postgres_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/recalltest"
)

// openStore opens a store over a fresh database of the test cluster and
// checks it when the test ends.
func openStore(t *testing.T, o recall.StoreOptions) *postgres.Store {
	t.Helper()
	return openStoreAt(t, pgtest.NewDatabase(t), o)
}

// openStoreAt opens the store at dbURL and checks it when the test ends.
func openStoreAt(t *testing.T, dbURL string, o recall.StoreOptions) *postgres.Store {
	t.Helper()
	st, err := postgres.OpenStore(context.Background(), dbURL, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Upkeep().Check(context.Background()); err != nil {
			t.Errorf("check: %v", err)
		}
		st.Close()
	})
	return st
}

// TestStore_Contract runs the store seam's whole contract against
// PostgreSQL: every part the engine uses, vectors included, with whatever
// subtests recalltest holds.
func TestStore_Contract(t *testing.T) {
	recalltest.TestStore(t, func(t *testing.T, o recall.StoreOptions) recall.Store { return openStore(t, o) })
}

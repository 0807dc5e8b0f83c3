package engine_test

import (
	"context"
	"testing"

	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/sqlite"
)

// OpenForWrite tells the backend the caller writes (the store sets its
// writer up at once); Open, for reads, does not.
func TestEngine_OpenTellsTheBackendWhetherItWrites(t *testing.T) {
	ctx := context.Background()
	w := openEngine(t) // OpenForWrite
	st, ok := w.Store.(*sqlite.Store)
	if !ok {
		t.Fatalf("store is %T", w.Store)
	}
	if !st.DB.ForWrite {
		t.Fatal("OpenForWrite opened the store as for reads")
	}
	r := engine.New(testParts())
	r.StoreFlag = w.Location.Dir
	if err := r.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if st := r.Store.(*sqlite.Store); st.DB.ForWrite {
		t.Fatal("Open opened the store as for writes")
	}
}

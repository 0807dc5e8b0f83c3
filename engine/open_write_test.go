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

// ReadsOnWriter reaches the store (a hook's reads on its writer's
// connection), and a gated writer (YieldToHooks: the upkeep) never
// shares its writer with its reads, whatever the flag says.
func TestEngine_OpenPassesReadsOnWriter(t *testing.T) {
	ctx := context.Background()
	dir := openEngine(t).Location.Dir
	for _, c := range []struct {
		reads, gated, want bool
	}{{true, false, true}, {false, false, false}, {true, true, false}} {
		e := engine.New(testParts())
		e.StoreFlag, e.ReadsOnWriter, e.YieldToHooks = dir, c.reads, c.gated
		if err := e.OpenForWrite(ctx); err != nil {
			t.Fatal(err)
		}
		st := e.Store.(*sqlite.Store)
		if got := st.DB.ReadsOnWriter; got != c.want {
			t.Errorf("ReadsOnWriter %v, YieldToHooks %v: the store reads on its writer %v, want %v", c.reads, c.gated, got, c.want)
		}
		e.Close()
	}
}

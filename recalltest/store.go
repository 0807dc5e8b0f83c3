package recalltest

import (
	"context"
	"testing"

	"github.com/recall-mem/recall"
)

// TestStore runs the whole contract of the store seam (recall.Store): one
// suite per part the engine uses, each subtest over a fresh, empty store
// that open returns, opened with o. o is the zero StoreOptions except in
// the vector suite, which sets Embedding. A second backend passes it
// before the engine may use it.
func TestStore(t *testing.T, open func(t *testing.T, o recall.StoreOptions) recall.Store) {
	plain := func(t *testing.T) recall.Store { return open(t, recall.StoreOptions{}) }
	t.Run("Memories", func(t *testing.T) {
		TestMemoryService(t, func(t *testing.T) recall.MemoryService { return plain(t).Memories() })
	})
	t.Run("Versions", func(t *testing.T) { TestVersions(t, plain) })
	t.Run("TextCandidates", func(t *testing.T) { TestTextCandidates(t, plain) })
	t.Run("Observations", func(t *testing.T) {
		TestObservationService(t, func(t *testing.T) recall.ObservationService { return plain(t).Observations() })
		t.Run("Pin", func(t *testing.T) { testPinObservation(t, plain) })
	})
	t.Run("Sessions", func(t *testing.T) { TestSessions(t, plain) })
	t.Run("Tiers", func(t *testing.T) { TestTiers(t, plain) })
	t.Run("Forgetting", func(t *testing.T) { TestForgetting(t, plain) })
	t.Run("Rollups", func(t *testing.T) { TestRollups(t, plain) })
	t.Run("Vectors", func(t *testing.T) { TestVectors(t, open) })
	t.Run("Upkeep", func(t *testing.T) { TestUpkeep(t, plain) })
	t.Run("Copier", func(t *testing.T) { TestCopier(t, open) })
}

// testPinObservation checks the landmark flag (ObservationPinner).
func testPinObservation(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	st := open(t)
	obs := record(t, st, &recall.Observation{At: day0, Type: recall.ObsCommand, Content: "make test"})
	pinned := func() bool {
		t.Helper()
		got, _, err := st.Observations().FindObservations(ctx, recall.ObservationFilter{ID: &obs[0].ID})
		if err != nil || len(got) != 1 {
			t.Fatalf("FindObservations = %v, %v", got, err)
		}
		return got[0].Pinned
	}
	if pinned() {
		t.Fatal("a new observation is pinned")
	}
	for _, want := range []bool{true, true, false} {
		if err := st.Observations().PinObservation(ctx, obs[0].ID, want); err != nil {
			t.Fatal(err)
		}
		if pinned() != want {
			t.Fatalf("Pinned = %v after PinObservation(%v)", !want, want)
		}
	}
	wantCode(t, st.Observations().PinObservation(ctx, obs[0].ID+100, true), recall.ENOTFOUND)
}

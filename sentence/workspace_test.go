package sentence

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
)

// Concurrent passes share the pool of workspaces and of widened rows,
// with queries of different lengths taking and growing them in turn:
// every vector must be the one the query gets alone. Run it with -race.
func TestForwardConcurrentMatchesAlone(t *testing.T) {
	e := Default()
	texts := make([]string, 24)
	for i := range texts {
		texts[i] = fmt.Sprintf("query %d about the release of build %d", i, i*7)
		for range i % 6 {
			texts[i] += " and the nightly billing export that moved to the new cluster"
		}
	}
	want := make([][]float32, len(texts))
	for i, s := range texts {
		v, err := e.Embed(context.Background(), []string{s})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v[0]
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				i := (g*5 + round*11) % len(texts)
				v, err := e.Embed(context.Background(), []string{texts[i]})
				if err != nil {
					errs <- err
					return
				}
				for j := range v[0] {
					if math.Float32bits(v[0][j]) != math.Float32bits(want[i][j]) {
						errs <- fmt.Errorf("%q embedded beside other queries: [%d] = %v, alone %v", texts[i], j, v[0][j], want[i][j])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A pass reuses its buffers: what it allocates is its result and the
// goroutines that split its larger layers, not tokens × width buffers.
func TestForwardAllocations(t *testing.T) {
	e := Default()
	ids, err := e.Tokens("how do we ship a release to production when the canary fails")
	if err != nil {
		t.Fatal(err)
	}
	e.model.Forward(ids) // sizes the pooled buffers
	allocs := testing.AllocsPerRun(20, func() { e.model.Forward(ids) })
	t.Logf("%d tokens: %.0f allocations a pass", len(ids), allocs)
	if allocs > 4 {
		t.Errorf("Forward of %d tokens allocates %.0f times, want at most 4", len(ids), allocs)
	}
}

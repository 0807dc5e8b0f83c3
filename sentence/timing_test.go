package sentence

import (
	"math"
	"sync"
	"testing"
)

// Passes of different lengths filling the signal at once (run it with
// -race) each get, for every position, sin and cos of that position's
// angles, computed as a pass alone would compute them.
func TestTimingConcurrentMatchesDirect(t *testing.T) {
	e := Default()
	if err := e.Load(); err != nil {
		t.Fatal(err)
	}
	ts := e.model.timescales
	half := len(ts)
	var s timing
	lengths := make([]int, 16)
	got := make([][]float32, len(lengths))
	var wg sync.WaitGroup
	for g := range lengths {
		lengths[g] = 1 + (g*37)%maxTokens
		wg.Go(func() { got[g] = s.rows(lengths[g], ts) })
	}
	wg.Wait()
	for g, n := range lengths {
		if len(got[g]) != n*2*half {
			t.Fatalf("%d positions: %d values", n, len(got[g]))
		}
		for p := range n {
			for i, scale := range ts {
				a := float64(float32(p) * scale)
				if got[g][p*2*half+i] != float32(math.Sin(a)) || got[g][p*2*half+half+i] != float32(math.Cos(a)) {
					t.Fatalf("position %d, timescale %d: not sin and cos of its angle", p, i)
				}
			}
		}
	}
	longest := 0
	for _, n := range lengths {
		longest = max(longest, n)
	}
	if got := s.ready.Load(); got != int64(longest) {
		t.Fatalf("%d positions filled, want the longest pass's %d", got, longest)
	}
}

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
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 1 + (g*37)%maxTokens
			sig := s.rows(n, ts)
			if len(sig) != n*2*half {
				errs <- "wrong length"
				return
			}
			for p := range n {
				for i, scale := range ts {
					a := float64(float32(p) * scale)
					if sig[p*2*half+i] != float32(math.Sin(a)) || sig[p*2*half+half+i] != float32(math.Cos(a)) {
						errs <- "a value differs from sin or cos of its angle"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	longest := 0
	for g := range 16 {
		longest = max(longest, 1+(g*37)%maxTokens)
	}
	if got := s.ready.Load(); got != int64(longest) {
		t.Fatalf("%d positions filled, want the longest pass's %d", got, longest)
	}
}

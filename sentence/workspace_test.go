package sentence

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
)

// Concurrent passes share the kept workspaces (widened rows included),
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

// A pass reuses its buffers, also after a garbage collection: what it
// allocates is its result, not tokens × width buffers.
func TestForwardAllocations(t *testing.T) {
	e := Default()
	ids, err := e.Tokens("how do we ship a release to production when the canary fails")
	if err != nil {
		t.Fatal(err)
	}
	e.model.Forward(ids) // sizes the kept buffers
	allocs := testing.AllocsPerRun(20, func() {
		runtime.GC() // twice: a sync.Pool keeps its items through one
		runtime.GC()
		e.model.Forward(ids)
	})
	t.Logf("%d tokens: %.0f allocations a pass", len(ids), allocs)
	if allocs > 4 {
		t.Errorf("Forward of %d tokens allocates %.0f times, want at most 4", len(ids), allocs)
	}
}

// Buffers given back are taken again, zeroed, and a block grows to the
// most a pass held at once, not to the sum of what it took.
func TestWorkspaceStack(t *testing.T) {
	w := &workspace{}
	a := w.take(10)
	m := w.mark()
	b := w.take(20)
	b[0] = 7
	w.release(m)
	c := w.take(5)
	if len(a) != 10 || len(b) != 20 || len(c) != 5 {
		t.Fatalf("lengths %d %d %d", len(a), len(b), len(c))
	}
	if w.need != 30 {
		t.Fatalf("peak %d, want 30", w.need)
	}
	w.done()
	if len(w.buf) != 30 {
		t.Fatalf("block of %d values after a pass that held 30 at most", len(w.buf))
	}
	w = &workspace{buf: w.buf}
	a = w.take(10)
	m = w.mark()
	b = w.take(20)
	b[0] = 7
	w.release(m)
	c = w.take(5)
	if &c[0] != &b[0] || c[0] != 0 {
		t.Fatalf("released room not reused zeroed: %v", c)
	}
	if &a[0] != &w.buf[0] {
		t.Fatal("first buffer not taken from the block")
	}
}

// A query's pass runs on one goroutine in every layer (splitting it costs
// CPU a busy server pays for), and a long text's splits its larger
// layers where there are cores to split over.
func TestQueryPassStaysOnOneCore(t *testing.T) {
	e := Default()
	if err := e.Load(); err != nil {
		t.Fatal(err)
	}
	for _, l := range e.model.linears() {
		if n := l.workers(40); n != 1 {
			t.Errorf("%d → %d layer: a 40-piece query runs on %d goroutines, want 1", l.in, l.out, n)
		}
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: nothing to split over")
	}
	split := 0
	for _, l := range e.model.linears() {
		if l.workers(maxTokens) > 1 {
			split++
		}
	}
	if split == 0 {
		t.Errorf("a text of %d pieces splits none of the layers", maxTokens)
	}
}

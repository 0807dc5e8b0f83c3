package engine

import (
	"context"
	"sync"

	"github.com/recall-mem/recall"
)

// searchGate admits searches a few at a time, in the order they arrive.
//
// A server under many concurrent searches otherwise runs them all at
// once: on two cores twenty searches share the processors, so each takes
// twenty times its own time and a dear one longer still, and the pooled
// SQLite readers go to waiting searches in random order (database/sql
// hands a freed connection to a random waiter). Admitted in arrival
// order, a few at a time, a search waits about as long as any other and
// then runs at nearly its own speed: the same throughput with a tail
// close to the mean (docs/performance.md, servegate).
//
// A search that waits leaves the queue when its context ends (a client
// that hung up), without taking a slot.
type searchGate struct {
	mu    sync.Mutex
	free  int             // slots not held
	queue []chan struct{} // waiters, oldest first; closed when admitted
	// givingUp, when set, runs in a waiter whose context has ended, before
	// it takes mu to leave the queue: a test hands the slot over there, so
	// the admission a waiter meets while giving up is not left to timing.
	givingUp func()
}

func newSearchGate(slots int) *searchGate { return &searchGate{free: slots} }

// enter waits for a slot, in arrival order, until ctx ends. A nil error
// means the caller holds a slot and must call leave.
func (g *searchGate) enter(ctx context.Context) error {
	g.mu.Lock()
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	if err := ctx.Err(); err != nil {
		g.mu.Unlock()
		return err
	}
	w := make(chan struct{})
	g.queue = append(g.queue, w)
	g.mu.Unlock()
	select {
	case <-w:
		return nil
	case <-ctx.Done():
	}
	if g.givingUp != nil {
		g.givingUp()
	}
	g.mu.Lock()
	select {
	case <-w:
		// Admitted while giving up: hand the slot to the next in line.
		g.mu.Unlock()
		g.leave()
	default:
		for i, q := range g.queue {
			if q == w {
				g.queue = append(g.queue[:i], g.queue[i+1:]...)
				break
			}
		}
		g.mu.Unlock()
	}
	return ctx.Err()
}

// leave gives a slot back: to the oldest waiter, or to the free ones.
func (g *searchGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.free++
		return
	}
	w := g.queue[0]
	g.queue[0] = nil
	g.queue = g.queue[1:]
	close(w)
}

// gateHeld marks a context whose search holds a slot already, so that a
// search made through the gate inside it takes no second slot. No search
// nests so today: a context pack searches once, and rollups are searched
// inside the one gated call. The mark is for the day one does (a searcher
// or a pack section that calls back into the engine's search): such a
// search would wait for a slot its own caller holds, and with every slot
// held so, none would ever be given back.
type gateHeld struct{}

// gatedSearcher is a Searcher whose searches pass the gate.
type gatedSearcher struct {
	gate *searchGate
	base recall.Searcher
}

// Search waits for a slot, unless ctx holds one already, then searches.
func (s gatedSearcher) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	if ctx.Value(gateHeld{}) != nil {
		return s.base.Search(ctx, q)
	}
	if err := s.gate.enter(ctx); err != nil {
		return nil, err
	}
	defer s.gate.leave()
	return s.base.Search(context.WithValue(ctx, gateHeld{}, true), q)
}

package engine

import "context"

// SearchSlotsOf is how many searches e admits at once: 0 when its
// searches pass no gate.
func SearchSlotsOf(e *Engine) int {
	g, ok := e.search.(gatedSearcher)
	if !ok {
		return 0
	}
	free, waiting := g.gate.state()
	return free + waiting // at rest, nothing waits
}

// HoldSearchSlot takes one of e's search slots, as a running search
// does, until release; e must gate its searches.
func HoldSearchSlot(e *Engine) (release func()) {
	g := e.search.(gatedSearcher).gate
	if err := g.enter(context.Background()); err != nil {
		panic(err)
	}
	return g.leave
}

// SearchesWaiting is how many searches wait for one of e's slots.
func SearchesWaiting(e *Engine) int {
	_, waiting := e.search.(gatedSearcher).gate.state()
	return waiting
}

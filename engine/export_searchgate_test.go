package engine

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

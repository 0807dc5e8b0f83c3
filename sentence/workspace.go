package sentence

import "sync"

// workspace hands out the float32 buffers of one forward pass from one
// block, which the next pass reuses: a pass needs some ten buffers of
// tokens × width, and allocating them anew for every query was most of
// what a query left to the garbage collector. Buffers are taken and
// given back as a stack (mark, release), so that a layer's temporaries
// share room with the next layer's. A pass that needs more than the
// block holds takes the rest from the heap, and the block is grown to
// its peak before it is kept for the next pass.
type workspace struct {
	buf  []float32
	top  int // values in use
	need int // the most in use at once during this pass
}

// idle holds the blocks of finished passes for the next ones; concurrent
// passes each take their own. Unlike a sync.Pool, which the garbage
// collector empties, it keeps them between collections: a pass that
// finds none allocates its buffers and then a block, twice what reusing
// saves.
var idle struct {
	mu sync.Mutex
	ws []*workspace
}

// Bounds on what idle keeps: a few blocks (passes run on every core, and
// a server's requests overlap), none larger than a pass of some fifty
// tokens needs (a query's length; longer texts are the background
// embedder's, which allocates).
const (
	keepWorkspaces = 8
	keepFloats     = 1 << 18
)

// getWorkspace returns an idle block, or a new empty one.
func getWorkspace() *workspace {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if n := len(idle.ws); n > 0 {
		w := idle.ws[n-1]
		idle.ws = idle.ws[:n-1]
		return w
	}
	return new(workspace)
}

// take returns n values, zeroed: several buffers are sums.
func (w *workspace) take(n int) []float32 {
	lo := w.top
	w.top += n
	w.need = max(w.need, w.top)
	if w.top > len(w.buf) {
		return make([]float32, n)
	}
	out := w.buf[lo:w.top:w.top]
	clear(out)
	return out
}

// mark is where the buffers taken from now on start.
func (w *workspace) mark() int { return w.top }

// release gives back every buffer taken since m: none may be used after.
func (w *workspace) release(m int) { w.top = m }

// done makes the block fit the pass it served and keeps it for the next,
// within idle's bounds. Nothing taken from it may be used afterwards.
func (w *workspace) done() {
	if w.need > keepFloats {
		return
	}
	if w.need > len(w.buf) {
		w.buf = make([]float32, w.need)
	}
	w.top, w.need = 0, 0
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if len(idle.ws) < keepWorkspaces {
		idle.ws = append(idle.ws, w)
	}
}

package sentence

import "sync"

// workspace hands out the float32 buffers of one forward pass from one
// block, which the next pass reuses: a pass needs some ten buffers of
// tokens × width, and allocating them anew for every query was most of
// what a query left to the garbage collector. A pass that needs more
// than the block holds takes the rest from the heap, and the block is
// grown to fit before it is put back.
type workspace struct {
	buf  []float32
	off  int
	need int
}

// workspaces are idle blocks; concurrent passes each take their own.
var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// take returns n values, zeroed: several buffers are sums.
func (w *workspace) take(n int) []float32 {
	w.need += n
	if w.off+n > len(w.buf) {
		return make([]float32, n)
	}
	out := w.buf[w.off : w.off+n : w.off+n]
	w.off += n
	clear(out)
	return out
}

// done makes the block fit the pass it served and puts it back. Nothing
// taken from it may be used afterwards.
func (w *workspace) done() {
	if w.need > len(w.buf) {
		w.buf = make([]float32, w.need)
	}
	w.off, w.need = 0, 0
	workspaces.Put(w)
}

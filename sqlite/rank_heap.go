package sqlite

import (
	"slices"
)

// rankHeap keeps the window best rows by (rank, seq): a heap whose root
// is the worst kept.
type rankHeap struct {
	window int
	rows   []rankedRow
}

func rankBefore(a, b rankedRow) bool { return a.rank < b.rank || a.rank == b.rank && a.seq < b.seq }

func (h *rankHeap) add(r rankedRow) {
	if h.window <= 0 {
		return
	}
	if len(h.rows) < h.window {
		h.rows = append(h.rows, r)
		for i := len(h.rows) - 1; i > 0; {
			p := (i - 1) / 2
			if !rankBefore(h.rows[p], h.rows[i]) {
				break
			}
			h.rows[p], h.rows[i] = h.rows[i], h.rows[p]
			i = p
		}
		return
	}
	if !rankBefore(r, h.rows[0]) {
		return
	}
	h.rows[0] = r
	for i := 0; ; {
		w, l, rt := i, 2*i+1, 2*i+2
		if l < len(h.rows) && rankBefore(h.rows[w], h.rows[l]) {
			w = l
		}
		if rt < len(h.rows) && rankBefore(h.rows[w], h.rows[rt]) {
			w = rt
		}
		if w == i {
			return
		}
		h.rows[w], h.rows[i] = h.rows[i], h.rows[w]
		i = w
	}
}

// sorted returns the kept rows best first.
func (h *rankHeap) sorted() []rankedRow {
	slices.SortFunc(h.rows, func(a, b rankedRow) int {
		if rankBefore(a, b) {
			return -1
		}
		if rankBefore(b, a) {
			return 1
		}
		return 0
	})
	return h.rows
}

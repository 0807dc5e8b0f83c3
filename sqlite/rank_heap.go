package sqlite

import (
	"container/heap"
	"slices"
)

// rankHeap keeps the window best rows by (rank, seq): a heap
// (container/heap) whose root is the worst kept. Most rows of a window
// lose to the root and cost one comparison.
type rankHeap struct {
	window int
	rows   []rankedRow
}

func rankBefore(a, b rankedRow) bool { return a.rank < b.rank || a.rank == b.rank && a.seq < b.seq }

func (h *rankHeap) Len() int           { return len(h.rows) }
func (h *rankHeap) Less(i, j int) bool { return rankBefore(h.rows[j], h.rows[i]) }
func (h *rankHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rankHeap) Push(v any)         { h.rows = append(h.rows, v.(rankedRow)) }
func (h *rankHeap) Pop() any {
	v := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return v
}

func (h *rankHeap) add(r rankedRow) {
	switch {
	case h.window <= 0:
	case len(h.rows) < h.window:
		heap.Push(h, r)
	case rankBefore(r, h.rows[0]):
		h.rows[0] = r
		heap.Fix(h, 0)
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

package sentence

import (
	"github.com/recall-mem/recall/internal/vecmath"
	"golang.org/x/sys/cpu"
)

// hasAVX2 reports whether widenAVX2 runs here; widenAVX512 runs where
// vecmath's 16-lane kernels do. Variables, so that tests take every path.
var (
	hasAVX2   = cpu.X86.HasAVX2
	hasAVX512 = vecmath.HasAVX512
)

//go:noescape
func widenAVX2(dst *float32, q *byte, n int, s float32)

//go:noescape
func widenAVX512(dst *float32, q *byte, n int, s float32)

//go:noescape
func prefetch(p *byte, n int)

// widen writes float32(int8(q[i]))·s into dst[i], sixteen values at a
// time where the CPU has AVX2 or AVX-512. Converting an int8 to float32
// is exact and the product is rounded once, in every path: the values
// are those of the decoded weights, bit for bit.
func widen(dst []float32, q []byte, s float32) {
	n := len(q) &^ 15
	if !hasAVX2 || n == 0 {
		widenGo(dst, q, s)
		return
	}
	dst = dst[:len(q)]
	if hasAVX512 {
		widenAVX512(&dst[0], &q[0], n, s)
	} else {
		widenAVX2(&dst[0], &q[0], n, s)
	}
	widenGo(dst[n:], q[n:], s)
}

// fetchAhead asks for q to be brought into the cache while the caller
// works on something else: the rows the next block of a layer widens.
func fetchAhead(q []byte) {
	if len(q) > 0 {
		prefetch(&q[0], len(q))
	}
}

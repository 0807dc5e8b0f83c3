package sentence

import (
	"github.com/recall-mem/recall/internal/vecmath"
	"golang.org/x/sys/cpu"
)

// hasAVX2 reports whether widenAVX2 runs here; widenRowsAVX512 runs where
// vecmath's 16-lane kernels do. Variables, so that tests take every path.
var (
	hasAVX2   = cpu.X86.HasAVX2
	hasAVX512 = vecmath.HasAVX512
)

//go:noescape
func widenAVX2(dst *float32, q *byte, n int, s float32)

//go:noescape
func widenRowsAVX512(dst *float32, q *byte, n, rows int, scales *float32)

//go:noescape
func prefetch(p *byte, n int)

// widenRows widens len(scales) consecutive rows of n values of q into
// dst, row r with scales[r]: one call for a block of rows where the
// 16-lane kernel runs, else row by row through widen. The same bits
// either way.
func widenRows(dst []float32, q []byte, n int, scales []float32) {
	rows := len(scales)
	if !hasAVX512 || n == 0 || n%16 != 0 || rows == 0 {
		for r, s := range scales {
			widen(dst[r*n:(r+1)*n], q[r*n:(r+1)*n], s)
		}
		return
	}
	dst, q = dst[:rows*n], q[:rows*n]
	widenRowsAVX512(&dst[0], &q[0], n, rows, &scales[0])
}

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
		widenRowsAVX512(&dst[0], &q[0], n, 1, &s)
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

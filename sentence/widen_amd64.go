package sentence

import "golang.org/x/sys/cpu"

// hasAVX2 reports whether widenAVX2 runs here.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func widenAVX2(dst *float32, q *byte, n int, s float32)

// widen writes float32(int8(q[i]))·s into dst[i], sixteen values at a
// time where the CPU has AVX2. Converting an int8 to float32 is exact and
// the product is rounded once, in either path: the values are those of
// the decoded weights, bit for bit.
func widen(dst []float32, q []byte, s float32) {
	n := len(q) &^ 15
	if !hasAVX2 || n == 0 {
		widenGo(dst, q, s)
		return
	}
	dst = dst[:len(q)]
	widenAVX2(&dst[0], &q[0], n, s)
	widenGo(dst[n:], q[n:], s)
}

//go:build !amd64

package sentence

// No kernels here; the switches exist so that tests read the same on
// every architecture.
var hasAVX2, hasAVX512 = false, false

// widen writes float32(int8(q[i]))·s into dst[i].
func widen(dst []float32, q []byte, s float32) { widenGo(dst, q, s) }

// fetchAhead does nothing here: there is no prefetch instruction to ask.
func fetchAhead(q []byte) {}

// widenRows widens len(scales) consecutive rows of n values of q into
// dst, row r with scales[r].
func widenRows(dst []float32, q []byte, n int, scales []float32) {
	for r, s := range scales {
		widen(dst[r*n:(r+1)*n], q[r*n:(r+1)*n], s)
	}
}

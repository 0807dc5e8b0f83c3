//go:build !amd64

package sentence

// No kernels here; the switches exist so that tests read the same on
// every architecture.
var hasAVX2, hasAVX512 = false, false

// widen writes float32(int8(q[i]))·s into dst[i].
func widen(dst []float32, q []byte, s float32) { widenGo(dst, q, s) }

// fetchAhead does nothing here: there is no prefetch instruction to ask.
func fetchAhead(q []byte) {}

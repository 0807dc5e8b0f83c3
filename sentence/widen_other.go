//go:build !amd64

package sentence

// widen writes float32(int8(q[i]))·s into dst[i].
func widen(dst []float32, q []byte, s float32) { widenGo(dst, q, s) }

package sentence

// widenGo writes float32(int8(q[i]))·s into dst[i] for every i: the
// value dequantise gives a weight of a row with scale s, one rounding.
func widenGo(dst []float32, q []byte, s float32) {
	dst = dst[:len(q)]
	for i, c := range q {
		dst[i] = float32(int8(c)) * s
	}
}

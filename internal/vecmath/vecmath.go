// Package vecmath holds the inner products the sentence encoder and the
// vector index spend their time in: AVX2/FMA kernels on amd64 CPUs that
// have them, plain Go elsewhere.
package vecmath

// dotI8Go is the plain-Go inner product of a float32 query and an int8
// row, unrolled by four.
func dotI8Go(q []float32, row []int8) float32 {
	q = q[:len(row)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(row); j += 4 {
		s0 += q[j] * float32(row[j])
		s1 += q[j+1] * float32(row[j+1])
		s2 += q[j+2] * float32(row[j+2])
		s3 += q[j+3] * float32(row[j+3])
	}
	for ; j < len(row); j++ {
		s0 += q[j] * float32(row[j])
	}
	return s0 + s1 + s2 + s3
}

// dotI8RowsGo scores each len(q) row of rows into out with dotI8Go.
func dotI8RowsGo(q []float32, rows []int8, out []float32) {
	dim := len(q)
	for i := range out {
		out[i] = dotI8Go(q, rows[i*dim:(i+1)*dim])
	}
}

// dotI8GatherGo scores the len(q) row at each offset of rows into out
// with dotI8Go.
func dotI8GatherGo(q []float32, rows []int8, offs []int, out []float32) {
	for i, o := range offs {
		out[i] = dotI8Go(q, rows[o:o+len(q)])
	}
}

// axpyGo adds a·x to y in plain Go.
func axpyGo(a float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}

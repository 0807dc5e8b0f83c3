//go:build !amd64

package vecmath

import "github.com/recall-mem/recall"

// HasFMA is false: there are no kernels for this architecture.
const HasFMA = false

// Dot is the inner product of two equal-length vectors.
func Dot(a, b []float32) float32 { return recall.Dot(a, b) }

// DotI8 is the inner product of a float32 query and an int8 row.
func DotI8(q []float32, row []int8) float32 { return dotI8Go(q, row) }

// DotI8Rows sets out[i] to DotI8(q, rows[i·len(q):(i+1)·len(q)]) for each
// i < len(out).
func DotI8Rows(q []float32, rows []int8, out []float32) {
	dotI8RowsGo(q, rows[:len(out)*len(q)], out)
}

// DotI8Gather sets out[i] to DotI8(q, rows[offs[i]:offs[i]+len(q)]) for
// each i < len(out).
func DotI8Gather(q []float32, rows []int8, offs []int, out []float32) {
	offs = offs[:len(out)]
	for _, o := range offs {
		_ = rows[o : o+len(q)]
	}
	dotI8GatherGo(q, rows, offs, out)
}

// Dot4x3 reports false: there is no blocked kernel here.
func Dot4x3(w []float32, wstride int, x []float32, xstride, n int, out *[12]float32) bool {
	return false
}

// Axpy adds a·x to y (len(y) ≥ len(x)).
func Axpy(a float32, x, y []float32) { axpyGo(a, x, y) }

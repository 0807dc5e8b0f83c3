package vecmath

import (
	"github.com/recall-mem/recall"
	"golang.org/x/sys/cpu"
)

// HasFMA reports whether the AVX2/FMA kernels run here.
var HasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotFMA(a, b *float32, n int) float32

//go:noescape
func dotI8FMA(q *float32, row *int8, n int) float32

// Dot is the inner product of two equal-length vectors: eight lanes at a
// time where the CPU has FMA, plain Go for the rest.
func Dot(a, b []float32) float32 {
	n := len(a) &^ 31
	if !HasFMA || n == 0 {
		return recall.Dot(a, b)
	}
	return dotFMA(&a[0], &b[0], n) + recall.Dot(a[n:], b[n:len(a)])
}

// DotI8 is the inner product of a float32 query and an int8 row of the
// same length, the int8 widened eight lanes at a time where the CPU has
// FMA.
func DotI8(q []float32, row []int8) float32 {
	n := len(row) &^ 31
	if !HasFMA || n == 0 {
		return dotI8Go(q, row)
	}
	return dotI8FMA(&q[0], &row[0], n) + dotI8Go(q[n:], row[n:])
}

//go:noescape
func dotI8RowsFMA(q *float32, rows *int8, stride, n, nrows int, out *float32)

// DotI8Rows sets out[i] to DotI8(q, rows[i·len(q):(i+1)·len(q)]) for each
// i < len(out), bit for bit: the kernel makes each row's sum in the order
// DotI8 does. One call scores a block of rows, so a scan of a million
// rows makes thousands of calls instead of a million.
func DotI8Rows(q []float32, rows []int8, out []float32) {
	dim := len(q)
	rows = rows[:len(out)*dim]
	n := dim &^ 31
	if !HasFMA || n == 0 {
		dotI8RowsGo(q, rows, out)
		return
	}
	if len(out) == 0 {
		return
	}
	dotI8RowsFMA(&q[0], &rows[0], dim, n, len(out), &out[0])
	if n < dim {
		for i := range out {
			out[i] += dotI8Go(q[n:], rows[i*dim+n:(i+1)*dim])
		}
	}
}

//go:noescape
func dotI8GatherFMA(q *float32, rows *int8, offs *int, rowBytes, n, nrows int, out *float32)

// DotI8Gather sets out[i] to DotI8(q, rows[offs[i]:offs[i]+len(q)]) for
// each i < len(out), bit for bit, for rows scattered over rows: the FMA
// kernel fetches the next rows from memory while it scores one.
func DotI8Gather(q []float32, rows []int8, offs []int, out []float32) {
	dim := len(q)
	offs = offs[:len(out)]
	for _, o := range offs {
		_ = rows[o : o+dim] // every row is inside rows
	}
	n := dim &^ 31
	if !HasFMA || n == 0 || len(out) == 0 {
		dotI8GatherGo(q, rows, offs, out)
		return
	}
	dotI8GatherFMA(&q[0], &rows[0], &offs[0], dim, n, len(out), &out[0])
	if n < dim {
		for i, o := range offs {
			out[i] += dotI8Go(q[n:], rows[o+n:o+dim])
		}
	}
}

//go:noescape
func dot4x3FMA(w *float32, wstride int, x *float32, xstride, n int, out *[12]float32)

// Dot4x3 sets out[c*4+r] to the inner product of row r of w (four rows,
// wstride apart) with row c of x (three rows, xstride apart), n floats of
// each, and reports whether it could: it needs the FMA kernel and n a
// multiple of 8. Each load serves three or four products, so a layer
// reads its weights and tokens a quarter as often as row by row; the
// four sums of a token come out side by side, as the layer stores them.
func Dot4x3(w []float32, wstride int, x []float32, xstride, n int, out *[12]float32) bool {
	if !HasFMA || n == 0 || n%8 != 0 || len(w) < 3*wstride+n || len(x) < 2*xstride+n {
		return false
	}
	dot4x3FMA(&w[0], wstride, &x[0], xstride, n, out)
	return true
}

//go:noescape
func axpyFMA(a float32, x, y *float32, n int)

// Axpy adds a·x to y (len(y) ≥ len(x)), eight lanes at a time where the
// CPU has FMA: attention sums its value vectors this way.
func Axpy(a float32, x, y []float32) {
	y = y[:len(x)]
	n := len(x) &^ 7
	if HasFMA && n > 0 {
		axpyFMA(a, &x[0], &y[0], n)
	}
	axpyGo(a, x[n:], y[n:])
}

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
func dot4FMA(w, x *float32, stride, n int, out *[4]float32)

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

// Dot4 sets out[r] to the inner product of w with row r of x (four rows of
// `stride` floats each, len(w) used of each), and reports whether it
// could: it needs the FMA kernel and a length that is a multiple of 16.
// Each load of w serves four rows.
func Dot4(w, x []float32, stride int, out *[4]float32) bool {
	n := len(w)
	if !HasFMA || n == 0 || n%16 != 0 || len(x) < 3*stride+n {
		return false
	}
	dot4FMA(&w[0], &x[0], stride, n, out)
	return true
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

package sentence

import "golang.org/x/sys/cpu"

// hasFMA reports whether the AVX2/FMA kernel can run here.
var hasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotFMA(a, b *float32, n int) float32

// dot is the inner product of two equal-length vectors: eight lanes at a
// time where the CPU has FMA (the matrix products are nearly all of an
// embedding's time), plain Go for the rest.
func dot(a, b []float32) float32 {
	n := len(a) &^ 31
	if !hasFMA || n == 0 {
		return dotGo(a, b)
	}
	return dotFMA(&a[0], &b[0], n) + dotGo(a[n:], b[n:len(a)])
}

//go:noescape
func dot4FMA(w, x *float32, stride, n int, out *[4]float32)

// dot4 sets out[r] to the inner product of w with row r of x (four rows of
// `stride` floats each, len(w) used of each), and reports whether it
// could: it needs the FMA kernel and a length that is a multiple of 16.
func dot4(w, x []float32, stride int, out *[4]float32) bool {
	n := len(w)
	if !hasFMA || n == 0 || n%16 != 0 || len(x) < 3*stride+n {
		return false
	}
	dot4FMA(&w[0], &x[0], stride, n, out)
	return true
}

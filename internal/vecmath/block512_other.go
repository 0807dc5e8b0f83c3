//go:build !amd64

package vecmath

// HasAVX512 is false: there are no kernels for this architecture. A
// variable, as on amd64, so that tests that switch it build everywhere.
var HasAVX512 = false

// Dot4x6 reports false: there is no 16-lane kernel here.
func Dot4x6(w []float32, wstride int, xp []float32, n int, y []float32, ystride int, b []float32) bool {
	return false
}

// Dot4x4 reports false: there is no 16-lane kernel here.
func Dot4x4(w []float32, wstride int, xp []float32, n int, out *[16]float32) bool {
	return false
}

// Dot4x2 reports false: there is no 16-lane kernel here.
func Dot4x2(w []float32, wstride int, x [][]float32, n int, out *[8]float32) bool {
	return false
}

package vecmath

import "golang.org/x/sys/cpu"

// HasAVX512 reports whether the 16-lane kernels run here (and the 8-lane
// ones they must match: FMA). A variable, so that tests can take the
// paths without them too.
var HasAVX512 = HasFMA && cpu.X86.HasAVX512F

//go:noescape
func dot4x6Z(w *float32, wstride int, xp *float32, n int, out *[24]float32)

// Dot4x6 sets out[c*4+r] to the inner product of row r of w (four rows,
// wstride apart) with token c of six, n floats of each, and reports
// whether it could: it needs the AVX-512 kernel and n a multiple of 8.
// The tokens come as three pairs packed by PairUp (xp holds 6·n floats).
// Each sum is made as Dot4x3 makes it, bit for bit, sixteen lanes at a
// time instead of eight.
func Dot4x6(w []float32, wstride int, xp []float32, n int, out *[24]float32) bool {
	if !HasAVX512 || n == 0 || n%8 != 0 || len(w) < 3*wstride+n || len(xp) < 6*n {
		return false
	}
	dot4x6Z(&w[0], wstride, &xp[0], n, out)
	return true
}

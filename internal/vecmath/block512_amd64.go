package vecmath

import "golang.org/x/sys/cpu"

// HasAVX512 reports whether the 16-lane kernels run here (and the 8-lane
// ones they must match: FMA). A variable, so that tests can take the
// paths without them too.
var HasAVX512 = HasFMA && cpu.X86.HasAVX512F

//go:noescape
func dot4x6Z(w *float32, wstride int, xp *float32, n int, y *float32, ystride int, b *float32)

// Dot4x6 sets y[c*ystride+r] to b[r] plus the inner product of row r of
// w (four rows, wstride apart) with token c of six, n floats of each, and
// reports whether it could: it needs the AVX-512 kernel and n a multiple
// of 8. The tokens come as three pairs packed by PairUp (xp holds 6·n
// floats). Each sum is made as Dot4x3 makes it, bit for bit, sixteen
// lanes at a time instead of eight, and goes straight to its row of y: a
// layer's outputs four at a time.
func Dot4x6(w []float32, wstride int, xp []float32, n int, y []float32, ystride int, b []float32) bool {
	if !HasAVX512 || n == 0 || n%8 != 0 || len(w) < 3*wstride+n || len(xp) < 6*n || len(y) < 5*ystride+4 || len(b) < 4 {
		return false
	}
	dot4x6Z(&w[0], wstride, &xp[0], n, &y[0], ystride, &b[0])
	return true
}

//go:noescape
func dot4x4Z(w *float32, wstride int, xp *float32, n int, out *[16]float32)

// Dot4x4 is Dot4x6 for two pairs of tokens (xp holds 4·n floats): the
// three tokens a group of Dot4x3 would take, and a fourth of padding or
// of another token, whose sums the caller need not use.
func Dot4x4(w []float32, wstride int, xp []float32, n int, out *[16]float32) bool {
	if !HasAVX512 || n == 0 || n%8 != 0 || len(w) < 3*wstride+n || len(xp) < 4*n {
		return false
	}
	dot4x4Z(&w[0], wstride, &xp[0], n, out)
	return true
}

//go:noescape
func dot4x2B(w *float32, wstride int, x0, x1 *float32, n int, out *[8]float32)

// Dot4x2 sets out[c*4+r] to Dot(x[c][:n], row r of w) bit for bit (four
// rows wstride apart), for the one or two tokens of x, and reports
// whether it could: it needs the AVX-512 kernel and n a multiple of 32.
// It makes Dot's four 8-lane sums of each, sixteen lanes at a time, and
// loads each block of a row once for both tokens: the tokens a layer
// has left after its groups of three, and layers of a single row.
func Dot4x2(w []float32, wstride int, x [][]float32, n int, out *[8]float32) bool {
	if !HasAVX512 || n == 0 || n%32 != 0 || len(w) < 3*wstride+n || len(x) == 0 || len(x) > 2 {
		return false
	}
	for _, xc := range x {
		if len(xc) < n {
			return false
		}
	}
	var x1 *float32
	if len(x) == 2 {
		x1 = &x[1][0]
	}
	dot4x2B(&w[0], wstride, &x[0][0], x1, n, out)
	return true
}

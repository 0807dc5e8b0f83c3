package vecmath

// PairUp packs rows rows of x (n floats each, xstride apart; n a multiple
// of 8) for Dot4x6 and Dot4x4: pair p is rows 2p and 2p+1 interleaved by
// eights, a0..a7 b0..b7 a8..a15 b8..b15 …, in dst[2pn:2(p+1)n]; an odd
// last row is paired with zeros. One 16-lane load then brings the same
// eight floats of both rows.
func PairUp(dst, x []float32, xstride, n, rows int) {
	pairs := (rows + 1) / 2
	dst = dst[:2*pairs*n]
	for p := range pairs {
		a := x[2*p*xstride : 2*p*xstride+n]
		d := dst[2*p*n : 2*(p+1)*n]
		if 2*p+1 == rows {
			for k := 0; k+8 <= n; k += 8 {
				*(*[8]float32)(d[2*k:]) = *(*[8]float32)(a[k:])
				*(*[8]float32)(d[2*k+8:]) = [8]float32{}
			}
			continue
		}
		b := x[(2*p+1)*xstride : (2*p+1)*xstride+n]
		for k := 0; k+8 <= n; k += 8 {
			*(*[8]float32)(d[2*k:]) = *(*[8]float32)(a[k:])
			*(*[8]float32)(d[2*k+8:]) = *(*[8]float32)(b[k:])
		}
	}
}

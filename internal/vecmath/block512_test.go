package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/recall-mem/recall"
)

// randomFloats returns n normal floats from a fixed seed.
func randomFloats(seed uint64, n int) []float32 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.NormFloat64())
	}
	return out
}

// Dot4x6 gives Dot4x3's sums plus the bias bit for bit, for every length
// the kernels take, rows and tokens starting off any alignment, strides
// longer than the rows, and writes nothing else of y; and plain Go's
// within rounding.
func TestDot4x6EqualsDot4x3(t *testing.T) {
	if !HasAVX512 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	bias := []float32{0.5, -1.25, 3, 0}
	for _, n := range []int{8, 16, 24, 40, 64, 248, 256, 512, 1536} {
		for _, skew := range []int{0, 1, 3} {
			wstride, xstride, ystride := n+skew+8, n+2*skew, 4+skew+3
			w := randomFloats(1, skew+3*wstride+n)[skew:]
			x := randomFloats(2, skew+5*xstride+n)[skew:]
			xp := make([]float32, skew+6*n)[skew:]
			PairUp(xp, x, xstride, n, 6)
			y := make([]float32, skew+6*ystride)[skew:]
			for i := range y {
				y[i] = 42
			}
			if !Dot4x6(w, wstride, xp, n, y, ystride, bias) {
				t.Fatalf("n=%d: refused", n)
			}
			var want [12]float32
			for half := range 2 {
				if !Dot4x3(w, wstride, x[3*half*xstride:], xstride, n, &want) {
					t.Fatalf("n=%d: Dot4x3 refused", n)
				}
				for c := range 3 {
					row := y[(3*half+c)*ystride:]
					for r := range 4 {
						g, w8 := row[r], want[c*4+r]+bias[r]
						if math.Float32bits(g) != math.Float32bits(w8) {
							t.Errorf("n=%d skew=%d row %d token %d: %v, Dot4x3 %v", n, skew, r, 3*half+c, g, w8)
						}
						plain := recall.Dot(w[r*wstride:r*wstride+n], x[(3*half+c)*xstride:(3*half+c)*xstride+n]) + bias[r]
						if math.Abs(float64(g-plain)) > 1e-3*math.Sqrt(float64(n)) {
							t.Errorf("n=%d row %d token %d: %v, plain Go %v", n, r, 3*half+c, g, plain)
						}
					}
					for i := 4; i < ystride; i++ {
						if row[i] != 42 {
							t.Fatalf("n=%d: y[%d] of token %d's row written", n, i, 3*half+c)
						}
					}
				}
			}
		}
	}
}

// Lengths the kernel cannot take, and slices too short for four rows, six
// tokens, six rows of output or four biases, are refused rather than
// read or written past.
func TestDot4x6Refuses(t *testing.T) {
	for _, c := range []struct {
		n, wlen, xplen, ylen, blen int
	}{{0, 0, 0, 24, 4}, {12, 48, 72, 24, 4}, {33, 132, 198, 24, 4}, {16, 63, 96, 24, 4}, {16, 64, 95, 24, 4}, {16, 64, 96, 23, 4}, {16, 64, 96, 24, 3}} {
		if Dot4x6(make([]float32, c.wlen), 16, make([]float32, c.xplen), c.n, make([]float32, c.ylen), 4, make([]float32, c.blen)) {
			t.Errorf("%+v: accepted", c)
		}
	}
}

// PairUp interleaves two rows by eights, pair after pair, and pairs an
// odd last row with zeros (over what the buffer held before).
func TestPairUp(t *testing.T) {
	const n, xstride = 16, 20
	x := make([]float32, 4*xstride+n)
	for i := range x {
		x[i] = float32(i + 1)
	}
	for _, rows := range []int{1, 2, 3, 4} {
		pairs := (rows + 1) / 2
		dst := make([]float32, 2*pairs*n+1)
		for i := range dst {
			dst[i] = -1
		}
		PairUp(dst, x, xstride, n, rows)
		var want []float32
		for p := range pairs {
			a, b := x[2*p*xstride:], make([]float32, n)
			if 2*p+1 < rows {
				b = x[(2*p+1)*xstride:]
			}
			want = append(want, a[0:8]...)
			want = append(want, b[0:8]...)
			want = append(want, a[8:16]...)
			want = append(want, b[8:16]...)
		}
		for i, v := range want {
			if dst[i] != v {
				t.Fatalf("%d rows: dst[%d] = %v, want %v", rows, i, dst[i], v)
			}
		}
		if dst[2*pairs*n] != -1 {
			t.Fatalf("%d rows: PairUp wrote past its pairs", rows)
		}
	}
}

// Dot4x4 gives Dot4x3's sums bit for bit for the three tokens of a group,
// the fourth slot padded with zeros as PairUp pads it.
func TestDot4x4EqualsDot4x3(t *testing.T) {
	if !HasAVX512 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	for _, n := range []int{8, 16, 24, 40, 256, 512, 1536} {
		for _, skew := range []int{0, 1, 3} {
			wstride, xstride := n+skew+8, n+2*skew
			w := randomFloats(3, skew+3*wstride+n)[skew:]
			x := randomFloats(4, skew+2*xstride+n)[skew:]
			xp := make([]float32, skew+4*n)[skew:]
			PairUp(xp, x, xstride, n, 3)
			var got [16]float32
			var want [12]float32
			if !Dot4x4(w, wstride, xp, n, &got) || !Dot4x3(w, wstride, x, xstride, n, &want) {
				t.Fatalf("n=%d: refused", n)
			}
			for i, v := range want {
				if math.Float32bits(got[i]) != math.Float32bits(v) {
					t.Errorf("n=%d skew=%d row %d token %d: %v, Dot4x3 %v", n, skew, i%4, i/4, got[i], v)
				}
			}
			for r := range 4 {
				if got[12+r] != 0 {
					t.Errorf("n=%d: row %d times the zero padding = %v", n, r, got[12+r])
				}
			}
		}
	}
}

// Dot4x2 gives Dot's sums bit for bit, for one token and for two, rows
// and tokens off any alignment.
func TestDot4x2EqualsDot(t *testing.T) {
	if !HasAVX512 {
		t.Skip("no AVX-512 kernel on this machine")
	}
	for _, n := range []int{32, 64, 96, 256, 512, 1536} {
		for _, skew := range []int{0, 1, 5} {
			wstride := n + skew + 8
			w := randomFloats(5, skew+3*wstride+n)[skew:]
			x := randomFloats(6, skew+2*n+3)[skew:]
			tokens := [][]float32{x[:n], x[n+3 : 2*n+3]}
			for k := 1; k <= 2; k++ {
				var got [8]float32
				if !Dot4x2(w, wstride, tokens[:k], n, &got) {
					t.Fatalf("n=%d: refused", n)
				}
				for c := range k {
					for r := range 4 {
						want := Dot(tokens[c], w[r*wstride:r*wstride+n])
						if math.Float32bits(got[c*4+r]) != math.Float32bits(want) {
							t.Errorf("n=%d skew=%d tokens=%d row %d token %d: %v, Dot %v", n, skew, k, r, c, got[c*4+r], want)
						}
					}
				}
			}
		}
	}
}

// Lengths Dot4x2 cannot take (not a multiple of 32), too few or too many
// tokens and rows too short are refused rather than read past.
func TestDot4x2Refuses(t *testing.T) {
	var out [8]float32
	w, x := make([]float32, 4*64), make([]float32, 64)
	for _, c := range []struct {
		name   string
		w      []float32
		tokens [][]float32
		n      int
	}{
		{"n=0", w, [][]float32{x}, 0},
		{"n=48", w, [][]float32{x}, 48},
		{"no tokens", w, nil, 64},
		{"three tokens", w, [][]float32{x, x, x}, 64},
		{"short token", w, [][]float32{x, x[:32]}, 64},
		{"short rows", w[:3*64+63], [][]float32{x}, 64},
	} {
		if Dot4x2(c.w, 64, c.tokens, c.n, &out) {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

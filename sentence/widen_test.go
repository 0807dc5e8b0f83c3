package sentence

import (
	"math"
	"math/rand/v2"
	"testing"
)

// widen gives dequantise's values bit for bit at every length, the
// kernels' blocks of sixteen and the tail after them alike, for scales
// of every size, through each path the CPU has: AVX-512, AVX2, plain Go.
func TestWidenMatchesDequantise(t *testing.T) {
	avx2, avx512 := hasAVX2, hasAVX512
	defer func() { hasAVX2, hasAVX512 = avx2, avx512 }()
	for _, path := range []struct {
		name         string
		avx2, avx512 bool
	}{{"AVX-512", avx2, avx512}, {"AVX2", avx2, false}, {"Go", false, false}} {
		hasAVX2, hasAVX512 = path.avx2, path.avx512
		t.Run(path.name, testWiden)
		t.Run(path.name+" rows", testWidenRows)
	}
}

// widenRows gives each row dequantise's values with its own scale, for
// one row and several, at widths of whole blocks of sixteen and not.
func testWidenRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{16, 17, 48, 256} {
		for _, rows := range []int{1, 4, 5} {
			q := make([]byte, rows*n)
			for i := range q {
				q[i] = byte(r.IntN(256))
			}
			scales := make([]float32, rows)
			for i := range scales {
				scales[i] = float32(r.Float64()) / 127
			}
			want := make([]float32, rows*n)
			dequantise(want, q, scales, n, FormInt8Row)
			got := make([]float32, rows*n+1)
			got[rows*n] = 42
			widenRows(got[:rows*n], q, n, scales)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n=%d rows=%d: [%d] = %v, want %v", n, rows, i, got[i], want[i])
				}
			}
			if got[rows*n] != 42 {
				t.Fatalf("n=%d rows=%d: wrote past the rows", n, rows)
			}
		}
	}
}

func testWiden(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		q := make([]byte, n)
		for i := range q {
			q[i] = byte(r.IntN(256))
		}
		for _, s := range []float32{0, 1, 1.0 / 127, 0.0123456, 3.7e-5, 411.25, float32(r.Float64())} {
			want := make([]float32, n)
			if n > 0 {
				dequantise(want, q, []float32{s}, n, FormInt8Row)
			}
			got := make([]float32, n+1)
			got[n] = 42
			widen(got[:n], q, s)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n=%d s=%v: widen[%d] = %v, want %v", n, s, i, got[i], want[i])
				}
			}
			if got[n] != 42 {
				t.Fatalf("n=%d: widen wrote past its %d values", n, n)
			}
		}
	}
}

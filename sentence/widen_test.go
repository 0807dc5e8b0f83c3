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

package vecmath

import (
	"math/rand/v2"
	"testing"
)

// hammingBits counts, bit by bit, where q and code differ.
func hammingBits(q *[8]uint64, code []uint64) int32 {
	var d int32
	for w := range 8 {
		for b := range 64 {
			if (q[w]>>b)&1 != (code[w]>>b)&1 {
				d++
			}
		}
	}
	return d
}

// Hamming8 (the kernel where the CPU has it) and the Go loop give the
// distance counted bit by bit, for every count of rows 0–70 (the kernel
// takes two rows a turn, and one at the end), for random codes, codes
// equal to the query (0) and its complement (512, the largest).
func TestHamming8MatchesBitCount(t *testing.T) {
	t.Logf("AVX-512 kernel: %v", HasPopcnt512)
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 70; n++ {
		var q [8]uint64
		for w := range q {
			q[w] = rng.Uint64()
		}
		codes := make([]uint64, n*8+8) // one more row than asked for: not read
		for i := range codes {
			switch {
			case i/8 == 3:
				codes[i] = q[i%8]
			case i/8 == 5:
				codes[i] = ^q[i%8]
			default:
				codes[i] = rng.Uint64() & rng.Uint64()
			}
		}
		got, goDist := make([]int32, n+1), make([]int32, n+1)
		got[n], goDist[n] = -1, -1
		Hamming8(&q, codes, got[:n])
		hamming8Go(&q, codes, goDist[:n])
		for i := 0; i < n; i++ {
			want := hammingBits(&q, codes[i*8:i*8+8])
			if got[i] != want || goDist[i] != want {
				t.Fatalf("%d rows, row %d: Hamming8 %d, Go loop %d, bit by bit %d", n, i, got[i], goDist[i], want)
			}
		}
		if got[n] != -1 || goDist[n] != -1 {
			t.Fatalf("%d rows: wrote past the rows asked for", n)
		}
	}
}

// BenchmarkHamming8 is the distance of 50,000 codes (3.2 MB, in cache).
func BenchmarkHamming8(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 50000
	codes := make([]uint64, n*8)
	for i := range codes {
		codes[i] = rng.Uint64()
	}
	var q [8]uint64
	out := make([]int32, 256)
	for b.Loop() {
		for lo := 0; lo < n; lo += 256 {
			k := min(256, n-lo)
			Hamming8(&q, codes[lo*8:(lo+k)*8], out[:k])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
}

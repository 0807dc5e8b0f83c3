package sqlite

import (
	"math/rand/v2"
	"sort"
	"testing"
)

func TestVectorIndex_Search(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim, n = 24, 10000 // above minParallelRows, so the scan is split
	x := newVectorIndex("m", dim)
	randVec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	for i := 0; i < n; i++ {
		x.data = append(x.data, randVec()...)
		x.seqs = append(x.seqs, int64(i+1))
		x.ids = append(x.ids, string(rune('a'+i%26))+string(rune(i)))
		x.chunks = append(x.chunks, 0)
		x.spans = append(x.spans, [2]int32{0, 0})
		x.slot[int64(i+1)] = i
	}
	for _, seq := range []int64{5, 77, 9000, int64(n)} {
		x.remove(seq)
	}
	for q := 0; q < 20; q++ {
		query := randVec()
		type ref struct {
			id    string
			score float32
		}
		var want []ref
		for r := 0; r < x.len(); r++ {
			want = append(want, ref{x.ids[r], dot(query, x.data[r*dim:(r+1)*dim])})
		}
		sort.Slice(want, func(i, j int) bool { return want[i].score > want[j].score })
		got := x.search(query, 10)
		if len(got) != 10 {
			t.Fatalf("got %d hits", len(got))
		}
		for i := range got {
			if got[i].MemoryID != want[i].id || float32(got[i].Score) != want[i].score {
				t.Fatalf("query %d rank %d: got %s %.5f, want %s %.5f", q, i, got[i].MemoryID, got[i].Score, want[i].id, want[i].score)
			}
		}
	}
}

func BenchmarkVectorIndex_Search(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim, n = 384, 100000
	x := newVectorIndex("m", dim)
	x.data = make([]float32, n*dim)
	for i := range x.data {
		x.data[i] = float32(rng.NormFloat64())
	}
	for i := 0; i < n; i++ {
		x.seqs = append(x.seqs, int64(i+1))
		x.ids = append(x.ids, "m")
		x.chunks = append(x.chunks, 0)
		x.spans = append(x.spans, [2]int32{})
	}
	query := x.data[:dim]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.search(query, 10)
	}
}

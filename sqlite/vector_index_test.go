package sqlite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func addRow(x *vectorIndex, seq int64, id string, v []float32) {
	x.add(seq, id, v)
	x.chunks = append(x.chunks, 0)
	x.spans = append(x.spans, [2]int32{})
}

// The index must return exactly what a brute-force float32 search returns,
// for dense queries and for sparse ones (quantised scan, exact re-score),
// after removals too.
func TestVectorIndex_Search(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim, n = 48, 10000 // above minParallelRows, so the scan is split
	x := newVectorIndex("m", dim)
	randVec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	exact := map[string][]float32{}
	for i := 0; i < n; i++ {
		v, id := randVec(), fmt.Sprintf("m%d", i+1)
		exact[id] = v
		addRow(x, int64(i+1), id, v)
	}
	for _, seq := range []int64{5, 77, 9000, int64(n)} {
		x.remove(seq)
		delete(exact, fmt.Sprintf("m%d", seq))
	}
	if x.len() != n-4 || len(x.slot) != n-4 || len(x.q8) != (n-4)*dim {
		t.Fatalf("len %d slots %d after removing 4 of %d", x.len(), len(x.slot), n)
	}
	for q := 0; q < 40; q++ {
		query := randVec()
		if q%2 == 1 { // sparse, like a short query of the built-in embedder
			for j := range query {
				if j%5 != 0 {
					query[j] = 0
				}
			}
		}
		var want []string
		for id := range exact {
			want = append(want, id)
		}
		sort.Slice(want, func(i, j int) bool { return dot(query, exact[want[i]]) > dot(query, exact[want[j]]) })
		got := x.search(query, 10)
		if len(got) != 10 {
			t.Fatalf("got %d hits", len(got))
		}
		for i := range got {
			if got[i].MemoryID != want[i] || math.Abs(got[i].Score-float64(dot(query, exact[want[i]]))) > 1e-5 {
				t.Fatalf("query %d rank %d: got %s %.5f, want %s %.5f", q, i, got[i].MemoryID, got[i].Score, want[i], dot(query, exact[want[i]]))
			}
		}
	}
}

func BenchmarkVectorIndex_Search(b *testing.B) {
	b.Run("Dense", func(b *testing.B) { benchSearch(b, 384) })
	b.Run("Sparse40", func(b *testing.B) { benchSearch(b, 40) })
}

// benchSearch scans 100,000 rows of 384 dimensions with a query of nonzero
// non-zero components.
func benchSearch(b *testing.B, nonzero int) {
	rng := rand.New(rand.NewPCG(1, 2))
	const dim, n = 384, 100000
	x := newVectorIndex("m", dim)
	v := make([]float32, dim)
	for i := 0; i < n; i++ {
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		addRow(x, int64(i+1), "m", v)
	}
	query := make([]float32, dim)
	for j := 0; j < nonzero; j++ {
		query[rng.IntN(dim)] = 1
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.search(query, 10)
	}
}

package sqlite

import (
	"math/rand/v2"
	"testing"
)

// A scan allocates a fixed handful, not some per row it keeps: the first
// keep rows went into each worker's heap through heap.Push, which boxes
// each in an interface, and a dense query's non-zero components were
// listed twice a search (lists grown component by component) only to be
// counted. A scan of 5,000 rows of 512 dimensions keeping 64, with codes
// and without (on one worker: AllocsPerRun sets GOMAXPROCS to 1; the
// counts were the same on 2, 4 and 8): 78 and 82 allocations before, 14
// and 18 after.
func TestVectorIndex_DenseQueryAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	x, _ := randIndex(rng, 512, 5000)
	query := randVec(rng, 512)
	for _, m := range []int{0, 1000} {
		if m > 0 {
			x.buildCodes()
		}
		x.find(query, 64, m) // the prefilter's sample is taken once
		allocs := testing.AllocsPerRun(20, func() { x.find(query, 64, m) })
		t.Logf("m %d: %.1f allocations a scan", m, allocs)
		if allocs > 24 {
			t.Errorf("m %d: %.1f allocations a scan, want at most 24", m, allocs)
		}
	}
}

package rank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// fuseByMaps is the score fusion as it was written before: the lists
// put in maps, normalized by Normalize and NormalizeMinMax, weighted.
func fuseByMaps(o Options, cands map[string]*candidate) map[string]float64 {
	bm, vec, prf := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for id, c := range cands {
		bm[id], prf[id] = c.bm25, c.prf
		if c.vectorRank > 0 {
			vec[id] = c.vector
		}
	}
	bm, vec, prf = Normalize(bm), NormalizeMinMax(vec), Normalize(prf)
	out := map[string]float64{}
	for id := range cands {
		out[id] = o.TextWeight*bm[id] + o.VectorWeight*vec[id] + o.Feedback*prf[id]
	}
	return out
}

// randomCandidates draws n candidates: some full-text only, some vector
// only, some both; scores with repeats, zeros and (vector) negatives, and
// now and then every vector score equal.
func randomCandidates(r *rand.Rand, n int) map[string]*candidate {
	cands := map[string]*candidate{}
	same := r.IntN(8) == 0
	for i := range n {
		c := &candidate{}
		switch r.IntN(3) {
		case 0:
			c.bm25 = float64(r.IntN(5)) * r.Float64() * 20
		case 1:
			c.vectorRank, c.vector = i+1, r.Float64()*2-0.5
		default:
			c.bm25, c.vectorRank, c.vector = r.Float64()*15, i+1, r.Float64()
		}
		if same && c.vectorRank > 0 {
			c.vector = 0.42
		}
		if r.IntN(4) == 0 {
			c.prf = r.Float64() * 3
		}
		cands[fmt.Sprintf("m%d", i)] = c
	}
	return cands
}

// TestFuse_SameAsNormalizedLists: the score fusion gives every candidate
// the bits the normalized maps gave, with and without feedback, over
// random lists (ties, zeros, a vector list of equal scores, an empty one).
func TestFuse_SameAsNormalizedLists(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	s := &Searcher{}
	for trial := range 2000 {
		o := DefaultOptions()
		if trial%3 == 0 {
			o.Feedback = 0.3
		}
		cands := randomCandidates(r, r.IntN(60))
		got, want := s.fuse(o, cands, nil, nil), fuseByMaps(o, cands)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d fused, want %d", trial, len(got), len(want))
		}
		for id, w := range want {
			if g, ok := got[id]; !ok || math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("trial %d, %s: fused %v (%v), want %v", trial, id, g, ok, w)
			}
		}
	}
}

var fuseSink map[string]float64

// TestFuse_AllocatesOneMap: fusing 200 candidates allocates the map it
// returns and nothing more (it built six maps).
func TestFuse_AllocatesOneMap(t *testing.T) {
	cands := randomCandidates(rand.New(rand.NewPCG(3, 4)), 200)
	s, o := &Searcher{}, DefaultOptions()
	one := testing.AllocsPerRun(50, func() {
		out := make(map[string]float64, len(cands))
		for id, c := range cands {
			out[id] = c.bm25
		}
		fuseSink = out // returned, as fuse's is
	})
	if n := testing.AllocsPerRun(50, func() { s.fuse(o, cands, nil, nil) }); n > one {
		t.Errorf("fuse: %.0f allocations, one map of its size takes %.0f", n, one)
	}
}

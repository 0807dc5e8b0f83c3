package rank

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// poolOf is n candidates of ten to twenty words each from a vocabulary
// of 40, so that some pairs overlap by half or more (near-duplicates).
func poolOf(n int, seed uint64) []*candidate {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []*candidate
	for i := range n {
		var words []string
		for range 10 + r.IntN(11) {
			words = append(words, fmt.Sprintf("Word%d", r.IntN(40)))
		}
		c := cand(fmt.Sprintf("m%02d", i), float64(n-i))
		c.m = &recall.Memory{ID: c.m.ID, Title: words[0], Content: strings.Join(words[1:], ", ") + "."}
		out = append(out, c)
	}
	return out
}

// TestDiversify_WordListsAllocateLittle: diversify compares every pair
// of its pool by word overlap; its word sets are sorted lists built with
// a few allocations each, not maps grown word by word (8.5 allocations a
// candidate with maps, 3.2 with lists, at most 5 allowed).
func TestDiversify_WordListsAllocateLittle(t *testing.T) {
	pool := poolOf(30, 1)
	allocs := testing.AllocsPerRun(20, func() {
		list := make([]*candidate, len(pool))
		for i, c := range pool {
			cc := *c
			cc.adjust = map[string]float64{}
			list[i] = &cc
		}
		diversify(list, 0.7, 10)
	})
	// The copies of the pool above take 2 allocations a candidate.
	if per := allocs/float64(len(pool)) - 2; per > 5 {
		t.Errorf("diversify made %.1f allocations a candidate, want at most 5", per)
	}
}

// TestWordList_JaccardIsTermSets: the sorted word lists diversify uses
// give Jaccard's overlap of the TermSets, to the bit, over texts with
// repeats, case, punctuation, digits and letters outside ASCII.
func TestWordList_JaccardIsTermSets(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	vocab := []string{"Deploy", "deploy", "API", "api", "the", "été", "Été", "v2", "2024", "naïve", "x", "ß", "SS"}
	text := func() string {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteString([]string{" ", ", ", "-", "! ", "\n"}[r.IntN(5)])
		}
		return b.String()
	}
	for range 2000 {
		a, b := text(), text()
		if got, want := wordsOf(a).jaccard(wordsOf(b)), Jaccard(Terms(a), Terms(b)); got != want {
			t.Fatalf("%q, %q: %v, Jaccard %v", a, b, got, want)
		}
	}
}

// BenchmarkDiversify: one search's diversify, a pool of 30 for 10 hits.
func BenchmarkDiversify(b *testing.B) {
	pool := poolOf(30, 1)
	list := make([]*candidate, len(pool))
	for b.Loop() {
		for i, c := range pool {
			cc := *c
			cc.adjust = map[string]float64{}
			list[i] = &cc
		}
		diversify(list, 0.7, 10)
	}
}

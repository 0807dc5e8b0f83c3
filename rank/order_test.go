package rank

import (
	"fmt"
	"math/rand/v2"
	"slices"
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

// TestWordList_JaccardIsTermSets: the sorted lists of word numbers
// diversify uses give Jaccard's overlap of the TermSets, to the bit, over
// texts with repeats, case, punctuation, digits and letters outside
// ASCII, numbered by one wordNumbers across many texts.
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
	nums := newWordNumbers(0)
	for range 2000 {
		a, b := text(), text()
		if got, want := nums.of(a).jaccard(nums.of(b)), Jaccard(Terms(a), Terms(b)); got != want {
			t.Fatalf("%q, %q: %v, Jaccard %v", a, b, got, want)
		}
	}
}

// wordNumbers finds the words Terms finds, each numbered once, in text of
// ASCII alone (read by its own loop: case, digits, punctuation, control
// characters, NUL, words at either end) and in text with letters and
// digits outside ASCII (read through splitWords).
func TestWordNumbers_OfIsTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	pieces := []string{"Deploy", "deploy", "API", "a1", "Z9z", "0", "q", " ", "  ", ", ", "-", "_", "\x00", "\t\n", "~", "@[`{", "été", "ß", "٣", "Ⅻ"}
	nums := newWordNumbers(0)
	for n := range 3000 {
		var b strings.Builder
		for range r.IntN(10) {
			p := pieces[r.IntN(len(pieces))]
			if n%2 == 0 && !isASCII(p) {
				continue // half the texts are ASCII alone
			}
			b.WriteString(p)
		}
		text := b.String()
		word := map[int32]string{}
		for w, id := range nums.ids {
			word[id] = w
		}
		var got []string
		for _, id := range nums.of(text) {
			if word[id] == "" {
				for w, i := range nums.ids {
					if i == id {
						word[id] = w
					}
				}
			}
			got = append(got, word[id])
		}
		var want []string
		for w := range Terms(text) {
			want = append(want, w)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%q: words %q, Terms %q", text, got, want)
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

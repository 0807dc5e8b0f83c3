package rank

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// MMR's sorted word lists give Jaccard's value for every pair, to the
// bit: the same words, so the same counts.
func TestJaccardSortedMatchesSets(t *testing.T) {
	texts := []string{"", "  ", "The cat sat on the mat", "the CAT, the mat!", "Ünïcode wörds und Wörds 42 x42 42",
		"deploy the release; deploy again", "a b c d e f", "f e d c b a a a", "日本語 テキスト 日本語"}
	r := rand.New(rand.NewPCG(5, 6))
	vocab := strings.Fields("alpha beta gamma delta Alpha BETA x1 42 é É ß the a of")
	for range 300 {
		var b strings.Builder
		for range r.IntN(15) {
			b.WriteString(vocab[r.IntN(len(vocab))])
			b.WriteString([]string{" ", ", ", "-", "  "}[r.IntN(4)])
		}
		texts = append(texts, b.String())
	}
	for _, a := range texts {
		sa := sortedTerms(a)
		if len(sa) != len(Terms(a)) {
			t.Fatalf("%q: %d sorted terms, %d in the set", a, len(sa), len(Terms(a)))
		}
		for _, b := range texts[:40] {
			if got, want := jaccardSorted(sa, sortedTerms(b)), Jaccard(Terms(a), Terms(b)); got != want {
				t.Fatalf("%q vs %q: %v, want %v", a, b, got, want)
			}
		}
	}
}

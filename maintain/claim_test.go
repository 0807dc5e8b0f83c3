package maintain

import (
	"slices"
	"sort"
	"testing"

	"github.com/recall-mem/recall"
)

// TestParseClaim_ContentWords: claims leave out only the core function
// words, so that question words and fillers still tell short entries apart.
func TestParseClaim_ContentWords(t *testing.T) {
	c := parseClaim(state{ManagedEntry: recall.ManagedEntry{Text: "what kind of yoga is it, really"}})
	var got []string
	for w := range c.plain {
		got = append(got, w)
	}
	sort.Strings(got)
	if want := []string{"kind", "really", "what", "yoga"}; !slices.Equal(got, want) {
		t.Fatalf("content words %v, want %v", got, want)
	}
}

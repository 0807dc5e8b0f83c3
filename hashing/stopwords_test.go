package hashing

import (
	"strings"
	"testing"
)

// TestStopwordsV1 pins the words builtin-hash-v1 drops: they are part of
// the model, so a change to the shared list must not reach its features.
func TestStopwordsV1(t *testing.T) {
	v1 := strings.Fields(`a an the and or but if of to in on at by for with from as is are was were be
		been being am do does did have has had it its this that these those i you he she we they me him
		her us them my your his our their what which who whom when where why how so than too very can
		will would should could not no s t just about into there`)
	want := map[uint64]bool{}
	for _, w := range v1 {
		want[hashRunes([]rune(w))] = true
	}
	if len(stopwords) != len(want) {
		t.Errorf("%d stopwords, builtin-hash-v1 has %d", len(stopwords), len(want))
	}
	for h := range stopwords {
		if !want[h] {
			t.Errorf("stopword hash %x is not one of builtin-hash-v1's", h)
		}
	}
}

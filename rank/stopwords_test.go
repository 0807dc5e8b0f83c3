package rank

import (
	"strings"
	"testing"

	"github.com/recall-mem/recall/prose"
)

// TestStopword pins the words ranking ignores: feedback terms, the text
// embedded for vector search, names and time-only queries all use them.
func TestStopwords(t *testing.T) {
	want := map[string]bool{}
	for _, w := range strings.Fields(`a about after again all also am an and any are as at be because been
		before being but by can could did do does doing done for from get got had has have having he her here
		hers him his how i if in into is it its just like me more most my no not now of off on one only or
		other our out over really so some still such than that the their them then there these they this
		those through to too up very was we well were what when where which while who why will with would
		yeah yes you your`) {
		want[w] = true
	}
	for _, w := range prose.Stopwords() {
		if stopwords[w] != want[w] {
			t.Errorf("stopwords[%q] = %v, want %v", w, stopwords[w], want[w])
		}
	}
	for w := range want {
		if !stopwords[w] {
			t.Errorf("%q is not ignored", w)
		}
	}
}

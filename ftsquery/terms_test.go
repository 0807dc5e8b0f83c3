package ftsquery_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall/ftsquery"
	"github.com/recall-mem/recall/prose"
)

func TestTerms(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"How do we deploy to staging? deploy!", []string{"deploy", "staging"}},
		{"what is the", []string{"what", "is", "the"}}, // only stopwords: keep them
		{`NEAR(x y) AND "*"`, []string{"near", "x", "y"}},
		{"¿Qué tal? café", []string{"qué", "tal", "café"}},
		{"  ", nil},
	} {
		if diff := cmp.Diff(tt.want, ftsquery.Terms(tt.in)); diff != "" {
			t.Errorf("Terms(%q): %s", tt.in, diff)
		}
	}
}

// TestTerms_Stopwords pins the stopwords full-text queries drop: a
// subset of prose's list, measured on LoCoMo (see searched).
func TestTerms_Stopwords(t *testing.T) {
	dropped := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by did do does for from had has have he her his
		how i if in into is it its me my of on or our she so that the their them then there these they this to
		was we were what when where which who whom why will with would you your`) {
		dropped[w] = true
	}
	for _, w := range prose.Stopwords() {
		got := ftsquery.Terms("deploy " + w)
		if want := !dropped[w]; (len(got) == 2) != want {
			t.Errorf("Terms(%q) = %q: searched %v, want %v", "deploy "+w, got, !dropped[w], want)
		}
	}
	for w := range dropped {
		if !prose.IsStop(w) {
			t.Errorf("%q is dropped but not a shared stopword", w)
		}
	}
}

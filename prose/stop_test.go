package prose_test

import (
	"slices"
	"testing"

	"github.com/recall-mem/recall/prose"
)

func TestIsStop(t *testing.T) {
	for w, want := range map[string]bool{
		"the": true, "whom": true, "yeah": true, "s": true, "been": true,
		"The":    false, // callers lower-case first
		"deploy": false, "postgres": false, "": false,
	} {
		if got := prose.IsStop(w); got != want {
			t.Errorf("IsStop(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestStopwords(t *testing.T) {
	ws := prose.Stopwords()
	if !slices.IsSorted(ws) || len(slices.Compact(slices.Clone(ws))) != len(ws) {
		t.Fatalf("not sorted and unique: %v", ws)
	}
	for _, w := range ws {
		if !prose.IsStop(w) {
			t.Errorf("%q listed but not a stopword", w)
		}
	}
	ws[0] = "deploy" // a copy: the caller cannot change the list
	if prose.IsStop("deploy") || prose.Stopwords()[0] == "deploy" {
		t.Fatal("Stopwords shares its storage")
	}
}

func TestSubset(t *testing.T) {
	s := prose.Subset("the  of\n\tand")
	if len(s) != 3 || !s["the"] || !s["of"] || !s["and"] {
		t.Fatalf("Subset = %v", s)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a word outside the list did not panic")
		}
	}()
	prose.Subset("the deploy")
}

func TestExcept(t *testing.T) {
	s := prose.Except("the of")
	if s["the"] || s["of"] || !s["and"] || len(s) != len(prose.Stopwords())-2 {
		t.Fatalf("Except = %v", s)
	}
}

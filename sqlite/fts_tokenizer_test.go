package sqlite

import (
	"fmt"
	"slices"
	"testing"
)

// A query's words tokenized together get each its own terms, in order,
// as each alone does: words of several terms, of none, repeated, some
// already remembered and some new.
func TestIndexTerms_TogetherAsAlone(t *testing.T) {
	words := []string{"Running", "x-ray", "café", "!!", "Running", "connections", "Über", "2024-01", "databases"}
	var alone [][]string
	for _, w := range words {
		tokenizer.mu.Lock()
		tokenizer.terms = nil // each word new
		tokenizer.mu.Unlock()
		got, err := indexTerms(t.Context(), []string{w})
		if err != nil || len(got) != 1 {
			t.Fatalf("%q: %q, %v", w, got, err)
		}
		alone = append(alone, got[0])
	}
	if !slices.Equal(alone[1], []string{"x", "rai"}) || len(alone[3]) != 0 || alone[3] == nil {
		t.Fatalf("alone: %q", alone)
	}
	for _, remembered := range [][]string{nil, words[:3], {"databases", "2024-01"}} {
		tokenizer.mu.Lock()
		tokenizer.terms = nil
		tokenizer.mu.Unlock()
		if _, err := indexTerms(t.Context(), remembered); err != nil {
			t.Fatal(err)
		}
		got, err := indexTerms(t.Context(), words)
		if err != nil || !slices.EqualFunc(got, alone, slices.Equal) {
			t.Fatalf("remembered %q: together %q (%v), alone %q", remembered, got, err, alone)
		}
	}
}

// When the remembered words start over, a query's words remembered
// before are still answered with their terms, beside its new ones.
func TestIndexTerms_StartOverKeepsTheQuerysWords(t *testing.T) {
	if _, err := indexTerms(t.Context(), []string{"running"}); err != nil {
		t.Fatal(err)
	}
	tokenizer.mu.Lock()
	for i := len(tokenizer.terms); i < maxTokenized; i++ {
		tokenizer.terms[fmt.Sprintf("filler%d", i)] = []string{"filler"}
	}
	tokenizer.mu.Unlock()
	got, err := indexTerms(t.Context(), []string{"running", "brandnew"})
	if err != nil || len(got) != 2 || !slices.Equal(got[0], []string{"run"}) || !slices.Equal(got[1], []string{"brandnew"}) {
		t.Fatalf("after the start over: %q, %v; want [[run] [brandnew]]", got, err)
	}
	tokenizer.mu.Lock()
	n := len(tokenizer.terms)
	tokenizer.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d words remembered after the start over, want the query's 2", n)
	}
}

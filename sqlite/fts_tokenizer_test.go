package sqlite

import (
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

package lazyre

import (
	"regexp"
	"testing"
)

func TestNewMatchesLikeMustCompile(t *testing.T) {
	const expr = `(?i)\bdue:?\s*(\d{4}-\d{2}-\d{2})\b`
	lazy, eager := New(expr), regexp.MustCompile(expr)
	for _, s := range []string{"Due: 2024-05-01 call", "no date", "due 2023-1-1", "DUE2025-12-31"} {
		if got, want := lazy().FindStringSubmatch(s), eager.FindStringSubmatch(s); len(got) != len(want) || (got != nil && got[1] != want[1]) {
			t.Errorf("%q: lazy %q, eager %q", s, got, want)
		}
	}
	first, second := lazy(), lazy()
	if first != second {
		t.Error("a second call compiled the expression again")
	}
}

func TestNewCompilesAtFirstCall(t *testing.T) {
	re := New(`(unclosed`) // must not panic here
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic at first use")
		}
	}()
	re()
}

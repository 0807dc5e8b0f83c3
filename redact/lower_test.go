package redact

import (
	"strings"
	"testing"
	"unicode"
)

// asciiLower lower-cases the ASCII letters only, byte for byte, and
// copies a text at most once: not at all when it has no upper-case letter.
func TestASCIILower(t *testing.T) {
	for _, s := range []string{"", "a", "Z", "already lower, digits 123 and _-", "Mixed Case AWS_SECRET=AKIA", "ÉCOLE Straße İSTANBUL ǅ",
		"trailing UPPER", "UPPER leading", "\xff\xfeA invalid UTF-8", strings.Repeat("aB", 500)} {
		want := []byte(s)
		for i, c := range want {
			if c < 0x80 {
				want[i] = byte(unicode.ToLower(rune(c)))
			}
		}
		if got := asciiLower(s); got != string(want) {
			t.Errorf("asciiLower(%q) = %q, want %q", s, got, want)
		}
	}
	// Texts the size of a memory's content (a short one may be copied
	// through a buffer on the stack).
	lower := strings.Repeat("deploys go through staging first. ", 8)
	mixed := strings.Repeat("Deploys go through Staging first. ", 8)
	if n := testing.AllocsPerRun(100, func() { lowerSink = asciiLower(lower) }); n != 0 {
		t.Errorf("a lower-case text: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { lowerSink = asciiLower(mixed) }); n != 1 {
		t.Errorf("a mixed-case text: %v allocations, want 1", n)
	}
}

// lowerSink keeps asciiLower's result on the heap, as Redact's is.
var lowerSink string

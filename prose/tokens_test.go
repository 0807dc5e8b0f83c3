package prose_test

import (
	"testing"

	"github.com/recall-mem/recall/prose"
)

func TestTokens(t *testing.T) {
	for text, want := range map[string]int{
		"":                             0,
		"a":                            1,
		"abcd":                         1,
		"abcde":                        2,
		"internationalisation is hard": 7,
		"größer":                       2, // characters, not bytes (8)
		"日本語のテキスト":                     2,
	} {
		if got := prose.Tokens(text); got != want {
			t.Errorf("Tokens(%q) = %d, want %d", text, got, want)
		}
	}
}

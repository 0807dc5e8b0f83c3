package maintain

import (
	"strings"
	"unicode/utf8"
)

// Words counts whitespace-separated tokens (seed 000's word count).
func Words(text string) int { return len(strings.Fields(text)) }

// Tokens estimates model tokens without a tokenizer: each word costs one
// token per four characters, at least one. It tracks BPE tokenizers on
// English prose closely enough for a budget, and it needs no model files.
func Tokens(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		n += max(1, (utf8.RuneCountInString(w)+3)/4)
	}
	return n
}

// Count measures text in unit.
func Count(unit, text string) int {
	if unit == UnitTokens {
		return Tokens(text)
	}
	return Words(text)
}

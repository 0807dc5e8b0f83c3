package maintain

import (
	"strings"

	"github.com/recall-mem/recall/prose"
)

// Words counts whitespace-separated tokens (seed 000's word count).
func Words(text string) int { return len(strings.Fields(text)) }

// Count measures text in unit: words, or model tokens as prose.Tokens
// estimates them.
func Count(unit, text string) int {
	if unit == UnitTokens {
		return prose.Tokens(text)
	}
	return Words(text)
}

package prose

import "unicode/utf8"

// CharsPerToken is the estimator's rate: BPE tokenizers average about four
// characters of English per token. SQL that sums text lengths divides by it
// so that its figures agree with Tokens.
const CharsPerToken = 4

// Tokens estimates the model tokens of text without a tokenizer: its
// characters divided by CharsPerToken, rounded up. It needs no vocabulary
// (loading o200k costs a process tens of milliseconds); the context pack
// counts exactly where a budget must hold.
func Tokens(text string) int {
	return (utf8.RuneCountInString(text) + CharsPerToken - 1) / CharsPerToken
}

package pack

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Counter counts the tokens a model would see for a text.
type Counter interface {
	Count(text string) int
}

// Tokenizer counts tokens with a real BPE encoding (o200k_base unless
// Encoding says otherwise). The vocabulary is several megabytes, so it is
// loaded on the first Count, never at start-up: a hook that builds no
// context pays nothing for it.
type Tokenizer struct {
	Encoding tokenizer.Encoding // zero means o200k_base

	once  sync.Once
	codec tokenizer.Codec
	err   error
}

// Count returns the number of tokens in text. If the encoding cannot be
// loaded it over-estimates (one token per byte) so that a budget is never
// exceeded.
func (t *Tokenizer) Count(text string) int {
	if text == "" {
		return 0
	}
	t.once.Do(t.load)
	if t.err != nil {
		return len(text)
	}
	n, err := t.codec.Count(text)
	if err != nil {
		return len(text)
	}
	return n
}

func (t *Tokenizer) load() {
	enc := t.Encoding
	if enc == "" {
		enc = tokenizer.O200kBase
	}
	t.codec, t.err = tokenizer.Get(enc)
	if t.err != nil {
		t.err = fmt.Errorf("tokenizer %s: %w", enc, t.err)
	}
}

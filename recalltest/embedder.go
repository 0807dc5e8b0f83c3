package recalltest

import (
	"context"
	"hash/fnv"
	"strings"
	"sync/atomic"

	"github.com/recall-mem/recall"
)

// WordEmbedder is a deterministic embedder for contract tests: a text's
// vector counts its words hashed into Dim buckets, normalised, so that
// texts sharing more words lie nearer each other. Down makes it fail as
// an unreachable provider does.
type WordEmbedder struct {
	Name string // the model name; "" means "words"
	Down atomic.Bool
}

var _ recall.Embedder = (*WordEmbedder)(nil)

// wordDim is large enough that the few words of a test rarely share a
// bucket.
const wordDim = 256

// Model names the embedder.
func (e *WordEmbedder) Model() string {
	if e.Name == "" {
		return "words"
	}
	return e.Name
}

// Dim is the length of every vector.
func (e *WordEmbedder) Dim() int { return wordDim }

// Embed returns one vector per text, EUNAVAILABLE while Down.
func (e *WordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if e.Down.Load() {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "The test embedder is down.")
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, wordDim)
		for _, w := range strings.Fields(strings.ToLower(text)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(w, ".,;:!?\"'()")))
			v[h.Sum32()%wordDim]++
		}
		recall.Normalize(v)
		out[i] = v
	}
	return out, nil
}

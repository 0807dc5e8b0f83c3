package hashing

import (
	"context"

	"github.com/recall-mem/recall"
)

// None is the embedder of a store configured without vectors
// ([retrieval] embedder = "none"): search is full-text only.
type None struct{}

var _ recall.Embedder = None{}

// Model returns "none".
func (None) Model() string { return "none" }

// Dim returns 0.
func (None) Dim() int { return 0 }

// Embed returns EUNAVAILABLE: there is no embedder.
func (None) Embed(context.Context, []string) ([][]float32, error) {
	return nil, recall.Errorf(recall.EUNAVAILABLE, "No embedder is configured ([retrieval] embedder = \"none\"): set it to builtin, openai or model2vec in config.toml, then run `recall reindex`.")
}

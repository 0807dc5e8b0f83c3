// Package model2vec embeds text with a model2vec static embedding model
// read from a local directory (model.safetensors and tokenizer.json, as
// published on the Hugging Face hub): each token has a fixed vector, and a
// text is the mean of its tokens' vectors, normalised. That is semantic
// (trained) yet needs no neural network at query time.
package model2vec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/recall-mem/recall"
)

// maxTokens caps the tokens pooled per text, as model2vec does by default.
const maxTokens = 512

// Embedder is a recall.Embedder over a model2vec model. The model is read
// on first use, so that opening a store does not pay for it. It is safe
// for concurrent use.
type Embedder struct {
	Dir string

	once    sync.Once
	err     error
	tok     *tokenizer
	vecs    []float32 // rows × dim
	rows    int
	dim     int
	weights []float32 // per token id, optional (quantised models)
	mapping []int     // token id → row, optional (vocabulary-reduced models)
}

var _ recall.Embedder = (*Embedder)(nil)

// New returns an Embedder for the model in dir.
func New(dir string) *Embedder { return &Embedder{Dir: dir} }

// Model names the model after its directory.
func (e *Embedder) Model() string { return "model2vec:" + filepath.Base(filepath.Clean(e.Dir)) }

// Dim returns the model's dimension, or 0 when it cannot be loaded.
func (e *Embedder) Dim() int {
	if e.load() != nil {
		return 0
	}
	return e.dim
}

// Embed returns the normalised mean of each text's token vectors (a zero
// vector for a text with no known token). Returns EUNAVAILABLE when the
// model cannot be loaded.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := e.load(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*e.dim)
	var ids []int
	for i, text := range texts {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v := flat[i*e.dim : (i+1)*e.dim : (i+1)*e.dim]
		ids = e.tok.encode(text, ids[:0])
		if len(ids) > maxTokens {
			ids = ids[:maxTokens]
		}
		e.pool(v, ids)
		out[i] = v
	}
	return out, nil
}

func (e *Embedder) pool(v []float32, ids []int) {
	n := 0
	for _, id := range ids {
		row, scale := id, float32(1)
		if e.mapping != nil {
			if id >= len(e.mapping) {
				continue
			}
			row = e.mapping[id]
		}
		if e.weights != nil && id < len(e.weights) {
			scale = e.weights[id]
		}
		if row < 0 || row >= e.rows {
			continue
		}
		for j, x := range e.vecs[row*e.dim : (row+1)*e.dim] {
			v[j] += x * scale
		}
		n++
	}
	if n > 0 {
		recall.Normalize(v) // the mean's 1/n vanishes under normalisation
	}
}

func (e *Embedder) load() error {
	e.once.Do(func() {
		if err := e.read(); err != nil {
			e.err = recall.Errorf(recall.EUNAVAILABLE, "Cannot load the model2vec model in %s: %v. Set [retrieval] model_path to a directory holding model.safetensors and tokenizer.json.", e.Dir, err)
		}
	})
	return e.err
}

func (e *Embedder) read() error {
	tbuf, err := os.ReadFile(filepath.Join(e.Dir, "tokenizer.json"))
	if err != nil {
		return errors.Unwrap(err)
	}
	if e.tok, err = parseTokenizer(tbuf); err != nil {
		return err
	}
	mbuf, err := os.ReadFile(filepath.Join(e.Dir, "model.safetensors"))
	if err != nil {
		return errors.Unwrap(err)
	}
	st, err := parseSafetensors(mbuf)
	if err != nil {
		return fmt.Errorf("model.safetensors: %w", err)
	}
	name := "embeddings"
	if _, ok := st.tensors[name]; !ok {
		name = "0" // older models
	}
	vecs, shape, err := st.floats(name)
	if err != nil {
		return fmt.Errorf("model.safetensors: %w", err)
	}
	if len(shape) != 2 || shape[0] == 0 || shape[1] == 0 {
		return fmt.Errorf("model.safetensors: embeddings have shape %v, want [tokens, dimensions]", shape)
	}
	e.vecs, e.rows, e.dim = vecs, int(shape[0]), int(shape[1])
	if _, ok := st.tensors["weights"]; ok {
		if e.weights, _, err = st.floats("weights"); err != nil {
			return fmt.Errorf("model.safetensors: %w", err)
		}
	}
	if _, ok := st.tensors["mapping"]; ok {
		if e.mapping, err = st.ints("mapping"); err != nil {
			return fmt.Errorf("model.safetensors: %w", err)
		}
	}
	return nil
}

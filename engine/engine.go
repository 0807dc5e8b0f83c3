package engine

import (
	"context"
	"path/filepath"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/redact"
)

// Engine is one open store with the parts its config names.
type Engine struct {
	parts Parts

	// Set by Open.
	Location *Location
	Config   *Config
	Store    recall.Store
	// Redactor cleans what the store writes; hooks clean their output
	// with it too. Nil when [redact] is off.
	Redactor recall.Redactor
	// Warn hears the warnings of background work (a deferred embedding),
	// which has no caller to return an error to.
	Warn func(format string, args ...any)
}

// New returns an engine that will open stores with parts.
func New(parts Parts) *Engine { return &Engine{parts: parts} }

// Parts returns the adapters the engine was built with.
func (e *Engine) Parts() Parts { return e.parts }

// OpenOptions says how Open treats a missing store.
type OpenOptions struct {
	// Create lets Open create a missing store; reads of a missing store
	// are an error, so a typo in --store never leaves a store behind.
	Create bool
}

// Open loads the config of the store at loc and opens it with its
// redactor and embedder.
func (e *Engine) Open(ctx context.Context, loc *Location, o OpenOptions) error {
	if !o.Create {
		if err := StoreExists(loc); err != nil {
			return err
		}
	}
	cfg, err := LoadConfig(filepath.Join(loc.Dir, ConfigFile))
	if err != nil {
		return err
	}
	red, err := NewRedactor(cfg.Redact)
	if err != nil {
		return err
	}
	emb, err := e.embedding(loc, cfg)
	if err != nil {
		return err
	}
	st, err := e.parts.OpenStore(filepath.Join(loc.Dir, DBFile), recall.StoreOptions{MaxContentBytes: cfg.Limits.MaxContentBytes, Redactor: red, Embedding: emb})
	if err != nil {
		return err
	}
	e.Location, e.Config, e.Store, e.Redactor = loc, cfg, st, red
	return nil
}

// Close closes the store, if open.
func (e *Engine) Close() {
	if e.Store != nil {
		e.Store.Close()
		e.Store = nil
	}
}

// embedding says how the store embeds every write: inline for a fast
// local embedder, through the queue otherwise.
func (e *Engine) embedding(loc *Location, cfg *Config) (*recall.EmbeddingOptions, error) {
	r := cfg.Retrieval
	if r.ModelPath != "" && !filepath.IsAbs(r.ModelPath) {
		r.ModelPath = filepath.Join(loc.Dir, r.ModelPath) // relative to the store
	}
	emb, inline, err := e.parts.NewEmbedder(r)
	if err != nil {
		return nil, err
	}
	o := &recall.EmbeddingOptions{Embedder: emb, Chunker: chunk.Splitter{}, Inline: inline, BatchSize: cfg.Retrieval.BatchSize}
	if !inline {
		// Only a server runs the loop (Store.Vectors().RunQueue); the
		// CLI drains on search and in `recall reindex`.
		o.Interval = QueueInterval(r)
	}
	o.OnError = func(err error) {
		if e.Warn != nil {
			e.Warn("recall: embedding deferred (memories stay queued; `recall reindex` catches up): %s\n", recall.ErrorMessage(err))
		}
	}
	return o, nil
}

// NewRedactor builds the secret redactor [redact] configures; nil when it
// is turned off.
func NewRedactor(cfg RedactConfig) (recall.Redactor, error) {
	if cfg.Enabled != nil && !*cfg.Enabled {
		return nil, nil
	}
	r, err := redact.New(redact.Config{Patterns: cfg.Patterns, Allow: cfg.AllowList})
	if err != nil {
		return nil, err
	}
	return r, nil
}

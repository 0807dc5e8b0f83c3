package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/embed"
	"github.com/recall-mem/recall/model2vec"
	"github.com/recall-mem/recall/openai"
	"github.com/recall-mem/recall/sentence"
)

// newEmbedder builds the embedder [retrieval] names. It reports whether
// writes embed inline, in their own transaction: only for an embedder fast
// enough not to slow them (hashing, model2vec, none). The built-in neural
// encoder and remote providers go through the queue, so that a write never
// waits for a model: the memory is searchable by text at once and by
// meaning when its vector lands.
func newEmbedder(cfg RetrievalConfig) (e recall.Embedder, inline bool, err error) {
	switch strings.ToLower(cfg.Embedder) {
	case "", "builtin":
		return builtinEncoder(), false, nil
	case "hashing":
		return embed.NewHashing(cfg.Dimensions), true, nil
	case "none":
		return embed.None{}, true, nil
	case "openai":
		if cfg.Endpoint == "" || cfg.Model == "" {
			return nil, false, recall.Errorf(recall.EINVALID, "The openai embedder needs [retrieval] endpoint (e.g. \"http://127.0.0.1:11434/v1\") and model (e.g. \"nomic-embed-text\") in config.toml.")
		}
		key := ""
		if cfg.APIKeyEnv != "" {
			key = os.Getenv(cfg.APIKeyEnv)
		}
		o := openai.New(cfg.Endpoint, cfg.Model, key)
		o.Dimensions, o.BatchSize = cfg.Dimensions, cfg.BatchSize
		if cfg.TimeoutSeconds > 0 {
			o.Timeout = time.Duration(cfg.TimeoutSeconds) * time.Second
		}
		return o, false, nil
	case "model2vec":
		if cfg.ModelPath == "" {
			return nil, false, recall.Errorf(recall.EINVALID, "The model2vec embedder needs [retrieval] model_path: a directory holding model.safetensors and tokenizer.json.")
		}
		return model2vec.New(cfg.ModelPath), true, nil
	}
	return nil, false, recall.Errorf(recall.EINVALID, "Unknown embedder %q in [retrieval] embedder: use builtin, hashing, openai, model2vec or none.", cfg.Embedder)
}

// builtinEncoder is the process's sentence encoder; tests swap it for a
// fresh one to see whether a command loaded the model.
var builtinEncoder = sentence.Default

// warnEmbedding prints one warning about embedding per process: a
// provider that is down fails every batch and every memory.
func (a *app) warnEmbedding(format string, args ...any) {
	if !a.embedWarned {
		a.embedWarned = true
		fmt.Fprintf(a.stderr, format, args...)
	}
}

// writeEmbedBudget bounds the embedding a command that queued memories
// tries before it exits, so that they are searchable by vector at once
// and a provider that is down is noticed (and costs a write this much).
const writeEmbedBudget = 2 * time.Second

// checkEmbedding runs after a command that queued memories for embedding
// (all its writes for a remote provider, failed ones for an inline
// embedder). It embeds them if the provider answers in time, and
// otherwise warns once on stderr that they wait and why: a write never
// fails for its vectors, but it must not hide that search cannot see them.
// The built-in encoder's queue is left to the next search, `serve` or
// `reindex`: it has no provider to be down, and loading the model would
// make every write pay for it.
func (a *app) checkEmbedding(ctx context.Context) {
	if a.vec == nil || a.vec.QueuedHere() == 0 || ctx.Err() != nil || isBuiltin(a.cfg.Retrieval) {
		return
	}
	_ = a.vec.DrainQueue(ctx, writeEmbedBudget) // a failure is recorded in the store
	st, err := a.vec.VectorStats(ctx)
	if err != nil {
		return
	}
	if st.Queued > 0 && st.ProviderError != "" {
		a.warnEmbedding("recall: warning: memories waiting for embedding: %d; search ranks them by full text only until it succeeds (`recall doctor` shows the queue): %s\n",
			st.Queued, st.ProviderError)
	}
}

// vectors is the vector searcher for the ranking code: nil before open.
func (a *app) vectors() recall.VectorSearcher { return a.vec }

// isTerminal reports whether f is a terminal, for progress bars.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

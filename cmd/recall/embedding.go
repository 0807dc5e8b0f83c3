package main

import (
	"os"
	"strings"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hashing"
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
func newEmbedder(cfg engine.RetrievalConfig) (e recall.Embedder, inline bool, err error) {
	switch strings.ToLower(cfg.Embedder) {
	case "", "builtin":
		return builtinEncoder(), false, nil
	case "hashing":
		return hashing.NewHashing(cfg.Dimensions), true, nil
	case "none":
		return hashing.None{}, true, nil
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

// isTerminal reports whether f is a terminal, for progress bars.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

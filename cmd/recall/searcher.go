package main

import (
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/retrieve"
	"github.com/recall-mem/recall/sqlite"
)

// searcherFor builds the searcher 'recall search', 'recall context' and
// 'recall bench locomo' use over a store, and describes its configuration
// for benchmark reports.
func (a *app) searcherFor(mem *sqlite.MemoryService, vec recall.VectorSearcher, cfg *Config) (recall.Searcher, map[string]any) {
	s := &retrieve.Searcher{Text: mem, Memories: mem, Vectors: vec, Now: func() time.Time { return time.Now().UTC() }, Options: retrieve.DefaultOptions()}
	expOptions(&s.Options)
	o := s.Options
	return s, map[string]any{
		"embedder": embedderName(cfg), "fusion": o.Fusion, "rrf_k": o.RRFK, "candidates": o.Candidates,
		"text_weight": o.TextWeight, "vector_weight": o.VectorWeight, "mmr_lambda": o.MMRLambda,
		"episode": o.Episode, "recency": o.Weights.Recency, "half_life_days": o.Weights.HalfLife.Hours() / 24,
	}
}

func embedderName(cfg *Config) string {
	if cfg.Retrieval.Embedder == "" {
		return "builtin"
	}
	return cfg.Retrieval.Embedder
}

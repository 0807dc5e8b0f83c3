package main

import (
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// searcherFor builds the searcher 'recall search' uses over a store, and
// describes its configuration for benchmarks.
func (a *app) searcherFor(db *sqlite.DB, mem *sqlite.MemoryService, cfg *Config) (recall.Searcher, map[string]any) {
	return mem, map[string]any{"embedder": "none", "fusion": "none"}
}

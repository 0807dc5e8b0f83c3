package main

import (
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/openai"
	"github.com/recall-mem/recall/sqlite"
)

// backend is where the program picks its adapters: the SQLite store and
// the providers config can name. This is the one file of the command that
// names the storage package.
func backend() engine.Parts {
	return engine.Parts{
		Backend:     sqlite.Backend{},
		NewEmbedder: newEmbedder,
		NewSummarizer: func(endpoint, model, apiKey string) recall.RollupSummarizer {
			return &openai.Summarizer{Endpoint: endpoint, Model: model, APIKey: apiKey}
		},
	}
}

package engine

import "github.com/recall-mem/recall"

// Parts are the adapters the program starts with: a storage backend and
// the embedders config names.
type Parts struct {
	// Backend opens the stores, the scratch ones of as-of searches too.
	Backend recall.Backend
	// NewEmbedder builds the embedder [retrieval] names and reports
	// whether writes may embed inline (a fast local embedder).
	NewEmbedder func(cfg RetrievalConfig) (e recall.Embedder, inline bool, err error)
	// NewSummarizer builds the chat model client [rollup] summarizer =
	// "chat" names, which rewords rollup summaries.
	NewSummarizer func(endpoint, model, apiKey string) recall.RollupSummarizer
}

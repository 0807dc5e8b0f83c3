package engine

import "github.com/recall-mem/recall"

// Parts are the adapters the program starts with: a storage backend and
// the embedders config names.
type Parts struct {
	// OpenStore opens, creating if needed, the store whose database is at
	// path. The engine also uses it for scratch stores (as-of searches).
	OpenStore func(path string, o recall.StoreOptions) (recall.Store, error)
	// CheckFiles inspects a store's files without opening them: doctor
	// runs it first, since opening may discard a damaged log.
	CheckFiles func(path string) []recall.FileProblem
	// IsCorrupt reports whether an open failed because the files are
	// damaged.
	IsCorrupt func(err error) bool
	// PurgeMatcher matches texts the way a purge's search does, for the
	// copies kept outside the store (markdown views); nil when c has no
	// search.
	PurgeMatcher func(c recall.PurgeCriteria) (func(text string) bool, error)
	// NewEmbedder builds the embedder [retrieval] names and reports
	// whether writes may embed inline (a fast local embedder).
	NewEmbedder func(cfg RetrievalConfig) (e recall.Embedder, inline bool, err error)
	// NewSummarizer builds the chat model client [rollup] summarizer =
	// "chat" names, which rewords rollup summaries.
	NewSummarizer func(endpoint, model, apiKey string) recall.RollupSummarizer
}

// Package bench is the harness behind 'recall bench': programs that build
// fresh temporary stores, measure them and return reports. It is internal
// tooling, free to open SQLite directly; what it measures, though, must be
// the product itself, so the parts users run (the configured embedder, the
// ranked searcher, a store opened as the CLI opens it) come in through
// Product, supplied by cmd/recall.
package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/recall-mem/recall"
)

// Product is how the program under measurement builds its parts. Each
// benchmark uses the fields its doc names; the rest may be nil.
type Product struct {
	// DBFile is the database's file name inside a store directory.
	DBFile string
	// Embedder returns the configured embedder and whether it embeds on
	// write (else the store queues and DrainQueue embeds). Used by Locomo.
	Embedder func() (e recall.Embedder, inline bool, err error)
	// Searcher builds the searcher 'recall search' runs over a store's
	// memories and vectors, and describes its settings for the report.
	// Used by Locomo; see ProductSearcher.
	Searcher func(mem recall.MemoryStore, vec recall.VectorSearcher) (recall.Searcher, map[string]any)
	// Scratch, when set, opens a new empty store with o for one
	// conversation of Locomo and returns a function that closes and
	// removes it (a server's namespace); nil means a SQLite store in a
	// temporary directory.
	Scratch func(ctx context.Context, o recall.StoreOptions) (st recall.Store, remove func(), err error)
	// Open opens (creating) the store in dir exactly as the CLI's commands
	// do, with embedder ("" for the default) set in its configuration.
	// Used by Scale.
	Open func(ctx context.Context, dir, embedder string) (*Store, error)
}

// ProductSearcher adapts the program's searcher constructor, which takes
// memories, vectors, a history reader for --as-of (none here) and its own
// configuration type, to Product.Searcher.
func ProductSearcher[C any](build func(recall.MemoryStore, recall.VectorSearcher, recall.HistoryReader, C) (recall.Searcher, map[string]any), cfg C) func(recall.MemoryStore, recall.VectorSearcher) (recall.Searcher, map[string]any) {
	return func(mem recall.MemoryStore, vec recall.VectorSearcher) (recall.Searcher, map[string]any) {
		return build(mem, vec, nil, cfg)
	}
}

// Store is a store opened by Product.Open: the services the CLI's commands
// use on it.
type Store struct {
	Memories recall.MemoryStore
	Vectors  recall.VectorStore // nil without an embedder
	Search   recall.Searcher
	Context  recall.ContextBuilder // nil when the program builds no contexts
	Embedder recall.Embedder       // the configured one, named in reports
	// Close closes the store; calling it again does nothing.
	Close func()
}

// Latency summarises durations in milliseconds.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

// percentiles summarises durations in milliseconds (nearest rank).
func percentiles(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(p float64) float64 {
		i := int(p*float64(len(s))+0.5) - 1
		return float64(s[min(max(i, 0), len(s)-1)].Microseconds()) / 1000
	}
	return Latency{P50: at(0.50), P95: at(0.95), P99: at(0.99)}
}

// storeBytes is the size of a store's database and its WAL.
func storeBytes(dir, dbFile string) int64 {
	var total int64
	for _, name := range []string{dbFile, dbFile + "-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			total += fi.Size()
		}
	}
	return total
}

// table returns a tabwriter for the reports' tables, aligned as the CLI's.
func table(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

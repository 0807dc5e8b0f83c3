package main

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/ftsquery"
	"github.com/recall-mem/recall/openai"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/sqlite"
)

// backend is where the program picks its adapters: the storage backends
// and the providers config can name. This is the one file of the command
// that names the storage packages.
func backend() engine.Parts {
	return engine.Parts{
		Backend:     storeBackend{},
		NewEmbedder: newEmbedder,
		NewSummarizer: func(endpoint, model, apiKey string) recall.RollupSummarizer {
			return &openai.Summarizer{Endpoint: endpoint, Model: model, APIKey: apiKey}
		},
	}
}

// storeBackend picks the storage by what the engine asks it to open: a
// postgres:// URL is a PostgreSQL store, anything else a SQLite file (the
// default, and every scratch store).
type storeBackend struct{}

func (storeBackend) pick(path string) (recall.Backend, error) {
	if !engine.IsStoreURL(path) {
		return sqlite.Backend{}, nil
	}
	if postgres.IsURL(path) {
		return postgres.Backend{}, nil
	}
	return nil, recall.Errorf(recall.EINVALID, "Unknown store %s: recall stores memories in a directory (SQLite) or on PostgreSQL (postgres://user@host:5432/dbname).", recall.RedactURL(path))
}

func (b storeBackend) OpenStore(path string, o recall.StoreOptions) (recall.Store, error) {
	be, err := b.pick(path)
	if err != nil {
		return nil, err
	}
	return be.OpenStore(path, o)
}

func (b storeBackend) CheckFiles(path string) []recall.FileProblem {
	if be, err := b.pick(path); err == nil {
		return be.CheckFiles(path)
	}
	return nil
}

// IsCorrupt asks SQLite: a PostgreSQL error never means damaged files
// recall could set aside.
func (storeBackend) IsCorrupt(err error) bool { return sqlite.IsCorrupt(err) }

// PurgeMatcher is the same on every backend: the query language is
// ftsquery's.
func (storeBackend) PurgeMatcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	return ftsquery.Matcher(c)
}

// dropServerNamespace deletes every row of the namespace a server URL
// names (a benchmark's throw-away namespace).
func dropServerNamespace(ctx context.Context, url string) error {
	return postgres.DropNamespace(ctx, url)
}

package httpapi_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/hashing"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/sqlite"
)

// openEngine opens an engine on a new real SQLite store in a temporary
// project (the store is <dir>/.recall, the managed files live in <dir>),
// with the hashing embedder, which needs no model. The store's integrity
// is checked when the test ends.
func openEngine(tb testing.TB) *engine.Engine {
	tb.Helper()
	e := engine.New(engine.Parts{
		Backend: sqlite.Backend{},
		NewEmbedder: func(engine.RetrievalConfig) (recall.Embedder, bool, error) {
			return hashing.NewHashing(64), true, nil
		},
	})
	e.StoreFlag = filepath.Join(tb.TempDir(), engine.ProjectDir)
	e.Log = &bytes.Buffer{}
	if err := e.OpenForWrite(context.Background()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := e.Check(context.Background()); err != nil {
			tb.Errorf("integrity: %v", err)
		}
		e.Close()
	})
	return e
}

// newServer starts srv on a loopback httptest server and returns a client
// for it.
func newServer(t testing.TB, srv *httpapi.Server) (*httptest.Server, *httpapi.Client) {
	t.Helper()
	if srv.RequestTimeout == 0 {
		srv.RequestTimeout = time.Minute
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts, httpapi.NewClient(ts.URL, srv.Token)
}

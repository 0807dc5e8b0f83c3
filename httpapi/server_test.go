package httpapi_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/sqlite"
)

// openDB opens a store in a temporary directory and checks its integrity
// when the test ends.
func openDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db := sqlite.NewDB(filepath.Join(tb.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Check(context.Background()); err != nil {
			tb.Error(err)
		}
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}

// sqliteServices is the real services over db.
func sqliteServices(db *sqlite.DB) recall.Services {
	mem := sqlite.NewMemoryService(db)
	return recall.Services{Memories: mem, Search: mem, Observations: sqlite.NewObservationService(db)}
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

package httpapi_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// openDB opens a real store that checks its integrity when the test ends.
func openDB(tb testing.TB) *sqlite.DB { return sqlitetest.MustOpenDB(tb) }

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

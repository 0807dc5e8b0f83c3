// Package sqlitetest opens real SQLite stores for tests in any package and
// checks their integrity when each test ends.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall/sqlite"
)

// Clock is the fixed time a store from MustOpenDB reads as now.
var Clock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// MustOpenDB opens a store in a temporary directory with the clock fixed at
// Clock, and checks PRAGMA integrity_check and FTS5 integrity on cleanup.
func MustOpenDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	return openDB(tb, filepath.Join(tb.TempDir(), "recall.db"), func() time.Time { return Clock })
}

// OpenAt opens (or creates) the store at path with the wall clock, and
// checks and closes it on cleanup like MustOpenDB: for tests that need a
// given path, or several handles on one store as several processes have.
func OpenAt(tb testing.TB, path string) *sqlite.DB {
	tb.Helper()
	return openDB(tb, path, nil)
}

func openDB(tb testing.TB, path string, now func() time.Time) *sqlite.DB {
	tb.Helper()
	db := sqlite.NewDB(path)
	if now != nil {
		db.Now = now
	}
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

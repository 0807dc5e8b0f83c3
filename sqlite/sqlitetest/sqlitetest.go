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
	db := sqlite.NewDB(filepath.Join(tb.TempDir(), "recall.db"))
	db.Now = func() time.Time { return Clock }
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

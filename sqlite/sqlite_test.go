package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-mem/recall/sqlite"
)

// MustOpenDB opens a store in a temporary directory with a fixed clock and
// checks its integrity when the test ends.
func MustOpenDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db := sqlite.NewDB(filepath.Join(tb.TempDir(), "recall.db"))
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	db.Now = func() time.Time { return clock }
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

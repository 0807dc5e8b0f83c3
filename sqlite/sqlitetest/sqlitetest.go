// Package sqlitetest opens real SQLite stores for tests in any package and
// checks their integrity when each test ends.
package sqlitetest

import (
	"context"
	"os"
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

// CopyWithWAL copies the open store's database file and its write-ahead
// log into dir, as a crash would leave them: the writes since the last
// checkpoint are only in the copy of the log. It returns the copy's path.
func CopyWithWAL(tb testing.TB, db *sqlite.DB, dir string) string {
	tb.Helper()
	dst := filepath.Join(dir, filepath.Base(db.Path))
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(db.Path + suffix)
		if err != nil {
			tb.Fatal(err)
		}
		if suffix == "-wal" && len(b) == 0 {
			tb.Fatal("the write-ahead log is empty: nothing to copy")
		}
		if err := os.WriteFile(dst+suffix, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return dst
}

// Overwrite writes b into the file at path at offset, in place: damage
// for tests of what notices it.
func Overwrite(tb testing.TB, path string, offset int64, b []byte) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, offset); err != nil {
		tb.Fatal(err)
	}
}

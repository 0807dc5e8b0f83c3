package sqlite_test

import (
	"testing"

	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// MustOpenDB opens a store in a temporary directory with a fixed clock and
// checks its integrity when the test ends (see sqlitetest, which other
// packages' tests share).
func MustOpenDB(tb testing.TB) *sqlite.DB { return sqlitetest.MustOpenDB(tb) }

package sqlite

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// A store a newer recall has migrated is refused with what to do, and left
// as it was: this binary cannot know what the unknown migration changed,
// so it applies none of its own either (here 0020, which the store lacks).
func TestOpen_NewerStoreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recall.db")
	old, exec := oldStore(t, path, "migrations/0020")
	exec(`INSERT INTO migrations (name) VALUES ('migrations/9999_future.sql')`)
	count := func(q *sql.DB) int {
		t.Helper()
		var n int
		if err := q.QueryRow(`SELECT COUNT(*) FROM migrations`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count(old)
	old.Close()

	db := NewDB(path)
	err := db.Open()
	if err == nil {
		db.Close()
		t.Fatal("a store migrated by a newer recall opened")
	}
	if recall.ErrorCode(err) != recall.ECONFLICT || !strings.Contains(err.Error(), "9999_future.sql") || !strings.Contains(err.Error(), "newer recall") {
		t.Fatalf("error = %v (%s); want a conflict naming the migration and a newer recall", err, recall.ErrorCode(err))
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if after := count(raw); after != before {
		t.Fatalf("%d migrations recorded after the refusal, %d before", after, before)
	}
}

package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// walStore returns a copy of a store whose last writes are only in its
// write-ahead log, the way a crash leaves it, and how many memories it holds.
func walStore(t *testing.T) (string, int) {
	t.Helper()
	db := sqlitetest.MustOpenDB(t)
	mem := sqlite.NewMemoryService(db)
	const n = 6
	for i := 0; i < n; i++ {
		if _, err := mem.PutMemory(context.Background(), &recall.Memory{Title: "note " + string(rune('a'+i)), Content: strings.Repeat("words about the deploy ", 40)}); err != nil {
			t.Fatal(err)
		}
	}
	return sqlitetest.CopyWithWAL(t, db, t.TempDir()), n
}

// countMemories opens the store at path and counts its memories.
func countMemories(t *testing.T, path string) int {
	t.Helper()
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, total, err := sqlite.NewMemoryService(db).FindMemories(context.Background(), recall.MemoryFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

func TestCheckFiles(t *testing.T) {
	t.Run("Healthy", func(t *testing.T) {
		path, n := walStore(t)
		if p := sqlite.CheckFiles(path); len(p) != 0 {
			t.Fatalf("problems in a healthy store: %+v", p)
		}
		if got := countMemories(t, path); got != n {
			t.Fatalf("the copy holds %d memories, want %d: the log was not replayed", got, n)
		}
	})
	t.Run("GarbageLog", func(t *testing.T) {
		path, n := walStore(t)
		sqlitetest.Overwrite(t, path+"-wal", 0, []byte(strings.Repeat("garbage!", 64)))
		p := sqlite.CheckFiles(path)
		if len(p) != 1 || !p[0].Lost || !strings.Contains(p[0].Problem, "write-ahead log header") {
			t.Fatalf("problems %+v", p)
		}
		// What the check warns of: SQLite drops the log without an error.
		if got := countMemories(t, path); got >= n {
			t.Fatalf("the copy holds %d memories after its log was overwritten, want fewer than %d", got, n)
		}
	})
	t.Run("DamagedFrame", func(t *testing.T) {
		path, _ := walStore(t)
		sqlitetest.Overwrite(t, path+"-wal", 32+24+100, []byte("flipped"))
		p := sqlite.CheckFiles(path)
		if len(p) != 1 || !p[0].Lost || !strings.Contains(p[0].Problem, "frame 1 of") {
			t.Fatalf("problems %+v", p)
		}
	})
	t.Run("TruncatedLog", func(t *testing.T) {
		path, _ := walStore(t)
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path+"-wal", fi.Size()-1000); err != nil {
			t.Fatal(err)
		}
		p := sqlite.CheckFiles(path)
		if len(p) != 1 || p[0].Lost || !strings.Contains(p[0].Problem, "incomplete frame") {
			t.Fatalf("problems %+v", p)
		}
	})
	t.Run("NotADatabase", func(t *testing.T) {
		path, _ := walStore(t)
		// Without its log: the log holds a newer first page, which SQLite
		// would read instead of the file's.
		if err := os.Remove(path + "-wal"); err != nil {
			t.Fatal(err)
		}
		sqlitetest.Overwrite(t, path, 0, []byte("this is not a database at all"))
		p := sqlite.CheckFiles(path)
		if len(p) == 0 || p[0].File != path || !p[0].Lost || !strings.Contains(p[0].Problem, "SQLite's header") {
			t.Fatalf("problems %+v", p)
		}
		db := sqlite.NewDB(path)
		err := db.Open()
		if err == nil {
			db.Close()
			t.Fatal("opened a file that is not a database")
		}
		if !sqlite.IsCorrupt(err) {
			t.Fatalf("IsCorrupt(%v) = false", err)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		if p := sqlite.CheckFiles(filepath.Join(t.TempDir(), "recall.db")); len(p) != 0 {
			t.Fatalf("problems %+v", p)
		}
	})
}

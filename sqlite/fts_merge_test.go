package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/recall-mem/recall"
)

// ftsSegments reads how many segments the memories' FTS5 index has from
// its structure record (the row of id 10): a four-byte cookie, then the
// number of levels and of segments as SQLite varints.
func ftsSegments(t *testing.T, db *DB) int {
	t.Helper()
	var b []byte
	if err := db.read.QueryRow(`SELECT block FROM memories_fts_data WHERE id = 10`).Scan(&b); err != nil {
		t.Fatal(err)
	}
	varint := func(i int) (int, int) {
		v := 0
		for k := 0; k < 9; k++ {
			c := int(b[i])
			i++
			if k == 8 {
				return v<<8 | c, i
			}
			v = v<<7 | c&0x7f
			if c&0x80 == 0 {
				break
			}
		}
		return v, i
	}
	_, i := varint(4) // levels
	n, _ := varint(i)
	return n
}

// importStore opens a store whose FTS5 index flushes its pending terms
// every 4 KB (1 MB is FTS5's default), so that an import of a few
// thousand memories writes several segments, as a large one does.
func importStore(t *testing.T) (*DB, *MemoryService) {
	t.Helper()
	db := NewDB(filepath.Join(t.TempDir(), "recall.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.write.Exec(`INSERT INTO memories_fts(memories_fts, rank) VALUES ('hashsize', 4096)`); err != nil {
		t.Fatal(err)
	}
	return db, NewMemoryService(db)
}

func importedMemories(from, n int) []*recall.Memory {
	var ms []*recall.Memory
	for i := from; i < from+n; i++ {
		ms = append(ms, &recall.Memory{Content: fmt.Sprintf("imported memory %d about word%d and word%d", i, i%97, i%89)})
	}
	return ms
}

// TestImport_MergesFullTextIndex: an import that is most of the store
// leaves the memories' full-text index in one segment, by either import
// path, with the same search results; a small import into a larger store
// does not rewrite the index.
func TestImport_MergesFullTextIndex(t *testing.T) {
	ctx := context.Background()
	t.Run("Batch", func(t *testing.T) {
		db, s := importStore(t)
		if _, err := s.ImportMemories(ctx, importedMemories(0, 3000)); err != nil {
			t.Fatal(err)
		}
		if n := ftsSegments(t, db); n != 1 {
			t.Fatalf("%d segments after importing 3,000 memories into an empty store, want 1", n)
		}
		hits, err := s.Search(ctx, recall.SearchQuery{Text: "word5 word7", Limit: 5})
		if err != nil || len(hits) != 5 {
			t.Fatalf("search after the merge: %d hits, %v", len(hits), err)
		}
	})
	t.Run("Stream", func(t *testing.T) {
		db, s := importStore(t)
		ms := importedMemories(0, 3000)
		stream := func(yield func(*recall.Memory, error) bool) {
			for _, m := range ms {
				if !yield(m, nil) {
					return
				}
			}
		}
		if _, err := s.ImportMemoryStream(ctx, stream); err != nil {
			t.Fatal(err)
		}
		if n := ftsSegments(t, db); n != 1 {
			t.Fatalf("%d segments after streaming 3,000 memories into an empty store, want 1", n)
		}
	})
	t.Run("SmallImportKeepsSegments", func(t *testing.T) {
		db, s := importStore(t)
		if _, err := s.ImportMemories(ctx, importedMemories(0, 5000)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportMemories(ctx, importedMemories(5000, 1000)); err != nil {
			t.Fatal(err)
		}
		if n := ftsSegments(t, db); n < 2 {
			t.Fatalf("%d segments after importing 1,000 memories into 5,000: the import merged the whole index", n)
		}
	})
}

// An import is large (its index is merged after it) when it is at least a
// quarter of the store, counted exactly at the boundary.
func TestImportIsLarge(t *testing.T) {
	ctx := context.Background()
	db, s := importStore(t)
	if _, err := s.ImportMemories(ctx, importedMemories(0, 400)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int
		want bool
	}{{1, false}, {99, false}, {100, true}, {101, true}, {400, true}, {5000, true}} {
		if got := db.importIsLarge(ctx, c.n); got != c.want {
			t.Errorf("%d of 400 memories: large %v, want %v", c.n, got, c.want)
		}
	}
}

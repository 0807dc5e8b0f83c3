package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recall-mem/recall"
)

// The readers map the database file; the writer reads into its cache.
func TestReadPool_ReadersMapTheFile(t *testing.T) {
	if readerMmapBytes == 0 {
		t.Skip("readers do not map the file on this system")
	}
	db := openDB(t)
	ctx := context.Background()
	if _, err := NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "a note"}); err != nil {
		t.Fatal(err)
	}
	var reader, writer int64
	if err := db.read.QueryRowContext(ctx, `PRAGMA mmap_size`).Scan(&reader); err != nil {
		t.Fatal(err)
	}
	if err := db.write.QueryRowContext(ctx, `PRAGMA mmap_size`).Scan(&writer); err != nil {
		t.Fatal(err)
	}
	// SQLite clamps the setting to its build's ceiling (0x7fff0000).
	if reader < 1<<30 || writer != 0 {
		t.Errorf("mmap_size: readers %d, writer %d; want at least 1 GiB and 0", reader, writer)
	}
}

// A reader that mapped the file keeps reading right after another
// connection (another process, as a purge is) shrinks the file under it:
// VACUUM moves the rows to other pages, the truncating checkpoint cuts
// the file to a fraction of what was mapped.
func TestReadPool_MappedReadersSeeAShrunkFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	open := func() *DB {
		db := NewDB(path)
		db.ForWrite = true
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	reading, purging := open(), open()
	// 8 MiB of padding first, so that the memories written next sit
	// behind it in the file and move when it goes.
	for _, q := range []string{
		`CREATE TABLE pad(b BLOB)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 512) INSERT INTO pad SELECT randomblob(16384) FROM n`,
	} {
		if _, err := purging.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var batch []*recall.Memory
	for i := range 300 {
		batch = append(batch, &recall.Memory{Content: fmt.Sprintf("memory %d about mapped pages", i)})
	}
	if _, err := NewMemoryService(purging).ImportMemories(ctx, batch); err != nil {
		t.Fatal(err)
	}
	// Into the file, where the readers map it from.
	if ok, err := purging.checkpointTruncate(ctx, 5); !ok || err != nil {
		t.Fatalf("checkpoint: %v, %v", ok, err)
	}
	s := NewMemoryService(reading)
	read := func() (contents []string, hits int) {
		t.Helper()
		ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			contents = append(contents, m.Content)
		}
		slices.Sort(contents)
		found, err := s.Search(ctx, recall.SearchQuery{Text: "mapped pages", Mode: recall.ModeBM25, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		return contents, len(found)
	}
	var padded int64
	if err := reading.read.QueryRowContext(ctx, `SELECT sum(length(b)) FROM pad`).Scan(&padded); err != nil || padded != 512*16384 {
		t.Fatalf("padding read through a reader: %d bytes, %v", padded, err)
	}
	before, hitsBefore := read()
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	mapped := size()
	if _, err := purging.write.ExecContext(ctx, `DROP TABLE pad`); err != nil {
		t.Fatal(err)
	}
	if ok, err := purging.vacuum(ctx, 5); !ok || err != nil {
		t.Fatalf("vacuum: %v, %v", ok, err)
	}
	if ok, err := purging.checkpointTruncate(ctx, 5); !ok || err != nil {
		t.Fatalf("checkpoint: %v, %v", ok, err)
	}
	if now := size(); now > mapped/4 {
		t.Fatalf("the file went from %d to %d bytes; want it cut to under a quarter", mapped, now)
	}
	after, hitsAfter := read()
	if len(before) != len(batch) || !slices.Equal(before, after) || hitsBefore != len(batch) || hitsAfter != hitsBefore {
		t.Errorf("before the purge %d memories, %d hits; after %d, %d; want %d each, the same contents", len(before), hitsBefore, len(after), hitsAfter, len(batch))
	}
}

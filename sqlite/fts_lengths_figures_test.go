package sqlite

import (
	"context"
	"database/sql"
	"runtime"
	"testing"
	"time"
)

// TestLengthsReadFigures times, on a kept store's recall.db
// (RECALL_LENGTHS_STORE), the read of every row's length a chunk at a
// time as a search does it (each chunk's CPU, the largest and the sum),
// against one row of the driver a rowid (the read before the chunks).
// Five rounds; the statements run on this goroutine's thread, whose CPU
// time is theirs.
func TestLengthsReadFigures(t *testing.T) {
	s, _, _ := openKeptStore(t, "RECALL_LENGTHS_STORE", "RECALL_LENGTHS_QUERIES", 0)
	ctx := context.Background()
	m, err := s.matchExpr(ctx, "jio")
	if err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for round := range 5 {
		c0 := threadCPU(t)
		rows, err := s.db.read.QueryContext(ctx, `SELECT id, sz FROM memories_fts_docsize`)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var id int64
			var sz sql.RawBytes
			if err := rows.Scan(&id, &sz); err != nil {
				t.Fatal(err)
			}
			if _, ok := docTokens(sz); !ok {
				t.Fatalf("row %d: no length", id)
			}
			n++
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		byRow := threadCPU(t) - c0
		var lens []int32
		var from int64
		var sum, most time.Duration
		chunks := 0
		for from >= 0 {
			c := threadCPU(t)
			lens, from, _, err = s.readLengths(ctx, m, lens, from, lengthsChunk)
			if err != nil || lens == nil {
				t.Fatalf("chunk %d: %v", chunks, err)
			}
			d := threadCPU(t) - c
			sum, most, chunks = sum+d, max(most, d), chunks+1
		}
		t.Logf("round %d: %d rows; a row a rowid %v CPU; %d chunks of %d rowids %v CPU (the largest %v)",
			round+1, n, byRow, chunks, lengthsChunk, sum, most)
	}
}

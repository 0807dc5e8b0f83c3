//go:build linux

package sqlite

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestOwnBM25ConcurrentFigures measures, on a copy of a kept benchmark
// store's recall.db (RECALL_OWN_BM25_STORE, as TestOwnBM25Figures),
// what twenty searches at once of a common word cost the process the
// first time they may read the word's rows (as under 'recall serve'):
// for the commonest words whose searches score only their newest rows,
// one search (bm25()'s) then twenty on as many goroutines, the
// process's CPU over the twenty logged. RECALL_OWN_BM25_WORDS sets the
// words (8).
func TestOwnBM25ConcurrentFigures(t *testing.T) {
	path := os.Getenv(ownBM25Env)
	if path == "" {
		t.Skipf("%s not set", ownBM25Env)
	}
	ctx := context.Background()
	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := NewMemoryService(db)
	s.db.lengths.after = 1 // read at the first search: the twenty have them
	where, args, err := whereMemories(recall.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	rows, err := db.read.QueryContext(ctx, `SELECT term FROM `+ftsTermRows+` ORDER BY doc DESC LIMIT 100`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			t.Fatal(err)
		}
		words = append(words, w)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	search := func(m ftsMatch) error {
		_, err := s.searchWindow(ctx, m, where, args, 100, 10, true, false)
		return err
	}
	want := envCount(t, "RECALL_OWN_BM25_WORDS", 8)
	var total time.Duration
	n := 0
	for _, w := range words {
		m, err := s.matchExpr(ctx, w)
		if err != nil || m.from == 0 || len(m.terms) != 1 {
			continue
		}
		if err := search(m); err != nil {
			t.Fatal(err)
		}
		c0 := processCPU()
		errs := make(chan error, 20)
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() { errs <- search(m) })
		}
		wg.Wait()
		d := processCPU() - c0
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%-16s from rowid %d: 20 searches at once, %v CPU", w, m.from, d)
		total += d
		if n++; n == want {
			break
		}
	}
	if n > 0 {
		t.Logf("%d words: %.1f CPU-ms a word's 20 searches", n, float64(total.Microseconds())/1000/float64(n))
	}
}

// processCPU is the process's user and system CPU so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

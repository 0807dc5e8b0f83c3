package sqlite_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// pruneKeep prunes the 4h and daily rollups of seedStream a day after
// their week: every one of them at day 22 (seededPrunable).
var pruneKeep = map[string]time.Duration{recall.Bucket4h: 24 * time.Hour, recall.BucketDaily: 24 * time.Hour}

const seededPrunable = 144

// countingPrunes makes db report, through BeforeWrite, how many rollups
// each write transaction deleted (only those that deleted some), and
// runs stop after the transaction that made it stopAfter of them.
func countingPrunes(t *testing.T, db *sqlite.DB, s *sqlite.RollupService, stopAfter int, stop func()) *[]int {
	t.Helper()
	count := func() int {
		all := "*"
		rs, err := s.FindRollups(context.Background(), recall.RollupFilter{Status: &all})
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	var deleted []int
	db.BeforeWrite = func(context.Context) (func(), error) {
		before := count()
		return func() {
			if d := before - count(); d > 0 {
				deleted = append(deleted, d)
				if len(deleted) == stopAfter {
					stop()
				}
			}
		}, nil
	}
	return &deleted
}

// The session upkeep lets hooks go between its write transactions, so
// pruning a backlog's rollups is done in transactions of at most
// PruneBatch rollups each, not in one; it deletes what one transaction
// would.
func TestRunRollups_PrunesInBoundedTransactions(t *testing.T) {
	now := day0.AddDate(0, 0, 22)
	_, whole := seededStore(t)
	wantRep := mustRun(t, whole, recall.RollupRun{Now: now, Keep: pruneKeep})
	if wantRep.Pruned != seededPrunable {
		t.Fatalf("the reference run pruned %d, want seededPrunable", wantRep.Pruned)
	}

	db, s := seededStore(t)
	deleted := countingPrunes(t, db, s, -1, nil)
	rep := mustRun(t, s, recall.RollupRun{Now: now, Keep: pruneKeep})
	if rep.Pruned != wantRep.Pruned || !rep.Done {
		t.Fatalf("pruned %d (done %v), want %d", rep.Pruned, rep.Done, wantRep.Pruned)
	}
	total := 0
	for _, n := range *deleted {
		if n > sqlite.PruneBatch {
			t.Errorf("a transaction deleted %d rollups, want at most %d", n, sqlite.PruneBatch)
		}
		total += n
	}
	if total != wantRep.Pruned || len(*deleted) < wantRep.Pruned/sqlite.PruneBatch {
		t.Fatalf("transactions deleted %v (%d in all), want %d in batches of %d", *deleted, total, wantRep.Pruned, sqlite.PruneBatch)
	}
}

// A run stopped between two pruning transactions keeps what the first
// deleted, is not done, and the next run ends where a run in one go
// does: the same rollups, links and full-text entries.
func TestRunRollups_StoppedPruneResumes(t *testing.T) {
	ctx := context.Background()
	now := day0.AddDate(0, 0, 22)
	wholeDB, whole := seededStore(t)
	mustRun(t, whole, recall.RollupRun{Now: now, Keep: pruneKeep})
	want := dump(t, whole)
	wantLinks, err := wholeDB.RollupLinks(ctx)
	if err != nil {
		t.Fatal(err)
	}

	db, s := seededStore(t)
	stopped, stop := context.WithCancel(ctx)
	deleted := countingPrunes(t, db, s, 2, stop)
	rep, err := s.RunRollups(stopped, recall.RollupRun{Now: now, Keep: pruneKeep})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Done || len(*deleted) != 2 || rep.Pruned != (*deleted)[0]+(*deleted)[1] {
		t.Fatalf("stopped run: done %v, pruned %d, transactions %v", rep.Done, rep.Pruned, *deleted)
	}
	if got := dump(t, s); len(got) != len(want)+seededPrunable-rep.Pruned {
		t.Fatalf("after the stopped run %d rollups, want %d", len(got), len(want)+seededPrunable-rep.Pruned)
	}
	rep = mustRun(t, s, recall.RollupRun{Now: now, Keep: pruneKeep})
	if !rep.Done || rep.Pruned != seededPrunable-(*deleted)[0]-(*deleted)[1] {
		t.Fatalf("resumed run: done %v, pruned %d", rep.Done, rep.Pruned)
	}
	if got := dump(t, s); !slices.Equal(got, want) {
		t.Fatalf("resumed rollups differ from a run in one go:\n%v\nwant\n%v", got, want)
	}
	links, err := db.RollupLinks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(links, wantLinks) {
		t.Fatalf("resumed links and full-text entries differ from a run in one go (%d rows, want %d)", len(links), len(wantLinks))
	}
}

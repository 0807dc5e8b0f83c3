package sqlite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

// A store whose rollups all lack a key (rollups of observations, what
// hooks record) has no current rollup: CurrentRollups says so without
// the window query that reads every rollup row, and once a keyed rollup
// exists it runs that query and finds it.
func TestCurrentRollups_UnkeyedStoreRunsNoScan(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	var obs []*recall.Observation
	for d := 0; d < 10; d++ {
		obs = append(obs, &recall.Observation{At: day0.AddDate(0, 0, d).Add(9 * time.Hour), Type: "command", Content: fmt.Sprintf("go test ./pkg%d", d%3)})
	}
	if err := sqlite.NewObservationService(db).RecordObservations(ctx, obs); err != nil {
		t.Fatal(err)
	}
	s := newRollups(t, db)
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 1, 0)})
	if n, err := db.Strings(ctx, `SELECT COUNT(*) FROM memory_rollups WHERE key = ''`); err != nil || n[0] == "0" {
		t.Fatalf("unkeyed rollups = %v, %v; want some", n, err)
	}

	before := sqlite.CurrentRollupScans()
	rs, err := s.CurrentRollups(ctx, recall.RollupFilter{})
	if err != nil || len(rs) != 0 {
		t.Fatalf("current rollups = %d, %v; want none", len(rs), err)
	}
	if n := sqlite.CurrentRollupScans() - before; n != 0 {
		t.Errorf("window queries run = %d; want 0 without a keyed rollup", n)
	}

	seedStream(t, db) // adds keyed preferences and facts
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 2, 0)})
	rs, err = s.CurrentRollups(ctx, recall.RollupFilter{})
	if err != nil || len(rs) == 0 {
		t.Fatalf("current rollups = %d, %v; want the keyed ones", len(rs), err)
	}
	for _, r := range rs {
		if r.Key == "" {
			t.Errorf("current rollup %s has no key", r.ID)
		}
	}
	if n := sqlite.CurrentRollupScans() - before; n != 1 {
		t.Errorf("window queries run = %d; want 1 once keyed rollups exist", n)
	}
}

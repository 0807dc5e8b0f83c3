package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/rollup"
)

var day0 = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC) // a Monday

// seedStream records three weeks of a preference that changes on day 10,
// a stable fact and commands.
func seedStream(t *testing.T, st *postgres.Store) {
	t.Helper()
	var obs []*recall.Observation
	for d := 0; d < 21; d++ {
		at := day0.AddDate(0, 0, d)
		editor := "uses vim"
		if d >= 10 {
			editor = "uses helix"
		}
		obs = append(obs,
			&recall.Observation{At: at.Add(9 * time.Hour), Type: "preference", Key: "editor", Content: editor},
			&recall.Observation{At: at.Add(15 * time.Hour), Type: "preference", Key: "editor", Content: editor},
			&recall.Observation{At: at.Add(10 * time.Hour), Type: "fact", Key: "city", Content: "lives in Berlin"},
			&recall.Observation{At: at.Add(11 * time.Hour), Type: "command", Content: fmt.Sprintf("go test ./pkg%d", d%3)},
		)
	}
	if err := st.Observations().RecordObservations(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
}

func rollups(t *testing.T, st *postgres.Store) recall.RollupStore {
	t.Helper()
	p, err := rollup.NewPolicy("UTC")
	if err != nil {
		t.Fatal(err)
	}
	return st.Rollups(p)
}

// TestRollupService_RunRollups runs the rollup job on PostgreSQL: every
// tier is built, raw entries are compacted, the newer value of a key wins,
// a dry run writes nothing, a second run finds nothing left, and the
// rollups are found by id, by filter and by their words.
func TestRollupService_RunRollups(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, recall.StoreOptions{})
	seedStream(t, st)
	r := rollups(t, st)
	now := day0.AddDate(0, 2, 0)

	dry, err := r.RunRollups(ctx, recall.RollupRun{Now: now, DryRun: true})
	if err != nil || !dry.Done || len(dry.Written) == 0 {
		t.Fatalf("dry run = %+v, %v", dry, err)
	}
	if got, _ := r.FindRollups(ctx, recall.RollupFilter{}); len(got) != 0 {
		t.Fatalf("a dry run wrote %d rollups", len(got))
	}

	rep, err := r.RunRollups(ctx, recall.RollupRun{Now: now})
	if err != nil || !rep.Done {
		t.Fatalf("RunRollups = %+v, %v", rep, err)
	}
	if rep.Compacted != 84 {
		t.Errorf("compacted %d raw entries, want all 84", rep.Compacted)
	}
	for _, typ := range recall.BucketTypes {
		if rep.Rollups[typ] == 0 {
			t.Errorf("no %s rollups: %+v", typ, rep.Rollups)
		}
	}
	if rep.Conflicts == 0 {
		t.Error("the editor changed from vim to helix but no rollup was superseded")
	}
	if again, err := r.RunRollups(ctx, recall.RollupRun{Now: now}); err != nil || len(again.Buckets) != 0 {
		t.Fatalf("a second run = %+v, %v: want nothing left to roll", again, err)
	}

	editor := "editor"
	cur, err := r.CurrentRollups(ctx, recall.RollupFilter{Key: &editor})
	if err != nil || len(cur) != 1 || cur[0].Value != "uses helix" {
		t.Fatalf("current editor rollup = %+v, %v: want the newer value", cur, err)
	}
	full, err := r.FindRollup(ctx, cur[0].ID)
	if err != nil || len(full.Sources) == 0 {
		t.Fatalf("FindRollup = %+v, %v: want its sources", full, err)
	}
	hits, err := r.SearchRollups(ctx, recall.RollupFilter{Search: "berlin", PerKey: true})
	if err != nil || len(hits) != 1 || hits[0].Rollup.Key != "city" || hits[0].Score <= 0 {
		t.Fatalf("SearchRollups(berlin, per key) = %+v, %v: want the city's current rollup", hits, err)
	}
	ok, err := r.SetRollupSummary(ctx, full.ID, "Edits with helix.", full.UpdatedAt)
	if err != nil || !ok {
		t.Fatalf("SetRollupSummary = %v, %v", ok, err)
	}
	if ok, _ := r.SetRollupSummary(ctx, full.ID, "stale", full.UpdatedAt.Add(-time.Second)); ok {
		t.Error("SetRollupSummary wrote over a rollup changed since")
	}
	stats, err := r.TierStats(ctx)
	if err != nil || len(stats) == 0 {
		t.Fatalf("TierStats = %v, %v", stats, err)
	}
	for _, s := range stats {
		if s.Kind == "observations" && s.Status != recall.StatusCompacted {
			t.Errorf("raw observations left %s: %+v", s.Status, s)
		}
	}
}

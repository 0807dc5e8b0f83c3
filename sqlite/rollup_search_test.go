package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
	"github.com/recall-mem/recall/sqlite"
)

// rolledStore is seedStream rolled up at day 22, with a searcher over it.
func rolledStore(t *testing.T) (*sqlite.DB, *sqlite.RollupService, *rollup.Searcher) {
	t.Helper()
	db, s := seededStore(t)
	mustRun(t, s, recall.RollupRun{Now: day0.AddDate(0, 0, 22)})
	return db, s, &rollup.Searcher{Base: sqlite.NewMemoryService(db), Rollups: s}
}

func search(t *testing.T, s recall.Searcher, text string) []*recall.SearchHit {
	t.Helper()
	hits, err := s.Search(context.Background(), recall.SearchQuery{Text: text, Now: day0.AddDate(0, 0, 22), Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestRollupSearcher_Search(t *testing.T) {
	t.Run("NewestValueOnceAndNoStaleValue", func(t *testing.T) {
		_, _, srch := rolledStore(t)
		hits := search(t, srch, "which editor")
		editor := 0
		for _, h := range hits {
			if h.Rollup == nil || h.Rollup.Key != "editor" {
				continue
			}
			editor++
			if h.Rollup.Value != "uses helix" || h.Rollup.Status != recall.RollupActive {
				t.Fatalf("stale hit %+v", h.Rollup)
			}
			if h.Memory == nil || h.Memory.ID != h.Rollup.ID || h.Memory.Tier != "rollup" {
				t.Fatalf("memory view %+v", h.Memory)
			}
		}
		if editor != 1 {
			t.Fatalf("%d editor rollups, want exactly one", editor)
		}
		// The newest rollup of the key, and among equally new ones the
		// most confident: the weekly of week 3 beats its days and 4h.
		if r := hits[0].Rollup; r == nil || r.BucketType != recall.BucketWeekly {
			t.Fatalf("first hit %+v", hits[0])
		}
	})
	t.Run("IntentPicksTiers", func(t *testing.T) {
		_, _, srch := rolledStore(t)
		for text, tiers := range map[string][]string{
			"what editor do I use these days": {recall.Bucket4h, recall.BucketDaily},
			"which editor do I usually use":   {recall.BucketWeekly, recall.BucketMonthly},
		} {
			hits := search(t, srch, text)
			if len(hits) == 0 {
				t.Fatalf("%q: no hits", text)
			}
			for _, h := range hits {
				if h.Rollup != nil && h.Rollup.BucketType != tiers[0] && h.Rollup.BucketType != tiers[1] {
					t.Fatalf("%q: hit from tier %s", text, h.Rollup.BucketType)
				}
			}
		}
	})
	t.Run("ConfidenceThenFreshnessOrder", func(t *testing.T) {
		db, s, srch := rolledStore(t)
		// A second Berlin key, said once on the last day: less sure than
		// the city fact said every day, so it ranks below it.
		o := &recall.Observation{At: day0.AddDate(0, 0, 20).Add(20 * time.Hour), Type: "fact", Key: "trip", Content: "trip to Berlin"}
		if err := sqlite.NewObservationService(db).RecordObservations(context.Background(), []*recall.Observation{o}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RunRollups(context.Background(), recall.RollupRun{Now: day0.AddDate(0, 0, 22)}); err != nil {
			t.Fatal(err)
		}
		hits := search(t, srch, "Berlin")
		if len(hits) < 2 || hits[0].Rollup.Key != "city" || hits[1].Rollup.Key != "trip" {
			t.Fatalf("order %v", keys(hits))
		}
		if hits[0].Rollup.Confidence <= hits[1].Rollup.Confidence {
			t.Fatalf("confidences %v %v", hits[0].Rollup.Confidence, hits[1].Rollup.Confidence)
		}
	})
	t.Run("NewerRawMemoryWins", func(t *testing.T) {
		db, _, srch := rolledStore(t)
		_, err := sqlite.NewMemoryService(db).PutMemory(context.Background(), &recall.Memory{Title: "Editor", Type: "preference",
			Content: "uses emacs now", OccurredAt: day0.AddDate(0, 0, 21).Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		hits := search(t, srch, "editor")
		if hits[0].Rollup != nil || hits[0].Memory.Content != "uses emacs now" {
			t.Fatalf("first hit %+v", hits[0].Memory)
		}
		for _, h := range hits {
			if h.Rollup != nil && h.Rollup.Key == "editor" && h.Rollup.MemoryType == "preference" {
				t.Fatalf("outdated rollup still shown: %s", h.Rollup.Summary)
			}
		}
	})
	t.Run("FiltersRollupsCannotAnswer", func(t *testing.T) {
		_, _, srch := rolledStore(t)
		coll := "default"
		hits, err := srch.Search(context.Background(), recall.SearchQuery{Text: "editor", Filter: recall.MemoryFilter{Collection: &coll}})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 0 {
			t.Fatalf("got %d hits", len(hits))
		}
	})
}

func TestRollupSection_Build(t *testing.T) {
	ctx := context.Background()
	_, s, _ := rolledStore(t)
	sec := &rollup.Section{Rollups: s}
	t.Run("CurrentValues", func(t *testing.T) {
		got, err := sec.Build(ctx, recall.ContextRequest{Budget: 500})
		if err != nil {
			t.Fatal(err)
		}
		// One item per key: editor (helix) and city.
		if len(got.Items) != 2 || got.Tokens <= 0 {
			t.Fatalf("section %+v", got)
		}
		for _, it := range got.Items {
			if it.Title == "editor" && it.Text[:len("editor (preference): uses helix")] != "editor (preference): uses helix" {
				t.Fatalf("item %q", it.Text)
			}
		}
	})
	t.Run("Query", func(t *testing.T) {
		got, err := sec.Build(ctx, recall.ContextRequest{Query: "editor", Budget: 500})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Items) != 1 || got.Items[0].Kind != "rollup" {
			t.Fatalf("section %+v", got)
		}
	})
	t.Run("ReplaceCoveredRawItems", func(t *testing.T) {
		id := rollup.RollupID("4h", day0.Add(8*time.Hour), "preference", "editor")
		full, err := s.FindRollup(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		items := []recall.ContextItem{{ID: full.Sources[0].ID, Kind: "observation"}, {ID: "tr0000000000", Kind: "memory"}}
		kept, rollups, err := rollup.Replace(ctx, s, items)
		if err != nil {
			t.Fatal(err)
		}
		if len(kept) != 1 || kept[0].ID != "tr0000000000" || len(rollups) != 1 || rollups[0] != id {
			t.Fatalf("kept %v rollups %v", kept, rollups)
		}
	})
}

func keys(hits []*recall.SearchHit) []string {
	var out []string
	for _, h := range hits {
		if h.Rollup != nil {
			out = append(out, h.Rollup.BucketType+"/"+h.Rollup.Key)
		} else {
			out = append(out, "memory/"+h.Memory.ID)
		}
	}
	return out
}

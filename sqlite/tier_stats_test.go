package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
	"github.com/recall-mem/recall/sqlite"
)

// TestTierStats_Tokens: the SQL estimate of a tier's tokens is the shared
// estimator's figure for all its text taken together.
func TestTierStats_Tokens(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	ms := sqlite.NewMemoryService(db)
	texts := []recall.Memory{
		{Title: "Editor", Content: "Helix, since the spring"},
		{Title: "Überprüfung", Content: "größer als erwartet"},
	}
	all := ""
	for _, m := range texts {
		m.OccurredAt = day0
		if _, err := ms.PutMemory(ctx, &m); err != nil {
			t.Fatal(err)
		}
		all += m.Title + m.Content
	}
	stats, err := newRollups(t, db).TierStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stats {
		if st.Kind == "memories" && st.Status == recall.StatusActive {
			if want := prose.Tokens(all); st.Tokens != want {
				t.Fatalf("tokens %d, want %d", st.Tokens, want)
			}
			return
		}
	}
	t.Fatalf("no active memories in %+v", stats)
}

// TestTierStats_FromIndexes: the tier statistics read from the indexes of
// migration 0019 are the figures of a pass over every row, as TierStats
// read them before, on a store with every status, keys, anchors, metadata,
// text beyond ASCII, observations and rollups.
func TestTierStats_FromIndexes(t *testing.T) {
	ctx := context.Background()
	db, rs := seededStore(t)
	mustRun(t, rs, recall.RollupRun{Now: day0.AddDate(0, 0, 60)})
	// Observations not rolled up yet, and of a status the store does not
	// know for observations, but keeps.
	later := []*recall.Observation{{At: day0.AddDate(0, 2, 0), Type: "command", Content: "go vet ./…"},
		{At: day0.AddDate(0, 1, 0), Type: "note", Content: "kept aside", Status: recall.StatusArchived},
		{At: day0.AddDate(0, 1, 1), Type: "note", Content: "kept aside too", Status: recall.StatusArchived}}
	if err := sqlite.NewObservationService(db).RecordObservations(ctx, later); err != nil {
		t.Fatal(err)
	}
	ms := sqlite.NewMemoryService(db)
	statuses := []string{recall.StatusActive, recall.StatusArchived, recall.StatusCompacted, recall.StatusSuperseded}
	for i := range 40 {
		m := &recall.Memory{Title: fmt.Sprintf("Größe %d", i), Content: strings.Repeat("naïve café ", i%7+1),
			Status: statuses[i%len(statuses)], OccurredAt: day0.Add(time.Duration(i*37) * time.Hour), Tags: []string{"t" + strconv.Itoa(i%3)}}
		if i%5 == 0 {
			m.Key = "k" + strconv.Itoa(i)
			m.Metadata = json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)
			m.Anchors = []recall.Anchor{{Path: "main.go", Hash: "ab12"}}
		}
		if _, err := ms.PutMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := rs.TierStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rs.TierStatsByRows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, st := range want {
		kinds[st.Kind+"/"+st.Status] = true
	}
	for _, k := range []string{"memories/active", "memories/compacted", "memories/superseded", "observations/active", "observations/compacted", "observations/archived", "daily/active"} {
		if !kinds[k] {
			t.Fatalf("the store lacks %s: %v", k, kinds)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("from indexes:\n%+v\nfrom rows:\n%+v", got, want)
	}
}

// TestTierStatsPlans: each query of the tier statistics reads one covering
// index, in its order: neither the rows' text nor a sort.
func TestTierStatsPlans(t *testing.T) {
	plans, err := MustOpenDB(t).TierStatsPlans(context.Background())
	readsCoveringIndexes(t, plans, err, "memories_tier_updated", "observations_active_at", "observations_compacted_chars",
		"observations_other_status", "memory_rollups_chars")
}

package sqlite_test

import (
	"context"
	"testing"

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

package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// TestQueryPlans: each read that a page of the web UI makes at 100,000
// memories goes through its index, and none sorts more than a page.
//   - A tier's page is read through the index on (tier, status,
//     updated_at) in order, so SQLite stops after the page instead of
//     sorting every memory of the tier.
//   - The anchored memories are read through the partial index that holds
//     only them, in id order, not by scanning every memory.
//   - A tag filter looks its memories up in memory_tags by tag instead of
//     reading every memory's tags as JSON.
func TestQueryPlans(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	tier := recall.TierArchive
	for _, c := range []struct {
		name      string
		plan      func() ([]string, error)
		want      string
		forbidden []string
	}{
		{"Tier", func() ([]string, error) { return db.MemoriesPlan(ctx, recall.MemoryFilter{Tier: &tier, Limit: 50}) },
			"USING INDEX memories_tier_updated", []string{"TEMP B-TREE"}},
		{"Anchored", func() ([]string, error) { return db.AnchoredPlan(ctx) },
			"USING INDEX memories_anchored", []string{"TEMP B-TREE"}},
		{"Tag", func() ([]string, error) {
			return db.MemoriesPlan(ctx, recall.MemoryFilter{Fields: map[string][]string{"tags": {"t7"}}, Limit: 50})
		}, "SEARCH t USING PRIMARY KEY (tag=?)", []string{"SCAN m", "json_each"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan, err := c.plan()
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(plan, "\n")
			if !strings.Contains(all, c.want) {
				t.Errorf("plan lacks %q:\n%s", c.want, all)
			}
			for _, f := range c.forbidden {
				if strings.Contains(all, f) {
					t.Errorf("plan has %q:\n%s", f, all)
				}
			}
		})
	}
}

package sqlite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
)

// TestFindMemories_TierPlan: a tier's page is read through the index on
// (tier, status, updated_at) in order, so SQLite stops after the page
// instead of sorting every memory of the tier.
func TestFindMemories_TierPlan(t *testing.T) {
	db := MustOpenDB(t)
	tier := recall.TierArchive
	plan, err := db.MemoriesPlan(context.Background(), recall.MemoryFilter{Tier: &tier, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan, "\n")
	if !strings.Contains(all, "USING INDEX memories_tier_updated") {
		t.Errorf("the tier's page does not use the (tier, status, updated_at) index:\n%s", all)
	}
	if strings.Contains(all, "TEMP B-TREE") {
		t.Errorf("the tier's page is sorted in a temporary B-tree:\n%s", all)
	}
}

// TestAnchoredMemories_Plan: the anchored memories are read through the
// partial index that holds only them, in id order, not by scanning every
// memory and sorting the matches.
func TestAnchoredMemories_Plan(t *testing.T) {
	db := MustOpenDB(t)
	plan, err := db.AnchoredPlan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan, "\n")
	if !strings.Contains(all, "USING INDEX memories_anchored") {
		t.Errorf("the anchored memories are not read through the partial index:\n%s", all)
	}
	if strings.Contains(all, "TEMP B-TREE") {
		t.Errorf("the anchored memories are sorted in a temporary B-tree:\n%s", all)
	}
}

// TestFindMemories_TagPlan: a tag filter looks its memories up in
// memory_tags by tag instead of reading every memory's tags as JSON.
func TestFindMemories_TagPlan(t *testing.T) {
	db := MustOpenDB(t)
	plan, err := db.MemoriesPlan(context.Background(), recall.MemoryFilter{Fields: map[string][]string{"tags": {"t7"}}, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(plan, "\n")
	if !strings.Contains(all, "SEARCH t USING PRIMARY KEY (tag=?)") || strings.Contains(all, "SCAN m") {
		t.Errorf("the tag filter does not read memory_tags:\n%s", all)
	}
}

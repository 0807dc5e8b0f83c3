package sqlite_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TestStatsPlans: the store statistics, which the web UI's overview reads
// on every view, count from indexes and never read every memory (or any
// other table) row by row. A step "SCAN t" without an index reads the
// whole table; "SCAN t USING COVERING INDEX i" reads only the index,
// and "SEARCH" reads a range of one.
func TestStatsPlans(t *testing.T) {
	plans, err := MustOpenDB(t).StatsPlans(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) == 0 {
		t.Fatal("no plans")
	}
	tableScan := regexp.MustCompile(`^SCAN \w+$`)
	for name, plan := range plans {
		for _, step := range plan {
			if tableScan.MatchString(strings.TrimSpace(step)) {
				t.Errorf("%s reads a whole table (%q):\n%s", name, step, strings.Join(plan, "\n"))
			}
		}
	}
}

// TestCompressionPlans: the compression plot's figures come from indexes
// alone: each query reads one covering index, not the rows' text, and the
// raw entries' indexes hold only the compacted ones.
func TestCompressionPlans(t *testing.T) {
	plans, err := MustOpenDB(t).CompressionPlans(context.Background())
	readsCoveringIndexes(t, plans, err, "memories_compacted_chars", "observations_compacted_chars", "memory_rollups_chars")
}

// readsCoveringIndexes fails t unless each plan reads only the index named
// in want at its place (a covering index), without a sort.
func readsCoveringIndexes(t *testing.T, plans [][]string, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != len(want) {
		t.Fatalf("%d plans, want %d", len(plans), len(want))
	}
	for i, plan := range plans {
		all := strings.Join(plan, "\n")
		if !strings.Contains(all, "USING COVERING INDEX "+want[i]) {
			t.Errorf("query %d does not read only %s:\n%s", i, want[i], all)
		}
		if strings.Contains(all, "TEMP B-TREE") {
			t.Errorf("query %d sorts:\n%s", i, all)
		}
	}
}

// TestGrowthPlans: the overview's growth plot counts a week of memories
// (of any status) and of observations for each column: each count is a
// range of the time index, not a pass over every row.
func TestGrowthPlans(t *testing.T) {
	since := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	until, anyStatus := since.AddDate(0, 0, 7), "*"
	mems, obs, err := MustOpenDB(t).CountPlans(context.Background(),
		recall.MemoryFilter{Since: &since, Until: &until, Status: &anyStatus, Newest: true, Limit: 1},
		recall.ObservationFilter{Since: &since, Until: &until, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		plan []string
		want string
	}{{mems, "SEARCH m USING COVERING INDEX memories_occurred"}, {obs, "SEARCH o USING COVERING INDEX observations_at"}} {
		if all := strings.Join(c.plan, "\n"); !strings.Contains(all, c.want) {
			t.Errorf("plan lacks %q:\n%s", c.want, all)
		}
	}
}

package sqlite_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
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

package sqlite

import (
	"context"
	"strings"
	"testing"
)

// TestCompactedPlans: the sweep and the purge look for compacted entries in
// a time range; the indexes that the compression plot reads (migration
// 0018) must leave them reading a range of time, not every compacted
// entry (an index led by status took these plans).
func TestCompactedPlans(t *testing.T) {
	db := NewDB(t.TempDir() + "/recall.db")
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, c := range []struct{ query, want string }{
		{`DELETE FROM observations WHERE status = 'compacted' AND at < ? AND pinned = 0 RETURNING session`, "(at<?)"},
		{`DELETE FROM observations WHERE status = 'compacted' AND pinned = 0 AND at < ?`, "(at<?)"},
		{`UPDATE observations AS o SET status = 'active' WHERE status = 'compacted' AND o.at >= ? AND o.at < ?`, "(at>? AND at<?)"},
		{`UPDATE memories AS m SET status = 'active' WHERE status = 'compacted' AND m.occurred_at >= ? AND m.occurred_at < ?`, "(occurred_at>? AND occurred_at<?)"},
	} {
		plan, err := db.queryPlan(context.Background(), c.query, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		if all := strings.Join(plan, "\n"); !strings.Contains(all, c.want) {
			t.Errorf("%s\nreads no range %s:\n%s", c.query, c.want, all)
		}
	}
}

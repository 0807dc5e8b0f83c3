package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestStoreStatsPlans: the store statistics, which the web UI's overview
// reads on every view, count from indexes (index-only scans), never by
// reading every memory or observation of the namespace.
func TestStoreStatsPlans(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	db := mustOpen(t, dbURL, "")
	if _, err := postgres.NewMemoryService(db).PutMemory(ctx, &recall.Memory{Content: "a memory"}); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, dbURL)
	// A store this small is read fastest row by row, so the planner is
	// told to price that out: what is left shows whether an index serves.
	for _, sql := range []string{"VACUUM ANALYZE memories", "VACUUM ANALYZE observations", "SET enable_seqscan = off", "SET enable_bitmapscan = off"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	for index, query := range postgres.StatsQueries {
		args := []any{"default"}
		if strings.Contains(query, "$2") {
			args = append(args, now.Add(-time.Hour), now)
		}
		plan, err := collect(conn.Query(ctx, "EXPLAIN "+query, args...))
		if err != nil {
			t.Fatal(err)
		}
		if all := strings.Join(plan, "\n"); !strings.Contains(all, "Index Only Scan using "+index+" ") {
			t.Errorf("%s\nis no index-only scan of %s:\n%s", query, index, all)
		}
	}
}

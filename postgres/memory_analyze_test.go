package postgres

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/recall-mem/recall/internal/pgtest"
)

// TestImport_RefreshesStatsOfAGrowingNamespace: after a bulk import into
// a namespace the planner does not know, the planner's estimate of its
// rows is close to the truth (not the one row it assumes before an
// ANALYZE); imports it knows about analyze nothing.
func TestImport_RefreshesStatsOfAGrowingNamespace(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	st := &statements{}
	in := func(ns string) *DB {
		u, _ := url.Parse(dbURL)
		q := u.Query()
		q.Set("namespace", ns)
		u.RawQuery = q.Encode()
		db, err := open(ctx, u.String(), func(c *pgxpool.Config) { c.ConnConfig.Tracer = st })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	big, fresh := in("big"), in("fresh")
	for i := 0; i < 2000; i += 1000 {
		if _, err := NewMemoryService(big).ImportMemories(ctx, newMemories(i, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := big.pool.Exec(ctx, `ANALYZE memories`); err != nil {
		t.Fatal(err)
	}
	analyzed := func() bool {
		for _, q := range st.take() {
			if strings.HasPrefix(q, "ANALYZE") {
				return true
			}
		}
		return false
	}
	st.take()
	s := NewMemoryService(fresh)
	if _, err := s.ImportMemories(ctx, newMemories(0, 600)); err != nil {
		t.Fatal(err)
	}
	if est, err := fresh.estimateRows(ctx); err != nil || est < 300 {
		t.Fatalf("planner's estimate after importing 600 memories into a new namespace: %v rows, %v; want about 600", est, err)
	}
	if !analyzed() {
		t.Fatal("no ANALYZE after a bulk import into a new namespace")
	}
	// A small import, and one into a namespace the planner knows, leave
	// the statistics to autovacuum.
	for _, n := range []int{100, 400} {
		if _, err := s.ImportMemories(ctx, newMemories(600+n, n)); err != nil {
			t.Fatal(err)
		}
		if analyzed() {
			t.Fatalf("ANALYZE after importing %d memories into a namespace of 600 the planner knows", n)
		}
	}
}

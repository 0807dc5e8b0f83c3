package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

var _ recall.StatsReader = (*ForgetService)(nil)

// growthWindow is how far back StoreStats counts new rows.
const growthWindow = 30 * 24 * time.Hour

// storeTables are the tables of the store, for sizes and checks.
var storeTables = []string{"memories", "memory_versions", "memory_vectors", "observations", "sessions",
	"store_meta", "sync_records", "memory_rollups", "memory_rollup_sources", "forget_log"}

// The counting queries of StoreStats; each reads an index of migration
// 0007 (or the rollups' unique index), not the rows (TestStoreStatsPlans).
const (
	observationsByType = `SELECT type, count(*) FROM observations WHERE namespace = $1 GROUP BY type`
	memoriesByTier     = `SELECT tier, count(*) FROM memories WHERE namespace = $1 GROUP BY tier`
	rollupsByType      = `SELECT bucket_type, count(*) FROM memory_rollups WHERE namespace = $1 GROUP BY bucket_type`
	memoriesCreated    = `SELECT count(*) FROM memories WHERE namespace = $1 AND created_at BETWEEN $2 AND $3`
)

// StoreStats counts the namespace's rows per observation type, memory tier
// and rollup bucket type, and the rows added in the 30 days up to now. DBBytes is the size of
// the store's tables with their indexes, for every namespace of the
// database (PostgreSQL does not size one namespace's share); there is no
// WAL file or free-page count of the store's own, so those are 0.
func (s *ForgetService) StoreStats(ctx context.Context, now time.Time) (*recall.StoreStats, error) {
	st := &recall.StoreStats{At: now.UTC(), ObservationsByType: map[string]int{}, MemoriesByTier: map[string]int{}}
	ns := s.db.Namespace
	var err error
	if st.Observations, err = s.countGroups(ctx, observationsByType, st.ObservationsByType); err != nil {
		return nil, err
	}
	if st.Memories, err = s.countGroups(ctx, memoriesByTier, st.MemoriesByTier); err != nil {
		return nil, err
	}
	// The unique index on rollups leads with their bucket type: the count
	// reads the index, not the rows.
	byType := map[string]int{}
	if st.Rollups, err = s.countGroups(ctx, rollupsByType, byType); err != nil {
		return nil, err
	}
	if st.Rollups > 0 {
		st.RollupsByType = byType
	}
	since, until := now.Add(-growthWindow).UTC(), now.UTC()
	err = s.db.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memory_versions WHERE namespace = $1),
		(SELECT count(*) FROM sessions WHERE namespace = $1),
		(SELECT count(*) FROM observations WHERE namespace = $1 AND at BETWEEN $2 AND $3)
		+ (`+memoriesCreated+`)
		+ (SELECT count(*) FROM memory_versions WHERE namespace = $1 AND changed_at BETWEEN $2 AND $3),
		(SELECT coalesce(sum(pg_total_relation_size(t::regclass)), 0) FROM unnest($4::text[]) t),
		current_setting('block_size')::bigint,
		(SELECT max(at) FROM forget_log WHERE namespace = $1 AND kind = 'sweep'),
		(SELECT max(at) FROM forget_log WHERE namespace = $1 AND kind = 'purge')`,
		ns, since, until, storeTables).Scan(&st.Versions, &st.Sessions, &st.GrowthRows, &st.DBBytes, &st.PageSize, &st.LastSweep, &st.LastPurge)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	st.LastSweep, st.LastPurge = utcPtr(st.LastSweep), utcPtr(st.LastPurge)
	return st, nil
}

// countGroups runs a query of (group, count) rows in the namespace into
// into and returns the total.
func (s *ForgetService) countGroups(ctx context.Context, query string, into map[string]int) (int, error) {
	rows, err := s.db.pool.Query(ctx, query, s.db.Namespace)
	type group struct {
		k string
		n int
	}
	gs, err := collectRows(rows, err, func(r pgx.Row) (g group, err error) { return g, r.Scan(&g.k, &g.n) })
	if err != nil {
		return 0, fmt.Errorf("stats: %w", err)
	}
	total := 0
	for _, g := range gs {
		into[g.k], total = g.n, total+g.n
	}
	return total, nil
}

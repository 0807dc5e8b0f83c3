package sqlite

import (
	"context"

	"github.com/recall-mem/recall"
)

// StatsPlans is SQLite's query plan for each query of StoreStats that
// counts rows, by query, one line per step.
func (db *DB) StatsPlans(ctx context.Context) (map[string][]string, error) {
	plans := map[string][]string{}
	for name, q := range map[string]string{"observationsByType": observationsByType, "memoriesByTier": memoriesByTier,
		"rollupsByType": rollupsByType, "rowCounts": rowCounts} {
		var args []any
		if q == rowCounts {
			args = []any{int64(0), int64(1)} // the growth window
		}
		plan, err := db.queryPlan(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		plans[name] = plan
	}
	return plans, nil
}

// CompressionPlans is SQLite's query plan for each query of
// CompressionStats, in order.
func (db *DB) CompressionPlans(ctx context.Context) ([][]string, error) {
	var plans [][]string
	for _, q := range compressionQueries {
		plan, err := db.queryPlan(ctx, q.query)
		if err != nil {
			return nil, err
		}
		plans = append(plans, plan)
	}
	return plans, nil
}

// CountPlans is SQLite's query plan for the totals FindMemories and
// FindObservations count under mf and of.
func (db *DB) CountPlans(ctx context.Context, mf recall.MemoryFilter, of recall.ObservationFilter) (memories, observations []string, err error) {
	where, args, err := whereMemories(mf)
	if err != nil {
		return nil, nil, err
	}
	if memories, err = db.queryPlan(ctx, `SELECT COUNT(*) FROM memories m WHERE `+where, args...); err != nil {
		return nil, nil, err
	}
	where, args = whereObservations(of)
	observations, err = db.queryPlan(ctx, `SELECT COUNT(*) FROM observations o WHERE `+where, args...)
	return memories, observations, err
}

package sqlite

import "context"

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

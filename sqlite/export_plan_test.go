package sqlite

import (
	"context"

	"github.com/recall-mem/recall"
)

// MemoriesPlan is SQLite's query plan for the page of memories that
// FindMemories reads for f, one line per step.
func (db *DB) MemoriesPlan(ctx context.Context, f recall.MemoryFilter) ([]string, error) {
	where, args, err := whereMemories(f)
	if err != nil {
		return nil, err
	}
	query, args := pageOfMemories(f, where, args)
	return db.queryPlan(ctx, query, args...)
}

// AnchoredPlan is SQLite's query plan for AnchoredMemories, one line per
// step.
func (db *DB) AnchoredPlan(ctx context.Context) ([]string, error) {
	return db.queryPlan(ctx, anchoredQuery)
}

// queryPlan is SQLite's query plan for query, one line per step.
func (db *DB) queryPlan(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}

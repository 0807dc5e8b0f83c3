package sqlite

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/recall-mem/recall"
)

// TierStatsPlans is SQLite's query plan for each query of TierStats, in
// order.
func (db *DB) TierStatsPlans(ctx context.Context) ([][]string, error) {
	var plans [][]string
	for _, t := range tierStatsQueries {
		for _, q := range t.queries {
			plan, err := db.queryPlan(ctx, q)
			if err != nil {
				return nil, err
			}
			plans = append(plans, plan)
		}
	}
	return plans, nil
}

// TierStatsByRows is TierStats as it was before migration 0019: grouped by
// the status column, each row's bytes summed with its numbers', and every
// table read row by row (NOT INDEXED), so that a test can compare the
// indexes' figures with the rows'.
func (s *RollupService) TierStatsByRows(ctx context.Context) ([]recall.TierStat, error) {
	rowBytes := func(text string, numbers int) string {
		return "IFNULL(SUM(" + text + " + " + strconv.Itoa(numbers) + "), 0)"
	}
	queries := []struct{ tier, query string }{
		{"raw", `SELECT 'memories', status, COUNT(*), MIN(occurred_at), MAX(occurred_at),
			` + tokensOf(`length(title) + length(content)`) + `, ` + rowBytes(memoryTextBytes, memoryNumberBytes) + `, COUNT(*)
			FROM memories NOT INDEXED GROUP BY status ORDER BY status`},
		{"raw", `SELECT 'observations', status, COUNT(*), MIN(at), MAX(at),
			` + tokensOf(`length(content)`) + `, ` + rowBytes(observationTextBytes, observationNumberBytes) + `, COUNT(*)
			FROM observations NOT INDEXED GROUP BY status ORDER BY status`},
		{"rollup", `SELECT bucket_type, status, COUNT(*), MIN(bucket_start), MAX(bucket_end),
			` + tokensOf(`length(summary)`) + `, ` + rowBytes(rollupTextBytes, rollupNumberBytes) + `, IFNULL(SUM(entries), 0)
			FROM memory_rollups NOT INDEXED GROUP BY bucket_type, status
			ORDER BY CASE bucket_type WHEN '4h' THEN 0 WHEN 'daily' THEN 1 WHEN 'weekly' THEN 2 ELSE 3 END, status`},
	}
	var out []recall.TierStat
	for _, q := range queries {
		sts, err := s.tierRows(ctx, q.tier, q.query, func(rows *sql.Rows, st *recall.TierStat) error {
			var from, to any
			if err := rows.Scan(&st.Kind, &st.Status, &st.Count, &from, &to, &st.Tokens, &st.Bytes, &st.Entries); err != nil {
				return err
			}
			st.From, st.To = statTime(from), statTime(to)
			return nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, sts...)
	}
	return out, nil
}

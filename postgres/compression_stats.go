package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// tokensOf sums the characters of a text column and estimates their tokens
// as prose.Tokens would, in SQL so that no text leaves the database.
func tokensOf(chars string) string {
	n := strconv.Itoa(prose.CharsPerToken)
	return "((coalesce(sum(" + chars + "), 0) + " + n + " - 1) / " + n + ")::int"
}

// CompressionStats counts the namespace's compacted raw memories and
// observations, through partial indexes that hold only them (migration
// 0006), and its rollups per bucket type and status, with their token
// estimates.
func (s *RollupService) CompressionStats(ctx context.Context) ([]recall.TierStat, error) {
	queries := []struct{ tier, query string }{
		{"raw", `SELECT 'memories', status, count(*), ` + tokensOf(`length(title) + length(content)`) + `, count(*)
			FROM memories WHERE namespace = $1 AND status = 'compacted' GROUP BY status`},
		{"raw", `SELECT 'observations', status, count(*), ` + tokensOf(`length(content)`) + `, count(*)
			FROM observations WHERE namespace = $1 AND status = 'compacted' GROUP BY status`},
		{"rollup", `SELECT bucket_type, status, count(*), ` + tokensOf(`length(summary)`) + `, coalesce(sum(entries), 0)
			FROM memory_rollups WHERE namespace = $1 GROUP BY bucket_type, status`},
	}
	var out []recall.TierStat
	for _, q := range queries {
		rows, err := s.db.pool.Query(ctx, q.query, s.db.Namespace)
		sts, err := collectRows(rows, err, func(r pgx.Row) (recall.TierStat, error) {
			st := recall.TierStat{Tier: q.tier}
			return st, r.Scan(&st.Kind, &st.Status, &st.Count, &st.Tokens, &st.Entries)
		})
		if err != nil {
			return nil, fmt.Errorf("compression stats: %w", err)
		}
		out = append(out, sts...)
	}
	return out, nil
}

package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/recall-mem/recall"
)

// The queries of CompressionStats. Each is answered from an index on
// expressions that holds the characters it sums (migration 0018), so SQLite
// reads neither the rows' text nor the raw entries that are not compacted
// (TestCompressionPlans). The expressions must stay written as in those
// indexes: SQLite uses an indexed expression only when it matches.
var compressionQueries = []struct{ tier, query string }{
	{"raw", `SELECT 'memories', status, COUNT(*), ` + tokensOf(`length(title) + length(content)`) + `, COUNT(*)
		FROM memories WHERE status = 'compacted' GROUP BY status`},
	{"raw", `SELECT 'observations', status, COUNT(*), ` + tokensOf(`length(content)`) + `, COUNT(*)
		FROM observations WHERE status = 'compacted' GROUP BY status`},
	{"rollup", `SELECT bucket_type, status, COUNT(*), ` + tokensOf(`length(summary)`) + `, IFNULL(SUM(entries), 0)
		FROM memory_rollups GROUP BY bucket_type, status`},
}

// CompressionStats counts the compacted raw memories and observations and
// the rollups per bucket type and status, with their token estimates.
func (s *RollupService) CompressionStats(ctx context.Context) ([]recall.TierStat, error) {
	var out []recall.TierStat
	for _, q := range compressionQueries {
		sts, err := s.tierRows(ctx, q.tier, q.query, func(rows *sql.Rows, st *recall.TierStat) error {
			return rows.Scan(&st.Kind, &st.Status, &st.Count, &st.Tokens, &st.Entries)
		})
		if err != nil {
			return nil, fmt.Errorf("compression stats: %w", err)
		}
		out = append(out, sts...)
	}
	return out, nil
}

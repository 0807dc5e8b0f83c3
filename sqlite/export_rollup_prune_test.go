package sqlite

import (
	"context"
	"strings"
)

// PruneBatch is pruneBatch.
const PruneBatch = pruneBatch

// RollupLinks lists every row of memory_rollup_sources and how many
// rollups the full-text index finds for each word of the summaries, as
// comparable text.
func (db *DB) RollupLinks(ctx context.Context) ([]string, error) {
	var out []string
	for _, q := range []string{
		`SELECT rollup_id || ' ' || source_kind || ' ' || source_id FROM memory_rollup_sources ORDER BY 1`,
		`SELECT term || ' ' || doc || ' ' || cnt FROM memory_rollups_fts_vocab ORDER BY term`,
	} {
		if strings.Contains(q, "fts_vocab") {
			if _, err := db.write.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_rollups_fts_vocab USING fts5vocab(main, memory_rollups_fts, row)`); err != nil {
				return nil, err
			}
		}
		rows, err := db.write.QueryContext(ctx, q)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, s)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

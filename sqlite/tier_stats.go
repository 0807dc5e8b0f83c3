package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// Row sizes for `recall tiers` are the bytes of the stored columns (text
// and JSON as UTF-8, 8 per number): what the rows hold, without page and
// index overhead. Tokens are prose.Tokens of all the text an agent would
// read, taken together.
const (
	memoryRowBytes = `length(CAST(m.id AS BLOB)) + length(CAST(IFNULL(m.key, '') AS BLOB)) + length(CAST(m.collection AS BLOB))
		+ length(CAST(m.type AS BLOB)) + length(CAST(m.title AS BLOB)) + length(CAST(m.content AS BLOB)) + length(CAST(m.tags AS BLOB))
		+ length(CAST(m.category AS BLOB)) + length(CAST(m.context AS BLOB)) + length(CAST(m.related AS BLOB))
		+ length(CAST(m.project AS BLOB)) + length(CAST(m.priority AS BLOB)) + length(CAST(m.created_by AS BLOB))
		+ length(CAST(m.tier AS BLOB)) + length(CAST(m.status AS BLOB)) + length(CAST(m.anchors AS BLOB))
		+ length(CAST(m.metadata AS BLOB)) + 8 * 10`
	observationRowBytes = `length(CAST(o.type AS BLOB)) + length(CAST(o.key AS BLOB)) + length(CAST(o.session AS BLOB))
		+ length(CAST(o.project AS BLOB)) + length(CAST(o.tool AS BLOB)) + length(CAST(o.file AS BLOB))
		+ length(CAST(o.content AS BLOB)) + length(CAST(o.metadata AS BLOB)) + length(CAST(o.status AS BLOB)) + 8 * 3`
	rollupRowBytes = `length(CAST(r.id AS BLOB)) + length(CAST(r.bucket_type AS BLOB)) + length(CAST(r.bucket_start AS BLOB))
		+ length(CAST(r.bucket_end AS BLOB)) + length(CAST(r.memory_type AS BLOB)) + length(CAST(r.key AS BLOB))
		+ length(CAST(r.summary AS BLOB)) + length(CAST(r.value AS BLOB)) + length(CAST(r.tally AS BLOB))
		+ length(CAST(r.latest_at AS BLOB)) + length(CAST(IFNULL(r.rolled_at, '') AS BLOB)) + length(CAST(r.status AS BLOB))
		+ length(CAST(r.created_at AS BLOB)) + length(CAST(r.updated_at AS BLOB)) + 8 * 4`
)

// tokensOf sums the characters of a text column and estimates their tokens
// as prose.Tokens would, in SQL so that no text leaves the database.
func tokensOf(chars string) string {
	n := strconv.Itoa(prose.CharsPerToken)
	return "(IFNULL(SUM(" + chars + "), 0) + " + n + " - 1) / " + n
}

// TierStats counts raw memories, raw observations and rollups per bucket
// type, by status, with their time ranges, token estimates and row bytes.
func (s *RollupService) TierStats(ctx context.Context) ([]recall.TierStat, error) {
	queries := []struct {
		tier, query string
	}{
		{"raw", `SELECT 'memories', m.status, COUNT(*), MIN(m.occurred_at), MAX(m.occurred_at),
			` + tokensOf(`length(m.title) + length(m.content)`) + `, IFNULL(SUM(` + memoryRowBytes + `), 0), COUNT(*)
			FROM memories m GROUP BY m.status ORDER BY m.status`},
		{"raw", `SELECT 'observations', o.status, COUNT(*), MIN(o.at), MAX(o.at),
			` + tokensOf(`length(o.content)`) + `, IFNULL(SUM(` + observationRowBytes + `), 0), COUNT(*)
			FROM observations o GROUP BY o.status ORDER BY o.status`},
		{"rollup", `SELECT r.bucket_type, r.status, COUNT(*), MIN(r.bucket_start), MAX(r.bucket_end),
			` + tokensOf(`length(r.summary)`) + `, IFNULL(SUM(` + rollupRowBytes + `), 0), IFNULL(SUM(r.entries), 0)
			FROM memory_rollups r GROUP BY r.bucket_type, r.status
			ORDER BY CASE r.bucket_type WHEN '4h' THEN 0 WHEN 'daily' THEN 1 WHEN 'weekly' THEN 2 ELSE 3 END, r.status`},
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
			return nil, fmt.Errorf("tier stats: %w", err)
		}
		out = append(out, sts...)
	}
	return out, nil
}

// tierRows runs a query of tier statistics, one row of tier per result row
// read by scan.
func (s *RollupService) tierRows(ctx context.Context, tier, query string, scan func(*sql.Rows, *recall.TierStat) error) ([]recall.TierStat, error) {
	rows, err := s.db.read.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []recall.TierStat
	for rows.Next() {
		st := recall.TierStat{Tier: tier}
		if err := scan(rows, &st); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// statTime reads a MIN or MAX: integer milliseconds for raw tables, ISO
// text for rollups, NULL for an empty group.
func statTime(v any) *time.Time {
	var t time.Time
	switch x := v.(type) {
	case int64:
		t = fromMS(x)
	case string:
		t = fromISO(x)
	case []byte:
		t = fromISO(string(x))
	default:
		return nil
	}
	return &t
}

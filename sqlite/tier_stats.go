package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/prose"
)

// Row sizes for `recall tiers` are the bytes of the stored columns (text
// and JSON as UTF-8, 8 per number): what the rows hold, without page and
// index overhead. Tokens are prose.Tokens of all the text an agent would
// read, taken together. The text columns' bytes are indexed expressions
// (migration 0019) and the numbers' bytes are added per row by TierStats;
// each expression must stay written as in its index, which SQLite uses only
// for a query that names the indexed expression (TestTierStatsPlans).
const (
	memoryTextBytes = `length(CAST(id AS BLOB)) + length(CAST(IFNULL(key, '') AS BLOB)) + length(CAST(collection AS BLOB))
		+ length(CAST(type AS BLOB)) + length(CAST(title AS BLOB)) + length(CAST(content AS BLOB)) + length(CAST(tags AS BLOB))
		+ length(CAST(category AS BLOB)) + length(CAST(context AS BLOB)) + length(CAST(related AS BLOB))
		+ length(CAST(project AS BLOB)) + length(CAST(priority AS BLOB)) + length(CAST(created_by AS BLOB))
		+ length(CAST(tier AS BLOB)) + length(CAST(status AS BLOB)) + length(CAST(anchors AS BLOB))
		+ length(CAST(metadata AS BLOB))`
	memoryNumberBytes    = 8 * 10
	observationTextBytes = `length(CAST(type AS BLOB)) + length(CAST(key AS BLOB)) + length(CAST(session AS BLOB))
		+ length(CAST(project AS BLOB)) + length(CAST(tool AS BLOB)) + length(CAST(file AS BLOB))
		+ length(CAST(content AS BLOB)) + length(CAST(metadata AS BLOB)) + length(CAST(status AS BLOB))`
	observationNumberBytes = 8 * 3
	rollupTextBytes        = `length(CAST(id AS BLOB)) + length(CAST(bucket_type AS BLOB)) + length(CAST(bucket_start AS BLOB))
		+ length(CAST(bucket_end AS BLOB)) + length(CAST(memory_type AS BLOB)) + length(CAST(key AS BLOB))
		+ length(CAST(summary AS BLOB)) + length(CAST(value AS BLOB)) + length(CAST(tally AS BLOB))
		+ length(CAST(latest_at AS BLOB)) + length(CAST(IFNULL(rolled_at, '') AS BLOB)) + length(CAST(status AS BLOB))
		+ length(CAST(created_at AS BLOB)) + length(CAST(updated_at AS BLOB))`
	rollupNumberBytes = 8 * 4
)

// tokensOf sums the characters of a text column and estimates their tokens
// as prose.Tokens would, in SQL so that no text leaves the database.
func tokensOf(chars string) string {
	n := strconv.Itoa(prose.CharsPerToken)
	return "(IFNULL(SUM(" + chars + "), 0) + " + n + " - 1) / " + n
}

// tierStatsQueries are the queries of TierStats by tier, each a pass over
// one covering index and not over the rows (TestTierStatsPlans). Each row
// is a group's kind, status, count, time range, characters, bytes of its
// text columns and entries; TierStats adds up the groups of one kind and
// status.
//
// Migration 0019 widened indexes that the rows enter anyway with these
// figures: an index of their own cost the batched import about 8% of its
// time and recording observations 11%, the wider entries little. The
// memories are read from the index of the tier listings, so their groups
// are per tier and status. The observations are read from the partial
// indexes of the active and of the compacted ones, and of any other
// status, whose conditions the queries name word for word, as SQLite uses
// a partial index only then.
var tierStatsQueries = []struct {
	tier    string
	queries []string
}{
	{"raw", []string{`SELECT 'memories', status, COUNT(*), MIN(occurred_at), MAX(occurred_at),
		IFNULL(SUM(length(title) + length(content)), 0), IFNULL(SUM(` + memoryTextBytes + `), 0), COUNT(*)
		FROM memories GROUP BY tier, status`}},
	{"raw", []string{
		observationGroups(`status = 'active'`),
		observationGroups(`status = 'compacted'`),
		observationGroups(`status NOT IN ('active', 'compacted')`),
	}},
	{"rollup", []string{`SELECT bucket_type, status, COUNT(*), MIN(bucket_start), MAX(bucket_end),
		IFNULL(SUM(length(summary)), 0), IFNULL(SUM(` + rollupTextBytes + `), 0), IFNULL(SUM(entries), 0)
		FROM memory_rollups GROUP BY bucket_type, status`}},
}

// observationGroups is the query of the tier statistics for the
// observations whose status meets cond.
func observationGroups(cond string) string {
	return `SELECT 'observations', status, COUNT(*), MIN(at), MAX(at),
		IFNULL(SUM(length(content)), 0), IFNULL(SUM(` + observationTextBytes + `), 0), COUNT(*)
		FROM observations WHERE ` + cond + ` GROUP BY status`
}

// tierNumberBytes are the bytes of a row's numbers, by kind of raw entry;
// a rollup's are rollupNumberBytes.
var tierNumberBytes = map[string]int64{"memories": memoryNumberBytes, "observations": observationNumberBytes}

// TierStats counts raw memories, raw observations and rollups per bucket
// type, by status, with their time ranges, token estimates and row bytes.
func (s *RollupService) TierStats(ctx context.Context) ([]recall.TierStat, error) {
	var out []recall.TierStat
	for _, t := range tierStatsQueries {
		var groups []recall.TierStat
		var chars []int64
		for _, query := range t.queries {
			gs, err := s.tierRows(ctx, t.tier, query, func(rows *sql.Rows, st *recall.TierStat) error {
				var from, to any
				var n int64
				if err := rows.Scan(&st.Kind, &st.Status, &st.Count, &from, &to, &n, &st.Bytes, &st.Entries); err != nil {
					return err
				}
				st.From, st.To = statTime(from), statTime(to)
				chars = append(chars, n)
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("tier stats: %w", err)
			}
			groups = append(groups, gs...)
		}
		// One row per kind and status: the groups added up, tokens
		// estimated from all their characters together.
		var sts []recall.TierStat
		var sums []int64
		for i, g := range groups {
			j := slices.IndexFunc(sts, func(st recall.TierStat) bool { return st.Kind == g.Kind && st.Status == g.Status })
			if j < 0 {
				sts, sums = append(sts, g), append(sums, chars[i])
				continue
			}
			st := &sts[j]
			st.Count, st.Bytes, st.Entries, sums[j] = st.Count+g.Count, st.Bytes+g.Bytes, st.Entries+g.Entries, sums[j]+chars[i]
			if g.From.Before(*st.From) {
				st.From = g.From
			}
			if g.To.After(*st.To) {
				st.To = g.To
			}
		}
		for i := range sts {
			sts[i].Tokens = int((sums[i] + prose.CharsPerToken - 1) / prose.CharsPerToken)
			numbers, ok := tierNumberBytes[sts[i].Kind]
			if !ok {
				numbers = rollupNumberBytes
			}
			sts[i].Bytes += numbers * int64(sts[i].Count)
		}
		// Statuses in name order, bucket types finest first.
		slices.SortFunc(sts, func(a, b recall.TierStat) int {
			return cmp.Or(cmp.Compare(slices.Index(recall.BucketTypes, a.Kind), slices.Index(recall.BucketTypes, b.Kind)),
				cmp.Compare(a.Status, b.Status))
		})
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

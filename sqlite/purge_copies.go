package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/recall-mem/recall"
)

// purgeCopies removes what the purged entries left elsewhere in the store,
// inside the purge's transaction:
//
//   - rollups built from a purged entry, or whose text matches the search,
//     and every coarser rollup built from those. They are deleted (the
//     full-text index follows through its trigger) and what they covered
//     is handed back to the rollup job: the raw entries of their type and
//     time range become active again and their finer rollups pending, so
//     the next `recall rollup` summarises the buckets anew without the
//     purged text;
//   - the summary or learned text of sessions that matches the search,
//     which is cleared (a session left with nothing is dropped).
func purgeCopies(ctx context.Context, tx *Tx, c recall.PurgeCriteria, kind string, ids []string, rep *recall.PurgeReport) error {
	rollups, sessions, err := findCopies(ctx, tx, c, kind, ids)
	if err != nil {
		return err
	}
	if rep.Rollups, err = dropRollups(ctx, tx, rollups); err != nil {
		return err
	}
	dropped, err := clearSessionText(ctx, tx, sessions)
	rep.SessionTexts, rep.Sessions = len(sessions), rep.Sessions+dropped
	return err
}

// findCopies returns the rollups and the session texts a purge of the
// sources (ids of kind) with the criteria c removes.
func findCopies(ctx context.Context, q querier, c recall.PurgeCriteria, kind string, ids []string) (map[string]bool, []sessionHit, error) {
	match, err := newPurgeMatch(c)
	if err != nil {
		return nil, nil, err
	}
	rollups, err := affectedRollups(ctx, q, kind, ids, match)
	if err != nil || match == nil {
		return rollups, nil, err
	}
	sessions, err := sessionHits(ctx, q, c, match)
	return rollups, sessions, err
}

// affectedRollups returns the ids of the rollups built from the purged
// sources or holding the search text, closed over the tiers above them.
func affectedRollups(ctx context.Context, tx querier, kind string, ids []string, match *purgeMatch) (map[string]bool, error) {
	out := map[string]bool{}
	frontier, err := queryStrings(ctx, tx, `SELECT DISTINCT rollup_id FROM memory_rollup_sources
		WHERE source_kind = ? AND source_id IN (SELECT value FROM json_each(?))`, kind, jsonList(ids))
	if err != nil {
		return nil, fmt.Errorf("rollups of purged entries: %w", err)
	}
	if match != nil {
		rows, err := tx.QueryContext(ctx, `SELECT id, summary || ' ' || value || ' ' || tally FROM memory_rollups`)
		if err != nil {
			return nil, fmt.Errorf("search rollups: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, text string
			if err := rows.Scan(&id, &text); err != nil {
				return nil, err
			}
			if match.RuleOf(text) != "" {
				frontier = append(frontier, id)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for len(frontier) > 0 {
		var next []string
		for _, id := range frontier {
			if !out[id] {
				out[id] = true
				next = append(next, id)
			}
		}
		if len(next) == 0 {
			break
		}
		if frontier, err = queryStrings(ctx, tx, `SELECT DISTINCT rollup_id FROM memory_rollup_sources
			WHERE source_kind = 'rollup' AND source_id IN (SELECT value FROM json_each(?))`, jsonList(next)); err != nil {
			return nil, fmt.Errorf("rollups above purged ones: %w", err)
		}
	}
	return out, nil
}

// dropRollups deletes the rollups and hands their other sources back to
// the rollup job.
func dropRollups(ctx context.Context, tx *Tx, ids map[string]bool) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	list := idList(ids)
	// The links from a coarse rollup down to raw entries are gone once its
	// finer rollups have been cleared away, so raw entries are released by
	// what the rollup covered: its type and its bucket's time range.
	const covered = `EXISTS (SELECT 1 FROM memory_rollups r WHERE r.id IN (SELECT value FROM json_each(?1)) AND r.memory_type = %s.type
		AND %s >= CAST(strftime('%%s', r.bucket_start) AS INTEGER) * 1000 AND %s < CAST(strftime('%%s', r.bucket_end) AS INTEGER) * 1000)`
	for _, q := range []string{
		`UPDATE observations AS o SET status = 'active' WHERE status = 'compacted' AND ` + fmt.Sprintf(covered, "o", "o.at", "o.at"),
		`UPDATE memories AS m SET status = 'active' WHERE status = 'compacted' AND ` + fmt.Sprintf(covered, "m", "m.occurred_at", "m.occurred_at"),
		`UPDATE memory_rollups SET rolled_at = NULL WHERE id NOT IN (SELECT value FROM json_each(?1)) AND id IN (
			SELECT source_id FROM memory_rollup_sources WHERE rollup_id IN (SELECT value FROM json_each(?1)) AND source_kind = 'rollup')`,
	} {
		if _, err := tx.ExecContext(ctx, q, list); err != nil {
			return 0, fmt.Errorf("release rollup sources: %w", err)
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM memory_rollups WHERE id IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return 0, fmt.Errorf("purge rollups: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// sessionHit is a session whose summary or learned text matches a
// purge's search.
type sessionHit struct {
	id               string
	summary, learned bool
}

// sessionHits finds the sessions, of c's session or project when it names
// one, whose summary or learned text matches.
func sessionHits(ctx context.Context, q querier, c recall.PurgeCriteria, match *purgeMatch) ([]sessionHit, error) {
	query, args := `SELECT id, summary, learned FROM sessions WHERE (summary != '' OR learned != '')`, []any{}
	if c.Session != "" {
		query, args = query+` AND id = ?`, append(args, c.Session)
	}
	if c.Project != "" {
		query, args = query+` AND project = ?`, append(args, c.Project)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	defer rows.Close()
	var hits []sessionHit
	for rows.Next() {
		var id, summary, learned string
		if err := rows.Scan(&id, &summary, &learned); err != nil {
			return nil, err
		}
		h := sessionHit{id, match.RuleOf(summary) != "", match.RuleOf(learned) != ""}
		if h.summary || h.learned {
			hits = append(hits, h)
		}
	}
	return hits, rows.Err()
}

// clearSessionText clears the matching summary or learned text of the
// sessions, and drops those left with nothing; it returns how many went.
func clearSessionText(ctx context.Context, tx *Tx, hits []sessionHit) (int, error) {
	touched := map[string]bool{}
	for _, h := range hits {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET summary = CASE WHEN ? THEN '' ELSE summary END,
			learned = CASE WHEN ? THEN '' ELSE learned END WHERE id = ?`, h.summary, h.learned, h.id); err != nil {
			return 0, fmt.Errorf("clear session text: %w", err)
		}
		touched[h.id] = true
	}
	return dropEmptySessions(ctx, tx, touched)
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// jsonList encodes strings as a JSON array for json_each.
func jsonList(ss []string) string {
	if ss == nil {
		return "[]"
	}
	buf, _ := json.Marshal(ss)
	return string(buf)
}

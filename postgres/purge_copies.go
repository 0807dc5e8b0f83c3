package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// purgeCopies removes what the purged entries left elsewhere in the
// namespace, inside the purge's transaction:
//
//   - rollups built from a purged entry, or whose text matches the search,
//     and every coarser rollup built from those. They are deleted and what
//     they covered is handed back to the rollup job (raw entries of their
//     type and time range active again, finer rollups pending), so the
//     next run summarises the buckets anew without the purged text;
//   - the summary or learned text of sessions that matches the search,
//     which is cleared (a session left with nothing is dropped).
func (tx *Tx) purgeCopies(ctx context.Context, c recall.PurgeCriteria, ids []string, rep *recall.PurgeReport) error {
	rollups, sessions, err := tx.findCopies(ctx, c, ids)
	if err != nil {
		return err
	}
	if rep.Rollups, err = tx.dropRollups(ctx, rollups); err != nil {
		return err
	}
	dropped, err := tx.clearSessionText(ctx, sessions)
	rep.SessionTexts, rep.Sessions = len(sessions), rep.Sessions+dropped
	return err
}

// findCopies returns the rollups and the session texts a purge of the
// entries ids (of c's target) removes.
func (tx *Tx) findCopies(ctx context.Context, c recall.PurgeCriteria, ids []string) ([]string, []sessionHit, error) {
	match, err := ftsquery.NewMatch(c)
	if err != nil {
		return nil, nil, err
	}
	kind := "observation"
	if c.Memories {
		kind = "memory"
	}
	rollups, err := tx.affectedRollups(ctx, kind, ids, match)
	if err != nil || match == nil {
		return rollups, nil, err
	}
	sessions, err := tx.sessionHits(ctx, c, match)
	return rollups, sessions, err
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.Query(ctx, query, args...)
	return collectRows(rows, err, func(r pgx.Row) (s string, err error) { return s, r.Scan(&s) })
}

// affectedRollups returns the ids of the rollups built from the purged
// sources or holding the search text, closed over the tiers above them.
func (tx *Tx) affectedRollups(ctx context.Context, kind string, ids []string, match *ftsquery.Match) ([]string, error) {
	ns := tx.db.Namespace
	frontier, err := queryStrings(ctx, tx, `SELECT DISTINCT rollup_id FROM memory_rollup_sources
		WHERE namespace = $1 AND source_kind = $2 AND source_id = ANY($3)`, ns, kind, ids)
	if err != nil {
		return nil, fmt.Errorf("rollups of purged entries: %w", err)
	}
	if match != nil {
		rows, err := tx.Query(ctx, `SELECT id, summary || ' ' || value || ' ' || tally::text FROM memory_rollups WHERE namespace = $1`, ns)
		type text struct{ id, text string }
		all, err := collectRows(rows, err, func(r pgx.Row) (t text, err error) { return t, r.Scan(&t.id, &t.text) })
		if err != nil {
			return nil, fmt.Errorf("search rollups: %w", err)
		}
		for _, t := range all {
			if match.RuleOf(t.text) != "" {
				frontier = append(frontier, t.id)
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for len(frontier) > 0 {
		var next []string
		for _, id := range frontier {
			if !seen[id] {
				seen[id] = true
				next = append(next, id)
			}
		}
		out = append(out, next...)
		if len(next) == 0 {
			break
		}
		if frontier, err = queryStrings(ctx, tx, `SELECT DISTINCT rollup_id FROM memory_rollup_sources
			WHERE namespace = $1 AND source_kind = 'rollup' AND source_id = ANY($2)`, ns, next); err != nil {
			return nil, fmt.Errorf("rollups above purged ones: %w", err)
		}
	}
	return out, nil
}

// dropRollups deletes the rollups and hands what they covered back to the
// rollup job.
func (tx *Tx) dropRollups(ctx context.Context, ids []string) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	// The links from a coarse rollup down to raw entries are gone once its
	// finer rollups have been cleared away, so raw entries are released by
	// what the rollup covered: its type and its bucket's time range.
	const covered = `EXISTS (SELECT 1 FROM memory_rollups r WHERE r.namespace = $1 AND r.id = ANY($2) AND r.memory_type = %[1]s.type
		AND %[2]s >= r.bucket_start AND %[2]s < r.bucket_end)`
	for _, q := range []string{
		`UPDATE observations o SET status = 'active' WHERE o.namespace = $1 AND o.status = 'compacted' AND ` + fmt.Sprintf(covered, "o", "o.at"),
		`UPDATE memories m SET status = 'active' WHERE m.namespace = $1 AND m.status = 'compacted' AND ` + fmt.Sprintf(covered, "m", "m.occurred_at"),
		`UPDATE memory_rollups SET rolled_at = NULL WHERE namespace = $1 AND NOT id = ANY($2) AND id IN (
			SELECT source_id FROM memory_rollup_sources WHERE namespace = $1 AND rollup_id = ANY($2) AND source_kind = 'rollup')`,
	} {
		if _, err := tx.Exec(ctx, q, tx.db.Namespace, ids); err != nil {
			return 0, fmt.Errorf("release rollup sources: %w", err)
		}
	}
	tag, err := tx.Exec(ctx, `DELETE FROM memory_rollups WHERE namespace = $1 AND id = ANY($2)`, tx.db.Namespace, ids)
	if err != nil {
		return 0, fmt.Errorf("purge rollups: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// sessionHit is a session whose summary or learned text matches a
// purge's search.
type sessionHit struct {
	id               string
	summary, learned bool
}

// sessionHits finds the sessions, of c's session or project when it names
// one, whose summary or learned text matches.
func (tx *Tx) sessionHits(ctx context.Context, c recall.PurgeCriteria, match *ftsquery.Match) ([]sessionHit, error) {
	rows, err := tx.Query(ctx, `SELECT id, summary, learned FROM sessions WHERE namespace = $1 AND (summary <> '' OR learned <> '')
		AND ($2 = '' OR id = $2) AND ($3 = '' OR project = $3)`, tx.db.Namespace, c.Session, c.Project)
	all, err := collectRows(rows, err, func(r pgx.Row) (sessionHit, error) {
		var id, summary, learned string
		err := r.Scan(&id, &summary, &learned)
		return sessionHit{id, match.RuleOf(summary) != "", match.RuleOf(learned) != ""}, err
	})
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	var hits []sessionHit
	for _, h := range all {
		if h.summary || h.learned {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// clearSessionText clears the matching summary or learned text of the
// sessions, and drops those left with nothing; it returns how many went.
func (tx *Tx) clearSessionText(ctx context.Context, hits []sessionHit) (int, error) {
	touched := map[string]bool{}
	for _, h := range hits {
		if _, err := tx.Exec(ctx, `UPDATE sessions SET summary = CASE WHEN $3 THEN '' ELSE summary END,
			learned = CASE WHEN $4 THEN '' ELSE learned END WHERE namespace = $1 AND id = $2`, tx.db.Namespace, h.id, h.summary, h.learned); err != nil {
			return 0, fmt.Errorf("clear session text: %w", err)
		}
		touched[h.id] = true
	}
	return tx.dropEmptySessions(ctx, touched)
}

package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// PlanPurge counts the matches and the copies a purge would remove with
// them, returns the first sample of the matches, and when a search
// matched nothing, what a wider --match rule would match.
func (s *ForgetService) PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rep, ids, err := s.plan(ctx, c, sample)
	if err != nil {
		return nil, err
	}
	kind := "observation"
	if c.Memories {
		kind = "memory"
	}
	rollups, sessions, err := findCopies(ctx, s.db.read, c, kind, ids)
	if err != nil {
		return nil, err
	}
	rep.Rollups, rep.SessionTexts = len(rollups), len(sessions)
	if !c.Memories {
		if rep.Sessions, err = countPurgedSessions(ctx, s.db.read, c, ids); err != nil {
			return nil, err
		}
	}
	if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
		if rep.Wider, err = s.wider(ctx, c); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// plan finds what c matches: the report with its counts and sample, and
// the ids of every match.
func (s *ForgetService) plan(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, []string, error) {
	rep := &recall.PurgeReport{DryRun: true, Target: c.Target(), Criteria: c.Describe()}
	if c.Memories {
		ms, err := findPurgeMemories(ctx, s.db.read, c)
		if err != nil {
			return nil, nil, err
		}
		rep.Memories = len(ms)
		ids := make([]string, len(ms))
		for i, m := range ms {
			ids[i] = m.ID
			rep.Versions += m.Versions
			if i < sample {
				rep.Sample = append(rep.Sample, m)
			}
		}
		return rep, ids, nil
	}
	where, args, err := wherePurgeObservations(c)
	if err != nil {
		return nil, nil, err
	}
	ids, err := queryStrings(ctx, s.db.read, `SELECT CAST(o.id AS TEXT) FROM observations o WHERE `+where, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("count purge: %w", err)
	}
	rep.Observations = len(ids)
	rows, err := s.db.read.QueryContext(ctx, `SELECT o.id, o.at, o.type, o.session, o.project, substr(o.content, 1, 200), `+observationText+`
		FROM observations o WHERE `+where+` ORDER BY o.at, o.id LIMIT ?`, append(args, sample)...)
	if err != nil {
		return nil, nil, fmt.Errorf("sample purge: %w", err)
	}
	defer rows.Close()
	match, _ := newPurgeMatch(c) // wherePurgeObservations has checked it
	for rows.Next() {
		var it recall.PurgeItem
		var id, at int64
		var text string
		if err := rows.Scan(&id, &at, &it.Type, &it.Session, &it.Project, &it.Text, &text); err != nil {
			return nil, nil, err
		}
		it.ID, it.At = fmt.Sprint(id), fromMS(at)
		if match != nil {
			it.Rule = match.Label(text)
		}
		rep.Sample = append(rep.Sample, it)
	}
	return rep, ids, rows.Err()
}

// wider says what the wider --match rules would match when c's search
// matched nothing: the first of them that matches anything, or nil.
func (s *ForgetService) wider(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeWider, error) {
	if c.Search == "" {
		return nil, nil
	}
	return ftsquery.FirstWider(c, func(wc recall.PurgeCriteria) (int, error) {
		rep, _, err := s.plan(ctx, wc, 0)
		if err != nil {
			return 0, err
		}
		return rep.Matched(), nil
	})
}

// purgeRetries bounds how often VACUUM and the WAL checkpoint are tried
// while other processes hold the store busy; each try already waits up to
// busy_timeout.
const purgeRetries = 3

// Purge deletes the matches under secure_delete, removes what they leave
// behind, merges the FTS index so no token of them survives, writes an
// audit record and returns free pages, all in one transaction, so a
// failure leaves everything as it was. Then it rewrites the file with
// VACUUM and truncates the WAL: secure_delete zeroes what this purge
// frees, but earlier updates (an edit that removed a secret from a memory,
// an FTS merge) left copies in free space inside live pages, and only a
// rewrite of the file removes those.
func (s *ForgetService) Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rep := &recall.PurgeReport{Target: c.Target(), Criteria: c.Describe(), Upkeep: &recall.Upkeep{SecureDelete: true}}
	err := s.db.secureUpdate(ctx, func(tx *Tx) error {
		var err error
		var ids []string
		table, kind := "observations_fts", "observation"
		if c.Memories {
			table, kind = "memories_fts", "memory"
			ids, err = purgeMemories(ctx, tx, c, rep)
		} else {
			ids, err = purgeObservations(ctx, tx, c, rep)
		}
		if err != nil {
			return err
		}
		if err := purgeCopies(ctx, tx, c, kind, ids, rep); err != nil {
			return err
		}
		if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
			return nil
		}
		if rep.Upkeep.FTS, err = compactFTS(ctx, tx, table, rep.Matched(), true); err != nil {
			return err
		}
		if _, err := compactFTS(ctx, tx, "memory_rollups_fts", rep.Rollups, true); err != nil {
			return err
		}
		counts := map[string]int{"observations": rep.Observations, "memories": rep.Memories, "versions": rep.Versions, "sessions": rep.Sessions,
			"rollups": rep.Rollups, "session_texts": rep.SessionTexts}
		if err := audit(ctx, tx, "purge", rep.Criteria, counts); err != nil {
			return err
		}
		rep.Upkeep.FreedPages, err = incrementalVacuum(ctx, tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Even with nothing left to delete the file is rewritten: that is how a
	// purge interrupted by a busy store is finished, by running it again.
	if rep.Upkeep.Vacuumed, err = s.db.vacuum(ctx, purgeRetries); err != nil {
		return nil, err
	}
	if rep.Upkeep.WALTruncated, err = s.db.checkpointTruncate(ctx, purgeRetries); err != nil {
		return nil, err
	}
	if rep.Matched()+rep.Copies() == 0 {
		if rep.Wider, err = s.wider(ctx, c); err != nil {
			return nil, err
		}
	}
	if c.Memories { // the cached vector index holds quantised traces of purged memories
		if err := s.db.DropVectorCache(); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// wherePurgeObservations turns criteria into a condition over alias o.
// Search requires every word (or prefix, or the substring), unlike ranked
// search which ORs them: a purge must not widen to anything sharing one
// common word.
func wherePurgeObservations(c recall.PurgeCriteria) (string, []any, error) {
	f := recall.ObservationFilter{Until: c.Until()}
	if c.ObservationID != 0 {
		f.ID = &c.ObservationID
	}
	for _, p := range []struct {
		dst **string
		v   string
	}{{&f.Type, c.Type}, {&f.Session, c.Session}, {&f.Project, c.Project}} {
		if p.v != "" {
			v := p.v
			*p.dst = &v
		}
	}
	where, args := whereObservations(f)
	match, err := newPurgeMatch(c)
	if err != nil || match == nil {
		return where, args, err
	}
	cond, cargs := match.cond("o.id", "observations_fts", observationText)
	return where + " AND " + cond, append(args, cargs...), nil
}

// observationText is every free-text column of an observation row, for
// substring matches and for naming the rule an entry matched.
const observationText = `o.content || ' ' || o.file || ' ' || o.key || ' ' || o.tool || ' ' || o.metadata`

// purgeObservations deletes the matched observations and returns their
// ids, by which the rollups built from them are found.
func purgeObservations(ctx context.Context, tx *Tx, c recall.PurgeCriteria, rep *recall.PurgeReport) ([]string, error) {
	where, args, err := wherePurgeObservations(c)
	if err != nil {
		return nil, err
	}
	var ids []string
	if ids, err = queryStrings(ctx, tx, `SELECT CAST(o.id AS TEXT) FROM observations o WHERE `+where, args...); err != nil {
		return nil, fmt.Errorf("purge observations: %w", err)
	}
	touched := map[string]bool{}
	rep.Observations, err = deleteObservations(ctx, tx, touched, `id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`, jsonList(ids))
	if err != nil {
		return nil, fmt.Errorf("purge observations: %w", err)
	}
	if rep.Sessions, err = dropEmptySessions(ctx, tx, touched); err != nil {
		return nil, err
	}
	n, err := purgeWholeSessions(ctx, tx, c)
	rep.Sessions += n
	return ids, err
}

// purgeWholeSessions deletes the session rows themselves, summary included,
// when the criteria name a session or a project and nothing narrower: the
// seed's cascade for --session and --project.
func purgeWholeSessions(ctx context.Context, tx *Tx, c recall.PurgeCriteria) (int, error) {
	cond, args, ok := wholeSessions(c)
	if !ok {
		return 0, nil
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE NOT EXISTS (SELECT 1 FROM observations o WHERE o.session = sessions.id) AND `+cond, args...)
	if err != nil {
		return 0, fmt.Errorf("purge sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// wholeSessions is the condition on sessions rows that c purges whole,
// and false when it purges none.
func wholeSessions(c recall.PurgeCriteria) (string, []any, bool) {
	narrowed := c.Type != "" || c.Search != "" || c.ObservationID != 0 || c.Until() != nil
	if narrowed || (c.Session == "" && c.Project == "") {
		return "", nil, false
	}
	var conds []string
	var args []any
	if c.Session != "" {
		conds, args = append(conds, "sessions.id = ?"), append(args, c.Session)
	}
	if c.Project != "" {
		conds, args = append(conds, "sessions.project = ?"), append(args, c.Project)
	}
	return strings.Join(conds, " AND "), args, true
}

// countPurgedSessions counts the sessions a purge of the observations ids
// under c removes: those it empties that hold no summary, and those c
// purges whole, once none of their observations is left.
func countPurgedSessions(ctx context.Context, q querier, c recall.PurgeCriteria, ids []string) (int, error) {
	list := jsonList(ids)
	emptied := `(sessions.summary = '' AND sessions.learned = '' AND EXISTS (SELECT 1 FROM observations o
		WHERE o.session = sessions.id AND o.id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))))`
	args := []any{list, list}
	if cond, whole, ok := wholeSessions(c); ok {
		emptied = `(` + emptied + ` OR (` + cond + `))`
		args = append(args, whole...)
	}
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE NOT EXISTS (SELECT 1 FROM observations o
		WHERE o.session = sessions.id AND o.id NOT IN (SELECT CAST(value AS INTEGER) FROM json_each(?))) AND `+emptied, args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count purged sessions: %w", err)
	}
	return n, nil
}

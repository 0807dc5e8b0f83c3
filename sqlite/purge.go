package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-mem/recall"
)

// errNoPurgeTerms is returned for a --search without a searchable word.
var errNoPurgeTerms = recall.Errorf(recall.EINVALID, "--search has no words to match: give letters or digits, for example --search \"sk-proj\".")

// PlanPurge counts the matches and returns the first sample of them.
func (s *ForgetService) PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rep := &recall.PurgeReport{DryRun: true, Target: c.Target(), Criteria: c.Describe()}
	if c.Memories {
		ms, err := findPurgeMemories(ctx, s.db.read, c)
		if err != nil {
			return nil, err
		}
		rep.Memories = len(ms)
		for i, m := range ms {
			rep.Versions += m.Versions
			if i < sample {
				rep.Sample = append(rep.Sample, m)
			}
		}
		return rep, nil
	}
	where, args, err := wherePurgeObservations(c)
	if err != nil {
		return nil, err
	}
	if err := s.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM observations o WHERE `+where, args...).Scan(&rep.Observations); err != nil {
		return nil, fmt.Errorf("count purge: %w", err)
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT o.id, o.at, o.type, o.session, o.project, substr(o.content, 1, 200)
		FROM observations o WHERE `+where+` ORDER BY o.at, o.id LIMIT ?`, append(args, sample)...)
	if err != nil {
		return nil, fmt.Errorf("sample purge: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var it recall.PurgeItem
		var id, at int64
		if err := rows.Scan(&id, &at, &it.Type, &it.Session, &it.Project, &it.Text); err != nil {
			return nil, err
		}
		it.ID, it.At = fmt.Sprint(id), fromMS(at)
		rep.Sample = append(rep.Sample, it)
	}
	return rep, rows.Err()
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
		table := "observations_fts"
		if c.Memories {
			table = "memories_fts"
			err = purgeMemories(ctx, tx, c, rep)
		} else {
			err = purgeObservations(ctx, tx, c, rep)
		}
		if err != nil || rep.Matched()+rep.Sessions == 0 {
			return err
		}
		if rep.Upkeep.FTS, err = compactFTS(ctx, tx, table, rep.Matched(), true); err != nil {
			return err
		}
		counts := map[string]int{"observations": rep.Observations, "memories": rep.Memories, "versions": rep.Versions, "sessions": rep.Sessions}
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
	if c.Memories { // the cached vector index holds quantised traces of purged memories
		if err := s.db.DropVectorCache(); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// wherePurgeObservations turns criteria into a condition over alias o.
// Search requires every word, unlike ranked search which ORs them: a purge
// must not widen to anything sharing one common word.
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
	if c.Search != "" {
		q, err := allTermsQuery(c.Search)
		if err != nil {
			return "", nil, err
		}
		where += " AND o.id IN (SELECT rowid FROM observations_fts WHERE observations_fts MATCH ?)"
		args = append(args, q)
	}
	return where, args, nil
}

// allTermsQuery builds an FTS5 query that matches documents holding every
// word of text.
func allTermsQuery(text string) (string, error) {
	terms := QueryTerms(text)
	if len(terms) == 0 {
		return "", errNoPurgeTerms
	}
	return `"` + strings.Join(terms, `" AND "`) + `"`, nil
}

func purgeObservations(ctx context.Context, tx *Tx, c recall.PurgeCriteria, rep *recall.PurgeReport) error {
	where, args, err := wherePurgeObservations(c)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	rep.Observations, err = deleteObservations(ctx, tx, touched, `id IN (SELECT o.id FROM observations o WHERE `+where+`)`, args...)
	if err != nil {
		return fmt.Errorf("purge observations: %w", err)
	}
	if rep.Sessions, err = dropEmptySessions(ctx, tx, touched); err != nil {
		return err
	}
	n, err := purgeWholeSessions(ctx, tx, c)
	rep.Sessions += n
	return err
}

// purgeWholeSessions deletes the session rows themselves, summary included,
// when the criteria name a session or a project and nothing narrower: the
// seed's cascade for --session and --project.
func purgeWholeSessions(ctx context.Context, tx *Tx, c recall.PurgeCriteria) (int, error) {
	narrowed := c.Type != "" || c.Search != "" || c.ObservationID != 0 || c.Until() != nil
	if narrowed || (c.Session == "" && c.Project == "") {
		return 0, nil
	}
	conds := []string{"NOT EXISTS (SELECT 1 FROM observations o WHERE o.session = sessions.id)"}
	var args []any
	if c.Session != "" {
		conds, args = append(conds, "id = ?"), append(args, c.Session)
	}
	if c.Project != "" {
		conds, args = append(conds, "project = ?"), append(args, c.Project)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE `+strings.Join(conds, " AND "), args...)
	if err != nil {
		return 0, fmt.Errorf("purge sessions: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

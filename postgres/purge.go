package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

var _ recall.Purger = (*ForgetService)(nil)

// PlanPurge counts the matches and the copies a purge would remove with
// them, returns the first sample of the matches, and when a search
// matched nothing, what a wider --match rule would match.
func (s *ForgetService) PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	var rep *recall.PurgeReport
	err := s.db.tx(ctx, func(tx *Tx) error {
		var ids []string
		var err error
		if rep, ids, err = tx.planPurge(ctx, c, sample); err != nil {
			return err
		}
		rollups, sessions, err := tx.findCopies(ctx, c, ids)
		if err != nil {
			return err
		}
		rep.Rollups, rep.SessionTexts = len(rollups), len(sessions)
		if !c.Memories {
			if rep.Sessions, err = tx.plannedSessions(ctx, c); err != nil {
				return err
			}
		}
		if rep.Matched()+rep.Copies()+rep.Sessions == 0 {
			rep.Wider, err = tx.widerPurge(ctx, c)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// planPurge finds what c matches: the report with its counts and sample,
// and the ids of every match.
func (tx *Tx) planPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, []string, error) {
	rep := &recall.PurgeReport{DryRun: true, Target: c.Target(), Criteria: c.Describe()}
	if c.Memories {
		items, err := tx.findPurgeMemories(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		rep.Memories = len(items)
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = it.ID
			rep.Versions += it.Versions
			if i < sample {
				rep.Sample = append(rep.Sample, it)
			}
		}
		return rep, ids, nil
	}
	w, match, err := tx.wherePurgeObservations(c)
	if err != nil {
		return nil, nil, err
	}
	rows, err := tx.Query(ctx, `SELECT o.id, o.at, o.type, o.session, o.project, left(o.content, 200), `+observationText+`
		FROM observations o WHERE `+w.sql()+` ORDER BY o.at, o.id`, w.args...)
	items, err := collectRows(rows, err, func(r pgx.Row) (it recall.PurgeItem, err error) {
		var id int64
		var text string
		if err := r.Scan(&id, &it.At, &it.Type, &it.Session, &it.Project, &it.Text, &text); err != nil {
			return it, err
		}
		it.ID, it.At = strconv.FormatInt(id, 10), it.At.UTC()
		if match != nil {
			it.Rule = match.Label(text)
		}
		return it, nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("find purge observations: %w", err)
	}
	rep.Observations = len(items)
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	rep.Sample = items[:min(sample, len(items))]
	return rep, ids, nil
}

// plannedSessions counts the sessions a purge of observations under c
// removes by running it in a savepoint that is rolled back: which
// sessions go (those emptied without a summary, those named whole) is
// decided in purgeObservations alone, so the plan cannot disagree with it.
func (tx *Tx) plannedSessions(ctx context.Context, c recall.PurgeCriteria) (int, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("plan purge: %w", err)
	}
	defer sp.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a plan never keeps its deletes
	scratch := &recall.PurgeReport{}
	if _, err := (&Tx{Tx: sp, db: tx.db, now: tx.now}).purgeObservations(ctx, c, scratch); err != nil {
		return 0, err
	}
	return scratch.Sessions, nil
}

// widerPurge says what the wider --match rules would match when c's
// search matched nothing: the first of them that matches anything, or nil.
func (tx *Tx) widerPurge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeWider, error) {
	return ftsquery.FirstWider(c, func(wc recall.PurgeCriteria) (int, error) {
		rep, _, err := tx.planPurge(ctx, wc, 0)
		if err != nil {
			return 0, err
		}
		return rep.Matched(), nil
	})
}

// observationText is every free-text column of an observation row, for
// substring matches and for naming the rule an entry matched.
const observationText = `(o.content || ' ' || o.file || ' ' || o.key || ' ' || o.tool || ' ' || o.metadata::text)`

// memoryText is the same for a memory row.
const memoryText = `(m.title || ' ' || m.content || ' ' || m.context || ' ' || m.category || ' ' || m.tags::text || ' ' || m.metadata::text)`

// wherePurgeObservations turns criteria into a condition over alias o.
// Search requires every word (or prefix, or the substring), unlike ranked
// search which ORs them: a purge must not widen to anything sharing one
// common word.
func (tx *Tx) wherePurgeObservations(c recall.PurgeCriteria) (*where, *ftsquery.Match, error) {
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
	w := newWhere("o", tx.db.Namespace)
	w.observations(f)
	match, err := ftsquery.NewMatch(c)
	if err != nil || match == nil {
		return w, nil, err
	}
	w.add(purgeCond(match, w, "o.fts", observationText))
	return w, match, nil
}

// findPurgeMemories returns the memories a purge matches, oldest first:
// live memories and deleted ones that survive only in their history,
// judged by their last snapshot. A search matches the live text through
// the index (or, for substrings, by scanning it) and every version in Go,
// because a secret edited out of a memory still sits in its versions.
func (tx *Tx) findPurgeMemories(ctx context.Context, c recall.PurgeCriteria) ([]recall.PurgeItem, error) {
	match, err := ftsquery.NewMatch(c)
	if err != nil {
		return nil, err
	}
	var inHistory map[string]string
	if match != nil {
		if inHistory, err = tx.historyMatches(ctx, c.MemoryID, match); err != nil {
			return nil, err
		}
	}
	w := newWhere("m", tx.db.Namespace)
	if c.MemoryID != "" {
		w.add("m.id = " + w.arg(c.MemoryID))
	}
	if c.Project != "" {
		w.add("m.project = " + w.arg(c.Project))
	}
	if c.Type != "" {
		w.add("m.type = " + w.arg(c.Type))
	}
	if u := c.Until(); u != nil {
		w.add("m.created_at < " + w.arg(u.UTC()))
	}
	if match != nil {
		hist := make([]string, 0, len(inHistory))
		for id := range inHistory {
			hist = append(hist, id)
		}
		w.add("(" + purgeCond(match, w, "m.fts", memoryText) + " OR m.id = ANY(" + w.arg(hist) + "))")
	}
	rows, err := tx.Query(ctx, `SELECT m.id, m.created_at, m.type, m.project, CASE WHEN m.title <> '' THEN m.title ELSE left(m.content, 200) END,
		(SELECT count(*) FROM memory_versions v WHERE v.namespace = m.namespace AND v.memory_id = m.id), `+memoryText+`
		FROM memories m WHERE `+w.sql()+` ORDER BY m.created_at, m.id`, w.args...)
	out, err := collectRows(rows, err, func(r pgx.Row) (it recall.PurgeItem, err error) {
		var text string
		if err := r.Scan(&it.ID, &it.At, &it.Type, &it.Project, &it.Text, &it.Versions, &text); err != nil {
			return it, err
		}
		it.At = it.At.UTC()
		if match != nil {
			if it.Rule = match.RuleOf(text); it.Rule == "" {
				it.Rule = inHistory[it.ID]
			}
			if it.Rule == "" {
				it.Rule = match.Rule
			}
		}
		return it, nil
	})
	if err != nil {
		return nil, fmt.Errorf("find purge memories: %w", err)
	}
	gone, err := tx.deletedPurgeMemories(ctx, c, inHistory)
	if err != nil {
		return nil, err
	}
	out = append(out, gone...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// deletedPurgeMemories matches memories deleted with `recall delete`,
// whose content lives on in memory_versions, against their last snapshot.
func (tx *Tx) deletedPurgeMemories(ctx context.Context, c recall.PurgeCriteria, inHistory map[string]string) ([]recall.PurgeItem, error) {
	rows, err := tx.Query(ctx, `SELECT DISTINCT ON (v.memory_id) v.memory_id, v.snapshot::text,
			count(*) OVER (PARTITION BY v.memory_id)
		FROM memory_versions v
		WHERE v.namespace = $1 AND ($2 = '' OR v.memory_id = $2)
		AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.namespace = v.namespace AND m.id = v.memory_id)
		ORDER BY v.memory_id, v.version DESC`, tx.db.Namespace, c.MemoryID)
	type last struct {
		id, snap string
		n        int
	}
	lasts, err := collectRows(rows, err, func(r pgx.Row) (l last, err error) { return l, r.Scan(&l.id, &l.snap, &l.n) })
	if err != nil {
		return nil, fmt.Errorf("find deleted memories: %w", err)
	}
	until := c.Until()
	var out []recall.PurgeItem
	for _, l := range lasts {
		var m recall.Memory
		if err := json.Unmarshal([]byte(l.snap), &m); err != nil {
			return nil, fmt.Errorf("snapshot of %s: %w", l.id, err)
		}
		if (c.Project != "" && m.Project != c.Project) || (c.Type != "" && m.Type != c.Type) ||
			(until != nil && !m.CreatedAt.Before(*until)) || (c.Search != "" && inHistory[l.id] == "") {
			continue
		}
		text := m.Title
		if text == "" {
			text = m.Content
		}
		if r := []rune(text); len(r) > 200 {
			text = string(r[:200])
		}
		out = append(out, recall.PurgeItem{ID: l.id, At: m.CreatedAt, Type: m.Type, Project: m.Project,
			Text: text, Versions: l.n, Deleted: true, Rule: inHistory[l.id]})
	}
	return out, nil
}

// historyMatches returns the ids of memories with a version whose text
// (title, content, context, category, tags, metadata) matches, each with
// the narrowest rule any version matches.
func (tx *Tx) historyMatches(ctx context.Context, id string, match *ftsquery.Match) (map[string]string, error) {
	rows, err := tx.Query(ctx, `SELECT memory_id, snapshot::text FROM memory_versions WHERE namespace = $1 AND ($2 = '' OR memory_id = $2)`,
		tx.db.Namespace, id)
	if err != nil {
		return nil, fmt.Errorf("search versions: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var mid, snap string
		if err := rows.Scan(&mid, &snap); err != nil {
			return nil, err
		}
		if err := match.AddVersion(out, mid, []byte(snap)); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

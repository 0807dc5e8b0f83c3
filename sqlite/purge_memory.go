package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/recall-mem/recall"
)

// findPurgeMemories returns the memories a purge matches, oldest first: live
// memories and deleted ones that survive only in their history, judged by
// their last snapshot. A search matches the live text through the FTS index
// and every earlier version word by word, because a secret edited out of a
// memory still sits in its versions.
func findPurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria) ([]recall.PurgeItem, error) {
	var terms []string
	var inHistory map[string]bool
	if c.Search != "" {
		if terms = QueryTerms(c.Search); len(terms) == 0 {
			return nil, errNoPurgeTerms
		}
		var err error
		if inHistory, err = historyMatches(ctx, q, c.MemoryID, terms); err != nil {
			return nil, err
		}
	}
	live, err := livePurgeMemories(ctx, q, c, inHistory)
	if err != nil {
		return nil, err
	}
	gone, err := deletedPurgeMemories(ctx, q, c, inHistory)
	if err != nil {
		return nil, err
	}
	out := append(live, gone...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

func livePurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria, inHistory map[string]bool) ([]recall.PurgeItem, error) {
	conds := []string{"1"}
	var args []any
	add := func(cond string, v any) { conds, args = append(conds, cond), append(args, v) }
	if c.MemoryID != "" {
		add("m.id = ?", c.MemoryID)
	}
	if c.Project != "" {
		add("m.project = ?", c.Project)
	}
	if c.Type != "" {
		add("m.type = ?", c.Type)
	}
	if u := c.Until(); u != nil {
		add("m.created_at < ?", ms(*u))
	}
	if c.Search != "" {
		fts, err := allTermsQuery(c.Search)
		if err != nil {
			return nil, err
		}
		conds = append(conds, "(m.seq IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?) OR m.id IN (SELECT value FROM json_each(?)))")
		args = append(args, fts, idList(inHistory))
	}
	rows, err := q.QueryContext(ctx, `SELECT m.id, m.created_at, m.type, m.project, CASE WHEN m.title != '' THEN m.title ELSE substr(m.content, 1, 200) END,
		(SELECT COUNT(*) FROM memory_versions v WHERE v.memory_id = m.id)
		FROM memories m WHERE `+strings.Join(conds, " AND ")+` ORDER BY m.created_at, m.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("find purge memories: %w", err)
	}
	defer rows.Close()
	var out []recall.PurgeItem
	for rows.Next() {
		var it recall.PurgeItem
		var at int64
		if err := rows.Scan(&it.ID, &at, &it.Type, &it.Project, &it.Text, &it.Versions); err != nil {
			return nil, err
		}
		it.At = fromMS(at)
		out = append(out, it)
	}
	return out, rows.Err()
}

// deletedPurgeMemories matches memories deleted with `recall delete`, whose
// content lives on in memory_versions, against their last snapshot.
func deletedPurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria, inHistory map[string]bool) ([]recall.PurgeItem, error) {
	query := `SELECT v.memory_id, v.snapshot, (SELECT COUNT(*) FROM memory_versions w WHERE w.memory_id = v.memory_id)
		FROM memory_versions v
		WHERE v.version = (SELECT MAX(w.version) FROM memory_versions w WHERE w.memory_id = v.memory_id)
		AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = v.memory_id)`
	var args []any
	if c.MemoryID != "" {
		query, args = query+` AND v.memory_id = ?`, append(args, c.MemoryID)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("find deleted memories: %w", err)
	}
	defer rows.Close()
	until := c.Until()
	var out []recall.PurgeItem
	for rows.Next() {
		var id, snap string
		var n int
		if err := rows.Scan(&id, &snap, &n); err != nil {
			return nil, err
		}
		var m recall.Memory
		if err := json.Unmarshal([]byte(snap), &m); err != nil {
			return nil, fmt.Errorf("snapshot of %s: %w", id, err)
		}
		if (c.Project != "" && m.Project != c.Project) || (c.Type != "" && m.Type != c.Type) ||
			(until != nil && !m.CreatedAt.Before(*until)) || (c.Search != "" && !inHistory[id]) {
			continue
		}
		text := m.Title
		if text == "" {
			text = m.Content
		}
		out = append(out, recall.PurgeItem{ID: id, At: m.CreatedAt, Type: m.Type, Project: m.Project,
			Text: firstRunes(text, 200), Versions: n, Deleted: true})
	}
	return out, rows.Err()
}

// historyMatches returns the ids of memories with a version whose title,
// content, tags or context hold every term as a word.
func historyMatches(ctx context.Context, q querier, id string, terms []string) (map[string]bool, error) {
	query, args := `SELECT memory_id, snapshot FROM memory_versions`, []any{}
	if id != "" {
		query, args = query+` WHERE memory_id = ?`, append(args, id)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("search versions: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var mid, snap string
		if err := rows.Scan(&mid, &snap); err != nil {
			return nil, err
		}
		if out[mid] {
			continue
		}
		var m recall.Memory
		if err := json.Unmarshal([]byte(snap), &m); err != nil {
			return nil, fmt.Errorf("snapshot of %s: %w", mid, err)
		}
		if holdsAll(m.Title+" "+m.Content+" "+m.Context+" "+strings.Join(m.Tags, " "), terms) {
			out[mid] = true
		}
	}
	return out, rows.Err()
}

// holdsAll reports whether text has every term as a word, split the way
// QueryTerms splits queries.
func holdsAll(text string, terms []string) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words[w] = true
	}
	for _, t := range terms {
		if !words[t] {
			return false
		}
	}
	return true
}

func idList(ids map[string]bool) string {
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	buf, _ := json.Marshal(list)
	return string(buf)
}

func firstRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// purgeMemories deletes the matched memories and every version of them;
// their vectors go with them through the foreign key's cascade.
func purgeMemories(ctx context.Context, tx *Tx, c recall.PurgeCriteria, rep *recall.PurgeReport) error {
	items, err := findPurgeMemories(ctx, tx, c)
	if err != nil || len(items) == 0 {
		return err
	}
	ids := map[string]bool{}
	for _, it := range items {
		ids[it.ID] = true
	}
	list := idList(ids)
	if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE id IN (SELECT value FROM json_each(?))`, list); err != nil {
		return fmt.Errorf("purge memories: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM memory_versions WHERE memory_id IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return fmt.Errorf("purge versions: %w", err)
	}
	versions, err := res.RowsAffected()
	rep.Memories, rep.Versions = len(items), int(versions)
	return err
}

package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/recall-mem/recall"
)

// findPurgeMemories returns the memories a purge matches, oldest first: live
// memories and deleted ones that survive only in their history, judged by
// their last snapshot. A search matches the live text through the FTS index
// (or, for substrings, by scanning it) and every earlier version in Go,
// because a secret edited out of a memory still sits in its versions.
func findPurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria) ([]recall.PurgeItem, error) {
	match, err := newPurgeMatch(c)
	if err != nil {
		return nil, err
	}
	var inHistory map[string]string
	if match != nil {
		if inHistory, err = historyMatches(ctx, q, c.MemoryID, match); err != nil {
			return nil, err
		}
	}
	live, err := livePurgeMemories(ctx, q, c, match, inHistory)
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

// memoryText is every free-text column of a memory row, for substring
// matches and for naming the rule an entry matched.
const memoryText = `m.title || ' ' || m.content || ' ' || m.context || ' ' || m.category || ' ' || m.tags || ' ' || m.metadata`

func livePurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria, match *purgeMatch, inHistory map[string]string) ([]recall.PurgeItem, error) {
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
	if match != nil {
		cond, cargs := match.cond("m.seq", "memories_fts", memoryText)
		conds = append(conds, "("+cond+" OR m.id IN (SELECT value FROM json_each(?)))")
		args = append(append(args, cargs...), idList(inHistory))
	}
	rows, err := q.QueryContext(ctx, `SELECT m.id, m.created_at, m.type, m.project, CASE WHEN m.title != '' THEN m.title ELSE substr(m.content, 1, 200) END,
		(SELECT COUNT(*) FROM memory_versions v WHERE v.memory_id = m.id), `+memoryText+`
		FROM memories m WHERE `+strings.Join(conds, " AND ")+` ORDER BY m.created_at, m.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("find purge memories: %w", err)
	}
	defer rows.Close()
	var out []recall.PurgeItem
	for rows.Next() {
		var it recall.PurgeItem
		var at int64
		var text string
		if err := rows.Scan(&it.ID, &at, &it.Type, &it.Project, &it.Text, &it.Versions, &text); err != nil {
			return nil, err
		}
		it.At = fromMS(at)
		if match != nil {
			if it.Rule = match.RuleOf(text); it.Rule == "" {
				it.Rule = inHistory[it.ID]
			}
			if it.Rule == "" {
				it.Rule = match.Rule
			}
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// deletedPurgeMemories matches memories deleted with `recall delete`, whose
// content lives on in memory_versions, against their last snapshot.
func deletedPurgeMemories(ctx context.Context, q querier, c recall.PurgeCriteria, inHistory map[string]string) ([]recall.PurgeItem, error) {
	query := `SELECT v.memory_id, ` + versionSnapshotSQL + `, (SELECT COUNT(*) FROM memory_versions w WHERE w.memory_id = v.memory_id)
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
			(until != nil && !m.CreatedAt.Before(*until)) || (c.Search != "" && inHistory[id] == "") {
			continue
		}
		text := m.Title
		if text == "" {
			text = m.Content
		}
		out = append(out, recall.PurgeItem{ID: id, At: m.CreatedAt, Type: m.Type, Project: m.Project,
			Text: firstRunes(text, 200), Versions: n, Deleted: true, Rule: inHistory[id]})
	}
	return out, rows.Err()
}

// historyMatches returns the ids of memories with a version whose text
// (title, content, context, category, tags, metadata) matches, each with
// the narrowest rule any version matches.
func historyMatches(ctx context.Context, q querier, id string, match *purgeMatch) (map[string]string, error) {
	query, args := `SELECT v.memory_id, `+versionSnapshotSQL+` FROM memory_versions v`, []any{}
	if id != "" {
		query, args = query+` WHERE v.memory_id = ?`, append(args, id)
	}
	rows, err := q.QueryContext(ctx, query, args...)
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

// idList encodes the keys of a set as a JSON array for json_each.
func idList[V any](ids map[string]V) string {
	return jsonList(slices.Collect(maps.Keys(ids)))
}

func firstRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// purgeMemories deletes the matched memories and every version of them;
// their vectors go with them through the foreign key's cascade. It returns
// their ids, by which the rollups built from them are found.
func purgeMemories(ctx context.Context, tx *Tx, c recall.PurgeCriteria, rep *recall.PurgeReport) ([]string, error) {
	items, err := findPurgeMemories(ctx, tx, c)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	list := jsonList(ids)
	// Versions first: deleting a memory copies its text into the versions
	// that share it (migration 0015), which would be work for nothing.
	res, err := tx.ExecContext(ctx, `DELETE FROM memory_versions WHERE memory_id IN (SELECT value FROM json_each(?))`, list)
	if err != nil {
		return nil, fmt.Errorf("purge versions: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE id IN (SELECT value FROM json_each(?))`, list); err != nil {
		return nil, fmt.Errorf("purge memories: %w", err)
	}
	versions, err := res.RowsAffected()
	rep.Memories, rep.Versions = len(items), int(versions)
	return ids, err
}

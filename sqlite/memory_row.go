package sqlite

import (
	"database/sql"
	"encoding/json"
	"strings"
	"sync"

	"github.com/recall-mem/recall"
)

// memoryColumns is the select list that scanMemory reads, in order.
const memoryColumns = `m.id, m.key, m.collection, m.type, m.title, m.content, m.tags, m.category,
	m.context, m.related, m.project, m.priority, m.created_by, m.confidence, m.tier, m.pinned,
	m.status, m.anchors, m.metadata, m.created_at, m.updated_at, m.reviewed_at, m.occurred_at,
	m.snoozed_until, m.version`

type scanner interface{ Scan(dest ...any) error }

// memoryColumnsBesides are the columns of a memory row that are not
// scanned straight into recall.Memory: in one value, so that scanning
// them takes one allocation, not one per column.
type memoryColumnsBesides struct {
	key                          sql.NullString
	tags, related, anchors, meta string
	created, updated, occurred   int64
	reviewed, snoozed            sql.NullInt64
}

func scanMemory(row scanner) (*recall.Memory, error) { return scanMemoryWith(row, nil) }

// scanDests holds the lists of destinations scanMemoryWith passes to
// Scan: through the scanner interface a list escapes, and a new one for
// every row was a fifth of what a hybrid search allocated (its 133
// full-text rows and ~100 vector candidates).
var scanDests = sync.Pool{New: func() any {
	d := make([]any, 0, 26)
	return &d
}}

// scanMemoryWith scans a memory row followed, when extra is not nil, by
// one more column into extra.
func scanMemoryWith(row scanner, extra any) (*recall.Memory, error) {
	m, c := new(recall.Memory), new(memoryColumnsBesides)
	list := scanDests.Get().(*[]any)
	dest := append((*list)[:0], &m.ID, &c.key, &m.Collection, &m.Type, &m.Title, &m.Content, &c.tags, &m.Category,
		&m.Context, &c.related, &m.Project, &m.Priority, &m.CreatedBy, &m.Confidence, &m.Tier, &m.Pinned,
		&m.Status, &c.anchors, &c.meta, &c.created, &c.updated, &c.reviewed, &c.occurred, &c.snoozed, &m.Version)
	if extra != nil {
		dest = append(dest, extra)
	}
	err := row.Scan(dest...)
	clear(dest) // the pooled list must not keep this row's memory alive
	*list = dest[:0]
	scanDests.Put(list)
	if err != nil {
		return nil, err
	}
	m.Key = c.key.String
	if err := decodeStrings("tags", c.tags, &m.Tags); err != nil {
		return nil, err
	}
	if err := decodeStrings("related", c.related, &m.Related); err != nil {
		return nil, err
	}
	if err := decodeAnchors(c.anchors, &m.Anchors); err != nil {
		return nil, err
	}
	m.Metadata = metadataOf(c.meta)
	m.CreatedAt, m.UpdatedAt, m.OccurredAt = fromMS(c.created), fromMS(c.updated), fromMS(c.occurred)
	m.ReviewedAt, m.SnoozedUntil = fromNullMS(c.reviewed), fromNullMS(c.snoozed)
	return m, nil
}

// jsonText encodes v for a JSON column, with empty slices as "[]".
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// stringsText is jsonText of a list of strings, byte for byte, without
// reflection for a list of plain strings (printable ASCII that JSON
// escapes nothing of, as encoding/json escapes <, > and & too), such as
// most tags: the list's encoding was done twice per written memory.
func stringsText(list []string) string {
	if len(list) == 0 {
		return "[]"
	}
	n := 1 + len(list)*3
	for _, s := range list {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return jsonText(list)
			}
		}
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	for i, s := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String()
}

func metaText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	return string(raw)
}

func nullKey(k string) sql.NullString {
	return sql.NullString{String: k, Valid: k != ""}
}

// Values that most rows share, boxed once: putting a string, a number or
// a struct in an interface allocates, a dozen times per written row.
var (
	boxedNoString any = sql.NullString{}
	boxedNoTime   any = sql.NullInt64{}
	boxedOne      any = 1.0 // the default confidence
	boxedText         = func() map[string]any {
		m := map[string]any{}
		for _, s := range []string{"", "[]", "{}", recall.DefaultCollection, recall.TierWorking, recall.TierRegister, recall.TierArchive,
			recall.StatusActive, recall.StatusSuperseded, recall.StatusArchived, recall.StatusCompacted} {
			m[s] = s
		}
		return m
	}()
)

// boxText is s as an argument, boxed once if it is a common value.
func boxText(s string) any {
	if v, ok := boxedText[s]; ok {
		return v
	}
	return s
}

// appendMemoryArgs appends the values of every stored column after id,
// in the order of insertMemorySQL and updateMemorySQL, to dst.
func appendMemoryArgs(dst []any, m *recall.Memory) []any {
	key, reviewed, snoozed := boxedNoString, boxedNoTime, boxedNoTime
	if m.Key != "" {
		key = nullKey(m.Key)
	}
	if m.ReviewedAt != nil {
		reviewed = nullMS(m.ReviewedAt)
	}
	if m.SnoozedUntil != nil {
		snoozed = nullMS(m.SnoozedUntil)
	}
	var confidence any = m.Confidence
	if m.Confidence == 1 {
		confidence = boxedOne
	}
	related, anchors := "[]", "[]"
	if len(m.Related) > 0 {
		related = stringsText(m.Related)
	}
	if len(m.Anchors) > 0 {
		anchors = jsonText(m.Anchors)
	}
	return append(dst,
		key, boxText(m.Collection), boxText(m.Type), m.Title, m.Content, boxText(stringsText(m.Tags)), boxText(m.Category),
		boxText(m.Context), boxText(related), boxText(m.Project), boxText(m.Priority), boxText(m.CreatedBy), confidence, boxText(m.Tier), m.Pinned,
		boxText(m.Status), boxText(anchors), boxText(metaText(m.Metadata)), ms(m.CreatedAt), ms(m.UpdatedAt), reviewed,
		ms(m.OccurredAt), snoozed, m.Version,
	)
}

// memoryRowArgs is the length of the arguments of insertMemorySQL and
// updateMemorySQL (id and appendMemoryArgs).
const memoryRowArgs = 25

const insertMemorySQL = `INSERT INTO memories (id, key, collection, type, title, content, tags, category,
	context, related, project, priority, created_by, confidence, tier, pinned, status, anchors, metadata,
	created_at, updated_at, reviewed_at, occurred_at, snoozed_until, version)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// indexMemorySQL indexes a new memory; it must be given the values
// insertMemorySQL stored, as the external-content index reads them back
// from the table when it deletes the row.
const indexMemorySQL = `INSERT INTO memories_fts(rowid, title, content, tags) VALUES (?, ?, ?, ?)`

// tagMemorySQL lists a new memory's tags in memory_tags (migration 0014),
// given its seq and the tags column. Updates and deletes keep memory_tags
// in step by trigger; a trigger on insert would open a statement journal
// for every new memory, and FTS5 would flush its pending terms at each
// (half the import rate, as migration 0008 explains).
const tagMemorySQL = `INSERT OR IGNORE INTO memory_tags (tag, seq) SELECT value, ? FROM json_each(?) WHERE type = 'text'`

// tagOneSQL lists one tag of a new memory (see tagMemory).
const tagOneSQL = `INSERT OR IGNORE INTO memory_tags (tag, seq) VALUES (?, ?)`

const updateMemorySQL = `UPDATE memories SET key = ?, collection = ?, type = ?, title = ?, content = ?,
	tags = ?, category = ?, context = ?, related = ?, project = ?, priority = ?, created_by = ?,
	confidence = ?, tier = ?, pinned = ?, status = ?, anchors = ?, metadata = ?, created_at = ?,
	updated_at = ?, reviewed_at = ?, occurred_at = ?, snoozed_until = ?, version = ?
	WHERE id = ?`

// hotStatements are prepared once when the store opens (see DB.hot).
var hotStatements = []string{insertMemorySQL, indexMemorySQL, tagMemorySQL, tagOneSQL, updateMemorySQL, insertVersionSQL,
	`SELECT ` + memoryColumns + ` FROM memories m WHERE m.id = ?`,
	`SELECT ` + memoryColumns + ` FROM memories m WHERE m.collection = ? AND m.key = ?`}

// collect scans every row with scan and closes rows.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// memoryColumns is the select list scanMemory reads, in order. JSON
// columns come back as text, so the driver hands over their bytes as
// stored.
const memoryColumns = `m.id, m.key, m.collection, m.type, m.title, m.content, m.tags::text, m.category,
	m.context, m.related::text, m.project, m.priority, m.created_by, m.confidence, m.tier, m.pinned,
	m.status, m.anchors::text, m.metadata::text, m.created_at, m.updated_at, m.reviewed_at, m.occurred_at,
	m.snoozed_until, m.version`

func scanMemory(row pgx.Row) (*recall.Memory, error) {
	var (
		m                            recall.Memory
		key                          *string
		tags, related, anchors, meta string
		reviewed, snoozed            *time.Time
	)
	if err := row.Scan(&m.ID, &key, &m.Collection, &m.Type, &m.Title, &m.Content, &tags, &m.Category,
		&m.Context, &related, &m.Project, &m.Priority, &m.CreatedBy, &m.Confidence, &m.Tier, &m.Pinned,
		&m.Status, &anchors, &meta, &m.CreatedAt, &m.UpdatedAt, &reviewed, &m.OccurredAt, &snoozed, &m.Version); err != nil {
		return nil, err
	}
	if key != nil {
		m.Key = *key
	}
	for _, c := range []struct {
		name, text string
		dst        any
	}{{"tags", tags, &m.Tags}, {"related", related, &m.Related}, {"anchors", anchors, &m.Anchors}} {
		if err := json.Unmarshal([]byte(c.text), c.dst); err != nil {
			return nil, fmt.Errorf("decode %s of %s: %w", c.name, m.ID, err)
		}
	}
	if meta != "{}" {
		m.Metadata = json.RawMessage(meta)
	}
	m.CreatedAt, m.UpdatedAt, m.OccurredAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC(), m.OccurredAt.UTC()
	m.ReviewedAt, m.SnoozedUntil = utcPtr(reviewed), utcPtr(snoozed)
	return &m, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// jsonArray encodes a slice for a JSON column, nil as [].
func jsonArray(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "[]"
	}
	return string(b)
}

func jsonObject(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return "{}"
	}
	return string(raw)
}

// memoryValues returns the stored columns of m after namespace and id, in
// the order of the column list below.
func memoryValues(m *recall.Memory) []any {
	var key *string
	if m.Key != "" {
		key = &m.Key
	}
	return []any{key, m.Collection, m.Type, m.Title, m.Content, jsonArray(m.Tags), m.Category,
		m.Context, jsonArray(m.Related), m.Project, m.Priority, m.CreatedBy, m.Confidence, m.Tier, m.Pinned,
		m.Status, jsonArray(m.Anchors), jsonObject(m.Metadata), m.CreatedAt, m.UpdatedAt, m.ReviewedAt,
		m.OccurredAt, m.SnoozedUntil, m.Version}
}

// memoryColumnNames are the stored columns after namespace and id, in the
// order of memoryValues.
const memoryColumnNames = `key, collection, type, title, content, tags, category, context, related,
	project, priority, created_by, confidence, tier, pinned, status, anchors, metadata, created_at,
	updated_at, reviewed_at, occurred_at, snoozed_until, version`

// insertMemorySQL inserts a memory: $1 is the namespace, $2 the id.
const insertMemorySQL = `INSERT INTO memories (namespace, id, ` + memoryColumnNames + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb, $12, $13, $14, $15, $16, $17, $18,
	$19::jsonb, $20::json, $21, $22, $23, $24, $25, $26)`

// updateMemorySQL replaces every column of a memory, with the arguments
// of insertMemorySQL.
const updateMemorySQL = `UPDATE memories SET (` + memoryColumnNames + `) =
	($3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb, $12, $13, $14, $15, $16, $17, $18,
	$19::jsonb, $20::json, $21, $22, $23, $24, $25, $26)
	WHERE namespace = $1 AND id = $2`

// collectRows scans every row with scan and closes rows.
func collectRows[T any](rows pgx.Rows, err error, scan func(pgx.Row) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
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

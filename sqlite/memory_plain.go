package sqlite

import "github.com/recall-mem/recall"

// insertPlainMemorySQL is insertMemorySQL for a plain memory (plainMemory),
// with the values of its empty fields written into the statement: of the
// 25 arguments the driver would bind, copying every text into C memory and
// freeing it after the row, 14 are then the same for every row. Batched
// imports and puts of plain text are nearly all of this kind.
const insertPlainMemorySQL = `INSERT INTO memories (id, key, collection, type, title, content, tags, category,
	context, related, project, priority, created_by, confidence, tier, pinned, status, anchors, metadata,
	created_at, updated_at, reviewed_at, occurred_at, snoozed_until, version)
	VALUES (?, NULL, ?, '', ?, ?, ?, '', '', '[]', '', '', '', 1.0, ?, 0, ?, '[]', '{}', ?, ?, NULL, ?, NULL, ?)`

// plainMemory reports whether every field insertPlainMemorySQL writes as a
// constant has that value in m: no key, type, category, context, related
// ids, project, priority, author, anchors, metadata, review or snooze
// time, a confidence of 1 and not pinned.
func plainMemory(m *recall.Memory) bool {
	return m.Key == "" && m.Type == "" && m.Category == "" && m.Context == "" && len(m.Related) == 0 &&
		m.Project == "" && m.Priority == "" && m.CreatedBy == "" && m.Confidence == 1 && !m.Pinned &&
		len(m.Anchors) == 0 && metaText(m.Metadata) == "{}" && m.ReviewedAt == nil && m.SnoozedUntil == nil
}

// plainMemoryArgs are the arguments of insertPlainMemorySQL for m, in
// dst (which holds at least 11).
func plainMemoryArgs(dst []any, m *recall.Memory) []any {
	return append(dst, m.ID, boxText(m.Collection), m.Title, m.Content, boxText(stringsText(m.Tags)), boxText(m.Tier), boxText(m.Status),
		ms(m.CreatedAt), ms(m.UpdatedAt), ms(m.OccurredAt), m.Version)
}

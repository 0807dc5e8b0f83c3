package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// Copier is the namespace's side of moving a store between backends: its
// rows dumped and loaded exactly as stored (recall.StoreCopier).
type Copier struct{ db *DB }

// ownMetaList are the store facts that are the namespace's own state
// rather than its data: the embedder's last failure.
const ownMetaList = `'` + metaEmbedError + `', '` + metaEmbedErrorAt + `'`

// copyQueries are, per kind, the count and the select of DumpRows over
// the namespace $1, with the reader that appends one row to a batch.
var copyQueries = map[recall.CopyKind]struct {
	count, rows string
	scan        func(pgx.Rows, *recall.CopyBatch) error
}{
	recall.CopyMemories: {`SELECT count(*) FROM memories WHERE namespace = $1`,
		`SELECT ` + memoryColumns + ` FROM memories m WHERE m.namespace = $1 ORDER BY m.id`,
		appendRow(scanMemory, func(b *recall.CopyBatch) *[]*recall.Memory { return &b.Memories })},
	recall.CopyVersions: {`SELECT count(*) FROM memory_versions WHERE namespace = $1`,
		`SELECT memory_id, version, op, changed_at, snapshot::text FROM memory_versions WHERE namespace = $1 ORDER BY memory_id, version`,
		appendRow(scanVersion, func(b *recall.CopyBatch) *[]*recall.MemoryVersion { return &b.Versions })},
	recall.CopyObservations: {`SELECT count(*) FROM observations WHERE namespace = $1`,
		`SELECT ` + observationColumns + ` FROM observations o WHERE o.namespace = $1 ORDER BY o.id`,
		appendRow(scanObservation, func(b *recall.CopyBatch) *[]*recall.Observation { return &b.Observations })},
	recall.CopySessions: {`SELECT count(*) FROM sessions WHERE namespace = $1`,
		`SELECT ` + sessionColumns + ` FROM sessions WHERE namespace = $1 ORDER BY id`,
		appendRow(scanSession, func(b *recall.CopyBatch) *[]*recall.Session { return &b.Sessions })},
	recall.CopyRollups: {`SELECT count(*) FROM memory_rollups WHERE namespace = $1`,
		`SELECT ` + rollupColumns + `, coalesce((SELECT json_agg(json_build_array(s.source_kind, s.source_id))
			FROM memory_rollup_sources s WHERE s.namespace = r.namespace AND s.rollup_id = r.id), '[]')::text
			FROM memory_rollups r WHERE r.namespace = $1 ORDER BY r.id`,
		appendRow(scanRollupSources, func(b *recall.CopyBatch) *[]*recall.Rollup { return &b.Rollups })},
	// A vector is of the memory's current text when it was made from the
	// text the memory holds (see vector.go).
	recall.CopyVectors: {`SELECT count(*) FROM memory_vectors v JOIN memories m ON m.namespace = v.namespace AND m.id = v.memory_id
			WHERE v.namespace = $1 AND v.text_hash = m.text_hash`,
		`SELECT v.memory_id, v.chunk, v.start_at, v.end_at, v.model, v.dim, v.embedding::real[]
			FROM memory_vectors v JOIN memories m ON m.namespace = v.namespace AND m.id = v.memory_id
			WHERE v.namespace = $1 AND v.text_hash = m.text_hash ORDER BY v.memory_id, v.chunk`,
		func(r pgx.Rows, b *recall.CopyBatch) error {
			v := &recall.VectorRow{}
			err := r.Scan(&v.MemoryID, &v.Chunk, &v.Start, &v.End, &v.Model, &v.Dim, &v.Vec)
			b.Vectors = append(b.Vectors, v)
			return err
		}},
	recall.CopySyncRecords: {`SELECT count(*) FROM sync_records WHERE namespace = $1`,
		`SELECT id, file, text, tier FROM sync_records WHERE namespace = $1 ORDER BY id`,
		appendRow(scanSyncRecord, func(b *recall.CopyBatch) *[]recall.SyncRecord { return &b.SyncRecords })},
	recall.CopyMeta: {`SELECT count(*) FROM store_meta WHERE namespace = $1 AND key NOT IN (` + ownMetaList + `)`,
		`SELECT key, value FROM store_meta WHERE namespace = $1 AND key NOT IN (` + ownMetaList + `) ORDER BY key`,
		appendRow(scanMetaRow, func(b *recall.CopyBatch) *[]recall.MetaRow { return &b.Meta })},
	recall.CopyForgetLog: {`SELECT count(*) FROM forget_log WHERE namespace = $1`,
		`SELECT at, kind, criteria, counts::text FROM forget_log WHERE namespace = $1 ORDER BY id`,
		func(r pgx.Rows, b *recall.CopyBatch) error {
			var l recall.ForgetLogRow
			var counts string
			err := r.Scan(&l.At, &l.Kind, &l.Criteria, &counts)
			l.At, l.Counts = l.At.UTC(), json.RawMessage(counts)
			b.ForgetLog = append(b.ForgetLog, l)
			return err
		}},
}

// appendRow reads a row with scan and appends it to the list of a batch
// that list returns.
func appendRow[T any](scan func(pgx.Row) (T, error), list func(*recall.CopyBatch) *[]T) func(pgx.Rows, *recall.CopyBatch) error {
	return func(r pgx.Rows, b *recall.CopyBatch) error {
		v, err := scan(r)
		if err == nil {
			*list(b) = append(*list(b), v)
		}
		return err
	}
}

func scanSyncRecord(row pgx.Row) (s recall.SyncRecord, err error) {
	err = row.Scan(&s.ID, &s.File, &s.Text, &s.Tier)
	return s, err
}

func scanMetaRow(row pgx.Row) (m recall.MetaRow, err error) {
	err = row.Scan(&m.Key, &m.Value)
	return m, err
}

// scanRollupSources reads a rollup and its sources.
func scanRollupSources(row pgx.Row) (*recall.Rollup, error) {
	return recall.RollupWithSources(row, func(r recall.RowScanner) (*recall.Rollup, error) { return scanRollup(r) })
}

// CountRows counts the namespace's rows of kind that DumpRows yields.
func (c Copier) CountRows(ctx context.Context, kind recall.CopyKind) (int, error) {
	q, err := recall.CopyKindOf(copyQueries, kind)
	if err != nil {
		return 0, err
	}
	var n int
	if err := c.db.pool.QueryRow(ctx, q.count, c.db.Namespace).Scan(&n); err != nil {
		return 0, c.db.wrap(recall.EUNAVAILABLE, "count "+string(kind), err)
	}
	return n, nil
}

// DumpRows hands the namespace's rows of kind to fn in batches of at
// most size, in the order of their ids.
func (c Copier) DumpRows(ctx context.Context, kind recall.CopyKind, size int, fn func(*recall.CopyBatch) error) error {
	q, err := recall.CopyKindOf(copyQueries, kind)
	if err != nil {
		return err
	}
	rows, err := c.db.pool.Query(ctx, q.rows, c.db.Namespace)
	if err != nil {
		return c.db.wrap(recall.EUNAVAILABLE, "dump "+string(kind), err)
	}
	defer rows.Close()
	read := func(b *recall.CopyBatch) error { return q.scan(rows, b) }
	return recall.BatchRows(size, rows.Next, read, rows.Err, fn)
}

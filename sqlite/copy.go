package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/recall-mem/recall"
)

// Copier reads and writes the file's rows exactly as stored, for moving
// the store to another backend.
type Copier struct{ db *DB }

var _ recall.StoreCopier = Copier{}

// ownMeta are the store facts that describe this file rather than the
// data: the model of its vectors (set again by the vectors a load
// brings), its cache epoch and the embedder's last failure.
var ownMeta = map[string]bool{metaVectorModel: true, metaVectorDim: true, "vector_epoch": true,
	metaEmbedError: true, metaEmbedErrorAt: true}

// copyQueries are, per kind, the count and the select of DumpRows, with
// the row reader that appends one row to a batch.
var copyQueries = map[recall.CopyKind]struct {
	count, rows string
	scan        func(*sql.Rows, *recall.CopyBatch) error
}{
	recall.CopyMemories: {`SELECT count(*) FROM memories`,
		`SELECT ` + memoryColumns + ` FROM memories m ORDER BY m.id`,
		appendRow(scanMemory, func(b *recall.CopyBatch) *[]*recall.Memory { return &b.Memories })},
	recall.CopyVersions: {`SELECT count(*) FROM memory_versions`,
		`SELECT v.memory_id, v.version, v.op, v.changed_at, ` + versionSnapshotSQL + ` FROM memory_versions v ORDER BY v.memory_id, v.version`,
		func(r *sql.Rows, b *recall.CopyBatch) error {
			v := &recall.MemoryVersion{}
			var at int64
			var snap string
			if err := r.Scan(&v.MemoryID, &v.Version, &v.Op, &at, &snap); err != nil {
				return err
			}
			v.ChangedAt = fromMS(at)
			b.Versions = append(b.Versions, v)
			return json.Unmarshal([]byte(snap), &v.Memory)
		}},
	recall.CopyObservations: {`SELECT count(*) FROM observations`,
		`SELECT ` + observationColumns + ` FROM observations o ORDER BY o.id`,
		appendRow(scanObservation, func(b *recall.CopyBatch) *[]*recall.Observation { return &b.Observations })},
	recall.CopySessions: {`SELECT count(*) FROM sessions`,
		`SELECT ` + sessionColumns + ` FROM sessions ORDER BY id`,
		appendRow(scanSession, func(b *recall.CopyBatch) *[]*recall.Session { return &b.Sessions })},
	recall.CopyRollups: {`SELECT count(*) FROM memory_rollups`,
		`SELECT ` + rollupColumns + `, (SELECT json_group_array(json_array(s.source_kind, s.source_id))
			FROM memory_rollup_sources s WHERE s.rollup_id = r.id) FROM memory_rollups r ORDER BY r.id`,
		appendRow(scanRollupSources, func(b *recall.CopyBatch) *[]*recall.Rollup { return &b.Rollups })},
	// A vector is of the memory's current text when it was made for the
	// memory's current version (a version that kept the text moves its
	// vectors along, see writeVectors).
	recall.CopyVectors: {`SELECT count(*) FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq WHERE v.version = m.version`,
		`SELECT v.memory_id, v.chunk, v.span_start, v.span_end, v.model, v.dim, v.vec
			FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq WHERE v.version = m.version
			ORDER BY v.memory_id, v.chunk`,
		func(r *sql.Rows, b *recall.CopyBatch) error {
			v := &recall.VectorRow{}
			var blob []byte
			if err := r.Scan(&v.MemoryID, &v.Chunk, &v.Start, &v.End, &v.Model, &v.Dim, &blob); err != nil {
				return err
			}
			v.Vec = make([]float32, v.Dim)
			if !decodeVector(v.Vec, blob) {
				return fmt.Errorf("vector %d of %s: %d bytes for %d dimensions", v.Chunk, v.MemoryID, len(blob), v.Dim)
			}
			b.Vectors = append(b.Vectors, v)
			return nil
		}},
	recall.CopySyncRecords: {`SELECT count(*) FROM sync_records`,
		`SELECT id, file, text, tier FROM sync_records ORDER BY id`,
		appendRow(scanSyncRecord, func(b *recall.CopyBatch) *[]recall.SyncRecord { return &b.SyncRecords })},
	recall.CopyMeta: {`SELECT count(*) FROM store_meta WHERE key NOT IN (` + ownMetaList + `)`,
		`SELECT key, value FROM store_meta WHERE key NOT IN (` + ownMetaList + `) ORDER BY key`,
		appendRow(scanMetaRow, func(b *recall.CopyBatch) *[]recall.MetaRow { return &b.Meta })},
	recall.CopyForgetLog: {`SELECT count(*) FROM forget_log`,
		`SELECT at, kind, criteria, counts FROM forget_log ORDER BY id`,
		func(r *sql.Rows, b *recall.CopyBatch) error {
			var l recall.ForgetLogRow
			var at int64
			var counts string
			err := r.Scan(&at, &l.Kind, &l.Criteria, &counts)
			l.At, l.Counts = fromMS(at), json.RawMessage(counts)
			b.ForgetLog = append(b.ForgetLog, l)
			return err
		}},
}

const ownMetaList = `'` + metaVectorModel + `', '` + metaVectorDim + `', 'vector_epoch', '` + metaEmbedError + `', '` + metaEmbedErrorAt + `'`

func scanSyncRecord(row scanner) (s recall.SyncRecord, err error) {
	err = row.Scan(&s.ID, &s.File, &s.Text, &s.Tier)
	return s, err
}

func scanMetaRow(row scanner) (m recall.MetaRow, err error) {
	err = row.Scan(&m.Key, &m.Value)
	return m, err
}

// scanRollupSources reads a rollup and its sources.
func scanRollupSources(row scanner) (*recall.Rollup, error) {
	return recall.RollupWithSources(row, func(r recall.RowScanner) (*recall.Rollup, error) { return scanRollup(r) })
}

// appendRow reads a row with scan and appends it to the list of a batch
// that list returns.
func appendRow[T any](scan func(scanner) (T, error), list func(*recall.CopyBatch) *[]T) func(*sql.Rows, *recall.CopyBatch) error {
	return func(r *sql.Rows, b *recall.CopyBatch) error {
		v, err := scan(r)
		if err == nil {
			*list(b) = append(*list(b), v)
		}
		return err
	}
}

// CountRows counts the rows of kind DumpRows yields.
func (c Copier) CountRows(ctx context.Context, kind recall.CopyKind) (n int, err error) {
	q, err := recall.CopyKindOf(copyQueries, kind)
	if err == nil {
		err = c.db.read.QueryRowContext(ctx, q.count).Scan(&n)
	}
	return n, err
}

// DumpRows hands the rows of kind to fn in batches of at most size, in
// the order of their ids, read in one snapshot (one statement).
func (c Copier) DumpRows(ctx context.Context, kind recall.CopyKind, size int, fn func(*recall.CopyBatch) error) error {
	q, err := recall.CopyKindOf(copyQueries, kind)
	if err != nil {
		return err
	}
	rows, err := c.db.read.QueryContext(ctx, q.rows)
	if err != nil {
		return fmt.Errorf("dump %s: %w", kind, err)
	}
	defer rows.Close()
	return recall.BatchRows(size, rows.Next, func(b *recall.CopyBatch) error { return q.scan(rows, b) }, rows.Err, fn)
}

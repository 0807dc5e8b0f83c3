package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/recall-mem/recall"
)

// LoadRows writes the rows of b in one transaction, each replacing the
// row with its id.
func (c Copier) LoadRows(ctx context.Context, b *recall.CopyBatch) error {
	return c.db.update(ctx, func(tx *Tx) error {
		for _, step := range []func(context.Context, *Tx, *recall.CopyBatch) error{
			loadMemories, loadVersions, loadObservations, loadSessions, loadRollups, loadVectors, loadSyncRecords, loadMeta, loadForgetLog,
		} {
			if err := step(ctx, tx, b); err != nil {
				return err
			}
		}
		return nil
	})
}

// StoredVector returns v as its stored form (an int8 quantisation, see
// vector_codec.go) reads back.
func (c Copier) StoredVector(v []float32) []float32 {
	out := make([]float32, len(v))
	decodeVector(out, encodeVector(nil, v))
	return out
}

// FinishLoad has nothing to do: SQLite's indexes are kept up to date row
// by row, and its vector index is built in memory when a search needs it.
func (c Copier) FinishLoad(context.Context) error { return nil }

// loadMemories writes each memory as it is, without a version of its own
// (the versions come as rows), drops the vectors it had (its vectors are
// those the copy brings) and queues it for the embedder: the vectors a
// copy brings take it off the queue again.
func loadMemories(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, m := range b.Memories {
		var seq int64
		err := tx.QueryRowContext(ctx, `SELECT seq FROM memories WHERE id = ?`, m.ID).Scan(&seq)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			var res sql.Result
			if res, err = tx.exec(ctx, insertMemorySQL, appendMemoryArgs([]any{m.ID}, m)...); err == nil {
				seq, err = indexMemory(ctx, tx, res, m)
			}
		case err == nil:
			if _, err = tx.exec(ctx, updateMemorySQL, append(appendMemoryArgs(nil, m), m.ID)...); err == nil {
				// The memory's vectors are the ones the copy brings.
				_, err = tx.exec(ctx, `DELETE FROM memory_vectors WHERE memory_seq = ?`, seq)
			}
		}
		if isConstraint(err) {
			return recall.Errorf(recall.ECONFLICT, "Memory %s: key %q is taken in collection %q by another memory of the target.", m.ID, m.Key, m.Collection)
		} else if err != nil {
			return fmt.Errorf("load memory %s: %w", m.ID, err)
		}
		if err := enqueueEmbedding(ctx, tx, m, seq); err != nil {
			return err
		}
	}
	return nil
}

// loadVersions writes each version as saveVersion does: the memory's
// current version shares the live row when that holds the very same state
// (migration 0020), any other its text when the live memory has the same
// (migration 0015), else it keeps its own.
// copyVersionSQL writes a copied version row over the target's row with
// the same (memory_id, version): a copy mirrors the source's history,
// row for row, as it does the memories (LoadRows).
const copyVersionSQL = `INSERT OR REPLACE INTO memory_versions (memory_id, version, op, changed_at, snapshot, content) VALUES (?, ?, ?, ?, ?, ?)`

func loadVersions(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, v := range b.Versions {
		if v.Memory == nil {
			return recall.Errorf(recall.EINVALID, "Version %d of %s has no snapshot.", v.Version, v.MemoryID)
		}
		snap, err := json.Marshal(snapshotJSON{Memory: v.Memory})
		stored := string(snap)
		var content any = v.Memory.Content
		var live, row string
		var version int
		if err == nil {
			err = tx.QueryRowContext(ctx, `SELECT m.content, m.version, s.snapshot FROM memories m
				JOIN memory_snapshots s ON s.memory_id = m.id WHERE m.id = ?`, v.MemoryID).Scan(&live, &version, &row)
			if err == nil && live == v.Memory.Content {
				content = nil
				if version == v.Version && row == stored {
					stored = sharedSnapshot
				}
			}
			if errors.Is(err, sql.ErrNoRows) {
				err = nil
			}
		}
		if err == nil {
			_, err = tx.exec(ctx, copyVersionSQL, v.MemoryID, v.Version, v.Op, ms(v.ChangedAt), stored, content)
		}
		if err != nil {
			return fmt.Errorf("load version %d of %s: %w", v.Version, v.MemoryID, err)
		}
	}
	return nil
}

func loadObservations(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, o := range b.Observations {
		if _, err := tx.exec(ctx, `INSERT INTO observations (id, at, type, key, session, project, tool, file, content, metadata, status, pinned)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET at = excluded.at, type = excluded.type, key = excluded.key, session = excluded.session,
				project = excluded.project, tool = excluded.tool, file = excluded.file, content = excluded.content,
				metadata = excluded.metadata, status = excluded.status, pinned = excluded.pinned`,
			o.ID, ms(o.At), o.Type, o.Key, o.Session, o.Project, o.Tool, o.File, o.Content, metaText(o.Metadata), o.Status, o.Pinned); err != nil {
			return fmt.Errorf("load observation %d: %w", o.ID, err)
		}
	}
	return nil
}

func loadSessions(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, s := range b.Sessions {
		if _, err := tx.exec(ctx, `INSERT OR REPLACE INTO sessions (id, project, agent, started_at, ended_at, summary, learned, state)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			s.ID, s.Project, s.Agent, ms(s.StartedAt), nullMS(s.EndedAt), s.Summary, s.Learned, s.State); err != nil {
			return fmt.Errorf("load session %s: %w", s.ID, err)
		}
	}
	return nil
}

// loadRollups writes each rollup and replaces its sources.
func loadRollups(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, r := range b.Rollups {
		tally, err := recall.TallyJSON(r.Values)
		if err != nil {
			return err
		}
		var rolled sql.NullString
		if r.RolledAt != nil {
			rolled = sql.NullString{String: iso(*r.RolledAt), Valid: true}
		}
		if _, err := tx.exec(ctx, `INSERT INTO memory_rollups (id, bucket_type, bucket_start, bucket_end, memory_type, key,
			summary, value, tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET bucket_type = excluded.bucket_type, bucket_start = excluded.bucket_start,
				bucket_end = excluded.bucket_end, memory_type = excluded.memory_type, key = excluded.key,
				summary = excluded.summary, value = excluded.value, tally = excluded.tally, confidence = excluded.confidence,
				source_count = excluded.source_count, entries = excluded.entries, latest_at = excluded.latest_at,
				rolled_at = excluded.rolled_at, status = excluded.status, created_at = excluded.created_at,
				updated_at = excluded.updated_at`,
			r.ID, r.BucketType, iso(r.BucketStart), iso(r.BucketEnd), r.MemoryType, r.Key, r.Summary, r.Value, tally,
			r.Confidence, r.SourceCount, r.Entries, iso(r.LatestAt), rolled, r.Status, iso(r.CreatedAt), iso(r.UpdatedAt)); err != nil {
			if isConstraint(err) {
				return recall.Errorf(recall.ECONFLICT, "Rollup %s: its bucket is held by another rollup of the target.", r.ID)
			}
			return fmt.Errorf("load rollup %s: %w", r.ID, err)
		}
		if _, err := tx.exec(ctx, `DELETE FROM memory_rollup_sources WHERE rollup_id = ?`, r.ID); err != nil {
			return fmt.Errorf("load rollup %s: %w", r.ID, err)
		}
		for _, s := range r.Sources {
			if _, err := tx.exec(ctx, `INSERT OR IGNORE INTO memory_rollup_sources (rollup_id, source_kind, source_id) VALUES (?, ?, ?)`,
				r.ID, s.Kind, s.ID); err != nil {
				return fmt.Errorf("load sources of rollup %s: %w", r.ID, err)
			}
		}
	}
	return nil
}

// loadVectors writes each passage's vector for its memory's current
// version and text, replacing the vector of that passage, and takes the
// memory off the queue. The first vectors name the store's model, as the
// first embedding does.
func loadVectors(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	var buf []byte
	for _, v := range b.Vectors {
		var seq int64
		var version int
		var title, content string
		err := tx.QueryRowContext(ctx, `SELECT seq, version, title, content FROM memories WHERE id = ?`, v.MemoryID).Scan(&seq, &version, &title, &content)
		if errors.Is(err, sql.ErrNoRows) {
			return recall.Errorf(recall.EINVALID, "Vector %d of memory %s: no such memory in the target.", v.Chunk, v.MemoryID)
		} else if err != nil {
			return fmt.Errorf("load vector of %s: %w", v.MemoryID, err)
		}
		if len(v.Vec) != v.Dim {
			return recall.Errorf(recall.EINVALID, "Vector %d of memory %s has %d values for %d dimensions.", v.Chunk, v.MemoryID, len(v.Vec), v.Dim)
		}
		buf = encodeVector(buf[:0], v.Vec)
		if _, err := tx.exec(ctx, `DELETE FROM memory_vectors WHERE memory_seq = ? AND chunk = ?`, seq, v.Chunk); err != nil {
			return fmt.Errorf("load vector of %s: %w", v.MemoryID, err)
		}
		if _, err := tx.exec(ctx, sqlInsertVector, seq, v.MemoryID, v.Chunk, version, textHash(title, content), v.Model, v.Dim, v.Start, v.End, buf); err != nil {
			return fmt.Errorf("load vector of %s: %w", v.MemoryID, err)
		}
		if _, err := tx.exec(ctx, `DELETE FROM embed_queue WHERE memory_seq = ?`, seq); err != nil {
			return fmt.Errorf("dequeue %s: %w", v.MemoryID, err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO store_meta (key, value) VALUES (?, ?), (?, ?) ON CONFLICT (key) DO NOTHING`,
			metaVectorModel, v.Model, metaVectorDim, fmt.Sprint(v.Dim)); err != nil {
			return fmt.Errorf("vector model: %w", err)
		}
	}
	return nil
}

func loadSyncRecords(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, r := range b.SyncRecords {
		if _, err := tx.exec(ctx, `INSERT OR REPLACE INTO sync_records (id, file, text, tier, synced_at) VALUES (?, ?, ?, ?, ?)`,
			r.ID, r.File, r.Text, r.Tier, ms(tx.now)); err != nil {
			return fmt.Errorf("load sync record %s: %w", r.ID, err)
		}
	}
	return nil
}

// loadMeta writes the store facts, except those that are the file's own.
func loadMeta(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, m := range b.Meta {
		if ownMeta[m.Key] {
			continue
		}
		if _, err := tx.exec(ctx, `INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)`, m.Key, m.Value); err != nil {
			return fmt.Errorf("load store fact %s: %w", m.Key, err)
		}
	}
	return nil
}

// loadForgetLog adds the audit entries the store does not hold yet.
func loadForgetLog(ctx context.Context, tx *Tx, b *recall.CopyBatch) error {
	for _, l := range b.ForgetLog {
		if _, err := tx.exec(ctx, `INSERT INTO forget_log (at, kind, criteria, counts) SELECT ?, ?, ?, ?
			WHERE NOT EXISTS (SELECT 1 FROM forget_log WHERE at = ? AND kind = ? AND criteria = ?)`,
			ms(l.At), l.Kind, l.Criteria, string(l.Counts), ms(l.At), l.Kind, l.Criteria); err != nil {
			return fmt.Errorf("load forget log: %w", err)
		}
	}
	return nil
}

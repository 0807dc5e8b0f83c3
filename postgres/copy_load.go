package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// upsertMemorySQL writes a memory as given, replacing the row with its
// id, with the arguments of insertMemorySQL.
var upsertMemorySQL = insertMemorySQL + ` ON CONFLICT (namespace, id) DO UPDATE SET (` + memoryColumnNames + `) = (` + excluded(memoryColumnNames) + `)`

// excluded turns a column list into the list of the excluded row's values.
func excluded(cols string) string {
	var out []string
	for _, c := range strings.Split(cols, ",") {
		out = append(out, "excluded."+strings.TrimSpace(c))
	}
	return strings.Join(out, ", ")
}

// LoadRows writes the rows of b in one transaction, each replacing the
// row with its id.
func (c Copier) LoadRows(ctx context.Context, b *recall.CopyBatch) error {
	err := c.db.tx(ctx, func(tx *Tx) error {
		for _, step := range []func(context.Context, *recall.CopyBatch) error{
			tx.loadMemories, tx.loadVersions, tx.loadObservations, tx.loadSessions, tx.loadRollups, tx.loadVectors, tx.loadSyncRecords, tx.loadMeta, tx.loadForgetLog,
		} {
			if err := step(ctx, b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if uniqueViolation(err) {
			return recall.Errorf(recall.ECONFLICT, "A row clashes with another of the target %s (a key taken in its collection, or a rollup's bucket): %v", c.db, err)
		}
		return err
	}
	return nil
}

// FinishLoad builds the HNSW index of every dimension loaded: built once
// over all the vectors, it takes a fraction of the time that inserting
// each vector into it takes (see docs/postgres.md). A vector search
// before it reads every vector, exactly.
func (c Copier) FinishLoad(ctx context.Context) error {
	dims, err := c.db.pool.Query(ctx, `SELECT DISTINCT dim FROM memory_vectors WHERE namespace = $1`, c.db.Namespace)
	list, err := collectRows(dims, err, func(r pgx.Row) (int, error) {
		var d int
		return d, r.Scan(&d)
	})
	if err != nil {
		return c.db.wrap(recall.EUNAVAILABLE, "vector dimensions", err)
	}
	for _, d := range list {
		if err := c.db.createVectorIndex(ctx, d); err != nil {
			return c.db.wrap(recall.EUNAVAILABLE, "vector index", err)
		}
	}
	return nil
}

// loadMemories writes each memory as it is, without a version of its own
// (the versions come as rows), and drops the vectors it had: its vectors
// are those the copy brings. A memory without vectors of its text is what
// the embedder takes next.
func (tx *Tx) loadMemories(ctx context.Context, b *recall.CopyBatch) error {
	for _, m := range b.Memories {
		if _, err := tx.Exec(ctx, upsertMemorySQL, append([]any{tx.db.Namespace, m.ID}, memoryValues(m)...)...); err != nil {
			return fmt.Errorf("load memory %s: %w", m.ID, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM memory_vectors WHERE namespace = $1 AND memory_id = $2`, tx.db.Namespace, m.ID); err != nil {
			return fmt.Errorf("load memory %s: %w", m.ID, err)
		}
	}
	return nil
}

func (tx *Tx) loadVersions(ctx context.Context, b *recall.CopyBatch) error {
	for _, v := range b.Versions {
		snap, err := json.Marshal(v.Memory)
		if err == nil {
			_, err = tx.Exec(ctx, insertVersionSQL+` ON CONFLICT (namespace, memory_id, version) DO UPDATE
				SET op = excluded.op, changed_at = excluded.changed_at, snapshot = excluded.snapshot`,
				tx.db.Namespace, v.MemoryID, v.Version, v.Op, v.ChangedAt.UTC(), string(snap))
		}
		if err != nil {
			return fmt.Errorf("load version %d of %s: %w", v.Version, v.MemoryID, err)
		}
	}
	return nil
}

// loadObservations writes each observation with its id and moves the
// identity sequence past the ids brought.
func (tx *Tx) loadObservations(ctx context.Context, b *recall.CopyBatch) error {
	if len(b.Observations) == 0 {
		return nil
	}
	for _, o := range b.Observations {
		if _, err := tx.Exec(ctx, `INSERT INTO observations (namespace, id, at, type, key, session, project, tool, file, content, metadata, status, pinned)
			OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json, $12, $13)
			ON CONFLICT (namespace, id) DO UPDATE SET at = excluded.at, type = excluded.type, key = excluded.key, session = excluded.session,
				project = excluded.project, tool = excluded.tool, file = excluded.file, content = excluded.content,
				metadata = excluded.metadata, status = excluded.status, pinned = excluded.pinned`,
			tx.db.Namespace, o.ID, o.At.UTC(), o.Type, o.Key, o.Session, o.Project, o.Tool, o.File, o.Content, jsonObject(o.Metadata), o.Status, o.Pinned); err != nil {
			return fmt.Errorf("load observation %d: %w", o.ID, err)
		}
	}
	_, err := tx.Exec(ctx, `SELECT setval(s, greatest((SELECT max(id) FROM observations), coalesce(pg_sequence_last_value(s), 1)))
		FROM (SELECT pg_get_serial_sequence('observations', 'id')::regclass AS s) q`)
	if err != nil {
		return fmt.Errorf("observation ids: %w", err)
	}
	return nil
}

func (tx *Tx) loadSessions(ctx context.Context, b *recall.CopyBatch) error {
	for _, s := range b.Sessions {
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (namespace, `+sessionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (namespace, id) DO UPDATE SET (project, agent, started_at, ended_at, summary, learned, state) =
				(excluded.project, excluded.agent, excluded.started_at, excluded.ended_at, excluded.summary, excluded.learned, excluded.state)`,
			tx.db.Namespace, s.ID, s.Project, s.Agent, s.StartedAt.UTC(), utcPtr(s.EndedAt), s.Summary, s.Learned, s.State); err != nil {
			return fmt.Errorf("load session %s: %w", s.ID, err)
		}
	}
	return nil
}

// loadRollups writes each rollup as it is and replaces its sources.
func (tx *Tx) loadRollups(ctx context.Context, b *recall.CopyBatch) error {
	for _, r := range b.Rollups {
		tally, err := recall.TallyJSON(r.Values)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO memory_rollups (namespace, id, bucket_type, bucket_start, bucket_end, memory_type, key,
			summary, value, tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18)
			ON CONFLICT (namespace, id) DO UPDATE SET (bucket_type, bucket_start, bucket_end, memory_type, key, summary, value,
				tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at) =
				(excluded.bucket_type, excluded.bucket_start, excluded.bucket_end, excluded.memory_type, excluded.key,
				excluded.summary, excluded.value, excluded.tally, excluded.confidence, excluded.source_count, excluded.entries,
				excluded.latest_at, excluded.rolled_at, excluded.status, excluded.created_at, excluded.updated_at)`,
			tx.db.Namespace, r.ID, r.BucketType, r.BucketStart.UTC(), r.BucketEnd.UTC(), r.MemoryType, r.Key, r.Summary, r.Value,
			tally, r.Confidence, r.SourceCount, r.Entries, r.LatestAt.UTC(), utcPtr(r.RolledAt), r.Status,
			r.CreatedAt.UTC(), r.UpdatedAt.UTC()); err != nil {
			return fmt.Errorf("load rollup %s: %w", r.ID, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM memory_rollup_sources WHERE namespace = $1 AND rollup_id = $2`, tx.db.Namespace, r.ID); err != nil {
			return fmt.Errorf("load rollup %s: %w", r.ID, err)
		}
		if err := tx.linkSources(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// loadVectors writes each passage's vector for its memory's current text,
// replacing the vector of that passage.
func (tx *Tx) loadVectors(ctx context.Context, b *recall.CopyBatch) error {
	for _, v := range b.Vectors {
		if len(v.Vec) != v.Dim {
			return recall.Errorf(recall.EINVALID, "Vector %d of memory %s has %d values for %d dimensions.", v.Chunk, v.MemoryID, len(v.Vec), v.Dim)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO memory_vectors (namespace, memory_id, chunk, start_at, end_at, model, dim, text_hash, embedding)
			SELECT $1, $2, $3, $4, $5, $6, $7, m.text_hash, $8::real[]::vector FROM memories m WHERE m.namespace = $1 AND m.id = $2
			ON CONFLICT (namespace, memory_id, chunk) DO UPDATE SET (start_at, end_at, model, dim, text_hash, embedding) =
				(excluded.start_at, excluded.end_at, excluded.model, excluded.dim, excluded.text_hash, excluded.embedding)`,
			tx.db.Namespace, v.MemoryID, v.Chunk, v.Start, v.End, v.Model, v.Dim, v.Vec)
		if err != nil {
			return fmt.Errorf("load vector of %s: %w", v.MemoryID, err)
		}
		if tag.RowsAffected() == 0 {
			return recall.Errorf(recall.EINVALID, "Vector %d of memory %s: no such memory in the target.", v.Chunk, v.MemoryID)
		}
	}
	return nil
}

func (tx *Tx) loadSyncRecords(ctx context.Context, b *recall.CopyBatch) error {
	for _, r := range b.SyncRecords {
		if _, err := tx.Exec(ctx, `INSERT INTO sync_records (namespace, id, file, text, tier, synced_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (namespace, id) DO UPDATE SET (file, text, tier, synced_at) = (excluded.file, excluded.text, excluded.tier, excluded.synced_at)`,
			tx.db.Namespace, r.ID, r.File, r.Text, r.Tier, tx.now); err != nil {
			return fmt.Errorf("load sync record %s: %w", r.ID, err)
		}
	}
	return nil
}

// loadMeta writes the store facts, except the namespace's own state.
func (tx *Tx) loadMeta(ctx context.Context, b *recall.CopyBatch) error {
	for _, m := range b.Meta {
		if m.Key == metaEmbedError || m.Key == metaEmbedErrorAt {
			continue
		}
		if err := tx.setMeta(ctx, m.Key, m.Value); err != nil {
			return err
		}
	}
	return nil
}

// loadForgetLog adds the audit entries the namespace does not hold yet.
func (tx *Tx) loadForgetLog(ctx context.Context, b *recall.CopyBatch) error {
	for _, l := range b.ForgetLog {
		if _, err := tx.Exec(ctx, `INSERT INTO forget_log (namespace, at, kind, criteria, counts) SELECT $1, $2, $3, $4, $5::jsonb
			WHERE NOT EXISTS (SELECT 1 FROM forget_log WHERE namespace = $1 AND at = $2 AND kind = $3 AND criteria = $4)`,
			tx.db.Namespace, l.At.UTC(), l.Kind, l.Criteria, string(l.Counts)); err != nil {
			return fmt.Errorf("load forget log: %w", err)
		}
	}
	return nil
}

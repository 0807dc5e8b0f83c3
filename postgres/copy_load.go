package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
// row with its id. Every statement goes to the server in one pipelined
// batch: a round trip per row was most of a copy's time.
func (c Copier) LoadRows(ctx context.Context, b *recall.CopyBatch) error {
	err := c.db.tx(ctx, func(tx *Tx) error {
		q := &loadQueue{ns: tx.db.Namespace, now: tx.now}
		for _, step := range []func(*recall.CopyBatch) error{
			q.memories, q.versions, q.observations, q.sessions, q.rollups, q.vectors, q.syncRecords, q.meta, q.forgetLog,
		} {
			if err := step(b); err != nil {
				return err
			}
		}
		return q.send(ctx, tx)
	})
	if err != nil {
		if uniqueViolation(err) {
			return recall.Errorf(recall.ECONFLICT, "A row clashes with another of the target %s (a key taken in its collection, or a rollup's bucket): %v", c.db, err)
		}
		return err
	}
	return nil
}

// StoredVector returns v: pgvector keeps float32 values as they are.
func (c Copier) StoredVector(v []float32) []float32 { return v }

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

// loadQueue gathers the statements of one LoadRows, each with what it
// loads (for an error) and an optional check of its result.
type loadQueue struct {
	ns    string
	now   time.Time
	batch pgx.Batch
	what  []string
	check []func(pgconn.CommandTag) error
}

func (q *loadQueue) add(what string, check func(pgconn.CommandTag) error, sql string, args ...any) {
	q.batch.Queue(sql, args...)
	q.what, q.check = append(q.what, what), append(q.check, check)
}

// send runs the queued statements in order and stops at the first that
// fails.
func (q *loadQueue) send(ctx context.Context, tx *Tx) error {
	if len(q.what) == 0 {
		return nil
	}
	res := tx.SendBatch(ctx, &q.batch)
	defer res.Close()
	for i, what := range q.what {
		tag, err := res.Exec()
		if err == nil && q.check[i] != nil {
			err = q.check[i](tag)
		}
		if err != nil {
			return fmt.Errorf("load %s: %w", what, err)
		}
	}
	return res.Close()
}

// memories writes each memory as it is, without a version of its own
// (the versions come as rows), and drops the vectors it had: its vectors
// are those the copy brings. A memory without vectors of its text is what
// the embedder takes next.
func (q *loadQueue) memories(b *recall.CopyBatch) error {
	for _, m := range b.Memories {
		what := "memory " + m.ID
		q.add(what, nil, upsertMemorySQL, append([]any{q.ns, m.ID}, memoryValues(m)...)...)
		q.add(what, nil, `DELETE FROM memory_vectors WHERE namespace = $1 AND memory_id = $2`, q.ns, m.ID)
	}
	return nil
}

func (q *loadQueue) versions(b *recall.CopyBatch) error {
	for _, v := range b.Versions {
		snap, err := json.Marshal(v.Memory)
		if err != nil {
			return fmt.Errorf("load version %d of %s: %w", v.Version, v.MemoryID, err)
		}
		q.add(fmt.Sprintf("version %d of %s", v.Version, v.MemoryID), nil, writeVersionSQL+` ON CONFLICT (namespace, memory_id, version) DO UPDATE
			SET op = excluded.op, changed_at = excluded.changed_at, snapshot = excluded.snapshot`,
			q.ns, v.MemoryID, v.Version, v.Op, v.ChangedAt.UTC(), string(snap))
	}
	return nil
}

// observations writes each observation with its id and moves the
// identity sequence past the ids brought.
func (q *loadQueue) observations(b *recall.CopyBatch) error {
	for _, o := range b.Observations {
		q.add(fmt.Sprintf("observation %d", o.ID), nil, `INSERT INTO observations (namespace, id, at, type, key, session, project, tool, file, content, metadata, status, pinned)
			OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::json, $12, $13)
			ON CONFLICT (namespace, id) DO UPDATE SET at = excluded.at, type = excluded.type, key = excluded.key, session = excluded.session,
				project = excluded.project, tool = excluded.tool, file = excluded.file, content = excluded.content,
				metadata = excluded.metadata, status = excluded.status, pinned = excluded.pinned`,
			q.ns, o.ID, o.At.UTC(), o.Type, o.Key, o.Session, o.Project, o.Tool, o.File, o.Content, jsonObject(o.Metadata), o.Status, o.Pinned)
	}
	if len(b.Observations) > 0 {
		q.add("observation ids", nil, `SELECT setval(s, greatest((SELECT max(id) FROM observations), coalesce(pg_sequence_last_value(s), 1)))
			FROM (SELECT pg_get_serial_sequence('observations', 'id')::regclass AS s) q`)
	}
	return nil
}

func (q *loadQueue) sessions(b *recall.CopyBatch) error {
	for _, s := range b.Sessions {
		q.add("session "+s.ID, nil, `INSERT INTO sessions (namespace, `+sessionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (namespace, id) DO UPDATE SET (project, agent, started_at, ended_at, summary, learned, state) =
				(excluded.project, excluded.agent, excluded.started_at, excluded.ended_at, excluded.summary, excluded.learned, excluded.state)`,
			q.ns, s.ID, s.Project, s.Agent, s.StartedAt.UTC(), utcPtr(s.EndedAt), s.Summary, s.Learned, s.State)
	}
	return nil
}

// rollups writes each rollup as it is and replaces its sources.
func (q *loadQueue) rollups(b *recall.CopyBatch) error {
	for _, r := range b.Rollups {
		tally, err := recall.TallyJSON(r.Values)
		if err != nil {
			return err
		}
		what := "rollup " + r.ID
		q.add(what, nil, `INSERT INTO memory_rollups (namespace, id, bucket_type, bucket_start, bucket_end, memory_type, key,
			summary, value, tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18)
			ON CONFLICT (namespace, id) DO UPDATE SET (bucket_type, bucket_start, bucket_end, memory_type, key, summary, value,
				tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at) =
				(excluded.bucket_type, excluded.bucket_start, excluded.bucket_end, excluded.memory_type, excluded.key,
				excluded.summary, excluded.value, excluded.tally, excluded.confidence, excluded.source_count, excluded.entries,
				excluded.latest_at, excluded.rolled_at, excluded.status, excluded.created_at, excluded.updated_at)`,
			q.ns, r.ID, r.BucketType, r.BucketStart.UTC(), r.BucketEnd.UTC(), r.MemoryType, r.Key, r.Summary, r.Value,
			tally, r.Confidence, r.SourceCount, r.Entries, r.LatestAt.UTC(), utcPtr(r.RolledAt), r.Status,
			r.CreatedAt.UTC(), r.UpdatedAt.UTC())
		q.add(what, nil, `DELETE FROM memory_rollup_sources WHERE namespace = $1 AND rollup_id = $2`, q.ns, r.ID)
		kinds, ids := sourceColumns(r)
		q.add(what, nil, linkSourcesSQL, q.ns, r.ID, kinds, ids)
	}
	return nil
}

// vectors writes each passage's vector for its memory's current text,
// replacing the vector of that passage.
func (q *loadQueue) vectors(b *recall.CopyBatch) error {
	for _, v := range b.Vectors {
		if len(v.Vec) != v.Dim {
			return recall.Errorf(recall.EINVALID, "Vector %d of memory %s has %d values for %d dimensions.", v.Chunk, v.MemoryID, len(v.Vec), v.Dim)
		}
		missing := func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() == 0 {
				return recall.Errorf(recall.EINVALID, "Vector %d of memory %s: no such memory in the target.", v.Chunk, v.MemoryID)
			}
			return nil
		}
		q.add("vector of "+v.MemoryID, missing, `INSERT INTO memory_vectors (namespace, memory_id, chunk, start_at, end_at, model, dim, text_hash, embedding)
			SELECT $1, $2, $3, $4, $5, $6, $7, m.text_hash, $8::real[]::vector FROM memories m WHERE m.namespace = $1 AND m.id = $2
			ON CONFLICT (namespace, memory_id, chunk) DO UPDATE SET (start_at, end_at, model, dim, text_hash, embedding) =
				(excluded.start_at, excluded.end_at, excluded.model, excluded.dim, excluded.text_hash, excluded.embedding)`,
			q.ns, v.MemoryID, v.Chunk, v.Start, v.End, v.Model, v.Dim, v.Vec)
	}
	return nil
}

func (q *loadQueue) syncRecords(b *recall.CopyBatch) error {
	for _, r := range b.SyncRecords {
		q.add("sync record "+r.ID, nil, `INSERT INTO sync_records (namespace, id, file, text, tier, synced_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (namespace, id) DO UPDATE SET (file, text, tier, synced_at) = (excluded.file, excluded.text, excluded.tier, excluded.synced_at)`,
			q.ns, r.ID, r.File, r.Text, r.Tier, q.now)
	}
	return nil
}

// meta writes the store facts, except the namespace's own state.
func (q *loadQueue) meta(b *recall.CopyBatch) error {
	for _, m := range b.Meta {
		if m.Key == metaEmbedError || m.Key == metaEmbedErrorAt {
			continue
		}
		q.add("store fact "+m.Key, nil, setMetaSQL, q.ns, m.Key, m.Value)
	}
	return nil
}

// forgetLog adds the audit entries the namespace does not hold yet.
func (q *loadQueue) forgetLog(b *recall.CopyBatch) error {
	for _, l := range b.ForgetLog {
		q.add("forget log", nil, `INSERT INTO forget_log (namespace, at, kind, criteria, counts) SELECT $1, $2, $3, $4, $5::jsonb
			WHERE NOT EXISTS (SELECT 1 FROM forget_log WHERE namespace = $1 AND at = $2 AND kind = $3 AND criteria = $4)`,
			q.ns, l.At.UTC(), l.Kind, l.Criteria, string(l.Counts))
	}
	return nil
}

package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

const rollupColumns = `r.id, r.bucket_type, r.bucket_start, r.bucket_end, r.memory_type, r.key, r.summary,
	r.value, r.tally::text, r.confidence, r.source_count, r.entries, r.latest_at, r.rolled_at, r.status,
	r.created_at, r.updated_at`

func scanRollup(row pgx.Row) (*recall.Rollup, error) {
	var r recall.Rollup
	var tally string
	if err := row.Scan(&r.ID, &r.BucketType, &r.BucketStart, &r.BucketEnd, &r.MemoryType, &r.Key, &r.Summary,
		&r.Value, &tally, &r.Confidence, &r.SourceCount, &r.Entries, &r.LatestAt, &r.RolledAt, &r.Status,
		&r.CreatedAt, &r.UpdatedAt); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(tally), &r.Values); err != nil {
		return nil, fmt.Errorf("decode rollup tally: %w", err)
	}
	r.BucketStart, r.BucketEnd, r.LatestAt = r.BucketStart.UTC(), r.BucketEnd.UTC(), r.LatestAt.UTC()
	r.CreatedAt, r.UpdatedAt, r.RolledAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC(), utcPtr(r.RolledAt)
	return &r, nil
}

// queryRollups runs a select over alias r and scans every row.
func queryRollups(ctx context.Context, q querier, query string, args ...any) ([]*recall.Rollup, error) {
	rows, err := q.Query(ctx, query, args...)
	out, err := collectRows(rows, err, scanRollup)
	if err != nil {
		return nil, fmt.Errorf("query rollups: %w", err)
	}
	return out, nil
}

func (db *DB) findRollupByID(ctx context.Context, q querier, id string) (*recall.Rollup, error) {
	r, err := scanRollup(q.QueryRow(ctx, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE r.namespace = $1 AND r.id = $2`, db.Namespace, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, recall.Errorf(recall.ENOTFOUND, "No rollup with id %s: run `recall tiers` or `recall search` to find rollup ids.", id)
	}
	return r, err
}

// upsertRollup writes r, keeping created_at of the row it replaces. A
// written rollup is pending again for the next tier (rolled_at NULL).
func (tx *Tx) upsertRollup(ctx context.Context, r *recall.Rollup) error {
	tally, err := json.Marshal(r.Values)
	if err != nil {
		return err
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = tx.now
	}
	r.UpdatedAt, r.RolledAt = tx.now, nil
	_, err = tx.Exec(ctx, `INSERT INTO memory_rollups (namespace, id, bucket_type, bucket_start, bucket_end, memory_type, key,
		summary, value, tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, NULL, $15, $16, $17)
		ON CONFLICT (namespace, id) DO UPDATE SET summary = excluded.summary, value = excluded.value, tally = excluded.tally,
			confidence = excluded.confidence, source_count = excluded.source_count, entries = excluded.entries,
			latest_at = excluded.latest_at, rolled_at = NULL, status = excluded.status, updated_at = excluded.updated_at`,
		tx.db.Namespace, r.ID, r.BucketType, r.BucketStart.UTC(), r.BucketEnd.UTC(), r.MemoryType, r.Key,
		r.Summary, r.Value, string(tally), r.Confidence, r.SourceCount, r.Entries, r.LatestAt.UTC(), r.Status,
		r.CreatedAt.UTC(), r.UpdatedAt.UTC())
	if err != nil {
		return fmt.Errorf("write rollup: %w", err)
	}
	return nil
}

// linkSourcesSQL links the rollup $2 of namespace $1 to the sources of
// kinds $3 and ids $4 (parallel arrays).
const linkSourcesSQL = `INSERT INTO memory_rollup_sources (namespace, rollup_id, source_kind, source_id)
	SELECT $1, $2, k, i FROM unnest($3::text[], $4::text[]) AS s(k, i) ON CONFLICT DO NOTHING`

// sourceColumns returns r's sources as the arrays of linkSourcesSQL.
func sourceColumns(r *recall.Rollup) (kinds, ids []string) {
	kinds, ids = make([]string, len(r.Sources)), make([]string, len(r.Sources))
	for i, s := range r.Sources {
		kinds[i], ids[i] = s.Kind, s.ID
	}
	return kinds, ids
}

// linkSources records r's direct sources.
func (tx *Tx) linkSources(ctx context.Context, r *recall.Rollup) error {
	if len(r.Sources) == 0 {
		return nil
	}
	kinds, ids := sourceColumns(r)
	if _, err := tx.Exec(ctx, linkSourcesSQL, tx.db.Namespace, r.ID, kinds, ids); err != nil {
		return fmt.Errorf("link rollup sources: %w", err)
	}
	return nil
}

// resolveContradictions applies "the newer wins" to a keyed rollup: older
// rollups of the same type and key with another value are superseded, and
// r itself is superseded when a newer one already says something else.
// It returns how many older rollups it superseded.
func (tx *Tx) resolveContradictions(ctx context.Context, r *recall.Rollup) (int, error) {
	if r.Key == "" {
		return 0, nil
	}
	var newer bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memory_rollups WHERE namespace = $1 AND memory_type = $2 AND key = $3
		AND status = 'active' AND id <> $4 AND value <> $5 AND latest_at > $6)`,
		tx.db.Namespace, r.MemoryType, r.Key, r.ID, r.Value, r.LatestAt.UTC()).Scan(&newer); err != nil {
		return 0, fmt.Errorf("find newer rollups: %w", err)
	}
	if newer {
		r.Status = recall.RollupSuperseded
		return 0, nil
	}
	tag, err := tx.Exec(ctx, `UPDATE memory_rollups SET status = 'superseded', updated_at = $7
		WHERE namespace = $1 AND memory_type = $2 AND key = $3 AND status = 'active' AND id <> $4 AND value <> $5 AND latest_at < $6`,
		tx.db.Namespace, r.MemoryType, r.Key, r.ID, r.Value, r.LatestAt.UTC(), tx.now)
	if err != nil {
		return 0, fmt.Errorf("supersede rollups: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

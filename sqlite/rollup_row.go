package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/recall-mem/recall"
)

// isoLayout is how memory_rollups stores times: ISO 8601 in UTC with a
// fixed width, so text order is time order (the seed asks for ISO 8601
// text; the rest of the store uses integer milliseconds).
const isoLayout = "2006-01-02T15:04:05.000Z"

func iso(t time.Time) string { return t.UTC().Format(isoLayout) }

func fromISO(s string) time.Time {
	t, err := time.Parse(isoLayout, s)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, s)
	}
	return t.UTC()
}

const rollupColumns = `r.id, r.bucket_type, r.bucket_start, r.bucket_end, r.memory_type, r.key, r.summary,
	r.value, r.tally, r.confidence, r.source_count, r.entries, r.latest_at, r.rolled_at, r.status,
	r.created_at, r.updated_at`

func scanRollup(row scanner) (*recall.Rollup, error) {
	var r recall.Rollup
	var start, end, latest, created, updated, tally string
	var rolled sql.NullString
	if err := row.Scan(&r.ID, &r.BucketType, &start, &end, &r.MemoryType, &r.Key, &r.Summary,
		&r.Value, &tally, &r.Confidence, &r.SourceCount, &r.Entries, &latest, &rolled, &r.Status,
		&created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(tally), &r.Values); err != nil {
		return nil, fmt.Errorf("decode rollup tally: %w", err)
	}
	r.BucketStart, r.BucketEnd, r.LatestAt = fromISO(start), fromISO(end), fromISO(latest)
	r.CreatedAt, r.UpdatedAt = fromISO(created), fromISO(updated)
	if rolled.Valid {
		t := fromISO(rolled.String)
		r.RolledAt = &t
	}
	return &r, nil
}

// queryRollups runs a select over alias r and scans every row.
func queryRollups(ctx context.Context, q querier, query string, args ...any) ([]*recall.Rollup, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("query rollups: %w", err)
	}
	return collect(rows, scanRollup)
}

func findRollupByID(ctx context.Context, q querier, id string) (*recall.Rollup, error) {
	r, err := scanRollup(q.QueryRowContext(ctx, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, recall.Errorf(recall.ENOTFOUND, "No rollup with id %s: run `recall tiers` or `recall search` to find rollup ids.", id)
	}
	return r, err
}

// upsertRollup writes r, keeping created_at of the row it replaces. A
// written rollup is pending again for the next tier (rolled_at NULL).
func upsertRollup(ctx context.Context, tx *Tx, r *recall.Rollup) error {
	tally, err := json.Marshal(r.Values)
	if err != nil {
		return err
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = tx.now
	}
	r.UpdatedAt, r.RolledAt = tx.now, nil
	_, err = tx.ExecContext(ctx, `INSERT INTO memory_rollups (id, bucket_type, bucket_start, bucket_end, memory_type, key,
		summary, value, tally, confidence, source_count, entries, latest_at, rolled_at, status, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET summary = excluded.summary, value = excluded.value, tally = excluded.tally,
			confidence = excluded.confidence, source_count = excluded.source_count, entries = excluded.entries,
			latest_at = excluded.latest_at, rolled_at = NULL, status = excluded.status, updated_at = excluded.updated_at`,
		r.ID, r.BucketType, iso(r.BucketStart), iso(r.BucketEnd), r.MemoryType, r.Key,
		r.Summary, r.Value, string(tally), r.Confidence, r.SourceCount, r.Entries, iso(r.LatestAt), r.Status,
		iso(r.CreatedAt), iso(r.UpdatedAt))
	if err != nil {
		return fmt.Errorf("write rollup: %w", err)
	}
	return nil
}

// linkSources records r's direct sources in one statement: a 4h bucket
// links some hundreds, and a statement per link was 18% of a backlog's
// upkeep, inside the transaction a hook may wait for.
func linkSources(ctx context.Context, tx *Tx, r *recall.Rollup) error {
	if len(r.Sources) == 0 {
		return nil
	}
	pairs := make([][2]string, len(r.Sources))
	for i, s := range r.Sources {
		pairs[i] = [2]string{s.Kind, s.ID}
	}
	buf, err := json.Marshal(pairs)
	if err != nil {
		return err
	}
	linkStatements.Add(1)
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO memory_rollup_sources (rollup_id, source_kind, source_id)
		SELECT ?, value ->> 0, value ->> 1 FROM json_each(?)`, r.ID, string(buf)); err != nil {
		return fmt.Errorf("link rollup sources: %w", err)
	}
	return nil
}

// linkStatements counts the statements linkSources ran (tests read it).
var linkStatements atomic.Int64

// resolveContradictions applies "the newer wins" to a keyed rollup: older
// rollups of the same type and key with another value are superseded, and
// r itself is superseded when a newer one already says something else.
// It returns how many older rollups it superseded.
func resolveContradictions(ctx context.Context, tx *Tx, r *recall.Rollup) (int, error) {
	if r.Key == "" {
		return 0, nil
	}
	var newer int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_rollups WHERE memory_type = ? AND key = ?
		AND status = 'active' AND id != ? AND value != ? AND latest_at > ?`,
		r.MemoryType, r.Key, r.ID, r.Value, iso(r.LatestAt)).Scan(&newer); err != nil {
		return 0, fmt.Errorf("find newer rollups: %w", err)
	}
	if newer > 0 {
		r.Status = recall.RollupSuperseded
		return 0, nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE memory_rollups SET status = 'superseded', updated_at = ?
		WHERE memory_type = ? AND key = ? AND status = 'active' AND id != ? AND value != ? AND latest_at < ?`,
		iso(tx.now), r.MemoryType, r.Key, r.ID, r.Value, iso(r.LatestAt))
	if err != nil {
		return 0, fmt.Errorf("supersede rollups: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// FindRollup returns the rollup with its direct sources, oldest first;
// sources swept since are listed as missing.
func (s *RollupService) FindRollup(ctx context.Context, id string) (*recall.Rollup, error) {
	r, err := findRollupByID(ctx, s.db.read, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT source_kind, source_id FROM memory_rollup_sources WHERE rollup_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("rollup sources: %w", err)
	}
	var links []recall.RollupSource
	for rows.Next() {
		var src recall.RollupSource
		if err := rows.Scan(&src.Kind, &src.ID); err != nil {
			rows.Close()
			return nil, err
		}
		links = append(links, src)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range links {
		if err := s.fillSource(ctx, &links[i]); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(links, func(i, j int) bool { return links[i].At.Before(links[j].At) })
	r.Sources = links
	return r, nil
}

func (s *RollupService) fillSource(ctx context.Context, src *recall.RollupSource) error {
	var err error
	switch src.Kind {
	case recall.SourceObservation:
		var at int64
		err = s.db.read.QueryRowContext(ctx, `SELECT at, type, key, content FROM observations WHERE id = ?`, src.ID).
			Scan(&at, &src.Type, &src.Key, &src.Text)
		src.At, src.Confidence = fromMS(at), 1
	case recall.SourceMemory:
		var at int64
		var title string
		err = s.db.read.QueryRowContext(ctx, `SELECT occurred_at, type, title, content, confidence FROM memories WHERE id = ?`, src.ID).
			Scan(&at, &src.Type, &title, &src.Text, &src.Confidence)
		src.At, src.Key = fromMS(at), recall.Slugify(title)
	case recall.SourceRollup:
		var r *recall.Rollup
		if r, err = findRollupByID(ctx, s.db.read, src.ID); err == nil {
			src.At, src.Type, src.Key, src.Text, src.Confidence, src.Rollup = r.BucketStart, r.MemoryType, r.Key, r.Summary, r.Confidence, r
		}
	}
	if errors.Is(err, sql.ErrNoRows) || recall.ErrorCode(err) == recall.ENOTFOUND {
		src.Missing = true
		return nil
	}
	return err
}

// whereRollups turns a filter into a condition over alias r.
func whereRollups(f recall.RollupFilter) (string, []any, error) {
	conds := []string{"1"}
	var args []any
	if len(f.BucketTypes) > 0 {
		for _, t := range f.BucketTypes {
			if err := recall.ValidBucketType(t); err != nil {
				return "", nil, err
			}
			args = append(args, t)
		}
		conds = append(conds, "r.bucket_type IN ("+strings.TrimSuffix(strings.Repeat("?,", len(f.BucketTypes)), ",")+")")
	}
	if f.MemoryType != nil {
		conds, args = append(conds, "r.memory_type = ?"), append(args, *f.MemoryType)
	}
	if f.Key != nil {
		conds, args = append(conds, "r.key = ?"), append(args, *f.Key)
	}
	switch {
	case f.Status == nil:
		conds = append(conds, "r.status = 'active'")
	case *f.Status != "*" && *f.Status != "any":
		conds, args = append(conds, "r.status = ?"), append(args, *f.Status)
	}
	// A bucket overlapping [Since, Until) matches.
	if f.Since != nil {
		conds, args = append(conds, "r.bucket_end > ?"), append(args, iso(*f.Since))
	}
	if f.Until != nil {
		conds, args = append(conds, "r.bucket_start < ?"), append(args, iso(*f.Until))
	}
	if f.UpdatedSince != nil {
		conds, args = append(conds, "r.updated_at >= ?"), append(args, iso(*f.UpdatedSince))
	}
	return strings.Join(conds, " AND "), args, nil
}

// FindRollups returns rollups matching f, best match first when f.Search
// is set, else newest bucket first.
func (s *RollupService) FindRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error) {
	if f.Search != "" {
		hits, err := s.SearchRollups(ctx, f)
		if err != nil {
			return nil, err
		}
		out := make([]*recall.Rollup, len(hits))
		for i, h := range hits {
			out[i] = h.Rollup
		}
		return out, nil
	}
	where, args, err := whereRollupsLimit(f)
	if err != nil {
		return nil, err
	}
	return queryRollups(ctx, s.db.read, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE `+where+
		` ORDER BY r.bucket_start DESC, r.memory_type, r.key LIMIT ?`, args...)
}

// whereRollupsLimit is whereRollups with f.Limit (0: all) appended to the
// arguments, for a query ending in LIMIT ?.
func whereRollupsLimit(f recall.RollupFilter) (string, []any, error) {
	where, args, err := whereRollups(f)
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return where, append(args, limit), err
}

// SearchRollups ranks the rollups matching f by BM25 over their
// summaries; no searchable word in f.Search means no hits.
func (s *RollupService) SearchRollups(ctx context.Context, f recall.RollupFilter) ([]recall.RollupHit, error) {
	match := FTSQuery(f.Search)
	if match == "" {
		return nil, nil
	}
	where, args, err := whereRollups(f)
	if err != nil {
		return nil, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	// With PerKey, each keyed group contributes only its current rollup
	// (newest, then most confident), so the many rollups of a stable fact
	// cannot crowd other keys out of the limit.
	group := "r.seq"
	if f.PerKey {
		group = "CASE WHEN r.key = '' THEN CAST(r.seq AS TEXT) ELSE r.memory_type || char(0) || r.key END"
	}
	// bm25() cannot sit beside a window function: rank the matches first.
	// The limit is written into the statement, not bound: SQLite plans
	// with a bound LIMIT's value and so compiles such a statement again at
	// every run; the searchers ask for the same few limits.
	rows, err := s.db.readQuery(ctx, `WITH m AS MATERIALIZED (
			SELECT rowid AS seq, bm25(memory_rollups_fts) AS rank FROM memory_rollups_fts WHERE memory_rollups_fts MATCH ?
		)
		SELECT `+rollupColumns+`, r.rank FROM (
			SELECT r.*, m.rank, ROW_NUMBER() OVER (PARTITION BY `+group+`
				ORDER BY r.latest_at DESC, r.confidence DESC, r.bucket_start DESC) AS n
			FROM m JOIN memory_rollups r ON r.seq = m.seq WHERE `+where+`
		) r WHERE r.n = 1 ORDER BY r.rank LIMIT `+strconv.Itoa(limit),
		append([]any{match}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("search rollups: %w", err)
	}
	defer rows.Close()
	var hits []recall.RollupHit
	for rows.Next() {
		var rank float64
		r, err := scanRollup(scanTail{rows, []any{&rank}})
		if err != nil {
			return nil, err
		}
		hits = append(hits, recall.RollupHit{Rollup: r, Score: -rank})
	}
	return hits, rows.Err()
}

// SetRollupSummary replaces the summary of rollup id (a chat model's
// rewording) unless the rollup changed since updatedAt was read. It
// reports whether it wrote.
func (s *RollupService) SetRollupSummary(ctx context.Context, id, summary string, updatedAt time.Time) (bool, error) {
	var n int64
	err := s.db.update(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE memory_rollups SET summary = ? WHERE id = ? AND updated_at = ?`, summary, id, iso(updatedAt))
		if err != nil {
			return fmt.Errorf("set rollup summary: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n > 0, err
}

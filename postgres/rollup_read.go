package postgres

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// FindRollup returns the rollup with its direct sources, oldest first;
// sources swept since are listed as missing.
func (s *RollupService) FindRollup(ctx context.Context, id string) (*recall.Rollup, error) {
	r, err := s.db.findRollupByID(ctx, s.db.pool, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.pool.Query(ctx, `SELECT source_kind, source_id FROM memory_rollup_sources WHERE namespace = $1 AND rollup_id = $2`, s.db.Namespace, id)
	links, err := collectRows(rows, err, func(r pgx.Row) (src recall.RollupSource, err error) { return src, r.Scan(&src.Kind, &src.ID) })
	if err != nil {
		return nil, fmt.Errorf("rollup sources: %w", err)
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
	ns := s.db.Namespace
	switch src.Kind {
	case recall.SourceObservation:
		id, perr := strconv.ParseInt(src.ID, 10, 64)
		if perr != nil {
			src.Missing = true
			return nil
		}
		err = s.db.pool.QueryRow(ctx, `SELECT at, type, key, content FROM observations WHERE namespace = $1 AND id = $2`, ns, id).
			Scan(&src.At, &src.Type, &src.Key, &src.Text)
		src.At, src.Confidence = src.At.UTC(), 1
	case recall.SourceMemory:
		var title string
		err = s.db.pool.QueryRow(ctx, `SELECT occurred_at, type, title, content, confidence FROM memories WHERE namespace = $1 AND id = $2`, ns, src.ID).
			Scan(&src.At, &src.Type, &title, &src.Text, &src.Confidence)
		src.At, src.Key = src.At.UTC(), recall.Slugify(title)
	case recall.SourceRollup:
		var r *recall.Rollup
		if r, err = s.db.findRollupByID(ctx, s.db.pool, src.ID); err == nil {
			src.At, src.Type, src.Key, src.Text, src.Confidence, src.Rollup = r.BucketStart, r.MemoryType, r.Key, r.Summary, r.Confidence, r
		}
	}
	if errors.Is(err, pgx.ErrNoRows) || recall.ErrorCode(err) == recall.ENOTFOUND {
		src.Missing = true
		return nil
	}
	return err
}

// whereRollups turns a filter into a condition over alias r.
func (s *RollupService) whereRollups(f recall.RollupFilter) (*where, error) {
	w := newWhere("r", s.db.Namespace)
	if len(f.BucketTypes) > 0 {
		for _, t := range f.BucketTypes {
			if err := recall.ValidBucketType(t); err != nil {
				return nil, err
			}
		}
		w.add("r.bucket_type = ANY(" + w.arg(f.BucketTypes) + ")")
	}
	if f.MemoryType != nil {
		w.add("r.memory_type = " + w.arg(*f.MemoryType))
	}
	if f.Key != nil {
		w.add("r.key = " + w.arg(*f.Key))
	}
	switch {
	case f.Status == nil:
		w.add("r.status = 'active'")
	case *f.Status != "*" && *f.Status != "any":
		w.add("r.status = " + w.arg(*f.Status))
	}
	// A bucket overlapping [Since, Until) matches.
	if f.Since != nil {
		w.add("r.bucket_end > " + w.arg(f.Since.UTC()))
	}
	if f.Until != nil {
		w.add("r.bucket_start < " + w.arg(f.Until.UTC()))
	}
	if f.UpdatedSince != nil {
		w.add("r.updated_at >= " + w.arg(f.UpdatedSince.UTC()))
	}
	return w, nil
}

// limitOf is f.Limit as a LIMIT argument: NULL for all.
func limitOf(n int) any {
	if n <= 0 {
		return nil
	}
	return n
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
	w, err := s.whereRollups(f)
	if err != nil {
		return nil, err
	}
	return queryRollups(ctx, s.db.pool, `SELECT `+rollupColumns+` FROM memory_rollups r WHERE `+w.sql()+
		` ORDER BY r.bucket_start DESC, r.memory_type, r.key LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
}

// CurrentRollups returns, for every keyed group, the one active rollup an
// agent should see: the newest, and among equally new ones the most
// confident. f.Search and f.Status are ignored. Newest first.
func (s *RollupService) CurrentRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error) {
	f.Search, f.Status = "", nil
	w, err := s.whereRollups(f)
	if err != nil {
		return nil, err
	}
	return queryRollups(ctx, s.db.pool, `SELECT `+rollupColumns+` FROM (
			SELECT r.*, row_number() OVER (PARTITION BY r.memory_type, r.key
				ORDER BY r.latest_at DESC, r.confidence DESC, r.bucket_start DESC) AS n
			FROM memory_rollups r WHERE r.key <> '' AND `+w.sql()+`
		) r WHERE r.n = 1 ORDER BY r.latest_at DESC, r.confidence DESC, r.memory_type, r.key LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
}

// SearchRollups ranks the rollups matching f by PostgreSQL's ts_rank over
// their summaries (words ORed, as memory search does); no searchable word
// in f.Search means no hits. With PerKey, each keyed group contributes only
// its current rollup, so the many rollups of a stable fact cannot crowd
// other keys out of the limit.
func (s *RollupService) SearchRollups(ctx context.Context, f recall.RollupFilter) ([]recall.RollupHit, error) {
	q := tsQueryText(f.Search)
	if q == "" {
		return nil, nil
	}
	w, err := s.whereRollups(f)
	if err != nil {
		return nil, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	group := "r.id"
	if f.PerKey {
		group = "CASE WHEN r.key = '' THEN r.id ELSE r.memory_type || chr(1) || r.key END"
	}
	tsq := "to_tsquery('recall', " + w.arg(q) + ")"
	rows, err := s.db.pool.Query(ctx, `SELECT `+rollupColumns+`, r.rank FROM (
			SELECT r.*, ts_rank(r.fts, `+tsq+`, `+strconv.Itoa(rankNormalization)+`) AS rank,
				row_number() OVER (PARTITION BY `+group+` ORDER BY r.latest_at DESC, r.confidence DESC, r.bucket_start DESC) AS n
			FROM memory_rollups r WHERE `+w.sql()+` AND r.fts @@ `+tsq+`
		) r WHERE r.n = 1 ORDER BY r.rank DESC, r.id LIMIT `+w.arg(limit), w.args...)
	hits, err := collectRows(rows, err, func(row pgx.Row) (recall.RollupHit, error) {
		var rank float64
		r, err := scanRollup(scoreRow{row, &rank})
		return recall.RollupHit{Rollup: r, Score: rank}, err
	})
	if err != nil {
		return nil, fmt.Errorf("search rollups: %w", err)
	}
	return hits, nil
}

// SetRollupSummary replaces the summary of rollup id (a chat model's
// rewording) unless the rollup changed since updatedAt was read. It
// reports whether it wrote.
func (s *RollupService) SetRollupSummary(ctx context.Context, id, summary string, updatedAt time.Time) (bool, error) {
	tag, err := s.db.pool.Exec(ctx, `UPDATE memory_rollups SET summary = $3 WHERE namespace = $1 AND id = $2 AND updated_at = $4`,
		s.db.Namespace, id, summary, updatedAt.UTC().Truncate(time.Microsecond))
	if err != nil {
		return false, fmt.Errorf("set rollup summary: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

// RollupsCovering maps each of ids (sources of one kind) that a rollup was
// built from to that rollup's id, the one with the latest bucket, so a
// context pack can show the rollup instead.
func (s *RollupService) RollupsCovering(ctx context.Context, kind string, ids []string) (map[string]string, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT DISTINCT ON (l.source_id) l.source_id, l.rollup_id FROM memory_rollup_sources l
		JOIN memory_rollups r ON r.namespace = l.namespace AND r.id = l.rollup_id
		WHERE l.namespace = $1 AND l.source_kind = $2 AND l.source_id = ANY($3)
		ORDER BY l.source_id, r.bucket_end DESC`, s.db.Namespace, kind, ids)
	type pair struct{ src, id string }
	ps, err := collectRows(rows, err, func(r pgx.Row) (p pair, err error) { return p, r.Scan(&p.src, &p.id) })
	if err != nil {
		return nil, fmt.Errorf("rollups covering: %w", err)
	}
	out := make(map[string]string, len(ps))
	for _, p := range ps {
		out[p.src] = p.id
	}
	return out, nil
}

// TierStats counts raw memories, raw observations and rollups of the
// namespace per bucket type, by status, with their time ranges, token
// estimates and row bytes (pg_column_size of the row: as stored, so after
// PostgreSQL's compression of long text).
func (s *RollupService) TierStats(ctx context.Context) ([]recall.TierStat, error) {
	queries := []struct{ tier, query string }{
		{"raw", `SELECT 'memories', m.status, count(*), min(m.occurred_at), max(m.occurred_at),
			` + tokensOf(`length(m.title) + length(m.content)`) + `, coalesce(sum(pg_column_size(m.*)), 0), count(*)
			FROM memories m WHERE m.namespace = $1 GROUP BY m.status ORDER BY m.status`},
		{"raw", `SELECT 'observations', o.status, count(*), min(o.at), max(o.at),
			` + tokensOf(`length(o.content)`) + `, coalesce(sum(pg_column_size(o.*)), 0), count(*)
			FROM observations o WHERE o.namespace = $1 GROUP BY o.status ORDER BY o.status`},
		{"rollup", `SELECT r.bucket_type, r.status, count(*), min(r.bucket_start), max(r.bucket_end),
			` + tokensOf(`length(r.summary)`) + `, coalesce(sum(pg_column_size(r.*)), 0), coalesce(sum(r.entries), 0)
			FROM memory_rollups r WHERE r.namespace = $1 GROUP BY r.bucket_type, r.status
			ORDER BY array_position(ARRAY['4h', 'daily', 'weekly', 'monthly'], r.bucket_type), r.status`},
	}
	var out []recall.TierStat
	for _, q := range queries {
		rows, err := s.db.pool.Query(ctx, q.query, s.db.Namespace)
		sts, err := collectRows(rows, err, func(r pgx.Row) (recall.TierStat, error) {
			st := recall.TierStat{Tier: q.tier}
			err := r.Scan(&st.Kind, &st.Status, &st.Count, &st.From, &st.To, &st.Tokens, &st.Bytes, &st.Entries)
			st.From, st.To = utcPtr(st.From), utcPtr(st.To)
			return st, err
		})
		if err != nil {
			return nil, fmt.Errorf("tier stats: %w", err)
		}
		out = append(out, sts...)
	}
	return out, nil
}

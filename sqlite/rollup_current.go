package sqlite

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/recall-mem/recall"
)

// CurrentRollups returns, for every keyed group, the one active rollup an
// agent should see: the newest (latest_at), and among rollups of equal
// newness the most confident, which is the coarsest tier that has taken
// the newest entry in. f narrows by bucket type, memory type and time;
// f.Search and f.Status are ignored. Ordered newest first.
func (s *RollupService) CurrentRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error) {
	db := s.db
	f.Search, f.Status = "", nil
	where, args, err := whereRollupsLimit(f)
	if err != nil {
		return nil, err
	}
	// Rollups of observations have no key, and a store of hooks holds
	// thousands of them: the query below reads every one of their rows
	// (megabytes of tallies, a few ms of a SessionStart hook) only to drop
	// them. Whether any keyed rollup exists is read from an index.
	var keyed bool
	if err := db.readQueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memory_rollups WHERE key != '')`).Scan(&keyed); err != nil {
		return nil, fmt.Errorf("current rollups: %w", err)
	}
	if !keyed {
		return nil, nil
	}
	currentRollupScans.Add(1)
	return queryRollups(ctx, db.read, `SELECT `+rollupColumns+` FROM (
			SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.memory_type, r.key
				ORDER BY r.latest_at DESC, r.confidence DESC, r.bucket_start DESC) AS n
			FROM memory_rollups r WHERE r.key != '' AND `+where+`
		) r WHERE r.n = 1 ORDER BY r.latest_at DESC, r.confidence DESC, r.memory_type, r.key LIMIT ?`, args...)
}

// currentRollupScans counts the window queries CurrentRollups ran (tests
// read it: a store without keyed rollups runs none).
var currentRollupScans atomic.Int64

// RollupsCovering maps each of ids (sources of one kind: memory,
// observation or rollup) that a rollup was built from to that rollup's id,
// so a context pack can show the rollup instead.
func (s *RollupService) RollupsCovering(ctx context.Context, kind string, ids []string) (map[string]string, error) {
	out := map[string]string{}
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 500)]
		ids = ids[len(chunk):]
		args := []any{kind}
		for _, id := range chunk {
			args = append(args, id)
		}
		rows, err := s.db.read.QueryContext(ctx, `SELECT l.source_id, l.rollup_id FROM memory_rollup_sources l
			JOIN memory_rollups r ON r.id = l.rollup_id
			WHERE l.source_kind = ? AND l.source_id IN (`+strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",")+`)
			ORDER BY l.source_id, r.bucket_end DESC`, args...)
		if err != nil {
			return nil, fmt.Errorf("rollups covering: %w", err)
		}
		for rows.Next() {
			var src, id string
			if err := rows.Scan(&src, &id); err != nil {
				rows.Close()
				return nil, err
			}
			if _, ok := out[src]; !ok {
				out[src] = id
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

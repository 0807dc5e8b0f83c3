package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/recall-mem/recall"
)

// growthWindow is how far back StoreStats counts new rows.
const growthWindow = 30 * 24 * time.Hour

// The statistics' queries. Each is answered from an index, never by
// reading every memory (TestStatsPlans): the overview of the web UI runs
// them on every view.
const (
	observationsByType = `SELECT type, COUNT(*) FROM observations GROUP BY type`
	memoriesByTier     = `SELECT tier, COUNT(*) FROM memories GROUP BY tier`
	rollupsByType      = `SELECT bucket_type, COUNT(*) FROM memory_rollups GROUP BY bucket_type`
	// rowCounts takes the window's bounds as ?1 and ?2.
	rowCounts = `SELECT
		(SELECT COUNT(*) FROM memory_versions),
		(SELECT COUNT(*) FROM sessions),
		(SELECT COUNT(*) FROM observations WHERE at BETWEEN ?1 AND ?2)
		+ (SELECT COUNT(*) FROM memories WHERE created_at BETWEEN ?1 AND ?2)
		+ (SELECT COUNT(*) FROM memory_versions WHERE changed_at BETWEEN ?1 AND ?2)`
)

// StoreStats counts rows per observation type, memory tier and rollup
// bucket type, measures the files and free pages, and counts the rows
// added in the 30 days up to now.
func (s *ForgetService) StoreStats(ctx context.Context, now time.Time) (*recall.StoreStats, error) {
	st := &recall.StoreStats{At: now.UTC(), ObservationsByType: map[string]int{}, MemoriesByTier: map[string]int{}}
	q := s.db.read
	var err error
	if st.Observations, err = countGroups(ctx, q, observationsByType, st.ObservationsByType); err != nil {
		return nil, err
	}
	if st.Memories, err = countGroups(ctx, q, memoriesByTier, st.MemoriesByTier); err != nil {
		return nil, err
	}
	byType := map[string]int{}
	if st.Rollups, err = countGroups(ctx, q, rollupsByType, byType); err != nil {
		return nil, err
	}
	if st.Rollups > 0 {
		st.RollupsByType = byType
	}
	since, until := ms(now.Add(-growthWindow)), ms(now)
	if err = q.QueryRowContext(ctx, rowCounts, since, until).Scan(&st.Versions, &st.Sessions, &st.GrowthRows); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	if err := q.QueryRowContext(ctx, `SELECT page_size, freelist_count FROM pragma_page_size, pragma_freelist_count`).Scan(&st.PageSize, &st.FreePages); err != nil {
		return nil, fmt.Errorf("stats pages: %w", err)
	}
	st.FreeBytes = st.PageSize * st.FreePages
	if st.DBBytes, err = fileSize(s.db.Path); err != nil {
		return nil, err
	}
	if st.WALBytes, err = fileSize(s.db.Path + "-wal"); err != nil {
		return nil, err
	}
	if st.LastSweep, err = lastForget(ctx, q, "sweep"); err != nil {
		return nil, err
	}
	if st.LastPurge, err = lastForget(ctx, q, "purge"); err != nil {
		return nil, err
	}
	return st, nil
}

func countGroups(ctx context.Context, q querier, query string, into map[string]int) (int, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return 0, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return 0, err
		}
		into[k], total = n, total+n
	}
	return total, rows.Err()
}

func lastForget(ctx context.Context, q querier, kind string) (*time.Time, error) {
	var at sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(at) FROM forget_log WHERE kind = ?`, kind).Scan(&at); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	return fromNullMS(at), nil
}

// fileSize is the size of path, 0 when it does not exist (a WAL after a
// truncating checkpoint and close).
func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, fmt.Errorf("stats: %w", err)
	}
	return fi.Size(), nil
}

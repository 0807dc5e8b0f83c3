package sqlite

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// errRollback ends a dry-run transaction after counting.
var errRollback = errors.New("dry run")

// Sweep deletes what the retention policy expires at now: active
// observations past their type's period (when retention is enabled) and
// rolled-up observations past raw retention (whenever that is set, since
// their content lives on in the rollups). Landmarks are never swept, nor
// sources of rollups or syntheses by type retention. No secure delete: the
// seed keeps that cost for purges of secrets.
func (s *ForgetService) Sweep(ctx context.Context, p recall.RetentionPolicy, now time.Time, dryRun bool) (*recall.SweepReport, error) {
	rep := &recall.SweepReport{At: now.UTC(), DryRun: dryRun, Enabled: p.Enabled, ByType: map[string]int{}}
	err := s.db.update(ctx, func(tx *Tx) error {
		touched := map[string]bool{}
		if p.Enabled {
			guard, err := protectedSources(ctx, tx)
			if err != nil {
				return err
			}
			for _, t := range slices.Sorted(maps.Keys(p.Days)) {
				if p.Days[t] <= 0 {
					continue
				}
				cut := now.Add(-time.Duration(p.Days[t]) * 24 * time.Hour)
				n, err := deleteObservations(ctx, tx, touched, `type = ? AND at < ? AND pinned = 0 AND status != 'compacted'`+guard, t, ms(cut))
				if err != nil {
					return fmt.Errorf("sweep %s: %w", t, err)
				}
				if n > 0 {
					rep.ByType[t] = n
				}
				rep.Deleted += n
			}
		}
		if p.CompactedDays > 0 {
			cut := now.Add(-time.Duration(p.CompactedDays) * 24 * time.Hour)
			n, err := deleteObservations(ctx, tx, touched, `status = 'compacted' AND at < ? AND pinned = 0`, ms(cut))
			if err != nil {
				return fmt.Errorf("sweep compacted: %w", err)
			}
			rep.Compacted, rep.Deleted = n, rep.Deleted+n
		}
		var err error
		if rep.Sessions, err = dropEmptySessions(ctx, tx, touched); err != nil {
			return err
		}
		if dryRun {
			return errRollback
		}
		if rep.Deleted == 0 {
			return nil
		}
		rep.Upkeep = &recall.Upkeep{}
		if rep.Upkeep.FTS, err = compactFTS(ctx, tx, "observations_fts", rep.Deleted, false); err != nil {
			return err
		}
		counts := map[string]int{"deleted": rep.Deleted, "compacted": rep.Compacted, "sessions": rep.Sessions}
		for t, n := range rep.ByType {
			counts["type:"+t] = n
		}
		if err := audit(ctx, tx, "sweep", sweepCriteria(p), counts); err != nil {
			return err
		}
		rep.Upkeep.FreedPages, err = incrementalVacuum(ctx, tx)
		return err
	})
	if err != nil && !errors.Is(err, errRollback) {
		return nil, err
	}
	if rep.Upkeep != nil {
		if rep.Upkeep.WALTruncated, err = s.db.checkpointNow(ctx); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func sweepCriteria(p recall.RetentionPolicy) string {
	types := make([]string, 0, len(p.Days))
	for t, d := range p.Days {
		types = append(types, fmt.Sprintf("%s=%d", t, d))
	}
	sort.Strings(types)
	return fmt.Sprintf("enabled=%v compacted_days=%d days=%v", p.Enabled, p.CompactedDays, types)
}

// deleteObservations deletes the observations matching cond, adds the
// sessions they belonged to to touched, and returns how many went.
func deleteObservations(ctx context.Context, tx *Tx, touched map[string]bool, cond string, args ...any) (int, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM observations WHERE `+cond+` RETURNING session`, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		var session string
		if err := rows.Scan(&session); err != nil {
			rows.Close()
			return n, err
		}
		n++
		if session != "" {
			touched[session] = true
		}
	}
	return n, errors.Join(rows.Err(), rows.Close())
}

// protectedSources returns a condition excluding observations that a
// rollup or synthesis was built from. Those tables arrive with other
// features, so each is used only when it exists (seed 003's sqlite_master
// guard): deleting a summary's sources would leave it unverifiable.
func protectedSources(ctx context.Context, tx *Tx) (string, error) {
	guard := ""
	ok, err := hasColumns(ctx, tx, "syntheses", "source_obs_ids")
	if err != nil {
		return "", err
	} else if ok {
		guard += ` AND id NOT IN (SELECT CAST(j.value AS INTEGER) FROM syntheses, json_each(syntheses.source_obs_ids) AS j)`
	}
	ok, err = hasColumns(ctx, tx, "memory_rollup_sources", "source_kind", "source_id")
	if err != nil {
		return "", err
	} else if ok {
		guard += ` AND id NOT IN (SELECT CAST(source_id AS INTEGER) FROM memory_rollup_sources WHERE source_kind LIKE 'obs%')`
	}
	return guard, nil
}

// hasColumns reports whether table exists with all the named columns.
func hasColumns(ctx context.Context, tx *Tx, table string, cols ...string) (bool, error) {
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)`, table).Scan(&exists); err != nil {
		return false, fmt.Errorf("sqlite_master: %w", err)
	} else if !exists {
		return false, nil
	}
	for _, c := range cols {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, table, c).Scan(&n); err != nil {
			return false, fmt.Errorf("table_info %s: %w", table, err)
		} else if n == 0 {
			return false, nil
		}
	}
	return true, nil
}

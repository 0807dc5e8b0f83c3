package sqlite

import (
	"context"
	"encoding/json"
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
//
// The deletions run in transactions of at most sweepBatch observations
// (a backlog store's sweep was one transaction of 1.3 s, which every hook
// and command writing meanwhile waited for), each with the sessions it
// left empty and the sweep's audit row as it stands: the row is written
// by the first batch and brought up to date by each later one, so what a
// committed batch deleted is always accounted for. The full-text index's
// compaction and the incremental vacuum follow in a last transaction,
// counted over the whole sweep. A sweep stopped between batches keeps
// what it deleted; the next one deletes the rest. A dry run counts in one
// transaction that it rolls back.
func (s *ForgetService) Sweep(ctx context.Context, p recall.RetentionPolicy, now time.Time, dryRun bool) (*recall.SweepReport, error) {
	rep := &recall.SweepReport{At: now.UTC(), DryRun: dryRun, Enabled: p.Enabled, ByType: map[string]int{}}
	if dryRun {
		err := s.db.update(ctx, func(tx *Tx) error {
			sw := &sweepRun{rep: rep, policy: p, now: now}
			if err := sw.all(ctx, tx, -1); err != nil {
				return err
			}
			return errRollback
		})
		if err != nil && !errors.Is(err, errRollback) {
			return nil, err
		}
		return rep, nil
	}
	sw := &sweepRun{rep: rep, policy: p, now: now, auditID: -1}
	for more := true; more; {
		err := s.db.update(ctx, func(tx *Tx) error {
			deleted := rep.Deleted
			more = false
			if err := sw.all(ctx, tx, sweepBatch); err != nil {
				return err
			}
			more = rep.Deleted-deleted >= sweepBatch
			return sw.audit(ctx, tx)
		})
		if err != nil {
			// What earlier batches committed stays; rep is not theirs
			// alone, so it is not returned.
			return nil, err
		}
	}
	if rep.Deleted == 0 {
		return rep, nil
	}
	rep.Upkeep = &recall.Upkeep{}
	err := s.db.update(ctx, func(tx *Tx) error {
		var err error
		if rep.Upkeep.FTS, err = compactFTS(ctx, tx, "observations_fts", rep.Deleted, false); err != nil {
			return err
		}
		rep.Upkeep.FreedPages, err = incrementalVacuum(ctx, tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	if rep.Upkeep.WALTruncated, err = s.db.checkpointNow(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}

// sweepBatch is how many observations one transaction of a sweep deletes
// at most: a few ms of work, like a 4h bucket's rollup.
const sweepBatch = 256

// sweepRun is one sweep under way: its report so far and its audit row.
type sweepRun struct {
	rep     *recall.SweepReport
	policy  recall.RetentionPolicy
	now     time.Time
	auditID int64 // the audit row written by the first batch; -1 before
}

// all deletes, within tx, up to limit observations (-1: all) that the
// policy expires, type by type and then the rolled-up ones, drops the
// sessions the deletions left empty, and adds it all to the report.
func (sw *sweepRun) all(ctx context.Context, tx *Tx, limit int) error {
	p, rep := sw.policy, sw.rep
	touched := map[string]bool{}
	left := limit
	if p.Enabled {
		guard, err := protectedSources(ctx, tx)
		if err != nil {
			return err
		}
		for _, t := range slices.Sorted(maps.Keys(p.Days)) {
			if p.Days[t] <= 0 || left == 0 {
				continue
			}
			cut := sw.now.Add(-time.Duration(p.Days[t]) * 24 * time.Hour)
			n, err := deleteObservationsUpTo(ctx, tx, touched, left, `type = ? AND at < ? AND pinned = 0 AND status != 'compacted'`+guard, t, ms(cut))
			if err != nil {
				return fmt.Errorf("sweep %s: %w", t, err)
			}
			if n > 0 {
				rep.ByType[t] += n
			}
			rep.Deleted += n
			left = remaining(left, n)
		}
	}
	if p.CompactedDays > 0 && left != 0 {
		cut := sw.now.Add(-time.Duration(p.CompactedDays) * 24 * time.Hour)
		n, err := deleteObservationsUpTo(ctx, tx, touched, left, `status = 'compacted' AND at < ? AND pinned = 0`, ms(cut))
		if err != nil {
			return fmt.Errorf("sweep compacted: %w", err)
		}
		rep.Compacted, rep.Deleted = rep.Compacted+n, rep.Deleted+n
	}
	n, err := dropEmptySessions(ctx, tx, touched)
	rep.Sessions += n
	return err
}

// remaining is what is left of limit (-1: no limit) after n.
func remaining(limit, n int) int {
	if limit < 0 {
		return limit
	}
	return limit - n
}

// audit writes the sweep's audit row with the counts so far, or brings it
// up to date: one row per sweep, written once something was deleted.
func (sw *sweepRun) audit(ctx context.Context, tx *Tx) error {
	rep := sw.rep
	if rep.Deleted == 0 {
		return nil
	}
	counts := map[string]int{"deleted": rep.Deleted, "compacted": rep.Compacted, "sessions": rep.Sessions}
	for t, n := range rep.ByType {
		counts["type:"+t] = n
	}
	if sw.auditID < 0 {
		if err := audit(ctx, tx, "sweep", sweepCriteria(sw.policy), counts); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT last_insert_rowid()`).Scan(&sw.auditID)
	}
	buf, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE forget_log SET counts = ? WHERE id = ?`, string(buf), sw.auditID); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
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
	return deleteReturningSessions(ctx, tx, touched, `DELETE FROM observations WHERE `+cond+` RETURNING session`, args...)
}

// deleteObservationsUpTo is deleteObservations of at most limit
// observations (-1: all), oldest id first.
func deleteObservationsUpTo(ctx context.Context, tx *Tx, touched map[string]bool, limit int, cond string, args ...any) (int, error) {
	if limit < 0 {
		return deleteObservations(ctx, tx, touched, cond, args...)
	}
	return deleteReturningSessions(ctx, tx, touched, `DELETE FROM observations WHERE id IN (SELECT id FROM observations WHERE `+cond+` ORDER BY id LIMIT ?) RETURNING session`,
		append(args, limit)...)
}

// deleteReturningSessions runs query, a DELETE of observations returning
// their sessions, adds those to touched and returns how many went.
func deleteReturningSessions(ctx context.Context, tx *Tx, touched map[string]bool, query string, args ...any) (int, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
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

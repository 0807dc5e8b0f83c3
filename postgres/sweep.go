package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/recall-mem/recall"
)

var _ recall.Sweeper = (*ForgetService)(nil)

// errRollback ends a dry run's transaction after counting.
var errRollback = errors.New("dry run")

// Sweep deletes what the retention policy expires at now: active
// observations past their type's period (when retention is enabled) and
// rolled-up observations past raw retention (whenever that is set, since
// their content lives on in the rollups). Landmarks are never swept, nor
// by type retention the sources of rollups. One sweep runs at a time per
// namespace (with purges), across processes.
func (s *ForgetService) Sweep(ctx context.Context, p recall.RetentionPolicy, now time.Time, dryRun bool) (*recall.SweepReport, error) {
	rep := &recall.SweepReport{At: now.UTC(), DryRun: dryRun, Enabled: p.Enabled, ByType: map[string]int{}}
	err := s.db.exclusive(ctx, jobForget, func() error {
		return s.db.tx(ctx, func(tx *Tx) error {
			touched := map[string]bool{}
			if p.Enabled {
				for _, t := range slices.Sorted(maps.Keys(p.Days)) {
					if p.Days[t] <= 0 {
						continue
					}
					w := newWhere("o", tx.db.Namespace)
					w.add("o.type = " + w.arg(t))
					w.add("o.at < " + w.arg(now.Add(-time.Duration(p.Days[t])*24*time.Hour).UTC()))
					w.add("NOT o.pinned AND o.status <> 'compacted'")
					w.add(`NOT EXISTS (SELECT 1 FROM memory_rollup_sources r WHERE r.namespace = o.namespace
						AND r.source_kind = 'observation' AND r.source_id = o.id::text)`)
					gone, err := tx.deleteObservations(ctx, touched, w)
					if err != nil {
						return fmt.Errorf("sweep %s: %w", t, err)
					}
					if len(gone) > 0 {
						rep.ByType[t] = len(gone)
					}
					rep.Deleted += len(gone)
				}
			}
			if p.CompactedDays > 0 {
				w := newWhere("o", tx.db.Namespace)
				w.add("o.status = 'compacted' AND NOT o.pinned")
				w.add("o.at < " + w.arg(now.Add(-time.Duration(p.CompactedDays)*24*time.Hour).UTC()))
				gone, err := tx.deleteObservations(ctx, touched, w)
				if err != nil {
					return fmt.Errorf("sweep compacted: %w", err)
				}
				rep.Compacted, rep.Deleted = len(gone), rep.Deleted+len(gone)
			}
			var err error
			if rep.Sessions, err = tx.dropEmptySessions(ctx, touched); err != nil {
				return err
			}
			if dryRun {
				return errRollback
			}
			if rep.Deleted == 0 {
				return nil
			}
			counts := map[string]int{"deleted": rep.Deleted, "compacted": rep.Compacted, "sessions": rep.Sessions}
			for t, n := range rep.ByType {
				counts["type:"+t] = n
			}
			// Autovacuum reclaims the space; a sweep is routine, not a
			// secret's removal, so it does not rewrite tables as a purge does.
			return tx.audit(ctx, "sweep", fmt.Sprintf("enabled=%v compacted_days=%d days=%v", p.Enabled, p.CompactedDays, sortedDays(p.Days)), counts)
		})
	})
	if err != nil && !errors.Is(err, errRollback) {
		return nil, err
	}
	return rep, nil
}

// sortedDays lists the per-type periods as type=days, sorted.
func sortedDays(days map[string]int) []string {
	out := make([]string, 0, len(days))
	for _, t := range slices.Sorted(maps.Keys(days)) {
		out = append(out, fmt.Sprintf("%s=%d", t, days[t]))
	}
	return out
}

package engine

import (
	"context"
	"fmt"
	"io"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
)

// RetentionPolicy is the store's retention policy: [retention] over seed
// 003's defaults, and [rollup] raw_retention_days for rolled-up
// observations. Raw retention applies even with [retention] off: rollups
// keep what those observations said, and seed 004 bounds raw data on its
// own terms, so turning rollups on is the opt-in.
func (e *Engine) RetentionPolicy() recall.RetentionPolicy {
	return forget.Policy(e.Config.Retention.Enabled, e.Config.Retention.Days, e.Config.Rollup.RawRetentionDays)
}

// Sweep applies the retention policy now. `recall sweep` and `recall
// maintain --sweep` call it; the store must be open.
func (e *Engine) Sweep(ctx context.Context) (*recall.SweepReport, error) {
	return e.forgetter().Sweep(ctx, e.RetentionPolicy(), e.Now(), false)
}

// OpportunisticSweep is the session-start heartbeat's sweep (seed 003): it
// runs only when retention is enabled and at least 100 observations are
// older than a day, and it never fails the session: errors go to log. It
// returns how many observations it removed.
func (e *Engine) OpportunisticSweep(ctx context.Context, log io.Writer) int {
	n, _ := e.opportunisticSweep(ctx, log)
	return n
}

// opportunisticSweep is OpportunisticSweep that also reports whether it
// finished (false when it failed), for the upkeep stamp.
func (e *Engine) opportunisticSweep(ctx context.Context, log io.Writer) (int, bool) {
	p := e.RetentionPolicy()
	if !p.Enabled {
		return 0, true
	}
	dayAgo := e.Now().Add(-forget.Day)
	_, old, err := e.obs.FindObservations(ctx, recall.ObservationFilter{Until: &dayAgo, Limit: 1})
	if err != nil {
		fprintf(log, "recall: retention sweep skipped: %v\n", err)
		return 0, false
	}
	if !forget.ShouldSweep(p, old) {
		return 0, true
	}
	rep, err := e.Sweep(ctx)
	if err != nil {
		fprintf(log, "recall: retention sweep failed: %v\n", err)
		return 0, false
	}
	return rep.Deleted, true
}

// fprintf writes to w unless it is nil.
func fprintf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

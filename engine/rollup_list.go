package engine

import (
	"context"

	"github.com/recall-mem/recall"
)

// ListRollups returns the rollups matching f, newest bucket first (best
// full-text match first when f.Search is set): a tier's listing for the
// web UI, whose rollups link to their sources through ExplainRollup.
func (e *Engine) ListRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	return svc.FindRollups(ctx, f)
}

package rollup

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// SummaryStore is what Reword reads and writes.
type SummaryStore interface {
	FindRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error)
	SetRollupSummary(ctx context.Context, id, summary string, updatedAt time.Time) (bool, error)
}

// Reword asks sum for better summaries of at most limit rollups written
// since since, coarsest tiers first (they are read most). It runs after a
// rollup run, outside its transactions, so a slow model never holds the
// store's write lock; a rollup rewritten meanwhile is left alone. A
// failing call keeps the deterministic summary; Reword stops at the first
// EUNAVAILABLE (the model is down: returned for the caller to log) or when
// ctx ends, and returns how many summaries it replaced.
func Reword(ctx context.Context, st SummaryStore, sum recall.RollupSummarizer, since time.Time, limit int) (int, error) {
	n := 0
	for i := len(recall.BucketTypes) - 1; i >= 0 && n < limit; i-- {
		rs, err := st.FindRollups(ctx, recall.RollupFilter{BucketTypes: []string{recall.BucketTypes[i]}, UpdatedSince: &since, Limit: limit - n})
		if err != nil {
			return n, err
		}
		for _, r := range rs {
			if ctx.Err() != nil {
				return n, nil
			}
			text, err := sum.SummarizeRollup(ctx, r)
			if recall.ErrorCode(err) == recall.EUNAVAILABLE {
				return n, err
			} else if err != nil || text == "" {
				continue
			}
			ok, err := st.SetRollupSummary(ctx, r.ID, text, r.UpdatedAt)
			if err != nil {
				return n, err
			}
			if ok {
				n++
			}
		}
	}
	return n, nil
}

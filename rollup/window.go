package rollup

import (
	"context"
	"sort"
	"time"

	"github.com/recall-mem/recall"
)

// A query's time window applies to rollups by their bucket: a bucket
// overlapping the window is in it. Of the rollups of one entry group that
// nest (a 4h bucket inside its day), one is shown: the finest whose bucket
// covers the whole window when one does, else the coarsest.

func later(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.After(*a)) {
		return b
	}
	return a
}

func earlier(a, b *time.Time) *time.Time {
	if a == nil || (b != nil && b.Before(*a)) {
		return b
	}
	return a
}

func covers(r *recall.Rollup, in recall.TimeIntent) bool {
	return in.Since != nil && in.Until != nil && !r.BucketStart.After(*in.Since) && !r.BucketEnd.Before(*in.Until)
}

func within(inner, outer *recall.Rollup) bool {
	return inner != outer && !inner.BucketStart.Before(outer.BucketStart) && !inner.BucketEnd.After(outer.BucketEnd)
}

// onePerEntry keeps one rollup per entry group and window (see above).
// Order is kept.
func onePerEntry(hits []recall.RollupHit, in recall.TimeIntent) []recall.RollupHit {
	groups := map[[2]string][]*recall.Rollup{}
	for _, h := range hits {
		k := [2]string{h.Rollup.MemoryType, h.Rollup.Key}
		groups[k] = append(groups[k], h.Rollup)
	}
	drop := map[*recall.Rollup]bool{}
	for _, rs := range groups {
		var best *recall.Rollup
		for _, r := range rs {
			if covers(r, in) && (best == nil || r.BucketEnd.Sub(r.BucketStart) < best.BucketEnd.Sub(best.BucketStart)) {
				best = r
			}
		}
		for _, r := range rs {
			switch {
			case best != nil:
				drop[r] = r != best
			default:
				for _, o := range rs {
					if within(r, o) {
						drop[r] = true
					}
				}
			}
		}
	}
	out := hits[:0:0]
	for _, h := range hits {
		if !drop[h.Rollup] {
			out = append(out, h)
		}
	}
	return out
}

// window answers a time-only query: the base hits (the window's memories)
// and the window's rollups, newest first.
func (s *Searcher) window(ctx context.Context, base []*recall.SearchHit, f recall.RollupFilter, in recall.TimeIntent, now time.Time, limit int, explain bool) ([]*recall.SearchHit, error) {
	f.Search, f.PerKey = "", false
	rs, err := s.Rollups.CurrentRollups(ctx, f)
	if err != nil {
		return nil, err
	}
	// CurrentRollups has one per key; the unkeyed rollups (a type's
	// entries without a title) are each about something else, so every
	// one in the window is listed, nested ones folded by onePerEntry.
	unkeyed := ""
	f.Key = &unkeyed
	loose, err := s.Rollups.FindRollups(ctx, f)
	if err != nil {
		return nil, err
	}
	rs = append(rs, loose...)
	hits := make([]recall.RollupHit, len(rs))
	for i, r := range rs {
		hits[i] = recall.RollupHit{Rollup: r}
	}
	hits = dropOutdated(onePerEntry(hits, in), base)
	out := append([]*recall.SearchHit(nil), base...)
	for _, h := range hits {
		r := h.Rollup
		hit := &recall.SearchHit{Memory: MemoryView(r), Rollup: r, Score: Freshness(now.Sub(r.LatestAt), halfLife[IntentAny]), Snippet: r.Summary}
		if explain {
			hit.Explain = &recall.HitExplain{Fused: hit.Score, Adjustments: map[string]float64{"time_window": 1}}
		}
		out = append(out, hit)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Memory.OccurredAt.After(out[j].Memory.OccurredAt) })
	return s.withSources(ctx, fit(out, limit))
}

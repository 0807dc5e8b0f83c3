package engine

import (
	"context"
	"slices"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rollup"
)

// GetVersion returns version n of the memory ref names in collection. An
// id reaches the history of a memory that is no longer found (deleted);
// a key must name a memory that is.
func (e *Engine) GetVersion(ctx context.Context, ref, collection string, n int) (*recall.Memory, error) {
	m, err := e.Get(ctx, ref, collection)
	if err != nil && !recall.IsID(ref) {
		return nil, err
	}
	if m != nil {
		ref = m.ID
	}
	return e.Version(ctx, ref, n)
}

// SearchWithObservations runs q and, with observations, also searches the
// raw observations; the memories then leave out the observation copies
// rollups keep, which the second list shows first-hand.
func (e *Engine) SearchWithObservations(ctx context.Context, q recall.SearchQuery, observations bool) ([]*recall.SearchHit, []ObservationJSON, error) {
	hits, err := e.Search(ctx, q)
	if err != nil || !observations {
		return hits, nil, err
	}
	hits = slices.DeleteFunc(hits, func(h *recall.SearchHit) bool { return h.Memory.Collection == rollup.ObservationCollection })
	obs, err := e.SearchObservations(ctx, q.Text, q.Filter.Since, q.Filter.Until, q.Limit)
	return hits, obs, err
}

// ToHitsJSON gives hits their JSON form; none is an empty list.
func ToHitsJSON(hits []*recall.SearchHit) []HitJSON {
	out := make([]HitJSON, 0, len(hits))
	for _, h := range hits {
		out = append(out, ToHitJSON(h))
	}
	return out
}

// CheckSearch refuses an unknown mode, then reads the query's time flags
// (as ApplySearchTimes).
func CheckSearch(q *recall.SearchQuery, since, until, now, asOf string) error {
	switch q.Mode {
	case recall.ModeHybrid, recall.ModeBM25, recall.ModeVector:
	default:
		return recall.Errorf(recall.EINVALID, "invalid --mode %q: use hybrid, bm25 or vector", q.Mode)
	}
	return ApplySearchTimes(q, since, until, now, asOf)
}

package rollup

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
)

// ObservationFinder reads observations: the raw events hooks and `recall
// observe` record, which rollups summarise later.
type ObservationFinder interface {
	FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error)
}

// ObservationCollection is the collection of an observation shown as a
// hit.
const ObservationCollection = "observations"

// observationWeight ranks an observation (a raw event) below a memory or a
// rollup that matches as well: those were kept or summarised on purpose.
const observationWeight = 0.8

// observations returns the active observations (those no rollup has taken
// in yet; a rollup answers for the others) that match text under f, as
// hits scored by the share of the query's words they hold and freshness.
func (s *Searcher) observations(ctx context.Context, f recall.ObservationFilter, text string, now time.Time, intent string, limit int, explain bool) ([]*recall.SearchHit, error) {
	if s.Observations == nil || text == "" {
		return nil, nil
	}
	active := recall.StatusActive
	f.Status, f.Desc, f.Limit = &active, true, limit
	obs, _, err := s.Observations.FindObservations(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("search observations: %w", err)
	}
	terms := rank.Terms(text)
	out := make([]*recall.SearchHit, 0, len(obs))
	for _, o := range obs {
		found := 0
		words := rank.Terms(o.Content)
		for w := range terms {
			if _, ok := words[w]; ok {
				found++
			}
		}
		rel := float64(found) / float64(max(len(terms), 1))
		fresh := 0.5 + 0.5*Freshness(now.Sub(o.At), halfLife[intent])
		h := &recall.SearchHit{Memory: ObservationView(o), Score: observationWeight * rel * fresh, Snippet: o.Content}
		if explain {
			h.Explain = &recall.HitExplain{Fused: rel, Adjustments: map[string]float64{"observation": observationWeight, "freshness": fresh}}
		}
		out = append(out, h)
	}
	return out, nil
}

// ObservationView presents an observation as a read-only memory, like
// MemoryView does a rollup: collection "observations", tier "observation",
// id "obs-<n>", n being the number `recall timeline --json` and `recall
// observation pin` use.
func ObservationView(o *recall.Observation) *recall.Memory {
	return &recall.Memory{
		ID: "obs-" + strconv.FormatInt(o.ID, 10), Key: o.Key, Collection: ObservationCollection, Type: o.Type, Content: o.Content,
		Project: o.Project, Tier: "observation", Status: o.Status, Metadata: o.Metadata, Confidence: 1,
		CreatedAt: o.At, UpdatedAt: o.At, OccurredAt: o.At,
	}
}

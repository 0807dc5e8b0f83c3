package rank

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// manyHits is a full-text store whose every search returns its memories,
// best first, scores falling.
type manyHits []*recall.Memory

func (h manyHits) Search(_ context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	out := make([]*recall.SearchHit, 0, min(q.Limit, len(h)))
	for i, m := range h[:min(q.Limit, len(h))] {
		out = append(out, &recall.SearchHit{Memory: m, Score: 20 - float64(i)*0.1})
	}
	return out, nil
}

// TestSearch_AdjustmentsOnlyForExplain: a search records the factors of
// each candidate's adjustment (a map a candidate) only when Explain asks
// for them; the scores are the same either way.
func TestSearch_AdjustmentsOnlyForExplain(t *testing.T) {
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	var h manyHits
	for i := range 100 {
		h = append(h, &recall.Memory{ID: fmt.Sprintf("m%03d", i), Title: fmt.Sprintf("deploy note %d", i),
			Content: fmt.Sprintf("the deploy of service %d went out", i), Confidence: 0.8, Status: recall.StatusActive,
			OccurredAt: now.Add(-time.Duration(i) * time.Hour)})
	}
	s := &Searcher{Text: h}
	q := recall.SearchQuery{Text: "deploy", Mode: recall.ModeBM25, Limit: 10, Now: now}
	ctx := context.Background()
	plain, err := s.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	q.Explain = true
	explained, err := s.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(explained) || len(plain) == 0 {
		t.Fatalf("%d hits plain, %d explained", len(plain), len(explained))
	}
	for i := range plain {
		if plain[i].Memory.ID != explained[i].Memory.ID || plain[i].Score != explained[i].Score {
			t.Errorf("hit %d: %s %v plain, %s %v explained", i, plain[i].Memory.ID, plain[i].Score, explained[i].Memory.ID, explained[i].Score)
		}
		if explained[i].Explain == nil || explained[i].Explain.Adjustments["recency"] == 0 {
			t.Errorf("hit %d: no recency factor explained: %+v", i, explained[i].Explain)
		}
	}
	allocs := func(explain bool) float64 {
		q.Explain = explain
		return testing.AllocsPerRun(20, func() {
			if _, err := s.Search(ctx, q); err != nil {
				t.Fatal(err)
			}
		})
	}
	// Explaining adds its ten hits' explanations and, now, a map for each
	// of the 100 candidates; before, the plain search made those too.
	if plainN, explainN := allocs(false), allocs(true); explainN-plainN < 100 {
		t.Errorf("a plain search allocates %.0f, an explained one %.0f: the plain one still records the factors", plainN, explainN)
	}
}

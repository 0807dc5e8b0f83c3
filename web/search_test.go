package web

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// cannedSearch answers every query with the same hits: a seam for hits the
// fixture's store would need a conversation import to produce.
type cannedSearch []*recall.SearchHit

func (c cannedSearch) Search(context.Context, recall.SearchQuery) ([]*recall.SearchHit, error) {
	return c, nil
}

func TestPages_SearchShowsContextAndRollups(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	turn := func(id, text string) *recall.Memory {
		return &recall.Memory{ID: id, Collection: "conversations", Tier: recall.TierRegister, Content: text}
	}
	week := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	f.h.b.Search = cannedSearch{
		{Memory: turn("tr-hit", "We moved the launch to <Friday>."), Score: 0.91, Context: []*recall.SearchHit{
			{Memory: turn("tr-before", "When is the launch?")},
			{Memory: turn("tr-after", "Friday works, token [REDACTED:api_key] rotated.")},
		}},
		{Memory: &recall.Memory{ID: "ru-1", Title: "Editor choices", Content: "helix (3), vim (1)"}, Score: 0.5,
			Rollup: &recall.Rollup{ID: "ru-1", BucketType: "week", BucketStart: week, Entries: 4}},
	}
	body := f.get("/memories?q=launch").Body.String()
	contains(t, "search with context", body, "Recorded beside it:", `href="/memories/tr-before"`, "When is the launch?",
		`<mark class="redacted">[REDACTED:api_key]</mark>`, "We moved the launch to &lt;Friday&gt;.",
		`<span class="hit-title">Editor choices</span>`, "rollup of 4 entries, week from 2026-01-05 00:00")
}

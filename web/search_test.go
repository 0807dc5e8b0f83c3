package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
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

// endedSearch answers as a search queued behind a held slot does when
// its client hangs up: with the context's error.
type endedSearch struct{}

func (endedSearch) Search(ctx context.Context, _ recall.SearchQuery) ([]*recall.SearchHit, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// A search whose client hung up is no failure: no error logged, no page
// rendered for no one.
func TestPages_ClientThatLeftIsNoError(t *testing.T) {
	var logs bytes.Buffer
	f := newFixture(t, Options{Loopback: true, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	f.h.b.Search = endedSearch{}
	ctx, hangUp := context.WithCancel(context.Background())
	hangUp()
	r := httptest.NewRequestWithContext(ctx, http.MethodGet, "http://localhost:7077/memories?q=launch", nil)
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	if w.Code != httpapi.StatusClientLeft || w.Body.Len() != 0 || strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "client left") {
		t.Fatalf("a client that hung up: status %d, %d bytes of body, log:\n%s", w.Code, w.Body.Len(), logs.String())
	}
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/timeq"
)

// timeSetNow is the fixed --now of the time test set: a Wednesday.
var timeSetNow = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)

// timeSetTopics are what a year of work notes is about; every day has a
// note on each, so that each query's words match memories in every window
// and only the time words can tell them apart.
var timeSetTopics = []struct{ kind, text string }{
	{"decision", "Decision: %s the %s rollout until the %s review."},
	{"deploy", "Deployed the %s service with the %s flag to the %s cluster."},
	{"incident", "Incident: %s alerts on the %s queue, fixed by the %s team."},
	{"billing", "Billing: %s invoices for the %s plan checked with %s."},
	{"hiring", "Hiring: %s interview for the %s role with the %s panel."},
}

var timeSetWords = []string{"paused", "resumed", "staged", "canary", "payments", "search", "mobile", "edge", "north", "blue",
	"green", "nightly", "weekly", "platform", "data", "growth", "infra", "backend", "frontend", "security"}

// timeSetQueries are questions with time words and, for each, nothing:
// the window the expected memories lie in is the parser's (the test set
// measures that the searcher honours it).
var timeSetQueries = []string{
	"deploy last week",
	"what did we decide yesterday",
	"incidents in January 2026",
	"billing 3 days ago",
	"hiring last month",
	"last week",
	"yesterday",
	"decisions this week",
	"incidents in the last 10 days",
	"deployed in May 2025",
	"hiring interviews last Tuesday",
	"billing invoices two weeks ago",
	"what happened the day before yesterday",
	"deploys since March",
	"decisions last year",
}

// TestTimeSet is the time test set of issue 14: a year of notes, five a
// day, and queries with time words at a fixed now. It reports the mean
// precision@5 of in-window memories (the share of the first five shown,
// hits and their context, that lie in the window the query names) and
// requires at least 0.9.
func TestTimeSet(t *testing.T) {
	mem, vec := openSearchStore(t, timeSetNow)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	word := func() string { return timeSetWords[rng.IntN(len(timeSetWords))] }
	var ms []*recall.Memory
	start := timeSetNow.AddDate(-1, 0, 0).Truncate(24 * time.Hour)
	for d := start; d.Before(timeSetNow); d = d.AddDate(0, 0, 1) {
		for i, tp := range timeSetTopics {
			at := d.Add(time.Duration(8+2*i)*time.Hour + time.Duration(rng.IntN(60))*time.Minute)
			if at.After(timeSetNow) {
				continue
			}
			ms = append(ms, &recall.Memory{Type: tp.kind, Content: fmt.Sprintf(tp.text, word(), word(), word()), OccurredAt: at, CreatedAt: at})
		}
	}
	if _, err := mem.ImportMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	s, _ := newApp(nil, nil, nil).eng.SearcherFor(mem, vec, nil, defaultConfig())
	total := 0.0
	for _, text := range timeSetQueries {
		in := timeq.Parse(text, timeSetNow)
		if !in.HasWindow() {
			t.Fatalf("%q names no window: the test set needs one", text)
		}
		hits, err := s.Search(ctx, recall.SearchQuery{Text: text, Limit: 5, Now: timeSetNow})
		if err != nil {
			t.Fatal(err)
		}
		var shown []*recall.Memory
		for _, h := range hits {
			shown = append(shown, h.Memory)
			for _, c := range h.Context {
				shown = append(shown, c.Memory)
			}
		}
		inside := 0
		for _, m := range shown {
			if (in.Since == nil || !m.OccurredAt.Before(*in.Since)) && (in.Until == nil || m.OccurredAt.Before(*in.Until)) {
				inside++
			}
		}
		p := 0.0
		if len(shown) > 0 {
			p = float64(inside) / float64(len(shown))
		}
		t.Logf("P@5 %.2f  %q (%d shown)", p, text, len(shown))
		total += p
	}
	mean := total / float64(len(timeSetQueries))
	t.Logf("time test set: mean precision@5 of in-window memories %.3f over %d queries, %d memories", mean, len(timeSetQueries), len(ms))
	if mean < 0.9 {
		t.Errorf("mean precision@5 %.3f, want at least 0.9", mean)
	}
}

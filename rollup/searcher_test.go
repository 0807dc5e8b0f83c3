package rollup

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
	"github.com/recall-mem/recall/timeq"
)

// countedParser is timeq's parser, counting its readings.
type countedParser struct{ n *int }

func (p countedParser) ParseTime(text string, now time.Time) recall.TimeIntent {
	*p.n++
	return timeq.Parser{}.ParseTime(text, now)
}

// dayNotes is a full-text side over a day's notes: every note holding
// the query's text.
type dayNotes []*recall.Memory

func (d dayNotes) Search(_ context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	var out []*recall.SearchHit
	for _, m := range d {
		if strings.Contains(m.Content, q.Text) {
			out = append(out, &recall.SearchHit{Memory: m, Score: 1, Snippet: m.Content})
		}
	}
	return out, nil
}

// noRollups is a store without rollups.
type noRollups struct{}

func (noRollups) SearchRollups(context.Context, recall.RollupFilter) ([]recall.RollupHit, error) {
	return nil, nil
}
func (noRollups) CurrentRollups(context.Context, recall.RollupFilter) ([]*recall.Rollup, error) {
	return nil, nil
}
func (noRollups) FindRollups(context.Context, recall.RollupFilter) ([]*recall.Rollup, error) {
	return nil, nil
}
func (noRollups) FindRollup(context.Context, string) (*recall.Rollup, error) {
	return nil, recall.Errorf(recall.ENOTFOUND, "no rollup")
}

// Over a memory searcher with the same parser, a search reads the query's
// time words once, with or without a time of its own, and finds what it
// finds when the two read them each with a parser of their own.
func TestSearch_ReadsTheTimeWordsOnce(t *testing.T) {
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return day.Add(15 * time.Hour) }
	var notes dayNotes
	for i := range 8 {
		notes = append(notes, &recall.Memory{ID: fmt.Sprintf("n%d", i), Content: fmt.Sprintf("note %d on the deploy", i),
			OccurredAt: day.Add(time.Duration(i-4) * 6 * time.Hour), Confidence: 1})
	}
	searcher := func(base, own recall.TimeParser) *Searcher {
		return &Searcher{Base: &rank.Searcher{Text: notes, Time: base, Now: clock, Options: rank.DefaultOptions()},
			Rollups: noRollups{}, Time: own, Now: clock}
	}
	for _, q := range []recall.SearchQuery{
		{Text: "deploy", Mode: recall.ModeBM25},
		{Text: "deploy today", Mode: recall.ModeBM25},
		{Text: "the deploy yesterday", Mode: recall.ModeBM25, Now: day.Add(30 * time.Hour)},
	} {
		n, a, b := 0, 0, 0
		one := countedParser{&n}
		got, err := searcher(one, one).Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("%q: the time words read %d times, want once", q.Text, n)
		}
		want, err := searcher(countedParser{&a}, countedParser{&b}).Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if a != 1 || b != 1 || len(want) == 0 {
			t.Fatalf("%q with two parsers: read %d and %d times, %d hits", q.Text, a, b, len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q read once (-read twice +once):\n%s", q.Text, diff)
		}
	}
}

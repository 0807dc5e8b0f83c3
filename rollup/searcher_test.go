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

// countedParser is timeq's parser, counting its readings (a pointer to
// it is one parser: two are equal only if they are the same).
type countedParser struct{ readings int }

func (p *countedParser) ParseTime(text string, now time.Time) recall.TimeIntent {
	p.readings++
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
		one, a, b := &countedParser{}, &countedParser{}, &countedParser{}
		got, err := searcher(one, one).Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if one.readings != 1 {
			t.Errorf("%q: the time words read %d times, want once", q.Text, one.readings)
		}
		want, err := searcher(a, b).Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if a.readings != 1 || b.readings != 1 || len(want) == 0 {
			t.Fatalf("%q with two parsers: read %d and %d times, %d hits", q.Text, a.readings, b.readings, len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q read once (-read twice +once):\n%s", q.Text, diff)
		}
	}
}

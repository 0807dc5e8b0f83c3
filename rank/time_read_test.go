package rank

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

// countingParser reads "today" as the day of now and counts its readings.
type countingParser struct{ n *int }

func (p countingParser) ParseTime(text string, now time.Time) recall.TimeIntent {
	*p.n++
	if !strings.Contains(text, "today") {
		return recall.TimeIntent{Text: text}
	}
	since, until := now.Truncate(24*time.Hour), now.Truncate(24*time.Hour).Add(24*time.Hour)
	return recall.TimeIntent{Text: strings.TrimSpace(strings.ReplaceAll(text, "today", "")), Since: &since, Until: &until, Found: []string{"today"}}
}

// listParser is a parser whose values cannot be compared.
type listParser []string

func (listParser) ParseTime(text string, _ time.Time) recall.TimeIntent {
	return recall.TimeIntent{Text: text}
}

// A search given the time words as its own parser reads them (the same
// text, time and parser) takes them and gives the hits it gives reading
// them itself; handed another text's, another time's or another parser's
// reading (or one of a parser that cannot be compared), it reads the
// words itself.
func TestSearch_TakesTheTimeWordsHandedDown(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	th := newThread("", "", "", "", "", "")
	n := 0
	p := countingParser{&n}
	r := &Searcher{Text: th, Time: p}
	search := func(ctx context.Context, text string) []*recall.SearchHit {
		t.Helper()
		hits, err := r.Search(ctx, recall.SearchQuery{Text: text, Now: now, Mode: recall.ModeBM25})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	ctx := context.Background()
	for _, text := range []string{"deploy", "deploy today"} {
		n = 0
		want := search(ctx, text)
		if n != 1 || len(want) == 0 {
			t.Fatalf("%q: %d readings, %d hits; want one reading and hits", text, n, len(want))
		}
		in := p.ParseTime(text, now)
		n = 0
		if got := search(WithTimeRead(ctx, p, text, now, in), text); n != 0 || !cmp.Equal(got, want) {
			t.Errorf("%q handed down: %d readings, hits %v; want none and %v", text, n, got, want)
		}
		other := 0
		for what, hctx := range map[string]context.Context{
			"another text":   WithTimeRead(ctx, p, text+" ", now, in),
			"another time":   WithTimeRead(ctx, p, text, now.Add(time.Nanosecond), in),
			"another zone":   WithTimeRead(ctx, p, text, now.In(time.FixedZone("x", 0)), in),
			"another parser": WithTimeRead(ctx, countingParser{&other}, text, now, in),
			"a list parser":  WithTimeRead(ctx, listParser{"x"}, text, now, in),
		} {
			n = 0
			if got := search(hctx, text); n != 1 || !cmp.Equal(got, want) {
				t.Errorf("%q, %s handed down: %d readings, hits %v; want one and %v", text, what, n, got, want)
			}
		}
	}
	// A parser that cannot be compared, asked with its own reading handed
	// down, reads again rather than failing.
	r.Time = listParser{"x"}
	if got := search(WithTimeRead(ctx, listParser{"x"}, "deploy", now, recall.TimeIntent{Text: "deploy"}), "deploy"); len(got) == 0 {
		t.Error("no hits with a list parser")
	}
}

// wrapParser is comparable by its type but holds a parser that is not.
type wrapParser struct{ inner recall.TimeParser }

func (p wrapParser) ParseTime(text string, now time.Time) recall.TimeIntent {
	return p.inner.ParseTime(text, now)
}

// A struct type whose interface field holds an uncomparable value reports
// itself comparable; comparing two such values with == panics.
func TestSameParser_UncomparableInsideAStruct(t *testing.T) {
	a, b := wrapParser{listParser{"x"}}, wrapParser{listParser{"x"}}
	if sameParser(a, b) {
		t.Error("two parsers holding slices are the same")
	}
	n := 0
	if !sameParser(countingParser{&n}, countingParser{&n}) {
		t.Error("equal comparable parsers are not the same")
	}
}

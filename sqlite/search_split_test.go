package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/recall-mem/recall"
)

// splitStore returns a memory service over a store of 3,000 memories
// whose contents repeat a few templates, so that many rows rank equal and
// the windows' edges fall among ties.
func splitStore(t *testing.T) *MemoryService {
	t.Helper()
	s := NewMemoryService(openDB(t))
	templates := []string{
		"alpha beta", "alpha beta beta gamma", "alpha gamma delta", "beta delta",
		"alpha alpha beta delta epsilon", "gamma epsilon", "alpha",
	}
	var batch []*recall.Memory
	for i := range 3000 {
		m := &recall.Memory{Content: templates[i%len(templates)]}
		if i%11 == 0 {
			m.Title = "beta notes"
		}
		if i%13 == 0 {
			m.Tags = []string{"gamma"}
		}
		batch = append(batch, m)
	}
	if _, err := s.ImportMemories(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	return s
}

// searchText runs a search and returns its hits as "id score" lines, the
// score printed to the bit.
func searchText(t *testing.T, s *MemoryService, q recall.SearchQuery) []string {
	t.Helper()
	hits, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Memory.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
	}
	return out
}

// TestSearch_SplitScoringIsExact: a search whose scoring is split in two
// rowid ranges returns the same hits with the same scores, in the same
// order, as one statement over all rows, ties at the window's edge
// included, for windows and limits of any size and under a filter that
// makes the window grow.
func TestSearch_SplitScoringIsExact(t *testing.T) {
	ctx := context.Background()
	s := splitStore(t)
	queries := []recall.SearchQuery{
		{Text: "alpha", Limit: 10},
		{Text: "alpha", Limit: 100},
		{Text: "beta gamma", Limit: 100},
		{Text: "alpha beta delta", Limit: 500},
		{Text: "epsilon gamma", Limit: 40},
		{Text: "beta", Limit: 20, Filter: recall.MemoryFilter{Fields: map[string][]string{"tags": {"gamma"}}}},
	}
	for _, q := range queries {
		s.splitRows = 1 << 30
		whole := searchText(t, s, q)
		m, err := s.matchExpr(ctx, q.Text)
		if err != nil {
			t.Fatal(err)
		}
		s.splitRows = 1
		before := s.splits.Load()
		split := searchText(t, s, q)
		if s.splits.Load() == before {
			t.Fatalf("%q (%d rows to score): the scoring was not split", q.Text, m.rows)
		}
		if len(whole) == 0 || !slices.Equal(whole, split) {
			t.Errorf("%q limit %d: split\n%s\nwant\n%s", q.Text, q.Limit, strings.Join(split, "\n"), strings.Join(whole, "\n"))
		}
		for _, window := range []int{1, 7, 133, 5000} {
			s.splitRows = 1 << 30
			a, err := s.rankMatches(ctx, m, window)
			if err != nil {
				t.Fatal(err)
			}
			s.splitRows = 1
			b, err := s.rankMatches(ctx, m, window)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, b) {
				t.Errorf("%q window %d: split ranks %v, want %v", q.Text, window, b, a)
			}
		}
	}
}

// TestSearch_SplitOnlyAlone: a search splits its scoring only when no
// other full-text search is in flight (the cores are taken then), and
// concurrent searches, split or not, give every caller the same answer
// (run under -race: the halves share the service).
func TestSearch_SplitOnlyAlone(t *testing.T) {
	s := splitStore(t)
	s.splitRows = 1
	q := recall.SearchQuery{Text: "alpha beta", Limit: 50}
	want := searchText(t, s, q)
	s.db.searches.Add(1) // another search in flight (a vector search, say)
	before := s.splits.Load()
	if got := searchText(t, s, q); !slices.Equal(got, want) {
		t.Fatalf("unsplit: %v, want %v", got, want)
	}
	if s.splits.Load() != before {
		t.Fatal("split beside another search")
	}
	s.db.searches.Add(-1)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				hits, err := s.Search(context.Background(), q)
				if err != nil {
					errs <- err
					return
				}
				var got []string
				for _, h := range hits {
					got = append(got, h.Memory.ID+" "+strconv.FormatFloat(h.Score, 'g', -1, 64))
				}
				if !slices.Equal(got, want) {
					errs <- fmt.Errorf("goroutine %d: %v, want %v", g, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

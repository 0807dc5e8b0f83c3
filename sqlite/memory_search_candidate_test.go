package sqlite

import (
	"context"
	"reflect"
	"testing"

	"github.com/recall-mem/recall"
)

// SearchCandidates finds what Search finds, in the same order with the
// same scores and snippets, each memory with only its ranking fields, as
// FindCandidates gives them, under the same filters and limits (a limit
// below the matches, so that the window is cut, and above them).
func TestSearchCandidates_HitsAsSearch(t *testing.T) {
	s := NewMemoryService(openDB(t))
	ctx := context.Background()
	ids := putEveryField(t, s, 12)
	if err := s.DeleteMemory(ctx, ids[5]); err != nil {
		t.Fatal(err)
	}
	anyStatus, project, typ := "*", "recall", "fact"
	filters := []recall.MemoryFilter{{}, {Status: &anyStatus}, {Project: &project}, {Type: &typ}}
	compared := 0
	for _, text := range []string{"memory", "title 3", "quoted memory 7", "nothing"} {
		for _, f := range filters {
			for _, limit := range []int{3, 10, 100} {
				q := recall.SearchQuery{Text: text, Filter: f, Limit: limit}
				whole, err := s.Search(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				lean, err := s.SearchCandidates(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if len(lean) != len(whole) {
					t.Fatalf("%q %+v limit %d: %d candidates, Search %d", text, f, limit, len(lean), len(whole))
				}
				for i, w := range whole {
					l := lean[i]
					if l.Score != w.Score || l.Snippet != w.Snippet || l.Explain != nil || l.Context != nil {
						t.Fatalf("%q %+v limit %d, hit %d: %+v, Search %+v", text, f, limit, i, l, w)
					}
					if want := leanOf(t, w.Memory); !reflect.DeepEqual(*l.Memory, want) {
						t.Fatalf("%q %+v limit %d, hit %d:\n%+v\nwant the ranking fields of\n%+v", text, f, limit, i, *l.Memory, *w.Memory)
					}
					compared++
				}
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d hits compared", compared)
	}
	// The service itself still loads whole memories.
	hits, err := s.Search(ctx, recall.SearchQuery{Text: "memory", Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Memory.CreatedAt.IsZero() {
		t.Fatalf("Search after SearchCandidates: %v, %v", hits, err)
	}
}

package recalltest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

// TextSearch is a memory service with full-text candidates: a store's
// memories, or the HTTP client over a server whose searcher is one.
type TextSearch interface {
	recall.MemoryService
	recall.TextCandidates
}

// TestTextCandidates runs the contract of the full-text candidates
// (TextCandidates) and the neighbours (NeighborFinder) of a MemoryStore.
// open returns a fresh, empty store.
func TestTextCandidates(t *testing.T, open func(t *testing.T) recall.Store) {
	t.Run("Search", func(t *testing.T) {
		TestTextSearch(t, func(t *testing.T) TextSearch { return open(t).Memories() })
	})
	t.Run("Neighbors", func(t *testing.T) { testNeighbors(t, open) })
}

// TestTextSearch runs the contract of full-text candidates by their words.
// open returns a service over a fresh, empty store.
func TestTextSearch(t *testing.T, open func(t *testing.T) TextSearch) {
	ctx := context.Background()
	hitIDs := func(hits []*recall.SearchHit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.Memory.ID)
		}
		return out
	}
	search := func(t *testing.T, mem TextSearch, q recall.SearchQuery) []*recall.SearchHit {
		t.Helper()
		hits, err := mem.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	t.Run("Words", func(t *testing.T) {
		mem := open(t)
		m := mustPut(t, mem, &recall.Memory{Key: "release", Content: "Releases ship on Tuesdays."})
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Content: ptr("Releases ship on Thursdays.")}); err != nil {
			t.Fatal(err)
		}
		if got := hitIDs(search(t, mem, recall.SearchQuery{Text: "thursdays", Limit: 5})); !slices.Equal(got, []string{m.ID}) {
			t.Fatalf("a word of the memory found %v", got)
		}
		if got := search(t, mem, recall.SearchQuery{Text: "tuesdays", Limit: 5}); len(got) != 0 {
			t.Fatalf("a word of an old version found %d", len(got))
		}
		if got := search(t, mem, recall.SearchQuery{Text: "wednesdays", Limit: 5}); len(got) != 0 {
			t.Fatalf("an absent word found %d", len(got))
		}
	})
	t.Run("TitleAndTags", func(t *testing.T) {
		mem := open(t)
		a := mustPut(t, mem, &recall.Memory{Title: "Kubernetes notes", Content: "clusters"})
		b := mustPut(t, mem, &recall.Memory{Content: "pods", Tags: []string{"kubernetes"}})
		if got := hitIDs(search(t, mem, recall.SearchQuery{Text: "kubernetes", Limit: 5})); !slices.Equal(sorted(got...), sorted(a.ID, b.ID)) {
			t.Fatalf("title and tag words found %v", got)
		}
	})
	t.Run("Ranking", func(t *testing.T) {
		mem := open(t)
		once := mustPut(t, mem, &recall.Memory{Content: "postgres is one option among many databases we looked at for the service"})
		often := mustPut(t, mem, &recall.Memory{Content: "postgres postgres postgres"})
		hits := search(t, mem, recall.SearchQuery{Text: "postgres", Limit: 5})
		if got := hitIDs(hits); !slices.Equal(got, []string{often.ID, once.ID}) {
			t.Fatalf("order %v, want the denser match first", got)
		}
		if hits[0].Score < hits[1].Score || hits[1].Score <= 0 {
			t.Fatalf("scores %v, %v: want positive, best first", hits[0].Score, hits[1].Score)
		}
	})
	t.Run("LimitAndFilter", func(t *testing.T) {
		mem := open(t)
		var all []string
		for i, c := range []string{"a", "b", "a"} {
			m := mustPut(t, mem, &recall.Memory{Content: "shared word number", Collection: c, Tags: []string{string(rune('x' + i))}})
			all = append(all, m.ID)
		}
		if got := search(t, mem, recall.SearchQuery{Text: "shared", Limit: 2}); len(got) != 2 {
			t.Fatalf("Limit 2 returned %d", len(got))
		}
		got := hitIDs(search(t, mem, recall.SearchQuery{Text: "shared", Limit: 5, Filter: recall.MemoryFilter{Collection: ptr("a")}}))
		if !slices.Equal(sorted(got...), sorted(all[0], all[2])) {
			t.Fatalf("collection a found %v", got)
		}
		if err := mem.DeleteMemory(ctx, all[0]); err != nil {
			t.Fatal(err)
		}
		got = hitIDs(search(t, mem, recall.SearchQuery{Text: "shared", Limit: 5}))
		if slices.Contains(got, all[0]) || len(got) != 2 {
			t.Fatalf("after a delete found %v: want only the active memories", got)
		}
	})
	t.Run("Status", func(t *testing.T) {
		mem := open(t)
		m := mustPut(t, mem, &recall.Memory{Content: "archived knowledge"})
		if _, err := mem.UpdateMemory(ctx, m.ID, recall.MemoryUpdate{Status: ptr(recall.StatusArchived)}); err != nil {
			t.Fatal(err)
		}
		if got := search(t, mem, recall.SearchQuery{Text: "archived", Limit: 5}); len(got) != 0 {
			t.Fatalf("an archived memory is a default candidate: %d", len(got))
		}
		if got := hitIDs(search(t, mem, recall.SearchQuery{Text: "archived", Limit: 5, Filter: recall.MemoryFilter{Status: ptr("*")}})); !slices.Equal(got, []string{m.ID}) {
			t.Fatalf("any status found %v", got)
		}
	})
	t.Run("ErrBadFilter", func(t *testing.T) {
		mem := open(t)
		mustPut(t, mem, &recall.Memory{Content: "something"})
		_, err := mem.Search(ctx, recall.SearchQuery{Text: "something", Limit: 5, Filter: recall.MemoryFilter{Fields: map[string][]string{"no_such_field": {"x"}}}})
		wantCode(t, err, recall.EINVALID)
	})
	t.Run("Operators", func(t *testing.T) {
		mem := open(t)
		m := mustPut(t, mem, &recall.Memory{Content: "a nil map panics on write"})
		for _, q := range []string{`"nil AND map)`, "nil OR", "map*", "NOT nil", "(nil"} {
			hits, err := mem.Search(ctx, recall.SearchQuery{Text: q, Limit: 5})
			if err != nil {
				t.Fatalf("query %q: %v: operators are words", q, err)
			}
			if !slices.Contains(hitIDs(hits), m.ID) {
				t.Fatalf("query %q found %v", q, hitIDs(hits))
			}
		}
	})
}

func testNeighbors(t *testing.T, open func(t *testing.T) recall.Store) {
	ctx := context.Background()
	mem := open(t).Memories()
	at := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	var ms []*recall.Memory
	for i := 0; i < 5; i++ {
		ms = append(ms, mustPut(t, mem, &recall.Memory{Content: "turn", Collection: "chat", OccurredAt: at.Add(time.Duration(i) * time.Minute)}))
	}
	far := mustPut(t, mem, &recall.Memory{Content: "much later", Collection: "chat", OccurredAt: at.Add(48 * time.Hour)})
	got, err := mem.MemoryNeighbors(ctx, []string{ms[2].ID, far.ID, recall.NewID()}, 1, time.Hour, recall.MemoryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 2 {
		t.Fatalf("neighbours of %d ids, want no entry for the unknown id", len(got))
	}
	n := got[ms[2].ID]
	if len(n) != 2 {
		t.Fatalf("neighbours of the middle turn = %d, want one before and one after", len(n))
	}
	offsets := map[int]string{}
	for _, x := range n {
		offsets[x.Offset] = x.Memory.ID
	}
	if offsets[-1] != ms[1].ID || offsets[1] != ms[3].ID {
		t.Fatalf("neighbours by offset %v, want %s before and %s after", offsets, ms[1].ID, ms[3].ID)
	}
	for _, x := range got[far.ID] {
		if x.Memory.ID == ms[4].ID {
			t.Fatal("a memory two days away is a neighbour within an hour's window")
		}
	}
	_, err = mem.MemoryNeighbors(ctx, []string{ms[2].ID}, 1, time.Hour, recall.MemoryFilter{Fields: map[string][]string{"no_such_field": {"x"}}})
	wantCode(t, err, recall.EINVALID)
	wide, err := mem.MemoryNeighbors(ctx, []string{ms[2].ID}, 2, time.Hour, recall.MemoryFilter{})
	if err != nil || len(wide[ms[2].ID]) != 4 {
		t.Fatalf("radius 2 = %d neighbours, %v: want 4", len(wide[ms[2].ID]), err)
	}
	other := mustPut(t, mem, &recall.Memory{Content: "elsewhere", Collection: "notes", OccurredAt: at.Add(150 * time.Second)})
	filtered, err := mem.MemoryNeighbors(ctx, []string{ms[4].ID}, 1, time.Hour, recall.MemoryFilter{Collection: ptr("chat")})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range filtered[ms[4].ID] {
		if x.Memory.ID == other.ID {
			t.Fatal("a neighbour outside the filter")
		}
	}
}

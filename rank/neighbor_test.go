package rank

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

// thread is a store of memories in one row order: its full-text side
// returns every memory holding a word of the query, its neighbour finder
// the memories within radius rows of each id asked for, and it records
// the ids it was asked for.
type thread struct {
	ms    []*recall.Memory
	asked [][]string
}

func (s *thread) Search(_ context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	var out []*recall.SearchHit
	for _, m := range s.ms {
		if strings.Contains(m.Content, q.Text) {
			out = append(out, &recall.SearchHit{Memory: m, Score: 2, Snippet: m.Content})
		}
	}
	return out, nil
}

func (s *thread) MemoryNeighbors(_ context.Context, ids []string, radius int, _ time.Duration, _ recall.MemoryFilter) (map[string][]recall.Neighbor, error) {
	s.asked = append(s.asked, slices.Clone(ids))
	out := map[string][]recall.Neighbor{}
	for i, m := range s.ms {
		if !slices.Contains(ids, m.ID) {
			continue
		}
		for j := max(0, i-radius); j <= min(len(s.ms)-1, i+radius); j++ {
			if j != i {
				out[m.ID] = append(out[m.ID], recall.Neighbor{Memory: s.ms[j], Offset: j - i})
			}
		}
	}
	return out, nil
}

// newThread makes six memories a minute apart, of the given types; those
// at even places hold the word "deploy".
func newThread(types ...string) *thread {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s := &thread{}
	for i, typ := range types {
		text := fmt.Sprintf("message %d about lunch", i)
		if i%2 == 0 {
			text = fmt.Sprintf("message %d about the deploy", i)
		}
		s.ms = append(s.ms, &recall.Memory{ID: fmt.Sprintf("m%d", i), Content: text, Type: typ, Collection: "default", OccurredAt: at.Add(time.Duration(i) * time.Minute), Confidence: 1})
	}
	return s
}

// hitsAndContext lists the hits and, after each, the context shown under it.
func hitsAndContext(hits []*recall.SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Memory.ID)
		for _, c := range h.Context {
			out = append(out, "+"+c.Memory.ID)
		}
	}
	return out
}

// Neighbours are asked for only around candidates of a thread's type:
// the others could lend nothing (sameThread), so untyped and standalone
// memories make no neighbour query, and the hits are those the full
// query gave.
func TestNeighborBoost_AsksOnlyAroundThreads(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	search := func(s *thread) []string {
		t.Helper()
		r := &Searcher{Text: s, Neighbors: s}
		hits, err := r.Search(context.Background(), recall.SearchQuery{Text: "deploy", Mode: recall.ModeBM25, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return hitsAndContext(hits)
	}
	for _, types := range [][]string{{"", "", "", "", "", ""}, {"fact", "note", "decision", "fact", "", "preference"}} {
		s := newThread(types...)
		if diff := cmp.Diff([]string{"m4", "m2", "m0"}, search(s)); diff != "" {
			t.Errorf("types %q (-want +got):\n%s", types, diff)
		}
		if len(s.asked) != 0 {
			t.Errorf("types %q: neighbours asked for around %v, none of which has a thread's type", types, s.asked)
		}
	}
	// A conversation: the turns matched lend to the turns beside them,
	// and only they are asked about.
	s := newThread("turn", "turn", "turn", "fact", "fact", "fact")
	got := search(s)
	if diff := cmp.Diff([][]string{{"m0", "m2"}}, s.asked, cmp.Transformer("sort", func(ids []string) []string {
		return slices.Sorted(slices.Values(ids))
	})); diff != "" {
		t.Errorf("neighbours asked for (-want +got):\n%s", diff)
	}
	if !slices.Contains(got, "+m1") {
		t.Errorf("shown %v: want m1, the turn between two matching turns, as context", got)
	}
}

package rank

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

// threads is a store of three hits (a conversation turn, a fact and an
// untyped note) and one turn recorded after the first that matches
// nothing itself; it records which ids its neighbours are asked for.
type threads struct {
	hits  []*recall.Memory
	next  *recall.Memory
	asked [][]string
}

func (th *threads) Search(_ context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	var out []*recall.SearchHit
	for i, m := range th.hits {
		out = append(out, &recall.SearchHit{Memory: m, Score: float64(3 - i)})
	}
	return out, nil
}

func (th *threads) MemoryNeighbors(_ context.Context, ids []string, _ int, _ time.Duration, _ recall.MemoryFilter) (map[string][]recall.Neighbor, error) {
	th.asked = append(th.asked, slices.Clone(ids))
	out := map[string][]recall.Neighbor{}
	for _, id := range ids {
		for _, m := range th.hits {
			if m.ID == id && m.ID != th.next.ID {
				// every hit has the next turn after it, and the others
				// before it: only the turn's own thread may count
				out[id] = append(out[id], recall.Neighbor{Memory: th.next, Offset: 1})
				for _, o := range th.hits {
					if o.ID != id {
						out[id] = append(out[id], recall.Neighbor{Memory: o, Offset: -1})
					}
				}
			}
		}
	}
	return out, nil
}

// TestNeighborBoost_AsksOnlyForThreadedCandidates: neighbours are asked
// for only of candidates whose type makes a thread (only those lend, see
// sameThread), not at all when none has such a type, and the ranking is
// that of asking for all of them: the turn's next turn joins as its
// context.
func TestNeighborBoost_AsksOnlyForThreadedCandidates(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	mem := func(id, typ string) *recall.Memory {
		return &recall.Memory{ID: id, Type: typ, Collection: "chat", Content: id + " words", OccurredAt: at, Confidence: 1}
	}
	search := func(th *threads) []string {
		t.Helper()
		s := &Searcher{Text: th, Neighbors: th, Options: DefaultOptions()}
		hits, err := s.Search(context.Background(), recall.SearchQuery{Text: "words", Mode: recall.ModeBM25, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Memory.ID)
			for _, c := range h.Context {
				got = append(got, "+"+c.Memory.ID)
			}
		}
		return got
	}
	th := &threads{hits: []*recall.Memory{mem("turn1", "turn"), mem("fact", "fact"), mem("note", "")}, next: mem("turn2", "turn")}
	got := search(th)
	if diff := cmp.Diff([][]string{{"turn1"}}, th.asked); diff != "" {
		t.Errorf("neighbours asked for (-want +got):\n%s", diff)
	}
	if !slices.Contains(got, "+turn2") && !slices.Contains(got, "turn2") {
		t.Errorf("results %v: the turn's next turn did not join", got)
	}
	untyped := &threads{hits: []*recall.Memory{mem("fact", "fact"), mem("note", "")}, next: mem("turn2", "turn")}
	search(untyped)
	if len(untyped.asked) != 0 {
		t.Errorf("neighbours asked for %v, though no candidate has a threaded type", untyped.asked)
	}
}

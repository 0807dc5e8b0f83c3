package rank

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

// vectorStore is a thread whose every memory is near every query, the
// first best (its hits' rows 100 onwards, in the thread's order), and
// which records the ids it is asked to load; delay holds
// the vector search back, to let the full-text side finish first.
type vectorStore struct {
	recall.MemoryService
	*thread
	delay  time.Duration
	mu     sync.Mutex
	loaded [][]string
}

func (v *vectorStore) SearchVectors(_ context.Context, _ string, k int) ([]recall.VectorHit, error) {
	time.Sleep(v.delay)
	var out []recall.VectorHit
	for i, m := range v.ms[:min(k, len(v.ms))] {
		out = append(out, recall.VectorHit{MemoryID: m.ID, Score: 0.9 - float64(i)*0.01, Row: 100 + int64(i)})
	}
	return out, nil
}

func (v *vectorStore) FindMemories(_ context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	v.mu.Lock()
	v.loaded = append(v.loaded, slices.Clone(f.IDs))
	v.mu.Unlock()
	var out []*recall.Memory
	for _, m := range v.ms {
		if slices.Contains(f.IDs, m.ID) {
			out = append(out, m)
		}
	}
	return out, len(out), nil
}

// A vector search that finishes after the full-text one loads only the
// memories the full-text side did not find; one that finishes first
// loads them all. The hits are the same either way.
func TestNearest_LoadsOnlyWhatTextDidNotFind(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	th := newThread("", "", "", "", "", "")
	v := &vectorStore{thread: th}
	r := &Searcher{Text: th, Vectors: v, Memories: v}

	known := make(chan []string, 1)
	known <- []string{"m0", "m2", "m4"}
	res, err := r.loadNearest(context.Background(), "deploy", recall.MemoryFilter{}, 10, known)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"m1", "m3", "m5"}}, v.loaded); diff != "" {
		t.Errorf("loaded once the full-text ids are known (-want +got):\n%s", diff)
	}
	if len(res.ids) != 6 || len(res.loaded) != 3 {
		t.Errorf("vector result: %d ids, %d loaded; want 6 and 3", len(res.ids), len(res.loaded))
	}

	search := func() []string {
		t.Helper()
		hits, err := r.Search(context.Background(), recall.SearchQuery{Text: "deploy", Now: now})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, fmt.Sprintf("%s %.6f", h.Memory.ID, h.Score))
		}
		return out
	}
	v.loaded, v.delay = nil, 0
	first := search()
	for _, delay := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 0} {
		v.delay = delay
		if diff := cmp.Diff(first, search()); diff != "" {
			t.Errorf("vector search held back %v (-first +got):\n%s", delay, diff)
		}
	}
	if len(first) == 0 {
		t.Fatal("no hits")
	}
}

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

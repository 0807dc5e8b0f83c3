package rank

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
)

// leanStore is a vectorStore that also loads candidates lean, as
// sqlite.MemoryService does: only the fields candidateLoader names, the
// others zero. It records the ids of both kinds of load (and the rows
// given beside the lean ones), and leaves out
// of the whole loads the ids in gone (deleted since the candidates were
// loaded).
type leanStore struct {
	*vectorStore
	mu          sync.Mutex
	lean, whole [][]string
	rows        [][]int64
	gone        []string
}

func (l *leanStore) FindCandidates(ctx context.Context, f recall.MemoryFilter, rows []int64) ([]*recall.Memory, error) {
	l.mu.Lock()
	l.lean = append(l.lean, slices.Clone(f.IDs))
	l.rows = append(l.rows, slices.Clone(rows))
	l.mu.Unlock()
	ms, _, err := l.vectorStore.FindMemories(ctx, f)
	var out []*recall.Memory
	for _, m := range ms {
		out = append(out, &recall.Memory{ID: m.ID, Collection: m.Collection, Type: m.Type, Title: m.Title, Content: m.Content,
			Tags: m.Tags, Category: m.Category, Project: m.Project, CreatedBy: m.CreatedBy, Confidence: m.Confidence,
			Tier: m.Tier, Pinned: m.Pinned, Status: m.Status, Metadata: m.Metadata, OccurredAt: m.OccurredAt})
	}
	return out, err
}

func (l *leanStore) FindMemories(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	l.mu.Lock()
	l.whole = append(l.whole, slices.Clone(f.IDs))
	l.mu.Unlock()
	ms, _, err := l.vectorStore.FindMemories(ctx, f)
	ms = slices.DeleteFunc(ms, func(m *recall.Memory) bool { return slices.Contains(l.gone, m.ID) })
	return ms, len(ms), err
}

// wholeThread is newThread's six memories with every field set, those at
// odd places found by the vector side alone.
func wholeThread() *thread {
	th := newThread("", "", "", "", "", "")
	for i, m := range th.ms {
		at := m.OccurredAt
		m.Key, m.Title, m.Tags, m.Category, m.Context = fmt.Sprintf("k%d", i), "t", []string{"x"}, "c", "ctx"
		m.Related, m.Project, m.Priority, m.CreatedBy, m.Tier = []string{"r"}, "p", "high", "me", recall.TierRegister
		m.Status, m.Anchors, m.Metadata = recall.StatusActive, []recall.Anchor{{Path: "a.go", Hash: "00"}}, json.RawMessage(`{"a":"b"}`)
		m.CreatedAt, m.UpdatedAt, m.ReviewedAt, m.SnoozedUntil, m.Version = at, at.Add(time.Hour), &at, &at, 3
	}
	return th
}

// With a store that loads candidates lean, a search shows the same hits,
// whole memories and scores, as with one that loads them whole; only the
// vector side's own candidates are loaded lean, each with the row its
// vector hit gave, and only those shown are
// then loaded whole, in one query. A shown memory no longer found by then
// is left out, the others stay.
func TestSearch_LeanCandidatesShownWhole(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	search := func(r *Searcher, limit int) []*recall.SearchHit {
		t.Helper()
		hits, err := r.Search(context.Background(), recall.SearchQuery{Text: "deploy", Now: now, Limit: limit, Mode: recall.ModeVector})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	th := wholeThread()
	full := &vectorStore{thread: th}
	want := search(&Searcher{Text: th, Vectors: full, Memories: full}, 4)
	if len(want) < 2 || len(want) > 4 {
		t.Fatalf("%d hits, want 2 to 4 (fewer than the 6 candidates)", len(want))
	}
	lean := &leanStore{vectorStore: &vectorStore{thread: th}}
	got := search(&Searcher{Text: th, Vectors: lean, Memories: lean}, 4)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hits with lean candidates (-whole +lean):\n%s", diff)
	}
	if len(lean.lean) != 1 || len(lean.lean[0]) != 6 {
		t.Errorf("lean loads %v, want one of the 6 vector candidates", lean.lean)
	} else {
		hits, _ := lean.SearchVectors(context.Background(), "deploy", 10)
		row := map[string]int64{}
		for _, h := range hits {
			row[h.MemoryID] = h.Row
		}
		for i, id := range lean.lean[0] {
			if len(lean.rows[0]) != 6 || lean.rows[0][i] != row[id] || row[id] == 0 {
				t.Fatalf("lean load of %v at rows %v, want each id's hit's row %v", lean.lean[0], lean.rows[0], row)
			}
		}
	}
	var shown []string
	for _, h := range want {
		shown = append(shown, h.Memory.ID)
	}
	if len(lean.whole) != 1 || !sameSet(lean.whole[0], shown) {
		t.Errorf("whole loads %v, want one of the hits shown %v", lean.whole, shown)
	}

	lean.gone = []string{shown[1]}
	got = search(&Searcher{Text: th, Vectors: lean, Memories: lean}, 4)
	if diff := cmp.Diff(slices.Delete(slices.Clone(want), 1, 2), got); diff != "" {
		t.Errorf("hits with %s deleted before the whole load (-want +got):\n%s", shown[1], diff)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

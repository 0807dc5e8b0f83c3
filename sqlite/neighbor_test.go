package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/sqlite"
)

func TestMemoryService_MemoryNeighbors(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	at := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	var ids []string
	for i, c := range []string{"one", "two", "three", "four", "later"} {
		occurred := at
		if i == 4 {
			occurred = at.Add(48 * time.Hour)
		}
		m := &recall.Memory{Content: c, OccurredAt: occurred}
		if c == "four" {
			m.Collection = "other"
		}
		res, err := s.PutMemory(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Memory.ID)
	}
	t.Run("RadiusAndWindow", func(t *testing.T) {
		got, err := s.MemoryNeighbors(ctx, []string{ids[2]}, 2, time.Hour, recall.MemoryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"one": -2, "two": -1, "four": 1} // "later" is outside the window
		if len(got[ids[2]]) != len(want) {
			t.Fatalf("got %d neighbours: %+v", len(got[ids[2]]), got)
		}
		for _, n := range got[ids[2]] {
			if off, ok := want[n.Memory.Content]; !ok || off != n.Offset {
				t.Errorf("unexpected neighbour %q at %d", n.Memory.Content, n.Offset)
			}
		}
	})
	t.Run("Filter", func(t *testing.T) {
		col := "default"
		got, err := s.MemoryNeighbors(ctx, []string{ids[2]}, 1, time.Hour, recall.MemoryFilter{Collection: &col})
		if err != nil {
			t.Fatal(err)
		}
		if len(got[ids[2]]) != 1 || got[ids[2]][0].Memory.Content != "two" {
			t.Fatalf("got %+v", got[ids[2]])
		}
	})
	t.Run("Empty", func(t *testing.T) {
		got, err := s.MemoryNeighbors(ctx, nil, 2, time.Hour, recall.MemoryFilter{})
		if err != nil || len(got) != 0 {
			t.Fatalf("got %v, %v", got, err)
		}
	})
}

func TestMemoryService_MemoriesAsOf(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return clock }
	s := sqlite.NewMemoryService(db)
	a, err := s.PutMemory(ctx, &recall.Memory{Key: "a", Content: "first"})
	if err != nil {
		t.Fatal(err)
	}
	clock = clock.AddDate(0, 1, 0)
	content := "second"
	if _, err := s.UpdateMemory(ctx, a.Memory.ID, recall.MemoryUpdate{Content: &content}); err != nil {
		t.Fatal(err)
	}
	b, _ := s.PutMemory(ctx, &recall.Memory{Key: "b", Content: "gone soon"})
	clock = clock.AddDate(0, 1, 0)
	if err := s.DeleteMemory(ctx, b.Memory.ID); err != nil {
		t.Fatal(err)
	}
	at := func(t *testing.T, when time.Time) map[string]string {
		ms, err := s.MemoriesAsOf(ctx, when)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range ms {
			out[m.Key] = m.Content
		}
		return out
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		when time.Time
		want map[string]string
	}{
		{"BeforeAnything", start.Add(-time.Hour), map[string]string{}},
		{"FirstVersion", start.AddDate(0, 0, 10), map[string]string{"a": "first"}},
		{"AfterUpdate", start.AddDate(0, 1, 10), map[string]string{"a": "second", "b": "gone soon"}},
		{"AfterDelete", start.AddDate(0, 2, 10), map[string]string{"a": "second"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := at(t, tt.when)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestMemoryService_FindMemoriesByIDs(t *testing.T) {
	ctx := context.Background()
	s := sqlite.NewMemoryService(MustOpenDB(t))
	a, _ := s.PutMemory(ctx, &recall.Memory{Content: "a"})
	s.PutMemory(ctx, &recall.Memory{Content: "b"})
	ms, _, err := s.FindMemories(ctx, recall.MemoryFilter{IDs: []string{a.Memory.ID, "tr0000000000"}})
	if err != nil || len(ms) != 1 || ms[0].ID != a.Memory.ID {
		t.Fatalf("got %v, %v", ms, err)
	}
	ms, _, err = s.FindMemories(ctx, recall.MemoryFilter{IDs: []string{}})
	if err != nil || len(ms) != 0 {
		t.Fatalf("empty id list: got %v, %v", ms, err)
	}
}

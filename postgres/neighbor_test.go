package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
)

// TestMemoryNeighbors finds the memories stored beside one, within the
// radius and the time window, with the filter applied after the rows are
// counted; another namespace's rows, stored in between, neither show nor
// count.
func TestMemoryNeighbors(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(t)
	s := postgres.NewMemoryService(mustOpen(t, dbURL, ""))
	other := postgres.NewMemoryService(mustOpen(t, dbURL, "other"))
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
		if _, err := other.PutMemory(ctx, &recall.Memory{Content: "interleaved " + c, OccurredAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(t *testing.T, radius int, f recall.MemoryFilter, want map[string]int) {
		t.Helper()
		got, err := s.MemoryNeighbors(ctx, []string{ids[2]}, radius, time.Hour, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got[ids[2]]) != len(want) {
			t.Fatalf("got %d neighbours, want %v", len(got[ids[2]]), want)
		}
		for _, n := range got[ids[2]] {
			if off, ok := want[n.Memory.Content]; !ok || off != n.Offset {
				t.Errorf("unexpected neighbour %q at %d, want %v", n.Memory.Content, n.Offset, want)
			}
		}
	}
	t.Run("RadiusAndWindow", func(t *testing.T) {
		check(t, 2, recall.MemoryFilter{}, map[string]int{"one": -2, "two": -1, "four": 1}) // "later" is outside the window
	})
	t.Run("Filter", func(t *testing.T) {
		check(t, 1, recall.MemoryFilter{Collection: ptr("default")}, map[string]int{"two": -1})
	})
	t.Run("Empty", func(t *testing.T) {
		got, err := s.MemoryNeighbors(ctx, nil, 2, time.Hour, recall.MemoryFilter{})
		if err != nil || len(got) != 0 {
			t.Fatalf("got %v, %v", got, err)
		}
	})
}

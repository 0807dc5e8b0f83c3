package rank_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/rank"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRRF(t *testing.T) {
	tests := []struct {
		name  string
		k     float64
		lists []rank.List
		want  map[string]float64
	}{
		{"OneList", 60, []rank.List{{IDs: []string{"a", "b"}}}, map[string]float64{"a": 1.0 / 61, "b": 1.0 / 62}},
		{"BothListsAddUp", 60, []rank.List{{IDs: []string{"a", "b"}}, {IDs: []string{"b", "c"}}},
			map[string]float64{"a": 1.0 / 61, "b": 1.0/62 + 1.0/61, "c": 1.0 / 62}},
		{"Weights", 1, []rank.List{{IDs: []string{"a"}, Weight: 2}, {IDs: []string{"b"}, Weight: 0.5}},
			map[string]float64{"a": 1, "b": 0.25}},
		{"DefaultK", 0, []rank.List{{IDs: []string{"a"}}}, map[string]float64{"a": 1.0 / 61}},
		{"Empty", 60, nil, map[string]float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rank.RRF(tt.k, tt.lists...)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for id, w := range tt.want {
				if !near(got[id], w) {
					t.Errorf("%s: got %g, want %g", id, got[id], w)
				}
			}
		})
	}
}

func TestNormalizeAndSorted(t *testing.T) {
	got := rank.Sorted(rank.Normalize(map[string]float64{"a": 2, "b": 4, "c": 4, "d": 0}))
	want := []rank.Scored{{"b", 1}, {"c", 1}, {"a", 0.5}, {"d", 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if got := rank.Normalize(map[string]float64{"a": 0}); got["a"] != 0 {
		t.Fatalf("all-zero scores: got %v", got)
	}
}

func TestAdjust(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	w := rank.Weights{Recency: 0.5, HalfLife: 10 * 24 * time.Hour, Working: 0.2, Archive: 0.5, Pinned: 0.3, Confidence: 0.5, Inactive: 0.25}
	mem := func(mod func(*recall.Memory)) *recall.Memory {
		m := &recall.Memory{Tier: recall.TierRegister, Status: recall.StatusActive, Confidence: 1, OccurredAt: now.AddDate(-5, 0, 0)}
		mod(m)
		return m
	}
	tests := []struct {
		name string
		m    *recall.Memory
		want float64
	}{
		{"Plain", mem(func(*recall.Memory) {}), 1},
		{"JustNow", mem(func(m *recall.Memory) { m.OccurredAt = now }), 1.5},
		{"OneHalfLife", mem(func(m *recall.Memory) { m.OccurredAt = now.AddDate(0, 0, -10) }), 1.25},
		{"Future", mem(func(m *recall.Memory) { m.OccurredAt = now.AddDate(0, 0, 3) }), 1.5},
		{"Working", mem(func(m *recall.Memory) { m.Tier = recall.TierWorking }), 1.2},
		{"Archive", mem(func(m *recall.Memory) { m.Tier = recall.TierArchive }), 0.5},
		{"Pinned", mem(func(m *recall.Memory) { m.Pinned = true }), 1.3},
		{"LowConfidence", mem(func(m *recall.Memory) { m.Confidence = 0 }), 0.5},
		{"Superseded", mem(func(m *recall.Memory) { m.Status = recall.StatusSuperseded }), 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, factors := rank.Adjust(2, tt.m, now, w)
			if math.Abs(got-2*tt.want) > 1e-3 {
				t.Fatalf("score = %g, want %g (factors %v)", got, 2*tt.want, factors)
			}
			prod := 1.0
			for _, f := range factors {
				prod *= f
			}
			if math.Abs(prod*2-got) > 1e-9 {
				t.Fatalf("factors %v do not explain %g", factors, got)
			}
		})
	}
	t.Run("ZeroStaysZero", func(t *testing.T) {
		if got, _ := rank.Adjust(0, mem(func(m *recall.Memory) { m.Pinned = true }), now, w); got != 0 {
			t.Fatalf("got %g", got)
		}
	})
}

func TestMMR(t *testing.T) {
	// a and a2 are near-duplicates; b is distinct but scores lower.
	texts := []string{"deploy through staging with canary", "deploy through staging with a canary", "postgres is the database"}
	sets := make([]rank.TermSet, len(texts))
	for i, s := range texts {
		sets[i] = rank.Terms(s)
	}
	sim := func(i, j int) float64 { return rank.Jaccard(sets[i], sets[j]) }
	scores := []float64{1, 0.95, 0.6}
	tests := []struct {
		name   string
		lambda float64
		k      int
		want   []int
	}{
		{"RelevanceOnly", 1, 3, []int{0, 1, 2}},
		{"DuplicatePushedDown", 0.5, 3, []int{0, 2, 1}},
		{"TopK", 0.5, 2, []int{0, 2}},
		{"KLargerThanN", 1, 10, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rank.MMR(scores, sim, tt.lambda, tt.k)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestJaccard(t *testing.T) {
	a, b := rank.Terms("Deploy the API"), rank.Terms("deploy, the api!")
	if got := rank.Jaccard(a, b); got != 1 {
		t.Fatalf("same words: %g", got)
	}
	if got := rank.Jaccard(rank.Terms("a b"), rank.Terms("c d")); got != 0 {
		t.Fatalf("disjoint: %g", got)
	}
	if got := rank.Jaccard(rank.Terms(""), rank.Terms("")); got != 0 {
		t.Fatalf("empty: %g", got)
	}
}

func TestNormalizeMinMax(t *testing.T) {
	got := rank.NormalizeMinMax(map[string]float64{"a": 0.62, "b": 0.5, "c": 0.56})
	want := map[string]float64{"a": 1, "b": 0, "c": 0.5}
	for id, w := range want {
		if math.Abs(got[id]-w) > 1e-9 {
			t.Errorf("%s: %g, want %g", id, got[id], w)
		}
	}
	if got := rank.NormalizeMinMax(map[string]float64{"a": 0.3, "b": 0.3}); got["a"] != 1 || got["b"] != 1 {
		t.Errorf("equal scores: %v, want all 1", got)
	}
	if got := rank.NormalizeMinMax(map[string]float64{"a": 0}); got["a"] != 0 {
		t.Errorf("a lone zero: %v, want 0", got)
	}
}

package rollup

import (
	"fmt"
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestOnePerEntry(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	mk := func(id string, start time.Time, d time.Duration) recall.RollupHit {
		return recall.RollupHit{Rollup: &recall.Rollup{ID: id, MemoryType: "note", BucketStart: start, BucketEnd: start.Add(d)}}
	}
	h4 := mk("4h", day.Add(8*time.Hour), 4*time.Hour)
	daily := mk("daily", day, 24*time.Hour)
	weekly := mk("weekly", day, 7*24*time.Hour)
	other := recall.RollupHit{Rollup: &recall.Rollup{ID: "other-type", MemoryType: "decision", BucketStart: day, BucketEnd: day.Add(4 * time.Hour)}}
	ids := func(hs []recall.RollupHit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Rollup.ID)
		}
		return out
	}
	all := []recall.RollupHit{h4, daily, weekly, other}
	window := func(from time.Time, d time.Duration) recall.TimeIntent {
		until := from.Add(d)
		return recall.TimeIntent{Since: &from, Until: &until}
	}
	for _, tt := range []struct {
		name string
		in   recall.TimeIntent
		want string
	}{
		{"no window: the coarsest of nested buckets", recall.TimeIntent{}, "[weekly other-type]"},
		{"a day: the daily bucket", window(day, 24*time.Hour), "[daily other-type]"},
		{"a morning: the 4h bucket", window(day.Add(9*time.Hour), time.Hour), "[4h other-type]"},
		{"a month: none covers it, the coarsest", window(day.AddDate(0, 0, -1), 31*24*time.Hour), "[weekly other-type]"},
	} {
		if got := ids(onePerEntry(all, tt.in)); fmt.Sprint(got) != tt.want {
			t.Errorf("%s: got %v, want %s", tt.name, got, tt.want)
		}
	}
}

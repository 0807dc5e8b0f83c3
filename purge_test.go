package recall_test

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestPurgeCriteria_Validate(t *testing.T) {
	days := 30
	cut := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name string
		c    recall.PurgeCriteria
		ok   bool
	}{
		{"Empty", recall.PurgeCriteria{}, false},
		{"Project", recall.PurgeCriteria{Project: "p"}, true},
		// Each of these would otherwise drop a filter and purge more.
		{"UnresolvedOlderThan", recall.PurgeCriteria{Type: "file_read", OlderThanDays: &days}, false},
		{"ResolvedOlderThan", recall.PurgeCriteria{Type: "file_read", OlderThanDays: &days, Cutoff: &cut}, true},
		{"MemoryIDOnObservations", recall.PurgeCriteria{MemoryID: "tr0123456789"}, false},
		{"SessionOnMemories", recall.PurgeCriteria{Session: "s", Memories: true}, false},
		{"ObservationIDOnMemories", recall.PurgeCriteria{ObservationID: 3, Memories: true}, false},
		{"BlankSearch", recall.PurgeCriteria{Search: " \t"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Validate()
			if tt.ok && err != nil {
				t.Fatal(err)
			}
			if !tt.ok && recall.ErrorCode(err) != recall.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
		})
	}
}

func TestPurgeCriteria_Until(t *testing.T) {
	early, late := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		before, cutoff, want *time.Time
	}{
		{nil, nil, nil},
		{&early, nil, &early},
		{nil, &late, &late},
		{&early, &late, &early},
		{&late, &early, &early},
	} {
		got := recall.PurgeCriteria{Before: tt.before, Cutoff: tt.cutoff}.Until()
		if (got == nil) != (tt.want == nil) || (got != nil && !got.Equal(*tt.want)) {
			t.Errorf("Until(before %v, cutoff %v) = %v, want %v", tt.before, tt.cutoff, got, tt.want)
		}
	}
}

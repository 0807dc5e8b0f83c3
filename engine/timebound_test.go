package engine

import (
	"testing"
	"time"

	"github.com/recall-mem/recall"
)

func TestParseBound(t *testing.T) {
	now := time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC) // a Wednesday
	for _, c := range []struct {
		flag, in string
		want     time.Time
	}{
		{"since", "2026-01-31", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)},
		{"since", "yesterday", time.Date(2026, 3, 17, 0, 0, 0, 0, time.UTC)},
		{"until", "yesterday", time.Date(2026, 3, 18, 0, 0, 0, 0, time.UTC)},
	} {
		got, err := ParseBound(c.flag, c.in, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseBound(%q, %q) = %v, %v; want %v", c.flag, c.in, got, err, c.want)
		}
	}
	if _, err := ParseBound("since", "not a time", now); recall.ErrorCode(err) != recall.EINVALID {
		t.Errorf("ParseBound(garbage) error = %v, want EINVALID", err)
	}
}

func TestApplySearchTimes(t *testing.T) {
	var q recall.SearchQuery
	if err := ApplySearchTimes(&q, "last week", "yesterday", "2026-03-18T15:00:00Z", "2026-03-01"); err != nil {
		t.Fatal(err)
	}
	if q.Now != time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC) || q.Filter.Since == nil || q.Filter.Until == nil || q.AsOf == nil {
		t.Fatalf("query times not set: %+v", q)
	}
	if !q.Filter.Since.Before(*q.Filter.Until) {
		t.Errorf("since %v not before until %v", q.Filter.Since, q.Filter.Until)
	}
	var bad recall.SearchQuery
	err := ApplySearchTimes(&bad, "2026-03-10", "2026-03-01", "", "")
	if recall.ErrorCode(err) != recall.EINVALID || recall.ErrorMessage(err) != "--since must be before --until" {
		t.Errorf("reversed window: error = %v", err)
	}
}

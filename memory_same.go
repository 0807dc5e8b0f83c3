package recall

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"time"
)

// SameMemory reports whether a and b hold the same memory: every field a
// writer sets is equal, compared as values (times by instant, whatever
// their precision; metadata as JSON, whatever its spacing or key order; an
// empty list like none). Version and UpdatedAt are the write's own
// bookkeeping and not compared. A store keeps the version of a write that
// changes nothing (MemoryService).
func SameMemory(a, b *Memory) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.Key == b.Key && a.Collection == b.Collection && a.Type == b.Type &&
		a.Title == b.Title && a.Content == b.Content && a.Category == b.Category && a.Context == b.Context &&
		a.Project == b.Project && a.Priority == b.Priority && a.CreatedBy == b.CreatedBy &&
		a.Confidence == b.Confidence && a.Tier == b.Tier && a.Pinned == b.Pinned && a.Status == b.Status &&
		slices.Equal(a.Tags, b.Tags) && slices.Equal(a.Related, b.Related) && slices.Equal(a.Anchors, b.Anchors) &&
		SameJSON(a.Metadata, b.Metadata) &&
		SameTime(a.CreatedAt, b.CreatedAt) && SameTime(a.OccurredAt, b.OccurredAt) &&
		sameTimePtr(a.ReviewedAt, b.ReviewedAt) && sameTimePtr(a.SnoozedUntil, b.SnoozedUntil)
}

// SameJSON reports whether two JSON texts hold the same value; empty and
// null are the same (no value).
func SameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if len(bytes.TrimSpace(a)) > 0 && json.Unmarshal(a, &va) != nil {
		return false
	}
	if len(bytes.TrimSpace(b)) > 0 && json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// SameTime reports whether two times are the same instant, to the
// millisecond stores keep: an export's ".652Z" and the memory's
// ".652711232Z" are one time.
func SameTime(a, b time.Time) bool {
	return a.Truncate(time.Millisecond).Equal(b.Truncate(time.Millisecond))
}

func sameTimePtr(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return SameTime(*a, *b)
}

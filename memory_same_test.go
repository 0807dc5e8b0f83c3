package recall

import (
	"encoding/json"
	"testing"
	"time"
)

func TestSameMemory(t *testing.T) {
	at := time.Date(2026, 1, 2, 10, 0, 0, 652711232, time.UTC)
	a := &Memory{ID: "tr0000000001", Content: "x", Tags: []string{}, Metadata: json.RawMessage(`{"a": 1, "b": 2}`), CreatedAt: at, OccurredAt: at, Version: 1, UpdatedAt: at}
	b := *a
	b.Tags, b.Metadata, b.Version, b.UpdatedAt = nil, json.RawMessage(`{"b":2,"a":1}`), 7, at.Add(time.Hour)
	b.CreatedAt = at.Truncate(time.Millisecond) // ".652Z" read back from a store
	if !SameMemory(a, &b) {
		t.Error("same values in other forms are not the same memory")
	}
	c := b
	c.Content = "y"
	if SameMemory(a, &c) {
		t.Error("other content is the same memory")
	}
	d := b
	d.OccurredAt = at.Add(time.Second)
	if SameMemory(a, &d) {
		t.Error("another occurred_at is the same memory")
	}
}

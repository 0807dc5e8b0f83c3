package recall

import (
	"context"
	"time"
)

// HistoryReader reads memory as it was at a past time, from the versions
// every change writes.
type HistoryReader interface {
	// MemoriesAsOf returns every memory as it stood at t: its latest
	// version changed at or before t, left out if that version records a
	// deletion or the memory did not exist yet.
	MemoriesAsOf(ctx context.Context, t time.Time) ([]*Memory, error)
}

// MemoryVersion is one stored state of a memory.
type MemoryVersion struct {
	MemoryID  string    `json:"memory_id"`
	Version   int       `json:"version"`
	Op        string    `json:"op"` // put, update, restore, delete, import, sync
	ChangedAt time.Time `json:"changed_at"`
	Memory    *Memory   `json:"memory"`
}

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

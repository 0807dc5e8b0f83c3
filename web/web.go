// Package web serves recall's browser UI: server-rendered pages, every
// asset embedded in the binary, mounted at / beside the REST API and MCP.
//
// The pages reach the store through Backend, a set of narrow interfaces
// declared here, so that the UI can move onto another application layer
// by filling the same fields from it.
package web

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// Memories is what the pages need from the memory store.
type Memories interface {
	FindMemory(ctx context.Context, ref, collection string) (*recall.Memory, error)
	FindMemories(ctx context.Context, filter recall.MemoryFilter) ([]*recall.Memory, int, error)
	UpdateMemory(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error)
	DeleteMemory(ctx context.Context, id string) error
	MemoryVersions(ctx context.Context, id string) ([]*recall.MemoryVersion, error)
	RestoreMemory(ctx context.Context, id string, n int) (*recall.Memory, error)
}

// Observations lists what sessions recorded.
type Observations interface {
	FindObservations(ctx context.Context, filter recall.ObservationFilter) ([]*recall.Observation, int, error)
}

// Sessions lists recent sessions.
type Sessions interface {
	FindSessions(ctx context.Context, limit int) ([]*recall.Session, error)
}

// Backend is everything the UI reads and changes. Memories is required; a
// nil field hides the pages and panels that need it.
type Backend struct {
	Memories     Memories
	Search       recall.Searcher
	Observations Observations
	Sessions     Sessions
	Maintainer   recall.Maintainer // the working set against its budget
	// Stats reads the store's counts; without it the overview counts
	// memories by tier. A func, so that a StatsReader's StoreStats and an
	// application layer's own method both fit.
	Stats func(ctx context.Context, now time.Time) (*recall.StoreStats, error)
	Now   func() time.Time // nil means time.Now
}

func (b Backend) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

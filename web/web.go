// Package web serves recall's browser UI: server-rendered pages, every
// asset embedded in the binary, mounted at / beside the REST API and MCP.
//
// The pages reach the store only through the application layer (package
// engine): Backend lists, as narrow interfaces declared here, the engine
// methods each page calls, so that the UI does what the CLI's command of
// the same name does (a pin moves a managed file's line, a purge rewrites
// the markdown views). cmd/recall fills every field with the one engine.
package web

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// Memories reads and changes memories and their history.
type Memories interface {
	Get(ctx context.Context, ref, collection string) (*recall.Memory, error)
	List(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error)
	Update(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error)
	Delete(ctx context.Context, id string) error
	Versions(ctx context.Context, ref string) ([]*recall.MemoryVersion, error)
	Restore(ctx context.Context, ref string, n int) (*recall.Memory, error)
}

// Timeline lists what sessions recorded.
type Timeline interface {
	Timeline(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error)
}

// Sessions lists recent sessions.
type Sessions interface {
	ListSessions(ctx context.Context, limit int) ([]*recall.Session, error)
}

// Entries carries out the single-memory maintenance actions: the store
// and the project's managed files change together, as `recall pin`,
// `recall demote` and the others do. rootFlag "" is the store's project;
// action is one of maintain's Act names, verb names it in errors, days is
// a snooze's length.
type Entries interface {
	EntryAction(ctx context.Context, rootFlag, ref, action, verb string, days int, now time.Time) (engine.Applied, error)
}

// Maintenance plans and applies `recall maintain` for the store's project.
type Maintenance interface {
	PlanMaintenance(ctx context.Context, rootFlag string, now time.Time) (*recall.MaintainPlan, error)
	ApplyMaintenance(ctx context.Context, rootFlag string, now time.Time, choices []maintain.Choice, recommended bool, snoozeDays int) (*engine.MaintainResult, error)
}

// Rollups reads the time-tier rollups.
type Rollups interface {
	Tiers(ctx context.Context) ([]recall.TierStat, error)
	Compression(ctx context.Context) ([]recall.TierStat, error)
	ListRollups(ctx context.Context, f recall.RollupFilter) ([]*recall.Rollup, error)
	ExplainRollup(ctx context.Context, id string) (*recall.Rollup, error)
}

// Forgetting is purge, the retention policy and its sweep.
type Forgetting interface {
	PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error)
	Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error)
	SweepAt(ctx context.Context, now time.Time, dryRun bool) (*recall.SweepReport, error)
	RetentionPolicy() recall.RetentionPolicy
}

// Health is what `recall doctor` checks.
type Health interface {
	Doctor(ctx context.Context, extra ...func() engine.Check) ([]engine.Check, error)
}

// Stats measures the store.
type Stats interface {
	Stats(ctx context.Context, now time.Time) (*recall.StoreStats, error)
}

// Backend is everything the UI reads and changes. Memories is required; a
// nil field hides the pages, panels and actions that need it.
type Backend struct {
	Memories    Memories
	Search      recall.Searcher
	Timeline    Timeline
	Sessions    Sessions
	Entries     Entries
	Maintenance Maintenance
	Rollups     Rollups
	Forgetting  Forgetting
	Health      Health
	// Stats reads the store's counts; without it the overview counts
	// memories by tier.
	Stats Stats
	Now   func() time.Time // nil means time.Now
}

// Engine is the application layer that fills every field of a Backend.
type Engine interface {
	Memories
	recall.Searcher
	Timeline
	Sessions
	Entries
	Maintenance
	Rollups
	Forgetting
	Health
	Stats
}

var _ Engine = (*engine.Engine)(nil)

// BackendOf fills every field of a Backend from the engine e.
func BackendOf(e Engine) Backend {
	return Backend{Memories: e, Search: e, Timeline: e, Sessions: e, Entries: e, Maintenance: e,
		Rollups: e, Forgetting: e, Health: e, Stats: e}
}

func (b Backend) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

package recall

import (
	"context"
	"time"
)

// RetentionPolicy says which observations a sweep removes (seed 003,
// position C).
type RetentionPolicy struct {
	// Enabled turns type-aware retention on; off, only compacted
	// observations are swept.
	Enabled bool `json:"enabled"`
	// Days per observation type; a type absent or at 0 is never swept.
	Days map[string]int `json:"days"`
	// CompactedDays keeps observations already rolled up (status
	// compacted) this many days; 0 keeps them forever.
	CompactedDays int `json:"compacted_days"`
}

// SweepReport says what a sweep removed.
type SweepReport struct {
	At        time.Time      `json:"at"`
	DryRun    bool           `json:"dry_run,omitempty"`
	Enabled   bool           `json:"enabled"`
	Deleted   int            `json:"deleted"`   // all observations removed
	ByType    map[string]int `json:"by_type"`   // type retention, per type
	Compacted int            `json:"compacted"` // rolled-up observations past raw retention
	Sessions  int            `json:"sessions"`  // empty sessions removed
	Upkeep    *Upkeep        `json:"upkeep,omitempty"`
}

// Sweeper applies a retention policy. Pinned (landmark) observations and
// the sources of rollups or syntheses are never swept.
type Sweeper interface {
	// Sweep deletes the observations the policy expires at now, and the
	// sessions it leaves without observations. Rolled-up (compacted)
	// observations go only by CompactedDays, whether or not Enabled. With
	// dryRun it returns the counts the real sweep would and changes
	// nothing, its own record included (StoreStats.LastSweep).
	Sweep(ctx context.Context, p RetentionPolicy, now time.Time, dryRun bool) (*SweepReport, error)
}

package recall

import (
	"context"
	"time"
)

// Bucket types of time-tier rollups (seed 004), finest first. Each tier is
// rolled up from the one before it; 4h buckets from raw entries.
const (
	Bucket4h      = "4h"
	BucketDaily   = "daily"
	BucketWeekly  = "weekly"
	BucketMonthly = "monthly"
)

// BucketTypes lists the bucket types in rollup order.
var BucketTypes = []string{Bucket4h, BucketDaily, BucketWeekly, BucketMonthly}

// ValidBucketType returns EINVALID unless typ is one of BucketTypes.
func ValidBucketType(typ string) error {
	for _, t := range BucketTypes {
		if t == typ {
			return nil
		}
	}
	return Errorf(EINVALID, "Unknown bucket type %q: use 4h, daily, weekly or monthly.", typ)
}

// Rollup statuses. A rollup contradicted by a newer one is superseded: it
// stays for history and explain, but search leaves it out.
const (
	RollupActive     = "active"
	RollupSuperseded = "superseded"
)

// Source kinds a rollup links to.
const (
	SourceMemory      = "memory"
	SourceObservation = "observation"
	SourceRollup      = "rollup"
)

// Rollup summarises one closed time bucket for one memory type and key:
// what the entries said, the latest value when they are about one thing,
// and how sure that is.
type Rollup struct {
	ID          string    `json:"id"` // a name-based UUID of bucket type, start, memory type and key
	BucketType  string    `json:"bucket_type"`
	BucketStart time.Time `json:"bucket_start"`
	BucketEnd   time.Time `json:"bucket_end"`
	MemoryType  string    `json:"memory_type"`
	Key         string    `json:"key,omitempty"` // what the entries are about; "" groups a type's unkeyed entries
	Summary     string    `json:"summary"`
	// Value is the normalised latest value of a keyed group; two rollups of
	// one key contradict each other when their values differ.
	Value       string        `json:"value,omitempty"`
	Values      []RollupValue `json:"values,omitempty"` // the tally: distinct values, latest first then by count
	Confidence  float64       `json:"confidence"`
	SourceCount int           `json:"source_count"` // direct sources: raw entries or finer rollups
	Entries     int           `json:"entries"`      // raw entries represented, through every tier
	LatestAt    time.Time     `json:"latest_at"`    // time of the newest raw entry represented
	Status      string        `json:"status"`
	RolledAt    *time.Time    `json:"rolled_at,omitempty"` // when the next tier took it in
	CreatedAt   time.Time     `json:"created_at"`
	UpdatedAt   time.Time     `json:"updated_at"`

	// Sources are the direct sources: those a run adds, or all of them
	// when read by FindRollup.
	Sources []RollupSource `json:"sources,omitempty"`
}

// RollupValue is one distinct value in a rollup's tally.
type RollupValue struct {
	Text       string    `json:"text"`
	Count      int       `json:"count"`
	Last       time.Time `json:"last"`
	Confidence float64   `json:"confidence"` // mean confidence of the entries that said it
}

// RollupSource is one entry a rollup was built from.
type RollupSource struct {
	Kind       string    `json:"kind"` // memory, observation or rollup
	ID         string    `json:"id"`
	At         time.Time `json:"at"`
	Type       string    `json:"type,omitempty"`
	Key        string    `json:"key,omitempty"`
	Text       string    `json:"text,omitempty"`
	Confidence float64   `json:"confidence,omitempty"`
	Rollup     *Rollup   `json:"-"`                 // the finer rollup, when Kind is rollup
	Missing    bool      `json:"missing,omitempty"` // swept since: only the link is left
}

// RollupBucket is one time bucket.
type RollupBucket struct {
	Type  string
	Start time.Time
	End   time.Time
	// Ready is when the bucket may be rolled up: its end, or for a monthly
	// bucket the end of the last week that starts in it.
	Ready time.Time
}

// RollupPolicy is the pure part of the rollup job: bucket math and
// summarising, with no storage and no clock.
type RollupPolicy interface {
	// Bucket returns the bucket of type typ that holds t.
	Bucket(typ string, t time.Time) RollupBucket
	// Summarize groups the sources of bucket b by type and key and returns
	// one rollup per group with sources, merged into the existing rollups
	// of b given (those a late entry joins).
	Summarize(b RollupBucket, existing []*Rollup, sources []RollupSource) []*Rollup
}

// RollupRun asks for one run of the rollup job.
type RollupRun struct {
	Now    time.Time // buckets that end after Now stay open
	DryRun bool      // compute everything, write nothing
	// OnBucket, when set, is told after each bucket is written (progress).
	OnBucket func(b RollupBucket, written int)
	// Keep prunes, per bucket type, rollups already taken into the next
	// tier whose bucket ended longer ago than this (Time Machine style:
	// fine tiers for recent history only). Absent or 0 keeps them all.
	Keep map[string]time.Duration
}

// RollupReport says what a run did (or would do, for a dry run).
type RollupReport struct {
	DryRun    bool           `json:"dry_run"`
	Buckets   map[string]int `json:"buckets"`    // buckets processed per bucket type
	Rollups   map[string]int `json:"rollups"`    // rollups written per bucket type
	Compacted int            `json:"compacted"`  // raw entries marked compacted
	Conflicts int            `json:"superseded"` // older rollups a newer one contradicted
	Pruned    int            `json:"pruned"`     // fine rollups removed by RollupRun.Keep
	Done      bool           `json:"done"`       // false when a budget or cancellation stopped it early
	// Written lists the rollups of a dry run (a real run only counts them,
	// to stay bounded in memory over a year of history).
	Written []*Rollup `json:"written,omitempty"`
}

// RollupFilter selects rollups. Zero fields do not filter.
type RollupFilter struct {
	BucketTypes  []string
	MemoryType   *string
	Key          *string
	Status       *string    // nil means active only; "*" means any
	Since        *time.Time // buckets ending after Since
	Until        *time.Time // buckets starting before Until
	UpdatedSince *time.Time // rollups written at or after this time
	Search       string     // full-text query over summaries
	// PerKey keeps one rollup per keyed group: the newest, then the most
	// confident (SearchRollups).
	PerKey bool
	Limit  int
}

// RollupHit is a rollup matching a full-text query with its BM25 score
// (higher is better).
type RollupHit struct {
	Rollup *Rollup
	Score  float64
}

// RollupService runs and reads time-tier rollups.
type RollupService interface {
	// RunRollups rolls every closed bucket not yet rolled up, each bucket in
	// its own transaction so that a stopped run resumes where it stopped.
	// A cancelled or expired ctx ends the run early with Done false and no
	// error.
	RunRollups(ctx context.Context, run RollupRun) (*RollupReport, error)

	// FindRollup returns a rollup with all its sources. Returns ENOTFOUND
	// if there is none with that id.
	FindRollup(ctx context.Context, id string) (*Rollup, error)

	// FindRollups returns the rollups matching filter, best full-text match
	// first when Search is set, else newest bucket first. Returns EINVALID
	// for an unknown bucket type.
	FindRollups(ctx context.Context, filter RollupFilter) ([]*Rollup, error)

	// TierStats counts raw entries and rollups per tier and status.
	TierStats(ctx context.Context) ([]TierStat, error)

	// CompressionStats is what shows how much rollups compress: the rows
	// of TierStats for compacted raw entries (memories, observations) and
	// for rollups, with Count, Tokens and Entries exactly as TierStats
	// gives them; From, To and Bytes are left zero. It reads indexes that
	// hold only those rows, never the other raw entries.
	CompressionStats(ctx context.Context) ([]TierStat, error)
}

// RollupSummarizer rewrites a rollup's summary in better words (a chat
// model). Returns EUNAVAILABLE when it cannot be reached; callers keep the
// deterministic summary then.
type RollupSummarizer interface {
	SummarizeRollup(ctx context.Context, r *Rollup) (string, error)
}

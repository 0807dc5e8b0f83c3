package recall

import (
	"context"
	"time"
)

// StoreStats describes a store's size and growth, so a person can see when
// retention is worth enabling (seed 003, "When to Reconsider").
type StoreStats struct {
	At                 time.Time      `json:"at"`
	Observations       int            `json:"observations"`
	ObservationsByType map[string]int `json:"observations_by_type"`
	Memories           int            `json:"memories"`
	MemoriesByTier     map[string]int `json:"memories_by_tier"`
	Versions           int            `json:"versions"`
	Sessions           int            `json:"sessions"`
	// Rollups counts the time-tier rollups of every status, by bucket type
	// in RollupsByType (nil when there are none).
	Rollups       int            `json:"rollups"`
	RollupsByType map[string]int `json:"rollups_by_type,omitempty"`

	DBBytes   int64 `json:"db_bytes"`
	WALBytes  int64 `json:"wal_bytes"`
	PageSize  int64 `json:"page_size"`
	FreePages int64 `json:"free_pages"`
	FreeBytes int64 `json:"free_bytes"`

	// Rows added in the last 30 days (observations, memories and versions)
	// and their estimated share of the file.
	GrowthRows  int   `json:"growth_rows_30d"`
	GrowthBytes int64 `json:"growth_bytes_30d"`
	// ProjectedBytes is the size in a year if growth continues at that rate.
	ProjectedBytes int64 `json:"projected_bytes_1y"`

	LastSweep *time.Time `json:"last_sweep,omitempty"`
	LastPurge *time.Time `json:"last_purge,omitempty"`

	Advice string `json:"advice"`
}

// StoreBytes is the store's size on disk: the database and its WAL.
func (s *StoreStats) StoreBytes() int64 { return s.DBBytes + s.WALBytes }

// StatsReader measures a store.
type StatsReader interface {
	// StoreStats counts rows and measures files at now: memories of every
	// status by tier, every version, observations by type, rollups of
	// every status by bucket type, sessions, and the last real sweep and
	// purge. It reads indexes, not every row: the web UI's overview calls
	// it on every view. Growth, projection and advice are
	// left for the retention policy to fill.
	StoreStats(ctx context.Context, now time.Time) (*StoreStats, error)
}

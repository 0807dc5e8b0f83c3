package engine

import (
	"context"
	"io"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/maintain"
)

// UseCases are the engine's use cases that both servers (MCP and REST)
// offer, one tool or route each. Each server's own interface embeds it and
// adds what only it calls, so a test can stand in for one use case by
// embedding a real engine. The servers run long and call these
// concurrently: an implementation must be safe for that.
type UseCases interface {
	Put(ctx context.Context, m *recall.Memory) (*recall.PutResult, error)
	Get(ctx context.Context, ref, collection string) (*recall.Memory, error)
	Update(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error)
	Delete(ctx context.Context, id string) error
	List(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error)
	Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error)
	Context(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error)
	Import(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error)
	Export(ctx context.Context, f recall.MemoryFilter, w io.Writer) error
	Versions(ctx context.Context, ref string) ([]*recall.MemoryVersion, error)
	Diff(ctx context.Context, ref string, from, to int) ([]byte, error)
	Restore(ctx context.Context, ref string, n int) (*recall.Memory, error)
	Observe(ctx context.Context, obs []*recall.Observation) error
	StartSession(ctx context.Context, s *recall.Session) (*recall.SessionStartReport, error)
	EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error)
	ListSessions(ctx context.Context, limit int) ([]*recall.Session, error)
	PlanSyncProject(ctx context.Context, rootFlag string, now time.Time) (*SyncReport, error)
	SyncProject(ctx context.Context, rootFlag string, now time.Time) (*SyncReport, error)
	PlanMaintenance(ctx context.Context, rootFlag string, now time.Time) (*recall.MaintainPlan, error)
	ApplyMaintenance(ctx context.Context, rootFlag string, now time.Time, choices []maintain.Choice, recommended bool, snoozeDays int) (*MaintainResult, error)
	Pin(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	Unpin(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	Snooze(ctx context.Context, rootFlag, ref string, days int, now time.Time) (Applied, error)
	Demote(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	Archive(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	Supersede(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	Review(ctx context.Context, rootFlag, ref string, now time.Time) (Applied, error)
	RunRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error)
	Tiers(ctx context.Context) ([]recall.TierStat, error)
	PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error)
	Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error)
	SweepAt(ctx context.Context, now time.Time, dryRun bool) (*recall.SweepReport, error)
	Stats(ctx context.Context, now time.Time) (*recall.StoreStats, error)
	ReindexStatus(ctx context.Context) (*recall.VectorStats, error)
	Doctor(ctx context.Context, extra ...func() Check) ([]Check, error)
	BackupInStore(ctx context.Context, now time.Time) (string, recall.BackupCounts, error)
}

var _ UseCases = (*Engine)(nil)

package httpapi

import (
	"context"
	"io"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/engine"
	"github.com/recall-mem/recall/maintain"
)

// Engine is what the server calls: the use cases of *engine.Engine that
// REST offers, one route each, and nothing else. It is an interface, not
// the concrete engine, so that a test can stand in for one use case (a
// slow write, a panic) and keep the real engine for the rest; the program
// passes its *engine.Engine. Implementations must be safe for concurrent
// requests.
type Engine interface {
	Now() time.Time

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
	FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error)

	StartSession(ctx context.Context, s *recall.Session) (*recall.SessionStartReport, error)
	EndSession(ctx context.Context, end recall.SessionEnd) (*recall.Session, error)
	ListSessions(ctx context.Context, limit int) ([]*recall.Session, error)

	PlanSyncProject(ctx context.Context, rootFlag string, now time.Time) (*engine.SyncReport, error)
	SyncProject(ctx context.Context, rootFlag string, now time.Time) (*engine.SyncReport, error)
	PlanMaintenance(ctx context.Context, rootFlag string, now time.Time) (*recall.MaintainPlan, error)
	ApplyMaintenance(ctx context.Context, rootFlag string, now time.Time, choices []maintain.Choice, recommended bool, snoozeDays int) (*engine.MaintainResult, error)
	Pin(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)
	Unpin(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)
	Snooze(ctx context.Context, rootFlag, ref string, days int, now time.Time) (engine.Applied, error)
	Demote(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)
	Archive(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)
	Supersede(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)
	Review(ctx context.Context, rootFlag, ref string, now time.Time) (engine.Applied, error)

	RunRollups(ctx context.Context, run recall.RollupRun) (*recall.RollupReport, error)
	Tiers(ctx context.Context) ([]recall.TierStat, error)

	PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error)
	Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error)
	SweepAt(ctx context.Context, now time.Time, dryRun bool) (*recall.SweepReport, error)
	Stats(ctx context.Context, now time.Time) (*recall.StoreStats, error)
	ReindexStatus(ctx context.Context) (*recall.VectorStats, error)
	Doctor(ctx context.Context, extra ...func() engine.Check) ([]engine.Check, error)
	BackupInStore(ctx context.Context, now time.Time) (string, recall.BackupCounts, error)
}

var _ Engine = (*engine.Engine)(nil)

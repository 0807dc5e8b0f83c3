package engine

import (
	"context"
	"io"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/forget"
)

// The use cases of an open store, one method each, so that every
// interface (CLI, MCP, REST, hooks) reaches the same behaviour through the
// same call. Open or OpenForWrite first.

// Put inserts a memory, or writes a new version of the one with its key.
func (e *Engine) Put(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	return e.mem.PutMemory(ctx, m)
}

// Get returns the memory whose id, or key in collection, is ref.
func (e *Engine) Get(ctx context.Context, ref, collection string) (*recall.Memory, error) {
	return e.mem.FindMemory(ctx, ref, collection)
}

// Update changes a memory, writing a new version.
func (e *Engine) Update(ctx context.Context, id string, upd recall.MemoryUpdate) (*recall.Memory, error) {
	return e.mem.UpdateMemory(ctx, id, upd)
}

// Delete removes a memory; its versions stay until purged.
func (e *Engine) Delete(ctx context.Context, id string) error { return e.mem.DeleteMemory(ctx, id) }

// List returns the memories matching f and their total count.
func (e *Engine) List(ctx context.Context, f recall.MemoryFilter) ([]*recall.Memory, int, error) {
	if err := f.Validate(); err != nil {
		return nil, 0, err
	}
	return e.mem.FindMemories(ctx, f)
}

// Search ranks memories (and rollups) for q.
func (e *Engine) Search(ctx context.Context, q recall.SearchQuery) ([]*recall.SearchHit, error) {
	return e.search.Search(ctx, q)
}

// Context packs what an agent should see for req within its budget.
func (e *Engine) Context(ctx context.Context, req recall.ContextRequest) (*recall.ContextPack, error) {
	return e.ContextBuilder().BuildContext(ctx, req)
}

// Versions lists every stored version of a memory, oldest first.
func (e *Engine) Versions(ctx context.Context, ref string) ([]*recall.MemoryVersion, error) {
	return e.mem.MemoryVersions(ctx, ref)
}

// Version returns version n of a memory as it was then.
func (e *Engine) Version(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	if n < 1 {
		return nil, recall.Errorf(recall.EINVALID, "Invalid version %d: versions count from 1 (the first write of the memory).", n)
	}
	return e.mem.MemoryVersion(ctx, ref, n)
}

// Restore writes version n of a memory back as a new version.
func (e *Engine) Restore(ctx context.Context, ref string, n int) (*recall.Memory, error) {
	return e.mem.RestoreMemory(ctx, ref, n)
}

// AsOf returns every memory as it stood at t.
func (e *Engine) AsOf(ctx context.Context, t time.Time) ([]*recall.Memory, error) {
	return e.mem.MemoriesAsOf(ctx, t)
}

// Import writes memories in one transaction, keeping their ids.
func (e *Engine) Import(ctx context.Context, ms []*recall.Memory) (*recall.ImportResult, error) {
	return e.mem.ImportMemories(ctx, ms)
}

// ImportLines writes the memories of the JSON Lines read from r in one
// transaction, keeping their ids, all or nothing. A store that imports a
// stream holds only a batch in memory, whatever the size of r; another
// gets every memory decoded first.
func (e *Engine) ImportLines(ctx context.Context, r io.Reader) (*recall.ImportResult, error) {
	if s, ok := e.mem.(recall.MemoryStreamImporter); ok {
		return s.ImportMemoryStream(ctx, MemoryLines(r))
	}
	var ms []*recall.Memory
	for m, err := range MemoryLines(r) {
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return e.mem.ImportMemories(ctx, ms)
}

// Observe records observations in one transaction.
func (e *Engine) Observe(ctx context.Context, obs []*recall.Observation) error {
	return e.obs.RecordObservations(ctx, obs)
}

// FindObservations returns the observations matching f and their total
// count: a filter, so a session with nothing in it is an empty list.
func (e *Engine) FindObservations(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error) {
	return e.obs.FindObservations(ctx, f)
}

// Timeline returns the observations matching f and their total count;
// a session id that names nothing at all is ENOTFOUND, so a mistyped id
// is not read as a quiet session.
func (e *Engine) Timeline(ctx context.Context, f recall.ObservationFilter) ([]*recall.Observation, int, error) {
	obs, total, err := e.obs.FindObservations(ctx, f)
	if err != nil || total > 0 || f.Session == nil || *f.Session == "" {
		return obs, total, err
	}
	// Nothing in a session: say whether the session exists at all, so a
	// mistyped id is not read as a quiet session.
	known, err := e.knownSession(ctx, *f.Session)
	if err != nil {
		return nil, 0, err
	}
	if !known {
		return nil, 0, recall.Errorf(recall.ENOTFOUND, "No session %q: no session or observation has that id; list the sessions to see theirs.", *f.Session)
	}
	return obs, total, nil
}

// knownSession reports whether a session with this id was recorded, or
// any observation names it.
func (e *Engine) knownSession(ctx context.Context, id string) (bool, error) {
	ss, err := e.SessionStore().FindSessions(ctx, 0)
	if err != nil {
		return false, err
	}
	for _, s := range ss {
		if s.ID == id {
			return true, nil
		}
	}
	_, n, err := e.obs.FindObservations(ctx, recall.ObservationFilter{Session: &id, Limit: 1})
	return n > 0, err
}

// PinObservation marks or clears a landmark observation, which retention
// sweeps keep.
func (e *Engine) PinObservation(ctx context.Context, id int64, pinned bool) error {
	return e.obs.PinObservation(ctx, id, pinned)
}

// PlanPurge counts what Purge would remove, with up to sample matches.
func (e *Engine) PlanPurge(ctx context.Context, c recall.PurgeCriteria, sample int) (*recall.PurgeReport, error) {
	return e.forgetter().PlanPurge(ctx, c, sample)
}

// Purge deletes the matches completely, then brings the markdown views in
// line with the store. The report is returned even when the views could
// not be rewritten (the error says so).
func (e *Engine) Purge(ctx context.Context, c recall.PurgeCriteria) (*recall.PurgeReport, error) {
	rep, err := e.forgetter().Purge(ctx, c)
	if err != nil {
		return nil, err
	}
	return rep, e.scrubViews(ctx, c, rep)
}

// SweepAt applies the retention policy at now; with dryRun it only counts.
func (e *Engine) SweepAt(ctx context.Context, now time.Time, dryRun bool) (*recall.SweepReport, error) {
	return e.forgetter().Sweep(ctx, e.RetentionPolicy(), now, dryRun)
}

// Stats counts the store's rows and measures its files at now, with the
// growth, projection and advice of the retention policy.
func (e *Engine) Stats(ctx context.Context, now time.Time) (*recall.StoreStats, error) {
	st, err := e.forgetter().StoreStats(ctx, now)
	if err != nil {
		return nil, err
	}
	forget.Assess(st, e.RetentionPolicy())
	return st, nil
}

// Tiers counts raw entries and rollups per tier.
func (e *Engine) Tiers(ctx context.Context) ([]recall.TierStat, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	return svc.TierStats(ctx)
}

// Compression counts the compacted raw entries and the rollups with their
// tokens: how much rollups compress, without the cost of Tiers.
func (e *Engine) Compression(ctx context.Context) ([]recall.TierStat, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	return svc.CompressionStats(ctx)
}

// LatestRollups returns the n rollups of the newest buckets, active ones
// only, without their sources: what `tiers` lists with their ids.
func (e *Engine) LatestRollups(ctx context.Context, n int) ([]*recall.Rollup, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	return svc.FindRollups(ctx, recall.RollupFilter{Limit: n})
}

// Lookup finds what ref names: the memory whose id, or key in collection,
// it is, else the rollup with that id (rollup ids are UUIDs, as search
// and tiers print them). The memory's not-found error stands when neither
// exists.
func (e *Engine) Lookup(ctx context.Context, ref, collection string) (*recall.Memory, *recall.Rollup, error) {
	m, err := e.Get(ctx, ref, collection)
	if err == nil || recall.ErrorCode(err) != recall.ENOTFOUND || !recall.IsRollupID(ref) {
		return m, nil, err
	}
	r, rerr := e.ExplainRollup(ctx, ref)
	if rerr != nil {
		if recall.ErrorCode(rerr) == recall.ENOTFOUND {
			return nil, nil, recall.Errorf(recall.ENOTFOUND, "No memory or rollup with id %s: 'recall tiers' lists the latest rollups, 'recall search' finds others.", ref)
		}
		return nil, nil, rerr
	}
	return nil, r, nil
}

// ExplainRollup returns a rollup with all its sources.
func (e *Engine) ExplainRollup(ctx context.Context, id string) (*recall.Rollup, error) {
	svc, err := e.Rollups()
	if err != nil {
		return nil, err
	}
	return svc.FindRollup(ctx, id)
}

// Reindex embeds the memories whose vectors are missing or stale.
func (e *Engine) Reindex(ctx context.Context, o recall.ReindexOptions) (*recall.ReindexResult, error) {
	if e.vec == nil {
		return nil, noVectors()
	}
	return e.vec.Reindex(ctx, o)
}

// ReindexStatus reports the embedding coverage and the queue.
func (e *Engine) ReindexStatus(ctx context.Context) (*recall.VectorStats, error) {
	if e.vec == nil {
		return nil, noVectors()
	}
	return e.vec.VectorStats(ctx)
}

func noVectors() error {
	return recall.Errorf(recall.EUNAVAILABLE, "The store was opened without an embedder.")
}

// Backup writes a consistent copy of the store to path.
func (e *Engine) Backup(ctx context.Context, path string) (recall.BackupCounts, error) {
	return e.Store.Upkeep().Backup(ctx, path)
}

// RestoreBackup replaces the store's contents with the backup at path.
func (e *Engine) RestoreBackup(ctx context.Context, path string, force bool) (recall.BackupCounts, error) {
	return e.Store.Upkeep().Restore(ctx, path, force)
}

// Check runs the store's full integrity check.
func (e *Engine) Check(ctx context.Context) error { return e.Store.Upkeep().Check(ctx) }

// StartBackground starts the loops a long-running server owns (today the
// embedding queue of the built-in encoder or a remote provider; an inline
// embedder has no queue and its loop returns at once) and returns the
// function that stops them and waits for them to finish.
func (e *Engine) StartBackground(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if e.vec != nil {
			e.vec.RunQueue(ctx)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// StartSession records a session, runs the heartbeat (sweep, rollups,
// checks) and returns the bootstrap context.
func (e *Engine) StartSession(ctx context.Context, s *recall.Session) (*recall.SessionStartReport, error) {
	return e.Sessions().StartSession(ctx, s)
}

// ListSessions returns sessions, newest first; limit 0 means all.
func (e *Engine) ListSessions(ctx context.Context, limit int) ([]*recall.Session, error) {
	return e.SessionStore().FindSessions(ctx, limit)
}

// SyncProject reconciles the managed files of the project at rootFlag
// (see ProjectRoot) and the store, under the project lock.
func (e *Engine) SyncProject(ctx context.Context, rootFlag string, now time.Time) (*SyncReport, error) {
	ws, err := e.OpenWorkspace(ctx, rootFlag)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	return e.Sync(ctx, ws, now)
}

package sqlite

import (
	"context"
	"time"

	"github.com/recall-mem/recall"
)

// Store is a SQLite database seen through the store seam: the one value
// the engine holds, handing out the services below.
type Store struct {
	DB  *DB
	mem *MemoryService
	obs *ObservationService
	vec *VectorService // nil without embedding
}

var (
	_ recall.Store            = (*Store)(nil)
	_ recall.MemoryStore      = (*MemoryService)(nil)
	_ recall.ObservationStore = (*ObservationService)(nil)
	_ recall.SessionStore     = (*SessionService)(nil)
	_ recall.RollupStore      = (*RollupService)(nil)
	_ recall.TierStore        = (*TierService)(nil)
	_ recall.ForgetStore      = (*ForgetService)(nil)
	_ recall.VectorStore      = vectorStore{}
	_ recall.StoreUpkeep      = upkeep{}
)

// Backend is SQLite as the program picks its storage: the value handed
// to the engine.
type Backend struct{}

var _ recall.Backend = Backend{}

// OpenStore opens (creating if needed) the database at path.
func (Backend) OpenStore(path string, o recall.StoreOptions) (recall.Store, error) {
	return OpenStore(path, o)
}

// CheckFiles inspects the database files without opening them.
func (Backend) CheckFiles(path string) []recall.FileProblem { return CheckFiles(path) }

// IsCorrupt reports whether err says the database is damaged.
func (Backend) IsCorrupt(err error) bool { return IsCorrupt(err) }

// PurgeMatcher matches texts as a purge's search does.
func (Backend) PurgeMatcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	return PurgeMatcher(c)
}

// OpenStore opens (creating if needed) the database at path with o.
func OpenStore(path string, o recall.StoreOptions) (*Store, error) {
	db := NewDB(path)
	db.MaxContentBytes = o.MaxContentBytes
	db.Redactor = o.Redactor
	db.ForWrite = o.ForWrite
	// A gated writer (the upkeep) sets pragmas on its writer around its
	// transactions, which a second connection in the pool would miss.
	db.ReadsOnWriter = o.ReadsOnWriter && o.BeforeWrite == nil
	db.BeforeWrite = o.BeforeWrite
	if err := db.Open(); err != nil {
		return nil, err
	}
	s := &Store{DB: db, mem: NewMemoryService(db), obs: NewObservationService(db)}
	if e := o.Embedding; e != nil {
		vs := NewVectorService(db, e.Embedder, e.Chunker)
		vs.Inline, vs.Interval, vs.OnError = e.Inline, e.Interval, e.OnError
		if e.BatchSize > 0 {
			vs.BatchSize = e.BatchSize
		}
		s.vec = vs
	}
	return s, nil
}

// Memories returns the memory service.
func (s *Store) Memories() recall.MemoryStore { return s.mem }

// Observations returns the observation service.
func (s *Store) Observations() recall.ObservationStore { return s.obs }

// Sessions returns a session service with o's bookkeeping.
func (s *Store) Sessions(o recall.SessionOptions) recall.SessionStore {
	ss := NewSessionService(s.DB)
	ss.HotSessions, ss.StaleAfter = o.HotSessions, o.StaleAfter
	return ss
}

// Rollups returns a rollup service under policy p.
func (s *Store) Rollups(p recall.RollupPolicy) recall.RollupStore { return NewRollupService(s.DB, p) }

// Vectors returns the vector service, nil when the store has none.
func (s *Store) Vectors() recall.VectorStore {
	if s.vec == nil {
		return nil
	}
	return vectorStore{s.vec}
}

// VectorService returns the vector service itself, for benchmarks that
// tune it; nil when the store has none.
func (s *Store) VectorService() *VectorService { return s.vec }

// Tiers returns the tier bookkeeping.
func (s *Store) Tiers() recall.TierStore { return NewTierService(s.DB) }

// Forgetting returns purge, sweep and statistics.
func (s *Store) Forgetting() recall.ForgetStore { return NewForgetService(s.DB) }

// Upkeep returns the database itself: checks, backups, clock.
func (s *Store) Upkeep() recall.StoreUpkeep { return upkeep{s.DB} }

// Copier returns the rows as stored, for recall migrate.
func (s *Store) Copier() recall.StoreCopier { return Copier{s.DB} }

// Close closes the database.
func (s *Store) Close() error { return s.DB.Close() }

// EmbedderModel names the configured embedder's model, "" for none.
func (s *VectorService) EmbedderModel() string {
	if s.Embedder == nil {
		return ""
	}
	return s.Embedder.Model()
}

// vectorStore gives VectorService the seam's names, which say what its
// shorter ones do when seen next to the other parts of a store.
type vectorStore struct{ *VectorService }

func (v vectorStore) VectorStats(ctx context.Context) (*recall.VectorStats, error) {
	return v.Stats(ctx)
}

func (v vectorStore) RunQueue(ctx context.Context) { v.Run(ctx) }

func (v vectorStore) EmbedsInline() bool { return v.Inline }

func (v vectorStore) DrainQueue(ctx context.Context, budget time.Duration) error {
	return v.VectorService.DrainQueue(ctx, budget)
}

// upkeep gives DB the seam's Clock.
type upkeep struct{ *DB }

func (u upkeep) Clock() time.Time { return u.now() }

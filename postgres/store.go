package postgres

import (
	"context"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/ftsquery"
)

// Store is one namespace of a PostgreSQL database seen through the store
// seam: the value the engine holds, handing out the services below.
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
	_ recall.VectorStore      = (*VectorService)(nil)
	_ recall.StoreUpkeep      = Upkeep{}
	_ recall.StoreCopier      = Copier{}
)

// Backend is PostgreSQL as the program picks its storage: the value
// handed to the engine when the store is a postgres:// URL.
type Backend struct{}

var _ recall.Backend = Backend{}

// OpenStore opens the store at a postgres:// URL (the "path" of the
// seam), creating its schema if needed.
func (Backend) OpenStore(url string, o recall.StoreOptions) (recall.Store, error) {
	return OpenStore(context.Background(), url, o)
}

// CheckFiles finds nothing: the server keeps the files, and checks them
// itself (WAL replay, page checksums).
func (Backend) CheckFiles(string) []recall.FileProblem { return nil }

// IsCorrupt is false: a damaged PostgreSQL database is the server's to
// report and repair, not something recall can set aside and recreate.
func (Backend) IsCorrupt(error) bool { return false }

// PurgeMatcher matches texts as a purge's search does.
func (Backend) PurgeMatcher(c recall.PurgeCriteria) (func(text string) bool, error) {
	return ftsquery.Matcher(c)
}

// OpenStore connects to the database at url with o.
func OpenStore(ctx context.Context, url string, o recall.StoreOptions) (*Store, error) {
	db, err := Open(ctx, url)
	if err != nil {
		return nil, err
	}
	db.MaxContentBytes, db.Redactor = o.MaxContentBytes, o.Redactor
	s := &Store{DB: db, mem: NewMemoryService(db), obs: NewObservationService(db)}
	if e := o.Embedding; e != nil {
		vs := NewVectorService(db, e.Embedder, e.Chunker)
		vs.Inline, vs.Interval, vs.OnError, vs.BatchSize = e.Inline, e.Interval, e.OnError, e.BatchSize
		s.vec = vs
		db.onWrite, db.onWriteMemories = vs.wrote, vs.wroteMemories
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
	return s.vec
}

// VectorService returns the vector service itself, nil without one.
func (s *Store) VectorService() *VectorService { return s.vec }

// Tiers returns the tier bookkeeping.
func (s *Store) Tiers() recall.TierStore { return NewTierService(s.DB) }

// Forgetting returns purge, sweep and statistics.
func (s *Store) Forgetting() recall.ForgetStore { return NewForgetService(s.DB) }

// Upkeep returns checks, counts, the namespace's backup and the clock.
func (s *Store) Upkeep() recall.StoreUpkeep { return Upkeep{s.DB} }

// Copier returns the namespace's rows as stored, for recall migrate.
func (s *Store) Copier() recall.StoreCopier { return Copier{s.DB} }

// Close closes the pool.
func (s *Store) Close() error { return s.DB.Close() }

package recall

import (
	"context"
	"time"
)

// Store is the seam a storage backend implements: everything the engine
// (package engine) asks of the place memories live. SQLite implements it
// (package sqlite); a second backend implements the same interfaces and
// passes the same recalltest suites. The parts are reached through
// accessors rather than embedded, so that two parts may use the same
// method name without colliding.
type Store interface {
	// Memories returns the memories, their versions and the full-text
	// candidates for ranking.
	Memories() MemoryStore
	// Observations returns the raw observations.
	Observations() ObservationStore
	// Sessions returns the session rows with the given bookkeeping.
	Sessions(o SessionOptions) SessionStore
	// Rollups returns the time-tier rollups under policy p (nil to read
	// only).
	Rollups(p RollupPolicy) RollupStore
	// Vectors returns the embedding side: vector search, the queue and
	// reindexing. Nil when the store was opened without an embedder.
	Vectors() VectorStore
	// Tiers returns the bookkeeping of the managed markdown files.
	Tiers() TierStore
	// Forgetting returns purge, sweep and the store's statistics.
	Forgetting() ForgetStore
	// Upkeep returns the integrity checks, backups and clock.
	Upkeep() StoreUpkeep
	// Copier returns the raw rows, to move the store to another backend.
	Copier() StoreCopier
	// Close releases the store.
	Close() error
}

// Backend is a storage adapter as the program picks it: it opens stores
// and knows their files. sqlite.Backend is one; a second backend is
// another value of this interface handed to the engine.
type Backend interface {
	// OpenStore opens, creating if needed, the store whose database is at
	// path.
	OpenStore(path string, o StoreOptions) (Store, error)
	// CheckFiles inspects a store's files without opening them: opening
	// may discard a damaged log, so doctor runs this first.
	CheckFiles(path string) []FileProblem
	// IsCorrupt reports whether an open failed because the files are
	// damaged.
	IsCorrupt(err error) bool
	// PurgeMatcher matches texts the way a purge's search does, for the
	// copies kept outside the store (markdown views); nil when c has no
	// search.
	PurgeMatcher(c PurgeCriteria) (func(text string) bool, error)
}

// StoreOptions configures a store as it is opened.
type StoreOptions struct {
	// MaxContentBytes bounds a memory's content; 0 means the default.
	MaxContentBytes int
	// Redactor, when set, removes secrets before anything is written.
	Redactor Redactor
	// Embedding attaches vectors; nil opens the store without them.
	Embedding *EmbeddingOptions
	// ForWrite says the caller opens the store to write to it (a hook, a
	// put): a backend may set up its writer at once. Otherwise it may
	// defer that to the first write, which a search never makes.
	ForWrite bool
	// ReadsOnWriter, with ForWrite, says the caller is a short process
	// that writes a little and reads a little and runs no upkeep (a hook):
	// a backend may serve its reads on the writer's connection, so that
	// the process connects to the database once. The caller must do its
	// store work from one goroutine at a time: two writers at once could
	// each wait for a connection the other holds. Ignored with BeforeWrite.
	ReadsOnWriter bool
	// BeforeWrite, when set, is called before each write transaction
	// begins, and the done it returns after the transaction ends: the
	// session-start upkeep process waits there while hooks are writing
	// (engine.HookGate). An error fails the write.
	BeforeWrite func(ctx context.Context) (done func(), err error)
}

// EmbeddingOptions says how a store embeds what is written to it.
type EmbeddingOptions struct {
	Embedder Embedder
	Chunker  Chunker
	// Inline embeds each write in its own transaction (a fast local
	// embedder); otherwise writes queue their memories.
	Inline bool
	// Interval is how often a running queue loop drains the queue.
	Interval time.Duration
	// BatchSize is how many passages go to the embedder at once; 0 means
	// the backend's default.
	BatchSize int
	// OnError hears every failed embedding, for a warning.
	OnError func(error)
}

// TextCandidates is the store's full-text (BM25) candidate source: it
// finds memories by their words. Ranking (package rank) fuses it with the
// vectors into the Searcher interfaces use.
type TextCandidates interface {
	// Search returns at most q.Limit memories passing q.Filter (active
	// ones by default) whose title, content or tags hold the words of
	// q.Text, best BM25 score first, scores positive. Only current
	// versions are searched. Query syntax is not the caller's: quotes,
	// parentheses and operators (AND, OR, NOT, *) are matched as words or
	// ignored, never an error.
	Search(ctx context.Context, q SearchQuery) ([]*SearchHit, error)
}

// VersionReader reads one stored version of a memory.
type VersionReader interface {
	// MemoryVersion returns version n of the memory ref as it was then.
	// Returns ENOTFOUND for an unknown memory or version.
	MemoryVersion(ctx context.Context, ref string, n int) (*Memory, error)
}

// MemoryStore is the memory part of a Store.
type MemoryStore interface {
	MemoryService
	VersionReader
	HistoryReader
	NeighborFinder
	TextCandidates
}

// ObservationStore is the observation part of a Store.
type ObservationStore interface {
	ObservationService
	ObservationPinner
}

// SessionOptions is the session bookkeeping a store applies.
type SessionOptions struct {
	// HotSessions is how many sessions stay hot besides the one starting;
	// 0 means the backend's default.
	HotSessions int
	// StaleAfter flags pinned memories unreviewed for this long; 0 means
	// the backend's default.
	StaleAfter time.Duration
}

// SessionStore keeps session rows. The lifecycle around it (markdown
// views, bootstrap context, heartbeat) is SessionService.
type SessionStore interface {
	SessionService
	// EnsureSession records s as started (now when StartedAt is zero)
	// unless a session with its id exists, which it leaves exactly as it
	// is.
	EnsureSession(ctx context.Context, s *Session) error
}

// RollupStore is the rollup part of a Store.
type RollupStore interface {
	RollupService
	// CurrentRollups returns, for every keyed group, the one active rollup
	// an agent should see: the newest (latest entry), and among equally
	// new ones the most confident, which is the coarsest tier that has
	// taken the newest entry in. f narrows by bucket type, memory type and
	// time; f.Search and f.Status are ignored. Newest first.
	CurrentRollups(ctx context.Context, f RollupFilter) ([]*Rollup, error)
	// SearchRollups ranks the rollups matching f by full text over their
	// summaries, best (highest score) first; with f.PerKey one per keyed
	// group.
	SearchRollups(ctx context.Context, f RollupFilter) ([]RollupHit, error)
	// SetRollupSummary replaces a rollup's summary unless it changed after
	// updatedAt (its UpdatedAt when read); it reports whether it did, false
	// for an unknown id. The new summary is what full-text search finds.
	SetRollupSummary(ctx context.Context, id, summary string, updatedAt time.Time) (bool, error)
}

// ForgetStore removes data: on request (purge) and by policy (sweep).
type ForgetStore interface {
	Purger
	Sweeper
	StatsReader
}

// VectorStore is the embedding part of a Store.
type VectorStore interface {
	VectorSearcher
	// EmbedderModel names the embedder the store embeds with.
	EmbedderModel() string
	// VectorStats reports the embedding coverage and the queue. Memories
	// counts the stored memories of every status; a deleted or purged
	// memory leaves no vectors and nothing queued behind.
	VectorStats(ctx context.Context) (*VectorStats, error)
	// DrainQueue embeds queued memories for at most budget (0: until the
	// queue is empty or ctx ends). When the embedder fails it returns its
	// error (EUNAVAILABLE for an unreachable provider), records it as
	// VectorStats.ProviderError and leaves the memories queued; the next
	// success clears it.
	DrainQueue(ctx context.Context, budget time.Duration) error
	// RunQueue drains the queue at the configured interval until ctx ends.
	RunQueue(ctx context.Context)
	// EmbedsInline reports whether writes embed in their own transaction
	// rather than through the queue.
	EmbedsInline() bool
	// QueuedHere counts the memories this process queued.
	QueuedHere() int64
	// Reindex embeds the memories missing vectors (all with opts.All),
	// queued ones included; Total counts the memories that needed it, 0
	// when none did.
	Reindex(ctx context.Context, opts ReindexOptions) (*ReindexResult, error)
}

// StoreUpkeep is the care of the store itself.
type StoreUpkeep interface {
	// Check runs the full integrity check; QuickCheck a fast one.
	Check(ctx context.Context) error
	QuickCheck(ctx context.Context) error
	// Orphans counts rows that point at something missing, by kind; every
	// kind it checks is listed, OrphanObservations always, at zero in a
	// healthy store.
	Orphans(ctx context.Context) (map[string]int, error)
	// Counts counts what a backup holds.
	Counts(ctx context.Context) (BackupCounts, error)
	// Backup writes a consistent copy of the store to path, in the
	// backend's own format, and returns what it holds.
	Backup(ctx context.Context, path string) (BackupCounts, error)
	// Restore replaces the store's contents with the backup at path (one
	// written by Backup of the same backend) and returns what the store
	// then holds. Returns ECONFLICT, changing nothing, when the store
	// holds data and force is false; EINVALID, changing nothing, when the
	// file is not a sound backup.
	Restore(ctx context.Context, path string, force bool) (BackupCounts, error)
	// Clock is the store's time now (tests set it).
	Clock() time.Time
}

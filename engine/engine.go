package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/chunk"
	"github.com/recall-mem/recall/redact"
)

// Engine is one open store with the parts its config names.
type Engine struct {
	parts Parts

	// Set by Open.
	Location *Location
	Config   *Config
	Store    recall.Store
	// Redactor cleans what the store writes; hooks clean their output
	// with it too. Nil when [redact] is off.
	Redactor recall.Redactor
	// Log hears the warnings of work that has no caller to return an
	// error to: a deferred embedding, a skipped sweep or rollup. Nil
	// discards them.
	Log io.Writer
	// StoreFlag and GlobalFlag choose the store (see ResolveStore) for a
	// use case that needs its location before it is open.
	StoreFlag  string
	GlobalFlag bool

	mem         recall.MemoryStore
	obs         recall.ObservationStore
	vec         recall.VectorStore // nil without an embedder
	search      recall.Searcher    // hybrid ranking over memories and rollups
	embedWarned atomic.Bool        // warnEmbedding has warned: once per process; a server warns from many calls at once
	// DeferUpkeep makes a session start leave its upkeep (rollups and
	// sweep) to the caller, who runs SessionUpkeep after replying: the
	// SessionStart hook, whose agent waits for it. UpkeepDeferred says
	// whether a session start left work.
	DeferUpkeep    bool
	upkeepDeferred atomic.Bool
	// KeepUpkeepLock makes a deferring session start keep the upkeep lock
	// it tried, for the upkeep process it leaves the work to
	// (TakeUpkeepLock, AdoptUpkeepLock): with the lock let go of between
	// the try and that process's start, the next hook's try found it free
	// and started a second process, which opened the store only to find
	// the lock taken, on the cores the hooks run on.
	KeepUpkeepLock bool
	upkeepLock     *os.File // the upkeep lock held for a run to come
	// YieldToHooks makes each write transaction wait while hooks are at
	// work on the store (see HookGate): the upkeep process a SessionStart
	// hook leaves.
	YieldToHooks bool
	// ReadsOnWriter opens the store for a process that reads on the
	// connection it writes on (recall.StoreOptions.ReadsOnWriter): a hook
	// that runs no upkeep.
	ReadsOnWriter bool
	// SearchSlots, when above 0, admits at most that many searches at
	// once, in arrival order (searchGate): a server's. Set it before Open;
	// a process that searches once leaves it 0 and pays nothing. It holds
	// only where a search is this machine's CPU work (searchesLocal): a
	// slot stands for a core, and a search waiting on a remote embedder
	// or a database server would hold one idle.
	SearchSlots int
	searchLimit int // the gate's slots since Open; 0 without one
	// creates lets Open create a missing store: set by OpenForWrite; reads
	// of a missing store are an error, so a typo in --store never leaves a
	// store behind.
	creates bool
}

// Now is the wall clock.
func (e *Engine) Now() time.Time { return time.Now().UTC() }

// logf writes a warning to Log.
func (e *Engine) logf(format string, args ...any) {
	fprintf(e.Log, format, args...)
}

// Memories returns the open store's memories.
func (e *Engine) Memories() recall.MemoryStore { return e.mem }

// Observations returns the open store's observations.
func (e *Engine) Observations() recall.ObservationStore { return e.obs }

// Searcher returns the ranked search over the open store: full text and
// vectors fused, rollups included.
func (e *Engine) Searcher() recall.Searcher { return e.search }

// VectorStore returns the open store's vectors, nil without an embedder.
func (e *Engine) VectorStore() recall.VectorStore { return e.vec }

// New returns an engine that will open stores with parts.
func New(parts Parts) *Engine { return &Engine{parts: parts} }

// Parts returns the adapters the engine was built with.
func (e *Engine) Parts() Parts { return e.parts }

// Open opens the store StoreFlag and GlobalFlag select, once: a missing
// store is an error unless OpenForWrite was called before.
func (e *Engine) Open(ctx context.Context) error {
	if e.Store != nil {
		return nil
	}
	loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag)
	if err != nil {
		return err
	}
	return e.OpenAt(ctx, loc, OpenOptions{Create: e.creates})
}

// OpenForWrite opens the store like Open, creating it when it does not
// exist yet (with a .gitignore that keeps it out of git): for init and
// the use cases that add data.
func (e *Engine) OpenForWrite(ctx context.Context) error {
	if e.Store != nil {
		// Already open: a server's concurrent calls reach here (through
		// OpenWorkspace) and must not write to the engine.
		return nil
	}
	e.creates = true
	loc, err := ResolveStore(e.StoreFlag, e.GlobalFlag)
	if err != nil {
		return err
	}
	existed := StoreExists(loc) == nil
	if err := e.Open(ctx); err != nil {
		return err
	}
	if !existed {
		if err := WriteStoreGitignore(loc.Dir); err != nil {
			return fmt.Errorf("keep the new store out of git: %w", err)
		}
	}
	return nil
}

// OpenOptions says how OpenAt treats a missing store.
type OpenOptions struct {
	// Create lets Open create a missing store; reads of a missing store
	// are an error, so a typo in --store never leaves a store behind.
	Create bool
}

// OpenAt loads the config of the store at loc and opens it with its
// redactor and embedder.
func (e *Engine) OpenAt(ctx context.Context, loc *Location, o OpenOptions) error {
	if !o.Create {
		if err := StoreExists(loc); err != nil {
			return err
		}
	}
	cfg, err := LoadStoreConfig(loc.Dir)
	if err != nil {
		return err
	}
	if loc.URL == "" && cfg.Store.URL != "" { // a Location not made by ResolveStore
		if !IsStoreURL(cfg.Store.URL) {
			return recall.Errorf(recall.EINVALID, "%s: [store] url %s is not a URL: use postgres://user@host:5432/dbname, or remove it to keep the SQLite file.",
				filepath.Join(loc.Dir, ConfigFile), recall.RedactURL(cfg.Store.URL))
		}
		cp := *loc
		cp.URL = cfg.Store.URL
		loc = &cp
	}
	red, err := NewRedactor(cfg.Redact)
	if err != nil {
		return err
	}
	emb, err := e.embedding(loc, cfg)
	if err != nil {
		return err
	}
	so := recall.StoreOptions{MaxContentBytes: cfg.Limits.MaxContentBytes, Redactor: red, Embedding: emb, ForWrite: o.Create, ReadsOnWriter: e.ReadsOnWriter}
	if e.YieldToHooks {
		so.BeforeWrite = upkeepWriteGate(loc.Dir)
	}
	st, err := e.parts.Backend.OpenStore(loc.DBPath(), so)
	if err != nil {
		return err
	}
	e.Location, e.Config, e.Store, e.Redactor = loc, cfg, st, red
	e.mem, e.obs, e.vec = st.Memories(), st.Observations(), st.Vectors()
	s, _ := e.SearcherFor(e.mem, e.vectors(), e.mem, cfg)
	e.search = e.rollupSearcher(s) // rollups are part of default search
	e.searchLimit = 0
	if e.SearchSlots > 0 && searchesLocal(loc, cfg, emb) {
		e.search = gatedSearcher{gate: newSearchGate(e.SearchSlots), base: e.search}
		e.searchLimit = e.SearchSlots
	}
	return nil
}

// SearchLimit is how many searches the open store runs at once, the
// others queued: SearchSlots where its searches are local CPU work, else
// 0 (no limit).
func (e *Engine) SearchLimit() int { return e.searchLimit }

// searchesLocal reports whether the store's searches are CPU work in this
// process, which a gate of a slot a core paces: a SQLite file searched
// with an embedder that runs here (the built-in encoder, or any embedder
// fast enough to embed writes inline). A remote embedder's query
// embedding (up to its timeout), its queue drained before a hybrid search
// and the wait on a provider that is down are I/O, as a PostgreSQL
// store's searches mostly are: searches holding the slots through them
// would keep a BM25 search, a few milliseconds of CPU, waiting for them.
func searchesLocal(loc *Location, cfg *Config, emb *recall.EmbeddingOptions) bool {
	return loc.URL == "" && (emb.Inline || IsBuiltin(cfg.Retrieval))
}

// Close closes the store, if open.
func (e *Engine) Close() {
	if e.upkeepLock != nil { // kept and never handed over: let it go
		releaseLock(e.upkeepLock)
		e.upkeepLock = nil
	}
	if e.Store != nil {
		e.Store.Close()
		e.Store, e.mem, e.obs, e.vec, e.search = nil, nil, nil, nil, nil
	}
}

// embedding says how the store embeds every write: inline for a fast
// local embedder, through the queue otherwise.
func (e *Engine) embedding(loc *Location, cfg *Config) (*recall.EmbeddingOptions, error) {
	r := cfg.Retrieval
	if r.ModelPath != "" && !filepath.IsAbs(r.ModelPath) {
		r.ModelPath = filepath.Join(loc.Dir, r.ModelPath) // relative to the store
	}
	emb, inline, err := e.parts.NewEmbedder(r)
	if err != nil {
		return nil, err
	}
	o := &recall.EmbeddingOptions{Embedder: emb, Chunker: chunk.Splitter{}, Inline: inline, BatchSize: cfg.Retrieval.BatchSize}
	if !inline {
		// Only a server runs the loop (Store.Vectors().RunQueue); the
		// CLI drains on search and in `recall reindex`.
		o.Interval = QueueInterval(r)
	}
	o.OnError = func(err error) {
		e.warnEmbedding("recall: embedding deferred (memories stay queued; `recall reindex` catches up): %s\n", recall.ErrorMessage(err))
	}
	return o, nil
}

// NewRedactor builds the secret redactor [redact] configures; nil when it
// is turned off.
func NewRedactor(cfg RedactConfig) (recall.Redactor, error) {
	if cfg.Enabled != nil && !*cfg.Enabled {
		return nil, nil
	}
	r, err := redact.New(redact.Config{Patterns: cfg.Patterns, Allow: cfg.AllowList})
	if err != nil {
		return nil, err
	}
	return r, nil
}

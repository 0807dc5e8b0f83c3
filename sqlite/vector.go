package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/recall-mem/recall"
)

// Keys in store_meta naming the embedding model the stored vectors use.
const (
	metaVectorModel = "vector_model"
	metaVectorDim   = "vector_dim"
)

// DefaultEmbedBatch is how many passages go to the embedder at once.
const DefaultEmbedBatch = 64

// DefaultQueryTimeout bounds a remote embedder's query embedding.
const DefaultQueryTimeout = 3 * time.Second

// VectorService embeds memories and searches their passages by vector. It
// keeps an exact in-memory index, built on the first search and refreshed
// incrementally before each one, so that writes by this process and by
// others are seen.
type VectorService struct {
	db *DB

	// Embedder turns passages into vectors; nil or a zero dimension means
	// vector search is unavailable.
	Embedder recall.Embedder
	// Chunker splits content into passages; nil means one passage per memory.
	Chunker recall.Chunker
	// Inline embeds the memories a write changes inside its transaction
	// (see vector_inline.go); those it cannot embed are queued. Set it for
	// local embedders only: a remote one would slow writes, so its queue is
	// drained by Run, DrainQueue and Reindex instead.
	Inline bool
	// BatchSize is the number of passages per Embed call; 0 means
	// DefaultEmbedBatch.
	BatchSize int
	// Interval is how often Run drains the queue; 0 turns the loop off.
	Interval time.Duration
	// QueryTimeout bounds embedding a query for a remote embedder, so that
	// a provider that is down delays a search by at most this much before
	// the caller falls back to full-text search; 0 means DefaultQueryTimeout.
	QueryTimeout time.Duration
	// OnError, when set, receives errors of background embedding (after a
	// write, in Run) that have no caller to return to. The memories stay
	// queued.
	OnError func(error)

	mu sync.Mutex // serialises index refreshes
	// index is set under mu but read without it, so that a search whose
	// index is current never waits for another's refresh.
	index  atomic.Pointer[vectorIndex]
	queued atomic.Int64 // memories this process queued; see QueuedHere
}

var _ recall.VectorSearcher = (*VectorService)(nil)

// NewVectorService returns a VectorService over db and attaches it, so that
// db's writes embed inline when Inline is set.
func NewVectorService(db *DB, e recall.Embedder, c recall.Chunker) *VectorService {
	s := &VectorService{db: db, Embedder: e, Chunker: c}
	db.vectors = s
	return s
}

func (s *VectorService) batchSize() int {
	if s.BatchSize > 0 {
		return s.BatchSize
	}
	return DefaultEmbedBatch
}

func (s *VectorService) report(err error) {
	if err != nil && s.OnError != nil {
		s.OnError(err)
	}
}

// embedder returns the configured embedder, or EUNAVAILABLE when there is
// none or it cannot say its dimension (a remote provider that is down).
func (s *VectorService) embedder(ctx context.Context) (recall.Embedder, error) {
	if s.Embedder == nil || s.Embedder.Model() == "none" {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "No embedder is configured ([retrieval] embedder = \"none\"): set it to builtin, openai or model2vec in config.toml, then run `recall reindex`.")
	}
	dim := 0
	if p, ok := s.Embedder.(interface{ DimContext(context.Context) int }); ok {
		dim = p.DimContext(ctx) // a remote probe within the caller's budget
	} else {
		dim = s.Embedder.Dim()
	}
	if dim <= 0 {
		// A remote embedder learns its dimension from the provider; it
		// says why that failed.
		if le, ok := s.Embedder.(interface{ LastError() error }); ok && le.LastError() != nil {
			return nil, le.LastError()
		}
		err := recall.Errorf(recall.EUNAVAILABLE, "The embedder %s is not available: check [retrieval] in config.toml.", s.Embedder.Model())
		if ctx.Err() != nil {
			// The caller's budget ended first: no verdict on the provider.
			return nil, fmt.Errorf("%w (%w)", err, ctx.Err())
		}
		return nil, err
	}
	return s.Embedder, nil
}

// storedModel returns the model and dimension of the stored vectors, or ""
// when nothing has been embedded yet.
func (s *VectorService) storedModel(ctx context.Context, q querier) (string, int, error) {
	var model string
	var dim int
	err := q.QueryRowContext(ctx, `SELECT
		COALESCE((SELECT value FROM store_meta WHERE key = ?), ''),
		COALESCE((SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = ?), 0)`, metaVectorModel, metaVectorDim).Scan(&model, &dim)
	if err != nil {
		return "", 0, fmt.Errorf("vector model: %w", err)
	}
	return model, dim, nil
}

// checkModel returns EUNAVAILABLE when the stored vectors were made by
// another model than the configured one.
func (s *VectorService) checkModel(ctx context.Context, q querier, e recall.Embedder) error {
	model, dim, err := s.storedModel(ctx, q)
	if err != nil {
		return err
	}
	if model == "" || (model == e.Model() && dim == e.Dim()) {
		return nil
	}
	from, to := model, e.Model()
	if model == e.Model() {
		from, to = fmt.Sprintf("%s (%d dimensions)", model, dim), fmt.Sprintf("%s (%d dimensions)", to, e.Dim())
	}
	return recall.Errorf(recall.EUNAVAILABLE, "Embedding model changed from %s to %s: run `recall reindex`.", from, to)
}

func setStoredModel(ctx context.Context, tx *Tx, e recall.Embedder) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO store_meta (key, value) VALUES (?, ?), (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		metaVectorModel, e.Model(), metaVectorDim, fmt.Sprint(e.Dim()))
	if err != nil {
		return fmt.Errorf("set vector model: %w", err)
	}
	return nil
}

// SearchVectors returns the k memories with the passages nearest to text,
// one hit per memory (its best passage), best first. Returns EUNAVAILABLE
// when no embedder is configured, when it cannot be reached, or when the
// stored vectors come from another model.
func (s *VectorService) SearchVectors(ctx context.Context, text string, k int) ([]recall.VectorHit, error) {
	e, err := s.embedder(ctx)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = 10
	}
	if !s.Inline {
		// A remote provider's queue is drained a little on each search, so
		// that recent memories become findable without a server running.
		s.report(s.DrainQueue(ctx, opportunisticBudget))
	}
	idx, err := s.refresh(ctx, e)
	if err != nil {
		return nil, err
	}
	qctx := ctx
	timeout := s.QueryTimeout
	if timeout <= 0 {
		timeout = DefaultQueryTimeout
	}
	if !s.Inline {
		var cancel context.CancelFunc
		qctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	vs, err := e.Embed(qctx, []string{text})
	if err != nil {
		if ctx.Err() == nil && qctx.Err() != nil {
			return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedding provider did not answer within %s: vector search is skipped for this query.", timeout)
		}
		return nil, err
	}
	if len(vs) != 1 || len(vs[0]) != e.Dim() {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedder returned a vector of the wrong size for the query: check [retrieval] model, then run `recall reindex`.")
	}
	// The int8 scan is within about 1% of the float32 re-score, so only
	// near-ties at the edge of the top k can swap: a quarter more (at least
	// 64) is enough to rescore. When passages of the same memories fill
	// the rows, more are scanned.
	for keep := max(k+k/4+16, 64); ; keep *= 4 {
		cands := idx.candidates(vs[0], keep)
		hits, err := s.rerank(ctx, cands, k)
		if err != nil || len(hits) >= k || len(cands) < keep {
			return hits, err
		}
	}
}

// rerank orders the candidates of the quantised scan by their re-score
// (candidate.exact, made from the index's rows, which are the stored
// vectors) and keeps the best passage of each memory, k at most. SQLite
// is asked only for what the index does not hold, the passages' memories
// and spans, and only for the best candidates, a few more than k at a
// time: a candidate deleted since the scan is not found and skipped.
func (s *VectorService) rerank(ctx context.Context, cands []candidate, k int) ([]recall.VectorHit, error) {
	cands = slices.Clone(cands)
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.exact != b.exact {
			return cmp.Compare(b.exact, a.exact)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	seen := map[string]bool{}
	var out []recall.VectorHit
	for len(cands) > 0 && len(out) < k {
		batch := cands[:min(len(cands), k-len(out)+rerankSpare)]
		cands = cands[len(batch):]
		found, err := s.hitPassages(ctx, batch)
		if err != nil {
			return nil, err
		}
		for _, c := range batch {
			hit, ok := found[c.seq]
			if !ok || seen[hit.MemoryID] {
				continue
			}
			seen[hit.MemoryID] = true
			hit.Score = float64(c.exact)
			out = append(out, hit)
			if len(out) == k {
				break
			}
		}
	}
	return out, nil
}

// rerankSpare is how many candidates beyond those still needed rerank
// looks up at once, for passages of a memory already taken.
const rerankSpare = 4

// hitPassages reads the memory (its id and row) and span of the
// candidates' vector rows, by seq; a row deleted since the scan is absent.
func (s *VectorService) hitPassages(ctx context.Context, cands []candidate) (map[int64]recall.VectorHit, error) {
	seqs := make([]int64, len(cands))
	for i, c := range cands {
		seqs[i] = c.seq
	}
	rows, err := s.db.readQuery(ctx, `SELECT seq, memory_id, memory_seq, chunk, span_start, span_end FROM memory_vectors
		WHERE seq IN `+inList, jsonInts(seqs))
	if err != nil {
		return nil, fmt.Errorf("vector rerank: %w", err)
	}
	defer rows.Close()
	found := make(map[int64]recall.VectorHit, len(cands))
	for rows.Next() {
		var seq int64
		var hit recall.VectorHit
		if err := rows.Scan(&seq, &hit.MemoryID, &hit.Row, &hit.Chunk, &hit.Start, &hit.End); err != nil {
			return nil, fmt.Errorf("vector rerank: %w", err)
		}
		found[seq] = hit
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vector rerank: %w", err)
	}
	return found, nil
}

// opportunisticBudget bounds the queue draining a search does.
const opportunisticBudget = 300 * time.Millisecond

// refresh brings the in-memory index up to date with the store and returns
// it. It loads only what changed since the last refresh.
func (s *VectorService) refresh(ctx context.Context, e recall.Embedder) (*vectorIndex, error) {
	if x, err := s.unchanged(ctx, e); x != nil || err != nil {
		return x, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("vector refresh: %w", err)
	}
	defer tx.Rollback()
	if err := s.checkModel(ctx, tx, e); err != nil {
		return nil, err
	}
	x := s.index.Load()
	if x == nil || x.model != e.Model() || x.dim != e.Dim() {
		// A new process starts from the cache file when there is a good one
		// of this database's history (a file put back from a copy can carry
		// the same epoch as a newer database, or the reverse).
		x = newVectorIndex(e.Model(), e.Dim())
		if c, err := openCache(s.db.vectorCachePath(), e.Model(), e.Dim()); err == nil {
			ok, err := c.checkProbe(ctx, tx)
			if err != nil {
				return nil, fmt.Errorf("vector refresh: %w", err)
			}
			if ok {
				x = c
				x.ensureCodes() // a file written before the index kept codes
			}
		}
		s.index.Store(x)
	}
	changed, err := x.refresh(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("vector refresh: %w", err)
	}
	if changed && x.maxSeq+x.maxTomb-x.cachedRows >= cacheEvery {
		// The cache is an optimisation: failing to write it is reported, not returned.
		probe, err := x.takeProbe(ctx, tx)
		if err == nil {
			err = x.writeCache(s.db.vectorCachePath(), probe)
		}
		if err != nil {
			s.report(fmt.Errorf("write vector cache: %w", err))
		}
		x.cachedRows = x.maxSeq + x.maxTomb
	}
	return x, nil
}

// unchanged returns the index when it has seen every change to the store
// (nil otherwise), without taking s.mu: concurrent searches of a server
// would otherwise queue behind one another's snapshot reads. The stamp
// and the stored model are read in one statement, one snapshot; the
// model is checked as refresh checks it.
func (s *VectorService) unchanged(ctx context.Context, e recall.Embedder) (*vectorIndex, error) {
	x := s.index.Load()
	if x == nil || x.model != e.Model() || x.dim != e.Dim() {
		return nil, nil
	}
	var st indexStamp
	var model string
	var dim int
	// Every vector search asks this: the statement is kept, not prepared
	// again each time.
	q, err := s.db.readStmt(ctx, `SELECT`+indexStampColumns+`,
		COALESCE((SELECT value FROM store_meta WHERE key = ?), ''),
		COALESCE((SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = ?), 0)`)
	if err != nil {
		return nil, fmt.Errorf("vector refresh: %w", err)
	}
	err = q.QueryRowContext(ctx, metaVectorModel, metaVectorDim).Scan(append(st.dest(), &model, &dim)...)
	if err != nil {
		return nil, fmt.Errorf("vector refresh: %w", err)
	}
	if model != "" && (model != e.Model() || dim != e.Dim()) {
		return nil, nil // refresh says why
	}
	if !x.current(st) {
		return nil, nil
	}
	return x, nil
}

// VectorStats describes the state of the vectors in a store.
type VectorStats = recall.VectorStats

// Stats counts memories, vectors and the queue.
func (s *VectorService) Stats(ctx context.Context) (*VectorStats, error) {
	st := &VectorStats{}
	if s.Embedder != nil {
		st.Model = s.Embedder.Model()
	}
	var err error
	if st.StoredModel, _, err = s.storedModel(ctx, s.db.read); err != nil {
		return nil, err
	}
	err = s.db.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM memories),
		(SELECT COUNT(*) FROM memories m WHERE EXISTS (SELECT 1 FROM memory_vectors v
			WHERE v.memory_seq = m.seq AND v.chunk = 0 AND v.model = ? AND v.version = m.version)),
		(SELECT COUNT(*) FROM memory_vectors),
		(SELECT COUNT(*) FROM embed_queue),
		(SELECT COUNT(*) FROM embed_queue WHERE last_error != ''),
		COALESCE((SELECT last_error FROM embed_queue WHERE last_error != '' ORDER BY queued_at DESC LIMIT 1), '')`,
		st.Model).Scan(&st.Memories, &st.Embedded, &st.Vectors, &st.Queued, &st.Failing, &st.LastError)
	if errors.Is(err, sql.ErrNoRows) {
		return st, nil
	} else if err != nil {
		return nil, fmt.Errorf("vector stats: %w", err)
	}
	if st.ProviderError, st.ProviderErrorAt, err = s.lastFailure(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

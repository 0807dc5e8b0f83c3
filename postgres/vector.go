package postgres

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/recall-mem/recall"
)

// DefaultEmbedBatch is how many passages go to the embedder at once.
const DefaultEmbedBatch = 64

// VectorService embeds the namespace's memories into pgvector and finds
// the passages nearest to a query: an HNSW index (cosine) proposes
// candidates, which are then scored exactly from the stored vectors.
//
// A memory needs (re-)embedding when no vector of the current model was
// made from its current title and content (their md5 is stored beside
// each vector), so writes need not know about vectors: Embed catches up,
// and every search runs it first, bounded, so that what was just written
// is found.
type VectorService struct {
	db *DB
	// Embedder turns passages into vectors; nil means vector search is
	// unavailable.
	Embedder recall.Embedder
	// Chunker splits content into passages; nil means one per memory.
	Chunker recall.Chunker
	// BatchSize is the number of memories embedded per round; 0 means
	// DefaultEmbedBatch.
	BatchSize int
	// Inline embeds each write as it commits; otherwise writes wait for
	// DrainQueue or a search.
	Inline bool
	// Interval is how often RunQueue drains the queue.
	Interval time.Duration
	// OnError hears every failed embedding.
	OnError func(error)

	queue   queueState
	caught  caughtUp // see catchUp
	mu      sync.Mutex
	indexed map[int]bool // dimensions whose HNSW index is known to exist
}

var _ recall.VectorSearcher = (*VectorService)(nil)

// NewVectorService returns a VectorService over db.
func NewVectorService(db *DB, e recall.Embedder, c recall.Chunker) *VectorService {
	return &VectorService{db: db, Embedder: e, Chunker: c}
}

// textHash is the SQL for the hash of what is embedded of memory m (a
// generated column).
const textHash = `m.text_hash`

// embedder returns the embedder, or EUNAVAILABLE when there is none.
func (s *VectorService) embedder() (recall.Embedder, error) {
	if s.Embedder == nil || s.Embedder.Model() == "none" || s.Embedder.Dim() <= 0 {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "No embedder is configured ([retrieval] embedder = \"none\"): set it in config.toml to search by meaning.")
	}
	return s.Embedder, nil
}

// ensureIndex creates the HNSW index for the embedder's dimension. The
// column has no fixed dimension, so the index is on a cast and partial
// (WHERE dim = N), one per dimension in use.
//
// CREATE INDEX locks out writers even when the index exists, so it runs
// only when the catalog lacks the index, and each process asks once.
func (s *VectorService) ensureIndex(ctx context.Context, dim int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.indexed[dim] {
		return nil
	}
	if err := s.db.createVectorIndex(ctx, dim); err != nil {
		return err
	}
	if s.indexed == nil {
		s.indexed = map[int]bool{}
	}
	s.indexed[dim] = true
	return nil
}

// createVectorIndex creates the HNSW index of dimension dim unless the
// catalog has it.
func (db *DB) createVectorIndex(ctx context.Context, dim int) error {
	name := fmt.Sprintf("memory_vectors_hnsw_%d", dim)
	var exists bool
	if err := db.pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err := db.pool.Exec(ctx, fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON memory_vectors
		USING hnsw ((embedding::vector(%d)) vector_cosine_ops) WHERE dim = %d`, name, dim, dim))
	return err
}

// Embed embeds up to limit memories of the namespace whose vectors are
// missing or stale (limit <= 0: all of them) and returns how many it
// embedded.
func (s *VectorService) Embed(ctx context.Context, limit int) (int, error) {
	e, err := s.embedder()
	if err != nil {
		return 0, err
	}
	if err := s.ensureIndex(ctx, e.Dim()); err != nil {
		return 0, fmt.Errorf("vector index: %w", err)
	}
	batch := s.BatchSize
	if batch <= 0 {
		batch = DefaultEmbedBatch
	}
	done := 0
	for limit <= 0 || done < limit {
		n := batch
		if limit > 0 {
			n = min(n, limit-done)
		}
		got, err := s.embedRound(ctx, e, n, nil)
		done += got
		if err != nil || got < n {
			return done, err
		}
	}
	return done, nil
}

// stale selects the memories without a vector of model made from their
// current text, newest first: what a write just made is found at once,
// rather than after a walk past every memory embedded before it (which
// made batched ingest quadratic: 76 memories/s at 10,000).
const stale = `SELECT m.id, m.title, m.content, ` + textHash + ` FROM memories m
	WHERE m.namespace = $1 AND NOT EXISTS (SELECT 1 FROM memory_vectors v
		WHERE v.namespace = m.namespace AND v.memory_id = m.id AND v.model = $2 AND v.text_hash = ` + textHash + `)
	ORDER BY m.seq DESC LIMIT $3`

// staleOf is stale among the memories $4 only: a plain condition on the
// key, so that the planner looks those rows up rather than scanning (an
// "$4 IS NULL OR …" form scanned every memory).
var staleOf = strings.Replace(stale, "ORDER BY", "AND m.id = ANY($4) ORDER BY", 1)

// embedRound embeds up to n stale memories (of ids, when not nil) and
// replaces their vectors.
func (s *VectorService) embedRound(ctx context.Context, e recall.Embedder, n int, ids []string) (int, error) {
	query, args := stale, []any{s.db.Namespace, e.Model(), n}
	if ids != nil {
		query, args = staleOf, append(args, ids)
	}
	rows, err := s.db.pool.Query(ctx, query, args...)
	items, err := collectRows(rows, err, func(row pgx.Row) (*embedItem, error) {
		it := &embedItem{}
		return it, row.Scan(&it.id, &it.title, &it.content, &it.hash)
	})
	if err != nil || len(items) == 0 {
		return 0, err
	}
	return s.embedItems(ctx, e, items)
}

// embedItem is a memory to embed: its text, the hash of the text (as the
// generated column computes it) and its passages.
type embedItem struct {
	id, title, content, hash string
	chunks                   []recall.Chunk
}

// embedItems embeds the memories items and replaces their vectors.
func (s *VectorService) embedItems(ctx context.Context, e recall.Embedder, items []*embedItem) (int, error) {
	var texts []string
	for _, it := range items {
		it.chunks = []recall.Chunk{{Start: 0, End: len(it.content)}}
		if s.Chunker != nil {
			it.chunks = s.Chunker.Chunk(it.content)
		}
		for _, c := range it.chunks {
			texts = append(texts, passage(it.title, c, it.content))
		}
	}
	vecs, err := e.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = recall.Errorf(recall.EUNAVAILABLE, "The embedder returned %d vectors for %d passages.", len(vecs), len(texts))
	}
	if err != nil {
		s.noteFailure(err, len(items))
		return 0, err
	}
	err = s.db.tx(ctx, func(tx *Tx) error {
		b := &pgx.Batch{}
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = it.id
		}
		b.Queue(`DELETE FROM memory_vectors WHERE namespace = $1 AND memory_id = ANY($2::text[])`, s.db.Namespace, ids)
		i := 0
		for _, it := range items {
			for _, c := range it.chunks {
				v := vecs[i]
				i++
				if len(v) != e.Dim() {
					return recall.Errorf(recall.EUNAVAILABLE, "The embedder returned a vector of %d dimensions, not %d.", len(v), e.Dim())
				}
				// The memory may have changed or gone since it was read:
				// the row is written only if its text is still the one
				// embedded.
				b.Queue(`INSERT INTO memory_vectors (namespace, memory_id, chunk, start_at, end_at, model, dim, text_hash, embedding)
					SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9::real[]::vector FROM memories m
					WHERE m.namespace = $1 AND m.id = $2 AND `+textHash+` = $8`,
					s.db.Namespace, it.id, c.Index, c.Start, c.End, e.Model(), e.Dim(), it.hash, v)
			}
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		return tx.clearFailure(ctx) // the provider answered
	})
	if err != nil {
		return 0, fmt.Errorf("store vectors: %w", err)
	}
	return len(items), nil
}

// passage is the text embedded for a chunk: the title and the headings
// above it say what it is about, so they are repeated in it.
func passage(title string, c recall.Chunk, content string) string {
	parts := []string{}
	if title != "" {
		parts = append(parts, title)
	}
	if c.Heading != "" && c.Heading != title {
		parts = append(parts, c.Heading)
	}
	return strings.Join(append(parts, content[c.Start:c.End]), "\n")
}

// searchCatchUp bounds the embedding a search does first.
const searchCatchUp = 256

// SearchVectors returns the k memories whose passages are nearest to
// text, one hit per memory (its best passage), best first.
func (s *VectorService) SearchVectors(ctx context.Context, text string, k int) ([]recall.VectorHit, error) {
	e, err := s.embedder()
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = 10
	}
	// Inline writes embed themselves (and a failure counts as queued here);
	// otherwise what was just written, here or elsewhere, is embedded
	// first, so that a search finds it.
	if !s.Inline || s.QueuedHere() > 0 {
		if err := s.catchUp(ctx); err != nil {
			return nil, err
		}
	}
	qs, err := e.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(qs) != 1 || len(qs[0]) != e.Dim() {
		return nil, recall.Errorf(recall.EUNAVAILABLE, "The embedder returned a vector of the wrong size for the query.")
	}
	q := qs[0]
	// HNSW ranks by approximate search, so a few more candidates than k
	// are asked for (as many as SQLite rescores); when passages of the
	// same memories fill them, more are fetched until k memories are found
	// or the passages run out.
	for keep := max(k+k/4+16, 64); ; keep *= 4 {
		hits, fetched, err := s.nearest(ctx, e, q, keep, k)
		if err != nil || len(hits) >= k || fetched < keep {
			return hits, err
		}
	}
}

// nearestSQL is the query of nearest for vectors of dim dimensions: $1
// the namespace, $2 the model, $3 the query vector, $4 how many passages.
func nearestSQL(dim int) string {
	return fmt.Sprintf(`SELECT c.memory_id, c.chunk, c.start_at, c.end_at, c.score FROM (
			SELECT v.memory_id, v.chunk, v.start_at, v.end_at, v.text_hash,
				-(v.embedding::vector(%[1]d) <#> $3::real[]::vector(%[1]d)) AS score
			FROM memory_vectors v
			WHERE v.namespace = $1 AND v.model = $2 AND v.dim = %[1]d
			ORDER BY v.embedding::vector(%[1]d) <=> $3::real[]::vector(%[1]d) LIMIT $4) c
		JOIN memories m ON m.namespace = $1 AND m.id = c.memory_id AND m.text_hash = c.text_hash`, dim)
}

// efSearch is how many candidates the HNSW search keeps at each step
// (hnsw.ef_search) to find keep passages: twice as many, within
// pgvector's bounds (its default, 40, and its maximum, 1,000). At
// 100,000 memories with the hashing embedder, twice keep finds 85% of
// SQLite's exact top 10 and four times 89%, for 15 and 27 ms of server
// CPU a search; hybrid search finds its targets as often as SQLite with
// either (docs/postgres.md).
func efSearch(keep int) int { return min(max(2*keep, 40), 1000) }

// nearest asks the HNSW index for keep candidate passages, scores them
// exactly and keeps each memory's best, k at most. It returns how many
// candidates it got.
//
// The index is searched over memory_vectors alone, and only its keep
// candidates are then checked against their memories (a vector made from
// another text than the memory's current one is stale): joined before the
// ORDER BY, the planner scanned and sorted every vector instead (35 ms at
// 10,000 memories, growing with the store). The score is the inner
// product, computed by the server, as SQLite scores (the embedders'
// vectors have unit length, so it is the cosine the index orders by).
func (s *VectorService) nearest(ctx context.Context, e recall.Embedder, q []float32, keep, k int) ([]recall.VectorHit, int, error) {
	var hits []recall.VectorHit
	fetched := 0
	err := s.db.tx(ctx, func(tx *Tx) error {
		// With the namespace filter, an index scan may stop short of keep
		// rows; iterative scans continue until enough pass (pgvector 0.8).
		b := &pgx.Batch{}
		b.Queue(`SET LOCAL hnsw.iterative_scan = relaxed_order`)
		b.Queue(`SET LOCAL hnsw.ef_search = ` + fmt.Sprint(efSearch(keep)))
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, nearestSQL(e.Dim()), s.db.Namespace, e.Model(), q, keep)
		best := map[string]recall.VectorHit{}
		cands, err := collectRows(rows, err, func(row pgx.Row) (recall.VectorHit, error) {
			var h recall.VectorHit
			return h, row.Scan(&h.MemoryID, &h.Chunk, &h.Start, &h.End, &h.Score)
		})
		if err != nil {
			return err
		}
		fetched = len(cands)
		for _, h := range cands {
			if b, ok := best[h.MemoryID]; !ok || h.Score > b.Score {
				best[h.MemoryID] = h
			}
		}
		for _, h := range best {
			hits = append(hits, h)
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("vector search: %w", err)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].MemoryID < hits[j].MemoryID
	})
	return hits[:min(len(hits), k)], fetched, nil
}
